/* SPDX-License-Identifier: Zlib */
/* strat_heap_common.h - internal: what the RAM heap adapters share.
 *
 * Each adapter's state is { mem, allocator state }: the allocators take the
 * region's bytes on every call (their own state holds offsets only), so the
 * adapter keeps the arena's byte pointer it got at init. That pointer is not
 * into the state, so the state stays memcpy-able; it assumes the arena bytes
 * stay where init saw them. */
#ifndef VS_SIM_STRAT_HEAP_COMMON_H
#define VS_SIM_STRAT_HEAP_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vramsim/alloc/heap_common.h"
#include "vramsim/strategy.h"
#include "base/options.h"

/* Alignment a request asks for: 0/1 mean none. */
static inline int vs_heap_align_ok(uint32_t align)
{
	return align <= 1u || heap_is_pow2(align);
}

static inline void vs_heap_place(vs_placement *out, const heap_block *b)
{
	out->offset = b->offset;
	out->granted = b->granted;
	out->block_offset = b->block_offset;
	out->block_size = b->block_size;
	out->key = b->offset;
	out->shared = 0;
}

/* held for the boundary-tagged heaps (fit, TLSF, Doug Lea): everything
 * before the first block (control block, alignment pad) and from the
 * epilogue head to the arena's end (epilogue, bytes past the last multiple
 * of 8). Free blocks and live blocks cover the rest exactly. */
static inline void vs_heap_held_ends(uint32_t first, uint32_t epi, uint32_t size, vs_extent_fn fn, void *ud)
{
	if (epi == 0)
		return; /* no heap laid out */
	if (first && fn(ud, 0, first))
		return;
	if (epi < size)
		fn(ud, epi, size - epi);
}

static inline void vs_heap_print_status(const heap_status *s, vs_print_fn print, void *ud)
{
	char line[160];

	snprintf(line, sizeof line, "status: free %u, largest block %u, objects %u, high-water %u\n",
		(unsigned)s->total_free, (unsigned)s->largest, (unsigned)s->objects, (unsigned)s->high_water);
	print(ud, line);
}

#endif
