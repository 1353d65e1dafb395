/* test-remote.c — the worker protocol through the local pipe transport.
 *
 * A real worker (`tilelab-cli serve --stdio`, a marked copy) as a child
 * process: jobs, inputs as recipes and uploads, matrices back, Gauss with
 * its steps, cancel, a worker killed mid-run, a worker of another version,
 * none at all; `tilelab-cli --remote-cli` end to end and its Ctrl+C; and
 * the pieces underneath (quoting for the remote shell, Slurm's lines, NPY
 * bytes, pooling).  ssh and Slurm: test-remote-ssh.c.
 */
#include "remote-test-util.h"

#include "core/tl-matrix.h"
#include "gen/tl-generate.h"
#include "gemm/tl-cpu-gemm.h"
#include "lu/tl-lu.h"
#include "core/tl-json.h"
#include "record/tl-gauss-record.h"
#include "record/tl-record-file.h"
#include "remote/tl-remote-diagnose.h"
#include "remote/tl-remote-target.h"
#include "run/tl-gauss-run.h"

#include "tl-config.h"

#include <math.h>

static MarkedWorker worker;

static TlRemoteHost *
local_host (void)
{
  g_autoptr (TlRemoteTarget) t = tl_remote_target_new (NULL, NULL, worker.cli);
  return tl_remote_host_new (t);
}

/* ---- pieces ---------------------------------------------------------------------- */

/* Whatever the words, the remote shell gets exactly them: run the command
 * line ssh would send through sh with printf in place of exec. */
