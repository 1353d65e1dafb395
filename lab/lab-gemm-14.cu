// lab-gemm-14.cu — rung 14's cluster and grid variants side by side with cuBLAS
// BF16, outside the harness (a lab, not a product: built by hand, as
// lab-gemm-17.cu):
//
// (Commit 63868ce also ran clusters of four, 2 × 2 tiles with A and B both
// multicast: only 30 such clusters fit on an H100 — 120 SMs — and they ran
// at 82–93% of cuBLAS; docs/perf/gemm-bf16-h100-2026-11-24.md.)
//
//   lab-gemm-14 [repeats] [rounds]   (or: small — the small checks only, for
//                                     compute-sanitizer; ncu — one launch each at 4096³)
//
// Build (sm_90a, not built by meson): nvcc -std=c++17 -O3
//   -gencode=arch=compute_90a,code=sm_90a -Igpu -Igpu/gemm -Itests lab/lab-gemm-14.cu -lcublas
//
// 1. Correctness: every variant, plain and instrumented, at odd shapes, C
//    poisoned with NaN, against a float64 reference of the BF16-rounded
//    inputs computed on the GPU; |c − ref| ≤ 2k·2⁻²⁴·Σ|a||b| per element
//    (fp32 accumulation of exact BF16 products).
// 2. Timing: 4096³, 8192³, 4000×3000×5000 (m×k×n); every variant and
//    cuBLAS BF16 (BF16 inputs converted once, fp32 out, compute 32F) in the
//    same process; median of `repeats` event-timed launches after 2
//    warm-ups, L2 flushed before each; `rounds` rounds, the list forwards
//    and backwards alternately; reported: the median of the rounds' medians.
#include "../gpu/gemm/gemm-14-wgmma-persistent.cu"

#include <algorithm>
#include <cublas_v2.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

#include "cuda-check.h"

struct Variant
{
  const char *name;
  cudaError_t (*launch) (const TlGemmLaunch *);
  cudaError_t (*prepare) (TlGemmLaunch *);
};

#define V(CL, BAL) { "cl" #CL "-" #BAL, launch_any<CL, BAL>, prepare_cfg<CL> }
static const Variant variants[] = {
  V (2, true), V (2, false), V (1, true),
};

static __global__ void
reference_kernel (const float *a, const float *b, double *ref, double *mag, int m, int n, int k)
{
  const int r = blockIdx.y * blockDim.y + threadIdx.y, c = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= m || c >= n)
    return;
  double s = 0, t = 0;
  for (int p = 0; p < k; p++)
    {
      const double x = (double) __bfloat162float (__float2bfloat16_rn (a[(size_t) r * k + p]));
      const double y = (double) __bfloat162float (__float2bfloat16_rn (b[(size_t) p * n + c]));
      s += x * y;
      t += fabs (x * y);
    }
  ref[(size_t) r * n + c] = s;
  mag[(size_t) r * n + c] = t;
}

static __global__ void
to_bf16 (const float *in, __nv_bfloat16 *out, size_t count)
{
  for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < count; i += (size_t) gridDim.x * blockDim.x)
    out[i] = __float2bfloat16_rn (in[i]);
}

static void
fill_random (std::vector<float> &v, unsigned seed)
{
  srand (seed);
  for (auto &x : v)
    x = 2.0f * rand () / (float) RAND_MAX - 1.0f;
}

static int failures;
static int sm_count;

static TlGemmLaunch
launch_for (int m, int k, int n, float *a, float *b, float *c, void *ws, cudaStream_t st)
{
  TlGemmLaunch l = {};
  l.dtype = TL_GPU_FLOAT32;
  l.m = m, l.n = n, l.k = k, l.a = a, l.b = b, l.c = c, l.stream = st;
  l.cc = 90, l.sm_count = sm_count;
  l.workspace = ws;
  l.workspace_bytes = gemm_14_workspace (&l);
  return l;
}

