/* SPDX-License-Identifier: Zlib */
/* strat_gba_bg_tiles_split.c - strategy adapter for the simpler scheme of
 * 'Gameboy Advance Resource Management': separate 4bpp and 8bpp tile
 * regions. Same trace semantics as gba-bg-tiles (see strat_gba_bg_tiles.c),
 * cb= included: a tile lands in its layer's reach inside its depth's
 * region, or fails. */
#include "vramsim/alloc/gba_bg_tiles_split.h"
#include "strategies/strategies.h"
#include "strat_gba.h"
#include "base/options.h"

/* ---- gba-bg-tiles-split: two regions --------------------------------- */

static int bgs_init(void *st, const vs_arena_decl *a, const char *options,
	uint8_t *mem, char *err, size_t errlen)
{
	static const char *const known[] = { "bytes4", "rom", NULL };
	char val[32];
	uint32_t bytes4 = GBA_BG_SPLIT_DEFAULT_BYTES4, rom = GBA_BG_SPLIT_ROM_DEFAULT;

	(void)mem;
	if (vs_option_check(options, known, err, errlen) || vs_gba_bg_mode_ok(a, err, errlen) ||
		vs_option_u32(options, "bytes4", 64u, 0x8000u, &bytes4, err, errlen) < 0 ||
		vs_option_u32(options, "rom", 1, GBA_BG_SPLIT_ROM_MAX, &rom, err, errlen) < 0)
		return -1;
	if (bytes4 % 64u) {
		/* the 8bpp region starts where it ends, on a 64-byte 8bpp tile:
		 * refused rather than rounded down as the allocator would */
		vs_option_get(options, "bytes4", val, sizeof val);
		snprintf(err, errlen, "option bytes4=%s: want the 4bpp region's bytes, a multiple of 64", val);
		return -1;
	}
	return gba_bg_tiles_split_init_rom(st, bytes4, rom);
}

static int m_map_alloc(void *m, unsigned n) { return gba_bg_tiles_split_map_alloc(m, n); }
static int m_map_free(void *m, unsigned sb, unsigned n) { return gba_bg_tiles_split_map_free(m, sb, n); }
static int32_t m_release(void *m, uint32_t block) { return gba_bg_tiles_split_release(m, block); }

static int32_t m_ref_cb(void *m, uint32_t rom, unsigned bpp, unsigned cb, int affine, int *loaded)
{
	return gba_bg_tiles_split_ref_cb(m, rom, bpp, cb, affine, loaded);
}

static const vs_gba_bg_calls calls = {
	.map_alloc = m_map_alloc, .map_free = m_map_free, .ref_cb = m_ref_cb, .release = m_release,
	.cb_any = GBA_BG_SPLIT_CB_ANY
};

static int bgs_alloc(void *st, const vs_request *rq, vs_placement *out) { return vs_gba_bg_alloc(&calls, st, rq, out); }
static int bgs_free(void *st, const vs_placement *pl) { return vs_gba_bg_free(&calls, st, pl); }

static void bgs_reset(void *st)
{
	gba_bg_tiles_split *m = st;

	gba_bg_tiles_split_init_rom(m, m->bytes4, m->rom_tiles);
}

static uint64_t bgs_ram(void *st)
{
	return gba_bg_tiles_split_ram_bytes(st);
}

static int bgs_is_free(void *st, unsigned block)
{
	const gba_bg_tiles_split *m = st;

	if (block < GBA_BG_SPLIT_TILE_BYTES / VS_GBA_TILE_BYTES)
		return gba_bg_tiles_split_block_free(m, block);
	block = block / (VS_GBA_SB_BYTES / VS_GBA_TILE_BYTES) - GBA_BG_SPLIT_MAP_FIRST;
	return !(m->maps & (1u << block));
}

static void bgs_walk(void *st, vs_extent_fn fn, void *ud)
{
	vs_gba_walk_tiles(st, bgs_is_free, 0x10000u / VS_GBA_TILE_BYTES, fn, ud);
}

static void bgs_dump(void *st, vs_print_fn print, void *ud)
{
	const gba_bg_tiles_split *m = st;
	char line[192];

	snprintf(line, sizeof line, "4bpp region 0x0000-0x%04x: %u of %u tiles loaded (2 reserved)\n"
		"8bpp region 0x%04x-0xdfff: %u of %u tiles loaded\nmaps 0x%x\n",
		(unsigned)m->bytes4 - 1u, (unsigned)m->r4.used, (unsigned)m->r4.tiles,
		(unsigned)m->bytes4, (unsigned)m->r8.used, (unsigned)m->r8.tiles, (unsigned)m->maps);
	print(ud, line);
}

/* The all-transparent tile 0, loaded once and kept: the two reserved 4bpp
 * tiles at the start of the 4bpp region (64 bytes, so 8bpp layers share it). */
static void bgs_held(void *st, vs_extent_fn fn, void *ud)
{
	(void)st;
	fn(ud, 0, 64u);
}

const vs_strategy vs_strat_gba_bg_tiles_split = {
	.abi = VS_STRATEGY_ABI,
	.name = "gba-bg-tiles-split",
	.summary = "simpler scheme from 'Gameboy Advance Resource Management': separate 4bpp and 8bpp tile managers "
		"(bytes4=, rom=)",
	.arenas = VS_ARENA_BIT(VS_ARENA_GBA_BG),
	.flags = VS_STRAT_RELOCATABLE | VS_STRAT_NO_MEM | VS_STRAT_HELD_FIXED,
	.state_size = sizeof(gba_bg_tiles_split),
	.init = bgs_init,
	.alloc = bgs_alloc,
	.free = bgs_free,
	.reset = bgs_reset,
	.walk_free = bgs_walk,
	.dump = bgs_dump,
	.held = bgs_held,
	.ram = bgs_ram
};
