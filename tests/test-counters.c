/* test-counters.c — hardware counters without a GPU: the list, the views
 * and their words, the record's counters (round trip, old records, hostile
 * input), and the sentences where counters are missing. */
#include "core/tl-error.h"
#include "gemm/tl-kernels.h"
#include "record/tl-counters.h"
#include "record/tl-counters-lesson.h"
#include "record/tl-record.h"

#include <locale.h>
#include <math.h>
#include <string.h>

/* counters as a run of rung 02 at 4096³ on an H200 might have them */
static TlCounters *
sample_counters (void)
{
  TlCounters *c = tl_counters_new (TL_GPU_COUNTERS_MEASURED, NULL);
  c->chip = g_strdup ("GH100");
  c->passes = 10;
  c->value[TL_GPU_COUNTER_DRAM_READ_BYTES] = 4.0e9;
  c->value[TL_GPU_COUNTER_DRAM_WRITE_BYTES] = 1.0e8;
  c->value[TL_GPU_COUNTER_L2_BYTES] = 2.0e10;
  c->value[TL_GPU_COUNTER_L2_HIT_SECTORS] = 600;
  c->value[TL_GPU_COUNTER_L2_MISS_SECTORS] = 400;
  c->value[TL_GPU_COUNTER_GLD_SECTORS] = 1600;
  c->value[TL_GPU_COUNTER_GLD_REQUESTS] = 400;
  c->value[TL_GPU_COUNTER_SMEM_BANK_CONFLICTS] = 30;
  c->value[TL_GPU_COUNTER_SMEM_LOADS] = 10;
  c->value[TL_GPU_COUNTER_SMEM_STORES] = 5;
  c->value[TL_GPU_COUNTER_WARPS_ACTIVE] = 3200;
  c->value[TL_GPU_COUNTER_SM_CYCLES_ACTIVE] = 100;
  c->value[TL_GPU_COUNTER_ISSUE_ACTIVE] = 75;
  c->value[TL_GPU_COUNTER_SMSP_CYCLES_ACTIVE] = 100;
  c->value[TL_GPU_COUNTER_FFMA] = 1000;
  c->value[TL_GPU_COUNTER_FADD] = 10;
  c->value[TL_GPU_COUNTER_FMUL] = 5;
  c->value[TL_GPU_COUNTER_DFMA] = 0;
  c->value[TL_GPU_COUNTER_TENSOR_TF32_OPS] = 0;
  c->value[TL_GPU_COUNTER_STALL_LONG_SCOREBOARD] = 600;
  c->value[TL_GPU_COUNTER_STALL_BARRIER] = 300;
  c->value[TL_GPU_COUNTER_STALL_WAIT] = 100;
  c->value[TL_GPU_COUNTER_STALL_SELECTED] = 5000; /* issuing, not a stall */
  return c;
}

static void
h200_facts (TlGpuFacts *f)
{
  memset (f, 0, sizeof *f);
  g_strlcpy (f->name, "NVIDIA H200", sizeof f->name);
  f->cc_major = 9;
  f->sm_count = 132;
  f->clock_khz = 1980000;
  f->max_threads_per_sm = 2048;
  f->warp_size = 32;
}

static double
view (const char *key, const TlCounters *c, const TlGpuFacts *f)
{
  const TlCounterView *v = tl_counter_view_find (key);
  g_assert_nonnull (v);
  return tl_counter_view_value (v, c, f);
}

