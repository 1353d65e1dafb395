/* test-gui-blocks.c — part of test-gui: the Blocks page: two timelines on shared or own time scales, two kernels' grids side by side, the toolbar on a projector. */
#include "test-gui-window.h"

#include <math.h>
#include <string.h>
#include <glib/gstdio.h>

#include "view/tl-player.h"
#include "tl-compare-page.h"
#include "tl-device-page.h"
#include "tl-heatmap-view.h"
#include "tl-blocks-page.h"
#include "tl-gauss-page.h"
#include "tl-render-area.h"
#include "tl-session.h"
#include "tl-source-page.h"
#include "lu/tl-lu.h"
#include "record/tl-record.h"

/* Opens the H200 GEMM record and names two of its kernels that kept block
 * records (ids[0], ids[1]). */
static void
open_record_with_two_timed_kernels (const char *ids[2])
{
  g_autofree char *path = record_path ("h200-gemm-1000x500x1000.json");
  g_autoptr (GFile) file = g_file_new_for_path (path);
  GFile *files[] = { file };
  g_application_open (G_APPLICATION (app), files, 1, "");
  g_assert_true (wait_until (is_idle, NULL, 60));
  gui_test_kernels_with_blocks (win, ids);
  g_assert_nonnull (ids[1]);
}

/* out of presentation, the window at its size before, the Matrices page */
static void
leave_presented_blocks (int w_was, int h_was)
{
  tl_window_set_presentation (win, FALSE);
  gtk_window_resize (GTK_WINDOW (win), w_was, h_was);
  pump (0.3);
  tl_window_show_view (win, "matrices");
}

/* Blocks: two timelines on a shared or on their own time scales, a labelled
 * choice that stays usable in presentation and goes into the export */
static gboolean
exported_own_time_scale (TlPage *page)
{
  TlRenderOptions o;
  g_assert_true (tl_page_export_options (page, &o));
  return o.own_time_scale;
}

void
test_blocks_time_scale (void)
{
  const char *ids[2];
  open_record_with_two_timed_kernels (ids);

  TlBlocksPage *blocks = TL_BLOCKS_PAGE (tl_window_get_page (win, "blocks"));
  TlRenderArea *timeline = TL_RENDER_AREA (tl_blocks_page_get_area (blocks, TRUE));
  tl_window_show_view (win, "blocks");
  tl_blocks_page_show_kernels (blocks, ids[0], NULL);
  pump (0.1);
  g_assert_false (tl_blocks_page_time_scale_shown (blocks)); /* one timeline: nothing to choose */

  tl_blocks_page_show_kernels (blocks, ids[0], ids[1]);
  pump (0.1);
  g_assert_true (tl_blocks_page_time_scale_shown (blocks));
  g_assert_false (tl_render_area_get_own_time_scale (timeline)); /* shared by default */
  tl_blocks_page_set_own_time_scale (blocks, TRUE);
  g_assert_true (tl_render_area_get_own_time_scale (timeline));
  g_assert_true (exported_own_time_scale (TL_PAGE (blocks)));

  /* presentation keeps the choice, and the choice itself */
  tl_window_set_presentation (win, TRUE);
  pump (0.3);
  g_assert_true (tl_blocks_page_time_scale_shown (blocks));
  g_assert_true (tl_render_area_get_own_time_scale (timeline));
  tl_blocks_page_set_own_time_scale (blocks, FALSE);
  g_assert_false (tl_render_area_get_own_time_scale (timeline));
  g_assert_false (exported_own_time_scale (TL_PAGE (blocks)));
  tl_blocks_page_show_kernels (blocks, ids[0], NULL);
  pump (0.1);
  g_assert_false (tl_blocks_page_time_scale_shown (blocks));
  tl_window_set_presentation (win, FALSE);
  pump (0.3);
  tl_window_show_view (win, "matrices");
}

/* Blocks: the toolbar fits in two rows on a 1024×768 projector even in
 * the high-contrast theme (its bigger, bolder controls once took five
 * rows and most of the plot), and the window does not grow past the
 * screen for it */
