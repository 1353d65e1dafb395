/* test-cli.c — tilelab-cli as a user runs it: exit codes, messages, the
 * gemm table, run records and the bench files.
 *
 * The program is $TL_CLI, or src/cli/tilelab-cli beside this test's build
 * folder (G_TEST_BUILDDIR). */
#include <cairo.h>
#include "core/tl-error.h"
#include "tl-gpu.h"
#include "io/tl-io.h"
#include "record/tl-record.h"
#include "record/tl-record-file.h"

#include "cli-test-util.h"

#include <fcntl.h>
#include <gio/gio.h>
#include <gio/gunixinputstream.h>
#include <glib/gstdio.h>
#include <sys/ioctl.h>
#include <signal.h>
#include <math.h>
#include <string.h>

static void
test_usage_errors (void)
{
  g_auto (Result) none;
  cli_test_run (&none, NULL);
  g_assert_cmpint (none.status, ==, 2);
  g_assert_nonnull (strstr (none.err, "Usage"));

  g_auto (Result) unknown;
  cli_test_run (&unknown, "frobnicate", NULL);
  g_assert_cmpint (unknown.status, ==, 2);
  g_assert_nonnull (strstr (unknown.err, "frobnicate"));

  g_auto (Result) bad_option;
  cli_test_run (&bad_option, "gemm", "--size", "10", "--bogus", NULL);
  g_assert_cmpint (bad_option.status, ==, 2);
  g_assert_nonnull (strstr (bad_option.err, "--bogus"));

  g_auto (Result) bad_size;
  cli_test_run (&bad_size, "gemm", "--size", "10x0x3", NULL);
  g_assert_cmpint (bad_size.status, ==, 2);
  g_assert_nonnull (strstr (bad_size.err, "--size"));

  g_auto (Result) bad_kernel;
  cli_test_run (&bad_kernel, "gemm", "--size", "10", "--kernel", "cpu-naive,warp-magic", NULL);
  g_assert_cmpint (bad_kernel.status, ==, 2);
  g_assert_nonnull (strstr (bad_kernel.err, "warp-magic"));

  g_auto (Result) bad_dtype;
  cli_test_run (&bad_dtype, "gemm", "--size", "10", "--dtype", "float16", NULL);
  g_assert_cmpint (bad_dtype.status, ==, 2);
  g_assert_nonnull (strstr (bad_dtype.err, "--dtype"));

  g_auto (Result) half_files;
  cli_test_run (&half_files, "gemm", "--a", "x.mtx", NULL);
  g_assert_cmpint (half_files.status, ==, 2);
  g_assert_nonnull (strstr (half_files.err, "--b"));

  g_auto (Result) no_problem;
  cli_test_run (&no_problem, "gemm", "--kernel", "cpu-naive", NULL);
  g_assert_cmpint (no_problem.status, ==, 2);

  g_auto (Result) bad_suite;
  cli_test_run (&bad_suite, "bench", "--suite", "everything", NULL);
  g_assert_cmpint (bad_suite.status, ==, 2);
  g_assert_nonnull (strstr (bad_suite.err, "--suite"));

  g_auto (Result) help;
  cli_test_run (&help, "gemm", "--help", NULL);
  g_assert_cmpint (help.status, ==, 0);
  g_assert_nonnull (strstr (help.out, "--record"));
}

static void
test_gemm_table (void)
{
  g_auto (Result) r;
  cli_test_run (&r, "gemm", "--kernel", "cpu-blocked", "--size", "100x50x100", "--repeats", "3",
           NULL);
  if (r.status != 0)
    g_error ("exit %d\n%s\n%s", r.status, r.out, r.err);
  /* a row for the kernel, with a number for the time and PASS */
  g_auto (GStrv) lines = g_strsplit (r.out, "\n", -1);
  gboolean found = FALSE;
  for (guint i = 0; lines[i]; i++)
    if (g_str_has_prefix (lines[i], "cpu-blocked") && strstr (lines[i], "PASS"))
      {
        g_auto (GStrv) cells = g_strsplit_set (lines[i], " ", -1);
        guint n = 0;
        for (guint c = 0; cells[c]; c++)
          if (*cells[c] && n++ == 1)
            g_assert_cmpfloat (g_ascii_strtod (cells[c], NULL), >, 0.0);
        found = TRUE;
      }
  g_assert_true (found);
  g_assert_nonnull (strstr (r.out, "GFLOP/s"));
  g_assert_nonnull (strstr (r.out, "100×50×100"));
}

