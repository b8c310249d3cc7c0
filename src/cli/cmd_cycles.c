/* SPDX-License-Identifier: Zlib */
/* cmd_cycles.c - `vramsim cycles`: what each allocator call costs on the
 * GBA's CPU.
 *
 * The trace is replayed on the host (the usual replay, with its checks);
 * every call the host made into the chosen arena's strategy becomes a
 * request for the "cycles" GBA program, which replays them in libmgba with
 * the same allocator source built for the ARM7TDMI and times each call with
 * the hardware timers. The placements the GBA returned must equal the
 * host's; the cycle counts are summarised per operation and per frame.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "vramsim/alloc/gba_bg_tiles.h"
#include "vramsim/alloc/gba_bg_tiles_split.h"
#include "vramsim/alloc/gba_obj_best_fit.h"
#include "vramsim/alloc/gba_obj_buddy.h"
#include "vramsim/alloc/gba_obj_compact.h"
#include "vramsim/alloc/gba_obj_ends.h"
#include "vramsim/alloc/gba_obj_first_fit.h"
#include "vramsim/alloc/gba_obj_map.h"
#include "vramsim/alloc/gba_obj_snug.h"
#include "vramsim/gba_emu.h"
#include "vramsim/grow.h"
#include "../strategies/strategies.h"
#include "../strategies/gba/strat_gba.h" /* the adapters' request arithmetic, shared */

int vs_cmd_cycles(int argc, char **argv);

/* ---- allocators the cycles ROM carries -------------------------------- */

typedef struct target {
	const char *name;   /* host strategy name */
	uint32_t id;        /* VS_GBA_STRAT_* */
	/* The target argument for a request; 0 when the host adapter refuses
	 * the request without calling the allocator (nothing to time). */
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
} target;

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

	if (rq->shape == VS_REQ_BGMAP) {
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

static const target targets[] = {
	{ "gba-obj-map", VS_GBA_STRAT_GBA_OBJ_MAP, objmap_encode, objmap_params, tile_offset, NULL, 0 },
	{ "gba-obj-first-fit", VS_GBA_STRAT_GBA_OBJ_FIRST_FIT, obj_encode, ff_params, tile_offset, NULL, 0 },
	{ "gba-obj-best-fit", VS_GBA_STRAT_GBA_OBJ_BEST_FIT, obj_encode, bf_params, tile_offset, NULL, 0 },
	{ "gba-obj-buddy", VS_GBA_STRAT_GBA_OBJ_BUDDY, obj_encode, buddy_params, tile_offset, NULL, 0 },
	{ "gba-obj-snug", VS_GBA_STRAT_GBA_OBJ_SNUG, obj_encode, snug_params, tile_offset, NULL, 0 },
	{ "gba-obj-ends", VS_GBA_STRAT_GBA_OBJ_ENDS, obj_encode, ends_params, tile_offset, NULL, 0 },
	{ "gba-obj-compact", VS_GBA_STRAT_GBA_OBJ_COMPACT, obj_encode, compact_params, compact_offset, NULL, 1 },
	{ "gba-bg-tiles", VS_GBA_STRAT_GBA_BG_TILES, bg_encode, bg_params, bg_offset, bg_hit, 0 },
	{ "gba-bg-tiles-split", VS_GBA_STRAT_GBA_BG_TILES_SPLIT, bg_encode, split_params, bg_offset, bg_hit, 0 },
};

static const target *target_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof targets / sizeof targets[0]; i++)
		if (strcmp(targets[i].name, name) == 0)
			return &targets[i];
	return NULL;
}

static void target_list(char *buf, size_t len)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < sizeof targets / sizeof targets[0] && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "", targets[i].name);
}

/* ---- ids to the program's handle slots ---------------------------------- */

#define MAP_CAP (2u * VS_GBA_SLOTS) /* power of two, at most half full */
/* The last slot takes the results of allocations the host saw fail, so
 * they never overwrite a live handle; live ids get the others. */
#define SCRATCH_SLOT (VS_GBA_SLOTS - 1u)

typedef struct slot_map {
	uint64_t key[MAP_CAP];
	uint16_t slot[MAP_CAP];
	uint8_t used[MAP_CAP];
	uint16_t spare[VS_GBA_SLOTS]; /* free slots, a stack */
	uint32_t nspare;
} slot_map;

