/* SPDX-License-Identifier: Zlib */
/* test_ds_sprite_libs.c - libnds's oamAllocateGfx heap and NightFox's Lib's
 * sprite VRAM allocators: each rule and defect on hand-made sequences with
 * the addresses the library code gives (worked by hand from its source),
 * long random sequences against plain reference models, and the three
 * strategy tables, moves included. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "strategies/registry.h"
#include "vramsim/alloc/libnds_sprite.h"
#include "vramsim/alloc/nflib_sprite.h"

/* pixels of the SpriteSizes used below */
#define P8x8 64u
#define P16x16 256u
#define P32x32 1024u
#define P64x64 4096u

static libnds_sprite o; /* 8 KiB: off the stack */

/* ---- libnds: sizes, alignment, the list ------------------------------- */

START_TEST(libnds_units)
{
	libnds_sprite_init(&o, LIBNDS_MAP_1D_128, 0);
	ck_assert_uint_eq(o.step, 7);
	ck_assert_uint_eq(libnds_sprite_units(&o, P8x8, LIBNDS_COLOR_16), 1);    /* 32 B: at least one unit */
	ck_assert_uint_eq(libnds_sprite_units(&o, P32x32, LIBNDS_COLOR_256), 8);
	ck_assert_uint_eq(libnds_sprite_units(&o, P64x64, LIBNDS_COLOR_BMP), 64);
	libnds_sprite_init(&o, LIBNDS_MAP_1D_32, 0);
	ck_assert_uint_eq(libnds_sprite_units(&o, P64x64, LIBNDS_COLOR_BMP), 256);
	libnds_sprite_init(&o, LIBNDS_MAP_2D, 0);
	ck_assert_uint_eq(o.step, 5);
	libnds_sprite_init(&o, LIBNDS_MAP_BMP_2D_256, 0);
	ck_assert_uint_eq(o.step, 8);
	libnds_sprite_init(&o, LIBNDS_MAP_1D_64, 0);
	ck_assert_uint_eq(o.step, 6);
}
END_TEST

/* The sequence of the worked example in docs/ds-homebrew.md
 * under 1D_128: misaligned heads split off, merges on both sides. */
START_TEST(libnds_hand_1d128)
{
	libnds_sprite_init(&o, LIBNDS_MAP_1D_128, 0);
	ck_assert_int_eq(libnds_sprite_count_fragments(&o), 0); /* no buffer yet */
	ck_assert_int_eq(libnds_sprite_alloc(&o, P8x8, LIBNDS_COLOR_16), 0);
	ck_assert_int_eq(libnds_sprite_alloc(&o, P32x32, LIBNDS_COLOR_256), 8); /* 8 units at a multiple of 8 */
	ck_assert_int_eq(libnds_sprite_alloc(&o, P16x16, LIBNDS_COLOR_16), 1);  /* the head [1, 8) */
	ck_assert_int_eq(libnds_sprite_count_fragments(&o), 3);                 /* 2 free blocks, counted 3 */
	ck_assert_int_eq(libnds_sprite_free(&o, 0), 0);
	ck_assert_int_eq(libnds_sprite_alloc(&o, P64x64, LIBNDS_COLOR_256), 32);
	ck_assert_int_eq(libnds_sprite_free(&o, 8 * 128), 0);
	ck_assert_int_eq(libnds_sprite_free(&o, 1 * 128), 0);
	ck_assert_int_eq(o.first_free, 0);
	ck_assert_uint_eq(o.hdr[0].size, 32);
	ck_assert_uint_eq(o.hdr[0].next_free, 64);
	ck_assert_int_eq(libnds_sprite_alloc(&o, P16x16, LIBNDS_COLOR_256), 0);
	ck_assert_int_eq(o.first_free, 2);
	ck_assert_uint_eq(o.buf_size, 128); /* index 64 reached: 32 -> 64 -> 128 */
	ck_assert_uint_eq(o.oob, 1); /* oamCountFragments read allocBuffer[1024] */
	ck_assert_uint_eq(o.oob_max, 1024);
	libnds_sprite_reset(&o);
	ck_assert_int_eq(libnds_sprite_alloc(&o, P8x8, LIBNDS_COLOR_256), 0);
	ck_assert_uint_eq(o.buf_size, 32);
}
END_TEST

/* 1D_32 and 1D_256: the same requests in other units. */
START_TEST(libnds_hand_units)
{
	libnds_sprite_init(&o, LIBNDS_MAP_1D_32, 0);
	ck_assert_int_eq(libnds_sprite_alloc(&o, P8x8, LIBNDS_COLOR_16), 0);      /* 1 unit */
	ck_assert_int_eq(libnds_sprite_alloc(&o, P16x16, LIBNDS_COLOR_256), 8);   /* 8 units at 8 */
	ck_assert_int_eq(libnds_sprite_alloc(&o, P8x8, LIBNDS_COLOR_256), 2);     /* 2 units at 2 */
	ck_assert_int_eq(libnds_sprite_alloc(&o, P8x8, LIBNDS_COLOR_16), 1);
	libnds_sprite_init(&o, LIBNDS_MAP_1D_256, 0);
	ck_assert_int_eq(libnds_sprite_alloc(&o, P8x8, LIBNDS_COLOR_16), 0);      /* 256 B for 32 */
	ck_assert_int_eq(libnds_sprite_alloc(&o, P32x32, LIBNDS_COLOR_256), 4);   /* 4 units at 4 */
	ck_assert_int_eq(libnds_sprite_alloc(&o, P16x16, LIBNDS_COLOR_256), 1);
	ck_assert_int_eq(libnds_sprite_alloc(&o, P32x32, LIBNDS_COLOR_16), 2);    /* 2 units at 2 */
	ck_assert_int_eq(libnds_sprite_alloc(&o, P8x8, LIBNDS_COLOR_256), 8);
	/* 1024 units of 256 bytes: offsets past the 128 KiB engine B has */
	libnds_sprite_init(&o, LIBNDS_MAP_1D_256, 0);
	{
		int i;
		for (i = 0; i < 15; i++)
			ck_assert_int_eq(libnds_sprite_alloc(&o, P64x64, LIBNDS_COLOR_BMP), i * 32);
		ck_assert_int_eq((int32_t)(15 * 32) << 8, 0x1E000);
		ck_assert_int_eq(libnds_sprite_alloc(&o, P64x64, LIBNDS_COLOR_BMP), 15 * 32);
		ck_assert_int_eq(libnds_sprite_alloc(&o, P64x64, LIBNDS_COLOR_BMP), 16 * 32); /* 0x20000: engine B ends */
	}
}
END_TEST

