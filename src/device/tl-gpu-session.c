/* tl-gpu-session.c — devices by ordinal, opened lazily, errors as GErrors. */
#include "device/tl-gpu-session.h"

#include "core/tl-error.h"

#include <glib/gi18n-lib.h>

typedef struct
{
  int ordinal;
  TlGpuDevice *device;  /* NULL when opening failed */
  GError *open_error;   /* why, kept: a failed open is not retried */
  TlGpuFacts facts;
} OpenDevice;

struct _TlGpuSession
{
  GArray *devices;      /* OpenDevice, in the order they were asked for */
};

static GPrivate thread_default;

static void
open_device_clear (gpointer data)
{
  OpenDevice *d = data;
  if (d->device)
    tl_gpu_device_close (d->device);
  g_clear_error (&d->open_error);
}

TlGpuSession *
tl_gpu_session_new (void)
{
  TlGpuSession *session = g_new0 (TlGpuSession, 1);
  session->devices = g_array_new (FALSE, TRUE, sizeof (OpenDevice));
  g_array_set_clear_func (session->devices, open_device_clear);
  return session;
}

void
tl_gpu_session_free (TlGpuSession *session)
{
  if (session == NULL)
    return;
  if (g_private_get (&thread_default) == session)
    g_private_set (&thread_default, NULL);
  g_array_unref (session->devices);
  g_free (session);
}

gboolean
tl_gpu_lost (void)
{
  return tl_gpu_is_lost () != 0;
}

gboolean
tl_gpu_error_set (GError **error, TlGpuStatus status, const char *what)
{
  const char *msg = tl_gpu_last_message ();
  if (msg == NULL || *msg == '\0')
    msg = tl_gpu_status_name (status);
  else
    msg = _(msg); /* the stub's reason is marked N_() in gpu/; a driver's words pass through */
  switch (status)
    {
    case TL_GPU_OK:
      g_assert_not_reached ();
    case TL_GPU_NO_DEVICE:
      g_set_error (error, TL_ERROR, TL_ERROR_NO_DEVICE, _("No usable CUDA GPU: %s"), msg);
      break;
    case TL_GPU_OUT_OF_MEMORY:
      g_set_error (error, TL_ERROR, TL_ERROR_OUT_OF_MEMORY, _("Out of GPU memory: %s"), msg);
      break;
    case TL_GPU_BAD_SHAPE:
      g_set_error (error, TL_ERROR, TL_ERROR_SHAPE, _("%s cannot run this job: %s"),
                   what ? what : "GPU", msg);
      break;
    case TL_GPU_LAUNCH_FAILED:
      g_set_error (error, TL_ERROR, TL_ERROR_LAUNCH_FAILED, _("Launch failed: %s"), msg);
      break;
    case TL_GPU_DEVICE_LOST:
      g_set_error (error, TL_ERROR, TL_ERROR_DEVICE_LOST,
                   _("The GPU stopped working (%s); restart Tilelab to use it again"), msg);
      break;
    case TL_GPU_CANCELLED:
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Cancelled"));
      break;
    default:
      g_set_error (error, TL_ERROR, TL_ERROR_LAUNCH_FAILED, "%s", msg);
      break;
    }
  return FALSE;
}

static gboolean
refuse_if_lost (GError **error)
{
  if (!tl_gpu_lost ())
    return FALSE;
  g_set_error (error, TL_ERROR, TL_ERROR_DEVICE_LOST,
               _("The GPU stopped working earlier; restart Tilelab to use it again"));
  return TRUE;
}

static OpenDevice *
find (TlGpuSession *session, int ordinal)
{
  for (guint i = 0; i < session->devices->len; i++)
    {
      OpenDevice *d = &g_array_index (session->devices, OpenDevice, i);
      if (d->ordinal == ordinal)
        return d;
    }
  return NULL;
}

TlGpuDevice *
tl_gpu_session_get_device (TlGpuSession *session, int ordinal, GError **error)
{
  g_return_val_if_fail (session != NULL, NULL);
  if (refuse_if_lost (error))
    return NULL;
  OpenDevice *d = find (session, ordinal);
  if (d == NULL)
    {
      OpenDevice fresh = { .ordinal = ordinal };
      TlGpuStatus status = tl_gpu_device_open (ordinal, &fresh.device);
      if (status == TL_GPU_OK)
        status = tl_gpu_device_facts (ordinal, &fresh.facts);
      if (status != TL_GPU_OK)
        {
          g_clear_pointer (&fresh.device, tl_gpu_device_close);
          tl_gpu_error_set (&fresh.open_error, status, NULL);
        }
      g_array_append_val (session->devices, fresh);
      d = &g_array_index (session->devices, OpenDevice, session->devices->len - 1);
    }
  if (d->device)
    return d->device;
  if (error)
    *error = g_error_copy (d->open_error);
  return NULL;
}

gboolean
tl_gpu_session_get_facts (TlGpuSession *session, int ordinal, TlGpuFacts *out)
{
  g_return_val_if_fail (session != NULL && out != NULL, FALSE);
  OpenDevice *d = find (session, ordinal);
  if (d == NULL || d->device == NULL)
    return FALSE;
  *out = d->facts;
  return TRUE;
}

GArray *
tl_gpu_session_probe (TlGpuSession *session, GError **error)
{
  g_return_val_if_fail (session != NULL, NULL);
  if (refuse_if_lost (error))
    return NULL;
  int count = 0;
  TlGpuStatus status = tl_gpu_device_count (&count);
  if (status != TL_GPU_OK)
    {
      tl_gpu_error_set (error, status, NULL);
      return NULL;
    }
  g_autoptr (GArray) all = g_array_sized_new (FALSE, TRUE, sizeof (TlGpuFacts), count);
  for (int i = 0; i < count; i++)
    {
      TlGpuFacts facts;
      status = tl_gpu_device_facts (i, &facts);
      if (status != TL_GPU_OK)
        {
          tl_gpu_error_set (error, status, NULL);
          return NULL;
        }
      g_array_append_val (all, facts);
    }
  return g_steal_pointer (&all);
}

TlGpuSession *
tl_gpu_session_get_thread_default (void)
{
  return g_private_get (&thread_default);
}

void
tl_gpu_session_set_thread_default (TlGpuSession *session)
{
  g_private_set (&thread_default, session);
}
