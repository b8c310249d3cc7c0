/* SPDX-License-Identifier: Zlib */
/* test_compare.c - `vramsim compare` and the comparison library: every output
 * format, every budget kind, baseline tolerance edges, missing and new rows,
 * ranking, peak capture, determinism across thread counts, exit codes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "support.h"
#include "compare/compare.h"
#include "compare/baseline.h"
#include "compare/budget.h"
#include "strategies/registry.h"

static char out[1 << 18], err[1 << 16];

#define cli(...) vs_test_cli(out, sizeof out, err, sizeof err, __VA_ARGS__)

static const char *trace(const char *name)
{
	static char path[4][512];
	static int slot;

	slot = (slot + 1) % 4;
	snprintf(path[slot], sizeof path[slot], "traces/%s", name); /* keys as CI writes them: main() is in the source tree */
	return path[slot];
}

#define QS "obj-quickstart.trace"

static int count(const char *hay, const char *needle)
{
	int n = 0;

	for (hay = strstr(hay, needle); hay; hay = strstr(hay + 1, needle))
		n++;
	return n;
}

#define tmp_path(name) vs_test_path("test-compare-%s", name)

/* Whether compare runs s by default on an arena of kind k whose trace
 * carries no addresses (the bundled ones): `recorded` needs them. */
static int runs_by_default(const vs_strategy *s, vs_arena_kind k)
{
	return vs_strategy_manages(s, k) && !(s->flags & VS_STRAT_NEEDS_AT);
}

/* The strategies compare runs on a kind by default, in registry order. */
static int managers(vs_arena_kind k)
{
	size_t i;
	int n = 0;

	for (i = 0; i < vs_strategy_count(); i++)
		n += runs_by_default(vs_strategy_at(i), k);
	return n;
}

/* ---- library runs -------------------------------------------------------- */

static void run_lib(vs_cmp_result *res, const char *const *traces, int n, const vs_cmp_choice *ch, int nch, int jobs)
{
	vs_cmp_config cfg;
	char e[1024];

	vs_cmp_config_default(&cfg);
	cfg.traces = traces;
	cfg.ntraces = n;
	cfg.choices = ch;
	cfg.nchoices = nch;
	cfg.jobs = jobs;
	cfg.timing = 0;
	ck_assert_msg(vs_cmp_run(&cfg, res, e, sizeof e) == 0, "%s", e);
}

START_TEST(rows_cover_every_manager_in_order)
{
	const char *t[2];
	vs_cmp_result res;
	int i, tex = managers(VS_ARENA_DS_TEX), pal = managers(VS_ARENA_DS_PLTT), obj = managers(VS_ARENA_GBA_OBJ);
	size_t k;

	t[0] = trace("ds-levels.trace");
	t[1] = trace(QS);
	run_lib(&res, t, 2, NULL, 0, 0);
	/* ds-levels declares tex then pal; quickstart one OBJ arena */
	ck_assert_int_eq(res.nrows, tex + pal + obj);
	for (i = 0; i < tex; i++)
		ck_assert_str_eq(res.rows[i].arena, "tex");
	for (; i < tex + pal; i++)
		ck_assert_str_eq(res.rows[i].arena, "pal");
	/* strategies in registry order within each arena */
	i = tex + pal;
	for (k = 0; k < vs_strategy_count(); k++)
		if (runs_by_default(vs_strategy_at(k), VS_ARENA_GBA_OBJ))
			ck_assert_str_eq(res.rows[i++].strategy, vs_strategy_at(k)->name);
	for (i = 0; i < res.nrows; i++) {
		ck_assert_int_eq(res.rows[i].status, VS_CMP_OK);
		ck_assert_int_ge(res.rows[i].rank, 1);
	}
	ck_assert_int_eq(res.nbest, 3);
	vs_cmp_result_free(&res);
}
END_TEST

static void quiet(void *ud, const char *line)
{
	(void)ud;
	(void)line;
}

/* The state at the peak is taken at the first event where live bytes peak:
 * an independent replay stopped at that event must show the same. */
START_TEST(peak_state_matches_a_replay_stopped_there)
{
	const char *t[2];
	vs_cmp_result res;
	int i;

	t[0] = trace("ds-stream.trace");
	t[1] = trace("gba-sprite-churn-1.trace");
	if (access(t[1], R_OK) != 0)
		t[1] = trace(QS);
	run_lib(&res, t, 2, NULL, 0, 2);
	for (i = 0; i < res.nrows; i++) {
		const vs_cmp_row *row = &res.rows[i];
		vs_replay_config cfg;
		char e[1024];
		vs_trace_reader *rd = vs_trace_open(row->trace, e, sizeof e);
		vs_replay *r;
		const vs_metrics *m;
		int a;
		ck_assert_msg(rd != NULL, "%s", e);
		vs_replay_config_default(&cfg);
		cfg.message = quiet;
		a = vs_trace_arena_index(vs_trace_header_of(rd), row->arena);
		cfg.strategy[a] = vs_strategy_find(row->strategy);
		r = vs_replay_new(rd, &cfg, e, sizeof e);
		ck_assert_msg(r != NULL, "%s", e);
		ck_assert_uint_gt(row->peak_event, 0);
		/* one event before the peak live bytes were lower (0 before the
		 * first: vs_replay_run(r, 0) would run to the end); the same
		 * replay then takes one event more, to the peak */
		if (row->peak_event > 1)
			vs_replay_run(r, row->peak_event - 1);
		ck_assert_uint_lt(vs_replay_metrics(r, a)->live_bytes, row->m.peak_live);
		vs_replay_run(r, row->peak_event);
		ck_assert_uint_eq(vs_replay_events(r), row->peak_event);
		m = vs_replay_metrics(r, a);
		ck_assert_uint_eq(m->live_bytes, row->m.peak_live);
		ck_assert_uint_eq(m->free_extents, row->peak_free_extents);
		ck_assert_uint_eq(m->largest_free, row->peak_largest_free);
		ck_assert_uint_eq(m->granted_bytes - m->live_bytes + m->overhead_bytes, row->peak_internal);
		vs_replay_free(r);
	}
	vs_cmp_result_free(&res);
}
END_TEST

/* ---- ranking ---------------------------------------------------------------- */

static void fake_row(vs_cmp_row *r, const char *name, uint64_t fails, double pf, uint64_t hw, uint64_t internal)
{
	memset(r, 0, sizeof *r);
	snprintf(r->trace, sizeof r->trace, "t.trace");
	snprintf(r->arena, sizeof r->arena, "obj");
	snprintf(r->strategy, sizeof r->strategy, "%s", name);
	r->m.failures = fails;
	r->peak_frag = pf;
	r->m.high_water = hw;
	r->peak_internal = internal;
}

