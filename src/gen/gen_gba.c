/* SPDX-License-Identifier: Zlib */
/* gen_gba.c - GBA workload generators (see gen.h and traces/README.md).
 *
 * Everything random comes from one splitmix64 stream seeded by the user
 * (gen_rng.h, the DS and heap generators' too), and only integer
 * arithmetic decides what happens, so a seed gives the same trace on every
 * host. Traces are written in canonical form. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/in_file.h"
#include "gen/gen.h"
#include "gen/gen_ds.h"
#include "gen/gen_heap.h"
#include "base/grow.h"
#include "vram/request.h"
#include "base/text.h"
#include "gen_rng.h"

/* ---- shared ----------------------------------------------------------- */

void vs_gen_opts_default(vs_gen_opts *o)
{
	memset(o, 0, sizeof *o);
	o->seed = 1;
}

/* ---- sprites: OBJ VRAM workloads ----------------------------------------
 *
 * A scene is the set of live sprite graphics a game holds in OBJ VRAM, one
 * allocation each. Like a real game, a scene keeps its own count of the
 * tiles it has taken: transient sprites (enemies, bullets, particles,
 * props) only spawn while that count stays within the game's VRAM budget
 * (a few percent under the area), and graphics the game cannot do without
 * (player, UI, level sets, bosses) are only loaded when they fit the area.
 * So the demand never exceeds the memory: every failed allocation in a
 * replay is the allocator's doing (fragmentation), not the game's. */

enum kind {
	K_PLAYER, K_UI, K_ENEMY, K_BULLET, K_PARTICLE, K_BOSS, K_DIALOG, K_LEVEL, K_CAR, K_PROP, K_ITEM, K_KINDS
};

static const char *const kind_tag[K_KINDS] = {
	"player", "ui", "enemy", "bullet", "particle", "boss", "dialog", "level", "car", "prop", "item"
};

/* Kinds the game must be able to show: checked against the whole area,
 * not the transient budget. */
static const uint8_t kind_must[K_KINDS] = { 1, 1, 0, 0, 0, 1, 0, 1, 0, 0, 0 };

typedef struct dims { uint8_t w, h; uint8_t weight; } dims;

/* Size mixes, weights in percent. */
static const dims enemy_sizes[] = {
	{ 16, 16, 40 }, { 32, 32, 22 }, { 32, 16, 10 }, { 16, 32, 10 }, { 64, 64, 5 }, { 64, 32, 5 }, { 8, 16, 8 }
};
static const dims particle_sizes[] = { { 8, 8, 70 }, { 16, 16, 30 } };
static const dims bullet_sizes[] = { { 8, 8, 60 }, { 16, 8, 25 }, { 8, 16, 15 } };
static const dims level_sizes[] = {
	{ 16, 16, 25 }, { 32, 32, 25 }, { 32, 16, 10 }, { 16, 32, 10 }, { 64, 64, 10 }, { 64, 32, 5 },
	{ 32, 64, 5 }, { 8, 8, 10 }
};
static const dims player_forms[] = { { 32, 32, 50 }, { 32, 64, 30 }, { 64, 64, 20 } };
static const dims minion_sizes[] = { { 16, 16, 60 }, { 8, 16, 25 }, { 16, 32, 15 } };
static const dims prop_sizes[] = { { 32, 64, 40 }, { 64, 32, 25 }, { 16, 32, 35 } };
/* A racer's opponent car by distance: far to near. */
static const dims car_sizes[4] = { { 16, 16, 0 }, { 32, 32, 0 }, { 64, 32, 0 }, { 64, 64, 0 } };

#define PICK(r, tab) pick(r, tab, sizeof tab / sizeof tab[0])

static dims pick(gen_rng *r, const dims *tab, size_t n)
{
	uint32_t total = 0, x;
	size_t i;

	for (i = 0; i < n; i++)
		total += tab[i].weight;
	x = gen_rng_below(r, total);
	for (i = 0; i + 1 < n && x >= tab[i].weight; i++)
		x -= tab[i].weight;
	return tab[i];
}

/* Tiles of a w x h sprite at bpp: 8x8 pixels a tile, 8bpp twice 4bpp. */
static uint32_t sprite_tiles(unsigned w, unsigned h, unsigned bpp)
{
	return (w / 8u) * (h / 8u) * (bpp / 4u);
}

#define MAX_SPRITES 200 /* 128 OAM entries plus level graphics */

typedef struct sprite {
	uint64_t id;
	uint32_t dies;  /* frame it goes; UINT32_MAX: stays */
	uint16_t tiles;
	uint8_t kind;
	uint8_t role;   /* boss part or car number */
} sprite;

typedef struct scene {
	FILE *out;
	gen_rng r;
	uint64_t next_id;
	uint32_t frame;
	sprite s[MAX_SPRITES];
	int n;
	int count[K_KINDS];
	int oam;          /* live sprites that take OAM entries (not level graphics) */
	uint32_t live;    /* tiles taken, as the game counts them */
	uint32_t area;    /* tiles of the OBJ area: 1024, or 512 in bitmap modes */
	uint32_t budget;  /* the game's cap for transient sprites, tiles */
	/* caps and rates of the shooter churn */
	int enemy_cap, bullet_cap, particle_cap;
	uint32_t enemy_rate;  /* per mille per frame */
	int hold_enemies;     /* a boss is coming: no new enemies */
} scene;

/* Whether tiles more fit what the game allows for kind k. */
static int fits(const scene *c, enum kind k, uint32_t tiles)
{
	return c->live + tiles <= (kind_must[k] ? c->area : c->budget);
}