static void
test_quoting (void)
{
  const char *nasty[] = { "a b", "it's", "\"q\"", "x; rm -rf ~", "$(id)", "`id`", "~/bin/t l",
                          "*", "", "back\\slash", NULL };
  g_autoptr (TlRemoteTarget) t = tl_remote_target_new ("host; reboot", NULL, NULL);
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) argv = tl_remote_target_command_argv (t, nasty, &error);
  g_assert_no_error (error);
  guint n = g_strv_length (argv);
  g_assert_cmpstr (argv[n - 3], ==, "--");           /* the destination is never an option */
  g_assert_cmpstr (argv[n - 2], ==, "host; reboot"); /* and one word */
  g_assert_true (g_str_has_prefix (argv[n - 1], "exec "));
  g_autofree char *line = g_strconcat ("printf '%s\\n'", argv[n - 1] + 4, NULL);
  const char *sh[] = { "sh", "-c", line, NULL };
  g_autofree char *out = NULL;
  g_assert_true (g_spawn_sync (NULL, (char **) sh, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out,
                               NULL, NULL, &error));
  g_auto (GStrv) words = g_strsplit (out, "\n", -1);
  for (guint i = 0; nasty[i]; i++)
    {
      if (g_str_has_prefix (nasty[i], "~/"))
        {
          g_autofree char *home = g_strconcat (g_get_home_dir (), nasty[i] + 1, NULL);
          /* the tilde works; sh's HOME may differ from GLib's passwd home */
          g_assert_true (g_str_has_suffix (words[i], nasty[i] + 1));
          g_assert_false (g_str_has_prefix (words[i], "~"));
          continue;
        }
      g_assert_cmpstr (words[i], ==, nasty[i]);
    }

  /* a launcher line splits into words; none becomes a command */
  g_autoptr (TlRemoteTarget) l = tl_remote_target_new ("h", "srun --time=10; touch /tmp/x", NULL);
  g_auto (GStrv) worker_argv = tl_remote_target_worker_argv (l, &error);
  g_assert_no_error (error);
  const char *cmd = worker_argv[g_strv_length (worker_argv) - 1];
  g_assert_nonnull (strstr (cmd, "'--time=10;'"));
  g_assert_nonnull (strstr (cmd, "'touch' '/tmp/x'"));

  /* refused: an option as destination, an unbalanced launcher */
  g_autoptr (TlRemoteTarget) opt = tl_remote_target_new ("-oProxyCommand=id", NULL, NULL);
  g_assert_false (tl_remote_target_check (opt, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_INVALID);
  g_clear_error (&error);
  g_autoptr (TlRemoteTarget) bad = tl_remote_target_new ("h", "srun 'x", NULL);
  g_assert_null (tl_remote_target_worker_argv (bad, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_INVALID);
}

static void
test_scancel_and_lines (void)
{
  g_autoptr (TlRemoteTarget) t = tl_remote_target_new (NULL, "env SLURM_CONF=/x/s.conf /opt/slurm/bin/srun -N1", NULL);
  g_auto (GStrv) argv = tl_remote_target_scancel_argv (t, "1234");
  g_autofree char *joined = g_strjoinv (" ", argv);
  g_assert_cmpstr (joined, ==, "env SLURM_CONF=/x/s.conf /opt/slurm/bin/scancel 1234");
  g_autoptr (TlRemoteTarget) no_srun = tl_remote_target_new (NULL, "env A=1", NULL);
  g_assert_null (tl_remote_target_scancel_argv (no_srun, "1"));

  g_autofree char *job = NULL;
  gboolean queued = FALSE;
  g_assert_true (tl_remote_parse_launcher_line ("srun: job 77 queued and waiting for resources",
                                                &job, &queued));
  g_assert_cmpstr (job, ==, "77");
  g_assert_true (queued);
  g_clear_pointer (&job, g_free);
  g_assert_true (tl_remote_parse_launcher_line ("srun: job 77 has been allocated resources", &job,
                                                &queued));
  g_assert_false (queued);
  g_assert_false (tl_remote_parse_launcher_line ("srun: error: invalid gres", &job, &queued));
}

/* Slurm's words, as srun and slurmstepd write them, said naming the host
 * (the refusal and the queue's are met for real in test-remote-ssh.c; a
 * time limit takes minutes there). */
static void
test_slurm_diagnosis (void)
{
  g_autoptr (TlRemoteTarget) t = tl_remote_target_new ("gpu1", "srun --time=1", NULL);
  g_autoptr (GError) limit = tl_remote_diagnose (
    t, TL_REMOTE_STAGE_JOB, 143,
    "srun: Job step aborted: Waiting up to 32 seconds for job step to finish.\n"
    "slurmstepd: error: *** STEP 12.0 ON node3 CANCELLED AT 2026-11-29T02:00:00 DUE TO TIME "
    "LIMIT ***\n"
    "srun: error: node3: task 0: Terminated\n");
  g_assert_error (limit, TL_REMOTE_ERROR, TL_REMOTE_ERROR_LAUNCHER);
  g_assert_nonnull (strstr (limit->message, "gpu1"));
  g_assert_nonnull (strstr (limit->message, "time limit"));
  g_assert_nonnull (strstr (limit->message, "STEP 12.0")); /* the line that says so, quoted */

  g_autoptr (GError) refused = tl_remote_diagnose (
    t, TL_REMOTE_STAGE_CONNECTING, 1,
    "srun: error: Unable to allocate resources: Invalid partition name specified\n");
  g_assert_error (refused, TL_REMOTE_ERROR, TL_REMOTE_ERROR_LAUNCHER);
  g_assert_nonnull (strstr (refused->message, "gpu1"));
  g_assert_nonnull (strstr (refused->message, "Invalid partition name"));

  g_autoptr (GError) cancelled = tl_remote_diagnose (
    t, TL_REMOTE_STAGE_JOB, 1, "srun: error: node3: task 0: Killed\nsrun: Force Terminated job 9\n"
    "slurmstepd: error: *** JOB 9 ON node3 CANCELLED AT 2026-11-29T02:00:00 ***\n");
  g_assert_error (cancelled, TL_REMOTE_ERROR, TL_REMOTE_ERROR_LAUNCHER);
  g_assert_nonnull (strstr (cancelled->message, "gpu1"));
}

static void
test_npy_and_pool (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) m = tl_generate ("random-uniform", TL_DTYPE_FLOAT64, 5, 7, 3, &error);
  g_assert_no_error (error);
  g_autoptr (GBytes) npy = tl_wire_matrix_to_npy (m, &error);
  g_autoptr (TlMatrix) back = tl_wire_matrix_from_npy (npy, "m", &error);
  g_assert_no_error (error);
  g_assert_true (tl_matrix_equal (m, back));

  /* straight from the rows (a view's too), as NPY that the loader reads,
   * described by the message so the receiver can read into a matrix */
  for (TlDtype d = 0; d < TL_DTYPE_COUNT; d++)
    {
      g_autoptr (TlMatrix) whole = tl_matrix_new (d, 9, 11, &error);
      g_assert_no_error (error);
      for (gsize i = 0; i < 9; i++)
        for (gsize j = 0; j < 11; j++)
          tl_matrix_set (whole, i, j, (double) (i * 131 + j * 7) - 500.25 * (d != TL_DTYPE_INT32));
      g_autoptr (TlMatrix) view = tl_matrix_view (whole, 2, 3, 5, 7);
      g_autoptr (GOutputStream) out = g_memory_output_stream_new_resizable ();
      g_assert_true (tl_wire_write_matrix (out, view, &error));
      g_output_stream_close (out, NULL, NULL);
      g_autoptr (GBytes) bytes = g_memory_output_stream_steal_as_bytes (
        G_MEMORY_OUTPUT_STREAM (out));
      g_autoptr (TlMatrix) loaded = tl_wire_matrix_from_npy (bytes, "view", &error);
      g_assert_no_error (error);
      g_assert_true (tl_matrix_equal (view, loaded));

      JsonBuilder *b = tl_wire_begin ("matrix");
      tl_wire_add_matrix_form (b, view);
      g_autoptr (GBytes) line = tl_wire_end (b);
      const char *type = NULL;
      g_autoptr (JsonObject) msg = tl_wire_parse (g_bytes_get_data (line, NULL),
                                                  g_bytes_get_size (line) - 1, &type, &error);
      gsize header = 0;
      g_autoptr (TlMatrix) into = tl_wire_matrix_for_message (msg, &header, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (into->rows, ==, 5);
      g_assert_cmpuint (into->cols, ==, 7);
      g_assert_cmpint (into->dtype, ==, d);
      g_assert_cmpuint (header + tl_matrix_n_bytes (into), ==, g_bytes_get_size (bytes));
      g_assert_true (tl_wire_check_npy_header (into, g_bytes_get_data (bytes, NULL), header));
      memcpy (into->data, (const char *) g_bytes_get_data (bytes, NULL) + header,
              tl_matrix_n_bytes (into));
      g_assert_true (tl_matrix_equal (view, into));
      /* a header of another shape is not this matrix's */
      g_autoptr (GBytes) other = tl_wire_npy_header (d, 7, 5);
      g_assert_false (tl_wire_check_npy_header (into, g_bytes_get_data (other, NULL), header));
    }

  guint fr = 0, fc = 0;
  tl_matrix_set (m, 4, 6, NAN);
  g_autoptr (TlMatrix) pooled = tl_wire_pool_mean (m, 3, &fr, &fc, &error);
  g_assert_no_error (error);
  /* 7 columns need blocks of 3 to fit in 3; the rows get the same */
  g_assert_cmpuint (fr, ==, 3);
  g_assert_cmpuint (fc, ==, 3);
  g_assert_cmpuint (pooled->rows, ==, 2);
  g_assert_cmpuint (pooled->cols, ==, 3);
  double mean = 0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      mean += tl_matrix_get (m, i, j) / 9;
  g_assert_cmpfloat_with_epsilon (tl_matrix_get (pooled, 0, 0), mean, 1e-12);
  g_assert_true (isnan (tl_matrix_get (pooled, 1, 2))); /* a NaN stays visible */
}

/* ---- jobs through a local worker --------------------------------------------------- */

static void
test_local_devices (void)
{
  TlRemoteHost *host = local_host ();
  Waiter w;
  waiter_init (&w, tl_remote_host_get_runner (host));
  tl_remote_host_probe_async (host, NULL, waiter_done_cb, &w);
  waiter_run (&w);
  g_autoptr (GError) error = NULL;
  g_autoptr (TlRemoteDevices) d = tl_remote_host_probe_finish (host, w.result, &error);
  g_assert_no_error (error);
  /* the worker inherits TL_GPU_STUB_DEVICES=2 (main): two simulated GPUs */
  g_assert_cmpuint (d->gpus->len, ==, 2);
  g_assert_cmpstr (g_array_index (d->gpus, TlGpuFacts, 1).name, ==, "Simulated GPU 1");
  g_assert_cmpstr (d->machine.host_name, ==, g_get_host_name ());
  g_assert_cmpuint (d->machine.cores, >, 0);
  waiter_clear (&w, tl_remote_host_get_runner (host));
  tl_remote_host_free (host);
  g_assert_cmpuint (marked_worker_wait_gone (&worker, 5), ==, 0);
}

static void
test_local_gemm (void)
{
  TlRemoteHost *host = local_host ();
  check_gemm (host, 97, 55, 83, "local");
  tl_remote_host_free (host);
  g_assert_cmpuint (marked_worker_wait_gone (&worker, 5), ==, 0);

  /* the recipe made there what it makes here */
  g_autoptr (GError) error = NULL;
  g_autoptr (TlJob) job = remote_test_job (97, 55, 83, "cpu-naive", 1);
  g_autoptr (TlMatrix) here = tl_generate ("random-uniform", TL_DTYPE_FLOAT32, 97, 55, job->a.seed,
                                           &error);
  TlRemoteHost *again = local_host ();
  Waiter w;
  waiter_init (&w, tl_remote_host_get_runner (again));
  g_autoptr (TlRunRecord) record = remote_test_gemm (again, job, &w, &error);
  g_assert_no_error (error);
  g_assert_true (tl_matrix_equal (here, record->a));
  waiter_clear (&w, tl_remote_host_get_runner (again));
  tl_remote_host_free (again);
}

/* Matrices of more than a megabyte come whole; beyond 2048 along an axis
 * they come pooled, and the record's note says so. */
static void
test_local_large (void)
{
  TlRemoteHost *host = local_host ();
  Waiter w;
  waiter_init (&w, tl_remote_host_get_runner (host));
  g_autoptr (TlJob) job = remote_test_job (2100, 8, 1500, "cpu-blocked", 1);
  g_autoptr (GError) error = NULL;
  g_autoptr (TlRunRecord) record = remote_test_gemm (host, job, &w, &error);
  g_assert_no_error (error);
  TlKernelRun *run = record->runs->pdata[0];
  g_assert_true (run->passed);
  g_assert_nonnull (run->c);
  g_assert_cmpuint (run->c->rows, ==, 1050); /* 2100 in blocks of 2 */
  g_assert_cmpuint (run->c->cols, ==, 750);
  g_assert_cmpuint (record->reference->rows, ==, 1050);
  g_assert_nonnull (strstr (record->note, "2048"));
  waiter_clear (&w, tl_remote_host_get_runner (host));

  Waiter w2;
  waiter_init (&w2, tl_remote_host_get_runner (host));
  g_autoptr (TlJob) whole = remote_test_job (700, 300, 800, "cpu-blocked", 1);
  g_autoptr (TlRunRecord) r2 = remote_test_gemm (host, whole, &w2, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (((TlKernelRun *) r2->runs->pdata[0])->c->rows, ==, 700);
  g_assert_null (r2->note);
  waiter_clear (&w2, tl_remote_host_get_runner (host));
  tl_remote_host_free (host);
}

/* A job run in this process: the record. */
static TlRunRecord *
run_here (const TlJob *job)
{
  g_autoptr (TlRunner) runner = tl_runner_new_full (TL_RUNNER_FLAGS_NONE);
  Waiter w;
  waiter_init (&w, runner);
  tl_runner_run_gemm_async (runner, job, NULL, waiter_done_cb, &w);
  waiter_run (&w);
  g_autoptr (GError) error = NULL;
  TlRunRecord *record = tl_runner_run_gemm_finish (runner, w.result, &error);
  g_assert_no_error (error);
  waiter_clear (&w, runner);
  return record;
}

/* C and the reference travel straight from the worker's matrices into
 * new ones here: the same bits as this process makes, job after job of
 * other shapes and dtypes on one worker (the last one's inputs kept
 * there from the first), and a record already in hand keeps its
 * matrices when the next job's arrive. */
static void
test_local_bitwise (void)
{
  TlRemoteHost *host = local_host ();
  const struct { gsize m, k, n; TlDtype dtype; guint64 seed; } jobs[] = {
    { 97, 55, 83, TL_DTYPE_FLOAT32, 1 },
    { 64, 129, 31, TL_DTYPE_FLOAT64, 2 },
    { 97, 55, 83, TL_DTYPE_FLOAT32, 3 },
    { 97, 55, 83, TL_DTYPE_FLOAT32, 1 }, /* A and B as the worker kept them from the first */
  };
  TlRunRecord *there[G_N_ELEMENTS (jobs)], *here[G_N_ELEMENTS (jobs)];
  for (guint j = 0; j < G_N_ELEMENTS (jobs); j++)
    {
      g_autoptr (TlJob) job = tl_job_new_gemm (jobs[j].m, jobs[j].k, jobs[j].n, jobs[j].dtype);
      g_strfreev (job->kernels);
      job->kernels = g_strsplit ("cpu-naive,cpu-blocked", ",", -1);
      job->repeats = 1;
      job->keep_matrices = TRUE;
      job->a.seed = jobs[j].seed;
      job->b.seed = jobs[j].seed + 100;
      Waiter w;
      waiter_init (&w, tl_remote_host_get_runner (host));
      g_autoptr (GError) error = NULL;
      there[j] = remote_test_gemm (host, job, &w, &error);
      g_assert_no_error (error);
      waiter_clear (&w, tl_remote_host_get_runner (host));
      here[j] = run_here (job);
    }
  for (guint j = 0; j < G_N_ELEMENTS (jobs); j++)
    {
      g_assert_true (tl_matrix_equal (there[j]->reference, here[j]->reference));
      g_assert_true (tl_matrix_equal (there[j]->a, here[j]->a));
      for (guint i = 0; i < 2; i++)
        {
          TlKernelRun *a = there[j]->runs->pdata[i], *b = here[j]->runs->pdata[i];
          g_assert_cmpint (a->c->dtype, ==, jobs[j].dtype);
          g_assert_true (tl_matrix_equal (a->c, b->c));
        }
    }
  for (guint j = 0; j < G_N_ELEMENTS (jobs); j++)
    {
      tl_run_record_unref (there[j]);
      tl_run_record_unref (here[j]);
    }
  tl_remote_host_free (host);
}

/* ---- a worker that breaks off: a script that speaks the protocol ----------------- */

/* A worker (a shell script) that says a right hello, takes uploads, and
 * answers the first job with the lines and bytes of the file answer;
 * then it waits for the end of its input (hold) or exits at once. */
static char *
write_scripted_worker (const char *answer, gboolean hold)
{
  JsonBuilder *b = tl_wire_begin ("hello");
  tl_wire_add_versions (b);
  tl_json_member_string (b, "host", "scripted");
  g_autoptr (GBytes) hello = tl_wire_end (b);
  g_autofree char *hello_line = g_strndup (g_bytes_get_data (hello, NULL),
                                           g_bytes_get_size (hello) - 1);
  g_autofree char *quoted = g_shell_quote (answer);
  g_autofree char *script = g_strdup_printf (
    "#!/bin/sh\n"
    "printf '%%s\\n' '%s'\n"
    "while read -r line; do\n"
    "  case \"$line\" in\n"
    "    *'\"type\":\"upload\"'*)\n"
    "      n=$(printf '%%s' \"$line\" | sed 's/.*\"bytes\":\\([0-9]*\\).*/\\1/')\n"
    "      head -c \"$n\" >/dev/null ;;\n"
    "    *'\"type\":\"job\"'*)\n"
    "      cat %s\n"
    "      %s\n"
    "      exit 0 ;;\n"
    "  esac\n"
    "done\n",
    hello_line, quoted, hold ? "cat >/dev/null" : ":");
  char *path = g_build_filename (worker.dir, "scripted-worker", NULL);
  g_assert_true (g_file_set_contents (path, script, -1, NULL));
  g_assert_cmpint (g_chmod (path, 0755), ==, 0);
  return path;
}

static void
append_line (GString *out, JsonBuilder *b)
{
  tl_json_member_int (b, "id", 1);
  g_autoptr (GBytes) line = tl_wire_end (b);
  g_string_append_len (out, g_bytes_get_data (line, NULL), g_bytes_get_size (line));
}

/* Runs a Gauss job with a recorder against a worker answering with
 * answer: its error; the recorder must be as it was (nothing of a
 * recording that did not come whole). */
static GError *
gauss_against (const char *answer, gboolean hold)
{
  g_autofree char *answer_path = g_build_filename (worker.dir, "answer", NULL);
  g_assert_true (g_file_set_contents (answer_path, answer, -1, NULL));
  g_autofree char *script = write_scripted_worker (answer_path, hold);
  g_autoptr (TlRemoteTarget) t = tl_remote_target_new (NULL, NULL, script);
  TlRemoteHost *host = tl_remote_host_new (t);
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) a = tl_generate ("random-uniform", TL_DTYPE_FLOAT64, 6, 6, 5, &error);
  g_autoptr (TlLuRecorder) rec = tl_lu_recorder_new (0);
  TlGaussJob job = { .kind = TL_GAUSS_FACTOR, .a = a, .recorder = rec };
  job.options.kernel_id = "lu-cpu-unblocked";
  Waiter w;
  waiter_init (&w, tl_remote_host_get_runner (host));
  tl_remote_host_run_gauss_async (host, &job, NULL, waiter_done_cb, &w);
  waiter_run (&w);
  GError *failed = NULL;
  g_autoptr (TlGaussResult) done = tl_runner_run_gauss_finish (tl_remote_host_get_runner (host),
                                                               w.result, &failed);
  g_assert_null (done);
  g_assert_false (rec->finished);
  g_assert_cmpuint (rec->steps->len, ==, 0);
  waiter_clear (&w, tl_remote_host_get_runner (host));
  tl_remote_host_free (host);
  g_test_message ("%s", failed->message);
  return failed;
}

/* A recording that stops short is never taken as whole: parts missing
 * before the end is said in words; a stream cut inside a part is a lost
 * connection, named. */
static void
test_local_truncated_gauss (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) a = tl_generate ("random-uniform", TL_DTYPE_FLOAT64, 6, 6, 5, &error);
  g_autoptr (TlLuRecorder) rec = tl_lu_recorder_new (0);
  g_autoptr (TlLuResult) lu = NULL;
  g_assert_true (tl_lu_factor ("lu-cpu-unblocked", a, 0, TL_PIVOTING_PARTIAL, rec, NULL, &lu,
                               &error));
  g_autoptr (GString) head = g_string_new (NULL);
  append_line (head, tl_wire_gauss_record (rec));
  for (guint i = 0; i < 3; i++)
    append_line (head, tl_wire_gauss_part (rec, TL_LU_PART_STEP, i, 1, NULL));

  /* the end comes after three of six steps */
  g_autoptr (GString) short_one = g_string_new (head->str);
  JsonBuilder *b = tl_wire_begin ("gauss");
  json_builder_set_member_name (b, "lu");
  json_builder_begin_object (b);
  tl_json_member_string (b, "kernel", "lu-cpu-unblocked");
  json_builder_end_object (b);
  tl_json_member_bool (b, "recorded", TRUE);
  append_line (short_one, b);
  b = tl_wire_begin ("done");
  tl_json_member_string (b, "status", "ok");
  append_line (short_one, b);
  g_autoptr (GError) incomplete = gauss_against (short_one->str, TRUE);
  g_assert_error (incomplete, TL_REMOTE_ERROR, TL_REMOTE_ERROR_PROTOCOL);
  g_assert_nonnull (strstr (incomplete->message, "incomplete"));

  /* the worker ends in the middle of the fourth step's line */
  g_autoptr (GString) cut = g_string_new (head->str);
  g_string_append (cut, "{\"type\":\"gauss-part\",\"part\":\"step\",\"index\":3,\"values\":[{\"k\":");
  g_autoptr (GError) lost = gauss_against (cut->str, FALSE);
  g_assert_error (lost, TL_REMOTE_ERROR, TL_REMOTE_ERROR_LOST);
  g_assert_nonnull (strstr (lost->message, "this computer"));
}