static void map_clear(slot_map *m)
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
static int map_put(slot_map *m, uint64_t id)
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
static int map_take(slot_map *m, uint64_t id)
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

typedef struct call {
	uint64_t line;     /* trace line */
	uint64_t id;
	uint32_t frame;    /* frame markers seen before it */
	uint32_t expect;   /* host result: arena offset, or VS_GBA_NONE */
	uint8_t shared;    /* host result was a hit on data already loaded */
	/* allocators that move sprites: the host's digest after the call, and
	 * the moves it made (how many, 32-bit words) */
	uint32_t digest, nmoves, words;
} call;

typedef struct builder {
	const target *t;
	int arena;
	slot_map map;
	vs_gba_req *rq;
	call *calls;
	uint32_t n, cap;
	uint32_t frames;
	uint32_t skipped;   /* requests the host adapter refused uncalled */
	uint32_t param[4];  /* init parameters, from the host state before the replay */
	int failed;
	char err[512];
} builder;

static int push(builder *b, uint8_t op, uint16_t slot, uint32_t arg, const vs_event *ev, uint32_t expect,
	int shared)
{
	if (b->n == b->cap) {
		/* requests and calls grow together: both to the capacity b->cap gets */
		uint32_t rq_cap = b->cap;

		if (vs_grow_u32(&b->rq, sizeof *b->rq, &rq_cap, (size_t)b->n + 1, 1024) ||
			vs_grow_u32(&b->calls, sizeof *b->calls, &b->cap, (size_t)b->n + 1, 1024))
			return -1;
	}
	b->rq[b->n].op = op;
	b->rq[b->n].flags = 0;
	b->rq[b->n].slot = slot;
	b->rq[b->n].arg = arg;
	b->calls[b->n].line = ev->line;
	b->calls[b->n].id = ev->id;
	b->calls[b->n].frame = b->frames;
	b->calls[b->n].expect = expect;
	b->calls[b->n].shared = (uint8_t)(shared != 0);
	b->calls[b->n].digest = 0;
	b->calls[b->n].nmoves = b->calls[b->n].words = 0;
	b->n++;
	return 0;
}

/* The host's sprites after the request just pushed, and its moves. */
static void note_moves(builder *b, vs_replay *r)
{
	const gba_obj_compact *m = vs_replay_strategy_state(r, b->arena);
	const gba_obj_compact_move *mv;
	call *c = &b->calls[b->n - 1];
	uint16_t n, i;

	if (!b->t->moves)
		return;
	c->digest = compact_digest(m);
	if (b->rq[b->n - 1].op == VS_GBA_OP_RESET)
		return; /* init leaves no moves */
	mv = gba_obj_compact_moves(m, &n);
	c->nmoves = n;
	for (i = 0; i < n; i++)
		c->words += mv[i].tiles * 8u;
}

static void observe(void *ud, vs_replay *r, const vs_outcome *o)
{
	builder *b = ud;
	const vs_event *ev = o->ev;
	uint32_t arg, param[4] = { 0, 0, 0, 0 };
	int slot;

	if (b->failed)
		return;
	switch (ev->type) {
	case VS_EV_FRAME:
		/* the strategy's frame call belongs to the frame it ends */
		if (b->t->moves) {
			if (push(b, VS_GBA_OP_FRAME, 0, 0, ev, 0, 0))
				b->failed = 1;
			else
				note_moves(b, r);
		}
		b->frames++;
		return;
	case VS_EV_ALLOC:
		if (ev->arena != b->arena || (!o->failed && !o->live))
			return; /* another arena, or misuse the strategy never saw */
		if (!b->t->encode(&ev->req, &arg)) {
			b->skipped++;
			return;
		}
		slot = SCRATCH_SLOT;
		if (!o->failed && (slot = map_put(&b->map, ev->id)) < 0) {
			snprintf(b->err, sizeof b->err, "line %llu: more than %u live allocations",
				(unsigned long long)ev->line, SCRATCH_SLOT);
			b->failed = 1;
			return;
		}
		/* a hit joins the existing record (refs > 1); a record made from a
		 * shared placement (BG tile 0, never loaded) is one too */
		if (push(b, VS_GBA_OP_ALLOC, (uint16_t)slot, arg, ev, o->failed ? VS_GBA_NONE : o->live->pl.offset,
			!o->failed && (o->live->refs > 1 || o->live->pl.shared)))
			b->failed = 1;
		else
			note_moves(b, r);
		return;
	case VS_EV_FREE:
		if (ev->arena != b->arena || !o->live || (slot = map_take(&b->map, ev->id)) < 0)
			return; /* the strategy was not called */
		if (push(b, VS_GBA_OP_FREE, (uint16_t)slot, 0, ev, 0, 0))
			b->failed = 1;
		else
			note_moves(b, r);
		return;
	case VS_EV_RESET:
	case VS_EV_INIT:
		if (ev->arena >= 0 && ev->arena != b->arena)
			return;
		/* the GBA re-initialises with the parameters the host's strategy
		 * holds now (an init may give it new options): their first word
		 * goes with the request */
		b->t->params(vs_replay_strategy_state(r, b->arena), param);
		map_clear(&b->map);
		if (push(b, VS_GBA_OP_RESET, 0, param[0], ev, 0, 0))
			b->failed = 1;
		else
			note_moves(b, r);
		return;
	case VS_EV_SAVE:
	case VS_EV_RESTORE:
		if (ev->arena >= 0 && ev->arena != b->arena)
			return;
		snprintf(b->err, sizeof b->err, "line %llu: %s is not measured on the GBA yet",
			(unsigned long long)ev->line, vs_event_name(ev->type));
		b->failed = 1;
		return;
	default:
		return;
	}
}

