/* SPDX-License-Identifier: Zlib */
/* gen_ds_obj.c - `gen ds-sprites`: a DS action game's sprite graphics on
 * both 2D engines (see gen_ds.h).
 *
 * The game keeps its own count, in units of the 1D boundary (a sprite's
 * footprint is its size rounded up to the boundary: the hardware's tile
 * numbers step by it), of each engine's OBJ VRAM it has taken, and loads a
 * sprite only when it fits its budget: every failed allocation in a replay
 * is the allocator's, never the game's demand.
 */
#include <stdio.h>
#include <stdlib.h>

#include "gen/gen_ds.h"
#include "gen_rng.h"

enum { ENG_A, ENG_B };
enum { K_PLAYER, K_HUD, K_ENEMY, K_BOSS, K_BULLET, K_SPARK, K_UI, K_ICON, K_PRESS, K_KINDS };
static const char *const kind_tag[K_KINDS] = { "player", "hud", "enemy", "boss", "bullet", "spark", "ui", "icon",
	"press" };

#define MAX_LIVE 640
#define OAM 128u       /* OAM entries per engine */
#define STAYS 0xFFFFFFFFu
#define NO_GROUP 0u
/* OAM shares: 12 entries stay, then enemies, shots and sparks */
#define MAX_ENEMIES 64u
#define MAX_BULLETS 32u
#define MAX_SPARKS 20u

typedef struct spr {
	uint64_t id;
	uint32_t until;    /* the frame it goes at, STAYS until its group is dropped */
	uint32_t group;    /* freed together: an enemy's frames, the boss, a UI page */
	uint16_t units;
	uint8_t kind, eng, oam; /* oam: it has an OAM entry (animation frames do not) */
} spr;

/* An enemy wave: enemies of one type arriving one by one. */
typedef struct wave {
	unsigned w, h, depth, frames; /* OAM size, 4 or 8 bpp, animation frames loaded */
	uint32_t left, every, next, end;
} wave;

typedef struct sgen {
	FILE *out;
	gen_rng r;
	uint64_t id;
	uint32_t frame, boundary, groups;
	spr s[MAX_LIVE];
	uint32_t n;
	uint32_t units[2], area[2], cap[2], oam[2];
	wave waves[4];
	uint32_t next_wave, boss_at, boss_group, boss_end, boss_phase;
	uint32_t fire_until, fire_next, rate, shot_w, shot_h, shot_depth, sparks_due;
	uint32_t page_group, page_end;
} sgen;

static uint32_t units_of(const sgen *g, unsigned w, unsigned h, unsigned depth)
{
	uint32_t bytes = w * h * depth / 8u;

	return bytes <= g->boundary ? 1u : (bytes + g->boundary - 1u) / g->boundary;
}

static uint32_t count_kind(const sgen *g, int kind)
{
	uint32_t i, k = 0;

	for (i = 0; i < g->n; i++)
		k += g->s[i].kind == kind && g->s[i].oam;
	return k;
}

/* Loads one sprite's graphics if they fit within cap units of its engine
 * (and an OAM entry is left when it needs one): 1 done, 0 not. */
static int load(sgen *g, int eng, int kind, unsigned w, unsigned h, unsigned depth, uint32_t until,
	uint32_t group, int oam, uint32_t cap)
{
	uint32_t u = units_of(g, w, h, depth);
	spr *s;

	if (g->n == MAX_LIVE || g->units[eng] + u > cap || (oam && g->oam[eng] == OAM))
		return 0;
	s = &g->s[g->n++];
	s->id = ++g->id;
	s->until = until;
	s->group = group;
	s->units = (uint16_t)u;
	s->kind = (uint8_t)kind;
	s->eng = (uint8_t)eng;
	s->oam = (uint8_t)(oam != 0);
	g->units[eng] += u;
	g->oam[eng] += s->oam;
	if (depth == 16)
		fprintf(g->out, "alloc %llu %s sprite %ux%u bmp tag=%s\n", (unsigned long long)s->id,
			eng ? "sub" : "main", w, h, kind_tag[kind]);
	else
		fprintf(g->out, "alloc %llu %s sprite %ux%u %ubpp tag=%s\n", (unsigned long long)s->id,
			eng ? "sub" : "main", w, h, depth, kind_tag[kind]);
	return 1;
}

