/* test-gpu-session.c — the worker's GPU session: which device a job runs
 * on and which one its record names, the device probe, GPU statuses as
 * GErrors, the lost latch, the thread-default session and the runner's
 * background flag.
 *
 * The device tests need two devices and run anywhere: the stub pretends
 * two (TL_GPU_STUB_DEVICES=2, set below before the first door call) and
 * runs GEMMs on the CPU.  In a CUDA build the stub answers too: main()
 * points the loader at a module that does not exist, so these tests also
 * check that the stub's answers reach the runner through the loader (the
 * real devices are the GPU tests' business).
 */
#include "core/tl-error.h"
#include "device/tl-gpu-session.h"
#include "run/tl-runner.h"

#include <errno.h>
#include <string.h>
#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

static TlJob *
gemm_job (int device)
{
  TlJob *job = tl_job_new_gemm (23, 17, 11, TL_DTYPE_FLOAT32);
  g_strfreev (job->kernels);
  job->kernels = g_strsplit ("gemm-03-smem16", ",", -1);
  job->device = device;
  job->repeats = 2;
  job->warmups = 0;
  job->a.seed = (guint64) g_test_rand_int ();
  job->b.seed = (guint64) g_test_rand_int ();
  return job;
}

static void
test_probe (void)
{
  g_autoptr (TlRunner) runner = tl_runner_new_full (TL_RUNNER_FLAGS_NONE);
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) devices = tl_runner_probe_devices (runner, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (devices->len, ==, 2);
  for (guint i = 0; i < devices->len; i++)
    {
      const TlGpuFacts *f = &g_array_index (devices, TlGpuFacts, i);
      g_autofree char *name = g_strdup_printf ("Simulated GPU %u", i);
      g_assert_cmpint (f->ordinal, ==, (int) i);
      g_assert_cmpstr (f->name, ==, name);
    }
}

/* A job for device 1 runs on device 1, and its record says 1; then a job
 * for device 0 runs on 0, on the same worker. */
