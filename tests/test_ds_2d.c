/* SPDX-License-Identifier: Zlib */
/* test_ds_2d.c - the DS 2D arenas (ds-obj, ds-bg and the extended
 * palettes): each placement rule passing and failing with its message, both
 * through vs_hw_check and through replays under `recorded` (the VRAMCNT
 * table is test_ds_banks.c's); `vramcnt`, `lock`, `unlock` and `realloc` in a replay; the
 * header's errors; the canonical form; and the bad requests of the DS
 * counted as rule failures, not fragmentation. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "engine/replay.h"
#include "strategies/registry.h"
#include "strategies/strategies.h"
#include "trace/trace.h"
#include "vram/arena.h"
#include "vram/ds_banks.h"
#include "vram/hw.h"

enum { A, B, C, D, E, F, G, H, I };

/* A DS 2D arena of kind k on engine e with its defaults. */
static vs_arena_decl ds_decl(vs_arena_kind k, unsigned e)
{
	vs_arena_decl d;

	vs_arena_decl_default(&d, k);
	vs_arena_decl_engine(&d, e);
	return d;
}

/* vs_hw_check of rq at [off, off + rq->size): 1 when legal; when not,
 * the reason must hold why_has (NULL: any reason). */
static int legal(const vs_arena_decl *d, const vs_request *rq, uint32_t off, const char *why_has)
{
	char why[256] = "";

	if (vs_hw_check(d, rq, off, rq->size, why, sizeof why) == 0)
		return 1;
	ck_assert_msg(!why_has || strstr(why, why_has), "reason '%s' lacks '%s'", why, why_has);
	return 0;
}

static vs_request sprite(unsigned w, unsigned h, unsigned bpp)
{
	unsigned shape, size;

	ck_assert_int_eq(vs_request_sprite_from_dims(w, h, &shape, &size), 0);
	return vs_test_sprite_rq(shape, size, bpp);
}

static vs_request tile(unsigned bpp, int cb, int affine)
{
	vs_request rq = vs_test_tile_rq(1, bpp);

	rq.u.tile.cb1 = (uint8_t)(cb + 1);
	rq.u.tile.affine = (uint8_t)affine;
	return rq;
}

/* ---- the rules, through vs_hw_check -------------------------------------- */

START_TEST(obj_1d_boundary_and_reach)
{
	static const unsigned bound[] = { 32, 64, 128, 256 };
	vs_arena_decl d = ds_decl(VS_ARENA_DS_OBJ, VS_DS_ENGINE_A);
	vs_request s = sprite(8, 8, 4), bytes = vs_test_sprite_rq(0, 0, 4);
	unsigned i;

	bytes.shape = VS_REQ_BYTES;
	ck_assert(!legal(&d, &bytes, 0x10, "not on a 32-byte tile boundary"));
	ck_assert(legal(&d, &bytes, 0x20, NULL)); /* raw bytes: tile-aligned is enough */
	for (i = 0; i < 4; i++) {
		uint32_t b = bound[i];
		d.ds_obj_boundary = (uint8_t)(b / 32u);
		ck_assert(legal(&d, &s, b, NULL));
		ck_assert(legal(&d, &s, 1023u * b, NULL));
		if (b > 32)
			ck_assert(!legal(&d, &s, b + 32u, "1D tile boundary"));
		/* tile number 1024: what OAM's 10 bits cannot say */
		if (1024u * b < d.size) {
			char want[64];
			snprintf(want, sizeof want, "would be tile number 1024: with a %u-byte boundary", b);
			ck_assert(!legal(&d, &s, 1024u * b, want));
		}
	}
	/* engine B: 128 KiB, the 128-byte boundary reaches all of it */
	d = ds_decl(VS_ARENA_DS_OBJ, VS_DS_ENGINE_B);
	d.ds_obj_boundary = 4;
	ck_assert(legal(&d, &s, 0x1FF80, NULL));
	ck_assert(!legal(&d, &s, 0x20000, "outside the 131072-byte arena"));
}
END_TEST

START_TEST(obj_8bpp_even_tiles)
{
	vs_arena_decl d = ds_decl(VS_ARENA_DS_OBJ, VS_DS_ENGINE_A);
	vs_request s8 = sprite(16, 16, 8), s4 = sprite(16, 16, 4);

	ck_assert(legal(&d, &s8, 0x40, NULL));
	ck_assert(!legal(&d, &s8, 0x20, "8bpp sprite at odd tile 1 (1D mapping needs an even tile number)"));
	ck_assert(legal(&d, &s4, 0x20, NULL));
	/* from 64 bytes up every boundary is an even tile */
	d.ds_obj_boundary = 2;
	ck_assert(legal(&d, &s8, 0x40, NULL));
	ck_assert(!legal(&d, &s8, 0x20, "64-byte 1D tile boundary"));
	/* 2D mapping: the low bit is ignored */
	d.ds_obj_boundary = 1;
	d.gba_obj_2d = 1;
	ck_assert(!legal(&d, &s8, 0x20, "2D mapping ignores the tile number's low bit"));
	ck_assert(legal(&d, &s8, 0x40, NULL));
}
END_TEST

START_TEST(obj_2d_matrix)
{
	vs_arena_decl d = ds_decl(VS_ARENA_DS_OBJ, VS_DS_ENGINE_A);
	vs_request wide = sprite(32, 16, 4), tall = sprite(8, 32, 4);
	vs_footprint fp;

	d.gba_obj_2d = 1;
	/* 4 tiles wide: columns 28-31 fit, 29-32 would wrap */
	ck_assert(legal(&d, &wide, 28u * 32u, NULL));
	ck_assert(!legal(&d, &wide, 29u * 32u, "would wrap past column 31 of the 32x32 tile matrix"));
	/* 4 rows from tile 32*28: the last at 32*31, inside; one row lower is not */
	ck_assert(legal(&d, &tall, 28u * 1024u, NULL));
	ck_assert(!legal(&d, &tall, 29u * 1024u, "runs past tile 1023"));
	/* the footprint: rows 1024 bytes apart, whatever memory the engine has */
	vs_hw_footprint(&d, &wide, 0x40, wide.size, &fp);
	ck_assert_uint_eq(fp.row_bytes, 128);
	ck_assert_uint_eq(fp.rows, 2);
	ck_assert_uint_eq(fp.stride, 1024);
}
END_TEST