/* A matrix whose bytes stop short: the job fails as a lost connection,
 * and no record (with half a reference) is shown as whole. */
static void
test_local_truncated_matrix (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) m = tl_generate ("random-uniform", TL_DTYPE_FLOAT64, 40, 30, 5, &error);
  JsonBuilder *b = tl_wire_begin ("matrix");
  tl_json_member_string (b, "name", "reference");
  tl_json_member_int (b, "rows", 40);
  tl_json_member_int (b, "cols", 30);
  tl_wire_add_matrix_form (b, m);
  g_autoptr (GString) answer = g_string_new (NULL);
  append_line (answer, b);
  g_autoptr (GBytes) header = tl_wire_npy_header (m->dtype, m->rows, m->cols);
  g_string_append_len (answer, g_bytes_get_data (header, NULL), g_bytes_get_size (header));
  g_string_append_len (answer, m->data, tl_matrix_n_bytes (m) / 2);
  g_autofree char *answer_path = g_build_filename (worker.dir, "answer", NULL);
  g_assert_true (g_file_set_contents (answer_path, answer->str, answer->len, NULL));
  g_autofree char *script = write_scripted_worker (answer_path, FALSE);
  g_autoptr (TlRemoteTarget) t = tl_remote_target_new (NULL, NULL, script);
  TlRemoteHost *host = tl_remote_host_new (t);
  g_autoptr (TlJob) job = remote_test_job (40, 20, 30, "cpu-naive", 1);
  Waiter w;
  waiter_init (&w, tl_remote_host_get_runner (host));
  g_autoptr (TlRunRecord) record = remote_test_gemm (host, job, &w, &error);
  g_assert_null (record);
  g_assert_error (error, TL_REMOTE_ERROR, TL_REMOTE_ERROR_LOST);
  g_assert_nonnull (strstr (error->message, "this computer"));
  g_test_message ("%s", error->message);
  waiter_clear (&w, tl_remote_host_get_runner (host));
  tl_remote_host_free (host);
}

