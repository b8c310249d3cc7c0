/* SPDX-License-Identifier: Zlib */
/* gba_cycles_list.c - the request list `vramsim cycles` sends to the GBA:
 * the strategies with a GBA build and how each encodes a host request
 * (the adapters' arithmetic, strat_gba.h), live ids mapped to the cycles
 * program's handle slots, and the replay observer that turns every call the
 * host makes into the measured strategy into a request, noting what the
 * host saw so the GBA's answers can be compared. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vramsim/alloc/gba_bg_tiles.h"
#include "vramsim/alloc/gba_bg_tiles_split.h"
#include "vramsim/alloc/gba_obj_best_fit.h"
#include "vramsim/alloc/gba_obj_buddy.h"
#include "vramsim/alloc/gba_obj_compact.h"
#include "vramsim/alloc/gba_obj_ends.h"
#include "vramsim/alloc/gba_obj_first_fit.h"
#include "vramsim/alloc/gba_obj_map.h"
#include "vramsim/alloc/gba_obj_snug.h"
#include "base/grow.h"
#include "console/gba/gba_cycles_host.h"
#include "strategies/strategies.h"
#include "strategies/gba/strat_gba.h" /* the adapters' request arithmetic, shared */
#include "strategies/gba/strat_butano.h"

/* ---- allocators the cycles ROM carries -------------------------------- */

struct vs_gba_cycles_target {
	const char *name;   /* host strategy name */
	uint32_t id;        /* VS_GBA_STRAT_* */
	/* The target argument for a request; 0 when the host adapter refuses
	 * the request without calling the allocator (nothing to time), -1
	 * when the request cannot be sent. */
	int (*encode)(const vs_request *rq, uint32_t *arg);
	/* Init parameters, read from the host strategy's state after init. */
	void (*params)(const void *host_state, uint32_t param[4]);
	/* Arena offset of a target alloc result. */
	uint32_t (*offset)(uint32_t value);
	/* 1 when a result was a hit on data already loaded (NULL: never). */
	int (*hit)(uint32_t value);
	/* 1 for an allocator that moves sprites (gba-obj-compact): frame
	 * requests, and a second result per request (the digest and the moves) */
	int moves;
	/* 1 for an allocator that acts once a frame (Butano's update) */
	int frames;
	/* Whether the host's last alloc was a hit, from its strategy's state
	 * (NULL: the replay's record says so) */
	int (*host_hit)(const void *host_state);
};

static int objmap_encode(const vs_request *rq, uint32_t *arg)
{
	uint32_t n = (rq->size + 31u) / 32u; /* as strat_gba_obj_map.c */

	if (n == 0 || n > 1024u)
		return 0;
	*arg = n;
	return 1;
}

static void objmap_params(const void *st, uint32_t param[4])
{
	param[0] = ((const gba_obj_map *)st)->first;
}

static uint32_t tile_offset(uint32_t value)
{
	return value * 32u;
}

/* The OBJ tile allocators: tiles and alignment as the adapters work them
 * out (strat_gba.h); a request they refuse never reaches the allocator. */
static int obj_encode(const vs_request *rq, uint32_t *arg)
{
	unsigned n, align;

	if (vs_gba_obj_tiles(rq, &n, &align) != VS_OK)
		return 0;
	*arg = n | align << 16;
	return 1;
}

static void ff_params(const void *st, uint32_t param[4])
{
	param[0] = ((const gba_obj_ff *)st)->first;
}

static void bf_params(const void *st, uint32_t param[4])
{
	param[0] = ((const gba_obj_bf *)st)->first;
}

static void buddy_params(const void *st, uint32_t param[4])
{
	param[0] = ((const gba_obj_buddy *)st)->first;
}

static void snug_params(const void *st, uint32_t param[4])
{
	param[0] = ((const gba_obj_snug *)st)->first;
}

static void ends_params(const void *st, uint32_t param[4])
{
	param[0] = ((const gba_obj_ends *)st)->first;
}

