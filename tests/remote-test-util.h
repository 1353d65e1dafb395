/* remote-test-util.h — shared by the worker-protocol tests (test-remote*.c).
 *
 * A test's workers run a copy of tilelab-cli in a folder of the test's
 * own ("a marked worker"), so the test can tell its processes from any
 * other tilelab-cli on the machine and check that none is left behind;
 * jobs run on a TlRemoteHost and are waited for on the test's main loop,
 * counting the signals as the app would see them.
 */
#pragma once

#include <glib.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli-test-util.h"
#include "core/tl-error.h"
#include "remote/tl-remote-host.h"
#include "remote/tl-wire.h"

/* The whole program skipped, as TAP says it (meson runs these tests with
 * protocol 'tap', where an exit status of 77 counts as an error): a plan
 * of no tests with the reason; the program then exits 0. */
static inline int
remote_test_skip_all (const char *reason)
{
  g_printerr ("%s\n", reason);
  printf ("1..0 # SKIP %s\n", reason);
  fflush (stdout);
  return 0;
}

/* ---- a marked worker ---------------------------------------------------------- */

typedef struct
{
  char *dir;     /* the test's folder */
  char *cli;     /* dir/tilelab-cli, a copy */
} MarkedWorker;

static inline void
marked_worker_init (MarkedWorker *w)
{
  cli_test_locate ();
  g_autoptr (GError) error = NULL;
  w->dir = g_dir_make_tmp ("tl-remote-test-XXXXXX", &error);
  g_assert_no_error (error);
  w->cli = g_build_filename (w->dir, "tilelab-cli", NULL);
  g_autofree char *contents = NULL;
  gsize size = 0;
  g_assert_true (g_file_get_contents (cli_path, &contents, &size, &error));
  g_assert_true (g_file_set_contents (w->cli, contents, size, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_chmod (w->cli, 0755), ==, 0);
}

/* The command line of the process /proc/name (its words joined by
 * spaces), or NULL when name is not a process or its line is unreadable
 * or empty (a zombie). */
static inline char *
process_command_line (const char *name)
{
  if (strspn (name, "0123456789") != strlen (name))
    return NULL;
  g_autofree char *path = g_build_filename ("/proc", name, "cmdline", NULL);
  char *cmd = NULL;
  gsize len = 0;
  if (!g_file_get_contents (path, &cmd, &len, NULL) || len == 0)
    {
      g_free (cmd);
      return NULL;
    }
  for (gsize i = 0; i + 1 < len; i++)
    if (cmd[i] == '\0')
      cmd[i] = ' ';
  return cmd;
}

/* Processes whose command line names the marked worker's folder. */
static inline guint
marked_worker_count (const MarkedWorker *w)
{
  guint n = 0;
  GDir *proc = g_dir_open ("/proc", 0, NULL);
  const char *name;
  while (proc && (name = g_dir_read_name (proc)))
    {
      g_autofree char *cmd = process_command_line (name);
      /* not the test itself (its arguments may not name the folder anyway) */
      if (cmd && strstr (cmd, w->dir) && atoi (name) != getpid ())
        n++;
    }
  if (proc)
    g_dir_close (proc);
  return n;
}

/* Waits up to seconds for the marked worker's processes to be gone. */
static inline guint
marked_worker_wait_gone (const MarkedWorker *w, double seconds)
{
  gint64 end = g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC);
  guint n;
  while ((n = marked_worker_count (w)) > 0 && g_get_monotonic_time () < end)
    g_usleep (50000);
  return n;
}

static inline void
marked_worker_clear (MarkedWorker *w)
{
  g_unlink (w->cli);
  g_rmdir (w->dir);
  g_clear_pointer (&w->cli, g_free);
  g_clear_pointer (&w->dir, g_free);
}

