/* SPDX-License-Identifier: Zlib */
/* cmd_report.c - `vramsim report`: one self-contained HTML file (pictures
 * embedded as data: URIs, no network, no script) with the comparison
 * table and, for each trace, each arena's occupancy at its peak, the
 * heatmap and chart, the failed requests and the per-tag table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_window.h"
#include "progress.h"
#include "engine/results.h"
#include "base/text.h"

#include "render/render.h"
#include "strategies/registry.h"
#include "vram/request.h"
#include "vram/arena.h"
#include "render/history.h"
#include "render/picture.h"
#include "render/png.h"
#include "render/window.h"

#define CMD "report"
#define FAILURES_SHOWN 200

enum { O_TITLE = VS_CLI_LONG, O_NO_CHECKS };

static const vs_cli_opt options[] = {
	{ "strategy", 's', "SPEC", "strategies as in 'vramsim compare' (the table) and 'vramsim replay' (the "
		"pictures and lists of each trace: one strategy per arena, the first choice for it, else its "
		"default)" },
	{ "plugin", VS_CLI_PLUGIN, "PATH", "load strategies from a plug-in (.so)" },
	{ "output", 'o', "FILE", "the HTML file to write (required)" },
	{ "title", O_TITLE, "TEXT", "the report's title (default 'vramsim report')" },
	{ "from", VS_CLI_WINDOW_FROM, "N|f:N", "each trace's pictures from event N, or from frame N (f:N or "
		"frame:N), as in 'vramsim render': the heatmap and chart show the window, the occupancy is at the peak "
		"inside it; the tables cover the whole trace" },
	{ "to", VS_CLI_WINDOW_TO, "N|f:N", "each trace's pictures up to event N, or to the end of frame N (f:N), "
		"inclusive" },
	{ "no-checks", O_NO_CHECKS, NULL, "skip byte and hardware-rule checks (faster)" },
	{ "quiet", 'q', NULL, "do not print replay diagnostics" },
	{ NULL, 0, NULL, NULL }
};

static const vs_cli_cmd command = {
	CMD, "report TRACE... [--strategy SPEC]... -o report.html",
	"Writes one HTML file that needs nothing else to be read (pictures inside it,\n"
	"no network, no script): the comparison of strategies on every trace, then\n"
	"for each trace every arena's occupancy at its peak, its heatmap and chart,\n"
	"the failed requests explained and the table per tag.\n",
	options,
	"exit: 0 written, 1 written but an integrity check failed, 2 bad usage, a\n"
	"malformed trace or an output that cannot be written (nothing is left behind).\n",
	NULL, 0
};

typedef struct report_opts {
	const char **paths;
	int npaths;
	const char *out, *title;
	int quiet, no_checks;
	vs_cli_choices cs;
	vs_cli_window window; /* --from, --to */
} report_opts;

static void quiet_message(void *ud, const char *line)
{
	(void)ud;
	(void)line;
}

static int take(void *ud, const vs_cli_parser *p, int c)
{
	report_opts *o = ud;
	const char **v;

	if (vs_cli_window_take(&o->window, p, c) != VS_CLI_NOT_SHARED)
		return -1;
	switch (c) {
	case 's':
		return vs_cli_choices_add(CMD, &o->cs, p->arg) ? VS_EXIT_USAGE : -1;
	case 'o':
		o->out = p->arg;
		return -1;
	case O_TITLE:
		o->title = p->arg;
		return -1;
	case O_NO_CHECKS:
		o->no_checks = 1;
		return -1;
	case 'q':
		o->quiet = 1;
		return -1;
	}
	if (!(v = realloc(o->paths, (size_t)(o->npaths + 1) * sizeof *v)))
		return vs_cli_usage_error(CMD, "out of memory");
	o->paths = v;
	o->paths[o->npaths++] = p->arg;
	return -1;
}

/* ---- HTML pieces ------------------------------------------------------- */

/* Escaped text (vs_text_escape's) with HTML's special characters as entities. */
static void html_entities(FILE *fp, const char *p)
{
	for (; *p; p++) {
		switch (*p) {
		case '<': fputs("&lt;", fp); break;
		case '>': fputs("&gt;", fp); break;
		case '&': fputs("&amp;", fp); break;
		case '"': fputs("&quot;", fp); break;
		default: fputc(*p, fp);
		}
	}
}

