/* SPDX-License-Identifier: Zlib */
/* test_ds_banks.c - the DS VRAMCNT table (src/vram/ds_banks.c) against
 * GBATEK's, written out again here: for every bank and use the MST, the
 * address each OFS gives, the register values decoded (every value of every
 * bank for every use), the uses GBATEK does not list refused; and the
 * memory partly mapped engines leave reserved. */
#include <stdio.h>
#include <string.h>

#include "support.h"
#include "vram/arena.h"
#include "vram/ds_banks.h"
#include "vram/hw.h"

enum { A, B, C, D, E, F, G, H, I };
#define NO 0xFFFFFFFFu

/* A DS 2D arena of kind k on engine e with its defaults. */
static vs_arena_decl ds_decl(vs_arena_kind k, unsigned e)
{
	vs_arena_decl d;

	vs_arena_decl_default(&d, k);
	vs_arena_decl_engine(&d, e);
	return d;
}
/* ---- the VRAMCNT table ------------------------------------------------------ */

/* GBATEK "DS Memory Control - VRAM", written out again from the document:
 * for each bank and use, the MST, and for each OFS 0-3 the value the
 * arena's ds_bank_slot takes and the address (for the extended palettes
 * and the texture spaces, the slot offset) where the bank then starts; NO
 * where GBATEK says the OFS must not be used (OFS.1 of A and B as engine A
 * OBJ, OFS 2-3 of F and G as BG extended palettes). */
typedef struct gbatek_row {
	char bank;
	vs_arena_kind kind;
	unsigned engine, mst;
	uint8_t slot[4];
	uint32_t at[4], len;
} gbatek_row;

#define AO VS_ARENA_DS_OBJ
#define AB VS_ARENA_DS_BG
#define EA VS_DS_ENGINE_A
#define EB VS_DS_ENGINE_B
#define SLOTS4 { 0, 1, 2, 3 }
#define FIXED { 0, 0, 0, 0 }
#define FG_AT(base) { base, base + 0x4000u, base + 0x10000u, base + 0x14000u }
#define AD_AT(base) { base, base + 0x20000u, base + 0x40000u, base + 0x60000u }
#define ALL(x) { x, x, x, x }

