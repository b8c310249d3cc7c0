/* SPDX-License-Identifier: Zlib */
/* heap_tracking.h - The Simpsons: Hit & Run's TrackingHeap.
 *
 * The real one gets its bytes from malloc and keeps, in its own storage, only
 * a table of what it handed out so the allocations can be freed (and listed)
 * later. Here the heap owns a region: its storage - the record table - sits
 * at the start of it and counts as overhead, and the bytes it hands out come
 * from the rest, placed first fit in the gaps between the records (the
 * lowest-addressed gap that holds the request at its alignment). There are
 * no headers in the data: the table is all the bookkeeping in the region,
 * which is the point of the design. A full table fails the request with
 * HEAP_MANAGEMENT even when bytes are free.
 *
 * The table holds a record (offset, size: 8 bytes) per live block, in no
 * order: a block takes a free slot and gives it back when freed (free slots
 * are listed through the table itself). The order by address is kept in an
 * index the caller gives in memory of its own, outside the region, one node
 * per slot: an AVL tree keyed by the record's offset (kept in the node too,
 * so a walk down the tree reads no region bytes) whose nodes also know where
 * the gap before their record starts and, for their subtree, the most bytes
 * one gap offers a request at the heap's alignment, and its largest gap.
 * First fit then reads O(log n) nodes for a request at the heap's alignment
 * (every request that names none); one naming another alignment may also
 * look into subtrees that turn out to hold no gap for it (their gaps are
 * large enough but not at its alignment). A free finds its record, and its
 * gap, in O(log n).
 *
 * The index is HEAP_TRACKING_NODE bytes a record (capacity nodes): pass the
 * same nodes to every call, untouched between calls. The state and the
 * region bytes alone do not make a snapshot; with the index they do.
 */
#ifndef VRAMSIM_ALLOC_HEAP_TRACKING_H
#define VRAMSIM_ALLOC_HEAP_TRACKING_H

#include <stdint.h>

#include "vramsim/alloc/heap_common.h"

#define HEAP_TRACKING_RECORD 8u

/* A node of the index, for the record in the slot of the same number. */
typedef struct heap_tracking_node {
	uint32_t left, right; /* slots of the children, HEAP_NIL for none */
	uint32_t key;         /* the record's offset, as in the table */
	uint32_t lo;          /* the gap before this record starts here */
	uint32_t fit;         /* subtree: most bytes one gap offers at the heap's alignment */
	uint32_t gap;         /* subtree: the largest gap */
	uint32_t height;      /* of the subtree, a leaf 1 */
} heap_tracking_node;

#define HEAP_TRACKING_NODE ((uint32_t)sizeof(heap_tracking_node))

typedef struct heap_tracking {
	uint32_t size;
	uint32_t capacity;  /* records the table holds */
	uint32_t data;      /* first data byte: after the table */
	uint32_t align;     /* alignment when a request gives none */
	uint32_t count;     /* live records */
	uint32_t live_bytes;
	uint32_t high_water;
	uint32_t root;      /* slot at the root of the index; HEAP_NIL: no records */
	uint32_t tail;      /* the gap after the last record starts here */
	uint32_t free_slot; /* first slot of the free list; HEAP_NIL: none */
	uint32_t used;      /* slots from here up were never taken */
} heap_tracking;

/* The table capacity heap_tracking_init gives (0 when it would fail): the
 * number of index nodes to give the heap. */
uint32_t heap_tracking_capacity(uint32_t size, uint32_t records, uint32_t align);
/* records: table capacity (0: one record per 256 bytes of region, at least
 * 16). align: default alignment (0/1: 8). */
int heap_tracking_init(heap_tracking *t, uint8_t *base, uint32_t size, uint32_t records, uint32_t align);
/* ix: capacity nodes, the heap's index. */
int heap_tracking_alloc(heap_tracking *t, uint8_t *base, heap_tracking_node *ix, uint32_t size, uint32_t align,
	heap_block *out);
int heap_tracking_free(heap_tracking *t, uint8_t *base, heap_tracking_node *ix, uint32_t offset);
/* Free extents in address order. */
void heap_tracking_walk_free(const heap_tracking *t, const uint8_t *base, const heap_tracking_node *ix,
	heap_extent_fn fn, void *ud);
void heap_tracking_status(const heap_tracking *t, const uint8_t *base, const heap_tracking_node *ix,
	heap_status *st);

#endif