static void
collect_combos (GtkWidget *widget, gpointer data)
{
  if (!gtk_widget_get_visible (widget))
    return;
  if (GTK_IS_COMBO_BOX (widget))
    g_ptr_array_add (data, widget);
  else if (GTK_IS_CONTAINER (widget))
    gtk_container_forall (GTK_CONTAINER (widget), collect_combos, data);
}

/* what a search under a widget looks for */
typedef gboolean (*WidgetTest) (GtkWidget *w, gconstpointer data);

typedef struct
{
  WidgetTest test;
  gconstpointer data;
  GtkWidget *found;
} Search;

static void
search_cb (GtkWidget *w, gpointer data)
{
  Search *s = data;
  if (s->found == NULL && s->test (w, s->data))
    s->found = w;
  else if (s->found == NULL && GTK_IS_CONTAINER (w))
    gtk_container_forall (GTK_CONTAINER (w), search_cb, data);
}

/* The first widget under root (internal children too) that test takes. */
static GtkWidget *
find_under (GtkWidget *root, WidgetTest test, gconstpointer data)
{
  Search s = { test, data, NULL };
  search_cb (root, &s);
  return s.found;
}

static gboolean
is_flow_box (GtkWidget *w, gconstpointer data)
{
  return GTK_IS_FLOW_BOX (w);
}

static gboolean
is_named (GtkWidget *w, gconstpointer name)
{
  return g_strcmp0 (gtk_buildable_get_name (GTK_BUILDABLE (w)), name) == 0;
}

/* the chooser of the open records with block records */
static GtkWidget *
record_chooser (TlBlocksPage *blocks)
{
  GtkWidget *combo = find_under (GTK_WIDGET (blocks), is_named, "record_combo");
  g_assert_nonnull (combo);
  return combo;
}

void
test_blocks_toolbar_rows (void)
{
  static const struct
  {
    const char *theme;
    int w, h;
  } cases[] = {
    { "HighContrast", 1024, 768 }, { "HighContrastInverse", 1024, 768 },
    { "Adwaita", 1024, 768 },      { "HighContrast", 1280, 800 },
  };
  const char *ids[2];
  open_record_with_two_timed_kernels (ids);

  GtkSettings *settings = gtk_settings_get_default ();
  g_autofree char *theme_was = NULL;
  g_object_get (settings, "gtk-theme-name", &theme_was, NULL);
  int w_was, h_was;
  gtk_window_get_size (GTK_WINDOW (win), &w_was, &h_was);
  TlBlocksPage *blocks = TL_BLOCKS_PAGE (tl_window_get_page (win, "blocks"));
  tl_window_show_view (win, "blocks");
  tl_blocks_page_show_kernels (blocks, ids[0], ids[1]);
  GtkWidget *toolbar = find_under (GTK_WIDGET (blocks), is_flow_box, NULL);
  g_assert_nonnull (toolbar);

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_object_set (settings, "gtk-theme-name", cases[c].theme, NULL);
      /* the window, its resize border included, as wide as the screen */
      gui_test_fill_screen (win, cases[c].w, cases[c].h);
      int gw, gh;
      GdkWindow *gdk = gtk_widget_get_window (GTK_WIDGET (win));
      gtk_window_get_size (GTK_WINDOW (win), &gw, &gh);
      gtk_window_resize (GTK_WINDOW (win), cases[c].w - (gdk_window_get_width (gdk) - gw),
                         cases[c].h - (gdk_window_get_height (gdk) - gh));
      pump (0.3);
      int min_w;
      gtk_widget_get_preferred_width (GTK_WIDGET (win), &min_w, NULL);
      g_assert_cmpint (min_w, <=, cases[c].w);
      g_assert_cmpint (gdk_window_get_width (gdk), <=, cases[c].w);

      /* every choice is there, and they lie in at most two rows */
      g_autoptr (GPtrArray) combos = g_ptr_array_new ();
      collect_combos (toolbar, combos);
      g_assert_cmpuint (combos->len, ==, 5 + gtk_widget_is_visible (record_chooser (blocks)));
      int rows = 0, last_y = G_MININT;
      int right = gtk_widget_get_allocated_width (toolbar);
      for (guint i = 0; i < combos->len; i++)
        {
          GtkWidget *combo = combos->pdata[i];
          int x, y, h = gtk_widget_get_allocated_height (combo);
          g_assert_true (gtk_widget_translate_coordinates (combo, toolbar, 0, 0, &x, &y));
          g_assert_cmpint (x + gtk_widget_get_allocated_width (combo), <=, right);
          if (y > last_y + h / 2)
            rows++, last_y = y;
        }
      if (rows > 2)
        g_error ("%s at %d×%d: the Blocks toolbar takes %d rows", cases[c].theme, cases[c].w,
                 cases[c].h, rows);
    }

  g_object_set (settings, "gtk-theme-name", theme_was, NULL);
  gtk_window_resize (GTK_WINDOW (win), w_was, h_was);
  pump (0.3);
  tl_window_show_view (win, "matrices");
}

