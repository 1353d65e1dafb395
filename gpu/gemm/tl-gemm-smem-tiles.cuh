// tl-gemm-smem-tiles.cuh — the kernel of rungs 3 and 4: C in TILE×TILE
// tiles, A and B staged through shared memory.  CUDA C++, internal to
// gpu/gemm/.  Rung 3 runs it with TILE 16, rung 4 with TILE 32; their
// files say what each size changes.
//
// A block of TILE×TILE threads computes one TILE×TILE tile of C, one
// thread per element, in ⌈k/TILE⌉ rounds.  In each round:
//
//     As[ty][tx] = a[row][t + tx];           every thread copies one element
//     Bs[ty][tx] = b[t + ty][col];           of A's tile and one of B's
//     __syncthreads ();                      the whole tile is loaded …
//     for p < TILE: sum += As[ty][p] · Bs[p][tx];
//     __syncthreads ();                      … and read, before the next round
//
// Every element loaded from global memory is read by TILE threads out of
// shared memory, which is on the SM: global traffic drops TILE-fold against
// rung 2.  The copies are coalesced: tx walks along a row of A and along a
// row of B.  The first barrier makes sure the whole tile is in shared
// memory before anyone reads it, the second that everyone has finished
// reading before the next round overwrites it.
//
// Any m, n, k ≥ 1: loads outside A or B put zeros into the tiles (zeros
// add nothing to the sums) and stores outside C are skipped.
//
// Shapes: A m×k, B k×n, C m×n row-major.  Block TILE×TILE threads, grid
// ⌈n/TILE⌉ × ⌈m/TILE⌉ (x over columns).
#pragma once

#include "tl-gemm-simple.cuh"

// Launch bounds: TILE² threads, and enough blocks to fill the SM's 2048
// threads, so both tile sizes get the same register budget (≤ 32).
template <typename T, int TILE, bool INSTR>
__global__ void __launch_bounds__ (TILE * TILE, 2048 / (TILE * TILE))
gemm_smem_tiles_kernel (int m, int n, int k, const T *a, const T *b, T *c,
                        TlGpuBlockRecord *records)
{
  unsigned long long t0 = 0;
  if (INSTR)
    t0 = tl_block_begin (records);

  // user-template: begin smem-tiles-body (gpu/user/gemm-03-smem16.cu)
  __shared__ T As[TILE][TILE]; // tile of A: rows of this block, TILE columns of k
  __shared__ T Bs[TILE][TILE]; // tile of B: TILE rows of k, columns of this block

  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty;
  const int col = blockIdx.x * TILE + tx;

  T sum = 0;
  for (int t = 0; t < k; t += TILE)
    {
      // Coalesced: tx walks along a row of A and along a row of B.
      As[ty][tx] = (row < m && t + tx < k) ? a[row * k + t + tx] : T (0);
      Bs[ty][tx] = (t + ty < k && col < n) ? b[(t + ty) * n + col] : T (0);
      __syncthreads ();

#pragma unroll
      for (int p = 0; p < TILE; p++)
        sum += As[ty][p] * Bs[p][tx];
      __syncthreads ();
    }
  if (row < m && col < n)
    c[row * n + col] = sum;
  // user-template: end smem-tiles-body

  if (INSTR)
    tl_block_end (records, t0, 0);
}

// The launch (tl-gemm-simple.cuh): one block of TILE×TILE threads per tile.
template <int TILE>
struct TlSmemTiles
{
  template <typename T, bool INSTR>
  static TlSimpleKernel<T> kernel ()
  {
    return gemm_smem_tiles_kernel<T, TILE, INSTR>;
  }
  static dim3 block () { return dim3 (TILE, TILE); }
  static dim3 grid (const TlGemmLaunch *l)
  {
    return dim3 (tl_ceil_div (l->n, TILE), tl_ceil_div (l->m, TILE));
  }
};
