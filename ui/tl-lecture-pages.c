/* tl-lecture-pages.c — Blocks, Gauss and Source pages. */
#include "tl-lecture-pages.h"

#include <math.h>
#include <glib/gi18n-lib.h>

#include "paint/tl-block-stats.h"
#include "paint/tl-gauss-frame.h"
#include "paint/tl-paint-blocks.h"
#include "paint/tl-paint-timeline.h"
#include "gemm/tl-kernels.h"
#include "lu/tl-lu.h"
#include "paint/tl-player.h"
#include "tl-render-area.h"

static GtkWidget *
toolbar_new (void)
{
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  g_object_set (bar, "margin", 6, NULL);
  return bar;
}

static void
toolbar_label (GtkWidget *bar, const char *text)
{
  gtk_box_pack_start (GTK_BOX (bar), gtk_label_new (text), FALSE, FALSE, 0);
}

/* ==== Blocks: the block-time grid over C's tiles and the SM timeline ===== */

struct _TlBlocksPage
{
  GtkBox parent_instance;
  TlRunRecord *record;   /* borrowed */
  GtkWidget *kernel_combo, *other_combo, *grid_color, *timeline_color;
  GtkWidget *grid, *timeline, *note;
  const TlKernelRun *runs[2];   /* shown: the kernel and the one beside it */
  TlBlockStats *stats[2];       /* their statistics, for hit tests on the timeline */
};

G_DEFINE_FINAL_TYPE (TlBlocksPage, tl_blocks_page, GTK_TYPE_BOX)

enum { SIGNAL_TILE_HOVERED, N_BLOCKS_SIGNALS };
static guint blocks_signals[N_BLOCKS_SIGNALS];

static void
blocks_set_tile (TlBlocksPage *self, gint tx, gint ty, const TlBlockRecord *block)
{
  tl_render_area_set_tile (TL_RENDER_AREA (self->grid), tx, ty);
  tl_render_area_set_tile (TL_RENDER_AREA (self->timeline), tx, ty);
  g_signal_emit (self, blocks_signals[SIGNAL_TILE_HOVERED], 0, tx, ty, (gpointer) block);
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

static gboolean
grid_motion_cb (GtkWidget *area, GdkEventMotion *ev, TlBlocksPage *self)
{
  const TlKernelRun *run = self->runs[0];
  TlBlocksModel m;
  TlBlocksLayout lay;
  TlPaintStyle style;
  guint tx, ty;

  if (run == NULL || self->record == NULL)
    return FALSE;
  /* the same model tl-render draws, for the same layout */
  tl_blocks_model_init (&m);
  m.blocks = run->blocks;
  m.n_blocks = run->n_blocks;
  m.tile_m = run->block_tile_m;
  m.tile_n = run->block_tile_n;
  const TlJob *job = self->record->job;
  if (job && run->block_tile_m > 0 && run->block_tile_n > 0)
    {
      m.grid_x = (guint) ((job->n + run->block_tile_n - 1) / run->block_tile_n);
      m.grid_y = (guint) ((job->m + run->block_tile_m - 1) / run->block_tile_m);
    }
  m.title = run->kernel_id;
  m.caption = job ? "C" : NULL;
  tl_render_area_get_style (TL_RENDER_AREA (area), &style);
  tl_paint_blocks_layout (&m, &style, gtk_widget_get_allocated_width (area),
                          gtk_widget_get_allocated_height (area), &lay);
  if (tl_blocks_layout_tile_at (&lay, ev->x, ev->y, &tx, &ty))
    blocks_set_tile (self, (gint) tx, (gint) ty, find_block (run, tx, ty));
  else
    blocks_set_tile (self, -1, -1, NULL);
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
      blocks_set_tile (self, (gint) b->block_x, (gint) b->block_y, b);
    }
  else
    blocks_set_tile (self, -1, -1, NULL);
  return FALSE;
}

static gboolean
area_leave_cb (GtkWidget *area, GdkEventCrossing *ev, TlBlocksPage *self)
{
  blocks_set_tile (self, -1, -1, NULL);
  return FALSE;
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
blocks_apply (TlBlocksPage *self)
{
  const char *k = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->kernel_combo));
  const char *o = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->other_combo));
  g_autofree char *both = k && o && *o && g_strcmp0 (k, o) != 0 ? g_strdup_printf ("%s,%s", k, o) : g_strdup (k);

  tl_render_area_set_kernels (TL_RENDER_AREA (self->grid), k);
  tl_render_area_set_kernels (TL_RENDER_AREA (self->timeline), both);

  /* what is shown, for the hover's hit tests */
  const char *ids[2] = { k, o && *o && g_strcmp0 (k, o) != 0 ? o : NULL };
  for (guint i = 0; i < 2; i++)
    {
      g_clear_pointer (&self->stats[i], tl_block_stats_free);
      self->runs[i] = self->record && ids[i] ? tl_run_record_find_run (self->record, ids[i]) : NULL;
      if (self->runs[i] && self->runs[i]->n_blocks)
        self->stats[i] = tl_block_stats_new_for_run (self->record, self->runs[i], -1, NULL);
    }
  tl_render_area_set_color (TL_RENDER_AREA (self->grid),
                            gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->grid_color)));
  tl_render_area_set_color (TL_RENDER_AREA (self->timeline),
                            gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->timeline_color)));
}

