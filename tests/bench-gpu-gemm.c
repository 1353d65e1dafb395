/* bench-gpu-gemm.c — the GEMM ladder side by side with cuBLAS, as a
 * markdown table (a benchmark, not a test: it never fails on speed).
 *
 *   bench-gpu-gemm [--sizes 1024,2048,4096,8192,4000x3000x5000]
 *                  [--repeats 10] [--rounds 1] [--slow-max 4096] [--kernels id,id,...]
 *
 * Sizes are N (cube) or MxKxN.  For every size: fresh random float32 (and
 * float64) inputs, every kernel that takes them, median of `repeats`
 * event-timed launches (L2 flushed before each), GFLOP/s = 2mnk / median,
 * % of the cuBLAS reference of the same precision measured in the same
 * run (fp32 CUDA-core rungs against cublas-fp32 pedantic, tf32 against
 * cublas-tf32, bf16 against cublas-bf16, float64 against cublas-fp64), and
 * the instrumented variant's median and its overhead.  Rungs 1–4 (the
 * slow teaching rungs) run only up to --slow-max.
 *
 * --rounds R measures every kernel R times, the list forwards in even
 * rounds and backwards in odd ones, and reports the median of the rounds'
 * medians and their spread ((max − min) / median).  A GPU that heats up
 * and lowers its clocks during a long run (an H100 at 8192³ does, by
 * several percent) then does not favour whichever kernel comes first: the
 * references come last in the registry, so with one round they always run
 * on the warmest GPU.
 *
 * tilelab-cli bench --suite gemm is the user-facing command; this program
 * is the harness-level twin used to fill docs/perf/ on the device machine.
 */
#include "tl-gpu.h"
#include "tl-gpu-test-util.h"

#include <string.h>

typedef struct
{
  int m, k, n;
} Size;

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

static const char *
reference_for (const TlGpuKernelInfo *info, TlGpuDtype d)
{
  if (d == TL_GPU_FLOAT64)
    return "cublas-fp64";
  if (strcmp (info->precision, "tf32") == 0)
    return "cublas-tf32";
  if (strcmp (info->precision, "bf16") == 0)
    return "cublas-bf16";
  return "cublas-fp32";
}

#define MAX_ROUNDS 16

typedef struct
{
  const TlGpuKernelInfo *info;
  TlGpuDtype dtype;
  double round_ms[MAX_ROUNDS], round_instrumented[MAX_ROUNDS];
  int rounds;               /* measured so far */
  double median, instrumented, spread;
  TlGpuLaunchFacts launch;
  int failed;
} Row;

typedef struct
{
  Size s;
  TlGpuDtype dtype;
  const void *a, *b;
  void *c;
  int repeats;
} Problem;

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

static const char *
dtype_name (TlGpuDtype d)
{
  return d == TL_GPU_FLOAT64 ? "float64" : "float32";
}

/* One round of one kernel: its medians go into the row.  FALSE when the
 * GPU is lost (nothing more can run). */
static gboolean
measure (TlGpuDevice *dev, Row *row, const Problem *p)
{
  TlGpuGemmArgs args = { 0 };
  args.dtype = p->dtype;
  args.m = p->s.m;
  args.n = p->s.n;
  args.k = p->s.k;
  args.a = p->a;
  args.b = p->b;
  args.c = p->c;
  args.warmups = 2;
  args.repeats = p->repeats;
  args.flush_l2 = 1;
  args.instrument = row->info->instrumentable;
  args.instrument_repeats = p->repeats;
  TlGpuGemmResult r;
  TlGpuStatus st = tl_gpu_gemm_run (dev, row->info->id, &args, &r);
  if (st != TL_GPU_OK)
    {
      if (!row->failed)
        printf ("| %s | %s | %s: %s ||||||||||\n", row->info->id, dtype_name (p->dtype),
                tl_gpu_status_name (st), tl_gpu_last_message ());
      row->failed = 1;
      return st != TL_GPU_DEVICE_LOST;
    }
  row->round_ms[row->rounds] = median (r.times_ms, r.n_times);
  row->round_instrumented[row->rounds] = r.instrumented_median_ms;
  row->rounds++;
  row->launch = r.launch;
  tl_gpu_gemm_result_clear (&r);
  return TRUE;
}

