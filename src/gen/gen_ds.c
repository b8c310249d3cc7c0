/* SPDX-License-Identifier: Zlib */
/* gen_ds.c - DS texture and palette workloads (see gen_ds.h). */
#include <stdio.h>
#include <stdlib.h>

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

/* A texture of random width and height. The height is drawn first: these
 * generators once drew both inside one argument list, whose order C leaves
 * open, and GCC (which made the bundled traces) took the height first. */
static uint64_t tex_wh(gen *g, unsigned lo_shift, unsigned n, const char *fmt, const char *tag)
{
	unsigned h = side(&g->r, lo_shift, n), w = side(&g->r, lo_shift, n);

	return tex(g, w, h, fmt, tag);
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
				tex_wh(&g, 4, 2, "4x4", "terrain");
			pal(&g, 256, "terrain");
			/* characters: 16- and 256-colour, 32..128 a side */
			for (n = 4 + gen_rng_below(&g.r, 6), i = 0; i < n; i++) {
				int c256 = gen_rng_below(&g.r, 3) == 0;
				tex_wh(&g, 2, 3, c256 ? "256c" : "16c", "chars");
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
			fx[nfx++] = tex_wh(&g, 2, 2, "a3i5", "fx");
		if (nfx && gen_rng_below(&g.r, 24) == 0) {
			i = gen_rng_below(&g.r, nfx);
			drop(&g, fx[i]);
			fx[i] = fx[--nfx];
		}
		fputs("frame\n", out);
	}
	return vs_gen_flushed(out, err, errlen);
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
				live[n] = tex_wh(&g, 2, 4, f, "chunk");
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
	return vs_gen_flushed(out, err, errlen);
}

/* ---- ds-3d: a videoGL game ---------------------------------------------- */

enum { F_A3I5, F_4C, F_16C, F_256C, F_4X4, F_A5I3, F_DIRECT };
static const char *const fmt_name[] = { "a3i5", "4c", "16c", "256c", "4x4", "a5i3", "direct" };
static const uint8_t fmt_bpp[] = { 8, 2, 4, 8, 2, 8, 16 };
static const uint16_t fmt_colours[] = { 32, 4, 16, 256, 0, 8, 0 }; /* 4x4: the set's own */

/* What a texture is there for: which frees take it. */
enum { C_KEEP, C_LEVEL, C_MODEL, C_FX, C_ANIM };

#define T3_MAX 160
#define P3_MAX 96

typedef struct tex3 {
	uint64_t id;
	uint32_t bytes, until, group; /* until: an effect's last frame, an animation's next upload;
	                               * group: a model's textures */
	uint16_t w, h;
	uint8_t fmt, cls, period;     /* period: an animated texture's frames between uploads */
	int16_t pal;                  /* its palette's row, -1 none */
} tex3;

/* A palette and the textures using it: the game's own count (videoGL's
 * glAssignColorTable shares one; the last user frees it). */
typedef struct pal3 {
	uint64_t id;
	uint16_t users, colours;
	uint32_t key; /* what shares it: 0 its one texture */
} pal3;

typedef struct g3 {
	FILE *out;
	gen_rng r;
	uint64_t id;
	uint32_t frame, avail, cap, used, used4x4, groups, keys;
	tex3 t[T3_MAX];
	pal3 p[P3_MAX];
	uint32_t nt, np;
	uint32_t fx_key[2], sky_key;
} g3;

static uint32_t tex_bytes(unsigned w, unsigned h, unsigned fmt)
{
	/* Tex4x4: 2 bits a texel, and a 16-bit index per 4x4 block in slot 1 */
	return fmt == F_4X4 ? w * h / 4u + w * h / 8u : w * h * fmt_bpp[fmt] / 8u;
}

/* A palette of that many colours for key (0: a new one, not shared). */
static int16_t pal_get(g3 *g, uint32_t key, unsigned colours, const char *tag)
{
	uint32_t i;

	for (i = 0; key && i < g->np; i++)
		if (g->p[i].key == key && g->p[i].colours == colours) {
			g->p[i].users++;
			return (int16_t)i;
		}
	if (g->np == P3_MAX)
		return -1;
	g->p[g->np] = (pal3){ ++g->id, 1, (uint16_t)colours, key };
	fprintf(g->out, "alloc %llu pal pltt %u tag=%s\n", (unsigned long long)g->id, colours, tag);
	return (int16_t)g->np++;
}

static void pal_put(g3 *g, int16_t i)
{
	uint32_t k;

	if (i < 0 || --g->p[i].users)
		return;
	fprintf(g->out, "free %llu\n", (unsigned long long)g->p[i].id);
	/* the last row moves into i: its textures follow */
	g->p[i] = g->p[--g->np];
	for (k = 0; k < g->nt; k++)
		if (g->t[k].pal == (int16_t)g->np)
			g->t[k].pal = i;
}

