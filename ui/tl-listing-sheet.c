/* tl-listing-sheet.c — a code view's visible lines as an exportable listing. */
#include "tl-listing-sheet.h"

#include <glib/gi18n-lib.h>

#include "tl-code-highlight.h"

#define TAB_WIDTH 4
#define OFF_SCREEN_LINES 40 /* lines exported from a view not on screen */

/* the first and last line (from 0) the view shows */
static void
visible_lines (GtkTextView *view, int *first, int *last)
{
  GtkTextBuffer *buf = gtk_text_view_get_buffer (view);
  int count = gtk_text_buffer_get_line_count (buf);
  GdkRectangle rect;
  gtk_text_view_get_visible_rect (view, &rect);
  *first = 0;
  *last = MIN (count, OFF_SCREEN_LINES) - 1;
  if (!gtk_widget_get_mapped (GTK_WIDGET (view)))
    return;
  /* a page shown a moment ago and not drawn yet: its size and the
   * heights of its lines on screen are settled first (a stale rectangle
   * over unmeasured lines spanned the whole file) */
  GtkWidget *window = gtk_widget_get_toplevel (GTK_WIDGET (view));
  if (GTK_IS_CONTAINER (window))
    gtk_container_check_resize (GTK_CONTAINER (window));
  gtk_text_view_get_visible_rect (view, &rect);
  if (rect.height <= 1)
    return;
  GtkTextIter top, bottom;
  gtk_text_view_get_line_at_y (view, &top, rect.y, NULL);
  gtk_text_view_get_line_at_y (view, &bottom, rect.y + rect.height - 1, NULL);
  *first = gtk_text_iter_get_line (&top);
  *last = MAX (*first, gtk_text_iter_get_line (&bottom));
}

/* the colour tag tags give a character, as an ink; FALSE: none */
static gboolean
ink_of (GSList *tags, TlSheetInk *ink)
{
  gboolean found = FALSE;
  for (GSList *l = tags; l; l = l->next)
    {
      gboolean set = FALSE;
      GdkRGBA *rgba = NULL;
      g_object_get (l->data, "foreground-set", &set, "foreground-rgba", &rgba, NULL);
      if (set && rgba)
        {
          ink->rgb[0] = rgba->red, ink->rgb[1] = rgba->green, ink->rgb[2] = rgba->blue;
          found = TRUE;
        }
      if (rgba)
        gdk_rgba_free (rgba);
    }
  return found;
}

static gboolean
same_ink (const TlSheetInk *a, const TlSheetInk *b)
{
  return a->rgb[0] == b->rgb[0] && a->rgb[1] == b->rgb[1] && a->rgb[2] == b->rgb[2];
}

/* line (from 0) of buf, tabs as spaces, each run of one colour an ink */
static void
add_line (TlSheet *sheet, GtkTextBuffer *buf, int line, gboolean marked)
{
  GString *text = g_string_new (NULL);
  guint row = tl_sheet_get_n_rows (sheet), column = 0;
  TlSheetInk run = { .row = row }, here = { .row = row };
  gboolean in_run = FALSE;
  GtkTextIter it;
  gtk_text_buffer_get_iter_at_line (buf, &it, line);
  while (!gtk_text_iter_ends_line (&it))
    {
      g_autoptr (GSList) tags = gtk_text_iter_get_tags (&it);
      gboolean inked = ink_of (tags, &here);
      if (in_run && (!inked || !same_ink (&run, &here)))
        {
          run.end = column;
          tl_sheet_add_ink (sheet, &run);
          in_run = FALSE;
        }
      if (inked && !in_run)
        {
          run = here;
          run.start = column;
          in_run = TRUE;
        }
      gunichar c = gtk_text_iter_get_char (&it);
      if (c == '\t')
        do
          g_string_append_c (text, ' ');
        while (++column % TAB_WIDTH);
      else
        {
          g_string_append_unichar (text, c);
          column++;
        }
      gtk_text_iter_forward_char (&it);
    }
  if (in_run)
    {
      run.end = column;
      tl_sheet_add_ink (sheet, &run);
    }
  tl_sheet_add_line (sheet, text->str, marked);
  g_string_free (text, TRUE);
}

/* whether some of line (from 0) carries the tag named mark */
static gboolean
line_marked (GtkTextBuffer *buf, const char *mark, int line)
{
  GtkTextTag *tag = gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (buf), mark ? mark : "");
  if (tag == NULL)
    return FALSE;
  GtkTextIter it;
  gtk_text_buffer_get_iter_at_line (buf, &it, line);
  if (gtk_text_iter_has_tag (&it, tag))
    return TRUE;
  return gtk_text_iter_forward_to_tag_toggle (&it, tag) && gtk_text_iter_get_line (&it) == line
         && !gtk_text_iter_ends_line (&it);
}

TlSheet *
tl_listing_sheet_new (GtkTextView *view, const char *title, const char *mark)
{
  g_return_val_if_fail (GTK_IS_TEXT_VIEW (view), NULL);
  GtkTextBuffer *shown = gtk_text_view_get_buffer (view);
  GtkTextIter a, b;
  gtk_text_buffer_get_bounds (shown, &a, &b);
  g_autofree char *text = gtk_text_buffer_get_text (shown, &a, &b, FALSE);
  int first, last;
  visible_lines (view, &first, &last);

  /* coloured again for a light page, whatever the theme on screen */
  g_autoptr (GtkTextBuffer) buf = gtk_text_buffer_new (NULL);
  tl_code_highlight_create_tags (buf);
  tl_code_highlight_set_dark (buf, FALSE);
  gtk_text_buffer_set_text (buf, text, -1);
  tl_code_highlight (buf, text);

  TlSheet *sheet = tl_sheet_new ("source", title, TRUE);
  int count = gtk_text_buffer_get_line_count (buf);
  /* TRANSLATORS: under an exported kernel listing's title: "lines 12–48 of 230" */
  sheet->subtitle = g_strdup_printf (_("lines %d–%d of %d"), first + 1, last + 1, count);
  sheet->first_number = first + 1;
  for (int line = first; line <= last && line < count; line++)
    add_line (sheet, buf, line, line_marked (shown, mark, line));
  return sheet;
}
