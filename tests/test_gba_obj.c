/* SPDX-License-Identifier: Zlib */
/* test_gba_obj.c - the GBA OBJ strategies against a reference model.
 *
 * Every OBJ strategy runs long random sequences of sprite and byte
 * requests. A tile-ownership model written here checks each step: no
 * overlap, the hardware rules (vs_hw_check), free space as the strategy
 * reports it equal to the model's to the byte, and failures only where the
 * strategy's own placement rule leaves no room. Hand-made cases follow
 * the "Gameboy Advance Resource Management" article and peer engines
 * (gba-modern; Butano's own manager is test_butano.c's). */
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "vramsim/alloc/gba_obj_best_fit.h"
#include "vramsim/alloc/gba_obj_ends.h"
#include "vramsim/alloc/gba_obj_snug.h"
#include "vram/hw.h"
#include "vramsim/strategy.h"
#include "strategies/registry.h"
#include "vram/request.h"
#include "vram/arena.h"

#define TILES 1024u
#define MAXLIVE 512

/* check's ck_assert reports every passing check to the parent (a message
 * written and read back); in the random runs' loops over tiles that was
 * nearly all of this suite's time, so hot checks test first. */

/* How a strategy may fail, to tell a legal refusal from a bug. */
enum fit { FIT_ANY_RUN, FIT_SIZE_MULTIPLE, FIT_POW2_ALIGNED };

typedef struct obj_case {
	const char *name;
	enum fit fit;
} obj_case;

static const obj_case cases[] = {
	{ "gba-obj-map", FIT_SIZE_MULTIPLE },
	{ "gba-obj-first-fit", FIT_ANY_RUN },
	{ "gba-obj-best-fit-end", FIT_ANY_RUN },
	{ "gba-obj-buddy", FIT_POW2_ALIGNED },
	{ "gba-obj-snug", FIT_ANY_RUN },
	{ "gba-obj-ends", FIT_ANY_RUN },
};
#define NCASES (sizeof cases / sizeof cases[0])

typedef struct live {
	uint64_t id;
	vs_request rq;
	vs_placement pl;
} live;

typedef struct model {
	const vs_strategy *s;
	void *st;
	vs_arena_decl decl;
	unsigned first;
	int owner[TILES]; /* index into lives + 1, 0 free, -1 reserved */
	live lives[MAXLIVE];
	int nlive;
	unsigned long fails, allocs;
	uint8_t walked[TILES];
} model;

static void model_init(model *m, const char *name, unsigned mode, const char *options)
{
	char err[200];
	unsigned t;

	memset(m, 0, sizeof *m);
	m->s = vs_strategy_find(name);
	ck_assert_msg(m->s != NULL, "strategy %s not registered", name);
	vs_arena_decl_default(&m->decl, VS_ARENA_GBA_OBJ);
	m->decl.gba_mode = (uint8_t)mode;
	m->first = mode >= 3 ? 512u : 0u;
	m->st = calloc(1, m->s->state_size);
	ck_assert_msg(m->s->init(m->st, &m->decl, options, NULL, err, sizeof err) == 0, "%s: %s", name, err);
	for (t = 0; t < m->first; t++)
		m->owner[t] = -1;
}

static void model_fini(model *m)
{
	if (m->s->fini)
		m->s->fini(m->st);
	free(m->st);
}

static int walk_cb(void *ud, uint32_t off, uint32_t size)
{
	model *m = ud;
	uint32_t t;

	HOT_CMP(off % 32u, ==, 0);
	HOT_CMP(size % 32u, ==, 0);
	HOT_CMP(size, >, 0);
	HOT_CMP(off + size, <=, TILES * 32u);
	for (t = off / 32u; t < (off + size) / 32u; t++) {
		HOT_ASSERT(!m->walked[t], "tile %u reported free twice", t);
		m->walked[t] = 1;
	}
	return 0;
}

