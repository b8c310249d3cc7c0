/* SPDX-License-Identifier: Zlib */
/* strat_gba.h - internal: helpers the GBA strategy adapters share. */
#ifndef VS_SIM_STRAT_GBA_H
#define VS_SIM_STRAT_GBA_H

#include <stdio.h>

#include "vramsim/strategy.h"
#include "base/compiler_hints.h"
#include "base/options.h"
#include "strategies/strategies.h"

#define VS_GBA_TILE_BYTES 32u
#define VS_GBA_OBJ_TILES 1024u

/* ---- OBJ units: the GBA's 32-byte tiles, the DS's 1D boundary ----------
 *
 * The OBJ allocators count 1024 units from 0. On the GBA a unit is a
 * 32-byte tile and the hardware draws from tile 0 (512 in bitmap modes).
 * On the DS (ds-obj, 1D tile mapping) OAM's tile numbers count units of the
 * 1D boundary (32-256 bytes, DISPCNT bits 20-21), so the same 1024 units
 * cover the reach exactly; only the part the banks map is usable, one
 * contiguous run [first, end). A strategy keeps its geometry beside its
 * allocator's state. */
typedef struct vs_gba_obj_geom {
	uint16_t first, end;  /* usable units [first, end) */
	uint16_t bmp_align;   /* ds-obj bitmap sprite (bpp 16): alignment in units; 0 refused */
	uint8_t shift;        /* log2 of a unit's bytes: 5 on the GBA, 5-8 on the DS */
	uint8_t ds;           /* a ds-obj arena */
} vs_gba_obj_geom;

/* The GBA's: 32-byte tiles, all 1024 (vs_gba_obj_tiles' arithmetic). */
#define VS_GBA_OBJ_GEOM_GBA { 0, VS_GBA_OBJ_TILES, 0, 5, 0 }

/* The geometry of arena a (gba-obj or ds-obj) for strategy name: 0, or -1
 * with a reason naming the arena (a 2D-mapped ds-obj, banks that leave
 * holes in the reach, none mapped in it). strat_gba_obj_geom.c. */
int vs_gba_obj_geom_init(vs_gba_obj_geom *g, const vs_arena_decl *a, const char *name, char *err, size_t errlen);

/* Units and unit alignment an OBJ request needs: size rounded up to units;
 * align= in units; 8bpp sprites (and 8bpp tiles) start on even 32-byte
 * tiles (1D mapping: 2 units of 32 bytes, any larger unit); a DS bitmap
 * sprite on its 1D bitmap boundary (refused when g has none). Returns VS_OK
 * or a vs_status failure. */
static VS_ALWAYS_INLINE int vs_gba_obj_units(const vs_gba_obj_geom *g, const vs_request *rq, unsigned *n,
	unsigned *align)
{
	unsigned ub = 1u << g->shift, even = 64u >> g->shift;

	*n = (rq->size + ub - 1u) >> g->shift;
	*align = rq->align > ub ? rq->align >> g->shift : 1u;
	if ((rq->shape == VS_REQ_SPRITE && rq->u.sprite.bpp == 8) ||
		(rq->shape == VS_REQ_TILE && rq->u.tile.bpp == 8))
		if (*align < even)
			*align = even;
	if (g->ds && rq->shape == VS_REQ_SPRITE && rq->u.sprite.bpp == 16) {
		if (!g->bmp_align)
			return VS_ERR_UNSUPPORTED;
		if (*align < g->bmp_align)
			*align = g->bmp_align;
	}
	if (*n == 0 || (*align & (*align - 1u)))
		return VS_ERR_INVALID;
	if (*n > VS_GBA_OBJ_TILES || *align > VS_GBA_OBJ_TILES)
		return VS_ERR_NOSPACE;
	return VS_OK;
}

/* Tiles and tile alignment a GBA OBJ request needs (the GBA's geometry). */
static inline int vs_gba_obj_tiles(const vs_request *rq, unsigned *n, unsigned *align)
{
	static const vs_gba_obj_geom gba = VS_GBA_OBJ_GEOM_GBA;

	return vs_gba_obj_units(&gba, rq, n, align);
}

