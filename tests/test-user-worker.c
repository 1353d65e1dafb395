/* test-user-worker.c — user kernels in a process of their own, without a GPU.
 *
 * The worker is `tilelab-cli serve --stdio`, started for real through the
 * local pipe transport and given "user-gemm" jobs: the kernel's text, its
 * build (compiled here: the worker runs the image it is sent and never
 * compiles), A and B uploaded.  Its GPU is the stub's simulated one
 * (TL_GPU_STUB_DEVICES, the CUDA module pointed away), which "compiles"
 * any text, computes a product with a plain loop and acts out what a
 * kernel may do to its process: an entry "tilelab_stub_crash" aborts the
 * worker, "tilelab_stub_hang" never returns, "tilelab_stub_slow_load"
 * takes 1.5 s before its first launch.  Checked: C and the numbers come
 * back whole, progress arrives, a crash and a hang are errors in words
 * (the watchdog, which counts launches only: a slow start is no hang),
 * this process lives on, the next run starts a new worker and passes, a
 * cancel stops a run between launches; the worker runs the build it was
 * sent (an entry of the build, not of the text), and refuses a build for
 * another architecture; the job's messages one by one; a text the worker
 * cannot read, and a worker with no GPU, are errors in words.  And through tilelab-cli's remote path
 * (--remote-cli: the local pipe in place of ssh): `gemm --kernel
 * mine.cu,cpu-naive` uploads the file, the remote tilelab-cli runs it in
 * a worker of its own and the record comes back with the kernel's text;
 * on a machine without a GPU the answer says so.  And as the app runs on
 * a host (TlRemoteHost, here a local worker): the job carries the
 * kernel's text, the worker registers it under the app's id.
 */
#include "remote-test-util.h"
#include "core/tl-error.h"
#include "core/tl-json.h"
#include "record/tl-record-file.h"
#include "record/tl-record.h"
#include "remote/tl-remote-connection.h"
#include "remote/tl-remote-user.h"
#include "remote/tl-user-job.h"
#include "remote/tl-wire.h"
#include "run/tl-user-worker.h"

#include <glib/gstdio.h>
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
  gint64 cancel_at;     /* monotonic µs after which to cancel, or 0 */
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
  return (p->cancel_after_first && p->progress_calls > 0)
         || (p->cancel_at && g_get_monotonic_time () > p->cancel_at);
}

/* A kernel file whose every entry is `entry`, launched on a 3×2 grid of
 * 16×16 blocks with 1 KiB of shared memory. */
static TlUserKernel *
kernel_new (const char *entry)
{
  g_autofree char *text = g_strdup_printf ("// tilelab: int32 = %s\n"
                                           "// tilelab: float32 = %s\n"
                                           "// tilelab: float64 = %s\n"
                                           "// tilelab: block = 16, 16\n"
                                           "// tilelab: grid = 3, 2\n"
                                           "// tilelab: shared = 1024\n"
                                           "__global__ void %s () {}\n",
                                           entry, entry, entry, entry);
  g_autoptr (GError) error = NULL;
  TlUserKernel *kernel = tl_user_kernel_parse ("dir/mine.cu", text, &error);
  g_assert_no_error (error);
  return kernel;
}

static TlGpuGemmArgs
args_of (Problem *p, int repeats)
{
  return (TlGpuGemmArgs) {
    .dtype = p->dtype, .m = p->m, .n = p->n, .k = p->k, .a = p->a, .b = p->b, .c = p->c,
    .warmups = 2, .repeats = repeats, .progress = progress_cb, .cancelled = cancelled_cb,
    .user_data = p,
  };
}

/* What the simulated compile makes of a kernel whose entry is `entry`,
 * for the simulated GPU (sm_90). */
static TlUserBuild *
build_new (const char *entry, TlGpuDtype dtype, int arch)
{
  g_autoptr (GBytes) image = g_bytes_new_static ("simulated cubin", 16);
  return tl_user_build_new_compiled (arch, (TlDtype) dtype, entry, image, NULL);
}