START_TEST(obj_bitmap_1d)
{
	vs_arena_decl d = ds_decl(VS_ARENA_DS_OBJ, VS_DS_ENGINE_A);
	vs_request bmp = sprite(8, 8, 16); /* 128 bytes */

	ck_assert_uint_eq(bmp.size, 128);
	/* default 1d-128 */
	ck_assert(legal(&d, &bmp, 0x80, NULL));
	ck_assert(!legal(&d, &bmp, 0xA0, "not on the 128-byte 1D bitmap boundary"));
	ck_assert(legal(&d, &bmp, 1023u * 128u, NULL));
	ck_assert(!legal(&d, &bmp, 1024u * 128u, "would be tile number 1024: OAM holds 0-1023"));
	d.ds_obj_bmp = VS_DS_BMP_1D_256;
	ck_assert(!legal(&d, &bmp, 0x80, "not on the 256-byte 1D bitmap boundary"));
	ck_assert(legal(&d, &bmp, 0x100, NULL));
	ck_assert(legal(&d, &bmp, 1023u * 256u, NULL)); /* all of engine A's 256 KiB */
	/* the tile boundary does not bind a bitmap sprite */
	d.ds_obj_boundary = 8;
	ck_assert(legal(&d, &bmp, 0x100, NULL));
}
END_TEST

START_TEST(obj_bitmap_2d)
{
	vs_arena_decl d = ds_decl(VS_ARENA_DS_OBJ, VS_DS_ENGINE_A);
	vs_request big = sprite(64, 64, 16), small = sprite(16, 16, 16);
	vs_footprint fp;

	d.ds_obj_bmp = VS_DS_BMP_2D_128; /* 256 bytes a dot row */
	ck_assert(legal(&d, &small, 0x20, NULL));       /* dot column 16 */
	ck_assert(!legal(&d, &small, 4u * 256u, "is not on an 8x8-dot block of the 128-dot-wide bitmap matrix"));
	ck_assert(legal(&d, &small, 8u * 256u, NULL));
	ck_assert(legal(&d, &big, 0x80, NULL));         /* columns 64-127 */
	ck_assert(!legal(&d, &big, 0xA0, "(dot column 80) is 64 dots wide: its rows would wrap past the 128-dot-wide"));
	/* y 504: tile 63*16 = 1008, fine; y 512 is tile 1024 */
	ck_assert(legal(&d, &small, 504u * 256u, NULL));
	ck_assert(!legal(&d, &small, 512u * 256u, "tile number 1024"));
	vs_hw_footprint(&d, &big, 0x80, big.size, &fp);
	ck_assert_uint_eq(fp.rows, 64);
	ck_assert_uint_eq(fp.row_bytes, 128);
	ck_assert_uint_eq(fp.stride, 256);
	/* 256 dots wide: the same sprite fits at column 80 */
	d.ds_obj_bmp = VS_DS_BMP_2D_256;
	ck_assert(legal(&d, &big, 0xA0, NULL));
	ck_assert(!legal(&d, &big, 0x1A0, "wrap past the 256-dot-wide"));
	/* engine B: 128 KiB, the matrix's rows run past the end of its memory */
	d = ds_decl(VS_ARENA_DS_OBJ, VS_DS_ENGINE_B);
	d.ds_obj_bmp = VS_DS_BMP_2D_256;
	ck_assert(legal(&d, &big, 192u * 512u, NULL));
	ck_assert(!legal(&d, &big, 248u * 512u, "runs past the end of OBJ VRAM"));
	/* the arena's 32-byte units: an odd 8-dot column (16 bytes) is refused,
	 * though the hardware can address it (docs/trace-format.md) */
	ck_assert(!legal(&d, &small, 0x10, "32-byte tile boundary"));
}
END_TEST

START_TEST(bg_character_base)
{
	vs_arena_decl d = ds_decl(VS_ARENA_DS_BG, VS_DS_ENGINE_A);
	vs_request t4 = tile(4, 2, 0), t8 = tile(8, 0, 0), aff = tile(8, 1, 1), any = vs_test_tile_rq(3, 4);

	/* char-base=0: BGxCNT's 16 KiB steps from 0 */
	ck_assert(legal(&d, &t4, 2u * 0x4000u, NULL));
	ck_assert(legal(&d, &t4, 2u * 0x4000u + 1023u * 32u, NULL));
	ck_assert(!legal(&d, &t4, 2u * 0x4000u + 1024u * 32u,
		"out of reach of character base 2 (0x8000): a map entry holds tile numbers 0-1023"));
	ck_assert(!legal(&d, &t4, 0x4000u, "out of reach of character base 2"));
	ck_assert(legal(&d, &t8, 1023u * 64u, NULL));
	ck_assert(!legal(&d, &t8, 0x20, "8bpp tile at 0x20 is not on a 64-byte tile boundary"));
	ck_assert(legal(&d, &aff, 0x4000u + 255u * 64u, NULL));
	ck_assert(!legal(&d, &aff, 0x4000u + 256u * 64u, "tile numbers 0-255"));
	/* without cb= the nearest base below; base 15 is the last */
	ck_assert(legal(&d, &any, 15u * 0x4000u + 1023u * 32u, NULL));
	ck_assert(!legal(&d, &any, 15u * 0x4000u + 1024u * 32u, "character base 15"));
	/* DISPCNT's char-base moves them all by 64 KiB steps */
	d.ds_bg_char64k = 2;
	ck_assert(!legal(&d, &any, 0x10000, "lies below the character base 0x20000 DISPCNT sets"));
	ck_assert(legal(&d, &any, 0x20000, NULL));
	ck_assert(legal(&d, &t4, 0x20000u + 2u * 0x4000u, NULL));
	ck_assert(!legal(&d, &t4, 2u * 0x4000u, "lies below the character base"));
	/* engine B: bases from 0 */
	d = ds_decl(VS_ARENA_DS_BG, VS_DS_ENGINE_B);
	ck_assert(legal(&d, &t4, 0x8000, NULL));
}
END_TEST

START_TEST(bg_screen_base)
{
	vs_arena_decl d = ds_decl(VS_ARENA_DS_BG, VS_DS_ENGINE_A);
	vs_request m = vs_test_map_rq(0, 0), bytes = vs_test_map_rq(0, 0);

	bytes.shape = VS_REQ_BYTES;
	ck_assert(legal(&d, &m, 0, NULL));
	ck_assert(legal(&d, &m, 31u * 0x800u, NULL));
	ck_assert(!legal(&d, &m, 32u * 0x800u, "not a screen base: 2 KiB steps 0-31 from 0x0"));
	ck_assert(!legal(&d, &m, 0x400, "not a screen base"));
	d.ds_bg_screen64k = 1;
	ck_assert(!legal(&d, &m, 0x800, "2 KiB steps 0-31 from 0x10000"));
	ck_assert(legal(&d, &m, 0x10800, NULL));
	ck_assert(!legal(&d, &bytes, 0x10, "BG data at 0x10 is not on a 32-byte boundary"));
	ck_assert(legal(&d, &bytes, 0x20, NULL));
}
END_TEST

