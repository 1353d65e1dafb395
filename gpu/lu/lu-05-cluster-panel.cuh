// lu-05-cluster-panel.cuh — rung 5's panel kernel: a narrow panel factored by
// ONE thread-block cluster, its rows in registers, one hardware cluster
// barrier per column.  The rung around it is lu-05-cluster.cu; this header
// has no harness in it, so tests/bench-gpu-lu-cluster.cu times and checks
// the kernel alone.
//
// Shapes.  A is row-major with leading dimension lda.  The sub-panel is the
// columns [c0, c0+w), w ≤ W (W = 32 float32, 16 float64 by default), and
// its rows [c0, m): h = m − c0 rows.  The launch is ONE cluster of C CTAs
// (C ≤ 16) of LU05_THREADS threads; slot r of thread t in CTA b holds
// local row ℓ = (r·C + b)·LU05_THREADS + t in REGISTERS: x[r][0..W).  A
// thread has RPT ≤ 2 slots, so one launch holds h ≤ 2·16·512 = 16384 rows.
//
// One column j (c = c0 + j) costs one cluster barrier and one round trip
// through distributed shared memory (DSMEM):
//
//   wait ─► fetch the C candidates ─► every warp picks the pivot ─► scale
//   column j, update column j+1, pick this CTA's candidate for c+1 ─► the
//   thread holding it finishes its row and posts it ─► arrive ─┐
//   (everybody else arrived already and finishes the rank-1 update of its
//   rows while the barrier completes) ◄─────────────────────────┘
//
// * Candidates are posted, not searched for: each CTA writes its best row
//   for the next column (|value|, row, and all W values of the row) into
//   its own shared memory, double-buffered by the column's parity.  After
//   the barrier, warp q copies CTA q's post into local shared memory with
//   ld.shared::cluster (one remote round trip for all of them, pivot row
//   included: no second trip to fetch the winner's row).
// * Rows do not move.  A swap only exchanges LABELS: every slot knows the
//   global row it currently stands for; the pivot row's slot becomes row c,
//   the slot that stood for row c becomes row piv.  The values stay in the
//   registers where they are; the labels say where they are written back.
//   (lu-04 copied two rows through global mailboxes per column.)
// * The barrier is split: arrive after a thread's last write the others
//   need, wait before its first remote read.  Only the poster of each CTA
//   (lean: its warp) arrives late; all other threads arrive at once and do
//   their rank-1 update under the barrier.  The arrive's release fence is
//   the expensive part on sm_90 (lu05_arrive): the lean barrier has only
//   the poster fence.
//
// Pivoting is LAPACK's (getf2): the largest |a|, the first row on ties, the
// multipliers scaled by the reciprocal of the pivot when it is above the
// underflow threshold, no scaling for a zero pivot (info is read off U's
// diagonal by the harness).  The swaps outside the sub-panel's columns are
// the caller's (lu_swap_rows with ipiv[c0 … c0+w)).
#pragma once

#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <float.h>
#include <limits.h>

#define LU05_THREADS 512
#define LU05_WARPS (LU05_THREADS / 32)
#define LU05_MAX_CLUSTER 16 // non-portable: needs cudaFuncAttributeNonPortableClusterSizeAllowed
#define LU05_MAX_RPT 2      // rows per thread: the register file holds 2·W values per thread

template <typename T> struct Lu05Args
{
  T *a;        // row-major, leading dimension lda
  int m, lda;  // the sub-panel's rows are [c0, m)
  int c0, w;   // its columns [c0, c0 + w), w ≤ W
  int j0, j1;  // this launch eliminates columns c0+j0 … c0+j1−1 (recording: one)
  int *ipiv;   // 0-based, global rows
  int lean;    // 1: the lean barrier (lu05_arrive)
};

// Shared memory of one CTA.  cand*: this CTA's post for the next column,
// read by the whole cluster; rows/all_*: the cluster's posts, fetched;
// red_*: the CTA's own reduction.  [2]: the column's parity — a buffer is
// rewritten two columns later, after a barrier that every reader of its
// last contents has passed.
// A pivot candidate: |value| as the bits of a non-negative float or double
// (hi, lo — they order like the values), and its row.  No candidate (or a
// NaN, which LAPACK's i?amax never picks over a number) is {0, 0, INT_MAX}:
// it loses to every row, a zero included.
struct Lu05Cand
{
  unsigned hi, lo;
  int i;
};

