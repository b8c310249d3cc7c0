/* SPDX-License-Identifier: Zlib */
/* nitro_engine_alloc.c - Nitro Engine's VRAM chunk list (NEAlloc.c at
 * 4c38c68), written anew from reading it: same walks, same splits, same
 * merges, same return codes. Line numbers in comments are NEAlloc.c's. */
#include "vramsim/alloc/nitro_engine_alloc.h"

#define NONE NE_ALLOC_NONE

/* Sizes are forced to multiples of 16 by adding what is missing (:236). */
static uint32_t round_size(uint32_t size)
{
	uint32_t mask = NE_ALLOC_MIN_SIZE - 1u;

	if (size & mask)
		size += NE_ALLOC_MIN_SIZE - (size & mask);
	return size;
}

/* malloc(sizeof(NEChunk)): an entry from the pool, NONE when it is empty. */
static uint16_t chunk_new(ne_alloc *a)
{
	uint16_t c = a->spare;

	if (c == NONE || a->live >= a->cap) {
		a->out_of_chunks = true;
		return NONE;
	}
	a->spare = a->chunk[c].next;
	a->live++;
	return c;
}

static void chunk_delete(ne_alloc *a, uint16_t c)
{
	a->chunk[c].next = a->spare;
	a->spare = c;
	a->live--;
}

int ne_alloc_init(ne_alloc *a, uint16_t cap, uint32_t start, uint32_t end)
{
	uint16_t i;
	ne_alloc_chunk *c;

	a->first = NONE;
	a->live = 0;
	a->out_of_chunks = false;
	if (end <= start)
		return -2;
	a->cap = cap < NE_ALLOC_CHUNKS ? cap : (uint16_t)NE_ALLOC_CHUNKS;
	/* the pool in index order, so chunk numbers are the same every run */
	a->spare = NONE;
	for (i = (uint16_t)NE_ALLOC_CHUNKS; i-- > 0;) {
		a->chunk[i].next = a->spare;
		a->spare = i;
	}
	a->first = chunk_new(a);
	if (a->first == NONE)
		return -3;
	c = &a->chunk[a->first];
	c->prev = c->next = NONE;
	c->state = NE_ALLOC_FREE;
	c->start = start;
	c->end = end;
	return 0;
}

/* ne_split_chunk (:75): this keeps its first this_size bytes, a new chunk
 * after it takes the rest, with this's old state until the caller sets it. */
static uint16_t split(ne_alloc *a, uint16_t t, uint32_t this_size)
{
	uint16_t n = chunk_new(a), next = a->chunk[t].next;
	ne_alloc_chunk *c = &a->chunk[t], *nc;

	if (n == NONE)
		return NONE;
	nc = &a->chunk[n];
	nc->prev = t;
	c->next = n;
	nc->next = next;
	if (next != NONE)
		a->chunk[next].prev = n;
	nc->end = c->end;
	c->end = c->start + this_size;
	nc->start = c->end;
	nc->state = c->state;
	return n;
}

/* ne_search_address (:123): the chunk holding addr, NONE when addr is
 * before the chunk the walk has reached or past the last one. */
static uint16_t search_address(const ne_alloc *a, uint32_t addr)
{
	uint16_t t;

	for (t = a->first; t != NONE; t = a->chunk[t].next) {
		if (addr < a->chunk[t].start)
			return NONE;
		if (addr < a->chunk[t].end)
			return t;
	}
	return NONE;
}

uint32_t ne_alloc_find_in_range(const ne_alloc *a, uint32_t start, uint32_t end, uint32_t size)
{
	uint16_t t;

	if (a->first == NONE || start == 0 || end == 0 || size == 0)
		return 0;
	t = start < a->chunk[a->first].start ? a->first : search_address(a, start);
	for (; t != NONE; t = a->chunk[t].next) {
		const ne_alloc_chunk *c = &a->chunk[t];
		uint32_t real_start;

		if (c->state != NE_ALLOC_FREE)
			continue;
		real_start = c->start < start ? start : c->start;
		if (c->end - real_start < size)
			continue;
		/* The first free chunk with room decides: past end is a failure,
		 * even when end lies before start (:192). */
		if (real_start + size > end)
			return 0;
		return real_start;
	}
	return 0;
}

int ne_alloc_address(ne_alloc *a, uint32_t address, uint32_t size)
{
	uint16_t t;
	uint32_t alloc_end, this_end;

	a->out_of_chunks = false;
	if (a->first == NONE || address == 0 || size == 0)
		return -1;
	size = round_size(size);
	/* ne_search_free_range_chunk (:203) */
	t = search_address(a, address);
	if (t == NONE || address + size > a->chunk[t].end || a->chunk[t].state != NE_ALLOC_FREE)
		return -2;
	alloc_end = address + size;
	this_end = a->chunk[t].end;
	if (a->chunk[t].start < address) {
		t = split(a, t, address - a->chunk[t].start);
		if (t == NONE)
			return -3;
	}
	a->chunk[t].state = NE_ALLOC_USED;
	if (alloc_end < this_end) {
		uint16_t n = split(a, t, size);
		if (n == NONE)
			/* :291 calls NE_Free(first_chunk, this) with the chunk's
			 * own pointer, which is no chunk's start: nothing is freed
			 * and [address, this_end) stays USED. */
			return -4;
		a->chunk[n].state = NE_ALLOC_FREE;
	}
	return 0;
}

