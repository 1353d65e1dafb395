/* test-lu-recorder.c — the step recorder: counts, pivots, snapshots, JSON. */
#include "record/tl-lu-record.h"
#include "record/tl-record-file.h"
#include "lu/tl-lu-recorder.h"
#include "gen/tl-generate.h"
#include "core/tl-error.h"

#include <glib/gstdio.h>
#include <math.h>

#include "json-parse-count.h"
#include "record/tl-gauss-record.h"

static void
check_against_result (const TlLuRecorder *rec, const TlLuResult *r, const TlMatrix *a)
{
  gsize mn = MIN (a->rows, a->cols);
  g_assert_true (rec->finished);
  g_assert_cmpuint (rec->steps->len, ==, mn);
  g_assert_cmpuint (rec->n_ipiv, ==, mn);
  for (guint k = 0; k < mn; k++)
    {
      const TlLuStep *s = &g_array_index (rec->steps, TlLuStep, k);
      g_assert_cmpuint (s->k, ==, k);
      g_assert_cmpint (s->pivot_row, ==, r->ipiv[k]);
      g_assert_cmpint (rec->ipiv[k], ==, r->ipiv[k]);
      g_assert_cmpint (s->swapped, ==, r->ipiv[k] != (gint32) k);
      /* the pivot is U(k,k); the U row is the final one */
      g_assert_cmpfloat (s->pivot_value, ==, tl_matrix_get (r->lu, k, k));
      if (s->u_row.pool == 1)
        for (guint t = 0; t < s->u_row.len; t++)
          g_assert_cmpfloat (s->u_row.data[t], ==, tl_matrix_get (r->lu, k, k + t));
      /* the searched column holds magnitudes, the pivot's among them the largest */
      double best = 0;
      for (guint t = 0; t < s->column.len; t++)
        {
          g_assert_cmpfloat (s->column.data[t], >=, 0.0);
          best = fmax (best, s->column.data[t]);
        }
      g_assert_cmpfloat (fabs (fabs (s->pivot_value) - best), <=, 1e-6 * best);
      if (s->multipliers.pool == 1)
        for (guint t = 0; t < s->multipliers.len; t++)
          g_assert_cmpfloat (fabs (s->multipliers.data[t]), <=, 1.0); /* partial pivoting */
    }
  const TlLuStep *last = &g_array_index (rec->steps, TlLuStep, mn - 1);
  g_assert_cmpint (last->det_sign, ==, r->det_sign);
  g_assert_cmpfloat (fabs (last->log_abs_det - r->log_abs_det), <, 1e-9 * fabs (r->log_abs_det) + 1e-9);
  g_assert_cmpfloat (fabs (last->growth - r->growth), <, 1e-12 * r->growth);
}

static void
test_record_64 (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) a = tl_generate ("random-uniform", TL_DTYPE_FLOAT64, 64, 64, 64, &error);
  const char *kernels[] = { "lu-cpu-unblocked", "lu-cpu-blocked" };
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr (TlLuRecorder) rec = tl_lu_recorder_new (0);
      g_autoptr (TlLuResult) r = NULL;
      g_assert_true (tl_lu_factor (kernels[i], a, 16, TL_PIVOTING_PARTIAL, rec, NULL, &r, &error));
      g_assert_no_error (error);
      check_against_result (rec, r, a);
      if (i == 1)
        {
          g_assert_cmpuint (rec->blocks->len, ==, 4);
          const TlLuBlockStep *b = &g_array_index (rec->blocks, TlLuBlockStep, 1);
          g_assert_cmpuint (b->k0, ==, 16);
          g_assert_cmpuint (b->upd_row0, ==, 32);
          g_assert_cmpuint (b->upd_rows, ==, 32);
          g_assert_cmpint (b->phase_ns[TL_LU_PHASE_GEMM], >, 0);
        }
      else
        g_assert_cmpuint (rec->blocks->len, ==, 0);
      /* snapshots: the input first, the packed L\U last, whole at n = 64 */
      g_assert_cmpuint (rec->snapshots->len, >=, 3);
      const TlLuSnapshot *first = &g_array_index (rec->snapshots, TlLuSnapshot, 0);
      const TlLuSnapshot *last = &g_array_index (rec->snapshots, TlLuSnapshot, rec->snapshots->len - 1);
      g_assert_cmpuint (first->after_steps, ==, 0);
      g_assert_cmpuint (last->after_steps, ==, 64);
      g_assert_cmpuint (first->pool_r, ==, 1);
      for (guint t = 0; t < 64 * 64; t++)
        {
          g_assert_cmpfloat (first->data[t], ==, tl_matrix_get (a, t / 64, t % 64));
          g_assert_cmpfloat (last->data[t], ==, tl_matrix_get (r->lu, t / 64, t % 64));
        }

      /* JSON round trip */
      g_autoptr (JsonNode) node = tl_lu_recorder_to_json (rec);
      g_autoptr (TlLuRecorder) back = tl_lu_recorder_from_json (node, &error);
      g_assert_no_error (error);
      check_against_result (back, r, a);
      g_assert_cmpuint (back->snapshots->len, ==, rec->snapshots->len);
      g_assert_cmpuint (back->blocks->len, ==, rec->blocks->len);
      g_assert_cmpstr (back->kernel_id, ==, kernels[i]);
    }
}