/* Frees sprite i (the last takes its place). */
static void drop(sgen *g, uint32_t i)
{
	spr *s = &g->s[i];

	fprintf(g->out, "free %llu\n", (unsigned long long)s->id);
	g->units[s->eng] -= s->units;
	g->oam[s->eng] -= s->oam;
	*s = g->s[--g->n];
}

static void drop_group(sgen *g, uint32_t group)
{
	uint32_t i = 0;

	while (i < g->n)
		if (g->s[i].group == group)
			drop(g, i);
		else
			i++;
}

/* Sprites whose time is up go; a dying enemy leaves sparks behind. */
static void expire(sgen *g)
{
	uint32_t i = 0;

	while (i < g->n) {
		spr *s = &g->s[i];
		if (s->until > g->frame) {
			i++;
			continue;
		}
		if (s->kind == K_ENEMY && s->oam)
			g->sparks_due += gen_rng_between(&g->r, 2, 6);
		drop(g, i);
	}
}

/* ---- engine A: the action ---------------------------------------------- */

static const unsigned enemy_dims[][2] = {
	{ 16, 16 }, { 32, 16 }, { 16, 32 }, { 32, 32 }, { 32, 32 }, { 32, 32 }, { 64, 32 }, { 64, 32 }, { 32, 64 },
	{ 32, 64 }, { 64, 64 }, { 64, 64 }, { 64, 64 }
};

static void start_wave(sgen *g, wave *v)
{
	const unsigned *d = enemy_dims[gen_rng_below(&g->r, sizeof enemy_dims / sizeof enemy_dims[0])];

	v->w = d[0];
	v->h = d[1];
	v->depth = gen_rng_chance(&g->r, 40, 100) ? 8u : 4u;
	/* animation frames kept in VRAM: more of them for smaller sprites */
	v->frames = v->w * v->h * v->depth >= 4096u * 8u ? gen_rng_between(&g->r, 1, 2) :
		v->w * v->h * v->depth >= 1024u * 8u ? gen_rng_between(&g->r, 1, 3) : gen_rng_between(&g->r, 2, 4);
	/* a wave brings 15-30% of the area, in 4 to 24 enemies */
	v->left = g->area[ENG_A] * gen_rng_between(&g->r, 15, 30) / 100u /
		(units_of(g, v->w, v->h, v->depth) * v->frames);
	v->left = v->left < 4u ? 4u : v->left > 24u ? 24u : v->left;
	v->every = gen_rng_between(&g->r, 3, 12);
	v->next = g->frame;
	v->end = g->frame + 600u;
}

/* The next enemy of the wave, when its frames fit below the enemies' share
 * (the budget less room kept for shots and sparks). */
static void spawn_enemy(sgen *g, wave *v)
{
	uint32_t u = units_of(g, v->w, v->h, v->depth) * v->frames, room = g->cap[ENG_A] - g->area[ENG_A] / 32u;
	uint32_t life, group, f;

	if (g->units[ENG_A] + u > room || count_kind(g, K_ENEMY) >= MAX_ENEMIES) {
		v->next = g->frame + 8u; /* not now: the game waits for room */
		return;
	}
	life = g->frame + gen_rng_between(&g->r, 400, 1500);
	group = ++g->groups;
	for (f = 0; f < v->frames; f++)
		(void)load(g, ENG_A, K_ENEMY, v->w, v->h, v->depth, life, group, f == 0, room);
	v->left--;
	v->next = g->frame + v->every;
}

