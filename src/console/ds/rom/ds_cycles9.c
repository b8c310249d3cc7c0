/* SPDX-License-Identifier: Zlib */
/* ds_cycles9.c - the "cycles" DS program, ARM9 side: replays the host's
 * request chunks through one allocator and times every call.
 *
 * The protocol is console/ds/ds_cycles.h: chunks of requests come into the
 * mailbox in main RAM, one result per request goes back beside them. A
 * call is timed as the GBA program times it (console/common/rom/rom_timer.h):
 * timer 0 at prescaler F/1 (33.513982 MHz, half the ARM9's clock)
 * cascading into timer 1. The cost of timing an empty function with the
 * same number of arguments is measured at start-up and subtracted, so a
 * result is what the call itself costs. The allocator
 * code runs from main RAM, uncached (crt9.S leaves the protection unit and
 * the caches off), as the rest of the program.
 */
#include <stdint.h>

#include "console/common/rom/rom_timer.h"
#include "console/ds/ds_cycles.h"
#include "vramsim/alloc/ds_pltt_split.h"
#include "vramsim/alloc/ds_tex_pair.h"
#include "vramsim/alloc/libnds_gl.h"
#include "vramsim/alloc/libnds_sprite.h"
#include "vramsim/alloc/nflib_sprite.h"
#include "vramsim/alloc/nitro_engine_alloc.h"
#include "vramsim/alloc/nitro_engine_vram.h"
#include "vramsim/alloc/nns_gfd.h"

int main(void);

#define MB ((volatile vs_ds_cyc_mailbox *)VS_DS_CYC_MAILBOX)

typedef char mailbox_layout_check[__builtin_offsetof(vs_ds_cyc_mailbox, sets) == VS_DS_CYC_OFF_SETS &&
	__builtin_offsetof(vs_ds_cyc_mailbox, rq) == VS_DS_CYC_OFF_RQ &&
	__builtin_offsetof(vs_ds_cyc_mailbox, res) == VS_DS_CYC_OFF_RES &&
	sizeof(vs_ds_cyc_mailbox) == VS_DS_CYC_BYTES ? 1 : -1];

extern char __bss_end[];

/* The allocator's state, as a game keeps it: in main RAM. */
static union {
	nns_gfd_ctx nns;
	uint8_t nns_bytes[NNS_GFD_CTX_BYTES(VS_DS_CYC_NNS_BLOCKS)];
	ds_tex_pair tex_pair;
	ds_pltt_split pltt_split;
	libnds_sprite sprite;
	ne_vram_tex ne_tex;
	ne_vram_pltt ne_pltt;
	nflib_sprite nf;
	/* libnds videoGL with the adapters' node pools: textures' (and the
	 * palettes' unused two), or palettes' */
	uint8_t lgl_tex[LIBNDS_GL_BYTES(LIBNDS_GL_TEX_NODES, 2)];
	uint8_t lgl_pltt[LIBNDS_GL_BYTES(2, LIBNDS_GL_PAL_NODES)];
} st __attribute__((aligned(8)));
/* NightFox's Lib's max and where arena offset 0 lies. */
static uint32_t nf_max, nf_origin;
/* Nitro Engine's reset parameters, kept for its resets. */
static uint32_t ne_set[4];
/* Each live handle, and what its free needs besides (a size). */
static uint32_t slots[VS_DS_CYC_SLOTS][2];
/* Timing overhead of an empty call with 2, 3 and 4 arguments. */
static uint32_t over2, over3, over4;

/* Empty functions of each shape the allocators' entry points have, kept
 * out of line (noipa: no inlining, no cloning) so that timing one costs
 * what timing a real call costs besides its body. */
__attribute__((noipa)) static uint32_t noop2(void *s, uint32_t a)
{
	(void)s;
	return a;
}

__attribute__((noipa)) static uint32_t noop3(void *s, uint32_t a, uint32_t b)
{
	(void)s, (void)b;
	return a;
}