/* ---- statistics ----------------------------------------------------------- */

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Nearest-rank percentile of sorted v[0..n). */
static uint32_t rank(const uint32_t *v, uint32_t n, uint32_t pct)
{
	uint64_t k = ((uint64_t)n * pct + 99) / 100;

	return v[k ? k - 1 : 0];
}

static double share(double cycles, uint32_t of)
{
	return 100.0 * cycles / of;
}

static void print_ops(const builder *b, const vs_gba_result *res)
{
	static const struct { uint8_t op; const char *name; } ops[] = {
		{ VS_GBA_OP_ALLOC, "alloc" }, { VS_GBA_OP_FREE, "free" }, { VS_GBA_OP_RESET, "reset" },
		{ VS_GBA_OP_FRAME, "frame" }
	};
	uint32_t *v = malloc((b->n ? b->n : 1) * sizeof *v);
	size_t k;

	if (!v)
		return;
	printf("%-6s %8s %9s %9s %9s %9s %11s %11s\n", "op", "calls", "mean", "median", "p99", "max",
		"mean/frame", "max/frame");
	for (k = 0; k < sizeof ops / sizeof ops[0]; k++) {
		uint32_t n = 0, i;
		uint64_t sum = 0;
		double mean;

		for (i = 0; i < b->n; i++)
			if (b->rq[i].op == ops[k].op) {
				v[n++] = res[i].cycles;
				sum += res[i].cycles;
			}
		if (!n)
			continue;
		qsort(v, n, sizeof *v, cmp_u32);
		mean = (double)sum / n;
		printf("%-6s %8u %9.0f %9u %9u %9u %10.3f%% %10.3f%%\n", ops[k].name, (unsigned)n, mean,
			(unsigned)rank(v, n, 50), (unsigned)rank(v, n, 99), (unsigned)v[n - 1],
			share(mean, VS_GBA_FRAME_CYCLES), share(v[n - 1], VS_GBA_FRAME_CYCLES));
	}
	free(v);
}

static void print_frames(const builder *b, const vs_gba_result *res)
{
	uint64_t cur = 0, worst = 0, worst_line = 0, line = 0;
	uint32_t i, f = 0, worst_f = 0;

	if (!b->frames) {
		printf("frames: the trace has no frame markers\n");
		return;
	}
	for (i = 0; i <= b->n; i++) {
		if (i == b->n || b->calls[i].frame != f) {
			if (cur > worst) {
				worst = cur;
				worst_f = f;
				worst_line = line;
			}
			if (i == b->n)
				break;
			f = b->calls[i].frame;
			line = b->calls[i].line;
			cur = 0;
		}
		if (i == 0)
			line = b->calls[0].line;
		cur += res[i].cycles;
	}
	/* frame N counts the calls after the N-th marker (0: before the first) */
	printf("frames: %u markers; worst frame: after marker %u (its first call at line %llu): %llu "
		"allocator cycles = %.2f%% of a frame (%u cycles), %.2f%% of VBlank (%u cycles)\n",
		(unsigned)b->frames, (unsigned)worst_f, (unsigned long long)worst_line, (unsigned long long)worst, share((double)worst, VS_GBA_FRAME_CYCLES), VS_GBA_FRAME_CYCLES,
		share((double)worst, VS_GBA_VBLANK_CYCLES), VS_GBA_VBLANK_CYCLES);
}

