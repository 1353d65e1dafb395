/* test-gpu-gemm.c — every GEMM rung and cuBLAS reference against float64.
 *
 * For each shape (m×k×n) and dtype: fresh random A and B (never zeros),
 * the reference C and |A|·|B| in float64 via OpenBLAS, then every kernel of
 * the registry that takes the dtype and runs on this GPU.  C is poisoned
 * with NaN on the host (the harness also poisons it on the device before
 * every launch), so an unwritten element fails.  Each kernel also runs its
 * instrumented variant: one record per block, start ≤ end, a real SM.
 *
 * Error measure per element: |c − ref| ≤ tol · (|A|·|B|)ᵢⱼ — the scale of
 * the rounding error of a dot product (Higham), so large and small entries
 * are judged alike.  Tolerances (relative to that scale):
 *   int32            exact
 *   float32 (fp32)   1e-4    (k·u ≈ 2.4e-4 is the worst case for k = 4093;
 *                              random signs give ~√k·u ≈ 4e-6)
 *   tf32 inputs      4e-3    (inputs rounded to 10-bit mantissa, u ≈ 4.9e-4)
 *   bf16 inputs      1.6e-2  (7-bit mantissa, u ≈ 3.9e-3)
 *   float64          1e-12
 * A wrong index or a missed tile gives errors of order 1.
 *
 * Run one shape: test-gpu-gemm -p /gpu/gemm/67x45x33 (the compute-sanitizer
 * shape).  TL_TEST_KERNELS=id,id… runs only those kernels (e.g. the rungs a
 * sanitizer run is about).
 *
 * 384×264×520 is there for the unguarded fast paths: whole 128-row tiles,
 * k a multiple of 8 (rungs 8, 16) and even but not a multiple of 16 (rung
 * 15's last k-tile is partial), n with a partial last tile.  Of the other
 * shapes only 2300×1000×4348 has k a multiple of 8; it is there for rows
 * that are multiples of 4 floats (the TMA path of rung 13), partial tiles,
 * and several tiles for each block of the persistent rungs 13 and 14.
 */
#include "tl-gpu.h"
#include "tl-gpu-test-util.h"

#include <cblas.h>
#include <math.h>
#include <string.h>

typedef struct
{
  int m, k, n;
} Shape;

static const Shape shapes[] = {
  { 1, 1, 1 },
  { 17, 33, 9 },
  { 67, 45, 33 },
  { 127, 129, 131 },
  { 384, 264, 520 },
  { 1000, 500, 1000 },
  { 2300, 1000, 4348 },
  { 4097, 4095, 4093 },
};

static TlGpuDevice *device;
static TlGpuFacts facts;
static GRand *rng;
static char **only_kernels; /* $TL_TEST_KERNELS, or NULL for all */

static size_t
esize (TlGpuDtype d)
{
  return d == TL_GPU_FLOAT64 ? 8 : 4;
}

static double
get (const void *p, TlGpuDtype d, size_t i)
{
  switch (d)
    {
    case TL_GPU_INT32: return ((const gint32 *) p)[i];
    case TL_GPU_FLOAT32: return ((const float *) p)[i];
    case TL_GPU_FLOAT64: return ((const double *) p)[i];
    }
  return NAN;
}

/* Random entries: floats uniform in [−1, 1), ints in [−8, 8]; never all zero. */
static void *
random_matrix (TlGpuDtype d, size_t count, double *as_double)
{
  void *p = g_malloc (count * esize (d));
  for (size_t i = 0; i < count; i++)
    {
      double v;
      switch (d)
        {
        case TL_GPU_INT32:
          ((gint32 *) p)[i] = g_rand_int_range (rng, -8, 9);
          break;
        case TL_GPU_FLOAT32:
          ((float *) p)[i] = (float) g_rand_double_range (rng, -1.0, 1.0);
          break;
        case TL_GPU_FLOAT64:
          ((double *) p)[i] = g_rand_double_range (rng, -1.0, 1.0);
          break;
        }
      v = get (p, d, i);
      as_double[i] = v;
    }
  return p;
}

static double
tolerance (TlGpuDtype d, const TlGpuKernelInfo *info)
{
  if (d == TL_GPU_INT32)
    return 0.0;
  if (strcmp (info->precision, "bf16") == 0)
    return 1.6e-2;
  if (strcmp (info->precision, "tf32") == 0)
    return 4e-3;
  if (d == TL_GPU_FLOAT64)
    return 1e-12;
  return 1e-4;
}

static gboolean
runs_here (const TlGpuKernelInfo *info, TlGpuDtype d)
{
  if (only_kernels != NULL && !g_strv_contains ((const char *const *) only_kernels, info->id))
    return FALSE;
  return (info->dtypes & TL_GPU_DTYPE_BIT (d)) && info->min_cc <= facts.cc_major * 10 + facts.cc_minor
         && tl_gpu_kernel_available (info->id);
}

