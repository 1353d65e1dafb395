// tl-block-timer.cuh — per-block timing for instrumented kernel variants.
//
// Every instrumented kernel brackets its work with tl_block_begin() and
// tl_block_end() (the clocks and the writes are tl-block-clock.cuh's,
// shared with the marks of a user's kernel in tilelab.cuh).  Thread 0
// reads %globaltimer — a nanosecond clock shared by all SMs, unlike
// clock64() which is per SM — as soon as it runs
// ("start": the block has been placed on an SM and its first warp is
// running), and again after a barrier at the end ("end": every thread of
// the block is done).  It also records %smid, the SM the block ran on.
// The host subtracts the earliest start, so the records of a launch share
// one time origin.
//
// The cost: one barrier and two 64-bit timer reads per block, and one
// 32-byte record written by one thread; nothing of it is kept in registers
// across the kernel's main loop (tl_block_slot).  There is no barrier at
// the start: the warps of a block start within a few cycles of each other,
// so thread 0's clock at entry is the block's start, and a barrier there
// would line up the warps of a block that runs unbarriered (rung 2's 32),
// which changes its timing (docs/perf has the numbers).
//
// What the timer cannot control is how the compiler schedules a kernel
// that has extra code around its loop: rungs 12, 15 and 16 therefore use
// one kernel for both runs (records == nullptr when timed), and rung 2
// calls its multiply as a not-inlined function
// (docs/perf/gemm-cuda-cores-fp64-h100-2026-11-24.md).
#pragma once

#include "tl-gpu.h"
#include "tl-block-clock.cuh"

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
  tl_block_clock_start (const_cast<TlGpuBlockRecord *> (records));
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
    tl_block_clock_stop (records, launch, tl_block_slot (), blockIdx.x, blockIdx.y);
}

// The end of the record, written by one thread once every thread whose
// work the record covers is done (the caller's barrier says which):
// the end time, the C tile `tile_x, tile_y` the block computed, its SM
// and the launch, in the slot where tl_block_begin wrote the start.
__device__ __forceinline__ void
tl_block_record_end (TlGpuBlockRecord *records, unsigned int launch, unsigned int slot,
                     unsigned int tile_x, unsigned int tile_y)
{
  tl_block_clock_stop (records, launch, slot, tile_x, tile_y);
}

// The end without a barrier.  tl_block_end lines every warp up at one more
// __syncthreads than the plain kernel has, and warps that finished their
// stores early wait there for the slowest (rung 10: +2.5…3.1%).  Here
// each warp, once done, counts itself in a __shared__ counter, and the warp
// that completes the count writes the end.  tl_block_begin_counting zeroes
// the counter; the kernel must pass a __syncthreads between the two (its
// main loop has them).
__device__ __forceinline__ unsigned long long
tl_block_begin_counting (const TlGpuBlockRecord *records, unsigned int *warps_done)
{
  if (records != nullptr && threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0)
    *warps_done = 0;
  return tl_block_begin (records);
}

__device__ __forceinline__ void
tl_block_end_counted (TlGpuBlockRecord *records, unsigned int *warps_done, unsigned int launch)
{
  if (records == nullptr)
    return;
  const unsigned int tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned int warps = (blockDim.x * blockDim.y * blockDim.z + 31) / 32;
  __syncwarp ();
  if (tid % 32 == 0 && atomicAdd (warps_done, 1u) == warps - 1)
    tl_block_record_end (records, launch, tl_block_slot (), blockIdx.x, blockIdx.y);
}

// Like tl_block_end, for launches whose blocks do not map one-to-one onto
// blockIdx (the margin kernel of rung 5 walks a 1-D grid over the edge
// tiles of C): records `tile_x, tile_y` — the C tile the block computed.
// `slot` must be the block's linear index, where tl_block_begin wrote the
// start.  (A warp-specialised kernel ends its record at a barrier over its
// consumer warps instead: rung 17.)
__device__ __forceinline__ void
tl_block_end_tile (TlGpuBlockRecord *records, unsigned long long start, unsigned int launch,
                   unsigned int slot, unsigned int tile_x, unsigned int tile_y)
{
  if (records == nullptr)
    return;
  __syncthreads ();
  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0)
    tl_block_record_end (records, launch, slot, tile_x, tile_y);
}
