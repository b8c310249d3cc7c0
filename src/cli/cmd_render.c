/* SPDX-License-Identifier: Zlib */
/* cmd_render.c - `vramsim render`: occupancy maps, heatmaps and charts as PNG. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"

#ifdef VS_HAVE_RENDER
#include "vramsim/render.h"

static void help(void)
{
	printf(
		"usage: vramsim render TRACE [options]\n"
		"\n"
		"Replays TRACE and writes PNG pictures of it: the occupancy of every arena\n"
		"laid out like the hardware, a heatmap of the whole replay (time on x,\n"
		"address on y) and a chart of live bytes, largest free extent and\n"
		"fragmentation over time. The same input gives the same PNG bytes.\n"
		"\n"
		"options:\n"
		"  --strategy NAME[:OPTS]        strategy for every arena it can manage\n"
		"  --strategy ARENA=NAME[:OPTS]  strategy for one arena (as in 'vramsim replay')\n"
		"                                a --strategy for an arena an earlier one already\n"
		"                                chose starts a second replay, drawn side by side:\n"
		"                                --strategy A --strategy B compares A with B\n"
		"  --plugin PATH                 load strategies from a plug-in (.so)\n"
		"  --kind KIND                   occupancy, heatmap, chart or all (default all)\n"
		"  --at N                        occupancy after event N\n"
		"  --frame N                     occupancy after the N-th frame statement\n"
		"  --peak                        occupancy at the event of peak live bytes\n"
		"  --peak-frag                   occupancy at the event of peak fragmentation\n"
		"  --end                         occupancy at the end of the trace (default)\n"
		"  --arena NAME                  the arena --peak and --peak-frag look at\n"
		"                                (default: the first)\n"
		"  --heat owner|occupancy        heatmap colour: owner's tag (default) or the\n"
		"                                fraction of each address row in use\n"
		"  --columns N, --rows N         heatmap/chart resolution kept while replaying\n"
		"                                (default 1024 columns, 256 address rows)\n"
		"  -o, --output PATH             a directory (made if missing) for\n"
		"                                TRACE-occupancy.png, TRACE-heatmap.png and\n"
		"                                TRACE-chart.png, or with one --kind a .png file\n"
		"                                (default: the current directory)\n"
		"  --no-checks                   skip byte and hardware-rule checks (faster)\n"
		"  --quiet                       do not print diagnostics\n"
		"  --time                        print how long each step took to stderr\n"
		"\n"
		"exit: 0 written, 1 written but an integrity check failed, 2 bad usage, a\n"
		"malformed trace or an output that cannot be written (nothing is left behind).\n");
}

enum { K_OCC = 1, K_HEAT = 2, K_CHART = 4, K_ALL = 7 };
enum { AT_END = 0, AT_EVENT, AT_FRAME, AT_PEAK, AT_PEAK_FRAG };

typedef struct render_opts {
	const char *path;
	vs_cli_strategies side[2];
	int nsides;
	int kinds;
	int at_mode;
	uint64_t at;
	const char *arena;
	vs_heat_mode heat;
	int columns, rows;
	int no_checks, quiet, timing;
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
	int i;

	vs_replay_config_default(&cfg);
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
	if (vs_cli_apply_strategies(&o->side[side], vs_trace_header_of(rd), &cfg, opts, err, sizeof err)) {
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

static int occupancy_of(vs_replay *r, const vs_history *hs, const char *title, vs_image *out)
{
	vs_render_src src[VS_TRACE_MAX_ARENAS];
	int i, n = vs_replay_arena_count(r);

	for (i = 0; i < n; i++)
		vs_render_src_replay(&src[i], r, i);
	return vs_picture_occupancy(out, src, n, title, hs);
}

static int render_side(const render_opts *o, int side, side_out *so)
{
	vs_history *hs = vs_history_new(o->columns, o->rows);
	vs_replay *r;
	char title[512];
	const char *tname = base_name(o->path);
	int ai = 0, rc;
	double t0 = now();

	if (!hs) {
		fprintf(stderr, "vramsim render: out of memory\n");
		return -1;
	}
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
	rc = vs_replay_run(r, 0);
	if (rc < 0 || vs_history_finish(hs, r)) {
		vs_history_free(hs);
		return rc < 0 ? replay_failed(r) : (vs_replay_free(r), -1);
	}
	so->checks_failed = vs_replay_check_total(r) != 0;
	if (o->timing)
		fprintf(stderr, "render: side %d: replay of %llu events with sampling: %.3f s\n", side + 1,
			(unsigned long long)vs_replay_events(r), now() - t0);
	t0 = now();
	if (o->kinds & K_HEAT) {
		snprintf(title, sizeof title, "%s - %s - heatmap", tname, so->strategies);
		if (vs_picture_heatmap(&so->heat, hs, o->heat, title))
			goto nomem;
	}
	if (o->kinds & K_CHART) {
		snprintf(title, sizeof title, "%s - %s - chart", tname, so->strategies);
		if (vs_picture_chart(&so->chart, hs, title))
			goto nomem;
	}
	if (o->timing)
		fprintf(stderr, "render: side %d: heatmap and chart drawn: %.3f s\n", side + 1, now() - t0);
	if (o->kinds & K_OCC) {
		uint64_t at = o->at;
		int mode = o->at_mode;
		const char *what = "end";
		char whatbuf[64];
		if (mode == AT_PEAK) {
			at = vs_history_peak_live_event(hs, ai);
			mode = AT_EVENT;
			what = "peak live bytes";
		} else if (mode == AT_PEAK_FRAG) {
			at = vs_history_peak_frag_event(hs, ai);
			mode = AT_EVENT;
			what = "peak fragmentation";
		} else if (mode == AT_EVENT) {
			snprintf(whatbuf, sizeof whatbuf, "event %llu", (unsigned long long)at);
			what = whatbuf;
		} else if (mode == AT_FRAME) {
			snprintf(whatbuf, sizeof whatbuf, "frame %llu", (unsigned long long)at);
			what = whatbuf;
		}
		if (mode == AT_EVENT && at == 0) {
			/* the peak of an empty trace, or at event 0: the state before any event */
			mode = AT_EVENT;
		}
		if (mode != AT_END && !(mode == AT_EVENT && at >= vs_replay_events(r))) {
			/* pass 2: replay to the event asked for */
			vs_replay_free(r);
			r = open_side(o, side, NULL, NULL, 0);
			if (!r) {
				vs_history_free(hs);
				return -1;
			}
			if (!(mode == AT_EVENT && at == 0) && run_to(r, mode, at) < 0) {
				vs_history_free(hs);
				return replay_failed(r);
			}
		}
		if (mode == AT_EVENT && at > vs_history_events(hs))
			fprintf(stderr, "vramsim render: the trace ends after event %llu, before event %llu\n",
				(unsigned long long)vs_history_events(hs), (unsigned long long)at);
		if (mode == AT_FRAME && vs_replay_frames(r) < at)
			fprintf(stderr, "vramsim render: the trace has %llu frames, fewer than %llu\n",
				(unsigned long long)vs_replay_frames(r), (unsigned long long)at);
		so->occ_event = vs_replay_events(r);
		snprintf(title, sizeof title, "%s - %s - occupancy at %s", tname, so->strategies, what);
		if (occupancy_of(r, hs, title, &so->occ))
			goto nomem;
	}
	vs_replay_free(r);
	vs_history_free(hs);
	return 0;
