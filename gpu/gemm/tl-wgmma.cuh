// tl-wgmma.cuh — the Hopper (sm_90a) instructions of the wgmma rungs 11,
// 13 (TF32) and 14 (BF16), and the TMA of rung 17.  CUDA C++, internal to
// gpu/gemm/.  How rungs 11, 13 and 14 assemble them into a producer/consumer
// pipeline is tl-hopper-pipeline.cuh.
//
// The instructions: mbarriers, TMA copies, wgmma and its fences, register
// moves between warpgroups, matrix descriptors.  And what rungs 13 and 14
// build on top of them:
//   - thread-block clusters: two CTAs on neighbouring SMs that can write
//     into each other's shared memory.  One TMA copy can *multicast* a tile
//     to both, and a thread can arrive on the other CTA's mbarrier;
//   - a persistent tile scheduler: one CTA per SM loops over C's tiles in
//     an L2-friendly order (grouped rasterisation), instead of one CTA per
//     tile launched in row order;
//   - per-tile timing records for the persistent kernels (their CTAs live
//     for the whole launch, so a record per CTA would say little).
// Everything device-side compiles to nothing outside the sm_90a pass: the
// rung files are also built for the project's other architectures, where
// their `check` refuses to run (see tl_sm90a_ready).
#pragma once

#include "tl-gemm-rung.h"
#include "tl-gemm-async.cuh"
#include "tl-block-timer.cuh"

#include <atomic>
#include <cuda.h>
#include <cudaTypedefs.h>
#include <stdio.h>

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define TL_SM90A 1
#else
#define TL_SM90A 0
#endif

// ---- mbarriers ------------------------------------------------------------
//
// An mbarrier is a 64-bit word in shared memory that counts arrivals (and,
// for TMA, bytes).  When the expected arrivals have come and the expected
// bytes have landed, its current *phase* completes and the next begins;
// waiters ask "has the phase with parity p completed?".

__device__ __forceinline__ void
tl_mbar_init (uint64_t *bar, int arrivals)
{
#if TL_SM90A
  asm volatile ("mbarrier.init.shared::cta.b64 [%0], %1;\n" :: "r"(tl_smem_addr (bar)), "r"(arrivals));
#endif
}

// Makes the initialised barriers visible to the copy engine and to the
// other CTA of the cluster (before the cluster barrier that follows).
__device__ __forceinline__ void
tl_fence_mbar_init ()
{
#if TL_SM90A
  asm volatile ("fence.mbarrier_init.release.cluster;\n" ::: "memory");
#endif
}

// One arrival that also announces `bytes` the copy engine will deliver.
__device__ __forceinline__ void
tl_mbar_expect_tx (uint64_t *bar, int bytes)
{
#if TL_SM90A
  asm volatile ("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n"
                :: "r"(tl_smem_addr (bar)), "r"(bytes) : "memory");
#endif
}

// One arrival on this CTA's barrier.
__device__ __forceinline__ void
tl_mbar_arrive (uint64_t *bar)
{
#if TL_SM90A
  asm volatile ("mbarrier.arrive.shared::cta.b64 _, [%0];\n" :: "r"(tl_smem_addr (bar)) : "memory");
#endif
}

// One arrival on the barrier at the same shared-memory offset in CTA
// `cta` of this cluster (this CTA's own when cta is its rank).  mapa turns
// the local address into the other CTA's address in the cluster window.
// The arrival keeps the default CTA-scope release, as CUTLASS's cluster
// barriers do: what it announces ("my wgmmas finished reading this stage")
// was already made true by wgmma.wait_group.  Asking for cluster-scope
// release (.release.cluster) makes the compiler put a memory barrier in
// front of it that waits for every store the thread has in flight — the
// first version did, and ncu found its consumer warps spending most of
// their cycles in that barrier (docs/perf/gemm-tensor-cores-h100-2026-11-24.md).
__device__ __forceinline__ void
tl_mbar_arrive_cluster (uint64_t *bar, unsigned cta)
{
#if TL_SM90A
  asm volatile ("{\n"
                ".reg .b32 remote;\n"
                "mapa.shared::cluster.u32 remote, %0, %1;\n"
                "mbarrier.arrive.shared::cluster.b64 _, [remote];\n"
                "}\n"
                :: "r"(tl_smem_addr (bar)), "r"(cta) : "memory");
#endif
}

