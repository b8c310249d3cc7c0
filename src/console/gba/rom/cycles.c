/* SPDX-License-Identifier: Zlib */
/* cycles.c - the "cycles" GBA program: replays a request list through an
 * allocator and times every call.
 *
 * The request block sits at __rom_end (the host appends it to the ROM
 * image); results go to the mailbox at the start of EWRAM (gba_cycles.h).
 * A call is timed as the DS program times it (console/common/rom/rom_timer.h:
 * timer 0 at prescaler 1, a count of CPU cycles, cascading into timer 1).
 * The cost of timing an empty function with the same signature, placed
 * like the allocator code, is measured at start-up and subtracted, so a
 * result is what the call itself costs.
 */
#include <stdint.h>

#include "gba_hw.h"
#include "cycles_noop.h"
#include "console/common/rom/rom_timer.h"
#include "console/gba/gba_cycles.h"
#include "vramsim/record.h"
#include "vramsim/alloc/gba_obj_map.h"
#include "vramsim/alloc/gba_obj_first_fit.h"
#include "vramsim/alloc/gba_obj_best_fit.h"
#include "vramsim/alloc/gba_obj_buddy.h"
#include "vramsim/alloc/gba_obj_snug.h"
#include "vramsim/alloc/gba_obj_ends.h"
#include "vramsim/alloc/gba_bg_tiles.h"
#include "vramsim/alloc/gba_bg_tiles_split.h"
#include "vramsim/alloc/gba_obj_compact.h"
#include "vramsim/alloc/butano_sprite_tiles.h"
#include "vramsim/alloc/butano_bg_blocks.h"
#include "vramsim/sprite_handles.h"

#ifndef VS_GBA_CODE
#define VS_GBA_CODE VS_GBA_CODE_THUMB_ROM
#endif
/* A deliberately wrong build for the tests (gba/skew/): gba-obj-map
 * answers every successful allocation this many blocks off; gba-obj-compact
 * skips its frame-boundary slide and spoils one word of the first sprite in
 * each batch of moves: the host's comparison and the bytes check must catch
 * them. 0 in every real build. */
#ifndef VS_GBA_CYCLES_SKEW
#define VS_GBA_CYCLES_SKEW 0u
#endif

int main(void);

extern const uint32_t __rom_end[]; /* word-aligned: read the block with word loads */

#define MB ((volatile vs_gba_mailbox *)VS_GBA_MAILBOX_ADDR)

/* The mailbox layout is fixed by the linker script; keep them in step. */
typedef char mailbox_size_check[sizeof(vs_gba_mailbox) == 0x20100 ? 1 : -1];
typedef char results_offset_check[
	__builtin_offsetof(vs_gba_mailbox, results) == VS_GBA_MB_OFF_RESULTS ? 1 : -1];

/* Allocator state as a game keeps it: the small OBJ managers (at most
 * 3.8 KiB, gba-obj-compact with its move list) in IWRAM; the BG tile managers' tables (19 and 24 KiB, with a
 * 4096-tile ROM set) do not fit beside the code and stack, so they live in
 * EWRAM, as a game would put them. Handles in EWRAM. */
static union {
	gba_obj_map map;
	gba_obj_ff ff;
	gba_obj_bf bf;
	gba_obj_buddy buddy;
	gba_obj_snug snug;
	gba_obj_ends ends;
	gba_obj_compact compact;
} obj;
static union {
	gba_bg_tiles shared;
	gba_bg_tiles_split split;
	butano_st st;  /* Butano keeps its managers' static_data in EWRAM too */
	butano_bgb bgb;
} bg __attribute__((section(".ewram_bss")));
static uint32_t slots[VS_GBA_SLOTS] __attribute__((section(".ewram_bss")));
/* gba-obj-compact: the request number each live slot's tiles were filled
 * with (the pattern its bytes must keep through moves). */
static uint32_t fill_key[GBA_OBJ_COMPACT_MAX] __attribute__((section(".ewram_bss")));
/* Timing overhead of an empty call with 2, 3 and 4 arguments, and of an
 * empty batch of moves. */
static uint32_t over2, over3, over4, over_mv;

static uint32_t time_moves(const gba_obj_compact_move *mv, uint16_t n);

static void fail(uint32_t error, uint32_t index)
{
	MB->error = error;
	MB->error_index = index;
	MB->state = VS_GBA_ST_ERROR;
	for (;;)
		;
}

