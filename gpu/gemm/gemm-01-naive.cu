// gemm-01-naive.cu — rung 1: one thread per element of C, the naive way.
//
// What it is: the first kernel anyone writes.  Thread (x, y) of the grid
// computes c[i][j] = Σ_p a[i][p]·b[p][j] straight from global memory.
// From: seed 000 (`mmm-ab.cu`, one thread per c_row,col) and seed 002
// (`multiplyStraightforward`), whose index mapping we keep on purpose:
//
//     i = blockIdx.x·blockDim.x + threadIdx.x   ← the ROW follows threadIdx.x
//     j = blockIdx.y·blockDim.y + threadIdx.y
//
// The bottleneck it shows: memory coalescing.  A warp is 32 threads with
// consecutive threadIdx.x, so here a warp covers 32 consecutive *rows* of C
// in one column.  In each step p its 32 loads of a[i][p] are k elements
// apart — 32 separate memory transactions instead of one — and its stores
// to c are n elements apart.  (The 32 loads of b[p][j] hit one address: a
// broadcast.)  Seed 000 notes exactly this: "Der Zugriff auf a ist hier
// ineffizient, da ein Warp hier nicht auf konsekutiv im Speicher liegende
// Werte zugreift."  Rung 2 swaps x and y and nothing else.
//
// Shapes: A m×k, B k×n, C m×n, all row-major and contiguous.  Block 32×32
// threads, grid ⌈m/32⌉ × ⌈n/32⌉; threads outside C do no work but still
// take part in the timer's barriers.  Any m, n, k ≥ 1.
#include "tl-gemm-simple.cuh"

template <typename T, bool INSTR>
__global__ void __launch_bounds__ (1024, 2)
gemm_01_naive_kernel (int m, int n, int k, const T *a, const T *b, T *c,
                      TlGpuBlockRecord *records)
{
  unsigned long long t0 = 0;
  if (INSTR)
    t0 = tl_block_begin (records);

  int i = blockIdx.x * blockDim.x + threadIdx.x; // row of C: neighbours in a warp are k apart in A
  int j = blockIdx.y * blockDim.y + threadIdx.y; // column of C
  if (i < m && j < n)
    {
      T sum = 0;
      for (int p = 0; p < k; p++)
        sum += a[i * k + p] * b[p * n + j];
      c[i * n + j] = sum;
    }

  if (INSTR)
    tl_block_end (records, t0, 0);
}

// The launch (tl-gemm-simple.cuh holds what every one-kernel rung shares:
// the element type and the instrumented variant picked, the kernel
// enqueued).  Blocks of 32×32 threads, x over the ROWS of C.
struct Launch01
{
  template <typename T, bool INSTR>
  static TlSimpleKernel<T> kernel ()
  {
    return gemm_01_naive_kernel<T, INSTR>;
  }
  static dim3 block () { return dim3 (32, 32); }
  static dim3 grid (const TlGemmLaunch *l)
  {
    return dim3 (tl_ceil_div (l->m, 32), tl_ceil_div (l->n, 32));
  }
};

extern const TlGemmRung gemm_01_naive_rung = {
  "gemm-01-naive", tl_simple_launch<Launch01>, tl_simple_shape<Launch01>, nullptr, nullptr, nullptr,
};
