// gemm-04-smem32.cu — rung 4: shared-memory tiles 32×32, zero-padded edges.
//
// What changed from rung 3: tiles of 32×32 (1024 threads per block, the
// most CUDA allows) instead of 16×16.  Nothing else: it is rung 3's kernel
// (gemm_smem_tiles_kernel, tl-gemm-smem-tiles.cuh) with TILE = 32.
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
#include "tl-gemm-smem-tiles.cuh"

using Launch04 = TlSmemTiles<32>;

extern const TlGemmRung gemm_04_smem32_rung = {
  "gemm-04-smem32", tl_simple_launch<Launch04>, tl_simple_shape<Launch04>,
  nullptr, nullptr, nullptr,
};
