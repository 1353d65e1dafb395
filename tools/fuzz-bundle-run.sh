#!/usr/bin/env bash
# run.sh of the fuzz bundle (tools/make-fuzz-bundle.sh copies this file
# there): a fuzzing campaign on a machine without clang.
#
#   .fuzzbundle/run.sh SECONDS JOBS [CORPUS]
#
# Unpacks the bundle into $TL_FUZZ_WORK (default /tmp/tl-fuzz-campaign),
# runs tools/fuzz-all.sh SECONDS JOBS there on the prebuilt harnesses,
# reading CORPUS too (NAME/ folders, or a .tar.gz of them: an earlier
# run's corpus.tar.gz), then merges and replays as make-fuzz-bundle.sh
# says, and writes its files to $TL_FUZZ_OUT, else $OUT, else ./fuzz-out.
# Exits non-zero when a harness found something.
#
# TL_FUZZ_PACK=FILE, beside other work in one device call (which brings
# back at most 8 files of 16 MiB): this script's output goes to run.txt in
# the out folder (TL_FUZZ_OUT, else a fresh $TL_FUZZ_WORK-out), packed
# into FILE at the end, under 15 MiB (new.tar.gz, then logs.tar.gz left
# out where they would make it more).
# The harnesses' files (convert's saves, fork mode's folders) go to
# TL_FUZZ_TMPDIR, default /dev/shm where there is one: convert's atomic
# saves fsync four files an input, and on a disk it waits for them (its
# corpus replayed in 4.7 s on this machine's disk, 3.0 s in /dev/shm; on
# the lent machine it fuzzed at three quarters of a core).
set -uo pipefail
seconds=${1:-}
jobs=${2:-}
given=${3:-}
if [ -z "$seconds" ] || [ -z "$jobs" ]; then
  echo "usage: run.sh SECONDS JOBS [CORPUS]" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
work=${TL_FUZZ_WORK:-/tmp/tl-fuzz-campaign}
pack_file=${TL_FUZZ_PACK:-}
out=${TL_FUZZ_OUT:-${OUT:-$PWD/fuzz-out}}
if [ -n "$pack_file" ]; then
  pack_file=$(realpath -m "$pack_file")
  # an earlier call's files on a machine still warm must not come back again
  [ -z "${TL_FUZZ_OUT:-}" ] && out=$work-out && rm -rf "$out"
fi
targets=${TL_FUZZ_TARGETS:-"mtx npy csv text convert run-record gauss-record"}
mkdir -p "$out"
out=$(cd "$out" && pwd)
[ -n "$pack_file" ] && exec >"$out/run.txt" 2>&1
rm -rf "$work"
mkdir -p "$work"
# xz, or Python's lzma where the machine has no xz
if command -v xz >/dev/null 2>&1; then
  tar -C "$work" -xJf "$here/fuzz.tar.xz" || exit 1
else
  python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' \
    "$here/fuzz.tar.xz" "$work" || exit 1
fi

# the scripts beside the archive are the ones to run
mkdir -p "$work/tools"
cp "$here/fuzz-all.sh" "$work/tools/fuzz-all.sh" || exit 1

# the corpus to continue from, as an absolute folder of NAME/ folders
if [ -n "$given" ]; then
  case $given in
    *.tar.gz|*.tgz)
      mkdir -p "$work/given"
      tar -C "$work/given" -xzf "$given" || exit 1
      given=$work/given ;;
    *)
      given=$(cd "$given" && pwd) || exit 1 ;;
  esac
fi

export LD_LIBRARY_PATH="$work/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export TL_FUZZ_TIME="$work/bin/time"
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$work/.ci/lsan.supp:print_suppressions=0}
export TL_MAX_MATRIX_BYTES=67108864
tmp=${TL_FUZZ_TMPDIR:-/dev/shm}
[ -d "$tmp" ] && [ -w "$tmp" ] && export TMPDIR=$tmp
timeout=${TL_FUZZ_TIMEOUT:-5}
limits=(-timeout="$timeout" -max_len=65536 -rss_limit_mb=2048 -malloc_limit_mb=512)
step_limit=${TL_FUZZ_STEP_LIMIT:-120}  # seconds for each merge and each replay
cd "$work" || exit 1

echo "== $(date -u +%FT%TZ) $(nproc) cores: every harness for $seconds s, -fork=$jobs${given:+, continuing from $given}"
TL_FUZZ_PREBUILT=1 TL_FUZZ_BUILD=build TL_FUZZ_CORPUS=$given \
  bash tools/fuzz-all.sh "$seconds" "$jobs" 2>&1 | tee "$out/fuzz-all.txt"
status=${PIPESTATUS[0]}
echo "== $(date -u +%FT%TZ) merging and replaying"

