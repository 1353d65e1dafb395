/* tl-blocks-page.c — the block-time grid and the SM timeline. */
#include "tl-blocks-page.h"

#include <glib/gi18n-lib.h>

#include "gemm/tl-kernels.h"
#include "view/tl-block-stats.h"
#include "paint/tl-paint-util.h"
#include "paint/tl-blocks-arrange.h"
#include "paint/tl-paint-blocks.h"
#include "paint/tl-paint-timeline.h"
#include "tl-record-choice.h"
#include "tl-render-area.h"
#include "tl-ui-util.h"

struct _TlBlocksPage
{
  GtkBox parent_instance;

  TlSession *session;
  TlRunRecord *record;          /* shown (a reference) */
  const TlKernelRun *runs[2];   /* shown: the kernel and the one beside it */
  TlBlockStats *stats[2];       /* their statistics, for hit tests on the timeline
                                   (made on the first hover: a GPU record has
                                   tens of thousands of blocks) */
  GtkWidget *grid, *timeline;   /* TlRenderArea */

  GtkWidget *toolbar;           /* a flow box of two: the kernels, the options */
  GtkWidget *kernels_box, *record_combo, *kernel_combo, *other_combo;
  GtkWidget *grid_color_box, *grid_color, *timeline_color_box, *timeline_color;
  GtkWidget *time_scale_box, *time_scale_combo;
  GtkWidget *record_note;       /* which record, where that is in question */
  GtkWidget *note;
  GtkWidget *paned;
  guint arrange_id;             /* the idle that places the grid */
  int arranged_w, arranged_h;   /* the paned's size it was placed for */
  gboolean presentation;
};

static void tl_blocks_page_page_init (TlPageInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TlBlocksPage, tl_blocks_page, GTK_TYPE_BOX,
                               G_IMPLEMENT_INTERFACE (TL_TYPE_PAGE, tl_blocks_page_page_init))


/* ---- hover: a block's tile of C read rows of A and columns of B --------- */

static void
emit_tile (TlBlocksPage *self, gint tx, gint ty, const TlBlockRecord *b)
{
  const TlJob *job = self->record ? self->record->job : NULL;
  const TlKernelRun *run = NULL;

  if (tx < 0 || b == NULL || job == NULL)
    {
      tl_page_emit_tile_hovered (TL_PAGE (self), NULL, 0, 0, 0, 0);
      return;
    }
  for (guint i = 0; i < self->record->runs->len; i++)
    {
      const TlKernelRun *r = self->record->runs->pdata[i];
      if (b >= r->blocks && b < r->blocks + r->n_blocks)
        run = r;
    }
  if (run == NULL || run->block_tile_m == 0 || run->block_tile_n == 0)
    return;
  gsize row0, rows, col0, cols;
  tl_block_tile_extent ((guint) tx, (guint) ty, run->block_tile_m, run->block_tile_n, job->m, job->n,
                        &row0, &rows, &col0, &cols);
  char took[64];
  tl_format_ms ((b->end_ns - b->start_ns) / 1e6, took, sizeof took);
  /* TRANSLATORS: the block under the pointer; the last %s its time, e.g. "812 ns" */
  g_autofree char *text = g_strdup_printf (_("block (%d, %d) on %s %u: C rows %zu–%zu, cols %zu–%zu "
                                             "(rows of A, columns of B) · %s"),
                                           tx, ty, g_strcmp0 (run->block_unit, "sm") == 0 ? "SM" : _("thread"),
                                           b->unit, row0, row0 + rows - 1, col0, col0 + cols - 1, took);
  tl_page_emit_hover_text (TL_PAGE (self), text);
  tl_page_emit_tile_hovered (TL_PAGE (self), run->kernel_id, row0, rows, col0, cols);
}

static void
set_tile (TlBlocksPage *self, gint tx, gint ty, const TlBlockRecord *block)
{
  tl_render_area_set_tile (TL_RENDER_AREA (self->grid), tx, ty);
  tl_render_area_set_tile (TL_RENDER_AREA (self->timeline), tx, ty);
  emit_tile (self, tx, ty, block);
}

