// tl-hopper-pipeline.cuh — the warp-specialised TMA → wgmma pipeline of the
// Hopper rungs 11, 13 and 14, written once.  CUDA C++ (sm_90a), internal to
// gpu/gemm/.  The instructions it is made of live in tl-wgmma.cuh; this
// header is how they are put together, and a rung supplies only what is
// its own: which boxes to copy into a stage, how to multiply a stage, and
// how to store the tile.  (ThunderKittens' H100 kernels are written the
// same way: one load-compute-finish template, and per kernel the hooks.)
//
// The idea.  On Hopper the copy engine (TMA) and the tensor cores (wgmma)
// both run asynchronously, so a GEMM's main loop becomes a conveyor belt:
//
//   - A *stage* is one slot of shared memory big enough for one k-step's
//     operand tiles (A's BM × BK and B's BN × BK).  STAGES of them form a
//     ring: k-step `it` uses stage it % STAGES, so while the tensor cores
//     multiply stage s the copy engine is already filling s+1, s+2, …
//   - Each stage has two mbarriers (tl-wgmma.cuh: a 64-bit counter in
//     shared memory).  "full" completes when the copy engine has delivered
//     every byte of the stage (the producer announces how many with
//     expect_tx); "empty" completes when every consumer warp has said it is
//     done reading the stage (one arrival each — from both CTAs of a
//     cluster when a stage is shared across it).
//   - Why phases.  A barrier is reused once per trip round the ring.  Each
//     time its count is reached a *phase* completes and the next begins,
//     and a waiter names the phase it waits for by its parity (bit 0 of
//     the phase number), so it never mistakes the previous trip's
//     completion for this one's.  Trip u = it / STAGES of a stage waits for
//     phase u of "full" (parity u & 1), and — on the producer's side — for
//     the consumers' release of trip u-1: phase u-1 of "empty", parity
//     (u & 1) ^ 1.  For u = 0 that names the phase "before the first",
//     which counts as complete: the empty ring needs no priming.
//   - The *producer* is warpgroup 0; one of its threads does all the work:
//     for every k-step, wait until the stage is empty, announce its bytes
//     on "full", issue the TMA copies (the rung's `load` hook).  It holds
//     no data, so it gives registers back (setmaxnreg.dec) for the
//     consumers to take (setmaxnreg.inc) when their accumulators need them.
//   - The *consumers* are the other warpgroups: for every k-step, wait
//     until the stage is full, issue its wgmmas (the rung's `mma` hook),
//     and release the stage once those wgmmas have read it.  wgmma is
//     asynchronous too, so the release is one step late: commit this
//     step's group, wait until at most one group is in flight
//     (wgmma.wait_group 1) — the *previous* step's is then finished — and
//     release the previous step's stage.  The tensor cores always have
//     the next step's wgmmas queued behind the current ones.
//   - After the last k-step the consumers drain (wait_group 0) and store
//     their tile (the rung's epilogue).  A persistent kernel's producer
//     does not wait for that: the ring's counter `it` runs on across tiles,
//     so it is already filling stages for the CTA's next tile.
//   - Starting and ending a cluster without stalling.  The partner CTA
//     multicasts into this one's stages and arrives on its barriers, so
//     neither may start before both rings are initialised, nor leave while
//     the other can still reach it.  A full cluster barrier at each end
//     does that, but at a price a small product notices (ncu at 1024³ BF16
//     found rung 14's warps stalled on "membar" and "barrier", cuBLAS's
//     not): its release half makes every thread wait until its stores are
//     performed, and at the end every thread waits for the slower CTA.
//     Instead, the start is split (tl_stage_ring_init arrives *relaxed*;
//     each thread waits only just before its first copy or release, after
//     its register move and the tensor maps' prefetch), and the end needs
//     no barrier: the producer, after its last copy, waits until every
//     consumer of the cluster has released the last STAGES stages
//     (TlStageRing::drain) — after that nothing reaches this CTA any more —
//     and the consumers leave as soon as their tile is stored.
//
// Three layers, each usable alone:
//   TlStageRing             the barriers and their phase arithmetic;
//   tl_pipe_produce /       the producer's and the consumers' loops over
//   tl_pipe_mainloop        one tile's k-steps (rung 11, one tile per CTA,
//                           uses the ring and the consumers' loop);
//   tl_pipe_persistent      a whole persistent, clustered, optionally
//                           split-k CTA around them (rungs 13 and 14).
// Their host side — the plan's tile, the grid, the launch — is
// tl-hopper-launch.cuh's.
//
// The consumer hooks (a rung's Consumer type):
//   BUFFERS                 1, or 2 when the wgmma's A operand comes from
//                           registers (rung 13): two register buffers that
//                           alternate between k-steps, so the one the
//                           in-flight wgmmas still read is never rewritten;
//   Registers               the consumer's arrays (rung 13's fragments and
//                           their offsets), declared apart from the
//                           Consumer and handed to it by reference: the
//                           compiler keeps the Consumer's pointers in
//                           registers from the start, the arrays once their
//                           loops are unrolled — in one object, the
//                           pointers would wait for the arrays and lose
//                           the knowledge that they point into shared
//                           memory (32-bit addresses);
//   fetch<B> (s)            stage s is full: find its operand tiles (the
//                           addresses the descriptors point at) and read
//                           register operands into buffer B;
//   mma<B> (d, acc)         issue the k-step's wgmmas into the
//                           accumulators d; acc false on a tile's first
//                           k-step (the first wgmma then runs with
//                           scale-d = 0, d = A·B, so d needs no zero-fill);
//   retire<B> ()            buffer B's wgmmas have completed: its
//                           registers may change from here on;
//   store (d, C, m, n, tm, tn), store_part (d, part)   the epilogues
//                           (tl_pipe_persistent only: C's tile, or a
//                           split-k slice's partial tile in shared memory).
// TlSmemOperands gives BUFFERS, Registers and retire for rungs whose
// operands both stay in shared memory.
#pragma once

