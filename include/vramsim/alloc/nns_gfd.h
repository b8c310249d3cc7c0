/* SPDX-License-Identifier: Zlib */
/* nns_gfd.h - the NITRO-System VRAM managers (NNS_Gfd), reproduced exactly.
 *
 * Behaviour follows shared/reference/nns-gfd.md: the same keys and return
 * codes, in the same order, as the real managers for any sequence of calls.
 *
 * The real library keeps four replaceable function pointers and each
 * manager's state in globals. Here all of that lives in one nns_gfd_ctx the
 * caller owns: the "function pointers" are enums saying which manager is
 * installed, and the linked-list managers' management blocks come from the
 * ctx's trailing block array (the caller gives each manager a range of it,
 * as the real caller gives a work buffer). Block links are indices, so a
 * memcpy of the whole ctx (header plus blocks) is a snapshot.
 *
 * Freestanding: no host headers.
 */
#ifndef VRAMSIM_ALLOC_NNS_GFD_H
#define VRAMSIM_ALLOC_NNS_GFD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- keys ------------------------------------------------------------ */
typedef uint32_t nns_tex_key;   /* bits 0-15 addr/8, 16-30 size/16, 31 4x4 */
typedef uint32_t nns_pltt_key;  /* bits 0-15 addr/8, 16-31 size/8 */

#define NNS_GFD_ALLOC_ERROR_TEXKEY 0u
#define NNS_GFD_ALLOC_ERROR_PLTTKEY 0u
#define NNS_GFD_ALLOC_FROM_HIGH 0u
#define NNS_GFD_ALLOC_FROM_LOW 1u

static inline nns_tex_key nns_tex_key_make(uint32_t addr, uint32_t size, bool is4x4)
{
	return (addr >> 3) | ((size >> 4) << 16) | (is4x4 ? 0x80000000u : 0u);
}
static inline uint32_t nns_tex_key_addr(nns_tex_key k) { return (k & 0xFFFFu) << 3; }
static inline uint32_t nns_tex_key_size(nns_tex_key k) { return ((k >> 16) & 0x7FFFu) << 4; }
static inline bool nns_tex_key_4x4(nns_tex_key k) { return (k >> 31) != 0; }

static inline nns_pltt_key nns_pltt_key_make(uint32_t addr, uint32_t size)
{
	return (addr >> 3) | ((size >> 3) << 16);
}
static inline uint32_t nns_pltt_key_addr(nns_pltt_key k) { return (k & 0xFFFFu) << 3; }
static inline uint32_t nns_pltt_key_size(nns_pltt_key k) { return (k >> 16) << 3; }

/* Request sizes as the managers round them: texture to 16 (0 -> 16),
 * palette to 8 (0 -> 8). Return 0 when the rounded size is at or past the
 * limit (0x7FFF0 / 0x7FFF8): such a request fails. */
uint32_t nns_gfd_round_tex_size(uint32_t sz);
uint32_t nns_gfd_round_pltt_size(uint32_t sz);

/* ---- state ----------------------------------------------------------- */
enum nns_gfd_mgr { NNS_GFD_MGR_NONE = 0, NNS_GFD_MGR_FRM = 1, NNS_GFD_MGR_LNK = 2 };

/* Why the last failed alloc or free failed (a simulator's note; the real
 * managers only return the error key or 1). */
enum nns_gfd_fail {
	NNS_GFD_FAIL_NONE = 0,
	NNS_GFD_FAIL_SPACE,   /* no region large enough (or a bad size) */
	NNS_GFD_FAIL_BLOCKS,  /* no management block left in the pool */
	NNS_GFD_FAIL_FOUR     /* a 4-colour palette placed past 0x10000 */
};

#define NNS_FRM_TEX_REGIONS 5
#define NNS_LNK_NONE 0xFFFFu

/* NNSGfdFrmTexVramState: head and tail of each region, offsets from its base. */
typedef struct nns_frm_tex_state {
	uint32_t head[NNS_FRM_TEX_REGIONS];
	uint32_t tail[NNS_FRM_TEX_REGIONS];
} nns_frm_tex_state;

