/* SPDX-License-Identifier: Zlib */
/* test_heap_import.c - malloc-lab traces (CS:APP and CMU headers) into
 * trace format v1: the text written, that the trace reader takes it back
 * (malloc(0) included), errors with file:line:col, the command, and a
 * replay of the result through the heap strategies giving malloc lab's peak
 * utilisation. The real trace sets: test_import_malloclab.c. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support.h"
#include "trace/import.h"
#include "engine/replay.h"
#include "vramsim/strategy.h"
#include "trace/trace.h"
#include "strategies/registry.h"

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
	rc = vs_rep_import(in, name, o, opt, st, err, errlen);
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
		"# imported from a.rep (malloc-lab trace, CS:APP header: suggested heap 20000 bytes, 3 ids, 5 ops, weight 1)\n"
		"# peak live payload 50 bytes (malloc lab's utilisation numerator), at most 2 blocks live; "
		"realloc written as free + alloc\n"
		"# arena sized from the trace: twice the larger of its peak of live blocks (72 bytes, each block its size "
		"rounded up to 8 plus 8 of header) and its largest block (40), rounded up to 64 KiB\n"
		"arena heap ram size=65536\n"
		"alloc 0 10\nalloc 1 20\nfree 0\nalloc 0 30\nfree 1\nfree 0\n");
	ck_assert_int_eq(st.header, VS_REP_HEADER_CSAPP);
	ck_assert_uint_eq(st.header_lines, 4);
	ck_assert_uint_eq(st.heap_size, 20000);
	ck_assert_uint_eq(st.allocs, 2);
	ck_assert_uint_eq(st.reallocs, 1);
	ck_assert_uint_eq(st.frees, 2);
	ck_assert_uint_eq(st.peak_live, 50);
	ck_assert_uint_eq(st.peak_line, 7);
	ck_assert_uint_eq(st.peak_footprint, 32 + 40);
	/* the suggested heap size no longer sizes the arena: the trace's need does */
	ck_assert_uint_eq(st.need, 65536);
	ck_assert_uint_eq(st.arena_size, 65536);
	ck_assert_int_eq(st.size_given, 0);
}
END_TEST

START_TEST(two_line_header_and_options)
{
	static char big[700000], bigout[1000000];
	char out[4096], err[512];
	size_t n;
	uint32_t i;
	vs_rep_stats st;
	vs_rep_options opt = { 65536, "ewram", "heap-tlsf", VS_REP_HEADER_AUTO };
	int rc = import_text("b.rep", "2\n3\r\n  a 0 8\n\nr 1 16\nf 0\n", &opt, out, sizeof out, &st, err, sizeof err);

	ck_assert_msg(rc == 0, "%s", err);
	ck_assert_int_eq(st.header, VS_REP_HEADER_SHORT);
	ck_assert_uint_eq(st.header_lines, 2);
	ck_assert_uint_eq(st.arena_size, 65536);
	ck_assert_int_eq(st.size_given, 1);
	/* realloc of an id never allocated is realloc(NULL): a plain alloc */
	ck_assert_ptr_nonnull(strstr(out, "arena ewram ram size=65536 strategy=heap-tlsf\nalloc 0 8\nalloc 1 16\nfree 0\n"));
	ck_assert_ptr_nonnull(strstr(out, "# arena: 65536 bytes as asked (the trace needs 65536)\n"));
	/* without --size: what the trace needs, 64 KiB at least */
	rc = import_text("b.rep", "1\n1\na 0 8\n", NULL, out, sizeof out, &st, err, sizeof err);
	ck_assert_msg(rc == 0, "%s", err);
	ck_assert_uint_eq(st.arena_size, 65536);
	/* ... and more for a big trace: 2 x (40000 x (1000 + 8)) */
	n = (size_t)snprintf(big, sizeof big, "40000\n40000\n");
	for (i = 0; i < 40000; i++)
		n += (size_t)snprintf(big + n, sizeof big - n, "a %u 1000\n", i);
	rc = import_text("big.rep", big, NULL, bigout, sizeof bigout, &st, err, sizeof err);
	ck_assert_msg(rc == 0, "%s", err);
	ck_assert_int_eq(st.header, VS_REP_HEADER_SHORT);
	ck_assert_uint_eq(st.peak_footprint, 40000u * 1008u);
	ck_assert_uint_eq(st.arena_size, (2u * 40000u * 1008u + 0xFFFFu) & ~0xFFFFu);
}
END_TEST