static void waves(sgen *g)
{
	unsigned i;

	/* before the boss is announced up to four waves at once; during the
	 * fight one wave of its minions at a time */
	if (g->frame >= g->next_wave && (g->boss_group || g->frame + 240u < g->boss_at)) {
		for (i = 0; i < (g->boss_group ? 1u : 4u); i++)
			if (!g->waves[i].left) {
				start_wave(g, &g->waves[i]);
				break;
			}
		g->next_wave = g->frame + gen_rng_between(&g->r, 60, 240);
	}
	for (i = 0; i < 4; i++) {
		wave *v = &g->waves[i];
		if (v->left && g->frame >= v->end)
			v->left = 0;
		if (v->left && g->frame >= v->next)
			spawn_enemy(g, v);
	}
}

/* The boss: announced (waves stop, enemies leave), loaded once it fits,
 * parts break off during the fight, the head turns into a larger form
 * halfway, everything goes at the end. */
static void boss(sgen *g)
{
	static const unsigned parts[][3] = {
		{ 64, 64, 8 }, { 64, 64, 8 }, { 64, 64, 8 }, { 64, 64, 8 }, { 64, 32, 8 }, { 64, 32, 8 },
		{ 32, 32, 8 }, { 32, 64, 4 }, { 32, 64, 4 }
	};
	uint32_t i, need = 0;

	if (g->frame == g->boss_at) {
		for (i = 0; i < 4; i++)
			g->waves[i].left = 0;
		for (i = 0; i < g->n; i++)
			if (g->s[i].kind == K_ENEMY && g->s[i].until > g->frame + 60u)
				g->s[i].until = g->frame + gen_rng_between(&g->r, 1, 60);
	}
	if (g->frame > g->boss_at && !g->boss_group) {
		for (i = 0; i < sizeof parts / sizeof parts[0]; i++)
			need += units_of(g, parts[i][0], parts[i][1], parts[i][2]);
		if (g->units[ENG_A] + need > g->cap[ENG_A] || g->oam[ENG_A] + 9u > OAM)
			return;
		g->boss_group = ++g->groups;
		for (i = 0; i < sizeof parts / sizeof parts[0]; i++)
			(void)load(g, ENG_A, K_BOSS, parts[i][0], parts[i][1], parts[i][2], STAYS, g->boss_group, 1,
				g->cap[ENG_A]);
		g->boss_end = g->frame + gen_rng_between(&g->r, 400, 700);
		g->boss_phase = 0;
		return;
	}
	if (!g->boss_group)
		return;
	if (g->frame == g->boss_end) {
		drop_group(g, g->boss_group);
		g->boss_group = 0;
		g->sparks_due += 16;
		g->boss_at = g->frame + gen_rng_between(&g->r, 900, 1500);
		g->next_wave = g->frame + 60u;
		return;
	}
	/* a limb breaks off now and then */
	if (gen_rng_chance(&g->r, 1, 90)) {
		for (i = 0; i < g->n; i++)
			if (g->s[i].group == g->boss_group && g->s[i].units < units_of(g, 64, 64, 8)) {
				drop(g, i);
				g->sparks_due += 6;
				break;
			}
	}
	/* halfway the head becomes a 64x64 8bpp enraged form */
	if (!g->boss_phase && g->boss_end - g->frame < 250u &&
	    load(g, ENG_A, K_BOSS, 64, 64, 8, STAYS, g->boss_group, 1, g->cap[ENG_A]))
		g->boss_phase = 1;
}

