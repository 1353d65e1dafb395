#!/bin/sh
# The loader branch on the GPU machine: the CUDA module loads from the
# bundle's lib/tilelab and works (issue 10 item 8, branch loader).
b=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-./gpu-out}
log=$out/loader
mkdir -p "$log"
exec > "$log/device-run.log" 2>&1
set -x
date -u '+%Y-%m-%d %H:%M:%S UTC'
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv
"$b/run.sh" tilelab-cli --help > /dev/null   # unpacks the bundle
ls -la "$b/lib/tilelab"
echo "== the programs link no CUDA; the module does, and resolves"
for p in "$b"/bin/*; do printf '%s: ' "$(basename "$p")"; ldd "$p" | grep -cE 'libcu|nvJit'; done
ldd "$b/lib/tilelab/libtilelab-gpu-cuda.so" | grep -E 'not found|libcu|nvJit'
echo "== devices"
"$b/run.sh" tilelab-cli devices
echo "== gemm 1000x777x1111 (m x k x n), GPU rungs and cuBLAS, verified"
"$b/run.sh" tilelab-cli gemm --kernel gemm-01-naive,gemm-03-smem16,gemm-09-warptile,gemm-11-wgmma,gemm-14-wgmma-persistent,cublas-fp32 \
  --size 1000x777x1111 --repeats 10 --record "$log/gemm.json"
echo "exit $?"
"$b/run.sh" tilelab-cli gemm --kernel gemm-12-regtile-f64,gemm-15-dmma-f64,cublas-fp64 --dtype float64 \
  --size 1000x777x1111 --repeats 10
echo "exit $?"
echo "== lu with GPU rungs"
"$b/run.sh" tilelab-cli lu --gen random-uniform --size 1001 --kernel lu-02-blocked
echo "exit $?"
"$b/run.sh" tilelab-cli lu --gen random-uniform --size 1001 --kernel lu-cusolver
echo "exit $?"
echo "== the loader, with the real module on a GPU"
"$b/run.sh" test-gpu-loader --verbose
echo "exit $?"
echo "== module missing on a GPU machine: the stub answers with the reason"
TILELAB_GPU_BACKEND=/nonexistent/libtilelab-gpu-cuda.so "$b/run.sh" tilelab-cli devices
echo "exit $?"
echo "== test-gpu-gemm small suite"
timeout 240 "$b/run.sh" test-gpu-gemm -p /gpu/gemm/small > "$log/test-gpu-gemm-small.log" 2>&1
echo "exit $?"
grep -vE "^ok|^# (gemm|cublas)" "$log/test-gpu-gemm-small.log" | tail -15
grep -c "^ok" "$log/test-gpu-gemm-small.log"
echo "== test-lu-gpu, test-gpu-device"
timeout 90 "$b/run.sh" test-gpu-device > "$log/test-gpu-device.log" 2>&1; echo "test-gpu-device exit $?"
timeout 120 "$b/run.sh" test-lu-gpu -p /lu-gpu/ratios -p /lu-gpu/solve -p /lu-gpu/gfp > "$log/test-lu-gpu.log" 2>&1; echo "test-lu-gpu exit $?"
tail -3 "$log/test-lu-gpu.log"
date -u '+%Y-%m-%d %H:%M:%S UTC'
set +x
tar -C "$out" -czf "$out/loader.tar.gz" loader
