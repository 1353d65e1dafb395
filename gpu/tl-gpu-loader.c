/* tl-gpu-loader.c — tl-gpu.h for the executables: CUDA loaded on first use.
 *
 * The executables and src/ link this file, the stub and the registries —
 * never CUDA.  In a CUDA build the CUDA side of gpu/ is a module,
 * libtilelab-gpu-cuda.so (tl-gpu-module.c), linked with cudart, cuBLAS and
 * cuSOLVER.  The first call that needs CUDA (a LOAD row of
 * tl-gpu-backend-list.h: counting devices, opening one, running a rung)
 * opens the module with dlopen, checks that it was built from the same
 * door (tl-gpu-backend.h) and from then on forwards every call to it.  That
 * first call comes from the runner's worker, after the window's first
 * frame: mapping and relocating CUDA's few hundred megabytes costs the
 * window nothing.  Asking for the ladders (the registries), for
 * tl_gpu_status_name or tl_gpu_built_with_cuda loads nothing.
 *
 * Where the module is looked for, first hit wins:
 *   1. $TILELAB_GPU_BACKEND, a path to the module (then only there);
 *   2. the build tree (TL_GPU_MODULE_BUILD_PATH), when the running program
 *      is itself in the build tree: tests and `build/ui/tilelab`;
 *   3. beside the program: PREFIX/LIBDIR/tilelab/, then PREFIX/lib/tilelab/,
 *      for a program in PREFIX/bin/ (LIBDIR as configured, relative to the
 *      prefix: a relocated install; the GPU machine's bundles use lib/);
 *   4. where `meson install` puts it: LIBDIR/tilelab/.
 * If it cannot be opened — not installed, libcudart missing on a laptop
 * without CUDA, a module of another version — every call answers as the
 * stub does (no device), and tl_gpu_last_message says why in one sentence
 * naming the path and the dynamic loader's reason: the window shows it in
 * its "no GPU" bar.  Nothing is retried: the answer holds for the process.
 *
 * In a build without CUDA (TL_GPU_LOADS_MODULE undefined) there is no
 * module and the loader forwards to the stub from the start.
 */
#include "tl-gpu-backend.h"

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if TL_GPU_LOADS_MODULE
#include <dlfcn.h>
#endif

/* The module's table once it is open and checked; NULL before and after a
 * failure (then the stub answers).  Written once, inside load_once. */
static _Atomic (const TlGpuBackend *) module_backend;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

int
tl_gpu_built_with_cuda (void)
{
#if TL_GPU_LOADS_MODULE
  return 1;
#else
  return 0;
#endif
}

#if TL_GPU_LOADS_MODULE

/* Opens path and checks its table; NULL with a sentence in why when it
 * cannot be used. */
static const TlGpuBackend *
open_module (const char *path, char *why, size_t why_size)
{
  void *handle = dlopen (path, RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL)
    {
      snprintf (why, why_size, "the CUDA backend %s could not be loaded: %s", path, dlerror ());
      return NULL;
    }
  TlGpuBackendEntry entry;
  /* POSIX's way to turn dlsym's object pointer into a function pointer */
  *(void **) &entry = dlsym (handle, TL_GPU_BACKEND_ENTRY);
  if (entry == NULL)
    {
      snprintf (why, why_size, "%s is not a Tilelab CUDA backend (no %s)", path,
                TL_GPU_BACKEND_ENTRY);
      dlclose (handle);
      return NULL;
    }
  const TlGpuBackend *backend = entry ();
  /* abi and table_size are first, so they can be read whatever came after */
  const size_t sizes[TL_GPU_BACKEND_N_STRUCTS] = { TL_GPU_BACKEND_STRUCTS (TL_GPU_BACKEND_SIZEOF) };
  const char *differs = NULL;
  if (backend == NULL || backend->abi != TL_GPU_BACKEND_ABI)
    differs = "its door's ABI number differs";
  else if (backend->table_size != sizeof *backend)
    differs = "the size of its table differs";
  else if (strcmp (backend->signature (), tl_gpu_backend_signature ()) != 0)
    differs = "its functions' signatures differ";
  else if (memcmp (backend->struct_sizes, sizes, sizeof sizes) != 0)
    differs = "the layout of its structs differs";
  if (differs != NULL)
    {
      snprintf (why, why_size,
                "the CUDA backend %s was built from another version of Tilelab (%s); "
                "rebuild or reinstall Tilelab",
                path, differs);
      dlclose (handle);
      return NULL;
    }
  return backend;
}

/* The directory of the running program, with its trailing '/' (into dir),
 * and its parent (into prefix); both "" when unknown. */