START_TEST(ranking_rule)
{
	vs_cmp_row rows[6];
	vs_cmp_result res;

	memset(&res, 0, sizeof res);
	fake_row(&rows[0], "a", 2, 0.1, 100, 0);   /* more failures: last of the clean */
	fake_row(&rows[1], "b", 0, 0.5, 100, 0);
	fake_row(&rows[2], "c", 0, 0.25, 900, 0);  /* best: 0 failures, lowest peak frag */
	fake_row(&rows[3], "d", 0, 0.25, 1000, 0);
	fake_row(&rows[4], "e", 0, 0.0, 0, 0);
	rows[4].status = VS_CMP_INTEGRITY;         /* never ranked */
	fake_row(&rows[5], "f", 0, 0.25, 900, 8);
	res.rows = rows;
	res.nrows = 6;
	vs_cmp_rank(&res);
	ck_assert_int_eq(res.nbest, 1);
	ck_assert_int_eq(res.best[0].row, 2);
	ck_assert_int_eq(rows[2].rank, 1);
	ck_assert_int_eq(rows[5].rank, 2);
	ck_assert_int_eq(rows[3].rank, 3);
	ck_assert_int_eq(rows[1].rank, 4);
	ck_assert_int_eq(rows[0].rank, 5);
	ck_assert_int_eq(rows[4].rank, 0);
	ck_assert_str_eq(res.best[0].why, "ties with f on served (0), failures (0), peak frag (0.250), high-water "
		"(900); least internal fragmentation at peak (0 vs 8 for f)");
	/* decided by failures */
	rows[5].m.failures = 1;
	rows[3].m.failures = 1;
	rows[1].m.failures = 3;
	vs_cmp_rank(&res);
	ck_assert_str_eq(res.best[0].why, "ties with f on served (0); fewest failures (0 vs 1 for f)");
	/* a full tie: the earlier row wins */
	fake_row(&rows[3], "d", 0, 0.25, 900, 0);
	vs_cmp_rank(&res);
	ck_assert_int_eq(res.best[0].row, 2);
	ck_assert_str_eq(res.best[0].why, "ties with d on every criterion; listed first");
	/* requests served come first: a row that served nothing (no failures
	 * counted, no fragmentation, no high-water) is not the best */
	fake_row(&rows[0], "nothing", 0, 0.0, 0, 0);
	fake_row(&rows[1], "served", 1, 0.5, 4096, 64);
	rows[1].m.allocs = 9;
	rows[1].m.shared_hits = 1;
	res.nrows = 2;
	vs_cmp_rank(&res);
	ck_assert_int_eq(res.best[0].row, 1);
	ck_assert_int_eq(rows[1].rank, 1);
	ck_assert_int_eq(rows[0].rank, 2);
	ck_assert_str_eq(res.best[0].why, "most requests served (10 vs 0 for nothing)");
	free(res.best);
}
END_TEST

/* ---- formats ----------------------------------------------------------------- */

/* Budget tests pin the strategies, so a new strategy cannot change which
 * budgets break: 5 OBJ, 3 texture and 3 palette managers. */
#define PINNED_OBJ_LIST "gba-obj-map,gba-obj-first-fit,gba-obj-best-fit-end,gba-obj-buddy,gba-obj-snug"
#define PINNED PINNED_OBJ_LIST ",nns-lnk-tex,nns-frm-tex,ds-tex-pair,nns-lnk-pltt,nns-frm-pltt,ds-pltt-split"
enum { PINNED_OBJ = 5, PINNED_TEX = 3, PINNED_PLTT = 3 };

START_TEST(every_format)
{
	cJSON *o, *rows, *r;
	int n = managers(VS_ARENA_GBA_OBJ), lines = 0, fields;
	const char *p;

	/* text */
	ck_assert_int_eq(cli("compare %s --no-timing", trace(QS)), 0);
	ck_assert_msg(strncmp(out, "trace ", 6) == 0, "%s", out);
	ck_assert_ptr_nonnull(strstr(out, "oom/frag/rule/mgmt/unsup"));
	ck_assert_ptr_null(strstr(out, "ns/op"));
	ck_assert_int_eq(count(out, "obj-quickstart.trace  obj"), n);
	ck_assert_int_eq(count(out, "\nbest "), 1);
	ck_assert_ptr_nonnull(strstr(out, "\nresult: ok\n"));
	/* timing on: a ns/op column */
	ck_assert_int_eq(cli("compare %s -s gba-obj-map", trace(QS)), 0);
	ck_assert_ptr_nonnull(strstr(out, "ns/op"));

	/* Markdown */
	ck_assert_int_eq(cli("compare %s --no-timing --format markdown", trace(QS)), 0);
	ck_assert_ptr_nonnull(strstr(out, "### vramsim compare"));
	ck_assert_ptr_nonnull(strstr(out, "| trace | arena | strategy |"));
	ck_assert_ptr_nonnull(strstr(out, "|---|---|---|---:|"));
	ck_assert_int_eq(count(out, "\n| "), n + 1);
	ck_assert_int_eq(count(out, "\n- `"), 1);
	ck_assert_ptr_nonnull(strstr(out, "**result: ok**"));

	/* CSV: a header and a row per strategy, all with the same field count */
	ck_assert_int_eq(cli("compare %s --no-timing -f csv", trace(QS)), 0);
	fields = 0;
	for (p = out; *p != '\n'; p++)
		fields += *p == ',';
	for (p = out; *p; p = strchr(p, '\n') + 1) {
		const char *e = strchr(p, '\n');
		int f = 0;
		const char *q;
		for (q = p; q < e; q++)
			f += *q == ',';
		ck_assert_int_eq(f, fields);
		lines++;
	}
	ck_assert_int_eq(lines, n + 1);
	ck_assert_ptr_nonnull(strstr(out, "traces/obj-quickstart.trace,obj,gba-obj,gba-obj-map,ok,"));

	/* JSON */
	ck_assert_int_eq(cli("compare %s --no-timing -f json", trace(QS)), 0);
	o = cJSON_Parse(out);
	ck_assert_ptr_nonnull(o);
	rows = cJSON_GetObjectItem(o, "rows");
	ck_assert_int_eq(cJSON_GetArraySize(rows), n);
	r = cJSON_GetArrayItem(rows, 0);
	ck_assert_str_eq(cJSON_GetObjectItem(r, "strategy")->valuestring, "gba-obj-map");
	ck_assert_int_eq((int)cJSON_GetObjectItem(cJSON_GetObjectItem(r, "metrics"), "peak_live")->valuedouble, 7872);
	ck_assert_int_eq((int)cJSON_GetObjectItem(cJSON_GetObjectItem(r, "metrics"), "allocations")->valuedouble, 11);
	ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(o, "best")), 1);
	ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(o, "ok")));
	cJSON_Delete(o);

	/* JUnit: one case per row (integrity) plus one per row and budget */
	ck_assert_int_eq(cli("compare %s --no-timing -f junit --max-failures 0 --max-high-water 16K -s %s", trace(QS),
		PINNED_OBJ_LIST), 1);
	ck_assert_msg(strncmp(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites ", 50) == 0, "%s", out);
	ck_assert_int_eq(count(out, "<testcase "), 3 * PINNED_OBJ);
	ck_assert_int_eq(count(out, "<testsuite "), 1);
	ck_assert_int_eq(count(out, "</testsuite>"), 1);
	ck_assert_int_eq(count(out, "<failure "), 1); /* best fit carves from the top: high-water 32768 */
	ck_assert_ptr_nonnull(strstr(out, "name=\"gba-obj-best-fit-end max-high-water=16384 (--max-high-water)\">"));
	ck_assert_ptr_nonnull(strstr(out, "</testsuites>\n"));
	ck_assert_ptr_nonnull(strstr(err, "budget broken"));
}
END_TEST

/* Same bytes whatever the thread count; several outputs in one run. */
START_TEST(deterministic_and_several_outputs)
{
	static const char *const fmts[] = { "text", "markdown", "csv", "json", "junit" };
	/* a directory of bundled traces with every kind of arena among them
	 * (DS texture and palette, DS OBJ, GBA OBJ and BG, RAM heaps): rows of
	 * every kind that threads finish in any order; all 21 bundled traces
	 * took four times as long for the same check */
	static const char *const names[] = { "ds-levels", "ds-sprites", "gba-demo-capture", "heap-scratch",
		"obj-quickstart" };
	char *first, *again, name[32], dir[600], link[700], target[700];
	size_t i;
	int j;

	snprintf(dir, sizeof dir, "%s", tmp_path("det-traces"));
	mkdir(dir, 0777);
	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		snprintf(link, sizeof link, "%s/%s.trace", dir, names[i]);
		snprintf(target, sizeof target, "%s/traces/%s.trace", VS_SOURCE_DIR, names[i]);
		remove(link);
		ck_assert_int_eq(symlink(target, link), 0);
	}
	/* every format from one run per thread count: two compares, not ten
	 * (this check also runs under ASan) */
	for (j = 0; j < 2; j++) {
		char args[4096];
		size_t n = (size_t)snprintf(args, sizeof args, "compare %s --no-timing -j %d --max-peak-frag 0.5", dir,
			j ? 7 : 1);
		for (i = 0; i < sizeof fmts / sizeof fmts[0]; i++) {
			snprintf(name, sizeof name, "det%d.%s", j, fmts[i]);
			n += (size_t)snprintf(args + n, sizeof args - n, " --out %s=%s", fmts[i], tmp_path(name));
		}
		ck_assert_int_eq(cli("%s", args), 1); /* some strategy passes 0.5 on some trace */
	}
	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		snprintf(link, sizeof link, "%s/%s.trace", dir, names[i]);
		remove(link);
	}
	rmdir(dir);
	for (i = 0; i < sizeof fmts / sizeof fmts[0]; i++) {
		snprintf(name, sizeof name, "det0.%s", fmts[i]);
		first = vs_test_slurp(tmp_path(name));
		remove(tmp_path(name));
		snprintf(name, sizeof name, "det1.%s", fmts[i]);
		again = vs_test_slurp(tmp_path(name));
		remove(tmp_path(name));
		ck_assert_msg(strlen(first) > 100, "%s: %s", fmts[i], first);
		ck_assert_str_eq(again, first);
		free(first);
		free(again);
	}
	remove(tmp_path("a.md"));
	remove(tmp_path("a.xml"));
	ck_assert_int_eq(cli("compare %s --no-timing --out markdown=%s --out junit=%s -o %s", trace(QS),
		tmp_path("a.md"), tmp_path("a.xml"), tmp_path("a.csv")), 0);
	ck_assert_str_eq(out, "");
	first = vs_test_slurp(tmp_path("a.md"));
	ck_assert_ptr_nonnull(strstr(first, "### vramsim compare"));
	free(first);
	first = vs_test_slurp(tmp_path("a.xml"));
	ck_assert_ptr_nonnull(strstr(first, "<testsuites "));
	free(first);
	first = vs_test_slurp(tmp_path("a.csv"));
	ck_assert_ptr_nonnull(strstr(first, "trace ")); /* -o takes the main format (text) */
	free(first);
}
END_TEST

