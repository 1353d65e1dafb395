// gemm-16-doublebuf.cu — rung 16: rung 8, double-buffered, with a warp
// layout made for 16-byte shared loads.
//
// What changed from rung 8 (the kernel is in tl-gemm-simt.cuh, shared with
// rung 12, which runs the same code in float64):
//   1. two shared-memory buffers: one barrier per k-tile instead of two;
//   2. the A/B operands of k-step p+1 are loaded while step p multiplies
//      (register double-buffering), so no FMA waits for shared memory;
//   3. each warp is 4 × 8 lanes over a 32 × 64 warp tile, so one LDS.128
//      of B reads 128 contiguous bytes and one of A 64 bytes shared by 8
//      lanes each.
// It keeps rung 8's shape — 128×128 tiles, 8×8 per thread, 128 registers,
// two blocks (16 warps) per SM.
//
// What it teaches is a negative result, measured (docs/perf/
// gemm-cuda-cores-fp64-h100-2026-11-24.md): it is *not* faster than rung 8.
// Rung 8 was never waiting for barriers or shared memory.  ncu shows both
// kernels issuing an instruction on most cycles, most of them FFMAs; the
// stalls are "not selected" (another warp issued: the SM is busy) and
// "dispatch" (register-operand collection), and the shared-memory pipe is
// far from full, with the same wavefront count for both layouts.  So the
// remaining gap to cuBLAS is instruction issue: how many non-FFMA
// instructions surround the 512 FFMAs of a k-tile (this rung: 78, rung 8:
// 54 — a second buffer costs address arithmetic at 128 registers) and how
// well the compiler's register assignment feeds them.  cuBLAS's SGEMM
// is hand-scheduled at that level; CUDA C++ leaves it to ptxas (the same
// source compiled in two template instances ran measurably apart).
//
// From: no seed.  The structure is the classic SIMT SGEMM of cuBLAS's
// pre-tensor-core kernels and CUTLASS's "SIMT" path (128×128×8, 8×8 per
// thread, double-buffered shared memory).
//
// Shapes: A m×k, B k×n, C m×n row-major, float32.  Block 256 threads
// (8 warps: 4 along m × 2 along n), tile 128×128, BK = 8, 8×8 per thread.
// Grid ⌈n/128⌉ × ⌈m/128⌉.  Any m, n, k ≥ 1 (edges: the guarded path).
#include "tl-gemm-simt.cuh"

using Tile16 = TlSimtTile<float, 128, 128, 8, 8, 8>;
constexpr int MIN_BLOCKS16 = 2; // 2 × 256 threads × 128 registers = the whole register file

extern const TlGemmRung gemm_16_doublebuf_rung = {
  "gemm-16-doublebuf",
  tl_simt_launch<float, Tile16, MIN_BLOCKS16>,
  tl_simt_shape<float, Tile16, MIN_BLOCKS16>,
  tl_simt_check<float>,
  nullptr,
  tl_simt_prepare<float, Tile16, MIN_BLOCKS16>,
};
