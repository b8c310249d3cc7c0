/* SPDX-License-Identifier: Zlib */
/* test_bg_charblock.c - cb= (the layer's charblock) under both BG tile
 * managers, gba-bg-tiles and gba-bg-tiles-split.
 *
 * A text layer on charblock c names tiles 0-1023 from c * 16 KiB (an affine
 * one 0-255, 8bpp), so its tiles must lie in that window. Checked here:
 * every placement and hit of a tile with cb= lies in its layer's reach and
 * replays with no integrity error; a tile loaded for one layer is a hit for
 * another only in that layer's reach, else a second copy; a full charblock
 * fails cleanly (the state untouched, a failure not an integrity error);
 * long random sequences against a model of the blocks; and without cb= or
 * with cb=0 the placements on the bundled side-scrollers are the ones the
 * managers made before the charblock extension, event for event. The
 * random runs are ten times longer with VRAMSIM_SOAK=1 (the soak target). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "vramsim/alloc/gba_bg_tiles.h"
#include "vramsim/alloc/gba_bg_tiles_split.h"
#include "vram/hw_gba.h"
#include "engine/replay.h"
#include "vramsim/strategy.h"
#include "trace/trace.h"
#include "strategies/registry.h"

#define BLOCKS 1792u
#define ANY 0xFFu

static const char *const names[] = { "gba-bg-tiles", "gba-bg-tiles-split" };

/* ---- replay with a watch on every allocation ----------------------------- */

typedef struct watch {
	uint64_t h;          /* FNV-1a over (id, offset, shared, failed) of every alloc */
	uint64_t loads, hits, fails, unreached;
	uint64_t fail_kind[VS_FAIL_KINDS];
	uint32_t off[64];    /* offset by id (ids below 64), ~0 when it failed */
	char bad[256];       /* the first placement out of its layer's reach */
} watch;

static void mix(watch *w, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++) {
		w->h ^= (v >> (8 * i)) & 0xFFu;
		w->h *= 1099511628211ull;
	}
}

static void observe(void *ud, vs_replay *r, const vs_outcome *o)
{
	watch *w = ud;
	const vs_request *rq = &o->ev->req;
	uint32_t off;
	char why[160];

	(void)r;
	if (o->ev->type != VS_EV_ALLOC)
		return;
	off = o->failed || !o->live ? 0xFFFFFFFFu : o->live->pl.offset;
	mix(w, o->ev->id);
	mix(w, off);
	mix(w, (uint64_t)(o->live ? o->live->pl.shared : 0) | (uint64_t)o->failed << 8);
	if (o->ev->id < 64)
		w->off[o->ev->id] = off;
	if (o->failed) {
		w->fails++;
		w->fail_kind[o->fail_kind]++;
		return;
	}
	if (!o->live)
		return;
	if (o->live->id != o->ev->id || o->live->pl.shared)
		w->hits++;
	else
		w->loads++;
	/* Hits too: the engine checks the rules on loads only. */
	if (rq->shape == VS_REQ_TILE && rq->u.tile.cb1 &&
		vs_hw_gba_bg_tile_reach(rq->u.tile.cb1 - 1u, rq->u.tile.bpp, rq->u.tile.affine, off,
			rq->u.tile.bpp * 8u, why, sizeof why)) {
		if (!w->unreached++)
			snprintf(w->bad, sizeof w->bad, "id %llu (line %llu): %s", (unsigned long long)o->ev->id,
				(unsigned long long)o->ev->line, why);
	}
}

static void quiet(void *ud, const char *line)
{
	(void)ud;
	(void)line;
}

/* Replays text (or the file at path) under strategy name (NULL: the
 * trace's) to the end, watching every allocation. */
static vs_replay *replay_watch(const char *text, const char *path, const char *name, watch *w)
{
	char err[1024];
	FILE *in = text ? fmemopen((void *)text, strlen(text), "rb") : NULL;
	vs_trace_reader *rd = in ? vs_trace_open_stream(in, "t", err, sizeof err) : vs_trace_open(path, err, sizeof err);
	vs_replay_config cfg;
	vs_replay *r;

	ck_assert_msg(rd != NULL, "%s", err);
	memset(w, 0, sizeof *w);
	w->h = 1469598103934665603ull;
	memset(w->off, 0xFF, sizeof w->off);
	vs_replay_config_default(&cfg);
	cfg.strategy[0] = name ? vs_strategy_find(name) : NULL;
	cfg.observer = observe;
	cfg.observer_ud = w;
	cfg.message = quiet;
	r = vs_replay_new(rd, &cfg, err, sizeof err);
	ck_assert_msg(r != NULL, "%s", err);
	ck_assert_msg(vs_replay_run(r, 0) == 0, "%s", vs_replay_error(r));
	return r;
}

/* ---- the repro: a layer on charblock 1 ------------------------------------ */

/* The three lines of a captured homebrew trace that replayed with integrity
 * errors under both managers ("BG tile at 0x40 lies below its charblock 1"):
 * now the charblock 1 tiles, the transparent tile 0 included, lie at
 * 0x4000 and up, within 1023 tiles. */
START_TEST(repro_charblock_1)
{
	static const char trace[] = "vramsim-trace 1\narena bg gba-bg\n"
		"alloc 1 bg tile 1 4bpp cb=1 tag=b at=0x6004000\n"
		"alloc 2 bg tile 0 4bpp cb=1 tag=b at=0x6004020\n"
		"alloc 3 bg tile 2 4bpp cb=0 tag=a at=0x6000000\n"
		"alloc 4 bg tile 3 4bpp cb=1 tag=b at=0x6004040\n"
		"frame\n";
	watch w;
	vs_replay *r = replay_watch(trace, NULL, names[_i], &w);
	unsigned id;

	ck_assert_uint_eq(vs_replay_check_total(r), 0);
	ck_assert_msg(w.unreached == 0, "%s", w.bad);
	ck_assert_uint_eq(w.fails, 0);
	ck_assert_uint_eq(w.loads, 4); /* tile 0 of charblock 1 is a copy of its own */
	for (id = 1; id <= 4; id++) {
		if (id == 3) {
			ck_assert_uint_lt(w.off[id], 0x8000u);
			continue;
		}
		ck_assert_uint_ge(w.off[id], 0x4000u);
		ck_assert_uint_lt(w.off[id], 0x4000u + 1024u * 32u);
	}
	vs_replay_free(r);
}
END_TEST

/* ---- every charblock, depth and kind of layer through the replay --------- */

