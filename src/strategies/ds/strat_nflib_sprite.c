/* SPDX-License-Identifier: Zlib */
/* strat_nflib_sprite.c - strategy adapters for NightFox's Lib's sprite
 * graphics allocator (nflib-sprite, ds-obj arenas: bank B at the main OBJ
 * base or D at the sub's, mode=64|128 as NF_InitSpriteSys) and its 3D
 * sprite texture allocator (nflib-sprite3d, ds-tex arenas: bank B as
 * texture slot 1). Option fixed=yes for both (nflib_sprite.h).
 *
 * Graphics ids (NF's `vram` argument, chosen by the game) are given lowest
 * free first. NF compacts inside NF_FreeSpriteGfx (VS_STRAT_FREE_MOVES):
 * the adapter keeps the offsets the replay has and, right after the free,
 * reports the moves that bring them to NF's, in an order the replay can
 * carry out one block at a time (plan_moves). An alloc or a frame moves
 * nothing. */
#include <stdio.h>
#include <string.h>

#include "vramsim/alloc/nflib_sprite.h"
#include "strategies/strategies.h"
#include "base/options.h"
#include "strat_ds.h"

#define NONE 0xFFFFFFFFu
#define MOVES_MAX (2u * NFLIB_SPRITE_IDS_MAX) /* each live graphic out to RAM and back */

typedef struct nf_strat {
	nflib_sprite m;
	uint32_t origin;          /* the address at arena offset 0 */
	uint32_t max;             /* NF's max: mode * 1024, or 131072 for 3D */
	uint32_t lo, hi;          /* the bank NF maps, as arena offsets (where blocks may be parked) */
	uint8_t bank_b_slot1;     /* 3D: bank B is texture slot 1, as NF_Init3dSpriteSys maps it */
	uint32_t seen[NFLIB_SPRITE_IDS_MAX]; /* offset the replay has for each live id, else NONE */
	uint32_t defrags_seen;    /* m.defrags when the moves were last planned */
	uint32_t nmv;
	vs_move mv[MOVES_MAX];
} nf_strat;

static int fixed_option(const char *options, unsigned *flags, char *err, size_t errlen)
{
	char v[8];

	if (!vs_option_get(options, "fixed", v, sizeof v) || !strcmp(v, "no"))
		return 0;
	if (!strcmp(v, "yes")) {
		*flags |= NFLIB_FIX_ALL;
		return 0;
	}
	snprintf(err, errlen, "fixed=%s: yes or no", v);
	return -1;
}

static void nf_clear(nf_strat *s)
{
	uint32_t i;

	for (i = 0; i < NFLIB_SPRITE_IDS_MAX; i++)
		s->seen[i] = NONE;
	s->nmv = 0;
	s->defrags_seen = 0;
}

static int nf2d_init(void *st, const vs_arena_decl *a, const char *options, uint8_t *mem, char *err, size_t errlen)
{
	static const char *const known[] = { "mode", "fixed", NULL };
	nf_strat *s = st;
	/* NF_InitSpriteSys sets DISPCNT to 1D_64 or 1D_128: the arena's boundary
	 * says which the game chose */
	uint32_t mode = a->ds_obj_boundary == 4 ? 128 : 64;
	unsigned flags = 0;

	(void)mem;
	if (vs_option_check(options, known, err, errlen) || fixed_option(options, &flags, err, errlen) ||
		vs_option_u32(options, "mode", 64, 128, &mode, err, errlen) < 0)
		return -1;
	if (mode != 64 && mode != 128) {
		snprintf(err, errlen, "mode=%u: 64 or 128 (NF_InitSpriteSys)", (unsigned)mode);
		return -1;
	}
	if (a->ds_obj_boundary > 4) {
		snprintf(err, errlen, "arena '%s' has a %u-byte 1D boundary; NightFox's Lib sets 1D_64 or 1D_128 "
			"(NF_InitSpriteSys)", a->name, 32u * a->ds_obj_boundary);
		return -1;
	}
	s->origin = a->ds_engine == VS_DS_ENGINE_B ? NFLIB_BASE_SUB : NFLIB_BASE_MAIN;
	s->lo = 0;
	s->hi = 0x20000u; /* banks B and D are 128 KiB */
	s->max = mode * 1024u;
	nflib_sprite_init(&s->m, s->origin, s->max, flags);
	nf_clear(s);
	return 0;
}

static int nf3d_init(void *st, const vs_arena_decl *a, const char *options, uint8_t *mem, char *err, size_t errlen)
{
	static const char *const known[] = { "fixed", NULL };
	nf_strat *s = st;
	unsigned flags = NFLIB_3D;

	(void)mem;
	if (vs_option_check(options, known, err, errlen) || fixed_option(options, &flags, err, errlen))
		return -1;
	s->origin = NFLIB_BASE_3D - VS_DS_TEX_SLOT; /* LCDC bank A's address: texture offset 0 */
	s->bank_b_slot1 = a->ds_bank_slot[1] == 1;
	s->lo = VS_DS_TEX_SLOT;
	s->hi = 2u * VS_DS_TEX_SLOT;
	s->max = NFLIB_3D_BYTES;
	nflib_sprite_init(&s->m, NFLIB_BASE_3D, s->max, flags);
	nf_clear(s);
	return 0;
}

