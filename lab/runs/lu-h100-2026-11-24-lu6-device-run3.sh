#!/bin/bash
# lu6 device call 3 (H100): after the gesvdj buffer fix — memcheck of the
# GPU rank tests; synccheck of Tilelab's solve alone (lu-solve, 1 and 3
# right-hand sides; cuSOLVER's getrs left out, whose own trsm kernel
# synccheck stops).
set -u
B=$(cd "$(dirname "$0")" && pwd)
R="$B/run.sh"; O=${OUT:-/tmp/out}; L=/tmp/lu6t; mkdir -p "$L"
CS=/usr/local/cuda/bin/compute-sanitizer
$R tilelab-cli devices > "$L/devices.log" 2>&1
export LD_LIBRARY_PATH="$B/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
S="$L/summary.log"; date -u +"start %F %T UTC" > "$S"
san () { local name=$1 limit=$2 tool=$3; shift 3; local t0=$(date +%s)
  timeout "$limit" $CS --tool "$tool" "$@" > "$L/$name.log" 2>&1; local rc=$?
  echo "== $name: $tool, exit $rc after $(( $(date +%s) - t0 )) s: $*" >> "$L/$name.sum"
  grep -E "SUMMARY" "$L/$name.log" | sort | uniq -c >> "$L/$name.sum"
  grep -oE "at [A-Za-z_][A-Za-z0-9_:<>, ]*(kernel|Kernel)[A-Za-z0-9_<>]*" "$L/$name.log" | sort | uniq -c | sort -rn | head -5 >> "$L/$name.sum"
  grep -E "nrhs|^ok|^not ok" "$L/$name.log" >> "$L/$name.sum"; }
san mem-rank 150 memcheck "$B/bin/test-lu-gpu" -p /lu-gpu/rank &
san sync-solve-ours 150 synccheck "$B/bin/tilelab-cli" lu-bench --sizes 67,130 --dtypes float32,float64 --kernels lu-05-cluster --rhs 1,3 --solvers lu-solve --repeats 1 --warmups 0 &
san race-solve-ours 150 racecheck "$B/bin/tilelab-cli" lu-bench --sizes 67 --dtypes float64 --kernels lu-05-cluster --rhs 1,3 --solvers lu-solve --repeats 1 --warmups 0 &
wait
timeout 60 "$B/bin/test-lu-gpu" -p /lu-gpu/rank > "$L/test-rank.log" 2>&1; echo "== test-lu-gpu /lu-gpu/rank exit $?" >> "$L/z.sum"
timeout 60 "$B/bin/tilelab-cli" lu-bench --suite rank --sizes 1024 --dtypes float64 > "$L/rank.log" 2>&1; echo "== rank bench 1024 exit $?" >> "$L/z.sum"; cat "$L/rank.log" >> "$L/z.sum"
cat "$L"/*.sum >> "$S"; date -u +"end %F %T UTC" >> "$S"
tar -C /tmp -czf "$O/lu6-run3.tar.gz" lu6t; cp "$S" "$O/summary.log"; cat "$S"
