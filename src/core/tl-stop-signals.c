/* tl-stop-signals.c — the stop signals, watched on a thread of their own. */
#include "core/tl-stop-signals.h"
#include "core/tl-save.h"

#include <glib/gi18n-lib.h>
#include <glib-unix.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#define WATCH_STACK_BYTES (512 << 10)

static TlStopFunc first_func;
static gpointer first_data;
static gint caught;       /* the first signal, 0 before it */
static gint count;        /* signals so far */

static gboolean
signal_cb (gpointer data)
{
  int signum = GPOINTER_TO_INT (data);
  if (g_atomic_int_add (&count, 1) == 0)
    {
      g_atomic_int_set (&caught, signum);
      first_func (signum, first_data);
      return G_SOURCE_CONTINUE;
    }
  /* asked twice: what the first stop has not finished is dropped */
  tl_save_abandon_all ();
  g_printerr ("%s: %s\n", g_get_prgname () ? g_get_prgname () : "tilelab",
              _("stopped at once; no partial file left"));
  _exit (128 + signum);
}

static void *
watch_thread (void *context)
{
  for (;;)
    g_main_context_iteration (context, TRUE);
  return NULL;
}

/* A thread with a small stack (it only dispatches the signals): under
 * ulimit -v a default one's 8 MiB may not fit.  FALSE when none could be
 * started. */
static gboolean
start_watching (GMainContext *context)
{
  pthread_attr_t attr;
  pthread_t thread;
  pthread_attr_init (&attr);
  pthread_attr_setstacksize (&attr, WATCH_STACK_BYTES);
  pthread_attr_setdetachstate (&attr, PTHREAD_CREATE_DETACHED);
  gboolean ok = pthread_create (&thread, &attr, watch_thread, context) == 0;
  pthread_attr_destroy (&attr);
  if (ok)
    pthread_setname_np (thread, "tl-stop-signals");
  return ok;
}

static void
fatal_signal_cb (int signum)
{
  tl_save_unlink_all_in_signal ();
  raise (signum); /* the handler was reset: the signal's own end */
}

/* The other signals whose default is to end the program (kill -USR1, a
 * SIGALRM, Ctrl+\, a pipe closed under a write): they still end it as
 * before, but the saves in flight remove their temporaries first.  A
 * signal the program was started ignoring (nohup) stays ignored. */
static void
catch_fatal_signals (void)
{
  static const int signals[] = { SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGPIPE };
  for (gsize i = 0; i < G_N_ELEMENTS (signals); i++)
    {
      struct sigaction old;
      if (sigaction (signals[i], NULL, &old) != 0 || old.sa_handler != SIG_DFL)
        continue;
      struct sigaction sa = { 0 };
      sa.sa_handler = fatal_signal_cb;
      sigemptyset (&sa.sa_mask);
      sa.sa_flags = SA_RESETHAND;
      sigaction (signals[i], &sa, NULL);
    }
}

void
tl_stop_signals_watch (TlStopFunc first, gpointer data)
{
  static gsize started;
  if (!g_once_init_enter (&started))
    return;
  first_func = first;
  first_data = data;
  /* without a thread of their own (no room for one), they are seen when
   * the program's main loop runs, as other sources are */
  GMainContext *context = g_main_context_new ();
  if (!start_watching (context))
    g_clear_pointer (&context, g_main_context_unref);
  /* SIGINT last: once it is caught, all are (what tests wait for) */
  static const int signals[] = { SIGHUP, SIGTERM, SIGINT };
  for (gsize i = 0; i < G_N_ELEMENTS (signals); i++)
    {
      GSource *source = g_unix_signal_source_new (signals[i]);
      g_source_set_callback (source, signal_cb, GINT_TO_POINTER (signals[i]), NULL);
      g_source_attach (source, context);
      g_source_unref (source);
    }
  catch_fatal_signals ();
  g_once_init_leave (&started, 1);
}

int
tl_stop_signals_caught (void)
{
  return g_atomic_int_get (&caught);
}
