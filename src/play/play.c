/* SPDX-License-Identifier: Zlib */
/* play.c - a game played live, its session kept as a capture (play.h).
 *
 * The console's part (play_console.h: play_gba.c, play_ds.c) is the frame
 * loop of its `capture`: input set, one frame run, its snapshot to the
 * console's capture inference. So the trace is the one `capture --input
 * KEYS` writes for the input the session kept. Here, for both: the input
 * frame by frame, the live trace, the files at the end, the capture copied
 * and finished for a write while the session goes on, the savestate file.
 * Only its header's run line ("capture: frames=N input=K ranges") is not
 * known before the end: the live trace says frames=0, and the trace
 * written at the end says what the run was.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/grow.h"
#include "base/out_file.h"
#include "base/text.h"
#include "capture/capture_file.h"
#include "console/common/rom_kind.h"
#include "play/play.h"
#include "play/play_console.h"

struct vs_play {
	vs_play_opts o;
	const vs_play_console *con;
	play_machine *m;
	FILE *live;               /* the capture's trace as it grows */
	char dir[512], path[600]; /* the temporary folder and the live trace in it */
	vs_play_input *keys;      /* the input of every frame run */
	size_t nkeys, capkeys;
	int scripted;             /* the input script plays */
	int finished;
	char fault[512];
};

/* The run a capture header names: frames, input ranges, the savestate. */
static void header_text(const vs_play *p, uint32_t frames, size_t nranges, char *buf, size_t len)
{
	vs_input_script keys = { NULL, nranges };
	vs_emu_play run;

	memset(&run, 0, sizeof run);
	run.frames = frames;
	run.input = &keys;
	run.state = p->o.state;
	p->con->header(p->m, &run, buf, len);
}

static void live_error(const vs_play *p, char *err, size_t errlen)
{
	snprintf(err, errlen, "writing the live trace %s failed: %s", p->path, errno ? strerror(errno) : "out of memory");
}

static int make_live(vs_play *p, char *err, size_t errlen)
{
	const char *tmp = getenv("TMPDIR");

	if (!tmp || !*tmp)
		tmp = "/tmp";
	/* Ctrl-C removes it too */
	if (snprintf(p->dir, sizeof p->dir, "%s/vramsim-play-XXXXXX", tmp) >= (int)sizeof p->dir ||
		vs_out_scratch_make(p->dir, 1, "live.trace") != 0) {
		snprintf(err, errlen, "cannot make a temporary folder in %s: %s", tmp, strerror(errno));
		p->dir[0] = '\0';
		return -1;
	}
	snprintf(p->path, sizeof p->path, "%s/live.trace", p->dir);
	p->live = fopen(p->path, "w+");
	if (!p->live) {
		snprintf(err, errlen, "cannot write %s: %s", p->path, strerror(errno));
		return -1;
	}
	return 0;
}

vs_play *vs_play_open(const vs_play_opts *o, char *err, size_t errlen)
{
	vs_play *p = calloc(1, sizeof *p);
	vs_emu_play start;
	char text[512];

	if (!p) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	p->o = *o;
	p->scripted = o->input != NULL;
	p->con = vs_rom_kind_file(o->rom) == VS_ROM_KIND_DS ? &vs_play_ds : &vs_play_gba;
	memset(&start, 0, sizeof start);
	start.state = o->state;
	p->m = p->con->open(o, &start, err, errlen);
	if (!p->m || make_live(p, err, errlen) < 0)
		goto fail;
	header_text(p, 0, 0, text, sizeof text);
	if (p->con->capture_start(p->m, p->live, text, err, errlen) < 0)
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
	if (p->m)
		p->con->close(p->m);
	if (p->live)
		fclose(p->live);
	if (p->path[0])
		unlink(p->path);
	if (p->dir[0]) {
		rmdir(p->dir);
		vs_out_scratch_remove(p->dir);
	}
	free(p->keys);
	free(p);
}

const char *vs_play_console_name(const vs_play *p)
{
	return p->con->name;
}

double vs_play_fps(const vs_play *p)
{
	return p->con->fps;
}

uint16_t vs_play_key_mask(const vs_play *p)
{
	return p->con->keys;
}

int vs_play_has_touch(const vs_play *p)
{
	return p->con->touch;
}

vs_play_input vs_play_next_input(const vs_play *p, const vs_play_input *in)
{
	vs_play_input next = { 0, 0, 0, 0 };
	const vs_input_range *r;

	if (p->scripted) {
		if ((r = vs_input_script_at(p->o.input, (uint32_t)p->nkeys)) != NULL) {
			next.keys = r->keys;
			next.touch = r->touch;
			next.x = r->touch ? r->touch_x : 0;
			next.y = r->touch ? r->touch_y : 0;
		}
	} else {
		next.keys = in->keys;
		if (in->touch) {
			next.touch = 1;
			next.x = in->x;
			next.y = in->y > 191 ? 191 : in->y;
		}
	}
	next.keys &= p->con->keys;
	if (!p->con->touch)
		next.touch = next.x = next.y = 0;
	return next;
}

void vs_play_take_over(vs_play *p)
{
	p->scripted = 0;
}

int vs_play_scripted(const vs_play *p)
{
	return p->scripted;
}

