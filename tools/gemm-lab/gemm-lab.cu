// gemm-lab.cu — a standalone developer harness for the fast GEMM rungs
// (09 warp tiling, 10 WMMA, 11 wgmma).  Not part of the app: it builds the
// rung files with nvcc directly (see build.sh), checks them against a CPU
// float64 reference on random inputs at odd shapes with NaN-poisoned
// outputs, and times them against cuBLAS in the same process.
//
//   gemm-lab check            correctness at 17×33×9 … 4097×4095×4093
//   gemm-lab small            one small odd shape, for compute-sanitizer
//   gemm-lab bench [reps]     timing at 1024…8192 and 4000×3000×5000
//
// Prints a table; exits nonzero when a check fails.
#include "tl-gemm-rung.h"
#include "tl-gemm-async.cuh"
#include "../lab-check.h"

#include <cublas_v2.h>
#include <cuda_bf16.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

extern const TlGemmRung gemm_09_warptile_rung;
extern const TlGemmRung gemm_10_wmma_tf32_rung;
extern const TlGemmRung gemm_10_wmma_bf16_rung;
extern const TlGemmRung gemm_11_wgmma_rung;
cudaError_t gemm_09_lab_a (const TlGemmLaunch *l);
cudaError_t gemm_09_lab_b (const TlGemmLaunch *l);
cudaError_t gemm_09_lab_c (const TlGemmLaunch *l);
cudaError_t gemm_09_lab_d (const TlGemmLaunch *l);
cudaError_t gemm_09_lab_e (const TlGemmLaunch *l);

