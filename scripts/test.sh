#!/usr/bin/env bash
# The whole test suite (`npm test`), the inner loop (`npm run test:fast`: no browser, no real CLIs, no sshd or
# Docker engine: its files in six parts, two at a time), only the remote-project suite (`npm run test:remote`) or
# only the real-CLI suite (`npm run test:realcli`).
# Builds the web bundle (tests import dist/), type-checks (beside the first parts in `all` and --fast), runs bun test,
# and ends with one plain line "N passed, N failed" summed over every bun test process (also written to
# dist/test-summary.txt for .ci/run).
# Any failing part fails the whole run.
#
# `npm test` installs the pinned real CLIs into tests/realcli/.cache (a no-op while it matches the pins, see
# tests/realcli/setup.ts) in the background, and meanwhile two workers take the suites from one queue: the real-CLI
# suite in three parts (taken once the install has ended) and the rest in eight parts. Two, because a machine has two
# cores at least and one bun test process keeps one busy (a third, tried, left a loaded machine so busy that real-CLI
# detection missed its deadline). A third worker, the remote lane, runs the remote-project files in two parts beside
# them: they mostly wait (on sshd logins, a Docker engine, clean-up attempts against a frozen host; 116 s of wall time
# for 50 s of CPU alone); on a machine with one core kept busy by something else, `npm test` took 453 s and 465 s with
# it at load 3–7 (542 s at 6–9.6) and 480 s without.
# Files are dealt into parts by what each costs alone (scripts/test-costs.txt, from scripts/measure-test-costs.ts),
# so the parts of a suite take about as long as each other, and the queue starts the costliest parts first: the
# last part to end is then a short one, not a worker stuck on a long one while the other idles.
set -uo pipefail
cd "$(dirname "$0")/.."
bin=node_modules/.bin
mode=${1:-all}   # all | --fast | --remote | --realcli

mkdir -p dist
summary_file=dist/test-summary.txt
work=$(mktemp -d)
installer=""
workers=2
remote_lane=0
passed=0 failed=0 skipped=0 status=0

stop_installer() { if [ -n "$installer" ]; then kill -TERM -- "-$installer" 2>/dev/null; wait "$installer" 2>/dev/null; fi; }
trap 'rm -rf "$work"' EXIT
trap 'stop_installer; exit 130' INT TERM

