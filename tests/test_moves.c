/* SPDX-License-Identifier: Zlib */
/* test_moves.c - strategies that move live allocations (vs_strategy.moves
 * and .frame) and games that did (a trace's `move`): the replay carries
 * moves out, checks each like a placement, keeps the bytes, and counts
 * them; wrong moves are caught. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "vramsim/alloc/gba_obj_compact.h"
#include "strategies/registry.h"

/* ---- a compacting test strategy over OBJ VRAM ----------------------------
 * Blocks in address order; a new one goes after the last; a free leaves a
 * hole; at each frame, and when the end has no room but the holes do, every
 * block slides down over the holes (its moves reported). Never fragments. */
#define MAXB 1024
#define ARENA 32768u

typedef struct slide {
	uint32_t off[MAXB], size[MAXB], key[MAXB];
	int n;
	uint32_t next_key;
	vs_move mv[MAXB];
	size_t nmv;
	/* 0 honest, 1 moves onto a neighbour, 2 wrong key, 3 moves silently;
	 * through RAM (as NightFox's Lib compacts): 4 honest, 5 puts back a
	 * block it never took out, 6 leaves one in RAM */
	int mode;
} slide;

static int sl_init(void *st, const vs_arena_decl *a, const char *options, uint8_t *mem, char *err, size_t errlen)
{
	slide *s = st;

	(void)a;
	(void)mem;
	(void)err;
	(void)errlen;
	memset(s, 0, sizeof *s);
	s->mode = options[0] ? options[0] - '0' : 0;
	return 0;
}

static uint32_t sl_end(const slide *s)
{
	return s->n ? s->off[s->n - 1] + s->size[s->n - 1] : 0;
}

/* Every block that moves goes out to RAM first, then each comes back. */
static void sl_compact_ram(slide *s)
{
	uint32_t at = 0;
	size_t first = s->nmv, k, n;
	int i;

	for (i = 0; i < s->n; i++) {
		if (s->off[i] != at) {
			vs_move m = { s->key[i], s->off[i], VS_MOVE_RAM };
			s->mv[s->nmv++] = m;
			s->off[i] = at;
		}
		at += s->size[i];
	}
	n = s->nmv;
	for (k = first; k < n; k++) {
		vs_move back = { s->mv[k].key, VS_MOVE_RAM, 0 };
		for (i = 0; i < s->n && s->key[i] != back.key; i++)
			;
		back.to = s->off[i];
		if (s->mode == 5 && k == first)
			back.key ^= 0x5555u;
		if (s->mode == 6 && k == first)
			continue;
		s->mv[s->nmv++] = back;
	}
}

static void sl_compact(slide *s)
{
	uint32_t at = 0;
	int i;

	if (s->mode >= 4) {
		sl_compact_ram(s);
		return;
	}

	for (i = 0; i < s->n; i++) {
		if (s->off[i] != at) {
			vs_move m = { s->key[i], s->off[i], at };
			if (s->mode == 1 && i > 0)
				m.to = s->off[i - 1]; /* onto the block before: an overlap */
			if (s->mode == 2)
				m.key ^= 0x5555u;
			if (s->mode != 3)
				s->mv[s->nmv++] = m;
			s->off[i] = at;
		}
		at += s->size[i];
	}
}

static int sl_alloc(void *st, const vs_request *rq, vs_placement *out)
{
	slide *s = st;
	uint32_t size = (rq->size + 31u) & ~31u, used = 0;
	int i;

	s->nmv = 0;
	for (i = 0; i < s->n; i++)
		used += s->size[i];
	if (!size || used + size > ARENA || s->n == MAXB)
		return VS_ERR_NOSPACE;
	if (sl_end(s) + size > ARENA)
		sl_compact(s);
	s->off[s->n] = sl_end(s);
	s->size[s->n] = size;
	s->key[s->n] = ++s->next_key;
	memset(out, 0, sizeof *out);
	out->offset = out->block_offset = s->off[s->n];
	out->granted = out->block_size = size;
	out->key = s->key[s->n];
	s->n++;
	return VS_OK;
}

