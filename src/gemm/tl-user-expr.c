/* tl-user-expr.c — integer expressions of m, n, k and elem. */
#include "gemm/tl-user-expr.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

/* Values stay far below what 64 bits hold, so no operation can overflow:
 * every operand and result is at most 2⁴⁰ in size. */
#define LIMIT (G_GINT64_CONSTANT (1) << 40)
#define MAX_DEPTH 64

typedef struct
{
  const char *text;
  gsize at;
  const TlUserVars *vars; /* NULL: syntax only */
  int depth;
  gsize error_at;
  char *error;
} Parser;

static gboolean expr (Parser *p, gint64 *out);

static gboolean
fail (Parser *p, gsize at, char *message)
{
  if (p->error == NULL)
    {
      p->error_at = at;
      p->error = message;
    }
  else
    g_free (message);
  return FALSE;
}

static void
skip_space (Parser *p)
{
  while (p->text[p->at] == ' ' || p->text[p->at] == '\t')
    p->at++;
}

static gboolean
accept (Parser *p, char c)
{
  skip_space (p);
  if (p->text[p->at] != c)
    return FALSE;
  p->at++;
  return TRUE;
}

static gboolean
in_range (Parser *p, gsize at, gint64 v)
{
  if (v > LIMIT || v < -LIMIT)
    return fail (p, at, g_strdup (_("the value is too large")));
  return TRUE;
}

static gboolean
number (Parser *p, gint64 *out)
{
  gsize start = p->at;
  gint64 v = 0;
  while (g_ascii_isdigit (p->text[p->at]))
    {
      v = v * 10 + (p->text[p->at++] - '0');
      if (v > LIMIT)
        return fail (p, start, g_strdup (_("the number is too large")));
    }
  *out = v;
  return TRUE;
}

static gboolean
divide (Parser *p, gsize at, char op, gint64 a, gint64 b, gint64 *out)
{
  if (b == 0)
    {
      if (p->vars == NULL)
        {
          *out = 1;
          return TRUE;
        }
      return fail (p, at, g_strdup (_("division by zero")));
    }
  *out = op == '/' ? a / b : a % b;
  return TRUE;
}

/* name(a, b): the two-argument functions. */
static gboolean
call (Parser *p, const char *name, gsize at, gint64 *out)
{
  gint64 a = 0, b = 0;
  if (!expr (p, &a))
    return FALSE;
  if (!accept (p, ','))
    return fail (p, p->at, g_strdup_printf (_("%s takes two values: expected “,”"), name));
  if (!expr (p, &b))
    return FALSE;
  if (!accept (p, ')'))
    return fail (p, p->at, g_strdup (_("expected “)”")));
  if (strcmp (name, "min") == 0)
    *out = MIN (a, b);
  else if (strcmp (name, "max") == 0)
    *out = MAX (a, b);
  else if (b <= 0 && p->vars != NULL)
    return fail (p, at, g_strdup_printf (_("ceil_div(a, b) needs b > 0 (b is %" PRId64 ")"),
                                         b));
  else
    *out = b > 0 ? (a + b - 1) / b : 1;
  return TRUE;
}

static gboolean
word (Parser *p, gint64 *out)
{
  gsize start = p->at;
  while (g_ascii_isalnum (p->text[p->at]) || p->text[p->at] == '_')
    p->at++;
  g_autofree char *name = g_strndup (p->text + start, p->at - start);
  const TlUserVars *v = p->vars;
  if (strcmp (name, "m") == 0 || strcmp (name, "n") == 0 || strcmp (name, "k") == 0
      || strcmp (name, "elem") == 0)
    {
      *out = v == NULL ? 1
             : name[0] == 'm' ? v->m
             : name[0] == 'n' ? v->n
             : name[0] == 'k' ? v->k
                              : v->elem;
      return TRUE;
    }
  if (strcmp (name, "ceil_div") == 0 || strcmp (name, "min") == 0 || strcmp (name, "max") == 0)
    {
      if (!accept (p, '('))
        return fail (p, p->at, g_strdup_printf (_("expected “(” after %s"), name));
      return call (p, name, start, out);
    }
  return fail (p, start,
               g_strdup_printf (_("unknown name “%s”: an expression knows m, n, k, elem, "
                                  "ceil_div(a, b), min(a, b) and max(a, b)"),
                                name));
}

static gboolean
primary (Parser *p, gint64 *out)
{
  skip_space (p);
  char c = p->text[p->at];
  if (g_ascii_isdigit (c))
    return number (p, out);
  if (g_ascii_isalpha (c) || c == '_')
    return word (p, out);
  if (c == '(')
    {
      p->at++;
      if (!expr (p, out))
        return FALSE;
      if (!accept (p, ')'))
        return fail (p, p->at, g_strdup (_("expected “)”")));
      return TRUE;
    }
  if (c == '\0')
    return fail (p, p->at, g_strdup (_("the expression ends too early")));
  return fail (p, p->at, g_strdup_printf (_("unexpected “%c”"), c));
}

static gboolean
unary (Parser *p, gint64 *out)
{
  if (++p->depth > MAX_DEPTH)
    return fail (p, p->at, g_strdup (_("the expression is nested too deeply")));
  gboolean ok;
  if (accept (p, '-'))
    {
      ok = unary (p, out);
      *out = -*out;
    }
  else
    ok = primary (p, out);
  p->depth--;
  return ok;
}

static gboolean
term (Parser *p, gint64 *out)
{
  if (!unary (p, out))
    return FALSE;
  for (;;)
    {
      skip_space (p);
      char op = p->text[p->at];
      if (op != '*' && op != '/' && op != '%')
        return TRUE;
      gsize at = p->at++;
      gint64 rhs = 0;
      if (!unary (p, &rhs))
        return FALSE;
      if (op == '*')
        {
          if (rhs != 0 && (*out > LIMIT / ABS (rhs) || *out < -LIMIT / ABS (rhs)))
            return fail (p, at, g_strdup (_("the value is too large")));
          *out *= rhs;
        }
      else if (!divide (p, at, op, *out, rhs, out))
        return FALSE;
    }
}

static gboolean
expr (Parser *p, gint64 *out)
{
  if (++p->depth > MAX_DEPTH)
    return fail (p, p->at, g_strdup (_("the expression is nested too deeply")));
  gboolean ok = term (p, out);
  while (ok)
    {
      skip_space (p);
      char op = p->text[p->at];
      if (op != '+' && op != '-')
        break;
      gsize at = p->at++;
      gint64 rhs = 0;
      ok = term (p, &rhs) && in_range (p, at, op == '+' ? *out + rhs : *out - rhs);
      if (ok)
        *out = op == '+' ? *out + rhs : *out - rhs;
    }
  p->depth--;
  return ok;
}

gboolean
tl_user_expr_eval (const char *text, const TlUserVars *vars, gint64 *out, gsize *error_at,
                   char **error)
{
  g_return_val_if_fail (text != NULL && out != NULL, FALSE);
  Parser p = { .text = text, .vars = vars };
  gint64 value = 0;
  gboolean ok = expr (&p, &value);
  skip_space (&p);
  if (ok && p.text[p.at] != '\0')
    ok = fail (&p, p.at, g_strdup_printf (_("unexpected “%c”"), p.text[p.at]));
  if (!ok)
    {
      if (error_at)
        *error_at = p.error_at;
      if (error)
        *error = g_steal_pointer (&p.error);
      g_free (p.error);
      return FALSE;
    }
  *out = value;
  return TRUE;
}
