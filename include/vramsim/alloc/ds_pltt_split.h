/* SPDX-License-Identifier: Zlib */
/* ds_pltt_split.h - vramsim's own DS texture-palette manager.
 *
 * One bit per 8-byte unit of the 96 KiB palette space; no management
 * blocks. 4-colour palettes (8-byte aligned, must end by 0x10000) are
 * placed bottom-up from 0; all others (16-byte aligned) top-down from the
 * highest mapped slot, so the space only 4-colour palettes can use is the
 * last the others take. 4-colour searches stop at the lowest fit; the
 * others read free runs from the top down and stop at the first that holds
 * them. A bit per word says whether it has a free unit, so used words are
 * passed over 32 at a time (48 + 1,536 bytes of state).
 * Freestanding: no host headers.
 */
#ifndef VRAMSIM_ALLOC_DS_PLTT_SPLIT_H
#define VRAMSIM_ALLOC_DS_PLTT_SPLIT_H

#include <stdbool.h>
#include <stdint.h>

#define DS_PLTT_BYTES 0x18000u
#define DS_PLTT_UNIT 8u
#define DS_PLTT_UNITS (DS_PLTT_BYTES / DS_PLTT_UNIT)
#define DS_PLTT_NONE 0xFFFFFFFFu

typedef struct ds_pltt_split {
	uint32_t free[DS_PLTT_UNITS / 32];
	uint32_t any[DS_PLTT_UNITS / 1024]; /* bit w: free[w] is not 0 */
	uint8_t mapped; /* bit s: palette slot s (0-5) usable */
} ds_pltt_split;

void ds_pltt_split_init(ds_pltt_split *m, uint8_t mapped_slots);
void ds_pltt_split_reset(ds_pltt_split *m);
uint32_t ds_pltt_split_size(uint32_t bytes);
/* Returns the address, or DS_PLTT_NONE. */
uint32_t ds_pltt_split_alloc(ds_pltt_split *m, uint32_t bytes, bool four);
/* 0, or -1 when the units are not all in use (nothing changes). */
int ds_pltt_split_free(ds_pltt_split *m, uint32_t addr, uint32_t bytes);
uint32_t ds_pltt_split_free_bytes(const ds_pltt_split *m);

#endif
