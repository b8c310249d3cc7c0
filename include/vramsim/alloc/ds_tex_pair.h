/* SPDX-License-Identifier: Zlib */
/* ds_tex_pair.h - vramsim's own DS texture VRAM manager.
 *
 * One bit per 8-byte unit of the 512 KiB texture space, and two bits per
 * word of that: the word has a free unit, the word is all free (8.5 KiB of
 * state, no management blocks, so it never fails for lack of bookkeeping). A 4x4
 * texture is placed only where its texel data (slot 0 or 2) and the slot-1
 * index data the hardware ties to that address are both free, and both are
 * taken and released together: pairing is right by construction. Normal
 * textures go top-down into slot 3, then slot 2, slot 0 and slot 1 (slot 1
 * last because each of its bytes is index data for two texel bytes); 4x4
 * textures go bottom-up into slot 0, then slot 2. A normal texture's search
 * reads the free runs of a slot from the top down and stops at the first
 * that is long enough; a 4x4 one builds its paired map a word at a time from
 * the bottom and stops at the first fit. Words with nothing to find (all in
 * use, or all free) are read from the summary 32 at a time, whole words are
 * filled with one store each, and a call never rebuilds or rescans the
 * whole space.
 * Freestanding: no host headers.
 */
#ifndef VRAMSIM_ALLOC_DS_TEX_PAIR_H
#define VRAMSIM_ALLOC_DS_TEX_PAIR_H

#include <stdbool.h>
#include <stdint.h>

#define DS_TEX_BYTES 0x80000u
#define DS_TEX_UNIT 8u
#define DS_TEX_UNITS (DS_TEX_BYTES / DS_TEX_UNIT)
#define DS_TEX_NONE 0xFFFFFFFFu

typedef struct ds_tex_pair {
	uint32_t free[DS_TEX_UNITS / 32]; /* bit set = unit free */
	uint32_t any[DS_TEX_UNITS / 1024]; /* bit w: free[w] is not 0 */
	uint32_t full[DS_TEX_UNITS / 1024]; /* bit w: free[w] is all ones */
	uint8_t mapped;                   /* bit s: texture slot s usable */
} ds_tex_pair;

/* mapped_slots: bit s set when texture slot s (0-3) has a bank. */
void ds_tex_pair_init(ds_tex_pair *m, uint8_t mapped_slots);
void ds_tex_pair_reset(ds_tex_pair *m);
/* Size the manager grants for a request: 8-byte multiple, 16 for 4x4. */
uint32_t ds_tex_pair_size(uint32_t bytes, bool is4x4);
/* Returns the texel address, or DS_TEX_NONE. */
uint32_t ds_tex_pair_alloc(ds_tex_pair *m, uint32_t bytes, bool is4x4);
/* Frees what alloc gave for (addr, bytes, is4x4). Returns 0, or -1 when
 * those units are not all in use (a bad or double free; nothing changes). */
int ds_tex_pair_free(ds_tex_pair *m, uint32_t addr, uint32_t bytes, bool is4x4);
/* Slot-1 index address of 4x4 texel data at addr (ds-vram.md). */
uint32_t ds_tex_pair_index_addr(uint32_t addr);
/* Free bytes. */
uint32_t ds_tex_pair_free_bytes(const ds_tex_pair *m);

#endif