static int spawn_role(scene *c, enum kind k, unsigned w, unsigned h, unsigned bpp, uint32_t life, unsigned role)
{
	uint32_t tiles = sprite_tiles(w, h, bpp);
	sprite *s;

	if (c->n >= MAX_SPRITES || (k != K_LEVEL && c->oam >= 128) || !fits(c, k, tiles))
		return -1;
	s = &c->s[c->n++];
	s->id = ++c->next_id;
	s->dies = life == UINT32_MAX ? UINT32_MAX : c->frame + life;
	s->tiles = (uint16_t)tiles;
	s->kind = (uint8_t)k;
	s->role = (uint8_t)role;
	c->count[k]++;
	c->live += tiles;
	if (k != K_LEVEL)
		c->oam++;
	fprintf(c->out, "alloc %llu sprite %ux%u %ubpp tag=%s\n", (unsigned long long)s->id, w, h, bpp, kind_tag[k]);
	return 0;
}

static int spawn(scene *c, enum kind k, unsigned w, unsigned h, unsigned bpp, uint32_t life)
{
	return spawn_role(c, k, w, h, bpp, life, 0);
}

static void kill_at(scene *c, int i)
{
	sprite *s = &c->s[i];

	fprintf(c->out, "free %llu\n", (unsigned long long)s->id);
	c->count[s->kind]--;
	c->live -= s->tiles;
	if (s->kind != K_LEVEL)
		c->oam--;
	/* Keep spawn order (oldest first) so frees come out in a stable order. */
	memmove(s, s + 1, (size_t)(c->n - i - 1) * sizeof *s);
	c->n--;
}

static int find_kind(const scene *c, enum kind k, int role)
{
	int i;

	for (i = 0; i < c->n; i++)
		if (c->s[i].kind == k && (role < 0 || c->s[i].role == role))
			return i;
	return -1;
}

static void burst(scene *c, unsigned lo, unsigned hi, unsigned eight_pct)
{
	unsigned k, n = gen_rng_between(&c->r, lo, hi);

	for (k = 0; k < n && c->count[K_PARTICLE] < c->particle_cap; k++) {
		dims d = PICK(&c->r, particle_sizes);
		/* drawn one by one: the order of a call's arguments is the
		 * compiler's, and the trace must not be (this is GCC's) */
		uint32_t life = gen_rng_between(&c->r, 8, 40);
		unsigned bpp = gen_rng_chance(&c->r, eight_pct, 100) ? 8 : 4;
		spawn(c, K_PARTICLE, d.w, d.h, bpp, life);
	}
}

static void expire(scene *c)
{
	int i = 0;

	while (i < c->n) {
		sprite *s = &c->s[i];
		enum kind k = (enum kind)s->kind;
		if (s->dies > c->frame) {
			i++;
			continue;
		}
		kill_at(c, i);
		/* A defeated enemy or boss part leaves debris behind; a thrown
		 * item explodes now and then. */
		if (k == K_ENEMY && gen_rng_chance(&c->r, 60, 100))
			burst(c, 3, 8, 30);
		else if (k == K_BOSS)
			burst(c, 4, 10, 50);
		else if (k == K_ITEM && gen_rng_chance(&c->r, 50, 100))
			spawn(c, K_PARTICLE, 32, 32, 8, gen_rng_between(&c->r, 30, 60));
	}
}

static void spawn_enemy(scene *c)
{
	dims d = PICK(&c->r, enemy_sizes);
	uint32_t life = gen_rng_between(&c->r, 120, 900); /* before the depth, as burst's */
	unsigned bpp = gen_rng_chance(&c->r, 15, 100) ? 8 : 4;

	spawn(c, K_ENEMY, d.w, d.h, bpp, life);
}

/* The player's graphics swap forms: the old one goes, the new one comes,
 * if the area has room for it (else the swap waits). */
static void swap_player(scene *c)
{
	int i = find_kind(c, K_PLAYER, -1);
	dims d = PICK(&c->r, player_forms);

	if (i < 0 || c->live - c->s[i].tiles + sprite_tiles(d.w, d.h, 4) > c->area)
		return;
	kill_at(c, i);
	spawn(c, K_PLAYER, d.w, d.h, 4, UINT32_MAX);
}

/* Shots, enemy fire and stray particles of one frame. */
static void fire(scene *c)
{
	int i, shots;

	if (c->frame % 6 == 0)
		for (shots = (int)gen_rng_between(&c->r, 1, 2); shots > 0 && c->count[K_BULLET] < c->bullet_cap; shots--)
			spawn(c, K_BULLET, 8, 8, 4, gen_rng_between(&c->r, 30, 70));
	for (i = 0; i < c->count[K_ENEMY] && c->count[K_BULLET] < c->bullet_cap; i++)
		if (gen_rng_chance(&c->r, 2, 100)) {
			dims d = PICK(&c->r, bullet_sizes);
			spawn(c, K_BULLET, d.w, d.h, 4, gen_rng_between(&c->r, 40, 90));
		}
	if (gen_rng_chance(&c->r, 3, 100))
		burst(c, 1, 4, 20);
}

/* The shooter's boss: a 64x64 8bpp body, two 64x32 arms and a 32x32 8bpp
 * core, all going together. */
#define SHOOTER_BOSS_TILES (128u + 32u + 32u + 32u)

static void shooter_boss(scene *c)
{
	uint32_t life = gen_rng_between(&c->r, 600, 1200);

	spawn(c, K_BOSS, 64, 64, 8, life);
	spawn(c, K_BOSS, 64, 32, 4, life);
	spawn(c, K_BOSS, 64, 32, 4, life);
	spawn(c, K_BOSS, 32, 32, 8, life);
}

/* Enemies still on screen leave within a second (a boss is coming). */
static void clear_enemies(scene *c)
{
	int i;

	for (i = 0; i < c->n; i++)
		if (c->s[i].kind == K_ENEMY && c->s[i].dies > c->frame + 60)
			c->s[i].dies = c->frame + gen_rng_between(&c->r, 1, 60);
}