static void
blocks_changed_cb (GtkWidget *w, TlBlocksPage *self)
{
  blocks_apply (self);
}

static void
tl_blocks_page_class_init (TlBlocksPageClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tl_blocks_page_finalize;
  /* (tile x, tile y, const TlBlockRecord *block or NULL); −1, −1 when the pointer left */
  blocks_signals[SIGNAL_TILE_HOVERED] =
    g_signal_new ("tile-hovered", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 3, G_TYPE_INT, G_TYPE_INT, G_TYPE_POINTER);
}

static void
tl_blocks_page_init (TlBlocksPage *self)
{
  GtkWidget *bar = toolbar_new ();
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);

  toolbar_label (bar, _("Kernel"));
  self->kernel_combo = gtk_combo_box_text_new ();
  gtk_box_pack_start (GTK_BOX (bar), self->kernel_combo, FALSE, FALSE, 0);
  toolbar_label (bar, _("beside"));
  self->other_combo = gtk_combo_box_text_new ();
  gtk_widget_set_tooltip_text (self->other_combo, _("A second kernel's timeline on the same time scale"));
  gtk_box_pack_start (GTK_BOX (bar), self->other_combo, FALSE, FALSE, 0);
  toolbar_label (bar, _("Tiles by"));
  self->grid_color = gtk_combo_box_text_new ();
  gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (self->grid_color), "duration", _("duration"));
  gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (self->grid_color), "start", _("start time"));
  gtk_combo_box_set_active (GTK_COMBO_BOX (self->grid_color), 0);
  gtk_box_pack_start (GTK_BOX (bar), self->grid_color, FALSE, FALSE, 0);
  toolbar_label (bar, _("Bars by"));
  self->timeline_color = gtk_combo_box_text_new ();
  gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (self->timeline_color), "duration", _("duration"));
  gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (self->timeline_color), "wave", _("wave"));
  gtk_combo_box_set_active (GTK_COMBO_BOX (self->timeline_color), 0);
  gtk_box_pack_start (GTK_BOX (bar), self->timeline_color, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (self), bar, FALSE, FALSE, 0);

  self->note = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->note), 0);
  gtk_widget_set_margin_start (self->note, 8);
  gtk_box_pack_start (GTK_BOX (self), self->note, FALSE, FALSE, 0);

  GtkWidget *paned = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  self->grid = tl_render_area_new (TL_RENDER_BLOCKS);
  self->timeline = tl_render_area_new (TL_RENDER_TIMELINE);
  const char *empty = _("Run a kernel that records its blocks (per-block timing is on): the CPU blocked kernel "
                        "records its tiles and threads, GPU rungs their blocks and SMs. Or open a run record "
                        "made with tilelab-cli gemm --instrument.");
  tl_render_area_set_empty_text (TL_RENDER_AREA (self->grid), empty);
  tl_render_area_set_empty_text (TL_RENDER_AREA (self->timeline), "");
  gtk_paned_pack1 (GTK_PANED (paned), self->grid, TRUE, FALSE);
  gtk_paned_pack2 (GTK_PANED (paned), self->timeline, TRUE, FALSE);
  gtk_paned_set_position (GTK_PANED (paned), 380);
  gtk_box_pack_start (GTK_BOX (self), paned, TRUE, TRUE, 0);

  g_signal_connect (self->grid, "motion-notify-event", G_CALLBACK (grid_motion_cb), self);
  g_signal_connect (self->timeline, "motion-notify-event", G_CALLBACK (timeline_motion_cb), self);
  g_signal_connect (self->grid, "leave-notify-event", G_CALLBACK (area_leave_cb), self);
  g_signal_connect (self->timeline, "leave-notify-event", G_CALLBACK (area_leave_cb), self);
  g_signal_connect (self->kernel_combo, "changed", G_CALLBACK (blocks_changed_cb), self);
  g_signal_connect (self->other_combo, "changed", G_CALLBACK (blocks_changed_cb), self);
  g_signal_connect (self->grid_color, "changed", G_CALLBACK (blocks_changed_cb), self);
  g_signal_connect (self->timeline_color, "changed", G_CALLBACK (blocks_changed_cb), self);
  gtk_widget_show_all (GTK_WIDGET (self));
}

GtkWidget *
tl_blocks_page_new (void)
{
  return g_object_new (TL_TYPE_BLOCKS_PAGE, NULL);
}

