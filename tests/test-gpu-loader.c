/* test-gpu-loader.c — the door loads CUDA on first use (gpu/tl-gpu-loader.c).
 *
 * The loader decides once per process, so every case runs in a subprocess
 * of its own with TILELAB_GPU_BACKEND set (or unset) before it starts:
 *
 *   - the registries, the status names, "is the GPU lost?", the last
 *     message and freeing an empty result load nothing (/proc/self/maps
 *     holds no module afterwards); the first device count loads it;
 *   - calls arrive at the module: a fake module (tests/fake-gpu-backend.c)
 *     says 3 devices and "fake backend", also to eight threads racing for
 *     the first call;
 *   - a module that is missing, not a shared object, lacks the entry,
 *     comes from another version or needs CUDA libraries the machine does
 *     not have (a laptop without CUDA): every call answers as the stub (no
 *     device), the message names the path and the reason, and the session
 *     turns it into "No usable CUDA GPU: …";
 *   - the real module, found in the build tree (or beside the program in
 *     the GPU machine's bundle): it loads, mapping libcudart, and counts
 *     devices ("no CUDA device …" on a machine without one).
 *
 * In a build without CUDA there is no module: the stub answers "built
 * without CUDA" and TILELAB_GPU_BACKEND is not looked at.
 */
#include "core/tl-error.h"
#include "device/tl-gpu-session.h"

#include <glib/gstdio.h>
#include <string.h>

/* Whether the process has mapped a file whose path contains `part`. */
static gboolean
mapped (const char *part)
{
  g_autofree char *maps = NULL;
  g_assert_true (g_file_get_contents ("/proc/self/maps", &maps, NULL, NULL));
  return strstr (maps, part) != NULL;
}

/* Runs the current test again in a subprocess with TILELAB_GPU_BACKEND =
 * backend (NULL: unset) and checks that it passed. */
static void
in_subprocess (const char *backend)
{
  g_autofree char *saved = g_strdup (g_getenv ("TILELAB_GPU_BACKEND"));
  if (backend)
    g_setenv ("TILELAB_GPU_BACKEND", backend, TRUE);
  else
    g_unsetenv ("TILELAB_GPU_BACKEND");
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  if (saved)
    g_setenv ("TILELAB_GPU_BACKEND", saved, TRUE);
  else
    g_unsetenv ("TILELAB_GPU_BACKEND");
  g_test_trap_assert_passed ();
}

/* FALSE (and the test skipped) in a build without CUDA, or when the fake
 * modules are not there (the bundle of the GPU machine has none). */
static gboolean
have_module_build (const char *fake)
{
  if (!tl_gpu_built_with_cuda ())
    {
      g_test_skip ("built without CUDA: no module to load");
      return FALSE;
    }
  if (fake != NULL && !g_file_test (fake, G_FILE_TEST_EXISTS))
    {
      g_autofree char *why = g_strdup_printf ("%s is not here (run from the build tree)", fake);
      g_test_skip (why);
      return FALSE;
    }
  return TRUE;
}

static void
test_nothing_loads_early (void)
{
  if (!have_module_build (FAKE_GOOD))
    return;
  if (!g_test_subprocess ())
    {
      in_subprocess (FAKE_GOOD);
      return;
    }
  /* what a window does before its first frame, and a record reader */
  g_assert_true (tl_gpu_built_with_cuda ());
  g_assert_cmpint (tl_gpu_kernel_count (), >, 0);
  g_assert_nonnull (tl_gpu_kernel_find (tl_gpu_kernel_info (0)->id));
  g_assert_cmpint (tl_gpu_lu_kernel_count (), >, 0);
  g_assert_nonnull (tl_gpu_lu_kernel_find (tl_gpu_lu_kernel_info (0)->id));
  g_assert_nonnull (tl_gpu_counter_info (0));
  g_assert_cmpint (tl_gpu_counter_find (tl_gpu_counter_info (0)->key), ==, 0);
  g_assert_cmpstr (tl_gpu_status_name (TL_GPU_NO_DEVICE), ==, "no device");
  g_assert_false (tl_gpu_is_lost ());
  g_assert_cmpstr (tl_gpu_last_message (), ==, "");
  g_assert_cmpint (tl_gpu_debug_gemm_count (0), ==, 0);
  TlGpuGemmResult gemm = { 0 };
  tl_gpu_gemm_result_clear (&gemm);
  TlGpuLuResult lu = { 0 };
  tl_gpu_lu_result_clear (&lu);
  tl_gpu_device_close (NULL);
  g_assert_false (mapped ("fake-gpu-backend"));
  g_assert_false (mapped ("libtilelab-gpu-cuda"));
  g_assert_false (mapped ("libcudart"));

  int count = -1;
  g_assert_cmpint (tl_gpu_device_count (&count), ==, TL_GPU_OK);
  g_assert_cmpint (count, ==, 3);
  g_assert_true (mapped ("fake-gpu-backend"));
  g_assert_cmpstr (tl_gpu_last_message (), ==, "fake backend");
}

