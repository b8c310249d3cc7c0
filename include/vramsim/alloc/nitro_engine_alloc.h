/* SPDX-License-Identifier: Zlib */
/* nitro_engine_alloc.h - Nitro Engine's VRAM chunk list (NEAlloc.c), as
 * AntonioND/nitro-engine 4c38c6850c022eb687a88fa7243261b48cd4eba0 has it.
 *
 * An address-ordered doubly linked list of chunks, each FREE, USED or
 * LOCKED, covering [start, end) with no gaps. Sizes are rounded up to 16
 * bytes (NE_ALLOC_MIN_SIZE) by every allocating call but
 * ne_alloc_find_in_range. Allocation first fit from the head
 * (ne_alloc_alloc), first fit from the tail taking the top of the chunk
 * (ne_alloc_from_end), or at a given address (ne_alloc_find_in_range, then
 * ne_alloc_address). ne_alloc_free finds the chunk whose start is the
 * pointer by walking from the head, frees it only if USED, and merges it
 * with a free neighbour on each side.
 *
 * Nitro Engine mallocs each chunk; here they come from a fixed pool in the
 * caller's struct, linked by index (NE_ALLOC_NONE is NULL), so a memcpy of
 * the struct is a snapshot. Addresses are the console's (0 is NULL), as the
 * real code compares pointers. A list never needs more than 2 * R + 1
 * chunks for R used or locked regions (no two free chunks are neighbours):
 * NE_ALLOC_CHUNKS covers 2 regions per texture for NE_VRAM_MAX_TEXTURES
 * textures plus 4 locked banks, so the engine's own texture and palette
 * slot limits bind first. `cap` may be set lower to reach the paths the
 * real code takes when malloc fails.
 *
 * Freestanding: no host headers, state in the caller's struct.
 */
#ifndef VRAMSIM_ALLOC_NITRO_ENGINE_ALLOC_H
#define VRAMSIM_ALLOC_NITRO_ENGINE_ALLOC_H

#include <stdbool.h>
#include <stdint.h>

#define NE_ALLOC_MIN_SIZE 16u
#define NE_ALLOC_NONE 0xFFFFu
/* 4 * 512 + 9: 512 textures of 2 chunks, 4 locked banks, their free gaps. */
#define NE_ALLOC_CHUNKS 2057u

enum { NE_ALLOC_FREE = 0, NE_ALLOC_USED = 1, NE_ALLOC_LOCKED = 2 };

typedef struct ne_alloc_chunk {
	uint32_t start, end;  /* [start, end) */
	uint16_t prev, next;  /* NE_ALLOC_NONE at the ends */
	uint8_t state;
} ne_alloc_chunk;

typedef struct ne_alloc {
	uint16_t first;   /* the list's head (NE's first_chunk) */
	uint16_t spare;   /* unused pool entries, linked by next */
	uint16_t cap;     /* pool entries the list may take: malloc's limit */
	uint16_t live;    /* chunks in the list */
	bool out_of_chunks; /* the last call failed because the pool was empty */
	ne_alloc_chunk chunk[NE_ALLOC_CHUNKS];
} ne_alloc;

typedef struct ne_alloc_info {
	uint32_t free, used, total, locked; /* total leaves locked memory out */
	uint32_t free_percent;
} ne_alloc_info;

/* NE_AllocInit over [start, end) with at most cap chunks (1..NE_ALLOC_CHUNKS).
 * 0, -2 when end <= start, -3 when cap is 0 (malloc failed). */
int ne_alloc_init(ne_alloc *a, uint16_t cap, uint32_t start, uint32_t end);
/* NE_AllocFindInRange: the first free place of size bytes (not rounded) at
 * or after start, if it ends by end; 0 when none, or when start or size
 * is 0. Allocates nothing. */
uint32_t ne_alloc_find_in_range(const ne_alloc *a, uint32_t start, uint32_t end, uint32_t size);
/* NE_AllocAddress: takes [address, address + size rounded) if one free chunk
 * holds it. 0; -1 bad arguments; -2 not inside one free chunk; -3, -4 out of
 * chunks (on -4 the chunk from address to its old end stays USED: the real
 * code passes NE_Free a chunk pointer, which matches no chunk start). */
int ne_alloc_address(ne_alloc *a, uint32_t address, uint32_t size);
/* NE_Alloc: first fit from the head, the low end of the chunk; 0 on failure. */
uint32_t ne_alloc_alloc(ne_alloc *a, uint32_t size);
/* NE_AllocFromEnd: first fit from the tail, the high end of the chunk. */
uint32_t ne_alloc_from_end(ne_alloc *a, uint32_t size);
/* NE_Free: 0; -2 no chunk starts at pointer; -3 it is free or locked. */
int ne_alloc_free(ne_alloc *a, uint32_t pointer);
/* NE_Lock / NE_Unlock: 0; -2 the chunk at pointer is not USED (LOCKED);
 * -3 no chunk starts at pointer. */
int ne_alloc_lock(ne_alloc *a, uint32_t pointer);
int ne_alloc_unlock(ne_alloc *a, uint32_t pointer);
/* NE_MemGetInformation. free_percent is 0 when total is 0 (the real code
 * divides by zero there). */
void ne_alloc_mem_info(const ne_alloc *a, ne_alloc_info *info);
/* The chunk starting at address (NE_ALLOC_NONE if none): for tests and dumps. */
uint16_t ne_alloc_chunk_at(const ne_alloc *a, uint32_t address);

#endif