/* The medians over rounds, and the spread of the uninstrumented ones. */
static void
summarise (Row *row)
{
  if (row->failed || row->rounds == 0)
    return;
  double v[MAX_ROUNDS];
  memcpy (v, row->round_ms, sizeof v);
  row->median = median (v, row->rounds);
  row->spread = (v[row->rounds - 1] - v[0]) / row->median; /* median() sorted v */
  memcpy (v, row->round_instrumented, sizeof v);
  row->instrumented = median (v, row->rounds);
}

static void
print_rows (const Row *rows, guint n_rows, double flop)
{
  for (guint i = 0; i < n_rows; i++)
    {
      const Row *row = &rows[i];
      if (row->failed || row->rounds == 0)
        continue;
      const char *ref_id = reference_for (row->info, row->dtype);
      double ref_ms = 0;
      for (guint j = 0; j < n_rows; j++)
        if (!rows[j].failed && rows[j].rounds > 0 && strcmp (rows[j].info->id, ref_id) == 0
            && rows[j].dtype == row->dtype)
          ref_ms = rows[j].median;
      char pct[32] = "", inst[32] = "", over[32] = "", spread[32] = "";
      if (ref_ms > 0)
        g_snprintf (pct, sizeof pct, "%.1f%%", 100.0 * ref_ms / row->median);
      if (row->instrumented > 0)
        {
          g_snprintf (inst, sizeof inst, "%.3f", row->instrumented);
          g_snprintf (over, sizeof over, "%+.1f%%", 100.0 * (row->instrumented / row->median - 1.0));
        }
      if (row->rounds > 1)
        g_snprintf (spread, sizeof spread, "%.1f%%", 100.0 * row->spread);
      printf ("| %s | %s | %.3f | %s | %.0f | %s | %s | %s | %d | %d | %d | %.2f |\n", row->info->id,
              dtype_name (row->dtype), row->median, spread, flop / (row->median * 1e-3) / 1e9, pct,
              inst, over, row->launch.regs_per_thread,
              row->launch.static_smem_bytes + row->launch.dynamic_smem_bytes,
              row->launch.active_blocks_per_sm, row->launch.waves);
    }
}

static void *
random_matrix (GRand *rng, TlGpuDtype d, size_t count)
{
  void *p = g_malloc (count * (d == TL_GPU_FLOAT64 ? 8 : 4));
  for (size_t i = 0; i < count; i++)
    if (d == TL_GPU_FLOAT32)
      ((float *) p)[i] = (float) g_rand_double_range (rng, -1, 1);
    else
      ((double *) p)[i] = g_rand_double_range (rng, -1, 1);
  return p;
}

/* Every selected kernel that takes dtype d, `rounds` times, the list
 * forwards and backwards in turn.  Appends their rows.  FALSE when the GPU
 * was lost. */
static gboolean
bench_dtype (TlGpuDevice *dev, GRand *rng, Size s, TlGpuDtype d, int repeats, int rounds,
             GStrv only, int slow_max, GArray *rows)
{
  const int biggest = MAX (s.m, MAX (s.k, s.n));
  const guint first = rows->len;
  for (int i = 0; i < tl_gpu_kernel_count (); i++)
    {
      const TlGpuKernelInfo *info = tl_gpu_kernel_info (i);
      if (!(info->dtypes & TL_GPU_DTYPE_BIT (d)) || !tl_gpu_kernel_available (info->id))
        continue;
      if (only && !g_strv_contains ((const char *const *) only, info->id))
        continue;
      if (info->kind == TL_GPU_KIND_RUNG && info->number <= 4 && biggest > slow_max)
        continue;
      Row row = { 0 };
      row.info = info;
      row.dtype = d;
      g_array_append_val (rows, row);
    }
  const guint n = rows->len - first;
  if (n == 0)
    return TRUE;
  void *a = random_matrix (rng, d, (size_t) s.m * s.k), *b = random_matrix (rng, d, (size_t) s.k * s.n);
  Problem p = { s, d, a, b, g_malloc ((size_t) s.m * s.n * (d == TL_GPU_FLOAT64 ? 8 : 4)), repeats };
  gboolean alive = TRUE;
  for (int r = 0; r < rounds && alive; r++)
    for (guint j = 0; j < n && alive; j++)
      alive = measure (dev, &g_array_index (rows, Row, first + (r % 2 ? n - 1 - j : j)), &p);
  for (guint j = 0; j < n; j++)
    summarise (&g_array_index (rows, Row, first + j));
  g_free (a);
  g_free (b);
  g_free (p.c);
  return alive;
}

