/* SPDX-License-Identifier: Zlib */
/* compare_format.c - a comparison as aligned text, Markdown, CSV, JSON and
 * JUnit XML. Nothing here depends on the machine or the clock: with timing
 * off, the same rows give the same bytes.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/compiler_hints.h"
#include "base/text.h"
#include "compare/compare.h"
#include "compare/baseline.h"
#include "compare/budget.h"
#include "engine/report.h"

static const char *const format_names[VS_FMT_COUNT] = { "text", "markdown", "csv", "json", "junit" };

int vs_cmp_format_parse(const char *name)
{
	int i;

	if (strcmp(name, "md") == 0)
		return VS_FMT_MARKDOWN;
	if (strcmp(name, "xml") == 0)
		return VS_FMT_JUNIT;
	for (i = 0; i < VS_FMT_COUNT; i++)
		if (strcmp(name, format_names[i]) == 0)
			return i;
	return -1;
}

const char *vs_cmp_format_name(vs_cmp_format f)
{
	return (unsigned)f < VS_FMT_COUNT ? format_names[f] : "?";
}

int vs_cmp_report_ok(const vs_cmp_report *rep)
{
	int i;

	for (i = 0; i < rep->res->nrows; i++)
		if (rep->res->rows[i].status == VS_CMP_INTEGRITY)
			return 0;
	if (rep->budget_rep && (rep->budget_rep->broken || rep->budget_rep->nunmatched))
		return 0;
	if (rep->base_rep && (rep->base_rep->regressions || (rep->missing_fails && rep->base_rep->missing)))
		return 0;
	return 1;
}

static int integrity_failures(const vs_cmp_result *res)
{
	int i, n = 0;

	for (i = 0; i < res->nrows; i++)
		n += res->rows[i].status == VS_CMP_INTEGRITY;
	return n;
}

/* ---- names from the user ----------------------------------------------------
 * A trace's path (any bytes a file name holds), a strategy's options, a budget
 * file's name and globs: in text, Markdown and XML each goes through
 * vs_text_escape first (control characters and bad bytes as \xNN, as every
 * message shows input), so a name is one line and forges none; in JSON through
 * vs_text_utf8 (bad bytes as U+FFFD; the JSON library escapes the rest). */

/* A line of text output: the raw line (at most LINE_MAX bytes) escaped. */
#define LINE_MAX_RAW 4096
#define SHOWN_MAX (4 * LINE_MAX_RAW + 1)

static void put_text(FILE *fp, const char *s)
{
	char shown[SHOWN_MAX];

	vs_text_escape(shown, sizeof shown, s, strlen(s), 0);
	fputs(shown, fp);
}

/* One line of text output from fmt, names and all escaped, and its newline. */
static void text_line(FILE *fp, const char *fmt, ...) VS_PRINTF(2, 3);
static void text_line(FILE *fp, const char *fmt, ...)
{
	char line[LINE_MAX_RAW];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	put_text(fp, line);
	fputc('\n', fp);
}

static void json_string(cJSON *o, const char *key, const char *s)
{
	char valid[3 * LINE_MAX_RAW + 1];

	vs_text_utf8(valid, sizeof valid, s);
	cJSON_AddStringToObject(o, key, valid);
}

/* ---- table cells shared by text and Markdown ------------------------------ */

enum {
	COL_TRACE, COL_ARENA, COL_STRATEGY, COL_RANK, COL_ALLOCS, COL_FAILS, COL_BYKIND, COL_PEAK_LIVE,
	COL_PEAK_FRAG, COL_MEAN_FRAG, COL_INTERNAL, COL_HIGH_WATER, COL_EXTENTS, COL_SMALLEST, COL_RAM, COL_NSOP, NCOLS
};

static const struct {
	const char *text, *md;
	int right;
} cols[NCOLS] = {
	{ "trace", "trace", 0 },
	{ "arena", "arena", 0 },
	{ "strategy", "strategy", 0 },
	{ "rank", "rank", 1 },
	{ "allocs", "allocs", 1 },
	{ "fails", "fails", 1 },
	{ "oom/frag/rule/mgmt/unsup/inv", "oom/frag/rule/mgmt/unsup/inv", 1 },
	{ "peak-live", "peak live", 1 },
	{ "peak-frag", "peak frag", 1 },
	{ "mean-frag", "mean frag", 1 },
	{ "int-frag", "internal frag", 1 },
	{ "high-water", "high-water", 1 },
	{ "extents@peak", "free extents at peak", 1 },
	{ "smallest-failed", "smallest failed", 1 },
	{ "ram", "bookkeeping RAM", 1 },
	{ "ns/op", "ns/op", 1 },
};

static void cell(const vs_cmp_row *r, int c, char *buf, size_t len)
{
	const vs_metrics *m = &r->m;
	int replayed = r->status == VS_CMP_OK || r->status == VS_CMP_INTEGRITY;

	if (c > COL_RANK && !replayed) {
		snprintf(buf, len, "-");
		return;
	}
	switch (c) {
	case COL_TRACE: vs_text_escape(buf, len, r->trace, strlen(r->trace), 0); break;
	case COL_ARENA: vs_text_escape(buf, len, r->arena, strlen(r->arena), 0); break;
	case COL_STRATEGY: vs_text_escape(buf, len, r->strategy, strlen(r->strategy), 0); break;
	case COL_RANK:
		if (r->rank)
			snprintf(buf, len, "%d", r->rank);
		else
			snprintf(buf, len, "%s", r->status == VS_CMP_INTEGRITY ? "BROKEN" :
				r->status == VS_CMP_REFUSED ? "refused" : r->status == VS_CMP_ERROR ? "error" : "-");
		break;
	case COL_ALLOCS: snprintf(buf, len, "%llu", (unsigned long long)m->allocs); break;
	case COL_FAILS: snprintf(buf, len, "%llu", (unsigned long long)m->failures); break;
	case COL_BYKIND:
		snprintf(buf, len, "%llu/%llu/%llu/%llu/%llu/%llu", (unsigned long long)m->fail[VS_FAIL_OOM],
			(unsigned long long)m->fail[VS_FAIL_FRAGMENTED], (unsigned long long)m->fail[VS_FAIL_RULE],
			(unsigned long long)m->fail[VS_FAIL_MANAGEMENT], (unsigned long long)m->fail[VS_FAIL_UNSUPPORTED],
			(unsigned long long)m->fail[VS_FAIL_INVALID]);
		break;
	case COL_PEAK_LIVE: snprintf(buf, len, "%llu", (unsigned long long)m->peak_live); break;
	case COL_PEAK_FRAG: snprintf(buf, len, "%.3f", r->peak_frag); break;
	case COL_MEAN_FRAG: snprintf(buf, len, "%.3f", r->mean_frag); break;
	case COL_INTERNAL: snprintf(buf, len, "%llu", (unsigned long long)r->peak_internal); break;
	case COL_HIGH_WATER: snprintf(buf, len, "%llu", (unsigned long long)m->high_water); break;
	case COL_EXTENTS: snprintf(buf, len, "%llu", (unsigned long long)r->peak_free_extents); break;
	case COL_SMALLEST:
		if (m->smallest_failed)
			snprintf(buf, len, "%llu", (unsigned long long)m->smallest_failed);
		else
			snprintf(buf, len, "-");
		break;
	case COL_RAM: snprintf(buf, len, "%llu", (unsigned long long)m->peak_ram); break;
	default:
		if (r->calls)
			snprintf(buf, len, "%.1f", r->ns_per_op);
		else
			snprintf(buf, len, "-");
		break;
	}
}