/* One row of the moves table: calls, mean, median, max, max / VBlank and
 * the model's mean and max for the same moves. v and model hold n values. */
static void moves_row(const char *name, uint32_t *v, uint32_t *model, uint32_t n)
{
	uint64_t sum = 0, msum = 0;
	uint32_t i, mmax = 0;

	for (i = 0; i < n; i++) {
		sum += v[i];
		msum += model[i];
		if (model[i] > mmax)
			mmax = model[i];
	}
	qsort(v, n, sizeof *v, cmp_u32);
	printf("%-6s %8u %9.0f %9u %9u %10.2f%% %11.0f %10u\n", name, (unsigned)n, (double)sum / n,
		(unsigned)rank(v, n, 50), (unsigned)v[n - 1], share(v[n - 1], VS_GBA_VBLANK_CYCLES), (double)msum / n,
		(unsigned)mmax);
}

/* The moves carried out by DMA3 on the GBA: per request that moved
 * sprites and per frame, measured beside the cost model (docs/gba.md). */
static void print_moves(const builder *b, const vs_gba_result *mres, const vs_gba_cycles_info *info)
{
	uint32_t *v = malloc((b->n ? b->n : 1) * sizeof *v), *model = malloc((b->n ? b->n : 1) * sizeof *model);
	uint32_t i, nb = 0, nf = 0, moves = 0, f = 0, fcur = 0, fmodel = 0;
	uint64_t words = 0, measured = 0;
	double pv = (info->dma_vram1024 - (double)info->dma_vram8) / 1016.0;
	double pr = (info->dma_rom1024 - (double)info->dma_rom8) / 1016.0;

	if (!v || !model)
		goto done;
	for (i = 0; i < b->n; i++) {
		if (!b->calls[i].nmoves)
			continue;
		v[nb] = mres[i].cycles;
		model[nb++] = vs_cycles_traffic(b->calls[i].words, b->calls[i].nmoves, 0);
		moves += b->calls[i].nmoves;
		words += b->calls[i].words;
		measured += mres[i].cycles;
	}
	printf("moves: %u sprites moved by DMA3 inside VRAM in %u calls, %llu words (32-bit); "
		"measured %llu cycles, the model %llu (%u a word + %u a move): measured / model %.3f\n", (unsigned)moves,
		(unsigned)nb, (unsigned long long)words, (unsigned long long)measured,
		(unsigned long long)vs_cycles_traffic(words, moves, 0), VS_CYCLES_MOVE_WORD, VS_CYCLES_MOVE_EACH,
		words ? (double)measured / (double)vs_cycles_traffic(words, moves, 0) : 0.0);
	printf("DMA3 measured at start-up: VRAM to VRAM %.2f cycles a word + %.0f a transfer (model %u); "
		"ROM to VRAM %.2f a word + %.0f (model %u)\n", pv, info->dma_vram8 - 8 * pv, VS_CYCLES_MOVE_WORD, pr,
		info->dma_rom8 - 8 * pr, VS_CYCLES_UPLOAD_WORD);
	if (!nb)
		goto done;
	printf("%-6s %8s %9s %9s %9s %11s %11s %10s\n", "moves", "calls", "mean", "median", "max", "max/VBlank",
		"model mean", "model max");
	moves_row("call", v, model, nb);
	if (!b->frames)
		goto done;
	/* per frame: the moves of its calls and of the frame call ending it */
	for (i = 0; i <= b->n; i++) {
		if (i == b->n || b->calls[i].frame != f) {
			if (fmodel) {
				v[nf] = fcur;
				model[nf++] = fmodel;
			}
			if (i == b->n)
				break;
			f = b->calls[i].frame;
			fcur = fmodel = 0;
		}
		if (b->calls[i].nmoves) {
			fcur += mres[i].cycles;
			fmodel += vs_cycles_traffic(b->calls[i].words, b->calls[i].nmoves, 0);
		}
	}
	moves_row("frame", v, model, nf);
done:
	free(v);
	free(model);
}

