/* test-record.c — run records: JSON round trips, matrices beside them,
 * and hostile input that must end in clean errors. */
#include "core/tl-error.h"
#include "record/tl-record.h"
#include "record/tl-record-file.h"
#include "json-parse-count.h"

#include <glib/gstdio.h>
#include <locale.h>
#include <math.h>
#include <string.h>

static TlMatrix *
random_matrix (TlDtype dtype, gsize rows, gsize cols, guint32 seed)
{
  GRand *rand = g_rand_new_with_seed (seed);
  TlMatrix *m = tl_matrix_new (dtype, rows, cols, NULL);
  for (gsize i = 0; i < rows; i++)
    for (gsize j = 0; j < cols; j++)
      tl_matrix_set (m, i, j, dtype == TL_DTYPE_INT32 ? g_rand_int_range (rand, -9, 10)
                                                      : g_rand_double_range (rand, -1, 1));
  g_rand_free (rand);
  return m;
}

/* A record with every part filled: GPU run with launch facts and blocks,
 * CPU run with tiles, an error and a skipped run. */
static TlRunRecord *
full_record (void)
{
  g_autoptr (TlJob) job = tl_job_new_gemm (7, 13, 5, TL_DTYPE_FLOAT32);
  job->b.kind = TL_SOURCE_FILE;
  g_free (job->b.generator);
  job->b.generator = NULL;
  job->b.path = g_strdup ("data/b.mtx");
  job->a.seed = G_MAXUINT64 - 3; /* beyond JSON's signed integers */
  g_strfreev (job->kernels);
  job->kernels = g_strsplit ("gemm-03-smem16,cpu-blocked,cublas-fp32,gemm-11-wgmma,all", ",", -1);
  job->repeats = 3;
  job->warmups = 2;
  job->flush_l2 = TRUE;
  job->instrument = TRUE;
  job->threads = 4;
  job->device = 1;

  TlRunRecord *record = tl_run_record_new (job);
  record->command_line = g_strdup ("tilelab-cli gemm --size 7x13x5 “quoted”");
  record->note = g_strdup ("a note");
  record->has_device = TRUE;
  g_strlcpy (record->device.name, "NVIDIA H200", sizeof record->device.name);
  record->device.cc_major = 9;
  record->device.sm_count = 132;
  record->device.total_mem_bytes = G_GUINT64_CONSTANT (150000000000);
  record->device.l2_bytes = 50 * 1024 * 1024;

  record->a = random_matrix (TL_DTYPE_FLOAT32, 7, 13, 1);
  record->b = random_matrix (TL_DTYPE_FLOAT32, 13, 5, 2);
  record->reference = random_matrix (TL_DTYPE_FLOAT64, 7, 5, 3);
  tl_matrix_stats (record->a, &record->a_stats);
  tl_matrix_stats (record->b, &record->b_stats);
  tl_matrix_stats (record->reference, &record->reference_stats);
  record->has_input_stats = TRUE;

  TlKernelRun *gpu = tl_kernel_run_new ("gemm-03-smem16", TL_BACKEND_GPU);
  gpu->precision = g_strdup ("fp32");
  const double samples[] = { 0.5, 0.25, 0.75 };
  tl_kernel_run_set_samples (gpu, samples, 3);
  gpu->upload_ms = 0.0625;
  gpu->download_ms = 0.03125;
  gpu->gflops = 1234.5;
  gpu->bytes = 123456789012ULL;
  gpu->gbytes_per_s = 900.25;
  gpu->verified = TRUE;
  gpu->max_abs = 1e-6;
  gpu->max_rel = 3e-5;
  gpu->rel_norm = 2.5e-7;
  gpu->normwise = 1e-8; /* json-glib 1.6 writes "1e-08.0" unless we fix it */
  gpu->tolerance = 1e-5;
  gpu->passed = TRUE;
  gpu->reference_id = g_strdup ("cublas-fp32");
  gpu->reference = tl_kernel_find ("cublas-fp32");
  gpu->percent_of_reference = 41.5;
  gpu->speedup_vs_naive = 1500.0;
  gpu->launch = (TlLaunchFacts) { TRUE, 40, 2048, 0, 8, 256, 6, 1, 1, 1, 16, 16, 1, 1, 0.25, 0.75, 512 };
  gpu->instrumented_median_ms = 0.55;
  gpu->instrument_overhead_pct = 10.0;
  gsize nb = 300;
  TlBlockRecord *blocks = g_new (TlBlockRecord, nb);
  for (gsize i = 0; i < nb; i++)
    /* C (7×5) in 2×2 tiles: 3 × 4 of them, each once per launch */
    blocks[i] = (TlBlockRecord) { i % 3, i / 3 % 4, (i * 7) % 132, i / 12,
                                  i * 1000, i * 1000 + 500 + ((i % 13) * G_GUINT64_CONSTANT (1) << 33) };
  tl_kernel_run_take_blocks (gpu, blocks, nb, "sm");
  gpu->block_tile_m = gpu->block_tile_n = 2;
  gpu->c = random_matrix (TL_DTYPE_FLOAT32, 7, 5, 4);
  tl_matrix_stats (gpu->c, &gpu->c_stats);
  gpu->has_c_stats = TRUE;
  g_ptr_array_add (record->runs, gpu);


  TlKernelRun *cpu = tl_kernel_run_new ("cpu-blocked", TL_BACKEND_CPU);
  cpu->precision = g_strdup ("fp32");
  cpu->threads = 4;
  const double one[] = { 12.0 };
  tl_kernel_run_set_samples (cpu, one, 1);
  TlBlockRecord *tiles = g_new (TlBlockRecord, 2);
  tiles[0] = (TlBlockRecord) { 0, 0, 3, 0, 0, 10 };
  tiles[1] = (TlBlockRecord) { 1, 0, 2, 0, 5, 25 };
  tl_kernel_run_take_blocks (cpu, tiles, 2, "thread");
  g_ptr_array_add (record->runs, cpu);

  TlKernelRun *err = tl_kernel_run_new ("cublas-fp32", TL_BACKEND_GPU);
  g_autoptr (GError) e = g_error_new (TL_ERROR, TL_ERROR_OUT_OF_MEMORY,
                                      "needs 3 GiB, 1 GiB free");
  tl_kernel_run_set_error (err, e);
  g_ptr_array_add (record->runs, err);

  TlKernelRun *skip = tl_kernel_run_new ("gemm-11-wgmma", TL_BACKEND_GPU);
  tl_kernel_run_set_skipped (skip, "needs compute capability 9.0");
  g_ptr_array_add (record->runs, skip);

  /* a kernel that failed its check: how many elements, the first ones
   * (an unwritten NaN and an overflow among them) */
  TlKernelRun *wrong = tl_kernel_run_new ("gemm-04-smem32", TL_BACKEND_GPU);
  wrong->precision = g_strdup ("fp32");
  const double wrong_samples[] = { 0.5, 0.25, 0.75 };
  tl_kernel_run_set_samples (wrong, wrong_samples, 3);
  wrong->verified = TRUE;
  wrong->max_abs = 2.5;
  wrong->max_rel = 0.75;
  wrong->rel_norm = 0.5;
  wrong->normwise = 0.125;
  wrong->tolerance = 4.5e-6;
  wrong->worst = 12.5;
  wrong->n_wrong = 17; /* of C's 7×5 cells */
  wrong->n_mismatches = 3;
  wrong->mismatches[0] = (TlGemmMismatch) { 0, 3, NAN, 1.25, 2.5e-5 };
  wrong->mismatches[1] = (TlGemmMismatch) { 6, 4, -INFINITY, -3.0, 6e-5 };
  wrong->mismatches[2] = (TlGemmMismatch) { 4, 0, 0.5, 0.25, 1e-6 };
  wrong->passed = FALSE;
  g_ptr_array_add (record->runs, wrong);

  JsonObject *ext = json_object_new ();
  json_object_set_string_member (ext, "lu", "future");
  record->extensions = ext;
  return record;
}

