/* bench-remote.c — what the worker protocol costs a GEMM job.
 *
 *   bench-remote [--size N] [--rounds R] [--repeats N] [--kernels LIST] [--host DEST] [--bare] [--log]
 *                [--rss] [--remote-only]
 *
 * Runs the same job — N³ float32 from generated inputs, kept matrices and
 * per-block records, as the app asks for (A and B in memory, made from
 * the recipe the worker makes them from) — on a local TlRunner, through a
 * worker process (the local pipe) and, with --host (an ssh destination,
 * TILELAB_SSH_COMMAND honoured), through ssh; rounds interleaved (each in
 * another order) so a change of load hits all three alike (--bare: no matrices kept, no
 * block records).  With GPU kernels in LIST (gemm-08-vectorized,cublas-fp32)
 * the same compares the ways on a GPU machine, where the worker runs them
 * through the local pipe.  Prints a markdown table: the median wall time
 * of each way (submit → record in hand, matrices included) with its
 * min–max, its excess over the local run (of the medians, and the median
 * and min–max of the round by round excess: each round runs every way
 * once, close in time); the same for the CPU time of every process taking part
 * (on a loaded machine the wall time says more about the scheduler); and
 * how long after the first kernel finished (on the runner's thread, where
 * it ran) the main loop here had its result, and of that how long from
 * the worker's sending it ("sent_us").  The worker and this program share one
 * monotonic clock only on one machine: --host must be this machine (ssh
 * to localhost).
 *
 * The times come from the debug log: this process's runner says when a
 * kernel finished; a worker (started through a small script that turns
 * its debug log on) says it on its standard error, which the connection
 * logs here line by line.
 *
 * --rss: the memory left behind.  After the rounds, with every record
 * freed: the resident memory of this process and of the workers on this
 * machine, at once and again after 3 s idle (what they give back to the
 * system, and when), and after a malloc_trim here (what this process still
 * kept); --remote-only leaves the local runner out, so that this process
 * is the app's side alone (the table's excess is then over the pipe).
 *
 * Not a test: docs/perf/remote-*.md hold what it measured.
 */
#include "remote-test-util.h"

#include "gen/tl-generate.h"
#include "lu/tl-lu-recorder.h"
#include "run/tl-gauss-run.h"

#include <malloc.h>
#include <math.h>
#include <stdio.h>

typedef struct
{
  const char *name;
  TlRemoteHost *host;      /* NULL: the local runner */
  TlRunner *runner;
  GArray *wall_ms;         /* double */
  GArray *cpu_ms;          /* double: CPU time of this process and the workers */
  GArray *finished_ms;     /* double: first kernel finished → this main loop has it */
  GArray *sent_ms;         /* double: the worker sent it → this main loop has it */
} Way;

/* the first kernel of the job in progress: when it finished, when the worker sent it */
static double first_finished_ms = NAN, first_sent_ms = NAN;
static gboolean want_remote;   /* the job in progress runs in a worker */

/* X of "… at X ms (monotonic)" after needle in m, or NAN */
static double
time_after (const char *m, const char *needle)
{
  const char *at = strstr (m, needle);
  at = at ? strstr (at, " at ") : NULL;
  return at && strstr (at, " ms (monotonic)") ? g_ascii_strtod (at + 4, NULL) : NAN;
}

static GLogWriterOutput
log_writer (GLogLevelFlags level, const GLogField *fields, gsize n, gpointer data)
{
  for (gsize i = 0; i < n; i++)
    if (strcmp (fields[i].key, "MESSAGE") == 0)
      {
        const char *m = fields[i].value;
        /* the worker's runner (its standard error, said here by the
         * connection as "remote HOST: …"), or this process's */
        gboolean from_worker = g_str_has_prefix (m, "remote ") && !g_str_has_prefix (m, "remote: ");
        if (isnan (first_finished_ms) && from_worker == want_remote
            && (from_worker || g_str_has_prefix (m, "job ")))
          first_finished_ms = time_after (m, " finished (");
        if (isnan (first_sent_ms) && g_str_has_prefix (m, "remote: "))
          first_sent_ms = time_after (m, " sent by the worker");
      }
  if (level & (G_LOG_LEVEL_DEBUG | G_LOG_LEVEL_INFO))
    {
      if (data != NULL) /* --log: every line, with when this process had it */
        for (gsize i = 0; i < n; i++)
          if (strcmp (fields[i].key, "MESSAGE") == 0)
            fprintf (stderr, "%.3f ms: %s\n", g_get_monotonic_time () / 1000.0,
                     (const char *) fields[i].value);
      return G_LOG_WRITER_HANDLED;
    }
  return g_log_writer_default (level, fields, n, data);
}

