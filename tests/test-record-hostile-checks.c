/* test-record-hostile-checks.c — records whose numbers contradict each
 * other, refused with the file's name, the JSON path and the values:
 * blocks off the tile grid or on one tile twice, a plan whose counts are
 * not its tiles, a Gauss record whose pivots disagree (each case is a
 * file of the fuzz corpus, so the harnesses replay it too).  And what
 * Tilelab writes still loads: the CLI's records of every CPU kernel and
 * Gauss mode, planned runs with split-k blocks, docs/records/.  Then
 * `tilelab-cli info` on records and on a file of no known format, and
 * `gemm --save-matrices` all or nothing when a write fails part way. */
#include <glib/gstdio.h>
#include <errno.h>
#include <string.h>
#include <sys/resource.h>

#include "core/tl-json.h"
#include "record/tl-gauss-record.h"
#include "record/tl-record-file.h"
#include "tl-gpu.h"

#include "cli-test-util.h"

static char *tmp_dir;

static char *
corpus_path (const char *harness, const char *name)
{
  return g_build_filename (g_getenv ("TL_SOURCE_DIR"), "tests", "fuzz", "corpus", harness, name,
                           NULL);
}

static void
expect_refused (const char *path, const char *json_path, const char *what)
{
  TlRecordFile file;
  g_autoptr (GError) error = NULL;
  if (tl_record_file_load (&file, path, TL_RECORD_LOAD_DEFAULT, &error))
    g_error ("%s loaded", path);
  g_autofree char *base = g_path_get_basename (path);
  const char *needles[] = { base, json_path, what };
  for (guint k = 0; k < G_N_ELEMENTS (needles); k++)
    if (strstr (error->message, needles[k]) == NULL)
      g_error ("“%s” lacks “%s”", error->message, needles[k]);
}

