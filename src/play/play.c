/* SPDX-License-Identifier: Zlib */
/* play.c - a GBA game played live, its session kept as a capture (play.h).
 *
 * The frame loop is vs_gba_capture's (console/gba/gba_capture.c): keys set,
 * one frame run to its VBlank snapshot, the snapshot to vs_capture_frame.
 * So the trace is the one `capture --input KEYS` writes for the keys the
 * session kept. Only its header's run line ("capture: frames=N input=K
 * ranges") is not known before the end: the live trace says frames=0, and
 * the trace written at the end says what the run was.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/grow.h"
#include "base/out_file.h"
#include "capture/capture_file.h"
#include "console/gba/gba_emu.h"
#include "play/play.h"

struct vs_play {
	vs_play_opts o;
	vs_gba_emu *e;
	vs_capture *c;
	vs_gba_frame *f;
	FILE *live;               /* the capture's trace as it grows */
	char dir[512], path[600]; /* the temporary folder and the live trace in it */
	uint16_t *keys;           /* the keys of every frame run */
	size_t nkeys, capkeys;
	int scripted;             /* the input script plays */
	int finished;
	char fault[512];
};

static void live_error(const vs_play *p, char *err, size_t errlen)
{
	snprintf(err, errlen, "writing the live trace %s failed: %s", p->path, errno ? strerror(errno) : "out of memory");
}

static int make_live(vs_play *p, char *err, size_t errlen)
{
	const char *tmp = getenv("TMPDIR");

	if (!tmp || !*tmp)
		tmp = "/tmp";
	if (snprintf(p->dir, sizeof p->dir, "%s/vramsim-play-XXXXXX", tmp) >= (int)sizeof p->dir || !mkdtemp(p->dir)) {
		snprintf(err, errlen, "cannot make a temporary folder in %s: %s", tmp, strerror(errno));
		p->dir[0] = '\0';
		return -1;
	}
	snprintf(p->path, sizeof p->path, "%s/live.trace", p->dir);
	/* Ctrl-C removes it too */
	vs_out_scratch_add(p->dir, p->path);
	p->live = fopen(p->path, "w+");
	if (!p->live) {
		snprintf(err, errlen, "cannot write %s: %s", p->path, strerror(errno));
		return -1;
	}
	return 0;
}

/* The capture's header as `capture` writes it for a run of frames with
 * nranges input ranges. */
static void header(vs_play *p, uint32_t frames, size_t nranges, char *buf, size_t len)
{
	vs_input_script keys = { NULL, nranges };
	vs_gba_play run;

	memset(&run, 0, sizeof run);
	run.frames = frames;
	run.input = &keys;
	run.state = p->o.state;
	vs_gba_capture_header(p->e, p->o.rom, &run, buf, len);
}

