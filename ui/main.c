/* main.c — starts the Tilelab desktop application. */
#include "core/tl-locale.h"
#include "core/tl-memory.h"
#include "core/tl-save.h"
#include "core/tl-stop-signals.h"
#include "tl-application.h"

static gboolean
quit_cb (gpointer app)
{
  g_application_quit (app);
  return G_SOURCE_REMOVE;
}

/* Ctrl+C in the terminal that started it, SIGTERM (a logout), SIGHUP:
 * the app quits as from its menu, on its main loop (tl-stop-signals.h:
 * a second signal quits at once). */
static void
stop_cb (int signum, gpointer app)
{
  g_idle_add_full (G_PRIORITY_HIGH, quit_cb, app, NULL);
}

int
main (int argc, char **argv)
{
  /* Tilelab draws with Cairo, never with OpenGL: without this GDK's X11
   * backend loads the GL driver (Mesa and LLVM) at start-up just to choose
   * visuals, about a third of the time to the first frame */
  g_setenv ("GDK_GL", "disable", FALSE);
  /* one malloc arena, before any thread: what a remote run's thread freed
   * can go back (tl_remote_host), and no thread reserves an arena of its
   * own under ulimit -v */
  tl_memory_share_one_arena ();
  tl_locale_init ();

  g_autoptr (TlApplication) app = tl_application_new_for_desktop ();
  tl_stop_signals_watch (stop_cb, app);
  int status = g_application_run (G_APPLICATION (app), argc, argv);
  /* an export still being written is not whole: its temporary goes, the
   * file it would have replaced stays as it was */
  tl_save_abandon_all ();
  int signum = tl_stop_signals_caught ();
  return signum != 0 ? 128 + signum : status;
}
