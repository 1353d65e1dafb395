#include "core/tl-error.h"

G_DEFINE_QUARK (tl-error-quark, tl_error)