typedef struct nns_frm_tex {
	nns_frm_tex_state st;
	uint16_t num_slot;
	uint16_t num_region; /* regions 0..num_region-1 are active */
} nns_frm_tex;

/* NNSGfdFrmPlttVramState. */
typedef struct nns_frm_pltt_state {
	uint32_t lo, hi;
} nns_frm_pltt_state;

typedef struct nns_frm_pltt {
	nns_frm_pltt_state st;
	uint32_t size;
} nns_frm_pltt;

/* One management block: a free region in a doubly linked list. */
typedef struct nns_lnk_blk {
	uint32_t addr, size;
	uint16_t prev, next;
} nns_lnk_blk;

/* A linked-list manager's list heads, over its own range of the ctx's blocks. */
typedef struct nns_lnk_lists {
	uint16_t first, count;  /* its work buffer: blocks [first, first+count) */
	uint16_t pool;          /* head of the unused blocks */
	uint16_t free[2];       /* free lists: texture 0 normal, 1 4x4; palette 0 only */
} nns_lnk_lists;

typedef struct nns_lnk_tex {
	nns_lnk_lists l;
	uint32_t size, size4x4;
} nns_lnk_tex;

typedef struct nns_lnk_pltt {
	nns_lnk_lists l;
	uint32_t size;
} nns_lnk_pltt;

typedef struct nns_gfd_ctx {
	uint8_t tex_mgr;   /* what NNS_GfdDefaultFuncAlloc/FreeTexVram point at */
	uint8_t pltt_mgr;  /* what NNS_GfdDefaultFuncAlloc/FreePlttVram point at */
	uint16_t nblk;     /* blocks in blk[] */
	uint8_t last_fail; /* enum nns_gfd_fail */
	nns_frm_tex frm_tex;
	nns_frm_pltt frm_pltt;
	nns_lnk_tex lnk_tex;
	nns_lnk_pltt lnk_pltt;
	nns_lnk_blk blk[]; /* the work buffers */
} nns_gfd_ctx;

/* Bytes a ctx with nblk management blocks needs. */
#define NNS_GFD_CTX_BYTES(nblk) (sizeof(nns_gfd_ctx) + (size_t)(nblk) * sizeof(nns_lnk_blk))

/* Nothing installed: alloc returns the error key, free returns -1. nblk is
 * the number of blocks the caller's storage holds after the ctx (0..0xFFFE). */
void nns_gfd_init(nns_gfd_ctx *g, uint16_t nblk);

/* ---- the four common entry points ------------------------------------ */
nns_tex_key nns_gfd_alloc_tex(nns_gfd_ctx *g, uint32_t sz, bool is4x4comp, uint32_t opt);
int nns_gfd_free_tex(nns_gfd_ctx *g, nns_tex_key key);
nns_pltt_key nns_gfd_alloc_pltt(nns_gfd_ctx *g, uint32_t sz, bool is4pltt, uint32_t opt);
int nns_gfd_free_pltt(nns_gfd_ctx *g, nns_pltt_key key);
/* Pointing the entry points elsewhere by hand (NNS_GFD_MGR_NONE restores the defaults). */
void nns_gfd_set_tex_mgr(nns_gfd_ctx *g, enum nns_gfd_mgr m);
void nns_gfd_set_pltt_mgr(nns_gfd_ctx *g, enum nns_gfd_mgr m);

/* ---- frame texture manager ------------------------------------------- */
/* numSlot 1..4; returns false (nothing changed) otherwise. */
bool nns_frm_tex_init(nns_gfd_ctx *g, uint16_t num_slot, bool use_as_default);
nns_tex_key nns_frm_tex_alloc(nns_gfd_ctx *g, uint32_t sz, bool is4x4comp, uint32_t opt);
int nns_frm_tex_free(nns_gfd_ctx *g, nns_tex_key key);
void nns_frm_tex_get_state(const nns_gfd_ctx *g, nns_frm_tex_state *st);
void nns_frm_tex_set_state(nns_gfd_ctx *g, const nns_frm_tex_state *st);
void nns_frm_tex_reset(nns_gfd_ctx *g);
/* Region r's base and size (0..4). */
uint32_t nns_frm_tex_region_base(unsigned r);
uint32_t nns_frm_tex_region_size(unsigned r);

