// gemm-04-smem32.cu — rung 4: shared-memory tiles 32×32, zero-padded edges.
//
// What changed from rung 3: tiles of 32×32 (1024 threads per block, the
// most CUDA allows) instead of 16×16.
//
// Bottleneck attacked: still global-memory traffic.  Each element staged in
// shared memory now serves 32 threads instead of 16, halving global loads
// per FMA, and half as many barriers per FMA.  The price: a block of 1024
// threads is a big scheduling unit — at most 2 fit on an SM (2048 threads),
// and the last wave of blocks can leave SMs idle (see the SM timeline).
// From: seed 002's `multiplyTiled` (32×32 `mShared`/`nShared`, the edge
// zero-padding `if (... < commonDim && row < mHeight) ... else = 0`).  Two
// things differ from the seed, both visible in its code: it maps the ROW
// to threadIdx.x (rung 1's uncoalesced mapping, kept for the tiles too),
// and it loops `p <= commonDim/tileWidth`, one round too many when 32 | k.
// Here threadIdx.x walks columns and there are exactly ⌈k/32⌉ rounds.
//
// Banks: Bs[p][tx] — 32 neighbouring 4-byte words across a warp, one per
// bank; As[ty][p] — one word for the whole warp, a broadcast.  For float64
// a warp's Bs read is 256 bytes, two wavefronts: unavoidable, not a
// conflict.
//
// Shapes: A m×k, B k×n, C m×n row-major.  Block 32×32 threads, grid
// ⌈n/32⌉ × ⌈m/32⌉, ⌈k/32⌉ rounds.  Any m, n, k ≥ 1.
#include "tl-gemm-common.cuh"

// Launch bounds: TILE² threads, and enough blocks to fill the SM's 2048
// threads, so both variants get the same register budget (≤ 32).
template <typename T, int TILE, bool INSTR>
__global__ void __launch_bounds__ (TILE * TILE, 2048 / (TILE * TILE))
gemm_04_smem32_kernel (int m, int n, int k, const T *a, const T *b, T *c,
                       TlGpuBlockRecord *records)
{
  __shared__ T As[TILE][TILE];
  __shared__ T Bs[TILE][TILE];

  unsigned long long t0 = 0;
  if (INSTR)
    t0 = tl_block_begin (records);

  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty;
  const int col = blockIdx.x * TILE + tx;

  T sum = 0;
  const int rounds = (k + TILE - 1) / TILE;
  for (int r = 0; r < rounds; r++)
    {
      const int kk = r * TILE;
      // Zero padding: outside A or B the tile holds 0, which adds nothing.
      As[ty][tx] = (row < m && kk + tx < k) ? a[row * k + kk + tx] : T (0);
      Bs[ty][tx] = (kk + ty < k && col < n) ? b[(kk + ty) * n + col] : T (0);
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

enum { TILE_04 = 32 };
static const dim3 block_04 (TILE_04, TILE_04);

static dim3
grid_04 (const TlGemmLaunch *l)
{
  return dim3 (tl_ceil_div (l->n, TILE_04), tl_ceil_div (l->m, TILE_04));
}

template <typename T>
static cudaError_t
launch_t (const TlGemmLaunch *l)
{
  const T *a = (const T *) l->a, *b = (const T *) l->b;
  T *c = (T *) l->c;
  if (l->blocks != nullptr)
    gemm_04_smem32_kernel<T, TILE_04, true><<<grid_04 (l), block_04, 0, l->stream>>> (
      l->m, l->n, l->k, a, b, c, l->blocks);
  else
    gemm_04_smem32_kernel<T, TILE_04, false><<<grid_04 (l), block_04, 0, l->stream>>> (
      l->m, l->n, l->k, a, b, c, nullptr);
  return cudaGetLastError ();
}

template <typename T>
static const void *
kernel_t (const TlGemmLaunch *)
{
  return (const void *) gemm_04_smem32_kernel<T, TILE_04, false>;
}

static cudaError_t
gemm_04_smem32_launch (const TlGemmLaunch *l)
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
gemm_04_smem32_shape (const TlGemmLaunch *l, TlGemmShape *out)
{
  tl_gemm_shape_one (out, kernel_for (l), grid_04 (l), block_04, 0);
}

extern const TlGemmRung gemm_04_smem32_rung = {
  "gemm-04-smem32", gemm_04_smem32_launch, gemm_04_smem32_shape, nullptr, nullptr, nullptr,
};
