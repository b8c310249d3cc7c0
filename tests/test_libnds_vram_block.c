/* SPDX-License-Identifier: Zlib */
/* test_libnds_vram_block.c - libnds videoGL's vramBlock_* allocator
 * (libnds_vram_block.h) against docs/ds-homebrew.md.
 *
 * Hand-made sequences give the exact LCDC addresses libnds gives, for each
 * rule and each defect of the block allocator, with and without fixed.
 * Random sequences compare every call and the whole state after it with the
 * reference model of libnds_ref.h; the links of the real structure are
 * checked after every call.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libnds_ref.h"

static uint64_t vb_buf[LIBNDS_VRAM_BLOCK_BYTES(8192) / 8 + 1];


static libnds_vram_block *vb_new(uint16_t nodes, int pal, int fixed)
{
	libnds_vram_block *mb = (libnds_vram_block *)(void *)vb_buf;

	memset(vb_buf, 0xA5, LIBNDS_VRAM_BLOCK_BYTES(nodes)); /* init must not rely on zeroed memory */
	libnds_vram_block_init(mb, nodes, pal ? E : A, pal ? H : E, fixed);
	return mb;
}

/* ---- the block allocator, by hand -------------------------------------- */

/* Lowest-address first fit, exact sizes, alignment padding left free,
 * handles from 1 and reused last-in first-out. */
START_TEST(vb_first_fit_and_handles)
{
	libnds_vram_block *mb = vb_new(64, 0, 0);
	libnds_vb_regs r = default_regs();

	ck_assert_uint_eq(libnds_vram_block_allocate(mb, &r, 0x100, 3), 1);
	ck_assert_uint_eq(libnds_vram_block_addr(mb, 1), A);
	ck_assert_uint_eq(libnds_vram_block_allocate(mb, &r, 0x14, 3), 2); /* exact: 0x14 bytes */
	ck_assert_uint_eq(libnds_vram_block_addr(mb, 2), A + 0x100);
	ck_assert_uint_eq(libnds_vram_block_size(mb, 2), 0x14);
	ck_assert_uint_eq(libnds_vram_block_allocate(mb, &r, 0x10, 3), 3); /* padded to 8: 0x118 */
	ck_assert_uint_eq(libnds_vram_block_addr(mb, 3), A + 0x118);
	check_links(mb);
	/* 128-byte alignment: the search starts in the 4-byte hole at 0x114,
	 * whose padding to 0x180 wraps its room; 0x180 is answered in that
	 * hole's block and refused (defect, vb_padding_wraps) */
	ck_assert_uint_eq(libnds_vram_block_allocate(mb, &r, 0x10, 7), 0);
	/* a 4-byte block at 4-byte alignment fills the hole */
	ck_assert_uint_eq(libnds_vram_block_allocate(mb, &r, 4, 2), 4);
	ck_assert_uint_eq(libnds_vram_block_addr(mb, 4), A + 0x114);
	ck_assert_uint_eq(libnds_vram_block_allocate(mb, &r, 0x10, 7), 5); /* now it works */
	ck_assert_uint_eq(libnds_vram_block_addr(mb, 5), A + 0x180);
	ck_assert_uint_eq(libnds_vram_block_allocate(mb, &r, 8, 8), 0); /* align >= 8 refused */
	ck_assert_uint_eq(libnds_vram_block_allocate(mb, &r, 0, 3), 0);
	/* free 2 then 4: the next handles are 4, then 2 */
	ck_assert_int_eq(libnds_vram_block_deallocate(mb, 2), 1);
	ck_assert_int_eq(libnds_vram_block_deallocate(mb, 4), 1);
	ck_assert_int_eq(libnds_vram_block_deallocate(mb, 4), 0); /* twice */
	ck_assert_int_eq(libnds_vram_block_deallocate(mb, 0), 0);
	ck_assert_int_eq(libnds_vram_block_deallocate(mb, 999), 0);
	ck_assert_uint_eq(libnds_vram_block_allocate(mb, &r, 0x10, 3), 4);
	ck_assert_uint_eq(libnds_vram_block_addr(mb, 4), A + 0x100); /* the lowest hole */
	ck_assert_uint_eq(libnds_vram_block_allocate(mb, &r, 0x10, 3), 2);
	ck_assert_uint_eq(libnds_vram_block_addr(mb, 2), A + 0x128); /* 0x110..0x118 too small */
	check_links(mb);
	ck_assert_uint_eq(libnds_vram_block_ram(mb), LIBNDS_VB_ARM_BLOCK + mb->nodes_live * 28u + 4u * 32u);
	libnds_vram_block_deallocate_all(mb);
	ck_assert_uint_eq(libnds_vram_block_allocate(mb, &r, 0x10, 3), 1);
	ck_assert_uint_eq(libnds_vram_block_addr(mb, 1), A);
}
END_TEST

