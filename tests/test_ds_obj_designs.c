/* SPDX-License-Identifier: Zlib */
/* test_ds_obj_designs.c - vramsim's own OBJ allocators (gba-obj-ends,
 * -compact, -first-fit, -best-fit, -snug) on the DS's OBJ VRAM (ds-obj):
 * units of the 1D boundary over the span the banks map within OAM's reach,
 * 8bpp sprites on even 32-byte tiles, bitmap sprites on their 1D bitmap
 * boundary, the refusals; long random sequences against a unit model
 * (placements legal by the hardware's own check, no overlap, moves carried
 * out, free space accounted unit for unit, a failure only when no aligned
 * run is free); replays through the engine with no integrity error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "engine/replay.h"
#include "strategies/registry.h"
#include "vram/arena.h"
#include "vram/hw.h"

static const char *const designs[] = {
	"gba-obj-ends", "gba-obj-compact", "gba-obj-first-fit", "gba-obj-best-fit-end", "gba-obj-snug"
};
#define NDESIGNS (sizeof designs / sizeof designs[0])

/* A ds-obj declaration: engine 'a' or 'b', boundary in bytes, bitmap
 * layout, banks as the trace writes them ("A0B1"). */
static vs_arena_decl ds_decl(char engine, unsigned boundary, unsigned bmp, const char *banks)
{
	vs_arena_decl d;

	vs_arena_decl_default(&d, VS_ARENA_DS_OBJ);
	snprintf(d.name, sizeof d.name, "obj");
	vs_arena_decl_engine(&d, engine == 'b' ? VS_DS_ENGINE_B : VS_DS_ENGINE_A);
	memset(d.ds_bank_slot, VS_BANK_UNMAPPED, sizeof d.ds_bank_slot);
	for (; banks[0] && banks[1]; banks += 2)
		d.ds_bank_slot[banks[0] - 'A'] = (uint8_t)(banks[1] - '0');
	d.ds_obj_boundary = (uint8_t)(boundary / 32u);
	d.ds_obj_bmp = (uint8_t)bmp;
	return d;
}

/* A strategy set up on d: returns its state (free it), or NULL with err. */
static void *open_on(const char *name, const vs_arena_decl *d, const char *options, char *err, size_t errlen)
{
	const vs_strategy *s = vs_strategy_find(name);
	void *st;

	ck_assert_msg(s != NULL, "%s not registered", name);
	ck_assert_msg(vs_strategy_manages(s, VS_ARENA_DS_OBJ), "%s does not manage ds-obj", name);
	st = calloc(1, s->state_size);
	ck_assert_ptr_nonnull(st);
	err[0] = '\0';
	if (s->init(st, d, options, NULL, err, errlen)) {
		free(st);
		return NULL;
	}
	return st;
}

static void *must_open(const char *name, const vs_arena_decl *d)
{
	char err[512];
	void *st = open_on(name, d, "", err, sizeof err);

	ck_assert_msg(st != NULL, "%s: %s", name, err);
	return st;
}

/* Places rq; returns the status, the placement in *pl. */
static int place(const char *name, void *st, vs_request rq, vs_placement *pl)
{
	memset(pl, 0, sizeof *pl);
	return vs_strategy_find(name)->alloc(st, &rq, pl);
}

/* Offset of a placement that must succeed. */
static uint32_t at(const char *name, void *st, unsigned shape, unsigned size, unsigned bpp)
{
	vs_placement pl;
	int rc = place(name, st, vs_test_sprite_rq(shape, size, bpp), &pl);

	ck_assert_msg(rc == VS_OK, "%s: sprite %u/%u %ubpp: status %d", name, shape, size, bpp, rc);
	return pl.offset;
}

/* ---- placements by hand ---------------------------------------------------- */

/* Each boundary on engine A with all 256 KiB mapped: units of the boundary,
 * 1024 of them; an 8x8 sprite takes a whole unit. */
