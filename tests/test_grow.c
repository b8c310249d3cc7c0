/* SPDX-License-Identifier: Zlib */
/* test_grow.c - vs_grow and its uint32_t / int forms: the first capacity,
 * doubling, a need past the double, and counts or sizes past what the
 * capacity or size_t can hold refused with the array left as it was. */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"

#include "support.h"

/* The refusals below ask realloc for more than any machine has: it returns
 * NULL, which ASan does too when told to (tools/check's ASAN_OPTIONS keep
 * this default: they name other options). */
const char *__asan_default_options(void)
{
	return "allocator_may_return_null=1";
}

START_TEST(first_growth_takes_the_first_capacity)
{
	int *v = NULL;
	size_t cap = 0;

	ck_assert_int_eq(vs_grow(&v, sizeof *v, &cap, 1, 16), 0);
	ck_assert_ptr_nonnull(v);
	ck_assert_uint_eq(cap, 16);
	v[15] = 7;
	free(v);

	/* a first need past the first capacity: doubled from it */
	v = NULL;
	cap = 0;
	ck_assert_int_eq(vs_grow(&v, sizeof *v, &cap, 40, 16), 0);
	ck_assert_uint_eq(cap, 64);
	v[63] = 7;
	free(v);

	/* nothing needed: nothing allocated */
	v = NULL;
	cap = 0;
	ck_assert_int_eq(vs_grow(&v, sizeof *v, &cap, 0, 16), 0);
	ck_assert_ptr_null(v);
	ck_assert_uint_eq(cap, 0);
}
END_TEST

START_TEST(one_more_doubles_and_keeps_the_elements)
{
	uint32_t *v = NULL;
	size_t cap = 0, n, want = 8;

	for (n = 0; n < 5000; n++) {
		if (n == cap) {
			HOT_CMP(vs_grow(&v, sizeof *v, &cap, n + 1, 8), ==, 0);
			HOT_CMP(cap, ==, want);
			want *= 2;
		} else {
			uint32_t *before = v;
			size_t c = cap;
			/* room already: the array stays where it is */
			HOT_CMP(vs_grow(&v, sizeof *v, &cap, n + 1, 8), ==, 0);
			HOT_ASSERT(v == before && cap == c, "moved at %zu", n);
		}
		v[n] = (uint32_t)n * 2654435761u;
	}
	ck_assert_uint_eq(cap, 8192);
	for (n = 0; n < 5000; n++)
		HOT_CMP(v[n], ==, (uint32_t)n * 2654435761u);
	free(v);
}
END_TEST

START_TEST(a_need_past_the_double_doubles_until_it_fits)
{
	char *v = NULL;
	size_t cap = 0;

	ck_assert_int_eq(vs_grow(&v, 1, &cap, 10, 16), 0);
	memcpy(v, "0123456789", 10);
	ck_assert_int_eq(vs_grow(&v, 1, &cap, 100, 16), 0);
	ck_assert_uint_eq(cap, 128);
	ck_assert_int_eq(memcmp(v, "0123456789", 10), 0);
	/* a capacity that is no power of two doubles from where it is */
	cap = 100;
	ck_assert_int_eq(vs_grow(&v, 1, &cap, 101, 16), 0);
	ck_assert_uint_eq(cap, 200);
	ck_assert_int_eq(memcmp(v, "0123456789", 10), 0);
	v[199] = 'x';
	free(v);
}
END_TEST

START_TEST(uint32_and_int_capacities_grow_the_same)
{
	double *d = NULL;
	uint32_t c32 = 0;
	char **s = NULL;
	int ci = 0;

	ck_assert_int_eq(vs_grow_u32(&d, sizeof *d, &c32, 1, 256), 0);
	ck_assert_uint_eq(c32, 256);
	ck_assert_int_eq(vs_grow_u32(&d, sizeof *d, &c32, 257, 256), 0);
	ck_assert_uint_eq(c32, 512);
	ck_assert_int_eq(vs_grow_u32(&d, sizeof *d, &c32, 3000, 256), 0);
	ck_assert_uint_eq(c32, 4096);
	d[4095] = 1.0;
	free(d);

	ck_assert_int_eq(vs_grow_int(&s, sizeof *s, &ci, 1, 64), 0);
	ck_assert_int_eq(ci, 64);
	ck_assert_int_eq(vs_grow_int(&s, sizeof *s, &ci, 65, 64), 0);
	ck_assert_int_eq(ci, 128);
	s[127] = NULL;
	free(s);
}
END_TEST