static const gbatek_row gbatek[] = {
	/* engine A BG-VRAM, max 512 KiB: A-D 6000000h+20000h*OFS, E 6000000h, F/G +4000h*OFS.0+10000h*OFS.1 */
	{ 'A', AB, EA, 1, SLOTS4, AD_AT(0x06000000u), 0x20000 }, { 'B', AB, EA, 1, SLOTS4, AD_AT(0x06000000u), 0x20000 },
	{ 'C', AB, EA, 1, SLOTS4, AD_AT(0x06000000u), 0x20000 }, { 'D', AB, EA, 1, SLOTS4, AD_AT(0x06000000u), 0x20000 },
	{ 'E', AB, EA, 1, FIXED, ALL(0x06000000u), 0x10000 },
	{ 'F', AB, EA, 1, SLOTS4, FG_AT(0x06000000u), 0x4000 }, { 'G', AB, EA, 1, SLOTS4, FG_AT(0x06000000u), 0x4000 },
	/* engine A OBJ-VRAM, max 256 KiB: A/B 6400000h+20000h*OFS.0 (OFS.1 zero), E, F/G as for BG */
	{ 'A', AO, EA, 2, { 0, 1, 0, 1 }, { 0x06400000u, 0x06420000u, NO, NO }, 0x20000 },
	{ 'B', AO, EA, 2, { 0, 1, 0, 1 }, { 0x06400000u, 0x06420000u, NO, NO }, 0x20000 },
	{ 'E', AO, EA, 2, FIXED, ALL(0x06400000u), 0x10000 },
	{ 'F', AO, EA, 2, SLOTS4, FG_AT(0x06400000u), 0x4000 }, { 'G', AO, EA, 2, SLOTS4, FG_AT(0x06400000u), 0x4000 },
	/* engine A BG extended palettes: E slots 0-3 (lower 32 KiB), F/G slots 0-1 (OFS 0) or 2-3 (OFS 1) */
	{ 'E', VS_ARENA_DS_BG_EXTPAL, EA, 4, FIXED, ALL(0u), 0x8000 },
	{ 'F', VS_ARENA_DS_BG_EXTPAL, EA, 4, { 0, 1, 0, 1 }, { 0u, 0x4000u, NO, NO }, 0x4000 },
	{ 'G', VS_ARENA_DS_BG_EXTPAL, EA, 4, { 0, 1, 0, 1 }, { 0u, 0x4000u, NO, NO }, 0x4000 },
	/* engine A OBJ extended palette: F/G slot 0, lower 8 KiB */
	{ 'F', VS_ARENA_DS_OBJ_EXTPAL, EA, 5, FIXED, ALL(0u), 0x2000 },
	{ 'G', VS_ARENA_DS_OBJ_EXTPAL, EA, 5, FIXED, ALL(0u), 0x2000 },
	/* texture image slots OFS (A-D), texture palette slots: E 0-3, F/G slot OFS.0 + 4*OFS.1 */
	{ 'A', VS_ARENA_DS_TEX, EA, 3, SLOTS4, AD_AT(0u), 0x20000 }, { 'B', VS_ARENA_DS_TEX, EA, 3, SLOTS4, AD_AT(0u), 0x20000 },
	{ 'C', VS_ARENA_DS_TEX, EA, 3, SLOTS4, AD_AT(0u), 0x20000 }, { 'D', VS_ARENA_DS_TEX, EA, 3, SLOTS4, AD_AT(0u), 0x20000 },
	{ 'E', VS_ARENA_DS_PLTT, EA, 3, FIXED, ALL(0u), 0x10000 },
	{ 'F', VS_ARENA_DS_PLTT, EA, 3, { 0, 1, 4, 5 }, FG_AT(0u), 0x4000 },
	{ 'G', VS_ARENA_DS_PLTT, EA, 3, { 0, 1, 4, 5 }, FG_AT(0u), 0x4000 },
	/* engine B BG-VRAM, max 128 KiB: C 6200000h (MST 4), H 6200000h, I 6208000h */
	{ 'C', AB, EB, 4, FIXED, ALL(0x06200000u), 0x20000 },
	{ 'H', AB, EB, 1, FIXED, ALL(0x06200000u), 0x8000 },
	{ 'I', AB, EB, 1, FIXED, ALL(0x06208000u), 0x4000 },
	/* engine B OBJ-VRAM, max 128 KiB: D 6600000h (MST 4), I 6600000h */
	{ 'D', AO, EB, 4, FIXED, ALL(0x06600000u), 0x20000 },
	{ 'I', AO, EB, 2, FIXED, ALL(0x06600000u), 0x4000 },
	/* engine B extended palettes: H BG slots 0-3, I OBJ slot 0 (lower 8 KiB) */
	{ 'H', VS_ARENA_DS_BG_EXTPAL, EB, 2, FIXED, ALL(0u), 0x8000 },
	{ 'I', VS_ARENA_DS_OBJ_EXTPAL, EB, 3, FIXED, ALL(0u), 0x2000 },
};
#define NGBATEK (sizeof gbatek / sizeof gbatek[0])

/* The ten uses: the two 3D spaces and each 2D kind on each engine. */
static vs_arena_decl use_decl(int i)
{
	static const vs_arena_kind kinds[] = { VS_ARENA_DS_OBJ, VS_ARENA_DS_BG, VS_ARENA_DS_BG_EXTPAL,
		VS_ARENA_DS_OBJ_EXTPAL };
	vs_arena_decl d;

	if (i < 2) {
		vs_arena_decl_default(&d, i ? VS_ARENA_DS_PLTT : VS_ARENA_DS_TEX);
		return d;
	}
	return ds_decl(kinds[(i - 2) / 2], (unsigned)(i - 2) % 2u);
}

