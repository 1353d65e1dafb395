// tl-gpu-nvrtc.cu — a user's kernel file compiled at run time (NVRTC).
//
// NVRTC is the CUDA toolkit's compiler as a library: source text in, a
// cubin for one architecture out, with the same front end and ptxas as
// nvcc.  It needs no GPU and no driver, so `tilelab-cli kernel check` works
// on a laptop or in CI.  It is opened with dlopen on the first compile (as
// CUPTI is for the counters): a machine without it still runs every ladder
// rung, and the message says where it was looked for.
//
// What the compile gets:
//   - the file as one program named after it, so NVRTC's messages read
//     "mine.cu(12): error: …" with the line and a caret under the column;
//   - the caller's tail after it (the entries' signature checks, each under
//     a #line of its declaration, so a wrong entry is reported there);
//   - tilelab.cuh and tl-block-clock.cuh as in-memory headers (the text
//     the build embedded from gpu/), so `#include "tilelab.cuh"` works
//     without any include path;
//   - the options of the ladder's nvcc build that matter for the code
//     (C++17, -lineinfo), the architecture, and
//     ptxas's verbose report (registers, shared, constant and local memory,
//     spills), which lands in the log beside the diagnostics;
//   - TILELAB_TIMED=1 for the build whose marks write block records.
// Each entry's name expression is registered, so the cubin's (mangled)
// name of `gemm<float>` comes back for the launch.
#include "tl-gpu-internal.h"

#include <nvrtc.h>

#include <chrono>
#include <dlfcn.h>
#include <mutex>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <string>
#include <vector>

// tilelab.cuh and the header it includes, as text (tools/embed-text.py
// writes them into tl-user-headers.c at build time)
extern "C" const int tl_user_header_n_files;
extern "C" const char *const tl_user_header_names[];
extern "C" const char *const tl_user_header_texts[];

