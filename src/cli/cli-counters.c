/* cli-counters.c — the hardware counters of `tilelab-cli gemm --counters`, as a table. */
#include "cli-counters.h"
#include "tl-cli.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "view/tl-roofline.h"
#include "record/tl-counters.h"

/* the views in the table, in order, with their column width */
static const struct
{
  const char *key;
  const char *header;
  int width;
} columns[] = {
  { "dram_bytes", N_("DRAM"), 9 },
  { "l2_hit_rate", N_("L2 hit"), 7 },
  { "gld_sectors_per_request", N_("sect/ld"), 8 },
  { "bank_conflicts_per_request", N_("confl/req"), 9 },
  { "occupancy", N_("occup."), 7 },
  { "issue_active", N_("issue"), 6 },
  { "flops", N_("FLOPs"), 11 },
  { "intensity", N_("FLOP/B"), 8 },
};

#define KERNEL_WIDTH 26

/* a cell: the view's text, or the bare number for per-request views */
static char *
cell (const TlCounterView *view, double value)
{
  if (tl_counter_view_unit (view) == TL_COUNTER_UNIT_PER_REQUEST && isfinite (value))
    {
      char num[G_ASCII_DTOSTR_BUF_SIZE];
      return g_strdup (g_ascii_formatd (num, sizeof num, "%.1f", value));
    }
  if (tl_counter_view_unit (view) == TL_COUNTER_UNIT_FLOP_PER_BYTE && isfinite (value))
    {
      char num[G_ASCII_DTOSTR_BUF_SIZE];
      return g_strdup (g_ascii_formatd (num, sizeof num, value >= 9.95 ? "%.0f" : "%.2f", value));
    }
  return tl_counter_view_format (view, value);
}

static const TlRooflinePoint *
point_of (const TlRoofline *roofline, const char *kernel_id)
{
  for (guint i = 0; i < roofline->n_points; i++)
    if (g_strcmp0 (roofline->points[i].kernel_id, kernel_id) == 0)
      return &roofline->points[i];
  return NULL;
}

static void
print_header (const TlRunRecord *record, FILE *out)
{
  fprintf (out, _("\nHardware counters (one untimed launch, replayed; docs/counters.md)"));
  if (record->has_bandwidth)
    fprintf (out, _("; measured bandwidth: DRAM %.2f TB/s, L2 %.2f TB/s"),
             record->bandwidth.dram_bytes_per_s / 1e12, record->bandwidth.l2_bytes_per_s / 1e12);
  fprintf (out, "\n\n");
  tl_cli_put_col (out, _("kernel"), KERNEL_WIDTH, TRUE);
  for (guint c = 0; c < G_N_ELEMENTS (columns); c++)
    {
      fputc (' ', out);
      tl_cli_put_col (out, _(columns[c].header), columns[c].width, FALSE);
    }
  fprintf (out, "  %s\n", _("limit"));
}

void
tl_cli_print_counters (const TlRunRecord *record, FILE *out)
{
  g_return_if_fail (record != NULL && out != NULL);
  guint n_counted = 0;
  for (guint i = 0; i < record->runs->len; i++)
    {
      const TlKernelRun *run = record->runs->pdata[i];
      n_counted += run->backend == TL_BACKEND_GPU && run->status == TL_RUN_OK;
    }
  if (n_counted == 0)
    {
      /* a sentence, not an empty table */
      fprintf (out, _("\nHardware counters: no GPU kernel ran to the end, so nothing was "
                      "counted.\n"));
      return;
    }
  g_autoptr (TlRoofline) roofline = tl_roofline_from_record (record);
  print_header (record, out);
  for (guint i = 0; i < record->runs->len; i++)
    {
      const TlKernelRun *run = record->runs->pdata[i];
      if (run->backend != TL_BACKEND_GPU || run->status != TL_RUN_OK)
        continue;
      tl_cli_put_col (out, run->kernel_id, KERNEL_WIDTH, TRUE);
      const char *absent = tl_run_record_counters_absence (record, run);
      if (absent != NULL)
        {
          fprintf (out, " %s\n", absent);
          continue;
        }
      for (guint c = 0; c < G_N_ELEMENTS (columns); c++)
        {
          const TlCounterView *view = tl_counter_view_find (columns[c].key);
          g_autofree char *text = cell (view, tl_counter_view_value (view, run->counters,
                                                                    &record->device));
          fputc (' ', out);
          tl_cli_put_col (out, text, columns[c].width, FALSE);
        }
      const TlRooflinePoint *p = point_of (roofline, run->kernel_id);
      g_autofree char *limit = p != NULL ? tl_roofline_limiter_text (roofline, p) : NULL;
      fprintf (out, "  %s\n", limit != NULL ? limit : "—");
    }
  if (roofline->note != NULL && roofline->n_points > 0)
    fprintf (out, _("Note: %s\n"), roofline->note);
  fprintf (out, _("sect/ld: 32-byte sectors per global load request (4 = coalesced floats); "
                  "confl/req: shared-memory bank conflicts per load or store; issue: cycles in "
                  "which a scheduler issued.\n"));
}