void
tl_blocks_page_set_record (TlBlocksPage *self, TlRunRecord *record)
{
  g_return_if_fail (TL_IS_BLOCKS_PAGE (self));
  g_autofree char *keep = g_strdup (gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->kernel_combo)));
  guint n = 0;

  self->record = record;
  g_signal_handlers_block_by_func (self->kernel_combo, blocks_changed_cb, self);
  g_signal_handlers_block_by_func (self->other_combo, blocks_changed_cb, self);
  gtk_combo_box_text_remove_all (GTK_COMBO_BOX_TEXT (self->kernel_combo));
  gtk_combo_box_text_remove_all (GTK_COMBO_BOX_TEXT (self->other_combo));
  gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (self->other_combo), "", _("(none)"));
  for (guint i = 0; record && i < record->runs->len; i++)
    {
      const TlKernelRun *r = record->runs->pdata[i];
      if (r->n_blocks == 0)
        continue;
      const TlKernelInfo *info = tl_kernel_find (r->kernel_id);
      const char *title = info ? _(info->title) : r->kernel_id;
      gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (self->kernel_combo), r->kernel_id, title);
      gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (self->other_combo), r->kernel_id, title);
      n++;
    }
  if (!keep || !gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->kernel_combo), keep))
    gtk_combo_box_set_active (GTK_COMBO_BOX (self->kernel_combo), 0);
  gtk_combo_box_set_active (GTK_COMBO_BOX (self->other_combo), 0);
  g_signal_handlers_unblock_by_func (self->kernel_combo, blocks_changed_cb, self);
  g_signal_handlers_unblock_by_func (self->other_combo, blocks_changed_cb, self);

  if (n == 0)
    gtk_label_set_text (GTK_LABEL (self->note), record ? _("No kernel of this run recorded its blocks.") : "");
  else
    gtk_label_set_text (GTK_LABEL (self->note),
                        _("Each tile of C is one thread block (or CPU task); below, one lane per SM (or thread), "
                          "one bar per block from its start to its end."));
  TlRunRecord *shown = n ? record : NULL;
  tl_render_area_set_input (TL_RENDER_AREA (self->grid), shown, NULL);
  tl_render_area_set_input (TL_RENDER_AREA (self->timeline), shown, NULL);
  blocks_apply (self);
}

void
tl_blocks_page_show_kernels (TlBlocksPage *self, const char *kernel_id, const char *beside_id)
{
  g_return_if_fail (TL_IS_BLOCKS_PAGE (self));
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->kernel_combo), kernel_id);
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->other_combo), beside_id ? beside_id : "");
}

/* Presentation mode hides a page's toolbars: only `content` stays.  The
 * toolbars hidden are remembered, so leaving shows exactly those again. */
static void
page_show_only (GtkWidget *page, GtkWidget *content, gboolean on)
{
  static const char key[] = "tl-hidden-for-presentation";
  if (on)
    {
      GList *hidden = NULL;
      g_autoptr (GList) children = gtk_container_get_children (GTK_CONTAINER (page));
      if (g_object_get_data (G_OBJECT (page), key) != NULL)
        return;
      for (GList *l = children; l; l = l->next)
        if (l->data != content && gtk_widget_get_visible (l->data))
          {
            gtk_widget_hide (l->data);
            hidden = g_list_prepend (hidden, l->data);
          }
      g_object_set_data_full (G_OBJECT (page), key, hidden, (GDestroyNotify) g_list_free);
    }
  else
    {
      for (GList *l = g_object_get_data (G_OBJECT (page), key); l; l = l->next)
        gtk_widget_show (l->data);
      g_object_set_data (G_OBJECT (page), key, NULL);
    }
}

void
tl_blocks_page_set_presentation (TlBlocksPage *self, gboolean on, gboolean high_contrast)
{
  tl_render_area_set_presentation (TL_RENDER_AREA (self->grid), on, high_contrast);
  tl_render_area_set_presentation (TL_RENDER_AREA (self->timeline), on, high_contrast);
  page_show_only (GTK_WIDGET (self), gtk_widget_get_parent (self->grid), on);
}

gboolean
tl_blocks_page_step_kernel (TlBlocksPage *self, int direction)
{
  g_return_val_if_fail (TL_IS_BLOCKS_PAGE (self), FALSE);
  GtkComboBox *combo = GTK_COMBO_BOX (self->kernel_combo);
  int n = gtk_tree_model_iter_n_children (gtk_combo_box_get_model (combo), NULL);
  int i = gtk_combo_box_get_active (combo) + (direction > 0 ? 1 : -1);
  if (n == 0 || i < 0 || i >= n)
    return FALSE;
  gtk_combo_box_set_active (combo, i);
  return TRUE;
}

void
tl_blocks_page_hover_tile (TlBlocksPage *self, gint tile_x, gint tile_y)
{
  g_return_if_fail (TL_IS_BLOCKS_PAGE (self));
  blocks_set_tile (self, tile_x, tile_y,
                   tile_x >= 0 ? find_block (self->runs[0], (guint) tile_x, (guint) tile_y) : NULL);
}

GtkWidget *
tl_blocks_page_get_area (TlBlocksPage *self, gboolean timeline)
{
  return timeline ? self->timeline : self->grid;
}

/* ==== Gauss: elimination step by step ==================================== */

struct _TlGaussPage
{
  GtkBox parent_instance;
  TlRunner *runner;
  TlMatrix *a;
  TlLuRecorder *lu;
  TlPlayer *player;
  GCancellable *cancellable;
  guint tick_id;
  gboolean updating;