/* Blocks with a record of block records open and a record of counters
 * (none) opened after it: the page shows the one with blocks and says so */
void
test_blocks_other_record (void)
{
  const char *ids[2];
  open_record_with_two_timed_kernels (ids);
  g_autofree char *path = record_path ("h200-gemm-4096-fp32-counters.json");
  g_autoptr (GFile) file = g_file_new_for_path (path);
  GFile *files[] = { file };
  g_application_open (G_APPLICATION (app), files, 1, "");
  g_assert_true (wait_until (is_idle, NULL, 60));
  pump (0.1);

  TlSession *session = tl_window_get_session (win);
  const TlRunRecord *shown = tl_session_get_record (session);
  g_assert_nonnull (shown);
  g_assert_nonnull (shown->job);
  g_assert_cmpuint (shown->job->m, ==, 4096); /* the counters record is on show */

  TlBlocksPage *blocks = TL_BLOCKS_PAGE (tl_window_get_page (win, "blocks"));
  TlRenderOptions o;
  tl_render_area_get_options (TL_RENDER_AREA (tl_blocks_page_get_area (blocks, TRUE)), &o);
  /* a kernel of the other record (the counters record has none with blocks) */
  g_assert_nonnull (o.kernels);
  GPtrArray *all = tl_session_get_history (session);
  gboolean found = FALSE;
  for (guint i = 0; i < all->len; i++)
    {
      const TlRunRecord *r = all->pdata[i];
      found |= r->job && r->job->m == 1000 && tl_run_record_find_run (r, o.kernels) != NULL;
    }
  g_assert_true (found);
}

/* ---- which record: chosen, and named while presenting ---------------------- */

/* A copy of the instrumented record made at another time (created), in
 * dir: a second open record with block records; owned by the caller. */
static char *
record_copy (const char *dir, const char *created)
{
  g_autofree char *from = record_path ("h200-gemm-1000x500x1000.json");
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (from, &text, NULL, NULL));
  GString *s = g_string_new (text);
  g_autofree char *made = g_strdup_printf ("\"created\":\"%s\"", created);
  g_assert_cmpuint (g_string_replace (s, "\"created\":\"2026-11-21T22:56:21Z\"", made, 1), ==, 1);
  g_autofree char *name = g_strdup_printf ("record-%.10s.json", created);
  char *to = g_build_filename (dir, name, NULL);
  g_assert_true (g_file_set_contents (to, s->str, (gssize) s->len, NULL));
  g_string_free (s, TRUE);
  return to;
}

static void
open_path (const char *path)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  GFile *files[] = { file };
  g_application_open (G_APPLICATION (app), files, 1, "");
  g_assert_true (wait_until (is_idle, NULL, 60));
  pump (0.2);
}

/* the date the Blocks page's record was made, as its file says */
static const char *
blocks_record_made (TlBlocksPage *blocks)
{
  TlRunRecord *r = tl_page_export_record (TL_PAGE (blocks));
  g_assert_nonnull (r);
  return r->created;
}


/* Several open records with block records: a record chooser lists them,
 * the newest shown until the user chooses, the choice kept as another
 * opens; what it shows is what it exports */