/* the block of run that computed tile (tx, ty), or NULL */
static const TlBlockRecord *
find_block (const TlKernelRun *run, guint tx, guint ty)
{
  for (gsize i = 0; run && i < run->n_blocks; i++)
    if (run->blocks[i].block_x == tx && run->blocks[i].block_y == ty)
      return &run->blocks[i];
  return NULL;
}

/* The grids as the grid's area paints them (the same models for its hover
 * and for the page's arrangement): the kernel's, and the one beside it;
 * how many (0: none shown). */
static guint
fill_grids (TlBlocksPage *self, TlBlocksGrid grids[TL_BLOCKS_MAX_GRIDS])
{
  TlRenderInput input = { .record = self->record };
  TlRenderOptions o;

  if (self->runs[0] == NULL || self->record == NULL)
    return 0;
  tl_render_area_get_options (TL_RENDER_AREA (self->grid), &o);
  return tl_blocks_grids_fill (grids, &input, &o, NULL);
}

/* Every grid's layout as the grid's area paints it, from one fill of the
 * grids; how many (0: none shown). */
static guint
grid_layouts (TlBlocksPage *self, TlBlocksLayout out[TL_BLOCKS_MAX_GRIDS])
{
  TlBlocksGrid grids[TL_BLOCKS_MAX_GRIDS];
  TlPaintStyle style;

  if (!gtk_widget_get_visible (self->grid))
    return 0;
  guint n = fill_grids (self, grids);
  tl_render_area_get_style (TL_RENDER_AREA (self->grid), &style);
  for (guint i = 0; i < n; i++)
    tl_blocks_grids_layout (grids, n, i, &style, gtk_widget_get_allocated_width (self->grid),
                            gtk_widget_get_allocated_height (self->grid), &out[i]);
  tl_blocks_grids_clear (grids, n);
  return n;
}

gboolean
tl_blocks_page_get_grid_layout (TlBlocksPage *self, guint which, TlBlocksLayout *out)
{
  g_return_val_if_fail (TL_IS_BLOCKS_PAGE (self) && out != NULL, FALSE);
  TlBlocksLayout lay[TL_BLOCKS_MAX_GRIDS];

  if (which >= grid_layouts (self, lay))
    return FALSE;
  *out = lay[which];
  return TRUE;
}

/* the pointer on a grid: the tile under it in that kernel's grid (the
 * grids filled once per motion, not once per grid) */
static gboolean
grid_motion_cb (GtkWidget *area, GdkEventMotion *ev, TlBlocksPage *self)
{
  TlBlocksLayout lay[TL_BLOCKS_MAX_GRIDS];
  guint tx, ty, n = grid_layouts (self, lay);

  for (guint i = 0; i < n; i++)
    if (tl_blocks_layout_tile_at (&lay[i], ev->x, ev->y, &tx, &ty))
      {
        set_tile (self, (gint) tx, (gint) ty, find_block (self->runs[i], tx, ty));
        return FALSE;
      }
  set_tile (self, -1, -1, NULL);
  return FALSE;
}

static gboolean
timeline_motion_cb (GtkWidget *area, GdkEventMotion *ev, TlBlocksPage *self)
{
  TlTimelineModel m;
  TlTimelineTrack tracks[2] = { 0 };
  TlTimelineLayout lay;
  TlPaintStyle style;
  guint n = 0, track;
  gsize block;

  for (guint i = 0; i < 2; i++)
    if (self->runs[i] && self->runs[i]->n_blocks && self->stats[i] == NULL)
      self->stats[i] = tl_block_stats_new_for_run (self->record, self->runs[i], -1, NULL);
  for (guint i = 0; i < 2; i++)
    if (self->runs[i] && self->stats[i])
      {
        tracks[n].label = self->runs[i]->kernel_id;
        tracks[n].blocks = self->runs[i]->blocks;
        tracks[n].n_blocks = self->runs[i]->n_blocks;
        tracks[n].stats = self->stats[i];
        tracks[n].unit_label = tl_block_unit_label (self->runs[i]->block_unit);
        n++;
      }
  if (n == 0)
    return FALSE;
  tl_timeline_model_init (&m);
  m.tracks = tracks;
  m.n_tracks = n;
  tl_render_area_get_style (TL_RENDER_AREA (area), &style);
  tl_paint_timeline_layout (&m, &style, gtk_widget_get_allocated_width (area),
                            gtk_widget_get_allocated_height (area), &lay);
  if (tl_timeline_layout_block_at (&lay, &m, ev->x, ev->y, &track, &block))
    {
      const TlBlockRecord *b = &tracks[track].blocks[block];
      set_tile (self, (gint) b->block_x, (gint) b->block_y, b);
    }
  else
    set_tile (self, -1, -1, NULL);
  return FALSE;
}

