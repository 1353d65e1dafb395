/* test-cpu-gemm.c — every CPU kernel × dtype against a float64 reference
 * computed here, at odd shapes and on views; tile records; cancellation. */
#include "gemm/tl-cpu-gemm.h"
#include "core/tl-error.h"
#include "gen/tl-generate.h"
#include "gemm/tl-gemm-check.h"
#include "gemm/tl-kernels.h"

#include <math.h>
#include <string.h>

#define POISON_I32 ((gint32) 0x7ead7ead)

static void
poison (TlMatrix *c)
{
  for (gsize i = 0; i < c->rows; i++)
    for (gsize j = 0; j < c->cols; j++)
      {
        char *row = tl_matrix_row (c, i);
        switch (c->dtype)
          {
          case TL_DTYPE_INT32:   ((gint32 *) row)[j] = POISON_I32; break;
          case TL_DTYPE_FLOAT32: ((float *) row)[j] = NAN; break;
          case TL_DTYPE_FLOAT64: ((double *) row)[j] = NAN; break;
          }
      }
}

static gint32
get_i32 (const TlMatrix *m, gsize i, gsize j)
{
  return ((const gint32 *) tl_matrix_row (m, i))[j];
}

/* The reference and the rule are the product's own (gemm/tl-gemm-check.h:
 * float64 A·B, |A|·|B| for the per-element bound, int32 exact modulo 2³²);
 * test-gemm-check.c checks them against sums computed there by hand. */
static TlGemmReference *
reference_new (const TlMatrix *a, const TlMatrix *b)
{
  g_autoptr (GError) error = NULL;
  TlGemmReference *ref = tl_gemm_reference_new (a, b, &error);
  g_assert_no_error (error);
  return ref;
}

static void
check_against (const char *what, const TlMatrix *c, const TlGemmReference *r, gsize k)
{
  const char *precision = c->dtype == TL_DTYPE_INT32     ? "exact"
                          : c->dtype == TL_DTYPE_FLOAT32 ? "fp32"
                                                         : "fp64";
  g_assert_cmpuint (r->k, ==, k);
  TlGemmCheck check;
  if (!tl_gemm_check (r, c, precision, &check))
    {
      g_autofree char *why = tl_gemm_check_describe (&check);
      g_error ("%s: %s", what, why);
    }
}

static TlMatrix *
random_matrix (TlDtype dtype, gsize rows, gsize cols, guint64 seed)
{
  const char *spec = dtype == TL_DTYPE_INT32 ? "random-int:lo=-9,hi=9" : "random-uniform";
  g_autoptr (GError) error = NULL;
  TlMatrix *m = tl_generate (spec, dtype, rows, cols, seed, &error);
  g_assert_no_error (error);
  return m;
}