static void
assert_same_run (const TlKernelRun *x, const TlKernelRun *y)
{
  g_assert_cmpstr (x->kernel_id, ==, y->kernel_id);
  g_assert_cmpint (x->backend, ==, y->backend);
  g_assert_cmpstr (x->precision, ==, y->precision);
  g_assert_cmpint (x->status, ==, y->status);
  g_assert_cmpint (x->error_code, ==, y->error_code);
  g_assert_cmpstr (x->message, ==, y->message);
  g_assert_cmpuint (x->threads, ==, y->threads);
  g_assert_cmpuint (x->time.count, ==, y->time.count);
  if (x->time.count)
    {
      g_assert_cmpfloat (x->time.median, ==, y->time.median);
      g_assert_cmpfloat (x->time.min, ==, y->time.min);
      g_assert_cmpfloat (x->time.max, ==, y->time.max);
    }
  g_assert_cmpuint (x->n_samples, ==, y->n_samples);
  for (guint i = 0; i < x->n_samples; i++)
    g_assert_cmpfloat (x->samples_ms[i], ==, y->samples_ms[i]);
#define SAME_NUM(f) g_assert_true ((isnan (x->f) && isnan (y->f)) || x->f == y->f)
  SAME_NUM (upload_ms);
  SAME_NUM (download_ms);
  SAME_NUM (gflops);
  SAME_NUM (gbytes_per_s);
  SAME_NUM (max_abs);
  SAME_NUM (max_rel);
  SAME_NUM (rel_norm);
  SAME_NUM (normwise);
  SAME_NUM (percent_of_reference);
  SAME_NUM (speedup_vs_naive);
  SAME_NUM (instrumented_median_ms);
  SAME_NUM (instrument_overhead_pct);
  SAME_NUM (launch.waves);
  SAME_NUM (launch.occupancy);
  g_assert_cmpuint (x->bytes, ==, y->bytes);
  g_assert_cmpint (x->verified, ==, y->verified);
  g_assert_cmpint (x->passed, ==, y->passed);
  SAME_NUM (tolerance);
  SAME_NUM (worst);
  g_assert_cmpuint (x->n_wrong, ==, y->n_wrong);
  g_assert_cmpuint (x->n_mismatches, ==, y->n_mismatches);
  for (guint i = 0; i < x->n_mismatches; i++)
    {
      g_assert_cmpuint (x->mismatches[i].row, ==, y->mismatches[i].row);
      g_assert_cmpuint (x->mismatches[i].col, ==, y->mismatches[i].col);
      SAME_NUM (mismatches[i].got);
      SAME_NUM (mismatches[i].expected);
      SAME_NUM (mismatches[i].bound);
    }
  g_assert_cmpstr (x->reference_id, ==, y->reference_id);
  /* the yardstick's row, resolved as the run was read */
  g_assert_true (y->reference == tl_kernel_find (y->reference_id));
  g_assert_cmpint (x->launch.valid, ==, y->launch.valid);
  g_assert_cmpint (x->launch.regs_per_thread, ==, y->launch.regs_per_thread);
  g_assert_cmpint (x->launch.static_smem_bytes, ==, y->launch.static_smem_bytes);
  g_assert_cmpint (x->launch.block_y, ==, y->launch.block_y);
  g_assert_cmpint (x->launch.active_blocks_per_sm, ==, y->launch.active_blocks_per_sm);
  g_assert_cmpint (x->launch.local_bytes_per_thread, ==, y->launch.local_bytes_per_thread);
  g_assert_cmpint (x->launch.const_bytes, ==, y->launch.const_bytes);
  g_assert_cmpuint (x->n_blocks, ==, y->n_blocks);
  if (x->n_blocks)
    {
      g_assert_cmpstr (x->block_unit, ==, y->block_unit);
      g_assert_cmpmem (x->blocks, x->n_blocks * sizeof (TlBlockRecord), y->blocks,
                       y->n_blocks * sizeof (TlBlockRecord));
    }
  g_assert_cmpuint (x->block_tile_m, ==, y->block_tile_m);
  g_assert_cmpint (x->has_c_stats, ==, y->has_c_stats);
  if (x->has_c_stats)
    g_assert_cmpmem (&x->c_stats, sizeof x->c_stats, &y->c_stats, sizeof y->c_stats);
}

