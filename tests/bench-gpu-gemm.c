/* bench-gpu-gemm.c — the GEMM ladder side by side with cuBLAS, as a
 * markdown table (a benchmark, not a test: it never fails on speed).
 *
 *   bench-gpu-gemm [--sizes 1024,2048,4096,8192,4000x3000x5000]
 *                  [--repeats 10] [--rounds 1] [--slow-max 4096] [--kernels id,id,...]
 *                  [--device N] [--plans auto|all] [--no-instrument]
 *                  [--gpu-reference-from 6144]
 *
 * Last it prints the sweep: per size, the fastest rung of each precision as
 * % of cuBLAS of that precision, with the plan it ran.  --plans all also
 * runs every plan of the planned rungs, pinned, as rows of their own (the
 * data the cost model of gpu/tl-gpu-plan.c is fitted to), and the sweep
 * names the best of them beside the model's choice.  --no-instrument skips
 * the instrumented launches (a sweep of plans needs only the timings).
 *
 * Sizes are N (cube) or MxKxN.  For every size: fresh random float32 (and
 * float64) inputs, every kernel that takes them, median of `repeats`
 * event-timed launches (L2 flushed before each), GFLOP/s = 2mnk / median,
 * % of the cuBLAS reference of the same precision measured in the same
 * run (the registry's reference column: fp32 CUDA-core rungs against
 * cublas-fp32 pedantic, tf32 against cublas-tf32, bf16 against cublas-bf16,
 * float64 against cublas-fp64), the instrumented variant's median and its
 * overhead (each instrumented launch right after a plain one, so a GPU
 * slowing down as it warms slows both alike), and every result judged by the one rule of gemm/tl-gemm-check.h
 * against a float64 reference (the "check" column: the worst
 * |ĉ − c| / (|A|·|B|) next to its bound, or FAIL; a wrong result makes the
 * program exit 1).  Rungs 1–4 (the slow teaching rungs) run only up to
 * --slow-max.
 *
 * The float64 reference (A·B and |A|·|B|) is OpenBLAS's DGEMM on the CPU
 * for sizes whose largest dimension is under --gpu-reference-from (6144),
 * and cuBLAS's DGEMM on the GPU (the registry's cublas-fp64, on the exact
 * float64 values of the inputs and of their absolute values) from there
 * up: on a server's cores the CPU takes most of a minute for 8192³ and
 * eight times that for 16384³, the GPU a fraction of a second.  Both are
 * float64 GEMMs, whose own rounding the rule already allows for (its ε₆₄
 * term).  The GPU reference is itself checked, by the same rule in fp64,
 * against the CPU's at every size from 1024 up to that threshold that the
 * run measures (a line under the size's table); a disagreement fails the
 * run like a wrong result.
 *
 * --rounds R measures every kernel R times, the list forwards in even
 * rounds and backwards in odd ones, and reports the median of the rounds'
 * medians and their spread ((max − min) / median).  A GPU that heats up
 * and lowers its clocks during a long run (an H100 at 8192³ does, by
 * several percent) then does not favour whichever kernel comes first: the
 * references come last in the registry, so with one round they always run
 * on the warmest GPU.
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

#define MAX_ROUNDS 16

static gboolean no_instrument; /* --no-instrument: plain launches only (sweeps) */
static int gpu_reference_from = 6144; /* --gpu-reference-from: float64 reference on the GPU */
static gboolean reference_disagrees;  /* the GPU reference failed its cross-check */
static GString *notes;                /* lines printed under the size's table */
static gboolean all_plans;     /* --plans all: a row per plan of each planned rung */

typedef struct
{
  const TlGpuKernelInfo *info;
  TlGpuDtype dtype;
  char plan[TL_GPU_PLAN_NAME_MAX]; /* pinned plan ("" : the cost model's) */
  TlGpuGemmPlan ran;        /* what the last round ran */
  double round_ms[MAX_ROUNDS], round_instrumented[MAX_ROUNDS];
  int rounds;               /* measured so far */
  double median, instrumented, spread;
  TlGpuLaunchFacts launch;
  int failed;
  TlGemmCheck check;        /* the last round's result judged; FAIL sticks */
  gboolean wrong;           /* some round's result failed the check */
} Row;

