/* test-kernels.c — the unified kernel registry: CPU rows, then the GPU ladder. */
#include "gemm/tl-cpu-gemm.h"
#include "tl-gpu.h"
#include "gemm/tl-kernels.h"

#include <string.h>

static void
test_ids_unique (void)
{
  guint n = tl_kernel_count ();
  g_assert_cmpuint (n, ==, tl_cpu_kernel_count () + (guint) tl_gpu_kernel_count ());
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < n; i++)
    {
      const TlKernelInfo *k = tl_kernel_get (i);
      g_assert_nonnull (k);
      g_assert_true (k->id && *k->id);
      g_assert_false (g_hash_table_contains (seen, k->id));
      g_hash_table_add (seen, (gpointer) k->id);
      g_assert_true (k->title && *k->title);
      g_assert_true (k->lesson && *k->lesson);
      g_assert_nonnull (k->seed);
      g_assert_nonnull (k->precision);
      g_assert_true (k->source_path && *k->source_path);
      g_assert_cmpuint (k->dtypes, !=, 0);
      g_assert_cmpuint (k->dtypes & ~7u, ==, 0);
      g_assert_true (tl_kernel_find (k->id) == k);
    }
}

static void
test_cpu_rows_first (void)
{
  for (guint i = 0; i < tl_cpu_kernel_count (); i++)
    {
      const TlCpuKernel *c = tl_cpu_kernel_get (i);
      const TlKernelInfo *k = tl_kernel_get (i);
      g_assert_cmpstr (k->id, ==, c->id);
      g_assert_cmpint (k->backend, ==, TL_BACKEND_CPU);
      g_assert_cmpstr (k->title, ==, c->title);
      g_assert_cmpstr (k->lesson, ==, c->lesson);
      g_assert_cmpstr (k->seed, ==, c->seed);
      g_assert_cmpuint (k->dtypes, ==, c->dtypes);
      g_assert_cmpint (k->reference, ==, c->reference);
      g_assert_cmpint (k->records_blocks, ==, c->records_tiles);
      g_assert_cmpint (k->tile_m, ==, c->tile);
      g_assert_cmpint (k->min_cc, ==, 0);
      g_assert_cmpstr (k->source_path, ==, "src/gemm/tl-cpu-gemm.c");
    }
  const TlKernelInfo *blas = tl_kernel_find ("cpu-openblas");
  g_assert_nonnull (blas);
  g_assert_true (blas->reference);
  g_assert_false (tl_kernel_supports (blas, TL_DTYPE_INT32));
  g_assert_true (tl_kernel_supports (blas, TL_DTYPE_FLOAT64));
  const TlKernelInfo *blocked = tl_kernel_find ("cpu-blocked");
  g_assert_true (blocked->records_blocks);
  g_assert_cmpint (blocked->tile_m, ==, 64);
  g_assert_true (tl_kernel_supports (blocked, TL_DTYPE_INT32));
  g_assert_false (tl_kernel_supports (blocked, (TlDtype) 7));
}

static void
test_every_gpu_row (void)
{
  guint n_cpu = tl_cpu_kernel_count ();
  g_assert_cmpint (tl_gpu_kernel_count (), >, 0);
  for (int i = 0; i < tl_gpu_kernel_count (); i++)
    {
      const TlGpuKernelInfo *g = tl_gpu_kernel_info (i);
      const TlKernelInfo *k = tl_kernel_get (n_cpu + (guint) i);
      g_assert_true (tl_kernel_find (g->id) == k);
      g_assert_cmpstr (k->id, ==, g->id);
      g_assert_cmpint (k->backend, ==, TL_BACKEND_GPU);
      g_assert_cmpint (k->number, ==, g->number);
      g_assert_cmpstr (k->title, ==, g->title);
      g_assert_cmpstr (k->lesson, ==, g->lesson);
      g_assert_cmpstr (k->seed, ==, g->seed);
      g_assert_cmpuint (k->dtypes, ==, g->dtypes);
      g_assert_cmpint (k->reference, ==, g->kind == TL_GPU_KIND_REFERENCE);
      g_assert_cmpint (k->records_blocks, ==, g->instrumentable != 0);
      g_assert_cmpint (k->tile_m, ==, g->tile_m);
      g_assert_cmpint (k->tile_n, ==, g->tile_n);
      g_assert_cmpint (k->min_cc, ==, g->min_cc);
      g_assert_cmpstr (k->precision, ==, g->precision);
      g_assert_cmpstr (k->source_path, ==, g->source_path);
      for (int d = 0; d < TL_DTYPE_COUNT; d++)
        g_assert_cmpint (tl_kernel_supports (k, d), ==,
                         (g->dtypes & TL_GPU_DTYPE_BIT (d)) != 0);
    }
  /* the sources the registry names exist in the tree (where present) */
  const char *root = g_getenv ("TL_SOURCE_DIR");
  if (root)
    for (guint i = 0; i < n_cpu; i++)
      {
        g_autofree char *path = g_build_filename (root, tl_kernel_get (i)->source_path, NULL);
        g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));
      }
}

