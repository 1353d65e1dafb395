/* tl-user-registry.c — user kernels as rows of the one GEMM registry.
 *
 * The ladder's rows are a table fixed at start (tl-kernels.c); a user
 * kernel gets a row (tl_kernel_add, the kernel its owner) when it is read,
 * so every place that looks a kernel up by id (the runner, the record, the
 * views) finds it the same way.  Rows live as long as the process; the
 * kernels they stand for keep a reference here.  Registering is
 * serialised (the window registers on its thread, the runner on its
 * worker), so two versions never take one id.
 */
#include "gemm/tl-user-kernel-private.h"

#include <glib/gi18n-lib.h>
#include <string.h>

static GMutex lock;

static char *
unused_id (const char *base)
{
  if (tl_kernel_find (base) == NULL)
    return g_strdup (base);
  for (int v = 2;; v++)
    {
      char *id = g_strdup_printf ("%s@%d", base, v);
      if (tl_kernel_find (id) == NULL)
        return id;
      g_free (id);
    }
}

/* The row of kernel, if it has one. */
static const TlKernelInfo *
row_of (TlUserKernel *kernel)
{
  g_autoptr (GPtrArray) rows = tl_kernel_list_added ();
  for (guint i = 0; i < rows->len; i++)
    if (tl_kernel_get_owner (rows->pdata[i]) == kernel)
      return rows->pdata[i];
  return NULL;
}

/* id: NULL for the file's name (made unique); the lock is held */
static const TlKernelInfo *
register_locked (TlUserKernel *kernel, const char *id)
{
  const TlKernelInfo *there = row_of (kernel);
  if (there != NULL)
    return there;
  int tile_m = 0, tile_n = 0;
  tl_user_kernel_tile (kernel, &tile_m, &tile_n);
  char *row_id = id ? g_strdup (id) : unused_id (tl_user_kernel_file_name (kernel));
  /* a later version says which in its title too: Compare shows both */
  const char *version = strrchr (row_id, '@');
  TlKernelInfo row = {
    .id = row_id,
    .number = 0,
    .title = g_strdup_printf ("%s%s%s", tl_user_kernel_title (kernel), version ? " " : "",
                              version ? version : ""),
    .lesson = g_strdup_printf (_("Your kernel, compiled at run time from %s"),
                               tl_user_kernel_path (kernel)),
    .seed = "",
    .dtypes = tl_user_kernel_dtypes (kernel),
    .backend = TL_BACKEND_GPU,
    .records_blocks = tl_user_kernel_has_marks (kernel),
    .tile_m = tile_m,
    .tile_n = tile_n,
    .precision = "fp32",
    .source_path = g_strdup (tl_user_kernel_path (kernel)),
  };
  const TlKernelInfo *info = tl_kernel_add (&row, kernel);
  if (info == NULL)
    {
      g_free ((char *) row.id);
      g_free ((char *) row.title);
      g_free ((char *) row.lesson);
      g_free ((char *) row.source_path);
      return NULL;
    }
  tl_user_kernel_ref (kernel); /* the row's */
  return info;
}

const TlKernelInfo *
tl_user_kernel_register (TlUserKernel *kernel)
{
  g_return_val_if_fail (kernel != NULL, NULL);
  g_mutex_lock (&lock);
  const TlKernelInfo *info = register_locked (kernel, NULL);
  g_mutex_unlock (&lock);
  return info;
}

const TlKernelInfo *
tl_user_kernel_register_as (TlUserKernel *kernel, const char *id)
{
  g_return_val_if_fail (kernel != NULL && id != NULL, NULL);
  g_mutex_lock (&lock);
  const TlKernelInfo *there = tl_kernel_find (id), *info = NULL;
  TlUserKernel *owner = tl_user_kernel_of (there);
  if (there == NULL)
    info = register_locked (kernel, id);
  else if (owner && strcmp (tl_user_kernel_source (owner), tl_user_kernel_source (kernel)) == 0)
    info = there;
  g_mutex_unlock (&lock);
  return info;
}

TlUserKernel *
tl_user_kernel_of (const TlKernelInfo *info)
{
  return tl_kernel_get_owner (info);
}

GPtrArray *
tl_user_kernel_list (void)
{
  return tl_kernel_list_added ();
}

gboolean
tl_user_kernel_is_path (const char *word)
{
  return word != NULL && g_str_has_suffix (word, ".cu") && strlen (word) > 3;
}

const TlKernelInfo *
tl_user_kernel_open (const char *path, GError **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  g_autoptr (TlUserKernel) kernel = tl_user_kernel_load (path, error);
  if (kernel == NULL)
    return NULL;
  /* the latest version of this path, if the file still says the same */
  g_mutex_lock (&lock);
  g_autoptr (GPtrArray) rows = tl_kernel_list_added ();
  const TlKernelInfo *info = NULL;
  for (guint i = rows->len; i-- > 0;)
    {
      TlUserKernel *k = tl_kernel_get_owner (rows->pdata[i]);
      if (strcmp (tl_user_kernel_path (k), path) != 0)
        continue;
      if (strcmp (tl_user_kernel_source (k), tl_user_kernel_source (kernel)) == 0)
        info = rows->pdata[i];
      break;
    }
  if (info == NULL)
    info = register_locked (kernel, NULL);
  g_mutex_unlock (&lock);
  return info;
}
