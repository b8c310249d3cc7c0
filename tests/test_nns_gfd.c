/* SPDX-License-Identifier: Zlib */
/* test_nns_gfd.c - the NNS_Gfd managers against nns-gfd.md.
 *
 * Two kinds of check: hand-made sequences for every rule of the reference
 * page (with the expected keys worked out by hand), and long random
 * sequences where every call's expected key or return code, and the
 * manager's whole state after it, come from a reference model written here
 * from the page alone. The model shares no code with src/alloc: free lists
 * are plain arrays (index 0 = head), the pool is a count.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "vramsim/alloc/nns_gfd.h"

#define NBLK 256

/* check's ck_assert talks to the parent process on every call; the long
 * random loops use these instead and only call check on failure. */
#define QEQ(a, b) do { long long qa_ = (long long)(a), qb_ = (long long)(b); \
	if (qa_ != qb_) ck_abort_msg("line %d: %s == %lld, %s == %lld", __LINE__, #a, qa_, #b, qb_); } while (0)
#define QOK(c) do { if (!(c)) ck_abort_msg("line %d: %s", __LINE__, #c); } while (0)

typedef union ctx_store {
	nns_gfd_ctx g;
	unsigned char bytes[NNS_GFD_CTX_BYTES(NBLK)];
} ctx_store;

static nns_gfd_ctx *fresh(ctx_store *s)
{
	memset(s, 0xA5, sizeof *s); /* garbage: init must not rely on zeroed memory */
	nns_gfd_init(&s->g, NBLK);
	return &s->g;
}

#include "nns_gfd_ref.h"

/* ======================================================================
 * Hand-made sequences
 * ====================================================================== */

START_TEST(defaults_before_install)
{
	ctx_store s;
	nns_gfd_ctx *g = fresh(&s);

	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 64, false, 0), NNS_GFD_ALLOC_ERROR_TEXKEY);
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 64, true, 0), 0);
	ck_assert_int_eq(nns_gfd_free_tex(g, 0x00040001u), -1);
	ck_assert_uint_eq(nns_gfd_alloc_pltt(g, 32, false, 1), NNS_GFD_ALLOC_ERROR_PLTTKEY);
	ck_assert_int_eq(nns_gfd_free_pltt(g, 0x00040001u), -1);
	/* init without useAsDefault installs nothing */
	ck_assert(nns_frm_tex_init(g, 4, false));
	ck_assert(nns_frm_pltt_init(g, 0x18000, false));
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 64, false, 0), 0);
	ck_assert_uint_eq(nns_gfd_alloc_pltt(g, 32, false, 0), 0);
	ck_assert_int_eq(nns_gfd_free_tex(g, 1), -1);
	/* but the manager's own functions work */
	ck_assert_uint_eq(nns_frm_tex_alloc(g, 0x10000, false, 0), rtex(0x70000, 0x10000, 0));
	/* with useAsDefault the entry points call it */
	ck_assert(nns_frm_tex_init(g, 4, true));
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 0x10000, false, 0), rtex(0x70000, 0x10000, 0));
	ck_assert_int_eq(nns_gfd_free_tex(g, 1), 0);
	/* setting the pointers back restores the defaults */
	nns_gfd_set_tex_mgr(g, NNS_GFD_MGR_NONE);
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 0x10000, false, 0), 0);
	ck_assert_int_eq(nns_gfd_free_tex(g, 1), -1);
}
END_TEST

START_TEST(keys_and_rounding)
{
	ctx_store s;
	nns_gfd_ctx *g = fresh(&s);
	uint32_t k;

	ck_assert_uint_eq(nns_tex_key_make(0x12340, 0x7FFE0, true), 0x80000000u | (0x7FFEu << 16) | 0x2468u);
	ck_assert_uint_eq(nns_tex_key_addr(0x80012468u), 0x12340);
	ck_assert_uint_eq(nns_tex_key_size(0x80052468u), 0x50);
	ck_assert(nns_tex_key_4x4(0x80000000u));
	ck_assert_uint_eq(nns_pltt_key_make(0x17FF8, 0x8000), (0x1000u << 16) | 0x2FFFu);
	ck_assert_uint_eq(nns_pltt_key_size(0xFFFF0000u), 0x7FFF8);

	ck_assert_uint_eq(nns_gfd_round_tex_size(0), 16);
	ck_assert_uint_eq(nns_gfd_round_tex_size(1), 16);
	ck_assert_uint_eq(nns_gfd_round_tex_size(16), 16);
	ck_assert_uint_eq(nns_gfd_round_tex_size(17), 32);
	ck_assert_uint_eq(nns_gfd_round_tex_size(0x7FFE0), 0x7FFE0);
	ck_assert_uint_eq(nns_gfd_round_tex_size(0x7FFE1), 0);
	ck_assert_uint_eq(nns_gfd_round_tex_size(0xFFFFFFFFu), 0);
	ck_assert_uint_eq(nns_gfd_round_pltt_size(0), 8);
	ck_assert_uint_eq(nns_gfd_round_pltt_size(9), 16);
	ck_assert_uint_eq(nns_gfd_round_pltt_size(0x7FFF0), 0x7FFF0);
	ck_assert_uint_eq(nns_gfd_round_pltt_size(0x7FFF1), 0);

	/* the key carries the rounded size; a rounded size at the limit fails */
	ck_assert(nns_lnk_tex_init(g, 0x80000, 0, 0, 8, true));
	k = nns_gfd_alloc_tex(g, 0, false, 0);
	ck_assert_uint_eq(k, rtex(0, 16, 0));
	ck_assert_int_eq(nns_gfd_free_tex(g, k), 0);
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 0x7FFE1, false, 0), 0);
	k = nns_gfd_alloc_tex(g, 0x7FFE0, false, 0);
	ck_assert_uint_eq(k, rtex(0, 0x7FFE0, 0));
	ck_assert(nns_lnk_pltt_init(g, 0x18000, 8, 8, true));
	ck_assert_uint_eq(nns_gfd_alloc_pltt(g, 0, false, 0), rpltt(0, 8));
	ck_assert_uint_eq(nns_gfd_alloc_pltt(g, 3, true, 0), rpltt(8, 8));
}
END_TEST

static void expect_sequence(nns_gfd_ctx *g, uint32_t size, int c4, const uint32_t *addrs, int n)
{
	int i;

	for (i = 0; i < n; i++)
		ck_assert_uint_eq(nns_gfd_alloc_tex(g, size, c4, 0), rtex(addrs[i], size, c4));
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, size, c4, 0), 0);
}

START_TEST(frm_tex_worked_example)
{
	static const uint32_t want[] = { 0x70000, 0x60000, 0x50000, 0x40000, 0x10000, 0x00000, 0x30000, 0x20000 };
	ctx_store s;
	nns_gfd_ctx *g = fresh(&s);

	ck_assert(nns_frm_tex_init(g, 4, true));
	expect_sequence(g, 0x10000, 0, want, 8);
}
END_TEST