/* above 512 everything is pooled; a pooled cell is the max |a| of its window */
static void
test_pooled (void)
{
  g_autoptr (GError) error = NULL;
  gsize n = 600;
  g_autoptr (TlMatrix) a = tl_generate ("random-uniform", TL_DTYPE_FLOAT32, n, n, 6, &error);
  g_autoptr (TlLuRecorder) rec = tl_lu_recorder_new (8);
  g_autoptr (TlLuResult) r = NULL;
  g_assert_true (tl_lu_factor ("lu-cpu-blocked", a, 64, TL_PIVOTING_PARTIAL, rec, NULL, &r, &error));
  g_assert_cmpuint (rec->steps->len, ==, n);
  g_assert_cmpuint (rec->snapshots->len, <=, 8);
  g_assert_cmpuint (rec->snapshots->len, >=, 2);
  const TlLuSnapshot *s0 = &g_array_index (rec->snapshots, TlLuSnapshot, 0);
  g_assert_cmpuint (s0->rows, <=, 256);
  g_assert_cmpuint (s0->cols, <=, 256);
  g_assert_cmpuint (s0->pool_r, ==, 3);
  for (guint ci = 0; ci < s0->rows; ci += 37)
    for (guint cj = 0; cj < s0->cols; cj += 41)
      {
        double best = 0;
        for (gsize i = ci * 3; i < MIN (n, ci * 3 + 3); i++)
          for (gsize j = cj * 3; j < MIN (n, cj * 3 + 3); j++)
            best = fmax (best, fabs (tl_matrix_get (a, i, j)));
        g_assert_cmpfloat (fabs (s0->data[ci * s0->cols + cj]), ==, best);
      }
  const TlLuStep *st = &g_array_index (rec->steps, TlLuStep, 0);
  g_assert_cmpuint (st->column.len, <=, 256);
  g_assert_cmpuint (st->column.pool, >, 1);
  for (guint k = 0; k < n; k++)
    g_assert_cmpint (g_array_index (rec->steps, TlLuStep, k).pivot_row, ==, r->ipiv[k]);
}

