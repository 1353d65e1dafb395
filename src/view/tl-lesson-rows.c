/* tl-lesson-rows.c — the lesson's table: before → after, with a trend per row. */
#include "view/tl-lesson-rows.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "view/tl-block-stats.h"
#include "view/tl-format.h"

/* How a row's two values are compared. */
typedef enum
{
  CHANGE_AMOUNT, /* bytes, counts: "7.9× fewer", "2.3× more" */
  CHANGE_TIME,   /* "1.4× shorter", "1.4× longer" */
  CHANGE_RATE,   /* "1.4× higher", "1.4× lower" */
  CHANGE_POINTS, /* shares: "+21 points", "−5 points" */
} ChangeKind;

/* Which way is good: fewer bytes (−1), a higher hit rate (+1), or
 * neither in itself (0: occupancy, the stall mix). */
typedef int Good;

/* Changes smaller than these are no change worth a word (a share that
 * moved by one point as shown, "84% → 85%", is noise). */
#define SAME_RATIO 1.05
#define SAME_POINTS 0.015

static void
row_free (gpointer data)
{
  TlLessonRow *row = data;
  g_free (row->title);
  g_free (row->before);
  g_free (row->after);
  g_free (row->change);
  g_free (row->factor);
  g_free (row);
}

GPtrArray *
tl_lesson_rows_new (void)
{
  return g_ptr_array_new_with_free_func (row_free);
}

static char *
factor_text (double r)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  return g_strdup (g_ascii_formatd (buf, sizeof buf, r >= 99.5 ? "%.0f" : "%.1f", r));
}

/* "7.9× fewer" and the direction (+1 the value went up), "" when the
 * same; short: "7.9×", "+21". */
static char *
change_text (ChangeKind kind, double before, double after, int *direction, char **short_text)
{
  *direction = 0;
  *short_text = g_strdup ("");
  if (kind == CHANGE_POINTS)
    {
      double d = after - before;
      if (fabs (d) < SAME_POINTS)
        return g_strdup ("");
      *direction = d > 0 ? 1 : -1;
      gulong points = (gulong) lround (fabs (100.0 * d));
      g_free (*short_text);
      *short_text = g_strdup_printf (d > 0 ? "+%lu" : "−%lu", points);
      /* TRANSLATORS: a change of a percentage, e.g. "+21 points" or "−5 points" */
      return g_strdup_printf (d > 0 ? g_dngettext (GETTEXT_PACKAGE, "+%lu point", "+%lu points", points)
                                    : g_dngettext (GETTEXT_PACKAGE, "−%lu point", "−%lu points", points),
                              points);
    }
  if (before <= 0 || after <= 0)
    {
      if (before == after)
        return g_strdup ("");
      /* short: the arrow alone, the cells say 0 */
      *direction = after > before ? 1 : -1;
      /* TRANSLATORS: a count that was zero before (bank conflicts) */
      return g_strdup (after > before ? _("new") : _("none now"));
    }
  double r = after / before;
  if (r < SAME_RATIO && r > 1.0 / SAME_RATIO)
    return g_strdup ("");
  *direction = r > 1 ? 1 : -1;
  g_autofree char *f = factor_text (r > 1 ? r : 1.0 / r);
  g_free (*short_text);
  *short_text = g_strdup_printf ("%s×", f);
  switch (kind)
    {
    case CHANGE_AMOUNT:
      /* TRANSLATORS: "7.9× fewer" (bytes) and "2.3× more" */
      return g_strdup_printf (r > 1 ? _("%s× more") : _("%s× fewer"), f);
    case CHANGE_TIME:
      /* TRANSLATORS: "1.4× longer" and "1.4× shorter" (a time) */
      return g_strdup_printf (r > 1 ? _("%s× longer") : _("%s× shorter"), f);
    case CHANGE_RATE:
    case CHANGE_POINTS:
      break;
    }
  /* TRANSLATORS: "1.4× higher" and "1.4× lower" (a rate, a ratio) */
  return g_strdup_printf (r > 1 ? _("%s× higher") : _("%s× lower"), f);
}

/* The number a cell shows and what follows it: 0.0 and " per request";
 * FALSE for "—". */