uint32_t ne_alloc_alloc(ne_alloc *a, uint32_t size)
{
	uint16_t t;

	a->out_of_chunks = false;
	if (a->first == NONE || size == 0)
		return 0;
	size = round_size(size);
	for (t = a->first; t != NONE; t = a->chunk[t].next) {
		ne_alloc_chunk *c = &a->chunk[t];
		uint32_t this_size = c->end - c->start;

		if (c->state != NE_ALLOC_FREE || this_size < size)
			continue;
		if (this_size != size) {
			uint16_t n = split(a, t, size);
			if (n == NONE)
				return 0;
			a->chunk[n].state = NE_ALLOC_FREE;
		}
		a->chunk[t].state = NE_ALLOC_USED;
		return a->chunk[t].start;
	}
	return 0;
}

uint32_t ne_alloc_from_end(ne_alloc *a, uint32_t size)
{
	uint16_t t;

	a->out_of_chunks = false;
	if (a->first == NONE || size == 0)
		return 0;
	size = round_size(size);
	for (t = a->first; a->chunk[t].next != NONE; t = a->chunk[t].next)
		;
	for (; t != NONE; t = a->chunk[t].prev) {
		ne_alloc_chunk *c = &a->chunk[t];
		uint32_t this_size = c->end - c->start;
		uint16_t n;

		if (c->state != NE_ALLOC_FREE || this_size < size)
			continue;
		if (this_size == size) {
			c->state = NE_ALLOC_USED;
			return c->start;
		}
		/* the chunk keeps its low part free; the new one is the top */
		n = split(a, t, this_size - size);
		if (n == NONE)
			return 0;
		a->chunk[n].state = NE_ALLOC_USED;
		return a->chunk[n].start;
	}
	return 0;
}

uint16_t ne_alloc_chunk_at(const ne_alloc *a, uint32_t address)
{
	uint16_t t;

	for (t = a->first; t != NONE; t = a->chunk[t].next)
		if (a->chunk[t].start == address)
			return t;
	return NONE;
}

/* Takes chunk n out of the list; its space has gone to its neighbour. */
static void unlink_chunk(ne_alloc *a, uint16_t n)
{
	uint16_t p = a->chunk[n].prev, x = a->chunk[n].next;

	if (p != NONE)
		a->chunk[p].next = x;
	if (x != NONE)
		a->chunk[x].prev = p;
	chunk_delete(a, n);
}

int ne_alloc_free(ne_alloc *a, uint32_t pointer)
{
	uint16_t t, prev, next;

	if (a->first == NONE)
		return -1;
	/* The walk compares starts only: a pointer inside a chunk is not found. */
	t = ne_alloc_chunk_at(a, pointer);
	if (t == NONE)
		return -2;
	if (a->chunk[t].state != NE_ALLOC_USED)
		return -3;
	a->chunk[t].state = NE_ALLOC_FREE;
	prev = a->chunk[t].prev;
	next = a->chunk[t].next;
	if (prev != NONE && a->chunk[prev].state == NE_ALLOC_FREE) {
		a->chunk[prev].end = a->chunk[t].end;
		unlink_chunk(a, t);
		t = prev;
	}
	if (next != NONE && a->chunk[next].state == NE_ALLOC_FREE) {
		a->chunk[t].end = a->chunk[next].end;
		unlink_chunk(a, next);
	}
	return 0;
}

static int set_state(ne_alloc *a, uint32_t pointer, uint8_t from, uint8_t to)
{
	uint16_t t;

	if (a->first == NONE)
		return -1;
	t = ne_alloc_chunk_at(a, pointer);
	if (t == NONE)
		return -3;
	if (a->chunk[t].state != from)
		return -2;
	a->chunk[t].state = to;
	return 0;
}

int ne_alloc_lock(ne_alloc *a, uint32_t pointer)
{
	return set_state(a, pointer, NE_ALLOC_USED, NE_ALLOC_LOCKED);
}

int ne_alloc_unlock(ne_alloc *a, uint32_t pointer)
{
	return set_state(a, pointer, NE_ALLOC_LOCKED, NE_ALLOC_USED);
}

void ne_alloc_mem_info(const ne_alloc *a, ne_alloc_info *info)
{
	uint16_t t;

	info->free = info->used = info->total = info->locked = 0;
	for (t = a->first; t != NONE; t = a->chunk[t].next) {
		const ne_alloc_chunk *c = &a->chunk[t];
		uint32_t size = c->end - c->start;

		if (c->state == NE_ALLOC_FREE)
			info->free += size;
		else if (c->state == NE_ALLOC_USED)
			info->used += size;
		else
			info->locked += size;
	}
	info->total = info->free + info->used;
	info->free_percent = info->total ? (uint32_t)((uint64_t)info->free * 100u / info->total) : 0;
}
