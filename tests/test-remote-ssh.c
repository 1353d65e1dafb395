/* test-remote-ssh.c — the worker through real ssh, and through Slurm's srun.
 *
 * Needs the services of tools/test-services.sh (sshd on 127.0.0.1 with a
 * host key and a user key of the test's own; a one-node Slurm cluster):
 * TL_TEST_SSH_CONFIG names its ssh_config, TL_TEST_SLURM_CONF its
 * slurm.conf.  Without sshd the whole program is skipped (a TAP plan of none); without Slurm
 * the Slurm cases skip.  Jobs run on the CPU backend (and the stub's
 * simulated GPUs, asked for through a launcher line).
 */
#include "remote-test-util.h"

#include "gen/tl-generate.h"
#include "lu/tl-lu.h"
#include "run/tl-gauss-run.h"


static MarkedWorker worker;
static const char *slurm_conf;

/* A launcher line is any command: this one gives the worker the stub's
 * two simulated GPUs (in a CUDA build too: its module pointed away). */
#define STUB_GPUS "env TL_GPU_STUB_DEVICES=2 TILELAB_GPU_BACKEND=/nonexistent/libtilelab-gpu-cuda.so"

static TlRemoteHost *
ssh_host (const char *destination, const char *launcher, const char *cli)
{
  g_autoptr (TlRemoteTarget) t = tl_remote_target_new (destination, launcher,
                                                       cli ? cli : worker.cli);
  return tl_remote_host_new (t);
}

static TlRemoteDevices *
probe (TlRemoteHost *host, GCancellable *cancellable, Waiter *w, GError **error)
{
  tl_remote_host_probe_async (host, cancellable, waiter_done_cb, w);
  waiter_run (w);
  return tl_remote_host_probe_finish (host, w->result, error);
}

/* ---- jobs over ssh ---------------------------------------------------------------- */

static void
test_devices (void)
{
  TlRemoteHost *host = ssh_host ("tl-test", STUB_GPUS, NULL);
  Waiter w;
  waiter_init (&w, tl_remote_host_get_runner (host));
  g_autoptr (GError) error = NULL;
  g_autoptr (TlRemoteDevices) d = probe (host, NULL, &w, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (d->gpus->len, ==, 2);
  g_assert_cmpstr (g_array_index (d->gpus, TlGpuFacts, 0).name, ==, "Simulated GPU 0");
  waiter_clear (&w, tl_remote_host_get_runner (host));
  tl_remote_host_free (host);
  g_assert_cmpuint (marked_worker_wait_gone (&worker, 5), ==, 0);
}

/* A GEMM with its matrices; the first kernel's result reaches the app
 * shortly after the worker had it (same machine: one monotonic clock). */
static void
test_gemm (void)
{
  TlRemoteHost *host = ssh_host ("tl-test", NULL, NULL);
  check_gemm (host, 300, 200, 250, "ssh");
  tl_remote_host_free (host);
  g_assert_cmpuint (marked_worker_wait_gone (&worker, 5), ==, 0);
}

static void
test_lu (void)
{
  TlRemoteHost *host = ssh_host ("tl-test", NULL, NULL);
  Waiter w;
  waiter_init (&w, tl_remote_host_get_runner (host));
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) a = tl_generate ("random-uniform", TL_DTYPE_FLOAT64, 120, 120, 5, &error);
  g_autoptr (TlLuRecorder) rec = tl_lu_recorder_new (0);
  TlGaussJob job = { .kind = TL_GAUSS_FACTOR, .a = a, .recorder = rec };
  job.options.kernel_id = "lu-cpu-unblocked";
  job.options.pivoting = TL_PIVOTING_PARTIAL;
  tl_remote_host_run_gauss_async (host, &job, NULL, waiter_done_cb, &w);
  waiter_run (&w);
  g_autoptr (TlGaussResult) done = tl_runner_run_gauss_finish (tl_remote_host_get_runner (host),
                                                               w.result, &error);
  g_assert_no_error (error);
  g_autoptr (TlLuResult) here = NULL;
  g_assert_true (tl_lu_factor ("lu-cpu-unblocked", a, 0, TL_PIVOTING_PARTIAL, NULL, NULL, &here,
                               &error));
  g_assert_cmpfloat_with_epsilon (done->lu->log_abs_det, here->log_abs_det, 1e-9);
  g_assert_cmpuint (rec->steps->len, ==, 120);
  waiter_clear (&w, tl_remote_host_get_runner (host));
  tl_remote_host_free (host);
}

