/* test-gpu-counters.c — hardware counters on a GPU, checked against Nsight Compute.
 *
 *   /gpu/counters/ladder     every GPU kernel at N³ (N = $TL_TEST_COUNTERS_SIZE,
 *                            default 4096; float32 inputs, float64 for the
 *                            float64-only rungs) with counters: measured, the
 *                            FLOPs counted within 2% of 2·m·n·k, DRAM bytes
 *                            counted, and the counted launch's C right (sampled
 *                            against float64 dot products);
 *   /gpu/counters/ncu        the same launches again, run by this program under
 *                            `ncu` (only marked, TL_GPU_GEMM_MARK, never counted
 *                            twice): FLOPs agree within 2%, and ncu's DRAM bytes
 *                            lie within Tilelab's three counts (min … max)
 *                            widened by 2% — a launch's DRAM traffic itself
 *                            varies (rung 12 by ±5% between launches on an
 *                            H100: docs/perf/counters-vs-ncu-h100-2026-11-24.md),
 *                            and ncu and Tilelab count different launches.  Skips
 *                            without ncu.  $TL_TEST_COUNTERS_TABLE=FILE writes
 *                            the comparison as a Markdown table;
 *   /gpu/counters/no-cupti   with CUPTI nowhere ($TL_CUPTI_LIBRARY pointing at no
 *                            file, in a child process): the run is fine, its
 *                            counters say why they are missing;
 *   /gpu/counters/bandwidth  the roofline's measured DRAM and L2 bandwidth are
 *                            plausible (below the DRAM's datasheet peak, L2
 *                            faster than DRAM).
 * Suite gpu: exits 77 (SKIP) without a device.  $TL_TEST_KERNELS=id,… limits
 * the kernels.
 */
#include "tl-gpu.h"
#include "tl-gpu-test-util.h"
#include "gemm/tl-kernels.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_KERNELS 64
#define COUNTS 3 /* counted launches per kernel */

typedef struct
{
  const char *id;
  TlDtype dtype;
  TlGpuCountersState state;
  double dram_bytes, flops; /* Tilelab's counts (DRAM: the median of COUNTS launches) */
  double dram_min, dram_max; /* the range of Tilelab's DRAM counts */
  double ncu_dram, ncu_flops;
  int ncu_kernels;          /* kernels ncu profiled in the marked launch */
} Row;

static TlGpuDevice *device;
static TlGpuFacts facts;
static int size = 4096;
static Row rows[MAX_KERNELS];
static guint n_rows;
static char *self_path;

/* The counters that make up FLOPs (tl_counters_flops): 2 per FMA. */
static const struct
{
  const char *key;
  double weight;
} flop_counters[] = {
  { "ffma", 2 }, { "fadd", 1 }, { "fmul", 1 }, { "dfma", 2 }, { "dadd", 1 }, { "dmul", 1 },
  { "tensor_tf32_ops", 1 }, { "tensor_bf16_ops", 1 }, { "tensor_fp64_ops", 1 },
};

static double
value (const TlGpuCounters *c, const char *key)
{
  double v = c->value[tl_gpu_counter_find (key)];
  return isnan (v) ? 0 : v;
}

static double
counted_flops (const TlGpuCounters *c)
{
  double sum = 0;
  for (guint i = 0; i < G_N_ELEMENTS (flop_counters); i++)
    sum += flop_counters[i].weight * value (c, flop_counters[i].key);
  return sum;
}

/* The kernels of this test: every GPU row this device can run, each at a
 * dtype it takes (float32 first: the ladder's own). */
static void
choose_kernels (void)
{
  const char *only = g_getenv ("TL_TEST_KERNELS");
  g_auto (GStrv) wanted = only ? g_strsplit (only, ",", -1) : NULL;
  for (guint i = 0; i < tl_kernel_count () && n_rows < MAX_KERNELS; i++)
    {
      const TlKernelInfo *k = tl_kernel_get (i);
      if (k->backend != TL_BACKEND_GPU || !tl_gpu_kernel_available (k->id)
          || k->min_cc > facts.cc_major * 10 + facts.cc_minor
          || (wanted && !g_strv_contains ((const char *const *) wanted, k->id)))
        continue;
      rows[n_rows].id = k->id;
      rows[n_rows].dtype = tl_kernel_supports (k, TL_DTYPE_FLOAT32) ? TL_DTYPE_FLOAT32
                                                                    : TL_DTYPE_FLOAT64;
      n_rows++;
    }
}

