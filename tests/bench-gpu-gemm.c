/* bench-gpu-gemm.c — the GEMM ladder side by side with cuBLAS, as a
 * markdown table (a benchmark, not a test: it never fails on speed).
 *
 *   bench-gpu-gemm [--sizes 1024,2048,4096,8192,4000x3000x5000]
 *                  [--repeats 10] [--slow-max 4096] [--kernels id,id,...]
 *                  [--device N]
 *
 * Sizes are N (cube) or MxKxN.  For every size: fresh random float32 (and
 * float64) inputs, every kernel that takes them, median of `repeats`
 * event-timed launches (L2 flushed before each), GFLOP/s = 2mnk / median,
 * % of the cuBLAS reference of the same precision measured in the same
 * run (the registry's reference column: fp32 CUDA-core rungs against
 * cublas-fp32 pedantic, tf32 against cublas-tf32, bf16 against cublas-bf16,
 * float64 against cublas-fp64), the instrumented variant's median and its
 * overhead, and every result judged by the one rule of gemm/tl-gemm-check.h
 * against a float64 reference (the "check" column: the worst
 * |ĉ − c| / (|A|·|B|) next to its bound, or FAIL).  Rungs 1–4 (the slow
 * teaching rungs) run only up to --slow-max.
 *
 * For one kernel under a profiler (ncu), one size, two repeats:
 *   bench-gpu-gemm --kernels gemm-09-warptile --sizes 4096 --repeats 2
 *
 * tilelab-cli bench --suite gemm is the user-facing command; this program
 * is the harness-level twin used to fill docs/perf/ on the device machine.
 */
#include "tl-gpu.h"
#include "tl-gpu-test-util.h"
#include "gemm/tl-gemm-check.h"
#include "gemm/tl-kernels.h"

#include <math.h>
#include <string.h>

typedef struct
{
  int m, k, n;
} Size;

typedef struct
{
  int repeats, slow_max;
  GStrv only;
  TlGpuDevice *device;
  GRand *rng;
} Bench;

typedef struct
{
  const TlKernelInfo *info;
  TlDtype dtype;
  double median, instrumented;
  TlGpuLaunchFacts launch;
  gboolean ok;
  TlGemmCheck check;
} Row;

static gboolean
parse_size (const char *text, Size *s)
{
  char *end = NULL;
  s->m = (int) g_ascii_strtoll (text, &end, 10);
  if (*end == '\0')
    {
      s->k = s->n = s->m;
      return s->m > 0;
    }
  if (*end != 'x')
    return FALSE;
  s->k = (int) g_ascii_strtoll (end + 1, &end, 10);
  if (*end != 'x')
    return FALSE;
  s->n = (int) g_ascii_strtoll (end + 1, &end, 10);
  return *end == '\0' && s->m > 0 && s->k > 0 && s->n > 0;
}

static double
median (double *v, int n)
{
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && v[j - 1] > v[j]; j--)
      {
        double t = v[j];
        v[j] = v[j - 1];
        v[j - 1] = t;
      }
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static gboolean
wanted (const Bench *bench, const TlGpuKernelInfo *info, TlDtype d, const Size *s)
{
  const int biggest = MAX (s->m, MAX (s->k, s->n));
  return (info->dtypes & TL_GPU_DTYPE_BIT (d)) && tl_gpu_kernel_available (info->id)
         && (bench->only == NULL || g_strv_contains ((const char *const *) bench->only, info->id))
         && !(info->kind == TL_GPU_KIND_RUNG && info->number <= 4 && biggest > bench->slow_max);
}

/* One kernel at one size: timed, instrumented, checked.  FALSE when the
 * GPU is lost (nothing more can run). */