static gboolean
area_leave_cb (GtkWidget *area, GdkEventCrossing *ev, TlBlocksPage *self)
{
  set_tile (self, -1, -1, NULL);
  return FALSE;
}

/* ---- what is shown ----------------------------------------------------------- */

static gboolean
showing_two (TlBlocksPage *self)
{
  const char *k = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->kernel_combo));
  const char *o = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->other_combo));
  return k && o && *o && g_strcmp0 (k, o) != 0;
}

/* ---- the grid above the timelines, or beside them ------------------------ */

/* The grid's place for the page's size (tl-blocks-arrange.h), set from an
 * idle: an orientation changed inside size-allocate is dropped. */
static gboolean
arrange_cb (gpointer data)
{
  TlBlocksPage *self = data;
  GtkAllocation a;
  TlBlocksGrid grids[TL_BLOCKS_MAX_GRIDS];
  TlPaintStyle style;
  guint n_tracks = showing_two (self) ? 2 : 1;
  double share = tl_blocks_grid_share (n_tracks, n_tracks, self->presentation);

  self->arrange_id = 0;
  gtk_widget_get_allocation (self->paned, &a);
  TlBlocksArrangement arr = { .split = share * a.height };
  guint n_grids = a.width > 1 && a.height > 1 ? fill_grids (self, grids) : 0;
  if (n_grids > 0)
    {
      tl_render_area_get_style (TL_RENDER_AREA (self->grid), &style);
      tl_blocks_arrange (grids, n_grids, n_tracks, &style, self->presentation, a.width, a.height, &arr);
      tl_blocks_grids_clear (grids, n_grids);
    }
  self->arranged_w = a.width;
  self->arranged_h = a.height;
  GtkOrientation o = arr.beside ? GTK_ORIENTATION_HORIZONTAL : GTK_ORIENTATION_VERTICAL;
  if (gtk_orientable_get_orientation (GTK_ORIENTABLE (self->paned)) != o)
    gtk_orientable_set_orientation (GTK_ORIENTABLE (self->paned), o);
  tl_paned_set_ratio (GTK_PANED (self->paned), arr.split / MAX (arr.beside ? a.width : a.height, 1));
  gtk_widget_set_visible (self->grid, !arr.grid_hidden);
  return G_SOURCE_REMOVE;
}

static void
arrange_soon (TlBlocksPage *self)
{
  if (self->arrange_id == 0)
    self->arrange_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE, arrange_cb, self, NULL);
}

static void
paned_allocated_cb (GtkWidget *paned, GdkRectangle *allocation, TlBlocksPage *self)
{
  if (allocation->width != self->arranged_w || allocation->height != self->arranged_h)
    arrange_soon (self);
}

/* The line naming the record: where the one on show has no block records
 * (its own words then stand for the note below), and in presentation
 * where the record chooser is not there to say it.  The note below says
 * how to read the pictures, in a window. */
static void
show_notes (TlBlocksPage *self)
{
  gboolean other = self->record && self->session && self->record != tl_session_get_record (self->session);
  gboolean chooser = gtk_widget_get_visible (self->record_combo);
  gboolean named = other || (self->presentation && chooser);

  if (named)
    {
      g_autofree char *which = tl_record_choice_label (self->record, FALSE);
      g_autofree char *text = other && !chooser
                                ? g_strdup_printf (_("Blocks of the open record %s (the one on show has no block records)."), which)
                                : g_strdup_printf (_("Blocks of the record %s"), which);
      gtk_label_set_text (GTK_LABEL (self->record_note), text);
      gtk_widget_set_tooltip_text (self->record_note, text);
    }
  gtk_widget_set_visible (self->record_note, named);
  gtk_widget_set_visible (self->note, !self->presentation && !(other && !chooser));
}