/* Fresh random inputs for row r, the same in this process and under ncu
 * (the seed is the row's index). */
static void
inputs (guint r, TlMatrix **a, TlMatrix **b)
{
  GRand *rng = g_rand_new_with_seed (1000 + r);
  *a = tl_gpu_test_random_matrix (rng, rows[r].dtype, size, size);
  *b = tl_gpu_test_random_matrix (rng, rows[r].dtype, size, size);
  g_rand_free (rng);
}

/* 64 entries of C against float64 dot products, each within tol·Σ|a||b|. */
static void
check_sampled (const char *id, const TlMatrix *a, const TlMatrix *b, const TlMatrix *c)
{
  const TlKernelInfo *k = tl_kernel_find (id);
  const char *p = tl_kernel_precision (k, a->dtype);
  double tol = g_strcmp0 (p, "bf16") == 0 ? 2e-2 : g_strcmp0 (p, "tf32") == 0 ? 5e-3 : 1e-5;
  GRand *rng = g_rand_new_with_seed (7);
  for (int s = 0; s < 64; s++)
    {
      gsize i = g_rand_int_range (rng, 0, size), j = g_rand_int_range (rng, 0, size);
      double dot = 0, mag = 0;
      for (gsize q = 0; q < (gsize) size; q++)
        {
          double x = tl_matrix_get (a, i, q), y = tl_matrix_get (b, q, j);
          dot += x * y;
          mag += fabs (x * y);
        }
      double got = tl_matrix_get (c, i, j);
      if (!(fabs (got - dot) <= tol * mag))
        g_error ("%s: C[%zu, %zu] = %.9g after the counted launch, want %.9g (within %.3g)", id,
                 i, j, got, dot, tol * mag);
    }
  g_rand_free (rng);
}

static TlGpuStatus
run_one (guint r, int counters, TlGpuGemmResult *result)
{
  g_autoptr (TlMatrix) a = NULL, b = NULL;
  inputs (r, &a, &b);
  g_autoptr (TlMatrix) c = tl_matrix_new (rows[r].dtype, size, size, NULL);
  TlGpuGemmArgs args = tl_gpu_test_gemm_args (a, b, c);
  args.repeats = 1;
  args.counters = counters;
  TlGpuStatus st = tl_gpu_gemm_run (device, rows[r].id, &args, result);
  if (st == TL_GPU_OK && counters == TL_GPU_GEMM_COUNT)
    check_sampled (rows[r].id, a, b, c);
  return st;
}

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static void
test_ladder (void)
{
  const double flops = 2.0 * size * size * size;
  for (guint r = 0; r < n_rows; r++)
    {
      double dram[COUNTS];
      for (int i = 0; i < COUNTS; i++)
        {
          TlGpuGemmResult res;
          TlGpuStatus st = run_one (r, TL_GPU_GEMM_COUNT, &res);
          if (st != TL_GPU_OK)
            g_error ("%s: %s", rows[r].id, tl_gpu_last_message ());
          const TlGpuCounters *c = &res.counters;
          rows[r].state = c->state;
          if (c->state != TL_GPU_COUNTERS_MEASURED)
            g_error ("%s: counters not measured: %s", rows[r].id, c->message);
          dram[i] = value (c, "dram_read_bytes") + value (c, "dram_write_bytes");
          rows[r].flops = counted_flops (c);
          g_assert_cmpfloat (dram[i], >, 0);
          g_assert_cmpfloat (fabs (rows[r].flops / flops - 1), <=, 0.02);
          tl_gpu_gemm_result_clear (&res);
        }
      qsort (dram, COUNTS, sizeof dram[0], compare_doubles);
      rows[r].dram_min = dram[0];
      rows[r].dram_max = dram[COUNTS - 1];
      rows[r].dram_bytes = dram[COUNTS / 2];
      printf ("# %-26s DRAM %.4g B (%d launches: %.4g … %.4g), FLOPs %.6g (2mnk %.6g, %+.2f%%)\n",
              rows[r].id, rows[r].dram_bytes, COUNTS, rows[r].dram_min, rows[r].dram_max,
              rows[r].flops, flops, 100 * (rows[r].flops / flops - 1));
    }
}

