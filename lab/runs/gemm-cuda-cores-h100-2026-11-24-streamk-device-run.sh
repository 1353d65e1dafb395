#!/bin/bash
# rung 18 (stream-K) and rung 10 (instrumentation) device run, issue 12, 2026-11-24.
# Run from the repository root on the device machine, the bundle in .gpubundle-sk
# (tools/make-gpu-bundle.sh .gpubundle-sk); results under $OUT.
B=.gpubundle-sk
export PATH=/usr/local/cuda/bin:$PATH
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv; } > $OUT/smi.txt 2>&1
$B/run.sh tilelab-cli --version > /dev/null 2>&1   # unpacks lib/ and bin/
cuobjdump -sass $B/lib/*/libtilelab-gpu-cuda.so 2>/dev/null | awk '/Function : .*gemm_18/{p=1} /Function : /&&!/gemm_18/{p=0} p' > $OUT/sass18.txt
[ -s $OUT/sass18.txt ] || cuobjdump -sass $(find $B/lib -name 'libtilelab-gpu*.so*' | head -1) | awk '/Function : .*gemm_18/{p=1} /Function : /&&!/gemm_18/{p=0} p' > $OUT/sass18.txt
echo "sass lines $(wc -l < $OUT/sass18.txt); LDL $(grep -c LDL $OUT/sass18.txt); STL $(grep -c STL $OUT/sass18.txt)"
gzip $OUT/sass18.txt
K=gemm-10-wmma-tf32,gemm-10-wmma-bf16,gemm-17-simt-tma,gemm-18-simt-streamk,cublas-fp32
echo "== test"; TL_TEST_KERNELS=$K timeout 120 $B/run.sh test-gpu-gemm 2>&1 | tail -25 | tee $OUT/test.log
echo "== sanitizers"; for t in memcheck racecheck synccheck; do
  echo "-- $t"; TL_TEST_KERNELS=gemm-18-simt-streamk,gemm-10-wmma-tf32,gemm-10-wmma-bf16 timeout 80 compute-sanitizer --tool $t $B/run.sh test-gpu-gemm -p /gpu/gemm/small 2>&1 | tail -4; done | tee $OUT/sanitize.log
echo "== bench"; timeout 200 $B/run.sh bench-gpu-gemm --sizes 4096,8192,4000x3000x5000 --repeats 10 --rounds 3 --kernels gemm-17-simt-tma,gemm-18-simt-streamk,cublas-fp32,gemm-10-wmma-tf32,cublas-tf32,gemm-10-wmma-bf16,cublas-bf16 2>&1 | tee $OUT/bench.md
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> $OUT/smi.txt 2>&1
