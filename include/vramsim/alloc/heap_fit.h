/* SPDX-License-Identifier: Zlib */
/* heap_fit.h - a boundary-tagged heap with one address-ordered free list,
 * searched first fit, next fit (Knuth's roving pointer) or best fit.
 *
 * The three classic policies share everything else - the 4-byte head, the
 * free-block foot, splitting, immediate coalescing with both neighbours, the
 * 8-byte payload alignment - so that a comparison between them measures the
 * placement policy alone. That is why they are one file with a policy switch
 * rather than three copies.
 *
 * Free blocks are kept in address order (the order Johnstone & Wilson found
 * best for first fit); inserting a freed block that merged with neither
 * neighbour walks the list to its place.
 *
 * Freestanding: state in the caller's struct, blocks in the caller's region.
 */
#ifndef VRAMSIM_ALLOC_HEAP_FIT_H
#define VRAMSIM_ALLOC_HEAP_FIT_H

#include <stdint.h>

#include "vramsim/alloc/heap_common.h"

typedef enum heap_fit_policy {
	HEAP_FIT_FIRST = 0, /* lowest address that fits */
	HEAP_FIT_NEXT,      /* first that fits from where the last search stopped */
	HEAP_FIT_BEST       /* smallest that fits, lowest address among equals */
} heap_fit_policy;

typedef struct heap_fit {
	uint32_t size;      /* region bytes */
	uint32_t first;     /* offset of the first block head */
	uint32_t epi;       /* offset of the epilogue head */
	uint32_t head;      /* lowest free block, HEAP_NIL when none */
	uint32_t rover;     /* next fit: where the next search starts */
	uint32_t free_bytes;/* sum of free block sizes */
	uint32_t objects;
	uint32_t high_water;
	uint32_t policy;
} heap_fit;

/* Lays out an empty heap over base[0, size). Returns HEAP_OK, or
 * HEAP_NOSPACE when the region cannot hold one block. */
int heap_fit_init(heap_fit *h, uint8_t *base, uint32_t size, heap_fit_policy policy);
/* align: 0, 1 or a power of two (8 is always given). */
int heap_fit_alloc(heap_fit *h, uint8_t *base, uint32_t size, uint32_t align, heap_block *out);
/* payload: the offset alloc returned. HEAP_INVALID if it is not live. */
int heap_fit_free(heap_fit *h, uint8_t *base, uint32_t payload);
/* Free blocks in address order. */
void heap_fit_walk_free(const heap_fit *h, const uint8_t *base, heap_extent_fn fn, void *ud);
void heap_fit_status(const heap_fit *h, const uint8_t *base, heap_status *st);

#endif