/* The toolbar: the two kernel choosers in one group, the options in
 * another, so that it takes one row where the page is wide and two where
 * it is not (1024×768 in high contrast), never one per control.  In
 * presentation the pictures get the whole screen, all but the time
 * scale's choice while two timelines are shown. */
static void
update_toolbar (TlBlocksPage *self)
{
  gboolean two = showing_two (self);

  gtk_widget_set_sensitive (self->time_scale_combo, two);
  gtk_widget_set_visible (gtk_widget_get_parent (self->kernels_box), !self->presentation);
  gtk_widget_set_visible (self->grid_color_box, !self->presentation);
  gtk_widget_set_visible (self->timeline_color_box, !self->presentation);
  gtk_widget_set_visible (self->toolbar, !self->presentation || two);
  show_notes (self);
  arrange_soon (self);
}

static void
apply_choice (TlBlocksPage *self)
{
  const char *k = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->kernel_combo));
  const char *o = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->other_combo));
  gboolean beside = showing_two (self);
  g_autofree char *both = beside ? g_strdup_printf ("%s,%s", k, o) : g_strdup (k);

  tl_render_area_set_kernels (TL_RENDER_AREA (self->grid), both);
  tl_render_area_set_kernels (TL_RENDER_AREA (self->timeline), both);

  /* what is shown, for the hover's hit tests */
  const char *ids[2] = { k, beside ? o : NULL };
  for (guint i = 0; i < 2; i++)
    {
      g_clear_pointer (&self->stats[i], tl_block_stats_free);
      self->runs[i] = self->record && ids[i] ? tl_run_record_find_run (self->record, ids[i]) : NULL;
    }
  /* the grids keep one colour scale where the timelines keep one time scale */
  gboolean own = g_strcmp0 (gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->time_scale_combo)), "own") == 0;
  tl_render_area_set_own_time_scale (TL_RENDER_AREA (self->grid), own);
  tl_render_area_set_own_time_scale (TL_RENDER_AREA (self->timeline), own);
  update_toolbar (self);
  tl_render_area_set_color (TL_RENDER_AREA (self->grid),
                            gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->grid_color)));
  tl_render_area_set_color (TL_RENDER_AREA (self->timeline),
                            gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->timeline_color)));
}

static void
blocks_changed_cb (GtkWidget *w, TlBlocksPage *self)
{
  if (self->grid)
    apply_choice (self);
}

/* the kernels of the record that recorded their blocks, keeping the choice */
static guint
fill_kernel_combos (TlBlocksPage *self, TlRunRecord *record)
{
  g_autofree char *keep = g_strdup (gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->kernel_combo)));
  guint n = 0;

  g_signal_handlers_block_by_func (self->kernel_combo, blocks_changed_cb, self);
  g_signal_handlers_block_by_func (self->other_combo, blocks_changed_cb, self);
  gtk_combo_box_text_remove_all (GTK_COMBO_BOX_TEXT (self->kernel_combo));
  gtk_combo_box_text_remove_all (GTK_COMBO_BOX_TEXT (self->other_combo));
  gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (self->other_combo), "", _("(none)"));
  for (guint i = 0; record && i < record->runs->len; i++)
    {
      const TlKernelRun *r = record->runs->pdata[i];
      if (r->n_blocks == 0 && !r->has_plan) /* a plan shows on the grid without timings */
        continue;
      /* "03 shared memory 16×16", as Compare and Roofline name it */
      g_autofree char *title = tl_kernel_display_name (r->info, r->kernel_id);
      gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (self->kernel_combo), r->kernel_id, title);
      gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (self->other_combo), r->kernel_id, title);
      n++;
    }
  if (!keep || !gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->kernel_combo), keep))
    gtk_combo_box_set_active (GTK_COMBO_BOX (self->kernel_combo), 0);
  gtk_combo_box_set_active (GTK_COMBO_BOX (self->other_combo), 0);
  g_signal_handlers_unblock_by_func (self->kernel_combo, blocks_changed_cb, self);
  g_signal_handlers_unblock_by_func (self->other_combo, blocks_changed_cb, self);
  return n;
}