  GtkWidget *kernel_combo, *block_spin, *factor_button;
  GtkWidget *play_button, *scale, *speed_spin, *step_label;
  GtkWidget *area;
};

G_DEFINE_FINAL_TYPE (TlGaussPage, tl_gauss_page, GTK_TYPE_BOX)

static void gauss_sync (TlGaussPage *self);

static gboolean
gauss_tick_cb (gpointer data)
{
  TlGaussPage *self = data;
  self->tick_id = 0;
  if (self->player == NULL)
    return G_SOURCE_REMOVE;
  gint64 now = g_get_monotonic_time ();
  tl_player_tick (self->player, now);
  gauss_sync (self);
  return G_SOURCE_REMOVE;
}

static void
gauss_sync (TlGaussPage *self)
{
  if (self->player == NULL)
    {
      gtk_label_set_text (GTK_LABEL (self->step_label), "");
      return;
    }
  self->updating = TRUE;
  gtk_range_set_range (GTK_RANGE (self->scale), 0, MAX (self->player->n_frames - 1, 1));
  gtk_range_set_value (GTK_RANGE (self->scale), self->player->position);
  self->updating = FALSE;
  tl_render_area_set_step (TL_RENDER_AREA (self->area), self->player->position);
  g_autofree char *t = g_strdup_printf (_("step %u of %u"), self->player->position, self->player->n_frames - 1);
  gtk_label_set_text (GTK_LABEL (self->step_label), t);
  gtk_button_set_image (GTK_BUTTON (self->play_button),
                        gtk_image_new_from_icon_name (self->player->playing ? "media-playback-pause-symbolic"
                                                                            : "media-playback-start-symbolic",
                                                      GTK_ICON_SIZE_BUTTON));

  if (self->tick_id)
    g_source_remove (self->tick_id);
  self->tick_id = 0;
  gint64 due = tl_player_next_due_us (self->player, g_get_monotonic_time ());
  if (self->player->playing && due >= 0)
    self->tick_id = g_timeout_add (MAX (due / 1000, 1), gauss_tick_cb, self);
}

static void
gauss_action (TlGaussPage *self, TlPlayerAction action)
{
  if (self->player && tl_player_activate (self->player, action))
    {
      if (action == TL_PLAYER_TOGGLE_PLAY && self->player->playing)
        tl_player_tick (self->player, g_get_monotonic_time ());
      gauss_sync (self);
    }
}

static void
gauss_button_cb (GtkButton *button, TlGaussPage *self)
{
  gauss_action (self, GPOINTER_TO_INT (g_object_get_data (G_OBJECT (button), "action")));
}

static void
gauss_scale_cb (GtkRange *range, TlGaussPage *self)
{
  if (self->updating || self->player == NULL)
    return;
  if (tl_player_seek (self->player, (guint) lround (gtk_range_get_value (range))))
    gauss_sync (self);
}

static void
gauss_speed_cb (GtkSpinButton *spin, TlGaussPage *self)
{
  if (self->player)
    tl_player_set_speed (self->player, gtk_spin_button_get_value (spin));
}

typedef struct
{
  char *kernel;
  TlMatrix *a;
  gsize block;
} LuArgs;

static void
lu_args_free (LuArgs *args)
{
  g_free (args->kernel);
  tl_matrix_unref (args->a);
  g_free (args);
}

static gpointer
lu_job (TlRunnerJob *job, gpointer data, GCancellable *cancellable, GError **error)
{
  LuArgs *args = data;
  const char *kernel = args->kernel;
  TlMatrix *a = args->a;
  gsize block = args->block;
  TlLuRecorder *rec = tl_lu_recorder_new (0);
  g_autoptr (TlLuResult) result = NULL;

  tl_runner_job_progress (job, kernel, _("factoring with the recorder on"), 0.1);
  if (!tl_lu_factor (kernel, a, block, TL_PIVOTING_PARTIAL, rec, cancellable, &result, error))
    {
      tl_lu_recorder_free (rec);
      return NULL;
    }
  return rec;
}

static void
lu_done_cb (GObject *object, GAsyncResult *result, gpointer data)
{
  TlGaussPage *self = data;
  g_autoptr (GError) error = NULL;
  TlLuRecorder *rec = tl_runner_run_func_finish (TL_RUNNER (object), result, &error);

  g_clear_object (&self->cancellable);
  gtk_widget_set_sensitive (self->factor_button, TRUE);
  if (rec)
    tl_gauss_page_take_record (self, rec);
  else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      tl_render_area_set_empty_text (TL_RENDER_AREA (self->area), error->message);
      tl_render_area_set_input (TL_RENDER_AREA (self->area), NULL, NULL);
    }
  g_object_unref (self);
}

