/* SPDX-License-Identifier: Zlib */
/* colour.h - the colours of pictures: fixed ones, a tag's, an allocation's by size,
 * age or depth, and a unit's pattern.
 */
#ifndef VS_RENDER_COLOUR_H
#define VS_RENDER_COLOUR_H

#include <stdint.h>

#include "engine/replay.h"
#include "vram/arena.h"

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
uint32_t vs_colour_tag(const char *tag);
/* The colour of tag number tag (the trace reader numbers tags in the order
 * they first appear): a categorical palette whose first 24 are far apart,
 * so one run's pictures give each tag the same colour, and the first tags
 * never share one. 0 (no tag) is VS_RGB_UNTAGGED. */
uint32_t vs_colour_tag_id(uint32_t tag);

/* What an allocation's colour says: its tag (default), its size, its age
 * (events since it was made) or its depth (4bpp / 8bpp). */
typedef enum vs_colour_by { VS_COLOUR_TAG = 0, VS_COLOUR_SIZE, VS_COLOUR_AGE, VS_COLOUR_BPP } vs_colour_by;
/* "tag", "size", "age", "bpp"; -1 when unknown. */
int vs_colour_by_parse(const char *name);
/* The colour of l under by at event now (by != VS_COLOUR_TAG). */
uint32_t vs_colour_live(const vs_live *l, vs_colour_by by, uint64_t now);
/* The legend of by: bin k's name and colour; returns the number of bins. */
int vs_colour_by_bin(vs_colour_by by, int k, const char **name, uint32_t *colour);
/* What a unit of kind k owned by a tag of colour c looks like at pixel
 * (x, y) of its cell (hatching and dots are position-dependent patterns). */
uint32_t vs_colour_unit_pixel(vs_unit_kind k, uint32_t c, int is_map, int x, int y);

#endif
