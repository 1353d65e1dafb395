/* test-view-lesson.c — "why is rung N faster than N−1?": the line diff,
 * the header's sentences, the ladder's "what changed" (one translatable
 * sentence per rung, short enough for a slide), the table's rows and
 * arrows, from the records of docs/records (with counters, and with block
 * records only) and from one made on the CPU. */
#include <locale.h>
#include <math.h>
#include <string.h>

#include "core/tl-error.h"
#include "record/tl-record-file.h"
#include "view/tl-kernel-source.h"
#include "view/tl-lesson.h"
#include "view/tl-line-diff.h"

static TlRunRecord *
docs_record (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "docs", "records", name, NULL);
  g_autoptr (GError) error = NULL;
  TlRunRecord *record = tl_run_record_load (path, TL_RECORD_LOAD_DEFAULT, &error);
  g_assert_no_error (error);
  return record;
}

static const TlDiffLine *
line_at (const TlLineDiff *d, guint i)
{
  g_assert_cmpuint (i, <, d->lines->len);
  return &g_array_index (d->lines, TlDiffLine, i);
}

static void
test_diff_lines (void)
{
  g_autoptr (TlLineDiff) d = tl_line_diff_new ("a\nb\nc\nd\n", "a\nB\nc\n  d\ne\n\n");
  /* a, −b, +B, c, d (re-indented: the same), +e */
  const TlDiffOp ops[] = { TL_DIFF_SAME, TL_DIFF_REMOVED, TL_DIFF_ADDED, TL_DIFF_SAME,
                           TL_DIFF_SAME, TL_DIFF_ADDED };
  g_assert_cmpuint (d->lines->len, ==, G_N_ELEMENTS (ops));
  for (guint i = 0; i < G_N_ELEMENTS (ops); i++)
    g_assert_cmpint (line_at (d, i)->op, ==, ops[i]);
  g_assert_cmpuint (d->n_removed, ==, 1);
  g_assert_cmpuint (d->n_added, ==, 2);
  g_assert_cmpstr (line_at (d, 1)->text, ==, "b");
  g_assert_cmpuint (line_at (d, 1)->old_line, ==, 2);
  g_assert_cmpuint (line_at (d, 1)->new_line, ==, 0);
  g_assert_cmpstr (line_at (d, 4)->text, ==, "  d"); /* the new text of a kept line */
  g_assert_cmpuint (line_at (d, 5)->new_line, ==, 5);

  g_autoptr (TlLineDiff) empty = tl_line_diff_new (NULL, "x\ny");
  g_assert_cmpuint (empty->n_added, ==, 2);
  g_assert_cmpuint (empty->n_removed, ==, 0);
  g_autoptr (TlLineDiff) same = tl_line_diff_new ("x\ny", "x\ny\n");
  g_assert_cmpuint (same->n_added + same->n_removed, ==, 0);
}

static void
test_diff_hunks (void)
{
  /* 20 lines, the 10th changed: 2 lines of context each side, the rest folded */
  GString *a = g_string_new (NULL), *b = g_string_new (NULL);
  for (int i = 1; i <= 20; i++)
    {
      g_string_append_printf (a, "line %d\n", i);
      g_string_append_printf (b, i == 10 ? "LINE %d\n" : "line %d\n", i);
    }
  g_autoptr (TlLineDiff) whole = tl_line_diff_new (a->str, b->str);
  g_autoptr (TlLineDiff) h = tl_line_diff_hunks (whole, 2);
  g_string_free (a, TRUE);
  g_string_free (b, TRUE);
  /* folded 7, 8, 9, −10, +10, 11, 12, folded 8 */
  g_assert_cmpuint (h->lines->len, ==, 8);
  g_assert_cmpint (line_at (h, 0)->op, ==, TL_DIFF_FOLDED);
  g_assert_cmpuint (line_at (h, 0)->n_folded, ==, 7);
  g_assert_cmpstr (line_at (h, 1)->text, ==, "line 8");
  g_assert_cmpint (line_at (h, 3)->op, ==, TL_DIFF_REMOVED);
  g_assert_cmpint (line_at (h, 4)->op, ==, TL_DIFF_ADDED);
  g_assert_cmpstr (line_at (h, 4)->text, ==, "LINE 10");
  g_assert_cmpint (line_at (h, 7)->op, ==, TL_DIFF_FOLDED);
  g_assert_cmpuint (line_at (h, 7)->n_folded, ==, 8);
  g_assert_cmpuint (h->n_removed, ==, 1);
  g_assert_cmpuint (h->n_added, ==, 1);
}

