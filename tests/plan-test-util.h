/* plan-test-util.h — a record of a planned rung, as an H200 would write it,
 * for the tests of the views that show plans (no GPU needed).
 *
 * Rung 17's plan for m×k×n is the cost model's choice (gpu/tl-gpu-plan.c,
 * plain C); its block records are made up: one per CTA (a tile and a
 * slice of k, the slice in `launch`, as the planned rungs record them),
 * on 132 SMs wave after wave, the times random. */
#pragma once

#include <glib.h>
#include "record/tl-record.h"

static inline TlRunRecord *
tl_test_planned_record (gsize m, gsize k, gsize n, gboolean with_blocks)
{
  g_autoptr (TlJob) job = tl_job_new_gemm (m, k, n, TL_DTYPE_FLOAT32);
  TlRunRecord *rec = tl_run_record_new (job);
  rec->has_device = TRUE;
  rec->device.sm_count = 132;
  rec->device.cc_major = 9;
  rec->device.clock_khz = 1980000;
  g_strlcpy (rec->device.name, "NVIDIA H200", sizeof rec->device.name);

  TlKernelRun *run = tl_kernel_run_new ("gemm-17-simt-tma", TL_BACKEND_GPU);
  g_assert_cmpint (tl_gpu_gemm_plan_choose ("gemm-17-simt-tma", (int) m, (int) n, (int) k, &rec->device,
                                            NULL, &run->plan),
                   ==, TL_GPU_OK);
  run->has_plan = TRUE;
  const TlGpuGemmPlan *p = &run->plan;
  const double us = p->model_us;
  const double samples[] = { us * 1.02e-3, us * 1.0e-3, us * 1.05e-3 };
  tl_kernel_run_set_samples (run, samples, G_N_ELEMENTS (samples));
  if (with_blocks)
    {
      const guint tiles_n = (guint) ((n + p->tile_n - 1) / p->tile_n);
      const gsize count = (gsize) p->tiles * p->splits;
      const double wave_ns = 1e3 * us / MAX (p->waves, 1);
      TlBlockRecord *b = g_new0 (TlBlockRecord, count);
      for (gsize i = 0; i < count; i++)
        {
          const guint tile = (guint) (i / p->splits), wave = (guint) (i / p->slots);
          b[i].block_x = tile % tiles_n;
          b[i].block_y = tile / tiles_n;
          b[i].launch = (guint32) (i % p->splits);
          b[i].unit = (guint32) (i % p->slots % 132);
          b[i].start_ns = (guint64) (wave * wave_ns + g_test_rand_double_range (0, 0.05) * wave_ns);
          b[i].end_ns = b[i].start_ns + (guint64) (g_test_rand_double_range (0.8, 0.95) * wave_ns);
        }
      tl_kernel_run_take_blocks (run, b, count, "sm");
      run->block_tile_m = (guint) p->tile_m;
      run->block_tile_n = (guint) p->tile_n;
    }
  g_ptr_array_add (rec->runs, run);
  return rec;
}
