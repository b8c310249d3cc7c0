/* SPDX-License-Identifier: Zlib */
/* cmd_diff.c - `vramsim diff`: a game before and after a change (two
 * traces, the same strategies) or two strategies on one trace. Prints the
 * metric deltas of every arena both runs have, the tags whose figures
 * moved and the failures one run has and the other has not; exits 1 when
 * B is worse than A beyond the tolerances `compare --baseline` takes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "cli_window.h"
#include "progress.h"
#include "base/text.h"
#include "compare/baseline.h"
#include "engine/results.h"
#include "render/render.h"
#include "vram/request.h"
#include "render/history.h"
#include "render/picture.h"
#include "render/png.h"
#include "render/window.h"

#define CMD "diff"
#define SHOWN 20 /* failures listed per side in text */

enum { O_TOLERANCE = VS_CLI_LONG, O_MATCH, O_JSON, O_NO_CHECKS, O_PNG };

static const vs_cli_opt options[] = {
	{ "strategy", 's', "SPEC", "strategies as in 'vramsim replay'; with two traces they run both, with one "
		"trace a choice for an arena an earlier one covers starts side B: -s A -s B" },
	{ "plugin", VS_CLI_PLUGIN, "PATH", "load strategies from a plug-in (.so)" },
	{ "tolerance", O_TOLERANCE, "[METRIC=]RATIO[,ABS]", "B may grow a metric to A*(1+RATIO)+ABS before it counts "
		"as worse (default 0,0), as in 'vramsim compare --baseline'; METRIC: failures, peak_frag, mean_frag, "
		"internal_frag, high_water, peak_free_extents; repeatable" },
	{ "match", O_MATCH, "line|id", "how failures of A and B are paired: by trace line (the default for one "
		"trace) or by allocation id (the default for two)" },
	{ "json", O_JSON, NULL, "print the differences as JSON" },
	{ "png", O_PNG, "FILE", "write a difference heatmap: each arena's occupancy over time where A and B "
		"differ (red: more in use in B, blue: more in A; the same: dimmed). Columns are events, so for two "
		"traces the time axes match only as far as their events do" },
	{ "from", VS_CLI_WINDOW_FROM, "N|f:N", "the --png picture from event N, or from frame N (f:N or "
		"frame:N), as in 'vramsim render'; the figures stay those of the whole runs" },
	{ "to", VS_CLI_WINDOW_TO, "N|f:N", "the --png picture up to event N, or to the end of frame N (f:N), "
		"inclusive" },
	{ "no-checks", O_NO_CHECKS, NULL, "skip byte and hardware-rule checks (faster)" },
	{ "quiet", 'q', NULL, "do not print replay diagnostics" },
	{ NULL, 0, NULL, NULL }
};

static const vs_cli_cmd command = {
	CMD, "diff A.trace B.trace [options] | diff TRACE -s A -s B [options]",
	"Replays two runs and prints what changed from A to B: for every arena both\n"
	"have, each metric with its signed delta, then the tags whose peak live\n"
	"bytes, allocations or failures changed, then the failed requests one run\n"
	"has and the other has not.\n",
	options,
	"Each trace is read once, so two traces may be '-' or pipes; one trace for\n"
	"both sides (or one input given as A and B) must be a regular file.\n"
	"exit: 0 B is no worse than A, 1 B is worse beyond a tolerance (or B failed\n"
	"an integrity check), 2 bad usage or a malformed trace.\n",
	NULL, 0
};

typedef struct side {
	const char *path;
	char label[1024];
	vs_replay *r;
	vs_results *x;
	void *hs;            /* vs_history for --png */
	vs_cli_chain chain;  /* the results, then the history */
} side;

typedef struct diff_opts {
	const char *path[2];
	int npaths, json, by_id, match_set;
	const char *png;
	vs_cli_window window; /* --from, --to */
	vs_cli_choices cs;
	vs_replay_config cfg;
	vs_baseline_tolerance tol[VS_MET_KINDS];
} diff_opts;

static void quiet_message(void *ud, const char *line)
{
	(void)ud;
	(void)line;
}

