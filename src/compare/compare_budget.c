/* SPDX-License-Identifier: Zlib */
/* compare_budget.c - budgets: limits on a row's metrics, from flags or a file.
 *
 * A budget file is lines of words (docs/ci.md):
 *   # comment
 *   TRACE-GLOB [arena=GLOB] [strategy=GLOB] max-failures=N max-peak-frag=F ...
 * Every line that matches a row applies to it; each limit is its own budget.
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/in_file.h"
#include "compare/compare.h"
#include "compare/budget.h"
#include "base/grow.h"
#include "base/text.h"

static const char *const budget_names[VS_BUDGET_KINDS] = {
	"max-failures", "max-peak-live", "max-peak-frag", "max-high-water"
};

const char *vs_budget_kind_name(vs_budget_kind k)
{
	return (unsigned)k < VS_BUDGET_KINDS ? budget_names[k] : "?";
}

static int budget_kind_of(const char *name, size_t len)
{
	int k;

	for (k = 0; k < VS_BUDGET_KINDS; k++)
		if (strlen(budget_names[k]) == len && strncmp(budget_names[k], name, len) == 0)
			return k;
	return -1;
}

int vs_budget_value(vs_budget_kind kind, const char *text, double *out, char *err, size_t errlen)
{
	char *end;

	errno = 0;
	if (kind == VS_BUDGET_PEAK_FRAG) {
		double v = strtod(text, &end);
		if (end == text || *end || errno || !(v >= 0.0 && v <= 1.0)) {
			snprintf(err, errlen, "%s: '%s' is not a fraction from 0 to 1", budget_names[kind], text);
			return -1;
		}
		*out = v;
		return 0;
	} else {
		unsigned long long v;
		unsigned long long mul = 1;
		int hex = text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
		if (hex ? !isxdigit((unsigned char)text[2]) : !isdigit((unsigned char)text[0]))
			goto bad;
		/* decimal or 0x hex, never octal; past 64 bits is an error */
		v = strtoull(text, &end, hex ? 16 : 10);
		if (end == text || errno)
			goto bad;
		if (kind != VS_BUDGET_FAILURES) {
			if (strcmp(end, "K") == 0 || strcmp(end, "KiB") == 0)
				mul = 1024, end += strlen(end);
			else if (strcmp(end, "M") == 0 || strcmp(end, "MiB") == 0)
				mul = 1024 * 1024, end += strlen(end);
		}
		if (*end || v > ULLONG_MAX / mul) /* past 64 bits with its suffix */
			goto bad;
		*out = (double)v * (double)mul;
		return 0;
	}
bad:
	snprintf(err, errlen, "%s: '%s' is not %s", budget_names[kind], text,
		kind == VS_BUDGET_FAILURES ? "a count (0 or more)" : "a byte count (N, 0xN, NK, NM)");
	return -1;
}

int vs_budget_list_add(vs_budget_list *b, const vs_budget *x)
{
	if (b->n == b->cap && vs_grow_int(&b->v, sizeof *b->v, &b->cap, (size_t)b->n + 1, 16))
		return -1;
	b->v[b->n++] = *x;
	return 0;
}

void vs_budget_list_free(vs_budget_list *b)
{
	free(b->v);
	memset(b, 0, sizeof *b);
}

#define LINE_MAX_LEN 4096
#define MAX_LINES 100000 /* a bound on what a budget file may bring */

