/* SPDX-License-Identifier: Zlib */
/* viewer_int.h - the viewer's state and the functions its parts call in one
 * another (viewer.c, view_*.c, script.c). Not installed. */
#ifndef VS_VIEWER_INT_H
#define VS_VIEWER_INT_H

/* SDL's parts, not SDL.h: SDL.h also brings SDL_cpuinfo.h and with it
 * every x86 intrinsic header, most of each viewer file's compile time.
 * viewer.c, which starts and stops SDL, includes SDL.h itself. */
#include <SDL_events.h>
#include <SDL_gamecontroller.h>
#include <SDL_hints.h>
#include <SDL_render.h>
#include <SDL_timer.h>

#include "render/render.h"
#include "base/compiler_hints.h"
#include "base/out_file.h"
#include "viewer/timeline.h"
#include "viewer/viewer.h"
#include "vram/arena.h"

/* The viewer's own colours (the renderer's are VS_RGB_*). */
#define RGB_PANEL 0x1A1D23FFu   /* top line, help, failure list */
#define RGB_TL_DONE 0x2F3540FFu /* the timeline's recorded part, the selected failure */
#define RGB_TL_TODO 0x1A1D23FFu /* the timeline's part not yet recorded */
#define RGB_HOVER 0xFFFFFFFFu   /* the hovered cell's outline */

#define VIEW_HOVER_LINES 5
#define VIEW_TIMES 8192 /* frame times kept for percentiles */
#define VIEW_MAX_DIRTY 48 /* regions drawn per frame before sending it all */
#define VIEW_MAX_SEND 512 /* rectangles sent to the window per frame */

/* A part of the window drawn again only when what it shows changes: the
 * hash of its inputs (text, cursor position, ...) is kept. */
typedef struct region {
	uint64_t hash;
	int valid;
} region;

enum { VIEW_PRESENT_AUTO, VIEW_PRESENT_TEXTURE, VIEW_PRESENT_SURFACE };

typedef struct arena_pane {
	vs_rect title;   /* name and metrics line */
	vs_rect map;     /* where the layout is drawn */
	vs_layout L;
	int ok;          /* the layout fits */
	int compact;     /* shown as a one-row strip (many arenas: not the one in focus) */
	/* the panels' labels as the renderer made them, before shortening to
	 * fit (the hover names a shortened one in full) */
	char full_label[VS_LAYOUT_MAX_PANELS][sizeof ((vs_layout_panel *)0)->label];
	region title_g;
	/* the map's runs and hover cell last drawn: the map is drawn again
	 * only when one of them changed */
	vs_own_run *snap;
	uint32_t snap_n, snap_cap;
	int64_t snap_hover;
	int snap_valid;
} arena_pane;

typedef struct side_pane {
	vs_rect col, label, chart, chart_title;
	arena_pane ar[VS_TRACE_MAX_ARENAS];
	/* the chart without its cursor, drawn again only when it changes */
	vs_image chart_img;
	int chart_img_arena;
	uint64_t chart_img_events;
	Uint32 chart_img_time;
	unsigned chart_gen;   /* bumped when chart_img is drawn again */
	region label_g, chart_title_g, chart_g;
} side_pane;

typedef struct time_stats {
	uint64_t n;
	double sum, max;
	float last[VIEW_TIMES];
} time_stats;

typedef struct script script;

