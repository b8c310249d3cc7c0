/* SPDX-License-Identifier: Zlib */
/* compiler_hints.h - where the hot paths ask the compiler to put code, and
 * what it should check.
 *
 * The replay's per-event paths keep rare work out of line (so the common
 * case saves no registers for it) and a few tiny helpers in line; each use
 * was measured (docs/performance.md). Printf-like helpers say so, so that
 * every call's arguments are checked against its format. GCC and clang take
 * the hints; other compilers get plain C.
 */
#ifndef VRAMSIM_COMPILER_HINTS_H
#define VRAMSIM_COMPILER_HINTS_H

/* VS_PRINTF(fmt_idx, arg_idx): the function's parameter fmt_idx (from 1)
 * is a printf format for the arguments from arg_idx on, or for a va_list
 * when arg_idx is 0. */
/* VS_COLD: a function hardly ever called (a report of a broken contract):
 * kept out of line, and the branches to it laid out as not taken. */
#if defined(__GNUC__)
#define VS_NOINLINE __attribute__((noinline))
#define VS_COLD __attribute__((cold, noinline))
#define VS_ALWAYS_INLINE inline __attribute__((always_inline))
#define VS_PRINTF(fmt_idx, arg_idx) __attribute__((format(printf, fmt_idx, arg_idx)))
#else
#define VS_NOINLINE
#define VS_COLD
#define VS_ALWAYS_INLINE inline
#define VS_PRINTF(fmt_idx, arg_idx)
#endif

/* VS_ASAN: built with AddressSanitizer, which GCC says with a macro and
 * clang with a feature test. */
#if defined(__SANITIZE_ADDRESS__)
#define VS_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define VS_ASAN 1
#endif
#endif

#endif