START_TEST(each_boundary)
{
	unsigned b;

	for (b = 32; b <= 256; b *= 2) {
		vs_arena_decl d = ds_decl('a', b, VS_DS_BMP_1D_128, "A0B1");
		void *st;
		vs_placement pl;

		st = must_open("gba-obj-ends", &d);
		ck_assert_uint_eq(at("gba-obj-ends", st, 0, 0, 4), 1023u * b); /* small: from the top */
		ck_assert_uint_eq(at("gba-obj-ends", st, 0, 3, 4), 0);          /* large: from the bottom */
		ck_assert_uint_eq(at("gba-obj-ends", st, 0, 0, 4), 1022u * b);
		free(st);

		st = must_open("gba-obj-first-fit", &d);
		ck_assert_int_eq(place("gba-obj-first-fit", st, vs_test_sprite_rq(0, 0, 4), &pl), VS_OK);
		ck_assert_uint_eq(pl.offset, 0);
		ck_assert_uint_eq(pl.granted, b); /* 32 bytes take a unit */
		ck_assert_uint_eq(at("gba-obj-first-fit", st, 0, 0, 4), b);
		ck_assert_uint_eq(at("gba-obj-first-fit", st, 0, 3, 4), 2u * b);
		free(st);

		st = must_open("gba-obj-compact", &d);
		ck_assert_uint_eq(at("gba-obj-compact", st, 0, 0, 4), 0);
		ck_assert_uint_eq(at("gba-obj-compact", st, 0, 1, 4), b);
		free(st);

		st = must_open("gba-obj-best-fit-end", &d);
		ck_assert_uint_eq(at("gba-obj-best-fit-end", st, 0, 0, 4), 1023u * b); /* carved from the end */
		free(st);

		st = must_open("gba-obj-snug", &d);
		ck_assert_uint_eq(at("gba-obj-snug", st, 0, 0, 4), 0);
		free(st);
	}
}
END_TEST

/* Engine B: 128 KiB, so a 256-byte boundary reaches past its end (512
 * units); bank I alone maps 16 KiB. */
START_TEST(engine_b)
{
	vs_arena_decl d = ds_decl('b', 256, VS_DS_BMP_1D_128, "D0");
	void *st = must_open("gba-obj-ends", &d);
	unsigned i;

	ck_assert_uint_eq(at("gba-obj-ends", st, 0, 0, 4), 511u * 256u);
	free(st);
	d = ds_decl('b', 32, VS_DS_BMP_1D_128, "I0");
	st = must_open("gba-obj-ends", &d);
	ck_assert_uint_eq(at("gba-obj-ends", st, 0, 0, 4), 0x4000u - 32u);
	free(st);
	/* I at 128-byte units: 128 of them */
	d = ds_decl('b', 128, VS_DS_BMP_1D_128, "I0");
	st = must_open("gba-obj-first-fit", &d);
	for (i = 0; i < 128; i++)
		ck_assert_uint_eq(at("gba-obj-first-fit", st, 0, 1, 4), i * 128u);
	ck_assert_int_eq(place("gba-obj-first-fit", st, vs_test_sprite_rq(0, 0, 4), &(vs_placement){ 0 }),
		VS_ERR_NOSPACE);
	free(st);
}
END_TEST

/* Only part of the reach mapped: bank E alone (64 KiB at 0), bank F alone
 * at OFS 1 (16 KiB from 0x4000: the span starts above 0). */
START_TEST(partial_mapping)
{
	vs_arena_decl d = ds_decl('a', 128, VS_DS_BMP_1D_128, "E0");
	vs_placement pl;
	void *st = must_open("gba-obj-ends", &d);
	unsigned i, k;

	ck_assert_uint_eq(at("gba-obj-ends", st, 0, 0, 4), 0x10000u - 128u);
	free(st);
	/* the compact allocator's 256 slots: 64x64 4bpp (16 units) fill E in 32 */
	st = must_open("gba-obj-compact", &d);
	for (i = 0; i < 32; i++)
		ck_assert_uint_eq(at("gba-obj-compact", st, 0, 3, 4), i * 2048u);
	ck_assert_int_eq(place("gba-obj-compact", st, vs_test_sprite_rq(0, 0, 4), &pl), VS_ERR_NOSPACE);
	free(st);

	d = ds_decl('a', 32, VS_DS_BMP_1D_128, "F1");
	for (k = 0; k < NDESIGNS; k++) {
		uint32_t off;
		st = must_open(designs[k], &d);
		off = at(designs[k], st, 0, 0, 4);
		ck_assert_msg(off >= 0x4000u && off < 0x8000u, "%s: 0x%x outside bank F", designs[k], (unsigned)off);
		free(st);
	}
	st = must_open("gba-obj-first-fit", &d);
	ck_assert_uint_eq(at("gba-obj-first-fit", st, 0, 0, 4), 0x4000u);
	free(st);
	st = must_open("gba-obj-ends", &d);
	ck_assert_uint_eq(at("gba-obj-ends", st, 0, 3, 4), 0x4000u);
	ck_assert_uint_eq(at("gba-obj-ends", st, 0, 0, 4), 0x8000u - 32u);
	free(st);
}
END_TEST

