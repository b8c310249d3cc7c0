/* SPDX-License-Identifier: Zlib */
/* test_record_nns.c - record.h's NITRO-System macros.
 *
 * A game on NNS_Gfd wraps the four default function pointers and records
 * each call with VS_REC_NNS_TEX, VS_REC_NNS_PLTT and VS_REC_NNS_FREE_*
 * (docs/embedding.md). Here the game is our own reproduction of the
 * managers (src/alloc/nns_*.c) called through its entry points as
 * NNS_GfdAllocTexVram and the others call the pointers: each macro's line
 * is checked as text, and a recording of a few hundred random calls, on
 * the linked-list managers and on the frame managers with a state saved
 * and restored, replays under the nns-* strategies of its managers with
 * every placement the game's (no divergence, the same failures) and under
 * `recorded` with no integrity error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "engine/replay.h"

#include "record_sink.h"
#include "vramsim/alloc/nns_gfd.h"
#include "strategies/registry.h"

#define BLOCKS 64u

START_TEST(nns_macros_write_their_lines)
{
	reset_lines();
	VS_REC_NNS_TEX("tex", 3070, 0, 0, 0x00c00010u);   /* 3072 bytes at 0x80 */
	VS_REC_NNS_TEX(NULL, 0, 0, 2, 0);                  /* failed: the rounded request */
	VS_REC_NNS_TEX("tex", 2048, 1, 0, 0x80800000u);   /* one 64x128 texture's texels */
	VS_REC_NNS_TEX("tex", 3072, 1, 0, 0x80c00040u);   /* two textures' texels */
	VS_REC_NNS_TEX("tex", 0x40000, 1, 0, 0);           /* one 1024x1024 */
	VS_REC_NNS_PLTT("pal", 32, 0, 1, 0x00040002u);    /* 16 colours at 0x10, from low */
	VS_REC_NNS_PLTT("pal", 7, 1, 0, 0x00011fffu);     /* 4 colours for 4-colour textures */
	VS_REC_NNS_PLTT("pal", 8, 0, 0, 0x00010001u);     /* 4 colours for another format */
	VS_REC_NNS_PLTT("pal", 0, 0, 0, 0);
	VS_REC_NNS_FREE_TEX(0x00c00010u);
	VS_REC_NNS_FREE_TEX(0);                            /* the error key: nothing */
	VS_REC_NNS_FREE_PLTT(0x00040002u);
	ck_assert_str_eq(trace_text(),
		"alloc 0x100c00010 tex 3072 at=0x00000080\n"
		"alloc 0x100000000 16 opt=2 at=none\n"
		"alloc 0x180800000 tex tex 64x128 4x4 at=0x00000000\n"
		"alloc 0x180c00040 tex tex 3072 4x4 at=0x00000200\n"
		"alloc 0x100000000 tex tex 1024x1024 4x4 at=none\n"
		"alloc 0x200040002 pal pltt 16 opt=1 at=0x00000010\n"
		"alloc 0x200011fff pal pltt 4 4c at=0x0000fff8\n"
		"alloc 0x200010001 pal 8 at=0x00000008\n"
		"alloc 0x200000000 pal 8 at=none\n"
		"free 0x100c00010\n"
		"free 0x200040002\n");
}
END_TEST

static void quiet(void *ud, const char *line)
{
	(void)ud;
	(void)line;
}

/* Replays text under the strategies named for arenas 0 and 1. */
static vs_replay *replay(FILE **fp, const char *text, const char *tex, const char *pltt)
{
	char err[1024];
	vs_trace_reader *rd;
	vs_replay_config cfg;
	vs_replay *r;

	*fp = fmemopen((void *)text, strlen(text), "rb");
	rd = vs_trace_open_stream(*fp, "game", err, sizeof err);
	ck_assert_msg(rd != NULL, "%s\n%s", err, text);
	vs_replay_config_default(&cfg);
	cfg.strategy[0] = vs_strategy_find(tex);
	cfg.strategy[1] = vs_strategy_find(pltt);
	cfg.message = quiet;
	r = vs_replay_new(rd, &cfg, err, sizeof err);
	ck_assert_msg(r != NULL, "%s", err);
	ck_assert_msg(vs_replay_run(r, 0) == 0, "%s", vs_replay_error(r));
	return r;
}

/* A 4x4 request's texel bytes: one texture's (16 x a power of two, `tex
 * WxH 4x4`), or a block of several, any size (`tex N 4x4`). */
static uint32_t tex4x4_size(void)
{
	return rand() % 2 ? 16u << rand() % 11 : 1u + (uint32_t)rand() % 0x3000u;
}

/* One model unloaded: its texture, then its palette (none when its load
 * gave up), each call recorded beside it. */
