/* SPDX-License-Identifier: Zlib */
/* strat_recorded.c - `recorded`: the game's own placement.
 *
 * Every allocation goes exactly where the trace says the game's allocator put
 * it (at=), and fails where the game's failed (at=none). Nothing is decided
 * here, so the replay's checks and pictures describe the game itself: two
 * sprites in the same tiles are the overlap they are, an 8bpp sprite on an
 * odd tile is the rule it breaks. BG tiles are reference counted per RAM tile
 * like a tile manager: a request for the ROM tile already loaded at that RAM
 * tile is a hit on it. In a 2D-mapped OBJ arena a sprite takes its tile
 * rectangle (vs_hw_footprint); its key says how many rows, so free finds
 * them again.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strategies/strategies.h"
#include "vram/hw.h"
#include "vram/hw_gba.h"
#include "base/options.h"

/* The ROM tile loaded at a RAM tile (BG arenas). */
typedef struct rec_tile {
	uint32_t rom;
	uint32_t refs;
	uint8_t bpp;
} rec_tile;

typedef struct recorded {
	vs_arena_decl decl;
	uint32_t base, size, unit, nunits;
	uint32_t *used;  /* a bit per unit inside a live allocation */
	rec_tile *tile;  /* per unit, BG arenas only */
} recorded;

/* KEY_RECT | rows << 8 | stride / 256 << 16: a sprite of that many rows
 * that far apart (a DS 2D bitmap sprite's 256 or 512 bytes; 0 for a 2D
 * tile sprite's 1024) */
enum { KEY_PLAIN = 0, KEY_TILE = 1, KEY_RECT = 2 };

static void mark(recorded *st, uint32_t offset, uint32_t bytes, int on)
{
	uint32_t u = offset / st->unit, end = (uint32_t)(((uint64_t)offset + bytes + st->unit - 1) / st->unit);

	if (end > st->nunits)
		end = st->nunits;
	for (; u < end; u++) {
		if (on)
			st->used[u >> 5] |= 1u << (u & 31u);
		else
			st->used[u >> 5] &= ~(1u << (u & 31u));
	}
}

static int is_used(const recorded *st, uint32_t u)
{
	return (st->used[u >> 5] >> (u & 31u)) & 1u;
}

static void rec_fini(void *p)
{
	recorded *st = p;

	free(st->used);
	free(st->tile);
	st->used = NULL;
	st->tile = NULL;
}

static int rec_init(void *p, const vs_arena_decl *a, const char *options, uint8_t *mem, char *err, size_t errlen)
{
	static const char *const known[] = { NULL };
	recorded *st = p;

	(void)mem;
	if (vs_option_check(options, known, err, errlen))
		return -1;
	st->decl = *a;
	st->base = a->base;
	st->size = a->size;
	st->unit = a->unit ? a->unit : 1;
	st->nunits = a->size / st->unit;
	st->used = calloc(st->nunits / 32 + 1, sizeof *st->used);
	st->tile = a->kind == VS_ARENA_GBA_BG ? calloc(st->nunits, sizeof *st->tile) : NULL;
	if (!st->used || (a->kind == VS_ARENA_GBA_BG && !st->tile)) {
		rec_fini(st);
		snprintf(err, errlen, "out of memory for a %u-unit map", (unsigned)st->nunits);
		return -1;
	}
	return 0;
}

/* A BG tile: a hit when the game's RAM tile holds this ROM tile already.
 * ROM tile 0, the all-transparent tile, is one tile at both depths: a tile
 * manager keeps it loaded for 4bpp and 8bpp layers alike. */
static int place_tile(recorded *st, const vs_request *rq, uint32_t offset, vs_placement *out)
{
	rec_tile *t = &st->tile[offset / st->unit];

	vs_placement_simple(out, offset, rq->size, KEY_TILE);
	if (t->refs && t->rom == rq->u.tile.rom && (t->bpp == rq->u.tile.bpp || t->rom == 0)) {
		t->refs++;
		out->shared = 1;
		return VS_OK;
	}
	if (t->refs) {
		/* another ROM tile is live there: the game overwrote it, and the
		 * replay's overlap check says so; this one is not counted */
		out->key = KEY_PLAIN;
	} else {
		t->rom = rq->u.tile.rom;
		t->bpp = rq->u.tile.bpp;
		t->refs = 1;
	}
	mark(st, offset, rq->size, 1);
	return VS_OK;
}

