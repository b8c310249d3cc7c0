/* SPDX-License-Identifier: Zlib */
/* test_ds_capture.c - DS capture: allocations inferred from vs_ds_frame.
 *
 * Each test builds the frames a DS game would leave at the end of a frame
 * (VRAMCNT, DISPCNT, BGxCNT, OAM, bank contents, the polygon list), runs
 * them through capture and reads the trace back: one test per rule of
 * docs/capture.md's DS part at known frames. Every trace must replay under
 * `recorded` without an integrity error or diagnostic, and under every
 * strategy that manages one of its arenas without an integrity error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "capture/capture_ds.h"
#include "engine/replay.h"
#include "strategies/registry.h"
#include "trace/trace.h"
#include "vramsim/strategy.h"

/* DISPCNT */
#define D_ON 0x00010000u      /* display mode 1: the engine's picture */
#define D_BLANK 0x80u
#define D_3D 0x08u
#define D_OBJ1D 0x10u         /* tile OBJ 1D mapping */
#define D_BMP256 0x20u        /* bitmap OBJ 2D matrix 256 dots wide */
#define D_BMP1D 0x40u         /* bitmap OBJ 1D mapping */
#define D_BG(n) (0x100u << (n))
#define D_OBJ 0x1000u
#define D_BOUND(b) ((uint32_t)(b) << 20) /* tile 1D boundary 32 << b */
#define D_BMPBOUND 0x400000u  /* bitmap 1D boundary 256 (engine A) */
#define D_CB(n) ((uint32_t)(n) << 24)
#define D_SB(n) ((uint32_t)(n) << 27)
#define D_BGPAL 0x40000000u
#define D_OBJPAL 0x80000000u
/* OAM attribute 0 */
#define A_AFFINE 0x100u
#define A_BITMAP 0x0C00u
#define A_8BPP 0x2000u

enum { A, B, C, D, E, F, G, H, I };
static const uint32_t bank_at[9] = { VS_DS_LCDC_A, VS_DS_LCDC_B, VS_DS_LCDC_C, VS_DS_LCDC_D, VS_DS_LCDC_E,
	VS_DS_LCDC_F, VS_DS_LCDC_G, VS_DS_LCDC_H, VS_DS_LCDC_I };

/* ---- frames ---------------------------------------------------------------- */

/* Both engines on, powered, nothing mapped, every OAM entry disabled. */
static vs_ds_frame *frame_new(void)
{
	vs_ds_frame *f = calloc(1, sizeof *f);
	unsigned i;

	ck_assert_ptr_nonnull(f);
	f->dispcnt[0] = f->dispcnt[1] = D_ON;
	f->powcnt1 = 0x020Fu;
	f->disp3dcnt = 1;
	f->vcount = 262;
	for (i = 0; i < 256; i++)
		vs_test_put16(f->oam + i * 8u, 0x200u);
	return f;
}

static void oam(vs_ds_frame *f, unsigned engine, unsigned i, unsigned tile, unsigned shape, unsigned size,
	unsigned flags, unsigned pal)
{
	uint8_t *p = f->oam + engine * 0x400u + i * 8u;

	vs_test_put16(p, 16u | flags | shape << 14);
	vs_test_put16(p + 2, 16u | size << 14);
	vs_test_put16(p + 4, tile | pal << 12);
}

static void hide(vs_ds_frame *f, unsigned engine, unsigned i)
{
	vs_test_put16(f->oam + engine * 0x400u + i * 8u, 0x200u);
}

/* Nonzero bytes that differ with seed, at byte off of a bank. */
static void fill(vs_ds_frame *f, unsigned bank, uint32_t off, uint32_t n, unsigned seed)
{
	uint32_t x = seed * 2654435761u + 0x9E3779B9u, i;

	for (i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		f->lcdc[bank_at[bank] + off + i] = (uint8_t)(1u + x % 255u);
	}
}

static void poly(vs_ds_frame *f, unsigned i, uint32_t param, uint32_t pal)
{
	f->polys[i].tex_param = param;
	f->polys[i].tex_palette = pal;
	f->polys[i].vertices = 4;
	if (f->polys_n <= i)
		f->polys_n = f->polys_total = i + 1;
}

/* TEXIMAGE_PARAM of a texture at byte off, 8 << sw by 8 << sh, format. */
static uint32_t tex_param(uint32_t off, unsigned sw, unsigned sh, unsigned format)
{
	return off / 8u | sw << 20 | sh << 23 | format << 26;
}

/* ---- a capture and its trace ------------------------------------------------ */

typedef struct ev {
	vs_event_type type;
	uint64_t id;
	int frame, arena;
	vs_request req;
	uint8_t bank, vramcnt;
	char tag[VS_TAG_MAX];
} ev;

typedef struct ct {
	vs_ds_frame *f;
	vs_ds_capture *c;
	FILE *fp;
	char *text;
	size_t len;
	vs_ds_capture_stats st;
	vs_trace_header h;
	ev *v;
	size_t n, cap;
} ct;

static void ct_open(ct *t, const vs_ds_capture_options *o)
{
	char err[256];

	memset(t, 0, sizeof *t);
	t->f = frame_new();
	t->fp = open_memstream(&t->text, &t->len);
	ck_assert_ptr_nonnull(t->fp);
	t->c = vs_ds_capture_new(o, t->fp, "# ROM: TEST\ngame code ABCD", err, sizeof err);
	ck_assert_msg(t->c != NULL, "%s", err);
}

static void ct_frames(ct *t, int n)
{
	while (n-- > 0)
		ck_assert_int_eq(vs_ds_capture_frame(t->c, t->f), 0);
}

