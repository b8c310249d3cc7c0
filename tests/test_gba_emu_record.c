/* SPDX-License-Identifier: Zlib */
/* test_gba_emu_record.c - recording a running game, and the host's VRAM
 * against the emulated GBA's.
 *
 * The demo ROM (tools/demo-rom) scrolls two BGs through a world whose tiles
 * it references through the BG tile manager of 'Gameboy Advance Resource
 * Management' (tile graphics in the trace as data=), with sprites placed
 * by that article's OBJ allocation map, and prints its trace through record.h. At several points the trace
 * recorded so far is replayed on the host with the same strategies: no
 * divergence (every at= the game printed is where the host placed it), no
 * failed check, and every live allocation's bytes in the host's model
 * equal the bytes in the GBA's VRAM read through libmgba - sprites (their
 * id pattern) and BG tiles (their graphics) alike. A BG map holds tile
 * numbers the game writes, which the trace does not carry: every entry of
 * each map must name a tile the host has live at that depth. After its
 * steps the demo runs a scene in arena "moving" (gba-obj-compact through
 * sprite_handles.h) whose sprites move by DMA3, on need and at a frame: the
 * comparison holds there too, under the strategies and under `recorded`
 * (which follows the recorded moves), and each live scene sprite's OAM
 * entry names its tile. Skipped (ctest) without libmgba or the demo ROM.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "console/gba/gba_emu.h"
#include "engine/replay.h"
#include "../tools/demo-rom/demo.h"
#include "strategies/registry.h"
#include "vram/arena.h"

#define DEMO_ROM vs_test_rom("demo.gba")

typedef struct cmp_ctx {
	vs_replay *r;
	vs_gba_emu *emu;
	uint32_t live, bytes, bad, tiles, maps, entries, sprites, tile0, oam;
	uint64_t moves; /* arena moving: moves the replay carried out */
} cmp_ctx;

/* The map of a live BG map record: each BG (0-3) whose BGxCNT screen base
 * is this screenblock gives the entries' depth; every entry must name
 * block 0 (the reserved transparent tile) or a live tile of that depth. */
static void check_map(cmp_ctx *c, const vs_arena *a, const vs_live *l)
{
	uint32_t sb = l->pl.offset / 0x800u, bgn, i, found = 0;

	for (bgn = 0; bgn < 4; bgn++) {
		uint32_t cnt = vs_gba_emu_read16(c->emu, 0x04000008u + 2 * bgn), bpp = cnt & 0x80u ? 8 : 4;

		if (((cnt >> 8) & 31u) != sb)
			continue;
		found++;
		for (i = 0; i < 32u * 32u; i++) {
			uint32_t t = vs_gba_emu_read16(c->emu, a->decl.base + l->pl.offset + 2 * i) & 0x3FFu;
			uint32_t block = bpp == 8 ? 2 * t : t, owner;
			const vs_live *tl;

			c->entries++;
			if (block == 0)
				continue;
			owner = vs_arena_owner_at(a, block * 32u / a->decl.unit);
			tl = owner == VS_OWNER_NONE || owner == VS_OWNER_HW ? NULL : vs_replay_live_by_owner(c->r, owner);
			if (!tl || tl->pl.offset != block * 32u || tl->req.shape != VS_REQ_TILE ||
				tl->req.u.tile.bpp != bpp) {
				if (c->bad++ < 5)
					fprintf(stderr, "map at 0x%08x entry %u: tile %u (%ubpp), which the host has not live\n",
						(unsigned)(a->decl.base + l->pl.offset), (unsigned)i, (unsigned)t, (unsigned)bpp);
			}
		}
	}
	ck_assert_msg(found == 1, "map at screenblock %u: %u BGs use it", (unsigned)sb, (unsigned)found);
	c->maps++;
}