static int sl_free(void *st, const vs_placement *pl)
{
	slide *s = st;
	int i;

	for (i = 0; i < s->n; i++)
		if (s->key[i] == pl->key) {
			memmove(&s->off[i], &s->off[i + 1], (size_t)(s->n - i - 1) * sizeof s->off[0]);
			memmove(&s->size[i], &s->size[i + 1], (size_t)(s->n - i - 1) * sizeof s->size[0]);
			memmove(&s->key[i], &s->key[i + 1], (size_t)(s->n - i - 1) * sizeof s->key[0]);
			s->n--;
			return VS_OK;
		}
	return VS_ERR_INVALID;
}

static void sl_reset(void *st)
{
	slide *s = st;

	s->n = 0;
	s->nmv = 0;
}

static void sl_walk(void *st, vs_extent_fn fn, void *ud)
{
	slide *s = st;
	uint32_t at = 0;
	int i;

	for (i = 0; i < s->n; i++) {
		if (s->off[i] > at && fn(ud, at, s->off[i] - at))
			return;
		at = s->off[i] + s->size[i];
	}
	if (at < ARENA)
		fn(ud, at, ARENA - at);
}

static size_t sl_moves(void *st, vs_move *out, size_t max)
{
	slide *s = st;
	size_t k;

	if (s->mode == 7 && s->nmv) { /* always one more than there is room for (its last move again) */
		for (k = 0; k < max; k++)
			out[k] = s->mv[k < s->nmv ? k : s->nmv - 1];
		return max + 1;
	}
	memcpy(out, s->mv, (s->nmv < max ? s->nmv : max) * sizeof *out);
	return s->nmv;
}

/* Keeps nothing; mode 8 says it let go of one block more than there is
 * room for, every time (offset 0, which holds none of its kept blocks). */
static size_t sl_released(void *st, uint32_t *out, size_t max)
{
	slide *s = st;

	if (s->mode != 8)
		return 0;
	memset(out, 0, max * sizeof *out);
	return max + 1;
}

static void sl_frame(void *st)
{
	slide *s = st;

	s->nmv = 0;
	sl_compact(s);
}

static const vs_strategy slide_strategy = {
	.abi = VS_STRATEGY_ABI,
	.name = "test-slide",
	.summary = "slides every block down over the holes",
	.arenas = VS_ARENA_BIT(VS_ARENA_GBA_OBJ),
	.state_size = sizeof(slide),
	.init = sl_init,
	.alloc = sl_alloc,
	.free = sl_free,
	.reset = sl_reset,
	.walk_free = sl_walk,
	.moves = sl_moves,
	.frame = sl_frame,
	.released = sl_released
};

typedef struct run {
	vs_replay *r;
	FILE *in;
	char msgs[8192];
	size_t len;
} run;

static void collect(void *ud, const char *line)
{
	run *x = ud;
	int n = snprintf(x->msgs + x->len, sizeof x->msgs - x->len, "%s\n", line);

	if (n > 0 && x->len + (size_t)n < sizeof x->msgs)
		x->len += (size_t)n;
}

static void collect_none(void *ud, const char *line)
{
	(void)ud;
	(void)line;
}

static void start_watched(run *x, const char *text, const vs_strategy *s, const char *opts, vs_observer_fn fn,
	void *ud)
{
	char err[512];
	vs_trace_reader *rd;
	vs_replay_config cfg;

	memset(x, 0, sizeof *x);
	x->in = fmemopen((void *)text, strlen(text), "rb");
	ck_assert_ptr_nonnull(x->in);
	rd = vs_trace_open_stream(x->in, "t", err, sizeof err);
	ck_assert_msg(rd != NULL, "%s", err);
	vs_replay_config_default(&cfg);
	cfg.check_bytes = VS_BYTES_ALWAYS; /* bytes move with their blocks: the tests read them */
	cfg.strategy[0] = s;
	cfg.options[0] = opts;
	cfg.message = collect;
	cfg.message_ud = x;
	cfg.observer = fn;
	cfg.observer_ud = ud;
	x->r = vs_replay_new(rd, &cfg, err, sizeof err);
	ck_assert_msg(x->r != NULL, "%s", err);
}

