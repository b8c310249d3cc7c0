/* SPDX-License-Identifier: Zlib */
/* cmd_render.c - `vramsim render`: occupancy maps, heatmaps and charts as PNG. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "cli_window.h"
#include "progress.h"
#include "base/out_file.h"
#include "base/text.h"

#include "render/render.h"
#include "render/history.h"
#include "render/picture.h"
#include "render/png.h"
#include "render/window.h"

#define CMD "render"

enum {
	O_KIND = VS_CLI_LONG, O_AT, O_FRAME, O_PEAK, O_PEAK_FRAG, O_END, O_ARENA, O_HEAT, O_COLUMNS, O_ROWS,
	O_NO_CHECKS, O_TIME, O_WHOLE, O_COLOUR_BY, O_FULL_BYTES
};

static const vs_cli_opt options[] = {
	{ "strategy", 's', "SPEC", "strategies, a comma list of NAME[:OPTS] (every arena "
		"NAME can manage) or ARENA=NAME[:OPTS] (one arena), as in "
		"'vramsim replay'; repeatable. A choice for an arena an "
		"earlier one already covers starts a second replay, "
		"drawn side by side: -s A,B (or -s A -s B) compares A "
		"with B" },
	{ "plugin", VS_CLI_PLUGIN, "PATH", "load strategies from a plug-in (.so)" },
	{ "kind", O_KIND, "KIND", "occupancy, heatmap, chart or all (default all)" },
	{ "at", O_AT, "N", "occupancy after event N" },
	{ "frame", O_FRAME, "N", "occupancy after the N-th frame statement" },
	{ "peak", O_PEAK, NULL, "occupancy at the event of peak live bytes" },
	{ "peak-frag", O_PEAK_FRAG, NULL, "occupancy at the event of peak fragmentation" },
	{ "end", O_END, NULL, "occupancy at the end of the trace (default; when nothing is live there, the "
		"peak of live bytes unless --end is given)" },
	{ "arena", O_ARENA, "NAME", "the arena --peak and --peak-frag look at (default: the first)" },
	{ "from", VS_CLI_WINDOW_FROM, "N|f:N", "draw from event N, or from frame N (f:N or frame:N; frame N "
		"starts at the N-th frame statement, frame 0 at the start): the heatmap and chart show the window at "
		"full width, the occupancy is at its end by default, --peak looks inside it and --at must lie in it" },
	{ "to", VS_CLI_WINDOW_TO, "N|f:N", "draw up to event N, or to the end of frame N (f:N), inclusive; the "
		"same unit as --from" },
	{ "heat", O_HEAT, "owner|occupancy", "heatmap colour: owner's tag (default) or the "
		"fraction of each address row in use" },
	{ "columns", O_COLUMNS, "N", "heatmap/chart time columns kept while replaying (default 1024)" },
	{ "rows", O_ROWS, "N", "heatmap address rows kept while replaying (default 256)" },
	{ "output", 'o', "PATH", "a directory (made if missing) for "
		"TRACE-occupancy.png, TRACE-heatmap.png and "
		"TRACE-chart.png, or with one --kind a .png file "
		"(default: the current directory)" },
	{ "whole", O_WHOLE, NULL, "draw RAM arenas whole (default: up to their high-water mark)" },
	{ "colour-by", O_COLOUR_BY, "tag|size|age|bpp", "what an allocation's colour says: its tag (default), its "
		"size, its age in events, or its depth (4bpp, 8bpp)" },
	{ "no-checks", O_NO_CHECKS, NULL, "skip byte and hardware-rule checks (faster)" },
	{ "full-bytes", O_FULL_BYTES, NULL, "write and compare every byte of every allocation, also for the "
		"heaps whose stores the replay sees (slower; docs/heaps.md, Checks)" },
	{ "quiet", 'q', NULL, "do not print diagnostics" },
	{ "time", O_TIME, NULL, "print how long each step took to stderr" },
	{ NULL, 0, NULL, NULL }
};

static const vs_cli_cmd command = {
	CMD, "render TRACE [options]",
	"Replays TRACE and writes PNG pictures of it: the occupancy of every arena\n"
	"laid out like the hardware, a heatmap of the whole replay (time on x,\n"
	"address on y) and a chart of live bytes, largest free extent and\n"
	"fragmentation over time. The same input gives the same PNG bytes.\n",
	options,
	"exit: 0 written, 1 written but an integrity check failed, 2 bad usage, a\n"
	"malformed trace or an output that cannot be written (nothing is left behind).\n",
	NULL, 0
};

enum { K_OCC = 1, K_HEAT = 2, K_CHART = 4, K_ALL = 7 };
enum { AT_END = 0, AT_EVENT, AT_FRAME, AT_PEAK, AT_PEAK_FRAG };

typedef struct render_opts {
	const char *path;
	vs_cli_choices cs; /* groups: the sides */
	int kinds;
	int at_mode;
	uint64_t at;
	const char *arena;
	vs_heat_mode heat;
	int columns, rows;
	int no_checks, full_bytes, quiet, timing;
	int at_given;     /* how many of --at, --frame, --peak... */
	int whole;        /* RAM arenas whole, not cropped to their high-water mark */
	int colour_by;    /* vs_colour_by */
	const char *out;  /* -o */
	vs_cli_window window; /* --from, --to */
} render_opts;

