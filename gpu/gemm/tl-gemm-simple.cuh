// tl-gemm-simple.cuh — the launch of a rung that is one kernel, one block
// per tile of C, in every element type (rungs 1–4).  CUDA C++, internal to
// gpu/gemm/.
//
// Such a rung writes its kernel as a template over the element type T and
// INSTR (the instrumented variant: one TlGpuBlockRecord per block, see
// tl-block-timer.cuh), taking
//
//     (int m, int n, int k, const T *a, const T *b, T *c, TlGpuBlockRecord *records)
//
// and says how it is launched in a small struct:
//
//     struct Launch02
//     {
//       template <typename T, bool INSTR>
//       static TlSimpleKernel<T> kernel () { return gemm_02_coalesced_kernel<T, INSTR>; }
//       static dim3 block () { return dim3 (32, 32); }
//       static dim3 grid (const TlGemmLaunch *l) { … one block per 32×32 tile of C … }
//     };
//
// tl_simple_launch<Launch02> and tl_simple_shape<Launch02> are then the
// rung's `launch` and `shape` (tl-gemm-rung.h) for int32, float32 and
// float64: the launch picks the kernel of l's element type, plain or
// instrumented (l->blocks), and enqueues it on l's stream; the shape names
// the plain kernel, its grid and its block, for the occupancy calculator.
#pragma once

#include "tl-gemm-common.cuh"

template <typename T>
using TlSimpleKernel = void (*) (int, int, int, const T *, const T *, T *, TlGpuBlockRecord *);

template <typename L>
static cudaError_t
tl_simple_launch (const TlGemmLaunch *l)
{
  return tl_gemm_with_dtype (l, cudaErrorInvalidValue, [&] (auto zero) {
    using T = decltype (zero);
    const TlSimpleKernel<T> kernel
      = l->blocks != nullptr ? L::template kernel<T, true> () : L::template kernel<T, false> ();
    kernel<<<L::grid (l), L::block (), 0, l->stream>>> (l->m, l->n, l->k, (const T *) l->a,
                                                        (const T *) l->b, (T *) l->c, l->blocks);
    return cudaGetLastError ();
  });
}

template <typename L>
static void
tl_simple_shape (const TlGemmLaunch *l, TlGemmShape *out)
{
  const void *kernel = tl_gemm_with_dtype (l, (const void *) nullptr, [] (auto zero) {
    return (const void *) L::template kernel<decltype (zero), false> ();
  });
  tl_gemm_shape_one (out, kernel, L::grid (l), L::block (), 0);
}
