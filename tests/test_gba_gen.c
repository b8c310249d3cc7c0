/* SPDX-License-Identifier: Zlib */
/* test_gba_gen.c - the GBA workload generators: deterministic, well-formed
 * traces of the documented shape, user maps read from CSV and raw u16. */
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "gen/gen.h"
#include "engine/replay.h"
#include "trace/trace.h"

/* Runs a generator into memory; returns the text (caller frees). */
static char *run_gen(const vs_generator *g, const vs_gen_opts *o, size_t *len, int *rc)
{
	char err[512], *buf;
	FILE *fp = tmpfile();

	ck_assert_ptr_nonnull(fp);
	*rc = g->run(fp, o, err, sizeof err);
	buf = vs_test_slurp_stream(fp, len);
	fclose(fp);
	return buf;
}

/* Reads the text through the trace reader: it must be a valid trace. */
static uint64_t validate(const char *text, size_t len)
{
	char err[512];
	FILE *fp = tmpfile();
	vs_trace_reader *rd;
	vs_event ev;
	uint64_t n = 0;
	int rc;

	fwrite(text, 1, len, fp);
	rewind(fp);
	rd = vs_trace_open_stream(fp, "gen", err, sizeof err);
	ck_assert_msg(rd != NULL, "%s", err);
	while ((rc = vs_trace_next(rd, &ev)) == 1)
		n++;
	ck_assert_msg(rc == 0, "%s", vs_trace_error(rd));
	vs_trace_close(rd);
	fclose(fp);
	return n;
}

START_TEST(deterministic_and_valid)
{
	const vs_generator *g = vs_generator_at((size_t)_i);
	vs_gen_opts o;
	size_t l1, l2, l3;
	int rc;
	char *a, *b, *c;

	vs_gen_opts_default(&o);
	o.frames = 300;
	o.seed = 42;
	a = run_gen(g, &o, &l1, &rc);
	ck_assert_int_eq(rc, 0);
	b = run_gen(g, &o, &l2, &rc);
	ck_assert_uint_eq(l1, l2);
	ck_assert(memcmp(a, b, l1) == 0);
	o.seed = 43;
	c = run_gen(g, &o, &l3, &rc);
	ck_assert(l3 != l1 || memcmp(a, c, l1) != 0);
	ck_assert_uint_gt(validate(a, l1), 300);
	free(a);
	free(b);
	free(c);
}
END_TEST

/* Side-scroller: after the first screen, at most ~500 tile checks a frame;
 * every free names a live reference; no reference to tile 0. */
START_TEST(side_scroller_shape)
{
	vs_gen_opts o;
	size_t len;
	int rc, frame = 0, per = 0, maxper = 0;
	char *t, *line, *save = NULL;
	static uint8_t live[400000];
	unsigned long long id;
	unsigned rom, bpp;

	vs_gen_opts_default(&o);
	o.frames = 400;
	t = run_gen(vs_generator_find("side-scroller"), &o, &len, &rc);
	ck_assert_int_eq(rc, 0);
	memset(live, 0, sizeof live);
	for (line = strtok_r(t, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strcmp(line, "frame") == 0) {
			if (frame++ > 0 && per > maxper)
				maxper = per;
			per = 0;
		} else if (sscanf(line, "alloc %llu tile %u %ubpp", &id, &rom, &bpp) == 3) {
			ck_assert_uint_ne(rom, 0);
			ck_assert(bpp == 4 || bpp == 8);
			ck_assert_uint_lt(id, sizeof live);
			live[id] = 1;
			per++;
		} else if (sscanf(line, "free %llu", &id) == 1) {
			ck_assert_msg(live[id], "free of %llu, not live", id);
			live[id] = 0;
			per++;
		}
	}
	ck_assert_int_eq(frame, 400);
	ck_assert_int_gt(maxper, 50);
	ck_assert_int_le(maxper, 520);
	free(t);
}
END_TEST

