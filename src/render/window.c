/* SPDX-License-Identifier: Zlib */
/* window.c - the --from / --to window of a picture: "N" is an event,
 * "f:N" or "frame:N" a frame; one parser so every command reads them alike. */
#include <stdio.h>
#include <string.h>

#include "render/render.h"
#include "base/text.h"
#include "render/window.h"

/* One end: its unit and number. -1 when malformed. */
static int parse_end(const char *s, vs_window_unit *unit, uint64_t *v)
{
	const char *p = s;
	uint64_t n = 0;

	*unit = VS_WINDOW_EVENTS;
	if (!strncmp(p, "f:", 2) || !strncmp(p, "frame:", 6)) {
		*unit = VS_WINDOW_FRAMES;
		p = strchr(p, ':') + 1;
	}
	if (!*p)
		return -1;
	for (; *p; p++) {
		if (*p < '0' || *p > '9' || n > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return -1;
		n = n * 10 + (uint64_t)(*p - '0');
	}
	*v = n;
	return 0;
}

int vs_window_parse(vs_window *w, const char *from, const char *to, char *err, size_t errlen)
{
	const char *end[2] = { from, to }, *name[2] = { "--from", "--to" };
	vs_window_unit unit[2] = { VS_WINDOW_ALL, VS_WINDOW_ALL };
	uint64_t v[2] = { 0, 0 };
	char shown[128];
	int k;

	memset(w, 0, sizeof *w);
	for (k = 0; k < 2; k++) {
		if (!end[k])
			continue;
		if (parse_end(end[k], &unit[k], &v[k])) {
			vs_text_escape(shown, sizeof shown, end[k], strlen(end[k]), 0);
			snprintf(err, errlen, "%s: '%s' is not an event number N or a frame f:N (frame:N)", name[k], shown);
			return -1;
		}
		if (unit[k] == VS_WINDOW_EVENTS && v[k] == 0) {
			snprintf(err, errlen, "%s: events count from 1 (frames from f:0)", name[k]);
			return -1;
		}
	}
	if (from && to && unit[0] != unit[1]) {
		snprintf(err, errlen, "--from %s and --to %s: give both ends in events (N) or both in frames (f:N)",
			unit[0] == VS_WINDOW_FRAMES ? "is a frame" : "is an event", unit[1] == VS_WINDOW_FRAMES ? "a frame" :
			"an event");
		return -1;
	}
	if (from && to && v[0] > v[1]) {
		snprintf(err, errlen, "--from %s%llu is after --to %s%llu", unit[0] == VS_WINDOW_FRAMES ? "f:" : "",
			(unsigned long long)v[0], unit[1] == VS_WINDOW_FRAMES ? "f:" : "", (unsigned long long)v[1]);
		return -1;
	}
	w->unit = from ? unit[0] : to ? unit[1] : VS_WINDOW_ALL;
	w->has_from = from != NULL;
	w->has_to = to != NULL;
	w->from = v[0];
	w->to = v[1];
	return 0;
}
