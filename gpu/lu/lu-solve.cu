// lu-solve.cu — AX = B on the GPU from a GPU factorisation (getrs), and the
// same against cuSOLVER's getrs.
//
// P·B first.  The factorisation gives the swaps as LAPACK's ipiv: at step
// k rows k and ipiv[k] were exchanged.  Applied as a list, the swaps are a
// chain (each may move a row an earlier one moved), so a thread per column
// walking all n of them is n dependent memory round trips — milliseconds at
// n = 8192, whatever the number of right-hand sides.  Instead the swaps are
// composed ONCE into a permutation on the host (O(n) integer work beside
// the upload) and applied by one gather, X(i,:) = B(perm(i),:), with every
// element independent.  Then L·Y = P·B and U·X = Y with cuBLAS TRSM over
// all right-hand sides at once.  Row-major X (n×k) is Xᵀ to cuBLAS, so both
// solves are from the right:
//   Yᵀ·Lᵀ = (PB)ᵀ   — our L\U memory read column-major is (L\U)ᵀ: its upper
//                      triangle is Lᵀ (unit diagonal)
//   Xᵀ·Uᵀ = Yᵀ      — and its lower triangle is Uᵀ.
//
// The reference (solver "cusolver-getrs") gets column-major copies of L\U
// and B and a 1-based ipiv, made before the clock starts, and is timed on
// cusolverDn?getrs alone.
#include "tl-lu-gpu.cuh"
#include "tl-cusolver.cuh"

#include <stdlib.h>
#include <string.h>

namespace
{
struct SolveBuffers : TlGpuEventPair
{
  void *lu = nullptr, *b = nullptr, *x = nullptr;
  int *perm = nullptr, *info = nullptr;
  cusolverDnHandle_t cusolver = nullptr;
  ~SolveBuffers ()
  {
    if (cusolver)
      cusolverDnDestroy (cusolver);
    cudaFree (lu);
    cudaFree (b);
    cudaFree (x);
    cudaFree (perm);
    cudaFree (info);
  }
};

struct Solve
{
  TlGpuDtype dtype;
  int n, k;
  cudaStream_t stream;
  cublasHandle_t blas;
  SolveBuffers *buf;
};
} // namespace

// x(i, c) = b(perm(i), c) for row-major n×k: one thread per element.
template <typename T>
__global__ static void
gather_rows (const T *__restrict__ b, T *__restrict__ x, const int *__restrict__ perm, int n, int k)
{
  const size_t total = (size_t) n * k;
  for (size_t e = blockIdx.x * (size_t) blockDim.x + threadIdx.x; e < total;
       e += (size_t) gridDim.x * blockDim.x)
    {
      const size_t i = e / k, c = e - i * k;
      x[e] = b[(size_t) perm[i] * k + c];
    }
}

// LAPACK's swap list → the permutation it makes (perm[i]: the row of B that
// ends in row i).  Rejects an ipiv entry outside [k, n).
static TlGpuStatus
compose_swaps (const int *ipiv, int n, int *perm)
{
  for (int i = 0; i < n; i++)
    perm[i] = i;
  for (int k = 0; k < n; k++)
    {
      const int p = ipiv[k];
      if (p < k || p >= n)
        return tl_gpu_fail (TL_GPU_BAD_SHAPE, "ipiv[%d] = %d is outside %d…%d", k, p, k, n - 1);
      const int t = perm[k];
      perm[k] = perm[p];
      perm[p] = t;
    }
  return TL_GPU_OK;
}

template <typename T>
static cublasStatus_t
trsm_right (cublasHandle_t h, cublasFillMode_t fill, cublasDiagType_t diag, int k, int n, const T *lu, T *x)
{
  const T one = 1;
  if constexpr (sizeof (T) == 4)
    return cublasStrsm (h, CUBLAS_SIDE_RIGHT, fill, CUBLAS_OP_N, diag, k, n, &one, lu, n, x, k);
  else
    return cublasDtrsm (h, CUBLAS_SIDE_RIGHT, fill, CUBLAS_OP_N, diag, k, n, &one, lu, n, x, k);
}

