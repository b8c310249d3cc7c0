/* SPDX-License-Identifier: Zlib */
/* gba_cycles.h - the protocol between the host and the "cycles" GBA program.
 *
 * Shared by both sides (freestanding: only <stdint.h>). The host appends a
 * request block to the cycles ROM image at the 256-byte boundary where the
 * image ends (the ROM's __rom_end), loads it into libmgba and runs frames.
 * The program replays the requests through one allocator, timing every call
 * with timer 0 (prescaler 1) cascading into timer 1, and writes one result
 * per request into the mailbox at the start of EWRAM. When the result buffer
 * is full it waits for the host to read it and bump `ack`.
 *
 * Everything is little-endian 32-bit words, as both CPUs see them.
 */
#ifndef VRAMSIM_GBA_CYCLES_H
#define VRAMSIM_GBA_CYCLES_H

#include <stdint.h>

#include "console/common/cycles_proto.h"

#define VS_GBA_REQ_MAGIC 0x51525356u    /* "VSRQ" */
#define VS_GBA_MB_MAGIC 0x424D5356u     /* "VSMB" */
#define VS_GBA_PROTO_VERSION 3u
#define VS_GBA_MAILBOX_ADDR 0x02000000u
#define VS_GBA_RESULT_CAP 16384u        /* results per chunk */
#define VS_GBA_SLOTS 4096u              /* live handles the program keeps */
#define VS_GBA_NONE VS_CYCLES_NONE       /* failed allocation */
#define VS_GBA_ROM_ALIGN 256u

/* Allocators the program carries (request block `strategy`), with their
 * init parameters (`param`) and request encoding:
 *  - gba-obj-map: param[0] first block; alloc arg = blocks; result = first
 *    block.
 *  - gba-obj-first-fit, -best-fit, -buddy, -snug, -ends: param[0] first tile;
 *    alloc arg = tiles | tile alignment << 16;
 *    result = first tile. (best fit keeps its item index, buddy computes
 *    the order from the arg inside the timed call, as the host adapter.)
 *  - gba-bg-tiles, gba-bg-tiles-split (param[0] bytes of the 4bpp region):
 *    alloc arg = ROM index (bits 0-23) | bpp << 24 for a tile, or
 *    VS_GBA_BG_MAP | screenblocks for a map; result = the tile's first
 *    32-byte block, with VS_GBA_BG_HIT when it was already loaded (a
 *    shared placement), or VS_GBA_BG_MAP | screenblock for a map.
 *  - gba-obj-compact: param[0] first tile | the frame budget in tiles << 16
 *    (a reset's arg likewise); alloc arg = tiles | tile alignment << 16; result = first tile |
 *    slot << 16 (the slot is the sprite's handle, kept when it moves). It
 *    answers two results a request (VS_GBA_RESULTS_PER_REQ): the call's,
 *    then the moves': value = vs_gba_digest of every live slot's start after
 *    the request and its moves, cycles = the moves carried out by DMA3 inside
 *    VRAM (0 when none). A frame request calls gba_obj_compact_frame. The
 *    program fills each new sprite's tiles with a pattern of its request
 *    number and checks the bytes of every sprite it moved, and of every live
 *    one at a reset and at the end (VS_GBA_E_BYTES when one differs).
 *  - butano-sprite-tiles: param[0] = version | items << 8 | graphics << 20
 *    (VS_BUTANO_GRAPHICS_*) | compressed << 22 | bitmap mode << 23 (a
 *    reset's arg likewise); alloc arg = tag (the graphics word, 16 bits) |
 *    tiles << 16; result = first tile | VS_GBA_BG_HIT when the graphics were
 *    loaded already. A free answers the uses left; a frame request calls
 *    update.
 *  - butano-bg-blocks: param[0] = version | items << 8 | graphics << 16 |
 *    compressed << 18 | offset allowed << 19; alloc arg = tag |
 *    vs_gba_bgb_desc << 16; result = first block | VS_GBA_BG_HIT; frees
 *    and frames as butano-sprite-tiles.
 * Failed allocations answer VS_GBA_NONE. */
enum {
	VS_GBA_STRAT_GBA_OBJ_MAP = 1,
	VS_GBA_STRAT_GBA_OBJ_FIRST_FIT = 2,
	VS_GBA_STRAT_GBA_OBJ_BEST_FIT = 3,
	VS_GBA_STRAT_GBA_OBJ_BUDDY = 4,
	VS_GBA_STRAT_GBA_OBJ_SNUG = 5,
	VS_GBA_STRAT_GBA_BG_TILES = 6,
	VS_GBA_STRAT_GBA_BG_TILES_SPLIT = 7,
	VS_GBA_STRAT_GBA_OBJ_ENDS = 8,
	VS_GBA_STRAT_GBA_OBJ_COMPACT = 9,
	VS_GBA_STRAT_BUTANO_SPRITE_TILES = 10,
	VS_GBA_STRAT_BUTANO_BG_BLOCKS = 11
};

/* Results the program answers per request: two for an allocator that moves
 * sprites (the call, then its moves), one for the others. */
#define VS_GBA_RESULTS_PER_REQ(strategy) ((strategy) == VS_GBA_STRAT_GBA_OBJ_COMPACT ? 2u : 1u)