START_TEST(frm_tex_slots_and_orders)
{
	static const uint32_t one[] = { 0x10000, 0x00000 };
	static const uint32_t two[] = { 0x30000, 0x10000, 0x00000, 0x20000 };
	static const uint32_t three[] = { 0x50000, 0x40000, 0x10000, 0x00000, 0x30000, 0x20000 };
	ctx_store s;
	nns_gfd_ctx *g = fresh(&s);

	ck_assert(!nns_frm_tex_init(g, 0, true));
	ck_assert(!nns_frm_tex_init(g, 5, true));
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 16, false, 0), 0);
	ck_assert(nns_frm_tex_init(g, 1, true));
	expect_sequence(g, 0x10000, 0, one, 2);
	nns_frm_tex_reset(g);
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 16, true, 0), 0); /* numSlot 1: never 4x4 */
	ck_assert(nns_frm_tex_init(g, 2, true));
	expect_sequence(g, 0x10000, 0, two, 4);
	ck_assert(nns_frm_tex_init(g, 3, true));
	expect_sequence(g, 0x10000, 0, three, 6);
	/* a region too small is skipped, later ones still tried */
	ck_assert(nns_frm_tex_init(g, 4, true));
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 0x18000, false, 0), rtex(0x68000, 0x18000, 0));
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 0x10000, false, 0), rtex(0x50000, 0x10000, 0));
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 0x8000, false, 0), rtex(0x60000, 0x8000, 0));
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 0x20000, false, 0), rtex(0, 0x20000, 0));
	/* 0x10000 left in regions 1, 2 and 3 each: 0x11000 fits none */
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 0x11000, false, 0), 0);
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 0x10000, false, 0), rtex(0x40000, 0x10000, 0));
}
END_TEST

START_TEST(frm_tex_4x4)
{
	ctx_store s;
	nns_gfd_ctx *g = fresh(&s);
	nns_frm_tex_state st;

	ck_assert(nns_frm_tex_init(g, 4, true));
	/* bottom-up in region 0, index head of region 1 moves by half */
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 0x8000, true, 0), rtex(0, 0x8000, 1));
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 0x1000, true, 0), rtex(0x8000, 0x1000, 1));
	nns_frm_tex_get_state(g, &st);
	ck_assert_uint_eq(st.head[0], 0x9000);
	ck_assert_uint_eq(st.head[1], 0x4800);
	ck_assert_uint_eq(st.tail[1], 0x10000);
	/* fill region 1 from the tail with normal textures (order 4,3,0,2,1) */
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 0x20000, false, 0), rtex(0x60000, 0x20000, 0));
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 0x20000, false, 0), rtex(0x40000, 0x20000, 0));
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 0x17000, false, 0), rtex(0x09000, 0x17000, 0));
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 0x10000, false, 0), rtex(0x30000, 0x10000, 0));
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 0xB000, false, 0), rtex(0x25000, 0xB000, 0));
	/* region 0 full, region 3 full: 4x4 fails although region 1 has 0x800 */
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 0x1000, true, 0), 0);
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 0x800, false, 0), rtex(0x24800, 0x800, 0));

	/* region 0 has room but its index region does not: region 3 is used */
	ck_assert(nns_frm_tex_init(g, 4, true));
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 0x10000, true, 0), rtex(0, 0x10000, 1));
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 0x20000, false, 0), rtex(0x60000, 0x20000, 0));
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 0x1C000, false, 0), rtex(0x44000, 0x1C000, 0));
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 0xC000, false, 0), rtex(0x14000, 0xC000, 0));
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 0xC000, false, 0), rtex(0x34000, 0xC000, 0));
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 0x8000, false, 0), rtex(0x28000, 0x8000, 0));
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 0x4000, true, 0), rtex(0x40000, 0x4000, 1));
	nns_frm_tex_get_state(g, &st);
	ck_assert_uint_eq(st.head[3], 0x4000);
	ck_assert_uint_eq(st.head[2], 0x2000);
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 0x4000, true, 0), 0);
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 0x2000, false, 0), rtex(0x12000, 0x2000, 0));

	/* numSlot 3: regions 0-3 active; numSlot 2: region 3 is not */
	ck_assert(nns_frm_tex_init(g, 3, true));
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 0x20000, true, 0), rtex(0, 0x20000, 1));
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 0x20000, true, 0), rtex(0x40000, 0x20000, 1));
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 16, true, 0), 0);
	ck_assert(nns_frm_tex_init(g, 2, true));
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 0x20000, true, 0), rtex(0, 0x20000, 1));
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 16, true, 0), 0);
}
END_TEST

START_TEST(frm_tex_state)
{
	ctx_store s;
	nns_gfd_ctx *g = fresh(&s);
	nns_frm_tex_state st, st2;
	uint32_t b, c;

	ck_assert(nns_frm_tex_init(g, 4, true));
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 0x1000, false, 0), rtex(0x7F000, 0x1000, 0));
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 0x1000, true, 0), rtex(0, 0x1000, 1));
	nns_frm_tex_get_state(g, &st);
	b = nns_gfd_alloc_tex(g, 0x3000, false, 0);
	c = nns_gfd_alloc_tex(g, 0x800, true, 0);
	ck_assert_uint_eq(b, rtex(0x7C000, 0x3000, 0));
	ck_assert_uint_eq(c, rtex(0x1000, 0x800, 1));
	/* free does nothing */
	ck_assert_int_eq(nns_gfd_free_tex(g, b), 0);
	ck_assert_int_eq(nns_gfd_free_tex(g, 0), 0);
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 0x10, false, 0), rtex(0x7BFF0, 0x10, 0));
	/* restoring gives the same addresses again */
	nns_frm_tex_set_state(g, &st);
	nns_frm_tex_get_state(g, &st2);
	ck_assert_mem_eq(&st, &st2, sizeof st);
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 0x3000, false, 0), b);
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 0x800, true, 0), c);
	/* reset: everything free, the worked example's first address again */
	nns_frm_tex_reset(g);
	nns_frm_tex_get_state(g, &st);
	ck_assert_uint_eq(st.head[0], 0);
	ck_assert_uint_eq(st.tail[0], 0x20000);
	ck_assert_uint_eq(st.tail[1], 0x10000);
	ck_assert_uint_eq(st.tail[4], 0x20000);
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 0x10000, false, 0), rtex(0x70000, 0x10000, 0));
}
END_TEST

