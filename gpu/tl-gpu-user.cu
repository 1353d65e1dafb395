// tl-gpu-user.cu — a user's compiled kernel, run as a rung of the ladder.
//
// The cubins NVRTC made (tl-gpu-nvrtc.cu) are loaded as CUDA libraries
// (cudaLibraryLoadData); the entry of the run's dtype becomes a
// cudaKernel_t, which the runtime accepts wherever it takes a kernel
// (launch, attributes, occupancy), so the rung below is an ordinary
// TlGemmRung and the harness (tl-gpu-gemm.cu) times, poisons, instruments
// and counts it exactly as it does the ladder.  Two differences:
//   - the timed build (TILELAB_TIMED) finds its block-record buffer in the
//     __device__ pointer tilelab_block_records (tilelab.cuh), set once
//     before the first instrumented launch, since the ladder's signature
//     has no parameter for it;
//   - the rung is guarded: the harness checks the memory around C and the
//     inputs after the runs (a student's kernel may write anywhere).
// Before anything runs, the geometry is checked against this GPU's limits
// so that a block too large, too much shared memory or too many registers
// is a sentence naming the numbers, not "too many resources requested".
#include "tl-gpu-internal.h"
#include "gemm/tl-gemm-rung.h"
#include "tilelab.cuh"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

// The records a user kernel's marks write are the ladder's, byte for byte.
static_assert (sizeof (tilelab_block_record) == sizeof (TlGpuBlockRecord), "record size");
static_assert (offsetof (tilelab_block_record, block_x) == offsetof (TlGpuBlockRecord, block_x)
                 && offsetof (tilelab_block_record, sm) == offsetof (TlGpuBlockRecord, sm)
                 && offsetof (tilelab_block_record, launch) == offsetof (TlGpuBlockRecord, launch)
                 && offsetof (tilelab_block_record, start_ns)
                      == offsetof (TlGpuBlockRecord, start_ns)
                 && offsetof (tilelab_block_record, end_ns) == offsetof (TlGpuBlockRecord, end_ns),
               "record layout");

namespace {

// One loaded build (plain or timed) of the kernel.
struct Loaded
{
  cudaLibrary_t library = nullptr;
  cudaKernel_t kernel = nullptr;
  void *records = nullptr; // &tilelab_block_records on the device (timed build)