/* ---- budgets ------------------------------------------------------------------ */

/* Each budget kind: exactly at the actual value passes, one below breaks. */
START_TEST(every_budget_kind_flags)
{
	static const struct { const char *flag, *at, *below, *shown; } b[] = {
		{ "--max-failures", "48", "47", "max-failures 47, actual 48" },
		{ "--max-peak-live", "344576", "344575", "max-peak-live 344575, actual 344576" },
		{ "--max-peak-frag", "0.890", "0.889", "max-peak-frag 0.889, actual 0.890" },
		{ "--max-high-water", "0x7fb00", "511K", "max-high-water 523264, actual 523008" },
	};
	size_t i;

	char exact[256];
	size_t n = 0;

	/* ds-stream, tex arena, nns-lnk-tex: 48 failures, peak live 344576,
	 * peak frag 0.889..., high-water 523008 */
	ck_assert_int_eq(cli("compare %s -s nns-lnk-tex --no-timing", trace("ds-stream.trace")), 0);
	ck_assert_ptr_nonnull(strstr(out, "nns-lnk-tex"));
	/* each kind exactly at the actual value: all four in one run, none broken */
	for (i = 0; i < sizeof b / sizeof b[0]; i++) {
		const char *at = b[i].at;
		char v[32];
		if (strcmp(b[i].flag, "--max-peak-frag") == 0) {
			/* the exact value, from the JSON */
			cJSON *o;
			ck_assert_int_eq(cli("compare %s -s nns-lnk-tex --no-timing -f json", trace("ds-stream.trace")), 0);
			o = cJSON_Parse(out);
			snprintf(v, sizeof v, "%.6f", cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetArrayItem(
				cJSON_GetObjectItem(o, "rows"), 0), "metrics"), "peak_frag")->valuedouble);
			cJSON_Delete(o);
			at = v;
		}
		n += (size_t)snprintf(exact + n, sizeof exact - n, " %s %s", b[i].flag, at);
	}
	ck_assert_int_eq(cli("compare %s -s nns-lnk-tex --no-timing%s", trace("ds-stream.trace"), exact), 0);
	ck_assert_msg(strstr(out, "budgets: 4 checked, 0 broken") != NULL, "%s: %s", exact, out);
	/* and each one below it: broken, and said so */
	for (i = 0; i < sizeof b / sizeof b[0]; i++) {
		if (strcmp(b[i].flag, "--max-high-water") == 0) {
			ck_assert_int_eq(cli("compare %s -s nns-lnk-tex --no-timing %s 0x7fe00", trace("ds-stream.trace"),
				b[i].flag), 0);
			ck_assert_int_eq(cli("compare %s -s nns-lnk-tex --no-timing %s 510K", trace("ds-stream.trace"),
				b[i].flag), 1);
			ck_assert_msg(strstr(out, "BROKEN traces/ds-stream.trace tex nns-lnk-tex: max-high-water 522240, "
				"actual 523008 (--max-high-water)") != NULL, "%s", out);
			continue;
		}
		ck_assert_int_eq(cli("compare %s -s nns-lnk-tex --no-timing %s %s", trace("ds-stream.trace"), b[i].flag,
			b[i].below), 1);
		ck_assert_msg(strstr(out, b[i].shown) != NULL, "%s: %s", b[i].flag, out);
		ck_assert_ptr_nonnull(strstr(out, "budgets: 1 checked, 1 broken"));
		ck_assert_ptr_nonnull(strstr(out, "result: FAILED (1 budget broken)"));
	}
	/* all four at once, every one broken and listed */
	ck_assert_int_eq(cli("compare %s -s nns-lnk-tex --no-timing --max-failures 0 --max-peak-live 1 "
		"--max-peak-frag 0 --max-high-water 1", trace("ds-stream.trace")), 1);
	ck_assert_int_eq(count(out, "  BROKEN "), 4);
	ck_assert_ptr_nonnull(strstr(out, "result: FAILED (4 budgets broken)"));
	/* bad values */
	ck_assert_int_eq(cli("compare %s --max-peak-frag 1.5", trace(QS)), 2);
	ck_assert_ptr_nonnull(strstr(err, "not a fraction from 0 to 1"));
	ck_assert_int_eq(cli("compare %s --max-failures -1", trace(QS)), 2);
	ck_assert_int_eq(cli("compare %s --max-high-water 12Q", trace(QS)), 2);
	ck_assert_int_eq(cli("compare %s --max-frob 1", trace(QS)), 2);
	ck_assert_ptr_nonnull(strstr(err, "unknown option '--max-frob'"));
}
END_TEST

/* A budget file the loader refuses, saying says. */
static void budget_file_refused(const char *name, const char *text, const char *says)
{
	vs_budget_list b = { NULL, 0, 0 };
	char why[2048];

	ck_assert_int_eq(vs_budget_list_load(&b, vs_test_file(0, name, text), why, sizeof why), -1);
	vs_budget_list_free(&b);
	ck_assert_msg(strstr(why, says) != NULL, "%s: %s", name, why);
}