/* Free space the strategy reports equals the model's, tile for tile. */
static void check_free_space(model *m)
{
	unsigned t;

	memset(m->walked, 0, sizeof m->walked);
	m->s->walk_free(m->st, walk_cb, m);
	for (t = 0; t < TILES; t++)
		HOT_ASSERT(m->walked[t] == (m->owner[t] == 0),
			"%s: tile %u: strategy says %s, model says %s", m->s->name, t,
			m->walked[t] ? "free" : "taken", m->owner[t] == 0 ? "free" : "taken");
}

static int run_free(const model *m, unsigned s, unsigned n)
{
	unsigned t;

	if (s < m->first || s + n > TILES)
		return 0;
	for (t = s; t < s + n; t++)
		if (m->owner[t])
			return 0;
	return 1;
}

/* Whether the model has a place the strategy's rule would accept. */
static int room_for(const model *m, enum fit fit, unsigned n, unsigned align)
{
	unsigned step, s, k = 1;

	switch (fit) {
	case FIT_ANY_RUN:
		step = align;
		break;
	case FIT_SIZE_MULTIPLE:
		step = n;
		break;
	default:
		while (k < n || k < align)
			k <<= 1;
		step = n = k;
		break;
	}
	for (s = 0; s + n <= TILES; s += step)
		if (run_free(m, s, n))
			return 1;
	return 0;
}

static void random_request(vs_rng *r, vs_request *rq)
{
	memset(rq, 0, sizeof *rq);
	if (vs_rng_below(r, 8) == 0) {
		/* Plain bytes, not always a whole tile or a power of two. */
		rq->shape = VS_REQ_BYTES;
		rq->size = 1 + vs_rng_below(r, 1500);
		if (vs_rng_below(r, 4) == 0)
			rq->align = 64u << vs_rng_below(r, 3);
		return;
	}
	rq->shape = VS_REQ_SPRITE;
	/* Mostly small sprites, as games have: size field skewed low. */
	rq->u.sprite.shape = (uint8_t)vs_rng_below(r, 3);
	rq->u.sprite.size = (uint8_t)(vs_rng_below(r, 4) * vs_rng_below(r, 4) / 3);
	rq->u.sprite.bpp = vs_rng_below(r, 4) == 0 ? 8 : 4;
	rq->size = vs_request_sprite_bytes(rq->u.sprite.shape, rq->u.sprite.size, rq->u.sprite.bpp);
}

static void do_alloc(model *m, const obj_case *c, const vs_request *rq, uint64_t id)
{
	vs_placement pl;
	char why[200];
	unsigned n = (rq->size + 31u) / 32u, align = rq->align > 32 ? rq->align / 32u : 1u, t;
	int rc;

	if (c->fit == FIT_SIZE_MULTIPLE && rq->shape != VS_REQ_SPRITE)
		align = 1; /* the allocation map knows sizes, not alignments */
	if (rq->shape == VS_REQ_SPRITE && rq->u.sprite.bpp == 8 && align < 2)
		align = 2;
	memset(&pl, 0xAB, sizeof pl);
	rc = m->s->alloc(m->st, rq, &pl);
	m->allocs++;
	if (c->fit == FIT_SIZE_MULTIPLE && rq->align > 32u * (n & (0u - n))) {
		/* an alignment past the run's own length: the map cannot give it */
		HOT_CMP(rc, ==, VS_ERR_UNSUPPORTED);
		m->fails++;
		return;
	}
	if (rc != VS_OK) {
		m->fails++;
		if (rc == VS_ERR_MANAGEMENT) {
			ck_assert_str_eq(m->s->name, "gba-obj-best-fit-end");
			return;
		}
		HOT_CMP(rc, ==, VS_ERR_NOSPACE);
		HOT_ASSERT(!room_for(m, c->fit, n, align),
			"%s refused %u tiles (align %u) with room left", m->s->name, n, align);
		return;
	}
	HOT_CMP(m->nlive, <, MAXLIVE);
	HOT_CMP(pl.shared, ==, 0);
	HOT_CMP(pl.granted, >=, rq->size);
	HOT_CMP(pl.offset % 32u, ==, 0);
	HOT_CMP(pl.granted % 32u, ==, 0);
	HOT_CMP(pl.block_offset, ==, pl.offset);
	HOT_CMP(pl.block_size, ==, pl.granted);
	HOT_CMP(pl.offset / 32u, >=, m->first);
	HOT_CMP(pl.offset + pl.granted, <=, TILES * 32u);
	HOT_CMP((pl.offset / 32u) % align, ==, 0);
	HOT_ASSERT(vs_hw_check(&m->decl, rq, pl.offset, rq->size, why, sizeof why) == 0,
		"%s broke a rule: %s", m->s->name, why);
	for (t = pl.offset / 32u; t < (pl.offset + pl.granted) / 32u; t++)
		HOT_ASSERT(m->owner[t] == 0, "%s placed over tile %u (owner %d)", m->s->name, t, m->owner[t]);
	m->lives[m->nlive].id = id;
	m->lives[m->nlive].rq = *rq;
	m->lives[m->nlive].pl = pl;
	m->nlive++;
	for (t = pl.offset / 32u; t < (pl.offset + pl.granted) / 32u; t++)
		m->owner[t] = m->nlive;
}

