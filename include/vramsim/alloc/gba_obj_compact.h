/* SPDX-License-Identifier: Zlib */
/* gba_obj_compact.h - vramsim's own OBJ allocator that moves live sprites.
 *
 * Sprites sit in address order; a request takes the lowest gap that holds
 * it (first fit, on a tile its size and depth allow). When no gap holds it
 * but the free tiles do, sprites slide down over the gaps, in address order
 * from the lowest gap, until the room that opens holds the request (each
 * move copies a sprite to a lower address, onto tiles free at that moment).
 * Where a slide would leave a 1-tile hole under an 8bpp sprite (odd
 * start), the next 8x8 4bpp sprite above is pulled down into the hole
 * instead, so a request the free tiles hold is always served when every
 * odd-sized request is 1 tile (every sprite shape). At each frame boundary
 * the same slide runs within a budget, so the free space stays in one piece
 * between calls: by default what a quarter of VBlank leaves after the
 * frame's own uploads and the moves its requests needed.
 *
 * A sprite is known by its slot (0..GBA_OBJ_COMPACT_MAX-1), which stays
 * the same when it moves: the game's handle. After alloc, free or frame,
 * gba_obj_compact_moves lists the moves made, in order, for the caller to
 * carry out (DMA inside VRAM) before it uploads new data and rewrites the
 * OAM tile numbers.
 *
 * Freestanding: no host headers; state in the caller's struct.
 */
#ifndef VRAMSIM_ALLOC_GBA_OBJ_COMPACT_H
#define VRAMSIM_ALLOC_GBA_OBJ_COMPACT_H

#include <stdint.h>

#define GBA_OBJ_COMPACT_TILES 1024u
#define GBA_OBJ_COMPACT_MAX 256u    /* live sprites: twice the OAM's 128 */
#define GBA_OBJ_COMPACT_NONE 0xFFFFu
/* budget: the frame's slide may spend what the frame's uploads and on-need
 * moves left of GBA_OBJ_COMPACT_FRAME_CYCLES, priced as below */
#define GBA_OBJ_COMPACT_AUTO 0xFFFFu
/* A quarter of VBlank (68 lines x 1,232 cycles / 4), the DMA3 cost of one
 * 32-byte tile: 8 words VRAM to VRAM at 4 cycles, ROM to VRAM at 6, and
 * of each move beside its words: programming DMA3 for it (vs_spr_dma_moves
 * of vramsim/sprite_handles.h, Thumb in ROM), measured on the emulated GBA
 * (the model of docs/gba.md, VS_CYCLES_* in vramsim/replay.h). */
#define GBA_OBJ_COMPACT_FRAME_CYCLES 20944u
#define GBA_OBJ_COMPACT_MOVE_TILE_CYCLES 32u
#define GBA_OBJ_COMPACT_MOVE_EACH_CYCLES 64u
#define GBA_OBJ_COMPACT_UPLOAD_TILE_CYCLES 48u

typedef struct gba_obj_compact_move {
	uint16_t slot, from, to, tiles; /* tiles [from, from+tiles) now at to */
} gba_obj_compact_move;

/* A slot's record. Slot GBA_OBJ_COMPACT_MAX stands for the top of OBJ
 * VRAM (start 1024, or init_span's end: the free tiles above the highest
 * sprite are "below" it), slot MAX+1 ends the ring of gaps. One record per slot, the small
 * fields first, so that Thumb code reaches every field of a slot from one
 * address. */
typedef struct gba_obj_compact_slot {
	uint16_t start, tiles;  /* tiles 0: a free slot */
	uint16_t next, prev;    /* live slots by address: a ring through the top */
	uint16_t low;           /* where the free tiles below this slot start */
	uint16_t gnext, gprev;  /* the gaps: slots with free tiles below, by address */
	uint16_t mask;          /* alignment - 1: start & mask is 0 */
} gba_obj_compact_slot;

typedef struct gba_obj_compact {
	uint16_t spare;                       /* a free slot, the rest chained through next */
	uint16_t n;                           /* live sprites */
	uint16_t first;                       /* first usable tile (512 in bitmap modes) */
	uint16_t used;                        /* tiles live */
	uint16_t budget;                      /* tiles a frame's slide may move, or AUTO */
	uint16_t tile_cost, move_cost;        /* the budget's price of a tile moved and of a move */
	uint16_t nmoves;
	uint32_t spent;                       /* cycles of on-need moves since the last frame, up to FRAME_CYCLES */
	uint32_t uploaded;                    /* tiles allocated since the last frame */
	gba_obj_compact_slot slot[GBA_OBJ_COMPACT_MAX + 2];
	gba_obj_compact_move moves[GBA_OBJ_COMPACT_MAX];
} gba_obj_compact;

/* budget: tiles a frame boundary may move (0: none, only on need), or
 * GBA_OBJ_COMPACT_AUTO. */
void gba_obj_compact_init(gba_obj_compact *m, uint16_t first, uint16_t budget);
/* Only tiles [first, end) usable (the DS: the OBJ VRAM its banks map, in
 * units of the 1D boundary); gba_obj_compact_init is end
 * GBA_OBJ_COMPACT_TILES. */
void gba_obj_compact_init_span(gba_obj_compact *m, uint16_t first, uint16_t end, uint16_t budget);
/* The end of the usable tiles init gave. */
uint16_t gba_obj_compact_end(const gba_obj_compact *m);
/* Takes tiles tiles on a multiple of align (a power of two: 1, 2, ...
 * 1024; 0 counts as 1). Returns the slot, or GBA_OBJ_COMPACT_NONE when the
 * free tiles cannot hold it, every slot is live or align is not a power of
 * two. */
uint16_t gba_obj_compact_alloc(gba_obj_compact *m, uint16_t tiles, uint16_t align);
/* Frees slot. Returns 0, or -1 for a slot not live. */
int gba_obj_compact_free(gba_obj_compact *m, uint16_t slot);
/* A frame boundary: slides sprites down over the gaps within the budget. */
void gba_obj_compact_frame(gba_obj_compact *m);
/* Where slot's tiles start now (NONE: not live), and how many it has (0). */
uint16_t gba_obj_compact_start(const gba_obj_compact *m, uint16_t slot);
uint16_t gba_obj_compact_tiles(const gba_obj_compact *m, uint16_t slot);
/* The moves the last alloc, free or frame made, in order; *n gets how many. */
const gba_obj_compact_move *gba_obj_compact_moves(const gba_obj_compact *m, uint16_t *n);
/* The live slot after slot in address order (NONE: the lowest), or NONE. */
uint16_t gba_obj_compact_next(const gba_obj_compact *m, uint16_t slot);

#endif