/* Reports maximal runs of units for which is_free says yes, in address
 * order, as byte extents (units of 1 << shift bytes). */
static inline void vs_gba_walk_units(void *st, int (*is_free)(void *st, unsigned tile), unsigned ntiles,
	unsigned shift, vs_extent_fn fn, void *ud)
{
	unsigned i = 0, j;

	while (i < ntiles) {
		if (!is_free(st, i)) {
			i++;
			continue;
		}
		for (j = i + 1; j < ntiles && is_free(st, j); j++)
			;
		if (fn(ud, i << shift, (j - i) << shift))
			return;
		i = j;
	}
}

/* The same over 32-byte tiles. */
static inline void vs_gba_walk_tiles(void *st, int (*is_free)(void *st, unsigned tile), unsigned ntiles,
	vs_extent_fn fn, void *ud)
{
	vs_gba_walk_units(st, is_free, ntiles, 5, fn, ud);
}

/* Prints the OBJ tiles as a 32x32 matrix; sym(st, tile) gives each cell. */
static inline void vs_gba_dump_tiles(void *st, char (*sym)(void *st, unsigned tile), vs_print_fn print, void *ud)
{
	char line[48];
	unsigned row, col;

	for (row = 0; row < 32; row++) {
		int n = snprintf(line, sizeof line, "%4u ", row * 32u);
		for (col = 0; col < 32; col++)
			line[n + col] = sym(st, row * 32u + col);
		line[n + 32] = '\n';
		line[n + 33] = '\0';
		print(ud, line);
	}
}

/* ---- OBJ tile bitmaps: one adapter for first fit, snug and ends ---------
 *
 * The three allocators take the same calls over states of their own: init
 * a span of units [first, end), alloc n units at an alignment, free a start
 * and its length, whether a unit is free or starts an allocation. A
 * strategy's state is its allocator's, then a vs_gba_obj_geom at offset
 * geom; it lists its allocator's calls in a table and forwards each
 * strategy call to the vs_gba_obj_bm_* below with it (and gives
 * vs_gba_dump_tiles a sym that calls vs_gba_obj_bm_sym). All always inline,
 * with the table a constant: the compiler then calls the allocator directly
 * and drops the table, and each allocator call keeps its one caller, as
 * with an adapter of its own (an escaping table cost a replay 1% more
 * instructions). */
typedef struct vs_gba_obj_bm_calls {
	void (*init)(void *a, uint16_t first, uint16_t end);   /* the allocator's init_span */
	uint16_t (*alloc)(void *a, uint16_t n, uint16_t align); /* VS_GBA_OBJ_BM_NONE: no room */
	int (*free)(void *a, uint16_t tile, uint16_t n);        /* non-zero: not an allocation */
	int (*is_free)(void *a, unsigned tile);                 /* vs_gba_walk_units' form */
	int (*is_start)(const void *a, unsigned tile);
	size_t geom;                                            /* where the geometry is in the state */
	size_t ram;                                             /* the allocator's own state: its RAM */
	const char *name;                                       /* the strategy's, for init's refusals */
} vs_gba_obj_bm_calls;

/* Every bitmap covers the VS_GBA_OBJ_TILES tiles and answers this for no
 * room: constants, not table members, so the adapter's checks fold as a
 * hand-written one's did (each strategy checks its allocator agrees). */
#define VS_GBA_OBJ_BM_NONE 0xFFFFu

static VS_ALWAYS_INLINE vs_gba_obj_geom *vs_gba_obj_bm_geom(const vs_gba_obj_bm_calls *c, void *st)
{
	return (vs_gba_obj_geom *)((char *)st + c->geom);
}

static VS_ALWAYS_INLINE int vs_gba_obj_bm_init(const vs_gba_obj_bm_calls *c, void *st, const vs_arena_decl *a,
	const char *options, uint8_t *mem, char *err, size_t errlen)
{
	static const char *const known[] = { NULL };
	vs_gba_obj_geom *g = vs_gba_obj_bm_geom(c, st);

	(void)mem;
	if (vs_option_check(options, known, err, errlen) || vs_gba_obj_geom_init(g, a, c->name, err, errlen))
		return -1;
	c->init(st, g->first, g->end);
	return 0;
}