static void
test_gemm_record_and_files (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tl-cli-XXXXXX", &error);
  g_assert_no_error (error);

  /* inputs from files, in two formats */
  g_autofree char *a_path = g_build_filename (dir, "a.mtx", NULL);
  g_autofree char *b_path = g_build_filename (dir, "b.npy", NULL);
  g_autoptr (TlMatrix) a = tl_matrix_new (TL_DTYPE_FLOAT64, 23, 17, NULL);
  g_autoptr (TlMatrix) b = tl_matrix_new (TL_DTYPE_FLOAT64, 17, 11, NULL);
  for (gsize i = 0; i < 23; i++)
    for (gsize j = 0; j < 17; j++)
      tl_matrix_set (a, i, j, sin (i * 17.0 + j) + 0.25);
  for (gsize i = 0; i < 17; i++)
    for (gsize j = 0; j < 11; j++)
      tl_matrix_set (b, i, j, cos (i * 11.0 + j) - 0.5);
  g_assert_true (tl_matrix_save (a, a_path, TL_FORMAT_MTX, &error));
  g_assert_true (tl_matrix_save (b, b_path, TL_FORMAT_NPY, &error));
  g_assert_no_error (error);

  g_autofree char *rec = g_build_filename (dir, "run.json", NULL);
  g_auto (Result) r;
  cli_test_run (&r, "gemm", "--kernel", "cpu-naive,cpu-openblas", "--a", a_path, "--b", b_path,
           "--dtype", "float64", "--repeats", "2", "--record", rec, "--save-matrices", NULL);
  if (r.status != 0)
    g_error ("exit %d\n%s\n%s", r.status, r.out, r.err);

  g_autoptr (TlRunRecord) record = tl_run_record_load (rec, TL_RECORD_LOAD_MATRICES, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (record->job->m, ==, 23);
  g_assert_cmpuint (record->job->k, ==, 17);
  g_assert_cmpuint (record->job->n, ==, 11);
  g_assert_cmpint (record->job->a.kind, ==, TL_SOURCE_FILE);
  g_assert_nonnull (strstr (record->command_line, "--save-matrices"));
  g_assert_true (tl_matrix_equal (record->a, a));
  g_assert_cmpuint (record->runs->len, ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      TlKernelRun *run = record->runs->pdata[i];
      g_assert_true (run->passed);
      g_assert_nonnull (run->c);
      TlMatrixDiff diff;
      tl_matrix_compare (run->c, record->reference, &diff);
      g_assert_cmpfloat (diff.rel_norm, <, 1e-13);
    }

  /* a float64 value beyond float32's range, run in float32 (the default):
   * refused up front naming the file and the value, not a FAIL at ±Inf */
  g_autofree char *big_path = g_build_filename (dir, "big.npy", NULL);
  tl_matrix_set (b, 2, 1, -1e300);
  g_assert_true (tl_matrix_save (b, big_path, TL_FORMAT_NPY, &error));
  g_auto (Result) big;
  cli_test_run (&big, "gemm", "--kernel", "cpu-naive", "--a", a_path, "--b", big_path,
                "--repeats", "1", NULL);
  g_assert_cmpint (big.status, ==, 1);
  g_assert_nonnull (strstr (big.err, "big.npy: the value at row 3, column 2 "
                                     "(-1.0000000000000001e+300) is beyond float32"));
  g_assert_null (strstr (big.out, "FAIL"));

  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  while ((name = g_dir_read_name (d)))
    {
      g_autofree char *p = g_build_filename (dir, name, NULL);
      g_unlink (p);
    }
  g_rmdir (dir);
}

static void
test_gpu_kernel_without_gpu (void)
{
  int count = 0;
  if (tl_gpu_device_count (&count) == TL_GPU_OK && count > 0)
    {
      g_test_skip ("a GPU is present");
      return;
    }
  g_auto (Result) r;
  cli_test_run (&r, "gemm", "--kernel", "cpu-blocked,gemm-04-smem32", "--size", "30", "--repeats",
           "1", NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.out, "ERROR"));
  g_assert_nonnull (strstr (r.out, "PASS"));

  /* counters asked for, but no GPU kernel ran: a sentence, not an empty table */
  g_auto (Result) counted;
  cli_test_run (&counted, "gemm", "--kernel", "gemm-02-coalesced", "--size", "30", "--repeats",
                "1", "--counters", NULL);
  g_assert_cmpint (counted.status, ==, 1);
  g_assert_nonnull (strstr (counted.out, "no GPU kernel ran to the end, so nothing was counted"));
  g_assert_null (strstr (counted.out, "sect/ld"));

  /* the GPU suite says what to do instead */
  g_auto (Result) bench;
  cli_test_run (&bench, "bench", "--suite", "gemm", "-o", "/nonexistent-never-created", NULL);
  g_assert_cmpint (bench.status, ==, 1);
  g_assert_nonnull (strstr (bench.err, "--suite cpu"));
  g_assert_false (g_file_test ("/nonexistent-never-created", G_FILE_TEST_EXISTS));
}