static void
test_list (void)
{
  g_assert_cmpint (TL_GPU_N_COUNTERS, >, 30);
  for (int i = 0; i < TL_GPU_N_COUNTERS; i++)
    {
      const TlGpuCounterInfo *info = tl_gpu_counter_info (i);
      g_assert_nonnull (info);
      g_assert_cmpint (tl_gpu_counter_find (info->key), ==, i);
      /* every row is an Nsight Compute metric with a rollup */
      g_assert_nonnull (strstr (info->metric, "__"));
      g_assert_true (g_str_has_suffix (info->metric, ".sum"));
      g_assert_cmpuint (strlen (info->unit), >, 0);
    }
  g_assert_null (tl_gpu_counter_info (-1));
  g_assert_null (tl_gpu_counter_info (TL_GPU_N_COUNTERS));
  g_assert_cmpint (tl_gpu_counter_find ("no_such_counter"), ==, -1);
  g_assert_cmpint (tl_gpu_counter_find (NULL), ==, -1);
}

static void
test_views (void)
{
  g_autoptr (TlCounters) c = sample_counters ();
  TlGpuFacts f;
  h200_facts (&f);
  g_assert_cmpfloat_with_epsilon (view ("dram_bytes", c, &f), 4.1e9, 1);
  g_assert_cmpfloat_with_epsilon (view ("l2_hit_rate", c, &f), 0.6, 1e-12);
  g_assert_cmpfloat_with_epsilon (view ("gld_sectors_per_request", c, &f), 4.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (view ("bank_conflicts_per_request", c, &f), 2.0, 1e-12);
  /* 32 warps resident per active cycle of the 64 an H200 SM holds */
  g_assert_cmpfloat_with_epsilon (view ("occupancy", c, &f), 0.5, 1e-12);
  g_assert_true (isnan (view ("occupancy", c, NULL)));
  g_assert_cmpfloat_with_epsilon (view ("issue_active", c, &f), 0.75, 1e-12);
  /* an FMA is two FLOPs; adds and multiplies one */
  g_assert_cmpfloat_with_epsilon (view ("flops", c, &f), 2015, 1e-9);
  g_assert_cmpfloat_with_epsilon (view ("intensity", c, &f), 2015 / 4.1e9, 1e-18);
  g_assert_cmpstr (tl_counters_math (c), ==, "fp32");

  /* a counter that was not counted makes its views NAN, never 0 */
  c->value[TL_GPU_COUNTER_GLD_REQUESTS] = NAN;
  g_assert_true (isnan (view ("gld_sectors_per_request", c, &f)));
  c->value[TL_GPU_COUNTER_GLD_REQUESTS] = 0; /* cp.async/TMA rungs issue no LDG */
  g_assert_true (isnan (view ("gld_sectors_per_request", c, &f)));
  /* counters that were not measured have no views at all */
  c->state = TL_GPU_COUNTERS_NOT_PERMITTED;
  g_assert_true (isnan (view ("dram_bytes", c, &f)));
  g_assert_true (isnan (view ("dram_bytes", NULL, &f)));

  g_assert_null (tl_counter_view_find ("nope"));
  for (guint i = 0; i < tl_counter_view_count (); i++)
    {
      const TlCounterView *v = tl_counter_view_get (i);
      g_assert_true (tl_counter_view_find (tl_counter_view_key (v)) == v);
      g_assert_cmpuint (strlen (tl_counter_view_title (v)), >, 0);
      g_assert_cmpuint (strlen (tl_counter_view_explanation (v)), >, 0);
    }
}

static void
test_math (void)
{
  g_autoptr (TlCounters) c = tl_counters_new (TL_GPU_COUNTERS_MEASURED, NULL);
  g_assert_true (isnan (tl_counters_flops (c)));
  g_assert_null (tl_counters_math (c));
  /* cuBLAS TF32: tensor work and a small FP32 epilogue */
  c->value[TL_GPU_COUNTER_FFMA] = 1.678e7;
  c->value[TL_GPU_COUNTER_TENSOR_TF32_OPS] = 1.374e11;
  g_assert_cmpstr (tl_counters_math (c), ==, "tf32");
  g_assert_cmpfloat_with_epsilon (tl_counters_flops (c), 1.374e11 + 2 * 1.678e7, 1);
  c->value[TL_GPU_COUNTER_TENSOR_FP64_OPS] = 2e11;
  g_assert_cmpstr (tl_counters_math (c), ==, "fp64-tensor");
  c->value[TL_GPU_COUNTER_DFMA] = 2e11;
  g_assert_cmpstr (tl_counters_math (c), ==, "fp64");
}

static char *
fmt (const char *key, double v)
{
  return tl_counter_view_format (tl_counter_view_find (key), v);
}

static void
test_format (void)
{
  struct { const char *key; double v; const char *text; } cases[] = {
    { "dram_bytes", 8.45e9, "8.45 GB" },
    { "dram_bytes", 345e6, "345 MB" },
    { "dram_bytes", 12.3e3, "12.3 kB" },
    { "dram_bytes", 512, "512 B" },
    { "smem_wavefronts", 2.736e8, "274 M" },
    { "flops", 1.374e11, "137 GFLOP" },
    { "l2_hit_rate", 0.943, "94%" },
    { "l2_hit_rate", 0.0123, "1.2%" },
    { "gld_sectors_per_request", 32, "32 per request" },
    { "gld_sectors_per_request", 4, "4.0 per request" },
    { "intensity", 325.4, "325 FLOP/B" },
    { "intensity", 0.25, "0.25 FLOP/B" },
    { "dram_bytes", NAN, "—" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *t = fmt (cases[i].key, cases[i].v);
      g_assert_cmpstr (t, ==, cases[i].text);
    }
}

static void
test_compare (void)
{
  const TlCounterView *dram = tl_counter_view_find ("dram_bytes");
  const TlCounterView *bank = tl_counter_view_find ("bank_conflicts_per_request");
  const TlCounterView *hit = tl_counter_view_find ("l2_hit_rate");
  g_autofree char *fewer = tl_counter_view_compare (dram, 1.0e9, 16.1e9, "02");
  g_assert_cmpstr (fewer, ==, "DRAM bytes 16.1× fewer than 02");
  g_autofree char *more = tl_counter_view_compare (dram, 2.3e9, 1.0e9, "08");
  g_assert_cmpstr (more, ==, "DRAM bytes 2.3× more than 08");
  g_autofree char *same = tl_counter_view_compare (dram, 345e6, 350e6, "08");
  g_assert_cmpstr (same, ==, "DRAM bytes 345 MB, about the same as 08");
  g_autofree char *zero = tl_counter_view_compare (bank, 0, 2.1, "07");
  g_assert_cmpstr (zero, ==, "bank conflicts 0, was 2.1 per request");
  g_autofree char *rate = tl_counter_view_compare (hit, 0.94, 0.61, "03");
  g_assert_cmpstr (rate, ==, "L2 hit rate 94%, was 61% in 03");
  g_assert_null (tl_counter_view_compare (dram, NAN, 1e9, "02"));
  g_assert_null (tl_counter_view_compare (dram, 1e9, NAN, "02"));
}

static void
test_stalls (void)
{
  g_autoptr (TlCounters) c = sample_counters ();
  int ids[4];
  double share[4];
  guint n = tl_counters_top_stalls (c, 4, ids, share);
  /* "selected" is the issuing warp: never a stall reason */
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpint (ids[0], ==, TL_GPU_COUNTER_STALL_LONG_SCOREBOARD);
  g_assert_cmpint (ids[1], ==, TL_GPU_COUNTER_STALL_BARRIER);
  g_assert_cmpint (ids[2], ==, TL_GPU_COUNTER_STALL_WAIT);
  g_assert_cmpfloat_with_epsilon (share[0], 0.6, 1e-12);
  g_assert_cmpfloat_with_epsilon (share[0] + share[1] + share[2], 1.0, 1e-12);
  g_assert_nonnull (strstr (tl_counters_stall_title (ids[0]), "scoreboard"));
  /* every stall row has words */
  for (int i = 0; i < TL_GPU_N_COUNTERS; i++)
    if (g_str_has_prefix (tl_gpu_counter_info (i)->key, "stall_"))
      g_assert_nonnull (tl_counters_stall_title (i));
  c->state = TL_GPU_COUNTERS_FAILED;
  g_assert_cmpuint (tl_counters_top_stalls (c, 4, ids, share), ==, 0);
}

static void
test_absence (void)
{
  g_autoptr (TlCounters) measured = sample_counters ();
  g_autoptr (TlCounters) refused = tl_counters_new (TL_GPU_COUNTERS_NOT_PERMITTED,
                                                    "only administrators (ERR_NVGPUCTRPERM)");
  g_assert_null (tl_counters_absence (measured, FALSE, FALSE, TRUE));
  g_assert_nonnull (strstr (tl_counters_absence (refused, FALSE, FALSE, TRUE), "ERR_NVGPUCTRPERM"));
  g_assert_nonnull (strstr (tl_counters_absence (NULL, TRUE, FALSE, TRUE), "CPU"));
  g_assert_nonnull (strstr (tl_counters_absence (NULL, FALSE, TRUE, FALSE), "tilelab-run/1"));
  g_assert_nonnull (strstr (tl_counters_absence (NULL, FALSE, FALSE, FALSE), "--counters"));
  g_assert_nonnull (tl_counters_absence (NULL, FALSE, FALSE, TRUE));
}

/* A record with a measured GPU run, a refused one and a CPU run. */
static TlRunRecord *
record_with_counters (void)
{
  g_autoptr (TlJob) job = tl_job_new_gemm (64, 64, 64, TL_DTYPE_FLOAT32);
  job->counters = TRUE;
  TlRunRecord *record = tl_run_record_new (job);
  record->has_device = TRUE;
  h200_facts (&record->device);
  record->has_bandwidth = TRUE;
  record->bandwidth.dram_bytes_per_s = 3.875e12;
  record->bandwidth.l2_bytes_per_s = 7.7982e12;
  record->bandwidth.dram_buffer_bytes = 1073741824;
  record->bandwidth.l2_buffer_bytes = 15728640;
  const double ms[] = { 21.9, 22.0, 21.8 };
  TlKernelRun *gpu = tl_kernel_run_new ("gemm-02-coalesced", TL_BACKEND_GPU);
  tl_kernel_run_set_samples (gpu, ms, G_N_ELEMENTS (ms));
  gpu->counters = sample_counters ();
  g_ptr_array_add (record->runs, gpu);
  TlKernelRun *refused = tl_kernel_run_new ("gemm-03-smem16", TL_BACKEND_GPU);
  tl_kernel_run_set_samples (refused, ms, G_N_ELEMENTS (ms));
  refused->counters = tl_counters_new (TL_GPU_COUNTERS_NOT_PERMITTED, "ERR_NVGPUCTRPERM: no");
  g_ptr_array_add (record->runs, refused);
  TlKernelRun *cpu = tl_kernel_run_new ("cpu-blocked", TL_BACKEND_CPU);
  tl_kernel_run_set_samples (cpu, ms, G_N_ELEMENTS (ms));
  g_ptr_array_add (record->runs, cpu);
  return record;
}

static void
test_record_round_trip (void)
{
  g_autoptr (TlRunRecord) record = record_with_counters ();
  g_autofree char *text = tl_run_record_to_string (record, TRUE);
  g_assert_nonnull (strstr (text, "\"tilelab-run/2\""));
  g_assert_nonnull (strstr (text, "\"dram_read_bytes\""));
  /* a counter that was not counted is absent, not 0 */
  g_assert_null (strstr (text, "\"stall_gmma\""));
  g_autoptr (GError) error = NULL;
  g_autoptr (TlRunRecord) back = tl_run_record_from_data (text, -1, &error);
  g_assert_no_error (error);
  g_assert_true (back->job->counters);
  g_assert_true (back->has_bandwidth);
  g_assert_cmpfloat (back->bandwidth.dram_bytes_per_s, ==, 3.875e12);
  g_assert_cmpfloat (back->bandwidth.l2_buffer_bytes, ==, 15728640);
  const TlKernelRun *gpu = back->runs->pdata[0];
  g_assert_nonnull (gpu->counters);
  g_assert_cmpint (gpu->counters->state, ==, TL_GPU_COUNTERS_MEASURED);
  g_assert_cmpstr (gpu->counters->chip, ==, "GH100");
  g_assert_cmpint (gpu->counters->passes, ==, 10);
  g_autoptr (TlCounters) want = sample_counters ();
  for (int i = 0; i < TL_GPU_N_COUNTERS; i++)
    if (isnan (want->value[i]))
      g_assert_true (isnan (gpu->counters->value[i]));
    else
      g_assert_cmpfloat (gpu->counters->value[i], ==, want->value[i]);
  const TlKernelRun *refused = back->runs->pdata[1];
  g_assert_cmpint (refused->counters->state, ==, TL_GPU_COUNTERS_NOT_PERMITTED);
  g_assert_nonnull (strstr (tl_run_record_counters_absence (back, refused), "ERR_NVGPUCTRPERM"));
  const TlKernelRun *cpu = back->runs->pdata[2];
  g_assert_null (cpu->counters);
  g_assert_nonnull (strstr (tl_run_record_counters_absence (back, cpu), "CPU"));
  g_assert_null (tl_run_record_counters_absence (back, gpu));
  /* a copy keeps them */
  g_autoptr (TlRunRecord) copy = tl_run_record_copy (back);
  const TlKernelRun *gc = copy->runs->pdata[0];
  g_assert_true (gc->counters != gpu->counters);
  g_assert_cmpfloat (gc->counters->value[TL_GPU_COUNTER_FFMA], ==, 1000);
}

/* The first schema opens: its runs have no counters, and say why. */
static void
test_record_v1 (void)
{
  g_autoptr (TlRunRecord) record = record_with_counters ();
  g_autofree char *text = tl_run_record_to_string (record, TRUE);
  /* as tilelab-run/1 wrote it: no counters anywhere */
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_assert_true (json_parser_load_from_data (parser, text, -1, NULL));
  JsonObject *root = json_node_get_object (json_parser_get_root (parser));
  json_object_set_string_member (root, "schema", "tilelab-run/1");
  json_object_remove_member (root, "bandwidth");
  json_object_remove_member (json_object_get_object_member (root, "job"), "counters");
  JsonArray *runs = json_object_get_array_member (root, "runs");
  for (guint i = 0; i < json_array_get_length (runs); i++)
    json_object_remove_member (json_array_get_object_element (runs, i), "counters");
  g_autoptr (GError) error = NULL;
  g_autoptr (TlRunRecord) v1 = tl_run_record_from_json (json_parser_get_root (parser), &error);
  g_assert_no_error (error);
  g_assert_true (tl_run_record_is_v1 (v1));
  g_assert_false (v1->has_bandwidth);
  const TlKernelRun *gpu = v1->runs->pdata[0];
  g_assert_null (gpu->counters);
  g_assert_nonnull (strstr (tl_run_record_counters_absence (v1, gpu), "tilelab-run/1"));

  json_object_set_string_member (root, "schema", "tilelab-run/3");
  g_autoptr (TlRunRecord) v3 = tl_run_record_from_json (json_parser_get_root (parser), &error);
  g_assert_null (v3);
  g_assert_error (error, TL_ERROR, TL_ERROR_PARSE);
}

/* Hostile counters: each edit of a good record must end in a parse error
 * that names where. */
static void
test_record_hostile (void)
{
  g_autoptr (TlRunRecord) record = record_with_counters ();
  g_autofree char *good = tl_run_record_to_string (record, FALSE);
  struct { const char *from, *to, *path; } cases[] = {
    { "\"state\":\"measured\"", "\"state\":\"great\"", "$.runs[0].counters.state" },
    { "\"state\":\"measured\"", "\"state\":7", "$.runs[0].counters.state" },
    { "\"dram_read_bytes\":4000000000.0", "\"dram_read_bytes\":-1", "$.runs[0].counters.values.dram_read_bytes" },
    { "\"dram_read_bytes\":4000000000.0", "\"dram_read_bytes\":1e25", "$.runs[0].counters.values.dram_read_bytes" },
    { "\"dram_read_bytes\":4000000000.0", "\"dram_read_bytes\":\"lots\"", "$.runs[0].counters.values.dram_read_bytes" },
    { "\"passes\":10", "\"passes\":100000", "$.runs[0].counters.passes" },
    { "\"values\":{", "\"values\":7,\"later\":{", "$.runs[0].counters.values" },
    { "\"dram\":{\"value\":3875.0", "\"dram\":{\"value\":0", "$.bandwidth.dram" },
    { "\"dram\":{\"value\":3875.0", "\"dram\":{\"value\":-5", "$.bandwidth.dram" },
    { "\"unit\":\"GB/s\"", "\"unit\":\"TB/s\"", "$.bandwidth.dram.unit" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_assert_nonnull (strstr (good, cases[i].from));
      g_autofree char *bad = NULL;
      {
        g_auto (GStrv) parts = g_strsplit (good, cases[i].from, 2);
        bad = g_strjoin (cases[i].to, parts[0], parts[1], NULL);
      }
      g_autoptr (GError) error = NULL;
      g_autoptr (TlRunRecord) r = tl_run_record_from_data (bad, -1, &error);
      if (r != NULL)
        g_error ("case %u was accepted", i);
      g_assert_error (error, TL_ERROR, TL_ERROR_PARSE);
      if (strstr (error->message, cases[i].path) == NULL)
        g_error ("case %u: “%s” does not name %s", i, error->message, cases[i].path);
    }
  /* a key this Tilelab does not know (a newer one's counter) is skipped */
  g_auto (GStrv) parts = g_strsplit (good, "\"values\":{", 2);
  g_autofree char *newer = g_strjoin ("\"values\":{\"future_counter\":5,", parts[0], parts[1], NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (TlRunRecord) r = tl_run_record_from_data (newer, -1, &error);
  g_assert_no_error (error);
  g_assert_nonnull (r);
}

/* Every GPU row names the counters its lesson is about, and each is a view. */
static void
test_registry_column (void)
{
  guint gpu_rows = 0;
  for (guint i = 0; i < tl_kernel_count (); i++)
    {
      const TlKernelInfo *info = tl_kernel_get (i);
      if (info->backend != TL_BACKEND_GPU)
        {
          g_assert_null (info->counters);
          continue;
        }
      gpu_rows++;
      g_assert_nonnull (info->counters);
      g_auto (GStrv) keys = g_strsplit (info->counters, " ", -1);
      g_assert_cmpuint (g_strv_length (keys), >=, 1);
      g_assert_cmpuint (g_strv_length (keys), <=, 3);
      for (guint k = 0; keys[k]; k++)
        if (tl_counter_view_find (keys[k]) == NULL)
          g_error ("%s names the unknown counter view “%s”", info->id, keys[k]);
    }
  g_assert_cmpuint (gpu_rows, >, 0);
}

/* Pango markup is XML: it must parse, wrapped in one element. */
static gboolean
markup_well_formed (const char *markup)
{
  static const GMarkupParser none = { NULL };
  g_autofree char *doc = g_strdup_printf ("<m>%s</m>", markup);
  GMarkupParseContext *ctx = g_markup_parse_context_new (&none, 0, NULL, NULL);
  gboolean ok = g_markup_parse_context_parse (ctx, doc, -1, NULL)
                && g_markup_parse_context_end_parse (ctx, NULL);
  g_markup_parse_context_free (ctx);
  return ok;
}

/* Beside rung 04's lesson: its counters, compared with rung 02 — the
 * nearest rung below it with counters (03's were refused) — never with the
 * references or the CPU. */
static void
test_lesson (void)
{
  g_autoptr (TlRunRecord) record = record_with_counters ();
  const double ms[] = { 2.0 };
  TlKernelRun *smem = tl_kernel_run_new ("gemm-04-smem32", TL_BACKEND_GPU);
  tl_kernel_run_set_samples (smem, ms, 1);
  smem->counters = sample_counters ();
  smem->counters->value[TL_GPU_COUNTER_DRAM_READ_BYTES] = 0.2e9;
  smem->counters->value[TL_GPU_COUNTER_DRAM_WRITE_BYTES] = 0.05e9;
  smem->counters->value[TL_GPU_COUNTER_L2_BYTES] = 4.0e9;
  g_ptr_array_add (record->runs, smem);
  TlKernelRun *ref = tl_kernel_run_new ("cublas-fp32", TL_BACKEND_GPU);
  tl_kernel_run_set_samples (ref, ms, 1);
  ref->counters = sample_counters ();
  g_ptr_array_add (record->runs, ref);

  const TlKernelRun *below = tl_counters_rung_below (record, "gemm-04-smem32");
  g_assert_nonnull (below);
  g_assert_cmpstr (below->kernel_id, ==, "gemm-02-coalesced");
  /* no rung below the first, none for a reference */
  g_assert_null (tl_counters_rung_below (record, "gemm-02-coalesced"));
  g_assert_null (tl_counters_rung_below (record, "cublas-fp32"));

  g_autoptr (GPtrArray) lines = tl_counters_lesson (record, "gemm-04-smem32");
  const TlKernelInfo *info = tl_kernel_find ("gemm-04-smem32");
  g_auto (GStrv) keys = g_strsplit (info->counters, " ", -1);
  g_assert_cmpuint (lines->len, ==, g_strv_length (keys));
  gboolean saw_dram = FALSE;
  for (guint i = 0; i < lines->len; i++)
    {
      const TlCounterLine *line = lines->pdata[i];
      g_assert_nonnull (line->comparison);
      if (g_strcmp0 (line->title, "DRAM bytes") == 0)
        {
          saw_dram = TRUE;
          g_assert_cmpstr (line->value, ==, "250 MB");
          g_assert_cmpstr (line->comparison, ==, "DRAM bytes 16.4× fewer than 02");
        }
    }
  g_assert_true (saw_dram);
  g_autofree char *markup = tl_counters_lesson_markup (record, "gemm-04-smem32");
  g_assert_nonnull (strstr (markup, "16.4× fewer than 02"));
  g_assert_nonnull (strstr (markup, "long scoreboard"));
  g_assert_true (markup_well_formed (markup));
  /* a run without counters: the sentence, in the same place */
  g_autofree char *cpu = tl_counters_lesson_markup (record, "cpu-blocked");
  g_assert_nonnull (strstr (cpu, "CPU kernels have no GPU hardware counters"));
  g_assert_null (tl_counters_lesson_markup (record, "gemm-09-warptile"));
}

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/counters/list", test_list);
  g_test_add_func ("/counters/views", test_views);
  g_test_add_func ("/counters/math", test_math);
  g_test_add_func ("/counters/format", test_format);
  g_test_add_func ("/counters/compare", test_compare);
  g_test_add_func ("/counters/stalls", test_stalls);
  g_test_add_func ("/counters/absence", test_absence);
  g_test_add_func ("/counters/record/round-trip", test_record_round_trip);
  g_test_add_func ("/counters/record/v1", test_record_v1);
  g_test_add_func ("/counters/record/hostile", test_record_hostile);
  g_test_add_func ("/counters/registry-column", test_registry_column);
  g_test_add_func ("/counters/lesson", test_lesson);
  return g_test_run ();
}
