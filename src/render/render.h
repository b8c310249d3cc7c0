/* SPDX-License-Identifier: Zlib */
/* render.h - replay state as RGBA pictures, shared by PNG export and the viewer.
 *
 * Everything draws into a vs_image: plain RGBA bytes, row-major, no stride
 * padding (SDL_PIXELFORMAT_RGBA32 / PNG_COLOR_TYPE_RGBA order). Text uses a
 * built-in 8x13 bitmap font, so a picture is the same bytes on every machine.
 *
 * Three kinds of picture:
 * - occupancy: one arena's ownership map laid out like the hardware (OBJ tile
 *   matrix, BG charblocks with screenblock lines, DS texture slots 0-3, DS
 *   palette slots 0-5, RAM address strips), coloured by owner tag and unit kind;
 * - heatmap: time on x, address on y, from a vs_history sampled during replay;
 * - chart: live bytes, largest free extent and fragmentation over time.
 *
 * Colours are 0xRRGGBBAA in a uint32_t (vs_image_get/put convert).
 */
#ifndef VRAMSIM_RENDER_H
#define VRAMSIM_RENDER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "vram/arena.h"
#include "engine/replay.h"

/* ---- images ---------------------------------------------------------- */

typedef struct vs_image {
	int w, h;
	uint8_t *px; /* w*h*4 bytes: R, G, B, A per pixel, rows top to bottom */
} vs_image;

typedef struct vs_rect { int x, y, w, h; } vs_rect;

/* Allocates w x h pixels filled with rgba. Returns 0, or -1 (no memory, bad size). */
int vs_image_init(vs_image *im, int w, int h, uint32_t rgba);
void vs_image_fini(vs_image *im);
uint32_t vs_image_get(const vs_image *im, int x, int y);   /* 0 outside */
void vs_image_put(vs_image *im, int x, int y, uint32_t rgba); /* clipped */
void vs_image_fill(vs_image *im, vs_rect r, uint32_t rgba);  /* clipped */
void vs_image_frame(vs_image *im, vs_rect r, uint32_t rgba); /* 1-pixel outline */
void vs_image_hline(vs_image *im, int x0, int x1, int y, uint32_t rgba);
void vs_image_vline(vs_image *im, int x, int y0, int y1, uint32_t rgba);
void vs_image_line(vs_image *im, int x0, int y0, int x1, int y1, uint32_t rgba);
/* Copies src into dst at (x, y), clipped. */
void vs_image_blit(vs_image *dst, int x, int y, const vs_image *src);

/* ---- text (font.c) --------------------------------------------------- */

#define VS_FONT_W 8  /* advance per character at scale 1: the 8x13 font's cell */
#define VS_FONT_H 13 /* line height at scale 1 (11 above the baseline, 2 below) */

/* Draws ASCII 32-126 (others as '?'); '\n' starts a new line. Returns the
 * width in pixels of the longest line drawn. */
int vs_image_text(vs_image *im, int x, int y, const char *s, uint32_t rgba, int scale);
int vs_image_text_width(const char *s, int scale);

/* Every box a picture puts something in: text, a legend's swatch, a plot or
 * map. A hook set here is told of each one drawn (tests check that no two
 * overlap and none leaves the image); NULL stops it. One hook for the
 * process, not for threads drawing at once: for tests and debugging. */
typedef enum vs_box_kind { VS_BOX_TEXT = 0, VS_BOX_SWATCH, VS_BOX_PLOT } vs_box_kind;
typedef void (*vs_box_fn)(void *ud, const vs_image *im, vs_rect box, vs_box_kind kind, const char *what);
void vs_render_box_hook(vs_box_fn fn, void *ud);

/* ---- colours ---------------------------------------------------------- */

