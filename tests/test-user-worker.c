/* test-user-worker.c — user kernels in a process of their own, without a GPU.
 *
 * The worker (tilelab-cli kernel-worker) is started for real and spoken to
 * over its pipes; its GPU is the stub's simulated one (TL_GPU_STUB_DEVICES,
 * the CUDA module pointed away), which computes a product with a plain
 * loop and acts out the two ways a broken kernel takes its process down:
 * an entry "tilelab_stub_crash" aborts the worker, "tilelab_stub_hang"
 * never returns.  Checked: C and the numbers come back whole, progress
 * arrives, a crash and a hang are errors in words (the watchdog), this
 * process lives on, the next run starts a new worker and passes, and a
 * cancel stops a run between launches.
 */
#include "run/tl-user-worker.h"
#include "run/tl-user-wire.h"
#include "core/tl-error.h"

#include <math.h>
#include <string.h>
#include <unistd.h>

typedef struct
{
  int m, k, n;
  TlGpuDtype dtype;
  void *a, *b, *c;
  int progress_calls;
  gboolean cancel_after_first;
} Problem;

static void
problem_init (Problem *p, TlGpuDtype dtype, int m, int k, int n, guint32 seed)
{
  memset (p, 0, sizeof *p);
  p->m = m, p->k = k, p->n = n, p->dtype = dtype;
  gsize es = dtype == TL_GPU_FLOAT64 ? 8 : 4;
  p->a = g_malloc ((gsize) m * k * es);
  p->b = g_malloc ((gsize) k * n * es);
  p->c = g_malloc ((gsize) m * n * es);
  g_autoptr (GRand) r = g_rand_new_with_seed (seed);
  for (gsize i = 0; i < (gsize) m * k + (gsize) k * n; i++)
    {
      void *base = i < (gsize) m * k ? p->a : p->b;
      gsize at = i < (gsize) m * k ? i : i - (gsize) m * k;
      if (dtype == TL_GPU_INT32)
        ((gint32 *) base)[at] = g_rand_int_range (r, -9, 10);
      else if (dtype == TL_GPU_FLOAT32)
        ((float *) base)[at] = (float) g_rand_double_range (r, -1, 1);
      else
        ((double *) base)[at] = g_rand_double_range (r, -1, 1);
    }
}

static void
problem_clear (Problem *p)
{
  g_free (p->a);
  g_free (p->b);
  g_free (p->c);
}

static double
at (const Problem *p, const void *x, gsize i)
{
  return p->dtype == TL_GPU_INT32     ? ((const gint32 *) x)[i]
         : p->dtype == TL_GPU_FLOAT32 ? ((const float *) x)[i]
                                      : ((const double *) x)[i];
}

static void
expect_product (const Problem *p)
{
  for (int i = 0; i < p->m; i++)
    for (int j = 0; j < p->n; j++)
      {
        double want = 0;
        for (int q = 0; q < p->k; q++)
          want += at (p, p->a, (gsize) i * p->k + q) * at (p, p->b, (gsize) q * p->n + j);
        g_assert_cmpfloat_with_epsilon (at (p, p->c, (gsize) i * p->n + j), want, 1e-4);
      }
}

static void
progress_cb (TlGpuStage stage, int step, int total, void *user_data)
{
  ((Problem *) user_data)->progress_calls++;
}

static int
cancelled_cb (void *user_data)
{
  Problem *p = user_data;
  return p->cancel_after_first && p->progress_calls > 0;
}

static gboolean
run (Problem *p, const char *entry, int repeats, double watchdog_s, GError **error)
{
  static const char image[] = "not a cubin: the simulated GPU computes the product itself";
  TlGpuUserLaunch k = {
    .name = "mine.cu", .image = image, .image_size = sizeof image, .entry = entry,
    .grid = { 3, 2, 1 }, .block = { 16, 16, 1 }, .dynamic_smem = 1024,
  };
  TlGpuGemmArgs a = {
    .dtype = p->dtype, .m = p->m, .n = p->n, .k = p->k, .a = p->a, .b = p->b, .c = p->c,
    .warmups = 2, .repeats = repeats, .progress = progress_cb, .cancelled = cancelled_cb,
    .user_data = p,
  };
  TlGpuGemmResult r;
  if (!tl_user_worker_run (0, &k, &a, watchdog_s, &r, error))
    return FALSE;
  g_assert_cmpint (r.n_times, ==, repeats);
  for (int i = 0; i < r.n_times; i++)
    g_assert_true (isfinite (r.times_ms[i]) && r.times_ms[i] >= 0);
  g_assert_cmpint (r.launch.grid_x, ==, 3);
  g_assert_cmpint (r.launch.block_y, ==, 16);
  g_assert_cmpint (r.launch.dynamic_smem_bytes, ==, 1024);
  tl_user_worker_result_clear (&r);
  return TRUE;
}