START_TEST(frm_pltt_rules)
{
	ctx_store s;
	nns_gfd_ctx *g = fresh(&s);
	nns_frm_pltt_state st;

	ck_assert(!nns_frm_pltt_init(g, 0x18008, true));
	ck_assert_uint_eq(nns_gfd_alloc_pltt(g, 32, false, 1), 0);
	ck_assert(nns_frm_pltt_init(g, 0x18000, true));
	/* from low: 16 alignment, 8 for 4-colour; padding lost */
	ck_assert_uint_eq(nns_gfd_alloc_pltt(g, 32, false, NNS_GFD_ALLOC_FROM_LOW), rpltt(0, 32));
	ck_assert_uint_eq(nns_gfd_alloc_pltt(g, 8, true, NNS_GFD_ALLOC_FROM_LOW), rpltt(0x20, 8));
	ck_assert_uint_eq(nns_gfd_alloc_pltt(g, 32, false, NNS_GFD_ALLOC_FROM_LOW), rpltt(0x30, 32));
	nns_frm_pltt_get_state(g, &st);
	ck_assert_uint_eq(st.lo, 0x50);
	/* from high (opt 0) */
	ck_assert_uint_eq(nns_gfd_alloc_pltt(g, 32, false, NNS_GFD_ALLOC_FROM_HIGH), rpltt(0x17FE0, 32));
	/* 4-colour from high needs hi <= 0x10000 before moving, room or not */
	ck_assert_uint_eq(nns_gfd_alloc_pltt(g, 8, true, NNS_GFD_ALLOC_FROM_HIGH), 0);
	/* 8 bytes, 16-aligned: pad (0x17FE0 - 8) % 16 = 8 */
	ck_assert_uint_eq(nns_gfd_alloc_pltt(g, 5, false, NNS_GFD_ALLOC_FROM_HIGH), rpltt(0x17FD0, 8));
	nns_frm_pltt_get_state(g, &st);
	ck_assert_uint_eq(st.hi, 0x17FD0);
	/* free does nothing */
	ck_assert_int_eq(nns_gfd_free_pltt(g, rpltt(0, 32)), 0);
	nns_frm_pltt_get_state(g, &st);
	ck_assert_uint_eq(st.lo, 0x50);

	/* 4-colour from low must end at or below 0x10000 */
	st.lo = 0xFFF8;
	st.hi = 0x18000;
	nns_frm_pltt_set_state(g, &st);
	ck_assert_uint_eq(nns_gfd_alloc_pltt(g, 8, true, 1), rpltt(0xFFF8, 8));
	ck_assert_uint_eq(nns_gfd_alloc_pltt(g, 8, true, 1), 0);
	ck_assert_uint_eq(nns_gfd_alloc_pltt(g, 8, false, 1), rpltt(0x10000, 8));
	/* padding counts toward the 0x10000 limit */
	st.lo = 0xFFF9;
	nns_frm_pltt_set_state(g, &st);
	ck_assert_uint_eq(nns_gfd_alloc_pltt(g, 8, true, 1), 0);
	st.lo = 0xFFF4;
	nns_frm_pltt_set_state(g, &st);
	ck_assert_uint_eq(nns_gfd_alloc_pltt(g, 8, true, 1), rpltt(0xFFF8, 8));
	st.lo = 0xFFF0 - 4;
	nns_frm_pltt_set_state(g, &st);
	ck_assert_uint_eq(nns_gfd_alloc_pltt(g, 8, true, 1), rpltt(0xFFF0, 8));
	/* 4-colour from high at hi = 0x10000 */
	st.lo = 0;
	st.hi = 0x10000;
	nns_frm_pltt_set_state(g, &st);
	ck_assert_uint_eq(nns_gfd_alloc_pltt(g, 8, true, 0), rpltt(0xFFF8, 8));
	ck_assert_uint_eq(nns_gfd_alloc_pltt(g, 4, true, 0), rpltt(0xFFF0, 8));
	/* room includes padding */
	st.lo = 0x8;
	st.hi = 0x20;
	nns_frm_pltt_set_state(g, &st);
	ck_assert_uint_eq(nns_gfd_alloc_pltt(g, 16, false, 1), rpltt(0x10, 16));
	ck_assert_uint_eq(nns_gfd_alloc_pltt(g, 8, true, 1), 0);
	st.lo = 0x8;
	st.hi = 0x1F;
	nns_frm_pltt_set_state(g, &st);
	ck_assert_uint_eq(nns_gfd_alloc_pltt(g, 16, false, 1), 0);
	/* from high: hi must hold the size */
	st.lo = 0;
	st.hi = 8;
	nns_frm_pltt_set_state(g, &st);
	ck_assert_uint_eq(nns_gfd_alloc_pltt(g, 16, false, 0), 0);
	ck_assert_uint_eq(nns_gfd_alloc_pltt(g, 8, true, 0), rpltt(0, 8));
	/* reset */
	nns_frm_pltt_reset(g);
	nns_frm_pltt_get_state(g, &st);
	ck_assert_uint_eq(st.lo, 0);
	ck_assert_uint_eq(st.hi, 0x18000);
	ck_assert_uint_eq(nns_gfd_alloc_pltt(g, 0x18000, false, 0), rpltt(0, 0x18000));
	ck_assert_uint_eq(nns_gfd_alloc_pltt(g, 0, false, 1), 0);
	/* a smaller manager */
	ck_assert(nns_frm_pltt_init(g, 0x100, true));
	ck_assert_uint_eq(nns_gfd_alloc_pltt(g, 0x101, false, 1), 0);
	ck_assert_uint_eq(nns_gfd_alloc_pltt(g, 0x20, false, 0), rpltt(0xE0, 0x20));
}
END_TEST

static void expect_blocks(nns_gfd_ctx *g, int tex, int which, const uint32_t *ab, int n)
{
	collect c;
	int i;

	c.n = 0;
	if (tex)
		nns_lnk_tex_dump_ex(g, which, collect_block, &c);
	else
		nns_lnk_pltt_dump_ex(g, collect_block, &c);
	if (c.n != n)
		ck_abort_msg("%d blocks, want %d", c.n, n);
	for (i = 0; i < n; i++)
		if (c.b[i].a != ab[2 * i] || c.b[i].a + c.b[i].s != ab[2 * i + 1])
			ck_abort_msg("block %d is [0x%x, 0x%x), want [0x%x, 0x%x)", i, c.b[i].a,
				c.b[i].a + c.b[i].s, ab[2 * i], ab[2 * i + 1]);
}

START_TEST(lnk_tex_layouts)
{
	ctx_store s;
	nns_gfd_ctx *g = fresh(&s);
	static const uint32_t l1[] = { 0, 0x80000 };
	static const uint32_t l2n[] = { 0x30000, 0x80000 }, l2c[] = { 0, 0x20000 };
	static const uint32_t l3n[] = { 0x38000, 0x40000, 0x50000, 0x80000 };
	static const uint32_t l3c[] = { 0x40000, 0x50000, 0, 0x20000 };
	static const uint32_t l5n[] = { 0x28000, 0x40000, 0x10000, 0x20000 }, l5c[] = { 0, 0x10000 };
	static const uint32_t l6n[] = { 0x24000, 0x60000, 0x8000, 0x20000 }, l6c[] = { 0, 0x8000 };
	static const uint32_t l7c[] = { 0x40000, 0x60000, 0, 0x20000 };
	static const uint32_t l8n[] = { 0x20000, 0x30000 };

	ck_assert(nns_lnk_tex_init(g, 0x80000, 0, 0, 16, true));
	expect_blocks(g, 1, 0, l1, 1);
	expect_blocks(g, 1, 1, NULL, 0);
	ck_assert(nns_lnk_tex_init(g, 0x80000, 0x20000, 0, 16, true));
	expect_blocks(g, 1, 0, l2n, 1);
	expect_blocks(g, 1, 1, l2c, 1);
	ck_assert(nns_lnk_tex_init(g, 0x80000, 0x30000, 0, 16, true));
	expect_blocks(g, 1, 0, l3n, 2);
	expect_blocks(g, 1, 1, l3c, 2);
	ck_assert(nns_lnk_tex_init(g, 0x30000, 0x20000, 0, 16, true));
	expect_blocks(g, 1, 0, NULL, 0);
	expect_blocks(g, 1, 1, l2c, 1);
	ck_assert(nns_lnk_tex_init(g, 0x40000, 0x10000, 0, 16, true));
	expect_blocks(g, 1, 0, l5n, 2);
	expect_blocks(g, 1, 1, l5c, 1);
	ck_assert(nns_lnk_tex_init(g, 0x60000, 0x8000, 0, 16, true));
	expect_blocks(g, 1, 0, l6n, 2);
	expect_blocks(g, 1, 1, l6c, 1);
	ck_assert(nns_lnk_tex_init(g, 0x60000, 0x40000, 0, 16, true));
	expect_blocks(g, 1, 0, NULL, 0);
	expect_blocks(g, 1, 1, l7c, 2);
	/* slot 0 whole, then slot 1 (no 4x4: no index table) */
	ck_assert(nns_lnk_tex_init(g, 0x30000, 0, 0, 16, true));
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 0x20000, false, 0), rtex(0, 0x20000, 0));
	expect_blocks(g, 1, 0, l8n, 1);

	/* parameter validity */
	ck_assert(!nns_lnk_tex_init(g, 0x80001, 0, 0, 16, true));
	ck_assert(!nns_lnk_tex_init(g, 0x2FFFF, 0x20000, 0, 16, true));
	ck_assert(!nns_lnk_tex_init(g, 0x23FFF, 0x8000, 0, 16, true));
	ck_assert(nns_lnk_tex_init(g, 0x24000, 0x8000, 0, 16, true));
	ck_assert(!nns_lnk_tex_init(g, 0x4FFFF, 0x30000, 0, 16, true));
	ck_assert(nns_lnk_tex_init(g, 0x50000, 0x30000, 0, 16, true));
	ck_assert(!nns_lnk_tex_init(g, 0x80000, 0x40001, 0, 16, true));
	ck_assert(!nns_lnk_tex_init(g, 0x80000, 0, NBLK - 4, 5, true));
	ck_assert(nns_lnk_tex_init(g, 0x80000, 0, NBLK - 4, 4, true));
	/* a manager with no blocks manages nothing */
	ck_assert(nns_lnk_tex_init(g, 0x80000, 0, 0, 0, true));
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 16, false, 0), 0);
}
END_TEST

