/* SPDX-License-Identifier: Zlib */
/* play_session.h - what the play suites (test_play, test_play_ds) share: a
 * session opened with capture's defaults, finished into a trace and a keys
 * file, and the checks that `capture --input` of those keys writes the same
 * trace, in process (the console's capture, by the ROM's kind, as play.c
 * picks it) or by the command. Static functions: each suite includes it
 * once, after support.h and play/play.h. */
#ifndef VS_TESTS_PLAY_SESSION_H
#define VS_TESTS_PLAY_SESSION_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "console/common/rom_kind.h"
#include "console/ds/ds_emu.h"
#include "console/gba/gba_emu.h"

static vs_play *play_session(const char *rom, const char *state, const vs_input_script *input,
	unsigned audio_rate)
{
	vs_play_opts o;
	vs_play *p;
	char err[1024];

	memset(&o, 0, sizeof o);
	o.rom = rom;
	o.state = state;
	o.input = input;
	o.audio_rate = audio_rate;
	vs_capture_options_default(&o.capture);
	p = vs_play_open(&o, err, sizeof err);
	ck_assert_msg(p != NULL, "%s", err);
	return p;
}

static void play_finish(vs_play *p, const char *trace, const char *keys)
{
	static vs_out_file out[2]; /* fixed: out_file.c tracks them by address */
	char err[1024];
	int n = vs_play_finish(p, trace, keys, out, err, sizeof err);

	ck_assert_msg(n >= 0, "%s", err);
	ck_assert_msg(vs_out_commit(out, n, err, sizeof err) == 0, "%s", err);
}

/* The session's trace file against the text an in-process capture of its
 * keys wrote (freed here). */
static void play_same_as(const char *trace, char *captured)
{
	char *played = vs_test_slurp(trace);

	ck_assert_ptr_nonnull(played);
	ck_assert_ptr_nonnull(captured);
	ck_assert_msg(strcmp(played, captured) == 0, "the session's trace differs from capture --input of its keys");
	free(played);
	free(captured);
}

/* `capture GAME --frames N --input KEYS [--state STATE]` in process, as
 * the command runs it, writes the session's trace file again. */
static void play_same_as_capture(const char *rom, const char *trace, const char *keys, const char *state,
	uint32_t frames)
{
	vs_input_script script = { NULL, 0 };
	vs_emu_play play;
	FILE *tmp = tmpfile();
	char err[1024], *text;
	int rc;

	ck_assert_ptr_nonnull(tmp);
	ck_assert_msg(vs_input_script_load(keys, &script, err, sizeof err) == 0, "%s", err);
	memset(&play, 0, sizeof play);
	play.frames = frames;
	play.input = &script;
	play.state = state;
	if (vs_rom_kind_file(rom) == VS_ROM_KIND_DS)
		rc = vs_ds_emu_capture(rom, &play, NULL, tmp, NULL, err, sizeof err);
	else
		rc = vs_gba_capture(rom, &play, NULL, tmp, NULL, err, sizeof err);
	ck_assert_msg(rc == 0, "%s", err);
	text = vs_test_slurp_stream(tmp, NULL);
	fclose(tmp);
	vs_input_script_free(&script);
	play_same_as(trace, text);
}

/* The frames a keys file says to capture ("--frames N" in its comment). */
static unsigned play_keys_frames(const char *keys)
{
	char *k = vs_test_slurp(keys), *at;
	unsigned n = 0;

	ck_assert_ptr_nonnull(k);
	at = strstr(k, "--frames ");
	ck_assert_ptr_nonnull(at);
	ck_assert_int_eq(sscanf(at, "--frames %u", &n), 1);
	free(k);
	return n;
}

/* `vramsim capture ROM --input KEYS` of a session played in the window
 * writes its trace again. */
static void play_recaptured(const char *rom, const char *trace, const char *keys)
{
	const char *again = vs_test_path("again.trace");
	char out[4096], err[4096];

	ck_assert_msg(vs_test_cli(out, sizeof out, err, sizeof err, "capture '%s' --frames %u --input '%s' -o '%s' "
		"--quiet", rom, play_keys_frames(keys), keys, again) == 0, "%s", err);
	play_same_as(trace, vs_test_slurp(again));
}

#endif
