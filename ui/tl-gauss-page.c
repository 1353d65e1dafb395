/* tl-gauss-page.c — the Gauss step player. */
#include "tl-gauss-page.h"

#include <math.h>
#include <glib/gi18n-lib.h>

#include "lu/tl-lu.h"
#include "view/tl-gauss-frame.h"
#include "view/tl-player.h"
#include "tl-render-area.h"
#include "tl-ui-util.h"

struct _TlGaussPage
{
  GtkBox parent_instance;

  TlSession *session;
  TlLuRecorder *lu;          /* the session's, while shown */
  TlPlayer *player;
  guint tick_id;
  gboolean updating;
  GtkWidget *area;           /* TlRenderArea */

  GtkWidget *factor_bar, *player_bar;
  GtkWidget *kernel_combo, *block_spin, *range_combo, *factor_button;
  GtkWidget *home_button, *prev_block_button, *prev_button, *play_button;
  GtkWidget *next_button, *next_block_button, *end_button, *play_image;
  GtkWidget *scale, *step_label, *speed_spin;
};

static void tl_gauss_page_page_init (TlPageInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TlGaussPage, tl_gauss_page, GTK_TYPE_BOX,
                               G_IMPLEMENT_INTERFACE (TL_TYPE_PAGE, tl_gauss_page_page_init))

static void sync_player (TlGaussPage *self);

static gboolean
tick_cb (gpointer data)
{
  TlGaussPage *self = data;
  self->tick_id = 0;
  if (self->player == NULL)
    return G_SOURCE_REMOVE;
  tl_player_tick (self->player, g_get_monotonic_time ());
  sync_player (self);
  return G_SOURCE_REMOVE;
}

/* the slider, the step label, the play icon and the next tick follow the player */
static void
sync_player (TlGaussPage *self)
{
  if (self->tick_id)
    g_source_remove (self->tick_id);
  self->tick_id = 0;
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
  gtk_image_set_from_icon_name (GTK_IMAGE (self->play_image),
                                self->player->playing ? "media-playback-pause-symbolic"
                                                      : "media-playback-start-symbolic",
                                GTK_ICON_SIZE_BUTTON);

  gint64 due = tl_player_next_due_us (self->player, g_get_monotonic_time ());
  if (self->player->playing && due >= 0)
    self->tick_id = g_timeout_add (MAX (due / 1000, 1), tick_cb, self);
}

static void
player_action (TlGaussPage *self, TlPlayerAction action)
{
  if (self->player && tl_player_activate (self->player, action))
    {
      if (action == TL_PLAYER_TOGGLE_PLAY && self->player->playing)
        tl_player_tick (self->player, g_get_monotonic_time ());
      sync_player (self);
    }
}

static void
player_button_cb (GtkButton *button, TlGaussPage *self)
{
  GtkWidget *b = GTK_WIDGET (button);
  TlPlayerAction action = b == self->home_button ? TL_PLAYER_HOME
                          : b == self->prev_block_button ? TL_PLAYER_PREV_BLOCK
                          : b == self->prev_button ? TL_PLAYER_PREV
                          : b == self->play_button ? TL_PLAYER_TOGGLE_PLAY
                          : b == self->next_button ? TL_PLAYER_NEXT
                          : b == self->next_block_button ? TL_PLAYER_NEXT_BLOCK
                          : TL_PLAYER_END;
  player_action (self, action);
}

static void
scale_changed_cb (GtkRange *range, TlGaussPage *self)
{
  if (self->updating || self->player == NULL)
    return;
  if (tl_player_seek (self->player, (guint) lround (gtk_range_get_value (range))))
    sync_player (self);
}

static void
speed_changed_cb (GtkSpinButton *spin, TlGaussPage *self)
{
  if (self->player)
    tl_player_set_speed (self->player, gtk_spin_button_get_value (spin));
}