/* "the alloc of id 7", "the frame": request i for a message. */
static const char *what_call(const builder *b, uint32_t i, char *buf, size_t len)
{
	static const char *const what[] = { "nop", "alloc", "free", "reset", "frame" };
	uint8_t op = b->rq[i].op;

	if (op == VS_GBA_OP_ALLOC || op == VS_GBA_OP_FREE)
		snprintf(buf, len, "the %s of id %llu", what[op], (unsigned long long)b->calls[i].id);
	else
		snprintf(buf, len, "the %s", op < 5 ? what[op] : "request");
	return buf;
}

/* Compares where the GBA's sprites sit after each request (the digest of
 * every live slot's start) with the host's. Returns the mismatches. */
static uint32_t compare_moves(const builder *b, const vs_gba_result *mres, const char *trace)
{
	uint32_t i, bad = 0;

	for (i = 0; i < b->n; i++) {
		char w[64];

		if (mres[i].value == b->calls[i].digest)
			continue;
		if (bad++ < 10)
			fprintf(stderr, "%s:%llu: error: after %s (and its %u moves on the host), the GBA's sprites "
				"sit elsewhere than the host's\n", trace, (unsigned long long)b->calls[i].line,
				what_call(b, i, w, sizeof w), (unsigned)b->calls[i].nmoves);
	}
	return bad;
}

/* Compares the GBA's placements with the host's (and, for the tile
 * managers, whether each was a hit on a loaded tile). Returns the
 * mismatches. */
static uint32_t compare(const builder *b, const vs_gba_result *res, const char *trace, const vs_arena_decl *a)
{
	uint32_t i, bad = 0;

	for (i = 0; i < b->n; i++) {
		uint32_t got;
		int hit = 0;

		if (b->rq[i].op != VS_GBA_OP_ALLOC)
			continue;
		got = res[i].value == VS_GBA_NONE ? VS_GBA_NONE : b->t->offset(res[i].value);
		if (got != VS_GBA_NONE && b->t->hit)
			hit = b->t->hit(res[i].value);
		if (got == b->calls[i].expect && (got == VS_GBA_NONE || hit == b->calls[i].shared))
			continue;
		if (bad++ < 10) {
			char g[48], h[48];

			if (got == VS_GBA_NONE)
				snprintf(g, sizeof g, "nothing (failed)");
			else
				snprintf(g, sizeof g, "0x%08x%s", (unsigned)(a->base + got), hit ? " (a hit)" : "");
			if (b->calls[i].expect == VS_GBA_NONE)
				snprintf(h, sizeof h, "nothing (failed)");
			else
				snprintf(h, sizeof h, "0x%08x%s", (unsigned)(a->base + b->calls[i].expect),
					b->calls[i].shared ? " (a hit)" : "");
			fprintf(stderr, "%s:%llu: error: id %llu: the GBA placed it at %s, the host at %s\n", trace,
				(unsigned long long)b->calls[i].line, (unsigned long long)b->calls[i].id, g, h);
		}
	}
	return bad;
}

/* ---- the command -------------------------------------------------------------- */

#define CMD "cycles"

static void gba_notes(FILE *fp, int part)
{
	char list[256], status[1536];

	if (part != 1)
		return;
	target_list(list, sizeof list);
	vs_gba_status(status, sizeof status);
	fprintf(fp, "\n"
		"strategies with a GBA build: %s\n"
		"needs: libmgba (libmgba-dev) and arm-none-eabi-gcc (gcc-arm-none-eabi) at build\n"
		"time; VRAMSIM_GBA_ROM_DIR overrides where the cycles ROMs are found.\n"
		"%s", list, status);
}

enum { O_ARENA = VS_CLI_LONG, O_CODE, O_MAX_FRAMES };

static const vs_cli_opt options[] = {
	{ "strategy", 's', "NAME", "the strategy to measure, NAME[:OPTS] (default: the arena's)" },
	{ "arena", O_ARENA, "NAME", "the arena to measure (default: the first whose strategy has a GBA build)" },
	{ "code", O_CODE, "thumb|arm|both", "Thumb code in ROM (default, as games build), ARM code "
		"in IWRAM, or both" },
	{ "max-frames", O_MAX_FRAMES, "N", "stop the emulated GBA after N frames (default: one per "
		"call, plus 120)" },
	{ "plugin", VS_CLI_PLUGIN, "PATH", "load strategies from a plug-in (host side only)" },
	{ NULL, 0, NULL, NULL }
};