static void do_free(model *m, int i)
{
	live *l = &m->lives[i];
	unsigned t;
	int last = m->nlive - 1;

	HOT_CMP(m->s->free(m->st, &l->pl), ==, VS_OK);
	for (t = l->pl.offset / 32u; t < (l->pl.offset + l->pl.granted) / 32u; t++)
		m->owner[t] = 0;
	/* Freeing it again must be refused. */
	HOT_CMP(m->s->free(m->st, &l->pl), ==, VS_ERR_INVALID);
	if (i != last) {
		m->lives[i] = m->lives[last];
		for (t = m->lives[i].pl.offset / 32u; t < (m->lives[i].pl.offset + m->lives[i].pl.granted) / 32u; t++)
			m->owner[t] = i + 1;
	}
	m->nlive--;
}

static void random_run(const obj_case *c, unsigned mode, uint64_t seed, unsigned steps)
{
	model m;
	vs_rng r = { seed };
	vs_request rq;
	unsigned i, target = 0;

	model_init(&m, c->name, mode, "");
	for (i = 0; i < steps; i++) {
		/* Drift the fill target so runs see empty, busy and full phases. */
		if (i % 500 == 0)
			target = 20 + vs_rng_below(&r, 200);
		if (m.nlive > 0 && (m.nlive >= (int)target || vs_rng_below(&r, 3) == 0))
			do_free(&m, (int)vs_rng_below(&r, (uint32_t)m.nlive));
		else if (m.nlive < MAXLIVE) {
			random_request(&r, &rq);
			do_alloc(&m, c, &rq, i);
		}
		if (i % 23 == 0)
			check_free_space(&m);
	}
	while (m.nlive > 0)
		do_free(&m, m.nlive - 1);
	check_free_space(&m);
	/* Reset gives back an empty arena. */
	m.s->reset(m.st);
	check_free_space(&m);
	model_fini(&m);
}

START_TEST(random_sequences_mode0)
{
	random_run(&cases[_i], 0, 0x5EED0000u + (uint64_t)_i, vs_test_soak(20000, 400000));
}
END_TEST

START_TEST(random_sequences_bitmap_mode)
{
	random_run(&cases[_i], 3 + (unsigned)(_i % 3), 0xB17A0000u + (uint64_t)_i, vs_test_soak(8000, 160000));
}
END_TEST

static vs_request sprite(unsigned w, unsigned h, unsigned bpp)
{
	unsigned shape = 0, size = 0;

	ck_assert_int_eq(vs_request_sprite_from_dims(w, h, &shape, &size), 0);
	return vs_test_sprite_rq(shape, size, bpp);
}

