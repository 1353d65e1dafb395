#!/bin/sh
# make-fuzz-bundle.sh — pack the libFuzzer harnesses, built here with
# clang, for a fuzzing campaign on a lent many-core machine that has no
# clang (the GPU machines), the way tools/make-gpu-bundle.sh packs the GPU
# programs.
#
#   tools/make-fuzz-bundle.sh [DEST]          (default /work/main/.fuzzbundle)
#
# On that machine:  .fuzzbundle/run.sh SECONDS JOBS [CORPUS]
#
# runs tools/fuzz-all.sh SECONDS JOBS there in its TL_FUZZ_PREBUILT mode
# (every harness at once, each with libFuzzer's -fork=JOBS), from the
# committed corpus and, to continue a campaign, CORPUS: a folder of NAME/
# folders or a .tar.gz of one, such as an earlier run's corpus.tar.gz.
# Then it merges, per harness, what this run found and CORPUS into the
# smallest set that covers what the committed corpus does not
# (libFuzzer's -merge=1), replays the committed corpus with that set once
# (the coverage of the whole, the slowest input) and writes to
# $TL_FUZZ_OUT, else $OUT, else ./fuzz-out — six files, as a device run
# brings back at most 8 (beside other work, TL_FUZZ_PACK=$OUT/fuzz.tar
# packs them, with run.sh's output, into one):
#   summary.txt     the table: executions, exec/s, cov, features, corpus,
#                   peak RSS, CPU seconds, slowest input, result
#   results.json    the same, one JSON line a harness
#   corpus.tar.gz   NAME/…: the merged set (CORPUS of the next call)
#   new.tar.gz      NAME/…: every input this run added, unmerged
#   crashes.tar.gz  NAME/…: crashes, hangs, over-allocations (if any)
#   logs.tar.gz     libFuzzer's logs
#
# The bundle: the harnesses (debug info stripped: a report names
# functions, lines come from replaying the input here), every shared
# library ldd names except glibc's, GNU time (peak RSS), .ci/lsan.supp and
# tests/fuzz/corpus/, as one .tar.xz beside run.sh and tools/fuzz-all.sh.  A
# device run carries at most 64 MiB, the checkout (about 29 MiB) included:
# this is 14.3 MiB (OpenBLAS 4.2 of it).
#
# Environment: BUILD (the clang build, default build-fuzz, set up by
# tools/fuzz.sh as it does for itself).  run.sh's: TL_FUZZ_OUT, TL_FUZZ_PACK,
# TL_FUZZ_TMPDIR, TL_FUZZ_JOBS_FOR (tools/fuzz-all.sh), TL_FUZZ_WORK
# (where it unpacks, default /tmp/tl-fuzz-campaign), TL_FUZZ_STEP_LIMIT
# (seconds for each merge and replay, default 120: a merge that does not
# finish keeps the corpus unmerged), TL_FUZZ_TIMEOUT (a hang, default 5 s).
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
dest=${1:-/work/main/.fuzzbundle}
build=${BUILD:-$src/build-fuzz}
targets="mtx npy csv text convert run-record gauss-record"

# tools/fuzz.sh NAME 0 sets up the build (clang, libFuzzer, ASan + UBSan)
# and builds one harness
for name in $targets; do
  TL_FUZZ_BUILD=$build bash "$src/tools/fuzz.sh" "$name" 0
done

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/build/tests/fuzz" "$stage/lib" "$stage/bin" "$stage/tools" "$stage/.ci" \
  "$stage/tests/fuzz"
bins=""
for name in $targets; do
  objcopy --strip-debug "$build/tests/fuzz/fuzz-$name" "$stage/build/tests/fuzz/fuzz-$name"
  bins="$bins $build/tests/fuzz/fuzz-$name"
done
cp /usr/bin/time "$stage/bin/time"
cp "$src/.ci/lsan.supp" "$stage/.ci/"
cp -r "$src/tests/fuzz/corpus" "$stage/tests/fuzz/"

# every resolved library except glibc's, which the machine has
# shellcheck disable=SC2086
ldd $bins | awk '/=> \// { print $3 }' | sort -u | while read -r lib; do
  base=$(basename "$lib")
  case "$base" in
    libc.so*|libm.so*|libdl.so*|librt.so*|libpthread.so*|libresolv.so*|libutil.so*|ld-linux*) continue ;;
  esac
  objcopy --strip-debug "$lib" "$stage/lib/$base"
done

rm -rf "$dest"
mkdir -p "$dest"
# xz packs OpenBLAS (its kernels for every x86 generation) 2.5 times
# tighter than gzip: 4 MiB instead of 10
tar -C "$stage" -cf - . | xz -9 -T2 >"$dest/fuzz.tar.xz"
# the scripts beside it, uncompressed: a fix to them needs no new archive
cp "$src/tools/fuzz-bundle-run.sh" "$dest/run.sh"
cp "$src/tools/fuzz-all.sh" "$dest/fuzz-all.sh"
chmod +x "$dest/run.sh"
du -sh "$dest"