vs_play *vs_play_open(const vs_play_opts *o, char *err, size_t errlen)
{
	vs_play *p = calloc(1, sizeof *p);
	vs_gba_play start;
	char text[512];

	if (!p || !(p->f = malloc(sizeof *p->f))) {
		free(p);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	p->o = *o;
	p->scripted = o->input != NULL;
	memset(&start, 0, sizeof start);
	start.state = o->state;
	p->e = vs_gba_play_open(o->rom, &start, err, errlen);
	if (!p->e || make_live(p, err, errlen) < 0)
		goto fail;
	if (o->audio_rate)
		vs_gba_emu_keep_audio(p->e, o->audio_rate);
	header(p, 0, 0, text, sizeof text);
	p->c = vs_capture_new(&o->capture, p->live, text, err, errlen);
	if (!p->c)
		goto fail;
	return p;
fail:
	vs_play_close(p);
	return NULL;
}

void vs_play_close(vs_play *p)
{
	if (!p)
		return;
	vs_capture_free(p->c);
	if (p->live)
		fclose(p->live);
	if (p->path[0])
		unlink(p->path);
	if (p->dir[0]) {
		rmdir(p->dir);
		vs_out_scratch_remove(p->dir);
	}
	vs_gba_emu_close(p->e);
	free(p->keys);
	free(p->f);
	free(p);
}

uint16_t vs_play_next_keys(const vs_play *p, uint16_t keys)
{
	if (p->scripted)
		return vs_input_script_keys(p->o.input, (uint32_t)p->nkeys);
	return keys & VS_KEY_GBA_MASK;
}

void vs_play_take_over(vs_play *p)
{
	p->scripted = 0;
}

int vs_play_scripted(const vs_play *p)
{
	return p->scripted;
}

int vs_play_frame(vs_play *p, uint16_t keys, char *err, size_t errlen)
{
	uint16_t held = vs_play_next_keys(p, keys);

	if (p->fault[0] || p->finished)
		return 1;
	if (p->nkeys >= UINT32_MAX - 1 || vs_grow(&p->keys, sizeof *p->keys, &p->capkeys, p->nkeys + 1, 4096)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	vs_gba_emu_set_keys(p->e, held);
	vs_gba_emu_frame_snapshot(p->e, p->f);
	if (vs_gba_emu_fault(p->e)) {
		snprintf(p->fault, sizeof p->fault, "%s: %s", p->o.rom, vs_gba_emu_fault(p->e));
		return 1;
	}
	p->keys[p->nkeys++] = held;
	/* whole frames reach the file for the reader that follows it */
	if (vs_capture_frame(p->c, p->f) < 0 || fflush(p->live)) {
		live_error(p, err, errlen);
		return -1;
	}
	return 0;
}

uint32_t vs_play_frames(const vs_play *p)
{
	return (uint32_t)p->nkeys;
}

const char *vs_play_fault(const vs_play *p)
{
	return p->fault[0] ? p->fault : NULL;
}

const char *vs_play_live_path(const vs_play *p)
{
	return p->path;
}

int vs_play_live_ready(const vs_play *p)
{
	/* the header is written with the first frame's events */
	return ftello(p->live) > 0;
}

const uint8_t *vs_play_screen(const vs_play *p, unsigned *w, unsigned *h)
{
	return vs_gba_emu_video(p->e, w, h);
}

size_t vs_play_audio(vs_play *p, int16_t *buf, size_t max)
{
	return vs_gba_emu_audio(p->e, buf, max);
}

int vs_play_save_state(vs_play *p, const char *path, char *err, size_t errlen)
{
	char tmp[VS_OUT_PATH_MAX + 32];

	/* libmgba writes the file itself: beside it first, then renamed */
	if (snprintf(tmp, sizeof tmp, "%s.tmp-%ld", path, (long)getpid()) >= (int)sizeof tmp) {
		snprintf(err, errlen, "%s: path too long", path);
		return -1;
	}
	if (vs_gba_emu_save_state(p->e, tmp, err, errlen) < 0) {
		unlink(tmp);
		return -1;
	}
	if (rename(tmp, path) != 0) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* ---- the end: the trace and the keys -------------------------------------- */

/* Ranges of frames holding the same keys (none: no range). */
static size_t count_ranges(const vs_play *p)
{
	size_t i, n = 0;

	for (i = 0; i < p->nkeys; i++)
		if (p->keys[i] && (i == 0 || p->keys[i - 1] != p->keys[i]))
			n++;
	return n;
}

static void write_keys(const vs_play *p, FILE *fp)
{
	size_t i = 0, j;
	char names[96];

	fprintf(fp, "# keys of a vramsim play session: %zu frames of %s%s%s\n", p->nkeys, p->o.rom,
		p->o.state ? " from the savestate " : " from power-on", p->o.state ? p->o.state : "");
	fprintf(fp, "# replay: vramsim capture GAME --frames %zu --input THIS%s\n", p->nkeys,
		p->o.state ? " --state STATE" : "");
	while (i < p->nkeys) {
		for (j = i; j + 1 < p->nkeys && p->keys[j + 1] == p->keys[i]; j++)
			;
		if (p->keys[i]) {
			vs_input_keys_name(p->keys[i], names, sizeof names);
			if (j > i)
				fprintf(fp, "%zu-%zu %s\n", i, j, names);
			else
				fprintf(fp, "%zu %s\n", i, names);
		}
		i = j + 1;
	}
}

/* The run line of the header (its last line) as a trace line. */
static void run_line(vs_play *p, char *buf, size_t len)
{
	char text[512];
	const char *last;

	header(p, (uint32_t)p->nkeys, count_ranges(p), text, sizeof text);
	last = strrchr(text, '\n');
	snprintf(buf, len, "# %s", last ? last + 1 : text);
}

/* Writes the finished capture in `trace_text` to trace_path and the keys
 * to keys_path (either NULL: not written), both or neither. */
static int write_files(vs_play *p, FILE *trace_text, const char *trace_path, const char *keys_path, char *err,
	size_t errlen)
{
	vs_out_file out[2];
	char line[600];
	int n = 0, ok = 1, i;

	run_line(p, line, sizeof line);
	if (trace_path && vs_out_open(&out[n++], trace_path, err, errlen) < 0)
		return -1;
	if (keys_path && vs_out_open(&out[n++], keys_path, err, errlen) < 0) {
		vs_out_abort(out, n - 1);
		return -1;
	}
	if (trace_path && vs_capture_file_finish(trace_text, out[0].fp, line) < 0) {
		if (ferror(out[0].fp))
			vs_capture_file_write_error(out[0].fp, err, errlen);
		else
			snprintf(err, errlen, "reading the session's trace back failed: %s", strerror(errno));
		ok = 0;
	}
	if (keys_path)
		write_keys(p, out[n - 1].fp);
	for (i = 0; i < n; i++)
		if (vs_out_finish(&out[i], ok, ok ? err : line, ok ? errlen : sizeof line) < 0)
			ok = 0;
	if (!ok) {
		vs_out_abort(out, n);
		return -1;
	}
	return vs_out_commit(out, n, err, errlen) < 0 ? -1 : 0;
}

int vs_play_finish(vs_play *p, const char *trace_path, const char *keys_path, char *err, size_t errlen)
{
	if (p->finished) {
		snprintf(err, errlen, "the session is already written");
		return -1;
	}
	p->finished = 1;
	if (vs_capture_finish(p->c) < 0) {
		live_error(p, err, errlen);
		return -1;
	}
	return write_files(p, p->live, trace_path, keys_path, err, errlen);
}

/* The live trace so far copied into a fresh temporary file. */
static FILE *live_copy(vs_play *p)
{
	FILE *tmp = tmpfile();
	char buf[1 << 16];
	off_t end = ftello(p->live);
	size_t n;

	if (!tmp || end < 0 || fflush(p->live) || fseeko(p->live, 0, SEEK_SET))
		goto fail;
	while ((n = fread(buf, 1, sizeof buf, p->live)) > 0)
		if (fwrite(buf, 1, n, tmp) != n)
			goto fail;
	/* the capture writes on at the end */
	if (ferror(p->live) || fseeko(p->live, 0, SEEK_END) || ftello(p->live) != end)
		goto fail;
	return tmp;
fail:
	fseeko(p->live, 0, SEEK_END);
	if (tmp)
		fclose(tmp);
	return NULL;
}

int vs_play_write(vs_play *p, const char *trace_path, const char *keys_path, char *err, size_t errlen)
{
	FILE *tmp;
	vs_capture *c;
	int rc = -1;

	if (p->finished) {
		snprintf(err, errlen, "the session is already written");
		return -1;
	}
	if (!(tmp = live_copy(p))) {
		snprintf(err, errlen, "cannot copy the live trace %s: %s", p->path, strerror(errno));
		return -1;
	}
	/* the capture as it stands, finished in the copy: what finishing now
	 * would write, while the session goes on */
	if (!(c = vs_capture_copy(p->c, tmp)))
		snprintf(err, errlen, "out of memory");
	else if (vs_capture_finish(c) < 0)
		snprintf(err, errlen, "cannot write a temporary file (tmpfile()): %s", strerror(errno));
	else
		rc = write_files(p, tmp, trace_path, keys_path, err, errlen);
	vs_capture_free(c);
	fclose(tmp);
	return rc;
}
