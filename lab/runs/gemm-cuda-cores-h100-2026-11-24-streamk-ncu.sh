B=.gpubundle-sk
export PATH=/usr/local/cuda/bin:$PATH
for k in gemm-17-simt-tma gemm-18-simt-streamk; do
  timeout 150 ncu --clock-control none --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section LaunchStats --section Occupancy --section MemoryWorkloadAnalysis --metrics sm__cycles_active.avg,sm__cycles_active.min,sm__cycles_active.max,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active -k regex:gemm_1 -c 1 $B/run.sh bench-gpu-gemm --kernels $k --sizes 4096 --repeats 1 > $OUT/ncu-$k.txt 2>&1
  grep -E "Duration|Elapsed Cycles|SM Active Cycles|Issue Slots|Compute \(SM\)|Grid Size|Registers|Stall|Warp Cycles|sm__cycles_active|inst_executed|Achieved|DRAM Throughput|L2 Hit|No Eligible|Eligible Warps|Active Warps" $OUT/ncu-$k.txt | head -40
done
