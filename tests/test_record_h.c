/* SPDX-License-Identifier: Zlib */
/* test_record_h.c - include/vramsim/record.h on the host.
 *
 * VS_REC_PUTS routes the lines a game would print through mGBA's debug
 * registers into a buffer here, so every macro's line is checked as text and
 * the whole recording is read back as a trace and replayed under `recorded`:
 * a GBA game, and a DS one (2D arenas, a texture uploaded again, banks).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "engine/replay.h"

#include "record_sink.h"
#include "strategies/registry.h"

START_TEST(each_macro_writes_its_line)
{
	static const uint8_t px[32] = { 0x12, 0xab };

	reset_lines();
	VS_REC_SPRITE(7, "obj", "player", 32, 32, 4, 0x06010400u);
	VS_REC_SPRITE(8, NULL, NULL, 16, 8, 8, VS_REC_FAILED);
	VS_REC_SPRITE(9, "obj", "x", 8, 8, 4, VS_REC_NO_AT);
	VS_REC_BYTES(10, "bg", "hud", 2048, 0x06000800u);
	VS_REC_TILE(11, "bg", "level", 12, 8, 0x06004040u);
	VS_REC_TILE_DATA(12, "bg", NULL, 3, 4, 0x06000020u, px);
	VS_REC_MAP(13, "bg", "bg0", 1, 128, 128, 0x0600f800u);
	VS_REC_TILES(17, "bg", "sky", 96, 4, 0, 0x06000000u);
	VS_REC_TILES(18, NULL, NULL, 40, 8, 1, VS_REC_FAILED);
	VS_REC_CELLS(19, "bg", "sky", 64, 32, 0, 0x0600f000u);
	VS_REC_CELLS(20, "bg", "ring", 16, 16, 2, VS_REC_NO_AT); /* any nonzero: affine */
	VS_REC_TEX(14, "tex", "hero", 64, 32, "16c", 0x00400010u | (1024u / 16u) << 16);
	VS_REC_TEX(15, "tex", "hero", 64, 32, "16c", 0);
	VS_REC_PLTT(16, "pal", "hero", 4, 1, 0x00010002u);
	VS_REC_FREE(7);
	VS_REC_FRAME();
	VS_REC_LINE("save level1");
	ck_assert_str_eq(trace_text(),
		"alloc 7 obj sprite 32x32 4bpp tag=player at=0x06010400\n"
		"alloc 8 sprite 16x8 8bpp at=none\n"
		"alloc 9 obj sprite 8x8 4bpp tag=x\n"
		"alloc 10 bg 2048 tag=hud at=0x06000800\n"
		"alloc 11 bg tile 12 8bpp tag=level at=0x06004040\n"
		"alloc 12 bg tile 3 4bpp at=0x06000020 data=12ab"
		"000000000000000000000000000000000000000000000000000000000000\n"
		"alloc 13 bg map affine 128x128 tag=bg0 at=0x0600f800\n"
		"alloc 17 bg tiles 96 4bpp tag=sky at=0x06000000\n"
		"alloc 18 tiles 40 8bpp affine at=none\n"
		"alloc 19 bg cells 64x32 tag=sky at=0x0600f000\n"
		"alloc 20 bg cells 16x16 affine tag=ring\n"
		"alloc 14 tex tex 64x32 16c tag=hero at=0x00000080\n"
		"alloc 15 tex tex 64x32 16c tag=hero at=none\n"
		"alloc 16 pal pltt 4 4c tag=hero at=0x00000010\n"
		"free 7\n"
		"frame\n"
		"save level1\n");
}
END_TEST

static void quiet(void *ud, const char *line)
{
	(void)ud;
	(void)line;
}

/* A small game: a sprite allocator wrapped in one line per call, replayed
 * under `recorded` exactly as it placed, failure included. */
