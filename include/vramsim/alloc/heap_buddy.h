/* SPDX-License-Identifier: Zlib */
/* heap_buddy.h - binary buddy system (Knowlton 1965, Knuth TAOCP 2.5).
 *
 * Blocks are powers of two from 16 bytes up, each aligned to its own size.
 * A request takes the smallest block that holds it plus its header, splitting
 * larger blocks in halves; a freed block merges with its buddy (the other
 * half of the block they were split from, found by flipping one address bit)
 * as long as the buddy is free and whole. A region that is not a power of two
 * is covered by its largest powers of two, highest first, each a tree of its
 * own; bytes below 16 at the end are never used.
 *
 * The real overhead: every block starts with an 8-byte header (a tag word with
 * in-use bit and order, and the block start), so the payload keeps 8-byte
 * alignment; the free lists (one per order) are linked through the free
 * blocks, their heads kept in the state (Knuth's AVAIL array). Alignment
 * above 8 moves the payload to block + align, with a copy of the header just
 * before it so free finds the block.
 */
#ifndef VRAMSIM_ALLOC_HEAP_BUDDY_H
#define VRAMSIM_ALLOC_HEAP_BUDDY_H

#include <stdint.h>

#include "vramsim/alloc/heap_common.h"

#define HEAP_BUDDY_MIN_ORDER 4u   /* 16-byte blocks */
#define HEAP_BUDDY_HEADER 8u
#define HEAP_BUDDY_ORDERS 32u

typedef struct heap_buddy {
	uint32_t size;
	uint32_t limit;        /* bytes covered by blocks: size rounded down to 16 */
	uint32_t max_order;    /* order of the largest root */
	uint32_t heads[HEAP_BUDDY_ORDERS];
	uint32_t free_bytes;
	uint32_t objects;
	uint32_t high_water;
} heap_buddy;

int heap_buddy_init(heap_buddy *h, uint8_t *base, uint32_t size);
int heap_buddy_alloc(heap_buddy *h, uint8_t *base, uint32_t size, uint32_t align, heap_block *out);
int heap_buddy_free(heap_buddy *h, uint8_t *base, uint32_t payload);
void heap_buddy_walk_free(const heap_buddy *h, const uint8_t *base, heap_extent_fn fn, void *ud);
void heap_buddy_status(const heap_buddy *h, const uint8_t *base, heap_status *st);

#endif
