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
#include "tl-gemm-common.cuh"

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
  int j = blockIdx.x * blockDim.x + threadIdx.x; // column: a warp reads 32 neighbours of B's row
  int i = blockIdx.y * blockDim.y + threadIdx.y; // row
  if (i < m && j < n)
    {
      T sum = 0;
      for (int p = 0; p < k; p++)
        sum += a[i * k + p] * b[p * n + j];
      c[i * n + j] = sum;
    }
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

static const dim3 block_02 (32, 32);

static dim3
grid_02 (const TlGemmLaunch *l)
{
  return dim3 (tl_ceil_div (l->n, 32), tl_ceil_div (l->m, 32));
}

template <typename T>
static cudaError_t
launch_t (const TlGemmLaunch *l)
{
  const T *a = (const T *) l->a, *b = (const T *) l->b;
  T *c = (T *) l->c;
  if (l->blocks != nullptr)
    gemm_02_coalesced_kernel<T, true><<<grid_02 (l), block_02, 0, l->stream>>> (
      l->m, l->n, l->k, a, b, c, l->blocks);
  else
    gemm_02_coalesced_kernel<T, false><<<grid_02 (l), block_02, 0, l->stream>>> (
      l->m, l->n, l->k, a, b, c, nullptr);
  return cudaGetLastError ();
}

template <typename T>
static const void *
kernel_t (const TlGemmLaunch *)
{
  return (const void *) gemm_02_coalesced_kernel<T, false>;
}

static cudaError_t
gemm_02_coalesced_launch (const TlGemmLaunch *l)
{
  TL_GEMM_DISPATCH (launch_t, l);
  return cudaErrorInvalidValue;
}

static const void *
kernel_for (const TlGemmLaunch *l)
{
  TL_GEMM_DISPATCH (kernel_t, l);
  return nullptr;
}

static void
gemm_02_coalesced_shape (const TlGemmLaunch *l, TlGemmShape *out)
{
  tl_gemm_shape_one (out, kernel_for (l), grid_02 (l), block_02, 0);
}

extern const TlGemmRung gemm_02_coalesced_rung = {
  "gemm-02-coalesced", gemm_02_coalesced_launch, gemm_02_coalesced_shape, nullptr, nullptr, nullptr,
};