static void start(run *x, const char *text, const vs_strategy *s, const char *opts)
{
	start_watched(x, text, s, opts, NULL, NULL);
}

static void finish(run *x)
{
	vs_replay_free(x->r);
	fclose(x->in);
}

/* A random churn of sprite-sized blocks with frames, as text. */
static char *churn(unsigned seed, int events)
{
	size_t cap = (size_t)events * 32 + 64, n = 0;
	char *t = malloc(cap);
	vs_rng g = { seed };
	uint64_t live[512];
	int nlive = 0, i, next = 1;

	ck_assert_ptr_nonnull(t);
	n += (size_t)snprintf(t + n, cap - n, "vramsim-trace 1\narena obj gba-obj\n");
	for (i = 0; i < events; i++) {
		uint32_t k = vs_rng_below(&g, 10);
		if (k == 0)
			n += (size_t)snprintf(t + n, cap - n, "frame\n");
		else if (k < 5 && nlive) {
			uint32_t j = vs_rng_below(&g, (uint32_t)nlive);
			n += (size_t)snprintf(t + n, cap - n, "free %llu\n", (unsigned long long)live[j]);
			live[j] = live[--nlive];
		} else if (nlive < 512) {
			n += (size_t)snprintf(t + n, cap - n, "alloc %d %u\n", next, 32u << vs_rng_below(&g, 6));
			live[nlive++] = (uint64_t)next++;
		}
	}
	return t;
}

START_TEST(compacting_strategy)
{
	unsigned seed;

	for (seed = 1; seed <= vs_test_soak(6, 60); seed++) {
		char *t = churn(seed, 4000);
		const vs_metrics *m;
		run x;
		start(&x, t, &slide_strategy, "");
		ck_assert_int_eq(vs_replay_run(x.r, 0), 0);
		m = vs_replay_metrics(x.r, 0);
		ck_assert_msg(vs_replay_check_total(x.r) == 0, "seed %u: %s", seed, x.msgs);
		ck_assert_uint_gt(m->moves, 0);
		ck_assert_uint_gt(m->moved_bytes, 0);
		/* it never fragments: every failure had too few bytes free */
		ck_assert_uint_eq(m->fail[VS_FAIL_FRAGMENTED], 0);
		ck_assert_uint_ge(m->frame_moved_max, 32);
		ck_assert_uint_gt(m->frame_cycles_max, 0);
		finish(&x);
		free(t);
	}
}
END_TEST

