/* tl-format.c — numbers, times, rates and shares as a reader sees them. */
#include "view/tl-format.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void
tl_format_value (double v, char *buf, gsize size)
{
  if (isnan (v))
    g_strlcpy (buf, "NaN", size);
  else if (isinf (v))
    g_strlcpy (buf, v > 0 ? "∞" : "−∞", size);
  else if (v == 0)
    g_strlcpy (buf, "0", size);
  else if (fabs (v) >= 1e5 || fabs (v) < 1e-3)
    {
      int e = (int) floor (log10 (fabs (v)));
      double m = v / pow (10.0, e);
      char mb[G_ASCII_DTOSTR_BUF_SIZE];
      g_ascii_formatd (mb, sizeof mb, "%.3g", m);
      if (g_strcmp0 (mb, "1") == 0)
        g_snprintf (buf, size, "1e%d", e);
      else if (g_strcmp0 (mb, "-1") == 0)
        g_snprintf (buf, size, "-1e%d", e);
      else
        g_snprintf (buf, size, "%se%d", mb, e);
    }
  else
    g_ascii_formatd (buf, size, fabs (v) >= 1e4 ? "%.0f" : "%.4g", v);
  /* a typographic minus, as wide as a plus */
  if (buf[0] == '-' && size > strlen (buf) + 2)
    {
      memmove (buf + 3, buf + 1, strlen (buf));
      memcpy (buf, "−", 3);
    }
}

void
tl_format_index (double v, char *buf, gsize size)
{
  g_snprintf (buf, size, "%.0f", v);
}

void
tl_format_power10 (double v, char *buf, gsize size)
{
  static const char *const sup[10] = { "⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹" };
  /* only powers of ten themselves */
  if (!(v > 0) || !isfinite (v) || fabs (log10 (v) - round (log10 (v))) > 1e-9)
    {
      tl_format_value (v, buf, size);
      return;
    }
  int e = (int) lround (log10 (v));
  GString *s = g_string_new ("10");
  if (e < 0)
    g_string_append (s, "⁻");
  char digits[16];
  g_snprintf (digits, sizeof digits, "%d", ABS (e));
  for (char *d = digits; *d; d++)
    g_string_append (s, sup[*d - '0']);
  g_strlcpy (buf, s->str, size);
  g_string_free (s, TRUE);
}

TlTickFormat
tl_format_for_decades (double lo, double hi)
{
  return lo >= 1e-3 && hi <= 1e4 ? tl_format_value : tl_format_power10;
}

void
tl_format_ms (double ms, char *buf, gsize size)
{
  char num[G_ASCII_DTOSTR_BUF_SIZE];
  const char *unit;
  double v;

  if (!isfinite (ms))
    {
      g_strlcpy (buf, "—", size);
      return;
    }
  /* three significant digits in the unit that keeps them below 1000
   * (999.7 µs rounds to "1.00 ms", not "1000 µs") */
  if (ms < 0.9995e-3)
    {
      v = ms * 1e6;
      unit = "ns";
    }
  else if (ms < 0.9995)
    {
      v = ms * 1000.0;
      unit = "µs";
    }
  else if (ms < 999.5)
    {
      v = ms;
      unit = "ms";
    }
  else
    {
      v = ms / 1000.0;
      unit = "s";
    }
  g_ascii_formatd (num, sizeof num, v >= 99.95 ? "%.0f" : v >= 9.995 ? "%.1f" : "%.2f", v);
  g_snprintf (buf, size, "%s %s", num, unit);
}

void
tl_format_percent (double percent, char *buf, gsize size)
{
  char num[G_ASCII_DTOSTR_BUF_SIZE];
  double a = fabs (percent);
  if (!isfinite (percent))
    {
      g_strlcpy (buf, "—", size);
      return;
    }
  /* two significant digits below 10 %, whole percents above */
  const char *fmt = a >= 9.95 ? "%.0f" : a >= 0.995 ? "%.1f" : a >= 0.0995 ? "%.2f" : "%.2g";
  g_ascii_formatd (num, sizeof num, fmt, percent);
  g_snprintf (buf, size, "%s%%", num);
}

void
tl_format_gflops (double gflops, char *buf, gsize size)
{
  char num[G_ASCII_DTOSTR_BUF_SIZE];
  const char *unit = "GFLOP/s";
  double v = gflops;

  if (gflops >= 1000.0)
    {
      v = gflops / 1000.0;
      unit = "TFLOP/s";
    }
  else if (gflops < 1.0)
    {
      v = gflops * 1000.0;
      unit = "MFLOP/s";
    }
  g_ascii_formatd (num, sizeof num, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v);
  g_snprintf (buf, size, "%s %s", num, unit);
}
