// lu-rank.cu — rank and null space on the GPU, by the singular values.
//
// Partial-pivoting LU is not rank revealing: a column that depends on the
// others can leave a remainder a hundred times above ε·‖A‖ (tl-solve.h), so
// the rank of a floating-point matrix is decided the way numpy's
// matrix_rank decides it: r = #{σ_k > cut·σ₁}, cut = max(m,n)·ε.  The
// singular value decomposition is the O(n³) part and runs here, in
// cuSOLVER's Jacobi SVD (gesvdj): its sweeps of 2×2 rotations are parallel
// across the whole matrix, and for a rank-deficient matrix it returns a
// full orthonormal basis of singular vectors, including those of the zero
// singular values — the null space.  (gesvdp, the polar-decomposition SVD,
// is faster but may not deliver full unitary factors for exactly that
// part; gesvd, the QR-based one, needs rows ≥ columns and is slower.)
//
// Layout: A is row-major m×n on the host, which column-major cuSOLVER reads
// as Aᵀ (n×m, lda = n) without any copy.  Aᵀ = U'·Σ·V'ᵀ has U' = V, the
// RIGHT singular vectors of A: asking for U' in full (econ = 0, n×n) gives
// A's null space as U's last n − r columns, which are contiguous in
// column-major storage — one download of (n − r)·n elements, row t of it
// being null vector t.
#include "tl-lu-gpu.cuh"
#include "tl-cusolver.cuh"

#include <stdlib.h>
#include <string.h>

namespace
{
struct RankBuffers : TlGpuEventPair
{
  void *a = nullptr, *s = nullptr, *u = nullptr, *v = nullptr, *work = nullptr;
  int *info = nullptr;
  cusolverDnHandle_t cusolver = nullptr;
  gesvdjInfo_t params = nullptr;
  ~RankBuffers ()
  {
    if (params)
      cusolverDnDestroyGesvdjInfo (params);
    if (cusolver)
      cusolverDnDestroy (cusolver);
    cudaFree (a);
    cudaFree (s);
    cudaFree (u);
    cudaFree (v);
    cudaFree (work);
    cudaFree (info);
  }
};
} // namespace

// gesvdj on the column-major rows×cols matrix a: singular values s, and
// with vectors the full rows×rows u and cols×cols v.
template <typename T>
static cusolverStatus_t
gesvdj_size (cusolverDnHandle_t h, cusolverEigMode_t jobz, int rows, int cols, const T *a,
             const T *s, const T *u, const T *v, int *lwork, gesvdjInfo_t p)
{
  if constexpr (sizeof (T) == 4)
    return cusolverDnSgesvdj_bufferSize (h, jobz, 0, rows, cols, a, rows, s, u, rows, v, cols,
                                         lwork, p);
  else
    return cusolverDnDgesvdj_bufferSize (h, jobz, 0, rows, cols, a, rows, s, u, rows, v, cols,
                                         lwork, p);
}

template <typename T>
static cusolverStatus_t
gesvdj (cusolverDnHandle_t h, cusolverEigMode_t jobz, int rows, int cols, T *a, T *s, T *u, T *v,
        T *work, int lwork, int *info, gesvdjInfo_t p)
{
  if constexpr (sizeof (T) == 4)
    return cusolverDnSgesvdj (h, jobz, 0, rows, cols, a, rows, s, u, rows, v, cols, work, lwork,
                              info, p);
  else
    return cusolverDnDgesvdj (h, jobz, 0, rows, cols, a, rows, s, u, rows, v, cols, work, lwork,
                              info, p);
}