void
tl_gauss_page_factor (TlGaussPage *self)
{
  g_return_if_fail (TL_IS_GAUSS_PAGE (self));
  if (self->a == NULL || self->cancellable)
    return;
  LuArgs *args = g_new0 (LuArgs, 1);
  args->kernel = g_strdup (gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->kernel_combo)));
  args->a = tl_matrix_ref (self->a);
  args->block = (gsize) gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (self->block_spin));
  self->cancellable = g_cancellable_new ();
  gtk_widget_set_sensitive (self->factor_button, FALSE);
  tl_render_area_set_empty_text (TL_RENDER_AREA (self->area), _("Factoring A…"));
  tl_runner_run_func_async (self->runner, lu_job, args, (GDestroyNotify) lu_args_free,
                            (GDestroyNotify) tl_lu_recorder_free, self->cancellable, lu_done_cb,
                            g_object_ref (self));
}

static void
factor_clicked_cb (GtkButton *b, TlGaussPage *self)
{
  tl_gauss_page_factor (self);
}

static void
tl_gauss_page_dispose (GObject *object)
{
  TlGaussPage *self = TL_GAUSS_PAGE (object);
  if (self->cancellable)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->tick_id)
    g_source_remove (self->tick_id);
  self->tick_id = 0;
  G_OBJECT_CLASS (tl_gauss_page_parent_class)->dispose (object);
}

static void
tl_gauss_page_finalize (GObject *object)
{
  TlGaussPage *self = TL_GAUSS_PAGE (object);
  g_clear_pointer (&self->a, tl_matrix_unref);
  g_clear_pointer (&self->lu, tl_lu_recorder_free);
  g_clear_pointer (&self->player, tl_player_free);
  g_clear_object (&self->runner);
  G_OBJECT_CLASS (tl_gauss_page_parent_class)->finalize (object);
}

static void
tl_gauss_page_class_init (TlGaussPageClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = tl_gauss_page_dispose;
  G_OBJECT_CLASS (klass)->finalize = tl_gauss_page_finalize;
}

static GtkWidget *
player_button (TlGaussPage *self, GtkWidget *box, const char *icon, const char *tip, TlPlayerAction action)
{
  GtkWidget *b = gtk_button_new_from_icon_name (icon, GTK_ICON_SIZE_BUTTON);
  gtk_widget_set_tooltip_text (b, tip);
  g_object_set_data (G_OBJECT (b), "action", GINT_TO_POINTER (action));
  g_signal_connect (b, "clicked", G_CALLBACK (gauss_button_cb), self);
  gtk_box_pack_start (GTK_BOX (box), b, FALSE, FALSE, 0);
  return b;
}

static void
tl_gauss_page_init (TlGaussPage *self)
{
  GtkWidget *bar = toolbar_new ();
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);

  toolbar_label (bar, _("Factor A with"));
  self->kernel_combo = gtk_combo_box_text_new ();
  for (guint i = 0; i < tl_lu_kernel_count (); i++)
    {
      const TlLuKernelInfo *k = tl_lu_kernel_get (i);
      if (g_str_has_prefix (k->id, "lu-cpu"))
        gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (self->kernel_combo), k->id, _(k->title));
    }
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->kernel_combo), "lu-cpu-blocked");
  gtk_box_pack_start (GTK_BOX (bar), self->kernel_combo, FALSE, FALSE, 0);
  toolbar_label (bar, _("block"));
  self->block_spin = gtk_spin_button_new_with_range (1, 256, 1);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->block_spin), 8);
  gtk_box_pack_start (GTK_BOX (bar), self->block_spin, FALSE, FALSE, 0);
  self->factor_button = gtk_button_new_with_label (_("Factor A"));
  gtk_style_context_add_class (gtk_widget_get_style_context (self->factor_button), "suggested-action");
  g_signal_connect (self->factor_button, "clicked", G_CALLBACK (factor_clicked_cb), self);
  gtk_box_pack_start (GTK_BOX (bar), self->factor_button, FALSE, FALSE, 0);

  gtk_box_pack_start (GTK_BOX (self), bar, FALSE, FALSE, 0);
  bar = toolbar_new ();
  GtkWidget *controls = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  gtk_style_context_add_class (gtk_widget_get_style_context (controls), "linked");
  player_button (self, controls, "media-skip-backward-symbolic", _("First step (Home)"), TL_PLAYER_HOME);
  player_button (self, controls, "media-seek-backward-symbolic", _("One block step back (Page Up)"), TL_PLAYER_PREV_BLOCK);
  player_button (self, controls, "go-previous-symbolic", _("One step back (←)"), TL_PLAYER_PREV);
  self->play_button = player_button (self, controls, "media-playback-start-symbolic", _("Play or pause (Space)"), TL_PLAYER_TOGGLE_PLAY);
  player_button (self, controls, "go-next-symbolic", _("One step forward (→)"), TL_PLAYER_NEXT);
  player_button (self, controls, "media-seek-forward-symbolic", _("One block step forward (Page Down)"), TL_PLAYER_NEXT_BLOCK);
  player_button (self, controls, "media-skip-forward-symbolic", _("Last step (End)"), TL_PLAYER_END);
  gtk_box_pack_start (GTK_BOX (bar), controls, FALSE, FALSE, 12);

  self->scale = gtk_scale_new_with_range (GTK_ORIENTATION_HORIZONTAL, 0, 1, 1);
  gtk_scale_set_draw_value (GTK_SCALE (self->scale), FALSE);
  gtk_widget_set_hexpand (self->scale, TRUE);
  g_signal_connect (self->scale, "value-changed", G_CALLBACK (gauss_scale_cb), self);
  gtk_box_pack_start (GTK_BOX (bar), self->scale, TRUE, TRUE, 0);
  self->step_label = gtk_label_new (NULL);
  gtk_label_set_width_chars (GTK_LABEL (self->step_label), 16);
  gtk_box_pack_start (GTK_BOX (bar), self->step_label, FALSE, FALSE, 0);
  toolbar_label (bar, _("steps/s"));
  self->speed_spin = gtk_spin_button_new_with_range (TL_PLAYER_MIN_SPEED, TL_PLAYER_MAX_SPEED, 1);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->speed_spin), TL_PLAYER_DEFAULT_SPEED);
  g_signal_connect (self->speed_spin, "value-changed", G_CALLBACK (gauss_speed_cb), self);
  gtk_box_pack_start (GTK_BOX (bar), self->speed_spin, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (self), bar, FALSE, FALSE, 0);

  self->area = tl_render_area_new (TL_RENDER_GAUSS);
  tl_render_area_set_empty_text (TL_RENDER_AREA (self->area),
                                 _("Press “Factor A” to watch Gauss elimination of A step by step "
                                   "(← → step, Page Up/Down a block, Home, End, Space plays), or open a "
                                   "record made with tilelab-cli lu --record."));
  gtk_box_pack_start (GTK_BOX (self), self->area, TRUE, TRUE, 0);
  gtk_widget_show_all (GTK_WIDGET (self));
}