void
test_blocks_record_choice (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tl-blocks-XXXXXX", NULL);
  g_autofree char *later = record_copy (dir, "2026-11-25T09:30:00Z");
  g_autofree char *latest = record_copy (dir, "2026-11-26T10:00:00Z");
  const char *ids[2];
  open_record_with_two_timed_kernels (ids);
  open_path (later);
  TlBlocksPage *blocks = TL_BLOCKS_PAGE (tl_window_get_page (win, "blocks"));
  tl_window_show_view (win, "blocks");
  pump (0.1);
  g_assert_cmpstr (blocks_record_made (blocks), ==, "2026-11-25T09:30:00Z"); /* the newest */

  GtkComboBox *combo = GTK_COMBO_BOX (record_chooser (blocks));
  g_assert_true (gtk_widget_is_visible (GTK_WIDGET (combo)));
  GtkTreeModel *model = gtk_combo_box_get_model (combo);
  GtkTreeIter it;
  int older = -1, rows = 0;
  for (gboolean ok = gtk_tree_model_get_iter_first (model, &it); ok; ok = gtk_tree_model_iter_next (model, &it))
    {
      g_autofree char *text = NULL;
      gtk_tree_model_get (model, &it, 0, &text, -1);
      g_assert_null (strstr (text, "4096×4096×4096")); /* the counters record has no block records */
      if (strstr (text, "2026-11-21 22:56"))
        older = rows;
      rows++;
    }
  g_assert_cmpint (older, >=, 0);
  gtk_combo_box_set_active (combo, older);
  pump (0.1);
  g_assert_cmpstr (blocks_record_made (blocks), ==, "2026-11-21T22:56:21Z");
  TlRenderOptions o;
  tl_render_area_get_options (TL_RENDER_AREA (tl_blocks_page_get_area (blocks, FALSE)), &o);
  g_assert_nonnull (o.kernels);

  open_path (latest); /* the user's choice stays */
  g_assert_cmpstr (blocks_record_made (blocks), ==, "2026-11-21T22:56:21Z");
  g_assert_cmpint (gtk_tree_model_iter_n_children (model, NULL), ==, rows + 1);
  gui_test_remove_folder (dir);
  tl_window_show_view (win, "matrices");
}

/* Presenting at 1024×768 with several records open, the page names the
 * record it shows, in one line, its size and machine whole */
static gboolean
is_label_naming (GtkWidget *w, gconstpointer words)
{
  return GTK_IS_LABEL (w) && gtk_widget_get_mapped (w) && strstr (gtk_label_get_text (GTK_LABEL (w)), words);
}

void
test_blocks_record_named_presenting (void)
{
  static const char words[] = "1000×500×1000 · NVIDIA H200";
  int w_was, h_was;
  gtk_window_get_size (GTK_WINDOW (win), &w_was, &h_was);
  TlBlocksPage *blocks = TL_BLOCKS_PAGE (tl_window_get_page (win, "blocks"));
  tl_window_show_view (win, "blocks");
  gui_test_fill_screen (win, 1024, 768);
  tl_window_set_presentation (win, TRUE);
  pump (0.5);

  GtkWidget *label = find_under (GTK_WIDGET (blocks), is_label_naming, words);
  if (label == NULL)
    g_error ("presenting at 1024×768, nothing on the Blocks page names its record (%s)", words);
  PangoLayout *shown = gtk_label_get_layout (GTK_LABEL (label));
  g_assert_cmpint (pango_layout_get_line_count (shown), ==, 1);
  /* what comes up to the machine's name fits, an ellipsis after it */
  const char *text = gtk_label_get_text (GTK_LABEL (label));
  g_autofree char *head = g_strndup (text, (gsize) (strstr (text, words) - text) + strlen (words));
  g_autofree char *with_dots = g_strconcat (head, "…", NULL);
  PangoLayout *need = gtk_widget_create_pango_layout (label, with_dots);
  int need_w;
  pango_layout_get_pixel_size (need, &need_w, NULL);
  g_object_unref (need);
  g_assert_cmpint (need_w, <=, gtk_widget_get_allocated_width (label));

  leave_presented_blocks (w_was, h_was);
}

/* At 1024×768, in a window beside the sidebar, the tile grid of one
 * kernel gets a readable share of the page (it was 153 px of the
 * pictures' 467): its plot 40 % of their height at least (presented, as
 * the timelines below it: half each), its cells square as the tiles are */
typedef struct
{
  TlBlocksPage *blocks;
  double share;
} GridShare;

static int
pictures_height (TlBlocksPage *blocks)
{
  return gtk_widget_get_allocated_height (tl_blocks_page_get_area (blocks, FALSE))
         + gtk_widget_get_allocated_height (tl_blocks_page_get_area (blocks, TRUE));
}