/* The corpus's inconsistent records: what each is refused for. */
static void
test_refusals (void)
{
  const struct { const char *harness, *file, *json_path, *what; } cases[] = {
    { "run-record", "blocks-tile-m-zero.json", "$.runs[0].blocks.tile_m", "0: a tile has at least" },
    { "run-record", "blocks-tile-n-missing.json", "$.runs[0].blocks.tile_n", "missing, while" },
    { "run-record", "blocks-outside-grid.json", "$.runs[0].blocks.block_x[4]",
      "tile (5, 1) lies outside the 3×3 tiles of 64×64 that make a 150×130 C" },
    { "run-record", "blocks-tile-twice.json", "$.runs[0].blocks.block_x[7]",
      "tile (2, 0) of launch 0 is recorded twice (also at [2])" },
    { "run-record", "split-k-slice-twice.json", "$.runs[0].blocks.block_x[3]",
      "tile (1, 0) of launch 0 is recorded twice" },
    { "run-record", "plan-tiles-wrong.json", "$.runs[0].plan.tiles",
      "8, but a 150×130 C has 9 tiles of 64×64" },
    { "run-record", "plan-k-per-split-wrong.json", "$.runs[0].plan.k_per_split",
      "20, but k = 20 cut in 2 slices makes 10" },
    { "run-record", "plan-work-wrong.json", "$.runs[0].plan.work", "9, but 9 tiles in 2 slices" },
    { "run-record", "plan-splits-zero.json", "$.runs[0].plan.splits", "0: a plan's tile" },
    { "run-record", "plan-slice-beyond-splits.json", "$.runs[0].blocks.launch[5]",
      "slice 2 of k, but the run's plan cuts k in 2" },
    { "run-record", "plan-tile-not-blocks.json", "$.runs[0].blocks.tile_m",
      "tiles of 32×32, but the run's plan has 64×64" },
    { "gauss-record", "ipiv-not-pivot-row.json", "$.result.ipiv[0]",
      "row 0, but step 0 pivoted on row 5" },
    { "gauss-record", "zero-pivot-of-nonzero.json", "$.steps[2].zero_pivot",
      "true, but the pivot's value is 0.826" },
    { "gauss-record", "pivoting-none-swapped.json", "$.steps[0].pivot_row",
      "row 5, but the record's pivoting is “none”" },
    { "gauss-record", "pivot-not-largest.json", "$.steps[0].pivot_row",
      "partial pivoting takes the largest of the column, 0.978" },
    { "gauss-record", "info-without-zero-pivot.json", "$.result.info",
      "3, but no step recorded has a zero pivot" },
    { "gauss-record", "info-0-with-zero-pivot.json", "$.result.info",
      "0, but the first zero pivot is step 2's (info 3)" },
    { "gauss-record", "snapshots-out-of-order.json", "$.snapshots[2].after_steps",
      "1, not after the snapshot before it (2)" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = corpus_path (cases[i].harness, cases[i].file);
      expect_refused (path, cases[i].json_path, cases[i].what);
    }
  /* right ones beside them: a split-k plan has one block per tile and
   * slice; a singular matrix's record has its zero pivot where info says */
  const char *fine[][2] = { { "run-record", "split-k-blocks.json" },
                            { "gauss-record", "zero-pivot-info-3.json" } };
  for (guint i = 0; i < G_N_ELEMENTS (fine); i++)
    {
      g_autofree char *path = corpus_path (fine[i][0], fine[i][1]);
      TlRecordFile file;
      g_autoptr (GError) error = NULL;
      g_assert_true (tl_record_file_load (&file, path, TL_RECORD_LOAD_DEFAULT, &error));
      g_assert_no_error (error);
      tl_record_file_clear (&file);
    }
}

/* path loads, and what it holds, written and read back, loads again. */
static void
assert_round_trip (const char *path)
{
  TlRecordFile file;
  g_autoptr (GError) error = NULL;
  if (!tl_record_file_load (&file, path, TL_RECORD_LOAD_DEFAULT, &error))
    g_error ("%s", error->message);
  if (file.record && file.lu == NULL)
    {
      g_autofree char *text = tl_run_record_to_string (file.record, FALSE);
      g_autoptr (TlRunRecord) back = tl_run_record_from_data (text, -1, &error);
      g_assert_no_error (error);
    }
  if (file.lu)
    {
      g_autoptr (JsonNode) node = tl_lu_recorder_to_json (file.lu);
      g_autoptr (TlLuRecorder) back = tl_lu_recorder_from_json (node, &error);
      g_assert_no_error (error);
    }
  tl_record_file_clear (&file);
}

/* An older plan lacks tiles, k_per_split and work: they are made from the
 * job, so the plan is whole and, written back, loads again (it was
 * written with zeros that contradicted the job: the fuzzer's
 * fuzz-found-plan-without-k-per-split.json). */
static void
test_plan_counts_filled (void)
{
  g_autofree char *path = corpus_path ("run-record", "plan-counts-missing.json");
  TlRecordFile file;
  g_autoptr (GError) error = NULL;
  g_assert_true (tl_record_file_load (&file, path, TL_RECORD_LOAD_DEFAULT, &error));
  g_assert_no_error (error);
  const TlKernelRun *run = file.record->runs->pdata[0];
  g_assert_true (run->has_plan);
  g_assert_cmpint (run->plan.tiles, ==, 9);       /* 150×130 in 64×64 tiles */
  g_assert_cmpint (run->plan.k_per_split, ==, 10); /* k = 20 in 2 slices */
  g_assert_cmpint (run->plan.work, ==, 18);       /* 9 tiles × 2 slices */
  tl_record_file_clear (&file);
  assert_round_trip (path);
}

static char *
make_record (const char *name, const char *const *args)
{
  char *path = g_build_filename (tmp_dir, name, NULL);
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  for (int k = 0; args[k]; k++)
    g_ptr_array_add (argv, (char *) args[k]);
  g_ptr_array_add (argv, "--record");
  g_ptr_array_add (argv, path);
  g_ptr_array_add (argv, NULL);
  g_autofree char *err = NULL;
  int status = cli_test_spawn ((const char *const *) argv->pdata, NULL, NULL, &err);
  if (status != 0)
    g_error ("making %s failed (%d): %s", name, status, err);
  return path;
}

/* What the CLI writes loads: every CPU kernel instrumented at an odd
 * shape, and the Gauss modes (blocked, unblocked, no pivoting, a zero
 * pivot, float32, GF(p)); and the records made on GPUs (docs/records/). */
static void
test_written_records_load (void)
{
  g_autofree char *singular = g_build_filename (tmp_dir, "singular.txt", NULL);
  g_assert_true (g_file_set_contents (singular, "1 2 0 4\n2 1 0 3\n3 5 0 1\n4 4 0 2\n", -1, NULL));
  g_autofree char *residues = g_build_filename (tmp_dir, "residues.txt", NULL);
  g_assert_true (g_file_set_contents (residues, "3 1 4\n1 5 9\n2 6 5\n", -1, NULL));
  /* the update overflows: step 1 searches a column holding inf */
  g_autofree char *huge = g_build_filename (tmp_dir, "huge.txt", NULL);
  g_assert_true (g_file_set_contents (huge, "1e308 1e308\n-1e308 1e308\n", -1, NULL));
  const char *const runs[][16] = {
    { "gemm", "--kernel", "cpu", "--size", "131x37x97", "--instrument", "--repeats", "2",
      "--save-matrices", NULL },
    { "gemm", "--kernel", "cpu-blocked", "--size", "1x300x1", "--instrument", "--repeats", "1",
      NULL },
    { "lu", "--gen", "random-uniform", "--size", "37x23", "--kernel", "lu-cpu-blocked",
      "--block-size", "8", NULL },
    { "lu", "--gen", "random-uniform", "--size", "19", "--kernel", "lu-cpu-unblocked",
      "--dtype", "float32", NULL },
    { "lu", "--gen", "random-uniform", "--size", "9", "--kernel", "lu-cpu-unblocked",
      "--pivoting", "none", NULL },
    { "lu", singular, "--kernel", "lu-cpu-blocked", "--block-size", "2", NULL },
    { "lu", residues, "--mod", "7", NULL },
    { "lu", huge, "--kernel", "lu-cpu-unblocked", NULL },
  };
  for (guint i = 0; i < G_N_ELEMENTS (runs); i++)
    {
      g_autofree char *name = g_strdup_printf ("written-%u.json", i);
      g_autofree char *path = make_record (name, runs[i]);
      assert_round_trip (path);
    }
  g_autofree char *docs = g_build_filename (g_getenv ("TL_SOURCE_DIR"), "docs", "records", NULL);
  g_autoptr (GDir) dir = g_dir_open (docs, 0, NULL);
  g_assert_nonnull (dir);
  const char *name;
  guint n = 0;
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, ".json"))
      {
        g_autofree char *path = g_build_filename (docs, name, NULL);
        assert_round_trip (path);
        n++;
      }
  g_assert_cmpuint (n, >=, 5);
}