static int take(void *ud, const vs_cli_parser *p, int c)
{
	diff_opts *o = ud;
	char err[256];

	if (vs_cli_window_take(&o->window, p, c) != VS_CLI_NOT_SHARED)
		return -1;
	switch (c) {
	case 's':
		return vs_cli_choices_add(CMD, &o->cs, p->arg) ? VS_EXIT_USAGE : -1;
	case O_TOLERANCE:
		if (vs_baseline_tolerance_parse(o->tol, p->arg, err, sizeof err))
			return vs_cli_usage_error(CMD, "--tolerance %s", err);
		return -1;
	case O_MATCH:
		if (strcmp(p->arg, "line") && strcmp(p->arg, "id"))
			return vs_cli_usage_error(CMD, "--match takes line or id");
		o->by_id = !strcmp(p->arg, "id");
		o->match_set = 1;
		return -1;
	case O_JSON:
		o->json = 1;
		return -1;
	case O_PNG:
		o->png = p->arg;
		return -1;
	case O_NO_CHECKS:
		o->cfg.check_bytes = 0;
		o->cfg.check_rules = 0;
		return -1;
	case 'q':
		o->cfg.message = quiet_message;
		return -1;
	}
	if (o->npaths == 2)
		return vs_cli_usage_error(CMD, "at most two traces (got a third, '%s')", p->arg);
	o->path[o->npaths++] = p->arg;
	return -1;
}

/* Replays one side: the trace at s->path with choice group g, from rd
 * when the trace is open already (its header read, nothing more), which
 * it closes. */
static int run_side(const diff_opts *o, side *s, int g, vs_trace_reader *rd)
{
	vs_replay_config cfg = o->cfg;
	char opts[VS_TRACE_MAX_ARENAS][VS_OPTIONS_MAX], err[1024];
	int n, i;
	const vs_cmp_choice *v = vs_cli_choices_of(&o->cs, g, &n);

	if (!rd)
		rd = vs_trace_open(s->path, err, sizeof err);
	if (!rd) {
		fprintf(stderr, "%s\n", err);
		return VS_EXIT_USAGE;
	}
	if (vs_cli_apply_choices(v, n, vs_trace_header_of(rd), &cfg, opts, err, sizeof err)) {
		vs_trace_close(rd);
		return vs_cli_usage_error(CMD, "%s", err);
	}
	if (!(s->x = vs_results_new(NULL, NULL))) {
		vs_trace_close(rd);
		return vs_cli_usage_error(CMD, "out of memory");
	}
	vs_results_attach(s->x, &cfg);
	if (o->png) {
		if (!(s->hs = vs_history_new(1024, 256))) {
			vs_trace_close(rd);
			return vs_cli_usage_error(CMD, "out of memory");
		}
		vs_observer_fn first = cfg.observer;
		void *first_ud = cfg.observer_ud;
		vs_history_set_window(s->hs, &o->window.win);
		vs_history_attach(s->hs, &cfg);
		vs_cli_chain_attach(&s->chain, &cfg, first, first_ud);
	}
	if (!(s->r = vs_replay_new(rd, &cfg, err, sizeof err))) {
		fprintf(stderr, "vramsim diff: %s\n", err);
		return VS_EXIT_USAGE;
	}
	if (vs_progress_replay(s->r, 0, g ? "diff: B" : "diff: A", o->cfg.message == quiet_message) < 0) {
		fprintf(stderr, "%s\n", vs_replay_error(s->r));
		return VS_EXIT_USAGE;
	}
	if (s->hs) {
		vs_history_finish(s->hs, s->r);
		if (vs_history_window_check(s->hs, err, sizeof err))
			return vs_cli_usage_error(CMD, "side %s (%s): %s", g || s->path != o->path[0] ? "B" : "A", s->path,
				err);
	}
	n = snprintf(s->label, sizeof s->label, "%s:", s->path);
	for (i = 0; i < vs_replay_arena_count(s->r) && n < (int)sizeof s->label; i++)
		n += snprintf(s->label + n, sizeof s->label - (size_t)n, " %s=%s", vs_replay_arena(s->r, i)->decl.name,
			vs_replay_strategy(s->r, i)->name);
	return VS_EXIT_OK;
}

