/* SPDX-License-Identifier: Zlib */
/* gen_ds.h - DS texture and palette workload generators (same contract as
 * gen.h: a canonical v1 trace to a stream, bytes fixed by the options). */
#ifndef VRAMSIM_GEN_DS_H
#define VRAMSIM_GEN_DS_H

#include <stddef.h>
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

#endif