START_TEST(budget_file)
{
	const char *f = vs_test_file(0, "budgets.txt",
		"# budgets for the bundled traces\n"
		"vramsim-budgets 1\n"
		"*quickstart*  max-failures=0 max-high-water=16K   # every OBJ strategy but best fit\n"
		"ds-*.trace arena=tex strategy=nns-lnk-* max-failures=50\n"
		"ds-stream.trace arena=pal max-peak-frag=0.5\n"
		"max-peak-live=1M\n");
	cJSON *o, *b;
	char *json;

	/* the text on standard output and the JSON from the same run */
	ck_assert_int_eq(cli("compare %s %s --no-timing --budgets %s -s %s --out json=%s", trace(QS),
		trace("ds-stream.trace"), f, PINNED, tmp_path("budgets.json")), 1);
	ck_assert_msg(strstr(out, "BROKEN traces/obj-quickstart.trace obj gba-obj-best-fit-end: max-high-water 16384, "
		"actual 32768 (") != NULL, "%s", out);
	ck_assert_ptr_nonnull(strstr(out, "budgets.txt:3)"));
	/* nns-frm-pltt breaks peak frag on pal */
	ck_assert_msg(strstr(out, "BROKEN traces/ds-stream.trace pal nns-frm-pltt: max-peak-frag 0.500, actual 0.967 (")
		!= NULL, "%s", out);
	ck_assert_int_eq(count(out, "  BROKEN "), 2);
	json = vs_test_slurp(tmp_path("budgets.json"));
	ck_assert_ptr_nonnull(json);
	remove(tmp_path("budgets.json"));
	o = cJSON_Parse(json);
	free(json);
	ck_assert_ptr_nonnull(o);
	b = cJSON_GetObjectItem(o, "budgets");
	/* quickstart: 2 limits x n strategies; tex: 1 (nns-lnk-tex); pal: 1 x pal managers; peak live: every row */
	ck_assert_int_eq((int)cJSON_GetObjectItem(b, "checked")->valuedouble,
		2 * PINNED_OBJ + 1 + PINNED_PLTT + PINNED_OBJ + PINNED_TEX + PINNED_PLTT);
	ck_assert_int_eq((int)cJSON_GetObjectItem(b, "broken")->valuedouble, 2);
	cJSON_Delete(o);

	/* malformed files: file:line:col */
	f = vs_test_file(0, "bad1.txt", "vramsim-budgets 1\n*  max-failures=0\nobj.trace max-fails=3\n");
	ck_assert_int_eq(cli("compare %s --budgets %s", trace(QS), f), 2);
	ck_assert_msg(strstr(err, "bad1.txt:3:11: error: unknown key 'max-fails'") != NULL, "%s", err);
	/* compare prints what the loader says and exits 2 whatever it is, as
	 * bad1.txt shows: the others go to the loader (vs_budget_list_load) in
	 * this process, not through a vramsim run each */
	budget_file_refused("bad2.txt", "vramsim-budgets 1\nobj.trace max-peak-frag=2\n",
		"bad2.txt:2:25: error: max-peak-frag: '2' is not a fraction");
	budget_file_refused("bad3.txt", "vramsim-budgets 1\nobj.trace arena=obj\n",
		"bad3.txt:2:20: error: no limit on this line");
	budget_file_refused("bad4.txt", "vramsim-budgets 1\nobj.trace max-failures=1 nonsense\n",
		"bad4.txt:2:26: error: expected KEY=VALUE, got 'nonsense'");
	/* a key twice: which would count is not for the reader to guess */
	budget_file_refused("bad5.txt", "vramsim-budgets 1\nobj.trace max-failures=0 max-failures=3\n",
		"bad5.txt:2:26: error: 'max-failures=' given twice on this line");
	budget_file_refused("bad6.txt", "vramsim-budgets 1\nobj.trace arena=a arena=b max-failures=0\n",
		"bad6.txt:2:19: error: 'arena=' given twice on this line");
	ck_assert_int_eq(cli("compare %s --budgets /nonexistent/budgets.txt", trace(QS)), 2);
	ck_assert_ptr_nonnull(strstr(err, "cannot read budget file"));
}
END_TEST

/* ---- baselines ------------------------------------------------------------------ */

/* Rewrites one metric of one row of a baseline file. */
static void set_metric(const char *path, const char *strategy, const char *arena, const char *metric, double v)
{
	char *text = vs_test_slurp(path), *s;
	cJSON *o = cJSON_Parse(text), *r;
	FILE *fp;
	int hit = 0;

	free(text);
	ck_assert_ptr_nonnull(o);
	cJSON_ArrayForEach(r, cJSON_GetObjectItem(o, "rows")) {
		if (strcmp(cJSON_GetObjectItem(r, "strategy")->valuestring, strategy) ||
			strcmp(cJSON_GetObjectItem(r, "arena")->valuestring, arena))
			continue;
		cJSON_SetNumberValue(cJSON_GetObjectItem(cJSON_GetObjectItem(r, "metrics"), metric), v);
		hit = 1;
	}
	ck_assert_msg(hit, "no row %s %s", arena, strategy);
	s = cJSON_Print(o);
	fp = fopen(path, "wb");
	fputs(s, fp);
	fclose(fp);
	free(s);
	cJSON_Delete(o);
}

/* A budget rule that matches no row checked nothing: it is listed in every
 * format and fails the run (exit 1), as a missing baseline row does with
 * --missing-fails; a run whose every rule matched passes. */
START_TEST(budget_matching_no_row)
{
	const char *f = vs_test_file(0, "idle-budgets.txt", "vramsim-budgets 1\n"
		"[ max-failures=0\n"
		"*quickstart* max-failures=100\n"
		"* arena=nope max-peak-frag=0.5\n");
	const char *ok = vs_test_file(1, "ok-budgets.txt", "vramsim-budgets 1\n*quickstart* max-failures=100\n");
	cJSON *o, *idle;
	char *json;

	ck_assert_int_eq(cli("compare %s --no-timing -s gba-obj-map --budgets %s --out json=%s --out junit=%s", trace(QS), f,
		tmp_path("idle.json"), tmp_path("idle.xml")), 1);
	ck_assert_msg(strstr(out, "budgets: 1 checked, 0 broken, 2 matched no row\n") != NULL, "%s", out);
	ck_assert_msg(strstr(out, "  NO ROW max-failures 0 (") && strstr(out, "idle-budgets.txt:2; trace [): matched no row"),
		"%s", out);
	ck_assert_msg(strstr(out, "idle-budgets.txt:4; trace *; arena nope): matched no row"), "%s", out);
	ck_assert_msg(strstr(out, "result: FAILED (2 budgets matched no row)") != NULL, "%s", out);
	json = vs_test_slurp(tmp_path("idle.json"));
	ck_assert_ptr_nonnull(json);
	o = cJSON_Parse(json);
	free(json);
	idle = cJSON_GetObjectItem(cJSON_GetObjectItem(o, "budgets"), "matched_no_row");
	ck_assert_int_eq(cJSON_GetArraySize(idle), 2);
	ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(idle, 0), "trace")->valuestring, "[");
	ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(o, "ok")));
	cJSON_Delete(o);
	json = vs_test_slurp(tmp_path("idle.xml"));
	ck_assert_ptr_nonnull(json);
	ck_assert_msg(strstr(json, "<testsuite name=\"budgets that matched no row\" tests=\"2\" failures=\"2\""), "%s",
		json);
	free(json);
	ck_assert_int_eq(cli("compare %s --no-timing -s gba-obj-map --budgets %s -f markdown", trace(QS), f), 1);
	ck_assert_msg(strstr(out, "#### Budgets: 1 checked, 0 broken, 2 matched no row") &&
		strstr(out, "- :x: max-failures 0 ("), "%s", out);
	ck_assert_int_eq(cli("compare %s --no-timing -s gba-obj-map --budgets %s -o %s", trace(QS), f,
		tmp_path("idle.txt")), 1);
	ck_assert_msg(strstr(err, "budget matched no row: max-failures 0 ("), "%s", err);
	ck_assert_int_eq(cli("compare %s --no-timing -s gba-obj-map --budgets %s", trace(QS), ok), 0);
	ck_assert_ptr_nonnull(strstr(out, "budgets: 1 checked, 0 broken\n"));
	ck_assert_ptr_nonnull(strstr(out, "result: ok"));
}
END_TEST

