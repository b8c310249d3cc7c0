/* SPDX-License-Identifier: Zlib */
/* test_compare_md.c - `vramsim compare --changes-only`: the short report of
 * what changed against a baseline (a pull-request comment in Markdown, or
 * text). Two hand-made traces and a baseline edited to known differences:
 * a regression, an improvement, an unchanged row, a new and a missing row,
 * each read back from the report field by field; the fold, the exit codes,
 * and the combinations that are refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "support.h"
#include "compare/compare.h"

static char out[1 << 18], err[1 << 16];

#define cli(...) vs_test_cli(out, sizeof out, err, sizeof err, __VA_ARGS__)

/* Trace A frees a sprite and places a bigger one; trace B asks for nine
 * 4 KiB sprites in 32 KiB: the ninth fails. */
#define TRACE_A "vramsim-trace 1\narena obj gba-obj mode=0\nalloc 1 sprite 8x8 4bpp\nalloc 2 sprite 16x8 4bpp\n" \
	"free 1\nalloc 3 sprite 32x32 4bpp\n"
#define TRACE_B "vramsim-trace 1\narena obj gba-obj mode=0\nalloc 1 sprite 64x64 8bpp\nalloc 2 sprite 64x64 8bpp\n" \
	"alloc 3 sprite 64x64 8bpp\nalloc 4 sprite 64x64 8bpp\nalloc 5 sprite 64x64 8bpp\nalloc 6 sprite 64x64 8bpp\n" \
	"alloc 7 sprite 64x64 8bpp\nalloc 8 sprite 64x64 8bpp\nalloc 9 sprite 64x64 8bpp\n"
#define STRATS "-s gba-obj-map,gba-obj-first-fit"

typedef struct fixture {
	const char *a, *b, *base;
	double hw_new, fails_new; /* A/gba-obj-map high_water, B/gba-obj-map failures as replayed */
} fixture;

static cJSON *find_row(cJSON *doc, const char *trace, const char *strategy)
{
	cJSON *r;

	cJSON_ArrayForEach(r, cJSON_GetObjectItem(doc, "rows"))
		if (strcmp(cJSON_GetObjectItem(r, "trace")->valuestring, trace) == 0 &&
			strcmp(cJSON_GetObjectItem(r, "strategy")->valuestring, strategy) == 0)
			return r;
	ck_abort_msg("no row %s %s", trace, strategy);
	return NULL;
}

static cJSON *metric(cJSON *row, const char *name)
{
	cJSON *v = cJSON_GetObjectItem(cJSON_GetObjectItem(row, "metrics"), name);

	ck_assert_ptr_nonnull(v);
	return v;
}

/* The baseline of this run, edited: A/gba-obj-map's high_water 32 lower
 * (a regression of +32), B/gba-obj-map's failures one higher (an
 * improvement of -1), A/gba-obj-first-fit as it is (unchanged), and
 * B/gba-obj-first-fit renamed: B/gba-obj-first-fit is new, the renamed row
 * missing. */
static fixture make_fixture(void)
{
	fixture f;
	char *text;
	cJSON *doc, *r;

	f.a = vs_test_file(0, "md-a.trace", TRACE_A);
	f.b = vs_test_file(1, "md-b.trace", TRACE_B);
	f.base = vs_test_file(2, "md-base.json", "");
	ck_assert_int_eq(cli("compare %s %s " STRATS " --no-timing --write-baseline %s", f.a, f.b, f.base), 0);
	text = vs_test_slurp(f.base);
	doc = cJSON_Parse(text);
	free(text);
	ck_assert_ptr_nonnull(doc);
	ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(doc, "rows")), 4);
	r = find_row(doc, f.a, "gba-obj-map");
	f.hw_new = metric(r, "high_water")->valuedouble;
	ck_assert(f.hw_new >= 64); /* room for the edit below */
	cJSON_SetNumberValue(metric(r, "high_water"), f.hw_new - 32);
	r = find_row(doc, f.b, "gba-obj-map");
	f.fails_new = metric(r, "failures")->valuedouble;
	ck_assert(f.fails_new >= 1); /* the ninth sprite */
	cJSON_SetNumberValue(metric(r, "failures"), f.fails_new + 1);
	cJSON_SetValuestring(cJSON_GetObjectItem(find_row(doc, f.b, "gba-obj-first-fit"), "strategy"),
		"retired-strategy");
	text = cJSON_Print(doc);
	cJSON_Delete(doc);
	f.base = vs_test_file(2, "md-base.json", text);
	free(text);
	return f;
}

