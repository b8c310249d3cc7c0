/* SPDX-License-Identifier: Zlib */
/* test_ds_gen.c - `vramsim gen ds-sprites` and `gen ds-3d`: bytes fixed by
 * the options, canonical traces that replay with no integrity error under
 * every strategy managing their arenas, the game's own counts kept (OBJ
 * footprints within the area, shared palettes freed with their last user,
 * re-uploads of the same size and format), the boundary's arena lines, the
 * fill the help promises, and the options' errors. */
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "gen/gen_ds.h"
#include "engine/replay.h"
#include "strategies/registry.h"
#include "trace/trace.h"

#define MAX_IDS 20000

static char out[1 << 20], err[1 << 14];
#define cli(...) vs_test_cli(out, sizeof out, err, sizeof err, __VA_ARGS__)

typedef int gen_fn(FILE *fp, const vs_gen_opts *o, const vs_gen_ds_opts *d, char *e, size_t elen);

static char *gen(gen_fn *fn, uint64_t seed, uint32_t frames, uint32_t boundary, int remap, size_t *len)
{
	vs_gen_opts o;
	vs_gen_ds_opts d;
	char e[256], *buf;
	FILE *fp = tmpfile();

	ck_assert_ptr_nonnull(fp);
	vs_gen_opts_default(&o);
	vs_gen_ds_opts_default(&d);
	o.seed = seed;
	o.frames = frames;
	if (boundary)
		d.boundary = boundary;
	d.remap = remap;
	ck_assert_int_eq(fn(fp, &o, &d, e, sizeof e), 0);
	buf = vs_test_slurp_stream(fp, len);
	fclose(fp);
	return buf;
}

static void quiet(void *ud, const char *line)
{
	(void)ud;
	(void)line;
}

/* Replays text with strategy s on the arenas (of the kinds given, one
 * per arena of the trace) it manages, the others on their defaults (s NULL:
 * all); returns the integrity errors, and arena 0's metrics in m0 when not
 * NULL. */
static uint64_t replay_with(const char *text, const vs_strategy *s, const vs_arena_kind kinds[2], vs_metrics *m0)
{
	vs_test_replay x;
	vs_replay_config cfg;
	char e[512];
	uint64_t checks;
	int a;

	vs_replay_config_default(&cfg);
	cfg.message = quiet;
	for (a = 0; s && a < 2; a++)
		if (vs_strategy_manages(s, kinds[a]))
			cfg.strategy[a] = s;
	ck_assert_msg(vs_test_replay_open(&x, text, "gen", &cfg, e, sizeof e) != NULL, "%s", e);
	ck_assert_msg(vs_replay_run(x.r, 0) == 0, "%s: %s", s ? s->name : "defaults", vs_replay_error(x.r));
	checks = vs_replay_check_total(x.r);
	if (m0)
		*m0 = *vs_replay_metrics(x.r, 0);
	vs_test_replay_close(&x);
	return checks;
}

static const vs_arena_kind obj_kinds[2] = { VS_ARENA_DS_OBJ, VS_ARENA_DS_OBJ };
static const vs_arena_kind gl_kinds[2] = { VS_ARENA_DS_TEX, VS_ARENA_DS_PLTT };

/* Same options, same bytes; another seed, other bytes; canonical form. */
START_TEST(deterministic_and_canonical)
{
	static const uint32_t boundaries[] = { 32, 64, 128, 256 };
	static char canon[1 << 18];
	size_t l1, l2, l3;
	char *a, *b, *c;
	int i;

	for (i = 0; i < 6; i++) {
		gen_fn *fn = i < 4 ? vs_gen_ds_sprites_with : vs_gen_ds_3d_with;
		uint32_t bd = i < 4 ? boundaries[i] : 0;
		a = gen(fn, 42, 900, bd, i == 5, &l1);
		b = gen(fn, 42, 900, bd, i == 5, &l2);
		c = gen(fn, 43, 900, bd, i == 5, &l3);
		ck_assert_uint_eq(l1, l2);
		ck_assert(memcmp(a, b, l1) == 0);
		ck_assert(l3 != l1 || memcmp(a, c, l1) != 0);
		vs_test_reformat(a, canon, sizeof canon);
		ck_assert_msg(strcmp(canon, a) == 0, "case %d: not in canonical form", i);
		free(a);
		free(b);
		free(c);
	}
}
END_TEST

/* --boundary sets both engines' boundary and engine A's banks (what 1024
 * tiles of it reach); the default is 128. */