START_TEST(libnds_exhaust)
{
	int i;

	libnds_sprite_init(&o, LIBNDS_MAP_1D_128, 0);
	for (i = 0; i < 16; i++)
		ck_assert_int_eq(libnds_sprite_alloc(&o, P64x64, LIBNDS_COLOR_BMP), i * 64);
	ck_assert_int_eq(o.first_free, 1024);            /* last block used whole: nextFree 1024 */
	ck_assert_int_eq(libnds_sprite_alloc(&o, P8x8, LIBNDS_COLOR_16), -1);
	ck_assert_int_eq(o.first_free, -1);
	ck_assert_int_eq(libnds_sprite_count_fragments(&o), 1); /* reads the word before the buffer */
	ck_assert_int_eq(libnds_sprite_free(&o, 5 * 64 * 128), 0);
	ck_assert_int_eq(o.first_free, 320);
	ck_assert_int_eq(libnds_sprite_alloc(&o, P16x16, LIBNDS_COLOR_256), 320);
	/* a request bigger than every free block fails, the list untouched */
	ck_assert_int_eq(libnds_sprite_alloc(&o, P64x64, LIBNDS_COLOR_BMP), -1);
	ck_assert_int_eq(o.first_free, 322);
}
END_TEST

/* allocBuffer: one doubling per access; index 128 from a 32-entry buffer
 * is written one entry past the 64-entry buffer it grew to. */
START_TEST(libnds_header_growth)
{
	libnds_sprite_init(&o, LIBNDS_MAP_1D_32, 0);
	/* 128 units: header 128 written from a 32-entry buffer grown to 64,
	 * then from one grown to 128: past the end both times */
	ck_assert_int_eq(libnds_sprite_alloc(&o, P64x64, LIBNDS_COLOR_256), 0);
	ck_assert_uint_eq(o.oob, 2);
	ck_assert_uint_eq(o.oob_max, 128);
	ck_assert_int_eq(o.buf_size, 128);
	ck_assert_int_eq(libnds_sprite_alloc(&o, P64x64, LIBNDS_COLOR_BMP), 256); /* 256 units at 256 */
	ck_assert_uint_eq(o.oob, 2); /* 256 and 512 each come when the buffer has reached half of them */
	ck_assert_int_eq(o.buf_size, 1024);
	/* fixed: the same placements, no access past the buffer */
	libnds_sprite_init(&o, LIBNDS_MAP_1D_32, LIBNDS_SPRITE_FIX_GROW);
	ck_assert_int_eq(libnds_sprite_alloc(&o, P64x64, LIBNDS_COLOR_256), 0);
	ck_assert_int_eq(libnds_sprite_alloc(&o, P64x64, LIBNDS_COLOR_BMP), 256);
	ck_assert_uint_eq(o.oob, 0);
	ck_assert_int_eq(o.buf_size, 1024);
}
END_TEST

/* oamGfxPtrToOffset in the 2D mappings: the bitmap tile formula. */
START_TEST(libnds_2d_formula)
{
	libnds_sprite_init(&o, LIBNDS_MAP_2D, 0);
	ck_assert_uint_eq(libnds_sprite_ptr_to_index(&o, 0), 0);
	ck_assert_uint_eq(libnds_sprite_ptr_to_index(&o, 1 * 32), 2);
	ck_assert_uint_eq(libnds_sprite_ptr_to_index(&o, 8 * 32), 0);
	ck_assert_uint_eq(libnds_sprite_ptr_to_index(&o, 64 * 32), 16);
	libnds_sprite_init(&o, LIBNDS_MAP_BMP_2D_128, 0);
	ck_assert_uint_eq(libnds_sprite_ptr_to_index(&o, 1 * 128), 8);
	ck_assert_uint_eq(libnds_sprite_ptr_to_index(&o, 16 * 128), 16);
	libnds_sprite_init(&o, LIBNDS_MAP_BMP_2D_256, 0);
	ck_assert_uint_eq(libnds_sprite_ptr_to_index(&o, 1 * 256), 16);
	ck_assert_uint_eq(libnds_sprite_ptr_to_index(&o, 1023u * 256), 2032);
	libnds_sprite_init(&o, LIBNDS_MAP_BMP_1D_256, 0);
	ck_assert_uint_eq(libnds_sprite_ptr_to_index(&o, 1023u * 256), 1023);
}
END_TEST

/* The 2D free defect: freeing tile 1 frees index 2, a live block, which the
 * next allocation hands out again; fixed frees index 1. */
START_TEST(libnds_2d_free)
{
	int i;

	for (i = 0; i < 2; i++) {
		libnds_sprite_init(&o, LIBNDS_MAP_2D, i ? LIBNDS_SPRITE_FIX_FREE : 0);
		ck_assert_int_eq(libnds_sprite_alloc(&o, P8x8, LIBNDS_COLOR_16), 0);
		ck_assert_int_eq(libnds_sprite_alloc(&o, P8x8, LIBNDS_COLOR_16), 1);
		ck_assert_int_eq(libnds_sprite_alloc(&o, P8x8, LIBNDS_COLOR_16), 2);
		ck_assert_int_eq(libnds_sprite_alloc(&o, P8x8, LIBNDS_COLOR_16), 3);
		ck_assert_int_eq(libnds_sprite_free(&o, 1 * 32), 0);
		ck_assert_uint_eq(o.frees_moved, i ? 0 : 1);
		ck_assert_int_eq(libnds_sprite_alloc(&o, P8x8, LIBNDS_COLOR_16), i ? 1 : 2);
	}
	/* Bmp_2D_256: the last unit's pointer converts to index 2032, past the
	 * heap: firstFree past 1024, and the next allocation finds nothing */
	libnds_sprite_init(&o, LIBNDS_MAP_BMP_2D_256, 0);
	for (i = 0; i < 1024; i++)
		ck_assert_int_eq(libnds_sprite_alloc(&o, P8x8, LIBNDS_COLOR_16), i);
	ck_assert_int_eq(libnds_sprite_alloc(&o, P8x8, LIBNDS_COLOR_16), -1);
	ck_assert_int_eq(libnds_sprite_free(&o, 1023u * 256), 0);
	ck_assert_int_eq(o.first_free, 2032);
	ck_assert_int_eq(libnds_sprite_alloc(&o, P8x8, LIBNDS_COLOR_16), -1);
}
END_TEST

/* Random frees in 2D corrupt the list; the model must stop a walk that
 * would not end and stay within its struct whatever happens. */
