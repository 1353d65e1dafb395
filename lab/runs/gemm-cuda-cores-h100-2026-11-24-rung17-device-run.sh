#!/bin/bash
# rung 17 device run (issue 12, branch gemm-fp32), 2026-11-24
D=$(cd "$(dirname "$0")" && pwd)
L=$D/lab-gemm-17
export PATH=/usr/local/cuda/bin:$PATH
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv; } > $OUT/smi.txt 2>&1
(cuobjdump -sass -fun gemm_17 $L 2>&1 || cuobjdump -sass $L 2>&1) | gzip > $OUT/sass.txt.gz
echo "== lab"; timeout 150 $L 10 3 2>&1 | tee $OUT/lab.txt
echo "== ncu"; timeout 60 ncu --clock-control none --section SpeedOfLight --section WarpStateStats --section InstructionStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section LaunchStats -k regex:gemm -c 12 $L ncu 2>&1 > $OUT/ncu.txt; tail -5 $OUT/ncu.txt
echo "== sanitizers"; for t in memcheck racecheck synccheck; do timeout 40 compute-sanitizer --tool $t $L small 2>&1 | tail -4; done | tee $OUT/sanitize.log
if [ -f $D/bundle/run.sh ]; then
  echo "== bench"; timeout 120 $D/bundle/run.sh bench-gpu-gemm --sizes 4096,8192,4000x3000x5000 --repeats 10 --rounds 3 --kernels gemm-17-simt-tma,gemm-08-vectorized,cublas-fp32 2>&1 | tee $OUT/bench.md
  echo "== test"; TL_TEST_KERNELS=gemm-17-simt-tma timeout 60 $D/bundle/run.sh test-gpu-gemm 2>&1 | tail -20 | tee $OUT/test.log
fi
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> $OUT/smi.txt 2>&1