/* Runs kernel_new (entry) in the worker as built for build_entry. */
static gboolean
run_build (Problem *p, const char *entry, const char *build_entry, int arch, int repeats,
           double watchdog_s, GError **error)
{
  g_autoptr (TlUserKernel) kernel = kernel_new (entry);
  g_autoptr (TlUserBuild) build = build_new (build_entry, p->dtype, arch);
  TlGpuGemmArgs a = args_of (p, repeats);
  TlGpuGemmResult r;
  if (!tl_user_worker_run (kernel, build, 0, &a, watchdog_s, &r, error))
    return FALSE;
  g_assert_cmpint (r.n_times, ==, repeats);
  for (int i = 0; i < r.n_times; i++)
    g_assert_true (isfinite (r.times_ms[i]) && r.times_ms[i] >= 0);
  g_assert_cmpint (r.launch.grid_x, ==, 3);
  g_assert_cmpint (r.launch.grid_y, ==, 2);
  g_assert_cmpint (r.launch.block_y, ==, 16);
  g_assert_cmpint (r.launch.dynamic_smem_bytes, ==, 1024);
  tl_user_worker_result_clear (&r);
  return TRUE;
}

static gboolean
run (Problem *p, const char *entry, int repeats, double watchdog_s, GError **error)
{
  return run_build (p, entry, entry, 90, repeats, watchdog_s, error);
}

static void
test_good (void)
{
  for (int d = TL_GPU_INT32; d <= TL_GPU_FLOAT64; d++)
    {
      Problem p;
      problem_init (&p, (TlGpuDtype) d, 37, 19, 23, 7 + d);
      g_autoptr (GError) error = NULL;
      gboolean ok = run (&p, "gemm_mine", 3, 10, &error);
      g_assert_no_error (error);
      g_assert_true (ok);
      expect_product (&p);
      g_assert_cmpint (p.progress_calls, >=, 3);
      problem_clear (&p);
    }
  g_assert_cmpint (tl_remote_user_worker_pid (), >, 0);
}

static void
test_crash_then_good (void)
{
  Problem p;
  problem_init (&p, TL_GPU_FLOAT32, 20, 10, 30, 1);
  g_autoptr (GError) error = NULL;
  g_assert_true (run (&p, "gemm_mine", 1, 10, &error));
  GPid before = tl_remote_user_worker_pid ();
  g_assert_false (run (&p, "tilelab_stub_crash", 1, 10, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_LAUNCH_FAILED);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "mine.cu"));
  g_assert_nonnull (strstr (error->message, "ended before it answered"));
  g_assert_nonnull (strstr (error->message, "status 134")); /* 128 + SIGABRT */
  g_assert_cmpint (tl_remote_user_worker_pid (), ==, 0);
  g_clear_error (&error);
  g_assert_true (run (&p, "gemm_mine", 2, 10, &error));
  g_assert_no_error (error);
  g_assert_cmpint (tl_remote_user_worker_pid (), !=, before);
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

/* The watchdog counts the kernel's launches, not what comes before the
 * first (a start of 1.5 s, three times its time here). */
static void
test_slow_start (void)
{
  Problem p;
  problem_init (&p, TL_GPU_FLOAT32, 9, 10, 11, 8);
  g_autoptr (GError) error = NULL;
  gint64 t0 = g_get_monotonic_time ();
  gboolean ok = run (&p, "tilelab_stub_slow_load", 1, 0.5, &error);
  double took = (g_get_monotonic_time () - t0) / 1e6;
  g_test_message ("%.2f s", took);
  g_assert_no_error (error);
  g_assert_true (ok);
  g_assert_cmpfloat (took, >=, 1.5);
  expect_product (&p);
  problem_clear (&p);
}

/* The worker runs the build it was sent, never a compile of its own: the
 * build's entry (one that crashes) is run, not the text's (a good one);
 * a build for another architecture is refused in words. */