START_TEST(libnds_2d_random)
{
	static const unsigned maps[3] = { LIBNDS_MAP_2D, LIBNDS_MAP_BMP_2D_128, LIBNDS_MAP_BMP_2D_256 };
	vs_rng r = { 0x5D2000u + (uint64_t)_i };
	int32_t live[64];
	int n = 0, step, hung = 0;

	libnds_sprite_init(&o, maps[_i % 3], 0);
	for (step = 0; step < 3000 && !o.hung; step++) {
		if (n < 64 && (n == 0 || vs_rng_below(&r, 2))) {
			int32_t idx = libnds_sprite_alloc(&o, P8x8 << vs_rng_below(&r, 7), LIBNDS_COLOR_16);
			if (idx >= 0) {
				HOT_ASSERT(idx < 2048, "index %d", (int)idx);
				live[n++] = idx;
			}
		} else {
			int k = (int)vs_rng_below(&r, (uint32_t)n);
			(void)libnds_sprite_free(&o, (uint32_t)live[k] << o.step);
			live[k] = live[--n];
		}
		(void)libnds_sprite_count_fragments(&o);
	}
	hung = o.hung;
	ck_assert(hung || step == 3000);
	if (hung)
		ck_assert_int_eq(libnds_sprite_alloc(&o, P8x8, LIBNDS_COLOR_16), -1);
}
END_TEST

/* ---- libnds against a unit array: lowest multiple of n with n free ---- */

static int ref_place(uint8_t *used, uint32_t n)
{
	uint32_t off, i;

	for (off = 0; off + n <= LIBNDS_SPRITE_UNITS; off += n) {
		for (i = 0; i < n && !used[off + i]; i++)
			;
		if (i == n) {
			for (i = 0; i < n; i++)
				used[off + i] = 1;
			return (int)off;
		}
	}
	return -1;
}

START_TEST(libnds_random_reference)
{
	static const unsigned maps[6] = {
		LIBNDS_MAP_1D_32, LIBNDS_MAP_1D_64, LIBNDS_MAP_1D_128, LIBNDS_MAP_1D_256, LIBNDS_MAP_2D,
		LIBNDS_MAP_BMP_1D_128
	};
	vs_rng r = { 0x5D1000u + (uint64_t)_i };
	uint8_t used[LIBNDS_SPRITE_UNITS];
	struct { int32_t idx; uint32_t n; } live[512];
	unsigned steps = vs_test_soak(20000, 200000), step, fails = 0, nlive = 0;

	memset(used, 0, sizeof used);
	/* 2D only with the fixed free: the library's own 2D frees are not a heap */
	libnds_sprite_init(&o, maps[_i % 6], maps[_i % 6] == LIBNDS_MAP_2D ? LIBNDS_SPRITE_FIX_FREE : 0);
	for (step = 0; step < steps; step++) {
		if (nlive < 512 && (nlive == 0 || vs_rng_below(&r, 100) < 55)) {
			uint32_t pixels = P8x8 << (2 * vs_rng_below(&r, 4)) >> vs_rng_below(&r, 2), n;
			unsigned fmt = vs_rng_below(&r, 3);
			int32_t got;
			int want;
			fmt = fmt == 2 ? LIBNDS_COLOR_BMP : fmt;
			n = libnds_sprite_units(&o, pixels, fmt);
			got = libnds_sprite_alloc(&o, pixels, fmt);
			want = ref_place(used, n);
			HOT_CMP(got, ==, want);
			if (got < 0) {
				fails++;
				continue;
			}
			live[nlive].idx = got;
			live[nlive++].n = n;
		} else {
			unsigned k = vs_rng_below(&r, nlive), i;
			HOT_CMP(libnds_sprite_free(&o, (uint32_t)live[k].idx << o.step), ==, 0);
			for (i = 0; i < live[k].n; i++)
				used[live[k].idx + (int32_t)i] = 0;
			live[k] = live[--nlive];
		}
		if (step % 64 == 0) {
			/* the free list is the free units, as maximal runs */
			int i = o.first_free, nb = 0;
			uint32_t free_units = 0, u;
			for (u = 0; u < LIBNDS_SPRITE_UNITS; u++)
				free_units += !used[u];
			while (i >= 0 && i < 1024) {
				HOT_ASSERT(!used[i] && (i == 0 || used[i - 1]), "block %d", i);
				free_units -= o.hdr[i].size;
				i = o.hdr[i].next_free;
				nb++;
			}
			HOT_CMP(free_units, ==, 0);
			HOT_CMP(libnds_sprite_count_fragments(&o), ==, nb >= 2 ? nb + 1 : nb);
		}
	}
	ck_assert_uint_gt(fails, 0);
	ck_assert(!o.hung);
}
END_TEST

/* ---- NightFox's Lib ---------------------------------------------------- */

static nflib_sprite nf;

#define A(off) (NFLIB_BASE_MAIN + (off))

START_TEST(nf_hand_2d)
{
	nflib_sprite_init(&nf, NFLIB_BASE_MAIN, 65536, 0);
	ck_assert_int_eq(nflib_sprite_alloc(&nf, 0, 1024), A(0));
	ck_assert_int_eq(nflib_sprite_alloc(&nf, 1, 256), A(1024));
	ck_assert_int_eq(nflib_sprite_alloc(&nf, 2, 2048), A(1280));
	ck_assert_int_eq(nflib_sprite_alloc(&nf, 3, 64), A(3328));
	ck_assert_int_eq(nflib_sprite_alloc(&nf, 1, 64), NFLIB_ERR_ID); /* in use */
	/* free 0 and 2: table [0 +1024, 1280 +2048], no merging */
	ck_assert_int_eq(nflib_sprite_free(&nf, 0), 0);
	ck_assert_int_eq(nflib_sprite_free(&nf, 2), 0);
	ck_assert_int_eq(nflib_sprite_deleted(&nf), 2);
	ck_assert_int_eq(nflib_sprite_fragmented(&nf), 3072);
	/* exact size first, even when a larger block comes before it */
	ck_assert_int_eq(nflib_sprite_alloc(&nf, 0, 2048), A(1280));
	ck_assert_int_eq(nflib_sprite_deleted(&nf), 1);
	/* else the first larger, split: the rest keeps its index */
	ck_assert_int_eq(nflib_sprite_alloc(&nf, 2, 256), A(0));
	ck_assert_uint_eq(nflib_sprite_pos(&nf, 0), A(256));
	ck_assert_uint_eq(nflib_sprite_size(&nf, 0), 768);
	ck_assert_int_eq(nflib_sprite_fragmented(&nf), 768);
	/* else bump */
	ck_assert_int_eq(nflib_sprite_alloc(&nf, 4, 4096), A(3392));
	ck_assert_int_eq(nflib_sprite_inarow(&nf), 65536 - 3392 - 4096);
	ck_assert_int_eq(nflib_sprite_free_bytes(&nf), 65536 - 2048 - 256 - 64 - 256 - 4096);
	/* NF_Error 113: more than is free; the books stay */
	ck_assert_int_eq(nflib_sprite_alloc(&nf, 5, 65536), NFLIB_ERR_SPACE);
	ck_assert_int_eq(nflib_sprite_free_bytes(&nf), 65536 - 2048 - 256 - 64 - 256 - 4096);
	/* and not enough above next, with enough free in all */
	nflib_sprite_init(&nf, NFLIB_BASE_MAIN, 65536, 0);
	ck_assert_int_eq(nflib_sprite_alloc(&nf, 0, 32768), A(0));
	ck_assert_int_eq(nflib_sprite_alloc(&nf, 1, 16384), A(32768));
	ck_assert_int_eq(nflib_sprite_alloc(&nf, 2, 8192), A(49152));
	/* fragmented 16384 >= inarow 8192 / 2: compacts, 2 slides down */
	ck_assert_int_eq(nflib_sprite_free(&nf, 1), 1);
	ck_assert_uint_eq(nf.addr[2], A(32768));
	ck_assert_uint_eq(nflib_sprite_next(&nf), A(40960));
}
END_TEST

