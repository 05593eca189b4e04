// The AVX-512 intrinsics of the VBMI blocks (gorilla_blocks.cc, ts2diff_blocks.cc), where they are
// built (common/cpu_dispatch.h: TSREAD_AVX512_VBMI_DISPATCH). Include it from those .cc files only:
// GCC 12's AVX-512 headers start intrinsics from an "undefined" register, which it then reports as
// maybe uninitialized where they are inlined (GCC bug 105593), so the including file turns that
// warning off; nothing there reads such a value.
#ifndef TSREAD_ENCODING_VBMI_INTRINSICS_H_
#define TSREAD_ENCODING_VBMI_INTRINSICS_H_

#include "tsread/common/cpu_dispatch.h"

#if TSREAD_AVX512_VBMI_DISPATCH
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>
#endif

#endif  // TSREAD_ENCODING_VBMI_INTRINSICS_H_
