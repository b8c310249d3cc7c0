/* SPDX-License-Identifier: Zlib */
/* test_record_ring.c - record.h's Nintendo DS transport on the host: the
 * ring in main RAM `vramsim record GAME.nds` reads (docs/embedding.md).
 *
 * VS_REC_DS selects it as a DS game's ARM9 build does; a 256-byte ring
 * wraps after a few lines. The ring's header, the stream (lines as a trace
 * holds them, no prefix, each ended by '\n'), `written` counting on past
 * the size, and the stream read back from the ring the way the host reads
 * it are checked.
 */
#include <string.h>

#include "support.h"

#define VS_REC_DS 1
#define VS_REC_RING_SIZE 256u
#include "vramsim/record.h"

/* Reads the bytes the ring holds from stream position *read to written,
 * as the host does after a frame; fails if more than a ring's worth came. */
static size_t drain(char *out, size_t cap, uint32_t *read)
{
	uint32_t w = vs_rec_ring.written, i;
	size_t n = 0;

	ck_assert_uint_le(w - *read, VS_REC_RING_SIZE);
	for (i = *read; i != w; i++) {
		ck_assert_uint_lt(n + 1, cap);
		out[n++] = (char)vs_rec_ring.data[i % vs_rec_ring.size];
	}
	out[n] = 0;
	*read = w;
	return n;
}

START_TEST(the_ring_header_is_written_at_the_first_line)
{
	char got[512];
	uint32_t read = 0;

	ck_assert_uint_eq(vs_rec_ring.self, 0); /* nothing written before a line */
	VS_REC_BEGIN();
	ck_assert(memcmp(vs_rec_ring.magic, "vsRING1", 8) == 0);
	ck_assert_uint_eq(vs_rec_ring.self, (uint32_t)(uintptr_t)&vs_rec_ring);
	ck_assert_uint_eq(vs_rec_ring.size, 256);
	ck_assert_uint_eq(vs_rec_ring.reserved, 0);
	ck_assert_uint_eq(offsetof(vs_rec_ring_t, data), 24);
	drain(got, sizeof got, &read);
	ck_assert_str_eq(got, "vramsim-trace 1\n");
}
END_TEST

START_TEST(lines_wrap_around_the_ring)
{
	char got[512], want[8192], all[8192];
	uint32_t read = 0, i;
	size_t n = 0, wn = 0;

	all[0] = 0;
	VS_REC_BEGIN();
	wn += (size_t)snprintf(want + wn, sizeof want - wn, "vramsim-trace 1\n");
	VS_REC_ARENA("obj", "ds-obj", "engine=a banks=A0 boundary=128");
	wn += (size_t)snprintf(want + wn, sizeof want - wn, "arena obj ds-obj engine=a banks=A0 boundary=128\n");
	for (i = 0; i < 40; i++) {
		/* a frame's lines, read after each frame as the host does */
		VS_REC_SPRITE(i, "obj", "hero", 32, 32, 4, 0x06400000u + i * 512u);
		VS_REC_VRAMCNT('A', 0x81);
		VS_REC_FRAME();
		wn += (size_t)snprintf(want + wn, sizeof want - wn,
			"alloc %u obj sprite 32x32 4bpp tag=hero at=0x%08x\nvramcnt A 0x81\nframe\n", (unsigned)i,
			(unsigned)(0x06400000u + i * 512u));
		n += drain(got, sizeof got, &read);
		strcat(all, got);
	}
	ck_assert_uint_eq(vs_rec_ring.written, (uint32_t)wn);
	ck_assert_uint_gt(vs_rec_ring.written, 8u * VS_REC_RING_SIZE); /* wrapped many times */
	ck_assert_uint_eq(n, wn);
	ck_assert_str_eq(all, want);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("record_ring");
	TCase *tc = tcase_create("core");

	/* each case in a process of its own (check forks): a fresh ring */
	tcase_add_test(tc, the_ring_header_is_written_at_the_first_line);
	tcase_add_test(tc, lines_wrap_around_the_ring);
	suite_add_tcase(s, tc);
	return vs_test_main(s);
}