__attribute__((noipa)) static uint32_t noop4(void *s, uint32_t a, uint32_t b, uint32_t c)
{
	(void)s, (void)b, (void)c;
	return a;
}

static void fail(uint32_t error, uint32_t index)
{
	MB->error = error;
	MB->error_index = index;
	MB->state = VS_DS_CYC_ST_ERROR;
	for (;;)
		;
}

/* The fewest ticks an empty call costs, of 16 tries. */
static void calibrate(void)
{
	uint32_t i;
	void *s = &st;

	over2 = over3 = over4 = 0xFFFFFFFFu;
	for (i = 0; i < 16; i++) {
		uint32_t a = i, b = i + 1, c = i + 2;

		VS_ROM_TIMED_FEWEST(over2, noop2(s, a), s, a);
		VS_ROM_TIMED_FEWEST(over3, noop3(s, a, b), s, a, b);
		VS_ROM_TIMED_FEWEST(over4, noop4(s, a, b, c), s, a, b, c);
	}
}

static inline void answer(uint32_t i, uint32_t value, uint32_t cyc, uint32_t overhead)
{
	MB->res[i].value = value;
	MB->res[i].cycles = vs_rom_timer_net(cyc, overhead);
}

/* Request i's slot, checked. */
static uint32_t slot_of(const volatile vs_cycles_req *rq, uint32_t i, uint32_t first)
{
	if (rq->slot >= VS_DS_CYC_SLOTS)
		fail(VS_DS_CYC_E_SLOT, first + i);
	if (rq->op > VS_CYCLES_OP_BANK)
		fail(VS_DS_CYC_E_OP, first + i);
	return rq->slot;
}

/* The parameter set a reset request names (set arg + 1), checked. */
static const volatile uint32_t *set_of(uint32_t arg, uint32_t index)
{
	if (arg + 1 >= MB->nsets || arg + 1 >= VS_DS_CYC_SETS)
		fail(VS_DS_CYC_E_SET, index);
	return MB->sets[arg + 1];
}

/* ---- the allocator families ---------------------------------------------------
 * What each family of allocators does with a request: its set-up from a
 * parameter set (init), an allocation and a free (each times its own direct
 * call), a reset (RESET_REQUEST) and, for libnds videoGL only, a bank
 * request. run_chunk walks a chunk, checks each request and answers the
 * rest the same way for every family. */
typedef struct family {
	int (*init)(uint32_t strategy, const volatile uint32_t *p); /* 0 when it refuses p */
	void (*alloc)(uint32_t strategy, uint32_t i, const volatile vs_cycles_req *rq, uint32_t slot);
	void (*free)(uint32_t strategy, uint32_t i, uint32_t slot);
	void (*reset)(uint32_t strategy, uint32_t i, const volatile vs_cycles_req *rq, uint32_t first);
	void (*bank)(uint32_t strategy, uint32_t arg); /* NULL: none */
} family;

/* Defines fn, a family's reset request: the manager's reset, or (an init)
 * its set-up with the parameter set p_ the request names; timed alike.
 * Stamped out per family so that both timed calls stay direct. */
#define RESET_REQUEST(fn, reset_call, init_call) \
static void fn(uint32_t strategy, uint32_t i, const volatile vs_cycles_req *rq, uint32_t first) \
{ \
	uint32_t r_, cyc; \
\
	if (rq->flags & VS_CYCLES_F_INIT) { \
		const volatile uint32_t *p_ = set_of(rq->arg, first + i); \
		VS_ROM_TIMED(r_, cyc, (uint32_t)(init_call), strategy, p_); \
		if (!r_) \
			fail(VS_DS_CYC_E_INIT, first + i); \
	} else { \
		VS_ROM_TIMED(r_, cyc, ((reset_call), 1u), strategy, strategy); \
	} \
	answer(i, 0, cyc, over2); \
}

/* ---- the NITRO-System managers ---------------------------------------------- */

/* Installs the manager from parameter set p, untimed or timed by the
 * caller; 0 when it refuses them. */