/* ---- the same launches under ncu ------------------------------------------- */

/* One CSV line into fields (quoted fields may hold commas). */
static GPtrArray *
csv_fields (const char *line)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);
  GString *f = g_string_new (NULL);
  gboolean quoted = FALSE;
  for (const char *p = line; *p && *p != '\n' && *p != '\r'; p++)
    {
      if (*p == '"')
        quoted = !quoted;
      else if (*p == ',' && !quoted)
        {
          g_ptr_array_add (out, g_string_free (f, FALSE));
          f = g_string_new (NULL);
        }
      else
        g_string_append_c (f, *p);
    }
  g_ptr_array_add (out, g_string_free (f, FALSE));
  return out;
}

static int
column (GPtrArray *header, const char *name)
{
  for (guint i = 0; i < header->len; i++)
    if (strcmp (header->pdata[i], name) == 0)
      return (int) i;
  return -1;
}

static double
number (const char *text)
{
  g_autofree char *plain = g_strdup (text);
  char *w = plain;
  for (const char *p = text; *p; p++)
    if (*p != ',' && *p != ' ')
      *w++ = *p;
  *w = '\0';
  return g_ascii_strtod (plain, NULL);
}

/* ncu's rows (one per kernel, renamed "tilelab-counters ID/…") into rows[]. */
static void
read_ncu_csv (const char *csv)
{
  g_auto (GStrv) lines = g_strsplit (csv, "\n", -1);
  g_autoptr (GPtrArray) header = NULL;
  int kcol = -1;
  for (guint l = 0; lines[l]; l++)
    {
      if (lines[l][0] != '"')
        continue;
      g_autoptr (GPtrArray) f = csv_fields (lines[l]);
      if (header == NULL)
        {
          header = g_ptr_array_ref (f);
          kcol = column (header, "Kernel Name");
          g_assert_cmpint (kcol, >=, 0);
          continue;
        }
      const char *name = (const char *) f->pdata[kcol];
      if (!g_str_has_prefix (name, "tilelab-counters "))
        continue; /* the units row */
      g_autofree char *id = g_strdup (name + strlen ("tilelab-counters "));
      char *slash = strchr (id, '/');
      if (slash)
        *slash = '\0';
      for (guint r = 0; r < n_rows; r++)
        if (strcmp (rows[r].id, id) == 0)
          {
            rows[r].ncu_kernels++;
            rows[r].ncu_dram += number (f->pdata[column (header, "dram__bytes_read.sum")])
                                + number (f->pdata[column (header, "dram__bytes_write.sum")]);
            for (guint i = 0; i < G_N_ELEMENTS (flop_counters); i++)
              {
                const char *metric = tl_gpu_counter_info (tl_gpu_counter_find (flop_counters[i].key))->metric;
                int col = column (header, metric);
                g_assert_cmpint (col, >=, 0);
                rows[r].ncu_flops += flop_counters[i].weight * number (f->pdata[col]);
              }
          }
    }
  g_assert_nonnull (header);
}

static char *
find_ncu (void)
{
  char *ncu = g_find_program_in_path ("ncu");
  if (ncu == NULL && g_file_test ("/usr/local/cuda/bin/ncu", G_FILE_TEST_IS_EXECUTABLE))
    ncu = g_strdup ("/usr/local/cuda/bin/ncu");
  return ncu;
}

