/* tl-sources-panel.c — A and B in the sidebar. */
#include "tl-sources-panel.h"

#include <math.h>
#include <glib/gi18n-lib.h>

#include "tl-heatmap-view.h"
#include "tl-page.h"
#include "tl-run-text.h"

struct _TlSourcesPanel
{
  GtkBox parent_instance;

  TlSession *session;
  GtkWidget *thumb_a, *thumb_b;
  GtkWidget *facts_a, *facts_b;
};

G_DEFINE_FINAL_TYPE (TlSourcesPanel, tl_sources_panel, GTK_TYPE_BOX)

/* What is being read into it, or why the last file failed: a line under
 * what the card shows ("" when neither). */
static char *
pending_markup (TlSourcesPanel *self, guint i)
{
  double fraction = 0;
  g_autofree char *loading = tl_session_get_source_loading (self->session, i, &fraction);
  if (loading != NULL)
    {
      g_autofree char *esc = g_markup_escape_text (loading, -1);
      /* TRANSLATORS: on A's or B's card while a file is read: "loading big.npy… 45 %" */
      return g_strdup_printf (_("<i>loading %s… %.0f %%</i>"), esc, 100 * fraction);
    }
  const char *failure = tl_session_get_source_failure (self->session, i);
  if (failure != NULL)
    {
      g_autofree char *esc = g_markup_escape_text (failure, -1);
      return g_strdup_printf ("<span foreground=\"#c01c28\">%s</span>", esc);
    }
  return g_strdup ("");
}

static void
update_facts (TlSourcesPanel *self, guint i)
{
  GtkLabel *label = GTK_LABEL (i == 0 ? self->facts_a : self->facts_b);
  const char *name = i == 0 ? "A" : "B";
  TlMatrix *m = self->session ? tl_session_get_source (self->session, i) : NULL;
  g_autofree char *pending = self->session ? pending_markup (self, i) : g_strdup ("");

  if (m == NULL)
    {
      g_autofree char *loading = self->session ? tl_session_get_source_loading (self->session, i, NULL)
                                               : NULL;
      g_autofree char *t = loading ? g_strdup_printf ("<b>%s</b>  %s", name, pending)
                           : *pending ? g_strdup_printf (_("<b>%s</b>  empty\n%s"), name, pending)
                           : g_strdup_printf (_("<b>%s</b>  empty\nOpen or generate a matrix."), name);
      gtk_label_set_markup (label, t);
      return;
    }

  const TlMatrixStats *st = tl_session_get_source_stats (self->session, i);
  const char *source_label = tl_session_get_source_label (self->session, i);
  g_autofree char *mn = tl_run_text_number (st->n_finite ? st->min : NAN);
  g_autofree char *mx = tl_run_text_number (st->n_finite ? st->max : NAN);
  g_autofree char *esc = g_markup_escape_text (source_label ? source_label : "", -1);
  g_autofree char *t = g_strdup_printf (_("<b>%s</b>  %zu×%zu  %s\nmin %s   max %s\nNaN %zu   Inf %zu\n<small>%s</small>"),
                                        name, m->rows, m->cols, tl_dtype_name (m->dtype), mn, mx,
                                        st->n_nan, st->n_inf, esc);
  g_autofree char *all = *pending ? g_strdup_printf ("%s\n%s", t, pending) : g_strdup (t);
  gtk_label_set_markup (label, all);
}

static void
source_loading_cb (TlSession *session, guint i, TlSourcesPanel *self)
{
  update_facts (self, i);
}

static void
source_changed_cb (TlSession *session, guint i, TlSourcesPanel *self)
{
  TlMatrix *m = tl_session_get_source (session, i);
  tl_heatmap_view_set_matrix (TL_HEATMAP_VIEW (i == 0 ? self->thumb_a : self->thumb_b), m, NULL, NULL);
  update_facts (self, i);
}

void
tl_sources_panel_set_session (TlSourcesPanel *self, TlSession *session)
{
  g_return_if_fail (TL_IS_SOURCES_PANEL (self));
  tl_page_connect_session (&self->session, session, self, "source-changed", source_changed_cb,
                           "source-loading", source_loading_cb, NULL);
  for (guint i = 0; i < 2; i++)
    update_facts (self, i);
}

static void
tl_sources_panel_dispose (GObject *object)
{
  TlSourcesPanel *self = TL_SOURCES_PANEL (object);
  tl_page_disconnect_session (&self->session, self);
  G_OBJECT_CLASS (tl_sources_panel_parent_class)->dispose (object);
}

static void
tl_sources_panel_class_init (TlSourcesPanelClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = tl_sources_panel_dispose;
  g_type_ensure (TL_TYPE_HEATMAP_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/tilelab/Tilelab/ui/tl-sources-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, TlSourcesPanel, thumb_a);
  gtk_widget_class_bind_template_child (widget_class, TlSourcesPanel, thumb_b);
  gtk_widget_class_bind_template_child (widget_class, TlSourcesPanel, facts_a);
  gtk_widget_class_bind_template_child (widget_class, TlSourcesPanel, facts_b);
}

static void
tl_sources_panel_init (TlSourcesPanel *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  tl_heatmap_view_set_thumbnail (TL_HEATMAP_VIEW (self->thumb_a), TRUE);
  tl_heatmap_view_set_thumbnail (TL_HEATMAP_VIEW (self->thumb_b), TRUE);
  tl_heatmap_view_set_empty_text (TL_HEATMAP_VIEW (self->thumb_a), "A");
  tl_heatmap_view_set_empty_text (TL_HEATMAP_VIEW (self->thumb_b), "B");
  update_facts (self, 0);
  update_facts (self, 1);
}