/* Every plan of the planned rungs, at odd shapes, with one block record
 * per tile and slice of k as the rungs record them: written, it loads. */
static void
test_planned_records_load (void)
{
  const char *rungs[] = { "gemm-13-wgmma-tf32", "gemm-14-wgmma-persistent", "gemm-15-dmma-f64",
                          "gemm-16-doublebuf", "gemm-17-simt-tma" };
  const int shapes[][3] = { { 1000, 777, 1111 }, { 67, 300, 45 }, { 4096, 64, 256 } };
  guint checked = 0;
  for (guint r = 0; r < G_N_ELEMENTS (rungs); r++)
    for (guint s = 0; s < G_N_ELEMENTS (shapes); s++)
      for (int p = 0; p < tl_gpu_gemm_plan_count (rungs[r]); p++)
        {
          const int m = shapes[s][0], k = shapes[s][1], n = shapes[s][2];
          g_autoptr (TlJob) job = tl_job_new_gemm (m, k, n, TL_DTYPE_FLOAT32);
          g_autoptr (TlRunRecord) rec = tl_run_record_new (job);
          TlKernelRun *run = tl_kernel_run_new (rungs[r], TL_BACKEND_GPU);
          if (!tl_gpu_gemm_plan_nth (rungs[r], p, m, n, k, NULL, &run->plan))
            {
              tl_kernel_run_free (run);
              continue;
            }
          run->has_plan = TRUE;
          const double samples[] = { 0.25, 0.125, 0.5 };
          tl_kernel_run_set_samples (run, samples, G_N_ELEMENTS (samples));
          const TlGpuGemmPlan *pl = &run->plan;
          const guint tiles_n = (guint) ((n + pl->tile_n - 1) / pl->tile_n);
          const gsize count = (gsize) pl->tiles * pl->splits;
          TlBlockRecord *b = g_new0 (TlBlockRecord, count);
          for (gsize i = 0; i < count; i++)
            b[i] = (TlBlockRecord) { (guint) (i / pl->splits) % tiles_n,
                                     (guint) (i / pl->splits) / tiles_n, (guint) (i % 132),
                                     (guint) (i % pl->splits), i * 10, i * 10 + 5 };
          tl_kernel_run_take_blocks (run, b, count, "sm");
          run->block_tile_m = (guint) pl->tile_m;
          run->block_tile_n = (guint) pl->tile_n;
          g_ptr_array_add (rec->runs, run);
          g_autofree char *text = tl_run_record_to_string (rec, FALSE);
          g_autoptr (GError) error = NULL;
          g_autoptr (TlRunRecord) back = tl_run_record_from_data (text, -1, &error);
          if (back == NULL)
            g_error ("%s plan %s at %d×%d×%d: %s", rungs[r], pl->name, m, k, n, error->message);
          checked++;
        }
  g_assert_cmpuint (checked, >, 20);
}