// One right-hand side is a vector in either layout: TRSV, made for it (a
// right-side TRSM with one row is far slower than cuSOLVER getrs; the
// solve tables in docs/perf/ say by how much).  Our L\U read column-major is
// (L\U)ᵀ, hence the transposes.
template <typename T>
static cublasStatus_t
trsv_t (cublasHandle_t h, cublasFillMode_t fill, cublasDiagType_t diag, int n, const T *lu, T *x)
{
  if constexpr (sizeof (T) == 4)
    return cublasStrsv (h, fill, CUBLAS_OP_T, diag, n, lu, n, x, 1);
  else
    return cublasDtrsv (h, fill, CUBLAS_OP_T, diag, n, lu, n, x, 1);
}

// Tilelab's solve: gather, then the two triangular solves (timed region).
template <typename T>
static TlGpuStatus
ours (const Solve &s)
{
  const size_t total = (size_t) s.n * s.k;
  const int blocks = (int) ((total + 255) / 256 < 8192 ? (total + 255) / 256 : 8192);
  gather_rows<T><<<blocks, 256, 0, s.stream>>> ((const T *) s.buf->b, (T *) s.buf->x, s.buf->perm, s.n, s.k);
  TL_GPU_TRY (cudaGetLastError (), "the GPU solve's row gather");
  const T *lu = (const T *) s.buf->lu;
  T *x = (T *) s.buf->x;
  cublasStatus_t bs;
  if (s.k == 1)
    {
      // L·y = Pb: L is the upper triangle of (L\U)ᵀ, transposed; then U·x = y
      bs = trsv_t<T> (s.blas, CUBLAS_FILL_MODE_UPPER, CUBLAS_DIAG_UNIT, s.n, lu, x);
      if (bs == CUBLAS_STATUS_SUCCESS)
        bs = trsv_t<T> (s.blas, CUBLAS_FILL_MODE_LOWER, CUBLAS_DIAG_NON_UNIT, s.n, lu, x);
      return bs == CUBLAS_STATUS_SUCCESS ? TL_GPU_OK : tl_gpu_from_cublas (bs, "the GPU solve's TRSV");
    }
  bs = trsm_right<T> (s.blas, CUBLAS_FILL_MODE_UPPER, CUBLAS_DIAG_UNIT, s.k, s.n, lu, x);
  if (bs == CUBLAS_STATUS_SUCCESS)
    bs = trsm_right<T> (s.blas, CUBLAS_FILL_MODE_LOWER, CUBLAS_DIAG_NON_UNIT, s.k, s.n, lu, x);
  return bs == CUBLAS_STATUS_SUCCESS ? TL_GPU_OK : tl_gpu_from_cublas (bs, "the GPU solve's TRSM");
}

// out (cols×rows, ld rows) = in (rows×cols, ld cols)ᵀ — between row-major
// and column-major.  geam reads its second operand even with β = 0, so
// that operand is `out` itself, cleared first.
template <typename T>
static TlGpuStatus
transpose (const Solve &s, const void *in, int rows, int cols, void *out)
{
  const T one = 1, zero = 0;
  TL_GPU_TRY (cudaMemsetAsync (out, 0, sizeof (T) * (size_t) rows * cols, s.stream), "clearing");
  cublasStatus_t bs;
  if constexpr (sizeof (T) == 4)
    bs = cublasSgeam (s.blas, CUBLAS_OP_T, CUBLAS_OP_N, rows, cols, &one, (const float *) in, cols,
                      &zero, (const float *) out, rows, (float *) out, rows);
  else
    bs = cublasDgeam (s.blas, CUBLAS_OP_T, CUBLAS_OP_N, rows, cols, &one, (const double *) in, cols,
                      &zero, (const double *) out, rows, (double *) out, rows);
  return bs == CUBLAS_STATUS_SUCCESS ? TL_GPU_OK : tl_gpu_from_cublas (bs, "a transpose");
}

// cuSOLVER's getrs on the column-major copies (timed region): B in buf->x.
template <typename T>
static TlGpuStatus
reference (const Solve &s)
{
  cusolverStatus_t cs;
  if constexpr (sizeof (T) == 4)
    cs = cusolverDnSgetrs (s.buf->cusolver, CUBLAS_OP_N, s.n, s.k, (const float *) s.buf->lu, s.n,
                           s.buf->perm, (float *) s.buf->x, s.n, s.buf->info);
  else
    cs = cusolverDnDgetrs (s.buf->cusolver, CUBLAS_OP_N, s.n, s.k, (const double *) s.buf->lu, s.n,
                           s.buf->perm, (double *) s.buf->x, s.n, s.buf->info);
  return tl_gpu_from_cusolver (cs, "cusolverDn?getrs");
}

