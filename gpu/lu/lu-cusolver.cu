// lu-cusolver.cu — the GPU reference: cuSOLVER's getrf.
//
// cuSOLVER is column-major; our matrix is row-major.  The column-major
// copy of A is made with cublas?geam (a transpose) into the workspace,
// factored there, and transposed back; the 1-based ipiv becomes 0-based.
// The harness times the whole rung, so the two transposes (2·m·n elements
// moved each way, well under 1% of the time at n ≥ 4096) are included — a
// small handicap the perf tables mention.
#include "tl-lu-gpu.cuh"
#include "tl-cusolver.cuh"

TlGpuStatus
tl_gpu_from_cusolver (cusolverStatus_t st, const char *what)
{
  if (st == CUSOLVER_STATUS_SUCCESS)
    return TL_GPU_OK;
  if (st == CUSOLVER_STATUS_ALLOC_FAILED)
    return tl_gpu_fail (TL_GPU_OUT_OF_MEMORY, "%s: cuSOLVER could not allocate", what);
  return tl_gpu_fail (TL_GPU_LAUNCH_FAILED, "%s failed (cuSOLVER status %d)", what, (int) st);
}

__global__ static void
ipiv_to_zero_based (int *ipiv, int n)
{
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n)
    ipiv[k] -= 1;
}

// One handle per process, made on first use outside the timed region (the
// harness asks for the workspace size first); the GPU is owned by one
// worker thread (tl-gpu.h), so no lock is needed.
static cusolverDnHandle_t
handle (void)
{
  static cusolverDnHandle_t h = nullptr;
  if (h == nullptr && cusolverDnCreate (&h) != CUSOLVER_STATUS_SUCCESS)
    h = nullptr;
  return h;
}

template <typename T>
static TlGpuStatus
factor (TlLuCtx *ctx)
{
  const int m = ctx->m, n = ctx->n, mn = m < n ? m : n;
  if (mn == 0)
    return TL_GPU_OK;
  cusolverDnHandle_t h = handle ();
  if (h == nullptr)
    return tl_gpu_fail (TL_GPU_LAUNCH_FAILED, "cusolverDnCreate failed");
  cusolverStatus_t cs = cusolverDnSetStream (h, ctx->stream);
  T *col = (T *) ctx->workspace;                        // m×n column-major
  int *info = (int *) (col + (size_t) m * n);
  T *work = (T *) (info + 4);
  const T one = 1, zero = 0;
  cublasStatus_t bs;
  // geam reads its B operand even with β = 0: give it zeros, not garbage
  TL_GPU_TRY (cudaMemsetAsync (col, 0, sizeof (T) * (size_t) m * n, ctx->stream), "cusolver: clearing");
  // col (m×n, ld m) = (our memory seen column-major: n×m, ld n)ᵀ
  if constexpr (sizeof (T) == 4)
    bs = cublasSgeam (ctx->cublas, CUBLAS_OP_T, CUBLAS_OP_N, m, n, &one, (const float *) ctx->a,
                      ctx->lda, &zero, (const float *) col, m, (float *) col, m);
  else
    bs = cublasDgeam (ctx->cublas, CUBLAS_OP_T, CUBLAS_OP_N, m, n, &one, (const double *) ctx->a,
                      ctx->lda, &zero, (const double *) col, m, (double *) col, m);
  TlGpuStatus status = tl_gpu_from_cublas (bs, "cusolver: transpose in");
  if (status == TL_GPU_OK)
    {
      if constexpr (sizeof (T) == 4)
        cs = cusolverDnSgetrf (h, m, n, (float *) col, m, (float *) work, ctx->ipiv, info);
      else
        cs = cusolverDnDgetrf (h, m, n, (double *) col, m, (double *) work, ctx->ipiv, info);
      status = tl_gpu_from_cusolver (cs, "cusolverDn?getrf");
    }
  if (status == TL_GPU_OK)
    {
      if constexpr (sizeof (T) == 4)
        bs = cublasSgeam (ctx->cublas, CUBLAS_OP_T, CUBLAS_OP_N, n, m, &one, (const float *) col, m,
                          &zero, (const float *) ctx->a, ctx->lda, (float *) ctx->a, ctx->lda);
      else
        bs = cublasDgeam (ctx->cublas, CUBLAS_OP_T, CUBLAS_OP_N, n, m, &one, (const double *) col, m,
                          &zero, (const double *) ctx->a, ctx->lda, (double *) ctx->a, ctx->lda);
      status = tl_gpu_from_cublas (bs, "cusolver: transpose out");
      ipiv_to_zero_based<<<(mn + 255) / 256, 256, 0, ctx->stream>>> (ctx->ipiv, mn);
    }
  return status;
}

static TlGpuStatus
lu_cusolver_factor (TlLuCtx *ctx)
{
  return ctx->dtype == TL_GPU_FLOAT32 ? factor<float> (ctx) : factor<double> (ctx);
}

static size_t
lu_cusolver_workspace (const TlLuCtx *ctx)
{
  const size_t es = ctx->dtype == TL_GPU_FLOAT32 ? 4 : 8;
  int lwork = 0;
  cusolverDnHandle_t h = handle ();
  if (h != nullptr && ctx->m > 0 && ctx->n > 0)
    {
      if (ctx->dtype == TL_GPU_FLOAT32)
        cusolverDnSgetrf_bufferSize (h, ctx->m, ctx->n, nullptr, ctx->m, &lwork);
      else
        cusolverDnDgetrf_bufferSize (h, ctx->m, ctx->n, nullptr, ctx->m, &lwork);
    }
  return es * (size_t) ctx->m * ctx->n + 4 * sizeof (int) + es * (size_t) lwork + 256;
}

const TlLuRung lu_cusolver_rung = { "lu-cusolver", lu_cusolver_factor, lu_cusolver_workspace };
