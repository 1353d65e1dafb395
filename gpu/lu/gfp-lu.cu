// gfp-lu.cu — exact Gauss elimination over GF(p) on the GPU.
//
// Seed 004 verified its CUDA elimination over residue-class fields first,
// "because there results are always exact".  The same here: rung 1's
// three launches per column, in modular arithmetic on uint32 residues:
//   gfp_pivot_kernel   the FIRST nonzero entry at or below the diagonal
//                      (any nonzero is an exact pivot; taking the first
//                      makes the GPU and tl_gfp_lu on the CPU agree bit for
//                      bit, which is the point of the exact mode)
//   lu_swap_kernel     as for floats (rows are contiguous)
//   gfp_update_kernel  l = a(i,c)·a(c,c)⁻¹, a(i,j) −= l·a(c,j)  (mod p)
// A product of two residues is below p² < 2⁶², formed in 64 bits and
// reduced with the 64-bit remainder; the inverse is Fermat's a^(p−2),
// computed once per column by the pivot kernel.
#include "tl-lu-gpu.cuh"

__device__ static inline uint32_t
mulmod (uint32_t a, uint32_t b, uint32_t p)
{
  return (uint32_t) (((uint64_t) a * b) % p);
}

__device__ static uint32_t
powmod (uint32_t a, uint32_t e, uint32_t p)
{
  uint32_t r = 1 % p;
  while (e)
    {
      if (e & 1)
        r = mulmod (r, a, p);
      a = mulmod (a, a, p);
      e >>= 1;
    }
  return r;
}

// One block: the smallest row index i ≥ c with a(i,c) ≠ 0; ipiv[c] = it
// (or c for a zero column) and inv[0] = the pivot's inverse (0 if none).
__global__ static void
gfp_pivot_kernel (const uint32_t *__restrict__ a, int m, int lda, int c, uint32_t p,
                  int *__restrict__ ipiv, uint32_t *__restrict__ inv)
{
  __shared__ int first[1024];
  int mine = m;
  for (int i = c + threadIdx.x; i < m; i += blockDim.x)
    if (a[(size_t) i * lda + c] != 0)
      {
        mine = i;
        break; // rows grow with the loop: the first hit is this thread's smallest
      }
  first[threadIdx.x] = mine;
  __syncthreads ();
  for (int s = blockDim.x / 2; s > 0; s >>= 1)
    {
      if (threadIdx.x < s && first[threadIdx.x + s] < first[threadIdx.x])
        first[threadIdx.x] = first[threadIdx.x + s];
      __syncthreads ();
    }
  if (threadIdx.x == 0)
    {
      int r = first[0];
      ipiv[c] = r < m ? r : c;
      inv[0] = r < m ? powmod (a[(size_t) r * lda + c], p - 2, p) : 0;
    }
}

// Rows c+1..m−1, one warp per row (as lu_update_kernel): the multiplier
// replaces a(i,c), the row is updated in columns c+1..n−1.
__global__ static void
gfp_update_kernel (uint32_t *__restrict__ a, int m, int n, int lda, int c, uint32_t p,
                   const uint32_t *__restrict__ inv)
{
  const int i = c + 1 + blockIdx.y * blockDim.y + threadIdx.y;
  const uint32_t pinv = inv[0];
  if (i >= m || pinv == 0)
    return;
  const uint32_t l = mulmod (a[(size_t) i * lda + c], pinv, p);
  __syncwarp ();
  if (threadIdx.x == 0)
    a[(size_t) i * lda + c] = l;
  if (l == 0)
    return;
  for (int j = c + 1 + threadIdx.x; j < n; j += blockDim.x)
    {
      uint32_t t = mulmod (l, a[(size_t) c * lda + j], p);
      uint32_t v = a[(size_t) i * lda + j];
      a[(size_t) i * lda + j] = v >= t ? v - t : v + (p - t);
    }
}