static void
check_records (const TlGpuKernelInfo *info, const Shape *s, const TlGpuGemmResult *r)
{
  const TlGpuLaunchFacts *lf = &r->launch;
  if (!info->instrumentable)
    {
      g_assert_cmpuint (r->n_blocks, ==, 0);
      return;
    }
  g_assert_cmpint (lf->launches, >=, 1);
  g_assert_cmpuint (r->n_blocks, >, 0);
  /* One record per block; or, for a persistent kernel (a few blocks that
   * loop over C's tiles), one per tile of C: every tile exactly once. */
  const guint tiles_x = (guint) ((s->n + info->tile_n - 1) / info->tile_n);
  const guint tiles_y = (guint) ((s->m + info->tile_m - 1) / info->tile_m);
  const size_t grid = (size_t) lf->grid_x * lf->grid_y * lf->grid_z;
  if (lf->launches == 1 && r->n_blocks != grid)
    {
      g_assert_cmpuint (r->n_blocks, ==, (size_t) tiles_x * tiles_y);
      for (size_t i = 0; i < r->n_blocks; i++)
        if (r->blocks[i].block_x >= tiles_x || r->blocks[i].block_y >= tiles_y)
          g_error ("%s %dx%dx%d: record %zu names tile (%u,%u) outside the %u×%u tiles of C",
                   info->id, s->m, s->k, s->n, i, r->blocks[i].block_x, r->blocks[i].block_y,
                   tiles_x, tiles_y);
    }
  g_assert_cmpfloat (r->instrumented_median_ms, >, 0.0);
  /* One record per block: (launch, x, y) all different. */
  GHashTable *seen = g_hash_table_new (g_int64_hash, g_int64_equal);
  gint64 *keys = g_new (gint64, r->n_blocks);
  uint64_t earliest = UINT64_MAX;
  for (size_t i = 0; i < r->n_blocks; i++)
    {
      const TlGpuBlockRecord *b = &r->blocks[i];
      if (!(b->start_ns <= b->end_ns) || !(b->sm < (uint32_t) facts.sm_count)
          || !(b->launch < (uint32_t) MAX (lf->launches, 3)))
        g_error ("%s %dx%dx%d: block record %zu broken: block (%u,%u) launch %u sm %u, %" G_GUINT64_FORMAT
                 "..%" G_GUINT64_FORMAT " ns",
                 info->id, s->m, s->k, s->n, i, b->block_x, b->block_y, b->launch, b->sm,
                 (guint64) b->start_ns, (guint64) b->end_ns);
      keys[i] = ((gint64) b->launch << 48) | ((gint64) b->block_y << 24) | b->block_x;
      if (g_hash_table_contains (seen, &keys[i]))
        g_error ("%s: two records for block (%u,%u) of launch %u", info->id, b->block_x, b->block_y,
                 b->launch);
      g_hash_table_add (seen, &keys[i]);
      earliest = MIN (earliest, b->start_ns);
    }
  g_assert_cmpuint (earliest, ==, 0); /* normalised to the earliest start */
  g_hash_table_destroy (seen);
  g_free (keys);
}

static void
run_one (const TlGpuKernelInfo *info, TlGpuDtype d, const Shape *s, const void *a, const void *b,
         const double *ref, const double *absref)
{
  const size_t mn = (size_t) s->m * s->n;
  void *c = g_malloc (mn * esize (d));
  memset (c, 0xFF, mn * esize (d)); /* NaN for floats, −1 for int32 */
  TlGpuGemmArgs args = { 0 };
  args.dtype = d;
  args.m = s->m;
  args.n = s->n;
  args.k = s->k;
  args.a = a;
  args.b = b;
  args.c = c;
  args.warmups = 2;
  args.repeats = 2;
  args.flush_l2 = 1;
  args.instrument = 1;
  args.instrument_repeats = 1;
  TlGpuGemmResult r;
  TlGpuStatus st = tl_gpu_gemm_run (device, info->id, &args, &r);
  if (st != TL_GPU_OK)
    g_error ("%s %s %dx%dx%d: %s: %s", info->id, d == TL_GPU_INT32 ? "int32" : d == TL_GPU_FLOAT32 ? "float32" : "float64",
             s->m, s->k, s->n, tl_gpu_status_name (st), tl_gpu_last_message ());
  g_assert_cmpint (r.n_times, ==, 2);
  for (int i = 0; i < r.n_times; i++)
    g_assert_cmpfloat (r.times_ms[i], >, 0.0);

  const double tol = tolerance (d, info);
  double worst = 0.0, num = 0.0, den = 0.0;
  size_t bad = 0, first_bad = 0;
  for (size_t i = 0; i < mn; i++)
    {
      const double v = get (c, d, i);
      const double err = fabs (v - ref[i]);
      const double scale = absref[i] > 0 ? absref[i] : 1.0;
      num += err * err;
      den += ref[i] * ref[i];
      if (!(err <= tol * scale)) /* NaN fails too */
        {
          if (bad++ == 0)
            first_bad = i;
        }
      else if (err / scale > worst)
        worst = err / scale;
    }
  if (bad > 0)
    g_error ("%s %dx%dx%d dtype %d: %zu of %zu elements wrong; first at (%zu,%zu): got %.9g, want %.9g "
             "(tolerance %.1e × %.3g)",
             info->id, s->m, s->k, s->n, (int) d, bad, mn, first_bad / s->n, first_bad % s->n,
             get (c, d, first_bad), ref[first_bad], tol, absref[first_bad]);
  printf ("# %-20s %-7s %5dx%5dx%5d  max err/scale %.2e  rel Frobenius %.2e  median %.3f ms  "
          "instrumented %.3f ms  regs %d  blocks/SM %d\n",
          info->id, d == TL_GPU_INT32 ? "int32" : d == TL_GPU_FLOAT32 ? "float32" : "float64", s->m,
          s->k, s->n, worst, den > 0 ? sqrt (num / den) : sqrt (num), r.times_ms[0],
          r.instrumented_median_ms, r.launch.regs_per_thread, r.launch.active_blocks_per_sm);
  check_records (info, s, &r);
  tl_gpu_gemm_result_clear (&r);
  g_free (c);
}