/* For each of cb 0-3 and 4bpp text, 8bpp text, 8bpp affine: 20 ROM tiles,
 * each referenced twice (a load and a hit), with the four map screenblocks
 * taken, then everything freed. Under gba-bg-tiles all fit. Under the split
 * scheme (4bpp region 0-0x6FFF, 8bpp region 0x7000-0xDFFF) 4bpp layers on
 * charblocks 2-3 and affine layers on charblock 0 reach nothing of their
 * region: those 3 x 40 references fail, cleanly. */
START_TEST(every_charblock_in_reach)
{
	static const struct { unsigned bpp; int affine; } kinds[] = { { 4, 0 }, { 8, 0 }, { 8, 1 } };
	vs_test_text t = { NULL, 0, 0 };
	unsigned cb, k, i, id = 1;
	watch w;
	vs_replay *r;
	const vs_metrics *m;

	vs_test_put(&t, "vramsim-trace 1\narena bg gba-bg\n");
	for (i = 0; i < 4; i++)
		vs_test_put(&t, "alloc %u map text 256x256\n", 1000u + i);
	for (cb = 0; cb < 4; cb++)
		for (k = 0; k < 3; k++)
			for (i = 0; i < 20; i++) {
				unsigned rom = 1u + (cb * 3u + k) * 100u + i;
				vs_test_put(&t, "alloc %u tile %u %ubpp%s cb=%u\n", id++, rom, kinds[k].bpp,
					kinds[k].affine ? " affine" : "", cb);
				vs_test_put(&t, "alloc %u tile %u %ubpp%s cb=%u\n", id++, rom, kinds[k].bpp,
					kinds[k].affine ? " affine" : "", cb);
			}
	vs_test_put(&t, "frame\n");
	for (i = 1; i < id; i++)
		vs_test_put(&t, "free %u\n", i);
	r = replay_watch(t.s, NULL, names[_i], &w);
	m = vs_replay_metrics(r, 0);
	ck_assert_uint_eq(vs_replay_check_total(r), 0);
	ck_assert_msg(w.unreached == 0, "%s", w.bad);
	if (_i == 0) {
		ck_assert_uint_eq(w.fails, 0);
		ck_assert_uint_eq(w.hits, 12u * 20u);
		ck_assert_uint_eq(w.loads, 4u + 12u * 20u);
	} else {
		ck_assert_uint_eq(w.fails, 3u * 40u);
		ck_assert_uint_eq(m->failures, 3u * 40u);
		ck_assert_uint_eq(w.hits, 9u * 20u);
		ck_assert_uint_eq(vs_replay_diag_total(r), vs_replay_diag_count(r, VS_DIAG_FREE_FAILED));
	}
	/* every tile freed: the four maps are what is left */
	ck_assert_uint_eq(m->live_count, 4);
	vs_replay_free(r);
	free(t.s);
}
END_TEST

/* ---- hits across layers, at the allocator ---------------------------------- */

/* The shared scheme, block by block. ROM 7 (4bpp) loaded for charblock 0
 * takes block 2 (the article's first pair); charblock 1 cannot name block
 * 2, so it gets a copy at 512, its first free block; charblock 2 one at
 * 1024 (a pair of the 8bpp-only region split, the partner on list-d),
 * charblock 3 one at 1536. Each layer hits its own copy; copies are freed
 * in any order and the ROM tile stays loaded while any copy is. */
START_TEST(shared_hits_across_layers)
{
	gba_bg_tiles *m = malloc(sizeof *m);
	int loaded;
	uint32_t b;

	ck_assert_ptr_nonnull(m);
	gba_bg_tiles_init(m);
	ck_assert_int_eq(gba_bg_tiles_ref_cb(m, 7, 4, 0, 0, &loaded), 2);
	ck_assert_int_eq(loaded, 1);
	ck_assert_int_eq(gba_bg_tiles_ref_cb(m, 7, 4, 1, 0, &loaded), 512);
	ck_assert_int_eq(loaded, 1);
	ck_assert_int_eq(gba_bg_tiles_ref_cb(m, 7, 4, 0, 0, &loaded), 2);
	ck_assert_int_eq(loaded, 0);
	ck_assert_int_eq(gba_bg_tiles_ref_cb(m, 7, 4, ANY, 0, &loaded), 2); /* no charblock: the first copy */
	ck_assert_int_eq(loaded, 0);
	ck_assert_int_eq(gba_bg_tiles_ref_cb(m, 7, 4, 1, 0, &loaded), 512);
	ck_assert_int_eq(loaded, 0);
	ck_assert_int_eq(gba_bg_tiles_ref_cb(m, 7, 4, 2, 0, &loaded), 1024);
	ck_assert_int_eq(loaded, 1);
	ck_assert_uint_eq(m->len[GBA_BG_LIST_D], 1);
	ck_assert_int_eq(gba_bg_tiles_ref_cb(m, 7, 4, 3, 0, &loaded), 1536);
	ck_assert_int_eq(loaded, 1);
	ck_assert_uint_eq(m->len[GBA_BG_LIST_D], 2);
	/* a tile loaded in reach of two layers is one copy: ROM 9 for
	 * charblock 1 at 513 (the single left by the split) is in charblock
	 * 0's 32 KiB too */
	ck_assert_int_eq(gba_bg_tiles_ref_cb(m, 9, 4, 1, 0, &loaded), 513);
	ck_assert_int_eq(gba_bg_tiles_ref_cb(m, 9, 4, 0, 0, &loaded), 513);
	ck_assert_int_eq(loaded, 0);
	ck_assert_uint_eq(gba_bg_tiles_refs(m, 513), 2);
	/* the other depth is still refused, copies or not */
	ck_assert_int_eq(gba_bg_tiles_ref_cb(m, 7, 8, 1, 0, &loaded), GBA_BG_TILES_BAD);
	ck_assert_uint_eq(gba_bg_tiles_refs(m, 2), 3);
	ck_assert_uint_eq(gba_bg_tiles_refs(m, 512), 2);
	ck_assert_uint_eq(gba_bg_tiles_refs(m, 1024), 1);
	/* free the charblock 1 copy: its pair (513 still holds ROM 9) stays
	 * split, 512 goes on list-c */
	ck_assert_int_eq(gba_bg_tiles_release(m, 512), 1);
	ck_assert_int_eq(gba_bg_tiles_release(m, 512), 0);
	ck_assert_int_eq(gba_bg_tiles_release(m, 512), GBA_BG_TILES_BAD);
	ck_assert(gba_bg_tiles_block_free(m, 512));
	/* charblock 1 now hits the copy made for charblock 2: 1024 is tile
	 * 512 of charblock 1 */
	ck_assert_int_eq(gba_bg_tiles_ref_cb(m, 7, 4, 1, 0, &loaded), 1024);
	ck_assert_int_eq(loaded, 0);
	ck_assert_int_eq(gba_bg_tiles_release(m, 1024), 1);
	/* the first copy goes: rom2ram moves to the next copy (1536), which
	 * charblocks 2, 3 and no charblock hit; charblock 0 reaches no copy, so
	 * its next reference is a load, in the article's order (list-c first:
	 * block 512) */
	for (b = 3; b > 0; b--)
		ck_assert_int_eq(gba_bg_tiles_release(m, 2), (int32_t)b - 1);
	ck_assert(gba_bg_tiles_block_free(m, 2) && gba_bg_tiles_block_free(m, 3));
	ck_assert_uint_eq(m->rom2ram[7], 1536);
	ck_assert_int_eq(gba_bg_tiles_ref_cb(m, 7, 4, 2, 0, &loaded), 1536);
	ck_assert_int_eq(loaded, 0);
	ck_assert_int_eq(gba_bg_tiles_ref_cb(m, 7, 4, ANY, 0, &loaded), 1536);
	ck_assert_int_eq(loaded, 0);
	ck_assert_int_eq(gba_bg_tiles_ref_cb(m, 7, 4, 0, 0, &loaded), 512);
	ck_assert_int_eq(loaded, 1);
	/* the second half of an 8bpp tile, block 1 and unloaded blocks are no
	 * tiles to release */
	ck_assert_int_eq(gba_bg_tiles_ref_cb(m, 30, 8, 3, 0, &loaded), 1538);
	ck_assert_int_eq(gba_bg_tiles_release(m, 1539), GBA_BG_TILES_BAD);
	ck_assert_int_eq(gba_bg_tiles_release(m, 1), GBA_BG_TILES_BAD);
	ck_assert_int_eq(gba_bg_tiles_release(m, 700), GBA_BG_TILES_BAD);
	/* releasing every copy leaves the lists as at init */
	ck_assert_int_eq(gba_bg_tiles_release(m, 1538), 0);
	ck_assert_int_eq(gba_bg_tiles_release(m, 512), 0);
	ck_assert_int_eq(gba_bg_tiles_release(m, 1024), 0);
	ck_assert_int_eq(gba_bg_tiles_release(m, 1536), 2);
	ck_assert_int_eq(gba_bg_tiles_release(m, 1536), 1);
	ck_assert_int_eq(gba_bg_tiles_release(m, 1536), 0);
	ck_assert_int_eq(gba_bg_tiles_release(m, 513), 1);
	ck_assert_int_eq(gba_bg_tiles_release(m, 513), 0);
	ck_assert_uint_eq(m->len[GBA_BG_LIST_A], 511);
	ck_assert_uint_eq(m->len[GBA_BG_LIST_B], 384);
	ck_assert_uint_eq(m->len[GBA_BG_LIST_C], 0);
	ck_assert_uint_eq(m->len[GBA_BG_LIST_D], 0);
	ck_assert_uint_eq(m->rom2ram[7], GBA_BG_TILES_UNUSED);
	ck_assert_uint_eq(m->rom2ram[9], GBA_BG_TILES_UNUSED);
	free(m);
}
END_TEST