/* The CMU 15-213 traces: weight, ids, ops, ignore_ranges; free(NULL) as
 * 'f -1'; malloc(0); more operations than the header says. */
START_TEST(cmu_header)
{
	char out[4096], err[512];
	vs_rep_stats st;
	vs_rep_options opt = { 0, NULL, NULL, VS_REP_HEADER_AUTO };
	const char *text = "1\r\n3\r\n6\r\n0\r\nf -1\r\na 0 0\r\na 1 10\r\nr 1 0\r\nf 1\r\nr 2 5\r\nf 0\r\n";
	int rc = import_text("c.rep", text, &opt, out, sizeof out, &st, err, sizeof err);

	ck_assert_msg(rc == 0, "%s", err);
	ck_assert_int_eq(st.header, VS_REP_HEADER_CMU);
	ck_assert_uint_eq(st.weight, 1);
	ck_assert_uint_eq(st.ignore_ranges, 0);
	ck_assert_uint_eq(st.heap_size, 0);
	ck_assert_uint_eq(st.ids, 3);
	ck_assert_uint_eq(st.ops, 6);
	/* one operation past the header's count: read, and where it starts said */
	ck_assert_uint_eq(st.ops_read, 7);
	ck_assert_uint_eq(st.extra_line, 11);
	/* f -1, and f 1 after r 1 0 left it NULL: both free(NULL) */
	ck_assert_uint_eq(st.free_nulls, 2);
	ck_assert_uint_eq(st.frees, 3);
	ck_assert_uint_eq(st.zero_allocs, 1);
	ck_assert_uint_eq(st.peak_live, 10);
	ck_assert_ptr_nonnull(strstr(out, "CMU header: weight 1, 3 ids, 6 ops, ignore_ranges 0)\n"
		"# 7 operations read: 1 past the header's count, from line 11\n"));
	ck_assert_ptr_nonnull(strstr(out, "# 2 free(NULL) left out (nothing to free), 1 malloc(0) kept as 'alloc ID 0'\n"));
	/* malloc(0) kept; realloc(p, 0) frees p; realloc(NULL, 5) allocates */
	ck_assert_ptr_nonnull(strstr(out, "\nalloc 0 0\nalloc 1 10\nfree 1\nalloc 2 5\nfree 0\n"));
	/* --header csapp reads the first number as a heap size */
	opt.header = VS_REP_HEADER_CSAPP;
	rc = import_text("c.rep", text, &opt, out, sizeof out, &st, err, sizeof err);
	ck_assert_msg(rc == 0, "%s", err);
	ck_assert_int_eq(st.header, VS_REP_HEADER_CSAPP);
	ck_assert_uint_eq(st.heap_size, 1);
	ck_assert_uint_eq(st.weight, 0);
	/* a first number of 16 or more is a heap size */
	rc = import_text("d.rep", "16\n1\n1\n1\na 0 1\n", NULL, out, sizeof out, &st, err, sizeof err);
	ck_assert_msg(rc == 0, "%s", err);
	ck_assert_int_eq(st.header, VS_REP_HEADER_CSAPP);
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
	/* the line after a 4-line header is an operation, whatever it holds */
	expect_error("20000\n2\n3\n1\nx 0 5\n", "bad.rep:5:1: error:",
		"expected 'a ID SIZE', 'f ID' or 'r ID SIZE', found 'x 0 5'");
	expect_error("20000\n2\n3\n1\n7\n", "bad.rep:5:1: error:", "expected 'a ID SIZE', 'f ID' or 'r ID SIZE', found '7'");
	expect_error("20000\n2\n3\n1\n\n  foo\n", "bad.rep:6:3: error:", "expected 'a ID SIZE', 'f ID' or 'r ID SIZE'");
	expect_error("20000\n2\n2\n1\na 0 10\nf 5\n", "bad.rep:6:3: error:", "not below the header's number of ids");
	expect_error("20000\n2\n2\n1\na 0 10\na  0 4\n", "bad.rep:6:4: error:", "already allocated");
	expect_error("20000\n2\n2\n1\na 0 10\nf 1\n", "bad.rep:6:3: error:", "not allocated");
	expect_error("20000\n2\n2\n1\na 0 1x\nf 0\n", "bad.rep:5:6: error:", "unexpected 'x'");
	expect_error("20000\n2\n2\n1\na 0 10 7\nf 0\n", "bad.rep:5:8: error:", "at end of line");
	expect_error("20000\n2\n3\n1\na 0 10\nf 0\n", "bad.rep:7:1: error:", "header says 3 operations, the file has 2");
	expect_error("20000\n2\n2\n1\na 0 99999999999\nf 0\n", "bad.rep:5:5: error:", "does not fit 32 bits");
	/* a line without a size (the CMU set's alaska.rep has 29,924) */
	expect_error("0\n50\n2\n0\na 1 4\r\na 7 \r\n", "bad.rep:6:4: error:", "'a 7' has no size (expected 'a ID SIZE')");
	expect_error("20000\n2\n2\n1\na 0 1\nr 0\n", "bad.rep:6:4: error:", "'r 0' has no size (expected 'r ID SIZE')");
	/* -1 is only free(NULL) */
	expect_error("1\n2\n1\n0\nf -2\n", "bad.rep:5:3: error:", "negative id '-2'");
	expect_error("1\n2\n1\n0\na -1 8\n", "bad.rep:5:3: error:", "negative id '-1 8'");
	expect_error("1\n2\n1\n0\nf -1x\n", "bad.rep:5:3: error:", "negative id '-1x'");
	/* a heap above what a trace's ram arena may be: at the peak's line */
	expect_error("20000\n2\n3\n1\na 0 100\na 1 140000000\nf 1\n", "bad.rep:6:1: error:",
		"needs a heap of 280035328 bytes (peak live payload 140000100 bytes, reached here, in 2 blocks; "
		"largest request 140000000), more than the 256 MiB a trace's ram arena may have");
}
END_TEST

