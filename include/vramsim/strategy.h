/* SPDX-License-Identifier: Zlib */
/* strategy.h - the interface every allocation strategy implements.
 *
 * A strategy is a table of functions over a state block the simulator owns.
 * Built-in strategies adapt the freestanding allocator code in src/alloc/;
 * plug-ins (see plugin entry point below and docs/strategy-api.md) bring
 * their own. The simulator never looks inside the state.
 *
 * Rules a strategy follows:
 *  - all its state lives in the state_size bytes it is given (plus, for
 *    allocators that keep headers in the memory they manage, the arena
 *    bytes passed to init);
 *  - with VS_STRAT_RELOCATABLE set, the state holds no pointers into itself,
 *    so a memcpy of it is a snapshot (the viewer seeks through these);
 *  - it reports placements as arena offsets, never host pointers.
 */
#ifndef VRAMSIM_STRATEGY_H
#define VRAMSIM_STRATEGY_H

#include <stddef.h>
#include <stdint.h>

#include "vramsim/arena.h"
#include "vramsim/request.h"

/* The table layout's version. 1: up to held; 2: adds ram, moves, frame;
 * 3: adds vramcnt, lock; 4: adds released. Tables of an older version are
 * still accepted (the fields they lack read as NULL). */
#define VS_STRATEGY_ABI 4
#define VS_STRATEGY_ABI_OLDEST 1

/* Results of allocate / free. Negative values are failures. */
typedef enum vs_status {
	VS_OK = 0,
	VS_RETAINED = 1,        /* free accepted, memory stays held (frame / static allocators) */
	VS_ERR_NOSPACE = -1,    /* no place found */
	VS_ERR_MANAGEMENT = -2, /* out of bookkeeping (management blocks, list nodes) */
	VS_ERR_RULE = -3,       /* the request breaks a rule the allocator enforces */
	VS_ERR_UNSUPPORTED = -4,/* this strategy cannot serve this kind of request */
	VS_ERR_INVALID = -5,    /* bad arguments: unknown block, double free */
	VS_ERR_LOST = -6        /* free failed and the region is lost until reset */
} vs_status;

/* Where an allocation landed. offset/granted are what the owner may use;
 * block covers everything taken from free space (headers, padding). A
 * strategy that has no headers leaves block_size 0 and the simulator uses
 * offset/granted. key is the strategy's own handle for the allocation
 * (an NNS key, a block id); it is handed back on free. */
typedef struct vs_placement {
	uint32_t offset;
	uint32_t granted;
	uint32_t block_offset;
	uint32_t block_size;
	uint32_t key;
	uint8_t shared;  /* already-loaded data handed out again (BG tile hit) */
} vs_placement;

typedef struct vs_extent { uint32_t offset, size; } vs_extent;

/* A live allocation moved by its strategy: the block that alloc placed at
 * from (its block_offset) now starts at to, with its data; key is the
 * placement's key, which stays the same. */
typedef struct vs_move { uint32_t key, from, to; } vs_move;
/* A move to VS_MOVE_RAM copies the block out to RAM (its memory free); a
 * later move of the same list from VS_MOVE_RAM with its key puts it back
 * (NightFox's Lib compacts through a RAM buffer). */
#define VS_MOVE_RAM 0xFFFFFFFFu
typedef int (*vs_extent_fn)(void *ud, uint32_t offset, uint32_t size);
typedef void (*vs_print_fn)(void *ud, const char *text);

enum {
	VS_STRAT_RELOCATABLE = 1u << 0, /* state can be copied with memcpy */
	VS_STRAT_NATIVE_STATE = 1u << 1, /* save/restore are the allocator's own (frame managers) */
	VS_STRAT_NEEDS_AT = 1u << 2,    /* places by the game's answer (at=): a trace without it is an error */
	/* places sprites for 2D OBJ mapping (an arena with map=2d): a sprite's
	 * data is the rectangle of rows vs_hw_footprint gives, starting at
	 * offset, and granted is its request's size. Without it a strategy
	 * places for 1D mapping only and is refused a 2D arena. */
	VS_STRAT_OBJ_2D = 1u << 3,
	/* never reads or writes the arena's bytes (it keeps all its books in
	 * its state): init gets mem NULL. The replay is then the only writer,
	 * and it writes only units its ownership checks proved the
	 * allocation's, so a live allocation's bytes cannot change: the byte
	 * check is kept by those checks and the bytes need not be written
	 * (see check_bytes in replay.h). */
	VS_STRAT_NO_MEM = 1u << 4,
	/* takes a `realloc` whole (vs_request has_prev/prev_key): alloc frees
	 * or keeps the live allocation itself, and a failure leaves it freed
	 * (glTexImage2D frees before it searches). Without the flag the replay
	 * frees the allocation through the strategy, then allocates. */
	VS_STRAT_REALLOC = 1u << 5,
	/* moves live allocations inside its free too (NightFox's Lib compacts
	 * there): the replay reads moves() after a free as well */
	VS_STRAT_FREE_MOVES = 1u << 6,
	/* every store it makes into the arena's bytes goes through the heaps'
	 * store helper (heap_st32 / heap_watch_store in
	 * vramsim/alloc/heap_common.h) compiled into vramsim itself, so the
	 * replay sees each one: the byte check is then kept by those stores,
	 * and no byte of the allocations is written (check_bytes in
	 * replay.h). For vramsim's own heaps; a plug-in leaves it unset. */
	VS_STRAT_STORES_SEEN = 1u << 7,
	/* what held reports never changes in an alloc or free call (a heap's
	 * control block and end, fixed by init): the replay asks held after
	 * init, reset, restore and a bank's remap, not after each alloc and
	 * free as it does without the flag. */
	VS_STRAT_HELD_FIXED = 1u << 8
};

