/* SPDX-License-Identifier: Zlib */
/* gba_record.c - writes the trace a GBA program prints through record.h. */
#include <stdio.h>
#include <string.h>

#include "vramsim/gba_emu.h"
#include "vramsim/record.h"

static void on_line(void *ud, int level, const char *line)
{
	vs_gba_recorder *rec = ud;
	size_t plen = sizeof VS_REC_PREFIX - 1;

	(void)level;
	if (strncmp(line, VS_REC_PREFIX, plen) == 0) {
		if (fprintf(rec->out, "%s\n", line + plen) < 0)
			rec->write_error = 1;
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

int vs_gba_record(const char *rom, uint32_t frames, FILE *out, FILE *other,
	vs_gba_recorder *rec, char *err, size_t errlen)
{
	vs_gba_emu *e;

	memset(rec, 0, sizeof *rec);
	rec->out = out;
	rec->other = other;
	e = vs_gba_emu_open_file(rom, err, errlen);
	if (!e)
		return -1;
	vs_gba_recorder_attach(rec, e);
	vs_gba_emu_run_frames(e, frames);
	vs_gba_emu_close(e);
	if (rec->write_error) {
		snprintf(err, errlen, "error writing the trace");
		return -1;
	}
	return 0;
}
