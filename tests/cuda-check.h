/* cuda-check.h — CK(), for the hand-run CUDA microbenchmarks in tests/
 * (bench-gpu-lu-cluster.cu) and the labs in lab/ (built with -Itests). */
#pragma once

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

// A CUDA call that must succeed, or the program stops (exit status 2).
#define CK(x)                                                                                   \
  do                                                                                            \
    {                                                                                           \
      cudaError_t e_ = (x);                                                                     \
      if (e_ != cudaSuccess)                                                                    \
        {                                                                                       \
          fprintf (stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString (e_)); \
          exit (2);                                                                             \
        }                                                                                       \
    }                                                                                           \
  while (0)