static void ct_close(ct *t)
{
	vs_trace_reader *rd;
	vs_event x;
	char err[1024];
	int rc, frame = 0;
	FILE *in;

	ck_assert_int_eq(vs_ds_capture_finish(t->c), 0);
	vs_ds_capture_stats_get(t->c, &t->st);
	vs_ds_capture_free(t->c);
	fclose(t->fp);
	in = fmemopen(t->text, t->len, "rb");
	rd = vs_trace_open_stream(in, "capture", err, sizeof err);
	ck_assert_msg(rd != NULL, "%s\n%s", err, t->text);
	t->h = *vs_trace_header_of(rd);
	while ((rc = vs_trace_next(rd, &x)) > 0) {
		ev *y;
		if (x.type == VS_EV_FRAME) {
			frame++;
			continue;
		}
		if (t->n == t->cap) {
			t->cap = t->cap ? t->cap * 2 : 1024;
			t->v = realloc(t->v, t->cap * sizeof *t->v);
			ck_assert_ptr_nonnull(t->v);
		}
		y = &t->v[t->n++];
		y->type = x.type;
		y->id = x.id;
		y->frame = frame;
		y->arena = x.arena;
		y->req = x.req;
		y->bank = x.bank;
		y->vramcnt = x.vramcnt;
		snprintf(y->tag, sizeof y->tag, "%s", x.type == VS_EV_ALLOC && x.tag ? x.tag : "");
		ck_assert_msg(x.type != VS_EV_ALLOC || (x.req.has_at == VS_AT_ADDR && x.tag[0]),
			"alloc without at= or tag=");
	}
	ck_assert_msg(rc == 0, "%s\n%s", vs_trace_error(rd), t->text);
	vs_trace_close(rd);
	fclose(in);
}

static void ct_free(ct *t)
{
	free(t->f);
	free(t->text);
	free(t->v);
}

static int arena_of(const ct *t, const char *name)
{
	int a = vs_trace_arena_index(&t->h, name);

	ck_assert_msg(a >= 0, "no arena %s in\n%s", name, t->text);
	return a;
}

/* The first alloc in an arena at an address, or NULL. */
static const ev *alloc_at(const ct *t, const char *arena, uint32_t at)
{
	int a = arena_of(t, arena);
	size_t i;

	for (i = 0; i < t->n; i++)
		if (t->v[i].type == VS_EV_ALLOC && t->v[i].arena == a && t->v[i].req.at == at)
			return &t->v[i];
	return NULL;
}

static const ev *must_alloc(const ct *t, const char *arena, uint32_t at)
{
	const ev *x = alloc_at(t, arena, at);

	ck_assert_msg(x != NULL, "no allocation in %s at 0x%x:\n%s", arena, (unsigned)at, t->text);
	return x;
}

/* Frame of the free of id, -1 if never freed. */
static int freed_at(const ct *t, uint64_t id)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (t->v[i].type == VS_EV_FREE && t->v[i].id == id)
			return t->v[i].frame;
	return -1;
}

static int count(const ct *t, vs_event_type type)
{
	size_t i;
	int n = 0;

	for (i = 0; i < t->n; i++)
		n += t->v[i].type == type;
	return n;
}

static int frame_lines(const ct *t)
{
	const char *p = t->text;
	int n = 0;

	while ((p = strstr(p, "\nframe\n")) != NULL) {
		n++;
		p += 6;
	}
	return n;
}

/* ---- replays ------------------------------------------------------------------ */

static void quiet(void *ud, const char *line)
{
	(void)ud;
	(void)line;
}

/* Replays the trace with strategy s on every arena whose kind it manages
 * and takes (recorded on the others; s NULL: recorded everywhere). Returns
 * the integrity errors; diagnostics in *diags; 0 arenas taken: -1. */
static int64_t replay_with(const ct *t, const vs_strategy *s, uint64_t *diags)
{
	const vs_strategy *rec = vs_strategy_find("recorded");
	vs_test_replay x;
	vs_replay_config cfg;
	char e[512];
	int a, taken = 0;
	int64_t checks;

	ck_assert_ptr_nonnull(rec);
	vs_replay_config_default(&cfg);
	cfg.message = quiet;
	cfg.check_bytes = 0;
	for (a = 0; a < t->h.narenas; a++) {
		const vs_arena_decl *d = &t->h.arenas[a];
		cfg.strategy[a] = rec;
		if (s && vs_strategy_manages(s, d->kind) && !vs_strategy_refuses(s, d, e, sizeof e)) {
			cfg.strategy[a] = s;
			taken++;
		}
	}
	if (s && !taken)
		return -1;
	if (!vs_test_replay_open(&x, t->text, "capture", &cfg, e, sizeof e)) {
		/* a strategy may refuse an arena at init (nflib-sprite: a 256-byte boundary) */
		ck_assert_msg(s && strstr(e, "refused") != NULL, "%s", e);
		return -1;
	}
	if (vs_replay_run(x.r, 0) != 0) {
		/* a strategy may refuse the memory a bank change leaves (nns-frm-tex: no slot 0) */
		ck_assert_msg(s && strstr(vs_replay_error(x.r), "refused init") != NULL, "%s: %s",
			s ? s->name : "recorded", vs_replay_error(x.r));
		vs_test_replay_close(&x);
		return -1;
	}
	checks = (int64_t)vs_replay_check_total(x.r);
	if (diags)
		*diags = vs_replay_diag_total(x.r);
	if ((checks || vs_replay_diag_total(x.r)) && !s)
		fprintf(stderr, "%s\n%s\n", x.msgs, t->text);
	vs_test_replay_close(&x);
	return checks;
}

/* Whether bank maps arena at slot (any, when -1) from the header on and
 * the trace never changes it. */