static void
test_sent_build (void)
{
  Problem p;
  problem_init (&p, TL_GPU_FLOAT32, 12, 7, 5, 9);
  g_autoptr (GError) error = NULL;
  g_assert_false (run_build (&p, "gemm_mine", "tilelab_stub_crash", 90, 1, 10, &error));
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "ended before it answered"));
  g_clear_error (&error);
  g_assert_false (run_build (&p, "gemm_mine", "gemm_mine", 80, 1, 10, &error));
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "compiled for sm_80, and GPU 0 is sm_90"));
  g_assert_cmpint (tl_remote_user_worker_pid (), >, 0); /* said by a worker that lives on */
  g_clear_error (&error);
  g_assert_true (run_build (&p, "gemm_mine", "gemm_mine", 90, 1, 10, &error));
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

/* A cancel of a kernel that never reaches a launch boundary ends its
 * worker after a grace of 2 s, long before the watchdog. */
static void
test_cancel_hang (void)
{
  Problem p;
  problem_init (&p, TL_GPU_FLOAT32, 8, 8, 8, 7);
  gint64 t0 = g_get_monotonic_time ();
  p.cancel_at = t0 + 300000;
  g_autoptr (GError) error = NULL;
  g_assert_false (run (&p, "tilelab_stub_hang", 1, 60, &error));
  double waited = (g_get_monotonic_time () - t0) / 1e6;
  g_test_message ("%s (after %.2f s)", error->message, waited);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_nonnull (strstr (error->message, "did not reach the end of a launch"));
  g_assert_cmpfloat (waited, >=, 2.0);
  g_assert_cmpfloat (waited, <, 10.0);
  p.cancel_at = 0;
  g_clear_error (&error);
  g_assert_true (run (&p, "gemm_mine", 1, 10, &error));
  expect_product (&p);
  problem_clear (&p);
}

/* ---- the job's messages, through a connection of this test's own ---------- */

typedef struct
{
  GString *seen;       /* the messages' types, in order */
  int runs;            /* progress of stage "run" */
  TlMatrix *c;
} Messages;

static gboolean
on_message (TlRemoteConnection *conn, const char *type, JsonObject *message, GBytes *payload,
            gpointer data, GError **error)
{
  Messages *m = data;
  if (m->seen->len == 0 || !g_str_has_suffix (m->seen->str, type))
    g_string_append_printf (m->seen, "%s%s", m->seen->len ? " " : "", type);
  if (strcmp (type, "progress") == 0
      && strcmp (tl_json_object_get_string (message, "stage", ""), "run") == 0)
    m->runs++;
  if (strcmp (type, "matrix") == 0)
    {
      g_assert_cmpstr (tl_json_object_get_string (message, "name", ""), ==, "c");
      m->c = tl_remote_connection_take_matrix (conn, payload, "C", error);
      return m->c != NULL;
    }
  return TRUE;
}

/* Runs one user-gemm job of kernel on a fresh worker; its done message. */
static JsonObject *
run_job (TlUserKernel *kernel, Problem *p, Messages *m, GError **error)
{
  g_autoptr (TlRemoteTarget) here = tl_remote_target_new (NULL, NULL, NULL);
  TlRemoteConnection *conn = tl_remote_connection_new (here);
  gsize es = p->dtype == TL_GPU_FLOAT64 ? 8 : 4;
  g_autoptr (TlMatrix) a = tl_matrix_new ((TlDtype) p->dtype, p->m, p->k, NULL);
  g_autoptr (TlMatrix) b = tl_matrix_new ((TlDtype) p->dtype, p->k, p->n, NULL);
  memcpy (a->data, p->a, (gsize) p->m * p->k * es);
  memcpy (b->data, p->b, (gsize) p->k * p->n * es);
  g_autoptr (GBytes) npy_a = tl_wire_matrix_to_npy (a, NULL);
  g_autoptr (GBytes) npy_b = tl_wire_matrix_to_npy (b, NULL);
  g_autofree char *sha_a = tl_remote_connection_upload (conn, npy_a, "A", NULL, error);
  g_autofree char *sha_b = sha_a ? tl_remote_connection_upload (conn, npy_b, "B", NULL, error)
                                 : NULL;
  TlGpuGemmArgs args = args_of (p, 4);
  /* compiled here (simulated), sent as the client sends it */
  g_autoptr (TlUserBuild) build = tl_user_kernel_compile (kernel, 90, error);
  g_assert_true (build != NULL && build->compiled);
  TlDtype dtype = (TlDtype) p->dtype;
  TlUserJobBuild sent = { .arch = 90, .entry = build->lowered[dtype] ? build->lowered[dtype] : "-" };
  g_autofree char *sha_image = sha_b ? tl_remote_connection_upload (conn, build->image, "mine.cu",
                                                                    NULL, error)
                                     : NULL;
  sent.sha_image = sha_image;
  JsonObject *done = sha_image ? tl_remote_connection_run_job (conn,
                                                               tl_user_job_begin (kernel, &sent, 0,
                                                                                  &args, sha_a,
                                                                                  sha_b),
                                                               on_message, m, NULL, error)
                               : NULL;
  tl_remote_connection_free (conn);
  return done;
}

