/* SPDX-License-Identifier: Zlib */
/* grow.h - growing an array by doubling, with the overflow checks.
 *
 * An array grown from input (trace events, budget rows, script lines) must
 * not wrap its count or its size in bytes on hostile input: that would give
 * a buffer smaller than the count says. These functions refuse instead, so
 * the caller reports "out of memory".
 */
#ifndef VRAMSIM_GROW_H
#define VRAMSIM_GROW_H

#include <stddef.h>
#include <stdint.h>

/* Makes *pp, an array of *cap elements of elem bytes (pp is the address of
 * the array's pointer, NULL when none yet), hold at least need elements:
 * nothing when it does already, else a realloc to the first capacity
 * (first, when *cap is 0) doubled until it holds need. The doubling stops
 * at the largest count whose size in bytes fits size_t. Returns 0, or -1
 * with *pp and *cap as they were when need is past that count or realloc
 * fails. elem and first are at least 1. */
int vs_grow(void *pp, size_t elem, size_t *cap, size_t need, size_t first);

/* The same for a capacity kept as uint32_t or int: the doubling also
 * stops at UINT32_MAX or INT_MAX elements, and need beyond it is refused. */
int vs_grow_u32(void *pp, size_t elem, uint32_t *cap, size_t need, uint32_t first);
int vs_grow_int(void *pp, size_t elem, int *cap, size_t need, int first);

#endif