static int nns_init(uint32_t strategy, const volatile uint32_t *p)
{
	nns_gfd_ctx *g = &st.nns;

	switch (strategy) {
	case VS_DS_CYC_NNS_LNK_TEX:
		nns_gfd_init(g, VS_DS_CYC_NNS_BLOCKS);
		return nns_lnk_tex_init(g, p[0], p[1], 0, (uint16_t)p[2], true);
	case VS_DS_CYC_NNS_LNK_PLTT:
		nns_gfd_init(g, VS_DS_CYC_NNS_BLOCKS);
		return nns_lnk_pltt_init(g, p[0], 0, (uint16_t)p[1], true);
	case VS_DS_CYC_NNS_FRM_TEX:
		nns_gfd_init(g, 0);
		return nns_frm_tex_init(g, (uint16_t)p[0], true);
	default:
		nns_gfd_init(g, 0);
		return nns_frm_pltt_init(g, p[0], true);
	}
}

static void nns_reset(uint32_t strategy)
{
	nns_gfd_ctx *g = &st.nns;

	switch (strategy) {
	case VS_DS_CYC_NNS_LNK_TEX:
		nns_lnk_tex_reset(g);
		break;
	case VS_DS_CYC_NNS_LNK_PLTT:
		nns_lnk_pltt_reset(g);
		break;
	case VS_DS_CYC_NNS_FRM_TEX:
		nns_frm_tex_reset(g);
		break;
	default:
		nns_frm_pltt_reset(g);
	}
}

RESET_REQUEST(nns_reset_request, nns_reset(strategy), nns_init(strategy, p_))

static int nns_tex(uint32_t strategy)
{
	return strategy == VS_DS_CYC_NNS_LNK_TEX || strategy == VS_DS_CYC_NNS_FRM_TEX;
}

static void nns_alloc_request(uint32_t strategy, uint32_t i, const volatile vs_cycles_req *rq, uint32_t slot)
{
	nns_gfd_ctx *g = &st.nns;
	uint32_t cyc, key, bytes = rq->arg;
	bool four = (rq->flags & VS_DS_CYC_F_4X4) != 0;
	uint32_t opt = rq->flags & VS_DS_CYC_F_LOW ? NNS_GFD_ALLOC_FROM_LOW : NNS_GFD_ALLOC_FROM_HIGH;

	if (nns_tex(strategy))
		VS_ROM_TIMED(key, cyc, nns_gfd_alloc_tex(g, bytes, four, opt), g, bytes, four, opt);
	else
		VS_ROM_TIMED(key, cyc, nns_gfd_alloc_pltt(g, bytes, four, opt), g, bytes, four, opt);
	slots[slot][0] = key;
	answer(i, key ? key : VS_CYCLES_NONE, cyc, over4);
}

static void nns_free_request(uint32_t strategy, uint32_t i, uint32_t slot)
{
	nns_gfd_ctx *g = &st.nns;
	uint32_t cyc, key = slots[slot][0];
	int rc;

	if (nns_tex(strategy))
		VS_ROM_TIMED(rc, cyc, nns_gfd_free_tex(g, key), g, key);
	else
		VS_ROM_TIMED(rc, cyc, nns_gfd_free_pltt(g, key), g, key);
	answer(i, (uint32_t)rc, cyc, over2);
}

static const family nns_family = { nns_init, nns_alloc_request, nns_free_request, nns_reset_request, NULL };

/* ---- vramsim's own bitmap managers ------------------------------------------------ */

static int pair_init(uint32_t strategy, const volatile uint32_t *p)
{
	if (strategy == VS_DS_CYC_DS_TEX_PAIR)
		ds_tex_pair_init(&st.tex_pair, (uint8_t)p[0]);
	else
		ds_pltt_split_init(&st.pltt_split, (uint8_t)p[0]);
	return 1;
}