/* One step of the digest of where the live sprites sit (FNV-1a over 32-bit
 * words): fold in each live slot with its first tile, slots in increasing
 * order, starting from VS_GBA_DIGEST_INIT. Both sides compute it. */
#define VS_GBA_DIGEST_INIT 2166136261u
static inline uint32_t vs_gba_digest(uint32_t h, uint32_t slot, uint32_t start)
{
	return (h ^ (slot << 16 | (start & 0xFFFFu))) * 16777619u;
}

#define VS_GBA_BG_MAP 0x80000000u /* arg/result: a map of screenblocks */
#define VS_GBA_BG_HIT 0x40000000u /* result: the tile was already loaded */

/* butano-bg-blocks' request (16 bits): a tile set of t32 32-byte tiles
 * (bits 0-11), 8bpp (12), affine (13); or a map (bit 15) of w x h cells in
 * steps of 16 (bits 0-3, 4-7), affine (8). */
#define VS_GBA_BGB_MAP 0x8000u
static inline uint32_t vs_gba_bgb_tiles_desc(uint32_t t32, uint32_t bpp8, uint32_t affine)
{
	return (t32 & 0xFFFu) | (bpp8 ? 1u : 0u) << 12 | (affine ? 1u : 0u) << 13;
}
static inline uint32_t vs_gba_bgb_map_desc(uint32_t w, uint32_t h, uint32_t affine)
{
	return VS_GBA_BGB_MAP | (w / 16u & 15u) | (h / 16u & 15u) << 4 | (affine ? 1u : 0u) << 8;
}

/* Requests, results and their operations: the same on every console
 * (console/common/cycles_proto.h). */
typedef vs_cycles_req vs_gba_req;
typedef vs_cycles_result vs_gba_result;
enum {
	VS_GBA_OP_NOP = VS_CYCLES_OP_NOP,
	VS_GBA_OP_ALLOC = VS_CYCLES_OP_ALLOC,
	VS_GBA_OP_FREE = VS_CYCLES_OP_FREE,
	VS_GBA_OP_RESET = VS_CYCLES_OP_RESET, /* arg: param[0] to re-initialise with (gba-bg-tiles-split) */
	VS_GBA_OP_FRAME = VS_CYCLES_OP_FRAME
};

/* Appended to the ROM, followed by `count` vs_gba_req. */
typedef struct vs_gba_req_block {
	uint32_t magic;
	uint32_t version;
	uint32_t strategy;
	uint32_t count;
	uint32_t param[4]; /* init arguments: gba-obj-map: param[0] = first block */
} vs_gba_req_block;

/* Program states. */
enum {
	VS_GBA_ST_BOOT = 0,
	VS_GBA_ST_RUNNING = 1,
	VS_GBA_ST_FULL = 2,  /* result buffer full: read it, then ack = seq */
	VS_GBA_ST_DONE = 3,
	VS_GBA_ST_ERROR = 4
};

/* Errors (mailbox `error`). */
enum {
	VS_GBA_E_NONE = 0,
	VS_GBA_E_NO_REQUESTS = 1, /* no request block at __rom_end */
	VS_GBA_E_VERSION = 2,
	VS_GBA_E_STRATEGY = 3,    /* strategy not built into this ROM */
	VS_GBA_E_SLOT = 4,        /* slot >= VS_GBA_SLOTS */
	VS_GBA_E_OP = 5,
	VS_GBA_E_BYTES = 6        /* a sprite's bytes in VRAM are not what was written (moves) */
};

/* Code placement (mailbox `code`). */
enum { VS_GBA_CODE_THUMB_ROM = 0, VS_GBA_CODE_ARM_IWRAM = 1 };

typedef struct vs_gba_mailbox {
	uint32_t magic;       /* VS_GBA_MB_MAGIC once the program runs */
	uint32_t version;     /* VS_GBA_PROTO_VERSION */
	uint32_t state;       /* VS_GBA_ST_* */
	uint32_t error;       /* VS_GBA_E_* */
	uint32_t error_index; /* request that caused it */
	uint32_t waitcnt;     /* WAITCNT as read back after start-up */
	uint32_t code;        /* VS_GBA_CODE_* */
	uint32_t overhead;    /* cycles of an empty timed call (2 arguments), subtracted */
	uint32_t done;        /* requests processed so far */
	uint32_t chunk_first; /* index of the request results[0] belongs to */
	uint32_t chunk_count; /* results valid in this chunk */
	uint32_t seq;         /* chunks handed over so far */
	uint32_t ack;         /* host: set to seq once a full chunk is read */
	uint32_t overhead3;   /* the same with 3 arguments */
	uint32_t overhead4;   /* the same with 4 arguments */
	/* DMA3 measured at start-up (fewest cycles of 8 tries, timing overhead
	 * subtracted): one transfer of 8 and of 1,024 words, VRAM to VRAM and
	 * ROM to VRAM; and the overhead subtracted from a batch of moves (an
	 * empty batch through the same code). */
	uint32_t dma_vram8, dma_vram1024, dma_rom8, dma_rom1024, move_overhead;
	uint32_t reserved[44];
	vs_gba_result results[VS_GBA_RESULT_CAP];
} vs_gba_mailbox;

#define VS_GBA_MB_OFF_STATE 8u
#define VS_GBA_MB_OFF_ACK 48u
#define VS_GBA_MB_OFF_RESULTS 256u

#endif
