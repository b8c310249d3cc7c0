/* SPDX-License-Identifier: Zlib */
/* test_gba_emu.c - the allocator code on an emulated GBA (libmgba).
 *
 * The cycles ROM replays request sequences through gba_obj_map built for the
 * ARM7TDMI (Thumb in ROM and ARM in IWRAM); every result it returns must be
 * what the same allocator source returns on the host for the same sequence,
 * and every call's cycle count must be plausible. Built only with libmgba;
 * the cases that run the cycles ROMs are skipped (ctest) without
 * arm-none-eabi-gcc.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "vramsim/alloc/gba_obj_map.h"
#include "console/gba/gba_emu.h"

/* Path of a cycles ROM (the case is in the cycles_roms TCase, which runs
 * only where they were built). */
static const char *rom_path(int code, char *buf, size_t len)
{
	char err[256];

	ck_assert_msg(vs_gba_cycles_rom(code, buf, len, err, sizeof err) != NULL, "%s", err);
	ck_assert_msg(vs_test_exists(buf), "%s not built", buf);
	return buf;
}

/* ---- request sequences and the host's answers ---------------------- */

typedef struct seq {
	vs_gba_req *rq;
	uint32_t n;
	uint32_t *expect; /* host result per request */
} seq;

static void seq_free(seq *s)
{
	free(s->rq);
	free(s->expect);
}

/* Random allocs and frees over `slots` handles; sizes mostly 1-8 blocks,
 * sometimes 16-64 so the map fills and fails. */
static seq random_seq(uint64_t seed, uint32_t n, uint32_t slots)
{
	vs_rng rng = { seed };
	seq s;
	uint8_t *live = calloc(slots, 1);
	uint32_t i;

	s.n = n;
	s.rq = calloc(n, sizeof *s.rq);
	s.expect = calloc(n, sizeof *s.expect);
	ck_assert_ptr_nonnull(live);
	ck_assert_ptr_nonnull(s.rq);
	ck_assert_ptr_nonnull(s.expect);
	for (i = 0; i < n; i++) {
		uint32_t slot = vs_rng_below(&rng, slots);

		s.rq[i].slot = (uint16_t)slot;
		if (live[slot]) {
			s.rq[i].op = VS_GBA_OP_FREE;
			live[slot] = 0;
		} else {
			uint32_t r = vs_rng_below(&rng, 100);

			s.rq[i].op = VS_GBA_OP_ALLOC;
			s.rq[i].arg = r < 90 ? 1 + vs_rng_below(&rng, 8) : 16u << vs_rng_below(&rng, 3);
			live[slot] = 1;
		}
	}
	free(live);
	return s;
}

/* The anchor workload of mgba-headless.md: 64 allocations of 1-8 blocks,
 * freed in a shuffled order, four times over. */
static seq anchor_seq(void)
{
	vs_rng rng = { 8 };
	uint32_t sizes[64], order[64], round, i;
	seq s;

	for (i = 0; i < 64; i++)
		sizes[i] = 1 + vs_rng_below(&rng, 8);
	s.n = 4 * 128;
	s.rq = calloc(s.n, sizeof *s.rq);
	s.expect = calloc(s.n, sizeof *s.expect);
	ck_assert_ptr_nonnull(s.rq);
	ck_assert_ptr_nonnull(s.expect);
	for (round = 0; round < 4; round++) {
		vs_gba_req *r = s.rq + round * 128;

		for (i = 0; i < 64; i++) {
			r[i].op = VS_GBA_OP_ALLOC;
			r[i].slot = (uint16_t)i;
			r[i].arg = sizes[i];
			order[i] = i;
		}
		for (i = 63; i > 0; i--) {
			uint32_t j = vs_rng_below(&rng, i + 1), t = order[i];

			order[i] = order[j];
			order[j] = t;
		}
		for (i = 0; i < 64; i++) {
			r[64 + i].op = VS_GBA_OP_FREE;
			r[64 + i].slot = (uint16_t)order[i];
		}
	}
	return s;
}

