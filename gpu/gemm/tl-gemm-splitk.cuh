// tl-gemm-splitk.cuh — split-k, summed inside a thread-block cluster.
// CUDA C++ (sm_90), internal to gpu/gemm/; used by the planned rungs 13,
// 14, 15 and 17.
//
// Why split k.  A C tile is one CTA's work, and a small product has few
// tiles: 512×512 in 128×256 tiles is 8 CTAs for 132 SMs.  Smaller tiles
// help until each CTA reuses its operands too little; then the other
// dimension of the work, k, is cut into `splits` slices.  Each slice is a
// CTA that multiplies its part of k into a partial C tile, and the partial
// tiles are summed.
//
// How they are summed.  The slices of one tile run as one cluster (up to
// 8 CTAs on neighbouring SMs, started together), so each can read the
// others' shared memory (distributed shared memory, DSMEM):
//   1. every CTA writes its partial tile into its own shared memory (the
//      stage buffers, whose last copies have been consumed);
//   2. cluster barrier: every partial is written and visible;
//   3. CTA r of the cluster sums rows ⌊r·tile_m/splits⌋ … ⌊(r+1)·tile_m/
//      splits⌋ − 1 of all the partial tiles (any count of slices: with 3,
//      a 64-row tile's rows go 21, 21, 22), reading them from slice 0, 1,
//      2, … in that order, and stores those rows of C;
//   4. cluster barrier: nobody leaves (and frees its shared memory) while
//      another CTA still reads it.
// The order of the sum is fixed, so the result is the same bit for bit on
// every run (an atomicAdd into C would depend on which slice came first),
// nothing goes through global memory but the final C, and there is no
// second kernel.  The cost is the exchange: each CTA reads one tile of
// partial sums across the cluster, plus two barriers — what the planner's
// SPLIT term (gpu/tl-gpu-plan.c) charges for it.
#pragma once

#include <cooperative_groups.h>

// Every thread of every CTA of the cluster calls it (a cluster barrier).
__device__ __forceinline__ void
tl_splitk_cluster_sync ()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  cooperative_groups::this_cluster ().sync ();
#endif
}

// This CTA's rank in its cluster (its slice of k).
__device__ __forceinline__ int
tl_splitk_rank ()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  return (int) cooperative_groups::this_cluster ().block_rank ();
#else
  return 0;
#endif
}

// The k-tiles [*kt0, *kt1) of slice `split` of `splits`, out of KT.
__host__ __device__ __forceinline__ void
tl_splitk_range (int KT, int split, int splits, int *kt0, int *kt1)
{
  *kt0 = (int) ((long) KT * split / splits);
  *kt1 = (int) ((long) KT * (split + 1) / splits);
}

// The most slices a tile is cut into: a cluster holds at most 8 CTAs
// (the portable limit), and one cluster sums one tile.
#define TL_SPLITK_MAX 8

// One 16-byte vector of a partial tile (in this CTA's or another's shared
// memory) into W registers.
template <typename T>
__device__ __forceinline__ void
tl_splitk_load (const T *src, T (&v)[16 / sizeof (T)])
{
  if constexpr (sizeof (T) == 4)
    {
      const float4 q = *reinterpret_cast<const float4 *> (src);
      v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w;
    }
  else
    {
      const double2 q = *reinterpret_cast<const double2 *> (src);
      v[0] = q.x, v[1] = q.y;
    }
}

