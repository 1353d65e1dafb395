/* tl-locale.h — messages in the user's language, installed or from a build tree.
 *
 * Tilelab's catalogues are looked for in $TILELAB_LOCALEDIR when it is set,
 * in the build tree's po/ when the running program lies inside the build
 * tree (build/ui/tilelab, build/src/cli/tilelab-cli, the tests), and in the
 * configured LOCALEDIR otherwise — so `LANGUAGE=de build/ui/tilelab` speaks
 * German as the installed app does.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* setlocale (LC_ALL, ""), then binds the text domain (UTF-8) there. */
void        tl_locale_init (void);
/* where the catalogues are looked for */
const char *tl_locale_dir  (void);

G_END_DECLS