static void compact_params(const void *st, uint32_t param[4])
{
	const gba_obj_compact *m = st;

	param[0] = m->first | (uint32_t)m->budget << 16;
}

static uint32_t compact_offset(uint32_t value)
{
	return (value & 0xFFFFu) * 32u; /* the slot rides in the high half */
}

/* Where the host's sprites sit: the digest the GBA answers after each
 * request (gba_cycles.h). */
static uint32_t compact_digest(const gba_obj_compact *m)
{
	uint32_t h = VS_GBA_DIGEST_INIT, s;

	for (s = 0; s < GBA_OBJ_COMPACT_MAX; s++)
		if (gba_obj_compact_tiles(m, (uint16_t)s))
			h = vs_gba_digest(h, s, gba_obj_compact_start(m, (uint16_t)s));
	return h;
}

/* The BG tile managers: a tile reference or a map (strat_gba_bg_tiles.c). */
static int bg_encode(const vs_request *rq, uint32_t *arg)
{
	unsigned n;

	if (rq->shape == VS_REQ_BGMAP || rq->shape == VS_REQ_CELLS) {
		n = vs_gba_map_blocks(rq);
		if (n == 0)
			return 0;
		*arg = VS_GBA_BG_MAP | n;
		return 1;
	}
	if (rq->shape != VS_REQ_TILE)
		return 0;
	/* out-of-range values stay out of range: the allocator refuses them */
	*arg = (rq->u.tile.rom > 0xFFFFFFu ? 0xFFFFFFu : rq->u.tile.rom) |
		(uint32_t)(rq->u.tile.bpp > 63u ? 63u : rq->u.tile.bpp) << 24;
	return 1;
}

static void bg_params(const void *st, uint32_t param[4])
{
	(void)st;
	param[0] = 0;
}

static void split_params(const void *st, uint32_t param[4])
{
	param[0] = ((const gba_bg_tiles_split *)st)->bytes4;
}

static uint32_t bg_offset(uint32_t value)
{
	if (value & VS_GBA_BG_MAP)
		return (value & 0xFFu) * VS_GBA_SB_BYTES;
	return (value & 0xFFFFu) * VS_GBA_TILE_BYTES;
}

static int bg_hit(uint32_t value)
{
	return !(value & VS_GBA_BG_MAP) && (value & VS_GBA_BG_HIT);
}

/* Butano's managers: the request's tag is its data word, sent in 16 bits
 * (-1 past that: the GBA cannot be given it); what the adapters refuse
 * never reaches the allocator. */
static int butano_tag(const vs_request *rq, uint32_t *arg)
{
	if (rq->tag > 0xFFFFu)
		return -1;
	*arg = rq->tag;
	return 1;
}

/* as strat_butano_sprite_tiles.c: 1-64 4bpp tiles, 2-128 8bpp, powers of
 * two; no alignment past a tile */
static int bst_encode(const vs_request *rq, uint32_t *arg)
{
	uint32_t t = (rq->size + VS_GBA_TILE_BYTES - 1u) / VS_GBA_TILE_BYTES;
	int bpp8 = rq->shape == VS_REQ_SPRITE && rq->u.sprite.bpp == 8;

	if (!t || (t & (t - 1u)) || t > (bpp8 || rq->shape != VS_REQ_SPRITE ? 128u : 64u) || (bpp8 && t < 2u) ||
		rq->align > VS_GBA_TILE_BYTES)
		return 0;
	if (butano_tag(rq, arg) < 0)
		return -1;
	*arg |= t << 16;
	return 1;
}

static void bst_params(const void *st, uint32_t param[4])
{
	const vs_butano_st_state *s = st;

	param[0] = s->version | (uint32_t)s->max_items << 8 | (uint32_t)s->graphics << 20 |
		(uint32_t)s->compressed << 22 | (uint32_t)s->bitmap << 23;
}

