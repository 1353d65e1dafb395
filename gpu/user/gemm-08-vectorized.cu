// mine.cu — a GEMM kernel of your own: rung 8 of the ladder (128-bit
// loads, A transposed, no bank conflicts), in the form Tilelab compiles at
// run time.  float32 only.
//
// Each block of 256 threads (16×16) computes a 128×128 tile of C in steps
// of BK = 8 along k; each thread computes 8×8 results from registers.
// Three things make it fast (the ladder's gpu/gemm/gemm-08-vectorized.cu
// says more):
//   1. global loads are float4 (LDG.128): one instruction moves 16 bytes;
//   2. A's tile is stored transposed in shared memory, so the 8 values of
//      A a thread needs at a step come in two LDS.128;
//   3. no bank conflicts: each thread owns rows and columns 64 apart, and
//      the rows of As are padded by 4 floats.
// float4 needs 16-byte alignment, so the unguarded path runs only in
// blocks whose whole tile lies inside C, when k is a multiple of 8 and n
// of 4 and the pointers are aligned; edge blocks take a guarded copy of
// the same code with scalar loads that fill zeros.
//
// tilelab: title   = vectorized (mine)
// tilelab: float32 = gemm_vectorized
// tilelab: block   = 256
// tilelab: grid    = ceil_div(n, 128), ceil_div(m, 128)
// tilelab: tile    = 128, 128
#include "tilelab.cuh"

// user-template: insert gemm-08-block from ../gemm/gemm-08-vectorized.cu

// One decision per block, the same for all its threads (no divergence):
// the float4 path where the whole tile is inside C and every row of A, B
// and C starts on a 16-byte boundary.
__global__ void __launch_bounds__ (256, 2)
gemm_vectorized (int m, int n, int k, const float *__restrict__ a, const float *__restrict__ b,
                 float *__restrict__ c)
{
  TILELAB_BLOCK_BEGIN ();

  constexpr int BM = 128, BN = 128, BK = 8;
  const bool aligned = (((unsigned long long) a | (unsigned long long) b | (unsigned long long) c)
                        & 15) == 0;
  const bool vec = aligned && k % BK == 0 && n % 4 == 0;
  const bool inside = (int) (blockIdx.y + 1) * BM <= m && (int) (blockIdx.x + 1) * BN <= n;
  if (vec && inside)
    gemm_08_block<BM, BN, BK, false> (m, n, k, a, b, c);
  else
    gemm_08_block<BM, BN, BK, true> (m, n, k, a, b, c);

  TILELAB_BLOCK_END ();
}
