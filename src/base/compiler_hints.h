/* SPDX-License-Identifier: Zlib */
/* compiler_hints.h - where the hot paths ask the compiler to put code.
 *
 * The replay's per-event paths keep rare work out of line (so the common
 * case saves no registers for it) and a few tiny helpers in line; each use
 * was measured (docs/performance.md). GCC and clang take the hints; other
 * compilers get plain C.
 */
#ifndef VRAMSIM_COMPILER_HINTS_H
#define VRAMSIM_COMPILER_HINTS_H

#if defined(__GNUC__)
#define VS_NOINLINE __attribute__((noinline))
#define VS_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define VS_NOINLINE
#define VS_ALWAYS_INLINE inline
#endif

#endif
