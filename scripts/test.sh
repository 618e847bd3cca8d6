#!/usr/bin/env bash
# The whole test suite (`npm test`), the inner loop (`npm run test:fast`: no browser, no real CLIs), or only the
# real-CLI suite (`npm run test:realcli`).
# Builds the web bundle (tests import dist/), type-checks, runs bun test, and ends with one plain line
# "N passed, N failed" (also written to dist/test-summary.txt for .ci/run).
set -uo pipefail
cd "$(dirname "$0")/.."
bin=node_modules/.bin
mode=${1:-all}   # all | --fast | --realcli

mkdir -p dist
summary_file=dist/test-summary.txt
fail_early() { echo "$1"; echo "0 passed, 1 failed" | tee "$summary_file"; exit 1; }

"$bin/bun" run scripts/build-web.ts >/dev/null || fail_early "web build failed"
"$bin/tsc" -p . || fail_early "type check failed"

args=()
case "$mode" in
  --fast) args+=("--path-ignore-patterns=**/e2e/**" "--path-ignore-patterns=**/realcli/**") ;;
  --realcli) args+=("./tests/realcli") ;;
esac

log=$(mktemp)
"$bin/bun" test "${args[@]}" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}

count() { grep -E "^ *[0-9]+ $1\$" "$log" | tail -n 1 | awk '{print $1}'; }
passed=$(count pass); failed=$(count fail); errors=$(count error); skipped=$(count skip)
passed=${passed:-0}; failed=$(( ${failed:-0} + ${errors:-0} )); skipped=${skipped:-0}
rm -f "$log"

if [ "$passed" -eq 0 ] && [ "$failed" -eq 0 ]; then
  failed=1; status=1; echo "no tests ran"
fi
[ "$failed" -gt 0 ] && [ "$status" -eq 0 ] && status=1
line="$passed passed, $failed failed"
[ "$skipped" -gt 0 ] && line="$line, $skipped skipped"
echo "$line" | tee "$summary_file"
exit "$status"
