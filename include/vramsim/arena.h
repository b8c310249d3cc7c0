/* SPDX-License-Identifier: Zlib */
/* arena.h - the memories vramsim models, held byte for byte.
 *
 * An arena is one hardware memory (GBA OBJ VRAM, GBA BG VRAM, DS texture
 * image space, DS texture-palette space) or a RAM region of any size. It is
 * held as exactly as many bytes as the hardware has, plus an ownership map
 * at the arena's smallest unit (a 32-byte tile, an 8-byte texture block, a
 * byte of RAM) saying who holds each unit and why. The map is kept as runs
 * of units with one owner and kind, so its memory follows the number of
 * allocations, not the arena's size (small arenas of 32-byte units, the
 * GBA's tile memories, keep one owner and kind per unit instead, which
 * costs less there): read it through the accessors below.
 */
#ifndef VRAMSIM_ARENA_H
#define VRAMSIM_ARENA_H

#include <stddef.h>
#include <stdint.h>

typedef enum vs_arena_kind {
	VS_ARENA_GBA_OBJ,  /* OBJ tile VRAM: 32 KiB, tiles 0-1023 (512-1023 in bitmap modes) */
	VS_ARENA_GBA_BG,   /* BG VRAM: 64 KiB of charblocks and screenblocks (80 KiB in bitmap modes) */
	VS_ARENA_DS_TEX,   /* DS texture image space: slots 0-3, 128 KiB each */
	VS_ARENA_DS_PLTT,  /* DS texture palette space: slots 0-5, 16 KiB each */
	VS_ARENA_RAM,      /* plain RAM: EWRAM, IWRAM, DS main RAM, or any size */
	VS_ARENA_KIND_COUNT
} vs_arena_kind;

#define VS_ARENA_BIT(k) (1u << (k))
#define VS_ARENA_ANY_VRAM (VS_ARENA_BIT(VS_ARENA_GBA_OBJ) | VS_ARENA_BIT(VS_ARENA_GBA_BG) | \
	VS_ARENA_BIT(VS_ARENA_DS_TEX) | VS_ARENA_BIT(VS_ARENA_DS_PLTT))

#define VS_NAME_MAX 32
#define VS_DS_BANKS 9 /* A-I */
#define VS_BANK_UNMAPPED 0xFF

/* What a trace's `arena` line declares. Everything here is plain data. */
typedef struct vs_arena_decl {
	char name[VS_NAME_MAX];
	vs_arena_kind kind;
	uint32_t size;      /* bytes held: the whole hardware memory */
	uint32_t base;      /* address of byte 0, as the game sees it */
	uint32_t unit;      /* ownership unit in bytes (a power of two) */
	uint8_t gba_mode;   /* GBA display mode 0-5 */
	/* DS: for each bank A-I the slot it is mapped to (VRAMCNT MST=3, OFS),
	 * or VS_BANK_UNMAPPED. Texture banks map to slots 0-3, palette banks
	 * E, F, G to palette slots as GBATEK describes. */
	uint8_t ds_bank_slot[VS_DS_BANKS];
	/* gba-obj: 2D OBJ tile mapping (DISPCNT bit 6 clear): a sprite takes a
	 * rectangle of the 32x32 tile matrix, each 8-pixel row 32 tiles after
	 * the one above. 0 is 1D: a sprite's tiles are consecutive. Last, so
	 * plug-ins built against the older layout read the rest unchanged. */
	uint8_t gba_obj_2d;
} vs_arena_decl;

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

typedef struct vs_arena {
	vs_arena_decl decl;
	uint32_t nunits;
	uint32_t usable_bytes;  /* bytes not reserved by the hardware */
	uint8_t *bytes;         /* decl.size bytes: the memory itself */
	vs_ownmap *own;         /* who holds each unit and why, as runs */
} vs_arena;

/* Free extents, kept current as the map changes (read in O(1), or after a
 * bounded rescan of a tile arena's free bitmap). */
typedef struct vs_free_stats {
	uint64_t free_bytes;
	uint64_t largest;       /* bytes in the largest run of free units */
	uint64_t extents;       /* number of maximal runs of free units */
} vs_free_stats;