static void
assert_same_record (const TlRunRecord *x, const TlRunRecord *y)
{
  g_assert_cmpstr (y->schema, ==, TL_RUN_RECORD_SCHEMA);
  g_assert_cmpstr (x->tilelab_version, ==, y->tilelab_version);
  g_assert_cmpstr (x->created, ==, y->created);
  g_assert_cmpstr (x->command_line, ==, y->command_line);
  g_assert_cmpstr (x->note, ==, y->note);
  g_assert_cmpstr (x->machine.host_name, ==, y->machine.host_name);
  g_assert_cmpstr (x->machine.cpu_model, ==, y->machine.cpu_model);
  g_assert_cmpuint (x->machine.cores, ==, y->machine.cores);
  g_assert_cmpint (x->has_device, ==, y->has_device);
  g_assert_cmpstr (x->device.name, ==, y->device.name);
  g_assert_cmpuint (x->device.total_mem_bytes, ==, y->device.total_mem_bytes);
  g_assert_cmpint (x->device.sm_count, ==, y->device.sm_count);

  const TlJob *a = x->job, *b = y->job;
  g_assert_cmpstr (a->kind, ==, b->kind);
  g_assert_cmpuint (a->m, ==, b->m);
  g_assert_cmpuint (a->k, ==, b->k);
  g_assert_cmpuint (a->n, ==, b->n);
  g_assert_cmpint (a->dtype, ==, b->dtype);
  g_assert_cmpint (a->a.kind, ==, b->a.kind);
  g_assert_cmpstr (a->a.generator, ==, b->a.generator);
  g_assert_cmpuint (a->a.seed, ==, b->a.seed);
  g_assert_cmpint (a->b.kind, ==, b->b.kind);
  g_assert_cmpstr (a->b.path, ==, b->b.path);
  g_assert_true (g_strv_equal ((const char *const *) a->kernels,
                               (const char *const *) b->kernels));
  g_assert_cmpuint (a->repeats, ==, b->repeats);
  g_assert_cmpuint (a->warmups, ==, b->warmups);
  g_assert_cmpint (a->flush_l2, ==, b->flush_l2);
  g_assert_cmpint (a->instrument, ==, b->instrument);
  g_assert_cmpuint (a->threads, ==, b->threads);
  g_assert_cmpint (a->device, ==, b->device);

  g_assert_cmpint (x->has_input_stats, ==, y->has_input_stats);
  g_assert_cmpmem (&x->a_stats, sizeof x->a_stats, &y->a_stats, sizeof y->a_stats);
  g_assert_cmpmem (&x->reference_stats, sizeof x->reference_stats, &y->reference_stats,
                   sizeof y->reference_stats);

  g_assert_cmpuint (x->runs->len, ==, y->runs->len);
  for (guint i = 0; i < x->runs->len; i++)
    assert_same_run (x->runs->pdata[i], y->runs->pdata[i]);
  g_assert_nonnull (y->extensions);
  g_assert_cmpstr (json_object_get_string_member (y->extensions, "lu"), ==, "future");
}

