// gemm-03-smem16.cu — rung 3: shared-memory tiles, 16×16.
//
// What changed from rung 2: a block of 16×16 threads computes a 16×16 tile
// of C in rounds.  In each round the block copies a 16×16 tile of A and one
// of B into shared memory (every thread copies one element of each), waits
// at a barrier, and then every thread runs 16 FMAs out of shared memory.
// The kernel is gemm_smem_tiles_kernel in tl-gemm-smem-tiles.cuh, which
// shows the round and why it needs two barriers; rung 4 runs the same
// kernel with 32×32 tiles.
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
// Shared-memory banks: As[ty][p] is the same address for a whole half-row
// of the block (a broadcast); Bs[p][tx] are 16 neighbouring words — no
// conflicts.
//
// Shapes: A m×k, B k×n, C m×n row-major.  Block 16×16 threads, grid
// ⌈n/16⌉ × ⌈m/16⌉, ⌈k/16⌉ rounds.  Any m, n, k ≥ 1.
#include "tl-gemm-smem-tiles.cuh"

using Launch03 = TlSmemTiles<16>;

extern const TlGemmRung gemm_03_smem16_rung = {
  "gemm-03-smem16", tl_simple_launch<Launch03>, tl_simple_shape<Launch03>,
  nullptr, nullptr, nullptr,
};