typedef struct side_out {
	vs_image occ, heat, chart;
	char strategies[256]; /* "gba-obj-map" or "obj=a, bg=b" for titles */
	uint64_t occ_event;
	int checks_failed;
} side_out;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void quiet_message(void *ud, const char *line)
{
	(void)ud;
	(void)line;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* Opens the trace and makes a replay for one side; hs (may be NULL) is attached. */
static vs_replay *open_side(const render_opts *o, int side, vs_history *hs, char *names, size_t nameslen)
{
	vs_replay_config cfg;
	char opts[VS_TRACE_MAX_ARENAS][VS_OPTIONS_MAX];
	char err[1024];
	vs_trace_reader *rd;
	vs_replay *r;
	const vs_cmp_choice *v;
	int i, n;

	vs_replay_config_default(&cfg);
	if (o->full_bytes)
		cfg.check_bytes = VS_BYTES_FULL;
	if (o->no_checks) {
		cfg.check_bytes = 0;
		cfg.check_rules = 0;
	}
	if (o->quiet)
		cfg.message = quiet_message;
	if (hs)
		vs_history_attach(hs, &cfg);
	rd = vs_trace_open(o->path, err, sizeof err);
	if (!rd) {
		fprintf(stderr, "%s\n", err);
		return NULL;
	}
	v = vs_cli_choices_of(&o->cs, side, &n);
	if (vs_cli_apply_choices(v, n, vs_trace_header_of(rd), &cfg, opts, err, sizeof err)) {
		vs_trace_close(rd);
		vs_cli_usage_error("render", "%s", err);
		return NULL;
	}
	r = vs_replay_new(rd, &cfg, err, sizeof err);
	if (!r) {
		fprintf(stderr, "vramsim render: %s\n", err);
		return NULL;
	}
	if (names) {
		size_t len = 0;
		names[0] = '\0';
		for (i = 0; i < vs_replay_arena_count(r) && len < nameslen; i++) {
			const vs_strategy *s = vs_replay_strategy(r, i);
			int k, dup = 0;
			for (k = 0; k < i; k++)
				dup |= vs_replay_strategy(r, k) == s;
			if (dup)
				continue;
			len += (size_t)snprintf(names + len, nameslen - len, "%s%s", len ? ", " : "", s ? s->name : "?");
		}
	}
	return r;
}

static int run_to(vs_replay *r, int mode, uint64_t at)
{
	int rc;

	if (mode == AT_FRAME) {
		while (vs_replay_frames(r) < at)
			if ((rc = vs_replay_step(r)) <= 0)
				return rc;
		return 1;
	}
	return vs_replay_run(r, mode == AT_END ? 0 : at);
}

static int replay_failed(vs_replay *r)
{
	fprintf(stderr, "%s\n", vs_replay_error(r));
	vs_replay_free(r);
	return -1;
}

/* Whether no arena holds a live allocation after the last event. */
static int ended_empty(const vs_replay *r)
{
	int i;

	for (i = 0; i < vs_replay_arena_count(r); i++)
		if (vs_replay_metrics(r, i)->live_count)
			return 0;
	return 1;
}

static int occupancy_of(vs_replay *r, const vs_history *hs, const char *title, vs_image *out, int whole,
	int colour_by)
{
	vs_render_src src[VS_TRACE_MAX_ARENAS];
	int i, n = vs_replay_arena_count(r);

	for (i = 0; i < n; i++) {
		vs_render_src_replay(&src[i], r, i);
		src[i].colour_by = (vs_colour_by)colour_by;
		if (whole)
			src[i].shown = 0;
	}
	return vs_picture_occupancy(out, src, n, title, hs);
}

/* A new replay of one side, stopped after event at (0: before any) or the
 * at-th frame statement; NULL after a message. */
static vs_replay *replay_to(const render_opts *o, int side, int mode, uint64_t at)
{
	vs_replay *r = open_side(o, side, NULL, NULL, 0);

	if (r && !(mode == AT_EVENT && at == 0) && run_to(r, mode, at) < 0) {
		replay_failed(r);
		return NULL;
	}
	return r;
}

/* The occupancy picture: the event asked for (inside the window, if one
 * is set), reached by another replay unless r is there already. */
static int occupancy_side(const render_opts *o, int side, side_out *so, vs_replay **rp, const vs_history *hs,
	int ai, const char *win)
{
	uint64_t at = o->at, first = vs_history_first_event(hs), last = vs_history_last_event(hs);
	int mode = o->at_mode, windowed = vs_history_windowed(hs);
	const char *what = "end", *join = " in "; /* what, then the window */
	char whatbuf[96], title[512];

	/* *rp has replayed the whole trace: an event or frame past its end is
	 * an error, never a picture of another state */
	if (mode == AT_EVENT && at > vs_replay_events(*rp)) {
		vs_cli_usage_error(CMD, "--at %llu is past the trace's end: it has %llu events", (unsigned long long)at,
			(unsigned long long)vs_replay_events(*rp));
		return -1;
	}
	if (mode == AT_FRAME && at > vs_replay_frames(*rp)) {
		vs_cli_usage_error(CMD, "--frame %llu is past the trace's end: it has %llu frame statements",
			(unsigned long long)at, (unsigned long long)vs_replay_frames(*rp));
		return -1;
	}
	if (mode == AT_END && windowed) {
		mode = AT_EVENT;
		at = last;
		what = "the end of";
		join = " ";
	} else if (mode == AT_PEAK || mode == AT_PEAK_FRAG) {
		at = mode == AT_PEAK ? vs_history_peak_live_event(hs, ai) : vs_history_peak_frag_event(hs, ai);
		what = mode == AT_PEAK ? "peak live bytes" : "peak fragmentation";
		mode = AT_EVENT;
	} else if (mode == AT_EVENT || mode == AT_FRAME) {
		snprintf(whatbuf, sizeof whatbuf, "%s %llu", mode == AT_EVENT ? "event" : "frame", (unsigned long long)at);
		what = whatbuf;
	}
	if (windowed && mode == AT_EVENT && o->at_mode == AT_EVENT && (at < first || at > last)) {
		vs_cli_usage_error(CMD, "--at %llu is outside the window (events %llu-%llu)", (unsigned long long)at,
			(unsigned long long)first, (unsigned long long)last);
		return -1;
	}
	if (mode != AT_END && !(mode == AT_EVENT && at >= vs_replay_events(*rp))) {
		/* pass 2: replay to the event asked for */
		vs_replay_free(*rp);
		if (!(*rp = replay_to(o, side, mode, at)))
			return -1;
	}
	if (windowed && mode == AT_FRAME && (vs_replay_events(*rp) < first || vs_replay_events(*rp) > last)) {
		vs_cli_usage_error(CMD, "--frame %llu (event %llu) is outside the window (events %llu-%llu)",
			(unsigned long long)at, (unsigned long long)vs_replay_events(*rp), (unsigned long long)first,
			(unsigned long long)last);
		return -1;
	}
	if (!o->at_given && ended_empty(*rp)) {
		/* nothing is left at the end: the picture that says something
		 * is the fullest moment */
		at = vs_history_peak_live_event(hs, ai);
		mode = AT_EVENT;
		what = windowed ? "peak live bytes (its end is empty) in" : "peak live bytes (the end is empty)";
		join = " ";
		if (at < vs_replay_events(*rp)) {
			vs_replay_free(*rp);
			if (!(*rp = replay_to(o, side, mode, at)))
				return -1;
		}
	}
	so->occ_event = vs_replay_events(*rp);
	snprintf(title, sizeof title, "%s - %s - occupancy at %s%s%s", base_name(o->path), so->strategies, what,
		*win ? join : "", win);
	if (occupancy_of(*rp, hs, title, &so->occ, o->whole, o->colour_by)) {
		fprintf(stderr, "vramsim render: out of memory drawing %s\n", title);
		return -1;
	}
	return 0;
}

static int render_side(const render_opts *o, int side, side_out *so)
{
	vs_history *hs = vs_history_new(o->columns, o->rows);
	vs_replay *r;
	char title[512], win[64], err[512];
	const char *tname = base_name(o->path);
	int ai = 0, rc;
	double t0 = now();

	if (!hs) {
		fprintf(stderr, "vramsim render: out of memory\n");
		return -1;
	}
	vs_history_set_colour_by(hs, (vs_colour_by)o->colour_by);
	vs_history_set_window(hs, &o->window.win);
	/* pass 1: the whole replay, sampled for heatmap, chart, peaks, failures */
	r = open_side(o, side, hs, so->strategies, sizeof so->strategies);
	if (!r) {
		vs_history_free(hs);
		return -1;
	}
	if (o->arena) {
		ai = vs_trace_arena_index(vs_replay_header(r), o->arena);
		if (ai < 0) {
			vs_cli_usage_error("render", "--arena: the trace has no arena '%s'", o->arena);
			vs_replay_free(r);
			vs_history_free(hs);
			return -1;
		}
	}
	rc = vs_progress_replay(r, 0, "render", o->quiet);
	if (rc < 0 || vs_history_finish(hs, r)) {
		vs_history_free(hs);
		if (rc < 0)
			return replay_failed(r);
		/* it failed without a word: the history is columns x rows cells an arena */
		fprintf(stderr, "vramsim render: out of memory for the history of %d arenas (--columns x --rows cells "
			"each: give fewer)\n", vs_replay_arena_count(r));
		vs_replay_free(r);
		return -1;
	}
	if (vs_history_window_check(hs, err, sizeof err)) {
		vs_cli_usage_error(CMD, "%s", err);
		vs_replay_free(r);
		vs_history_free(hs);
		return -1;
	}
	vs_history_window_describe(hs, win, sizeof win);
	so->checks_failed = vs_replay_check_total(r) != 0;
	if (o->timing)
		fprintf(stderr, "render: side %d: replay of %llu events with sampling: %.3f s\n", side + 1,
			(unsigned long long)vs_replay_events(r), now() - t0);
	t0 = now();
	if (o->kinds & K_HEAT) {
		snprintf(title, sizeof title, "%s - %s - heatmap%s%s", tname, so->strategies, *win ? ", " : "", win);
		if (vs_picture_heatmap(&so->heat, hs, o->heat, title))
			goto nomem;
	}
	if (o->kinds & K_CHART) {
		snprintf(title, sizeof title, "%s - %s - chart%s%s", tname, so->strategies, *win ? ", " : "", win);
		if (vs_picture_chart(&so->chart, hs, title))
			goto nomem;
	}
	if (o->timing)
		fprintf(stderr, "render: side %d: heatmap and chart drawn: %.3f s\n", side + 1, now() - t0);
	rc = o->kinds & K_OCC ? occupancy_side(o, side, so, &r, hs, ai, win) : 0;
	vs_replay_free(r);
	vs_history_free(hs);
	return rc;
nomem:
	fprintf(stderr, "vramsim render: out of memory drawing %s\n", title);
	vs_replay_free(r);
	vs_history_free(hs);
	return -1;
}

static int write_png(vs_out_file *f, const vs_image *im)
{
	if (vs_png_write(f->fp, im) == 0)
		return 0;
	if (!ferror(f->fp)) /* a failed write is said when the file is finished, with its reason */
		fprintf(stderr, "vramsim render: PNG encoding of %s failed\n", f->path);
	return -1;
}

/* Whether s ends in suffix, letters in any case (x.PNG is a PNG name). */
static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix), i;

	if (a < b)
		return 0;
	for (i = 0; i < b; i++)
		if (tolower((unsigned char)s[a - b + i]) != tolower((unsigned char)suffix[i]))
			return 0;
	return 1;
}