/* Compaction at free: fragmented >= inarow / 2, everything packed in id order. */
START_TEST(nf_defrag)
{
	nflib_sprite_init(&nf, NFLIB_BASE_MAIN, 65536, 0);
	ck_assert_int_eq(nflib_sprite_alloc(&nf, 5, 16384), A(0));
	ck_assert_int_eq(nflib_sprite_alloc(&nf, 1, 16384), A(16384));
	ck_assert_int_eq(nflib_sprite_alloc(&nf, 0, 4096), A(32768));
	/* inarow 28672: a 16 KiB hole is >= 14336 */
	ck_assert_int_eq(nflib_sprite_free(&nf, 1), 1);
	ck_assert_uint_eq(nf.defrags, 1);
	ck_assert_uint_eq(nf.addr[0], A(0));    /* id 0 first, though it was highest */
	ck_assert_uint_eq(nf.addr[5], A(4096));
	ck_assert_int_eq(nflib_sprite_deleted(&nf), 0);
	ck_assert_int_eq(nflib_sprite_inarow(&nf), 65536 - 20480);
	ck_assert_uint_eq(nflib_sprite_next(&nf), A(20480));
	/* below the threshold: no compaction */
	ck_assert_int_eq(nflib_sprite_alloc(&nf, 1, 64), A(20480));
	ck_assert_int_eq(nflib_sprite_free(&nf, 1), 0);
	/* the header's rule (fixed): more than half of all free bytes */
	nflib_sprite_init(&nf, NFLIB_BASE_MAIN, 65536, NFLIB_FIX_THRESHOLD);
	ck_assert_int_eq(nflib_sprite_alloc(&nf, 5, 16384), A(0));
	ck_assert_int_eq(nflib_sprite_alloc(&nf, 1, 16384), A(16384));
	ck_assert_int_eq(nflib_sprite_alloc(&nf, 0, 4096), A(32768));
	ck_assert_int_eq(nflib_sprite_free(&nf, 1), 0); /* 16384 of 45056 free */
	/* inarow 0: every free compacts (0 / 2 == 0) */
	nflib_sprite_init(&nf, NFLIB_BASE_SUB, 65536, 0);
	ck_assert_int_eq(nflib_sprite_alloc(&nf, 0, 64), NFLIB_BASE_SUB);
	ck_assert_int_eq(nflib_sprite_alloc(&nf, 1, 65536 - 64), NFLIB_BASE_SUB + 64);
	ck_assert_int_eq(nflib_sprite_free(&nf, 0), 1);
	ck_assert_uint_eq(nf.addr[1], NFLIB_BASE_SUB);
}
END_TEST

/* 3D: the inverted test. Table [A +128, B +64]; 2D takes B for 64 and A
 * for 96; 3D takes A (split) for 64 and bumps for 96. */
START_TEST(nf_3d_inverted)
{
	int k;

	for (k = 0; k < 3; k++) {
		unsigned flags = k == 0 ? 0 : k == 1 ? NFLIB_3D : NFLIB_3D | NFLIB_FIX_REUSE;
		uint32_t base = k ? NFLIB_BASE_3D : NFLIB_BASE_MAIN;
		int64_t a;
		nflib_sprite_init(&nf, base, 131072, flags);
		ck_assert_int_eq(nflib_sprite_alloc(&nf, 0, 128), base);
		ck_assert_int_eq(nflib_sprite_alloc(&nf, 1, 64), base + 128);
		ck_assert_int_eq(nflib_sprite_alloc(&nf, 2, 4096), base + 192);
		ck_assert_int_eq(nflib_sprite_free(&nf, 0), 0);
		ck_assert_int_eq(nflib_sprite_free(&nf, 1), 0);
		a = nflib_sprite_alloc(&nf, 3, 64);
		ck_assert_int_eq(a, k == 1 ? base : base + 128);
		/* 3D: no block of exactly 32, so no search for a larger one: bump */
		a = nflib_sprite_alloc(&nf, 4, 32);
		ck_assert_int_eq(a, k == 1 ? base + 4288 : base);
		a = nflib_sprite_alloc(&nf, 5, 16);
		ck_assert_int_eq(a, k == 1 ? base + 4320 : base + 32);
	}
}
END_TEST

/* 3D: index 255 of the 256-entry table is the "none" sentinel too. */
START_TEST(nf_3d_sentinel)
{
	int k;
	uint32_t i;

	for (k = 0; k < 2; k++) {
		nflib_sprite_init(&nf, NFLIB_BASE_3D, 131072, NFLIB_3D | (k ? NFLIB_FIX_REUSE : 0));
		for (i = 0; i < 255; i++)
			ck_assert_int_eq(nflib_sprite_alloc(&nf, (uint16_t)i, 64), NFLIB_BASE_3D + 64 * i);
		ck_assert_int_eq(nflib_sprite_alloc(&nf, 255, 128), NFLIB_BASE_3D + 64 * 255);
		for (i = 0; i < 256; i++)
			ck_assert_int_eq(nflib_sprite_free(&nf, (uint16_t)i), 0);
		ck_assert_int_eq(nflib_sprite_deleted(&nf), 256);
		ck_assert_uint_eq(nflib_sprite_size(&nf, 255), 128);
		ck_assert_int_eq(nflib_sprite_alloc(&nf, 0, 128), k ? NFLIB_BASE_3D + 64 * 255 : NFLIB_BASE_3D + 64 * 257);
	}
}
END_TEST

