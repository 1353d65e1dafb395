/* test-remote-stream.c — large payloads from the worker: a cancel stops them on their way.
 *
 * A real worker (a marked copy of tilelab-cli, `serve --stdio` through the
 * local pipe) writes a 64 MiB matrix file in a command job, and it comes
 * back in chunk frames.  A cancel sent once the first chunks are in stops
 * the transfer at the next frame: the job answers "done" well within a
 * second, the file is said to be cut (never handed on in part), and the
 * same worker then runs the next job.  `tilelab-cli --remote-cli`: the
 * files a command wrote come back whole.  And the memory a big job leaves
 * in the worker goes back to the system once it has been idle a while.
 */
#include "remote-test-util.h"

#include "core/tl-json.h"
#include "remote/tl-remote-connection.h"
#include "remote/tl-remote-target.h"

static MarkedWorker worker;

#define BIG_SIDE "4096x4096" /* float32: 64 MiB */
#define BIG_BYTES (4096.0 * 4096.0 * 4.0)

typedef struct
{
  GCancellable *cancellable;
  gint64 cancelled_us;      /* when the test cancelled */
  double fraction_at_cancel;
  double last_fraction;
  guint files, cut_files;
  gsize bytes_handed_on;
} Transfer;

static void
status_cb (const char *text, double fraction, gpointer user_data)
{
  Transfer *t = user_data;
  if (!g_str_has_prefix (text, "receiving ") || fraction < 0)
    return;
  t->last_fraction = fraction;
  /* a few chunks in: the rest must not come */
  if (t->cancelled_us == 0 && fraction > 0)
    {
      t->cancelled_us = g_get_monotonic_time ();
      t->fraction_at_cancel = fraction;
      g_cancellable_cancel (t->cancellable);
    }
}

static gboolean
message_cb (TlRemoteConnection *conn, const char *type, JsonObject *msg, GBytes *payload,
            gpointer user_data, GError **error)
{
  Transfer *t = user_data;
  if (strcmp (type, "file") != 0)
    return TRUE;
  t->files++;
  if (json_object_has_member (msg, "cut"))
    t->cut_files++;
  if (payload)
    t->bytes_handed_on += g_bytes_get_size (payload);
  return TRUE;
}

static JsonBuilder *
generate_job (const char *size)
{
  JsonBuilder *b = tl_wire_begin ("job");
  tl_json_member_string (b, "kind", "command");
  json_builder_set_member_name (b, "argv");
  json_builder_begin_array (b);
  const char *words[] = { "generate", "random-uniform", "--size", size, "--dtype", "float32",
                          "-o" };
  for (guint i = 0; i < G_N_ELEMENTS (words); i++)
    json_builder_add_string_value (b, words[i]);
  json_builder_begin_object (b);
  tl_json_member_string (b, "output", "big.npy");
  json_builder_end_object (b);
  json_builder_end_array (b);
  return b;
}

