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

int gba_bg_tiles_init_rom(gba_bg_tiles *m, uint32_t rom_tiles)
{
	uint32_t i;

	if (rom_tiles == 0 || rom_tiles > GBA_BG_TILES_ROM_MAX)
		return GBA_BG_TILES_BAD;
	m->rom_tiles = rom_tiles;
	for (i = 0; i < rom_tiles; i++)
		m->rom2ram[i] = UNUSED;
	for (i = 0; i < GBA_BG_TILES_BLOCKS; i++) {
		m->ram2rom[i] = UNUSED;
		m->ref[i] = NIL;
		m->back[i] = NIL;
	}
	for (i = 0; i < GBA_BG_TILES_BLOCKS / 16u; i++)
		m->is8[i] = 0;
	for (i = 0; i < 4; i++) {
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
	return 0;
}

void gba_bg_tiles_init(gba_bg_tiles *m)
{
	gba_bg_tiles_init_rom(m, GBA_BG_TILES_ROM_DEFAULT);
}

uint32_t gba_bg_tiles_ram_bytes(const gba_bg_tiles *m)
{
	return (uint32_t)(sizeof *m - sizeof m->rom2ram) + m->rom_tiles * (uint32_t)sizeof m->rom2ram[0];
}

int32_t gba_bg_tiles_ref(gba_bg_tiles *m, uint32_t rom, unsigned bpp, int *loaded)
{
	uint16_t b;

	*loaded = 0;
	if (rom >= m->rom_tiles || (bpp != 4 && bpp != 8))
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

/* ---- the charblock extension (gba_bg_tiles.h) -------------------------- */

/* First entry of a list whose n blocks lie in [lo, hi), or NIL. */
static uint16_t find(const gba_bg_tiles *m, unsigned list, uint32_t lo, uint32_t hi, uint32_t n)
{
	uint16_t b;

	for (b = m->head[list]; b != NIL; b = m->ref[b])
		if (b >= lo && b + n <= hi)
			break;
	return b;
}

/* A free place for a new tile of bpp inside blocks [lo, hi), taken off its
 * list (the partner of a split pair goes on list-c or list-d), or NIL. */
static uint16_t take(gba_bg_tiles *m, unsigned bpp, uint32_t lo, uint32_t hi)
{
	int lists_a = lo < GBA_BG_TILES_SHARED, lists_b = hi > GBA_BG_TILES_SHARED;
	uint16_t b = NIL;

	if (bpp == 8) {
		if (lists_b)
			b = find(m, GBA_BG_LIST_B, lo, hi, 2);
		if (b != NIL) {
			unlink_block(m, GBA_BG_LIST_B, b);
		} else if (lists_a && (b = find(m, GBA_BG_LIST_A, lo, hi, 2)) != NIL) {
			unlink_block(m, GBA_BG_LIST_A, b);
		}
		return b;
	}
	if (lists_a && (b = find(m, GBA_BG_LIST_C, lo, hi, 1)) != NIL) {
		unlink_block(m, GBA_BG_LIST_C, b);
		return b;
	}
	if (lists_b && (b = find(m, GBA_BG_LIST_D, lo, hi, 1)) != NIL) {
		unlink_block(m, GBA_BG_LIST_D, b);
		return b;
	}
	if (lists_a && (b = find(m, GBA_BG_LIST_A, lo, hi, 2)) != NIL) {
		unlink_block(m, GBA_BG_LIST_A, b);
		push(m, GBA_BG_LIST_C, (uint16_t)(b + 1u));
	} else if (lists_b && (b = find(m, GBA_BG_LIST_B, lo, hi, 2)) != NIL) {
		unlink_block(m, GBA_BG_LIST_B, b);
		push(m, GBA_BG_LIST_D, (uint16_t)(b + 1u));
	}
	return b;
}

int32_t gba_bg_tiles_ref_cb(gba_bg_tiles *m, uint32_t rom, unsigned bpp, unsigned cb, int affine, int *loaded)
{
	uint32_t lo, hi, n = bpp / 4u;
	uint16_t b, first;

	if (cb == GBA_BG_TILES_CB_ANY)
		return gba_bg_tiles_ref(m, rom, bpp, loaded);
	*loaded = 0;
	if (rom >= m->rom_tiles || (bpp != 4 && bpp != 8) || cb > 3u || (affine && bpp != 8))
		return GBA_BG_TILES_BAD;
	/* The blocks the layer's map entries can name: 1024 tiles (256 for an
	 * affine layer) from the charblock's base. */
	lo = cb * (0x4000u / GBA_BG_TILES_BLOCK_BYTES);
	hi = lo + (affine ? 256u : 1024u) * n;
	if (hi > GBA_BG_TILES_BLOCKS)
		hi = GBA_BG_TILES_BLOCKS;
	first = m->rom2ram[rom];
	if (rom != 0 && first != UNUSED && wide(m, first) != (bpp == 8))
		return GBA_BG_TILES_BAD;
	/* A hit: a copy at this depth in reach (tile 0's blocks 0-1 serve both
	 * depths, and charblock 0 reaches them). */
	for (b = first; b != NIL; b = m->back[b]) {
		if (b < lo || b + n > hi)
			continue;
		if (b == 0)
			return 0;
		if (wide(m, b) != (bpp == 8))
			continue; /* a transparent copy of the other depth */
		if (m->ref[b] == 0xFFFFu)
			return GBA_BG_TILES_REFS_FULL;
		m->ref[b]++;
		return b;
	}
	/* A load. For a charblock 0 text layer every block on the article's
	 * lists is in reach: the article's own choice, at its cost. */
	if (lo == 0 && hi >= (bpp == 8 ? GBA_BG_TILES_BLOCKS : GBA_BG_TILES_SHARED) && first == UNUSED)
		return gba_bg_tiles_ref(m, rom, bpp, loaded);
	b = take(m, bpp, lo, hi);
	if (b == NIL)
		return GBA_BG_TILES_NO_SPACE;
	if (bpp == 8) {
		m->ram2rom[b + 1u] = (uint16_t)rom;
		set_wide(m, b, 1);
	}
	m->ram2rom[b] = (uint16_t)rom;
	m->ref[b] = 1;
	if (first == UNUSED) {
		m->rom2ram[rom] = b;
		m->back[b] = NIL;
	} else {
		/* another copy: chained after the first, which rom2ram keeps */
		m->back[b] = m->back[first];
		m->back[first] = b;
	}
	*loaded = 1;
	return b;
}

/* A release of a copy of ROM tile rom that is not its first (the
 * charblock extension): it is on the chain from the first; anything else
 * (block 1 of tile 0, the second half of an 8bpp tile) is refused. Returns
 * the references left, 0 once the copy is off the chain, or BAD. */
static int32_t release_copy(gba_bg_tiles *m, uint16_t b, uint16_t rom)
{
	uint16_t prev;

	for (prev = m->rom2ram[rom]; prev != NIL && m->back[prev] != b; prev = m->back[prev])
		;
	if (prev == NIL)
		return GBA_BG_TILES_BAD;
	if (m->ref[b] > 1)
		return --m->ref[b];
	m->back[prev] = m->back[b];
	return 0;
}

int32_t gba_bg_tiles_release(gba_bg_tiles *m, uint32_t ram)
{
	uint16_t b = (uint16_t)ram, p, rom;
	int32_t rc;

	if (ram == 0)
		return 1;
	if (ram >= GBA_BG_TILES_BLOCKS || (rom = m->ram2rom[b]) == UNUSED)
		return GBA_BG_TILES_BAD;
	if (m->rom2ram[rom] == b) {
		if (m->ref[b] > 1)
			return --m->ref[b];
		/* The next copy, if any, becomes the first; with none back[b]
		 * is NIL and the ROM tile is unloaded, as the article does. */
		m->rom2ram[rom] = m->back[b];
	} else if ((rc = release_copy(m, b, rom)) != 0) {
		return rc;
	}
	m->ram2rom[b] = UNUSED;
	if (wide(m, b)) {
		set_wide(m, b, 0);
		m->ram2rom[b + 1u] = UNUSED;
		push(m, b < GBA_BG_TILES_SHARED ? GBA_BG_LIST_A : GBA_BG_LIST_B, b);
		return 0;
	}
	p = b ^ 1u;
	if (b >= GBA_BG_TILES_SHARED) {
		/* a charblock 2-3 single: list-d, the pair to list-b */
		if (m->ram2rom[p] == UNUSED) {
			unlink_block(m, GBA_BG_LIST_D, p);
			push(m, GBA_BG_LIST_B, (uint16_t)(b & ~1u));
		} else {
			push(m, GBA_BG_LIST_D, b);
		}
		return 0;
	}
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