static void
check_shape (int m, int k, int n, cudaStream_t st)
{
  std::vector<float> ha ((size_t) m * k), hb ((size_t) k * n), hc ((size_t) m * n);
  fill_random (ha, m * 7 + k);
  fill_random (hb, n * 13 + k);
  float *a, *b, *c;
  double *ref, *mag;
  void *ws;
  TlGpuBlockRecord *rec;
  const size_t tiles = (size_t) ((m + BM - 1) / BM) * ((n + BN - 1) / BN);
  CK (cudaMalloc (&a, ha.size () * 4));
  CK (cudaMalloc (&b, hb.size () * 4));
  CK (cudaMalloc (&c, hc.size () * 4));
  CK (cudaMalloc (&ref, hc.size () * 8));
  CK (cudaMalloc (&mag, hc.size () * 8));
  CK (cudaMalloc (&rec, tiles * sizeof (TlGpuBlockRecord)));
  TlGemmLaunch probe = launch_for (m, k, n, a, b, c, nullptr, st);
  CK (cudaMalloc (&ws, probe.workspace_bytes));
  CK (cudaMemcpy (a, ha.data (), ha.size () * 4, cudaMemcpyHostToDevice));
  CK (cudaMemcpy (b, hb.data (), hb.size () * 4, cudaMemcpyHostToDevice));
  reference_kernel<<<dim3 ((n + 15) / 16, (m + 15) / 16), dim3 (16, 16)>>> (a, b, ref, mag, m, n, k);
  CK (cudaDeviceSynchronize ());
  std::vector<double> href (hc.size ()), hmag (hc.size ());
  CK (cudaMemcpy (href.data (), ref, href.size () * 8, cudaMemcpyDeviceToHost));
  CK (cudaMemcpy (hmag.data (), mag, hmag.size () * 8, cudaMemcpyDeviceToHost));
  for (const Variant &v : variants)
    for (int instr = 0; instr < 2; instr++)
      {
        TlGemmLaunch l = launch_for (m, k, n, a, b, c, ws, st);
        l.blocks = instr ? rec : nullptr;
        CK (v.prepare (&l));
        CK (cudaMemset (c, 0xff, hc.size () * 4)); // NaN
        CK (cudaMemset (rec, 0, tiles * sizeof (TlGpuBlockRecord)));
        const cudaError_t le = v.launch (&l);
        if (le != cudaSuccess)
          {
            printf ("check %-10s %5d x %5d x %5d  launch FAILED: %s\n", v.name, m, k, n,
                    cudaGetErrorString (le));
            failures++;
            continue;
          }
        CK (cudaStreamSynchronize (st));
        CK (cudaMemcpy (hc.data (), c, hc.size () * 4, cudaMemcpyDeviceToHost));
        double worst = 0;
        size_t bad = 0;
        for (size_t i = 0; i < hc.size (); i++)
          {
            const double err = fabs ((double) hc[i] - href[i]);
            const double bound = 2.0 * k * ldexp (1.0, -24) * hmag[i] + 1e-30;
            if (!(err <= bound))
              bad++;
            if (err / bound > worst || hc[i] != hc[i])
              worst = hc[i] != hc[i] ? INFINITY : err / bound;
          }
        size_t unrecorded = 0;
        if (instr)
          {
            std::vector<TlGpuBlockRecord> hr (tiles);
            CK (cudaMemcpy (hr.data (), rec, tiles * sizeof (TlGpuBlockRecord), cudaMemcpyDeviceToHost));
            for (const TlGpuBlockRecord &r : hr)
              unrecorded += r.end_ns == 0 || r.end_ns < r.start_ns;
          }
        printf ("check %-10s %s %5d x %5d x %5d  clusters %d  worst err/bound %.3g  %s\n", v.name,
                instr ? "instr" : "plain", m, k, n, l.clusters, worst,
                bad || unrecorded ? "FAIL" : "ok");
        failures += bad != 0 || unrecorded != 0;
      }
  cudaFree (a), cudaFree (b), cudaFree (c), cudaFree (ref), cudaFree (mag), cudaFree (rec), cudaFree (ws);
}

static double
median (std::vector<double> v)
{
  std::sort (v.begin (), v.end ());
  return v[v.size () / 2];
}