static int bst_host_hit(const void *st)
{
	return ((const vs_butano_st_state *)st)->found;
}

/* as strat_butano_bg_blocks.c: tile sets and maps of cells (or of
 * pixels), as Butano takes them; blocks of 2 KiB, no more alignment */
static int bgb_encode(const vs_request *rq, uint32_t *arg)
{
	static const uint16_t text_w[4] = { 32, 64, 32, 64 }, text_h[4] = { 32, 32, 64, 64 };
	static const uint16_t aff[4] = { 16, 32, 64, 128 };
	butano_bgb_req r;
	unsigned w, h, affine, t32;

	if (rq->align > BUTANO_BGB_BLOCK_BYTES)
		return 0;
	if (rq->shape == VS_REQ_TILESET) {
		t32 = rq->u.tileset.count * (rq->u.tileset.bpp == 8 ? 2u : 1u);
		if (butano_bgb_tiles_req(&r, t32, rq->u.tileset.bpp == 8, rq->u.tileset.affine, 1))
			return 0;
		if (butano_tag(rq, arg) < 0)
			return -1;
		*arg |= vs_gba_bgb_tiles_desc(t32, rq->u.tileset.bpp == 8, rq->u.tileset.affine) << 16;
		return 1;
	}
	if (rq->shape == VS_REQ_CELLS) {
		w = rq->u.cells.width;
		h = rq->u.cells.height;
		affine = rq->u.cells.affine;
	} else if (rq->shape == VS_REQ_BGMAP) {
		affine = rq->u.bgmap.affine;
		w = affine ? aff[rq->u.bgmap.size & 3] : text_w[rq->u.bgmap.size & 3];
		h = affine ? w : text_h[rq->u.bgmap.size & 3];
	} else {
		return 0;
	}
	if (butano_bgb_map_req(&r, w, h, (int)affine))
		return 0;
	if (butano_tag(rq, arg) < 0)
		return -1;
	*arg |= vs_gba_bgb_map_desc(w, h, affine) << 16;
	return 1;
}

static void bgb_params(const void *st, uint32_t param[4])
{
	const vs_butano_bgb_state *s = st;

	param[0] = s->version | (uint32_t)s->max_items << 8 | (uint32_t)s->graphics << 16 |
		(uint32_t)s->compressed << 18 | (uint32_t)s->offset << 19;
}

static int bgb_host_hit(const void *st)
{
	return ((const vs_butano_bgb_state *)st)->found;
}

static uint32_t block_offset(uint32_t value)
{
	return (value & 0xFFu) * BUTANO_BGB_BLOCK_BYTES;
}

static uint32_t bst_offset(uint32_t value)
{
	return (value & 0xFFFFu) * VS_GBA_TILE_BYTES;
}

static int butano_hit(uint32_t value)
{
	return (value & VS_GBA_BG_HIT) != 0;
}

