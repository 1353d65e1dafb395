// lab8.cu — scratch timing of rung-8 variants against cuBLAS pedantic SGEMM
// (how the rung-8 versions in its header were measured: "lab BK8" is the
// textbook loop, "rung 8" the kernel of gpu/gemm/gemm-08-vectorized.cu).
// Not part of the build; compiled by hand for a device run:
//   nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -I../../gpu -I../../gpu/gemm \
//        lab8.cu -lcublas -o lab8
#include <cublas_v2.h>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include "gemm-08-vectorized.cu"
static void *flushbuf; static bool do_flush;

// V: 0 = rung 8 as is (BK 8); 1 = BK 16; 2 = BK 8 + register prefetch; 3 = BK 16 + prefetch
template <int BK, bool PREFETCH>
__global__ void __launch_bounds__ (256, 2)
k8 (int m, int n, int k, const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c)
{
  constexpr int BM = 128, BN = 128, TM = 8, TN = 8, PAD = 4;
  constexpr int AV = BM * BK / 4 / 256, BV = BK * BN / 4 / 256; // float4 per thread
  __shared__ __align__ (16) float As[BK][BM + PAD];
  __shared__ __align__ (16) float Bs[BK][BN];
  const int tid = threadIdx.x, tr = tid / 16, tc = tid % 16;
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
  float4 ra[AV], rb[BV];
  auto gload = [&] (int kk) {
#pragma unroll
    for (int v = 0; v < AV; v++)
      {
        int e = tid + v * 256, ar = e / (BK / 4), aq = (e % (BK / 4)) * 4;
        ra[v] = *reinterpret_cast<const float4 *> (&a[(row0 + ar) * k + kk + aq]);
      }
#pragma unroll
    for (int v = 0; v < BV; v++)
      {
        int e = tid + v * 256, br = e / (BN / 4), bq = (e % (BN / 4)) * 4;
        rb[v] = *reinterpret_cast<const float4 *> (&b[(kk + br) * n + col0 + bq]);
      }
  };
  auto sstore = [&] () {
#pragma unroll
    for (int v = 0; v < AV; v++)
      {
        int e = tid + v * 256, ar = e / (BK / 4), aq = (e % (BK / 4)) * 4;
        As[aq + 0][ar] = ra[v].x; As[aq + 1][ar] = ra[v].y; As[aq + 2][ar] = ra[v].z; As[aq + 3][ar] = ra[v].w;
      }
#pragma unroll
    for (int v = 0; v < BV; v++)
      {
        int e = tid + v * 256, br = e / (BN / 4), bq = (e % (BN / 4)) * 4;
        *reinterpret_cast<float4 *> (&Bs[br][bq]) = rb[v];
      }
  };
  gload (0);
  for (int kk = 0; kk < k; kk += BK)
    {
      sstore ();
      __syncthreads ();
      if (PREFETCH && kk + BK < k)
        gload (kk + BK);
#pragma unroll
      for (int p = 0; p < BK; p++)
        {
          const float4 a0 = *reinterpret_cast<const float4 *> (&As[p][4 * tr]);
          const float4 a1 = *reinterpret_cast<const float4 *> (&As[p][64 + 4 * tr]);
          const float4 b0 = *reinterpret_cast<const float4 *> (&Bs[p][4 * tc]);
          const float4 b1 = *reinterpret_cast<const float4 *> (&Bs[p][64 + 4 * tc]);
          const float xa[8] = { a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w };
          const float xb[8] = { b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w };
#pragma unroll
          for (int i = 0; i < TM; i++)
#pragma unroll
            for (int j = 0; j < TN; j++)
              acc[i][j] += xa[i] * xb[j];
        }
      __syncthreads ();
      if (!PREFETCH && kk + BK < k)
        gload (kk + BK);
    }
#pragma unroll
  for (int i = 0; i < TM; i++)
    {
      const int r = row0 + (i < 4 ? 4 * tr + i : 64 + 4 * tr + i - 4);
#pragma unroll
      for (int h = 0; h < 2; h++)
        *reinterpret_cast<float4 *> (&c[r * n + col0 + h * 64 + 4 * tc])
          = make_float4 (acc[i][4 * h], acc[i][4 * h + 1], acc[i][4 * h + 2], acc[i][4 * h + 3]);
    }
}

__global__ void __launch_bounds__ (256, 2)
fastonly (int m, int n, int k, const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c)
{
  gemm_08_block<128, 128, 8, false> (m, n, k, a, b, c);
}

float run_fast (int N, float *a, float *b, float *c)
{
  dim3 g (N / 128, N / 128);
  cudaEvent_t e0, e1; cudaEventCreate (&e0); cudaEventCreate (&e1);
  for (int i = 0; i < 2; i++) fastonly<<<g, 256>>> (N, N, N, a, b, c);
  std::vector<float> t;
  for (int i = 0; i < 7; i++)
    {
      cudaEventRecord (e0); fastonly<<<g, 256>>> (N, N, N, a, b, c); cudaEventRecord (e1);
      cudaEventSynchronize (e1); float ms; cudaEventElapsedTime (&ms, e0, e1); t.push_back (ms);
    }
  std::sort (t.begin (), t.end ());
  return t[3];
}

