/* tl-render-request.c — what a picture is asked with: views, formats, options, input. */
#include "view/tl-render-request.h"

#include <glib/gi18n-lib.h>

#include "core/tl-error.h"

static const char *const view_names[] = { "heatmap", "blocks", "timeline", "compare", "gauss",
                                           "sweep", "roofline", "blocks-and-timeline", "lesson",
                                           NULL };

const char *
tl_render_view_name (TlRenderView view)
{
  return (guint) view < G_N_ELEMENTS (view_names) - 1 ? view_names[view] : "?";
}

const char *
tl_render_view_names (void)
{
  static char *names;
  if (g_once_init_enter (&names))
    g_once_init_leave (&names, g_strjoinv (", ", (char **) view_names));
  return names;
}

gboolean
tl_render_view_from_name (const char *name, TlRenderView *out)
{
  for (guint i = 0; view_names[i]; i++)
    if (g_strcmp0 (name, view_names[i]) == 0)
      {
        *out = (TlRenderView) i;
        return TRUE;
      }
  return FALSE;
}

gboolean
tl_render_format_for_path (const char *path, TlRenderFormat *out)
{
  g_return_val_if_fail (path != NULL, FALSE);
  g_autofree char *lower = g_ascii_strdown (path, -1);
  if (g_str_has_suffix (lower, ".png"))
    *out = TL_RENDER_PNG;
  else if (g_str_has_suffix (lower, ".svg"))
    *out = TL_RENDER_SVG;
  else if (g_str_has_suffix (lower, ".pdf"))
    *out = TL_RENDER_PDF;
  else
    return FALSE;
  return TRUE;
}

void
tl_render_options_init (TlRenderOptions *options)
{
  g_return_if_fail (options != NULL);
  *options = (TlRenderOptions) {0};
  options->launch = -1;
  options->tile_x = options->tile_y = -1;
  options->width = TL_RENDER_DEFAULT_WIDTH;
  options->height = TL_RENDER_DEFAULT_HEIGHT;
  options->scale = 1.0;
}

double
tl_render_default_height (const TlRenderOptions *options)
{
  g_return_val_if_fail (options != NULL, TL_RENDER_DEFAULT_HEIGHT);
  gboolean two_charts = options->view == TL_RENDER_COMPARE
                        && options->charts == TL_RENDER_CHARTS_BARS_OVER_SWEEP;
  return two_charts ? TL_RENDER_DEFAULT_HEIGHT * 5 / 3 : TL_RENDER_DEFAULT_HEIGHT;
}

/* ---- input ---------------------------------------------------------------- */

gboolean
tl_render_input_add_run (TlRenderInput *input, TlRunRecord *record, GError **error)
{
  g_return_val_if_fail (input != NULL && record != NULL, FALSE);
  if (input->n_more >= G_N_ELEMENTS (input->more))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID, _("at most %d run records can be stacked"),
                   (int) G_N_ELEMENTS (input->more) + 1);
      tl_run_record_unref (record);
      return FALSE;
    }
  input->more[input->n_more++] = record;
  return TRUE;
}

void
tl_render_input_clear (TlRenderInput *input)
{
  g_return_if_fail (input != NULL);
  g_clear_pointer (&input->record, tl_run_record_unref);
  g_clear_pointer (&input->lu, tl_lu_recorder_free);
  for (guint i = 0; i < input->n_more; i++)
    g_clear_pointer (&input->more[i], tl_run_record_unref);
  input->n_more = 0;
}
