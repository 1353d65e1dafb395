/* tl-gemm-plan.c — the plan a planned rung would run, asked before a run. */
#include "gemm/tl-gemm-plan.h"

gboolean
tl_gemm_plan_predict (const char *kernel_id, gsize m, gsize k, gsize n, const TlGpuFacts *facts,
                      TlGpuGemmPlan *out)
{
  g_return_val_if_fail (kernel_id != NULL && out != NULL, FALSE);
  if (tl_gpu_gemm_plan_count (kernel_id) == 0 || m == 0 || k == 0 || n == 0 || m > G_MAXINT
      || k > G_MAXINT || n > G_MAXINT)
    return FALSE;
  return tl_gpu_gemm_plan_choose (kernel_id, (int) m, (int) n, (int) k, facts, NULL, out) == TL_GPU_OK
         && out->name[0] != '\0';
}