/* ---- what is compared -------------------------------------------------- */

static int arena_named(const vs_replay *r, const char *name)
{
	int i;

	for (i = 0; i < vs_replay_arena_count(r); i++)
		if (!strcmp(vs_replay_arena(r, i)->decl.name, name))
			return i;
	return -1;
}

static double round6(double v)
{
	return floor(v * 1e6 + 0.5) / 1e6;
}

/* The baseline's metrics for arena a of a side, as compare computes them. */
static double metric(const side *s, int a, vs_cmp_metric k)
{
	const vs_metrics *m = vs_replay_metrics(s->r, a);
	const vs_peak *p = vs_results_peak(s->x, a);

	switch (k) {
	case VS_MET_FAILURES: return (double)m->failures;
	case VS_MET_PEAK_FRAG: return round6(m->peak_frag);
	case VS_MET_MEAN_FRAG: return round6(m->events ? m->frag_sum / (double)m->events : 0.0);
	case VS_MET_INTERNAL: return (double)p->internal;
	case VS_MET_HIGH_WATER: return (double)m->high_water;
	default: return (double)p->free_extents;
	}
}

/* Figures shown for reading, never judged. */
static const char *const info_names[] = { "allocations", "peak_live", "ram_bytes" };

static double info(const side *s, int a, int k)
{
	const vs_metrics *m = vs_replay_metrics(s->r, a);

	return k == 0 ? (double)m->allocs : k == 1 ? (double)m->peak_live : (double)m->peak_ram;
}

/* The failure of side s at i, as a key the other side's can be matched by. */
static int failure_in(const side *s, const vs_failure *f, const side *other, int by_id)
{
	size_t j, n = vs_results_failure_count(other->x);
	const char *arena = vs_replay_arena(s->r, (int)f->arena)->decl.name;

	for (j = 0; j < n; j++) {
		const vs_failure *g = vs_results_failure(other->x, j);
		if ((by_id ? g->id == f->id : g->line == f->line) &&
			!strcmp(vs_replay_arena(other->r, (int)g->arena)->decl.name, arena))
			return 1;
	}
	return 0;
}

static const vs_tag_stats *tag_by_name(const side *s, int a, const char *name)
{
	uint32_t t;

	for (t = 0; t < vs_results_tag_span(s->x); t++)
		if (!strcmp(vs_replay_tag_name(s->r, t), name))
			return vs_results_tag(s->x, (uint32_t)a, t);
	return NULL;
}

/* ---- output ------------------------------------------------------------ */

static void num(char *buf, size_t len, double v, int frac)
{
	if (frac)
		snprintf(buf, len, "%.3f", v);
	else
		snprintf(buf, len, "%.0f", v);
}

static void delta(char *buf, size_t len, double d, int frac)
{
	if (d == 0)
		snprintf(buf, len, "0");
	else if (frac)
		snprintf(buf, len, "%+.3f", d);
	else
		snprintf(buf, len, "%+.0f", d);
}

static cJSON *failure_json(const side *s, const vs_failure *f)
{
	cJSON *o = cJSON_CreateObject();
	char what[96];

	vs_request_describe(&f->req, what, sizeof what);
	cJSON_AddStringToObject(o, "arena", vs_replay_arena(s->r, (int)f->arena)->decl.name);
	cJSON_AddNumberToObject(o, "line", (double)f->line);
	cJSON_AddNumberToObject(o, "frame", (double)f->frame);
	cJSON_AddNumberToObject(o, "id", (double)f->id);
	cJSON_AddStringToObject(o, "tag", vs_replay_tag_name(s->r, f->tag));
	cJSON_AddStringToObject(o, "request", what);
	cJSON_AddStringToObject(o, "kind", vs_replay_fail_kind_name(f->kind));
	return o;
}

