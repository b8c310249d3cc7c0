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

/* Tiles and tile alignment an OBJ request needs: size rounded up to 32-byte
 * tiles; align= in tiles; 8bpp sprites (and 8bpp tiles) start on even tiles
 * (1D mapping). Returns VS_OK or a vs_status failure. */
static inline int vs_gba_obj_tiles(const vs_request *rq, unsigned *n, unsigned *align)
{
	*n = (rq->size + VS_GBA_TILE_BYTES - 1u) / VS_GBA_TILE_BYTES;
	*align = rq->align > VS_GBA_TILE_BYTES ? rq->align / VS_GBA_TILE_BYTES : 1u;
	if ((rq->shape == VS_REQ_SPRITE && rq->u.sprite.bpp == 8) ||
		(rq->shape == VS_REQ_TILE && rq->u.tile.bpp == 8))
		if (*align < 2u)
			*align = 2u;
	if (*n == 0 || (*align & (*align - 1u)))
		return VS_ERR_INVALID;
	if (*n > VS_GBA_OBJ_TILES || *align > VS_GBA_OBJ_TILES)
		return VS_ERR_NOSPACE;
	return VS_OK;
}

/* Reports maximal runs of tiles for which is_free says yes, in address
 * order, as byte extents. */
static inline void vs_gba_walk_tiles(void *st, int (*is_free)(void *st, unsigned tile), unsigned ntiles,
	vs_extent_fn fn, void *ud)
{
	unsigned i = 0, j;

	while (i < ntiles) {
		if (!is_free(st, i)) {
			i++;
			continue;
		}
		for (j = i + 1; j < ntiles && is_free(st, j); j++)
			;
		if (fn(ud, i * VS_GBA_TILE_BYTES, (j - i) * VS_GBA_TILE_BYTES))
			return;
		i = j;
	}
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
 * from a first tile, alloc n tiles at an alignment, free a start and its
 * length, whether a tile is free or starts an allocation. A strategy lists
 * its allocator's calls in a table and forwards each strategy call to the
 * vs_gba_obj_bm_* below with it (and gives vs_gba_dump_tiles a sym that
 * calls vs_gba_obj_bm_sym). All always inline, with the table a constant:
 * the compiler then calls the allocator directly and drops the table, and
 * each allocator call keeps its one caller, as with an adapter of its own
 * (an escaping table cost a replay 1% more instructions). */
typedef struct vs_gba_obj_bm_calls {
	void (*init)(void *a, uint16_t first_tile);
	uint16_t (*alloc)(void *a, uint16_t n, uint16_t align); /* VS_GBA_OBJ_BM_NONE: no room */
	int (*free)(void *a, uint16_t tile, uint16_t n);        /* non-zero: not an allocation */
	int (*is_free)(void *a, unsigned tile);                 /* vs_gba_walk_tiles' form */
	int (*is_start)(const void *a, unsigned tile);
	uint16_t (*first)(const void *a);                       /* the first usable tile */
} vs_gba_obj_bm_calls;

/* Every bitmap covers the VS_GBA_OBJ_TILES tiles and answers this for no
 * room: constants, not table members, so the adapter's checks fold as a
 * hand-written one's did (each strategy checks its allocator agrees). */
#define VS_GBA_OBJ_BM_NONE 0xFFFFu

static VS_ALWAYS_INLINE int vs_gba_obj_bm_init(const vs_gba_obj_bm_calls *c, void *st, const vs_arena_decl *a,
	const char *options, uint8_t *mem, char *err, size_t errlen)
{
	static const char *const known[] = { NULL };

	(void)mem;
	if (vs_option_check(options, known, err, errlen))
		return -1;
	c->init(st, (uint16_t)vs_gba_obj_first_tile(a));
	return 0;
}

static VS_ALWAYS_INLINE int vs_gba_obj_bm_alloc(const vs_gba_obj_bm_calls *c, void *st, const vs_request *rq,
	vs_placement *out)
{
	unsigned n, align;
	int rc = vs_gba_obj_tiles(rq, &n, &align);
	uint16_t t;

	if (rc != VS_OK)
		return rc;
	t = c->alloc(st, (uint16_t)n, (uint16_t)align);
	if (t == VS_GBA_OBJ_BM_NONE)
		return VS_ERR_NOSPACE;
	vs_placement_simple(out, t * VS_GBA_TILE_BYTES, n * VS_GBA_TILE_BYTES, t);
	return VS_OK;
}

static VS_ALWAYS_INLINE int vs_gba_obj_bm_free(const vs_gba_obj_bm_calls *c, void *st, const vs_placement *pl)
{
	uint32_t n = pl->granted / VS_GBA_TILE_BYTES;

	if (pl->key >= VS_GBA_OBJ_TILES || n == 0 || n > VS_GBA_OBJ_TILES)
		return VS_ERR_INVALID;
	return c->free(st, (uint16_t)pl->key, (uint16_t)n) ? VS_ERR_INVALID : VS_OK;
}

static VS_ALWAYS_INLINE void vs_gba_obj_bm_reset(const vs_gba_obj_bm_calls *c, void *st)
{
	c->init(st, c->first(st));
}

static VS_ALWAYS_INLINE void vs_gba_obj_bm_walk(const vs_gba_obj_bm_calls *c, void *st, vs_extent_fn fn, void *ud)
{
	vs_gba_walk_tiles(st, c->is_free, VS_GBA_OBJ_TILES, fn, ud);
}

/* vs_gba_dump_tiles' sym for a bitmap: # below the first tile, U an
 * allocation's start, C the rest of one, . free. */
static VS_ALWAYS_INLINE char vs_gba_obj_bm_sym(const vs_gba_obj_bm_calls *c, void *st, unsigned tile)
{
	if (tile < c->first(st))
		return '#';
	if (c->is_start(st, tile))
		return 'U';
	return c->is_free(st, tile) ? '.' : 'C';
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
	if (rq->align > (rq->shape == VS_REQ_BGMAP ? VS_GBA_SB_BYTES : rq->shape == VS_REQ_TILE ?
		rq->u.tile.bpp * 8u : 0u))
		return VS_ERR_UNSUPPORTED;
	if (rq->shape == VS_REQ_BGMAP) {
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
