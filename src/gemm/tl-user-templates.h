/* tl-user-templates.h — kernel files to start from.
 *
 * Rungs of the ladder written as user kernel files (the files of gpu/user/:
 * the declarations Tilelab reads, the marks of tilelab.cuh, and the rung's
 * own kernel body, copied in from the rung's source by tools/embed-text.py),
 * embedded at build time.  `tilelab-cli kernel new --from ID` writes one;
 * the app offers them too.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The template ids, e.g. "gemm-03-smem16" (a NULL-terminated array of
 * static strings; free the array with g_free). */
const char **tl_user_template_ids (void);
/* The text of template id, or NULL when there is none. */
const char  *tl_user_template_text (const char *id);
/* The template written when none is named. */
#define TL_USER_TEMPLATE_DEFAULT "gemm-02-coalesced"

G_END_DECLS