/* 2D: the 129th freed block is written over size[0] and deleted. */
START_TEST(nf_table_overflow)
{
	uint32_t i;

	nflib_sprite_init(&nf, NFLIB_BASE_MAIN, 65536, 0);
	for (i = 0; i < 128; i++)
		ck_assert_int_eq(nflib_sprite_alloc(&nf, (uint16_t)i, 64), A(64 * i));
	for (i = 0; i < 128; i++)
		ck_assert_int_eq(nflib_sprite_free(&nf, (uint16_t)i), 0);
	ck_assert_int_eq(nflib_sprite_alloc(&nf, 0, 128), A(8192)); /* no 128 block: bump */
	ck_assert_int_eq(nflib_sprite_free(&nf, 0), 0);
	/* pos[128] is size[0]: the address; size[128] is deleted's word: 128, then ++ */
	ck_assert_uint_eq(nflib_sprite_size(&nf, 0), A(8192));
	ck_assert_int_eq(nflib_sprite_deleted(&nf), 129);
	/* size[0] now beats every request: the first larger block, at pos[0] */
	ck_assert_int_eq(nflib_sprite_alloc(&nf, 0, 192), A(0));
	ck_assert_int_eq(nflib_sprite_alloc(&nf, 1, 192), A(192)); /* over freed blocks 1-3, counted free twice */
	ck_assert(!nf.broken);
	/* fixed: a full table compacts instead */
	nflib_sprite_init(&nf, NFLIB_BASE_MAIN, 65536, NFLIB_FIX_TABLE);
	for (i = 0; i < 128; i++)
		ck_assert_int_eq(nflib_sprite_alloc(&nf, (uint16_t)i, 64), A(64 * i));
	for (i = 0; i < 128; i++)
		ck_assert_int_eq(nflib_sprite_free(&nf, (uint16_t)i), 0);
	ck_assert_int_eq(nflib_sprite_alloc(&nf, 0, 128), A(8192));
	ck_assert_int_eq(nflib_sprite_free(&nf, 0), 1);
	ck_assert_int_eq(nflib_sprite_deleted(&nf), 0);
	ck_assert_uint_eq(nflib_sprite_next(&nf), A(0));
}
END_TEST

/* Writes run on past the struct when deleted grows far enough: broken. */
START_TEST(nf_broken)
{
	uint32_t i, round;
	int r = 0;

	nflib_sprite_init(&nf, NFLIB_BASE_MAIN, 131072, 0);
	for (round = 0; round < 40 && !nf.broken; round++) {
		for (i = 0; i < 128 && !nf.broken; i++)
			if (nflib_sprite_alloc(&nf, (uint16_t)i, 64 + 64 * (round % 3)) < 0)
				break;
		for (i = 0; i < 128 && !nf.broken; i++)
			if (nf.inuse[i])
				r = nflib_sprite_free(&nf, (uint16_t)i);
	}
	(void)r;
	if (nf.broken) {
		ck_assert_int_eq(nflib_sprite_alloc(&nf, 0, 64), NFLIB_ERR_BROKEN);
		ck_assert_int_eq(nflib_sprite_free(&nf, 0), NFLIB_ERR_BROKEN);
	}
}
END_TEST

/* ---- NightFox's Lib against a plain list model ------------------------ */

typedef struct nref {
	uint32_t pos[1024], size[1024], nd;
	uint32_t addr[256], len[256];
	uint8_t live[256];
	int32_t free, frag, inarow, max;
	uint32_t next, base, ids;
	int three_d;
} nref;

static void nref_init(nref *m, uint32_t base, int32_t max, int three_d)
{
	memset(m, 0, sizeof *m);
	m->base = m->next = base;
	m->free = m->inarow = m->max = max;
	m->three_d = three_d;
	m->ids = three_d ? 256 : 128;
}

static int64_t nref_alloc(nref *m, uint32_t id, uint32_t size)
{
	int64_t exact = -1, larger = -1;
	uint32_t n, at;

	if (m->free < (int32_t)size)
		return NFLIB_ERR_SPACE;
	for (n = 0; n < m->nd; n++) {
		if (exact < 0 && m->size[n] == size && !(m->three_d && n == 255))
			exact = n;
		if (larger < 0 && m->size[n] > size && !(m->three_d && n == 255))
			larger = n;
	}
	if (m->three_d)
		n = exact >= 0 ? (uint32_t)(larger >= 0 ? larger : exact) : 1u << 30;
	else
		n = exact >= 0 ? (uint32_t)exact : larger >= 0 ? (uint32_t)larger : 1u << 30;
	if (n != 1u << 30) {
		at = m->pos[n];
		if (m->size[n] > size) {
			m->pos[n] += size;
			m->size[n] -= size;
			m->frag -= (int32_t)size;
		} else {
			m->frag -= (int32_t)m->size[n];
			m->nd--;
			m->pos[n] = m->pos[m->nd];
			m->size[n] = m->size[m->nd];
		}
	} else {
		if (m->inarow < (int32_t)size)
			return NFLIB_ERR_SPACE;
		at = m->next;
		m->next += size;
		m->inarow -= (int32_t)size;
	}
	m->free -= (int32_t)size;
	m->addr[id] = at;
	m->len[id] = size;
	m->live[id] = 1;
	return at;
}

static void nref_free(nref *m, uint32_t id)
{
	uint32_t n;

	m->live[id] = 0;
	m->free += (int32_t)m->len[id];
	m->pos[m->nd] = m->addr[id];
	m->size[m->nd++] = m->len[id];
	m->frag += (int32_t)m->len[id];
	if (m->frag < m->inarow / 2)
		return;
	m->nd = 0;
	m->frag = 0;
	m->next = m->base;
	m->free = m->inarow = m->max;
	for (n = 0; n < m->ids; n++)
		if (m->live[n]) {
			m->addr[n] = m->next;
			m->next += m->len[n];
			m->free -= (int32_t)m->len[n];
			m->inarow -= (int32_t)m->len[n];
		}
}

static nref ref;

