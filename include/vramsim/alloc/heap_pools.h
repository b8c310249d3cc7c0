/* SPDX-License-Identifier: Zlib */
/* heap_pools.h - power-of-two pools with free stacks (from the blog post
 * "Game From Zero: Part 2. 'Memory'").
 *
 * The region is split into eight pools, one per class of 8, 16, ... 1024
 * bytes. A request rounds up to its class (the rounding is internal
 * fragmentation: the whole class is granted) and is served by that pool
 * alone: from the top of the pool's free stack when it has freed slots, else
 * by bumping the pool's next-slot index. As in the post, the free information
 * is kept apart from the blocks: each pool's stack of slot addresses
 * (4 bytes per slot, the post's "stack of pointers") sits in the region
 * before the pool's slots and counts as overhead, so slots are packed. Slots
 * start aligned to their class. Freeing an address no pool handed out is an
 * error (the post panics; here HEAP_INVALID), as is freeing a free slot.
 */
#ifndef VRAMSIM_ALLOC_HEAP_POOLS_H
#define VRAMSIM_ALLOC_HEAP_POOLS_H

#include <stdint.h>

#include "vramsim/alloc/heap_common.h"

#define HEAP_POOLS_CLASSES 8u
#define HEAP_POOLS_MIN 8u
#define HEAP_POOLS_MAX 1024u

typedef struct heap_pool {
	uint32_t stack;   /* offset of the free stack (count entries of 4 bytes) */
	uint32_t slots;   /* offset of slot 0 */
	uint32_t count;   /* slots in the pool */
	uint32_t bumped;  /* slots handed out by bumping so far */
	uint32_t depth;   /* entries on the free stack */
	uint32_t live;
} heap_pool;

typedef struct heap_pools {
	uint32_t size;
	uint32_t objects;
	heap_pool pool[HEAP_POOLS_CLASSES];
} heap_pools;

/* weights: the share of the region each class gets (8 entries, any scale;
 * NULL or all zero: equal shares). A class with weight 0 gets no pool. */
int heap_pools_init(heap_pools *p, uint8_t *base, uint32_t size, const uint32_t *weights);
/* HEAP_UNSUPPORTED for requests above 1024 bytes (or align above 1024). */
int heap_pools_alloc(heap_pools *p, uint8_t *base, uint32_t size, uint32_t align, heap_block *out);
int heap_pools_free(heap_pools *p, uint8_t *base, uint32_t offset);
void heap_pools_walk_free(const heap_pools *p, const uint8_t *base, heap_extent_fn fn, void *ud);
/* The bytes no slot covers: each pool's free stack and the pad aligning its
 * slots, the rest of a share too small for a slot, what no pool got. */
void heap_pools_walk_held(const heap_pools *p, heap_extent_fn fn, void *ud);
/* high_water: bytes of slots ever handed out by bumping, over all pools. */
void heap_pools_status(const heap_pools *p, const uint8_t *base, heap_status *st);
/* Class index (0-7) for a request, or -1 when it is too large. */
int heap_pools_class(uint32_t size, uint32_t align);

#endif