// σ (mn values) to args->sigma, widened to double, once gesvdj's info
// says it converged.
template <typename T>
static TlGpuStatus
download_sigma (const RankBuffers &b, int mn, cudaStream_t stream, double *out)
{
  const size_t es = sizeof (T);
  int info = 0;
  T *sigma = (T *) malloc (es * (size_t) (mn > 0 ? mn : 1));
  if (sigma == nullptr)
    return tl_gpu_fail (TL_GPU_OUT_OF_MEMORY, "rank: no host memory for σ");
  cudaError_t err = cudaMemcpyAsync (&info, b.info, sizeof info, cudaMemcpyDeviceToHost, stream);
  if (err == cudaSuccess)
    err = cudaMemcpyAsync (sigma, b.s, es * (size_t) mn, cudaMemcpyDeviceToHost, stream);
  if (err == cudaSuccess)
    err = cudaStreamSynchronize (stream);
  if (err != cudaSuccess)
    {
      free (sigma);
      return tl_gpu_from_cuda (err, "downloading σ");
    }
  for (int k = 0; k < mn; k++)
    out[k] = (double) sigma[k];
  free (sigma);
  if (info != 0)
    return tl_gpu_fail (TL_GPU_LAUNCH_FAILED,
                        "gesvdj did not converge (info %d): the rank is not decided", info);
  return TL_GPU_OK;
}

// U's columns r … n−1 (count values from `u`, contiguous): downloaded in
// the dtype, widened here into a malloc'd *out.
template <typename T>
static TlGpuStatus
download_null_space (const T *u, size_t count, cudaStream_t stream, double **out)
{
  *out = (double *) malloc (sizeof (double) * count);
  T *host = (T *) malloc (sizeof (T) * count);
  if (*out == nullptr || host == nullptr)
    {
      free (host);
      return tl_gpu_fail (TL_GPU_OUT_OF_MEMORY, "rank: no host memory for the null space");
    }
  cudaError_t err = cudaMemcpyAsync (host, u, sizeof (T) * count, cudaMemcpyDeviceToHost, stream);
  if (err == cudaSuccess)
    err = cudaStreamSynchronize (stream);
  for (size_t e = 0; err == cudaSuccess && e < count; e++)
    (*out)[e] = (double) host[e];
  free (host);
  return err == cudaSuccess ? TL_GPU_OK : tl_gpu_from_cuda (err, "downloading the null space");
}