static void pair_reset(uint32_t strategy)
{
	if (strategy == VS_DS_CYC_DS_TEX_PAIR)
		ds_tex_pair_reset(&st.tex_pair);
	else
		ds_pltt_split_reset(&st.pltt_split);
}

RESET_REQUEST(pair_reset_request, pair_reset(strategy), pair_init(strategy, p_))

static void pair_alloc_request(uint32_t strategy, uint32_t i, const volatile vs_cycles_req *rq, uint32_t slot)
{
	ds_tex_pair *t = &st.tex_pair;
	ds_pltt_split *s = &st.pltt_split;
	int tex = strategy == VS_DS_CYC_DS_TEX_PAIR;
	uint32_t cyc, addr, bytes = rq->arg;
	bool four = (rq->flags & VS_DS_CYC_F_4X4) != 0;

	if (tex)
		VS_ROM_TIMED(addr, cyc, ds_tex_pair_alloc(t, bytes, four), t, bytes, four);
	else
		VS_ROM_TIMED(addr, cyc, ds_pltt_split_alloc(s, bytes, four), s, bytes, four);
	slots[slot][0] = addr;
	/* the free gives back what the allocation took, as the adapter's */
	slots[slot][1] = (tex ? ds_tex_pair_size(bytes, four) : ds_pltt_split_size(bytes)) | (four ? 0x80000000u : 0u);
	answer(i, addr, cyc, over3);
}

static void pair_free_request(uint32_t strategy, uint32_t i, uint32_t slot)
{
	ds_tex_pair *t = &st.tex_pair;
	ds_pltt_split *s = &st.pltt_split;
	int tex = strategy == VS_DS_CYC_DS_TEX_PAIR, rc;
	uint32_t cyc, addr = slots[slot][0], size = slots[slot][1] & 0x7FFFFFFFu;
	bool four = (slots[slot][1] >> 31) != 0;

	if (tex)
		VS_ROM_TIMED(rc, cyc, ds_tex_pair_free(t, addr, size, four), t, addr, size, four);
	else
		VS_ROM_TIMED(rc, cyc, ds_pltt_split_free(s, addr, size), s, addr, size);
	answer(i, (uint32_t)rc, cyc, tex ? over4 : over3);
}

static const family pair_family = { pair_init, pair_alloc_request, pair_free_request, pair_reset_request, NULL };

/* ---- libnds's oamAllocateGfx ------------------------------------------------------ */

static int sprite_init(uint32_t strategy, const volatile uint32_t *p)
{
	(void)strategy;
	libnds_sprite_init(&st.sprite, p[0], p[1]);
	return 1;
}

RESET_REQUEST(sprite_reset_request, libnds_sprite_reset(&st.sprite), sprite_init(strategy, p_))

static void sprite_alloc_request(uint32_t strategy, uint32_t i, const volatile vs_cycles_req *rq, uint32_t slot)
{
	libnds_sprite *o = &st.sprite;
	uint32_t cyc, pixels = rq->arg, fmt = rq->flags;
	int32_t idx;

	(void)strategy;
	if (o->hung) { /* the adapter refuses without a call: the DS froze there */
		answer(i, VS_CYCLES_NONE, 0, 0);
		return;
	}
	VS_ROM_TIMED(idx, cyc, libnds_sprite_alloc(o, pixels, fmt), o, pixels, fmt);
	slots[slot][0] = idx < 0 ? 0 : (uint32_t)idx << o->step;
	answer(i, idx < 0 ? VS_CYCLES_NONE : slots[slot][0], cyc, over3);
}

static void sprite_free_request(uint32_t strategy, uint32_t i, uint32_t slot)
{
	libnds_sprite *o = &st.sprite;
	uint32_t cyc, off = slots[slot][0];
	int rc;

	(void)strategy;
	VS_ROM_TIMED(rc, cyc, libnds_sprite_free(o, off), o, off);
	answer(i, (uint32_t)rc, cyc, over2);
}

static const family sprite_family = { sprite_init, sprite_alloc_request, sprite_free_request, sprite_reset_request, NULL };

