/* SPDX-License-Identifier: Zlib */
/* gba_bg_tiles.c - the BG tile manager of 'Gameboy Advance Resource
 * Management', shared 4/8bpp scheme. */
#include "vramsim/alloc/gba_bg_tiles.h"

#define NIL GBA_BG_TILES_UNUSED
#define UNUSED GBA_BG_TILES_UNUSED

static void push(gba_bg_tiles *m, unsigned list, uint16_t b)
{
	uint16_t h = m->head[list];

	m->ref[b] = h;
	m->back[b] = NIL;
	if (h != NIL)
		m->back[h] = b;
	m->head[list] = b;
	m->len[list]++;
}

static void unlink_block(gba_bg_tiles *m, unsigned list, uint16_t b)
{
	uint16_t n = m->ref[b], p = m->back[b];

	if (p != NIL)
		m->ref[p] = n;
	else
		m->head[list] = n;
	if (n != NIL)
		m->back[n] = p;
	m->len[list]--;
}

static uint16_t pop(gba_bg_tiles *m, unsigned list)
{
	uint16_t b = m->head[list];

	if (b != NIL)
		unlink_block(m, list, b);
	return b;
}

static int wide(const gba_bg_tiles *m, uint16_t b)
{
	return (m->is8[b >> 4] >> (b & 15u)) & 1u;
}

static void set_wide(gba_bg_tiles *m, uint16_t b, int on)
{
	if (on)
		m->is8[b >> 4] |= (uint16_t)(1u << (b & 15u));
	else
		m->is8[b >> 4] &= (uint16_t)~(1u << (b & 15u));
}

void gba_bg_tiles_init(gba_bg_tiles *m)
{
	uint32_t i;

	for (i = 0; i < GBA_BG_TILES_ROM_MAX; i++)
		m->rom2ram[i] = UNUSED;
	for (i = 0; i < GBA_BG_TILES_BLOCKS; i++) {
		m->ram2rom[i] = UNUSED;
		m->ref[i] = NIL;
		m->back[i] = NIL;
	}
	for (i = 0; i < GBA_BG_TILES_BLOCKS / 16u; i++)
		m->is8[i] = 0;
	for (i = 0; i < 3; i++) {
		m->head[i] = NIL;
		m->len[i] = 0;
	}
	m->maps = 0;
	/* Pushed from the top down so the lists hand out low blocks first. */
	for (i = GBA_BG_TILES_BLOCKS; i > GBA_BG_TILES_SHARED; i -= 2)
		push(m, GBA_BG_LIST_B, (uint16_t)(i - 2u));
	for (i = GBA_BG_TILES_SHARED; i > 2; i -= 2)
		push(m, GBA_BG_LIST_A, (uint16_t)(i - 2u));
	/* The all-transparent tile: tile 0 of both maps, blocks 0-1. */
	m->rom2ram[0] = 0;
	m->ram2rom[0] = 0;
	m->ram2rom[1] = 0;
	m->ref[0] = m->ref[1] = 0;
}

int32_t gba_bg_tiles_ref(gba_bg_tiles *m, uint32_t rom, unsigned bpp, int *loaded)
{
	uint16_t b;

	*loaded = 0;
	if (rom >= GBA_BG_TILES_ROM_MAX || (bpp != 4 && bpp != 8))
		return GBA_BG_TILES_BAD;
	if (rom == 0)
		return 0;
	b = m->rom2ram[rom];
	if (b != UNUSED) {
		if (wide(m, b) != (bpp == 8))
			return GBA_BG_TILES_BAD;
		if (m->ref[b] == 0xFFFFu)
			return GBA_BG_TILES_REFS_FULL;
		m->ref[b]++;
		return b;
	}
	if (bpp == 8) {
		b = pop(m, GBA_BG_LIST_B);
		if (b == NIL)
			b = pop(m, GBA_BG_LIST_A);
		if (b == NIL)
			return GBA_BG_TILES_NO_SPACE;
		m->ram2rom[b + 1u] = (uint16_t)rom;
		set_wide(m, b, 1);
	} else {
		b = pop(m, GBA_BG_LIST_C);
		if (b == NIL) {
			b = pop(m, GBA_BG_LIST_A);
			if (b == NIL)
				return GBA_BG_TILES_NO_SPACE;
			push(m, GBA_BG_LIST_C, (uint16_t)(b + 1u));
		}
	}
	m->ram2rom[b] = (uint16_t)rom;
	m->rom2ram[rom] = b;
	m->ref[b] = 1;
	*loaded = 1;
	return b;
}

int32_t gba_bg_tiles_release(gba_bg_tiles *m, uint32_t ram)
{
	uint16_t b = (uint16_t)ram, p;

	if (ram == 0)
		return 1;
	if (ram >= GBA_BG_TILES_BLOCKS || m->ram2rom[b] == UNUSED || m->ram2rom[b] == 0 ||
		m->rom2ram[m->ram2rom[b]] != b)
		return GBA_BG_TILES_BAD;
	if (m->ref[b] > 1)
		return --m->ref[b];
	m->rom2ram[m->ram2rom[b]] = UNUSED;
	m->ram2rom[b] = UNUSED;
	if (wide(m, b)) {
		set_wide(m, b, 0);
		m->ram2rom[b + 1u] = UNUSED;
		push(m, b < GBA_BG_TILES_SHARED ? GBA_BG_LIST_A : GBA_BG_LIST_B, b);
		return 0;
	}
	p = b ^ 1u;
	if (m->ram2rom[p] == UNUSED) {
		/* Partner free too: it sits on list-c; the pair goes back to list-a. */
		unlink_block(m, GBA_BG_LIST_C, p);
		push(m, GBA_BG_LIST_A, (uint16_t)(b & ~1u));
	} else {
		push(m, GBA_BG_LIST_C, b);
	}
	return 0;
}

uint32_t gba_bg_tiles_refs(const gba_bg_tiles *m, uint32_t ram)
{
	if (ram >= GBA_BG_TILES_BLOCKS || m->ram2rom[ram] == UNUSED || ram < 2u)
		return 0;
	if ((ram & 1u) && wide(m, (uint16_t)(ram - 1u)))
		return m->ref[ram - 1u];
	return m->ref[ram];
}

int gba_bg_tiles_block_free(const gba_bg_tiles *m, uint32_t ram)
{
	return ram < GBA_BG_TILES_BLOCKS && m->ram2rom[ram] == UNUSED;
}

int gba_bg_tiles_map_alloc(gba_bg_tiles *m, unsigned n)
{
	unsigned s, mask;

	if (n == 0 || n > GBA_BG_TILES_MAPS)
		return -1;
	mask = (1u << n) - 1u;
	for (s = 0; s + n <= GBA_BG_TILES_MAPS; s++) {
		if (!(m->maps & (mask << s))) {
			m->maps = (uint8_t)(m->maps | (mask << s));
			return (int)(GBA_BG_TILES_MAP_FIRST + s);
		}
	}
	return -1;
}

int gba_bg_tiles_map_free(gba_bg_tiles *m, unsigned sb, unsigned n)
{
	unsigned mask;

	if (n == 0 || sb < GBA_BG_TILES_MAP_FIRST || sb - GBA_BG_TILES_MAP_FIRST + n > GBA_BG_TILES_MAPS)
		return -1;
	mask = ((1u << n) - 1u) << (sb - GBA_BG_TILES_MAP_FIRST);
	if ((m->maps & mask) != mask)
		return -1;
	m->maps = (uint8_t)(m->maps & ~mask);
	return 0;
}