/* Starts argv (a tilelab-cli command through the marked worker), waits
 * until it handles SIGINT, and then until at least `processes` of the
 * worker's are running (the client itself is one) and, when that is more
 * than the client, half a second more; sends SIGINT as Ctrl+C does;
 * returns the exit status and sets *took_ms to the time from SIGINT to
 * exit.  A test's earlier processes are gone first: they would count. */
static inline int
interrupt_cli (const MarkedWorker *w, const char *const *argv, guint processes, double *took_ms)
{
  g_assert_cmpuint (marked_worker_wait_gone (w, 10), ==, 0);
  GPid pid;
  g_autoptr (GError) error = NULL;
  /* the client's stderr, said when it did not exit as it should */
  g_autofree char *log = g_build_filename (g_get_tmp_dir (), "tl-interrupt-XXXXXX", NULL);
  int log_fd = g_mkstemp (log);
  g_assert_cmpint (log_fd, >=, 0);
  g_assert_true (g_spawn_async_with_pipes_and_fds (NULL, (const char *const *) argv, NULL,
                                                   G_SPAWN_DO_NOT_REAP_CHILD
                                                     | G_SPAWN_STDOUT_TO_DEV_NULL,
                                                   NULL, NULL, -1, -1, log_fd, NULL, NULL, 0,
                                                   &pid, NULL, NULL, NULL, &error));
  close (log_fd);
  /* before, Ctrl+C ends it by the default action, as any program */
  g_autofree char *pid_text = g_strdup_printf ("%d", (int) pid);
  g_assert_true (cli_test_wait_catches_sigint (pid_text, 20));
  gint64 end = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while (marked_worker_count (w) < processes && g_get_monotonic_time () < end)
    g_usleep (50000);
  if (processes > 1)
    g_usleep (500000);
  gint64 t0 = g_get_monotonic_time ();
  kill (pid, SIGINT);
  int status = 0;
  waitpid (pid, &status, 0);
  *took_ms = (g_get_monotonic_time () - t0) / 1000.0;
  g_autofree char *said = NULL;
  g_file_get_contents (log, &said, NULL, NULL);
  g_unlink (log);
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 130)
    g_test_message ("the client %s %d; its stderr:\n%s",
                    WIFEXITED (status) ? "exited with" : "was ended by signal",
                    WIFEXITED (status) ? WEXITSTATUS (status) : WTERMSIG (status),
                    said ? said : "(unreadable)");
  g_assert_true (WIFEXITED (status));
  return WEXITSTATUS (status);
}

/* A "worker" that says hello in another protocol: a shell script. */
static inline char *
write_foreign_worker (const MarkedWorker *w)
{
  char *path = g_build_filename (w->dir, "foreign-worker", NULL);
  const char *script =
    "#!/bin/sh\n"
    "printf '%s\\n' '{\"type\":\"hello\",\"protocol\":99,\"schema\":\"tilelab-run/9\","
    "\"gauss_schema\":7,\"version\":\"9.9.9\",\"host\":\"elsewhere\"}'\n"
    "cat >/dev/null\n";
  g_assert_true (g_file_set_contents (path, script, -1, NULL));
  g_assert_cmpint (g_chmod (path, 0755), ==, 0);
  return path;
}

/* ---- a job, waited for on the main loop ----------------------------------------- */

typedef struct
{
  GMainLoop *loop;
  guint job_id;
  guint n_progress, n_kernels;
  char *last_kernel;
  gboolean result_came;
  gint64 first_kernel_us;   /* when the first kernel-finished arrived (monotonic) */
  GPtrArray *stages;        /* progress texts */
  GAsyncResult *result;
  /* optional: cancel when a progress text contains this */
  const char *cancel_at;
  GCancellable *cancellable;
  gint64 cancelled_us;
  /* optional: run this once a progress report names this kernel */
  const char *act_at_kernel;
  void (*act) (gpointer data);
  gpointer act_data;
  gboolean acted;
} Waiter;

