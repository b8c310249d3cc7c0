/* SPDX-License-Identifier: Zlib */
/* ds_pltt_split.c - vramsim's own DS palette manager (see ds_pltt_split.h). */
#include "vramsim/alloc/bits.h"
#include "vramsim/alloc/ds_pltt_split.h"

#define SLOT_UNITS (0x4000u / DS_PLTT_UNIT)
#define FOUR_UNITS (0x10000u / DS_PLTT_UNIT)

void ds_pltt_split_reset(ds_pltt_split *m)
{
	unsigned s;

	for (s = 0; s < 6; s++)
		bits_fill(m->free, s * SLOT_UNITS, SLOT_UNITS, (m->mapped >> s) & 1);
}

void ds_pltt_split_init(ds_pltt_split *m, uint8_t mapped_slots)
{
	m->mapped = mapped_slots & 63u;
	ds_pltt_split_reset(m);
}

uint32_t ds_pltt_split_size(uint32_t bytes)
{
	if (bytes == 0 || bytes > DS_PLTT_BYTES)
		return 0;
	return (bytes + 7u) & ~7u;
}

uint32_t ds_pltt_split_alloc(ds_pltt_split *m, uint32_t bytes, bool four)
{
	uint32_t n = ds_pltt_split_size(bytes) / DS_PLTT_UNIT, u;

	if (!n)
		return DS_PLTT_NONE;
	if (four)
		u = bits_find_low(m->free, 0, FOUR_UNITS, n, 1);
	else
		u = bits_find_high(m->free, 0, DS_PLTT_UNITS, n, 2);
	if (u >= (four ? FOUR_UNITS : DS_PLTT_UNITS))
		return DS_PLTT_NONE;
	bits_fill(m->free, u, n, 0);
	return u * DS_PLTT_UNIT;
}

int ds_pltt_split_free(ds_pltt_split *m, uint32_t addr, uint32_t bytes)
{
	uint32_t n = ds_pltt_split_size(bytes) / DS_PLTT_UNIT, u = addr / DS_PLTT_UNIT;

	if (!n || addr % DS_PLTT_UNIT || u + n > DS_PLTT_UNITS || !bits_all(m->free, u, n, 0))
		return -1;
	bits_fill(m->free, u, n, 1);
	return 0;
}

uint32_t ds_pltt_split_free_bytes(const ds_pltt_split *m)
{
	uint32_t i, n = 0;

	for (i = 0; i < DS_PLTT_UNITS / 32u; i++) {
		uint32_t x = m->free[i];
		while (x) {
			x &= x - 1u;
			n++;
		}
	}
	return n * DS_PLTT_UNIT;
}