GtkWidget *
tl_gauss_page_new (TlRunner *runner)
{
  TlGaussPage *self = g_object_new (TL_TYPE_GAUSS_PAGE, NULL);
  self->runner = g_object_ref (runner);
  return GTK_WIDGET (self);
}

void
tl_gauss_page_set_matrix (TlGaussPage *self, TlMatrix *a)
{
  g_return_if_fail (TL_IS_GAUSS_PAGE (self));
  if (a)
    tl_matrix_ref (a);
  g_clear_pointer (&self->a, tl_matrix_unref);
  self->a = a;
  gtk_widget_set_sensitive (self->factor_button, a != NULL);
}

void
tl_gauss_page_take_record (TlGaussPage *self, TlLuRecorder *lu)
{
  g_return_if_fail (TL_IS_GAUSS_PAGE (self));
  tl_render_area_set_input (TL_RENDER_AREA (self->area), NULL, NULL);
  g_clear_pointer (&self->lu, tl_lu_recorder_free);
  g_clear_pointer (&self->player, tl_player_free);
  self->lu = lu;
  if (lu)
    {
      guint n_blocks = lu->blocks ? lu->blocks->len : 0;
      g_autofree guint *starts = g_new (guint, MAX (n_blocks, 1));
      for (guint b = 0; b < n_blocks; b++)
        starts[b] = tl_gauss_record_block_start (lu, b);
      self->player = tl_player_new (tl_gauss_record_n_frames (lu), n_blocks ? starts : NULL, n_blocks);
      tl_player_set_speed (self->player, gtk_spin_button_get_value (GTK_SPIN_BUTTON (self->speed_spin)));
      tl_render_area_set_input (TL_RENDER_AREA (self->area), NULL, lu);
    }
  gauss_sync (self);
}

TlLuRecorder *
tl_gauss_page_get_record (TlGaussPage *self)
{
  g_return_val_if_fail (TL_IS_GAUSS_PAGE (self), NULL);
  return self->lu;
}

gboolean
tl_gauss_page_is_busy (TlGaussPage *self)
{
  g_return_val_if_fail (TL_IS_GAUSS_PAGE (self), FALSE);
  return self->cancellable != NULL;
}

guint
tl_gauss_page_get_step (TlGaussPage *self)
{
  g_return_val_if_fail (TL_IS_GAUSS_PAGE (self), 0);
  return self->player ? self->player->position : 0;
}

gboolean
tl_gauss_page_key (TlGaussPage *self, guint keyval, GdkModifierType state)
{
  g_return_val_if_fail (TL_IS_GAUSS_PAGE (self), FALSE);
  TlPlayerAction action = tl_player_action_for_key (keyval, state & gtk_accelerator_get_default_mod_mask ());
  if (action == TL_PLAYER_NONE || self->player == NULL)
    return FALSE;
  gauss_action (self, action);
  return TRUE;
}

void
tl_gauss_page_set_presentation (TlGaussPage *self, gboolean on, gboolean high_contrast)
{
  tl_render_area_set_presentation (TL_RENDER_AREA (self->area), on, high_contrast);
  page_show_only (GTK_WIDGET (self), self->area, on);
}

GtkWidget *
tl_gauss_page_get_area (TlGaussPage *self)
{
  return self->area;
}

/* ==== Source: the kernel's code beside its lesson and numbers ============ */