static void emit(nf_strat *s, uint32_t key, uint32_t from, uint32_t to)
{
	s->mv[s->nmv].key = key;
	s->mv[s->nmv].from = from;
	s->mv[s->nmv].to = to;
	s->nmv++;
}

/* NF_VramSpriteGfxDefrag's copies: every live graphic out to the RAM
 * buffer, then each back at NF's address, in id order. */
static void plan_moves(nf_strat *s)
{
	uint32_t k;

	s->nmv = 0;
	if (s->m.broken || s->m.defrags == s->defrags_seen)
		return;
	s->defrags_seen = s->m.defrags;
	for (k = 0; k < s->m.ids; k++)
		if (s->seen[k] != NONE)
			emit(s, k, s->seen[k], VS_MOVE_RAM);
	for (k = 0; k < s->m.ids; k++)
		if (s->seen[k] != NONE) {
			s->seen[k] = s->m.addr[k] - s->origin;
			emit(s, k, VS_MOVE_RAM, s->seen[k]);
		}
}

static int nf_place(nf_strat *s, uint32_t bytes, vs_placement *out)
{
	uint32_t id;
	int64_t r;

	if (s->m.broken)
		return VS_ERR_MANAGEMENT;
	if (bytes == 0)
		return VS_ERR_INVALID;
	for (id = 0; id < s->m.ids && s->m.inuse[id]; id++)
		;
	if (id == s->m.ids)
		return VS_ERR_MANAGEMENT; /* every graphics id in use (NF_Error 109 for the game) */
	r = nflib_sprite_alloc(&s->m, (uint16_t)id, bytes);
	if (r < 0)
		return r == NFLIB_ERR_SPACE ? VS_ERR_NOSPACE : VS_ERR_MANAGEMENT;
	vs_placement_simple(out, (uint32_t)r - s->origin, bytes, id);
	s->seen[id] = (uint32_t)r - s->origin;
	return VS_OK;
}

int vs_nflib_request(const void *st, const vs_request *rq, uint32_t *bytes)
{
	const nf_strat *s = st;
	bool is4x4;
	int rc;

	if (!(s->m.flags & NFLIB_3D)) {
		if ((rq->shape != VS_REQ_SPRITE || rq->u.sprite.bpp != 8) && rq->shape != VS_REQ_BYTES)
			return VS_ERR_UNSUPPORTED; /* NF's sprites are 256-colour (nf_sprite256) */
		/* "When using mode 128, 8x8 pixels sprites can't be used" (NF_InitSpriteSys's
		 * documentation): a sprite of fewer bytes than the mode's boundary */
		if (rq->shape == VS_REQ_SPRITE && rq->size % (s->max / 1024u))
			return VS_ERR_UNSUPPORTED;
		*bytes = rq->size;
		return VS_OK;
	}
	if ((rc = vs_ds_tex_request(rq, bytes, &is4x4)) != VS_OK)
		return rc;
	if (is4x4)
		return VS_ERR_UNSUPPORTED; /* NF's 3D sprites are 256-colour textures */
	/* NF places in bank B whatever the game maps (NF_Init3dSpriteSys maps it
	 * itself, nf_sprite3d.c): where the trace has no bank B at slot 1 (the
	 * bank is the game's for something else) the texture has no place. */
	return s->bank_b_slot1 ? VS_OK : VS_ERR_RULE;
}

const nflib_sprite *vs_nflib_books(const void *st, uint32_t *origin, uint32_t *max)
{
	const nf_strat *s = st;

	*origin = s->origin;
	*max = s->max;
	return &s->m;
}

static int nf_alloc(void *st, const vs_request *rq, vs_placement *out)
{
	uint32_t bytes;
	int rc = vs_nflib_request(st, rq, &bytes);

	((nf_strat *)st)->nmv = 0; /* NF moves nothing here */
	return rc != VS_OK ? rc : nf_place(st, bytes, out);
}

/* Bank B written: texture slot 1 again, or gone (VRAMCNT_B: enable, MST 3
 * with bit 2 ignored, OFS 1; GBATEK "DS Memory Control - VRAM"). */
static void nf3d_vramcnt(void *st, unsigned bank, uint8_t value)
{
	if (bank == 1)
		((nf_strat *)st)->bank_b_slot1 = (value & 0x9Bu) == 0x8Bu;
}

static int nf_free(void *st, const vs_placement *pl)
{
	nf_strat *s = st;
	int r;

	if (pl->key >= s->m.ids)
		return VS_ERR_INVALID;
	r = nflib_sprite_free(&s->m, (uint16_t)pl->key);
	if (r == NFLIB_ERR_ID)
		return VS_ERR_INVALID;
	s->seen[pl->key] = NONE; /* the replay drops it before it reads the moves */
	plan_moves(s); /* the compaction NF_FreeSpriteGfx may have done */
	return r == NFLIB_ERR_BROKEN ? VS_ERR_LOST : VS_OK;
}