static void unload_model(nns_gfd_ctx *g, nns_tex_key *tex, nns_pltt_key *pal)
{
	VS_REC_NNS_FREE_TEX(*tex);
	ck_assert_int_eq(nns_gfd_free_tex(g, *tex), 0);
	VS_REC_NNS_FREE_PLTT(*pal);
	if (*pal)
		ck_assert_int_eq(nns_gfd_free_pltt(g, *pal), 0);
	*tex = *pal = 0;
}

/* One model loaded: its texture block, of any size under max_tex bytes or
 * the texels of 4x4 textures; its palette, under max_pltt bytes, some for
 * 4-colour textures. A load without its texture gives up: its palette goes
 * too. Returns the calls that failed. */
static unsigned load_model(nns_gfd_ctx *g, nns_tex_key *tex, nns_pltt_key *pal, uint32_t max_tex,
	uint32_t max_pltt)
{
	bool is4x4 = rand() % 4 == 0, is4pltt = rand() % 4 == 0;
	uint32_t sz = is4x4 ? tex4x4_size() : (uint32_t)rand() % max_tex;
	uint32_t psz = (uint32_t)rand() % max_pltt, opt = (uint32_t)rand() % 2u;
	unsigned failures;

	*tex = nns_gfd_alloc_tex(g, sz, is4x4, 0);
	VS_REC_NNS_TEX("tex", sz, is4x4, 0, *tex);
	*pal = nns_gfd_alloc_pltt(g, psz, is4pltt, opt);
	VS_REC_NNS_PLTT("pal", psz, is4pltt, opt, *pal);
	failures = !*tex + !*pal;
	if (!*tex && *pal) {
		VS_REC_NNS_FREE_PLTT(*pal);
		ck_assert_int_eq(nns_gfd_free_pltt(g, *pal), 0);
		*pal = 0;
	}
	return failures;
}

/* The game: the linked-list managers over slots 0-3 (slot 0 for 4x4
 * texels, as nns-lnk-tex sets up 512 KiB) and the 64 KiB of bank E,
 * BLOCKS management blocks each. Random loads and unloads, every call
 * through the entry points and recorded beside it. Returns the failures. */
static unsigned record_game(nns_gfd_ctx *g, unsigned seed)
{
	nns_tex_key tex[32] = { 0 };
	nns_pltt_key pal[32] = { 0 };
	unsigned failures = 0, i, k;

	srand(seed);
	nns_gfd_init(g, 2 * BLOCKS);
	ck_assert(nns_lnk_tex_init(g, 0x80000u, 0x20000u, 0, BLOCKS, true));
	ck_assert(nns_lnk_pltt_init(g, 0x10000u, BLOCKS, BLOCKS, true));
	reset_lines();
	VS_REC_BEGIN();
	VS_REC_ARENA("tex", "ds-tex", "banks=A0B1C2D3");
	VS_REC_ARENA("pal", "ds-pltt", "banks=E0");
	for (i = 0; i < 400; i++) {
		k = (unsigned)rand() % 32u;
		if (tex[k])
			unload_model(g, &tex[k], &pal[k]);
		else
			failures += load_model(g, &tex[k], &pal[k], 0x9000u, 0x600u);
		if (i % 8 == 7)
			VS_REC_FRAME();
	}
	return failures;
}

/* Lines asking for 4x4 texel data by its size: "tex N 4x4" with no 'x' in N. */
static unsigned by_size_4x4(const char *text)
{
	const char *p = text;
	unsigned n = 0;

	while ((p = strstr(p, " tex tex ")) != NULL) {
		const char *end = strchr(p + 9, ' ');
		p += 9;
		n += end && memchr(p, 'x', (size_t)(end - p)) == NULL && strncmp(end, " 4x4", 4) == 0;
	}
	return n;
}

START_TEST(a_recording_replays_under_the_nns_managers_with_the_games_keys)
{
	nns_gfd_ctx *g = malloc(NNS_GFD_CTX_BYTES(2 * BLOCKS));
	unsigned seed, failures;
	const char *text;
	FILE *fp;
	vs_replay *r;

	ck_assert_ptr_nonnull(g);
	for (seed = 1; seed <= 3; seed++) {
		failures = record_game(g, seed);
		ck_assert_uint_gt(failures, 0); /* the space runs out now and then */
		text = trace_text();
		ck_assert_uint_gt(by_size_4x4(text), 5); /* blocks of several 4x4 textures */
		r = replay(&fp, text, "nns-lnk-tex", "nns-lnk-pltt");
		ck_assert_uint_eq(vs_replay_diag_count(r, VS_DIAG_DIVERGENCE), 0);
		ck_assert_uint_eq(vs_replay_check_total(r), 0);
		ck_assert_uint_eq(vs_replay_metrics(r, 0)->failures + vs_replay_metrics(r, 1)->failures, failures);
		ck_assert_uint_gt(vs_replay_metrics(r, 0)->allocs, 100);
		vs_replay_free(r);
		fclose(fp);
		r = replay(&fp, text, "recorded", "recorded");
		ck_assert_uint_eq(vs_replay_check_total(r), 0);
		ck_assert_uint_eq(vs_replay_diag_total(r), 0);
		vs_replay_free(r);
		fclose(fp);
	}
	free(g);
}
END_TEST

