// getrs-plain.cu — cuSOLVER's getrf + getrs alone (no Tilelab code), n = 67,
// nrhs = 3, float32 and float64: does synccheck report the same barrier
// errors in cuBLAS's/cuSOLVER's kernels as in `lu-bench --rhs 3`?
#include <cusolverDn.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

template <typename T>
static int
run (cusolverDnHandle_t h, int n, int nrhs)
{
  T *ha = (T *) malloc (sizeof (T) * n * n), *hb = (T *) malloc (sizeof (T) * n * nrhs);
  srand (7);
  for (int i = 0; i < n * n; i++)
    ha[i] = (T) (rand () / (double) RAND_MAX - 0.5);
  for (int i = 0; i < n * nrhs; i++)
    hb[i] = (T) (rand () / (double) RAND_MAX - 0.5);
  T *a, *b, *work;
  int *ipiv, *info, lwork = 0, hinfo = -1;
  cudaMalloc (&a, sizeof (T) * n * n);
  cudaMalloc (&b, sizeof (T) * n * nrhs);
  cudaMalloc (&ipiv, sizeof (int) * n);
  cudaMalloc (&info, sizeof (int));
  cudaMemcpy (a, ha, sizeof (T) * n * n, cudaMemcpyHostToDevice);
  cudaMemcpy (b, hb, sizeof (T) * n * nrhs, cudaMemcpyHostToDevice);
  if constexpr (sizeof (T) == 4)
    cusolverDnSgetrf_bufferSize (h, n, n, (float *) a, n, &lwork);
  else
    cusolverDnDgetrf_bufferSize (h, n, n, (double *) a, n, &lwork);
  cudaMalloc (&work, sizeof (T) * (lwork > 0 ? lwork : 1));
  cusolverStatus_t s1, s2;
  if constexpr (sizeof (T) == 4)
    {
      s1 = cusolverDnSgetrf (h, n, n, a, n, work, ipiv, info);
      s2 = cusolverDnSgetrs (h, CUBLAS_OP_N, n, nrhs, a, n, ipiv, b, n, info);
    }
  else
    {
      s1 = cusolverDnDgetrf (h, n, n, a, n, work, ipiv, info);
      s2 = cusolverDnDgetrs (h, CUBLAS_OP_N, n, nrhs, a, n, ipiv, b, n, info);
    }
  cudaError_t e = cudaDeviceSynchronize ();
  cudaMemcpy (&hinfo, info, sizeof (int), cudaMemcpyDeviceToHost);
  printf ("%s n=%d nrhs=%d: getrf %d getrs %d info %d cuda %s\n", sizeof (T) == 4 ? "float32" : "float64",
          n, nrhs, (int) s1, (int) s2, hinfo, cudaGetErrorString (e));
  cudaFree (a); cudaFree (b); cudaFree (work); cudaFree (ipiv); cudaFree (info);
  free (ha); free (hb);
  return e != cudaSuccess || s1 || s2;
}

int
main (void)
{
  cusolverDnHandle_t h;
  if (cusolverDnCreate (&h) != CUSOLVER_STATUS_SUCCESS)
    return 2;
  int bad = run<float> (h, 67, 3) + run<double> (h, 67, 3) + run<double> (h, 300, 3);
  cusolverDnDestroy (h);
  return bad ? 1 : 0;
}
