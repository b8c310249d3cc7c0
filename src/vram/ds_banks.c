/* SPDX-License-Identifier: Zlib */
/* ds_banks.c - the VRAMCNT table of GBATEK "DS Memory Control - VRAM". */
#include <stdio.h>

#include "vram/ds_banks.h"

enum { A, B, C, D, E, F, G, H, I };
#define BIT(b) (1u << (b))

/* How a bank's OFS places it in the arena. */
typedef enum place {
	SLOT_128K,  /* OFS * 128 KiB (texture slots, engine A BG) */
	OBJ_128K,   /* OFS.0 * 128 KiB; OFS.1 must be zero (engine A OBJ) */
	FG_16K,     /* OFS.0 * 16 KiB + OFS.1 * 64 KiB (F, G on engine A) */
	PLTT_SLOT,  /* F, G as texture palettes: ds_bank_slot holds the slot 0, 1, 4 or 5 */
	EXTPAL_16K, /* F, G as BG extended palettes: OFS 0-1, slots 0-1 or 2-3 */
	FIXED       /* at a fixed offset, OFS unused */
} place;

typedef struct use {
	uint8_t kind, engine, mst;
	uint16_t banks;
	uint8_t place;
	uint32_t at, len; /* FIXED: where; len 0 is the bank's size */
} use;

/* One row per (use, bank group), as GBATEK lists them. */
static const use uses[] = {
	{ VS_ARENA_DS_TEX, 0, 3, BIT(A) | BIT(B) | BIT(C) | BIT(D), SLOT_128K, 0, 0 },
	{ VS_ARENA_DS_PLTT, 0, 3, BIT(E), FIXED, 0, 0 },
	{ VS_ARENA_DS_PLTT, 0, 3, BIT(F) | BIT(G), PLTT_SLOT, 0, 0 },
	{ VS_ARENA_DS_BG, VS_DS_ENGINE_A, 1, BIT(A) | BIT(B) | BIT(C) | BIT(D), SLOT_128K, 0, 0 },
	{ VS_ARENA_DS_BG, VS_DS_ENGINE_A, 1, BIT(E), FIXED, 0, 0 },
	{ VS_ARENA_DS_BG, VS_DS_ENGINE_A, 1, BIT(F) | BIT(G), FG_16K, 0, 0 },
	{ VS_ARENA_DS_OBJ, VS_DS_ENGINE_A, 2, BIT(A) | BIT(B), OBJ_128K, 0, 0 },
	{ VS_ARENA_DS_OBJ, VS_DS_ENGINE_A, 2, BIT(E), FIXED, 0, 0 },
	{ VS_ARENA_DS_OBJ, VS_DS_ENGINE_A, 2, BIT(F) | BIT(G), FG_16K, 0, 0 },
	{ VS_ARENA_DS_BG_EXTPAL, VS_DS_ENGINE_A, 4, BIT(E), FIXED, 0, 0x8000 }, /* only the lower 32 KiB */
	{ VS_ARENA_DS_BG_EXTPAL, VS_DS_ENGINE_A, 4, BIT(F) | BIT(G), EXTPAL_16K, 0, 0 },
	{ VS_ARENA_DS_OBJ_EXTPAL, VS_DS_ENGINE_A, 5, BIT(F) | BIT(G), FIXED, 0, 0x2000 }, /* only the lower 8 KiB */
	{ VS_ARENA_DS_BG, VS_DS_ENGINE_B, 4, BIT(C), FIXED, 0, 0 },
	{ VS_ARENA_DS_BG, VS_DS_ENGINE_B, 1, BIT(H), FIXED, 0, 0 },
	{ VS_ARENA_DS_BG, VS_DS_ENGINE_B, 1, BIT(I), FIXED, 0x8000, 0 },
	{ VS_ARENA_DS_OBJ, VS_DS_ENGINE_B, 4, BIT(D), FIXED, 0, 0 },
	{ VS_ARENA_DS_OBJ, VS_DS_ENGINE_B, 2, BIT(I), FIXED, 0, 0 },
	{ VS_ARENA_DS_BG_EXTPAL, VS_DS_ENGINE_B, 2, BIT(H), FIXED, 0, 0 },
	{ VS_ARENA_DS_OBJ_EXTPAL, VS_DS_ENGINE_B, 3, BIT(I), FIXED, 0, 0x2000 },
};

static const uint32_t bank_bytes[VS_DS_BANKS] = {
	0x20000, 0x20000, 0x20000, 0x20000, 0x10000, 0x4000, 0x4000, 0x8000, 0x4000
};

uint32_t vs_ds_bank_size(unsigned bank)
{
	return bank < VS_DS_BANKS ? bank_bytes[bank] : 0;
}

int vs_ds_banked(vs_arena_kind kind)
{
	return kind == VS_ARENA_DS_TEX || kind == VS_ARENA_DS_PLTT ||
		(VS_ARENA_BIT(kind) & VS_ARENA_ANY_DS_2D);
}

static int is_2d(const vs_arena_decl *d)
{
	return (VS_ARENA_BIT(d->kind) & VS_ARENA_ANY_DS_2D) != 0;
}

static const use *find_use(const vs_arena_decl *d, unsigned bank)
{
	size_t i;

	if (bank >= VS_DS_BANKS)
		return NULL;
	for (i = 0; i < sizeof uses / sizeof uses[0]; i++)
		if (uses[i].kind == d->kind && (!is_2d(d) || uses[i].engine == d->ds_engine) &&
		    (uses[i].banks & BIT(bank)))
			return &uses[i];
	return NULL;
}