/* Lists the failures of s that other has not; returns how many. */
static size_t only_in(const side *s, const side *other, int by_id, const char *name, FILE *fp, cJSON *arr)
{
	size_t i, n = 0;

	for (i = 0; i < vs_results_failure_count(s->x); i++) {
		const vs_failure *f = vs_results_failure(s->x, i);
		char what[96];
		if (failure_in(s, f, other, by_id))
			continue;
		if (arr)
			cJSON_AddItemToArray(arr, failure_json(s, f));
		if (fp && n == 0)
			fprintf(fp, "\nfailures only in %s\n  %-10s %-7s %-6s %-8s %-12s %-24s %s\n", name, "arena", "line",
				"frame", "id", "tag", "request", "kind");
		if (fp && n < SHOWN) {
			vs_request_describe(&f->req, what, sizeof what);
			fprintf(fp, "  %-10s %-7llu %-6llu %-8llu %-12s %-24s %s\n",
				vs_replay_arena(s->r, (int)f->arena)->decl.name, (unsigned long long)f->line,
				(unsigned long long)f->frame, (unsigned long long)f->id,
				f->tag ? vs_replay_tag_name(s->r, f->tag) : "-", what, vs_replay_fail_kind_name(f->kind));
		}
		n++;
	}
	if (fp && n > SHOWN)
		fprintf(fp, "  ... and %zu more (every one in --json)\n", n - SHOWN);
	return n;
}

/* Compares arena ia of A with ib of B; returns the metrics worse beyond tolerance. */
static int diff_arena(const diff_opts *o, const side *A, int ia, const side *B, int ib, FILE *fp, cJSON *ja)
{
	cJSON *jm = cJSON_CreateObject(), *jt = cJSON_CreateArray();
	char a[32], b[32], d[32];
	int k, worse = 0;
	uint32_t t;

	if (fp)
		fprintf(fp, "\narena %s\n  %-20s %14s %14s %12s\n", vs_replay_arena(A->r, ia)->decl.name, "metric", "A", "B",
			"delta");
	for (k = 0; k < VS_MET_KINDS + 3; k++) {
		int judged = k < VS_MET_KINDS, frac = k == VS_MET_PEAK_FRAG || k == VS_MET_MEAN_FRAG;
		const char *name = judged ? vs_cmp_metric_name((vs_cmp_metric)k) : info_names[k - VS_MET_KINDS];
		double va = judged ? metric(A, ia, (vs_cmp_metric)k) : info(A, ia, k - VS_MET_KINDS);
		double vb = judged ? metric(B, ib, (vs_cmp_metric)k) : info(B, ib, k - VS_MET_KINDS);
		const char *verdict = "";
		cJSON *o1 = cJSON_CreateObject();
		if (judged && vb > va * (1.0 + o->tol[k].ratio) + o->tol[k].abs + 1e-12) {
			verdict = "worse";
			worse++;
		} else if (judged && vb > va) {
			verdict = "worse, within tolerance";
		} else if (judged && vb < va) {
			verdict = "better";
		}
		num(a, sizeof a, va, frac);
		num(b, sizeof b, vb, frac);
		delta(d, sizeof d, vb - va, frac);
		if (fp)
			fprintf(fp, "  %-20s %14s %14s %12s  %s\n", name, a, b, d, verdict);
		cJSON_AddNumberToObject(o1, "a", va);
		cJSON_AddNumberToObject(o1, "b", vb);
		cJSON_AddNumberToObject(o1, "delta", vb - va);
		if (judged)
			cJSON_AddStringToObject(o1, "verdict", *verdict ? verdict : "same");
		cJSON_AddItemToObject(jm, name, o1);
	}
	/* tags of either side, by name, where a figure moved */
	for (k = 0; k < 2; k++) {
		const side *s = k ? B : A, *other = k ? A : B;
		int as = k ? ib : ia, ao = k ? ia : ib, head = 0;
		for (t = 0; t < vs_results_tag_span(s->x); t++) {
			const char *name = vs_replay_tag_name(s->r, t);
			const vs_tag_stats *ts = vs_results_tag(s->x, (uint32_t)as, t), *to = tag_by_name(other, ao, name);
			const vs_tag_stats *ta = k ? to : ts, *tb = k ? ts : to;
			static const vs_tag_stats none;
			cJSON *o1;
			if (!ts || (k && to))
				continue; /* B's tags that A has were shown with A's */
			if (!ta)
				ta = &none;
			if (!tb)
				tb = &none;
			if (ta->peak_live == tb->peak_live && ta->allocs == tb->allocs && ta->failures == tb->failures)
				continue;
			if (fp && !head++)
				fprintf(fp, "  %-20s %14s %14s %12s %10s %10s\n", "tag (peak live)", "A", "B", "delta",
					"fails A", "fails B");
			delta(d, sizeof d, (double)tb->peak_live - (double)ta->peak_live, 0);
			if (fp)
				fprintf(fp, "  %-20s %14llu %14llu %12s %10llu %10llu\n", t ? name : "(none)",
					(unsigned long long)ta->peak_live, (unsigned long long)tb->peak_live, d,
					(unsigned long long)ta->failures, (unsigned long long)tb->failures);
			o1 = cJSON_CreateObject();
			cJSON_AddStringToObject(o1, "tag", name);
			cJSON_AddNumberToObject(o1, "peak_live_a", (double)ta->peak_live);
			cJSON_AddNumberToObject(o1, "peak_live_b", (double)tb->peak_live);
			cJSON_AddNumberToObject(o1, "allocations_a", (double)ta->allocs);
			cJSON_AddNumberToObject(o1, "allocations_b", (double)tb->allocs);
			cJSON_AddNumberToObject(o1, "failures_a", (double)ta->failures);
			cJSON_AddNumberToObject(o1, "failures_b", (double)tb->failures);
			cJSON_AddItemToArray(jt, o1);
		}
	}
	cJSON_AddStringToObject(ja, "name", vs_replay_arena(A->r, ia)->decl.name);
	cJSON_AddItemToObject(ja, "metrics", jm);
	cJSON_AddItemToObject(ja, "tags", jt);
	return worse;
}

