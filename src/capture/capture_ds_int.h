/* SPDX-License-Identifier: Zlib */
/* capture_ds_int.h - what capture_ds.c, capture_ds_range.c, capture_ds_2d.c
 * and capture_ds_3d.c share.
 *
 * Every DS arena is tracked the same way (capture_ds_range.c): each frame
 * the readers (2D: OAM and BG control; 3D: the polygon list) name the
 * footprints the hardware reads, in the arena's units, and the tracker
 * applies the GBA capture's range rules to them. An arena's offsets reach
 * the bank bytes through the mapping VRAMCNT gives (lcdc_of).
 */
#ifndef VS_CAPTURE_DS_INT_H
#define VS_CAPTURE_DS_INT_H

#include <stdint.h>
#include <stdio.h>

#include "capture/capture_ds.h"
#include "capture_out_int.h"
#include "vram/request.h"
#include "vramsim/arena.h"

#define CAP_DS_NONE 0xFFFFFFFFu  /* lcdc_of: no bank maps the unit */
#define CAP_DS_CELLS (VS_DS_LCDC_BYTES / 8u) /* 8-byte cells of the banks, for upload dates */

/* Where data lies in an arena, in its units: rows of w units, each stride
 * after the one before (rows 1: a run), and a tied run (a 4x4 texture's
 * slot-1 index data; tie_w 0: none). */
typedef struct cap_ds_fp {
	uint32_t start, w, rows, stride;
	uint32_t tie, tie_w;
} cap_ds_fp;

/* A footprint the hardware reads this frame, and the request it is when
 * it is one whole thing (a sprite, a map, a texture, a palette) the
 * arena's declaration allows there; else it is written as bytes. */
typedef struct cap_ds_want {
	cap_ds_fp fp;
	vs_request rq;
	uint8_t typed;   /* rq holds the request; else plain bytes, a row each */
	uint32_t size;   /* units, for ordering */
	uint32_t parent, own; /* joining: union-find parent, units it painted first */
	char tag[16];    /* the owner's name ("bg2"), or empty: a tag from the data */
} cap_ds_want;

/* A live allocation: ids id .. id + nids - 1 (one a row when written as
 * bytes). Live allocations never share a unit. */
typedef struct cap_ds_live {
	uint64_t id, first_unref;
	uint32_t misses;
	cap_ds_fp fp;
	uint32_t nids;
	uint8_t used, shown, exact, doomed;
} cap_ds_live;

typedef struct cap_ds_arena {
	int on;                 /* declared in the trace */
	int learn;              /* this frame says what the arena holds */
	const char *name;
	char tag_prefix;
	vs_arena_decl decl;     /* as declared, with the banks mapped now */
	uint32_t unit, units;   /* tracking unit in bytes (the arena's own), units in the arena */
	uint32_t *lcdc_of;      /* per unit: byte offset in vs_ds_frame.lcdc, or CAP_DS_NONE */
	uint32_t *owner;        /* per unit: live slot + 1, 0 none */
	uint64_t *freed;        /* per unit: frame + 1 of the last free over it */
	uint32_t *paint, *paint_stamp, stamp; /* in-frame joining */
	uint32_t *scratch;      /* units of one footprint */
	cap_ds_live *live;
	uint32_t nlive, live_cap;
	cap_ds_want *want;
	uint32_t nwant, want_cap;
	uint64_t *since;        /* per unit: the frame its bank last changed; nothing on it is dated before */
	uint64_t floor;         /* the frame of the arena's last `init`: nothing is dated before */
	vs_ds_capture_counts *st;
} cap_ds_arena;

struct vs_ds_capture {
	vs_ds_capture_options opt;
	cap_out o;
	char *header;
	int header_written, finished;
	uint64_t next_id;
	uint8_t vramcnt[VS_DS_BANKS];   /* as the previous frame had them */
	uint32_t obj_layout[2];         /* each engine's OBJ mapping bits of DISPCNT, the previous frame */
	uint64_t *written;              /* per 8-byte cell of the banks: frame + 1 of its last change, 0 never */
	uint8_t *prev;                  /* the banks at the previous frame (zero before the first) */
	const vs_ds_frame *f;           /* the frame being read */
	uint32_t tex_keys[VS_DS_POLYS_MAX];  /* the frame's texture parameters, sorted */
	uint64_t pltt_keys[VS_DS_POLYS_MAX]; /* its (texture parameter, palette base) pairs */
	vs_ds_capture_stats st;
	cap_ds_arena ar[VS_DS_CAP_ARENAS];
};

/* capture_ds_range.c */
int cap_ds_arena_init(cap_ds_arena *a, unsigned kind, unsigned engine);
void cap_ds_arena_fini(cap_ds_arena *a);
/* The mapping of the banks in vramcnt, applied to the arena's decl and
 * lcdc_of; units whose bank changed take `frame` as their since. Returns 1
 * when the arena lost memory it had (or had it moved). */
int cap_ds_arena_map(cap_ds_arena *a, const uint8_t vramcnt[VS_DS_BANKS], uint64_t frame);
/* Whether any bank maps memory for the arena. */
int cap_ds_arena_mapped(const cap_ds_arena *a);
/* Ends every live allocation (a bank left the arena). */
void cap_ds_arena_end_all(vs_ds_capture *c, cap_ds_arena *a);
/* A footprint the frame reads. The request, when rq is not NULL, is used
 * when the declaration allows it there; footprints on unmapped memory are
 * counted and dropped; clipped to the arena. tag NULL: from the data. */
void cap_ds_want_add(vs_ds_capture *c, cap_ds_arena *a, const cap_ds_fp *fp, const vs_request *rq, const char *tag);
/* After the readers: the frame's footprints joined, taken, and the live
 * allocations aged (only in arenas that learn this frame). */
int cap_ds_arena_frame(vs_ds_capture *c, cap_ds_arena *a);
uint64_t cap_ds_arena_live(const cap_ds_arena *a);

/* capture_ds_2d.c: each engine's OBJ, BG and extended palette footprints */
void cap_ds_2d_frame(vs_ds_capture *c, const vs_ds_frame *f, unsigned engine);
/* Whether the engine shows anything this frame. */
int cap_ds_2d_shown(const vs_ds_frame *f, unsigned engine);

/* capture_ds_3d.c: texture and texture palette footprints */
void cap_ds_3d_frame(vs_ds_capture *c, const vs_ds_frame *f);

#endif
