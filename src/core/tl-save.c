/* tl-save.c — a temporary file beside the target, renamed over it when whole. */
#include "core/tl-save.h"
#include "core/tl-error.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SAVE_BUFFER (1 << 20)
#define MAX_LINKS 40

struct _TlSave
{
  char *path;    /* as the user named it, for messages */
  char *target;  /* the file replaced: path with its symbolic links followed */
  char *tmp;     /* NULL when writing to standard output */
  int fd;
  FILE *stream;
  GCancellable *cancellable;
  int error;     /* errno of the first failed write; ECANCELED when cancelled */
  gboolean replaces; /* the target was there when the save began */
  gboolean finished; /* tl_save_finish succeeded: the temporary is whole and closed */
};

/* The temporaries of the saves in flight, from the moment each is made
 * until it is renamed or removed: what tl_save_abandon_all removes. */
static GMutex temporaries_lock;
static GPtrArray *temporaries; /* char *, owned by their TlSave */

/* The same temporaries for a signal handler, which may take no lock: a
 * fixed set of slots, each set and cleared atomically (a save beyond
 * them is only in the list above). */
#define SIGNAL_SLOTS 64
static gpointer signal_slots[SIGNAL_SLOTS];

static void
remember_temporary (TlSave *save)
{
  if (temporaries == NULL)
    temporaries = g_ptr_array_new ();
  g_ptr_array_add (temporaries, save->tmp);
  for (guint i = 0; i < SIGNAL_SLOTS; i++)
    if (g_atomic_pointer_compare_and_exchange (&signal_slots[i], NULL, save->tmp))
      break;
}

static void
forget_temporary (TlSave *save)
{
  g_mutex_lock (&temporaries_lock);
  if (temporaries != NULL)
    g_ptr_array_remove_fast (temporaries, save->tmp);
  for (guint i = 0; i < SIGNAL_SLOTS; i++)
    if (g_atomic_pointer_compare_and_exchange (&signal_slots[i], save->tmp, NULL))
      break;
  g_mutex_unlock (&temporaries_lock);
}

void
tl_save_unlink_all_in_signal (void)
{
  for (guint i = 0; i < SIGNAL_SLOTS; i++)
    {
      const char *tmp = g_atomic_pointer_get (&signal_slots[i]);
      if (tmp != NULL)
        unlink (tmp);
    }
}

void
tl_save_abandon_all (void)
{
  /* kept locked: no save starts, and none is forgotten, until the exit */
  g_mutex_lock (&temporaries_lock);
  for (guint i = 0; temporaries != NULL && i < temporaries->len; i++)
    unlink (g_ptr_array_index (temporaries, i));
}

static void
set_error (GError **error, TlErrorCode code, const char *path, const char *format, ...)
  G_GNUC_PRINTF (4, 5);

static void
set_error (GError **error, TlErrorCode code, const char *path, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  g_autofree char *what = g_strdup_vprintf (format, args);
  va_end (args);
  g_autofree char *name = g_filename_display_name (path);
  g_set_error (error, TL_ERROR, code, "%s: %s", name, what);
}

/* The file a save to path replaces: symbolic links followed (relative
 * ones from their own folder); a folder, FIFO, device or socket refused. */
static char *
resolve_target (const char *path, struct stat *out_st, gboolean *out_exists, GError **error)
{
  g_autofree char *at = g_strdup (path);
  for (int hops = 0; hops <= MAX_LINKS; hops++)
    {
      struct stat st;
      if (lstat (at, &st) != 0)
        {
          if (errno != ENOENT)
            {
              set_error (error, TL_ERROR_IO, path, _("cannot write: %s"), g_strerror (errno));
              return NULL;
            }
          *out_exists = FALSE;
          return g_steal_pointer (&at);
        }
      if (S_ISLNK (st.st_mode))
        {
          g_autofree char *link = g_file_read_link (at, NULL);
          if (link == NULL)
            break;
          g_autofree char *dir = g_path_get_dirname (at);
          char *next = g_path_is_absolute (link) ? g_strdup (link)
                                                 : g_build_filename (dir, link, NULL);
          g_free (at);
          at = next;
          continue;
        }
      if (S_ISDIR (st.st_mode))
        {
          set_error (error, TL_ERROR_IO, path, _("is a folder: name a file to write"));
          return NULL;
        }
      if (!S_ISREG (st.st_mode))
        {
          /* renaming over a FIFO or /dev/null would replace it with a file */
          set_error (error, TL_ERROR_IO, path,
                     _("not a regular file (a FIFO, a device or a socket): write to a file, "
                       "or to “-” for standard output"));
          return NULL;
        }
      *out_st = st;
      *out_exists = TRUE;
      return g_steal_pointer (&at);
    }
  set_error (error, TL_ERROR_IO, path, _("cannot write: %s"), g_strerror (ELOOP));
  return NULL;
}