START_TEST(wrong_moves_are_caught)
{
	static const char t[] = "vramsim-trace 1\narena obj gba-obj\nalloc 1 64\nalloc 2 64\nalloc 3 64\nfree 1\n"
		"frame\nalloc 4 64\nfree 4\nfree 2\nfree 3\n";
	static const struct { const char *mode; vs_check_kind k; const char *says; } cases[] = {
		{ "1", VS_CHECK_OVERLAP, "id 3 moved onto id 2" },
		{ "2", VS_CHECK_MOVE, "where no allocation of that key starts" },
		{ "3", VS_CHECK_OVERLAP, "overlaps" }, /* moved without saying so: the next placement lands on it */
		{ "5", VS_CHECK_MOVE, "where no move of the list took it" },
		{ "6", VS_CHECK_MOVE, "RAM" },
	};
	size_t i;
	run x;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		start(&x, t, &slide_strategy, cases[i].mode);
		vs_replay_run(x.r, 0);
		ck_assert_msg(vs_replay_check_count(x.r, cases[i].k) >= 1, "mode %s: %s", cases[i].mode, x.msgs);
		ck_assert_msg(strstr(x.msgs, cases[i].says), "mode %s: %s", cases[i].mode, x.msgs);
		finish(&x);
	}
	/* a moves() that says more each time it is given more room: what it
	 * wrote is read, never past it, and the strategy is named */
	start(&x, t, &slide_strategy, "7");
	vs_replay_run(x.r, 0);
	ck_assert_msg(strstr(x.msgs, "test-slide reported 17 moves, then 18 when given room for them"), "%s", x.msgs);
	finish(&x);
	start(&x, t, &slide_strategy, "8"); /* the same of released() */
	vs_replay_run(x.r, 0);
	ck_assert_msg(strstr(x.msgs, "test-slide reported 65 released blocks, then 66"), "%s", x.msgs);
	finish(&x);
	/* through RAM, honestly: clean, and each move's bytes go out and back */
	start(&x, t, &slide_strategy, "4");
	ck_assert_int_eq(vs_replay_run(x.r, 0), 0);
	ck_assert_msg(vs_replay_check_total(x.r) == 0, "%s", x.msgs);
	ck_assert_uint_gt(vs_replay_metrics(x.r, 0)->moves, 0);
	finish(&x);
	/* the honest one on the same trace: clean, two blocks moved at the frame */
	start(&x, t, &slide_strategy, "");
	ck_assert_int_eq(vs_replay_run(x.r, 0), 0);
	ck_assert_uint_eq(vs_replay_check_total(x.r), 0);
	ck_assert_uint_eq(vs_replay_metrics(x.r, 0)->moves, 2);
	ck_assert_uint_eq(vs_replay_metrics(x.r, 0)->moved_bytes, 128);
	/* the costliest frame, the first: 192 bytes uploaded, 128 moved in 2
	 * moves, each move priced beside its words */
	ck_assert_uint_eq(vs_replay_metrics(x.r, 0)->frame_cycles_max,
		192 / 4 * VS_CYCLES_UPLOAD_WORD + 128 / 4 * VS_CYCLES_MOVE_WORD + 2 * VS_CYCLES_MOVE_EACH);
	finish(&x);
}
END_TEST

START_TEST(a_game_that_moves)
{
	static const char t[] = "vramsim-trace 1\narena obj gba-obj\nalloc 1 64 at=0x06010000\n"
		"alloc 2 128 at=0x06010040 data=0102030405\nfree 1\nmove 2 to=0x06010000\nframe\n"
		"alloc 3 256 at=0x06010080\nmove 9 to=0x06010000\nfree 2\nfree 3\n";
	static char out[8192], err[4096];
	const vs_metrics *m;
	run x;

	start(&x, t, vs_strategy_find("recorded"), "");
	ck_assert_int_eq(vs_replay_run(x.r, 6), 1);
	m = vs_replay_metrics(x.r, 0);
	ck_assert_uint_eq(m->moves, 1);
	ck_assert_uint_eq(m->moved_bytes, 128);
	ck_assert_uint_eq(vs_replay_arena(x.r, 0)->bytes[0], 1); /* the payload went with it */
	ck_assert_uint_eq(vs_replay_arena(x.r, 0)->bytes[4], 5);
	ck_assert_int_eq(vs_replay_run(x.r, 0), 0);
	ck_assert_uint_eq(vs_replay_check_total(x.r), 0); /* bytes checked at the frees */
	ck_assert_uint_eq(vs_replay_diag_count(x.r, VS_DIAG_UNKNOWN_ID), 1);
	ck_assert_msg(strstr(x.msgs, "t:9: warning: unknown id: move of id 9, which is not live"), "%s", x.msgs);
	finish(&x);

	/* a strategy that places by itself: the game's move is not its own */
	start(&x, t, vs_strategy_find("gba-obj-first-fit"), "");
	ck_assert_int_eq(vs_replay_run(x.r, 0), 0);
	ck_assert_uint_eq(vs_replay_metrics(x.r, 0)->moves, 0);
	ck_assert_uint_eq(vs_replay_check_total(x.r), 0);
	finish(&x);

	/* a move onto another live allocation */
	start(&x, "vramsim-trace 1\narena obj gba-obj\nalloc 1 64 at=0x06010000\nalloc 2 64 at=0x06010040\n"
		"move 2 to=0x06010020\n", vs_strategy_find("recorded"), "");
	vs_replay_run(x.r, 0);
	ck_assert_uint_ge(vs_replay_check_total(x.r), 1);
	finish(&x);

	/* the format: canonical form, and a malformed move */
	ck_assert_int_eq(vs_test_run_cli("fmt -", out, sizeof out, err, sizeof err) == 2, 1);
	{
		char args[1024];
		snprintf(args, sizeof args, "fmt '%s'", vs_test_file(0, "mv.trace", t));
		ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 0);
		ck_assert_ptr_nonnull(strstr(out, "move 2 to=0x6010000\n"));
		snprintf(args, sizeof args, "validate '%s'",
			vs_test_file(1, "bad.trace", "vramsim-trace 1\narena obj gba-obj\nalloc 1 64\nmove 1\n"));
		ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 2);
		ck_assert_msg(strstr(err, "bad.trace:4:7: error: move: expected 'move ID to=ADDR'"), "%s", err);
	}
}
END_TEST