/* examine from an address, then allocate_special there: the free block
 * splits in three; a free merges with both neighbours. */
START_TEST(vb_split_and_merge)
{
	libnds_vram_block *mb = vb_new(64, 0, 0);
	libnds_vb_regs r = default_regs();
	uint32_t at;

	at = libnds_vram_block_examine(mb, &r, B + 4, 0x40, 3);
	ck_assert_uint_eq(at, B + 8);
	ck_assert_uint_eq(libnds_vram_block_allocate_special(mb, B + 8, 0x20), 0); /* not what was examined */
	ck_assert_uint_eq(libnds_vram_block_allocate_special(mb, B + 8, 0x40), 1);
	ck_assert_uint_eq(libnds_vram_block_allocate_special(mb, B + 8, 0x40), 0); /* examined once */
	ck_assert_uint_eq(mb->nodes_live, 3);
	check_links(mb);
	ck_assert_uint_eq(libnds_vram_block_allocate(mb, &r, 0x10, 3), 2);
	ck_assert_uint_eq(libnds_vram_block_addr(mb, 2), A);
	at = libnds_vram_block_examine(mb, &r, B + 0x48, 0x10, 3);
	ck_assert_uint_eq(libnds_vram_block_allocate_special(mb, at, 0x10), 3);
	ck_assert_uint_eq(libnds_vram_block_addr(mb, 3), B + 0x48); /* right after 1 */
	ck_assert_int_eq(libnds_vram_block_deallocate(mb, 2), 1);
	ck_assert_int_eq(libnds_vram_block_deallocate(mb, 3), 1);
	check_links(mb);
	ck_assert_int_eq(libnds_vram_block_deallocate(mb, 1), 1); /* joins the free blocks on both sides */
	check_links(mb);
	ck_assert_uint_eq(mb->nodes_live, 1);
	ck_assert_uint_eq(mb->node[mb->first_empty].size, 0x80000);
	/* examine from an address past everything, or 0 */
	ck_assert_uint_eq(libnds_vram_block_examine(mb, &r, E, 8, 3), 0);
	ck_assert_uint_eq(libnds_vram_block_examine(mb, &r, 0, 8, 3), 0);
}
END_TEST

/* Banks not mapped for textures (MST != 3, or disabled) and locked banks
 * are stepped over; the registers are read at each call. A block may
 * straddle two usable banks. */
