// gemm-16-doublebuf.cu — rung 16: rung 8, double-buffered, with a warp
// layout made for 16-byte shared loads, and a tile chosen per problem.
//
// What changed from rung 8 (the kernel is in tl-gemm-simt.cuh, shared with
// rung 12, which runs the same code in float64):
//   1. two shared-memory buffers: one barrier per k-tile instead of two;
//   2. the A/B operands of k-step p+1 are loaded while step p multiplies
//      (register double-buffering), so no FMA waits for shared memory;
//   3. each warp is 4 × 8 lanes over a 32 × 64 warp tile, so one LDS.128
//      of B reads 128 contiguous bytes and one of A 64 bytes shared by 8
//      lanes each;
//   4. a plan: 128×128 tiles (rung 8's: 8×8 per thread, 128 registers,
//      two blocks of 256 threads per SM) when they give every SM a block,
//      64×64 tiles (4×8 per thread, four blocks of 128 threads per SM)
//      when they would not — 1024³ is 64 tiles of 128×128 for 132 SMs,
//      256 of 64×64.  The cost model of the planned rungs picks
//      (gpu/tl-gpu-plan.c, tiles in tl-gemm-plans.h); `--plan` pins one.
//
// What double buffering buys, and what it costs.  Rung 8 was never waiting
// long for barriers or shared memory: ncu shows both kernels issuing an
// instruction on three cycles of four, most of them FFMAs, with the stalls
// "not selected" (another warp issued) and "dispatch" (register-operand
// collection).  What decides between them is how many other instructions
// surround the 512 FFMAs of a k-tile.  With the buffer picked at run time
// (kt & 1) every fragment load recomputed its address: 78 of them against
// rung 8's 54, and this rung ran 2–9% behind rung 8 from 2048³ up.  Now the
// loop runs two k-tiles per turn, one from each buffer, so every shared
// address is a base plus a constant — and the rung is ahead of rung 8
// wherever the 64×64 plan runs and at 3000×2000×2500, still 2–5% behind it
// at 2048³ and 4096³ (docs/perf/gemm-simt-h200-2026-11-29.md says what was
// measured; docs/perf/gemm-h200-2026-11-29-night.md, what did not close the
// gap: one block per SM with more registers, BK = 16, the global loads
// pinned in PTX — ptxas still places them half way through the k-tile).
// cuBLAS's SGEMM is hand-scheduled at that level; CUDA C++ leaves the
// schedule and the registers to ptxas.
//
// From: no seed.  The structure is the classic SIMT SGEMM of cuBLAS's
// pre-tensor-core kernels and CUTLASS's "SIMT" path (128×128×8, 8×8 per
// thread, double-buffered shared memory).
//
// Shapes: A m×k, B k×n, C m×n row-major, float32.  128×128: block 256
// threads (8 warps: 4 along m × 2 along n); 64×64: block 128 threads (4
// warps along m).  BK = 8.  Grid ⌈n/BN⌉ × ⌈m/BM⌉.  Any m, n, k ≥ 1 (edges:
// the guarded path).
#include "tl-gemm-simt.cuh"
#include "tl-gemm-plans.h"

// The two tiles of the plans (tl-gemm-plans.h), each with its occupancy:
// 128×128, 8×8 per thread, 256 threads at 128 registers — two blocks per SM
// fill the register file; 64×64, 4×8 per thread, 128 threads at 100
// registers — four blocks per SM.
using Tile16 = TlSimtTile<float, 128, 128, 8, 8, 8>;
using Tile16Small = TlSimtTile<float, 64, 64, 8, 4, 8>;
constexpr int MIN_BLOCKS16 = 2, MIN_BLOCKS16_SMALL = 4;

namespace {

// Calls op with the plan's tile and its occupancy (an empty plan — a
// caller that did not plan — runs the large tile).
template <typename Op>
auto
with_tile_16 (const TlGemmLaunch *l, Op op)
{
  if (l->plan.tile_m == Tile16Small::BM && l->plan.tile_n == Tile16Small::BN)
    return op (Tile16Small (), std::integral_constant<int, MIN_BLOCKS16_SMALL> ());
  return op (Tile16 (), std::integral_constant<int, MIN_BLOCKS16> ());
}

cudaError_t
launch_16 (const TlGemmLaunch *l)
{
  return with_tile_16 (l, [&] (auto tile, auto blocks) {
    return tl_simt_launch<float, decltype (tile), decltype (blocks)::value> (l);
  });
}

void
shape_16 (const TlGemmLaunch *l, TlGemmShape *out)
{
  with_tile_16 (l, [&] (auto tile, auto blocks) {
    tl_simt_shape<float, decltype (tile), decltype (blocks)::value> (l, out);
    return 0;
  });
}

cudaError_t
prepare_16 (TlGemmLaunch *l)
{
  return with_tile_16 (l, [&] (auto tile, auto blocks) {
    return tl_simt_prepare<float, decltype (tile), decltype (blocks)::value> (l);
  });
}

} // namespace

extern const TlGemmRung gemm_16_doublebuf_rung = {
  "gemm-16-doublebuf", launch_16, shape_16, tl_simt_check<float>, nullptr, prepare_16,
};