template <typename T, int W> struct Lu05Smem
{
  __align__ (16) T cand[2][W];
  __align__ (16) T rows[2][LU05_MAX_CLUSTER][W];
  __align__ (16) T zero[W];
  Lu05Cand cand_key[2];
  Lu05Cand all[2][LU05_MAX_CLUSTER];
  Lu05Cand red[2][LU05_WARPS];
};

// The staging area for the coalesced load and store of the rows (dynamic
// shared memory): one row of W (+1 against bank conflicts) per thread, and
// the row each thread's slot stands for.
template <typename T, int W>
constexpr size_t
lu05_stage_bytes ()
{
  return (size_t) LU05_THREADS * (W + 1) * sizeof (T) + LU05_THREADS * sizeof (int);
}

// The split cluster barrier, two ways (docs/perf/ has the microbenchmark:
// the bare relaxed barrier is cheap, the fence is what costs):
//  * release: every thread arrives with release semantics, what
//    barrier.cluster.arrive means by default — on sm_90 that is a
//    MEMBAR.ALL.GPU in every thread before its arrive;
//  * lean: only a thread that wrote something the cluster will read fences
//    (fence.acq_rel.cluster: release, with its relaxed arrive), and warps
//    arrive relaxed and aligned.  Lean calls are warp-uniform: a whole warp
//    calls lu05_arrive together.  The remote reads need no fence: a warp's
//    fetched values are stored and a CTA barrier passed before it arrives,
//    so the loads have returned before an owner can rewrite the post.
// The wait always acquires (on sm_90: an L1 invalidation, CCTL.IVALL).
__device__ __forceinline__ void
lu05_arrive (bool lean, bool wrote)
{
  if (lean)
    {
      if (wrote)
        asm volatile ("fence.acq_rel.cluster;" ::: "memory");
      __syncwarp ();
      asm volatile ("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
    }
  else
    asm volatile ("barrier.cluster.arrive.release;" ::: "memory");
}

__device__ __forceinline__ void
lu05_wait (bool lean)
{
  if (lean)
    {
      __syncwarp ();
      asm volatile ("barrier.cluster.wait.acquire.aligned;" ::: "memory");
    }
  else
    asm volatile ("barrier.cluster.wait.acquire;" ::: "memory");
}

__device__ __forceinline__ Lu05Cand
lu05_none ()
{
  return Lu05Cand{ 0u, 0u, INT_MAX };
}

__device__ __forceinline__ Lu05Cand
lu05_cand (float v, int i)
{
  return v != v ? lu05_none () : Lu05Cand{ __float_as_uint (fabsf (v)), 0u, i };
}

__device__ __forceinline__ Lu05Cand
lu05_cand (double v, int i)
{
  const unsigned long long b = (unsigned long long) __double_as_longlong (fabs (v));
  return v != v ? lu05_none () : Lu05Cand{ (unsigned) (b >> 32), (unsigned) b, i };
}

// Larger |a| wins; equal |a|: the lower row (LAPACK's i?amax).
__device__ __forceinline__ void
lu05_better (Lu05Cand &best, const Lu05Cand &c)
{
  if (c.hi > best.hi || (c.hi == best.hi && (c.lo > best.lo || (c.lo == best.lo && c.i < best.i))))
    best = c;
}

// The warp's best, in every lane: the largest hi (one redux.sync), among
// those the largest lo (float64 only), among those the lowest row.
template <typename T>
__device__ __forceinline__ Lu05Cand
lu05_warp_best (const Lu05Cand &c)
{
  Lu05Cand b;
  b.hi = __reduce_max_sync (0xffffffffu, c.hi);
  b.lo = sizeof (T) == 4 ? 0u : __reduce_max_sync (0xffffffffu, c.hi == b.hi ? c.lo : 0u);
  b.i = __reduce_min_sync (0xffffffffu, c.hi == b.hi && c.lo == b.lo ? c.i : INT_MAX);
  return b;
}

// Every thread's candidate → the CTA's best, in every thread (one barrier).
template <typename T>
__device__ __forceinline__ Lu05Cand
lu05_cta_best (const Lu05Cand &c, Lu05Cand *red)
{
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const Lu05Cand w = lu05_warp_best<T> (c);
  if (lane == 0)
    red[warp] = w;
  __syncthreads ();
  return lu05_warp_best<T> (lane < LU05_WARPS ? red[lane] : lu05_none ());
}

// The multipliers are l = a·mul1·mul2: by the reciprocal, a·1·(1/p), when
// |p| is above the underflow threshold (LAPACK: exactly a·(1/p)), else by
// the reciprocal of p·2^k, (a·2^k)·(1/(p·2^k)), within an ulp of LAPACK's
// a/p without a division per row; a zero pivot: no scaling.  Once per
// column, so the unrolled loop carries no division code.
template <typename T>
__device__ __forceinline__ void
lu05_scale (T p, T sfmin, T *mul1, T *mul2)
{
  const T up = sizeof (T) == 4 ? T (18446744073709551616.0) : T (3.4028236692093846e38); // 2^64, 2^128
  *mul1 = T (1);
  *mul2 = T (1);
  if (p == T (0) || p != p)
    return;
  if (fabs (p) >= sfmin)
    *mul2 = T (1) / p;
  else
    {
      *mul1 = up;
      *mul2 = T (1) / (p * up);
    }
}

// 16-byte loads of the pivot row (a broadcast: every lane reads the same).
template <typename T> struct Lu05Vec;
template <> struct Lu05Vec<float>
{
  typedef float4 V;
  static constexpr int n = 4;
  static __device__ __forceinline__ float at (const V &v, int k)
  {
    return k == 0 ? v.x : k == 1 ? v.y : k == 2 ? v.z : v.w;
  }
};
template <> struct Lu05Vec<double>
{
  typedef double2 V;
  static constexpr int n = 2;
  static __device__ __forceinline__ double at (const V &v, int k) { return k == 0 ? v.x : v.y; }
};

// The rank-1 update of columns j+2 … W−1 of every slot below row c (column
// j+1 was updated before the candidate search).  j is a compile-time
// constant after unrolling, so x stays in registers.
template <typename T, int W, int RPT>
__device__ __forceinline__ void
lu05_update_rest (T (&x)[RPT][W], const int (&label)[RPT], int c, int j, const T *prow)
{
  typedef Lu05Vec<T> Vec;
#pragma unroll
  for (int c4 = (j + 2) / Vec::n * Vec::n; c4 < W; c4 += Vec::n)
    {
      const typename Vec::V pv = *(const typename Vec::V *) (prow + c4);
#pragma unroll
      for (int k = 0; k < Vec::n; k++)
        if (c4 + k >= j + 2)
#pragma unroll
          for (int r = 0; r < RPT; r++)
            if (label[r] > c)
              x[r][c4 + k] -= x[r][j] * Vec::at (pv, k);
    }
}

// Column j (global column c) once its pivot row piv and that row's values
// prow are known: the swap as a relabelling of two slots, the multipliers
// of column j, column j+1 of every row below c, and this thread's best
// candidate for column j+1 (returned).  j is a compile-time constant after
// unrolling.  lu-06's panel (lu-06-fused-kernel.cuh) runs the same column.
template <typename T, int W, int RPT>
__device__ __forceinline__ Lu05Cand
lu05_eliminate (T (&x)[RPT][W], int (&label)[RPT], int c, int j, int piv, const T *prow, T sfmin)
{
  T mul1, mul2;
  lu05_scale (prow[j], sfmin, &mul1, &mul2);
  const T pnext = j + 1 < W ? prow[j + 1] : T (0);
  Lu05Cand mine = lu05_none ();
#pragma unroll
  for (int r = 0; r < RPT; r++)
    {
      if (label[r] == piv)
        label[r] = c;
      else if (label[r] == c)
        label[r] = piv;
      if (label[r] > c)
        {
          const T l = x[r][j] * mul1 * mul2;
          x[r][j] = l;
          if (j + 1 < W)
            {
              x[r][j + 1] -= l * pnext;
              lu05_better (mine, lu05_cand (x[r][j + 1], label[r]));
            }
        }
    }
  return mine;
}

// The slot that stands for row i (if this thread has it) into `dst`.
template <typename T, int W, int RPT>
__device__ __forceinline__ void
lu05_post_row (const T (&x)[RPT][W], const int (&label)[RPT], int i, T *dst)
{
#pragma unroll
  for (int r = 0; r < RPT; r++)
    if (label[r] == i)
#pragma unroll
      for (int col = 0; col < W; col++)
        dst[col] = x[r][col];
}

template <typename T, int W, int RPT>
__device__ __forceinline__ bool
lu05_holds (const int (&label)[RPT], int i)
{
  bool h = false;
#pragma unroll
  for (int r = 0; r < RPT; r++)
    h |= label[r] == i;
  return h;
}

template <typename T, int W, int RPT>
__global__ void __launch_bounds__ (LU05_THREADS, 1)
lu05_panel_kernel (const Lu05Args<T> p)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 // clusters: Hopper on (empty for older passes)
  namespace cg = cooperative_groups;
  __shared__ Lu05Smem<T, W> sh;
  extern __shared__ __align__ (16) unsigned char lu05_stage_raw[];
  T *stage = (T *) lu05_stage_raw;                      // LU05_THREADS × (W + 1)
  int *stage_row = (int *) (stage + LU05_THREADS * (W + 1)); // the row of each staged slot

  cg::cluster_group cluster = cg::this_cluster ();
  const int C = (int) cluster.num_blocks (), b = (int) cluster.block_rank ();
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int h = p.m - p.c0;
  const T sfmin = sizeof (T) == 4 ? (T) FLT_MIN : (T) DBL_MIN;

  T x[RPT][W];
  int label[RPT]; // the global row slot r stands for now; −1: none

  // ---- rows in: slot by slot, one coalesced pass through the staging area
  if (tid < W)
    sh.zero[tid] = T (0);
#pragma unroll
  for (int r = 0; r < RPT; r++)
    {
      const int base = (r * C + b) * LU05_THREADS;
      for (int e = tid; e < LU05_THREADS * W; e += LU05_THREADS)
        {
          const int q = e / W, col = e % W, l = base + q;
          stage[q * (W + 1) + col] = l < h && col < p.w ? p.a[(size_t) (p.c0 + l) * p.lda + p.c0 + col] : T (0);
        }
      __syncthreads ();
      label[r] = base + tid < h ? p.c0 + base + tid : -1;
#pragma unroll
      for (int col = 0; col < W; col++)
        x[r][col] = stage[tid * (W + 1) + col];
      __syncthreads ();
    }

  // The launch's first column: nothing is pending, post the candidate
  // straight away.  (Outside the unrolled loop below: x[r][j0] by select.)
  {
    const int c = p.c0 + p.j0, par = p.j0 & 1;
    Lu05Cand mine = lu05_none ();
#pragma unroll
    for (int r = 0; r < RPT; r++)
      {
        T first = T (0);
#pragma unroll
        for (int col = 0; col < W; col++)
          first = col == p.j0 ? x[r][col] : first;
        if (label[r] >= c)
          lu05_better (mine, lu05_cand (first, label[r]));
      }
    const Lu05Cand best = lu05_cta_best<T> (mine, sh.red[par]);
    const bool poster = best.i == INT_MAX ? tid == 0 : lu05_holds<T, W, RPT> (label, best.i);
    if (poster)
      {
        lu05_post_row<T, W, RPT> (x, label, best.i, sh.cand[par]);
        sh.cand_key[par] = best;
      }
    lu05_arrive (p.lean, poster);
  }

#pragma unroll
  for (int j = 0; j < W; j++)
    {
      if (j < p.j0)
        continue;
      if (j >= p.j1)
        break;
      const int c = p.c0 + j, par = j & 1;

      // 1. Every CTA's post for column j: warp q fetches CTA q's.
      lu05_wait (p.lean);
      if (warp < C)
        {
          const Lu05Smem<T, W> *rs = cluster.map_shared_rank (&sh, (unsigned) warp);
          if (lane < W)
            sh.rows[par][warp][lane] = rs->cand[par][lane];
          if (lane == 0)
            sh.all[par][warp] = rs->cand_key[par];
        }
      __syncthreads ();

      // 2. The pivot, in every warp at once (no further barrier).
      const Lu05Cand posted = lane < C ? sh.all[par][lane] : lu05_none ();
      const Lu05Cand best = lu05_warp_best<T> (posted);
      const unsigned from = __ballot_sync (0xffffffffu, lane < C && posted.i == best.i && best.i != INT_MAX);
      // a zero (or all-NaN) column: no swap (LAPACK)
      const int piv = (best.hi | best.lo) != 0u ? best.i : c;
      const T *prow = from ? sh.rows[par][__ffs (from) - 1] : sh.zero;
      if (b == 0 && tid == 0)
        p.ipiv[c] = piv;

      // 3. The swap (labels only), the multipliers of column j, column j+1
      //    of every row below and this CTA's candidate for it.
      const Lu05Cand mine = lu05_eliminate<T, W, RPT> (x, label, c, j, piv, prow, sfmin);

      // 4. Post the candidate for column j+1: only its holder (or thread 0
      //    when this CTA has none) arrives late — lean: its whole warp.
      const bool next = j + 1 < p.j1;
      bool poster = false;
      Lu05Cand nbest = lu05_none ();
      if (next)
        {
          nbest = lu05_cta_best<T> (mine, sh.red[par]);
          poster = nbest.i == INT_MAX ? tid == 0 : lu05_holds<T, W, RPT> (label, nbest.i);
        }
      const bool late = p.lean ? __any_sync (0xffffffffu, poster) : poster;
      if (!late)
        lu05_arrive (p.lean, false);
      lu05_update_rest<T, W, RPT> (x, label, c, j, prow);
      if (late)
        {
          if (poster)
            {
              lu05_post_row<T, W, RPT> (x, label, nbest.i, sh.cand[par ^ 1]);
              sh.cand_key[par ^ 1] = nbest;
            }
          lu05_arrive (p.lean, poster);
        }
    }
  // Nobody leaves while another CTA may still read its shared memory.
  lu05_wait (p.lean);

  // ---- rows out, to the rows their labels name
#pragma unroll
  for (int r = 0; r < RPT; r++)
    {
      if ((r * C + b) * LU05_THREADS >= h)
        break; // uniform in the CTA
      __syncthreads ();
#pragma unroll
      for (int col = 0; col < W; col++)
        stage[tid * (W + 1) + col] = x[r][col];
      stage_row[tid] = label[r];
      __syncthreads ();
      for (int e = tid; e < LU05_THREADS * W; e += LU05_THREADS)
        {
          const int q = e / W, col = e % W, row = stage_row[q];
          if (row >= 0 && col < p.w)
            p.a[(size_t) row * p.lda + p.c0 + col] = stage[q * (W + 1) + col];
        }
    }
#endif
}