/* The split scheme: ROM 7 (4bpp) for charblock 0 at block 2, for
 * charblock 1 a copy at 512 of the 4bpp region; ROM 8 (8bpp) for charblock
 * 0 at the 8bpp region's start (0x7000, block 896), which charblock 1 also
 * reaches (its 8bpp window covers the whole region: the article's own
 * path), charblock 2 not: a copy at 1024. 4bpp for charblock 2 is past the
 * 4bpp region: no space. */
START_TEST(split_hits_across_layers)
{
	gba_bg_tiles_split *m = malloc(sizeof *m);
	int loaded;

	ck_assert_ptr_nonnull(m);
	gba_bg_tiles_split_init(m, GBA_BG_SPLIT_DEFAULT_BYTES4);
	ck_assert_int_eq(gba_bg_tiles_split_ref_cb(m, 7, 4, 0, 0, &loaded), 2);
	ck_assert_int_eq(gba_bg_tiles_split_ref_cb(m, 7, 4, 1, 0, &loaded), 512);
	ck_assert_int_eq(loaded, 1);
	ck_assert_int_eq(gba_bg_tiles_split_ref_cb(m, 7, 4, 1, 0, &loaded), 512);
	ck_assert_int_eq(loaded, 0);
	ck_assert_int_eq(gba_bg_tiles_split_ref_cb(m, 7, 4, 0, 0, &loaded), 2);
	ck_assert_int_eq(loaded, 0);
	ck_assert_int_eq(gba_bg_tiles_split_ref_cb(m, 7, 4, 2, 0, &loaded), GBA_BG_SPLIT_NO_SPACE);
	ck_assert_int_eq(gba_bg_tiles_split_ref_cb(m, 8, 8, 0, 0, &loaded), 896);
	ck_assert_int_eq(loaded, 1);
	ck_assert_int_eq(gba_bg_tiles_split_ref_cb(m, 8, 8, 1, 0, &loaded), 896);
	ck_assert_int_eq(loaded, 0);
	ck_assert_int_eq(gba_bg_tiles_split_ref_cb(m, 8, 8, 2, 0, &loaded), 1024);
	ck_assert_int_eq(loaded, 1);
	ck_assert_int_eq(gba_bg_tiles_split_ref_cb(m, 8, 8, 2, 1, &loaded), 1024); /* affine, in 0x8000-0xBFFF */
	ck_assert_int_eq(loaded, 0);
	ck_assert_int_eq(gba_bg_tiles_split_ref_cb(m, 8, 8, 0, 1, &loaded), GBA_BG_SPLIT_NO_SPACE);
	ck_assert_int_eq(gba_bg_tiles_split_ref_cb(m, 8, 4, 1, 0, &loaded), GBA_BG_SPLIT_BAD);
	ck_assert_int_eq(gba_bg_tiles_split_ref_cb(m, 9, 4, 0, 1, &loaded), GBA_BG_SPLIT_BAD);
	ck_assert_int_eq(gba_bg_tiles_split_ref_cb(m, 9, 4, 4, 0, &loaded), GBA_BG_SPLIT_BAD);
	ck_assert_uint_eq(m->r4.used, 2);
	ck_assert_uint_eq(m->r8.used, 2);
	/* the first copies go first: the ROM tiles stay loaded in the others */
	ck_assert_int_eq(gba_bg_tiles_split_release(m, 2), 1);
	ck_assert_int_eq(gba_bg_tiles_split_release(m, 2), 0);
	ck_assert_int_eq(gba_bg_tiles_split_release(m, 896), 1);
	ck_assert_int_eq(gba_bg_tiles_split_release(m, 896), 0);
	ck_assert_int_eq(gba_bg_tiles_split_release(m, 896), GBA_BG_SPLIT_BAD);
	ck_assert_int_eq(gba_bg_tiles_split_ref_cb(m, 7, 4, ANY, 0, &loaded), 512);
	ck_assert_int_eq(loaded, 0);
	ck_assert_int_eq(gba_bg_tiles_split_ref_cb(m, 8, 8, 1, 0, &loaded), 1024);
	ck_assert_int_eq(loaded, 0);
	/* the copy made for charblock 1 at 512 is in charblock 0's 32 KiB too:
	 * a hit; the transparent tile of charblock 1 is a copy of its own */
	ck_assert_int_eq(gba_bg_tiles_split_ref_cb(m, 7, 4, 0, 0, &loaded), 512);
	ck_assert_int_eq(loaded, 0);
	ck_assert_int_eq(gba_bg_tiles_split_ref_cb(m, 0, 4, 0, 0, &loaded), 0);
	ck_assert_int_eq(loaded, 0);
	ck_assert_int_eq(gba_bg_tiles_split_ref_cb(m, 0, 4, 1, 0, &loaded), 513);
	ck_assert_int_eq(loaded, 1);
	ck_assert_int_eq(gba_bg_tiles_split_ref_cb(m, 0, 8, 2, 0, &loaded), 1026);
	ck_assert_int_eq(loaded, 1);
	ck_assert_int_eq(gba_bg_tiles_split_ref_cb(m, 0, 4, 1, 0, &loaded), 513);
	ck_assert_int_eq(loaded, 0);
	ck_assert_int_eq(gba_bg_tiles_split_release(m, 1), GBA_BG_SPLIT_BAD); /* the reserved tile 1 */
	ck_assert_int_eq(gba_bg_tiles_split_release(m, 0), 1);
	ck_assert_int_eq(gba_bg_tiles_split_release(m, 513), 1);
	ck_assert_int_eq(gba_bg_tiles_split_release(m, 513), 0);
	ck_assert_int_eq(gba_bg_tiles_split_release(m, 1026), 0);
	ck_assert_int_eq(gba_bg_tiles_split_release(m, 1024), 2);
	ck_assert_int_eq(gba_bg_tiles_split_release(m, 1024), 1);
	ck_assert_int_eq(gba_bg_tiles_split_release(m, 1024), 0);
	ck_assert_int_eq(gba_bg_tiles_split_release(m, 512), 3);
	ck_assert_int_eq(gba_bg_tiles_split_release(m, 512), 2);
	ck_assert_int_eq(gba_bg_tiles_split_release(m, 512), 1);
	ck_assert_int_eq(gba_bg_tiles_split_release(m, 512), 0);
	ck_assert_uint_eq(m->r4.used, 0);
	ck_assert_uint_eq(m->r8.used, 0);
	ck_assert_uint_eq(m->r4.rom2ram[7], GBA_BG_SPLIT_UNUSED);
	ck_assert_uint_eq(m->r8.rom2ram[8], GBA_BG_SPLIT_UNUSED);
	ck_assert_uint_eq(m->r8.rom2ram[0], GBA_BG_SPLIT_UNUSED);
	ck_assert_uint_eq(m->r4.rom2ram[0], 0);
	free(m);
}
END_TEST