static void
test_lookups (void)
{
  g_assert_null (tl_kernel_find ("no-such-kernel"));
  g_assert_null (tl_kernel_find (NULL));
  g_assert_null (tl_kernel_find (""));
  g_assert_nonnull (tl_kernel_find ("cpu-naive"));
  g_assert_nonnull (tl_kernel_find ("gemm-01-naive"));
  g_assert_nonnull (tl_kernel_find ("cublas-fp32"));
  g_assert_true (tl_kernel_find ("cublas-fp32")->reference);
  g_assert_cmpint (tl_kernel_find ("gemm-03-smem16")->number, ==, 3);
  g_assert_cmpint (tl_kernel_find ("gemm-03-smem16")->backend, ==, TL_BACKEND_GPU);
}

/* The columns that replace comparisons of ids: one baseline, single
 * threaded; a reference of the same backend and precision for every
 * float kernel; none for int32 (exact). */
static void
test_columns (void)
{
  const TlKernelInfo *baseline = tl_kernel_baseline ();
  g_assert_nonnull (baseline);
  g_assert_cmpstr (baseline->id, ==, "cpu-naive");
  g_assert_true (baseline->single_threaded);
  for (guint i = 0; i < tl_kernel_count (); i++)
    {
      const TlKernelInfo *k = tl_kernel_get (i);
      g_assert_true (!k->baseline || k == baseline);
      g_assert_null (tl_kernel_reference (k, TL_DTYPE_INT32));
      g_assert_cmpstr (tl_kernel_precision (k, TL_DTYPE_INT32), ==, "exact");
      g_assert_cmpstr (tl_kernel_precision (k, TL_DTYPE_FLOAT64), ==, "fp64");
      for (TlDtype d = TL_DTYPE_FLOAT32; d <= TL_DTYPE_FLOAT64; d++)
        {
          if (!tl_kernel_supports (k, d))
            continue;
          const TlKernelInfo *ref = tl_kernel_reference (k, d);
          g_assert_nonnull (ref);
          g_assert_true (ref->reference);
          g_assert_cmpint (ref->backend, ==, k->backend);
          g_assert_true (tl_kernel_supports (ref, d));
          g_assert_cmpstr (tl_kernel_precision (ref, d), ==, tl_kernel_precision (k, d));
          if (k->reference)
            g_assert_true (ref == k); /* a yardstick is its own */
        }
    }
  g_assert_cmpstr (tl_kernel_reference (tl_kernel_find ("gemm-10-wmma-bf16"), TL_DTYPE_FLOAT32)->id,
                   ==, "cublas-bf16");
  g_assert_cmpstr (tl_kernel_reference (tl_kernel_find ("gemm-12-regtile-f64"), TL_DTYPE_FLOAT64)->id,
                   ==, "cublas-fp64");
  g_assert_cmpstr (tl_kernel_reference (tl_kernel_find ("cpu-naive"), TL_DTYPE_FLOAT32)->id, ==,
                   "cpu-openblas");
}

/* In a CUDA build every row of the ladder is built in: the dispatch is
 * read from the same list as the registry. */
static void
test_every_row_built (void)
{
  if (!tl_gpu_built_with_cuda ())
    {
      g_test_skip ("built without CUDA: no rung is built in");
      return;
    }
  for (int i = 0; i < tl_gpu_kernel_count (); i++)
    {
      const char *id = tl_gpu_kernel_info (i)->id;
      if (!tl_gpu_kernel_available (id))
        g_error ("%s is in the ladder but not in the dispatch", id);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/kernels/ids-unique", test_ids_unique);
  g_test_add_func ("/kernels/cpu-rows-first", test_cpu_rows_first);
  g_test_add_func ("/kernels/every-gpu-row", test_every_gpu_row);
  g_test_add_func ("/kernels/lookups", test_lookups);
  g_test_add_func ("/kernels/columns", test_columns);
  g_test_add_func ("/kernels/every-row-built", test_every_row_built);
  return g_test_run ();
}