/* ---- gba-obj-compact ------------------------------------------------------ */

/* A random request: 4bpp of 1-32 tiles or 8bpp of 2-64 (even tiles), 8x8
 * 4bpp sprites (1 tile, the only odd size) often, as bullets are. */
static void random_sprite(vs_rng *g, uint16_t *tiles, uint16_t *align)
{
	uint32_t k = vs_rng_below(g, 8), sz = vs_rng_below(g, 6);

	*align = (uint16_t)(k >= 5 ? 2 : 1);
	*tiles = (uint16_t)(k < 3 ? 1u : (uint32_t)*align << sz);
}

/* The allocator alone, against a model of the tiles: on random 4bpp and
 * 8bpp churn near a full area it never fails a request the free tiles
 * hold, a request a gap holds goes to the lowest such gap without a move
 * (its index of the gaps agrees with the tiles), 8bpp sprites sit on even
 * tiles, and the moves of each call, done in order, each land on tiles free
 * at that moment (or the sprite's own). */
START_TEST(compact_never_fragments)
{
	static gba_obj_compact m;
	static uint16_t live[GBA_OBJ_COMPACT_MAX], owner[GBA_OBJ_COMPACT_TILES], size[GBA_OBJ_COMPACT_MAX];
	unsigned seed, step;

	/* the allocator's prices are the replay's (it cannot include replay.h) */
	ck_assert_uint_eq(GBA_OBJ_COMPACT_MOVE_TILE_CYCLES, 32u / 4 * VS_CYCLES_MOVE_WORD);
	ck_assert_uint_eq(GBA_OBJ_COMPACT_MOVE_EACH_CYCLES, VS_CYCLES_MOVE_EACH);
	ck_assert_uint_eq(GBA_OBJ_COMPACT_UPLOAD_TILE_CYCLES, 32u / 4 * VS_CYCLES_UPLOAD_WORD);
	ck_assert_uint_eq(GBA_OBJ_COMPACT_FRAME_CYCLES, VS_VBLANK_CYCLES / 4);
	for (seed = 1; seed <= vs_test_soak(4, 40); seed++) {
		vs_rng g = { seed };
		uint16_t first = (uint16_t)(seed % 2 ? 0u : 512u);
		int n = 0;
		uint32_t used = 0, k, t, spent = 0; /* cycles of uploads and on-need moves since the last frame */
		uint16_t budget = (uint16_t)(seed % 2 ? vs_rng_below(&g, 300) : GBA_OBJ_COMPACT_AUTO);
		gba_obj_compact_init(&m, first, budget);
		for (t = 0; t < GBA_OBJ_COMPACT_TILES; t++)
			owner[t] = GBA_OBJ_COMPACT_NONE;
		for (step = 0; step < 20000; step++) {
			uint16_t tiles, align, slot = GBA_OBJ_COMPACT_NONE, nm;
			uint32_t free_tiles = GBA_OBJ_COMPACT_TILES - first - used;
			const gba_obj_compact_move *mv;
			random_sprite(&g, &tiles, &align);
			if (vs_rng_below(&g, 16) == 0) {
				uint32_t moved = 0, left = spent < GBA_OBJ_COMPACT_FRAME_CYCLES ? GBA_OBJ_COMPACT_FRAME_CYCLES - spent : 0;
				gba_obj_compact_frame(&m);
				mv = gba_obj_compact_moves(&m, &nm);
				for (k = 0; k < nm; k++)
					moved += mv[k].tiles;
				/* the frame's slide spends at most what the frame's uploads and
				 * on-need moves left of a quarter of VBlank, each move priced
				 * beside its tiles; or its budget of tiles */
				if (budget == GBA_OBJ_COMPACT_AUTO)
					HOT_CMP(moved * GBA_OBJ_COMPACT_MOVE_TILE_CYCLES + nm * GBA_OBJ_COMPACT_MOVE_EACH_CYCLES, <=, left);
				else
					HOT_CMP(moved, <=, budget);
				spent = 0;
			} else if (n && (vs_rng_below(&g, 2) || tiles > free_tiles)) {
				uint32_t j = vs_rng_below(&g, (uint32_t)n);
				used -= size[live[j]];
				for (t = 0; t < size[live[j]]; t++)
					owner[gba_obj_compact_start(&m, live[j]) + t] = GBA_OBJ_COMPACT_NONE;
				HOT_CMP(gba_obj_compact_free(&m, live[j]), ==, 0);
				live[j] = live[--n];
			} else {
				/* first fit on the model's tiles: where the lowest gap holding it lies */
				uint32_t fit = GBA_OBJ_COMPACT_NONE, len = 0;
				for (t = first; t < GBA_OBJ_COMPACT_TILES && fit == GBA_OBJ_COMPACT_NONE; t++) {
					len = owner[t] == GBA_OBJ_COMPACT_NONE && (len || t % align == 0) ? len + 1 : 0;
					if (len == tiles)
						fit = t + 1 - tiles;
				}
				slot = gba_obj_compact_alloc(&m, tiles, align);
				if (tiles <= free_tiles && n < (int)GBA_OBJ_COMPACT_MAX)
					HOT_ASSERT(slot != GBA_OBJ_COMPACT_NONE,
						"seed %u step %u: %u tiles (%s) refused with %u free", seed, step, (unsigned)tiles,
						align == 2 ? "8bpp" : "4bpp", (unsigned)free_tiles);
				/* a gap holds it: it goes there, the lowest, and nothing moves */
				if (fit != GBA_OBJ_COMPACT_NONE && n < (int)GBA_OBJ_COMPACT_MAX) {
					gba_obj_compact_moves(&m, &nm);
					HOT_CMP(nm, ==, 0);
					HOT_CMP(gba_obj_compact_start(&m, slot), ==, fit);
				}
			}
			/* the moves, in order, on the model's tiles */
			mv = gba_obj_compact_moves(&m, &nm);
			for (k = 0; k < nm; k++) {
				HOT_CMP(mv[k].tiles, ==, size[mv[k].slot]);
				for (t = 0; t < mv[k].tiles; t++) {
					HOT_CMP(owner[mv[k].from + t], ==, mv[k].slot);
					HOT_ASSERT(owner[mv[k].to + t] == GBA_OBJ_COMPACT_NONE || owner[mv[k].to + t] == mv[k].slot,
						"seed %u step %u: move %u of slot %u onto tile %u of slot %u", seed, step, k,
						(unsigned)mv[k].slot, (unsigned)(mv[k].to + t), (unsigned)owner[mv[k].to + t]);
				}
				for (t = 0; t < mv[k].tiles; t++)
					owner[mv[k].from + t] = GBA_OBJ_COMPACT_NONE;
				for (t = 0; t < mv[k].tiles; t++)
					owner[mv[k].to + t] = mv[k].slot;
			}
			if (slot != GBA_OBJ_COMPACT_NONE) {
				uint16_t s0 = gba_obj_compact_start(&m, slot);
				HOT_CMP(s0 % align, ==, 0);
				HOT_CMP(s0, >=, first);
				HOT_CMP(s0 + tiles, <=, GBA_OBJ_COMPACT_TILES);
				for (t = 0; t < tiles; t++) {
					HOT_CMP(owner[s0 + t], ==, GBA_OBJ_COMPACT_NONE);
					owner[s0 + t] = slot;
				}
				live[n++] = slot;
				size[slot] = tiles;
				used += tiles;
				spent += tiles * GBA_OBJ_COMPACT_UPLOAD_TILE_CYCLES;
				mv = gba_obj_compact_moves(&m, &nm);
				for (k = 0; k < nm; k++)
					spent += mv[k].tiles * GBA_OBJ_COMPACT_MOVE_TILE_CYCLES + GBA_OBJ_COMPACT_MOVE_EACH_CYCLES;
			}
			/* where the allocator says each sprite is, the model agrees */
			for (k = 0; k < (uint32_t)n; k++)
				HOT_CMP(owner[gba_obj_compact_start(&m, live[k])], ==, live[k]);
		}
	}
}
END_TEST

