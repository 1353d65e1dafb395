/* test-gui-keys.c — part of test-gui: F10 and F9, and the shortcuts window listing the keys the window handles. */
#include "test-gui-window.h"

#include <math.h>
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

/* F10 opens the main menu; F9 hides and shows the sidebar */
void
test_menu_and_sidebar_keys (void)
{
  g_auto (GStrv) menu = gtk_application_get_actions_for_accel (GTK_APPLICATION (app), "F10");
  g_auto (GStrv) sidebar = gtk_application_get_actions_for_accel (GTK_APPLICATION (app), "F9");
  g_assert_true (menu && g_strv_contains ((const char *const *) menu, "win.menu"));
  g_assert_true (sidebar && g_strv_contains ((const char *const *) sidebar, "win.sidebar"));

  g_action_group_activate_action (G_ACTION_GROUP (win), "sidebar", NULL);
  g_autoptr (GVariant) hidden = g_action_group_get_action_state (G_ACTION_GROUP (win), "sidebar");
  g_assert_false (g_variant_get_boolean (hidden));
  g_action_group_activate_action (G_ACTION_GROUP (win), "sidebar", NULL);
  g_autoptr (GVariant) shown = g_action_group_get_action_state (G_ACTION_GROUP (win), "sidebar");
  g_assert_true (g_variant_get_boolean (shown));
}

static gboolean
contrast_on (TlWindow *w)
{
  g_autoptr (GVariant) state = g_action_group_get_action_state (G_ACTION_GROUP (w), "high-contrast");
  return g_variant_get_boolean (state)
         && gtk_style_context_has_class (gtk_widget_get_style_context (GTK_WIDGET (w)), "high-contrast");
}

static char *
theme_name (void)
{
  char *name = NULL;
  g_object_get (gtk_settings_get_default (), "gtk-theme-name", &name, NULL);
  return name;
}

/* Ctrl+H is the user's wish, not one window's: kept in the settings, a
 * window opened later (or the app started again) comes up in high
 * contrast, and Ctrl+H there turns it off everywhere, the theme back to
 * what it was. */
void
test_high_contrast_follows (void)
{
  g_autofree char *before = theme_name ();
  g_autoptr (GSettings) settings = g_settings_new ("org.tilelab.Tilelab");
  g_assert_false (contrast_on (win));
  gui_test_press_key (win, GDK_KEY_h, GDK_CONTROL_MASK);
  g_assert_true (contrast_on (win));
  g_assert_true (g_settings_get_boolean (settings, "high-contrast"));
  g_autofree char *hc = theme_name ();
  g_assert_true (g_str_has_prefix (hc, "HighContrast"));

  TlWindow *later = tl_window_new (GTK_APPLICATION (app));
  gtk_widget_show (GTK_WIDGET (later));
  g_assert_true (gui_test_wait_until (gui_test_window_settled, later, 30));
  g_assert_true (contrast_on (later));
  gui_test_press_key (later, GDK_KEY_h, GDK_CONTROL_MASK);
  g_assert_false (contrast_on (later));
  g_assert_false (contrast_on (win));
  g_assert_false (g_settings_get_boolean (settings, "high-contrast"));
  g_autofree char *after = theme_name ();
  g_assert_cmpstr (after, ==, before);
  gtk_widget_destroy (GTK_WIDGET (later));
  gtk_window_present (GTK_WINDOW (win));
}

/* a key in the shortcuts window that nothing handles, or an accelerator it
 * does not list, fails */
static void
check_listed_key (const char *accel)
{
  guint key;
  GdkModifierType mods;
  g_auto (GStrv) actions = gtk_application_get_actions_for_accel (GTK_APPLICATION (app), accel);
  gtk_accelerator_parse (accel, &key, &mods);
  g_assert_cmpuint (key, !=, 0);
  /* an app accelerator, a key of the Gauss player, or a clicker's key the window takes */
  gboolean works = (actions && actions[0]) || tl_player_action_for_key (key, mods) != TL_PLAYER_NONE;
  if (!works)
    g_error ("the shortcuts window lists %s, which does nothing", accel);
}

