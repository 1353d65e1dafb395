#!/bin/sh
# gemm-final-check.sh — a lab script, not part of the product: the GEMM
# part of a final device check, within about 240 s on one H200.  Run on the
# device machine from the repository root:
#
#   lab/gemm-final-check.sh [BUNDLE] [AB]
#
# BUNDLE: what tools/make-gpu-bundle.sh made of the tree to check (default
# .gpubundle-gemm); AB: what lab/gemm-17-ab/build.sh made (default
# .gpubundle-r17ab; skipped when absent).  Writes $OUT/gemm-final.md (the
# summary, also printed) and $OUT/gemm-final.tgz (every log).
#
# The parts, each under its own timeout:
#   a  test-gpu-gemm, every rung and every plan (TL_TEST_PLANS=all), C
#      poisoned, against float64                                 ≤ 130 s
#   b  compute-sanitizer racecheck at 127×129×131 of the plans never
#      race-checked: rung 15's (all) and rung 17's 64x64/s2 and 64x64/s4;
#      and synccheck of rung 17's 128x256 (its producer warps now exit
#      without a __syncwarp).  Three processes, beside part a  ≤ 130 s
#   c  bench-gpu-gemm: rung 17, every plan pinned, and cuBLAS FP32 at
#      4096³ and 1000×777×1111, alone on the GPU                ≤ 45 s
#   d  (with AB) rung 17's 128×256 kernel as built before the plans, by the
#      plans and now, timed against each other (gemm-17-ab), and the SASS
#      of their main loops compared (lab/sass-diff.sh)           ≤ 45 s
# a and b share the GPU (b's kernels run under the sanitizer; a checks
# results, not times); c and d run alone.
set -u
b=${1:-.gpubundle-gemm}
ab=${2:-.gpubundle-r17ab}
out=${OUT:-./gpu-out}
logs=$(mktemp -d)
mkdir -p "$out"
t0=$(date +%s)
export PATH="/usr/local/cuda/bin:$PATH"
say () { echo "$*" | tee -a "$logs/summary.md"; }
since () { echo $(( $(date +%s) - $1 )); }

b=$(cd "$b" 2>/dev/null && pwd) || { echo "no bundle folder ${1:-.gpubundle-gemm}" >&2; exit 1; }
for part in lib bin; do
  [ -d "$b/$part" ] || tar -C "$b" -xzf "$b/$part.tar.gz" || { echo "no bundle at $b" >&2; exit 1; }
done
export LD_LIBRARY_PATH="$b/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export TL_SOURCE_DIR="$PWD"
say "# GEMM final check ($(date -u '+%Y-%m-%d %H:%M UTC'))"
say "$(nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader 2>&1 | head -1)"

# ---- b: the sanitizers, in the background ---------------------------------
# Only the rung's own kernels are instrumented where compute-sanitizer can
# filter (its option was --kernel-regex before 2022, --kernel-name since).
help=$(compute-sanitizer --help 2>&1)
case $help in
  *--kernel-name*) kopt=--kernel-name ;;
  *--kernel-regex*) kopt=--kernel-regex ;;
  *) kopt="" ;;
esac
sanitize () {   # NAME TOOL KERNEL-ID PLANS KERNEL-SUBSTRING
  s=$(date +%s)
  TL_TEST_KERNELS=$3 TL_TEST_PLANS=$4 timeout 130 compute-sanitizer --tool "$2" --error-exitcode 9 \
    ${kopt:+$kopt kns=$5} "$b/bin/test-gpu-gemm" -p /gpu/gemm/small/127x129x131 \
    > "$logs/$1.log" 2>&1
  echo "$? $(since "$s")" > "$logs/$1.rc"
}
sanitize racecheck-15 racecheck gemm-15-dmma-f64 all gemm_15_dmma_kernel &
sanitize racecheck-17 racecheck gemm-17-simt-tma 64x64/s2,64x64/s4 gemm_17_kernel &
sanitize synccheck-17 synccheck gemm-17-simt-tma 128x256 gemm_17_kernel &

# ---- a: every rung, every plan --------------------------------------------
s=$(date +%s)
TL_TEST_PLANS=all timeout 130 "$b/bin/test-gpu-gemm" > "$logs/test-gpu-gemm.log" 2>&1
rc=$?
say ""
say "a. test-gpu-gemm, TL_TEST_PLANS=all: exit $rc after $(since "$s") s;" \
    "$(grep -c '^ok' "$logs/test-gpu-gemm.log") paths ok," \
    "$(grep -c '^not ok' "$logs/test-gpu-gemm.log") not ok," \
    "$(grep -c '^# \(gemm\|cublas\)-' "$logs/test-gpu-gemm.log") kernel/plan/shape runs checked"
grep -E "^not ok|mismatch|ERROR|error" "$logs/test-gpu-gemm.log" | head -5 | tee -a "$logs/summary.md"

wait
say ""
say "b. compute-sanitizer at 127×129×131 (filter: ${kopt:-none}):"
for n in racecheck-15 racecheck-17 synccheck-17; do
  read -r rc secs < "$logs/$n.rc"
  runs=$(grep -c '^# gemm-1[57]' "$logs/$n.log")
  summary=$(grep -E "RACECHECK SUMMARY|ERROR SUMMARY" "$logs/$n.log" | tail -1)
  say "   $n: exit $rc after $secs s (124: timed out), $runs plan runs finished; ${summary:-no summary}"
  grep -E "^# gemm-1[57]" "$logs/$n.log" | awk '{print "     ", $2, $3}' | tee -a "$logs/summary.md"
done

# ---- c: the benchmark, alone ---------------------------------------------
s=$(date +%s)
timeout 45 "$b/bin/bench-gpu-gemm" --sizes 4096,1000x777x1111 --kernels gemm-17-simt-tma,cublas-fp32 \
  --plans all --no-instrument --repeats 10 --rounds 2 > "$logs/bench.md" 2>&1
rc=$?
say ""
say "c. bench-gpu-gemm (rung 17, every plan, and cuBLAS FP32): exit $rc after $(since "$s") s"
grep -E "^### |gemm-17|cublas-fp32" "$logs/bench.md" | cut -d'|' -f1-7 | tee -a "$logs/summary.md"

# ---- d: rung 17 before and after, side by side ----------------------------
if [ -x "$ab/gemm-17-ab" ]; then
  s=$(date +%s)
  (cd "$ab" && timeout 20 ./gemm-17-ab manifest 4096) > "$logs/ab.md" 2>&1
  rc=$?
  say ""
  say "d. gemm-17-ab at 4096³: exit $rc after $(since "$s") s"
  tee -a "$logs/summary.md" < "$logs/ab.md"
  timeout 25 sh lab/sass-diff.sh -o "$logs/sass" "$ab/old.cubin" "$ab/old-nofill.cubin" \
    "$ab/plans.cubin" "$ab/head.cubin" > "$logs/sass-diff.md" 2>&1
  say ""
  tee -a "$logs/summary.md" < "$logs/sass-diff.md"
fi

say ""
say "total: $(since "$t0") s"
cp "$logs/summary.md" "$out/gemm-final.md"
tar -C "$logs" -czf "$out/gemm-final.tgz" .
rm -rf "$logs"