/* Groups the --strategy choices into sides: a choice for an arena the
 * current side already has starts the next side. */
static int split_sides(render_opts *o)
{
	char err[1024];
	vs_trace_reader *rd = vs_trace_open(o->path, err, sizeof err);
	int rc;

	if (!rd) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	rc = vs_cli_choices_group(CMD, &o->cs, vs_trace_header_of(rd), 2, "side");
	vs_trace_close(rd);
	return rc ? -1 : 0;
}

static int kind_of(const char *s)
{
	static const char *const names[] = { "occupancy", "heatmap", "chart", "all" };
	static const int kinds[] = { K_OCC, K_HEAT, K_CHART, K_ALL };
	int i;

	for (i = 0; i < 4; i++)
		if (strcmp(s, names[i]) == 0)
			return kinds[i];
	return 0;
}

/* One option or operand into o: -1 to go on, or an exit status. */
static int take(void *ud, const vs_cli_parser *p, int c)
{
	render_opts *o = ud;
	uint64_t v;

	if (vs_cli_window_take(&o->window, p, c) != VS_CLI_NOT_SHARED)
		return -1;
	switch (c) {
	case 's':
		return vs_cli_choices_add(CMD, &o->cs, p->arg) ? VS_EXIT_USAGE : -1;
	case O_KIND:
		if (!(o->kinds = kind_of(p->arg)))
			return vs_cli_usage_error(CMD, "--kind: '%s' is not occupancy, heatmap, chart or all", p->arg);
		return -1;
	case O_AT:
	case O_FRAME:
		if (vs_cli_uint(p, c == O_AT, UINT64_MAX, &o->at))
			return VS_EXIT_USAGE;
		o->at_mode = c == O_AT ? AT_EVENT : AT_FRAME;
		o->at_given++;
		return -1;
	case O_PEAK:
	case O_PEAK_FRAG:
	case O_END:
		o->at_mode = c == O_PEAK ? AT_PEAK : c == O_PEAK_FRAG ? AT_PEAK_FRAG : AT_END;
		o->at_given++;
		return -1;
	case O_ARENA:
		o->arena = p->arg;
		return -1;
	case O_HEAT:
		if (strcmp(p->arg, "owner") != 0 && strcmp(p->arg, "occupancy") != 0)
			return vs_cli_usage_error(CMD, "--heat needs owner or occupancy");
		o->heat = strcmp(p->arg, "owner") == 0 ? VS_HEAT_OWNER : VS_HEAT_OCCUPANCY;
		return -1;
	case O_COLUMNS:
	case O_ROWS:
		if (vs_cli_uint(p, 4, 8192, &v))
			return VS_EXIT_USAGE;
		*(c == O_COLUMNS ? &o->columns : &o->rows) = (int)v;
		return -1;
	case 'o':
		if (!*p->arg)
			return vs_cli_usage_error(CMD, "--output needs a directory or a .png file");
		o->out = p->arg;
		return -1;
	case O_NO_CHECKS:
		o->no_checks = 1;
		return -1;
	case O_FULL_BYTES:
		o->full_bytes = 1;
		return -1;
	case O_WHOLE:
		o->whole = 1;
		return -1;
	case O_COLOUR_BY:
		if (vs_colour_by_parse(p->arg) < 0)
			return vs_cli_usage_error(CMD, "--colour-by takes tag, size, age or bpp (got '%s')", p->arg);
		o->colour_by = vs_colour_by_parse(p->arg);
		return -1;
	case 'q':
		o->quiet = 1;
		return -1;
	case O_TIME:
		o->timing = 1;
		return -1;
	}
	if (o->path)
		return vs_cli_usage_error(CMD, "one trace at a time (got '%s' and '%s')", o->path, p->arg);
	o->path = p->arg;
	return -1;
}