#include "tl-wgmma.cuh"
#include "tl-gemm-splitk.cuh"

// ---- the ring ---------------------------------------------------------------------

// The "full" and "empty" barriers of STAGES stages (in shared memory, set
// up by tl_stage_ring_init), and what each side asks of them for k-step
// `it`, counted from the CTA's first.
template <int STAGES, int CLUSTER>
struct TlStageRing
{
  uint64_t *full, *empty;

  // Producer: wait until the consumers released this stage's previous
  // trip, announce the bytes of this one; returns the stage.
  __device__ __forceinline__ int
  acquire (int it, int bytes) const
  {
    const int s = it % STAGES;
    tl_mbar_wait (&empty[s], ((it / STAGES) & 1) ^ 1);
    tl_mbar_expect_tx (&full[s], bytes);
    return s;
  }

  // Consumer: wait until this trip's bytes have landed; returns the stage.
  __device__ __forceinline__ int
  wait (int it) const
  {
    const int s = it % STAGES;
    tl_mbar_wait (&full[s], (it / STAGES) & 1);
    return s;
  }

  // Consumer warp (one lane): k-step it's stage may be overwritten — in
  // every CTA of the cluster, whose producers all write into it.
  __device__ __forceinline__ void
  release (int it) const
  {
    tl_release_stage<CLUSTER> (&empty[it % STAGES]);
  }

  // Producer, after its last copy (`it` k-steps issued): wait until the
  // consumers of every CTA of the cluster have released the last STAGES
  // k-steps — what acquire would wait for before the next STAGES copies.
  // After that no other CTA arrives on this CTA's barriers any more, and
  // nothing is multicast into its stages either (every copy sent here
  // completed before this CTA's consumers read it), so the CTA may leave
  // without a cluster barrier at the end.  Stages never used (fewer than
  // STAGES k-steps) are in the phase "before the first": no wait.
  __device__ __forceinline__ void
  drain (int it) const
  {
    for (int i = it; i < it + STAGES; i++)
      tl_mbar_wait (&empty[i % STAGES], ((i / STAGES) & 1) ^ 1);
  }
};