static void
test_cancel (void)
{
  TlRemoteHost *host = ssh_host ("tl-test", NULL, NULL);
  check_cancel (host);
  tl_remote_host_free (host);
  g_assert_cmpuint (marked_worker_wait_gone (&worker, 5), ==, 0);
}

/* ssh killed after the first kernel: the finished kernel is kept and
 * marked, and the worker on the host goes too. */
static void
kill_ssh (gpointer data)
{
  GDir *proc = g_dir_open ("/proc", 0, NULL);
  const char *name;
  while ((name = g_dir_read_name (proc)))
    {
      g_autofree char *cmd = process_command_line (name);
      /* our ssh: its command names the marked worker */
      if (cmd && g_str_has_prefix (cmd, "ssh ") && strstr (cmd, worker.dir))
        kill (atoi (name), SIGKILL);
    }
  g_dir_close (proc);
}

static void
test_killed_connection (void)
{
  TlRemoteHost *host = ssh_host ("tl-test", STUB_GPUS, NULL);
  check_killed (host, kill_ssh, NULL, "tl-test");
  tl_remote_host_free (host);
  /* the worker there saw its input end */
  g_assert_cmpuint (marked_worker_wait_gone (&worker, 10), ==, 0);
}

/* ---- failures, each in words within 15 s ---------------------------------------------- */

static void
expect_failure (const char *destination, const char *launcher, const char *cli, GQuark domain,
                int code, const char *words)
{
  TlRemoteHost *host = ssh_host (destination, launcher, cli);
  Waiter w;
  waiter_init (&w, tl_remote_host_get_runner (host));
  gint64 t0 = g_get_monotonic_time ();
  g_autoptr (GError) error = NULL;
  g_autoptr (TlRemoteDevices) d = probe (host, NULL, &w, &error);
  gint64 took = g_get_monotonic_time () - t0;
  g_assert_null (d);
  g_test_message ("%s (%.1f s)", error->message, took / 1e6);
  g_assert_error (error, domain, code);
  g_assert_nonnull (strstr (error->message, destination));
  g_assert_nonnull (strstr (error->message, words));
  g_assert_cmpint (took, <, 15 * G_USEC_PER_SEC);
  waiter_clear (&w, tl_remote_host_get_runner (host));
  tl_remote_host_free (host);
  g_assert_cmpuint (marked_worker_wait_gone (&worker, 5), ==, 0);
}

static void
test_unreachable (void)
{
  expect_failure ("tl-test-unreachable", NULL, NULL, TL_REMOTE_ERROR, TL_REMOTE_ERROR_UNREACHABLE,
                  "Connection refused");
}

static void
test_unknown_host_key (void)
{
  expect_failure ("tl-test-unknown-key", NULL, NULL, TL_REMOTE_ERROR, TL_REMOTE_ERROR_HOST_KEY,
                  "host key");
}

static void
test_auth_refused (void)
{
  expect_failure ("tl-test-no-auth", NULL, NULL, TL_REMOTE_ERROR, TL_REMOTE_ERROR_AUTH, "ssh-add");
}

/* A host that would ask for a password (the server offers password and
 * keyboard-interactive logins; the key is not accepted), with an askpass
 * program that never answers where ssh would use one: BatchMode keeps ssh
 * from asking, so the refusal comes at once instead of a wait forever. */
static void
test_password_prompt (void)
{
  g_autofree char *askpass = g_build_filename (worker.dir, "askpass-never-answers", NULL);
  g_assert_true (g_file_set_contents (askpass, "#!/bin/sh\nexec sleep 600\n", -1, NULL));
  g_assert_cmpint (g_chmod (askpass, 0755), ==, 0);
  g_setenv ("SSH_ASKPASS", askpass, TRUE);
  g_setenv ("SSH_ASKPASS_REQUIRE", "force", TRUE);
  expect_failure ("tl-test-password", NULL, NULL, TL_REMOTE_ERROR, TL_REMOTE_ERROR_AUTH, "ssh-add");
  g_unsetenv ("SSH_ASKPASS");
  g_unsetenv ("SSH_ASKPASS_REQUIRE");
  g_unlink (askpass);
}