typedef struct
{
  Size s;
  const TlMatrix *a, *b;
  TlMatrix *c;
  const TlGemmReference *ref;
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
  TlGpuGemmArgs args = tl_gpu_test_gemm_args (p->a, p->b, p->c);
  args.repeats = p->repeats;
  args.plan = row->plan;
  args.instrument = row->info->instrumentable && !no_instrument;
  args.instrument_repeats = p->repeats;
  args.interleave_instrumented = 1;
  TlGpuGemmResult r;
  TlGpuStatus st = tl_gpu_gemm_run (dev, row->info->id, &args, &r);
  if (st != TL_GPU_OK)
    {
      if (!row->failed)
        printf ("| %s | %s | %s: %s |||||||||||\n", row->info->id, dtype_name (row->dtype),
                tl_gpu_status_name (st), tl_gpu_last_message ());
      row->failed = 1;
      return st != TL_GPU_DEVICE_LOST;
    }
  row->round_ms[row->rounds] = median (r.times_ms, r.n_times);
  row->round_instrumented[row->rounds] = r.instrumented_median_ms;
  row->rounds++;
  row->launch = r.launch;
  row->ran = r.plan;
  tl_gpu_gemm_result_clear (&r);
  const TlKernelInfo *k = tl_kernel_find (row->info->id);
  if (!tl_gemm_check (p->ref, p->c, tl_kernel_precision (k, (TlDtype) row->dtype), &row->check))
    row->wrong = TRUE;
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

/* Prints the rows; TRUE when every result passed its check. */
static gboolean
print_rows (const Row *rows, guint n_rows, double flop, double *row_pct)
{
  gboolean all_right = TRUE;
  for (guint i = 0; i < n_rows; i++)
    {
      const Row *row = &rows[i];
      if (row->failed || row->rounds == 0)
        continue;
      const TlKernelInfo *ref = tl_kernel_reference (tl_kernel_find (row->info->id),
                                                     (TlDtype) row->dtype);
      double ref_ms = 0;
      for (guint j = 0; ref != NULL && j < n_rows; j++)
        if (!rows[j].failed && rows[j].rounds > 0 && strcmp (rows[j].info->id, ref->id) == 0
            && rows[j].dtype == row->dtype)
          ref_ms = rows[j].median;
      char pct[32] = "", inst[32] = "", over[32] = "", spread[32] = "", check[64];
      if (ref_ms > 0)
        g_snprintf (pct, sizeof pct, "%.1f%%", 100.0 * ref_ms / row->median);
      row_pct[i] = ref_ms > 0 ? 100.0 * ref_ms / row->median : 0.0;
      if (row->instrumented > 0)
        {
          g_snprintf (inst, sizeof inst, "%.3f", row->instrumented);
          g_snprintf (over, sizeof over, "%+.1f%%", 100.0 * (row->instrumented / row->median - 1.0));
        }
      if (row->rounds > 1)
        g_snprintf (spread, sizeof spread, "%.1f%%", 100.0 * row->spread);
      if (!row->wrong)
        g_snprintf (check, sizeof check, "%.1e ≤ %.1e", row->check.worst, row->check.tolerance);
      else
        g_snprintf (check, sizeof check, "FAIL (%zu wrong)", row->check.n_wrong);
      all_right &= !row->wrong;
      char label[96];
      if (row->ran.name[0] != '\0')
        g_snprintf (label, sizeof label, "%s %s%s", row->info->id, row->ran.name,
                    row->plan[0] ? "" : " (auto)");
      else
        g_snprintf (label, sizeof label, "%s", row->info->id);
      printf ("| %s | %s | %.3f | %s | %.0f | %s | %s | %s | %d | %d | %d | %.2f | %s |\n",
              label, dtype_name (row->dtype), row->median, spread,
              flop / (row->median * 1e-3) / 1e9, pct, inst, over, row->launch.regs_per_thread,
              row->launch.static_smem_bytes + row->launch.dynamic_smem_bytes,
              row->launch.active_blocks_per_sm, row->launch.waves, check);
    }
  return all_right;
}

/* ---- the float64 reference on the GPU ---------------------------------- */

/* Which reference a size gets: the CPU's below the threshold, the GPU's
 * from it (when cuBLAS is there to compute it). */
static gboolean
uses_gpu_reference (Size s)
{
  return MAX (s.m, MAX (s.k, s.n)) >= gpu_reference_from && tl_gpu_kernel_available ("cublas-fp64");
}

/* x as float64 (exact for float32), element-wise absolute when asked. */
static TlMatrix *
float64_of (const TlMatrix *x, gboolean absolute)
{
  TlMatrix *y = tl_matrix_convert (x, TL_DTYPE_FLOAT64, NULL);
  if (y == NULL)
    g_error ("no memory for a float64 copy of a %zu×%zu matrix", x->rows, x->cols);
  for (gsize i = 0; absolute && i < y->rows; i++)
    {
      double *row = tl_matrix_row (y, i);
      for (gsize j = 0; j < y->cols; j++)
        row[j] = fabs (row[j]);
    }
  return y;
}

/* c = a·b (or |a|·|b|) by cuBLAS DGEMM: one timed launch after the
 * harness's warm-ups, L2 left alone. */
static gboolean
gpu_float64_product (TlGpuDevice *dev, const TlMatrix *a, const TlMatrix *b, gboolean absolute,
                     TlMatrix *c)
{
  g_autoptr (TlMatrix) a64 = float64_of (a, absolute);
  g_autoptr (TlMatrix) b64 = float64_of (b, absolute);
  TlGpuGemmArgs args = tl_gpu_test_gemm_args (a64, b64, c);
  args.repeats = 1;
  args.flush_l2 = 0;
  TlGpuGemmResult r;
  if (tl_gpu_gemm_run (dev, "cublas-fp64", &args, &r) != TL_GPU_OK)
    {
      g_printerr ("the float64 reference on the GPU failed: %s\n", tl_gpu_last_message ());
      return FALSE;
    }
  tl_gpu_gemm_result_clear (&r);
  return TRUE;
}

/* The reference of gemm/tl-gemm-check.h, its two products computed on the
 * GPU; NULL when the GPU could not. */
static TlGemmReference *
gpu_reference_new (TlGpuDevice *dev, const TlMatrix *a, const TlMatrix *b)
{
  g_autoptr (TlGemmReference) ref = g_new0 (TlGemmReference, 1);
  ref->k = a->cols;
  ref->c = tl_matrix_new (TL_DTYPE_FLOAT64, a->rows, b->cols, NULL);
  ref->abs_c = tl_matrix_new (TL_DTYPE_FLOAT64, a->rows, b->cols, NULL);
  if (ref->c == NULL || ref->abs_c == NULL)
    g_error ("no memory for the float64 reference of %zu×%zu×%zu", a->rows, a->cols, b->cols);
  if (!gpu_float64_product (dev, a, b, FALSE, ref->c)
      || !gpu_float64_product (dev, a, b, TRUE, ref->abs_c))
    return NULL;
  ref->norm_a = tl_matrix_norm (a, TL_NORM_FROBENIUS);
  ref->norm_b = tl_matrix_norm (b, TL_NORM_FROBENIUS);
  ref->norm_c = tl_matrix_norm (ref->c, TL_NORM_FROBENIUS);
  return g_steal_pointer (&ref);
}

/* The GPU's reference judged against the CPU's by the rule, as a float64
 * kernel's result would be: A·B, and |A|·|B| against itself. */
static void
cross_check (TlGpuDevice *dev, const TlGemmReference *cpu, const TlMatrix *a, const TlMatrix *b,
             TlGpuDtype d)
{
  g_autoptr (TlGemmReference) gpu = gpu_reference_new (dev, a, b);
  TlGemmCheck product = { 0 }, absolute = { 0 };
  TlGemmReference abs_ref = *cpu;
  abs_ref.c = cpu->abs_c;
  const gboolean ok = gpu != NULL && tl_gemm_check (cpu, gpu->c, "fp64", &product)
                      && tl_gemm_check (&abs_ref, gpu->abs_c, "fp64", &absolute);
  g_string_append_printf (notes,
                          "GPU float64 reference (cuBLAS DGEMM) against the CPU's (OpenBLAS), %s "
                          "inputs: A·B worst %.1e, |A|·|B| worst %.1e, bound %.1e: %s\n",
                          dtype_name (d), product.worst, absolute.worst, product.tolerance,
                          ok ? "agree" : "DISAGREE");
  reference_disagrees |= !ok;
}

/* Every selected kernel that takes dtype d, `rounds` times, the list
 * forwards and backwards in turn.  Appends their rows.  FALSE when the GPU
 * was lost. */
static gboolean
bench_dtype (TlGpuDevice *dev, const TlGpuFacts *facts, GRand *rng, Size s, TlGpuDtype d,
             int repeats, int rounds, GStrv only, int slow_max, GArray *rows)
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
      /* --plans all: the planned rungs once more per plan, pinned */
      for (int pi = 0; all_plans && pi < tl_gpu_gemm_plan_count (info->id); pi++)
        {
          TlGpuGemmPlan plan;
          if (!tl_gpu_gemm_plan_nth (info->id, pi, s.m, s.n, s.k, facts, &plan))
            continue;
          g_strlcpy (row.plan, plan.name, sizeof row.plan);
          g_array_append_val (rows, row);
        }
    }
  const guint n = rows->len - first;
  if (n == 0)
    return TRUE;
  g_autoptr (TlMatrix) a = tl_gpu_test_random_matrix (rng, (TlDtype) d, s.m, s.k);
  g_autoptr (TlMatrix) b = tl_gpu_test_random_matrix (rng, (TlDtype) d, s.k, s.n);
  g_autoptr (TlMatrix) c = tl_matrix_new ((TlDtype) d, s.m, s.n, NULL);
  const gboolean on_gpu = uses_gpu_reference (s);
  g_autoptr (TlGemmReference) ref = on_gpu ? gpu_reference_new (dev, a, b)
                                           : tl_gemm_reference_new (a, b, NULL);
  if (ref == NULL)
    g_error ("no float64 reference of %d×%d×%d (%s)", s.m, s.k, s.n,
             on_gpu ? "the GPU's failed" : "no memory");
  if (!on_gpu && MAX (s.m, MAX (s.k, s.n)) >= 1024 && tl_gpu_kernel_available ("cublas-fp64"))
    cross_check (dev, ref, a, b, d);
  Problem p = { s, a, b, c, ref, repeats };
  gboolean alive = TRUE;
  for (int r = 0; r < rounds && alive; r++)
    for (guint j = 0; j < n && alive; j++)
      alive = measure (dev, &g_array_index (rows, Row, first + (r % 2 ? n - 1 - j : j)), &p);
  for (guint j = 0; j < n; j++)
    summarise (&g_array_index (rows, Row, first + j));
  return alive;
}

