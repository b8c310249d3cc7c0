/* SPDX-License-Identifier: Zlib */
/* gba_play.c - playing a game for `record` and `capture`: the ROM, the
 * savestate it starts from, the keys held each frame. */
#include <stdio.h>

#include "console/gba/gba_emu.h"

vs_gba_emu *vs_gba_play_open(const char *rom, const vs_emu_play *play, char *err, size_t errlen)
{
	vs_gba_emu *e = vs_gba_emu_open_file(rom, err, errlen);

	if (e && play->state && vs_gba_emu_load_state(e, play->state, err, errlen) < 0) {
		vs_gba_emu_close(e);
		return NULL;
	}
	return e;
}

void vs_gba_play_keys(vs_gba_emu *e, const vs_emu_play *play, uint32_t frame)
{
	vs_gba_emu_set_keys(e, play->input ? vs_input_script_keys(play->input, frame) : 0);
}
