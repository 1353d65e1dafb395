/* tl-error.h — the one error domain of Tilelab's model and engine.
 *
 * Recoverable runtime failures (a bad file, a shape a kernel cannot take,
 * no GPU, out of memory) are GErrors in TL_ERROR.  Cancellation uses
 * G_IO_ERROR_CANCELLED so GTask and GCancellable code recognise it.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define TL_ERROR (tl_error_quark ())

typedef enum
{
  TL_ERROR_PARSE,         /* a file's content is malformed: says file, line, column */
  TL_ERROR_IO,            /* reading or writing failed at the OS level */
  TL_ERROR_TOO_LARGE,     /* a size beyond the memory cap or the machine */
  TL_ERROR_UNSUPPORTED,   /* a valid but unsupported variant (complex MatrixMarket, object npy) */
  TL_ERROR_SHAPE,         /* mismatched or impossible shapes, a shape a kernel can't take */
  TL_ERROR_INVALID,       /* bad argument values: unknown kernel, NaN where not allowed */
  TL_ERROR_NO_DEVICE,     /* no CUDA device, or CUDA not built */
  TL_ERROR_OUT_OF_MEMORY, /* GPU (or host) memory exhausted */
  TL_ERROR_LAUNCH_FAILED, /* a kernel launch failed, the device is still usable */
  TL_ERROR_DEVICE_LOST,   /* a sticky device fault: restart needed */
  TL_ERROR_SINGULAR,      /* a singular system where a unique answer was asked for */
} TlErrorCode;

GQuark tl_error_quark (void);

G_END_DECLS