  ~Loaded ()
  {
    if (library != nullptr && !tl_gpu_is_lost ())
      cudaLibraryUnload (library);
  }
};

struct UserProgram
{
  const TlGpuUserLaunch *spec = nullptr;
  Loaded plain, timed;
  const TlGpuBlockRecord *records_set = nullptr; // what tilelab_block_records holds now
};

TlGpuStatus
load (const UserProgram &p, const void *image, bool timed, Loaded *out)
{
  const char *build = timed ? "its timed build" : "its build";
  cudaError_t err = cudaLibraryLoadData (&out->library, image, nullptr, nullptr, 0, nullptr,
                                         nullptr, 0);
  if (err == cudaErrorNoKernelImageForDevice || err == cudaErrorInvalidKernelImage)
    {
      (void) cudaGetLastError ();
      return tl_gpu_fail (TL_GPU_BAD_SHAPE,
                          "%s: %s was compiled for another GPU architecture than this one "
                          "(%s); compile it again for this GPU",
                          p.spec->name, build, cudaGetErrorString (err));
    }
  TL_GPU_TRY (err, "loading the compiled kernel");
  err = cudaLibraryGetKernel (&out->kernel, out->library, p.spec->entry);
  if (err != cudaSuccess)
    {
      (void) cudaGetLastError ();
      return tl_gpu_fail (TL_GPU_BAD_SHAPE, "%s: %s has no kernel named %s", p.spec->name, build,
                          p.spec->entry);
    }
  if (timed)
    {
      // marks the compiler found unreachable leave no records to write:
      // the run goes on untimed per block
      size_t bytes = 0;
      err = cudaLibraryGetGlobal (&out->records, &bytes, out->library, "tilelab_block_records");
      if (err != cudaSuccess || bytes != sizeof (void *))
        {
          (void) cudaGetLastError ();
          out->kernel = nullptr;
        }
    }
  return TL_GPU_OK;
}

const UserProgram &
program_of (const TlGemmLaunch *l)
{
  return *(const UserProgram *) l->user;
}

cudaError_t
user_launch (const TlGemmLaunch *l)
{
  UserProgram &p = *(UserProgram *) l->user;
  const TlGpuUserLaunch *s = p.spec;
  const Loaded &build = l->blocks != nullptr ? p.timed : p.plain;
  if (l->blocks != nullptr && p.records_set != l->blocks)
    {
      // once per run (the instrumented warm-up comes first): the address
      // the marks write to, copied from the launch struct, which outlives
      // the copy's staging
      cudaError_t err = cudaMemcpyAsync (build.records, &l->blocks, sizeof l->blocks,
                                         cudaMemcpyHostToDevice, l->stream);
      if (err != cudaSuccess)
        return err;
      p.records_set = l->blocks;
    }
  int m = l->m, n = l->n, k = l->k;
  const void *a = l->a, *b = l->b;
  void *c = l->c;
  void *params[] = { &m, &n, &k, &a, &b, &c };
  return cudaLaunchKernel ((const void *) build.kernel, dim3 (s->grid[0], s->grid[1], s->grid[2]),
                           dim3 (s->block[0], s->block[1], s->block[2]), params,
                           (size_t) s->dynamic_smem, l->stream);
}

void
user_shape (const TlGemmLaunch *l, TlGemmShape *out)
{
  const UserProgram &p = program_of (l);
  const TlGpuUserLaunch *s = p.spec;
  out->kernel = (const void *) p.plain.kernel;
  out->grid = dim3 (s->grid[0], s->grid[1], s->grid[2]);
  out->block = dim3 (s->block[0], s->block[1], s->block[2]);
  out->dynamic_smem = (int) s->dynamic_smem;
  out->launches = 1;
  out->total_blocks = (size_t) s->grid[0] * s->grid[1] * s->grid[2];
}

int
attribute (cudaDeviceAttr what, int device)
{
  int value = 0;
  if (cudaDeviceGetAttribute (&value, what, device) != cudaSuccess)
    (void) cudaGetLastError ();
  return value;
}

// The launch this GPU would refuse, in words: the block's threads, its
// shared memory and its registers against the limits of one block.
TlGpuStatus
user_check (const TlGemmLaunch *l, char *why, size_t why_size)
{
  const UserProgram &p = program_of (l);
  const TlGpuUserLaunch *s = p.spec;
  const unsigned threads = s->block[0] * s->block[1] * s->block[2];
  const int max_threads = attribute (cudaDevAttrMaxThreadsPerBlock, l->device);
  if (threads == 0 || (max_threads > 0 && threads > (unsigned) max_threads) || s->block[2] > 64)
    {
      snprintf (why, why_size,
                "its block of %u×%u×%u threads is more than a block may have (at most %d "
                "threads, and at most 64 in z)",
                s->block[0], s->block[1], s->block[2], max_threads);
      return TL_GPU_LAUNCH_FAILED;
    }
  if (s->grid[0] == 0 || s->grid[1] == 0 || s->grid[2] == 0 || s->grid[2] > 65535)
    {
      snprintf (why, why_size, "its grid of %u×%u×%u blocks is empty or too large", s->grid[0],
                s->grid[1], s->grid[2]);
      return TL_GPU_LAUNCH_FAILED;
    }
  cudaFuncAttributes attr;
  if (cudaFuncGetAttributes (&attr, (const void *) p.plain.kernel) != cudaSuccess)
    {
      (void) cudaGetLastError ();
      return TL_GPU_OK; // the launch will say what is wrong
    }
  const int optin = attribute (cudaDevAttrMaxSharedMemoryPerBlockOptin, l->device);
  const size_t smem = attr.sharedSizeBytes + s->dynamic_smem;
  if (optin > 0 && smem > (size_t) optin)
    {
      snprintf (why, why_size,
                "its blocks need %zu bytes of shared memory (%zu static + %u dynamic); a block "
                "on this GPU can have at most %d",
                smem, attr.sharedSizeBytes, s->dynamic_smem, optin);
      return TL_GPU_LAUNCH_FAILED;
    }
  if (threads > (unsigned) attr.maxThreadsPerBlock)
    {
      const int regs_per_block = attribute (cudaDevAttrMaxRegistersPerBlock, l->device);
      snprintf (why, why_size,
                "it uses %d registers per thread and a block has %d, so a block can have at "
                "most %d threads here, not %u: use fewer threads per block, or fewer registers "
                "(__launch_bounds__ caps them; it also caps the threads)",
                attr.numRegs, regs_per_block, attr.maxThreadsPerBlock, threads);
      return TL_GPU_LAUNCH_FAILED;
    }
  return TL_GPU_OK;
}

// Raises the dynamic shared-memory limit of both builds when a block asks
// for more than the default 48 KB (per device: every run asks its own).
cudaError_t
user_prepare (TlGemmLaunch *l)
{
  UserProgram &p = *(UserProgram *) l->user;
  p.records_set = nullptr;
  const int bytes = (int) p.spec->dynamic_smem;
  if (bytes <= 48 * 1024)
    return cudaSuccess;
  for (const Loaded *b : { &p.plain, &p.timed })
    if (b->kernel != nullptr)
      {
        cudaError_t err = cudaFuncSetAttribute ((const void *) b->kernel,
                                                cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                bytes);
        if (err != cudaSuccess)
          return err;
      }
  return cudaSuccess;
}

// Blocks whose marks did not run (no marks, or an END some blocks never
// reach) leave all-ones records: then the records say nothing, and the
// run keeps none of them.
void
drop_unwritten_records (TlGpuGemmResult *out)
{
  for (size_t i = 0; i < out->n_blocks; i++)
    if (out->blocks[i].sm == 0xFFFFFFFFu)
      {
        free (out->blocks);
        out->blocks = nullptr;
        out->n_blocks = 0;
        return;
      }
}

} // namespace

