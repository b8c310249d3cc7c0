/* SPDX-License-Identifier: Zlib */
/* gba_bg_tiles_split.c - two separate tile regions (the simpler scheme of
 * 'Gameboy Advance Resource Management'). */
#include "vramsim/alloc/gba_bg_tiles_split.h"

#define UNUSED GBA_BG_SPLIT_UNUSED

/* reserved: tiles at the region's start kept out of the free list. */
static void region_init(gba_bg_split_region *r, uint16_t base, uint16_t tiles, uint16_t reserved,
	uint32_t rom_tiles)
{
	uint32_t i;

	for (i = 0; i < rom_tiles; i++)
		r->rom2ram[i] = UNUSED;
	/* The free list threads entry i to i + 1, as the article sets it up. */
	for (i = 0; i < GBA_BG_SPLIT_MAX_TILES; i++) {
		r->ram2rom[i] = UNUSED;
		r->ref[i] = i + 1u < tiles ? (uint16_t)(i + 1u) : UNUSED;
		r->copy[i] = UNUSED;
	}
	for (i = 0; i < reserved; i++)
		r->ram2rom[i] = 0;
	r->head = reserved < tiles ? reserved : UNUSED;
	r->tiles = tiles;
	r->base = base;
	r->used = 0;
}

int gba_bg_tiles_split_init_rom(gba_bg_tiles_split *m, uint32_t bytes4, uint32_t rom_tiles)
{
	if (rom_tiles == 0 || rom_tiles > GBA_BG_SPLIT_ROM_MAX)
		return GBA_BG_SPLIT_BAD;
	m->rom_tiles = rom_tiles;
	bytes4 &= ~63u;
	if (bytes4 < 64u)
		bytes4 = 64u;
	if (bytes4 > 0x8000u)
		bytes4 = 0x8000u;
	m->bytes4 = (uint16_t)bytes4;
	/* Tile 0 of both depths: the first 64 bytes, two 4bpp tiles. */
	region_init(&m->r4, 0, (uint16_t)(bytes4 / 32u), 2, rom_tiles);
	region_init(&m->r8, (uint16_t)(bytes4 / 32u), (uint16_t)((GBA_BG_SPLIT_TILE_BYTES - bytes4) / 64u), 0,
		rom_tiles);
	m->r4.rom2ram[0] = 0;
	m->maps = 0;
	return 0;
}

void gba_bg_tiles_split_init(gba_bg_tiles_split *m, uint32_t bytes4)
{
	gba_bg_tiles_split_init_rom(m, bytes4, GBA_BG_SPLIT_ROM_DEFAULT);
}

uint32_t gba_bg_tiles_split_ram_bytes(const gba_bg_tiles_split *m)
{
	return (uint32_t)(sizeof *m - 2u * sizeof m->r4.rom2ram) + 2u * m->rom_tiles * (uint32_t)sizeof m->r4.rom2ram[0];
}

static int32_t region_ref(gba_bg_split_region *r, uint32_t rom, int *loaded)
{
	uint16_t t = r->rom2ram[rom];

	if (t != UNUSED) {
		if (r->ref[t] == 0xFFFFu)
			return GBA_BG_SPLIT_REFS_FULL;
		r->ref[t]++;
		return t;
	}
	t = r->head;
	if (t == UNUSED)
		return GBA_BG_SPLIT_NO_SPACE;
	r->head = r->ref[t];
	r->ref[t] = 1;
	r->rom2ram[rom] = t;
	r->ram2rom[t] = (uint16_t)rom;
	r->used++;
	*loaded = 1;
	return t;
}

/* A release of a copy of ROM tile rom that is not its first (the
 * charblock extension): it is on the chain from the first; anything else
 * (the reserved tile 1) is refused. Returns the references left, 0 once
 * the copy is off the chain, or BAD. */
static int32_t region_release_copy(gba_bg_split_region *r, uint32_t t, uint16_t rom)
{
	uint16_t prev;

	for (prev = r->rom2ram[rom]; prev != UNUSED && r->copy[prev] != t; prev = r->copy[prev])
		;
	if (prev == UNUSED)
		return GBA_BG_SPLIT_BAD;
	if (r->ref[t] > 1)
		return --r->ref[t];
	r->copy[prev] = r->copy[t];
	return 0;
}

static int32_t region_release(gba_bg_split_region *r, uint32_t t)
{
	uint16_t rom;
	int32_t rc;

	if (t >= r->tiles || r->ram2rom[t] == UNUSED)
		return GBA_BG_SPLIT_BAD;
	rom = r->ram2rom[t];
	if (r->rom2ram[rom] == t) {
		if (r->ref[t] > 1)
			return --r->ref[t];
		/* The next copy, if any, becomes the first; with none copy[t]
		 * is UNUSED and the ROM tile is unloaded, as the article does. */
		r->rom2ram[rom] = r->copy[t];
	} else if ((rc = region_release_copy(r, t, rom)) != 0) {
		return rc;
	}
	r->copy[t] = UNUSED;
	r->ram2rom[t] = UNUSED;
	r->ref[t] = r->head;
	r->head = (uint16_t)t;
	r->used--;
	return 0;
}

int32_t gba_bg_tiles_split_ref(gba_bg_tiles_split *m, uint32_t rom, unsigned bpp, int *loaded)
{
	gba_bg_split_region *r, *other;
	int32_t t;

	*loaded = 0;
	if (rom >= m->rom_tiles || (bpp != 4 && bpp != 8))
		return GBA_BG_SPLIT_BAD;
	if (rom == 0)
		return 0;
	r = bpp == 8 ? &m->r8 : &m->r4;
	other = bpp == 8 ? &m->r4 : &m->r8;
	if (other->rom2ram[rom] != UNUSED)
		return GBA_BG_SPLIT_BAD; /* one ROM index, one depth */
	t = region_ref(r, rom, loaded);
	if (t < 0)
		return t;
	return (int32_t)r->base + (bpp == 8 ? 2 * t : t);
}

