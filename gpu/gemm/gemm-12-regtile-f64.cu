// gemm-12-regtile-f64.cu — rung 12: register tiling in float64, on the
// FP64 CUDA cores.
//
// What changed from the float32 rungs: the element type is double — seed
// 003's matrix code computes in `double` ("Real").  The kernel is rung 16's
// (tl-gemm-simt.cuh: 2-D register tiles, two shared-memory buffers, operands
// of the next k-step loaded while this one multiplies, a 4 × 8 lane layout
// for 16-byte shared loads), instantiated for double with the same 128×128
// block tile and 8×8 doubles per thread.  A 16-byte vector now holds 2
// values, so each thread's 8 rows are 4 pairs, 8 rows apart, and its 8
// columns 4 pairs, 16 apart.
//
// The hardware: an H100/H200 SM has 64 FP64 FMA units (half its 128 FP32
// lanes): peak = SMs × 64 × 2 FLOP × clock, 33.45 TFLOP/s at 132 SMs and
// 1.98 GHz.  A DFMA holds its pipe for two cycles per warp, so issue slots
// are plentiful (ncu finds them less than half used).  128 accumulators
// per thread (256 registers' worth at 8 bytes: one block of 8 warps per
// SM) give each warp 64 independent FMA chains.  ncu at 4096³
// (docs/perf/gemm-cuda-cores-fp64-h100-2026-11-24.md has the numbers):
// the FP64 pipe is the busiest unit, shared memory well below its
// bandwidth, the warps mostly waiting on the pipe itself ("wait", "math
// pipe throttle").  On consumer GPUs FP64 runs at
// 1/32 or 1/64 of the FP32 rate and this rung is hopelessly compute-bound.
// cuBLAS DGEMM on Hopper uses the FP64 *tensor cores* (DMMA, twice the
// CUDA cores' FP64 rate) — rung 15 does too; compare with cublas-fp64.
//
// Before this version rung 12 was rung 7 in double (4×4 per thread, 64×64
// tiles, scalar shared loads with a 4-way bank conflict on B): a third of
// this version's rate (docs/perf/gemm-cuda-cores-fp64-h100-2026-11-24.md).
// From: seed 003, with the register tiling of rungs 7, 8 and 16.
//
// Shapes: A m×k, B k×n, C m×n row-major, float64.  Block 256 threads,
// tile 128×128, BK 8, 8×8 per thread.  Grid ⌈n/128⌉ × ⌈m/128⌉.  Any m, n,
// k ≥ 1.
#include "tl-gemm-simt.cuh"

using Tile12 = TlSimtTile<double, 128, 128, 8, 8, 8>;
constexpr int MIN_BLOCKS12 = 1; // 256 threads × 248 registers: one block per SM

extern const TlGemmRung gemm_12_regtile_f64_rung = {
  "gemm-12-regtile-f64",
  tl_simt_launch<double, Tile12, MIN_BLOCKS12>,
  tl_simt_shape<double, Tile12, MIN_BLOCKS12>,
  tl_simt_check<double>,
  nullptr,
  tl_simt_prepare<double, Tile12, MIN_BLOCKS12>,
};