namespace {

#define TL_NVRTC_FUNCTIONS(X)                                                                      \
  X (nvrtcVersion)                                                                                 \
  X (nvrtcGetErrorString)                                                                          \
  X (nvrtcGetNumSupportedArchs)                                                                    \
  X (nvrtcGetSupportedArchs)                                                                       \
  X (nvrtcCreateProgram)                                                                           \
  X (nvrtcDestroyProgram)                                                                          \
  X (nvrtcAddNameExpression)                                                                       \
  X (nvrtcCompileProgram)                                                                          \
  X (nvrtcGetProgramLogSize)                                                                       \
  X (nvrtcGetProgramLog)                                                                           \
  X (nvrtcGetCUBINSize)                                                                            \
  X (nvrtcGetCUBIN)                                                                                \
  X (nvrtcGetLoweredName)

struct Nvrtc
{
#define TL_NVRTC_POINTER(name) decltype (&::name) name = nullptr;
  TL_NVRTC_FUNCTIONS (TL_NVRTC_POINTER)
#undef TL_NVRTC_POINTER
  bool ready = false;
  int major = 0, minor = 0;
  std::vector<int> archs; // what this NVRTC compiles for, × 10 (75, 80, …, 120)
  char why[512] = "";     // why not ready
};

// Where libnvrtc may be: the dynamic linker's path first, then the usual
// CUDA installs.  TL_NVRTC_LIBRARY names the one file to use instead (and
// lets a test point at a missing file).
void *
open_nvrtc (char *tried, size_t tried_size)
{
  const char *forced = getenv ("TL_NVRTC_LIBRARY");
  static const char *const places[] = {
    "libnvrtc.so.13",
    "libnvrtc.so",
    "/usr/local/cuda/lib64/libnvrtc.so.13",
    "/usr/local/cuda/targets/x86_64-linux/lib/libnvrtc.so.13",
  };
  if (forced != nullptr && forced[0] != '\0')
    {
      snprintf (tried, tried_size, "%s", forced);
      return dlopen (forced, RTLD_NOW | RTLD_LOCAL);
    }
  snprintf (tried, tried_size, "libnvrtc.so.13 on the library path and in /usr/local/cuda");
  for (const char *p : places)
    if (void *lib = dlopen (p, RTLD_NOW | RTLD_LOCAL))
      return lib;
  return nullptr;
}

void
load_nvrtc (Nvrtc *n)
{
  char tried[256];
  void *lib = open_nvrtc (tried, sizeof tried);
  if (lib == nullptr)
    {
      const char *why = dlerror ();
      snprintf (n->why, sizeof n->why,
                "NVIDIA's run-time compiler NVRTC (part of the CUDA toolkit) was not found "
                "(looked for %s%s%s)",
                tried, why ? ": " : "", why ? why : "");
      return;
    }
#define TL_NVRTC_LOOKUP(name)                                                                      \
  n->name = (decltype (&::name)) dlsym (lib, #name);                                               \
  if (n->name == nullptr)                                                                          \
    {                                                                                              \
      snprintf (n->why, sizeof n->why,                                                             \
                "the NVRTC library found (%s) is too old: it has no %s", tried, #name);            \
      return;                                                                                      \
    }
  TL_NVRTC_FUNCTIONS (TL_NVRTC_LOOKUP)
#undef TL_NVRTC_LOOKUP
  n->nvrtcVersion (&n->major, &n->minor);
  int count = 0;
  if (n->nvrtcGetNumSupportedArchs (&count) == NVRTC_SUCCESS && count > 0)
    {
      std::vector<int> sm (count);
      if (n->nvrtcGetSupportedArchs (sm.data ()) == NVRTC_SUCCESS)
        n->archs = sm;
    }
  n->ready = true;
}

// The process's NVRTC, loaded on the first compile.
Nvrtc &
nvrtc ()
{
  static Nvrtc n;
  static std::once_flag once;
  std::call_once (once, load_nvrtc, &n);
  return n;
}

// "sm_75, sm_80, … sm_121": the architectures this NVRTC knows.
std::string
arch_list (const Nvrtc &n)
{
  std::string s;
  for (int a : n.archs)
    s += (s.empty () ? "sm_" : ", sm_") + std::to_string (a);
  return s;
}

char *
copy_string (const char *s)
{
  size_t len = strlen (s);
  char *out = (char *) malloc (len + 1);
  if (out != nullptr)
    memcpy (out, s, len + 1);
  return out;
}

struct Program
{
  nvrtcProgram p = nullptr;
  ~Program ()
  {
    if (p != nullptr)
      nvrtc ().nvrtcDestroyProgram (&p);
  }
};

TlGpuStatus
nvrtc_fail (nvrtcResult r, const char *what)
{
  return tl_gpu_fail (TL_GPU_LAUNCH_FAILED, "NVRTC failed %s: %s", what,
                      nvrtc ().nvrtcGetErrorString (r));
}

// The log, the cubin and the lowered names of a finished compilation.
TlGpuStatus
take_outputs (const TlGpuUserSource *source, nvrtcProgram p, bool compiled, TlGpuUserBuild *out)
{
  Nvrtc &n = nvrtc ();
  size_t log_size = 0;
  nvrtcResult r = n.nvrtcGetProgramLogSize (p, &log_size);
  if (r != NVRTC_SUCCESS)
    return nvrtc_fail (r, "reading its log");
  out->log = (char *) calloc (log_size + 1, 1);
  if (out->log == nullptr)
    return tl_gpu_fail (TL_GPU_OUT_OF_MEMORY, "out of host memory for the compiler's log");
  if (log_size > 0 && (r = n.nvrtcGetProgramLog (p, out->log)) != NVRTC_SUCCESS)
    return nvrtc_fail (r, "reading its log");
  if (!compiled)
    return TL_GPU_OK;
  if ((r = n.nvrtcGetCUBINSize (p, &out->image_size)) != NVRTC_SUCCESS)
    return nvrtc_fail (r, "reading the cubin's size");
  out->image = malloc (out->image_size);
  if (out->image == nullptr)
    return tl_gpu_fail (TL_GPU_OUT_OF_MEMORY, "out of host memory for the cubin");
  if ((r = n.nvrtcGetCUBIN (p, (char *) out->image)) != NVRTC_SUCCESS)
    return nvrtc_fail (r, "reading the cubin");
  for (int d = 0; d < 3; d++)
    {
      if (source->entries[d] == nullptr)
        continue;
      const char *lowered = nullptr;
      if ((r = n.nvrtcGetLoweredName (p, source->entries[d], &lowered)) != NVRTC_SUCCESS)
        return nvrtc_fail (r, "naming an entry in the cubin");
      if ((out->lowered[d] = copy_string (lowered)) == nullptr)
        return tl_gpu_fail (TL_GPU_OUT_OF_MEMORY, "out of host memory");
    }
  out->compiled = 1;
  return TL_GPU_OK;
}

} // namespace

extern "C" TlGpuStatus
tl_gpu_user_compile (const TlGpuUserSource *source, TlGpuUserBuild *out)
{
  if (out == nullptr || source == nullptr || source->source == nullptr)
    return tl_gpu_fail (TL_GPU_BAD_SHAPE, "tl_gpu_user_compile: missing argument");
  memset (out, 0, sizeof *out);
  Nvrtc &n = nvrtc ();
  if (!n.ready)
    return tl_gpu_fail (TL_GPU_NO_DEVICE, "%s", n.why);
  out->nvrtc_major = n.major;
  out->nvrtc_minor = n.minor;
  bool known = n.archs.empty ();
  for (int a : n.archs)
    known = known || a == source->arch;
  if (!known)
    return tl_gpu_fail (TL_GPU_BAD_SHAPE, "NVRTC %d.%d cannot compile for sm_%d; it knows %s",
                        n.major, n.minor, source->arch, arch_list (n).c_str ());

  std::string text = source->source;
  if (source->tail != nullptr)
    text += std::string ("\n") + source->tail;
  const char *const file_name = source->file_name ? source->file_name : "kernel.cu";

  auto t0 = std::chrono::steady_clock::now ();
  Program program;
  nvrtcResult r = n.nvrtcCreateProgram (&program.p, text.c_str (), file_name,
                                        tl_user_header_n_files, tl_user_header_texts,
                                        tl_user_header_names);
  if (r != NVRTC_SUCCESS)
    return nvrtc_fail (r, "creating the program");
  for (int d = 0; d < 3; d++)
    if (source->entries[d] != nullptr
        && (r = n.nvrtcAddNameExpression (program.p, source->entries[d])) != NVRTC_SUCCESS)
      return nvrtc_fail (r, "registering an entry's name");

  const std::string arch = "--gpu-architecture=sm_" + std::to_string (source->arch);
  std::vector<const char *> options = {
    arch.c_str (), "--std=c++17", "--generate-line-info",
    "--ptxas-options=-v",
  };
  if (source->timed)
    options.push_back ("-DTILELAB_TIMED=1");
  r = n.nvrtcCompileProgram (program.p, (int) options.size (), options.data ());
  out->compile_ms =
    std::chrono::duration<double, std::milli> (std::chrono::steady_clock::now () - t0).count ();
  if (r != NVRTC_SUCCESS && r != NVRTC_ERROR_COMPILATION)
    return nvrtc_fail (r, "compiling");
  TlGpuStatus st = take_outputs (source, program.p, r == NVRTC_SUCCESS, out);
  if (st != TL_GPU_OK)
    {
      tl_gpu_user_build_clear (out);
      return st;
    }
  tl_gpu_clear_message ();
  return TL_GPU_OK;
}

extern "C" void
tl_gpu_user_build_clear (TlGpuUserBuild *build)
{
  if (build == nullptr)
    return;
  free (build->log);
  for (char *name : build->lowered)
    free (name);
  free (build->image);
  memset (build, 0, sizeof *build);
}
