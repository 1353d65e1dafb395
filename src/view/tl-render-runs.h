/* tl-render-runs.h — which kernel runs of a record a view draws.
 *
 * For the views of tl_render_draw: the runs asked for by id (or the
 * default ones), with a message that names what the record has when an
 * id is not there, and a run's title as the pictures print it.
 */
#pragma once

#include "view/tl-render-request.h"

G_BEGIN_DECLS

/* What a view needs of a run: nothing, block records, or block records
 * or a plan (the grid shows a planned rung's tiles without timings). */
enum { TL_RENDER_NEED_NOTHING, TL_RENDER_NEED_BLOCKS, TL_RENDER_NEED_BLOCKS_OR_PLAN };

/* the run of kernel id; NULL with an error listing the record's kernels */
const TlKernelRun *tl_render_find_kernel  (const TlRunRecord *record, const char *id, GError **error);
/* The runs a view shows: the comma-separated ids of kernels, or (NULL
 * or empty) the first run that has what need asks, or all of them with
 * all_by_default.  NULL with error: none. */
GPtrArray         *tl_render_select_runs  (const TlRunRecord *record, const char *kernels, int need_blocks,
                                           gboolean all_by_default, GError **error);
/* FALSE with error when input is a Gauss record alone */
gboolean           tl_render_need_record  (const TlRenderInput *input, const char *view, GError **error);
char              *tl_render_kernel_title (const TlKernelRun *run);

G_END_DECLS
