#!/usr/bin/env bash
# npm run build:container: the container image `ddedge` (podman build, packaging/Containerfile)
# from the x64 single executable (npm run build:binaries first), on scratch: the program, the C
# libraries it links (read off ldd), CA certificates (for NODE_EXTRA_CA_CERTS and
# --use-openssl-ca; Node's own list is inside the program), and passwd/group entries for uid
# 1000; no shell, no package manager, nothing to pull. The image's files are staged in
# dist/container/ (the build context), the image's ID and size printed. Built by podman, or by
# docker where podman is missing; DDEDGE_CONTAINER_ENGINE=docker (or podman) chooses.
#   packaging/container.sh [TAG]     (default ddedge:latest)
set -euo pipefail
cd "$(dirname "$0")/.."
tag="${1:-ddedge:latest}"
program=dist/bin/ddedge-linux-x64
[ -x "$program" ] || { echo "$program is missing: run npm run build:binaries first" >&2; exit 2; }
engine="${DDEDGE_CONTAINER_ENGINE:-}"
if [ -z "$engine" ]; then
  if command -v podman >/dev/null 2>&1; then engine=podman; else engine=docker; fi
fi
case "$engine" in
  podman|docker) ;;
  *) echo "DDEDGE_CONTAINER_ENGINE: \"$engine\" is neither podman nor docker" >&2; exit 2 ;;
esac
context=dist/container
rm -rf "$context"
rootfs="$context/rootfs"
install -d -m 0755 "$rootfs/usr/local/bin" "$rootfs/etc/ssl/certs" "$rootfs/tmp" "$context/state"
install -m 0755 "$program" "$rootfs/usr/local/bin/ddedge"
# Each library the program links, at the path the loader looks for it (and the loader itself).
ldd "$program" | awk '/=> \// { print $3 } /^[ \t]*\// { print $1 }' | while read -r lib; do
  install -D -m 0755 "$(readlink -f "$lib")" "$rootfs$lib"
done
install -m 0644 /etc/ssl/certs/ca-certificates.crt "$rootfs/etc/ssl/certs/ca-certificates.crt"
printf 'root:x:0:0:root:/:/sbin/nologin\nddedge:x:1000:1000:ddedge:/state:/sbin/nologin\n' > "$rootfs/etc/passwd"
printf 'root:x:0:\nddedge:x:1000:\n' > "$rootfs/etc/group"
chmod 1777 "$rootfs/tmp"
cp packaging/Containerfile "$context/Containerfile"
case "$engine" in
  # podman makes OCI images unless told otherwise, and the OCI format has no HEALTHCHECK.
  podman) podman build --quiet --format docker -f "$context/Containerfile" -t "$tag" "$context" >/dev/null ;;
  docker) docker build --quiet -f "$context/Containerfile" -t "$tag" "$context" >/dev/null ;;
esac
echo "built image $tag with $engine ($("$engine" image inspect --format '{{.Size}}' "$tag") bytes)"