/* Whether the last part of path looks like a file's name: it has an
 * extension ("x.jpg"), and path does not end in '/'. */
static int file_like(const char *path)
{
	const char *base = strrchr(path, '/'), *dot;

	base = base ? base + 1 : path;
	dot = strrchr(base, '.');
	return *base && dot && dot > base && dot[1] != '\0';
}

/* The output: a .png for one kind, or a directory, made if missing (and
 * set in made, so a run that writes nothing can take it away again). */
static int check_output(const char *out, int single, int *made)
{
	char dir[4096];
	struct stat st;

	*made = 0;
	if (ends_with(out, ".png") && !single)
		return vs_cli_usage_error(CMD, "-o %s: a single .png needs one --kind (occupancy, heatmap or chart); "
			"give a directory for all three", out);
	if (single && ends_with(out, ".png"))
		return 0;
	if (stat(out, &st) == 0) {
		if (!S_ISDIR(st.st_mode))
			return vs_cli_usage_error(CMD, "-o %s: not a directory (a single picture needs one --kind and "
				"a .png name)", out);
		return 0;
	}
	if (file_like(out))
		return vs_cli_usage_error(CMD, "-o %s: no such directory, and a name with an extension is not made "
			"into one: render writes PNG (-o NAME.png with one --kind), or give a directory (end a new "
			"one's name in '/' when it holds a dot)", out);
	if (strlen(out) >= sizeof dir) {
		fprintf(stderr, "vramsim render: -o: the directory's name is too long\n");
		return VS_EXIT_USAGE;
	}
	memcpy(dir, out, strlen(out) + 1);
	if (vs_out_scratch_make(dir, 0, NULL) != 0) {
		char shown[512];
		vs_text_escape(shown, sizeof shown, out, strlen(out), 0);
		fprintf(stderr, "vramsim render: cannot make directory %s: %s\n", shown, strerror(errno));
		return VS_EXIT_USAGE;
	}
	*made = 1; /* a signal before the pictures are in takes it away again */
	return 0;
}