/* One frame of the shooter: things die, things appear. */
static void churn_frame(scene *c)
{
	expire(c);
	if (c->frame % 600 == 599)
		swap_player(c);
	if (!c->count[K_DIALOG] && gen_rng_chance(&c->r, 1, 900))
		spawn(c, K_DIALOG, 64, 32, 4, 240);
	if (!c->hold_enemies && c->count[K_ENEMY] < c->enemy_cap && gen_rng_chance(&c->r, c->enemy_rate, 1000))
		spawn_enemy(c);
	/* A boss is announced now and then; it comes in once the stage has
	 * made room for it within the budget. */
	if (!c->count[K_BOSS] && !c->hold_enemies && gen_rng_chance(&c->r, 1, 900)) {
		c->hold_enemies = 1;
		clear_enemies(c);
	}
	if (c->hold_enemies && c->live + SHOOTER_BOSS_TILES <= c->budget) {
		shooter_boss(c);
		c->hold_enemies = 0;
	}
	fire(c);
}

static void scene_start(scene *c, FILE *out, const vs_gen_opts *o, unsigned mode)
{
	memset(c, 0, sizeof *c);
	c->out = out;
	c->r.s = o->seed;
	c->area = mode >= 3 ? 512u : 1024u;
	c->budget = c->area * 15u / 16u;
	c->enemy_cap = 44;
	c->bullet_cap = 48;
	c->particle_cap = 64;
	c->enemy_rate = 250;
	if (mode)
		fprintf(out, "vramsim-trace 1\narena obj gba-obj mode=%u\n", mode);
	else
		fputs("vramsim-trace 1\narena obj gba-obj\n", out);
}

/* Persistent: the player and the UI (score digits, life bar, icon). */
static void shooter_start(scene *c)
{
	int i;

	spawn(c, K_PLAYER, 32, 32, 4, UINT32_MAX);
	for (i = 0; i < 6; i++)
		spawn(c, K_UI, 8, 16, 4, UINT32_MAX);
	spawn(c, K_UI, 32, 8, 4, UINT32_MAX);
	spawn(c, K_UI, 16, 16, 4, UINT32_MAX);
}

int vs_gen_flushed(FILE *out, char *err, size_t errlen)
{
	if (fflush(out) == 0 && !ferror(out))
		return 0;
	if (errlen)
		err[0] = '\0';
	return -1;
}

int vs_gen_sprite_churn(FILE *out, const vs_gen_opts *o, char *err, size_t errlen)
{
	scene c;
	uint32_t frames = o->frames ? o->frames : 3600;

	scene_start(&c, out, o, 0);
	shooter_start(&c);
	for (c.frame = 0; c.frame < frames; c.frame++) {
		churn_frame(&c);
		fputs("frame\n", out);
	}
	return vs_gen_flushed(out, err, errlen);
}

/* The graphics a level needs for its whole length: sets drawn until they
 * take 40-60% of the area. */
static void load_level(scene *c)
{
	uint32_t target = c->live + c->area * gen_rng_between(&c->r, 40, 60) / 100u, tiles;
	unsigned k;

	for (k = 0; k < 48; k++) {
		dims d = PICK(&c->r, level_sizes);
		unsigned bpp = gen_rng_chance(&c->r, 20, 100) ? 8 : 4;
		tiles = sprite_tiles(d.w, d.h, bpp);
		if (c->live + tiles > target)
			break;
		spawn(c, K_LEVEL, d.w, d.h, bpp, UINT32_MAX);
	}
}

int vs_gen_level_change(FILE *out, const vs_gen_opts *o, char *err, size_t errlen)
{
	scene c;
	uint32_t frames = o->frames ? o->frames : 3600, level_len = 900, since = 0;
	int i;

	scene_start(&c, out, o, 0);
	shooter_start(&c);
	c.enemy_cap = 28;
	c.bullet_cap = 32;
	c.particle_cap = 40;
	c.enemy_rate = 150;
	load_level(&c);
	c.budget = c.area * gen_rng_between(&c.r, 85, 95) / 100u;
	for (c.frame = 0; c.frame < frames; c.frame++, since++) {
		if (since == level_len) {
			/* Level change: everything of the old level goes and the new
			 * set comes in, in this one frame. */
			for (i = c.n - 1; i >= 0; i--)
				if (c.s[i].kind != K_PLAYER && c.s[i].kind != K_UI)
					kill_at(&c, i);
			load_level(&c);
			c.budget = c.area * gen_rng_between(&c.r, 85, 95) / 100u;
			since = 0;
			level_len = gen_rng_between(&c.r, 600, 1200);
		}
		churn_frame(&c);
		fputs("frame\n", out);
	}
	return vs_gen_flushed(out, err, errlen);
}

/* ---- boss fight --------------------------------------------------------- */

enum { PART_BODY, PART_LIMB, PART_HEAD };

typedef struct boss_part { uint8_t w, h, bpp, role, count; } boss_part;

/* Three boss designs, 10-13 KiB each: two 64x64 8bpp halves of a 128x64
 * dragon with wings and a head; a tank of four 64x64 4bpp quarters with
 * turrets and a core; a golem of a body, long arms, legs and a head. */
static const boss_part boss_designs[3][4] = {
	{ { 64, 64, 8, PART_BODY, 2 }, { 64, 32, 8, PART_LIMB, 2 }, { 32, 32, 8, PART_HEAD, 1 }, { 0, 0, 4, 0, 0 } },
	{ { 64, 64, 4, PART_BODY, 4 }, { 32, 32, 8, PART_LIMB, 2 }, { 16, 16, 8, PART_HEAD, 1 }, { 0, 0, 4, 0, 0 } },
	{ { 64, 64, 8, PART_BODY, 1 }, { 32, 64, 8, PART_LIMB, 2 }, { 64, 32, 8, PART_BODY, 1 },
		{ 32, 32, 8, PART_HEAD, 1 } },
};

static uint32_t boss_tiles(const boss_part *d)
{
	uint32_t t = 0;
	unsigned p;

	for (p = 0; p < 4; p++)
		t += d[p].count * sprite_tiles(d[p].w, d[p].h, d[p].bpp);
	return t;
}

