#!/bin/bash
# lu6 device call 1 (H100): the tests this branch touches, the cancel
# latencies (issue 15 C and D), the rank/nullspace benchmark (issue 13 A).
set -u
B=$(cd "$(dirname "$0")" && pwd)
R="$B/run.sh"
O=${OUT:-/tmp/out}
L=/tmp/lu6; mkdir -p "$L"
$R tilelab-cli devices > "$L/devices.log" 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv > "$L/smi.log" 2>&1
date -u +"start %F %T UTC" | tee "$L/summary.log"
S="$L/summary.log"

echo "== tests $(date -u +%T)" >> "$S"
timeout 150 $R test-lu-gpu -p /lu-gpu/rank -p /lu-gpu/record -p /lu-gpu/cancel --verbose > "$L/test-lu-gpu.log" 2>&1
echo "test-lu-gpu rank/record/cancel rc=$?" >> "$S"
grep -E "^ok|^not ok|rank [0-9]+:|ERROR|differs|ratio" "$L/test-lu-gpu.log" | head -40 >> "$S"

# tilelab-cli with SIGINT after `wait` seconds; the runner's monotonic log
cancel () {
  name=$1 wait=$2; shift 2
  G_MESSAGES_DEBUG=Tilelab $R tilelab-cli "$@" > "$L/$name.out" 2> "$L/$name.log" &
  pid=$!
  sleep "$wait"
  echo "SIGINT sent at $(awk '{printf "%.3f", $1 * 1000}' /proc/uptime) ms uptime" >> "$L/$name.log"
  kill -INT "$pid"
  wait "$pid"; rc=$?
  echo "== $name (SIGINT after $wait s): exit $rc" >> "$S"
  grep -E "started at|opening GPU|open at|GPU run returned|cancel requested|interrupt seen|worker idle|result delivered|stopped|stopping|nothing was written" "$L/$name.log" | sed 's/^.*DEBUG: [0-9:.]*: //' >> "$S"
  grep -c "pooled snapshot" "$L/$name.log" | sed 's/^/pooled snapshots: /' >> "$S"
  grep "pooled snapshot" "$L/$name.log" | tail -2 | sed 's/^.*DEBUG: [0-9:.]*: //' >> "$S"
  ls "$L"/$name.* >> "$S"
}

echo "== C: lu-03-tuned recording at 12000² float32, whole $(date -u +%T)" >> "$S"
G_MESSAGES_DEBUG=Tilelab timeout 120 $R tilelab-cli lu --gen random-uniform --dtype float32 --size 12000 \
  --kernel lu-03-tuned --record "$L/c0.json" > "$L/c0.out" 2> "$L/c0.log"
echo "c0 exit $?" >> "$S"; grep -E "Gauss|record|time split" "$L/c0.out" >> "$S"
grep -E "started at|open at|GPU run returned|worker idle" "$L/c0.log" | sed 's/^.*DEBUG: [0-9:.]*: //' >> "$S"
grep -c "pooled snapshot" "$L/c0.log" | sed 's/^/pooled snapshots: /' >> "$S"
grep "pooled snapshot" "$L/c0.log" | sed -n '1p;$p' | sed 's/^.*DEBUG: [0-9:.]*: //' >> "$S"
ls -l "$L/c0.json" >> "$S"; rm -f "$L/c0.json"
cancel c1 8 lu --gen random-uniform --dtype float32 --size 12000 --kernel lu-03-tuned --record "$L/c1.json"
cancel c2 14 lu --gen random-uniform --dtype float32 --size 12000 --kernel lu-03-tuned --record "$L/c2.json"

echo "== D $(date -u +%T)" >> "$S"
cancel d1 2 lu --gen random-uniform --size 16384 --kernel lu-01-percolumn --output "$L/d1.mtx"
cancel d2 6 lu --gen random-uniform --size 16384 --kernel lu-01-percolumn --output "$L/d2.mtx"
cancel solve 4 solve --gen random-uniform --size 8192 --kernel gpu --output "$L/solve.mtx"
cancel lub 6 lu-bench --sizes 8192 --dtypes float64 --kernels lu-01-percolumn --max-percolumn 8192 --rhs none -o "$L/lub.md"
grep -c "Stopped by Ctrl+C" "$L/lub.md" | sed 's/^/lub.md stopped notes: /' >> "$S"
# a solve that finishes, for comparison
G_MESSAGES_DEBUG=Tilelab timeout 60 $R tilelab-cli solve --gen random-uniform --size 4096 --kernel gpu > "$L/solve-whole.out" 2> "$L/solve-whole.log"
echo "solve 4096 whole exit $?" >> "$S"; grep -E "Singular|rank|UNIQUE|residual" "$L/solve-whole.out" >> "$S"
$R tilelab-cli nullspace --gen rank-deficient:rank=4 --size 7x9 --kernel gpu > "$L/ns-small.out" 2>&1; echo "nullspace small exit $?" >> "$S"
$R tilelab-cli nullspace --gen rank-deficient:rank=4 --size 7x9 > "$L/ns-small-cpu.out" 2>&1

echo "== A: rank bench $(date -u +%T)" >> "$S"
timeout 200 $R tilelab-cli lu-bench --suite rank --sizes 1024,4096 --dtypes float64 -o "$L/rank64.md" > "$L/rank64.log" 2>&1
echo "rank64 exit $?" >> "$S"; cat "$L/rank64.log" >> "$S"
timeout 150 $R tilelab-cli lu-bench --suite rank --sizes 1024,4096 --dtypes float32 -o "$L/rank32.md" > "$L/rank32.log" 2>&1
echo "rank32 exit $?" >> "$S"; cat "$L/rank32.log" >> "$S"
date -u +"end %F %T UTC" >> "$S"
rm -f "$L"/*.mtx "$L"/*.json
tar -C /tmp -czf "$O/lu6-run1.tar.gz" lu6
cp "$S" "$O/summary.log"
cat "$S"