static void
test_shape (gconstpointer data)
{
  const Shape *s = data;
  const TlGpuDtype dtypes[] = { TL_GPU_INT32, TL_GPU_FLOAT32, TL_GPU_FLOAT64 };
  for (size_t di = 0; di < G_N_ELEMENTS (dtypes); di++)
    {
      const TlGpuDtype d = dtypes[di];
      gboolean any = FALSE;
      for (int i = 0; i < tl_gpu_kernel_count (); i++)
        any |= runs_here (tl_gpu_kernel_info (i), d);
      if (!any)
        continue;
      const size_t mk = (size_t) s->m * s->k, kn = (size_t) s->k * s->n, mn = (size_t) s->m * s->n;
      double *ad = g_new (double, mk), *bd = g_new (double, kn);
      void *a = random_matrix (d, mk, ad);
      void *b = random_matrix (d, kn, bd);
      double *ref = g_new (double, mn), *absref = g_new (double, mn);
      cblas_dgemm (CblasRowMajor, CblasNoTrans, CblasNoTrans, s->m, s->n, s->k, 1.0, ad, s->k, bd,
                   s->n, 0.0, ref, s->n);
      for (size_t i = 0; i < mk; i++)
        ad[i] = fabs (ad[i]);
      for (size_t i = 0; i < kn; i++)
        bd[i] = fabs (bd[i]);
      cblas_dgemm (CblasRowMajor, CblasNoTrans, CblasNoTrans, s->m, s->n, s->k, 1.0, ad, s->k, bd,
                   s->n, 0.0, absref, s->n);
      for (int i = 0; i < tl_gpu_kernel_count (); i++)
        {
          const TlGpuKernelInfo *info = tl_gpu_kernel_info (i);
          if (runs_here (info, d))
            run_one (info, d, s, a, b, ref, absref);
        }
      g_free (a);
      g_free (b);
      g_free (ad);
      g_free (bd);
      g_free (ref);
      g_free (absref);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  tl_gpu_test_require_device ();
  rng = g_rand_new_with_seed (tl_gpu_test_seed ());
  if (g_getenv ("TL_TEST_KERNELS") != NULL)
    {
      only_kernels = g_strsplit (g_getenv ("TL_TEST_KERNELS"), ",", -1);
      printf ("# only the kernels in TL_TEST_KERNELS: %s\n", g_getenv ("TL_TEST_KERNELS"));
    }
  if (tl_gpu_device_facts (0, &facts) != TL_GPU_OK || tl_gpu_device_open (0, &device) != TL_GPU_OK)
    g_error ("opening GPU 0: %s", tl_gpu_last_message ());
  printf ("# %s, compute capability %d.%d, %d SMs\n", facts.name, facts.cc_major, facts.cc_minor,
          facts.sm_count);
  for (int i = 0; i < tl_gpu_kernel_count (); i++)
    if (!tl_gpu_kernel_available (tl_gpu_kernel_info (i)->id))
      printf ("# NOTE: %s is in the registry but not built into this Tilelab: not tested\n",
              tl_gpu_kernel_info (i)->id);
  for (size_t i = 0; i < G_N_ELEMENTS (shapes); i++)
    {
      char *path = g_strdup_printf ("/gpu/gemm/%dx%dx%d", shapes[i].m, shapes[i].k, shapes[i].n);
      g_test_add_data_func (path, &shapes[i], test_shape);
      g_free (path);
    }
  int ret = g_test_run ();
  tl_gpu_device_close (device);
  g_rand_free (rng);
  g_strfreev (only_kernels);
  return ret;
}