static int parse(int argc, char **argv, render_opts *o)
{
	int rc = vs_cli_parse(&command, argc, argv, take, o);

	if (rc >= 0)
		return rc;
	if (!o->path)
		return vs_cli_usage_error(CMD, "no trace given");
	if (vs_cli_rereadable(CMD, o->path, "render reads its trace twice or more"))
		return VS_EXIT_USAGE;
	if (o->at_given > 1)
		return vs_cli_usage_error(CMD, "give one of --at, --frame, --peak, --peak-frag, --end");
	if (o->at_given && !(o->kinds & K_OCC))
		return vs_cli_usage_error(CMD, "--at, --frame, --peak and --end choose the occupancy picture's event; "
			"--kind %s draws the whole replay (or the --from/--to window)", o->kinds == K_HEAT ? "heatmap" :
			"chart");
	if (vs_cli_window_parse(&o->window, CMD))
		return VS_EXIT_USAGE;
	return vs_cli_choices_split(CMD, &o->cs) ? VS_EXIT_USAGE : -1;
}

static const char *const kind_names[3] = { "occupancy", "heatmap", "chart" };
static const int kind_bits[3] = { K_OCC, K_HEAT, K_CHART };

/* The path of each kind of picture asked for, in paths[0..2] (NULL for
 * kinds not drawn). -1 after a message when a path would be too long. */