static vs_request bytes(uint32_t n)
{
	vs_request rq;

	memset(&rq, 0, sizeof rq);
	rq.size = n;
	return rq;
}

/* Seed 000: "if we allocate a single 32-byte region and then a 64 byte
 * region, when we free the original 32 byte region we open a space big
 * enough to allocate another 64 byte region." */
START_TEST(seed_map_example)
{
	model m;
	vs_request a = bytes(32), b = bytes(64);
	vs_placement p1, p2, p3;

	model_init(&m, "gba-obj-map", 0, "");
	ck_assert_int_eq(m.s->alloc(m.st, &a, &p1), VS_OK);
	ck_assert_int_eq(m.s->alloc(m.st, &b, &p2), VS_OK);
	ck_assert_uint_eq(p1.offset, 0);
	ck_assert_uint_eq(p2.offset, 64); /* at a multiple of its own size */
	ck_assert_int_eq(m.s->free(m.st, &p1), VS_OK);
	ck_assert_int_eq(m.s->alloc(m.st, &b, &p3), VS_OK);
	ck_assert_uint_eq(p3.offset, 0);
	model_fini(&m);

	/* First fit packs the same two tightly, so the freed 32 bytes are a
	 * hole no 64-byte block fits in: the contrast the seed draws. */
	model_init(&m, "gba-obj-first-fit", 0, "");
	ck_assert_int_eq(m.s->alloc(m.st, &a, &p1), VS_OK);
	ck_assert_int_eq(m.s->alloc(m.st, &b, &p2), VS_OK);
	ck_assert_uint_eq(p2.offset, 32);
	ck_assert_int_eq(m.s->free(m.st, &p1), VS_OK);
	ck_assert_int_eq(m.s->alloc(m.st, &b, &p3), VS_OK);
	ck_assert_uint_eq(p3.offset, 96);
	model_fini(&m);
}
END_TEST

START_TEST(first_fit_8bpp_even)
{
	model m;
	vs_request a = bytes(32), s8 = sprite(8, 8, 8);
	vs_placement p1, p2;

	model_init(&m, "gba-obj-first-fit", 0, "");
	ck_assert_int_eq(m.s->alloc(m.st, &a, &p1), VS_OK);
	ck_assert_int_eq(m.s->alloc(m.st, &s8, &p2), VS_OK);
	ck_assert_uint_eq(p1.offset, 0);
	ck_assert_uint_eq(p2.offset, 64); /* tile 1 is odd: skipped */
	model_fini(&m);
}
END_TEST

/* gba-obj-best-fit-end: best fit, carved from the end of the chosen range
 * (the split of Butano 21, without Butano's other rules: test_butano.c). */
START_TEST(best_fit_carves_from_end)
{
	model m;
	vs_request s16 = sprite(16, 16, 4), s8 = sprite(8, 8, 4), s32 = sprite(32, 32, 4);
	vs_placement a, b, c, d, e;

	model_init(&m, "gba-obj-best-fit-end", 0, "");
	ck_assert_int_eq(m.s->alloc(m.st, &s16, &a), VS_OK);
	ck_assert_uint_eq(a.offset, (1024u - 4u) * 32u);
	ck_assert_int_eq(m.s->alloc(m.st, &s32, &b), VS_OK);
	ck_assert_uint_eq(b.offset, (1024u - 4u - 16u) * 32u);
	ck_assert_int_eq(m.s->alloc(m.st, &s8, &c), VS_OK);
	ck_assert_uint_eq(c.offset, (1024u - 21u) * 32u);
	/* Free the 16x16: a 4-tile hole between used ranges. A 1-tile
	 * request takes the smallest range that fits: the hole, at its end. */
	ck_assert_int_eq(m.s->free(m.st, &a), VS_OK);
	ck_assert_int_eq(m.s->alloc(m.st, &s8, &d), VS_OK);
	ck_assert_uint_eq(d.offset, 1023u * 32u);
	ck_assert_int_eq(m.s->alloc(m.st, &s16, &e), VS_OK);
	ck_assert_uint_lt(e.offset, c.offset); /* 3 tiles left in the hole: too small */
	model_fini(&m);
}
END_TEST

