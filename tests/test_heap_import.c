/* SPDX-License-Identifier: Zlib */
/* test_heap_import.c - CS:APP malloc-lab traces into trace format v1: the
 * text written, that the trace reader takes it back, errors with
 * file:line:col, and a replay of the result through the heap strategies
 * giving malloc lab's peak utilisation. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support.h"
#include "vramsim/import.h"
#include "vramsim/strategy.h"
#include "vramsim/trace.h"

/* Imports text; returns the rc, the output in out. */
static int import_text(const char *name, const char *text, const vs_rep_options *opt, char *out, size_t cap,
	vs_rep_stats *st, char *err, size_t errlen)
{
	const char *path = vs_test_file(0, name, text);
	FILE *in = fopen(path, "rb"), *o = tmpfile();
	size_t n;
	int rc;

	ck_assert_ptr_nonnull(in);
	ck_assert_ptr_nonnull(o);
	err[0] = '\0';
	rc = vs_import_rep(in, name, o, opt, st, err, errlen);
	fclose(in);
	remove(path);
	rewind(o);
	n = fread(out, 1, cap - 1, o);
	out[n] = '\0';
	fclose(o);
	return rc;
}

START_TEST(four_line_header)
{
	char out[4096], err[512];
	vs_rep_stats st;
	int rc = import_text("a.rep", "20000\n3\n5\n1\na 0 10\na 1 20\nr 0 30\nf 1\nf 0\n", NULL, out, sizeof out,
		&st, err, sizeof err);

	ck_assert_msg(rc == 0, "%s", err);
	ck_assert_str_eq(out,
		"vramsim-trace 1\n"
		"# imported from a.rep (malloc-lab trace: 3 ids, 5 ops, suggested heap 20000 bytes, weight 1)\n"
		"# peak live payload 50 bytes; realloc written as free + alloc\n"
		"arena heap ram size=20000\n"
		"alloc 0 10\nalloc 1 20\nfree 0\nalloc 0 30\nfree 1\nfree 0\n");
	ck_assert_uint_eq(st.header_lines, 4);
	ck_assert_uint_eq(st.allocs, 2);
	ck_assert_uint_eq(st.reallocs, 1);
	ck_assert_uint_eq(st.frees, 2);
	ck_assert_uint_eq(st.peak_live, 50);
}
END_TEST

START_TEST(two_line_header_and_options)
{
	char out[4096], err[512];
	vs_rep_stats st;
	vs_rep_options opt = { 65536, "ewram", "heap-tlsf" };
	int rc = import_text("b.rep", "2\n3\r\n  a 0 8\n\nr 1 16\nf 0\n", &opt, out, sizeof out, &st, err, sizeof err);

	ck_assert_msg(rc == 0, "%s", err);
	ck_assert_uint_eq(st.header_lines, 2);
	ck_assert_uint_eq(st.arena_size, 65536);
	/* realloc of an id never allocated is realloc(NULL): a plain alloc */
	ck_assert_ptr_nonnull(strstr(out, "arena ewram ram size=65536 strategy=heap-tlsf\nalloc 0 8\nalloc 1 16\nfree 0\n"));
	/* without --size and without a heap size: malloc lab's MAX_HEAP */
	rc = import_text("b.rep", "1\n1\na 0 8\n", NULL, out, sizeof out, &st, err, sizeof err);
	ck_assert_msg(rc == 0, "%s", err);
	ck_assert_uint_eq(st.arena_size, VS_REP_DEFAULT_SIZE);
}
END_TEST

static void expect_error(const char *text, const char *where, const char *what)
{
	char out[4096], err[512];
	vs_rep_stats st;
	int rc = import_text("bad.rep", text, NULL, out, sizeof out, &st, err, sizeof err);

	ck_assert_int_eq(rc, -1);
	ck_assert_msg(strncmp(err, where, strlen(where)) == 0, "error '%s' should start with '%s'", err, where);
	ck_assert_msg(strstr(err, what) != NULL, "error '%s' should say '%s'", err, what);
}