static gboolean
shown_number (const char *text, double *value, const char **unit)
{
  char *end;
  *value = g_ascii_strtod (text, &end);
  *unit = end;
  return end != text && isfinite (*value);
}

/* The values as the cells show them, so that the arrow and the factor say
 * what the reader can check: "0.0 → 0.0" gets neither (not the "▲ 5.3×"
 * of 0.004 → 0.021), "0.1 → 0.2" reads 2.0×.  Cells in different units
 * ("419 MB", "4.53 GB") each keep three digits: the values stay. */
static void
values_as_shown (const char *before, const char *after, ChangeKind kind, double *v_before,
                 double *v_after)
{
  double a, b;
  const char *unit_a, *unit_b;
  if (!shown_number (before, &a, &unit_a) || !shown_number (after, &b, &unit_b)
      || strcmp (unit_a, unit_b) != 0)
    return;
  if (kind == CHANGE_POINTS)
    {
      /* shares are shown as percentages */
      if (strchr (unit_a, '%') == NULL)
        return;
      a /= 100;
      b /= 100;
    }
  *v_before = a;
  *v_after = b;
}

/* Adds a row; before and after are taken.  Values NAN: unknown ("—"). */
static void
add_row (GPtrArray *rows, const char *title, char *before, char *after, double v_before,
         double v_after, ChangeKind kind, Good good)
{
  TlLessonRow *row = g_new0 (TlLessonRow, 1);
  row->title = g_strdup (title);
  row->before = before;
  row->after = after;
  if (isnan (v_before) || isnan (v_after))
    {
      row->change = g_strdup ("");
      row->factor = g_strdup ("");
    }
  else
    {
      values_as_shown (before, after, kind, &v_before, &v_after);
      row->change = change_text (kind, v_before, v_after, &row->direction, &row->factor);
    }
  if (row->direction == 0)
    row->trend = TL_LESSON_SAME;
  else if (good == 0)
    row->trend = TL_LESSON_NEUTRAL;
  else
    row->trend = row->direction == good ? TL_LESSON_BETTER : TL_LESSON_WORSE;
  g_ptr_array_add (rows, row);
}

/* ---- from the times ---------------------------------------------------- */

static char *
ms_text (double ms)
{
  char buf[64];
  if (!(ms > 0))
    return g_strdup ("—");
  tl_format_ms (ms, buf, sizeof buf);
  return g_strdup (buf);
}

static char *
gflops_text (double gflops)
{
  char buf[64];
  if (!(gflops > 0))
    return g_strdup ("—");
  tl_format_gflops (gflops, buf, sizeof buf);
  return g_strdup (buf);
}

static char *
percent_text (double percent)
{
  char buf[64];
  if (isnan (percent))
    return g_strdup ("—");
  tl_format_percent (percent, buf, sizeof buf);
  return g_strdup (buf);
}

void
tl_lesson_rows_add_times (GPtrArray *rows, const TlKernelRun *lower, const TlKernelRun *upper)
{
  double a = lower->time.median, b = upper->time.median;
  add_row (rows, _("median time"), ms_text (a), ms_text (b), a, b, CHANGE_TIME, -1);
  if (isfinite (lower->percent_of_reference) && isfinite (upper->percent_of_reference))
    add_row (rows, _("share of the reference"), percent_text (lower->percent_of_reference),
             percent_text (upper->percent_of_reference), lower->percent_of_reference / 100,
             upper->percent_of_reference / 100, CHANGE_POINTS, 1);
  else
    add_row (rows, _("throughput"), gflops_text (lower->gflops), gflops_text (upper->gflops),
             lower->gflops, upper->gflops, CHANGE_RATE, 1);
}

/* ---- from the counters ------------------------------------------------- */

static char *
whole_percent_text (double percent)
{
  return percent_text (isfinite (percent) ? round (percent) : percent);
}

/* Cuts a cell to its number: "2.1 per request" to "2.1" ("—" stays). */
static void
number_only (char *text)
{
  double v;
  const char *unit;
  if (shown_number (text, &v, &unit))
    text[unit - text] = '\0';
}

