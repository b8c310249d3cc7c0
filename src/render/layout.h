/* SPDX-License-Identifier: Zlib */
/* layout.h - where each unit of an arena is drawn: panels of cells laid out like
 * the hardware (OBJ tile matrix, BG charblocks, DS slots, RAM strips).
 */
#ifndef VS_RENDER_LAYOUT_H
#define VS_RENDER_LAYOUT_H

#include <stdint.h>

#include "render/image.h"
#include "vramsim/arena.h"

/* ---- layouts: where each unit is drawn -------------------------------- */

#define VS_LAYOUT_MAX_PANELS 16

/* A panel is a grid of cells; each cell shows upc consecutive units, cells
 * run left to right then top to bottom from unit0. */
typedef struct vs_layout_panel {
	uint32_t unit0, nunits;
	uint32_t upc;          /* units per cell (1 for VRAM; >= 1 for RAM strips) */
	int cols, rows;
	int x, y;              /* pixel of cell (0, 0), relative to the layout */
	int cw, ch;            /* cell size in pixels */
	int gap;               /* pixels between cells (grid shows through) */
	int line_rows;         /* a grid line every line_rows rows (0: none) */
	int line_cols;         /* a grid line every line_cols cols (0: none) */
	char label[40];        /* drawn above the panel ("slot 1", "charblock 0") */
	int row_gap;           /* extra pixels between rows (RAM strips) */
	int margin;            /* pixels left of cell (0, 0) for row address labels */
} vs_layout_panel;

typedef struct vs_layout {
	vs_arena_kind kind;
	int w, h;              /* pixels, labels included */
	int npanels;
	vs_layout_panel panel[VS_LAYOUT_MAX_PANELS];
} vs_layout;

/* Lays out an arena's units to fit in max_w x max_h pixels (0, 0: the
 * natural size, e.g. 12-pixel tiles for OBJ VRAM). Cells are at least one
 * pixel; RAM strips group units into cells to fit. Returns 0, -1 if the
 * box is too small. */
int vs_layout_make(vs_layout *L, const vs_arena_decl *d, int max_w, int max_h);
/* The first unit shown at pixel (x, y) relative to the layout, or -1. */
int64_t vs_layout_unit_at(const vs_layout *L, int x, int y);
/* The cell showing a unit, relative to the layout. Returns 0, or -1. */
int vs_layout_unit_rect(const vs_layout *L, uint32_t unit, vs_rect *out);

#endif
