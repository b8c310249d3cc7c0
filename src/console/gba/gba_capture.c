/* SPDX-License-Identifier: Zlib */
/* gba_capture.c - `vramsim capture` on the emulator: plays a ROM, hands a
 * snapshot of the video hardware at every VBlank to the capture inference
 * (src/capture/capture.c) and writes the trace with the ROM named at its top. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "capture/capture_file.h"
#include "console/gba/gba_emu.h"

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

void vs_gba_capture_header(vs_gba_emu *e, const char *rom, const vs_emu_play *play, char *buf, size_t len)
{
	vs_gba_rom_info info;
	int n;

	vs_gba_emu_rom_info(e, &info);
	n = snprintf(buf, len, "captured by vramsim capture from %s\nROM: title \"%s\", game code %s, SHA-256 %s%s\n"
		"capture: frames=%u", base_name(rom), info.title, info.code, info.sha256,
		info.checksum_ok ? "" : " (header checksum does not match)", (unsigned)play->frames);
	if (n > 0 && (size_t)n < len && play->input)
		n += snprintf(buf + n, len - (size_t)n, " input=%zu ranges", play->input->n);
	if (n > 0 && (size_t)n < len && play->state)
		snprintf(buf + n, len - (size_t)n, " state=%s", base_name(play->state));
}

int vs_gba_capture(const char *rom, const vs_emu_play *play, const vs_capture_options *o, FILE *out,
	vs_capture_stats *stats, char *err, size_t errlen)
{
	char header[512];
	vs_gba_emu *e;
	vs_capture *c = NULL;
	vs_gba_frame *f = NULL;
	FILE *tmp = NULL;
	uint32_t i;
	int rc = -1;

	e = vs_gba_play_open(rom, play, err, errlen);
	if (!e)
		return -1;
	vs_gba_capture_header(e, rom, play, header, sizeof header);
	if (!(f = malloc(sizeof *f)) || !(tmp = tmpfile())) {
		snprintf(err, errlen, "%s", f ? "cannot make a temporary file for the capture" : "out of memory");
		goto done;
	}
	if (!(c = vs_capture_new(o, tmp, header, err, errlen)))
		goto done;
	for (i = 0; i < play->frames; i++) {
		vs_gba_play_keys(e, play, i);
		vs_gba_emu_frame_snapshot(e, f);
		if (vs_gba_emu_fault(e)) {
			vs_text_path_msg(err, errlen, rom, "%s", vs_gba_emu_fault(e));
			goto done;
		}
		if (vs_capture_frame(c, f) < 0)
			goto write_error;
		if (play->progress && (i & 63u) == 63u)
			play->progress(play->progress_ud, i + 1, play->frames);
	}
	if (vs_capture_finish(c) < 0 || vs_capture_file_summary_first(tmp, out) < 0)
		goto write_error;
	if (stats)
		vs_capture_stats_get(c, stats);
	rc = 0;
	goto done;
write_error:
	vs_capture_file_write_error(out, err, errlen);
done:
	vs_capture_free(c);
	if (tmp)
		fclose(tmp);
	free(f);
	vs_gba_emu_close(e);
	return rc;
}
