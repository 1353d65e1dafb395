// tl-block-timer.cuh — per-block timing for instrumented kernel variants.
//
// Every instrumented kernel brackets its work with tl_block_begin() and
// tl_block_end().  Thread 0 reads %globaltimer — a nanosecond clock shared
// by all SMs, unlike clock64() which is per SM — as soon as it runs
// ("start": the block has been placed on an SM and its first warp is
// running), and again after a barrier at the end ("end": every thread of
// the block is done).  It also records %smid, the SM the block ran on.
// The host subtracts the earliest start, so the records of a launch share
// one time origin.
//
// The cost: one barrier and two 64-bit timer reads per block, and one
// 32-byte record written by one thread.  There is deliberately no barrier
// at the start.  A first version had one, and it cost rung 2 (no barrier
// of its own; 32 warps of a block read the same row of B, step by step) 8%
// in float32 and 31% in float64 at 4096³: lined up by the barrier, all 32
// warps miss in L1 on the same line of B at the same moment instead of the
// first one's miss serving the others.  The warps of a block start within
// a few cycles of each other anyway, so thread 0's clock at entry is the
// block's start.  The barrier at the end costs nothing of the kind: a
// block's resources are freed only when its last warp is done.
#pragma once

#include "tl-gpu.h"

__device__ __forceinline__ unsigned long long
tl_globaltimer_ns ()
{
  unsigned long long t;
  asm volatile ("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ __forceinline__ unsigned int
tl_smid ()
{
  unsigned int id;
  asm volatile ("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}

// Thread 0 writes the start time straight into the block's record (slot =
// its linear index in the grid) instead of keeping it in a register for
// the whole kernel: a value live across the main loop would cost every
// thread registers, and a kernel whose instrumented variant gets a
// different register budget runs at a different occupancy — the overhead
// would then measure the compiler, not the timer.  Returns 0; the value is
// accepted by tl_block_end for compatibility and ignored.  Only when the
// kernel is instrumented (records != nullptr) does it cost anything.
__device__ __forceinline__ unsigned long long
tl_block_begin (const TlGpuBlockRecord *records)
{
  if (records == nullptr)
    return 0;
  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0)
    {
      TlGpuBlockRecord *r = const_cast<TlGpuBlockRecord *> (records)
                            + (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
      r->start_ns = tl_globaltimer_ns ();
    }
  return 0;
}

// launch: which launch of a multi-launch rung this is.  The record slot is
// the block's linear index in its grid; the launcher offsets `records` per
// launch.
__device__ __forceinline__ void
tl_block_end (TlGpuBlockRecord *records, unsigned long long start, unsigned int launch)
{
  if (records == nullptr)
    return;
  __syncthreads ();
  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0)
    {
      unsigned long long end = tl_globaltimer_ns ();
      TlGpuBlockRecord *r = records + (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
      r->block_x = blockIdx.x;
      r->block_y = blockIdx.y;
      r->sm = tl_smid ();
      r->launch = launch;
      r->end_ns = end; // start_ns was written by tl_block_begin
    }
}

// Like tl_block_end, for launches whose blocks do not map one-to-one onto
// blockIdx (the margin kernel of rung 5 walks a 1-D grid over the edge
// tiles of C): records `tile_x, tile_y` — the C tile the block computed.
// `slot` must be the block's linear index, where tl_block_begin wrote the
// start.
__device__ __forceinline__ void
tl_block_end_tile (TlGpuBlockRecord *records, unsigned long long start, unsigned int launch,
                   unsigned int slot, unsigned int tile_x, unsigned int tile_y)
{
  if (records == nullptr)
    return;
  __syncthreads ();
  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0)
    {
      unsigned long long end = tl_globaltimer_ns ();
      TlGpuBlockRecord *r = records + slot;
      r->block_x = tile_x;
      r->block_y = tile_y;
      r->sm = tl_smid ();
      r->launch = launch;
      r->end_ns = end; // start_ns was written by tl_block_begin into the same slot
    }
}

// Like tl_block_end, without the barrier, for kernels that have none of
// their own (rung 2): the last warp of the block to finish writes the
// record.  Each warp's lane 0 counts itself done in the record's `launch`
// field, which the harness fills with all-ones before every instrumented
// launch (so the first warp's increment wraps it to 0); the warp whose
// increment completes the count knows every other warp is done, reads the
// clock and writes the record.  Costs one atomic per warp instead of a
// block-wide barrier.
__device__ __forceinline__ void
tl_block_end_last_warp (TlGpuBlockRecord *records, unsigned int launch)
{
  if (records == nullptr)
    return;
  __syncwarp ();
  const unsigned int tid = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  if (tid % 32 != 0)
    return;
  const unsigned int warps = (blockDim.x * blockDim.y * blockDim.z + 31) / 32;
  TlGpuBlockRecord *r = records + (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  if (atomicAdd (&r->launch, 1u) + 1u != warps - 1)
    return;
  r->end_ns = tl_globaltimer_ns ();
  r->block_x = blockIdx.x;
  r->block_y = blockIdx.y;
  r->sm = tl_smid ();
  r->launch = launch;
}
