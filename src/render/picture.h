/* SPDX-License-Identifier: Zlib */
/* picture.h - whole pictures (titles, legends), as the PNG export writes them.
 */
#ifndef VS_RENDER_PICTURE_H
#define VS_RENDER_PICTURE_H

#include "render/history.h"
#include "render/image.h"
#include "render/render.h"

/* ---- whole pictures (titles, legends), as the PNG export writes them --- */

/* An occupancy picture of every arena of src[0..n) stacked, with title,
 * metrics line, legend of the tags present and failures up to now
 * (fails may be NULL). Allocates out. Returns 0, or -1. */
int vs_picture_occupancy(vs_image *out, const vs_render_src *src, int n, const char *title,
	const vs_history *fails);
/* A heatmap picture of every arena of a history, with title and legend. */
int vs_picture_heatmap(vs_image *out, const vs_history *hs, vs_heat_mode mode, const char *title);
/* A chart picture of every arena of a history. */
int vs_picture_chart(vs_image *out, const vs_history *hs, const char *title);
/* Two pictures side by side (tops aligned, background between). */
int vs_picture_hcat(vs_image *out, const vs_image *a, const vs_image *b);

#endif