static int report(const diff_opts *o, const side *A, const side *B)
{
	FILE *fp = o->json ? NULL : stdout;
	cJSON *root = cJSON_CreateObject(), *arenas = cJSON_CreateArray(), *oa = cJSON_CreateArray(),
		*ob = cJSON_CreateArray();
	int ia, worse = 0, broken = vs_replay_check_total(B->r) != 0;
	size_t na, nb;

	if (fp) {
		char a[4 * sizeof A->label], b[4 * sizeof B->label];
		/* the paths are any bytes a file name holds: one line each */
		vs_text_escape(a, sizeof a, A->label, strlen(A->label), 0);
		vs_text_escape(b, sizeof b, B->label, strlen(B->label), 0);
		fprintf(fp, "A %s\nB %s\n", a, b);
	}
	for (ia = 0; ia < vs_replay_arena_count(A->r); ia++) {
		const char *name = vs_replay_arena(A->r, ia)->decl.name;
		int ib = arena_named(B->r, name);
		cJSON *ja;
		if (ib < 0) {
			if (fp)
				fprintf(fp, "\narena %s: only in A\n", name);
			continue;
		}
		ja = cJSON_CreateObject();
		worse += diff_arena(o, A, ia, B, ib, fp, ja);
		cJSON_AddItemToArray(arenas, ja);
	}
	for (ia = 0; ia < vs_replay_arena_count(B->r); ia++)
		if (arena_named(A->r, vs_replay_arena(B->r, ia)->decl.name) < 0 && fp)
			fprintf(fp, "\narena %s: only in B\n", vs_replay_arena(B->r, ia)->decl.name);
	na = only_in(A, B, o->by_id, "A", fp, oa);
	nb = only_in(B, A, o->by_id, "B", fp, ob);
	if (fp) {
		fprintf(fp, "\nfailures paired by %s: %zu only in A, %zu only in B\n", o->by_id ? "id" : "line", na, nb);
		fprintf(fp, "result: %s\n", worse || broken ? "B is worse" : "B is no worse than A");
		if (broken)
			fprintf(fp, "B failed %llu integrity check(s)\n", (unsigned long long)vs_replay_check_total(B->r));
	} else {
		char *s;
		char a[3 * sizeof A->label], b[3 * sizeof B->label];
		/* valid UTF-8, as JSON must be */
		vs_text_utf8(a, sizeof a, A->label);
		vs_text_utf8(b, sizeof b, B->label);
		cJSON_AddStringToObject(root, "a", a);
		cJSON_AddStringToObject(root, "b", b);
		cJSON_AddItemToObject(root, "arenas", arenas);
		cJSON_AddStringToObject(root, "failures_matched_by", o->by_id ? "id" : "line");
		cJSON_AddItemToObject(root, "failures_only_in_a", oa);
		cJSON_AddItemToObject(root, "failures_only_in_b", ob);
		cJSON_AddNumberToObject(root, "b_integrity_errors", (double)vs_replay_check_total(B->r));
		cJSON_AddBoolToObject(root, "b_worse", worse || broken);
		s = cJSON_Print(root);
		if (s)
			puts(s);
		free(s);
		arenas = oa = ob = NULL;
	}
	cJSON_Delete(root);
	cJSON_Delete(arenas);
	cJSON_Delete(oa);
	cJSON_Delete(ob);
	return worse || broken ? VS_EXIT_CHECK : VS_EXIT_OK;
}