static int ncols(const vs_cmp_result *res)
{
	return res->timing ? NCOLS : NCOLS - 1;
}

static void budget_line(char *buf, size_t len, const vs_cmp_report *rep, const vs_budget_check *c)
{
	const vs_budget *b = &rep->budgets->v[c->budget];
	const vs_cmp_row *r = &rep->res->rows[c->row];

	if (b->kind == VS_BUDGET_PEAK_FRAG)
		snprintf(buf, len, "%s %s %s: %s %.3f, actual %.3f (%s)", r->trace, r->arena, r->strategy,
			vs_budget_kind_name(b->kind), b->limit, c->actual, b->origin);
	else
		snprintf(buf, len, "%s %s %s: %s %.0f, actual %.0f (%s)", r->trace, r->arena, r->strategy,
			vs_budget_kind_name(b->kind), b->limit, c->actual, b->origin);
}

static void md_text(FILE *fp, const char *s);

/* The budgets that matched no row, one line each, after pre. */
static void unmatched_lines(FILE *fp, const vs_cmp_report *rep, const char *pre, int md)
{
	char buf[1600];
	int i;

	for (i = 0; rep->budget_rep && i < rep->budget_rep->nunmatched; i++) {
		vs_budget_describe(&rep->budgets->v[rep->budget_rep->unmatched[i]], buf, sizeof buf);
		fputs(pre, fp);
		if (md)
			md_text(fp, buf);
		else
			put_text(fp, buf);
		fputs(": matched no row\n", fp);
	}
}

static void metric_str(char *buf, size_t len, vs_cmp_metric k, double v)
{
	if (k == VS_MET_PEAK_FRAG || k == VS_MET_MEAN_FRAG)
		snprintf(buf, len, "%.6g", v);
	else
		snprintf(buf, len, "%.0f", v);
}

static void finding_line(char *buf, size_t len, const vs_cmp_report *rep, const vs_finding *f)
{
	const vs_cmp_row *r = f->row >= 0 ? &rep->res->rows[f->row] : NULL;
	const vs_baseline_row *b = f->base >= 0 ? &rep->baseline->rows[f->base] : NULL;
	char o[64], n[64], a[64];

	metric_str(o, sizeof o, f->metric, f->old_v);
	metric_str(n, sizeof n, f->metric, f->new_v);
	metric_str(a, sizeof a, f->metric, f->allowed);
	switch (f->kind) {
	case VS_FIND_REGRESSION:
		snprintf(buf, len, "%s %s %s: %s %s -> %s (allowed %s)", r->trace, r->arena, r->strategy,
			vs_cmp_metric_name(f->metric), o, n, a);
		break;
	case VS_FIND_WORSE:
		snprintf(buf, len, "%s %s %s: %s %s -> %s (within tolerance, allowed %s)", r->trace, r->arena,
			r->strategy, vs_cmp_metric_name(f->metric), o, n, a);
		break;
	case VS_FIND_IMPROVED:
		snprintf(buf, len, "%s %s %s: %s %s -> %s", r->trace, r->arena, r->strategy,
			vs_cmp_metric_name(f->metric), o, n);
		break;
	case VS_FIND_NEW:
		snprintf(buf, len, "%s %s %s: not in the baseline", r->trace, r->arena, r->strategy);
		break;
	default:
		snprintf(buf, len, "%s %s %s: in the baseline, not in this run", b->trace, b->arena, b->strategy);
		break;
	}
}

static const char *const finding_tags[] = { "REGRESSION", "worse", "improved", "new", "missing" };

/* "ok" or "FAILED (why, ...)". */
static void result_text(char *buf, size_t len, const vs_cmp_report *rep)
{
	int n = integrity_failures(rep->res);
	size_t head, at;

	if (vs_cmp_report_ok(rep) && rep->res->nunmatched) {
		snprintf(buf, len, "incomplete (%d arena%s not compared: no strategy given manages %s)",
			rep->res->nunmatched, rep->res->nunmatched == 1 ? "" : "s", rep->res->nunmatched == 1 ? "it" : "them");
		return;
	}
	if (vs_cmp_report_ok(rep)) {
		snprintf(buf, len, "ok");
		return;
	}
	snprintf(buf, len, "FAILED (");
	head = strlen(buf); /* past it, a reason is already there: a comma first */
	if (n)
		snprintf(buf + head, len - head, "%d integrity failure%s", n, n == 1 ? "" : "s");
	at = strlen(buf);
	if (rep->budget_rep && rep->budget_rep->broken)
		snprintf(buf + at, len - at, "%s%d budget%s broken", at > head ? ", " : "", rep->budget_rep->broken,
			rep->budget_rep->broken == 1 ? "" : "s");
	at = strlen(buf);
	if (rep->budget_rep && rep->budget_rep->nunmatched)
		snprintf(buf + at, len - at, "%s%d budget%s matched no row", at > head ? ", " : "",
			rep->budget_rep->nunmatched, rep->budget_rep->nunmatched == 1 ? "" : "s");
	at = strlen(buf);
	if (rep->base_rep && rep->base_rep->regressions)
		snprintf(buf + at, len - at, "%s%d regression%s", at > head ? ", " : "", rep->base_rep->regressions,
			rep->base_rep->regressions == 1 ? "" : "s");
	at = strlen(buf);
	if (rep->base_rep && rep->missing_fails && rep->base_rep->missing)
		snprintf(buf + at, len - at, "%s%d baseline row%s missing", at > head ? ", " : "", rep->base_rep->missing,
			rep->base_rep->missing == 1 ? "" : "s");
	at = strlen(buf);
	snprintf(buf + at, len - at, ")");
}

static void result_line(FILE *fp, const vs_cmp_report *rep, const char *pre, const char *post)
{
	char buf[256];

	result_text(buf, sizeof buf, rep);
	fprintf(fp, "%sresult: %s%s\n", pre, buf, post);
}

/* ---- text ---------------------------------------------------------------- */

