/* SPDX-License-Identifier: Zlib */
/* cmd_view.c - `vramsim view`: the live SDL2 viewer (docs/viewer.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/out_file.h"
#include "cli/cli.h"

#include "viewer/viewer.h"

#define CMD "view"

enum { O_SIZE = VS_CLI_LONG, O_SHOTS, O_SCRIPT, O_LOG, O_NO_VSYNC, O_PRESENT, O_CHECK_REDRAW, O_NO_CHECKS };

static const vs_cli_opt options[] = {
	{ "strategy", 's', "SPEC", "strategies, a comma list of NAME[:OPTS] (every arena "
		"NAME can manage) or ARENA=NAME[:OPTS] (one arena), as in "
		"'vramsim replay'; repeatable. A choice for an arena an "
		"earlier one already covers starts the second side: "
		"-s A,B (or -s A -s B) shows A and B side by side, "
		"-s obj=gba-obj-buddy,bg=gba-bg-tiles is one side" },
	{ "plugin", VS_CLI_PLUGIN, "PATH", "load strategies from a plug-in (.so)" },
	{ "size", O_SIZE, "WxH", "window size (default 1280x800)" },
	{ "shots", O_SHOTS, "DIR", "where the screenshot key writes PNGs (default .)" },
	{ "script", O_SCRIPT, "FILE", "run scripted input (docs/viewer.md), then close" },
	{ "log", O_LOG, "FILE", "timings and script output (default standard output)" },
	{ "no-vsync", O_NO_VSYNC, NULL, "do not wait for the display (frame cap 60 per second)" },
	{ "present", O_PRESENT, "HOW", "auto (default), texture (an SDL renderer) or framebuffer "
		"(the window's own, sending only what changed; what auto "
		"picks when OpenGL would be drawn by the CPU, e.g. Xvfb)" },
	{ "check-redraw", O_CHECK_REDRAW, NULL, "(tests) also draw every frame in full and compare" },
	{ "no-checks", O_NO_CHECKS, NULL, "skip byte and hardware-rule checks (records faster)" },
	{ "quiet", 'q', NULL, "do not print diagnostics" },
	{ NULL, 0, NULL, NULL }
};

static const vs_cli_cmd command = {
	CMD, "view TRACE [--strategy SPEC]... [options]",
	"Plays TRACE in a window: every arena laid out like the hardware, coloured by\n"
	"owner tag, with charts of live bytes, largest free extent and fragmentation,\n"
	"a timeline to seek on (zoom and pan it), hover details for every unit, go to\n"
	"frame N, find the allocs and frees of a tag or id, and a list of every failed\n"
	"request. With choices for two sides (see --strategy) the two are shown side\n"
	"by side, in step; the window title names the trace and each side's\n"
	"strategies. Press ? in the window for the keys.\n",
	options,
	"Headless: SDL_VIDEODRIVER=offscreen (or dummy) with --script. Without --script\n"
	"and with no display (DISPLAY and WAYLAND_DISPLAY unset, SDL unable to start\n"
	"video, or a driver that shows nothing) it exits 2 saying so.\n"
	"A script's screenshots and its --log appear together when it ran to its end\n"
	"(exit 0 or 1); a screenshot or a log that cannot be written stops it (exit 2,\n"
	"the path and why, and the script's line for a screenshot, on standard error)\n"
	"and none of them is made.\n"
	"exit: 0 closed, 1 a script expectation failed, 2 usage or input error, no\n"
	"display, or a screenshot or the log that could not be written.\n",
	NULL, 0
};

static void quiet_message(void *ud, const char *line)
{
	(void)ud;
	(void)line;
}

typedef struct view_args {
	const char *path, *log_path;
	vs_cli_choices cs;
	int quiet, no_checks;
	vs_viewer_opts *vo;
} view_args;

static int window_size(const char *s, vs_viewer_opts *vo)
{
	const char *x = strchr(s, 'x');
	char w[16];
	uint64_t a, b;

	if (!x || (size_t)(x - s) >= sizeof w)
		return -1;
	memcpy(w, s, (size_t)(x - s));
	w[x - s] = '\0';
	if (vs_cli_parse_uint(w, 0, &a) || vs_cli_parse_uint(x + 1, 0, &b) || a < 160 || b < 120 || a > 8192 ||
		b > 8192)
		return -1;
	vo->width = (int)a;
	vo->height = (int)b;
	return 0;
}

static int present_mode(const char *s)
{
	static const char *const modes[] = { "auto", "texture", "framebuffer" };
	int i;

	for (i = 0; i < 3; i++)
		if (strcmp(s, modes[i]) == 0)
			return i;
	return -1;
}

/* One option or operand: -1 to go on, or an exit status. */
static int take(void *ud, const vs_cli_parser *p, int c)
{
	view_args *a = ud;
	vs_viewer_opts *vo = a->vo;
	char *plus;

	switch (c) {
	case 's':
		/* '+' joined one side's choices before ',' did: still read (optarg
		 * points into argv, which may be written) */
		while ((plus = strchr(p->arg, '+')) != NULL)
			*plus = ',';
		return vs_cli_choices_add(CMD, &a->cs, p->arg) ? VS_EXIT_USAGE : -1;
	case O_SIZE:
		return window_size(p->arg, vo) ? vs_cli_usage_error(CMD, "--size needs WxH, 160x120 to 8192x8192") : -1;
	case O_SHOTS:
		/* DIR/vramsim-view-NNNN.png must fit the viewer's paths: never cut */
		if (strlen(p->arg) > 1000)
			return vs_cli_usage_error(CMD, "--shots: a directory path of at most 1000 bytes");
		vo->shot_dir = p->arg;
		return -1;
	case O_SCRIPT:
		vo->script = p->arg;
		return -1;
	case O_LOG:
		a->log_path = p->arg;
		return -1;
	case O_NO_VSYNC:
		vo->no_vsync = 1;
		return -1;
	case O_PRESENT:
		if ((vo->present = present_mode(p->arg)) < 0)
			return vs_cli_usage_error(CMD, "--present is auto, texture or framebuffer, not '%s'", p->arg);
		return -1;
	case O_CHECK_REDRAW:
		vo->check_redraw = 1;
		return -1;
	case O_NO_CHECKS:
		a->no_checks = 1;
		return -1;
	case 'q':
		a->quiet = 1;
		return -1;
	}
	if (a->path)
		return vs_cli_usage_error(CMD, "one trace at a time (got '%s' and '%s')", a->path, p->arg);
	a->path = p->arg;
	return -1;
}

