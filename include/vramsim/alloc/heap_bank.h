/* SPDX-License-Identifier: Zlib */
/* heap_bank.h - the orx engine's memory bank (as jtianling's "orx source code
 * reading notes (3): memory management" walks through it): fixed-size cells
 * grown in segments.
 *
 * A bank hands out cells of one size. Cells come in segments of N cells; a
 * segment is one piece of memory holding, in this order, its header (as
 * orx's orxBANK_SEGMENT on a 32-bit target: cell map, data and next-segment
 * links and the free-cell count: 16 bytes), its cell allocation bit map (one
 * bit per cell, in 32-bit words) and its cells. Header and map count as
 * overhead. The first segment is made when the bank is; when every cell is
 * taken a new segment is taken from the region and appended to the list. A
 * freed cell is found through its segment (the one whose data range holds
 * it); a segment other than the first that becomes empty is released to a
 * free-segment list in the region (orx deletes it) and is reused before the
 * bump pointer moves on.
 *
 * Growing is orx's default ("by default, when the cache in a segment is
 * allocated, a new segment will be automatically allocated"): a bank made
 * with grow 0 keeps its first segment only, and a request finding it full
 * fails (orxBank_Create takes flags; the seed's example passes the default,
 * orxBANK_KU32_FLAG_NONE). The region past that segment is then never the
 * bank's: heap_bank_walk_held reports it.
 */
#ifndef VRAMSIM_ALLOC_HEAP_BANK_H
#define VRAMSIM_ALLOC_HEAP_BANK_H

#include <stdint.h>

#include "vramsim/alloc/heap_common.h"

#define HEAP_BANK_SEG_HEADER 16u

typedef struct heap_bank {
	uint32_t size;
	uint32_t cell;        /* cell bytes (rounded up to 4) */
	uint32_t per;         /* cells per segment */
	uint32_t map_words;   /* 32-bit words of bit map per segment */
	uint32_t seg_bytes;   /* header + map + cells */
	uint32_t first_seg;   /* HEAP_NIL when none */
	uint32_t last_seg;
	uint32_t free_segs;   /* released segments, linked through their header */
	uint32_t top;         /* bump pointer for new segments */
	uint32_t segments;    /* live segments */
	uint32_t objects;
	uint32_t high_water;
	uint32_t grow;        /* 0: one segment, never more */
} heap_bank;

/* cell: 1.. bytes; per: 1..65535 cells per segment; grow: 0 for a bank that
 * never adds a segment. HEAP_INVALID for bad parameters, HEAP_NOSPACE when
 * the first segment does not fit. */
int heap_bank_init(heap_bank *b, uint8_t *base, uint32_t size, uint32_t cell, uint32_t per, uint32_t grow);
/* HEAP_UNSUPPORTED when size exceeds the cell. align above 4 is only held
 * when the cell size is a multiple of it (HEAP_UNSUPPORTED otherwise). */
int heap_bank_alloc(heap_bank *b, uint8_t *base, uint32_t size, uint32_t align, heap_block *out);
int heap_bank_free(heap_bank *b, uint8_t *base, uint32_t offset);
/* Free cells (runs of neighbours joined), released segments, the tail. */
void heap_bank_walk_free(const heap_bank *b, const uint8_t *base, heap_extent_fn fn, void *ud);
/* The bank's own bytes: each live segment's header and bit map; with grow 0
 * also the region past the one segment, which the bank never takes. */
void heap_bank_walk_held(const heap_bank *b, const uint8_t *base, heap_extent_fn fn, void *ud);
void heap_bank_status(const heap_bank *b, const uint8_t *base, heap_status *st);

#endif
