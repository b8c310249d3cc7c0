/* SPDX-License-Identifier: Zlib */
/* strat_gba_obj_geom.c - the units vramsim's OBJ allocators count on a
 * gba-obj or a ds-obj arena (vs_gba_obj_geom, strat_gba.h): on the DS the
 * 1D boundary, and the run of them the banks map within OAM's reach. */
#include <stdio.h>

#include "strat_gba.h"
#include "vram/ds_banks.h"

/* Unmapped byte ranges of the arena, as vs_ds_unmapped reports them (one
 * per 8 KiB granule at most: 32 in engine A's 256 KiB). */
typedef struct holes {
	uint32_t off[33], len[33];
	unsigned n;
} holes;

static void note_hole(void *ud, uint32_t off, uint32_t len)
{
	holes *h = ud;

	if (h->n < sizeof h->off / sizeof h->off[0]) {
		h->off[h->n] = off;
		h->len[h->n] = len;
		h->n++;
	}
}

/* The mapped runs of [0, reach), in address order: the holes' complement.
 * Returns how many; the first max go to s[], e[]. */
static unsigned mapped_runs(const holes *h, uint32_t reach, uint32_t *s, uint32_t *e, unsigned max)
{
	uint32_t at = 0;
	unsigned i, n = 0;

	for (i = 0; i <= h->n && at < reach; i++) {
		uint32_t to = i < h->n ? h->off[i] : reach;
		if (to > reach)
			to = reach;
		if (to > at) {
			if (n < max) {
				s[n] = at;
				e[n] = to;
			}
			n++;
		}
		if (i < h->n)
			at = h->off[i] + h->len[i];
	}
	return n;
}

/* A bitmap sprite's alignment in units (DISPCNT bits 5, 6, 22): on its 1D
 * bitmap boundary, starting at bitmap tile number 0-1023. 0: refused, in
 * 2D bitmap layout (a rectangle of the bitmap matrix, not a run) and where
 * a 256-byte tile boundary takes the span past a 128-byte bitmap boundary's
 * reach (128 KiB): a start up there would have no tile number. */
static uint16_t bitmap_align(const vs_arena_decl *a, const vs_gba_obj_geom *g)
{
	unsigned bshift;

	if (a->ds_obj_bmp == VS_DS_BMP_1D_128)
		bshift = 7;
	else if (a->ds_obj_bmp == VS_DS_BMP_1D_256)
		bshift = 8;
	else
		return 0;
	if (bshift >= g->shift)
		return (uint16_t)(1u << (bshift - g->shift));
	return ((uint32_t)g->end << g->shift) <= (1024u << bshift) ? 1u : 0u;
}

static int ds_geom(vs_gba_obj_geom *g, const vs_arena_decl *a, const char *name, char *err, size_t errlen)
{
	holes h;
	uint32_t reach, s[4], e[4];
	unsigned n, i, b = a->ds_obj_boundary;
	int len;

	if (a->gba_obj_2d) {
		snprintf(err, errlen, "%s places for 1D tile mapping only; arena '%s' declares 2D mapping", name, a->name);
		return -1;
	}
	if (b != 1 && b != 2 && b != 4 && b != 8) {
		snprintf(err, errlen, "arena '%s': 1D boundary %u bytes is not 32, 64, 128 or 256", a->name, b * 32u);
		return -1;
	}
	g->ds = 1;
	g->shift = (uint8_t)(5u + (b == 1 ? 0u : b == 2 ? 1u : b == 4 ? 2u : 3u));
	/* OAM's tile numbers 0-1023 reach 1024 units; engine B's 128 KiB may end first */
	reach = a->size < (1024u << g->shift) ? a->size : 1024u << g->shift;
	h.n = 0;
	vs_ds_unmapped(a, note_hole, &h);
	n = mapped_runs(&h, reach, s, e, 4);
	if (n == 1) {
		g->first = (uint16_t)((s[0] + (1u << g->shift) - 1u) >> g->shift);
		g->end = (uint16_t)(e[0] >> g->shift);
	}
	if (n == 1 && g->first < g->end) {
		g->bmp_align = bitmap_align(a, g);
		return 0;
	}
	len = snprintf(err, errlen, "%s needs the OBJ VRAM the banks map within OAM's reach of arena '%s' (offsets "
		"0x0-0x%x with a %u-byte 1D boundary) to be one run; ", name, a->name, (unsigned)reach,
		1u << g->shift);
	if (n == 0) {
		snprintf(err + len, errlen - (size_t)len, "no bank maps any of it");
		return -1;
	}
	for (i = 0; i < n && i < 4 && len >= 0 && (size_t)len < errlen; i++)
		len += snprintf(err + len, errlen - (size_t)len, "%s0x%x-0x%x", i ? ", " : "the banks map ",
			(unsigned)s[i], (unsigned)e[i]);
	if (n > 4 && len >= 0 && (size_t)len < errlen)
		snprintf(err + len, errlen - (size_t)len, " and %u more", n - 4);
	return -1;
}

int vs_gba_obj_geom_init(vs_gba_obj_geom *g, const vs_arena_decl *a, const char *name, char *err, size_t errlen)
{
	static const vs_gba_obj_geom gba = VS_GBA_OBJ_GEOM_GBA;

	*g = gba;
	if (a->kind != VS_ARENA_DS_OBJ) {
		g->first = (uint16_t)vs_gba_obj_first_tile(a);
		return 0;
	}
	return ds_geom(g, a, name, err, errlen);
}