static void
show_record (TlBlocksPage *self, TlRunRecord *record)
{
  if (record)
    tl_run_record_ref (record);
  /* the render areas borrow it: replaced only after they have let go */
  TlRunRecord *old = self->record;
  self->record = record;
  guint n = fill_kernel_combos (self, record);

  if (n == 0)
    gtk_label_set_text (GTK_LABEL (self->note), record ? _("No kernel of this run recorded its blocks.") : "");
  else
    gtk_label_set_text (GTK_LABEL (self->note),
                        _("Each tile of C is one thread block (or CPU task); below, one lane per SM (or thread), "
                          "one bar per block from its start to its end."));
  TlRunRecord *shown = n ? record : NULL;
  tl_render_area_set_input (TL_RENDER_AREA (self->grid), shown, NULL);
  tl_render_area_set_input (TL_RENDER_AREA (self->timeline), shown, NULL);
  apply_choice (self);
  g_clear_pointer (&old, tl_run_record_unref);
  tl_page_emit_records_changed (TL_PAGE (self));
}

static gboolean
record_has_blocks (const TlRunRecord *record)
{
  for (guint i = 0; record && i < record->runs->len; i++)
    {
      const TlKernelRun *r = record->runs->pdata[i];
      if (r->n_blocks > 0 || r->has_plan)
        return TRUE;
    }
  return FALSE;
}

static void
record_changed_cb (TlBlocksPage *self)
{
  TlRunRecord *record = tl_record_choice_get (GTK_COMBO_BOX (self->record_combo), self->session);
  if (record)
    show_record (self, record);
}

/* The open records with block records to choose from (none: the one on
 * show, to say that none of its kernels kept any). */
static void
results_changed_cb (TlSession *session, TlBlocksPage *self)
{
  GtkComboBoxText *combo = GTK_COMBO_BOX_TEXT (self->record_combo);
  g_signal_handlers_block_by_func (combo, record_changed_cb, self);
  guint n = tl_record_choice_fill_wanted (combo, session, record_has_blocks);
  g_signal_handlers_unblock_by_func (combo, record_changed_cb, self);
  gtk_widget_set_visible (self->record_combo, n > 1);
  TlRunRecord *record = tl_record_choice_get (GTK_COMBO_BOX (combo), session);
  show_record (self, record ? record : session ? tl_session_get_record (session) : NULL);
}

/* ---- TlPage ------------------------------------------------------------------ */

static void
blocks_set_session (TlPage *page, TlSession *session)
{
  TlBlocksPage *self = TL_BLOCKS_PAGE (page);
  tl_page_connect_session (&self->session, session, self, "results-changed", results_changed_cb,
                           "history-changed", results_changed_cb, NULL);
  results_changed_cb (session, self);
}

static void
blocks_set_presentation (TlPage *page, gboolean on, gboolean high_contrast)
{
  TlBlocksPage *self = TL_BLOCKS_PAGE (page);
  tl_render_area_set_presentation (TL_RENDER_AREA (self->grid), on, high_contrast);
  tl_render_area_set_presentation (TL_RENDER_AREA (self->timeline), on, high_contrast);
  self->presentation = on;
  update_toolbar (self);
}

/* clickers: the previous or next kernel with block records */
static gboolean
blocks_step (TlPage *page, int direction)
{
  TlBlocksPage *self = TL_BLOCKS_PAGE (page);
  GtkComboBox *combo = GTK_COMBO_BOX (self->kernel_combo);
  int n = gtk_tree_model_iter_n_children (gtk_combo_box_get_model (combo), NULL);
  int i = gtk_combo_box_get_active (combo) + (direction > 0 ? 1 : -1);
  if (n == 0 || i < 0 || i >= n)
    return FALSE;
  gtk_combo_box_set_active (combo, i);
  return TRUE;
}

