/* SPDX-License-Identifier: Zlib */
/* capture_runs.c - --uploads: uploads no allocation owns, found as runs the
 * same way in OBJ VRAM (capture_obj.c) and BG VRAM (capture_bg.c); see
 * docs/capture.md, "Options for an engine's view".
 */
#include <stdio.h>

#include "capture_impl.h"

/* A run is cut where a unit is not loose, and where the kind of VRAM
 * changes (BG: tiles of another depth, another layer's screen blocks), so
 * that one allocation is one kind of data. */
void cap_runs(vs_capture *c, const uint64_t *first, const uint8_t *kind, uint32_t n, cap_run_fn *found)
{
	uint32_t u, lo = 0;
	uint64_t date = 0;
	int in = 0;

	for (u = 0; u <= n; u++) {
		int loose = u < n && first[u];
		if (in && (!loose || (kind && kind[u] != kind[lo]))) {
			found(c, lo, u, date);
			in = 0;
		}
		if (!loose)
			continue;
		if (!in) {
			in = 1;
			lo = u;
			date = first[u] - 1;
		} else if (first[u] - 1 < date) {
			date = first[u] - 1;
		}
	}
}

void cap_data_tag(uint32_t h, char *tag, size_t len)
{
	snprintf(tag, len, "g%06x", (unsigned)((h ^ (h >> 24)) & 0xFFFFFFu));
}
