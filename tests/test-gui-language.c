/* test-gui-language.c — the window from the build tree speaks German
 * (LANGUAGE=de, set by meson): every view shows German words, in its
 * widgets and in what its painters draw, and no text that the German
 * catalogue translates is left in English.
 *
 * The catalogue is found as `build/ui/tilelab` finds it (tl_locale_init:
 * the build tree's po/ for a program inside the build tree); what counts
 * as translated is read from po/de.po.  At 1024×768, window and
 * presenting, the Device page's longer German facts wrap at its edge, a
 * value's lines in its own column.  Exits 77 (skip) without a display.
 */
#include <gtk/gtk.h>

#include "paint/tl-paint-text-boxes.h"
#include "tl-window.h"

#include "gui-test-util.h"

static TlWindow *win;
static GHashTable *german;   /* msgstr → msgid, of the translated entries */
static GHashTable *english;  /* msgid → msgstr */

/* ---- po/de.po ---------------------------------------------------------------- */

/* a quoted po string, unescaped, appended to s */
static void
append_po_string (GString *s, const char *line)
{
  const char *open = strchr (line, '"'), *close = strrchr (line, '"');
  if (open == NULL || close == open)
    return;
  g_autofree char *quoted = g_strndup (open + 1, close - open - 1);
  g_autofree char *plain = g_strcompress (quoted);
  g_string_append (s, plain);
}

static void
add_entry (GString *id, GString *str, gboolean fuzzy)
{
  if (!fuzzy && id->len && str->len && strcmp (id->str, str->str) != 0)
    {
      g_hash_table_insert (german, g_strdup (str->str), g_strdup (id->str));
      g_hash_table_insert (english, g_strdup (id->str), g_strdup (str->str));
    }
}

static void
read_catalogue (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("TL_SOURCE_DIR"), "po", "de.po", NULL);
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  german = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  english = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  g_autoptr (GString) id = g_string_new (NULL), str = g_string_new (NULL);
  GString *into = NULL;
  gboolean fuzzy = FALSE, plural = FALSE;
  for (guint i = 0; lines[i]; i++)
    {
      const char *l = lines[i];
      if (g_str_has_prefix (l, "#,") && strstr (l, "fuzzy"))
        fuzzy = TRUE;
      else if (g_str_has_prefix (l, "msgid "))
        {
          add_entry (id, str, fuzzy || plural);
          g_string_truncate (id, 0);
          g_string_truncate (str, 0);
          plural = FALSE;
          append_po_string (into = id, l);
        }
      else if (g_str_has_prefix (l, "msgid_plural"))
        {
          plural = TRUE;
          into = NULL;
        }
      else if (g_str_has_prefix (l, "msgstr"))
        append_po_string (into = str, l);
      else if (l[0] == '"' && into)
        append_po_string (into, l);
      else if (l[0] == '\0')
        {
          add_entry (id, str, fuzzy || plural);
          g_string_truncate (id, 0);
          g_string_truncate (str, 0);
          fuzzy = plural = FALSE;
          into = NULL;
        }
    }
  add_entry (id, str, fuzzy || plural);
  g_assert_cmpuint (g_hash_table_size (german), >, 200);
}

/* ---- what a page shows --------------------------------------------------------- */

static void
collect_label_texts (GtkWidget *widget, gpointer data)
{
  if (!gtk_widget_get_mapped (widget))
    return;
  if (GTK_IS_LABEL (widget))
    g_ptr_array_add (data, g_strdup (gtk_label_get_text (GTK_LABEL (widget))));
  if (GTK_IS_CONTAINER (widget))
    gtk_container_forall (GTK_CONTAINER (widget), collect_label_texts, data);
}

/* the labels of the page, and what its painters draw */
static GPtrArray *
page_texts (GtkWidget *page)
{
  GPtrArray *texts = g_ptr_array_new_with_free_func (g_free);
  collect_label_texts (page, texts);

  int w = gtk_widget_get_allocated_width (GTK_WIDGET (win));
  int h = gtk_widget_get_allocated_height (GTK_WIDGET (win));
  /* a resize still queued (a page that just came up) is done first:
   * gtk_widget_draw refuses a widget that waits for its allocation */
  gtk_container_check_resize (GTK_CONTAINER (win));
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  cairo_t *cr = cairo_create (s);
  g_autoptr (TlPaintTextBoxes) boxes = tl_paint_text_boxes_new ();
  tl_paint_text_boxes_attach (cr, boxes);
  gtk_widget_draw (GTK_WIDGET (win), cr);
  tl_paint_text_boxes_attach (cr, NULL);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
  for (guint i = 0; i < tl_paint_text_boxes_len (boxes); i++)
    g_ptr_array_add (texts, g_strdup (tl_paint_text_boxes_index (boxes, i)->text));
  return texts;
}