static void
test_job_runs_on_its_device (void)
{
  g_autoptr (TlRunner) runner = tl_runner_new_full (TL_RUNNER_FLAGS_NONE);
  int before0 = tl_gpu_debug_gemm_count (0), before1 = tl_gpu_debug_gemm_count (1);

  g_autoptr (TlJob) on1 = gemm_job (1);
  g_autoptr (GError) error = NULL;
  g_autoptr (TlRunRecord) r1 = tl_runner_run_gemm (runner, on1, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (tl_gpu_debug_gemm_count (1), ==, before1 + 1);
  g_assert_cmpint (tl_gpu_debug_gemm_count (0), ==, before0);
  g_assert_true (r1->has_device);
  g_assert_cmpint (r1->device.ordinal, ==, 1);
  g_assert_cmpstr (r1->device.name, ==, "Simulated GPU 1");
  g_assert_cmpint (r1->job->device, ==, 1);
  TlKernelRun *run = r1->runs->pdata[0];
  g_assert_cmpint (run->status, ==, TL_RUN_OK);
  g_assert_true (run->passed); /* the simulated device computes the true product */

  g_autoptr (TlJob) on0 = gemm_job (0);
  g_autoptr (TlRunRecord) r0 = tl_runner_run_gemm (runner, on0, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (tl_gpu_debug_gemm_count (0), ==, before0 + 1);
  g_assert_cmpint (tl_gpu_debug_gemm_count (1), ==, before1 + 1);
  g_assert_cmpint (r0->device.ordinal, ==, 0);
  g_assert_cmpstr (r0->device.name, ==, "Simulated GPU 0");
}

/* A device that does not exist: the kernel's run says so, the record
 * names no device, and the job still finishes. */
static void
test_missing_device (void)
{
  g_autoptr (TlRunner) runner = tl_runner_new_full (TL_RUNNER_FLAGS_NONE);
  g_autoptr (TlJob) job = gemm_job (5);
  g_autoptr (GError) error = NULL;
  g_autoptr (TlRunRecord) r = tl_runner_run_gemm (runner, job, NULL, &error);
  g_assert_no_error (error);
  TlKernelRun *run = r->runs->pdata[0];
  g_assert_cmpint (run->status, ==, TL_RUN_ERROR);
  g_assert_cmpint (run->error_code, ==, TL_ERROR_NO_DEVICE);
  g_assert_nonnull (strstr (run->message, "GPU 5"));
  g_assert_false (r->has_device);
}

static gpointer
session_is_default_job (TlRunnerJob *job, gpointer data, GCancellable *cancellable,
                        GError **error)
{
  gboolean same = tl_gpu_session_get_thread_default () == tl_runner_job_get_gpu (job)
                  && tl_runner_job_get_gpu (job) != NULL;
  return GINT_TO_POINTER (same ? 1 : 2);
}

static void
test_thread_default (void)
{
  g_autoptr (TlRunner) runner = tl_runner_new_full (TL_RUNNER_FLAGS_NONE);
  g_autoptr (GError) error = NULL;
  gpointer same = tl_runner_run_func (runner, session_is_default_job, NULL, NULL, NULL, NULL,
                                      &error);
  g_assert_no_error (error);
  g_assert_cmpint (GPOINTER_TO_INT (same), ==, 1);
  g_assert_null (tl_gpu_session_get_thread_default ()); /* not on this thread */
}

#ifdef __linux__
static gpointer
nice_job (TlRunnerJob *job, gpointer data, GCancellable *cancellable, GError **error)
{
  errno = 0;
  int nice = getpriority (PRIO_PROCESS, (id_t) syscall (SYS_gettid));
  return GINT_TO_POINTER (100 + nice); /* never NULL */
}
#endif

static void
test_background_flag (void)
{
#ifdef __linux__
  errno = 0;
  int ours = getpriority (PRIO_PROCESS, (id_t) syscall (SYS_gettid));
  g_autoptr (TlRunner) plain = tl_runner_new_full (TL_RUNNER_FLAGS_NONE);
  g_autoptr (TlRunner) background = tl_runner_new_full (TL_RUNNER_BACKGROUND);
  g_autoptr (GError) error = NULL;
  int plain_nice = GPOINTER_TO_INT (tl_runner_run_func (plain, nice_job, NULL, NULL, NULL, NULL,
                                                        &error)) - 100;
  g_assert_no_error (error);
  int background_nice = GPOINTER_TO_INT (tl_runner_run_func (background, nice_job, NULL, NULL,
                                                             NULL, NULL, &error)) - 100;
  g_assert_no_error (error);
  g_assert_cmpint (plain_nice, ==, ours);
  g_assert_cmpint (background_nice, ==, MAX (ours, 5));
#else
  g_test_skip ("thread nice values are Linux's");
#endif
}

/* Every status becomes its error code, with the door's message. */
static void
test_status_to_error (void)
{
  const struct
  {
    TlGpuStatus status;
    GQuark domain;
    int code;
  } cases[] = {
    { TL_GPU_NO_DEVICE, TL_ERROR, TL_ERROR_NO_DEVICE },
    { TL_GPU_OUT_OF_MEMORY, TL_ERROR, TL_ERROR_OUT_OF_MEMORY },
    { TL_GPU_BAD_SHAPE, TL_ERROR, TL_ERROR_SHAPE },
    { TL_GPU_LAUNCH_FAILED, TL_ERROR, TL_ERROR_LAUNCH_FAILED },
    { TL_GPU_DEVICE_LOST, TL_ERROR, TL_ERROR_DEVICE_LOST },
    { TL_GPU_CANCELLED, G_IO_ERROR, G_IO_ERROR_CANCELLED },
  };
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      g_assert_false (tl_gpu_error_set (&error, cases[i].status, "gemm-03-smem16"));
      g_assert_error (error, cases[i].domain, cases[i].code);
    }
  g_autoptr (GError) shape = NULL;
  tl_gpu_error_set (&shape, TL_GPU_BAD_SHAPE, "gemm-09-warptile");
  g_assert_nonnull (strstr (shape->message, "gemm-09-warptile"));
}

static gpointer
fault_job (TlRunnerJob *job, gpointer data, GCancellable *cancellable, GError **error)
{
  TlGpuDevice *device = tl_gpu_session_get_device (tl_runner_job_get_gpu (job), 1, error);
  if (device == NULL)
    return NULL;
  TlGpuStatus status = tl_gpu_debug_fault (device);
  return GINT_TO_POINTER (status == TL_GPU_DEVICE_LOST ? 1 : 2);
}

/* After a sticky fault every GPU kernel is skipped and the session refuses
 * devices: the door's one latch.  Last: it lasts for the process. */
static void
test_lost_latch (void)
{
  g_autoptr (TlRunner) runner = tl_runner_new_full (TL_RUNNER_FLAGS_NONE);
  g_autoptr (GError) error = NULL;
  g_assert_false (tl_gpu_lost ());
  gpointer faulted = tl_runner_run_func (runner, fault_job, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (GPOINTER_TO_INT (faulted), ==, 1);
  g_assert_true (tl_gpu_lost ());

  g_autoptr (TlJob) job = gemm_job (0);
  g_autoptr (TlRunRecord) r = tl_runner_run_gemm (runner, job, NULL, &error);
  g_assert_no_error (error);
  TlKernelRun *run = r->runs->pdata[0];
  g_assert_cmpint (run->status, ==, TL_RUN_SKIPPED);

  g_autoptr (TlGpuSession) session = tl_gpu_session_new ();
  g_assert_null (tl_gpu_session_get_device (session, 0, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_DEVICE_LOST);
}

int
main (int argc, char **argv)
{
  /* before the first door call: the stub reads it once */
  g_setenv ("TL_GPU_STUB_DEVICES", "2", TRUE);
  /* a CUDA build: no module, so the stub answers behind the loader */
  g_setenv ("TILELAB_GPU_BACKEND", "/nonexistent/libtilelab-gpu-cuda.so", TRUE);
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gpu-session/probe", test_probe);
  g_test_add_func ("/gpu-session/job-runs-on-its-device", test_job_runs_on_its_device);
  g_test_add_func ("/gpu-session/missing-device", test_missing_device);
  g_test_add_func ("/gpu-session/thread-default", test_thread_default);
  g_test_add_func ("/gpu-session/background-flag", test_background_flag);
  g_test_add_func ("/gpu-session/status-to-error", test_status_to_error);
  g_test_add_func ("/gpu-session/lost-latch", test_lost_latch);
  return g_test_run ();
}