/* The transparent tile: blocks 0-1 for charblock 0 (and no charblock), a
 * counted copy per depth for a layer on charblocks 1-3, hit by that layer. */
START_TEST(shared_transparent_tile)
{
	gba_bg_tiles *m = malloc(sizeof *m);
	int loaded;
	int32_t c4, c8;

	ck_assert_ptr_nonnull(m);
	gba_bg_tiles_init(m);
	ck_assert_int_eq(gba_bg_tiles_ref_cb(m, 0, 4, 0, 0, &loaded), 0);
	ck_assert_int_eq(loaded, 0);
	ck_assert_int_eq(gba_bg_tiles_ref_cb(m, 0, 8, 0, 1, &loaded), 0); /* affine tile 0 of charblock 0 */
	ck_assert_int_eq(gba_bg_tiles_ref_cb(m, 0, 8, ANY, 0, &loaded), 0);
	c4 = gba_bg_tiles_ref_cb(m, 0, 4, 1, 0, &loaded);
	ck_assert_int_eq(c4, 512);
	ck_assert_int_eq(loaded, 1);
	c8 = gba_bg_tiles_ref_cb(m, 0, 8, 1, 1, &loaded);
	ck_assert_int_eq(c8, 514); /* 8bpp needs a whole pair: 512's partner holds nothing 8bpp can use */
	ck_assert_int_eq(loaded, 1);
	ck_assert_int_eq(gba_bg_tiles_ref_cb(m, 0, 4, 1, 0, &loaded), c4);
	ck_assert_int_eq(loaded, 0);
	ck_assert_int_eq(gba_bg_tiles_ref_cb(m, 0, 8, 1, 0, &loaded), c8);
	ck_assert_int_eq(loaded, 0);
	ck_assert_int_eq(gba_bg_tiles_ref_cb(m, 0, 4, 0, 0, &loaded), 0);
	ck_assert_uint_eq(gba_bg_tiles_refs(m, (uint32_t)c4), 2);
	ck_assert_int_eq(gba_bg_tiles_release(m, 0), 1);
	ck_assert_int_eq(gba_bg_tiles_release(m, 1), GBA_BG_TILES_BAD);
	ck_assert_int_eq(gba_bg_tiles_release(m, (uint32_t)c8 + 1u), GBA_BG_TILES_BAD);
	ck_assert_int_eq(gba_bg_tiles_release(m, (uint32_t)c4), 1);
	ck_assert_int_eq(gba_bg_tiles_release(m, (uint32_t)c4), 0);
	ck_assert_int_eq(gba_bg_tiles_release(m, (uint32_t)c8), 1);
	ck_assert_int_eq(gba_bg_tiles_release(m, (uint32_t)c8), 0);
	ck_assert(gba_bg_tiles_block_free(m, 512) && gba_bg_tiles_block_free(m, 515));
	ck_assert(!gba_bg_tiles_block_free(m, 0) && !gba_bg_tiles_block_free(m, 1));
	ck_assert_uint_eq(m->back[0], GBA_BG_TILES_UNUSED);
	ck_assert_uint_eq(m->len[GBA_BG_LIST_A], 511);
	ck_assert_uint_eq(m->len[GBA_BG_LIST_C], 0);
	free(m);
}
END_TEST

