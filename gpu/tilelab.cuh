// tilelab.cuh — what Tilelab gives your own GEMM kernel.
//
// A kernel file is a .cu with one __global__ entry per element type it
// takes, each with the ladder's GEMM signature:
//
//   __global__ void NAME (int m, int n, int k, const T *A, const T *B, T *C)
//
// C = A·B with A m×k, B k×n and C m×n, all row-major and contiguous, any
// sizes (1000×777×1111 too).  Beside the code, comment lines that start
// with "// tilelab:" declare the entries and the launch geometry:
//
//   // tilelab: float32 = my_gemm<float>        the entry for each type it
//   // tilelab: float64 = my_gemm<double>       takes (int32 too); a plain
//   // tilelab: block   = 16, 16                name or a template's
//   // tilelab: grid    = ceil_div(n, 16), ceil_div(m, 16)
//   // tilelab: shared  = 0                     dynamic shared memory, bytes
//   // tilelab: tile    = 16, 16                the C tile one block computes
//                                               (rows, columns; optional)
//
// block, grid and shared are integer expressions of m, n, k and elem (the
// element's size in bytes): + − * / %, parentheses, ceil_div(a, b),
// min(a, b), max(a, b).  docs/your-kernel.md walks through a whole file;
// `tilelab-cli kernel new` writes one to start from.
//
// Per-block timing: put TILELAB_BLOCK_BEGIN() first in the kernel and
// TILELAB_BLOCK_END() last, where every thread of the block passes (it
// holds a barrier: not after an early return).  In the timed run each
// block then records when it started and ended and on which SM, the same
// records as the ladder's instrumented rungs, drawn on the Blocks page.
// In every other run the marks compile to nothing, so the timings are your
// kernel's alone.  The records assume blockIdx.x walks C's columns and
// blockIdx.y its rows; a kernel whose blocks map otherwise ends with
// TILELAB_BLOCK_END_TILE(tile_x, tile_y): the column and row of the C tile
// it computed, in tiles.
#pragma once

#include "tl-block-clock.cuh"

// One block's record: the layout of the ladder's TlGpuBlockRecord.
struct tilelab_block_record
{
  unsigned int block_x, block_y; // the C tile: column, row (in tiles)
  unsigned int sm;               // the SM it ran on
  unsigned int launch;           // always 0: one launch per multiply
  unsigned long long start_ns, end_ns;
};

#ifdef TILELAB_TIMED
// Set by Tilelab before the timed launch: one record per block.
extern "C" {
__device__ tilelab_block_record *tilelab_block_records;
}

#define TILELAB_BLOCK_BEGIN() tl_block_clock_start (tilelab_block_records)
#define TILELAB_BLOCK_END_TILE(tile_x, tile_y)                                                   \
  do                                                                                             \
    {                                                                                            \
      __syncthreads ();                                                                          \
      if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0)                              \
        tl_block_clock_stop (tilelab_block_records, 0u, tl_block_slot (), (tile_x), (tile_y));   \
    }                                                                                            \
  while (0)
#else
#define TILELAB_BLOCK_BEGIN() ((void) 0)
#define TILELAB_BLOCK_END_TILE(tile_x, tile_y) ((void) 0)
#endif

#define TILELAB_BLOCK_END() TILELAB_BLOCK_END_TILE (blockIdx.x, blockIdx.y)