static gboolean
is_idle (gpointer data)
{
  return gui_test_window_settled (win);
}

static void
open_record (const char *name)
{
  g_autofree char *path = g_build_filename (g_getenv ("TL_SOURCE_DIR"), "docs", "records", name, NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  tl_window_open_record (win, file);
  g_assert_true (gui_test_wait_until (is_idle, NULL, 60));
}

/* An LU record opened alone: the Device page shows the GPU it was made
 * on, as the status bar names it, not "no CUDA GPU in this session". */
static void
test_device_of_lu_record (void)
{
  open_record ("h200-lu-02-blocked-96.json");
  GtkWidget *page = tl_window_get_page (win, "device");
  tl_window_show_view (win, "device");
  g_assert_true (gui_test_wait_until (is_idle, NULL, 30));
  TlRenderOptions options = { 0 };
  g_assert_true (tl_page_export_options (TL_PAGE (page), &options));
  gboolean named = FALSE;
  for (guint i = 0; i < tl_sheet_get_n_rows (options.sheet); i++)
    named |= tl_sheet_get_row (options.sheet, i)->kind == TL_SHEET_HEADING
             && strstr (tl_sheet_get_row (options.sheet, i)->label, "H200") != NULL;
  if (!named)
    g_error ("the Device page does not show the LU record's GPU (NVIDIA H200)");
}

static void
test_every_view_in_german (void)
{
  static const char *const views[] = { "matrices", "compare", "blocks", "gauss", "source", "device",
                                       "roofline", "lesson" };
  tl_window_generate (win, TL_TARGET_A | TL_TARGET_B, "random-uniform", 64, 64, TL_DTYPE_FLOAT32, 3);
  open_record ("h200-lu-02-blocked-96.json");
  open_record ("h200-gemm-1000x500x1000.json");

  for (guint v = 0; v < G_N_ELEMENTS (views); v++)
    {
      GtkWidget *page = tl_window_get_page (win, views[v]);
      tl_window_show_view (win, views[v]);
      g_assert_true (gui_test_wait_until (is_idle, NULL, 30));
      gui_test_pump (0.2);
      g_autoptr (GPtrArray) texts = page_texts (page);
      guint n_german = 0;
      GString *english_left = g_string_new (NULL);
      for (guint i = 0; i < texts->len; i++)
        {
          const char *t = texts->pdata[i];
          if (g_hash_table_contains (german, t))
            n_german++;
          else if (g_hash_table_contains (english, t))
            g_string_append_printf (english_left, " “%s”", t);
        }
      g_test_message ("%s: %u texts, %u of them German", views[v], texts->len, n_german);
      if (english_left->len)
        g_error ("%s shows English where the catalogue has German:%s", views[v], english_left->str);
      g_string_free (english_left, TRUE);
      if (n_german == 0)
        g_error ("%s shows no German text", views[v]);
    }
}

/* ---- German is longer: the facts still end inside the page ---------------------- */

typedef struct
{
  GtkWidget *page;
  GString *beyond;
} Edge;

static void
check_label_edges (GtkWidget *widget, gpointer data)
{
  Edge *e = data;
  if (!gtk_widget_get_mapped (widget))
    return;
  if (GTK_IS_LABEL (widget))
    {
      int right, y;
      gtk_widget_translate_coordinates (widget, e->page, gtk_widget_get_allocated_width (widget), 0,
                                        &right, &y);
      if (right > gtk_widget_get_allocated_width (e->page))
        g_string_append_printf (e->beyond, " “%.40s…” ends at %d px of %d;", gtk_label_get_text (GTK_LABEL (widget)),
                                right, gtk_widget_get_allocated_width (e->page));
    }
  if (GTK_IS_CONTAINER (widget))
    gtk_container_forall (GTK_CONTAINER (widget), check_label_edges, data);
}

static void
check_device_edges (GtkWidget *page, const char *where)
{
  Edge e = { page, g_string_new (NULL) };
  check_label_edges (page, &e);
  if (e.beyond->len)
    g_error ("the Device page's text runs past its edge %s:%s", where, e.beyond->str);
  g_string_free (e.beyond, TRUE);
}

/* ---- a fact's value that wraps stays in its column ------------------------------ */

/* the page's x of label's character at byte index */
static int
page_x_of (GtkWidget *page, GtkLabel *label, int index)
{
  PangoRectangle pos;
  int layout_x, layout_y, x, y;
  pango_layout_index_to_pos (gtk_label_get_layout (label), index, &pos);
  gtk_label_get_layout_offsets (label, &layout_x, &layout_y);
  GtkAllocation a;
  gtk_widget_get_allocation (GTK_WIDGET (label), &a);
  gtk_widget_translate_coordinates (GTK_WIDGET (label), page, layout_x - a.x + PANGO_PIXELS (pos.x), 0, &x, &y);
  return x;
}

/* the label on the page that shows value: the one that is value, else
 * the first that holds it */
static void
find_value_cb (GtkWidget *widget, gpointer data)
{
  gpointer *find = data;
  if (GTK_IS_LABEL (widget) && gtk_widget_get_mapped (widget))
    {
      const char *text = gtk_label_get_text (GTK_LABEL (widget));
      if (g_strcmp0 (text, find[0]) == 0 || (find[1] == NULL && strstr (text, find[0])))
        find[1] = widget;
    }
  if (GTK_IS_CONTAINER (widget))
    gtk_container_forall (GTK_CONTAINER (widget), find_value_cb, data);
}

/* each line of value after its first starts where its first does, and
 * that where the first value's did (*first_column; -1: none yet) */
static void
check_value_lines (GtkWidget *page, const char *value, int *first_column, GString *bad)
{
  gpointer find[2] = { (gpointer) value, NULL };
  find_value_cb (page, find);
  if (find[1] == NULL)
    return;
  GtkLabel *label = find[1];
  const char *text = gtk_label_get_text (label);
  int start = (int) (strstr (text, value) - text), end = start + (int) strlen (value);
  int column = page_x_of (page, label, start);
  if (*first_column < 0)
    *first_column = column;
  else if (ABS (column - *first_column) > 2)
    g_string_append_printf (bad, " “%.30s…” starts at %d px, the first value at %d px;", value, column,
                            *first_column);
  for (GSList *l = pango_layout_get_lines_readonly (gtk_label_get_layout (label)); l; l = l->next)
    {
      const PangoLayoutLine *line = l->data;
      int x = page_x_of (page, label, line->start_index);
      if (line->start_index > start && line->start_index < end && ABS (x - column) > 2)
        g_string_append_printf (bad, " “%.30s…” goes on at %d px, not at its column's %d px;",
                                value, x, column);
    }
}

/* every fact's value on the Device page, as its export lists them, the
 * device's and the kernel's in one column */
static void
check_device_columns (GtkWidget *page, const char *where)
{
  TlRenderOptions options = { 0 };
  g_assert_true (tl_page_export_options (TL_PAGE (page), &options));
  GString *bad = g_string_new (NULL);
  int first_column = -1;
  for (guint i = 0; i < tl_sheet_get_n_rows (options.sheet); i++)
    if (tl_sheet_get_row (options.sheet, i)->kind == TL_SHEET_ROW)
      check_value_lines (page, tl_sheet_get_row (options.sheet, i)->value, &first_column, bad);
  if (bad->len)
    g_error ("the Device page's values leave their column %s:%s", where, bad->str);
  g_string_free (bad, TRUE);
}

/* The Device page's facts, a GPU rung's among them, wrap at the page's
 * edge rather than run under it (the threads line did in Serbian at
 * 1024×768): at 1024×768 presenting and not, and on a page of 480 px,
 * where a value's second line starts under its first, not under the
 * labels (it did in the page's one monospace label). */
static void
test_device_fits (void)
{
  open_record ("h200-gemm-1000x500x1000.json");
  gui_test_fill_screen (win, 1024, 768);
  GtkWidget *page = tl_window_get_page (win, "device");
  tl_window_show_view (win, "device");
  tl_page_show_kernel (TL_PAGE (page), "gemm-02-coalesced");
  for (int presenting = 0; presenting < 2; presenting++)
    {
      tl_window_set_presentation (win, presenting);
      gui_test_pump (0.3);
      g_assert_true (gui_test_wait_until (is_idle, NULL, 30));
      check_device_edges (page, presenting ? "presenting" : "at 1024×768");
    }
  tl_window_set_presentation (win, FALSE);
  gui_test_pump (0.3);
  /* a narrower page than any screen gives it, for the facts of every language */
  GtkAllocation narrow;
  gtk_widget_get_allocation (page, &narrow);
  narrow.width = 480;
  gtk_widget_size_allocate (page, &narrow);
  check_device_edges (page, "on a page of 480 px");
  check_device_columns (page, "on a page of 480 px");
  gtk_widget_queue_resize (page);
  gui_test_pump (0.3);
}

/* ---- the header bar names every view where it has room --------------------------- */

/* the text that the view switcher's button for title shows: its words, or
 * NULL where it shows an icon */
static void
find_switcher_label_cb (GtkWidget *widget, gpointer data)
{
  gpointer *find = data;
  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), find[0]) == 0
      && gtk_widget_get_mapped (widget))
    find[1] = widget;
  if (GTK_IS_CONTAINER (widget))
    gtk_container_forall (GTK_CONTAINER (widget), find_switcher_label_cb, data);
}