static void
test_bench_cpu (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tl-bench-XXXXXX", &error);
  g_assert_no_error (error);
  g_auto (Result) r;
  cli_test_run (&r, "bench", "--suite", "cpu", "--sizes", "40,30x20x10", "--repeats", "2", "-o", dir,
           NULL);
  if (r.status != 0)
    g_error ("exit %d\n%s\n%s", r.status, r.out, r.err);

  g_autofree char *csv_path = g_build_filename (dir, "bench-cpu.csv", NULL);
  g_autofree char *md_path = g_build_filename (dir, "bench-cpu.md", NULL);
  g_autofree char *j1 = g_build_filename (dir, "bench-cpu-40x40x40.json", NULL);
  g_autofree char *j2 = g_build_filename (dir, "bench-cpu-30x20x10.json", NULL);
  g_autofree char *csv = NULL, *md = NULL;
  g_assert_true (g_file_get_contents (csv_path, &csv, NULL, &error));
  g_assert_true (g_file_get_contents (md_path, &md, NULL, &error));
  g_assert_no_error (error);
  g_auto (GStrv) rows = g_strsplit (g_strchomp (csv), "\n", -1);
  g_assert_cmpuint (g_strv_length (rows), ==, 1 + 2 * 3);
  g_assert_true (g_str_has_prefix (rows[0], "m,k,n,dtype,kernel"));
  g_assert_true (g_str_has_prefix (rows[1], "40,40,40,float32,"));
  g_assert_nonnull (strstr (md, "| size m×k×n |"));
  g_assert_nonnull (strstr (md, "Command: `tilelab-cli bench"));
  g_assert_nonnull (strstr (md, "cpu-openblas"));
  g_autoptr (TlRunRecord) rec = tl_run_record_load (j2, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rec->runs->len, ==, 3);
  g_assert_true (g_file_test (j1, G_FILE_TEST_EXISTS));

  const char *files[] = { csv_path, md_path, j1, j2 };
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    g_unlink (files[i]);
  g_rmdir (dir);
}

/* tilelab-cli COMMAND with args, G_MESSAGES_DEBUG=Tilelab (the runner logs
 * each job's start and finished kernel), its stderr a pipe the test reads
 * line by line. */
static GSubprocess *
spawn_logged (const char *command, const char *const *args)
{
  g_autoptr (GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_setenv (launcher, "G_MESSAGES_DEBUG", "Tilelab", TRUE);
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_ptr_array_add (argv, cli_path);
  g_ptr_array_add (argv, (char *) command);
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);
  g_autoptr (GError) error = NULL;
  GSubprocess *p = g_subprocess_launcher_spawnv (launcher, (const char *const *) argv->pdata,
                                                 &error);
  g_assert_no_error (error);
  return p;
}

/* Reads p's stderr up to a line containing `marker` (FALSE at its end);
 * the lines read are appended to seen. */
static gboolean
read_until (GSubprocess *p, GDataInputStream *in, const char *marker, GString *seen)
{
  for (;;)
    {
      g_autofree char *line = g_data_input_stream_read_line_utf8 (in, NULL, NULL, NULL);
      if (line == NULL)
        return FALSE;
      g_string_append_printf (seen, "%s\n", line);
      if (strstr (line, marker))
        return TRUE;
    }
}

/* Sends Ctrl-C to p once it catches it (a loaded machine can take
 * seconds to start it), then waits for its exit; returns the exit code
 * and appends the rest of stderr to seen. */