static VS_ALWAYS_INLINE int vs_gba_obj_bm_alloc(const vs_gba_obj_bm_calls *c, void *st, const vs_request *rq,
	vs_placement *out)
{
	const vs_gba_obj_geom *g = vs_gba_obj_bm_geom(c, st);
	unsigned n, align;
	int rc = vs_gba_obj_units(g, rq, &n, &align);
	uint16_t t;

	if (rc != VS_OK)
		return rc;
	t = c->alloc(st, (uint16_t)n, (uint16_t)align);
	if (t == VS_GBA_OBJ_BM_NONE)
		return VS_ERR_NOSPACE;
	vs_placement_simple(out, (uint32_t)t << g->shift, n << g->shift, t);
	return VS_OK;
}

static VS_ALWAYS_INLINE int vs_gba_obj_bm_free(const vs_gba_obj_bm_calls *c, void *st, const vs_placement *pl)
{
	uint32_t n = pl->granted >> vs_gba_obj_bm_geom(c, st)->shift;

	if (pl->key >= VS_GBA_OBJ_TILES || n == 0 || n > VS_GBA_OBJ_TILES)
		return VS_ERR_INVALID;
	return c->free(st, (uint16_t)pl->key, (uint16_t)n) ? VS_ERR_INVALID : VS_OK;
}

static VS_ALWAYS_INLINE void vs_gba_obj_bm_reset(const vs_gba_obj_bm_calls *c, void *st)
{
	const vs_gba_obj_geom *g = vs_gba_obj_bm_geom(c, st);

	c->init(st, g->first, g->end);
}

static VS_ALWAYS_INLINE void vs_gba_obj_bm_walk(const vs_gba_obj_bm_calls *c, void *st, vs_extent_fn fn, void *ud)
{
	vs_gba_walk_units(st, c->is_free, VS_GBA_OBJ_TILES, vs_gba_obj_bm_geom(c, st)->shift, fn, ud);
}

/* vs_gba_dump_tiles' sym for a bitmap: # outside the usable units, U an
 * allocation's start, C the rest of one, . free. */
static VS_ALWAYS_INLINE char vs_gba_obj_bm_sym(const vs_gba_obj_bm_calls *c, void *st, unsigned tile)
{
	const vs_gba_obj_geom *g = vs_gba_obj_bm_geom(c, st);

	if (tile < g->first || tile >= g->end)
		return '#';
	if (c->is_start(st, tile))
		return 'U';
	return c->is_free(st, tile) ? '.' : 'C';
}

/* The strategy's RAM: its allocator's state, without the geometry (a
 * console build fixes it at compile time). */
static VS_ALWAYS_INLINE uint64_t vs_gba_obj_bm_ram(const vs_gba_obj_bm_calls *c)
{
	return c->ram;
}

/* ---- BG helpers: the tile managers of 'Gameboy Advance Resource Management' ---- */

/* Map placements carry this bit in their key (tile keys are blocks). */
#define VS_GBA_MAP_KEY 0x80000000u
#define VS_GBA_SB_BYTES 0x800u

static inline int vs_gba_bg_mode_ok(const vs_arena_decl *a, char *err, size_t errlen)
{
	if (a->gba_mode >= 3) {
		snprintf(err, errlen, "the BG tile manager needs a tile mode (0-2), not bitmap mode %u",
			(unsigned)a->gba_mode);
		return -1;
	}
	return 0;
}

/* Screenblocks a map request takes: 1, 2 or 4 (a 3-screenblock size is
 * rounded up so text maps keep SC0-SC3 order); 0 if over 8 KiB. */
static inline unsigned vs_gba_map_blocks(const vs_request *rq)
{
	unsigned n = (rq->size + VS_GBA_SB_BYTES - 1u) / VS_GBA_SB_BYTES;

	if (n == 0)
		n = 1;
	if (n == 3)
		n = 4;
	return n <= 4 ? n : 0;
}