/* ---- a full charblock fails cleanly ---------------------------------------- */

/* At the allocator: once nothing in a layer's reach is free, a load fails
 * with NO_SPACE and leaves the state byte for byte as it was; hits on
 * loaded tiles still work, and freeing one tile makes room for exactly one. */
START_TEST(full_window_fails_cleanly)
{
	static const struct { unsigned cb, bpp; int affine; uint32_t fit_shared, fit_split; } cases[] = {
		{ 3, 4, 0, 256, 0 },   /* 0xC000-0xDFFF: 256 blocks; the split 4bpp region is below */
		{ 3, 8, 0, 128, 128 },
		{ 0, 8, 1, 255, 0 },   /* affine on charblock 0: pairs 1-255 (pair 0 is tile 0) */
		{ 1, 8, 1, 256, 64 },  /* 0x4000-0x7FFF: the split 8bpp region starts at 0x7000 */
		{ 1, 4, 0, 1024, 384 },/* 0x4000-0xBFFF: 512 shared + 512 8bpp-only blocks; split 0x4000-0x6FFF */
	};
	size_t c;

	for (c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		unsigned cb = cases[c].cb, bpp = cases[c].bpp;
		int affine = cases[c].affine, loaded;
		uint32_t fit = _i ? cases[c].fit_split : cases[c].fit_shared, i;
		uint32_t lo = cb * 512u, hi = lo + (affine ? 256u : 1024u) * (bpp / 4u);
		int32_t b, first = -1;
		void *m, *copy;
		size_t size = _i ? sizeof(gba_bg_tiles_split) : sizeof(gba_bg_tiles);

		m = malloc(size);
		copy = malloc(size);
		ck_assert(m && copy);
		if (_i)
			gba_bg_tiles_split_init(m, GBA_BG_SPLIT_DEFAULT_BYTES4);
		else
			gba_bg_tiles_init(m);
		for (i = 0; i < fit; i++) {
			b = _i ? gba_bg_tiles_split_ref_cb(m, 1 + i, bpp, cb, affine, &loaded)
				: gba_bg_tiles_ref_cb(m, 1 + i, bpp, cb, affine, &loaded);
			ck_assert_msg(b >= (int32_t)lo && (uint32_t)b + bpp / 4u <= hi && loaded == 1,
				"case %zu: tile %u at block %d, reach %u-%u", c, i, b, lo, hi);
			if (first < 0)
				first = b;
		}
		memcpy(copy, m, size);
		b = _i ? gba_bg_tiles_split_ref_cb(m, 3000, bpp, cb, affine, &loaded)
			: gba_bg_tiles_ref_cb(m, 3000, bpp, cb, affine, &loaded);
		ck_assert_msg(b == -1, "case %zu: the %uth tile got %d", c, fit + 1, b);
		ck_assert_msg(memcmp(copy, m, size) == 0, "case %zu: a failed load changed the state", c);
		if (!fit) {
			free(m);
			free(copy);
			continue;
		}
		/* a hit needs no room */
		b = _i ? gba_bg_tiles_split_ref_cb(m, 1, bpp, cb, affine, &loaded)
			: gba_bg_tiles_ref_cb(m, 1, bpp, cb, affine, &loaded);
		ck_assert_int_eq(b, first);
		ck_assert_int_eq(loaded, 0);
		/* one tile freed, one tile loaded there */
		for (i = 0; i < 2; i++)
			ck_assert_int_eq(_i ? gba_bg_tiles_split_release(m, (uint32_t)first)
				: gba_bg_tiles_release(m, (uint32_t)first), 1 - (int)i);
		b = _i ? gba_bg_tiles_split_ref_cb(m, 3000, bpp, cb, affine, &loaded)
			: gba_bg_tiles_ref_cb(m, 3000, bpp, cb, affine, &loaded);
		ck_assert_int_eq(b, first);
		ck_assert_int_eq(loaded, 1);
		b = _i ? gba_bg_tiles_split_ref_cb(m, 3001, bpp, cb, affine, &loaded)
			: gba_bg_tiles_ref_cb(m, 3001, bpp, cb, affine, &loaded);
		ck_assert_int_eq(b, -1);
		free(m);
		free(copy);
	}
}
END_TEST

/* Through the replay: charblock 3 with the four maps taken is full after
 * 256 4bpp tiles (gba-bg-tiles) or 128 8bpp tiles (split); the next load
 * is a failure the engine calls a rule failure (nothing in the layer's
 * reach is free), not an integrity error; charblock 2 still has room; a
 * free makes room at the same address. */
START_TEST(full_charblock_replay)
{
	unsigned bpp = _i ? 8u : 4u, fit = _i ? 128u : 256u, i;
	vs_test_text t = { NULL, 0, 0 };
	watch w;
	vs_replay *r;

	vs_test_put(&t, "vramsim-trace 1\narena bg gba-bg\n");
	for (i = 0; i < 4; i++)
		vs_test_put(&t, "alloc %u map text 256x256\n", 1000u + i);
	for (i = 0; i < fit; i++)
		vs_test_put(&t, "alloc %u tile %u %ubpp cb=3\n", 100u + i, 100u + i, bpp);
	vs_test_put(&t, "alloc 1 tile 7 %ubpp cb=3\n", bpp);      /* fails */
	vs_test_put(&t, "alloc 2 tile 100 %ubpp cb=3\n", bpp);    /* a hit */
	vs_test_put(&t, "alloc 3 tile 8 %ubpp cb=2\n", bpp);      /* charblock 2 has room */
	vs_test_put(&t, "free 101\nalloc 4 tile 7 %ubpp cb=3\n", bpp); /* where 101 was */
	r = replay_watch(t.s, NULL, names[_i], &w);
	ck_assert_uint_eq(vs_replay_check_total(r), 0);
	ck_assert_msg(w.unreached == 0, "%s", w.bad);
	ck_assert_uint_eq(w.fails, 1);
	ck_assert_uint_eq(w.fail_kind[VS_FAIL_RULE], 1);
	ck_assert_uint_eq(w.off[1], 0xFFFFFFFFu);
	ck_assert_uint_ge(w.off[2], 0xC000u);
	ck_assert_uint_ge(w.off[3], 0x8000u);
	ck_assert_uint_lt(w.off[3], 0xC000u);
	ck_assert_uint_ge(w.off[4], 0xC000u);
	ck_assert_uint_eq(w.hits, 1);
	vs_replay_free(r);
	free(t.s);
}
END_TEST