static gboolean
bench_kernel (Bench *bench, const TlGpuKernelInfo *info, const Size *s, const TlMatrix *a,
              const TlMatrix *b, const TlGemmReference *ref, GArray *rows)
{
  const TlDtype d = a->dtype;
  g_autoptr (TlMatrix) c = tl_matrix_new (d, s->m, s->n, NULL);
  TlGpuGemmArgs args = tl_gpu_test_gemm_args (a, b, c);
  args.repeats = bench->repeats;
  args.instrument = info->instrumentable;
  args.instrument_repeats = bench->repeats;
  TlGpuGemmResult r;
  Row row = { tl_kernel_find (info->id), d, 0, 0, { 0 }, FALSE };
  TlGpuStatus st = tl_gpu_gemm_run (bench->device, info->id, &args, &r);
  if (st != TL_GPU_OK)
    {
      printf ("| %s | %s | %s: %s ||||||||||\n", info->id, tl_dtype_name (d),
              tl_gpu_status_name (st), tl_gpu_last_message ());
      return st != TL_GPU_DEVICE_LOST;
    }
  row.median = median (r.times_ms, r.n_times);
  row.instrumented = r.instrumented_median_ms;
  row.launch = r.launch;
  row.ok = TRUE;
  tl_gpu_gemm_result_clear (&r);
  tl_gemm_check (ref, c, tl_kernel_precision (row.info, d), &row.check);
  g_array_append_val (rows, row);
  return TRUE;
}

static void
print_row (const Row *row, GArray *rows, double flop)
{
  const TlKernelInfo *ref = tl_kernel_reference (row->info, row->dtype);
  double ref_ms = 0;
  for (guint j = 0; ref != NULL && j < rows->len; j++)
    {
      const Row *o = &g_array_index (rows, Row, j);
      if (o->info == ref && o->dtype == row->dtype)
        ref_ms = o->median;
    }
  char pct[32] = "", inst[32] = "", over[32] = "", check[64];
  if (ref_ms > 0)
    g_snprintf (pct, sizeof pct, "%.1f%%", 100.0 * ref_ms / row->median);
  if (row->instrumented > 0)
    {
      g_snprintf (inst, sizeof inst, "%.3f", row->instrumented);
      g_snprintf (over, sizeof over, "%+.1f%%", 100.0 * (row->instrumented / row->median - 1.0));
    }
  if (row->check.passed)
    g_snprintf (check, sizeof check, "%.1e ≤ %.1e", row->check.worst, row->check.tolerance);
  else
    g_snprintf (check, sizeof check, "FAIL (%zu wrong)", row->check.n_wrong);
  printf ("| %s | %s | %.3f | %.0f | %s | %s | %s | %d | %d | %d | %.2f | %s |\n", row->info->id,
          tl_dtype_name (row->dtype), row->median, flop / (row->median * 1e-3) / 1e9, pct, inst,
          over, row->launch.regs_per_thread,
          row->launch.static_smem_bytes + row->launch.dynamic_smem_bytes,
          row->launch.active_blocks_per_sm, row->launch.waves, check);
}

/* Every kernel at one size, both dtypes; the table.  FALSE when the GPU
 * was lost; *failed when a check failed. */