static void
test_no_worker (void)
{
  expect_failure ("tl-test", NULL, "/nonexistent/tilelab-cli", TL_REMOTE_ERROR,
                  TL_REMOTE_ERROR_NO_WORKER, "/nonexistent/tilelab-cli");
}

static void
test_wrong_version (void)
{
  g_autofree char *foreign = write_foreign_worker (&worker);
  expect_failure ("tl-test", NULL, foreign, TL_REMOTE_ERROR, TL_REMOTE_ERROR_VERSION, "9.9.9");
  g_unlink (foreign);
}

/* ---- tilelab-cli --host ------------------------------------------------------------------ */

/* Ctrl+C at the client over ssh, at every stage: as soon as it handles
 * SIGINT (before or while it connects), while ssh runs, and twice while
 * the command runs there: exit 130 each time, nothing left running. */
static void
test_cli_interrupt (void)
{
  g_autofree char *record = g_build_filename (worker.dir, "run.json", NULL);
  const char *argv[] = { cli_path, "--host", "tl-test", "--remote-cli", worker.cli, "gemm",
                         "--kernel", "cpu-naive,cpu-blocked", "--size", "300", "--repeats", "200",
                         "--record", record, NULL };
  /* the worker's processes to wait for: the client alone; it and ssh; it,
   * ssh, the worker and the command */
  const guint stages[] = { 1, 2, 4, 4 };
  for (guint i = 0; i < G_N_ELEMENTS (stages); i++)
    {
      double took_ms = 0;
      g_assert_cmpint (interrupt_cli (&worker, argv, stages[i], &took_ms), ==, 130);
      g_test_message ("Ctrl+C over ssh with %u processes → exit: %.0f ms", stages[i], took_ms);
      g_assert_cmpuint (marked_worker_wait_gone (&worker, 5), ==, 0);
      g_unlink (record);
    }
}

/* Your own kernel over ssh: the file is uploaded, the host's tilelab-cli
 * compiles and runs it in a worker of its own there.  This host has no
 * GPU: the answer says so; given the stub's simulated ones (the launcher
 * line), the kernel runs and passes its check. */
static void
test_cli_user_kernel (void)
{
  g_autofree char *kernel = g_build_filename (worker.dir, "mine.cu", NULL);
  g_assert_true (g_file_set_contents (kernel,
                                      "// tilelab: float32 = gemm_mine\n"
                                      "// tilelab: block = 16, 16\n"
                                      "// tilelab: grid = ceil_div(n, 16), ceil_div(m, 16)\n"
                                      "__global__ void gemm_mine () {}\n",
                                      -1, NULL));
  g_autofree char *list = g_strconcat (kernel, ",cpu-naive", NULL);
  const char *no_gpu[] = { "--host", "tl-test", "--remote-cli", worker.cli, "gemm", "--kernel",
                           kernel, "--size", "16", NULL };
  g_autofree char *out = NULL, *err = NULL;
  int rc = cli_test_spawn (no_gpu, NULL, &out, &err);
  g_test_message ("no GPU: exit %d\n%s%s", rc, out, err);
  g_assert_cmpint (rc, !=, 0);
  g_assert_true (strstr (out, "GPU") != NULL || strstr (err, "GPU") != NULL);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  const char *simulated[] = { "--host", "tl-test", "--launcher", STUB_GPUS, "--remote-cli",
                              worker.cli, "gemm", "--kernel", list, "--size", "33x21x17", NULL };
  rc = cli_test_spawn (simulated, NULL, &out, &err);
  g_test_message ("simulated GPUs: exit %d\n%s%s", rc, out, err);
  g_assert_cmpint (rc, ==, 0);
  g_assert_nonnull (strstr (out, "mine.cu"));
  g_unlink (kernel);
  g_assert_cmpuint (marked_worker_wait_gone (&worker, 5), ==, 0);
}

/* ---- Slurm --------------------------------------------------------------------------------- */

