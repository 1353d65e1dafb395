/* test-gpu-remote.c — the worker protocol with real GPU kernels.
 *
 * On a GPU machine (exit 77 without one) every GPU rung runs through a
 * worker process reached by the local pipe transport — the app's way to
 * a GPU elsewhere, minus ssh: each GEMM rung at odd shapes in float32 and
 * float64, checked against the float64 reference there and coming back
 * with its C; each GPU Gauss rung, its determinant compared with this
 * process's CPU factorisation.  Then a cancel during a launch of about
 * 2 s: the outcome must arrive within that launch plus 0.5 s.
 *
 * The worker is this program's sibling tilelab-cli (the GPU bundle's
 * bin/), else $TL_CLI, else the build tree's.
 */
#include "remote-test-util.h"
#include "tl-gpu-test-util.h"

#include "gemm/tl-kernels.h"
#include "gen/tl-generate.h"
#include "lu/tl-lu.h"
#include "run/tl-gauss-run.h"

#include <math.h>

static TlRemoteHost *
local_worker (void)
{
  g_autoptr (TlRemoteTarget) t = tl_remote_target_new (NULL, NULL, cli_path);
  return tl_remote_host_new (t);
}

/* Every GPU rung of the ladder at an odd shape, in one job per dtype. */
static void
test_every_gemm_rung (void)
{
  const TlDtype dtypes[] = { TL_DTYPE_FLOAT32, TL_DTYPE_FLOAT64 };
  TlRemoteHost *host = local_worker ();
  for (guint d = 0; d < G_N_ELEMENTS (dtypes); d++)
    {
      Waiter w;
      waiter_init (&w, tl_remote_host_get_runner (host));
      g_autoptr (TlJob) job = remote_test_job (513, 257, 769, "gpu", 3);
      job->dtype = dtypes[d];
      job->instrument = TRUE;
      g_autoptr (GError) error = NULL;
      g_autoptr (TlRunRecord) record = remote_test_gemm (host, job, &w, &error);
      g_assert_no_error (error);
      guint ok = 0;
      for (guint i = 0; i < record->runs->len; i++)
        {
          TlKernelRun *run = record->runs->pdata[i];
          printf ("# %-8s %-28s %-8s %s\n", tl_dtype_name (job->dtype), run->kernel_id,
                  tl_run_status_name (run->status),
                  run->status == TL_RUN_OK ? (run->passed ? "passed" : "FAILED")
                                           : (run->message ? run->message : ""));
          g_assert_cmpint (run->status, !=, TL_RUN_ERROR);
          if (run->status != TL_RUN_OK)
            continue;
          g_assert_true (run->passed);
          g_assert_nonnull (run->c);
          g_assert_cmpuint (run->c->rows, ==, 513);
          ok++;
        }
      g_assert_cmpuint (ok, >, 0);
      g_assert_true (record->has_device);
      g_assert_cmpuint (w.n_kernels, ==, record->runs->len);
      waiter_clear (&w, tl_remote_host_get_runner (host));
    }
  tl_remote_host_free (host);
}

/* Every GPU Gauss rung: the worker's determinant is this process's. */
static void
test_every_gauss_rung (void)
{
  TlRemoteHost *host = local_worker ();
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) a = tl_generate ("random-uniform", TL_DTYPE_FLOAT64, 1000, 1000, 17, &error);
  g_autoptr (TlLuResult) here = NULL;
  g_assert_true (tl_lu_factor ("lu-cpu-blocked", a, 0, TL_PIVOTING_PARTIAL, NULL, NULL, &here,
                               &error));
  for (guint i = 0; i < tl_lu_kernel_count (); i++)
    {
      const TlLuKernelInfo *info = tl_lu_kernel_get (i);
      if (info->backend != TL_BACKEND_GPU || !(info->dtypes & TL_DTYPE_BIT (TL_DTYPE_FLOAT64)))
        continue;
      Waiter w;
      waiter_init (&w, tl_remote_host_get_runner (host));
      TlGaussJob job = { .kind = TL_GAUSS_FACTOR, .a = a };
      job.options.kernel_id = info->id;
      job.options.pivoting = TL_PIVOTING_PARTIAL;
      tl_remote_host_run_gauss_async (host, &job, NULL, waiter_done_cb, &w);
      waiter_run (&w);
      g_autoptr (TlGaussResult) done = tl_runner_run_gauss_finish (tl_remote_host_get_runner (host),
                                                                   w.result, &error);
      if (g_error_matches (error, TL_ERROR, TL_ERROR_UNSUPPORTED)
          || g_error_matches (error, TL_ERROR, TL_ERROR_SHAPE))
        {
          printf ("# %-20s skipped: %s\n", info->id, error->message);
          g_clear_error (&error);
          waiter_clear (&w, tl_remote_host_get_runner (host));
          continue;
        }
      g_assert_no_error (error);
      printf ("# %-20s ln|det| %.9f (here %.9f), %.3f ms\n", info->id, done->lu->log_abs_det,
              here->log_abs_det, done->lu->elapsed_s * 1e3);
      g_assert_cmpint (done->lu->det_sign, ==, here->det_sign);
      g_assert_cmpfloat (fabs (done->lu->log_abs_det - here->log_abs_det), <,
                         1e-8 * fabs (here->log_abs_det) + 1e-8);
      waiter_clear (&w, tl_remote_host_get_runner (host));
    }
  tl_remote_host_free (host);
}