/* A NUL byte would end a line early, unseen: it is an error at its place,
 * whether it starts a line or sits inside one. */
START_TEST(nul_byte_named)
{
	static const struct { const char *bytes; size_t len; const char *where; } cases[] = {
		{ "20000\n2\n2\n1\na 0 100\n\0a 1 200\nf 0\nf 1\n", 31, "nul.rep:6:1: error:" },
		{ "20000\n2\n2\n1\na 0 1\0\nf 0\n", 24, "nul.rep:5:6: error:" },
	};
	char err[512];
	vs_rep_stats st;
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		FILE *in = fmemopen((void *)cases[i].bytes, cases[i].len, "rb"), *o = tmpfile();
		ck_assert_ptr_nonnull(in);
		ck_assert_ptr_nonnull(o);
		ck_assert_int_eq(vs_rep_import(in, "nul.rep", o, NULL, &st, err, sizeof err), -1);
		ck_assert_msg(strncmp(err, cases[i].where, strlen(cases[i].where)) == 0 && strstr(err, "NUL byte"),
			"case %zu: %s", i, err);
		fclose(in);
		fclose(o);
	}
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
	if (s->fini)
		s->fini(st);
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
	vs_rep_options opt = { 0, NULL, NULL, VS_REP_HEADER_AUTO };
	size_t i;

	snprintf(path, sizeof path, "%s", vs_test_path("short.trace"));
	in = fopen(VS_SOURCE_DIR "/tests/data/heap-short.rep", "rb");
	out = fopen(path, "wb");
	ck_assert_ptr_nonnull(in);
	ck_assert_ptr_nonnull(out);
	ck_assert_msg(vs_rep_import(in, "heap-short.rep", out, &opt, &st, err, sizeof err) == 0, "%s", err);
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

static void quiet(void *ud, const char *line)
{
	(void)ud;
	(void)line;
}

/* Runs trace text through the engine; returns the replay (run to its end). */
static vs_replay *replay_text(const char *text, const char *strategy, FILE **keep)
{
	char err[512];
	FILE *fp = tmpfile();
	vs_trace_reader *rd;
	vs_replay_config cfg;
	vs_replay *r;

	ck_assert_ptr_nonnull(fp);
	fputs(text, fp);
	rewind(fp);
	rd = vs_trace_open_stream(fp, "t", err, sizeof err);
	ck_assert_msg(rd != NULL, "%s", err);
	vs_replay_config_default(&cfg);
	if (strategy)
		cfg.strategy[0] = vs_strategy_find(strategy);
	cfg.message = quiet;
	r = vs_replay_new(rd, &cfg, err, sizeof err);
	ck_assert_msg(r != NULL, "%s: %s", strategy ? strategy : "-", err);
	ck_assert_msg(vs_replay_run(r, 0) == 0, "%s: %s", strategy ? strategy : "-", vs_replay_error(r));
	*keep = fp;
	return r;
}

/* malloc(0) from an import is a trace the reader takes and every heap
 * replays by its own rule: the malloc-style heaps (and the bank, pools,
 * tracking and static heaps) hand out a block, the linear allocator an
 * empty one; none fails, none breaks a check. */