/* The stream's writes: the cancellable first, then every byte or the
 * first error (kept for tl_save_commit's message). */
static ssize_t
save_write_cb (void *cookie, const char *buf, size_t size)
{
  TlSave *save = cookie;
  if (save->error != 0)
    return 0;
  if (g_cancellable_is_cancelled (save->cancellable))
    {
      save->error = ECANCELED;
      return 0;
    }
  size_t done = 0;
  while (done < size)
    {
      ssize_t n = write (save->fd, buf + done, size - done);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          save->error = n < 0 ? errno : EIO;
          return 0;
        }
      done += (size_t) n;
    }
  return (ssize_t) size;
}

static FILE *
open_stream (TlSave *save)
{
  cookie_io_functions_t io = { .write = save_write_cb };
  FILE *f = fopencookie (save, "w", io);
  if (f != NULL)
    setvbuf (f, NULL, _IOFBF, SAVE_BUFFER);
  return f;
}

static void
save_free (TlSave *save)
{
  g_free (save->path);
  g_free (save->target);
  g_free (save->tmp);
  g_clear_object (&save->cancellable);
  g_free (save);
}

/* ".NAME.tmp-XXXXXX" in dir, NAME cut short where the whole would pass
 * NAME_MAX: a target whose own name is nearly that long can still be
 * saved (its temporary was refused as "File name too long"). */
static char *
temporary_name (const char *dir, const char *base)
{
  static const char suffix[] = ".tmp-XXXXXX";
  gsize room = NAME_MAX - 1 - (sizeof suffix - 1);
  int keep = (int) MIN (strlen (base), room);
  return g_strdup_printf ("%s%c.%.*s%s", dir, G_DIR_SEPARATOR, keep, base, suffix);
}

TlSave *
tl_save_begin (const char *path, GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  TlSave *save = g_new0 (TlSave, 1);
  save->path = g_strdup (path);
  save->fd = -1;
  save->cancellable = cancellable ? g_object_ref (cancellable) : NULL;

  if (strcmp (path, "-") == 0)
    {
      save->fd = STDOUT_FILENO;
      save->stream = open_stream (save);
      return save;
    }

  struct stat st;
  gboolean exists;
  save->target = resolve_target (path, &st, &exists, error);
  if (save->target == NULL)
    {
      save_free (save);
      return NULL;
    }
  g_autofree char *dir = g_path_get_dirname (save->target);
  g_autofree char *base = g_path_get_basename (save->target);
  save->tmp = temporary_name (dir, base);
  /* 0666 less the umask: what any new file gets; made and listed at
   * once, so that tl_save_abandon_all sees every temporary there is */
  g_mutex_lock (&temporaries_lock);
  save->fd = g_mkstemp_full (save->tmp, O_WRONLY | O_CLOEXEC, 0666);
  int e = errno;
  if (save->fd >= 0)
    remember_temporary (save);
  g_mutex_unlock (&temporaries_lock);
  if (save->fd < 0)
    {
      g_autofree char *dir_name = g_filename_display_name (dir);
      set_error (error, TL_ERROR_IO, path, _("cannot write in the folder %s: %s"), dir_name,
                 g_strerror (e));
      save_free (save);
      return NULL;
    }
  save->replaces = exists;
  if (exists)
    {
      /* the replacement keeps what the file had; the owner only where
       * allowed (as root, or when it is ours already) */
      (void) fchmod (save->fd, st.st_mode & 07777);
      if (fchown (save->fd, st.st_uid, st.st_gid) != 0)
        (void) fchown (save->fd, (uid_t) -1, st.st_gid);
    }
  save->stream = open_stream (save);
  if (save->stream == NULL)
    {
      set_error (error, TL_ERROR_IO, path, _("cannot write: %s"), g_strerror (errno));
      tl_save_abort (save);
      return NULL;
    }
  return save;
}