/* Whether A's and B's arenas are the same memory (names, kinds, sizes, in
 * order): only then is a pixel of one the same bytes as that of the other. */
static int same_arenas(const side *A, const side *B)
{
	int i, n = vs_replay_arena_count(A->r);

	if (n != vs_replay_arena_count(B->r))
		return 0;
	for (i = 0; i < n; i++) {
		const vs_arena_decl *a = &vs_replay_arena(A->r, i)->decl, *b = &vs_replay_arena(B->r, i)->decl;
		if (strcmp(a->name, b->name) != 0 || a->kind != b->kind || a->size != b->size)
			return 0;
	}
	return 1;
}

/* Both heatmaps (occupancy, titled alike so only the plots differ), then a
 * pixel where they differ is red when B is the brighter (more in use), blue
 * when A is; where they agree it is dimmed. */
static int write_png(const diff_opts *o, const side *A, const side *B)
{
	static const char note[] = "red: more in use in B   blue: more in use in A   dim: the same";
	vs_image ia, ib, out;
	vs_out_file f;
	char err[1024] = "", win[64], title[128];
	int x, y, rc = VS_EXIT_USAGE;

	if (!same_arenas(A, B)) {
		fprintf(stderr, "vramsim diff: --png: A and B have other arenas; no picture of their difference\n");
		return VS_EXIT_USAGE;
	}
	/* one title for both, so only the plots differ */
	vs_history_window_describe(A->hs, win, sizeof win);
	snprintf(title, sizeof title, "difference: A -> B%s%s", *win ? ", " : "", win);
	if (vs_picture_heatmap(&ia, A->hs, VS_HEAT_OCCUPANCY, title))
		return vs_cli_usage_error(CMD, "--png: out of memory");
	if (vs_picture_heatmap(&ib, B->hs, VS_HEAT_OCCUPANCY, title)) {
		vs_image_fini(&ia);
		return vs_cli_usage_error(CMD, "--png: out of memory");
	}
	if (ia.w != ib.w || ia.h != ib.h) {
		fprintf(stderr, "vramsim diff: --png: A and B have other arenas; no picture of their difference\n");
		goto done;
	}
	if (vs_image_init(&out, ia.w, ia.h + 16, 0x000000FFu))
		goto done;
	for (y = 0; y < ia.h; y++)
		for (x = 0; x < ia.w; x++) {
			uint32_t pa = vs_image_get(&ia, x, y), pb = vs_image_get(&ib, x, y);
			unsigned la = (pa >> 24) + ((pa >> 16) & 255u) + ((pa >> 8) & 255u);
			unsigned lb = (pb >> 24) + ((pb >> 16) & 255u) + ((pb >> 8) & 255u);
			if (pa == pb)
				vs_image_put(&out, x, y, ((pa >> 1) & 0x7F7F7F00u) | 0xFFu);
			else
				vs_image_put(&out, x, y, lb > la ? 0xE04040FFu : 0x4080F0FFu);
		}
	vs_image_text(&out, 4, ia.h + 3, note, 0xDDDDDDFFu, 1);
	if (vs_out_open(&f, o->png, err, sizeof err) == 0) {
		/* finished either way: a failed write's reason is the stream's */
		int drawn = vs_png_write(f.fp, &out) == 0;
		if (vs_out_finish(&f, drawn, err, sizeof err) == 0 && vs_out_commit(&f, 1, err, sizeof err) == 0)
			rc = VS_EXIT_OK;
		else
			vs_out_abort(&f, 1);
	}
	if (rc)
		fprintf(stderr, "vramsim diff: --png %s: %s\n", o->png, err[0] ? err : "cannot write the picture");
	vs_image_fini(&out);
done:
	vs_image_fini(&ia);
	vs_image_fini(&ib);
	return rc;
}