/* One line: selectors first, then limits. Returns 0 or -1 with err. */
static int parse_line(vs_budget_list *b, const char *path, unsigned long ln, char *line, char *err, size_t errlen)
{
	vs_budget sel;
	char *p = line;
	int nlimits = 0, first = 1;
	unsigned seen = 0; /* bit k: limit kind k; the two above them: arena=, strategy= */
	char why[256];

	memset(&sel, 0, sizeof sel);
	for (;;) {
		char *w, *eq;
		size_t len;
		int col;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '#')
			break;
		w = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
		len = (size_t)(p - w);
		col = (int)(w - line) + 1;
		if (*p)
			*p++ = '\0';
		eq = strchr(w, '=');
		if (first) {
			first = 0;
			if (!eq || budget_kind_of(w, (size_t)(eq - w)) < 0) {
				if (len >= sizeof sel.trace) {
					snprintf(err, errlen, "%s:%lu:%d: error: trace pattern too long", path, ln, col);
					return -1;
				}
				memcpy(sel.trace, w, len + 1); /* len < sizeof sel.trace: checked above */
				continue;
			}
			/* no trace pattern: the line applies to every trace */
		}
		if (!eq) {
			snprintf(err, errlen, "%s:%lu:%d: error: expected KEY=VALUE, got '%s'", path, ln, col, w);
			return -1;
		}
		*eq = '\0';
		if (strcmp(w, "arena") == 0 || strcmp(w, "strategy") == 0) {
			char *dst = w[0] == 'a' ? sel.arena : sel.strategy;
			size_t cap = w[0] == 'a' ? sizeof sel.arena : sizeof sel.strategy;
			unsigned bit = 1u << (VS_BUDGET_KINDS + (w[0] == 'a' ? 0 : 1));
			if (seen & bit) {
				snprintf(err, errlen, "%s:%lu:%d: error: '%s=' given twice on this line", path, ln, col, w);
				return -1;
			}
			seen |= bit;
			if (nlimits) {
				snprintf(err, errlen, "%s:%lu:%d: error: '%s=' must come before the limits", path, ln, col, w);
				return -1;
			}
			if (!eq[1] || strlen(eq + 1) >= cap) {
				snprintf(err, errlen, "%s:%lu:%d: error: '%s=' needs a pattern (at most %u characters)", path,
					ln, col, w, (unsigned)cap - 1);
				return -1;
			}
			memcpy(dst, eq + 1, strlen(eq + 1) + 1);
			continue;
		}
		{
			int k = budget_kind_of(w, strlen(w));
			vs_budget x = sel;
			if (k < 0) {
				snprintf(err, errlen, "%s:%lu:%d: error: unknown key '%s' (arena, strategy, max-failures, "
					"max-peak-live, max-peak-frag, max-high-water)", path, ln, col, w);
				return -1;
			}
			if (seen & 1u << k) {
				snprintf(err, errlen, "%s:%lu:%d: error: '%s=' given twice on this line", path, ln, col, w);
				return -1;
			}
			seen |= 1u << k;
			if (vs_budget_value((vs_budget_kind)k, eq + 1, &x.limit, why, sizeof why)) {
				snprintf(err, errlen, "%s:%lu:%d: error: %s", path, ln, (int)(eq + 1 - line) + 1, why);
				return -1;
			}
			x.kind = (vs_budget_kind)k;
			snprintf(x.origin, sizeof x.origin, "%s:%lu", path, ln);
			if (vs_budget_list_add(b, &x)) {
				snprintf(err, errlen, "out of memory");
				return -1;
			}
			nlimits++;
		}
	}
	if (!first && !nlimits) {
		snprintf(err, errlen, "%s:%lu:%d: error: no limit on this line (max-failures=N, max-peak-live=BYTES, "
			"max-peak-frag=F, max-high-water=BYTES)", path, ln, (int)(p - line) + 1);
		return -1;
	}
	return 0;
}

/* The first line that says something: "vramsim-budgets VERSION". */
static int marker_line(const char *path, unsigned long ln, char *line, int *seen, char *err, size_t errlen)
{
	char *p = line + strspn(line, " \t"), *v, *end;
	unsigned long version;

	if (!*p || *p == '#')
		return 0;
	*seen = 1;
	if (strncmp(p, VS_BUDGETS_MARKER, strlen(VS_BUDGETS_MARKER)) != 0 ||
		(p[strlen(VS_BUDGETS_MARKER)] != ' ' && p[strlen(VS_BUDGETS_MARKER)] != '\t')) {
		snprintf(err, errlen, "%s:%lu:%d: error: not a vramsim budget file: the first line must be '%s %d' "
			"(docs/ci.md)", path, ln, (int)(p - line) + 1, VS_BUDGETS_MARKER, VS_BUDGETS_VERSION);
		return -1;
	}
	v = p + strlen(VS_BUDGETS_MARKER);
	v += strspn(v, " \t");
	errno = 0;
	version = isdigit((unsigned char)*v) ? strtoul(v, &end, 10) : 0;
	if (!isdigit((unsigned char)*v) || errno || end[strspn(end, " \t")] != '\0' || version != VS_BUDGETS_VERSION) {
		snprintf(err, errlen, "%s:%lu:%d: error: budget file version '%s' is not supported (this vramsim "
			"reads version %d)", path, ln, (int)(v - line) + 1, v, VS_BUDGETS_VERSION);
		return -1;
	}
	return 0;
}

static int budgets_read(vs_budget_list *b, FILE *fp, const char *path, char *err, size_t errlen)
{
	char line[LINE_MAX_LEN];
	unsigned long ln = 0;
	int seen = 0, before = b->n;

	for (;;) {
		size_t n;
		char *text = line;
		if (!fgets(line, sizeof line, fp))
			break;
		n = strlen(line);
		ln++;
		if (ln > MAX_LINES) {
			snprintf(err, errlen, "%s:%lu:1: error: more than %d lines", path, ln, MAX_LINES);
			return -1;
		}
		if (n && line[n - 1] == '\n')
			line[--n] = '\0';
		else if (n + 1 < sizeof line && !feof(fp)) {
			/* fgets stops at a newline, the end or a full buffer: none of
			 * them, so a NUL byte ended the string early */
			snprintf(err, errlen, "%s:%lu:%zu: error: NUL byte", path, ln, n + 1);
			return -1;
		} else if (!feof(fp)) {
			snprintf(err, errlen, "%s:%lu:%d: error: line longer than %d characters", path, ln, LINE_MAX_LEN - 1,
				LINE_MAX_LEN - 1);
			return -1;
		}
		if (n && line[n - 1] == '\r')
			line[--n] = '\0';
		if (ln == 1 && strncmp(text, "\xEF\xBB\xBF", 3) == 0)
			text += 3; /* a UTF-8 byte order mark */
		if (!seen) {
			if (marker_line(path, ln, text, &seen, err, errlen))
				return -1;
			continue;
		}
		if (parse_line(b, path, ln, text, err, errlen))
			return -1;
	}
	if (ferror(fp)) {
		snprintf(err, errlen, "%s: error: read failed: %s", path, strerror(errno));
		return -1;
	}
	if (!seen) {
		snprintf(err, errlen, "%s: error: empty: a budget file starts with '%s %d' (docs/ci.md)", path,
			VS_BUDGETS_MARKER, VS_BUDGETS_VERSION);
		return -1;
	}
	if (b->n == before) {
		snprintf(err, errlen, "%s: error: no budget in the file (lines of TRACE-GLOB max-KIND=LIMIT ...)", path);
		return -1;
	}
	return 0;
}

