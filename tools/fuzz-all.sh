#!/usr/bin/env bash
# Runs every libFuzzer harness (tests/fuzz/fuzz-NAME.c) at once, each for
# SECONDS (default 60) from its committed corpus: the fuzz step of each CI
# run (.ci/run).  The harnesses run side by side, so on 2 cores the seven of
# them share one window of SECONDS; each is a process of its own at the
# same limits as tools/fuzz.sh (2 GiB RSS, 512 MiB a malloc, matrices
# capped at 64 MiB) but a hang is an input over 5 s (TL_FUZZ_TIMEOUT), not
# 1 s: six harnesses on two cores ran at a third of a core each, and an
# input of 0.4 s alone passed 1 s of wall time among them.
#
#   tools/fuzz-all.sh [SECONDS] [JOBS]
#
# JOBS (default 1) parallel processes per harness, through libFuzzer's
# -fork=JOBS (each child fuzzes, the parent merges what they find): on a
# many-core machine, 7 × JOBS cores; an hour of CPU per harness on 32
# cores is `tools/fuzz-all.sh 900 4` (7 × 4 = 28 processes, 15 minutes, 60
# CPU-minutes a harness).  A fork child runs for up to its job number of
# seconds and is waited for: the run may end a minute or so after SECONDS.
#
# TL_FUZZ_JOBS_FOR="NAME=N …" runs those harnesses with N processes
# instead of JOBS (a campaign continued over several runs evens out the
# CPU minutes of one that got fewer); TL_FUZZ_TARGETS="NAME …" fuzzes
# only those harnesses (one that is still owed its hour).  With JOBS over 1 a crash stops
# only the fork child that found it (-ignore_crashes=1), as hangs and
# over-allocations do: the harness fuzzes on and FAILs at the end.
#
# TL_FUZZ_PREBUILT=1 skips the build and runs the harnesses already in
# $TL_FUZZ_BUILD/tests/fuzz/ (a build copied from another machine, with
# its shared libraries on LD_LIBRARY_PATH: tools/make-fuzz-bundle.sh packs
# one for the lent GPU machine, which has no clang).
#
# TL_FUZZ_CORPUS=DIR continues a campaign: DIR/NAME/ (an earlier run's
# corpus, tools/make-fuzz-bundle.sh's run.sh gives it) is read besides the
# committed corpus.
#
# New inputs go to $TL_FUZZ_BUILD/fuzz-NAME/scratch/ (emptied first; the
# corpora are only read); crashes, hangs and over-allocations to
# $TL_FUZZ_BUILD/fuzz-NAME/crashes/; the log to fuzz-NAME/ci-log.
# Writes one JSON line a harness to $TL_FUZZ_BUILD/fuzz-results.json
# ({"name", "result": "OK"|"FAIL", "execs", "exec_s", "cov", "ft", "corpus",
# "peak_rss_mb", "cpu_s"}: peak RSS and CPU seconds of the harness with its
# fork children, through GNU time when there is one, TL_FUZZ_TIME names
# another) and prints a table; exits non-zero when any harness found
# something.
set -uo pipefail
cd "$(dirname "$0")/.."

targets=${TL_FUZZ_TARGETS:-"mtx npy csv text convert run-record gauss-record"}
seconds=${1:-60}
jobs=${2:-1}
case $seconds in
  ''|*[!0-9]*) echo "tools/fuzz-all.sh: SECONDS must be a whole number, not “$seconds”" >&2; exit 2 ;;
esac
case $jobs in
  ''|0|*[!0-9]*) echo "tools/fuzz-all.sh: JOBS must be a whole number from 1, not “$jobs”" >&2; exit 2 ;;
esac
# JOBS of harness NAME: TL_FUZZ_JOBS_FOR="NAME=N …" gives some another
# number (a campaign evens out the CPU minutes of one that lost some)
jobs_of() {
  local kv n=$jobs
  for kv in ${TL_FUZZ_JOBS_FOR:-}; do
    [ "${kv%%=*}" = "$1" ] && n=${kv#*=}
  done
  case $n in
    ''|0|*[!0-9]*) echo "tools/fuzz-all.sh: TL_FUZZ_JOBS_FOR gives $1 “$n” jobs" >&2; exit 2 ;;
  esac
  echo "$n"
}
# with -fork a crash stops only the child that found it (hangs and
# over-allocations already do): the harness keeps fuzzing, and its
# crashes/ folder says it found something
fork_of() {
  local n
  n=$(jobs_of "$1") || exit 2
  if [ "$n" -gt 1 ]; then
    echo "-fork=$n -ignore_crashes=1"
  fi
}
for name in $targets; do
  fork_of "$name" >/dev/null || exit 2