// Step 3: threads t = 0 … nthreads−1 of CTA `rank` sum their rows of the
// partial tiles (T = float or double; `part` the same shared-memory offset
// in every CTA: tile_m × tile_n, row pitch `pitch` elements, a multiple of
// 16 bytes) and store them into C (m × n, row-major) at (row0, col0).
// vec: C's rows start on 16-byte boundaries (n a multiple of 16 / sizeof T,
// C aligned): whole vectors are stored at once.
//
// kAllInFlight: every slice's vector is requested before the first is
// added.  A read of another SM's shared memory takes hundreds of cycles,
// and issued one after another the slices' latencies add up; but the
// requests hold 8 vectors of registers at once, which a kernel that keeps
// a large accumulator tile live (rungs 13, 14 and 17 at their register
// cap) pays for with spills in its main loop.  So only a rung with
// registers to spare (rung 15) asks for it; the others read one slice at
// a time.  The sum's order, and so its bits, is the same either way.
template <typename T, bool kAllInFlight = false>
__device__ __forceinline__ void
tl_splitk_sum (const T *part, int pitch, int tile_m, int tile_n, int splits, int rank, T *C,
               int m, int n, int row0, int col0, bool vec, int t, int nthreads)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  constexpr int W = 16 / sizeof (T);   // elements per 16-byte vector
  cooperative_groups::cluster_group cluster = cooperative_groups::this_cluster ();
  const int first = tile_m * rank / splits, rows = tile_m * (rank + 1) / splits - first;
  const int groups = tile_n / W;
  for (int e = t; e < rows * groups; e += nthreads)
    {
      const int r = first + e / groups, c = (e % groups) * W;
      T sum[W];
      if constexpr (kAllInFlight)
        {
          T v[TL_SPLITK_MAX][W];
#pragma unroll
          for (int s = 0; s < TL_SPLITK_MAX; s++)
            if (s < splits)
              tl_splitk_load (cluster.map_shared_rank (part, s) + (size_t) r * pitch + c, v[s]);
#pragma unroll
          for (int j = 0; j < W; j++)
            sum[j] = v[0][j];
#pragma unroll
          for (int s = 1; s < TL_SPLITK_MAX; s++)
            if (s < splits)
#pragma unroll
              for (int j = 0; j < W; j++)
                sum[j] += v[s][j];
        }
      else
        for (int s = 0; s < splits; s++)
          {
            T v[W];
            tl_splitk_load (cluster.map_shared_rank (part, s) + (size_t) r * pitch + c, v);
#pragma unroll
            for (int j = 0; j < W; j++)
              sum[j] = s == 0 ? v[j] : sum[j] + v[j];
          }
      const int gr = row0 + r, gc = col0 + c;
      if (gr >= m)
        continue;
      T *dst = C + (size_t) gr * n + gc;
      if (vec && gc + W <= n)
        {
          if constexpr (W == 4)
            *reinterpret_cast<float4 *> (dst) = make_float4 (sum[0], sum[1], sum[2], sum[3]);
          else
            *reinterpret_cast<double2 *> (dst) = make_double2 (sum[0], sum[1]);
        }
      else
#pragma unroll
        for (int j = 0; j < W; j++)
          if (gc + j < n)
            dst[j] = sum[j];
    }
#endif
}

// ---- the steps in a warp-specialised kernel (rungs 13, 14, 17) -------------
//
// There, warpgroup 0 (threads 0 … 127) produces and the 256 threads after
// it consume; named barrier 1 is the consumers' own.

// The producers take no part in the sum, only in its two cluster barriers
// (steps 2 and 4), which every thread of the cluster must reach.  Their
// warp reconverges first: the copies were issued by one lane, and the
// cluster barrier is a warp-wide instruction.
__device__ __forceinline__ void
tl_splitk_producers_sync (int splits)
{
  __syncwarp ();
  if (splits > 1)
    {
      tl_splitk_cluster_sync ();
      tl_splitk_cluster_sync ();
    }
}

// A slice with no k-steps (more slices than k-steps) multiplied nothing:
// its partial tile is zero, whatever the accumulators held before.
template <int N>
__device__ __forceinline__ void
tl_splitk_zero_if_empty (float (&acc)[N], bool empty)
{
  if (empty)
#pragma unroll
    for (int i = 0; i < N; i++)
      acc[i] = 0.0f;
}

// Steps 1 and 2 for the consumers of a tile: once all of them are past
// their last read of the stages, store_part () writes this CTA's partial
// tile into the stages, and the cluster barrier publishes every CTA's.
// Step 3 follows: tl_splitk_sum (…, threadIdx.x − 128, CONSUMER_THREADS).
// CONSUMER_THREADS: 256 (two consumer warpgroups), or 128 for the one
// warpgroup of the small tiles of rungs 13 and 14.
template <int CONSUMER_THREADS = 256, typename StorePart>
__device__ __forceinline__ void
tl_splitk_consumers_publish (StorePart store_part)
{
  asm volatile ("bar.sync 1, %0;\n" ::"n"(CONSUMER_THREADS) : "memory");
  store_part ();
  tl_splitk_cluster_sync ();
}

// Step 4, for every thread that summed: nobody leaves (and frees its
// shared memory) while another CTA of the cluster still reads it.
__device__ __forceinline__ void
tl_splitk_leave (int splits)
{
  if (splits > 1)
    tl_splitk_cluster_sync ();
}

// A launch of grid × block CTAs in clusters of `cluster` CTAs along
// `dim` (0: x, 2: z); cluster 1 launches plainly.
template <typename... KArgs, typename... Args>
static inline cudaError_t
tl_launch_clustered (void (*kernel) (KArgs...), dim3 grid, dim3 block, int smem, cudaStream_t stream,
                     int cluster, int dim, Args... args)
{
  cudaLaunchConfig_t cfg = {};
  cudaLaunchAttribute attr[1];
  cfg.gridDim = grid;
  cfg.blockDim = block;
  cfg.dynamicSmemBytes = (size_t) smem;
  cfg.stream = stream;
  if (cluster > 1)
    {
      attr[0].id = cudaLaunchAttributeClusterDimension;
      attr[0].val.clusterDim.x = dim == 0 ? cluster : 1;
      attr[0].val.clusterDim.y = 1;
      attr[0].val.clusterDim.z = dim == 2 ? cluster : 1;
      cfg.attrs = attr;
      cfg.numAttrs = 1;
    }
  return cudaLaunchKernelEx (&cfg, kernel, args...);
}