static void compare_live(void *ud, const vs_live *l)
{
	cmp_ctx *c = ud;
	const vs_arena *a = vs_replay_arena(c->r, (int)l->arena);
	uint32_t i, n = l->req.size;
	uint8_t *gba;

	c->live++;
	if (l->req.shape == VS_REQ_BGMAP) {
		check_map(c, a, l);
		return;
	}
	gba = malloc(n);
	ck_assert_ptr_nonnull(gba);
	vs_gba_emu_read(c->emu, a->decl.base + l->pl.offset, gba, n);
	for (i = 0; i < n; i++)
		if (gba[i] != a->bytes[l->pl.offset + i]) {
			if (c->bad++ < 5)
				fprintf(stderr, "id %llu byte %u at 0x%08x: GBA 0x%02x, host 0x%02x\n",
					(unsigned long long)l->id, i, (unsigned)(a->decl.base + l->pl.offset + i),
					gba[i], a->bytes[l->pl.offset + i]);
		}
	if (l->req.shape == VS_REQ_TILE) {
		c->tiles++;
		c->tile0 += l->pl.offset == 0;
	} else {
		c->sprites++;
	}
	if (l->arena == 2) {
		/* a scene sprite: its OAM entry follows it through moves */
		uint32_t e = DEMO_SCENE_OAM + (uint32_t)(l->id - DEMO_SCENE_ID);
		uint32_t attr2 = vs_gba_emu_read16(c->emu, 0x07000000u + 8u * e + 4u);

		ck_assert_uint_lt(l->id - DEMO_SCENE_ID, DEMO_SCENE_SPRITES);
		if ((attr2 & 0x3FFu) != (a->decl.base + l->pl.offset - 0x06010000u) / 32u && c->bad++ < 5)
			fprintf(stderr, "id %llu: OAM entry %u names tile %u, the sprite is at 0x%08x\n",
				(unsigned long long)l->id, (unsigned)e, (unsigned)(attr2 & 0x3FFu),
				(unsigned)(a->decl.base + l->pl.offset));
		c->oam++;
	}
	c->bytes += n;
	free(gba);
}

/* Replays the trace text recorded so far (under the trace's strategies, or
 * `recorded` for every arena) and compares with the GBA now. */
static void check_at(vs_gba_emu *e, const char *text, size_t len, int recorded, cmp_ctx *c)
{
	char err[512];
	FILE *fp = fmemopen((void *)text, len, "r");
	vs_trace_reader *rd;
	vs_replay_config cfg;
	vs_replay *r;
	int i;

	ck_assert_ptr_nonnull(fp);
	rd = vs_trace_open_stream(fp, "demo.trace", err, sizeof err);
	ck_assert_msg(rd != NULL, "%s", err);
	vs_replay_config_default(&cfg);
	cfg.check_bytes = VS_BYTES_ALWAYS; /* the host's bytes are compared with the GBA's */
	for (i = 0; recorded && i < 3; i++)
		cfg.strategy[i] = vs_strategy_find("recorded");
	r = vs_replay_new(rd, &cfg, err, sizeof err);
	ck_assert_msg(r != NULL, "%s", err);
	ck_assert_msg(vs_replay_run(r, 0) == 0, "%s", vs_replay_error(r));
	ck_assert_int_eq(vs_replay_arena_count(r), 3);
	ck_assert_str_eq(vs_replay_strategy(r, 0)->name, recorded ? "recorded" : "gba-obj-map");
	ck_assert_str_eq(vs_replay_strategy(r, 1)->name, recorded ? "recorded" : "gba-bg-tiles");
	ck_assert_str_eq(vs_replay_strategy(r, 2)->name, recorded ? "recorded" : "gba-obj-compact");
	ck_assert_uint_eq(vs_replay_diag_total(r), 0);
	ck_assert_uint_eq(vs_replay_check_total(r), 0);
	memset(c, 0, sizeof *c);
	c->r = r;
	c->emu = e;
	vs_replay_live_walk(r, compare_live, c);
	ck_assert_msg(c->bad == 0, "%u bytes or map entries of %u live allocations differ", c->bad, c->live);
	/* Both BG maps, tiles of the scene, hits on loaded tiles. */
	ck_assert_uint_eq(c->maps, 2);
	ck_assert_uint_gt(c->tiles, 30);
	ck_assert_uint_gt(vs_replay_metrics(r, 1)->shared_hits, 100);
	c->moves = vs_replay_metrics(r, 2)->moves;
	c->r = NULL;
	vs_replay_free(r);
	fclose(fp);
}

