/* tl-session-hosts.c — other machines: a worker for each configured host.
 *
 * The "hosts" setting lists them (ssh destination, launcher line,
 * tilelab-cli path); each becomes a TlRemoteHost, whose runner the
 * session listens to as to its own, so a run there shows its progress
 * and results like a run here.  A host without a launcher is probed at
 * once for its devices; one with a launcher is not (a probe would take a
 * job in the queue), and a launcher's connection — a Slurm job holding a
 * GPU — is let go after TL_HOST_RELEASE_S without a job.
 */
#include "tl-session-private.h"

#include <glib/gi18n-lib.h>

#define TL_HOST_RELEASE_S 300

typedef struct
{
  TlSession *session;        /* not a reference: the session owns this */
  TlRemoteTarget *target;
  TlRemoteHost *host;
  TlRemoteDevices *devices;
  char *error;
  gboolean probing;
  GCancellable *probe_cancellable;
  guint release_id;
} SessionHost;

static gpointer
free_host_thread (gpointer data)
{
  tl_remote_host_free (data);
  return NULL;
}

static void
session_host_free (SessionHost *h)
{
  if (h->probe_cancellable)
    g_cancellable_cancel (h->probe_cancellable);
  g_clear_object (&h->probe_cancellable);
  g_clear_handle_id (&h->release_id, g_source_remove);
  g_signal_handlers_disconnect_by_data (tl_remote_host_get_runner (h->host), h->session);
  /* closing waits for the worker to end (at most a few seconds on a dead
   * network): not on the main loop */
  g_thread_unref (g_thread_new ("tl-host-close", free_host_thread, h->host));
  tl_remote_target_free (h->target);
  g_clear_pointer (&h->devices, tl_remote_devices_free);
  g_free (h->error);
  g_free (h);
}

static SessionHost *
host_at (TlSession *self, guint index)
{
  g_return_val_if_fail (index < self->hosts->len, NULL);
  return self->hosts->pdata[index];
}

static void
hosts_changed (TlSession *self)
{
  g_signal_emit (self, tl_session_signals[SIGNAL_HOSTS_CHANGED], 0);
}

/* ---- probing ---------------------------------------------------------------------- */

typedef struct
{
  TlSession *session;
  GCancellable *cancellable; /* the host's probe_cancellable when it was asked */
} Probe;

static void
probe_done_cb (GObject *object, GAsyncResult *result, gpointer user_data)
{
  Probe *p = user_data;
  TlSession *self = p->session;
  g_autoptr (GError) error = NULL;
  TlRemoteDevices *devices = tl_runner_run_func_finish (TL_RUNNER (object), result, &error);
  SessionHost *h = NULL;
  /* the host may have left the list meanwhile (its probe was cancelled) */
  for (guint i = 0; self->hosts && i < self->hosts->len && !g_cancellable_is_cancelled (p->cancellable); i++)
    if (((SessionHost *) self->hosts->pdata[i])->probe_cancellable == p->cancellable)
      h = self->hosts->pdata[i];
  g_object_unref (p->cancellable);
  g_object_unref (p->session);
  g_free (p);
  if (h == NULL)
    {
      g_clear_pointer (&devices, tl_remote_devices_free);
      return;
    }
  h->probing = FALSE;
  g_clear_object (&h->probe_cancellable);
  g_clear_pointer (&h->devices, tl_remote_devices_free);
  h->devices = devices;
  g_free (h->error);
  h->error = error ? g_strdup (error->message) : NULL;
  hosts_changed (self);
}

static void
probe (SessionHost *h)
{
  h->probing = TRUE;
  h->probe_cancellable = g_cancellable_new ();
  Probe *p = g_new0 (Probe, 1);
  p->session = g_object_ref (h->session);
  p->cancellable = g_object_ref (h->probe_cancellable);
  tl_remote_host_probe_async (h->host, h->probe_cancellable, probe_done_cb, p);
}

/* ---- the list ------------------------------------------------------------------------ */

static SessionHost *
take_existing (GPtrArray *old, const TlRemoteTarget *target)
{
  for (guint i = 0; i < old->len; i++)
    {
      SessionHost *h = old->pdata[i];
      if (h && tl_remote_target_equal (h->target, target))
        {
          old->pdata[i] = NULL;
          return h;
        }
    }
  return NULL;
}