static void write_text(FILE *fp, const vs_cmp_report *rep)
{
	const vs_cmp_result *res = rep->res;
	int nc = ncols(res), w[NCOLS], i, c;
	char buf[SHOWN_MAX];

	for (c = 0; c < nc; c++)
		w[c] = (int)strlen(cols[c].text);
	for (i = 0; i < res->nrows; i++)
		for (c = 0; c < nc; c++) {
			cell(&res->rows[i], c, buf, sizeof buf);
			if ((int)strlen(buf) > w[c])
				w[c] = (int)strlen(buf);
		}
	for (c = 0; c < nc; c++)
		fprintf(fp, "%s%*s", c ? "  " : "", cols[c].right ? w[c] : -w[c], cols[c].text);
	fputc('\n', fp);
	for (i = 0; i < res->nrows; i++) {
		if (i && strcmp(res->rows[i].trace, res->rows[i - 1].trace) != 0)
			fputc('\n', fp);
		for (c = 0; c < nc; c++) {
			cell(&res->rows[i], c, buf, sizeof buf);
			fprintf(fp, "%s%*s", c ? "  " : "", cols[c].right ? w[c] : -w[c], buf);
		}
		fputc('\n', fp);
	}
	if (res->nbest)
		fputc('\n', fp);
	for (i = 0; i < res->nbest; i++) {
		const vs_cmp_best *b = &res->best[i];
		text_line(fp, "best %s %s: %s - %s", b->trace, b->arena, b->row >= 0 ? res->rows[b->row].strategy : "none",
			b->why);
	}
	for (i = 0; i < res->nunmatched; i++)
		text_line(fp, "not compared: %s %s (%s): none of the strategies given manages it", res->unmatched[i].trace,
			res->unmatched[i].arena, res->unmatched[i].kind);
	for (i = 0; i < res->nrows; i++) {
		const vs_cmp_row *r = &res->rows[i];
		if (r->status == VS_CMP_REFUSED || r->status == VS_CMP_ERROR)
			text_line(fp, "note: %s %s %s %s: %s", r->trace, r->arena, r->strategy, vs_cmp_status_name(r->status),
				r->note);
		else if (r->status == VS_CMP_INTEGRITY)
			text_line(fp, "INTEGRITY %s %s %s: %llu integrity error%s (run 'vramsim replay %s --strategy %s')",
				r->trace, r->arena, r->strategy, (unsigned long long)r->m.checks, r->m.checks == 1 ? "" : "s",
				r->trace, r->strategy);
	}
	if (rep->budget_rep) {
		fprintf(fp, "\nbudgets: %d checked, %d broken", rep->budget_rep->n, rep->budget_rep->broken);
		if (rep->budget_rep->nunmatched)
			fprintf(fp, ", %d matched no row", rep->budget_rep->nunmatched);
		fputc('\n', fp);
		for (i = 0; i < rep->budget_rep->n; i++) {
			if (!rep->budget_rep->v[i].broken)
				continue;
			budget_line(buf, sizeof buf, rep, &rep->budget_rep->v[i]);
			text_line(fp, "  BROKEN %s", buf);
		}
		unmatched_lines(fp, rep, "  NO ROW ", 0);
	}
	if (rep->base_rep) {
		const vs_baseline_report *b = rep->base_rep;
		fprintf(fp, "\nbaseline: %d rows compared, %d regression%s, %d improvement%s, %d within tolerance, "
			"%d new, %d missing\n", b->compared_rows, b->regressions, b->regressions == 1 ? "" : "s",
			b->improvements, b->improvements == 1 ? "" : "s", b->worse, b->added, b->missing);
		for (i = 0; i < b->n; i++) {
			finding_line(buf, sizeof buf, rep, &b->v[i]);
			text_line(fp, "  %s %s", b->v[i].kind == VS_FIND_MISSING && rep->missing_fails ? "MISSING" :
				finding_tags[b->v[i].kind], buf);
		}
	}
	fputc('\n', fp);
	result_line(fp, rep, "", "");
}

/* ---- Markdown -------------------------------------------------------------- */

/* Text in Markdown, names and all: escaped as text is, then every character
 * that could start markup (a table cell's end, emphasis, code, HTML, a link)
 * behind a backslash. */
static void md_text(FILE *fp, const char *s)
{
	char shown[SHOWN_MAX];
	const char *p;

	vs_text_escape(shown, sizeof shown, s, strlen(s), 0);
	for (p = shown; *p; p++) {
		if (strchr("|\\*_`<>[]", *p))
			fputc('\\', fp);
		fputc(*p, fp);
	}
}

/* A name as a Markdown code span: escaped as text is, between fences one
 * backtick longer than its longest run of them, so nothing in it closes the
 * span (code spans take no backslash escapes). */