/* The fewest cycles an empty call costs: the timer and call overhead, for
 * each argument count the allocators' entry points use. */
static void calibrate(void)
{
	uint32_t i;
	void *st = &obj;
	int out;

	over2 = over3 = over4 = 0xFFFFFFFFu;
	for (i = 0; i < 16; i++) {
		uint16_t a = (uint16_t)i, b = (uint16_t)(i + 1);
		uint32_t x = i, y = i + 4;

		VS_ROM_TIMED_FEWEST(over2, vs_noop_ptr_u16(st, a), st, a);
		VS_ROM_TIMED_FEWEST(over3, vs_noop_ptr_u16_u16(st, a, b), st, a, b);
		VS_ROM_TIMED_FEWEST(over4, vs_noop_ptr_u32_u32_ptr(st, x, y, &out), st, x, y, &out);
	}
	over_mv = 0xFFFFFFFFu;
	for (i = 0; i < 16; i++) {
		uint32_t cyc = time_moves(obj.compact.moves, 0);

		if (cyc < over_mv)
			over_mv = cyc;
	}
}

/* A batch of moves by the handle header's DMA3 routine, the one a game
 * uses; kept out of line so the empty batch calibrates the same path. */
static __attribute__((noinline)) uint32_t move_batch(const gba_obj_compact_move *mv, uint16_t n)
{
	return vs_spr_dma_moves(mv, n);
}

/* One DMA3 transfer from ROM (the upload of new graphics). */
static __attribute__((noinline)) uint32_t rom_copy(uint32_t dst, uint32_t src, uint32_t words)
{
	vs_spr_dma3(dst, src, words);
	return words;
}

static uint32_t time_moves(const gba_obj_compact_move *mv, uint16_t n)
{
	uint32_t cyc, w;

	VS_ROM_TIMED(w, cyc, move_batch(mv, n), mv, n);
	(void)w;
	return cyc;
}

/* The fewest cycles of 8 tries of one move of tiles tiles (8 words each)
 * inside VRAM, and of one copy of as many words from ROM. OBJ VRAM is
 * still unused. */
static void calibrate_dma(uint16_t tiles, uint32_t *vram, uint32_t *rom)
{
	gba_obj_compact_move mv;
	uint32_t i, cyc, w, dst = VS_SPR_OBJ_VRAM, src = 0x08000000u, words = tiles * 8u;

	mv.slot = 0;
	mv.from = 128;
	mv.to = 0;
	mv.tiles = tiles;
	*vram = *rom = 0xFFFFFFFFu;
	for (i = 0; i < 8; i++) {
		cyc = time_moves(&mv, 1) - over_mv;
		if (cyc < *vram)
			*vram = cyc;
		VS_ROM_TIMED(w, cyc, rom_copy(dst, src, words), dst, src, words);
		(void)w;
		cyc -= over3;
		if (cyc < *rom)
			*rom = cyc;
	}
}

static void emit(uint32_t value, uint32_t cyc, uint32_t overhead)
{
	volatile vs_gba_mailbox *mb = MB;
	uint32_t n = mb->chunk_count;

	if (n == VS_GBA_RESULT_CAP) {
		/* Hand the full buffer to the host and wait until it has read it. */
		uint32_t seq = mb->seq + 1;

		mb->seq = seq;
		mb->state = VS_GBA_ST_FULL;
		while (mb->ack != seq)
			;
		mb->chunk_first += VS_GBA_RESULT_CAP;
		mb->chunk_count = n = 0;
		mb->state = VS_GBA_ST_RUNNING;
	}
	mb->results[n].value = value;
	mb->results[n].cycles = vs_rom_timer_net(cyc, overhead);
	mb->chunk_count = n + 1;
	mb->done = mb->done + 1;
}

/* Times call, a call of the shape whose overhead is over (over2, over3 or
 * over4: by its argument count), and answers its value: the pair most
 * requests come down to. res and cyc are the runner's. */
#define TIMED_ANSWER(res, over, call, ...) do { \
	VS_ROM_TIMED(res, cyc, call, __VA_ARGS__); \
	emit((uint32_t)(res), cyc, over); \
} while (0)

/* Every runner checks the request and answers NOP, and fails on an unknown
 * operation, the same way. */