template <typename T>
static TlGpuStatus
rank_svd (TlGpuDevice *device, const TlGpuRankArgs *args, TlGpuRankResult *out)
{
  // Aᵀ as cuSOLVER sees our memory: rows = n, cols = m
  const int rows = args->n, cols = args->m, mn = rows < cols ? rows : cols;
  const cusolverEigMode_t jobz = args->want_null_space ? CUSOLVER_EIG_MODE_VECTOR
                                                       : CUSOLVER_EIG_MODE_NOVECTOR;
  const size_t es = sizeof (T);
  const size_t a_bytes = es * (size_t) rows * cols;
  // U and V in full even for the singular values alone: gesvdj writes the
  // identity into them before its sweeps whatever jobz says (memcheck
  // catches its batch_eye_kernel writing past 1-element buffers)
  const size_t u_bytes = es * (size_t) rows * rows;
  const size_t v_bytes = es * (size_t) cols * cols;
  cudaStream_t stream = device->stream;
  RankBuffers b;
  if (cusolverDnCreate (&b.cusolver) != CUSOLVER_STATUS_SUCCESS)
    return tl_gpu_fail (TL_GPU_LAUNCH_FAILED, "cusolverDnCreate failed");
  TlGpuStatus st = tl_gpu_from_cusolver (cusolverDnSetStream (b.cusolver, stream),
                                         "cusolverDnSetStream");
  if (st == TL_GPU_OK)
    st = tl_gpu_from_cusolver (cusolverDnCreateGesvdjInfo (&b.params),
                               "cusolverDnCreateGesvdjInfo");
  if (st != TL_GPU_OK)
    return st;
  int lwork = 0;
  st = tl_gpu_from_cusolver (gesvdj_size<T> (b.cusolver, jobz, rows, cols, nullptr, nullptr,
                                             nullptr, nullptr, &lwork, b.params),
                             "cusolverDn?gesvdj_bufferSize");
  if (st != TL_GPU_OK)
    return st;
  const size_t need = a_bytes + u_bytes + v_bytes + es * (size_t) (mn + lwork) + sizeof (int);
  if ((st = tl_gpu_check_free (need, "rank (gesvdj)")) != TL_GPU_OK)
    return st;
  TL_GPU_TRY (cudaMalloc (&b.a, a_bytes), "allocating A");
  TL_GPU_TRY (cudaMalloc (&b.s, es * (size_t) (mn > 0 ? mn : 1)), "allocating σ");
  TL_GPU_TRY (cudaMalloc (&b.u, u_bytes), "allocating U");
  TL_GPU_TRY (cudaMalloc (&b.v, v_bytes), "allocating V");
  TL_GPU_TRY (cudaMalloc (&b.work, es * (size_t) (lwork > 0 ? lwork : 1)), "allocating the workspace");
  TL_GPU_TRY (cudaMalloc (&b.info, sizeof (int)), "allocating info");
  TL_GPU_TRY (b.create (), "creating events");
  TL_GPU_TRY (cudaMemcpyAsync (b.a, args->a, a_bytes, cudaMemcpyHostToDevice, stream), "uploading A");

  TL_GPU_TRY (cudaEventRecord (b.start, stream), "recording an event");
  st = tl_gpu_from_cusolver (gesvdj<T> (b.cusolver, jobz, rows, cols, (T *) b.a, (T *) b.s,
                                        (T *) b.u, (T *) b.v, (T *) b.work, lwork, b.info,
                                        b.params),
                             "cusolverDn?gesvdj");
  if (st != TL_GPU_OK)
    return st;
  TL_GPU_TRY (cudaEventRecord (b.stop, stream), "recording an event");
  TL_GPU_TRY (b.elapsed (&out->svd_ms), "running gesvdj");

  if ((st = download_sigma<T> (b, mn, stream, args->sigma)) != TL_GPU_OK)
    return st;
  cusolverDnXgesvdjGetSweeps (b.cusolver, b.params, &out->sweeps);

  // the rank by numpy's rule, in float64 on the host
  int r = 0;
  const double cut = args->rel_cut * (mn > 0 ? args->sigma[0] : 0.0);
  while (r < mn && args->sigma[r] > cut)
    r++;
  out->rank = r;
  out->nullity = args->n - r;
  if (!args->want_null_space || out->nullity == 0)
    return TL_GPU_OK;

  return download_null_space<T> ((const T *) b.u + (size_t) r * rows,
                                 (size_t) out->nullity * rows, stream, &out->null_space);
}

extern "C" TlGpuStatus
tl_gpu_rank (TlGpuDevice *device, const TlGpuRankArgs *args, TlGpuRankResult *out)
{
  if (out == nullptr || args == nullptr)
    return tl_gpu_fail (TL_GPU_LAUNCH_FAILED, "tl_gpu_rank: NULL argument");
  memset (out, 0, sizeof *out);
  TlGpuStatus st = tl_gpu_device_usable (device);
  if (st != TL_GPU_OK)
    return st;
  if (args->dtype != TL_GPU_FLOAT32 && args->dtype != TL_GPU_FLOAT64)
    return tl_gpu_fail (TL_GPU_BAD_SHAPE, "rank: float32 and float64 only");
  if (args->m < 1 || args->n < 1 || args->a == nullptr || args->sigma == nullptr)
    return tl_gpu_fail (TL_GPU_BAD_SHAPE, "rank: an empty matrix or a NULL argument");
  TL_GPU_TRY (cudaSetDevice (device->ordinal), "cudaSetDevice");
  st = args->dtype == TL_GPU_FLOAT32 ? rank_svd<float> (device, args, out)
                                     : rank_svd<double> (device, args, out);
  if (st != TL_GPU_OK)
    tl_gpu_rank_result_clear (out);
  return st;
}

extern "C" void
tl_gpu_rank_result_clear (TlGpuRankResult *result)
{
  if (result == nullptr)
    return;
  free (result->null_space);
  memset (result, 0, sizeof *result);
}
