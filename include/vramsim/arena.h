/* SPDX-License-Identifier: Zlib */
/* arena.h - the memories vramsim models, held byte for byte.
 *
 * An arena is one hardware memory (GBA OBJ VRAM, GBA BG VRAM, DS texture
 * image space, DS texture-palette space) or a RAM region of any size. It is
 * held as exactly as many bytes as the hardware has, plus an ownership map
 * at the arena's smallest unit (a 32-byte tile, an 8-byte texture block, a
 * byte of RAM) saying who holds each unit and why.
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

typedef struct vs_freemap vs_freemap;

typedef struct vs_arena {
	vs_arena_decl decl;
	uint32_t nunits;
	uint32_t usable_bytes;  /* bytes not reserved by the hardware */
	uint8_t *bytes;         /* decl.size bytes: the memory itself */
	uint32_t *owner;        /* nunits owner handles */
	uint8_t *kind;          /* nunits vs_unit_kind */
	vs_freemap *free;       /* index of free units for extent metrics */
} vs_arena;

/* Free extents, kept current at O(log n) per change. */
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
 * rounded out to whole units. The free index follows. */
void vs_arena_mark(vs_arena *a, uint32_t off, uint32_t len, uint32_t owner, vs_unit_kind kind);
/* First unit in [off, off+len) that is not free, or -1 if all are free. */
int64_t vs_arena_first_taken(const vs_arena *a, uint32_t off, uint32_t len);
void vs_arena_free_stats(const vs_arena *a, vs_free_stats *out);

/* Writes as the hardware does them (gba-vram.md "Writes"): 16- and 32-bit
 * writes always land; an 8-bit write is ignored in GBA OBJ VRAM and doubled
 * into the aligned halfword in GBA BG VRAM; other memories take it as is.
 * Offsets are arena offsets; out-of-range writes are ignored. */
void vs_arena_write8(vs_arena *a, uint32_t off, uint8_t v);
void vs_arena_write16(vs_arena *a, uint32_t off, uint16_t v);
void vs_arena_write32(vs_arena *a, uint32_t off, uint32_t v);

/* Free-unit index: a bitmap of free units with a segment tree over 64-unit
 * words giving the largest run and the number of runs in O(log n). */
/* A new index has every unit taken. */
vs_freemap *vs_freemap_new(uint32_t nunits);
void vs_freemap_free(vs_freemap *f);
void vs_freemap_set(vs_freemap *f, uint32_t first, uint32_t count, int is_free);
int vs_freemap_is_free(const vs_freemap *f, uint32_t unit);
/* First unit of [first, first+count) that is taken, or -1 if all are free. */
int64_t vs_freemap_first_taken(const vs_freemap *f, uint32_t first, uint32_t count);
/* Largest free run (units), number of runs, free units. */
void vs_freemap_stats(const vs_freemap *f, uint32_t *largest, uint32_t *runs, uint32_t *nfree);
/* Calls fn for each maximal free run in address order; stops when fn != 0. */
int vs_freemap_walk(const vs_freemap *f, int (*fn)(void *ud, uint32_t first, uint32_t count), void *ud);

#endif