/* Stages of shooter churn, each ending with a boss: enemies leave, the
 * boss's parts load, limbs break off during the fight (debris), the head
 * turns into a 64x64 8bpp enraged form halfway, and at the end every part
 * goes in an explosion. */
int vs_gen_boss_fight(FILE *out, const vs_gen_opts *o, char *err, size_t errlen)
{
	scene c;
	uint32_t frames = o->frames ? o->frames : 3600, stage_end, fight_end = 0, rage = 0;
	const boss_part *design = NULL;
	unsigned p, k;
	int i, phase = 0; /* 0 stage, 1 warning, 2 fight */

	scene_start(&c, out, o, 0);
	shooter_start(&c);
	c.enemy_cap = 36;
	stage_end = gen_rng_between(&c.r, 600, 1200);
	for (c.frame = 0; c.frame < frames; c.frame++) {
		expire(&c);
		if (c.frame % 600 == 599)
			swap_player(&c);
		if (phase == 0) {
			if (c.count[K_ENEMY] < c.enemy_cap && gen_rng_chance(&c.r, c.enemy_rate, 1000))
				spawn_enemy(&c);
			if (c.frame >= stage_end) {
				phase = 1;
				design = boss_designs[gen_rng_below(&c.r, 3)];
				clear_enemies(&c);
			}
		} else if (phase == 1) {
			if (c.live + boss_tiles(design) <= c.budget) {
				uint32_t now = c.frame;
				fight_end = now + gen_rng_between(&c.r, 1000, 1800);
				rage = now + gen_rng_between(&c.r, 400, 800);
				for (p = 0; p < 4; p++)
					for (k = 0; k < design[p].count; k++)
						spawn_role(&c, K_BOSS, design[p].w, design[p].h, design[p].bpp,
							design[p].role == PART_LIMB ? gen_rng_between(&c.r, 300, 900) : fight_end - now,
							design[p].role);
				phase = 2;
			}
		} else {
			/* Minions, volleys of fireballs, a beam now and then. */
			if (c.count[K_ENEMY] < 12 && gen_rng_chance(&c.r, 60, 1000)) {
				dims d = PICK(&c.r, minion_sizes);
				spawn(&c, K_ENEMY, d.w, d.h, 4, gen_rng_between(&c.r, 120, 400));
			}
			if (gen_rng_chance(&c.r, 3, 100))
				for (k = gen_rng_between(&c.r, 3, 8); k > 0 && c.count[K_BULLET] < c.bullet_cap; k--) {
					unsigned wh = gen_rng_chance(&c.r, 30, 100) ? 32 : 16;
					spawn(&c, K_BULLET, wh, wh, 4, gen_rng_between(&c.r, 60, 180));
				}
			if (gen_rng_chance(&c.r, 1, 200))
				spawn(&c, K_BULLET, 64, 32, 4, gen_rng_between(&c.r, 60, 120));
			if (rage && c.frame >= rage && (i = find_kind(&c, K_BOSS, PART_HEAD)) >= 0) {
				uint32_t dies = c.s[i].dies;
				if (c.live - c.s[i].tiles + sprite_tiles(64, 64, 8) <= c.area) {
					kill_at(&c, i);
					spawn_role(&c, K_BOSS, 64, 64, 8, dies - c.frame, PART_HEAD);
					rage = 0;
				}
			}
			if (c.frame >= fight_end) {
				phase = 0;
				stage_end = c.frame + gen_rng_between(&c.r, 600, 1200);
			}
		}
		fire(&c);
		fputs("frame\n", out);
	}
	return vs_gen_flushed(out, err, errlen);
}

/* ---- bitmap mode racer ----------------------------------------------------- */

#define CARS 7

/* Mode 4: the frame takes tiles 0-511, sprites get 16 KiB. A pseudo-3D
 * racer: HUD, the player's car, seven opponents whose graphics change size
 * with distance (16x16 far to 64x32 near; 30% in 8bpp), roadside props
 * passing by, thrown items that may explode, dust. */
int vs_gen_bitmap_racer(FILE *out, const vs_gen_opts *o, char *err, size_t errlen)
{
	scene c;
	uint32_t frames = o->frames ? o->frames : 3600, next_move[CARS];
	int dist[CARS], bpp[CARS], i, car;

	scene_start(&c, out, o, 4);
	c.particle_cap = 16;
	for (i = 0; i < 4; i++)
		spawn(&c, K_UI, 8, 16, 4, UINT32_MAX);
	spawn(&c, K_UI, 32, 16, 4, UINT32_MAX);
	spawn(&c, K_UI, 16, 16, 4, UINT32_MAX);
	spawn(&c, K_UI, 32, 32, 4, UINT32_MAX);
	spawn(&c, K_UI, 32, 8, 4, UINT32_MAX);
	spawn(&c, K_PLAYER, 64, 32, 4, UINT32_MAX);
	for (car = 0; car < CARS; car++) {
		dist[car] = -1; /* off screen */
		bpp[car] = gen_rng_chance(&c.r, 30, 100) ? 8 : 4;
		next_move[car] = gen_rng_between(&c.r, 0, 120);
	}
	for (c.frame = 0; c.frame < frames; c.frame++) {
		expire(&c);
		/* Opponents come closer or fall back: the old graphic goes and
		 * the one for the new distance comes, if the budget allows. */
		for (car = 0; car < CARS; car++) {
			int to;
			uint32_t old = 0, nt = 0;
			if (c.frame < next_move[car])
				continue;
			next_move[car] = c.frame + gen_rng_between(&c.r, 20, 240);
			to = dist[car] + (gen_rng_chance(&c.r, 50, 100) ? 1 : -1);
			if (to < -1 || to > 3)
				continue;
			i = dist[car] >= 0 ? find_kind(&c, K_CAR, car) : -1;
			if (i >= 0)
				old = c.s[i].tiles;
			if (to >= 0)
				nt = sprite_tiles(car_sizes[to].w, car_sizes[to].h, (unsigned)bpp[car]);
			if (c.live - old + nt > c.budget)
				continue;
			if (i >= 0)
				kill_at(&c, i);
			if (to >= 0)
				spawn_role(&c, K_CAR, car_sizes[to].w, car_sizes[to].h, (unsigned)bpp[car], UINT32_MAX,
					(unsigned)car);
			dist[car] = to;
		}
		if (c.count[K_PROP] < 8 && gen_rng_chance(&c.r, 8, 100)) {
			dims d = PICK(&c.r, prop_sizes);
			spawn(&c, K_PROP, d.w, d.h, 4, gen_rng_between(&c.r, 30, 90));
		}
		if (c.count[K_ITEM] < 4 && gen_rng_chance(&c.r, 1, 100))
			spawn(&c, K_ITEM, 16, 16, 8, gen_rng_between(&c.r, 60, 240));
		if (gen_rng_chance(&c.r, 10, 100))
			for (i = (int)gen_rng_between(&c.r, 1, 3); i > 0 && c.count[K_PARTICLE] < c.particle_cap; i--)
				spawn(&c, K_PARTICLE, 8, 8, 4, gen_rng_between(&c.r, 8, 24));
		fputs("frame\n", out);
	}
	return vs_gen_flushed(out, err, errlen);
}