START_TEST(lnk_tex_first_fit_and_merge)
{
	ctx_store s;
	nns_gfd_ctx *g = fresh(&s);
	uint32_t a, b, c;
	static const uint32_t s1[] = { 0, 0x1000, 0x4000, 0x80000 };
	static const uint32_t s2[] = { 0x3000, 0x4000, 0x800, 0x1000, 0x5000, 0x80000 };
	static const uint32_t s3[] = { 0x800, 0x4000, 0x5000, 0x80000 };

	ck_assert(nns_lnk_tex_init(g, 0x80000, 0, 0, 4, true));
	a = nns_gfd_alloc_tex(g, 0x1000, false, 0);
	b = nns_gfd_alloc_tex(g, 0x2000, false, 0);
	c = nns_gfd_alloc_tex(g, 0x1000, false, 0);
	ck_assert_uint_eq(a, rtex(0, 0x1000, 0));
	ck_assert_uint_eq(b, rtex(0x1000, 0x2000, 0));
	ck_assert_uint_eq(c, rtex(0x3000, 0x1000, 0));
	ck_assert_int_eq(nns_gfd_free_tex(g, a), 0);
	expect_blocks(g, 1, 0, s1, 2);
	/* first fit from the head: the freed block is tried first */
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 0x800, false, 0), rtex(0, 0x800, 0));
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 0x1000, false, 0), rtex(0x4000, 0x1000, 0));
	ck_assert_int_eq(nns_gfd_free_tex(g, c), 0);
	expect_blocks(g, 1, 0, s2, 3);
	/* freeing b merges with the block above and the one below */
	ck_assert_int_eq(nns_gfd_free_tex(g, b), 0);
	expect_blocks(g, 1, 0, s3, 2);
	/* size 0 key */
	ck_assert_int_eq(nns_gfd_free_tex(g, 0), 2);
	ck_assert_int_eq(nns_gfd_free_tex(g, 0x80001234u), 2);
	expect_blocks(g, 1, 0, s3, 2);
}
END_TEST

START_TEST(lnk_tex_merge_both_sides)
{
	ctx_store s;
	nns_gfd_ctx *g = fresh(&s);
	uint32_t x[4];
	int i;
	static const uint32_t s1[] = { 0x2000, 0x3000, 0, 0x1000, 0x4000, 0x80000 };
	static const uint32_t s2[] = { 0, 0x3000, 0x4000, 0x80000 };
	static const uint32_t s3[] = { 0, 0x80000 };

	ck_assert(nns_lnk_tex_init(g, 0x80000, 0, 0, 8, true));
	for (i = 0; i < 4; i++) {
		x[i] = nns_gfd_alloc_tex(g, 0x1000, false, 0);
		ck_assert_uint_eq(x[i], rtex(0x1000u * (uint32_t)i, 0x1000, 0));
	}
	ck_assert_int_eq(nns_gfd_free_tex(g, x[0]), 0);
	ck_assert_int_eq(nns_gfd_free_tex(g, x[2]), 0);
	expect_blocks(g, 1, 0, s1, 3);
	ck_assert_int_eq(nns_gfd_free_tex(g, x[1]), 0);
	expect_blocks(g, 1, 0, s2, 2);
	ck_assert_int_eq(nns_gfd_free_tex(g, x[3]), 0);
	expect_blocks(g, 1, 0, s3, 1);
	ck_assert_int_eq(pool_count(g, &g->lnk_tex.l), 7);
}
END_TEST

START_TEST(lnk_tex_pool_exhaustion)
{
	ctx_store s;
	nns_gfd_ctx *g = fresh(&s);
	uint32_t a, b, c, e, f;
	static const uint32_t s1[] = { 0x300, 0x20000, 0, 0x200 };
	static const uint32_t s2[] = { 0, 0x20000 };

	/* slot 0 only: the layout needs one block, one stays in the pool */
	ck_assert(nns_lnk_tex_init(g, 0x20000, 0, 0, 2, true));
	a = nns_gfd_alloc_tex(g, 0x100, false, 0);
	b = nns_gfd_alloc_tex(g, 0x100, false, 0);
	c = nns_gfd_alloc_tex(g, 0x100, false, 0);
	ck_assert_uint_eq(c, rtex(0x200, 0x100, 0));
	ck_assert_int_eq(nns_gfd_free_tex(g, a), 0);   /* second block used */
	ck_assert_int_eq(nns_gfd_free_tex(g, c), 0);   /* merges up: a block comes back first */
	e = nns_gfd_alloc_tex(g, 0x100, false, 0);
	f = nns_gfd_alloc_tex(g, 0x100, false, 0);
	ck_assert_uint_eq(e, rtex(0x200, 0x100, 0));
	ck_assert_uint_eq(f, rtex(0x300, 0x100, 0));
	/* nothing to merge with and no block left: the region is lost */
	ck_assert_int_eq(nns_gfd_free_tex(g, e), 1);
	ck_assert_int_eq(nns_gfd_free_tex(g, b), 0);
	ck_assert_int_eq(nns_gfd_free_tex(g, f), 0);
	expect_blocks(g, 1, 0, s1, 2);
	/* a texture alloc never needs a block (no alignment) */
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 0x100, false, 0), rtex(0x300, 0x100, 0));
	/* reset brings the lost region back */
	nns_lnk_tex_reset(g);
	expect_blocks(g, 1, 0, s2, 1);
}
END_TEST