START_TEST(vb_banks_stepped_over)
{
	libnds_vram_block *mb = vb_new(64, 0, 0);
	libnds_vb_regs r = default_regs();

	r.lock[0] = 1u << 1; /* B locked */
	ck_assert_uint_eq(libnds_vram_block_allocate(mb, &r, 0x30000, 3), 1);
	ck_assert_uint_eq(libnds_vram_block_addr(mb, 1), C); /* A too small, B locked */
	r.lock[0] = 0;
	r.vramcnt[0] = 0x81; /* A for the main engine's BG: not a texture bank */
	ck_assert_uint_eq(libnds_vram_block_allocate(mb, &r, 0x100, 3), 2);
	ck_assert_uint_eq(libnds_vram_block_addr(mb, 2), B);
	r.vramcnt[0] = TEXMODE(2); /* A at slot 2 still passes the 0x83 test */
	ck_assert_uint_eq(libnds_vram_block_allocate(mb, &r, 0x80, 3), 3);
	ck_assert_uint_eq(libnds_vram_block_addr(mb, 3), A);
	check_links(mb);
	/* a block straddles A and B when both are usable */
	mb = vb_new(64, 0, 0);
	r = default_regs();
	ck_assert_uint_eq(libnds_vram_block_allocate(mb, &r, 0x1FF80, 3), 1);
	ck_assert_uint_eq(libnds_vram_block_allocate(mb, &r, 0x100, 3), 2);
	ck_assert_uint_eq(libnds_vram_block_addr(mb, 2), A + 0x1FF80);
	/* the palette side reads E, F, G */
	mb = vb_new(64, 1, 0);
	r = default_regs();
	r.vramcnt[4] = 0; /* E off */
	ck_assert_uint_eq(libnds_vram_block_allocate(mb, &r, 0x20, 4), 1);
	ck_assert_uint_eq(libnds_vram_block_addr(mb, 1), F);
	r.lock[1] = 2; /* F locked */
	ck_assert_uint_eq(libnds_vram_block_allocate(mb, &r, 0x20, 4), 2);
	ck_assert_uint_eq(libnds_vram_block_addr(mb, 2), G);
	r.vramcnt[6] = 0x82; /* G is something else too */
	ck_assert_uint_eq(libnds_vram_block_allocate(mb, &r, 0x20, 4), 0);
}
END_TEST

/* Defect: padding larger than the room left wraps the u32 room, so the
 * search answers an address past its free block; allocate_special then
 * refuses it. fixed: the search goes on to the next block. */
START_TEST(vb_padding_wraps)
{
	libnds_vb_regs r = default_regs();
	int fixed;

	for (fixed = 0; fixed < 2; fixed++) {
		libnds_vram_block *mb = vb_new(64, 1, fixed);
		uint32_t at;
		ck_assert_uint_eq(libnds_vram_block_allocate(mb, &r, 2, 4), 1);  /* E + 0: [0, 2) */
		ck_assert_uint_eq(libnds_vram_block_allocate(mb, &r, 8, 3), 2);  /* E + 8: [8, 0x10) */
		/* free block [2, 8): 6 bytes of room, 14 of padding to 0x10 */
		at = libnds_vram_block_examine(mb, &r, E, 0x20, 4);
		ck_assert_uint_eq(at, E + 0x10);
		ck_assert_uint_eq(mb->node[mb->last_examined].addr, fixed ? E + 0x10 : E + 2);
		ck_assert_uint_eq(libnds_vram_block_allocate_special(mb, at, 0x20), fixed ? 3 : 0);
		/* allocate = examine + allocate_special: it fails outright */
		ck_assert_uint_eq(libnds_vram_block_allocate(mb, &r, 0x20, 4), fixed ? 4 : 0);
		check_links(mb);
	}
}
END_TEST

/* Defect: the search moves its address to the next free block without
 * looking at the banks again, and measures the room up to a locked bank
 * it has already passed: the u32 wraps and the answer is inside a locked
 * bank (or too small for its block: refused). */
START_TEST(vb_locked_bank_wraps)
{
	libnds_vb_regs r = default_regs();
	int fixed;

	for (fixed = 0; fixed < 2; fixed++) {
		libnds_vram_block *mb = vb_new(64, 0, fixed);
		ck_assert_uint_eq(libnds_vram_block_allocate(mb, &r, 0x20000, 3), 1); /* A */
		ck_assert_uint_eq(libnds_vram_block_allocate(mb, &r, 0x20000, 3), 2); /* B */
		ck_assert_uint_eq(libnds_vram_block_allocate(mb, &r, 0x20000, 3), 3); /* C */
		ck_assert_uint_eq(libnds_vram_block_allocate(mb, &r, 0x10, 3), 4);    /* D + 0 */
		ck_assert_int_eq(libnds_vram_block_deallocate(mb, 2), 1);             /* B free again */
		r.lock[0] = (1u << 1) | (1u << 3); /* lock B and D */
		/* from B: out of B to C, on to the free block at D + 0x10, room
		 * measured to D's start: 0x60000 - 0x60010 */
		ck_assert_uint_eq(libnds_vram_block_allocate(mb, &r, 0x100, 3), fixed ? 0 : 2);
		if (!fixed)
			ck_assert_uint_eq(libnds_vram_block_addr(mb, 2), D + 0x10); /* in locked D */
		/* the same with a size the block cannot hold: found, refused */
		ck_assert_uint_eq(libnds_vram_block_examine(mb, &r, B, 0x30000, 3), fixed ? 0 : D + 0x110);
		ck_assert_uint_eq(libnds_vram_block_allocate(mb, &r, 0x30000, 3), 0);
		check_links(mb);
		r = default_regs();
	}
}
END_TEST

