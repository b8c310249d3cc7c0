/* SPDX-License-Identifier: Zlib */
/* grow.c - growing an array by doubling (src/base/grow.h). */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"

/* max: the most elements the caller's capacity can count. */
static int grow(void *pp, size_t elem, size_t *cap, size_t need, size_t first, size_t max)
{
	size_t limit = SIZE_MAX / elem, n;
	void *p;

	if (need <= *cap)
		return 0;
	if (limit > max)
		limit = max;
	if (need > limit)
		return -1;
	n = *cap ? *cap : first;
	if (n < 1)
		n = 1;
	if (n > limit)
		n = limit;
	while (n < need)
		n = n > limit / 2 ? limit : n * 2;
	/* the pointer is copied, not read through a void **: *pp is some T * */
	memcpy(&p, pp, sizeof p);
	p = realloc(p, n * elem);
	if (!p)
		return -1;
	memcpy(pp, &p, sizeof p);
	*cap = n;
	return 0;
}

int vs_grow(void *pp, size_t elem, size_t *cap, size_t need, size_t first)
{
	return grow(pp, elem, cap, need, first, SIZE_MAX);
}

int vs_grow_u32(void *pp, size_t elem, uint32_t *cap, size_t need, uint32_t first)
{
	size_t c = *cap;

	if (grow(pp, elem, &c, need, first, UINT32_MAX))
		return -1;
	*cap = (uint32_t)c;
	return 0;
}

int vs_grow_int(void *pp, size_t elem, int *cap, size_t need, int first)
{
	size_t c = *cap > 0 ? (size_t)*cap : 0;

	if (grow(pp, elem, &c, need, first > 0 ? (size_t)first : 1, INT_MAX))
		return -1;
	*cap = (int)c;
	return 0;
}
