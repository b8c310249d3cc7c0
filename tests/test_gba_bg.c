/* SPDX-License-Identifier: Zlib */
/* test_gba_bg.c - the BG tile managers of 'Gameboy Advance Resource
 * Management' against a reference model.
 *
 * A generated side-scroller is replayed reference by reference through the
 * shared 4/8bpp manager and the split one; a model written here says for
 * every reference whether it is a hit (same block) or a load (a block the
 * model holds free, legal for its depth), whether a failure was forced (no
 * block of the kind the scheme can use), and after every frame that the
 * free blocks match to the block. Hand-made cases check the article's rules. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "vramsim/alloc/gba_bg_tiles.h"
#include "vramsim/alloc/gba_bg_tiles_split.h"
#include "gen/gen.h"
#include "vram/hw.h"
#include "engine/replay.h"
#include "vramsim/strategy.h"
#include "trace/trace.h"
#include "strategies/registry.h"
#include "vram/request.h"
#include "vram/arena.h"

#define BLOCKS 1792u
#define ROMS 4096u
#define MAXID 2000000u

/* check's ck_assert reports every passing check to the parent (a message
 * written and read back); in the loops over blocks and references that was
 * nearly all of this suite's time, so hot checks test first. */

typedef struct ref_model {
	uint32_t refs[ROMS];   /* references per ROM tile */
	int32_t block[ROMS];   /* block of a loaded ROM tile, -1 if none */
	uint8_t bpp[ROMS];
	int32_t owner[BLOCKS]; /* ROM tile holding a block, 0 free, -1 reserved */
} ref_model;

/* The two managers behind one interface. */
typedef struct mgr {
	int split;
	gba_bg_tiles shared;
	gba_bg_tiles_split two;
	uint32_t split4; /* blocks of the split scheme's 4bpp region */
} mgr;

static int32_t mgr_ref(mgr *m, uint32_t rom, unsigned bpp, int *loaded)
{
	return m->split ? gba_bg_tiles_split_ref(&m->two, rom, bpp, loaded) : gba_bg_tiles_ref(&m->shared, rom, bpp, loaded);
}

static int32_t mgr_release(mgr *m, uint32_t b)
{
	return m->split ? gba_bg_tiles_split_release(&m->two, b) : gba_bg_tiles_release(&m->shared, b);
}

static int mgr_block_free(const mgr *m, uint32_t b)
{
	return m->split ? gba_bg_tiles_split_block_free(&m->two, b) : gba_bg_tiles_block_free(&m->shared, b);
}

static void model_init(ref_model *r)
{
	memset(r, 0, sizeof *r);
	memset(r->block, 0xFF, sizeof r->block);
	r->owner[0] = r->owner[1] = -1;
}

/* Whether the scheme had any legal block for a new tile of this depth. */
static int model_room(const ref_model *r, const mgr *m, unsigned bpp)
{
	uint32_t b, lo = 2, hi4 = m->split ? m->split4 : 1024u;

	if (bpp == 4) {
		for (b = lo; b < hi4; b++)
			if (!r->owner[b])
				return 1;
		return 0;
	}
	for (b = m->split ? m->split4 : lo; b < BLOCKS; b += 2)
		if (!r->owner[b] && !r->owner[b + 1])
			return 1;
	return 0;
}

static void check_blocks(const ref_model *r, const mgr *m)
{
	uint32_t b, nfree = 0;

	for (b = 0; b < BLOCKS; b++) {
		HOT_ASSERT(mgr_block_free(m, b) == (r->owner[b] == 0), "block %u: manager says %s, model %d", b,
			mgr_block_free(m, b) ? "free" : "taken", r->owner[b]);
		nfree += r->owner[b] == 0;
	}
	if (!m->split) {
		/* The free lists hold every free block, each once. */
		const gba_bg_tiles *t = &m->shared;
		HOT_CMP(2u * t->len[GBA_BG_LIST_A] + 2u * t->len[GBA_BG_LIST_B] + t->len[GBA_BG_LIST_C], ==, nfree);
	}
}

