/* fuzz-common.h — what every fuzz harness shares.
 *
 * Each harness defines LLVMFuzzerTestOneInput: libFuzzer calls it with
 * mutated inputs (tools/fuzz.sh NAME MINUTES), and fuzz-replay.c calls it
 * with every file of tests/fuzz/corpus/NAME/ under `meson test`, built by
 * whatever compiler the build uses.  A harness must never crash, hang or
 * allocate beyond the memory cap, which fuzz_init sets small: anything a
 * header asks beyond it has to be refused, not attempted.
 *
 * A file that loads is written back and read again: it must give the same
 * matrix (the writers print what reads back exactly).
 */
#pragma once

#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/tl-error.h"
#include "core/tl-matrix.h"
#include "io/tl-npy.h"
#include "paint/tl-render.h"

/* 64 MiB: the fuzzers run with -rss_limit_mb=2048 -malloc_limit_mb=512 */
#define FUZZ_MATRIX_CAP "67108864"
/* A tiny sparse .mtx may declare a dense matrix up to the cap (8 Mi
 * float64): loading it (size check, allocation, entries) is what the
 * harness tests.  Working it too — statistics, norms, a text round trip —
 * is linear in its size and takes seconds under ASan and coverage, past
 * the 1-second hang limit while telling nothing about the parser, so
 * matrices are worked only up to this many elements... */
#define FUZZ_WORK_ELEMENTS (1 << 18)
/* ...and written back and read again only up to this many. */
#define FUZZ_ROUND_TRIP_ELEMENTS (1 << 16)

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);
int LLVMFuzzerInitialize (int *argc, char ***argv);

static inline void fuzz_draw (const TlRenderInput *input, TlRenderView view, const char *kernel,
                              guint step);

#define FUZZ_FATAL_LEVELS (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING)

static void
fuzz_log_handler (const char *domain, GLogLevelFlags level, const char *message, gpointer data)
{
  g_log_default_handler (domain, level, message, data);
  if (level & FUZZ_FATAL_LEVELS)
    abort ();
}

static GLogWriterOutput
fuzz_log_writer (GLogLevelFlags level, const GLogField *fields, gsize n_fields, gpointer data)
{
  GLogWriterOutput out = g_log_writer_default (level, fields, n_fields, data);
  if (level & FUZZ_FATAL_LEVELS)
    abort ();
  return out;
}

/* Each harness is its own program and includes this once. */
int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  g_setenv ("TL_MAX_MATRIX_BYTES", FUZZ_MATRIX_CAP, TRUE);
  g_setenv ("LC_ALL", "C", TRUE);
  /* a critical warning is a bug the harness must report, as a crash; and
   * a failed check (g_error) too.  GLib ends a fatal message with a
   * breakpoint trap, which libFuzzer does not catch (no input saved):
   * these handlers abort first, which it does. */
  g_log_set_always_fatal (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
  g_log_set_default_handler (fuzz_log_handler, NULL);
  g_log_set_writer_func (fuzz_log_writer, NULL, NULL);
  /* fontconfig's first use takes long: not an input's time */
  TlRenderInput nothing = { 0 };
  fuzz_draw (&nothing, TL_RENDER_COMPARE, NULL, 0);
  return 0;
}

/* A NUL-terminated copy: the text readers take (buf, len) but may look
 * one byte past for the terminator, as tl_io_read_file provides it. */
static inline char *
fuzz_text (const uint8_t *data, size_t size)
{
  char *copy = g_malloc (size + 1);
  if (size > 0)
    memcpy (copy, data, size);
  copy[size] = '\0';
  return copy;
}

/* A folder of this process's own for the harnesses that save files
 * (removed at exit, when the harness has removed its files; a harness
 * killed or stopped on a finding leaves it, with the files of the input
 * it was working on). */
static char *fuzz_folder_path;

static inline void
fuzz_folder_remove (void)
{
  g_rmdir (fuzz_folder_path);
}

static inline const char *
fuzz_folder (void)
{
  if (fuzz_folder_path == NULL)
    {
      fuzz_folder_path = g_dir_make_tmp ("tl-fuzz-XXXXXX", NULL);
      g_assert (fuzz_folder_path != NULL);
      atexit (fuzz_folder_remove);
    }
  return fuzz_folder_path;
}

/* .npy bytes through the reader, from memory. */
static inline TlMatrix *
fuzz_load_npy (const void *data, size_t size, GError **error)
{
  /* fmemopen refuses an empty buffer: an empty file is one byte less */
  static const char nothing = 0;
  FILE *f = fmemopen ((void *) (size ? data : &nothing), size ? size : 1, "rb");
  g_assert (f != NULL);
  TlMatrix *m = tl_npy_load_stream ("fuzz.npy", f, size, NULL, error);
  fclose (f);
  return m;
}

typedef gboolean (*FuzzWriteFunc) (FILE *out, const TlMatrix *matrix, gpointer user_data,
                                   GError **error);