int vs_play_frame(vs_play *p, const vs_play_input *in, char *err, size_t errlen)
{
	vs_play_input held = vs_play_next_input(p, in);
	char why[400];
	int rc;

	if (p->fault[0] || p->finished)
		return 1;
	if (p->nkeys >= UINT32_MAX - 1 || vs_grow(&p->keys, sizeof *p->keys, &p->capkeys, p->nkeys + 1, 4096)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	rc = p->con->frame(p->m, &held, (uint32_t)p->nkeys, why, sizeof why);
	if (rc == 1) {
		snprintf(p->fault, sizeof p->fault, "%s: %s", p->o.rom, why);
		return 1;
	}
	p->keys[p->nkeys++] = held;
	/* whole frames reach the file for the reader that follows it */
	if (rc < 0 || fflush(p->live)) {
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
	return p->con->video(p->m, w, h);
}

size_t vs_play_audio(vs_play *p, int16_t *buf, size_t max)
{
	return p->con->audio ? p->con->audio(p->m, buf, max) : 0;
}

/* The console writes the state into the temporary file that
 * base/out_file.h made beside the path (removed on failure or Ctrl-C),
 * which the commit then renames onto it. */
int vs_play_save_state(vs_play *p, const char *path, char *err, size_t errlen)
{
	vs_out_file out;
	int ok;

	if (p->con->state_ready && p->con->state_ready(p->m, err, errlen) < 0)
		return -1;
	if (vs_out_open(&out, path, err, errlen) < 0)
		return -1;
	ok = p->con->write_state(p->m, out.fp, out.tmp[0] ? out.tmp : out.path, err, errlen) == 0;
	if (vs_out_finish(&out, ok, err, errlen) < 0)
		return -1;
	return vs_out_commit(&out, 1, err, errlen) < 0 ? -1 : 0;
}

/* ---- the end: the trace and the keys -------------------------------------- */

static int same_input(const vs_play_input *a, const vs_play_input *b)
{
	return a->keys == b->keys && a->touch == b->touch && a->x == b->x && a->y == b->y;
}

static int any_input(const vs_play_input *a)
{
	return a->keys || a->touch;
}

/* Ranges of frames holding the same input (none: no range). */
static size_t count_ranges(const vs_play *p)
{
	size_t i, n = 0;

	for (i = 0; i < p->nkeys; i++)
		if (any_input(&p->keys[i]) && (i == 0 || !same_input(&p->keys[i - 1], &p->keys[i])))
			n++;
	return n;
}

/* A range's input as the script names it: "right a", "touch 12,40",
 * "a touch 12,40". */
static void input_name(const vs_play_input *in, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	if (in->keys) {
		vs_input_keys_name(in->keys, buf, len);
		n = strlen(buf);
	}
	if (in->touch)
		snprintf(buf + n, len - n, "%stouch %u,%u", n ? " " : "", (unsigned)in->x, (unsigned)in->y);
}

static void write_keys(const vs_play *p, FILE *fp)
{
	size_t i = 0, j;
	char names[128], rom[512], state[512] = "";

	/* escaped (\xNN): a newline in a path would end the comment and start a
	 * line of keys */
	vs_text_path(rom, sizeof rom, p->o.rom);
	if (p->o.state)
		vs_text_path(state, sizeof state, p->o.state);
	fprintf(fp, "# keys of a vramsim play session: %zu frames of %s%s%s\n", p->nkeys, rom,
		p->o.state ? " from the savestate " : " from power-on", state);
	fprintf(fp, "# replay: vramsim capture GAME --frames %zu --input THIS%s\n", p->nkeys,
		p->o.state ? " --state STATE" : "");
	while (i < p->nkeys) {
		for (j = i; j + 1 < p->nkeys && same_input(&p->keys[j + 1], &p->keys[i]); j++)
			;
		if (any_input(&p->keys[i])) {
			input_name(&p->keys[i], names, sizeof names);
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

	header_text(p, (uint32_t)p->nkeys, count_ranges(p), text, sizeof text);
	last = strrchr(text, '\n');
	snprintf(buf, len, "# %s", last ? last + 1 : text);
}

/* Writes the finished capture in `trace_text` to trace_path and the keys
 * to keys_path (either NULL: not written) into out[0], out[1], finished,
 * not committed. How many, or -1 with err (none left). */
static int write_files(vs_play *p, FILE *trace_text, const char *trace_path, const char *keys_path, vs_out_file *out,
	char *err, size_t errlen)
{
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
		/* a write failed: finished now, while errno says why, naming the file */
		if (ferror(out[0].fp))
			vs_out_finish(&out[0], 0, err, errlen);
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
	return n;
}

int vs_play_finish(vs_play *p, const char *trace_path, const char *keys_path, vs_out_file *out, char *err,
	size_t errlen)
{
	if (p->finished) {
		snprintf(err, errlen, "the session is already written");
		return -1;
	}
	p->finished = 1;
	if (p->con->capture_finish(p->con->capture(p->m)) < 0) {
		live_error(p, err, errlen);
		return -1;
	}
	return write_files(p, p->live, trace_path, keys_path, out, err, errlen);
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
	vs_out_file out[2];
	FILE *tmp;
	void *copy;
	int copied = 0, rc = -1, n;

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
	if (!(copy = p->con->capture_copy(p->con->capture(p->m), tmp)))
		snprintf(err, errlen, "out of memory");
	else if (p->con->capture_finish(copy) < 0)
		snprintf(err, errlen, "cannot write a temporary file (tmpfile()): %s", strerror(errno));
	else
		copied = 1;
	p->con->capture_free(copy);
	if (copied && (n = write_files(p, tmp, trace_path, keys_path, out, err, errlen)) >= 0)
		rc = vs_out_commit(out, n, err, errlen) < 0 ? -1 : 0;
	fclose(tmp);
	return rc;
}