/* ---- Nitro Engine's texture and palette systems ------------------------------------ */

static int ne_init(uint32_t strategy, const volatile uint32_t *p)
{
	uint32_t k;

	for (k = 0; k < 4; k++)
		ne_set[k] = p[k];
	if (strategy == VS_DS_CYC_NE_TEX)
		return ne_vram_tex_reset(&st.ne_tex, (int)p[0], p[1], (int)p[2], p[3], NE_ALLOC_CHUNKS) == 0;
	return ne_vram_pltt_reset(&st.ne_pltt, (int)p[0], NE_ALLOC_CHUNKS) == 0;
}

static void ne_reset(uint32_t strategy)
{
	if (strategy == VS_DS_CYC_NE_TEX)
		(void)ne_vram_tex_reset(&st.ne_tex, (int)ne_set[0], ne_set[1], (int)ne_set[2], ne_set[3],
			NE_ALLOC_CHUNKS);
	else
		(void)ne_vram_pltt_reset(&st.ne_pltt, (int)ne_set[0], NE_ALLOC_CHUNKS);
}

/* One allocation: the texture (palette) slot taken, or NE_VRAM_NO_SLOT. */
static uint16_t ne_load(uint32_t strategy, uint32_t arg, uint32_t flags)
{
	if (strategy == VS_DS_CYC_NE_PLTT)
		return ne_vram_pltt_load(&st.ne_pltt, (uint16_t)arg);
	if (flags & VS_DS_CYC_F_BYTES)
		return ne_vram_tex_load_bytes(&st.ne_tex, arg, (flags & VS_DS_CYC_F_4X4) != 0);
	return ne_vram_tex_load(&st.ne_tex, arg & 0xFu, (int)((arg >> 4) & 0xFFFu), (int)(arg >> 16));
}

RESET_REQUEST(ne_reset_request, ne_reset(strategy), ne_init(strategy, p_))

static void ne_alloc_request(uint32_t strategy, uint32_t i, const volatile vs_cycles_req *rq, uint32_t slot)
{
	uint32_t cyc, arg = rq->arg, flags = rq->flags;
	uint16_t slot16;

	VS_ROM_TIMED(slot16, cyc, ne_load(strategy, arg, flags), strategy, arg, flags);
	slots[slot][0] = slot16;
	answer(i, slot16 == NE_VRAM_NO_SLOT ? VS_CYCLES_NONE : strategy == VS_DS_CYC_NE_TEX ?
		ne_vram_tex_offset(&st.ne_tex, slot16) : ne_vram_pltt_offset(&st.ne_pltt, slot16), cyc, over3);
}

static void ne_free_request(uint32_t strategy, uint32_t i, uint32_t slot)
{
	uint32_t cyc;
	uint16_t slot16 = (uint16_t)slots[slot][0];
	int rc;

	if (strategy == VS_DS_CYC_NE_TEX)
		VS_ROM_TIMED(rc, cyc, ne_vram_tex_delete(&st.ne_tex, slot16), strategy, slot16);
	else
		VS_ROM_TIMED(rc, cyc, ne_vram_pltt_delete(&st.ne_pltt, slot16), strategy, slot16);
	answer(i, (uint32_t)rc, cyc, over2);
}

static const family ne_family = { ne_init, ne_alloc_request, ne_free_request, ne_reset_request, NULL };

/* ---- NightFox's Lib's sprite and 3D sprite graphics ------------------------------------ */

static int nf_init(uint32_t strategy, const volatile uint32_t *p)
{
	(void)strategy;
	nf_max = p[1];
	nf_origin = p[3];
	nflib_sprite_init(&st.nf, p[0], p[1], p[2]);
	return 1;
}

RESET_REQUEST(nf_reset_request, nflib_sprite_init(&st.nf, st.nf.base, nf_max, st.nf.flags), nf_init(strategy, p_))

