#!/usr/bin/env bash
# The whole test suite (`npm test`), the inner loop (`npm run test:fast`: no browser, no real CLIs), or only the
# real-CLI suite (`npm run test:realcli`).
# Builds the web bundle (tests import dist/), type-checks, runs bun test, and ends with one plain line
# "N passed, N failed" summed over every bun test process (also written to dist/test-summary.txt for .ci/run).
# Any failing part fails the whole run.
#
# `npm test` runs two lanes at once, so the real-CLI install and the longest real-CLI file overlap everything else:
#   lane 1 (shown as it runs): unit, route, Deno and browser tests, then the other real-CLI files;
#   lane 2 (shown when it ends): the pinned CLIs installed into tests/realcli/.cache (reused while the pins match,
#           see tests/realcli/setup.ts), then tests/realcli/od-run.test.ts.
set -uo pipefail
cd "$(dirname "$0")/.."
bin=node_modules/.bin
mode=${1:-all}   # all | --fast | --realcli

mkdir -p dist
summary_file=dist/test-summary.txt
work=$(mktemp -d)
lane2=""
passed=0 failed=0 skipped=0 status=0

stop_lane2() { if [ -n "$lane2" ]; then kill -TERM -- "-$lane2" 2>/dev/null; wait "$lane2" 2>/dev/null; fi; }
trap 'rm -rf "$work"' EXIT
trap 'stop_lane2; exit 130' INT TERM

finish() {
  [ "$failed" -gt 0 ] && status=1
  local line="$passed passed, $failed failed"
  [ "$skipped" -gt 0 ] && line="$line, $skipped skipped"
  echo "$line" | tee "$summary_file"
  exit "$status"
}
# A failed build or type check: lane 2 finishes the install it began (it is only a cache) but starts no tests.
fail_early() {
  echo "$1"
  touch "$work/stop"
  [ -n "$lane2" ] && wait "$lane2"
  failed=1
  finish
}

count() { grep -E "^ *[0-9]+ $2\$" "$1" | tail -n 1 | awk '{print $1}'; }
# Add one bun test process's counts (from its log) to the totals; a run that counted nothing or exited non-zero
# without a failure still fails.
tally() {
  local log=$1 rc=$2 p f e s
  p=$(count "$log" pass); f=$(count "$log" fail); e=$(count "$log" error); s=$(count "$log" skip)
  p=${p:-0}; f=$(( ${f:-0} + ${e:-0} )); s=${s:-0}
  if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then echo "no tests ran ($3)"; f=1; fi
  [ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1
  [ "$rc" -ne 0 ] && status=1
  passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
}
# bun test ARGS…, shown as it runs and counted; $1 names the part.
run_live() {
  local name=$1; shift
  "$bin/bun" test "$@" 2>&1 | tee "$work/$name.log"
  tally "$work/$name.log" "${PIPESTATUS[0]}" "$name"
}
# The pinned real CLIs (a no-op while tests/realcli/.cache matches the pins); writes install.status when done.
install_clis() {
  "$bin/bun" tests/realcli/setup.ts >"$work/install.log" 2>&1
  echo $? >"$work/install.status"
}
# Wait for install_clis (in lane 2); true when it succeeded, else its output is shown and counted as one failure.
installed() {
  while [ ! -f "$work/install.status" ] && { [ -z "$lane2" ] || kill -0 "$lane2" 2>/dev/null; }; do sleep 1; done
  [ "$(cat "$work/install.status" 2>/dev/null)" = 0 ] && return 0
  echo "real-CLI install failed:"; cat "$work/install.log"
  failed=$((failed + 1)); status=1
  return 1
}

out=$("$bin/bun" run scripts/build-web.ts 2>&1) || fail_early "web build failed: $out"

case "$mode" in
  --fast)
    "$bin/tsc" -p . || fail_early "type check failed"
    run_live unit "--path-ignore-patterns=**/e2e/**" "--path-ignore-patterns=**/realcli/**"
    ;;
  --realcli)
    "$bin/tsc" -p . || fail_early "type check failed"
    install_clis
    installed && run_live realcli ./tests/realcli
    ;;
  *)
    # Lane 2 in its own process group, so an interrupt stops all of it.
    set -m
    ( install_clis
      if [ "$(cat "$work/install.status")" = 0 ] && [ ! -f "$work/stop" ]; then
        "$bin/bun" test ./tests/realcli/od-run.test.ts >"$work/od-run.log" 2>&1
        echo $? >"$work/od-run.status"
      fi ) </dev/null &
    lane2=$!
    set +m
    "$bin/tsc" -p . || fail_early "type check failed"
    run_live main "--path-ignore-patterns=**/realcli/**"
    if installed; then
      mapfile -t others < <(ls ./tests/realcli/*.test.ts | grep -v '/od-run\.test\.ts$')
      run_live realcli-other "${others[@]}"
    fi
    wait "$lane2"
    if [ -f "$work/od-run.status" ]; then
      echo; echo "── tests/realcli/od-run.test.ts (ran alongside the above) ──"
      cat "$work/od-run.log"
      tally "$work/od-run.log" "$(cat "$work/od-run.status")" od-run
    elif [ "$(cat "$work/install.status" 2>/dev/null)" = 0 ]; then
      echo "tests/realcli/od-run.test.ts did not finish"; failed=$((failed + 1)); status=1
    fi
    ;;
esac
finish