START_TEST(lnk_tex_4x4_list)
{
	ctx_store s;
	nns_gfd_ctx *g = fresh(&s);
	uint32_t k;
	static const uint32_t c1[] = { 0, 0x20000 };

	ck_assert(nns_lnk_tex_init(g, 0x80000, 0x20000, 0, 8, true));
	k = nns_gfd_alloc_tex(g, 0x1000, true, 0);
	ck_assert_uint_eq(k, rtex(0, 0x1000, 1));
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 0x1000, false, 0), rtex(0x30000, 0x1000, 0));
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 0x1F010, true, 0), 0);
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 0x1F000, true, 0), rtex(0x1000, 0x1F000, 1));
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 16, true, 0), 0);
	ck_assert_int_eq(nns_gfd_free_tex(g, k), 0);
	ck_assert_int_eq(nns_gfd_free_tex(g, rtex(0x1000, 0x1F000, 1)), 0);
	expect_blocks(g, 1, 1, c1, 1);
	/* opt is ignored */
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 0x1000, true, 12345), rtex(0, 0x1000, 1));
}
END_TEST

START_TEST(lnk_pltt_rules)
{
	ctx_store s;
	nns_gfd_ctx *g = fresh(&s);
	uint32_t a, b, c;
	static const uint32_t s1[] = { 8, 0x10, 0x30, 0x18000 };
	static const uint32_t s2[] = { 0x10000, 0x18000, 0, 0x8000 };
	static const uint32_t s3[] = { 0, 0, 0x20, 0x18000 };
	static const uint32_t s4[] = { 0, 0x20, 0x40, 0x18000 };

	ck_assert(!nns_lnk_pltt_init(g, 0x18001, 0, 8, true));
	ck_assert(!nns_lnk_pltt_init(g, 0x18000, NBLK, 1, true));
	ck_assert(nns_lnk_pltt_init(g, 0x18000, 0, 8, true));
	ck_assert_uint_eq(nns_gfd_alloc_pltt(g, 8, true, 0), rpltt(0, 8));
	/* 16 alignment: the padding becomes a free block at the head */
	ck_assert_uint_eq(nns_gfd_alloc_pltt(g, 32, false, 0), rpltt(0x10, 32));
	expect_blocks(g, 0, 0, s1, 2);
	ck_assert_uint_eq(nns_gfd_alloc_pltt(g, 8, true, 1), rpltt(8, 8));
	ck_assert_int_eq(pool_count(g, &g->lnk_pltt.l), 7);

	/* the pool empty: an alloc that needs padding fails with memory free */
	ck_assert(nns_lnk_pltt_init(g, 0x18000, 0, 1, true));
	ck_assert_uint_eq(nns_gfd_alloc_pltt(g, 8, true, 0), rpltt(0, 8));
	ck_assert_uint_eq(nns_gfd_alloc_pltt(g, 32, false, 0), 0);
	ck_assert_uint_eq(nns_gfd_alloc_pltt(g, 8, true, 0), rpltt(8, 8));
	ck_assert_uint_eq(nns_gfd_alloc_pltt(g, 32, false, 0), rpltt(0x10, 32));
	/* free with nothing to merge and no block: 1 */
	ck_assert_int_eq(nns_gfd_free_pltt(g, rpltt(8, 8)), 1);
	ck_assert_int_eq(nns_gfd_free_pltt(g, rpltt(0x10, 32)), 0); /* merges up */

	/* a 4-colour palette placed past 0x10000 is freed again, no other block tried */
	ck_assert(nns_lnk_pltt_init(g, 0x18000, 0, 8, true));
	a = nns_gfd_alloc_pltt(g, 0x8000, false, 1);
	b = nns_gfd_alloc_pltt(g, 0x8000, false, 1);
	c = nns_gfd_alloc_pltt(g, 0x4000, false, 1);
	ck_assert_uint_eq(c, rpltt(0x10000, 0x4000));
	ck_assert_int_eq(nns_gfd_free_pltt(g, a), 0);
	ck_assert_int_eq(nns_gfd_free_pltt(g, c), 0);
	expect_blocks(g, 0, 0, s2, 2);
	ck_assert_uint_eq(nns_gfd_alloc_pltt(g, 8, true, 0), 0);
	expect_blocks(g, 0, 0, s2, 2);
	/* a 16-colour one takes the same block */
	ck_assert_uint_eq(nns_gfd_alloc_pltt(g, 32, false, 0), rpltt(0x10000, 32));
	/* ending exactly at 0x10000 is fine */
	ck_assert_int_eq(nns_gfd_free_pltt(g, b), 0);
	ck_assert(nns_lnk_pltt_init(g, 0x10000, 0, 8, true));
	ck_assert_uint_eq(nns_gfd_alloc_pltt(g, 0x10000, true, 0), rpltt(0, 0x10000));
	ck_assert(nns_lnk_pltt_init(g, 0x18000, 0, 8, true));
	ck_assert_uint_eq(nns_gfd_alloc_pltt(g, 0xFFF8, false, 0), rpltt(0, 0xFFF8));
	ck_assert_uint_eq(nns_gfd_alloc_pltt(g, 8, true, 0), rpltt(0xFFF8, 8));
	ck_assert_uint_eq(nns_gfd_alloc_pltt(g, 8, true, 0), 0);

	/* freeing the error key: accepted, a zero-size block goes in */
	ck_assert(nns_lnk_pltt_init(g, 0x18000, 0, 4, true));
	ck_assert_uint_eq(nns_gfd_alloc_pltt(g, 32, false, 0), rpltt(0, 32));
	ck_assert_int_eq(nns_gfd_free_pltt(g, 0), 0);
	expect_blocks(g, 0, 0, s3, 2);
	ck_assert_uint_eq(nns_gfd_alloc_pltt(g, 32, false, 0), rpltt(0x20, 32));
	ck_assert_int_eq(nns_gfd_free_pltt(g, rpltt(0, 32)), 0); /* absorbs the empty block */
	expect_blocks(g, 0, 0, s4, 2);
	/* repeated, the real manager corrupts its lists; here they stay sound */
	ck_assert_int_eq(nns_gfd_free_pltt(g, 0), 0);
	ck_assert_int_eq(nns_gfd_free_pltt(g, 0), 0);
	ck_assert_int_eq(nns_gfd_free_pltt(g, 0), 0);
	ck_assert_int_le(pool_count(g, &g->lnk_pltt.l), 4);
	nns_lnk_pltt_reset(g);
	ck_assert_int_eq(pool_count(g, &g->lnk_pltt.l), 3);
}
END_TEST

typedef struct textbuf { char s[4096]; size_t n; } textbuf;

static void to_buf(void *ud, const char *text)
{
	textbuf *t = ud;
	size_t n = strlen(text);

	ck_assert_uint_lt(t->n + n, sizeof t->s);
	memcpy(t->s + t->n, text, n + 1);
	t->n += n;
}

