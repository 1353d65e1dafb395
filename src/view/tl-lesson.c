/* tl-lesson.c — "why is rung N faster than N−1?", computed from a record. */
#include "view/tl-lesson.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "core/tl-error.h"
#include "gemm/tl-kernels.h"
#include "view/tl-format.h"
#include "view/tl-kernel-source.h"

/* Lines of unchanged code kept around each change of the diff. */
#define DIFF_CONTEXT 2

static gboolean
timed (const TlKernelRun *run)
{
  return run->status == TL_RUN_OK && run->time.count > 0 && run->time.median > 0;
}

/* A GPU rung, or (backend CPU) a CPU kernel that is not the yardstick. */
static gboolean
on_ladder (const TlKernelInfo *info, TlBackend backend)
{
  if (info == NULL || info->backend != backend)
    return FALSE;
  return backend == TL_BACKEND_GPU ? info->number > 0 : !info->reference;
}

static GPtrArray *
ladder_of (const TlRunRecord *record, TlBackend backend)
{
  GPtrArray *ladder = g_ptr_array_new ();
  /* the registry's order is the ladder's */
  for (guint k = 0; k < tl_kernel_count (); k++)
    {
      const TlKernelInfo *info = tl_kernel_get (k);
      const TlKernelRun *run = tl_run_record_find_run (record, info->id);
      if (run != NULL && on_ladder (info, backend) && timed (run))
        g_ptr_array_add (ladder, run->kernel_id);
    }
  return ladder;
}

GPtrArray *
tl_lesson_ladder (const TlRunRecord *record)
{
  g_return_val_if_fail (record != NULL, NULL);
  GPtrArray *ladder = ladder_of (record, TL_BACKEND_GPU);
  if (ladder->len >= 2)
    return ladder;
  g_ptr_array_unref (ladder);
  return ladder_of (record, TL_BACKEND_CPU);
}

/* "03", or "10 BF16" where two rows share the number. */
static char *
short_label (const TlKernelInfo *info)
{
  if (info->backend == TL_BACKEND_CPU)
    /* "naive", "blocked": the CPU kernels have no rung numbers */
    return g_strdup (g_str_has_prefix (info->id, "cpu-") ? info->id + 4 : info->id);
  guint same = 0;
  for (guint k = 0; k < tl_kernel_count (); k++)
    same += tl_kernel_get (k)->number == info->number;
  if (same > 1)
    {
      g_autofree char *precision = g_ascii_strup (info->precision, -1);
      return g_strdup_printf ("%02d %s", info->number, precision);
    }
  return g_strdup_printf ("%02d", info->number);
}

static void
set_question (TlLesson *l, const TlRunRecord *record, const TlKernelRun *lower,
              const TlKernelRun *upper)
{
  double ratio = lower->time.median / upper->time.median;
  char before[64], after[64];
  tl_format_ms (lower->time.median, before, sizeof before);
  tl_format_ms (upper->time.median, after, sizeof after);
  char factor[G_ASCII_DTOSTR_BUF_SIZE];
  double f = ratio >= 1 ? ratio : 1.0 / ratio;
  g_ascii_formatd (factor, sizeof factor, f >= 99.5 ? "%.0f" : f >= 9.95 ? "%.1f" : "%.2f", f);
  const TlJob *job = record->job;
  if (ratio >= 1.005)
    {
      /* TRANSLATORS: the lesson's question: "Why is 04 shared memory 32×32 faster than
         03 shared memory 16×16?" */
      l->question = g_strdup_printf (_("Why is %s faster than %s?"), l->upper_name, l->lower_name);
      /* TRANSLATORS: "1.06× faster: 16.9 ms → 16.0 ms at 4096×4096×4096 (m×k×n)" */
      l->answer = g_strdup_printf (_("%s× faster: %s → %s at %zu×%zu×%zu (m×k×n)"), factor,
                                   before, after, job->m, job->k, job->n);
    }
  else if (ratio <= 1 / 1.005)
    {
      /* TRANSLATORS: "Why is 05 seed 004: three kernels slower than 04 …?" */
      l->question = g_strdup_printf (_("Why is %s slower than %s?"), l->upper_name, l->lower_name);
      /* TRANSLATORS: "1.20× slower: 16.0 ms → 19.2 ms at 4096×4096×4096 (m×k×n)" */
      l->answer = g_strdup_printf (_("%s× slower: %s → %s at %zu×%zu×%zu (m×k×n)"), factor,
                                   before, after, job->m, job->k, job->n);
    }
  else
    {
      /* TRANSLATORS: "What changes from 10 TF32 … to 10 BF16 …?" (the same time) */
      l->question = g_strdup_printf (_("What changes from %s to %s?"), l->lower_name, l->upper_name);
      /* TRANSLATORS: "The same time: 16.0 ms → 16.0 ms at 4096×4096×4096 (m×k×n)" */
      l->answer = g_strdup_printf (_("The same time: %s → %s at %zu×%zu×%zu (m×k×n)"), before,
                                   after, job->m, job->k, job->n);
    }
}

