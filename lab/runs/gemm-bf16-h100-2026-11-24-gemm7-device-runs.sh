# gemm7 device runs (H100, 2026-11-24): run 1 08:46 UTC, run 2 08:51 UTC (hung: staggered variant, k = 1, instrumented), run 3 08:59 UTC

# ==== run1.sh
#!/bin/sh
# gemm7 device run 1: rung 14's TMA-store epilogue in the lab (checks, timing against the
# direct stores and cuBLAS BF16), compute-sanitizer on the lab's small shapes, ncu at 4096³,
# test-gpu-gemm for rung 14 + cuBLAS BF16.
b=$(cd "$(dirname "$0")" && pwd)
o=${OUT:-/tmp/out}/gemm7-run1; mkdir -p "$o"
export PATH=/usr/local/cuda/bin:$PATH
for part in lib bin; do [ -d "$b/$part" ] || tar -C "$b" -xzf "$b/$part.tar.gz"; done
export LD_LIBRARY_PATH="$b/lib:/usr/local/cuda/lib64"
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv; } > "$o/facts.txt" 2>&1
cat "$o/facts.txt"
chmod +x "$b/lab-gemm-14"
echo "== lab small"; date -u
timeout 60 "$b/lab-gemm-14" small > "$o/lab-small.txt" 2>&1; echo "exit $?"; grep -v " ok$" "$o/lab-small.txt"
echo "== lab 20 x 3"; date -u
timeout 120 "$b/lab-gemm-14" 20 3 > "$o/lab.txt" 2>&1; echo "lab exit $?"; grep -v "^check.* ok$" "$o/lab.txt"
echo "== sanitizer (lab small)"; date -u
for tool in memcheck racecheck synccheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 "$b/lab-gemm-14" small > "$o/sanitize-lab-$tool.log" 2>&1
  echo "$tool exit $?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|FAIL|PASS" "$o/sanitize-lab-$tool.log" | sort | uniq -c
done
echo "== ncu 4096^3"; date -u
timeout 120 ncu --clock-control none -k regex:"gemm_14|nvjet" --set full "$b/lab-gemm-14" ncu > "$o/ncu.txt" 2>&1; echo "ncu exit $?"
grep -E "gemm_14_wgmma|nvjet|Duration|Elapsed Cycles|SM Frequency|Executed Instructions  |Issue Slots Busy|L1/TEX Hit|Bank Conflicts|Compute \(SM\) Throughput" "$o/ncu.txt" | head -60
echo "== test-gpu-gemm rung 14"; date -u
TL_TEST_KERNELS=gemm-14-wgmma-persistent,cublas-bf16 timeout 100 "$b/run.sh" test-gpu-gemm > "$o/test-gpu-gemm-14.log" 2>&1; echo "test exit $?"; grep -cE "^ok" "$o/test-gpu-gemm-14.log"; grep -E "^not ok|FAIL" "$o/test-gpu-gemm-14.log" | head
date -u
tar -C "${OUT:-/tmp/out}" -czf "${OUT:-/tmp/out}/gemm7-run1.tar.gz" gemm7-run1

# ==== run2.sh: run 1 without the bundle unpacking and the test-gpu-gemm step (its copy was lost when the bundle was rebuilt)