/* Through the replay: random sprite traces of 4bpp and 8bpp mixes that
 * keep the area nearly full, every request within the free tiles (the
 * trace's own count, as the generators do). gba-obj-compact must serve
 * every one, and the replay checks each move (onto free tiles, bytes kept). */
static char *dense_sprites(unsigned seed, int events)
{
	static const char *const shapes4[] = { "8x8", "16x8", "16x16", "32x16", "32x32", "64x32" };
	static const char *const shapes8[] = { "8x8", "16x8", "16x16", "32x16", "32x32", "64x32" };
	size_t cap = (size_t)events * 48 + 64, n = 0;
	char *t = malloc(cap);
	vs_rng g = { seed };
	uint64_t live[256];
	uint32_t ltiles[256], used = 0, area = seed % 2 ? 1024 : 512;
	int nlive = 0, i, next = 1;

	ck_assert_ptr_nonnull(t);
	n += (size_t)snprintf(t + n, cap - n, "vramsim-trace 1\narena obj gba-obj mode=%d\n", seed % 2 ? 0 : 4);
	for (i = 0; i < events; i++) {
		uint32_t k = vs_rng_below(&g, 12), c = vs_rng_below(&g, 8), sz = vs_rng_below(&g, 6);
		int bpp8 = c >= 5;
		uint32_t tiles = c < 3 ? 1u : (1u << sz) * (bpp8 ? 2u : 1u);
		if (c < 3)
			sz = 0, bpp8 = 0;
		if (k == 0) {
			n += (size_t)snprintf(t + n, cap - n, "frame\n");
		} else if (nlive && (k < 5 || used + tiles > area || nlive == 256)) {
			uint32_t j = vs_rng_below(&g, (uint32_t)nlive);
			n += (size_t)snprintf(t + n, cap - n, "free %llu\n", (unsigned long long)live[j]);
			used -= ltiles[j];
			live[j] = live[--nlive];
			ltiles[j] = ltiles[nlive];
		} else if (used + tiles <= area) {
			n += (size_t)snprintf(t + n, cap - n, "alloc %d sprite %s %s\n", next,
				bpp8 ? shapes8[sz] : shapes4[sz], bpp8 ? "8bpp" : "4bpp");
			ltiles[nlive] = tiles;
			live[nlive++] = (uint64_t)next++;
			used += tiles;
		}
	}
	return t;
}