done
export TL_FUZZ_BUILD=${TL_FUZZ_BUILD:-build-fuzz}
build=$TL_FUZZ_BUILD

# the build (and clang) as tools/fuzz.sh makes them: 0 minutes only builds
for name in $targets; do
  if [ -n "${TL_FUZZ_PREBUILT:-}" ]; then
    [ -x "$build/tests/fuzz/fuzz-$name" ] && continue
    echo "tools/fuzz-all.sh: TL_FUZZ_PREBUILT is set, but $build/tests/fuzz/fuzz-$name is missing" >&2
    exit 1
  fi
  if ! bash tools/fuzz.sh "$name" 0; then
    echo "tools/fuzz-all.sh: building fuzz-$name failed" >&2
    exit 1
  fi
done

export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/.ci/lsan.supp:print_suppressions=0}
export TL_MAX_MATRIX_BYTES=67108864

# peak RSS (wait4 reports the largest of a harness and its fork children)
# and CPU seconds (theirs together)
timer=()
time_bin=${TL_FUZZ_TIME:-/usr/bin/time}
[ -x "$time_bin" ] && timer=("$time_bin" -f '%M %U %S' -o)

declare -A pids
for name in $targets; do
  work="$build/fuzz-$name"
  rm -rf "$work/scratch" "$work/time"
  mkdir -p "$work/scratch" "$work/crashes"
  touch "$work/started"  # what crashes/ got since is this run's
  more=()
  [ -n "${TL_FUZZ_CORPUS:-}" ] && [ -d "$TL_FUZZ_CORPUS/$name" ] && more=("$TL_FUZZ_CORPUS/$name")
  ${timer[@]:+"${timer[@]}" "$work/time"} \
  "$build/tests/fuzz/fuzz-$name" $(fork_of "$name") -max_total_time="$seconds" \
    -timeout="${TL_FUZZ_TIMEOUT:-5}" \
    -max_len=65536 \
    -rss_limit_mb=2048 -malloc_limit_mb=512 -print_final_stats=1 \
    -artifact_prefix="$work/crashes/" "$work/scratch" "tests/fuzz/corpus/$name" \
    "${more[@]}" >"$work/ci-log" 2>&1 &
  pids[$name]=$!
done

status=0
: >"$build/fuzz-results.json"
# the last status line's "NAME: N" (or "NAME N", as fork mode prints exec/s)
last_stat() {
  grep -oE "$2:? [0-9]+" "$1" | tail -1 | grep -oE '[0-9]+$'
}

printf '%-14s %-6s %12s %8s %6s %6s %7s %9s %7s\n' harness result executions exec/s cov ft corpus \
  "peak RSS" "CPU s"
for name in $targets; do
  wait "${pids[$name]}"
  rc=$?
  log="$build/fuzz-$name/ci-log"
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  # fork mode prints no final stats: its last status line "#EXECS: cov: …"
  [ -z "$execs" ] && execs=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#')
  cov=$(last_stat "$log" cov)
  ft=$(last_stat "$log" ft)
  corp=$(last_stat "$log" corp)
  exec_s=$(last_stat "$log" exec/s)
  rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -1)
  # "KB USER SYS" (GNU time puts a line before it when the exit is not 0)
  read -r rss_kb user sys < <(grep -E '^[0-9]+ [0-9.]+ [0-9.]+$' "$build/fuzz-$name/time" \
    2>/dev/null | tail -1)
  cpu=""
  if [ -n "${rss_kb:-}" ]; then
    rss=$((rss_kb / 1024))
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.0f", u + s }')
  fi
  result=OK
  found=$(find "$build/fuzz-$name/crashes" -type f -newer "$build/fuzz-$name/started" | wc -l)
  if [ $rc -ne 0 ] || [ "$found" -gt 0 ]; then
    result=FAIL
    status=1
    echo "tools/fuzz-all.sh: fuzz-$name found a problem (exit $rc, $found new inputs in crashes/):" >&2
    grep -E 'ERROR|Bail out|SUMMARY|Test unit written' "$log" | head -8 >&2
  fi
  printf '%-14s %-6s %12s %8s %6s %6s %7s %6s MB %7s\n' "$name" "$result" "${execs:-?}" \
    "${exec_s:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" "${rss:-?}" "${cpu:-?}"
  printf '{"name": "fuzz-%s", "result": "%s", "execs": "%s", "exec_s": "%s", "cov": "%s", "ft": "%s", "corpus": "%s", "peak_rss_mb": "%s", "cpu_s": "%s"}\n' \
    "$name" "$result" "${execs:-}" "${exec_s:-}" "${cov:-}" "${ft:-}" "${corp:-}" "${rss:-}" \
    "${cpu:-}" >>"$build/fuzz-results.json"
done
exit $status
