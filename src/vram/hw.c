/* SPDX-License-Identifier: Zlib */
/* hw.c - dispatches placement rules and tied extents by arena kind. */
#include <stdio.h>
#include <stdlib.h>

#include "base/compiler_hints.h"
#include "vram/ds_banks.h"
#include "vram/hw.h"
#include "vram/hw_gba.h"
#include "vram/request.h"
#include "vram/arena.h"

void vs_hw_footprint(const vs_arena_decl *a, const vs_request *rq, uint32_t off, uint32_t len, vs_footprint *fp)
{
	unsigned w, h, bpp = rq->u.sprite.bpp;

	fp->offset = off;
	fp->row_bytes = len;
	fp->rows = 1;
	fp->stride = 0;
	/* 2D mapping (gba-vram.md): each 8-pixel row of a sprite starts 32
	 * tiles after the one above; a row is w/8 tiles, twice that at 8bpp */
	if (a->kind == VS_ARENA_GBA_OBJ && a->gba_obj_2d && rq->shape == VS_REQ_SPRITE && (bpp == 4 || bpp == 8) &&
		vs_request_sprite_dims(rq->u.sprite.shape, rq->u.sprite.size, &w, &h)) {
		fp->row_bytes = w * bpp;
		fp->rows = h / 8u;
		fp->stride = VS_GBA_OBJ_2D_STRIDE;
	}
	/* the DS: the same 2D tile matrix, and bitmap sprites in theirs */
	if (a->kind == VS_ARENA_DS_OBJ)
		(void)vs_hw_ds_obj_rows(a, rq, &fp->row_bytes, &fp->rows, &fp->stride);
}

/* Whether a placement of rq in a may have rows apart (vs_hw_footprint). */
static VS_ALWAYS_INLINE int rows_apart(const vs_arena_decl *a, const vs_request *rq)
{
	return ((a->kind == VS_ARENA_GBA_OBJ || a->kind == VS_ARENA_DS_OBJ) && a->gba_obj_2d) ||
		(a->kind == VS_ARENA_DS_OBJ && rq->shape == VS_REQ_SPRITE && rq->u.sprite.bpp == 16);
}

uint64_t vs_hw_footprint_end(const vs_footprint *fp)
{
	return (uint64_t)fp->offset + (uint64_t)(fp->rows ? fp->rows - 1u : 0u) * fp->stride + fp->row_bytes;
}

uint32_t vs_hw_footprint_at(const vs_footprint *fp, uint32_t i)
{
	if (!fp->stride || !fp->row_bytes)
		return fp->offset + i;
	return fp->offset + i / fp->row_bytes * fp->stride + i % fp->row_bytes;
}

/* The kind's own rules, once the arena-wide ones have passed. */
static VS_ALWAYS_INLINE int kind_check(const vs_arena_decl *a, const vs_request *rq, uint32_t off,
	uint32_t len, char *why, size_t whylen)
{
	switch (a->kind) {
	case VS_ARENA_GBA_OBJ: return vs_hw_gba_obj_check(a, rq, off, len, why, whylen);
	case VS_ARENA_GBA_BG: return vs_hw_gba_bg_check(a, rq, off, len, why, whylen);
	case VS_ARENA_DS_TEX: return vs_hw_ds_tex_check(a, rq, off, len, why, whylen);
	case VS_ARENA_DS_PLTT: return vs_hw_ds_pltt_check(a, rq, off, len, why, whylen);
	case VS_ARENA_DS_OBJ: return vs_hw_ds_obj_check(a, rq, off, len, why, whylen);
	case VS_ARENA_DS_BG: return vs_hw_ds_bg_check(a, rq, off, len, why, whylen);
	case VS_ARENA_DS_BG_EXTPAL:
	case VS_ARENA_DS_OBJ_EXTPAL: return vs_hw_ds_extpal_check(a, rq, off, len, why, whylen);
	default: return 0;
	}
}

/* vs_hw_check whole: any arena, any placement, the message when it fails. */
static VS_NOINLINE int check_any(const vs_arena_decl *a, const vs_request *rq, uint32_t off,
	uint32_t len, char *why, size_t whylen)
{
	vs_footprint fp;

	/* only a 2D OBJ arena has rows apart (vs_hw_footprint): the footprint
	 * is worked out there alone, not at every check */
	fp.stride = 0;
	if (rows_apart(a, rq))
		vs_hw_footprint(a, rq, off, len, &fp);
	/* the 2D tile matrix is 32 KiB whatever the arena holds */
	if (fp.stride == VS_GBA_OBJ_2D_STRIDE && vs_hw_footprint_end(&fp) > VS_GBA_OBJ_2D_STRIDE * 32u) {
		snprintf(why, whylen, "2D sprite at tile %u runs past tile 1023: its last row would start at tile %u",
			(unsigned)(off / 32u), (unsigned)(off / 32u + (fp.rows - 1u) * 32u));
		return -1;
	}
	if (fp.stride && vs_hw_footprint_end(&fp) > a->size) {
		snprintf(why, whylen, "bitmap sprite at 0x%x runs past the end of OBJ VRAM", (unsigned)off);
		return -1;
	}
	if ((uint64_t)off + len > a->size) {
		snprintf(why, whylen, "[0x%x, 0x%x) lies outside the %u-byte arena",
			(unsigned)off, (unsigned)((uint64_t)off + len), (unsigned)a->size);
		return -1;
	}
	/* the caller's own rule, whatever the hardware: an address it can use */
	if (rq->align > 1 && (a->base + off) % rq->align) {
		snprintf(why, whylen, "0x%x is not %u-byte aligned, as align=%u asks", (unsigned)(a->base + off),
			(unsigned)rq->align, (unsigned)rq->align);
		return -1;
	}
	return kind_check(a, rq, off, len, why, whylen);
}