/* CPU time (user + system) of every process that takes part in a job
 * here: this one, and those whose command line names the worker's program
 * or the script that starts it through ssh (the local worker, the one ssh
 * starts on this machine, the ssh client).  Not sshd's share (the
 * encryption there). */
static const char *worker_program, *worker_script;

static double
process_cpu_ms (const char *pid)
{
  g_autofree char *path = g_build_filename ("/proc", pid, "stat", NULL);
  g_autofree char *stat = NULL;
  if (!g_file_get_contents (path, &stat, NULL, NULL))
    return 0;
  /* the fields after the command, which is in parentheses: state is field 3,
   * utime and stime fields 14 and 15 */
  const char *p = strrchr (stat, ')');
  g_auto (GStrv) f = p ? g_strsplit (p + 2, " ", 15) : NULL;
  if (f == NULL || g_strv_length (f) < 14)
    return 0;
  return (g_ascii_strtod (f[11], NULL) + g_ascii_strtod (f[12], NULL)) * 1000.0
         / sysconf (_SC_CLK_TCK);
}

static double
taking_part_cpu_ms (void)
{
  double total = 0;
  g_autoptr (GDir) proc = g_dir_open ("/proc", 0, NULL);
  const char *name;
  while (proc && (name = g_dir_read_name (proc)))
    {
      g_autofree char *cmd = process_command_line (name);
      if (cmd && (atoi (name) == getpid () || strstr (cmd, worker_program)
                  || strstr (cmd, worker_script)))
        total += process_cpu_ms (name);
    }
  return total;
}

static double first_signal_ms;

/* VmRSS of /proc/pid in MiB, or NAN */
static double
process_rss_mib (const char *pid)
{
  g_autofree char *path = g_build_filename ("/proc", pid, "status", NULL);
  g_autofree char *status = NULL;
  if (!g_file_get_contents (path, &status, NULL, NULL))
    return NAN;
  const char *line = strstr (status, "VmRSS:");
  return line ? g_ascii_strtod (line + 6, NULL) / 1024.0 : NAN;
}

/* --rss: this process's and the workers' resident memory, said on one line */
static void
print_rss (const char *when)
{
  g_autofree char *self = g_strdup_printf ("%d", getpid ());
  printf ("| %s | %.1f MiB |", when, process_rss_mib (self));
  g_autoptr (GDir) proc = g_dir_open ("/proc", 0, NULL);
  const char *name;
  while (proc && (name = g_dir_read_name (proc)))
    {
      g_autofree char *cmd = process_command_line (name);
      if (cmd && strstr (cmd, " serve --stdio") && (strstr (cmd, worker_program)
                                                   || strstr (cmd, worker_script)))
        printf (" %.1f MiB", process_rss_mib (name));
    }
  printf (" |\n");
}

