/* main.c — starts the Tilelab desktop application. */
#include "core/tl-locale.h"
#include "tl-application.h"

int
main (int argc, char **argv)
{
  /* Tilelab draws with Cairo, never with OpenGL: without this GDK's X11
   * backend loads the GL driver (Mesa and LLVM) at start-up just to choose
   * visuals, about a third of the time to the first frame */
  g_setenv ("GDK_GL", "disable", FALSE);
  tl_locale_init ();

  g_autoptr (TlApplication) app = tl_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
