/* SPDX-License-Identifier: Zlib */
/* gen_ds.c - DS texture and palette workloads (see gen_ds.h). */
#include <stdio.h>

#include "gen/gen_ds.h"
#include "gen_rng.h"

typedef struct gen {
	FILE *out;
	gen_rng r;
	uint64_t id;
} gen;

static uint64_t tex(gen *g, unsigned w, unsigned h, const char *fmt, const char *tag)
{
	fprintf(g->out, "alloc %llu tex tex %ux%u %s tag=%s\n", (unsigned long long)++g->id, w, h, fmt, tag);
	return g->id;
}

static uint64_t pal(gen *g, unsigned colours, const char *tag)
{
	fprintf(g->out, "alloc %llu pal pltt %u tag=%s\n", (unsigned long long)++g->id, colours, tag);
	return g->id;
}

static void drop(gen *g, uint64_t id)
{
	fprintf(g->out, "free %llu\n", (unsigned long long)id);
}

static void header(FILE *out)
{
	fputs("vramsim-trace 1\narena tex ds-tex\narena pal ds-pltt\n", out);
}

static unsigned side(gen_rng *r, unsigned lo_shift, unsigned n)
{
	return 8u << (lo_shift + gen_rng_below(r, n));
}

int vs_gen_ds_levels(FILE *out, const vs_gen_opts *o, char *err, size_t errlen)
{
	gen g = { out, { o->seed }, 0 };
	uint64_t fx[32];
	uint32_t frame, nfx = 0, i, frames = o->frames ? o->frames : 2400; /* the registry's default */

	(void)err;
	(void)errlen;
	header(out);
	/* the base set stays for the whole game */
	tex(&g, 64, 64, "direct", "ui");
	tex(&g, 256, 64, "4c", "font");
	tex(&g, 128, 32, "16c", "ui");
	pal(&g, 4, "font");
	pal(&g, 16, "ui");
	fputs("save base\n", out);
	for (frame = 0; frame < frames; frame++) {
		if (frame % 600 == 0) {
			unsigned n;
			if (frame) {
				fputs("restore base\n", out);
				nfx = 0;
			}
			/* terrain: 4x4 compressed, 128..256 a side */
			for (n = 3 + gen_rng_below(&g.r, 4), i = 0; i < n; i++)
				tex(&g, side(&g.r, 4, 2), side(&g.r, 4, 2), "4x4", "terrain");
			pal(&g, 256, "terrain");
			/* characters: 16- and 256-colour, 32..128 a side */
			for (n = 4 + gen_rng_below(&g.r, 6), i = 0; i < n; i++) {
				int c256 = gen_rng_below(&g.r, 3) == 0;
				tex(&g, side(&g.r, 2, 3), side(&g.r, 2, 3), c256 ? "256c" : "16c", "chars");
				pal(&g, c256 ? 256 : 16, "chars");
			}
			/* the level's effect palette and 4-colour decals */
			pal(&g, 32, "fx");
			for (n = gen_rng_below(&g.r, 3), i = 0; i < n; i++) {
				tex(&g, 32, 32, "4c", "decal");
				pal(&g, 4, "decal");
			}
		}
		/* effects come and go while the level runs */
		if (gen_rng_below(&g.r, 20) == 0 && nfx < 32)
			fx[nfx++] = tex(&g, side(&g.r, 2, 2), side(&g.r, 2, 2), "a3i5", "fx");
		if (nfx && gen_rng_below(&g.r, 24) == 0) {
			i = gen_rng_below(&g.r, nfx);
			drop(&g, fx[i]);
			fx[i] = fx[--nfx];
		}
		fputs("frame\n", out);
	}
	return ferror(out) ? -1 : 0;
}

int vs_gen_ds_stream(FILE *out, const vs_gen_opts *o, char *err, size_t errlen)
{
	static const char *const fmts[] = { "4x4", "4x4", "16c", "16c", "256c", "a3i5", "direct", "4c" };
	gen g = { out, { o->seed }, 0 };
	uint64_t live[256];
	uint8_t is_pal[256];
	uint32_t frame, n = 0, i, frames = o->frames ? o->frames : 2000; /* the registry's default */

	(void)err;
	(void)errlen;
	header(out);
	for (frame = 0; frame < frames; frame++) {
		/* a chunk streams in every few frames; old chunks stream out */
		if (gen_rng_below(&g.r, 4) == 0) {
			uint32_t k = 1 + gen_rng_below(&g.r, 3);
			for (i = 0; i < k && n < 254; i++) {
				const char *f = fmts[gen_rng_below(&g.r, 8)];
				live[n] = tex(&g, side(&g.r, 2, 4), side(&g.r, 2, 4), f, "chunk");
				is_pal[n++] = 0;
				if (gen_rng_below(&g.r, 2)) {
					live[n] = pal(&g, f[0] == '4' && f[1] == 'c' ? 4 : gen_rng_below(&g.r, 4) ? 16 : 256, "chunk");
					is_pal[n++] = 1;
				}
			}
		}
		while (n > 48 || (n && gen_rng_below(&g.r, 6) == 0)) {
			i = gen_rng_below(&g.r, n);
			drop(&g, live[i]);
			live[i] = live[n - 1];
			is_pal[i] = is_pal[n - 1];
			n--;
		}
		fputs("frame\n", out);
	}
	return ferror(out) ? -1 : 0;
}