// ---- the host side of the kernel ----------------------------------------------

// Sets the attributes every instance needs (once per process is enough):
// the non-portable cluster size and the staging area.
template <typename T, int W, int RPT>
cudaError_t
lu05_prepare ()
{
  cudaError_t e = cudaFuncSetAttribute (lu05_panel_kernel<T, W, RPT>,
                                        cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  if (e == cudaSuccess)
    e = cudaFuncSetAttribute (lu05_panel_kernel<T, W, RPT>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                              (int) lu05_stage_bytes<T, W> ());
  return e;
}

template <typename T, int W, int RPT>
void
lu05_config (cudaLaunchConfig_t *cfg, cudaLaunchAttribute *attr, int cluster, cudaStream_t stream)
{
  *cfg = cudaLaunchConfig_t ();
  cfg->gridDim = dim3 (cluster);
  cfg->blockDim = dim3 (LU05_THREADS);
  cfg->dynamicSmemBytes = lu05_stage_bytes<T, W> ();
  cfg->stream = stream;
  attr->id = cudaLaunchAttributeClusterDimension;
  attr->val.clusterDim.x = cluster;
  attr->val.clusterDim.y = 1;
  attr->val.clusterDim.z = 1;
  cfg->attrs = attr;
  cfg->numAttrs = 1;
}

// How many clusters of `cluster` CTAs the GPU can hold at once (0: none —
// the size is not schedulable on this GPU).
template <typename T, int W, int RPT>
int
lu05_max_active (int cluster)
{
  cudaLaunchConfig_t cfg;
  cudaLaunchAttribute attr;
  lu05_config<T, W, RPT> (&cfg, &attr, cluster, 0);
  int n = 0;
  if (cudaOccupancyMaxActiveClusters (&n, lu05_panel_kernel<T, W, RPT>, &cfg) != cudaSuccess)
    {
      cudaGetLastError (); // not sticky: clear it
      return 0;
    }
  return n;
}

template <typename T, int W, int RPT>
cudaError_t
lu05_launch (const Lu05Args<T> &p, int cluster, cudaStream_t stream)
{
  cudaLaunchConfig_t cfg;
  cudaLaunchAttribute attr;
  lu05_config<T, W, RPT> (&cfg, &attr, cluster, stream);
  return cudaLaunchKernelEx (&cfg, lu05_panel_kernel<T, W, RPT>, p);
}

// The cluster for h rows when clusters of up to max_cluster CTAs can run:
// the fewest CTAs (a power of two) that hold the rows with one slot per
// thread, else max_cluster with two.  0: h does not fit.
inline int
lu05_cluster_for (int h, int max_cluster, int *rpt)
{
  int c = 1;
  while (c < max_cluster && c * LU05_THREADS < h)
    c *= 2;
  *rpt = c * LU05_THREADS >= h ? 1 : 2;
  return (long) c * LU05_THREADS * *rpt >= h ? c : 0;
}
