// tl-number.cc — the C++ shim behind tl-number.h: fast_float parses,
// the standard library's std::to_chars prints.
#include "io/tl-number.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <fast_float/fast_float.h>

gsize
tl_number_parse (const char *text, gsize len, char decimal_point, gboolean as_float32, double *out)
{
  fast_float::parse_options options (fast_float::chars_format::general, decimal_point);
  if (as_float32)
    {
      float f = 0;
      auto r = fast_float::from_chars_advanced (text, text + len, f, options);
      if (r.ec != std::errc ())
        return 0;
      *out = f;
      return (gsize) (r.ptr - text);
    }
  double d = 0;
  auto r = fast_float::from_chars_advanced (text, text + len, d, options);
  if (r.ec != std::errc ())
    return 0;
  *out = d;
  return (gsize) (r.ptr - text);
}

// std::to_chars with no format is the shortest text that reads back as
// exactly v (Ryu in libstdc++), fixed or scientific, whichever is shorter;
// "-0" keeps its sign, so it reads back bit for bit
template <typename T>
static gsize
format_shortest (T v, gboolean mark_float, char *buf)
{
  if (v == 0 && !std::signbit (v))
    {
      /* the dense form of a sparse matrix is mostly this */
      memcpy (buf, mark_float ? "0.0" : "0", mark_float ? 4 : 2);
      return mark_float ? 3 : 1;
    }
  if (std::isnan (v))
    {
      memcpy (buf, "nan", 4); // one spelling, whatever the sign bit
      return 3;
    }
  if (std::isinf (v))
    {
      const char *text = v < 0 ? "-inf" : "inf";
      gsize n = strlen (text);
      memcpy (buf, text, n + 1);
      return n;
    }
  auto r = std::to_chars (buf, buf + TL_NUMBER_BUF - 3, v);
  gsize n = (gsize) (r.ptr - buf);
  if (mark_float && std::trunc (v) == v && memchr (buf, '.', n) == nullptr
      && memchr (buf, 'e', n) == nullptr)
    {
      buf[n++] = '.';
      buf[n++] = '0';
    }
  buf[n] = '\0';
  return n;
}

gsize
tl_number_format_double (double v, gboolean mark_float, char *buf)
{
  return format_shortest (v, mark_float, buf);
}

gsize
tl_number_format_float (float v, gboolean mark_float, char *buf)
{
  return format_shortest (v, mark_float, buf);
}

gsize
tl_number_format_int32 (gint32 v, char *buf)
{
  char digits[16];
  int n = 0;
  // through unsigned: −2³¹ has no positive twin in int32
  guint32 u = v < 0 ? 0u - (guint32) v : (guint32) v;
  do
    digits[n++] = (char) ('0' + u % 10);
  while ((u /= 10) != 0);
  gsize len = 0;
  if (v < 0)
    buf[len++] = '-';
  while (n > 0)
    buf[len++] = digits[--n];
  buf[len] = '\0';
  return len;
}