static const vs_gba_cycles_target targets[] = {
	{ "gba-obj-map", VS_GBA_STRAT_GBA_OBJ_MAP, objmap_encode, objmap_params, tile_offset, NULL, 0, 0, NULL },
	{ "gba-obj-first-fit", VS_GBA_STRAT_GBA_OBJ_FIRST_FIT, obj_encode, ff_params, tile_offset, NULL, 0, 0, NULL },
	{ "gba-obj-best-fit-end", VS_GBA_STRAT_GBA_OBJ_BEST_FIT, obj_encode, bf_params, tile_offset, NULL, 0, 0, NULL },
	{ "gba-obj-buddy", VS_GBA_STRAT_GBA_OBJ_BUDDY, obj_encode, buddy_params, tile_offset, NULL, 0, 0, NULL },
	{ "gba-obj-snug", VS_GBA_STRAT_GBA_OBJ_SNUG, obj_encode, snug_params, tile_offset, NULL, 0, 0, NULL },
	{ "gba-obj-ends", VS_GBA_STRAT_GBA_OBJ_ENDS, obj_encode, ends_params, tile_offset, NULL, 0, 0, NULL },
	{ "gba-obj-compact", VS_GBA_STRAT_GBA_OBJ_COMPACT, obj_encode, compact_params, compact_offset, NULL, 1, 0, NULL },
	{ "gba-bg-tiles", VS_GBA_STRAT_GBA_BG_TILES, bg_encode, bg_params, bg_offset, bg_hit, 0, 0, NULL },
	{ "gba-bg-tiles-split", VS_GBA_STRAT_GBA_BG_TILES_SPLIT, bg_encode, split_params, bg_offset, bg_hit, 0, 0, NULL },
	{ "butano-sprite-tiles", VS_GBA_STRAT_BUTANO_SPRITE_TILES, bst_encode, bst_params, bst_offset, butano_hit, 0,
		1, bst_host_hit },
	{ "butano-bg-blocks", VS_GBA_STRAT_BUTANO_BG_BLOCKS, bgb_encode, bgb_params, block_offset, butano_hit, 0, 1,
		bgb_host_hit },
};

const vs_gba_cycles_target *vs_gba_cycles_target_find(const char *strategy)
{
	size_t i;

	for (i = 0; i < sizeof targets / sizeof targets[0]; i++)
		if (strcmp(targets[i].name, strategy) == 0)
			return &targets[i];
	return NULL;
}

const char *vs_gba_cycles_target_name(const vs_gba_cycles_target *t)
{
	return t->name;
}

void vs_gba_cycles_target_list(char *buf, size_t len)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < sizeof targets / sizeof targets[0] && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "", targets[i].name);
}

uint32_t vs_gba_cycles_target_id(const vs_gba_cycles_target *t)
{
	return t->id;
}

uint32_t vs_gba_cycles_target_offset(const vs_gba_cycles_target *t, uint32_t value, int *hit)
{
	*hit = 0;
	if (value == VS_GBA_NONE)
		return VS_GBA_NONE;
	if (t->hit)
		*hit = t->hit(value);
	return t->offset(value);
}

/* ---- ids to the program's handle slots ---------------------------------- */

#define MAP_CAP (2u * VS_GBA_SLOTS) /* power of two, at most half full */
/* The last slot takes the results of allocations the host saw fail, so
 * they never overwrite a live handle; live ids get the others. */
#define SCRATCH_SLOT (VS_GBA_SLOTS - 1u)

struct vs_gba_cycles_slots {
	uint64_t key[MAP_CAP];
	uint16_t slot[MAP_CAP];
	uint8_t used[MAP_CAP];
	uint16_t spare[VS_GBA_SLOTS]; /* free slots, a stack */
	uint32_t nspare;
};

static void map_clear(vs_gba_cycles_slots *m)
{
	uint32_t i;

	memset(m->used, 0, sizeof m->used);
	for (i = 0; i < SCRATCH_SLOT; i++)
		m->spare[i] = (uint16_t)(SCRATCH_SLOT - 1 - i);
	m->nspare = SCRATCH_SLOT;
}

static uint32_t map_hash(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	return (uint32_t)k & (MAP_CAP - 1);
}

/* Returns the slot for a new live id, or -1 when all slots are taken. */
static int map_put(vs_gba_cycles_slots *m, uint64_t id)
{
	uint32_t h = map_hash(id);

	if (!m->nspare)
		return -1;
	while (m->used[h])
		h = (h + 1) & (MAP_CAP - 1);
	m->used[h] = 1;
	m->key[h] = id;
	m->slot[h] = m->spare[--m->nspare];
	return m->slot[h];
}

/* Removes id; returns its slot or -1. Backward-shift deletion keeps probe
 * chains whole without tombstones. */
