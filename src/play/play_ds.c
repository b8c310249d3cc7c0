/* SPDX-License-Identifier: Zlib */
/* play_ds.c - the DS's part of a play session (play_console.h): DeSmuME
 * (console/ds/ds_emu.h) and the DS capture, in vs_ds_emu_capture's frame
 * loop (console/ds/ds_capture.c): the frame's keys and stylus set, one
 * frame run, the state read after it, to vs_ds_capture_frame. The player's
 * input of a frame is handed to the driver as an input script of one
 * range, the way a script's range reaches it in `capture`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "console/ds/ds_emu.h"
#include "play/play_console.h"

struct play_machine {
	vs_play_opts o;
	vs_ds_emu *e;
	vs_ds_capture *c;
};

static void ds_close(play_machine *m)
{
	vs_ds_capture_free(m->c);
	vs_ds_emu_close(m->e);
	free(m);
}

static play_machine *ds_open(const vs_play_opts *o, const vs_emu_play *start, char *err, size_t errlen)
{
	play_machine *m = calloc(1, sizeof *m);

	if (!m) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	m->o = *o;
	if (!(m->e = vs_ds_play_open(o->rom, start, err, errlen)) || vs_ds_emu_keep_video(m->e) < 0) {
		if (m->e)
			snprintf(err, errlen, "out of memory");
		ds_close(m);
		return NULL;
	}
	return m;
}

static void ds_header(play_machine *m, const vs_emu_play *run, char *buf, size_t len)
{
	vs_ds_capture_header(vs_ds_emu_rom(m->e), m->o.rom, run, buf, len);
}

static int ds_capture_start(play_machine *m, FILE *out, const char *header, char *err, size_t errlen)
{
	vs_ds_capture_options o;

	vs_ds_capture_options_default(&o);
	o.grace = m->o.capture.grace;
	o.lookback = m->o.capture.lookback;
	m->c = vs_ds_capture_new(&o, out, header, err, errlen);
	return m->c ? 0 : -1;
}

static int ds_frame(play_machine *m, const vs_play_input *in, uint32_t frame, char *fault, size_t len)
{
	vs_input_range r;
	vs_input_script one = { &r, 1 };
	vs_emu_play run;

	memset(&r, 0, sizeof r);
	r.first = r.last = frame;
	r.keys = in->keys;
	r.touch = in->touch;
	r.touch_x = in->x;
	r.touch_y = in->y;
	memset(&run, 0, sizeof run);
	run.input = &one;
	/* the driver names the frame: "frame N: the program stopped ..." */
	if (vs_ds_play_frame(m->e, &run, frame, fault, len) < 0)
		return 1;
	return vs_ds_capture_frame(m->c, vs_ds_emu_frame(m->e)) < 0 ? -1 : 0;
}

static void *ds_capture(play_machine *m)
{
	return m->c;
}

static void *ds_capture_copy(const void *c, FILE *out)
{
	return vs_ds_capture_copy(c, out);
}

static int ds_capture_finish(void *c)
{
	return vs_ds_capture_finish(c);
}

static void ds_capture_free(void *c)
{
	vs_ds_capture_free(c);
}

static const uint8_t *ds_video(const play_machine *m, unsigned *w, unsigned *h)
{
	return vs_ds_emu_video(m->e, w, h);
}

/* The savestate the last frame was read from is the machine now: what
 * retro_serialize wrote, which --state loads. None before a frame ran. */
static int ds_state_ready(play_machine *m, char *err, size_t errlen)
{
	size_t len;

	if (vs_ds_emu_savestate(m->e, &len))
		return 0;
	snprintf(err, errlen, "no frame has run yet: no state to save");
	return -1;
}

static int ds_write_state(play_machine *m, FILE *fp, const char *name, char *err, size_t errlen)
{
	size_t len;
	const uint8_t *state = vs_ds_emu_savestate(m->e, &len);

	(void)name;
	if (ds_state_ready(m, err, errlen) < 0)
		return -1;
	return fwrite(state, 1, len, fp) == len ? 0 : -1;
}

const vs_play_console vs_play_ds = {
	.name = "DS",
	.fps = 59.8261, /* 33.51 MHz / 560,190 cycles a frame */
	.keys = VS_KEY_GBA_MASK | VS_KEY_X | VS_KEY_Y,
	.touch = 1,
	.state_kind = "a DeSmuME savestate",
	.open = ds_open,
	.close = ds_close,
	.header = ds_header,
	.capture_start = ds_capture_start,
	.frame = ds_frame,
	.capture = ds_capture,
	.capture_copy = ds_capture_copy,
	.capture_finish = ds_capture_finish,
	.capture_free = ds_capture_free,
	.video = ds_video,
	.audio = NULL,
	.state_ready = ds_state_ready,
	.write_state = ds_write_state,
};
