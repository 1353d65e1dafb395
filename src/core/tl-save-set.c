/* tl-save-set.c — several saves finished first, then renamed together. */
#include "core/tl-save-set.h"

#include <glib/gstdio.h>

struct _TlSaveSet
{
  GCancellable *cancellable;
  GPtrArray *saves; /* TlSave*, in the order added; NULL once renamed */
};

TlSaveSet *
tl_save_set_new (GCancellable *cancellable)
{
  TlSaveSet *set = g_new0 (TlSaveSet, 1);
  set->cancellable = cancellable ? g_object_ref (cancellable) : NULL;
  set->saves = g_ptr_array_new ();
  return set;
}

TlSave *
tl_save_set_add (TlSaveSet *set, const char *path, GError **error)
{
  g_return_val_if_fail (set != NULL && path != NULL, NULL);
  TlSave *save = tl_save_begin (path, set->cancellable, error);
  if (save != NULL)
    g_ptr_array_add (set->saves, save);
  return save;
}

void
tl_save_set_abort (TlSaveSet *set)
{
  if (set == NULL)
    return;
  for (guint i = 0; i < set->saves->len; i++)
    tl_save_abort (set->saves->pdata[i]);
  g_ptr_array_unref (set->saves);
  g_clear_object (&set->cancellable);
  g_free (set);
}

gboolean
tl_save_set_commit (TlSaveSet *set, GError **error)
{
  g_return_val_if_fail (set != NULL, FALSE);
  for (guint i = 0; i < set->saves->len; i++)
    if (!tl_save_finish (set->saves->pdata[i], error))
      {
        tl_save_set_abort (set);
        return FALSE;
      }
  /* the files renamed into place that were not there before */
  g_autoptr (GPtrArray) made = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < set->saves->len; i++)
    {
      TlSave *save = set->saves->pdata[i];
      char *target = tl_save_replaces (save) ? NULL : g_strdup (tl_save_target (save));
      set->saves->pdata[i] = NULL;
      if (!tl_save_commit (save, error))
        {
          g_free (target);
          for (guint k = 0; k < made->len; k++)
            g_unlink (made->pdata[k]);
          g_ptr_array_remove_range (set->saves, 0, i + 1);
          tl_save_set_abort (set);
          return FALSE;
        }
      if (target != NULL)
        g_ptr_array_add (made, target);
    }
  g_ptr_array_set_size (set->saves, 0);
  tl_save_set_abort (set);
  return TRUE;
}