/* With 32-byte units an 8bpp sprite starts on an even tile; from 64 bytes
 * on every unit is. */
START_TEST(even_8bpp)
{
	vs_arena_decl d = ds_decl('a', 32, VS_DS_BMP_1D_128, "A0");
	unsigned k;

	for (k = 0; k < NDESIGNS; k++) {
		void *st = must_open(designs[k], &d);
		unsigned i;
		for (i = 0; i < 40; i++) {
			uint32_t off = at(designs[k], st, 0, 0, 4);
			uint32_t off8 = at(designs[k], st, 0, 0, 8);
			ck_assert_msg(off % 32u == 0 && off8 % 64u == 0, "%s: 8bpp at 0x%x", designs[k], (unsigned)off8);
		}
		free(st);
	}
	{
		void *st = must_open("gba-obj-first-fit", &d);
		ck_assert_uint_eq(at("gba-obj-first-fit", st, 0, 0, 4), 0);
		ck_assert_uint_eq(at("gba-obj-first-fit", st, 0, 0, 8), 64);
		ck_assert_uint_eq(at("gba-obj-first-fit", st, 0, 0, 4), 32);
		free(st);
	}
	d = ds_decl('a', 64, VS_DS_BMP_1D_128, "A0");
	{
		void *st = must_open("gba-obj-first-fit", &d);
		ck_assert_uint_eq(at("gba-obj-first-fit", st, 0, 0, 4), 0);
		ck_assert_uint_eq(at("gba-obj-first-fit", st, 0, 0, 8), 64);
		ck_assert_uint_eq(at("gba-obj-first-fit", st, 0, 0, 4), 128);
		free(st);
	}
}
END_TEST

/* Bitmap sprites in 1D bitmap layout: on the 128- or 256-byte bitmap
 * boundary; refused in 2D layout, and where a 256-byte tile boundary takes
 * the span past the 128-byte bitmap boundary's reach. */
START_TEST(bitmap_sprites)
{
	vs_arena_decl d = ds_decl('a', 32, VS_DS_BMP_1D_128, "A0");
	vs_placement pl;
	void *st;
	unsigned k;

	st = must_open("gba-obj-first-fit", &d);
	ck_assert_uint_eq(at("gba-obj-first-fit", st, 0, 0, 4), 0);
	ck_assert_int_eq(place("gba-obj-first-fit", st, vs_test_sprite_rq(0, 0, 16), &pl), VS_OK);
	ck_assert_uint_eq(pl.offset, 128);
	ck_assert_uint_eq(pl.granted, 128);
	free(st);
	d = ds_decl('a', 32, VS_DS_BMP_1D_256, "A0");
	st = must_open("gba-obj-first-fit", &d);
	ck_assert_uint_eq(at("gba-obj-first-fit", st, 0, 0, 4), 0);
	ck_assert_uint_eq(at("gba-obj-first-fit", st, 0, 0, 16), 256);
	free(st);
	/* 256-byte units, 128-byte bitmap boundary: fine while the span ends by 128 KiB */
	d = ds_decl('a', 256, VS_DS_BMP_1D_128, "A0");
	st = must_open("gba-obj-ends", &d);
	ck_assert_uint_eq(at("gba-obj-ends", st, 0, 0, 16), 0x20000u - 256u);
	free(st);
	d = ds_decl('a', 256, VS_DS_BMP_1D_128, "A0B1");
	for (k = 0; k < NDESIGNS; k++) {
		st = must_open(designs[k], &d);
		ck_assert_int_eq(place(designs[k], st, vs_test_sprite_rq(0, 0, 16), &pl), VS_ERR_UNSUPPORTED);
		at(designs[k], st, 0, 0, 4); /* tile sprites still go anywhere */
		free(st);
	}
	d = ds_decl('a', 64, VS_DS_BMP_2D_128, "A0");
	for (k = 0; k < NDESIGNS; k++) {
		st = must_open(designs[k], &d);
		ck_assert_int_eq(place(designs[k], st, vs_test_sprite_rq(0, 2, 16), &pl), VS_ERR_UNSUPPORTED);
		at(designs[k], st, 0, 2, 8);
		free(st);
	}
}
END_TEST

