/* SPDX-License-Identifier: Zlib */
/* capture_ds.h - an allocation trace from what a Nintendo DS game shows,
 * frame by frame.
 *
 * A feeder (the DS emulator) hands over one vs_ds_frame per frame. Capture
 * infers from them which VRAM each 2D engine's sprites, backgrounds and
 * extended palettes and the 3D engine's textures and texture palettes hold,
 * and when VRAMCNT gives a bank another use, and writes trace format v1
 * with the DS arenas. The rules and their limits are docs/capture.md's DS
 * part. The inference of ranges is the GBA capture's (capture.h), applied
 * to each DS arena.
 */
#ifndef VRAMSIM_CAPTURE_DS_H
#define VRAMSIM_CAPTURE_DS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "capture/ds_frame.h"

typedef struct vs_ds_capture_options {
	uint32_t grace;    /* frames a range may go unshown before it is freed (1-600, default 3) */
	uint32_t lookback; /* frames an upload may precede its first use (0-600, default 4) */
} vs_ds_capture_options;

void vs_ds_capture_options_default(vs_ds_capture_options *o);

/* The arenas a DS capture may declare, in the trace's order; the names
 * are vs_ds_capture_arena_name's. */
enum {
	VS_DS_CAP_OBJ_A, VS_DS_CAP_OBJ_B,       /* ds-obj */
	VS_DS_CAP_BG_A, VS_DS_CAP_BG_B,         /* ds-bg */
	VS_DS_CAP_BGPAL_A, VS_DS_CAP_BGPAL_B,   /* ds-bg-extpal */
	VS_DS_CAP_OBJPAL_A, VS_DS_CAP_OBJPAL_B, /* ds-obj-extpal */
	VS_DS_CAP_TEX, VS_DS_CAP_PLTT,          /* ds-tex, ds-pltt */
	VS_DS_CAP_ARENAS
};

const char *vs_ds_capture_arena_name(unsigned arena);

/* Counts of one arena; "summed" counts add up every frame's. */
typedef struct vs_ds_capture_counts {
	uint64_t allocs, frees, live;
	uint64_t dated_back;       /* allocations dated back to the upload of their data */
	uint64_t nested;           /* ranges inside a larger live allocation (summed) */
	uint64_t merged;           /* ranges overlapping another in the same frame, joined (summed) */
	uint64_t partial_overlaps; /* live allocations ended by a range overlapping them otherwise than inside */
	uint64_t reused;           /* allocations ended by a smaller range inside them on data written since */
	uint64_t bank_ends;        /* live allocations ended because a bank change took memory from the arena */
	uint64_t unmapped;         /* ranges on memory no bank maps for the arena, skipped (summed) */
	uint64_t refused;          /* ranges not even plain bytes may be placed at under the arena's rules
	                            * (a palette not on 16 bytes), skipped (summed) */
	uint64_t as_bytes;         /* allocations written as plain bytes: not one sprite, map, texture or
	                            * palette the arena's declaration allows there */
} vs_ds_capture_counts;

typedef struct vs_ds_capture_stats {
	uint64_t frames;
	uint64_t held;             /* frames before the first one that maps a bank and shows something */
	uint64_t blank[2];         /* frames engine A, B showed nothing (forced blank, display off, powered off) */
	uint64_t bank_changes;     /* VRAMCNT values changed between frames, after the header */
	uint64_t bank_undeclared;  /* of them, banks given a use the trace has no arena for */
	uint64_t mapping_changes[2]; /* frames whose OBJ mapping (tile 1D/2D, boundary, bitmap) of engine A, B
	                              * differs from the frame before */
	/* OBJ */
	uint64_t obj_entries;      /* OAM entries drawn (summed) */
	uint64_t bad_shape;        /* entries of the prohibited shape 3, skipped (summed) */
	uint64_t wrapped;          /* 2D sprites wrapping past column 31: a run per row (summed) */
	uint64_t clipped;          /* ranges running past their memory's end, cut (summed) */
	uint64_t odd_bitmap;       /* 2D bitmap sprites on an odd 8-dot column (16 bytes): rows of bytes (summed) */
	/* BG */
	uint64_t bg_layers;        /* layers shown (summed) */
	/* 3D */
	uint64_t list_frames;      /* frames whose polygon list held polygons */
	uint64_t polys;            /* polygons read (summed) */
	uint64_t polys_textured;   /* of them, textured (summed) */
	uint64_t polys_cut;        /* polygons past VS_DS_POLYS_MAX, not read (summed) */
	int declared[VS_DS_CAP_ARENAS]; /* the arena is in the trace */
	vs_ds_capture_counts arena[VS_DS_CAP_ARENAS];
} vs_ds_capture_stats;

typedef struct vs_ds_capture vs_ds_capture;

/* Starts a capture writing to out (not closed by capture). header_comment,
 * or NULL, is copied into the trace's header as vs_capture_new does. NULL
 * options take the defaults. NULL with err on bad options or no memory. */
vs_ds_capture *vs_ds_capture_new(const vs_ds_capture_options *o, FILE *out, const char *header_comment, char *err,
	size_t errlen);
/* One frame. The header is written at the first frame that maps a bank
 * for one of the arenas' uses and shows something (a 2D engine on, or a
 * polygon list); the arenas are the uses mapped then, with their banks.
 * Frames before it are counted and written after the header. Events are
 * written max(grace, lookback) frames late. Returns 0, or -1 on a write
 * error or no memory (the capture is then spent). */
int vs_ds_capture_frame(vs_ds_capture *c, const vs_ds_frame *f);
/* Writes the frames still buffered and a summary in comments; allocations
 * live at the end stay live. Returns 0 or -1 as vs_ds_capture_frame. */
int vs_ds_capture_finish(vs_ds_capture *c);
/* A copy of c that writes to out from here on (what c wrote is c's): a
 * capture finished early while c goes on (vramsim play). NULL when out of
 * memory. */
vs_ds_capture *vs_ds_capture_copy(const vs_ds_capture *c, FILE *out);
void vs_ds_capture_stats_get(const vs_ds_capture *c, vs_ds_capture_stats *s);
void vs_ds_capture_free(vs_ds_capture *c);

#endif
