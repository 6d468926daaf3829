#!/usr/bin/env bash
# npm run build:deb: dist/ddedge_<version>_all.deb and its SHA-256 sum, from the built dist/
# (npm run build, or build:binaries, first; a later npm run build leaves the package in dist/ and
# names it). Architecture "all": the program is JavaScript and runs on Debian's Node.js
# (Depends: nodejs (>= 20.18)). What it holds:
#   /usr/lib/ddedge/{dist,bin,build}     the program, the ACME hook, the code-cache step
#   /usr/bin/ddedge, /usr/bin/ddedge-acme links to them
#   /lib/systemd/system/                 the units of systemd/ (the same as a manual install's)
#   /usr/lib/sysusers.d/ddedge.conf      the ddedge system user and group
#   /etc/ddedge/ddedge.env               settings, a conffile, 0640 root:ddedge
#   /usr/share/bash-completion/completions/ddedge, /usr/share/doc/ddedge/ (README.Debian: purging keeps /var/lib/ddedge;
#   the manual: README.md.gz and the pages it links to, docs/*.md.gz)
#   /usr/share/ddedge/dnsapi/dns_ddedge.sh  acme.sh's hook, to copy into acme.sh's dnsapi/ (docs/certificates.md)
# The postinst makes the user and V8's code cache with the Node.js that will run ddedge
# (packaging/deb/postinst); the cache the build made belongs to the build's Node and is left out.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
for file in dist/ddedge.mjs dist/ddedge.cjs; do
  [ -f "$file" ] || { echo "$file is missing: run npm run build first" >&2; exit 2; }
done
version="$(node -p 'require("./package.json").version')"
deb="dist/ddedge_${version}_all.deb"
work="$(mktemp -d "${TMPDIR:-/tmp}/ddedge-deb-XXXXXX")"
trap 'rm -rf "$work"' EXIT
pkg="$work/ddedge"

install -d -m 0755 "$pkg/DEBIAN" "$pkg/usr/lib/ddedge/dist/chunks" "$pkg/usr/lib/ddedge/bin" "$pkg/usr/lib/ddedge/build" \
  "$pkg/usr/bin" "$pkg/lib/systemd/system" "$pkg/usr/lib/sysusers.d" "$pkg/usr/share/doc/ddedge" \
  "$pkg/usr/share/doc/ddedge/docs" "$pkg/usr/share/bash-completion/completions" "$pkg/usr/share/ddedge/dnsapi" "$pkg/etc/ddedge"
install -m 0755 dist/ddedge.mjs "$pkg/usr/lib/ddedge/dist/ddedge.mjs"
install -m 0755 dist/ddedge.cjs "$pkg/usr/lib/ddedge/dist/ddedge.cjs"
for file in dist/chunks/*.cjs dist/chunks/*.LEGAL.txt; do install -m 0644 "$file" "$pkg/usr/lib/ddedge/dist/chunks/"; done
install -m 0755 bin/ddedge-acme "$pkg/usr/lib/ddedge/bin/ddedge-acme"
install -m 0644 build/code-cache.mjs build/code-cache-cycle.mjs build/whoami-dns.mjs "$pkg/usr/lib/ddedge/build/"
# The CommonJS launcher: Node starts no ES module loader for it (docs/performance.md).
ln -s ../lib/ddedge/dist/ddedge.cjs "$pkg/usr/bin/ddedge"
ln -s ../lib/ddedge/bin/ddedge-acme "$pkg/usr/bin/ddedge-acme"
install -m 0644 systemd/ddedge.service systemd/ddedge.timer systemd/ddedge-daemon.service systemd/ddedge-gateway.service "$pkg/lib/systemd/system/"
# acme.sh sources its hooks (never runs them): not executable, as acme.sh's own are installed.
install -m 0644 dnsapi/dns_ddedge.sh "$pkg/usr/share/ddedge/dnsapi/dns_ddedge.sh"
install -m 0644 packaging/deb/sysusers.conf "$pkg/usr/lib/sysusers.d/ddedge.conf"
install -m 0640 packaging/deb/ddedge.env "$pkg/etc/ddedge/ddedge.env"
node dist/ddedge.mjs completion bash > "$pkg/usr/share/bash-completion/completions/ddedge"
chmod 0644 "$pkg/usr/share/bash-completion/completions/ddedge"
install -m 0644 packaging/deb/copyright "$pkg/usr/share/doc/ddedge/copyright"
install -m 0644 packaging/deb/README.Debian "$pkg/usr/share/doc/ddedge/README.Debian"
install -D -m 0644 packaging/deb/lintian-overrides "$pkg/usr/share/lintian/overrides/ddedge"
gzip -9n < README.md > "$pkg/usr/share/doc/ddedge/README.md.gz"
for page in docs/*.md; do gzip -9n < "$page" > "$pkg/usr/share/doc/ddedge/$page.gz"; done
date="$(date -R -u -d "@${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}")"
printf 'ddedge (%s) unstable; urgency=medium\n\n  * Release %s.\n\n -- ddedge maintainers <ddedge@example.org>  %s\n' "$version" "$version" "$date" | gzip -9n > "$pkg/usr/share/doc/ddedge/changelog.gz"

size="$(du -sk --exclude=DEBIAN "$pkg" | cut -f1)"
sed -e "s/@VERSION@/$version/" -e "s/@SIZE@/$size/" packaging/deb/control > "$pkg/DEBIAN/control"
echo /etc/ddedge/ddedge.env > "$pkg/DEBIAN/conffiles"
for script in postinst prerm postrm; do install -m 0755 "packaging/deb/$script" "$pkg/DEBIAN/$script"; done
(cd "$pkg" && find . -type f ! -path './DEBIAN/*' -printf '%P\0' | sort -z | xargs -0 md5sum) > "$pkg/DEBIAN/md5sums"
chmod 0644 "$pkg/DEBIAN/md5sums" "$pkg/DEBIAN/control" "$pkg/DEBIAN/conffiles"

rm -f "$deb" "$deb.sha256"
dpkg-deb --root-owner-group -Zxz --build "$pkg" "$deb" >/dev/null
(cd dist && sha256sum "$(basename "$deb")" > "$(basename "$deb").sha256")
echo "built $deb ($(stat -c %s "$deb") bytes)"