/* Runs to frame `at`, then on frame by frame until the demo is between
 * steps (its status block says not busy) and has done at least `steps`. */
static void run_to_idle(vs_gba_emu *e, uint32_t at, uint32_t steps)
{
	uint32_t n = vs_gba_emu_frames(e), guard = 0;

	if (at > n)
		vs_gba_emu_run_frames(e, at - n);
	while (vs_gba_emu_read32(e, DEMO_STATUS_ADDR) != DEMO_MAGIC ||
		vs_gba_emu_read32(e, DEMO_STATUS_ADDR + 4) != 0 || vs_gba_emu_read32(e, DEMO_STATUS_ADDR + 8) < steps) {
		ck_assert_uint_lt(guard++, 600);
		vs_gba_emu_run_frames(e, 1);
	}
}

START_TEST(test_record_and_compare_vram)
{
	/* frames; then the scene: after the slide on need (2 steps in), after
	 * the frame's slide (4 steps in) */
	static const uint32_t at[] = { 2, 200, 350, 500, 650, 0, 0, 900 };
	static const uint32_t steps[] = { 0, 0, 0, 0, 0, DEMO_STEPS + 2, DEMO_STEPS + 4, 0 };
	static const uint64_t moves[] = { 0, 0, 0, 0, 0, 3, 10, 10 };
	uint32_t oam = 0;
	char err[512], *text = NULL;
	size_t len = 0, k;
	uint32_t max_sprites = 0, tiles = 0, bytes = 0;
	vs_gba_recorder rec;
	vs_gba_emu *e;
	cmp_ctx c;
	FILE *mem;

	mem = open_memstream(&text, &len);
	ck_assert_ptr_nonnull(mem);
	memset(&rec, 0, sizeof rec);
	rec.out = mem;
	e = vs_gba_emu_open_file(DEMO_ROM, err, sizeof err);
	ck_assert_msg(e != NULL, "%s", err);
	vs_gba_recorder_attach(&rec, e);
	for (k = 0; k < sizeof at / sizeof at[0]; k++) {
		static const char head[] = "vramsim-trace 1\narena obj gba-obj strategy=gba-obj-map\n"
			"arena bg gba-bg strategy=gba-bg-tiles\n"
			"arena moving gba-obj strategy=gba-obj-compact options=budget:256\n";

		run_to_idle(e, at[k], steps[k]);
		fflush(mem);
		ck_assert_uint_gt(rec.lines, 1);
		ck_assert_int_eq(strncmp(text, head, sizeof head - 1), 0);
		check_at(e, text, len, 1, &c);
		ck_assert_msg(c.moves == moves[k], "checkpoint %u: %llu moves under recorded", (unsigned)k,
			(unsigned long long)c.moves);
		check_at(e, text, len, 0, &c);
		ck_assert_msg(c.moves == moves[k], "checkpoint %u: %llu moves", (unsigned)k, (unsigned long long)c.moves);
		oam += c.oam;
		if (c.sprites > max_sprites)
			max_sprites = c.sprites;
		tiles += c.tiles;
		bytes += c.bytes;
		ck_assert_uint_eq(c.tile0, 1); /* the transparent tile: one record, many ids */
	}
	printf("test_gba_emu_record: %u frames, %llu trace lines; %u tile and up to %u sprite comparisons, "
		"%u bytes equal\n", (unsigned)vs_gba_emu_frames(e), (unsigned long long)rec.lines,
		(unsigned)tiles, (unsigned)max_sprites, (unsigned)bytes);
	/* The script ran out and said so; sprites were live. */
	ck_assert_uint_eq(vs_gba_emu_read32(e, DEMO_STATUS_ADDR + 12), 1);
	ck_assert_ptr_nonnull(strstr(text, "# end of the script\n"));
	ck_assert_uint_gt(max_sprites, 10);
	ck_assert_uint_eq(oam, 14 + 12 + 12); /* scene sprites live at the last three checkpoints */
	ck_assert_uint_eq(rec.others, 0);
	ck_assert_int_eq(rec.write_error, 0);
	vs_gba_emu_close(e);
	fclose(mem);
	free(text);
}
END_TEST