/* A refusal: -1, and the array and its capacity as they were. */
#define REFUSED(call, p, before, cap, cap_before) do { \
	ck_assert_int_eq((call), -1); \
	ck_assert_ptr_eq((void *)(p), (void *)(before)); \
	ck_assert_uint_eq((uintmax_t)(cap), (uintmax_t)(cap_before)); } while (0)

START_TEST(counts_past_the_capacity_type_are_refused)
{
	char *p = malloc(16), *before = p;
	uint32_t c32 = 16;
	int ci = 16;
	size_t cap = 16;

	ck_assert_ptr_nonnull(p);
	/* need itself past what the capacity counts */
	REFUSED(vs_grow_u32(&p, 1, &c32, (size_t)UINT32_MAX + 1, 16), p, before, c32, 16);
	REFUSED(vs_grow_int(&p, 1, &ci, (size_t)INT_MAX + 1, 16), p, before, ci, 16);
	REFUSED(vs_grow(&p, 2, &cap, SIZE_MAX / 2 + 1, 16), p, before, cap, 16);
	REFUSED(vs_grow(&p, 3, &cap, SIZE_MAX, 16), p, before, cap, 16);
	/* the element still usable after the refusals */
	memset(p, 'a', 16);
	free(p);
}
END_TEST

START_TEST(sizes_past_size_t_are_refused)
{
	char *p = malloc(16), *before = p;
	size_t cap = 16, big = (size_t)1 << 20;
	uint32_t c32;
	int ci;

	ck_assert_ptr_nonnull(p);
	/* count * elem wraps to 0: the unchecked product would "succeed" */
	REFUSED(vs_grow(&p, big, &cap, SIZE_MAX / big + 1, 16), p, before, cap, 16);
	REFUSED(vs_grow(&p, SIZE_MAX / 4 + 1, &cap, 17, 1), p, before, cap, 16);
	/* doubling a capacity past half of what its type holds: an unchecked
	 * cap * 2 wraps; checked, it stops at the largest count, which realloc
	 * refuses */
	cap = SIZE_MAX / 2 + 1;
	REFUSED(vs_grow(&p, 1, &cap, cap + 1, 16), p, before, cap, SIZE_MAX / 2 + 1);
	c32 = 0x80000000u;
	REFUSED(vs_grow_u32(&p, 1u << 31, &c32, (size_t)c32 + 1, 16), p, before, c32, 0x80000000u);
#if SIZE_MAX > UINT32_MAX
	ci = INT_MAX / 2 + 1;
	REFUSED(vs_grow_int(&p, (size_t)1 << 32, &ci, (size_t)ci + 1, 16), p, before, ci, INT_MAX / 2 + 1);
#endif
	memset(p, 'a', 16);
	free(p);
}
END_TEST

START_TEST(one_byte_and_large_elements)
{
	unsigned char *b = NULL;
	struct big { unsigned char x[4096]; } *g = NULL;
	size_t cb = 0, cg = 0, i;

	ck_assert_int_eq(vs_grow(&b, 1, &cb, 65537, 65536), 0);
	ck_assert_uint_eq(cb, 131072);
	memset(b, 0x5a, cb);
	ck_assert_int_eq(vs_grow(&g, sizeof *g, &cg, 3, 2), 0);
	ck_assert_uint_eq(cg, 4);
	for (i = 0; i < cg; i++)
		memset(g[i].x, (int)i, sizeof g[i].x);
	ck_assert_int_eq(vs_grow(&g, sizeof *g, &cg, 5, 2), 0);
	ck_assert_uint_eq(cg, 8);
	for (i = 0; i < 4; i++)
		ck_assert_uint_eq(g[i].x[4095], i);
	memset(&g[7], 1, sizeof g[7]);
	free(b);
	free(g);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("grow");
	TCase *tc = tcase_create("grow");

	tcase_add_test(tc, first_growth_takes_the_first_capacity);
	tcase_add_test(tc, one_more_doubles_and_keeps_the_elements);
	tcase_add_test(tc, a_need_past_the_double_doubles_until_it_fits);
	tcase_add_test(tc, uint32_and_int_capacities_grow_the_same);
	tcase_add_test(tc, counts_past_the_capacity_type_are_refused);
	tcase_add_test(tc, sizes_past_size_t_are_refused);
	tcase_add_test(tc, one_byte_and_large_elements);
	suite_add_tcase(s, tc);
	return vs_test_main(s);
}
