/* SPDX-License-Identifier: Zlib */
/* libnds_sprite.h - libnds's 2D sprite graphics allocator (oamAllocateGfx,
 * oamFreeGfx, oamAllocReset, oamCountFragments), placing as the library's
 * source/arm9/sprite_alloc.c does at devkitPro/libnds 6194b32 (BlocksDS
 * 716fecd is the same code reformatted), defects included.
 *
 * The heap is always 1024 units of 2^step bytes (step 5-8 from the sprite
 * mapping, as oamInit sets gfxOffsetStep): a singly linked, address-ordered
 * free list whose headers {nextFree, size} live in allocBuffer, indexed by
 * unit offset. A request of n units (n = bytes >> step, at least 1) goes to
 * the first free block with room for n units at a multiple of n; a
 * misaligned head is split off as a free block of its own. Frees merge with
 * both neighbours. The heap never looks at how much OBJ VRAM is mapped.
 *
 * allocBuffer is malloc'd with 32 entries and doubled, once, by any access to
 * an index at or past its size (getAllocHeader); an index two or more
 * doublings away is read and written past the end of the buffer. The model
 * keeps every header in a 2048-entry array (every index the code can reach)
 * and so reads back what was stored, as on the DS when those bytes lie in
 * unused heap (the buffer is the last chunk of newlib's heap): placements
 * are then those of a big enough buffer. It counts the accesses that fall
 * past the buffer the library would have (oob) so a caller can report them.
 * Memory never written reads as 0.
 *
 * oamFreeGfx converts the pointer back to a unit index with
 * oamGfxPtrToOffset, which in the 2D mappings (SpriteMapping_2D,
 * Bmp_2D_128, Bmp_2D_256) is the 2D bitmap tile formula, not the unit index
 * simpleAlloc returned: the wrong block is freed, with whatever header lies
 * there. LIBNDS_SPRITE_FIX_FREE frees the right index instead.
 *
 * A corrupt free list can make the library loop forever; the model stops a
 * walk after more steps than the list can hold, marks itself hung, and
 * refuses every call until reset (the game would have frozen there).
 *
 * Freestanding: no host headers, all state in the caller's struct.
 */
#ifndef VRAMSIM_ALLOC_LIBNDS_SPRITE_H
#define VRAMSIM_ALLOC_LIBNDS_SPRITE_H

#include <stdbool.h>
#include <stdint.h>

#define LIBNDS_SPRITE_UNITS 1024u
#define LIBNDS_SPRITE_HDRS 2048u   /* header indices the code can reach: below 2048 (see the .c) */
#define LIBNDS_SPRITE_BUF0 32      /* allocBuffer's first size, in entries */

/* The SpriteMapping values by their role here (sprite.h). */
enum {
	LIBNDS_MAP_1D_32, LIBNDS_MAP_1D_64, LIBNDS_MAP_1D_128, LIBNDS_MAP_1D_256, LIBNDS_MAP_2D,
	LIBNDS_MAP_BMP_1D_128, LIBNDS_MAP_BMP_1D_256, LIBNDS_MAP_BMP_2D_128, LIBNDS_MAP_BMP_2D_256,
	LIBNDS_MAP_COUNT
};

/* SpriteColorFormat. */
enum { LIBNDS_COLOR_16 = 0, LIBNDS_COLOR_256 = 1, LIBNDS_COLOR_BMP = 3 };

/* Fixes (fixed=yes): free the index that was allocated; grow allocBuffer
 * until the index fits (placements are the same: only oob changes). */
enum { LIBNDS_SPRITE_FIX_FREE = 1u << 0, LIBNDS_SPRITE_FIX_GROW = 1u << 1 };

typedef struct libnds_sprite_hdr {
	uint16_t next_free, size; /* AllocHeader */
} libnds_sprite_hdr;

typedef struct libnds_sprite {
	libnds_sprite_hdr hdr[LIBNDS_SPRITE_HDRS]; /* allocBuffer's contents, as far as the code reaches */
	int16_t first_free;    /* OamState.firstFree: -1 once an allocation met an empty heap */
	int16_t buf_size;      /* OamState.allocBufferSize, in entries */
	uint8_t buf_live;      /* allocBuffer != NULL */
	uint8_t mapping, step; /* spriteMapping (LIBNDS_MAP_*), gfxOffsetStep */
	uint8_t fixes;         /* LIBNDS_SPRITE_FIX_* */
	uint8_t hung;          /* a walk looped: the game would have frozen */
	uint32_t oob;          /* header accesses past the end of the allocBuffer the library has */
	uint16_t oob_max;      /* the furthest index so accessed */
	uint16_t frees_moved;  /* frees whose index was not the allocated one (2D mappings) */
	libnds_sprite_hdr scratch; /* where a stray index would land (never, see the .c) */
} libnds_sprite;

/* oamInit(mapping) with fixes: sets step and resets the heap. */
void libnds_sprite_init(libnds_sprite *o, unsigned mapping, unsigned fixes);
/* oamAllocReset: frees allocBuffer (when there is one) and starts over. */
void libnds_sprite_reset(libnds_sprite *o);
/* Units a request takes: bytes >> step, at least 1 (oamAllocateGfx). */
uint32_t libnds_sprite_units(const libnds_sprite *o, uint32_t pixels, unsigned color_format);
/* oamAllocateGfx: the unit offset, or -1 (NULL) when no block fits or the
 * model is hung. The byte offset from the OBJ base is offset << step. */
int32_t libnds_sprite_alloc(libnds_sprite *o, uint32_t pixels, unsigned color_format);
/* oamGfxPtrToOffset for a byte offset from the OBJ base. */
uint32_t libnds_sprite_ptr_to_index(const libnds_sprite *o, uint32_t byte_offset);
/* oamFreeGfx of the graphics at byte_offset from the OBJ base. Returns 0,
 * or -1 when the model is hung (or there is no buffer to free into). */
int libnds_sprite_free(libnds_sprite *o, uint32_t byte_offset);
/* oamCountFragments, as the library counts (one more than the free blocks
 * when there are two or more); -1 when its walk would not end. */
int libnds_sprite_count_fragments(libnds_sprite *o);

#endif