static void
write_table (const char *path)
{
  GString *t = g_string_new (NULL);
  g_string_append_printf (t, "| kernel | dtype | DRAM bytes, Tilelab (median) | Tilelab min … max | DRAM bytes, ncu | Δ | "
                             "FLOPs, Tilelab | FLOPs, ncu | Δ | ncu kernels |\n"
                             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (guint r = 0; r < n_rows; r++)
    g_string_append_printf (t, "| %s | %s | %.6g | %.4g … %.4g | %.6g | %+.2f%% | %.6g | %.6g | %+.3f%% | %d |\n",
                            rows[r].id, tl_dtype_name (rows[r].dtype), rows[r].dram_bytes,
                            rows[r].dram_min, rows[r].dram_max, rows[r].ncu_dram, 100 * (rows[r].dram_bytes / rows[r].ncu_dram - 1),
                            rows[r].flops, rows[r].ncu_flops,
                            100 * (rows[r].flops / rows[r].ncu_flops - 1), rows[r].ncu_kernels);
  printf ("%s", t->str);
  if (path && !g_file_set_contents (path, t->str, -1, NULL))
    g_printerr ("could not write %s\n", path);
  g_string_free (t, TRUE);
}

static void
test_ncu (void)
{
  g_autofree char *ncu = find_ncu ();
  if (ncu == NULL)
    {
      g_test_skip ("ncu (Nsight Compute) is not installed");
      return;
    }
  g_autoptr (GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *log = g_build_filename (g_get_tmp_dir (), "tilelab-ncu.csv", NULL);
  g_autoptr (GString) ids = g_string_new (NULL);
  g_autoptr (GString) metrics = g_string_new ("dram__bytes_read.sum,dram__bytes_write.sum");
  for (guint i = 0; i < G_N_ELEMENTS (flop_counters); i++)
    g_string_append_printf (metrics, ",%s",
                            tl_gpu_counter_info (tl_gpu_counter_find (flop_counters[i].key))->metric);
  const char *head[] = { ncu, "--clock-control", "none", "--nvtx", "--print-nvtx-rename", "kernel",
                         "--csv", "--page", "raw", "--print-units", "base", "--print-fp",
                         "--log-file", log, "--metrics", metrics->str };
  for (guint i = 0; i < G_N_ELEMENTS (head); i++)
    g_ptr_array_add (argv, g_strdup (head[i]));
  for (guint r = 0; r < n_rows; r++)
    {
      g_ptr_array_add (argv, g_strdup_printf ("--nvtx-include=tilelab-counters %s/", rows[r].id));
      g_string_append_printf (ids, "%s%s", r ? "," : "", rows[r].id);
    }
  g_ptr_array_add (argv, g_strdup (self_path));
  g_ptr_array_add (argv, g_strdup ("--mark"));
  g_ptr_array_add (argv, g_strdup_printf ("%d", size));
  g_ptr_array_add (argv, g_strdup (ids->str));
  g_ptr_array_add (argv, NULL);

  g_autofree char *out = NULL, *err = NULL;
  int status = 0;
  g_autoptr (GError) error = NULL;
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out,
                               &err, &status, &error));
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("ncu failed:\n%s\n%s", out, err);
  g_autofree char *csv = NULL;
  g_assert_true (g_file_get_contents (log, &csv, NULL, NULL));
  read_ncu_csv (csv);
  write_table (g_getenv ("TL_TEST_COUNTERS_TABLE"));
  for (guint r = 0; r < n_rows; r++)
    {
      if (rows[r].ncu_kernels == 0)
        g_error ("%s: ncu profiled no kernel in its marked launch", rows[r].id);
      double df = rows[r].flops / rows[r].ncu_flops - 1;
      if (fabs (df) > 0.02)
        g_error ("%s: FLOPs %+.3f%% against ncu (2%% allowed)", rows[r].id, 100 * df);
      double lo = 0.98 * rows[r].dram_min, hi = 1.02 * rows[r].dram_max;
      if (!(rows[r].ncu_dram >= lo && rows[r].ncu_dram <= hi))
        g_error ("%s: ncu counted %.6g DRAM bytes, Tilelab %.6g … %.6g in %d launches "
                 "(2%% allowed outside that range)",
                 rows[r].id, rows[r].ncu_dram, rows[r].dram_min, rows[r].dram_max, COUNTS);
    }
}

/* ---- no CUPTI ---------------------------------------------------------------- */

