/* SPDX-License-Identifier: Zlib */
/* strat_gba_obj_slots.c - strategy adapter for fixed per-class OBJ slots. */
#include <string.h>

#include "vramsim/alloc/gba_obj_slots.h"
#include "strategies/strategies.h"
#include "strat_gba.h"
#include "base/options.h"

/* Hand-made maps of the kind the article describes: one slot for the
 * biggest thing (a boss, a 64x64 8bpp form), a few for large sprites, more
 * as they shrink (32x32 enemies, 16x16, bullets, 8x8 particles and
 * digits), filling the area exactly. Bitmap modes have half the tiles. */
#define SLOTS_DEFAULT "1x128/3x64/8x32/12x16/16x8/16x4/16x2/32x1"
#define SLOTS_DEFAULT_BITMAP "2x64/4x32/6x16/8x8/8x4/16x2/32x1"

/* Reads "COUNTxTILES/COUNTxTILES/..." into the arrays. Returns the number
 * of classes, or -1 with err. */
static int parse_slots(const char *text, uint16_t *count, uint16_t *tiles, char *err, size_t errlen)
{
	const char *p = text;
	unsigned n = 0;

	for (;;) {
		unsigned long c = 0, t = 0;
		const char *e = p;
		while (*e >= '0' && *e <= '9' && c <= 1024)
			c = c * 10 + (unsigned long)(*e++ - '0');
		if (e == p || *e != 'x' || c > 1024)
			goto bad;
		p = ++e;
		while (*e >= '0' && *e <= '9' && t <= 1024)
			t = t * 10 + (unsigned long)(*e++ - '0');
		if (e == p || (*e && *e != '/') || t > 1024)
			goto bad;
		if (!c || !t) {
			snprintf(err, errlen, "slots=%s: class %u has %s 0", text, n + 1, c ? "slots of" : "a count of");
			return -1;
		}
		if (n == GBA_OBJ_SLOTS_CLASSES) {
			snprintf(err, errlen, "slots=%s: at most %u classes", text, GBA_OBJ_SLOTS_CLASSES);
			return -1;
		}
		count[n] = (uint16_t)c;
		tiles[n] = (uint16_t)t;
		n++;
		if (!*e)
			return (int)n;
		p = e + 1;
		continue;
bad:
		snprintf(err, errlen, "slots=%s: class %u: expected COUNTxTILES (each 1-1024), classes separated by '/'",
			text, n + 1);
		return -1;
	}
}

static int slots_init(void *st, const vs_arena_decl *a, const char *options,
	uint8_t *mem, char *err, size_t errlen)
{
	static const char *const known[] = { "slots", NULL };
	unsigned first = vs_gba_obj_first_tile(a);
	char text[256];
	uint16_t count[GBA_OBJ_SLOTS_CLASSES], tiles[GBA_OBJ_SLOTS_CLASSES];
	uint32_t need = 0;
	int n, i;

	(void)mem;
	if (vs_option_check(options, known, err, errlen))
		return -1;
	if (!vs_option_get(options, "slots", text, sizeof text))
		strcpy(text, first ? SLOTS_DEFAULT_BITMAP : SLOTS_DEFAULT);
	if ((n = parse_slots(text, count, tiles, err, errlen)) < 0)
		return -1;
	for (i = 0; i < n; i++)
		need += (uint32_t)count[i] * tiles[i];
	if (gba_obj_slots_init(st, (uint16_t)first, count, tiles, (unsigned)n) != GBA_OBJ_SLOTS_OK) {
		snprintf(err, errlen, "slots=%s: the slots take %u tiles, the OBJ area has %u (tiles %u-1023)", text,
			(unsigned)need, VS_GBA_OBJ_TILES - first, first);
		return -1;
	}
	return 0;
}

static int slots_alloc(void *st, const vs_request *rq, vs_placement *out)
{
	unsigned n, align;
	int rc = vs_gba_obj_tiles(rq, &n, &align);
	uint16_t t;

	if (rc != VS_OK)
		return rc;
	t = gba_obj_slots_alloc(st, (uint16_t)n, (uint16_t)align);
	if (t == GBA_OBJ_SLOTS_NONE)
		return VS_ERR_NOSPACE;
	/* The whole slot is the request's: what it does not use is waste. */
	vs_placement_simple(out, t * VS_GBA_TILE_BYTES, gba_obj_slots_size(st, t) * VS_GBA_TILE_BYTES, t);
	return VS_OK;
}

static int slots_free(void *st, const vs_placement *pl)
{
	if (pl->key >= GBA_OBJ_SLOTS_TILES)
		return VS_ERR_INVALID;
	return gba_obj_slots_free(st, (uint16_t)pl->key) ? VS_ERR_INVALID : VS_OK;
}

static void slots_reset(void *st)
{
	gba_obj_slots_clear(st);
}

/* Each free slot is an extent of its own: a request never spans two. */
static void slots_walk(void *st, vs_extent_fn fn, void *ud)
{
	const gba_obj_slots *a = st;
	unsigned i, s;

	for (i = 0; i < a->nclass; i++)
		for (s = 0; s < a->cls[i].count; s++) {
			unsigned tile = a->cls[i].base + s * a->cls[i].tiles;
			if (gba_obj_slots_is_free(a, (uint16_t)tile) &&
				fn(ud, tile * VS_GBA_TILE_BYTES, a->cls[i].tiles * VS_GBA_TILE_BYTES))
				return;
		}
}

static char slots_sym(void *st, unsigned tile)
{
	const gba_obj_slots *a = st;

	if (tile < a->first)
		return '#';
	if (tile >= a->end)
		return 'x'; /* in no slot: never handed out */
	if (gba_obj_slots_starts(a, (uint16_t)tile))
		return 'U';
	return gba_obj_slots_is_free(a, (uint16_t)tile) ? '.' : 'C';
}

static void slots_dump(void *st, vs_print_fn print, void *ud)
{
	vs_gba_dump_tiles(st, slots_sym, print, ud);
}

const vs_strategy vs_strat_gba_obj_slots = {
	.abi = VS_STRATEGY_ABI,
	.name = "gba-obj-slots",
	.summary = "fixed slots per size class decided in advance, from 'Gameboy Advance Resource Management' "
		"(slots=COUNTxTILES/...; default " SLOTS_DEFAULT ")",
	.arenas = VS_ARENA_BIT(VS_ARENA_GBA_OBJ),
	.flags = VS_STRAT_RELOCATABLE | VS_STRAT_NO_MEM,
	.state_size = sizeof(gba_obj_slots),
	.init = slots_init,
	.alloc = slots_alloc,
	.free = slots_free,
	.reset = slots_reset,
	.walk_free = slots_walk,
	.dump = slots_dump
};