// Uploads and reshapes for the solver; afterwards buf->b holds B the way
// the timed region starts from it.
template <typename T>
static TlGpuStatus
prepare (const Solve &s, bool ref, const TlGpuLuSolveArgs *args)
{
  const size_t lu_bytes = sizeof (T) * (size_t) s.n * s.n, x_bytes = sizeof (T) * (size_t) s.n * s.k;
  int *host = (int *) malloc (sizeof (int) * (size_t) s.n);
  if (host == nullptr)
    return tl_gpu_fail (TL_GPU_OUT_OF_MEMORY, "the solve: no host memory for the pivots");
  TlGpuStatus st = TL_GPU_OK;
  if (ref)
    for (int i = 0; i < s.n; i++)
      host[i] = args->ipiv[i] + 1; // LAPACK's 1-based swaps
  else
    st = compose_swaps (args->ipiv, s.n, host);
  cudaError_t err = cudaSuccess;
  if (st == TL_GPU_OK)
    err = cudaMemcpyAsync (s.buf->perm, host, sizeof (int) * (size_t) s.n, cudaMemcpyHostToDevice, s.stream);
  if (st == TL_GPU_OK && err == cudaSuccess)
    err = cudaStreamSynchronize (s.stream);
  free (host);
  if (st != TL_GPU_OK)
    return st;
  TL_GPU_TRY (err, "uploading the pivots");
  if (!ref)
    {
      TL_GPU_TRY (cudaMemcpyAsync (s.buf->lu, args->lu, lu_bytes, cudaMemcpyHostToDevice, s.stream),
                  "uploading L\\U");
      TL_GPU_TRY (cudaMemcpyAsync (s.buf->b, args->b, x_bytes, cudaMemcpyHostToDevice, s.stream), "uploading B");
      return TL_GPU_OK;
    }
  // column-major copies: upload row-major into x, transpose into lu / b
  TL_GPU_TRY (cudaMemcpyAsync (s.buf->x, args->lu, lu_bytes, cudaMemcpyHostToDevice, s.stream), "uploading L\\U");
  TlGpuStatus ts = transpose<T> (s, s.buf->x, s.n, s.n, s.buf->lu);
  if (ts != TL_GPU_OK)
    return ts;
  TL_GPU_TRY (cudaMemcpyAsync (s.buf->x, args->b, x_bytes, cudaMemcpyHostToDevice, s.stream), "uploading B");
  return transpose<T> (s, s.buf->x, s.n, s.k, s.buf->b);
}

template <typename T>
static TlGpuStatus
run_solver (const Solve &s, bool ref, const TlGpuLuSolveArgs *args, int warmups, int repeats,
            double *times_ms)
{
  TlGpuStatus st = prepare<T> (s, ref, args);
  if (st != TL_GPU_OK)
    return st;
  const size_t x_bytes = sizeof (T) * (size_t) s.n * s.k;
  for (int r = 0; r < warmups + repeats; r++)
    {
      if (ref) // getrs works in place: B again, before the clock starts
        TL_GPU_TRY (cudaMemcpyAsync (s.buf->x, s.buf->b, x_bytes, cudaMemcpyDeviceToDevice, s.stream),
                    "restoring B");
      TL_GPU_TRY (cudaEventRecord (s.buf->start, s.stream), "recording an event");
      st = ref ? reference<T> (s) : ours<T> (s);
      if (st != TL_GPU_OK)
        return st;
      TL_GPU_TRY (cudaEventRecord (s.buf->stop, s.stream), "recording an event");
      double ms = 0;
      TL_GPU_TRY (s.buf->elapsed (&ms), "the GPU solve");
      if (r >= warmups)
        times_ms[r - warmups] = ms;
    }
  if (ref)
    {
      // X back to row-major, through the (now free) B buffer
      st = transpose<T> (s, s.buf->x, s.k, s.n, s.buf->b);
      if (st != TL_GPU_OK)
        return st;
      TL_GPU_TRY (cudaMemcpyAsync (args->b, s.buf->b, x_bytes, cudaMemcpyDeviceToHost, s.stream), "downloading X");
    }
  else
    TL_GPU_TRY (cudaMemcpyAsync (args->b, s.buf->x, x_bytes, cudaMemcpyDeviceToHost, s.stream), "downloading X");
  TL_GPU_TRY (cudaStreamSynchronize (s.stream), "downloading X");
  return TL_GPU_OK;
}

