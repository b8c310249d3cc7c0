/* SPDX-License-Identifier: Zlib */
/* capture.h - an allocation trace from what a GBA game shows, frame by frame.
 *
 * A feeder (an emulator) hands over one snapshot of the video hardware per
 * frame, taken at VBlank. Capture infers from the snapshots which OBJ and BG
 * VRAM the game holds, with no instrumentation of the game, and writes trace
 * format v1. The rules and their limits are described for users in
 * docs/capture.md.
 */
#ifndef VRAMSIM_CAPTURE_H
#define VRAMSIM_CAPTURE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define VS_GBA_IO_HALFWORDS 0x30   /* 0x04000000-0x0400005F */
#define VS_GBA_OAM_BYTES 1024
#define VS_GBA_VRAM_BYTES 0x18000

/* Halfword indices into vs_gba_frame.io (address 0x04000000 + 2 * index). */
enum {
	VS_IO_DISPCNT = 0x00,
	VS_IO_BG0CNT = 0x04,  /* BGxCNT: VS_IO_BG0CNT + x */
	VS_IO_BG0HOFS = 0x08, /* BGxHOFS: + 2x, BGxVOFS: + 2x + 1 */
	VS_IO_BG2PA = 0x10,   /* PA PB PC PD, X low, X high, Y low, Y high */
	VS_IO_BG3PA = 0x18
};

/* The hardware state at one VBlank. */
typedef struct vs_gba_frame {
	uint16_t io[VS_GBA_IO_HALFWORDS];
	uint8_t oam[VS_GBA_OAM_BYTES];    /* 0x07000000 */
	uint8_t vram[VS_GBA_VRAM_BYTES];  /* 0x06000000 */
	/* the feeder saw DISPCNT, a BGxCNT or OAM change while the frame was
	 * drawn: what was shown differs from this snapshot */
	uint8_t changed_mid_frame;
} vs_gba_frame;

#define VS_CAPTURE_WINDOW_MAX 600u /* largest grace or lookback, in frames */
#define VS_CAPTURE_ROM_MAX 65535u  /* distinct BG tile graphics given their own ROM index */

typedef struct vs_capture_options {
	uint32_t grace;    /* frames a range may go unshown before it is freed (1-600, default 3) */
	uint32_t lookback; /* frames an upload may precede its first use (0-600, default 4) */
	int sheet;         /* an upload is one allocation; OAM ranges inside it are not */
	int obj, bg;       /* which arenas to write (default both) */
	/* An engine's view (docs/capture.md, "Options for an engine's view"), all
	 * off by default: */
	int keep_hidden;   /* an unshown sprite keeps its tiles until they are overwritten */
	int uploads;       /* a new OBJ allocation, a BG map and a RAM tile's first reference are dated
	                    * at the first upload of their VRAM since it was last freed, up to
	                    * VS_CAPTURE_WINDOW_MAX frames back (the output waits that long); OBJ and
	                    * BG uploads nothing shows are allocations of their own */
	int alloc_first;   /* in a frame, OBJ allocations come before the frees, but for those on tiles
	                    * freed in that frame (engines create the new sprite, then drop the old) */
} vs_capture_options;

void vs_capture_options_default(vs_capture_options *o);