#define VS_RGB_BG        0x101216FFu /* picture background */
#define VS_RGB_FREE      0x23272FFFu /* free units: dark */
#define VS_RGB_TEXT      0xE6E6E6FFu
#define VS_RGB_DIM       0x8A9099FFu /* axis labels, grid */
#define VS_RGB_GRID      0x3A404CFFu
#define VS_RGB_RESERVED  0x5A2A2AFFu /* hardware-forbidden units (hatched) */
#define VS_RGB_OVERHEAD  0xB8B8B8FFu /* allocator headers and padding (dotted) */
#define VS_RGB_FAIL      0xFF3040FFu /* failed requests */
#define VS_RGB_UNTAGGED  0x7F8FA6FFu /* live data with no tag */
#define VS_RGB_LIVE      0x4FC3F7FFu /* chart: live bytes */
#define VS_RGB_LARGEST   0x81C784FFu /* chart: largest free extent */
#define VS_RGB_FRAG      0xFFB74DFFu /* chart: fragmentation */
#define VS_RGB_CURSOR    0xFFFFFFFFu

/* A stable colour for a tag name: the same name gets the same colour on
 * every run and machine (FNV-1a hash to a hue). NULL or "" -> VS_RGB_UNTAGGED. */
uint32_t vs_tag_colour(const char *tag);
/* The colour of tag number tag (the trace reader numbers tags in the order
 * they first appear): a categorical palette whose first 24 are far apart,
 * so one run's pictures give each tag the same colour, and the first tags
 * never share one. 0 (no tag) is VS_RGB_UNTAGGED. */
uint32_t vs_tag_colour_id(uint32_t tag);

/* What an allocation's colour says: its tag (default), its size, its age
 * (events since it was made) or its depth (4bpp / 8bpp). */
typedef enum vs_colour_by { VS_COLOUR_TAG = 0, VS_COLOUR_SIZE, VS_COLOUR_AGE, VS_COLOUR_BPP } vs_colour_by;
/* "tag", "size", "age", "bpp"; -1 when unknown. */
int vs_colour_by_parse(const char *name);
/* The colour of l under by at event now (by != VS_COLOUR_TAG). */
uint32_t vs_live_colour(const vs_live *l, vs_colour_by by, uint64_t now);
/* The legend of by: bin k's name and colour; returns the number of bins. */
int vs_colour_by_bin(vs_colour_by by, int k, const char **name, uint32_t *colour);
/* What a unit of kind k owned by a tag of colour c looks like at pixel
 * (x, y) of its cell (hatching and dots are position-dependent patterns). */
uint32_t vs_unit_pixel(vs_unit_kind k, uint32_t c, int is_map, int x, int y);

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

/* ---- layouts: where each unit is drawn -------------------------------- */

#define VS_LAYOUT_MAX_PANELS 8

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

/* Draws the arena's ownership map at (x, y) of im (labels, cells, grid
 * lines). Only the map: no title or legend. */
void vs_render_arena(vs_image *im, int x, int y, const vs_layout *L, const vs_render_src *src);

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

/* ---- history: columns sampled during a replay ------------------------- */

typedef enum vs_heat_mode {
	VS_HEAT_OWNER = 0, /* colour by the owner's tag */
	VS_HEAT_OCCUPANCY  /* brightness by the fraction of the row in use */
} vs_heat_mode;

typedef struct vs_history vs_history;

/* A history keeps at most `columns` samples per arena, each `rows` address
 * rows high (0, 0: 1024 x 256). While the replay runs it samples every
 * `stride` events and, when the columns fill up, merges pairs and doubles
 * the stride, so memory stays bounded and a 1,000,000-event trace costs a
 * few thousand samples, never a full state per event. */
vs_history *vs_history_new(int columns, int rows);
void vs_history_free(vs_history *hs);
/* Installs the history's observer in cfg (before vs_replay_new). A caller
 * with an observer of its own calls vs_history_observe from it instead. */
void vs_history_attach(vs_history *hs, vs_replay_config *cfg);
/* What the heatmap's colours say (before the replay runs; default tag). */
void vs_history_set_colour_by(vs_history *hs, vs_colour_by by);
vs_colour_by vs_history_colour_by(const vs_history *hs);
void vs_history_observe(vs_history *hs, vs_replay *r, const vs_outcome *o);
/* The history's on_mark (attach installs it too): marks the address rows
 * that changed, so a sample redraws only those. A caller with its own
 * on_mark forwards here; if none is ever forwarded every row is resampled. */