static int picture_paths(const render_opts *o, const char *out, int single, char paths[3][VS_OUT_PATH_MAX])
{
	const char *b = base_name(o->path);
	size_t bl = strlen(b), ol = strlen(out);
	int k, n;

	if (bl > 6 && strcmp(b + bl - 6, ".trace") == 0)
		bl -= 6;
	while (ol > 1 && out[ol - 1] == '/')
		ol--; /* "out/" and "out" name the same directory: no "out//x.png" */
	for (k = 0; k < 3; k++) {
		paths[k][0] = '\0';
		if (!(o->kinds & kind_bits[k]))
			continue;
		if (single)
			n = snprintf(paths[k], VS_OUT_PATH_MAX, "%s", out);
		else
			n = snprintf(paths[k], VS_OUT_PATH_MAX, "%.*s%s%.*s-%s.png", (int)ol, out,
				ol == 1 && out[0] == '/' ? "" : "/", (int)bl, b, kind_names[k]);
		if (n < 0 || n >= VS_OUT_PATH_MAX) {
			fprintf(stderr, "vramsim render: the output path for the %s picture would be longer than %d bytes\n",
				kind_names[k], VS_OUT_PATH_MAX - 1);
			return -1;
		}
	}
	return 0;
}

/* Writes each kind of picture: one side's, or both sides' side by side;
 * all of them or none. */
