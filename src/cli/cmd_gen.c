/* SPDX-License-Identifier: Zlib */
/* cmd_gen.c - `vramsim gen`: write a generated GBA workload trace. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "vramsim/gen.h"

int vs_cmd_gen(int argc, char **argv);

static void usage(FILE *fp)
{
	size_t i;

	fprintf(fp, "usage: vramsim gen GENERATOR [--seed N] [--frames N] [-o FILE]\n"
		"                  [--map LAYER=FILE ...] [--map-width N]\n\n"
		"Writes a workload trace (format v1, canonical form) to FILE or standard\n"
		"output. The same generator, seed and frame count give the same trace.\n\n"
		"generators:\n");
	for (i = 0; i < vs_generator_count(); i++)
		fprintf(fp, "  %-14s %s (default %u frames)\n", vs_generator_at(i)->name, vs_generator_at(i)->summary,
			(unsigned)vs_generator_at(i)->default_frames);
	fprintf(fp, "\n"
		"  side-scroller  BG arena, mode 0. Four text BG layers (4bpp, 4bpp, 8bpp, 4bpp;\n"
		"                 parallax 1, 1, 1/2, 1/4) follow a camera that runs 0-4 px a\n"
		"                 frame, dashes at 8, jumps and falls, in any direction. Each\n"
		"                 non-zero map cell entering the 240x160 screen is one\n"
		"                 `alloc ID tile ROM BPP` (a reference; up to ~500 checks a frame\n"
		"                 at full speed), each cell leaving is one `free ID`. Zero cells\n"
		"                 are the transparent tile: no call, as the article 'Gameboy\n"
		"                 Advance Resource Management' says. Four 2 KiB text maps are\n"
		"                 allocated first. Maps are generated (1024x64 cells of 2x2\n"
		"                 metatiles, ROM tiles 1-3600) unless --map gives a layer's own.\n"
		"  sprite-churn   OBJ arena, mode 0. One minute of a shooter: player (swaps\n"
		"                 form every 600 frames), UI (digits, bar, icon; dialog boxes),\n"
		"                 up to 44 enemies (16x16 to 64x64, 15%% 8bpp), 48 bullets and\n"
		"                 64 particles (bursts when enemies die; 30%% 8bpp), within 128\n"
		"                 OAM entries and a 30 KiB budget; now and then the enemies leave\n"
		"                 and a 7 KiB boss comes in once the stage has made room for it.\n"
		"  level-change   OBJ arena, mode 0. Levels of 600-1200 frames, each with its\n"
		"                 resident sprite graphics (40-60%% of OBJ VRAM) and a shooter\n"
		"                 churn within a per-level budget of 85-95%% of the area; at a\n"
		"                 level change the whole set and every transient sprite is freed\n"
		"                 and the next set loaded in the same frame, while the player and\n"
		"                 UI stay.\n"
		"  boss-fight     OBJ arena, mode 0. Shooter stages of 10-20 s, each ending in\n"
		"                 a fight with one of three 10-13 KiB bosses (dragon, tank,\n"
		"                 golem) built of 64x64 and smaller parts: minions, volleys of\n"
		"                 fireballs and 64x32 beams, limbs breaking off into debris, a\n"
		"                 64x64 8bpp enraged head halfway, every part gone in an explosion\n"
		"                 at the end. 30 KiB budget.\n"
		"  bitmap-racer   OBJ arena in bitmap mode 4: sprites get tiles 512-1023 (16 KiB).\n"
		"                 HUD, the player's 64x32 car, seven opponents whose graphics\n"
		"                 change with distance (16x16 to 64x64, 30%% 8bpp: up to 128\n"
		"                 tiles), roadside props passing in 0.5-1.5 s, thrown items,\n"
		"                 blasts and dust. 15 KiB budget.\n\n"
		"options:\n"
		"  --seed N          random seed (default 1)\n"
		"  --frames N        frames to generate (default: the generator's)\n"
		"  -o FILE           write to FILE instead of standard output\n"
		"  --map L=FILE      side-scroller: layer L (0-3) reads its map from FILE: CSV if\n"
		"                    the name ends in .csv (one row a line), else raw little-endian\n"
		"                    u16 cells; values are ROM tile indices (0-4095, 0 transparent);\n"
		"                    at least 32x32 cells. Give 8bpp layer 2 indices of its own.\n"
		"  --map-width N     cells per row of raw maps\n");
}

static int number(const char *s, unsigned long long max, unsigned long long *out)
{
	char *end;

	errno = 0;
	*out = strtoull(s, &end, 0);
	return *s && !*end && !errno && *out <= max && s[0] != '-' ? 0 : -1;
}

int vs_cmd_gen(int argc, char **argv)
{
	const vs_generator *g = NULL;
	vs_gen_opts o;
	const char *out = NULL;
	char err[1024], tmp[1100];
	unsigned long long v;
	FILE *fp;
	int i, rc;

	vs_gen_opts_default(&o);
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage(stdout);
			return VS_EXIT_OK;
		}
		if ((strcmp(a, "--seed") == 0 || strcmp(a, "--frames") == 0 || strcmp(a, "-o") == 0 ||
			strcmp(a, "--map") == 0 || strcmp(a, "--map-width") == 0) && i + 1 >= argc)
			return vs_cli_usage_error("gen", "%s needs a value", a);
		if (strcmp(a, "--seed") == 0) {
			if (number(argv[++i], UINT64_MAX, &v))
				return vs_cli_usage_error("gen", "--seed %s: expected a number", argv[i]);
			o.seed = v;
		} else if (strcmp(a, "--frames") == 0) {
			if (number(argv[++i], 10000000, &v) || v == 0)
				return vs_cli_usage_error("gen", "--frames %s: expected 1 to 10000000", argv[i]);
			o.frames = (uint32_t)v;
		} else if (strcmp(a, "-o") == 0) {
			out = argv[++i];
		} else if (strcmp(a, "--map") == 0) {
			const char *m = argv[++i];
			if (m[0] < '0' || m[0] > '3' || m[1] != '=' || !m[2])
				return vs_cli_usage_error("gen", "--map %s: expected LAYER=FILE with LAYER 0-3", m);
			o.maps[m[0] - '0'] = m + 2;
		} else if (strcmp(a, "--map-width") == 0) {
			if (number(argv[++i], 65535, &v) || v == 0)
				return vs_cli_usage_error("gen", "--map-width %s: expected 1 to 65535", argv[i]);
			o.map_width = (uint32_t)v;
		} else if (a[0] == '-' && a[1]) {
			return vs_cli_usage_error("gen", "unknown option %s", a);
		} else if (g) {
			return vs_cli_usage_error("gen", "one generator at a time (%s and %s)", g->name, a);
		} else if (!(g = vs_generator_find(a))) {
			return vs_cli_usage_error("gen", "unknown generator '%s'", a);
		}
	}
	if (!g)
		return vs_cli_usage_error("gen", "name a generator");
	if (g->run != vs_gen_side_scroller)
		for (i = 0; i < VS_GEN_LAYERS; i++)
			if (o.maps[i])
				return vs_cli_usage_error("gen", "--map is for side-scroller only");
	fp = out ? vs_cli_out_open(out, tmp, sizeof tmp) : stdout;
	if (!fp)
		return VS_EXIT_USAGE;
	rc = g->run(fp, &o, err, sizeof err);
	if (rc)
		fprintf(stderr, "vramsim gen: %s\n", err);
	if (out && vs_cli_out_close(fp, out, tmp, rc == 0))
		rc = -1;
	return rc ? VS_EXIT_USAGE : VS_EXIT_OK;
}