static void
test_no_cupti (void)
{
  const char *argv[] = { self_path, "--count-one", NULL };
  g_auto (GStrv) env = g_environ_setenv (g_get_environ (), "TL_CUPTI_LIBRARY",
                                         "/nonexistent/libcupti.so", TRUE);
  g_autofree char *out = NULL, *err = NULL;
  int status = 0;
  g_assert_true (g_spawn_sync (NULL, (char **) argv, env, G_SPAWN_DEFAULT, NULL, NULL, &out, &err,
                               &status, NULL));
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("child failed:\n%s\n%s", out, err);
  printf ("# %s", out);
  g_assert_nonnull (strstr (out, "state=unavailable"));
  g_assert_nonnull (strstr (out, "CUPTI"));
  g_assert_nonnull (strstr (out, "/nonexistent/libcupti.so"));
}

static void
test_bandwidth (void)
{
  TlGpuBandwidth bw;
  g_assert_cmpint (tl_gpu_measure_bandwidth (device, &bw), ==, TL_GPU_OK);
  /* the datasheet's peak: two transfers per memory clock over the bus */
  double peak = 2.0 * facts.mem_clock_khz * 1e3 * facts.mem_bus_width_bits / 8;
  printf ("# DRAM %.1f GB/s (%.0f%% of %.1f GB/s), L2 %.1f GB/s\n", bw.dram_bytes_per_s / 1e9,
          100 * bw.dram_bytes_per_s / peak, peak / 1e9, bw.l2_bytes_per_s / 1e9);
  g_assert_cmpfloat (bw.dram_bytes_per_s, <=, 1.05 * peak);
  g_assert_cmpfloat (bw.dram_bytes_per_s, >=, 0.3 * peak);
  g_assert_cmpfloat (bw.l2_bytes_per_s, >, bw.dram_bytes_per_s);
}

/* ---- child modes ----------------------------------------------------------------- */

/* under ncu: the launches of the kernels named, marked and not counted */
static int
child_mark (const char *ids)
{
  g_auto (GStrv) wanted = g_strsplit (ids, ",", -1);
  for (guint i = 0; wanted[i]; i++)
    for (guint r = 0; r < n_rows; r++)
      if (strcmp (rows[r].id, wanted[i]) == 0)
        {
          TlGpuGemmResult res;
          if (run_one (r, TL_GPU_GEMM_MARK, &res) != TL_GPU_OK)
            {
              g_printerr ("%s: %s\n", rows[r].id, tl_gpu_last_message ());
              return 1;
            }
          tl_gpu_gemm_result_clear (&res);
        }
  return 0;
}

static int
child_count_one (void)
{
  size = 256;
  rows[0] = (Row) { .id = "gemm-02-coalesced", .dtype = TL_DTYPE_FLOAT32 };
  TlGpuGemmResult res;
  if (run_one (0, TL_GPU_GEMM_COUNT, &res) != TL_GPU_OK)
    {
      g_printerr ("%s\n", tl_gpu_last_message ());
      return 1;
    }
  printf ("state=%s message=%s\n",
          res.counters.state == TL_GPU_COUNTERS_UNAVAILABLE ? "unavailable" : "other",
          res.counters.message);
  tl_gpu_gemm_result_clear (&res);
  return 0;
}

int
main (int argc, char **argv)
{
  self_path = g_canonicalize_filename (argv[0], NULL);
  tl_gpu_test_require_device ();
  if (tl_gpu_device_facts (0, &facts) != TL_GPU_OK || tl_gpu_device_open (0, &device) != TL_GPU_OK)
    {
      printf ("could not open GPU 0: %s\n", tl_gpu_last_message ());
      return 1;
    }
  const char *env = g_getenv ("TL_TEST_COUNTERS_SIZE");
  if (env)
    size = (int) g_ascii_strtoll (env, NULL, 10);
  if (argc > 1 && strcmp (argv[1], "--count-one") == 0)
    return child_count_one ();
  if (argc > 3 && strcmp (argv[1], "--mark") == 0)
    {
      size = (int) g_ascii_strtoll (argv[2], NULL, 10);
      choose_kernels ();
      return child_mark (argv[3]);
    }
  choose_kernels ();
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gpu/counters/ladder", test_ladder);
  g_test_add_func ("/gpu/counters/ncu", test_ncu);
  g_test_add_func ("/gpu/counters/no-cupti", test_no_cupti);
  g_test_add_func ("/gpu/counters/bandwidth", test_bandwidth);
  int rc = g_test_run ();
  tl_gpu_device_close (device);
  return rc;
}