/* Runs the sequence through the host build of the same allocator. */
static void host_replay(seq *s, uint16_t first)
{
	static gba_obj_map m;
	uint32_t *handle = calloc(VS_GBA_SLOTS, sizeof *handle), i;

	ck_assert_ptr_nonnull(handle);
	gba_obj_map_init(&m, first);
	for (i = 0; i < s->n; i++) {
		const vs_gba_req *r = &s->rq[i];
		uint16_t v;

		switch (r->op) {
		case VS_GBA_OP_ALLOC:
			v = gba_obj_map_alloc(&m, (uint16_t)r->arg);
			handle[r->slot] = v;
			s->expect[i] = v == GBA_OBJ_MAP_NONE ? VS_GBA_NONE : v;
			break;
		case VS_GBA_OP_FREE:
			s->expect[i] = gba_obj_map_free(&m, (uint16_t)handle[r->slot]);
			break;
		case VS_GBA_OP_RESET:
			gba_obj_map_init(&m, first);
			s->expect[i] = 0;
			break;
		default:
			s->expect[i] = 0;
		}
	}
	free(handle);
}

/* Runs s on the GBA and checks every result against the host's and every
 * cycle count for plausibility. Returns the results (caller frees). */
static vs_gba_result *check_on_gba(const char *rom, seq *s, uint16_t first, vs_gba_cycles_info *info)
{
	vs_gba_result *res = calloc(s->n, sizeof *res);
	uint32_t param[4] = { first, 0, 0, 0 }, i, fails = 0;
	char err[256];
	int rc;

	ck_assert_ptr_nonnull(res);
	host_replay(s, first);
	rc = vs_gba_cycles_run(rom, VS_GBA_STRAT_GBA_OBJ_MAP, param, s->rq, s->n, res, info, 0,
		err, sizeof err);
	ck_assert_msg(rc == 0, "cycles run failed: %s", err);
	ck_assert_uint_eq(info->waitcnt, 0x4317);
	ck_assert_uint_gt(info->overhead, 0);
	for (i = 0; i < s->n; i++) {
		ck_assert_msg(res[i].value == s->expect[i],
			"request %u (op %u slot %u arg %u): GBA gave %u, host %u", i, s->rq[i].op,
			s->rq[i].slot, s->rq[i].arg, res[i].value, s->expect[i]);
		/* Every real call costs something and no call may take a frame. */
		ck_assert_msg(res[i].cycles > 0 && res[i].cycles < VS_GBA_FRAME_CYCLES,
			"request %u: %u cycles", i, res[i].cycles);
		if (s->rq[i].op == VS_GBA_OP_ALLOC && s->expect[i] == VS_GBA_NONE)
			fails++;
	}
	(void)fails;
	return res;
}

/* ---- tests ---------------------------------------------------------- */

START_TEST(test_rejects_non_rom)
{
	char err[256] = "";
	static const unsigned char tiny[16];

	ck_assert_ptr_null(vs_gba_emu_open_image(tiny, sizeof tiny, err, sizeof err));
	ck_assert_ptr_nonnull(strstr(err, "not a GBA ROM"));
	ck_assert_ptr_null(vs_gba_emu_open_file(VS_BINARY_DIR "/no-such.gba", err, sizeof err));
	ck_assert_ptr_nonnull(strstr(err, "no-such.gba"));
}
END_TEST

typedef struct log_cap {
	char lines[8][256];
	int levels[8];
	int n;
} log_cap;

static void cap_line(void *ud, int level, const char *line)
{
	log_cap *c = ud;

	if (c->n < 8) {
		snprintf(c->lines[c->n], sizeof c->lines[0], "%s", line);
		c->levels[c->n] = level;
	}
	c->n++;
}

static int mailbox_error(void *ud, vs_gba_emu *e)
{
	(void)ud;
	return vs_gba_emu_read32(e, VS_GBA_MAILBOX_ADDR + 8) == VS_GBA_ST_ERROR;
}

/* The bare cycles ROM (no request block appended): it boots without a BIOS,
 * sets WAITCNT, prints its greeting through the debug log, and reports the
 * missing request block in the mailbox. */
