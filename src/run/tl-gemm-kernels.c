/* tl-gemm-kernels.c — a GEMM job's kernel list (ids, "all", "cpu", "gpu",
 * kernel files) expanded into the registry's rows, each resolved once. */
#include "run/tl-gemm-kernels.h"

#include "core/tl-error.h"
#include "gemm/tl-kernels.h"
#include "gemm/tl-user-kernel.h"

#include <glib/gi18n-lib.h>
#include <string.h>

static void
add_unique (GPtrArray *rows, const TlKernelInfo *row)
{
  if (!g_ptr_array_find (rows, row, NULL))
    g_ptr_array_add (rows, (gpointer) row);
}

GPtrArray *
tl_gemm_expand_kernels (const char *const *requested, TlDtype dtype, gboolean have_gpu,
                        char **note, GError **error)
{
  g_autoptr (GPtrArray) rows = g_ptr_array_new ();
  gboolean dropped_gpu = FALSE;

  if (note)
    *note = NULL;
  for (guint r = 0; requested && requested[r]; r++)
    {
      g_auto (GStrv) parts = g_strsplit (requested[r], ",", -1);
      for (guint p = 0; parts[p]; p++)
        {
          const char *word = g_strstrip (parts[p]);
          if (*word == '\0')
            continue;
          gboolean all = strcmp (word, "all") == 0;
          gboolean cpu = all || strcmp (word, "cpu") == 0;
          gboolean gpu = (all && have_gpu) || strcmp (word, "gpu") == 0;
          if (all || cpu || gpu)
            {
              for (guint i = 0; i < tl_kernel_count (); i++)
                {
                  const TlKernelInfo *info = tl_kernel_get (i);
                  if (!tl_kernel_supports (info, dtype))
                    continue;
                  if ((info->backend == TL_BACKEND_CPU && cpu)
                      || (info->backend == TL_BACKEND_GPU && gpu))
                    add_unique (rows, info);
                  else if (info->backend == TL_BACKEND_GPU && all)
                    dropped_gpu = TRUE;
                }
              continue;
            }
          /* an id, or a kernel file: read now, a row of the registry from
           * here on (unless a user kernel has that name as its id already:
           * a job from the app or from another machine names them by id) */
          const TlKernelInfo *row = tl_kernel_find (word);
          if (row == NULL && tl_user_kernel_is_path (word))
            {
              row = tl_user_kernel_open (word, error);
              if (row == NULL)
                return NULL;
            }
          if (row == NULL)
            {
              g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                           _("Unknown kernel “%s” (“tilelab-cli kernels” lists them)"), word);
              return NULL;
            }
          add_unique (rows, row);
        }
    }
  if (rows->len == 0)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("No kernel to run for %s"), tl_dtype_name (dtype));
      return NULL;
    }
  if (dropped_gpu && note)
    *note = g_strdup (_("No usable GPU: only the CPU kernels ran"));
  return g_steal_pointer (&rows);
}
