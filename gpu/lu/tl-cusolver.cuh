// tl-cusolver.cuh — cuSOLVER's status as the door's (the LU reference, the
// rank's SVD and the solve benchmark's getrs all call cuSOLVER).
#pragma once

#include <cusolverDn.h>
#include "../tl-gpu-internal.h"

// TL_GPU_OK, TL_GPU_OUT_OF_MEMORY when cuSOLVER could not allocate, else
// TL_GPU_LAUNCH_FAILED; the message names `what` and the status.
TlGpuStatus tl_gpu_from_cusolver (cusolverStatus_t st, const char *what);