START_TEST(test_boots_logs_and_reports)
{
	char path[512], err[256];
	log_cap cap;
	vs_gba_emu *e;

	rom_path(VS_GBA_CODE_THUMB_ROM, path, sizeof path);
	memset(&cap, 0, sizeof cap);
	e = vs_gba_emu_open_file(path, err, sizeof err);
	ck_assert_msg(e != NULL, "%s", err);
	vs_gba_emu_set_log(e, cap_line, &cap);
	ck_assert_int_eq(vs_gba_emu_run_until(e, mailbox_error, NULL, 10), 1);
	ck_assert_uint_le(vs_gba_emu_frames(e), 10);
	ck_assert_uint_eq(vs_gba_emu_read32(e, VS_GBA_MAILBOX_ADDR), VS_GBA_MB_MAGIC);
	ck_assert_uint_eq(vs_gba_emu_read32(e, VS_GBA_MAILBOX_ADDR + 12), VS_GBA_E_NO_REQUESTS);
	ck_assert_uint_eq(vs_gba_emu_read16(e, 0x04000204), 0x4317);
	ck_assert_int_eq(cap.n, 1);
	ck_assert_int_eq(cap.levels[0], 3);
	ck_assert_msg(strncmp(cap.lines[0], "vramsim cycles: WAITCNT=0x00004317 code=thumb-rom overhead=", 59) == 0,
		"greeting: %s", cap.lines[0]);
	/* The bus goes both ways between frames: EWRAM and IWRAM. */
	vs_gba_emu_write32(e, 0x0203F000, 0xA5C3E1F0u);
	ck_assert_uint_eq(vs_gba_emu_read32(e, 0x0203F000), 0xA5C3E1F0u);
	ck_assert_uint_eq(vs_gba_emu_read16(e, 0x0203F002), 0xA5C3u);
	ck_assert_uint_eq(vs_gba_emu_read8(e, 0x0203F001), 0xE1u);
	vs_gba_emu_write16(e, 0x03006000, 0x1234);
	vs_gba_emu_write8(e, 0x03006002, 0x56);
	{
		unsigned char b[4];

		vs_gba_emu_read(e, 0x03006000, b, 3);
		ck_assert_uint_eq(b[0], 0x34);
		ck_assert_uint_eq(b[1], 0x12);
		ck_assert_uint_eq(b[2], 0x56);
	}
	/* The program idles; frames go on, no more lines. */
	ck_assert_uint_eq(vs_gba_emu_run_frames(e, 3), 3);
	ck_assert_int_eq(cap.n, 1);
	vs_gba_emu_close(e);
}
END_TEST

/* Long random sequences, both code placements: GBA == host, call by call. */
START_TEST(test_matches_host)
{
	static const uint64_t seeds[] = { 1, 2, 0xBADC0FFEEULL };
	char path[512];
	int code = _i;
	size_t k;

	rom_path(code, path, sizeof path);
	for (k = 0; k < sizeof seeds / sizeof seeds[0]; k++) {
		seq s = random_seq(seeds[k], 3000, k == 2 ? 400 : 96);
		vs_gba_cycles_info info;
		vs_gba_result *res = check_on_gba(path, &s, k == 1 ? 512 : 0, &info);

		ck_assert_uint_eq(info.code, (uint32_t)code);
		free(res);
		seq_free(&s);
	}
}
END_TEST

/* More results than the mailbox holds: the chunk hand-over works. */
START_TEST(test_chunks)
{
	char path[512];
	seq s;
	vs_gba_cycles_info info;
	vs_gba_result *res;

	rom_path(VS_GBA_CODE_ARM_IWRAM, path, sizeof path);
	s = random_seq(77, VS_GBA_RESULT_CAP * 2 + 123, 64);
	res = check_on_gba(path, &s, 0, &info);
	free(res);
	seq_free(&s);
}
END_TEST

