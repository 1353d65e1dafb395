/* tl-blas.c — OpenBLAS's pool and buffers kept within ulimit -v and -d. */
#include "gemm/tl-blas.h"
#include "core/tl-error.h"
#include "core/tl-memory.h"

#include <cblas.h>
#include <lapacke.h>
#include <glib/gi18n-lib.h>
#include <stdlib.h>
#include <unistd.h>

guint
tl_blas_threads_for_room (guint wanted, guint64 room)
{
  guint64 fit = 1 + room / 2 / TL_BLAS_THREAD_BYTES;
  return (guint) CLAMP (fit, 1, MAX (wanted, 1));
}

void
tl_blas_fit_address_space (char **argv)
{
  TlMemoryBudget b;
  tl_memory_address_budget_read (&b);
  guint pool = (guint) MAX (openblas_get_num_threads (), 1);
  /* once: the program executed again keeps the count it was given */
  if (b.kind == TL_MEMORY_LIMIT_NONE || pool == 1 || g_getenv ("TL_BLAS_FITTED") != NULL)
    return;
  /* the space in use may hold pool threads' buffers already: counting it
   * as the program's own errs towards fewer threads */
  guint fit = tl_blas_threads_for_room (pool, b.available);
  if (fit >= pool)
    return;
  char count[16];
  g_snprintf (count, sizeof count, "%u", fit);
  g_setenv ("OPENBLAS_NUM_THREADS", count, TRUE);
  g_setenv ("TL_BLAS_FITTED", "1", TRUE);
  execv ("/proc/self/exe", argv);
}

/* The buffer and some room to work in beside it. */
#define BLAS_NEED (TL_BLAS_BUFFER_BYTES + ((guint64) 16 << 20))

gboolean
tl_blas_check (GError **error)
{
  static GMutex lock;
  static gboolean mapped;
  g_autoptr (GMutexLocker) locker = g_mutex_locker_new (&lock);
  if (mapped)
    return TRUE;
  TlMemoryBudget b;
  tl_memory_address_budget_read (&b);
  if (b.kind == TL_MEMORY_LIMIT_NONE)
    return TRUE;
  if (b.available < BLAS_NEED)
    {
      g_autofree char *need = g_format_size_full (BLAS_NEED, G_FORMAT_SIZE_IEC_UNITS);
      g_autofree char *room = tl_memory_budget_describe (&b);
      g_set_error (error, TL_ERROR, TL_ERROR_OUT_OF_MEMORY,
                   /* TRANSLATORS: "… needs 144 MiB of address space for its work buffer,
                    * 57 MiB available (ulimit -v is 195 MiB, 138 MiB of it in use)" */
                   _("OpenBLAS (the CPU's linear algebra) needs %s of address space for its "
                     "work buffer, %s"), need, room);
      return FALSE;
    }
  /* map the buffer now, while there is room: a 1 × 1 LU takes one, and
   * OpenBLAS keeps it for every later call, from any thread (threads of
   * the program's own, with their stacks and malloc arenas, would
   * otherwise take the room first) */
  double one = 1;
  lapack_int pivot;
  LAPACKE_dgetrf (LAPACK_ROW_MAJOR, 1, 1, &one, 1, &pivot);
  mapped = TRUE;
  return TRUE;
}

guint
tl_blas_threads_that_fit (guint wanted)
{
  static GMutex lock;
  static guint most;  /* the pool the room takes, measured once; 0: not yet */
  guint pool = (guint) MAX (openblas_get_num_threads (), 1);
  if (wanted <= pool)
    return MAX (wanted, 1);
  TlMemoryBudget b;
  tl_memory_address_budget_read (&b);
  if (b.kind == TL_MEMORY_LIMIT_NONE)
    return wanted;
  /* Measured once, at the first growth: the threads it starts map their
   * buffers after openblas_set_num_threads returns, so the space in use
   * read at a later call would not hold them yet, and each call would
   * grow the pool again until the calling thread's own buffer no longer
   * fits (OpenBLAS then waits for room for ever).  The pool's threads
   * have their buffers; new ones need theirs. */
  g_autoptr (GMutexLocker) locker = g_mutex_locker_new (&lock);
  if (most == 0)
    most = pool - 1 + tl_blas_threads_for_room (G_MAXUINT16, b.available);
  return CLAMP (wanted, pool, MAX (most, pool));
}
