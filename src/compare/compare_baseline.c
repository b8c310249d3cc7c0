/* SPDX-License-Identifier: Zlib */
/* compare_baseline.c - stored metrics and the check of a run against them.
 *
 * A baseline is JSON: {"vramsim_baseline": 1, "rows": [{"trace", "arena",
 * "strategy", "metrics": {...}}]}. Rows match on trace, arena and strategy.
 * Every compared metric is lower-is-better; a worsening fails when it goes
 * past old * (1 + ratio) + abs.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/in_file.h"
#include "compare/compare.h"
#include "compare/baseline.h"
#include "base/grow.h"
#include "engine/report.h"
#include "base/text.h"
#include "base/compiler_hints.h"

static const char *const metric_names[VS_MET_KINDS] = {
	"failures", "peak_frag", "mean_frag", "internal_frag", "high_water", "peak_free_extents"
};

const char *vs_cmp_metric_name(vs_cmp_metric k)
{
	return (unsigned)k < VS_MET_KINDS ? metric_names[k] : "?";
}

double vs_cmp_metric_value(const vs_cmp_row *r, vs_cmp_metric k)
{
	switch (k) {
	case VS_MET_FAILURES: return (double)r->m.failures;
	case VS_MET_PEAK_FRAG: return r->peak_frag;
	case VS_MET_MEAN_FRAG: return r->mean_frag;
	case VS_MET_INTERNAL: return (double)r->peak_internal;
	case VS_MET_HIGH_WATER: return (double)r->m.high_water;
	case VS_MET_PEAK_EXTENTS: return (double)r->peak_free_extents;
	default: return 0.0;
	}
}

static int parse_nonneg(const char *s, size_t len, double *out)
{
	char buf[64], *end;
	double v;

	if (len == 0 || len >= sizeof buf)
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	v = strtod(buf, &end);
	if (*end || errno || !(v >= 0.0) || isinf(v))
		return -1;
	*out = v;
	return 0;
}

int vs_baseline_tolerance_parse(vs_baseline_tolerance *tol, const char *text, char *err, size_t errlen)
{
	const char *eq = strchr(text, '='), *spec = eq ? eq + 1 : text, *comma;
	vs_baseline_tolerance t = { 0.0, 0.0 };
	int k, which = -1;

	if (eq) {
		for (k = 0; k < VS_MET_KINDS; k++)
			if (strlen(metric_names[k]) == (size_t)(eq - text) && strncmp(text, metric_names[k], (size_t)(eq - text)) == 0)
				which = k;
		if (which < 0) {
			snprintf(err, errlen, "--tolerance %s: unknown metric '%.*s' (failures, peak_frag, mean_frag, "
				"internal_frag, high_water, peak_free_extents)", text, (int)(eq - text), text);
			return -1;
		}
	}
	comma = strchr(spec, ',');
	if (parse_nonneg(spec, comma ? (size_t)(comma - spec) : strlen(spec), &t.ratio) ||
		(comma && parse_nonneg(comma + 1, strlen(comma + 1), &t.abs))) {
		snprintf(err, errlen, "--tolerance %s: expected [METRIC=]RATIO[,ABS] with numbers of 0 or more", text);
		return -1;
	}
	for (k = 0; k < VS_MET_KINDS; k++)
		if (which < 0 || which == k)
			tol[k] = t;
	return 0;
}

static cJSON *row_metrics_json(const vs_cmp_row *r)
{
	cJSON *m = cJSON_CreateObject();
	int k;

	for (k = 0; k < VS_MET_KINDS; k++)
		cJSON_AddNumberToObject(m, metric_names[k], vs_cmp_metric_value(r, (vs_cmp_metric)k));
	cJSON_AddItemToObject(m, "failures_by_kind", vs_report_fail_kinds_json(r->m.fail));
	cJSON_AddNumberToObject(m, "allocations", (double)r->m.allocs);
	cJSON_AddNumberToObject(m, "peak_live", (double)r->m.peak_live);
	cJSON_AddNumberToObject(m, "smallest_failed", (double)r->m.smallest_failed);
	return m;
}

cJSON *vs_baseline_json(const vs_cmp_result *res)
{
	cJSON *o = cJSON_CreateObject(), *rows = cJSON_CreateArray();
	int i;

	cJSON_AddNumberToObject(o, "vramsim_baseline", VS_BASELINE_VERSION);
	for (i = 0; i < res->nrows; i++) {
		const vs_cmp_row *r = &res->rows[i];
		cJSON *x;
		if (r->status != VS_CMP_OK && r->status != VS_CMP_INTEGRITY)
			continue;
		x = cJSON_CreateObject();
		cJSON_AddStringToObject(x, "trace", r->trace);
		cJSON_AddStringToObject(x, "arena", r->arena);
		cJSON_AddStringToObject(x, "strategy", r->strategy);
		cJSON_AddItemToObject(x, "metrics", row_metrics_json(r));
		cJSON_AddItemToArray(rows, x);
	}
	cJSON_AddItemToObject(o, "rows", rows);
	return o;
}

int vs_baseline_unreadable(const vs_cmp_result *res)
{
	int i;

	for (i = 0; i < res->nrows; i++) {
		const vs_cmp_row *r = &res->rows[i];
		if (r->status != VS_CMP_OK && r->status != VS_CMP_INTEGRITY)
			continue; /* not stored */
		if (!vs_text_clean(r->trace, strlen(r->trace)) || !vs_text_clean(r->arena, strlen(r->arena)) ||
			!vs_text_clean(r->strategy, strlen(r->strategy)))
			return i;
	}
	return -1;
}