static void md_code(FILE *fp, const char *s)
{
	char shown[SHOWN_MAX];
	size_t run = 0, longest = 0, len, k;

	len = vs_text_escape(shown, sizeof shown, s, strlen(s), 0);
	for (k = 0; k < len; k++) {
		run = shown[k] == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	for (k = 0; k <= longest; k++)
		fputc('`', fp);
	/* a backtick at either end would join the fence: a space each side, which
	 * the span drops */
	if (len && (shown[0] == '`' || shown[len - 1] == '`'))
		fprintf(fp, " %s ", shown);
	else
		fputs(shown, fp);
	for (k = 0; k <= longest; k++)
		fputc('`', fp);
}

/* The table of every row, the best lines and the notes. */
static void md_table(FILE *fp, const vs_cmp_report *rep)
{
	const vs_cmp_result *res = rep->res;
	int nc = ncols(res), i, c;
	char buf[SHOWN_MAX];

	for (c = 0; c < nc; c++)
		fprintf(fp, "| %s ", cols[c].md);
	fprintf(fp, "|\n");
	for (c = 0; c < nc; c++)
		fprintf(fp, "|%s", cols[c].right ? "---:" : "---");
	fprintf(fp, "|\n");
	for (i = 0; i < res->nrows; i++) {
		const vs_cmp_row *r = &res->rows[i];
		for (c = 0; c < nc; c++) {
			cell(r, c, buf, sizeof buf);
			fprintf(fp, "| ");
			if (c == COL_STRATEGY && r->rank == 1)
				fprintf(fp, "**");
			md_text(fp, buf);
			if (c == COL_STRATEGY && r->rank == 1)
				fprintf(fp, "**");
			fprintf(fp, " ");
		}
		fprintf(fp, "|\n");
	}
	if (res->nbest) {
		fprintf(fp, "\n**Best** (most requests served, then fewest failures, then lowest peak fragmentation, then "
			"lowest high-water, then least internal fragmentation at peak):\n\n");
		for (i = 0; i < res->nbest; i++) {
			const vs_cmp_best *b = &res->best[i];
			fputs("- ", fp);
			md_code(fp, b->trace);
			fputc(' ', fp);
			md_text(fp, b->arena);
			fprintf(fp, ": **");
			md_text(fp, b->row >= 0 ? res->rows[b->row].strategy : "none");
			fprintf(fp, "** - ");
			md_text(fp, b->why);
			fputc('\n', fp);
		}
	}
	for (i = 0; i < res->nunmatched; i++) {
		fprintf(fp, "%s- not compared: ", i ? "" : "\n");
		md_code(fp, res->unmatched[i].trace);
		fputc(' ', fp);
		md_text(fp, res->unmatched[i].arena);
		fputs(" (", fp);
		md_text(fp, res->unmatched[i].kind);
		fputs("): none of the strategies given manages it\n", fp);
	}
	for (i = 0; i < res->nrows; i++) {
		const vs_cmp_row *r = &res->rows[i];
		if (r->status == VS_CMP_OK)
			continue;
		fprintf(fp, "%s- %s ", i == 0 || res->rows[i - 1].status == VS_CMP_OK ? "\n" : "",
			r->status == VS_CMP_INTEGRITY ? ":x: integrity failed:" : "note:");
		md_code(fp, r->trace);
		fputc(' ', fp);
		md_text(fp, r->arena);
		fputc(' ', fp);
		md_text(fp, r->strategy);
		if (r->note[0]) {
			fprintf(fp, ": ");
			md_text(fp, r->note);
		}
		fputc('\n', fp);
	}
}

static void write_markdown(FILE *fp, const vs_cmp_report *rep)
{
	char buf[LINE_MAX_RAW];
	int i;

	fprintf(fp, "### vramsim compare\n\n");
	result_line(fp, rep, "**", "**\n");
	md_table(fp, rep);
	if (rep->budget_rep) {
		fprintf(fp, "\n#### Budgets: %d checked, %d broken", rep->budget_rep->n, rep->budget_rep->broken);
		if (rep->budget_rep->nunmatched)
			fprintf(fp, ", %d matched no row", rep->budget_rep->nunmatched);
		fputc('\n', fp);
		if (rep->budget_rep->broken || rep->budget_rep->nunmatched)
			fputc('\n', fp);
		for (i = 0; i < rep->budget_rep->n; i++) {
			if (!rep->budget_rep->v[i].broken)
				continue;
			budget_line(buf, sizeof buf, rep, &rep->budget_rep->v[i]);
			fprintf(fp, "- :x: ");
			md_text(fp, buf);
			fputc('\n', fp);
		}
		unmatched_lines(fp, rep, "- :x: ", 1);
	}
	if (rep->base_rep) {
		const vs_baseline_report *b = rep->base_rep;
		fprintf(fp, "\n#### Baseline: %d regression%s, %d improvement%s, %d within tolerance, %d new, %d missing "
			"(%d rows compared)\n", b->regressions, b->regressions == 1 ? "" : "s", b->improvements,
			b->improvements == 1 ? "" : "s", b->worse, b->added, b->missing, b->compared_rows);
		if (b->n)
			fputc('\n', fp);
		for (i = 0; i < b->n; i++) {
			static const char *const icons[] = { ":x: regression", "worse (within tolerance)",
				":white_check_mark: improved", "new", "missing" };
			finding_line(buf, sizeof buf, rep, &b->v[i]);
			fprintf(fp, "- %s: ", b->v[i].kind == VS_FIND_MISSING && rep->missing_fails ? ":x: missing" :
				icons[b->v[i].kind]);
			md_text(fp, buf);
			fputc('\n', fp);
		}
	}
}

/* ---- changes against the baseline (--changes-only) ------------------------- */

/* Compared rows by what happened to them. A row counts once: regressed when
 * any metric regressed, else improved when any improved, else within
 * tolerance when any worsened within it, else unchanged. */
typedef struct row_changes { int regressed, improved, tolerated, unchanged; } row_changes;

static row_changes count_row_changes(const vs_baseline_report *b)
{
	row_changes n = { 0, 0, 0, 0 };
	int i = 0, j;

	while (i < b->n) {
		int seen[VS_FIND_IMPROVED + 1] = { 0, 0, 0 };
		if (b->v[i].kind > VS_FIND_IMPROVED) {
			i++;
			continue;
		}
		/* vs_baseline_check gives a row's metric findings one after another */
		for (j = i; j < b->n && b->v[j].row == b->v[i].row && b->v[j].kind <= VS_FIND_IMPROVED; j++)
			seen[b->v[j].kind] = 1;
		if (seen[VS_FIND_REGRESSION])
			n.regressed++;
		else if (seen[VS_FIND_IMPROVED])
			n.improved++;
		else
			n.tolerated++;
		i = j;
	}
	n.unchanged = b->compared_rows - n.regressed - n.improved - n.tolerated;
	return n;
}

enum { CH_TRACE, CH_ARENA, CH_STRATEGY, CH_METRIC, CH_OLD, CH_NEW, CH_DELTA, CH_CHANGE, CH_ALLOWED, NCH };

static const char *const change_cols[NCH] = {
	"trace", "arena", "strategy", "metric", "old", "new", "delta", "change", "allowed"
};

/* Rows a section of the pull-request comment shows before it is folded. */
#define CH_FOLD_ROWS 10

/* Sections of the short report, in order; the columns each shows. */
static const struct {
	vs_finding_kind kind;
	const char *md, *text;
	int ncols;
} change_sections[] = {
	{ VS_FIND_REGRESSION, ":x: Regressions", "regressions", NCH },
	{ VS_FIND_IMPROVED, ":white_check_mark: Improvements", "improvements", CH_ALLOWED },
	{ VS_FIND_WORSE, "Worse, within tolerance", "worse, within tolerance", NCH },
	{ VS_FIND_NEW, "New rows, not in the baseline", "new rows, not in the baseline", CH_METRIC },
	{ VS_FIND_MISSING, "Missing rows, in the baseline but not in this run",
		"missing rows, in the baseline but not in this run", CH_METRIC },
};

static void change_cell(const vs_cmp_report *rep, const vs_finding *f, int c, char *buf, size_t len)
{
	const vs_cmp_row *r = f->row >= 0 ? &rep->res->rows[f->row] : NULL;
	const vs_baseline_row *b = f->base >= 0 ? &rep->baseline->rows[f->base] : NULL;
	int frac = f->metric == VS_MET_PEAK_FRAG || f->metric == VS_MET_MEAN_FRAG;

	switch (c) {
	case CH_TRACE: vs_text_escape(buf, len, r ? r->trace : b->trace, strlen(r ? r->trace : b->trace), 0); break;
	case CH_ARENA: vs_text_escape(buf, len, r ? r->arena : b->arena, strlen(r ? r->arena : b->arena), 0); break;
	case CH_STRATEGY:
		vs_text_escape(buf, len, r ? r->strategy : b->strategy, strlen(r ? r->strategy : b->strategy), 0);
		break;
	case CH_METRIC: snprintf(buf, len, "%s", vs_cmp_metric_name(f->metric)); break;
	case CH_OLD: metric_str(buf, len, f->metric, f->old_v); break;
	case CH_NEW: metric_str(buf, len, f->metric, f->new_v); break;
	case CH_DELTA: snprintf(buf, len, frac ? "%+.6g" : "%+.0f", f->new_v - f->old_v); break;
	case CH_CHANGE:
		if (f->old_v > 0.0)
			snprintf(buf, len, "%+.1f%%", (f->new_v - f->old_v) / f->old_v * 100.0);
		else
			snprintf(buf, len, "n/a"); /* from 0: no ratio */
		break;
	default: metric_str(buf, len, f->metric, f->allowed); break;
	}
}

/* One section: a Markdown table or aligned text (no trailing blanks);
 * nothing when empty. */
static void change_section(FILE *fp, const vs_cmp_report *rep, int s, int md)
{
	const vs_baseline_report *b = rep->base_rep;
	int nc = change_sections[s].ncols, w[NCH], i, c, n = 0, fold;
	char buf[SHOWN_MAX];

	for (c = 0; c < nc; c++)
		w[c] = (int)strlen(change_cols[c]);
	for (i = 0; i < b->n; i++) {
		if (b->v[i].kind != change_sections[s].kind)
			continue;
		n++;
		for (c = 0; c < nc; c++) {
			change_cell(rep, &b->v[i], c, buf, sizeof buf);
			if ((int)strlen(buf) > w[c])
				w[c] = (int)strlen(buf);
		}
	}
	if (!n)
		return;
	/* a pull-request comment keeps long lists that fail nothing folded */
	fold = md && n > CH_FOLD_ROWS && change_sections[s].kind != VS_FIND_REGRESSION &&
		change_sections[s].kind != VS_FIND_IMPROVED &&
		!(change_sections[s].kind == VS_FIND_MISSING && rep->missing_fails);
	if (md) {
		fprintf(fp, "\n#### %s%s (%d)\n\n", change_sections[s].kind == VS_FIND_MISSING && rep->missing_fails ?
			":x: " : "", change_sections[s].md, n);
		if (fold)
			fprintf(fp, "<details><summary>%d row%s</summary>\n\n", n, n == 1 ? "" : "s");
		for (c = 0; c < nc; c++)
			fprintf(fp, "| %s ", change_cols[c]);
		fprintf(fp, "|\n");
		for (c = 0; c < nc; c++)
			fprintf(fp, "|%s", c >= CH_OLD ? "---:" : "---");
		fprintf(fp, "|\n");
	} else {
		fprintf(fp, "\n%s (%d):\n", change_sections[s].text, n);
		for (c = 0; c < nc; c++)
			fprintf(fp, "  %*s", c >= CH_OLD ? w[c] : c == nc - 1 ? 0 : -w[c], change_cols[c]);
		fputc('\n', fp);
	}
	for (i = 0; i < b->n; i++) {
		if (b->v[i].kind != change_sections[s].kind)
			continue;
		for (c = 0; c < nc; c++) {
			change_cell(rep, &b->v[i], c, buf, sizeof buf);
			if (md) {
				fprintf(fp, "| ");
				md_text(fp, buf);
				fputc(' ', fp);
			} else {
				fprintf(fp, "  %*s", c >= CH_OLD ? w[c] : c == nc - 1 ? 0 : -w[c], buf);
			}
		}
		fprintf(fp, md ? "|\n" : "\n");
	}
	if (fold)
		fprintf(fp, "\n</details>\n");
}

/* "result: ...: of N rows compared with the baseline, ...; budgets: ..." */
static void verdict(char *buf, size_t len, const vs_cmp_report *rep)
{
	const vs_baseline_report *b = rep->base_rep;
	row_changes n = count_row_changes(b);
	char result[256];
	size_t at;

	result_text(result, sizeof result, rep);
	snprintf(buf, len, "result: %s: of %d row%s compared with the baseline, %d regressed, %d improved, "
		"%d within tolerance, %d unchanged; %d new, %d missing; ", result, b->compared_rows,
		b->compared_rows == 1 ? "" : "s", n.regressed, n.improved, n.tolerated, n.unchanged, b->added, b->missing);
	at = strlen(buf);
	if (rep->budget_rep && rep->budget_rep->nunmatched)
		snprintf(buf + at, len - at, "budgets: %d checked, %d broken, %d matched no row", rep->budget_rep->n,
			rep->budget_rep->broken, rep->budget_rep->nunmatched);
	else if (rep->budget_rep)
		snprintf(buf + at, len - at, "budgets: %d checked, %d broken", rep->budget_rep->n, rep->budget_rep->broken);
	else
		snprintf(buf + at, len - at, "no budgets");
}

/* Broken budgets and integrity failures: the other reasons a run fails. */
static void other_failures(FILE *fp, const vs_cmp_report *rep, int md)
{
	const vs_cmp_result *res = rep->res;
	char buf[LINE_MAX_RAW];
	int i;

	if (rep->budget_rep && rep->budget_rep->broken) {
		fprintf(fp, md ? "\n#### :x: Broken budgets (%d)\n\n" : "\nbroken budgets (%d):\n", rep->budget_rep->broken);
		for (i = 0; i < rep->budget_rep->n; i++) {
			if (!rep->budget_rep->v[i].broken)
				continue;
			budget_line(buf, sizeof buf, rep, &rep->budget_rep->v[i]);
			fputs(md ? "- " : "  ", fp);
			if (md)
				md_text(fp, buf);
			else
				put_text(fp, buf);
			fputc('\n', fp);
		}
	}
	if (rep->budget_rep && rep->budget_rep->nunmatched) {
		fprintf(fp, md ? "\n#### :x: Budgets that matched no row (%d)\n\n" : "\nbudgets that matched no row (%d):\n",
			rep->budget_rep->nunmatched);
		unmatched_lines(fp, rep, md ? "- " : "  ", md);
	}
	if (integrity_failures(res))
		fprintf(fp, md ? "\n#### :x: Integrity failures (%d)\n\n" : "\nintegrity failures (%d):\n",
			integrity_failures(res));
	for (i = 0; i < res->nrows; i++) {
		const vs_cmp_row *r = &res->rows[i];
		if (r->status != VS_CMP_INTEGRITY)
			continue;
		snprintf(buf, sizeof buf, "%s %s %s: %llu integrity error%s", r->trace, r->arena, r->strategy,
			(unsigned long long)r->m.checks, r->m.checks == 1 ? "" : "s");
		fputs(md ? "- " : "  ", fp);
		if (md)
			md_text(fp, buf);
		else
			put_text(fp, buf);
		fputc('\n', fp);
	}
}

/* A pull-request comment: the verdict, what changed, the full table folded. */
static void write_markdown_changes(FILE *fp, const vs_cmp_report *rep)
{
	char buf[2048];
	int s;

	fprintf(fp, "### vramsim compare: changes against the baseline\n\n");
	verdict(buf, sizeof buf, rep);
	fprintf(fp, "%s **", vs_cmp_report_ok(rep) ? ":white_check_mark:" : ":x:");
	md_text(fp, buf);
	fprintf(fp, "**\n");
	for (s = 0; s < (int)(sizeof change_sections / sizeof change_sections[0]); s++)
		change_section(fp, rep, s, 1);
	other_failures(fp, rep, 1);
	fprintf(fp, "\n<details><summary>Full table (%d row%s)</summary>\n\n", rep->res->nrows,
		rep->res->nrows == 1 ? "" : "s");
	md_table(fp, rep);
	fprintf(fp, "\n</details>\n");
}

/* The same for a terminal, without the full table. */
static void write_text_changes(FILE *fp, const vs_cmp_report *rep)
{
	char buf[2048];
	int s;

	verdict(buf, sizeof buf, rep);
	fprintf(fp, "%s\n", buf);
	for (s = 0; s < (int)(sizeof change_sections / sizeof change_sections[0]); s++)
		change_section(fp, rep, s, 0);
	other_failures(fp, rep, 0);
}

/* ---- CSV ------------------------------------------------------------------- */

static void write_csv(FILE *fp, const vs_cmp_report *rep)
{
	const vs_cmp_result *res = rep->res;
	int i;

	fprintf(fp, "trace,arena,kind,strategy,status,rank,allocations,failures,fail_oom,fail_fragmented,fail_rule,"
		"fail_management,fail_unsupported,fail_invalid,peak_live,peak_frag,mean_frag,internal_frag,peak_overhead,"
		"high_water,peak_free_extents,smallest_failed,peak_ram,moves,moved_bytes,peak_event%s\n", res->timing ? ",ns_per_op" : "");
	for (i = 0; i < res->nrows; i++) {
		const vs_cmp_row *r = &res->rows[i];
		const vs_metrics *m = &r->m;
		vs_text_csv(fp, r->trace);
		fputc(',', fp);
		vs_text_csv(fp, r->arena);
		fprintf(fp, ",%s,", r->kind);
		vs_text_csv(fp, r->strategy);
		fprintf(fp, ",%s,%d,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%.6f,%.6f,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,"
			"%llu",
			vs_cmp_status_name(r->status), r->rank, (unsigned long long)m->allocs,
			(unsigned long long)m->failures, (unsigned long long)m->fail[VS_FAIL_OOM],
			(unsigned long long)m->fail[VS_FAIL_FRAGMENTED], (unsigned long long)m->fail[VS_FAIL_RULE],
			(unsigned long long)m->fail[VS_FAIL_MANAGEMENT], (unsigned long long)m->fail[VS_FAIL_UNSUPPORTED],
			(unsigned long long)m->fail[VS_FAIL_INVALID], (unsigned long long)m->peak_live, r->peak_frag,
			r->mean_frag, (unsigned long long)r->peak_internal, (unsigned long long)r->peak_overhead,
			(unsigned long long)m->high_water, (unsigned long long)r->peak_free_extents,
			(unsigned long long)m->smallest_failed, (unsigned long long)m->peak_ram, (unsigned long long)m->moves,
			(unsigned long long)m->moved_bytes, (unsigned long long)r->peak_event);
		if (res->timing)
			fprintf(fp, ",%.1f", r->ns_per_op);
		fputc('\n', fp);
	}
}

/* ---- JSON ------------------------------------------------------------------ */

static cJSON *row_json(const vs_cmp_row *r, int timing)
{
	cJSON *o = cJSON_CreateObject(), *m = cJSON_CreateObject();
	int k;

	json_string(o, "trace", r->trace);
	json_string(o, "arena", r->arena);
	json_string(o, "kind", r->kind);
	json_string(o, "strategy", r->strategy);
	json_string(o, "status", vs_cmp_status_name(r->status));
	cJSON_AddNumberToObject(o, "rank", r->rank);
	if (r->note[0])
		json_string(o, "note", r->note);
	if (r->status != VS_CMP_OK && r->status != VS_CMP_INTEGRITY) {
		cJSON_Delete(m);
		return o;
	}
	for (k = 0; k < VS_MET_KINDS; k++)
		cJSON_AddNumberToObject(m, vs_cmp_metric_name((vs_cmp_metric)k), vs_cmp_metric_value(r, (vs_cmp_metric)k));
	cJSON_AddItemToObject(m, "failures_by_kind", vs_report_fail_kinds_json(r->m.fail));
	cJSON_AddNumberToObject(m, "allocations", (double)r->m.allocs);
	cJSON_AddNumberToObject(m, "frees", (double)r->m.frees);
	cJSON_AddNumberToObject(m, "peak_live", (double)r->m.peak_live);
	cJSON_AddNumberToObject(m, "peak_granted", (double)r->m.peak_granted);
	cJSON_AddNumberToObject(m, "peak_overhead", (double)r->peak_overhead);
	cJSON_AddNumberToObject(m, "peak_largest_free", (double)r->peak_largest_free);
	cJSON_AddNumberToObject(m, "peak_event", (double)r->peak_event);
	cJSON_AddNumberToObject(m, "smallest_failed", (double)r->m.smallest_failed);
	cJSON_AddNumberToObject(m, "peak_ram_bytes", (double)r->m.peak_ram);
	cJSON_AddNumberToObject(m, "moves", (double)r->m.moves);
	cJSON_AddNumberToObject(m, "moved_bytes", (double)r->m.moved_bytes);
	cJSON_AddNumberToObject(m, "worst_frame_cycles", (double)r->m.frame_cycles_max);
	cJSON_AddNumberToObject(m, "usable_bytes", (double)r->m.usable_bytes);
	cJSON_AddNumberToObject(m, "events", (double)r->m.events);
	cJSON_AddNumberToObject(m, "diagnostics", (double)r->m.diags);
	cJSON_AddNumberToObject(m, "integrity_errors", (double)r->m.checks);
	if (timing) {
		cJSON_AddNumberToObject(m, "calls", (double)r->calls);
		cJSON_AddNumberToObject(m, "ns_per_op", r->ns_per_op);
	}
	cJSON_AddItemToObject(o, "metrics", m);
	return o;
}

/* A budget in JSON: the row it was checked against (c, its outcome), or
 * its own globs when it matched none (c NULL). */
static cJSON *budget_json(const vs_budget *x, const char *trace, const char *arena, const char *strategy,
	const vs_budget_check *c)
{
	cJSON *e = cJSON_CreateObject();

	json_string(e, "trace", trace);
	json_string(e, "arena", arena);
	json_string(e, "strategy", strategy);
	json_string(e, "budget", vs_budget_kind_name(x->kind));
	cJSON_AddNumberToObject(e, "limit", x->limit);
	if (c) {
		cJSON_AddNumberToObject(e, "actual", c->actual);
		cJSON_AddBoolToObject(e, "broken", c->broken);
	}
	json_string(e, "origin", x->origin);
	return e;
}

static cJSON *report_json(const vs_cmp_report *rep)
{
	const vs_cmp_result *res = rep->res;
	cJSON *o = cJSON_CreateObject(), *rows = cJSON_CreateArray(), *best = cJSON_CreateArray();
	int i;

	cJSON_AddNumberToObject(o, "vramsim_compare", 1);
	cJSON_AddBoolToObject(o, "timing", res->timing);
	for (i = 0; i < res->nrows; i++)
		cJSON_AddItemToArray(rows, row_json(&res->rows[i], res->timing));
	cJSON_AddItemToObject(o, "rows", rows);
	for (i = 0; i < res->nbest; i++) {
		cJSON *b = cJSON_CreateObject();
		json_string(b, "trace", res->best[i].trace);
		json_string(b, "arena", res->best[i].arena);
		if (res->best[i].row >= 0)
			json_string(b, "strategy", res->rows[res->best[i].row].strategy);
		else
			cJSON_AddNullToObject(b, "strategy");
		json_string(b, "why", res->best[i].why);
		cJSON_AddItemToArray(best, b);
	}
	cJSON_AddItemToObject(o, "best", best);
	{
		cJSON *un = cJSON_CreateArray();
		for (i = 0; i < res->nunmatched; i++) {
			cJSON *u = cJSON_CreateObject();
			json_string(u, "trace", res->unmatched[i].trace);
			json_string(u, "arena", res->unmatched[i].arena);
			json_string(u, "kind", res->unmatched[i].kind);
			cJSON_AddItemToArray(un, u);
		}
		cJSON_AddItemToObject(o, "not_compared", un);
	}
	if (rep->budget_rep) {
		cJSON *b = cJSON_CreateObject(), *list = cJSON_CreateArray();
		cJSON_AddNumberToObject(b, "checked", rep->budget_rep->n);
		cJSON_AddNumberToObject(b, "broken", rep->budget_rep->broken);
		for (i = 0; i < rep->budget_rep->n; i++) {
			const vs_budget_check *c = &rep->budget_rep->v[i];
			const vs_cmp_row *r = &res->rows[c->row];
			cJSON_AddItemToArray(list, budget_json(&rep->budgets->v[c->budget], r->trace, r->arena, r->strategy, c));
		}
		cJSON_AddItemToObject(b, "checks", list);
		list = cJSON_CreateArray();
		for (i = 0; i < rep->budget_rep->nunmatched; i++) {
			const vs_budget *x = &rep->budgets->v[rep->budget_rep->unmatched[i]];
			cJSON_AddItemToArray(list, budget_json(x, x->trace, x->arena, x->strategy, NULL));
		}
		cJSON_AddItemToObject(b, "matched_no_row", list);
		cJSON_AddItemToObject(o, "budgets", b);
	}
	if (rep->base_rep) {
		static const char *const kinds[] = { "regression", "worse", "improved", "new", "missing" };
		const vs_baseline_report *br = rep->base_rep;
		cJSON *b = cJSON_CreateObject(), *list = cJSON_CreateArray();
		cJSON_AddNumberToObject(b, "compared_rows", br->compared_rows);
		cJSON_AddNumberToObject(b, "regressions", br->regressions);
		cJSON_AddNumberToObject(b, "improvements", br->improvements);
		cJSON_AddNumberToObject(b, "within_tolerance", br->worse);
		cJSON_AddNumberToObject(b, "new", br->added);
		cJSON_AddNumberToObject(b, "missing", br->missing);
		for (i = 0; i < br->n; i++) {
			const vs_finding *f = &br->v[i];
			cJSON *e = cJSON_CreateObject();
			const char *t, *a, *s;
			if (f->row >= 0) {
				t = res->rows[f->row].trace;
				a = res->rows[f->row].arena;
				s = res->rows[f->row].strategy;
			} else {
				t = rep->baseline->rows[f->base].trace;
				a = rep->baseline->rows[f->base].arena;
				s = rep->baseline->rows[f->base].strategy;
			}
			json_string(e, "kind", kinds[f->kind]);
			json_string(e, "trace", t);
			json_string(e, "arena", a);
			json_string(e, "strategy", s);
			if (f->kind <= VS_FIND_IMPROVED) {
				json_string(e, "metric", vs_cmp_metric_name(f->metric));
				cJSON_AddNumberToObject(e, "old", f->old_v);
				cJSON_AddNumberToObject(e, "new", f->new_v);
				if (f->kind != VS_FIND_IMPROVED)
					cJSON_AddNumberToObject(e, "allowed", f->allowed);
			}
			cJSON_AddItemToArray(list, e);
		}
		cJSON_AddItemToObject(b, "findings", list);
		cJSON_AddItemToObject(o, "baseline", b);
	}
	cJSON_AddBoolToObject(o, "ok", vs_cmp_report_ok(rep));
	return o;
}

static int write_json(FILE *fp, const vs_cmp_report *rep)
{
	cJSON *o = report_json(rep);
	char *s = cJSON_Print(o);

	cJSON_Delete(o);
	if (!s)
		return -1;
	fputs(s, fp);
	fputc('\n', fp);
	free(s);
	return 0;
}

/* ---- JUnit XML --------------------------------------------------------------- */

/* Text in an XML attribute: escaped as text is (control characters and bad
 * bytes as \xNN: names stay apart, and no byte XML refuses is left), markup
 * as entities, a tab as a reference (an attribute's tab would be read as a
 * space), U+FFFE and U+FFFF (no XML characters) as \xNN. */
static void xml_text(FILE *fp, const char *s)
{
	char shown[SHOWN_MAX];
	const char *p;

	vs_text_escape(shown, sizeof shown, s, strlen(s), 0);
	for (p = shown; *p; p++) {
		switch (*p) {
		case '&': fputs("&amp;", fp); break;
		case '<': fputs("&lt;", fp); break;
		case '>': fputs("&gt;", fp); break;
		case '"': fputs("&quot;", fp); break;
		case '\'': fputs("&apos;", fp); break;
		case '\t': fputs("&#9;", fp); break;
		default:
			if (strncmp(p, "\xEF\xBF\xBE", 3) == 0 || strncmp(p, "\xEF\xBF\xBF", 3) == 0) {
				fprintf(fp, "\\xef\\xbf\\x%02x", (unsigned char)p[2]);
				p += 2;
			} else {
				fputc(*p, fp);
			}
		}
	}
}

/* A test case: failure text or NULL; skipped text or NULL. */
static void testcase(FILE *fp, const char *classname, const char *name, const char *kind, const char *failure,
	const char *skipped)
{
	fputs("    <testcase classname=\"", fp);
	xml_text(fp, classname);
	fputs("\" name=\"", fp);
	xml_text(fp, name);
	if (!failure && !skipped) {
		fputs("\"/>\n", fp);
		return;
	}
	fputs("\">\n", fp);
	if (failure) {
		fprintf(fp, "      <failure type=\"%s\" message=\"", kind);
		xml_text(fp, failure);
		fputs("\"/>\n", fp);
	} else {
		fputs("      <skipped message=\"", fp);
		xml_text(fp, skipped);
		fputs("\"/>\n", fp);
	}
	fputs("    </testcase>\n", fp);
}

typedef struct counts { int tests, failures, skipped; } counts;

/* Writes (or, with fp NULL, counts) the test cases of rows [lo, hi). */
static void junit_rows(FILE *fp, const vs_cmp_report *rep, int lo, int hi, counts *n)
{
	const vs_cmp_result *res = rep->res;
	char cls[1200], name[1600], buf[2048];
	int i, k;

	for (i = lo; i < hi; i++) {
		const vs_cmp_row *r = &res->rows[i];
		const char *fail = NULL, *skip = NULL;
		snprintf(cls, sizeof cls, "%s.%s", r->trace, r->arena);
		snprintf(name, sizeof name, "%s integrity", r->strategy);
		if (r->status == VS_CMP_INTEGRITY) {
			snprintf(buf, sizeof buf, "%llu integrity errors", (unsigned long long)r->m.checks);
			fail = buf;
		} else if (r->status != VS_CMP_OK) {
			snprintf(buf, sizeof buf, "%s: %s", vs_cmp_status_name(r->status), r->note);
			skip = buf;
		}
		n->tests++;
		n->failures += fail != NULL;
		n->skipped += skip != NULL;
		if (fp)
			testcase(fp, cls, name, "integrity", fail, skip);
		for (k = 0; rep->budget_rep && k < rep->budget_rep->n; k++) {
			const vs_budget_check *c = &rep->budget_rep->v[k];
			const vs_budget *x;
			if (c->row != i)
				continue;
			x = &rep->budgets->v[c->budget];
			if (x->kind == VS_BUDGET_PEAK_FRAG)
				snprintf(name, sizeof name, "%s %s=%.6g (%s)", r->strategy, vs_budget_kind_name(x->kind), x->limit,
					x->origin);
			else
				snprintf(name, sizeof name, "%s %s=%.0f (%s)", r->strategy, vs_budget_kind_name(x->kind), x->limit,
					x->origin);
			budget_line(buf, sizeof buf, rep, c);
			n->tests++;
			n->failures += c->broken;
			if (fp)
				testcase(fp, cls, name, "budget", c->broken ? buf : NULL, NULL);
		}
		if (rep->base_rep && (r->status == VS_CMP_OK || r->status == VS_CMP_INTEGRITY)) {
			size_t len = 0;
			int isnew = 0;
			buf[0] = '\0';
			for (k = 0; k < rep->base_rep->n; k++) {
				const vs_finding *f = &rep->base_rep->v[k];
				char line[1600];
				if (f->row != i)
					continue;
				if (f->kind == VS_FIND_NEW)
					isnew = 1;
				if (f->kind != VS_FIND_REGRESSION || len >= sizeof buf)
					continue;
				finding_line(line, sizeof line, rep, f);
				len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s", len ? "; " : "", line);
			}
			snprintf(name, sizeof name, "%s baseline", r->strategy);
			n->tests++;
			n->failures += buf[0] != '\0';
			n->skipped += isnew;
			if (fp)
				testcase(fp, cls, name, "baseline", buf[0] ? buf : NULL, isnew ? "not in the baseline" : NULL);
		}
	}
}

static void junit_missing(FILE *fp, const vs_cmp_report *rep, counts *n)
{
	char cls[1200], name[1600], buf[2048];
	int k;

	for (k = 0; rep->base_rep && k < rep->base_rep->n; k++) {
		const vs_finding *f = &rep->base_rep->v[k];
		const vs_baseline_row *b;
		if (f->kind != VS_FIND_MISSING)
			continue;
		b = &rep->baseline->rows[f->base];
		snprintf(cls, sizeof cls, "%s.%s", b->trace, b->arena);
		snprintf(name, sizeof name, "%s baseline", b->strategy);
		finding_line(buf, sizeof buf, rep, f);
		n->tests++;
		n->failures += rep->missing_fails;
		n->skipped += !rep->missing_fails;
		if (fp)
			testcase(fp, cls, name, "baseline", rep->missing_fails ? buf : NULL, rep->missing_fails ? NULL : buf);
	}
}

static void suite_open(FILE *fp, const char *name, const counts *n)
{
	fputs("  <testsuite name=\"", fp);
	xml_text(fp, name);
	fprintf(fp, "\" tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"%d\">\n", n->tests, n->failures, n->skipped);
}

static void write_junit(FILE *fp, const vs_cmp_report *rep)
{
	const vs_cmp_result *res = rep->res;
	counts all = { 0, 0, 0 }, miss = { 0, 0, 0 };
	int lo, hi, idle = rep->budget_rep ? rep->budget_rep->nunmatched : 0;

	junit_rows(NULL, rep, 0, res->nrows, &all);
	junit_missing(NULL, rep, &miss);
	fprintf(fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(fp, "<testsuites name=\"vramsim compare\" tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"%d\">\n",
		all.tests + miss.tests + res->nunmatched + idle, all.failures + miss.failures + idle,
		all.skipped + miss.skipped + res->nunmatched);
	for (lo = 0; lo < res->nrows; lo = hi) {
		counts n = { 0, 0, 0 };
		for (hi = lo; hi < res->nrows && strcmp(res->rows[hi].trace, res->rows[lo].trace) == 0; hi++)
			;
		junit_rows(NULL, rep, lo, hi, &n);
		suite_open(fp, res->rows[lo].trace, &n);
		junit_rows(fp, rep, lo, hi, &n);
		fputs("  </testsuite>\n", fp);
	}
	if (miss.tests) {
		counts n = { 0, 0, 0 };
		suite_open(fp, "baseline rows missing from this run", &miss);
		junit_missing(fp, rep, &n);
		fputs("  </testsuite>\n", fp);
	}
	if (idle) {
		counts n = { idle, idle, 0 };
		int i;
		suite_open(fp, "budgets that matched no row", &n);
		for (i = 0; i < idle; i++) {
			char name[1600];
			vs_budget_describe(&rep->budgets->v[rep->budget_rep->unmatched[i]], name, sizeof name);
			testcase(fp, "budgets", name, "budget", "matched no row", NULL);
		}
		fputs("  </testsuite>\n", fp);
	}
	if (res->nunmatched) {
		counts n = { res->nunmatched, 0, res->nunmatched };
		int i;
		suite_open(fp, "arenas not compared", &n);
		for (i = 0; i < res->nunmatched; i++) {
			char name[VS_NAME_MAX + 32], why[96];
			snprintf(name, sizeof name, "%s not compared", res->unmatched[i].arena);
			snprintf(why, sizeof why, "none of the strategies given manages %s", res->unmatched[i].kind);
			testcase(fp, res->unmatched[i].trace, name, "not compared", NULL, why);
		}
		fputs("  </testsuite>\n", fp);
	}
	fputs("</testsuites>\n", fp);
}

int vs_cmp_write(FILE *fp, const vs_cmp_report *rep, vs_cmp_format fmt)
{
	if (rep->changes_only && !rep->base_rep && (fmt == VS_FMT_TEXT || fmt == VS_FMT_MARKDOWN))
		return -1;
	switch (fmt) {
	case VS_FMT_TEXT:
		if (rep->changes_only)
			write_text_changes(fp, rep);
		else
			write_text(fp, rep);
		break;
	case VS_FMT_MARKDOWN:
		if (rep->changes_only)
			write_markdown_changes(fp, rep);
		else
			write_markdown(fp, rep);
		break;
	case VS_FMT_CSV: write_csv(fp, rep); break;
	case VS_FMT_JSON:
		if (write_json(fp, rep))
			return -1;
		break;
	case VS_FMT_JUNIT: write_junit(fp, rep); break;
	default: return -1;
	}
	return ferror(fp) ? -1 : 0;
}