START_TEST(baseline_round_trip_and_tolerance_edges)
{
	const char *base = tmp_path("base.json"), *t = trace("ds-stream.trace");
	/* the rows the edges are tried on; the other managers of the arenas
	 * would be replayed in each of the dozen runs for nothing */
#define ROUND_TRIP "-s nns-lnk-tex,nns-lnk-pltt"

	remove(base);
	ck_assert_int_eq(cli("compare %s --no-timing " ROUND_TRIP " --write-baseline %s", t, base), 0);
	ck_assert(vs_test_exists(base));
	ck_assert_int_eq(cli("compare %s --no-timing " ROUND_TRIP " --baseline %s", t, base), 0);
	ck_assert_msg(strstr(out, " rows compared, 0 regressions, 0 improvements, 0 within tolerance, 0 new, 0 missing")
		!= NULL, "%s", out);

	/* failures: nns-lnk-tex has 48. Old 40, ratio 0.2 allows exactly 48. */
	set_metric(base, "nns-lnk-tex", "tex", "failures", 40);
	ck_assert_int_eq(cli("compare %s --no-timing " ROUND_TRIP " --baseline %s", t, base), 1);
	ck_assert_msg(strstr(out, "REGRESSION traces/ds-stream.trace tex nns-lnk-tex: failures 40 -> 48 (allowed 40)")
		!= NULL, "%s", out);
	ck_assert_ptr_nonnull(strstr(out, "result: FAILED (1 regression)"));
	ck_assert_int_eq(cli("compare %s --no-timing " ROUND_TRIP " --baseline %s --tolerance failures=0.2", t, base), 0);
	ck_assert_ptr_nonnull(strstr(out, "worse traces/ds-stream.trace tex nns-lnk-tex: failures 40 -> 48 (within "
		"tolerance, allowed 48)"));
	ck_assert_int_eq(cli("compare %s --no-timing " ROUND_TRIP " --baseline %s --tolerance failures=0.19", t, base), 1);
	/* absolute allowance: 40 + 8 passes, 40 + 7 fails; ratio and abs add up */
	ck_assert_int_eq(cli("compare %s --no-timing " ROUND_TRIP " --baseline %s --tolerance 0,8", t, base), 0);
	ck_assert_int_eq(cli("compare %s --no-timing " ROUND_TRIP " --baseline %s --tolerance 0,7", t, base), 1);
	ck_assert_int_eq(cli("compare %s --no-timing " ROUND_TRIP " --baseline %s --tolerance 0.1,4", t, base), 0);
	ck_assert_int_eq(cli("compare %s --no-timing " ROUND_TRIP " --baseline %s --tolerance 0.1,3.99", t, base), 1);
	/* a per-metric tolerance leaves the others exact */
	ck_assert_int_eq(cli("compare %s --no-timing " ROUND_TRIP " --baseline %s --tolerance high_water=1,1000", t, base), 1);
	set_metric(base, "nns-lnk-tex", "tex", "failures", 48);

	/* fractions: peak_frag is stored to 6 decimals; old = new - 0.01 */
	ck_assert_int_eq(cli("compare %s --no-timing -f json -s nns-lnk-tex", t), 0);
	{
		cJSON *o = cJSON_Parse(out);
		double pf = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(o, "rows"), 0),
			"metrics"), "peak_frag")->valuedouble;
		cJSON_Delete(o);
		set_metric(base, "nns-lnk-tex", "tex", "peak_frag", pf - 0.01);
	}
	ck_assert_int_eq(cli("compare %s --no-timing " ROUND_TRIP " --baseline %s --tolerance peak_frag=0,0.01", t, base), 0);
	ck_assert_int_eq(cli("compare %s --no-timing " ROUND_TRIP " --baseline %s --tolerance peak_frag=0,0.009999", t, base), 1);
	ck_assert_ptr_nonnull(strstr(out, "REGRESSION traces/ds-stream.trace tex nns-lnk-tex: peak_frag "));

	/* an improvement is reported and passes */
	set_metric(base, "nns-lnk-tex", "tex", "peak_frag", 0.95);
	set_metric(base, "nns-lnk-pltt", "pal", "high_water", 7000);
	ck_assert_int_eq(cli("compare %s --no-timing " ROUND_TRIP " --baseline %s", t, base), 0);
	ck_assert_ptr_nonnull(strstr(out, "2 improvements"));
	ck_assert_msg(strstr(out, "improved traces/ds-stream.trace tex nns-lnk-tex: peak_frag 0.95 -> 0.8896") != NULL, "%s",
		out);
	ck_assert_ptr_nonnull(strstr(out, "improved traces/ds-stream.trace pal nns-lnk-pltt: high_water 7000 -> 6320"));
	ck_assert_int_eq(cli("compare %s --no-timing " ROUND_TRIP " --baseline %s -f markdown", t, base), 0);
	ck_assert_ptr_nonnull(strstr(out, ":white_check_mark: improved"));

	ck_assert_int_eq(cli("compare %s --tolerance frob=1", t), 2);
	ck_assert_ptr_nonnull(strstr(err, "unknown metric 'frob'"));
	ck_assert_int_eq(cli("compare %s --tolerance -1", t), 2);
}
END_TEST

START_TEST(baseline_new_and_missing_rows)
{
	const char *base = tmp_path("base2.json"), *t = trace("ds-stream.trace");
	char *text;
	cJSON *o;

	/* a baseline of two strategies; the run has more: the rest are new */
	ck_assert_int_eq(cli("compare %s --no-timing -s nns-lnk-tex,nns-lnk-pltt --write-baseline %s", t, base), 0);
	/* the text on standard output and the JUnit from the same run */
	ck_assert_int_eq(cli("compare %s --no-timing --baseline %s --out junit=%s", t, base, tmp_path("new.xml")), 0);
	ck_assert_int_eq(count(out, "  new traces/ds-stream.trace "),
		managers(VS_ARENA_DS_TEX) + managers(VS_ARENA_DS_PLTT) - 2);
	ck_assert_ptr_nonnull(strstr(out, "not in the baseline"));
	text = vs_test_slurp(tmp_path("new.xml"));
	ck_assert_ptr_nonnull(text);
	remove(tmp_path("new.xml"));
	ck_assert_int_eq(count(text, "<skipped message=\"not in the baseline\"/>"),
		managers(VS_ARENA_DS_TEX) + managers(VS_ARENA_DS_PLTT) - 2);
	free(text);

	/* a row the run lacks: reported, fails only with --missing-fails */
	text = vs_test_slurp(base);
	o = cJSON_Parse(text);
	free(text);
	cJSON_SetValuestring(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(o, "rows"), 0), "strategy"),
		"retired-strategy");
	text = cJSON_Print(o);
	cJSON_Delete(o);
	base = vs_test_file(0, "base3.json", text);
	free(text);
	ck_assert_int_eq(cli("compare %s --no-timing -s nns-lnk-tex,nns-lnk-pltt --baseline %s", t, base), 0);
	ck_assert_msg(strstr(out, "missing traces/ds-stream.trace tex retired-strategy: in the baseline, not in this run")
		!= NULL, "%s", out);
	ck_assert_ptr_nonnull(strstr(out, "new traces/ds-stream.trace tex nns-lnk-tex: not in the baseline"));
	ck_assert_int_eq(cli("compare %s --no-timing -s nns-lnk-tex,nns-lnk-pltt --baseline %s --missing-fails", t,
		base), 1);
	ck_assert_ptr_nonnull(strstr(out, "MISSING traces/ds-stream.trace tex retired-strategy"));
	ck_assert_ptr_nonnull(strstr(out, "1 baseline row missing"));
}
END_TEST

/* A baseline file the loader refuses, saying says. */
static void baseline_refused(const char *text, const char *says)
{
	vs_baseline b;
	char why[2048];

	ck_assert_int_eq(vs_baseline_load(&b, vs_test_file(0, "bad-base.json", text), why, sizeof why), -1);
	ck_assert_msg(strstr(why, says) != NULL, "%s", why);
}

START_TEST(malformed_baseline)
{
	const char *f = vs_test_file(0, "bad-base.json", "{\n  \"rows\": [\n    {\"trace\": 1,,}\n  ]\n}\n");

	ck_assert_int_eq(cli("compare %s --baseline %s", trace(QS), f), 2);
	ck_assert_msg(strstr(err, "bad-base.json:3:") && strstr(err, "error: not valid JSON"), "%s", err);
	/* compare prints what the loader says and exits 2 whatever it is, as
	 * above: the others go to the loader (vs_baseline_load) in this process */
	baseline_refused("{\"vramsim_baseline\": 1, \"rows\": [{\"trace\": \"t\", \"arena\": \"obj\"}]}",
		"bad-base.json: error: row 1: needs strings");
	baseline_refused("{\"vramsim_baseline\": 1, \"rows\": [{\"trace\": \"t\", \"arena\": \"obj\", \"strategy\": \"s\", "
		"\"metrics\": {\"failures\": \"x\"}}]}", "metric \"failures\" is not a whole number");
	baseline_refused("[1, 2]", "not a vramsim baseline");
	ck_assert_int_eq(cli("compare %s --baseline /nonexistent.json", trace(QS)), 2);
}
END_TEST