static void
test_bad_json (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonParser) p = json_parser_new ();
  g_assert_true (json_parser_load_from_data (p, "{\"kind\":\"lu\",\"schema\":1,\"rows\":\"x\"}", -1, NULL));
  g_autoptr (TlLuRecorder) r = tl_lu_recorder_from_json (json_parser_get_root (p), &error);
  g_assert_null (r);
  g_assert_error (error, TL_ERROR, TL_ERROR_PARSE);
  g_clear_error (&error);
  g_assert_true (json_parser_load_from_data (p, "{\"kind\":\"lu\",\"schema\":99}", -1, NULL));
  g_assert_null (tl_lu_recorder_from_json (json_parser_get_root (p), &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_UNSUPPORTED);
  g_clear_error (&error);
  g_assert_true (json_parser_load_from_data (p, "[1,2]", -1, NULL));
  g_assert_null (tl_lu_recorder_from_json (json_parser_get_root (p), &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_PARSE);
}

/* damaged recordings: every member removed or given a wrong value in turn
 * must give an error or a consistent recorder — never a crash */
static void
mutate (JsonNode *node, GRand *rng, gboolean *done)
{
  if (*done)
    return;
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *o = json_node_get_object (node);
      g_autoptr (GList) names = json_object_get_members (o);
      guint n = g_list_length (names);
      if (n == 0)
        return;
      const char *name = g_list_nth_data (names, g_rand_int_range (rng, 0, n));
      if (g_rand_int_range (rng, 0, 4) == 0)
        {
          switch (g_rand_int_range (rng, 0, 4))
            {
            case 0:
              json_object_remove_member (o, name);
              break;
            case 1:
              json_object_set_string_member (o, name, "x");
              break;
            case 2:
              json_object_set_int_member (o, name, -5);
              break;
            default:
              json_object_set_int_member (o, name, 100000);
            }
          *done = TRUE;
          return;
        }
      mutate (json_object_get_member (o, name), rng, done);
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *a = json_node_get_array (node);
      guint n = json_array_get_length (a);
      if (n == 0)
        return;
      guint i = g_rand_int_range (rng, 0, n);
      if (g_rand_int_range (rng, 0, 4) == 0)
        {
          json_array_remove_element (a, i);
          *done = TRUE;
          return;
        }
      mutate (json_array_get_element (a, i), rng, done);
    }
  else if (g_rand_int_range (rng, 0, 2) == 0)
    {
      json_node_set_int (node, g_rand_int_range (rng, -3, 1000));
      *done = TRUE;
    }
}

static void
test_damaged (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) a = tl_generate ("random-uniform", TL_DTYPE_FLOAT64, 9, 7, 3, &error);
  g_autoptr (TlLuRecorder) rec = tl_lu_recorder_new (0);
  g_autoptr (TlLuResult) r = NULL;
  g_assert_true (tl_lu_factor ("lu-cpu-blocked", a, 3, TL_PIVOTING_PARTIAL, rec, NULL, &r, &error));
  g_autoptr (JsonNode) good = tl_lu_recorder_to_json (rec);
  GRand *rng = g_rand_new_with_seed (2026);
  guint rejected = 0;
  for (guint t = 0; t < 3000; t++)
    {
      /* a deep copy through text: each try damages a fresh tree */
      g_autofree char *text = json_to_string (good, FALSE);
      g_autoptr (JsonNode) fresh = json_from_string (text, NULL);
      gboolean done = FALSE;
      for (int tries = 0; tries < 50 && !done; tries++)
        mutate (fresh, rng, &done);
      g_autoptr (TlLuRecorder) back = tl_lu_recorder_from_json (fresh, &error);
      if (back == NULL)
        {
          g_assert_nonnull (error);
          rejected++;
          g_clear_error (&error);
          continue;
        }
      /* accepted: every index a player uses is inside the matrix */
      for (guint k = 0; k < back->steps->len; k++)
        {
          const TlLuStep *st = &g_array_index (back->steps, TlLuStep, k);
          g_assert_cmpint (st->pivot_row, <, back->rows);
          g_assert_cmpuint (st->u_row.len, <=, back->cols);
        }
      for (guint i = 0; i < back->snapshots->len; i++)
        {
          const TlLuSnapshot *sn = &g_array_index (back->snapshots, TlLuSnapshot, i);
          g_assert_cmpuint (sn->rows, <=, back->rows);
          g_assert_cmpuint (sn->cols, <=, back->cols);
        }
    }
  g_rand_free (rng);
  g_test_message ("%u of 3000 damaged recordings rejected", rejected);
  g_assert_cmpuint (rejected, >, 1000);
}