extern "C" TlGpuStatus
tl_gpu_lu_solve_bench (TlGpuDevice *device, const char *solver, const TlGpuLuSolveArgs *args,
                       int warmups, int repeats, double *times_ms)
{
  if (args == nullptr || args->lu == nullptr || args->ipiv == nullptr || args->b == nullptr
      || solver == nullptr || times_ms == nullptr || repeats < 1 || warmups < 0)
    return tl_gpu_fail (TL_GPU_LAUNCH_FAILED, "tl_gpu_lu_solve_bench: NULL or bad argument");
  const bool ref = strcmp (solver, "cusolver-getrs") == 0;
  if (!ref && strcmp (solver, "lu-solve") != 0)
    return tl_gpu_fail (TL_GPU_BAD_SHAPE, "%s is not a GPU solver (lu-solve, cusolver-getrs)", solver);
  TlGpuStatus st = tl_gpu_device_usable (device);
  if (st != TL_GPU_OK)
    return st;
  if (args->dtype != TL_GPU_FLOAT32 && args->dtype != TL_GPU_FLOAT64)
    return tl_gpu_fail (TL_GPU_BAD_SHAPE, "the GPU solve takes float32 and float64 only");
  const int n = args->n, k = args->nrhs;
  if (n < 0 || k < 0)
    return tl_gpu_fail (TL_GPU_BAD_SHAPE, "bad shape %d×%d", n, k);
  for (int r = 0; r < repeats; r++)
    times_ms[r] = 0.0;
  if (n == 0 || k == 0)
    return TL_GPU_OK;

  TL_GPU_TRY (cudaSetDevice (device->ordinal), "cudaSetDevice");
  Solve s;
  s.dtype = args->dtype;
  s.n = n;
  s.k = k;
  s.stream = device->stream;
  st = tl_gpu_device_cublas (device, &s.blas);
  if (st != TL_GPU_OK)
    return st;
  if (cublasSetMathMode (s.blas, CUBLAS_DEFAULT_MATH) != CUBLAS_STATUS_SUCCESS)
    return tl_gpu_fail (TL_GPU_LAUNCH_FAILED, "the solve: cannot set cuBLAS's math mode");
  const size_t es = args->dtype == TL_GPU_FLOAT32 ? 4 : 8;
  const size_t lu_bytes = es * (size_t) n * n, x_bytes = es * (size_t) n * k;
  // the reference also passes L\U through x while transposing it
  const size_t x_room = ref && lu_bytes > x_bytes ? lu_bytes : x_bytes;
  st = tl_gpu_check_free (lu_bytes + x_bytes + x_room + sizeof (int) * (n + 1), "the solve");
  if (st != TL_GPU_OK)
    return st;

  SolveBuffers b;
  s.buf = &b;
  TL_GPU_TRY (cudaMalloc (&b.lu, lu_bytes), "allocating L\\U");
  TL_GPU_TRY (cudaMalloc (&b.b, x_bytes), "allocating B");
  TL_GPU_TRY (cudaMalloc (&b.x, x_room), "allocating X");
  TL_GPU_TRY (cudaMalloc (&b.perm, sizeof (int) * n), "allocating the pivots");
  TL_GPU_TRY (cudaMalloc (&b.info, sizeof (int)), "allocating info");
  TL_GPU_TRY (b.create (), "creating events");
  if (ref)
    {
      if (cusolverDnCreate (&b.cusolver) != CUSOLVER_STATUS_SUCCESS)
        return tl_gpu_fail (TL_GPU_LAUNCH_FAILED, "cusolverDnCreate failed");
      st = tl_gpu_from_cusolver (cusolverDnSetStream (b.cusolver, s.stream),
                                 "cusolverDnSetStream");
      if (st != TL_GPU_OK)
        return st;
    }
  return args->dtype == TL_GPU_FLOAT32 ? run_solver<float> (s, ref, args, warmups, repeats, times_ms)
                                       : run_solver<double> (s, ref, args, warmups, repeats, times_ms);
}

extern "C" TlGpuStatus
tl_gpu_lu_solve (TlGpuDevice *device, const TlGpuLuSolveArgs *args, double *out_ms)
{
  double ms = 0.0;
  TlGpuStatus st = tl_gpu_lu_solve_bench (device, "lu-solve", args, 0, 1, &ms);
  if (out_ms)
    *out_ms = st == TL_GPU_OK ? ms : 0.0;
  return st;
}