static void
messages_clear (Messages *m)
{
  g_string_free (m->seen, TRUE);
  g_clear_pointer (&m->c, tl_matrix_unref);
}

static void
test_job_messages (void)
{
  Problem p;
  problem_init (&p, TL_GPU_FLOAT64, 17, 9, 13, 4);
  g_autoptr (TlUserKernel) kernel = kernel_new ("gemm_mine");
  Messages m = { g_string_new (NULL) };
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonObject) done = run_job (kernel, &p, &m, &error);
  g_assert_no_error (error);
  g_test_message ("%s", m.seen->str);
  g_assert_cmpstr (tl_json_object_get_string (done, "status", ""), ==, "ok");
  /* progress (no compile there), the numbers, then C */
  g_assert_cmpstr (m.seen->str, ==, "progress result matrix");
  g_assert_cmpint (m.runs, ==, 4);
  g_assert_nonnull (m.c);
  memcpy (p.c, m.c->data, (gsize) p.m * p.n * 8);
  expect_product (&p);
  messages_clear (&m);
  problem_clear (&p);
}

static void
test_job_refused (void)
{
  Problem p;
  problem_init (&p, TL_GPU_FLOAT32, 5, 6, 7, 5);
  /* a kernel this process could read, with no entry for float32 */
  g_autoptr (TlUserKernel) kernel = tl_user_kernel_parse ("mine.cu",
                                                          "// tilelab: float64 = k\n"
                                                          "// tilelab: block = 8\n"
                                                          "// tilelab: grid = m\n",
                                                          NULL);
  g_assert_nonnull (kernel);
  Messages m = { g_string_new (NULL) };
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonObject) done = run_job (kernel, &p, &m, &error);
  g_assert_no_error (error);
  g_autoptr (GError) said = tl_wire_get_error (done);
  g_test_message ("%s", said->message);
  g_assert_error (said, TL_ERROR, TL_ERROR_UNSUPPORTED);
  g_assert_nonnull (strstr (said->message, "mine.cu has no float32 entry"));
  g_assert_null (m.c);
  messages_clear (&m);
  problem_clear (&p);
}

/* A worker on a machine without a GPU says so, and nothing else. */
static void
test_no_gpu (void)
{
  tl_user_worker_stop ();
  g_setenv ("TL_GPU_STUB_DEVICES", "0", TRUE);
  Problem p;
  problem_init (&p, TL_GPU_FLOAT32, 8, 8, 8, 6);
  g_autoptr (GError) error = NULL;
  g_assert_false (run (&p, "gemm_mine", 1, 10, &error));
  g_test_message ("%s", error ? error->message : "");
  g_assert_error (error, TL_ERROR, TL_ERROR_NO_DEVICE);
  g_assert_nonnull (strstr (error->message, "No usable CUDA GPU"));
  /* the answer is the worker's, which lives on */
  g_assert_cmpint (tl_remote_user_worker_pid (), >, 0);
  tl_user_worker_stop ();
  g_setenv ("TL_GPU_STUB_DEVICES", "1", TRUE);
  problem_clear (&p);
}

/* ---- the CLI's remote path: gemm --kernel FILE.cu on the worker ------------- */

