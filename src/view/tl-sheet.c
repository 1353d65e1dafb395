/* tl-sheet.c — a listing or a table to draw as a picture. */
#include "view/tl-sheet.h"

#include <string.h>

TlSheet *
tl_sheet_new (const char *name, const char *title, gboolean listing)
{
  TlSheet *self = g_new0 (TlSheet, 1);
  g_atomic_ref_count_init (&self->ref);
  self->name = g_strdup (name);
  self->title = g_strdup (title);
  self->listing = listing;
  self->first_number = 1;
  self->labels = g_ptr_array_new_with_free_func (g_free);
  self->values = g_ptr_array_new_with_free_func (g_free);
  self->inks = g_array_new (FALSE, FALSE, sizeof (TlSheetInk));
  return self;
}

TlSheet *
tl_sheet_ref (TlSheet *self)
{
  g_atomic_ref_count_inc (&self->ref);
  return self;
}

void
tl_sheet_unref (TlSheet *self)
{
  if (self == NULL || !g_atomic_ref_count_dec (&self->ref))
    return;
  g_free (self->name);
  g_free (self->title);
  g_free (self->subtitle);
  g_ptr_array_unref (self->labels);
  g_ptr_array_unref (self->values);
  g_array_unref (self->inks);
  g_free (self);
}

void
tl_sheet_add_row (TlSheet *self, const char *label, const char *value)
{
  g_ptr_array_add (self->labels, g_strdup (label ? label : ""));
  g_ptr_array_add (self->values, g_strdup (value ? value : ""));
}

void
tl_sheet_add_line (TlSheet *self, const char *line)
{
  tl_sheet_add_row (self, NULL, line);
}

void
tl_sheet_add_ink (TlSheet *self, const TlSheetInk *ink)
{
  g_array_append_val (self->inks, *ink);
}

void
tl_sheet_add_columns (TlSheet *self, const char *text)
{
  g_auto (GStrv) lines = g_strsplit (text ? text : "", "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      char *line = g_strstrip (lines[i]);
      if (*line == '\0')
        continue;
      char *gap = strstr (line, "  ");
      if (gap == NULL)
        {
          tl_sheet_add_row (self, NULL, line);
          continue;
        }
      *gap = '\0';
      tl_sheet_add_row (self, line, g_strchug (gap + 1));
    }
}

guint
tl_sheet_get_n_rows (const TlSheet *self)
{
  return self->values->len;
}