START_TEST(boundary_sets_the_arenas)
{
	static const struct { uint32_t b; const char *head; } want[] = {
		{ 0, "vramsim-trace 1\narena main ds-obj banks=A0 boundary=128\narena sub ds-obj engine=b boundary=128\n" },
		{ 32, "vramsim-trace 1\narena main ds-obj banks=F0G1\narena sub ds-obj engine=b\n" },
		{ 64, "vramsim-trace 1\narena main ds-obj banks=E0 boundary=64\narena sub ds-obj engine=b boundary=64\n" },
		{ 256, "vramsim-trace 1\narena main ds-obj banks=A0B1 boundary=256\narena sub ds-obj engine=b boundary=256\n" },
	};
	size_t i, len;

	for (i = 0; i < sizeof want / sizeof want[0]; i++) {
		char *t = gen(vs_gen_ds_sprites_with, 1, 10, want[i].b, 0, &len);
		ck_assert_msg(strncmp(t, want[i].head, strlen(want[i].head)) == 0, "boundary %u:\n%.200s", want[i].b, t);
		free(t);
	}
	ck_assert_int_eq(cli("gen ds-sprites --frames 1 --boundary 64"), 0);
	ck_assert_ptr_nonnull(strstr(out, "arena main ds-obj banks=E0 boundary=64\n"));
}
END_TEST

/* The game's count: live footprints (size rounded up to the boundary)
 * never pass 1024 tiles on engine A nor bank D on engine B, every free
 * names a live id, each kind is tagged, bitmaps only on engine B. */
START_TEST(sprites_within_the_area)
{
	static const uint32_t boundaries[] = { 32, 64, 128, 256 };
	static uint16_t units[MAX_IDS];
	static uint8_t eng[MAX_IDS];
	uint32_t bd = boundaries[_i], live[2] = { 0, 0 }, peak[2] = { 0, 0 };
	uint32_t area[2] = { 1024, bd == 256 ? 512u : 1024u };
	unsigned long long id;
	unsigned w, h;
	char *t, *line, *save = NULL, arena[8], depth[8], tag[16];
	int tags = 0, frames = 0;
	size_t len;

	memset(units, 0, sizeof units);
	t = gen(vs_gen_ds_sprites_with, 5, 0, bd, 0, &len);
	for (line = strtok_r(t, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "alloc %llu %7s sprite %ux%u %7s tag=%15s", &id, arena, &w, &h, depth, tag) == 6) {
			unsigned bits = strcmp(depth, "bmp") == 0 ? 16u : (unsigned)(depth[0] - '0');
			uint32_t bytes = w * h * bits / 8u, u = bytes <= bd ? 1u : (bytes + bd - 1u) / bd;
			int e = strcmp(arena, "sub") == 0;
			HOT_CMP(id, <, MAX_IDS);
			HOT_ASSERT(!units[id], "id %llu allocated twice", id);
			HOT_ASSERT(bits != 16 || e, "a bitmap sprite on engine A: %s", line);
			units[id] = (uint16_t)u;
			eng[id] = (uint8_t)e;
			live[e] += u;
			HOT_ASSERT(live[e] <= area[e], "boundary %u: engine %c holds %u of %u units at %s", bd, 'A' + e,
				live[e], area[e], line);
			if (live[e] > peak[e])
				peak[e] = live[e];
			tags |= 1 << (tag[0] - 'a');
		} else if (sscanf(line, "free %llu", &id) == 1) {
			HOT_ASSERT(id < MAX_IDS && units[id], "free of %llu, not live", id);
			live[eng[id]] -= units[id];
			units[id] = 0;
		} else if (strcmp(line, "frame") == 0) {
			frames++;
		} else {
			HOT_ASSERT(strncmp(line, "vramsim-trace", 13) == 0 || strncmp(line, "arena ", 6) == 0, "%s", line);
		}
	}
	ck_assert_int_eq(frames, 2400);
	/* player, hud, enemy, boss, bullet, spark, ui, icon, press */
	ck_assert_int_eq(tags, (1 << ('p' - 'a')) | (1 << ('h' - 'a')) | (1 << ('e' - 'a')) | (1 << ('b' - 'a')) |
		(1 << ('s' - 'a')) | (1 << ('u' - 'a')) | (1 << ('i' - 'a')));
	/* busy: engine A near its 93% budget at the smaller boundaries */
	ck_assert_uint_le(peak[0], 1024u * 93u / 100u);
	if (bd <= 128)
		ck_assert_uint_ge(peak[0], 1024u * 80u / 100u);
	ck_assert_uint_gt(peak[1], area[1] / 10u);
	free(t);
}
END_TEST

/* With the default boundary the busiest moments fill engine A to 85-95%
 * under libnds-sprite (its grant: whole 128-byte units), on seeds 1-8. */