static void nf_alloc_request(uint32_t strategy, uint32_t i, const volatile vs_cycles_req *rq, uint32_t slot)
{
	nflib_sprite *m = &st.nf;
	uint32_t cyc, id, bytes = rq->arg;
	int64_t addr;

	(void)strategy;
	/* the game's graphics id: the lowest free, as the adapter gives it */
	for (id = 0; id < m->ids && m->inuse[id]; id++)
		;
	if (m->broken || id == m->ids || !bytes) { /* the adapter refuses these uncalled */
		answer(i, VS_CYCLES_NONE, 0, 0);
		return;
	}
	VS_ROM_TIMED(addr, cyc, nflib_sprite_alloc(m, (uint16_t)id, bytes), m, id, bytes);
	slots[slot][0] = id;
	answer(i, addr < 0 ? VS_CYCLES_NONE : (uint32_t)addr - nf_origin, cyc, over3);
}

static void nf_free_request(uint32_t strategy, uint32_t i, uint32_t slot)
{
	nflib_sprite *m = &st.nf;
	uint32_t cyc, id = slots[slot][0];
	int rc;

	(void)strategy;
	VS_ROM_TIMED(rc, cyc, nflib_sprite_free(m, (uint16_t)id), m, id);
	(void)rc;
	/* NF may have compacted: where every graphic is now */
	answer(i, vs_ds_nflib_digest(m, nf_origin), cyc, over2);
}

static const family nf_family = { nf_init, nf_alloc_request, nf_free_request, nf_reset_request, NULL };

/* ---- libnds videoGL's textures and palettes ------------------------------------------ */

static libnds_gl *lgl(uint32_t strategy)
{
	return (libnds_gl *)(void *)(strategy == VS_DS_CYC_LIBNDS_TEX ? st.lgl_tex : st.lgl_pltt);
}

static int lgl_init(uint32_t strategy, const volatile uint32_t *p)
{
	int tex = strategy == VS_DS_CYC_LIBNDS_TEX;
	libnds_vb_regs regs;
	unsigned b;

	for (b = 0; b < 8; b++)
		regs.vramcnt[b] = (uint8_t)(p[1 + b / 4] >> 8 * (b % 4));
	regs.vramcnt[8] = (uint8_t)p[3];
	regs.lock[0] = (uint8_t)(p[3] >> 8);
	regs.lock[1] = (uint8_t)(p[3] >> 16);
	libnds_gl_init(lgl(strategy), (int)(p[0] & 0xFFu), (int)((p[0] >> 8) & 0xFFu), tex ? LIBNDS_GL_TEX_NODES : 2,
		tex ? 2 : LIBNDS_GL_PAL_NODES, &regs);
	return 1;
}

/* What a game does for one texture, as the adapter (strat_libnds_tex.c):
 * glGenTextures (or, for a realloc, the bound name again), glBindTexture,
 * glTexImage2D, and glDeleteTextures when that fails. The offset, or
 * VS_CYCLES_NONE. */
__attribute__((noinline)) static uint32_t lgl_tex_upload(libnds_gl *g, uint32_t arg, uint32_t flags, int *name)
{
	int ok;

	if (flags & VS_CYCLES_F_REALLOC) {
		if (!libnds_gl_texture_of(g, *name))
			return VS_CYCLES_NONE;
	} else if (!libnds_gl_gen_textures(g, 1, name))
		return VS_CYCLES_NONE;
	libnds_gl_bind_texture(g, *name);
	ok = flags & VS_DS_CYC_F_BYTES ? libnds_gl_tex_image_bytes(g, LIBNDS_GL_RGB256, arg) :
		libnds_gl_tex_image_2d(g, arg & 0xFu, (arg >> 4) & 0xFu, (arg >> 8) & 0xFu);
	if (!ok) {
		libnds_gl_delete_textures(g, 1, name);
		return VS_CYCLES_NONE;
	}
	return libnds_gl_texture_of(g, *name)->vram_addr - LIBNDS_VRAM_A;
}

