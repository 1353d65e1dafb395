/* test-view-format.c — numbers, times, rates and shares as labels: units
 * that keep three significant digits, a typographic minus, powers of ten
 * in superscript, a point whatever the locale. */
#include <locale.h>
#include <math.h>

#include "view/tl-format.h"

typedef void (*Format) (double v, char *buf, gsize size);

static void
assert_formats (Format format, double v, const char *want)
{
  char buf[64];
  format (v, buf, sizeof buf);
  if (g_strcmp0 (buf, want) != 0)
    g_error ("%.17g formats as “%s”, expected “%s”", v, buf, want);
}

static void
test_values (void)
{
  assert_formats (tl_format_value, 0, "0");
  assert_formats (tl_format_value, 0.5, "0.5");
  assert_formats (tl_format_value, 1234.5, "1234");
  assert_formats (tl_format_value, 12345, "12345");
  assert_formats (tl_format_value, -2.25, "−2.25");
  assert_formats (tl_format_value, 1e5, "1e5");
  assert_formats (tl_format_value, 2.5e-4, "2.5e-4");
  assert_formats (tl_format_value, -1e-6, "−1e-6");
  assert_formats (tl_format_value, NAN, "NaN");
  assert_formats (tl_format_value, -INFINITY, "−∞");
  assert_formats (tl_format_index, 4096, "4096");
}

static void
test_powers (void)
{
  assert_formats (tl_format_power10, 1e5, "10⁵");
  assert_formats (tl_format_power10, 1e-3, "10⁻³");
  assert_formats (tl_format_power10, 1, "10⁰");
  /* not a power of ten: a plain number */
  assert_formats (tl_format_power10, 300, "300");
  g_assert_true (tl_format_for_decades (0.01, 1000) == tl_format_value);
  g_assert_true (tl_format_for_decades (1e-5, 10) == tl_format_power10);
  g_assert_true (tl_format_for_decades (1, 1e6) == tl_format_power10);
}

/* Three significant digits in the unit that keeps them below 1000. */
static void
test_times (void)
{
  assert_formats (tl_format_ms, 0.000048, "48.0 ns");
  assert_formats (tl_format_ms, 0.0259, "25.9 µs");
  assert_formats (tl_format_ms, 0.99971, "1.00 ms");
  assert_formats (tl_format_ms, 2.914, "2.91 ms");
  assert_formats (tl_format_ms, 1200, "1.20 s");
  assert_formats (tl_format_ms, NAN, "—");
}

static void
test_rates_and_shares (void)
{
  assert_formats (tl_format_gflops, 94.12, "94.1 GFLOP/s");
  assert_formats (tl_format_gflops, 47200, "47.2 TFLOP/s");
  assert_formats (tl_format_gflops, 0.25, "250 MFLOP/s");
  assert_formats (tl_format_percent, 0.4812, "0.48%");
  assert_formats (tl_format_percent, 7.24, "7.2%");
  assert_formats (tl_format_percent, 94.4, "94%");
  assert_formats (tl_format_percent, INFINITY, "—");
}

/* A decimal comma in the user's locale never reaches a label. */
static void
test_locale (void)
{
  if (setlocale (LC_NUMERIC, "de_DE.UTF-8") == NULL)
    {
      g_test_skip ("no de_DE.UTF-8 locale");
      return;
    }
  assert_formats (tl_format_value, 0.5, "0.5");
  assert_formats (tl_format_ms, 2.914, "2.91 ms");
  assert_formats (tl_format_gflops, 94.12, "94.1 GFLOP/s");
  setlocale (LC_NUMERIC, "C");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/format/values", test_values);
  g_test_add_func ("/format/powers", test_powers);
  g_test_add_func ("/format/times", test_times);
  g_test_add_func ("/format/rates-and-shares", test_rates_and_shares);
  g_test_add_func ("/format/locale", test_locale);
  return g_test_run ();
}
