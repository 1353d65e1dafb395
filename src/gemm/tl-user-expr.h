/* tl-user-expr.h — the integer expressions of a kernel file's geometry.
 *
 * A user kernel declares its grid, block and dynamic shared memory as
 * expressions of the problem (gpu/tilelab.cuh shows the form):
 *
 *   // tilelab: grid = ceil_div(n, 16), ceil_div(m, 16)
 *
 * Integers (64-bit), the variables m, n, k and elem (the element's size
 * in bytes), + − * / % with C's precedence, unary minus, parentheses,
 * and ceil_div(a, b), min(a, b), max(a, b).  Division truncates as in C.
 * Evaluated directly from the text by recursive descent (the texts are a
 * line long; nesting deeper than 64 is refused).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  gint64 m, n, k, elem;
} TlUserVars;

/* Evaluates text with vars.  On failure returns FALSE with *error_at (the
 * byte offset in text where the problem is) and *error (a sentence, to
 * g_free).  With vars NULL only the syntax is checked (every variable is
 * 1, and a division by zero is not an error). */
gboolean tl_user_expr_eval (const char *text, const TlUserVars *vars, gint64 *out, gsize *error_at,
                            char **error);

G_END_DECLS