/* Writes m with write into memory; the text (caller frees) and its length. */
static inline char *
fuzz_write (const TlMatrix *m, FuzzWriteFunc write, gpointer user_data, size_t *out_len)
{
  char *text = NULL;
  FILE *out = open_memstream (&text, out_len);
  g_assert (out != NULL);
  g_autoptr (GError) error = NULL;
  gboolean ok = write (out, m, user_data, &error);
  fclose (out);
  if (!ok)
    g_error ("writing a loaded matrix failed: %s", error ? error->message : "?");
  return text;
}

/* Whether a and b (same shape) hold the same values bit for bit: a zero
 * keeps its sign; a NaN is any NaN (the formats write "nan", no payload).
 * Every dtype's value is exact as a double, so doubles compare them. */
static inline gboolean
fuzz_same_bits (const TlMatrix *a, const TlMatrix *b, gsize *out_i, gsize *out_j)
{
  if (a->rows == 0 || a->cols == 0)
    return TRUE; /* an N × 0 matrix: no loop over 2³¹ empty rows */
  for (gsize i = 0; i < a->rows; i++)
    for (gsize j = 0; j < a->cols; j++)
      {
        double x = tl_matrix_get (a, i, j), y = tl_matrix_get (b, i, j);
        gboolean same = isnan (x) ? isnan (y) : x == y && !signbit (x) == !signbit (y);
        if (!same)
          {
            *out_i = i, *out_j = j;
            return FALSE;
          }
      }
  return TRUE;
}

/* The reloaded matrix is the one that was written: same shape, the same
 * values bit for bit, the same dtype when the format keeps it. */
static inline void
fuzz_assert_same (const TlMatrix *a, const TlMatrix *b, gboolean same_dtype, const char *what)
{
  if (b == NULL)
    g_error ("%s: a loaded matrix, written back, does not load", what);
  gsize i = 0, j = 0;
  if (a->rows != b->rows || a->cols != b->cols)
    g_error ("%s: a loaded %zu×%zu matrix, written back, reads as %zu×%zu", what, a->rows,
             a->cols, b->rows, b->cols);
  if (!fuzz_same_bits (a, b, &i, &j))
    g_error ("%s: a loaded %zu×%zu matrix, written back, reads as a different one: (%zu, %zu) "
             "was %.17g, is %.17g", what, a->rows, a->cols, i, j, tl_matrix_get (a, i, j),
             tl_matrix_get (b, i, j));
  if (same_dtype && a->dtype != b->dtype)
    g_error ("%s: %s came back as %s", what, tl_dtype_name (a->dtype), tl_dtype_name (b->dtype));
}

typedef TlMatrix *(*FuzzLoadFunc) (const char *path, const char *buf, gsize len,
                                   GError **error);

/* The text formats' harness: load the input; if it is a matrix, work it,
 * write it back and load that, which must give the same matrix, of the
 * same dtype (CSV has none, but writes a float64's whole numbers "3.0",
 * so they come back float64). */
static inline void fuzz_touch (const TlMatrix *m);
static inline void
fuzz_text_format (const uint8_t *data, size_t size, const char *what, FuzzLoadFunc load,
                  FuzzWriteFunc write, gpointer user_data, gboolean float64_may_change)
{
  g_autofree char *text = fuzz_text (data, size);
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) m = load ("fuzz", text, size, &error);
  if (m == NULL)
    {
      g_assert (error != NULL && error->domain == TL_ERROR);
      return;
    }
  if (tl_matrix_n_elements (m) > FUZZ_WORK_ELEMENTS)
    return;
  fuzz_touch (m);
  if (tl_matrix_n_elements (m) > FUZZ_ROUND_TRIP_ELEMENTS)
    return;
  size_t len = 0;
  g_autofree char *again = fuzz_write (m, write, user_data, &len);
  g_autoptr (TlMatrix) back = load ("again", again, len, NULL);
  fuzz_assert_same (m, back, !(float64_may_change && m->dtype == TL_DTYPE_FLOAT64), what);
}

/* Draws a view of input into a small image, as the app's views do. */
static inline void
fuzz_draw (const TlRenderInput *input, TlRenderView view, const char *kernel, guint step)
{
  TlRenderOptions options;
  tl_render_options_init (&options);
  options.view = view;
  options.kernels = kernel;
  options.step = step;
  TlPaintStyle style;
  tl_render_style_init (&style, &options, 320, 180, 1.0);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 160, 90);
  cairo_t *cr = cairo_create (surface);
  cairo_scale (cr, 0.5, 0.5);
  (void) tl_render_draw (cr, input, &options, &style, 320, 180, NULL);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

/* Work the loaded matrix as `tilelab-cli info` does. */
static inline void
fuzz_touch (const TlMatrix *m)
{
  TlMatrixStats stats;
  tl_matrix_stats (m, &stats);
  for (int n = TL_NORM_ONE; n <= TL_NORM_MAX; n++)
    (void) tl_matrix_norm (m, (TlNorm) n);
  (void) tl_matrix_find_nonfinite (m, NULL, NULL);
}