/* Player shots in bursts, enemy shots, sparks from what died. */
static void shots(sgen *g)
{
	static const unsigned weapons[][3] = { { 8, 8, 4 }, { 16, 8, 4 }, { 16, 16, 4 }, { 8, 8, 8 }, { 16, 16, 8 } };
	static const unsigned sparks[][3] = { { 8, 8, 4 }, { 8, 8, 8 }, { 16, 16, 4 }, { 8, 8, 4 } };
	uint32_t enemies, i;

	if (g->frame % 600u == 0) {
		const unsigned *w = weapons[gen_rng_below(&g->r, 5)];
		g->shot_w = w[0];
		g->shot_h = w[1];
		g->shot_depth = w[2];
		g->rate = gen_rng_between(&g->r, 8, 14);
	}
	if (g->frame >= g->fire_until + 60u && gen_rng_chance(&g->r, 1, 30))
		g->fire_until = g->frame + gen_rng_between(&g->r, 60, 240);
	if (g->frame < g->fire_until && g->frame >= g->fire_next && count_kind(g, K_BULLET) < MAX_BULLETS) {
		(void)load(g, ENG_A, K_BULLET, g->shot_w, g->shot_h, g->shot_depth,
			g->frame + gen_rng_between(&g->r, 30, 70), NO_GROUP, 1, g->cap[ENG_A]);
		g->fire_next = g->frame + g->rate;
	}
	enemies = count_kind(g, K_ENEMY) + (g->boss_group ? 6u : 0u);
	if (gen_rng_below(&g->r, 150) < enemies && count_kind(g, K_BULLET) < MAX_BULLETS) {
		int big = gen_rng_chance(&g->r, 1, 3);
		(void)load(g, ENG_A, K_BULLET, big ? 16 : 8, big ? 16 : 8, big ? 4 : 8,
			g->frame + gen_rng_between(&g->r, 40, 120), NO_GROUP, 1, g->cap[ENG_A]);
	}
	for (i = 0; g->sparks_due && i < 8; i++, g->sparks_due--) {
		const unsigned *k = sparks[gen_rng_below(&g->r, 4)];
		if (count_kind(g, K_SPARK) < MAX_SPARKS)
			(void)load(g, ENG_A, K_SPARK, k[0], k[1], k[2], g->frame + gen_rng_between(&g->r, 6, 24),
				NO_GROUP, 1, g->cap[ENG_A]);
	}
}

/* ---- engine B: the touch screen ----------------------------------------- */

/* A new menu page replaces the last in one frame: bitmap buttons and panels,
 * item icons; then icons change and buttons light up while it shows. */
static void touch_ui(sgen *g)
{
	uint32_t n, i, cap = g->cap[ENG_B];

	if (g->frame == g->page_end) {
		if (g->page_group)
			drop_group(g, g->page_group);
		g->page_group = ++g->groups;
		g->page_end = g->frame + gen_rng_between(&g->r, 300, 900);
		for (n = gen_rng_between(&g->r, 2, 5), i = 0; i < n; i++)
			(void)load(g, ENG_B, K_UI, 64, 32, 16, STAYS, g->page_group, 1, cap);
		for (n = gen_rng_between(&g->r, 1, 4), i = 0; i < n; i++)
			(void)load(g, ENG_B, K_UI, 32, 32, 16, STAYS, g->page_group, 1, cap);
		if (gen_rng_chance(&g->r, 1, 2))
			(void)load(g, ENG_B, K_UI, 64, 64, 16, STAYS, g->page_group, 1, cap);
		for (n = gen_rng_between(&g->r, 3, 10), i = 0; i < n; i++) {
			unsigned w = gen_rng_chance(&g->r, 1, 3) ? 16 : 32, h = gen_rng_chance(&g->r, 1, 3) ? 16 : 32;
			(void)load(g, ENG_B, K_ICON, w, h, 8, STAYS, g->page_group, 1, cap);
		}
		return;
	}
	if (gen_rng_chance(&g->r, 1, 45)) {
		for (i = 0; i < g->n; i++)
			if (g->s[i].kind == K_ICON) {
				drop(g, i);
				break;
			}
		(void)load(g, ENG_B, K_ICON, 32, 32, 8, STAYS, g->page_group, 1, cap);
	}
	/* a button lights up while held: one at a time */
	if (!count_kind(g, K_PRESS) && gen_rng_chance(&g->r, 1, 60))
		(void)load(g, ENG_B, K_PRESS, 64, 32, 16, g->frame + gen_rng_between(&g->r, 8, 20), NO_GROUP, 1, cap);
}