static int
interrupt_and_wait (GSubprocess *p, GDataInputStream *in, GString *seen)
{
  g_assert_true (cli_test_wait_catches_sigint (g_subprocess_get_identifier (p), 20.0));
  g_subprocess_send_signal (p, SIGINT);
  read_until (p, in, "\x01never\x01", seen);
  g_autoptr (GError) error = NULL;
  g_assert_true (g_subprocess_wait (p, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (p));
  return g_subprocess_get_exit_status (p);
}

static void
test_interrupt (void)
{
  /* Ctrl-C while the only kernel runs: exit 130 (128 + SIGINT, what a
   * shell reports for Ctrl-C — but a clean stop, not a kill), a message,
   * and no record, since nothing finished.  cpu-naive at 1500³ runs 11
   * times, for tens of seconds.  The signal source runs only in the
   * CLI's main loop, which runs once the job is submitted: whether the
   * signal lands before the job starts or inside it, nothing finishes. */
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tl-int-XXXXXX", &error);
  g_autofree char *record = g_build_filename (dir, "r.json", NULL);
  const char *args[] = { "--kernel", "cpu-naive", "--size", "1500", "--repeats", "10",
                         "--record", record, NULL };
  g_autoptr (GSubprocess) p = spawn_logged ("gemm", args);
  g_autoptr (GDataInputStream) in = g_data_input_stream_new (g_subprocess_get_stderr_pipe (p));
  g_autoptr (GString) seen = g_string_new (NULL);
  g_assert_cmpint (interrupt_and_wait (p, in, seen), ==, 130);
  g_assert_nonnull (strstr (seen->str, "stopping"));
  g_assert_nonnull (strstr (seen->str, "cancel requested"));
  g_assert_nonnull (strstr (seen->str, "nothing was written"));
  g_assert_false (g_file_test (record, G_FILE_TEST_EXISTS));
  g_rmdir (dir);
}

/* The name of a save's temporary file in dir (".NAME.tmp-XXXXXX"), or NULL. */
static char *
find_temporary (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  while (d && (name = g_dir_read_name (d)) != NULL)
    if (strstr (name, ".tmp-"))
      return g_strdup (name);
  return NULL;
}

/* Ctrl-C, SIGTERM and SIGHUP while convert writes (its temporary is there):
 * exit 128 + the signal (130, 143, 129), "nothing was written", no output and
 * no temporary left.  A 61-byte coordinate file declaring 9000 × 9000
 * int32 writes 162 MB of CSV (zeros are copied, not formatted: it takes
 * that many to be still writing when the signal comes). */
static void
test_interrupt_save (void)
{
  const int signals[] = { SIGINT, SIGTERM, SIGHUP };
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tl-int-save-XXXXXX", &error);
  g_autofree char *in = g_build_filename (dir, "big.mtx", NULL);
  g_autofree char *out = g_build_filename (dir, "big.csv", NULL);
  g_assert_true (g_file_set_contents (in, "%%MatrixMarket matrix coordinate integer general\n"
                                          "9000 9000 1\n1 1 2\n", -1, NULL));
  for (guint k = 0; k < G_N_ELEMENTS (signals); k++)
    {
      const char *args[] = { in, out, NULL };
      g_autoptr (GSubprocess) p = spawn_logged ("convert", args);
      g_autoptr (GDataInputStream) err = g_data_input_stream_new (g_subprocess_get_stderr_pipe (p));
      gint64 end = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
      g_autofree char *tmp = NULL;
      while ((tmp = find_temporary (dir)) == NULL && g_get_monotonic_time () < end)
        g_usleep (1000);
      g_assert_nonnull (tmp);
      g_subprocess_send_signal (p, signals[k]);
      g_autoptr (GString) seen = g_string_new (NULL);
      read_until (p, err, "\x01never\x01", seen);
      g_assert_true (g_subprocess_wait (p, NULL, &error));
      g_assert_true (g_subprocess_get_if_exited (p));
      g_assert_cmpint (g_subprocess_get_exit_status (p), ==, 128 + signals[k]);
      g_assert_nonnull (strstr (seen->str, "nothing was written"));
      g_autofree char *left = find_temporary (dir);
      g_assert_null (left);
      g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
    }
  g_remove (in);
  g_rmdir (dir);
}

/* The state letter of process pid ('R', 'S', 'Z' once it exited, …). */
static char
process_state (const char *pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%s/stat", pid), *stat = NULL;
  if (!g_file_get_contents (path, &stat, NULL, NULL))
    return 'Z';
  const char *paren = strrchr (stat, ')');
  return paren && paren[1] == ' ' ? paren[2] : '?';
}

/* A second Ctrl-C while the first cannot end the command: convert writes
 * CSV to standard output, a pipe nobody reads (`… | less`, and less does
 * not read on), so the write blocks and the first Ctrl-C only says
 * "stopping"; the second exits at once, 130. */
static void
test_interrupt_twice (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tl-int-twice-XXXXXX", &error);
  g_autofree char *in = g_build_filename (dir, "big.mtx", NULL);
  g_assert_true (g_file_set_contents (in, "%%MatrixMarket matrix coordinate integer general\n"
                                          "9000 9000 1\n1 1 2\n", -1, NULL));
  g_autoptr (GSubprocess) p = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE
                                                | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error,
                                                cli_path, "convert", in, "-", "--format", "csv",
                                                NULL);
  g_assert_no_error (error);
  const char *pid = g_subprocess_get_identifier (p);
  g_assert_true (cli_test_wait_catches_sigint (pid, 20.0));
  /* blocked for good once the pipe is full */
  int out_fd = g_unix_input_stream_get_fd (G_UNIX_INPUT_STREAM (g_subprocess_get_stdout_pipe (p)));
  int capacity = fcntl (out_fd, F_GETPIPE_SZ), queued = 0;
  gint64 end = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while (ioctl (out_fd, FIONREAD, &queued) == 0 && queued < capacity && g_get_monotonic_time () < end)
    g_usleep (1000);
  g_assert_cmpint (queued, ==, capacity);

  g_autoptr (GDataInputStream) err = g_data_input_stream_new (g_subprocess_get_stderr_pipe (p));
  g_autoptr (GString) seen = g_string_new (NULL);
  g_subprocess_send_signal (p, SIGINT);
  g_assert_true (read_until (p, err, "stopping", seen));
  g_usleep (G_USEC_PER_SEC / 2);
  g_assert_cmpint (process_state (pid), !=, 'Z'); /* the first could not end it */
  gint64 t0 = g_get_monotonic_time ();
  g_subprocess_send_signal (p, SIGINT);
  read_until (p, err, "\x01never\x01", seen);
  g_assert_true (g_subprocess_wait (p, NULL, &error));
  double took = (g_get_monotonic_time () - t0) / 1e3;
  g_test_message ("second Ctrl-C → exit in %.0f ms: %s", took, seen->str);
  g_assert_true (g_subprocess_get_if_exited (p));
  g_assert_cmpint (g_subprocess_get_exit_status (p), ==, 130);
  g_assert_nonnull (strstr (seen->str, "stopped at once"));
  g_remove (in);
  g_rmdir (dir);
}