/* What changed in the source: the kernels' bodies of the rung against
 * those of the rung below. */
static void
set_source (TlLessonSource *l, const char *lower_path, const char *upper_path,
            gboolean same_precision)
{
  g_autofree char *old_text = tl_kernel_source_text (lower_path);
  g_autofree char *new_text = tl_kernel_source_text (upper_path);
  if (old_text == NULL || new_text == NULL)
    {
      l->diff_note = g_strdup (_("This program does not carry the kernels' sources: no diff."));
      return;
    }
  if (g_strcmp0 (lower_path, upper_path) == 0)
    {
      g_autofree char *base = g_path_get_basename (upper_path);
      if (same_precision)
        /* TRANSLATORS: two kernels of one file (the CPU's); %s is the file */
        l->diff_note = g_strdup_printf (_("Both kernels are in %s: the Source page shows them."),
                                        base);
      else
        /* TRANSLATORS: two rungs of one file (10 TF32 and 10 BF16); %s is the file */
        l->diff_note = g_strdup_printf (_("The same source file, %s: only the number format of "
                                          "the inputs differs."),
                                        base);
      return;
    }
  g_autofree char *old_kernels = tl_kernel_source_kernels (old_text, lower_path);
  g_autofree char *new_kernels = tl_kernel_source_kernels (new_text, upper_path);
  if (old_kernels == NULL || new_kernels == NULL)
    {
      l->diff_note = g_strdup (_("No kernel body was found in the sources: no diff."));
      return;
    }
  g_autoptr (TlLineDiff) whole = tl_line_diff_new (old_kernels, new_kernels);
  l->diff = tl_line_diff_hunks (whole, DIFF_CONTEXT);
}

/* The roofline with only the two runs' points, the lower first; NULL
 * unless both have one. */
static TlRoofline *
two_points (const TlRunRecord *record, const char *lower_id, const char *upper_id)
{
  TlRoofline *r = tl_roofline_from_record (record);
  int lo = -1, up = -1;
  for (guint i = 0; i < r->n_points; i++)
    {
      if (strcmp (r->points[i].kernel_id, lower_id) == 0)
        lo = (int) i;
      else if (strcmp (r->points[i].kernel_id, upper_id) == 0)
        up = (int) i;
    }
  if (lo < 0 || up < 0)
    {
      tl_roofline_free (r);
      return NULL;
    }
  TlRooflinePoint keep[2] = { r->points[lo], r->points[up] };
  for (guint i = 0; i < r->n_points; i++)
    if ((int) i != lo && (int) i != up)
      g_free (r->points[i].kernel_id);
  r->points[0] = keep[0];
  r->points[1] = keep[1];
  r->n_points = 2;
  return r;
}

static gboolean
measured (const TlKernelRun *run)
{
  return run->counters != NULL && run->counters->state == TL_GPU_COUNTERS_MEASURED;
}