static void
program_dirs (char *dir, size_t dir_size, char *prefix, size_t prefix_size)
{
  char exe[PATH_MAX];
  ssize_t n = readlink ("/proc/self/exe", exe, sizeof exe - 1);
  dir[0] = prefix[0] = '\0';
  char *slash = n > 0 ? (exe[n] = '\0', strrchr (exe, '/')) : NULL;
  if (slash == NULL)
    return;
  slash[1] = '\0';
  snprintf (dir, dir_size, "%s", exe);
  slash[0] = '\0'; /* exe is now the program's directory; cut it to its parent */
  slash = strrchr (exe, '/');
  if (slash != NULL)
    {
      slash[0] = '\0';
      snprintf (prefix, prefix_size, "%s", exe);
    }
}

static void
load (void)
{
  char why[1024] = "";
  const TlGpuBackend *backend = NULL;
  const char *env = getenv ("TILELAB_GPU_BACKEND");

  if (env != NULL && *env != '\0')
    backend = open_module (env, why, sizeof why);
  else
    {
      char dir[PATH_MAX], prefix[PATH_MAX], beside_libdir[PATH_MAX + 64], beside_lib[PATH_MAX + 64];
      program_dirs (dir, sizeof dir, prefix, sizeof prefix);
      snprintf (beside_libdir, sizeof beside_libdir, "%s/%s/%s", prefix, TL_GPU_MODULE_REL_DIR,
                TL_GPU_MODULE_NAME);
      snprintf (beside_lib, sizeof beside_lib, "%s/lib/tilelab/%s", prefix, TL_GPU_MODULE_NAME);
      const size_t root_len = strlen (TL_GPU_BUILD_ROOT);
      const char *in_build_tree = strlen (dir) > root_len
                                      && memcmp (dir, TL_GPU_BUILD_ROOT, root_len) == 0
                                      && dir[root_len] == '/'
                                    ? TL_GPU_MODULE_BUILD_PATH
                                    : NULL;
      const int relocatable = dir[0] != '\0' && prefix[0] != '\0';
      const int multiarch = strcmp (beside_libdir, beside_lib) != 0;
      const char *candidates[] = { in_build_tree, relocatable ? beside_libdir : NULL,
                                   relocatable && multiarch ? beside_lib : NULL,
                                   TL_GPU_MODULE_INSTALL_DIR "/" TL_GPU_MODULE_NAME };
      const char *found = NULL;
      char looked[4 * (PATH_MAX + 64)] = "";
      for (size_t i = 0; found == NULL && i < sizeof candidates / sizeof candidates[0]; i++)
        {
          if (candidates[i] == NULL)
            continue;
          if (access (candidates[i], F_OK) == 0)
            found = candidates[i];
          else
            snprintf (looked + strlen (looked), sizeof looked - strlen (looked), "%s%s",
                      looked[0] ? ", " : "", candidates[i]);
        }
      /* a module that is there but cannot be loaded is the answer: its
       * reason (a missing libcudart, another version) is what to fix */
      if (found != NULL)
        backend = open_module (found, why, sizeof why);
      else
        snprintf (why, sizeof why, "Tilelab's CUDA backend is not installed (looked for %s)",
                  looked);
    }

  if (backend == NULL)
    tl_gpu_stub_set_reason (why);
  atomic_store_explicit (&module_backend, backend, memory_order_release);
}

#else /* no CUDA: the stub says "built without CUDA" */

static void
load (void)
{
}

#endif

/* The backend for a LOAD row: opens the module on the first such call. */
static const TlGpuBackend *
backend_for_load (void)
{
  pthread_once (&load_once, load);
  const TlGpuBackend *backend = atomic_load_explicit (&module_backend, memory_order_acquire);
  return backend ? backend : tl_gpu_stub_backend ();
}

/* The backend for a PEEK row: what is open now, the stub until then. */
static const TlGpuBackend *
backend_for_peek (void)
{
  const TlGpuBackend *backend = atomic_load_explicit (&module_backend, memory_order_acquire);
  return backend ? backend : tl_gpu_stub_backend ();
}

/* ---- the forwarders: one per row of the list ----------------------------- */

#define TL_GPU_FN(mode, ret, name, params, args)                                               \
  ret tl_gpu_##name params                                                                     \
  {                                                                                            \
    return backend_for_##mode ()->name args;                                                   \
  }
#define TL_GPU_VOID_FN(mode, name, params, args)                                               \
  void tl_gpu_##name params                                                                    \
  {                                                                                            \
    backend_for_##mode ()->name args;                                                          \
  }
#define backend_for_LOAD backend_for_load
#define backend_for_PEEK backend_for_peek
#include "tl-gpu-backend-list.h"
#undef TL_GPU_FN
#undef TL_GPU_VOID_FN
