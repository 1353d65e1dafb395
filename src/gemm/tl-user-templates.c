/* tl-user-templates.c — the embedded kernel files of gpu/user/. */
#include "gemm/tl-user-templates.h"

#include <string.h>

/* the files of gpu/user/, as text (tools/embed-text.py writes them into
 * tl-user-template-texts.c at build time) */
extern const int tl_user_template_n_files;
extern const char *const tl_user_template_names[];
extern const char *const tl_user_template_texts[];

const char **
tl_user_template_ids (void)
{
  const char **ids = g_new0 (const char *, tl_user_template_n_files + 1);
  static char **stems;
  static gsize once = 0;
  if (g_once_init_enter (&once))
    {
      stems = g_new0 (char *, tl_user_template_n_files + 1);
      for (int i = 0; i < tl_user_template_n_files; i++)
        stems[i] = g_strndup (tl_user_template_names[i], strlen (tl_user_template_names[i]) - 3);
      g_once_init_leave (&once, 1);
    }
  for (int i = 0; i < tl_user_template_n_files; i++)
    ids[i] = stems[i];
  return ids;
}

const char *
tl_user_template_text (const char *id)
{
  for (int i = 0; id != NULL && i < tl_user_template_n_files; i++)
    if (strncmp (tl_user_template_names[i], id, strlen (id)) == 0
        && strcmp (tl_user_template_names[i] + strlen (id), ".cu") == 0)
      return tl_user_template_texts[i];
  return NULL;
}
