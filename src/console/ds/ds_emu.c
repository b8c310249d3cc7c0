/* SPDX-License-Identifier: Zlib */
/* ds_emu.c - playing a DS game: the ROM checked, the savestate it starts
 * from, the input of each frame, the state read after it (see ds_emu.h). */
#include "console/ds/ds_emu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "console/ds/ds_core.h"
#include "console/ds/ds_direct.h"
#include "console/ds/ds_int.h"

struct vs_ds_emu {
	vs_ds_core *core;
	uint8_t *rom;
	size_t rom_size;
	vs_ds_rom_info info;
	vs_ds_frame *frame;
	vs_ds_state state;
	const uint8_t *state_buf; /* the core's, where state points into */
	uint8_t *patch;           /* a savestate to load back (vs_ds_emu_write_main_ram) */
	size_t patch_cap;
	int state_fresh;          /* state_buf was taken after the last frame run */
	const uint8_t *main_ram;  /* the savestate's, or the machine's own (direct) */
	vs_ds_direct *direct;     /* the machine's memory, once found; NULL: the savestate every frame */
	int direct_tried;
	char note[300];           /* why the savestate is read every frame */
	vs_ds_read_counts counts;
};

/* A savestate names its ROM by a copy of the header and the size. */
static int check_state_rom(const vs_ds_emu *e, const vs_ds_state *st, const char *path, char *err, size_t errlen)
{
	vs_ds_rom_info other;

	if (memcmp(st->rom_header, e->rom, VS_DS_HEADER_BYTES) == 0 && st->rom_size == e->rom_size)
		return 0;
	vs_ds_rom_names(st->rom_header, &other);
	vs_text_path_msg(err, errlen, path, "a savestate of another ROM (\"%s\" %s, %u bytes; this ROM is \"%s\" %s, "
		"%zu bytes)", other.title, other.code, (unsigned)st->rom_size, e->info.title, e->info.code, e->rom_size);
	return -1;
}

static int load_state(vs_ds_emu *e, const char *path, char *err, size_t errlen)
{
	size_t size;
	uint8_t *buf = vs_ds_file_read(path, VS_DS_STATE_MAX, "not a DeSmuME savestate", &size, err, errlen);
	vs_ds_state st;
	char why[512];
	int rc = -1;

	if (!buf)
		return -1;
	if (vs_ds_state_parse(buf, size, NULL, &st, why, sizeof why) < 0) {
		vs_text_path_msg(err, errlen, path, "%s", why);
	} else if (check_state_rom(e, &st, path, err, errlen) == 0) {
		if (!e->core)
			rc = 0; /* checked before the emulator starts; loaded after */
		else if (vs_ds_core_unserialize(e->core, buf, st.length, why, sizeof why) < 0)
			vs_text_path_msg(err, errlen, path, "%s", why);
		else
			rc = 0;
	}
	free(buf);
	return rc;
}