nomem:
	fprintf(stderr, "vramsim render: out of memory drawing %s\n", title);
	vs_replay_free(r);
	vs_history_free(hs);
	return -1;
}

static int write_png(const char *path, const vs_image *im)
{
	char tmp[4200];
	FILE *fp = vs_cli_out_open(path, tmp, sizeof tmp);
	int ok;

	if (!fp)
		return -1;
	ok = vs_png_write(fp, im) == 0;
	if (!ok)
		fprintf(stderr, "vramsim render: PNG encoding of %s failed\n", path);
	return vs_cli_out_close(fp, path, tmp, ok);
}

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* Splits the --strategy options into sides: a choice for an arena the
 * current side already has starts the next side. */
static int split_sides(render_opts *o, const vs_cli_strategies *all)
{
	char err[1024];
	vs_trace_reader *rd = vs_trace_open(o->path, err, sizeof err);
	const vs_trace_header *h;
	int taken[VS_TRACE_MAX_ARENAS] = { 0 }, k, i, side = 0;

	if (!rd) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	h = vs_trace_header_of(rd);
	memset(o->side, 0, sizeof o->side);
	for (k = 0; k < all->n; k++) {
		vs_cli_strategies one;
		vs_replay_config cfg;
		char opts[VS_TRACE_MAX_ARENAS][VS_OPTIONS_MAX];
		int clash = 0;
		memset(&one, 0, sizeof one);
		one.n = 1;
		memcpy(one.spec[0], all->spec[k], sizeof one.spec[0]);
		vs_replay_config_default(&cfg);
		if (vs_cli_apply_strategies(&one, h, &cfg, opts, err, sizeof err)) {
			vs_trace_close(rd);
			vs_cli_usage_error("render", "%s", err);
			return -1;
		}
		for (i = 0; i < h->narenas; i++)
			clash |= cfg.strategy[i] && taken[i];
		if (clash) {
			if (side == 1) {
				vs_trace_close(rd);
				vs_cli_usage_error("render", "--strategy %s: at most two strategies per arena (two sides)",
					all->spec[k]);
				return -1;
			}
			side = 1;
			memset(taken, 0, sizeof taken);
		}
		for (i = 0; i < h->narenas; i++)
			taken[i] |= cfg.strategy[i] != NULL;
		memcpy(o->side[side].spec[o->side[side].n++], all->spec[k], sizeof one.spec[0]);
	}
	o->nsides = side + 1;
	vs_trace_close(rd);
	return 0;
}