/* Skips the test when the services have no Slurm cluster. */
static gboolean
no_slurm (void)
{
  if (slurm_conf)
    return FALSE;
  g_test_skip ("no Slurm cluster (TL_TEST_SLURM_CONF)");
  return TRUE;
}

static char *
srun_launcher (const char *extra)
{
  return g_strdup_printf ("env SLURM_CONF=%s srun -N1 %s", slurm_conf, extra);
}

static void
test_slurm_job (void)
{
  if (no_slurm ())
    return;
  g_autofree char *launcher = srun_launcher ("--time=5");
  TlRemoteHost *host = ssh_host ("tl-test", launcher, NULL);
  Waiter w;
  waiter_init (&w, tl_remote_host_get_runner (host));
  g_autoptr (TlJob) job = remote_test_job (64, 64, 64, "cpu-blocked", 2);
  g_autoptr (GError) error = NULL;
  g_autoptr (TlRunRecord) record = remote_test_gemm (host, job, &w, &error);
  g_assert_no_error (error);
  g_assert_true (((TlKernelRun *) record->runs->pdata[0])->passed);
  JsonObject *remote = json_node_get_object (json_object_get_member (record->extensions, "remote"));
  g_assert_true (json_object_has_member (remote, "slurm_job")); /* the worker ran as a job step */
  waiter_clear (&w, tl_remote_host_get_runner (host));
  tl_remote_host_free (host);
  g_assert_cmpuint (marked_worker_wait_gone (&worker, 10), ==, 0);
}

/* Runs a Slurm command (SLURM_CONF set); its standard output, stripped. */
static char *
slurm (const char *const *words)
{
  g_autofree char *env = g_strdup_printf ("SLURM_CONF=%s", slurm_conf);
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_ptr_array_add (argv, "env");
  g_ptr_array_add (argv, env);
  for (guint i = 0; words[i]; i++)
    g_ptr_array_add (argv, (char *) words[i]);
  g_ptr_array_add (argv, NULL);
  char *out = NULL;
  g_spawn_sync (NULL, (char **) argv->pdata, NULL,
                G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL, NULL,
                NULL);
  return g_strstrip (out ? out : g_strdup (""));
}

/* A job that takes the whole node for two minutes; its id. */
static char *
take_the_node (void)
{
  const char *block[] = { "sbatch", "-N1", "--exclusive", "--parsable", "--output=/dev/null",
                          "--wrap", "sleep 120", NULL };
  char *id = slurm (block);
  g_assert_cmpstr (id, !=, "");
  return id;
}

static void
scancel (const char *id)
{
  const char *cancel[] = { "scancel", id, NULL };
  g_free (slurm (cancel));
}

/* Waits up to 10 s until the queue holds no job but the one named
 * (pending or running); the jobs left, one a line. */
static char *
wait_queue_holds_only (const char *blocker)
{
  gint64 end = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  for (;;)
    {
      const char *squeue[] = { "squeue", "-h", "-o", "%i", NULL };
      g_autofree char *jobs = slurm (squeue);
      GString *others = g_string_new (NULL);
      g_auto (GStrv) lines = g_strsplit (jobs, "\n", -1);
      for (guint i = 0; lines[i]; i++)
        if (*g_strstrip (lines[i]) && g_strcmp0 (lines[i], blocker) != 0)
          g_string_append_printf (others, "%s\n", lines[i]);
      if (others->len == 0 || g_get_monotonic_time () > end)
        return g_string_free (others, FALSE);
      g_string_free (others, TRUE);
      g_usleep (200000);
    }
}

/* The node taken by another job: the worker waits in the queue, the app
 * says so, and Cancel cancels the Slurm job (not only the ssh). */
