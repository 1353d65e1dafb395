/* tl-compare-counters.c — bars coloured by a counter view of their runs. */
#include "view/tl-compare-counters.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "core/tl-error.h"
#include "view/tl-colormap.h"

/* amounts span decades: a log scale; shares and ratios: linear */
static gboolean
log_scale (const TlCounterView *view)
{
  TlCounterUnit u = tl_counter_view_unit (view);
  return u == TL_COUNTER_UNIT_BYTES || u == TL_COUNTER_UNIT_COUNT || u == TL_COUNTER_UNIT_FLOP
         || u == TL_COUNTER_UNIT_FLOP_PER_BYTE;
}

static double
value_of (const TlCounterView *view, const TlRunRecord *record, const char *kernel_id)
{
  const TlKernelRun *run = kernel_id ? tl_run_record_find_run (record, kernel_id) : NULL;
  if (run == NULL || run->status != TL_RUN_OK)
    return NAN;
  double v = tl_counter_view_value (view, run->counters, record->has_device ? &record->device : NULL);
  return log_scale (view) && !(v > 0) ? NAN : v;
}

char *
tl_compare_bars_color_by_counter (TlCompareBar *bars, guint n_bars, const TlRunRecord *record,
                                  const char *view_key)
{
  g_return_val_if_fail (bars != NULL || n_bars == 0, NULL);
  const TlCounterView *view = tl_counter_view_find (view_key);
  if (view == NULL || record == NULL)
    return NULL;
  double lo = INFINITY, hi = -INFINITY;
  for (guint i = 0; i < n_bars; i++)
    {
      double v = value_of (view, record, bars[i].kernel_id);
      if (isfinite (v))
        {
          lo = MIN (lo, v);
          hi = MAX (hi, v);
        }
    }
  if (!isfinite (lo))
    return NULL;
  gboolean lg = log_scale (view);
  for (guint i = 0; i < n_bars; i++)
    {
      double v = value_of (view, record, bars[i].kernel_id);
      bars[i].has_rgb = TRUE;
      if (!isfinite (v))
        {
          bars[i].rgb[0] = bars[i].rgb[1] = bars[i].rgb[2] = 0.62;
          continue;
        }
      double t = hi > lo ? (lg ? log (v / lo) / log (hi / lo) : (v - lo) / (hi - lo)) : 0.5;
      guint8 rgb[3];
      tl_colormap_rgb (TL_COLORMAP_VIRIDIS, CLAMP (t, 0.0, 1.0), rgb);
      for (int c = 0; c < 3; c++)
        bars[i].rgb[c] = rgb[c] / 255.0;
    }
  g_autofree char *low = tl_counter_view_format (view, lo);
  g_autofree char *high = tl_counter_view_format (view, hi);
  /* TRANSLATORS: the Compare page's colour legend, e.g. "Colour: DRAM bytes,
     dark 211 MB … yellow 16.8 GB (log scale); grey: not counted" */
  return g_strdup_printf (_("Colour: %s, dark %s … yellow %s (%s); grey: not counted"),
                          tl_counter_view_title (view), low, high,
                          lg ? _("log scale") : _("linear scale"));
}

char *
tl_compare_bars_color_by_choice (TlCompareBar *bars, guint n_bars, const TlRunRecord *record,
                                 const char *choice, GError **error)
{
  if (choice == NULL || g_strcmp0 (choice, "kernel") == 0)
    return NULL;
  if (tl_counter_view_find (choice) == NULL)
    {
      GString *keys = g_string_new ("kernel");
      for (guint i = 0; i < tl_counter_view_count (); i++)
        g_string_append_printf (keys, ", %s", tl_counter_view_key (tl_counter_view_get (i)));
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("the bars are coloured by one of %s, not “%s”"), keys->str, choice);
      g_string_free (keys, TRUE);
      return NULL;
    }
  char *legend = n_bars > 0 ? tl_compare_bars_color_by_counter (bars, n_bars, record, choice) : NULL;
  return legend ? legend
                : g_strdup (_("No run on show has this counter: the bars keep their kernels' colours."));
}