/* One reference, checked against the model. */
static int32_t do_ref(ref_model *r, mgr *m, uint32_t rom, unsigned bpp)
{
	int loaded = -1;
	int32_t b = mgr_ref(m, rom, bpp, &loaded);
	unsigned k, n = bpp / 4u;

	if (rom == 0) {
		HOT_CMP(b, ==, 0);
		HOT_CMP(loaded, ==, 0);
		return 0;
	}
	if (r->block[rom] >= 0) {
		HOT_CMP(r->bpp[rom], ==, bpp);
		HOT_CMP(b, ==, r->block[rom]);
		HOT_CMP(loaded, ==, 0);
		r->refs[rom]++;
		return b;
	}
	if (b < 0) {
		HOT_CMP(b, ==, GBA_BG_TILES_NO_SPACE);
		HOT_ASSERT(!model_room(r, m, bpp), "ROM %u (%ubpp) refused with room left", rom, bpp);
		return -1;
	}
	HOT_CMP(loaded, ==, 1);
	HOT_CMP((uint32_t)b + n, <, BLOCKS + 1u);
	if (bpp == 8)
		HOT_CMP(b % 2, ==, 0);
	else
		HOT_CMP((uint32_t)b, <, 1024u); /* a 10-bit 4bpp tile number from charblock 0 */
	for (k = 0; k < n; k++) {
		HOT_ASSERT(r->owner[b + k] == 0, "ROM %u loaded over block %u", rom, b + k);
		r->owner[b + k] = (int32_t)rom;
	}
	r->block[rom] = b;
	r->bpp[rom] = (uint8_t)bpp;
	r->refs[rom] = 1;
	return b;
}

static void do_release(ref_model *r, mgr *m, uint32_t rom)
{
	int32_t left = mgr_release(m, (uint32_t)r->block[rom]);
	unsigned k;

	HOT_CMP(left, ==, (int32_t)r->refs[rom] - 1);
	if (--r->refs[rom] == 0) {
		for (k = 0; k < r->bpp[rom] / 4u; k++)
			r->owner[r->block[rom] + (int32_t)k] = 0;
		r->block[rom] = -1;
	}
}

typedef struct idmap {
	uint32_t *rom; /* per trace id: ROM tile + 1 of a live reference, 0 none */
} idmap;

/* Replays a generated side-scroller through a manager, ref by ref. */
static void scroll_run(int split, uint64_t seed, uint32_t frames, uint32_t *loads, uint32_t *hits, uint32_t *fails)
{
	vs_gen_opts o;
	char err[256], line[256];
	FILE *fp = tmpfile();
	ref_model *r = malloc(sizeof *r);
	mgr *m = calloc(1, sizeof *m);
	uint32_t *ids = calloc(MAXID, sizeof *ids);
	unsigned long long id;
	unsigned rom, bpp;

	ck_assert_ptr_nonnull(fp);
	ck_assert_ptr_nonnull(r);
	ck_assert_ptr_nonnull(m);
	ck_assert_ptr_nonnull(ids);
	vs_gen_opts_default(&o);
	o.seed = seed;
	o.frames = frames;
	ck_assert_int_eq(vs_gen_side_scroller(fp, &o, err, sizeof err), 0);
	rewind(fp);
	model_init(r);
	m->split = split;
	if (split) {
		gba_bg_tiles_split_init(&m->two, 0x5000); /* 20 KiB 4bpp, 36 KiB 8bpp */
		m->split4 = 0x5000 / 32;
	} else {
		gba_bg_tiles_init(&m->shared);
	}
	*loads = *hits = *fails = 0;
	while (fgets(line, sizeof line, fp)) {
		if (sscanf(line, "alloc %llu tile %u %ubpp", &id, &rom, &bpp) == 3) {
			int was = r->block[rom] >= 0;
			HOT_CMP(id, <, MAXID);
			if (do_ref(r, m, rom, bpp) >= 0) {
				ids[id] = rom + 1u;
				if (was)
					(*hits)++;
				else
					(*loads)++;
			} else {
				(*fails)++;
			}
		} else if (sscanf(line, "free %llu", &id) == 1) {
			HOT_CMP(id, <, MAXID);
			if (ids[id]) {
				do_release(r, m, ids[id] - 1u);
				ids[id] = 0;
			}
		} else if (strcmp(line, "frame\n") == 0) {
			check_blocks(r, m);
		}
	}
	check_blocks(r, m);
	fclose(fp);
	free(ids);
	free(m);
	free(r);
}

START_TEST(shared_scroll_ref_by_ref)
{
	uint32_t loads, hits, fails;

	scroll_run(0, 1 + (uint64_t)_i, vs_test_soak(600, 6000), &loads, &hits, &fails);
	if (getenv("VS_TEST_VERBOSE"))
		fprintf(stderr, "shared: loads %u hits %u fails %u\n", loads, hits, fails);
	ck_assert_uint_gt(loads, 500);
	ck_assert_uint_gt(hits, loads); /* most checks find the tile loaded */
}
END_TEST

START_TEST(split_scroll_ref_by_ref)
{
	uint32_t loads, hits, fails;

	scroll_run(1, 1 + (uint64_t)_i, vs_test_soak(600, 6000), &loads, &hits, &fails);
	if (getenv("VS_TEST_VERBOSE"))
		fprintf(stderr, "split: loads %u hits %u fails %u\n", loads, hits, fails);
	ck_assert_uint_gt(loads, 500);
}
END_TEST