static int bank_steady(const ct *t, const char *arena, unsigned bank, int slot)
{
	int a = vs_trace_arena_index(&t->h, arena);
	char line[16];

	if (a < 0 || t->h.arenas[a].ds_bank_slot[bank] == VS_BANK_UNMAPPED ||
	    (slot >= 0 && t->h.arenas[a].ds_bank_slot[bank] != slot))
		return 0;
	snprintf(line, sizeof line, "\nvramcnt %c ", 'A' + (int)bank);
	return strstr(t->text, line) == NULL;
}

static int abcd_steady(const ct *t)
{
	return bank_steady(t, "tex", A, -1) && bank_steady(t, "tex", B, -1) && bank_steady(t, "tex", C, -1) &&
		bank_steady(t, "tex", D, -1);
}

/* Strategies that take their banks from their library's own setup, not
 * the arena's (docs/ds-homebrew.md): NightFox's Lib bank B (engine A) and D
 * (engine B) whole for sprites, and bank B as texture slot 1 for its 3D
 * sprites; Nitro Engine banks A-D for textures and E for palettes; libnds
 * videoGL all of A-D for textures (but those locked) and E first for
 * palettes. On a trace mapped otherwise, or changing those banks, they
 * place where no bank maps, as the library would. */
static int exempt(const ct *t, const vs_strategy *s)
{
	if (strcmp(s->name, "nflib-sprite") == 0)
		return (vs_trace_arena_index(&t->h, "obj-a") >= 0 && !bank_steady(t, "obj-a", B, -1)) ||
			(vs_trace_arena_index(&t->h, "obj-b") >= 0 && !bank_steady(t, "obj-b", D, -1));
	if (strcmp(s->name, "nflib-sprite3d") == 0)
		return !bank_steady(t, "tex", B, 1);
	if (strcmp(s->name, "nitro-engine-tex") == 0 || strcmp(s->name, "libnds-tex") == 0)
		return !abcd_steady(t);
	if (strcmp(s->name, "nitro-engine-pltt") == 0 || strcmp(s->name, "libnds-pltt") == 0)
		return !bank_steady(t, "pltt", E, -1);
	return 0;
}

/* Every case: clean under recorded, and under every strategy that takes
 * one of its arenas. */
static void replays_clean(const ct *t)
{
	uint64_t diags = 0;
	size_t i;

	ck_assert_int_eq(replay_with(t, NULL, &diags), 0);
	ck_assert_uint_eq(diags, 0);
	for (i = 0; i < vs_strategy_count(); i++) {
		const vs_strategy *s = vs_strategy_at(i);
		int64_t checks;
		if (s->flags & VS_STRAT_NEEDS_AT)
			continue;
		checks = replay_with(t, s, NULL);
		ck_assert_msg(checks <= 0 || exempt(t, s), "%s: %lld integrity errors", s->name, (long long)checks);
	}
}

static void run_and_check(ct *t, int n)
{
	ct_frames(t, n);
	ct_close(t);
	replays_clean(t);
}

/* ---- the header and OBJ ------------------------------------------------------- */

/* Frames with every bank in LCDC mode (a game before it maps them) are
 * held; the header comes at the first frame that maps a bank and shows
 * something, with the arenas of the uses mapped then. 1D sprites: tile x
 * the boundary. Rule 4: freed after grace frames unshown, dated at the
 * first. */
START_TEST(header_waits_for_banks_and_1d_boundary)
{
	const ev *x;
	ct t;
	unsigned b;

	ct_open(&t, NULL);
	for (b = 0; b < 9; b++)
		t.f->vramcnt[b] = 0x80;
	ct_frames(&t, 2);
	t.f->vramcnt[A] = 0x82;
	t.f->vramcnt[C] = 0x84;
	t.f->dispcnt[0] = D_ON | D_OBJ | D_OBJ1D | D_BOUND(1);
	oam(t.f, 0, 0, 5, 0, 1, 0, 0); /* 16x16 4bpp at tile 5: 5 x 64 bytes */
	fill(t.f, A, 320, 128, 1);
	ct_frames(&t, 3);
	hide(t.f, 0, 0);
	ct_frames(&t, 5);
	ct_close(&t);
	ck_assert_msg(strncmp(t.text, "vramsim-trace 1\n# ROM: TEST\n# game code ABCD\n# capture: grace=3 lookback=4\n"
		"# capture: at frame 2, the first shown with a bank mapped: VRAMCNT A-I 82 80 84 80 80 80 80 80 80, "
		"DISPCNT A 00111010 B 00010000\narena obj-a ds-obj banks=A0 boundary=64\narena bg-b ds-bg engine=b\n"
		"frame\nframe\nalloc 1 obj-a sprite 16x16 4bpp tag=g", 242) == 0, "%s", t.text);
	x = must_alloc(&t, "obj-a", 0x06400000u + 320u);
	ck_assert_int_eq(x->frame, 2);
	ck_assert_uint_eq(x->req.size, 128);
	ck_assert_int_eq(freed_at(&t, x->id), 5);
	ck_assert_int_eq(frame_lines(&t), 10);
	ck_assert_uint_eq(t.st.held, 2);
	ck_assert(t.st.declared[VS_DS_CAP_OBJ_A] && t.st.declared[VS_DS_CAP_BG_B] && !t.st.declared[VS_DS_CAP_TEX]);
	ck_assert_uint_eq(t.st.arena[VS_DS_CAP_OBJ_A].allocs, 1);
	ck_assert_uint_eq(t.st.arena[VS_DS_CAP_OBJ_A].frees, 1);
	replays_clean(&t);
	ct_free(&t);
}
END_TEST

/* 2D tile mapping: the GBA's rectangle (8bpp: the tile's low bit dropped),
 * a run per row past column 31. Bitmap sprites: 1D at tile x 256 bytes;
 * 2D a rectangle of the bitmap matrix, written as bytes on an odd column. */
