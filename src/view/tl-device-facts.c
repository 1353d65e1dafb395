/* tl-device-facts.c — the Device page's facts as rows. */
#include "view/tl-device-facts.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "gemm/tl-kernels.h"
#include "record/tl-counters.h"
#include "record/tl-counters-lesson.h"
#include "view/tl-format.h"
#include "view/tl-roofline.h"

/* a row whose value is printf'd */
G_GNUC_PRINTF (3, 4) static void
add_row (TlSheet *sheet, const char *label, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  g_autofree char *value = g_strdup_vprintf (format, args);
  va_end (args);
  tl_sheet_add_row (sheet, label, value);
}

void
tl_device_facts_gpu (TlSheet *sheet, const TlGpuFacts *f)
{
  g_return_if_fail (sheet != NULL && f != NULL);
  tl_sheet_add_heading (sheet, f->name);
  add_row (sheet, _("compute capability"), "%d.%d", f->cc_major, f->cc_minor);
  add_row (sheet, _("SMs"), "%d", f->sm_count);
  add_row (sheet, _("SM clock"), _("%.0f MHz"), f->clock_khz / 1000.0);
  add_row (sheet, _("memory"), _("%.1f GiB, %d-bit bus at %.0f MHz"), f->total_mem_bytes / 1073741824.0,
           f->mem_bus_width_bits, f->mem_clock_khz / 1000.0);
  add_row (sheet, _("L2 cache"), _("%.1f MiB"), f->l2_bytes / 1048576.0);
  add_row (sheet, _("shared memory"), _("%d KiB per block (%d KiB opt-in), %d KiB per SM"),
           f->smem_per_block_bytes / 1024, f->smem_per_block_optin_bytes / 1024, f->smem_per_sm_bytes / 1024);
  add_row (sheet, _("registers"), _("%d per SM, %d per block"), f->regs_per_sm, f->regs_per_block);
  add_row (sheet, _("threads"), _("%d per block, %d per SM; %d blocks per SM; warp %d"),
           f->max_threads_per_block, f->max_threads_per_sm, f->max_blocks_per_sm, f->warp_size);
}

/* The roofs a record's roofline draws: the peaks from its GPU's facts,
 * the bandwidths the job measured. */
static void
add_roofs (TlSheet *sheet, const TlRunRecord *record)
{
  g_autoptr (TlRoofline) roofline = tl_roofline_from_record (record);
  tl_sheet_add_heading (sheet, _("Roofline peaks (SMs × per-SM rate × clock)"));
  for (int m = 0; m < TL_MATH_COUNT; m++)
    if (roofline->peak[m] > 0)
      add_row (sheet, tl_math_label (m), _("%.1f TFLOP/s"), roofline->peak[m] / 1e12);
  if (record->has_bandwidth)
    add_row (sheet, _("measured bandwidth"), _("DRAM %.2f TB/s, L2 %.2f TB/s (copy kernels)"),
             record->bandwidth.dram_bytes_per_s / 1e12, record->bandwidth.l2_bytes_per_s / 1e12);
}

void
tl_device_facts_record (TlSheet *sheet, const TlRunRecord *record)
{
  g_return_if_fail (sheet != NULL && record != NULL && record->has_device);
  g_autofree char *from = g_strdup_printf (_("From the run record (%s)"),
                                           record->machine.host_name ? record->machine.host_name : "?");
  tl_sheet_add_sentence (sheet, from);
  tl_device_facts_gpu (sheet, &record->device);
  add_roofs (sheet, record);
}

void
tl_device_facts_no_gpu (TlSheet *sheet, const TlMachineFacts *m, const char *why)
{
  g_return_if_fail (sheet != NULL && m != NULL);
  tl_sheet_add_heading (sheet, _("No CUDA GPU in this session."));
  tl_sheet_add_row (sheet, _("CPU"), m->cpu_model ? m->cpu_model : "?");
  add_row (sheet, _("cores"), "%u", m->cores);
  tl_sheet_add_row (sheet, _("host"), m->host_name ? m->host_name : "?");
  tl_sheet_add_row (sheet, _("OS"), m->os ? m->os : "?");
  tl_sheet_add_sentence (sheet, _("Open a run record made with tilelab-cli on a GPU server\n"
                                  "(Open ▾ → Open Run Record…, Ctrl+J) to see its GPU here."));
  if (why != NULL)
    tl_sheet_add_sentence (sheet, why);
}