struct _TlSourcePage
{
  GtkBox parent_instance;
  TlRunRecord *record;   /* borrowed */
  GtkWidget *kernel_combo, *view, *facts;
  gsize length;
};

G_DEFINE_FINAL_TYPE (TlSourcePage, tl_source_page, GTK_TYPE_BOX)

static const char *const c_keywords[] = {
  "if", "else", "for", "while", "do", "return", "break", "continue", "switch", "case", "default",
  "static", "const", "inline", "struct", "typedef", "enum", "template", "typename", "void",
  "int", "unsigned", "float", "double", "char", "bool", "size_t", "auto", "extern", "sizeof",
  "__global__", "__device__", "__shared__", "__syncthreads", "__restrict__", "__launch_bounds__",
  "constexpr", "namespace", "using", "true", "false", "nullptr", "gsize", "guint", "gboolean",
  NULL
};

static void
highlight (GtkTextBuffer *buf, const char *text)
{
  /* one pass over the text: comments, strings, preprocessor lines, keywords, numbers */
  const char *p = text;
  GtkTextIter a, b;

  while (*p)
    {
      const char *start = p;
      const char *tag = NULL;

      if (p[0] == '/' && p[1] == '/')
        {
          while (*p && *p != '\n')
            p++;
          tag = "comment";
        }
      else if (p[0] == '/' && p[1] == '*')
        {
          const char *end = strstr (p + 2, "*/");
          p = end ? end + 2 : p + strlen (p);
          tag = "comment";
        }
      else if (*p == '"')
        {
          p++;
          while (*p && *p != '"' && *p != '\n')
            p += (*p == '\\' && p[1]) ? 2 : 1;
          if (*p == '"')
            p++;
          tag = "string";
        }
      else if (*p == '#' && (p == text || p[-1] == '\n'))
        {
          while (*p && *p != '\n')
            p++;
          tag = "preproc";
        }
      else if (g_ascii_isalpha (*p) || *p == '_')
        {
          while (g_ascii_isalnum (*p) || *p == '_')
            p++;
          g_autofree char *word = g_strndup (start, p - start);
          if (g_strv_contains (c_keywords, word))
            tag = "keyword";
          else if (g_str_has_prefix (word, "threadIdx") || g_str_has_prefix (word, "blockIdx")
                   || g_str_has_prefix (word, "blockDim") || g_str_has_prefix (word, "gridDim"))
            tag = "cuda";
        }
      else if (g_ascii_isdigit (*p))
        {
          while (g_ascii_isalnum (*p) || *p == '.')
            p++;
          tag = "number";
        }
      else
        p = g_utf8_next_char (p);

      if (tag)
        {
          gtk_text_buffer_get_iter_at_offset (buf, &a, (int) g_utf8_pointer_to_offset (text, start));
          gtk_text_buffer_get_iter_at_offset (buf, &b, (int) g_utf8_pointer_to_offset (text, p));
          gtk_text_buffer_apply_tag_by_name (buf, tag, &a, &b);
        }
    }
}

static void
source_update (TlSourcePage *self)
{
  const char *id = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->kernel_combo));
  const TlKernelInfo *info = id ? tl_kernel_find (id) : NULL;
  GtkTextBuffer *buf = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->view));
  GString *facts = g_string_new (NULL);

  self->length = 0;
  if (info == NULL)
    {
      gtk_text_buffer_set_text (buf, "", -1);
      g_string_free (facts, TRUE);
      return;
    }

  g_autofree char *path = g_strdup_printf ("/org/tilelab/Tilelab/source/%s", info->source_path ? info->source_path : "");
  g_autoptr (GBytes) bytes = g_resources_lookup_data (path, 0, NULL);
  if (bytes)
    {
      gsize len;
      const char *data = g_bytes_get_data (bytes, &len);
      g_autofree char *text = g_utf8_make_valid (data, len);
      gtk_text_buffer_set_text (buf, text, -1);
      highlight (buf, text);
      self->length = strlen (text);
    }
  else
    {
      g_autofree char *t = g_strdup_printf (_("The source of %s (%s) is not bundled in this build."),
                                            info->id, info->source_path ? info->source_path : "?");
      gtk_text_buffer_set_text (buf, t, -1);
    }

  g_autofree char *lesson = g_markup_escape_text (info->lesson && *info->lesson ? _(info->lesson) : "", -1);
  g_string_append_printf (facts, "<b>%s</b>\n<i>%s</i>\n\n", _(info->title), lesson);
  g_string_append_printf (facts, _("id  %s\nseed  %s\nfile  %s\n"), info->id,
                          info->seed && *info->seed ? info->seed : "—",
                          info->source_path ? info->source_path : "—");
  if (info->tile_m > 0)
    g_string_append_printf (facts, _("tile of C per block  %d×%d\n"), info->tile_m, info->tile_n);
  const TlKernelRun *r = self->record ? tl_run_record_find_run (self->record, id) : NULL;
  if (r && r->status == TL_RUN_OK && r->time.count)
    {
      const TlJob *job = self->record->job;
      double flops = job ? 2.0 * job->m * job->n * job->k : NAN;
      g_string_append_printf (facts, _("\n<b>Measured</b> (%zu×%zu·%zu×%zu)\ntime  %.4g ms\nGFLOP/s  %.4g\n"),
                              job ? job->m : 0, job ? job->k : 0, job ? job->k : 0, job ? job->n : 0,
                              r->time.median, flops / (r->time.median * 1e6));
      if (!isnan (r->percent_of_reference))
        g_string_append_printf (facts, _("of reference  %.0f%%\n"), r->percent_of_reference);
      if (r->launch.valid)
        g_string_append_printf (facts, _("registers  %d per thread\nshared memory  %d B per block\n"
                                         "spills  %d B\noccupancy  %.0f%%\nwaves  %.2f\n"),
                                r->launch.regs_per_thread,
                                r->launch.static_smem_bytes + r->launch.dynamic_smem_bytes,
                                r->launch.local_bytes_per_thread, 100 * r->launch.occupancy, r->launch.waves);
    }
  else
    g_string_append (facts, _("\nRun it (or open a run record) to see its numbers here."));
  gtk_label_set_markup (GTK_LABEL (self->facts), facts->str);
  g_string_free (facts, TRUE);
}