START_TEST(zero_bytes_replay)
{
	static const char *const strategies[] = { "heap-first-fit", "heap-best-fit", "heap-next-fit", "heap-tlsf",
		"heap-dlmalloc", "heap-buddy", "heap-tracking", "heap-bank", "heap-pow2-pools", "heap-static",
		"heap-linear" };
	char out[4096], err[512];
	vs_rep_stats st;
	size_t i;
	int rc = import_text("z.rep", "1\n4\n7\n0\na 0 0\na 1 0\na 2 24\nr 3 0\nf 0\nf 1\nf 3\n", NULL, out, sizeof out,
		&st, err, sizeof err);

	ck_assert_msg(rc == 0, "%s", err);
	ck_assert_uint_eq(st.zero_allocs, 3);
	for (i = 0; i < sizeof strategies / sizeof strategies[0]; i++) {
		FILE *fp;
		vs_replay *r = replay_text(out, strategies[i], &fp);
		const vs_metrics *m = vs_replay_metrics(r, 0);

		ck_assert_msg(m->failures == 0 && m->allocs == 4 && m->frees == 3, "%s: %llu failed, %llu ok, %llu frees",
			strategies[i], (unsigned long long)m->failures, (unsigned long long)m->allocs,
			(unsigned long long)m->frees);
		ck_assert_msg(vs_replay_check_total(r) == 0 && vs_replay_diag_total(r) == 0, "%s", strategies[i]);
		ck_assert_uint_eq(m->peak_live, 24);
		vs_replay_free(r);
		fclose(fp);
	}
}
END_TEST

/* The heap manager of The Simpsons: Hit & Run returns NULL for 0 bytes
 * (radMemoryAlloc) without asking the heap they are routed to (the small
 * one here): the request fails there, as the game's did, and nothing is
 * placed. */
START_TEST(zero_bytes_heap_manager)
{
	FILE *fp;
	vs_replay *r = replay_text("vramsim-trace 1\n"
		"arena default ram size=64K strategy=heap-dlmalloc\n"
		"arena small ram size=8K strategy=heap-dlmalloc\n"
		"heaps small=small default=default\n"
		"alloc 1 0\nalloc 2 16\nalloc 3 small 0\nfree 2\n", NULL, &fp);
	const vs_metrics *d = vs_replay_metrics(r, 0), *s = vs_replay_metrics(r, 1);

	ck_assert_uint_eq(s->allocs, 1);
	ck_assert_uint_eq(s->failures, 2);
	ck_assert_uint_eq(s->fail[VS_FAIL_UNSUPPORTED], 2);
	ck_assert_uint_eq(d->allocs, 0);
	ck_assert_uint_eq(d->failures, 0);
	ck_assert_uint_eq(vs_replay_check_total(r), 0);
	vs_replay_free(r);
	fclose(fp);
}
END_TEST

/* The command: errors name file:line:col, exit 2 and leave no file; the
 * extra-operations warning names its line; --size above 256 MiB is refused. */
START_TEST(command)
{
	char out[4096], errout[4096], args[2048], target[600];
	const char *bad = vs_test_file(2, "bad.rep", "0\n50\n2\n0\na 1 4\na 7 \n");
	const char *extra = vs_test_file(3, "extra.rep", "1\n2\n1\n0\na 0 8\nf 0\n");

	snprintf(target, sizeof target, "%s", vs_test_path("cmd.trace"));
	remove(target);
	snprintf(args, sizeof args, "import '%s' -o '%s'", bad, target);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, errout, sizeof errout), 2);
	ck_assert_msg(strstr(errout, "bad.rep:6:4: error: 'a 7' has no size") != NULL, "%s", errout);
	ck_assert_int_ne(access(target, F_OK), 0);
	snprintf(args, sizeof args, "import '%s' -o '%s'", extra, target);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, errout, sizeof errout), 0);
	ck_assert_msg(strstr(errout, "extra.rep:6:1: warning: the header says 1 operation, the file has 2: all are "
		"imported") != NULL, "%s", errout);
	ck_assert_msg(strstr(errout, "CMU header; peak live payload 8 bytes in at most 1 block; arena 65536 bytes "
		"(the trace's need)") != NULL, "%s", errout);
	ck_assert_int_eq(access(target, F_OK), 0);
	remove(target);
	snprintf(args, sizeof args, "import '%s' --size 257M -o '%s'", extra, target);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, errout, sizeof errout), 2);
	ck_assert_msg(strstr(errout, "--size 257M: a trace's ram arena holds at most 256 MiB") != NULL, "%s", errout);
	ck_assert_int_ne(access(target, F_OK), 0);
	remove(bad);
	remove(extra);
}
END_TEST