#define CB(x)                                                                              \
  do                                                                                       \
    {                                                                                      \
      cublasStatus_t s_ = (x);                                                             \
      if (s_ != CUBLAS_STATUS_SUCCESS)                                                     \
        {                                                                                  \
          fprintf (stderr, "%s:%d: %s: cublas status %d\n", __FILE__, __LINE__, #x, (int) s_); \
          exit (2);                                                                        \
        }                                                                                  \
    }                                                                                      \
  while (0)

struct Variant
{
  const char *name;
  const TlGemmRung *rung;                         // for check/shape/workspace
  cudaError_t (*launch) (const TlGemmLaunch *l);  // overrides rung->launch when set
  const char *precision;                          // fp32 / tf32 / bf16: tolerance and reference
  bool timing_only;                               // lab variants that skip work or change the grid
};

static std::vector<Variant>
all_variants (bool with_lab)
{
  std::vector<Variant> v = {
    { "gemm-09-warptile", &gemm_09_warptile_rung, nullptr, "fp32", false },
    { "gemm-10-wmma-tf32", &gemm_10_wmma_tf32_rung, nullptr, "tf32", false },
    { "gemm-10-wmma-bf16", &gemm_10_wmma_bf16_rung, nullptr, "bf16", false },
    { "gemm-11-wgmma", &gemm_11_wgmma_rung, nullptr, "bf16", false },
  };
  if (with_lab)
    {
      v.push_back ({ "09 tn16 bk32 j-outer", &gemm_09_warptile_rung, gemm_09_lab_a, "fp32", true });
      v.push_back ({ "09 tn16 bk32 serpent", &gemm_09_warptile_rung, gemm_09_lab_b, "fp32", true });
      v.push_back ({ "09 tn16 bk32 i-outer", &gemm_09_warptile_rung, gemm_09_lab_c, "fp32", true });
      v.push_back ({ "09 tn16 bk16 j-outer", &gemm_09_warptile_rung, gemm_09_lab_d, "fp32", true });
      v.push_back ({ "09 tn8 bk16 j-outer", &gemm_09_warptile_rung, gemm_09_lab_e, "fp32", true });
    }
  return v;
}

static double
tolerance (const char *precision)
{
  if (!strcmp (precision, "fp32"))
    return 1e-5;
  if (!strcmp (precision, "tf32"))
    return 2e-3;
  return 1.5e-2; // bf16 operands, fp32 accumulate
}

// ---- random inputs ------------------------------------------------------

static uint64_t
mix (uint64_t x)
{
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

static void
fill_random (std::vector<float> &v, uint64_t seed)
{
  for (size_t i = 0; i < v.size (); i++)
    v[i] = (float) ((mix (seed * 0x9E3779B97F4A7C15ULL + i) >> 11) * (1.0 / 9007199254740992.0)) * 2.0f - 1.0f;
}

__global__ void
fill_random_kernel (float *p, size_t n, uint64_t seed)
{
  for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < n; i += (size_t) gridDim.x * blockDim.x)
    {
      uint64_t x = seed * 0x9E3779B97F4A7C15ULL + i;
      x ^= x >> 33; x *= 0xff51afd7ed558ccdULL; x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ULL; x ^= x >> 33;
      p[i] = (float) ((x >> 40) * (1.0 / 16777216.0)) * 2.0f - 1.0f;
    }
}

// ---- CPU float64 reference ---------------------------------------------

// Reference rows `rows` of C = A·B in float64, multithreaded.
static void
reference_rows (const std::vector<float> &A, const std::vector<float> &B, int n, int k,
                const std::vector<int> &rows, std::vector<double> &out)
{
  out.assign (rows.size () * (size_t) n, 0.0);
  unsigned nt = std::max (1u, std::thread::hardware_concurrency ());
  std::vector<std::thread> th;
  for (unsigned t = 0; t < nt; t++)
    th.emplace_back ([&, t] () {
      for (size_t ri = t; ri < rows.size (); ri += nt)
        {
          double *o = &out[ri * n];
          const float *a = &A[(size_t) rows[ri] * k];
          for (int p = 0; p < k; p++)
            {
              double av = a[p];
              const float *b = &B[(size_t) p * n];
              for (int j = 0; j < n; j++)
                o[j] += av * (double) b[j];
            }
        }
    });
  for (auto &x : th)
    x.join ();
}

static size_t
workspace_of (const Variant &v, const TlGemmLaunch *l)
{
  return v.rung->workspace_bytes ? v.rung->workspace_bytes (l) : 0;
}

static cudaError_t
launch_variant (const Variant &v, const TlGemmLaunch *l)
{
  return v.launch ? v.launch (l) : v.rung->launch (l);
}

// ---- check ----------------------------------------------------------------

static int
check_shape (const std::vector<Variant> &vars, int m, int n, int k, uint64_t seed)
{
  int failures = 0;
  std::vector<float> hA ((size_t) m * k), hB ((size_t) k * n), hC ((size_t) m * n);
  fill_random (hA, seed);
  fill_random (hB, seed + 1);
  std::vector<int> rows;
  bool full = (double) m * n * k <= 1.5e9;
  if (full)
    for (int i = 0; i < m; i++)
      rows.push_back (i);
  else
    {
      // Large shapes: every row would take minutes on the CPU; check 96
      // random rows plus the first and the last (the edge tiles).
      rows.push_back (0);
      for (int i = 0; i < 96; i++)
        rows.push_back ((int) (mix (seed + 77 + i) % (uint64_t) m));
      rows.push_back (m - 1);
    }
  std::vector<double> ref;
  reference_rows (hA, hB, n, k, rows, ref);
  double ref_norm = 0;
  for (double x : ref)
    ref_norm += x * x;
  ref_norm = sqrt (ref_norm);

  float *dA, *dB, *dC;
  CK (cudaMalloc (&dA, hA.size () * 4));
  CK (cudaMalloc (&dB, hB.size () * 4));
  CK (cudaMalloc (&dC, hC.size () * 4));
  CK (cudaMemcpy (dA, hA.data (), hA.size () * 4, cudaMemcpyHostToDevice));
  CK (cudaMemcpy (dB, hB.data (), hB.size () * 4, cudaMemcpyHostToDevice));

  for (const Variant &v : vars)
    for (int instr = 0; instr < 2; instr++)
      {
        if (v.timing_only && instr)
          break;
        TlGemmLaunch l = {};
        l.dtype = TL_GPU_FLOAT32;
        l.m = m; l.n = n; l.k = k;
        l.a = dA; l.b = dB; l.c = dC;
        l.stream = 0;
        char why[256] = "";
        if (v.rung->check && v.rung->check (&l, why, sizeof why) != TL_GPU_OK)
          {
            printf ("  %-22s %5dx%5dx%5d  skipped: %s\n", v.name, m, n, k, why);
            break;
          }
        TlGemmShape sh;
        v.rung->shape (&l, &sh);
        TlGpuBlockRecord *rec = nullptr;
        if (instr)
          {
            CK (cudaMalloc (&rec, sh.total_blocks * sizeof (TlGpuBlockRecord)));
            CK (cudaMemset (rec, 0, sh.total_blocks * sizeof (TlGpuBlockRecord)));
            l.blocks = rec;
          }
        void *ws = nullptr;
        size_t wsb = workspace_of (v, &l);
        if (wsb)
          CK (cudaMalloc (&ws, wsb));
        l.workspace = ws;
        l.workspace_bytes = wsb;
        if (v.rung->prepare)
          CK (v.rung->prepare (&l));
        CK (cudaMemset (dC, 0xff, hC.size () * 4)); // NaN poison
        CK (launch_variant (v, &l));
        CK (cudaDeviceSynchronize ());
        CK (cudaMemcpy (hC.data (), dC, hC.size () * 4, cudaMemcpyDeviceToHost));
        size_t nan_count = 0;
        for (float x : hC)
          if (x != x)
            nan_count++;
        double err = 0, maxabs = 0;
        for (size_t ri = 0; ri < rows.size (); ri++)
          for (int j = 0; j < n; j++)
            {
              double d = (double) hC[(size_t) rows[ri] * n + j] - ref[ri * n + j];
              if (d != d)
                d = INFINITY;
              err += d * d;
              maxabs = std::max (maxabs, fabs (d));
            }
        double rel = sqrt (err) / ref_norm;
        bool ok = nan_count == 0 && rel <= tolerance (v.precision);
        std::string rec_note;
        if (instr)
          {
            std::vector<TlGpuBlockRecord> hr (sh.total_blocks);
            CK (cudaMemcpy (hr.data (), rec, hr.size () * sizeof (TlGpuBlockRecord), cudaMemcpyDeviceToHost));
            size_t bad = 0;
            for (size_t i = 0; i < hr.size (); i++)
              {
                const TlGpuBlockRecord &r = hr[i];
                if (r.end_ns <= r.start_ns || r.start_ns == 0
                    || (size_t) r.block_y * sh.grid.x + r.block_x != i)
                  bad++;
              }
            rec_note = bad ? " RECORDS BAD " + std::to_string (bad) : " records ok";
            if (bad)
              ok = false;
            CK (cudaFree (rec));
          }
        printf ("  %-22s %5dx%5dx%5d %s rel err %.2e (tol %.0e) max abs %.2e nan %zu%s  %s\n",
                v.name, m, n, k, instr ? "instr" : "plain", rel, tolerance (v.precision), maxabs,
                nan_count, rec_note.c_str (), ok ? "ok" : "FAIL");
        if (!ok)
          failures++;
        if (ws)
          CK (cudaFree (ws));
      }
  CK (cudaFree (dA));
  CK (cudaFree (dB));
  CK (cudaFree (dC));
  return failures;
}

// ---- bench ----------------------------------------------------------------

static double
median (std::vector<float> v)
{
  std::sort (v.begin (), v.end ());
  size_t n = v.size ();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

template <typename F>
static double
time_median (F &&fn, int reps)
{
  cudaEvent_t a, b;
  CK (cudaEventCreate (&a));
  CK (cudaEventCreate (&b));
  for (int i = 0; i < 3; i++)
    fn ();
  CK (cudaDeviceSynchronize ());
  std::vector<float> t;
  for (int i = 0; i < reps; i++)
    {
      CK (cudaEventRecord (a));
      fn ();
      CK (cudaEventRecord (b));
      CK (cudaEventSynchronize (b));
      float ms;
      CK (cudaEventElapsedTime (&ms, a, b));
      t.push_back (ms);
    }
  CK (cudaGetLastError ());
  CK (cudaEventDestroy (a));
  CK (cudaEventDestroy (b));
  return median (t);
}

static void
bench (const std::vector<Variant> &vars, int reps)
{
  cublasHandle_t h;
  CB (cublasCreate (&h));
  int shapes[][3] = { { 1024, 1024, 1024 }, { 2048, 2048, 2048 }, { 4096, 4096, 4096 },
                      { 8192, 8192, 8192 }, { 4000, 3000, 5000 } };
  printf ("\n%-22s %-16s %10s %10s %9s %s\n", "kernel", "m x n x k", "median ms", "TFLOP/s",
          "% cuBLAS", "(reference)");
  for (auto &s : shapes)
    {
      int m = s[0], n = s[1], k = s[2];
      double flop = 2.0 * m * n * k;
      float *dA, *dB, *dC;
      __nv_bfloat16 *hA16, *hB16;
      CK (cudaMalloc (&dA, (size_t) m * k * 4));
      CK (cudaMalloc (&dB, (size_t) k * n * 4));
      CK (cudaMalloc (&dC, (size_t) m * n * 4));
      CK (cudaMalloc (&hA16, (size_t) m * k * 2));
      CK (cudaMalloc (&hB16, (size_t) k * n * 2));
      fill_random_kernel<<<1024, 256>>> (dA, (size_t) m * k, 11);
      fill_random_kernel<<<1024, 256>>> (dB, (size_t) k * n, 12);
      CK (cudaGetLastError ());
      float one = 1, zero = 0;
      // cuBLAS, row-major C = A·B computed as column-major Cᵀ = Bᵀ·Aᵀ.
      CB (cublasSetMathMode (h, CUBLAS_PEDANTIC_MATH));
      double t_fp32 = time_median ([&] {
        CB (cublasSgemm (h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, dB, n, dA, k, &zero, dC, n));
      }, reps);
      CB (cublasSetMathMode (h, CUBLAS_DEFAULT_MATH));
      double t_tf32 = time_median ([&] {
        CB (cublasGemmEx (h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, dB, CUDA_R_32F, n, dA,
                          CUDA_R_32F, k, &zero, dC, CUDA_R_32F, n, CUBLAS_COMPUTE_32F_FAST_TF32,
                          CUBLAS_GEMM_DEFAULT));
      }, reps);
      CK (tl_bf16_convert (dA, m, k, hA16, m, k, false, 0));
      CK (tl_bf16_convert (dB, k, n, hB16, k, n, false, 0));
      double t_bf16 = time_median ([&] {
        CB (cublasGemmEx (h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, hB16, CUDA_R_16BF, n, hA16,
                          CUDA_R_16BF, k, &zero, dC, CUDA_R_32F, n, CUBLAS_COMPUTE_32F,
                          CUBLAS_GEMM_DEFAULT));
      }, reps);
      double t_conv = time_median ([&] {
        CK (tl_bf16_convert (dA, m, k, hA16, m, k, false, 0));
        CK (tl_bf16_convert (dB, k, n, hB16, k, n, false, 0));
      }, reps);
      char shape[64];
      snprintf (shape, sizeof shape, "%dx%dx%d", m, n, k);
      printf ("%-22s %-16s %10.4f %10.2f %9s\n", "cublas-fp32-pedantic", shape, t_fp32, flop / t_fp32 / 1e9, "100");
      printf ("%-22s %-16s %10.4f %10.2f %9s\n", "cublas-tf32", shape, t_tf32, flop / t_tf32 / 1e9, "100");
      printf ("%-22s %-16s %10.4f %10.2f %9s (gemm only; f32->bf16 pre-pass %.4f ms, with it %.2f TFLOP/s)\n",
              "cublas-bf16", shape, t_bf16, flop / t_bf16 / 1e9, "100", t_conv, flop / (t_bf16 + t_conv) / 1e9);
      for (const Variant &v : vars)
        {
          TlGemmLaunch l = {};
          l.dtype = TL_GPU_FLOAT32;
          l.m = m; l.n = n; l.k = k;
          l.a = dA; l.b = dB; l.c = dC;
          char why[256] = "";
          if (v.rung->check && v.rung->check (&l, why, sizeof why) != TL_GPU_OK)
            {
              printf ("%-22s %-16s skipped: %s\n", v.name, shape, why);
              continue;
            }
          size_t wsb = workspace_of (v, &l);
          void *ws = nullptr;
          if (wsb)
            CK (cudaMalloc (&ws, wsb));
          l.workspace = ws;
          l.workspace_bytes = wsb;
          double t_prep = 0;
          if (v.rung->prepare)
            t_prep = time_median ([&] { CK (v.rung->prepare (&l)); }, reps);
          double t = time_median ([&] { CK (launch_variant (v, &l)); }, reps);
          TlGemmShape sh;
          v.rung->shape (&l, &sh);
          TlGpuBlockRecord *rec;
          CK (cudaMalloc (&rec, sh.total_blocks * sizeof (TlGpuBlockRecord)));
          TlGemmLaunch li = l;
          li.blocks = rec;
          double ti = time_median ([&] { CK (launch_variant (v, &li)); }, reps);
          // Plain again, after the instrumented runs: tells drift (clocks,
          // heat) from instrumentation cost.
          double t2 = time_median ([&] { CK (launch_variant (v, &l)); }, reps);
          CK (cudaFree (rec));
          double ref = !strcmp (v.precision, "fp32") ? t_fp32 : !strcmp (v.precision, "tf32") ? t_tf32 : t_bf16;
          cudaFuncAttributes fa;
          CK (cudaFuncGetAttributes (&fa, sh.kernel));
          int occ = 0;
          CK (cudaOccupancyMaxActiveBlocksPerMultiprocessor (&occ, sh.kernel, sh.block.x * sh.block.y, sh.dynamic_smem));
          printf ("%-22s %-16s %10.4f %10.2f %9.1f", v.name, shape, t, flop / t / 1e9, 100.0 * ref / t);
          if (v.rung->prepare)
            printf (" (prepare %.4f ms; both with their pre-passes: %.1f%%)", t_prep,
                    100.0 * (t_bf16 + t_conv) / (t + t_prep));
          printf ("  [instr %.4f ms, %+.1f%%, plain again %.4f; %d regs, %d B local, %d blocks/SM, grid %ux%u, smem %d]\n",
                  ti, 100.0 * (ti - t) / t, t2, fa.numRegs, (int) fa.localSizeBytes, occ, sh.grid.x, sh.grid.y, sh.dynamic_smem);
          if (ws)
            CK (cudaFree (ws));
        }
      fflush (stdout);
      CK (cudaFree (dA));
      CK (cudaFree (dB));
      CK (cudaFree (dC));
      CK (cudaFree (hA16));
      CK (cudaFree (hB16));
    }
  CB (cublasDestroy (h));
}

int
main (int argc, char **argv)
{
  const char *mode = argc > 1 ? argv[1] : "check";
  cudaDeviceProp p;
  CK (cudaGetDeviceProperties (&p, 0));
  printf ("device: %s, cc %d.%d, %d SMs, L2 %d MB\n", p.name, p.major, p.minor,
          p.multiProcessorCount, p.l2CacheSize >> 20);
  int failures = 0;
  if (!strcmp (mode, "check"))
    {
      auto vars = all_variants (true);
      int shapes[][3] = { { 1, 1, 1 }, { 17, 33, 9 }, { 127, 129, 131 }, { 1000, 500, 1000 },
                          { 256, 256, 256 }, { 4097, 4095, 4093 }, { 4000, 3000, 5000 },
                          { 640, 1024, 2048 } };
      uint64_t seed = 1;
      for (auto &s : shapes)
        failures += check_shape (vars, s[0], s[1], s[2], seed += 10);
      printf ("check: %d failures\n", failures);
    }
  else if (!strcmp (mode, "small"))
    {
      auto vars = all_variants (false);
      failures += check_shape (vars, 127, 129, 131, 5);
      failures += check_shape (vars, 130, 136, 72, 6);
      printf ("small: %d failures\n", failures);
    }
  else if (!strcmp (mode, "one") && argc > 5)
    {
      // one NAME m n k: two plain launches of one variant (for ncu)
      int m = atoi (argv[3]), n = atoi (argv[4]), k = atoi (argv[5]);
      for (const Variant &v : all_variants (true))
        if (!strcmp (v.name, argv[2]))
          {
            float *dA, *dB, *dC;
            CK (cudaMalloc (&dA, (size_t) m * k * 4));
            CK (cudaMalloc (&dB, (size_t) k * n * 4));
            CK (cudaMalloc (&dC, (size_t) m * n * 4));
            fill_random_kernel<<<1024, 256>>> (dA, (size_t) m * k, 21);
            fill_random_kernel<<<1024, 256>>> (dB, (size_t) k * n, 22);
            TlGemmLaunch l = {};
            l.dtype = TL_GPU_FLOAT32;
            l.m = m; l.n = n; l.k = k;
            l.a = dA; l.b = dB; l.c = dC;
            size_t wsb = workspace_of (v, &l);
            if (wsb)
              CK (cudaMalloc (&l.workspace, wsb));
            l.workspace_bytes = wsb;
            if (v.rung->prepare)
              CK (v.rung->prepare (&l));
            for (int i = 0; i < 2; i++)
              CK (launch_variant (v, &l));
            CK (cudaDeviceSynchronize ());
            printf ("ran %s %dx%dx%d\n", v.name, m, n, k);
          }
    }
  else if (!strcmp (mode, "bench"))
    {
      // bench [reps] [lab] [name filter]
      auto vars = all_variants (argc > 3);
      if (argc > 4)
        {
          std::vector<Variant> keep;
          for (const Variant &v : vars)
            if (strstr (v.name, argv[4]))
              keep.push_back (v);
          vars = keep;
        }
      bench (vars, argc > 2 ? atoi (argv[2]) : 20);
    }
  return failures ? 1 : 0;
}