START_TEST(sprites_fill_engine_a)
{
	const vs_strategy *s = vs_strategy_find("libnds-sprite");
	uint64_t seed;

	ck_assert_ptr_nonnull(s);
	for (seed = 1; seed <= 8; seed++) {
		vs_metrics m;
		size_t len;
		char *t = gen(vs_gen_ds_sprites_with, seed, 0, 0, 0, &len);
		ck_assert_uint_eq(replay_with(t, s, obj_kinds, &m), 0);
		ck_assert_uint_eq(m.usable_bytes, 128u << 10);
		ck_assert_msg(m.peak_granted * 100u >= m.usable_bytes * 85u && m.peak_granted * 100u <= m.usable_bytes * 95u,
			"seed %llu: peak granted %llu of %llu", (unsigned long long)seed, (unsigned long long)m.peak_granted,
			(unsigned long long)m.usable_bytes);
		free(t);
	}
}
END_TEST

/* NightFox's Lib places at any byte (its 8bpp-only design: an 8x8 or 4bpp
 * sprite of fewer bytes than the boundary puts the next one off it, the
 * hardware rule the replay reports) and its compaction's moves, on these
 * workloads, meet live blocks: its traces are replayed to the end without
 * the no-error claim (docs/ds.md, "Generators"). */
static int exempt(const vs_strategy *s)
{
	return strcmp(s->name, "nflib-sprite") == 0 || strcmp(s->name, "nflib-sprite3d") == 0;
}

/* Every strategy that manages one of the trace's kinds, on its arenas (the
 * others keep their defaults): no integrity error. */
static void every_strategy(const char *text, const vs_arena_kind kinds[2])
{
	size_t i;
	int runs = 0;

	for (i = 0; i < vs_strategy_count(); i++) {
		const vs_strategy *s = vs_strategy_at(i);
		uint64_t checks;
		if (!(vs_strategy_manages(s, kinds[0]) || vs_strategy_manages(s, kinds[1])) ||
		    (s->flags & VS_STRAT_NEEDS_AT))
			continue;
		checks = replay_with(text, s, kinds, NULL);
		ck_assert_msg(checks == 0 || exempt(s), "%s: %llu integrity errors", s->name, (unsigned long long)checks);
		runs++;
	}
	ck_assert_int_ge(runs, 2);
}

START_TEST(sprites_replay_clean_everywhere)
{
	static const uint32_t boundaries[] = { 32, 64, 128, 256 };
	size_t len;
	char *t = gen(vs_gen_ds_sprites_with, 1 + (uint64_t)_i, 0, boundaries[_i], 0, &len);

	every_strategy(t, obj_kinds);
	free(t);
}
END_TEST

START_TEST(tex_replay_clean_everywhere)
{
	size_t len;
	char *t = gen(vs_gen_ds_3d_with, 1 + (uint64_t)_i, 0, 0, 0, &len);

	every_strategy(t, gl_kinds);
	free(t);
}
END_TEST

/* ds-3d's books: shared palettes (fewer palettes than paletted textures,
 * each freed after its last texture: the replay has no free of a live
 * texture's palette to see, so the trace walk checks it by construction of
 * the ids), re-uploads of live textures at their size and format, every
 * format, frees of live ids only. */