static gboolean
blocks_has_content (TlPage *page)
{
  TlBlocksPage *self = TL_BLOCKS_PAGE (page);
  for (guint i = 0; self->record && i < self->record->runs->len; i++)
    if (((const TlKernelRun *) self->record->runs->pdata[i])->n_blocks > 0)
      return TRUE;
  return FALSE;
}

/* the page as shown: the grid over the timeline, each in its colours */
static gboolean
blocks_export_options (TlPage *page, TlRenderOptions *o)
{
  TlBlocksPage *self = TL_BLOCKS_PAGE (page);
  tl_render_area_get_options (TL_RENDER_AREA (self->timeline), o);
  o->view = TL_RENDER_BLOCKS_AND_TIMELINE;
  o->timeline_color = o->color;
  o->color = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->grid_color));
  return TRUE;
}

/* the record shown, which may not be the one on show */
static TlRunRecord *
blocks_export_record (TlPage *page)
{
  return TL_BLOCKS_PAGE (page)->record;
}

static const char *
blocks_hint (TlPage *page)
{
  return _("Point at a block to read it");
}

static void
tl_blocks_page_page_init (TlPageInterface *iface)
{
  iface->hint = blocks_hint;
  iface->set_session = blocks_set_session;
  iface->set_presentation = blocks_set_presentation;
  iface->step = blocks_step;
  iface->export_options = blocks_export_options;
  iface->export_record = blocks_export_record;
  iface->has_content = blocks_has_content;
}

/* ---- the page -------------------------------------------------------------- */

void
tl_blocks_page_set_own_time_scale (TlBlocksPage *self, gboolean own)
{
  g_return_if_fail (TL_IS_BLOCKS_PAGE (self));
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->time_scale_combo), own ? "own" : "shared");
}

gboolean
tl_blocks_page_time_scale_shown (TlBlocksPage *self)
{
  g_return_val_if_fail (TL_IS_BLOCKS_PAGE (self), FALSE);
  return gtk_widget_is_visible (self->time_scale_combo) && gtk_widget_is_sensitive (self->time_scale_combo);
}

void
tl_blocks_page_show_kernels (TlBlocksPage *self, const char *kernel_id, const char *beside_id)
{
  g_return_if_fail (TL_IS_BLOCKS_PAGE (self));
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->kernel_combo), kernel_id);
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->other_combo), beside_id ? beside_id : "");
}

void
tl_blocks_page_hover_tile (TlBlocksPage *self, gint tile_x, gint tile_y)
{
  g_return_if_fail (TL_IS_BLOCKS_PAGE (self));
  set_tile (self, tile_x, tile_y,
            tile_x >= 0 ? find_block (self->runs[0], (guint) tile_x, (guint) tile_y) : NULL);
}

GtkWidget *
tl_blocks_page_get_area (TlBlocksPage *self, gboolean timeline)
{
  g_return_val_if_fail (TL_IS_BLOCKS_PAGE (self), NULL);
  return timeline ? self->timeline : self->grid;
}

static void
tl_blocks_page_dispose (GObject *object)
{
  TlBlocksPage *self = TL_BLOCKS_PAGE (object);
  tl_page_disconnect_session (&self->session, self);
  g_clear_handle_id (&self->arrange_id, g_source_remove);
  G_OBJECT_CLASS (tl_blocks_page_parent_class)->dispose (object);
  /* after the areas that borrow it are gone */
  for (guint i = 0; i < 2; i++)
    self->runs[i] = NULL;
  g_clear_pointer (&self->record, tl_run_record_unref);
}

static void
tl_blocks_page_finalize (GObject *object)
{
  TlBlocksPage *self = TL_BLOCKS_PAGE (object);
  for (guint i = 0; i < 2; i++)
    g_clear_pointer (&self->stats[i], tl_block_stats_free);
  G_OBJECT_CLASS (tl_blocks_page_parent_class)->finalize (object);
}