/* the page arranges the grid in an idle after its allocation: a slow
 * build (ASan, a loaded machine) is still a step behind after 0.3 s */
static gboolean
grid_share_reached (gpointer data)
{
  const GridShare *want = data;
  TlBlocksLayout lay;
  return tl_blocks_page_get_grid_layout (want->blocks, 0, &lay) && lay.plot_h >= want->share * pictures_height (want->blocks);
}

static void
assert_grid_share (TlBlocksPage *blocks, double share, const char *where)
{
  GridShare want = { blocks, share };
  gui_test_wait_until (grid_share_reached, &want, 10);
  TlBlocksLayout lay;
  g_assert_true (tl_blocks_page_get_grid_layout (blocks, 0, &lay));
  int pictures = pictures_height (blocks);
  g_test_message ("%s: the grid's plot %.0f×%.0f px of the pictures' %d px", where, lay.plot_w, lay.plot_h,
                  pictures);
  if (lay.plot_h < share * pictures)
    g_error ("%s: the tile grid is %.0f px high of the pictures' %d", where, lay.plot_h, pictures);
  g_assert_cmpfloat (fabs (lay.cell_w - lay.cell_h), <, 0.5);
}

/* The Blocks page with one kernel's grid and timeline; the window's size
 * before in *w_was, *h_was */
static TlBlocksPage *
show_one_kernel (int *w_was, int *h_was)
{
  const char *ids[2];
  open_record_with_two_timed_kernels (ids);
  gtk_window_get_size (GTK_WINDOW (win), w_was, h_was);
  TlBlocksPage *blocks = TL_BLOCKS_PAGE (tl_window_get_page (win, "blocks"));
  tl_window_show_view (win, "blocks");
  tl_blocks_page_show_kernels (blocks, ids[0], NULL);
  return blocks;
}

void
test_blocks_grid_share (void)
{
  int w_was, h_was;
  TlBlocksPage *blocks = show_one_kernel (&w_was, &h_was);
  gui_test_fill_screen (win, 1024, 768);
  pump (0.3);
  assert_grid_share (blocks, 0.4, "1024×768");
  tl_window_set_presentation (win, TRUE);
  pump (0.5);
  assert_grid_share (blocks, 0.3, "1024×768 presenting");

  leave_presented_blocks (w_was, h_was);
}

/* The page reads the grid as painted: at widths where the painted facts
 * ("… · C is 1000×1000") wrap to a line more than the page's own model
 * of them ("… · C") did, hover and arrangement were a line off.  The row
 * label "0" sits at the middle of the first row the page computes. */
static double
painted_first_row_middle (GtkWidget *area, const TlBlocksLayout *lay)
{
  g_autoptr (TlPaintTextBoxes) boxes = gui_test_widget_texts (area);
  for (guint i = 0; i < tl_paint_text_boxes_len (boxes); i++)
    {
      const TlPaintTextBox *b = tl_paint_text_boxes_index (boxes, i);
      if (g_strcmp0 (b->text, "0") == 0 && b->x + b->w <= lay->plot_x)
        return b->y + b->h / 2;
    }
  return NAN;
}

void
test_blocks_grid_as_painted (void)
{
  int w_was, h_was;
  TlBlocksPage *blocks = show_one_kernel (&w_was, &h_was);
  GtkWidget *area = tl_blocks_page_get_area (blocks, FALSE);
  for (int width = 820; width <= 1000; width += 30)
    {
      gui_test_fill_screen (win, width, 768);
      pump (0.3);
      TlBlocksLayout lay;
      g_assert_true (tl_blocks_page_get_grid_layout (blocks, 0, &lay));
      double painted = painted_first_row_middle (area, &lay);
      g_test_message ("%d px: the first row's middle at %.1f, painted at %.1f", width,
                      lay.plot_y + lay.cell_h / 2, painted);
      g_assert_cmpfloat (fabs (painted - (lay.plot_y + lay.cell_h / 2)), <, 2);
    }
  gtk_window_resize (GTK_WINDOW (win), w_was, h_was);
  pump (0.3);
  tl_window_show_view (win, "matrices");
}

