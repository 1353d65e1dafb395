/* tl-application.c — start-up, command line, app actions and accelerators. */
#include "tl-application.h"

#include <signal.h>
#include <time.h>
#include <glib/gi18n-lib.h>
#include "tl-config.h"
#include "tl-window.h"
#include "core/tl-memory.h"
#include "remote/tl-remote-user.h"

/* Room kept beside every matrix for the window's own work: its threads'
 * stacks, fonts and pictures are allocated without asking, and GLib
 * aborts when one of those fails (under ulimit -v a load that took the
 * last of the address space ended the app at its next thread). */
#define KEPT_FOR_THE_WINDOW ((guint64) 256 << 20)

struct _TlApplication
{
  GtkApplication parent_instance;
  char *generate;   /* --generate SPEC:N */
};

G_DEFINE_FINAL_TYPE (TlApplication, tl_application, GTK_TYPE_APPLICATION)

/* TILELAB_PROBE=first-frame: print when the first frame is drawn (CLOCK_MONOTONIC,
 * so a launcher can subtract its own start time) and the CPU time the
 * process had used by then (what the machine's load does not change), and quit. */
static gboolean
first_frame_cb (GtkWidget *widget, cairo_t *cr, gpointer app)
{
  struct timespec cpu;
  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &cpu);
  g_print ("tilelab-probe: first-frame-monotonic-us %" G_GINT64_FORMAT " cpu-us %" G_GINT64_FORMAT "\n",
           g_get_monotonic_time (), (gint64) cpu.tv_sec * G_USEC_PER_SEC + cpu.tv_nsec / 1000);
  g_signal_handlers_disconnect_by_func (widget, first_frame_cb, app);
  g_idle_add_once ((GSourceOnceFunc) g_application_quit, app);
  return FALSE;
}

static TlWindow *
ensure_window (TlApplication *self)
{
  GtkWindow *win = gtk_application_get_active_window (GTK_APPLICATION (self));
  if (win == NULL)
    {
      win = GTK_WINDOW (tl_window_new (GTK_APPLICATION (self)));
      if (g_strcmp0 (g_getenv ("TILELAB_PROBE"), "first-frame") == 0)
        g_signal_connect_after (win, "draw", G_CALLBACK (first_frame_cb), self);
      if (self->generate)
        {
          g_autoptr (GError) error = NULL;
          if (!tl_window_generate_from_option (TL_WINDOW (win), self->generate, &error))
            {
              g_printerr ("tilelab: %s\n", error->message);
              tl_window_report (TL_WINDOW (win), GTK_MESSAGE_ERROR, error->message);
            }
        }
    }
  return TL_WINDOW (win);
}

static void
tl_application_activate (GApplication *app)
{
  gtk_window_present (GTK_WINDOW (ensure_window (TL_APPLICATION (app))));
}

static void
tl_application_open (GApplication *app, GFile **files, int n_files, const char *hint)
{
  TlWindow *win = ensure_window (TL_APPLICATION (app));
  tl_window_open_files (win, files, n_files);
  gtk_window_present (GTK_WINDOW (win));
}

static int
tl_application_handle_local_options (GApplication *app, GVariantDict *options)
{
  TlApplication *self = TL_APPLICATION (app);
  const char *spec = NULL;

  if (g_variant_dict_lookup (options, "version", "b", NULL))
    {
      g_print ("tilelab %s\n", TL_VERSION);
      return 0;
    }
  /* a window of its own: an instance of its own, which does not pass its
   * files on to the running one.  --generate fills the new window's A and
   * B, so it asks for one too (a running window would never see it), as
   * does a start-up probe (it times a start of its own). */
  if (g_variant_dict_contains (options, "new-window") || g_variant_dict_contains (options, "generate")
      || g_getenv ("TILELAB_PROBE") != NULL)
    g_application_set_flags (app, g_application_get_flags (app) | G_APPLICATION_NON_UNIQUE);
  if (g_variant_dict_lookup (options, "generate", "&s", &spec))
    {
      if (strrchr (spec, ':') == NULL)
        {
          g_printerr (_("tilelab: --generate wants SPEC:N, e.g. random-uniform:512\n"));
          return 2;
        }
      g_free (self->generate);
      self->generate = g_strdup (spec);
    }
  return -1;
}

static void
quit_action (GSimpleAction *a, GVariant *p, gpointer app)
{
  g_application_quit (app);
}

static void
about_action (GSimpleAction *a, GVariant *p, gpointer app)
{
  static const char *authors[] = { "The Tilelab authors", NULL };
  gtk_show_about_dialog (gtk_application_get_active_window (app),
                         "program-name", "Tilelab",
                         "logo-icon-name", TL_APPLICATION_ID,
                         "version", TL_VERSION,
                         "comments", _("See how GPU matrix kernels work: heatmaps, timings, tiles and waves."),
                         "license-type", GTK_LICENSE_GPL_3_0,
                         "authors", authors,
                         NULL);
}