START_TEST(dumps)
{
	ctx_store s;
	nns_gfd_ctx *g = fresh(&s);
	textbuf t;

	ck_assert(nns_lnk_pltt_init(g, 0x18000, 0, 8, true));
	ck_assert_uint_eq(nns_gfd_alloc_pltt(g, 8, true, 0), rpltt(0, 8));
	ck_assert_uint_eq(nns_gfd_alloc_pltt(g, 32, false, 0), rpltt(0x10, 32));
	t.n = 0;
	t.s[0] = 0;
	nns_lnk_pltt_dump(g, to_buf, &t);
	ck_assert_str_eq(t.s,
		"linked-list palette VRAM manager\n"
		"free blocks:\n"
		"  address  size\n"
		"  0x00008  0x00008\n"
		"  0x00030  0x17fd0\n"
		"used 0x00028 of 0x18000 bytes reserved (  0.0%)\n");

	ck_assert(nns_lnk_tex_init(g, 0x80000, 0x20000, 8, 8, true));
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 0x28000, false, 0), rtex(0x30000, 0x28000, 0));
	t.n = 0;
	nns_lnk_tex_dump(g, to_buf, &t);
	ck_assert_str_eq(t.s,
		"linked-list texture VRAM manager\n"
		"free blocks, normal textures:\n"
		"  address  size\n"
		"  0x58000  0x28000\n"
		"free blocks, 4x4 textures:\n"
		"  address  size\n"
		"  0x00000  0x20000\n"
		"used 0x38000 of 0x80000 bytes reserved ( 43.7%)\n");

	ck_assert(nns_frm_tex_init(g, 2, true));
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 0x8000, true, 0), rtex(0, 0x8000, 1));
	ck_assert_uint_eq(nns_gfd_alloc_tex(g, 0x4000, false, 0), rtex(0x3C000, 0x4000, 0));
	t.n = 0;
	nns_frm_tex_dump(g, to_buf, &t);
	ck_assert_str_eq(t.s,
		"frame texture VRAM manager: numSlot 2\n"
		"region  head     tail     free     used\n"
		"  0  0x08000  0x20000  0x18000   25.0%\n"
		"  1  0x24000  0x30000  0x0c000   25.0%\n"
		"  2  0x30000  0x3c000  0x0c000   25.0%\n"
		"used 0x10000 of 0x40000 bytes reserved ( 25.0%)\n");

	ck_assert(nns_frm_pltt_init(g, 0x10000, true));
	ck_assert_uint_eq(nns_gfd_alloc_pltt(g, 32, false, 1), rpltt(0, 32));
	t.n = 0;
	nns_frm_pltt_dump(g, to_buf, &t);
	ck_assert_str_eq(t.s,
		"frame palette VRAM manager: lo 0x00020  hi 0x10000  free 0x0ffe0\n"
		"used 0x00020 of 0x10000 bytes reserved (  0.0%)\n");
}
END_TEST

/* ======================================================================
 * Long random sequences against the model
 * ====================================================================== */

static uint32_t rand_tex_size(vs_rng *r)
{
	switch (vs_rng_below(r, 20)) {
	case 0: return 0;
	case 1: return 0x7FFE0u + vs_rng_below(r, 64);
	case 2: return vs_rng_next(r);
	case 3: case 4: return 8u << vs_rng_below(r, 15);               /* power-of-two texture sizes */
	case 5: case 6: return vs_rng_below(r, 0x40000);
	case 7: case 8: case 9: return vs_rng_below(r, 0x10000);
	default: return 1 + vs_rng_below(r, 0x2000);
	}
}

static uint32_t rand_pltt_size(vs_rng *r)
{
	switch (vs_rng_below(r, 20)) {
	case 0: return 0;
	case 1: return 0x7FFF0u + vs_rng_below(r, 16);
	case 2: return vs_rng_below(r, 0x18000);
	case 3: case 4: return vs_rng_below(r, 0x2000);
	case 5: case 6: case 7: return 8;
	default: return 1 + vs_rng_below(r, 0x200);
	}
}

typedef struct live { uint32_t k[4096]; int n; } live;

static void live_add(live *l, uint32_t k)
{
	if (k && l->n < 4096)
		l->k[l->n++] = k;
}

/* A live key (removed), a stale one, or 0. */
static uint32_t live_pick(live *l, vs_rng *r, uint32_t *stale)
{
	uint32_t i, k;

	if (l->n == 0 || vs_rng_below(r, 50) == 0)
		return vs_rng_below(r, 2) ? *stale : 0;
	i = vs_rng_below(r, (uint32_t)l->n);
	k = l->k[i];
	l->k[i] = l->k[--l->n];
	*stale = k;
	return k;
}

START_TEST(random_frm_tex)
{
	static ctx_store s;
	static rmodel m;
	nns_gfd_ctx *g = fresh(&s);
	nns_frm_tex_state saved[4];
	uint32_t msaved[4][10];
	vs_rng r = { 0x1000u + (uint64_t)_i };
	int step, i;

	memset(saved, 0, sizeof saved);
	memset(msaved, 0, sizeof msaved);
	memset(&m, 0, sizeof m);
	for (step = 0; step < 30000; step++) {
		uint32_t op = vs_rng_below(&r, 100);
		if (step == 0 || op == 0) {
			int ns = (int)vs_rng_below(&r, 6);
			bool ok = nns_frm_tex_init(g, (uint16_t)ns, true);
			QEQ(ok, ns >= 1 && ns <= 4);
			if (ok) {
				m.nslot = ns;
				rfrm_tex_reset(&m);
				m.tex_mgr = 1;
			}
		} else if (op < 70) {
			uint32_t sz = rand_tex_size(&r);
			int c4 = vs_rng_below(&r, 3) == 0;
			uint32_t want = m.tex_mgr ? rfrm_tex_alloc(&m, sz, c4) : 0;
			uint32_t got = nns_gfd_alloc_tex(g, sz, c4, vs_rng_next(&r));
			if (got != want)
				ck_abort_msg("step %d: alloc %u%s gave 0x%08x, model 0x%08x", step, sz, c4 ? " 4x4" : "",
					got, want);
		} else if (op < 80) {
			QEQ(nns_gfd_free_tex(g, vs_rng_next(&r)), m.tex_mgr ? 0 : -1);
		} else if (op < 88) {
			i = (int)vs_rng_below(&r, 4);
			nns_frm_tex_get_state(g, &saved[i]);
			memcpy(msaved[i], m.head, sizeof m.head);
			memcpy(msaved[i] + 5, m.tail, sizeof m.tail);
		} else if (op < 96) {
			i = (int)vs_rng_below(&r, 4);
			nns_frm_tex_set_state(g, &saved[i]);
			memcpy(m.head, msaved[i], sizeof m.head);
			memcpy(m.tail, msaved[i] + 5, sizeof m.tail);
		} else {
			nns_frm_tex_reset(g);
			rfrm_tex_reset(&m);
		}
		expect_frm_tex(g, &m, step);
	}
}
END_TEST