static void nf_reset(void *st)
{
	nf_strat *s = st;

	nflib_sprite_init(&s->m, s->m.base, s->max, s->m.flags);
	nf_clear(s);
}

static void nf_walk(void *st, vs_extent_fn fn, void *ud)
{
	const nf_strat *s = st;
	uint32_t k, d = nflib_sprite_deleted(&s->m), next = nflib_sprite_next(&s->m);
	int32_t inarow = nflib_sprite_inarow(&s->m);

	if (s->m.broken)
		return;
	for (k = 0; k < d && k < s->m.ids; k++) {
		uint32_t at = nflib_sprite_pos(&s->m, k) - s->origin, len = nflib_sprite_size(&s->m, k);
		if (at >= s->lo && at < s->hi && len && len <= s->hi - at && fn(ud, at, len))
			return;
	}
	next -= s->origin;
	if (inarow > 0 && next >= s->lo && next < s->hi)
		fn(ud, next, (uint32_t)inarow < s->hi - next ? (uint32_t)inarow : s->hi - next);
}

static void nf_dump(void *st, vs_print_fn print, void *ud)
{
	const nf_strat *s = st;
	uint32_t k, d = nflib_sprite_deleted(&s->m);
	char line[160];

	snprintf(line, sizeof line, "NightFox's Lib %s VRAM: free %d, next 0x%08x, deleted %u, fragmented %d, "
		"inarow %d, %u compactions%s\n", (s->m.flags & NFLIB_3D) ? "3D sprite texture" : "sprite",
		(int)nflib_sprite_free_bytes(&s->m), (unsigned)nflib_sprite_next(&s->m), (unsigned)d,
		(int)nflib_sprite_fragmented(&s->m), (int)nflib_sprite_inarow(&s->m), (unsigned)s->m.defrags,
		s->m.broken ? "; BROKEN: written past its struct" : "");
	print(ud, line);
	for (k = 0; k < d && k < s->m.ids; k++) {
		snprintf(line, sizeof line, "  freed[%u] 0x%08x +%u\n", (unsigned)k, (unsigned)nflib_sprite_pos(&s->m, k),
			(unsigned)nflib_sprite_size(&s->m, k));
		print(ud, line);
	}
	for (k = 0; k < s->m.ids; k++)
		if (s->m.inuse[k]) {
			snprintf(line, sizeof line, "  gfx %u at 0x%08x +%u\n", (unsigned)k, (unsigned)s->m.addr[k],
				(unsigned)s->m.size[k]);
			print(ud, line);
		}
}

static size_t nf_moves(void *st, vs_move *out, size_t max)
{
	const nf_strat *s = st;
	size_t i;

	for (i = 0; i < s->nmv && i < max; i++)
		out[i] = s->mv[i];
	return s->nmv;
}

/* The INFO struct and the per-id records (NF_TYPE_SPR256VRAM_INFO: 20 bytes). */
static uint64_t nf_ram(void *st)
{
	const nf_strat *s = st;

	return 4u * (uint64_t)s->m.nwords + 20u * (uint64_t)s->m.ids;
}

const vs_strategy vs_strat_nflib_sprite = {
	.abi = VS_STRATEGY_ABI,
	.name = "nflib-sprite",
	.summary = "NightFox's Lib sprite VRAM: exact-size reuse, else first larger freed block, else bump; no "
		"merging; compacts all on a free when fragmented >= inarow/2 (mode=64|128)",
	.arenas = VS_ARENA_BIT(VS_ARENA_DS_OBJ),
	.flags = VS_STRAT_RELOCATABLE | VS_STRAT_NO_MEM | VS_STRAT_FREE_MOVES,
	.state_size = sizeof(nf_strat),
	.init = nf2d_init,
	.alloc = nf_alloc,
	.free = nf_free,
	.reset = nf_reset,
	.walk_free = nf_walk,
	.dump = nf_dump,
	.ram = nf_ram,
	.moves = nf_moves
};

const vs_strategy vs_strat_nflib_sprite3d = {
	.abi = VS_STRATEGY_ABI,
	.name = "nflib-sprite3d",
	.summary = "NightFox's Lib 3D sprite textures in bank B as slot 1: as nflib-sprite with 256 ids, but a "
		"larger freed block is sought only when an exact one exists (the inverted test), and then wins",
	.arenas = VS_ARENA_BIT(VS_ARENA_DS_TEX),
	.flags = VS_STRAT_RELOCATABLE | VS_STRAT_NO_MEM | VS_STRAT_FREE_MOVES,
	.state_size = sizeof(nf_strat),
	.init = nf3d_init,
	.alloc = nf_alloc,
	.free = nf_free,
	.reset = nf_reset,
	.walk_free = nf_walk,
	.dump = nf_dump,
	.ram = nf_ram,
	.moves = nf_moves,
	.vramcnt = nf3d_vramcnt
};