START_TEST(obj_2d_and_bitmap_sprites)
{
	const ev *x;
	ct t;

	ct_open(&t, NULL);
	t.f->vramcnt[A] = 0x82;
	t.f->vramcnt[D] = 0x84;
	t.f->dispcnt[0] = D_ON | D_OBJ | D_BMP1D | D_BMPBOUND;
	t.f->dispcnt[1] = D_ON | D_OBJ;
	oam(t.f, 0, 0, 3, 1, 2, A_8BPP, 0);   /* 32x16 8bpp, tile 3 -> 2: rows of 8 tiles */
	oam(t.f, 0, 1, 63, 0, 1, 0, 0);       /* 16x16 at column 31: wraps */
	oam(t.f, 0, 2, 20, 0, 0, A_BITMAP, 0); /* 8x8 bitmap, 1D 256: 20 x 256 */
	oam(t.f, 1, 0, 17, 0, 0, A_BITMAP, 0); /* 2D 128 dots: column 1 row 1: odd */
	oam(t.f, 1, 1, 18, 0, 0, A_BITMAP, 0); /* column 2 row 1 */
	fill(t.f, A, 0, 0x8000, 2);
	fill(t.f, D, 0, 0x8000, 3);
	run_and_check(&t, 4);
	ck_assert_ptr_nonnull(strstr(t.text, "arena obj-a ds-obj banks=A0 map=2d bmp=1d-256\n"
		"arena obj-b ds-obj engine=b map=2d bmp=2d-128\n"));
	x = must_alloc(&t, "obj-a", 0x06400000u + 2u * 32u);
	ck_assert_int_eq(x->req.shape, VS_REQ_SPRITE);
	ck_assert_uint_eq(x->req.size, 512);
	x = must_alloc(&t, "obj-a", 0x06400000u + 63u * 32u);
	ck_assert_int_eq(x->req.shape, VS_REQ_BYTES);
	ck_assert_uint_eq(x->req.size, 64);
	must_alloc(&t, "obj-a", 0x06400000u + 95u * 32u);
	x = must_alloc(&t, "obj-a", 0x06400000u + 20u * 256u);
	ck_assert_uint_eq(x->req.u.sprite.bpp, 16);
	/* odd column: 8 rows of bytes over the unit each touches, 256 bytes apart */
	x = must_alloc(&t, "obj-b", 0x06600000u + 2048u);
	ck_assert_int_eq(x->req.shape, VS_REQ_BYTES);
	ck_assert_uint_eq(x->req.size, 32);
	must_alloc(&t, "obj-b", 0x06600000u + 2048u + 7u * 256u);
	x = must_alloc(&t, "obj-b", 0x06600000u + 2048u + 32u);
	ck_assert_int_eq(x->req.shape, VS_REQ_SPRITE);
	ck_assert_uint_eq(t.st.wrapped, 4);
	ck_assert_uint_eq(t.st.odd_bitmap, 4);
	ct_free(&t);
}
END_TEST

/* A 256-colour sprite with DISPCNT bit 31 takes OBJ extended palette
 * attribute 2 bits 12-15 names: one allocation however many sprites. */
START_TEST(obj_extended_palette)
{
	const ev *x;
	ct t;

	ct_open(&t, NULL);
	t.f->vramcnt[A] = 0x82;
	t.f->vramcnt[F] = 0x85;
	t.f->dispcnt[0] = D_ON | D_OBJ | D_OBJ1D | D_OBJPAL;
	oam(t.f, 0, 0, 2, 0, 0, A_8BPP, 3);
	oam(t.f, 0, 1, 4, 0, 0, A_8BPP, 3);
	oam(t.f, 0, 2, 6, 0, 0, 0, 5); /* 16 colours: no extended palette */
	fill(t.f, F, 0, 0x2000, 4);
	run_and_check(&t, 3);
	ck_assert_ptr_nonnull(strstr(t.text, "arena objpal-a ds-obj-extpal\n"));
	x = must_alloc(&t, "objpal-a", 3u * 512u);
	ck_assert_int_eq(x->req.shape, VS_REQ_PLTT);
	ck_assert_uint_eq(x->req.u.pltt.colours, 256);
	ck_assert_uint_eq(t.st.arena[VS_DS_CAP_OBJPAL_A].allocs, 1);
	ct_free(&t);
}
END_TEST

/* The GBA's range rules on DS memory: dated back to the upload within the
 * lookback (rule 7), a range inside a live one is part of it (3), one
 * overlapping it otherwise ends it (3), ranges overlapping in one frame are
 * joined (3). */
START_TEST(range_rules)
{
	const ev *x, *y;
	ct t;

	ct_open(&t, NULL);
	t.f->vramcnt[A] = 0x82;
	t.f->dispcnt[0] = D_ON | D_OBJ | D_OBJ1D;
	fill(t.f, A, 10u * 32u, 4u * 32u, 5);
	ct_frames(&t, 2);                 /* uploaded at 0, shown from 2 */
	oam(t.f, 0, 0, 10, 0, 1, 0, 0);   /* tiles 10-13 */
	oam(t.f, 0, 1, 11, 0, 0, 0, 0);   /* tile 11: inside */
	ct_frames(&t, 4);
	hide(t.f, 0, 0);
	hide(t.f, 0, 1);
	oam(t.f, 0, 2, 12, 0, 1, 0, 0);   /* tiles 12-15 at frame 6: overlaps 10-13 */
	ct_frames(&t, 2);
	oam(t.f, 0, 3, 40, 0, 1, 0, 0);   /* 40-43 and 42-45 in one frame: joined */
	oam(t.f, 0, 4, 42, 0, 1, 0, 0);
	fill(t.f, A, 40u * 32u, 6u * 32u, 6);
	run_and_check(&t, 2);
	x = must_alloc(&t, "obj-a", 0x06400000u + 10u * 32u);
	ck_assert_int_eq(x->frame, 0);
	ck_assert_int_eq(freed_at(&t, x->id), 6);
	y = must_alloc(&t, "obj-a", 0x06400000u + 12u * 32u);
	ck_assert_int_eq(y->frame, 6);
	x = must_alloc(&t, "obj-a", 0x06400000u + 40u * 32u);
	ck_assert_int_eq(x->req.shape, VS_REQ_BYTES);
	ck_assert_uint_eq(x->req.size, 6u * 32u);
	ck_assert_uint_eq(t.st.arena[VS_DS_CAP_OBJ_A].partial_overlaps, 1);
	ck_assert_uint_eq(t.st.arena[VS_DS_CAP_OBJ_A].merged, 2);
	ck_assert_uint_ge(t.st.arena[VS_DS_CAP_OBJ_A].nested, 4);
	ck_assert_uint_eq(t.st.arena[VS_DS_CAP_OBJ_A].dated_back, 1);
	ct_free(&t);
}
END_TEST

