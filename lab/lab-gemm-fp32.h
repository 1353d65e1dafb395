/* lab-gemm-fp32.h — the harness of the hand-run FP32 GEMM labs
 * (lab-gemm-17.cu; the stream-K lab,
 * gemm-cuda-cores-h100-2026-11-24-streamk-lab.cu): each lab includes its rung's .cu, lists
 * its variants and calls lab_main.  Not built by meson.
 *
 *   lab [repeats] [rounds]   (or: small — the small checks only, for
 *                             compute-sanitizer; ncu — one launch each at 4096³)
 *
 * 1. Correctness: every variant, plain and instrumented, at odd shapes
 *    (TMA and copy paths), C poisoned with NaN, against a float64
 *    reference computed on the GPU; |c − ref| ≤ 2k·2⁻²⁴·Σ|a||b| per element.
 * 2. Timing: 4096³, 8192³, 4000×3000×5000 (m×k×n); every variant and
 *    cuBLAS (CUBLAS_COMPUTE_32F_PEDANTIC) in the same process; median of
 *    `repeats` event-timed launches after 2 warm-ups, L2 flushed (a 2×L2
 *    memset) before each; `rounds` rounds, the list forwards and backwards
 *    alternately; reported: the median of the rounds' medians.
 */
#pragma once

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
  size_t (*workspace) (const TlGemmLaunch *);   // may be null
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
      s += (double) a[(size_t) r * k + p] * b[(size_t) p * n + c];
      t += fabs ((double) a[(size_t) r * k + p] * b[(size_t) p * n + c]);
    }
  ref[(size_t) r * n + c] = s;
  mag[(size_t) r * n + c] = t;
}

static void
fill_random (std::vector<float> &v, unsigned seed)
{
  srand (seed);
  for (auto &x : v)
    x = 2.0f * rand () / (float) RAND_MAX - 1.0f;
}

static int failures;

// A workspace of the size variant v asks for, zeroed (or none).
static void
lab_workspace (TlGemmLaunch *l, const Variant &v)
{
  l->workspace = nullptr;
  l->workspace_bytes = v.workspace != nullptr ? v.workspace (l) : 0;
  if (l->workspace_bytes > 0)
    {
      CK (cudaMalloc (&l->workspace, l->workspace_bytes));
      CK (cudaMemset (l->workspace, 0, l->workspace_bytes));
    }
}


