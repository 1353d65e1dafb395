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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/tl-error.h"
#include "core/tl-matrix.h"

/* 64 MiB: the fuzzers run with -rss_limit_mb=2048 -malloc_limit_mb=512 */
#define FUZZ_MATRIX_CAP "67108864"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);
int LLVMFuzzerInitialize (int *argc, char ***argv);

static inline void
fuzz_init (void)
{
  g_setenv ("TL_MAX_MATRIX_BYTES", FUZZ_MATRIX_CAP, TRUE);
  g_setenv ("LC_ALL", "C", TRUE);
  /* a critical warning is a bug the harness must report, as a crash */
  g_log_set_always_fatal (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
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

/* The reloaded matrix equals the one that was written (same shape and
 * values; same dtype when the format keeps it). */
static inline void
fuzz_assert_same (const TlMatrix *a, const TlMatrix *b, gboolean same_dtype, const char *what)
{
  if (b == NULL)
    g_error ("%s: a loaded matrix, written back, does not load", what);
  if (!tl_matrix_equal (a, b))
    g_error ("%s: a loaded %zu×%zu matrix, written back, reads as a different one", what,
             a->rows, a->cols);
  if (same_dtype && a->dtype != b->dtype)
    g_error ("%s: %s came back as %s", what, tl_dtype_name (a->dtype), tl_dtype_name (b->dtype));
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