/* Replays a generated trace with each arena's default strategy: it must
 * run to the end with no check or diagnostic; returns the failures and
 * the summed peak live bytes of all arenas. */
static void quiet(void *ud, const char *line)
{
	(void)ud;
	(void)line;
}

static void replay_text(const char *text, size_t len, uint64_t *failures, uint64_t *peak_live)
{
	char err[512];
	FILE *fp = tmpfile();
	vs_replay_config cfg;
	vs_trace_reader *rd;
	vs_replay *r;
	int i;

	fwrite(text, 1, len, fp);
	rewind(fp);
	rd = vs_trace_open_stream(fp, "gen", err, sizeof err);
	ck_assert_msg(rd != NULL, "%s", err);
	/* a failed allocation's later free is a warning: counted, not printed */
	vs_replay_config_default(&cfg);
	cfg.message = quiet;
	r = vs_replay_new(rd, &cfg, err, sizeof err);
	ck_assert_msg(r != NULL, "%s", err);
	ck_assert_msg(vs_replay_run(r, 0) == 0, "%s", vs_replay_error(r));
	ck_assert_uint_eq(vs_replay_check_total(r), 0);
	*failures = *peak_live = 0;
	for (i = 0; i < vs_replay_arena_count(r); i++) {
		*failures += vs_replay_metrics(r, i)->failures;
		*peak_live += vs_replay_metrics(r, i)->peak_live;
	}
	vs_replay_free(r);
	fclose(fp);
}

/* Seed 000's worst case: after the first frame every frame is exactly a
 * new 32-cell row and column per layer in and the old ones out: 4 x 63
 * references and 4 x 63 releases, 504 checks; deterministic per seed; the
 * tile manager takes it with no failure. */
START_TEST(side_scroller_worst_case)
{
	vs_gen_opts o;
	size_t len, len2;
	int rc, frame = 0, in = 0, out = 0, odd = 0;
	char *t, *t2, *line, *save = NULL;
	uint64_t failures, peak;

	vs_gen_opts_default(&o);
	o.worst_case = 1;
	o.frames = 300;
	o.seed = 7;
	t = run_gen(vs_generator_find("side-scroller"), &o, &len, &rc);
	ck_assert_int_eq(rc, 0);
	t2 = run_gen(vs_generator_find("side-scroller"), &o, &len2, &rc);
	ck_assert(len == len2 && memcmp(t, t2, len) == 0);
	free(t2);
	o.seed = 8;
	t2 = run_gen(vs_generator_find("side-scroller"), &o, &len2, &rc);
	ck_assert(len != len2 || memcmp(t, t2, len) != 0);
	free(t2);
	replay_text(t, len, &failures, &peak);
	ck_assert_uint_eq(failures, 0);
	ck_assert_uint_gt(peak, 16u << 10);
	for (line = strtok_r(t, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strcmp(line, "frame") == 0) {
			/* the first frame fills the four 32x32 maps */
			if (frame++ == 0)
				ck_assert_int_eq(in, 4 + 4 * 32 * 32);
			else if (in != 4 * 63 || out != 4 * 63)
				odd++;
			in = out = 0;
		} else if (strncmp(line, "alloc ", 6) == 0) {
			in++;
		} else if (strncmp(line, "free ", 5) == 0) {
			out++;
		}
	}
	ck_assert_int_eq(frame, 300);
	ck_assert_int_eq(odd, 0);
	free(t);
}
END_TEST

/* --worst-case from the command line, and only for side-scroller. */
START_TEST(worst_case_cli)
{
	static char out[1 << 20], err[4096];

	ck_assert_int_eq(vs_test_run_cli("gen side-scroller --worst-case --frames 3", out, sizeof out, err,
		sizeof err), 0);
	ck_assert_ptr_nonnull(strstr(out, "alloc 4100 tile"));
	ck_assert_int_eq(vs_test_run_cli("gen sprite-churn --worst-case", out, sizeof out, err, sizeof err), 2);
	ck_assert_ptr_nonnull(strstr(err, "--worst-case is for side-scroller only"));
}
END_TEST

