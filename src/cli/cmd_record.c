/* SPDX-License-Identifier: Zlib */
/* cmd_record.c - `vramsim record`: run a GBA game headless in libmgba and
 * write the trace it prints through include/vramsim/record.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "vramsim/gba_emu.h"

int vs_cmd_record(int argc, char **argv);

static void help(void)
{
	char status[1536];

	vs_gba_status(status, sizeof status);
	printf(
		"usage: vramsim record GAME.gba --frames N -o TRACE [--log]\n"
		"\n"
		"Runs GAME.gba headless in libmgba (no window, no BIOS) for N frames and writes\n"
		"the trace lines it prints through include/vramsim/record.h to TRACE ('-' for\n"
		"standard output). The trace is then read back and checked.\n"
		"\n"
		"options:\n"
		"  --frames N     frames to run (60 a second)\n"
		"  -o TRACE       where to write the trace\n"
		"  --log          print the game's other mGBA debug-log lines on standard error\n"
		"\n"
		"needs: libmgba (libmgba-dev) at build time. The demo ROM (tools/demo-rom) is\n"
		"built as gba/demo.gba when arm-none-eabi-gcc (gcc-arm-none-eabi) is there.\n"
		"%s"
		"\n"
		"exit: 0 recorded a well-formed trace, 1 the game printed no trace or a malformed\n"
		"one (the file is kept to look at), 2 bad usage, unreadable ROM or no emulator.\n", status);
}

/* Reads the written trace back: the game may print nonsense. */
static int check_trace(const char *path)
{
	char err[1024];
	vs_trace_reader *rd = vs_trace_open(path, err, sizeof err);
	vs_event ev;
	int rc;

	if (!rd) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	while ((rc = vs_trace_next(rd, &ev)) > 0)
		;
	if (rc < 0)
		fprintf(stderr, "%s\n", vs_trace_error(rd));
	vs_trace_close(rd);
	return rc;
}

int vs_cmd_record(int argc, char **argv)
{
	const char *rom = NULL, *out = NULL;
	unsigned long frames = 0;
	int log = 0, i, ok;
	char err[1024], tmp[1024];
	vs_gba_recorder rec;
	FILE *fp;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			help();
			return VS_EXIT_OK;
		} else if (strcmp(a, "--frames") == 0) {
			char *end;

			if (++i >= argc)
				return vs_cli_usage_error("record", "--frames needs a number");
			frames = strtoul(argv[i], &end, 10);
			if (*end || frames == 0 || frames > 0xFFFFFFFFul || argv[i][0] == '-')
				return vs_cli_usage_error("record", "--frames: '%s' is not a frame count", argv[i]);
		} else if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
			if (++i >= argc)
				return vs_cli_usage_error("record", "-o needs a file name");
			out = argv[i];
		} else if (strcmp(a, "--log") == 0) {
			log = 1;
		} else if (a[0] == '-' && a[1]) {
			return vs_cli_usage_error("record", "unknown option '%s'", a);
		} else if (!rom) {
			rom = a;
		} else {
			return vs_cli_usage_error("record", "one ROM at a time (got '%s' and '%s')", rom, a);
		}
	}
	if (!rom)
		return vs_cli_usage_error("record", "no ROM given");
	if (!frames)
		return vs_cli_usage_error("record", "--frames N is required");
	if (!out)
		return vs_cli_usage_error("record", "-o TRACE is required");
	if (!vs_gba_emu_available()) {
		fprintf(stderr, "vramsim record: %s\n", vs_gba_emu_missing());
		return VS_EXIT_USAGE;
	}
	fp = vs_cli_out_open(out, tmp, sizeof tmp);
	if (!fp)
		return VS_EXIT_USAGE;
	ok = vs_gba_record(rom, (uint32_t)frames, fp, log ? stderr : NULL, &rec, err, sizeof err) == 0;
	if (!ok)
		fprintf(stderr, "vramsim record: %s\n", err);
	if (vs_cli_out_close(fp, out, tmp, ok) || !ok)
		return VS_EXIT_USAGE;
	fprintf(stderr, "vramsim record: %s: %lu frames, %llu trace lines", rom, frames,
		(unsigned long long)rec.lines);
	if (rec.others)
		fprintf(stderr, ", %llu other debug lines%s", (unsigned long long)rec.others,
			log ? "" : " (--log shows them)");
	fprintf(stderr, "\n");
	if (!rec.lines) {
		fprintf(stderr, "vramsim record: %s printed no trace lines in %lu frames: does it use "
			"include/vramsim/record.h (VS_REC_BEGIN first)?\n", rom, frames);
		return VS_EXIT_CHECK;
	}
	if (strcmp(out, "-") != 0 && check_trace(out) < 0)
		return VS_EXIT_CHECK;
	return VS_EXIT_OK;
}