static const struct
{
  const char *key;
  ChangeKind kind;
  Good good;
} counter_rows[] = {
  { "dram_bytes", CHANGE_AMOUNT, -1 },
  { "l2_bytes", CHANGE_AMOUNT, -1 },
  { "l2_hit_rate", CHANGE_POINTS, 1 },
  { "bank_conflicts_per_request", CHANGE_AMOUNT, -1 },
  /* more warps hide latency, but fewer, busier ones can be faster: no
   * direction is better in itself */
  { "occupancy", CHANGE_POINTS, 0 },
  { "intensity", CHANGE_RATE, 1 },
};

/* The stall reasons worth a row: the largest two of each run. */
static guint
stall_ids (const TlCounters *lower, const TlCounters *upper, int out[4])
{
  guint n = 0;
  const TlCounters *runs[2] = { upper, lower };
  for (guint r = 0; r < 2; r++)
    {
      int ids[2];
      double share[2];
      guint k = tl_counters_top_stalls (runs[r], 2, ids, share);
      for (guint i = 0; i < k; i++)
        {
          gboolean seen = FALSE;
          for (guint j = 0; j < n; j++)
            seen |= out[j] == ids[i];
          if (!seen)
            out[n++] = ids[i];
        }
    }
  return n;
}

/* A stall reason's share of all stalled warp-cycles of a run (0…1). */
static double
stall_share (const TlCounters *counters, int id)
{
  int ids[TL_GPU_N_COUNTERS];
  double share[TL_GPU_N_COUNTERS];
  guint n = tl_counters_top_stalls (counters, TL_GPU_N_COUNTERS, ids, share);
  for (guint i = 0; i < n; i++)
    if (ids[i] == id)
      return share[i];
  return 0;
}

void
tl_lesson_rows_add_counters (GPtrArray *rows, const TlRunRecord *record,
                             const TlKernelRun *lower, const TlKernelRun *upper)
{
  const TlGpuFacts *device = record->has_device ? &record->device : NULL;
  for (guint i = 0; i < G_N_ELEMENTS (counter_rows); i++)
    {
      const TlCounterView *view = tl_counter_view_find (counter_rows[i].key);
      g_assert (view != NULL);
      double a = tl_counter_view_value (view, lower->counters, device);
      double b = tl_counter_view_value (view, upper->counters, device);
      if (isnan (a) && isnan (b))
        continue;
      char *before = tl_counter_view_format (view, a), *after = tl_counter_view_format (view, b);
      g_autofree char *title = NULL;
      if (tl_counter_view_unit (view) == TL_COUNTER_UNIT_PER_REQUEST)
        {
          /* "bank conflicts per request" over "0.0" and "2.1": the unit
           * once, not in both cells, keeps the value columns narrow */
          title = g_strdup_printf (_("%s per request"), tl_counter_view_title (view));
          number_only (before);
          number_only (after);
        }
      add_row (rows, title ? title : tl_counter_view_title (view), before, after, a, b,
               counter_rows[i].kind, counter_rows[i].good);
    }
  int ids[4];
  guint n = stall_ids (lower->counters, upper->counters, ids);
  if (n > 0)
    {
      /* the reasons' names under a heading, not each after "stalls: ": a
       * title column as wide as the longest ("stalls: shared-memory queue
       * full", longer in German) leaves the values too little room */
      TlLessonRow *heading = g_new0 (TlLessonRow, 1);
      /* TRANSLATORS: the heading over the stall mix's rows in the lesson's table: the
         reasons warps waited, each with its share of all stalled warp-cycles */
      heading->title = g_strdup (_("stalls, share:"));
      heading->before = g_strdup ("");
      heading->after = g_strdup ("");
      heading->change = g_strdup ("");
      heading->factor = g_strdup ("");
      heading->heading = TRUE;
      g_ptr_array_add (rows, heading);
    }
  for (guint i = 0; i < n; i++)
    {
      double a = stall_share (lower->counters, ids[i]);
      double b = stall_share (upper->counters, ids[i]);
      g_autofree char *title = g_strdup (tl_counters_stall_title (ids[i]));
      char *paren = strstr (title, " (");
      if (paren != NULL)
        *paren = '\0'; /* "long scoreboard": the explanation is the Source page's */
      /* whole percentages: "0% → 24%", not "0.043% → 24%" */
      add_row (rows, title, whole_percent_text (100 * a), whole_percent_text (100 * b), a, b,
               CHANGE_POINTS, 0);
      ((TlLessonRow *) rows->pdata[rows->len - 1])->indented = TRUE;
    }
}

