/* SPDX-License-Identifier: Zlib */
/* test_gba_obj_slots.c - fixed per-class OBJ slots ('Gameboy Advance
 * Resource Management', the approach before the allocation map): the
 * allocator's layout, placements and failures, its strategy adapter under
 * replay, and bad slot tables refused with a message (exit 2). */
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "vramsim/alloc/gba_obj_slots.h"
#include "engine/replay.h"
#include "vramsim/strategy.h"
#include "trace/trace.h"
#include "strategies/registry.h"

/* 1 slot of 4 tiles, 2 of 2, 4 of 1: tiles 0-3, 4 and 6, 8-11. */
START_TEST(layout_and_placements)
{
	static const uint16_t count[] = { 1, 2, 4 }, tiles[] = { 4, 2, 1 };
	gba_obj_slots a;

	ck_assert_int_eq(gba_obj_slots_init(&a, 0, count, tiles, 3), GBA_OBJ_SLOTS_OK);
	ck_assert_uint_eq(a.end, 12);
	ck_assert_uint_eq(gba_obj_slots_alloc(&a, 1, 1), 8);
	ck_assert_uint_eq(gba_obj_slots_alloc(&a, 3, 1), 0);   /* smallest class that holds 3 */
	ck_assert_uint_eq(gba_obj_slots_size(&a, 0), 4);
	ck_assert_uint_eq(gba_obj_slots_alloc(&a, 2, 1), 4);
	ck_assert_uint_eq(gba_obj_slots_alloc(&a, 2, 1), 6);
	/* Its class is full: no lending from the 1-tile class, and none from
	 * the 4-tile one either once that is taken. */
	ck_assert_uint_eq(gba_obj_slots_alloc(&a, 2, 1), GBA_OBJ_SLOTS_NONE);
	ck_assert_uint_eq(gba_obj_slots_alloc(&a, 4, 1), GBA_OBJ_SLOTS_NONE);
	ck_assert_uint_eq(gba_obj_slots_alloc(&a, 5, 1), GBA_OBJ_SLOTS_NONE); /* no class holds 5 */
	ck_assert_uint_eq(gba_obj_slots_alloc(&a, 0, 1), GBA_OBJ_SLOTS_NONE);
	ck_assert_uint_eq(gba_obj_slots_alloc(&a, 1, 3), GBA_OBJ_SLOTS_NONE);  /* align not a power of two */
	ck_assert(!gba_obj_slots_is_free(&a, 5));
	ck_assert(gba_obj_slots_is_free(&a, 9));
	ck_assert(!gba_obj_slots_is_free(&a, 12));  /* in no slot */
	ck_assert(gba_obj_slots_starts(&a, 6) && !gba_obj_slots_starts(&a, 7));
	/* Frees: only the start of a taken slot, once. */
	ck_assert_int_eq(gba_obj_slots_free(&a, 5), -1);
	ck_assert_int_eq(gba_obj_slots_free(&a, 9), -1);
	ck_assert_int_eq(gba_obj_slots_free(&a, 12), -1);
	ck_assert_int_eq(gba_obj_slots_free(&a, 4), 0);
	ck_assert_int_eq(gba_obj_slots_free(&a, 4), -1);
	ck_assert_uint_eq(gba_obj_slots_alloc(&a, 2, 1), 4);
	ck_assert_uint_eq(gba_obj_slots_alloc(&a, 1, 1), 9);
	gba_obj_slots_clear(&a);
	ck_assert(gba_obj_slots_is_free(&a, 0) && gba_obj_slots_is_free(&a, 8));
	ck_assert_uint_eq(gba_obj_slots_alloc(&a, 4, 1), 0);
}
END_TEST

/* 8bpp sprites start on even tiles: a slot at an odd tile is skipped. */
START_TEST(alignment)
{
	static const uint16_t count[] = { 3, 2 }, tiles[] = { 1, 2 };
	gba_obj_slots a;

	ck_assert_int_eq(gba_obj_slots_init(&a, 0, count, tiles, 2), GBA_OBJ_SLOTS_OK);
	/* 2-tile slots at 3 and 5: neither even */
	ck_assert_uint_eq(gba_obj_slots_alloc(&a, 2, 2), GBA_OBJ_SLOTS_NONE);
	ck_assert_uint_eq(gba_obj_slots_alloc(&a, 2, 1), 3);
	ck_assert_uint_eq(gba_obj_slots_alloc(&a, 1, 2), 0);
	ck_assert_uint_eq(gba_obj_slots_alloc(&a, 1, 2), 2);
	ck_assert_uint_eq(gba_obj_slots_alloc(&a, 1, 2), GBA_OBJ_SLOTS_NONE);
	ck_assert_uint_eq(gba_obj_slots_alloc(&a, 1, 1), 1);
}
END_TEST