FILE *
tl_save_stream (TlSave *save)
{
  return save->stream;
}

static void
sync_folder (const char *file)
{
  g_autofree char *dir = g_path_get_dirname (file);
  int dfd = g_open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
  if (dfd >= 0)
    {
      (void) fsync (dfd);
      close (dfd);
    }
}

/* Flush, fsync and close the temporary (nothing for standard output
 * but the flush): 0, or the errno of what failed. */
static int
finish_stream (TlSave *save)
{
  gboolean to_stdout = save->tmp == NULL;
  int e = 0;
  if (fflush (save->stream) != 0 || ferror (save->stream))
    e = save->error ? save->error : EIO;
  if (e == 0 && !to_stdout && fsync (save->fd) != 0)
    e = errno;
  fclose (save->stream);
  save->stream = NULL;
  if (!to_stdout && close (save->fd) != 0 && e == 0)
    e = errno;
  save->fd = -1;
  return e;
}

/* The error of a save that failed with errno e. */
static void
set_save_error (TlSave *save, int e, GError **error)
{
  if (e == ECANCELED)
    {
      g_autofree char *name = g_filename_display_name (save->path);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                   _("%s: stopped before it was written; the file is as it was"), name);
    }
  else
    set_error (error, TL_ERROR_IO, save->path, _("cannot write: %s"), g_strerror (e));
}

gboolean
tl_save_finish (TlSave *save, GError **error)
{
  g_return_val_if_fail (save != NULL, FALSE);
  if (save->finished)
    return TRUE;
  int e = save->stream != NULL ? finish_stream (save) : EIO;
  if (e != 0)
    {
      if (save->tmp != NULL)
        g_unlink (save->tmp);
      set_save_error (save, e, error);
      return FALSE;
    }
  save->finished = TRUE;
  return TRUE;
}

gboolean
tl_save_replaces (const TlSave *save)
{
  return save->replaces;
}

const char *
tl_save_target (const TlSave *save)
{
  return save->target ? save->target : save->path;
}

gboolean
tl_save_commit (TlSave *save, GError **error)
{
  g_return_val_if_fail (save != NULL, FALSE);
  gboolean to_stdout = save->tmp == NULL;
  int e = save->finished ? 0 : save->stream != NULL ? finish_stream (save) : EIO;
  if (e == 0 && !to_stdout && g_rename (save->tmp, save->target) != 0)
    e = errno;

  if (e != 0 && !to_stdout)
    g_unlink (save->tmp);
  if (!to_stdout)
    forget_temporary (save);
  if (e != 0)
    {
      set_save_error (save, e, error);
      save_free (save);
      return FALSE;
    }
  if (!to_stdout)
    sync_folder (save->target);
  save_free (save);
  return TRUE;
}

void
tl_save_abort (TlSave *save)
{
  if (save == NULL)
    return;
  if (save->stream != NULL)
    {
      save->error = ECANCELED; /* nothing more reaches the file */
      fclose (save->stream);
    }
  if (save->tmp != NULL)
    {
      if (save->fd >= 0)
        close (save->fd);
      g_unlink (save->tmp);
      forget_temporary (save);
    }
  save_free (save);
}

gboolean
tl_save_contents (const char *path, const void *data, gsize len, GCancellable *cancellable,
                  GError **error)
{
  TlSave *save = tl_save_begin (path, cancellable, error);
  if (save == NULL)
    return FALSE;
  gsize chunk = SAVE_BUFFER;
  for (gsize at = 0; at < len && !ferror (save->stream); at += chunk)
    fwrite ((const char *) data + at, 1, MIN (chunk, len - at), save->stream);
  return tl_save_commit (save, error);
}