static const GActionEntry app_entries[] = {
  { "quit", quit_action },
  { "about", about_action },
};

static void
tl_application_startup (GApplication *app)
{
  G_APPLICATION_CLASS (tl_application_parent_class)->startup (app);
  tl_memory_keep_back (KEPT_FOR_THE_WINDOW);
  /* an export past ulimit -f fails with "File too large" (and its
   * temporary is removed) instead of SIGXFSZ killing the app */
  signal (SIGXFSZ, SIG_IGN);
  /* user kernels run in a worker process: tilelab-cli serve --stdio */
  tl_remote_user_install ();

  g_action_map_add_action_entries (G_ACTION_MAP (app), app_entries, G_N_ELEMENTS (app_entries), app);
  struct { const char *action; const char *accels[3]; } accels[] = {
    { "app.quit", { "<Control>q", NULL } },
    { "win.open-a", { "<Control>o", NULL } },
    { "win.open-b", { "<Control><Shift>o", NULL } },
    { "win.open-run", { "<Control>j", NULL } },
    { "win.open-kernel", { "<Control>k", NULL } },
    { "win.generate(3)", { "<Control>g", NULL } },
    { "win.run", { "<Control>r", NULL } },
    { "win.cancel", { "Escape", NULL } },
    { "win.fit", { "<Control>0", NULL } },
    { "win.copy-csv", { "<Control><Shift>c", NULL } },
    { "win.export", { "<Control>e", NULL } },
    { "win.presentation", { "F11", "F5", NULL } },
    { "win.high-contrast", { "<Control>h", NULL } },
    { "win.sidebar", { "F9", NULL } },
    { "win.menu", { "F10", NULL } },
    { "win.show-help-overlay", { "F1", "<Control>question", NULL } },
    { "win.view('matrices')", { "<Alt>1", NULL } },
    { "win.view('compare')", { "<Alt>2", NULL } },
    { "win.view('blocks')", { "<Alt>3", NULL } },
    { "win.view('gauss')", { "<Alt>4", NULL } },
    { "win.view('source')", { "<Alt>5", NULL } },
    { "win.view('device')", { "<Alt>6", NULL } },
    { "win.view('roofline')", { "<Alt>7", NULL } },
    { "win.view('lesson')", { "<Alt>8", NULL } },
  };
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (app), accels[i].action, accels[i].accels);

  g_autoptr (GtkCssProvider) css = gtk_css_provider_new ();
  gtk_css_provider_load_from_resource (css, "/org/tilelab/Tilelab/tilelab.css");
  gtk_style_context_add_provider_for_screen (gdk_screen_get_default (), GTK_STYLE_PROVIDER (css),
                                             GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  gtk_window_set_default_icon_name (TL_APPLICATION_ID);
}

static void
tl_application_finalize (GObject *object)
{
  g_free (TL_APPLICATION (object)->generate);
  G_OBJECT_CLASS (tl_application_parent_class)->finalize (object);
}

static void
tl_application_class_init (TlApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = tl_application_finalize;
  app_class->activate = tl_application_activate;
  app_class->open = tl_application_open;
  app_class->startup = tl_application_startup;
  app_class->handle_local_options = tl_application_handle_local_options;
}

static void
tl_application_init (TlApplication *self)
{
  static const GOptionEntry entries[] = {
    { "generate", 'g', 0, G_OPTION_ARG_STRING, NULL,
      N_("Start with A and B generated: SPEC:N, e.g. random-uniform:512 (both N×N)"), N_("SPEC:N") },
    { "new-window", 0, 0, G_OPTION_ARG_NONE, NULL,
      N_("Open a window of its own, beside a running Tilelab"), NULL },
    { "version", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Print the version and exit"), NULL },
    { NULL }
  };
  g_application_add_main_option_entries (G_APPLICATION (self), entries);
  g_application_set_option_context_parameter_string (G_APPLICATION (self), _("[FILE…]"));
  g_application_set_option_context_summary (G_APPLICATION (self),
    _("Open matrices (.mtx, .npy, .csv, .tsv, .txt) as A and B, or run records (.json)."));
}

static TlApplication *
application_new (GApplicationFlags flags)
{
  return g_object_new (TL_TYPE_APPLICATION,
                       "application-id", TL_APPLICATION_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN | flags,
                       "resource-base-path", "/org/tilelab/Tilelab",
                       NULL);
}

/* One instance of its own, which needs no session bus: what the tests and
 * tools that drive a window start. */
TlApplication *
tl_application_new (void)
{
  return application_new (G_APPLICATION_NON_UNIQUE);
}

/* The desktop app: one per session.  `tilelab RECORD.json` while it runs
 * hands the file to the running window over D-Bus (the record joins those
 * open there, the window comes to the front) and exits; --new-window opens
 * a second window beside it.  Without a session bus it runs on its own. */
TlApplication *
tl_application_new_for_desktop (void)
{
  return application_new (G_APPLICATION_DEFAULT_FLAGS);
}