extern "C" TlGpuStatus
tl_gpu_user_gemm_run (TlGpuDevice *device, const TlGpuUserLaunch *kernel,
                      const TlGpuGemmArgs *args, TlGpuGemmResult *out_result)
{
  if (out_result == nullptr || args == nullptr || kernel == nullptr || kernel->image == nullptr
      || kernel->entry == nullptr)
    return tl_gpu_fail (TL_GPU_BAD_SHAPE, "tl_gpu_user_gemm_run: missing argument");
  memset (out_result, 0, sizeof *out_result);
  if (device == nullptr)
    return tl_gpu_fail (TL_GPU_NO_DEVICE, "no GPU is open");
  if (tl_gpu_is_lost ())
    return tl_gpu_lost_status ();
  TL_GPU_TRY (cudaSetDevice (device->ordinal), "cudaSetDevice");

  UserProgram program;
  program.spec = kernel;
  TlGpuStatus st = load (program, kernel->image, false, &program.plain);
  if (st == TL_GPU_OK && kernel->timed_image != nullptr)
    st = load (program, kernel->timed_image, true, &program.timed);
  if (st != TL_GPU_OK)
    return st;

  TlGpuKernelInfo info;
  memset (&info, 0, sizeof info);
  info.id = kernel->name ? kernel->name : "user kernel";
  info.title = info.id;
  info.lesson = "";
  info.seed = "";
  info.dtypes = TL_GPU_DTYPE_BIT (args->dtype);
  info.instrumentable = program.timed.kernel != nullptr;
  info.kind = TL_GPU_KIND_RUNG;
  info.precision = "fp32";

  TlGemmRung rung;
  memset (&rung, 0, sizeof rung);
  rung.id = info.id;
  rung.launch = user_launch;
  rung.shape = user_shape;
  rung.check = user_check;
  rung.prepare = user_prepare;
  st = tl_gpu_gemm_run_rung (device, &info, &rung, &program, true, args, out_result);
  if (st == TL_GPU_OK)
    drop_unwritten_records (out_result);
  return st;
}