static const vs_cli_cmd command = {
	CMD, "cycles TRACE [--strategy NAME] [options]",
	"Replays TRACE on the host, then replays the same allocator calls on an emulated\n"
	"GBA (libmgba, no BIOS, no window) with the allocator code built for the ARM7TDMI,\n"
	"timing every call with timer 0 (prescaler 1) cascading into timer 1. Prints the\n"
	"cycles per call by operation (mean, median, 99th percentile, max, and as a share\n"
	"of a 280,896-cycle frame) and, for traces with frame markers, the worst frame's\n"
	"allocator cycles as a share of the frame and of VBlank (83,776 cycles). The\n"
	"placements the GBA returned must equal the host replay's.\n"
	"\n"
	"An allocator that moves sprites (gba-obj-compact) also gets each frame marker\n"
	"(its frame call); the GBA carries out every move by DMA3 inside VRAM, timed\n"
	"apart from the calls, checks the bytes of every sprite moved, and must leave\n"
	"every sprite where the host's replay has it after each call. The moves' cycles\n"
	"per call and per frame are printed beside the cost model's (4 cycles a word\n"
	"and 64 a move), with DMA3's cost per word as measured at start-up.\n",
	options,
	"exit: 0 measured and equal, 1 the GBA's placements differ from the host's or a\n"
	"check failed, 2 bad usage, a malformed trace, no emulator or no ROM.\n",
	gba_notes, 0
};

typedef struct cycles_opts {
	const char *path, *arena, *strategy;
	int code_lo, code_hi;
	uint32_t max_frames;
} cycles_opts;

/* One option or operand into o: -1 to go on, or an exit status. */
static int take(void *ud, const vs_cli_parser *p, int c)
{
	cycles_opts *o = ud;
	uint64_t v;

	switch (c) {
	case 's':
		o->strategy = p->arg;
		return -1;
	case O_ARENA:
		o->arena = p->arg;
		return -1;
	case O_CODE:
		if (strcmp(p->arg, "thumb") == 0)
			o->code_lo = o->code_hi = VS_GBA_CODE_THUMB_ROM;
		else if (strcmp(p->arg, "arm") == 0)
			o->code_lo = o->code_hi = VS_GBA_CODE_ARM_IWRAM;
		else if (strcmp(p->arg, "both") == 0)
			o->code_lo = VS_GBA_CODE_THUMB_ROM, o->code_hi = VS_GBA_CODE_ARM_IWRAM;
		else
			return vs_cli_usage_error(CMD, "--code: '%s' is not thumb, arm or both", p->arg);
		return -1;
	case O_MAX_FRAMES:
		if (vs_cli_uint(p, 1, 0xFFFFFFFFu, &v))
			return VS_EXIT_USAGE;
		o->max_frames = (uint32_t)v;
		return -1;
	}
	if (o->path)
		return vs_cli_usage_error(CMD, "one trace at a time (got '%s' and '%s')", o->path, p->arg);
	o->path = p->arg;
	return -1;
}

static int parse(int argc, char **argv, cycles_opts *o)
{
	int rc;

	memset(o, 0, sizeof *o);
	o->code_lo = o->code_hi = VS_GBA_CODE_THUMB_ROM;
	if ((rc = vs_cli_parse(&command, argc, argv, take, o)) >= 0)
		return rc;
	return o->path ? -1 : vs_cli_usage_error(CMD, "no trace given");
}

/* Applies --strategy (one choice; --arena names its arena) to cfg: 0, or
 * a usage error's exit status. */
static int choose(const cycles_opts *o, const vs_trace_header *h, vs_replay_config *cfg,
	char opts[][VS_OPTIONS_MAX])
{
	vs_cli_choices cs;
	char err[1024];
	int rc;

	if (!o->strategy)
		return 0;
	memset(&cs, 0, sizeof cs);
	rc = vs_cli_choices_add(CMD, &cs, o->strategy) || vs_cli_choices_split(CMD, &cs) ? VS_EXIT_USAGE : 0;
	if (!rc && cs.n != 1)
		rc = vs_cli_usage_error(CMD, "--strategy %s: one strategy at a time", o->strategy);
	if (!rc && o->arena && !cs.v[0].arena[0])
		snprintf(cs.v[0].arena, sizeof cs.v[0].arena, "%s", o->arena);
	if (!rc && vs_cli_apply_choices(cs.v, 1, h, cfg, opts, err, sizeof err))
		rc = vs_cli_usage_error(CMD, "%s", err);
	vs_cli_choices_free(&cs);
	return rc;
}