float run_rung (int N, float *a, float *b, float *c)
{
  dim3 g (N / 128, N / 128);
  cudaEvent_t e0, e1; cudaEventCreate (&e0); cudaEventCreate (&e1);
  for (int i = 0; i < 2; i++) gemm_08_vectorized_kernel<128, 128, 8, false><<<g, 256>>> (N, N, N, a, b, c, 1, nullptr);
  std::vector<float> t;
  for (int i = 0; i < 7; i++)
    {
      if (do_flush) cudaMemset (flushbuf, i, 120u << 20);
      cudaEventRecord (e0); gemm_08_vectorized_kernel<128, 128, 8, false><<<g, 256>>> (N, N, N, a, b, c, 1, nullptr); cudaEventRecord (e1);
      cudaEventSynchronize (e1); float ms; cudaEventElapsedTime (&ms, e0, e1); t.push_back (ms);
    }
  std::sort (t.begin (), t.end ());
  return t[3];
}

template <int BK, bool P>
float run (int N, float *a, float *b, float *c)
{
  dim3 g (N / 128, N / 128);
  cudaEvent_t e0, e1; cudaEventCreate (&e0); cudaEventCreate (&e1);
  for (int i = 0; i < 2; i++) k8<BK, P><<<g, 256>>> (N, N, N, a, b, c);
  std::vector<float> t;
  for (int i = 0; i < 7; i++)
    {
      if (do_flush) cudaMemset (flushbuf, i, 120u << 20);
      cudaEventRecord (e0); k8<BK, P><<<g, 256>>> (N, N, N, a, b, c); cudaEventRecord (e1);
      cudaEventSynchronize (e1); float ms; cudaEventElapsedTime (&ms, e0, e1); t.push_back (ms);
    }
  std::sort (t.begin (), t.end ());
  if (cudaGetLastError () != cudaSuccess) printf ("error\n");
  return t[3];
}

int main ()
{
  cublasHandle_t h; cublasCreate (&h); cublasSetMathMode (h, CUBLAS_PEDANTIC_MATH);
  for (int N : { 4096, 8192 })
    {
      size_t bytes = (size_t) N * N * 4;
      float *a, *b, *c, *r; cudaMalloc (&a, bytes); cudaMalloc (&b, bytes); cudaMalloc (&c, bytes); cudaMalloc (&r, bytes);
      std::vector<float> h0 ((size_t) N * N);
      for (auto &x : h0) x = rand () / (float) RAND_MAX - 0.5f;
      cudaMemcpy (a, h0.data (), bytes, cudaMemcpyHostToDevice);
      for (auto &x : h0) x = rand () / (float) RAND_MAX - 0.5f;
      cudaMemcpy (b, h0.data (), bytes, cudaMemcpyHostToDevice);
      float one = 1, zero = 0;
      cudaEvent_t e0, e1; cudaEventCreate (&e0); cudaEventCreate (&e1);
      std::vector<float> t;
      for (int i = 0; i < 9; i++)
        {
          cudaEventRecord (e0);
          cublasGemmEx (h, CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, &one, b, CUDA_R_32F, N, a, CUDA_R_32F, N, &zero, r, CUDA_R_32F, N, CUBLAS_COMPUTE_32F_PEDANTIC, CUBLAS_GEMM_DEFAULT);
          cudaEventRecord (e1); cudaEventSynchronize (e1); float ms; cudaEventElapsedTime (&ms, e0, e1); if (i >= 2) t.push_back (ms);
        }
      std::sort (t.begin (), t.end ());
      float ref = t[3];
      double fl = 2.0 * N * (double) N * N;
      printf ("N=%d cublas %.3f ms %.0f GFLOP/s\n", N, ref, fl / ref / 1e6);
      cudaMalloc (&flushbuf, 120u << 20);
      do_flush = false;
      float v[4] = { run<8, false> (N, a, b, c), run_rung (N, a, b, c), 0, 0 };
      do_flush = true;
      v[2] = run_fast (N, a, b, c); v[3] = run_rung (N, a, b, c);
      const char *names[4] = { "lab BK8", "rung 8", "rung8 fast only", "rung 8 flush" };
      std::vector<float> hc ((size_t) N * N), hr ((size_t) N * N);
      for (int i = 0; i < 4; i++)
        printf ("  %-14s %.3f ms %.0f GFLOP/s %.1f%%\n", names[i], v[i], fl / v[i] / 1e6, 100 * ref / v[i]);
      cudaMemcpy (hr.data (), r, bytes, cudaMemcpyDeviceToHost);
      run_rung (N, a, b, c);
      cudaMemcpy (hc.data (), c, bytes, cudaMemcpyDeviceToHost);
      double md = 0; for (size_t i = 0; i < hc.size (); i++) md = std::max (md, (double) fabsf (hc[i] - hr[i]));
      printf ("  max |diff| rung 8 vs cublas %.3g\n", md);
      cudaFree (a); cudaFree (b); cudaFree (c); cudaFree (r);
    }
}
