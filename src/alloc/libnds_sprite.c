/* SPDX-License-Identifier: Zlib */
/* libnds_sprite.c - libnds's sprite graphics allocator (sprite_alloc.c at
 * devkitPro/libnds 6194b32), step for step: each header access goes
 * through ah(), as each of the library's goes through getAllocHeader, so
 * allocBuffer grows (and overflows) when and as the library's does.
 *
 * Reach: simpleAlloc only touches headers below 1024 + 2 * 256 (a block
 * start, its misalignment and the request, each request at most 256
 * units); simpleFree touches the index it is given (at most 2032, from the
 * Bmp_2D_256 formula) and list links it stored, which are all such values;
 * so 2048 entries hold every header and allocBufferSize stops at 2048 (its
 * s16 never wraps). */
#include "vramsim/alloc/libnds_sprite.h"

#define END 1024      /* the list's terminator and the heap's size in units */
#define WALK_MAX 2100 /* more steps than distinct headers: the walk loops */

static const uint8_t map_step[LIBNDS_MAP_COUNT] = { 5, 6, 7, 8, 5, 7, 8, 7, 8 };

/* getAllocHeader: one doubling when index is at or past the size. The
 * access is counted as past the buffer when one doubling was not enough. */
static libnds_sprite_hdr *ah(libnds_sprite *o, int index)
{
	if (index >= o->buf_size)
		o->buf_size = (int16_t)(o->buf_size * 2);
	while ((o->fixes & LIBNDS_SPRITE_FIX_GROW) && index >= o->buf_size)
		o->buf_size = (int16_t)(o->buf_size * 2);
	if (index < 0 || index >= (int)LIBNDS_SPRITE_HDRS) {
		/* unreachable by the argument above; kept so a slip cannot write
		 * outside the struct */
		o->hung = 1;
		o->scratch.next_free = END;
		o->scratch.size = 0;
		return &o->scratch;
	}
	if (index >= o->buf_size) {
		o->oob++;
		if (index > o->oob_max)
			o->oob_max = (uint16_t)index;
	}
	return &o->hdr[index];
}

void libnds_sprite_init(libnds_sprite *o, unsigned mapping, unsigned fixes)
{
	if (mapping >= LIBNDS_MAP_COUNT)
		mapping = LIBNDS_MAP_1D_128;
	o->mapping = (uint8_t)mapping;
	o->step = map_step[mapping];
	o->fixes = (uint8_t)fixes;
	/* OamState's initialiser; oamInit then calls oamAllocReset */
	o->buf_live = 1;
	libnds_sprite_reset(o);
}

void libnds_sprite_reset(libnds_sprite *o)
{
	uint32_t i;

	/* oamAllocReset acts only when there is a buffer: firstFree 0 and 32
	 * entries again. Its memory goes back to the heap; the next one reads
	 * as 0 where nothing was written. */
	if (o->buf_live) {
		o->buf_live = 0;
		o->buf_size = LIBNDS_SPRITE_BUF0;
		o->first_free = 0;
	}
	for (i = 0; i < LIBNDS_SPRITE_HDRS; i++)
		o->hdr[i].next_free = o->hdr[i].size = 0;
	o->hung = 0;
	o->oob = 0;
	o->oob_max = 0;
	o->frees_moved = 0;
}

/* oamAllocPrepare: the buffer and one free block of the whole heap. */
static void prepare(libnds_sprite *o)
{
	if (o->buf_live)
		return;
	o->buf_live = 1;
	ah(o, 0)->next_free = END;
	ah(o, 0)->size = END;
}

/* Units to skip from cur to the next multiple of size (size - 1 used as a
 * mask, as the library does). */
static int misalign(uint16_t cur, int size)
{
	int m = cur & (size - 1);

	return m ? size - m : 0;
}

/* simpleAlloc's tail: the block at cur (after last) has room; take size.
 * Where C leaves the order of two getAllocHeader calls open, the model
 * reads the right-hand side first (only the oob count can depend on it). */
static void take(libnds_sprite *o, uint16_t cur, int next, int last, int size)
{
	uint16_t nf, sz;

	if (cur == o->first_free) {
		if (ah(o, next)->size == size) {
			o->first_free = (int16_t)ah(o, next)->next_free;
		} else {
			o->first_free = (int16_t)(cur + size);
			nf = ah(o, next)->next_free;
			ah(o, o->first_free)->next_free = nf;
			sz = ah(o, next)->size;
			ah(o, o->first_free)->size = (uint16_t)(sz - size);
		}
	} else if (ah(o, next)->size == size) {
		nf = ah(o, next)->next_free;
		ah(o, last)->next_free = nf;
	} else {
		ah(o, last)->next_free = (uint16_t)(cur + size);
		nf = ah(o, next)->next_free;
		ah(o, cur + size)->next_free = nf;
		sz = ah(o, next)->size;
		ah(o, cur + size)->size = (uint16_t)(sz - size);
	}
	ah(o, next)->size = (uint16_t)size;
}

static int32_t simple_alloc(libnds_sprite *o, int size)
{
	uint16_t cur;
	int mis, next, last, steps = 0;

	prepare(o);
	cur = (uint16_t)o->first_free;
	if (o->first_free >= END || o->first_free == -1) {
		o->first_free = -1;
		return -1;
	}
	mis = misalign(cur, size);
	next = last = o->first_free;
	/* first fit: a block with room for size units past its misalignment */
	while ((int)ah(o, next)->size - mis < size) {
		cur = ah(o, next)->next_free;
		mis = misalign(cur, size);
		if (cur >= END)
			return -1;
		if (++steps > WALK_MAX) {
			o->hung = 1;
			return -1;
		}
		last = next;
		next = cur;
	}
	if (mis) {
		/* the misaligned head stays free, the rest becomes its successor */
		int tsize = ah(o, next)->size, tnext = ah(o, next)->next_free;
		cur = (uint16_t)(cur + mis);
		ah(o, next)->size = (uint16_t)mis;
		ah(o, next)->next_free = cur;
		last = next;
		next = cur;
		ah(o, next)->size = (uint16_t)(tsize - mis);
		ah(o, next)->next_free = (uint16_t)tnext;
	}
	take(o, cur, next, last, size);
	return o->hung ? -1 : cur;
}