// ---- one tile's k-steps -------------------------------------------------------------

// The producer thread's loop over k-steps [kt0, kt1) of one tile; `it`
// carries on from the previous tile.  load (s, bar, kt) issues the TMA
// copies of k-step kt into stage s, completing on `bar`.
template <int STAGES, int CLUSTER, typename Load>
__device__ __forceinline__ void
tl_pipe_produce (const TlStageRing<STAGES, CLUSTER> &ring, int &it, int kt0, int kt1, int bytes,
                 Load load)
{
  for (int kt = kt0; kt < kt1; kt++, it++)
    {
      const int s = ring.acquire (it, bytes);
      load (s, &ring.full[s], kt);
    }
}

// Both operands in shared memory: no register operands to keep alive.
struct TlSmemOperands
{
  static constexpr int BUFFERS = 1;
  struct Registers
  {
  };

  template <int B>
  __device__ __forceinline__ void
  retire ()
  {
  }
};

// One consumer k-step: wait for the stage, multiply it, keep its wgmmas in
// flight, and hand the previous k-step's stage back.  The accumulator
// fences keep the compiler from moving ordinary writes of d into the
// asynchronous window (tl_fence_acc).
template <int B, int STAGES, int CLUSTER, int ACC, typename Consumer>
__device__ __forceinline__ void
tl_pipe_kstep (const TlStageRing<STAGES, CLUSTER> &ring, Consumer &c, float (&d)[ACC], int &it,
               int kt, int kt0)
{
  const int s = ring.wait (it);
  c.template fetch<B> (s);
  tl_fence_acc (d);
  tl_wgmma_fence ();
  c.template mma<B> (d, kt > kt0);
  tl_wgmma_commit ();
  tl_fence_acc (d);
  tl_wgmma_wait<1> ();          // the previous k-step's wgmmas are done …
  c.template retire<B ^ 1> ();  // … so are their register operands …
  if (kt > kt0 && threadIdx.x % 32 == 0)
    ring.release (it - 1);      // … and their stage (one lane per warp)
  it++;
}

// A consumer warpgroup's loop over k-steps [kt0, kt1) of one tile, then
// the drain: every wgmma complete, d final.  The last stage is still held
// (the caller releases it, or — one tile per CTA — need not).  With two
// register buffers the loop is unrolled by two, so each k-step's buffer
// is a compile-time choice and both stay in registers.
template <int STAGES, int CLUSTER, int ACC, typename Consumer>
__device__ __forceinline__ void
tl_pipe_mainloop (const TlStageRing<STAGES, CLUSTER> &ring, Consumer &c, float (&d)[ACC], int &it,
                  int kt0, int kt1)
{
  if constexpr (Consumer::BUFFERS == 2)
    {
      int kt = kt0;
      for (; kt + 1 < kt1; kt += 2)
        {
          tl_pipe_kstep<0> (ring, c, d, it, kt, kt0);
          tl_pipe_kstep<1> (ring, c, d, it, kt + 1, kt0);
        }
      if (kt < kt1)
        tl_pipe_kstep<0> (ring, c, d, it, kt, kt0);
    }
  else
    for (int kt = kt0; kt < kt1; kt++)
      tl_pipe_kstep<0> (ring, c, d, it, kt, kt0);
  tl_wgmma_wait<0> ();
  tl_fence_acc (d);
  c.template retire<0> ();
  c.template retire<1> ();
}

// ---- the persistent CTA (rungs 13 and 14) -------------------------------------------------