/* The median time of one gemm-01-naive launch at n³, measured through the worker. */
static double
naive_launch_ms (TlRemoteHost *host, gsize n)
{
  Waiter w;
  waiter_init (&w, tl_remote_host_get_runner (host));
  g_autoptr (TlJob) job = remote_test_job (n, n, n, "gemm-01-naive", 2);
  job->warmups = 0;
  job->keep_matrices = FALSE;
  g_autoptr (GError) error = NULL;
  g_autoptr (TlRunRecord) record = remote_test_gemm (host, job, &w, &error);
  g_assert_no_error (error);
  waiter_clear (&w, tl_remote_host_get_runner (host));
  TlKernelRun *run = record->runs->pdata[0];
  g_assert_cmpint (run->status, ==, TL_RUN_OK);
  return run->time.median;
}

/* Escape during a launch of about 2 s: the outcome within it plus 0.5 s. */
static void
test_cancel_within_a_launch (void)
{
  TlRemoteHost *host = local_worker ();
  double t0 = naive_launch_ms (host, 2048);
  /* the naive rung's time grows as n³: the size of a 2 s launch */
  gsize n = (gsize) (2048 * cbrt (2000.0 / MAX (t0, 1.0)));
  n = CLAMP (n, 2048, 16384) / 64 * 64;
  double launch_ms = naive_launch_ms (host, n);

  Waiter w;
  waiter_init (&w, tl_remote_host_get_runner (host));
  g_autoptr (TlJob) job = remote_test_job (n, n, n, "gemm-01-naive", 20);
  job->warmups = 0;
  job->keep_matrices = FALSE;
  w.cancel_at = "run 2 of 20";
  g_autoptr (GError) error = NULL;
  g_autoptr (TlRunRecord) record = remote_test_gemm (host, job, &w, &error);
  double latency_ms = (g_get_monotonic_time () - w.cancelled_us) / 1000.0;
  printf ("# cancel during a %.0f ms launch (gemm-01-naive, n = %zu): outcome after %.0f ms\n",
          launch_ms, n, latency_ms);
  g_assert_cmpint (w.cancelled_us, >, 0);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpfloat (latency_ms, <, launch_ms + 500);
  waiter_clear (&w, tl_remote_host_get_runner (host));
  tl_remote_host_free (host);
}

/* The worker beside this program (the bundle), else the usual places. */
static void
locate_worker (void)
{
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *dir = self ? g_path_get_dirname (self) : NULL;
  g_autofree char *beside = dir ? g_build_filename (dir, "tilelab-cli", NULL) : NULL;
  if (beside && g_getenv ("TL_CLI") == NULL && g_file_test (beside, G_FILE_TEST_IS_EXECUTABLE))
    {
      cli_path = g_steal_pointer (&beside);
      return;
    }
  cli_test_locate ();
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  tl_gpu_test_require_device ();
  locate_worker ();
  if (!g_file_test (cli_path, G_FILE_TEST_IS_EXECUTABLE))
    {
      printf ("SKIP: no tilelab-cli for the worker (%s)\n", cli_path);
      return TL_TEST_SKIP;
    }
  g_test_add_func ("/gpu/remote/every-gemm-rung", test_every_gemm_rung);
  g_test_add_func ("/gpu/remote/every-gauss-rung", test_every_gauss_rung);
  g_test_add_func ("/gpu/remote/cancel-within-a-launch", test_cancel_within_a_launch);
  return g_test_run ();
}