/* ---- BG ------------------------------------------------------------------------- */

/* A map entry of a text layer (tile, palette) at cell k of a map at arena
 * offset at, in bank A mapped from arena offset 0. */
static void text_entry(vs_ds_frame *f, uint32_t at, unsigned k, unsigned tile, unsigned pal)
{
	vs_test_put16(f->lcdc + VS_DS_LCDC_A + at + k * 2u, tile | pal << 12);
}

/* Text layers: the map at DISPCNT's screen base + BGxCNT's, the characters
 * from DISPCNT's character base + BGxCNT's up to the last tile the map
 * names; a 256-colour layer with DISPCNT bit 30 takes the extended palettes
 * its map names from its slot (BG1 with BGxCNT bit 13: slot 3). */
START_TEST(bg_text_layers_and_extended_palettes)
{
	const ev *x;
	ct t;

	ct_open(&t, NULL);
	t.f->vramcnt[A] = 0x81;
	t.f->vramcnt[B] = 0x89;
	t.f->vramcnt[E] = 0x84;
	t.f->dispcnt[0] = D_ON | D_BG(0) | D_BG(1) | D_CB(1) | D_SB(1) | D_BGPAL;
	t.f->bgcnt[0][0] = 2u << 2 | 3u << 8;                /* 4bpp, chars 64K + 32K, map 64K + 6K */
	t.f->bgcnt[0][1] = 3u << 2 | 4u << 8 | 0x80u | 0x2000u; /* 8bpp, slot 3 */
	text_entry(t.f, 0x11800, 0, 9, 0);
	text_entry(t.f, 0x12000, 5, 4, 2);
	fill(t.f, A, 0x18000, 320, 7);
	fill(t.f, E, 3u * 0x2000u, 0x2000, 8);
	run_and_check(&t, 3);
	ck_assert_ptr_nonnull(strstr(t.text, "arena bg-a ds-bg banks=A0B1 char-base=1 screen-base=1\n"
		"arena bgpal-a ds-bg-extpal\n"));
	x = must_alloc(&t, "bg-a", 0x06011800u);
	ck_assert_int_eq(x->req.shape, VS_REQ_BGMAP);
	ck_assert_str_eq(x->tag, "bg0");
	x = must_alloc(&t, "bg-a", 0x06018000u);
	ck_assert_uint_eq(x->req.size, 10u * 32u);
	ck_assert_str_eq(x->tag, "bg0-chars");
	x = must_alloc(&t, "bg-a", 0x0601C000u);
	ck_assert_uint_eq(x->req.size, 5u * 64u);
	must_alloc(&t, "bgpal-a", 3u * 0x2000u);
	must_alloc(&t, "bgpal-a", 3u * 0x2000u + 2u * 512u);
	ck_assert_uint_eq(t.st.arena[VS_DS_CAP_BGPAL_A].allocs, 2);
	ct_free(&t);
}
END_TEST

/* Affine layers (8-bit entries), extended affine ones (16-bit entries) and
 * bitmaps (256 colours or direct, at the screen base in 16 KiB steps); a
 * layer switched off ages out like a sprite. */
START_TEST(bg_affine_extended_and_bitmap)
{
	const ev *x, *y;
	ct t;

	ct_open(&t, NULL);
	t.f->vramcnt[A] = 0x81;
	t.f->vramcnt[C] = 0x84;
	t.f->dispcnt[0] = D_ON | 1u | D_BG(3);        /* mode 1: BG3 affine */
	t.f->bgcnt[0][3] = 1u << 2 | 2u << 8;          /* 128x128: 256-byte map at 4K, chars at 16K */
	t.f->lcdc[VS_DS_LCDC_A + 0x1000 + 17] = 3;
	t.f->dispcnt[1] = D_ON | 5u | D_BG(2) | D_BG(3); /* mode 5: BG2, BG3 extended */
	t.f->bgcnt[1][2] = 1u << 2 | 1u << 8;          /* affine 16-bit entries, 128x128: 512 bytes at 2K */
	t.f->bgcnt[1][3] = 0x84u | 2u << 8;            /* direct colour bitmap 128x128 at 32K */
	vs_test_put16(t.f->lcdc + VS_DS_LCDC_C + 0x800 + 2, 7);
	ct_frames(&t, 2);
	t.f->dispcnt[1] = D_ON | 5u | D_BG(2);
	run_and_check(&t, 5);
	x = must_alloc(&t, "bg-a", 0x06001000u);
	ck_assert_int_eq(x->req.shape, VS_REQ_BGMAP);
	ck_assert_uint_eq(x->req.u.bgmap.affine, 1);
	x = must_alloc(&t, "bg-a", 0x06004000u);
	ck_assert_uint_eq(x->req.size, 4u * 64u);
	x = must_alloc(&t, "bg-b", 0x06200800u);
	ck_assert_int_eq(x->req.shape, VS_REQ_BYTES);
	ck_assert_uint_eq(x->req.size, 512);
	x = must_alloc(&t, "bg-b", 0x06204000u);
	ck_assert_uint_eq(x->req.size, 8u * 64u);
	y = must_alloc(&t, "bg-b", 0x06208000u);
	ck_assert_uint_eq(y->req.size, 128u * 128u * 2u);
	ck_assert_str_eq(y->tag, "bg3-bitmap");
	ck_assert_int_eq(freed_at(&t, y->id), 2);
	ck_assert_int_eq(freed_at(&t, x->id), -1);
	ct_free(&t);
}
END_TEST

