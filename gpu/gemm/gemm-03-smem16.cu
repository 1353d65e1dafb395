// gemm-03-smem16.cu — rung 3: shared-memory tiles, 16×16.
//
// What changed from rung 2: a block of 16×16 threads computes a 16×16 tile
// of C in rounds.  In each round the block copies a 16×16 tile of A and one
// of B into shared memory (every thread copies one element of each), waits
// at a barrier, and then every thread runs 16 FMAs out of shared memory.
//
// Bottleneck attacked: global-memory traffic.  In rung 2 every FMA needed
// two global loads; here each element loaded from global memory is used by
// 16 threads, so global traffic drops 16-fold and the FMAs are fed by
// shared memory, which is on the SM.  Arithmetic intensity: 16 FMAs per
// 2 loads per thread and round.
// From: seeds 000 and 001 (`__shared__ Real ablock[BLOCK_SIZE][BLOCK_SIZE]`,
// BLOCK_SIZE 16, "16×16 Blöcke mit 256 Threads").  The seeds assume 16 | N;
// this rung takes any m, n, k: loads outside A or B put zeros into the
// tiles (zeros add nothing to the sums) and stores outside C are skipped.
//
// Why the barriers: the first makes sure the whole tile is loaded before
// anyone reads it, the second that everyone finished reading before the
// next round overwrites it.
//
// Shared-memory banks: As[ty][p] is the same address for a whole half-row
// of the block (a broadcast); Bs[p][tx] are 16 neighbouring words — no
// conflicts.
//
// Shapes: A m×k, B k×n, C m×n row-major.  Block 16×16 threads, grid
// ⌈n/16⌉ × ⌈m/16⌉, ⌈k/16⌉ rounds.  Any m, n, k ≥ 1.
#include "tl-gemm-common.cuh"

// Launch bounds: TILE² threads, and enough blocks to fill the SM's 2048
// threads, so both variants get the same register budget (≤ 32).
template <typename T, int TILE, bool INSTR>
__global__ void __launch_bounds__ (TILE * TILE, 2048 / (TILE * TILE))
gemm_03_smem16_kernel (int m, int n, int k, const T *a, const T *b, T *c,
                       TlGpuBlockRecord *records)
{
  __shared__ T As[TILE][TILE]; // tile of A: rows of this block, TILE columns of k
  __shared__ T Bs[TILE][TILE]; // tile of B: TILE rows of k, columns of this block

  unsigned long long t0 = 0;
  if (INSTR)
    t0 = tl_block_begin (records);

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

  if (INSTR)
    tl_block_end (records, t0, 0);
}

enum { TILE_03 = 16 };
static const dim3 block_03 (TILE_03, TILE_03);

static dim3
grid_03 (const TlGemmLaunch *l)
{
  return dim3 (tl_ceil_div (l->n, TILE_03), tl_ceil_div (l->m, TILE_03));
}

template <typename T>
static cudaError_t
launch_t (const TlGemmLaunch *l)
{
  const T *a = (const T *) l->a, *b = (const T *) l->b;
  T *c = (T *) l->c;
  if (l->blocks != nullptr)
    gemm_03_smem16_kernel<T, TILE_03, true><<<grid_03 (l), block_03, 0, l->stream>>> (
      l->m, l->n, l->k, a, b, c, l->blocks);
  else
    gemm_03_smem16_kernel<T, TILE_03, false><<<grid_03 (l), block_03, 0, l->stream>>> (
      l->m, l->n, l->k, a, b, c, nullptr);
  return cudaGetLastError ();
}

template <typename T>
static const void *
kernel_t (const TlGemmLaunch *)
{
  return (const void *) gemm_03_smem16_kernel<T, TILE_03, false>;
}

static cudaError_t
gemm_03_smem16_launch (const TlGemmLaunch *l)
{
  TL_GEMM_DISPATCH (launch_t, l);
  return cudaErrorInvalidValue;
}

static const void *
kernel_for (const TlGemmLaunch *l)
{
  TL_GEMM_DISPATCH (kernel_t, l);
  return nullptr;
}

static void
gemm_03_smem16_shape (const TlGemmLaunch *l, TlGemmShape *out)
{
  tl_gemm_shape_one (out, kernel_for (l), grid_03 (l), block_03, 0);
}

extern const TlGemmRung gemm_03_smem16_rung = {
  "gemm-03-smem16", gemm_03_smem16_launch, gemm_03_smem16_shape, nullptr, nullptr, nullptr,
};