#define ROW(trace, metrics) "{\"trace\": \"" trace "\", \"arena\": \"obj\", \"strategy\": \"gba-obj-map\", " \
	"\"metrics\": {" metrics "}}"

/* What a reader of the JSON would take two ways, or cJSON cut short, is
 * refused (exit 2), naming the place: \u0000 in a string, which cJSON
 * ends the string at (the name read as the text before it); a row given
 * twice, which would be reported missing; a key given twice, of which
 * cJSON answers the first. An escaped backslash before u0000 is no NUL. */
START_TEST(ambiguous_baseline)
{
	const char *f;

	/* the reported case: without the check, matched as the quickstart row, exit 0 */
	f = vs_test_file(1, "nul-base.json", "{\"vramsim_baseline\":1,\"rows\":[" ROW("traces/" QS "\\u0000zzz",
		"\"failures\": 9") "]}");
	ck_assert_int_eq(cli("compare %s --no-timing -s gba-obj-map --baseline %s", trace(QS), f), 2);
	ck_assert_msg(strstr(err, "nul-base.json:1:") && strstr(err, "\\u0000 (a NUL) in a string"), "%s", err);
	baseline_refused("{\"vramsim_baseline\": 1, \"rows\": [\n" ROW("t", "\"failures\\u0000x\": 1") "]}",
		"bad-base.json:2:");
	baseline_refused("{\"vramsim_baseline\": 1, \"rows\": [" ROW("t", "\"failures\": 1") "],\n \"x\\u0000\": 1}",
		"bad-base.json:2:4: error: \\u0000");
	baseline_refused("{\"vramsim_baseline\": 1, \"rows\": [" ROW("t\\u0001", "\"failures\": 1") "]}",
		"row 1: needs strings");
	/* two rows of one key: not a false MISSING, even with --missing-fails */
	f = vs_test_file(1, "twice-base.json", "{\"vramsim_baseline\":1,\"rows\":[" ROW("traces/" QS, "\"failures\": 0") ","
		ROW("traces/x.trace", "") "," ROW("traces/" QS, "\"failures\": 0") "]}");
	ck_assert_int_eq(cli("compare %s --no-timing -s gba-obj-map --baseline %s --missing-fails", trace(QS), f), 2);
	ck_assert_msg(strstr(err, "twice-base.json: error: row 3 (traces/" QS " obj gba-obj-map) repeats row 1"), "%s",
		err);
	/* keys given twice, at the top, in a row, in its metrics, deeper */
	baseline_refused("{\"vramsim_baseline\": 1, \"vramsim_baseline\": 1, \"rows\": [" ROW("t", "") "]}",
		"bad-base.json: error: key \"vramsim_baseline\" given twice");
	baseline_refused("{\"vramsim_baseline\": 1, \"rows\": [" ROW("t", "") "], \"rows\": []}",
		"key \"rows\" given twice");
	baseline_refused("{\"vramsim_baseline\": 1, \"rows\": [" ROW("t", "") "," ROW("u", "\"failures\": 0, \"failures\": 7")
		"]}", "bad-base.json: error: row 2 (u obj gba-obj-map): key \"failures\" given twice");
	baseline_refused("{\"vramsim_baseline\": 1, \"rows\": [{\"trace\": \"t\", \"arena\": \"obj\", \"arena\": \"bg\", "
		"\"strategy\": \"s\", \"metrics\": {}}]}", "row 1 (t obj s): key \"arena\" given twice");
	baseline_refused("{\"vramsim_baseline\": 1, \"rows\": [" ROW("t", "\"failures_by_kind\": {\"oom\": 1, \"oom\": 2}")
		"]}", "row 1 (t obj gba-obj-map): key \"oom\" given twice");
	/* an escaped backslash, then u0000: a name of its own, no NUL */
	f = vs_test_file(1, "bs-base.json", "{\"vramsim_baseline\":1,\"rows\":[" ROW("traces/" QS "\\\\u0000",
		"\"failures\": 0") "]}");
	ck_assert_int_eq(cli("compare %s --no-timing -s gba-obj-map --baseline %s --missing-fails", trace(QS), f), 1);
	ck_assert_msg(strstr(out, "MISSING traces/" QS "\\u0000 obj gba-obj-map"), "%s", out);
}
END_TEST

/* ---- exit codes and input errors -------------------------------------------------- */

START_TEST(usage_and_input_errors)
{
	const char *bad;

	ck_assert_int_eq(cli("compare --help"), 0);
	ck_assert_ptr_nonnull(strstr(out, "usage: vramsim compare"));
	ck_assert_int_eq(cli("compare"), 2);
	ck_assert_ptr_nonnull(strstr(err, "no trace given"));
	ck_assert_int_eq(cli("compare %s --frob", trace(QS)), 2);
	ck_assert_int_eq(cli("compare %s -s no-such-strategy", trace(QS)), 2);
	ck_assert_ptr_nonnull(strstr(err, "unknown strategy 'no-such-strategy'"));
	ck_assert_int_eq(cli("compare %s -s nns-lnk-tex", trace(QS)), 2);
	ck_assert_ptr_nonnull(strstr(err, "nns-lnk-tex manages none of the traces' arenas"));
	ck_assert_int_eq(cli("compare %s -s bg=gba-obj-map", trace(QS)), 2);
	ck_assert_int_eq(cli("compare %s -f yaml", trace(QS)), 2);
	ck_assert_int_eq(cli("compare %s --out yaml=x", trace(QS)), 2);
	ck_assert_int_eq(cli("compare %s -j 0", trace(QS)), 2);
	ck_assert_int_eq(cli("compare /nonexistent.trace"), 2);
	/* a malformed header, and a malformed event after a good header */
	bad = vs_test_file(1, "bad-header.trace", "vramsim-trace 1\narena obj gba-obj mode=9\n");
	ck_assert_int_eq(cli("compare %s", bad), 2);
	ck_assert_msg(strstr(err, "bad-header.trace:2:") != NULL, "%s", err);
	bad = vs_test_file(1, "bad-event.trace", "vramsim-trace 1\narena obj gba-obj\nalloc 1 sprite 8x8 4bpp\n"
		"alloc 2 sprite 9x9 4bpp\n");
	ck_assert_int_eq(cli("compare %s -o %s", bad, tmp_path("never.txt")), 2);
	ck_assert_msg(strstr(err, "bad-event.trace:4:") != NULL, "%s", err);
	ck_assert(!vs_test_exists(tmp_path("never.txt")));
	/* arena choice and option continuation parse */
	ck_assert_int_eq(cli("compare %s --no-timing -s obj=gba-obj-map,gba-obj-buddy -f csv", trace(QS)), 0);
	ck_assert_int_eq(count(out, "\n"), 3);
	ck_assert_ptr_nonnull(strstr(out, ",gba-obj-map,ok,"));
	ck_assert_ptr_nonnull(strstr(out, "\ntraces/obj-quickstart.trace,obj,gba-obj,gba-obj-buddy,ok,"));
}
END_TEST

START_TEST(unwritable_output_leaves_nothing)
{
	const char *ok = tmp_path("half.md");

	remove(ok);
	ck_assert_int_eq(cli("compare %s --no-timing --out markdown=%s --out junit=/nonexistent/dir/x.xml", trace(QS),
		ok), 2);
	ck_assert_ptr_nonnull(strstr(err, "cannot write /nonexistent/dir/x.xml"));
	ck_assert(!vs_test_exists(ok));
	ck_assert_int_eq(cli("compare %s --no-timing --write-baseline /nonexistent/dir/b.json --out markdown=%s",
		trace(QS), ok), 2);
	ck_assert(!vs_test_exists(ok));
	ck_assert_str_eq(out, ""); /* standard output held back too */
}
END_TEST