/* Defect: once an allocation takes the last free byte, firstEmpty is NULL
 * and no free sets it again: every search fails until deallocateAll.
 * fixed: the first block freed becomes firstEmpty. */
START_TEST(vb_full_then_freed)
{
	libnds_vb_regs r = default_regs();
	int fixed;

	for (fixed = 0; fixed < 2; fixed++) {
		libnds_vram_block *mb = vb_new(64, 1, fixed);
		ck_assert_uint_eq(libnds_vram_block_allocate(mb, &r, 0x10000, 4), 1);
		ck_assert_uint_eq(libnds_vram_block_allocate(mb, &r, 0x8000, 4), 2); /* the last byte */
		ck_assert_uint_eq(mb->first_empty, NIL);
		ck_assert_int_eq(libnds_vram_block_deallocate(mb, 1), 1);
		ck_assert_int_eq(libnds_vram_block_deallocate(mb, 2), 1); /* all free now */
		check_links(mb);
		ck_assert_uint_eq(libnds_vram_block_allocate(mb, &r, 0x20, 4), fixed ? 2 : 0);
		ck_assert_uint_eq(libnds_vram_block_examine(mb, &r, E, 0x20, 4), fixed ? E + 0x20 : 0);
		libnds_vram_block_deallocate_all(mb);
		ck_assert_uint_eq(libnds_vram_block_allocate(mb, &r, 0x20, 4), 1);
	}
}
END_TEST

/* The model's pool: nodes and handles end where its tables do (libnds:
 * malloc); the refusal changes nothing. */
START_TEST(vb_pool_limit)
{
	libnds_vram_block *mb = vb_new(4, 0, 0);
	libnds_vb_regs r = default_regs();

	ck_assert_uint_eq(libnds_vram_block_allocate(mb, &r, 0x10, 3), 1); /* 2 nodes */
	ck_assert_uint_eq(libnds_vram_block_allocate(mb, &r, 0x10, 3), 2); /* 3 */
	ck_assert_uint_eq(libnds_vram_block_allocate(mb, &r, 0x10, 3), 3); /* 4 */
	ck_assert_uint_eq(libnds_vram_block_allocate(mb, &r, 0x10, 3), 0); /* a 5th node, a 4th handle */
	ck_assert_uint_eq(mb->fail, LIBNDS_VB_FAIL_POOL);
	check_links(mb);
	ck_assert_int_eq(libnds_vram_block_deallocate(mb, 3), 1);
	ck_assert_uint_eq(libnds_vram_block_allocate(mb, &r, 0x8, 3), 3);
}
END_TEST

/* ---- the block allocator, random ---------------------------------------- */

static uint32_t random_size(vs_rng *rng, uint32_t space)
{
	uint32_t k = vs_rng_below(rng, 100);

	if (k < 30)
		return 1 + vs_rng_below(rng, 64);
	if (k < 70)
		return 8 * (1 + vs_rng_below(rng, space / 0x400));
	if (k < 93)
		return 16 * (1 + vs_rng_below(rng, space / 0x40));
	return space >> vs_rng_below(rng, 4);
}

/* Every call's answer and the whole state after it, against the model:
 * both spaces, with and without fixed, registers and locks changing. */
