// mine.cu — a GEMM kernel of your own: rung 3 of the ladder (shared-memory
// tiles 16×16), in the form Tilelab compiles at run time.
//
// C = A·B, A m×k, B k×n, C m×n, all row-major, any sizes.  A block of
// 16×16 threads computes a 16×16 tile of C in rounds: each round it copies
// a 16×16 tile of A and one of B into shared memory (one element each per
// thread), waits at a barrier, and every thread runs 16 FMAs out of shared
// memory.  Each element loaded from global memory now serves 16 threads.
// Loads outside A or B put zeros into the tiles (zeros add nothing) and
// stores outside C are skipped, so any m, n, k works.
//
// The first barrier makes sure the whole tile is loaded before anyone
// reads it, the second that everyone finished reading before the next
// round overwrites it.
//
// The lines that start with "// tilelab:" tell Tilelab which function runs
// for which element type and how to launch it (tilelab.cuh and
// docs/your-kernel.md say more).  Try:  tilelab-cli kernel check mine.cu
//
// tilelab: title   = shared memory 16×16 (mine)
// tilelab: float32 = gemm_smem16<float>
// tilelab: float64 = gemm_smem16<double>
// tilelab: int32   = gemm_smem16<int>
// tilelab: block   = 16, 16
// tilelab: grid    = ceil_div(n, 16), ceil_div(m, 16)
// tilelab: tile    = 16, 16
#include "tilelab.cuh"

#define TILE 16

// Launch bounds: TILE² threads and enough blocks to fill the SM's 2048
// threads, so the compiler keeps to 32 registers.
template <typename T>
__global__ void __launch_bounds__ (TILE * TILE, 2048 / (TILE * TILE))
gemm_smem16 (int m, int n, int k, const T *a, const T *b, T *c)
{
  TILELAB_BLOCK_BEGIN ();

// user-template: insert smem-tiles-body from ../gemm/tl-gemm-smem-tiles.cuh

  TILELAB_BLOCK_END ();
}