/* ---- side-scroller ------------------------------------------------------ */

#define SCREEN_W 240
#define SCREEN_H 160
#define RING 32 /* visible cells fit a 32x32 ring: at most 31 x 21 */
#define ROM_MAX 4096u

typedef struct bgmap {
	uint16_t *cell;
	uint32_t w, h;
} bgmap;

typedef struct layer {
	bgmap map;
	unsigned bpp;
	unsigned num, den;     /* parallax: scroll = camera * num / den */
	int x0, y0, x1, y1;    /* visible cells, inclusive; x1 < x0 when none yet */
	uint64_t ids[RING][RING];
} layer;

static const unsigned layer_bpp[VS_GEN_LAYERS] = { 4, 4, 8, 4 };
static const unsigned layer_num[VS_GEN_LAYERS] = { 1, 1, 1, 1 };
static const unsigned layer_den[VS_GEN_LAYERS] = { 1, 1, 2, 4 };
/* Generated ROM tile sets: [first, first + count) per layer. */
static const uint16_t set_first[VS_GEN_LAYERS] = { 1, 1001, 2001, 2601 };
static const uint16_t set_count[VS_GEN_LAYERS] = { 1000, 1000, 600, 1000 };
/* Share of empty (transparent) metatiles per layer, percent. */
static const unsigned layer_empty[VS_GEN_LAYERS] = { 40, 15, 5, 0 };

/* A generated map: 2x2 metatiles from a palette that changes every 64
 * cells (a new area of the level), so the tiles in view repeat a lot but
 * shift as the camera travels. */
static int gen_map(bgmap *m, gen_rng *r, unsigned l, uint32_t w, uint32_t h, int solid)
{
	uint32_t x, y, area, nareas = (w + 63) / 64;
	uint16_t meta[128][4];
	unsigned k, q, npal;

	m->w = w;
	m->h = h;
	m->cell = calloc((size_t)w * h, sizeof *m->cell);
	if (!m->cell)
		return -1;
	for (area = 0; area < nareas; area++) {
		/* Busy areas have many distinct metatiles, quiet ones few. Solid
		 * (worst-case) maps keep to 40, so that the tiles of two areas in a
		 * 32-cell view of all four layers fit the 56 KiB tile set. */
		npal = gen_rng_between(r, 8, solid ? 40 : 128);
		for (k = 0; k < npal; k++)
			for (q = 0; q < 4; q++)
				meta[k][q] = (uint16_t)(set_first[l] + gen_rng_below(r, set_count[l]));
		for (y = 0; y < h; y += 2)
			for (x = area * 64; x < (area + 1) * 64 && x < w; x += 2) {
				int empty = gen_rng_chance(r, solid ? 0 : layer_empty[l], 100);
				k = gen_rng_below(r, npal);
				for (q = 0; q < 4; q++) {
					uint32_t cx = x + (q & 1), cy = y + (q >> 1);
					if (cx < w && cy < h)
						m->cell[cy * w + cx] = empty ? 0 : meta[k][q];
				}
			}
	}
	return 0;
}

/* A map file is read whole into memory: bounded, so /dev/zero or an
 * endless pipe given as a map is an error, not a hang. */
#define MAP_MAX_BYTES (64ul << 20)