START_TEST(best_fit_management_failure)
{
	gba_obj_bf a;
	int it[1024], i, rc = 0;
	uint16_t t;

	gba_obj_bf_init(&a, 0);
	/* 1-tile allocations fill memory with used items... */
	for (i = 0; i < 127; i++) {
		it[i] = gba_obj_bf_alloc(&a, 1, 1, &t);
		ck_assert_int_ge(it[i], 0);
	}
	/* ...128 items: 127 used + the remaining free range. */
	ck_assert_uint_eq(a.nitems, 128);
	rc = gba_obj_bf_alloc(&a, 1, 1, &t);
	ck_assert_int_eq(rc, GBA_OBJ_BF_NO_ITEMS);
	/* An exact fit needs no new item: free one 1-tile range in the
	 * middle (it cannot merge) and ask for 1 tile again. */
	ck_assert_int_eq(gba_obj_bf_free(&a, it[60]), 1);
	rc = gba_obj_bf_alloc(&a, 1, 1, &t);
	ck_assert_int_ge(rc, 0);
}
END_TEST

START_TEST(buddy_splits_and_merges)
{
	model m;
	vs_request one = bytes(32), two = bytes(64), three = bytes(96);
	vs_placement a, b, c;

	model_init(&m, "gba-obj-buddy", 0, "");
	ck_assert_int_eq(m.s->alloc(m.st, &one, &a), VS_OK);
	ck_assert_int_eq(m.s->alloc(m.st, &two, &b), VS_OK);
	ck_assert_int_eq(m.s->alloc(m.st, &three, &c), VS_OK);
	ck_assert_uint_eq(a.offset, 0);
	ck_assert_uint_eq(b.offset, 64);
	ck_assert_uint_eq(c.offset, 128);
	ck_assert_uint_eq(c.granted, 128); /* 3 tiles round up to 4 */
	ck_assert_int_eq(m.s->free(m.st, &a), VS_OK);
	ck_assert_int_eq(m.s->free(m.st, &c), VS_OK);
	ck_assert_int_eq(m.s->free(m.st, &b), VS_OK);
	/* Everything joined back: one free extent of 32 KiB. */
	memset(m.walked, 0, sizeof m.walked);
	check_free_space(&m);
	ck_assert_int_eq(m.s->alloc(m.st, &(vs_request){ .size = 32768 }, &a), VS_OK);
	model_fini(&m);
}
END_TEST

START_TEST(bitmap_mode_keeps_low_half)
{
	model m;
	vs_request big = bytes(16384), more = bytes(32);
	vs_placement a, b;
	unsigned i;

	for (i = 0; i < NCASES; i++) {
		model_init(&m, cases[i].name, 4, "");
		ck_assert_int_eq(m.s->alloc(m.st, &big, &a), VS_OK);
		ck_assert_uint_eq(a.offset, 0x4000);
		ck_assert_int_eq(m.s->alloc(m.st, &more, &b), VS_ERR_NOSPACE);
		model_fini(&m);
	}
}
END_TEST

/* Snug fit: a hole that fits snugly (at most twice the request) wins;
 * otherwise address-ordered first fit. */
