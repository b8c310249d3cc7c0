/* cycles.c - the "cycles" GBA program: replays a request list through an
 * allocator and times every call.
 *
 * The request block sits at __rom_end (the host appends it to the ROM
 * image); results go to the mailbox at the start of EWRAM (gba_cycles.h).
 * A call is timed with timer 0 at prescaler 1 cascading into timer 1: a
 * 32-bit count of CPU cycles, from the write that starts timer 0 to the
 * write that stops it. The cost of timing an empty function with the same
 * signature, placed like the allocator code, is measured at start-up and
 * subtracted, so a result is what the call itself costs.
 */
#include <stdint.h>

#include "gba_hw.h"
#include "cycles_noop.h"
#include "vramsim/gba_cycles.h"
#include "vramsim/record.h"
#include "vramsim/alloc/gba_obj_map.h"

#ifndef VS_GBA_CODE
#define VS_GBA_CODE VS_GBA_CODE_THUMB_ROM
#endif

int main(void);

extern const uint32_t __rom_end[]; /* word-aligned: read the block with word loads */

#define MB ((volatile vs_gba_mailbox *)VS_GBA_MAILBOX_ADDR)

/* The mailbox layout is fixed by the linker script; keep them in step. */
typedef char mailbox_size_check[sizeof(vs_gba_mailbox) == 0x20100 ? 1 : -1];
typedef char results_offset_check[
	__builtin_offsetof(vs_gba_mailbox, results) == VS_GBA_MB_OFF_RESULTS ? 1 : -1];

/* Allocator state in IWRAM, as a game keeps it; handles in EWRAM. */
static gba_obj_map objmap;
static uint32_t slots[VS_GBA_SLOTS] __attribute__((section(".ewram_bss")));
static uint32_t overhead;

static inline void timer_start(void)
{
	REG_TM0CNT_H = 0;
	REG_TM1CNT_H = 0;
	REG_TM0CNT_L = 0;
	REG_TM1CNT_L = 0;
	REG_TM1CNT_H = TM_ENABLE | TM_CASCADE;
	REG_TM0CNT_H = TM_ENABLE;
}

static inline uint32_t timer_stop(void)
{
	uint32_t lo, hi;

	REG_TM0CNT_H = 0;
	lo = REG_TM0CNT_L;
	hi = REG_TM1CNT_L;
	return hi << 16 | lo;
}

/* Times `call`, storing its value in res and the raw cycles in cyc. The
 * empty asm keeps the argument loads before the timer starts. */
#define TIMED(res, cyc, call, a, b) do { \
	__asm__ volatile("" : : "r"(a), "r"(b) : "memory"); \
	timer_start(); \
	(res) = (call); \
	(cyc) = timer_stop(); \
} while (0)

static void fail(uint32_t error, uint32_t index)
{
	MB->error = error;
	MB->error_index = index;
	MB->state = VS_GBA_ST_ERROR;
	for (;;)
		;
}

/* The fewest cycles an empty call costs: the timer and call overhead. */
static uint32_t calibrate(void)
{
	uint32_t best = 0xFFFFFFFFu, cyc, i;
	uint16_t r;
	void *st = &objmap;

	for (i = 0; i < 16; i++) {
		uint16_t a = (uint16_t)i;

		TIMED(r, cyc, vs_noop_ptr_u16(st, a), st, a);
		(void)r;
		if (cyc < best)
			best = cyc;
	}
	return best;
}

static void emit(uint32_t value, uint32_t cyc)
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
	mb->results[n].cycles = cyc > overhead ? cyc - overhead : 0;
	mb->chunk_count = n + 1;
	mb->done = mb->done + 1;
}

static void run_gba_obj_map(const vs_gba_req_block *blk, const vs_gba_req *rq)
{
	uint32_t i, cyc;
	uint16_t r, first = (uint16_t)blk->param[0];
	gba_obj_map *m = &objmap;

	gba_obj_map_init(m, first);
	for (i = 0; i < blk->count; i++) {
		uint16_t slot = rq[i].slot, arg = (uint16_t)rq[i].arg;

		if (slot >= VS_GBA_SLOTS)
			fail(VS_GBA_E_SLOT, i);
		switch (rq[i].op) {
		case VS_GBA_OP_NOP:
			emit(0, 0);
			break;
		case VS_GBA_OP_ALLOC:
			TIMED(r, cyc, gba_obj_map_alloc(m, arg), m, arg);
			slots[slot] = r;
			emit(r == GBA_OBJ_MAP_NONE ? VS_GBA_NONE : r, cyc);
			break;
		case VS_GBA_OP_FREE:
			arg = (uint16_t)slots[slot];
			TIMED(r, cyc, gba_obj_map_free(m, arg), m, arg);
			emit(r, cyc);
			break;
		case VS_GBA_OP_RESET:
			TIMED(r, cyc, (gba_obj_map_init(m, first), 0), m, first);
			emit(r, cyc);
			break;
		default:
			fail(VS_GBA_E_OP, i);
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
	vs_rec_dec(&b, overhead);
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
	overhead = calibrate();
	mb->overhead = overhead;
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
	default:
		fail(VS_GBA_E_STRATEGY, 0);
	}
	mb->state = VS_GBA_ST_DONE;
	for (;;)
		;
}