/* Inputs handed over in memory go as uploads; the record keeps ours. */
static void
test_local_upload (void)
{
  TlRemoteHost *host = local_host ();
  Waiter w;
  waiter_init (&w, tl_remote_host_get_runner (host));
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) a = tl_generate ("random-normal", TL_DTYPE_FLOAT64, 61, 47, 7, &error);
  g_assert_no_error (error);
  tl_matrix_set (a, 3, 4, 1e6); /* not what any recipe makes */
  g_autoptr (TlJob) job = tl_job_new_gemm (61, 47, 61, TL_DTYPE_FLOAT64);
  g_strfreev (job->kernels);
  job->kernels = g_strsplit ("cpu-blocked", ",", -1);
  job->repeats = 2;
  job->keep_matrices = TRUE;
  tl_source_clear (&job->a);
  tl_source_clear (&job->b);
  job->a.kind = job->b.kind = TL_SOURCE_MATRIX;
  job->a_matrix = tl_matrix_ref (a);
  /* B is Aᵀ's shape: a second upload */
  g_autoptr (TlMatrix) bt = tl_generate ("random-normal", TL_DTYPE_FLOAT64, 47, 61, 8, &error);
  job->b_matrix = tl_matrix_ref (bt);
  g_autoptr (TlRunRecord) record = remote_test_gemm (host, job, &w, &error);
  g_assert_no_error (error);
  TlKernelRun *run = record->runs->pdata[0];
  g_assert_true (run->passed);
  g_assert_true (record->a == a);
  /* C there is A·B of our A: check one element against a plain sum */
  double c01 = 0;
  for (gsize p = 0; p < 47; p++)
    c01 += tl_matrix_get (a, 3, p) * tl_matrix_get (bt, p, 1);
  g_assert_cmpfloat_with_epsilon (tl_matrix_get (run->c, 3, 1), c01, 1e-6 * fabs (c01));
  waiter_clear (&w, tl_remote_host_get_runner (host));
  tl_remote_host_free (host);
}

