/* SPDX-License-Identifier: Zlib */
/* gba_record.c - writes the trace a GBA program prints through record.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/text.h"
#include "console/gba/gba_emu.h"
#include "vramsim/record.h"

static void on_line(void *ud, int level, const char *line)
{
	vs_gba_recorder *rec = ud;
	size_t plen = sizeof VS_REC_PREFIX - 1;

	(void)level;
	if (strncmp(line, VS_REC_PREFIX, plen) == 0) {
		if (fprintf(rec->out, "%s\n", line + plen) < 0 && !rec->write_error)
			rec->write_error = errno ? errno : EIO;
		rec->lines++;
	} else {
		if (rec->other)
			fprintf(rec->other, "%s\n", line);
		rec->others++;
	}
}

void vs_gba_recorder_attach(vs_gba_recorder *rec, vs_gba_emu *e)
{
	vs_gba_emu_set_log(e, on_line, rec);
}

int vs_gba_record(const char *rom, const vs_emu_play *play, FILE *out, FILE *other,
	vs_gba_recorder *rec, char *err, size_t errlen)
{
	vs_gba_emu *e;
	uint32_t i;
	int rc = 0;

	memset(rec, 0, sizeof *rec);
	rec->out = out;
	rec->other = other;
	e = vs_gba_play_open(rom, play, err, errlen);
	if (!e)
		return -1;
	vs_gba_recorder_attach(rec, e);
	for (i = 0; i < play->frames && !rec->write_error; i++) {
		vs_gba_play_keys(e, play, i);
		if (vs_gba_emu_run_frames(e, 1) != 1)
			break;
	}
	if (vs_gba_emu_fault(e)) {
		vs_text_path_msg(err, errlen, rom, "%s", vs_gba_emu_fault(e));
		rc = -1;
	} else if (rec->write_error) {
		snprintf(err, errlen, "cannot write " VS_RECORD_SPOOL ": %s",
			strerror(rec->write_error));
		rc = -1;
	}
	vs_gba_emu_close(e);
	return rc;
}
