#!/bin/bash
# The exact commands of device call 2 (docs/perf/lu-h100-2026-11-24.md), run from a bundle made by
# tools/make-gpu-bundle.sh /work/main/.devcarry-lu (tilelab-cli and test-lu-gpu); kept as the record.
# Device call 2 for branch lu: tests and sanitizers side by side, then the benchmarks alone.
set -u
B=$(cd "$(dirname "$0")" && pwd)
R="$B/run.sh"
O=${OUT:-/tmp/out}; mkdir -p "$O"
$R tilelab-cli devices > "$O/bench.log" 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv >> "$O/bench.log" 2>&1
ALL=lu-01-percolumn,lu-02-blocked,lu-03-tuned,lu-04-persistent,lu-cusolver
san () { # log timeout tool args...
  local log=$1 t=$2 tool=$3; shift 3
  timeout $t compute-sanitizer --tool $tool --target-processes all --error-exitcode 9 $R tilelab-cli lu-bench "$@" > "$O/$log" 2>&1
  echo "== rc=$?" >> "$O/$log"
}
( timeout 120 $R test-lu-gpu > "$O/test-lu-gpu.log" 2>&1; echo "== rc=$?" >> "$O/test-lu-gpu.log" ) &
san san-memcheck.log 115 memcheck --sizes 67,300 --kernels $ALL --repeats 2 --warmups 0 --rhs 1,5 &
( san san-racecheck.log 85 racecheck --sizes 67,300 --kernels lu-03-tuned,lu-04-persistent,lu-cusolver --repeats 2 --warmups 0 --rhs 1,5
  san san-racecheck-b.log 30 racecheck --sizes 67 --dtypes float64 --kernels lu-01-percolumn,lu-02-blocked --repeats 2 --warmups 0 --rhs none
  cat "$O/san-racecheck-b.log" >> "$O/san-racecheck.log"; rm -f "$O/san-racecheck-b.log" ) &
san san-synccheck.log 115 synccheck --sizes 67,300 --kernels $ALL --repeats 2 --warmups 0 --rhs none &
( timeout 115 compute-sanitizer --tool racecheck --target-processes all $R tilelab-cli lu-bench --sizes 300 \
    --dtypes float64 --kernels lu-02-blocked --repeats 1 --warmups 0 --rhs none > "$O/repro11.log" 2>&1
  echo "== rc=$?" >> "$O/repro11.log" ) &
wait
echo "phase A done $(date +%T)"
for f in "$O"/test*.log "$O"/san*.log "$O"/repro*.log; do echo "--- $f"; grep -E "^not ok|FAIL|ERROR SUMMARY|RACECHECK SUMMARY|== rc" "$f" | tail -4; done
# staged swaps: a quick check first, the rung-3 walk if it fails
if ! $R tilelab-cli lu-bench --sizes 300,1000 --kernels lu-04-persistent --repeats 1 --warmups 0 --rhs none > /tmp/pre.log 2>&1; then
  cat /tmp/pre.log; export TL_LU04_WALK_SWAPS=1; echo "STAGED SWAPS FAILED: walking"
fi
echo "== final $(date +%T)" >> "$O/bench.log"
timeout 130 $R tilelab-cli lu-bench --sizes 4096,8192,16384 --kernels lu-cusolver,lu-03-tuned,lu-04-persistent \
  --rhs 1,16,256,4096 -o "$O/bench.md" >> "$O/bench.log" 2>&1; echo "bench rc=$?"
grep -E "lu-04|getrs|lu-solve" "$O/bench.log" | grep -v "^ *[0-9]* *float.. *lu-cu"
echo "== ladder $(date +%T)" >> "$O/bench.log"
timeout 30 $R tilelab-cli lu-bench --sizes 4096,8192 --kernels lu-cusolver,lu-01-percolumn,lu-02-blocked --repeats 3 \
  --rhs none -o "$O/ladder.md" >> "$O/bench.log" 2>&1
sw () { echo "== sweep $*" >> "$O/bench.log"
  env "$@" timeout 18 $R tilelab-cli lu-bench --sizes 4096,8192 --kernels lu-cusolver,lu-04-persistent --repeats 5 \
    --rhs none >> "$O/bench.log" 2>&1; }
sw TL_LU04_ROWS=256; sw TL_LU04_ROWS=512; sw TL_LU04_BLOCKS=132; sw TL_LU04_WALK_SWAPS=1; sw TL_LU04_ROWS=64
echo "== end $(date +%T)" >> "$O/bench.log"
grep -E "== sweep|lu-04" "$O/bench.log" | tail -30