/* Most placements are inside the arena with no align= and no 2D sprite:
 * then only the kind's own rules are left, and this test, with nothing to
 * keep for a message, hands over to them; anything else takes check_any. */
int vs_hw_check(const vs_arena_decl *a, const vs_request *rq, uint32_t off, uint32_t len,
	char *why, size_t whylen)
{
	if (rows_apart(a, rq) || (uint64_t)off + len > a->size || rq->align > 1)
		return check_any(a, rq, off, len, why, whylen);
	return kind_check(a, rq, off, len, why, whylen);
}

int vs_hw_tied(const vs_arena_decl *a, const vs_request *rq, uint32_t off, uint32_t len,
	uint32_t *out_off, uint32_t *out_len, int max)
{
	/* DS 4x4 texel data in slot 0 or 2 owns index data in slot 1 at an
	 * address fixed by the texel address (ds-vram.md). */
	if (a->kind != VS_ARENA_DS_TEX || rq->shape != VS_REQ_TEX || rq->u.tex.format != VS_TEX_4X4 || max < 1)
		return 0;
	if (off < 0x20000u)
		out_off[0] = 0x20000u + off / 2;
	else if (off >= 0x40000u && off < 0x60000u)
		out_off[0] = 0x30000u + (off - 0x40000u) / 2;
	else
		return 0; /* texel data in the wrong slot: the rule check reports it */
	out_len[0] = len / 2;
	return 1;
}

typedef struct legal_search {
	const vs_arena *a;
	const vs_request *rq;
	uint32_t len;
	int found;
} legal_search;

static int legal_in_run(void *ud, uint32_t first, uint32_t count)
{
	legal_search *s = ud;
	uint32_t unit = s->a->decl.unit, start = first * unit, end = (first + count) * unit;
	uint32_t step = s->rq->align > unit ? s->rq->align : unit, off;

	if (end - start < s->len)
		return 0;
	/* Try every unit-aligned start in the run; rules are cheap. */
	for (off = (start + step - 1) / step * step; off + s->len <= end; off += step) {
		/* no message wanted: snprintf(NULL, 0, ...) only measures */
		if (vs_hw_check(&s->a->decl, s->rq, off, s->len, NULL, 0) == 0) {
			s->found = 1;
			return 1;
		}
	}
	return 0;
}

/* A 2D sprite needs each of its rows free, not one run: every tile-aligned
 * start is tried (1024 at most). */
static int legal_rect(const vs_arena *a, const vs_request *rq, uint32_t len)
{
	uint32_t step = rq->align > 32u ? rq->align : 32u, off, r;
	vs_footprint fp;

	for (off = 0; off < a->decl.size; off += step) {
		if (vs_hw_check(&a->decl, rq, off, len, NULL, 0))
			continue;
		vs_hw_footprint(&a->decl, rq, off, len, &fp);
		for (r = 0; r < fp.rows && vs_arena_first_taken(a, off + r * fp.stride, fp.row_bytes) < 0; r++)
			;
		if (r == fp.rows)
			return 1;
	}
	return 0;
}

int vs_hw_any_legal(const vs_arena *a, const vs_request *rq, uint32_t len)
{
	legal_search s = { a, rq, len, 0 };
	vs_footprint fp;

	vs_hw_footprint(&a->decl, rq, 0, len, &fp);
	if (fp.stride)
		return legal_rect(a, rq, len);

	vs_arena_free_walk(a, legal_in_run, &s);
	return s.found;
}

/* Free units of run [first, first + count) that in[] marks. */
typedef struct legal_count {
	const uint8_t *in;
	uint64_t units;
} legal_count;

static int count_legal_free(void *ud, uint32_t first, uint32_t count)
{
	legal_count *c = ud;
	uint32_t u;

	for (u = first; u < first + count; u++)
		c->units += (c->in[u >> 3] >> (u & 7u)) & 1u;
	return 0;
}

/* Free bytes inside [lo, hi) of the arena, by a walk of the free runs. */
typedef struct window_count {
	uint32_t lo, hi, unit;
	uint64_t bytes;
} window_count;