/* Uploads a texture (and its palette, shared by key) if it fits within
 * room bytes: 1 done, 0 not. anim: the first upload is a `realloc` of a
 * name not yet holding a texture (videoGL's glTexImage2D either way). */
static int tex_load(g3 *g, unsigned w, unsigned h, unsigned fmt, int cls, uint32_t key, unsigned colours,
	uint32_t room, const char *tag)
{
	uint32_t b = tex_bytes(w, h, fmt);
	tex3 *t;

	if (g->nt == T3_MAX || g->np == P3_MAX || g->used + b > room ||
	    (fmt == F_4X4 && g->used4x4 + b > 0x18000u))
		return 0;
	t = &g->t[g->nt++];
	*t = (tex3){ .id = ++g->id, .bytes = b, .w = (uint16_t)w, .h = (uint16_t)h, .fmt = (uint8_t)fmt,
		.cls = (uint8_t)cls, .pal = -1, .until = 0xFFFFFFFFu };
	g->used += b;
	if (fmt == F_4X4)
		g->used4x4 += b;
	fprintf(g->out, "%s %llu tex tex %ux%u %s tag=%s\n", cls == C_ANIM ? "realloc" : "alloc",
		(unsigned long long)t->id, w, h, fmt_name[fmt], tag);
	if (fmt != F_DIRECT)
		t->pal = pal_get(g, key, fmt == F_4X4 ? colours : fmt_colours[fmt], tag);
	return 1;
}

static void tex_drop(g3 *g, uint32_t i)
{
	tex3 *t = &g->t[i];

	fprintf(g->out, "free %llu\n", (unsigned long long)t->id);
	g->used -= t->bytes;
	if (t->fmt == F_4X4)
		g->used4x4 -= t->bytes;
	pal_put(g, t->pal);
	*t = g->t[--g->nt];
}

/* Frees every texture of class cls (all of them for -1). */
static void drop_class(g3 *g, int cls)
{
	uint32_t i = 0;

	while (i < g->nt)
		if (cls < 0 || g->t[i].cls == cls)
			tex_drop(g, i);
		else
			i++;
}

static unsigned side3(gen_rng *r, unsigned lo_shift, unsigned n)
{
	return 8u << (lo_shift + gen_rng_below(r, n));
}

/* A model: one to three 16- or 256-colour textures sharing a palette. */
static int load_model(g3 *g, int cls, uint32_t room)
{
	unsigned fmt = gen_rng_chance(&g->r, 1, 3) ? F_256C : F_16C, n = gen_rng_between(&g->r, 1, 3), i, done = 0;
	uint32_t key = ++g->keys, group = ++g->groups;

	for (i = 0; i < n; i++) {
		unsigned w = side3(&g->r, 2, fmt == F_256C ? 3 : 4), h = side3(&g->r, 2, fmt == F_256C ? 3 : 4);
		if (tex_load(g, w, h, fmt, cls, key, 0, room, "model")) {
			g->t[g->nt - 1].group = group;
			done++;
		}
	}
	return done > 0;
}

static void load_keep(g3 *g)
{
	uint32_t player = ++g->keys;

	(void)tex_load(g, 256, 32, F_4C, C_KEEP, 0, 0, g->avail, "font");
	(void)tex_load(g, 64, 64, F_DIRECT, C_KEEP, 0, 0, g->avail, "hud");
	(void)tex_load(g, 128, 32, F_16C, C_KEEP, 0, 0, g->avail, "hud");
	(void)tex_load(g, 64, 64, F_256C, C_KEEP, player, 0, g->avail, "player");
	(void)tex_load(g, 32, 32, F_256C, C_KEEP, player, 0, g->avail, "player");
}

/* A level's set: 4x4 terrain sharing one or two palettes, a sky, animated
 * textures, then models until the level's share of the budget is taken. */
static void load_level(g3 *g)
{
	uint32_t target = g->avail / 100u * gen_rng_between(&g->r, 65, 82), i, n, key[2];
	unsigned colours = gen_rng_chance(&g->r, 1, 2) ? 128u : 256u;

	key[0] = ++g->keys;
	key[1] = ++g->keys;
	for (n = gen_rng_between(&g->r, 3, 6), i = 0; i < n; i++) {
		unsigned w = side3(&g->r, 4, 2), h = side3(&g->r, 4, 2);
		(void)tex_load(g, w, h, F_4X4, C_LEVEL, key[i & 1], colours, target, "terrain");
	}
	g->sky_key = ++g->keys;
	if (gen_rng_chance(&g->r, 1, 2))
		(void)tex_load(g, 256, 128, F_16C, C_LEVEL, g->sky_key, 0, target, "sky");
	else
		(void)tex_load(g, 128, 128, F_DIRECT, C_LEVEL, 0, 0, target, "sky");
	/* water, lava, a screen: re-uploaded every few frames, same size and format */
	for (n = gen_rng_between(&g->r, 1, 3), i = 0; i < n; i++) {
		static const struct { uint8_t w, h, fmt; } anim[] = { { 64, 64, F_16C }, { 32, 32, F_256C },
			{ 64, 32, F_DIRECT }, { 128, 128, F_4C } };
		unsigned k = gen_rng_below(&g->r, 4);
		if (tex_load(g, anim[k].w, anim[k].h, anim[k].fmt, C_ANIM, 0, 0, target, "anim")) {
			g->t[g->nt - 1].period = (uint8_t)gen_rng_between(&g->r, 4, 12);
			g->t[g->nt - 1].until = g->frame + g->t[g->nt - 1].period;
		}
	}
	for (i = 0; i < 40 && g->used < target; i++)
		(void)load_model(g, C_LEVEL, target);
}