static void
range_changed_cb (GtkComboBox *combo, TlGaussPage *self)
{
  if (self->area)
    tl_render_area_set_gauss_record_range (TL_RENDER_AREA (self->area),
                                           g_strcmp0 (gtk_combo_box_get_active_id (combo), "record") == 0);
}

/* the block size is the blocked rungs' (a column at a time has none) */
static void
kernel_changed_cb (GtkComboBox *combo, TlGaussPage *self)
{
  const char *id = gtk_combo_box_get_active_id (combo);
  const TlLuKernelInfo *k = id ? tl_lu_kernel_find (id) : NULL;
  if (self->block_spin)
    gtk_widget_set_sensitive (self->block_spin, k && k->blocked);
}

static void
factor_clicked_cb (GtkButton *button, TlGaussPage *self)
{
  tl_gauss_page_factor (self);
}

/* ---- the session ----------------------------------------------------------- */

static void
show_record (TlGaussPage *self, TlLuRecorder *lu)
{
  tl_render_area_set_input (TL_RENDER_AREA (self->area), NULL, NULL);
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
  sync_player (self);
}

static void
lu_record_changed_cb (TlSession *session, TlGaussPage *self)
{
  show_record (self, tl_session_get_lu_record (session));
}

static const char *
empty_text (void)
{
  return _("Press “Factor A” to watch Gauss elimination of A step by step "
           "(← → step, Page Up/Down a block, Home, End, Space plays), or open a "
           "record made with tilelab-cli lu --record.");
}

static void
state_changed_cb (TlSession *session, TlGaussPage *self)
{
  gboolean factoring = tl_session_is_factoring (session);
  gtk_widget_set_sensitive (self->factor_button, !factoring && tl_session_get_source (session, 0) != NULL);
  if (!factoring)
    tl_render_area_set_empty_text (TL_RENDER_AREA (self->area), empty_text ());
}

static void
source_changed_cb (TlSession *session, guint index, TlGaussPage *self)
{
  state_changed_cb (session, self);
}

/* every rung that records its steps: the CPU ones, the GPU ones with a GPU */
static void
fill_kernels (TlGaussPage *self, gboolean have_gpu)
{
  GtkComboBoxText *combo = GTK_COMBO_BOX_TEXT (self->kernel_combo);
  g_autofree char *keep = g_strdup (gtk_combo_box_get_active_id (GTK_COMBO_BOX (combo)));

  gtk_combo_box_text_remove_all (combo);
  for (guint i = 0; i < tl_lu_kernel_count (); i++)
    {
      const TlLuKernelInfo *k = tl_lu_kernel_get (i);
      if (k->records_steps && (k->backend == TL_BACKEND_CPU || have_gpu))
        gtk_combo_box_text_append (combo, k->id, _(k->title));
    }
  if (!gtk_combo_box_set_active_id (GTK_COMBO_BOX (combo), keep ? keep : TL_LU_DEFAULT_KERNEL))
    gtk_combo_box_set_active (GTK_COMBO_BOX (combo), 0);
}

static void
devices_changed_cb (TlSession *session, TlGaussPage *self)
{
  GArray *gpus = tl_session_get_gpus (session);
  fill_kernels (self, gpus && gpus->len > 0);
}

/* ---- TlPage ------------------------------------------------------------------ */

static void
gauss_set_session (TlPage *page, TlSession *session)
{
  TlGaussPage *self = TL_GAUSS_PAGE (page);
  tl_page_connect_session (&self->session, session, self,
                           "lu-record-changed", lu_record_changed_cb,
                           "state-changed", state_changed_cb,
                           "source-changed", source_changed_cb,
                           "devices-changed", devices_changed_cb, NULL);
  show_record (self, session ? tl_session_get_lu_record (session) : NULL);
  if (session)
    state_changed_cb (session, self);
}