/* Fills a declaration with the kind's hardware defaults (size, base, unit,
 * mode 0, default DS bank mapping). RAM gets size 0: the caller sets it. */
void vs_arena_decl_default(vs_arena_decl *d, vs_arena_kind kind);

const char *vs_arena_kind_name(vs_arena_kind kind);
int vs_arena_kind_parse(const char *s, vs_arena_kind *out);

/* Allocates the bytes and maps for a declaration; marks the units the
 * hardware forbids as VS_UNIT_RESERVED. Returns 0, or -1 on bad declaration
 * or no memory (a message goes to err). */
int vs_arena_init(vs_arena *a, const vs_arena_decl *d, char *err, size_t errlen);
void vs_arena_fini(vs_arena *a);
/* Back to the freshly initialised state (bytes zeroed, reserved re-marked). */
void vs_arena_clear(vs_arena *a);

/* Marks units [off, off+len) with an owner and kind; len is in bytes and is
 * rounded out to whole units. O(log runs + runs replaced) as runs, O(units)
 * per unit. Returns 0, or -1 when there is no memory for the map (left as
 * it was). */
int vs_arena_mark(vs_arena *a, uint32_t off, uint32_t len, uint32_t owner, vs_unit_kind kind);
/* First unit in [off, off+len) that is not free, or -1 if all are free. */
int64_t vs_arena_first_taken(const vs_arena *a, uint32_t off, uint32_t len);
/* vs_arena_first_taken and vs_arena_mark in one look-up: when every unit
 * of [off, off+len) (rounded out to whole units, clipped to the arena) is
 * free, marks them with owner and kind and returns -1; otherwise returns
 * the first unit that is not free and changes nothing. -2 when there is
 * no memory for the map (nothing changed). An empty range is -1; marking
 * free units VS_UNIT_FREE changes nothing. */
int64_t vs_arena_take(vs_arena *a, uint32_t off, uint32_t len, uint32_t owner, vs_unit_kind kind);
void vs_arena_free_stats(const vs_arena *a, vs_free_stats *out);

/* Reading the map, by unit (not byte), each O(log runs) as runs; per unit
 * O(1), a run's bounds O(its length). */
/* The whole run that covers unit u: 0, or -1 when u >= nunits. */
int vs_arena_run_at(const vs_arena *a, uint32_t unit, vs_own_run *out);
/* Owner and kind of unit u; past the end, VS_OWNER_NONE and VS_UNIT_FREE. */
uint32_t vs_arena_owner_at(const vs_arena *a, uint32_t unit);
vs_unit_kind vs_arena_kind_at(const vs_arena *a, uint32_t unit);
/* Calls fn for each run overlapping units [first, first+count), clipped to
 * them, in address order; stops and returns fn's value when it is not 0. */
int vs_arena_runs(const vs_arena *a, uint32_t first, uint32_t count,
	int (*fn)(void *ud, const vs_own_run *run), void *ud);
/* Calls fn for each maximal run of free units in address order; stops
 * when fn != 0 and returns 1 then, else 0. */
int vs_arena_free_walk(const vs_arena *a, int (*fn)(void *ud, uint32_t first, uint32_t count), void *ud);
/* Heap bytes the ownership map takes (not counting the arena's bytes). */
size_t vs_arena_meta_bytes(const vs_arena *a);
/* An arena without bytes holding a copy of src's map (viewers keep such
 * views); 0 or -1. vs_arena_fini frees it. */
int vs_arena_init_view(vs_arena *a, const vs_arena *src);

/* Writes as the hardware does them (gba-vram.md "Writes"): 16- and 32-bit
 * writes always land; an 8-bit write is ignored in GBA OBJ VRAM and doubled
 * into the aligned halfword in GBA BG VRAM; other memories take it as is.
 * Offsets are arena offsets; out-of-range writes are ignored. */
void vs_arena_write8(vs_arena *a, uint32_t off, uint8_t v);
void vs_arena_write16(vs_arena *a, uint32_t off, uint16_t v);
void vs_arena_write32(vs_arena *a, uint32_t off, uint32_t v);

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
