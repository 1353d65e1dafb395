// mine.cu — seed 002's multiplyStraightforward as a kernel file of your
// own (docs/your-kernel.md walks through it).
//
// One thread per element of C, straight from global memory.  The seed
// maps the ROW to threadIdx.x, so the 32 threads of a warp read 32 rows
// of A, k elements apart: 32 transactions where one would do (swap x and
// y, and it becomes the ladder's rung 2).  Its blocks walk C's rows in x,
// so the end mark names the C tile as (column, row).
//
// tilelab: title   = straightforward (seed 002)
// tilelab: int32   = multiply_straightforward<int>
// tilelab: float32 = multiply_straightforward<float>
// tilelab: float64 = multiply_straightforward<double>
// tilelab: block   = 32, 32
// tilelab: grid    = ceil_div(m, 32), ceil_div(n, 32)
// tilelab: tile    = 32, 32
#include "tilelab.cuh"

template <typename T>
__global__ void
multiply_straightforward (int m, int n, int k, const T *a, const T *b, T *c)
{
  TILELAB_BLOCK_BEGIN ();

  int i = blockIdx.x * blockDim.x + threadIdx.x; // the row follows threadIdx.x
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < m && j < n)
    {
      T sum = 0;
      for (int p = 0; p < k; p++)
        sum += a[i * k + p] * b[p * n + j];
      c[i * n + j] = sum;
    }

  // blockIdx.x walks the rows of C here: the C tile is (column y, row x)
  TILELAB_BLOCK_END_TILE (blockIdx.y, blockIdx.x);
}