/* Counts over the run; "summed" counts add up every frame's. */
typedef struct vs_capture_stats {
	uint64_t frames;
	uint64_t mid_frame;        /* frames flagged changed_mid_frame */
	uint64_t mid_frame_shown;  /* of them, frames not force-blanked: the changes a player could see */
	uint64_t blank_frames;     /* forced blank (DISPCNT bit 7): nothing shown, nothing inferred */
	uint64_t mode_changes;     /* frames whose display mode differs from the frame before */
	uint64_t other_kind_frames; /* frames in a bitmap mode when the arenas' is tiled, or the other
	                             * way round: VRAM laid out otherwise, not read */
	uint64_t mapping_changes;  /* frames whose OBJ mapping (1D/2D) differs from the frame before */
	unsigned first_mode;       /* display mode at the first frame not force-blanked: the arenas' mode */
	int obj_2d;                /* the obj arena's mapping is 2D: that of the first frame showing sprites */
	/* OBJ */
	uint64_t obj_allocs, obj_frees, obj_live;
	uint64_t obj_entries;      /* OAM entries shown (summed) */
	uint64_t below_floor;      /* entries on a tile below 512 in a bitmap mode, skipped (summed) */
	uint64_t clipped;          /* ranges running past tile 1023, clipped (summed) */
	uint64_t wrapped;          /* 2D sprites wrapping past column 31: a run per row (summed) */
	uint64_t bad_shape;        /* entries of the prohibited shape 3, skipped (summed) */
	uint64_t nested;           /* ranges inside a larger live allocation (summed) */
	uint64_t merged;           /* shown ranges overlapping another in the same frame, joined (summed) */
	uint64_t partial_overlaps; /* live allocations ended by a range overlapping them otherwise than inside */
	uint64_t reused;           /* allocations ended by a smaller range shown inside them, on tiles the
	                            * game wrote since they were last shown themselves */
	uint64_t dated_back;       /* allocations dated back to the upload of their tiles */
	uint64_t unseen;           /* uploads: runs uploaded outside every live allocation and written as
	                            * allocations of their own (no sprite took them while buffered) */
	uint64_t unseen_ended;     /* of them, ended by an overwrite or a clear */
	uint64_t unseen_handed;    /* of them, shown whole later: the sprite's allocation from then on */
	uint64_t unseen_taken;     /* runs a sprite took tiles from before they were written (the sprite is
	                            * dated at their upload; the rest stays a run of its own) */
	uint32_t zero_entries_max; /* all-zero OAM entries in one frame, at most */
	uint64_t sheets;           /* sheet allocations (sheet option) */
	uint64_t sheet_switches;   /* OAM tile switches inside one large upload (without the option) */
	int sheet_suspected;       /* enough switches to suggest the sheet option */
	/* BG */
	uint64_t bg_maps;          /* screen map allocations */
	uint64_t bg_refs;          /* tile references made */
	uint64_t bg_hits;          /* references to a RAM tile already referenced with the same graphics */
	uint64_t bg_frees;         /* tile references ended */
	uint64_t bg_streamed;      /* references ended because their RAM tile got other graphics */
	uint64_t bg_past_end;      /* map cells naming a tile past the 64 KiB BG area, skipped (summed) */
	uint64_t bg_map_clipped;   /* maps running past the 64 KiB BG area, cut there */
	uint64_t bg_conflicts;     /* cells and maps on VRAM another allocation holds otherwise (a tile
	                            * at the other depth, a map), not referenced (summed) */
	uint32_t bg_refs_max;      /* live tile references after one frame, at most */
	uint64_t bg_refs_dated;    /* uploads: tile references dated back to the upload of their RAM tile */
	uint64_t bg_maps_dated;    /* uploads: maps dated back to the upload of their screenblocks */
	uint64_t bg_unseen;        /* uploads: runs of BG VRAM uploaded outside every live allocation and
	                            * written as allocations of their own (no layer took them while buffered) */
	uint64_t bg_unseen_tilesets; /* of them, written as tile sets (`tiles N`) */
	uint64_t bg_unseen_maps;   /* of them, written as maps (`cells WxH`) */
	uint64_t bg_unseen_ended;  /* of them, ended by an overwrite, a clear or a layer shown on part of them */
	uint64_t bg_unseen_handed; /* of them, shown whole later: the map's or the tile's allocation from then on */
	uint64_t bg_unseen_taken;  /* runs a layer took RAM tiles from before they were written */
	uint32_t rom_tiles;        /* distinct tile graphics given a ROM index */
	uint64_t rom_overflow;     /* lookups of graphics past VS_CAPTURE_ROM_MAX, all given one index */
} vs_capture_stats;

typedef struct vs_capture vs_capture;

/* Starts a capture writing to out (not closed by capture). header_comment,
 * or NULL, is copied into the trace's header: lines already starting with
 * '#' (ROM title, game code, SHA-256, options); other lines get "# ", and
 * bytes other than printable ASCII and tab become '?'. NULL options take
 * the defaults. NULL with err on bad options or no memory. */
vs_capture *vs_capture_new(const vs_capture_options *o, FILE *out, const char *header_comment, char *err,
	size_t errlen);
/* One frame's snapshot. The header is written with the first shown
 * frame's events (the arenas take the mode of the first frame not
 * force-blanked, and the obj arena the OBJ mapping of the first frame that
 * shows sprites; blank frames before it are counted and written after the
 * header); events are written max(grace, lookback) frames late (with
 * uploads, VS_CAPTURE_WINDOW_MAX).
 * Returns 0, or -1 on a write error or no memory (the capture is then
 * spent). */
int vs_capture_frame(vs_capture *c, const vs_gba_frame *f);
/* Writes the frames still buffered and a summary in comments; allocations
 * live at the end stay live. Returns 0 or -1 as vs_capture_frame. */
int vs_capture_finish(vs_capture *c);
void vs_capture_stats_get(const vs_capture *c, vs_capture_stats *s);
/* A copy of c that writes to out from here on (what c wrote is c's): a
 * capture finished where it stands while c goes on (vramsim play's write
 * key). NULL when out of memory. */
vs_capture *vs_capture_copy(const vs_capture *c, FILE *out);
void vs_capture_free(vs_capture *c);

#endif
