/* cli-plan.h — the planned rungs' plans on the command line (cli-plan.c). */
#pragma once

#include <stdio.h>

#include "record/tl-record.h"

G_BEGIN_DECLS

/* --plan NAME: a usage error's text when no kernel of the list (ids, all,
 * gpu) has a plan of that name, or NULL (also for plan NULL). */
char *tl_cli_check_plan  (const char *kernels, const char *plan);
/* The plan each planned rung of the record ran, with its reason. */
void  tl_cli_print_plans (const TlRunRecord *record, FILE *out);

G_END_DECLS
