/* tl-run-text.c — numbers and runs in words. */
#include "tl-run-text.h"

#include <math.h>
#include <glib/gi18n-lib.h>

#include "core/tl-stats.h"
#include "gemm/tl-kernels.h"
#include "paint/tl-compare-bars.h"

char *
tl_run_text_number (double value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  if (isnan (value))
    return g_strdup ("—");
  return g_strdup (g_ascii_formatd (buf, sizeof buf, "%.4g", value));
}

const char *
tl_run_text_kernel_title (const char *kernel_id)
{
  const TlKernelInfo *info = tl_kernel_find (kernel_id);
  return info ? _(info->title) : kernel_id;
}

void
tl_run_text_describe (const TlKernelRun *run, double flops, GString *s)
{
  g_autofree char *label = tl_kernel_display_name (run->kernel_id);
  if (run->status != TL_RUN_OK)
    {
      g_string_append_printf (s, _("%s: %s"), label, run->message ? run->message : tl_run_status_name (run->status));
      return;
    }
  char num[64];
  g_ascii_formatd (num, sizeof num, "%.3f", run->time.median);
  g_string_append_printf (s, _("%s: %s ms"), label, num);
  double g = tl_stats_gflops (flops, run->time.median);
  if (!isnan (g))
    {
      g_ascii_formatd (num, sizeof num, "%.1f", g);
      g_string_append_printf (s, _(", %s GFLOP/s"), num);
    }
  if (!isnan (run->percent_of_reference) && run->percent_of_reference > 0)
    g_string_append_printf (s, _(", %.0f%% of %s"), run->percent_of_reference,
                            run->reference_id ? tl_run_text_kernel_title (run->reference_id) : "reference");
  if (run->verified)
    g_string_append (s, run->passed ? _(", verified") : _(", WRONG RESULT"));
}