static int write_pictures(const render_opts *o, side_out *so, vs_out_file *f, int nf)
{
	int k, s, i = 0, nsides = o->cs.ngroups, ok = 1;

	for (k = 0; k < 3 && ok; k++) {
		vs_image *im[2], both;
		if (!(o->kinds & kind_bits[k]))
			continue;
		for (s = 0; s < nsides; s++)
			im[s] = k == 0 ? &so[s].occ : k == 1 ? &so[s].heat : &so[s].chart;
		if (nsides == 2) {
			if (vs_picture_hcat(&both, im[0], im[1])) {
				fprintf(stderr, "vramsim render: out of memory\n");
				ok = 0;
				break;
			}
			ok = write_png(&f[i], &both) == 0;
			vs_image_fini(&both);
		} else {
			ok = write_png(&f[i], im[0]) == 0;
		}
		i++;
	}
	if (vs_cli_outs_close(f, nf, ok))
		return -1;
	for (k = 0; k < nf; k++) {
		/* a path holds any bytes a file name does: one line each */
		char shown[4 * VS_OUT_PATH_MAX + 1];
		vs_text_escape(shown, sizeof shown, f[k].path, strlen(f[k].path), 0);
		printf("wrote %s\n", shown);
	}
	return 0;
}

static int render(render_opts *o, side_out *so)
{
	static vs_out_file files[3];
	char paths[3][VS_OUT_PATH_MAX];
	const char *open[3];
	int s, k, nf = 0, made, status = VS_EXIT_OK;
	int single = o->kinds == K_OCC || o->kinds == K_HEAT || o->kinds == K_CHART;
	double t0 = now(), tw;

	if (check_output(o->out, single, &made))
		return VS_EXIT_USAGE;
	/* every output is checked before the replay: one that cannot be
	 * written stops the run before anything is drawn */
	if (picture_paths(o, o->out, single && ends_with(o->out, ".png"), paths))
		goto fail;
	for (k = 0; k < 3; k++)
		if (paths[k][0]) {
			char err[1024];
			if (vs_out_check(paths[k], err, sizeof err)) {
				fprintf(stderr, "vramsim render: %s\n", err);
				goto fail;
			}
			open[nf++] = paths[k];
		}
	if (split_sides(o))
		goto fail;
	for (s = 0; s < o->cs.ngroups; s++)
		if (render_side(o, s, &so[s]))
			goto fail;
	tw = now();
	if (vs_cli_outs_open(files, open, nf) || write_pictures(o, so, files, nf))
		goto fail;
	if (o->timing)
		fprintf(stderr, "render: PNG encoding and writing: %.3f s\n", now() - tw);
	for (s = 0; s < o->cs.ngroups; s++)
		if (so[s].checks_failed)
			status = VS_EXIT_CHECK;
	if (o->timing)
		fprintf(stderr, "render: total %.3f s\n", now() - t0);
	if (made)
		vs_out_scratch_remove(o->out); /* the pictures' folder now */
	return status;
fail:
	if (made) {
		vs_out_scratch_remove(o->out);
		rmdir(o->out); /* made for this run, and left empty */
	}
	return VS_EXIT_USAGE;
}

int vs_cmd_render(int argc, char **argv)
{
	render_opts o;
	side_out so[2];
	int s, status;

	memset(&o, 0, sizeof o);
	memset(so, 0, sizeof so);
	o.kinds = K_ALL;
	o.out = ".";
	status = parse(argc, argv, &o);
	if (status < 0)
		status = render(&o, so);
	for (s = 0; s < 2; s++) {
		vs_image_fini(&so[s].occ);
		vs_image_fini(&so[s].heat);
		vs_image_fini(&so[s].chart);
	}
	vs_cli_choices_free(&o.cs);
	return status;
}