/* The recording replays under `recorded`, the game's own placement, with no
 * integrity error: every sprite and tile where the demo put it. */
static void replays_as_recorded(const char *path)
{
	vs_replay *r = vs_test_replay_recorded(path, NULL);

	ck_assert_uint_gt(vs_replay_metrics(r, 0)->allocs, 20);
	ck_assert_uint_gt(vs_replay_metrics(r, 1)->shared_hits, 100);
	vs_replay_free(r);
}

/* vs_gba_record runs a ROM for N frames and writes its trace; a program
 * that prints none of it writes nothing and counts its other lines. */
START_TEST(test_record_file)
{
	char err[512], path[512], rom[512], cyc[512], *buf;
	vs_gba_recorder rec;
	const vs_emu_play play200 = { .frames = 200 }, play3 = { .frames = 3 };
	FILE *fp;
	long n;

	snprintf(rom, sizeof rom, "%s", DEMO_ROM);
	snprintf(path, sizeof path, "%s/tests/tmp-record.trace", VS_BINARY_DIR);
	fp = fopen(path, "wb");
	ck_assert_ptr_nonnull(fp);
	/* the demo loads 32 columns of two BGs before its first frame marker */
	ck_assert_int_eq(vs_gba_record(rom, &play200, fp, NULL, &rec, err, sizeof err), 0);
	fclose(fp);
	ck_assert_uint_ge(rec.lines, 800); /* header, maps, tiles, frame markers, sprites */
	fp = fopen(path, "rb");
	ck_assert_ptr_nonnull(fp);
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	buf = calloc(1, (size_t)n + 1);
	ck_assert_int_eq(fread(buf, 1, (size_t)n, fp), n);
	fclose(fp);
	ck_assert_int_eq(strncmp(buf, "vramsim-trace 1\n", 16), 0);
	ck_assert_ptr_nonnull(strstr(buf, "\nframe\n"));
	ck_assert_ptr_nonnull(strstr(buf, "\nalloc 1 bg map text 256x256 tag=bg0 at=0x0600"));
	ck_assert_ptr_nonnull(strstr(buf, " 8bpp tag=clouds at=0x0600"));
	ck_assert_ptr_nonnull(strstr(buf, " obj sprite "));
	free(buf);
	replays_as_recorded(path);
	remove(path);

	if (vs_gba_cycles_rom(VS_GBA_CODE_THUMB_ROM, cyc, sizeof cyc, err, sizeof err)) {
		fp = tmpfile();
		ck_assert_int_eq(vs_gba_record(cyc, &play3, fp, NULL, &rec, err, sizeof err), 0);
		ck_assert_uint_eq(rec.lines, 0);
		ck_assert_uint_eq(rec.others, 1); /* its greeting */
		fclose(fp);
	}
	ck_assert_int_eq(vs_gba_record(VS_BINARY_DIR "/missing.gba", &play3, stdout, NULL, &rec, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "missing.gba"));
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("gba_emu_record");
	TCase *tc = tcase_create("record");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_record_and_compare_vram);
	tcase_add_test(tc, test_record_file);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	vs_test_require(vs_test_rom_missing("demo.gba", NULL));
	return vs_test_main(suite());
}