static int read_map(bgmap *m, const char *path, uint32_t width, char *err, size_t errlen)
{
	FILE *fp = vs_in_open(path, "rb");
	size_t len = strlen(path), cap = 0, n = 0, bytes = 0;
	uint32_t cols = 0, rowcols = 0;
	int csv = len > 4 && strcmp(path + len - 4, ".csv") == 0, ch;
	uint16_t *cells = NULL;
	unsigned long v;
	uint8_t b[2];
	char shown[VS_TEXT_PATH_SHOWN];

	vs_text_path(shown, sizeof shown, path); /* a long one loses its front: the reasons after it stay whole */
	if (!fp) {
		snprintf(err, errlen, "%s: %s", shown, strerror(errno));
		return -1;
	}
	if (csv) {
		/* a UTF-8 byte order mark */
		if ((ch = fgetc(fp)) == 0xEF && fgetc(fp) == 0xBB && fgetc(fp) == 0xBF)
			bytes = 3;
		else
			rewind(fp);
	}
	for (;;) {
		if (csv) {
			/* Skip separators; count cells per line to learn the width. */
			while ((ch = fgetc(fp)) == ' ' || ch == '\t' || ch == ',' || ch == '\r' || ch == '\n') {
				if (++bytes > MAP_MAX_BYTES)
					goto too_big;
				if (ch == '\n' && rowcols) {
					if (cols && rowcols != cols) {
						snprintf(err, errlen, "%s: rows of %u and %u cells", shown,
							(unsigned)cols, (unsigned)rowcols);
						goto fail;
					}
					cols = rowcols;
					rowcols = 0;
				}
			}
			if (ch == EOF)
				break;
			if (ch < '0' || ch > '9') {
				snprintf(err, errlen, "%s: cell %zu: not a number", shown, n + 1);
				goto fail;
			}
			v = 0;
			do {
				if (++bytes > MAP_MAX_BYTES)
					goto too_big;
				if (v < ROM_MAX)
					v = v * 10 + (unsigned long)(ch - '0');
			} while ((ch = fgetc(fp)) >= '0' && ch <= '9');
			if (ch != EOF)
				ungetc(ch, fp);
			rowcols++;
		} else {
			size_t got = fread(b, 1, 2, fp);
			if (got == 1) { /* half a cell: a map of another format, or cut short */
				snprintf(err, errlen, "%s: %zu bytes: a raw map is 16-bit cells, and its last byte is half of one",
					shown, 2 * n + 1);
				goto fail;
			}
			if (got != 2)
				break;
			v = (unsigned long)b[0] | (unsigned long)b[1] << 8;
		}
		if (v >= ROM_MAX) {
			snprintf(err, errlen, "%s: cell %zu is past ROM tile %u; the tile manager takes 0-%u", shown,
				n + 1, ROM_MAX - 1u, ROM_MAX - 1u);
			goto fail;
		}
		if (n == VS_GEN_MAP_MAX_CELLS)
			goto too_big;
		if (n == cap && vs_grow(&cells, sizeof *cells, &cap, n + 1, 4096)) {
			snprintf(err, errlen, "%s: out of memory", shown);
			goto fail;
		}
		cells[n++] = (uint16_t)v;
	}
	if (ferror(fp)) {
		snprintf(err, errlen, "%s: read error: %s", shown, strerror(errno));
		goto fail;
	}
	if (csv && rowcols) {
		if (cols && rowcols != cols) {
			snprintf(err, errlen, "%s: rows of %u and %u cells", shown, (unsigned)cols, (unsigned)rowcols);
			goto fail;
		}
		cols = rowcols;
	}
	if (!csv)
		cols = width;
	if (!cols || n % cols) {
		snprintf(err, errlen, "%s: %zu cells do not make rows of %u (give --map-width)", shown, n,
			(unsigned)cols);
		goto fail;
	}
	m->w = cols;
	m->h = (uint32_t)(n / cols);
	if (m->w < RING || m->h < RING) {
		snprintf(err, errlen, "%s: a %ux%u map is smaller than 32x32 cells", shown, (unsigned)m->w,
			(unsigned)m->h);
		goto fail;
	}
	m->cell = cells;
	fclose(fp);
	return 0;
too_big:
	snprintf(err, errlen, "%s: a map is at most %u cells (%lu MiB of CSV)", shown, (unsigned)VS_GEN_MAP_MAX_CELLS,
		MAP_MAX_BYTES >> 20);
fail:
	free(cells);
	fclose(fp);
	return -1;
}

static int in_rect(const layer *L, int x, int y)
{
	return x >= L->x0 && x <= L->x1 && y >= L->y0 && y <= L->y1;
}

/* Moves a layer's view to scroll (sx, sy): frees cells that left, then
 * references the ones that came in. The view is the screen, or with
 * `whole` the full 32x32-cell map the layer keeps in VRAM. */
static void update_layer(FILE *out, layer *L, uint64_t *next_id, int sx, int sy, int whole)
{
	int nx0 = sx / 8, ny0 = sy / 8, x, y;
	int nx1 = whole ? nx0 + RING - 1 : (sx + SCREEN_W - 1) / 8;
	int ny1 = whole ? ny0 + RING - 1 : (sy + SCREEN_H - 1) / 8;
	layer old = *L; /* only the rectangle is read from it */

	for (y = old.y0; y <= old.y1; y++)
		for (x = old.x0; x <= old.x1; x++) {
			uint64_t *id = &L->ids[y % RING][x % RING];
			if (x >= nx0 && x <= nx1 && y >= ny0 && y <= ny1)
				continue;
			if (*id)
				fprintf(out, "free %llu\n", (unsigned long long)*id);
			*id = 0;
		}
	L->x0 = nx0;
	L->y0 = ny0;
	L->x1 = nx1;
	L->y1 = ny1;
	for (y = ny0; y <= ny1; y++)
		for (x = nx0; x <= nx1; x++) {
			uint16_t rom;
			if (in_rect(&old, x, y))
				continue;
			rom = L->map.cell[(uint32_t)y * L->map.w + (uint32_t)x];
			/* As 'Gameboy Advance Resource Management' has it: a zero in the
			 * ROM map is written as zero, no call. */
			if (!rom)
				continue;
			L->ids[y % RING][x % RING] = ++*next_id;
			fprintf(out, "alloc %llu tile %u %ubpp\n", (unsigned long long)*next_id, (unsigned)rom, L->bpp);
		}
}