/* Refused at init: banks that leave a hole in the reach (the message names
 * the arena and the mapped ranges), no bank in reach, 2D tile mapping, an
 * unknown option. */
START_TEST(refusals)
{
	char err[512];
	vs_arena_decl d = ds_decl('a', 128, VS_DS_BMP_1D_128, "F0G2");
	unsigned k;

	for (k = 0; k < NDESIGNS; k++) {
		ck_assert_ptr_null(open_on(designs[k], &d, "", err, sizeof err));
		ck_assert_msg(strstr(err, "arena 'obj'") && strstr(err, "0x0-0x4000, 0x10000-0x14000") &&
			strstr(err, designs[k]), "%s: %s", designs[k], err);
	}
	/* G at 0x14000: past a 32-byte boundary's 32 KiB */
	d = ds_decl('a', 32, VS_DS_BMP_1D_128, "G3");
	for (k = 0; k < NDESIGNS; k++) {
		ck_assert_ptr_null(open_on(designs[k], &d, "", err, sizeof err));
		ck_assert_msg(strstr(err, "no bank maps any of it") != NULL, "%s: %s", designs[k], err);
	}
	/* the same hole out of reach is no hole: F0 + G2 with 32-byte units */
	d = ds_decl('a', 32, VS_DS_BMP_1D_128, "F0G2");
	free(must_open("gba-obj-ends", &d));
	d = ds_decl('a', 32, VS_DS_BMP_1D_128, "A0");
	d.gba_obj_2d = 1;
	for (k = 0; k < NDESIGNS; k++) {
		char why[512];
		ck_assert_ptr_null(open_on(designs[k], &d, "", err, sizeof err));
		ck_assert_msg(strstr(err, "2D") != NULL, "%s: %s", designs[k], err);
		ck_assert_int_eq(vs_strategy_refuses(vs_strategy_find(designs[k]), &d, why, sizeof why), 1);
	}
	d.gba_obj_2d = 0;
	for (k = 0; k < NDESIGNS; k++)
		ck_assert_ptr_null(open_on(designs[k], &d, "nonsense=1", err, sizeof err));
}
END_TEST

/* ---- random sequences against a unit model ---------------------------------- */

typedef struct config {
	char engine;
	unsigned boundary, bmp;
	const char *banks;
	uint32_t lo, hi; /* the span in bytes, worked out by hand from GBATEK's table */
	int bmp_ok;
} config;

static const config configs[] = {
	{ 'a', 32, VS_DS_BMP_1D_128, "A0", 0, 0x8000, 1 },         /* reach 32 KiB */
	{ 'a', 64, VS_DS_BMP_1D_128, "A0", 0, 0x10000, 1 },
	{ 'a', 128, VS_DS_BMP_1D_256, "A0", 0, 0x20000, 1 },
	{ 'a', 256, VS_DS_BMP_1D_256, "A0B1", 0, 0x40000, 1 },
	{ 'a', 256, VS_DS_BMP_1D_128, "A1", 0x20000, 0x40000, 0 }, /* past the bitmap reach */
	{ 'a', 128, VS_DS_BMP_1D_128, "E0", 0, 0x10000, 1 },       /* bank E: 64 KiB */
	{ 'a', 64, VS_DS_BMP_2D_128, "F1G3", 0x4000, 0x8000, 0 }, /* F from 0x4000; G at 0x14000 is out of reach */
	{ 'a', 32, VS_DS_BMP_1D_128, "F0G1", 0, 0x8000, 1 },
	{ 'b', 32, VS_DS_BMP_1D_128, "D0", 0, 0x8000, 1 },
	{ 'b', 128, VS_DS_BMP_1D_128, "I0", 0, 0x4000, 1 },        /* bank I: 16 KiB */
	{ 'b', 256, VS_DS_BMP_1D_128, "D0", 0, 0x20000, 1 },       /* 512 units */
};
#define NCONFIGS (sizeof configs / sizeof configs[0])

#define MAXLIVE 600
#define MAXUNITS 8192 /* 256 KiB in 32-byte units */

typedef struct model {
	const vs_strategy *s;
	void *st;
	vs_arena_decl d;
	const config *c;
	unsigned b, lo, hi; /* unit bytes; the span in units */
	int owner[MAXUNITS]; /* live index + 1, 0 free */
	vs_placement pl[MAXLIVE];
	vs_request rq[MAXLIVE];
	int used[MAXLIVE];
	uint8_t walked[MAXUNITS];
} model;