static void
run_kernel (const char *id, const TlMatrix *a, const TlMatrix *b, TlMatrix *c, guint threads)
{
  g_autoptr (GError) error = NULL;
  poison (c);
  gboolean ok = tl_cpu_gemm (id, a, b, c, threads, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
}

static void
test_shapes (gconstpointer data)
{
  static const gsize shapes[][3] = { /* m, k, n */
    { 1, 1, 1 }, { 1, 1, 57 }, { 1, 77, 1 }, { 1, 300, 129 }, { 129, 300, 1 },
    { 7, 13, 5 }, { 33, 31, 65 }, { 64, 64, 64 }, { 65, 257, 63 }, { 4, 0, 6 },
    { 0, 5, 3 }, { 3, 5, 0 },
  };
  const char *id = data;
  const TlCpuKernel *kernel = NULL;
  for (guint i = 0; i < tl_cpu_kernel_count (); i++)
    if (strcmp (tl_cpu_kernel_get (i)->id, id) == 0)
      kernel = tl_cpu_kernel_get (i);
  g_assert_nonnull (kernel);

  for (int d = 0; d < TL_DTYPE_COUNT; d++)
    {
      if (!(kernel->dtypes & TL_DTYPE_BIT (d)))
        continue;
      for (gsize s = 0; s < G_N_ELEMENTS (shapes); s++)
        {
          gsize m = shapes[s][0], k = shapes[s][1], n = shapes[s][2];
          g_autoptr (TlMatrix) a = random_matrix (d, m, k, 100 + s);
          g_autoptr (TlMatrix) b = random_matrix (d, k, n, 200 + s);
          g_autoptr (TlMatrix) c = tl_matrix_new (d, m, n, NULL);
          g_autoptr (TlGemmReference) ref = reference_new (a, b);
          for (guint threads = 0; threads <= 3; threads += 3)
            {
              run_kernel (id, a, b, c, threads);
              g_autofree char *what = g_strdup_printf ("%s %s %zu×%zu×%zu", id,
                                                       tl_dtype_name (d), m, k, n);
              check_against (what, c, ref, k);
            }
        }
    }
}

/* Seed 002's size, 1000×500×1000, every kernel and dtype against one
 * reference per dtype. */
static void
test_seed_002_size (void)
{
  const gsize m = 1000, k = 500, n = 1000;
  for (int d = 0; d < TL_DTYPE_COUNT; d++)
    {
      g_autoptr (TlMatrix) a = random_matrix (d, m, k, 7);
      g_autoptr (TlMatrix) b = random_matrix (d, k, n, 8);
      g_autoptr (TlMatrix) c = tl_matrix_new (d, m, n, NULL);
      g_autoptr (TlMatrix) first = NULL;
      g_autoptr (TlGemmReference) ref = reference_new (a, b);
      for (guint i = 0; i < tl_cpu_kernel_count (); i++)
        {
          const TlCpuKernel *kernel = tl_cpu_kernel_get (i);
          if (!(kernel->dtypes & TL_DTYPE_BIT (d)))
            continue;
          run_kernel (kernel->id, a, b, c, 0);
          g_autofree char *what = g_strdup_printf ("%s %s 1000×500×1000", kernel->id,
                                                   tl_dtype_name (d));
          check_against (what, c, ref, k);
          /* naive and blocked sum over k in the same order: same bits */
          if (strcmp (kernel->id, "cpu-naive") == 0)
            first = tl_matrix_copy (c, NULL);
          else if (strcmp (kernel->id, "cpu-blocked") == 0)
            g_assert_true (tl_matrix_equal (first, c));
        }
    }
}

/* The seed 002 setting: ones times ones is k everywhere. */
static void
test_ones (void)
{
  for (int d = 0; d < TL_DTYPE_COUNT; d++)
    {
      g_autoptr (TlMatrix) a = tl_generate ("ones", d, 100, 50, 0, NULL);
      g_autoptr (TlMatrix) b = tl_generate ("ones", d, 50, 70, 0, NULL);
      g_autoptr (TlMatrix) c = tl_matrix_new (d, 100, 70, NULL);
      for (guint i = 0; i < tl_cpu_kernel_count (); i++)
        {
          const TlCpuKernel *kernel = tl_cpu_kernel_get (i);
          if (!(kernel->dtypes & TL_DTYPE_BIT (d)))
            continue;
          run_kernel (kernel->id, a, b, c, 2);
          TlMatrixStats st;
          tl_matrix_stats (c, &st);
          g_assert_cmpfloat (st.min, ==, 50.0);
          g_assert_cmpfloat (st.max, ==, 50.0);
        }
    }
}

/* int32 wraps around modulo 2^32 like the GPU does. */
static void
test_int32_wraparound (void)
{
  g_autoptr (TlMatrix) a = tl_generate ("random-int:lo=-2147483648,hi=2147483647",
                                        TL_DTYPE_INT32, 33, 31, 1, NULL);
  g_autoptr (TlMatrix) b = tl_generate ("random-int:lo=-2147483648,hi=2147483647",
                                        TL_DTYPE_INT32, 31, 65, 2, NULL);
  g_autoptr (TlMatrix) c = tl_matrix_new (TL_DTYPE_INT32, 33, 65, NULL);
  g_autoptr (TlGemmReference) ref = reference_new (a, b);
  run_kernel ("cpu-naive", a, b, c, 1);
  check_against ("cpu-naive int32 wrap", c, ref, 31);
  run_kernel ("cpu-blocked", a, b, c, 3);
  check_against ("cpu-blocked int32 wrap", c, ref, 31);

  /* one hand-checked case: 65536 · 65536 = 2^32 ≡ 0, plus 46341² wraps negative */
  g_autoptr (TlMatrix) x = tl_matrix_new (TL_DTYPE_INT32, 1, 2, NULL);
  g_autoptr (TlMatrix) y = tl_matrix_new (TL_DTYPE_INT32, 2, 1, NULL);
  g_autoptr (TlMatrix) z = tl_matrix_new (TL_DTYPE_INT32, 1, 1, NULL);
  ((gint32 *) x->data)[0] = 65536;
  ((gint32 *) x->data)[1] = 46341;
  ((gint32 *) tl_matrix_row (y, 0))[0] = 65536;
  ((gint32 *) tl_matrix_row (y, 1))[0] = 46341;
  for (int kk = 0; kk < 2; kk++)
    {
      run_kernel (kk ? "cpu-blocked" : "cpu-naive", x, y, z, 1);
      g_assert_cmpint (((gint32 *) z->data)[0], ==, -2147479015); /* 2147488281 − 2^32 */
    }
}

/* Views: stride ≠ cols for A, B and C, and C's parent untouched outside. */
static void
test_views (void)
{
  for (int d = 0; d < TL_DTYPE_COUNT; d++)
    {
      g_autoptr (TlMatrix) pa = random_matrix (d, 50, 60, 31);
      g_autoptr (TlMatrix) pb = random_matrix (d, 70, 80, 32);
      g_autoptr (TlMatrix) pc = tl_matrix_new (d, 90, 100, NULL);
      g_autoptr (TlMatrix) a = tl_matrix_view (pa, 3, 5, 37, 41);
      g_autoptr (TlMatrix) b = tl_matrix_view (pb, 7, 2, 41, 67);
      g_autoptr (TlMatrix) c = tl_matrix_view (pc, 11, 13, 37, 67);
      g_assert_false (tl_matrix_is_contiguous (a));
      g_autoptr (TlGemmReference) ref = reference_new (a, b);
      for (guint i = 0; i < tl_cpu_kernel_count (); i++)
        {
          const TlCpuKernel *kernel = tl_cpu_kernel_get (i);
          if (!(kernel->dtypes & TL_DTYPE_BIT (d)))
            continue;
          poison (pc);
          run_kernel (kernel->id, a, b, c, 2);
          g_autofree char *what = g_strdup_printf ("%s %s view", kernel->id, tl_dtype_name (d));
          check_against (what, c, ref, 41);
          /* nothing outside the view was written */
          for (gsize r = 0; r < pc->rows; r++)
            for (gsize col = 0; col < pc->cols; col++)
              {
                if (r >= 11 && r < 11 + 37 && col >= 13 && col < 13 + 67)
                  continue;
                if (d == TL_DTYPE_INT32)
                  g_assert_cmpint (get_i32 (pc, r, col), ==, POISON_I32);
                else
                  g_assert_true (isnan (tl_matrix_get (pc, r, col)));
              }
        }
    }
}

static void
test_tile_records (void)
{
  static const gsize shapes[][3] = { { 1, 1, 1 }, { 200, 33, 130 }, { 64, 10, 64 },
                                     { 300, 70, 513 } };
  for (gsize s = 0; s < G_N_ELEMENTS (shapes); s++)
    for (guint threads = 0; threads <= 5; threads += 1)
      {
        gsize m = shapes[s][0], k = shapes[s][1], n = shapes[s][2];
        g_autoptr (TlMatrix) a = random_matrix (TL_DTYPE_FLOAT32, m, k, 1);
        g_autoptr (TlMatrix) b = random_matrix (TL_DTYPE_FLOAT32, k, n, 2);
        g_autoptr (TlMatrix) c = tl_matrix_new (TL_DTYPE_FLOAT32, m, n, NULL);
        g_autoptr (GArray) records = g_array_new (FALSE, FALSE, sizeof (TlCpuTileRecord));
        g_autoptr (GError) error = NULL;
        poison (c);
        g_assert_true (tl_cpu_gemm ("cpu-blocked", a, b, c, threads, records, NULL, &error));
        g_assert_no_error (error);

        guint tm = (m + 63) / 64, tn = (n + 63) / 64;
        guint max_threads = threads ? threads : g_get_num_processors ();
        g_assert_cmpuint (records->len, ==, tm * tn);
        g_autofree int *seen = g_new0 (int, tm * tn);
        for (guint r = 0; r < records->len; r++)
          {
            const TlCpuTileRecord *rec = &g_array_index (records, TlCpuTileRecord, r);
            g_assert_cmpuint (rec->tile_row, <, tm);
            g_assert_cmpuint (rec->tile_col, <, tn);
            g_assert_cmpuint (rec->thread, <, max_threads);
            g_assert_cmpint (rec->start_ns, >=, 0);
            g_assert_cmpint (rec->start_ns, <=, rec->end_ns);
            seen[rec->tile_row * tn + rec->tile_col]++;
          }
        for (guint t = 0; t < tm * tn; t++)
          g_assert_cmpint (seen[t], ==, 1);
        /* the records are appended: a second run adds as many again */
        g_assert_true (tl_cpu_gemm ("cpu-blocked", a, b, c, threads, records, NULL, NULL));
        g_assert_cmpuint (records->len, ==, 2 * tm * tn);
      }
}

static gpointer
cancel_when_first_tile_done (gpointer data)
{
  gpointer *pair = data;
  TlMatrix *c = pair[0];
  GCancellable *cancellable = pair[1];
  /* C was poisoned: C[0,0] becomes a number when tile (0,0) is written */
  volatile float *c00 = c->data;
  while (isnan (*c00))
    g_usleep (100);
  g_cancellable_cancel (cancellable);
  return NULL;
}

static void
test_cancellation (void)
{
  /* already cancelled: every kernel stops before doing anything */
  g_autoptr (GCancellable) cancelled = g_cancellable_new ();
  g_cancellable_cancel (cancelled);
  g_autoptr (TlMatrix) a = random_matrix (TL_DTYPE_FLOAT32, 1024, 1024, 1);
  g_autoptr (TlMatrix) b = random_matrix (TL_DTYPE_FLOAT32, 1024, 1024, 2);
  g_autoptr (TlMatrix) c = tl_matrix_new (TL_DTYPE_FLOAT32, 1024, 1024, NULL);
  for (guint i = 0; i < tl_cpu_kernel_count (); i++)
    {
      g_autoptr (GArray) records = g_array_new (FALSE, FALSE, sizeof (TlCpuTileRecord));
      g_autoptr (GError) error = NULL;
      g_assert_false (tl_cpu_gemm (tl_cpu_kernel_get (i)->id, a, b, c, 2, records, cancelled,
                                   &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      g_assert_cmpuint (records->len, ==, 0);
    }

  /* cancelled while running: the blocked kernel stops between tiles */
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GArray) records = g_array_new (FALSE, FALSE, sizeof (TlCpuTileRecord));
  g_autoptr (GError) error = NULL;
  poison (c);
  gpointer pair[2] = { c, cancellable };
  GThread *watcher = g_thread_new ("cancel", cancel_when_first_tile_done, pair);
  gboolean ok = tl_cpu_gemm ("cpu-blocked", a, b, c, 1, records, cancellable, &error);
  g_thread_join (watcher);
  g_assert_false (ok);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (records->len, >=, 1);
  g_assert_cmpuint (records->len, <, 16 * 16);

  /* the naive kernel checks between rows */
  g_autoptr (GCancellable) cancellable2 = g_cancellable_new ();
  g_clear_error (&error);
  poison (c);
  pair[1] = cancellable2;
  watcher = g_thread_new ("cancel", cancel_when_first_tile_done, pair);
  ok = tl_cpu_gemm ("cpu-naive", a, b, c, 1, NULL, cancellable2, &error);
  g_thread_join (watcher);
  g_assert_false (ok);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_true (isnan (tl_matrix_get (c, 1023, 1023)));
}

static void
expect_error (const char *id, const TlMatrix *a, const TlMatrix *b, TlMatrix *c, int code,
              const char *needle1, const char *needle2)
{
  g_autoptr (GError) error = NULL;
  g_assert_false (tl_cpu_gemm (id, a, b, c, 1, NULL, NULL, &error));
  g_assert_error (error, TL_ERROR, code);
  if (needle1 && !strstr (error->message, needle1))
    g_error ("message “%s” lacks “%s”", error->message, needle1);
  if (needle2 && !strstr (error->message, needle2))
    g_error ("message “%s” lacks “%s”", error->message, needle2);
}

static void
test_errors (void)
{
  g_autoptr (TlMatrix) a = random_matrix (TL_DTYPE_FLOAT32, 3, 4, 1);
  g_autoptr (TlMatrix) b = random_matrix (TL_DTYPE_FLOAT32, 5, 6, 2);
  g_autoptr (TlMatrix) b2 = random_matrix (TL_DTYPE_FLOAT32, 4, 6, 2);
  g_autoptr (TlMatrix) b64 = random_matrix (TL_DTYPE_FLOAT64, 4, 6, 2);
  g_autoptr (TlMatrix) c = tl_matrix_new (TL_DTYPE_FLOAT32, 3, 6, NULL);
  g_autoptr (TlMatrix) c_bad = tl_matrix_new (TL_DTYPE_FLOAT32, 3, 7, NULL);
  g_autoptr (TlMatrix) ai = random_matrix (TL_DTYPE_INT32, 3, 4, 1);
  g_autoptr (TlMatrix) bi = random_matrix (TL_DTYPE_INT32, 4, 6, 1);
  g_autoptr (TlMatrix) ci = tl_matrix_new (TL_DTYPE_INT32, 3, 6, NULL);

  for (guint i = 0; i < tl_cpu_kernel_count (); i++)
    {
      const char *id = tl_cpu_kernel_get (i)->id;
      expect_error (id, a, b, c, TL_ERROR_SHAPE, "3×4", "5×6");
      expect_error (id, a, b2, c_bad, TL_ERROR_SHAPE, "3×7", "3×6");
      expect_error (id, a, b64, c, TL_ERROR_SHAPE, "float64", "float32");
    }
  expect_error ("cpu-openblas", ai, bi, ci, TL_ERROR_UNSUPPORTED, "int32", NULL);
  expect_error ("cpu-magic", a, b2, c, TL_ERROR_INVALID, "cpu-naive", "cpu-blocked");

  /* C sharing memory with A is refused */
  g_autoptr (TlMatrix) sq = random_matrix (TL_DTYPE_FLOAT64, 8, 8, 1);
  g_autoptr (TlMatrix) other = random_matrix (TL_DTYPE_FLOAT64, 8, 8, 2);
  expect_error ("cpu-blocked", sq, other, sq, TL_ERROR_INVALID, NULL, NULL);
}

static void
test_registry (void)
{
  g_assert_cmpuint (tl_cpu_kernel_count (), ==, 3);
  for (guint i = 0; i < tl_cpu_kernel_count (); i++)
    {
      const TlCpuKernel *k = tl_cpu_kernel_get (i);
      g_assert_true (g_str_has_prefix (k->id, "cpu-"));
      g_assert_true (k->title && *k->title && k->lesson && *k->lesson && k->seed);
      g_assert_true (k->dtypes & TL_DTYPE_BIT (TL_DTYPE_FLOAT32));
      g_assert_cmpint (k->records_tiles, ==, k->tile > 0);
    }
  const char *blas = tl_cpu_openblas_info ();
  g_assert_true (g_str_has_prefix (blas, "OpenBLAS "));
  g_assert_nonnull (strstr (blas, "(core "));
  g_assert_true (blas == tl_cpu_openblas_info ());
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cpu-gemm/registry", test_registry);
  g_test_add_data_func ("/cpu-gemm/shapes/naive", "cpu-naive", test_shapes);
  g_test_add_data_func ("/cpu-gemm/shapes/blocked", "cpu-blocked", test_shapes);
  g_test_add_data_func ("/cpu-gemm/shapes/openblas", "cpu-openblas", test_shapes);
  g_test_add_func ("/cpu-gemm/seed-002-size", test_seed_002_size);
  g_test_add_func ("/cpu-gemm/ones", test_ones);
  g_test_add_func ("/cpu-gemm/int32-wraparound", test_int32_wraparound);
  g_test_add_func ("/cpu-gemm/views", test_views);
  g_test_add_func ("/cpu-gemm/tile-records", test_tile_records);
  g_test_add_func ("/cpu-gemm/cancellation", test_cancellation);
  g_test_add_func ("/cpu-gemm/errors", test_errors);
  return g_test_run ();
}