/* ---- the charblock extension (gba_bg_tiles_split.h) -------------------- */

/* A reference of ROM tile rom in region r, placed in the region's tiles
 * [lo, hi). */
static int32_t region_ref_in(gba_bg_split_region *r, uint32_t rom, uint32_t lo, uint32_t hi, int *loaded)
{
	uint16_t t, first = r->rom2ram[rom], prev = UNUSED;

	/* A hit: a copy in reach (the reserved tile 0 at the start of the 4bpp
	 * region, which heads ROM tile 0's chain there, is out of reach of
	 * every charblock but 0, whose tile 0 the caller answers itself). */
	for (t = first; t != UNUSED; t = r->copy[t]) {
		if (t < lo || t >= hi)
			continue;
		if (r->ref[t] == 0xFFFFu)
			return GBA_BG_SPLIT_REFS_FULL;
		r->ref[t]++;
		return t;
	}
	for (t = r->head; t != UNUSED && (t < lo || t >= hi); t = r->ref[t])
		prev = t;
	if (t == UNUSED)
		return GBA_BG_SPLIT_NO_SPACE;
	if (prev == UNUSED)
		r->head = r->ref[t];
	else
		r->ref[prev] = r->ref[t];
	r->ref[t] = 1;
	r->ram2rom[t] = (uint16_t)rom;
	if (first == UNUSED) {
		r->rom2ram[rom] = t;
	} else {
		/* another copy: chained after the first, which rom2ram keeps */
		r->copy[t] = r->copy[first];
		r->copy[first] = t;
	}
	r->used++;
	*loaded = 1;
	return t;
}

int32_t gba_bg_tiles_split_ref_cb(gba_bg_tiles_split *m, uint32_t rom, unsigned bpp, unsigned cb, int affine,
	int *loaded)
{
	gba_bg_split_region *r, *other;
	uint32_t lo, hi, unit, tlo, thi;
	int32_t t;

	if (cb == GBA_BG_SPLIT_CB_ANY)
		return gba_bg_tiles_split_ref(m, rom, bpp, loaded);
	*loaded = 0;
	if (rom >= m->rom_tiles || (bpp != 4 && bpp != 8) || cb > 3u || (affine && bpp != 8))
		return GBA_BG_SPLIT_BAD;
	if (rom == 0 && cb == 0)
		return 0; /* the reserved tile 0: tile 0 of charblock 0 at either depth */
	r = bpp == 8 ? &m->r8 : &m->r4;
	other = bpp == 8 ? &m->r4 : &m->r8;
	if (rom != 0 && other->rom2ram[rom] != UNUSED)
		return GBA_BG_SPLIT_BAD; /* one ROM index, one depth */
	/* The layer's reach in 32-byte blocks, then in the region's tiles. */
	unit = bpp / 4u;
	lo = cb * (0x4000u / 32u);
	hi = lo + (affine ? 256u : 1024u) * unit;
	tlo = lo <= r->base ? 0 : (lo - r->base + unit - 1u) / unit;
	thi = hi <= r->base ? 0 : (hi - r->base) / unit;
	if (thi > r->tiles)
		thi = r->tiles;
	/* The whole region in reach: the article's own code (tile 0 aside,
	 * which it answers with the reserved tile). */
	if (tlo == 0 && thi == r->tiles && rom != 0)
		return gba_bg_tiles_split_ref(m, rom, bpp, loaded);
	if (tlo >= thi)
		return GBA_BG_SPLIT_NO_SPACE;
	t = region_ref_in(r, rom, tlo, thi, loaded);
	if (t < 0)
		return t;
	return (int32_t)r->base + (int32_t)(unit * (uint32_t)t);
}

int32_t gba_bg_tiles_split_release(gba_bg_tiles_split *m, uint32_t block)
{
	if (block == 0)
		return 1;
	if (block < m->r8.base)
		return region_release(&m->r4, block);
	if ((block - m->r8.base) & 1u)
		return GBA_BG_SPLIT_BAD;
	return region_release(&m->r8, (block - m->r8.base) / 2u);
}

int gba_bg_tiles_split_block_free(const gba_bg_tiles_split *m, uint32_t block)
{
	if (block < m->r8.base)
		return m->r4.ram2rom[block] == UNUSED;
	block = (block - m->r8.base) / 2u;
	return block < m->r8.tiles && m->r8.ram2rom[block] == UNUSED;
}

int gba_bg_tiles_split_map_alloc(gba_bg_tiles_split *m, unsigned n)
{
	unsigned s, mask;

	if (n == 0 || n > GBA_BG_SPLIT_MAPS)
		return -1;
	mask = (1u << n) - 1u;
	for (s = 0; s + n <= GBA_BG_SPLIT_MAPS; s++) {
		if (!(m->maps & (mask << s))) {
			m->maps = (uint8_t)(m->maps | (mask << s));
			return (int)(GBA_BG_SPLIT_MAP_FIRST + s);
		}
	}
	return -1;
}

int gba_bg_tiles_split_map_free(gba_bg_tiles_split *m, unsigned sb, unsigned n)
{
	unsigned mask;

	if (n == 0 || sb < GBA_BG_SPLIT_MAP_FIRST || sb - GBA_BG_SPLIT_MAP_FIRST + n > GBA_BG_SPLIT_MAPS)
		return -1;
	mask = ((1u << n) - 1u) << (sb - GBA_BG_SPLIT_MAP_FIRST);
	if ((m->maps & mask) != mask)
		return -1;
	m->maps = (uint8_t)(m->maps & ~mask);
	return 0;
}