/* The bytes html() escapes at a time: a piece ends between characters. */
#define HTML_PIECE 256

/* Text from input, safe in HTML: escaped controls and bad bytes, then
 * entities. A piece at a time, so that a name is never cut, however long
 * and however many of its bytes become \xNN: two paths that differ only at
 * their ends must still differ in the report. */
static void html(FILE *fp, const char *s)
{
	char buf[4 * HTML_PIECE + 1]; /* each byte escaped (\xNN), at worst */
	size_t len = strlen(s), n;
	int k;

	for (; len; s += n, len -= n) {
		for (n = 0; n < len && n + 4 <= HTML_PIECE; n += (size_t)(k ? k : 1))
			k = vs_text_utf8_len((const unsigned char *)s + n, len - n);
		vs_text_escape(buf, sizeof buf, s, n, 0);
		html_entities(fp, buf);
	}
}

static void base64(FILE *fp, const unsigned char *b, size_t n)
{
	static const char t[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t i;

	for (i = 0; i + 2 < n; i += 3) {
		unsigned v = (unsigned)b[i] << 16 | (unsigned)b[i + 1] << 8 | b[i + 2];
		fputc(t[v >> 18], fp);
		fputc(t[(v >> 12) & 63], fp);
		fputc(t[(v >> 6) & 63], fp);
		fputc(t[v & 63], fp);
	}
	if (i < n) {
		unsigned v = (unsigned)b[i] << 16 | (i + 1 < n ? (unsigned)b[i + 1] << 8 : 0u);
		fputc(t[v >> 18], fp);
		fputc(t[(v >> 12) & 63], fp);
		fputc(i + 1 < n ? t[(v >> 6) & 63] : '=', fp);
		fputc('=', fp);
	}
}

/* A picture as an <img> with its PNG inside; im is freed. */
static int figure(FILE *fp, vs_image *im, const char *alt, const char *caption)
{
	char *png = NULL;
	size_t n = 0;
	FILE *mem = open_memstream(&png, &n);
	int rc = -1, written;

	written = mem && vs_png_write(mem, im) == 0;
	if (mem && fclose(mem) != 0) /* closed once, whatever happened */
		written = 0;
	if (written) {
		fputs("<figure><img alt=\"", fp);
		html(fp, alt);
		fprintf(fp, "\" width=\"%d\" height=\"%d\" src=\"data:image/png;base64,", im->w, im->h);
		base64(fp, (const unsigned char *)png, n);
		fputs("\"><figcaption>", fp);
		html(fp, caption);
		fputs("</figcaption></figure>\n", fp);
		rc = 0;
	}
	free(png);
	vs_image_fini(im);
	return rc;
}

/* ---- the comparison ---------------------------------------------------- */

static int comparison(FILE *fp, const report_opts *o)
{
	vs_cmp_config cc;
	vs_cmp_result res;
	char err[1024], rank[16];
	int i, rc = VS_EXIT_OK;

	vs_cmp_config_default(&cc);
	cc.traces = o->paths;
	cc.ntraces = o->npaths;
	cc.choices = o->cs.n ? o->cs.v : NULL;
	cc.nchoices = o->cs.n;
	cc.timing = 0;
	if (o->no_checks)
		cc.check_bytes = cc.check_rules = 0;
	if (vs_cmp_run(&cc, &res, err, sizeof err)) {
		fprintf(stderr, "vramsim report: %s\n", err);
		return VS_EXIT_USAGE;
	}
	fputs("<section id=\"comparison\"><h2>Comparison</h2>\n<table><thead><tr><th>trace</th><th>arena</th>"
		"<th>strategy</th><th>rank</th><th>allocations</th><th>failures</th><th>peak live</th>"
		"<th>peak frag.</th><th>mean frag.</th><th>high-water</th><th>bookkeeping RAM</th></tr></thead><tbody>\n",
		fp);
	for (i = 0; i < res.nrows; i++) {
		const vs_cmp_row *r = &res.rows[i];
		fputs("<tr><td>", fp);
		html(fp, r->trace);
		fputs("</td><td>", fp);
		html(fp, r->arena);
		fputs("</td><td>", fp);
		html(fp, r->strategy);
		if (r->status == VS_CMP_ERROR || r->status == VS_CMP_REFUSED) {
			fprintf(fp, "</td><td colspan=\"8\">%s: ", vs_cmp_status_name(r->status));
			html(fp, r->note);
			fputs("</td></tr>\n", fp);
			if (r->status == VS_CMP_ERROR)
				rc = VS_EXIT_USAGE;
			continue;
		}
		if (r->status == VS_CMP_INTEGRITY)
			snprintf(rank, sizeof rank, "BROKEN");
		else if (r->rank)
			snprintf(rank, sizeof rank, "%d", r->rank);
		else
			snprintf(rank, sizeof rank, "-");
		fprintf(fp, "</td><td>%s</td><td>%llu</td><td>%llu</td><td>%llu</td><td>%.3f</td><td>%.3f</td>"
			"<td>%llu</td><td>%llu</td></tr>\n", rank,
			(unsigned long long)r->m.allocs, (unsigned long long)r->m.failures, (unsigned long long)r->m.peak_live,
			r->peak_frag, r->mean_frag, (unsigned long long)r->m.high_water, (unsigned long long)r->m.peak_ram);
		if (r->status == VS_CMP_INTEGRITY && rc == VS_EXIT_OK)
			rc = VS_EXIT_CHECK;
	}
	fputs("</tbody></table></section>\n", fp);
	vs_cmp_result_free(&res);
	return rc;
}

/* ---- one trace --------------------------------------------------------- */

/* The first set of choices, less those this trace has no arena for (a
 * report covers OBJ and DS traces with one -s list, as compare does). */
static int apply_fitting(const report_opts *o, const vs_trace_header *h, vs_replay_config *cfg,
	char opts[][VS_OPTIONS_MAX], char *err, size_t errlen)
{
	vs_cmp_choice fit[VS_TRACE_MAX_ARENAS * 4];
	int i, k, n = 0;

	for (i = 0; i < o->cs.first[1] && n < (int)(sizeof fit / sizeof fit[0]); i++) {
		const vs_cmp_choice *c = &o->cs.v[i];
		int ok = 0;
		for (k = 0; k < h->narenas && !ok; k++)
			ok = c->arena[0] ? !strcmp(c->arena, h->arenas[k].name) :
				vs_strategy_manages(c->strategy, h->arenas[k].kind);
		if (ok)
			fit[n++] = *c;
	}
	return vs_cli_apply_choices(fit, n, h, cfg, opts, err, errlen);
}

/* A replay of path with the first choice for each arena (else defaults). */
static vs_replay *open_run(const report_opts *o, const char *path, vs_replay_config *cfg)
{
	char opts[VS_TRACE_MAX_ARENAS][VS_OPTIONS_MAX], err[1024];
	vs_trace_reader *rd = vs_trace_open(path, err, sizeof err);
	vs_replay *r;

	if (!rd) {
		fprintf(stderr, "%s\n", err);
		return NULL;
	}
	if (o->cs.ngroups && apply_fitting(o, vs_trace_header_of(rd), cfg, opts, err, sizeof err)) {
		vs_trace_close(rd);
		vs_cli_usage_error(CMD, "%s", err);
		return NULL;
	}
	if (o->quiet)
		cfg->message = quiet_message;
	if (o->no_checks)
		cfg->check_bytes = cfg->check_rules = 0;
	if (!(r = vs_replay_new(rd, cfg, err, sizeof err)))
		fprintf(stderr, "vramsim report: %s\n", err);
	return r;
}

static void failures_table(FILE *fp, const vs_replay *r, const vs_results *x)
{
	size_t i, n = vs_results_failure_count(x);
	uint64_t total = vs_results_failure_total(x);

	fprintf(fp, "<h3>Failed requests (%llu)</h3>\n", (unsigned long long)total);
	if (!total) {
		fputs("<p>Every request was served.</p>\n", fp);
		return;
	}
	fputs("<table><thead><tr><th>line</th><th>frame</th><th>arena</th><th>id</th><th>tag</th><th>request</th>"
		"<th>bytes</th><th>free</th><th>largest free</th><th>to move</th><th>why</th></tr></thead><tbody>\n", fp);
	for (i = 0; i < n && i < FAILURES_SHOWN; i++) {
		const vs_failure *f = vs_results_failure(x, i);
		char what[96];
		vs_request_describe(&f->req, what, sizeof what);
		fprintf(fp, "<tr><td>%llu</td><td>%llu</td><td>", (unsigned long long)f->line, (unsigned long long)f->frame);
		html(fp, vs_replay_arena(r, (int)f->arena)->decl.name);
		fprintf(fp, "</td><td>%llu</td><td>", (unsigned long long)f->id);
		html(fp, vs_replay_tag_name(r, f->tag));
		fputs("</td><td>", fp);
		html(fp, what);
		fprintf(fp, "</td><td>%u</td><td>%llu</td><td>%llu</td><td>", (unsigned)f->req.size,
			(unsigned long long)f->free_bytes, (unsigned long long)f->largest_free);
		if (f->to_move != VS_MOVE_UNKNOWN)
			fprintf(fp, "%llu", (unsigned long long)f->to_move);
		else
			fputs("-", fp);
		fprintf(fp, "</td><td>%s: %s</td></tr>\n", vs_replay_fail_kind_name(f->kind),
			f->kind == VS_FAIL_OOM ? "fewer bytes free than asked" :
			f->kind == VS_FAIL_FRAGMENTED ? "enough bytes free, no run large enough" :
			f->kind == VS_FAIL_RULE ? "runs large enough, the hardware forbids them" :
			f->kind == VS_FAIL_MANAGEMENT ? "the allocator's bookkeeping ran out" :
			f->kind == VS_FAIL_INVALID ? "the allocator refuses the request itself" :
			"the allocator cannot serve this kind of request");
	}
	fputs("</tbody></table>\n", fp);
	if (total > FAILURES_SHOWN)
		fprintf(fp, "<p>... and %llu more: <code>vramsim replay --json</code> lists every one.</p>\n",
			(unsigned long long)(total - FAILURES_SHOWN));
}

static void tags_table(FILE *fp, const vs_replay *r, const vs_results *x, int a)
{
	uint32_t t;
	int head = 0;

	for (t = 0; t < vs_results_tag_span(x); t++) {
		const vs_tag_stats *s = vs_results_tag(x, (uint32_t)a, t);
		if (!s)
			continue;
		if (!head++)
			fputs("<table class=\"tags\"><thead><tr><th>tag</th><th>live at the end</th><th>peak live</th>"
				"<th>allocations</th><th>failures</th><th>frees</th></tr></thead><tbody>\n", fp);
		fputs("<tr><td>", fp);
		html(fp, t ? vs_replay_tag_name(r, t) : "(none)");
		fprintf(fp, "</td><td>%llu</td><td>%llu</td><td>%llu</td><td>%llu</td><td>%llu</td></tr>\n",
			(unsigned long long)s->live_bytes, (unsigned long long)s->peak_live, (unsigned long long)s->allocs,
			(unsigned long long)s->failures, (unsigned long long)s->frees);
	}
	if (head)
		fputs("</tbody></table>\n", fp);
}

/* Occupancy of arena a at event ev: a second replay stopped there. */
static int occupancy_at(FILE *fp, const report_opts *o, const char *path, int a, uint64_t ev,
	const vs_history *hs)
{
	vs_replay_config cfg;
	vs_render_src src;
	vs_image im;
	vs_replay *r;
	char alt[512], cap[512], win[64];
	int rc;

	vs_replay_config_default(&cfg);
	if (!(r = open_run(o, path, &cfg)))
		return VS_EXIT_USAGE;
	if (vs_replay_run(r, ev) < 0) {
		fprintf(stderr, "%s\n", vs_replay_error(r));
		vs_replay_free(r);
		return VS_EXIT_USAGE;
	}
	vs_render_src_replay(&src, r, a);
	snprintf(alt, sizeof alt, "occupancy of arena %s at event %llu", vs_replay_arena(r, a)->decl.name,
		(unsigned long long)ev);
	vs_history_window_describe(hs, win, sizeof win);
	snprintf(cap, sizeof cap, "Occupancy at the peak of live bytes%s%s (event %llu)", *win ? " in " : "", win,
		(unsigned long long)ev);
	rc = vs_picture_occupancy(&im, &src, 1, alt, hs) ? -1 : figure(fp, &im, alt, cap);
	vs_replay_free(r);
	return rc ? VS_EXIT_USAGE : VS_EXIT_OK;
}

/* "WHAT of PATH[, WIN]": a picture's title and alt text, the trace's path
 * whole (two traces' pictures are told apart by their ends). In memory the
 * caller frees; NULL (said) when there is none. */
static char *of_trace(const char *what, const char *path, const char *win)
{
	size_t n = strlen(what) + strlen(path) + strlen(win) + sizeof " of , ";
	char *t = malloc(n);

	if (!t)
		fprintf(stderr, "vramsim report: out of memory\n");
	else
		snprintf(t, n, "%s of %s%s%s", what, path, *win ? ", " : "", win);
	return t;
}

static int one_trace(FILE *fp, const report_opts *o, int ti)
{
	const char *path = o->paths[ti];
	vs_replay_config cfg;
	vs_history *hs = vs_history_new(1024, 256);
	vs_results *x = vs_results_new(NULL, NULL);
	vs_replay *r = NULL;
	vs_cli_chain c;
	vs_image im;
	char *title = NULL, win[64], cap[256], err[512];
	int a, rc = VS_EXIT_USAGE;

	vs_replay_config_default(&cfg);
	if (!hs || !x)
		goto out;
	vs_history_set_window(hs, &o->window.win);
	vs_results_attach(x, &cfg);
	{
		vs_observer_fn first = cfg.observer;
		void *first_ud = cfg.observer_ud;
		vs_history_attach(hs, &cfg);
		vs_cli_chain_attach(&c, &cfg, first, first_ud);
	}
	if (!(r = open_run(o, path, &cfg)))
		goto out;
	if (vs_progress_replay(r, 0, path, o->quiet) < 0) {
		fprintf(stderr, "%s\n", vs_replay_error(r));
		goto out;
	}
	vs_history_finish(hs, r);
	if (vs_history_window_check(hs, err, sizeof err)) {
		vs_cli_usage_error(CMD, "%s: %s", path, err);
		goto out;
	}
	vs_history_window_describe(hs, win, sizeof win);
	fprintf(fp, "<section class=\"trace\" id=\"trace-%d\"><h2>", ti + 1);
	html(fp, path);
	fprintf(fp, "</h2>\n<p>%llu events, %llu frames.", (unsigned long long)vs_replay_events(r),
		(unsigned long long)vs_replay_frames(r));
	if (*win)
		fprintf(fp, " The pictures show %s (events %llu-%llu); the figures and tables, the whole trace.", win,
			(unsigned long long)vs_history_first_event(hs), (unsigned long long)vs_history_last_event(hs));
	fputs("</p>\n", fp);
	for (a = 0; a < vs_replay_arena_count(r); a++) {
		const vs_metrics *m = vs_replay_metrics(r, a);
		fputs("<h3>Arena ", fp);
		html(fp, vs_replay_arena(r, a)->decl.name);
		fprintf(fp, " (%s), strategy ", vs_arena_kind_name(vs_replay_arena(r, a)->decl.kind));
		html(fp, vs_replay_strategy(r, a)->name);
		fprintf(fp, "</h3>\n<p>%llu allocations, %llu failed; peak live %llu bytes; fragmentation peak %.3f, "
			"mean %.3f; bookkeeping RAM %llu bytes.</p>\n", (unsigned long long)m->allocs,
			(unsigned long long)m->failures, (unsigned long long)m->peak_live, m->peak_frag,
			m->events ? m->frag_sum / (double)m->events : 0.0, (unsigned long long)m->peak_ram);
		if (occupancy_at(fp, o, path, a, vs_history_peak_live_event(hs, a), hs))
			goto out;
		tags_table(fp, r, x, a);
	}
	snprintf(cap, sizeof cap, "Heatmap%s%s: time across, addresses down, coloured by owner tag; failures marked",
		*win ? " of " : "", win);
	if (!(title = of_trace("heatmap", path, win)) || vs_picture_heatmap(&im, hs, VS_HEAT_OWNER, title) ||
		figure(fp, &im, title, cap))
		goto out;
	free(title);
	title = NULL;
	snprintf(cap, sizeof cap, "Live bytes, largest free extent and fragmentation over %s", *win ? win : "time");
	if (!(title = of_trace("chart", path, win)) || vs_picture_chart(&im, hs, title) || figure(fp, &im, title, cap))
		goto out;
	failures_table(fp, r, x);
	fputs("</section>\n", fp);
	rc = vs_replay_check_total(r) ? VS_EXIT_CHECK : VS_EXIT_OK;
out:
	free(title);
	vs_replay_free(r);
	vs_results_free(x);
	vs_history_free(hs);
	return rc;
}

static const char style[] =
	"body{font-family:sans-serif;margin:2em;color:#222;max-width:1400px}"
	"table{border-collapse:collapse;margin:1em 0}th,td{border:1px solid #bbb;padding:2px 8px;text-align:right}"
	"th{background:#eee}td:first-child,th:first-child{text-align:left}"
	"figure{margin:1em 0}figcaption{color:#555;font-size:90%}img{image-rendering:pixelated;max-width:100%;"
	"height:auto}section{margin-bottom:3em}";

int vs_cmd_report(int argc, char **argv)
{
	report_opts o;
	vs_out_file out;
	char err[1024];
	int status, t, worst = VS_EXIT_OK;

	memset(&o, 0, sizeof o);
	status = vs_cli_parse(&command, argc, argv, take, &o);
	if (status < 0 && !o.npaths)
		status = vs_cli_usage_error(CMD, "no trace given");
	if (status < 0 && !o.out)
		status = vs_cli_usage_error(CMD, "-o FILE.html is required");
	for (t = 0; status < 0 && t < o.npaths; t++)
		if (vs_cli_rereadable(CMD, o.paths[t], "the report reads each trace several times"))
			status = VS_EXIT_USAGE;
	if (status < 0 && vs_cli_window_parse(&o.window, CMD))
		status = VS_EXIT_USAGE;
	if (status < 0 && vs_cli_choices_split(CMD, &o.cs))
		status = VS_EXIT_USAGE;
	if (status < 0) {
		/* group against the first trace, as replay does: the first choice for each arena */
		vs_trace_reader *rd = vs_trace_open(o.paths[0], err, sizeof err);
		if (!rd) {
			fprintf(stderr, "%s\n", err);
			status = VS_EXIT_USAGE;
		} else {
			status = vs_cli_choices_group(CMD, &o.cs, vs_trace_header_of(rd), 64, "set") ? VS_EXIT_USAGE : -1;
			vs_trace_close(rd);
		}
	}
	if (status < 0 && vs_out_open(&out, o.out, err, sizeof err)) {
		fprintf(stderr, "vramsim report: %s\n", err);
		status = VS_EXIT_USAGE;
	}
	if (status >= 0) {
		vs_cli_choices_free(&o.cs);
		free(o.paths);
		return status;
	}
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>", out.fp);
	html(out.fp, o.title ? o.title : "vramsim report");
	fprintf(out.fp, "</title><style>%s</style></head><body>\n<h1>", style);
	html(out.fp, o.title ? o.title : "vramsim report");
	fprintf(out.fp, "</h1>\n<p>%d trace%s. Made by vramsim %s; every picture is inside this file.</p>\n",
		o.npaths, o.npaths == 1 ? "" : "s", VS_VERSION);
	worst = comparison(out.fp, &o);
	for (t = 0; t < o.npaths && worst != VS_EXIT_USAGE; t++) {
		int s = one_trace(out.fp, &o, t);
		if (s > worst)
			worst = s;
	}
	fputs("</body></html>\n", out.fp);
	if (worst == VS_EXIT_USAGE || vs_out_finish(&out, 1, err, sizeof err) || vs_out_commit(&out, 1, err,
		sizeof err)) {
		if (worst != VS_EXIT_USAGE)
			fprintf(stderr, "vramsim report: %s\n", err);
		vs_out_abort(&out, 1);
		worst = VS_EXIT_USAGE;
	}
	vs_cli_choices_free(&o.cs);
	free(o.paths);
	return worst;
}