static int map_take(vs_gba_cycles_slots *m, uint64_t id)
{
	uint32_t h = map_hash(id), j, k;
	int slot;

	while (m->used[h] && m->key[h] != id)
		h = (h + 1) & (MAP_CAP - 1);
	if (!m->used[h])
		return -1;
	slot = m->slot[h];
	m->spare[m->nspare++] = (uint16_t)slot;
	m->used[h] = 0;
	for (j = (h + 1) & (MAP_CAP - 1); m->used[j]; j = (j + 1) & (MAP_CAP - 1)) {
		k = map_hash(m->key[j]);
		/* move j back to h when its home is not within (h, j] */
		if ((j > h && (k <= h || k > j)) || (j < h && (k <= h && k > j))) {
			m->key[h] = m->key[j];
			m->slot[h] = m->slot[j];
			m->used[h] = 1;
			m->used[j] = 0;
			h = j;
		}
	}
	return slot;
}

/* ---- the request list, built while the host replays ------------------- */

vs_gba_cycles_list *vs_gba_cycles_list_new(void)
{
	vs_gba_cycles_list *l = calloc(1, sizeof *l);

	if (!l)
		return NULL;
	l->slots = malloc(sizeof *l->slots);
	if (!l->slots) {
		free(l);
		return NULL;
	}
	map_clear(l->slots);
	return l;
}

void vs_gba_cycles_list_free(vs_gba_cycles_list *l)
{
	if (!l)
		return;
	free(l->slots);
	free(l->rq);
	free(l->calls);
	free(l);
}

int vs_gba_cycles_list_aim(vs_gba_cycles_list *l, vs_replay *r, const char *arena)
{
	int i;

	l->arena = -1;
	for (i = 0; i < vs_replay_arena_count(r); i++) {
		const vs_strategy *s = vs_replay_strategy(r, i);

		if (arena && strcmp(vs_replay_arena(r, i)->decl.name, arena) != 0)
			continue;
		if (s && (l->t = vs_gba_cycles_target_find(s->name)) != NULL) {
			l->arena = i;
			l->t->params(vs_replay_strategy_state(r, i), l->param);
			break;
		}
	}
	return l->arena;
}

static int push(vs_gba_cycles_list *l, uint8_t op, uint16_t slot, uint32_t arg, const vs_event *ev,
	uint32_t expect, int shared)
{
	vs_gba_cycles_call *c;

	if (l->n == l->cap) {
		/* requests and calls grow together: both to the capacity l->cap gets */
		uint32_t rq_cap = l->cap;

		if (vs_grow_u32(&l->rq, sizeof *l->rq, &rq_cap, (size_t)l->n + 1, 1024) ||
			vs_grow_u32(&l->calls, sizeof *l->calls, &l->cap, (size_t)l->n + 1, 1024))
			return -1;
	}
	l->rq[l->n].op = op;
	l->rq[l->n].flags = 0;
	l->rq[l->n].slot = slot;
	l->rq[l->n].arg = arg;
	c = &l->calls[l->n];
	c->line = ev->line;
	c->id = ev->id;
	c->frame = l->frames;
	c->expect = expect;
	c->shared = (uint8_t)(shared != 0);
	c->digest = 0;
	c->nmoves = c->words = 0;
	l->n++;
	return 0;
}

/* The host's sprites after the request just pushed, and its moves. */
static void note_moves(vs_gba_cycles_list *l, vs_replay *r)
{
	const gba_obj_compact *m = vs_replay_strategy_state(r, l->arena);
	const gba_obj_compact_move *mv;
	vs_gba_cycles_call *c = &l->calls[l->n - 1];
	uint16_t n, i;

	if (!l->t->moves)
		return;
	c->digest = compact_digest(m);
	if (l->rq[l->n - 1].op == VS_GBA_OP_RESET)
		return; /* init leaves no moves */
	mv = gba_obj_compact_moves(m, &n);
	c->nmoves = n;
	for (i = 0; i < n; i++)
		c->words += mv[i].tiles * 8u;
}

/* Pushes a request and notes the host's moves after it; a list that
 * cannot grow is failed. */