static int rec_alloc(void *p, const vs_request *rq, vs_placement *out)
{
	recorded *st = p;
	uint32_t offset, r;
	vs_footprint fp;

	if (rq->has_at == VS_AT_FAILED)
		return VS_ERR_NOSPACE;
	/* with heap routing the address may belong to another heap: not here */
	if (rq->has_at != VS_AT_ADDR || rq->at < st->base || rq->at - st->base >= st->size)
		return VS_ERR_INVALID;
	offset = rq->at - st->base;
	if (rq->shape == VS_REQ_TILE && st->tile)
		return place_tile(st, rq, offset, out);
	vs_hw_footprint(&st->decl, rq, offset, rq->size, &fp);
	if (fp.stride) {
		/* where the game put it, even past tile 1023: the replay's bounds check says so */
		vs_placement_simple(out, offset, rq->size, KEY_RECT | fp.rows << 8 |
			(fp.stride == VS_GBA_OBJ_2D_STRIDE ? 0 : fp.stride >> 8) << 16);
		for (r = 0; r < fp.rows; r++)
			mark(st, fp.offset + r * fp.stride, fp.row_bytes, 1);
		return VS_OK;
	}
	vs_placement_simple(out, offset, rq->size, KEY_PLAIN);
	mark(st, offset, rq->size, 1);
	return VS_OK;
}

static int rec_free(void *p, const vs_placement *pl)
{
	recorded *st = p;

	if (pl->offset >= st->size)
		return VS_ERR_INVALID;
	if (pl->key == KEY_TILE && st->tile) {
		rec_tile *t = &st->tile[pl->offset / st->unit];
		if (!t->refs)
			return VS_ERR_INVALID;
		if (--t->refs)
			return VS_OK;
	}
	if ((pl->key & 0xFFu) == KEY_RECT) {
		uint32_t rows = (pl->key >> 8) & 0xFFu, stride = (pl->key >> 16 & 0xFFu) << 8, r;
		if (!stride)
			stride = VS_GBA_OBJ_2D_STRIDE;
		uint32_t row = pl->granted / (rows ? rows : 1);
		for (r = 0; r < rows; r++)
			mark(st, pl->offset + r * stride, row, 0);
		return VS_OK;
	}
	mark(st, pl->offset, pl->granted, 0);
	return VS_OK;
}

static void rec_reset(void *p)
{
	recorded *st = p;

	memset(st->used, 0, (st->nunits / 32 + 1) * sizeof *st->used);
	if (st->tile)
		memset(st->tile, 0, st->nunits * sizeof *st->tile);
}

/* Runs of units no live allocation covers. */
static void rec_walk(void *p, vs_extent_fn fn, void *ud)
{
	recorded *st = p;
	uint32_t u = 0, start;

	while (u < st->nunits) {
		while (u < st->nunits && is_used(st, u))
			u++;
		start = u;
		while (u < st->nunits && !is_used(st, u))
			u++;
		if (u > start && fn(ud, start * st->unit, (u - start) * st->unit))
			return;
	}
}

typedef struct printer {
	vs_print_fn print;
	void *ud;
} printer;

static int dump_extent(void *ud, uint32_t offset, uint32_t size)
{
	printer *pr = ud;
	char line[80];

	snprintf(line, sizeof line, "  free [0x%x, +%u)\n", (unsigned)offset, (unsigned)size);
	pr->print(pr->ud, line);
	return 0;
}

static void rec_dump(void *p, vs_print_fn print, void *ud)
{
	printer pr;

	pr.print = print;
	pr.ud = ud;
	print(ud, "recorded: the game's own placement; free extents:\n");
	rec_walk(p, dump_extent, &pr);
}

const vs_strategy vs_strat_recorded = {
	.abi = VS_STRATEGY_ABI,
	.name = "recorded",
	.summary = "what the game did: each allocation where the trace's at= says, failing where it says at=none",
	.arenas = (1u << VS_ARENA_KIND_COUNT) - 1u,
	.flags = VS_STRAT_NEEDS_AT | VS_STRAT_OBJ_2D | VS_STRAT_NO_MEM,
	.state_size = sizeof(recorded),
	.init = rec_init,
	.alloc = rec_alloc,
	.free = rec_free,
	.reset = rec_reset,
	.walk_free = rec_walk,
	.dump = rec_dump,
	.fini = rec_fini
};

const vs_strategy *const vs_strategies_recorded[] = { &vs_strat_recorded, NULL };
