/* tl-sheet.c — a listing or a table to draw as a picture. */
#include "view/tl-sheet.h"

static void
row_clear (gpointer data)
{
  TlSheetRow *row = data;
  g_free (row->label);
  g_free (row->value);
}

TlSheet *
tl_sheet_new (const char *name, const char *title, gboolean listing)
{
  TlSheet *self = g_new0 (TlSheet, 1);
  g_atomic_ref_count_init (&self->ref);
  self->name = g_strdup (name);
  self->title = g_strdup (title);
  self->listing = listing;
  self->first_number = 1;
  self->rows = g_array_new (FALSE, FALSE, sizeof (TlSheetRow));
  g_array_set_clear_func (self->rows, row_clear);
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
  g_array_unref (self->rows);
  g_array_unref (self->inks);
  g_free (self);
}

static void
add (TlSheet *self, TlSheetKind kind, const char *label, const char *value, gboolean marked)
{
  TlSheetRow row = { .kind = kind, .label = g_strdup (label ? label : ""),
                     .value = g_strdup (value ? value : ""), .marked = marked };
  g_array_append_val (self->rows, row);
}

void
tl_sheet_add_row (TlSheet *self, const char *label, const char *value)
{
  g_return_if_fail (self != NULL);
  add (self, TL_SHEET_ROW, label, value, FALSE);
}

void
tl_sheet_add_heading (TlSheet *self, const char *heading)
{
  g_return_if_fail (self != NULL);
  add (self, TL_SHEET_HEADING, heading, NULL, FALSE);
}

static void
add_lines (TlSheet *self, TlSheetKind kind, const char *text)
{
  g_auto (GStrv) lines = g_strsplit (text ? text : "", "\n", -1);
  for (guint i = 0; lines[i]; i++)
    if (*g_strstrip (lines[i]) != '\0')
      add (self, kind, NULL, lines[i], FALSE);
}

void
tl_sheet_add_sentence (TlSheet *self, const char *text)
{
  g_return_if_fail (self != NULL);
  add_lines (self, TL_SHEET_SENTENCE, text);
}

void
tl_sheet_add_note (TlSheet *self, const char *text)
{
  g_return_if_fail (self != NULL);
  add_lines (self, TL_SHEET_NOTE, text);
}

void
tl_sheet_add_line (TlSheet *self, const char *line, gboolean marked)
{
  g_return_if_fail (self != NULL);
  add (self, TL_SHEET_ROW, NULL, line, marked);
}

void
tl_sheet_add_ink (TlSheet *self, const TlSheetInk *ink)
{
  g_return_if_fail (self != NULL && ink != NULL);
  g_array_append_val (self->inks, *ink);
}

void
tl_sheet_append (TlSheet *self, const TlSheet *other)
{
  g_return_if_fail (self != NULL && other != NULL);
  for (guint i = 0; i < other->rows->len; i++)
    {
      const TlSheetRow *row = tl_sheet_get_row (other, i);
      add (self, row->kind, row->label, row->value, row->marked);
    }
}

guint
tl_sheet_get_n_rows (const TlSheet *self)
{
  return self->rows->len;
}

const TlSheetRow *
tl_sheet_get_row (const TlSheet *self, guint i)
{
  g_return_val_if_fail (self != NULL && i < self->rows->len, NULL);
  return &g_array_index (self->rows, TlSheetRow, i);
}