START_TEST(extpal_palettes)
{
	vs_arena_decl d = ds_decl(VS_ARENA_DS_BG_EXTPAL, VS_DS_ENGINE_A);
	vs_request p = vs_test_pltt_rq(256, 0);

	ck_assert_uint_eq(p.size, 512);
	ck_assert(legal(&d, &p, 0x200, NULL));
	ck_assert(legal(&d, &p, 0x7E00, NULL));
	ck_assert(!legal(&d, &p, 0x100, "not on a 256-colour palette (512 bytes)"));
	d = ds_decl(VS_ARENA_DS_OBJ_EXTPAL, VS_DS_ENGINE_B);
	ck_assert_uint_eq(d.size, 0x2000);
	ck_assert(legal(&d, &p, 0x1E00, NULL));
	ck_assert(!legal(&d, &p, 0x2000, "outside the 8192-byte arena"));
}
END_TEST

/* ---- replays ----------------------------------------------------------------- */

/* A replay of text as "d.trace" with strategy st on every arena (NULL:
 * `recorded`), not run yet. */
static vs_replay *start(vs_test_replay *x, const char *text, const vs_strategy *st)
{
	char err[512];
	vs_replay_config cfg;
	int i;

	vs_replay_config_default(&cfg);
	for (i = 0; i < VS_TRACE_MAX_ARENAS; i++)
		cfg.strategy[i] = st ? st : vs_strategy_find("recorded");
	ck_assert_msg(vs_test_replay_open(x, text, "d.trace", &cfg, err, sizeof err) != NULL, "%s", err);
	return x->r;
}

/* The same, run to the end. */
static vs_replay *play(vs_test_replay *x, const char *text, const vs_strategy *st)
{
	start(x, text, st);
	x->rc = vs_replay_run(x->r, 0);
	ck_assert_msg(x->rc == 0, "%s", vs_replay_error(x->r));
	return x->r;
}

/* A message of the replay at trace line `line` starting with head after
 * "d.trace:LINE: " and holding text. */
static void want_msg(const vs_test_replay *x, unsigned line, const char *head, const char *text)
{
	char start[128];
	const char *p = x->msgs;

	snprintf(start, sizeof start, "d.trace:%u: %s", line, head);
	for (; *p; p = strchr(p, '\n') + 1) {
		const char *e = strchr(p, '\n');
		char one[1024];
		snprintf(one, sizeof one, "%.*s", (int)(e - p), p);
		if (strncmp(one, start, strlen(start)) == 0 && strstr(one, text))
			return;
	}
	ck_abort_msg("no message '%s ... %s' in:\n%s", start, text, x->msgs);
}

#define RULE "error: integrity: hardware rule: "

/* Each rule through a replay: the game's placements (at=) checked. */
START_TEST(replay_rules_1d)
{
	vs_test_replay x;
	vs_replay *r = play(&x,
		"vramsim-trace 1\n"
		"arena obj ds-obj banks=A0 boundary=64 bmp=1d-256\n"
		"arena bg ds-bg char-base=1 screen-base=1 banks=B0C1\n"
		"arena pal ds-bg-extpal\n"
		"arena opal ds-obj-extpal\n"
		"alloc 1 obj sprite 16x16 4bpp at=0x06400040\n"
		"alloc 2 obj sprite 16x16 4bpp at=0x06400060\n"   /* 7: off the 64-byte boundary */
		"alloc 3 obj sprite 8x8 4bpp at=0x06410000\n"     /* 8: tile 1024 */
		"alloc 4 obj sprite 16x16 8bpp at=0x06400100\n"
		"alloc 5 obj sprite 8x8 bmp at=0x06400200\n"
		"alloc 6 obj sprite 8x8 bmp at=0x06400280\n"      /* 11: off the 256-byte bitmap boundary */
		"alloc 7 bg tile 5 4bpp cb=0 at=0x06010020\n"
		"alloc 8 bg tile 6 4bpp at=0x06008000\n"          /* 13: below DISPCNT's character base */
		"alloc 9 bg tile 7 8bpp cb=1 at=0x06014000\n"
		"alloc 10 bg tile 8 4bpp cb=0 at=0x06018000\n"    /* 15: tile number 1024 of base 0 */
		"alloc 11 bg map text 256x256 at=0x06010800\n"
		"alloc 12 bg map text 256x256 at=0x06000800\n"    /* 17: below DISPCNT's screen base */
		"alloc 13 pal pltt 256 at=0x200\n"
		"alloc 14 pal pltt 256 at=0x300\n"                /* 19: off a 512-byte palette */
		"alloc 15 opal pltt 256 at=0x1e00\n", NULL);

	ck_assert_uint_eq(vs_replay_check_count(r, VS_CHECK_RULE), 7);
	ck_assert_uint_eq(vs_replay_check_total(r), 7);
	want_msg(&x, 7, RULE, "id 2 at 0x6400060: sprite at 0x60 is not on the 64-byte 1D tile boundary");
	want_msg(&x, 8, RULE, "sprite at 0x10000 would be tile number 1024: with a 64-byte boundary OAM reaches 0x10000");
	want_msg(&x, 11, RULE, "bitmap sprite at 0x280 is not on the 256-byte 1D bitmap boundary");
	want_msg(&x, 13, RULE, "BG tile at 0x8000 lies below the character base 0x10000 DISPCNT sets");
	want_msg(&x, 15, RULE, "BG tile at 0x18000 is out of reach of character base 0 (0x10000)");
	want_msg(&x, 17, RULE, "BG map at 0x800 is not a screen base: 2 KiB steps 0-31 from 0x10000");
	want_msg(&x, 19, RULE, "extended palette data at 0x300 is not on a 256-colour palette (512 bytes)");
	ck_assert_uint_eq(vs_replay_metrics(r, 0)->allocs, 6); /* the broken ones too */
	vs_test_replay_close(&x);
}
END_TEST

START_TEST(replay_rules_2d)
{
	vs_test_replay x;
	vs_replay *r = play(&x,
		"vramsim-trace 1\n"
		"arena obj ds-obj map=2d\n"
		"arena sub ds-obj engine=b bmp=2d-128\n"
		"alloc 1 obj sprite 32x16 4bpp at=0x06400380\n"   /* tile 28: columns 28-31 */
		"alloc 2 obj sprite 32x16 4bpp at=0x064003a0\n"   /* 5: tile 29, wraps */
		"alloc 3 obj sprite 8x32 4bpp at=0x06407400\n"    /* 6: tile 928, rows to 1024 */
		"alloc 4 obj sprite 16x16 8bpp at=0x06400020\n"   /* 7: odd tile */
		"alloc 5 sub sprite 64x64 bmp at=0x06600080\n"    /* dot columns 64-127 */
		"alloc 6 sub sprite 64x64 bmp at=0x066000a0\n"    /* 9: columns 80-143 */
		"alloc 7 sub sprite 16x16 bmp at=0x06600420\n"    /* 10: dot row 4 */
		"free 1\n"
		"free 5\n", NULL);

	ck_assert_uint_eq(vs_replay_check_count(r, VS_CHECK_RULE), 4);
	ck_assert_uint_eq(vs_replay_check_count(r, VS_CHECK_BOUNDS), 1);
	ck_assert_uint_eq(vs_replay_check_total(r), 5);
	want_msg(&x, 5, RULE, "2D sprite at tile 29 (column 29) is 4 tiles wide: its rows would wrap past column 31");
	want_msg(&x, 6, "error: integrity: out of bounds: ", "2D sprite at tile 928 runs past tile 1023 (4 rows, 32 tiles apart)");
	want_msg(&x, 7, RULE, "8bpp sprite at odd tile 1 (2D mapping ignores the tile number's low bit");
	want_msg(&x, 9, RULE, "bitmap sprite at 0xa0 (dot column 80) is 64 dots wide: its rows would wrap past the "
		"128-dot-wide bitmap matrix");
	want_msg(&x, 10, RULE, "bitmap sprite at 0x420 is not on an 8x8-dot block of the 128-dot-wide bitmap matrix");
	vs_test_replay_close(&x);
}
END_TEST

