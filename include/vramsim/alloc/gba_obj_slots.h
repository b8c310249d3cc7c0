/* SPDX-License-Identifier: Zlib */
/* gba_obj_slots.h - fixed OBJ VRAM slots per sprite size class, decided in
 * advance.
 *
 * The first approach of 'Gameboy Advance Resource Management': decide how
 * big each type of game element is and pre-allocate slots for each type
 * (a slot for the main character, a fixed number for enemies, some for
 * particles, a small area for the UI). Here a type is a size class: a
 * table of classes, each COUNT slots of TILES tiles, laid out in table
 * order from the first usable tile. A request takes a free slot of the
 * smallest class whose slots hold it (and start on a multiple of its
 * alignment); when that class has none free, the request fails, even if
 * other classes have room: a slot of one type is never lent to another.
 *
 * Freestanding: no host headers, state in the caller's struct.
 */
#ifndef VRAMSIM_ALLOC_GBA_OBJ_SLOTS_H
#define VRAMSIM_ALLOC_GBA_OBJ_SLOTS_H

#include <stdint.h>

#define GBA_OBJ_SLOTS_TILES 1024u
#define GBA_OBJ_SLOTS_CLASSES 16u
#define GBA_OBJ_SLOTS_NONE 0xFFFFu

/* gba_obj_slots_init results */
#define GBA_OBJ_SLOTS_OK 0
#define GBA_OBJ_SLOTS_BAD_CLASS (-1)  /* no classes, too many, or a count or size of 0 */
#define GBA_OBJ_SLOTS_TOO_BIG (-2)    /* the slots need more tiles than the area has */

typedef struct gba_obj_slot_class {
	uint16_t tiles;  /* tiles a slot */
	uint16_t count;  /* slots */
	uint16_t base;   /* first tile of the first slot */
	uint16_t slot0;  /* index of the first slot in used[] */
} gba_obj_slot_class;

typedef struct gba_obj_slots {
	gba_obj_slot_class cls[GBA_OBJ_SLOTS_CLASSES];
	uint32_t used[GBA_OBJ_SLOTS_TILES / 32u]; /* a bit per slot: 1 = taken */
	uint16_t nclass;
	uint16_t first;  /* first usable tile: 0, or 512 in bitmap modes */
	uint16_t end;    /* one past the last tile a slot covers */
} gba_obj_slots;

/* Lays out nclass classes (count[i] slots of tiles[i] tiles, in this order)
 * from first_tile. Returns GBA_OBJ_SLOTS_OK or a failure above; on failure
 * the state holds no slots. */
int gba_obj_slots_init(gba_obj_slots *a, uint16_t first_tile, const uint16_t *count, const uint16_t *tiles,
	unsigned nclass);
/* n tiles starting at a multiple of align (a power of two). Returns the
 * first tile of the slot or GBA_OBJ_SLOTS_NONE. The slot's whole size is
 * taken: gba_obj_slots_size gives it. */
uint16_t gba_obj_slots_alloc(gba_obj_slots *a, uint16_t n, uint16_t align);
/* Tiles of the slot starting at tile, or 0 when no slot starts there. */
uint16_t gba_obj_slots_size(const gba_obj_slots *a, uint16_t tile);
/* Frees the slot starting at tile. Returns 0, or -1 when no taken slot
 * starts there. */
int gba_obj_slots_free(gba_obj_slots *a, uint16_t tile);
/* Empties every slot, keeping the table. */
void gba_obj_slots_clear(gba_obj_slots *a);
/* 1 when tile lies in a free slot; tiles outside every slot are never
 * handed out and count as not free. */
int gba_obj_slots_is_free(const gba_obj_slots *a, uint16_t tile);
/* 1 when tile is the first of a taken slot. */
int gba_obj_slots_starts(const gba_obj_slots *a, uint16_t tile);

#endif
