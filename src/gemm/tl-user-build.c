/* tl-user-build.c — a user kernel compiled by NVRTC, through the GPU door.
 *
 * Two builds of the same text: the plain one (the timing marks compile to
 * nothing), which is timed, and the TILELAB_TIMED one, whose marks write
 * the per-block records.  Each entry is checked against the ladder's
 * signature by a few lines compiled after the file, each under a #line
 * of its declaration, so a wrong entry is an error at that declaration.
 */
#include "gemm/tl-user-kernel-private.h"
#include "core/tl-error.h"
#include "tl-gpu.h"

#include <glib/gi18n-lib.h>
#include <string.h>

char *
tl_user_kernel_entry_checks (const TlUserKernel *kernel)
{
  static const char *const c_types[TL_DTYPE_COUNT] = {
    [TL_DTYPE_INT32] = "int", [TL_DTYPE_FLOAT32] = "float", [TL_DTYPE_FLOAT64] = "double"
  };
  GString *tail = g_string_new (
    "template <typename T>\n"
    "using tilelab_gemm_entry = void (*) (int, int, int, const T *, const T *, T *);\n");
  /* a braced conversion in an unevaluated sizeof: a check that emits nothing */
  for (int d = 0; d < TL_DTYPE_COUNT; d++)
    {
      const TlUserValue *v = tl_user_kernel_entry (kernel, (TlDtype) d);
      if (v != NULL)
        g_string_append_printf (tail,
                                "#line %d \"%s\"\n"
                                "static_assert (sizeof (tilelab_gemm_entry<%s> {%s}) > 0, \"\");\n",
                                v->line, tl_user_kernel_file_name (kernel), c_types[d], v->text);
    }
  return g_string_free (tail, FALSE);
}

TlUserBuild *
tl_user_build_ref (TlUserBuild *build)
{
  g_return_val_if_fail (build != NULL, NULL);
  g_atomic_int_inc (&build->ref_count);
  return build;
}

void
tl_user_build_unref (TlUserBuild *build)
{
  if (build == NULL || !g_atomic_int_dec_and_test (&build->ref_count))
    return;
  g_ptr_array_unref (build->diagnostics);
  g_free (build->log);
  for (int d = 0; d < TL_DTYPE_COUNT; d++)
    g_free (build->lowered[d]);
  g_clear_pointer (&build->image, g_bytes_unref);
  g_clear_pointer (&build->timed_image, g_bytes_unref);
  g_free (build);
}

/* One NVRTC compilation; FALSE with error only when NVRTC could not run. */
static gboolean
compile_once (const TlUserKernel *kernel, int arch, gboolean timed, TlGpuUserBuild *out,
              GError **error)
{
  g_autofree char *tail = tl_user_kernel_entry_checks (kernel);
  TlGpuUserSource source = {
    .file_name = tl_user_kernel_file_name (kernel),
    .source = tl_user_kernel_source (kernel),
    .tail = tail,
    .arch = arch,
    .timed = timed,
  };
  for (int d = 0; d < TL_DTYPE_COUNT; d++)
    source.entries[d] = kernel->entry[d].text;
  TlGpuStatus st = tl_gpu_user_compile (&source, out);
  if (st == TL_GPU_OK)
    return TRUE;
  int code = st == TL_GPU_NO_DEVICE   ? TL_ERROR_UNSUPPORTED
             : st == TL_GPU_BAD_SHAPE ? TL_ERROR_INVALID
                                      : TL_ERROR_LAUNCH_FAILED;
  g_set_error (error, TL_ERROR, code, _("%s cannot be compiled: %s"),
               tl_user_kernel_file_name (kernel), tl_gpu_last_message ());
  return FALSE;
}

/* The timed build, compiled on a thread of its own beside the plain one
 * (NVRTC compiles programs concurrently): the two take the time of one. */
typedef struct
{
  const TlUserKernel *kernel;
  int arch;
  TlGpuUserBuild out;
  gboolean ok;
  GError *error;
} TimedCompile;

static gpointer
compile_timed (gpointer data)
{
  TimedCompile *t = data;
  t->ok = compile_once (t->kernel, t->arch, TRUE, &t->out, &t->error);
  return NULL;
}

static TlUserBuild *
build_new (int arch, const TlGpuUserBuild *plain)
{
  TlUserBuild *build = g_new0 (TlUserBuild, 1);
  build->ref_count = 1;
  build->arch = arch;
  build->diagnostics = g_ptr_array_new_with_free_func ((GDestroyNotify) tl_user_diagnostic_free);
  build->compile_ms = plain->compile_ms;
  build->nvrtc_major = plain->nvrtc_major;
  build->nvrtc_minor = plain->nvrtc_minor;
  build->compiled = plain->compiled;
  return build;
}