static void
source_changed_cb (GtkComboBox *combo, TlSourcePage *self)
{
  source_update (self);
}

static void
tl_source_page_class_init (TlSourcePageClass *klass)
{
}

static void
tl_source_page_init (TlSourcePage *self)
{
  GtkWidget *bar = toolbar_new ();
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  toolbar_label (bar, _("Kernel"));
  self->kernel_combo = gtk_combo_box_text_new ();
  for (guint i = 0; i < tl_kernel_count (); i++)
    {
      const TlKernelInfo *k = tl_kernel_get (i);
      gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (self->kernel_combo), k->id, _(k->title));
    }
  gtk_box_pack_start (GTK_BOX (bar), self->kernel_combo, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (self), bar, FALSE, FALSE, 0);

  GtkWidget *hbox = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *sw = gtk_scrolled_window_new (NULL, NULL);
  self->view = gtk_text_view_new ();
  gtk_text_view_set_editable (GTK_TEXT_VIEW (self->view), FALSE);
  gtk_text_view_set_monospace (GTK_TEXT_VIEW (self->view), TRUE);
  gtk_text_view_set_left_margin (GTK_TEXT_VIEW (self->view), 8);
  GtkTextBuffer *buf = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->view));
  gtk_text_buffer_create_tag (buf, "comment", "foreground", "#4e6e3a", "style", PANGO_STYLE_ITALIC, NULL);
  gtk_text_buffer_create_tag (buf, "keyword", "foreground", "#1a4fa0", "weight", PANGO_WEIGHT_BOLD, NULL);
  gtk_text_buffer_create_tag (buf, "cuda", "foreground", "#a0321a", "weight", PANGO_WEIGHT_BOLD, NULL);
  gtk_text_buffer_create_tag (buf, "string", "foreground", "#8a4b00", NULL);
  gtk_text_buffer_create_tag (buf, "number", "foreground", "#6d2aa0", NULL);
  gtk_text_buffer_create_tag (buf, "preproc", "foreground", "#7a5c00", NULL);
  gtk_container_add (GTK_CONTAINER (sw), self->view);
  gtk_box_pack_start (GTK_BOX (hbox), sw, TRUE, TRUE, 0);
  GtkWidget *side = gtk_scrolled_window_new (NULL, NULL);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (side), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_size_request (side, 320, -1);
  self->facts = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->facts), 0);
  gtk_label_set_yalign (GTK_LABEL (self->facts), 0);
  gtk_label_set_line_wrap (GTK_LABEL (self->facts), TRUE);
  gtk_label_set_selectable (GTK_LABEL (self->facts), TRUE);
  g_object_set (self->facts, "margin", 12, NULL);
  gtk_container_add (GTK_CONTAINER (side), self->facts);
  gtk_box_pack_start (GTK_BOX (hbox), side, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (self), hbox, TRUE, TRUE, 0);

  g_signal_connect (self->kernel_combo, "changed", G_CALLBACK (source_changed_cb), self);
  gtk_combo_box_set_active (GTK_COMBO_BOX (self->kernel_combo), 0);
  gtk_widget_show_all (GTK_WIDGET (self));
}

GtkWidget *
tl_source_page_new (void)
{
  return g_object_new (TL_TYPE_SOURCE_PAGE, NULL);
}

void
tl_source_page_set_record (TlSourcePage *self, TlRunRecord *record)
{
  g_return_if_fail (TL_IS_SOURCE_PAGE (self));
  self->record = record;
  source_update (self);
}

void
tl_source_page_show_kernel (TlSourcePage *self, const char *kernel_id)
{
  g_return_if_fail (TL_IS_SOURCE_PAGE (self));
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->kernel_combo), kernel_id);
}

gsize
tl_source_page_get_source_length (TlSourcePage *self)
{
  g_return_val_if_fail (TL_IS_SOURCE_PAGE (self), 0);
  return self->length;
}