static const gbatek_row *gbatek_find(const vs_arena_decl *d, unsigned bank)
{
	size_t i;
	int two_d = (VS_ARENA_BIT(d->kind) & VS_ARENA_ANY_DS_2D) != 0;

	for (i = 0; i < NGBATEK; i++)
		if (gbatek[i].bank == 'A' + (int)bank && gbatek[i].kind == d->kind &&
		    (!two_d || gbatek[i].engine == d->ds_engine))
			return &gbatek[i];
	return NULL;
}

/* Every bank and use: the MST, the address of each OFS, the length, and
 * the uses GBATEK does not list refused. */
START_TEST(vramcnt_table_addresses)
{
	int u;
	unsigned bank, ofs, slot;
	uint32_t off, len;
	char why[128];

	for (u = 0; u < 10; u++) {
		vs_arena_decl d = use_decl(u);
		for (bank = 0; bank < VS_DS_BANKS; bank++) {
			const gbatek_row *g = gbatek_find(&d, bank);
			if (!g) {
				ck_assert_msg(vs_ds_bank_range(&d, bank, 0, &off, &len, why, sizeof why) == -1,
					"bank %c serves %s engine %u, which GBATEK does not list", 'A' + bank,
					vs_arena_kind_name(d.kind), (unsigned)d.ds_engine);
				ck_assert_ptr_nonnull(strstr(why, "cannot hold"));
				ck_assert_uint_eq(vs_ds_bank_vramcnt(&d, bank, 0), 0);
				continue;
			}
			for (ofs = 0; ofs < 4; ofs++) {
				uint8_t v = (uint8_t)VS_VRAMCNT(g->mst, ofs);
				ck_assert_msg(vs_ds_vramcnt_maps(&d, bank, v, &slot), "bank %c MST %u OFS %u", g->bank, g->mst, ofs);
				ck_assert_uint_eq(slot, g->slot[ofs]);
				if (g->at[ofs] == NO)
					continue;
				ck_assert_int_eq(vs_ds_bank_range(&d, bank, slot, &off, &len, why, sizeof why), 0);
				ck_assert_msg(d.base + off == g->at[ofs] && len == g->len, "bank %c %s OFS %u: 0x%x +0x%x, GBATEK 0x%x +0x%x",
					g->bank, vs_arena_kind_name(d.kind), ofs, (unsigned)(d.base + off), (unsigned)len,
					(unsigned)g->at[ofs], (unsigned)g->len);
				/* the register value vramsim writes for that place maps it back there */
				{
					uint8_t back = vs_ds_bank_vramcnt(&d, bank, slot);
					unsigned again;
					ck_assert_uint_eq(back & 0x87u, 0x80u | g->mst);
					ck_assert(vs_ds_vramcnt_maps(&d, bank, back, &again) && again == slot);
				}
			}
			ck_assert_uint_eq(vs_ds_bank_size(bank) >= g->len, 1);
		}
	}
	/* the offsets GBATEK forbids are refused, naming the range */
	{
		vs_arena_decl d = ds_decl(VS_ARENA_DS_OBJ, VS_DS_ENGINE_A);
		ck_assert_int_eq(vs_ds_bank_range(&d, A, 2, &off, &len, why, sizeof why), -1);
		ck_assert_str_eq(why, "bank A has no offset 2 as engine A OBJ VRAM (OFS 0-1)");
		d = ds_decl(VS_ARENA_DS_BG, VS_DS_ENGINE_A);
		ck_assert_int_eq(vs_ds_bank_range(&d, F, 4, &off, &len, why, sizeof why), -1);
		ck_assert_str_eq(why, "bank F has no offset 4 as engine A BG VRAM (OFS 0-3)");
		d = ds_decl(VS_ARENA_DS_OBJ, VS_DS_ENGINE_B);
		ck_assert_int_eq(vs_ds_bank_range(&d, C, 0, &off, &len, why, sizeof why), -1);
		ck_assert_str_eq(why, "bank C cannot hold engine B OBJ VRAM");
	}
}
END_TEST

