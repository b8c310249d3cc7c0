/* SPDX-License-Identifier: Zlib */
/* arena.h - an arena held byte for byte, with its ownership map.
 *
 * An arena is held as exactly as many bytes as the hardware has, plus an
 * ownership map (ownmap.h) at the arena's smallest unit (a 32-byte tile,
 * an 8-byte texture block, a byte of RAM) saying who holds each unit and
 * why: read it through the accessors below. The kinds and the declaration
 * are the plug-in interface's (include/vramsim/arena.h).
 */
#ifndef VS_VRAM_ARENA_H
#define VS_VRAM_ARENA_H

#include <stddef.h>
#include <stdint.h>

#include "vramsim/arena.h"
#include "vram/ownmap.h"

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

/* A DS 2D kind's defaults for engine VS_DS_ENGINE_A or _B: size, base and
 * the default banks of that engine (A: B for OBJ, A for BG, E and F for the
 * extended palettes; B: D, C, H, I). Other kinds are left as they are. */
void vs_arena_decl_engine(vs_arena_decl *d, unsigned engine);

const char *vs_arena_kind_name(vs_arena_kind kind);
int vs_arena_kind_parse(const char *s, vs_arena_kind *out);

/* Allocates the bytes and maps for a declaration; marks the units the
 * hardware forbids as VS_UNIT_RESERVED. Returns 0, or -1 on bad declaration
 * or no memory (a message goes to err). */
int vs_arena_init(vs_arena *a, const vs_arena_decl *d, char *err, size_t errlen);
void vs_arena_fini(vs_arena *a);
/* The arena's declaration becomes d (same kind, size and unit: a DS bank
 * mapped or unmapped): units no bank maps any more become reserved where
 * they are free, units mapped again become free. Units an allocation holds
 * stay its own: the caller finds and reports them. Calling it again with
 * the same d re-reserves units freed since. 0, or -1 out of memory (the
 * map then holds part of the change). */
int vs_arena_redeclare(vs_arena *a, const vs_arena_decl *d);

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
/* A heap block taken in one look-up: as vs_arena_take of the block
 * [block_off, +block_len) as VS_UNIT_OVERHEAD, then vs_arena_mark of the
 * grant past the data [data_off + data_len, data_off + granted) as
 * VS_UNIT_SLACK and of the data [data_off, +data_len) as VS_UNIT_DATA
 * leave the map (a unit two pieces share ends as the later one), with the
 * same returns as vs_arena_take. The grant lies inside the block. */
int64_t vs_arena_take_block(vs_arena *a, uint32_t block_off, uint32_t block_len, uint32_t data_off,
	uint32_t data_len, uint32_t granted, uint32_t owner);
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

#endif