static uint32_t check_slot(const vs_gba_req *rq, uint32_t i)
{
	if (rq[i].slot >= VS_GBA_SLOTS)
		fail(VS_GBA_E_SLOT, i);
	if (rq[i].op > VS_GBA_OP_FRAME)
		fail(VS_GBA_E_OP, i);
	return rq[i].slot;
}

static void run_gba_obj_map(const vs_gba_req_block *blk, const vs_gba_req *rq)
{
	uint32_t i, cyc;
	uint16_t r, first = (uint16_t)blk->param[0];
	gba_obj_map *m = &obj.map;

	gba_obj_map_init(m, first);
	for (i = 0; i < blk->count; i++) {
		uint32_t slot = check_slot(rq, i);
		uint16_t arg = (uint16_t)rq[i].arg;

		switch (rq[i].op) {
		case VS_GBA_OP_ALLOC:
			VS_ROM_TIMED(r, cyc, gba_obj_map_alloc(m, arg), m, arg);
			slots[slot] = r;
			emit(r == GBA_OBJ_MAP_NONE ? VS_GBA_NONE : (uint32_t)r + VS_GBA_CYCLES_SKEW, cyc, over2);
			break;
		case VS_GBA_OP_FREE:
			arg = (uint16_t)slots[slot];
			TIMED_ANSWER(r, over2, gba_obj_map_free(m, arg), m, arg);
			break;
		case VS_GBA_OP_RESET:
			TIMED_ANSWER(r, over2, (gba_obj_map_init(m, first), 0), m, first);
			break;
		default:
			emit(0, 0, 0);
		}
	}
}

/* First fit, snug fit and two-ended best fit share one shape:
 * init(state, first), alloc(state, tiles, align) -> tile or NONE,
 * free(state, tile, tiles); the slot keeps tile | tiles << 16. The driver is
 * stamped out per allocator so every timed call stays a direct call (an
 * indirect one would change the cycles measured). */