/* Every register value of every bank for every use, decoded as GBATEK
 * says: enable bit 7, MST bits 0-2 (bit 2 not used by A, B, H, I), OFS
 * bits 3-4. */
START_TEST(vramcnt_decoding)
{
	int u;
	unsigned bank, v, slot;

	for (u = 0; u < 10; u++) {
		vs_arena_decl d = use_decl(u);
		for (bank = 0; bank < VS_DS_BANKS; bank++) {
			const gbatek_row *g = gbatek_find(&d, bank);
			unsigned mask = bank == A || bank == B || bank == H || bank == I ? 3u : 7u;
			for (v = 0; v < 256; v++) {
				int want = g && (v & 0x80u) && (v & mask) == g->mst;
				int got = vs_ds_vramcnt_maps(&d, bank, (uint8_t)v, &slot);
				ck_assert_msg(got == want, "bank %c value 0x%02x for %s engine %u: %d, GBATEK %d", 'A' + bank, v,
					vs_arena_kind_name(d.kind), (unsigned)d.ds_engine, got, want);
				if (want)
					ck_assert_uint_eq(slot, g->slot[(v >> 3) & 3u]);
			}
		}
	}
	/* MST bit 2: A with 5 is MST 1 (engine A BG); C with 5 is nothing here,
	 * H with 6 is MST 2 (engine B BG extended palettes) */
	{
		vs_arena_decl bg = ds_decl(VS_ARENA_DS_BG, VS_DS_ENGINE_A), bgb = ds_decl(VS_ARENA_DS_BG, VS_DS_ENGINE_B);
		vs_arena_decl hx = ds_decl(VS_ARENA_DS_BG_EXTPAL, VS_DS_ENGINE_B);
		ck_assert(vs_ds_vramcnt_maps(&bg, A, 0x80 | 5 | 2 << 3, &slot) && slot == 2);
		ck_assert(!vs_ds_vramcnt_maps(&bg, C, 0x80 | 5, &slot));
		ck_assert(!vs_ds_vramcnt_maps(&bgb, C, 0x80 | 0, &slot));
		ck_assert(vs_ds_vramcnt_maps(&hx, H, 0x80 | 6, &slot) && slot == 0);
		ck_assert(!vs_ds_vramcnt_maps(&hx, H, 6, &slot)); /* not enabled */
	}
}
END_TEST

typedef struct ranges { uint32_t off[8], len[8]; int n; } ranges;

static void collect(void *ud, uint32_t off, uint32_t len)
{
	ranges *m = ud;

	if (m->n < 8) {
		m->off[m->n] = off;
		m->len[m->n] = len;
	}
	m->n++;
}

static ranges reserved(const vs_arena_decl *d)
{
	ranges m;

	memset(&m, 0, sizeof m);
	vs_hw_reserved(d, collect, &m);
	return m;
}

