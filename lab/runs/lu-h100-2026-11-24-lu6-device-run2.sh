#!/bin/bash
# lu6 device call 2 (H100): compute-sanitizer (issue 13 B) — racecheck of
# lu-02-blocked and lu-04-persistent alone at n = 67 and 130; synccheck of
# the solve with 3 right-hand sides (cuSOLVER's factors: cuSOLVER getrs and
# ours) and of a plain cuSOLVER getrf+getrs program; memcheck of the GPU
# rank tests; racecheck/synccheck of the new snapshot pooling kernel.
set -u
B=$(cd "$(dirname "$0")" && pwd)
R="$B/run.sh"
O=${OUT:-/tmp/out}
L=/tmp/lu6s; mkdir -p "$L"
CS=/usr/local/cuda/bin/compute-sanitizer
$R tilelab-cli devices > "$L/devices.log" 2>&1
S="$L/summary.log"
date -u +"start %F %T UTC" > "$S"
san () { # name limit tool [sanitizer options --] program args
  local name=$1 limit=$2 tool=$3; shift 3
  local t0=$(date +%s)
  timeout "$limit" $CS --tool "$tool" "$@" > "$L/$name.log" 2>&1
  local rc=$?
  echo "== $name: $tool, exit $rc after $(( $(date +%s) - t0 )) s: $*" >> "$L/$name.sum"
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|hazard|error" "$L/$name.log" | grep -E "SUMMARY" | sort | uniq -c >> "$L/$name.sum"
  # the kernels named in the reports
  grep -oE "(in|at) [A-Za-z_][A-Za-z0-9_:<>, ]*(kernel|Kernel)[A-Za-z0-9_<>]*" "$L/$name.log" | sort | uniq -c | sort -rn | head -8 >> "$L/$name.sum"
}
LB="$B/bin/tilelab-cli"
export LD_LIBRARY_PATH="$B/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# Ctrl+C 1 s after the LU job started (in the host's preparation of a
# 16384² float64 input: NaN check, max|A|, the 2 GB working copy)
G_MESSAGES_DEBUG=Tilelab "$LB" lu --gen random-uniform --size 16384 --kernel lu-01-percolumn --output "$L/d3.mtx" > "$L/d3.out" 2> "$L/d3.log" &
pid=$!
for i in $(seq 200); do grep -q "started at" "$L/d3.log" && break; sleep 0.05; done
sleep 1; kill -INT $pid; wait $pid; echo "== d3 exit $?" > "$L/d3.sum"
grep -E "started at|input checked|opening GPU|open at|cancel requested|worker idle|nothing was written" "$L/d3.log" | sed 's/^.*DEBUG: [0-9:.]*: //' >> "$L/d3.sum"
ls "$L"/d3.* >> "$L/d3.sum"
san race-lu02-67 330 racecheck "$LB" lu-bench --sizes 67 --dtypes float64,float32 --kernels lu-02-blocked --repeats 1 --warmups 0 --rhs none &
san race-lu02-130 330 racecheck "$LB" lu-bench --sizes 130 --dtypes float64 --kernels lu-02-blocked --repeats 1 --warmups 0 --rhs none &
san race-lu04-67 330 racecheck "$LB" lu-bench --sizes 67 --dtypes float64,float32 --kernels lu-04-persistent --repeats 1 --warmups 0 --rhs none &
san race-lu04-130 330 racecheck "$LB" lu-bench --sizes 130 --dtypes float64 --kernels lu-04-persistent --repeats 1 --warmups 0 --rhs none &
( san sync-solve-cusolver 200 synccheck "$LB" lu-bench --sizes 67 --dtypes float32,float64 --kernels lu-cusolver --solve-kernel lu-cusolver --rhs 3 --repeats 1 --warmups 0
  san sync-solve-lu05 200 synccheck "$LB" lu-bench --sizes 67 --dtypes float64 --kernels lu-05-cluster --rhs 1,3 --repeats 1 --warmups 0
  if command -v /usr/local/cuda/bin/nvcc > /dev/null; then
    /usr/local/cuda/bin/nvcc -O2 -arch=sm_90 -o "$L/getrs-plain" "$B/getrs-plain.cu" -lcusolver -lcublas > "$L/nvcc.log" 2>&1
    echo "nvcc exit $?" >> "$L/plain.sum"
    san sync-getrs-plain 120 synccheck "$L/getrs-plain"
    san mem-getrs-plain 120 memcheck "$L/getrs-plain"
  else
    echo "no nvcc on the device" >> "$L/plain.sum"
  fi ) &
( san mem-rank 300 memcheck "$B/bin/test-lu-gpu" -p /lu-gpu/rank
  san race-pool 200 racecheck --kernel-name kns=lu_pool_kernel "$LB" lu --gen random-uniform --size 613x587 --kernel lu-02-blocked --record "$L/pool.json"
  san sync-pool 200 synccheck --kernel-name kns=lu_pool_kernel "$LB" lu --gen random-uniform --dtype float32 --size 700 --kernel lu-03-tuned --record "$L/pool2.json"
  san mem-pool 200 memcheck "$LB" lu --gen random-uniform --size 613x587 --kernel lu-02-blocked --record "$L/pool3.json"
  ) &
wait
cat "$L"/*.sum >> "$S"
date -u +"end %F %T UTC" >> "$S"
rm -f "$L"/*.json "$L/getrs-plain"
tar -C /tmp -czf "$O/lu6-run2.tar.gz" lu6s
cp "$S" "$O/summary.log"
cat "$S"