# per harness: the smallest set of what this run and CORPUS found that
# covers what the committed corpus does not, then the whole replayed once
merge_and_replay() {
  local name=$1 w=build/fuzz-$1 committed=tests/fuzz/corpus/$1
  rm -rf "$w/merged"
  mkdir -p "$w/merged"
  cp "$committed"/* "$w/merged/"
  local more=()
  [ -n "$given" ] && [ -d "$given/$name" ] && more=("$given/$name")
  # each step bounded, so that a device run's files still come back
  if ! timeout "$step_limit" "build/tests/fuzz/fuzz-$name" -merge=1 "${limits[@]}" "$w/merged" \
    "${more[@]}" "$w/scratch" >"$w/merge-log" 2>&1; then
    # out of time (or stopped): keep everything, unmerged, so that the
    # next run continues from all of it
    echo "run.sh: merging fuzz-$name did not finish: its corpus is kept unmerged" \
      | tee -a "$w/merge-log" >&2
    local dir
    for dir in "${more[@]}" "$w/scratch"; do
      cp -r "$dir"/. "$w/merged/"
    done
  fi
  for f in "$committed"/*; do
    rm -f "$w/merged/$(basename "$f")"
  done
  timeout "$step_limit" "build/tests/fuzz/fuzz-$name" -runs=0 -print_final_stats=1 \
    "${limits[@]}" "$committed" "$w/merged" >"$w/replay-log" 2>&1
}
for name in $targets; do
  merge_and_replay "$name" &
done
wait

# the table: fuzz-all.sh's figures, then the replay's
final_stat() { sed -n "s/^stat::$2: *//p" "$1" | tail -1; }
field() { grep -oE "\"$2\": \"[^\"]*\"" "$1" | cut -d'"' -f4; }
: >"$out/results.json"
{
  echo "fuzzing: $seconds s, -fork=$jobs, $(nproc) cores, $(date -u +%F)"
  printf '%-13s %-5s %11s %7s %8s %8s %7s %8s %6s %9s %9s %7s\n' harness result executions \
    exec/s "CPU min" "peak MB" "new" "merged" "cov" "features" "corpus" "slowest"
  for name in $targets; do
    w=build/fuzz-$name
    line=$(grep "\"fuzz-$name\"" build/fuzz-results.json)
    printf '%s\n' "$line" >"$work/line.json"
    r=$(field "$work/line.json" result)
    ex=$(field "$work/line.json" execs)
    es=$(field "$work/line.json" exec_s)
    rss=$(field "$work/line.json" peak_rss_mb)
    cpu=$(field "$work/line.json" cpu_s)
    cpu_min=$(awk -v c="${cpu:-0}" 'BEGIN { printf "%.1f", c / 60 }')
    new=$(find "$w/scratch" -type f | wc -l)
    merged=$(find "$w/merged" -type f | wc -l)
    # INITED's "cov: N ft: N corp: N/SIZE" over the committed and merged corpus
    inited=$(grep -E 'INITED' "$w/replay-log" | tail -1)
    cov=$(grep -oE 'cov: [0-9]+' <<<"$inited" | cut -d' ' -f2)
    ft=$(grep -oE 'ft: [0-9]+' <<<"$inited" | cut -d' ' -f2)
    corp=$(grep -oE 'corp: [0-9]+/[0-9]+[a-zA-Z]*' <<<"$inited" | cut -d' ' -f2)
    slow=$(final_stat "$w/replay-log" slowest_unit_time_sec)
    [ -z "$cov" ] && slow=""  # the replay did not get through the corpus
    printf '%-13s %-5s %11s %7s %8s %8s %7s %8s %6s %9s %9s %6ss\n' "$name" "$r" "$ex" "$es" \
      "$cpu_min" "$rss" "$new" "$merged" "${cov:-?}" "${ft:-?}" "${corp:-?}" "${slow:-?}"
    printf '{"name": "fuzz-%s", "result": "%s", "execs": "%s", "exec_s": "%s", "cpu_s": "%s", "peak_rss_mb": "%s", "new": %d, "merged": %d, "replay_cov": "%s", "replay_ft": "%s", "replay_corpus": "%s", "slowest_s": "%s"}\n' \
      "$name" "$r" "$ex" "$es" "$cpu" "$rss" "$new" "$merged" "${cov:-}" "${ft:-}" "${corp:-}" \
      "${slow:-}" >>"$out/results.json"
  done
  echo "(executions, exec/s, peak MB, CPU min: the fuzzing, fork children included; new: inputs it added;"
  echo " merged: the minimal set over the committed corpus, CORPUS included; cov, features, corpus,"
  echo " slowest: one replay of the committed corpus and the merged set)"
} | tee "$out/summary.txt"

# what comes back: at most 8 files of at most 16 MiB
pack() {
  local file=$1 sub=$2
  local list=()
  for name in $targets; do
    [ -n "$(ls -A "build/fuzz-$name/$sub" 2>/dev/null)" ] && list+=("fuzz-$name/$sub")
  done
  [ ${#list[@]} -eq 0 ] && return
  tar -C build -czf "$out/$file" "${list[@]}" \
    --transform "s,^fuzz-\([a-z-]*\)/$sub,\1,"
  if [ "$(stat -c %s "$out/$file")" -gt $((15 * 1024 * 1024)) ]; then
    echo "run.sh: $file is over 15 MiB: left out" | tee -a "$out/summary.txt"
    rm -f "$out/$file"
  fi
}
pack corpus.tar.gz merged
pack crashes.tar.gz crashes
pack new.tar.gz scratch
tar -C build -czf "$out/logs.tar.gz" fuzz-results.json $(cd build && ls -d fuzz-*/ci-log \
  fuzz-*/merge-log fuzz-*/replay-log 2>/dev/null)
echo "== $(date -u +%FT%TZ) done (exit $status)"

# one file of at most 15 MiB, the least needed parts left out first
if [ -n "$pack_file" ]; then
  for extra in "" new.tar.gz logs.tar.gz; do
    [ -n "$extra" ] && rm -f "$out/$extra" && echo "run.sh: $extra left out of the pack (over 15 MiB)"
    tar -C "$out" -cf "$pack_file" . 2>/dev/null
    [ "$(stat -c %s "$pack_file")" -le $((15 * 1024 * 1024)) ] && break
  done
fi
exit "$status"