/* Seed 000's rules for the shared scheme, step by step. */
START_TEST(shared_scheme_rules)
{
	gba_bg_tiles *m = malloc(sizeof *m);
	int loaded;
	int32_t a, b, c, d;
	uint32_t i;

	gba_bg_tiles_init(m);
	ck_assert_uint_eq(m->len[GBA_BG_LIST_A], 511); /* pairs 1-511: pair 0 is the transparent tile */
	ck_assert_uint_eq(m->len[GBA_BG_LIST_B], 384); /* 24 KiB of 64-byte pairs */
	ck_assert_uint_eq(m->len[GBA_BG_LIST_C], 0);
	/* Tile 0: never allocated, counted or freed. */
	ck_assert_int_eq(gba_bg_tiles_ref(m, 0, 4, &loaded), 0);
	ck_assert_int_eq(loaded, 0);
	ck_assert_int_eq(gba_bg_tiles_ref(m, 0, 8, &loaded), 0);
	ck_assert_int_eq(gba_bg_tiles_release(m, 0), 1);
	ck_assert_uint_eq(gba_bg_tiles_refs(m, 0), 0);
	/* 8bpp takes list-b first: the 8bpp-only region at block 1024. */
	a = gba_bg_tiles_ref(m, 10, 8, &loaded);
	ck_assert_int_eq(a, 1024);
	ck_assert_int_eq(loaded, 1);
	/* 4bpp takes list-c first, else splits a pair from list-a, partner to list-c. */
	b = gba_bg_tiles_ref(m, 11, 4, &loaded);
	ck_assert_int_eq(b, 2);
	ck_assert_uint_eq(m->len[GBA_BG_LIST_C], 1);
	c = gba_bg_tiles_ref(m, 12, 4, &loaded);
	ck_assert_int_eq(c, 3);
	ck_assert_uint_eq(m->len[GBA_BG_LIST_C], 0);
	/* A hit: same block, count up, nothing loaded. */
	ck_assert_int_eq(gba_bg_tiles_ref(m, 11, 4, &loaded), 2);
	ck_assert_int_eq(loaded, 0);
	ck_assert_uint_eq(gba_bg_tiles_refs(m, 2), 2);
	/* One ROM index is one tile at one depth. */
	ck_assert_int_eq(gba_bg_tiles_ref(m, 11, 8, &loaded), GBA_BG_TILES_BAD);
	/* Free 3: partner 2 is used, so 3 goes on list-c. */
	ck_assert_int_eq(gba_bg_tiles_release(m, 3), 0);
	ck_assert_uint_eq(m->len[GBA_BG_LIST_C], 1);
	ck_assert_int_eq(gba_bg_tiles_release(m, 2), 1);
	ck_assert_uint_eq(m->len[GBA_BG_LIST_A], 510);
	/* Free 2: partner 3 is free, so 3 leaves list-c and the pair re-joins list-a. */
	ck_assert_int_eq(gba_bg_tiles_release(m, 2), 0);
	ck_assert_uint_eq(m->len[GBA_BG_LIST_C], 0);
	ck_assert_uint_eq(m->len[GBA_BG_LIST_A], 511);
	ck_assert_int_eq(gba_bg_tiles_release(m, 2), GBA_BG_TILES_BAD); /* double release */
	/* An 8bpp free goes back where it belongs: block >= 1024 to list-b. */
	ck_assert_int_eq(gba_bg_tiles_release(m, (uint32_t)a), 0);
	ck_assert_uint_eq(m->len[GBA_BG_LIST_B], 384);
	/* list-b empty: 8bpp tiles move on to list-a. */
	for (i = 0; i < 384; i++)
		ck_assert_int_ge(gba_bg_tiles_ref(m, 100 + i, 8, &loaded), 1024);
	d = gba_bg_tiles_ref(m, 99, 8, &loaded);
	ck_assert_int_lt(d, 1024);
	ck_assert_int_eq(d % 2, 0);
	/* Fill list-a with 4bpp tiles, then 8bpp fails while a single block is free. */
	for (i = 0; m->len[GBA_BG_LIST_A] > 0; i++)
		ck_assert_int_ge(gba_bg_tiles_ref(m, 1000 + i, 4, &loaded), 0);
	ck_assert_uint_eq(m->len[GBA_BG_LIST_C], 1);
	ck_assert_int_eq(gba_bg_tiles_ref(m, 3000, 8, &loaded), GBA_BG_TILES_NO_SPACE);
	ck_assert_int_ge(gba_bg_tiles_ref(m, 3001, 4, &loaded), 0);
	ck_assert_int_eq(gba_bg_tiles_ref(m, 3002, 4, &loaded), GBA_BG_TILES_NO_SPACE);
	/* Out-of-range ROM index and depth. */
	ck_assert_int_eq(gba_bg_tiles_ref(m, GBA_BG_TILES_ROM_MAX, 4, &loaded), GBA_BG_TILES_BAD);
	ck_assert_int_eq(gba_bg_tiles_ref(m, 5, 2, &loaded), GBA_BG_TILES_BAD);
	free(m);
}
END_TEST