static void
test_slurm_cancel_pending (void)
{
  if (no_slurm ())
    return;
  g_autofree char *blocker = take_the_node ();
  g_autofree char *launcher = srun_launcher ("--exclusive");
  TlRemoteHost *host = ssh_host ("tl-test", launcher, NULL);
  Waiter w;
  waiter_init (&w, tl_remote_host_get_runner (host));
  w.cancel_at = "pending";
  g_autoptr (GError) error = NULL;
  g_autoptr (TlRemoteDevices) d = probe (host, w.cancellable, &w, &error);
  gint64 latency_us = g_get_monotonic_time () - w.cancelled_us;
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  gboolean said = FALSE;
  for (guint i = 0; i < w.stages->len; i++)
    said |= g_str_has_prefix (w.stages->pdata[i], "waiting for a GPU: job ");
  g_assert_true (said);
  g_test_message ("cancel while queued → outcome: %.0f ms", latency_us / 1000.0);
  g_assert_cmpint (latency_us, <, 15 * G_USEC_PER_SEC);
  waiter_clear (&w, tl_remote_host_get_runner (host));
  /* nothing of ours left in the queue, while the connection's object still lives */
  g_autofree char *left = wait_queue_holds_only (blocker);
  tl_remote_host_free (host);
  scancel (blocker);
  g_assert_cmpstr (left, ==, "");
  g_assert_cmpuint (marked_worker_wait_gone (&worker, 10), ==, 0);
}

/* Slurm refuses the job (a partition it does not have): said in words,
 * naming the host, at once. */
static void
test_slurm_refused (void)
{
  if (no_slurm ())
    return;
  g_autofree char *launcher = srun_launcher ("--partition=no-such-partition");
  expect_failure ("tl-test", launcher, NULL, TL_REMOTE_ERROR, TL_REMOTE_ERROR_LAUNCHER,
                  "partition");
  g_autofree char *left = wait_queue_holds_only (NULL);
  g_assert_cmpstr (left, ==, "");
}

/* The queue does not give the node in time (srun --immediate=2 while
 * another job holds it): Slurm gives up, and the app says so. */
static void
test_slurm_queue_timeout (void)
{
  if (no_slurm ())
    return;
  g_autofree char *blocker = take_the_node ();
  g_autofree char *launcher = srun_launcher ("--exclusive --immediate=2");
  expect_failure ("tl-test", launcher, NULL, TL_REMOTE_ERROR, TL_REMOTE_ERROR_LAUNCHER, "busy");
  g_autofree char *left = wait_queue_holds_only (blocker);
  scancel (blocker);
  g_assert_cmpstr (left, ==, "");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  const char *config = g_getenv ("TL_TEST_SSH_CONFIG");
  if (config == NULL || *config == '\0' || !g_file_test (config, G_FILE_TEST_EXISTS))
    return remote_test_skip_all ("no test sshd (start tools/test-services.sh and source its env)");
  slurm_conf = g_getenv ("TL_TEST_SLURM_CONF");
  if (slurm_conf && *slurm_conf == '\0')
    slurm_conf = NULL;
  g_autofree char *ssh = g_strdup_printf ("ssh -F %s", config);
  g_setenv ("TILELAB_SSH_COMMAND", ssh, TRUE);
  marked_worker_init (&worker);

  g_test_add_func ("/remote-ssh/devices", test_devices);
  g_test_add_func ("/remote-ssh/gemm", test_gemm);
  g_test_add_func ("/remote-ssh/lu", test_lu);
  g_test_add_func ("/remote-ssh/cancel", test_cancel);
  g_test_add_func ("/remote-ssh/killed-connection", test_killed_connection);
  g_test_add_func ("/remote-ssh/unreachable", test_unreachable);
  g_test_add_func ("/remote-ssh/unknown-host-key", test_unknown_host_key);
  g_test_add_func ("/remote-ssh/auth-refused", test_auth_refused);
  g_test_add_func ("/remote-ssh/password-prompt", test_password_prompt);
  g_test_add_func ("/remote-ssh/no-worker", test_no_worker);
  g_test_add_func ("/remote-ssh/wrong-version", test_wrong_version);
  g_test_add_func ("/remote-ssh/cli-interrupt", test_cli_interrupt);
  g_test_add_func ("/remote-ssh/cli-user-kernel", test_cli_user_kernel);
  g_test_add_func ("/remote-ssh/slurm/job", test_slurm_job);
  g_test_add_func ("/remote-ssh/slurm/cancel-pending", test_slurm_cancel_pending);
  g_test_add_func ("/remote-ssh/slurm/refused", test_slurm_refused);
  g_test_add_func ("/remote-ssh/slurm/queue-timeout", test_slurm_queue_timeout);
  int rc = g_test_run ();
  marked_worker_clear (&worker);
  return rc;
}