START_TEST(bad_tables)
{
	uint16_t count[GBA_OBJ_SLOTS_CLASSES + 1], tiles[GBA_OBJ_SLOTS_CLASSES + 1];
	gba_obj_slots a;
	unsigned i;

	for (i = 0; i <= GBA_OBJ_SLOTS_CLASSES; i++)
		count[i] = tiles[i] = 1;
	ck_assert_int_eq(gba_obj_slots_init(&a, 0, count, tiles, 0), GBA_OBJ_SLOTS_BAD_CLASS);
	ck_assert_int_eq(gba_obj_slots_init(&a, 0, count, tiles, GBA_OBJ_SLOTS_CLASSES + 1), GBA_OBJ_SLOTS_BAD_CLASS);
	ck_assert_int_eq(gba_obj_slots_init(&a, 0, count, tiles, GBA_OBJ_SLOTS_CLASSES), GBA_OBJ_SLOTS_OK);
	count[1] = 0;
	ck_assert_int_eq(gba_obj_slots_init(&a, 0, count, tiles, 2), GBA_OBJ_SLOTS_BAD_CLASS);
	ck_assert_uint_eq(gba_obj_slots_alloc(&a, 1, 1), GBA_OBJ_SLOTS_NONE); /* no slots after a failure */
	/* exactly the area, then one tile over; bitmap modes have 512 */
	count[0] = 1024;
	ck_assert_int_eq(gba_obj_slots_init(&a, 0, count, tiles, 1), GBA_OBJ_SLOTS_OK);
	ck_assert_uint_eq(gba_obj_slots_alloc(&a, 1, 1), 0);
	count[0] = 1;
	tiles[0] = 1023;
	count[1] = 2;
	ck_assert_int_eq(gba_obj_slots_init(&a, 0, count, tiles, 2), GBA_OBJ_SLOTS_TOO_BIG);
	count[0] = 2;
	tiles[0] = 256;
	ck_assert_int_eq(gba_obj_slots_init(&a, 512, count, tiles, 1), GBA_OBJ_SLOTS_OK);
	ck_assert_uint_eq(gba_obj_slots_alloc(&a, 200, 1), 512);
	count[0] = 3;
	ck_assert_int_eq(gba_obj_slots_init(&a, 512, count, tiles, 1), GBA_OBJ_SLOTS_TOO_BIG);
	/* a product past 16 bits is still too big, not wrapped */
	count[0] = 1024;
	tiles[0] = 1024;
	ck_assert_int_eq(gba_obj_slots_init(&a, 0, count, tiles, 1), GBA_OBJ_SLOTS_TOO_BIG);
}
END_TEST

/* Replays text under gba-obj-slots with options; returns the replay. */
static vs_replay *replay_slots(const char *text, const char *options)
{
	static FILE *fp;
	vs_replay_config cfg;
	vs_trace_reader *rd;
	vs_replay *r;
	char err[512];

	fp = tmpfile();
	fputs(text, fp);
	rewind(fp);
	rd = vs_trace_open_stream(fp, "slots", err, sizeof err);
	ck_assert_msg(rd != NULL, "%s", err);
	vs_replay_config_default(&cfg);
	cfg.strategy[0] = vs_strategy_find("gba-obj-slots");
	ck_assert_ptr_nonnull(cfg.strategy[0]);
	cfg.options[0] = options;
	r = vs_replay_new(rd, &cfg, err, sizeof err);
	ck_assert_msg(r != NULL, "%s", err);
	ck_assert_int_eq(vs_replay_run(r, 0), 0);
	ck_assert_uint_eq(vs_replay_check_total(r), 0);
	return r;
}

/* The adapter: a sprite takes its whole slot (granted = the slot), an
 * 8bpp sprite an even slot; a full class fails while others have room;
 * frees give slots back. */