/* Ctrl-C, SIGTERM and SIGHUP while render draws and writes a large heatmap:
 * exit 128 + the signal, no picture and no temporary left. */
static void
test_interrupt_render (void)
{
  const int signals[] = { SIGINT, SIGTERM, SIGHUP };
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tl-int-render-XXXXXX", &error);
  g_autofree char *record = g_build_filename (dir, "r.json", NULL);
  g_autofree char *out = g_build_filename (dir, "h.png", NULL);
  g_auto (Result) made = { 0 };
  cli_test_run (&made, "gemm", "--size", "300", "--kernel", "cpu-blocked", "--save-matrices",
                "--record", record, NULL);
  g_assert_cmpint (made.status, ==, 0);
  for (guint k = 0; k < G_N_ELEMENTS (signals); k++)
    {
      const char *args[] = { "--view", "heatmap", "--run", record, "-o", out, "--scale", "6",
                             NULL };
      g_autoptr (GSubprocess) p = spawn_logged ("render", args);
      g_autoptr (GDataInputStream) in = g_data_input_stream_new (g_subprocess_get_stderr_pipe (p));
      g_assert_true (cli_test_wait_catches_sigint (g_subprocess_get_identifier (p), 20.0));
      g_subprocess_send_signal (p, signals[k]);
      g_autoptr (GString) seen = g_string_new (NULL);
      read_until (p, in, "\x01never\x01", seen);
      g_assert_true (g_subprocess_wait (p, NULL, &error));
      g_assert_true (g_subprocess_get_if_exited (p));
      g_assert_cmpint (g_subprocess_get_exit_status (p), ==, 128 + signals[k]);
      g_autofree char *left = find_temporary (dir);
      g_assert_null (left);
      g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
    }
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_remove (path);
    }
  g_rmdir (dir);
}

