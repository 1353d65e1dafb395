// gemm-17-ab.cu — a lab, not a test: times several builds of rung 17's
// 128×256 kernel against each other (and cuBLAS FP32) in one process, at
// one size, with the same inputs, launch and clock.  Built by build.sh,
// which compiles each variant's cubin from a git revision; run on the
// device machine (run.sh).  Not part of the product.
//
//   gemm-17-ab MANIFEST [SIZE]        SIZE: m=n=k, a multiple of 256 (default 4096)
//
// MANIFEST lines: NAME CUBIN KERNEL LAYOUT, LAYOUT "old" (5b2d258's
// parameters: maps, a, b, c, m, n, k, tma, vec_c, records) or "plan" (the
// planned kernel's: maps, c, m, n, k, vec_c, group, splits, records).
// Prints one row per variant: the median of 40 event-timed launches (L2
// flushed before each, the variants interleaved in 8 rounds of 5), its
// spread, TFLOP/s, % of cuBLAS and of the first variant, and whether its C
// equals the first variant's bit for bit and a float64 spot check.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cublas_v2.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf (stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString (e_)); exit (1); } } while (0)
#define CU(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { const char *s_ = "?"; cuGetErrorString (r_, &s_); fprintf (stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, s_); exit (1); } } while (0)

struct Variant
{
  std::string name, cubin, kernel, layout;
  CUfunction fn;
  std::vector<float> times;
  std::vector<float> c;
};

static const int BM = 128, BN = 256, BK = 32, THREADS = 384;
static const int SMEM = 3 * (BM * BK * 4 + BK * BN * 4) + 128;   // Config<128, 256, 32, 3>::SMEM