START_TEST(nf_random_reference)
{
	int three_d = _i & 1;
	uint32_t base = three_d ? NFLIB_BASE_3D : NFLIB_BASE_MAIN;
	int32_t max = three_d ? 131072 : (_i & 2) ? 131072 : 65536;
	vs_rng r = { 0x5F1000u + (uint64_t)_i };
	unsigned steps = vs_test_soak(20000, 200000), step, fails = 0;
	uint32_t id, j, maxlive = 16 + 8 * (uint32_t)_i;

	nflib_sprite_init(&nf, base, (uint32_t)max, three_d ? NFLIB_3D : 0);
	nref_init(&ref, base, max, three_d);
	for (step = 0; step < steps && ref.nd < ref.ids; step++) {
		uint32_t nlive = 0;
		for (id = 0; id < ref.ids; id++)
			nlive += ref.live[id];
		if (nlive < maxlive && (nlive == 0 || vs_rng_below(&r, 100) < 52)) {
			uint32_t size = 64u << vs_rng_below(&r, 8);
			int64_t got, want;
			size *= 1 + vs_rng_below(&r, 3);
			for (id = 0; ref.live[id]; id++)
				;
			got = nflib_sprite_alloc(&nf, (uint16_t)id, size);
			want = nref_alloc(&ref, id, size);
			HOT_CMP(got, ==, want);
			fails += got < 0;
		} else {
			uint32_t k = vs_rng_below(&r, nlive);
			for (id = 0; !ref.live[id] || k--; id++)
				;
			(void)nflib_sprite_free(&nf, (uint16_t)id);
			nref_free(&ref, id);
		}
		/* the books agree and no two live graphics overlap */
		HOT_CMP(nflib_sprite_free_bytes(&nf), ==, ref.free);
		HOT_CMP(nflib_sprite_fragmented(&nf), ==, ref.frag);
		for (id = 0; id < ref.ids; id++) {
			if (!ref.live[id])
				continue;
			HOT_CMP(nf.addr[id], ==, ref.addr[id]);
			HOT_ASSERT(ref.addr[id] >= base && ref.addr[id] + ref.len[id] <= base + (uint32_t)max, "id %u", id);
			for (j = id + 1; j < ref.ids; j++)
				HOT_ASSERT(!ref.live[j] || ref.addr[j] >= ref.addr[id] + ref.len[id] ||
					ref.addr[id] >= ref.addr[j] + ref.len[j], "ids %u and %u overlap", id, j);
		}
	}
	ck_assert_uint_gt(step, 1000);
	ck_assert_uint_gt(nf.defrags, 0);
	(void)fails;
}
END_TEST

/* ---- the strategy tables ---------------------------------------------- */

static vs_arena_decl obj_decl(unsigned engine, unsigned boundary, int two_d)
{
	vs_arena_decl d;

	memset(&d, 0, sizeof d);
	d.kind = VS_ARENA_DS_OBJ;
	d.size = engine == VS_DS_ENGINE_A ? 0x40000u : 0x20000u;
	d.unit = 32;
	d.ds_engine = (uint8_t)engine;
	d.ds_obj_boundary = (uint8_t)(boundary / 32u);
	d.gba_obj_2d = (uint8_t)two_d;
	memset(d.ds_bank_slot, VS_BANK_UNMAPPED, sizeof d.ds_bank_slot);
	return d;
}

START_TEST(strat_libnds)
{
	const vs_strategy *s = vs_strategy_find("libnds-sprite");
	vs_arena_decl d = obj_decl(VS_DS_ENGINE_A, 128, 0);
	void *st;
	vs_placement pl[4];
	vs_request rq;
	char err[256];

	ck_assert_ptr_nonnull(s);
	st = calloc(1, s->state_size);
	ck_assert_int_eq(s->init(st, &d, "", NULL, err, sizeof err), 0);
	ck_assert_uint_eq(((libnds_sprite *)st)->mapping, LIBNDS_MAP_1D_128);
	rq = vs_test_sprite_rq(0, 0, 4);
	ck_assert_int_eq(s->alloc(st, &rq, &pl[0]), VS_OK);
	ck_assert_uint_eq(pl[0].offset, 0);
	ck_assert_uint_eq(pl[0].granted, 128);
	rq = vs_test_sprite_rq(0, 2, 8);
	ck_assert_int_eq(s->alloc(st, &rq, &pl[1]), VS_OK);
	ck_assert_uint_eq(pl[1].offset, 8 * 128);
	ck_assert_int_eq(s->free(st, &pl[0]), VS_OK);
	rq.shape = VS_REQ_BYTES;
	rq.size = 100;
	ck_assert_int_eq(s->alloc(st, &rq, &pl[2]), VS_ERR_UNSUPPORTED);
	rq.size = 2048;
	ck_assert_int_eq(s->alloc(st, &rq, &pl[2]), VS_OK);
	ck_assert_uint_eq(pl[2].offset, 16 * 128);
	s->reset(st);
	ck_assert_int_eq(s->init(st, &d, "mapping=2d,fixed=yes", NULL, err, sizeof err), 0);
	ck_assert_uint_eq(((libnds_sprite *)st)->step, 5);
	ck_assert_int_ne(s->init(st, &d, "mapping=3d", NULL, err, sizeof err), 0);
	ck_assert_int_ne(s->init(st, &d, "fixed=maybe", NULL, err, sizeof err), 0);
	ck_assert_int_ne(s->init(st, &d, "size=4", NULL, err, sizeof err), 0);
	d = obj_decl(VS_DS_ENGINE_B, 32, 1);
	ck_assert_int_eq(s->init(st, &d, "", NULL, err, sizeof err), 0);
	ck_assert_uint_eq(((libnds_sprite *)st)->mapping, LIBNDS_MAP_2D);
	d.ds_obj_bmp = VS_DS_BMP_2D_256;
	ck_assert_int_eq(s->init(st, &d, "", NULL, err, sizeof err), 0);
	ck_assert_uint_eq(((libnds_sprite *)st)->mapping, LIBNDS_MAP_BMP_2D_256);
	ck_assert(!(s->flags & VS_STRAT_OBJ_2D));
	free(st);
}
END_TEST

/* Moves as the replay carries them out: one at a time, each onto bytes no
 * other live block holds (a block in RAM holds none), ending where NF put
 * them with nothing left in RAM. */
