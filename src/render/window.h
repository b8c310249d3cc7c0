/* SPDX-License-Identifier: Zlib */
/* window.h - the part of a replay that heatmaps, charts and time lines draw
 * (--from / --to).
 */
#ifndef VS_RENDER_WINDOW_H
#define VS_RENDER_WINDOW_H

#include <stddef.h>
#include <stdint.h>

/* ---- a window of the replay: --from / --to ----------------------------- */

/* The part of a replay that heatmaps, charts and time lines draw. Events
 * outside it are replayed (they make the state) but not drawn. An end is an
 * event number N (events count from 1; `frame` statements are events too)
 * or a frame f:N / frame:N: frame N runs from the N-th `frame` statement
 * (frame 0 from the start) up to the next one. Both ends are inclusive and
 * in one unit. */
typedef enum vs_window_unit { VS_WINDOW_ALL = 0, VS_WINDOW_EVENTS, VS_WINDOW_FRAMES } vs_window_unit;

typedef struct vs_window {
	vs_window_unit unit;   /* VS_WINDOW_ALL: the whole replay */
	int has_from, has_to;  /* an end not given is the replay's start or end */
	uint64_t from, to;
} vs_window;

/* Parses --from and --to (either may be NULL) into w. Returns 0, or -1
 * with a message in err: a malformed number, from after to, ends in two
 * units. */
int vs_window_parse(vs_window *w, const char *from, const char *to, char *err, size_t errlen);

#endif