static void
set_missing (TlLesson *l, const TlRunRecord *record, const TlKernelRun *lower,
             const TlKernelRun *upper)
{
  GString *s = g_string_new (NULL);
  if (!l->has_counters)
    {
      const char *why = tl_run_record_counters_absence (record, measured (lower) ? upper : lower);
      g_string_append (s, _("No hardware counters: the table says what the times, the launch "
                            "and the block records do."));
      if (why != NULL)
        g_string_append_printf (s, " %s", why);
    }
  if (!l->has_blocks && lower->n_blocks == 0 && upper->n_blocks == 0)
    g_string_append_printf (s, "%s%s", s->len ? " " : "",
                            _("No block records for either rung: run with --instrument for "
                              "their timelines."));
  else if (!l->has_blocks)
    {
      const char *id = (lower->n_blocks == 0 ? lower : upper)->kernel_id;
      g_string_append (s, s->len ? " " : "");
      /* TRANSLATORS: %s is a kernel id, e.g. gemm-05-seed3k */
      g_string_append_printf (s, _("No block records for %s: run with --instrument for its timeline."), id);
    }
  l->missing = s->len ? g_string_free (s, FALSE) : (g_string_free (s, TRUE), NULL);
}

static void
fill (TlLesson *l, const TlRunRecord *record, const TlKernelRun *lower, const TlKernelRun *upper)
{
  l->lower_id = g_strdup (lower->kernel_id);
  l->upper_id = g_strdup (upper->kernel_id);
  l->lower_info = lower->info;
  l->upper_info = upper->info;
  l->lower_name = tl_kernel_display_name (lower->info, lower->kernel_id);
  l->upper_name = tl_kernel_display_name (upper->info, upper->kernel_id);
  l->lower_short = short_label (lower->info);
  l->upper_short = short_label (upper->info);
  set_question (l, record, lower, upper);
  /* the ladder's sentence for the rung, translated; its lesson where it has none */
  const TlKernelInfo *info = upper->info;
  const char *changed = info == NULL ? NULL : info->changed ? info->changed : info->lesson;
  l->what_changed = changed != NULL && *changed ? g_strdup (_(changed)) : NULL;

  l->has_counters = measured (lower) && measured (upper);
  l->has_blocks = lower->n_blocks > 0 && upper->n_blocks > 0;
  l->rows = tl_lesson_rows_new ();
  tl_lesson_rows_add_times (l->rows, lower, upper);
  if (l->has_counters)
    {
      tl_lesson_rows_add_counters (l->rows, record, lower, upper);
      l->roofline = two_points (record, lower->kernel_id, upper->kernel_id);
    }
  else
    tl_lesson_rows_add_launch (l->rows, lower, upper);
  if (l->has_blocks)
    tl_lesson_rows_add_blocks (l->rows, record, lower, upper);
  set_missing (l, record, lower, upper);
}

static gboolean
same_precision (const TlKernelRun *a, const TlKernelRun *b)
{
  return g_strcmp0 (a->precision, b->precision) == 0;
}

/* The rung ladder[at] is compared with: the one its header says it
 * changed from ("What changed from rung 8": rung 16 and 17 build on 8,
 * not on the tensor-core rungs between), of its own precision where the
 * number has two rows; else the nearest rung before it of its precision,
 * else the one before it; NULL for the first. */
static const TlKernelRun *
rung_below (const TlRunRecord *record, GPtrArray *ladder, guint at)
{
  const TlKernelRun *upper = tl_run_record_find_run (record, ladder->pdata[at]);
  g_autofree char *text = tl_kernel_source_text (upper->info->source_path);
  int from = tl_kernel_source_changed_from (text);
  const TlKernelRun *named = NULL;
  for (guint i = 0; from > 0 && i < ladder->len; i++)
    {
      const TlKernelRun *run = tl_run_record_find_run (record, ladder->pdata[i]);
      if (i == at || run->info->number != from)
        continue;
      if (named == NULL || same_precision (run, upper))
        named = run;
    }
  if (named != NULL)
    return named;
  for (guint i = at; i-- > 0;)
    {
      const TlKernelRun *run = tl_run_record_find_run (record, ladder->pdata[i]);
      if (same_precision (run, upper))
        return run;
    }
  return at > 0 ? tl_run_record_find_run (record, ladder->pdata[at - 1]) : NULL;
}