// A consumer warp's release of a stage: one arrival on the stage's "empty"
// barrier in every CTA of the cluster (their producers all write into it).
template <int CLUSTER>
__device__ __forceinline__ void
tl_release_stage (uint64_t *empty)
{
  if (CLUSTER == 1)
    tl_mbar_arrive (empty);
  else
    for (int c = 0; c < CLUSTER; c++)
      tl_mbar_arrive_cluster (empty, c);
}

// Spin until the phase with the given parity has completed.
__device__ __forceinline__ void
tl_mbar_wait (uint64_t *bar, int parity)
{
#if TL_SM90A
  uint32_t done = 0;
  while (!done)
    asm volatile ("{\n"
                  ".reg .pred p;\n"
                  "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                  "selp.u32 %0, 1, 0, p;\n"
                  "}\n"
                  : "=r"(done) : "r"(tl_smem_addr (bar)), "r"(parity) : "memory");
#endif
}

// ---- clusters -------------------------------------------------------------

__device__ __forceinline__ unsigned
tl_cluster_rank ()
{
  unsigned r = 0;
#if TL_SM90A
  asm volatile ("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
#endif
  return r;
}

// A cluster barrier (every thread of every CTA of the cluster arrives,
// nobody passes the wait until all have) in two halves, for the start of
// a kernel.  The arrival is *relaxed*: it orders none of the thread's
// memory accesses.  The usual arrive.release would first wait until all
// the thread's earlier stores are performed (a MEMBAR: ncu's "membar"
// stall); the split-k sum's barriers need that (tl-gemm-splitk.cuh), the
// stage ring's start does not.  And the wait can come much later: between
// the two a thread does the work that touches no other CTA (its register
// move, the tensor maps' prefetch) while its partner is still starting.
__device__ __forceinline__ void
tl_cluster_arrive_relaxed ()
{
#if TL_SM90A
  asm volatile ("barrier.cluster.arrive.relaxed.aligned;\n" ::: "memory");
#endif
}

__device__ __forceinline__ void
tl_cluster_wait ()
{
#if TL_SM90A
  asm volatile ("barrier.cluster.wait.acquire.aligned;\n" ::: "memory");
#endif
}

// The stage ring of a warp-specialised kernel: thread 0 initialises each
// stage's "full" barrier (one arrival: the producer's expect_tx, plus the
// bytes) and "empty" barrier (`releases` arrivals: every consumer warp of
// the cluster).  Nobody may use them before that is visible, and with a
// cluster the partner CTA will multicast into this CTA's stages and arrive
// on its barriers.  Without a cluster, a __syncthreads publishes them.
// With one, this is the first half of a cluster barrier: the fence makes
// the initialisation visible cluster-wide (release, for thread 0's
// barrier writes alone), every thread arrives relaxed, and each thread
// must call tl_cluster_wait () before its first wait, copy or release on
// the ring — as late as it likes (CUTLASS's sm90 kernels do the same).
template <int STAGES, int CLUSTER>
__device__ __forceinline__ void
tl_stage_ring_init (uint64_t *full, uint64_t *empty, int releases)
{
  if (threadIdx.x == 0)
    {
      for (int s = 0; s < STAGES; s++)
        {
          tl_mbar_init (&full[s], 1);
          tl_mbar_init (&empty[s], releases);
        }
      tl_fence_mbar_init ();
    }
  if (CLUSTER > 1)
    tl_cluster_arrive_relaxed ();
  else
    __syncthreads ();
}

// ---- TMA ------------------------------------------------------------------

// Copy the box at (x = column, y = row) of the tensor map into this CTA's
// shared memory; the bytes complete on `bar`.  Elements outside the matrix
// arrive as zeros (and still count as bytes).
__device__ __forceinline__ void
tl_tma_load (void *dst, const CUtensorMap *map, uint64_t *bar, int x, int y)
{
#if TL_SM90A
  asm volatile ("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                " [%0], [%1, {%3, %4}], [%2];\n"
                :: "r"(tl_smem_addr (dst)), "l"(map), "r"(tl_smem_addr (bar)), "r"(x), "r"(y)
                : "memory");
#endif
}

// Fetch a tensor map (a kernel parameter, __grid_constant__) into the
// copy engine's descriptor cache now, while the barriers are set up: the
// first copy then waits for its data only, not for the descriptor too.
// After an L2 flush both are a DRAM round trip away, and a small product
// has only a few k-steps to hide them behind.
__device__ __forceinline__ void
tl_tma_prefetch_map (const CUtensorMap *map)
{
#if TL_SM90A
  asm volatile ("prefetch.tensormap [%0];\n" :: "l"(map) : "memory");
#endif
}

// The same for a 3-D tensor map: the box at (x, y, z), x the innermost
// (contiguous) coordinate.  Rung 17 reads A through one (see there).
__device__ __forceinline__ void
tl_tma_load_3d (void *dst, const CUtensorMap *map, uint64_t *bar, int x, int y, int z)
{
#if TL_SM90A
  asm volatile ("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                " [%0], [%1, {%3, %4, %5}], [%2];\n"
                :: "r"(tl_smem_addr (dst)), "l"(map), "r"(tl_smem_addr (bar)), "r"(x), "r"(y), "r"(z)
                : "memory");
#endif
}

// The same box, read once from L2 and written to the same offset in every
// CTA of `cta_mask`; each destination's barrier at `bar`'s offset counts
// the bytes.
__device__ __forceinline__ void
tl_tma_load_multicast (void *dst, const CUtensorMap *map, uint64_t *bar, int x, int y,
                       unsigned short cta_mask)
{
#if TL_SM90A
  asm volatile ("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                ".multicast::cluster [%0], [%1, {%3, %4}], [%2], %5;\n"
                :: "r"(tl_smem_addr (dst)), "l"(map), "r"(tl_smem_addr (bar)), "r"(x), "r"(y),
                   "h"(cta_mask)
                : "memory");
#endif
}

// Where a box along a dimension of `extent` elements may start: `start`,
// or — when that lies outside the matrix — the last element (first version:
// the copy engine fills a box that lies entirely outside with zeros, but
// that is not worth relying on).  A persistent
// kernel then never asks TMA for a box entirely out of bounds (the missing
// second tile of a cluster's pair, a 16-column box right of a narrow B);
// such a box only feeds outputs that are never stored.
// Along a row (the innermost dimension) the start must also stay on a
// 16-byte boundary — a misaligned start is an illegal instruction — so
// `align` (elements per 16 bytes) rounds it down.
__device__ __forceinline__ int
tl_box_start (int start, int extent, int align = 1)
{
  return start < extent ? start : (extent - 1) / align * align;
}

// ---- wgmma ----------------------------------------------------------------

__device__ __forceinline__ void
tl_wgmma_fence ()
{
#if TL_SM90A
  asm volatile ("wgmma.fence.sync.aligned;\n" ::: "memory");
#endif
}

__device__ __forceinline__ void
tl_wgmma_commit ()
{
#if TL_SM90A
  asm volatile ("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#endif
}

// Wait until at most N committed wgmma groups are still in flight.
template <int N>
__device__ __forceinline__ void
tl_wgmma_wait ()
{
#if TL_SM90A
  asm volatile ("wgmma.wait_group.sync.aligned %0;\n" :: "n"(N) : "memory");
#endif
}

template <int R>
__device__ __forceinline__ void
tl_setmaxnreg_inc ()
{
#if TL_SM90A
  asm volatile ("setmaxnreg.inc.sync.aligned.u32 %0;\n" :: "n"(R));
#endif
}

template <int R>
__device__ __forceinline__ void
tl_setmaxnreg_dec ()
{
#if TL_SM90A
  asm volatile ("setmaxnreg.dec.sync.aligned.u32 %0;\n" :: "n"(R));
#endif
}

// Matrix descriptor of a K-major operand tile in the 128-byte swizzled
// layout TMA writes (rows of 128 bytes, 8-row groups 1024 bytes apart):
// start address, leading byte offset (unused by this swizzle; 1 by
// convention), stride byte offset 1024, swizzle mode 1 = 128 B.  Addresses
// and offsets are stored divided by 16.  Stepping along k inside the
// 128-byte row moves the start address (32 bytes per bf16 k16 or tf32 k8
// step); the hardware applies the swizzle to the final address.
__device__ __forceinline__ uint64_t
tl_desc_k128 (const void *smem)
{
  uint64_t addr = tl_smem_addr (smem);
  uint64_t desc = (addr & 0x3FFFF) >> 4;
  desc |= (uint64_t) (16 >> 4) << 16;
  desc |= (uint64_t) (1024 >> 4) << 32;
  desc |= 1ull << 62;
  return desc;
}

// The 128 accumulator registers of an m64n256 wgmma as asm operands, and
// their names in the instruction text.
#define TL_ACC8(d, i)                                                                          \
  "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]), "+f"(d[i + 5]), \
    "+f"(d[i + 6]), "+f"(d[i + 7])
#define TL_ACC32(d, i) TL_ACC8 (d, i), TL_ACC8 (d, i + 8), TL_ACC8 (d, i + 16), TL_ACC8 (d, i + 24)
#define TL_ACC128(d) TL_ACC32 (d, 0), TL_ACC32 (d, 32), TL_ACC32 (d, 64), TL_ACC32 (d, 96)
#define TL_ACC128_TEXT                                                                        \
  "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "                  \
  "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "         \
  "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "         \
  "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "         \
  "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "         \
  "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "         \
  "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, "   \
  "%111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, "     \
  "%125, %126, %127}"

// The 64 accumulator registers of an m64n128 wgmma, the same way.
#define TL_ACC64(d) TL_ACC32 (d, 0), TL_ACC32 (d, 32)
#define TL_ACC64_TEXT                                                                         \
  "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "                  \
  "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "         \
  "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "         \
  "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}"

// The 32 of an m64n64 wgmma and the 16 of an m64n32 one (the smallest
// tiles of rungs 13 and 14).
#define TL_ACC16(d, i) TL_ACC8 (d, i), TL_ACC8 (d, i + 8)
#define TL_ACC32_TEXT                                                                         \
  "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "                  \
  "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}"
#define TL_ACC16_TEXT "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15}"

// An empty asm that "reads and writes" every accumulator: it pins the
// accumulators' definitions around a wgmma batch, so the compiler does not
// move ordinary writes to them into the asynchronous window (which would
// force it to serialise the wgmmas: ptxas warning C7515).  N: the tile's
// accumulators per thread (16 … 128).
template <int N>
__device__ __forceinline__ void
tl_fence_acc (float (&d)[N])
{
#pragma unroll
  for (int i = 0; i < N; i++)
    asm volatile ("" : "+f"(d[i])::"memory");
}

// One wgmma.m64n256k16: d (64×256 per warpgroup) += A (64×16, via desc_a)
// · B (16×256, via desc_b), both from shared memory; scale_d = 0 ignores
// the old d (d = A·B).
__device__ __forceinline__ void
tl_wgmma_m64n256k16_bf16 (float (&d)[128], uint64_t desc_a, uint64_t desc_b, int scale_d)
{
#if TL_SM90A
  asm volatile ("{\n"
                ".reg .pred p;\n"
                "setp.ne.b32 p, %130, 0;\n"
                "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 " TL_ACC128_TEXT
                ", %128, %129, p, 1, 1, 0, 0;\n"
                "}\n"
                : TL_ACC128 (d)
                : "l"(desc_a), "l"(desc_b), "r"(scale_d));
#endif
}

// How many pipeline stages of `stage_bytes` fit a CTA's shared memory on
// sm_90 (227 KB, less the 1 KB the kernels spend aligning their buffer to
// 1024 and 1 KB of static shared memory: the stages' mbarriers, aligned),
// at most 8.
constexpr int
tl_stages_that_fit (int stage_bytes)
{
  return (227 * 1024 - 2048) / stage_bytes < 8 ? (227 * 1024 - 2048) / stage_bytes : 8;
}

// ---- the persistent tile schedule ------------------------------------------
//
// C is cut into tiles of tile_m × tile_n.  With clusters, neighbouring
// tiles form a *unit* of unit_m × unit_n tiles, one per CTA of the
// cluster, so the CTAs can share the operand tiles they have in common:
// two tiles stacked along m (2 × 1) share B's columns, two side by side
// (1 × 2) share A's rows, and a 2 × 2 unit of a cluster of four shares
// both (each A tile with one partner, each B tile with another).  CTA
// `rank` of the cluster takes tile (rank % unit_m, rank / unit_m) of the
// unit.  Without clusters a unit is one tile.
//
// Order (grouped rasterisation): units are numbered band by band, a band
// being `group` unit-rows; inside a band, down the rows first, then to the
// next column.  Cluster c of a grid of C clusters takes units c, c+C,
// c+2C, ...  So the C units in flight at any moment form a block about
// `group` units tall and C/group wide — choose group so that block is
// roughly square: the A rows and B columns it needs are then reused by
// many CTAs while they sit in L2, instead of sweeping all of B for every
// few rows of A (row-order launches at 8192³ read B, 128 MB in BF16 —
// twice the L2 — from DRAM once per wave).
struct TlTileSchedule
{
  int tiles_m, tiles_n;
  int units_m, units_n, units;
  int group;            // unit-rows per band
  int unit_m, unit_n;   // tiles per unit along m and n: unit_m × unit_n CTAs per cluster

  __host__ __device__ void
  unit_coords (int u, int *um, int *un) const
  {
    int per_band = group * units_n;
    int band = u / per_band, r = u % per_band;
    int rows = units_m - band * group < group ? units_m - band * group : group;
    *um = band * group + r % rows;
    *un = r / rows;
  }

  // The tile CTA `rank` of the cluster computes for unit u; false when that
  // tile lies outside C (the CTA then only helps load).
  __host__ __device__ bool
  tile_of (int u, int rank, int *tm, int *tn) const
  {
    int um, un;
    unit_coords (u, &um, &un);
    *tm = um * unit_m + rank % unit_m;
    *tn = un * unit_n + rank / unit_m;
    return *tm < tiles_m && *tn < tiles_n;
  }
};

// group: band height in units so the band is about 2048 rows of C tall —
// with 132 SMs in flight, about a 2048 × 2048 block of C, whose A rows and
// B columns (2 × 2048 × k × 2 bytes in BF16: 64 MB at k = 8192) stream
// through L2 once per band instead of once per wave.
static inline TlTileSchedule
tl_tile_schedule_make_units (int m, int n, int tile_m, int tile_n, int unit_m, int unit_n)
{
  TlTileSchedule s;
  s.tiles_m = (m + tile_m - 1) / tile_m;
  s.tiles_n = (n + tile_n - 1) / tile_n;
  s.unit_m = unit_m;
  s.unit_n = unit_n;
  s.units_m = (s.tiles_m + unit_m - 1) / unit_m;
  s.units_n = (s.tiles_n + unit_n - 1) / unit_n;
  s.units = s.units_m * s.units_n;
  int unit_rows = tile_m * unit_m;
  s.group = 2048 / unit_rows > 1 ? 2048 / unit_rows : 1;
  return s;
}

// Clusters of one or two: a pair of tiles stacked along m (pair_m) or side
// by side along n.
static inline TlTileSchedule
tl_tile_schedule_make (int m, int n, int tile_m, int tile_n, int cluster, bool pair_m)
{
  return pair_m ? tl_tile_schedule_make_units (m, n, tile_m, tile_n, cluster, 1)
                : tl_tile_schedule_make_units (m, n, tile_m, tile_n, 1, cluster);
}

// ---- per-tile records (instrumented variants) ---------------------------------
//
// A persistent CTA computes many tiles, so the instrumented variants write
// one TlGpuBlockRecord per *tile* of C (slot tm·tiles_n + tn; block_x/y =
// the tile): start when the consumers begin the tile's main loop, end when
// every consumer thread has issued its part of the tile's stores.  The SM
// timeline then shows each SM working through its tiles back to back, and
// the tile grid shows the order in which C was covered.

__device__ __forceinline__ void
tl_tile_record_begin (TlGpuBlockRecord *records, const TlTileSchedule &s, int tm, int tn)
{
  records[tm * s.tiles_n + tn].start_ns = tl_globaltimer_ns ();
}

// launch: 0, or for a split-k plan the slice of k (its records follow the
// tiles' slice by slice: the caller offsets `records` by slice × tiles).
__device__ __forceinline__ void
tl_tile_record_end (TlGpuBlockRecord *records, const TlTileSchedule &s, int tm, int tn,
                    unsigned launch = 0)
{
  TlGpuBlockRecord *r = records + tm * s.tiles_n + tn;
  r->end_ns = tl_globaltimer_ns ();
  r->block_x = tn;
  r->block_y = tm;
  r->sm = tl_smid ();
  r->launch = launch;
}

// ---- host helpers -------------------------------------------------------------

// Writes 1 when this binary's code for the running GPU is the sm_90a one.
static __global__ void
tl_sm90a_probe_kernel (int *out)
{
  *out = TL_SM90A;
}

// Whether the sm_90a kernels can run on the run's device: compute
// capability 9.0 (sm_90a code runs there and nowhere else) and the driver
// picked the sm_90a code of this binary for it.  The one-thread probe runs
// on the run's stream (never the legacy one), once per device: the worker
// may hold several, so the answers are kept per ordinal (0 not asked yet,
// 1 yes, 2 no).  Rungs 11, 13 and 14 ask it in their `check`.
static inline bool
tl_sm90a_probe (const TlGemmLaunch *l)
{
  int *d = nullptr, h = 0;
  if (cudaMalloc (&d, sizeof (int)) != cudaSuccess)
    {
      (void) cudaGetLastError ();
      return false;
    }
  tl_sm90a_probe_kernel<<<1, 1, 0, l->stream>>> (d);
  bool yes = cudaGetLastError () == cudaSuccess
             && cudaMemcpyAsync (&h, d, sizeof (int), cudaMemcpyDeviceToHost, l->stream) == cudaSuccess
             && cudaStreamSynchronize (l->stream) == cudaSuccess && h == 1;
  (void) cudaGetLastError ();
  cudaFree (d);
  return yes;
}

static inline bool
tl_sm90a_ready (const TlGemmLaunch *l)
{
  constexpr int DEVICES = 64;
  static std::atomic<int> answers[DEVICES];
  if (l->cc != 90)
    return false;
  if (l->device < 0 || l->device >= DEVICES)
    return tl_sm90a_probe (l);
  int answer = answers[l->device].load ();
  if (answer == 0)
    {
      answer = tl_sm90a_probe (l) ? 1 : 2;
      answers[l->device].store (answer);
    }
  return answer == 1;
}

// cuTensorMapEncodeTiled, a driver API function, fetched through the
// runtime so that nothing links against libcuda directly.  nullptr when the
// driver is older than CUDA 12.
static inline PFN_cuTensorMapEncodeTiled_v12000
tl_tensor_map_encoder_lookup (void)
{
  cudaDriverEntryPointQueryResult q;
  void *p = nullptr;
  if (cudaGetDriverEntryPointByVersion ("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q)
        == cudaSuccess
      && q == cudaDriverEntryPointSuccess)
    return (PFN_cuTensorMapEncodeTiled_v12000) p;
  (void) cudaGetLastError ();
  return nullptr;
}

// (The driver is the process's, the same for every device: looked up once,
// in a thread-safe static.)
static inline PFN_cuTensorMapEncodeTiled_v12000
tl_tensor_map_encoder (void)
{
  static const PFN_cuTensorMapEncodeTiled_v12000 fn = tl_tensor_map_encoder_lookup ();
  return fn;
}

// A row-major rows × cols matrix of `type` with `pitch_bytes` between rows
// (a multiple of 16), read in boxes of box_cols × box_rows, written to
// shared memory with `swizzle`; elements outside the matrix read as zero.
static inline bool
tl_tensor_map_2d (CUtensorMap *map, CUtensorMapDataType type, const void *ptr, int rows, int cols,
                  size_t pitch_bytes, int box_rows, int box_cols, CUtensorMapSwizzle swizzle)
{
  PFN_cuTensorMapEncodeTiled_v12000 encode = tl_tensor_map_encoder ();
  if (encode == nullptr)
    return false;
  cuuint64_t dims[2] = { (cuuint64_t) cols, (cuuint64_t) rows };
  cuuint64_t strides[1] = { (cuuint64_t) pitch_bytes };
  cuuint32_t box[2] = { (cuuint32_t) box_cols, (cuuint32_t) box_rows };
  cuuint32_t elem_strides[2] = { 1, 1 };
  return encode (map, type, 2, (void *) ptr, dims, strides, box, elem_strides,
                 CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                 CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE)
         == CUDA_SUCCESS;
}

// A 3-D view of global memory: dims[0] elements contiguous, then dims[1]
// and dims[2] with byte strides strides[0] and strides[1] (multiples of
// 16), read in boxes of box[0] × box[1] × box[2], no swizzle; elements
// outside the view read as zero.
static inline bool
tl_tensor_map_3d (CUtensorMap *map, CUtensorMapDataType type, const void *ptr, const int dims[3],
                  const size_t strides[2], const int box[3])
{
  PFN_cuTensorMapEncodeTiled_v12000 encode = tl_tensor_map_encoder ();
  if (encode == nullptr)
    return false;
  cuuint64_t d[3] = { (cuuint64_t) dims[0], (cuuint64_t) dims[1], (cuuint64_t) dims[2] };
  cuuint64_t st[2] = { (cuuint64_t) strides[0], (cuuint64_t) strides[1] };
  cuuint32_t bx[3] = { (cuuint32_t) box[0], (cuuint32_t) box[1], (cuuint32_t) box[2] };
  cuuint32_t elem_strides[3] = { 1, 1, 1 };
  return encode (map, type, 3, (void *) ptr, d, st, bx, elem_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                 CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                 CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE)
         == CUDA_SUCCESS;
}

// How many clusters a persistent launch starts for `units` units of work
// when at most `most` run at once.  Not simply `most`: the launch lasts as
// many rounds as the busiest cluster has units, rounds = ⌈units / most⌉,
// and ⌈units / rounds⌉ clusters already finish in that many rounds, each
// with the same share.  At 4096³ in BF16 (256 units, 66 clusters fit) that
// is 64 clusters × 4 units instead of 66 clusters of which 8 have only 3:
// the same four rounds, on 128 SMs instead of 132 — the four SMs whose
// work only shortened other SMs' idle tails stay cool, and a GPU that is
// at its power limit keeps the other SMs' clocks a little higher.
static inline int
tl_persistent_clusters (int units, int most)
{
  if (units <= most)
    return units;
  int rounds = (units + most - 1) / most;
  return (units + rounds - 1) / rounds;
}

// A launch of `clusters` clusters of `cluster` CTAs (the configuration
// cudaLaunchKernelEx and the cluster occupancy query both take).
struct TlClusterLaunch
{
  cudaLaunchConfig_t cfg;
  cudaLaunchAttribute attr[1];

  TlClusterLaunch (int clusters, int cluster, int threads, int smem, cudaStream_t stream)
  {
    cfg = cudaLaunchConfig_t ();
    cfg.gridDim = dim3 (clusters * cluster);
    cfg.blockDim = dim3 (threads);
    cfg.dynamicSmemBytes = smem;
    cfg.stream = stream;
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = cluster;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
  }
};

// The persistent rungs' `prepare`: raise the shared-memory limit of the
// plain and the instrumented kernel, and count how many clusters of them
// the GPU runs at once (a cluster's CTAs must share a GPC, so this can be
// less than SMs / cluster) into l->clusters — per run, not in a static:
// the worker may hold GPUs of different sizes, and runs may overlap.
static inline cudaError_t
tl_persistent_prepare (TlGemmLaunch *l, const void *plain, const void *instrumented, int cluster,
                       int threads, int smem)
{
  int *most = &l->clusters;
  for (const void *kernel : { plain, instrumented })
    {
      cudaError_t e = cudaFuncSetAttribute (kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
      if (e != cudaSuccess)
        return e;
    }
  TlClusterLaunch one (1, cluster, threads, smem, 0);
  *most = 0;
  if (cudaOccupancyMaxActiveClusters (most, plain, &one.cfg) != cudaSuccess)
    {
      (void) cudaGetLastError ();
      *most = 0;
    }
  return *most > 0 ? cudaSuccess : cudaErrorNotSupported;
}

// Clusters to launch for `units` units of work: every one that fits (the
// run's l->clusters, counted by tl_persistent_prepare; before that, the SM
// count says how many at most), or — balanced — tl_persistent_clusters'
// choice.  Rungs 13 and 14 size their grid with it in `shape` and `launch`.
static inline int
tl_grid_clusters (const TlGemmLaunch *l, int units, int cluster, bool balanced)
{
  int most = l->clusters;
  if (most <= 0)
    most = l->sm_count >= cluster ? l->sm_count / cluster : 1;
  return balanced ? tl_persistent_clusters (units, most) : (units < most ? units : most);
}

// Launches a persistent kernel on `clusters` clusters of `cluster` CTAs.
template <typename... KArgs, typename... Args>
static inline cudaError_t
tl_launch_clusters (void (*kernel) (KArgs...), int clusters, int cluster, int threads, int smem,
                    cudaStream_t stream, Args... args)
{
  TlClusterLaunch launch (clusters, cluster, threads, smem, stream);
  return cudaLaunchKernelEx (&launch.cfg, kernel, args...);
}

// What rungs 13 and 14 refuse: other dtypes, empty sizes, a GPU or build
// without the sm_90a code, a driver without tensor maps.
static inline TlGpuStatus
tl_wgmma_check (const TlGemmLaunch *l, int rung, char *why, size_t why_size)
{
  if (l->dtype != TL_GPU_FLOAT32)
    snprintf (why, why_size, "rung %d takes float32 matrices only", rung);
  else if (l->m < 1 || l->n < 1 || l->k < 1)
    snprintf (why, why_size, "rung %d needs m, n, k >= 1", rung);
  else if (!tl_sm90a_ready (l))
    snprintf (why, why_size, "needs a Hopper GPU (compute capability 9.0) and an sm_90a build; "
              "this GPU has %d.%d", l->cc / 10, l->cc % 10);
  else if (tl_tensor_map_encoder () == nullptr)
    snprintf (why, why_size, "rung %d needs cuTensorMapEncodeTiled (CUDA 12 driver or newer)", rung);
  else
    return TL_GPU_OK;
  return TL_GPU_BAD_SHAPE;
}