/* ---- banks ------------------------------------------------------------------------ */

/* A bank leaving an arena: every live allocation of it is freed before the
 * `vramcnt` line (a strategy may have placed any of them on that bank),
 * and what is still shown is allocated again after it; what lies on the
 * memory that left is no longer read. A bank given a use the trace has no
 * arena for is counted. */
START_TEST(bank_change_frees_first)
{
	const char *at;
	const ev *x, *y;
	ct t;

	ct_open(&t, NULL);
	t.f->vramcnt[A] = 0x82;
	t.f->vramcnt[B] = 0x8A;
	t.f->dispcnt[0] = D_ON | D_OBJ | D_OBJ1D | D_BOUND(3);
	oam(t.f, 0, 0, 4, 0, 1, 0, 0);   /* 4 x 256: bank A */
	oam(t.f, 0, 1, 600, 0, 1, 0, 0); /* 600 x 256 = 0x25800: bank B */
	fill(t.f, A, 0x400, 128, 10);
	fill(t.f, B, 0x5800, 128, 11);
	ct_frames(&t, 5);
	t.f->vramcnt[B] = 0x80;           /* to LCDC at frame 5 */
	ct_frames(&t, 3);
	t.f->vramcnt[B] = 0x81;           /* engine A BG: no arena */
	run_and_check(&t, 2);
	at = strstr(t.text, "free 1\nfree 2\nvramcnt B 0x80\ninit obj-a\nalloc 3 obj-a sprite 16x16 4bpp");
	ck_assert_msg(at != NULL, "%s", t.text);
	ck_assert_ptr_nonnull(strstr(t.text, "\nvramcnt B 0x81\n"));
	ck_assert_ptr_nonnull(strstr(t.text, "# capture: frame 8: VRAMCNT_B = 0x81 maps a use the trace has no arena"));
	x = must_alloc(&t, "obj-a", 0x06400400u);
	y = alloc_at(&t, "obj-a", 0x06425800u);
	ck_assert_int_eq(freed_at(&t, x->id), 5);
	ck_assert_int_eq(freed_at(&t, y->id), 5);
	ck_assert_int_eq(count(&t, VS_EV_VRAMCNT), 2);
	ck_assert_uint_eq(t.st.bank_changes, 2);
	ck_assert_uint_eq(t.st.bank_undeclared, 1);
	ck_assert_uint_eq(t.st.arena[VS_DS_CAP_OBJ_A].bank_ends, 2);
	ck_assert_uint_eq(t.st.arena[VS_DS_CAP_OBJ_A].allocs, 3);
	ck_assert_uint_eq(t.st.arena[VS_DS_CAP_OBJ_A].unmapped, 5);
	ct_free(&t);
}
END_TEST

/* Two banks over the same bytes of an arena (the hardware mixes them): the
 * arena line keeps the first, which capture reads, and says so. */
START_TEST(banks_over_each_other)
{
	ct t;

	ct_open(&t, NULL);
	t.f->vramcnt[A] = 0x81;
	t.f->vramcnt[B] = 0x81;
	t.f->vramcnt[E] = 0x81;
	t.f->dispcnt[0] = D_ON | D_BG(0);
	t.f->bgcnt[0][0] = 1u << 2;
	run_and_check(&t, 3);
	ck_assert_ptr_nonnull(strstr(t.text, "# capture: bank B maps the same bytes of arena bg-a as bank A"));
	ck_assert_ptr_nonnull(strstr(t.text, "# capture: bank E maps the same bytes of arena bg-a as bank A"));
	ck_assert_ptr_nonnull(strstr(t.text, "\narena bg-a ds-bg\n"));
	must_alloc(&t, "bg-a", 0x06000000u);
	ct_free(&t);
}
END_TEST

/* ---- 3D --------------------------------------------------------------------------- */

/* Textures and palettes from the polygon list: offset, size and format
 * from TEXIMAGE_PARAM, the palette from PLTT_BASE; a 4x4 texture holds its
 * index data in slot 1 and its palette reaches as far as its blocks name.
 * Data uploaded while the bank was in LCDC mode is dated at the frame the
 * bank became a texture slot, not before. */