// The elimination, column by column: the pivot (and its inverse mod p),
// the row swap, the update of the rows below.
static cudaError_t
gfp_eliminate (uint32_t *d_a, int m, int n, uint32_t p, int *d_ipiv, uint32_t *d_inv,
               cudaStream_t stream)
{
  const int mn = m < n ? m : n;
  cudaError_t err = cudaSuccess;
  for (int c = 0; c < mn && err == cudaSuccess; c++)
    {
      gfp_pivot_kernel<<<1, 1024, 0, stream>>> (d_a, m, n, c, p, d_ipiv, d_inv);
      int blocks = (n + 255) / 256;
      lu_swap_kernel<uint32_t><<<blocks < 1024 ? blocks : 1024, 256, 0, stream>>> (d_a, n, c, d_ipiv, 0, n);
      if (c + 1 < m)
        {
          dim3 block (32, 8), grid (1, (m - c - 1 + 7) / 8);
          gfp_update_kernel<<<grid, block, 0, stream>>> (d_a, m, n, n, c, p, d_inv);
        }
      err = cudaGetLastError ();
    }
  return err;
}

extern "C" TlGpuStatus
tl_gpu_gfp_lu (TlGpuDevice *device, int m, int n, uint32_t p, uint32_t *a, int *ipiv,
               int *out_info, double *out_ms)
{
  if (out_info)
    *out_info = 0;
  if (out_ms)
    *out_ms = 0.0;
  if (a == nullptr || ipiv == nullptr || m < 0 || n < 0)
    return tl_gpu_fail (TL_GPU_BAD_SHAPE, "tl_gpu_gfp_lu: bad arguments");
  if (p < 2 || p > 2147483647u)
    return tl_gpu_fail (TL_GPU_BAD_SHAPE, "the modulus must be a prime below 2^31");
  TlGpuStatus st = tl_gpu_device_usable (device);
  if (st != TL_GPU_OK)
    return st;
  const int mn = m < n ? m : n;
  if (mn == 0)
    return TL_GPU_OK;
  TL_GPU_TRY (cudaSetDevice (device->ordinal), "cudaSetDevice");
  cudaStream_t stream = device->stream;
  const size_t bytes = sizeof (uint32_t) * (size_t) m * n;
  uint32_t *d_a = nullptr, *d_inv = nullptr;
  int *d_ipiv = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  cudaError_t err = cudaMalloc (&d_a, bytes);
  if (err == cudaSuccess)
    err = cudaMalloc (&d_inv, sizeof (uint32_t));
  if (err == cudaSuccess)
    err = cudaMalloc (&d_ipiv, sizeof (int) * mn);
  if (err == cudaSuccess)
    err = cudaEventCreate (&start);
  if (err == cudaSuccess)
    err = cudaEventCreate (&stop);
  if (err == cudaSuccess)
    err = cudaMemcpyAsync (d_a, a, bytes, cudaMemcpyHostToDevice, stream);
  if (err == cudaSuccess)
    err = cudaEventRecord (start, stream);
  if (err == cudaSuccess)
    err = gfp_eliminate (d_a, m, n, p, d_ipiv, d_inv, stream);
  if (err == cudaSuccess)
    err = cudaEventRecord (stop, stream);
  if (err == cudaSuccess)
    err = cudaMemcpyAsync (a, d_a, bytes, cudaMemcpyDeviceToHost, stream);
  if (err == cudaSuccess)
    err = cudaMemcpyAsync (ipiv, d_ipiv, sizeof (int) * mn, cudaMemcpyDeviceToHost, stream);
  if (err == cudaSuccess)
    err = cudaStreamSynchronize (stream);
  if (err != cudaSuccess)
    st = tl_gpu_from_cuda (err, "exact LU over GF(p)");
  else
    {
      float ms = 0;
      cudaEventElapsedTime (&ms, start, stop);
      if (out_ms)
        *out_ms = ms;
      if (out_info)
        for (int k = 0; k < mn; k++)
          if (a[(size_t) k * n + k] == 0)
            {
              *out_info = k + 1;
              break;
            }
    }
  cudaFree (d_a);
  cudaFree (d_inv);
  cudaFree (d_ipiv);
  if (start)
    cudaEventDestroy (start);
  if (stop)
    cudaEventDestroy (stop);
  return st;
}