void vs_history_mark(void *hs, int arena, uint32_t off, uint32_t len, uint32_t owner, vs_unit_kind kind);
/* Draws only window w (set before the replay runs; default: all of it):
 * columns, failures and peaks come from the events inside it, and the time
 * axes start at its first event. */
void vs_history_set_window(vs_history *hs, const vs_window *w);
/* After finish: 0 when the window lies in the replay, or -1 with why not in
 * err (frames asked of a trace without `frame` statements; an end past the
 * trace's end, saying how many events or frames it has). */
int vs_history_window_check(const vs_history *hs, char *err, size_t errlen);
/* The first and last event drawn (1-based; 0, 0 when none is), and whether
 * a window was set. Without one: 1 and the last event. */
uint64_t vs_history_first_event(const vs_history *hs);
uint64_t vs_history_last_event(const vs_history *hs);
int vs_history_windowed(const vs_history *hs);
/* The window drawn in its own unit, "frames 40-80" or "events 1200-3400";
 * "" without one. */
void vs_history_window_describe(const vs_history *hs, char *buf, size_t len);
/* Takes the last sample once the replay has stopped (also for a trace
 * with no events). Returns 0, or -1 on no memory. */
int vs_history_finish(vs_history *hs, const vs_replay *r);

uint64_t vs_history_events(const vs_history *hs);
int vs_history_arena_count(const vs_history *hs);
/* Events (1-based) at which an allocation in arena i failed, ascending: all
 * of them up to 65536; past that every other one is dropped and later ones
 * are kept twice as far apart, so memory stays bounded (they are ticks on
 * a time line). vs_history_failure_count counts every event with a failure. */
const uint64_t *vs_history_failures(const vs_history *hs, int i, size_t *n);
uint64_t vs_history_failure_count(const vs_history *hs, int i);
/* Event of the peak live bytes and of the peak fragmentation (first reached). */
uint64_t vs_history_peak_live_event(const vs_history *hs, int i);
uint64_t vs_history_peak_frag_event(const vs_history *hs, int i);
/* Sample columns: count, and column c's last event; over the events the
 * column covers, the highest live bytes, the smallest largest free extent
 * and the highest fragmentation. */
int vs_history_columns(const vs_history *hs);
uint64_t vs_history_column_event(const vs_history *hs, int c);
/* Frame statements before column c's event, and in the whole replay (0:
 * the trace has no frames, time is in events). */
uint64_t vs_history_column_frame(const vs_history *hs, int c);
uint64_t vs_history_frames(const vs_history *hs);
void vs_history_column_metrics(const vs_history *hs, int i, int c, uint64_t *live, uint64_t *largest, double *frag);

/* Draws the heatmap of arena i into r (axes, failure ticks, cursor at
 * cursor_event when non-zero). */
void vs_render_heatmap(vs_image *im, vs_rect r, const vs_history *hs, int i, vs_heat_mode mode, uint64_t cursor_event);
/* Draws the chart of arena i into r (live bytes, largest free extent,
 * fragmentation; failure ticks; a cursor at cursor_event when non-zero). */
void vs_render_chart(vs_image *im, vs_rect r, const vs_history *hs, int i, uint64_t cursor_event);
/* The x pixel of an event within a heatmap/chart drawn in r, and the
 * event at an x pixel (for seeking by clicking). */
int vs_render_time_x(const vs_history *hs, vs_rect r, uint64_t event);
uint64_t vs_render_time_event(const vs_history *hs, vs_rect r, int x);

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

/* ---- PNG (png.c) ----------------------------------------------------- */

/* Writes im as an 8-bit RGBA PNG with fixed settings and no time or text
 * chunks: the same image gives the same bytes. Returns 0, or -1. */
int vs_png_write(FILE *fp, const vs_image *im);
/* Reads an 8-bit PNG (any libpng-readable colour type, expanded to RGBA)
 * into im. Returns 0, or -1 with a message in err. */
int vs_png_read(const char *path, vs_image *im, char *err, size_t errlen);

#endif
