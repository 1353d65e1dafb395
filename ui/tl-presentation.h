/* tl-presentation.h — what presenting and high contrast do to a window.
 *
 * Presenting, the window fills the screen and the screen does not blank
 * (an idle inhibitor held while it lasts); the window carries the style
 * classes "presentation" and "high-contrast" that the stylesheet sizes
 * and colours by.  High contrast is asked for (Ctrl+H) or comes with a
 * high-contrast theme (the desktop's, or $GTK_THEME).  Asked for, it is
 * GTK's own HighContrast theme (built into GTK 3) for the widgets too, not
 * only bolder painting.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* asked, or the theme is a high-contrast one */
gboolean tl_presentation_high_contrast (GtkWidget *window, gboolean asked);
/* Ctrl+H: on, the widgets get GTK's HighContrast theme (HighContrastInverse
 * where the theme is dark), for every window and dialog of the app; off,
 * the theme they had.  A theme that is high contrast already stays. */
void     tl_presentation_set_contrast_theme (GtkWidget *window, gboolean on);
/* the style classes "presentation" and "high-contrast" on or off */
void     tl_presentation_mark          (GtkWidget *window, gboolean on, gboolean high_contrast);
/* full screen and no blanking while on (*inhibit_cookie holds the
 * inhibitor, 0: none); off gives both back */
void     tl_presentation_hold_screen   (GtkWindow *window, gboolean on, guint *inhibit_cookie);

G_END_DECLS