/* `gen --help` states each generator's figures (vs_gen_figures): its
 * default trace (seed 1, default frames) must have exactly those, run for
 * the default number of frames, and fail as often as it says. */
START_TEST(help_figures_are_true)
{
	const vs_generator *g = vs_generator_at((size_t)_i);
	vs_gen_opts o;
	size_t len;
	int rc;
	uint32_t frames = 0, allocs = 0, frees = 0, calls = 0, max_calls = 0;
	char *t, *line, *save = NULL;
	uint64_t failures, peak;

	vs_gen_opts_default(&o);
	t = run_gen(g, &o, &len, &rc);
	ck_assert_int_eq(rc, 0);
	replay_text(t, len, &failures, &peak);
	for (line = strtok_r(t, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strcmp(line, "frame") == 0) {
			if (frames++ > 0 && calls > max_calls)
				max_calls = calls;
			calls = 0;
		} else if (strncmp(line, "alloc ", 6) == 0) {
			allocs++;
			calls++;
		} else if (strncmp(line, "free ", 5) == 0) {
			frees++;
			calls++;
		}
	}
	free(t);
	ck_assert_msg(frames == g->default_frames && allocs == g->figures.allocs && frees == g->figures.frees &&
		max_calls == g->figures.max_calls && peak == g->figures.peak_live,
		"%s: measured %u frames, { %u, %u, %u, %u }; the table says %u frames, { %u, %u, %u, %u }", g->name,
		frames, allocs, frees, max_calls, (unsigned)peak, g->default_frames, g->figures.allocs,
		g->figures.frees, g->figures.max_calls, g->figures.peak_live);
	ck_assert_uint_eq(failures, g->figures.failures);
}
END_TEST

/* Level change: in some frame the level set is freed and a new one loaded. */
START_TEST(level_change_swaps_in_one_frame)
{
	vs_gen_opts o;
	size_t len;
	int rc, swaps = 0, frees = 0, loads = 0;
	char *t, *line, *save = NULL;
	static uint8_t level[100000];
	unsigned long long id;

	vs_gen_opts_default(&o);
	o.frames = 2000;
	t = run_gen(vs_generator_find("level-change"), &o, &len, &rc);
	ck_assert_int_eq(rc, 0);
	memset(level, 0, sizeof level);
	for (line = strtok_r(t, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strcmp(line, "frame") == 0) {
			if (frees >= 8 && loads >= 8)
				swaps++;
			frees = loads = 0;
		} else if (sscanf(line, "alloc %llu", &id) == 1 && strstr(line, "tag=level")) {
			level[id] = 1;
			loads++;
		} else if (sscanf(line, "free %llu", &id) == 1 && id < sizeof level && level[id]) {
			frees++;
		}
	}
	ck_assert_int_ge(swaps, 1);
	free(t);
}
END_TEST

/* The OBJ generators keep the game's own count: live sprite tiles never
 * exceed the OBJ area (512 tiles in bitmap modes), so every failure in a
 * replay is the allocator's; and they run it near full. */