/* A run that cannot finish stops at its frame limit with a message. */
START_TEST(test_frame_limit)
{
	char path[512], err[256];
	seq s;
	vs_gba_result *res;
	uint32_t param[4] = { 0, 0, 0, 0 };

	rom_path(VS_GBA_CODE_THUMB_ROM, path, sizeof path);
	s = random_seq(5, 20000, 64);
	res = calloc(s.n, sizeof *res);
	ck_assert_int_eq(vs_gba_cycles_run(path, VS_GBA_STRAT_GBA_OBJ_MAP, param, s.rq, s.n, res,
		NULL, 2, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "did not finish within 2 frames") != NULL, "%s", err);
	free(res);
	seq_free(&s);
}
END_TEST

/* A strategy the ROM does not carry is reported, not run. */
START_TEST(test_unknown_strategy)
{
	char path[512], err[256];
	vs_gba_req rq = { VS_GBA_OP_ALLOC, 0, 0, 1 };
	vs_gba_result res;

	rom_path(VS_GBA_CODE_THUMB_ROM, path, sizeof path);
	ck_assert_int_eq(vs_gba_cycles_run(path, 999, NULL, &rq, 1, &res, NULL, 0, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "error 3") != NULL, "%s", err);
}
END_TEST

static void stats(const seq *s, const vs_gba_result *res, int op, double *mean, uint32_t *max)
{
	uint64_t sum = 0;
	uint32_t n = 0, i;

	*max = 0;
	for (i = 0; i < s->n; i++) {
		if (s->rq[i].op != op)
			continue;
		sum += res[i].cycles;
		n++;
		if (res[i].cycles > *max)
			*max = res[i].cycles;
	}
	*mean = n ? (double)sum / n : 0;
}

/* The anchor workload: results match the host, the figures are printed
 * (docs/on-target.md records them), the emulator is deterministic, ARM in
 * IWRAM beats Thumb in ROM, and allocation costs more than freeing. */
START_TEST(test_anchor)
{
	char thumb[512], arm[512];
	double am[2], fm[2];
	uint32_t ax[2], fx[2];
	int c;

	rom_path(VS_GBA_CODE_THUMB_ROM, thumb, sizeof thumb);
	rom_path(VS_GBA_CODE_ARM_IWRAM, arm, sizeof arm);
	for (c = 0; c < 2; c++) {
		seq s = anchor_seq();
		vs_gba_cycles_info info;
		vs_gba_result *a = check_on_gba(c ? arm : thumb, &s, 0, &info);
		vs_gba_result *b = check_on_gba(c ? arm : thumb, &s, 0, &info);
		uint32_t i;

		for (i = 0; i < s.n; i++)
			ck_assert_uint_eq(a[i].cycles, b[i].cycles);
		stats(&s, a, VS_GBA_OP_ALLOC, &am[c], &ax[c]);
		stats(&s, a, VS_GBA_OP_FREE, &fm[c], &fx[c]);
		printf("anchor gba-obj-map %s WAITCNT=0x%04x overhead=%u: alloc mean %.0f max %u, "
			"free mean %.0f max %u cycles\n", c ? "arm-iwram" : "thumb-rom",
			(unsigned)info.waitcnt, (unsigned)info.overhead, am[c], (unsigned)ax[c], fm[c], (unsigned)fx[c]);
		ck_assert(am[c] > fm[c]);
		free(a);
		free(b);
		seq_free(&s);
	}
	ck_assert(am[1] < am[0]);
	ck_assert(fm[1] < fm[0]);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("gba_emu");
	TCase *tc = tcase_create("emu");
	TCase *roms = vs_test_tcase_apart(s, "cycles_roms",
		vs_test_rom_missing("cycles-thumb.gba", "cycles-arm.gba", NULL));

	tcase_set_timeout(tc, 120);
	tcase_set_timeout(roms, 120);
	tcase_add_test(tc, test_rejects_non_rom);
	tcase_add_test(roms, test_boots_logs_and_reports);
	tcase_add_loop_test(roms, test_matches_host, VS_GBA_CODE_THUMB_ROM, VS_GBA_CODE_ARM_IWRAM + 1);
	tcase_add_test(roms, test_chunks);
	tcase_add_test(roms, test_frame_limit);
	tcase_add_test(roms, test_unknown_strategy);
	tcase_add_test(roms, test_anchor);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vs_test_main(suite());
}