/* singular input: zero pivots are recorded, det stays 0 */
static void
test_singular (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) a = tl_generate ("singular-zero-column:col=3", TL_DTYPE_FLOAT64, 10, 10, 2, &error);
  g_autoptr (TlLuRecorder) rec = tl_lu_recorder_new (0);
  g_autoptr (TlLuResult) r = NULL;
  g_assert_true (tl_lu_factor ("lu-cpu-unblocked", a, 0, TL_PIVOTING_PARTIAL, rec, NULL, &r, &error));
  g_assert_cmpuint (r->info, ==, 4);
  g_assert_true (g_array_index (rec->steps, TlLuStep, 3).zero_pivot);
  g_assert_cmpint (g_array_index (rec->steps, TlLuStep, 9).det_sign, ==, 0);
  g_assert_cmpuint (rec->info, ==, 4);
}

/* the recording inside a run record (tilelab-run/2, $.extensions.lu) */
static void
test_run_record (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) a = tl_generate ("random-uniform", TL_DTYPE_FLOAT32, 40, 40, 40, &error);
  g_autoptr (TlLuRecorder) rec = tl_lu_recorder_new (0);
  g_autoptr (TlLuResult) r = NULL;
  g_assert_true (tl_lu_factor ("lu-cpu-blocked", a, 8, TL_PIVOTING_PARTIAL, rec, NULL, &r, &error));
  TlSource src = { 0 };
  src.kind = TL_SOURCE_GENERATOR;
  src.generator = (char *) "random-uniform";
  src.seed = 40;
  g_autoptr (TlRunRecord) record = tl_lu_run_record_new (r, a, &src, rec, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (record->job->kind, ==, "lu");
  g_autofree char *text = tl_run_record_to_string (record, FALSE);
  g_autoptr (TlRunRecord) back = tl_run_record_from_data (text, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (back->job->kind, ==, "lu");
  g_assert_cmpuint (back->runs->len, ==, 1);
  g_autoptr (TlLuRecorder) rec2 = tl_lu_recorder_from_run_record (back, &error);
  g_assert_no_error (error);
  check_against_result (rec2, r, a);

  /* and from a file, through the same loader as bare recordings */
  g_autofree char *dir = g_dir_make_tmp ("tl-lu-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "run.json", NULL);
  g_assert_true (tl_run_record_save (record, path, TL_RECORD_SAVE_DEFAULT, &error));
  g_autoptr (TlLuRecorder) rec3 = tl_lu_recorder_load (path, &error);
  g_assert_no_error (error);
  check_against_result (rec3, r, a);
  g_unlink (path);
  g_rmdir (dir);

  /* a record without the section says so */
  g_autoptr (TlRunRecord) plain = tl_lu_run_record_new (r, a, NULL, NULL, &error);
  g_autoptr (TlLuRecorder) none = tl_lu_recorder_from_run_record (plain, &error);
  g_assert_null (none);
  g_assert_error (error, TL_ERROR, TL_ERROR_PARSE);
}

/* snapshot_due says exactly which offers tl_lu_recorder_snapshot keeps
 * (the GPU rungs ask it before downloading the whole matrix) */
static void
test_snapshot_due (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) a = tl_generate ("random-uniform", TL_DTYPE_FLOAT64, 200, 200, 12, &error);
  g_assert_no_error (error);
  g_autoptr (TlLuRecorder) rec = tl_lu_recorder_new (9); /* 7 inner snapshots: every 29 steps */
  tl_lu_recorder_begin (rec, "test", "float64", 0, 200, 200, 0, TL_PIVOTING_PARTIAL, 1.0);
  g_assert_true (tl_lu_recorder_snapshot_due (rec, 0)); /* the first is always due */
  guint kept = 0;
  for (guint k = 0; k <= 200; k++)
    {
      if (k > 0)
        {
          tl_lu_recorder_step_search (rec, k - 1, 0, tl_lu_recorder_get_matrix, a);
          tl_lu_recorder_step_pivot (rec, k - 1, k - 1, 1.0, FALSE);
        }
      gboolean due = tl_lu_recorder_snapshot_due (rec, k);
      guint before = rec->snapshots->len;
      tl_lu_recorder_snapshot (rec, k, tl_lu_recorder_get_matrix, a);
      const TlLuSnapshot *last = &g_array_index (rec->snapshots, TlLuSnapshot, rec->snapshots->len - 1);
      if (due)
        {
          kept++;
          g_assert_cmpuint (rec->snapshots->len, ==, before + 1);
          g_assert_cmpuint (last->after_steps, ==, k);
        }
      else
        {
          g_assert_cmpuint (rec->snapshots->len, ==, before);
          g_assert_cmpuint (last->after_steps, <, k);
        }
    }
  g_assert_true (tl_lu_recorder_snapshot_due (rec, 200)); /* the final one always */
  g_assert_cmpuint (kept, >, 2);
  g_assert_cmpuint (kept, <, 20);
}

/* A recording with values whose shortest form has an exponent and no
 * point (1e22) is saved as JSON that loads again with the same values
 * (json-glib alone writes "1e+22.0"). */
static void
test_save_extremes (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) a = tl_matrix_new (TL_DTYPE_FLOAT64, 3, 3, &error);
  const double v[] = { 1e22, -1e108, 1e-8, 2.0, 1e16, 3.0, 5e-324, 7.0, 1e300 };
  for (guint i = 0; i < 9; i++)
    tl_matrix_set (a, i / 3, i % 3, v[i]);
  g_autoptr (TlLuRecorder) rec = tl_lu_recorder_new (0);
  g_autoptr (TlLuResult) r = NULL;
  g_assert_true (tl_lu_factor ("lu-cpu-unblocked", a, 1, TL_PIVOTING_PARTIAL, rec, NULL, &r, &error));
  g_assert_no_error (error);
  g_autofree char *dir = g_dir_make_tmp ("tl-lu-save-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "extremes.json", NULL);
  g_assert_true (tl_lu_recorder_save (rec, path, &error));
  g_assert_no_error (error);
  g_autoptr (TlLuRecorder) back = tl_lu_recorder_load (path, &error);
  g_assert_no_error (error);
  const TlLuSnapshot *first = &g_array_index (rec->snapshots, TlLuSnapshot, 0);
  const TlLuSnapshot *again = &g_array_index (back->snapshots, TlLuSnapshot, 0);
  for (guint t = 0; t < 9; t++)
    g_assert_cmpfloat (again->data[t], ==, first->data[t]);
  g_assert_cmpfloat (g_array_index (back->steps, TlLuStep, 0).pivot_value, ==, 1e22);
  g_unlink (path);
  g_rmdir (dir);
}

/* The row-by-row snapshot of a matrix equals the per-element one (odd
 * shape, pooled, signs and a NaN kept by the rule), in both dtypes; a
 * cancelled one keeps nothing. */
static void
test_snapshot_matrix (void)
{
  g_autoptr (GError) error = NULL;
  const TlDtype dtypes[] = { TL_DTYPE_FLOAT32, TL_DTYPE_FLOAT64 };
  for (guint t = 0; t < 2; t++)
    {
      g_autoptr (TlMatrix) a = tl_generate ("random-normal", dtypes[t], 701, 653, 11 + t, &error);
      tl_matrix_set (a, 300, 17, NAN);
      g_autoptr (TlLuRecorder) slow = tl_lu_recorder_new (0);
      g_autoptr (TlLuRecorder) fast = tl_lu_recorder_new (0);
      tl_lu_recorder_begin (slow, "test", tl_dtype_name (dtypes[t]), 0, 701, 653, 0, TL_PIVOTING_PARTIAL, 1.0);
      tl_lu_recorder_begin (fast, "test", tl_dtype_name (dtypes[t]), 0, 701, 653, 0, TL_PIVOTING_PARTIAL, 1.0);
      tl_lu_recorder_snapshot (slow, 0, tl_lu_recorder_get_matrix, a);
      g_assert_true (tl_lu_recorder_snapshot_matrix (fast, 0, a, NULL));
      const TlLuSnapshot *s1 = &g_array_index (slow->snapshots, TlLuSnapshot, 0);
      const TlLuSnapshot *s2 = &g_array_index (fast->snapshots, TlLuSnapshot, 0);
      g_assert_cmpuint (s1->pool_r, >, 1);
      g_assert_cmpuint (s2->rows, ==, s1->rows);
      g_assert_cmpuint (s2->cols, ==, s1->cols);
      guint nan_cells = 0;
      for (guint c = 0; c < s1->rows * s1->cols; c++)
        {
          nan_cells += isnan (s2->data[c]);
          g_assert_true ((isnan (s1->data[c]) && isnan (s2->data[c])) || s1->data[c] == s2->data[c]);
        }
      g_assert_cmpuint (nan_cells, ==, 1);

      g_autoptr (GCancellable) cancelled = g_cancellable_new ();
      g_cancellable_cancel (cancelled);
      g_autoptr (TlLuRecorder) none = tl_lu_recorder_new (0);
      tl_lu_recorder_begin (none, "test", tl_dtype_name (dtypes[t]), 0, 701, 653, 0, TL_PIVOTING_PARTIAL, 1.0);
      g_assert_false (tl_lu_recorder_snapshot_matrix (none, 0, a, cancelled));
      g_assert_cmpuint (none->snapshots->len, ==, 0);
    }
}

/* A record file of either kind is parsed once: a bare Gauss record, and a
 * run record carrying one as $.extensions.lu. */
static void
test_file_one_parse (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) a = tl_generate ("random-uniform", TL_DTYPE_FLOAT64, 24, 24, 24, &error);
  g_autoptr (TlLuRecorder) rec = tl_lu_recorder_new (0);
  g_autoptr (TlLuResult) r = NULL;
  g_assert_true (tl_lu_factor ("lu-cpu-blocked", a, 8, TL_PIVOTING_PARTIAL, rec, NULL, &r, &error));
  g_autoptr (TlRunRecord) run = tl_lu_run_record_new (r, a, NULL, rec, &error);
  g_assert_no_error (error);
  g_autofree char *dir = g_dir_make_tmp ("tl-lu-file-XXXXXX", &error);
  g_autofree char *bare = g_build_filename (dir, "steps.json", NULL);
  g_autofree char *both = g_build_filename (dir, "run.json", NULL);
  g_assert_true (tl_lu_recorder_save (rec, bare, &error));
  g_assert_true (tl_run_record_save (run, both, TL_RECORD_SAVE_DEFAULT, &error));

  TlRecordFile file;
  guint before = json_parse_count ();
  g_assert_true (tl_record_file_load (&file, bare, TL_RECORD_LOAD_MATRICES, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (json_parse_count () - before, ==, 1);
  g_assert_null (file.record);
  check_against_result (file.lu, r, a);
  tl_record_file_clear (&file);

  before = json_parse_count ();
  g_assert_true (tl_record_file_load (&file, both, TL_RECORD_LOAD_DEFAULT, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (json_parse_count () - before, ==, 1);
  g_assert_cmpstr (file.record->job->kind, ==, "lu");
  check_against_result (file.lu, r, a);
  tl_record_file_clear (&file);
  g_assert_null (file.record);

  g_unlink (bare);
  g_unlink (both);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  json_parse_count_install ();
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/lu-recorder/record-64", test_record_64);
  g_test_add_func ("/lu-recorder/pooled", test_pooled);
  g_test_add_func ("/lu-recorder/snapshot-matrix", test_snapshot_matrix);
  g_test_add_func ("/lu-recorder/bad-json", test_bad_json);
  g_test_add_func ("/lu-recorder/singular", test_singular);
  g_test_add_func ("/lu-recorder/run-record", test_run_record);
  g_test_add_func ("/lu-recorder/file-one-parse", test_file_one_parse);
  g_test_add_func ("/lu-recorder/damaged", test_damaged);
  g_test_add_func ("/lu-recorder/snapshot-due", test_snapshot_due);
  g_test_add_func ("/lu-recorder/save-extremes", test_save_extremes);
  return g_test_run ();
}