/* ---- without cb=, or cb=0: as before --------------------------------------- */

/* Digests of (id, offset, shared, failed) of every allocation of the
 * bundled side-scrollers, recorded from both managers before the charblock
 * extension existed (commit c3e41ac), with hits and failures. The same
 * traces with cb=0 on every tile give the same placements. */
static const struct {
	const char *trace;
	int strategy;
	uint64_t digest, hits, fails;
} recorded[] = {
	{ "gba-side-scroller-1.trace", 0, 0xcf027f2c86919dc7ull, 27888, 0 },
	{ "gba-side-scroller-2.trace", 0, 0xdb1e50691689ff82ull, 24766, 0 },
	{ "gba-side-scroller-1.trace", 1, 0x51140799a90820a3ull, 27888, 0 },
	{ "gba-side-scroller-2.trace", 1, 0x0986567a6a82b7caull, 24601, 299 },
};

/* The trace at path with " cb=0" after the depth of every tile line. */
static char *with_cb0(const char *path)
{
	FILE *fp = fopen(path, "rb");
	vs_test_text t = { NULL, 0, 0 };
	char line[512], *p;
	unsigned n = 0;

	ck_assert_ptr_nonnull(fp);
	while (fgets(line, sizeof line, fp)) {
		if (!strncmp(line, "alloc ", 6) && strstr(line, " tile ") && (p = strstr(line, "bpp")) != NULL) {
			p += 3;
			vs_test_put(&t, "%.*s cb=0%s", (int)(p - line), line, p);
			n++;
		} else {
			vs_test_put(&t, "%s", line);
		}
	}
	fclose(fp);
	ck_assert_uint_gt(n, 1000);
	return t.s;
}

START_TEST(no_cb_or_cb0_unchanged)
{
	char path[512];
	char *cb0;
	watch w;
	vs_replay *r;
	int pass;

	snprintf(path, sizeof path, "%s/traces/%s", VS_SOURCE_DIR, recorded[_i].trace);
	cb0 = with_cb0(path);
	for (pass = 0; pass < 2; pass++) {
		r = replay_watch(pass ? cb0 : NULL, path, names[recorded[_i].strategy], &w);
		ck_assert_msg(w.h == recorded[_i].digest, "%s under %s%s: placements changed (digest 0x%016llx)",
			recorded[_i].trace, names[recorded[_i].strategy], pass ? " with cb=0" : "",
			(unsigned long long)w.h);
		ck_assert_uint_eq(w.hits, recorded[_i].hits);
		ck_assert_uint_eq(w.fails, recorded[_i].fails);
		ck_assert_uint_eq(vs_replay_check_total(r), 0);
		ck_assert_msg(w.unreached == 0, "%s", w.bad);
		vs_replay_free(r);
	}
	free(cb0);
}
END_TEST

/* At the allocator: on random charblock 0 text sequences, ref_cb with cb 0
 * and with no charblock returns what the article's gba_*_ref returns and
 * leaves the same state, byte for byte. */
START_TEST(cb0_same_as_article)
{
	size_t size = _i ? sizeof(gba_bg_tiles_split) : sizeof(gba_bg_tiles);
	uint8_t *st[3];
	uint32_t *live = malloc(4000 * sizeof *live), nlive = 0, step, k, steps = vs_test_soak(60000, 600000);
	vs_rng rng = { 11u + (uint64_t)_i };

	ck_assert_ptr_nonnull(live);
	for (k = 0; k < 3; k++) {
		st[k] = malloc(size);
		ck_assert_ptr_nonnull(st[k]);
		if (_i)
			gba_bg_tiles_split_init((gba_bg_tiles_split *)st[k], GBA_BG_SPLIT_DEFAULT_BYTES4);
		else
			gba_bg_tiles_init((gba_bg_tiles *)st[k]);
	}
	for (step = 0; step < steps; step++) {
		if (nlive && (nlive >= 4000 || vs_rng_below(&rng, 1000) < 350 + nlive / 8)) {
			uint32_t j = vs_rng_below(&rng, nlive), b = live[j];
			int32_t rc[3];

			live[j] = live[--nlive];
			for (k = 0; k < 3; k++)
				rc[k] = _i ? gba_bg_tiles_split_release((gba_bg_tiles_split *)st[k], b)
					: gba_bg_tiles_release((gba_bg_tiles *)st[k], b);
			HOT_CMP(rc[0], >=, 0);
			HOT_ASSERT(rc[1] == rc[0] && rc[2] == rc[0], "step %u: release %u: article %d, cb=0 %d, none %d", step,
				b, rc[0], rc[1], rc[2]);
		} else {
			uint32_t rom = vs_rng_below(&rng, 1400);
			unsigned bpp = rom % 3u == 0 ? 8u : 4u;
			int32_t rc[3];
			int ld[3];

			if (_i) {
				gba_bg_tiles_split **s = (gba_bg_tiles_split **)st;
				rc[0] = gba_bg_tiles_split_ref(s[0], rom, bpp, &ld[0]);
				rc[1] = gba_bg_tiles_split_ref_cb(s[1], rom, bpp, 0, 0, &ld[1]);
				rc[2] = gba_bg_tiles_split_ref_cb(s[2], rom, bpp, ANY, 0, &ld[2]);
			} else {
				gba_bg_tiles **s = (gba_bg_tiles **)st;
				rc[0] = gba_bg_tiles_ref(s[0], rom, bpp, &ld[0]);
				rc[1] = gba_bg_tiles_ref_cb(s[1], rom, bpp, 0, 0, &ld[1]);
				rc[2] = gba_bg_tiles_ref_cb(s[2], rom, bpp, ANY, 0, &ld[2]);
			}
			HOT_ASSERT(rc[1] == rc[0] && rc[2] == rc[0] && ld[1] == ld[0] && ld[2] == ld[0],
				"step %u: ROM %u %ubpp: article %d, cb=0 %d, none %d", step, rom, bpp, rc[0], rc[1], rc[2]);
			if (rc[0] > 0)
				live[nlive++] = (uint32_t)rc[0];
		}
		HOT_ASSERT(memcmp(st[0], st[1], size) == 0 && memcmp(st[0], st[2], size) == 0,
			"step %u: states differ", step);
	}
	for (k = 0; k < 3; k++)
		free(st[k]);
	free(live);
}
END_TEST

/* ---- random sequences against a model --------------------------------------- */