static void
test_interrupt_partial (void)
{
  /* Ctrl-C after cpu-openblas finished (the reference runs first; the
   * runner's log says when) and while cpu-naive runs: exit 130 and a
   * whole record that keeps cpu-openblas, marks cpu-naive cancelled and
   * says the job was cancelled.  Written atomically, it loads. */
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tl-int-XXXXXX", &error);
  g_autofree char *record = g_build_filename (dir, "r.json", NULL);
  const char *args[] = { "--kernel", "cpu-naive,cpu-openblas", "--size", "1500", "--repeats",
                         "10", "--record", record, NULL };
  g_autoptr (GSubprocess) p = spawn_logged ("gemm", args);
  g_autoptr (GDataInputStream) in = g_data_input_stream_new (g_subprocess_get_stderr_pipe (p));
  g_autoptr (GString) seen = g_string_new (NULL);
  g_assert_true (read_until (p, in, "cpu-openblas finished (ok)", seen));
  g_assert_cmpint (interrupt_and_wait (p, in, seen), ==, 130);
  g_assert_nonnull (strstr (seen->str, "1 kernel had finished"));
  g_assert_nonnull (strstr (seen->str, "worker idle"));

  g_autoptr (TlRunRecord) rec = tl_run_record_load (record, 0, &error);
  g_assert_no_error (error);
  g_assert_true (rec->cancelled);
  g_assert_cmpuint (rec->runs->len, ==, 2);
  const TlKernelRun *naive = tl_run_record_find_run (rec, "cpu-naive");
  const TlKernelRun *blas = tl_run_record_find_run (rec, "cpu-openblas");
  g_assert_cmpint (blas->status, ==, TL_RUN_OK);
  g_assert_true (blas->passed);
  g_assert_cmpuint (blas->time.count, ==, 10);
  g_assert_cmpint (naive->status, ==, TL_RUN_CANCELLED);
  g_assert_cmpuint (naive->time.count, ==, 0);
  g_unlink (record);
  g_rmdir (dir);
}

static void
test_interrupt_lu (void)
{
  /* Ctrl-C while a CPU LU runs (the unblocked rung at 2500², seconds):
   * it stops between steps, exit 130, and nothing is written — a half
   * factorisation is no result.  The signal goes once the runner's log
   * says the job started, so it lands inside the factorisation. */
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tl-int-XXXXXX", &error);
  g_autofree char *out = g_build_filename (dir, "lu.mtx", NULL);
  const char *args[] = { "--gen", "random-uniform", "--size", "2500", "--kernel",
                         "lu-cpu-unblocked", "--output", out, NULL };
  g_autoptr (GSubprocess) p = spawn_logged ("lu", args);
  g_autoptr (GDataInputStream) in = g_data_input_stream_new (g_subprocess_get_stderr_pipe (p));
  g_autoptr (GString) seen = g_string_new (NULL);
  g_assert_true (read_until (p, in, ": started at", seen));
  g_assert_cmpint (interrupt_and_wait (p, in, seen), ==, 130);
  g_assert_nonnull (strstr (seen->str, "cancel requested"));
  g_assert_nonnull (strstr (seen->str, "worker idle"));
  g_assert_nonnull (strstr (seen->str, "nothing was written"));
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  g_rmdir (dir);
}

static void
test_interrupt_lu_input (void)
{
  /* Ctrl-C while `lu` still makes its input (6000² random numbers, most
   * of a second): the handler is in place before that step, the signal is
   * seen as soon as it returns, exit 130, nothing written.  (Where the
   * signal lands — in the generator or in the job — depends on the load;
   * either way the command must stop cleanly.) */
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tl-int-XXXXXX", &error);
  g_autofree char *out = g_build_filename (dir, "lu.mtx", NULL);
  const char *args[] = { "--gen", "random-uniform", "--size", "6000", "--kernel",
                         "lu-cpu-unblocked", "--output", out, NULL };
  g_autoptr (GSubprocess) p = spawn_logged ("lu", args);
  g_autoptr (GDataInputStream) in = g_data_input_stream_new (g_subprocess_get_stderr_pipe (p));
  g_autoptr (GString) seen = g_string_new (NULL);
  g_assert_cmpint (interrupt_and_wait (p, in, seen), ==, 130);
  g_assert_nonnull (strstr (seen->str, "nothing was written"));
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  g_rmdir (dir);
}