START_TEST(textures_from_the_polygon_list)
{
	const ev *x;
	ct t;

	ct_open(&t, NULL);
	t.f->vramcnt[A] = 0x83;            /* texture slot 0 */
	t.f->vramcnt[B] = 0x80;            /* LCDC: being filled */
	t.f->vramcnt[E] = 0x83;            /* texture palettes */
	t.f->dispcnt[0] = D_ON | D_3D | D_BG(0);
	fill(t.f, A, 0x2000, 0x2000, 12);  /* 16c 128x64 at 0x2000, from frame 0 */
	fill(t.f, A, 0x1000, 256, 13);     /* 4x4 32x32 texels at 0x1000 */
	fill(t.f, E, 0x20, 32, 14);
	ct_frames(&t, 1);
	vs_test_put16(t.f->lcdc + VS_DS_LCDC_B + 0x800 + 6, 5); /* a block at palette offset 5 */
	fill(t.f, B, 0x4000, 0x1000, 15);  /* 256c 64x64 in slot 1, uploaded at 1 */
	ct_frames(&t, 1);
	t.f->vramcnt[B] = 0x8B;            /* slot 1 at frame 2 */
	ct_frames(&t, 1);
	poly(t.f, 0, tex_param(0x2000, 4, 3, 3), 2);
	poly(t.f, 1, tex_param(0x1000, 2, 2, 5), 4);
	poly(t.f, 2, tex_param(0x24000, 3, 3, 4), 8);
	poly(t.f, 3, tex_param(0x2000, 4, 3, 3), 2); /* the same texture again */
	poly(t.f, 4, 0, 0);                           /* untextured */
	ct_frames(&t, 3);
	t.f->polys_n = t.f->polys_total = 0;          /* frames 6-15: no list, nothing learned */
	ct_frames(&t, 10);
	poly(t.f, 0, tex_param(0x2000, 4, 3, 3), 2);
	run_and_check(&t, 6);
	ck_assert_ptr_nonnull(strstr(t.text, "arena tex ds-tex banks=A0\narena pltt ds-pltt\n"));
	ck_assert_ptr_nonnull(strstr(t.text, "\nvramcnt B 0x8b\n"));
	x = must_alloc(&t, "tex", 0x2000);
	ck_assert_int_eq(x->req.shape, VS_REQ_TEX);
	ck_assert_uint_eq(x->req.u.tex.format, VS_TEX_16C);
	ck_assert_int_eq(x->frame, 0);
	ck_assert_int_eq(freed_at(&t, x->id), -1);
	x = must_alloc(&t, "tex", 0x1000);
	ck_assert_uint_eq(x->req.u.tex.format, VS_TEX_4X4);
	ck_assert_int_eq(x->frame, 2);                 /* slot 1 (its index data) since 2 */
	ck_assert_int_eq(freed_at(&t, x->id), 16);     /* the list names it no more from 16 */
	x = must_alloc(&t, "tex", 0x24000);
	ck_assert_int_eq(x->frame, 2);                 /* uploaded at 1, mapped at 2 */
	x = must_alloc(&t, "pltt", 0x20);
	ck_assert_uint_eq(x->req.u.pltt.colours, 16);
	x = must_alloc(&t, "pltt", 0x40);
	ck_assert_uint_eq(x->req.u.pltt.colours, 14);  /* 4x4: offset 5 x 2 colours + 4 */
	x = must_alloc(&t, "pltt", 0x80);
	ck_assert_uint_eq(x->req.u.pltt.colours, 256);
	ck_assert_uint_eq(t.st.list_frames, 9);
	ck_assert_uint_eq(t.st.polys_textured, 3u * 4u + 6u);
	ct_free(&t);
}
END_TEST

/* With texture mapping off (DISP3DCNT bit 0) nothing textured is drawn:
 * textures age out. Two textures overlapping in one frame are joined. */
START_TEST(texture_mapping_off_and_joined)
{
	const ev *x;
	ct t;

	ct_open(&t, NULL);
	t.f->vramcnt[A] = 0x83;
	t.f->dispcnt[0] = D_ON | D_3D | D_BG(0);
	poly(t.f, 0, tex_param(0x0, 4, 4, 3), 0);    /* 128x128 16c: 8 KiB */
	poly(t.f, 1, tex_param(0x1000, 4, 4, 3), 0); /* overlaps its second half */
	fill(t.f, A, 0, 0x3000, 16);
	ct_frames(&t, 3);
	t.f->disp3dcnt = 0;
	run_and_check(&t, 4);
	x = must_alloc(&t, "tex", 0);
	ck_assert_int_eq(x->req.shape, VS_REQ_BYTES);
	ck_assert_uint_eq(x->req.size, 0x3000);
	ck_assert_int_eq(freed_at(&t, x->id), 3);
	ck_assert_uint_eq(t.st.arena[VS_DS_CAP_TEX].merged, 3);
	ct_free(&t);
}
END_TEST

/* 4x4 textures overlapping in a frame are one block of 4x4 texel data
 * (`tex N 4x4`, a model's 4x4 textures uploaded at once), its index data in
 * slot 1 with it; in slot 2 the same, its index data in slot 1's upper half. */
START_TEST(tex4x4_block_joined)
{
	const ev *x;
	ct t;

	ct_open(&t, NULL);
	t.f->vramcnt[A] = 0x83;            /* slot 0 */
	t.f->vramcnt[B] = 0x8B;            /* slot 1: the index data */
	t.f->vramcnt[C] = 0x93;            /* slot 2 */
	t.f->dispcnt[0] = D_ON | D_3D | D_BG(0);
	fill(t.f, A, 0x1000, 0x280, 21);
	fill(t.f, C, 0x800, 0x300, 22);
	poly(t.f, 0, tex_param(0x1000, 2, 2, 5), 0);  /* 32x32 4x4: [0x1000, 0x1100) */
	poly(t.f, 1, tex_param(0x1080, 2, 3, 5), 0);  /* 32x64 4x4: [0x1080, 0x1280) */
	poly(t.f, 2, tex_param(0x40800, 3, 2, 5), 0); /* 64x32 4x4 in slot 2: [0x40800, 0x40a00) */
	poly(t.f, 3, tex_param(0x40900, 2, 3, 5), 0); /* 32x64: [0x40900, 0x40b00) */
	run_and_check(&t, 4);
	x = must_alloc(&t, "tex", 0x1000);
	ck_assert_int_eq(x->req.shape, VS_REQ_TEX);
	ck_assert_uint_eq(x->req.u.tex.format, VS_TEX_4X4);
	ck_assert_uint_eq(x->req.u.tex.width, 0);
	ck_assert_uint_eq(x->req.size, 0x280);
	x = must_alloc(&t, "tex", 0x40800);
	ck_assert_uint_eq(x->req.u.tex.width, 0);
	ck_assert_uint_eq(x->req.size, 0x300);
	ck_assert_msg(strstr(t.text, " tex 640 4x4 ") && strstr(t.text, " tex 768 4x4 "), "%s", t.text);
	ck_assert_uint_eq(t.st.arena[VS_DS_CAP_TEX].merged, 2u * 4u); /* two joins a frame */
	ct_free(&t);
}
END_TEST