/* The text of one line, without its newline, from where s points. */
static char *line_at(const char *s, char *buf, size_t len)
{
	size_t n = strcspn(s, "\n");

	ck_assert_uint_lt(n, len);
	memcpy(buf, s, n);
	buf[n] = '\0';
	return buf;
}

/* The cells of a Markdown table row, Markdown escapes undone. */
static int md_cells(const char *line, char cells[][1200], int max)
{
	int n = 0;
	size_t k = 0;

	ck_assert_msg(line[0] == '|', "not a table row: %s", line);
	for (line++; *line && n < max; line++) {
		if (*line == '\\' && line[1]) {
			line++;
		} else if (*line == '|') {
			/* trim the blank either side */
			while (k && cells[n][k - 1] == ' ')
				k--;
			cells[n][k] = '\0';
			memmove(cells[n], cells[n] + (cells[n][0] == ' '), k + 1);
			n++;
			k = 0;
			continue;
		}
		ck_assert_uint_lt(k, sizeof cells[0] - 1);
		cells[n][k++] = *line;
	}
	return n;
}

/* The data rows of the table under the heading that starts with title:
 * checks the header names, returns the number of rows, cells in rows. */
static int md_section(const char *doc, const char *title, const char *const *header, int ncols,
	char rows[][12][1200], int maxrows)
{
	char line[4096], head[12][1200];
	const char *at = strstr(doc, title);
	int n = 0, c;

	ck_assert_msg(at != NULL, "no section '%s' in:\n%s", title, doc);
	at = strchr(at, '\n') + 1;
	ck_assert_msg(*at == '\n', "no blank line after '%s'", title);
	at++;
	ck_assert_int_eq(md_cells(line_at(at, line, sizeof line), head, 12), ncols);
	for (c = 0; c < ncols; c++)
		ck_assert_str_eq(head[c], header[c]);
	at = strchr(at, '\n') + 1; /* the alignment row */
	ck_assert(strncmp(at, "|---", 4) == 0);
	for (at = strchr(at, '\n') + 1; *at == '|'; at = strchr(at, '\n') + 1) {
		ck_assert_int_lt(n, maxrows);
		ck_assert_int_eq(md_cells(line_at(at, line, sizeof line), rows[n], 12), ncols);
		n++;
	}
	return n;
}

static const char *const change_head[] = { "trace", "arena", "strategy", "metric", "old", "new", "delta", "change",
	"allowed" };

static char rows[8][12][1200];