static void add(vs_gba_cycles_list *l, vs_replay *r, uint8_t op, uint16_t slot, uint32_t arg,
	const vs_event *ev, uint32_t expect, int shared)
{
	if (push(l, op, slot, arg, ev, expect, shared))
		l->failed = 1;
	else
		note_moves(l, r);
}

static void on_alloc(vs_gba_cycles_list *l, vs_replay *r, const vs_outcome *o)
{
	const vs_event *ev = o->ev;
	uint32_t arg;
	int slot, enc, shared;

	if (ev->arena != l->arena || (!o->failed && !o->live))
		return; /* another arena, or misuse the strategy never saw */
	if ((enc = l->t->encode(&ev->req, &arg)) <= 0) {
		if (enc < 0) {
			snprintf(l->err, sizeof l->err, "line %llu: tag number %u does not fit the GBA's request (at most "
				"65535 tags)", (unsigned long long)ev->line, (unsigned)ev->req.tag);
			l->failed = 1;
		}
		l->skipped++;
		return;
	}
	slot = SCRATCH_SLOT;
	if (!o->failed && (slot = map_put(l->slots, ev->id)) < 0) {
		snprintf(l->err, sizeof l->err, "line %llu: more than %u live allocations",
			(unsigned long long)ev->line, SCRATCH_SLOT);
		l->failed = 1;
		return;
	}
	/* a hit joins the existing record (refs > 1); a record made from a
	 * shared placement (BG tile 0, never loaded) is one too */
	shared = !o->failed && (l->t->host_hit ? l->t->host_hit(vs_replay_strategy_state(r, l->arena)) :
		o->live->refs > 1 || o->live->pl.shared);
	add(l, r, VS_GBA_OP_ALLOC, (uint16_t)slot, arg, ev, o->failed ? VS_GBA_NONE : o->live->pl.offset, shared);
}

/* A reset or an init: the GBA re-initialises with the parameters the
 * host's strategy holds now (an init may give it new options): their
 * first word goes with the request. */
static void on_reset(vs_gba_cycles_list *l, vs_replay *r, const vs_event *ev)
{
	uint32_t param[4] = { 0, 0, 0, 0 };

	if (ev->arena >= 0 && ev->arena != l->arena)
		return;
	l->t->params(vs_replay_strategy_state(r, l->arena), param);
	map_clear(l->slots);
	add(l, r, VS_GBA_OP_RESET, 0, param[0], ev, 0, 0);
}

void vs_gba_cycles_observe(void *ud, vs_replay *r, const vs_outcome *o)
{
	vs_gba_cycles_list *l = ud;
	const vs_event *ev = o->ev;
	int slot;

	if (l->failed)
		return;
	switch (ev->type) {
	case VS_EV_FRAME:
		/* the strategy's frame call belongs to the frame it ends */
		if (l->t->moves || l->t->frames)
			add(l, r, VS_GBA_OP_FRAME, 0, 0, ev, 0, 0);
		l->frames++;
		return;
	case VS_EV_ALLOC:
		on_alloc(l, r, o);
		return;
	case VS_EV_FREE:
		if (ev->arena != l->arena || !o->live || (slot = map_take(l->slots, ev->id)) < 0)
			return; /* the strategy was not called */
		add(l, r, VS_GBA_OP_FREE, (uint16_t)slot, 0, ev, 0, 0);
		return;
	case VS_EV_RESET:
	case VS_EV_INIT:
		on_reset(l, r, ev);
		return;
	case VS_EV_SAVE:
	case VS_EV_RESTORE:
		if (ev->arena >= 0 && ev->arena != l->arena)
			return;
		snprintf(l->err, sizeof l->err, "line %llu: %s is not measured on the GBA yet",
			(unsigned long long)ev->line, vs_trace_event_name(ev->type));
		l->failed = 1;
		return;
	default:
		return;
	}
}