static void
read_hosts (TlSession *self)
{
  g_autoptr (GPtrArray) old = self->hosts;
  g_ptr_array_set_free_func (old, NULL);
  self->hosts = g_ptr_array_new_with_free_func ((GDestroyNotify) session_host_free);
  g_autoptr (GVariant) list = g_settings_get_value (self->host_settings, "hosts");
  GVariantIter it;
  const char *destination, *launcher, *cli;
  g_variant_iter_init (&it, list);
  while (g_variant_iter_next (&it, "(&s&s&s)", &destination, &launcher, &cli))
    {
      g_autoptr (TlRemoteTarget) target = tl_remote_target_new (destination, launcher, cli);
      if (target->destination == NULL || !tl_remote_target_check (target, NULL))
        continue; /* the dialog refuses these; a hand-edited setting may not */
      SessionHost *h = take_existing (old, target);
      if (h == NULL)
        {
          h = g_new0 (SessionHost, 1);
          h->session = self;
          h->target = tl_remote_target_copy (target);
          h->host = tl_remote_host_new (target);
          if (target->launcher == NULL)
            probe (h);
        }
      g_ptr_array_add (self->hosts, h);
    }
  for (guint i = 0; i < old->len; i++)
    if (old->pdata[i])
      session_host_free (old->pdata[i]);
  if (self->run_host >= (int) self->hosts->len)
    self->run_host = -1;
  hosts_changed (self);
}

static void
hosts_setting_changed_cb (GSettings *settings, const char *key, TlSession *self)
{
  read_hosts (self);
}

void
tl_session_watch_hosts (TlSession *self, GSettings *settings)
{
  g_return_if_fail (TL_IS_SESSION (self));
  g_return_if_fail (self->host_settings == NULL);
  self->host_settings = g_object_ref (settings);
  g_signal_connect (settings, "changed::hosts", G_CALLBACK (hosts_setting_changed_cb), self);
  read_hosts (self);
}

/* ---- what the others ask ---------------------------------------------------------------- */

guint
tl_session_get_n_hosts (TlSession *self)
{
  g_return_val_if_fail (TL_IS_SESSION (self), 0);
  return self->hosts->len;
}

const TlRemoteTarget *
tl_session_get_host_target (TlSession *self, guint index)
{
  SessionHost *h = host_at (self, index);
  return h ? h->target : NULL;
}

const TlRemoteDevices *
tl_session_get_host_devices (TlSession *self, guint index)
{
  SessionHost *h = host_at (self, index);
  return h ? h->devices : NULL;
}

const char *
tl_session_get_host_error (TlSession *self, guint index)
{
  SessionHost *h = host_at (self, index);
  return h ? h->error : NULL;
}

gboolean
tl_session_host_is_probing (TlSession *self, guint index)
{
  SessionHost *h = host_at (self, index);
  return h && h->probing;
}

void
tl_session_set_run_on (TlSession *self, int host, int device)
{
  g_return_if_fail (TL_IS_SESSION (self));
  self->run_host = host >= 0 && host < (int) self->hosts->len ? host : -1;
  tl_session_set_device (self, device);
}

static SessionHost *
host_for_job (TlSession *self, int host)
{
  if (host < 0 || host >= (int) self->hosts->len)
    return NULL;
  SessionHost *h = self->hosts->pdata[host];
  g_clear_handle_id (&h->release_id, g_source_remove);
  return h;
}

TlRunner *
tl_session_host_get_runner (TlSession *self, int host)
{
  if (host < 0 || host >= (int) self->hosts->len)
    return self->runner;
  return tl_remote_host_get_runner (((SessionHost *) self->hosts->pdata[host])->host);
}

guint
tl_session_host_run_gemm (TlSession *self, int host, const TlJob *job, GCancellable *cancellable,
                          GAsyncReadyCallback callback, gpointer user_data)
{
  SessionHost *h = host_for_job (self, host);
  if (h == NULL)
    return tl_runner_run_gemm_async (self->runner, job, cancellable, callback, user_data);
  return tl_remote_host_run_gemm_async (h->host, job, cancellable, callback, user_data);
}

guint
tl_session_host_run_gauss (TlSession *self, int host, const TlGaussJob *job,
                           GCancellable *cancellable, GAsyncReadyCallback callback,
                           gpointer user_data)
{
  SessionHost *h = host_for_job (self, host);
  if (h == NULL)
    return tl_runner_run_gauss_async (self->runner, job, cancellable, callback, user_data);
  return tl_remote_host_run_gauss_async (h->host, job, cancellable, callback, user_data);
}

static gboolean
release_cb (gpointer data)
{
  SessionHost *h = data;
  h->release_id = 0;
  tl_remote_host_release (h->host);
  return G_SOURCE_REMOVE;
}

void
tl_session_host_job_ended (TlSession *self, TlRunner *runner)
{
  for (guint i = 0; i < self->hosts->len; i++)
    {
      SessionHost *h = self->hosts->pdata[i];
      if (tl_remote_host_get_runner (h->host) != runner || h->target->launcher == NULL)
        continue;
      g_clear_handle_id (&h->release_id, g_source_remove);
      h->release_id = g_timeout_add_seconds (TL_HOST_RELEASE_S, release_cb, h);
    }
}
