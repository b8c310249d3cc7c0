/* SPDX-License-Identifier: Zlib */
/* cli_emu.c - the options and run `record` and `capture` share on both
 * consoles (cli_emu.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/in_file.h"
#include "cli/cli.h"
#include "cli/cli_emu.h"

void vs_cli_emu_init(vs_cli_emu *e, const char *cmd)
{
	memset(e, 0, sizeof *e);
	e->cmd = cmd;
}

int vs_cli_emu_take(vs_cli_emu *e, const vs_cli_parser *p, int c)
{
	switch (c) {
	case VS_CLI_EMU_FRAMES:
		return vs_cli_uint(p, 1, 0xFFFFFFFFu, &e->frames) ? VS_EXIT_USAGE : -1;
	case VS_CLI_EMU_INPUT:
		e->input = p->arg;
		return -1;
	case VS_CLI_EMU_STATE:
		e->state = p->arg;
		return -1;
	case VS_CLI_EMU_QUIET:
		e->quiet = 1;
		return -1;
	case 'o':
		e->out = p->arg;
		return -1;
	case VS_CLI_OPERAND:
		if (e->rom)
			return vs_cli_usage_error(e->cmd, "one ROM at a time (got '%s' and '%s')", e->rom, p->arg);
		e->rom = p->arg;
		return -1;
	default:
		return VS_CLI_NOT_SHARED;
	}
}

int vs_cli_emu_begin(vs_cli_emu *e, uint32_t default_frames, int gba)
{
	char err[1024];

	if (!e->rom)
		return vs_cli_usage_error(e->cmd, "no ROM given");
	if (!e->frames && !default_frames)
		return vs_cli_usage_error(e->cmd, "--frames N is required");
	if (!e->out)
		return vs_cli_usage_error(e->cmd, "-o TRACE is required");
	if (e->input && (vs_input_script_load(e->input, &e->script, err, sizeof err) < 0 ||
		(gba && vs_input_script_gba_only(&e->script, e->input, err, sizeof err) < 0))) {
		fprintf(stderr, "%s\n", err); /* on a GBA: x, y or touch, which only the DS has */
		vs_input_script_free(&e->script);
		return VS_EXIT_USAGE;
	}
	/* the ROM and the savestate are read later, by the emulator: noted now,
	 * -o is refused before the run when it would replace one */
	if (vs_in_note(e->rom) || (e->state && vs_in_note(e->state))) {
		fprintf(stderr, "vramsim %s: %s\n", e->cmd, strerror(errno));
		vs_input_script_free(&e->script);
		return VS_EXIT_USAGE;
	}
	e->play.frames = e->frames ? (uint32_t)e->frames : default_frames;
	e->play.input = e->input ? &e->script : NULL;
	e->play.state = e->state;
	vs_progress_start_frames(&e->progress, e->cmd, e->quiet);
	if (e->progress.on) {
		e->play.progress = vs_progress_frames;
		e->play.progress_ud = &e->progress;
	}
	return 0;
}

void vs_cli_emu_end(vs_cli_emu *e)
{
	vs_progress_end(&e->progress);
	vs_input_script_free(&e->script);
}

int vs_cli_emu_capture(vs_cli_emu *e, vs_cli_emu_capture_fn capture, void *ud)
{
	char err[1024];
	FILE *fp = vs_cli_out_open(e->out, 0);
	int ok;

	if (!fp) {
		vs_cli_emu_end(e);
		return VS_EXIT_USAGE;
	}
	ok = capture(ud, e, fp, err, sizeof err) == 0;
	vs_cli_emu_end(e);
	if (!ok)
		fprintf(stderr, "vramsim %s: %s\n", e->cmd, err);
	return vs_cli_out_close(fp, ok) || !ok ? VS_EXIT_USAGE : 0;
}

/* Reads a recorded trace through from the start of fp: 0 well formed, -1
 * not (said why). */
static int check_recorded(FILE *fp, const char *out)
{
	char err[1024];
	vs_trace_reader *rd;
	vs_event ev;
	int rc;

	rewind(fp);
	if (!(rd = vs_trace_open_stream(fp, out, err, sizeof err))) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	while ((rc = vs_trace_next(rd, &ev)) > 0)
		;
	if (rc < 0)
		fprintf(stderr, "%s\n", vs_trace_error(rd));
	vs_trace_close(rd);
	return rc < 0 ? -1 : 0;
}

/* The temporary file record writes to, once out is known to be writable:
 * NULL after saying why. */
static FILE *record_open(const char *out)
{
	char err[1024 + VS_OUT_PATH_MAX];
	FILE *fp;

	if (vs_out_check(out, err, sizeof err) != 0) {
		fprintf(stderr, "vramsim record: %s\n", err);
		return NULL;
	}
	if (!(fp = tmpfile()))
		fprintf(stderr, "vramsim record: cannot make " VS_RECORD_SPOOL ": %s\n",
			strerror(errno));
	return fp;
}

/* The lines a game sent went to tmp, an unnamed temporary file (never the
 * output itself: a FIFO cannot be read back). With check, they are read
 * through as a trace (a game may send nonsense); then they are copied to
 * out, made once. 0 written, 1 written but malformed, -1 not written
 * (each said on standard error). */
static int record_write(FILE *tmp, const char *out, int check)
{
	char buf[65536];
	size_t n;
	FILE *fp;
	int ok = 1, malformed = 0;

	if (fflush(tmp) != 0) {
		fprintf(stderr, "vramsim record: cannot write " VS_RECORD_SPOOL ": %s\n",
			strerror(errno));
		return -1;
	}
	malformed = check && check_recorded(tmp, out) != 0;
	if (!(fp = vs_cli_out_open(out, 0)))
		return -1;
	rewind(tmp);
	while (ok && (n = fread(buf, 1, sizeof buf, tmp)) > 0)
		ok = fwrite(buf, 1, n, fp) == n;
	if (ferror(tmp)) {
		fprintf(stderr, "vramsim record: cannot read the recorded trace back: %s\n", strerror(errno));
		ok = 0;
	}
	if (vs_cli_out_close(fp, ok) || !ok)
		return -1;
	return malformed;
}

int vs_cli_emu_record(vs_cli_emu *e, vs_cli_emu_record_fn record, void *ud)
{
	char err[1024];
	/* the output is made once, from what was recorded and checked */
	FILE *tmp = record_open(e->out);
	int sent, malformed;

	if (!tmp) {
		vs_cli_emu_end(e);
		return VS_EXIT_USAGE;
	}
	sent = record(ud, e, tmp, err, sizeof err);
	vs_cli_emu_end(e);
	if (sent < 0)
		fprintf(stderr, "vramsim %s: %s\n", e->cmd, err);
	malformed = sent >= 0 ? record_write(tmp, e->out, sent) : -1;
	fclose(tmp);
	if (malformed < 0)
		return VS_EXIT_USAGE;
	return malformed ? VS_EXIT_CHECK : 0;
}