static void
gauss_set_presentation (TlPage *page, gboolean on, gboolean high_contrast)
{
  TlGaussPage *self = TL_GAUSS_PAGE (page);
  tl_render_area_set_presentation (TL_RENDER_AREA (self->area), on, high_contrast);
  /* the step gets the whole screen; the keys keep working */
  gtk_widget_set_visible (self->factor_bar, !on);
  gtk_widget_set_visible (self->player_bar, !on);
}

static gboolean
gauss_key (TlPage *page, guint keyval, GdkModifierType state)
{
  return tl_gauss_page_key (TL_GAUSS_PAGE (page), keyval, state);
}

static gboolean
gauss_step (TlPage *page, int direction)
{
  TlGaussPage *self = TL_GAUSS_PAGE (page);
  if (self->player == NULL)
    return FALSE;
  player_action (self, direction > 0 ? TL_PLAYER_NEXT : TL_PLAYER_PREV);
  return TRUE;
}

static gboolean
gauss_has_content (TlPage *page)
{
  return TL_GAUSS_PAGE (page)->lu != NULL;
}

static gboolean
gauss_export_options (TlPage *page, TlRenderOptions *o)
{
  tl_render_area_get_options (TL_RENDER_AREA (TL_GAUSS_PAGE (page)->area), o);
  return TRUE;
}

/* an LU record opened, else the steps of A factored here */
static guint
gauss_shown_records (TlPage *page, TlRunRecord **shown)
{
  TlSession *session = TL_GAUSS_PAGE (page)->session;
  *shown = session ? tl_session_get_lu_run (session) : NULL;
  return *shown ? 1 : TL_PAGE_RECORDS_UNSAID;
}

static void
tl_gauss_page_page_init (TlPageInterface *iface)
{
  iface->shown_records = gauss_shown_records;
  iface->set_session = gauss_set_session;
  iface->set_presentation = gauss_set_presentation;
  iface->key = gauss_key;
  iface->step = gauss_step;
  iface->export_options = gauss_export_options;
  iface->has_content = gauss_has_content;
}

/* ---- the page -------------------------------------------------------------- */

void
tl_gauss_page_factor (TlGaussPage *self)
{
  g_return_if_fail (TL_IS_GAUSS_PAGE (self));
  const char *kernel = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->kernel_combo));
  gsize block = (gsize) gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (self->block_spin));
  if (self->session && tl_session_factor (self->session, kernel, block))
    tl_render_area_set_empty_text (TL_RENDER_AREA (self->area), _("Factoring A…"));
}

guint
tl_gauss_page_get_step (TlGaussPage *self)
{
  g_return_val_if_fail (TL_IS_GAUSS_PAGE (self), 0);
  return self->player ? self->player->position : 0;
}

void
tl_gauss_page_set_record_range (TlGaussPage *self, gboolean whole_record)
{
  g_return_if_fail (TL_IS_GAUSS_PAGE (self));
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->range_combo), whole_record ? "record" : "step");
}

gboolean
tl_gauss_page_can_factor_with (TlGaussPage *self, const char *kernel_id)
{
  g_return_val_if_fail (TL_IS_GAUSS_PAGE (self), FALSE);
  GtkTreeModel *model = gtk_combo_box_get_model (GTK_COMBO_BOX (self->kernel_combo));
  GtkTreeIter it;
  for (gboolean ok = gtk_tree_model_get_iter_first (model, &it); ok; ok = gtk_tree_model_iter_next (model, &it))
    {
      g_autofree char *id = NULL;
      gtk_tree_model_get (model, &it, gtk_combo_box_get_id_column (GTK_COMBO_BOX (self->kernel_combo)), &id, -1);
      if (g_strcmp0 (id, kernel_id) == 0)
        return TRUE;
    }
  return FALSE;
}

TlLuRecorder *
tl_gauss_page_get_record (TlGaussPage *self)
{
  g_return_val_if_fail (TL_IS_GAUSS_PAGE (self), NULL);
  return self->lu;
}

