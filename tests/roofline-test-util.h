/* roofline-test-util.h — a run record from an H200 with counters, for the
 * roofline's model and painter tests. */
#pragma once

#include <math.h>
#include "record/tl-record.h"
#include "tl-gpu.h"

#define H200_SMS 132
#define H200_KHZ 1980000

/* One GPU run: FLOPs of one kind, DRAM and L2 bytes, issue share, median. */
static inline TlKernelRun *
gpu_run (const char *id, int flops_counter, double flops, double dram, double l2, double issue,
         double median_ms)
{
  TlKernelRun *run = tl_kernel_run_new (id, TL_BACKEND_GPU);
  const double ms[] = { median_ms };
  tl_kernel_run_set_samples (run, ms, 1);
  TlCounters *c = tl_counters_new (TL_GPU_COUNTERS_MEASURED, NULL);
  /* an FMA counts two FLOPs; the tensor counters count FLOPs already */
  c->value[flops_counter] = flops_counter == TL_GPU_COUNTER_FFMA ? flops / 2 : flops;
  c->value[TL_GPU_COUNTER_DRAM_READ_BYTES] = dram * 0.9;
  c->value[TL_GPU_COUNTER_DRAM_WRITE_BYTES] = dram * 0.1;
  c->value[TL_GPU_COUNTER_L2_BYTES] = l2;
  c->value[TL_GPU_COUNTER_ISSUE_ACTIVE] = issue * 1e9;
  c->value[TL_GPU_COUNTER_SMSP_CYCLES_ACTIVE] = 1e9;
  c->value[TL_GPU_COUNTER_STALL_LONG_SCOREBOARD] = 60;
  c->value[TL_GPU_COUNTER_STALL_BARRIER] = 40;
  run->counters = c;
  return run;
}

/* An H200 record: a latency-, a memory-, an issue- and a tensor-bound
 * kernel, a CPU kernel and one whose counters were refused. */
static inline TlRunRecord *
h200_record (gboolean with_bandwidth)
{
  g_autoptr (TlJob) job = tl_job_new_gemm (4096, 4096, 4096, TL_DTYPE_FLOAT32);
  job->counters = TRUE;
  TlRunRecord *r = tl_run_record_new (job);
  r->has_device = TRUE;
  g_strlcpy (r->device.name, "NVIDIA H200", sizeof r->device.name);
  r->device.cc_major = 9;
  r->device.sm_count = H200_SMS;
  r->device.clock_khz = H200_KHZ;
  r->device.max_threads_per_sm = 2048;
  r->device.warp_size = 32;
  r->has_bandwidth = with_bandwidth;
  r->bandwidth.dram_bytes_per_s = 4e12;
  r->bandwidth.l2_bytes_per_s = 8e12;
  const double flops = 2.0 * 4096 * 4096 * 4096;
  g_ptr_array_add (r->runs, gpu_run ("gemm-02-coalesced", TL_GPU_COUNTER_FFMA, flops, 4.2e9,
                                     2e10, 0.3, 21.9));
  /* 14.4 GB in 4 ms: 3.6 TB/s, 90% of DRAM; 34 TFLOP/s, 51% of FP32 */
  g_ptr_array_add (r->runs, gpu_run ("gemm-01-naive", TL_GPU_COUNTER_FFMA, flops, 14.4e9, 14.4e9,
                                     0.1, 4.0));
  g_ptr_array_add (r->runs, gpu_run ("gemm-09-warptile", TL_GPU_COUNTER_FFMA, flops, 4.2e8,
                                     4.1e9, 0.75, 3.137));
  g_ptr_array_add (r->runs, gpu_run ("cublas-bf16", TL_GPU_COUNTER_TENSOR_BF16_OPS, flops, 2.3e8,
                                     0.8e9, 0.3, 0.185));
  /* 80% of L2 bandwidth and 69% of the BF16 peak: both are said */
  g_ptr_array_add (r->runs, gpu_run ("gemm-14-wgmma-persistent", TL_GPU_COUNTER_TENSOR_BF16_OPS,
                                     flops, 2.1e8, 1.184e9, 0.2, 0.185));
  TlKernelRun *cpu = tl_kernel_run_new ("cpu-blocked", TL_BACKEND_CPU);
  const double ms[] = { 900 };
  tl_kernel_run_set_samples (cpu, ms, 1);
  g_ptr_array_add (r->runs, cpu);
  TlKernelRun *refused = tl_kernel_run_new ("gemm-03-smem16", TL_BACKEND_GPU);
  tl_kernel_run_set_samples (refused, ms, 1);
  refused->counters = tl_counters_new (TL_GPU_COUNTERS_NOT_PERMITTED,
                                       "only administrators may (ERR_NVGPUCTRPERM)");
  g_ptr_array_add (r->runs, refused);
  return r;
}