static gpointer
count_devices_thread (gpointer data)
{
  int count = -1;
  TlGpuStatus status = tl_gpu_device_count (&count);
  return GINT_TO_POINTER (status == TL_GPU_OK && count == 3);
}

/* the worker and anyone else may make the first call at the same time */
static void
test_first_call_from_threads (void)
{
  if (!have_module_build (FAKE_GOOD))
    return;
  if (!g_test_subprocess ())
    {
      in_subprocess (FAKE_GOOD);
      return;
    }
  GThread *threads[8];
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    threads[i] = g_thread_new ("first-call", count_devices_thread, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    g_assert_true (GPOINTER_TO_INT (g_thread_join (threads[i])));
}

/* The module `path` cannot be used: the stub answers and says why, with
 * `reason` in the message. */
static void
check_refused (const char *path, const char *reason)
{
  int count = -1;
  g_assert_cmpint (tl_gpu_device_count (&count), ==, TL_GPU_NO_DEVICE);
  g_assert_cmpint (count, ==, 0);
  const char *message = tl_gpu_last_message ();
  g_test_message ("%s", message);
  g_assert_nonnull (strstr (message, path));
  g_assert_nonnull (strstr (message, reason));

  TlGpuDevice *device = NULL;
  g_assert_cmpint (tl_gpu_device_open (0, &device), ==, TL_GPU_NO_DEVICE);
  g_assert_null (device);
  float a[1] = { 2 }, b[1] = { 3 }, c[1] = { 0 };
  TlGpuGemmArgs args = { 0 };
  args.dtype = TL_GPU_FLOAT32;
  args.m = args.n = args.k = 1;
  args.a = a;
  args.b = b;
  args.c = c;
  args.repeats = 1;
  TlGpuGemmResult result;
  g_assert_cmpint (tl_gpu_gemm_run (NULL, "gemm-01-naive", &args, &result), ==, TL_GPU_NO_DEVICE);
  g_assert_nonnull (strstr (tl_gpu_last_message (), path));
  g_assert_false (tl_gpu_kernel_available ("gemm-01-naive"));
  g_assert_false (tl_gpu_is_lost ());

  /* what the window's "no GPU" bar and the CLI show */
  g_autoptr (TlGpuSession) session = tl_gpu_session_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) devices = tl_gpu_session_probe (session, &error);
  g_assert_error (error, TL_ERROR, TL_ERROR_NO_DEVICE);
  g_test_message ("%s", error->message);
  g_assert_true (g_str_has_prefix (error->message, "No usable CUDA GPU: "));
  g_assert_nonnull (strstr (error->message, path));
}

static void
test_missing (void)
{
  const char *path = "/nonexistent/tilelab/libtilelab-gpu-cuda.so";
  if (!have_module_build (NULL))
    return;
  if (!g_test_subprocess ())
    {
      in_subprocess (path);
      return;
    }
  check_refused (path, "could not be loaded");
}

static void
test_not_a_shared_object (void)
{
  if (!have_module_build (NULL))
    return;
  if (!g_test_subprocess ())
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *dir = g_dir_make_tmp ("test-gpu-loader-XXXXXX", &error);
      g_assert_no_error (error);
      g_autofree char *path = g_build_filename (dir, "libtilelab-gpu-cuda.so", NULL);
      g_assert_true (g_file_set_contents (path, "not a shared object\n", -1, NULL));
      in_subprocess (path);
      g_unlink (path);
      g_rmdir (dir);
      return;
    }
  check_refused (g_getenv ("TILELAB_GPU_BACKEND"), "could not be loaded");
}

static void
test_no_entry (void)
{
  if (!have_module_build (FAKE_ALIEN))
    return;
  if (!g_test_subprocess ())
    {
      in_subprocess (FAKE_ALIEN);
      return;
    }
  check_refused (FAKE_ALIEN, "is not a Tilelab CUDA backend");
}

static void
test_other_version (void)
{
  if (!have_module_build (FAKE_OLD))
    return;
  if (!g_test_subprocess ())
    {
      in_subprocess (FAKE_OLD);
      return;
    }
  check_refused (FAKE_OLD, "was built from another version of Tilelab");
  g_assert_false (mapped ("fake-gpu-backend-old")); /* closed again */
}