#define UNMAPPED "error: integrity: unmapped bank: "

/* VRAMCNT written during a trace moves memory between arenas. */
START_TEST(replay_vramcnt_moves_memory)
{
	vs_test_replay x;
	vs_replay *r;
	const vs_metrics *obj, *bg;

	r = play(&x,
		"vramsim-trace 1\n"
		"arena obj ds-obj\n"                                 /* B0: 0x06400000-0x0641ffff */
		"arena bg ds-bg\n"                                   /* A0: 0x06000000-0x0601ffff */
		"alloc 1 obj sprite 64x64 4bpp at=0x06400000\n"
		"alloc 2 obj sprite 64x64 4bpp at=0x06400800\n"
		"vramcnt B 0x89\n"                                   /* 6: B to engine A BG at 0x06020000 */
		"alloc 3 bg 4096 at=0x06020000\n"                    /* what arrived is free */
		"free 1\n"                                           /* freed where no bank maps */
		"alloc 4 obj sprite 64x64 4bpp at=0x06400000\n"      /* 9: still not usable */
		"vramcnt B 0x82\n"                                   /* 10: back to OBJ: id 3 stranded in bg */
		"alloc 5 obj sprite 64x64 4bpp at=0x06401000\n"      /* usable again */
		"free 3\n"
		"alloc 6 bg 4096 at=0x06020000\n", NULL);            /* 13: gone from bg again */

	ck_assert_uint_eq(vs_replay_check_count(r, VS_CHECK_UNMAPPED), 3);
	want_msg(&x, 6, UNMAPPED, "id 1 (allocated at line 4) lives at 0x6400000, which VRAMCNT_B = 0x89 takes out of "
		"arena 'obj'");
	want_msg(&x, 6, UNMAPPED, "id 2 (allocated at line 5) lives at 0x6400800, which VRAMCNT_B = 0x89");
	want_msg(&x, 10, UNMAPPED, "id 3 (allocated at line 7) lives at 0x6020000, which VRAMCNT_B = 0x82 takes out of "
		"arena 'bg'");
	want_msg(&x, 9, RULE, "id 4 at 0x6400000 takes unit at 0x6400000, which the hardware reserves");
	want_msg(&x, 13, RULE, "id 6 at 0x6020000 takes unit at 0x6020000, which the hardware reserves");
	ck_assert_uint_eq(vs_replay_check_count(r, VS_CHECK_RULE), 2);
	ck_assert_uint_eq(vs_replay_check_total(r), 5);
	obj = vs_replay_metrics(r, 0);
	bg = vs_replay_metrics(r, 1);
	ck_assert_uint_eq(obj->usable_bytes, 0x20000);
	ck_assert_uint_eq(bg->usable_bytes, 0x20000);
	ck_assert_uint_eq(obj->allocs, 4); /* 1, 2, 4 (broken) and 5 */
	vs_test_replay_close(&x);
}
END_TEST

/* The same moves seen event by event: usable and free bytes follow the bank. */
START_TEST(replay_vramcnt_usable_bytes)
{
	vs_test_replay x;
	vs_replay *r = start(&x,
		"vramsim-trace 1\n"
		"arena obj ds-obj banks=B0\n"
		"arena bg ds-bg banks=A0\n"
		"alloc 1 obj bytes 0x1000 at=0x06400000\n"
		"vramcnt B 0x89\n"
		"free 1\n"
		"vramcnt B 0x00\n"
		"vramcnt A 0x00\n", NULL);

	ck_assert_int_eq(vs_replay_step(r), 1);
	ck_assert_uint_eq(vs_replay_metrics(r, 0)->usable_bytes, 0x20000);
	ck_assert_uint_eq(vs_replay_metrics(r, 0)->free_bytes, 0x1F000);
	ck_assert_int_eq(vs_replay_step(r), 1); /* B leaves obj for bg */
	ck_assert_uint_eq(vs_replay_metrics(r, 0)->free_bytes, 0);
	ck_assert_uint_eq(vs_replay_metrics(r, 1)->usable_bytes, 0x40000);
	ck_assert_uint_eq(vs_replay_metrics(r, 1)->free_bytes, 0x40000);
	ck_assert_uint_eq(vs_replay_metrics(r, 1)->largest_free, 0x40000);
	ck_assert_int_eq(vs_replay_step(r), 1); /* the free leaves nothing usable in obj */
	ck_assert_uint_eq(vs_replay_metrics(r, 0)->free_bytes, 0);
	ck_assert_uint_eq(vs_replay_metrics(r, 0)->usable_bytes, 0);
	ck_assert_int_eq(vs_replay_step(r), 1); /* B disabled: LCDC, nobody's */
	ck_assert_uint_eq(vs_replay_metrics(r, 1)->usable_bytes, 0x20000);
	ck_assert_int_eq(vs_replay_step(r), 1);
	ck_assert_uint_eq(vs_replay_metrics(r, 1)->usable_bytes, 0);
	ck_assert_int_eq(vs_replay_step(r), 0);
	ck_assert_uint_eq(vs_replay_check_count(r, VS_CHECK_UNMAPPED), 1); /* id 1, when B left */
	ck_assert_uint_eq(vs_replay_check_total(r), 1);
	vs_test_replay_close(&x);
}
END_TEST

/* After a bank left with allocations on it, every way of letting them go
 * (free, reset, restore) leaves that memory reserved. */
START_TEST(replay_vramcnt_drop_rereserves)
{
	static const char *const drops[] = { "free 1\nfree 2\n", "reset obj\n", "reset\n", "restore start\n" };
	unsigned i;

	for (i = 0; i < 4; i++) {
		vs_test_replay x;
		vs_test_text t = { 0 };
		vs_replay *r;

		vs_test_put(&t, "vramsim-trace 1\narena obj ds-obj\narena bg ds-bg\nsave start\n"
			"alloc 1 obj sprite 64x64 4bpp at=0x06400000\n"
			"alloc 2 obj bytes 0x1000 at=0x06401000\n"
			"vramcnt B 0x89\n"    /* 7 */
			"%s"
			"alloc 3 obj sprite 8x8 4bpp at=0x06400000\n", drops[i]);
		r = play(&x, t.s, NULL);
		ck_assert_uint_eq(vs_replay_check_count(r, VS_CHECK_UNMAPPED), 2);
		ck_assert_msg(vs_replay_check_count(r, VS_CHECK_RULE) == 1, "after '%s' the memory is usable:\n%s", drops[i],
			x.msgs);
		ck_assert_uint_eq(vs_replay_metrics(r, 0)->usable_bytes, 0);
		ck_assert_uint_eq(vs_replay_metrics(r, 0)->free_bytes, 0);
		vs_test_replay_close(&x);
		free(t.s);
	}
}
END_TEST