int vs_gen_side_scroller(FILE *out, const vs_gen_opts *o, char *err, size_t errlen)
{
	layer *L = calloc(VS_GEN_LAYERS, sizeof *L);
	gen_rng r = { o->seed };
	uint32_t frames = o->frames ? o->frames : 1200, f, hold = 0;
	int cx = 0, cy = 0, vx = 2, vy = 0, maxx = 0, maxy = 0, rc = -1;
	uint64_t next_id = 0;
	unsigned l;

	if (!L) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (l = 0; l < VS_GEN_LAYERS; l++) {
		L[l].bpp = layer_bpp[l];
		L[l].num = layer_num[l];
		L[l].den = layer_den[l];
		L[l].x1 = L[l].y1 = -1;
		if (o->maps[l] ? read_map(&L[l].map, o->maps[l], o->map_width, err, errlen)
			: gen_map(&L[l].map, &r, l, 1024, 64, o->worst_case)) {
			if (!o->maps[l])
				snprintf(err, errlen, "out of memory");
			goto done;
		}
	}
	/* The camera may go as far as the foreground map allows; a parallax
	 * layer that is too small stops at its own edge. */
	maxx = (int)L[0].map.w * 8 - SCREEN_W;
	maxy = (int)L[0].map.h * 8 - SCREEN_H;
	if (o->worst_case) {
		/* Every layer's view is its whole 32x32 map, at full speed. */
		for (l = 0; l < VS_GEN_LAYERS; l++)
			L[l].num = L[l].den = 1;
		maxx = (int)(L[0].map.w - RING) * 8;
		maxy = (int)(L[0].map.h - RING) * 8;
		vx = vy = 8;
	}
	fputs("vramsim-trace 1\narena bg gba-bg\n", out);
	for (l = 0; l < VS_GEN_LAYERS; l++)
		fprintf(out, "alloc %llu map text 256x256 tag=bg%u\n", (unsigned long long)++next_id, l);
	for (f = 0; f < frames; f++) {
		if (o->worst_case) {
			/* Turn back at an edge before the step, so every step is 8 px
			 * in both axes (where the map is larger than the view). */
			if (cx + vx < 0 || cx + vx > maxx)
				vx = -vx;
			if (cy + vy < 0 || cy + vy > maxy)
				vy = -vy;
			if (cx + vx >= 0 && cx + vx <= maxx)
				cx += vx;
			if (cy + vy >= 0 && cy + vy <= maxy)
				cy += vy;
			goto move;
		}
		/* The player runs mostly right at 1-4 px, sometimes dashes at
		 * 8 px, jumps and falls, turns back now and then. */
		if (hold-- == 0) {
			hold = gen_rng_between(&r, 20, 120);
			vx = gen_rng_chance(&r, 15, 100) ? 8 : (int)gen_rng_between(&r, 0, 4);
			if (gen_rng_chance(&r, 20, 100))
				vx = -vx;
			vy = gen_rng_chance(&r, 30, 100) ? (int)gen_rng_between(&r, 0, 8) - 4 : 0;
			if (gen_rng_chance(&r, 5, 100))
				vy = gen_rng_chance(&r, 50, 100) ? 8 : -8;
		}
		cx += vx;
		cy += vy;
		if (cx < 0 || cx > maxx) {
			cx = cx < 0 ? 0 : maxx;
			vx = -vx;
		}
		if (cy < 0 || cy > maxy) {
			cy = cy < 0 ? 0 : maxy;
			vy = -vy;
		}
move:
		for (l = 0; l < VS_GEN_LAYERS; l++) {
			int sx = (int)((unsigned)cx * L[l].num / L[l].den), sy = (int)((unsigned)cy * L[l].num / L[l].den);
			int lx = o->worst_case ? (int)(L[l].map.w - RING) * 8 : (int)L[l].map.w * 8 - SCREEN_W;
			int ly = o->worst_case ? (int)(L[l].map.h - RING) * 8 : (int)L[l].map.h * 8 - SCREEN_H;
			update_layer(out, &L[l], &next_id, sx < lx ? sx : lx, sy < ly ? sy : ly, o->worst_case);
		}
		fputs("frame\n", out);
	}
	rc = vs_gen_flushed(out, err, errlen);
done:
	for (l = 0; l < VS_GEN_LAYERS; l++)
		free(L[l].map.cell);
	free(L);
	return rc;
}

/* ---- BG scenes: whole tile sets and maps (Butano's BG blocks) -----------
 *
 * A game whose backgrounds are each a tile set and a map uploaded whole,
 * as Butano's regular_bg_ptr and affine_bg_ptr do: a scene holds one to
 * three regular BGs (two may share a tile set) and now and then an affine
 * one; a dialog box (a font's tiles and a 32x32 map) comes and goes inside
 * a scene. At a scene change every BG goes (each map before its tiles, as a
 * map holds its tile set) and the next scene's come in the same frame.
 * Scenes are drawn from six levels, so a level comes back with the same
 * data (the same tags). A scene stays within 24 of the 32 blocks of 2 KiB. */

#define BG_LEVELS 6
#define BG_MAX 8 /* live allocations of a scene: 4 BGs of two each */

typedef struct bg_scene {
	FILE *out;
	gen_rng r;
	uint64_t next_id;
	uint64_t live[BG_MAX + 2];
	unsigned nlive;
	uint64_t dialog[2];   /* the dialog box's map and tiles; 0: none */
} bg_scene;

static uint64_t bg_alloc_line(bg_scene *c, const char *request, unsigned level, unsigned bg)
{
	uint64_t id = ++c->next_id;

	fprintf(c->out, "alloc %llu %s tag=lv%u-bg%u\n", (unsigned long long)id, request, level, bg);
	return id;
}

/* A level's BGs, the same for every visit (its own random stream). */
static void bg_load_scene(bg_scene *c, uint64_t seed, unsigned level)
{
	static const char *const maps[4] = { "cells 32x32", "cells 64x32", "cells 32x64", "cells 64x64" };
	static const uint8_t map_blocks[4] = { 1, 2, 2, 4 };
	gen_rng r = { seed * 31u + level };
	unsigned nbg = gen_rng_between(&r, 1, 3), b, blocks = 0, tiles = 0, m, shared, add;
	int eight = 0;
	char rq[48];

	c->nlive = 0;
	for (b = 0; b < nbg; b++) {
		/* the second BG draws from the first's tiles now and then */
		shared = b == 1 && gen_rng_chance(&r, 30, 100);
		if (!shared) {
			eight = gen_rng_chance(&r, 25, 100);
			tiles = gen_rng_between(&r, 2, eight ? 10 : 20) * 32u;
		}
		m = gen_rng_below(&r, 4);
		add = (shared ? 0u : (tiles * (eight ? 64u : 32u) + 2047u) / 2048u) + map_blocks[m];
		if (blocks + add > 20u)
			break;
		blocks += add;
		snprintf(rq, sizeof rq, "tiles %u %ubpp", tiles, eight ? 8u : 4u);
		c->live[c->nlive++] = bg_alloc_line(c, rq, level, shared ? 0 : b);
		c->live[c->nlive++] = bg_alloc_line(c, maps[m], level, b);
	}
	if (gen_rng_chance(&r, 30, 100) && blocks + 4u <= 22u) {
		snprintf(rq, sizeof rq, "tiles %u 8bpp affine", gen_rng_between(&r, 2, 8) * 32u);
		c->live[c->nlive++] = bg_alloc_line(c, rq, level, 3);
		c->live[c->nlive++] = bg_alloc_line(c, "cells 32x32 affine", level, 3);
	}
}