static void
test_interrupt_solve (void)
{
  /* Ctrl-C during `solve` (1500², the elimination of the solution space
   * takes seconds on this thread, then the LU solve runs on the runner):
   * exit 130 and no --output file — a solve that did not finish is no
   * answer. */
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tl-int-XXXXXX", &error);
  g_autofree char *out = g_build_filename (dir, "x.mtx", NULL);
  const char *args[] = { "--gen", "random-uniform", "--size", "1500", "--output", out, NULL };
  g_autoptr (GSubprocess) p = spawn_logged ("solve", args);
  g_autoptr (GDataInputStream) in = g_data_input_stream_new (g_subprocess_get_stderr_pipe (p));
  g_autoptr (GString) seen = g_string_new (NULL);
  g_assert_cmpint (interrupt_and_wait (p, in, seen), ==, 130);
  g_assert_nonnull (strstr (seen->str, "stopping"));
  g_assert_nonnull (strstr (seen->str, "nothing was written"));
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  g_rmdir (dir);
}

static void
test_interrupt_lu_bench (void)
{
  /* Ctrl-C while lu-bench factors (GPU only): exit 130, and --output is a
   * whole file that says the run was stopped. */
  int count = 0;
  if (tl_gpu_device_count (&count) != TL_GPU_OK || count == 0)
    {
      g_test_skip ("no GPU");
      return;
    }
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tl-int-XXXXXX", &error);
  g_autofree char *out = g_build_filename (dir, "lu.md", NULL);
  const char *args[] = { "--sizes", "8192", "--dtypes", "float64", "--kernels",
                         "lu-01-percolumn", "--max-percolumn", "8192", "--rhs", "none",
                         "--output", out, NULL };
  g_autoptr (GSubprocess) p = spawn_logged ("lu-bench", args);
  g_autoptr (GDataInputStream) in = g_data_input_stream_new (g_subprocess_get_stderr_pipe (p));
  g_autoptr (GString) seen = g_string_new (NULL);
  g_assert_true (read_until (p, in, ": started at", seen));
  g_assert_cmpint (interrupt_and_wait (p, in, seen), ==, 130);
  g_autofree char *md = NULL;
  g_assert_true (g_file_get_contents (out, &md, NULL, &error));
  g_assert_nonnull (strstr (md, "Stopped by Ctrl+C"));
  g_unlink (out);
  g_rmdir (dir);
}

static void
test_info_malformed (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tl-info-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "bad.mtx", NULL);
  g_assert_true (g_file_set_contents (path,
                                      "%%MatrixMarket matrix array real general\n"
                                      "2 2\n1.0\n2.0\nthree\n4.0\n", -1, &error));
  g_auto (Result) r;
  cli_test_run (&r, "info", path, NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "bad.mtx:5")); /* the line of "three" */
  g_assert_nonnull (strstr (r.err, "bad.mtx"));
  /* one line */
  g_assert_cmpuint (strlen (g_strchomp (r.err)), >, 0);
  g_assert_null (strchr (r.err, '\n'));
  g_unlink (path);
  g_rmdir (dir);
}

/* `render --run A --run B`: run records stack on a timeline; a Gauss
 * record cannot, and the message says which file it was. */
static void
test_render_stacked (void)
{
  g_autoptr (GError) error = NULL;
  const char *src = g_getenv ("TL_SOURCE_DIR");
  g_autofree char *gemm = g_build_filename (src, "docs", "records", "h200-gemm-1000x500x1000.json", NULL);
  g_autofree char *lu = g_build_filename (src, "tests", "fuzz", "corpus", "gauss-record", "gfp-6.json", NULL);
  g_autofree char *dir = g_dir_make_tmp ("tl-render-XXXXXX", &error);
  g_assert_no_error (error);
  g_autofree char *png = g_build_filename (dir, "t.png", NULL);
  {
    g_auto (Result) r;
    cli_test_run (&r, "render", "--run", gemm, "--run", gemm, "--view", "timeline",
                  "--width", "400", "--height", "300", "--output", png, NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_true (g_file_test (png, G_FILE_TEST_EXISTS));
    g_unlink (png);
  }
  g_auto (Result) r;
  cli_test_run (&r, "render", "--run", gemm, "--run", lu, "--view", "timeline",
                "--width", "400", "--height", "300", "--output", png, NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "gfp-6.json"));
  g_assert_nonnull (strstr (r.err, "Gauss record"));
  g_assert_false (g_file_test (png, G_FILE_TEST_EXISTS));
  g_rmdir (dir);
}