static gboolean
switcher_names (const char *title)
{
  GtkWidget *header = gtk_window_get_titlebar (GTK_WINDOW (win));
  gpointer find[2] = { (gpointer) title, NULL };
  find_switcher_label_cb (gtk_header_bar_get_custom_title (GTK_HEADER_BAR (header)), find);
  return find[1] != NULL;
}

static gboolean
switcher_names_lesson (gpointer data)
{
  return switcher_names (data);
}

static gboolean
window_is_wide (gpointer data)
{
  return gtk_widget_get_allocated_width (GTK_WIDGET (win)) >= 1400;
}

/* "Warum schneller?" (the lesson view, an icon until now) in words on a
 * wide window; back at 1024 px, where the words do not fit, the icon
 * comes back and the window is as narrow as it was. */
static void
test_switcher_names (void)
{
  const char *title = g_hash_table_lookup (english, "Why Faster?");
  g_assert_nonnull (title);
  tl_window_set_presentation (win, FALSE);
  gui_test_fill_screen (win, 1024, 768);
  gui_test_pump (0.3);
  int narrow = gtk_widget_get_allocated_width (GTK_WIDGET (win));
  gui_test_fill_screen (win, 1600, 1000);
  if (!gui_test_wait_until (window_is_wide, NULL, 5))
    {
      g_test_skip_printf ("a screen narrower than 1400 px (%d)", gtk_widget_get_allocated_width (GTK_WIDGET (win)));
      return;
    }
  if (!gui_test_wait_until (switcher_names_lesson, (gpointer) title, 5))
    g_error ("the header bar shows the lesson view as an icon alone on a window of %d px",
             gtk_widget_get_allocated_width (GTK_WIDGET (win)));
  gui_test_fill_screen (win, 1024, 768);
  gui_test_pump (0.3);
  g_assert_cmpint (gtk_widget_get_allocated_width (GTK_WIDGET (win)), <=, narrow);
  g_assert_false (switcher_names (title));
}

static void
add_tests (void)
{
  g_assert_cmpstr (g_getenv ("LANGUAGE"), ==, "de");
  read_catalogue ();
  g_test_add_func ("/gui-language/device-of-lu-record", test_device_of_lu_record);
  g_test_add_func ("/gui-language/every-view-in-german", test_every_view_in_german);
  g_test_add_func ("/gui-language/device-fits-1024", test_device_fits);
  g_test_add_func ("/gui-language/switcher-names", test_switcher_names);
}

static void
after_tests (void)
{
  g_hash_table_unref (german);
  g_hash_table_unref (english);
}

int
main (int argc, char **argv)
{
  const GuiTestApp test = { .app_locale = TRUE, .add_tests = add_tests, .after_tests = after_tests };
  return gui_test_run_app (argc, argv, &test, &win);
}