/* Whether two JSON values print the same (both taken); doubles print
 * in their shortest exact form, so the same text is the same bits. */
static gboolean
same_json (JsonNode *x, JsonNode *y)
{
  g_autofree char *tx = tl_json_to_data (x, FALSE, NULL);
  g_autofree char *ty = tl_json_to_data (y, FALSE, NULL);
  json_node_unref (x);
  json_node_unref (y);
  if (strcmp (tx, ty) != 0)
    g_test_message ("%.200s\n  differs from\n%.200s", tx, ty);
  return strcmp (tx, ty) == 0;
}

static JsonNode *
part_json (const TlLuRecorder *rec, TlLuRecordPart part, guint i)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  tl_lu_recorder_add_part (b, rec, part, i, NULL);
  return json_builder_get_root (b);
}

static void
test_local_gauss (void)
{
  TlRemoteHost *host = local_host ();
  Waiter w;
  waiter_init (&w, tl_remote_host_get_runner (host));
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) a = tl_generate ("random-uniform", TL_DTYPE_FLOAT64, 150, 150, 11, &error);
  g_autoptr (TlLuRecorder) rec = tl_lu_recorder_new (0);
  TlGaussJob job = { .kind = TL_GAUSS_FACTOR, .a = a, .recorder = rec };
  job.options.kernel_id = "lu-cpu-blocked";
  job.options.block_size = 32;
  job.options.pivoting = TL_PIVOTING_PARTIAL;
  tl_remote_host_run_gauss_async (host, &job, NULL, waiter_done_cb, &w);
  waiter_run (&w);
  g_autoptr (TlGaussResult) done = tl_runner_run_gauss_finish (tl_remote_host_get_runner (host),
                                                               w.result, &error);
  g_assert_no_error (error);
  g_autoptr (TlLuResult) here = NULL;
  g_autoptr (TlLuRecorder) local = tl_lu_recorder_new (0);
  g_assert_true (tl_lu_factor ("lu-cpu-blocked", a, 32, TL_PIVOTING_PARTIAL, local, NULL, &here,
                               &error));
  g_assert_cmpint (done->lu->det_sign, ==, here->det_sign);
  g_assert_cmpfloat_with_epsilon (done->lu->log_abs_det, here->log_abs_det, 1e-9);
  /* the steps came back into our recorder, step by step, as this process
   * records them: every step and snapshot the same to the last bit (the
   * block steps' phase times are the other process's clock) */
  g_assert_true (rec->finished);
  g_assert_cmpuint (rec->steps->len, ==, 150);
  g_assert_cmpuint (rec->rows, ==, 150);
  g_assert_cmpuint (rec->snapshots->len, ==, local->snapshots->len);
  g_assert_cmpuint (rec->blocks->len, ==, local->blocks->len);
  g_assert_true (same_json (tl_lu_recorder_head_to_json (rec), tl_lu_recorder_head_to_json (local)));
  for (int part = TL_LU_PART_STEP; part < TL_LU_N_PARTS; part += 2) /* steps, snapshots */
    for (guint i = 0; i < tl_lu_recorder_n_parts (local, part); i++)
      g_assert_true (same_json (part_json (rec, part, i), part_json (local, part, i)));
  waiter_clear (&w, tl_remote_host_get_runner (host));
  tl_remote_host_free (host);
}