START_TEST(markdown_comment_field_by_field)
{
	fixture f = make_fixture();
	char want[256], *fold, *fold_end;
	const char *p;
	int n;

	ck_assert_int_eq(cli("compare %s %s " STRATS " --baseline %s -f markdown --changes-only", f.a, f.b, f.base), 1);
	ck_assert_msg(strncmp(out, "### vramsim compare: changes against the baseline\n\n", 51) == 0, "%s", out);
	/* the one-line verdict */
	ck_assert_msg(strstr(out, "\n:x: **result: FAILED (1 regression): of 3 rows compared with the baseline, "
		"1 regressed, 1 improved, 0 within tolerance, 1 unchanged; 1 new, 1 missing; no budgets**\n") != NULL,
		"%s", out);

	n = md_section(out, "#### :x: Regressions (1)", change_head, 9, rows, 8);
	ck_assert_int_eq(n, 1);
	ck_assert_str_eq(rows[0][0], f.a);
	ck_assert_str_eq(rows[0][1], "obj");
	ck_assert_str_eq(rows[0][2], "gba-obj-map");
	ck_assert_str_eq(rows[0][3], "high_water");
	ck_assert_double_eq(atof(rows[0][4]), f.hw_new - 32);
	ck_assert_double_eq(atof(rows[0][5]), f.hw_new);
	ck_assert_str_eq(rows[0][6], "+32");
	snprintf(want, sizeof want, "%+.1f%%", 32.0 / (f.hw_new - 32) * 100.0);
	ck_assert_str_eq(rows[0][7], want);
	ck_assert_double_eq(atof(rows[0][8]), f.hw_new - 32); /* no tolerance: the old value */

	n = md_section(out, "#### :white_check_mark: Improvements (1)", change_head, 8, rows, 8);
	ck_assert_int_eq(n, 1);
	ck_assert_str_eq(rows[0][0], f.b);
	ck_assert_str_eq(rows[0][2], "gba-obj-map");
	ck_assert_str_eq(rows[0][3], "failures");
	ck_assert_double_eq(atof(rows[0][4]), f.fails_new + 1);
	ck_assert_double_eq(atof(rows[0][5]), f.fails_new);
	ck_assert_str_eq(rows[0][6], "-1");
	snprintf(want, sizeof want, "%+.1f%%", -100.0 / (f.fails_new + 1));
	ck_assert_str_eq(rows[0][7], want);

	n = md_section(out, "#### New rows, not in the baseline (1)", change_head, 3, rows, 8);
	ck_assert_int_eq(n, 1);
	ck_assert_str_eq(rows[0][0], f.b);
	ck_assert_str_eq(rows[0][1], "obj");
	ck_assert_str_eq(rows[0][2], "gba-obj-first-fit");
	n = md_section(out, "#### Missing rows, in the baseline but not in this run (1)", change_head, 3, rows, 8);
	ck_assert_int_eq(n, 1);
	ck_assert_str_eq(rows[0][0], f.b);
	ck_assert_str_eq(rows[0][2], "retired-strategy");
	/* the unchanged row is in no section */
	ck_assert_ptr_null(strstr(out, "Worse, within tolerance"));
	ck_assert_ptr_null(strstr(out, "Broken budgets"));

	/* sections in order, then the fold with the full table, last */
	ck_assert(strstr(out, "Regressions") < strstr(out, "Improvements"));
	ck_assert(strstr(out, "Improvements") < strstr(out, "New rows"));
	ck_assert(strstr(out, "New rows") < strstr(out, "Missing rows"));
	fold = strstr(out, "\n<details><summary>Full table (4 rows)</summary>\n\n| trace | arena | strategy | rank |");
	ck_assert_msg(fold != NULL, "%s", out);
	ck_assert(strstr(out, "Missing rows") < fold);
	fold_end = strstr(fold, "\n</details>\n");
	ck_assert_ptr_nonnull(fold_end);
	ck_assert_str_eq(fold_end, "\n</details>\n");
	*fold_end = '\0';
	/* four rows in the fold, every one; the best lines too; no timing column */
	p = fold;
	for (n = 0; (p = strstr(p, "\n| ")) != NULL; p++)
		n++;
	ck_assert_int_eq(n, 4 + 1); /* and the header */
	ck_assert_ptr_nonnull(strstr(fold, "**Best**"));
	ck_assert_ptr_null(strstr(fold, "ns/op"));
	ck_assert(strstr(out, "| rank |") > fold); /* the full table only in the fold */
	ck_assert_ptr_nonnull(strstr(err, "1 baseline regression"));
}
END_TEST

