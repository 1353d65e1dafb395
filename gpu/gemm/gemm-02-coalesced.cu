// gemm-02-coalesced.cu — rung 2: the same work, coalesced.
//
// What changed from rung 1: threadIdx.x now walks the COLUMNS of C:
//
//     j = blockIdx.x·32 + threadIdx.x   (column: neighbours in a warp)
//     i = blockIdx.y·32 + threadIdx.y   (row)
//
// Bottleneck attacked: uncoalesced global memory access.  Now the 32
// threads of a warp share one row i and read b[p][j..j+31] — 32 neighbouring
// elements, 128 bytes for float: one transaction instead of 32 — while
// a[i][p] is the same address for the whole warp (a broadcast).  The
// stores to c[i][j..j+31] coalesce the same way.  Every FMA still needs two
// loads from global memory (well, from L1/L2): arithmetic intensity is
// ~0.25 FLOP/byte, so this rung is still memory-bound; rung 3 reuses data.
// From: seed 002's `multiplyStraightforward` with x and y swapped, the fix
// seed 003 describes ("Die Zugriffsadressen müssen aufeinanderfolgend sein
// entsprechend der Thread-IDs innerhalb eines Blocks").
//
// Shapes: A m×k, B k×n, C m×n row-major.  Block 32×32 threads, grid
// ⌈n/32⌉ × ⌈m/32⌉ (x over columns now).  Any m, n, k ≥ 1.
#include "tl-gemm-simple.cuh"

// The multiply.  It is a separate, not-inlined function so that it is
// compiled once and the timed kernel and the instrumented one run the same
// machine code.  Inlined, the instrumented kernel's extra code after the
// loop changed how ptxas scheduled the loop itself: in float64 it issued 4
// loads ahead of the first FMA instead of 7 and ran markedly slower — this
// kernel is one serial chain of FMAs per thread, capped at 32 registers,
// and the loads in flight are all that hides memory latency
// (docs/perf/gemm-cuda-cores-fp64-h100-2026-11-24.md).
template <typename T>
__device__ __noinline__ void
gemm_02_coalesced_body (int m, int n, int k, const T *a, const T *b, T *c)
{
  // user-template: begin coalesced-body (gpu/user/gemm-02-coalesced.cu)
  int j = blockIdx.x * blockDim.x + threadIdx.x; // column: a warp reads 32 neighbours of B's row
  int i = blockIdx.y * blockDim.y + threadIdx.y; // row
  if (i < m && j < n)
    {
      T sum = 0;
      for (int p = 0; p < k; p++)
        sum += a[i * k + p] * b[p * n + j];
      c[i * n + j] = sum;
    }
  // user-template: end coalesced-body
}

template <typename T, bool INSTR>
__global__ void __launch_bounds__ (1024, 2)
gemm_02_coalesced_kernel (int m, int n, int k, const T *a, const T *b, T *c,
                          TlGpuBlockRecord *records)
{
  unsigned long long t0 = 0;
  if (INSTR)
    t0 = tl_block_begin (records);

  gemm_02_coalesced_body<T> (m, n, k, a, b, c);

  if (INSTR)
    tl_block_end (records, t0, 0);
}

// The launch (tl-gemm-simple.cuh): blocks of 32×32 threads, x over the
// COLUMNS of C now.
struct Launch02
{
  template <typename T, bool INSTR>
  static TlSimpleKernel<T> kernel ()
  {
    return gemm_02_coalesced_kernel<T, INSTR>;
  }
  static dim3 block () { return dim3 (32, 32); }
  static dim3 grid (const TlGemmLaunch *l)
  {
    return dim3 (tl_ceil_div (l->n, 32), tl_ceil_div (l->m, 32));
  }
};

extern const TlGemmRung gemm_02_coalesced_rung = {
  "gemm-02-coalesced", tl_simple_launch<Launch02>, tl_simple_shape<Launch02>,
  nullptr, nullptr, nullptr,
};
