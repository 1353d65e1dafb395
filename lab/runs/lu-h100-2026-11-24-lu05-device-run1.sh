#!/bin/bash
# Device call 1 for rung 5 (branch lu2, docs/perf/lu-h100-2026-11-24.md), run from a bundle
# made by tools/make-gpu-bundle.sh /work/main/.devcarry-lu2 with tools/lu-lab/lu05-lab added;
# kept as the record of the exact commands.
#   A. the cluster panel kernel alone (lu05-lab: cluster sizes, barrier cost, checks, µs per column)
#   B. test-lu-gpu and compute-sanitizer on lu-05 at odd n, side by side
#   C. lu-bench alone: cuSOLVER, lu-04 (main's), lu-05 at 4096/8192/16384, both dtypes; sweeps
set -u
B=$(cd "$(dirname "$0")" && pwd)
R="$B/run.sh"
O=${OUT:-/tmp/out}; mkdir -p "$O"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > "$O/lab.log" 2>&1
echo "== A $(date +%T)"
timeout 60 $R lu05-lab 20 >> "$O/lab.log" 2>&1; echo "== rc=$?" >> "$O/lab.log"
grep -E "clusters of|barrier|FAIL|lu05-lab|rc=" "$O/lab.log"
grep -E "^panel" "$O/lab.log" | awk '{print $2, $3, $4, $5, $6, $9, $10, $15}' | column -t | head -40
(cuobjdump -sass "$B/bin/lu05-lab" 2>&1 | gzip > "$O/lu05-sass.txt.gz") &

echo "== B $(date +%T)"
( timeout 170 $R test-lu-gpu > "$O/test-lu-gpu.log" 2>&1; echo "== rc=$?" >> "$O/test-lu-gpu.log" ) &
san () { # tool args...
  local tool=$1; shift
  echo "== $tool $*" >> "$O/san.log"
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $R tilelab-cli lu-bench "$@" > /tmp/san-$tool.log 2>&1
  echo "== rc=$?" >> /tmp/san-$tool.log
}
( san memcheck --sizes 67,300 --kernels lu-05-cluster --repeats 2 --warmups 0 --rhs 1
  san racecheck --sizes 67,300 --kernels lu-05-cluster --repeats 1 --warmups 0 --rhs none
  san synccheck --sizes 67,300 --kernels lu-05-cluster --repeats 1 --warmups 0 --rhs none ) &
wait
for t in memcheck racecheck synccheck; do cat /tmp/san-$t.log >> "$O/san.log"; done
echo "== B done $(date +%T)"
grep -E "^# |^not ok|^ok|ERROR|rc=" "$O/test-lu-gpu.log" | tail -20
grep -E "^== |ERROR SUMMARY|RACECHECK SUMMARY|FAIL" "$O/san.log"

echo "== C $(date +%T)"
timeout 150 $R tilelab-cli lu-bench --sizes 4096,8192,16384 --kernels lu-cusolver,lu-04-persistent,lu-05-cluster \
  --rhs none -o "$O/bench.md" > "$O/bench.log" 2>&1; echo "bench rc=$?"
grep -E "lu-" "$O/bench.log"
sw () { echo "== sweep $*" >> "$O/sweep.log"
  env "$@" timeout 25 $R tilelab-cli lu-bench --sizes 4096,8192 --kernels lu-cusolver,lu-05-cluster --repeats 5 \
    --rhs none >> "$O/sweep.log" 2>&1; }
sw TL_LU05_CLUSTER=8; sw TL_LU05_WIDTH=16; sw TL_LU05_CLUSTER=4
echo "== sweep block 256" >> "$O/sweep.log"
timeout 25 $R tilelab-cli lu-bench --sizes 4096,8192 --kernels lu-cusolver,lu-05-cluster --repeats 5 -b 256 \
  --rhs none >> "$O/sweep.log" 2>&1
grep -E "== sweep|lu-05" "$O/sweep.log"
echo "== end $(date +%T)"