/* ---- a strategy that watches: lock, vramcnt, realloc ------------------------ */

typedef struct probe {
	uint32_t next, keys, off_of[64], len_of[64];
	unsigned allocs, frees, prevs, vramcnts, unlocks;
	uint32_t locked, prev_key;
	uint8_t bank, value;
} probe;

static int probe_init(void *p, const vs_arena_decl *a, const char *o, uint8_t *mem, char *err, size_t errlen)
{
	(void)a; (void)o; (void)mem; (void)err; (void)errlen;
	memset(p, 0, sizeof(probe));
	return 0;
}

/* A bump allocator; a realloc keeps its place when the request still fits. */
static int probe_alloc(void *p, const vs_request *rq, vs_placement *out)
{
	probe *st = p;
	uint32_t len = (rq->size + 31u) & ~31u, key;

	st->allocs++;
	if (rq->has_prev) {
		st->prevs++;
		st->prev_key = rq->prev_key;
		if (rq->prev_key < 64 && len <= st->len_of[rq->prev_key]) {
			vs_placement_simple(out, st->off_of[rq->prev_key], rq->size, rq->prev_key);
			return VS_OK;
		}
	}
	if (st->keys == 63)
		return VS_ERR_NOSPACE;
	key = ++st->keys;
	st->off_of[key] = st->next;
	st->len_of[key] = len;
	vs_placement_simple(out, st->next, rq->size, key);
	st->next += len;
	return VS_OK;
}

static int probe_free(void *p, const vs_placement *pl) { (void)pl; ((probe *)p)->frees++; return VS_OK; }
static void probe_reset(void *p) { (void)p; }
static void probe_walk(void *p, vs_extent_fn fn, void *ud) { (void)p; (void)fn; (void)ud; }

static void probe_vramcnt(void *p, unsigned bank, uint8_t value)
{
	probe *st = p;

	st->vramcnts++;
	st->bank = (uint8_t)bank;
	st->value = value;
}

static void probe_lock(void *p, unsigned bank, int locked)
{
	probe *st = p;

	st->locked = locked ? st->locked | 1u << bank : st->locked & ~(1u << bank);
	st->unlocks += !locked;
}

#define PROBE(NAME, FLAGS) { .abi = VS_STRATEGY_ABI, .name = NAME, .summary = "test: watches its calls", \
	.arenas = VS_ARENA_BIT(VS_ARENA_DS_OBJ) | VS_ARENA_BIT(VS_ARENA_DS_TEX), \
	.flags = VS_STRAT_RELOCATABLE | VS_STRAT_NO_MEM | (FLAGS), .state_size = sizeof(probe), .init = probe_init, \
	.alloc = probe_alloc, .free = probe_free, .reset = probe_reset, .walk_free = probe_walk, \
	.vramcnt = probe_vramcnt, .lock = probe_lock }

static const vs_strategy probe_plain = PROBE("test-ds2d-probe", 0);
static const vs_strategy probe_realloc = PROBE("test-ds2d-realloc", VS_STRAT_REALLOC);

static const vs_strategy *registered(const vs_strategy *s)
{
	char err[256];

	if (!vs_strategy_find(s->name))
		ck_assert_msg(vs_strategy_register(s, err, sizeof err) == 0, "%s", err);
	return vs_strategy_find(s->name);
}

START_TEST(lock_and_vramcnt_reach_the_strategy)
{
	vs_test_replay x;
	vs_replay *r = play(&x,
		"vramsim-trace 1\n"
		"arena tex ds-tex\n"
		"lock A\n"
		"lock C\n"
		"unlock A\n"
		"lock I\n"
		"vramcnt D 0x00\n"
		"alloc 1 tex 64x64 16c\n", registered(&probe_plain));
	const probe *st = vs_replay_strategy_state(r, 0);

	ck_assert_uint_eq(st->locked, 1u << C | 1u << I);
	ck_assert_uint_eq(st->unlocks, 1);
	ck_assert_uint_eq(st->vramcnts, 1);
	ck_assert_uint_eq(st->bank, D);
	ck_assert_uint_eq(st->value, 0);
	ck_assert_uint_eq(st->allocs, 1);
	/* the replay took slot 3 away before telling it */
	ck_assert_uint_eq(vs_replay_metrics(r, 0)->usable_bytes, 0x60000);
	ck_assert_uint_eq(vs_replay_check_total(r), 0);
	vs_test_replay_close(&x);
}
END_TEST

static const char realloc_trace[] =
	"vramsim-trace 1\n"
	"arena obj ds-obj\n"
	"realloc 1 sprite 32x32 4bpp\n"   /* not live: an alloc */
	"realloc 1 sprite 16x16 4bpp\n"   /* live, smaller */
	"realloc 1 sprite 64x64 4bpp\n"   /* live, larger */
	"free 1\n";

typedef struct where { uint64_t id; uint32_t off, key; int n; } where;

static void find_id(void *ud, const vs_live *l)
{
	where *w = ud;

	if (l->id == w->id)
		*w = (where){ w->id, l->pl.offset, l->pl.key, w->n + 1 };
}

static where live(vs_replay *r, uint64_t id)
{
	where w = { id, 0, 0, 0 };

	vs_replay_live_walk(r, find_id, &w);
	return w;
}

/* An ordinary strategy: a realloc of a live id is its free, then an alloc. */
START_TEST(realloc_free_then_alloc)
{
	vs_test_replay x;
	vs_replay *r = start(&x, realloc_trace, registered(&probe_plain));
	const probe *st = vs_replay_strategy_state(r, 0);

	ck_assert_int_eq(vs_replay_step(r), 1);
	ck_assert(st->allocs == 1 && st->frees == 0 && live(r, 1).off == 0);
	ck_assert_int_eq(vs_replay_step(r), 1);
	ck_assert(st->allocs == 2 && st->frees == 1 && st->prevs == 0);
	ck_assert(live(r, 1).n == 1 && live(r, 1).off == 0x200 && live(r, 1).key == 2);
	ck_assert_int_eq(vs_replay_step(r), 1);
	ck_assert(st->allocs == 3 && st->frees == 2 && live(r, 1).off == 0x280);
	ck_assert_int_eq(vs_replay_run(r, 0), 0);
	ck_assert_uint_eq(st->frees, 3);
	ck_assert_uint_eq(live(r, 1).n, 0);
	ck_assert_uint_eq(vs_replay_check_total(r) + vs_replay_diag_total(r), 0);
	vs_test_replay_close(&x);
}
END_TEST

