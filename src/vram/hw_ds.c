/* SPDX-License-Identifier: Zlib */
/* hw_ds.c - DS texture and texture-palette placement rules (ds-vram.md). */
#include <stdio.h>

#include "vram/hw.h"

enum { BANK_E = 4, BANK_F = 5, BANK_G = 6 };

int vs_hw_ds_pltt_slot_mapped(const vs_arena_decl *a, unsigned slot)
{
	/* E is 64 KiB: it covers palette slots 0-3 whatever its offset. */
	if (a->ds_bank_slot[BANK_E] != 0xFF && slot < 4)
		return 1;
	return a->ds_bank_slot[BANK_F] == slot || a->ds_bank_slot[BANK_G] == slot;
}

static int tex_slot_mapped(const vs_arena_decl *a, unsigned slot)
{
	unsigned bank;

	for (bank = 0; bank < 4; bank++)
		if (a->ds_bank_slot[bank] == slot)
			return 1;
	return 0;
}

int vs_hw_ds_tex_check(const vs_arena_decl *a, const vs_request *rq, uint32_t off, uint32_t len,
	char *why, size_t whylen)
{
	unsigned s;

	if (off % 8) {
		snprintf(why, whylen, "texture at 0x%x is not 8-byte aligned", (unsigned)off);
		return -1;
	}
	for (s = off / 0x20000u; len && s <= (off + len - 1) / 0x20000u; s++) {
		if (!tex_slot_mapped(a, s)) {
			snprintf(why, whylen, "texture [0x%x, 0x%x) uses texture slot %u, which no bank maps",
				(unsigned)off, (unsigned)(off + len), s);
			return -1;
		}
	}
	if (rq->shape == VS_REQ_TEX && rq->u.tex.format == VS_TEX_4X4) {
		int in0 = off + len <= 0x20000u, in2 = off >= 0x40000u && off + len <= 0x60000u;
		if (!in0 && !in2) {
			snprintf(why, whylen, "4x4 texel data at [0x%x, 0x%x) lies outside slots 0 and 2",
				(unsigned)off, (unsigned)(off + len));
			return -1;
		}
		if (!tex_slot_mapped(a, 1)) {
			snprintf(why, whylen, "4x4 texture needs its index data in slot 1, which no bank maps");
			return -1;
		}
	}
	return 0;
}

int vs_hw_ds_pltt_check(const vs_arena_decl *a, const vs_request *rq, uint32_t off, uint32_t len,
	char *why, size_t whylen)
{
	int four = rq->shape == VS_REQ_PLTT && rq->u.pltt.four;
	unsigned need = four ? 8 : 16, s;

	if (off % need) {
		snprintf(why, whylen, "%s at 0x%x is not %u-byte aligned",
			four ? "4-colour palette" : "palette", (unsigned)off, need);
		return -1;
	}
	if (four && off + len > 0x10000u) {
		snprintf(why, whylen, "4-colour palette [0x%x, 0x%x) ends past 0x10000",
			(unsigned)off, (unsigned)(off + len));
		return -1;
	}
	for (s = off / 0x4000u; len && s <= (off + len - 1) / 0x4000u; s++) {
		if (!vs_hw_ds_pltt_slot_mapped(a, s)) {
			snprintf(why, whylen, "palette [0x%x, 0x%x) uses palette slot %u, which no bank maps",
				(unsigned)off, (unsigned)(off + len), s);
			return -1;
		}
	}
	return 0;
}