typedef struct fail_watch {
	uint64_t fails, first_line;
} fail_watch;

static void watch_fails(void *ud, vs_replay *r, const vs_outcome *o)
{
	fail_watch *w = ud;

	(void)r;
	if (o->failed && !w->fails++)
		w->first_line = o->ev->line;
}

START_TEST(compact_serves_what_fits)
{
	unsigned seed;

	for (seed = 1; seed <= vs_test_soak(6, 60); seed++) {
		char *t = dense_sprites(seed, 6000);
		fail_watch w = { 0, 0 };
		run x;
		start_watched(&x, t, vs_strategy_find("gba-obj-compact"), seed % 3 ? "" : "budget=0", watch_fails, &w);
		ck_assert_int_eq(vs_replay_run(x.r, 0), 0);
		ck_assert_msg(vs_replay_check_total(x.r) == 0, "seed %u: %s", seed, x.msgs);
		ck_assert_msg(w.fails == 0, "seed %u: %llu requests within the free tiles refused, the first at line %llu",
			seed, (unsigned long long)w.fails, (unsigned long long)w.first_line);
		ck_assert_uint_gt(vs_replay_metrics(x.r, 0)->moves, 0);
		finish(&x);
		free(t);
	}
}
END_TEST

/* On every bundled OBJ trace: no failure at all, a clean replay with its
 * moves checked, and lower peak fragmentation than every allocator that
 * does not move. */
