/* SPDX-License-Identifier: Zlib */
/* ownmap.h - who holds each unit of an arena, and why.
 *
 * The map is kept as runs of units with one owner and kind, so its memory
 * follows the number of allocations, not the arena's size (small arenas of
 * 32-byte units, the GBA's tile memories, keep one owner and kind per unit
 * instead, which costs less there). src/vram/arena.h puts one beside an
 * arena's bytes.
 */
#ifndef VS_VRAM_OWNMAP_H
#define VS_VRAM_OWNMAP_H

#include <stddef.h>
#include <stdint.h>

/* Why a unit is held. The renderer colours by this; metrics count by it. */
typedef enum vs_unit_kind {
	VS_UNIT_FREE = 0,
	VS_UNIT_DATA,      /* requested bytes of a live allocation */
	VS_UNIT_SLACK,     /* granted beyond the request: internal fragmentation */
	VS_UNIT_OVERHEAD,  /* allocator headers, alignment padding inside a block */
	VS_UNIT_INDEX,     /* DS 4x4 palette-index data tied to a texture */
	VS_UNIT_RETAINED,  /* freed by the game but still held by the allocator */
	VS_UNIT_RESERVED   /* the hardware forbids use: unmapped slot, bitmap-mode half */
} vs_unit_kind;

/* Owner value in the ownership map: 0 is nobody, otherwise a live-record
 * handle from the replay engine. */
#define VS_OWNER_NONE  0u
#define VS_OWNER_HW    0xFFFFFFFFu  /* the hardware reserves it */
#define VS_OWNER_ALLOC 0xFFFFFFFEu  /* the allocator keeps it for itself */

/* A run: units [first, first+count) with one owner and kind. Free units
 * always have owner VS_OWNER_NONE. */
typedef struct vs_own_run {
	uint32_t first, count;
	uint32_t owner;
	vs_unit_kind kind;
} vs_own_run;

typedef struct vs_ownmap vs_ownmap;

/* The ownership map on its own: a B+-tree of runs in address order, with
 * the longest free run kept per node (or per-unit arrays, below). All
 * units start free. */
vs_ownmap *vs_ownmap_new(uint32_t nunits);
/* The same map held as one owner and kind per unit (5 bytes a unit, a
 * free bitmap besides): smaller than the runs and faster to mark when units
 * are large, as a 32-byte tile is, whatever the allocations look like. The
 * calls below work on either; a copy keeps the form. */
vs_ownmap *vs_ownmap_new_units(uint32_t nunits);
vs_ownmap *vs_ownmap_copy(const vs_ownmap *src);
void vs_ownmap_free(vs_ownmap *m);
/* Back to one free run. */
void vs_ownmap_clear(vs_ownmap *m);
/* Units [first, first+count) (clipped to the map) get owner and kind;
 * 0, or -1 when out of memory (nothing changed). */
int vs_ownmap_set(vs_ownmap *m, uint32_t first, uint32_t count, uint32_t owner, vs_unit_kind kind);
int vs_ownmap_run_at(const vs_ownmap *m, uint32_t unit, vs_own_run *out);
/* Owner and kind of one unit, without its run's bounds: 0, or -1 past the end. */
int vs_ownmap_unit_at(const vs_ownmap *m, uint32_t unit, uint32_t *owner, vs_unit_kind *kind);
/* First unit of [first, first+count) that is taken, or -1 if all are free. */
int64_t vs_ownmap_first_taken(const vs_ownmap *m, uint32_t first, uint32_t count);
/* Largest free run (units), number of free runs, free units. */
void vs_ownmap_stats(const vs_ownmap *m, uint32_t *largest, uint32_t *runs, uint32_t *nfree);
/* Number of runs, free or not (O(units) for the per-unit form). */
uint32_t vs_ownmap_runs(const vs_ownmap *m);
/* Heap bytes held by the map. */
size_t vs_ownmap_bytes(const vs_ownmap *m);
/* Runs overlapping [first, first+count), clipped, in address order; with
 * free_only only the free ones (subtrees without any are skipped). */
int vs_ownmap_walk(const vs_ownmap *m, uint32_t first, uint32_t count, int free_only,
	int (*fn)(void *ud, const vs_own_run *run), void *ud);

#endif