/* Seed 000: the ROM tile set is the game's, up to 16-bit indices (0xFFFF
 * marks unused); the tables' RAM follows it at 2 bytes a ROM tile, per
 * region in the split scheme. */
START_TEST(rom_tile_set_at_run_time)
{
	gba_bg_tiles *m = malloc(sizeof *m);
	gba_bg_tiles_split *s = malloc(sizeof *s);
	int loaded;
	uint32_t fixed, fixed2;

	ck_assert_ptr_nonnull(m);
	ck_assert_ptr_nonnull(s);
	gba_bg_tiles_init(m);
	ck_assert_uint_eq(m->rom_tiles, 4096);
	ck_assert_int_eq(gba_bg_tiles_ref(m, 4096, 4, &loaded), GBA_BG_TILES_BAD);
	fixed = gba_bg_tiles_ram_bytes(m) - 4096u * 2u;
	ck_assert_int_eq(gba_bg_tiles_init_rom(m, 0), GBA_BG_TILES_BAD);
	ck_assert_int_eq(gba_bg_tiles_init_rom(m, 65536), GBA_BG_TILES_BAD);
	ck_assert_int_eq(gba_bg_tiles_init_rom(m, 65535), 0);
	ck_assert_uint_eq(gba_bg_tiles_ram_bytes(m), fixed + 65535u * 2u);
	ck_assert_int_eq(gba_bg_tiles_ref(m, 65534, 4, &loaded), 2);
	ck_assert_int_eq(loaded, 1);
	ck_assert_int_eq(gba_bg_tiles_ref(m, 65534, 4, &loaded), 2);
	ck_assert_int_eq(loaded, 0);
	ck_assert_int_eq(gba_bg_tiles_ref(m, 65535, 8, &loaded), GBA_BG_TILES_BAD);
	ck_assert_int_eq(gba_bg_tiles_release(m, 2), 1);
	ck_assert_int_eq(gba_bg_tiles_release(m, 2), 0);
	ck_assert_int_eq(gba_bg_tiles_init_rom(m, 100), 0);
	ck_assert_uint_eq(gba_bg_tiles_ram_bytes(m), fixed + 200u);
	ck_assert_int_eq(gba_bg_tiles_ref(m, 99, 4, &loaded), 2);
	ck_assert_int_eq(gba_bg_tiles_ref(m, 100, 4, &loaded), GBA_BG_TILES_BAD);

	ck_assert_int_eq(gba_bg_tiles_split_init_rom(s, 0x7000, 0), GBA_BG_SPLIT_BAD);
	ck_assert_int_eq(gba_bg_tiles_split_init_rom(s, 0x7000, 65535), 0);
	fixed2 = gba_bg_tiles_split_ram_bytes(s) - 65535u * 4u;
	ck_assert_int_ge(gba_bg_tiles_split_ref(s, 65534, 4, &loaded), 2);
	ck_assert_int_eq(gba_bg_tiles_split_ref(s, 65535, 4, &loaded), GBA_BG_SPLIT_BAD);
	gba_bg_tiles_split_init(s, 0x7000);
	ck_assert_uint_eq(gba_bg_tiles_split_ram_bytes(s), fixed2 + 4096u * 4u);
	ck_assert_int_eq(gba_bg_tiles_split_ref(s, 4096, 8, &loaded), GBA_BG_SPLIT_BAD);
	free(m);
	free(s);
}
END_TEST

/* The split scheme cannot lend: a full 4bpp region fails while the 8bpp
 * region is empty, where the shared scheme still has room. */