# ==== run3.sh
#!/bin/sh
# gemm7 device run 3 (last): rung 14 with staggered consumers + TMA stores (EPI_TMA_STAGGER):
# lab (checks + timing of the variants), compute-sanitizer (lab small, test-gpu-gemm small),
# test-gpu-gemm for rung 14, bench of the BF16 rows with the stagger build and with the
# TMA-only build (commit 32cfe65), then the whole ladder for whatever time is left.
b=$(cd "$(dirname "$0")" && pwd)
o=${OUT:-/tmp/out}/gemm7-run3; mkdir -p "$o"
export PATH=/usr/local/cuda/bin:$PATH
for part in lib bin; do [ -d "$b/$part" ] || tar -C "$b" -xzf "$b/$part.tar.gz"; done
gunzip -c "$b/bench-gpu-gemm-tma.gz" > "$b/bin/bench-gpu-gemm-tma"; chmod +x "$b/bin/bench-gpu-gemm-tma" "$b/lab-gemm-14"
export LD_LIBRARY_PATH="$b/lib:/usr/local/cuda/lib64"
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv; } > "$o/facts.txt" 2>&1
cat "$o/facts.txt"
echo "== lab small"; date -u
start=$(date +%s)
timeout 20 stdbuf -oL "$b/lab-gemm-14" small > "$o/lab-small.txt" 2>&1; rc=$?; echo "exit $rc"; grep -v " ok$" "$o/lab-small.txt"
bench=bench-gpu-gemm
if [ $rc != 0 ]; then
  echo "stagger build failed its checks: TMA-only bench only"; bench=bench-gpu-gemm-tma
else
echo "== lab 10 x 2"; date -u
timeout 60 stdbuf -oL "$b/lab-gemm-14" 10 2 > "$o/lab.txt" 2>&1; echo "lab exit $?"; grep -v "^check.* ok$" "$o/lab.txt"
echo "== sanitizer"; date -u
for tool in memcheck racecheck synccheck; do
  timeout 25 compute-sanitizer --tool $tool --error-exitcode 9 "$b/lab-gemm-14" small > "$o/sanitize-lab-$tool.log" 2>&1
  echo "lab $tool exit $?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|FAIL|PASS" "$o/sanitize-lab-$tool.log" | sort | uniq -c
  TL_TEST_KERNELS=gemm-14-wgmma-persistent timeout 25 compute-sanitizer --tool $tool --error-exitcode 9 "$b/bin/test-gpu-gemm" -p /gpu/gemm/small > "$o/sanitize-test-$tool.log" 2>&1
  echo "test $tool exit $?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$o/sanitize-test-$tool.log" | sort | uniq -c; grep -cE "^ok" "$o/sanitize-test-$tool.log"
done
echo "== test-gpu-gemm rung 14"; date -u
TL_TEST_KERNELS=gemm-14-wgmma-persistent,cublas-bf16 timeout 40 "$b/run.sh" test-gpu-gemm > "$o/test-gpu-gemm-14.log" 2>&1; echo "test exit $?"; grep -cE "^ok" "$o/test-gpu-gemm-14.log"; grep -E "^not ok|FAIL" "$o/test-gpu-gemm-14.log" | head
echo "== bench BF16 rows, stagger build then TMA-only build"; date -u
timeout 45 stdbuf -oL "$b/run.sh" bench-gpu-gemm --kernels gemm-11-wgmma,gemm-14-wgmma-persistent,cublas-bf16 --sizes 4096,8192,4000x3000x5000 --repeats 10 --rounds 2 > "$o/bench-bf16-stagger.md" 2>&1; echo "exit $?"
grep -E "^###|gemm-14|cublas-bf16" "$o/bench-bf16-stagger.md" | cut -c1-110
timeout 45 stdbuf -oL "$b/run.sh" bench-gpu-gemm-tma --kernels gemm-11-wgmma,gemm-14-wgmma-persistent,cublas-bf16 --sizes 4096,8192,4000x3000x5000 --repeats 10 --rounds 2 > "$o/bench-bf16-tma.md" 2>&1; echo "exit $?"
grep -E "^###|gemm-14|cublas-bf16" "$o/bench-bf16-tma.md" | cut -c1-110
fi
left=$((290 - ($(date +%s) - start)))
echo "== bench whole ladder ($bench, as far as $left s go)"; date -u
timeout $left stdbuf -oL "$b/run.sh" $bench --sizes 4096,8192,4000x3000x5000 --repeats 10 --rounds 2 > "$o/bench-ladder.md" 2>&1; echo "bench exit $?"
date -u
tar -C "${OUT:-/tmp/out}" -czf "${OUT:-/tmp/out}/gemm7-run3.tar.gz" gemm7-run3