START_TEST(tolerance_budgets_and_missing_fails)
{
	fixture f = make_fixture();

	/* +32 allowed: within tolerance, the run passes */
	ck_assert_int_eq(cli("compare %s %s " STRATS " --baseline %s -f md --changes-only --tolerance high_water=0,32",
		f.a, f.b, f.base), 0);
	ck_assert_msg(strstr(out, ":white_check_mark: **result: ok: of 3 rows compared with the baseline, 0 regressed, "
		"1 improved, 1 within tolerance, 1 unchanged; 1 new, 1 missing; no budgets**\n") != NULL, "%s", out);
	ck_assert_int_eq(md_section(out, "#### Worse, within tolerance (1)", change_head, 9, rows, 8), 1);
	ck_assert_str_eq(rows[0][3], "high_water");
	ck_assert_str_eq(rows[0][6], "+32");
	ck_assert_double_eq(atof(rows[0][8]), f.hw_new); /* old + 32 */
	ck_assert_ptr_null(strstr(out, "Regressions"));

	/* budgets: both B rows fail one allocation */
	ck_assert_int_eq(cli("compare %s %s " STRATS " --baseline %s -f md --changes-only --tolerance high_water=0,32 "
		"--max-failures 0", f.a, f.b, f.base), 1);
	ck_assert_msg(strstr(out, ":x: **result: FAILED (2 budgets broken): of 3 rows compared with the baseline, "
		"0 regressed, 1 improved, 1 within tolerance, 1 unchanged; 1 new, 1 missing; budgets: 4 checked, "
		"2 broken**\n") != NULL, "%s", out);
	ck_assert_ptr_nonnull(strstr(out, "#### :x: Broken budgets (2)\n\n- "));
	ck_assert_int_eq(cli("compare %s %s " STRATS " --baseline %s -f md --changes-only --tolerance high_water=0,32 "
		"--max-failures 1", f.a, f.b, f.base), 0);
	ck_assert_ptr_nonnull(strstr(out, "budgets: 4 checked, 0 broken**"));

	/* a missing row fails with --missing-fails, and says so */
	ck_assert_int_eq(cli("compare %s %s " STRATS " --baseline %s -f md --changes-only --tolerance high_water=0,32 "
		"--missing-fails", f.a, f.b, f.base), 1);
	ck_assert_ptr_nonnull(strstr(out, "result: FAILED (1 baseline row missing)"));
	ck_assert_ptr_nonnull(strstr(out, "#### :x: Missing rows, in the baseline but not in this run (1)"));

	/* more than 10 rows that fail nothing are folded; failing ones never */
	ck_assert_int_eq(cli("compare %s %s -s gba-obj-map,gba-obj-first-fit,gba-obj-best-fit-end,gba-obj-buddy,"
		"gba-obj-ends,gba-obj-snug --no-timing --write-baseline %s", f.a, f.b, f.base), 0);
	ck_assert_int_eq(cli("compare %s " STRATS " --baseline %s -f md --changes-only", f.a, f.base), 0);
	ck_assert_msg(strstr(out, "#### Missing rows, in the baseline but not in this run (10)\n\n| trace ") != NULL,
		"%s", out);
	ck_assert_int_eq(cli("compare %s -s gba-obj-map --baseline %s -f md --changes-only", f.a, f.base), 0);
	ck_assert_msg(strstr(out, "#### Missing rows, in the baseline but not in this run (11)\n\n"
		"<details><summary>11 rows</summary>\n\n| trace ") != NULL, "%s", out);
	ck_assert_ptr_nonnull(strstr(out, "|\n\n</details>\n"));
	ck_assert_int_eq(cli("compare %s -s gba-obj-map --baseline %s -f md --changes-only --missing-fails", f.a, f.base),
		1);
	ck_assert_ptr_nonnull(strstr(out, "#### :x: Missing rows, in the baseline but not in this run (11)\n\n| trace "));

	/* nothing changed: no section, the fold still there */
	ck_assert_int_eq(cli("compare %s " STRATS " --no-timing --write-baseline %s", f.a, f.base), 0);
	ck_assert_int_eq(cli("compare %s " STRATS " --baseline %s -f md --changes-only", f.a, f.base), 0);
	ck_assert_ptr_nonnull(strstr(out, "result: ok: of 2 rows compared with the baseline, 0 regressed, 0 improved, "
		"0 within tolerance, 2 unchanged; 0 new, 0 missing; no budgets**\n\n<details><summary>Full table (2 rows)"));
}
END_TEST