static void
test_round_trip_string (void)
{
  g_autoptr (TlRunRecord) record = full_record ();
  g_autofree char *text = tl_run_record_to_string (record, TRUE);
  g_autoptr (GError) error = NULL;
  g_autoptr (TlRunRecord) back = tl_run_record_from_data (text, -1, &error);
  g_assert_no_error (error);
  assert_same_record (record, back);

  /* the documented layout: quantities with units, parallel block arrays */
  g_assert_nonnull (strstr (text, "\"schema\" : \"tilelab-run/2\""));
  g_assert_nonnull (strstr (text, "\"unit\" : \"ms\""));
  g_assert_nonnull (strstr (text, "\"start_ns\""));
  g_assert_nonnull (strstr (text, "\"thread\" : ["));
  g_assert_nonnull (strstr (text, "\"code\" : \"out-of-memory\""));
  g_assert_nonnull (strstr (text, "\"const_bytes\" : 512"));

  /* a record from before constant memory was kept: not known, not 0 */
  g_autoptr (GString) old = g_string_new (text);
  g_assert_cmpuint (g_string_replace (old, "\"const_bytes\" : 512,", "", 1), ==, 1);
  g_autoptr (TlRunRecord) old_back = tl_run_record_from_data (old->str, -1, &error);
  g_assert_no_error (error);
  const TlKernelRun *old_gpu = tl_run_record_find_run (old_back, "gemm-03-smem16");
  g_assert_nonnull (old_gpu);
  g_assert_true (old_gpu->launch.valid);
  g_assert_cmpint (old_gpu->launch.const_bytes, ==, -1);

  /* copies are deep and equal */
  g_autoptr (TlRunRecord) copy = tl_run_record_copy (record);
  assert_same_record (record, copy);
  TlKernelRun *run = tl_run_record_find_run (copy, "cpu-blocked");
  g_assert_nonnull (run);
  g_assert_null (tl_run_record_find_run (copy, "nope"));
}

static void
test_ref_counted (void)
{
  TlRunRecord *record = full_record ();
  TlRunRecord *shared = tl_run_record_ref (record);
  g_assert_true (shared == record);
  tl_run_record_unref (record);
  /* still alive through the second reference */
  g_assert_nonnull (tl_run_record_find_run (shared, "cpu-blocked"));
  g_autoptr (TlRunRecord) copy = tl_run_record_copy (shared);
  tl_run_record_unref (shared);
  /* a copy has its own count */
  g_assert_nonnull (tl_run_record_find_run (copy, "cpu-blocked"));
}

static void
test_locale_independent (void)
{
  /* a comma-decimal locale must not leak into the file */
  const char *old = setlocale (LC_NUMERIC, NULL);
  g_autofree char *saved = g_strdup (old);
  if (setlocale (LC_NUMERIC, "de_DE.UTF-8") == NULL)
    {
      g_test_skip ("de_DE.UTF-8 locale not installed");
      return;
    }
  g_autoptr (TlRunRecord) record = full_record ();
  g_autofree char *text = tl_run_record_to_string (record, FALSE);
  g_autoptr (GError) error = NULL;
  g_autoptr (TlRunRecord) back = tl_run_record_from_data (text, -1, &error);
  setlocale (LC_NUMERIC, saved);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (text, "1234.5"));
  assert_same_record (record, back);
}