typedef struct model {
	int32_t rom[BLOCKS];   /* ROM tile held from this block (its first), -1 free, -2 taken otherwise */
	uint8_t bpp[BLOCKS];
	uint32_t refs[BLOCKS];
	uint32_t lo4, hi4, lo8, hi8; /* blocks the scheme may give 4bpp / 8bpp tiles */
	uint32_t base8;              /* 8bpp tiles start at even offsets from here */
	int split;
} model;

static int blk_free(const model *md, uint32_t b)
{
	return md->rom[b] == -1;
}

/* Reach in blocks of a layer: [lo, hi); no charblock: everywhere. */
static void reach(unsigned cb, unsigned bpp, int affine, uint32_t *lo, uint32_t *hi)
{
	if (cb == ANY) {
		*lo = 0;
		*hi = BLOCKS;
		return;
	}
	*lo = cb * 512u;
	*hi = *lo + (affine ? 256u : 1024u) * (bpp / 4u);
	if (*hi > BLOCKS)
		*hi = BLOCKS;
}

/* Whether the scheme has any free place for a new tile in [lo, hi). */
static int room(const model *md, unsigned bpp, unsigned cb, uint32_t lo, uint32_t hi)
{
	uint32_t b, a = bpp == 8 ? md->lo8 : md->lo4, z = bpp == 8 ? md->hi8 : md->hi4;

	/* The article's 4bpp path (no charblock) keeps to the shared region. */
	if (!md->split && bpp == 4 && cb == ANY)
		z = 1024u;
	if (lo > a)
		a = lo;
	if (hi < z)
		z = hi;
	for (b = a; b < z; b++) {
		if (bpp == 4 && blk_free(md, b))
			return 1;
		if (bpp == 8 && (b - md->base8) % 2u == 0 && b + 2u <= z && blk_free(md, b) && blk_free(md, b + 1u))
			return 1;
	}
	return 0;
}

static int32_t m_ref(int split, void *m, uint32_t rom, unsigned bpp, unsigned cb, int affine, int *loaded)
{
	return split ? gba_bg_tiles_split_ref_cb(m, rom, bpp, cb, affine, loaded)
		: gba_bg_tiles_ref_cb(m, rom, bpp, cb, affine, loaded);
}

static int32_t m_release(int split, void *m, uint32_t b)
{
	return split ? gba_bg_tiles_split_release(m, b) : gba_bg_tiles_release(m, b);
}

static void check_free(const model *md, void *m)
{
	uint32_t b, nfree = 0;

	for (b = 0; b < BLOCKS; b++) {
		int f = md->split ? gba_bg_tiles_split_block_free(m, b) : gba_bg_tiles_block_free(m, b);

		HOT_ASSERT(f == blk_free(md, b), "block %u: manager %d, model %d", b, f, md->rom[b]);
		nfree += (uint32_t)f;
	}
	if (!md->split) {
		const gba_bg_tiles *t = m;

		ck_assert_uint_eq(2u * t->len[GBA_BG_LIST_A] + 2u * t->len[GBA_BG_LIST_B] + t->len[GBA_BG_LIST_C] +
			t->len[GBA_BG_LIST_D], nfree);
	}
}

/* References with random charblocks (none, 0-3), depths and affine layers,
 * and releases, checked one by one: a hit exactly when a copy of the ROM
 * tile at that depth lies in the layer's reach (then one of those copies),
 * else a load at a free place in reach, and a failure exactly when the
 * scheme has none; the free blocks match after every step. */
START_TEST(random_against_model)
{
	int split = _i;
	size_t size = split ? sizeof(gba_bg_tiles_split) : sizeof(gba_bg_tiles);
	void *m = malloc(size);
	model *md = malloc(sizeof *md);
	uint32_t *live = malloc(6000 * sizeof *live), nlive = 0, step, b, steps = vs_test_soak(150000, 1500000);
	uint64_t hits = 0, copies = 0, fails = 0;
	vs_rng rng = { 77u + (uint64_t)_i };

	ck_assert(m && md && live);
	memset(md, 0, sizeof *md);
	for (b = 0; b < BLOCKS; b++)
		md->rom[b] = -1;
	md->rom[0] = md->rom[1] = -2;
	md->split = split;
	if (split) {
		gba_bg_tiles_split_init(m, 0x5000); /* 20 KiB 4bpp: charblock 1 reaches 0x4000-0x4FFF of it */
		md->lo4 = 2;
		md->hi4 = md->lo8 = md->base8 = 0x5000u / 32u;
		md->hi8 = BLOCKS;
	} else {
		gba_bg_tiles_init(m);
		md->lo4 = md->lo8 = 2;
		md->hi4 = md->hi8 = BLOCKS;
	}
	for (step = 0; step < steps; step++) {
		if (nlive && (nlive >= 6000 || vs_rng_below(&rng, 1000) < 300 + nlive / 12)) {
			uint32_t j = vs_rng_below(&rng, nlive), x = live[j];
			int32_t rc;

			live[j] = live[--nlive];
			rc = m_release(split, m, x);
			HOT_ASSERT(rc >= 0 && (uint32_t)rc + 1u == md->refs[x], "step %u: release %u gave %d, refs %u",
				step, x, rc, md->refs[x]);
			if (--md->refs[x] == 0) {
				md->rom[x] = -1;
				if (md->bpp[x] == 8)
					md->rom[x + 1u] = -1;
			}
		} else {
			uint32_t rom = vs_rng_below(&rng, 1500), lo, hi, found = 0, k;
			unsigned bpp = rom % 3u == 0 ? 8u : 4u, cb, n;
			int affine, loaded = -1;
			int32_t got;

			if (rom == 0)
				bpp = vs_rng_below(&rng, 2) ? 8u : 4u;
			cb = vs_rng_below(&rng, 5);
			cb = cb == 4 ? ANY : cb;
			affine = bpp == 8 && vs_rng_below(&rng, 4) == 0;
			n = bpp / 4u;
			reach(cb, bpp, affine, &lo, &hi);
			got = m_ref(split, m, rom, bpp, cb, affine, &loaded);
			if (rom == 0 && (cb == ANY || cb == 0)) {
				HOT_CMP(got, ==, 0);
				HOT_CMP(loaded, ==, 0);
				continue;
			}
			/* copies of this ROM tile at this depth in reach */
			for (k = lo; k + n <= hi; k++)
				found += md->rom[k] == (int32_t)rom && md->bpp[k] == bpp;
			if (found) {
				HOT_ASSERT(got >= (int32_t)lo && (uint32_t)got + n <= hi && md->rom[got] == (int32_t)rom &&
					md->bpp[got] == bpp && loaded == 0, "step %u: ROM %u %ubpp cb %u%s: got %d (loaded %d), "
					"expected a hit", step, rom, bpp, cb, affine ? " affine" : "", got, loaded);
				md->refs[got]++;
				live[nlive++] = (uint32_t)got;
				hits++;
				continue;
			}
			if (!room(md, bpp, cb, lo, hi)) {
				HOT_ASSERT(got == -1, "step %u: ROM %u %ubpp cb %u: got %d with no room", step, rom, bpp, cb,
					got);
				fails++;
				continue;
			}
			HOT_ASSERT(got >= (int32_t)lo && (uint32_t)got + n <= hi && loaded == 1,
				"step %u: ROM %u %ubpp cb %u%s: got %d (loaded %d), reach %u-%u", step, rom, bpp, cb,
				affine ? " affine" : "", got, loaded, lo, hi);
			HOT_ASSERT(blk_free(md, (uint32_t)got) && (n == 1 || blk_free(md, (uint32_t)got + 1u)),
				"step %u: loaded at %d, not free", step, got);
			HOT_CMP((uint32_t)got, >=, bpp == 8 ? md->lo8 : md->lo4);
			HOT_CMP((uint32_t)got + n, <=, bpp == 8 ? md->hi8 : md->hi4);
			if (bpp == 8)
				HOT_CMP(((uint32_t)got - md->base8) % 2u, ==, 0);
			for (k = 0; k < BLOCKS; k++)
				copies += md->rom[k] == (int32_t)rom && md->bpp[k] == bpp;
			md->rom[got] = (int32_t)rom;
			md->bpp[got] = (uint8_t)bpp;
			md->refs[got] = 1;
			if (n == 2) {
				md->rom[got + 1] = -2;
				md->bpp[got + 1] = 0;
			}
			live[nlive++] = (uint32_t)got;
		}
		if (step % 509 == 0)
			check_free(md, m);
	}
	check_free(md, m);
	/* the sequence reached every case (in proportion to its steps) */
	ck_assert_uint_gt(hits, steps / 30u);
	ck_assert_uint_gt(copies, steps / 1500u);
	ck_assert_uint_gt(fails, steps / 1500u);
	while (nlive) {
		uint32_t x = live[--nlive];

		HOT_CMP(m_release(split, m, x), >=, 0);
		if (--md->refs[x] == 0) {
			md->rom[x] = -1;
			if (md->bpp[x] == 8)
				md->rom[x + 1u] = -1;
		}
	}
	check_free(md, m);
	if (!split) {
		const gba_bg_tiles *t = m;

		ck_assert_uint_eq(t->len[GBA_BG_LIST_A], 511);
		ck_assert_uint_eq(t->len[GBA_BG_LIST_B], 384);
		ck_assert_uint_eq(t->back[0], GBA_BG_TILES_UNUSED);
	}
	free(m);
	free(md);
	free(live);
}
END_TEST