/* The sweep table: one line per size, and per precision the fastest rung
 * (with its plan) as % of cuBLAS of that precision, from the rows of one
 * size.  Rows with a pinned plan compete only in --plans all sweeps, under
 * their own label; the headline is the cost model's plan (auto). */
static const char *const precisions[] = { "fp32", "tf32", "bf16", "fp64" };

static void
sweep_add (GString *sweep, Size s, const Row *rows, guint n_rows, const double *pct)
{
  g_string_append_printf (sweep, "| %d×%d×%d |", s.m, s.k, s.n);
  for (guint p = 0; p < G_N_ELEMENTS (precisions); p++)
    {
      int best = -1, best_pinned = -1;
      for (guint i = 0; i < n_rows; i++)
        {
          const Row *row = &rows[i];
          if (row->failed || row->rounds == 0 || row->info->kind != TL_GPU_KIND_RUNG || pct[i] <= 0)
            continue;
          const TlKernelInfo *k = tl_kernel_find (row->info->id);
          if (g_strcmp0 (tl_kernel_precision (k, (TlDtype) row->dtype), precisions[p]) != 0)
            continue;
          int *slot = row->plan[0] ? &best_pinned : &best;
          if (*slot < 0 || pct[i] > pct[*slot])
            *slot = (int) i;
        }
      if (best < 0)
        g_string_append (sweep, " — |");
      else
        g_string_append_printf (sweep, " %.1f%% (%s%s%s) |", pct[best],
                                rows[best].info->id + (g_str_has_prefix (rows[best].info->id, "gemm-") ? 5 : 0),
                                rows[best].ran.name[0] ? " " : "", rows[best].ran.name);
      if (best_pinned >= 0)
        g_string_append_printf (sweep, " best pinned %.1f%% (%s) |", pct[best_pinned],
                                rows[best_pinned].ran.name);
      else if (all_plans)
        g_string_append (sweep, " |");
    }
  g_string_append_c (sweep, '\n');
}

