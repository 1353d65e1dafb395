/* tl-stop-signals.h — Ctrl+C, SIGTERM and SIGHUP: a clean stop first, an
 * immediate one if asked again.
 *
 * The first of these signals calls `first`, on a thread of its own, so it
 * is seen at once even while every other thread is deep in a step that
 * polls nothing (a LAPACK call, a write to a pipe nobody reads).  The
 * program stops cleanly from there: it cancels its work, and its saves
 * remove their temporaries.  A second signal, while that stop is still
 * under way, does not wait for it: the temporary of every save in flight
 * is removed (tl_save_abandon_all), a line on stderr says so, and the
 * program exits at once with 128 + the signal (130 for Ctrl+C), as a
 * shell reports a process that signal killed.
 *
 * The other signals that end a program by default (SIGQUIT, SIGUSR1,
 * SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGPIPE) still end it at once, but
 * the temporaries of the saves in flight are removed first.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Called on the watching thread: it must only do what is safe there
 * (cancel a GCancellable, add an idle source to a main context). */
typedef void (*TlStopFunc) (int signum, gpointer data);

/* Starts watching (once per program; later calls do nothing). */
void tl_stop_signals_watch (TlStopFunc first, gpointer data);

/* The first stop signal caught, 0 before one. */
int  tl_stop_signals_caught (void);

G_END_DECLS