#define RUN_TILE_ALLOCATOR(fn, type, field, prefix, none) \
static void fn(const vs_gba_req_block *blk, const vs_gba_req *rq) \
{ \
	uint32_t i, cyc; \
	uint16_t r, first = (uint16_t)blk->param[0]; \
	type *a = &obj.field; \
	int rc; \
\
	prefix##_init(a, first); \
	for (i = 0; i < blk->count; i++) { \
		uint32_t slot = check_slot(rq, i); \
		uint16_t n = (uint16_t)rq[i].arg, al = (uint16_t)(rq[i].arg >> 16), t; \
\
		switch (rq[i].op) { \
		case VS_GBA_OP_ALLOC: \
			VS_ROM_TIMED(r, cyc, prefix##_alloc(a, n, al), a, n, al); \
			slots[slot] = (uint32_t)r | (uint32_t)n << 16; \
			emit(r == (none) ? VS_GBA_NONE : r, cyc, over3); \
			break; \
		case VS_GBA_OP_FREE: \
			t = (uint16_t)slots[slot]; \
			n = (uint16_t)(slots[slot] >> 16); \
			TIMED_ANSWER(rc, over3, prefix##_free(a, t, n), a, t, n); \
			break; \
		case VS_GBA_OP_RESET: \
			TIMED_ANSWER(rc, over2, (prefix##_init(a, first), 0), a, first); \
			break; \
		default: \
			emit(0, 0, 0); \
		} \
	} \
}

RUN_TILE_ALLOCATOR(run_gba_obj_ff, gba_obj_ff, ff, gba_obj_ff, GBA_OBJ_FF_NONE)
RUN_TILE_ALLOCATOR(run_gba_obj_snug, gba_obj_snug, snug, gba_obj_snug, GBA_OBJ_SNUG_NONE)
RUN_TILE_ALLOCATOR(run_gba_obj_ends, gba_obj_ends, ends, gba_obj_ends, GBA_OBJ_ENDS_NONE)

/* Best fit: the handle is the item index; the tile comes back through a
 * pointer. */
static void run_gba_obj_bf(const vs_gba_req_block *blk, const vs_gba_req *rq)
{
	uint32_t i, cyc;
	uint16_t first = (uint16_t)blk->param[0];
	gba_obj_bf *a = &obj.bf;
	int item, rc;

	gba_obj_bf_init(a, first);
	for (i = 0; i < blk->count; i++) {
		uint32_t slot = check_slot(rq, i);
		uint16_t n = (uint16_t)rq[i].arg, al = (uint16_t)(rq[i].arg >> 16), t = 0, *tp = &t;

		switch (rq[i].op) {
		case VS_GBA_OP_ALLOC:
			VS_ROM_TIMED(item, cyc, gba_obj_bf_alloc(a, n, al, tp), a, n, al, tp);
			slots[slot] = (uint32_t)item;
			emit(item < 0 ? VS_GBA_NONE : t, cyc, over4);
			break;
		case VS_GBA_OP_FREE:
			item = (int)slots[slot];
			TIMED_ANSWER(rc, over2, gba_obj_bf_free(a, item), a, item);
			break;
		case VS_GBA_OP_RESET:
			TIMED_ANSWER(rc, over2, (gba_obj_bf_init(a, first), 0), a, first);
			break;
		default:
			emit(0, 0, 0);
		}
	}
}

/* Buddy: the order is worked out from (tiles, align) inside the timed call,
 * as the host adapter does before allocating. */
static uint16_t buddy_alloc(gba_obj_buddy *b, uint16_t n, uint16_t align)
{
	int order = gba_obj_buddy_order(n, align);

	return order < 0 ? GBA_OBJ_BUDDY_NONE : gba_obj_buddy_alloc(b, (unsigned)order);
}

static void run_gba_obj_buddy(const vs_gba_req_block *blk, const vs_gba_req *rq)
{
	uint32_t i, cyc;
	uint16_t r, first = (uint16_t)blk->param[0];
	gba_obj_buddy *b = &obj.buddy;
	int rc;

	gba_obj_buddy_init(b, first);
	for (i = 0; i < blk->count; i++) {
		uint32_t slot = check_slot(rq, i);
		uint16_t n = (uint16_t)rq[i].arg, al = (uint16_t)(rq[i].arg >> 16), t;

		switch (rq[i].op) {
		case VS_GBA_OP_ALLOC:
			/* two calls (order, alloc): one call's overhead is subtracted */
			VS_ROM_TIMED(r, cyc, buddy_alloc(b, n, al), b, n, al);
			slots[slot] = r;
			emit(r == GBA_OBJ_BUDDY_NONE ? VS_GBA_NONE : r, cyc, over3);
			break;
		case VS_GBA_OP_FREE:
			t = (uint16_t)slots[slot];
			TIMED_ANSWER(rc, over2, gba_obj_buddy_free(b, t), b, t);
			break;
		case VS_GBA_OP_RESET:
			TIMED_ANSWER(rc, over2, (gba_obj_buddy_init(b, first), 0), b, first);
			break;
		default:
			emit(0, 0, 0);
		}
	}
}

/* The BG tile managers: a tile reference or a map; a free releases one
 * reference (or gives the map's screenblocks back). The slot keeps the
 * result value. The driver is stamped out per manager, as
 * RUN_TILE_ALLOCATOR's: each timed call must be the direct call a game
 * makes, with the overhead measured for it at start-up. A reset of
 * gba-bg-tiles-split takes a new split (arg); reset_hold is what its timed
 * reset holds besides the state, as each manager's init takes it. */
#define BG_TILE_RESULT(b, loaded) ((b) < 0 ? VS_GBA_NONE : (uint32_t)(b) | ((loaded) ? 0u : VS_GBA_BG_HIT))
#define BG_MAP_RESULT(sb) ((sb) < 0 ? VS_GBA_NONE : VS_GBA_BG_MAP | (uint32_t)(sb))

/* Each manager's set-up from the split: gba-bg-tiles has none. Inlined,
 * so the timed reset is the manager's own init call. */
static inline __attribute__((always_inline)) void bg_tiles_start(gba_bg_tiles *m, uint32_t bytes4)
{
	(void)bytes4;
	gba_bg_tiles_init(m);
}

static inline __attribute__((always_inline)) void bg_tiles_split_start(gba_bg_tiles_split *m, uint32_t bytes4)
{
	gba_bg_tiles_split_init(m, bytes4);
}

#define RUN_BG_TILES(fn, type, field, prefix, start, reset_hold) \
static void fn(const vs_gba_req_block *blk, const vs_gba_req *rq) \
{ \
	uint32_t i, cyc, v, bytes4 = blk->param[0]; \
	type *m = &bg.field; \
	int32_t b; \
	int loaded = 0, *lp = &loaded, rc; \
\
	start(m, bytes4); \
	for (i = 0; i < blk->count; i++) { \
		uint32_t slot = check_slot(rq, i), arg = rq[i].arg; \
\
		switch (rq[i].op) { \
		case VS_GBA_OP_ALLOC: \
			if (arg & VS_GBA_BG_MAP) { \
				unsigned n = arg & 0xFFu; \
\
				VS_ROM_TIMED(rc, cyc, prefix##_map_alloc(m, n), m, n); \
				v = BG_MAP_RESULT(rc); \
				emit(v, cyc, over2); \
				if (rc >= 0) \
					v |= n << 8; /* the free needs the count */ \
			} else { \
				uint32_t rom = arg & 0xFFFFFFu; \
				unsigned bpp = arg >> 24; \
\
				VS_ROM_TIMED(b, cyc, prefix##_ref(m, rom, bpp, lp), m, rom, bpp, lp); \
				v = BG_TILE_RESULT(b, loaded); \
				emit(v, cyc, over4); \
			} \
			slots[slot] = v; \
			break; \
		case VS_GBA_OP_FREE: \
			v = slots[slot]; \
			if (v & VS_GBA_BG_MAP) { \
				unsigned sb = v & 0xFFu, n = (v >> 8) & 0xFFu; \
\
				TIMED_ANSWER(rc, over3, prefix##_map_free(m, sb, n), m, sb, n); \
			} else { \
				uint32_t ram = v & 0xFFFFu; /* a tile, or the split's block */ \
\
				TIMED_ANSWER(b, over2, prefix##_release(m, ram), m, ram); \
			} \
			break; \
		case VS_GBA_OP_RESET: \
			bytes4 = arg; /* an init may change the split */ \
			TIMED_ANSWER(rc, over2, (start(m, bytes4), 0), m, reset_hold); \
			break; \
		default: \
			emit(0, 0, 0); \
		} \
	} \
}

RUN_BG_TILES(run_gba_bg_tiles, gba_bg_tiles, shared, gba_bg_tiles, bg_tiles_start, m)
RUN_BG_TILES(run_gba_bg_tiles_split, gba_bg_tiles_split, split, gba_bg_tiles_split, bg_tiles_split_start, bytes4)

/* gba-obj-compact: the allocator that moves sprites. Each request answers
 * the call, then its moves (gba_cycles.h). */

/* The pattern a sprite's words keep: its fill key and each word's place. */
static inline uint32_t pattern(uint32_t key, uint32_t k)
{
	return key * 0x9E3779B1u + k;
}

static volatile uint32_t *sprite_words(const gba_obj_compact *m, uint16_t s)
{
	return (volatile uint32_t *)(VS_SPR_OBJ_VRAM + gba_obj_compact_start(m, s) * 32u);
}

static void sprite_fill(const gba_obj_compact *m, uint16_t s, uint32_t key)
{
	volatile uint32_t *p = sprite_words(m, s);
	uint32_t k, n = gba_obj_compact_tiles(m, s) * 8u;

	fill_key[s] = key;
	for (k = 0; k < n; k++)
		p[k] = pattern(key, k);
}

/* Stops the program when slot s's bytes are not its pattern. */
static void sprite_check(const gba_obj_compact *m, uint16_t s, uint32_t i)
{
	volatile uint32_t *p = sprite_words(m, s);
	uint32_t k, n = gba_obj_compact_tiles(m, s) * 8u, key = fill_key[s];

	for (k = 0; k < n; k++)
		if (p[k] != pattern(key, k))
			fail(VS_GBA_E_BYTES, i);
}

static void live_check(const gba_obj_compact *m, uint32_t i)
{
	uint16_t s;

	for (s = 0; s < GBA_OBJ_COMPACT_MAX; s++)
		if (gba_obj_compact_tiles(m, s))
			sprite_check(m, s, i);
}

static uint32_t digest(const gba_obj_compact *m)
{
	uint32_t h = VS_GBA_DIGEST_INIT;
	uint16_t s;

	for (s = 0; s < GBA_OBJ_COMPACT_MAX; s++)
		if (gba_obj_compact_tiles(m, s))
			h = vs_gba_digest(h, s, gba_obj_compact_start(m, s));
	return h;
}

/* After request i: carries out the moves it made (timed), checks the
 * moved sprites' bytes, fills a new sprite (fresh) and answers the digest
 * and the moves' cycles. */
static void after_call(gba_obj_compact *m, uint32_t i, uint16_t fresh)
{
	uint16_t n, k;
	const gba_obj_compact_move *mv = gba_obj_compact_moves(m, &n);
	uint32_t cyc = 0;

	if (n)
		cyc = time_moves(mv, n);
#if VS_GBA_CYCLES_SKEW
	if (n) /* the skewed build spoils a word of the first sprite moved */
		*(volatile uint32_t *)(VS_SPR_OBJ_VRAM + mv[0].to * 32u) ^= 1u;
#endif
	for (k = 0; k < n; k++)
		sprite_check(m, mv[k].slot, i);
	if (fresh != GBA_OBJ_COMPACT_NONE)
		sprite_fill(m, fresh, i);
	emit(digest(m), cyc, n ? over_mv : 0);
}

static void run_gba_obj_compact(const vs_gba_req_block *blk, const vs_gba_req *rq)
{
	uint32_t i, cyc;
	uint16_t r, first = (uint16_t)blk->param[0], budget = (uint16_t)(blk->param[0] >> 16);
	gba_obj_compact *m = &obj.compact;
	int rc;

	gba_obj_compact_init(m, first, budget);
	for (i = 0; i < blk->count; i++) {
		uint32_t slot = check_slot(rq, i);
		uint16_t n = (uint16_t)rq[i].arg, al = (uint16_t)(rq[i].arg >> 16), t;

		switch (rq[i].op) {
		case VS_GBA_OP_ALLOC:
			VS_ROM_TIMED(r, cyc, gba_obj_compact_alloc(m, n, al), m, n, al);
			slots[slot] = r;
			emit(r == GBA_OBJ_COMPACT_NONE ? VS_GBA_NONE :
				(uint32_t)gba_obj_compact_start(m, r) | (uint32_t)r << 16, cyc, over3);
			after_call(m, i, r);
			break;
		case VS_GBA_OP_FREE:
			t = (uint16_t)slots[slot];
			TIMED_ANSWER(rc, over2, gba_obj_compact_free(m, t), m, t);
			after_call(m, i, GBA_OBJ_COMPACT_NONE);
			break;
		case VS_GBA_OP_RESET:
			live_check(m, i);
			first = (uint16_t)rq[i].arg;
			budget = (uint16_t)(rq[i].arg >> 16);
			TIMED_ANSWER(rc, over2, (gba_obj_compact_init(m, first, budget), 0), m, first);
			after_call(m, i, GBA_OBJ_COMPACT_NONE);
			break;
		case VS_GBA_OP_FRAME:
#if VS_GBA_CYCLES_SKEW
			TIMED_ANSWER(rc, over2, (m->nmoves = 0, 0), m, m);
#else
			TIMED_ANSWER(rc, over2, (gba_obj_compact_frame(m), 0), m, m);
#endif
			after_call(m, i, GBA_OBJ_COMPACT_NONE);
			break;
		default:
			emit(0, 0, 0);
			emit(digest(m), 0, 0);
		}
	}
	live_check(m, blk->count);
}

/* ---- Butano's managers ------------------------------------------------------
 * The tag is the data word (graphics=tag: no tag is no graphics, an
 * allocate), none (each: never shared), or the request is an allocate
 * (raw); the options ride in param[0]
 * (gba_cycles.h). A hit answers VS_GBA_BG_HIT beside the start. */
#define BUTANO_RESULT(id, start, found) \
	((id) < 0 ? VS_GBA_NONE : (uint32_t)(start) | ((found) ? VS_GBA_BG_HIT : 0u))

/* butano_st_create takes five arguments: called through this wrapper of
 * four (the calibrated shape), whose own call is part of the cycles. */
static __attribute__((noinline)) int bst_create(butano_st *a, uint32_t data, uint32_t n_compressed, int *found)
{
	return butano_st_create(a, data, (uint16_t)n_compressed, (int)(n_compressed >> 16), found);
}

static void bst_start(butano_st *a, uint32_t p)
{
	butano_st_init(a, p & 0xFFu, (p >> 8) & 0x7FFu);
	if (p >> 23 & 1u)
		(void)butano_st_allocate_first_half(a);
}

static void run_butano_st(const vs_gba_req_block *blk, const vs_gba_req *rq)
{
	uint32_t i, cyc, p = blk->param[0];
	butano_st *a = &bg.st;
	int id, rc, found = 0, *fp = &found;

	bst_start(a, p);
	for (i = 0; i < blk->count; i++) {
		uint32_t slot = check_slot(rq, i), graphics = p >> 20 & 3u;
		uint32_t data = graphics == 0 ? rq[i].arg & 0xFFFFu : 0u, nc = rq[i].arg >> 16 | (p >> 22 & 1u) << 16;
		uint16_t n = (uint16_t)(rq[i].arg >> 16);
		int raw = graphics == 2 || (graphics == 0 && !data);

		switch (rq[i].op) {
		case VS_GBA_OP_ALLOC:
			found = 0;
			if (raw)
				VS_ROM_TIMED(id, cyc, butano_st_allocate(a, n), a, n);
			else
				VS_ROM_TIMED(id, cyc, bst_create(a, data, nc, fp), a, data, nc, fp);
			slots[slot] = (uint32_t)id;
			emit(BUTANO_RESULT(id, id < 0 ? 0u : a->items[id].start, found), cyc, raw ? over2 : over4);
			break;
		case VS_GBA_OP_FREE:
			id = (int)slots[slot];
			TIMED_ANSWER(rc, over2, butano_st_decrease_usages(a, id), a, id);
			break;
		case VS_GBA_OP_RESET:
			p = rq[i].arg;
			TIMED_ANSWER(rc, over2, (bst_start(a, p), 0), a, p);
			break;
		case VS_GBA_OP_FRAME:
			TIMED_ANSWER(rc, over2, (butano_st_update(a), 0), a, a);
			break;
		default:
			emit(0, 0, 0);
		}
	}
}

/* The request a desc stands for (vs_gba_bgb_desc), outside the timed
 * call as the game's item already holds it; -1 for none. */
static int bgb_decode(uint32_t arg, uint32_t p, butano_bgb_req *r)
{
	uint32_t d = arg >> 16;
	int rc;

	if (d & VS_GBA_BGB_MAP)
		rc = butano_bgb_map_req(r, (d & 15u) * 16u, (d >> 4 & 15u) * 16u, (int)(d >> 8 & 1u));
	else
		rc = butano_bgb_tiles_req(r, d & 0xFFFu, (int)(d >> 12 & 1u), (int)(d >> 13 & 1u), (int)(p >> 19 & 1u));
	r->data = (p >> 16 & 3u) == 0 ? arg & 0xFFFFu : 0u;
	r->compressed = (uint8_t)(p >> 18 & 1u);
	return rc;
}

static void run_butano_bgb(const vs_gba_req_block *blk, const vs_gba_req *rq)
{
	uint32_t i, cyc, p = blk->param[0];
	butano_bgb *a = &bg.bgb;
	butano_bgb_req r, *rp = &r;
	int id, rc, found = 0, *fp = &found;

	butano_bgb_init(a, p & 0xFFu, p >> 8 & 0xFFu);
	for (i = 0; i < blk->count; i++) {
		uint32_t slot = check_slot(rq, i);

		switch (rq[i].op) {
		case VS_GBA_OP_ALLOC:
			found = 0;
			if (bgb_decode(rq[i].arg, p, rp) != 0)
				fail(VS_GBA_E_OP, i);
			if ((p >> 16 & 3u) == 2u)
				VS_ROM_TIMED(id, cyc, butano_bgb_allocate(a, rp), a, rp);
			else
				VS_ROM_TIMED(id, cyc, butano_bgb_create(a, rp, fp), a, rp, fp);
			slots[slot] = (uint32_t)id;
			emit(BUTANO_RESULT(id, id < 0 ? 0u : a->items[id].start, found), cyc,
				(p >> 16 & 3u) == 2u ? over2 : over3);
			break;
		case VS_GBA_OP_FREE:
			id = (int)slots[slot];
			TIMED_ANSWER(rc, over2, butano_bgb_decrease_usages(a, id), a, id);
			break;
		case VS_GBA_OP_RESET:
			p = rq[i].arg;
			TIMED_ANSWER(rc, over2, (butano_bgb_init(a, p & 0xFFu, p >> 8 & 0xFFu), 0), a, p);
			break;
		case VS_GBA_OP_FRAME:
			TIMED_ANSWER(rc, over2, (butano_bgb_update(a), 0), a, a);
			break;
		default:
			emit(0, 0, 0);
		}
	}
}

/* States the conditions of the run in mGBA's log (nothing on hardware). */
static void greet(uint32_t waitcnt)
{
	vs_rec_buf b;

	b.n = 0;
	vs_rec_str(&b, "vramsim cycles: WAITCNT=");
	vs_rec_hex(&b, waitcnt);
	vs_rec_str(&b, VS_GBA_CODE == VS_GBA_CODE_ARM_IWRAM ? " code=arm-iwram" : " code=thumb-rom");
	vs_rec_str(&b, " overhead=");
	vs_rec_dec(&b, over2);
	vs_rec_str(&b, "/");
	vs_rec_dec(&b, over3);
	vs_rec_str(&b, "/");
	vs_rec_dec(&b, over4);
	vs_mgba_print(VS_MGBA_INFO, b.s);
}

int main(void)
{
	volatile vs_gba_mailbox *mb = MB;
	const vs_gba_req_block *blk = (const vs_gba_req_block *)(const void *)__rom_end;
	const vs_gba_req *rq = (const vs_gba_req *)(const void *)(blk + 1);

	REG_IME = 0;
	mb->version = VS_GBA_PROTO_VERSION;
	mb->state = VS_GBA_ST_BOOT;
	mb->error = VS_GBA_E_NONE;
	mb->waitcnt = REG_WAITCNT;
	mb->code = VS_GBA_CODE;
	mb->done = 0;
	mb->chunk_first = 0;
	mb->chunk_count = 0;
	mb->seq = 0;
	mb->ack = 0;
	mb->magic = VS_GBA_MB_MAGIC;
	calibrate();
	mb->overhead = over2;
	mb->overhead3 = over3;
	mb->overhead4 = over4;
	mb->move_overhead = over_mv;
	{
		uint32_t v8, r8, v1024, r1024;

		calibrate_dma(1, &v8, &r8);
		calibrate_dma(128, &v1024, &r1024);
		mb->dma_vram8 = v8;
		mb->dma_rom8 = r8;
		mb->dma_vram1024 = v1024;
		mb->dma_rom1024 = r1024;
	}
	greet(mb->waitcnt);
	if (blk->magic != VS_GBA_REQ_MAGIC)
		fail(VS_GBA_E_NO_REQUESTS, 0);
	if (blk->version != VS_GBA_PROTO_VERSION)
		fail(VS_GBA_E_VERSION, 0);
	mb->state = VS_GBA_ST_RUNNING;
	switch (blk->strategy) {
	case VS_GBA_STRAT_GBA_OBJ_MAP:
		run_gba_obj_map(blk, rq);
		break;
	case VS_GBA_STRAT_GBA_OBJ_FIRST_FIT:
		run_gba_obj_ff(blk, rq);
		break;
	case VS_GBA_STRAT_GBA_OBJ_BEST_FIT:
		run_gba_obj_bf(blk, rq);
		break;
	case VS_GBA_STRAT_GBA_OBJ_BUDDY:
		run_gba_obj_buddy(blk, rq);
		break;
	case VS_GBA_STRAT_GBA_OBJ_SNUG:
		run_gba_obj_snug(blk, rq);
		break;
	case VS_GBA_STRAT_GBA_OBJ_ENDS:
		run_gba_obj_ends(blk, rq);
		break;
	case VS_GBA_STRAT_GBA_OBJ_COMPACT:
		run_gba_obj_compact(blk, rq);
		break;
	case VS_GBA_STRAT_GBA_BG_TILES:
		run_gba_bg_tiles(blk, rq);
		break;
	case VS_GBA_STRAT_GBA_BG_TILES_SPLIT:
		run_gba_bg_tiles_split(blk, rq);
		break;
	case VS_GBA_STRAT_BUTANO_SPRITE_TILES:
		run_butano_st(blk, rq);
		break;
	case VS_GBA_STRAT_BUTANO_BG_BLOCKS:
		run_butano_bgb(blk, rq);
		break;
	default:
		fail(VS_GBA_E_STRATEGY, 0);
	}
	mb->state = VS_GBA_ST_DONE;
	for (;;)
		;
}
