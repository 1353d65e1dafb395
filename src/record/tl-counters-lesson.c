/* tl-counters-lesson.c — a rung's lesson counters, compared with the rung below. */
#include "record/tl-counters-lesson.h"

#include "gemm/tl-kernels.h"

#include <glib/gi18n-lib.h>
#include <math.h>

void
tl_counter_line_free (TlCounterLine *line)
{
  if (line == NULL)
    return;
  g_free (line->title);
  g_free (line->value);
  g_free (line->comparison);
  g_free (line);
}

static gboolean
measured (const TlKernelRun *run)
{
  return run != NULL && run->status == TL_RUN_OK && run->counters != NULL
         && run->counters->state == TL_GPU_COUNTERS_MEASURED;
}

const TlKernelRun *
tl_counters_rung_below (const TlRunRecord *record, const char *kernel_id)
{
  g_return_val_if_fail (record != NULL, NULL);
  const TlKernelRun *of = tl_run_record_find_run (record, kernel_id);
  const TlKernelInfo *info = of ? of->info : NULL;
  if (info == NULL || info->number <= 0)
    return NULL;
  const TlKernelRun *best = NULL;
  int best_number = 0;
  for (guint i = 0; i < record->runs->len; i++)
    {
      const TlKernelRun *run = record->runs->pdata[i];
      const TlKernelInfo *other = run->info;
      if (other == NULL || other->backend != TL_BACKEND_GPU || !measured (run))
        continue;
      if (other->number > 0 && other->number < info->number && other->number > best_number)
        {
          best = run;
          best_number = other->number;
        }
    }
  return best;
}

GPtrArray *
tl_counters_lesson (const TlRunRecord *record, const char *kernel_id)
{
  g_return_val_if_fail (record != NULL, NULL);
  GPtrArray *lines = g_ptr_array_new_with_free_func ((GDestroyNotify) tl_counter_line_free);
  const TlKernelRun *run = tl_run_record_find_run (record, kernel_id);
  const TlKernelInfo *info = run ? run->info : NULL;
  if (info == NULL || info->counters == NULL || !measured (run))
    return lines;
  const TlKernelRun *below = tl_counters_rung_below (record, kernel_id);
  const TlKernelInfo *below_info = below ? below->info : NULL;
  g_autofree char *below_label = below_info ? g_strdup_printf ("%02d", below_info->number) : NULL;
  const TlGpuFacts *device = record->has_device ? &record->device : NULL;
  g_auto (GStrv) keys = g_strsplit (info->counters, " ", -1);
  for (guint k = 0; keys[k] != NULL; k++)
    {
      const TlCounterView *view = tl_counter_view_find (keys[k]);
      if (view == NULL)
        continue;
      double value = tl_counter_view_value (view, run->counters, device);
      TlCounterLine *line = g_new0 (TlCounterLine, 1);
      line->title = g_strdup (tl_counter_view_title (view));
      line->value = tl_counter_view_format (view, value);
      if (below != NULL)
        line->comparison = tl_counter_view_compare (
          view, value, tl_counter_view_value (view, below->counters, device), below_label);
      g_ptr_array_add (lines, line);
    }
  return lines;
}

static void
append_stalls (GString *s, const TlCounters *counters)
{
  int ids[3];
  double share[3];
  guint n = tl_counters_top_stalls (counters, 3, ids, share);
  if (n == 0)
    return;
  g_string_append_printf (s, "\n<b>%s</b>\n", _("Why warps waited"));
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *title = g_markup_escape_text (tl_counters_stall_title (ids[i]), -1);
      g_string_append_printf (s, "%s  %.0f%%\n", title, 100 * share[i]);
    }
}

char *
tl_counters_lesson_markup (const TlRunRecord *record, const char *kernel_id)
{
  g_return_val_if_fail (record != NULL, NULL);
  const TlKernelRun *run = tl_run_record_find_run (record, kernel_id);
  if (run == NULL)
    return NULL;
  GString *s = g_string_new (NULL);
  g_string_append_printf (s, "<b>%s</b>\n", _("Hardware counters"));
  const char *absent = tl_run_record_counters_absence (record, run);
  if (absent != NULL)
    {
      g_autofree char *text = g_markup_escape_text (absent, -1);
      g_string_append_printf (s, "<i>%s</i>\n", text);
      return g_string_free (s, FALSE);
    }
  g_autoptr (GPtrArray) lines = tl_counters_lesson (record, kernel_id);
  for (guint i = 0; i < lines->len; i++)
    {
      const TlCounterLine *line = lines->pdata[i];
      g_autofree char *title = g_markup_escape_text (line->title, -1);
      g_autofree char *value = g_markup_escape_text (line->value, -1);
      g_string_append_printf (s, "%s  %s\n", title, value);
      if (line->comparison != NULL)
        {
          g_autofree char *cmp = g_markup_escape_text (line->comparison, -1);
          g_string_append_printf (s, "<i>  %s</i>\n", cmp);
        }
    }
  append_stalls (s, run->counters);
  return g_string_free (s, FALSE);
}
