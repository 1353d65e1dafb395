// mine.cu — a GEMM kernel of your own: rung 2 of the ladder (coalesced),
// in the form Tilelab compiles at run time.
//
// C = A·B, A m×k, B k×n, C m×n, all row-major.  One thread per element of
// C; threadIdx.x walks the columns, so the 32 threads of a warp read 32
// neighbouring elements of a row of B (one transaction) and the same
// element of A (a broadcast).  Every FMA still needs two loads: the next
// step is to reuse what a block has loaded (rung 3, shared memory).
//
// Change anything: the kernel, the block, the grid.  The lines that start
// with "// tilelab:" tell Tilelab which function runs for which element
// type and how to launch it (tilelab.cuh and docs/your-kernel.md say
// more).  Try it:  tilelab-cli kernel check mine.cu
//                  tilelab-cli gemm --kernel mine.cu,gemm-02-coalesced --size 1000x777x1111
//
// tilelab: title   = coalesced (mine)
// tilelab: float32 = gemm_coalesced<float>
// tilelab: float64 = gemm_coalesced<double>
// tilelab: int32   = gemm_coalesced<int>
// tilelab: block   = 32, 32
// tilelab: grid    = ceil_div(n, 32), ceil_div(m, 32)
// tilelab: tile    = 32, 32
#include "tilelab.cuh"

template <typename T>
__global__ void __launch_bounds__ (1024, 2)
gemm_coalesced (int m, int n, int k, const T *a, const T *b, T *c)
{
  TILELAB_BLOCK_BEGIN ();

// user-template: insert coalesced-body from ../gemm/gemm-02-coalesced.cu

  TILELAB_BLOCK_END ();
}