/* The texture format a palette's stand-in texture gets (strat_libnds_pltt.c). */
static uint32_t stand_in_format(int four)
{
	return (uint32_t)(four ? LIBNDS_GL_RGB4 : LIBNDS_GL_RGB256) << 26;
}

/* A palette, as the adapter (strat_libnds_pltt.c): a texture name of its
 * own given the format (or, for a realloc, the same name, given a new one
 * when it changes between 4 colours and more), then glColorTableEXT;
 * glDeleteTextures when that fails. PLTT_BASE's offset, or VS_CYCLES_NONE. */
__attribute__((noinline)) static uint32_t lgl_pltt_upload(libnds_gl *g, uint32_t width, uint32_t flags, int *name)
{
	int four = (flags & VS_DS_CYC_F_4X4) != 0, fresh = 1;
	const libnds_gl_texture *t;
	const libnds_gl_palette *p;

	if (flags & VS_CYCLES_F_REALLOC) {
		if (!(t = libnds_gl_texture_of(g, *name)))
			return VS_CYCLES_NONE;
		libnds_gl_bind_texture(g, *name);
		fresh = (t->tex_format & (7u << 26)) != stand_in_format(four);
		if (fresh)
			libnds_gl_delete_textures(g, 1, name);
	}
	if (fresh) {
		if (!libnds_gl_gen_textures(g, 1, name))
			return VS_CYCLES_NONE;
		libnds_gl_bind_texture(g, *name);
		libnds_gl_tex_parameter(g, stand_in_format(four));
	}
	if (!libnds_gl_color_table(g, width)) {
		libnds_gl_delete_textures(g, 1, name);
		return VS_CYCLES_NONE;
	}
	p = libnds_gl_palette_of(g, libnds_gl_texture_of(g, *name)->pal_index);
	return (uint32_t)p->addr << p->shift;
}

/* glDeleteTextures of a name the model holds (the adapter's free). */
__attribute__((noinline)) static int lgl_delete(libnds_gl *g, int name)
{
	if (!libnds_gl_texture_of(g, name))
		return -1;
	libnds_gl_delete_textures(g, 1, &name);
	return 0;
}

/* A bank request: VRAMCNT written, or glLockVRAMBank / glUnlockVRAMBank;
 * a register write, no call of the library's, so untimed. */
static void lgl_bank(uint32_t strategy, uint32_t arg)
{
	libnds_gl *g = lgl(strategy);
	unsigned bank = arg & 0xFFu, kind = arg >> 16;

	if (kind == VS_CYCLES_BANK_VRAMCNT)
		libnds_gl_vramcnt(g, bank, (uint8_t)(arg >> 8));
	else
		(void)libnds_gl_lock_bank(g, bank, kind == VS_CYCLES_BANK_LOCK);
}

RESET_REQUEST(lgl_reset_request, libnds_gl_reset_textures(lgl(strategy)), lgl_init(strategy, p_))

static void lgl_alloc_request(uint32_t strategy, uint32_t i, const volatile vs_cycles_req *rq, uint32_t slot)
{
	libnds_gl *g = lgl(strategy);
	uint32_t cyc, value, arg = rq->arg, flags = rq->flags;
	int name = (int)slots[slot][0]; /* a realloc's: the name uploaded again */

	if (strategy == VS_DS_CYC_LIBNDS_TEX)
		VS_ROM_TIMED(value, cyc, lgl_tex_upload(g, arg, flags, &name), g, arg, flags, &name);
	else
		VS_ROM_TIMED(value, cyc, lgl_pltt_upload(g, arg, flags, &name), g, arg, flags, &name);
	slots[slot][0] = (uint32_t)name;
	answer(i, value, cyc, over4);
}

static void lgl_free_request(uint32_t strategy, uint32_t i, uint32_t slot)
{
	libnds_gl *g = lgl(strategy);
	uint32_t cyc;
	int name = (int)slots[slot][0], rc;

	VS_ROM_TIMED(rc, cyc, lgl_delete(g, name), g, name);
	answer(i, (uint32_t)rc, cyc, over2);
}