/* A strategy that puts everything at offset 0: the second live allocation
 * overlaps the first, so the replay's integrity check fails. */
static int bad_init(void *st, const vs_arena_decl *a, const char *o, uint8_t *mem, char *e, size_t el)
{
	(void)st; (void)a; (void)o; (void)mem; (void)e; (void)el;
	return 0;
}

static int bad_alloc(void *st, const vs_request *rq, vs_placement *pl)
{
	(void)st;
	memset(pl, 0, sizeof *pl);
	pl->granted = rq->size;
	return VS_OK;
}

static int bad_free(void *st, const vs_placement *pl) { (void)st; (void)pl; return VS_OK; }
static void bad_reset(void *st) { (void)st; }
static void bad_walk(void *st, vs_extent_fn fn, void *ud) { (void)st; (void)fn; (void)ud; }

static const vs_strategy bad_strategy = {
	.abi = VS_STRATEGY_ABI,
	.name = "test-cmp-overlap",
	.summary = "everything at 0",
	.arenas = VS_ARENA_BIT(VS_ARENA_GBA_OBJ),
	.flags = VS_STRAT_RELOCATABLE,
	.state_size = 8,
	.init = bad_init,
	.alloc = bad_alloc,
	.free = bad_free,
	.reset = bad_reset,
	.walk_free = bad_walk
};

/* With timing on, every strategy runs inside a timing wrapper: every
 * operation of the ABI (held extents of the heaps, BG tile 0, the moves and
 * frame calls of gba-obj-compact) must reach the real strategy's state, so
 * every row's books are the same with timing and without. */
START_TEST(timing_wrapper_forwards_everything)
{
	static const char *const names[] = {
		"ds-levels", "ds-stream", "gba-bitmap-racer-1", "gba-boss-fight-1", "gba-demo-capture",
		"gba-level-change-1", "gba-side-scroller-1", "gba-sprite-churn-1", "heap-manager",
		"heap-scratch", "obj-quickstart"
	};
	/* plus a trace that locks and remaps banks: libnds-tex steers by both */
	enum { N = sizeof names / sizeof names[0] + 1 };
	char paths[N][512];
	const char *traces[N];
	vs_cmp_result plain, timed;
	vs_cmp_config cfg;
	char e[1024];
	int i;
	uint64_t moves = 0;

	for (i = 0; i < N - 1; i++) {
		snprintf(paths[i], sizeof paths[i], "%s/traces/%s.trace", VS_SOURCE_DIR, names[i]);
		traces[i] = paths[i];
	}
	traces[N - 1] = vs_test_file(7, "banks.trace", "vramsim-trace 1\narena tex ds-tex\nlock A\n"
		"alloc 1 tex 128x128 direct\nalloc 2 tex 256x256 direct\nunlock A\nalloc 3 tex 64x64 direct\n"
		"vramcnt D 0x00\nalloc 4 tex 64x64 direct\nvramcnt D 0x9B\nalloc 5 tex 64x64 direct\n");
	run_lib(&plain, traces, N, NULL, 0, 2);
	vs_cmp_config_default(&cfg);
	cfg.traces = traces;
	cfg.ntraces = N;
	cfg.jobs = 2;
	ck_assert_int_eq(cfg.timing, 1);
	ck_assert_msg(vs_cmp_run(&cfg, &timed, e, sizeof e) == 0, "%s", e);
	ck_assert_int_eq(plain.nrows, timed.nrows);
	for (i = 0; i < plain.nrows; i++) {
		const vs_cmp_row *a = &plain.rows[i], *b = &timed.rows[i];

		ck_assert_str_eq(a->strategy, b->strategy);
		ck_assert_msg(a->status == b->status && memcmp(&a->m, &b->m, sizeof a->m) == 0 &&
			a->peak_free_extents == b->peak_free_extents && a->peak_internal == b->peak_internal,
			"%s %s %s: the books differ with timing (status %d/%d, checks %llu/%llu, moves %llu/%llu)",
			a->trace, a->arena, a->strategy, (int)a->status, (int)b->status,
			(unsigned long long)a->m.checks, (unsigned long long)b->m.checks,
			(unsigned long long)a->m.moves, (unsigned long long)b->m.moves);
		/* the bank trace unmaps what some strategies use: only its books must agree */
		ck_assert_msg(b->status == VS_CMP_OK || b->status == VS_CMP_REFUSED || strcmp(b->trace, traces[N - 1]) == 0,
			"%s %s %s: status %d", b->trace, b->arena, b->strategy, (int)b->status);
		moves += b->m.moves;
	}
	/* the strategy that moves did move: the case would prove little otherwise */
	ck_assert_uint_gt(moves, 0);
	vs_cmp_result_free(&plain);
	vs_cmp_result_free(&timed);
}
END_TEST

START_TEST(integrity_failure_fails_the_report)
{
	vs_cmp_choice ch[2];
	vs_cmp_result res;
	vs_cmp_report rep;
	vs_cmp_config cfg;
	const char *t[1];
	char e[512], *buf = NULL;
	size_t len = 0;
	FILE *fp;

	if (!vs_strategy_find("test-cmp-overlap"))
		ck_assert_int_eq(vs_strategy_register(&bad_strategy, e, sizeof e), 0);
	memset(ch, 0, sizeof ch);
	ch[0].strategy = vs_strategy_find("gba-obj-map");
	ch[1].strategy = &bad_strategy;
	t[0] = trace(QS);
	vs_cmp_config_default(&cfg);
	cfg.traces = t;
	cfg.ntraces = 1;
	cfg.choices = ch;
	cfg.nchoices = 2;
	cfg.timing = 1; /* through the timing wrapper too */
	ck_assert_int_eq(vs_cmp_run(&cfg, &res, e, sizeof e), 0);
	ck_assert_int_eq(res.nrows, 2);
	ck_assert_int_eq(res.rows[0].status, VS_CMP_OK);
	ck_assert_uint_gt(res.rows[0].calls, 0);
	ck_assert_int_eq(res.rows[1].status, VS_CMP_INTEGRITY);
	ck_assert_ptr_nonnull(res.rows[1].messages);
	ck_assert_ptr_nonnull(strstr(res.rows[1].messages, "integrity: overlap"));
	ck_assert_int_eq(res.rows[1].rank, 0);
	ck_assert_int_eq(res.best[0].row, 0);
	memset(&rep, 0, sizeof rep);
	rep.res = &res;
	ck_assert_int_eq(vs_cmp_report_ok(&rep), 0);
	fp = open_memstream(&buf, &len);
	ck_assert_int_eq(vs_cmp_write(fp, &rep, VS_FMT_JUNIT), 0);
	fclose(fp);
	ck_assert_ptr_nonnull(strstr(buf, "name=\"test-cmp-overlap integrity\">\n      <failure type=\"integrity\""));
	free(buf);
	buf = NULL;
	fp = open_memstream(&buf, &len);
	ck_assert_int_eq(vs_cmp_write(fp, &rep, VS_FMT_TEXT), 0);
	fclose(fp);
	ck_assert_ptr_nonnull(strstr(buf, "INTEGRITY traces/obj-quickstart.trace obj test-cmp-overlap"));
	ck_assert_ptr_nonnull(strstr(buf, "result: FAILED (1 integrity failure)"));
	free(buf);
	vs_cmp_result_free(&res);
}
END_TEST

/* The traces are read for planning on every thread: whatever finishes
 * first, the first bad trace in the order given is the one reported. */