static void
test_round_trip_files (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tl-record-XXXXXX", &error);
  g_assert_no_error (error);
  g_autofree char *path = g_build_filename (dir, "run.json", NULL);

  g_autoptr (TlRunRecord) record = full_record ();
  g_assert_true (tl_run_record_save (record, path, TL_RECORD_SAVE_MATRICES, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (record->a_path, ==, "run.A.npy");
  g_assert_cmpstr (record->reference_path, ==, "run.reference.npy");
  TlKernelRun *gpu = record->runs->pdata[0];
  g_assert_cmpstr (gpu->c_path, ==, "run.C.gemm-03-smem16.npy");

  g_autoptr (TlRunRecord) back = tl_run_record_load (path, TL_RECORD_LOAD_MATRICES, &error);
  g_assert_no_error (error);
  assert_same_record (record, back);
  g_assert_true (tl_matrix_equal (record->a, back->a));
  g_assert_true (tl_matrix_equal (record->b, back->b));
  g_assert_true (tl_matrix_equal (record->reference, back->reference));
  TlKernelRun *gpu_back = back->runs->pdata[0];
  g_assert_nonnull (gpu_back->c);
  g_assert_true (tl_matrix_equal (gpu->c, gpu_back->c));
  g_assert_cmpstr (back->base_dir, ==, dir);

  /* without the flag the paths are there but nothing is loaded */
  g_autoptr (TlRunRecord) light = tl_run_record_load (path, TL_RECORD_LOAD_DEFAULT, &error);
  g_assert_no_error (error);
  g_assert_null (light->a);
  g_assert_cmpstr (light->a_path, ==, "run.A.npy");
  g_autoptr (TlMatrix) a = tl_run_record_load_matrix (light, light->a_path, TL_RECORD_MATRIX_A,
                                                           &error);
  g_assert_no_error (error);
  g_assert_true (tl_matrix_equal (a, record->a));

  /* a missing matrix file is an error naming it, not a crash */
  g_autofree char *apath = g_build_filename (dir, "run.A.npy", NULL);
  g_unlink (apath);
  g_autoptr (TlRunRecord) broken = tl_run_record_load (path, TL_RECORD_LOAD_MATRICES, &error);
  g_assert_null (broken);
  g_assert_nonnull (error);
  g_clear_error (&error);

  /* a missing record */
  g_autofree char *nowhere = g_build_filename (dir, "missing.json", NULL);
  g_assert_null (tl_run_record_load (nowhere, 0, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_IO);
  g_clear_error (&error);

  const char *names[] = { "run.json", "run.B.npy", "run.reference.npy",
                          "run.C.gemm-03-smem16.npy" };
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *p = g_build_filename (dir, names[i], NULL);
      g_unlink (p);
    }
  g_rmdir (dir);
}

/* Replaces the first occurrence of `from` in the full record's compact
 * JSON by `to`: a mutation of a valid record. */
static char *
mutate (const char *from, const char *to)
{
  g_autoptr (TlRunRecord) record = full_record ();
  g_autofree char *text = tl_run_record_to_string (record, FALSE);
  const char *at = strstr (text, from);
  g_assert_nonnull (at);
  GString *s = g_string_new_len (text, at - text);
  g_string_append (s, to);
  g_string_append (s, at + strlen (from));
  return g_string_free (s, FALSE);
}

static void
test_hostile (void)
{
  struct { const char *from, *to, *expect; } mutations[] = {
    { "\"schema\":\"tilelab-run/2\"", "\"schema\":\"tilelab-run/9\"", "$.schema" },
    { "\"schema\":\"tilelab-run/2\"", "\"schema\":1", "$.schema" },
    { "\"schema\":\"tilelab-run/2\",", "", "schema" },
    { "\"m\":7", "\"m\":-7", "$.job.m" },
    { "\"m\":7", "\"m\":0", "$.job.m" },
    { "\"m\":7", "\"m\":7.5", "$.job.m" },
    { "\"m\":7", "\"m\":\"7\"", "$.job.m" },
    { "\"m\":7", "\"m\":99999999999999", "$.job.m" },
    { "\"dtype\":\"float32\"", "\"dtype\":\"complex\"", "$.job.dtype" },
    { "\"kernels\":[", "\"kernels\":[1,", "$.job.kernels[0]" },
    { "\"kind\":\"generator\"", "\"kind\":\"magic\"", "$.job.a.kind" },
    { "\"seed\":\"", "\"seed\":\"-", "$.job.a.seed" },
    { "\"seed\":\"18446744073709551612\"", "\"seed\":true", "$.job.a.seed" },
    { "\"status\":\"ok\"", "\"status\":\"fine\"", "$.runs[0].status" },
    { "\"backend\":\"gpu\"", "\"backend\":3", "$.runs[0].backend" },
    { "\"median\":{\"value\":0.5,\"unit\":\"ms\"}", "\"median\":{\"value\":0.5,\"unit\":\"s\"}",
      "$.runs[0].time.median.unit" },
    { "\"median\":{\"value\":0.5,\"unit\":\"ms\"}", "\"median\":{\"value\":\"fast\",\"unit\":\"ms\"}",
      "$.runs[0].time.median" },
    { "\"median\":{\"value\":0.5,\"unit\":\"ms\"},", "", "$.runs[0].time" },
    { "\"count\":300", "\"count\":301", "$.runs[0].blocks.block_x" },
    { "\"count\":300", "\"count\":67108864", "$.runs[0].blocks.block_x" },
    { "\"count\":300", "\"count\":67108865", "$.runs[0].blocks.count" },
    { "\"block_x\":[0,", "\"block_x\":[-1,", "$.runs[0].blocks.block_x[0]" },
    { "\"block_x\":[0,", "\"block_x\":[\"a\",", "$.runs[0].blocks.block_x[0]" },
    { "\"start_ns\":[0,", "\"start_ns\":[999999999999999999,", "$.runs[0].blocks.end_ns[0]" },
    { "\"unit\":\"sm\"", "\"unit\":\"warp\"", "$.runs[0].blocks.unit" },
    { "\"unit\":\"sm\"", "\"unit\":\"thread\"", "$.runs[0].blocks: missing member “thread”" },
    { "\"passed\":true", "\"passed\":\"yes\"", "$.runs[0].verification.passed" },
    { "\"runs\":[", "\"runs\":[7,", "$.runs[0]" },
    { "\"runs\":[", "\"runs\":\"x\",\"r\":[", "$.runs: expected an array" },
    { "\"machine\":{", "\"machine\":7,\"m\":{", "$.machine: expected an object" },
    { "\"code\":\"out-of-memory\",", "", "$.runs[2].error" },
    { "\"reason\":", "\"why\":", "$.runs[3]" },
    { "\"path\":\"data/b.mtx\"", "\"path\":null", "$.job.b" },
    { "\"inputs\":{\"a\":{", "\"inputs\":{\"a\":{\"path\":\"../../etc/passwd\",", "$.inputs.a.path" },
    { "\"inputs\":{\"a\":{", "\"inputs\":{\"a\":{\"path\":\"/etc/passwd\",", "$.inputs.a.path" },
    { "\"n_nan\":0", "\"n_nan\":1e400", "n_nan" },
    /* numbers that would become indices, sizes or lanes */
    { "\"block_x\":[0,", "\"block_x\":[4294967295,", "$.runs[0].blocks.block_x[0]" },
    { "\"block_x\":[0,", "\"block_x\":[2147483646,", "$.runs[0].blocks" },
    { "\"block_y\":[0,", "\"block_y\":[100000,", "$.runs[0].blocks" },
    { "\"sm_count\":132", "\"sm_count\":2000000000", "$.device.sm_count" },
    { "\"sm_count\":132", "\"sm_count\":-1", "$.device.sm_count" },
    { "\"median\":{\"value\":0.5,", "\"median\":{\"value\":1e999,", "$.runs[0].time.median.value" },
    /* a mismatch is a cell of C (7×5), and no more cells are wrong than C has */
    { "\"row\":6,\"col\":4", "\"row\":7,\"col\":4", "$.runs[4].verification.mismatches[1].row" },
    { "\"row\":6,\"col\":4", "\"row\":6,\"col\":5", "$.runs[4].verification.mismatches[1].col" },
    { "\"wrong\":17", "\"wrong\":36", "$.runs[4].verification.wrong" },
    { "\"wrong\":17", "\"wrong\":2", "$.runs[4].verification.mismatches" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (mutations); i++)
    {
      g_autofree char *text = mutate (mutations[i].from, mutations[i].to);
      g_autoptr (GError) error = NULL;
      g_autoptr (TlRunRecord) record = tl_run_record_from_data (text, -1, &error);
      if (record != NULL || error == NULL || strstr (error->message, mutations[i].expect) == NULL)
        g_error ("mutation %u (%s → %s): expected an error naming %s, got %s", i,
                 mutations[i].from, mutations[i].to, mutations[i].expect,
                 error ? error->message : "a record");
      g_assert_error (error, TL_ERROR, TL_ERROR_PARSE);
    }

  const char *corpus[] = {
    "", " ", "{", "}", "[]", "null", "42", "\"tilelab-run/1\"", "{\"schema\":",
    "{\"schema\":\"tilelab-run/1\"}", "{\"schema\":\"tilelab-run/1\",\"tilelab_version\":\"x\"}",
    "{\"schema\":\"tilelab-run/1\",\"runs\":[{}]}", "\xef\xbb\xbf{}", "{\"a\":\"\xff\xfe\"}",
    "{\"schema\":\"tilelab-run/1\" \"x\":1}", "{'schema':'tilelab-run/1'}", "NaN",
  };
  for (guint i = 0; i < G_N_ELEMENTS (corpus); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (TlRunRecord) record = tl_run_record_from_data (corpus[i], -1, &error);
      g_assert_null (record);
      g_assert_error (error, TL_ERROR, TL_ERROR_PARSE);
    }

  /* deep nesting is refused before json-glib recurses */
  GString *deep = g_string_new ("{\"schema\":");
  for (int i = 0; i < 200000; i++)
    g_string_append_c (deep, '[');
  g_autoptr (GError) error = NULL;
  g_autoptr (TlRunRecord) record = tl_run_record_from_data (deep->str, deep->len, &error);
  g_assert_null (record);
  g_assert_error (error, TL_ERROR, TL_ERROR_PARSE);
  g_string_free (deep, TRUE);
  g_clear_error (&error);

  /* json-glib also reads single-quoted strings and comments: a quote inside
   * them must not hide nesting from the depth check */
  static const char *const sneaky[] = { "['\"', ", "[/* \" */ ", "{\"a\":'\"'," };
  for (guint k = 0; k < G_N_ELEMENTS (sneaky); k++)
    {
      GString *t = g_string_new (sneaky[k]);
      for (int i = 0; i < 100000; i++)
        g_string_append_c (t, '[');
      g_autoptr (TlRunRecord) r = tl_run_record_from_data (t->str, t->len, &error);
      g_assert_null (r);
      g_assert_error (error, TL_ERROR, TL_ERROR_PARSE);
      g_clear_error (&error);
      g_string_free (t, TRUE);
    }

  /* brackets inside strings don't count as nesting */
  g_autoptr (TlRunRecord) full = full_record ();
  g_free (full->note);
  full->note = g_strnfill (500, '[');
  g_autofree char *text = tl_run_record_to_string (full, FALSE);
  g_autoptr (TlRunRecord) back = tl_run_record_from_data (text, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (back->note, ==, full->note);
}

static void
test_random_bytes (void)
{
  /* truncations and byte flips of a valid record: errors or records, never crashes */
  g_autoptr (TlRunRecord) record = full_record ();
  g_autofree char *text = tl_run_record_to_string (record, FALSE);
  gsize len = strlen (text);
  GRand *rand = g_rand_new_with_seed (11);
  for (int trial = 0; trial < 400; trial++)
    {
      g_autofree char *copy = g_strdup (text);
      gsize cut = len;
      if (trial % 2 == 0)
        cut = g_rand_int_range (rand, 0, len);
      else
        for (int f = 0; f < 3; f++)
          copy[g_rand_int_range (rand, 0, len)] = (char) g_rand_int_range (rand, 1, 256);
      g_autoptr (GError) error = NULL;
      g_autoptr (TlRunRecord) r = tl_run_record_from_data (copy, cut, &error);
      g_assert_true ((r == NULL) != (error == NULL));
    }
  g_rand_free (rand);
}

/* A record made by tilelab-cli on an H200 (docs/records/): it loads, and
 * its per-block records cover C's tiles. */
static void
test_recorded_on_gpu (void)
{
  const char *src = g_getenv ("TL_SOURCE_DIR");
  if (src == NULL)
    {
      g_test_skip ("TL_SOURCE_DIR is not set");
      return;
    }
  g_autofree char *path = g_build_filename (src, "docs", "records",
                                            "h200-gemm-1000x500x1000.json", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (TlRunRecord) r = tl_run_record_load (path, TL_RECORD_LOAD_DEFAULT, &error);
  g_assert_no_error (error);
  g_assert_true (r->has_device);
  g_assert_nonnull (strstr (r->device.name, "H200"));
  g_assert_cmpuint (r->job->m, ==, 1000);
  TlKernelRun *run = tl_run_record_find_run (r, "gemm-03-smem16");
  g_assert_nonnull (run);
  g_assert_cmpint (run->status, ==, TL_RUN_OK);
  g_assert_true (run->passed);
  g_assert_cmpstr (run->block_unit, ==, "sm");
  g_assert_cmpuint (run->block_tile_m, ==, 16);
  g_assert_cmpuint (run->n_blocks, ==, 63 * 63);
  /* every tile once, on a real SM */
  g_autofree guint8 *seen = g_new0 (guint8, 63 * 63);
  for (gsize i = 0; i < run->n_blocks; i++)
    {
      const TlBlockRecord *b = &run->blocks[i];
      g_assert_cmpuint (b->block_x, <, 63);
      g_assert_cmpuint (b->block_y, <, 63);
      g_assert_cmpuint (b->unit, <, (guint) r->device.sm_count);
      seen[b->block_y * 63 + b->block_x]++;
    }
  for (guint i = 0; i < 63 * 63; i++)
    g_assert_cmpuint (seen[i], ==, 1);
  TlKernelRun *cublas = tl_run_record_find_run (r, "cublas-fp32");
  g_assert_cmpfloat (cublas->percent_of_reference, ==, 100.0);
  g_assert_cmpfloat (run->percent_of_reference, <, 100.0);
}

/* Opening a record file parses its JSON once, matrices and all. */
static void
test_file_one_parse (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tl-record-XXXXXX", &error);
  g_assert_no_error (error);
  g_autofree char *path = g_build_filename (dir, "run.json", NULL);
  g_autoptr (TlRunRecord) record = full_record ();
  json_object_remove_member (record->extensions, "lu"); /* a Gauss record there: test-lu-recorder */
  g_assert_true (tl_run_record_save (record, path, TL_RECORD_SAVE_MATRICES, &error));

  guint before = json_parse_count ();
  TlRecordFile file;
  gboolean ok = tl_record_file_load (&file, path, TL_RECORD_LOAD_MATRICES, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  g_assert_cmpuint (json_parse_count () - before, ==, 1);
  g_assert_null (file.lu);
  g_autofree char *want = tl_run_record_to_string (record, FALSE);
  g_autofree char *got = tl_run_record_to_string (file.record, FALSE);
  g_assert_cmpstr (got, ==, want);
  g_assert_true (tl_matrix_equal (record->a, file.record->a));
  g_assert_nonnull (((TlKernelRun *) file.record->runs->pdata[0])->c);
  tl_record_file_clear (&file);

  /* matrices later, from the record already read: no second parse */
  before = json_parse_count ();
  g_assert_true (tl_record_file_load (&file, path, TL_RECORD_LOAD_DEFAULT, &error));
  g_assert_null (file.record->a);
  g_assert_true (tl_run_record_load_matrices (file.record, &error));
  g_assert_no_error (error);
  g_assert_true (tl_matrix_equal (record->reference, file.record->reference));
  g_assert_cmpuint (json_parse_count () - before, ==, 1);
  tl_record_file_clear (&file);

  /* a missing matrix: an error, and the record keeps none of them */
  g_autofree char *bpath = g_build_filename (dir, "run.B.npy", NULL);
  g_unlink (bpath);
  g_autoptr (TlRunRecord) light = tl_run_record_load (path, TL_RECORD_LOAD_DEFAULT, &error);
  g_assert_false (tl_run_record_load_matrices (light, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "run.B.npy"));
  g_clear_error (&error);
  g_assert_null (light->a);
  g_assert_false (tl_record_file_load (&file, path, TL_RECORD_LOAD_MATRICES, &error));
  g_assert_nonnull (error);
  g_assert_null (file.record);
  g_clear_error (&error);

  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  for (const char *name; (name = g_dir_read_name (d));)
    {
      g_autofree char *f = g_build_filename (dir, name, NULL);
      g_unlink (f);
    }
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  json_parse_count_install ();
  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/record/round-trip-string", test_round_trip_string);
  g_test_add_func ("/record/ref-counted", test_ref_counted);
  g_test_add_func ("/record/locale", test_locale_independent);
  g_test_add_func ("/record/round-trip-files", test_round_trip_files);
  g_test_add_func ("/record/file-one-parse", test_file_one_parse);
  g_test_add_func ("/record/hostile", test_hostile);
  g_test_add_func ("/record/random-bytes", test_random_bytes);
  g_test_add_func ("/record/recorded-on-gpu", test_recorded_on_gpu);
  return g_test_run ();
}