static const char *use_name(const vs_arena_decl *d)
{
	static const char *const names[] = {
		[VS_ARENA_DS_TEX] = "texture images", [VS_ARENA_DS_PLTT] = "texture palettes",
		[VS_ARENA_DS_OBJ] = "OBJ VRAM", [VS_ARENA_DS_BG] = "BG VRAM",
		[VS_ARENA_DS_BG_EXTPAL] = "BG extended palettes", [VS_ARENA_DS_OBJ_EXTPAL] = "OBJ extended palettes",
	};
	return (unsigned)d->kind < sizeof names / sizeof names[0] && names[d->kind] ? names[d->kind] : "?";
}

int vs_ds_bank_range(const vs_arena_decl *d, unsigned bank, unsigned ofs, uint32_t *off, uint32_t *len,
	char *why, size_t whylen)
{
	const use *u = find_use(d, bank);
	const char *eng = !is_2d(d) ? "" : d->ds_engine == VS_DS_ENGINE_A ? "engine A " : "engine B ";

	if (!u) {
		if (why)
			snprintf(why, whylen, "bank %c cannot hold %s%s", 'A' + (int)(bank < VS_DS_BANKS ? bank : 0),
				eng, use_name(d));
		return -1;
	}
	*len = u->len ? u->len : bank_bytes[bank];
	switch ((place)u->place) {
	case SLOT_128K:
		if (ofs > 3)
			goto bad_ofs;
		*off = ofs * 0x20000u;
		return 0;
	case OBJ_128K:
		if (ofs > 1)
			goto bad_ofs;
		*off = ofs * 0x20000u;
		return 0;
	case FG_16K:
		if (ofs > 3)
			goto bad_ofs;
		*off = (ofs & 1u) * 0x4000u + (ofs >> 1) * 0x10000u;
		return 0;
	case PLTT_SLOT:
		if (ofs != 0 && ofs != 1 && ofs != 4 && ofs != 5) {
			if (why)
				snprintf(why, whylen, "bank %c maps palette slot 0, 1, 4 or 5, not %u", 'A' + (int)bank, ofs);
			return -1;
		}
		*off = ofs * 0x4000u;
		return 0;
	case EXTPAL_16K:
		if (ofs > 1)
			goto bad_ofs;
		*off = ofs * 0x4000u;
		return 0;
	case FIXED:
		*off = u->at;
		return 0;
	}
bad_ofs:
	if (why)
		snprintf(why, whylen, "bank %c has no offset %u as %s%s (OFS 0-%u)", 'A' + (int)bank, ofs, eng,
			use_name(d), u->place == OBJ_128K || u->place == EXTPAL_16K ? 1u : 3u);
	return -1;
}

uint8_t vs_ds_bank_vramcnt(const vs_arena_decl *d, unsigned bank, unsigned ofs)
{
	const use *u = find_use(d, bank);

	if (!u)
		return 0;
	if (u->place == PLTT_SLOT) /* slot 0, 1, 4, 5 is OFS 0, 1, 2, 3 */
		ofs = (ofs & 1u) | (ofs & 4u) >> 1;
	else if (u->place == FIXED)
		ofs = 0;
	return (uint8_t)VS_VRAMCNT(u->mst, ofs);
}

int vs_ds_vramcnt_maps(const vs_arena_decl *d, unsigned bank, uint8_t v, unsigned *ofs)
{
	const use *u = find_use(d, bank);
	/* A, B, H and I have a 2-bit MST (GBATEK: bit 2 "not used") */
	unsigned mst_mask = bank == A || bank == B || bank == H || bank == I ? 3u : 7u;
	unsigned o = (v >> 3) & 3u;

	if (!u || !(v & VS_VRAMCNT_ENABLE) || (v & mst_mask) != u->mst)
		return 0;
	if (u->place == PLTT_SLOT)
		o = (o & 1u) | (o & 2u) << 1;
	else if (u->place == FIXED)
		o = 0;
	else if (u->place == OBJ_128K || u->place == EXTPAL_16K)
		o &= 1u; /* the hardware reads OFS.0 only */
	*ofs = o;
	return 1;
}

void vs_ds_unmapped(const vs_arena_decl *d, void (*fn)(void *ud, uint32_t off, uint32_t len), void *ud)
{
	/* every placement is a multiple of 8 KiB: a granule map of the arena */
	enum { GRANULE = 0x2000u };
	uint64_t covered = 0;
	uint32_t n = d->size / GRANULE, g, off, len, start;
	unsigned bank;

	if (n > 64)
		n = 64;
	for (bank = 0; bank < VS_DS_BANKS; bank++) {
		if (d->ds_bank_slot[bank] == VS_BANK_UNMAPPED ||
		    vs_ds_bank_range(d, bank, d->ds_bank_slot[bank], &off, &len, NULL, 0))
			continue;
		for (g = off / GRANULE; g < (off + len) / GRANULE && g < n; g++)
			covered |= 1ull << g;
	}
	for (g = 0; g < n;) {
		if ((covered >> g) & 1u) {
			g++;
			continue;
		}
		for (start = g; g < n && !((covered >> g) & 1u); g++)
			;
		fn(ud, start * GRANULE, (g - start) * GRANULE);
	}
}

int vs_ds_bank_at(const vs_arena_decl *d, uint32_t off)
{
	uint32_t o, len;
	unsigned bank;

	for (bank = 0; bank < VS_DS_BANKS; bank++)
		if (d->ds_bank_slot[bank] != VS_BANK_UNMAPPED &&
		    !vs_ds_bank_range(d, bank, d->ds_bank_slot[bank], &o, &len, NULL, 0) && off >= o && off - o < len)
			return (int)bank;
	return -1;
}