START_TEST(a_recording_replays_as_the_game_placed)
{
	char err[1024];
	uint32_t next = 0, tile[4], i;
	const char *text;
	FILE *fp;
	vs_trace_reader *rd;
	vs_replay_config cfg;
	vs_replay *r;
	const vs_metrics *m;

	reset_lines();
	VS_REC_BEGIN();
	VS_REC_ARENA("obj", "gba-obj", "mode=0");
	for (i = 0; i < 4; i++) {
		/* a bump allocator with room for three 32x32 4bpp sprites at tile 900 */
		tile[i] = next + 16 <= 48 ? 900 + next : 0xFFFF;
		next += tile[i] == 0xFFFF ? 0 : 16;
		VS_REC_SPRITE(tile[i] == 0xFFFF ? 0 : tile[i], NULL, "enemy", 32, 32, 4,
			tile[i] == 0xFFFF ? VS_REC_FAILED : 0x06010000u + tile[i] * 32u);
	}
	VS_REC_FRAME();
	VS_REC_FREE(tile[1]);
	text = trace_text();

	fp = fmemopen((void *)text, strlen(text), "rb");
	rd = vs_trace_open_stream(fp, "game", err, sizeof err);
	ck_assert_msg(rd != NULL, "%s\n%s", err, text);
	vs_replay_config_default(&cfg);
	cfg.strategy[0] = vs_strategy_find("recorded");
	cfg.message = quiet;
	r = vs_replay_new(rd, &cfg, err, sizeof err);
	ck_assert_msg(r != NULL, "%s", err);
	ck_assert_msg(vs_replay_run(r, 0) == 0, "%s", vs_replay_error(r));
	m = vs_replay_metrics(r, 0);
	ck_assert_uint_eq(m->allocs, 3);
	ck_assert_uint_eq(m->failures, 1);
	ck_assert_uint_eq(m->frees, 1);
	ck_assert_uint_eq(m->high_water, (900u + 48u) * 32u);
	ck_assert_uint_eq(vs_replay_check_total(r), 0);
	vs_replay_free(r);
	fclose(fp);
}
END_TEST

START_TEST(ds_macros_write_their_lines)
{
	reset_lines();
	VS_REC_ARENA("obj", "ds-obj", "banks=B0 boundary=128");
	VS_REC_SPRITE(1, "obj", "hero", 32, 32, 16, 0x06400080u);
	VS_REC_SPRITE(2, "obj", NULL, 16, 16, 8, VS_REC_FAILED);
	VS_REC_TILE_CB(3, "bg", "lvl", 12, 8, 15, 0x0603c000u);
	VS_REC_TILE_CB(4, "bg", NULL, 5, 4, 0, VS_REC_NO_AT);
	VS_REC_EXTPAL(5, "xpal", "sky", 256, 0x2000u);
	VS_REC_TEX_AT(6, "tex", "hero", 64, 64, "16c", 0x800u);
	VS_REC_REALLOC_TEX(6, "tex", "hero", 64, 32, "4x4", VS_REC_FAILED);
	VS_REC_TEX4X4_AT(9, "tex", "level", 3072, 0x40000u);
	VS_REC_PLTT_AT(8, "pal", "hero", 16, 0, 0x40u);
	VS_REC_REALLOC_PLTT_AT(8, "pal", NULL, 4, 1, 0x18u);
	VS_REC_REALLOC(7, NULL, "hud", 2048, 0x06401000u);
	VS_REC_VRAMCNT('B', 0x89);
	VS_REC_VRAMCNT('I', 0x100 | 0x82); /* only the register's 8 bits */
	VS_REC_LOCK('A');
	VS_REC_UNLOCK('H');
	ck_assert_str_eq(trace_text(),
		"arena obj ds-obj banks=B0 boundary=128\n"
		"alloc 1 obj sprite 32x32 bmp tag=hero at=0x06400080\n"
		"alloc 2 obj sprite 16x16 8bpp at=none\n"
		"alloc 3 bg tile 12 8bpp cb=15 tag=lvl at=0x0603c000\n"
		"alloc 4 bg tile 5 4bpp cb=0\n"
		"alloc 5 xpal pltt 256 tag=sky at=0x00002000\n"
		"alloc 6 tex tex 64x64 16c tag=hero at=0x00000800\n"
		"realloc 6 tex tex 64x32 4x4 tag=hero at=none\n"
		"alloc 9 tex tex 3072 4x4 tag=level at=0x00040000\n"
		"alloc 8 pal pltt 16 tag=hero at=0x00000040\n"
		"realloc 8 pal pltt 4 4c at=0x00000018\n"
		"realloc 7 2048 tag=hud at=0x06401000\n"
		"vramcnt B 0x89\n"
		"vramcnt I 0x82\n"
		"lock A\n"
		"unlock H\n");
}
END_TEST