static int run_code(const builder *b, int code, const char *trace, const vs_arena_decl *a, uint32_t max_frames)
{
	char rom[1024], err[1024];
	uint32_t bad, i, per = VS_GBA_RESULTS_PER_REQ(b->t->id);
	vs_gba_result *res, *mres = NULL;
	vs_gba_cycles_info info;

	if (!vs_gba_cycles_rom(code, rom, sizeof rom, err, sizeof err)) {
		fprintf(stderr, "vramsim cycles: %s\n", err);
		return VS_EXIT_USAGE;
	}
	res = calloc(b->n ? (size_t)b->n * per : 1, sizeof *res);
	if (!res) {
		fprintf(stderr, "vramsim cycles: out of memory\n");
		return VS_EXIT_USAGE;
	}
	memset(&info, 0, sizeof info);
	if (vs_gba_cycles_run(rom, b->t->id, b->param, b->rq, b->n, res, &info, max_frames, err, sizeof err)) {
		free(res);
		if (info.error == VS_GBA_E_BYTES && info.error_index <= b->n) {
			/* a check on the GBA failed: a difference like the others */
			char w[64];

			if (info.error_index == b->n)
				fprintf(stderr, "%s: error: at the end, a live sprite's bytes in the GBA's VRAM are not "
					"those written\n", trace);
			else
				fprintf(stderr, "%s:%llu: error: after %s, a sprite's bytes in the GBA's VRAM are not those "
					"written before it moved\n", trace, (unsigned long long)b->calls[info.error_index].line,
					what_call(b, info.error_index, w, sizeof w));
			return VS_EXIT_CHECK;
		}
		fprintf(stderr, "vramsim cycles: %s\n", err);
		return VS_EXIT_USAGE;
	}
	printf("\nGBA: ARM7TDMI at 16.78 MHz, %s, WAITCNT=0x%04x, timing overhead %u/%u/%u cycles "
		"(2/3/4-argument call) subtracted; %u frames emulated\n",
		info.code == VS_GBA_CODE_ARM_IWRAM ? "allocator code ARM in IWRAM" : "allocator code Thumb in ROM",
		(unsigned)info.waitcnt, (unsigned)info.overhead, (unsigned)info.overhead3, (unsigned)info.overhead4,
		(unsigned)info.frames);
	if (per == 2) {
		/* the call's result, then its moves': split them */
		mres = malloc((b->n ? b->n : 1) * sizeof *mres);
		if (!mres) {
			fprintf(stderr, "vramsim cycles: out of memory\n");
			free(res);
			return VS_EXIT_USAGE;
		}
		for (i = 0; i < b->n; i++) {
			mres[i] = res[2 * i + 1];
			res[i] = res[2 * i];
		}
	}
	print_ops(b, res);
	print_frames(b, res);
	if (mres)
		print_moves(b, mres, &info);
	bad = compare(b, res, trace, a);
	if (mres)
		bad += compare_moves(b, mres, trace);
	if (bad)
		printf("placements: %u of the GBA's allocations differ from the host replay\n", (unsigned)bad);
	else
		printf("placements: the GBA's equal the host replay's (%u calls%s)\n", (unsigned)b->n,
			mres ? ", and every sprite's place after each call and its moves" : "");
	free(res);
	free(mres);
	return bad ? VS_EXIT_CHECK : VS_EXIT_OK;
}

/* The cycles ROMs for the code asked for: 0 when all are there. */
static int roms_missing(const cycles_opts *o)
{
	char rom[1024], err[1024];
	FILE *fp;
	int i;

	for (i = o->code_lo; i <= o->code_hi; i++) {
		if (!vs_gba_cycles_rom(i, rom, sizeof rom, err, sizeof err)) {
			fprintf(stderr, "vramsim cycles: %s\n", err);
			return -1;
		}
		if (!(fp = fopen(rom, "rb"))) {
			fprintf(stderr, "vramsim cycles: no cycles ROM at %s: build the vs_gba_roms target "
				"(needs gcc-arm-none-eabi) or set VRAMSIM_GBA_ROM_DIR\n", rom);
			return -1;
		}
		fclose(fp);
	}
	return 0;
}

