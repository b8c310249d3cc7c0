/* SPDX-License-Identifier: Zlib */
/* cycles_proto.h - what the host and a console's "cycles" program exchange
 * on every console: one request per allocator call the host made, one
 * result per answer. The mailboxes around them are each console's
 * (console/gba/gba_cycles.h, console/ds/ds_cycles.h).
 *
 * Shared by both sides (freestanding: only <stdint.h>); little-endian
 * 32-bit words, as both CPUs and the host see them.
 */
#ifndef VRAMSIM_CYCLES_PROTO_H
#define VRAMSIM_CYCLES_PROTO_H

#include <stdint.h>

#define VS_CYCLES_NONE 0xFFFFFFFFu /* a failed allocation */

/* Request operations. */
enum {
	VS_CYCLES_OP_NOP = 0,
	VS_CYCLES_OP_ALLOC = 1, /* arg (and flags): the allocator's size argument; the handle into slot */
	VS_CYCLES_OP_FREE = 2,  /* frees the handle held in slot */
	VS_CYCLES_OP_RESET = 3, /* resets or re-initialises the allocator (timed too) */
	VS_CYCLES_OP_FRAME = 4, /* a frame boundary (only for allocators that move sprites) */
	/* a bank register written or a bank locked (only for allocators that
	 * read the banks): arg = VS_CYCLES_BANK(bank, value, kind); untimed */
	VS_CYCLES_OP_BANK = 5
};

/* A bank request's arg: bank 0-8 (A-I), VRAMCNT's value, and what: */
enum { VS_CYCLES_BANK_VRAMCNT = 0, VS_CYCLES_BANK_LOCK = 1, VS_CYCLES_BANK_UNLOCK = 2 };
#define VS_CYCLES_BANK(bank, value, kind) ((uint32_t)(bank) | (uint32_t)(value) << 8 | (uint32_t)(kind) << 16)

/* flags of a reset: the trace's init (new parameters), not a reset. */
#define VS_CYCLES_F_INIT 0x80u
/* flags of an alloc: a realloc the allocator takes whole (glTexImage2D
 * again on a bound texture); its slot holds the old handle, which the
 * answer replaces. */
#define VS_CYCLES_F_REALLOC 0x40u

typedef struct vs_cycles_req {
	uint8_t op;
	uint8_t flags; /* the allocator's own bits beside arg (VS_CYCLES_F_INIT for a reset) */
	uint16_t slot;
	uint32_t arg;
} vs_cycles_req;

typedef struct vs_cycles_result {
	uint32_t value;  /* alloc: the allocator's result (VS_CYCLES_NONE on failure); free: its return */
	uint32_t cycles; /* timer counts of the call, timing overhead subtracted */
} vs_cycles_result;

#endif
