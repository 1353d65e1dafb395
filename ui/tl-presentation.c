/* tl-presentation.c — what presenting and high contrast do to a window. */
#include "tl-presentation.h"

#include <glib/gi18n-lib.h>
#include "tl-view-style.h"

gboolean
tl_presentation_high_contrast (GtkWidget *window, gboolean asked)
{
  return asked || tl_view_style_theme_is_high_contrast (window);
}

/* The theme Ctrl+H replaced, kept on the screen's settings that every
 * window of the app shares. */
#define THEME_BEFORE "tl-theme-before-contrast"

void
tl_presentation_set_contrast_theme (GtkWidget *window, gboolean on)
{
  GtkSettings *settings = gtk_widget_get_settings (window);
  g_autofree char *theme = NULL;
  gboolean prefer_dark = FALSE;
  const char *before = g_object_get_data (G_OBJECT (settings), THEME_BEFORE);

  g_object_get (settings, "gtk-theme-name", &theme, "gtk-application-prefer-dark-theme", &prefer_dark, NULL);
  if (on && before == NULL && !(theme && g_str_has_prefix (theme, "HighContrast")))
    {
      gboolean dark = prefer_dark || (theme && g_str_has_suffix (theme, "-dark"));
      g_object_set_data_full (G_OBJECT (settings), THEME_BEFORE, g_strdup (theme ? theme : "Adwaita"), g_free);
      g_object_set (settings, "gtk-theme-name", dark ? "HighContrastInverse" : "HighContrast", NULL);
    }
  else if (!on && before)
    {
      g_object_set (settings, "gtk-theme-name", before, NULL);
      g_object_set_data (G_OBJECT (settings), THEME_BEFORE, NULL);
    }
}

static void
set_css_class (GtkWidget *widget, const char *name, gboolean on)
{
  GtkStyleContext *style = gtk_widget_get_style_context (widget);
  if (on)
    gtk_style_context_add_class (style, name);
  else
    gtk_style_context_remove_class (style, name);
}

void
tl_presentation_mark (GtkWidget *window, gboolean on, gboolean high_contrast)
{
  set_css_class (window, "presentation", on);
  set_css_class (window, "high-contrast", high_contrast);
}

void
tl_presentation_hold_screen (GtkWindow *window, gboolean on, guint *inhibit_cookie)
{
  GtkApplication *app = gtk_window_get_application (window);

  if (on && *inhibit_cookie == 0 && app)
    *inhibit_cookie = gtk_application_inhibit (app, window, GTK_APPLICATION_INHIBIT_IDLE, _("Presenting"));
  else if (!on && *inhibit_cookie && app)
    {
      gtk_application_uninhibit (app, *inhibit_cookie);
      *inhibit_cookie = 0;
    }
  if (on)
    gtk_window_fullscreen (window);
  else
    gtk_window_unfullscreen (window);
}