static inline void
waiter_progress_cb (TlRunner *runner, const TlRunProgress *p, Waiter *w)
{
  w->n_progress++;
  g_ptr_array_add (w->stages, g_strdup (p->stage));
  if (w->cancel_at && w->cancelled_us == 0 && strstr (p->stage, w->cancel_at))
    {
      w->cancelled_us = g_get_monotonic_time ();
      g_cancellable_cancel (w->cancellable);
    }
  if (w->act && !w->acted && g_strcmp0 (p->kernel_id, w->act_at_kernel) == 0)
    {
      w->acted = TRUE;
      w->act (w->act_data);
    }
}

static inline void
waiter_kernel_cb (TlRunner *runner, guint job_id, const TlKernelRun *run, Waiter *w)
{
  g_assert_false (w->result_came); /* kernels come before the result */
  /* a kernel said again (now with its C) counts once */
  if (g_strcmp0 (w->last_kernel, run->kernel_id) == 0)
    return;
  g_free (w->last_kernel);
  w->last_kernel = g_strdup (run->kernel_id);
  if (w->n_kernels++ == 0)
    w->first_kernel_us = g_get_monotonic_time ();
}

static inline void
waiter_done_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  Waiter *w = data;
  w->result_came = TRUE;
  w->result = g_object_ref (result);
  g_main_loop_quit (w->loop);
}

static inline void
waiter_init (Waiter *w, TlRunner *runner)
{
  memset (w, 0, sizeof *w);
  w->loop = g_main_loop_new (NULL, FALSE);
  w->stages = g_ptr_array_new_with_free_func (g_free);
  w->cancellable = g_cancellable_new ();
  g_signal_connect (runner, "progress", G_CALLBACK (waiter_progress_cb), w);
  g_signal_connect (runner, "kernel-finished", G_CALLBACK (waiter_kernel_cb), w);
}

static inline void
waiter_run (Waiter *w)
{
  g_main_loop_run (w->loop);
}

static inline void
waiter_clear (Waiter *w, TlRunner *runner)
{
  g_signal_handlers_disconnect_by_data (runner, w);
  g_clear_object (&w->result);
  g_clear_object (&w->cancellable);
  g_free (w->last_kernel);
  g_ptr_array_unref (w->stages);
  g_main_loop_unref (w->loop);
}

/* A GEMM job of generated inputs (m×k×n, float32) with kernels. */
static inline TlJob *
remote_test_job (gsize m, gsize k, gsize n, const char *kernels, guint repeats)
{
  TlJob *job = tl_job_new_gemm (m, k, n, TL_DTYPE_FLOAT32);
  g_strfreev (job->kernels);
  job->kernels = g_strsplit (kernels, ",", -1);
  job->repeats = repeats;
  job->warmups = 1;
  job->keep_matrices = TRUE;
  return job;
}

/* Runs job on host; the record or NULL with error; w keeps the counts. */
static inline TlRunRecord *
remote_test_gemm (TlRemoteHost *host, const TlJob *job, Waiter *w, GError **error)
{
  TlRunner *runner = tl_remote_host_get_runner (host);
  w->job_id = tl_remote_host_run_gemm_async (host, job, w->cancellable, waiter_done_cb, w);
  waiter_run (w);
  return tl_runner_run_gemm_finish (runner, w->result, error);
}

/* ---- what every transport must do (test-remote.c, test-remote-ssh.c) ----------- */

/* A GEMM of generated inputs comes back whole: each kernel's result as a
 * signal first, then the record with C, the reference and where it ran. */