/* What the status line's prompt asks for. */
enum { PROMPT_NONE, PROMPT_FRAME, PROMPT_FIND };
#define VIEW_PROMPT_MAX 64
typedef struct viewer {
	const vs_viewer_opts *o;
	FILE *log;
	vs_timeline *tl;
	int nsides, narenas;
	uint64_t est_events;  /* lines in the file: an upper bound while recording */
	char trace_name[128];

	SDL_Window *win;
	SDL_Renderer *ren;
	SDL_Texture *tex;
	int texw, texh;
	vs_image canvas;
	int W, H;
	int ts, lh;           /* text scale, line height (view_layout.c: the one place) */

	vs_rect top, legend, timeline, status;
	/* live mode (vs_viewer_opts.live): the game's picture, and its state */
	const vs_viewer_live *live;
	vs_rect game;
	int game_scale;
	int live_ended;       /* the game stopped: no more ticks */
	side_pane sp[VS_VIEW_MAX_SIDES];
	int chart_arena;

	int playing, speed_i;
	double acc;
	int help;
	int mx, my, mouse_in;
	int dragging;         /* 0 none, 1 timeline, 2+s chart of side s */

	char hover[VIEW_HOVER_LINES][192];
	int nhover, hover_side, hover_arena;
	int64_t hover_unit;

	char message[256];
	uint32_t message_until;

	/* the timeline's window: events [tl_lo, tl_lo + tl_span], or the
	 * whole trace when tl_span is 0 */
	uint64_t tl_lo, tl_span;
	uint64_t follow_at;   /* the cursor when the window last followed it */

	/* a prompt in the status line: go to frame N, find a tag or id */
	int prompt;
	char prompt_text[VIEW_PROMPT_MAX];
	int prompt_swallow;   /* the key that opened it also sends its text */
	char find[VIEW_PROMPT_MAX]; /* the last search, for n / shift+n */

	/* the failure list panel */
	int fails_open, fails_drawn;
	uint32_t *fail_rows;  /* events that failed on some side, ascending */
	size_t nfail_rows, capfail_rows;
	uint64_t fail_rows_rec; /* recorded events when fail_rows was built */
	int fail_rows_valid;
	size_t fail_sel, fail_top; /* selected row, first row shown (from 0) */

	script *sc;
	int script_failed;
	int shot_failed;      /* a screenshot could not be written: exit 2 */
	int log_failed;       /* a write to the log failed: exit 2 */
	char out_err[VS_OUT_PATH_MAX + 3072]; /* why either, for the run's error */
	char shot_pending[1024];
	/* a script's screenshots, written at their frames into o->outs (from
	 * f[shots0]) for the caller to commit with its own outputs */
	int shots0, nshots;
	int shot_n;
	int quit;

	/* owner lookups for the renderer: one-entry cache */
	vs_live scratch;
	uint32_t scratch_owner;

	/* incremental drawing (docs/viewer.md, "Drawing only what changed") */
	region top_g, legend_g, timeline_g, status_g;
	int force;            /* this compose draws everything */
	int redraw_all;       /* the next compose draws everything */
	int cramped;          /* some arena does not fit: always draw everything */
	int help_drawn;
	vs_rect hover_box;    /* the hover box last drawn (w 0: none) */
	uint64_t hover_hash;
	vs_rect damage[2];    /* pixels to draw again this frame (the old hover box) */
	int ndamage;
	SDL_Rect dirty[VIEW_MAX_DIRTY]; /* canvas parts changed since the last present */
	int ndirty, dirty_all;
	int present_mode;     /* VIEW_PRESENT_TEXTURE or _SURFACE */
	int vsync;            /* the renderer waits for the display */
	int show_all;         /* the window lost its picture: send it all */
	vs_image shown;       /* what the window has: dirty parts are compared with it */
	SDL_Rect send[VIEW_MAX_SEND];
	vs_image check;       /* --check-redraw: the frame drawn in full */
	uint64_t check_bad;

	/* measurements */
	uint64_t sent_px, presents; /* pixels sent to the window, presents made */
	time_stats compose, present, frame, seek;
	double record_ms;
	uint64_t frames;
} viewer;

/* Rectangles (negative sizes are empty). */
static inline vs_rect rect_make(int x, int y, int w, int h)
{
	vs_rect r;

	r.x = x;
	r.y = y;
	r.w = w > 0 ? w : 0;
	r.h = h > 0 ? h : 0;
	return r;
}

static inline int rect_inside(vs_rect r, int x, int y)
{
	return x >= r.x && y >= r.y && x < r.x + r.w && y < r.y + r.h;
}

static inline vs_rect rect_inflate(vs_rect r, int d)
{
	return rect_make(r.x - d, r.y - d, r.w + 2 * d, r.h + 2 * d);
}

static inline int rect_overlap(vs_rect a, vs_rect b)
{
	return a.w > 0 && a.h > 0 && b.w > 0 && b.h > 0 && a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h &&
		b.y < a.y + a.h;
}

/* viewer.c: the loop and set-up, the state the other parts change. */
void view_log(viewer *v, const char *fmt, ...) VS_PRINTF(2, 3);
/* A message in the status line (for 4 s, or until the next while a script
 * runs). */
void view_say(viewer *v, const char *fmt, ...) VS_PRINTF(2, 3);
void view_seek(viewer *v, uint64_t event);
uint64_t view_total(const viewer *v);
double view_speed(const viewer *v); /* events a second */
/* Stops playing and goes to event e. */
void view_step_to(viewer *v, uint64_t e);
/* One step faster (d 1) or slower (d -1). */
void view_speed_change(viewer *v, int d);

/* viewer.c: live mode. */
/* Runs the game for dt seconds (dt < 0: one frame) and records what the
 * trace gained; the cursor at the newest event stays there. */