/* Whether paths a and b name one input ("-": standard input), whatever
 * names they go by. */
static int same_input(const char *a, const char *b)
{
	struct stat sa, sb;

	if (strcmp(a, b) == 0)
		return 1;
	if ((strcmp(a, "-") == 0 ? fstat(STDIN_FILENO, &sa) : stat(a, &sa)) != 0 ||
		(strcmp(b, "-") == 0 ? fstat(STDIN_FILENO, &sb) : stat(b, &sb)) != 0)
		return 0;
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Each trace is read once, side A's from the reader that grouped the
 * choices; a trace both sides read (one trace, or A and B one input) must
 * be a file that can be read again: refused before anything is read. */
static int check_rereadable(const diff_opts *o)
{
	if (o->npaths == 1)
		return vs_cli_rereadable(CMD, o->path[0], "with one trace both sides read it");
	if (same_input(o->path[0], o->path[1]))
		return vs_cli_rereadable(CMD, o->path[1], "A and B are one trace, read once for each");
	return 0;
}

int vs_cmd_diff(int argc, char **argv)
{
	diff_opts o;
	side s[2];
	vs_trace_reader *rd;
	char err[1024];
	int status, i;

	memset(&o, 0, sizeof o);
	memset(s, 0, sizeof s);
	vs_replay_config_default(&o.cfg);
	status = vs_cli_parse(&command, argc, argv, take, &o);
	if (status < 0 && o.npaths == 0)
		status = vs_cli_usage_error(CMD, "no trace given");
	if (status < 0 && vs_cli_choices_split(CMD, &o.cs))
		status = VS_EXIT_USAGE;
	if (status < 0 && (o.window.from || o.window.to) && !o.png)
		status = vs_cli_usage_error(CMD, "--from and --to choose the window of the --png picture: give --png FILE");
	if (status < 0 && vs_cli_window_parse(&o.window, CMD))
		status = VS_EXIT_USAGE;
	if (status < 0 && check_rereadable(&o))
		status = VS_EXIT_USAGE;
	if (status >= 0) {
		vs_cli_choices_free(&o.cs);
		return status;
	}
	if (!o.match_set)
		o.by_id = o.npaths == 2;
	/* the choices group against the first trace: one group for two traces,
	 * two (the sides) for one */
	if (!(rd = vs_trace_open(o.path[0], err, sizeof err))) {
		fprintf(stderr, "%s\n", err);
		vs_cli_choices_free(&o.cs);
		return VS_EXIT_USAGE;
	}
	status = vs_cli_choices_group(CMD, &o.cs, vs_trace_header_of(rd), o.npaths == 2 ? 1 : 2,
		o.npaths == 2 ? "set of choices (two traces run the same strategies)" : "side");
	if (!status && o.npaths == 1 && o.cs.ngroups != 2)
		status = vs_cli_usage_error(CMD, "one trace needs two sides: -s A -s B (or two traces)");
	if (status)
		vs_trace_close(rd);
	for (i = 0; i < 2 && !status; i++) {
		s[i].path = o.path[o.npaths == 2 ? i : 0];
		status = run_side(&o, &s[i], o.npaths == 2 ? 0 : i, i == 0 ? rd : NULL);
	}
	if (!status && o.png)
		status = write_png(&o, &s[0], &s[1]);
	if (!status)
		status = report(&o, &s[0], &s[1]);
	for (i = 0; i < 2; i++) {
		vs_replay_free(s[i].r);
		vs_results_free(s[i].x);
		vs_history_free(s[i].hs);
	}
	vs_cli_choices_free(&o.cs);
	return status;
}