/* ---- from the launch facts and the block records ---------------------- */

static char *
int_text (int v)
{
  return v > 0 ? g_strdup_printf ("%d", v) : g_strdup ("—");
}

static char *
bytes_text (double bytes)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  if (!(bytes >= 0))
    return g_strdup ("—");
  if (bytes < 1024)
    return g_strdup_printf ("%.0f B", bytes);
  g_ascii_formatd (buf, sizeof buf, bytes >= 10240 ? "%.0f" : "%.1f", bytes / 1024);
  return g_strdup_printf ("%s KiB", buf);
}

static char *
waves_text (double waves)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  if (!(waves > 0))
    return g_strdup ("—");
  return g_strdup (g_ascii_formatd (buf, sizeof buf, waves >= 9.95 ? "%.0f" : "%.1f", waves));
}

void
tl_lesson_rows_add_launch (GPtrArray *rows, const TlKernelRun *lower, const TlKernelRun *upper)
{
  const TlLaunchFacts *a = &lower->launch, *b = &upper->launch;
  if (!a->valid || !b->valid)
    return;
  add_row (rows, _("registers per thread"), int_text (a->regs_per_thread),
           int_text (b->regs_per_thread), a->regs_per_thread, b->regs_per_thread, CHANGE_AMOUNT,
           0);
  double sa = a->static_smem_bytes + a->dynamic_smem_bytes;
  double sb = b->static_smem_bytes + b->dynamic_smem_bytes;
  add_row (rows, _("shared memory per block"), bytes_text (sa), bytes_text (sb), sa, sb,
           CHANGE_AMOUNT, 0);
  /* spills and __constant__ data: rows only when a rung has some */
  if (a->local_bytes_per_thread > 0 || b->local_bytes_per_thread > 0)
    add_row (rows, _("local memory per thread"), bytes_text (a->local_bytes_per_thread),
             bytes_text (b->local_bytes_per_thread), a->local_bytes_per_thread,
             b->local_bytes_per_thread, CHANGE_AMOUNT, -1);
  if (a->const_bytes > 0 || b->const_bytes > 0)
    add_row (rows, _("constant memory"), bytes_text (a->const_bytes), bytes_text (b->const_bytes),
             a->const_bytes < 0 ? NAN : a->const_bytes, b->const_bytes < 0 ? NAN : b->const_bytes,
             CHANGE_AMOUNT, 0);
  if (isfinite (a->occupancy) && isfinite (b->occupancy))
    add_row (rows, _("occupancy (launch)"), percent_text (100 * a->occupancy),
             percent_text (100 * b->occupancy), a->occupancy, b->occupancy, CHANGE_POINTS, 0);
  add_row (rows, _("waves of blocks"), waves_text (a->waves), waves_text (b->waves), a->waves,
           b->waves, CHANGE_AMOUNT, 0);
}

void
tl_lesson_rows_add_blocks (GPtrArray *rows, const TlRunRecord *record,
                           const TlKernelRun *lower, const TlKernelRun *upper)
{
  g_autoptr (TlBlockStats) a = tl_block_stats_new_for_run (record, lower, -1, NULL);
  g_autoptr (TlBlockStats) b = tl_block_stats_new_for_run (record, upper, -1, NULL);
  if (a == NULL || b == NULL)
    return;
  add_row (rows, _("blocks"), g_strdup_printf ("%zu", a->n_blocks),
           g_strdup_printf ("%zu", b->n_blocks), a->n_blocks, b->n_blocks, CHANGE_AMOUNT, 0);
  add_row (rows, _("median block time"), ms_text (a->median_ns / 1e6),
           ms_text (b->median_ns / 1e6), a->median_ns, b->median_ns, CHANGE_TIME, 0);
  if (!lower->launch.valid || !upper->launch.valid)
    add_row (rows, _("waves of blocks"), g_strdup_printf ("%u", a->n_waves),
             g_strdup_printf ("%u", b->n_waves), a->n_waves, b->n_waves, CHANGE_AMOUNT, 0);
  add_row (rows, _("last partial wave"), percent_text (100 * a->tail_share),
           percent_text (100 * b->tail_share), a->tail_share, b->tail_share, CHANGE_POINTS, -1);
}