int vs_cmd_cycles(int argc, char **argv)
{
	cycles_opts o;
	int i, rc, status = VS_EXIT_OK;
	vs_replay_config cfg;
	char opts[VS_TRACE_MAX_ARENAS][VS_OPTIONS_MAX], err[1024], list[256];
	const vs_trace_header *h;
	vs_trace_reader *rd;
	vs_replay *r;
	builder *b;

	if ((rc = parse(argc, argv, &o)) >= 0)
		return rc;
	vs_replay_config_default(&cfg);
	if (!vs_gba_emu_available()) {
		fprintf(stderr, "vramsim cycles: %s\n", vs_gba_emu_missing());
		return VS_EXIT_USAGE;
	}
	if (roms_missing(&o))
		return VS_EXIT_USAGE;
	rd = vs_trace_open(o.path, err, sizeof err);
	if (!rd) {
		fprintf(stderr, "%s\n", err);
		return VS_EXIT_USAGE;
	}
	h = vs_trace_header_of(rd);
	if (o.arena && vs_trace_arena_index(h, o.arena) < 0) {
		vs_trace_close(rd);
		return vs_cli_usage_error(CMD, "the trace has no arena '%s'", o.arena);
	}
	if (choose(&o, h, &cfg, opts)) {
		vs_trace_close(rd);
		return VS_EXIT_USAGE;
	}
	b = calloc(1, sizeof *b);
	if (!b) {
		vs_trace_close(rd);
		fprintf(stderr, "vramsim cycles: out of memory\n");
		return VS_EXIT_USAGE;
	}
	map_clear(&b->map);
	cfg.observer = observe;
	cfg.observer_ud = b;
	r = vs_replay_new(rd, &cfg, err, sizeof err);
	if (!r) {
		fprintf(stderr, "vramsim cycles: %s\n", err);
		free(b);
		return VS_EXIT_USAGE;
	}
	/* The arena to measure: named, or the first with a GBA build. */
	b->arena = -1;
	for (i = 0; i < vs_replay_arena_count(r); i++) {
		const vs_strategy *s = vs_replay_strategy(r, i);

		if (o.arena && strcmp(vs_replay_arena(r, i)->decl.name, o.arena) != 0)
			continue;
		if (s && target_find(s->name)) {
			b->arena = i;
			b->t = target_find(s->name);
			break;
		}
	}
	target_list(list, sizeof list);
	if (b->arena < 0) {
		const vs_strategy *s = o.arena ? vs_replay_strategy(r, vs_trace_arena_index(h, o.arena)) : NULL;

		if (o.strategy || s)
			fprintf(stderr, "vramsim cycles: %s has no GBA build yet (GBA builds: %s)\n",
				s ? s->name : o.strategy, list);
		else
			fprintf(stderr, "vramsim cycles: no arena of %s uses a strategy with a GBA build (%s); "
				"choose one with --strategy\n", o.path, list);
		vs_replay_free(r);
		free(b);
		return VS_EXIT_USAGE;
	}
	b->t->params(vs_replay_strategy_state(r, b->arena), b->param);
	rc = vs_replay_run(r, 0);
	if (rc < 0 || b->failed) {
		fprintf(stderr, "%s%s%s\n", rc < 0 ? vs_replay_error(r) : o.path, rc < 0 ? "" : ": error: ",
			rc < 0 ? "" : b->err);
		status = VS_EXIT_USAGE;
		goto done;
	}
	printf("cycles %s: arena %s (%s), strategy %s, %u calls measured", o.path,
		vs_replay_arena(r, b->arena)->decl.name, vs_arena_kind_name(vs_replay_arena(r, b->arena)->decl.kind),
		b->t->name, (unsigned)b->n);
	if (b->skipped)
		printf(" (%u requests the strategy refused without a call)", (unsigned)b->skipped);
	printf("\n");
	if (vs_replay_check_total(r)) {
		fprintf(stderr, "vramsim cycles: the host replay failed %llu integrity checks\n",
			(unsigned long long)vs_replay_check_total(r));
		status = VS_EXIT_CHECK;
	}
	for (i = o.code_lo; i <= o.code_hi; i++) {
		int s = run_code(b, i, o.path, &vs_replay_arena(r, b->arena)->decl, o.max_frames);

		if (s > status)
			status = s;
		if (s == VS_EXIT_USAGE)
			break;
	}
done:
	vs_replay_free(r);
	free(b->rq);
	free(b->calls);
	free(b);
	return status;
}