/* Frees the live BGs, each map before the tiles it holds. */
static void bg_clear(bg_scene *c)
{
	unsigned i;

	for (i = c->nlive; i >= 2; i -= 2) {
		fprintf(c->out, "free %llu\n", (unsigned long long)c->live[i - 1]);
		fprintf(c->out, "free %llu\n", (unsigned long long)c->live[i - 2]);
	}
	c->nlive = 0;
	if (c->dialog[0]) {
		fprintf(c->out, "free %llu\nfree %llu\n", (unsigned long long)c->dialog[0],
			(unsigned long long)c->dialog[1]);
		c->dialog[0] = 0;
	}
}

int vs_gen_bg_scenes(FILE *out, const vs_gen_opts *o, char *err, size_t errlen)
{
	bg_scene c;
	uint32_t frames = o->frames ? o->frames : 3600, f, next_scene = 0, dialog_until = 0;

	memset(&c, 0, sizeof c);
	c.out = out;
	c.r.s = o->seed;
	fputs("vramsim-trace 1\narena bg gba-bg strategy=butano-bg-blocks\n", out);
	for (f = 0; f < frames; f++) {
		if (f == next_scene) {
			bg_clear(&c);
			bg_load_scene(&c, o->seed, gen_rng_below(&c.r, BG_LEVELS));
			next_scene = f + gen_rng_between(&c.r, 300, 900);
			dialog_until = 0;
		} else if (c.dialog[0] && f == dialog_until) {
			fprintf(out, "free %llu\nfree %llu\n", (unsigned long long)c.dialog[0], (unsigned long long)c.dialog[1]);
			c.dialog[0] = 0;
		} else if (!c.dialog[0] && gen_rng_chance(&c.r, 1, 150)) {
			c.dialog[1] = ++c.next_id;
			fprintf(out, "alloc %llu tiles 96 4bpp tag=font\n", (unsigned long long)c.dialog[1]);
			c.dialog[0] = ++c.next_id;
			fprintf(out, "alloc %llu cells 32x32 tag=dialog\n", (unsigned long long)c.dialog[0]);
			dialog_until = f + gen_rng_between(&c.r, 60, 240);
		}
		fputs("frame\n", out);
	}
	return vs_gen_flushed(out, err, errlen);
}

/* ---- registry --------------------------------------------------------- */

static const vs_generator generators[] = {
	{ "side-scroller", "four BG layers scrolling up to 8 px a frame: BG tile references and releases",
		vs_gen_side_scroller, 1200, { 36366, 34231, 273, 53152, 0 } },
	{ "sprite-churn", "a shooter's sprites (player, enemies, bullets, particles, UI) coming and going",
		vs_gen_sprite_churn, 3600, { 4333, 4221, 31, 31200, 4 } },
	{ "level-change", "levels of sprite churn; at each change the level's sprite set is swapped in one frame",
		vs_gen_level_change, 3600, { 2783, 2700, 105, 31680, 2 } },
	{ "boss-fight", "shooter stages, each ending with a multi-part boss that breaks up and transforms",
		vs_gen_boss_fight, 3600, { 3328, 3269, 35, 28512, 1 } },
	{ "bitmap-racer", "a mode 4 racer in 16 KiB of OBJ VRAM: opponents change size with distance",
		vs_gen_bitmap_racer, 3600, { 1209, 1185, 6, 15360, 6 } },
	{ "bg-scenes", "BG tile sets and maps uploaded whole (butano-bg-blocks): scene changes, a dialog box",
		vs_gen_bg_scenes, 3600, { 56, 48, 10, 33792, 0 } },
	{ "ds-levels", "DS level loads (4x4 terrain, 16/256-colour characters, A3I5 effects, direct UI, palettes), "
		"restore of the base state per level", vs_gen_ds_levels, 2400, { 205, 88, 23, 123888, 0 } },
	{ "ds-stream", "DS open-world texture and palette streaming churn", vs_gen_ds_stream, 2000, { 1517, 1471, 13, 349984, 48 } },
	{ "ds-sprites", "a DS action game's sprites on both engines: waves, a boss, shots, a touch-screen UI",
		vs_gen_ds_sprites, 2400, { 1627, 1431, 33, 162688, 0 } },
	{ "ds-3d", "a DS videoGL game's textures and palettes: every format, shared palettes, re-uploads, levels",
		vs_gen_ds_3d, 2400, { 477, 383, 177, 388712, 15 } },
	{ "heap-churn", "RAM heap churn: sizes and lifetimes from distributions (--sizes, --lifetime)",
		vs_gen_heap_churn, 2000, { 64000, 63512, 88, 620656, 0 } },
};

size_t vs_generator_count(void)
{
	return sizeof generators / sizeof generators[0];
}

const vs_generator *vs_generator_at(size_t i)
{
	return i < vs_generator_count() ? &generators[i] : NULL;
}

const vs_generator *vs_generator_find(const char *name)
{
	size_t i;

	for (i = 0; i < vs_generator_count(); i++)
		if (strcmp(generators[i].name, name) == 0)
			return &generators[i];
	return NULL;
}