/* Cancel during a kernel: the worker stops at its next boundary; the app
 * has its outcome well within 2.5 s. */
static void
test_local_cancel (void)
{
  TlRemoteHost *host = local_host ();
  check_cancel (host);
  tl_remote_host_free (host);
  g_assert_cmpuint (marked_worker_wait_gone (&worker, 5), ==, 0);
}

/* The worker killed after the first kernel: what finished is kept, marked. */
static void
kill_marked_worker (gpointer data)
{
  const MarkedWorker *mw = data;
  GDir *proc = g_dir_open ("/proc", 0, NULL);
  const char *name;
  while ((name = g_dir_read_name (proc)))
    {
      g_autofree char *path = g_build_filename ("/proc", name, "cmdline", NULL);
      g_autofree char *cmd = NULL;
      if (g_file_get_contents (path, &cmd, NULL, NULL) && g_str_has_prefix (cmd, mw->cli))
        kill (atoi (name), SIGKILL);
    }
  g_dir_close (proc);
}

static void
test_local_killed (void)
{
  TlRemoteHost *host = local_host ();
  check_killed (host, kill_marked_worker, &worker, "this computer");
  tl_remote_host_free (host);
  g_assert_cmpuint (marked_worker_wait_gone (&worker, 5), ==, 0);
}