START_TEST(tex_books)
{
	static char req[MAX_IDS][24];
	static uint8_t kind[MAX_IDS]; /* 0 none, 1 texture, 2 palette */
	unsigned long long id;
	char *t, *line, *save = NULL, r[32], fmt[16];
	unsigned w, h, colours;
	int fmts = 0, reup = 0, first = 0, pals = 0, paletted = 0, pal_frees = 0;
	size_t len;
	static const char *const names[] = { "a3i5", "4c", "16c", "256c", "4x4", "a5i3", "direct" };

	memset(kind, 0, sizeof kind);
	t = gen(vs_gen_ds_3d_with, 3, 0, 0, 0, &len);
	for (line = strtok_r(t, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		int k;
		if (sscanf(line, "alloc %llu tex tex %ux%u %15s", &id, &w, &h, fmt) == 4 ||
		    sscanf(line, "realloc %llu tex tex %ux%u %15s", &id, &w, &h, fmt) == 4) {
			HOT_CMP(id, <, MAX_IDS);
			snprintf(r, sizeof r, "%ux%u %s", w, h, fmt);
			if (kind[id]) {
				HOT_ASSERT(line[0] == 'r' && kind[id] == 1, "id %llu live: %s", id, line);
				HOT_ASSERT(strcmp(req[id], r) == 0, "re-upload %s of %s", r, req[id]);
				reup++;
			} else {
				first += line[0] == 'r';
			}
			kind[id] = 1;
			snprintf(req[id], sizeof req[id], "%s", r);
			for (k = 0; k < 7; k++)
				if (strcmp(fmt, names[k]) == 0)
					fmts |= 1 << k;
			paletted += strcmp(fmt, "direct") != 0 && line[0] == 'a';
		} else if (sscanf(line, "alloc %llu pal pltt %u", &id, &colours) == 2) {
			HOT_ASSERT(id < MAX_IDS && !kind[id], "%s", line);
			kind[id] = 2;
			pals++;
		} else if (sscanf(line, "free %llu", &id) == 1) {
			HOT_ASSERT(id < MAX_IDS && kind[id], "free of %llu, not live", id);
			pal_frees += kind[id] == 2;
			kind[id] = 0;
		}
	}
	ck_assert_int_eq(fmts, 0x7f);
	ck_assert_int_gt(reup, 100);
	ck_assert_int_gt(first, 2);      /* an animated texture's first upload is a realloc */
	ck_assert_int_lt(pals, paletted); /* some palettes are shared */
	ck_assert_int_gt(pal_frees, 10);
	free(t);
}
END_TEST

/* --remap: lock, VRAMCNT_D to LCDC, later back to slot 3 and unlock, with
 * no texture live across either write; libnds-tex (which reads VRAMCNT)
 * replays it clean; strategies that do not read it are told nothing. */
START_TEST(remap)
{
	size_t len;
	char *t = gen(vs_gen_ds_3d_with, 1, 0, 0, 1, &len), *lock, *give, *p;
	const vs_strategy *s = vs_strategy_find("libnds-tex");
	vs_test_replay x;
	vs_replay_config cfg;
	char e[512];

	lock = strstr(t, "\nlock D\nvramcnt D 0x80\n");
	give = strstr(t, "\nvramcnt D 0x9b\nunlock D\n");
	ck_assert_ptr_nonnull(lock);
	ck_assert_ptr_nonnull(give);
	ck_assert(give > lock);
	/* the lines before each write are frees (everything goes first) */
	for (p = lock; p > t && p[-1] != '\n'; p--)
		;
	ck_assert_msg(strncmp(p, "free ", 5) == 0, "%.40s", p);
	ck_assert_uint_eq(replay_with(t, s, gl_kinds, NULL), 0);
	/* with libnds-pltt too, and nothing stranded when the bank goes */
	vs_replay_config_default(&cfg);
	cfg.message = quiet;
	cfg.strategy[0] = s;
	cfg.strategy[1] = vs_strategy_find("libnds-pltt");
	ck_assert_msg(vs_test_replay_open(&x, t, "gen", &cfg, e, sizeof e) != NULL, "%s", e);
	ck_assert_int_eq(vs_replay_run(x.r, 0), 0);
	ck_assert_uint_eq(vs_replay_check_total(x.r), 0);
	ck_assert_uint_eq(vs_replay_check_count(x.r, VS_CHECK_UNMAPPED), 0);
	vs_test_replay_close(&x);
	/* only ds-3d has it; its default trace has none */
	free(t);
	t = gen(vs_gen_ds_3d_with, 1, 0, 0, 0, &len);
	ck_assert_ptr_null(strstr(t, "vramcnt"));
	free(t);
}
END_TEST

START_TEST(cli)
{
	ck_assert_int_eq(cli("gen ds-sprites --boundary 100"), 2);
	ck_assert_msg(strstr(err, "--boundary") != NULL, "%s", err);
	ck_assert_int_eq(cli("gen ds-3d --boundary 64"), 2);
	ck_assert_msg(strstr(err, "ds-sprites only") != NULL, "%s", err);
	ck_assert_int_eq(cli("gen ds-sprites --remap"), 2);
	ck_assert_msg(strstr(err, "ds-3d only") != NULL, "%s", err);
	ck_assert_int_eq(cli("gen ds-3d --remap --frames 2000"), 0);
	ck_assert_ptr_nonnull(strstr(out, "vramcnt D 0x80\n"));
	ck_assert_int_eq(cli("gen --help"), 0);
	ck_assert_ptr_nonnull(strstr(out, "  ds-sprites "));
	ck_assert_ptr_nonnull(strstr(out, "  ds-3d "));
	ck_assert_ptr_nonnull(strstr(out, "--boundary 32|64|128|256"));
	ck_assert_int_eq(cli("complete -- gen --boundary 1"), 0);
	ck_assert_str_eq(out, "128\n");
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("ds_gen");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, deterministic_and_canonical);
	tcase_add_test(tc, boundary_sets_the_arenas);
	tcase_add_loop_test(tc, sprites_within_the_area, 0, 4);
	tcase_add_test(tc, sprites_fill_engine_a);
	tcase_add_loop_test(tc, sprites_replay_clean_everywhere, 0, 4);
	tcase_add_loop_test(tc, tex_replay_clean_everywhere, 0, 2);
	tcase_add_test(tc, tex_books);
	tcase_add_test(tc, remap);
	tcase_add_test(tc, cli);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vs_test_main(suite());
}
