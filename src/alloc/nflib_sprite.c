/* SPDX-License-Identifier: Zlib */
/* nflib_sprite.c - NightFox's Lib's sprite (and 3D sprite texture) VRAM
 * allocator, nf_sprite256.c / nf_sprite3d.c at nds_nflib d1d9eba.
 *
 * Every field goes through rd()/wr() by its word in the struct, so an
 * index past pos[] or size[] lands on the field the DS would overwrite
 * (pos[ids + k] is size[k]; size[ids] is the word holding deleted and its
 * padding; then fragmented, inarow, max). Fields are re-read after each
 * write, as memory is. */
#include "vramsim/alloc/nflib_sprite.h"

#define W_FREE 0
#define W_NEXT 1
#define W_LAST 2
#define POS(m, k) (3 + (int64_t)(k))
#define SIZE(m, k) (3 + (int64_t)(m)->ids + (int64_t)(k))
#define W_DEL(m) (3 + 2 * (int64_t)(m)->ids)
#define W_FRAG(m) (W_DEL(m) + 1)
#define W_INAROW(m) (W_DEL(m) + 2)
#define W_MAX(m) (W_DEL(m) + 3) /* 2D only */

#define SENTINEL 255 /* `id = 255`: "no freed block found" */

/* u32 to s32 as the ARM stores it (two's complement), without
 * implementation-defined conversion. */
static int32_t s32(uint32_t v)
{
	return v <= 0x7FFFFFFFu ? (int32_t)v : -(int32_t)(~v) - 1;
}

static uint32_t rd(nflib_sprite *m, int64_t i)
{
	if (i < 0 || i >= (int64_t)m->nwords) {
		m->broken = 1;
		return 0;
	}
	return m->w[i];
}

static void wr(nflib_sprite *m, int64_t i, uint32_t v)
{
	if (i < 0 || i >= (int64_t)m->nwords) {
		m->broken = 1;
		return;
	}
	m->w[i] = v;
}

static uint16_t del(nflib_sprite *m)
{
	return (uint16_t)rd(m, W_DEL(m));
}

/* `deleted = v`: a u16 store, the padding above it kept */
static void set_del(nflib_sprite *m, uint32_t v)
{
	wr(m, W_DEL(m), (rd(m, W_DEL(m)) & 0xFFFF0000u) | (uint16_t)v);
}

void nflib_sprite_init(nflib_sprite *m, uint32_t base, uint32_t max_bytes, unsigned flags)
{
	uint32_t i;

	for (i = 0; i < NFLIB_WORDS_MAX; i++)
		m->w[i] = 0;
	for (i = 0; i < NFLIB_SPRITE_IDS_MAX; i++) {
		m->addr[i] = m->size[i] = 0;
		m->inuse[i] = 0;
	}
	m->flags = (uint8_t)flags;
	m->ids = (flags & NFLIB_3D) ? NFLIB_SPRITE3D_IDS : NFLIB_SPRITE_IDS;
	m->nwords = (flags & NFLIB_3D) ? 6u + 2u * m->ids : 7u + 2u * m->ids;
	m->base = base;
	m->broken = 0;
	m->defrags = 0;
	if (flags & NFLIB_3D)
		max_bytes = NFLIB_3D_BYTES;
	else
		wr(m, W_MAX(m), max_bytes);
	wr(m, W_FREE, max_bytes);
	wr(m, W_INAROW(m), max_bytes);
	wr(m, W_NEXT, base);
}

/* The loop counter n stored in the library's id: an s16 in 2D, an int in
 * 3D; the fixed form keeps n whole. */
static int32_t as_id(const nflib_sprite *m, uint32_t n)
{
	if (!(m->flags & NFLIB_3D) && !(m->flags & NFLIB_FIX_REUSE))
		return (int16_t)(uint16_t)n;
	return (int32_t)n;
}

/* The freed block to reuse, or the sentinel: the first of exactly gfxsize,
 * else the first larger. The 3D code asks for a larger block only when an
 * exact one WAS found (`if (id != 255)`), so an exact match is overridden by
 * any larger block and, without one, nothing is reused but the exact match. */
static int32_t pick(nflib_sprite *m, uint32_t gfxsize, int32_t none)
{
	uint32_t n, d = del(m);
	int32_t id = none;
	int larger;

	if (d == 0)
		return none;
	for (n = 0; n < d && !m->broken; n++)
		if (rd(m, SIZE(m, n)) == gfxsize) {
			id = as_id(m, n);
			break;
		}
	larger = (m->flags & NFLIB_3D) && !(m->flags & NFLIB_FIX_REUSE) ? id != none : id == none;
	if (larger)
		for (n = 0; n < d && !m->broken; n++)
			if (rd(m, SIZE(m, n)) > gfxsize) {
				id = as_id(m, n);
				break;
			}
	return id;
}

/* Takes gfxsize bytes of freed block id; returns its address. */
static uint32_t reuse(nflib_sprite *m, int32_t id, uint32_t gfxsize)
{
	uint32_t addr = rd(m, POS(m, id));

	if (gfxsize < rd(m, SIZE(m, id))) {
		/* split: the rest stays in the table at the same index */
		uint32_t rest = rd(m, SIZE(m, id)) - gfxsize;
		wr(m, POS(m, id), rd(m, POS(m, id)) + gfxsize);
		wr(m, SIZE(m, id), rest);
		wr(m, W_FRAG(m), rd(m, W_FRAG(m)) - gfxsize);
	} else {
		/* used whole: the table's last entry moves into its place */
		int32_t last;
		wr(m, W_FRAG(m), rd(m, W_FRAG(m)) - rd(m, SIZE(m, id)));
		last = (int32_t)del(m) - 1;
		if (last > 0 && id != last) {
			wr(m, POS(m, id), rd(m, POS(m, last)));
			wr(m, SIZE(m, id), rd(m, SIZE(m, last)));
		}
		set_del(m, (uint32_t)del(m) - 1u);
	}
	return addr;
}