static inline void vs_gba_map_placement(vs_placement *out, int sb, unsigned n)
{
	vs_placement_simple(out, (uint32_t)sb * VS_GBA_SB_BYTES, n * VS_GBA_SB_BYTES,
		VS_GBA_MAP_KEY | ((uint32_t)sb << 8) | n);
}

static inline void vs_gba_tile_placement(vs_placement *out, int32_t block, unsigned bpp, int loaded)
{
	vs_placement_simple(out, (uint32_t)block * VS_GBA_TILE_BYTES, bpp * 8u, (uint32_t)block);
	out->shared = !loaded;
}

/* Tile-manager failure codes (both managers use -1 no space, -2 bad,
 * -3 reference count full) as vs_status. */
static inline int vs_gba_tile_status(int32_t rc)
{
	if (rc == -1)
		return VS_ERR_NOSPACE;
	if (rc == -3)
		return VS_ERR_MANAGEMENT;
	return VS_ERR_INVALID;
}

/* The two managers' calls (gba-bg-tiles, gba-bg-tiles-split): both take a
 * map of n screenblocks and a tile reference alike, so one alloc and one
 * free serve them. Always inline: with the constant table the compiler
 * then calls the manager directly, and a BG replay takes the instructions
 * it took with an adapter of its own (vs_bench's bg row; a plain inline
 * left the wrappers out of line, 1.4% more). */
typedef struct vs_gba_bg_calls {
	int (*map_alloc)(void *m, unsigned n);              /* screenblock, or < 0 */
	int (*map_free)(void *m, unsigned sb, unsigned n);  /* non-zero: not a map */
	/* block of a reference to ROM tile rom, or a -1/-2/-3 failure */
	int32_t (*ref_cb)(void *m, uint32_t rom, unsigned bpp, unsigned cb, int affine, int *loaded);
	int32_t (*release)(void *m, uint32_t block);       /* < 0: not a reference */
	unsigned cb_any;                                    /* cb when the trace gives none */
} vs_gba_bg_calls;

static VS_ALWAYS_INLINE int vs_gba_bg_alloc(const vs_gba_bg_calls *c, void *st, const vs_request *rq, vs_placement *out)
{
	int loaded, sb;
	int32_t b;
	unsigned n;

	/* tiles sit on their own size, maps on 2 KiB screenblocks: no more */
	if (rq->align > (rq->shape == VS_REQ_BGMAP || rq->shape == VS_REQ_CELLS ? VS_GBA_SB_BYTES :
		rq->shape == VS_REQ_TILE ? rq->u.tile.bpp * 8u : 0u))
		return VS_ERR_UNSUPPORTED;
	/* a map of cells takes screenblocks as a map does; a tile set (no ROM
	 * index to count references by) is for managers of whole sets */
	if (rq->shape == VS_REQ_BGMAP || rq->shape == VS_REQ_CELLS) {
		n = vs_gba_map_blocks(rq);
		if (n == 0 || (sb = c->map_alloc(st, n)) < 0)
			return VS_ERR_NOSPACE;
		vs_gba_map_placement(out, sb, n);
		return VS_OK;
	}
	if (rq->shape != VS_REQ_TILE)
		return VS_ERR_UNSUPPORTED;
	b = c->ref_cb(st, rq->u.tile.rom, rq->u.tile.bpp, rq->u.tile.cb1 ? rq->u.tile.cb1 - 1u : c->cb_any,
		rq->u.tile.affine, &loaded);
	if (b < 0)
		return vs_gba_tile_status(b);
	vs_gba_tile_placement(out, b, rq->u.tile.bpp, loaded);
	return VS_OK;
}

static VS_ALWAYS_INLINE int vs_gba_bg_free(const vs_gba_bg_calls *c, void *st, const vs_placement *pl)
{
	if (pl->key & VS_GBA_MAP_KEY)
		return c->map_free(st, (pl->key >> 8) & 0xFFu, pl->key & 0xFFu) ? VS_ERR_INVALID : VS_OK;
	return c->release(st, pl->key) < 0 ? VS_ERR_INVALID : VS_OK;
}

#endif