static TlUserBuild *
compile_both (TlUserKernel *kernel, int arch, GError **error)
{
  TimedCompile timed = { kernel, arch };
  GThread *thread = g_thread_new ("nvrtc-timed", compile_timed, &timed);
  TlGpuUserBuild plain = { 0 };
  gboolean ok = compile_once (kernel, arch, FALSE, &plain, error);
  g_thread_join (thread);
  if (!ok || !timed.ok)
    {
      if (ok)
        g_propagate_error (error, g_steal_pointer (&timed.error));
      g_clear_error (&timed.error);
      tl_gpu_user_build_clear (&plain);
      tl_gpu_user_build_clear (&timed.out);
      return NULL;
    }
  TlUserBuild *build = build_new (arch, &plain);
  build->compile_ms = MAX (plain.compile_ms, timed.out.compile_ms);
  /* only the marks' code differs: when the plain build compiles and the
   * timed one does not, the timed one's errors are the file's */
  const TlGpuUserBuild *shown = plain.compiled && !timed.out.compiled ? &timed.out : &plain;
  build->compiled = plain.compiled && timed.out.compiled;
  build->log = g_strdup (shown->log);
  tl_user_log_diagnostics (shown->log, kernel, build->diagnostics);
  if (build->compiled)
    {
      build->image = g_bytes_new (plain.image, plain.image_size);
      build->timed_image = g_bytes_new (timed.out.image, timed.out.image_size);
      for (int d = 0; d < TL_DTYPE_COUNT; d++)
        if (plain.lowered[d] != NULL)
          {
            build->lowered[d] = g_strdup (plain.lowered[d]);
            tl_user_log_resources (plain.log, plain.lowered[d], &build->resources[d]);
          }
    }
  tl_gpu_user_build_clear (&plain);
  tl_gpu_user_build_clear (&timed.out);
  return build;
}

TlUserBuild *
tl_user_build_new_compiled (int arch, TlDtype dtype, const char *lowered, GBytes *image,
                            GBytes *timed_image)
{
  g_return_val_if_fail ((guint) dtype < TL_DTYPE_COUNT && lowered != NULL && image != NULL, NULL);
  TlGpuUserBuild none = { 0 };
  TlUserBuild *build = build_new (arch, &none);
  build->compiled = TRUE;
  build->lowered[dtype] = g_strdup (lowered);
  build->image = g_bytes_ref (image);
  build->timed_image = timed_image ? g_bytes_ref (timed_image) : NULL;
  return build;
}

TlUserBuild *
tl_user_kernel_peek_build (TlUserKernel *kernel, int arch)
{
  g_return_val_if_fail (kernel != NULL, NULL);
  /* a compile in flight holds the lock: then there is nothing to peek yet */
  if (!g_mutex_trylock (&kernel->lock))
    return NULL;
  TlUserBuild *build = NULL;
  for (guint i = 0; i < kernel->builds->len && build == NULL; i++)
    if (((TlUserBuild *) kernel->builds->pdata[i])->arch == arch)
      build = tl_user_build_ref (kernel->builds->pdata[i]);
  g_mutex_unlock (&kernel->lock);
  return build;
}

TlUserBuild *
tl_user_kernel_compile (TlUserKernel *kernel, int arch, GError **error)
{
  g_return_val_if_fail (kernel != NULL, NULL);
  g_mutex_lock (&kernel->lock);
  TlUserBuild *build = NULL;
  for (guint i = 0; i < kernel->builds->len && build == NULL; i++)
    if (((TlUserBuild *) kernel->builds->pdata[i])->arch == arch)
      build = tl_user_build_ref (kernel->builds->pdata[i]);
  if (build == NULL && (build = compile_both (kernel, arch, error)) != NULL)
    g_ptr_array_add (kernel->builds, tl_user_build_ref (build));
  g_mutex_unlock (&kernel->lock);
  return build;
}

char *
tl_user_build_describe_errors (const TlUserBuild *build, const TlUserKernel *kernel, gboolean all)
{
  GString *s = g_string_new (NULL);
  for (guint i = 0; i < build->diagnostics->len; i++)
    {
      const TlUserDiagnostic *d = build->diagnostics->pdata[i];
      if (!all && strcmp (d->severity, "error") != 0)
        continue;
      if (s->len > 0)
        g_string_append_c (s, '\n');
      const char *file = d->file ? d->file : tl_user_kernel_path (kernel);
      if (d->column > 0)
        g_string_append_printf (s, "%s:%d:%d: %s: %s", file, d->line, d->column, d->severity,
                                d->message);
      else
        g_string_append_printf (s, "%s:%d: %s: %s", file, d->line, d->severity, d->message);
      if (d->context)
        g_string_append_printf (s, "\n%s", d->context);
    }
  return g_string_free (s, FALSE);
}