/* Replays lines as trace "game" under `recorded` on every arena; checks
 * the run ends well and hands back the replay. */
static vs_replay *replay_recorded(FILE **fp, const char *text)
{
	char err[1024];
	vs_trace_reader *rd;
	vs_replay_config cfg;
	vs_replay *r;
	int i;

	*fp = fmemopen((void *)text, strlen(text), "rb");
	rd = vs_trace_open_stream(*fp, "game", err, sizeof err);
	ck_assert_msg(rd != NULL, "%s\n%s", err, text);
	vs_replay_config_default(&cfg);
	for (i = 0; i < VS_TRACE_MAX_ARENAS; i++)
		cfg.strategy[i] = vs_strategy_find("recorded");
	cfg.message = quiet;
	r = vs_replay_new(rd, &cfg, err, sizeof err);
	ck_assert_msg(r != NULL, "%s", err);
	ck_assert_msg(vs_replay_run(r, 0) == 0, "%s", vs_replay_error(r));
	return r;
}

/* A small DS game: sprites of both kinds on engine A, a BG tile, an
 * extended palette, a texture uploaded twice (glTexImage2D on a bound
 * texture), a bank moved from textures to nothing and locked; recorded and
 * replayed as it placed. */
START_TEST(a_ds_recording_replays_as_the_game_placed)
{
	uint32_t i, at;
	FILE *fp;
	vs_replay *r;

	reset_lines();
	VS_REC_BEGIN();
	VS_REC_ARENA("obj", "ds-obj", "boundary=64");       /* bank B at 0x06400000 */
	VS_REC_ARENA("bg", "ds-bg", "char-base=1");         /* bank A at 0x06000000 */
	VS_REC_ARENA("xpal", "ds-bg-extpal", NULL);         /* bank E */
	VS_REC_ARENA("tex", "ds-tex", "banks=C0D1");
	for (i = 0; i < 4; i++) /* a bump allocator in 64-byte units */
		VS_REC_SPRITE(i + 1, "obj", "enemy", 32, 32, 4, 0x06400000u + i * 512u);
	VS_REC_SPRITE(5, "obj", "hero", 32, 32, 16, 0x06400800u); /* a bitmap sprite on the 128-byte boundary */
	VS_REC_SPRITE(6, "obj", "boss", 64, 64, 8, VS_REC_FAILED);
	VS_REC_TILE_CB(7, "bg", "level", 40, 4, 2, 0x06018020u);
	VS_REC_EXTPAL(8, "xpal", "sky", 256, 0x2000u);
	VS_REC_LOCK('C');
	VS_REC_TEX_AT(9, "tex", "wall", 128, 128, "16c", 0x20000u);
	VS_REC_REALLOC_TEX(9, "tex", "wall", 64, 64, "16c", 0x20000u);  /* smaller: kept */
	VS_REC_REALLOC_TEX(9, "tex", "wall", 256, 256, "16c", 0x24000u); /* larger: moved */
	VS_REC_FRAME();
	VS_REC_FREE(9);
	VS_REC_UNLOCK('C');
	VS_REC_VRAMCNT('D', 0x00);                            /* slot 1 goes to LCDC */
	VS_REC_FREE(2);
	at = 0x06400200u;
	VS_REC_REALLOC(2, "obj", "enemy", 512, at);           /* not live: an allocation */
	r = replay_recorded(&fp, trace_text());
	ck_assert_uint_eq(vs_replay_check_total(r), 0);
	ck_assert_uint_eq(vs_replay_diag_total(r), 0);
	ck_assert_uint_eq(vs_replay_metrics(r, 0)->allocs, 6);
	ck_assert_uint_eq(vs_replay_metrics(r, 0)->failures, 1);
	ck_assert_uint_eq(vs_replay_metrics(r, 0)->live_count, 5);
	ck_assert_uint_eq(vs_replay_metrics(r, 1)->live_count, 1);
	ck_assert_uint_eq(vs_replay_metrics(r, 2)->live_count, 1);
	ck_assert_uint_eq(vs_replay_metrics(r, 3)->allocs, 3);
	ck_assert_uint_eq(vs_replay_metrics(r, 3)->live_count, 0);
	ck_assert_uint_eq(vs_replay_metrics(r, 3)->usable_bytes, 0x20000);
	vs_replay_free(r);
	fclose(fp);
}
END_TEST

