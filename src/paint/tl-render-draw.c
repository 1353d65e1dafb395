/* tl-render-draw.c — tl_render_draw: the style a canvas gets, and a view drawn by the file
 * that knows it. */
#include "paint/tl-render-views.h"

#include <glib/gi18n-lib.h>

#include "core/tl-error.h"
#include "paint/tl-paint-sheet.h"

void
tl_render_style_init (TlPaintStyle *style, const TlRenderOptions *options,
                      double width, double height, double scale)
{
  /* type grows with the canvas: 18-unit labels on 1600×900 */
  double f = CLAMP (MIN (width / TL_RENDER_DEFAULT_WIDTH, height / TL_RENDER_DEFAULT_HEIGHT), 0.5, 4.0);
  /* presenting enlarges type, lines and gaps as the app's presentation
   * mode enlarges a window's (TL_PAINT_PRESENTATION_SCALE): render -p of a
   * canvas is its plain render with everything 1.6 times as large */
  double enlarge = options->presentation ? TL_PAINT_PRESENTATION_SCALE : 1.0;

  if (options->presentation || options->high_contrast)
    tl_paint_style_init_presentation (style, scale * enlarge, options->high_contrast);
  else
    tl_paint_style_init (style, scale);
  style->font_size = 18.0 * f;
  style->title_font_size = 24.0 * f;
  style->line_width = (options->high_contrast ? 2.5 : 1.5) * f;
}

gboolean
tl_render_draw (cairo_t *cr, const TlRenderInput *input, const TlRenderOptions *o,
                const TlPaintStyle *style, double width, double height, GError **error)
{
  g_return_val_if_fail (cr != NULL && input != NULL && o != NULL && style != NULL, FALSE);

  switch (o->view)
    {
    case TL_RENDER_HEATMAP:
      return tl_render_draw_heatmap (cr, input, o, style, width, height, error);
    case TL_RENDER_BLOCKS:
      return tl_render_draw_blocks (cr, input, o, style, width, height, error);
    case TL_RENDER_TIMELINE:
      return tl_render_draw_timeline (cr, input, o, style, width, height, error);
    case TL_RENDER_COMPARE:
      return tl_render_draw_compare (cr, input, o, style, width, height, error);
    case TL_RENDER_GAUSS:
      return tl_render_draw_gauss (cr, input, o, style, width, height, error);
    case TL_RENDER_SWEEP:
      return tl_render_draw_sweep (cr, input, o, style, width, height, error);
    case TL_RENDER_ROOFLINE:
      return tl_render_draw_roofline (cr, input, o, style, width, height, error);
    case TL_RENDER_BLOCKS_AND_TIMELINE:
      return tl_render_draw_blocks_and_timeline (cr, input, o, style, width, height, error);
    case TL_RENDER_LESSON:
      return tl_render_draw_lesson (cr, input, o, style, width, height, error);
    case TL_RENDER_SHEET:
      if (o->sheet == NULL)
        break;
      tl_paint_sheet (cr, o->sheet, style, width, height);
      return TRUE;
    default:
      break;
    }
  g_set_error (error, TL_ERROR, TL_ERROR_INVALID, _("unknown view"));
  return FALSE;
}