vs_ds_emu *vs_ds_play_open(const char *rom, const vs_emu_play *play, char *err, size_t errlen)
{
	vs_ds_emu *e = calloc(1, sizeof *e);

	if (!e || !(e->frame = calloc(1, sizeof *e->frame))) {
		free(e);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	/* What can be refused is refused before the emulator starts. */
	e->rom = vs_ds_rom_load(rom, &e->rom_size, &e->info, err, errlen);
	if (!e->rom || (play->state && load_state(e, play->state, err, errlen) < 0))
		goto fail;
	e->core = vs_ds_core_open(rom, err, errlen);
	if (!e->core || (play->state && load_state(e, play->state, err, errlen) < 0))
		goto fail;
	return e;
fail:
	vs_ds_emu_close(e);
	return NULL;
}

/* The last emulator's note, kept past its close (vs_ds_emu_last_note). */
static char last_note[300];

void vs_ds_emu_close(vs_ds_emu *e)
{
	if (!e)
		return;
	if (e->direct_tried)
		snprintf(last_note, sizeof last_note, "%s", e->direct ? "" : e->note);
	vs_ds_core_close(e->core);
	vs_ds_direct_free(e->direct);
	free(e->patch);
	free(e->rom);
	free(e->frame);
	free(e);
}

void vs_ds_emu_input(vs_ds_emu *e, const vs_emu_play *play, uint32_t frame)
{
	const vs_input_range *r = play->input ? vs_input_script_at(play->input, frame) : NULL;

	if (r)
		vs_ds_core_set_input(e->core, r->keys, r->touch, r->touch_x, r->touch_y);
	else
		vs_ds_core_set_input(e->core, 0, 0, 0, 0);
}

void vs_ds_emu_run(vs_ds_emu *e)
{
	vs_ds_core_run(e->core);
	e->state_fresh = 0;
}

/* retro_run returns at the end of VBlank (line 262) while the program
 * runs; once it has quit or powered off, the core returns at once, stuck
 * at the line where it stopped. */
static int check_running(const vs_ds_emu *e, uint32_t frame, char *err, size_t errlen)
{
	if (e->frame->vcount == VS_DS_VCOUNT_END)
		return 0;
	if (frame == 0)
		snprintf(err, errlen, "frame 0: the program never ran a whole frame (the emulator stopped at "
			"VCOUNT %u, not %u): it quit at once, or does not run on this DeSmuME",
			(unsigned)e->frame->vcount, VS_DS_VCOUNT_END);
	else
		snprintf(err, errlen, "frame %u: the program stopped (the frame ended at VCOUNT %u, not %u): it "
			"quit (many homebrew programs quit on START) or turned the console off", (unsigned)frame,
			(unsigned)e->frame->vcount, VS_DS_VCOUNT_END);
	return -1;
}

/* The savestate of the machine as it is now, walked into f (when not
 * NULL) and e->state. */
static int take_state(vs_ds_emu *e, vs_ds_frame *f, uint32_t frame, char *err, size_t errlen)
{
	size_t size;
	const uint8_t *buf = vs_ds_core_serialize(e->core, &size, err, errlen);
	char why[256]; /* room for the prefix in a caller's 512 */

	if (!buf)
		return -1;
	e->state_buf = buf;
	e->state_fresh = 0;
	if (vs_ds_state_parse(buf, size, f, &e->state, why, sizeof why) < 0) {
		snprintf(err, errlen, "frame %u: the emulator's own savestate cannot be read: %s", (unsigned)frame, why);
		return -1;
	}
	e->state_fresh = 1;
	return 0;
}

int vs_ds_emu_snapshot(vs_ds_emu *e, uint32_t frame, char *err, size_t errlen)
{
	if (take_state(e, e->frame, frame, err, errlen) < 0)
		return -1;
	e->main_ram = e->state.main_ram;
	e->counts.state++;
	return check_running(e, frame, err, errlen);
}

/* After the first savestate: where the machine's memory is, unless
 * VRAMSIM_DS_READ says otherwise (docs/developing.md: a test hook). */
static void find_direct(vs_ds_emu *e)
{
	const char *mode = getenv("VRAMSIM_DS_READ");
	char why[256];

	e->direct_tried = 1;
	if (mode && strcmp(mode, "savestate") == 0) {
		snprintf(e->note, sizeof e->note, "VRAMSIM_DS_READ=savestate: the savestate is read every frame");
		return;
	}
	e->direct = vs_ds_direct_find(e->state_buf, e->state.length, mode && strcmp(mode, "miss") == 0, why,
		sizeof why);
	if (!e->direct)
		snprintf(e->note, sizeof e->note, "%s: the savestate is read every frame (slower)", why);
}

int vs_ds_emu_read(vs_ds_emu *e, uint32_t frame, char *err, size_t errlen)
{
	if (e->direct && vs_ds_direct_read(e->direct, e->frame)) {
		e->main_ram = vs_ds_direct_main_ram(e->direct);
		e->state_fresh = 0;
		e->counts.direct++;
		return check_running(e, frame, err, errlen);
	}
	if (vs_ds_emu_snapshot(e, frame, err, errlen) < 0)
		return -1;
	if (!e->direct_tried)
		find_direct(e);
	else if (e->direct)
		vs_ds_direct_learn(e->direct, e->state_buf, e->state.length, e->frame);
	return 0;
}

int vs_ds_play_frame(vs_ds_emu *e, const vs_emu_play *play, uint32_t frame, char *err, size_t errlen)
{
	vs_ds_emu_input(e, play, frame);
	vs_ds_emu_run(e);
	return vs_ds_emu_read(e, frame, err, errlen);
}

/* The savestate of this moment, taken now when the last frame was read
 * without one. */
static int fresh_state(vs_ds_emu *e, char *err, size_t errlen)
{
	if (e->state_fresh)
		return 0;
	if (!e->state_buf) {
		snprintf(err, errlen, "no frame has run yet");
		return -1;
	}
	return take_state(e, NULL, 0, err, errlen);
}

int vs_ds_emu_write_main_ram(vs_ds_emu *e, uint32_t addr, const void *data, size_t len, char *err, size_t errlen)
{
	size_t at;

	if (!e->state_buf || !e->state.main_ram) {
		snprintf(err, errlen, "no frame has run yet: nothing to write main RAM into");
		return -1;
	}
	if (fresh_state(e, err, errlen) < 0)
		return -1;
	if (addr < VS_DS_MAIN_RAM_BASE || addr - VS_DS_MAIN_RAM_BASE > VS_DS_MAIN_RAM_BYTES ||
		len > VS_DS_MAIN_RAM_BYTES - (addr - VS_DS_MAIN_RAM_BASE)) {
		snprintf(err, errlen, "0x%08x+%zu is not in main RAM", (unsigned)addr, len);
		return -1;
	}
	if (e->patch_cap < e->state.length) {
		uint8_t *p = realloc(e->patch, e->state.length);

		if (!p) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		e->patch = p;
		e->patch_cap = e->state.length;
	}
	/* the core's savestate buffer is reused by its next serialize: a copy */
	memcpy(e->patch, e->state_buf, e->state.length);
	at = (size_t)(e->state.main_ram - e->state_buf) + (addr - VS_DS_MAIN_RAM_BASE);
	memcpy(e->patch + at, data, len);
	e->state_fresh = 0;
	return vs_ds_core_unserialize(e->core, e->patch, e->state.length, err, errlen);
}

int vs_ds_emu_keep_video(vs_ds_emu *e)
{
	return vs_ds_core_keep_video(e->core);
}

const uint8_t *vs_ds_emu_video(const vs_ds_emu *e, unsigned *w, unsigned *h)
{
	return vs_ds_core_video(e->core, w, h);
}

const vs_ds_frame *vs_ds_emu_frame(const vs_ds_emu *e)
{
	return e->frame;
}

const uint8_t *vs_ds_emu_main_ram(const vs_ds_emu *e)
{
	return e->main_ram;
}

const vs_ds_rom_info *vs_ds_emu_rom(const vs_ds_emu *e)
{
	return &e->info;
}

const uint8_t *vs_ds_emu_savestate(vs_ds_emu *e, size_t *len)
{
	char err[512];

	*len = 0;
	if (fresh_state(e, err, sizeof err) < 0)
		return NULL;
	*len = e->state.length;
	return e->state_buf;
}

const char *vs_ds_emu_read_note(const vs_ds_emu *e)
{
	return e->direct_tried && !e->direct ? e->note : NULL;
}

const char *vs_ds_emu_last_note(void)
{
	return last_note[0] ? last_note : NULL;
}

int vs_ds_emu_direct_check(vs_ds_emu *e, char *err, size_t errlen)
{
	if (!e->direct) {
		snprintf(err, errlen, "the emulator's memory is not read directly%s%s", e->note[0] ? ": " : "", e->note);
		return -1;
	}
	if (fresh_state(e, err, errlen) < 0)
		return -1;
	return vs_ds_direct_check(e->direct, e->state_buf, e->state.length, err, errlen);
}

vs_ds_read_counts vs_ds_emu_counts(const vs_ds_emu *e)
{
	return e->counts;
}