static void
maps (const float *a, const float *b, int m, int n, int k, CUtensorMap *ma, CUtensorMap *mb)
{
  // As gpu/gemm/tl-gemm-simt-tma.cuh: A (m×k) as 4 × m × k/4, box 4 × BM × BK/4; B (k×n), box BN × BK.
  cuuint64_t da[3] = { 4, (cuuint64_t) m, (cuuint64_t) k / 4 }, sa[2] = { (cuuint64_t) k * 4, 16 };
  cuuint32_t ba[3] = { 4, BM, BK / 4 }, ea[3] = { 1, 1, 1 };
  CU (cuTensorMapEncodeTiled (ma, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, (void *) a, da, sa, ba, ea,
                              CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                              CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
  cuuint64_t db[2] = { (cuuint64_t) n, (cuuint64_t) k }, sb[1] = { (cuuint64_t) n * 4 };
  cuuint32_t bb[2] = { BN, BK }, eb[2] = { 1, 1 };
  CU (cuTensorMapEncodeTiled (mb, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, (void *) b, db, sb, bb, eb,
                              CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                              CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
}

int
main (int argc, char **argv)
{
  if (argc < 2)
    {
      fprintf (stderr, "usage: %s MANIFEST [SIZE]\n", argv[0]);
      return 2;
    }
  const int N = argc > 2 ? atoi (argv[2]) : 4096;
  if (N <= 0 || N % 256 != 0)
    {
      fprintf (stderr, "SIZE must be a positive multiple of 256\n");
      return 2;
    }
  std::vector<Variant> vs;
  FILE *f = fopen (argv[1], "r");
  if (!f)
    {
      perror (argv[1]);
      return 2;
    }
  char name[256], cubin[1024], kernel[1024], layout[32];
  while (fscanf (f, "%255s %1023s %1023s %31s", name, cubin, kernel, layout) == 4)
    vs.push_back ({ name, cubin, kernel, layout, nullptr, {}, {} });
  fclose (f);

  CK (cudaFree (0));
  cudaDeviceProp prop;
  CK (cudaGetDeviceProperties (&prop, 0));
  int driver = 0;
  CK (cudaDriverGetVersion (&driver));
  printf ("# %s, %d SMs, driver API %d; %d×%d×%d, rung 17's 128×256 kernel\n", prop.name,
          prop.multiProcessorCount, driver, N, N, N);
  for (Variant &v : vs)
    {
      CUmodule mod;
      CU (cuModuleLoad (&mod, v.cubin.c_str ()));
      CU (cuModuleGetFunction (&v.fn, mod, v.kernel.c_str ()));
      CU (cuFuncSetAttribute (v.fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, SMEM));
      int regs = 0, local = 0;
      CU (cuFuncGetAttribute (&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, v.fn));
      CU (cuFuncGetAttribute (&local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, v.fn));
      printf ("# %-12s %s: %d registers (launch bound), %d bytes local\n", v.name.c_str (), v.cubin.c_str (), regs, local);
    }

  const size_t elems = (size_t) N * N;
  std::vector<float> ha (elems), hb (elems);
  srand (17);
  for (size_t i = 0; i < elems; i++)
    {
      ha[i] = (float) rand () / RAND_MAX - 0.5f;
      hb[i] = (float) rand () / RAND_MAX - 0.5f;
    }
  float *a, *b, *c;
  char *flush;
  const size_t flush_bytes = 256u << 20;   // > the 60 MiB L2 of an H200
  CK (cudaMalloc (&a, elems * 4));
  CK (cudaMalloc (&b, elems * 4));
  CK (cudaMalloc (&c, elems * 4));
  CK (cudaMalloc (&flush, flush_bytes));
  CK (cudaMemcpy (a, ha.data (), elems * 4, cudaMemcpyHostToDevice));
  CK (cudaMemcpy (b, hb.data (), elems * 4, cudaMemcpyHostToDevice));
  CUtensorMap ma, mb;
  maps (a, b, N, N, N, &ma, &mb);
  int m = N, n = N, k = N, one = 1, tma = 1, group = 8;
  const float *ca = a, *cb = b;
  void *records = nullptr;
  cudaEvent_t e0, e1;
  CK (cudaEventCreate (&e0));
  CK (cudaEventCreate (&e1));

  auto launch = [&] (Variant &v) {
    void *old_args[] = { &ma, &mb, &ca, &cb, &c, &m, &n, &k, &tma, &one, &records };
    void *plan_args[] = { &ma, &mb, &c, &m, &n, &k, &one, &group, &one, &records };
    CU (cuLaunchKernel (v.fn, (N / BM) * (N / BN), 1, 1, THREADS, 1, 1, SMEM, 0,
                        v.layout == "old" ? old_args : plan_args, nullptr));
  };
  cublasHandle_t h;   // cuBLAS FP32 as the project's cublas-fp32 reference: pedantic
  if (cublasCreate (&h) != CUBLAS_STATUS_SUCCESS
      || cublasSetMathMode (h, CUBLAS_PEDANTIC_MATH) != CUBLAS_STATUS_SUCCESS)
    return 1;
  const float alpha = 1, beta = 0;
  auto cublas = [&] {   // row-major C = A·B as column-major Cᵀ = Bᵀ·Aᵀ
    cublasGemmEx (h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, b, CUDA_R_32F, n, a, CUDA_R_32F, k,
                  &beta, c, CUDA_R_32F, n, CUBLAS_COMPUTE_32F_PEDANTIC, CUBLAS_GEMM_DEFAULT);
  };
  std::vector<float> cublas_times;
  auto timed = [&] (auto &&fn, std::vector<float> &into) {
    CK (cudaMemsetAsync (flush, 0, flush_bytes));
    CK (cudaEventRecord (e0));
    fn ();
    CK (cudaEventRecord (e1));
    CK (cudaEventSynchronize (e1));
    float ms;
    CK (cudaEventElapsedTime (&ms, e0, e1));
    into.push_back (ms);
  };

  // results first: C poisoned, one launch each, downloaded
  for (Variant &v : vs)
    {
      CK (cudaMemset (c, 0xff, elems * 4));
      launch (v);
      CK (cudaDeviceSynchronize ());
      v.c.resize (elems);
      CK (cudaMemcpy (v.c.data (), c, elems * 4, cudaMemcpyDeviceToHost));
    }
  for (int w = 0; w < 3; w++)   // warm-ups
    {
      for (Variant &v : vs)
        launch (v);
      cublas ();
    }
  CK (cudaDeviceSynchronize ());
  for (int round = 0; round < 8; round++)
    {
      for (Variant &v : vs)
        for (int r = 0; r < 5; r++)
          timed ([&] { launch (v); }, v.times);
      for (int r = 0; r < 5; r++)
        timed (cublas, cublas_times);
    }

  auto median = [] (std::vector<float> t) {
    std::sort (t.begin (), t.end ());
    return t[t.size () / 2];
  };
  const double flop = 2.0 * N * N * (double) N, cub = median (cublas_times);
  const double first = median (vs[0].times);
  printf ("\n| variant | median ms | spread | TFLOP/s | %% of cuBLAS | %% of %s | C = %s's | float64 spot check |\n",
          vs[0].name.c_str (), vs[0].name.c_str ());
  printf ("|---|---:|---:|---:|---:|---:|---|---|\n");
  for (Variant &v : vs)
    {
      const double med = median (v.times);
      const double spread = (*std::max_element (v.times.begin (), v.times.end ())
                             - *std::min_element (v.times.begin (), v.times.end ())) / med;
      const bool same = memcmp (v.c.data (), vs[0].c.data (), elems * 4) == 0;
      double worst = 0;   // |ĉ − c| / (|A|·|B|)ᵢⱼ at 64 elements
      for (int s = 0; s < 64; s++)
        {
          const int i = (int) ((s * 2654435761u) % N), j = (int) ((s * 40503u + 7) % N);
          double ref = 0, mag = 0;
          for (int p = 0; p < N; p++)
            {
              ref += (double) ha[(size_t) i * N + p] * hb[(size_t) p * N + j];
              mag += fabs ((double) ha[(size_t) i * N + p] * hb[(size_t) p * N + j]);
            }
          worst = std::max (worst, fabs (v.c[(size_t) i * N + j] - ref) / mag);
        }
      printf ("| %s | %.3f | %.1f%% | %.1f | %.1f%% | %.1f%% | %s | worst %.1e %s |\n", v.name.c_str (), med,
              100 * spread, flop / med / 1e9, 100 * cub / med, 100 * first / med, same ? "yes" : "NO",
              worst, worst < 1e-5 ? "ok" : "FAIL");
    }
  printf ("| cublas-fp32 | %.3f | | %.1f | 100.0%% | | | |\n", cub, flop / cub / 1e9);
  return 0;
}