finish() {
  [ "$failed" -gt 0 ] && status=1
  local line="$passed passed, $failed failed"
  [ "$skipped" -gt 0 ] && line="$line, $skipped skipped"
  echo "$line" | tee "$summary_file"
  exit "$status"
}
# The type check beside the first parts (its seconds need not hold up the tests); shown when it ends, a failure
# counted as one.
typechecker=""
start_typecheck() {
  { "$bin/tsc" -p . >"$work/tsc.log" 2>&1; echo "$?" >"$work/tsc.rc"
    [ "$(cat "$work/tsc.rc")" = 0 ] || (flock 8; cat "$work/tsc.log"; echo "type check failed") 8>"$work/output.lock"; } &
  typechecker=$!
}
end_typecheck() {
  wait "$typechecker"
  [ "$(cat "$work/tsc.rc" 2>/dev/null)" = 0 ] && return
  failed=$((failed + 1)); status=1
}
# A failed build or type check: the background install may finish (it is only a cache); no more tests start.
fail_early() {
  echo "$1"
  [ -n "$installer" ] && wait "$installer"
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
# bun test ARGS…, shown as it runs and counted; $1 names the part. 20 s per test unless a test sets its own: tests
# that start servers, sshd or CLI shims take seconds on a loaded 2-core machine, and bun's 5 s default then fails them
# at random (and kills what they started).
run_live() {
  local name=$1; shift
  "$bin/bun" test --timeout=20000 "$@" 2>&1 | tee "$work/$name.log"
  tally "$work/$name.log" "${PIPESTATUS[0]}" "$name"
}
# The pinned real CLIs (a no-op while tests/realcli/.cache matches the pins); writes install.status when done.
# In the background (`all`) only its start and end lines are shown, as they happen (what it installs, where, the
# size and the time), so they do not scatter through the other suites' output; a failure shows its whole log at
# once, not after the other suites. `live` (the --realcli mode, nothing else running) shows its progress too.
install_clis() {
  local shown='^real CLIs: (installing|installed|up to date)'
  [ "${1:-}" = live ] && shown='^'
  "$bin/bun" tests/realcli/setup.ts 2>&1 | tee "$work/install.log" | grep --line-buffered -E "$shown"
  local rc=${PIPESTATUS[0]}
  echo "$rc" >"$work/install.status"
  if [ "$rc" != 0 ] && [ "${1:-}" != live ]; then echo "real-CLI install failed:"; cat "$work/install.log"; fi
}
# True when install_clis succeeded, else counted as one failure (its output was shown when it failed).
installed() {
  [ "$(cat "$work/install.status" 2>/dev/null)" = 0 ] && return 0
  echo "real-CLI install failed (its output is above); the real-CLI suite does not run"
  failed=$((failed + 1)); status=1
  return 1
}

# What each test file costs alone, in seconds (scripts/test-costs.txt, written by scripts/measure-test-costs.ts); a
# file the table does not know yet (added since it was measured) counts as a typical small one.
costs_file=scripts/test-costs.txt
unknown_cost=1
with_costs() {
  local table=$costs_file
  [ -f "$table" ] || table=/dev/null
  awk -v unknown="$unknown_cost" 'table { cost[$2] = $1; next } { print (($0 in cost) ? cost[$0] : unknown), $0 }' table=1 "$table" table=0 -
}

# The queue: jobs in $work/queue, one a line, each with its files in $work/JOB.files; $workers workers take them in
# order, the costliest first. The real-CLI parts are taken only once the install has ended (a worker waits for them when
# they are all that is left). Each job's output is shown whole when it ends, with a line saying how long it took and
# when it ended; the counts are added up when every worker is done.
jobs_in_order=()
# add_job NAME COST FILES…
add_job() {
  local job=$1 cost=$2; shift 2
  [ "$#" -eq 0 ] && return
  printf './%s\n' "$@" >"$work/$job.files"
  echo "$cost $job" >>"$work/queue.costs"
  jobs_in_order+=("$job")
}
# add_job NAME-1 … NAME-N over FILES…, dealt by cost: the costliest file first, each to the part that costs least so
# far, so the parts end up costing about the same.
deal_jobs() {
  local name=$1 parts=$2 i; shift 2
  [ "$#" -eq 0 ] && return
  printf '%s\n' "$@" | with_costs | sort -k1,1gr -k2 | awk -v n="$parts" '
    { cost = $1; sub(/^[^ ]+ /, ""); best = 0
      for (i = 1; i < n; i++) if (load[i] < load[best]) best = i
      load[best] += cost; print best, cost, $0 }' >"$work/$name.dealt"
  for ((i = 0; i < parts; i++)); do
    mapfile -t part < <(awk -v i="$i" '$1 == i { sub(/^[^ ]+ [^ ]+ /, ""); print }' "$work/$name.dealt")
    add_job "$name-$((i + 1))" "$(awk -v i="$i" '$1 == i { sum += $2 } END { print sum + 0 }' "$work/$name.dealt")" "${part[@]}"
  done
}
# The queue in the order the workers take it: the costliest job first (jobs of equal cost as they were added).
order_queue() {
  [ -f "$work/queue.costs" ] || return
  sort -s -k1,1gr "$work/queue.costs" | cut -d' ' -f2 >"$work/queue"
}
# The next job for a worker, "wait" while only real-CLI parts are left and the install still runs, nothing when done.
# With a remote lane, its worker ($1 = remote) takes the remote-project parts, and only it; it ends when none is left.
next_job() {
  (
    flock 9
    local job ready=""
    while IFS= read -r job; do
      case "$job" in
        remote*) [ "$remote_lane" = 1 ] && [ "${1:-}" != remote ] && continue ;;
        *) [ "${1:-}" = remote ] && continue ;;
      esac
      case "$job" in realcli*) [ -f "$work/install.status" ] || continue ;; esac
      ready=$job
      break
    done <"$work/queue"
    if [ -n "$ready" ]; then
      grep -vxF -- "$ready" "$work/queue" >"$work/queue.next"
      mv "$work/queue.next" "$work/queue"
      echo "$ready"
    elif [ -s "$work/queue" ] && [ "${1:-}" != remote ]; then
      echo wait
    fi
  ) 9>"$work/queue.lock"
}
run_job() {
  local job=$1 rc=0
  case "$job" in realcli*) [ "$(cat "$work/install.status")" = 0 ] || return ;; esac
  mapfile -t files <"$work/$job.files"
  local started=$SECONDS
  "$bin/bun" test --timeout=20000 "${files[@]}" >"$work/$job.log" 2>&1 || rc=$?
  echo "$rc" >"$work/$job.rc"
  echo "part $job: ${#files[@]} files in $((SECONDS - started)) s, ended $SECONDS s into the run" >>"$work/$job.log"
  (flock 8; cat "$work/$job.log") 8>"$work/output.lock"
}
worker() {
  local job
  while job=$(next_job "${1:-}") && [ -n "$job" ]; do
    if [ "$job" = wait ]; then sleep 0.2; else run_job "$job"; fi
  done
}
run_queue() {
  order_queue
  [ -f "$work/queue" ] || { echo "no test files"; failed=$((failed + 1)); status=1; return; }
  local i others=()
  for ((i = 1; i < workers; i++)); do
    worker &
    others+=("$!")
  done
  if [ "$remote_lane" = 1 ]; then
    worker remote &
    others+=("$!")
  fi
  worker
  wait "${others[@]}"
  local job install_counted=""
  for job in "${jobs_in_order[@]}"; do
    case "$job" in
      realcli*)
        # A failed install is one failure, however many parts the real-CLI suite has.
        if [ "$(cat "$work/install.status" 2>/dev/null)" != 0 ]; then
          [ -z "$install_counted" ] && { installed; install_counted=1; }
          continue
        fi ;;
    esac
    tally "$work/$job.log" "$(cat "$work/$job.rc" 2>/dev/null || echo 1)" "$job"
  done
}