static void
test_source (void)
{
  g_autofree char *text = tl_kernel_source_text ("gpu/gemm/gemm-04-smem32.cu");
  g_assert_nonnull (text);
  g_autofree char *changed = tl_kernel_source_paragraph (text, "What changed");
  g_assert_true (g_str_has_prefix (changed, "What changed from rung 3: tiles of 32×32"));
  g_assert_null (strchr (changed, '\n'));
  g_assert_null (strstr (changed, "//"));
  g_assert_null (strstr (changed, "  "));
  g_autofree char *kernels = tl_kernel_source_kernels (text, "gpu/gemm/gemm-04-smem32.cu");
  g_assert_true (g_str_has_prefix (kernels, "template"));
  g_assert_nonnull (strstr (kernels, "__global__"));
  g_assert_true (g_str_has_suffix (kernels, "}"));
  g_assert_cmpint (tl_kernel_source_changed_from (text), ==, 3);
  /* a line that ends in a colon mid-sentence opens no paragraph; a label
   * after a full stop does (rung 2's "From:") */
  g_autofree char *tma = tl_kernel_source_text ("gpu/gemm/gemm-17-simt-tma.cu");
  g_autofree char *tma_changed = tl_kernel_source_paragraph (tma, "What changed");
  g_assert_nonnull (strstr (tma_changed, "leaves the FFMA warps entirely: 1. One producer"));
  g_autofree char *coalesced = tl_kernel_source_text ("gpu/gemm/gemm-02-coalesced.cu");
  g_autofree char *bottleneck = tl_kernel_source_paragraph (coalesced, "Bottleneck attacked");
  g_assert_true (g_str_has_suffix (bottleneck, "rung 3 reuses data."));
  g_autofree char *changed2 = tl_kernel_source_paragraph (coalesced, "What changed");
  g_assert_true (g_str_has_suffix (changed2, "COLUMNS of C: j = blockIdx.x·32 + threadIdx.x "
                                             "(column: neighbours in a warp); i = blockIdx.y·32 + "
                                             "threadIdx.y (row)"));
  /* the comments' *emphasis* is read, not shown as stars */
  g_autofree char *wgmma = tl_kernel_source_text ("gpu/gemm/gemm-11-wgmma.cu");
  g_autofree char *wgmma_changed = tl_kernel_source_paragraph (wgmma, "What changed");
  g_assert_nonnull (strstr (wgmma_changed, "A warpgroup (4 consecutive warps"));
  g_assert_null (strchr (wgmma_changed, '*'));
  g_assert_null (tl_kernel_source_text ("gpu/gemm/no-such-rung.cu"));
  g_assert_null (tl_kernel_source_paragraph (text, "No such label"));
}

static const TlLessonRow *
find_row (const TlLesson *l, const char *title)
{
  for (guint i = 0; i < l->rows->len; i++)
    {
      const TlLessonRow *row = l->rows->pdata[i];
      if (strcmp (row->title, title) == 0)
        return row;
    }
  g_error ("no row %s", title);
  return NULL;
}

/* The row's arrow and colour agree with the values the record holds. */
static void
check_row (const TlLessonRow *row, double before, double after, int good)
{
  int direction = after > before * 1.05 ? 1 : after < before / 1.05 ? -1 : 0;
  g_assert_cmpint (row->direction, ==, direction);
  if (direction == 0)
    g_assert_cmpint (row->trend, ==, TL_LESSON_SAME);
  else if (good == 0)
    g_assert_cmpint (row->trend, ==, TL_LESSON_NEUTRAL);
  else
    g_assert_cmpint (row->trend, ==, direction == good ? TL_LESSON_BETTER : TL_LESSON_WORSE);
}