/* The same kind of random sequence as a trace through the engine: no
 * integrity error, every load and hit in its layer's reach. */
START_TEST(random_trace_replays_clean)
{
	vs_test_text t = { NULL, 0, 0 };
	uint32_t *live = malloc(5000 * sizeof *live), nlive = 0, next = 1, step, steps = vs_test_soak(40000, 400000);
	vs_rng rng = { 5u + (uint64_t)_i };
	watch w;
	vs_replay *r;

	ck_assert_ptr_nonnull(live);
	/* the maps' ids past any tile's, however long the run (the soak's 400,000 steps) */
	vs_test_put(&t, "vramsim-trace 1\narena bg gba-bg\nalloc 4000000000 map text 512x256\n"
		"alloc 4000000001 map text 256x256\n");
	for (step = 0; step < steps; step++) {
		if (nlive && (nlive >= 5000 || vs_rng_below(&rng, 1000) < 300 + nlive / 10)) {
			uint32_t j = vs_rng_below(&rng, nlive);

			vs_test_put(&t, "free %u\n", live[j]);
			live[j] = live[--nlive];
		} else {
			uint32_t rom = vs_rng_below(&rng, 1200), cb = vs_rng_below(&rng, 5);
			unsigned bpp = rom % 3u == 0 ? 8u : 4u;
			int affine;

			if (rom == 0)
				bpp = vs_rng_below(&rng, 2) ? 8u : 4u;
			affine = bpp == 8 && vs_rng_below(&rng, 4) == 0;
			if (cb == 4)
				vs_test_put(&t, "alloc %u tile %u %ubpp%s\n", next, rom, bpp, affine ? " affine" : "");
			else
				vs_test_put(&t, "alloc %u tile %u %ubpp%s cb=%u\n", next, rom, bpp, affine ? " affine" : "", cb);
			live[nlive++] = next++;
		}
		if (step % 100 == 99)
			vs_test_put(&t, "frame\n");
	}
	r = replay_watch(t.s, NULL, names[_i], &w);
	ck_assert_msg(vs_replay_check_total(r) == 0, "%s: %llu integrity errors", names[_i],
		(unsigned long long)vs_replay_check_total(r));
	ck_assert_msg(w.unreached == 0, "%s", w.bad);
	ck_assert_uint_gt(w.hits, steps / 8u);
	ck_assert_uint_gt(w.loads, steps / 40u);
	ck_assert_uint_eq(w.fail_kind[VS_FAIL_OOM], 0);
	ck_assert_uint_eq(vs_replay_diag_total(r), vs_replay_diag_count(r, VS_DIAG_FREE_FAILED));
	vs_replay_free(r);
	free(t.s);
	free(live);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("bg_charblock");
	TCase *tc = tcase_create("reach");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, repro_charblock_1, 0, 2);
	tcase_add_loop_test(tc, every_charblock_in_reach, 0, 2);
	tcase_add_test(tc, shared_hits_across_layers);
	tcase_add_test(tc, split_hits_across_layers);
	tcase_add_test(tc, shared_transparent_tile);
	tcase_add_loop_test(tc, full_window_fails_cleanly, 0, 2);
	tcase_add_loop_test(tc, full_charblock_replay, 0, 2);
	suite_add_tcase(s, tc);
	tc = tcase_create("unchanged");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, no_cb_or_cb0_unchanged, 0, 4);
	tcase_add_loop_test(tc, cb0_same_as_article, 0, 2);
	suite_add_tcase(s, tc);
	tc = tcase_create("random");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, random_against_model, 0, 2);
	tcase_add_loop_test(tc, random_trace_replays_clean, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vs_test_main(suite());
}
