/* SPDX-License-Identifier: Zlib */
/* capture_impl.h - what capture.c, capture_obj.c and capture_bg.c share.
 * Events go out through the delayed output of capture_out_int.h.
 */
#ifndef VS_CAPTURE_IMPL_H
#define VS_CAPTURE_IMPL_H

#include <stdint.h>
#include <stdio.h>

#include "capture/capture.h"
#include "capture_out_int.h"
#include "vram/request.h"

#define CAP_OBJ_TILES 1024u
#define CAP_OBJ_VRAM 0x10000u   /* OBJ tiles in vs_gba_frame.vram */
#define CAP_OAM_ENTRIES 128u
#define CAP_SEGS (CAP_OAM_ENTRIES * 8u) /* a 2D sprite wrapping past column 31 is up to 8 runs */

/* Tiles shown this frame: rows of w tiles, each 32 after the one above (a
 * 2D sprite's rectangle), or with one row a run of w tiles (a 1D sprite, a
 * sheet). A shape of more than one row never crosses column 31; every tile
 * lies below 1024. Tag and upload date come from src: the whole sprite. */
typedef struct cap_seg {
	uint16_t start, w, rows;       /* tiles */
	uint16_t src, src_rows, src_w; /* rows of src_w tiles, 32 apart (1D: one row) */
	uint8_t shape, size, bpp;      /* the sprite, when whole */
	uint8_t whole;                 /* exactly one sprite, unclipped */
	uint8_t map2d;                 /* the frame's OBJ mapping */
} cap_seg;

/* A live OBJ allocation, shaped as a cap_seg. Live allocations never
 * overlap. One that is not a sprite of the arena's mapping and has several
 * rows is written one allocation per row: ids id .. id + nids - 1. */
typedef struct cap_live {
	uint64_t id;
	uint64_t first_unref;  /* first frame of the current unshown run */
	uint32_t misses;       /* frames unshown in a row */
	uint16_t start, w, rows;
	uint8_t nids, used, sheet, shown, doomed;
	uint8_t exact;         /* this frame shows its own range (not only ranges inside it) */
	/* --uploads: a run of tiles uploaded outside every live allocation and
	 * not shown (yet): allocated from `date`; its alloc line (bytes, tag from
	 * `hash`) waits until it is ended or its date is about to be written
	 * (`out`), so that a sprite shown on it can still take its tiles */
	uint8_t upload, out;
	uint32_t hash;
	uint64_t date;
} cap_live;

/* A set of OBJ tiles, a bit each. */
typedef struct cap_tiles {
	uint32_t bits[CAP_OBJ_TILES / 32u];
} cap_tiles;

typedef struct cap_obj {
	cap_live live[CAP_OBJ_TILES];
	uint16_t owner[CAP_OBJ_TILES];    /* live slot + 1 holding the tile, 0 none */
	uint64_t written[CAP_OBJ_TILES];  /* frame + 1 of the tile's last change, 0 never */
	uint64_t freed[CAP_OBJ_TILES];    /* frame + 1 of the last free that covered it */
	uint64_t fresh[CAP_OBJ_TILES];    /* frame + 1 of its first change since that free, 0 none */
	uint8_t changed[CAP_OBJ_TILES];   /* changed this frame */
	uint32_t nchanged;
	cap_seg seg[CAP_SEGS];
	cap_tiles seg_tiles[CAP_SEGS];    /* 2D frames: each seg's tiles, for joining */
	uint32_t nseg;
	/* sheet heuristic: the last large upload, and OAM as last seen */
	uint16_t big_lo, big_hi;
	uint64_t big_frame;
	uint16_t prev_tile[CAP_OAM_ENTRIES];
	uint8_t prev_shown[CAP_OAM_ENTRIES];
} cap_obj;

typedef struct cap_bg cap_bg;

struct vs_capture {
	vs_capture_options opt;
	cap_out o;           /* the frame being read (o.frame), the buffered output */
	char *header;
	int started, finished;
	int header_written;
	int map_known;       /* the obj arena's mapping (st.obj_2d) is settled */
	uint64_t held;       /* blank frames flushed before the header: written after it */
	uint64_t next_id;
	unsigned mode;       /* display mode of the previous frame */
	int map2d;           /* OBJ mapping of the previous frame */
	vs_capture_stats st;
	cap_obj obj;
	cap_bg *bg;
	uint8_t prev[VS_GBA_VRAM_BYTES]; /* VRAM at the previous frame (zero before the first): OBJ tiles,
	                                  * and with --uploads BG VRAM, each tile copied when it changes
	                                  * (capture_obj.c, capture_bg.c) */
};

enum { CAP_ARENA_OBJ = 0, CAP_ARENA_BG = 1 };

/* capture.c: output */
void cap_alloc(vs_capture *c, uint64_t frame, int arena, uint64_t id, const vs_request *rq, const char *tag,
	uint32_t at);
/* The same into a part of the frame (CAP_PART_ALLOCS, or CAP_PART_EARLY: before its frees). */
void cap_alloc_in(vs_capture *c, int part, uint64_t frame, int arena, uint64_t id, const vs_request *rq,
	const char *tag, uint32_t at);
void cap_free(vs_capture *c, uint64_t frame, uint64_t id);
void cap_comment(vs_capture *c, const char *fmt, ...);

/* Display state of a frame. */
unsigned cap_mode(const vs_gba_frame *f);
int cap_blank(const vs_gba_frame *f);
int cap_readable(vs_capture *c, const vs_gba_frame *f);

/* capture_obj.c */
void cap_obj_frame(vs_capture *c, const vs_gba_frame *f, int readable);
void cap_obj_live_count(vs_capture *c);
/* --uploads: writes the unseen uploads dated at the oldest buffered frame,
 * before it is flushed */
void cap_obj_commit_uploads(vs_capture *c);

/* capture_runs.c (--uploads): calls found(c, lo, hi, date) for every run
 * of loose units lo..hi-1, dated at the earliest first[] among them.
 * first[u]: frame + 1 of unit u's first change since it was last freed
 * when no live allocation owns it and it is an upload (not a clear), else
 * 0. kind (or NULL): a run is cut where it changes. */
typedef void cap_run_fn(vs_capture *c, uint32_t lo, uint32_t hi, uint64_t date);
void cap_runs(vs_capture *c, const uint64_t *first, const uint8_t *kind, uint32_t n, cap_run_fn *found);
/* The tag of graphics from the FNV-1a hash of their bytes: g and six hex digits. */
void cap_data_tag(uint32_t h, char *tag, size_t len);

/* capture_bg.c */
cap_bg *cap_bg_new(void);
void cap_bg_free(cap_bg *b);
cap_bg *cap_bg_copy(const cap_bg *b);
void cap_bg_frame(vs_capture *c, const vs_gba_frame *f);
/* --uploads: every frame, blank or not, before cap_bg_frame */
void cap_bg_uploads(vs_capture *c, const vs_gba_frame *f);
/* --uploads: every frame, after cap_bg_frame: uploads no layer shows
 * become allocations of their own */
void cap_bg_runs_found(vs_capture *c, const vs_gba_frame *f);
/* --uploads: writes the BG runs dated at the oldest buffered frame */
void cap_bg_commit_uploads(vs_capture *c);

#endif