static inline void
check_gemm (TlRemoteHost *host, gsize m, gsize k, gsize n, const char *transport)
{
  Waiter w;
  waiter_init (&w, tl_remote_host_get_runner (host));
  g_autoptr (TlJob) job = remote_test_job (m, k, n, "cpu-naive,cpu-blocked", 2);
  job->instrument = TRUE;
  g_autoptr (GError) error = NULL;
  g_autoptr (TlRunRecord) record = remote_test_gemm (host, job, &w, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (w.n_kernels, ==, 2);
  g_assert_cmpuint (w.n_progress, >, 4);
  g_assert_cmpuint (record->runs->len, ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      TlKernelRun *run = record->runs->pdata[i];
      g_assert_cmpint (run->status, ==, TL_RUN_OK);
      g_assert_true (run->passed);
      g_assert_nonnull (run->c);
      g_assert_cmpuint (run->c->rows, ==, m);
      g_assert_cmpuint (run->c->cols, ==, n);
      if (strcmp (run->kernel_id, "cpu-blocked") == 0)
        g_assert_cmpuint (run->n_blocks, >, 0); /* the Blocks view's tiles came too */
    }
  g_assert_nonnull (record->reference);
  g_assert_nonnull (record->a); /* made there from the recipe, sent back */
  g_assert_cmpstr (tl_remote_record_lost_connection (record), ==, NULL);
  JsonNode *remote = json_object_get_member (record->extensions, "remote");
  g_assert_nonnull (remote);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (remote), "transport"),
                   ==, transport);
  waiter_clear (&w, tl_remote_host_get_runner (host));
}

/* Cancel during a kernel: the worker stops at its next boundary and the
 * app has the outcome well within 2.5 s; the worker runs the next job. */
static inline void
check_cancel (TlRemoteHost *host)
{
  Waiter w;
  waiter_init (&w, tl_remote_host_get_runner (host));
  g_autoptr (TlJob) job = remote_test_job (500, 500, 500, "cpu-naive,cpu-blocked", 50);
  w.cancel_at = "run 2 of 50";
  g_autoptr (GError) error = NULL;
  g_autoptr (TlRunRecord) record = remote_test_gemm (host, job, &w, &error);
  gint64 latency_us = g_get_monotonic_time () - w.cancelled_us;
  g_test_message ("cancel → outcome: %.0f ms", latency_us / 1000.0);
  g_assert_cmpint (w.cancelled_us, >, 0);
  g_assert_null (record);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (latency_us, <, 2500000);
  waiter_clear (&w, tl_remote_host_get_runner (host));

  Waiter w2;
  waiter_init (&w2, tl_remote_host_get_runner (host));
  g_autoptr (TlJob) small = remote_test_job (20, 20, 20, "cpu-blocked", 1);
  g_clear_error (&error);
  g_autoptr (TlRunRecord) again = remote_test_gemm (host, small, &w2, &error);
  g_assert_no_error (error);
  g_assert_true (((TlKernelRun *) again->runs->pdata[0])->passed);
  waiter_clear (&w2, tl_remote_host_get_runner (host));
}

/* kill (data) ends the connection once the first kernel (a fast CPU one)
 * is done and the second (the stub's simulated GPU: a slow triple loop)
 * has begun: the finished kernel is kept, the record marked, the note
 * names host_words, all within 15 s. */
static inline void
check_killed (TlRemoteHost *host, void (*kill_fn) (gpointer), gpointer data,
              const char *host_words)
{
  Waiter w;
  waiter_init (&w, tl_remote_host_get_runner (host));
  g_autoptr (TlJob) job = remote_test_job (500, 500, 500, "cpu-blocked,gemm-01-naive", 10);
  w.act_at_kernel = "gemm-01-naive";
  w.act = kill_fn;
  w.act_data = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (TlRunRecord) record = remote_test_gemm (host, job, &w, &error);
  g_assert_no_error (error);
  gint64 said_us = g_get_monotonic_time () - w.first_kernel_us;
  g_test_message ("killed → said: %.0f ms", said_us / 1000.0);
  g_assert_cmpint (said_us, <, 15 * G_USEC_PER_SEC);
  g_assert_true (record->cancelled);
  g_assert_cmpuint (record->runs->len, ==, 1);
  g_assert_true (((TlKernelRun *) record->runs->pdata[0])->passed);
  const char *lost = tl_remote_record_lost_connection (record);
  g_assert_nonnull (lost);
  g_assert_nonnull (strstr (lost, host_words));
  waiter_clear (&w, tl_remote_host_get_runner (host));
}