int
main (int argc, char **argv)
{
  const bool small = argc > 1 && strcmp (argv[1], "small") == 0;
  const bool ncu = argc > 1 && strcmp (argv[1], "ncu") == 0;
  const int repeats = argc > 1 && !small && !ncu ? atoi (argv[1]) : 10, rounds = argc > 2 ? atoi (argv[2]) : 3;
  cudaStream_t st;
  CK (cudaStreamCreate (&st));
  cudaDeviceProp prop;
  CK (cudaGetDeviceProperties (&prop, 0));
  sm_count = prop.multiProcessorCount;
  printf ("device %s, %d SMs, L2 %d MB\n", prop.name, prop.multiProcessorCount, prop.l2CacheSize >> 20);

  const int shapes[][3] = { { 1, 1, 1 },         { 7, 13, 5 },         { 131, 67, 257 },
                            { 127, 129, 131 },   { 300, 70, 530 },     { 384, 520, 264 },
                            { 1000, 500, 1000 }, { 4097, 4093, 4095 }, { 4000, 3000, 5000 } };
  for (int i = 0; i < (ncu ? 0 : small ? 6 : (int) (sizeof shapes / sizeof shapes[0])); i++)
    check_shape (shapes[i][0], shapes[i][1], shapes[i][2], st);
  if (small)
    {
      printf ("%s: %d failed checks\n", failures ? "FAIL" : "PASS", failures);
      return failures ? 1 : 0;
    }

  cublasHandle_t h;
  cublasCreate (&h);
  cublasSetStream (h, st);
  void *flush;
  const size_t flush_bytes = 2 * (size_t) prop.l2CacheSize;
  CK (cudaMalloc (&flush, flush_bytes));
  cudaEvent_t e0, e1;
  cudaEventCreate (&e0);
  cudaEventCreate (&e1);

  const int sizes[][3] = { { 4096, 4096, 4096 }, { 8192, 8192, 8192 }, { 4000, 3000, 5000 } };
  const int nv = (int) (sizeof variants / sizeof variants[0]);
  for (auto &sz : sizes)
    {
      const int m = sz[0], k = sz[1], n = sz[2];
      std::vector<float> ha ((size_t) m * k), hb ((size_t) k * n);
      fill_random (ha, 1);
      fill_random (hb, 2);
      float *a, *b, *c;
      __nv_bfloat16 *a16, *b16;
      void *ws;
      CK (cudaMalloc (&a, ha.size () * 4));
      CK (cudaMalloc (&b, hb.size () * 4));
      CK (cudaMalloc (&c, (size_t) m * n * 4));
      CK (cudaMalloc (&a16, ha.size () * 2));
      CK (cudaMalloc (&b16, hb.size () * 2));
      CK (cudaMemcpy (a, ha.data (), ha.size () * 4, cudaMemcpyHostToDevice));
      CK (cudaMemcpy (b, hb.data (), hb.size () * 4, cudaMemcpyHostToDevice));
      to_bf16<<<1024, 256, 0, st>>> (a, a16, ha.size ());
      to_bf16<<<1024, 256, 0, st>>> (b, b16, hb.size ());
      TlGemmLaunch probe = launch_for (m, k, n, a, b, c, nullptr, st);
      CK (cudaMalloc (&ws, probe.workspace_bytes));
      std::vector<TlGemmLaunch> ls;
      for (int v = 0; v < nv; v++)
        {
          ls.push_back (launch_for (m, k, n, a, b, c, ws, st));
          CK (variants[v].prepare (&ls.back ()));
        }
      const float one = 1, zero = 0;
      auto run = [&] (int which) {
        if (which == nv)
          {
            cublasStatus_t s = cublasGemmEx (h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b16, CUDA_R_16BF, n,
                                             a16, CUDA_R_16BF, k, &zero, c, CUDA_R_32F, n,
                                             CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
            if (s != CUBLAS_STATUS_SUCCESS)
              exit (3);
          }
        else if (variants[which].launch (&ls[which]) != cudaSuccess)
          {
            printf ("%s: launch failed at %d x %d x %d\n", variants[which].name, m, k, n);
            exit (4);
          }
      };
      if (ncu)
        {
          for (int which = 0; which <= nv; which++)
            run (which);
          CK (cudaStreamSynchronize (st));
          return 0;
        }
      std::vector<std::vector<double>> per (nv + 1);
      for (int r = 0; r < rounds; r++)
        for (int j = 0; j <= nv; j++)
          {
            const int which = r % 2 ? nv - j : j;
            for (int w = 0; w < 2; w++)
              run (which);
            std::vector<double> t;
            for (int i = 0; i < repeats; i++)
              {
                CK (cudaMemsetAsync (flush, i, flush_bytes, st));
                cudaEventRecord (e0, st);
                run (which);
                cudaEventRecord (e1, st);
                CK (cudaEventSynchronize (e1));
                float ms;
                cudaEventElapsedTime (&ms, e0, e1);
                t.push_back (ms);
              }
            per[which].push_back (median (t));
          }
      const double cub = median (per[nv]);
      printf ("\n%d x %d x %d (m x k x n): cublas-bf16 %.4f ms (rounds:", m, k, n, cub);
      for (double x : per[nv])
        printf (" %.4f", x);
      printf (")\n");
      for (int v = 0; v < nv; v++)
        {
          const double t = median (per[v]);
          printf ("  %-10s clusters %3d  %.4f ms  %6.1f%% of cuBLAS  %.1f TFLOP/s  (rounds:", variants[v].name,
                  ls[v].clusters, t, 100.0 * cub / t, 2.0 * m * n * (double) k / t / 1e9);
          for (double x : per[v])
            printf (" %.4f", x);
          printf (")\n");
        }
      cudaFree (a), cudaFree (b), cudaFree (c), cudaFree (a16), cudaFree (b16), cudaFree (ws);
    }
  printf ("\n%s: %d failed checks\n", failures ? "FAIL" : "PASS", failures);
  return failures ? 1 : 0;
}
