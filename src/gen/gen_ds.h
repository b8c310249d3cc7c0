/* SPDX-License-Identifier: Zlib */
/* gen_ds.h - DS workload generators (same contract as gen.h: a canonical v1
 * trace to a stream, bytes fixed by the options). */
#ifndef VRAMSIM_GEN_DS_H
#define VRAMSIM_GEN_DS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gen/gen.h"

/* Level loads: a base set (UI in direct colour, a 4-colour font, their
 * palettes) then `save base`; each level loads 4x4 terrain, 16- and
 * 256-colour characters, A3I5 effects and palettes, spawns and drops
 * effects while it runs, and ends with `restore base` (what a game using
 * the frame managers does). o->frames frames, 600 a level. */
int vs_gen_ds_levels(FILE *out, const vs_gen_opts *o, char *err, size_t errlen);
/* Streaming: textures and palettes of an open world loaded and released
 * continuously in random order (the linked-list managers' workload). */
int vs_gen_ds_stream(FILE *out, const vs_gen_opts *o, char *err, size_t errlen);

/* Options of ds-sprites and ds-3d beside seed and frames. */
typedef struct vs_gen_ds_opts {
	uint32_t boundary; /* ds-sprites: 1D OBJ tile boundary, 32/64/128/256 (default 128) */
	int remap;         /* ds-3d: bank D leaves the texture slots for one level and comes back */
} vs_gen_ds_opts;

void vs_gen_ds_opts_default(vs_gen_ds_opts *d);

/* A DS action game's sprites on both engines (gen_ds_obj.c): engine A
 * (`main`: the banks the boundary reaches, 1024 tiles of it) holds a player
 * and HUD that stay, waves of enemies 16x16 to 64x64 in 4bpp and 8bpp, a
 * multi-part boss now and then, bullets and sparks churning every few
 * frames, within 128 OAM entries and a budget of 93% of its tiles;
 * engine B (`sub`, bank D) a touch-screen UI of bitmap buttons and 8bpp
 * icons whose pages change. The game counts each sprite at its footprint
 * under the boundary (size rounded up to it), so no request exceeds the
 * tiles left. */
int vs_gen_ds_sprites(FILE *out, const vs_gen_opts *o, char *err, size_t errlen);
int vs_gen_ds_sprites_with(FILE *out, const vs_gen_opts *o, const vs_gen_ds_opts *d, char *err, size_t errlen);
/* A videoGL (libnds) game's textures and palettes: one ds-tex and one
 * ds-pltt arena; textures of every format with palettes allocated beside
 * them, palettes shared between textures (allocated with the first user,
 * freed with the last), animated textures re-uploaded with `realloc` every
 * few frames, levels that free most textures; with remap, bank D given
 * to LCDC (`lock D`, `vramcnt D 0x80`) for one level and back. */
int vs_gen_ds_3d(FILE *out, const vs_gen_opts *o, char *err, size_t errlen);
int vs_gen_ds_3d_with(FILE *out, const vs_gen_opts *o, const vs_gen_ds_opts *d, char *err, size_t errlen);

#endif