START_TEST(text_is_short_and_deterministic)
{
	fixture f = make_fixture();
	char *first;
	const char *p;
	static const char verdict[] = "result: FAILED (1 regression): of 3 rows compared with the baseline, "
		"1 regressed, 1 improved, 0 within tolerance, 1 unchanged; 1 new, 1 missing; no budgets\n";

	ck_assert_int_eq(cli("compare %s %s " STRATS " --baseline %s --changes-only", f.a, f.b, f.base), 1);
	ck_assert_msg(strncmp(out, verdict, strlen(verdict)) == 0, "%s", out);
	p = strstr(out, "\nregressions (1):\n  trace");
	ck_assert_msg(p != NULL, "%s", out);
	p = strchr(p + 1, '\n') + 1;
	p = strchr(p, '\n') + 1;
	ck_assert_msg(strncmp(p, "  ", 2) == 0 && strstr(p, "gba-obj-map") && strstr(p, "high_water"), "%s", p);
	ck_assert_ptr_nonnull(strstr(out, "\nimprovements (1):\n"));
	ck_assert_ptr_nonnull(strstr(out, "\nnew rows, not in the baseline (1):\n"));
	ck_assert_ptr_nonnull(strstr(out, "\nmissing rows, in the baseline but not in this run (1):\n"));
	ck_assert_ptr_nonnull(strstr(out, "retired-strategy\n"));
	/* no full table, no trailing blanks */
	ck_assert_ptr_null(strstr(out, "rank"));
	ck_assert_ptr_null(strstr(out, " \n"));

	/* the same bytes every run (timing is off); --timing brings ns/op back */
	first = strdup(out);
	ck_assert_int_eq(cli("compare %s %s " STRATS " --baseline %s --changes-only -j1", f.a, f.b, f.base), 1);
	ck_assert_str_eq(out, first);
	free(first);
	ck_assert_int_eq(cli("compare %s %s " STRATS " --baseline %s -f md --changes-only --timing", f.a, f.b, f.base),
		1);
	ck_assert_ptr_nonnull(strstr(out, "| ns/op |"));

	/* the -f output is short, the --out files whole */
	ck_assert_int_eq(cli("compare %s %s " STRATS " --baseline %s -f md --changes-only --out markdown=-", f.a, f.b,
		f.base), 1);
	ck_assert_ptr_nonnull(strstr(out, "### vramsim compare\n"));
	ck_assert_ptr_nonnull(strstr(out, "### vramsim compare: changes against the baseline\n"));
}
END_TEST

START_TEST(refused_combinations)
{
	fixture f = make_fixture();
	vs_cmp_result res;
	vs_cmp_report rep;

	ck_assert_int_eq(cli("compare %s --changes-only -f markdown", f.a), 2);
	ck_assert_ptr_nonnull(strstr(err, "--changes-only needs --baseline FILE"));
	ck_assert_str_eq(out, "");
	ck_assert_int_eq(cli("compare %s --changes-only --baseline %s -f csv", f.a, f.base), 2);
	ck_assert_ptr_nonnull(strstr(err, "--changes-only goes with -f markdown or -f text, not -f csv"));
	ck_assert_int_eq(cli("compare %s --changes-only --baseline %s -f json", f.a, f.base), 2);
	ck_assert_ptr_nonnull(strstr(err, "not -f json"));
	ck_assert_int_eq(cli("compare %s --changes-only --baseline %s -f junit", f.a, f.base), 2);
	ck_assert_ptr_nonnull(strstr(err, "not -f junit"));
	/* other formats beside it are fine, and whole */
	ck_assert_int_eq(cli("compare %s " STRATS " --changes-only --baseline %s -f md --out json=-", f.a, f.base), 1);
	ck_assert_ptr_nonnull(strstr(out, "\"vramsim_compare\":"));

	/* the option is in --help and in completion (from the same table) */
	ck_assert_int_eq(cli("compare --help"), 0);
	ck_assert_ptr_nonnull(strstr(out, "--changes-only"));
	ck_assert_int_eq(cli("complete -- compare x --chan"), 0);
	ck_assert_str_eq(out, "--changes-only\n");

	/* the library: a short report needs the baseline report */
	memset(&res, 0, sizeof res);
	memset(&rep, 0, sizeof rep);
	rep.res = &res;
	rep.changes_only = 1;
	ck_assert_int_eq(vs_cmp_write(stdout, &rep, VS_FMT_MARKDOWN), -1);
	ck_assert_int_eq(vs_cmp_write(stdout, &rep, VS_FMT_TEXT), -1);
	ck_assert_str_eq(vs_cmp_format_name(VS_FMT_CSV), "csv");
	ck_assert_str_eq(vs_cmp_format_name((vs_cmp_format)99), "?");
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("compare_md");
	TCase *tc = tcase_create("changes_only");

	tcase_add_test(tc, markdown_comment_field_by_field);
	tcase_add_test(tc, tolerance_budgets_and_missing_fails);
	tcase_add_test(tc, text_is_short_and_deterministic);
	tcase_add_test(tc, refused_combinations);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vs_test_main(suite());
}
