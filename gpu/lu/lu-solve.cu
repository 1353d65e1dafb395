// lu-solve.cu — AX = B on the GPU from a GPU factorisation (getrs).
//
// P·B by the index table (lu_laswp_kernel: one thread per right-hand
// side column walks all n swaps), then L·Y = P·B and U·X = Y with cuBLAS
// TRSM over all right-hand sides at once.  Row-major X (n×k) is Xᵀ to
// cuBLAS, so both solves are from the right:
//   Yᵀ·Lᵀ = (PB)ᵀ   — our L\U memory read column-major is (L\U)ᵀ: its upper
//                      triangle is Lᵀ (unit diagonal)
//   Xᵀ·Uᵀ = Yᵀ      — and its lower triangle is Uᵀ.
#include "tl-lu-gpu.cuh"

#include <string.h>

namespace
{
struct SolveBuffers : TlGpuEventPair
{
  void *lu = nullptr, *x = nullptr;
  int *ipiv = nullptr;
  ~SolveBuffers ()
  {
    cudaFree (lu);
    cudaFree (x);
    cudaFree (ipiv);
  }
};
} // namespace

extern "C" TlGpuStatus
tl_gpu_lu_solve (TlGpuDevice *device, const TlGpuLuSolveArgs *args, double *out_ms)
{
  if (out_ms)
    *out_ms = 0.0;
  if (args == nullptr || args->lu == nullptr || args->ipiv == nullptr || args->b == nullptr)
    return tl_gpu_fail (TL_GPU_LAUNCH_FAILED, "tl_gpu_lu_solve: NULL argument");
  TlGpuStatus st = tl_gpu_device_usable (device);
  if (st != TL_GPU_OK)
    return st;
  if (args->dtype != TL_GPU_FLOAT32 && args->dtype != TL_GPU_FLOAT64)
    return tl_gpu_fail (TL_GPU_BAD_SHAPE, "the GPU solve takes float32 and float64 only");
  const int n = args->n, k = args->nrhs;
  if (n < 0 || k < 0)
    return tl_gpu_fail (TL_GPU_BAD_SHAPE, "bad shape %d×%d", n, k);
  if (n == 0 || k == 0)
    return TL_GPU_OK;

  TL_GPU_TRY (cudaSetDevice (device->ordinal), "cudaSetDevice");
  cublasHandle_t h = nullptr;
  st = tl_gpu_device_cublas (device, &h);
  if (st != TL_GPU_OK)
    return st;
  cudaStream_t stream = device->stream;
  const size_t es = args->dtype == TL_GPU_FLOAT32 ? 4 : 8;
  const size_t lu_bytes = es * (size_t) n * n, x_bytes = es * (size_t) n * k;
  st = tl_gpu_check_free (lu_bytes + x_bytes + sizeof (int) * n, "the solve");
  if (st != TL_GPU_OK)
    return st;

  SolveBuffers b;
  TL_GPU_TRY (cudaMalloc (&b.lu, lu_bytes), "allocating L\\U");
  TL_GPU_TRY (cudaMalloc (&b.x, x_bytes), "allocating X");
  TL_GPU_TRY (cudaMalloc (&b.ipiv, sizeof (int) * n), "allocating ipiv");
  TL_GPU_TRY (cudaEventCreate (&b.start), "creating events");
  TL_GPU_TRY (cudaEventCreate (&b.stop), "creating events");
  TL_GPU_TRY (cudaMemcpyAsync (b.lu, args->lu, lu_bytes, cudaMemcpyHostToDevice, stream), "uploading L\\U");
  TL_GPU_TRY (cudaMemcpyAsync (b.x, args->b, x_bytes, cudaMemcpyHostToDevice, stream), "uploading B");
  TL_GPU_TRY (cudaMemcpyAsync (b.ipiv, args->ipiv, sizeof (int) * n, cudaMemcpyHostToDevice, stream),
              "uploading ipiv");

  TL_GPU_TRY (cudaEventRecord (b.start, stream), "recording an event");
  const int blocks = (k + 127) / 128;
  cublasStatus_t bs;
  if (args->dtype == TL_GPU_FLOAT32)
    {
      const float one = 1.0f;
      lu_laswp_kernel<float><<<blocks, 128, 0, stream>>> ((float *) b.x, k, b.ipiv, 0, n, 0, k);
      bs = cublasStrsm (h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT,
                        k, n, &one, (const float *) b.lu, n, (float *) b.x, k);
      if (bs == CUBLAS_STATUS_SUCCESS)
        bs = cublasStrsm (h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                          CUBLAS_DIAG_NON_UNIT, k, n, &one, (const float *) b.lu, n, (float *) b.x, k);
    }
  else
    {
      const double one = 1.0;
      lu_laswp_kernel<double><<<blocks, 128, 0, stream>>> ((double *) b.x, k, b.ipiv, 0, n, 0, k);
      bs = cublasDtrsm (h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT,
                        k, n, &one, (const double *) b.lu, n, (double *) b.x, k);
      if (bs == CUBLAS_STATUS_SUCCESS)
        bs = cublasDtrsm (h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                          CUBLAS_DIAG_NON_UNIT, k, n, &one, (const double *) b.lu, n, (double *) b.x, k);
    }
  if (bs != CUBLAS_STATUS_SUCCESS)
    return tl_gpu_from_cublas (bs, "the GPU solve's TRSM");
  TL_GPU_TRY (cudaGetLastError (), "the GPU solve's row swaps");
  TL_GPU_TRY (cudaEventRecord (b.stop, stream), "recording an event");
  TL_GPU_TRY (cudaMemcpyAsync (args->b, b.x, x_bytes, cudaMemcpyDeviceToHost, stream), "downloading X");
  TL_GPU_TRY (cudaStreamSynchronize (stream), "the GPU solve");
  float ms = 0;
  cudaEventElapsedTime (&ms, b.start, b.stop);
  if (out_ms)
    *out_ms = ms;
  return TL_GPU_OK;
}