static const family lgl_family = { lgl_init, lgl_alloc_request, lgl_free_request, lgl_reset_request, lgl_bank };

/* ---- the mailbox ----------------------------------------------------------------- */

/* Each strategy's family; NULL for a number the program does not know. */
static const family *family_of(uint32_t strategy)
{
	switch (strategy) {
	case VS_DS_CYC_NNS_LNK_TEX:
	case VS_DS_CYC_NNS_LNK_PLTT:
	case VS_DS_CYC_NNS_FRM_TEX:
	case VS_DS_CYC_NNS_FRM_PLTT:
		return &nns_family;
	case VS_DS_CYC_DS_TEX_PAIR:
	case VS_DS_CYC_DS_PLTT_SPLIT:
		return &pair_family;
	case VS_DS_CYC_LIBNDS_SPRITE:
		return &sprite_family;
	case VS_DS_CYC_NE_TEX:
	case VS_DS_CYC_NE_PLTT:
		return &ne_family;
	case VS_DS_CYC_NFLIB_SPRITE:
	case VS_DS_CYC_NFLIB_SPRITE3D:
		return &nf_family;
	case VS_DS_CYC_LIBNDS_TEX:
	case VS_DS_CYC_LIBNDS_PLTT:
		return &lgl_family;
	default:
		return NULL;
	}
}

/* Initialises the allocator with parameter set 0 (untimed). */
static const family *start(uint32_t strategy)
{
	const family *f = family_of(strategy);

	if (!f)
		fail(VS_DS_CYC_E_STRATEGY, 0);
	if (!f->init(strategy, MB->sets[0]))
		fail(VS_DS_CYC_E_INIT, 0);
	return f;
}

static void run_chunk(const family *f, uint32_t strategy, uint32_t first, uint32_t count)
{
	uint32_t i;

	if (count > VS_DS_CYC_CHUNK)
		fail(VS_DS_CYC_E_CHUNK, first);
	for (i = 0; i < count; i++) {
		const volatile vs_cycles_req *rq = &MB->rq[i];
		uint32_t slot = slot_of(rq, i, first);

		switch (rq->op) {
		case VS_CYCLES_OP_ALLOC:
			f->alloc(strategy, i, rq, slot);
			break;
		case VS_CYCLES_OP_FREE:
			f->free(strategy, i, slot);
			break;
		case VS_CYCLES_OP_RESET:
			f->reset(strategy, i, rq, first);
			break;
		case VS_CYCLES_OP_BANK:
			if (f->bank)
				f->bank(strategy, rq->arg);
			answer(i, 0, 0, 0);
			break;
		default:
			answer(i, 0, 0, 0);
		}
	}
}

int main(void)
{
	volatile vs_ds_cyc_mailbox *mb = MB;
	const family *f = NULL;
	uint32_t strategy = 0;

	mb->magic = 0;
	mb->version = VS_DS_CYC_VERSION;
	mb->state = VS_DS_CYC_ST_BOOT;
	mb->error = VS_DS_CYC_E_NONE;
	mb->taken = 0;
	mb->go = 0;
	if ((uintptr_t)__bss_end > VS_DS_CYC_MAILBOX)
		fail(VS_DS_CYC_E_LAYOUT, 0);
	calibrate();
	mb->overhead2 = over2;
	mb->overhead3 = over3;
	mb->overhead4 = over4;
	mb->state = VS_DS_CYC_ST_READY;
	mb->magic = VS_DS_CYC_MAGIC;
	for (;;) {
		uint32_t go;

		while ((go = mb->go) == mb->taken)
			;
		if (mb->taken == 0) {
			strategy = mb->strategy;
			f = start(strategy);
		}
		run_chunk(f, strategy, mb->first, mb->count);
		if (mb->last)
			mb->state = VS_DS_CYC_ST_DONE;
		mb->taken = go;
	}
}
