#!/usr/bin/env bash
# ddedge on every maintained Node.js line (a user's Node may be any of them), as CI runs it
# after `npm test` (which is the full suite on the machine's Node, 20, the oldest line):
#   scripts/node-matrix.sh                  Node 22, 24 and 26: the demo and the e2e tests below
#   scripts/node-matrix.sh 24               one line
#   scripts/node-matrix.sh 22 24 --full 26  as CI: the full suite (`vitest run`, every unit
#                                           and e2e test) on the newest line, 26, as on the oldest
# On each line: the build (so that its code cache is that Node's), the demo, and the e2e tests
# below, which run the built program as users do: every command, the launcher and its code
# cache, npm install -g, TLS and logs, the sandbox; on the newest, every case of the cycle too. (Tests that assert
# wall time, such as daemon-signals, are left to the full suite: under load they fail alone.)
# The Node binaries come from the npm registry (packaging/node.sh, versions in
# packaging/node-versions). It runs in a copy of the checkout, so that dist/ here stays the
# machine's Node's build.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
e2e=(
  test/e2e/cli/commands.test.ts
  test/e2e/bootstrap/code-cache.test.ts
  test/e2e/bootstrap/launcher-chunks.test.ts
  test/e2e/build/npm-install.test.ts
  test/e2e/http/tls-and-logs.test.ts
  test/e2e/sandbox/behaviour.test.ts
)
lines=()
full=()
while [ $# -gt 0 ]; do
  case "$1" in
    --full) full+=("${2:?--full needs a Node major}"); lines+=("$2"); shift 2 ;;
    [0-9]*) lines+=("$1"); shift ;;
    *) echo "usage: scripts/node-matrix.sh [MAJOR...] [--full MAJOR]" >&2; exit 2 ;;
  esac
done
[ ${#lines[@]} -gt 0 ] || lines=(22 24 26)
is_full() { local m; for m in ${full[@]+"${full[@]}"}; do [ "$m" = "$1" ] && return 0; done; return 1; }
# The newest line also runs every case of the cycle (update.test.ts, the longest of the set).
newest="${lines[${#lines[@]}-1]}"

copy="$(mktemp -d "${TMPDIR:-/tmp}/ddedge-matrix-XXXXXX")"
# The Node binaries, where other users can run them: tests run the built program as uid 1000
# too (test/unit/build/staged-dist.test.ts, containers, state-files), and the cache of
# packaging/node.sh is under root's home.
nodes="$(mktemp -d "${TMPDIR:-/tmp}/ddedge-matrix-node-XXXXXX")"
chmod 0755 "$nodes"
trap 'rm -rf "$copy" "$nodes"' EXIT
tar -C "$root" --exclude=./node_modules --exclude=./dist --exclude=./.git -cf - . | tar -C "$copy" -xf -
# A copy, not a link: through a link npm takes the dependencies for linked packages and lists
# their build scripts as unreviewed (test/unit/packaging/packaging.test.ts); and nothing a test run
# writes there (vitest's cache) reaches the checkout's.
cp -a "$root/node_modules" "$copy/node_modules"
cd "$copy"

for major in "${lines[@]}"; do
  install -d -m 0755 "$nodes/$major/bin"
  cp "$("$root/packaging/node.sh" "$major")" "$nodes/$major/bin/node"
  node_bin="$nodes/$major/bin/node"
  start=$SECONDS
  files=("${e2e[@]}")
  [ "$major" != "$newest" ] || files+=(test/e2e/agent/update.test.ts)
  # The full suite: every test file (vitest.config.ts), which includes the ones above.
  ! is_full "$major" || files=()
  (
    export PATH="$(dirname "$node_bin"):$PATH"
    if [ ${#files[@]} -eq 0 ]; then echo "== Node $(node --version): build, the full suite, demo"
    else echo "== Node $(node --version): build, ${#files[@]} e2e test files, demo"; fi
    # vitest's global setup builds dist/ (test/helpers/global-setup.ts) with this Node.
    node node_modules/vitest/vitest.mjs run ${files[@]+"${files[@]}"}
    node scripts/demo.mjs >/dev/null
  )
  echo "== Node $major: $((SECONDS - start)) s"
done