/* --arena and --strategy go on the arena line: what the trace reader or the
 * replay would refuse there is a usage error (exit 2, no file), and a
 * name at the bounds of the reader's rules imports into a trace that
 * validates and replays. */
START_TEST(command_names)
{
	static const struct { const char *opt, *says; } bad[] = {
		{ "--arena 'bad name'", "--arena 'bad name': an arena name must be 1-31 letters" },
		{ "--arena aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "an arena name must be 1-31" },
		{ "--arena 'x#y'", "--arena 'x#y': an arena name" },
		{ "--arena ''", "--arena '': an arena name" },
		{ "--arena 1heap", "starting with a letter" },
		{ "-s 'a#b'", "--strategy 'a#b': a strategy name must be 1-31 letters" },
		{ "-s 'heap\nx'", "a strategy name must be" }, /* a newline, inside the shell's quotes */
		{ "-s ''", "--strategy '': a strategy name" },
		{ "-s 'heap-tlsf options=x'", "--strategy 'heap-tlsf options=x': a strategy name" },
		{ "-s nosuch", "unknown strategy 'nosuch'" },
		{ "-s heap-tlsf:x", "unknown strategy 'heap-tlsf:x'" },
		{ "-s gba-obj-map", "--strategy gba-obj-map cannot manage a ram arena" },
	};
	char out[4096], err[4096], target[600];
	const char *rep = vs_test_file(4, "names.rep", "20000\n2\n1\n1\na 0 100\n");
	size_t i;

	snprintf(target, sizeof target, "%s", vs_test_path("names.trace"));
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		remove(target);
		ck_assert_msg(vs_test_cli(out, sizeof out, err, sizeof err, "import '%s' %s -o '%s'", rep, bad[i].opt,
			target) == 2, "%s: %s", bad[i].opt, err);
		ck_assert_msg(strstr(err, bad[i].says) != NULL, "%s: '%s' should say '%s'", bad[i].opt, err, bad[i].says);
		ck_assert_msg(!vs_test_exists(target), "%s: a file was written", bad[i].opt);
	}
	/* the bounds: 31 characters, every character the reader takes */
	ck_assert_int_eq(vs_test_cli(out, sizeof out, err, sizeof err, "import '%s' --arena "
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa -s heap-tlsf -o '%s'", rep, target), 0);
	ck_assert_int_eq(vs_test_cli(out, sizeof out, err, sizeof err, "replay '%s'", target), 0);
	ck_assert_int_eq(vs_test_cli(out, sizeof out, err, sizeof err, "import '%s' --arena 'Z_-./:9' -o '%s'", rep,
		target), 0);
	ck_assert_int_eq(vs_test_cli(out, sizeof out, err, sizeof err, "validate '%s'", target), 0);
	remove(target);
	remove(rep);
	/* the file's own name: a newline in it ended the comment the trace
	 * names it in, and what followed was read as a statement */
	rep = vs_test_file(4, "names\nalloc 9 64\n#.rep", "20000\n2\n1\n1\na 0 100\n");
	ck_assert_int_eq(vs_test_cli(out, sizeof out, err, sizeof err, "import '%s' -o '%s'", rep, target), 0);
	ck_assert_msg(strstr(err, "names\\x0aalloc 9 64\\x0a#.rep: note:") != NULL, "%s", err);
	ck_assert_int_eq(vs_test_cli(out, sizeof out, err, sizeof err, "fmt '%s'", target), 0);
	ck_assert_msg(vs_test_count(out, "alloc ") == 1 && strstr(out, "alloc 0 100") != NULL, "%s", out);
	remove(target);
	remove(rep);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("heap_import");
	TCase *tc = tcase_create("rep");

	tcase_add_test(tc, four_line_header);
	tcase_add_test(tc, nul_byte_named);
	tcase_add_test(tc, two_line_header_and_options);
	tcase_add_test(tc, cmu_header);
	tcase_add_test(tc, errors_name_the_place);
	tcase_add_test(tc, replay_imported);
	tcase_add_test(tc, zero_bytes_replay);
	tcase_add_test(tc, zero_bytes_heap_manager);
	tcase_add_test(tc, command);
	tcase_add_test(tc, command_names);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vs_test_main(suite());
}