static GError *
probe_error (const TlRemoteTarget *target)
{
  TlRemoteHost *host = tl_remote_host_new (target);
  Waiter w;
  waiter_init (&w, tl_remote_host_get_runner (host));
  tl_remote_host_probe_async (host, NULL, waiter_done_cb, &w);
  waiter_run (&w);
  GError *error = NULL;
  TlRemoteDevices *d = tl_remote_host_probe_finish (host, w.result, &error);
  g_assert_null (d);
  waiter_clear (&w, tl_remote_host_get_runner (host));
  tl_remote_host_free (host);
  return error;
}

static void
test_local_version (void)
{
  g_autofree char *foreign = write_foreign_worker (&worker);
  g_autoptr (TlRemoteTarget) t = tl_remote_target_new (NULL, NULL, foreign);
  g_autoptr (GError) error = probe_error (t);
  g_assert_error (error, TL_REMOTE_ERROR, TL_REMOTE_ERROR_VERSION);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "9.9.9"));      /* theirs */
  g_assert_nonnull (strstr (error->message, "protocol 99"));
  g_autofree char *ours = g_strdup_printf ("protocol %d ", TL_WIRE_PROTOCOL);
  g_assert_nonnull (strstr (error->message, ours));
  g_assert_nonnull (strstr (error->message, "Install the same Tilelab version"));
  g_unlink (foreign);
  /* the same version number from other sources (a build of another
   * commit) is told apart: "install the same version" would puzzle */
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *hello = g_strdup_printf ("{\"protocol\":%d,\"schema\":\"tilelab-run/1\","
                                            "\"gauss_schema\":1,\"version\":\"%s\"}",
                                            TL_WIRE_PROTOCOL - 1, TL_VERSION);
  g_assert_true (json_parser_load_from_data (parser, hello, -1, NULL));
  g_autoptr (GError) same = NULL;
  g_assert_false (tl_wire_check_versions (json_node_get_object (json_parser_get_root (parser)),
                                          "gpu1's tilelab-cli", &same));
  g_assert_nonnull (strstr (same->message, "built from different sources"));
}