/* ---- frame palette manager ------------------------------------------- */
/* szByte <= 0x18000; returns false otherwise. */
bool nns_frm_pltt_init(nns_gfd_ctx *g, uint32_t sz_byte, bool use_as_default);
nns_pltt_key nns_frm_pltt_alloc(nns_gfd_ctx *g, uint32_t sz, bool is4pltt, uint32_t opt);
int nns_frm_pltt_free(nns_gfd_ctx *g, nns_pltt_key key);
void nns_frm_pltt_get_state(const nns_gfd_ctx *g, nns_frm_pltt_state *st);
void nns_frm_pltt_set_state(nns_gfd_ctx *g, const nns_frm_pltt_state *st);
void nns_frm_pltt_reset(nns_gfd_ctx *g);

/* ---- linked-list texture manager ------------------------------------- */
/* The work buffer is blocks [first_blk, first_blk + num_blk) of g->blk.
 * Returns false (nothing changed) for parameters nns-gfd.md calls invalid
 * or a work range outside the ctx. */
bool nns_lnk_tex_init(nns_gfd_ctx *g, uint32_t sz_byte, uint32_t sz_byte_4x4,
	uint16_t first_blk, uint16_t num_blk, bool use_as_default);
nns_tex_key nns_lnk_tex_alloc(nns_gfd_ctx *g, uint32_t sz, bool is4x4comp, uint32_t opt);
/* 0 freed, 1 the pool ran out (region lost until reset), 2 key size 0. */
int nns_lnk_tex_free(nns_gfd_ctx *g, nns_tex_key key);
void nns_lnk_tex_reset(nns_gfd_ctx *g);

/* ---- linked-list palette manager ------------------------------------- */
bool nns_lnk_pltt_init(nns_gfd_ctx *g, uint32_t sz_byte,
	uint16_t first_blk, uint16_t num_blk, bool use_as_default);
nns_pltt_key nns_lnk_pltt_alloc(nns_gfd_ctx *g, uint32_t sz, bool is4pltt, uint32_t opt);
/* 0 freed, 1 the pool ran out. Freeing a key of size 0 (the error key) is
 * accepted as the real manager does (a zero-size free block is inserted),
 * but never corrupts the lists here: a caller should report it as misuse. */
int nns_lnk_pltt_free(nns_gfd_ctx *g, nns_pltt_key key);
void nns_lnk_pltt_reset(nns_gfd_ctx *g);

/* ---- debug dumps ------------------------------------------------------ */
/* Text goes to print in pieces ending in '\n'. */
typedef void (*nns_gfd_print_fn)(void *ud, const char *text);
/* Ex variants: fn(ud, ...) per region or free block, in the dump's order. */
typedef void (*nns_frm_tex_region_fn)(void *ud, unsigned region, uint32_t base,
	uint32_t head, uint32_t tail, uint32_t size);
typedef void (*nns_lnk_block_fn)(void *ud, uint32_t addr, uint32_t size);

void nns_frm_tex_dump(const nns_gfd_ctx *g, nns_gfd_print_fn print, void *ud);
void nns_frm_tex_dump_ex(const nns_gfd_ctx *g, nns_frm_tex_region_fn fn, void *ud);
void nns_frm_pltt_dump(const nns_gfd_ctx *g, nns_gfd_print_fn print, void *ud);
void nns_lnk_tex_dump(const nns_gfd_ctx *g, nns_gfd_print_fn print, void *ud);
/* which: 0 normal list, 1 4x4 list. */
void nns_lnk_tex_dump_ex(const nns_gfd_ctx *g, int which, nns_lnk_block_fn fn, void *ud);
void nns_lnk_pltt_dump(const nns_gfd_ctx *g, nns_gfd_print_fn print, void *ud);
void nns_lnk_pltt_dump_ex(const nns_gfd_ctx *g, nns_lnk_block_fn fn, void *ud);

#endif
