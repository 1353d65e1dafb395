/* cli-plan.c — the planned rungs' plans on the command line: --plan NAME
 * checked against the kernels it would reach, and the plan each planned
 * rung ran, printed under the GEMM table (gpu/tl-gpu-plan.c is the model). */
#include "cli-plan.h"

#include "tl-gpu.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* Whether kernel id is reached by the list (ids, or all, gpu). */
static gboolean
list_reaches (char **list, const char *id)
{
  for (guint i = 0; list[i]; i++)
    {
      const char *k = g_strstrip (list[i]);
      if (g_strcmp0 (k, "all") == 0 || g_strcmp0 (k, "gpu") == 0 || g_strcmp0 (k, id) == 0)
        return TRUE;
    }
  return FALSE;
}

char *
tl_cli_check_plan (const char *kernels, const char *plan)
{
  if (plan == NULL)
    return NULL;
  g_auto (GStrv) list = g_strsplit (kernels ? kernels : "all", ",", -1);
  g_autoptr (GString) names = g_string_new (NULL);
  for (int i = 0; i < tl_gpu_kernel_count (); i++)
    {
      const TlGpuKernelInfo *info = tl_gpu_kernel_info (i);
      if (!list_reaches (list, info->id))
        continue;
      for (int p = 0; p < tl_gpu_gemm_plan_count (info->id); p++)
        {
          TlGpuGemmPlan pl;
          if (!tl_gpu_gemm_plan_nth (info->id, p, 1024, 1024, 1024, NULL, &pl))
            continue;
          if (strcmp (pl.name, plan) == 0)
            return NULL;
          if (strstr (names->str, pl.name) == NULL)
            g_string_append_printf (names, "%s%s", names->len ? ", " : "", pl.name);
        }
    }
  if (names->len == 0)
    return g_strdup_printf (_("--plan: none of the kernels asked for is planned (the planned "
                              "rungs: gemm-13, gemm-14, gemm-15, gemm-17)"));
  return g_strdup_printf (_("--plan: “%s” is not a plan of the kernels asked for (their plans: %s)"),
                          plan, names->str);
}

void
tl_cli_print_plans (const TlRunRecord *record, FILE *out)
{
  gboolean any = FALSE;
  for (guint i = 0; i < record->runs->len; i++)
    {
      const TlKernelRun *run = record->runs->pdata[i];
      if (!run->has_plan)
        continue;
      if (!any)
        fprintf (out, _("\nPlans (the cost model of gpu/tl-gpu-plan.c; --plan pins one):\n"));
      any = TRUE;
      const TlGpuGemmPlan *p = &run->plan;
      fprintf (out, _("  %s: %s — %d×%d tiles, k in %d slice(s), %d CTA(s) in %d wave(s), "
                      "%d SM(s) idle in the last%s\n    %s\n"),
               run->kernel_id, p->name, p->tile_m, p->tile_n, p->splits, p->work, p->waves,
               p->idle_sms, p->pinned ? _(" (pinned)") : "", p->why);
    }
}
