/* SPDX-License-Identifier: Zlib */
/* ds_capture.c - `vramsim capture GAME.nds` on the emulator: plays a DS
 * ROM, hands the video hardware at the end of every frame to the DS capture
 * inference (src/capture/capture_ds.c) and writes the trace with the ROM
 * named at its top. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "capture/capture_file.h"
#include "console/ds/ds_emu.h"

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

void vs_ds_capture_header(const vs_ds_rom_info *info, const char *rom, const vs_emu_play *play, char *buf,
	size_t len)
{
	int n;

	n = snprintf(buf, len, "captured by vramsim capture from %s\nROM: title \"%s\", game code %s, SHA-256 %s\n"
		"capture: frames=%u", base_name(rom), info->title, info->code, info->sha256, (unsigned)play->frames);
	if (n > 0 && (size_t)n < len && play->input)
		n += snprintf(buf + n, len - (size_t)n, " input=%zu ranges", play->input->n);
	if (n > 0 && (size_t)n < len && play->state)
		snprintf(buf + n, len - (size_t)n, " state=%s", base_name(play->state));
}

int vs_ds_emu_capture(const char *rom, const vs_emu_play *play, const vs_ds_capture_options *o, FILE *out,
	vs_ds_capture_stats *stats, char *err, size_t errlen)
{
	char header[512], why[512];
	vs_ds_capture *c = NULL;
	vs_ds_emu *e;
	FILE *tmp = NULL;
	uint32_t i;
	int rc = -1;

	e = vs_ds_play_open(rom, play, err, errlen);
	if (!e)
		return -1;
	vs_ds_capture_header(vs_ds_emu_rom(e), rom, play, header, sizeof header);
	if (!(tmp = tmpfile())) {
		snprintf(err, errlen, "cannot make a temporary file for the capture: %s", strerror(errno));
		goto done;
	}
	if (!(c = vs_ds_capture_new(o, tmp, header, err, errlen)))
		goto done;
	for (i = 0; i < play->frames; i++) {
		if (vs_ds_play_frame(e, play, i, why, sizeof why) < 0) {
			vs_text_path_msg(err, errlen, rom, "%s", why);
			goto done;
		}
		if (vs_ds_capture_frame(c, vs_ds_emu_frame(e)) < 0)
			goto write_error;
		if (play->progress && (i % 60 == 59 || i + 1 == play->frames))
			play->progress(play->progress_ud, i + 1, play->frames);
	}
	if (vs_ds_capture_finish(c) < 0 || vs_capture_file_summary_first(tmp, out) < 0)
		goto write_error;
	if (stats)
		vs_ds_capture_stats_get(c, stats);
	rc = 0;
	goto done;
write_error:
	vs_capture_file_write_error(out, err, errlen);
done:
	vs_ds_capture_free(c);
	if (tmp)
		fclose(tmp);
	vs_ds_emu_close(e);
	return rc;
}