out=$("$bin/bun" run scripts/build-web.ts 2>&1) || fail_early "web build failed: $out"

case "$mode" in
  --fast)
    start_typecheck
    mapfile -t inner < <(find tests -name '*.test.ts' -not -path '*/e2e/*' -not -path '*/realcli/*' -not -path '*/remote/*' -not -path '*/.cache/*')
    deal_jobs unit 6 "${inner[@]}"
    run_queue
    end_typecheck
    ;;
  --remote)
    "$bin/tsc" -p . || fail_early "type check failed"
    run_live remote ./tests/remote
    ;;
  --realcli)
    "$bin/tsc" -p . || fail_early "type check failed"
    install_clis live
    installed && run_live realcli ./tests/realcli
    ;;
  *)
    # The install in its own process group, so an interrupt stops all of it.
    set -m
    install_clis </dev/null &
    installer=$!
    set +m
    start_typecheck
    mapfile -t rest < <(find tests -name '*.test.ts' -not -path '*/realcli/*' -not -path '*/remote/*' -not -path '*/.cache/*')
    mapfile -t remote < <(find tests/remote -name '*.test.ts' | sort)
    deal_jobs remote 2 "${remote[@]}"
    mapfile -t realcli < <(find tests/realcli -name '*.test.ts' -not -path '*/.cache/*')
    deal_jobs realcli 3 "${realcli[@]}"
    deal_jobs main 8 "${rest[@]}"
    remote_lane=1
    run_queue
    end_typecheck
    wait "$installer"
    ;;
esac
finish
