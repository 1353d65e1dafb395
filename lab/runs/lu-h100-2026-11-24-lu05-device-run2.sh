#!/bin/bash
# Device call 2 for rung 5 (branch lu2, docs/perf/lu-h100-2026-11-24.md): the release and the
# lean cluster barrier (TL_LU05_SYNC=0/1) side by side; kept as the record of the exact commands.
#   A. lu05-lab: barrier variants, the panel kernel with both barriers (checks, µs per column)
#   B. test-lu-gpu and compute-sanitizer (lu-05 at n = 67, 300) with each barrier, side by side
#   C. lu-bench alone: cuSOLVER, lu-04, lu-05 (release); then cuSOLVER, lu-05 (lean)
set -u
B=$(cd "$(dirname "$0")" && pwd)
R="$B/run.sh"
O=${OUT:-/tmp/out}; mkdir -p "$O"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > "$O/lab.log" 2>&1
echo "== A $(date +%T)"
timeout 60 $R lu05-lab 20 >> "$O/lab.log" 2>&1; echo "== rc=$?" >> "$O/lab.log"
grep -E "cluster  ?[0-9]+,|FAIL|lu05-lab|rc=" "$O/lab.log"
grep -E "^panel" "$O/lab.log" | awk '{printf "%s %s %s %s %s %s %s\n", $2, $3, $5, $6, $7, $10, $14}'
(cuobjdump -sass "$B/bin/lu05-lab" 2>&1 | grep -E "Function|MEMBAR|UCGABAR|CCTL|FENCE|ERRBAR" | gzip > "$O/lu05-sass.txt.gz") &

echo "== B $(date +%T)"
tst () { # sync
  ( TL_LU05_SYNC=$1 timeout 170 $R test-lu-gpu > "$O/test-sync$1.log" 2>&1; echo "== rc=$?" >> "$O/test-sync$1.log" ) & }
tst 0; tst 1
san () { # sync tool args...
  local sync=$1 tool=$2; shift 2
  echo "== TL_LU05_SYNC=$sync $tool $*" >> /tmp/san$sync.log
  TL_LU05_SYNC=$sync timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $R tilelab-cli lu-bench "$@" \
    >> /tmp/san$sync.log 2>&1
  echo "== rc=$?" >> /tmp/san$sync.log
}
for s in 0 1; do
  ( san $s memcheck --sizes 67,300 --kernels lu-05-cluster --repeats 2 --warmups 0 --rhs 1
    san $s racecheck --sizes 67,300 --kernels lu-05-cluster --repeats 1 --warmups 0 --rhs none
    san $s synccheck --sizes 67,300 --kernels lu-05-cluster --repeats 1 --warmups 0 --rhs none ) &
done
wait
cat /tmp/san0.log /tmp/san1.log > "$O/san.log"
echo "== B done $(date +%T)"
grep -E "^not ok|^ok|^# lu-|ERROR|rc=" "$O"/test-sync*.log | tail -30
grep -E "^== |ERROR SUMMARY|RACECHECK SUMMARY" "$O/san.log"

echo "== C $(date +%T)"
timeout 110 $R tilelab-cli lu-bench --sizes 4096,8192,16384 --kernels lu-cusolver,lu-04-persistent,lu-05-cluster \
  --rhs none -o "$O/bench-release.md" > "$O/bench.log" 2>&1; echo "bench rc=$?"
echo "== lean $(date +%T)" >> "$O/bench.log"
TL_LU05_SYNC=1 timeout 90 $R tilelab-cli lu-bench --sizes 4096,8192,16384 --kernels lu-cusolver,lu-05-cluster \
  --rhs none -o "$O/bench-lean.md" >> "$O/bench.log" 2>&1; echo "bench lean rc=$?"
grep -E "lu-|== lean" "$O/bench.log"
echo "== end $(date +%T)"