static void
test_counters (void)
{
  g_autoptr (TlRunRecord) record = docs_record ("h200-gemm-4096-fp32-counters.json");
  g_autoptr (GPtrArray) ladder = tl_lesson_ladder (record);
  g_assert_cmpuint (ladder->len, ==, 16); /* every rung, no cuBLAS */
  g_assert_cmpstr (ladder->pdata[0], ==, "gemm-01-naive");
  g_assert_cmpstr (ladder->pdata[10], ==, "gemm-10-wmma-bf16");

  g_autoptr (GError) error = NULL;
  g_autoptr (TlLesson) l = tl_lesson_new (record, "gemm-02-coalesced", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (l->lower_id, ==, "gemm-01-naive");
  g_assert_cmpstr (l->lower_short, ==, "01");
  g_assert_true (g_str_has_prefix (l->question, "Why is 02 coalesced faster than 01 "));
  g_assert_true (g_str_has_suffix (l->answer, "at 4096×4096×4096 (m×k×n)"));
  g_assert_cmpstr (l->what_changed, ==, l->upper_info->changed);
  g_assert_true (l->has_counters);
  g_assert_false (l->has_blocks);
  g_assert_nonnull (l->missing); /* no block records: it says so */
  g_assert_nonnull (strstr (l->missing, "--instrument"));
  g_assert_nonnull (l->diff);
  g_assert_cmpuint (l->diff->n_added + l->diff->n_removed, >, 0);
  g_assert_null (l->diff_note);

  const TlKernelRun *a = tl_run_record_find_run (record, "gemm-01-naive");
  const TlKernelRun *b = tl_run_record_find_run (record, "gemm-02-coalesced");
  const TlLessonRow *time = find_row (l, "median time");
  check_row (time, a->time.median, b->time.median, -1);
  g_assert_cmpint (time->trend, ==, TL_LESSON_BETTER);
  g_assert_nonnull (strstr (time->change, "× shorter"));
  check_row (find_row (l, "DRAM bytes"), tl_counters_dram_bytes (a->counters),
             tl_counters_dram_bytes (b->counters), -1);
  const TlCounterView *occ = tl_counter_view_find ("occupancy");
  double oa = tl_counter_view_value (occ, a->counters, &record->device);
  double ob = tl_counter_view_value (occ, b->counters, &record->device);
  const TlLessonRow *occupancy = find_row (l, "achieved occupancy");
  g_assert_true (isfinite (oa) && isfinite (ob));
  /* a share that moved by a point or less as shown is no change */
  double shown = g_ascii_strtod (occupancy->after, NULL) - g_ascii_strtod (occupancy->before, NULL);
  g_assert_cmpint (occupancy->direction, ==, fabs (shown) < 1.5 ? 0 : shown > 0 ? 1 : -1);
  g_assert_cmpint (occupancy->trend, !=, TL_LESSON_BETTER); /* neither way is better in itself */
  find_row (l, "L2 bytes");
  find_row (l, "L2 hit rate");
  find_row (l, "arithmetic intensity");
  guint stalls = 0;
  for (guint i = 0; i < l->rows->len; i++)
    {
      const TlLessonRow *row = l->rows->pdata[i];
      if (row->heading)
        {
          g_assert_cmpstr (row->title, ==, "stalls, share:");
          g_assert_false (*row->before || *row->after || row->direction);
          g_assert_true (i + 1 < l->rows->len && ((TlLessonRow *) l->rows->pdata[i + 1])->indented);
          continue;
        }
      g_assert_true (*row->before && *row->after);
      if (row->indented)
        {
          stalls++;
          g_assert_cmpint (row->trend, !=, TL_LESSON_BETTER);
          g_assert_cmpint (row->trend, !=, TL_LESSON_WORSE);
        }
    }
  g_assert_cmpuint (stalls, >=, 2);
  g_assert_cmpuint (stalls, <=, 4);
  /* the naive rungs use no shared memory: no row for its bank conflicts */
  for (guint i = 0; i < l->rows->len; i++)
    g_assert_null (strstr (((TlLessonRow *) l->rows->pdata[i])->title, "bank conflicts"));

  /* both points, the rung below first */
  g_assert_nonnull (l->roofline);
  g_assert_cmpuint (l->roofline->n_points, ==, 2);
  g_assert_cmpstr (l->roofline->points[0].kernel_id, ==, "gemm-01-naive");
  g_assert_cmpstr (l->roofline->points[1].kernel_id, ==, "gemm-02-coalesced");
}

static void
test_walk (void)
{
  g_autoptr (TlRunRecord) record = docs_record ("h200-gemm-4096-fp32-counters.json");
  g_autoptr (GPtrArray) ladder = tl_lesson_ladder (record);
  /* the first rung has none below; every other its neighbour in the ladder */
  g_autoptr (GError) error = NULL;
  g_assert_null (tl_lesson_new (record, ladder->pdata[0], &error));
  g_assert_no_error (error);
  for (guint i = 1; i < ladder->len; i++)
    {
      g_autoptr (TlLesson) l = tl_lesson_new (record, ladder->pdata[i], &error);
      g_assert_no_error (error);
      guint below;
      g_assert_true (g_ptr_array_find_with_equal_func (ladder, l->lower_id, g_str_equal, &below));
      g_assert_cmpuint (below, <, i);
      g_assert_true (l->diff != NULL || l->diff_note != NULL);
    }
  /* the rung the header names, in the rung's precision: 16 and 17 build
   * on 08 (not on the tensor-core rungs between), 13 on 10 TF32, 10 BF16
   * on 09; the short names tell the two rungs 10 apart */
  const char *pairs[][2] = { { "gemm-16-doublebuf", "gemm-08-vectorized" },
                             { "gemm-17-simt-tma", "gemm-08-vectorized" },
                             { "gemm-13-wgmma-tf32", "gemm-10-wmma-tf32" },
                             { "gemm-10-wmma-bf16", "gemm-09-warptile" },
                             { "gemm-03-smem16", "gemm-02-coalesced" } };
  for (guint i = 0; i < G_N_ELEMENTS (pairs); i++)
    {
      g_autoptr (TlLesson) l = tl_lesson_new (record, pairs[i][0], &error);
      g_assert_no_error (error);
      g_assert_cmpstr (l->lower_id, ==, pairs[i][1]);
    }
  g_autoptr (TlLesson) tf32 = tl_lesson_new (record, "gemm-13-wgmma-tf32", &error);
  g_assert_cmpstr (tf32->lower_short, ==, "10 TF32");
  g_assert_cmpstr (tf32->upper_short, ==, "13");
  /* the ladder's sentence for each rung, not the source's English header */
  for (guint i = 1; i < ladder->len; i++)
    {
      g_autoptr (TlLesson) each = tl_lesson_new (record, ladder->pdata[i], NULL);
      g_assert_nonnull (each);
      g_assert_nonnull (each->upper_info->changed);
      g_assert_cmpstr (each->what_changed, ==, each->upper_info->changed);
      g_assert_null (strstr (each->what_changed, "What changed"));
    }
  /* NULL: the top rung */
  g_autoptr (TlLesson) top = tl_lesson_new (record, NULL, &error);
  g_assert_cmpstr (top->upper_id, ==, ladder->pdata[ladder->len - 1]);
  /* a kernel the record has not, or no rung */
  g_assert_null (tl_lesson_new (record, "gemm-15-dmma-f64", &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_null (tl_lesson_new (record, "cublas-fp32", &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_INVALID);
}

static void
test_without_counters (void)
{
  g_autoptr (TlRunRecord) record = docs_record ("h200-gemm-1000x500x1000.json");
  g_autoptr (GError) error = NULL;
  g_autoptr (TlLesson) l = tl_lesson_new (record, "gemm-04-smem32", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (l->lower_id, ==, "gemm-03-smem16");
  g_assert_false (l->has_counters);
  g_assert_true (l->has_blocks);
  g_assert_null (l->roofline);
  g_assert_nonnull (l->missing);
  g_assert_nonnull (strstr (l->missing, "No hardware counters"));
  g_assert_null (strstr (l->missing, "--instrument"));
  const TlKernelRun *a = tl_run_record_find_run (record, "gemm-03-smem16");
  const TlKernelRun *b = tl_run_record_find_run (record, "gemm-04-smem32");
  check_row (find_row (l, "median time"), a->time.median, b->time.median, -1);
  check_row (find_row (l, "blocks"), a->n_blocks, b->n_blocks, 0);
  /* 32×32 tiles: a quarter of the blocks */
  g_assert_cmpint (find_row (l, "blocks")->direction, ==, -1);
  g_assert_cmpint (find_row (l, "blocks")->trend, ==, TL_LESSON_NEUTRAL);
  find_row (l, "median block time");
  find_row (l, "last partial wave");
  for (guint i = 0; i < l->rows->len; i++)
    g_assert_false (g_str_has_prefix (((TlLessonRow *) l->rows->pdata[i])->title, "stalls"));

  /* the CPU kernels are no rungs: the ladder starts at 01 */
  g_autoptr (GPtrArray) ladder = tl_lesson_ladder (record);
  g_assert_cmpstr (ladder->pdata[0], ==, "gemm-01-naive");
}

/* A record made on the CPU (the GPU runs taken out): the blocked kernel
 * beside the naive one, from the times and the tile records, not an
 * empty page. */
static void
test_cpu (void)
{
  g_autoptr (TlRunRecord) record = docs_record ("h200-gemm-1000x500x1000.json");
  for (guint i = record->runs->len; i-- > 0;)
    if (((TlKernelRun *) record->runs->pdata[i])->backend == TL_BACKEND_GPU)
      g_ptr_array_remove_index (record->runs, i);
  g_autoptr (GPtrArray) ladder = tl_lesson_ladder (record);
  g_assert_cmpuint (ladder->len, ==, 2); /* naive, blocked: OpenBLAS is the yardstick */
  g_autoptr (GError) error = NULL;
  g_autoptr (TlLesson) l = tl_lesson_new (record, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (l->lower_id, ==, "cpu-naive");
  g_assert_cmpstr (l->upper_id, ==, "cpu-blocked");
  g_assert_cmpstr (l->lower_short, ==, "naive");
  g_assert_cmpstr (l->upper_short, ==, "blocked");
  g_assert_true (g_str_has_prefix (l->question, "Why is cache-blocked"));
  g_assert_cmpstr (l->what_changed, ==, l->upper_info->changed);
  g_assert_false (l->has_counters);
  g_assert_null (l->roofline);
  g_assert_nonnull (l->missing);
  find_row (l, "median time");
  g_assert_cmpuint (l->rows->len, >=, 2);
  /* one file holds both: said so, not "only the number format differs" */
  g_assert_null (l->diff);
  g_assert_nonnull (l->diff_note);
  g_assert_null (strstr (l->diff_note, "number format"));
  /* a record with neither ladder says what to run */
  g_ptr_array_set_size (record->runs, 1);
  g_autoptr (TlLesson) none = tl_lesson_new (record, NULL, &error);
  g_assert_null (none);
  g_assert_error (error, TL_ERROR, TL_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "--kernel cpu"));
}

/* A cell's number and the words after it; FALSE for "—". */
static gboolean
cell_number (const char *cell, double *value, const char **unit)
{
  char *end;
  *value = g_ascii_strtod (cell, &end);
  *unit = end;
  return end != cell;
}

/* The arrow and the change say what the cells show: no arrow where both
 * cells read the same ("0.0 → 0.0", not "▲ 5.3×"), a factor that is the
 * shown numbers' ratio, points that are their difference; a value cell
 * holds no "per request" (the title does) nor an exponent. */
static void
test_rows_as_shown (void)
{
  static const char *const names[] = { "h200-gemm-4096-fp32-counters.json",
                                       "h100-gemm-4096-fp32-counters.json",
                                       "h200-gemm-1000x500x1000.json" };
  guint n_same = 0, n_checked = 0;
  for (guint r = 0; r < G_N_ELEMENTS (names); r++)
    {
      g_autoptr (TlRunRecord) record = docs_record (names[r]);
      g_autoptr (GPtrArray) ladder = tl_lesson_ladder (record);
      for (guint i = 1; i < ladder->len; i++)
        {
          g_autoptr (TlLesson) l = tl_lesson_new_brief (record, ladder->pdata[i], NULL);
          g_assert_nonnull (l);
          for (guint k = 0; k < l->rows->len; k++)
            {
              const TlLessonRow *row = l->rows->pdata[k];
              g_autofree char *where = g_strdup_printf ("%s, %s: %s “%s” → “%s” “%s”", names[r],
                                                        l->upper_id, row->title, row->before,
                                                        row->after, row->change);
              for (const char *cell = row->before; cell; cell = cell == row->before ? row->after : NULL)
                if (strstr (cell, "per request") || strchr (cell, 'e'))
                  g_error ("%s: a cell reads “%s”", where, cell);
              if (strcmp (row->before, row->after) == 0)
                {
                  n_same++;
                  if (row->direction != 0 || *row->change || *row->factor)
                    g_error ("%s: the same cells with a change", where);
                  continue;
                }
              double a, b;
              const char *unit_a, *unit_b;
              if (!cell_number (row->before, &a, &unit_a) || !cell_number (row->after, &b, &unit_b)
                  || strcmp (unit_a, unit_b) != 0 || row->direction == 0)
                continue;
              g_assert_cmpint (row->direction, ==, b > a ? 1 : -1);
              char want[64];
              if (g_str_has_suffix (row->factor, "×") && a > 0 && b > 0)
                {
                  double ratio = MAX (a / b, b / a);
                  g_ascii_formatd (want, sizeof want, ratio >= 99.5 ? "%.0f×" : "%.1f×", ratio);
                }
              else if (strchr (unit_a, '%') != NULL)
                g_snprintf (want, sizeof want, "%s%ld", b > a ? "+" : "−", lround (fabs (b - a)));
              else
                continue;
              if (strcmp (row->factor, want) != 0)
                g_error ("%s: the change says %s, the cells %s", where, row->factor, want);
              n_checked++;
            }
        }
    }
  g_assert_cmpuint (n_same, >, 0);
  g_assert_cmpuint (n_checked, >, 50);
}

/* Every rung (but the first of each ladder) says in one sentence what it
 * does differently, short enough that German (about a third longer) fits
 * two lines of the lesson presenting at 1024×768: 90 characters. */
static void
test_changed_sentences (void)
{
  guint n = 0;
  for (guint k = 0; k < tl_kernel_count (); k++)
    {
      const TlKernelInfo *info = tl_kernel_get (k);
      gboolean first = info->number == 1 || info->baseline;
      gboolean rung = (info->backend == TL_BACKEND_GPU && info->number > 0)
                      || (info->backend == TL_BACKEND_CPU && !info->reference);
      if (!rung || first)
        {
          g_assert_null (info->changed);
          continue;
        }
      if (info->changed == NULL)
        g_error ("%s says nothing about what changed", info->id);
      glong chars = g_utf8_strlen (info->changed, -1);
      if (chars > 90)
        g_error ("%s: what changed takes %ld characters: %s", info->id, chars, info->changed);
      g_assert_true (g_str_has_suffix (info->changed, "."));
      n++;
    }
  g_assert_cmpuint (n, >=, 17);
}

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "C.UTF-8");
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/lesson/diff/lines", test_diff_lines);
  g_test_add_func ("/lesson/diff/hunks", test_diff_hunks);
  g_test_add_func ("/lesson/source", test_source);
  g_test_add_func ("/lesson/counters", test_counters);
  g_test_add_func ("/lesson/walk", test_walk);
  g_test_add_func ("/lesson/without-counters", test_without_counters);
  g_test_add_func ("/lesson/cpu", test_cpu);
  g_test_add_func ("/lesson/rows-as-shown", test_rows_as_shown);
  g_test_add_func ("/lesson/changed-sentences", test_changed_sentences);
  return g_test_run ();
}
