/* SPDX-License-Identifier: Zlib */
/* hw.c - dispatches placement rules and tied extents by arena kind. */
#include <stdio.h>

#include "vramsim/hw.h"

int vs_hw_check(const vs_arena_decl *a, const vs_request *rq, uint32_t off, uint32_t len,
	char *why, size_t whylen)
{
	if ((uint64_t)off + len > a->size) {
		snprintf(why, whylen, "[0x%x, 0x%x) lies outside the %u-byte arena",
			(unsigned)off, (unsigned)((uint64_t)off + len), (unsigned)a->size);
		return -1;
	}
	switch (a->kind) {
	case VS_ARENA_GBA_OBJ: return vs_hw_gba_obj_check(a, rq, off, len, why, whylen);
	case VS_ARENA_GBA_BG: return vs_hw_gba_bg_check(a, rq, off, len, why, whylen);
	case VS_ARENA_DS_TEX: return vs_hw_ds_tex_check(a, rq, off, len, why, whylen);
	case VS_ARENA_DS_PLTT: return vs_hw_ds_pltt_check(a, rq, off, len, why, whylen);
	default: return 0;
	}
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

int vs_hw_any_legal(const vs_arena *a, const vs_request *rq, uint32_t len)
{
	legal_search s = { a, rq, len, 0 };

	vs_freemap_walk(a->free, legal_in_run, &s);
	return s.found;
}

void vs_hw_reserved(const vs_arena_decl *a, void (*mark)(void *ud, uint32_t off, uint32_t len), void *ud)
{
	unsigned slot, bank;

	switch (a->kind) {
	case VS_ARENA_GBA_OBJ:
		/* Bitmap modes: tiles 0-511 hold the frame, not sprites. */
		if (a->gba_mode >= 3)
			mark(ud, 0, 0x4000);
		break;
	case VS_ARENA_DS_TEX:
		/* A texture slot with no bank mapped holds nothing usable. */
		for (slot = 0; slot < 4; slot++) {
			int mapped = 0;
			for (bank = 0; bank < 4; bank++)
				mapped |= a->ds_bank_slot[bank] == slot;
			if (!mapped)
				mark(ud, slot * 0x20000u, 0x20000u);
		}
		break;
	case VS_ARENA_DS_PLTT:
		for (slot = 0; slot < 6; slot++)
			if (!vs_hw_ds_pltt_slot_mapped(a, slot))
				mark(ud, slot * 0x4000u, 0x4000u);
		break;
	default:
		break;
	}
}
