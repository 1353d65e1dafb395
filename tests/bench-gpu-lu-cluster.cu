// bench-gpu-lu-cluster.cu — rung 5's cluster panel kernel alone
// (gpu/lu/lu-05-cluster-panel.cuh).  Not a test: a benchmark run by hand on
// a GPU (its numbers: docs/perf/lu-h100-2026-11-24.md), built with the GPU tests when CUDA is on.  It
//
//   1. asks how many clusters of 1 … 16 CTAs the GPU can hold at once;
//   2. times the cluster barrier alone, and the barrier plus the DSMEM
//      fetch of every CTA's post (the fixed cost of one column);
//   3. factors random h × w panels (values in [−1, 1), a fresh seed per
//      panel, the output area poisoned with NaN beyond the panel) at odd h
//      with every kernel instance and cluster size, checks each against
//      float64 arithmetic on the CPU — ‖PA − LU‖max / (‖A‖max·w·ε) < 30,
//      every |l| ≤ 1, ipiv[j] in [j, h) — and times it (median of 20
//      launches, each from a fresh copy of the panel, CUDA events).
//
//   bench-gpu-lu-cluster [reps]   prints one table; exits 1 when a check
//                                 fails, 77 without a Hopper GPU
#include "lu/lu-05-cluster-panel.cuh"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "cuda-check.h"

// The median of `reps` event-timed launches after one untimed, setup()
// before each (outside the events).
template <typename Setup, typename Launch>
static float
median_ms (int reps, Setup setup, Launch launch)
{
  cudaEvent_t e0, e1;
  CK (cudaEventCreate (&e0));
  CK (cudaEventCreate (&e1));
  std::vector<float> ms;
  for (int rep = 0; rep <= reps; rep++)
    {
      setup ();
      CK (cudaEventRecord (e0));
      CK (launch ());
      CK (cudaEventRecord (e1));
      CK (cudaEventSynchronize (e1));
      float t;
      CK (cudaEventElapsedTime (&t, e0, e1));
      if (rep > 0)
        ms.push_back (t);
    }
  std::sort (ms.begin (), ms.end ());
  cudaEventDestroy (e0);
  cudaEventDestroy (e1);
  return ms[ms.size () / 2];
}

// ---- the fixed cost of a column: barrier, and barrier + fetch -----------------------