START_TEST(random_frm_pltt)
{
	static ctx_store s;
	static rmodel m;
	nns_gfd_ctx *g = fresh(&s);
	nns_frm_pltt_state saved[4], st;
	uint32_t mlo[4] = { 0 }, mhi[4] = { 0 };
	vs_rng r = { 0x2000u + (uint64_t)_i };
	int step, i;

	memset(saved, 0, sizeof saved);
	memset(&m, 0, sizeof m);
	for (step = 0; step < 30000; step++) {
		uint32_t op = vs_rng_below(&r, 100);
		if (step == 0 || op == 0) {
			uint32_t sz = vs_rng_below(&r, 4) ? vs_rng_below(&r, 0x18001) & ~7u : vs_rng_below(&r, 0x18010);
			bool ok = nns_frm_pltt_init(g, sz, true);
			QEQ(ok, sz <= 0x18000);
			if (ok) {
				m.psize = sz;
				m.plo = 0;
				m.phi = sz;
				m.pltt_mgr = 1;
			}
		} else if (op < 70) {
			uint32_t sz = rand_pltt_size(&r), opt = vs_rng_below(&r, 8) ? vs_rng_below(&r, 2) : vs_rng_next(&r);
			int four = vs_rng_below(&r, 3) == 0;
			uint32_t want = m.pltt_mgr ? rfrm_pltt_alloc(&m, sz, four, opt) : 0;
			uint32_t got = nns_gfd_alloc_pltt(g, sz, four, opt);
			if (got != want)
				ck_abort_msg("step %d: alloc %u%s opt %u gave 0x%08x, model 0x%08x", step, sz,
					four ? " 4c" : "", opt, got, want);
		} else if (op < 80) {
			QEQ(nns_gfd_free_pltt(g, vs_rng_next(&r)), m.pltt_mgr ? 0 : -1);
		} else if (op < 88) {
			i = (int)vs_rng_below(&r, 4);
			nns_frm_pltt_get_state(g, &saved[i]);
			mlo[i] = m.plo;
			mhi[i] = m.phi;
		} else if (op < 96) {
			i = (int)vs_rng_below(&r, 4);
			nns_frm_pltt_set_state(g, &saved[i]);
			m.plo = mlo[i];
			m.phi = mhi[i];
		} else {
			nns_frm_pltt_reset(g);
			m.plo = 0;
			m.phi = m.psize;
		}
		nns_frm_pltt_get_state(g, &st);
		if (st.lo != m.plo || st.hi != m.phi)
			ck_abort_msg("step %d: lo/hi 0x%x/0x%x, model 0x%x/0x%x", step, st.lo, st.hi, m.plo, m.phi);
	}
}
END_TEST

static void rand_lnk_tex_params(vs_rng *r, uint32_t *sz, uint32_t *s4)
{
	switch (vs_rng_below(r, 6)) {
	case 0: *s4 = 0; *sz = 0x80000; break;
	case 1: *s4 = 0x20000; *sz = 0x80000; break;
	case 2: *s4 = vs_rng_below(r, 0x40001) & ~15u; *sz = 0x80000; break;
	case 3: *s4 = vs_rng_below(r, 0x20001) & ~15u; *sz = 0x20000 + *s4 / 2 + (vs_rng_below(r, 0x30000) & ~15u); break;
	case 4: *s4 = vs_rng_below(r, 0x40001) & ~15u; *sz = *s4 + 0x20000 + (vs_rng_below(r, 0x20000) & ~15u); break;
	default: *s4 = vs_rng_below(r, 0x48000); *sz = vs_rng_below(r, 0x90000); break;
	}
}

START_TEST(random_lnk_tex)
{
	static ctx_store s;
	static rmodel m;
	static live lv;
	nns_gfd_ctx *g = fresh(&s);
	vs_rng r = { 0x3000u + (uint64_t)_i };
	uint32_t stale = 0;
	int step, nblk = 0;

	memset(&m, 0, sizeof m);
	lv.n = 0;
	for (step = 0; step < 40000; step++) {
		uint32_t op = vs_rng_below(&r, 1000);
		if (step == 0 || op < 2) {
			uint32_t sz, s4;
			int nb = vs_rng_below(&r, 3) ? 1 + (int)vs_rng_below(&r, 12) : (int)vs_rng_below(&r, NBLK + 1);
			int first = (int)vs_rng_below(&r, (uint32_t)(NBLK - nb + 1));
			bool ok;
			rand_lnk_tex_params(&r, &sz, &s4);
			ok = nns_lnk_tex_init(g, sz, s4, (uint16_t)first, (uint16_t)nb, true);
			QEQ(ok, rlnk_tex_valid(sz, s4));
			if (ok) {
				m.tsize = sz;
				m.t4size = s4;
				nblk = nb;
				rlnk_tex_reset(&m, nblk);
				m.tex_mgr = 2;
				lv.n = 0;
			}
		} else if (op < 550) {
			uint32_t sz = rand_tex_size(&r);
			int c4 = vs_rng_below(&r, 3) == 0;
			uint32_t want = m.tex_mgr ? rlnk_tex_alloc(&m, sz, c4) : 0;
			uint32_t got = nns_gfd_alloc_tex(g, sz, c4, vs_rng_next(&r));
			if (got != want)
				ck_abort_msg("step %d: alloc %u%s gave 0x%08x, model 0x%08x", step, sz, c4 ? " 4x4" : "",
					got, want);
			live_add(&lv, got);
		} else if (op < 995) {
			uint32_t k = live_pick(&lv, &r, &stale);
			int want = rlnk_tex_free(&m, k), got = nns_gfd_free_tex(g, k);
			if (got != want)
				ck_abort_msg("step %d: free 0x%08x gave %d, model %d", step, k, got, want);
		} else {
			nns_lnk_tex_reset(g);
			rlnk_tex_reset(&m, nblk);
			lv.n = 0;
		}
		expect_lnk_tex(g, &m, step);
	}
}
END_TEST

START_TEST(random_lnk_pltt)
{
	static ctx_store s;
	static rmodel m;
	static live lv;
	nns_gfd_ctx *g = fresh(&s);
	vs_rng r = { 0x4000u + (uint64_t)_i };
	uint32_t stale = 0;
	int step, nblk = 0;

	memset(&m, 0, sizeof m);
	lv.n = 0;
	for (step = 0; step < 40000; step++) {
		uint32_t op = vs_rng_below(&r, 1000);
		if (step == 0 || op < 2) {
			uint32_t sz = vs_rng_below(&r, 4) ? vs_rng_below(&r, 0x18001) & ~15u : vs_rng_below(&r, 0x18010);
			int nb = vs_rng_below(&r, 3) ? 1 + (int)vs_rng_below(&r, 12) : (int)vs_rng_below(&r, NBLK + 1);
			int first = (int)vs_rng_below(&r, (uint32_t)(NBLK - nb + 1));
			bool ok = nns_lnk_pltt_init(g, sz, (uint16_t)first, (uint16_t)nb, true);
			QEQ(ok, sz <= 0x18000);
			if (ok) {
				m.lpsize = sz;
				nblk = nb;
				rlnk_pltt_reset(&m, nblk);
				m.pltt_mgr = 2;
				lv.n = 0;
			}
		} else if (op < 550) {
			uint32_t sz = rand_pltt_size(&r);
			int four = vs_rng_below(&r, 3) == 0;
			uint32_t want = m.pltt_mgr ? rlnk_pltt_alloc(&m, sz, four) : 0;
			uint32_t got = nns_gfd_alloc_pltt(g, sz, four, vs_rng_next(&r));
			if (got != want)
				ck_abort_msg("step %d: alloc %u%s gave 0x%08x, model 0x%08x", step, sz, four ? " 4c" : "",
					got, want);
			live_add(&lv, got);
		} else if (op < 995) {
			uint32_t k = live_pick(&lv, &r, &stale);
			int want = rlnk_pltt_free(&m, k), got = nns_gfd_free_pltt(g, k);
			if (got != want)
				ck_abort_msg("step %d: free 0x%08x gave %d, model %d", step, k, got, want);
		} else {
			nns_lnk_pltt_reset(g);
			rlnk_pltt_reset(&m, nblk);
			lv.n = 0;
		}
		expect_lnk_pltt(g, &m, step);
	}
}
END_TEST

/* The entry points follow whichever manager was installed last, and a
 * manager keeps its state while another is installed. */