static void mark(model *m, const vs_placement *pl, int who)
{
	uint32_t u;

	for (u = pl->offset / m->b; u < (pl->offset + pl->granted) / m->b; u++) {
		HOT_ASSERT(who == 0 || m->owner[u] == 0 || m->owner[u] == who, "%s: unit %u taken twice", m->s->name,
			(unsigned)u);
		m->owner[u] = who;
	}
}

/* Whether an aligned run of n free units lies in the span. */
static int room(const model *m, unsigned n, unsigned al)
{
	unsigned s, t;

	for (s = (m->lo + al - 1u) / al * al; s + n <= m->hi; s += al) {
		for (t = s; t < s + n && !m->owner[t]; t++)
			;
		if (t == s + n)
			return 1;
	}
	return 0;
}

static int walk_cb(void *ud, uint32_t off, uint32_t size)
{
	model *m = ud;
	uint32_t u;

	HOT_CMP(off % m->b, ==, 0);
	HOT_CMP(size % m->b, ==, 0);
	for (u = off / m->b; u < (off + size) / m->b; u++) {
		HOT_ASSERT(u >= m->lo && u < m->hi, "%s: unit %u reported free outside the span", m->s->name, (unsigned)u);
		HOT_ASSERT(!m->walked[u], "%s: unit %u reported free twice", m->s->name, (unsigned)u);
		m->walked[u] = 1;
	}
	return 0;
}

static void check_free(model *m)
{
	unsigned u;

	memset(m->walked, 0, sizeof m->walked);
	m->s->walk_free(m->st, walk_cb, m);
	for (u = m->lo; u < m->hi; u++)
		HOT_ASSERT(m->walked[u] == (m->owner[u] == 0), "%s: unit %u: strategy says %s, model %s", m->s->name, u,
			m->walked[u] ? "free" : "taken", m->owner[u] ? "taken" : "free");
}

/* Carries out the strategy's moves on the model. */
static void apply_moves(model *m)
{
	vs_move mv[300];
	size_t n, i;
	int k;

	if (!m->s->moves)
		return;
	n = m->s->moves(m->st, mv, 300);
	HOT_CMP(n, <=, 300);
	for (i = 0; i < n; i++) {
		for (k = 0; k < MAXLIVE && !(m->used[k] && m->pl[k].key == mv[i].key); k++)
			;
		HOT_ASSERT(k < MAXLIVE && m->pl[k].offset == mv[i].from, "%s: move of key %u from 0x%x names no sprite",
			m->s->name, (unsigned)mv[i].key, (unsigned)mv[i].from);
		mark(m, &m->pl[k], 0);
		m->pl[k].offset = m->pl[k].block_offset = mv[i].to;
		HOT_CMP(vs_hw_ds_obj_check(&m->d, &m->rq[k], mv[i].to, m->pl[k].granted, NULL, 0), ==, 0);
		mark(m, &m->pl[k], k + 1);
	}
}

static vs_request random_rq(vs_rng *r)
{
	unsigned p = vs_rng_below(r, 100);
	vs_request rq;

	if (p < 5) {
		memset(&rq, 0, sizeof rq);
		rq.shape = VS_REQ_BYTES;
		rq.size = 1u + vs_rng_below(r, 2048);
		return rq;
	}
	/* mostly small sprites, as games have them; bitmaps now and then */
	return vs_test_sprite_rq(vs_rng_below(r, 3), vs_rng_below(r, 4) * vs_rng_below(r, 2),
		p < 15 ? 16u : p < 45 ? 8u : 4u);
}

/* What the model needs of rq: units, alignment in units; 0 when refused. */
static unsigned need(const model *m, const vs_request *rq, unsigned *al)
{
	unsigned a = m->b;

	if (rq->shape == VS_REQ_SPRITE && rq->u.sprite.bpp == 8 && a < 64u)
		a = 64u;
	if (rq->shape == VS_REQ_SPRITE && rq->u.sprite.bpp == 16) {
		if (!m->c->bmp_ok)
			return 0;
		if (a < (m->d.ds_obj_bmp == VS_DS_BMP_1D_256 ? 256u : 128u))
			a = m->d.ds_obj_bmp == VS_DS_BMP_1D_256 ? 256u : 128u;
	}
	*al = a / m->b;
	return (rq->size + m->b - 1u) / m->b;
}

