/* SPDX-License-Identifier: Zlib */
/* strat_gba_bg_tiles.c - strategy adapter for the BG tile manager of
 * 'Gameboy Advance Resource Management', with the shared 4/8bpp scheme
 * (gba-bg-tiles).
 *
 * Trace semantics: `alloc ID tile ROM BPP` is one reference. A tile already
 * loaded comes back at the same offset with placement.shared = 1 (a hit);
 * otherwise it is loaded (shared = 0). Every `free` is one release; the
 * block is free again when the last reference goes. ROM tile 0 is the
 * all-transparent tile reserved at offset 0: it is answered VS_OK, shared,
 * at offset 0, key 0, and its release is a no-op; held reports its 64
 * bytes, so the replay counts them as management and such hits take
 * nothing. `alloc ID map text|affine WxH` takes 2 KiB screenblocks among
 * the four map screenblocks 28-31 (0xE000-0xFFFF).
 *
 * A tile with cb= (and affine) goes to gba_bg_tiles_ref_cb, so it lands
 * where its layer can name it: in reach of its charblock, a second copy
 * when the loaded one is out of reach, a failure when nothing in reach is
 * free. Without cb= the article's manager runs unchanged. */
#include "vramsim/alloc/gba_bg_tiles.h"
#include "strategies/strategies.h"
#include "strat_gba.h"
#include "base/options.h"

/* ---- gba-bg-tiles: the shared scheme --------------------------------- */

static int bgt_init(void *st, const vs_arena_decl *a, const char *options,
	uint8_t *mem, char *err, size_t errlen)
{
	static const char *const known[] = { "rom", NULL };
	uint32_t rom = GBA_BG_TILES_ROM_DEFAULT;

	(void)mem;
	if (vs_option_check(options, known, err, errlen) || vs_gba_bg_mode_ok(a, err, errlen) ||
		vs_option_u32(options, "rom", 1, GBA_BG_TILES_ROM_MAX, &rom, err, errlen) < 0)
		return -1;
	return gba_bg_tiles_init_rom(st, rom);
}

static int m_map_alloc(void *m, unsigned n) { return gba_bg_tiles_map_alloc(m, n); }
static int m_map_free(void *m, unsigned sb, unsigned n) { return gba_bg_tiles_map_free(m, sb, n); }
static int32_t m_release(void *m, uint32_t block) { return gba_bg_tiles_release(m, block); }

static int32_t m_ref_cb(void *m, uint32_t rom, unsigned bpp, unsigned cb, int affine, int *loaded)
{
	return gba_bg_tiles_ref_cb(m, rom, bpp, cb, affine, loaded);
}

static const vs_gba_bg_calls calls = {
	.map_alloc = m_map_alloc, .map_free = m_map_free, .ref_cb = m_ref_cb, .release = m_release,
	.cb_any = GBA_BG_TILES_CB_ANY
};

static int bgt_alloc(void *st, const vs_request *rq, vs_placement *out) { return vs_gba_bg_alloc(&calls, st, rq, out); }
static int bgt_free(void *st, const vs_placement *pl) { return vs_gba_bg_free(&calls, st, pl); }

static void bgt_reset(void *st)
{
	gba_bg_tiles *m = st;

	gba_bg_tiles_init_rom(m, m->rom_tiles);
}

static uint64_t bgt_ram(void *st)
{
	return gba_bg_tiles_ram_bytes(st);
}

static int bgt_is_free(void *st, unsigned block)
{
	const gba_bg_tiles *m = st;

	if (block < GBA_BG_TILES_BLOCKS)
		return gba_bg_tiles_block_free(m, block);
	block = block / (VS_GBA_SB_BYTES / VS_GBA_TILE_BYTES) - GBA_BG_TILES_MAP_FIRST;
	return !(m->maps & (1u << block));
}

static void bgt_walk(void *st, vs_extent_fn fn, void *ud)
{
	vs_gba_walk_tiles(st, bgt_is_free, 0x10000u / VS_GBA_TILE_BYTES, fn, ud);
}

static void bgt_dump(void *st, vs_print_fn print, void *ud)
{
	const gba_bg_tiles *m = st;
	char line[96];
	unsigned row, col, b;

	snprintf(line, sizeof line, "list-a %u pairs, list-b %u pairs, list-c %u blocks, list-d %u blocks, maps 0x%x\n",
		(unsigned)m->len[GBA_BG_LIST_A], (unsigned)m->len[GBA_BG_LIST_B],
		(unsigned)m->len[GBA_BG_LIST_C], (unsigned)m->len[GBA_BG_LIST_D], (unsigned)m->maps);
	print(ud, line);
	/* 64 blocks (2 KiB) a row: . free, 4 4bpp tile, 8 8bpp tile, 0 transparent. */
	for (row = 0; row < GBA_BG_TILES_BLOCKS / 64u; row++) {
		int n = snprintf(line, sizeof line, "%04x ", row * 64u * VS_GBA_TILE_BYTES);
		for (col = 0; col < 64; col++) {
			b = row * 64u + col;
			line[n + col] = b < 2 ? '0' : m->ram2rom[b] == GBA_BG_TILES_UNUSED ? '.'
				: (m->is8[(b & ~1u) >> 4] >> ((b & ~1u) & 15u)) & 1u ? '8' : '4';
		}
		line[n + 64] = '\n';
		line[n + 65] = '\0';
		print(ud, line);
	}
}

/* The all-transparent tile 0, loaded once and kept: blocks 0-1, the pair
 * an 8bpp tile 0 needs (a 4bpp tile 0 reads block 0 of it). */
static void bgt_held(void *st, vs_extent_fn fn, void *ud)
{
	(void)st;
	fn(ud, 0, 2u * GBA_BG_TILES_BLOCK_BYTES);
}

const vs_strategy vs_strat_gba_bg_tiles = {
	.abi = VS_STRATEGY_ABI,
	.name = "gba-bg-tiles",
	.summary = "BG tile manager from 'Gameboy Advance Resource Management': ROM<->RAM maps, refcounts as free "
		"lists, O(1)",
	.arenas = VS_ARENA_BIT(VS_ARENA_GBA_BG),
	.flags = VS_STRAT_RELOCATABLE | VS_STRAT_NO_MEM | VS_STRAT_HELD_FIXED,
	.state_size = sizeof(gba_bg_tiles),
	.init = bgt_init,
	.alloc = bgt_alloc,
	.free = bgt_free,
	.reset = bgt_reset,
	.walk_free = bgt_walk,
	.dump = bgt_dump,
	.held = bgt_held,
	.ram = bgt_ram
};