/* Memory no bank maps is reserved: the defaults, and partial mappings. */
START_TEST(partly_mapped_engines)
{
	vs_arena_decl d = ds_decl(VS_ARENA_DS_OBJ, VS_DS_ENGINE_A);
	ranges m;

	/* engine A OBJ defaults to B at 0x06400000: the upper 128 KiB reserved */
	ck_assert_uint_eq(d.ds_bank_slot[B], 0);
	m = reserved(&d);
	ck_assert_int_eq(m.n, 1);
	ck_assert(m.off[0] == 0x20000 && m.len[0] == 0x20000);
	/* F at OFS 1 and G at OFS 2: 0x4000-0x8000 and 0x10000-0x14000 */
	memset(d.ds_bank_slot, VS_BANK_UNMAPPED, sizeof d.ds_bank_slot);
	d.ds_bank_slot[F] = 1;
	d.ds_bank_slot[G] = 2;
	m = reserved(&d);
	ck_assert_int_eq(m.n, 3);
	ck_assert(m.off[0] == 0 && m.len[0] == 0x4000);
	ck_assert(m.off[1] == 0x8000 && m.len[1] == 0x8000);
	ck_assert(m.off[2] == 0x14000 && m.len[2] == 0x2C000);
	ck_assert_int_eq(vs_ds_bank_at(&d, 0x4000), F);
	ck_assert_int_eq(vs_ds_bank_at(&d, 0x13FFF), G);
	ck_assert_int_eq(vs_ds_bank_at(&d, 0x8000), -1);
	/* engine A BG defaults to A: 384 of 512 KiB reserved */
	d = ds_decl(VS_ARENA_DS_BG, VS_DS_ENGINE_A);
	ck_assert_uint_eq(d.ds_bank_slot[A], 0);
	m = reserved(&d);
	ck_assert(m.n == 1 && m.off[0] == 0x20000 && m.len[0] == 0x60000);
	/* engine B BG: H and I leave 0xC000-0x20000 */
	d = ds_decl(VS_ARENA_DS_BG, VS_DS_ENGINE_B);
	ck_assert_uint_eq(d.ds_bank_slot[C], 0);
	d.ds_bank_slot[C] = VS_BANK_UNMAPPED;
	d.ds_bank_slot[H] = 0;
	d.ds_bank_slot[I] = 0;
	m = reserved(&d);
	ck_assert(m.n == 1 && m.off[0] == 0xC000 && m.len[0] == 0x14000);
	/* the extended palettes: E covers engine A's four BG slots, F at OFS 1 slots 2-3 only */
	d = ds_decl(VS_ARENA_DS_BG_EXTPAL, VS_DS_ENGINE_A);
	ck_assert_uint_eq(d.ds_bank_slot[E], 0);
	ck_assert_int_eq(reserved(&d).n, 0);
	d.ds_bank_slot[E] = VS_BANK_UNMAPPED;
	d.ds_bank_slot[F] = 1;
	m = reserved(&d);
	ck_assert(m.n == 1 && m.off[0] == 0 && m.len[0] == 0x4000);
	/* engine A OBJ extended palette defaults to F; engine B's own banks */
	d = ds_decl(VS_ARENA_DS_OBJ_EXTPAL, VS_DS_ENGINE_A);
	ck_assert(d.ds_bank_slot[F] == 0 && reserved(&d).n == 0);
	ck_assert_uint_eq(ds_decl(VS_ARENA_DS_OBJ, VS_DS_ENGINE_B).ds_bank_slot[D], 0);
	ck_assert_uint_eq(ds_decl(VS_ARENA_DS_BG_EXTPAL, VS_DS_ENGINE_B).ds_bank_slot[H], 0);
	ck_assert_uint_eq(ds_decl(VS_ARENA_DS_OBJ_EXTPAL, VS_DS_ENGINE_B).ds_bank_slot[I], 0);
	/* no bank at all: all reserved */
	d = ds_decl(VS_ARENA_DS_OBJ, VS_DS_ENGINE_B);
	d.ds_bank_slot[D] = VS_BANK_UNMAPPED;
	m = reserved(&d);
	ck_assert(m.n == 1 && m.off[0] == 0 && m.len[0] == 0x20000);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("ds_banks");
	TCase *tc = tcase_create("banks");

	tcase_add_test(tc, vramcnt_table_addresses);
	tcase_add_test(tc, vramcnt_decoding);
	tcase_add_test(tc, partly_mapped_engines);
	suite_add_tcase(s, tc);
	return vs_test_main(s);
}