static void
check_shape (const Variant *variants, int nv, int m, int k, int n, cudaStream_t st, int sm_count)
{
  std::vector<float> ha ((size_t) m * k), hb ((size_t) k * n), hc ((size_t) m * n);
  fill_random (ha, m * 7 + k);
  fill_random (hb, n * 13 + k);
  float *a, *b, *c;
  double *ref, *mag;
  TlGpuBlockRecord *rec;
  CK (cudaMalloc (&a, ha.size () * 4));
  CK (cudaMalloc (&b, hb.size () * 4));
  CK (cudaMalloc (&c, hc.size () * 4));
  CK (cudaMalloc (&ref, hc.size () * 8));
  CK (cudaMalloc (&mag, hc.size () * 8));
  CK (cudaMalloc (&rec, 65536 * sizeof (TlGpuBlockRecord)));
  CK (cudaMemcpy (a, ha.data (), ha.size () * 4, cudaMemcpyHostToDevice));
  CK (cudaMemcpy (b, hb.data (), hb.size () * 4, cudaMemcpyHostToDevice));
  reference_kernel<<<dim3 ((n + 15) / 16, (m + 15) / 16), dim3 (16, 16)>>> (a, b, ref, mag, m, n, k);
  CK (cudaDeviceSynchronize ());
  std::vector<double> href (hc.size ()), hmag (hc.size ());
  CK (cudaMemcpy (href.data (), ref, href.size () * 8, cudaMemcpyDeviceToHost));
  CK (cudaMemcpy (hmag.data (), mag, hmag.size () * 8, cudaMemcpyDeviceToHost));
  for (int vi = 0; vi < nv; vi++)
    for (int instr = 0; instr < 2; instr++)
      {
        const Variant &v = variants[vi];
        TlGemmLaunch l = {};
        l.dtype = TL_GPU_FLOAT32;
        l.m = m, l.n = n, l.k = k, l.a = a, l.b = b, l.c = c, l.stream = st;
        l.blocks = instr ? rec : nullptr;
        l.cc = 90;
        l.sm_count = sm_count;
        lab_workspace (&l, v);
        CK (v.prepare (&l));
        CK (cudaMemset (c, 0xff, hc.size () * 4)); // NaN
        const cudaError_t le = v.launch (&l);
        if (le != cudaSuccess)
          {
            printf ("check %-14s %5d x %5d x %5d  launch FAILED: %s\n", v.name, m, k, n,
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
        printf ("check %-14s %s %5d x %5d x %5d  worst err/bound %.3g  %s\n", v.name,
                instr ? "instr" : "plain", m, k, n, worst, bad ? "FAIL" : "ok");
        failures += bad != 0;
        cudaFree (l.workspace);
      }
  cudaFree (a), cudaFree (b), cudaFree (c), cudaFree (ref), cudaFree (mag), cudaFree (rec);
}

static double
median (std::vector<double> v)
{
  std::sort (v.begin (), v.end ());
  return v[v.size () / 2];
}

static int
lab_main (int argc, char **argv, const Variant *variants, int nv)
{
  // "small": only the first five (small) shapes, for compute-sanitizer.
  const bool small = argc > 1 && strcmp (argv[1], "small") == 0;
  const int repeats = argc > 1 && !small ? atoi (argv[1]) : 10, rounds = argc > 2 ? atoi (argv[2]) : 3;
  cudaStream_t st;
  CK (cudaStreamCreate (&st));
  cudaDeviceProp prop;
  CK (cudaGetDeviceProperties (&prop, 0));
  printf ("device %s, %d SMs, L2 %d MB\n", prop.name, prop.multiProcessorCount, prop.l2CacheSize >> 20);

  const int shapes[][3] = { { 1, 1, 1 },       { 7, 13, 5 },         { 131, 67, 257 },
                            { 128, 32, 256 },  { 257, 4, 260 },      { 384, 520, 264 },
                            { 1000, 500, 1000 }, { 4097, 4093, 4095 }, { 4000, 3000, 5000 } };
  for (int i = 0; i < (argc > 1 && strcmp (argv[1], "ncu") == 0 ? 0 : small ? 5 : (int) (sizeof shapes / sizeof shapes[0])); i++)
    check_shape (variants, nv, shapes[i][0], shapes[i][1], shapes[i][2], st, prop.multiProcessorCount);
  if (small)
    {
      printf ("%s: %d failed checks\n", failures ? "FAIL" : "PASS", failures);
      return failures ? 1 : 0;
    }

  cublasHandle_t h;
  cublasCreate (&h);
  cublasSetStream (h, st);
  cublasSetMathMode (h, CUBLAS_PEDANTIC_MATH);
  void *flush;
  const size_t flush_bytes = 2 * (size_t) prop.l2CacheSize;
  CK (cudaMalloc (&flush, flush_bytes));
  cudaEvent_t e0, e1;
  cudaEventCreate (&e0);
  cudaEventCreate (&e1);

  // "ncu": one launch of each variant and of cuBLAS at 4096³, for the profiler.
  const bool ncu = argc > 1 && strcmp (argv[1], "ncu") == 0;
  const int sizes[][3] = { { 4096, 4096, 4096 }, { 8192, 8192, 8192 }, { 4000, 3000, 5000 } };
  for (auto &sz : sizes)
    {
      const int m = sz[0], k = sz[1], n = sz[2];
      std::vector<float> ha ((size_t) m * k), hb ((size_t) k * n);
      fill_random (ha, 1);
      fill_random (hb, 2);
      float *a, *b, *c;
      CK (cudaMalloc (&a, ha.size () * 4));
      CK (cudaMalloc (&b, hb.size () * 4));
      CK (cudaMalloc (&c, (size_t) m * n * 4));
      CK (cudaMemcpy (a, ha.data (), ha.size () * 4, cudaMemcpyHostToDevice));
      CK (cudaMemcpy (b, hb.data (), hb.size () * 4, cudaMemcpyHostToDevice));
      TlGemmLaunch l = {};
      l.dtype = TL_GPU_FLOAT32;
      l.m = m, l.n = n, l.k = k, l.a = a, l.b = b, l.c = c, l.stream = st, l.cc = 90;
      l.sm_count = prop.multiProcessorCount;
      for (int v = 0; v < nv; v++)
        if (variants[v].workspace != nullptr && variants[v].workspace (&l) > l.workspace_bytes)
          {
            cudaFree (l.workspace);
            lab_workspace (&l, variants[v]);
          }
      const float one = 1, zero = 0;
      // entry nv: cuBLAS
      auto run = [&] (int which) {
        if (which == nv)
          {
            cublasStatus_t s = cublasGemmEx (h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, CUDA_R_32F, n, a,
                                             CUDA_R_32F, k, &zero, c, CUDA_R_32F, n,
                                             CUBLAS_COMPUTE_32F_PEDANTIC, CUBLAS_GEMM_DEFAULT);
            if (s != CUBLAS_STATUS_SUCCESS)
              exit (3);
          }
        else if (variants[which].launch (&l) != cudaSuccess)
          {
            printf ("%s: launch failed at %d x %d x %d\n", variants[which].name, m, k, n);
            exit (4);
          }
      };
      for (int v = 0; v < nv; v++)
        CK (variants[v].prepare (&l));
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
      printf ("\n%d x %d x %d (m x k x n): cublas-fp32-pedantic %.3f ms (rounds:", m, k, n, cub);
      for (double x : per[nv])
        printf (" %.3f", x);
      printf (")\n");
      for (int v = 0; v < nv; v++)
        {
          const double t = median (per[v]);
          printf ("  %-14s %.3f ms  %6.1f%% of cuBLAS  %.1f TFLOP/s  (rounds:", variants[v].name, t,
                  100.0 * cub / t, 2.0 * m * n * (double) k / t / 1e9);
          for (double x : per[v])
            printf (" %.3f", x);
          printf (")\n");
        }
      cudaFree (a), cudaFree (b), cudaFree (c), cudaFree (l.workspace);
    }
  printf ("\n%s: %d failed checks\n", failures ? "FAIL" : "PASS", failures);
  return failures ? 1 : 0;
}