static char *
write_kernel_file (const char *dir)
{
  g_autoptr (TlUserKernel) kernel = kernel_new ("gemm_mine");
  char *path = g_build_filename (dir, "mine.cu", NULL);
  g_assert_true (g_file_set_contents (path, tl_user_kernel_source (kernel), -1, NULL));
  return path;
}

static void
test_cli_remote (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tl-user-cli-XXXXXX", NULL);
  g_autofree char *kernel = write_kernel_file (dir);
  g_autofree char *list = g_strconcat (kernel, ",cpu-naive", NULL);
  g_autofree char *record = g_build_filename (dir, "run.json", NULL);
  const char *args[] = { "--remote-cli", cli_path, "gemm", "--kernel", list, "--size", "37x19x23",
                         "--repeats", "2", "--record", record, NULL };
  g_autofree char *out = NULL, *err = NULL;
  int rc = cli_test_spawn (args, NULL, &out, &err);
  g_test_message ("%s%s", out, err);
  g_assert_cmpint (rc, ==, 0);
  g_autoptr (GError) error = NULL;
  g_autoptr (TlRunRecord) r = tl_run_record_load (record, TL_RECORD_LOAD_DEFAULT, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (r->runs->len, ==, 2);
  for (guint i = 0; i < r->runs->len; i++)
    {
      const TlKernelRun *run = r->runs->pdata[i];
      g_assert_cmpint (run->status, ==, TL_RUN_OK);
      g_assert_true (run->passed);
    }
  /* the record carries the kernel's text, and where it ran */
  JsonObject *uk = json_object_get_object_member (r->extensions, "user_kernels");
  g_assert_nonnull (uk);
  g_assert_nonnull (json_object_get_member (r->extensions, "remote"));
  g_unlink (record);
  g_unlink (kernel);
  g_rmdir (dir);
}

/* kernel check there: the file goes, the report comes back naming it as
 * it is here. */
static void
test_cli_remote_check (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tl-user-cli-XXXXXX", NULL);
  g_autofree char *kernel = write_kernel_file (dir);
  const char *args[] = { "--remote-cli", cli_path, "kernel", "check", kernel, NULL };
  g_autofree char *out = NULL, *err = NULL;
  int rc = cli_test_spawn (args, NULL, &out, &err);
  g_test_message ("exit %d\n%s%s", rc, out, err);
  g_assert_cmpint (rc, ==, 0);
  g_assert_nonnull (strstr (out, "sm_90"));  /* the worker's (simulated) GPU */
  g_assert_null (strstr (out, "tilelab-worker-"));
  g_unlink (kernel);
  g_rmdir (dir);
}

static void
test_cli_remote_no_gpu (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tl-user-cli-XXXXXX", NULL);
  g_autofree char *kernel = write_kernel_file (dir);
  const char *args[] = { "--remote-cli", cli_path, "gemm", "--kernel", kernel, "--size", "16",
                         NULL };
  g_auto (GStrv) env = g_environ_setenv (g_get_environ (), "TL_GPU_STUB_DEVICES", "0", TRUE);
  g_autofree char *out = NULL, *err = NULL;
  int rc = cli_test_spawn (args, env, &out, &err);
  g_test_message ("exit %d\n%s%s", rc, out, err);
  g_assert_cmpint (rc, !=, 0);
  g_autofree char *all = g_strconcat (out, err, NULL);
  g_assert_nonnull (strstr (all, "GPU"));
  g_unlink (kernel);
  g_rmdir (dir);
}

/* ---- the app's way: a GEMM job on a host, the kernel's text in it ------------- */

static void
test_host_gemm (void)
{
  g_autoptr (TlUserKernel) kernel = kernel_new ("gemm_mine");
  const TlKernelInfo *info = tl_user_kernel_register (kernel);
  g_assert_nonnull (info);
  g_autoptr (TlRemoteTarget) here = tl_remote_target_new (NULL, NULL, cli_path);
  TlRemoteHost *host = tl_remote_host_new (here);
  Waiter w;
  waiter_init (&w, tl_remote_host_get_runner (host));
  g_autofree char *kernels = g_strconcat (info->id, ",cpu-naive", NULL);
  g_autoptr (TlJob) job = remote_test_job (29, 31, 17, kernels, 2);
  g_autoptr (GError) error = NULL;
  g_autoptr (TlRunRecord) record = remote_test_gemm (host, job, &w, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (record->runs->len, ==, 2);
  for (guint i = 0; i < record->runs->len; i++)
    {
      const TlKernelRun *run = record->runs->pdata[i];
      g_test_message ("%s: %s", run->kernel_id, run->message ? run->message : "ok");
      g_assert_cmpint (run->status, ==, TL_RUN_OK);
      g_assert_true (run->passed);
    }
  const TlKernelRun *mine = tl_run_record_find_run (record, info->id);
  g_assert_nonnull (mine);
  g_assert_cmpint (mine->launch.grid_x, ==, 3);
  waiter_clear (&w, tl_remote_host_get_runner (host));
  tl_remote_host_free (host);
}

/* The result's launch facts travel whole: the kernel's constant bytes
 * when the worker's driver said them, "unknown" (-1) when it did not. */
static void
test_result_const_bytes (void)
{
  for (int known = 0; known < 2; known++)
    {
      double times[] = { 1.5, 1.25 };
      TlGpuGemmResult sent = { .times_ms = times, .n_times = 2 };
      sent.launch.regs_per_thread = 40;
      sent.launch.grid_x = 7;
      sent.launch.waves = 0.5;
      sent.launch.const_bytes = known ? 1234 : -1;
      JsonBuilder *b = tl_wire_begin ("result");
      tl_user_job_add_result (b, &sent);
      g_autoptr (GBytes) line = tl_wire_end (b);
      const char *type = NULL;
      g_autoptr (GError) error = NULL;
      g_autoptr (JsonObject) msg = tl_wire_parse (g_bytes_get_data (line, NULL),
                                                  g_bytes_get_size (line) - 1, &type, &error);
      g_assert_no_error (error);
      TlGpuGemmResult got;
      g_assert_true (tl_user_job_get_result (msg, &got, &error));
      g_assert_no_error (error);
      g_assert_cmpint (got.launch.const_bytes, ==, known ? 1234 : -1);
      g_assert_cmpint (got.launch.regs_per_thread, ==, 40);
      g_assert_cmpint (got.launch.grid_x, ==, 7);
      tl_user_worker_result_clear (&got);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  tl_remote_user_install ();
  /* the worker runs on the stub's simulated GPU: the CUDA module pointed away */
  g_setenv ("TILELAB_GPU_BACKEND", "/nonexistent/libtilelab-gpu-cuda.so", TRUE);
  g_setenv ("TL_GPU_STUB_DEVICES", "1", TRUE);
  if (!cli_test_find ())
    return 77;
  if (!g_getenv ("TILELAB_CLI"))
    g_setenv ("TILELAB_CLI", cli_path, TRUE);
  g_test_add_func ("/user-worker/result-const-bytes", test_result_const_bytes);
  g_test_add_func ("/user-worker/good", test_good);
  g_test_add_func ("/user-worker/crash-then-good", test_crash_then_good);
  g_test_add_func ("/user-worker/hang-watchdog", test_hang_watchdog);
  g_test_add_func ("/user-worker/slow-start", test_slow_start);
  g_test_add_func ("/user-worker/sent-build", test_sent_build);
  g_test_add_func ("/user-worker/cancel", test_cancel);
  g_test_add_func ("/user-worker/cancel-hang", test_cancel_hang);
  g_test_add_func ("/user-worker/job-messages", test_job_messages);
  g_test_add_func ("/user-worker/job-refused", test_job_refused);
  g_test_add_func ("/user-worker/no-gpu", test_no_gpu);
  g_test_add_func ("/user-worker/cli-remote", test_cli_remote);
  g_test_add_func ("/user-worker/cli-remote-check", test_cli_remote_check);
  g_test_add_func ("/user-worker/host-gemm", test_host_gemm);
  g_test_add_func ("/user-worker/cli-remote-no-gpu", test_cli_remote_no_gpu);
  int rc = g_test_run ();
  tl_user_worker_stop ();
  return rc;
}
