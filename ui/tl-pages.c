/* tl-pages.c — the pages the window's template stacks. */
#include "tl-pages.h"

#include "tl-blocks-page.h"
#include "tl-compare-page.h"
#include "tl-device-page.h"
#include "tl-gauss-page.h"
#include "tl-lesson-page.h"
#include "tl-matrices-page.h"
#include "tl-roofline-page.h"
#include "tl-source-page.h"

void
tl_pages_ensure_types (void)
{
  g_type_ensure (TL_TYPE_MATRICES_PAGE);
  g_type_ensure (TL_TYPE_COMPARE_PAGE);
  g_type_ensure (TL_TYPE_BLOCKS_PAGE);
  g_type_ensure (TL_TYPE_GAUSS_PAGE);
  g_type_ensure (TL_TYPE_SOURCE_PAGE);
  g_type_ensure (TL_TYPE_DEVICE_PAGE);
  g_type_ensure (TL_TYPE_ROOFLINE_PAGE);
  g_type_ensure (TL_TYPE_LESSON_PAGE);
}