typedef struct vs_strategy {
	uint32_t abi;            /* VS_STRATEGY_ABI (or an older one down to VS_STRATEGY_ABI_OLDEST) */
	const char *name;        /* command-line name: lower case, dashes */
	const char *summary;     /* one line */
	uint32_t arenas;         /* VS_ARENA_BIT() of the kinds it manages */
	uint32_t flags;
	size_t state_size;

	/* Set up for an arena. options is "key=value,..." from the command line
	 * or the trace, or "" (never NULL). mem is the arena's bytes, for
	 * allocators that keep headers in the memory they manage (NULL with
	 * VS_STRAT_NO_MEM). Returns 0,
	 * or non-zero with a message in err. */
	int (*init)(void *st, const vs_arena_decl *arena, const char *options,
		uint8_t *mem, char *err, size_t errlen);
	int (*alloc)(void *st, const vs_request *rq, vs_placement *out);
	int (*free)(void *st, const vs_placement *pl);
	void (*reset)(void *st);
	/* Calls fn(ud, offset, size) for each extent the strategy considers
	 * free, in any order; stops early when fn returns non-zero. */
	void (*walk_free)(void *st, vs_extent_fn fn, void *ud);

	/* Optional (may be NULL). save writes at most save_size bytes. */
	size_t save_size;
	int (*save)(void *st, void *buf);
	int (*restore)(void *st, const void *buf);
	void (*dump)(void *st, vs_print_fn print, void *ud);
	void (*fini)(void *st);
	/* Optional: calls fn(ud, offset, size) for each extent the strategy
	 * keeps for itself outside every allocation - control blocks, bit maps,
	 * tables in the arena, a reserved tile. The simulator marks them as
	 * management overhead (free-space metrics then count only what can be
	 * handed out) and asks again after every call that may change them. A
	 * shared placement (a hit) on held units is data the strategy keeps
	 * loaded itself (BG tile 0): it is neither marked nor counted. */
	void (*held)(void *st, vs_extent_fn fn, void *ud);

	/* ---- ABI 2 ---- */
	/* Optional: the bytes of RAM the allocator keeps for its bookkeeping
	 * outside the memory it manages (maps, tables, lists, headers kept
	 * apart), as the same code would need on the console. Asked after
	 * every call; must be cheap. NULL: state_size. */
	uint64_t (*ram)(void *st);
	/* Optional: the live allocations the strategy moved in its last alloc
	 * or frame call (or free, with VS_STRAT_FREE_MOVES), in the order they are carried out (before the new
	 * data is uploaded). Writes at most max to out and returns how many
	 * there are (call again with room for all when that is more). The
	 * replay copies each block's bytes, moves its ownership and checks
	 * the move like a placement. */
	size_t (*moves)(void *st, vs_move *out, size_t max);
	/* Optional: a frame boundary (the game's VBlank), where a strategy may
	 * compact; its moves are read with moves(). */
	void (*frame)(void *st);

	/* ---- ABI 3 ---- */
	/* Optional: the game wrote VRAMCNT of bank 0-8 (A-I) (trace line
	 * `vramcnt BANK VALUE`), for allocators that read the bank registers
	 * at each call (libnds videoGL). The replay has already taken away
	 * the memory that left the arena and given it what came. */
	void (*vramcnt)(void *st, unsigned bank, uint8_t value);
	/* Optional: the game locked (locked 1) or unlocked a bank for its
	 * allocator (glLockVRAMBank; trace lines `lock BANK`, `unlock BANK`). */
	void (*lock)(void *st, unsigned bank, int locked);

	/* ---- ABI 4 ---- */
	/* Optional: allocations the strategy kept when the game freed them
	 * (free answered VS_RETAINED) and let go for good in its last alloc or
	 * frame call, by block offset (the placement's block_offset), in any
	 * order. Writes at most max to out and returns how many there are
	 * (call again with room for all when that is more). The replay drops
	 * them before it books the call's placement. With it, a placement
	 * with shared set at a kept block's offset takes that block back: the
	 * data is still loaded there (Butano's sprite tiles keep released
	 * graphics until the frame's update and hand them out again). */
	size_t (*released)(void *st, uint32_t *out, size_t max);
} vs_strategy;

/* ---- plug-ins ---------------------------------------------------------
 * A plug-in is a shared object exporting
 *
 *   const vs_plugin *vramsim_plugin_v1(void);
 *
 * returning a static table. The "_v1" in the symbol is the entry point's
 * version; abi inside each vs_strategy is the table layout's version.
 */
#define VS_PLUGIN_SYMBOL "vramsim_plugin_v1"

typedef struct vs_plugin {
	uint32_t abi;                          /* VS_STRATEGY_ABI, or an older one */
	const char *name;                      /* the plug-in's own name */
	size_t count;
	const vs_strategy *const *strategies;
} vs_plugin;

/* At most this many strategies in one plug-in (and in all plug-ins). */
#define VS_PLUGIN_MAX_STRATEGIES 64

#endif