/* Two kernels, rung N beside N−1: a tile grid each, side by side above the
 * timelines, not the first kernel's alone as a strip (86–104 px high at
 * 1024×768) nor, presenting, none at all.  The page arranges them in an
 * idle after its allocation: awaited, as /gui/blocks-grid-share does. */
typedef struct
{
  TlBlocksPage *blocks;
  double least_px;
} TwoGrids;

static gboolean
two_grids_shown (gpointer data)
{
  const TwoGrids *want = data;
  TlBlocksLayout lay;
  for (guint i = 0; i < 2; i++)
    if (!tl_blocks_page_get_grid_layout (want->blocks, i, &lay) || lay.plot_h < want->least_px)
      return FALSE;
  return TRUE;
}

/* Both grids shown, side by side, each plot least_px high at least with
 * square cells: 145 px each of a 467 px page in a window at 1024×768,
 * 115 of 588 presented after the other cases (127 of 612 alone; the
 * timelines keep half there, gui-screens' rule, and three lines of titles
 * in the larger type take the rest). */
static void
assert_two_grids (TlBlocksPage *blocks, double least_px, const char *where)
{
  TwoGrids want = { blocks, least_px };
  gui_test_wait_until (two_grids_shown, &want, 10);
  TlBlocksLayout lay[2];
  for (guint i = 0; i < 2; i++)
    {
      if (!tl_blocks_page_get_grid_layout (blocks, i, &lay[i]))
        g_error ("%s: grid %u of 2 is not shown", where, i + 1);
      g_test_message ("%s: grid %u's plot %.0f×%.0f px at x %.0f of the pictures' %d px", where, i + 1,
                      lay[i].plot_w, lay[i].plot_h, lay[i].plot_x, pictures_height (blocks));
      if (lay[i].plot_h < least_px)
        g_error ("%s: grid %u is %.0f px high, under %.0f", where, i + 1, lay[i].plot_h, least_px);
      g_assert_cmpfloat (fabs (lay[i].cell_w - lay[i].cell_h), <, 0.5);
    }
  /* side by side, the second right of the first */
  g_assert_cmpfloat (lay[0].plot_x + lay[0].plot_w, <, lay[1].plot_x);
  g_assert_cmpfloat (fabs (lay[0].plot_y - lay[1].plot_y), <, 0.5);
}

static void
remember_hovered_kernel_cb (TlPage *page, const char *kernel_id, guint64 row0, guint64 rows, guint64 col0,
                            guint64 cols, char **out)
{
  g_free (*out);
  *out = g_strdup (kernel_id);
}

void
test_blocks_two_grids (void)
{
  const char *ids[2];
  int w_was, h_was;
  open_record_with_two_timed_kernels (ids);
  gtk_window_get_size (GTK_WINDOW (win), &w_was, &h_was);
  TlBlocksPage *blocks = TL_BLOCKS_PAGE (tl_window_get_page (win, "blocks"));
  tl_window_show_view (win, "blocks");
  tl_blocks_page_show_kernels (blocks, ids[0], ids[1]);
  gui_test_fill_screen (win, 1024, 768);
  pump (0.3);
  assert_two_grids (blocks, 140, "1024×768");

  /* the pointer on the second grid reads the second kernel's block */
  TlBlocksLayout lay;
  g_assert_true (tl_blocks_page_get_grid_layout (blocks, 1, &lay));
  GtkWidget *area = tl_blocks_page_get_area (blocks, FALSE);
  double x, y;
  tl_blocks_layout_tile_centre (&lay, 1, 0, &x, &y);
  g_autofree char *hovered = NULL;
  gulong id = g_signal_connect (blocks, "tile-hovered", G_CALLBACK (remember_hovered_kernel_cb), &hovered);
  GdkEventMotion motion = { .type = GDK_MOTION_NOTIFY, .window = gtk_widget_get_window (area), .x = x, .y = y };
  gtk_widget_event (area, (GdkEvent *) &motion);
  g_signal_handler_disconnect (blocks, id);
  g_assert_cmpstr (hovered, ==, ids[1]);

  tl_window_set_presentation (win, TRUE);
  pump (0.5);
  assert_two_grids (blocks, 100, "1024×768 presenting");

  leave_presented_blocks (w_was, h_was);
}