static gboolean
bench_size (Bench *bench, const Size *s, gboolean *failed)
{
  const double flop = 2.0 * s->m * (double) s->n * s->k;
  printf ("### %d×%d×%d (m×k×n), %.1f GFLOP\n\n", s->m, s->k, s->n, flop / 1e9);
  printf ("| kernel | dtype | median ms | GFLOP/s | %% of cuBLAS | instrumented ms | overhead | "
          "regs | smem B | blocks/SM | waves | check: worst ≤ bound |\n");
  printf ("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
  g_autoptr (GArray) rows = g_array_new (FALSE, TRUE, sizeof (Row));
  const TlDtype dtypes[] = { TL_DTYPE_FLOAT32, TL_DTYPE_FLOAT64 };
  gboolean alive = TRUE;
  for (gsize di = 0; di < G_N_ELEMENTS (dtypes) && alive; di++)
    {
      g_autoptr (TlMatrix) a = tl_gpu_test_random_matrix (bench->rng, dtypes[di], s->m, s->k);
      g_autoptr (TlMatrix) b = tl_gpu_test_random_matrix (bench->rng, dtypes[di], s->k, s->n);
      g_autoptr (TlGemmReference) ref = NULL;
      for (int i = 0; i < tl_gpu_kernel_count () && alive; i++)
        {
          const TlGpuKernelInfo *info = tl_gpu_kernel_info (i);
          if (!wanted (bench, info, dtypes[di], s))
            continue;
          if (ref == NULL && (ref = tl_gemm_reference_new (a, b, NULL)) == NULL)
            g_error ("no memory for the float64 reference of %d×%d×%d", s->m, s->k, s->n);
          alive = bench_kernel (bench, info, s, a, b, ref, rows);
        }
    }
  for (guint i = 0; i < rows->len; i++)
    {
      const Row *row = &g_array_index (rows, Row, i);
      print_row (row, rows, flop);
      *failed |= !row->check.passed;
    }
  printf ("\n");
  fflush (stdout);
  return alive;
}

int
main (int argc, char **argv)
{
  g_autofree char *sizes_text = g_strdup ("1024,2048,4096,8192,4000x3000x5000");
  g_autofree char *kernels_text = NULL;
  int device = 0;
  Bench bench = { .repeats = 10, .slow_max = 4096 };
  GOptionEntry entries[] = {
    { "sizes", 0, 0, G_OPTION_ARG_STRING, &sizes_text, "sizes: N or MxKxN, comma-separated", "LIST" },
    { "repeats", 0, 0, G_OPTION_ARG_INT, &bench.repeats, "timed launches per kernel", "N" },
    { "slow-max", 0, 0, G_OPTION_ARG_INT, &bench.slow_max, "largest dimension for rungs 1-4", "N" },
    { "kernels", 0, 0, G_OPTION_ARG_STRING, &kernels_text, "only these kernel ids", "LIST" },
    { "device", 0, 0, G_OPTION_ARG_INT, &device, "GPU ordinal", "N" },
    { NULL },
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new ("— benchmark the GEMM ladder");
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_autoptr (GError) error = NULL;
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  tl_gpu_test_require_device ();
  bench.rng = g_rand_new_with_seed (tl_gpu_test_seed ());
  TlGpuFacts facts;
  if (tl_gpu_device_facts (device, &facts) != TL_GPU_OK
      || tl_gpu_device_open (device, &bench.device) != TL_GPU_OK)
    {
      g_printerr ("%s\n", tl_gpu_last_message ());
      return 1;
    }
  g_auto (GStrv) only = kernels_text ? g_strsplit (kernels_text, ",", -1) : NULL;
  bench.only = only;
  g_auto (GStrv) sizes = g_strsplit (sizes_text, ",", -1);
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *stamp = g_date_time_format (now, "%Y-%m-%d %H:%M UTC");
  printf ("Device: %s (GPU %d, compute capability %d.%d, %d SMs, %.0f MHz max SM clock, %.0f GiB, "
          "L2 %.0f MiB), driver %d, runtime %d\nDate: %s\nRepeats: %d (median), warm-ups: 2, "
          "L2 flushed before every timed launch, C poisoned between launches; every result "
          "checked against float64 (gemm/tl-gemm-check.h)\n\n",
          facts.name, device, facts.cc_major, facts.cc_minor, facts.sm_count,
          facts.clock_khz / 1000.0, facts.total_mem_bytes / 1073741824.0,
          facts.l2_bytes / 1048576.0, facts.driver_version, facts.runtime_version, stamp,
          bench.repeats);

  gboolean failed = FALSE, alive = TRUE;
  for (int si = 0; sizes[si] != NULL && alive; si++)
    {
      Size s;
      if (!parse_size (sizes[si], &s))
        {
          g_printerr ("bad size \"%s\"\n", sizes[si]);
          return 2;
        }
      alive = bench_size (&bench, &s, &failed);
    }
  tl_gpu_device_close (bench.device);
  g_rand_free (bench.rng);
  /* a wrong result is a failure even in a benchmark */
  return !alive || failed ? 1 : 0;
}