static void
tl_blocks_page_class_init (TlBlocksPageClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = tl_blocks_page_dispose;
  G_OBJECT_CLASS (klass)->finalize = tl_blocks_page_finalize;
  gtk_widget_class_set_template_from_resource (widget_class, "/org/tilelab/Tilelab/ui/tl-blocks-page.ui");
  gtk_widget_class_bind_template_child (widget_class, TlBlocksPage, toolbar);
  gtk_widget_class_bind_template_child (widget_class, TlBlocksPage, kernels_box);
  gtk_widget_class_bind_template_child (widget_class, TlBlocksPage, record_combo);
  gtk_widget_class_bind_template_child (widget_class, TlBlocksPage, kernel_combo);
  gtk_widget_class_bind_template_child (widget_class, TlBlocksPage, other_combo);
  gtk_widget_class_bind_template_child (widget_class, TlBlocksPage, grid_color_box);
  gtk_widget_class_bind_template_child (widget_class, TlBlocksPage, grid_color);
  gtk_widget_class_bind_template_child (widget_class, TlBlocksPage, timeline_color_box);
  gtk_widget_class_bind_template_child (widget_class, TlBlocksPage, timeline_color);
  gtk_widget_class_bind_template_child (widget_class, TlBlocksPage, time_scale_box);
  gtk_widget_class_bind_template_child (widget_class, TlBlocksPage, time_scale_combo);
  gtk_widget_class_bind_template_child (widget_class, TlBlocksPage, record_note);
  gtk_widget_class_bind_template_child (widget_class, TlBlocksPage, note);
  gtk_widget_class_bind_template_child (widget_class, TlBlocksPage, paned);
  gtk_widget_class_bind_template_callback (widget_class, blocks_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, record_changed_cb);
}

static void
tl_blocks_page_init (TlBlocksPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  /* records told apart by their ends: the size and the time */
  tl_combo_box_allow_shrinking (GTK_COMBO_BOX (self->record_combo), 20);
  g_autoptr (GList) cells = gtk_cell_layout_get_cells (GTK_CELL_LAYOUT (self->record_combo));
  g_object_set (cells->data, "ellipsize", PANGO_ELLIPSIZE_MIDDLE, NULL);
  tl_combo_box_allow_shrinking (GTK_COMBO_BOX (self->kernel_combo), 12);
  tl_combo_box_allow_shrinking (GTK_COMBO_BOX (self->other_combo), 12);
  /* "Tiles by" and its choice fit 1024 px beside the sidebar in Serbian too */
  tl_combo_box_allow_shrinking (GTK_COMBO_BOX (self->grid_color), 10);

  /* the areas are built in code: their view is a constructor argument */
  self->grid = tl_render_area_new (TL_RENDER_BLOCKS);
  self->timeline = tl_render_area_new (TL_RENDER_TIMELINE);
  tl_render_area_set_empty_text (TL_RENDER_AREA (self->grid),
                                 _("Run a kernel that records its blocks (per-block timing is on): the CPU blocked kernel "
                                   "records its tiles and threads, GPU rungs their blocks and SMs. Or open a run record "
                                   "made with tilelab-cli gemm --instrument."));
  tl_render_area_set_empty_text (TL_RENDER_AREA (self->timeline), "");
  /* the tile map may get small: the timelines below need the room more */
  gtk_widget_set_size_request (self->grid, 200, 100);
  gtk_paned_pack1 (GTK_PANED (self->paned), self->grid, TRUE, FALSE);
  gtk_paned_pack2 (GTK_PANED (self->paned), self->timeline, TRUE, FALSE);
  gtk_widget_show (self->grid);
  gtk_widget_show (self->timeline);
  tl_paned_keep_ratio (GTK_PANED (self->paned), 0.5);
  g_signal_connect (self->paned, "size-allocate", G_CALLBACK (paned_allocated_cb), self);
  g_signal_connect (self->grid, "motion-notify-event", G_CALLBACK (grid_motion_cb), self);
  g_signal_connect (self->timeline, "motion-notify-event", G_CALLBACK (timeline_motion_cb), self);
  g_signal_connect (self->grid, "leave-notify-event", G_CALLBACK (area_leave_cb), self);
  g_signal_connect (self->timeline, "leave-notify-event", G_CALLBACK (area_leave_cb), self);
  gtk_combo_box_set_active (GTK_COMBO_BOX (self->grid_color), 0);
  gtk_combo_box_set_active (GTK_COMBO_BOX (self->timeline_color), 0);
}