START_TEST(snug_placement)
{
	model m;
	vs_request s8 = sprite(8, 8, 4), s16 = sprite(16, 16, 4), s32 = sprite(32, 32, 4), s8x8 = sprite(8, 8, 8);
	vs_placement a, b, c, d, e, f;

	model_init(&m, "gba-obj-snug", 0, "");
	ck_assert_int_eq(m.s->alloc(m.st, &s32, &a), VS_OK);  /* tiles 0-15 */
	ck_assert_int_eq(m.s->alloc(m.st, &s16, &b), VS_OK);  /* 16-19 */
	ck_assert_int_eq(m.s->alloc(m.st, &s32, &c), VS_OK);  /* 20-35 */
	ck_assert_int_eq(m.s->alloc(m.st, &s16, &d), VS_OK);  /* 36-39 */
	ck_assert_uint_eq(d.offset, 36u * 32u);
	ck_assert_int_eq(m.s->free(m.st, &a), VS_OK);         /* hole 0-15 */
	ck_assert_int_eq(m.s->free(m.st, &b), VS_OK);         /* hole 0-19 */
	ck_assert_int_eq(m.s->free(m.st, &d), VS_OK);         /* run 36-1023 */
	ck_assert_int_eq(m.s->alloc(m.st, &s16, &e), VS_OK);
	/* Runs 0-19 and 36-1023: neither is snug for 4 tiles (at most 8), so
	 * address-ordered first fit: tile 0. */
	ck_assert_uint_eq(e.offset, 0);
	ck_assert_int_eq(m.s->alloc(m.st, &s32, &f), VS_OK);
	/* Hole 4-19 holds 16 tiles exactly: snug. */
	ck_assert_uint_eq(f.offset, 4u * 32u);
	ck_assert_int_eq(m.s->free(m.st, &f), VS_OK);
	/* Runs 4-19 and 36-1023: an 8x8 8bpp (2 tiles, even start) is snug
	 * nowhere and takes the first even start. */
	ck_assert_int_eq(m.s->alloc(m.st, &s8x8, &f), VS_OK);
	ck_assert_uint_eq(f.offset, 4u * 32u);
	ck_assert_int_eq(m.s->free(m.st, &f), VS_OK);
	ck_assert_int_eq(m.s->alloc(m.st, &s8, &f), VS_OK);
	ck_assert_uint_eq(f.offset, 4u * 32u);
	model_fini(&m);
}
END_TEST

/* The run search works a word at a time and still finds a run that is not
 * aligned to anything, and refuses frees that are not allocations. */
START_TEST(snug_runs)
{
	gba_obj_snug a;
	uint16_t t[1024], x;
	unsigned i;

	gba_obj_snug_init(&a, 0);
	for (i = 0; i < 1024; i++) {
		t[i] = gba_obj_snug_alloc(&a, 1, 1);
		ck_assert_uint_eq(t[i], i);
	}
	ck_assert_uint_eq(gba_obj_snug_alloc(&a, 1, 1), GBA_OBJ_SNUG_NONE);
	/* Free 29-34 (across a word boundary) and 100-101. */
	for (i = 29; i <= 34; i++)
		ck_assert_int_eq(gba_obj_snug_free(&a, (uint16_t)i, 1), 0);
	ck_assert_int_eq(gba_obj_snug_free(&a, 100, 1), 0);
	ck_assert_int_eq(gba_obj_snug_free(&a, 101, 1), 0);
	/* 2 tiles: 29-34 is 6 > 4, 100-101 is snug. */
	x = gba_obj_snug_alloc(&a, 2, 1);
	ck_assert_uint_eq(x, 100);
	/* 5 tiles at even starts: 30-34. */
	x = gba_obj_snug_alloc(&a, 5, 2);
	ck_assert_uint_eq(x, 30);
	ck_assert_int_eq(gba_obj_snug_free(&a, 31, 1), -1);   /* inside an allocation */
	ck_assert_int_eq(gba_obj_snug_free(&a, 29, 1), -1);   /* free already */
	ck_assert_int_eq(gba_obj_snug_free(&a, 30, 5), 0);
	ck_assert_uint_eq(gba_obj_snug_alloc(&a, 7, 1), GBA_OBJ_SNUG_NONE);
}
END_TEST