START_TEST(adapter_replay)
{
	static const char trace[] =
		"vramsim-trace 1\narena obj gba-obj mode=0\n"
		"alloc 1 sprite 8x8 4bpp\n"     /* 1 tile: the 2-tile class, tile 16 */
		"alloc 2 sprite 16x16 4bpp\n"   /* 4 tiles: a 16-tile slot, tile 0 */
		"alloc 3 sprite 8x16 4bpp\n"    /* 2 tiles: tile 18 */
		"alloc 4 sprite 8x8 4bpp\n"     /* the 2-tile class is full */
		"frame\nfree 1\nalloc 5 sprite 8x8 8bpp\n" /* 2 tiles, even: tile 16 again */
		"frame\n";
	vs_replay *r = replay_slots(trace, "slots=1x16/2x2");
	const vs_metrics *m = vs_replay_metrics(r, 0);

	ck_assert_uint_eq(m->allocs, 4);
	ck_assert_uint_eq(m->failures, 1);
	ck_assert_uint_eq(m->frees, 1);
	ck_assert_uint_eq(m->live_count, 3);
	ck_assert_uint_eq(m->live_bytes, (4 + 2 + 2) * 32);
	ck_assert_uint_eq(m->granted_bytes, (16 + 2 + 2) * 32);
	/* the two classes are full: what is free is tiles 20-1023, in no slot */
	ck_assert_uint_eq(m->free_bytes, (1024 - 20) * 32);
	ck_assert_uint_eq(m->largest_free, (1024 - 20) * 32);
	vs_replay_free(r);
}
END_TEST

/* The default table covers the whole area (512 tiles in bitmap modes) and
 * serves every sprite shape up to 64x64 8bpp. */
START_TEST(default_tables)
{
	static const char mode0[] =
		"vramsim-trace 1\narena obj gba-obj mode=0\n"
		"alloc 1 sprite 64x64 8bpp\nalloc 2 sprite 64x64 4bpp\nalloc 3 sprite 8x8 4bpp\nframe\n";
	static const char mode4[] =
		"vramsim-trace 1\narena obj gba-obj mode=4\n"
		"alloc 1 sprite 64x64 4bpp\nalloc 2 sprite 64x64 8bpp\nalloc 3 sprite 8x8 4bpp\nframe\n";
	vs_replay *r = replay_slots(mode0, "");
	const vs_metrics *m = vs_replay_metrics(r, 0);

	ck_assert_uint_eq(m->allocs, 3);
	ck_assert_uint_eq(m->live_bytes + m->free_bytes + (m->granted_bytes - m->live_bytes), 32768);
	vs_replay_free(r);
	r = replay_slots(mode4, "");
	m = vs_replay_metrics(r, 0);
	/* bitmap modes: no 128-tile slot, so the 64x64 8bpp sprite fails */
	ck_assert_uint_eq(m->allocs, 2);
	ck_assert_uint_eq(m->failures, 1);
	ck_assert_uint_eq(m->granted_bytes + m->free_bytes, 16384);
	vs_replay_free(r);
}
END_TEST

/* Bad slot tables from the command line: exit 2 and a message naming it. */
START_TEST(bad_tables_cli)
{
	static const char *const bad[][2] = {
		{ "slots=4x", "expected COUNTxTILES" },
		{ "slots=4x4/", "expected COUNTxTILES" },
		{ "slots=x4", "expected COUNTxTILES" },
		{ "slots=4y4", "expected COUNTxTILES" },
		{ "slots=0x4", "a count of 0" },
		{ "slots=2x0", "slots of 0" },
		{ "slots=99999x1", "expected COUNTxTILES" },
		{ "slots=2x512/1x1", "take 1025 tiles" },
		{ "slots=1x1/1x1/1x1/1x1/1x1/1x1/1x1/1x1/1x1/1x1/1x1/1x1/1x1/1x1/1x1/1x1/1x1", "at most 16" },
		{ "slotz=1x1", "slotz" },
	};
	char out[4096], err[4096], args[512];
	const char *path = vs_test_file(0, "slots.trace", "vramsim-trace 1\narena obj gba-obj\nalloc 1 sprite 8x8 4bpp\n");
	size_t i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		snprintf(args, sizeof args, "replay '%s' -s 'gba-obj-slots:%s'", path, bad[i][0]);
		ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 2);
		ck_assert_msg(strstr(err, bad[i][1]) != NULL, "%s: %s", bad[i][0], err);
	}
	snprintf(args, sizeof args, "replay '%s' -s 'gba-obj-slots:slots=1x4/2x1'", path);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 0);
	/* bitmap modes have 512 tiles */
	path = vs_test_file(1, "slots4.trace", "vramsim-trace 1\narena obj gba-obj mode=4\nalloc 1 sprite 8x8 4bpp\n");
	snprintf(args, sizeof args, "replay '%s' -s 'gba-obj-slots:slots=2x256/1x1'", path);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 2);
	ck_assert_msg(strstr(err, "has 512") != NULL, "%s", err);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("gba_obj_slots");
	TCase *tc = tcase_create("slots");

	tcase_add_test(tc, layout_and_placements);
	tcase_add_test(tc, alignment);
	tcase_add_test(tc, bad_tables);
	tcase_add_test(tc, adapter_replay);
	tcase_add_test(tc, default_tables);
	tcase_add_test(tc, bad_tables_cli);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vs_test_main(suite());
}