static void
sweep_print (const GString *sweep)
{
  printf ("### Sweep: the fastest rung of each precision as %% of cuBLAS of that precision\n\n");
  printf (all_plans ? "| size m×k×n | FP32 (auto) | FP32 best pinned | TF32 | pinned | BF16 | pinned | "
                      "FP64 | pinned |\n|---|---|---|---|---|---|---|---|---|\n"
                    : "| size m×k×n | FP32 (CUDA cores) | TF32 | BF16 | FP64 |\n|---|---|---|---|---|\n");
  printf ("%s\n", sweep->str);
}

int
main (int argc, char **argv)
{
  g_autofree char *sizes_text = g_strdup ("1024,2048,4096,8192,4000x3000x5000");
  g_autofree char *kernels_text = NULL, *plans_text = NULL;
  int repeats = 10, rounds = 1, slow_max = 4096, device = 0;
  GOptionEntry entries[] = {
    { "sizes", 0, 0, G_OPTION_ARG_STRING, &sizes_text, "sizes: N or MxKxN, comma-separated", "LIST" },
    { "repeats", 0, 0, G_OPTION_ARG_INT, &repeats, "timed launches per kernel", "N" },
    { "rounds", 0, 0, G_OPTION_ARG_INT, &rounds, "measure every kernel N times, alternating the order", "N" },
    { "slow-max", 0, 0, G_OPTION_ARG_INT, &slow_max, "largest dimension for rungs 1-4", "N" },
    { "kernels", 0, 0, G_OPTION_ARG_STRING, &kernels_text, "only these kernel ids", "LIST" },
    { "device", 0, 0, G_OPTION_ARG_INT, &device, "GPU ordinal", "N" },
    { "no-instrument", 0, 0, G_OPTION_ARG_NONE, &no_instrument, "plain launches only", NULL },
    { "gpu-reference-from", 0, 0, G_OPTION_ARG_INT, &gpu_reference_from,
      "sizes with a dimension this large get their float64 reference from cuBLAS DGEMM", "N" },
    { "plans", 0, 0, G_OPTION_ARG_STRING, &plans_text,
      "auto (the cost model's plan) or all (also a row per plan of each planned rung)", "WHICH" },
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
  all_plans = g_strcmp0 (plans_text, "all") == 0;
  if (plans_text != NULL && !all_plans && g_strcmp0 (plans_text, "auto") != 0)
    {
      g_printerr ("--plans takes auto or all\n");
      return 2;
    }
  if (rounds < 1 || rounds > MAX_ROUNDS || repeats < 1 || gpu_reference_from < 1)
    {
      g_printerr ("--rounds must be 1..%d, --repeats and --gpu-reference-from at least 1\n",
                  MAX_ROUNDS);
      return 2;
    }
  tl_gpu_test_require_device ();
  GRand *rng = g_rand_new_with_seed (tl_gpu_test_seed ());
  TlGpuFacts facts;
  TlGpuDevice *dev = NULL;
  if (tl_gpu_device_facts (device, &facts) != TL_GPU_OK
      || tl_gpu_device_open (device, &dev) != TL_GPU_OK)
    {
      g_printerr ("%s\n", tl_gpu_last_message ());
      return 1;
    }
  g_auto (GStrv) only = kernels_text ? g_strsplit (kernels_text, ",", -1) : NULL;
  g_auto (GStrv) sizes = g_strsplit (sizes_text, ",", -1);
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *stamp = g_date_time_format (now, "%Y-%m-%d %H:%M UTC");
  printf ("Device: %s (GPU %d, compute capability %d.%d, %d SMs, %.0f MHz max SM clock, %.0f GiB, "
          "L2 %.0f MiB), driver %d, runtime %d\nDate: %s\nRepeats: %d (median), rounds: %d (median of the rounds' medians; spread = "
          "(max − min) / median), warm-ups: 2, L2 flushed before every timed launch, C "
          "poisoned between launches; every result checked against float64 "
          "(gemm/tl-gemm-check.h): OpenBLAS DGEMM on the CPU below %d, cuBLAS DGEMM on the GPU "
          "from %d (checked against the CPU's at the sizes from 1024 below that)\n\n",
          facts.name, device, facts.cc_major, facts.cc_minor, facts.sm_count, facts.clock_khz / 1000.0,
          facts.total_mem_bytes / 1073741824.0, facts.l2_bytes / 1048576.0, facts.driver_version,
          facts.runtime_version, stamp, repeats, rounds, gpu_reference_from, gpu_reference_from);

  gboolean all_right = TRUE;
  GString *sweep = g_string_new (NULL);
  notes = g_string_new (NULL);
  for (int si = 0; sizes[si] != NULL; si++)
    {
      Size s;
      if (!parse_size (sizes[si], &s))
        {
          g_printerr ("bad size \"%s\"\n", sizes[si]);
          return 2;
        }
      const double flop = 2.0 * s.m * (double) s.n * s.k;
      printf ("### %d×%d×%d (m×k×n), %.1f GFLOP, float64 reference on the %s\n\n", s.m, s.k, s.n,
              flop / 1e9, uses_gpu_reference (s) ? "GPU (cuBLAS DGEMM)" : "CPU (OpenBLAS)");
      printf ("| kernel | dtype | median ms | spread | GFLOP/s | %% of cuBLAS | instrumented ms | "
              "overhead | regs | smem B | blocks/SM | waves | check: worst ≤ bound |\n");
      printf ("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
      GArray *rows = g_array_new (FALSE, TRUE, sizeof (Row));
      const TlGpuDtype dtypes[] = { TL_GPU_FLOAT32, TL_GPU_FLOAT64 };
      gboolean alive = TRUE;
      for (int di = 0; di < 2 && alive; di++)
        alive = bench_dtype (dev, &facts, rng, s, dtypes[di], repeats, rounds, only, slow_max, rows);
      double *pct = g_new0 (double, rows->len + 1);
      all_right &= print_rows ((const Row *) rows->data, rows->len, flop, pct);
      sweep_add (sweep, s, (const Row *) rows->data, rows->len, pct);
      g_free (pct);
      printf ("\n%s%s", notes->str, notes->len > 0 ? "\n" : "");
      g_string_truncate (notes, 0);
      fflush (stdout);
      g_array_free (rows, TRUE);
      if (!alive)
        return 1;
    }
  sweep_print (sweep);
  g_string_free (sweep, TRUE);
  g_string_free (notes, TRUE);
  all_right &= !reference_disagrees;
  tl_gpu_device_close (dev);
  g_rand_free (rng);
  /* a wrong result is a failure even in a benchmark */
  return all_right ? 0 : 1;
}
