/* bench-gpu-gemm.c — the GEMM ladder side by side with cuBLAS, as a
 * markdown table (a benchmark, not a test: it never fails on speed).
 *
 *   bench-gpu-gemm [--sizes 1024,2048,4096,8192,4000x3000x5000]
 *                  [--repeats 10] [--slow-max 4096] [--kernels id,id,...]
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

typedef struct
{
  const char *id;
  TlGpuDtype dtype;
  double median, instrumented;
  TlGpuLaunchFacts launch;
  int ok;
} Row;

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

int
main (int argc, char **argv)
{
  g_autofree char *sizes_text = g_strdup ("1024,2048,4096,8192,4000x3000x5000");
  g_autofree char *kernels_text = NULL;
  int repeats = 10, slow_max = 4096;
  GOptionEntry entries[] = {
    { "sizes", 0, 0, G_OPTION_ARG_STRING, &sizes_text, "sizes: N or MxKxN, comma-separated", "LIST" },
    { "repeats", 0, 0, G_OPTION_ARG_INT, &repeats, "timed launches per kernel", "N" },
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
          "L2 %.0f MiB), driver %d, runtime %d\nDate: %s\nRepeats: %d (median), warm-ups: 2, "
          "L2 flushed before every timed launch, C poisoned between launches\n\n",
          facts.name, facts.cc_major, facts.cc_minor, facts.sm_count, facts.clock_khz / 1000.0,
          facts.total_mem_bytes / 1073741824.0, facts.l2_bytes / 1048576.0, facts.driver_version,
          facts.runtime_version, stamp, repeats);

  for (int si = 0; sizes[si] != NULL; si++)
    {
      Size s;
      if (!parse_size (sizes[si], &s))
        {
          g_printerr ("bad size \"%s\"\n", sizes[si]);
          return 2;
        }
      const double flop = 2.0 * s.m * (double) s.n * s.k;
      const int biggest = MAX (s.m, MAX (s.k, s.n));
      printf ("### %d×%d×%d (m×k×n), %.1f GFLOP\n\n", s.m, s.k, s.n, flop / 1e9);
      printf ("| kernel | dtype | median ms | GFLOP/s | %% of cuBLAS | instrumented ms | overhead | "
              "regs | smem B | blocks/SM | waves |\n");
      printf ("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
      GArray *rows = g_array_new (FALSE, TRUE, sizeof (Row));
      const TlGpuDtype dtypes[] = { TL_GPU_FLOAT32, TL_GPU_FLOAT64 };
      for (int di = 0; di < 2; di++)
        {
          const TlGpuDtype d = dtypes[di];
          const size_t es = d == TL_GPU_FLOAT64 ? 8 : 4;
          const size_t mk = (size_t) s.m * s.k, kn = (size_t) s.k * s.n, mn = (size_t) s.m * s.n;
          void *a = g_malloc (mk * es), *b = g_malloc (kn * es), *c = g_malloc (mn * es);
          for (size_t i = 0; i < mk; i++)
            if (d == TL_GPU_FLOAT32)
              ((float *) a)[i] = (float) g_rand_double_range (rng, -1, 1);
            else
              ((double *) a)[i] = g_rand_double_range (rng, -1, 1);
          for (size_t i = 0; i < kn; i++)
            if (d == TL_GPU_FLOAT32)
              ((float *) b)[i] = (float) g_rand_double_range (rng, -1, 1);
            else
              ((double *) b)[i] = g_rand_double_range (rng, -1, 1);
          for (int i = 0; i < tl_gpu_kernel_count (); i++)
            {
              const TlGpuKernelInfo *info = tl_gpu_kernel_info (i);
              if (!(info->dtypes & TL_GPU_DTYPE_BIT (d)))
                continue;
              if (!tl_gpu_kernel_available (info->id))
                continue;
              if (only && !g_strv_contains ((const char *const *) only, info->id))
                continue;
              if (info->kind == TL_GPU_KIND_RUNG && info->number <= 4 && biggest > slow_max)
                continue;
              TlGpuGemmArgs args = { 0 };
              args.dtype = d;
              args.m = s.m;
              args.n = s.n;
              args.k = s.k;
              args.a = a;
              args.b = b;
              args.c = c;
              args.warmups = 2;
              args.repeats = repeats;
              args.flush_l2 = 1;
              args.instrument = info->instrumentable;
              args.instrument_repeats = repeats;
              TlGpuGemmResult r;
              Row row = { info->id, d, 0, 0, { 0 }, 0 };
              TlGpuStatus st = tl_gpu_gemm_run (dev, info->id, &args, &r);
              if (st == TL_GPU_OK)
                {
                  row.median = median (r.times_ms, r.n_times);
                  row.instrumented = r.instrumented_median_ms;
                  row.launch = r.launch;
                  row.ok = 1;
                  tl_gpu_gemm_result_clear (&r);
                }
              else
                {
                  printf ("| %s | %s | %s: %s |||||||||\n", info->id,
                          d == TL_GPU_FLOAT64 ? "float64" : "float32", tl_gpu_status_name (st),
                          tl_gpu_last_message ());
                  if (st == TL_GPU_DEVICE_LOST)
                    return 1;
                }
              g_array_append_val (rows, row);
            }
          g_free (a);
          g_free (b);
          g_free (c);
        }
      for (guint i = 0; i < rows->len; i++)
        {
          Row *row = &g_array_index (rows, Row, i);
          if (!row->ok)
            continue;
          const TlGpuKernelInfo *info = tl_gpu_kernel_find (row->id);
          const char *ref_id = reference_for (info, row->dtype);
          double ref_ms = 0;
          for (guint j = 0; j < rows->len; j++)
            {
              Row *o = &g_array_index (rows, Row, j);
              if (o->ok && strcmp (o->id, ref_id) == 0 && o->dtype == row->dtype)
                ref_ms = o->median;
            }
          char pct[32] = "", inst[32] = "", over[32] = "";
          if (ref_ms > 0)
            g_snprintf (pct, sizeof pct, "%.1f%%", 100.0 * ref_ms / row->median);
          if (row->instrumented > 0)
            {
              g_snprintf (inst, sizeof inst, "%.3f", row->instrumented);
              g_snprintf (over, sizeof over, "%+.1f%%", 100.0 * (row->instrumented / row->median - 1.0));
            }
          printf ("| %s | %s | %.3f | %.0f | %s | %s | %s | %d | %d | %d | %.2f |\n", row->id,
                  row->dtype == TL_GPU_FLOAT64 ? "float64" : "float32", row->median,
                  flop / (row->median * 1e-3) / 1e9, pct, inst, over,
                  row->launch.regs_per_thread, row->launch.static_smem_bytes + row->launch.dynamic_smem_bytes,
                  row->launch.active_blocks_per_sm, row->launch.waves);
        }
      printf ("\n");
      fflush (stdout);
      g_array_free (rows, TRUE);
    }
  tl_gpu_device_close (dev);
  g_rand_free (rng);
  return 0;
}