static void line_col(const char *text, const char *at, unsigned long *line, unsigned long *col)
{
	const char *p;

	*line = 1;
	*col = 1;
	for (p = text; p < at && *p; p++) {
		if (*p == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

static int get_string(const cJSON *o, const char *key, char *dst, size_t cap)
{
	const cJSON *s = cJSON_GetObjectItemCaseSensitive(o, key);

	/* never cut, and nothing a terminal would act on when it is printed */
	if (!cJSON_IsString(s) || strlen(s->valuestring) >= cap || !vs_text_clean(s->valuestring, strlen(s->valuestring)))
		return -1;
	memcpy(dst, s->valuestring, strlen(s->valuestring) + 1);
	return 0;
}

/* The version marker: "vramsim_baseline": 1 (or a compare JSON report's
 * "vramsim_compare": 1). 0, or -1 with err. */
static int check_marker(const cJSON *doc, const char *name, char *err, size_t errlen)
{
	static const char *const keys[] = { "vramsim_baseline", "vramsim_compare" };
	const cJSON *v = NULL;
	int k;

	for (k = 0; k < 2 && cJSON_IsObject(doc) && !v; k++)
		v = cJSON_GetObjectItemCaseSensitive(doc, keys[k]);
	if (!v) {
		snprintf(err, errlen, "%s: error: not a vramsim baseline (no \"vramsim_baseline\": %d; write one with "
			"--write-baseline)", name, VS_BASELINE_VERSION);
		return -1;
	}
	if (!cJSON_IsNumber(v) || v->valuedouble != (double)VS_BASELINE_VERSION) {
		char *shown = cJSON_PrintUnformatted(v);
		snprintf(err, errlen, "%s: error: baseline version %.40s is not supported (this vramsim reads version %d)",
			name, shown ? shown : "?", VS_BASELINE_VERSION);
		free(shown);
		return -1;
	}
	return 0;
}

/* A stored metric: a count up to 2^64 - 1, or a fraction from 0 to 1. */
static int metric_ok(int k, double v)
{
	if (!(v >= 0.0) || isinf(v))
		return 0;
	if (k == VS_MET_PEAK_FRAG || k == VS_MET_MEAN_FRAG)
		return v <= 1.0;
	return v < 18446744073709551616.0 && v == floor(v);
}

/* The first \u0000 escape in JSON text, or NULL. cJSON decodes it into
 * the string's bytes and every reader of the string (cJSON's own key
 * look-up among them) stops there: "q.trace\u0000zzz" would be read as
 * "q.trace", a key "failures\u0000x" as "failures". So it is found in the
 * raw text, before anything reads a string: a backslash outside a string is
 * no JSON (cJSON has refused the text by then), and each escape's character
 * is stepped over, so "\\u0000" (a backslash, then u0000) is no NUL. */
static const char *nul_escape(const char *text)
{
	const char *p;

	for (p = text; *p; p++)
		if (*p == '\\') {
			if (strncmp(p + 1, "u0000", 5) == 0)
				return p;
			if (!*++p)
				break;
		}
	return NULL;
}

/* Sorting an object's keys to find one given twice (cJSON keeps both and
 * answers the first): n log n, so a hostile object of many keys costs no
 * more than reading it. */
static int cmp_key(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A key given twice in an object at or under item (skip left out), or
 * NULL; "" when out of memory. The key points into item. */
static const char *repeated_key(const cJSON *item, const cJSON *skip)
{
	const cJSON *c;
	const char **keys, *rep = NULL;
	int n = 0, i;

	if (!cJSON_IsObject(item) && !cJSON_IsArray(item))
		return NULL;
	if (cJSON_IsObject(item)) {
		keys = malloc(((size_t)cJSON_GetArraySize(item) + 1) * sizeof *keys);
		if (!keys)
			return "";
		cJSON_ArrayForEach(c, item)
			keys[n++] = c->string ? c->string : "";
		qsort(keys, (size_t)n, sizeof *keys, cmp_key);
		for (i = 1; i < n && !rep; i++)
			if (strcmp(keys[i - 1], keys[i]) == 0)
				rep = keys[i];
		free(keys);
	}
	cJSON_ArrayForEach(c, item)
		if (!rep && c != skip)
			rep = repeated_key(c, NULL);
	return rep;
}

/* Rows sorted by their key (trace, arena, strategy), then by place. */
static int cmp_row(const void *a, const void *b)
{
	const vs_baseline_row *x = *(const vs_baseline_row *const *)a, *y = *(const vs_baseline_row *const *)b;
	int c = strcmp(x->trace, y->trace);

	if (!c)
		c = strcmp(x->arena, y->arena);
	if (!c)
		c = strcmp(x->strategy, y->strategy);
	return c ? c : (x > y) - (x < y);
}

/* Two rows with the same key: the second would never be matched and be
 * reported missing. 0, or -1 with *first and *second (0-based; the second
 * the earliest row that repeats one before it), or -2 out of memory. */
static int repeated_row(const vs_baseline *b, int *first, int *second)
{
	const vs_baseline_row **v = malloc(((size_t)b->n + 1) * sizeof *v);
	int i, found = 0;

	if (!v)
		return -2;
	for (i = 0; i < b->n; i++)
		v[i] = &b->rows[i];
	qsort(v, (size_t)b->n, sizeof *v, cmp_row);
	for (i = 1; i < b->n; i++)
		if (strcmp(v[i - 1]->trace, v[i]->trace) == 0 &&
			strcmp(v[i - 1]->arena, v[i]->arena) == 0 && strcmp(v[i - 1]->strategy, v[i]->strategy) == 0 &&
			(!found || v[i] - b->rows < *second)) {
			*first = (int)(v[i - 1] - b->rows);
			*second = (int)(v[i] - b->rows);
			found = 1;
		}
	free(v);
	return found ? -1 : 0;
}

static int row_error(vs_baseline *b, cJSON *doc, char *err, size_t errlen, const char *fmt, ...)
	VS_PRINTF(5, 6);
static int row_error(vs_baseline *b, cJSON *doc, char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	vs_text_escape_in_place(err, errlen);
	vs_baseline_free(b);
	cJSON_Delete(doc);
	return -1;
}

int vs_baseline_parse(vs_baseline *b, const char *text, const char *name, char *err, size_t errlen)
{
	const char *end = NULL, *nul, *key;
	cJSON *doc, *rows, *x;
	int i = 0, k, first = 0, second = 0;

	memset(b, 0, sizeof *b);
	if (strncmp(text, "\xEF\xBB\xBF", 3) == 0)
		text += 3; /* a UTF-8 byte order mark (strncmp: a shorter text ends first) */
	doc = cJSON_ParseWithOpts(text, &end, 1);
	if (!doc) {
		unsigned long line, col;
		const char *at = end ? end : cJSON_GetErrorPtr();
		line_col(text, at ? at : text, &line, &col);
		snprintf(err, errlen, "%s:%lu:%lu: error: not valid JSON", name, line, col);
		vs_text_escape_in_place(err, errlen);
		return -1;
	}
	if ((nul = nul_escape(text))) {
		unsigned long line, col;
		line_col(text, nul, &line, &col);
		return row_error(b, doc, err, errlen, "%s:%lu:%lu: error: \\u0000 (a NUL) in a string: control characters "
			"are refused, and this one would cut the string short", name, line, col);
	}
	if (check_marker(doc, name, err, errlen)) {
		vs_text_escape_in_place(err, errlen);
		cJSON_Delete(doc);
		return -1;
	}
	rows = cJSON_GetObjectItemCaseSensitive(doc, "rows");
	if ((key = repeated_key(doc, rows)) && !*key)
		return row_error(b, doc, err, errlen, "out of memory");
	if (key)
		return row_error(b, doc, err, errlen, "%s: error: key \"%s\" given twice (outside the rows)", name, key);
	if (!cJSON_IsArray(rows))
		return row_error(b, doc, err, errlen, "%s: error: not a vramsim baseline (no \"rows\" array)", name);
	if (cJSON_GetArraySize(rows) == 0)
		return row_error(b, doc, err, errlen, "%s: error: the baseline has no rows: nothing to compare with "
			"(write one with --write-baseline from a run that replays)", name);
	b->rows = calloc((size_t)cJSON_GetArraySize(rows) + 1, sizeof *b->rows);
	if (!b->rows)
		return row_error(b, doc, err, errlen, "out of memory");
	cJSON_ArrayForEach(x, rows) {
		vs_baseline_row *r = &b->rows[i];
		const cJSON *m = cJSON_GetObjectItemCaseSensitive(x, "metrics");
		i++;
		const char *bad = !cJSON_IsObject(x) ? NULL : get_string(x, "trace", r->trace, sizeof r->trace) ? "trace" :
			get_string(x, "arena", r->arena, sizeof r->arena) ? "arena" :
			get_string(x, "strategy", r->strategy, sizeof r->strategy) ? "strategy" :
			!cJSON_IsObject(m) ? "metrics" : "";
		if (!bad || *bad)
			return row_error(b, doc, err, errlen, "%s: error: row %d: needs strings \"trace\", \"arena\", "
				"\"strategy\" (printable, at most %d, %d and %d bytes) and a \"metrics\" object%s%s%s", name, i,
				(int)sizeof r->trace - 1, (int)sizeof r->arena - 1, (int)sizeof r->strategy - 1,
				bad ? " (\"" : " (the row is no object)", bad ? bad : "", bad ? "\" is not)" : "");
		if ((key = repeated_key(x, NULL)) && !*key)
			return row_error(b, doc, err, errlen, "out of memory");
		if (key)
			return row_error(b, doc, err, errlen, "%s: error: row %d (%s %s %s): key \"%s\" given twice", name, i,
				r->trace, r->arena, r->strategy, key);
		for (k = 0; k < VS_MET_KINDS; k++) {
			const cJSON *v = cJSON_GetObjectItemCaseSensitive(m, metric_names[k]);
			if (!v)
				continue;
			if (!cJSON_IsNumber(v) || !metric_ok(k, v->valuedouble))
				return row_error(b, doc, err, errlen, "%s: error: row %d (%s %s %s): metric \"%s\" is not %s",
					name, i, r->trace, r->arena, r->strategy, metric_names[k],
					k == VS_MET_PEAK_FRAG || k == VS_MET_MEAN_FRAG ? "a number from 0 to 1" :
					"a whole number of 0 or more that fits in 64 bits");
			r->v[k] = v->valuedouble;
			r->has[k] = 1;
		}
		b->n = i;
	}
	if ((k = repeated_row(b, &first, &second)) == -2)
		return row_error(b, doc, err, errlen, "out of memory");
	if (k)
		return row_error(b, doc, err, errlen, "%s: error: row %d (%s %s %s) repeats row %d: a run has one row "
			"of each trace, arena and strategy", name, second + 1, b->rows[second].trace, b->rows[second].arena,
			b->rows[second].strategy, first + 1);
	cJSON_Delete(doc);
	return 0;
}

int vs_baseline_load(vs_baseline *b, const char *path, char *err, size_t errlen)
{
	FILE *fp = vs_in_open(path, "rb");
	char *text = NULL;
	size_t len = 0, cap = 0;
	int rc;

	memset(b, 0, sizeof *b);
	if (!fp) {
		snprintf(err, errlen, "%s: error: cannot read baseline: %s", path, strerror(errno));
		vs_text_escape_in_place(err, errlen);
		return -1;
	}
	for (;;) {
		size_t got;
		if (len + 4096 + 1 > cap) {
			if (cap >= VS_BASELINE_MAX_BYTES) {
				snprintf(err, errlen, "%s: error: a baseline is at most %d MiB", path, VS_BASELINE_MAX_BYTES >> 20);
				vs_text_escape_in_place(err, errlen);
				free(text);
				fclose(fp);
				return -1;
			}
			if (vs_grow(&text, 1, &cap, len + 4096 + 1, 65536)) {
				free(text);
				fclose(fp);
				snprintf(err, errlen, "out of memory");
				return -1;
			}
		}
		got = fread(text + len, 1, cap - len - 1, fp);
		len += got;
		if (got == 0)
			break;
	}
	if (ferror(fp)) {
		snprintf(err, errlen, "%s: error: read failed: %s", path, strerror(errno));
		vs_text_escape_in_place(err, errlen);
		free(text);
		fclose(fp);
		return -1;
	}
	fclose(fp);
	text[len] = '\0';
	if (strlen(text) != len) {
		unsigned long line, col;
		line_col(text, text + strlen(text), &line, &col);
		snprintf(err, errlen, "%s:%lu:%lu: error: NUL byte", path, line, col);
		vs_text_escape_in_place(err, errlen);
		free(text);
		return -1;
	}
	rc = vs_baseline_parse(b, text, path, err, errlen);
	free(text);
	return rc;
}

void vs_baseline_free(vs_baseline *b)
{
	free(b->rows);
	memset(b, 0, sizeof *b);
}

static int add_finding(vs_baseline_report *out, int *cap, const vs_finding *f)
{
	if (out->n == *cap && vs_grow_int(&out->v, sizeof *out->v, cap, (size_t)out->n + 1, 64))
		return -1;
	out->v[out->n++] = *f;
	return 0;
}

static int same_row(const vs_baseline_row *b, const vs_cmp_row *r)
{
	return strcmp(b->trace, r->trace) == 0 && strcmp(b->arena, r->arena) == 0 &&
		strcmp(b->strategy, r->strategy) == 0;
}

int vs_baseline_check(const vs_baseline *b, const vs_cmp_result *res, const vs_baseline_tolerance tol[VS_MET_KINDS],
	vs_baseline_report *out)
{
	char *matched = calloc((size_t)b->n + 1, 1);
	int i, j, k, cap = 0;
	vs_finding f;

	memset(out, 0, sizeof *out);
	if (!matched)
		return -1;
	for (i = 0; i < res->nrows; i++) {
		const vs_cmp_row *r = &res->rows[i];
		if (r->status != VS_CMP_OK && r->status != VS_CMP_INTEGRITY)
			continue;
		for (j = 0; j < b->n; j++)
			if (!matched[j] && same_row(&b->rows[j], r))
				break;
		memset(&f, 0, sizeof f);
		f.row = i;
		if (j == b->n) {
			f.kind = VS_FIND_NEW;
			f.base = -1;
			out->added++;
			if (add_finding(out, &cap, &f))
				goto oom;
			continue;
		}
		matched[j] = 1;
		out->compared_rows++;
		f.base = j;
		for (k = 0; k < VS_MET_KINDS; k++) {
			double old_v = b->rows[j].v[k], new_v = vs_cmp_metric_value(r, (vs_cmp_metric)k), allowed, slack;
			if (!b->rows[j].has[k] || new_v == old_v)
				continue;
			allowed = old_v + old_v * tol[k].ratio + tol[k].abs;
			/* a hair of slack so that exactly at the tolerance passes despite rounding */
			slack = 1e-9 * (fabs(allowed) > 1.0 ? fabs(allowed) : 1.0);
			f.metric = (vs_cmp_metric)k;
			f.old_v = old_v;
			f.new_v = new_v;
			f.allowed = allowed;
			if (new_v < old_v) {
				f.kind = VS_FIND_IMPROVED;
				out->improvements++;
			} else if (new_v > allowed + slack) {
				f.kind = VS_FIND_REGRESSION;
				out->regressions++;
			} else {
				f.kind = VS_FIND_WORSE;
				out->worse++;
			}
			if (add_finding(out, &cap, &f))
				goto oom;
		}
	}
	for (j = 0; j < b->n; j++) {
		if (matched[j])
			continue;
		memset(&f, 0, sizeof f);
		f.kind = VS_FIND_MISSING;
		f.row = -1;
		f.base = j;
		out->missing++;
		if (add_finding(out, &cap, &f))
			goto oom;
	}
	free(matched);
	return 0;
oom:
	free(matched);
	return -1;
}

void vs_baseline_report_free(vs_baseline_report *r)
{
	free(r->v);
	memset(r, 0, sizeof *r);
}
