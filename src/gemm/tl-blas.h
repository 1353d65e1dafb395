/* tl-blas.h — OpenBLAS under a small address-space limit (ulimit -v, -d).
 *
 * OpenBLAS maps a work buffer of 128 MiB (its BUFFER_SIZE on x86-64) for
 * each thread of its pool as the thread starts — the pool starts when the
 * library is loaded, before main — and for a calling thread at its first
 * level-3 or LAPACK call.  When the map fails it tries again, forever: a
 * program whose pool does not fit its ulimit -v spins at start and hangs
 * at exit (joining a pool thread that never got its buffer), and a BLAS
 * call without room hangs the same way.  Three guards keep Tilelab within
 * the room:
 *
 *   tl_blas_fit_address_space   first thing in main: when the pool's
 *                               buffers would take more than half the room,
 *                               the program is executed again with
 *                               OPENBLAS_NUM_THREADS set to what fits (read
 *                               by OpenBLAS as it loads; 1 means no pool);
 *   tl_blas_check               before work that calls BLAS or LAPACK, on
 *                               the main thread before threads of its
 *                               own: the calling threads' buffer mapped
 *                               while it fits, an error naming the room
 *                               when it does not;
 *   tl_blas_threads_that_fit    before openblas_set_num_threads, which
 *                               starts pool threads: the count whose
 *                               buffers fit.
 *
 * Without either limit all three do nothing.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The address space OpenBLAS maps for a calling thread, and for each pool
 * thread (its buffer and its stack). */
#define TL_BLAS_BUFFER_BYTES ((guint64) 128 << 20)
#define TL_BLAS_THREAD_BYTES (TL_BLAS_BUFFER_BYTES + ((guint64) 8 << 20))

/* The pool size that fits room bytes of address space (the pool's
 * buffers in at most half of it), at least 1, at most wanted. */
guint     tl_blas_threads_for_room    (guint wanted, guint64 room);
/* Re-executes /proc/self/exe with argv when the pool does not fit (see
 * above); returns when it fits, when OPENBLAS_NUM_THREADS already says a
 * count that fits, or when exec fails. */
void      tl_blas_fit_address_space   (char **argv);
/* Makes sure the calling threads' work buffer is mapped: under a limit,
 * maps it now (once) when it fits; TL_ERROR_OUT_OF_MEMORY "OpenBLAS …
 * needs 144 MiB of address space for its work buffer, 57 MiB available
 * (ulimit -v is …)" when it does not. */
gboolean  tl_blas_check               (GError **error);
/* How many of wanted threads OpenBLAS may run: its pool as it is, plus
 * new threads whose buffers fit, in the room measured at the first call
 * that grows the pool (later calls never grow it past that). */
guint     tl_blas_threads_that_fit    (guint wanted);

G_END_DECLS