static void
test_local_missing (void)
{
  g_autoptr (TlRemoteTarget) t = tl_remote_target_new (NULL, NULL, "/nonexistent/tilelab-cli");
  g_autoptr (GError) error = probe_error (t);
  g_assert_error (error, TL_REMOTE_ERROR, TL_REMOTE_ERROR_NO_WORKER);
  g_assert_nonnull (strstr (error->message, "this computer"));
}

/* ---- tilelab-cli --remote-cli ------------------------------------------------------ */

static void
test_cli_local (void)
{
  g_autofree char *record = g_build_filename (worker.dir, "out", "run.json", NULL);
  const char *args[] = { "--remote-cli", worker.cli, "gemm", "--kernel", "cpu-blocked", "--size",
                         "33x21x17", "--repeats", "2", "--record", record, "--save-matrices", NULL };
  g_autofree char *out = NULL, *err = NULL;
  int rc = cli_test_spawn (args, NULL, &out, &err);
  g_test_message ("%s%s", out, err);
  g_assert_cmpint (rc, ==, 0);
  g_assert_nonnull (strstr (out, record));            /* the local path, not the worker's */
  g_assert_null (strstr (out, "tilelab-worker-"));
  g_autoptr (GError) error = NULL;
  g_autoptr (TlRunRecord) r = tl_run_record_load (record, TL_RECORD_LOAD_MATRICES, &error);
  g_assert_no_error (error);
  g_assert_nonnull (r->reference);                   /* the .npy files came beside it */
  g_assert_nonnull (strstr (r->command_line, "--remote-cli"));
  g_assert_nonnull (json_object_get_member (r->extensions, "remote"));
  g_autofree char *out_dir = g_path_get_dirname (record);
  g_autoptr (GDir) dir = g_dir_open (out_dir, 0, NULL);
  const char *name;
  while ((name = g_dir_read_name (dir)))
    {
      g_autofree char *p = g_build_filename (out_dir, name, NULL);
      g_unlink (p);
    }
  g_rmdir (out_dir);
}

static void
test_cli_interrupt (void)
{
  const char *argv[] = { cli_path, "--remote-cli", worker.cli, "gemm", "--kernel", "cpu-naive",
                         "--size", "600", "--repeats", "100", NULL };
  /* the client and the worker */
  double took_ms = 0;
  g_assert_cmpint (interrupt_cli (&worker, argv, 2, &took_ms), ==, 130);
  g_test_message ("Ctrl+C → exit: %.0f ms", took_ms);
  g_assert_cmpuint (marked_worker_wait_gone (&worker, 3), ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  /* the stub's two simulated GPUs, in this process and its workers (in a
   * CUDA build too: its module pointed away) */
  g_setenv ("TL_GPU_STUB_DEVICES", "2", TRUE);
  g_setenv ("TILELAB_GPU_BACKEND", "/nonexistent/libtilelab-gpu-cuda.so", TRUE);
  marked_worker_init (&worker);
  if (!g_file_test (cli_path, G_FILE_TEST_IS_EXECUTABLE))
    return remote_test_skip_all ("no tilelab-cli beside the tests");
  g_test_add_func ("/remote/quoting", test_quoting);
  g_test_add_func ("/remote/scancel-and-launcher-lines", test_scancel_and_lines);
  g_test_add_func ("/remote/slurm-diagnosis", test_slurm_diagnosis);
  g_test_add_func ("/remote/npy-and-pool", test_npy_and_pool);
  g_test_add_func ("/remote/local/devices", test_local_devices);
  g_test_add_func ("/remote/local/gemm", test_local_gemm);
  g_test_add_func ("/remote/local/large", test_local_large);
  g_test_add_func ("/remote/local/upload", test_local_upload);
  g_test_add_func ("/remote/local/gauss", test_local_gauss);
  g_test_add_func ("/remote/local/bitwise", test_local_bitwise);
  g_test_add_func ("/remote/local/truncated-gauss", test_local_truncated_gauss);
  g_test_add_func ("/remote/local/truncated-matrix", test_local_truncated_matrix);
  g_test_add_func ("/remote/local/cancel", test_local_cancel);
  g_test_add_func ("/remote/local/killed", test_local_killed);
  g_test_add_func ("/remote/local/version", test_local_version);
  g_test_add_func ("/remote/local/missing", test_local_missing);
  g_test_add_func ("/remote/cli/local", test_cli_local);
  g_test_add_func ("/remote/cli/interrupt", test_cli_interrupt);
  int rc = g_test_run ();
  marked_worker_clear (&worker);
  return rc;
}