// MODE 0: barrier.cluster.arrive.release in every thread (lean = 0);
// 1: relaxed and aligned, no fence (a lower bound: it orders nothing);
// 2: relaxed and aligned, thread 0 fences first (lean = 1).
template <int MODE, bool FETCH>
__global__ void __launch_bounds__ (LU05_THREADS, 1)
barrier_kernel (int rounds, float *sink)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  namespace cg = cooperative_groups;
  const int W = 32;
  __shared__ float post[2][W], got[2][LU05_MAX_CLUSTER][W];
  cg::cluster_group cluster = cg::this_cluster ();
  const int C = (int) cluster.num_blocks (), warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  if (threadIdx.x < W)
    post[0][threadIdx.x] = post[1][threadIdx.x] = (float) threadIdx.x;
  float acc = 0;
  const bool lean = MODE != 0;
  if (MODE == 1)
    asm volatile ("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
  else
    lu05_arrive (lean, threadIdx.x == 0);
  for (int k = 0; k < rounds; k++)
    {
      const int par = k & 1;
      lu05_wait (lean);
      if (FETCH)
        {
          if (warp < C && lane < W)
            got[par][warp][lane] = cluster.map_shared_rank (&post[0][0], (unsigned) warp)[par * W + lane];
          __syncthreads ();
          acc += got[par][lane % C][lane % W];
          if (threadIdx.x < W)
            post[par ^ 1][threadIdx.x] = acc;
        }
      if (MODE == 1)
        asm volatile ("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
      else
        lu05_arrive (lean, threadIdx.x < 32);
    }
  lu05_wait (lean);
  if (acc == 12345.f)
    *sink = acc;
#endif
}

template <int MODE, bool FETCH>
static double
time_barrier (int cluster, int rounds)
{
  cudaLaunchConfig_t cfg;
  cudaLaunchAttribute attr;
  lu05_config<float, 32, 1> (&cfg, &attr, cluster, 0);
  cfg.dynamicSmemBytes = 0;
  CK (cudaFuncSetAttribute (barrier_kernel<MODE, FETCH>, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  float *sink;
  CK (cudaMalloc (&sink, 4));
  const float ms = median_ms (5, [] {}, [&] { return cudaLaunchKernelEx (&cfg, barrier_kernel<MODE, FETCH>, rounds, sink); });
  cudaFree (sink);
  return ms * 1e6 / rounds; // ns per round
}

// ---- the panel: check and time --------------------------------------------------

template <typename T>
static double
check_panel (const std::vector<T> &a0, const std::vector<T> &lu, const std::vector<int> &ipiv, int h, int w,
             int lda, double *lmax)
{
  std::vector<double> pa (a0.begin (), a0.end ());
  for (int j = 0; j < w; j++)
    {
      if (ipiv[j] < j || ipiv[j] >= h)
        return INFINITY;
      for (int col = 0; col < w; col++)
        std::swap (pa[(size_t) j * lda + col], pa[(size_t) ipiv[j] * lda + col]);
    }
  double rmax = 0, amax = 0;
  *lmax = 0;
  for (int i = 0; i < h; i++)
    for (int col = 0; col < lda; col++)
      {
        const size_t at = (size_t) i * lda + col;
        if (col >= w)
          {
            if (!std::isnan ((double) lu[at])) // beyond the panel: untouched (poison)
              return INFINITY;
            continue;
          }
        double s = 0; // (L·U)(i, col)
        for (int k = 0; k <= std::min (i, col); k++)
          {
            const double l = k == i ? 1.0 : (double) lu[(size_t) i * lda + k];
            s += l * (double) lu[(size_t) k * lda + col];
          }
        if (col < i)
          *lmax = std::max (*lmax, std::fabs ((double) lu[at]));
        rmax = std::max (rmax, std::fabs (pa[at] - s));
        amax = std::max (amax, std::fabs (pa[at]));
      }
  const double eps = sizeof (T) == 4 ? FLT_EPSILON : DBL_EPSILON;
  return rmax / (amax * w * eps);
}

template <typename T, int W, int RPT>
static bool
run_panel (int h, int max_cluster, int lean, int reps, unsigned seed)
{
  const int w = h < W ? h : W, lda = W + 3; // odd leading dimension, poison beyond the panel
  int rpt = 0;
  const int cluster = lu05_cluster_for (h, max_cluster, &rpt);
  if (cluster == 0 || rpt != RPT)
    return true; // not this instance's shape
  std::vector<T> a0 ((size_t) h * lda, (T) NAN);
  std::mt19937 gen (seed);
  std::uniform_real_distribution<double> dist (-1.0, 1.0);
  for (int i = 0; i < h; i++)
    for (int col = 0; col < w; col++)
      a0[(size_t) i * lda + col] = (T) dist (gen);
  T *a, *orig;
  int *ipiv;
  CK (cudaMalloc (&a, a0.size () * sizeof (T)));
  CK (cudaMalloc (&orig, a0.size () * sizeof (T)));
  CK (cudaMalloc (&ipiv, w * sizeof (int)));
  CK (cudaMemcpy (orig, a0.data (), a0.size () * sizeof (T), cudaMemcpyHostToDevice));
  Lu05Args<T> p;
  p.a = a;
  p.m = h;
  p.lda = lda;
  p.c0 = 0;
  p.w = w;
  p.j0 = 0;
  p.j1 = w;
  p.ipiv = ipiv;
  p.lean = lean;
  const float ms = median_ms (
    reps,
    [&] {
      CK (cudaMemcpy (a, orig, a0.size () * sizeof (T), cudaMemcpyDeviceToDevice));
      CK (cudaMemset (ipiv, 0xff, w * sizeof (int)));
    },
    [&] { return lu05_launch<T, W, RPT> (p, cluster, 0); });
  std::vector<T> lu (a0.size ());
  std::vector<int> piv (w);
  CK (cudaMemcpy (lu.data (), a, lu.size () * sizeof (T), cudaMemcpyDeviceToHost));
  CK (cudaMemcpy (piv.data (), ipiv, w * sizeof (int), cudaMemcpyDeviceToHost));
  double lmax = 0;
  const double ratio = check_panel (a0, lu, piv, h, w, lda, &lmax);
  const bool ok = ratio < 30 && lmax <= 1.0;
  const double med = ms * 1e3;
  printf ("panel %-7s W=%-2d rpt=%d h=%-6d C=%-2d %-7s %8.1f us %6.2f us/column  ratio %-8.3g |l|max %.3f %s\n",
          sizeof (T) == 4 ? "float32" : "float64", W, RPT, h, cluster, lean ? "lean" : "release", med, med / w,
          ratio, lmax, ok ? "ok" : "FAIL");
  cudaFree (a);
  cudaFree (orig);
  cudaFree (ipiv);
  return ok;
}

template <typename T, int W, int RPT>
static bool
sweep (int reps, unsigned *seed)
{
  const int hs[] = { 1, 33, 517, 4096, 8191, 12000, 16384 };
  bool ok = true;
  if (lu05_prepare<T, W, RPT> () != cudaSuccess)
    return false;
  for (int lean = 0; lean <= 1; lean++)
    for (int h : hs)
      ok &= run_panel<T, W, RPT> (h, 16, lean, reps, (*seed)++);
  return ok;
}

int
main (int argc, char **argv)
{
  const int reps = argc > 1 ? atoi (argv[1]) : 20;
  cudaDeviceProp prop;
  CK (cudaGetDeviceProperties (&prop, 0));
  printf ("device %s, %d SMs, cc %d.%d\n", prop.name, prop.multiProcessorCount, prop.major, prop.minor);
  if (prop.major < 9)
    {
      printf ("needs clusters (cc 9.0)\n");
      return 77;
    }
  CK ((lu05_prepare<float, 32, 2> ()));
  for (int c = 1; c <= LU05_MAX_CLUSTER; c *= 2)
    printf ("clusters of %2d CTAs (float32, W=32, 2 rows/thread): at most %d at once\n", c,
            lu05_max_active<float, 32, 2> (c));
  for (int c = 2; c <= LU05_MAX_CLUSTER; c *= 2)
    printf ("cluster %2d, ns per round: barrier release %6.1f, relaxed (no fence) %6.1f, lean %6.1f;"
            " + fetch of %2d posts: release %6.1f, lean %6.1f\n",
            c, time_barrier<0, false> (c, 20000), time_barrier<1, false> (c, 20000), time_barrier<2, false> (c, 20000),
            c, time_barrier<0, true> (c, 20000), time_barrier<2, true> (c, 20000));
  unsigned seed = 2026;
  bool ok = true;
  ok &= sweep<float, 32, 1> (reps, &seed);
  ok &= sweep<float, 32, 2> (reps, &seed);
  ok &= sweep<double, 16, 1> (reps, &seed);
  ok &= sweep<double, 16, 2> (reps, &seed);
  ok &= sweep<double, 32, 1> (reps, &seed);
  printf ("bench-gpu-lu-cluster: %s\n", ok ? "all checks passed" : "CHECK FAILED");
  return ok ? 0 : 1;
}