START_TEST(first_bad_trace_in_order)
{
	const char *bad1 = vs_test_file(1, "first-bad.trace", "vramsim-trace 1\narena obj gba-obj\nalloc 1 sprite 8x8 4bpp\n"
		"alloc 2 sprite 9x9 4bpp\n");
	const char *bad2 = vs_test_file(2, "second-bad.trace", "vramsim-trace 1\narena obj gba-obj mode=9\n");
	int i;

	for (i = 0; i < 4; i++) {
		ck_assert_int_eq(cli("compare %s %s %s %s --no-timing -j 3", trace(QS), bad1, trace(QS), bad2), 2);
		ck_assert_msg(strstr(err, "first-bad.trace:4:") != NULL && strstr(err, "second-bad") == NULL, "%s", err);
	}
}
END_TEST

/* An arena no named strategy manages gets no row: every format says so,
 * and the result is "incomplete", not "ok" (the exit stays 0). */
START_TEST(arena_without_rows_is_said)
{
	const char *t = vs_test_file(6, "two.trace", "vramsim-trace 1\narena obj gba-obj\narena bg gba-bg\n"
		"alloc 1 obj sprite 16x16 4bpp\nalloc 2 bg map text 256x256\n");
	const char *fmts[] = { "markdown", "json", "junit" };
	char *text[3];
	int i;

	/* the text on standard output, the other formats from the same run */
	ck_assert_int_eq(cli("compare %s -s gba-obj-first-fit --no-timing --out markdown=%s --out json=%s --out junit=%s",
		t, tmp_path("nc.md"), tmp_path("nc.json"), tmp_path("nc.xml")), 0);
	ck_assert_msg(strstr(out, "not compared: ") && strstr(out, "two.trace bg (gba-bg): none of the strategies given "
		"manages it"), "%s", out);
	ck_assert_msg(strstr(out, "result: incomplete (1 arena not compared"), "%s", out);
	ck_assert_ptr_null(strstr(out, "result: ok"));
	text[0] = vs_test_slurp(tmp_path("nc.md"));
	text[1] = vs_test_slurp(tmp_path("nc.json"));
	text[2] = vs_test_slurp(tmp_path("nc.xml"));
	for (i = 0; i < 3; i++)
		ck_assert_msg(text[i] != NULL, "no %s output", fmts[i]);
	ck_assert_ptr_nonnull(strstr(text[0], "**result: incomplete"));
	ck_assert_ptr_nonnull(strstr(text[0], "- not compared: `"));
	ck_assert_ptr_nonnull(strstr(text[1], "\"not_compared\":"));
	ck_assert_ptr_nonnull(strstr(text[1], "\"arena\":\t\"bg\""));
	ck_assert_ptr_nonnull(strstr(text[2], "<testsuite name=\"arenas not compared\" tests=\"1\" failures=\"0\" "
		"errors=\"0\" skipped=\"1\">"));
	for (i = 0; i < 3; i++)
		free(text[i]);
	remove(tmp_path("nc.md"));
	remove(tmp_path("nc.json"));
	remove(tmp_path("nc.xml"));
	/* every arena compared: ok, and an empty list */
	ck_assert_int_eq(cli("compare %s -s gba-obj-first-fit -s gba-bg-tiles --no-timing", t), 0);
	ck_assert_ptr_nonnull(strstr(out, "result: ok"));
	ck_assert_ptr_null(strstr(out, "not compared"));
}
END_TEST

/* A row's key is the trace path as given, "./" dropped: a relative path
 * stays relative (".//DIR/q.trace" run in DIR is DIR/DIR/q.trace, not
 * DIR/q.trace, which it was, ranked against it), and one file given twice,
 * by any names, is refused before anything runs: its rows would be ranked
 * against each other and written twice to a baseline, which refuses that. */
START_TEST(trace_keys_name_one_file_each)
{
	const char *dir = tmp_path("keys"), *base = tmp_path("keys.json"), *html = tmp_path("keys.html");
	char cmd[4096], row[1200];
	int rc;

	snprintf(cmd, sizeof cmd, "mkdir -p '%s%s' && cp traces/" QS " '%s/q.trace' && "
		"cp traces/gba-sprite-churn-1.trace '%s%s/q.trace' && ln -s q.trace '%s/link.trace'", dir, dir, dir, dir, dir,
		dir);
	ck_assert_int_eq(system(cmd), 0);
	ck_assert_int_eq(chdir(dir), 0);
	rc = cli("compare %s/q.trace .//%s/q.trace -s gba-obj-map --no-timing -f csv", dir, dir + 1);
	ck_assert_int_eq(chdir(VS_SOURCE_DIR), 0);
	ck_assert_msg(rc == 0, "%s", err);
	/* two keys, each ranked first of its own */
	snprintf(row, sizeof row, "\n%s/q.trace,obj,gba-obj,gba-obj-map,ok,1,11,", dir);
	ck_assert_msg(strstr(out, row) != NULL, "%s", out);
	snprintf(row, sizeof row, "\n%s/q.trace,obj,gba-obj,gba-obj-map,ok,1,4329,", dir + 1);
	ck_assert_msg(strstr(out, row) != NULL, "%s", out);
	/* "./" and the slashes after it go, nothing else */
	ck_assert_int_eq(cli("compare .//traces/%s -s gba-obj-map --no-timing -f csv", QS), 0);
	ck_assert_msg(strstr(out, "\ntraces/" QS ",obj,") != NULL, "%s", out);

	/* the same file by two names: refused, no baseline written */
	ck_assert_int_eq(chdir(dir), 0);
	rc = cli("compare q.trace ./q.trace -s gba-obj-map --no-timing --write-baseline %s", base);
	ck_assert_int_eq(chdir(VS_SOURCE_DIR), 0);
	ck_assert_msg(rc == 2, "exit %d: %s", rc, err);
	ck_assert_msg(strstr(err, "./q.trace: the same file as q.trace, given before"), "%s", err);
	ck_assert(!vs_test_exists(base));
	/* through a link, and a directory with a file of it */
	ck_assert_int_eq(cli("compare %s/q.trace %s/link.trace -s gba-obj-map --no-timing", dir, dir), 2);
	ck_assert_msg(strstr(err, "link.trace: the same file as "), "%s", err);
	ck_assert_int_eq(cli("compare %s/q.trace %s -s gba-obj-map --no-timing", dir, dir), 2);
	ck_assert_msg(strstr(err, "the same file as "), "%s", err);
	/* the report's comparison has the same keys */
	ck_assert_int_eq(cli("report %s/q.trace %s/./q.trace -o %s -q", dir, dir, html), 2);
	ck_assert_msg(strstr(err, "/./q.trace: the same file as "), "%s", err);
	ck_assert(!vs_test_exists(html));
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("compare");
	TCase *tc = tcase_create("compare");
	/* many compare runs each: under the sanitizers 40% of the suite's
	 * time, so a ctest test of its own */
	TCase *outputs = vs_test_tcase_apart(s, "outputs", NULL);

	tcase_set_timeout(tc, 120);
	tcase_set_timeout(outputs, 120);
	tcase_add_test(tc, rows_cover_every_manager_in_order);
	tcase_add_test(tc, peak_state_matches_a_replay_stopped_there);
	tcase_add_test(tc, ranking_rule);
	tcase_add_test(tc, every_format);
	tcase_add_test(outputs, deterministic_and_several_outputs);
	tcase_add_test(tc, every_budget_kind_flags);
	tcase_add_test(tc, budget_file);
	tcase_add_test(tc, baseline_round_trip_and_tolerance_edges);
	tcase_add_test(tc, baseline_new_and_missing_rows);
	tcase_add_test(tc, malformed_baseline);
	tcase_add_test(tc, budget_matching_no_row);
	tcase_add_test(tc, ambiguous_baseline);
	tcase_add_test(tc, usage_and_input_errors);
	tcase_add_test(tc, unwritable_output_leaves_nothing);
	tcase_add_test(tc, integrity_failure_fails_the_report);
	tcase_add_test(outputs, timing_wrapper_forwards_everything);
	tcase_add_test(tc, first_bad_trace_in_order);
	tcase_add_test(tc, arena_without_rows_is_said);
	tcase_add_test(tc, trace_keys_name_one_file_each);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	if (chdir(VS_SOURCE_DIR) != 0)
		return 1;
	return vs_test_main(suite());
}