/* A VS_STRAT_REALLOC strategy: one call with has_prev and prev_key. */
START_TEST(realloc_one_call)
{
	vs_test_replay x;
	vs_replay *r = start(&x, realloc_trace, registered(&probe_realloc));
	const probe *st = vs_replay_strategy_state(r, 0);

	ck_assert_int_eq(vs_replay_step(r), 1);
	ck_assert(st->allocs == 1 && st->prevs == 0);
	ck_assert_int_eq(vs_replay_step(r), 1); /* kept in place: no overlap with itself */
	ck_assert(st->allocs == 2 && st->frees == 0 && st->prevs == 1 && st->prev_key == 1);
	ck_assert(live(r, 1).n == 1 && live(r, 1).off == 0 && live(r, 1).key == 1);
	ck_assert_int_eq(vs_replay_step(r), 1); /* moved: the strategy let the old place go itself */
	ck_assert(st->allocs == 3 && st->frees == 0 && st->prevs == 2 && st->prev_key == 1);
	ck_assert(live(r, 1).off == 0x200 && live(r, 1).key == 2);
	ck_assert_uint_eq(vs_replay_metrics(r, 0)->live_bytes, 2048);
	ck_assert_int_eq(vs_replay_run(r, 0), 0);
	ck_assert_uint_eq(st->frees, 1);
	ck_assert_uint_eq(vs_replay_check_total(r) + vs_replay_diag_total(r), 0);
	vs_test_replay_close(&x);
}
END_TEST

/* ---- the trace format ---------------------------------------------------------- */

/* Reads text as "h.trace" to its end: the first error, or "" */
static const char *read_error(const char *text)
{
	static char err[1024];
	FILE *fp = fmemopen((void *)text, strlen(text), "rb");
	vs_trace_reader *rd;
	vs_event ev;
	int rc;

	ck_assert_ptr_nonnull(fp);
	rd = vs_trace_open_stream(fp, "h.trace", err, sizeof err);
	if (rd) {
		err[0] = '\0';
		while ((rc = vs_trace_next(rd, &ev)) == 1)
			;
		if (rc < 0)
			snprintf(err, sizeof err, "%s", vs_trace_error(rd));
		vs_trace_close(rd);
	}
	fclose(fp);
	return err;
}

#define V "vramsim-trace 1\n"

START_TEST(header_errors)
{
	static const struct { const char *text, *want; } cases[] = {
		{ V "arena o ds-obj engine=c\n", "h.trace:2:23: error: engine: expected a or b (the DS's 2D engines), got 'c'" },
		{ V "arena o ds-obj boundary=48\n",
			"h.trace:2:25: error: boundary: the 1D OBJ tile boundary is 32, 64, 128 or 256 bytes, not 48" },
		{ V "arena o ds-obj engine=b bmp=1d-256\n",
			"h.trace:2:9: error: arena 'o': engine B has no 256-byte 1D bitmap boundary (bmp=1d-256)" },
		{ V "arena g ds-bg engine=b char-base=1\n",
			"h.trace:2:9: error: arena 'g': engine B has no DISPCNT BG bases (char-base=, screen-base=)" },
		{ V "arena g ds-bg engine=b screen-base=2\n",
			"h.trace:2:9: error: arena 'g': engine B has no DISPCNT BG bases (char-base=, screen-base=)" },
		{ V "arena o ds-obj banks=A0\narena g ds-bg\n",
			"h.trace:3:9: error: arena 'g': bank A is already mapped to arena 'o' (VRAMCNT_A holds one mapping; "
			"say banks= for each)" },
		{ V "arena t ds-tex\narena o ds-obj engine=b\n",
			"h.trace:3:9: error: arena 'o': bank D is already mapped to arena 't' (VRAMCNT_D holds one mapping; "
			"say banks= for each)" },
		{ V "arena g ds-bg banks=A0E0\n", "h.trace:2:21: error: banks: banks A and E both map 0x6000000" },
		{ V "arena o ds-obj banks=F1E0\n", "h.trace:2:22: error: banks: banks E and F both map 0x6404000" },
		{ V "arena o ds-obj banks=C0\n", "h.trace:2:22: error: banks: bank C cannot hold engine A OBJ VRAM" },
		{ V "arena o ds-obj engine=b banks=H0\n", "h.trace:2:31: error: banks: bank H cannot hold engine B OBJ VRAM" },
		{ V "arena p ds-obj-extpal banks=E0\n",
			"h.trace:2:29: error: banks: bank E cannot hold engine A OBJ extended palettes" },
		{ V "arena o ds-obj banks=A2\n",
			"h.trace:2:22: error: banks: bank A has no offset 2 as engine A OBJ VRAM (OFS 0-1)" },
		{ V "arena g ds-bg banks=F4\n", "h.trace:2:21: error: banks: bank F has no offset 4 as engine A BG VRAM (OFS 0-3)" },
		{ V "arena p ds-bg-extpal banks=G2\n",
			"h.trace:2:28: error: banks: bank G has no offset 2 as engine A BG extended palettes (OFS 0-1)" },
		{ V "arena o ds-obj bmp=2d-64\n",
			"h.trace:2:20: error: bmp: expected 2d-128, 2d-256, 1d-128 or 1d-256 (bitmap OBJ layout), got '2d-64'" },
		{ V "arena g ds-bg char-base=8\n", "h.trace:2:25: error: char-base: DISPCNT's char-base is 0-7 (64 KiB steps), not 8" },
		{ V "arena o ds-obj char-base=1\n", "h.trace:2:16: error: char-base= applies to ds-bg arenas" },
		{ V "arena g ds-bg boundary=64\n", "h.trace:2:15: error: boundary= applies to ds-obj arenas" },
		{ V "arena t ds-tex engine=a\n",
			"h.trace:2:16: error: engine= applies to the DS 2D arenas (ds-obj, ds-bg and their extended palettes)" },
		{ V "arena o ds-obj engine=a engine=b\n", "h.trace:2:25: error: engine= given twice" },
		/* statements */
		{ V "arena o gba-obj\nvramcnt A 0x81\n", "h.trace:3:1: error: vramcnt: this trace declares no DS VRAM arena" },
		{ V "arena o ds-obj\nvramcnt J 0x81\n", "h.trace:3:9: error: vramcnt: 'J' is not a bank letter A-I" },
		{ V "arena o ds-obj\nvramcnt A 0x160\n",
			"h.trace:3:11: error: vramcnt: 0x160 is not a VRAMCNT value (bits 0-2 MST, 3-4 OFS, 7 enable)" },
		{ V "arena o ds-obj\nvramcnt A 0xa1\n",
			"h.trace:3:11: error: vramcnt: 0xa1 is not a VRAMCNT value (bits 0-2 MST, 3-4 OFS, 7 enable)" },
		{ V "arena o ds-obj\nvramcnt A\n",
			"h.trace:3:10: error: vramcnt: expected 'vramcnt BANK VALUE' (a bank A-I and the register's new value)" },
		{ V "arena o ds-obj\nlock\n", "h.trace:3:5: error: lock: expected 'lock BANK' (a bank A-I)" },
		{ V "arena o ds-obj\nunlock a\n", "h.trace:3:8: error: unlock: 'a' is not a bank letter A-I" },
		{ V "arena o ds-obj\nrealloc 1\n", "h.trace:3:10: error: realloc: expected 'realloc ID [ARENA] REQUEST [key=value ...]'" },
		{ V "arena o gba-obj\nalloc 1 sprite 8x8 bmp\n", "h.trace:3:20: error: sprite: expected 4bpp or 8bpp, got 'bmp'" },
		{ V "arena o ds-obj\nalloc 1 sprite 8x8 16bpp\n",
			"h.trace:3:20: error: sprite: expected 4bpp or 8bpp or bmp, got '16bpp'" },
		{ V "arena g ds-bg\nalloc 1 tile 3 4bpp cb=16\n",
			"h.trace:3:24: error: character base 16 does not exist (0-15, BGxCNT bits 2-5)" },
		{ V "arena o ds-obj\nalloc 1 pltt 16\n",
			"h.trace:3:9: error: pltt requests go to a ds-pltt or ds-bg-extpal or ds-obj-extpal arena, not ds-obj" },
		{ V "arena p ds-obj-extpal\nalloc 1 tex 8x8 16c\n", "h.trace:3:9: error: tex requests go to a ds-tex arena, "
			"not ds-obj-extpal" },
	};
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
		ck_assert_msg(strcmp(read_error(cases[i].text), cases[i].want) == 0, "case %zu:\n  want %s\n  got  %s", i,
			cases[i].want, read_error(cases[i].text));
	/* and what is accepted: banks on any engine in any order of keys */
	ck_assert_str_eq(read_error(V "arena o ds-obj banks=D0 engine=b boundary=256 bmp=2d-256 map=2d\n"
		"arena g ds-bg engine=b banks=H0\narena x ds-bg-extpal banks=F0G1\narena y ds-obj-extpal engine=b\n"
		"arena m ds-bg banks=A0B1C2 char-base=7 screen-base=7\n"), "");
}
END_TEST