static gboolean
quit_cb (gpointer loop)
{
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

static void
idle_for (guint ms)
{
  g_autoptr (GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_timeout_add (ms, quit_cb, loop);
  g_main_loop_run (loop);
}

static void
first_kernel_cb (TlRunner *runner, guint job_id, const TlKernelRun *run, gpointer data)
{
  if (first_signal_ms == 0)
    first_signal_ms = g_get_monotonic_time () / 1000.0;
}

static int
compare_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static double
median (GArray *values)
{
  if (values->len == 0)
    return NAN;
  g_array_sort (values, compare_double);
  return g_array_index (values, double, values->len / 2);
}

/* The round by round excess of way over base in %: "median (min–max)". */
static char *
paired_excess (GArray *way, GArray *base)
{
  g_autoptr (GArray) excess = g_array_new (FALSE, FALSE, sizeof (double));
  for (guint r = 0; r < MIN (way->len, base->len); r++)
    {
      double e = 100.0 * (g_array_index (way, double, r) / g_array_index (base, double, r) - 1.0);
      g_array_append_val (excess, e);
    }
  if (excess->len == 0)
    return g_strdup ("—");
  double mid = median (excess); /* sorts */
  return g_strdup_printf ("%+.1f%% (%+.1f…%+.1f)", mid, g_array_index (excess, double, 0),
                          g_array_index (excess, double, excess->len - 1));
}

/* "median (min–max)" of ms, or "—" */
static char *
spread (GArray *ms)
{
  if (ms->len == 0)
    return g_strdup ("—");
  double mid = median (ms); /* sorts */
  return g_strdup_printf ("%.1f ms (%.1f–%.1f)", mid, g_array_index (ms, double, 0),
                          g_array_index (ms, double, ms->len - 1));
}

/* --log: each stage the job reports, when this main loop had it */
static void
progress_log_cb (TlRunner *runner, const TlRunProgress *p, gpointer data)
{
  g_debug ("progress: %s: %s (%.2f)", p->kernel_id ? p->kernel_id : "job", p->stage,
           p->fraction);
}

/* --lu N: a Gauss job instead (LU of an N×N float64 matrix with its
 * step recording, as the app's Gauss page asks for it) */
static TlMatrix *lu_matrix;
static const char *lu_kernel = "lu-cpu-blocked";

static void
start_gauss (Way *way, Waiter *w, TlLuRecorder *recorder)
{
  TlGaussJob gauss = { .kind = TL_GAUSS_FACTOR, .a = lu_matrix, .recorder = recorder };
  gauss.options.kernel_id = lu_kernel;
  gauss.options.block_size = 64;
  gauss.options.pivoting = TL_PIVOTING_PARTIAL;
  if (way->host)
    tl_remote_host_run_gauss_async (way->host, &gauss, NULL, waiter_done_cb, w);
  else
    tl_runner_run_gauss_async (way->runner, &gauss, NULL, waiter_done_cb, w);
}

static void
run_once (Way *way, const TlJob *job)
{
  Waiter w;
  waiter_init (&w, way->runner);
  gulong handler = g_signal_connect (way->runner, "kernel-finished", G_CALLBACK (first_kernel_cb),
                                     NULL);
  first_finished_ms = first_sent_ms = NAN;
  first_signal_ms = 0;
  want_remote = way->host != NULL;
  double cpu0 = taking_part_cpu_ms ();
  gint64 t0 = g_get_monotonic_time ();
  g_autoptr (TlLuRecorder) recorder = lu_matrix ? tl_lu_recorder_new (0) : NULL;
  if (lu_matrix)
    start_gauss (way, &w, recorder);
  else if (way->host)
    tl_remote_host_run_gemm_async (way->host, job, NULL, waiter_done_cb, &w);
  else
    tl_runner_run_gemm_async (way->runner, job, NULL, waiter_done_cb, &w);
  waiter_run (&w);
  g_autoptr (GError) error = NULL;
  g_autoptr (TlRunRecord) record = NULL;
  g_autoptr (TlGaussResult) gauss = NULL;
  if (lu_matrix)
    gauss = tl_runner_run_gauss_finish (way->runner, w.result, &error);
  else
    record = tl_runner_run_gemm_finish (way->runner, w.result, &error);
  double wall = (g_get_monotonic_time () - t0) / 1000.0;
  double cpu = taking_part_cpu_ms () - cpu0;
  if (record == NULL && (gauss == NULL || !recorder->finished))
    g_error ("%s: %s", way->name, error ? error->message : "no step recording");
  g_array_append_val (way->wall_ms, wall);
  g_array_append_val (way->cpu_ms, cpu);
  double finished = first_signal_ms - first_finished_ms, sent = first_signal_ms - first_sent_ms;
  if (!isnan (finished))
    g_array_append_val (way->finished_ms, finished);
  if (!isnan (sent))
    g_array_append_val (way->sent_ms, sent);
  g_signal_handler_disconnect (way->runner, handler);
  waiter_clear (&w, way->runner);
}

/* The table of the ways' times (markdown). */
static void
print_table (Way *ways, guint n_ways, const TlJob *job, int size, int lu, int rounds,
             const char *kernels, gboolean bare)
{
  g_autofree char *load = NULL;
  g_file_get_contents ("/proc/loadavg", &load, NULL, NULL);
  if (lu > 0)
    printf ("Gauss: LU of %d×%d float64 (%s, blocks of 64, partial pivoting) with its step "
            "recording", lu, lu, lu_kernel);
  else
    printf ("GEMM %d³ float32, kernels %s, %u timed runs + %u warm-up each, %s", size,
            kernels ? kernels : "cpu-openblas,cpu-blocked", job->repeats, job->warmups,
            bare ? "no matrices kept, no block records" : "kept matrices and block records");
  printf ("; %d rounds interleaved (after one warm-up job each); load average %s\n\n", rounds,
          load ? g_strstrip (load) : "?");
  printf ("| way | wall time, median (min–max) | excess of medians | excess round by round, "
          "median (min…max) | CPU time, median | excess | first kernel finished → app has it, "
          "median (min–max) | of that: worker sent → app has it |\n");
  printf ("|---|---|---:|---|---:|---:|---|---|\n");
  char *paired[3] = { NULL };
  for (guint i = 0; i < n_ways; i++) /* before the medians sort the rounds */
    paired[i] = paired_excess (ways[i].wall_ms, ways[0].wall_ms);
  double base = median (ways[0].wall_ms), base_cpu = median (ways[0].cpu_ms);
  for (guint i = 0; i < n_ways; i++)
    {
      double cpu = median (ways[i].cpu_ms);
      double wall = median (ways[i].wall_ms);
      g_autofree char *walls = spread (ways[i].wall_ms);
      g_autofree char *finished = spread (ways[i].finished_ms);
      g_autofree char *sent = spread (ways[i].sent_ms);
      printf ("| %s | %s | %+.1f%% | %s | %.0f ms | %+.1f%% | %s | %s |\n", ways[i].name, walls,
              100 * (wall - base) / base, paired[i], cpu, 100 * (cpu - base_cpu) / base_cpu,
              finished, sent);
    }
  for (guint i = 0; i < n_ways; i++)
    g_free (paired[i]);
}

static void
way_clear (Way *way)
{
  if (way->host)
    tl_remote_host_free (way->host);
  else
    g_object_unref (way->runner);
  g_array_unref (way->wall_ms);
  g_array_unref (way->cpu_ms);
  g_array_unref (way->finished_ms);
  g_array_unref (way->sent_ms);
}

/* The ways a job goes: this process's runner (unless remote_only), a
 * worker process through the local pipe, and through ssh to `host` (when
 * given), whose worker a script in *dir starts with the debug log on.
 * Returns how many. */
static guint
ways_open (Way ways[3], const char *host, gboolean remote_only, gboolean log, char **dir,
           char **script, char **ssh_name)
{
  g_autoptr (GError) error = NULL;
  guint n_ways = host ? 3 : 2;
  ways[0].runner = tl_runner_new_full (TL_RUNNER_FLAGS_NONE);
  g_autoptr (TlRemoteTarget) pipe = tl_remote_target_new (NULL, NULL, cli_path);
  ways[1].host = tl_remote_host_new (pipe);
  /* ssh starts the worker with an environment of its own: a script turns
   * its debug log on (this machine's, the same file there) */
  *dir = g_dir_make_tmp ("bench-remote-XXXXXX", &error);
  g_assert_no_error (error);
  *script = g_build_filename (*dir, "tilelab-cli", NULL);
  g_autofree char *quoted = g_shell_quote (cli_path);
  g_autofree char *text = g_strdup_printf ("#!/bin/sh\nG_MESSAGES_DEBUG=Tilelab exec %s \"$@\"\n",
                                           quoted);
  g_assert_true (g_file_set_contents (*script, text, -1, &error) && g_chmod (*script, 0755) == 0);
  worker_program = cli_path;
  worker_script = *script;
  if (host)
    {
      g_autoptr (TlRemoteTarget) ssh = tl_remote_target_new (host, NULL, *script);
      ways[2].host = tl_remote_host_new (ssh);
      ways[2].name = *ssh_name = g_strdup_printf ("ssh to %s", host);
    }
  if (remote_only)
    {
      g_object_unref (ways[0].runner);
      memmove (ways, ways + 1, 2 * sizeof *ways);
      n_ways--;
    }
  for (guint i = 0; i < n_ways; i++)
    {
      if (ways[i].host)
        ways[i].runner = tl_remote_host_get_runner (ways[i].host);
      if (log)
        g_signal_connect (ways[i].runner, "progress", G_CALLBACK (progress_log_cb), NULL);
      ways[i].wall_ms = g_array_new (FALSE, FALSE, sizeof (double));
      ways[i].cpu_ms = g_array_new (FALSE, FALSE, sizeof (double));
      ways[i].finished_ms = g_array_new (FALSE, FALSE, sizeof (double));
      ways[i].sent_ms = g_array_new (FALSE, FALSE, sizeof (double));
    }
  return n_ways;
}

int
main (int argc, char **argv)
{
  int size = 1024, rounds = 5, repeats = 5;
  g_autofree char *host = NULL, *kernels = NULL;
  gboolean bare = FALSE, log = FALSE, rss = FALSE, remote_only = FALSE;
  int lu = 0;
  GOptionEntry entries[] = {
    { "size", 0, 0, G_OPTION_ARG_INT, &size, "N of the N³ job (1024)", "N" },
    { "rounds", 0, 0, G_OPTION_ARG_INT, &rounds, "Jobs per way (5)", "R" },
    { "repeats", 0, 0, G_OPTION_ARG_INT, &repeats, "Timed runs of each kernel (5)", "N" },
    { "kernels", 0, 0, G_OPTION_ARG_STRING, &kernels, "Kernels (cpu-openblas,cpu-blocked)", "LIST" },
    { "host", 0, 0, G_OPTION_ARG_STRING, &host, "Also through ssh to DEST", "DEST" },
    { "lu", 0, 0, G_OPTION_ARG_INT, &lu, "A Gauss job instead: LU of an N×N float64 matrix "
      "with its step recording", "N" },
    { "bare", 0, 0, G_OPTION_ARG_NONE, &bare, "No matrices kept, no block records", NULL },
    { "rss", 0, 0, G_OPTION_ARG_NONE, &rss, "The resident memory left after the jobs, at once "
      "and after 3 s idle", NULL },
    { "remote-only", 0, 0, G_OPTION_ARG_NONE, &remote_only, "Leave the local runner out", NULL },
    { "log", 0, 0, G_OPTION_ARG_NONE, &log, "Every debug line (this process's and the workers') and progress stage "
      "on standard error, with the monotonic ms it arrived at", NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("— what the worker protocol costs");
  g_option_context_add_main_entries (context, entries, NULL);
  g_autoptr (GError) error = NULL;
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  g_log_set_writer_func (log_writer, log ? &log : NULL, NULL);
  /* the times of the first kernel come from the debug log; a Gauss job
   * has no kernels to time, and its many messages would each log a line */
  if (lu <= 0 || log)
    g_setenv ("G_MESSAGES_DEBUG", "Tilelab", TRUE);
  cli_test_locate ();

  Way ways[3] = { { "this process (TlRunner)" }, { "worker process (local pipe)" },
                  { "ssh" } };
  g_autofree char *dir = NULL, *script = NULL, *ssh_name = NULL;
  guint n_ways = ways_open (ways, host, remote_only, log, &dir, &script, &ssh_name);

  g_autoptr (TlJob) job = remote_test_job (size, size, size,
                                           kernels ? kernels : "cpu-openblas,cpu-blocked",
                                           (guint) MAX (repeats, 1));
  job->instrument = !bare;
  job->keep_matrices = !bare;
  /* as the app sends it: A and B in memory, made here from the recipe the
   * worker makes them from (so they travel as the recipe, and not back) */
  job->a_matrix = tl_generate ("random-uniform", TL_DTYPE_FLOAT32, size, size, job->a.seed, &error);
  job->b_matrix = tl_generate ("random-uniform", TL_DTYPE_FLOAT32, size, size, job->b.seed, &error);
  g_assert_no_error (error);
  if (lu > 0)
    {
      lu_matrix = tl_generate ("random-uniform", TL_DTYPE_FLOAT64, lu, lu, 17, &error);
      g_assert_no_error (error);
    }
  /* one job each first: connections made, workers warm, pages touched */
  for (guint i = 0; i < n_ways; i++)
    {
      run_once (&ways[i], job);
      g_array_set_size (ways[i].wall_ms, 0);
      g_array_set_size (ways[i].cpu_ms, 0);
      g_array_set_size (ways[i].finished_ms, 0);
      g_array_set_size (ways[i].sent_ms, 0);
    }
  /* each round in another order: what one way leaves behind (OpenBLAS's
   * threads spin a while after a call) falls on each of the others alike */
  for (int r = 0; r < rounds; r++)
    for (guint i = 0; i < n_ways; i++)
      run_once (&ways[(r + i) % n_ways], job);

  print_table (ways, n_ways, job, size, lu, rounds, kernels, bare);
  if (rss)
    {
      printf ("\n| every record freed | this process | each worker |\n|---|---:|---|\n");
      print_rss ("at once");
      idle_for (3000);
      print_rss ("3 s later");
      malloc_trim (0);
      print_rss ("then malloc_trim (0) here");
    }
  for (guint i = 0; i < n_ways; i++)
    way_clear (&ways[i]);
  g_unlink (script);
  g_rmdir (dir);
  return 0;
}