/* `render --view lesson`: a rung beside the rung below it, from a record
 * with counters and from one with block records only, in presentation
 * mode at 1024×768 with every text checked; the first rung has none below. */
static void
test_render_lesson (void)
{
  g_autoptr (GError) error = NULL;
  const char *src = g_getenv ("TL_SOURCE_DIR");
  g_autofree char *ladder = g_build_filename (src, "docs", "records", "h200-gemm-4096-fp32-counters.json", NULL);
  g_autofree char *blocks = g_build_filename (src, "docs", "records", "h200-gemm-1000x500x1000.json", NULL);
  g_autofree char *dir = g_dir_make_tmp ("tl-render-XXXXXX", &error);
  g_assert_no_error (error);
  g_autofree char *png = g_build_filename (dir, "why.png", NULL);
  const char *records[] = { ladder, blocks };
  const char *rungs[] = { "gemm-08-vectorized", "gemm-04-smem32" };
  for (guint i = 0; i < G_N_ELEMENTS (records); i++)
    {
      g_auto (Result) r;
      cli_test_run (&r, "render", "--run", records[i], "--view", "lesson", "--kernel", rungs[i],
                    "--presentation", "--width", "1024", "--height", "768", "--check-text",
                    "--output", png, NULL);
      g_assert_cmpint (r.status, ==, 0);
      g_assert_nonnull (strstr (r.out, "no overlaps, nothing clipped"));
      cairo_surface_t *surface = cairo_image_surface_create_from_png (png);
      g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
      g_assert_cmpint (cairo_image_surface_get_width (surface), ==, 1024);
      g_assert_cmpint (cairo_image_surface_get_height (surface), ==, 768);
      cairo_surface_destroy (surface);
      g_unlink (png);
    }
  /* no --kernel: the top rung */
  {
    g_auto (Result) r;
    cli_test_run (&r, "render", "--run", ladder, "--view", "lesson", "--output", png, NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_unlink (png);
  }
  g_auto (Result) r;
  cli_test_run (&r, "render", "--run", ladder, "--view", "lesson", "--kernel", "gemm-01-naive",
                "--output", png, NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "first rung"));
  g_assert_false (g_file_test (png, G_FILE_TEST_EXISTS));
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (!cli_test_find ())
    return 1;
  g_test_add_func ("/cli/usage-errors", test_usage_errors);
  g_test_add_func ("/cli/gemm-table", test_gemm_table);
  g_test_add_func ("/cli/gemm-record-files", test_gemm_record_and_files);
  g_test_add_func ("/cli/gpu-kernel-without-gpu", test_gpu_kernel_without_gpu);
  g_test_add_func ("/cli/bench-cpu", test_bench_cpu);
  g_test_add_func ("/cli/interrupt", test_interrupt);
  g_test_add_func ("/cli/interrupt-partial", test_interrupt_partial);
  g_test_add_func ("/cli/interrupt-save", test_interrupt_save);
  g_test_add_func ("/cli/interrupt-render", test_interrupt_render);
  g_test_add_func ("/cli/interrupt-twice", test_interrupt_twice);
  g_test_add_func ("/cli/interrupt-lu", test_interrupt_lu);
  g_test_add_func ("/cli/interrupt-lu-input", test_interrupt_lu_input);
  g_test_add_func ("/cli/interrupt-solve", test_interrupt_solve);
  g_test_add_func ("/cli/interrupt-lu-bench", test_interrupt_lu_bench);
  g_test_add_func ("/cli/info-malformed", test_info_malformed);
  g_test_add_func ("/cli/render-stacked", test_render_stacked);
  g_test_add_func ("/cli/render-lesson", test_render_lesson);
  return g_test_run ();
}