static int parse(int argc, char **argv, view_args *a)
{
	int rc = vs_cli_parse(&command, argc, argv, take, a);

	if (rc >= 0)
		return rc;
	if (!a->path)
		return vs_cli_usage_error(CMD, "no trace given");
	if (vs_cli_rereadable(CMD, a->path, "the viewer reads the trace once per side"))
		return VS_EXIT_USAGE;
	return vs_cli_choices_split(CMD, &a->cs) ? VS_EXIT_USAGE : -1;
}

/* One replay configuration per side, from the grouped choices. */
static int set_sides(view_args *a, vs_viewer_opts *vo)
{
	static char opts[VS_VIEW_MAX_SIDES][VS_TRACE_MAX_ARENAS][VS_OPTIONS_MAX];
	char err[1024];
	vs_trace_reader *rd = vs_trace_open(a->path, err, sizeof err);
	const vs_trace_header *h;
	int s, n;

	if (!rd) {
		fprintf(stderr, "%s\n", err);
		return VS_EXIT_USAGE;
	}
	h = vs_trace_header_of(rd);
	if (vs_cli_choices_group(CMD, &a->cs, h, VS_VIEW_MAX_SIDES, "side")) {
		vs_trace_close(rd);
		return VS_EXIT_USAGE;
	}
	vo->nsides = a->cs.ngroups;
	for (s = 0; s < vo->nsides; s++) {
		vs_replay_config *cfg = &vo->cfg[s];
		const vs_cmp_choice *v = vs_cli_choices_of(&a->cs, s, &n);
		vs_replay_config_default(cfg);
		if (a->quiet)
			cfg->message = quiet_message;
		if (a->no_checks)
			cfg->check_bytes = cfg->check_rules = 0;
		vs_cli_choices_label(v, n, vo->label[s], sizeof vo->label[s]);
		if (vs_cli_apply_choices(v, n, h, cfg, opts[s], err, sizeof err)) {
			vs_trace_close(rd);
			return vs_cli_usage_error(CMD, "%s", err);
		}
	}
	vs_trace_close(rd);
	return -1;
}

/* The log and a script's screenshots are made together, when the run
 * succeeded (0 or 1), or none of them (docs/viewer.md). */
static int view(view_args *a, vs_viewer_opts *vo)
{
	static vs_viewer_outs outs;
	char err[1024 + VS_OUT_PATH_MAX];
	int rc;

	vo->trace = a->path;
	if ((rc = set_sides(a, vo)) >= 0)
		return rc;
	memset(&outs, 0, sizeof outs);
	vo->outs = &outs;
	if (a->log_path) {
		if (vs_out_open(&outs.f[0], a->log_path, err, sizeof err) != 0) {
			fprintf(stderr, "vramsim view: %s\n", err);
			return VS_EXIT_USAGE;
		}
		vo->log = &outs.f[outs.n++];
	}
	rc = vs_viewer_run(vo, err, sizeof err);
	if (rc != 2 && ((vo->log && vs_out_finish(vo->log, 1, err, sizeof err) != 0) ||
		vs_out_commit(outs.f, outs.n, err, sizeof err) != 0))
		rc = 2;
	vo->log = NULL;
	if (rc == 2) {
		vs_out_abort(outs.f, outs.n);
		fprintf(stderr, "vramsim view: %s\n", err);
		return VS_EXIT_USAGE;
	}
	return rc == 1 ? VS_EXIT_CHECK : VS_EXIT_OK;
}

int vs_cmd_view(int argc, char **argv)
{
	static vs_viewer_opts vo;
	view_args a;
	int status;

	memset(&vo, 0, sizeof vo);
	memset(&a, 0, sizeof a);
	a.vo = &vo;
	status = parse(argc, argv, &a);
	if (status < 0)
		status = view(&a, &vo);
	vs_cli_choices_free(&a.cs);
	return status;
}