#define IN_RAM 0xFFFFFFFEu
static void check_moves(const vs_strategy *s, void *st, uint32_t *view, const uint32_t *len, uint32_t lo,
	uint32_t hi, uint32_t origin)
{
	vs_move mv[1024];
	size_t n = s->moves(st, mv, 1024), i;
	uint32_t j;

	ck_assert_uint_le(n, 1024);
	for (i = 0; i < n; i++) {
		HOT_CMP(view[mv[i].key], ==, mv[i].from == VS_MOVE_RAM ? IN_RAM : mv[i].from);
		if (mv[i].to == VS_MOVE_RAM) {
			view[mv[i].key] = IN_RAM;
			continue;
		}
		HOT_ASSERT(mv[i].to >= lo && mv[i].to + len[mv[i].key] <= hi, "move to 0x%x", (unsigned)mv[i].to);
		for (j = 0; j < 256; j++)
			HOT_ASSERT(j == mv[i].key || view[j] >= IN_RAM || view[j] >= mv[i].to + len[mv[i].key] ||
				mv[i].to >= view[j] + len[j], "move of %u onto %u", (unsigned)mv[i].key, (unsigned)j);
		view[mv[i].key] = mv[i].to;
	}
	for (j = 0; j < 256; j++)
		HOT_ASSERT(view[j] == 0xFFFFFFFFu || view[j] == ((nflib_sprite *)st)->addr[j] - origin,
			"id %u left at 0x%x, NF has it at 0x%x (%u moves)", (unsigned)j, (unsigned)view[j],
			(unsigned)(((nflib_sprite *)st)->addr[j] - origin), (unsigned)n);
}

START_TEST(strat_nflib)
{
	const vs_strategy *s = vs_strategy_find(_i ? "nflib-sprite3d" : "nflib-sprite");
	vs_arena_decl d = obj_decl(VS_DS_ENGINE_A, 128, 0);
	uint32_t view[256], len[256], lo = _i ? 0x20000u : 0, hi = lo + 0x20000u, id, nmoves = 0;
	uint32_t origin = _i ? NFLIB_BASE_3D - 0x20000u : NFLIB_BASE_MAIN;
	vs_rng r = { 0x5F7000u + (uint64_t)_i };
	vs_placement pl;
	vs_request rq;
	void *st;
	char err[256];
	unsigned step;

	ck_assert_ptr_nonnull(s);
	if (_i) {
		d.kind = VS_ARENA_DS_TEX;
		d.size = 0x80000u;
		d.unit = 8;
		d.ds_bank_slot[1] = 1; /* bank B as texture slot 1, as NF_Init3dSpriteSys maps it */
	}
	st = calloc(1, s->state_size);
	ck_assert_int_ne(s->init(st, &d, _i ? "mode=64" : "mode=96", NULL, err, sizeof err), 0);
	ck_assert_int_eq(s->init(st, &d, _i ? "fixed=no" : "mode=128", NULL, err, sizeof err), 0);
	memset(view, 0xFF, sizeof view);
	memset(len, 0, sizeof len);
	memset(&rq, 0, sizeof rq);
	rq.shape = VS_REQ_BYTES;
	for (step = 0; step < 4000; step++) {
		uint32_t nlive = 0;
		for (id = 0; id < 256; id++)
			nlive += view[id] != 0xFFFFFFFFu;
		if (nlive < 60 && (nlive == 0 || vs_rng_below(&r, 2))) {
			int rc;
			rq.size = 64u << vs_rng_below(&r, 7);
			rc = s->alloc(st, &rq, &pl);
			ck_assert_uint_eq(s->moves(st, NULL, 0), 0); /* NF moves only in its free */
			if (rc != VS_OK)
				continue;
			HOT_ASSERT(pl.offset >= lo && pl.offset + pl.granted <= hi, "at 0x%x", (unsigned)pl.offset);
			for (id = 0; id < 256; id++)
				HOT_ASSERT(view[id] == 0xFFFFFFFFu || view[id] >= pl.offset + pl.granted ||
					pl.offset >= view[id] + len[id], "new block %u at 0x%x onto %u at 0x%x+%u, step %u, deleted %u",
					(unsigned)pl.key, (unsigned)pl.offset, (unsigned)id, (unsigned)view[id], (unsigned)len[id],
					step, (unsigned)nflib_sprite_deleted(st));
			view[pl.key] = pl.offset;
			len[pl.key] = pl.granted;
		} else {
			uint32_t k = vs_rng_below(&r, nlive);
			vs_move mv[4];
			for (id = 0; view[id] == 0xFFFFFFFFu || k--; id++)
				;
			pl.key = id;
			pl.offset = pl.block_offset = view[id];
			ck_assert_int_eq(s->free(st, &pl), VS_OK);
			view[id] = 0xFFFFFFFFu; /* gone before the moves are read, as in the replay */
			nmoves += (uint32_t)s->moves(st, mv, 4) > 0;
			check_moves(s, st, view, len, lo, hi, origin);
		}
	}
	ck_assert_uint_gt(nmoves, 0);
	free(st);
}
END_TEST

static uint32_t nf_bytes(const vs_strategy *s, void *st, uint32_t bytes, uint32_t key)
{
	vs_request rq;
	vs_placement pl;

	memset(&rq, 0, sizeof rq);
	rq.shape = VS_REQ_BYTES;
	rq.size = bytes;
	ck_assert_int_eq(s->alloc(st, &rq, &pl), VS_OK);
	ck_assert_uint_eq(pl.key, key);
	return pl.offset;
}

static size_t nf_free_key(const vs_strategy *s, void *st, uint32_t key, uint32_t at, vs_move *mv)
{
	vs_placement pl;

	memset(&pl, 0, sizeof pl);
	pl.key = key;
	pl.offset = pl.block_offset = at;
	ck_assert_int_eq(s->free(st, &pl), VS_OK);
	return s->moves(st, mv, 16);
}

/* The moves come right after the free that compacted, from the offsets
 * the replay has (the freed block gone): every live graphic out to RAM,
 * then each back at NF's address, in id order. Graphic 0 ends above
 * graphic 1 (reused id, bumped): NF's id order swaps them back, with as
 * little free VRAM as it likes (mode 128: two 32 KiB graphics, 8 KiB free). */