START_TEST(split_cannot_lend)
{
	gba_bg_tiles_split *s = malloc(sizeof *s);
	gba_bg_tiles *m = malloc(sizeof *m);
	int loaded;
	uint32_t i;

	gba_bg_tiles_split_init(s, 0x7000);
	gba_bg_tiles_init(m);
	for (i = 0; i < 0x7000 / 32 - 2; i++) {
		ck_assert_int_ge(gba_bg_tiles_split_ref(s, 1 + i, 4, &loaded), 2);
		ck_assert_int_ge(gba_bg_tiles_ref(m, 1 + i, 4, &loaded), 2);
	}
	ck_assert_int_eq(gba_bg_tiles_split_ref(s, 2000, 4, &loaded), GBA_BG_SPLIT_NO_SPACE);
	ck_assert_int_ge(gba_bg_tiles_ref(m, 2000, 4, &loaded), 0);
	/* 8bpp tiles of the split scheme land after the 4bpp region, on 64 bytes. */
	ck_assert_int_eq(gba_bg_tiles_split_ref(s, 2001, 8, &loaded), 0x7000 / 32);
	ck_assert_int_eq(gba_bg_tiles_split_ref(s, 2002, 8, &loaded), 0x7000 / 32 + 2);
	ck_assert_int_eq(gba_bg_tiles_split_release(s, 0x7000 / 32 + 1), GBA_BG_SPLIT_BAD);
	ck_assert_int_eq(gba_bg_tiles_split_release(s, 0x7000 / 32 + 2), 0);
	ck_assert_int_eq(gba_bg_tiles_split_release(s, 0), 1);
	ck_assert_int_eq(gba_bg_tiles_split_release(s, 1), GBA_BG_SPLIT_BAD);
	free(s);
	free(m);
}
END_TEST

static void *strat_new(const char *name, const vs_strategy **s, const char *options, unsigned mode, int *rc)
{
	vs_arena_decl d;
	char err[200];
	void *st;

	*s = vs_strategy_find(name);
	ck_assert_ptr_nonnull(*s);
	st = calloc(1, (*s)->state_size);
	vs_arena_decl_default(&d, VS_ARENA_GBA_BG);
	d.gba_mode = (uint8_t)mode;
	*rc = (*s)->init(st, &d, options, NULL, err, sizeof err);
	return st;
}

typedef struct held_seen { uint32_t n, off, size; } held_seen;

static int held_cb(void *ud, uint32_t off, uint32_t size)
{
	held_seen *h = ud;

	h->n++;
	h->off = off;
	h->size = size;
	return 0;
}

/* The adapters: hits are shared placements, tile 0 is the reserved tile,
 * maps sit on 2 KiB screenblocks 28-31, every placement obeys the rules. */
START_TEST(adapter_semantics)
{
	held_seen held;
	static const char *const names[] = { "gba-bg-tiles", "gba-bg-tiles-split" };
	const vs_strategy *s;
	vs_arena_decl d;
	vs_placement p, q, maps[4];
	vs_request t5 = vs_test_tile_rq(5, 4), t6 = vs_test_tile_rq(6, 8), z = vs_test_tile_rq(0, 4);
	vs_request m0 = vs_test_map_rq(0, 0), m3 = vs_test_map_rq(0, 3);
	char why[200];
	int rc, i;
	void *st = strat_new(names[_i], &s, "", 0, &rc);

	ck_assert_int_eq(rc, 0);
	vs_arena_decl_default(&d, VS_ARENA_GBA_BG);
	ck_assert_int_eq(s->alloc(st, &t5, &p), VS_OK);
	ck_assert_uint_eq(p.shared, 0);
	ck_assert_uint_eq(p.granted, 32);
	ck_assert_int_eq(s->alloc(st, &t5, &q), VS_OK);
	ck_assert_uint_eq(q.shared, 1);
	ck_assert_uint_eq(q.offset, p.offset);
	ck_assert_int_eq(s->free(st, &q), VS_OK);
	ck_assert_int_eq(s->free(st, &p), VS_OK);
	ck_assert_int_eq(s->free(st, &p), VS_ERR_INVALID);
	ck_assert_int_eq(s->alloc(st, &t6, &p), VS_OK);
	ck_assert_uint_eq(p.offset % 64u, 0);
	ck_assert_uint_eq(p.granted, 64);
	ck_assert_int_eq(vs_hw_check(&d, &t6, p.offset, 64, why, sizeof why), 0);
	/* ROM tile 0: shared, at offset 0, and releasing it changes nothing. */
	ck_assert_int_eq(s->alloc(st, &z, &q), VS_OK);
	ck_assert_uint_eq(q.shared, 1);
	ck_assert_uint_eq(q.offset, 0);
	ck_assert_int_eq(s->free(st, &q), VS_OK);
	/* The tile the strategy keeps for itself: blocks 0-1, nothing else. */
	ck_assert_ptr_nonnull(s->held);
	memset(&held, 0, sizeof held);
	s->held(st, held_cb, &held);
	ck_assert_uint_eq(held.n, 1);
	ck_assert_uint_eq(held.off, 0);
	ck_assert_uint_eq(held.size, 64);
	/* Four 2 KiB maps at 0xE000, 0xE800, 0xF000, 0xF800; a fifth fails. */
	for (i = 0; i < 4; i++) {
		ck_assert_int_eq(s->alloc(st, &m0, &maps[i]), VS_OK);
		ck_assert_uint_eq(maps[i].offset, 0xE000u + 0x800u * (unsigned)i);
		ck_assert_int_eq(vs_hw_check(&d, &m0, maps[i].offset, m0.size, why, sizeof why), 0);
	}
	ck_assert_int_eq(s->alloc(st, &m0, &q), VS_ERR_NOSPACE);
	for (i = 0; i < 4; i++)
		ck_assert_int_eq(s->free(st, &maps[i]), VS_OK);
	ck_assert_int_eq(s->free(st, &maps[0]), VS_ERR_INVALID);
	/* A 512x512 text map takes all four. */
	ck_assert_int_eq(s->alloc(st, &m3, &q), VS_OK);
	ck_assert_uint_eq(q.offset, 0xE000u);
	ck_assert_uint_eq(q.granted, 0x2000u);
	ck_assert_int_eq(s->alloc(st, &m0, &p), VS_ERR_NOSPACE);
	free(st);
	/* Bitmap modes have no tiled backgrounds. */
	st = strat_new(names[_i], &s, "", 3, &rc);
	ck_assert_int_ne(rc, 0);
	free(st);
}
END_TEST