static int parse_count(const char *opt, const char *s, uint64_t *out)
{
	char *end;

	if (!s || s[0] == '-' || !*s) {
		vs_cli_usage_error("render", "%s needs a number", opt);
		return -1;
	}
	errno = 0;
	*out = strtoull(s, &end, 10);
	if (*end || errno) {
		vs_cli_usage_error("render", "%s: '%s' is not a number", opt, s);
		return -1;
	}
	return 0;
}

int vs_cmd_render(int argc, char **argv)
{
	render_opts o;
	vs_cli_strategies all;
	side_out so[2];
	const char *out = ".";
	int i, status = VS_EXIT_OK, single, s, at_given = 0;
	uint64_t v;
	char path[4096];
	double t0 = now();

	memset(&o, 0, sizeof o);
	memset(&all, 0, sizeof all);
	memset(so, 0, sizeof so);
	o.kinds = K_ALL;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *next = i + 1 < argc ? argv[i + 1] : NULL;
		int c = vs_cli_common_option("render", argc, argv, &i);
		if (c < 0)
			return VS_EXIT_USAGE;
		if (c > 0)
			continue;
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			help();
			return VS_EXIT_OK;
		} else if (strcmp(a, "--strategy") == 0 || strcmp(a, "-s") == 0) {
			if (!next)
				return vs_cli_usage_error("render", "--strategy needs a name");
			if (all.n == 32)
				return vs_cli_usage_error("render", "too many --strategy options");
			snprintf(all.spec[all.n++], sizeof all.spec[0], "%s", next);
			i++;
		} else if (strcmp(a, "--kind") == 0) {
			if (!next)
				return vs_cli_usage_error("render", "--kind needs occupancy, heatmap, chart or all");
			if (strcmp(next, "occupancy") == 0)
				o.kinds = K_OCC;
			else if (strcmp(next, "heatmap") == 0)
				o.kinds = K_HEAT;
			else if (strcmp(next, "chart") == 0)
				o.kinds = K_CHART;
			else if (strcmp(next, "all") == 0)
				o.kinds = K_ALL;
			else
				return vs_cli_usage_error("render", "--kind: '%s' is not occupancy, heatmap, chart or all", next);
			i++;
		} else if (strcmp(a, "--at") == 0 || strcmp(a, "--frame") == 0) {
			if (parse_count(a, next, &v))
				return VS_EXIT_USAGE;
			if (strcmp(a, "--at") == 0 && v == 0)
				return vs_cli_usage_error("render", "--at: events are numbered from 1");
			o.at_mode = strcmp(a, "--at") == 0 ? AT_EVENT : AT_FRAME;
			o.at = v;
			at_given++;
			i++;
		} else if (strcmp(a, "--peak") == 0) {
			o.at_mode = AT_PEAK;
			at_given++;
		} else if (strcmp(a, "--peak-frag") == 0) {
			o.at_mode = AT_PEAK_FRAG;
			at_given++;
		} else if (strcmp(a, "--end") == 0) {
			o.at_mode = AT_END;
			at_given++;
		} else if (strcmp(a, "--arena") == 0) {
			if (!next)
				return vs_cli_usage_error("render", "--arena needs a name");
			o.arena = next;
			i++;
		} else if (strcmp(a, "--heat") == 0) {
			if (next && strcmp(next, "owner") == 0)
				o.heat = VS_HEAT_OWNER;
			else if (next && strcmp(next, "occupancy") == 0)
				o.heat = VS_HEAT_OCCUPANCY;
			else
				return vs_cli_usage_error("render", "--heat needs owner or occupancy");
			i++;
		} else if (strcmp(a, "--columns") == 0 || strcmp(a, "--rows") == 0) {
			if (parse_count(a, next, &v))
				return VS_EXIT_USAGE;
			if (v < 4 || v > 8192)
				return vs_cli_usage_error("render", "%s: %llu is outside 4-8192", a, (unsigned long long)v);
			if (strcmp(a, "--columns") == 0)
				o.columns = (int)v;
			else
				o.rows = (int)v;
			i++;
		} else if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
			if (!next || !*next)
				return vs_cli_usage_error("render", "%s needs a directory or a .png file", a);
			out = next;
			i++;
		} else if (strcmp(a, "--no-checks") == 0) {
			o.no_checks = 1;
		} else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
			o.quiet = 1;
		} else if (strcmp(a, "--time") == 0) {
			o.timing = 1;
		} else if (a[0] == '-' && a[1]) {
			return vs_cli_usage_error("render", "unknown option '%s'", a);
		} else if (!o.path) {
			o.path = a;
		} else {
			return vs_cli_usage_error("render", "one trace at a time (got '%s' and '%s')", o.path, a);
		}
	}
	if (!o.path)
		return vs_cli_usage_error("render", "no trace given");
	if (strcmp(o.path, "-") == 0)
		return vs_cli_usage_error("render", "render reads its trace twice or more: give a file, not '-'");
	if (at_given > 1)
		return vs_cli_usage_error("render", "give one of --at, --frame, --peak, --peak-frag, --end");
	if (at_given && !(o.kinds & K_OCC))
		return vs_cli_usage_error("render", "--at, --frame, --peak and --end choose the occupancy picture's event; "
			"--kind %s draws the whole replay", o.kinds == K_HEAT ? "heatmap" : "chart");
	single = o.kinds == K_OCC || o.kinds == K_HEAT || o.kinds == K_CHART;
	if (ends_with(out, ".png") && !single)
		return vs_cli_usage_error("render", "-o %s: a single .png needs one --kind (occupancy, heatmap or chart); "
			"give a directory for all three", out);
	if (!ends_with(out, ".png")) {
		struct stat st;
		if (stat(out, &st) != 0) {
			if (mkdir(out, 0777) != 0) {
				fprintf(stderr, "vramsim render: cannot make directory %s: %s\n", out, strerror(errno));
				return VS_EXIT_USAGE;
			}
		} else if (!S_ISDIR(st.st_mode)) {
			return vs_cli_usage_error("render", "-o %s: not a directory (a single picture needs a .png name)", out);
		}
	}
	if (split_sides(&o, &all))
		return VS_EXIT_USAGE;

	for (s = 0; s < o.nsides; s++)
		if (render_side(&o, s, &so[s])) {
			status = VS_EXIT_USAGE;
			goto done;
		}
	{
		static const char *const names[3] = { "occupancy", "heatmap", "chart" };
		static const int bits[3] = { K_OCC, K_HEAT, K_CHART };
		char stem[1024];
		const char *b = base_name(o.path);
		size_t bl = strlen(b);
		int k;
		double tw = now();
		if (bl > 6 && strcmp(b + bl - 6, ".trace") == 0)
			bl -= 6;
		snprintf(stem, sizeof stem, "%.*s", (int)(bl < 900 ? bl : 900), b);
		for (k = 0; k < 3; k++) {
			vs_image *im[2], both;
			int rc;
			if (!(o.kinds & bits[k]))
				continue;
			for (s = 0; s < o.nsides; s++)
				im[s] = k == 0 ? &so[s].occ : k == 1 ? &so[s].heat : &so[s].chart;
			if (single)
				snprintf(path, sizeof path, "%s", out);
			else
				snprintf(path, sizeof path, "%s/%s-%s.png", out, stem, names[k]);
			if (o.nsides == 2) {
				if (vs_picture_hcat(&both, im[0], im[1])) {
					fprintf(stderr, "vramsim render: out of memory\n");
					status = VS_EXIT_USAGE;
					goto done;
				}
				rc = write_png(path, &both);
				vs_image_fini(&both);
			} else {
				rc = write_png(path, im[0]);
			}
			if (rc) {
				status = VS_EXIT_USAGE;
				goto done;
			}
			printf("wrote %s\n", path);
		}
		if (o.timing)
			fprintf(stderr, "render: PNG encoding and writing: %.3f s\n", now() - tw);
	}
	for (s = 0; s < o.nsides; s++)
		if (so[s].checks_failed)
			status = VS_EXIT_CHECK;
	if (o.timing)
		fprintf(stderr, "render: total %.3f s\n", now() - t0);
done:
	for (s = 0; s < 2; s++) {
		vs_image_fini(&so[s].occ);
		vs_image_fini(&so[s].heat);
		vs_image_fini(&so[s].chart);
	}
	return status;
}

#else

int vs_cmd_render(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "vramsim render: this build has no renderer (libpng was not found)\n");
	return VS_EXIT_USAGE;
}

#endif