/* `info` on a run record, a bare Gauss record, a refused record and a
 * file of no format it knows. */
static void
test_info (void)
{
  const char *gemm[] = { "gemm", "--kernel", "cpu-naive", "--size", "8x5x3", NULL };
  g_autofree char *run = make_record ("info-gemm.json", gemm);
  g_autofree char *residues = g_build_filename (tmp_dir, "info-residues.txt", NULL);
  g_assert_true (g_file_set_contents (residues, "3 1\n1 5\n", -1, NULL));
  const char *lu[] = { "lu", residues, "--mod", "7", NULL };
  g_autofree char *gauss = make_record ("info-gauss.json", lu);

  g_auto (Result) r = { 0 };
  cli_test_run (&r, "info", run, gauss, NULL);
  g_assert_cmpint (r.status, ==, 0);
  const char *want[] = { "Tilelab run record (tilelab-run/2)", "gemm, 8 × 5 × 3 (m × k × n), float32",
                         "cpu-naive", "created", "Tilelab Gauss step record", "2 × 2, gfp mod 7",
                         "2 of 2, finished" };
  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    if (strstr (r.out, want[i]) == NULL)
      g_error ("info lacks “%s”:\n%s", want[i], r.out);

  g_autofree char *bad = corpus_path ("run-record", "blocks-outside-grid.json");
  g_auto (Result) refused = { 0 };
  cli_test_run (&refused, "info", bad, NULL);
  g_assert_cmpint (refused.status, ==, 1);
  g_assert_nonnull (strstr (refused.err, "blocks-outside-grid.json: run record: $.runs[0].blocks.block_x[4]"));

  g_autofree char *junk = g_build_filename (tmp_dir, "junk", NULL);
  g_assert_true (g_file_set_contents (junk, "\x01\x02\x03 not numbers\n", -1, NULL));
  g_auto (Result) unknown = { 0 };
  cli_test_run (&unknown, "info", junk, NULL);
  g_assert_cmpint (unknown.status, ==, 1);
  const char *tried[] = { "junk: not a format Tilelab reads", "Matrix Market", "NumPy .npy",
                          "run and Gauss records", "text and CSV" };
  for (guint i = 0; i < G_N_ELEMENTS (tried); i++)
    if (strstr (unknown.err, tried[i]) == NULL)
      g_error ("info lacks “%s”: %s", tried[i], unknown.err);
}