void view_live_tick(viewer *v, double dt);

/* view_layout.c: where things are in the window. */
/* A canvas of w x h (clamped) and the regions laid out on it; -1 when out
 * of memory. */
int layout_resize(viewer *v, int w, int h);
/* The centre of a unit's cell (window pixels); -1 when it is not shown. */
int layout_unit_centre(viewer *v, int side, int arena, uint32_t unit, int *x, int *y);
/* The events the timeline shows: the whole trace, or its zoomed window. */
void layout_range(const viewer *v, uint64_t *lo, uint64_t *hi);
/* Halves (in) or doubles the timeline's window, event e staying put. */
void layout_zoom(viewer *v, uint64_t e, int in);
/* Moves a zoomed window by quarters of its width (negative: back). */
void layout_pan(viewer *v, int quarters);
/* A zoomed window goes with a cursor that moved out of it. */
void layout_follow(viewer *v);
/* Where the timeline shows event e (its window's ends for events outside
 * it), and the event at x. */
int layout_time_x(viewer *v, uint64_t e);
uint64_t layout_time_event(viewer *v, int x);
/* Where the timeline shows an event (window pixels). */
void layout_timeline_point(viewer *v, uint64_t event, int *x, int *y);
/* The arena charted, and with more than two arenas the one whose full map
 * is shown (the others are strips). */
void layout_focus(viewer *v, int arena);
/* More than two arenas: the others are strips (docs/viewer.md). */
int layout_many(const viewer *v);
/* Writes where each arena's pane is (the part its layout takes, in the
 * box it has) and each panel label to the log ("pane S A NAME
 * map|strip|none X Y W H in BOXW BOXH", "label S A X Y W H TEXT"; the
 * script's layout command). */
void layout_report(viewer *v);

/* view_draw.c: composing a frame into the canvas. */
/* Draws the frame: the regions whose inputs changed (listed in v->dirty),
 * or all of it with force. */
void draw_compose(viewer *v, int force);
/* --check-redraw: the same frame drawn in full must be the same pixels. */
void draw_check_frame(viewer *v);
/* vs_image_fill, a row at a time. */
void draw_fill(vs_image *im, vs_rect r, uint32_t rgba);
/* Text cut to max_w pixels (ending in '~' when cut). */
void draw_text_fit(viewer *v, int x, int y, const char *s, uint32_t rgba, int max_w);

/* view_present.c: how frames reach the window. */
/* Creates the renderer or takes the window's framebuffer, and the canvas
 * for the window's size. Returns 0, or 2 with err said. */
int present_open(viewer *v, int w, int h, char *err, size_t errlen);
/* Sends the canvas's changed parts to the window; nothing when nothing
 * changed (the picture stays up). */
void present_frame(viewer *v);

/* view_hover.c: the lines about the unit under the mouse (v->hover). */
void hover_update(viewer *v);

/* view_fails.c: the failure list panel (l). */
/* A point inside row k (from 0) of the failure list; -1 when not shown. */
int fails_row_point(viewer *v, size_t k, int *x, int *y);
/* Whether the open failure list covers a point. */
int fails_covers(viewer *v, int x, int y);
void fails_draw(viewer *v);
/* Opens (selecting the first failure from the cursor on) or closes it. */
void fails_toggle(viewer *v);
/* Keys, a click and the wheel on the open list; 0 when it did not take
 * them. */
int fails_key(viewer *v, const SDL_Keysym *k);
int fails_click(viewer *v);
int fails_wheel(viewer *v, int y);

/* view_input.c: keys, text, the mouse and the window's events. */
void input_event(viewer *v, const SDL_Event *e);
/* Go to frame n (0: the start). Returns 0, or -1 when there is no such
 * frame (said in the status line). */
int input_go_frame(viewer *v, uint64_t n);
/* Find (query as typed at the prompt: NAME or tag=NAME, N or id=N) the
 * next (dir > 0) or previous alloc/free of it and go there. Returns the
 * event, or 0 when none (said in the status line). */
uint64_t input_find(viewer *v, const char *query, int dir);

/* script.c: commands from a file, one per frame once recording is done. */
script *script_load(const char *path, char *err, size_t errlen);
void script_free(script *sc);
/* Runs the next command (or waits). Returns 1 while the script runs, 0 at
 * its end. */
int script_step(viewer *v, script *sc);
/* "FILE:LINE" of the command running, for messages. */
void script_where(const script *sc, char *buf, size_t len);

#endif
