/* main.c — starts the Tilelab desktop application. */
#include <locale.h>
#include <glib/gi18n-lib.h>
#include "tl-application.h"

int
main (int argc, char **argv)
{
  /* Tilelab draws with Cairo, never with OpenGL: without this GDK's X11
   * backend loads the GL driver (Mesa and LLVM) at start-up just to choose
   * visuals, about a third of the time to the first frame */
  g_setenv ("GDK_GL", "disable", FALSE);
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, TL_LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  g_autoptr (TlApplication) app = tl_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