int vs_budget_list_load(vs_budget_list *b, const char *path, char *err, size_t errlen)
{
	FILE *fp = vs_in_open(path, "r");
	int rc;

	if (!fp) {
		snprintf(err, errlen, "%s: error: cannot read budget file: %s", path, strerror(errno));
		vs_text_escape_in_place(err, errlen);
		return -1;
	}
	rc = budgets_read(b, fp, path, err, errlen);
	fclose(fp);
	if (rc)
		vs_text_escape_in_place(err, errlen); /* errors quote the file */
	return rc;
}

static int glob_match(const char *pat, const char *s)
{
	return !pat[0] || fnmatch(pat, s, 0) == 0;
}

static int trace_match(const char *pat, const char *key)
{
	const char *base = strrchr(key, '/');

	return glob_match(pat, key) || (base && glob_match(pat, base + 1));
}

static int strategy_match(const char *pat, const char *label)
{
	char name[VS_CMP_LABEL_MAX];
	const char *colon = strchr(label, ':');

	if (glob_match(pat, label))
		return 1;
	if (!colon)
		return 0;
	snprintf(name, sizeof name, "%.*s", (int)(colon - label), label);
	return glob_match(pat, name);
}

static double budget_actual(const vs_cmp_row *r, vs_budget_kind k)
{
	switch (k) {
	case VS_BUDGET_FAILURES: return (double)r->m.failures;
	case VS_BUDGET_PEAK_LIVE: return (double)r->m.peak_live;
	case VS_BUDGET_PEAK_FRAG: return r->peak_frag;
	default: return (double)r->m.high_water;
	}
}

void vs_budget_describe(const vs_budget *b, char *buf, size_t len)
{
	size_t at;

	snprintf(buf, len, b->kind == VS_BUDGET_PEAK_FRAG ? "%s %.3f (%s" : "%s %.0f (%s", vs_budget_kind_name(b->kind),
		b->limit, b->origin);
	at = strlen(buf);
	if (b->trace[0] && at < len)
		at += (size_t)snprintf(buf + at, len - at, "; trace %s", b->trace);
	if (b->arena[0] && at < len)
		at += (size_t)snprintf(buf + at, len - at, "; arena %s", b->arena);
	if (b->strategy[0] && at < len)
		at += (size_t)snprintf(buf + at, len - at, "; strategy %s", b->strategy);
	if (at < len)
		snprintf(buf + at, len - at, ")");
}

int vs_budget_list_check(const vs_budget_list *b, const vs_cmp_result *res, vs_budget_report *out)
{
	int i, k, cap = 0, ucap = 0;
	char *used = calloc(b && b->n ? (size_t)b->n : 1, 1);

	memset(out, 0, sizeof *out);
	if (!used)
		return -1;
	for (i = 0; i < res->nrows; i++) {
		const vs_cmp_row *r = &res->rows[i];
		if (r->status != VS_CMP_OK && r->status != VS_CMP_INTEGRITY)
			continue;
		for (k = 0; b && k < b->n; k++) {
			const vs_budget *x = &b->v[k];
			vs_budget_check *c;
			if (!trace_match(x->trace, r->trace) || !glob_match(x->arena, r->arena) ||
				!strategy_match(x->strategy, r->strategy))
				continue;
			if (out->n == cap && vs_grow_int(&out->v, sizeof *out->v, &cap, (size_t)out->n + 1, 64)) {
				free(used);
				return -1;
			}
			used[k] = 1;
			c = &out->v[out->n++];
			c->row = i;
			c->budget = k;
			c->actual = budget_actual(r, x->kind);
			c->broken = c->actual > x->limit;
			out->broken += c->broken;
		}
	}
	for (k = 0; b && k < b->n; k++) {
		if (used[k])
			continue;
		if (out->nunmatched == ucap &&
			vs_grow_int(&out->unmatched, sizeof *out->unmatched, &ucap, (size_t)out->nunmatched + 1, 16)) {
			free(used);
			return -1;
		}
		out->unmatched[out->nunmatched++] = k;
	}
	free(used);
	return 0;
}

void vs_budget_report_free(vs_budget_report *r)
{
	free(r->v);
	free(r->unmatched);
	memset(r, 0, sizeof *r);
}