START_TEST(canonical_form)
{
	static const char in[] =
		"vramsim-trace 1\n"
		"arena obj ds-obj   bmp=2d-256 boundary=128 map=1d banks=B1A0   # A and B\n"
		"arena sub ds-obj engine=b banks=D0 map=2d\n"
		"arena bg ds-bg screen-base=1 char-base=2 banks=C0 engine=a\n"
		"arena bgb ds-bg engine=b banks=I0\n"
		"arena pal ds-bg-extpal banks=F1\n"
		"arena opal ds-obj-extpal banks=G0\n"
		"arena palb ds-bg-extpal engine=b\n"
		"arena tp ds-pltt\n"
		"vramcnt B 137\n"
		"lock  D\n"
		"unlock D\n"
		"realloc 1 obj sprite 16x16 bmp at=0x06400000 tag=hero\n"
		"alloc 2 bg tile 3 4bpp cb=15 at=0x06008000\n"
		"realloc 3 pal pltt 256\n"
		"alloc 4 sub sprite 32x32 8bpp\n";
	static const char want[] =
		"vramsim-trace 1\n"
		"arena obj ds-obj banks=A0B1 boundary=128 bmp=2d-256\n"
		"arena sub ds-obj engine=b map=2d\n"
		"arena bg ds-bg banks=C0 char-base=2 screen-base=1\n"
		"arena bgb ds-bg engine=b banks=I0\n"
		"arena pal ds-bg-extpal banks=F1\n"
		"arena opal ds-obj-extpal banks=G0\n"
		"arena palb ds-bg-extpal engine=b\n"
		"arena tp ds-pltt\n"
		"vramcnt B 0x89\n"
		"lock D\n"
		"unlock D\n"
		"realloc 1 obj sprite 16x16 bmp tag=hero at=0x6400000\n"
		"alloc 2 bg tile 3 4bpp cb=15 at=0x6008000\n"
		"realloc 3 pal pltt 256\n"
		"alloc 4 sub sprite 32x32 8bpp\n";
	char out[4096], again[4096];

	vs_test_reformat(in, out, sizeof out);
	ck_assert_str_eq(out, want);
	vs_test_reformat(out, again, sizeof again);
	ck_assert_str_eq(again, out);
}
END_TEST

/* ---- bad requests: refused as rule failures, not fragmentation ----------------- */

static const vs_metrics *fails(vs_replay *r, int a, unsigned rule, unsigned frag)
{
	const vs_metrics *m = vs_replay_metrics(r, a);

	ck_assert_msg(m->fail[VS_FAIL_RULE] == rule && m->fail[VS_FAIL_FRAGMENTED] == frag,
		"arena %d: %llu rule, %llu fragmented, %llu out of memory, %llu unsupported; want %u rule, %u fragmented", a,
		(unsigned long long)m->fail[VS_FAIL_RULE], (unsigned long long)m->fail[VS_FAIL_FRAGMENTED],
		(unsigned long long)m->fail[VS_FAIL_OOM], (unsigned long long)m->fail[VS_FAIL_UNSUPPORTED], rule, frag);
	return m;
}

/* With a 32-byte boundary OAM reaches 32 KiB of the 128 KiB bank A maps:
 * once that is full a sprite has nowhere to go, however much is free
 * above it, in one run or in many. */
START_TEST(bad_sprite_past_the_reach)
{
	vs_test_replay x;
	vs_test_text t = { 0 };
	vs_replay *r;
	unsigned i;

	vs_test_put(&t, V "arena obj ds-obj banks=A0\n");
	for (i = 1; i <= 17; i++)
		vs_test_put(&t, "alloc %u sprite 64x64 4bpp\n", i);
	r = play(&x, t.s, vs_strategy_find("gba-obj-first-fit"));
	ck_assert_uint_eq(vs_replay_metrics(r, 0)->allocs, 16);
	fails(r, 0, 1, 0);
	ck_assert_uint_eq(vs_replay_check_total(r), 0);
	vs_test_replay_close(&x);
	free(t.s);
	/* the game's own answers: the reach full, 2 KiB holes above it */
	t.s = NULL;
	t.len = t.cap = 0;
	vs_test_put(&t, V "arena obj ds-obj banks=A0\nalloc 1 bytes 32K at=0x06400000\n");
	for (i = 0; i < 24; i++)
		vs_test_put(&t, "alloc %u bytes 2048 at=0x%x\n", 2 + i, 0x06408800u + i * 0x1000u);
	vs_test_put(&t, "alloc 90 sprite 64x64 8bpp at=none\n"   /* 4 KiB: no hole takes it, and none may */
		"free 1\nalloc 91 bytes 2048 at=0x06400000\n"
		"alloc 92 sprite 64x64 8bpp at=none\n");          /* 4 KiB in the reach, not in one run */
	r = play(&x, t.s, NULL);
	fails(r, 0, 1, 1);
	ck_assert_uint_eq(vs_replay_check_total(r), 0);
	vs_test_replay_close(&x);
	free(t.s);
	/* placed there by the game: reported */
	r = play(&x, V "arena obj ds-obj banks=A0\nalloc 1 sprite 8x8 4bpp at=0x06408000\n", NULL);
	want_msg(&x, 3, RULE, "sprite at 0x8000 would be tile number 1024: with a 32-byte boundary OAM reaches 0x8000");
	vs_test_replay_close(&x);
}
END_TEST

