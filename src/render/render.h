/* SPDX-License-Identifier: Zlib */
/* render.h - replay state as RGBA pictures, shared by PNG export and the viewer.
 *
 * Everything draws into a vs_image (image.h). The parts, one prefix each:
 * image.h, colour.h, layout.h, window.h, history.h, picture.h, png.h; this
 * header says what to draw of an arena and draws its map.
 *
 * Three kinds of picture:
 * - occupancy: one arena's ownership map laid out like the hardware (OBJ tile
 *   matrix, BG charblocks with screenblock lines, DS texture slots 0-3, DS
 *   palette slots 0-5, RAM address strips), coloured by owner tag and unit kind;
 * - heatmap: time on x, address on y, from a vs_history sampled during replay;
 * - chart: live bytes, largest free extent and fragmentation over time.
 */
#ifndef VRAMSIM_RENDER_H
#define VRAMSIM_RENDER_H

#include <stdint.h>

#include "engine/replay.h"
#include "render/colour.h"
#include "render/image.h"
#include "render/layout.h"
#include "vram/arena.h"

/* ---- what to draw: an arena and who owns it --------------------------- */

/* The record holding an owner handle, or NULL when unknown. */
typedef const vs_live *(*vs_render_owner_fn)(void *ud, uint32_t owner);
typedef const char *(*vs_render_tag_fn)(void *ud, uint32_t tag);

typedef struct vs_render_src {
	const vs_arena *arena;      /* decl and ownership map, read through arena.h (required) */
	vs_render_owner_fn owner;   /* may be NULL: owners are untagged */
	vs_render_tag_fn tag_name;  /* may be NULL */
	void *ud;
	const vs_metrics *metrics;  /* may be NULL: no metrics line */
	const char *strategy;       /* name for titles, may be NULL */
	uint64_t event;             /* current event number (0: start) */
	uint64_t frame;             /* current frame number */
	uint32_t shown;             /* bytes shown from the arena's start (0: all of it) */
	vs_colour_by colour_by;     /* what allocations' colours say (default: tag) */
} vs_render_src;

/* Fills src for arena i of a replay at its current event. A RAM arena is
 * shown up to its high-water mark (rounded up to a sixteenth of the arena),
 * the part any allocation ever reached; set shown to 0 for all of it. */
void vs_render_src_replay(vs_render_src *src, const vs_replay *r, int i);

/* Draws the arena's ownership map at (x, y) of im (labels, cells, grid
 * lines). Only the map: no title or legend. */
void vs_render_arena(vs_image *im, int x, int y, const vs_layout *L, const vs_render_src *src);

#endif
