/* SPDX-License-Identifier: Zlib */
/* ds_tex_pair.c - vramsim's own DS texture manager (see ds_tex_pair.h). */
#include "vramsim/alloc/bits.h"
#include "vramsim/alloc/ds_tex_pair.h"

#define SLOT_UNITS (0x20000u / DS_TEX_UNIT)

uint32_t ds_tex_pair_index_addr(uint32_t addr)
{
	return addr < 0x20000u ? 0x20000u + addr / 2u : 0x30000u + (addr - 0x40000u) / 2u;
}

void ds_tex_pair_reset(ds_tex_pair *m)
{
	unsigned s;

	for (s = 0; s < 4; s++)
		bits_fill(m->free, s * SLOT_UNITS, SLOT_UNITS, (m->mapped >> s) & 1);
}

void ds_tex_pair_init(ds_tex_pair *m, uint8_t mapped_slots)
{
	m->mapped = mapped_slots & 15u;
	ds_tex_pair_reset(m);
}

uint32_t ds_tex_pair_size(uint32_t bytes, bool is4x4)
{
	uint32_t a = is4x4 ? 16u : 8u;

	if (bytes == 0 || bytes > DS_TEX_BYTES)
		return 0;
	return (bytes + a - 1u) & ~(a - 1u);
}

/* Squeezes the even bits of x (pair ANDs) into the low 16 bits. */
static uint32_t even_bits(uint32_t x)
{
	x &= 0x55555555u;
	x = (x | (x >> 1)) & 0x33333333u;
	x = (x | (x >> 2)) & 0x0F0F0F0Fu;
	x = (x | (x >> 4)) & 0x00FF00FFu;
	return (x | (x >> 8)) & 0x0000FFFFu;
}

/* 4x4 in texture slot s (0 or 2): bit k of the combined map says the 16
 * texel bytes at slot + 16k and the 8 index bytes at their slot-1 place are
 * all free. Builds that map (256 words) and finds the lowest run. */
static uint32_t alloc_4x4(ds_tex_pair *m, unsigned s, uint32_t n16)
{
	uint32_t comb[256], tw = s * SLOT_UNITS / 32u, iw = ds_tex_pair_index_addr(s * 0x20000u) / DS_TEX_UNIT / 32u;
	uint32_t j, k, addr;

	for (j = 0; j < 256; j++) {
		uint32_t a = m->free[tw + 2 * j], b = m->free[tw + 2 * j + 1];
		uint32_t t = even_bits(a & (a >> 1)) | (even_bits(b & (b >> 1)) << 16);
		comb[j] = t & m->free[iw + j];
	}
	k = bits_find_low(comb, 0, 8192u, n16, 1);
	if (k >= 8192u)
		return DS_TEX_NONE;
	addr = s * 0x20000u + k * 16u;
	bits_fill(m->free, addr / DS_TEX_UNIT, n16 * 2u, 0);
	bits_fill(m->free, ds_tex_pair_index_addr(addr) / DS_TEX_UNIT, n16, 0);
	return addr;
}

static uint32_t alloc_high(ds_tex_pair *m, uint32_t lo, uint32_t hi, uint32_t n)
{
	uint32_t u = bits_find_high(m->free, lo, hi, n, 1);

	if (u >= hi)
		return DS_TEX_NONE;
	bits_fill(m->free, u, n, 0);
	return u * DS_TEX_UNIT;
}

uint32_t ds_tex_pair_alloc(ds_tex_pair *m, uint32_t bytes, bool is4x4)
{
	static const uint8_t order[4] = { 3, 2, 0, 1 };
	uint32_t size = ds_tex_pair_size(bytes, is4x4), n = size / DS_TEX_UNIT, a;
	unsigned i;

	if (!size)
		return DS_TEX_NONE;
	if (is4x4) {
		if (size > 0x20000u)
			return DS_TEX_NONE;
		a = alloc_4x4(m, 0, size / 16u);
		return a != DS_TEX_NONE ? a : alloc_4x4(m, 2, size / 16u);
	}
	if (n <= SLOT_UNITS)
		for (i = 0; i < 4; i++) {
			a = alloc_high(m, order[i] * SLOT_UNITS, (order[i] + 1u) * SLOT_UNITS, n);
			if (a != DS_TEX_NONE)
				return a;
		}
	/* larger than a slot, or only a run across a slot border fits */
	return alloc_high(m, 0, DS_TEX_UNITS, n);
}

int ds_tex_pair_free(ds_tex_pair *m, uint32_t addr, uint32_t bytes, bool is4x4)
{
	uint32_t size = ds_tex_pair_size(bytes, is4x4), u = addr / DS_TEX_UNIT, n = size / DS_TEX_UNIT;

	if (!size || addr % DS_TEX_UNIT || u + n > DS_TEX_UNITS || !bits_all(m->free, u, n, 0))
		return -1;
	if (is4x4) {
		uint32_t iu;
		if (addr % 16u || !((addr + size <= 0x20000u) || (addr >= 0x40000u && addr + size <= 0x60000u)))
			return -1;
		iu = ds_tex_pair_index_addr(addr) / DS_TEX_UNIT;
		if (!bits_all(m->free, iu, n / 2u, 0))
			return -1;
		bits_fill(m->free, iu, n / 2u, 1);
	}
	bits_fill(m->free, u, n, 1);
	return 0;
}

uint32_t ds_tex_pair_free_bytes(const ds_tex_pair *m)
{
	uint32_t i, n = 0;

	for (i = 0; i < DS_TEX_UNITS / 32u; i++) {
		uint32_t x = m->free[i];
		while (x) {
			x &= x - 1u;
			n++;
		}
	}
	return n * DS_TEX_UNIT;
}