gboolean
tl_gauss_page_key (TlGaussPage *self, guint keyval, GdkModifierType state)
{
  g_return_val_if_fail (TL_IS_GAUSS_PAGE (self), FALSE);
  TlPlayerAction action = tl_player_action_for_key (keyval, state & gtk_accelerator_get_default_mod_mask ());
  /* Page Up / Page Down (a clicker's keys) move a block step, as the
   * tooltips, the shortcuts window and the README say */
  if (action == TL_PLAYER_NEXT && (keyval == GDK_KEY_Page_Down || keyval == GDK_KEY_KP_Page_Down))
    action = TL_PLAYER_NEXT_BLOCK;
  else if (action == TL_PLAYER_PREV && (keyval == GDK_KEY_Page_Up || keyval == GDK_KEY_KP_Page_Up))
    action = TL_PLAYER_PREV_BLOCK;
  if (action == TL_PLAYER_NONE || self->player == NULL)
    return FALSE;
  player_action (self, action);
  return TRUE;
}

GtkWidget *
tl_gauss_page_get_area (TlGaussPage *self)
{
  g_return_val_if_fail (TL_IS_GAUSS_PAGE (self), NULL);
  return self->area;
}

static void
tl_gauss_page_dispose (GObject *object)
{
  TlGaussPage *self = TL_GAUSS_PAGE (object);
  if (self->tick_id)
    g_source_remove (self->tick_id);
  self->tick_id = 0;
  tl_page_disconnect_session (&self->session, self);
  self->lu = NULL;
  G_OBJECT_CLASS (tl_gauss_page_parent_class)->dispose (object);
}

static void
tl_gauss_page_finalize (GObject *object)
{
  TlGaussPage *self = TL_GAUSS_PAGE (object);
  g_clear_pointer (&self->player, tl_player_free);
  G_OBJECT_CLASS (tl_gauss_page_parent_class)->finalize (object);
}

static void
tl_gauss_page_class_init (TlGaussPageClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = tl_gauss_page_dispose;
  G_OBJECT_CLASS (klass)->finalize = tl_gauss_page_finalize;
  gtk_widget_class_set_template_from_resource (widget_class, "/org/tilelab/Tilelab/ui/tl-gauss-page.ui");
#define CHILD(name) gtk_widget_class_bind_template_child (widget_class, TlGaussPage, name)
  CHILD (factor_bar);
  CHILD (player_bar);
  CHILD (kernel_combo);
  CHILD (block_spin);
  CHILD (range_combo);
  CHILD (factor_button);
  CHILD (home_button);
  CHILD (prev_block_button);
  CHILD (prev_button);
  CHILD (play_button);
  CHILD (next_button);
  CHILD (next_block_button);
  CHILD (end_button);
  CHILD (play_image);
  CHILD (scale);
  CHILD (step_label);
  CHILD (speed_spin);
#undef CHILD
  gtk_widget_class_bind_template_callback (widget_class, player_button_cb);
  gtk_widget_class_bind_template_callback (widget_class, scale_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, speed_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, factor_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, range_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, kernel_changed_cb);
}

static void
tl_gauss_page_init (TlGaussPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  tl_combo_box_allow_shrinking (GTK_COMBO_BOX (self->kernel_combo), 12);

  fill_kernels (self, FALSE);
  gtk_adjustment_configure (gtk_spin_button_get_adjustment (GTK_SPIN_BUTTON (self->speed_spin)),
                            TL_PLAYER_DEFAULT_SPEED, TL_PLAYER_MIN_SPEED, TL_PLAYER_MAX_SPEED, 1, 4, 0);

  /* the area is built in code: its view is a constructor argument */
  self->area = tl_render_area_new (TL_RENDER_GAUSS);
  tl_render_area_set_empty_text (TL_RENDER_AREA (self->area), empty_text ());
  gtk_box_pack_start (GTK_BOX (self), self->area, TRUE, TRUE, 0);
  gtk_widget_show (self->area);
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->range_combo), "step");
}