START_TEST(strat_nflib_order)
{
	const vs_strategy *s = vs_strategy_find("nflib-sprite");
	vs_arena_decl d = obj_decl(VS_DS_ENGINE_A, 128, 0);
	void *st = calloc(1, s->state_size);
	vs_move mv[16];
	char err[256];
	vs_request rq;
	vs_placement pl;

	ck_assert_ptr_null(s->frame); /* NF moves nothing at a frame */
	ck_assert_int_eq(s->init(st, &d, "mode=64", NULL, err, sizeof err), 0);
	memset(&rq, 0, sizeof rq);
	rq.shape = VS_REQ_SPRITE;
	rq.size = 512; /* 32x32 */
	rq.u.sprite.bpp = 4;
	ck_assert_int_eq(s->alloc(st, &rq, &pl), VS_ERR_UNSUPPORTED); /* NF's sprites are 256-colour */
	rq.u.sprite.bpp = 16;
	ck_assert_int_eq(s->alloc(st, &rq, &pl), VS_ERR_UNSUPPORTED);
	ck_assert_int_eq(s->init(st, &d, "mode=64", NULL, err, sizeof err), 0);
	ck_assert_uint_eq(nf_bytes(s, st, 0x1000, 0), 0);
	ck_assert_uint_eq(nf_bytes(s, st, 0x4000, 1), 0x1000);
	ck_assert_uint_eq(nf_free_key(s, st, 0, 0, mv), 0); /* 4 KiB fragmented < 44 KiB / 2 */
	ck_assert_uint_eq(nf_bytes(s, st, 0x4000, 0), 0x5000); /* no freed block fits: bump */
	ck_assert_uint_eq(nf_bytes(s, st, 0x6800, 2), 0x9000);
	ck_assert_uint_eq(nf_bytes(s, st, 0x400, 3), 0); /* split off the first larger freed block */
	ck_assert_uint_eq(nf_free_key(s, st, 3, 0, mv), 6); /* 4 KiB fragmented >= 2 KiB / 2: compacts */
	ck_assert(mv[0].key == 0 && mv[0].from == 0x5000 && mv[0].to == VS_MOVE_RAM);
	ck_assert(mv[1].key == 1 && mv[1].from == 0x1000 && mv[1].to == VS_MOVE_RAM);
	ck_assert(mv[2].key == 2 && mv[2].from == 0x9000 && mv[2].to == VS_MOVE_RAM);
	ck_assert(mv[3].key == 0 && mv[3].from == VS_MOVE_RAM && mv[3].to == 0);
	ck_assert(mv[4].key == 1 && mv[4].from == VS_MOVE_RAM && mv[4].to == 0x4000);
	ck_assert(mv[5].key == 2 && mv[5].from == VS_MOVE_RAM && mv[5].to == 0x8000);
	ck_assert_uint_eq(nf_bytes(s, st, 0x100, 3), 0xE800);
	ck_assert_uint_eq(s->moves(st, mv, 16), 0); /* the list was the free's alone */

	ck_assert_int_eq(s->init(st, &d, "mode=128", NULL, err, sizeof err), 0);
	ck_assert_uint_eq(nf_bytes(s, st, 0x1000, 0), 0);
	ck_assert_uint_eq(nf_bytes(s, st, 0x8000, 1), 0x1000);
	ck_assert_uint_eq(nf_free_key(s, st, 0, 0, mv), 0);
	ck_assert_uint_eq(nf_bytes(s, st, 0x8000, 0), 0x9000);
	ck_assert_uint_eq(nf_bytes(s, st, 0xE000, 2), 0x11000);
	ck_assert_uint_eq(nf_bytes(s, st, 0x800, 3), 0);
	ck_assert_uint_eq(nf_free_key(s, st, 3, 0, mv), 6);
	ck_assert(mv[3].key == 0 && mv[3].to == 0 && mv[4].key == 1 && mv[4].to == 0x8000);
	ck_assert(mv[5].key == 2 && mv[5].to == 0x10000);
	free(st);
}
END_TEST

/* The command line: a trace through each strategy, the dump's lines. */
START_TEST(strat_replay)
{
	static const char trace[] =
		"vramsim-trace 1\n"
		"arena obj ds-obj engine=a boundary=128 banks=A0\n"
		"arena tex ds-tex banks=B1\n"
		"alloc 1 obj sprite 32x32 8bpp\n"
		"alloc 2 obj sprite 64x64 8bpp\n"
		"alloc 3 obj sprite 16x16 8bpp\n"
		"alloc 4 tex tex 64x64 256c\n"
		"alloc 5 tex tex 32x32 256c\n"
		"free 1\n"
		"free 4\n"
		"frame\n"
		"alloc 6 obj sprite 32x64 8bpp\n"
		"alloc 7 tex tex 16x16 256c\n";
	static char out[16384], errs[4096];
	char args[1024];
	const char *path = vs_test_file(0, "sprites.trace", trace);

	snprintf(args, sizeof args, "replay '%s' --strategy obj=libnds-sprite --strategy tex=nflib-sprite3d --dump",
		path);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, errs, sizeof errs), 0);
	ck_assert_ptr_nonnull(strstr(out, "integrity       ok"));
	ck_assert_ptr_nonnull(strstr(out, "libnds sprite heap: mapping 1d-128"));
	ck_assert_ptr_nonnull(strstr(out, "NightFox's Lib 3D sprite texture VRAM"));
	snprintf(args, sizeof args, "replay '%s' --strategy obj=nflib-sprite:mode=128 --strategy tex=nflib-sprite3d:fixed=yes",
		path);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, errs, sizeof errs), 0);
	ck_assert_ptr_nonnull(strstr(out, "integrity       ok"));
}
END_TEST

static Suite *sprite_libs_suite(void)
{
	Suite *s = suite_create("ds_sprite_libs");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, libnds_units);
	tcase_add_test(tc, libnds_hand_1d128);
	tcase_add_test(tc, libnds_hand_units);
	tcase_add_test(tc, libnds_exhaust);
	tcase_add_test(tc, libnds_header_growth);
	tcase_add_test(tc, libnds_2d_formula);
	tcase_add_test(tc, libnds_2d_free);
	tcase_add_loop_test(tc, libnds_2d_random, 0, 6);
	tcase_add_loop_test(tc, libnds_random_reference, 0, 6);
	tcase_add_test(tc, nf_hand_2d);
	tcase_add_test(tc, nf_defrag);
	tcase_add_test(tc, nf_3d_inverted);
	tcase_add_test(tc, nf_3d_sentinel);
	tcase_add_test(tc, nf_table_overflow);
	tcase_add_test(tc, nf_broken);
	tcase_add_loop_test(tc, nf_random_reference, 0, 6);
	tcase_add_test(tc, strat_libnds);
	tcase_add_loop_test(tc, strat_nflib, 0, 2);
	tcase_add_test(tc, strat_nflib_order);
	tcase_add_test(tc, strat_replay);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vs_test_main(sprite_libs_suite());
}