static void step_alloc(model *m, vs_rng *r, unsigned *served)
{
	vs_request rq = random_rq(r);
	vs_placement pl;
	unsigned n, al = 1;
	int k, rc;
	char why[200];

	for (k = 0; m->used[k]; k++)
		;
	n = need(m, &rq, &al);
	memset(&pl, 0, sizeof pl);
	rc = m->s->alloc(m->st, &rq, &pl);
	if (n == 0) {
		HOT_CMP(rc, ==, VS_ERR_UNSUPPORTED);
		return;
	}
	if (rc == VS_OK) {
		HOT_CMP(pl.granted, ==, n * m->b);
		HOT_CMP(pl.offset % (al * m->b), ==, 0);
		HOT_ASSERT(pl.offset / m->b >= m->lo && pl.offset / m->b + n <= m->hi, "%s: [0x%x, +0x%x) outside the span",
			m->s->name, (unsigned)pl.offset, (unsigned)pl.granted);
		why[0] = '\0';
		HOT_ASSERT(vs_hw_ds_obj_check(&m->d, &rq, pl.offset, pl.granted, why, sizeof why) == 0, "%s: %s",
			m->s->name, why);
		apply_moves(m); /* the moves come before the new sprite's data */
		m->used[k] = 1;
		m->pl[k] = pl;
		m->rq[k] = rq;
		mark(m, &pl, k + 1);
		(*served)++;
		return;
	}
	apply_moves(m);
	if (rc == VS_ERR_MANAGEMENT) {
		HOT_ASSERT(!strcmp(m->s->name, "gba-obj-compact") || !strcmp(m->s->name, "gba-obj-best-fit-end"),
			"%s: out of bookkeeping", m->s->name);
		return;
	}
	HOT_CMP(rc, ==, VS_ERR_NOSPACE);
	HOT_ASSERT(!room(m, n, al), "%s: failed %u units at %u with an aligned run free", m->s->name, n, al);
}

static void run_random(const char *name, const config *c, unsigned seed, unsigned steps)
{
	model *m = calloc(1, sizeof *m);
	vs_rng r = { seed };
	unsigned i, k, served = 0, live = 0;

	ck_assert_ptr_nonnull(m);
	m->s = vs_strategy_find(name);
	m->c = c;
	m->d = ds_decl(c->engine, c->boundary, c->bmp, c->banks);
	m->b = c->boundary;
	m->lo = c->lo / m->b;
	m->hi = c->hi / m->b;
	m->st = must_open(name, &m->d);
	for (i = 0; i < steps; i++) {
		for (live = 0, k = 0; k < MAXLIVE; k++)
			live += (unsigned)m->used[k];
		if (live && (vs_rng_below(&r, 100) < 42 || live >= MAXLIVE - 1)) {
			unsigned j = vs_rng_below(&r, live);
			for (k = 0; !m->used[k] || j--; k++)
				;
			HOT_CMP(m->s->free(m->st, &m->pl[k]), ==, VS_OK);
			apply_moves(m);
			mark(m, &m->pl[k], 0);
			m->used[k] = 0;
		} else {
			step_alloc(m, &r, &served);
		}
		if (m->s->frame && i % 37 == 36) {
			m->s->frame(m->st);
			apply_moves(m);
		}
		if (i % 16 == 15)
			check_free(m);
	}
	check_free(m);
	ck_assert_msg(served > steps / 4, "%s on %s/%u: only %u served", name, c->banks, c->boundary, served);
	m->s->reset(m->st);
	memset(m->owner, 0, sizeof m->owner);
	check_free(m);
	free(m->st);
	free(m);
}

START_TEST(random_sequences)
{
	unsigned k;

	for (k = 0; k < NDESIGNS; k++)
		run_random(designs[k], &configs[_i], 0xD5B0u + (unsigned)_i * 16u + k, vs_test_soak(1500, 20000));
}
END_TEST

/* ---- replays through the engine -------------------------------------------- */

/* A trace of two ds-obj arenas (engine A at 128-byte units over bank A,
 * bitmaps on 256 bytes; engine B at 32-byte units over bank I) and random
 * sprites, frees and frames. */
