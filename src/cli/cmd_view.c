/* SPDX-License-Identifier: Zlib */
/* cmd_view.c - `vramsim view`: the live SDL2 viewer (docs/viewer.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#ifdef VS_HAVE_VIEWER
#include "vramsim/viewer.h"

static void help(void)
{
	printf(
		"usage: vramsim view TRACE [--strategy SPEC [--strategy SPEC]] [options]\n"
		"\n"
		"Plays TRACE in a window: every arena laid out like the hardware, coloured by\n"
		"owner tag, with charts of live bytes, largest free extent and fragmentation,\n"
		"a timeline to seek on, and hover details for every unit. With two --strategy\n"
		"options the two are shown side by side, in step. Press ? in the window for\n"
		"the keys.\n"
		"\n"
		"options:\n"
		"  --strategy SPEC       one side: NAME[:OPTS] for every arena it can manage, or\n"
		"                        ARENA=NAME[:OPTS]; several choices for one side are\n"
		"                        joined with '+' (obj=gba-obj-buddy+bg=gba-bg-tiles)\n"
		"  --plugin PATH         load strategies from a plug-in (.so)\n"
		"  --size WxH            window size (default 1280x800)\n"
		"  --shots DIR           where the screenshot key writes PNGs (default .)\n"
		"  --script FILE         run scripted input (docs/viewer.md), then close\n"
		"  --log FILE            timings and script output (default standard output)\n"
		"  --no-vsync            do not wait for the display (frame cap 60 per second)\n"
		"  --present HOW         auto (default), texture (an SDL renderer) or framebuffer\n"
		"                        (the window's own, sending only what changed; what auto\n"
		"                        picks when OpenGL would be drawn by the CPU, e.g. Xvfb)\n"
		"  --check-redraw        (tests) also draw every frame in full and compare\n"
		"  --no-checks           skip byte and hardware-rule checks (records faster)\n"
		"  --quiet               do not print diagnostics\n"
		"\n"
		"Headless: SDL_VIDEODRIVER=offscreen (or dummy) with --script.\n"
		"exit: 0 closed, 1 a script expectation failed, 2 usage or input error.\n");
}

static void quiet_message(void *ud, const char *line)
{
	(void)ud;
	(void)line;
}

int vs_cmd_view(int argc, char **argv)
{
	const char *path = NULL, *log_path = NULL;
	char specs[VS_VIEW_MAX_SIDES][160];
	static char opts[VS_VIEW_MAX_SIDES][VS_TRACE_MAX_ARENAS][VS_OPTIONS_MAX];
	static vs_viewer_opts vo;
	vs_cli_strategies cs;
	vs_trace_reader *rd;
	char err[1024];
	int nspecs = 0, quiet = 0, no_checks = 0, i, s, rc;

	memset(&vo, 0, sizeof vo);
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		int c = vs_cli_common_option("view", argc, argv, &i);
		if (c < 0)
			return VS_EXIT_USAGE;
		if (c > 0)
			continue;
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			help();
			return VS_EXIT_OK;
		} else if (strcmp(a, "--strategy") == 0 || strcmp(a, "-s") == 0) {
			if (++i >= argc)
				return vs_cli_usage_error("view", "--strategy needs a name");
			if (nspecs == VS_VIEW_MAX_SIDES)
				return vs_cli_usage_error("view", "at most %d strategies side by side", VS_VIEW_MAX_SIDES);
			if (strlen(argv[i]) >= sizeof specs[0])
				return vs_cli_usage_error("view", "--strategy '%s' is too long", argv[i]);
			snprintf(specs[nspecs++], sizeof specs[0], "%s", argv[i]);
		} else if (strcmp(a, "--size") == 0) {
			if (++i >= argc || sscanf(argv[i], "%dx%d", &vo.width, &vo.height) != 2 || vo.width < 160 ||
				vo.height < 120 || vo.width > 16384 || vo.height > 16384)
				return vs_cli_usage_error("view", "--size needs WxH, at least 160x120");
		} else if (strcmp(a, "--shots") == 0) {
			if (++i >= argc)
				return vs_cli_usage_error("view", "--shots needs a folder");
			vo.shot_dir = argv[i];
		} else if (strcmp(a, "--script") == 0) {
			if (++i >= argc)
				return vs_cli_usage_error("view", "--script needs a file");
			vo.script = argv[i];
		} else if (strcmp(a, "--log") == 0) {
			if (++i >= argc)
				return vs_cli_usage_error("view", "--log needs a file");
			log_path = argv[i];
		} else if (strcmp(a, "--no-vsync") == 0) {
			vo.no_vsync = 1;
		} else if (strcmp(a, "--present") == 0) {
			if (++i >= argc)
				return vs_cli_usage_error("view", "--present needs auto, texture or framebuffer");
			if (strcmp(argv[i], "auto") == 0)
				vo.present = 0;
			else if (strcmp(argv[i], "texture") == 0)
				vo.present = 1;
			else if (strcmp(argv[i], "framebuffer") == 0)
				vo.present = 2;
			else
				return vs_cli_usage_error("view", "--present is auto, texture or framebuffer, not '%s'", argv[i]);
		} else if (strcmp(a, "--check-redraw") == 0) {
			vo.check_redraw = 1;
		} else if (strcmp(a, "--no-checks") == 0) {
			no_checks = 1;
		} else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
			quiet = 1;
		} else if (a[0] == '-' && a[1]) {
			return vs_cli_usage_error("view", "unknown option '%s'", a);
		} else if (!path) {
			path = a;
		} else {
			return vs_cli_usage_error("view", "one trace at a time (got '%s' and '%s')", path, a);
		}
	}
	if (!path)
		return vs_cli_usage_error("view", "no trace given");
	if (strcmp(path, "-") == 0)
		return vs_cli_usage_error("view", "the viewer reads the trace once per side: give a file, not '-'");
	rd = vs_trace_open(path, err, sizeof err);
	if (!rd) {
		fprintf(stderr, "%s\n", err);
		return VS_EXIT_USAGE;
	}
	vo.trace = path;
	vo.nsides = nspecs ? nspecs : 1;
	for (s = 0; s < vo.nsides; s++) {
		vs_replay_config *cfg = &vo.cfg[s];
		vs_replay_config_default(cfg);
		if (quiet)
			cfg->message = quiet_message;
		if (no_checks) {
			cfg->check_bytes = 0;
			cfg->check_rules = 0;
		}
		memset(&cs, 0, sizeof cs);
		if (nspecs) {
			/* "A+B+C": several choices for one side */
			char *p = specs[s], *plus;
			do {
				plus = strchr(p, '+');
				if (plus)
					*plus = 0;
				if (cs.n == 32) {
					vs_trace_close(rd);
					return vs_cli_usage_error("view", "too many choices in one --strategy");
				}
				snprintf(cs.spec[cs.n++], sizeof cs.spec[0], "%.*s", (int)sizeof cs.spec[0] - 1, p);
				if (plus)
					*plus = '+';
				p = plus ? plus + 1 : NULL;
			} while (p);
			memcpy(vo.label[s], specs[s], sizeof vo.label[s]);
		}
		if (vs_cli_apply_strategies(&cs, vs_trace_header_of(rd), cfg, opts[s], err, sizeof err)) {
			vs_trace_close(rd);
			return vs_cli_usage_error("view", "%s", err);
		}
	}
	vs_trace_close(rd);
	if (log_path) {
		vo.log = fopen(log_path, "w");
		if (!vo.log)
			return vs_cli_usage_error("view", "cannot write %s", log_path);
	}
	rc = vs_viewer_run(&vo, err, sizeof err);
	if (vo.log)
		fclose(vo.log);
	if (rc == 2) {
		fprintf(stderr, "vramsim view: %s\n", err);
		return VS_EXIT_USAGE;
	}
	return rc == 1 ? VS_EXIT_CHECK : VS_EXIT_OK;
}

#else

int vs_cmd_view(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "vramsim view: this vramsim was built without SDL2; install libsdl2-dev and rebuild\n");
	return VS_EXIT_USAGE;
}

#endif