/* An 8bpp sprite with only an odd tile pair free. */
START_TEST(bad_8bpp_off_alignment)
{
	vs_test_replay x;
	vs_replay *r = play(&x, V
		"arena obj ds-obj banks=F0\n"          /* 16 KiB, tiles 0-511 */
		"alloc 1 sprite 8x8 4bpp\n"            /* tile 0 */
		"alloc 2 sprite 16x8 4bpp\n"           /* tiles 1-2 */
		"alloc 3 bytes 16288\n"                /* tiles 3-511 */
		"free 2\n"
		"alloc 4 sprite 8x8 8bpp\n", vs_strategy_find("gba-obj-first-fit"));

	fails(r, 0, 1, 0);
	ck_assert_uint_eq(vs_replay_check_total(r), 0);
	vs_test_replay_close(&x);
	r = play(&x, V "arena obj ds-obj\nalloc 1 sprite 8x8 8bpp at=0x06400020\n", NULL);
	want_msg(&x, 3, RULE, "8bpp sprite at odd tile 1 (1D mapping needs an even tile number)");
	vs_test_replay_close(&x);
}
END_TEST

/* Slots 0 and 2 mapped, 1 not: a 256 KiB texture has 256 KiB free, but
 * only across the unmapped slot. */
START_TEST(bad_texture_on_unmapped_bank)
{
	vs_test_replay x;
	vs_replay *r = play(&x, V "arena tex ds-tex banks=A0C2\nalloc 1 tex 512x256 direct\nalloc 2 tex 256x256 direct\n",
		vs_strategy_find("ds-tex-pair"));

	fails(r, 0, 1, 0);
	ck_assert_uint_eq(vs_replay_metrics(r, 0)->allocs, 1);
	vs_test_replay_close(&x);
	r = play(&x, V "arena tex ds-tex banks=A0C2\nalloc 1 tex 64x64 16c at=0x20000\n", NULL);
	want_msg(&x, 3, RULE, "texture [0x20000, 0x20800) uses texture slot 1, which no bank maps");
	vs_test_replay_close(&x);
}
END_TEST

/* A Tex4x4 texture needs slot 1 for its index data. */
START_TEST(bad_tex4x4_without_bank_b)
{
	static const char *const strategies[] = { "ds-tex-pair", "libnds-tex", "nns-lnk-tex" };
	unsigned i;

	for (i = 0; i < 3; i++) {
		vs_test_replay x;
		vs_replay *r = play(&x, V "arena tex ds-tex banks=A0C2D3\nalloc 1 tex 64x64 4x4\nalloc 2 tex 64x64 16c\n",
			vs_strategy_find(strategies[i]));
		const vs_metrics *m = vs_replay_metrics(r, 0);
		ck_assert_msg(m->failures == 1 && m->allocs == 1, "%s: %llu failures", strategies[i],
			(unsigned long long)m->failures);
		ck_assert_msg(m->fail[VS_FAIL_RULE] == 1 || m->fail[VS_FAIL_UNSUPPORTED] == 1,
			"%s: the 4x4 texture failed as %s", strategies[i], m->fail[VS_FAIL_FRAGMENTED] ? "fragmented" : "?");
		ck_assert_uint_eq(vs_replay_check_total(r), 0);
		vs_test_replay_close(&x);
	}
	/* placed there: by the game, or by Nitro Engine told of bank B
	 * (banks=abcd: the game passed it) when the trace does not map it */
	for (i = 0; i < 2; i++) {
		vs_test_replay x;
		vs_replay *r = play(&x, i ? V "arena tex ds-tex banks=A0C2D3 strategy=nitro-engine-tex options=banks:abcd\n"
			"alloc 1 tex 64x64 4x4\n" :
			V "arena tex ds-tex banks=A0C2D3\nalloc 1 tex 64x64 4x4 at=0\n",
			i ? vs_strategy_find("nitro-engine-tex") : NULL);
		want_msg(&x, 3, RULE, "id 1 at 0x0: 4x4 texture needs its index data in slot 1, which no bank maps");
		ck_assert_uint_eq(vs_replay_check_count(r, VS_CHECK_RULE), 1);
		vs_test_replay_close(&x);
	}
}
END_TEST

static Suite *ds_2d_suite(void)
{
	Suite *s = suite_create("ds_2d");
	TCase *rules = tcase_create("rules"), *replay = tcase_create("replay");
	TCase *format = tcase_create("format"), *bad = tcase_create("bad");

	tcase_add_test(rules, obj_1d_boundary_and_reach);
	tcase_add_test(rules, obj_8bpp_even_tiles);
	tcase_add_test(rules, obj_2d_matrix);
	tcase_add_test(rules, obj_bitmap_1d);
	tcase_add_test(rules, obj_bitmap_2d);
	tcase_add_test(rules, bg_character_base);
	tcase_add_test(rules, bg_screen_base);
	tcase_add_test(rules, extpal_palettes);
	suite_add_tcase(s, rules);
	tcase_add_test(replay, replay_rules_1d);
	tcase_add_test(replay, replay_rules_2d);
	tcase_add_test(replay, replay_vramcnt_moves_memory);
	tcase_add_test(replay, replay_vramcnt_usable_bytes);
	tcase_add_test(replay, replay_vramcnt_drop_rereserves);
	tcase_add_test(replay, lock_and_vramcnt_reach_the_strategy);
	tcase_add_test(replay, realloc_free_then_alloc);
	tcase_add_test(replay, realloc_one_call);
	suite_add_tcase(s, replay);
	tcase_add_test(format, header_errors);
	tcase_add_test(format, canonical_form);
	suite_add_tcase(s, format);
	tcase_add_test(bad, bad_sprite_past_the_reach);
	tcase_add_test(bad, bad_8bpp_off_alignment);
	tcase_add_test(bad, bad_texture_on_unmapped_bank);
	tcase_add_test(bad, bad_tex4x4_without_bank_b);
	suite_add_tcase(s, bad);
	return s;
}

int main(void)
{
	return vs_test_main(ds_2d_suite());
}