static char *random_trace(unsigned seed)
{
	vs_test_text t = { 0 };
	vs_rng r = { seed };
	unsigned id, live[2][64] = { { 0 } }, nlive[2] = { 0, 0 }, i;
	static const char *const arenas[2] = { "main", "sub" };
	static const char *const dims[3][4] = {
		{ "8x8", "16x16", "32x32", "64x64" }, { "16x8", "32x8", "32x16", "64x32" }, { "8x16", "8x32", "16x32", "32x64" }
	};

	vs_test_put(&t, "vramsim-trace 1\n");
	vs_test_put(&t, "arena main ds-obj boundary=128 banks=A0 bmp=1d-256\n");
	vs_test_put(&t, "arena sub ds-obj engine=b boundary=32 banks=I0\n");
	for (id = 1; id < 400; id++) {
		unsigned a = vs_rng_below(&r, 2), p = vs_rng_below(&r, 100);
		if (nlive[a] && (p < 40 || nlive[a] == 64)) {
			i = vs_rng_below(&r, nlive[a]);
			vs_test_put(&t, "free %u\n", live[a][i]);
			live[a][i] = live[a][--nlive[a]];
		} else {
			unsigned s = vs_rng_below(&r, 3), z = vs_rng_below(&r, a ? 2 : 4);
			vs_test_put(&t, "alloc %u %s sprite %s %s\n", id, arenas[a], dims[s][z],
				p < 50 ? "4bpp" : p < 80 ? "8bpp" : "bmp");
			live[a][nlive[a]++] = id;
		}
		if (id % 25 == 0)
			vs_test_put(&t, "frame\n");
	}
	return t.s;
}

START_TEST(replay_no_integrity_error)
{
	static const char hand[] =
		"vramsim-trace 1\n"
		"arena obj ds-obj boundary=64 banks=E0 bmp=1d-128\n"
		"alloc 1 obj sprite 32x32 4bpp\n"
		"alloc 2 obj sprite 8x8 8bpp\n"
		"alloc 3 obj sprite 64x64 bmp\n"
		"alloc 4 obj sprite 8x8 4bpp\n"
		"free 2\n"
		"frame\n"
		"alloc 5 obj sprite 16x16 8bpp\n"
		"free 1\n"
		"frame\n"
		"alloc 6 obj sprite 64x32 bmp\n";
	char *text = random_trace(0xD5B1u);
	unsigned k, pass;

	for (pass = 0; pass < 2; pass++)
		for (k = 0; k < NDESIGNS; k++) {
			vs_test_replay x;
			vs_replay_config cfg;
			char err[1024];
			int a;

			vs_replay_config_default(&cfg);
			cfg.strategy[0] = cfg.strategy[1] = vs_strategy_find(designs[k]);
			ck_assert_msg(vs_test_replay_open(&x, pass ? text : hand, "t.trace", &cfg, err, sizeof err) != NULL,
				"%s: %s", designs[k], err);
			ck_assert_msg(vs_replay_run(x.r, 0) >= 0, "%s: %s", designs[k], vs_replay_error(x.r));
			ck_assert_msg(vs_replay_check_total(x.r) == 0, "%s: integrity errors:\n%s", designs[k], x.msgs);
			for (a = 0; a < vs_replay_arena_count(x.r); a++) {
				const vs_metrics *mt = vs_replay_metrics(x.r, a);
				ck_assert_msg(mt->allocs > 0, "%s: nothing placed", designs[k]);
				if (!pass)
					ck_assert_msg(mt->failures == 0, "%s: %llu failures", designs[k],
						(unsigned long long)mt->failures);
				ck_assert_msg(mt->fail[VS_FAIL_UNSUPPORTED] == 0 && mt->fail[VS_FAIL_INVALID] == 0,
					"%s: refused requests", designs[k]);
			}
			vs_test_replay_close(&x);
		}
	free(text);
}
END_TEST

static Suite *ds_obj_designs_suite(void)
{
	Suite *s = suite_create("ds_obj_designs");
	TCase *tc = tcase_create("designs");

	tcase_add_test(tc, each_boundary);
	tcase_add_test(tc, engine_b);
	tcase_add_test(tc, partial_mapping);
	tcase_add_test(tc, even_8bpp);
	tcase_add_test(tc, bitmap_sprites);
	tcase_add_test(tc, refusals);
	tcase_add_loop_test(tc, random_sequences, 0, (int)NCONFIGS);
	tcase_add_test(tc, replay_no_integrity_error);
	tcase_set_timeout(tc, 120);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vs_test_main(ds_obj_designs_suite());
}