static void
test_cancel_during_transfer (void)
{
  g_autoptr (TlRemoteTarget) target = tl_remote_target_new (NULL, NULL, worker.cli);
  TlRemoteConnection *conn = tl_remote_connection_new (target);
  Transfer t = { .cancellable = g_cancellable_new () };
  tl_remote_connection_set_status_func (conn, status_cb, &t);
  g_autoptr (GError) error = NULL;
  g_assert_true (tl_remote_connection_open (conn, NULL, &error));
  gint64 pid = tl_wire_get_count (tl_remote_connection_get_hello (conn), "pid", -1);

  g_autoptr (JsonObject) done = tl_remote_connection_run_job (conn, generate_job (BIG_SIDE),
                                                              message_cb, &t, t.cancellable,
                                                              &error);
  gint64 ended_us = g_get_monotonic_time ();
  g_assert_no_error (error);
  g_assert_nonnull (done);
  /* the cancel came while the file was on its way, and stopped it there */
  g_assert_cmpint (t.cancelled_us, >, 0);
  g_assert_cmpuint (t.files, ==, 1);
  g_assert_cmpuint (t.cut_files, ==, 1);
  g_assert_cmpuint (t.bytes_handed_on, ==, 0);
  double took_s = (ended_us - t.cancelled_us) / 1e6;
  g_test_message ("cancel at %.1f%% of %.0f MiB; the job's done %.0f ms later, at %.1f%%",
                  100 * t.fraction_at_cancel, BIG_BYTES / (1 << 20), took_s * 1000,
                  100 * t.last_fraction);
  g_assert_cmpfloat (took_s, <, 1.0); /* a fraction of a second, under sanitizers too */
  g_assert_cmpfloat (t.last_fraction, <, 0.5);

  /* the same worker, in step, runs the next job whole */
  g_assert_true (tl_remote_connection_is_open (conn));
  Transfer again = { .cancellable = g_cancellable_new (), .cancelled_us = -1 };
  tl_remote_connection_set_status_func (conn, NULL, NULL);
  g_autoptr (JsonObject) done2 = tl_remote_connection_run_job (conn, generate_job ("300x200"),
                                                               message_cb, &again, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (tl_wire_get_count (done2, "exit", -1), ==, 0);
  g_assert_cmpuint (again.files, ==, 1);
  g_assert_cmpuint (again.cut_files, ==, 0);
  g_assert_cmpuint (again.bytes_handed_on, >, 300 * 200 * 4);
  g_assert_cmpint (tl_wire_get_count (tl_remote_connection_get_hello (conn), "pid", -1), ==, pid);
  g_object_unref (again.cancellable);
  g_object_unref (t.cancellable);
  tl_remote_connection_free (conn);
  g_assert_cmpuint (marked_worker_wait_gone (&worker, 5), ==, 0);
}

/* tilelab-cli --remote-cli: the matrices a gemm saved there (A 1.4 MB,
 * the reference 2.9 MB) come back in chunk frames, byte for byte what the
 * same command writes here. */
static void
run_saving_gemm (const char *record, gboolean remote)
{
  const char *argv[] = { cli_path, "--remote-cli", worker.cli, "gemm", "--kernel", "cpu-blocked",
                         "--size", "600", "--repeats", "1", "--record", record,
                         "--save-matrices", NULL };
  /* here: the same command without the worker */
  const char *here[G_N_ELEMENTS (argv)] = { cli_path };
  memcpy (here + 1, argv + 3, (G_N_ELEMENTS (argv) - 3) * sizeof *argv);
  g_autofree char *folder = g_path_get_dirname (record);
  g_assert_cmpint (g_mkdir (folder, 0700), ==, 0);
  int status = -1;
  g_autoptr (GError) error = NULL;
  g_assert_true (g_spawn_sync (NULL, (char **) (remote ? argv : here), NULL,
                               G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                               NULL, NULL, &status, &error));
  g_assert_true (g_spawn_check_wait_status (status, &error));
}

static void
test_cli_chunked_files (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tl-stream-XXXXXX", &error);
  g_assert_no_error (error);
  g_autofree char *here = g_build_filename (dir, "here", "run.json", NULL);
  g_autofree char *there = g_build_filename (dir, "there", "run.json", NULL);
  run_saving_gemm (here, FALSE);
  run_saving_gemm (there, TRUE);
  const char *files[] = { "run.A.npy", "run.B.npy", "run.reference.npy" };
  for (guint f = 0; f < G_N_ELEMENTS (files); f++)
    {
      g_autofree char *path_here = g_build_filename (dir, "here", files[f], NULL);
      g_autofree char *path_there = g_build_filename (dir, "there", files[f], NULL);
      g_autofree char *a = NULL, *b = NULL;
      gsize na = 0, nb = 0;
      g_assert_true (g_file_get_contents (path_here, &a, &na, &error));
      g_assert_true (g_file_get_contents (path_there, &b, &nb, &error));
      g_assert_cmpuint (na, >, TL_WIRE_CHUNK);
      g_assert_cmpmem (a, na, b, nb);
    }
  const char *rm[] = { "rm", "-r", dir, NULL };
  g_assert_true (g_spawn_sync (NULL, (char **) rm, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL,
                               NULL, NULL, &error));
}

/* A line of process pid's status (VmRSS: what it holds now, VmHWM: the
 * most it has held), in MiB */
static double
status_mib (const char *pid, const char *key)
{
  g_autofree char *path = g_build_filename ("/proc", pid, "status", NULL);
  g_autofree char *status = NULL;
  g_assert_true (g_file_get_contents (path, &status, NULL, NULL));
  const char *line = strstr (status, key);
  g_assert_nonnull (line);
  return g_ascii_strtod (line + strlen (key), NULL) / 1024.0;
}

/* The marked worker's "serve" process: its /proc name. */
static char *
marked_serve_pid (void)
{
  char *found = NULL;
  GDir *proc = g_dir_open ("/proc", 0, NULL);
  const char *name;
  while (found == NULL && (name = g_dir_read_name (proc)))
    {
      g_autofree char *cmd = process_command_line (name);
      if (cmd && g_str_has_prefix (cmd, worker.cli) && strstr (cmd, " serve --stdio"))
        found = g_strdup (name);
    }
  g_dir_close (proc);
  return found;
}

static gboolean
quit_cb (gpointer loop)
{
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

/* A 1024³ job keeps its C and reference (12 MiB) and frees its scratch;
 * idle for a few seconds, the worker holds what it keeps for the next job
 * (the inputs), not the job's peak.  Measured against the peak itself
 * (VmHWM), and waited for rather than timed: the worker gives back after
 * two idle seconds by its clock, which a busy machine runs late; a worker
 * that never gives back fails at the deadline. */
static void
test_worker_gives_back (void)
{
#if defined(__SANITIZE_ADDRESS__)
  g_test_skip ("the sanitizer's allocator keeps freed memory itself");
  return;
#endif
  g_autoptr (TlRemoteTarget) target = tl_remote_target_new (NULL, NULL, worker.cli);
  TlRemoteHost *host = tl_remote_host_new (target);
  Waiter w;
  waiter_init (&w, tl_remote_host_get_runner (host));
  g_autoptr (TlJob) job = remote_test_job (1024, 1024, 1024, "cpu-openblas", 1);
  g_autoptr (GError) error = NULL;
  TlRunRecord *record = remote_test_gemm (host, job, &w, &error);
  g_assert_no_error (error);
  tl_run_record_unref (record);
  waiter_clear (&w, tl_remote_host_get_runner (host));
  g_autofree char *pid = marked_serve_pid ();
  g_assert_nonnull (pid);
  double after_job = status_mib (pid, "VmRSS:");
  double idle = after_job, peak = status_mib (pid, "VmHWM:");
  gint64 start = g_get_monotonic_time ();
  gint64 deadline = start + 30 * G_USEC_PER_SEC;
  while (peak - idle < 10.0 && g_get_monotonic_time () < deadline)
    {
      g_autoptr (GMainLoop) loop = g_main_loop_new (NULL, FALSE);
      g_timeout_add (100, quit_cb, loop);
      g_main_loop_run (loop);
      idle = status_mib (pid, "VmRSS:");
      peak = status_mib (pid, "VmHWM:");
    }
  g_test_message ("worker RSS: peak %.1f MiB, %.1f MiB after the job, %.1f MiB idle "
                  "(%.1f s after the job)", peak, after_job, idle,
                  (g_get_monotonic_time () - start) / 1e6);
  g_assert_cmpfloat (peak - idle, >=, 10.0);
  tl_remote_host_free (host);
  g_assert_cmpuint (marked_worker_wait_gone (&worker, 5), ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  marked_worker_init (&worker);
  g_test_add_func ("/remote/stream/cancel-during-transfer", test_cancel_during_transfer);
  g_test_add_func ("/remote/stream/cli-chunked-files", test_cli_chunked_files);
  g_test_add_func ("/remote/stream/worker-gives-back", test_worker_gives_back);
  int status = g_test_run ();
  marked_worker_clear (&worker);
  return status;
}