START_TEST(errors_name_the_place)
{
	expect_error("20000\n2\n1\n", "bad.rep:4:1: error:", "header has 3 lines");
	expect_error("20000\n2\nx\n1\na 0 1\n", "bad.rep:3:1: error:", "expected a header number");
	expect_error("20000\n2\n2\n1\na 0 10\nq 0\n", "bad.rep:6:1: error:", "expected 'a ID SIZE'");
	expect_error("20000\n2\n2\n1\na 0 10\nf 5\n", "bad.rep:6:3: error:", "not below the header's number of ids");
	expect_error("20000\n2\n2\n1\na 0 10\na  0 4\n", "bad.rep:6:4: error:", "already allocated");
	expect_error("20000\n2\n2\n1\na 0 10\nf 1\n", "bad.rep:6:3: error:", "not allocated");
	expect_error("20000\n2\n2\n1\na 0 1x\nf 0\n", "bad.rep:5:6: error:", "unexpected 'x'");
	expect_error("20000\n2\n2\n1\na 0 10 7\nf 0\n", "bad.rep:5:8: error:", "at end of line");
	expect_error("20000\n2\n3\n1\na 0 10\nf 0\n", "bad.rep:7:1: error:", "header says 3 operations, the file has 2");
	expect_error("20000\n2\n2\n1\na 0 99999999999\nf 0\n", "bad.rep:5:5: error:", "does not fit 32 bits");
}
END_TEST

/* Replays an imported trace through a strategy by hand and returns malloc
 * lab's peak utilisation: peak live payload over the heap's high-water mark. */
static double replay_util(const char *trace_path, const char *strategy, uint32_t *failures)
{
	char err[512];
	vs_trace_reader *rd = vs_trace_open(trace_path, err, sizeof err);
	const vs_trace_header *h;
	const vs_strategy *s = vs_strategy_find(strategy);
	vs_placement pl[8];
	uint32_t req[8];
	int live[8] = { 0 };
	uint64_t cur = 0, peak = 0, hw = 0;
	void *st;
	uint8_t *mem;
	vs_event ev;

	ck_assert_msg(rd != NULL, "%s", err);
	ck_assert_ptr_nonnull(s);
	h = vs_trace_header_of(rd);
	ck_assert_int_eq(h->narenas, 1);
	ck_assert_int_eq(h->arenas[0].kind, VS_ARENA_RAM);
	st = calloc(1, s->state_size);
	mem = calloc(h->arenas[0].size, 1);
	ck_assert_msg(s->init(st, &h->arenas[0], "", mem, err, sizeof err) == 0, "%s", err);
	*failures = 0;
	while (vs_trace_next(rd, &ev) == 1) {
		ck_assert_uint_lt(ev.id, 8);
		if (ev.type == VS_EV_ALLOC) {
			if (s->alloc(st, &ev.req, &pl[ev.id]) != VS_OK) {
				(*failures)++;
				continue;
			}
			live[ev.id] = 1;
			req[ev.id] = ev.req.size;
			cur += ev.req.size;
			if (cur > peak)
				peak = cur;
			if (pl[ev.id].block_offset + pl[ev.id].block_size > hw)
				hw = pl[ev.id].block_offset + pl[ev.id].block_size;
		} else if (ev.type == VS_EV_FREE && live[ev.id]) {
			ck_assert_int_ge(s->free(st, &pl[ev.id]), 0);
			live[ev.id] = 0;
			cur -= req[ev.id];
		}
	}
	vs_trace_close(rd);
	free(st);
	free(mem);
	return hw ? (double)peak / (double)hw : 0.0;
}

START_TEST(replay_imported)
{
	static const char *const strategies[] = { "heap-first-fit", "heap-best-fit", "heap-next-fit", "heap-tlsf",
		"heap-dlmalloc", "heap-buddy", "heap-tracking" };
	char path[512], err[512];
	FILE *in, *out;
	vs_rep_stats st;
	vs_rep_options opt = { 0, NULL, NULL };
	size_t i;

	snprintf(path, sizeof path, "%s/tests/tmp-%ld-short.trace", VS_BINARY_DIR, (long)getpid());
	in = fopen(VS_SOURCE_DIR "/tests/data/heap-short.rep", "rb");
	out = fopen(path, "wb");
	ck_assert_ptr_nonnull(in);
	ck_assert_ptr_nonnull(out);
	ck_assert_msg(vs_import_rep(in, "heap-short.rep", out, &opt, &st, err, sizeof err) == 0, "%s", err);
	fclose(in);
	fclose(out);
	ck_assert_uint_eq(st.peak_live, 2040 + 48 + 4072); /* after 'a 3' (and again after 'a 4') */
	for (i = 0; i < sizeof strategies / sizeof strategies[0]; i++) {
		uint32_t fails;
		double u = replay_util(path, strategies[i], &fails);

		ck_assert_msg(fails == 0, "%s: %u failures", strategies[i], fails);
		/* Utilisation is a fraction; headers keep it below 1. */
		ck_assert_msg(u > 0.3 && u < 1.0, "%s: utilisation %f", strategies[i], u);
	}
	remove(path);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("heap_import");
	TCase *tc = tcase_create("rep");

	tcase_add_test(tc, four_line_header);
	tcase_add_test(tc, two_line_header_and_options);
	tcase_add_test(tc, errors_name_the_place);
	tcase_add_test(tc, replay_imported);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vs_test_main(suite());
}