/* Two-ended best fit: the smallest run that holds the request; small
 * requests (1-4 tiles) at its high end, the highest run on ties; larger
 * ones at its low end, the lowest run on ties. */
START_TEST(ends_placement)
{
	gba_obj_ends a;
	uint16_t t;

	gba_obj_ends_init(&a, 0);
	/* Small requests go to the top end, large ones to the bottom. */
	ck_assert_uint_eq(gba_obj_ends_alloc(&a, 1, 1), 1023);
	ck_assert_uint_eq(gba_obj_ends_alloc(&a, 4, 1), 1019);
	ck_assert_uint_eq(gba_obj_ends_alloc(&a, 2, 2), 1016); /* 8bpp: even start, 1018 stays free */
	ck_assert_uint_eq(gba_obj_ends_alloc(&a, 16, 1), 0);
	ck_assert_uint_eq(gba_obj_ends_alloc(&a, 8, 1), 16);
	ck_assert_uint_eq(gba_obj_ends_alloc(&a, 32, 2), 24);
	/* Runs now: 0-15 (16 tiles), 56-1015, 1018-1022 (5 tiles). */
	ck_assert_int_eq(gba_obj_ends_free(&a, 0, 16), 0);
	ck_assert_int_eq(gba_obj_ends_free(&a, 1019, 4), 0);
	/* A 2-tile request: the 5-tile run is the best fit; its high end. */
	ck_assert_uint_eq(gba_obj_ends_alloc(&a, 2, 1), 1021);
	/* 4 tiles: 1018-1020 is too small; 0-15 is the best fit, and a small
	 * request takes its high end. */
	ck_assert_uint_eq(gba_obj_ends_alloc(&a, 4, 1), 12);
	/* 8 tiles: 0-11 (12) is best; large requests take the low end. */
	ck_assert_uint_eq(gba_obj_ends_alloc(&a, 8, 1), 0);
	/* 4 tiles again: 8-11 fits exactly. */
	ck_assert_uint_eq(gba_obj_ends_alloc(&a, 4, 1), 8);
	/* Equal runs: a small request takes the highest, a large one the
	 * lowest. */
	gba_obj_ends_init(&a, 0);
	for (t = 0; t < 1024; t += 16)
		ck_assert_uint_eq(gba_obj_ends_alloc(&a, 16, 1), t);
	ck_assert_int_eq(gba_obj_ends_free(&a, 160, 16), 0);
	ck_assert_int_eq(gba_obj_ends_free(&a, 480, 16), 0);
	ck_assert_int_eq(gba_obj_ends_free(&a, 800, 16), 0);
	ck_assert_uint_eq(gba_obj_ends_alloc(&a, 1, 1), 815);
	/* 8 tiles: the 15-tile run 800-814 is the best fit. */
	ck_assert_uint_eq(gba_obj_ends_alloc(&a, 8, 1), 800);
	ck_assert_uint_eq(gba_obj_ends_alloc(&a, 16, 1), 160);
	ck_assert_uint_eq(gba_obj_ends_alloc(&a, 16, 1), 480);
	/* 7 tiles (808-814) are left: no room for 16. */
	ck_assert_uint_eq(gba_obj_ends_alloc(&a, 16, 1), GBA_OBJ_ENDS_NONE);
	ck_assert_uint_eq(gba_obj_ends_alloc(&a, 7, 1), 808);
}
END_TEST

/* Placement equals the rule restated tile by tile, over long random
 * sequences in both the full area and the bitmap-mode half; bad frees
 * are refused and change nothing. */