static void
add_launch (TlSheet *sheet, const TlKernelRun *r)
{
  const TlLaunchFacts *f = &r->launch;
  char occ[32];
  tl_format_percent (100 * f->occupancy, occ, sizeof occ);
  add_row (sheet, _("registers per thread"), "%d", f->regs_per_thread);
  add_row (sheet, _("shared memory"), _("%d B static + %d B dynamic per block"), f->static_smem_bytes,
           f->dynamic_smem_bytes);
  if (f->const_bytes >= 0)
    /* TRANSLATORS: the Device page's constant memory: "0 B of __constant__ data" */
    add_row (sheet, _("constant memory"), _("%d B of __constant__ data"), f->const_bytes);
  else
    tl_sheet_add_row (sheet, _("constant memory"), _("— (not in this record)"));
  add_row (sheet, _("local memory (stack)"), _("%d B per thread"), f->local_bytes_per_thread);
  if (f->local_bytes_per_thread > 0)
    tl_sheet_add_note (sheet, _("← spills or local arrays: registers ran out?"));
  add_row (sheet, _("block"), _("%d×%d×%d threads"), f->block_x, f->block_y, f->block_z);
  add_row (sheet, _("grid"),
           g_dngettext (GETTEXT_PACKAGE, "%d×%d×%d blocks, %d launch", "%d×%d×%d blocks, %d launches", f->launches),
           f->grid_x, f->grid_y, f->grid_z, f->launches);
  add_row (sheet, _("blocks per SM"), _("%d (occupancy %s)"), f->active_blocks_per_sm,
           isnan (f->occupancy) ? "—" : occ);
  add_row (sheet, _("waves"), "%.2f", f->waves);
  double part = f->waves - floor (f->waves);
  if (f->waves > 1 && part > 0 && part < 0.5)
    tl_sheet_add_note (sheet, _("← the last wave is mostly idle (tail effect)"));
}

/* the run's lesson counters beside the rung below's, then why warps waited */
static void
add_counters (TlSheet *sheet, const TlRunRecord *record, const TlKernelRun *run)
{
  tl_sheet_add_heading (sheet, _("Hardware counters"));
  const char *absent = tl_run_record_counters_absence (record, run);
  if (absent != NULL)
    {
      tl_sheet_add_sentence (sheet, absent);
      return;
    }
  g_autoptr (GPtrArray) lines = tl_counters_lesson (record, run->kernel_id);
  for (guint i = 0; i < lines->len; i++)
    {
      const TlCounterLine *line = lines->pdata[i];
      tl_sheet_add_row (sheet, line->title, line->value);
      if (line->comparison != NULL)
        tl_sheet_add_note (sheet, line->comparison);
    }
  int ids[3];
  double share[3];
  guint n = tl_counters_top_stalls (run->counters, 3, ids, share);
  if (n > 0)
    tl_sheet_add_heading (sheet, _("Why warps waited"));
  for (guint i = 0; i < n; i++)
    add_row (sheet, tl_counters_stall_title (ids[i]), "%.0f%%", 100 * share[i]);
}

void
tl_device_facts_kernel (TlSheet *sheet, const TlRunRecord *record, const TlKernelRun *r)
{
  g_return_if_fail (sheet != NULL);
  if (r == NULL)
    {
      tl_sheet_add_sentence (sheet, _("Run kernels (or open a run record) to see their launch facts."));
      return;
    }
  g_autofree char *name = tl_kernel_display_name (r->info, r->kernel_id);
  tl_sheet_add_heading (sheet, name);
  const char *title = tl_kernel_title (r->info, r->kernel_id);
  g_autofree char *why = NULL;
  if (r->backend == TL_BACKEND_CPU)
    why = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                        "%s ran on the CPU on %u thread: no registers, shared memory or waves to show.\n"
                                        "Its C tiles (when it records them) appear in the tile grid.",
                                        "%s ran on the CPU on %u threads: no registers, shared memory or waves to show.\n"
                                        "Its C tiles (when it records them) appear in the tile grid.", r->threads),
                           title, r->threads);
  else if (!r->launch.valid)
    why = g_strdup_printf (_("%s: no launch facts in this run (%s)."), title,
                           r->message ? r->message : tl_run_status_name (r->status));
  if (why != NULL)
    tl_sheet_add_sentence (sheet, why);
  else
    add_launch (sheet, r);
  if (record != NULL && r->backend == TL_BACKEND_GPU)
    add_counters (sheet, record, r);
}