static void
test_good (void)
{
  for (int d = TL_GPU_INT32; d <= TL_GPU_FLOAT64; d++)
    {
      Problem p;
      problem_init (&p, (TlGpuDtype) d, 37, 19, 23, 7 + d);
      g_autoptr (GError) error = NULL;
      g_assert_true (run (&p, "gemm_mine", 3, 10, &error));
      g_assert_no_error (error);
      expect_product (&p);
      g_assert_cmpint (p.progress_calls, >=, 3);
      problem_clear (&p);
    }
  g_assert_cmpint (tl_user_worker_pid (), >, 0);
}

static void
test_crash_then_good (void)
{
  Problem p;
  problem_init (&p, TL_GPU_FLOAT32, 20, 10, 30, 1);
  g_autoptr (GError) error = NULL;
  g_assert_true (run (&p, "gemm_mine", 1, 10, &error));
  GPid before = tl_user_worker_pid ();
  g_assert_false (run (&p, "tilelab_stub_crash", 1, 10, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_LAUNCH_FAILED);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "mine.cu"));
  g_assert_nonnull (strstr (error->message, "ended before it answered"));
  g_assert_nonnull (strstr (error->message, "signal 6"));
  g_assert_cmpint (tl_user_worker_pid (), ==, 0);
  g_clear_error (&error);
  g_assert_true (run (&p, "gemm_mine", 2, 10, &error));
  g_assert_no_error (error);
  g_assert_cmpint (tl_user_worker_pid (), !=, before);
  expect_product (&p);
  problem_clear (&p);
}

static void
test_hang_watchdog (void)
{
  Problem p;
  problem_init (&p, TL_GPU_FLOAT64, 8, 8, 8, 2);
  g_autoptr (GError) error = NULL;
  gint64 t0 = g_get_monotonic_time ();
  g_assert_false (run (&p, "tilelab_stub_hang", 1, 0.5, &error));
  double waited = (g_get_monotonic_time () - t0) / 1e6;
  g_assert_error (error, TL_ERROR, TL_ERROR_LAUNCH_FAILED);
  g_test_message ("%s (after %.2f s)", error->message, waited);
  g_assert_nonnull (strstr (error->message, "watchdog"));
  g_assert_cmpfloat (waited, >=, 0.5);
  g_assert_cmpfloat (waited, <, 5.0);
  g_clear_error (&error);
  g_assert_true (run (&p, "gemm_mine", 1, 10, &error));
  expect_product (&p);
  problem_clear (&p);
}

static void
test_cancel (void)
{
  Problem p;
  problem_init (&p, TL_GPU_FLOAT32, 120, 120, 120, 3);
  p.cancel_after_first = TRUE;
  g_autoptr (GError) error = NULL;
  gint64 t0 = g_get_monotonic_time ();
  g_assert_false (run (&p, "gemm_mine", 100000, 10, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpfloat ((g_get_monotonic_time () - t0) / 1e6, <, 5.0);
  /* the worker lives on and serves the next run */
  p.cancel_after_first = FALSE;
  g_clear_error (&error);
  g_assert_true (run (&p, "gemm_mine", 1, 10, &error));
  expect_product (&p);
  problem_clear (&p);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  /* the worker runs on the stub's simulated GPU: the CUDA module pointed away */
  g_setenv ("TILELAB_GPU_BACKEND", "/nonexistent/libtilelab-gpu-cuda.so", TRUE);
  g_setenv ("TL_GPU_STUB_DEVICES", "1", TRUE);
  g_autofree char *cli = g_build_filename (g_getenv ("G_TEST_BUILDDIR") ? g_getenv ("G_TEST_BUILDDIR")
                                                                       : ".",
                                           "..", "src", "cli", "tilelab-cli", NULL);
  if (!g_getenv ("TILELAB_CLI"))
    g_setenv ("TILELAB_CLI", cli, TRUE);
  g_test_add_func ("/user-worker/good", test_good);
  g_test_add_func ("/user-worker/crash-then-good", test_crash_then_good);
  g_test_add_func ("/user-worker/hang-watchdog", test_hang_watchdog);
  g_test_add_func ("/user-worker/cancel", test_cancel);
  int rc = g_test_run ();
  tl_user_worker_stop ();
  return rc;
}
