/* SPDX-License-Identifier: Zlib */
/* gen.h - workload generators: GBA traces that model what games ask for.
 *
 * Each generator writes a trace in format v1 (docs/trace-format.md,
 * canonical form) to a stream. Output depends only on the options: the same
 * seed and frame count give the same bytes on every host.
 */
#ifndef VRAMSIM_GEN_H
#define VRAMSIM_GEN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define VS_GEN_LAYERS 4
#define VS_GEN_MAP_MAX_CELLS (1u << 22) /* 2048x2048 */

typedef struct vs_gen_opts {
	uint64_t seed;
	uint32_t frames;
	/* side-scroller: a map file per BG layer (NULL: generated). A file is
	 * CSV (numbers separated by commas, rows by lines) when its name ends
	 * in .csv, else raw little-endian u16 cells, map_width a row. Cell
	 * values are ROM tile indices as they are (0 = transparent). A map
	 * holds at most VS_GEN_MAP_MAX_CELLS cells (a CSV file at most 64 MiB). */
	const char *maps[VS_GEN_LAYERS];
	uint32_t map_width;
	/* side-scroller: seed 000's worst case. Every layer keeps its whole
	 * 32x32-cell text map filled and moves 8 px a frame in both axes at
	 * full speed (no parallax), so each frame brings a new 32-cell row and
	 * column per layer; generated maps have no transparent cells. */
	int worst_case;
} vs_gen_opts;

void vs_gen_opts_default(vs_gen_opts *o);
/* A generator's last step: the trace flushed to out. 0, or -1 with err
 * empty when a write failed (out's own close names the file and says why;
 * a generator's other errors are messages in err). */
int vs_gen_flushed(FILE *out, char *err, size_t errlen);

/* Four BG layers (4bpp, 4bpp, 8bpp, 4bpp) scrolling by up to 8 px per frame
 * in any direction at parallax speeds 1, 1, 1/2, 1/4 across their maps:
 * one `tile ROM BPP` reference per newly visible non-zero cell and a free
 * per cell that leaves the 240x160 screen; four text maps at the start.
 * With worst_case, see vs_gen_opts. */
int vs_gen_side_scroller(FILE *out, const vs_gen_opts *o, char *err, size_t errlen);
/* The OBJ generators keep, as games do, their own count of tiles taken:
 * transient sprites spawn only within a budget a little under the area,
 * and must-have graphics (player, UI, level sets, bosses) load only when
 * they fit the area, so no request exceeds the free bytes. */

/* OBJ VRAM under a shooter's load: a player, enemies, bullets, particles
 * and UI spawning and despawning, with some 8bpp sprites and a boss now
 * and then, within a budget of 30 KiB. */
int vs_gen_sprite_churn(FILE *out, const vs_gen_opts *o, char *err, size_t errlen);
/* Levels of sprite churn; at each level change the whole level sprite set
 * (40-60% of the area) is released and the next one loaded in the same
 * frame, while the player and UI stay; each level's budget is 85-95%. */
int vs_gen_level_change(FILE *out, const vs_gen_opts *o, char *err, size_t errlen);
/* Shooter stages each ending with a 9-11 KiB multi-part boss: enemies
 * leave, limbs break off during the fight, the head grows into a 64x64
 * 8bpp form, every part goes at the end. */
int vs_gen_boss_fight(FILE *out, const vs_gen_opts *o, char *err, size_t errlen);
/* Mode 4 (16 KiB of OBJ VRAM): a pseudo-3D racer whose opponents' graphics
 * change size with distance, with roadside props, items and dust. */
int vs_gen_bitmap_racer(FILE *out, const vs_gen_opts *o, char *err, size_t errlen);

/* BG scenes for a manager of whole tile sets and maps (Butano's BG
 * blocks): `tiles N BPP` and `cells WxH` per BG, a dialog box now and then,
 * every BG swapped at a scene change; the arena names butano-bg-blocks. */
int vs_gen_bg_scenes(FILE *out, const vs_gen_opts *o, char *err, size_t errlen);

/* What a generator's default trace (seed 1, default frames and options)
 * holds, as `gen --help` states it; test_gba_gen regenerates each trace
 * and checks these, so the help cannot go stale. */
typedef struct vs_gen_figures {
	uint32_t allocs;     /* alloc requests */
	uint32_t frees;      /* free requests */
	uint32_t max_calls;  /* most alloc + free requests in a frame after
	                      * the first (which fills the screen) */
	uint32_t peak_live;  /* peak live bytes replayed with each arena's
	                      * default strategy, summed over the arenas */
	uint32_t failures;   /* failed allocations in that replay */
} vs_gen_figures;

/* Generators by name, for the command line. */
typedef struct vs_generator {
	const char *name;
	const char *summary;
	int (*run)(FILE *out, const vs_gen_opts *o, char *err, size_t errlen);
	uint32_t default_frames;
	vs_gen_figures figures;
} vs_generator;

size_t vs_generator_count(void);
const vs_generator *vs_generator_at(size_t i);
const vs_generator *vs_generator_find(const char *name);

#endif
