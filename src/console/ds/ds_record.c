/* SPDX-License-Identifier: Zlib */
/* ds_record.c - writes the trace a DS program sends through record.h's
 * ring in main RAM (ds_ring.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/text.h"
#include "console/ds/ds_emu.h"
#include "console/ds/ds_ring.h"

typedef struct sink_ctx {
	FILE *out;
	vs_ds_recorder *rec;
	int write_errno; /* of the write to out that failed, or 0 */
} sink_ctx;

static int write_lines(void *ud, const char *text, size_t len)
{
	sink_ctx *s = ud;
	const char *p = text, *end = text + len;

	while ((p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		s->rec->lines++;
		p++;
	}
	s->rec->bytes += len;
	if (fwrite(text, 1, len, s->out) == len)
		return 0;
	s->write_errno = errno ? errno : EIO;
	return -1;
}

int vs_ds_record(const char *rom, const vs_emu_play *play, FILE *out, vs_ds_recorder *rec, char *err,
	size_t errlen)
{
	sink_ctx sink = { out, rec, 0 };
	vs_ds_ring ring;
	vs_ds_emu *e;
	uint32_t i;
	int rc = 0;

	memset(rec, 0, sizeof *rec);
	e = vs_ds_play_open(rom, play, err, errlen);
	if (!e)
		return -1;
	vs_ds_ring_init(&ring);
	for (i = 0; i < play->frames && rc == 0; i++) {
		char why[512];

		if (vs_ds_play_frame(e, play, i, why, sizeof why) < 0
			|| vs_ds_ring_step(&ring, vs_ds_emu_main_ram(e), VS_DS_MAIN_RAM_BYTES, i, write_lines, &sink, why,
				sizeof why) < 0) {
			if (sink.write_errno) /* not the game's: the recording's own file */
				snprintf(err, errlen, "cannot write " VS_RECORD_SPOOL ": %s",
					strerror(sink.write_errno));
			else
				vs_text_path_msg(err, errlen, rom, "%s", why);
			rc = -1;
		}
		if (ring.addr && !rec->ring) {
			rec->ring = ring.addr;
			rec->ring_frame = i;
		}
		if (play->progress && (i % 60 == 59 || i + 1 == play->frames))
			play->progress(play->progress_ud, i + 1, play->frames);
	}
	rec->partial = ring.pending_n;
	vs_ds_ring_free(&ring);
	vs_ds_emu_close(e);
	return rc;
}
