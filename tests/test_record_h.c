/* SPDX-License-Identifier: Zlib */
/* test_record_h.c - include/vramsim/record.h on the host.
 *
 * VS_REC_PUTS routes the lines a game would print through mGBA's debug
 * registers into a buffer here, so every macro's line is checked as text and
 * the whole recording is read back as a trace and replayed under `recorded`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "engine/replay.h"

static char lines[16384];
static size_t nlines;

static void put_line(const char *s)
{
	int n = snprintf(lines + nlines, sizeof lines - nlines, "%s\n", s);

	ck_assert(n > 0 && nlines + (size_t)n < sizeof lines);
	nlines += (size_t)n;
}

#define VS_REC_PUTS(line) put_line(line)
#include "vramsim/record.h"
#include "strategies/registry.h"

/* Every line carries the prefix; the recorder strips it. */
static char *trace_text(void)
{
	static char text[sizeof lines];
	const char *p = lines;
	size_t n = 0;

	while (*p) {
		ck_assert_msg(strncmp(p, VS_REC_PREFIX, 4) == 0, "no prefix: %s", p);
		p += 4;
		while (*p && *p != '\n')
			text[n++] = *p++;
		text[n++] = *p ? *p++ : '\n';
	}
	text[n] = 0;
	return text;
}

static void reset_lines(void)
{
	nlines = 0;
	lines[0] = 0;
}

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

int main(void)
{
	Suite *s = suite_create("record_h");
	TCase *tc = tcase_create("record_h");

	tcase_add_test(tc, each_macro_writes_its_line);
	tcase_add_test(tc, a_recording_replays_as_the_game_placed);
	suite_add_tcase(s, tc);
	return vs_test_main(s);
}