START_TEST(ends_matches_rule)
{
	static gba_obj_ends a;
	static uint8_t used[1024];
	static uint16_t at[600], len[600];
	vs_rng r = { 0xE4D5u + (uint64_t)_i };
	unsigned first = _i ? 512u : 0u, nlive = 0, step, t, steps = vs_test_soak(40000, 800000);

	gba_obj_ends_init(&a, (uint16_t)first);
	memset(used, 0, sizeof used);
	for (step = 0; step < steps; step++) {
		if (nlive && (nlive >= 600 || vs_rng_below(&r, 100) < 45)) {
			unsigned k = vs_rng_below(&r, nlive);
			if (len[k] > 1) /* a free that does not start an allocation */
				HOT_CMP(gba_obj_ends_free(&a, (uint16_t)(at[k] + 1), 1), ==, -1);
			HOT_CMP(gba_obj_ends_free(&a, at[k], len[k]), ==, 0);
			for (t = at[k]; t < at[k] + len[k]; t++)
				used[t] = 0;
			HOT_CMP(gba_obj_ends_free(&a, at[k], len[k]), ==, -1); /* twice */
			at[k] = at[nlive - 1];
			len[k] = len[--nlive];
		} else {
			unsigned n = 1u << vs_rng_below(&r, 8), al = vs_rng_below(&r, 4) == 0 ? 2u : 1u;
			unsigned s, e, best = 0xFFFFu, best_len = 2000, lo, hi;
			uint16_t got;
			if (vs_rng_below(&r, 6) == 0)
				n = 1 + vs_rng_below(&r, 40); /* plain byte requests: any count */
			/* The rule, tile by tile. */
			for (s = first; s < 1024; s = e) {
				while (s < 1024 && used[s])
					s++;
				for (e = s; e < 1024 && !used[e]; e++)
					;
				if (s >= 1024)
					break;
				lo = (s + al - 1) / al * al;
				if (lo + n > e)
					continue;
				hi = (e - n) / al * al;
				if (n <= GBA_OBJ_ENDS_SMALL ? e - s <= best_len : e - s < best_len) {
					best_len = e - s;
					best = n <= GBA_OBJ_ENDS_SMALL ? hi : lo;
				}
			}
			got = gba_obj_ends_alloc(&a, (uint16_t)n, (uint16_t)al);
			HOT_CMP(got, ==, best);
			if (got == GBA_OBJ_ENDS_NONE)
				continue;
			for (t = got; t < got + n; t++) {
				HOT_ASSERT(!used[t], "tile %u placed twice", t);
				used[t] = 1;
			}
			at[nlive] = got;
			len[nlive++] = (uint16_t)n;
		}
		if (step % 97 == 0)
			for (t = 0; t < 1024; t++)
				HOT_CMP(gba_obj_ends_is_free(&a, (uint16_t)t), ==, t >= first && !used[t]);
	}
}
END_TEST

START_TEST(bad_requests)
{
	model m;
	vs_request zero = bytes(0), huge = bytes(32769);
	vs_placement p;
	unsigned i;

	for (i = 0; i < NCASES; i++) {
		model_init(&m, cases[i].name, 0, "");
		ck_assert_int_ne(m.s->alloc(m.st, &zero, &p), VS_OK);
		ck_assert_int_eq(m.s->alloc(m.st, &huge, &p), VS_ERR_NOSPACE);
		model_fini(&m);
	}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("gba_obj");
	TCase *tc = tcase_create("random");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, random_sequences_mode0, 0, NCASES);
	tcase_add_loop_test(tc, random_sequences_bitmap_mode, 0, NCASES);
	suite_add_tcase(s, tc);
	tc = tcase_create("cases");
	tcase_add_test(tc, seed_map_example);
	tcase_add_test(tc, first_fit_8bpp_even);
	tcase_add_test(tc, best_fit_carves_from_end);
	tcase_add_test(tc, best_fit_management_failure);
	tcase_add_test(tc, buddy_splits_and_merges);
	tcase_add_test(tc, bitmap_mode_keeps_low_half);
	tcase_add_test(tc, snug_placement);
	tcase_add_test(tc, snug_runs);
	tcase_add_test(tc, bad_requests);
	tcase_add_test(tc, ends_placement);
	tcase_add_loop_test(tc, ends_matches_rule, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vs_test_main(suite());
}
