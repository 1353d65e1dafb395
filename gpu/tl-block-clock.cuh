// tl-block-clock.cuh — the clocks and the two writes of per-block timing.
//
// One block's record is four 32-bit words (the C tile it computed, its SM,
// which launch) and two 64-bit %globaltimer readings.  The ladder's
// instrumented variants (tl-block-timer.cuh) and the marks a student puts
// into their own kernel (tilelab.cuh, compiled by NVRTC) both write it
// through the two functions here, so a user kernel's records are the
// ladder's, byte for byte.  Self-contained on purpose: NVRTC gets this
// file as an in-memory header and has no standard headers to include.
//
// %globaltimer is a nanosecond clock shared by all SMs (clock64() counts
// one SM's cycles); %smid names the SM the block runs on.
#pragma once

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

// The block's record slot: its linear index in the grid.  The block and
// grid indices are read with asm volatile, at the start and again at the
// end, so that the compiler cannot compute the record's address once and
// keep it in two registers across the kernel's main loop.
__device__ __forceinline__ unsigned int
tl_block_slot ()
{
  unsigned int x, y, z, nx, ny;
  asm volatile ("mov.u32 %0, %%ctaid.x;" : "=r"(x));
  asm volatile ("mov.u32 %0, %%ctaid.y;" : "=r"(y));
  asm volatile ("mov.u32 %0, %%ctaid.z;" : "=r"(z));
  asm volatile ("mov.u32 %0, %%nctaid.x;" : "=r"(nx));
  asm volatile ("mov.u32 %0, %%nctaid.y;" : "=r"(ny));
  return (z * ny + y) * nx + x;
}

// The start: thread 0 writes the time straight into the block's slot
// instead of keeping it in a register across the kernel (a value live
// across the main loop costs every thread a register, and a different
// register budget is a different kernel).
template <typename Record>
__device__ __forceinline__ void
tl_block_clock_start (Record *records)
{
  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0)
    records[tl_block_slot ()].start_ns = tl_globaltimer_ns ();
}

// The end, written by one thread once every thread whose work the record
// covers is done (the caller's barrier says which): the end time, the C
// tile `tile_x, tile_y` the block computed, its SM and the launch, in the
// slot where tl_block_clock_start wrote the start.
template <typename Record>
__device__ __forceinline__ void
tl_block_clock_stop (Record *records, unsigned int launch, unsigned int slot,
                     unsigned int tile_x, unsigned int tile_y)
{
  unsigned long long end = tl_globaltimer_ns ();
  Record *r = records + slot;
  r->block_x = tile_x;
  r->block_y = tile_y;
  r->sm = tl_smid ();
  r->launch = launch;
  r->end_ns = end; // start_ns was written by tl_block_clock_start into the same slot
}