/* The frame managers (all four slots, bank E's 64 KiB): frees give nothing
 * back, the game saves both managers' state early and goes back to it later
 * (NNS_GfdGetFrm*VramState, NNS_GfdSetFrm*VramState), recorded as `save`
 * and `restore` of the arenas; the keys made since the save are dropped
 * with the state, as the game drops them. Returns the failures. */
static unsigned record_frame_game(nns_gfd_ctx *g, unsigned seed)
{
	nns_tex_key tex[32] = { 0 };
	nns_pltt_key pal[32] = { 0 };
	unsigned born[32] = { 0 }, failures = 0, i, k;
	nns_frm_tex_state ts;
	nns_frm_pltt_state ps;

	srand(seed);
	nns_gfd_init(g, 0);
	ck_assert(nns_frm_tex_init(g, 4, true));
	ck_assert(nns_frm_pltt_init(g, 0x10000u, true));
	reset_lines();
	VS_REC_BEGIN();
	VS_REC_ARENA("tex", "ds-tex", "banks=A0B1C2D3");
	VS_REC_ARENA("pal", "ds-pltt", "banks=E0");
	for (i = 0; i < 300; i++) {
		k = (unsigned)rand() % 32u;
		if (i == 60) {
			nns_frm_tex_get_state(g, &ts);
			nns_frm_pltt_get_state(g, &ps);
			VS_REC_LINE("save level tex");
			VS_REC_LINE("save level pal");
		} else if (i == 200) {
			nns_frm_tex_set_state(g, &ts);
			nns_frm_pltt_set_state(g, &ps);
			VS_REC_LINE("restore level tex");
			VS_REC_LINE("restore level pal");
			for (k = 0; k < 32; k++)
				if (born[k] > 60)
					tex[k] = pal[k] = 0;
		} else if (tex[k]) {
			unload_model(g, &tex[k], &pal[k]);
		} else {
			failures += load_model(g, &tex[k], &pal[k], 0x6000u, 0x400u);
			born[k] = i;
		}
		if (i % 8 == 7)
			VS_REC_FRAME();
	}
	return failures;
}

START_TEST(a_frame_manager_game_replays_with_its_keys)
{
	nns_gfd_ctx *g = malloc(NNS_GFD_CTX_BYTES(1));
	unsigned failures;
	const char *text;
	FILE *fp;
	vs_replay *r;

	ck_assert_ptr_nonnull(g);
	failures = record_frame_game(g, 7);
	ck_assert_uint_gt(failures, 0);
	text = trace_text();
	ck_assert_ptr_nonnull(strstr(text, "\nrestore level tex\n"));
	r = replay(&fp, text, "nns-frm-tex", "nns-frm-pltt");
	ck_assert_uint_eq(vs_replay_diag_count(r, VS_DIAG_DIVERGENCE), 0);
	ck_assert_uint_eq(vs_replay_check_total(r), 0);
	ck_assert_uint_eq(vs_replay_metrics(r, 0)->failures + vs_replay_metrics(r, 1)->failures, failures);
	vs_replay_free(r);
	fclose(fp);
	r = replay(&fp, text, "recorded", "recorded");
	ck_assert_uint_eq(vs_replay_check_total(r), 0);
	ck_assert_uint_eq(vs_replay_diag_total(r), 0);
	vs_replay_free(r);
	fclose(fp);
	free(g);
}
END_TEST

/* A divergence is seen: the same recording under the frame managers
 * places elsewhere (so the test above can fail). */
START_TEST(another_manager_diverges)
{
	nns_gfd_ctx *g = malloc(NNS_GFD_CTX_BYTES(2 * BLOCKS));
	FILE *fp;
	vs_replay *r;

	ck_assert_ptr_nonnull(g);
	record_game(g, 1);
	r = replay(&fp, trace_text(), "nns-frm-tex", "nns-frm-pltt");
	ck_assert_uint_gt(vs_replay_diag_count(r, VS_DIAG_DIVERGENCE), 0);
	vs_replay_free(r);
	fclose(fp);
	free(g);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("record_nns");
	TCase *tc = tcase_create("record_nns");

	tcase_add_test(tc, nns_macros_write_their_lines);
	tcase_add_test(tc, a_recording_replays_under_the_nns_managers_with_the_games_keys);
	tcase_add_test(tc, a_frame_manager_game_replays_with_its_keys);
	tcase_add_test(tc, another_manager_diverges);
	suite_add_tcase(s, tc);
	return vs_test_main(s);
}
