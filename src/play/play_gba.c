/* SPDX-License-Identifier: Zlib */
/* play_gba.c - the GBA's part of a play session (play_console.h): libmgba
 * and the GBA capture, in vs_gba_capture's frame loop
 * (console/gba/gba_capture.c): keys set, one frame run to its VBlank
 * snapshot, the snapshot to vs_capture_frame. */
#include <stdio.h>
#include <stdlib.h>

#include "console/gba/gba_emu.h"
#include "play/play_console.h"

struct play_machine {
	vs_play_opts o;
	vs_gba_emu *e;
	vs_capture *c;
	vs_gba_frame f;
};

static void gba_close(play_machine *m)
{
	vs_capture_free(m->c);
	vs_gba_emu_close(m->e);
	free(m);
}

static play_machine *gba_open(const vs_play_opts *o, const vs_emu_play *start, char *err, size_t errlen)
{
	play_machine *m = calloc(1, sizeof *m);

	if (!m) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	m->o = *o;
	if (!(m->e = vs_gba_play_open(o->rom, start, err, errlen))) {
		gba_close(m);
		return NULL;
	}
	if (o->audio_rate)
		vs_gba_emu_keep_audio(m->e, o->audio_rate);
	return m;
}

static void gba_header(play_machine *m, const vs_emu_play *run, char *buf, size_t len)
{
	vs_gba_capture_header(m->e, m->o.rom, run, buf, len);
}

static int gba_capture_start(play_machine *m, FILE *out, const char *header, char *err, size_t errlen)
{
	m->c = vs_capture_new(&m->o.capture, out, header, err, errlen);
	return m->c ? 0 : -1;
}

static int gba_frame(play_machine *m, const vs_play_input *in, uint32_t frame, char *fault, size_t len)
{
	(void)frame;
	vs_gba_emu_set_keys(m->e, in->keys);
	vs_gba_emu_frame_snapshot(m->e, &m->f);
	if (vs_gba_emu_fault(m->e)) {
		snprintf(fault, len, "%s", vs_gba_emu_fault(m->e));
		return 1;
	}
	return vs_capture_frame(m->c, &m->f) < 0 ? -1 : 0;
}

static void *gba_capture(play_machine *m)
{
	return m->c;
}

static void *gba_capture_copy(const void *c, FILE *out)
{
	return vs_capture_copy(c, out);
}

static int gba_capture_finish(void *c)
{
	return vs_capture_finish(c);
}

static void gba_capture_free(void *c)
{
	vs_capture_free(c);
}

static const uint8_t *gba_video(const play_machine *m, unsigned *w, unsigned *h)
{
	return vs_gba_emu_video(m->e, w, h);
}

static size_t gba_audio(play_machine *m, int16_t *buf, size_t max)
{
	return vs_gba_emu_audio(m->e, buf, max);
}

/* libmgba writes the file itself, by name: the temporary file that
 * base/out_file.h made beside the path (removed on failure or Ctrl-C),
 * which the commit then renames onto it. */
static int gba_write_state(play_machine *m, FILE *fp, const char *name, char *err, size_t errlen)
{
	(void)fp;
	return vs_gba_emu_save_state(m->e, name, err, errlen);
}

const vs_play_console vs_play_gba = {
	.name = "GBA",
	.fps = 59.7275, /* 16.78 MHz / 280,896 cycles a frame */
	.keys = VS_KEY_GBA_MASK,
	.touch = 0,
	.state_kind = "an mGBA savestate",
	.open = gba_open,
	.close = gba_close,
	.header = gba_header,
	.capture_start = gba_capture_start,
	.frame = gba_frame,
	.capture = gba_capture,
	.capture_copy = gba_capture_copy,
	.capture_finish = gba_capture_finish,
	.capture_free = gba_capture_free,
	.video = gba_video,
	.audio = gba_audio,
	.state_ready = NULL,
	.write_state = gba_write_state,
};