static int
by_name (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

/* The names in dir, sorted, joined by spaces. */
static char *
listing (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;
  while ((name = g_dir_read_name (d)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, by_name);
  g_ptr_array_add (names, NULL);
  return g_strjoinv (" ", (char **) names->pdata);
}

static void
limit_file_size (gpointer data)
{
  struct rlimit rl = { (rlim_t) GPOINTER_TO_SIZE (data), (rlim_t) GPOINTER_TO_SIZE (data) };
  setrlimit (RLIMIT_FSIZE, &rl);
}

/* gemm --save-matrices into dir (a record there before: "kept"), under
 * ulimit -f fsize bytes (0: none); its exit code, stderr in *err. */
static int
save_with_matrices (const char *dir, gsize fsize, char **err)
{
  g_autofree char *record = g_build_filename (dir, "r.json", NULL);
  const char *argv[] = { cli_path, "gemm", "--kernel", "cpu-naive", "--size", "64x64x256",
                         "--repeats", "1", "--save-matrices", "--record", record, NULL };
  int wait_status = 0;
  g_autoptr (GError) error = NULL;
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL,
                               fsize ? limit_file_size : NULL, GSIZE_TO_POINTER (fsize), NULL,
                               err, &wait_status, &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (wait_status)); /* not killed by SIGXFSZ */
  return WEXITSTATUS (wait_status);
}

/* The record and its matrices are one save: a write failing at B (the
 * file too large; B's name taken by a folder) leaves no A, no record, no
 * temporary, and the record that was there as it was. */
static void
test_save_matrices_all_or_none (void)
{
  g_autofree char *dir = g_build_filename (tmp_dir, "save", NULL);
  g_assert_cmpint (g_mkdir (dir, 0755), ==, 0);
  g_autofree char *record = g_build_filename (dir, "r.json", NULL);

  /* 64×64 A is 16 KiB, 64×256 B 64 KiB: B passes ulimit -f 32 KiB */
  g_assert_true (g_file_set_contents (record, "kept\n", -1, NULL));
  g_autofree char *err = NULL;
  g_assert_cmpint (save_with_matrices (dir, 32 << 10, &err), ==, 1);
  g_test_message ("%s", err);
  g_assert_nonnull (strstr (err, "r.B.npy: cannot write: "));
  g_assert_nonnull (strstr (err, g_strerror (EFBIG)));
  g_autofree char *names = listing (dir);
  g_assert_cmpstr (names, ==, "r.json");
  g_autofree char *kept = NULL;
  g_assert_true (g_file_get_contents (record, &kept, NULL, NULL));
  g_assert_cmpstr (kept, ==, "kept\n");

  /* a folder where B goes */
  g_autofree char *b_dir = g_build_filename (dir, "r.B.npy", NULL);
  g_assert_cmpint (g_mkdir (b_dir, 0755), ==, 0);
  g_remove (record);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (save_with_matrices (dir, 0, &err), ==, 1);
  g_assert_nonnull (strstr (err, "r.B.npy: is a folder"));
  g_autofree char *names_b = listing (dir);
  g_assert_cmpstr (names_b, ==, "r.B.npy");
  g_rmdir (b_dir);

  /* and with room, all of them, loading together */
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (save_with_matrices (dir, 0, &err), ==, 0);
  g_autofree char *names_ok = listing (dir);
  g_assert_cmpstr (names_ok, ==, "r.A.npy r.B.npy r.C.cpu-naive.npy r.json r.reference.npy");
  g_autoptr (GError) error = NULL;
  g_autoptr (TlRunRecord) rec = tl_run_record_load (record, TL_RECORD_LOAD_MATRICES, &error);
  g_assert_no_error (error);
  g_assert_nonnull (rec->b);
  g_assert_cmpuint (rec->b->cols, ==, 256);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (!cli_test_find () || g_getenv ("TL_SOURCE_DIR") == NULL)
    return 77;
  tmp_dir = g_dir_make_tmp ("tl-record-checks-XXXXXX", NULL);
  g_test_add_func ("/record-checks/refusals", test_refusals);
  g_test_add_func ("/record-checks/plan-counts-filled", test_plan_counts_filled);
  g_test_add_func ("/record-checks/written-records-load", test_written_records_load);
  g_test_add_func ("/record-checks/planned-records-load", test_planned_records_load);
  g_test_add_func ("/record-checks/info", test_info);
  g_test_add_func ("/record-checks/save-matrices-all-or-none", test_save_matrices_all_or_none);
  int status = g_test_run ();
  g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", tmp_dir);
  (void) system (cmd);
  g_free (tmp_dir);
  return status;
}
