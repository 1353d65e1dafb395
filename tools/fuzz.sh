#!/usr/bin/env bash
# Runs one of Tilelab's libFuzzer harnesses (tests/fuzz/fuzz-NAME.c).
#
#   tools/fuzz.sh NAME [MINUTES]      NAME: mtx npy csv text convert run-record gauss-record
#
# MINUTES 0 only builds the harness (tools/fuzz-all.sh runs them all).
#
# Builds build-fuzz/ (TL_FUZZ_BUILD) with clang, -fsanitize=fuzzer and
# ASan + UBSan (no recovery: any report stops the run), then fuzzes for
# MINUTES (default 15) starting from the committed corpus
# tests/fuzz/corpus/NAME/.  New inputs go to build-fuzz/fuzz-NAME/corpus,
# crashes, hangs and over-allocations to build-fuzz/fuzz-NAME/crashes/
# (copy a fixed one into tests/fuzz/corpus/NAME/ so `meson test` replays
# it).  The last lines of the log give executions and edge coverage
# (docs/reliability.md).
#
# Limits: an input taking over 1 s is a hang (-timeout=1, wall-clock: on a
# busy machine replay a reported one alone before believing it); inputs
# are at most 64 KiB (-max_len); the process may hold 2 GiB (-rss_limit_mb)
# and one allocation 512 MiB (-malloc_limit_mb), while the harness caps
# matrices at 64 MiB (TL_MAX_MATRIX_BYTES): what a header asks beyond that
# must be refused, not attempted.
set -euo pipefail
cd "$(dirname "$0")/.."

targets="mtx npy csv text convert run-record gauss-record"
name=${1:-}
minutes=${2:-15}
if [ -z "$name" ] || ! printf '%s\n' $targets | grep -qx -- "$name"; then
  echo "usage: tools/fuzz.sh NAME [MINUTES]   (NAME: $targets)" >&2
  exit 2
fi
case $minutes in
  ''|*[!0-9]*) echo "tools/fuzz.sh: MINUTES must be a whole number, not “$minutes”" >&2; exit 2 ;;
esac

# clang and libFuzzer come with Debian's clang package
if ! command -v clang >/dev/null 2>&1; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "tools/fuzz.sh: installing clang" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends clang >/dev/null
fi

build=${TL_FUZZ_BUILD:-build-fuzz}
if [ ! -f "$build/build.ninja" ]; then
  # the library is instrumented for coverage; only the harness links libFuzzer
  CC=clang CXX=clang++ CFLAGS="-fsanitize=fuzzer-no-link -fno-sanitize-recover=all" \
    CXXFLAGS="-fsanitize=fuzzer-no-link -fno-sanitize-recover=all" \
    meson setup "$build" --buildtype=debugoptimized -Dfuzzing=true -Dcuda=disabled \
      -Dgui=disabled -Db_sanitize=address,undefined -Db_lundef=false >/dev/null
fi
ninja -C "$build" "tests/fuzz/fuzz-$name" >/dev/null
[ "$minutes" -eq 0 ] && exit 0

work="$build/fuzz-$name"
mkdir -p "$work/corpus" "$work/crashes"
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# the record harnesses draw: fontconfig's caches stay to the end (as in CI)
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/.ci/lsan.supp:print_suppressions=0}
export TL_MAX_MATRIX_BYTES=67108864

echo "tools/fuzz.sh: fuzz-$name for $minutes min; log in $work/log" >&2
set +e
"$build/tests/fuzz/fuzz-$name" -max_total_time=$((minutes * 60)) -timeout=1 -max_len=65536 \
  -rss_limit_mb=2048 -malloc_limit_mb=512 -print_final_stats=1 \
  -artifact_prefix="$work/crashes/" "$work/corpus" "tests/fuzz/corpus/$name" >"$work/log" 2>&1
status=$?
set -e
grep -E '^#[0-9]+.*(DONE|pulse)|^stat::|^Done ' "$work/log" | tail -8
if [ $status -ne 0 ]; then
  echo "tools/fuzz.sh: fuzz-$name found a problem (exit $status): see $work/log and $work/crashes/" >&2
fi
exit $status