START_TEST(split_option)
{
	const vs_strategy *s;
	int rc;
	void *st;

	st = strat_new("gba-bg-tiles-split", &s, "bytes4=16K", 0, &rc);
	ck_assert_int_eq(rc, 0);
	free(st);
	st = strat_new("gba-bg-tiles-split", &s, "bytes4=40K", 0, &rc);
	ck_assert_int_ne(rc, 0);
	free(st);
	st = strat_new("gba-bg-tiles-split", &s, "bytes4=100", 0, &rc);
	ck_assert_int_ne(rc, 0);
	free(st);
	/* numbers as every strategy reads them: 0x hex, a leading 0 not octal
	 * (0100 is 100, no multiple of 64), no suffix wrapping into range */
	st = strat_new("gba-bg-tiles-split", &s, "bytes4=0x400", 0, &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(((const gba_bg_tiles_split *)st)->bytes4, 0x400);
	free(st);
	st = strat_new("gba-bg-tiles-split", &s, "bytes4=0100", 0, &rc);
	ck_assert_int_ne(rc, 0);
	free(st);
	st = strat_new("gba-bg-tiles-split", &s, "bytes4=0x40000000000001K", 0, &rc);
	ck_assert_int_ne(rc, 0);
	free(st);
	st = strat_new("gba-bg-tiles-split", &s, "bytes4=1M", 0, &rc);
	ck_assert_int_ne(rc, 0);
	free(st);
}
END_TEST

typedef struct walk_ctx { uint8_t freeb[2048]; } walk_ctx;

static int walk_cb(void *ud, uint32_t off, uint32_t size)
{
	walk_ctx *w = ud;
	uint32_t b;

	HOT_CMP(off + size, <=, 0x10000u);
	for (b = off / 32u; b < (off + size) / 32u; b++) {
		HOT_ASSERT(!w->freeb[b], "block %u reported free twice", b);
		w->freeb[b] = 1;
	}
	return 0;
}

/* Random references, releases and maps through the adapter, with the free
 * space it reports checked against the ownership the model keeps. */
START_TEST(adapter_random)
{
	static const char *const names[] = { "gba-bg-tiles", "gba-bg-tiles-split" };
	const vs_strategy *s;
	vs_arena_decl d;
	vs_rng rng = { 77u + (uint64_t)_i };
	struct { vs_placement pl; vs_request rq; } *live = calloc(20000, sizeof *live);
	uint32_t *cnt = calloc(65536 / 32, sizeof *cnt), i, b, steps = vs_test_soak(60000, 600000);
	walk_ctx *w = malloc(sizeof *w);
	char why[200];
	int n = 0, rc;
	void *st = strat_new(names[_i], &s, "", 0, &rc);

	vs_arena_decl_default(&d, VS_ARENA_GBA_BG);
	for (i = 0; i < steps; i++) {
		if (n > 0 && (n >= 20000 || vs_rng_below(&rng, 100) < 45 + (n > 3000) * 20)) {
			int k = (int)vs_rng_below(&rng, (uint32_t)n);
			HOT_CMP(s->free(st, &live[k].pl), ==, VS_OK);
			if (live[k].rq.shape == VS_REQ_BGMAP || live[k].pl.offset >= 64)
				for (b = live[k].pl.offset / 32u; b < (live[k].pl.offset + live[k].pl.granted) / 32u; b++)
					cnt[b]--;
			live[k] = live[--n];
		} else {
			vs_request rq = vs_rng_below(&rng, 200) == 0 ? vs_test_map_rq(0, vs_rng_below(&rng, 4))
				: vs_test_tile_rq(vs_rng_below(&rng, 4) ? 1 + vs_rng_below(&rng, 1500) : 2000 + vs_rng_below(&rng, 600),
					0);
			vs_placement pl;
			if (rq.shape == VS_REQ_TILE) {
				rq.u.tile.bpp = rq.u.tile.rom >= 2000 ? 8 : 4;
				rq.size = rq.u.tile.bpp * 8u;
				if (vs_rng_below(&rng, 50) == 0)
					rq.u.tile.rom = 0;
			}
			rc = s->alloc(st, &rq, &pl);
			if (rc != VS_OK) {
				HOT_CMP(rc, ==, VS_ERR_NOSPACE);
				continue;
			}
			HOT_ASSERT(vs_hw_check(&d, &rq, pl.offset, pl.granted, why, sizeof why) == 0, "%s", why);
			for (b = pl.offset / 32u; b < (pl.offset + pl.granted) / 32u; b++) {
				if (pl.shared)
					HOT_ASSERT(cnt[b] > 0 || pl.offset == 0, "hit on a free block %u", b);
				else
					HOT_ASSERT(cnt[b] == 0, "load over a taken block %u", b);
			}
			if (rq.shape == VS_REQ_BGMAP || pl.offset >= 64)
				for (b = pl.offset / 32u; b < (pl.offset + pl.granted) / 32u; b++)
					cnt[b]++;
			live[n].pl = pl;
			live[n].rq = rq;
			n++;
		}
		if (i % 101 == 0) {
			memset(w, 0, sizeof *w);
			s->walk_free(st, walk_cb, w);
			for (b = 0; b < 2048; b++)
				HOT_ASSERT(w->freeb[b] == (b >= 2 && cnt[b] == 0), "block %u: walk %d, refs %u", b,
					w->freeb[b], cnt[b]);
		}
	}
	free(st);
	free(live);
	free(cnt);
	free(w);
}
END_TEST

/* ---- through the replay engine ------------------------------------------ */

static void quiet(void *ud, const char *line)
{
	(void)ud;
	(void)line;
}

static vs_replay *replay_open(FILE *in, const char *path, const char *name)
{
	char err[1024];
	vs_trace_reader *rd = in ? vs_trace_open_stream(in, "t", err, sizeof err) : vs_trace_open(path, err, sizeof err);
	vs_replay_config cfg;
	vs_replay *r;

	ck_assert_msg(rd != NULL, "%s", err);
	vs_replay_config_default(&cfg);
	cfg.strategy[0] = name ? vs_strategy_find(name) : NULL;
	cfg.message = quiet;
	r = vs_replay_new(rd, &cfg, err, sizeof err);
	ck_assert_msg(r != NULL, "%s", err);
	return r;
}

/* ROM tile 0 is the manager's own: its 64 bytes are management from the
 * start, references to it (4bpp or 8bpp) are hits that take nothing and
 * count no live allocation, and they never mix with real tiles. */
START_TEST(replay_tile0_takes_nothing)
{
	static const char *const names[] = { "gba-bg-tiles", "gba-bg-tiles-split" };
	static const char text[] = "vramsim-trace 1\narena bg gba-bg\n"
		"alloc 1 tile 0 4bpp\n"    /* 1 */
		"alloc 2 tile 0 8bpp\n"    /* 2 */
		"alloc 3 tile 5 4bpp\n"    /* 3: a load */
		"alloc 4 tile 0 4bpp\n"    /* 4 */
		"free 1\n"                 /* 5 */
		"alloc 5 tile 5 4bpp\n"    /* 6: a hit on 3 */
		"alloc 6 tile 7 8bpp\n"    /* 7: a load */
		"free 2\nfree 4\nfree 3\nfree 5\nfree 6\n" /* 8-12 */
		"alloc 7 tile 0 8bpp\n";   /* 13 */
	FILE *in = fmemopen((void *)text, strlen(text), "rb");
	vs_replay *r = replay_open(in, NULL, names[_i]);
	const vs_metrics *m = vs_replay_metrics(r, 0);
	const vs_arena *a = vs_replay_arena(r, 0);
	uint64_t free0 = m->free_bytes;

	ck_assert_uint_eq(m->management_bytes, 64);
	ck_assert_uint_eq(free0 + 64, m->usable_bytes);
	ck_assert_uint_eq(vs_arena_owner_at(a, 0), VS_OWNER_ALLOC);
	ck_assert_uint_eq(vs_arena_kind_at(a, 0), VS_UNIT_OVERHEAD);
	ck_assert_uint_eq(vs_arena_owner_at(a, 1), VS_OWNER_ALLOC);
	ck_assert_uint_eq(vs_arena_owner_at(a, 2), VS_OWNER_NONE);
	ck_assert_int_eq(vs_replay_run(r, 2), 1);
	ck_assert_uint_eq(m->shared_hits, 2);
	ck_assert_uint_eq(m->live_count, 0);
	ck_assert_uint_eq(m->live_bytes, 0);
	ck_assert_uint_eq(m->free_bytes, free0);
	ck_assert_int_eq(vs_replay_run(r, 3), 1);
	ck_assert_uint_eq(m->live_count, 1);
	ck_assert_uint_eq(m->free_bytes, free0 - 32);
	ck_assert_int_eq(vs_replay_run(r, 4), 1);
	ck_assert_uint_eq(m->shared_hits, 3);
	ck_assert_uint_eq(m->live_count, 1);
	ck_assert_int_eq(vs_replay_run(r, 6), 1);
	ck_assert_uint_eq(m->shared_hits, 4);
	ck_assert_uint_eq(m->live_count, 1);
	ck_assert_uint_eq(m->free_bytes, free0 - 32);
	ck_assert_int_eq(vs_replay_run(r, 7), 1);
	ck_assert_uint_eq(m->live_count, 2);
	ck_assert_uint_eq(m->free_bytes, free0 - 32 - 64);
	ck_assert_uint_eq(m->management_bytes, 64);
	ck_assert_int_eq(vs_replay_run(r, 0), 0);
	ck_assert_uint_eq(m->shared_hits, 5);
	ck_assert_uint_eq(m->live_count, 0);
	ck_assert_uint_eq(m->free_bytes, free0);
	ck_assert_uint_eq(m->management_bytes, 64);
	ck_assert_uint_eq(vs_replay_check_total(r), 0);
	ck_assert_uint_eq(vs_replay_diag_total(r), 0);
	vs_replay_free(r);
	fclose(in);
}
END_TEST

static int count_free(void *ud, uint32_t off, uint32_t size)
{
	(void)off;
	*(uint64_t *)ud += size;
	return 0;
}

/* The bundled side-scrollers replay clean under both managers, with tile 0
 * as management and the free space the manager walks equal to the map's. */
START_TEST(replay_bundled_side_scrollers)
{
	static const char *const traces[] = { "gba-side-scroller-1.trace", "gba-side-scroller-2.trace" };
	static const char *const names[] = { NULL, "gba-bg-tiles", "gba-bg-tiles-split" };
	char path[512];
	int t, k;

	for (t = 0; t < 2; t++) {
		for (k = 0; k < 3; k++) {
			vs_replay *r;
			const vs_metrics *m;
			const vs_strategy *s;
			uint64_t walked = 0;
			int rc;

			snprintf(path, sizeof path, "%s/traces/%s", VS_SOURCE_DIR, traces[t]);
			r = replay_open(NULL, path, names[k]);
			m = vs_replay_metrics(r, 0);
			s = vs_replay_strategy(r, 0);
			while ((rc = vs_replay_step(r)) == 1)
				if (vs_replay_events(r) % 997 == 0) {
					walked = 0;
					s->walk_free(vs_replay_strategy_state(r, 0), count_free, &walked);
					ck_assert_uint_eq(walked, m->free_bytes);
					ck_assert_uint_eq(m->management_bytes, 64);
				}
			ck_assert_msg(rc == 0, "%s", vs_replay_error(r));
			ck_assert_uint_eq(m->management_bytes, 64);
			ck_assert_uint_eq(vs_replay_check_total(r), 0);
			if (k == 0) {
				/* the trace's own strategy: nothing to say at all */
				ck_assert_msg(vs_replay_diag_total(r) == 0, "%s under %s: %llu diagnostics", traces[t],
					s->name, (unsigned long long)vs_replay_diag_total(r));
			} else {
				/* another manager may run out of room: only the frees of
				 * what it could not load are then out of place */
				ck_assert_uint_eq(vs_replay_diag_total(r), vs_replay_diag_count(r, VS_DIAG_FREE_FAILED));
				ck_assert(vs_replay_diag_total(r) == 0 || m->failures > 0);
			}
			vs_replay_free(r);
		}
	}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("gba_bg");
	TCase *tc = tcase_create("scroll");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, shared_scroll_ref_by_ref, 0, 3);
	tcase_add_loop_test(tc, split_scroll_ref_by_ref, 0, 2);
	suite_add_tcase(s, tc);
	tc = tcase_create("cases");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, shared_scheme_rules);
	tcase_add_test(tc, split_cannot_lend);
	tcase_add_test(tc, rom_tile_set_at_run_time);
	tcase_add_loop_test(tc, adapter_semantics, 0, 2);
	tcase_add_test(tc, split_option);
	tcase_add_loop_test(tc, adapter_random, 0, 2);
	tcase_add_loop_test(tc, replay_tile0_takes_nothing, 0, 2);
	tcase_add_test(tc, replay_bundled_side_scrollers);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vs_test_main(suite());
}