/* A Butano scene wrapped as docs/embedding.md shows: bn_bg_blocks_manager's
 * items recorded from their first use to their last (a tile set a second
 * map uses is not recorded again). A regular BG's tile set and map, a
 * second map on that tile set, an affine BG; at frame 1 the first map goes,
 * and the affine BG, whose tile set is created again before the frame ends
 * (Butano takes the waiting item back); at frame 2 the second map and with
 * it the tile set; at 3 a new tile set. Placed where butano-bg-blocks places
 * it, the recording replays under it with no divergence and no failure,
 * and under `recorded` clean. */
static void bg_scene(const uint32_t *at, int frees)
{
	reset_lines();
	VS_REC_BEGIN();
	VS_REC_ARENA("bg", "gba-bg", "mode=1");
	VS_REC_TILES(1, "bg", "sky", 96, 4, 0, at[1]);
	VS_REC_CELLS(2, "bg", "sky", 32, 32, 0, at[2]);
	VS_REC_CELLS(3, "bg", "sea", 64, 32, 0, at[3]);
	VS_REC_TILES(4, "bg", "ring", 40, 8, 1, at[4]);
	VS_REC_CELLS(5, "bg", "ring", 32, 32, 1, at[5]);
	VS_REC_FRAME();
	if (!frees)
		return;
	VS_REC_FREE(2);
	VS_REC_FREE(5);
	VS_REC_FREE(4);
	VS_REC_TILES(4, "bg", "ring", 40, 8, 1, at[4]);
	VS_REC_FRAME();
	VS_REC_FREE(3);
	VS_REC_FREE(1);
	VS_REC_FRAME();
	VS_REC_TILES(6, "bg", "sand", 200, 4, 0, at[6]);
}

START_TEST(butano_bg_calls_replay_under_its_model)
{
	uint32_t at[7], i;
	vs_test_replay x;
	const vs_metrics *m;

	for (i = 0; i < 7; i++)
		at[i] = VS_REC_NO_AT;
	bg_scene(at, 0);
	vs_test_replay_run(&x, "butano-bg-blocks", trace_text(), "");
	for (i = 1; i <= 5; i++) {
		long off = vs_test_offset_of(x.r, i);
		ck_assert_msg(off >= 0, "id %u not placed", (unsigned)i);
		at[i] = 0x06000000u + (uint32_t)off;
	}
	vs_test_replay_close(&x);
	bg_scene(at, 1);
	vs_test_replay_run(&x, "butano-bg-blocks", trace_text(), "");
	at[6] = 0x06000000u + (uint32_t)vs_test_offset_of(x.r, 6);
	vs_test_replay_close(&x);

	bg_scene(at, 1);
	ck_assert_ptr_nonnull(strstr(trace_text(), "alloc 4 bg tiles 40 8bpp affine tag=ring at=0x0"));
	ck_assert_ptr_nonnull(strstr(trace_text(), "alloc 5 bg cells 32x32 affine tag=ring at=0x0"));
	vs_test_replay_run(&x, "butano-bg-blocks", trace_text(), "");
	m = vs_replay_metrics(x.r, 0);
	ck_assert_uint_eq(m->failures, 0);
	ck_assert_uint_eq(m->shared_hits, 1); /* the waiting tile set taken back */
	ck_assert_uint_eq(m->live_count, 2);
	ck_assert_uint_eq(vs_replay_diag_total(x.r), 0);
	vs_test_replay_close(&x);
	vs_test_replay_run(&x, "recorded", trace_text(), "");
	ck_assert_uint_eq(vs_replay_check_total(x.r), 0);
	ck_assert_uint_eq(vs_replay_diag_total(x.r), 0);
	vs_test_replay_close(&x);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("record_h");
	TCase *tc = tcase_create("record_h");

	tcase_add_test(tc, each_macro_writes_its_line);
	tcase_add_test(tc, a_recording_replays_as_the_game_placed);
	tcase_add_test(tc, ds_macros_write_their_lines);
	tcase_add_test(tc, a_ds_recording_replays_as_the_game_placed);
	tcase_add_test(tc, butano_bg_calls_replay_under_its_model);
	suite_add_tcase(s, tc);
	return vs_test_main(s);
}