// The producer's context, what a rung's load hook reads: the two tensor
// maps, the stages (STAGE_BYTES apart from `base`, each A's tile and then,
// A_BYTES in, B's), C's size for boxes that would start outside it, and
// the CTA's rank in its cluster (which tile of a unit, which half of a
// shared operand tile).
template <int STAGE_BYTES, int A_BYTES>
struct TlPipeProducer
{
  const CUtensorMap &map_a, &map_b;
  unsigned char *base;
  int m, n;
  unsigned rank;

  __device__ __forceinline__ unsigned char *
  stage_a (int s) const
  {
    return base + s * STAGE_BYTES;
  }

  __device__ __forceinline__ unsigned char *
  stage_b (int s) const
  {
    return base + s * STAGE_BYTES + A_BYTES;
  }
};
//
// Rung is the rung's pipeline type:
//   Cfg        the tile (BM, BN, STAGES, STAGE_BYTES, CONSUMERS,
//              CONSUMER_THREADS, ACC, PART_PITCH; tl-gemm-plans.h's Tile13/14);
//   BK         the k-step, in elements;
//   A_BYTES    where B's tile starts in a stage (A's comes first);
//   load       (p, s, bar, kt, tm, tn), static: the copies of k-step kt
//              of tile (tm, tn) into stage s, completing on bar; p the
//              TlPipeProducer;
//   Consumer   built from (base, wg, tid, registers) after the register
//              move — wg the thread's warpgroup (1, 2, …), tid its index
//              in it — with the hooks listed at the top.
// The stages start at `base` (the dynamic shared memory, aligned to 1024
// for the swizzle), STAGE_BYTES apart; a split-k plan's partial tile
// reuses them once the last k-step is consumed.
//
// The CTA: warpgroup 0 produces, the others consume.  Clusters of CLUSTER
// CTAs take units of the tile schedule (tl-wgmma.cuh) round-robin; CTA
// `rank` of a cluster computes tile `rank` of the unit.  A split-k plan
// (splits > 1, CLUSTER 1) runs clusters of `splits` CTAs, one tile each,
// CTA r on the r-th slice of k, and sums their partial tiles in
// distributed shared memory (tl-gemm-splitk.cuh).  INSTR writes one
// record per tile (and slice).
template <typename Rung, int CLUSTER, bool INSTR>
__device__ __forceinline__ void
tl_pipe_persistent (const CUtensorMap &map_a, const CUtensorMap &map_b, const TlTileSchedule &sched,
                    int m, int n, int k, float *__restrict__ C, int splits, int vec_c,
                    TlGpuBlockRecord *records)
{
  using Cfg = typename Rung::Cfg;
  constexpr int BM = Cfg::BM, BN = Cfg::BN, BK = Rung::BK, STAGES = Cfg::STAGES;
  constexpr int STAGE_BYTES = Cfg::STAGE_BYTES, PART_PITCH = Cfg::PART_PITCH;
  constexpr int CONSUMERS = Cfg::CONSUMERS, CONSUMER_THREADS = Cfg::CONSUMER_THREADS;
  // The swizzle pattern repeats every 1024 bytes and the descriptors assume
  // tiles start on such a boundary, so align the dynamic buffer by hand.
  extern __shared__ __align__ (1024) unsigned char smem_raw[];
  __shared__ __align__ (8) uint64_t full[STAGES], empty[STAGES];
  const uint32_t raw = tl_smem_addr (smem_raw);
  unsigned char *base = smem_raw + (((raw + 1023) & ~1023u) - raw);
  const TlStageRing<STAGES, CLUSTER> ring = { full, empty };

  const int wg = threadIdx.x / 128, tid = threadIdx.x % 128;
  const unsigned rank = CLUSTER > 1 ? tl_cluster_rank () : 0;
  const int group = CLUSTER > 1 ? CLUSTER : splits;   // CTAs per cluster
  const int cluster_id = blockIdx.x / group, clusters = gridDim.x / group;
  const int split = splits > 1 ? (int) (blockIdx.x % splits) : 0;
  int kt0, kt1;   // this CTA's k-steps
  tl_splitk_range ((k + BK - 1) / BK, split, splits, &kt0, &kt1);
  if (INSTR && splits > 1)
    records += split * sched.tiles_m * sched.tiles_n;   // a slice's records follow the last's

  tl_stage_ring_init<STAGES, CLUSTER> (full, empty, CLUSTER * CONSUMERS * 4);

  if (wg == 0)
    {
      // Producer.  `it` counts k-steps over all of this CTA's tiles.
      if (Cfg::ACC == 128)   // the largest tiles: the consumers need 232 registers
        tl_setmaxnreg_dec<40> ();
      // The copy engine reads a map's 128 bytes from memory the first
      // time it is used; fetch them now, in the shadow of the setup.
      if (tid == 0)
        {
          tl_tma_prefetch_map (&map_a);
          tl_tma_prefetch_map (&map_b);
        }
      __syncwarp ();
      if (CLUSTER > 1)
        tl_cluster_wait ();   // the partner's barriers are ready for its multicast
      if (tid == 0)
        {
          const TlPipeProducer<STAGE_BYTES, Rung::A_BYTES> producer{ map_a, map_b, base, m, n, rank };
          int it = 0;
          for (int u = cluster_id; u < sched.units; u += clusters)
            {
              int tm, tn;
              sched.tile_of (u, rank, &tm, &tn);
              tl_pipe_produce (ring, it, kt0, kt1, STAGE_BYTES, [&] (int s, uint64_t *bar, int kt) {
                Rung::load (producer, s, bar, kt, tm, tn);
              });
            }
          if (CLUSTER > 1)
            ring.drain (it);   // in place of a cluster barrier at the end
        }
      tl_splitk_producers_sync (splits);   // the producers' part in the split-k sum
    }
  else
    {
      if (Cfg::ACC == 128)
        tl_setmaxnreg_inc<232> ();
      const int lane = tid % 32;
      typename Rung::Consumer::Registers registers;
      typename Rung::Consumer consumer (base, wg, tid, registers);
      if (CLUSTER > 1)
        tl_cluster_wait ();   // before the first release on the partner's barriers
      float d[Cfg::ACC];
      int it = 0;
      for (int u = cluster_id; u < sched.units; u += clusters)
        {
          int tm, tn;
          const bool mine = sched.tile_of (u, rank, &tm, &tn);
          if (INSTR && mine && threadIdx.x == 128)
            tl_tile_record_begin (records, sched, tm, tn);
          tl_pipe_mainloop (ring, consumer, d, it, kt0, kt1);
          if (kt1 > kt0 && lane == 0)
            ring.release (it - 1);
          tl_splitk_zero_if_empty (d, kt1 == kt0);
          if (splits > 1)
            {
              // Every consumer warpgroup is past its last wgmma: the
              // partial tile may overwrite the stages; then the cluster
              // sums the slices (tl-gemm-splitk.cuh).
              float *part = reinterpret_cast<float *> (base);
              tl_splitk_consumers_publish<CONSUMER_THREADS> ([&] { consumer.store_part (d, part); });
              tl_splitk_sum<float> (part, PART_PITCH, BM, BN, splits, split, C, m, n, tm * BM,
                                    tn * BN, vec_c != 0, threadIdx.x - 128, CONSUMER_THREADS);
            }
          else if (mine)
            consumer.store (d, C, m, n, tm, tn);
          if (INSTR)
            {
              asm volatile ("bar.sync 1, %0;\n" ::"n"(CONSUMER_THREADS) : "memory");  // every consumer
              if (mine && threadIdx.x == 128)
                tl_tile_record_end (records, sched, tm, tn, split);
            }
        }
      tl_splitk_leave (splits);
    }
  // No cluster barrier here: the producer's drain already waited for the
  // last arrival any other CTA makes on this one, and a thread that has
  // stored its part of C leaves at once, without waiting (in a release
  // barrier) for those stores to be performed, nor for the partner CTA.
}
