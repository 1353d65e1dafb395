/* tl-kernel-source.h — what a rung's source file says about itself.
 *
 * Every rung is one file whose header comment says what changed from the
 * rung below and which bottleneck it attacks (gpu/gemm/gemm-NN-*.cu); its
 * kernels are the `__global__` functions in it, or — for a rung that
 * instantiates a shared template (rungs 12 and 16 use tl-gemm-simt.cuh) —
 * in the headers it includes.  The sources travel inside the programs as
 * a GResource (resources/list-sources.sh), so a laptop without the source
 * tree still shows them.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* The bundled text of source_path (relative to the source tree, as the
 * registry names it), or NULL when this program does not carry it. */
char *tl_kernel_source_text (const char *source_path);

/* The header's paragraph that begins with `label` ("What changed",
 * "Bottleneck attacked", "What it is"), its comment marks removed, its
 * lines joined into one and its *emphasis* read as plain words; NULL when
 * the header has none. */
char *tl_kernel_source_paragraph (const char *text, const char *label);

/* The rung the header says it changed from ("What changed from rung 8"),
 * 0 when it names none. */
int   tl_kernel_source_changed_from (const char *text);

/* The `__global__` and `__device__` functions of text (not the
 * `__host__ __device__` helpers), each from its template line to its
 * closing brace, separated by a blank line; when text defines none, those
 * of the project headers it includes (looked up beside source_path).
 * NULL when there are none. */
char *tl_kernel_source_kernels (const char *text, const char *source_path);

G_END_DECLS