TlLesson *
tl_lesson_new_brief (const TlRunRecord *record, const char *upper_id, GError **error)
{
  g_return_val_if_fail (record != NULL, NULL);
  g_autoptr (GPtrArray) ladder = tl_lesson_ladder (record);
  if (ladder->len < 2)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("A lesson compares two rungs of a ladder, and this record has %u timed: "
                     "run the GPU ladder (--kernel gpu), or the CPU kernels (--kernel cpu), to "
                     "compare them."),
                   ladder->len);
      return NULL;
    }
  guint at = ladder->len - 1;
  if (upper_id != NULL)
    {
      for (at = 0; at < ladder->len; at++)
        if (strcmp (ladder->pdata[at], upper_id) == 0)
          break;
      if (at == ladder->len)
        {
          g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                       _("%s is no timed rung of this record's ladder."), upper_id);
          return NULL;
        }
    }
  const TlKernelRun *upper = tl_run_record_find_run (record, ladder->pdata[at]);
  const TlKernelRun *lower = rung_below (record, ladder, at);
  if (lower == NULL)
    return NULL; /* the first rung has none below it */
  TlLesson *l = g_new0 (TlLesson, 1);
  fill (l, record, lower, upper);
  return l;
}

TlLessonSource *
tl_lesson_source_new (const char *lower_path, const char *upper_path, gboolean same_precision)
{
  TlLessonSource *source = g_new0 (TlLessonSource, 1);
  set_source (source, lower_path, upper_path, same_precision);
  return source;
}

TlLessonSource *
tl_lesson_source_new_for (const TlLesson *lesson)
{
  g_return_val_if_fail (lesson != NULL, NULL);
  const TlKernelInfo *lower = lesson->lower_info, *upper = lesson->upper_info;
  return tl_lesson_source_new (lower ? lower->source_path : NULL, upper ? upper->source_path : NULL,
                               lower && upper && g_strcmp0 (lower->precision, upper->precision) == 0);
}

void
tl_lesson_source_free (TlLessonSource *source)
{
  if (source == NULL)
    return;
  tl_line_diff_free (source->diff);
  g_free (source->diff_note);
  g_free (source);
}

void
tl_lesson_take_source (TlLesson *lesson, TlLessonSource *source)
{
  g_return_if_fail (lesson != NULL && source != NULL);
  tl_line_diff_free (lesson->diff);
  g_free (lesson->diff_note);
  lesson->diff = g_steal_pointer (&source->diff);
  lesson->diff_note = g_steal_pointer (&source->diff_note);
}

TlLesson *
tl_lesson_new (const TlRunRecord *record, const char *upper_id, GError **error)
{
  TlLesson *l = tl_lesson_new_brief (record, upper_id, error);
  if (l != NULL)
    {
      g_autoptr (TlLessonSource) source = tl_lesson_source_new_for (l);
      tl_lesson_take_source (l, source);
    }
  return l;
}

void
tl_lesson_free (TlLesson *lesson)
{
  if (lesson == NULL)
    return;
  g_free (lesson->lower_id);
  g_free (lesson->upper_id);
  g_free (lesson->lower_name);
  g_free (lesson->upper_name);
  g_free (lesson->lower_short);
  g_free (lesson->upper_short);
  g_free (lesson->question);
  g_free (lesson->answer);
  g_free (lesson->what_changed);
  if (lesson->rows)
    g_ptr_array_unref (lesson->rows);
  tl_line_diff_free (lesson->diff);
  g_free (lesson->diff_note);
  tl_roofline_free (lesson->roofline);
  g_free (lesson->missing);
  g_free (lesson);
}