/* Level change: the level's textures go (with the palettes only they
 * used); with remap, the second level runs without bank D. */
static void next_level(g3 *g, uint32_t level, int remap)
{
	drop_class(g, C_LEVEL);
	drop_class(g, C_MODEL);
	drop_class(g, C_FX);
	drop_class(g, C_ANIM);
	if (remap && (level == 1 || level == 2)) {
		/* bank D changes hands: whatever is there must go first */
		drop_class(g, -1);
		if (level == 1)
			fputs("lock D\nvramcnt D 0x80\n", g->out); /* LCDC: a capture buffer, say */
		else
			fputs("vramcnt D 0x9b\nunlock D\n", g->out); /* texture slot 3 again */
		g->avail = level == 1 ? 0x60000u : 0x80000u;
		g->cap = g->avail / 100u * 90u;
		load_keep(g);
	}
	load_level(g);
}

/* While a level runs: effects come and go (sharing their palette), models
 * stream in and out, animated textures are uploaded again. */
static void level_frame(g3 *g)
{
	uint32_t i;

	for (i = 0; i < g->nt; i++) {
		tex3 *t = &g->t[i];
		if (t->cls == C_ANIM && g->frame >= t->until) {
			fprintf(g->out, "realloc %llu tex tex %ux%u %s tag=anim\n", (unsigned long long)t->id, t->w, t->h,
				fmt_name[t->fmt]);
			t->until = g->frame + t->period;
		}
	}
	i = 0;
	while (i < g->nt)
		if (g->t[i].cls == C_FX && g->t[i].until <= g->frame)
			tex_drop(g, i);
		else
			i++;
	if (gen_rng_chance(&g->r, 1, 20)) {
		int a5 = gen_rng_chance(&g->r, 1, 3);
		unsigned w = side3(&g->r, 2, 2), h = side3(&g->r, 2, 2);
		if (!g->fx_key[a5])
			g->fx_key[a5] = ++g->keys;
		if (tex_load(g, w, h, a5 ? F_A5I3 : F_A3I5, C_FX, g->fx_key[a5], 0, g->cap, "fx"))
			g->t[g->nt - 1].until = g->frame + gen_rng_between(&g->r, 20, 240);
	}
	if (gen_rng_chance(&g->r, 1, 200)) {
		/* a model streams out, another in */
		uint32_t group = 0;
		for (i = 0; i < g->nt; i++)
			if (g->t[i].cls == C_LEVEL && g->t[i].group && gen_rng_chance(&g->r, 1, 3)) {
				group = g->t[i].group;
				break;
			}
		i = 0;
		while (group && i < g->nt)
			if (g->t[i].group == group)
				tex_drop(g, i);
			else
				i++;
		(void)load_model(g, C_LEVEL, g->cap);
	}
}

int vs_gen_ds_3d_with(FILE *out, const vs_gen_opts *o, const vs_gen_ds_opts *d, char *err, size_t errlen)
{
	uint32_t frames = o->frames ? o->frames : 2400; /* the registry's default */
	uint32_t level = 0, level_end;
	g3 *g = calloc(1, sizeof *g);

	if (!g) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	g->out = out;
	g->r.s = o->seed;
	g->avail = 0x80000u;
	g->cap = g->avail / 100u * 90u;
	header(out);
	load_keep(g);
	load_level(g);
	level_end = gen_rng_between(&g->r, 500, 900);
	for (g->frame = 0; g->frame < frames; g->frame++) {
		if (g->frame == level_end) {
			next_level(g, ++level, d->remap);
			level_end = g->frame + gen_rng_between(&g->r, 500, 900);
		}
		level_frame(g);
		fputs("frame\n", out);
	}
	free(g);
	return vs_gen_flushed(out, err, errlen);
}

int vs_gen_ds_3d(FILE *out, const vs_gen_opts *o, char *err, size_t errlen)
{
	vs_gen_ds_opts d;

	vs_gen_ds_opts_default(&d);
	return vs_gen_ds_3d_with(out, o, &d, err, errlen);
}
