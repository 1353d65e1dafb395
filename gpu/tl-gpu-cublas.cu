// tl-gpu-cublas.cu — the reference rungs: cuBLAS in four precisions.
//
//   cublas-fp32  SGEMM with CUBLAS_PEDANTIC_MATH and CUBLAS_COMPUTE_32F_PEDANTIC:
//                true FP32 on the CUDA cores, never TF32 — the yardstick for
//                the CUDA-core rungs.
//   cublas-tf32  FP32 in and out, CUBLAS_COMPUTE_32F_FAST_TF32: the tensor
//                cores round the inputs to TF32 (10-bit mantissa).
//   cublas-bf16  A and B converted to BF16 into a workspace, FP32
//                accumulation and output.  The conversion runs once in
//                `prepare`, outside the timed region: the timings are the
//                GEMM alone (a real BF16 pipeline keeps its data in BF16).
//   cublas-fp64  DGEMM, CUBLAS_COMPUTE_64F.
//
// Row-major without copies: cuBLAS is column-major, and a row-major m×n
// matrix is, to cuBLAS, its n×m transpose.  So we ask for
//     Cᵀ (n×m) = Bᵀ (n×k) · Aᵀ (k×m)
// which is cublasGemmEx (N, N, n, m, k, B, ldb = n, A, lda = k, C, ldc = n):
// the same bytes, the operands swapped.
#include "tl-gpu-internal.h"
#include "gemm/tl-gemm-rung.h"

#include <cuda_bf16.h>

namespace {

struct Precision
{
  cudaDataType_t ab, c;
  cublasComputeType_t compute;
  cublasMath_t math;
};

cudaError_t
gemm (const TlGemmLaunch *l, const Precision &p, const void *a, const void *b)
{
  cublasHandle_t h = (cublasHandle_t) l->cublas;
  if (h == nullptr)
    return cudaErrorInvalidValue;
  if (cublasSetMathMode (h, p.math) != CUBLAS_STATUS_SUCCESS)
    return cudaErrorNotSupported;
  const double one64 = 1.0, zero64 = 0.0;
  const float one32 = 1.0f, zero32 = 0.0f;
  const bool f64 = p.compute == CUBLAS_COMPUTE_64F;
  cublasStatus_t st = cublasGemmEx (h, CUBLAS_OP_N, CUBLAS_OP_N, l->n, l->m, l->k,
                                    f64 ? (const void *) &one64 : (const void *) &one32,
                                    b, p.ab, l->n, a, p.ab, l->k,
                                    f64 ? (const void *) &zero64 : (const void *) &zero32,
                                    l->c, p.c, l->n, p.compute, CUBLAS_GEMM_DEFAULT);
  if (st == CUBLAS_STATUS_SUCCESS)
    return cudaGetLastError ();
  // Prefer the CUDA error behind it (memory, a fault); else "not supported".
  cudaError_t err = cudaGetLastError ();
  if (err != cudaSuccess)
    return err;
  if (st == CUBLAS_STATUS_ALLOC_FAILED)
    return cudaErrorMemoryAllocation;
  return cudaErrorNotSupported;
}

void
shape_library (const TlGemmLaunch *, TlGemmShape *out)
{
  // cuBLAS picks its own kernels; there is nothing of ours to inspect.
  out->kernel = nullptr;
  out->grid = dim3 (0, 0, 0);
  out->block = dim3 (0, 0, 0);
  out->dynamic_smem = 0;
  out->launches = 1;
  out->total_blocks = 0;
}

// ---- fp32, pedantic
cudaError_t
launch_fp32 (const TlGemmLaunch *l)
{
  const Precision p = { CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_PEDANTIC, CUBLAS_PEDANTIC_MATH };
  return gemm (l, p, l->a, l->b);
}

// ---- tf32
cudaError_t
launch_tf32 (const TlGemmLaunch *l)
{
  const Precision p = { CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_DEFAULT_MATH };
  return gemm (l, p, l->a, l->b);
}

// ---- fp64
cudaError_t
launch_fp64 (const TlGemmLaunch *l)
{
  const Precision p = { CUDA_R_64F, CUDA_R_64F, CUBLAS_COMPUTE_64F, CUBLAS_DEFAULT_MATH };
  return gemm (l, p, l->a, l->b);
}

// ---- bf16: workspace = A as bf16, then B as bf16 at a 256-byte boundary
size_t
bf16_b_offset (const TlGemmLaunch *l)
{
  size_t a_bytes = (size_t) l->m * l->k * sizeof (__nv_bfloat16);
  return (a_bytes + 255) / 256 * 256;
}

size_t
workspace_bf16 (const TlGemmLaunch *l)
{
  return bf16_b_offset (l) + (size_t) l->k * l->n * sizeof (__nv_bfloat16);
}

__global__ void
to_bf16_kernel (const float *__restrict__ in, __nv_bfloat16 *__restrict__ out, size_t count)
{
  for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < count;
       i += (size_t) gridDim.x * blockDim.x)
    out[i] = __float2bfloat16_rn (in[i]);
}

cudaError_t
prepare_bf16 (TlGemmLaunch *l)
{
  __nv_bfloat16 *a16 = (__nv_bfloat16 *) l->workspace;
  __nv_bfloat16 *b16 = (__nv_bfloat16 *) ((char *) l->workspace + bf16_b_offset (l));
  to_bf16_kernel<<<1024, 256, 0, l->stream>>> ((const float *) l->a, a16, (size_t) l->m * l->k);
  to_bf16_kernel<<<1024, 256, 0, l->stream>>> ((const float *) l->b, b16, (size_t) l->k * l->n);
  return cudaGetLastError ();
}

cudaError_t
launch_bf16 (const TlGemmLaunch *l)
{
  const Precision p = { CUDA_R_16BF, CUDA_R_32F, CUBLAS_COMPUTE_32F, CUBLAS_DEFAULT_MATH };
  const void *b16 = (const char *) l->workspace + bf16_b_offset (l);
  return gemm (l, p, l->workspace, b16);
}

} // namespace

extern const TlGemmRung cublas_fp32_rung = {
  "cublas-fp32", launch_fp32, shape_library, nullptr, nullptr, nullptr,
};
extern const TlGemmRung cublas_tf32_rung = {
  "cublas-tf32", launch_tf32, shape_library, nullptr, nullptr, nullptr,
};
extern const TlGemmRung cublas_bf16_rung = {
  "cublas-bf16", launch_bf16, shape_library, nullptr, workspace_bf16, prepare_bf16,
};
extern const TlGemmRung cublas_fp64_rung = {
  "cublas-fp64", launch_fp64, shape_library, nullptr, nullptr, nullptr,
};