int
main (int argc, char **argv)
{
  g_autofree char *sizes_text = g_strdup ("1024,2048,4096,8192,4000x3000x5000");
  g_autofree char *kernels_text = NULL;
  int repeats = 10, rounds = 1, slow_max = 4096;
  GOptionEntry entries[] = {
    { "sizes", 0, 0, G_OPTION_ARG_STRING, &sizes_text, "sizes: N or MxKxN, comma-separated", "LIST" },
    { "repeats", 0, 0, G_OPTION_ARG_INT, &repeats, "timed launches per kernel", "N" },
    { "rounds", 0, 0, G_OPTION_ARG_INT, &rounds, "measure every kernel N times, alternating the order", "N" },
    { "slow-max", 0, 0, G_OPTION_ARG_INT, &slow_max, "largest dimension for rungs 1-4", "N" },
    { "kernels", 0, 0, G_OPTION_ARG_STRING, &kernels_text, "only these kernel ids", "LIST" },
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
  if (rounds < 1 || rounds > MAX_ROUNDS || repeats < 1)
    {
      g_printerr ("--rounds must be 1..%d and --repeats at least 1\n", MAX_ROUNDS);
      return 2;
    }
  tl_gpu_test_require_device ();
  GRand *rng = g_rand_new_with_seed (tl_gpu_test_seed ());
  TlGpuFacts facts;
  TlGpuDevice *dev = NULL;
  if (tl_gpu_device_facts (0, &facts) != TL_GPU_OK || tl_gpu_device_open (0, &dev) != TL_GPU_OK)
    {
      g_printerr ("%s\n", tl_gpu_last_message ());
      return 1;
    }
  g_auto (GStrv) only = kernels_text ? g_strsplit (kernels_text, ",", -1) : NULL;
  g_auto (GStrv) sizes = g_strsplit (sizes_text, ",", -1);
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *stamp = g_date_time_format (now, "%Y-%m-%d %H:%M UTC");
  printf ("Device: %s (compute capability %d.%d, %d SMs, %.0f MHz max SM clock, %.0f GiB, "
          "L2 %.0f MiB), driver %d, runtime %d\nDate: %s\nRepeats: %d (median), rounds: %d (median of the rounds' medians; spread = "
          "(max − min) / median), warm-ups: 2, L2 flushed before every timed launch, C "
          "poisoned between launches\n\n",
          facts.name, facts.cc_major, facts.cc_minor, facts.sm_count, facts.clock_khz / 1000.0,
          facts.total_mem_bytes / 1073741824.0, facts.l2_bytes / 1048576.0, facts.driver_version,
          facts.runtime_version, stamp, repeats, rounds);

  for (int si = 0; sizes[si] != NULL; si++)
    {
      Size s;
      if (!parse_size (sizes[si], &s))
        {
          g_printerr ("bad size \"%s\"\n", sizes[si]);
          return 2;
        }
      const double flop = 2.0 * s.m * (double) s.n * s.k;
      printf ("### %d×%d×%d (m×k×n), %.1f GFLOP\n\n", s.m, s.k, s.n, flop / 1e9);
      printf ("| kernel | dtype | median ms | spread | GFLOP/s | %% of cuBLAS | instrumented ms | "
              "overhead | regs | smem B | blocks/SM | waves |\n");
      printf ("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
      GArray *rows = g_array_new (FALSE, TRUE, sizeof (Row));
      const TlGpuDtype dtypes[] = { TL_GPU_FLOAT32, TL_GPU_FLOAT64 };
      gboolean alive = TRUE;
      for (int di = 0; di < 2 && alive; di++)
        alive = bench_dtype (dev, rng, s, dtypes[di], repeats, rounds, only, slow_max, rows);
      print_rows ((const Row *) rows->data, rows->len, flop);
      printf ("\n");
      fflush (stdout);
      g_array_free (rows, TRUE);
      if (!alive)
        return 1;
    }
  tl_gpu_device_close (dev);
  g_rand_free (rng);
  return 0;
}