typedef struct
{
  guint key;
  GdkModifierType mods;
} Accel;

/* keys, one accelerator or a range ("<Alt>1...<Alt>8": each of them),
 * checked and added to listed */
static void
list_keys (GArray *listed, const char *keys)
{
  g_auto (GStrv) ends = g_strsplit (keys, "...", 2);
  Accel first, last;
  gtk_accelerator_parse (ends[0], &first.key, &first.mods);
  last = first;
  if (ends[1] != NULL)
    gtk_accelerator_parse (ends[1], &last.key, &last.mods);
  g_assert_cmpuint (first.mods, ==, last.mods);
  g_assert_cmpuint (first.key, <=, last.key);
  for (Accel a = first; a.key <= last.key; a.key++)
    {
      g_autofree char *accel = gtk_accelerator_name (a.key, a.mods);
      check_listed_key (accel);
      g_array_append_val (listed, a);
    }
}

void
test_shortcuts_window_lists_the_keys (void)
{
  g_autoptr (GBytes) ui = g_resources_lookup_data ("/org/tilelab/Tilelab/gtk/help-overlay.ui", 0, NULL);
  g_assert_nonnull (ui);
  g_autoptr (GString) text = g_string_new_len (g_bytes_get_data (ui, NULL), g_bytes_get_size (ui));
  g_string_replace (text, "&lt;", "<", 0);
  g_string_replace (text, "&gt;", ">", 0);
  g_autoptr (GRegex) re = g_regex_new ("<property name=\"accelerator\">([^<]*(<[A-Za-z]+>[^<]*)*)</property>",
                                       0, 0, NULL);
  g_autoptr (GMatchInfo) match = NULL;
  g_autoptr (GArray) listed = g_array_new (FALSE, FALSE, sizeof (Accel));

  for (g_regex_match (re, text->str, 0, &match); g_match_info_matches (match); g_match_info_next (match, NULL))
    {
      g_autofree char *accels = g_match_info_fetch (match, 1);
      g_auto (GStrv) keys = g_strsplit (accels, " ", -1);
      for (guint i = 0; keys[i]; i++)
        if (*keys[i])
          list_keys (listed, keys[i]);
    }
  g_assert_cmpuint (listed->len, >, 20);
  /* every accelerator the app sets is listed */
  g_auto (GStrv) actions = gtk_application_list_action_descriptions (GTK_APPLICATION (app));
  for (guint i = 0; actions[i]; i++)
    {
      g_auto (GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), actions[i]);
      for (guint j = 0; accels[j]; j++)
        {
          Accel a;
          gboolean found = FALSE;
          gtk_accelerator_parse (accels[j], &a.key, &a.mods);
          for (guint k = 0; k < listed->len; k++)
            found |= g_array_index (listed, Accel, k).key == a.key && g_array_index (listed, Accel, k).mods == a.mods;
          if (!found)
            g_error ("%s (%s) is not in the shortcuts window", accels[j], actions[i]);
        }
    }
}

/* The shortcuts window fits a 1024-px screen: each shortcut's words on
 * one line (the views' "Matrices, Compare, …, Why Faster?" beside eight
 * Alt keys) made it wider than that, its second column cut. */
void
test_shortcuts_window_fits (void)
{
  GtkShortcutsWindow *overlay = gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (win));
  g_assert_nonnull (overlay);
  gtk_widget_show (GTK_WIDGET (overlay));
  gui_test_pump (0.3);
  /* the width it asks for: its first allocation can come before its pages */
  int width;
  gtk_widget_get_preferred_width (GTK_WIDGET (overlay), NULL, &width);
  g_test_message ("the shortcuts window: %d px wide", width);
  gtk_widget_hide (GTK_WIDGET (overlay));
  /* shown, it was realized; the window keeps it (unrealized) to its end,
   * when GTK 3 would drop its realized window's list unfreed (LSan) */
  gtk_widget_unrealize (GTK_WIDGET (overlay));
  if (width > 1024)
    g_error ("the shortcuts window is %d px wide, more than a 1024-px screen", width);
}