/* ---- the run ---------------------------------------------------------- */

static void start(sgen *g)
{
	/* engine A's banks: what 1024 tiles of the boundary reach */
	static const char *const banks[] = { "F0G1", "E0", "A0", "A0B1" };
	unsigned b = g->boundary == 32 ? 0 : g->boundary == 64 ? 1 : g->boundary == 128 ? 2 : 3, i;

	fputs("vramsim-trace 1\n", g->out);
	fprintf(g->out, "arena main ds-obj banks=%s", banks[b]);
	if (g->boundary > 32)
		fprintf(g->out, " boundary=%u", (unsigned)g->boundary);
	fputs("\narena sub ds-obj engine=b", g->out);
	if (g->boundary > 32)
		fprintf(g->out, " boundary=%u", (unsigned)g->boundary);
	fputc('\n', g->out);
	g->area[ENG_A] = 1024u;
	g->area[ENG_B] = g->boundary == 256 ? 512u : 1024u; /* bank D: 128 KiB */
	g->cap[ENG_A] = g->area[ENG_A] * 93u / 100u;
	g->cap[ENG_B] = g->area[ENG_B] * 70u / 100u;
	/* what stays: the player's three animation frames, the HUD */
	for (i = 0; i < 3; i++)
		(void)load(g, ENG_A, K_PLAYER, 32, 32, 8, STAYS, NO_GROUP, i == 0, g->area[ENG_A]);
	for (i = 0; i < 6; i++)
		(void)load(g, ENG_A, K_HUD, 8, 16, 4, STAYS, NO_GROUP, 1, g->area[ENG_A]);
	(void)load(g, ENG_A, K_HUD, 32, 8, 4, STAYS, NO_GROUP, 1, g->area[ENG_A]);
	(void)load(g, ENG_A, K_HUD, 32, 32, 4, STAYS, NO_GROUP, 1, g->area[ENG_A]);
	for (i = 0; i < 3; i++)
		(void)load(g, ENG_A, K_HUD, 16, 16, 8, STAYS, NO_GROUP, 1, g->area[ENG_A]);
	/* the sub screen: a cursor and 256-colour clock digits */
	(void)load(g, ENG_B, K_HUD, 16, 16, 4, STAYS, NO_GROUP, 1, g->area[ENG_B]);
	for (i = 0; i < 4; i++)
		(void)load(g, ENG_B, K_HUD, 8, 16, 8, STAYS, NO_GROUP, 1, g->area[ENG_B]);
	g->boss_at = gen_rng_between(&g->r, 900, 1400);
	g->next_wave = 30;
}

void vs_gen_ds_opts_default(vs_gen_ds_opts *d)
{
	d->boundary = 128;
	d->remap = 0;
}

int vs_gen_ds_sprites_with(FILE *out, const vs_gen_opts *o, const vs_gen_ds_opts *d, char *err, size_t errlen)
{
	uint32_t frames = o->frames ? o->frames : 2400; /* the registry's default */
	sgen *g;

	if (d->boundary != 32 && d->boundary != 64 && d->boundary != 128 && d->boundary != 256) {
		snprintf(err, errlen, "the 1D boundary is 32, 64, 128 or 256 bytes, not %u", (unsigned)d->boundary);
		return -1;
	}
	if (!(g = calloc(1, sizeof *g))) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	g->out = out;
	g->r.s = o->seed;
	g->boundary = d->boundary;
	start(g);
	for (g->frame = 0; g->frame < frames; g->frame++) {
		expire(g);
		touch_ui(g);
		boss(g);
		waves(g);
		shots(g);
		fputs("frame\n", out);
	}
	free(g);
	return vs_gen_flushed(out, err, errlen);
}

int vs_gen_ds_sprites(FILE *out, const vs_gen_opts *o, char *err, size_t errlen)
{
	vs_gen_ds_opts d;

	vs_gen_ds_opts_default(&d);
	return vs_gen_ds_sprites_with(out, o, &d, err, errlen);
}