/* A laptop without CUDA's libraries: a copy of the real module whose
 * DT_NEEDED names a libcudart that no machine has. */
static void
test_cuda_libraries_missing (void)
{
#ifdef REAL_MODULE
  if (!have_module_build (REAL_MODULE))
    return;
  static const char needed[] = "libcudart.so.", absent[] = "libcudaXX.so.";
  if (!g_test_subprocess ())
    {
      g_autofree char *bytes = NULL;
      gsize size = 0;
      g_assert_true (g_file_get_contents (REAL_MODULE, &bytes, &size, NULL));
      /* the dynamic string table holds the name once, NUL-terminated */
      gboolean renamed = FALSE;
      for (gsize i = 0; i + sizeof needed < size; i++)
        if ((i == 0 || bytes[i - 1] == '\0') && memcmp (bytes + i, needed, strlen (needed)) == 0)
          {
            memcpy (bytes + i, absent, strlen (absent));
            renamed = TRUE;
          }
      g_assert_true (renamed);
      g_autoptr (GError) error = NULL;
      g_autofree char *dir = g_dir_make_tmp ("test-gpu-loader-XXXXXX", &error);
      g_assert_no_error (error);
      g_autofree char *copy = g_build_filename (dir, "libtilelab-gpu-cuda.so", NULL);
      g_assert_true (g_file_set_contents (copy, bytes, size, NULL));
      in_subprocess (copy);
      g_unlink (copy);
      g_rmdir (dir);
      return;
    }
  const char *copy = g_getenv ("TILELAB_GPU_BACKEND");
  check_refused (copy, "libcudaXX.so.");
  g_assert_false (mapped ("libcudart"));
#else
  g_test_skip ("built without CUDA: no module to load");
#endif
}

/* The real module, found where the program is: it maps CUDA only now. */
static void
test_real_module (void)
{
  if (!have_module_build (NULL))
    return;
  if (!g_test_subprocess ())
    {
      in_subprocess (NULL);
      return;
    }
  g_assert_false (mapped ("libcudart"));
  int count = -1;
  TlGpuStatus status = tl_gpu_device_count (&count);
  g_test_message ("device count: %s, %d: %s", tl_gpu_status_name (status), count,
                  tl_gpu_last_message ());
  g_assert_true (mapped ("libtilelab-gpu-cuda"));
  g_assert_true (mapped ("libcudart"));
  if (status == TL_GPU_OK)
    g_assert_cmpint (count, >, 0);
  else
    {
      g_assert_cmpint (status, ==, TL_GPU_NO_DEVICE);
      g_assert_true (g_str_has_prefix (tl_gpu_last_message (), "no CUDA device"));
    }
  /* every rung of the ladder is in the module */
  for (int i = 0; i < tl_gpu_kernel_count (); i++)
    g_assert_true (tl_gpu_kernel_available (tl_gpu_kernel_info (i)->id));
}

/* Without CUDA there is nothing to load, whatever the environment says. */
static void
test_without_cuda (void)
{
  if (tl_gpu_built_with_cuda ())
    {
      g_test_skip ("a CUDA build: the cases above");
      return;
    }
  if (!g_test_subprocess ())
    {
      in_subprocess ("/nonexistent/libtilelab-gpu-cuda.so");
      return;
    }
  int count = -1;
  g_assert_cmpint (tl_gpu_device_count (&count), ==, TL_GPU_NO_DEVICE);
  g_assert_cmpint (count, ==, 0);
  g_assert_nonnull (strstr (tl_gpu_last_message (), "built without CUDA"));
  g_assert_null (strstr (tl_gpu_last_message (), "/nonexistent"));
  g_assert_false (tl_gpu_kernel_available ("gemm-01-naive"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  /* the stub's pretend devices would hide what the loader answers */
  g_unsetenv ("TL_GPU_STUB_DEVICES");
  g_test_add_func ("/gpu-loader/nothing-loads-early", test_nothing_loads_early);
  g_test_add_func ("/gpu-loader/first-call-from-threads", test_first_call_from_threads);
  g_test_add_func ("/gpu-loader/missing", test_missing);
  g_test_add_func ("/gpu-loader/not-a-shared-object", test_not_a_shared_object);
  g_test_add_func ("/gpu-loader/no-entry", test_no_entry);
  g_test_add_func ("/gpu-loader/other-version", test_other_version);
  g_test_add_func ("/gpu-loader/cuda-libraries-missing", test_cuda_libraries_missing);
  g_test_add_func ("/gpu-loader/real-module", test_real_module);
  g_test_add_func ("/gpu-loader/without-cuda", test_without_cuda);
  return g_test_run ();
}
