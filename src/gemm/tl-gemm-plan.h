/* tl-gemm-plan.h — the plan a planned rung would run, asked before a run.
 *
 * The planned rungs (17 FP32, 13 TF32, 14 BF16, 15 FP64) choose their tile,
 * split of k and cluster per problem through the cost model of
 * gpu/tl-gpu-plan.c, which is plain C: it answers on any machine, with or
 * without a GPU.  This is the door the views use to it (a record's plan is
 * TlKernelRun.plan). */
#pragma once

#include <glib.h>
#include "tl-gpu.h"

G_BEGIN_DECLS

/* The plan kernel_id would run for an m×k×n product on the GPU of facts
 * (NULL: the model's default GPU, an H200's 132 SMs); FALSE for a rung
 * that is not planned or a size past the model's range. */
gboolean tl_gemm_plan_predict (const char *kernel_id, gsize m, gsize k, gsize n,
                               const TlGpuFacts *facts, TlGpuGemmPlan *out);

G_END_DECLS
