/* SPDX-License-Identifier: Zlib */
/* heap_buddy.c - binary buddy system with in-block headers. */
#include "vramsim/alloc/heap_buddy.h"

#define MAGIC 0xBD000000u
#define INUSE 0x100u
#define MIN HEAP_BUDDY_MIN_ORDER

/* Header: tag word (magic | in use | order), then the block start. */
static void set_tag(uint8_t *m, uint32_t at, uint32_t block, uint32_t order, int inuse)
{
	heap_st32(m, at, MAGIC | (inuse ? INUSE : 0u) | order);
	heap_st32(m, at + 4u, block);
}

static int is_free_of_order(const uint8_t *m, uint32_t b, uint32_t order)
{
	return heap_ld32(m, b) == (MAGIC | order);
}

/* Free links sit after the header. */
static uint32_t nxt(const uint8_t *m, uint32_t b) { return heap_ld32(m, b + 8u); }
static uint32_t prv(const uint8_t *m, uint32_t b) { return heap_ld32(m, b + 12u); }

static void push(heap_buddy *h, uint8_t *m, uint32_t b, uint32_t k)
{
	uint32_t n = h->heads[k];

	set_tag(m, b, b, k, 0);
	heap_st32(m, b + 8u, n);
	heap_st32(m, b + 12u, HEAP_NIL);
	if (n != HEAP_NIL)
		heap_st32(m, n + 12u, b);
	h->heads[k] = b;
	h->free_bytes += 1u << k;
}

static void unlink_block(heap_buddy *h, uint8_t *m, uint32_t b, uint32_t k)
{
	uint32_t n = nxt(m, b), p = prv(m, b);

	if (p == HEAP_NIL)
		h->heads[k] = n;
	else
		heap_st32(m, p + 8u, n);
	if (n != HEAP_NIL)
		heap_st32(m, n + 12u, p);
	h->free_bytes -= 1u << k;
}

int heap_buddy_init(heap_buddy *h, uint8_t *m, uint32_t size)
{
	uint32_t k, at = 0;

	h->size = size;
	h->limit = size & ~((1u << MIN) - 1u);
	h->max_order = 0;
	h->free_bytes = 0;
	h->objects = 0;
	h->high_water = 0;
	for (k = 0; k < HEAP_BUDDY_ORDERS; k++)
		h->heads[k] = HEAP_NIL;
	if (h->limit == 0)
		return HEAP_NOSPACE;
	/* Largest powers of two first: each root is aligned to its own size. */
	for (k = HEAP_BUDDY_ORDERS - 1u; k >= MIN; k--) {
		if (h->limit - at >= (1u << k) && (h->limit - at) >> k) {
			if (!h->max_order)
				h->max_order = k;
			push(h, m, at, k);
			at += 1u << k;
		}
	}
	return HEAP_OK;
}

int heap_buddy_alloc(heap_buddy *h, uint8_t *m, uint32_t size, uint32_t align, heap_block *out)
{
	uint32_t off, need, k, j, b;

	if (align <= 1)
		align = HT_ALIGN;
	if (!heap_is_pow2(align))
		return HEAP_INVALID;
	off = align > HEAP_BUDDY_HEADER ? align : HEAP_BUDDY_HEADER;
	if (h->max_order == 0 || size > (1u << h->max_order) || off > (1u << h->max_order) - size)
		return HEAP_NOSPACE;
	need = off + (size ? size : 1u); /* the payload starts inside its block */
	for (k = MIN; (1u << k) < need; k++)
		;
	for (j = k; j <= h->max_order && h->heads[j] == HEAP_NIL; j++)
		;
	if (j > h->max_order)
		return HEAP_NOSPACE;
	b = h->heads[j];
	unlink_block(h, m, b, j);
	while (j > k) {
		j--;
		push(h, m, b + (1u << j), j);
	}
	set_tag(m, b, b, k, 1);
	if (off > HEAP_BUDDY_HEADER)
		set_tag(m, b + off - HEAP_BUDDY_HEADER, b, k, 1);
	h->objects++;
	if (b + (1u << k) > h->high_water)
		h->high_water = b + (1u << k);
	out->offset = b + off;
	out->granted = (1u << k) - off;
	out->block_offset = b;
	out->block_size = 1u << k;
	return HEAP_OK;
}

int heap_buddy_free(heap_buddy *h, uint8_t *m, uint32_t p)
{
	uint32_t tag, k, b;

	if (p < HEAP_BUDDY_HEADER || p > h->limit)
		return HEAP_INVALID;
	tag = heap_ld32(m, p - HEAP_BUDDY_HEADER);
	k = tag & 0xFFu;
	b = heap_ld32(m, p - 4u);
	if ((tag & ~(INUSE | 0xFFu)) != MAGIC || !(tag & INUSE) || k < MIN || k > h->max_order ||
	    (b & ((1u << k) - 1u)) || b >= h->limit || h->limit - b < (1u << k) ||
	    p < b + HEAP_BUDDY_HEADER || p >= b + (1u << k) || heap_ld32(m, b) != tag)
		return HEAP_INVALID;
	h->objects--;
	/* The block's own tag says free even when it melts into a lower buddy,
	 * so a second free of this payload is caught. */
	set_tag(m, b, b, k, 0);
	/* Merge upwards while the buddy is a whole free block of the same order. */
	while (k < h->max_order) {
		uint32_t bud = b ^ (1u << k);

		if (bud >= h->limit || h->limit - bud < (1u << k) || !is_free_of_order(m, bud, k))
			break;
		unlink_block(h, m, bud, k);
		if (bud < b)
			b = bud;
		k++;
	}
	push(h, m, b, k);
	return HEAP_OK;
}

void heap_buddy_walk_free(const heap_buddy *h, const uint8_t *m, heap_extent_fn fn, void *ud)
{
	uint32_t k, b;

	for (k = MIN; k <= h->max_order && h->max_order; k++)
		for (b = h->heads[k]; b != HEAP_NIL; b = nxt(m, b))
			if (fn(ud, b, 1u << k))
				return;
}

void heap_buddy_status(const heap_buddy *h, const uint8_t *m, heap_status *st)
{
	uint32_t k;

	(void)m;
	st->largest = 0;
	for (k = MIN; k <= h->max_order && h->max_order; k++)
		if (h->heads[k] != HEAP_NIL)
			st->largest = 1u << k;
	st->total_free = h->free_bytes;
	st->objects = h->objects;
	st->high_water = h->high_water;
}