uint32_t libnds_sprite_units(const libnds_sprite *o, uint32_t pixels, unsigned color_format)
{
	uint32_t bytes = pixels;

	if (color_format == LIBNDS_COLOR_16)
		bytes >>= 1;
	else if (color_format == LIBNDS_COLOR_BMP)
		bytes <<= 1;
	bytes >>= o->step;
	return bytes ? bytes : 1u;
}

int32_t libnds_sprite_alloc(libnds_sprite *o, uint32_t pixels, unsigned color_format)
{
	uint32_t units = libnds_sprite_units(o, pixels, color_format);

	if (o->hung || units > 256u) /* 64x64 bitmap at 32-byte units: the largest request */
		return -1;
	return simple_alloc(o, (int)units);
}

uint32_t libnds_sprite_ptr_to_index(const libnds_sprite *o, uint32_t byte_offset)
{
	uint32_t t = (byte_offset & 0xFFFFFu) >> 1; /* halfwords */

	switch (o->mapping) {
	case LIBNDS_MAP_2D:
	case LIBNDS_MAP_BMP_2D_128:
		/* DISPLAY_SPR_1D clear, 2D_BMP_256 clear: a 128-dot bitmap matrix */
		return ((t & 0x7Fu) >> 3) | ((t >> 10) << 4);
	case LIBNDS_MAP_BMP_2D_256:
		return ((t & 0xFFu) >> 3) | ((t >> 11) << 5);
	default:
		return (byte_offset & 0xFFFFFu) >> o->step;
	}
}

/* simpleFree's walk and merges, for a block after the first free one. */
static void free_after(libnds_sprite *o, int index)
{
	uint16_t cur = (uint16_t)o->first_free;
	int next = o->first_free, current = index, steps = 0;
	uint16_t nf, sz;

	/* the free block before index */
	while (index > ah(o, next)->next_free) {
		cur = ah(o, next)->next_free;
		next = ah(o, next)->next_free; /* read twice, as the library does */
		if (++steps > WALK_MAX) {
			o->hung = 1;
			return;
		}
	}
	/* merge with the following free block when they touch */
	nf = ah(o, next)->next_free;
	if (nf == index + ah(o, current)->size && ah(o, next)->next_free < END) {
		sz = ah(o, ah(o, next)->next_free)->size;
		sz = (uint16_t)(ah(o, current)->size + sz);
		ah(o, current)->size = sz;
		nf = ah(o, ah(o, next)->next_free)->next_free;
		ah(o, current)->next_free = nf;
	} else {
		nf = ah(o, next)->next_free;
		ah(o, current)->next_free = nf;
	}
	/* and with the one before */
	if (cur + ah(o, next)->size == index) {
		sz = ah(o, current)->size;
		sz = (uint16_t)(ah(o, next)->size + sz);
		ah(o, next)->size = sz;
		nf = ah(o, current)->next_free;
		ah(o, next)->next_free = nf;
	} else {
		ah(o, next)->next_free = (uint16_t)index;
	}
}

static void simple_free(libnds_sprite *o, int index)
{
	int next = o->first_free, current = index;

	if (o->first_free == -1 || o->first_free >= END) {
		/* the heap was full: the block becomes the whole free list */
		o->first_free = (int16_t)index;
		ah(o, current)->next_free = END;
		return;
	}
	if (index < o->first_free) {
		if (index + ah(o, current)->size == o->first_free) {
			uint16_t sz = ah(o, next)->size, nf;
			sz = (uint16_t)(ah(o, current)->size + sz);
			ah(o, current)->size = sz;
			nf = ah(o, next)->next_free;
			ah(o, current)->next_free = nf;
		} else {
			ah(o, current)->next_free = (uint16_t)o->first_free;
		}
		o->first_free = (int16_t)index;
		return;
	}
	free_after(o, index);
}

int libnds_sprite_free(libnds_sprite *o, uint32_t byte_offset)
{
	uint32_t index = libnds_sprite_ptr_to_index(o, byte_offset), meant = byte_offset >> o->step;

	if (o->hung || !o->buf_live)
		return -1;
	if (o->fixes & LIBNDS_SPRITE_FIX_FREE)
		index = meant;
	else if (index != meant)
		o->frees_moved++;
	simple_free(o, (int)index);
	return o->hung ? -1 : 0;
}

int libnds_sprite_count_fragments(libnds_sprite *o)
{
	int frags = 1, cur, steps = 0;
	const libnds_sprite_hdr *n;

	if (!o->buf_live)
		return 0;
	if (o->hung)
		return -1;
	/* firstFree -1 reads allocBuffer[-1]: the malloc chunk's size word,
	 * whose low half (4 * entries + 9 with newlib) is past the buffer's
	 * size, so the loop below does not start. */
	if (o->first_free < 0)
		return 1;
	n = ah(o, o->first_free);
	cur = n->next_free;
	/* cur trails n by one step: a list of k >= 2 blocks counts k + 1 */
	while (cur < END && cur < o->buf_size) {
		cur = n->next_free;
		n = ah(o, n->next_free);
		frags++;
		if (++steps > WALK_MAX)
			return -1;
	}
	return frags;
}