int64_t nflib_sprite_alloc(nflib_sprite *m, uint16_t id, uint32_t gfxsize)
{
	uint32_t old_free = rd(m, W_FREE), addr;
	int32_t none = (m->flags & NFLIB_FIX_REUSE) ? -1 : SENTINEL, pick_id;

	if (m->broken)
		return NFLIB_ERR_BROKEN;
	if (id >= m->ids || m->inuse[id])
		return NFLIB_ERR_ID;
	if (s32(old_free - gfxsize) < 0)
		return NFLIB_ERR_SPACE;
	wr(m, W_FREE, old_free - gfxsize);
	pick_id = pick(m, gfxsize, none);
	if (m->broken)
		return NFLIB_ERR_BROKEN;
	if (pick_id != none) {
		addr = reuse(m, pick_id, gfxsize);
	} else {
		uint32_t old_inarow = rd(m, W_INAROW(m));
		if (s32(old_inarow - gfxsize) < 0) {
			wr(m, W_FREE, old_free); /* the DS halts here; the model undoes the call */
			return NFLIB_ERR_SPACE;
		}
		wr(m, W_INAROW(m), old_inarow - gfxsize);
		addr = rd(m, W_NEXT);
		wr(m, W_LAST, addr);
		wr(m, W_NEXT, rd(m, W_NEXT) + gfxsize);
	}
	if (m->broken)
		return NFLIB_ERR_BROKEN;
	m->addr[id] = addr;
	m->size[id] = gfxsize;
	m->inuse[id] = 1;
	return addr;
}

static bool too_fragmented(nflib_sprite *m)
{
	int32_t frag = s32(rd(m, W_FRAG(m)));

	if (m->flags & NFLIB_FIX_THRESHOLD)
		return frag > s32(rd(m, W_FREE)) / 2;
	/* C99 division truncates: inarow 0 or 1 compacts at every free */
	return frag >= s32(rd(m, W_INAROW(m))) / 2;
}

int nflib_sprite_free(nflib_sprite *m, uint16_t id)
{
	uint32_t size;

	if (m->broken)
		return NFLIB_ERR_BROKEN;
	if (id >= m->ids || !m->inuse[id])
		return NFLIB_ERR_ID;
	size = m->size[id];
	wr(m, W_FREE, rd(m, W_FREE) + size);
	if ((m->flags & NFLIB_FIX_TABLE) && del(m) >= m->ids) {
		m->inuse[id] = 0;
		nflib_sprite_defrag(m);
		return 1;
	}
	wr(m, POS(m, del(m)), m->addr[id]);
	wr(m, SIZE(m, del(m)), size);
	set_del(m, (uint32_t)del(m) + 1u);
	wr(m, W_FRAG(m), rd(m, W_FRAG(m)) + size);
	m->inuse[id] = 0;
	m->addr[id] = m->size[id] = 0;
	if (m->broken)
		return NFLIB_ERR_BROKEN;
	if (too_fragmented(m)) {
		nflib_sprite_defrag(m);
		return m->broken ? NFLIB_ERR_BROKEN : 1;
	}
	return 0;
}

void nflib_sprite_defrag(nflib_sprite *m)
{
	uint32_t n;

	/* every live graphic goes through a RAM buffer, then back packed from
	 * the base in id order (the buffer's malloc is assumed to succeed) */
	wr(m, W_FREE, (m->flags & NFLIB_3D) ? NFLIB_3D_BYTES : rd(m, W_MAX(m)));
	wr(m, W_LAST, 0);
	set_del(m, 0);
	wr(m, W_FRAG(m), 0);
	wr(m, W_INAROW(m), (m->flags & NFLIB_3D) ? NFLIB_3D_BYTES : rd(m, W_MAX(m)));
	for (n = 0; n < m->ids; n++) {
		wr(m, POS(m, n), 0);
		wr(m, SIZE(m, n), 0);
	}
	wr(m, W_NEXT, m->base);
	for (n = 0; n < m->ids; n++) {
		if (!m->inuse[n])
			continue;
		m->addr[n] = rd(m, W_NEXT);
		wr(m, W_FREE, rd(m, W_FREE) - m->size[n]);
		wr(m, W_INAROW(m), rd(m, W_INAROW(m)) - m->size[n]);
		wr(m, W_LAST, rd(m, W_NEXT));
		wr(m, W_NEXT, rd(m, W_NEXT) + m->size[n]);
	}
	m->defrags++;
}

int32_t nflib_sprite_free_bytes(const nflib_sprite *m)
{
	return s32(m->w[W_FREE]);
}

uint32_t nflib_sprite_next(const nflib_sprite *m)
{
	return m->w[W_NEXT];
}

uint16_t nflib_sprite_deleted(const nflib_sprite *m)
{
	return (uint16_t)m->w[W_DEL(m)];
}

int32_t nflib_sprite_fragmented(const nflib_sprite *m)
{
	return s32(m->w[W_FRAG(m)]);
}

int32_t nflib_sprite_inarow(const nflib_sprite *m)
{
	return s32(m->w[W_INAROW(m)]);
}

uint32_t nflib_sprite_pos(const nflib_sprite *m, uint32_t k)
{
	return k < m->ids ? m->w[POS(m, k)] : 0;
}

uint32_t nflib_sprite_size(const nflib_sprite *m, uint32_t k)
{
	return k < m->ids ? m->w[SIZE(m, k)] : 0;
}