START_TEST(obj_demand_within_area)
{
	static const char *const names[] = { "sprite-churn", "level-change", "boss-fight", "bitmap-racer" };
	static uint16_t tiles[200000];
	vs_gen_opts o;
	size_t len;
	int rc;
	char *t, *line, *save = NULL;
	unsigned long long id;
	unsigned w, h, bpp, area = 1024, live = 0, peak = 0;

	vs_gen_opts_default(&o);
	o.seed = 7;
	t = run_gen(vs_generator_find(names[_i]), &o, &len, &rc);
	ck_assert_int_eq(rc, 0);
	memset(tiles, 0, sizeof tiles);
	for (line = strtok_r(t, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strstr(line, "arena obj gba-obj mode=4"))
			area = 512;
		if (sscanf(line, "alloc %llu sprite %ux%u %ubpp", &id, &w, &h, &bpp) == 4) {
			ck_assert_uint_lt(id, sizeof tiles / sizeof tiles[0]);
			ck_assert(w <= 64 && h <= 64 && (bpp == 4 || bpp == 8));
			tiles[id] = (uint16_t)(w / 8 * (h / 8) * (bpp / 4));
			live += tiles[id];
			ck_assert_uint_le(live, area);
			if (live > peak)
				peak = live;
		} else if (sscanf(line, "free %llu", &id) == 1) {
			ck_assert_msg(tiles[id], "free of %llu, not live", id);
			live -= tiles[id];
			tiles[id] = 0;
		}
	}
	ck_assert_uint_ge(peak * 100u, area * 85u);
	ck_assert_uint_eq(area, _i == 3 ? 512u : 1024u);
	free(t);
}
END_TEST

START_TEST(user_maps)
{
	vs_gen_opts o;
	size_t len, i;
	int rc;
	char csv[40 * 40 * 3 + 64], *t, err[300];
	const char *csv_path, *raw_path;
	uint8_t raw[64 * 40 * 2];
	FILE *fp;

	/* CSV: 40x40 cells of ROM tile 7 on layer 0. */
	csv[0] = '\0';
	for (i = 0; i < 40 * 40; i++)
		strcat(csv, i % 40 == 39 ? "7\n" : "7,");
	csv_path = vs_test_file(0, "map.csv", csv);
	/* raw: 64x40 cells of ROM tile 0x0123 (little-endian) on layer 2. */
	for (i = 0; i < 64 * 40; i++) {
		raw[2 * i] = 0x23;
		raw[2 * i + 1] = 0x01;
	}
	raw_path = vs_test_file(1, "map.bin", "");
	fp = fopen(raw_path, "wb");
	fwrite(raw, 1, sizeof raw, fp);
	fclose(fp);
	vs_gen_opts_default(&o);
	o.frames = 60;
	o.maps[0] = csv_path;
	o.maps[2] = raw_path;
	o.map_width = 64;
	t = run_gen(vs_generator_find("side-scroller"), &o, &len, &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_ptr_nonnull(strstr(t, "tile 7 4bpp"));
	ck_assert_ptr_nonnull(strstr(t, "tile 291 8bpp"));
	validate(t, len);
	free(t);
	/* A raw map whose cells do not make whole rows is refused. */
	o.map_width = 63;
	fp = tmpfile();
	ck_assert_int_ne(vs_gen_side_scroller(fp, &o, err, sizeof err), 0);
	ck_assert_ptr_nonnull(strstr(err, "rows"));
	fclose(fp);
	/* A map too small for the screen is refused. */
	o.maps[2] = NULL;
	o.maps[0] = vs_test_file(2, "small.csv", "1,2,3\n4,5,6\n");
	fp = tmpfile();
	ck_assert_int_ne(vs_gen_side_scroller(fp, &o, err, sizeof err), 0);
	ck_assert_ptr_nonnull(strstr(err, "smaller"));
	fclose(fp);
	remove(csv_path);
	remove(raw_path);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("gba_gen");
	TCase *tc = tcase_create("gen");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, deterministic_and_valid, 0, (int)vs_generator_count());
	tcase_add_test(tc, side_scroller_shape);
	tcase_add_test(tc, side_scroller_worst_case);
	tcase_add_test(tc, worst_case_cli);
	tcase_add_loop_test(tc, help_figures_are_true, 0, (int)vs_generator_count());
	tcase_add_test(tc, level_change_swaps_in_one_frame);
	tcase_add_test(tc, user_maps);
	tcase_add_loop_test(tc, obj_demand_within_area, 0, 4);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vs_test_main(suite());
}