START_TEST(compact_on_bundled_traces)
{
	static const char *const traces[] = {
		"gba-sprite-churn-1", "gba-sprite-churn-2", "gba-boss-fight-1", "gba-boss-fight-2",
		"gba-level-change-1", "gba-level-change-2", "gba-bitmap-racer-1", "gba-bitmap-racer-2",
		"gba-demo-capture",
	};
	static const char *const rivals[] = { "gba-obj-map", "gba-obj-first-fit", "gba-obj-best-fit-end", "gba-obj-buddy",
		"gba-obj-snug", "gba-obj-ends", "gba-obj-slots" };
	enum { NR = sizeof rivals / sizeof rivals[0] };
	size_t t, k;

	for (t = 0; t < sizeof traces / sizeof traces[0]; t++) {
		char path[1024];
		double frag[NR + 1];
		for (k = 0; k <= NR; k++) {
			const vs_strategy *s = vs_strategy_find(k < NR ? rivals[k] : "gba-obj-compact");
			vs_replay_config cfg;
			char err[512];
			vs_trace_reader *rd;
			vs_replay *r;
			snprintf(path, sizeof path, "%s/traces/%s.trace", VS_SOURCE_DIR, traces[t]);
			rd = vs_trace_open(path, err, sizeof err);
			ck_assert_msg(rd != NULL, "%s", err);
			vs_replay_config_default(&cfg);
			cfg.strategy[0] = s;
			cfg.message = collect_none;
			r = vs_replay_new(rd, &cfg, err, sizeof err);
			ck_assert_msg(r != NULL, "%s", err);
			ck_assert_int_eq(vs_replay_run(r, 0), 0);
			frag[k] = vs_replay_metrics(r, 0)->peak_frag;
			if (k == NR) {
				ck_assert_msg(vs_replay_metrics(r, 0)->failures == 0, "%s: %llu failures", traces[t],
					(unsigned long long)vs_replay_metrics(r, 0)->failures);
				ck_assert_uint_eq(vs_replay_check_total(r), 0);
				ck_assert_uint_gt(vs_replay_metrics(r, 0)->moves, 0);
			}
			vs_replay_free(r);
		}
		for (k = 0; k < NR; k++)
			ck_assert_msg(frag[NR] < frag[k], "%s: peak fragmentation %.3f, %s has %.3f", traces[t], frag[NR],
				rivals[k], frag[k]);
	}
}
END_TEST

static Suite *moves_suite(void)
{
	Suite *s = suite_create("moves");
	TCase *tc = tcase_create("engine");

	tcase_add_test(tc, compacting_strategy);
	tcase_add_test(tc, wrong_moves_are_caught);
	tcase_add_test(tc, a_game_that_moves);
	tcase_add_test(tc, compact_never_fragments);
	tcase_add_test(tc, compact_serves_what_fits);
	tcase_add_test(tc, compact_on_bundled_traces);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vs_test_main(moves_suite());
}