static int count_in_window(void *ud, uint32_t first, uint32_t count)
{
	window_count *w = ud;
	uint64_t a = (uint64_t)first * w->unit, b = (uint64_t)(first + count) * w->unit;

	if (a < w->lo)
		a = w->lo;
	if (b > w->hi)
		b = w->hi;
	if (b > a)
		w->bytes += b - a;
	return 0;
}

static uint64_t free_in(const vs_arena *a, uint32_t lo, uint32_t hi)
{
	window_count w = { lo, hi, a->decl.unit, 0 };

	vs_arena_free_walk(a, count_in_window, &w);
	return w.bytes;
}

/* Where the rules let rq go is a plain window of the arena for the common
 * requests (any free unit inside it would do, the unit being the rules'
 * alignment): the bytes free there, without a rule check per place. 1
 * when so, with *out; 0 when the per-place scan below is needed. */
static int legal_free_window(const vs_arena *a, const vs_request *rq, uint64_t *out)
{
	const vs_arena_decl *d = &a->decl;

	if (rq->align > d->unit)
		return 0;
	switch (d->kind) {
	case VS_ARENA_DS_TEX: {
		/* runs of mapped slots long enough for the texture; 4x4 texel
		 * data in slot 0 or 2 alone (its index data is the rule check's) */
		int four = rq->shape == VS_REQ_TEX && rq->u.tex.format == VS_TEX_4X4;
		uint32_t slot = 0, first;
		*out = 0;
		while (slot < 4) {
			if (!vs_hw_ds_tex_slot_mapped(d, slot) || (four && slot != 0 && slot != 2)) {
				slot++;
				continue;
			}
			for (first = slot++; !four && slot < 4 && vs_hw_ds_tex_slot_mapped(d, slot); slot++)
				;
			if ((slot - first) * 0x20000u >= rq->size)
				*out += free_in(a, first * 0x20000u, slot * 0x20000u);
		}
		return 1;
	}
	case VS_ARENA_DS_PLTT:
		if (rq->shape == VS_REQ_PLTT && rq->u.pltt.four)
			*out = free_in(a, 0, 0x10000u);
		else if (rq->shape == VS_REQ_PLTT)
			return 0; /* 16-byte alignment on 8-byte units */
		else
			*out = free_in(a, 0, d->size);
		return 1;
	default:
		return 0;
	}
}

uint64_t vs_hw_legal_free(const vs_arena *a, const vs_request *rq, uint32_t len)
{
	const vs_arena_decl *d = &a->decl;
	uint32_t unit = d->unit, step = rq->align > unit ? rq->align : unit, off, r, u, end, reach = 0;
	legal_count c = { NULL, 0 };
	vs_free_stats fs;
	vs_footprint fp;
	uint64_t window;
	uint8_t *in;

	if (legal_free_window(a, rq, &window))
		return window;
	vs_arena_free_stats(a, &fs);
	/* RAM has no placement rule but align=: every free byte may serve */
	if (d->kind == VS_ARENA_RAM || !(in = calloc(a->nunits / 8u + 1u, 1)))
		return fs.free_bytes;
	for (off = 0; (uint64_t)off + len <= d->size; off += step) {
		if (vs_hw_check(d, rq, off, len, NULL, 0))
			continue;
		vs_hw_footprint(d, rq, off, len, &fp);
		for (r = 0; r < fp.rows; r++) {
			u = (fp.offset + r * fp.stride) / unit;
			end = (uint32_t)(((uint64_t)fp.offset + r * fp.stride + fp.row_bytes + unit - 1u) / unit);
			/* one row: the places go up, so what is marked ends at reach */
			if (fp.rows == 1 && u < reach)
				u = reach;
			for (; u < end && u < a->nunits; u++)
				in[u >> 3] |= (uint8_t)(1u << (u & 7u));
			if (fp.rows == 1 && end > reach)
				reach = end;
		}
	}
	c.in = in;
	vs_arena_free_walk(a, count_legal_free, &c);
	free(in);
	return c.units * unit;
}

void vs_hw_reserved(const vs_arena_decl *a, void (*mark)(void *ud, uint32_t off, uint32_t len), void *ud)
{
	switch (a->kind) {
	case VS_ARENA_GBA_OBJ:
		/* Bitmap modes: tiles 0-511 hold the frame, not sprites. */
		if (a->gba_mode >= 3)
			mark(ud, 0, 0x4000);
		break;
	case VS_ARENA_DS_TEX:
	case VS_ARENA_DS_PLTT:
	case VS_ARENA_DS_OBJ:
	case VS_ARENA_DS_BG:
	case VS_ARENA_DS_BG_EXTPAL:
	case VS_ARENA_DS_OBJ_EXTPAL:
		/* memory no bank maps holds nothing usable */
		vs_ds_unmapped(a, mark, ud);
		break;
	default:
		break;
	}
}