START_TEST(random_dispatch)
{
	static ctx_store s;
	static rmodel m;
	nns_gfd_ctx *g = fresh(&s);
	vs_rng r = { 0x5000u + (uint64_t)_i };
	int step;

	memset(&m, 0, sizeof m);
	QOK(nns_frm_tex_init(g, 4, false));
	m.nslot = 4;
	rfrm_tex_reset(&m);
	QOK(nns_lnk_tex_init(g, 0x80000, 0x20000, 0, 64, false));
	m.tsize = 0x80000;
	m.t4size = 0x20000;
	rlnk_tex_reset(&m, 64);
	QOK(nns_frm_pltt_init(g, 0x18000, false));
	m.psize = 0x18000;
	m.phi = 0x18000;
	QOK(nns_lnk_pltt_init(g, 0x18000, 64, 64, false));
	m.lpsize = 0x18000;
	rlnk_pltt_reset(&m, 64);
	for (step = 0; step < 20000; step++) {
		uint32_t op = vs_rng_below(&r, 100), sz, want = 0, got, k;
		int flag = vs_rng_below(&r, 4) == 0;
		if (op < 3) {
			m.tex_mgr = (int)vs_rng_below(&r, 3);
			nns_gfd_set_tex_mgr(g, (enum nns_gfd_mgr)m.tex_mgr);
		} else if (op < 6) {
			m.pltt_mgr = (int)vs_rng_below(&r, 3);
			nns_gfd_set_pltt_mgr(g, (enum nns_gfd_mgr)m.pltt_mgr);
		} else if (op < 50) {
			sz = rand_tex_size(&r);
			if (m.tex_mgr == 1)
				want = rfrm_tex_alloc(&m, sz, flag);
			else if (m.tex_mgr == 2)
				want = rlnk_tex_alloc(&m, sz, flag);
			got = nns_gfd_alloc_tex(g, sz, flag, 0);
			QEQ(got, want);
			if (got && m.tex_mgr == 2 && vs_rng_below(&r, 2)) {
				QEQ(nns_gfd_free_tex(g, got), rlnk_tex_free(&m, got));
			}
		} else if (op < 95) {
			uint32_t opt = vs_rng_below(&r, 2);
			sz = rand_pltt_size(&r);
			if (m.pltt_mgr == 1)
				want = rfrm_pltt_alloc(&m, sz, flag, opt);
			else if (m.pltt_mgr == 2)
				want = rlnk_pltt_alloc(&m, sz, flag);
			got = nns_gfd_alloc_pltt(g, sz, flag, opt);
			QEQ(got, want);
			if (got && m.pltt_mgr == 2 && vs_rng_below(&r, 2)) {
				QEQ(nns_gfd_free_pltt(g, got), rlnk_pltt_free(&m, got));
			}
		} else {
			k = vs_rng_next(&r) | 0x10000u;
			QEQ(nns_gfd_free_tex(g, k & 0x8000FFFFu),
				m.tex_mgr == 0 ? -1 : m.tex_mgr == 1 ? 0 : 2);
			if (m.pltt_mgr != 2)
				QEQ(nns_gfd_free_pltt(g, k), m.pltt_mgr == 0 ? -1 : 0);
		}
		if (op % 10 == 0) {
			nns_frm_tex_reset(g);
			rfrm_tex_reset(&m);
			nns_frm_pltt_reset(g);
			m.plo = 0;
			m.phi = m.psize;
		}
		expect_frm_tex(g, &m, step);
		expect_lnk_tex(g, &m, step);
		expect_lnk_pltt(g, &m, step);
	}
}
END_TEST

/* A memcpy of the ctx is a snapshot: the copy goes on exactly as the original. */
START_TEST(snapshot_by_memcpy)
{
	static ctx_store a, b;
	nns_gfd_ctx *g = fresh(&a);
	vs_rng r = { 77 };
	int i;

	ck_assert(nns_lnk_tex_init(g, 0x80000, 0x20000, 0, 32, true));
	ck_assert(nns_lnk_pltt_init(g, 0x18000, 32, 32, true));
	for (i = 0; i < 200; i++) {
		uint32_t k = nns_gfd_alloc_tex(g, rand_tex_size(&r) & 0xFFFF, vs_rng_below(&r, 2), 0);
		if (vs_rng_below(&r, 2))
			nns_gfd_free_tex(g, k);
		nns_gfd_alloc_pltt(g, rand_pltt_size(&r) & 0xFFF, vs_rng_below(&r, 2), 0);
	}
	memcpy(&b, &a, sizeof a);
	memset(&a, 0, sizeof a);
	memcpy(&a, &b, sizeof a);
	for (i = 0; i < 2000; i++) {
		uint32_t sz = rand_tex_size(&r) & 0xFFFF;
		int c4 = vs_rng_below(&r, 2);
		uint32_t k1 = nns_gfd_alloc_tex(&a.g, sz, c4, 0), k2 = nns_gfd_alloc_tex(&b.g, sz, c4, 0);
		ck_assert_uint_eq(k1, k2);
		if (vs_rng_below(&r, 2))
			ck_assert_int_eq(nns_gfd_free_tex(&a.g, k1), nns_gfd_free_tex(&b.g, k2));
		sz = rand_pltt_size(&r) & 0xFFF;
		c4 = vs_rng_below(&r, 2);
		k1 = nns_gfd_alloc_pltt(&a.g, sz, c4, 0);
		k2 = nns_gfd_alloc_pltt(&b.g, sz, c4, 0);
		ck_assert_uint_eq(k1, k2);
		if (vs_rng_below(&r, 2))
			ck_assert_int_eq(nns_gfd_free_pltt(&a.g, k1), nns_gfd_free_pltt(&b.g, k2));
	}
	ck_assert_mem_eq(&a, &b, sizeof a);
}
END_TEST

static Suite *nns_gfd_suite(void)
{
	Suite *s = suite_create("nns_gfd");
	TCase *hand = tcase_create("hand"), *rnd = tcase_create("random");

	tcase_add_test(hand, defaults_before_install);
	tcase_add_test(hand, keys_and_rounding);
	tcase_add_test(hand, frm_tex_worked_example);
	tcase_add_test(hand, frm_tex_slots_and_orders);
	tcase_add_test(hand, frm_tex_4x4);
	tcase_add_test(hand, frm_tex_state);
	tcase_add_test(hand, frm_pltt_rules);
	tcase_add_test(hand, lnk_tex_layouts);
	tcase_add_test(hand, lnk_tex_first_fit_and_merge);
	tcase_add_test(hand, lnk_tex_merge_both_sides);
	tcase_add_test(hand, lnk_tex_pool_exhaustion);
	tcase_add_test(hand, lnk_tex_4x4_list);
	tcase_add_test(hand, lnk_pltt_rules);
	tcase_add_test(hand, dumps);
	tcase_add_loop_test(rnd, random_frm_tex, 0, 4);
	tcase_add_loop_test(rnd, random_frm_pltt, 0, 4);
	tcase_add_loop_test(rnd, random_lnk_tex, 0, 6);
	tcase_add_loop_test(rnd, random_lnk_pltt, 0, 6);
	tcase_add_loop_test(rnd, random_dispatch, 0, 3);
	tcase_add_test(rnd, snapshot_by_memcpy);
	tcase_set_timeout(rnd, 120);
	suite_add_tcase(s, hand);
	suite_add_tcase(s, rnd);
	return s;
}

int main(void)
{
	return vs_test_main(nns_gfd_suite());
}