/* ---- the whole ------------------------------------------------------------------- */

static void scribble(vs_rng *g, uint8_t *p, size_t n, unsigned spans, size_t maxlen)
{
	while (spans--) {
		size_t at = vs_rng_below(g, (uint32_t)n), len = vs_rng_below(g, (uint32_t)maxlen), i;
		for (i = at; i < at + len && i < n; i++)
			p[i] = (uint8_t)vs_rng_next(g);
	}
}

/* Random registers, OAM, banks and polygons: capture never fails, the
 * trace reads, and replays under `recorded` with no integrity error or
 * diagnostic (so no footprint was given twice and no bank change stranded
 * anything). */
START_TEST(random_frames_replay_clean)
{
	/* 39 and 58 once dated an allocation before an `init` of its arena */
	static const unsigned seeds[] = { 0, 1, 2, 3, 4, 5, 32, 39, 58 };
	vs_rng g = { 0xd5ca0000u + (uint64_t)seeds[_i] };
	vs_ds_capture_options o;
	unsigned n, i;
	uint64_t diags = 0;
	ct t;

	vs_ds_capture_options_default(&o);
	o.grace = 1 + vs_rng_below(&g, 4);
	o.lookback = vs_rng_below(&g, 6);
	ct_open(&t, &o);
	for (n = 0; n < 120; n++) {
		if (vs_rng_below(&g, 6) == 0 || n == 0)
			for (i = 0; i < 9; i++)
				t.f->vramcnt[i] = (uint8_t)(0x80u | vs_rng_below(&g, 32));
		for (i = 0; i < 2; i++)
			if (vs_rng_below(&g, 5) == 0)
				t.f->dispcnt[i] = (vs_rng_next(&g) & ~(D_BLANK | 0x30000u)) | D_ON;
		for (i = 0; i < 8; i++)
			if (vs_rng_below(&g, 6) == 0)
				t.f->bgcnt[i / 4][i % 4] = (uint16_t)vs_rng_next(&g);
		scribble(&g, t.f->oam, sizeof t.f->oam, vs_rng_below(&g, 3), 64);
		scribble(&g, t.f->lcdc, sizeof t.f->lcdc, vs_rng_below(&g, 6), 4096);
		t.f->polys_n = t.f->polys_total = vs_rng_below(&g, 3) ? vs_rng_below(&g, 24) : 0;
		for (i = 0; i < t.f->polys_n; i++) {
			t.f->polys[i].tex_param = vs_rng_next(&g);
			t.f->polys[i].tex_palette = vs_rng_below(&g, 0x2000);
		}
		ct_frames(&t, 1);
	}
	ct_close(&t);
	ck_assert_uint_eq(t.st.frames, 120);
	ck_assert_int_eq(replay_with(&t, NULL, &diags), 0);
	ck_assert_uint_eq(diags, 0);
	replays_clean(&t);
	ct_free(&t);
}
END_TEST

START_TEST(bad_options_refused)
{
	vs_ds_capture_options o;
	char err[256];

	vs_ds_capture_options_default(&o);
	o.grace = 0;
	ck_assert_ptr_null(vs_ds_capture_new(&o, stdout, NULL, err, sizeof err));
	ck_assert_ptr_nonnull(strstr(err, "grace"));
	o.grace = 3;
	o.lookback = 601;
	ck_assert_ptr_null(vs_ds_capture_new(&o, stdout, NULL, err, sizeof err));
	ck_assert_ptr_null(vs_ds_capture_new(NULL, NULL, NULL, err, sizeof err));
}
END_TEST

/* Nothing ever mapped: a trace all the same, that says so. */
START_TEST(nothing_mapped)
{
	ct t;

	ct_open(&t, NULL);
	ct_frames(&t, 3);
	ct_close(&t);
	ck_assert_ptr_nonnull(strstr(t.text, "# capture: no frame mapped a bank and showed anything"));
	ck_assert_int_eq(frame_lines(&t), 3);
	ck_assert_int_eq((int)t.n, 0);
	ct_free(&t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("ds_capture");
	TCase *tc = tcase_create("rules"), *whole = tcase_create("whole");

	tcase_add_test(tc, header_waits_for_banks_and_1d_boundary);
	tcase_add_test(tc, obj_2d_and_bitmap_sprites);
	tcase_add_test(tc, obj_extended_palette);
	tcase_add_test(tc, range_rules);
	tcase_add_test(tc, bg_text_layers_and_extended_palettes);
	tcase_add_test(tc, bg_affine_extended_and_bitmap);
	tcase_add_test(tc, bank_change_frees_first);
	tcase_add_test(tc, banks_over_each_other);
	tcase_add_test(tc, textures_from_the_polygon_list);
	tcase_add_test(tc, texture_mapping_off_and_joined);
	tcase_add_test(tc, tex4x4_block_joined);
	tcase_add_test(tc, bad_options_refused);
	tcase_add_test(tc, nothing_mapped);
	tcase_add_loop_test(whole, random_frames_replay_clean, 0, 9);
	suite_add_tcase(s, tc);
	suite_add_tcase(s, whole);
	return vs_test_main(s);
}