START_TEST(vb_random)
{
	static ref_vb ref;
	int fixed = _i & 1, pal = (_i >> 1) & 1;
	uint32_t start = pal ? E : A, space = pal ? 0x18000u : 0x80000u, steps = vs_test_soak(20000, 200000), s;
	libnds_vram_block *mb = vb_new(8192, pal, fixed);
	libnds_vb_regs regs = default_regs();
	vs_rng rng = { 0x9E3779B97F4A7C15ull + (uint64_t)_i };
	unsigned stuck = 0, refused = 0, stuck_run = 0, refusals = 0;

	rv_init(&ref, start, start + space, 8192, fixed);
	for (s = 0; s < steps; s++) {
		uint32_t k = vs_rng_below(&rng, 100);
		if (k < 40) {
			uint32_t size = random_size(&rng, space), al = vs_rng_below(&rng, 9);
			uint32_t h = libnds_vram_block_allocate(mb, &regs, size, al);
			QEQ(h, rv_allocate(&ref, &regs, size, al));
		} else if (k < 55) {
			uint32_t size = random_size(&rng, space), al = vs_rng_below(&rng, 8);
			uint32_t from = vs_rng_below(&rng, 50) ? start + vs_rng_below(&rng, space + 0x100) : 0, at;
			at = libnds_vram_block_examine(mb, &regs, from, size, al);
			QEQ(at, rv_examine(&ref, &regs, from, size, al));
			if (at && vs_rng_below(&rng, 10) == 0)
				QEQ(libnds_vram_block_allocate_special(mb, at, size + 8), rv_allocate_special(&ref, at, size + 8));
			if (at) {
				uint32_t h = libnds_vram_block_allocate_special(mb, at, size);
				QEQ(h, rv_allocate_special(&ref, at, size));
				refused += !h;
			}
		} else if (k < 85) {
			uint32_t h = vs_rng_below(&rng, 10) ? 1 + vs_rng_below(&rng, ref.count) : vs_rng_below(&rng, 9000);
			QEQ(libnds_vram_block_deallocate(mb, h), rv_deallocate(&ref, h));
		} else if (k < 88) {
			/* take every free run whole: the space full, to its last byte */
			unsigned i;
			regs = default_regs();
			for (i = 0; ref.n && !ref.stuck && i < 64; i++) {
				uint32_t a = ref.run[0].a, n = ref.run[0].b - a, at;
				at = libnds_vram_block_examine(mb, &regs, a, n, 0);
				QEQ(at, rv_examine(&ref, &regs, a, n, 0));
				QEQ(libnds_vram_block_allocate_special(mb, at, n), rv_allocate_special(&ref, at, n));
			}
		} else if (k < 99 || s % 997) {
			random_regs(&rng, &regs, pal);
		} else {
			refusals += ref.refusals;
			libnds_vram_block_deallocate_all(mb);
			rv_reset(&ref);
		}
		stuck += ref.stuck;
		rv_compare(mb, &ref);
		/* stuck until deallocateAll: give the rest of the run a chance */
		if (ref.stuck && ++stuck_run > 20) {
			refusals += ref.refusals;
			libnds_vram_block_deallocate_all(mb);
			rv_reset(&ref);
			stuck_run = 0;
		}
	}
	/* the run reached the defects it is about */
	refusals += ref.refusals;
	if (!fixed && steps >= 5000) {
		ck_assert_uint_gt(stuck, 0);
		ck_assert_uint_gt(refusals + refused, 0);
	}
	/* fixed: the search never answers a place the allocation refuses */
	if (fixed)
		ck_assert_uint_eq(refusals, 0);
}
END_TEST

static Suite *libnds_vram_block_suite(void)
{
	Suite *s = suite_create("libnds_vram_block");
	TCase *hand = tcase_create("hand");
	TCase *rnd = tcase_create("random");

	tcase_add_test(hand, vb_first_fit_and_handles);
	tcase_add_test(hand, vb_split_and_merge);
	tcase_add_test(hand, vb_banks_stepped_over);
	tcase_add_test(hand, vb_padding_wraps);
	tcase_add_test(hand, vb_locked_bank_wraps);
	tcase_add_test(hand, vb_full_then_freed);
	tcase_add_test(hand, vb_pool_limit);
	tcase_add_loop_test(rnd, vb_random, 0, 4);
	suite_add_tcase(s, hand);
	suite_add_tcase(s, rnd);
	return s;
}

int main(void)
{
	return vs_test_main(libnds_vram_block_suite());
}
