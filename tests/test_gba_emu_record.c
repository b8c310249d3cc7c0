/* test_gba_emu_record.c - recording a running game, and the host's VRAM
 * against the emulated GBA's.
 *
 * The demo ROM (tools/demo-rom) runs a scripted sprite scene with the seed's
 * OBJ allocation map and prints its trace through record.h. At several
 * frames the trace recorded so far is replayed on the host with the same
 * strategy: no divergence (every at= the game printed is where the host
 * placed it), no failed check, and every live allocation's bytes in the
 * host's model equal the bytes in the GBA's OBJ VRAM, read through libmgba.
 * Skips with a message without libmgba or the demo ROM.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "vramsim/gba_emu.h"
#include "vramsim/replay.h"

#define DEMO_ROM VS_BINARY_DIR "/gba/demo.gba"

static int have_demo(void)
{
	FILE *fp;

	if (!vs_gba_emu_available()) {
		printf("test_gba_emu_record: skipped: %s\n", vs_gba_emu_missing());
		return 0;
	}
	fp = fopen(DEMO_ROM, "rb");
	if (!fp) {
		printf("test_gba_emu_record: skipped: %s not built (needs arm-none-eabi-gcc)\n", DEMO_ROM);
		return 0;
	}
	fclose(fp);
	return 1;
}

typedef struct cmp_ctx {
	const vs_arena *arena;
	vs_gba_emu *emu;
	uint32_t live, bytes, bad;
} cmp_ctx;

static void compare_live(void *ud, const vs_live *l)
{
	cmp_ctx *c = ud;
	uint32_t i, n = l->req.size;
	uint8_t *gba = malloc(n);

	ck_assert_ptr_nonnull(gba);
	vs_gba_emu_read(c->emu, c->arena->decl.base + l->pl.offset, gba, n);
	for (i = 0; i < n; i++)
		if (gba[i] != c->arena->bytes[l->pl.offset + i]) {
			if (c->bad++ < 5)
				fprintf(stderr, "id %llu byte %u at 0x%08x: GBA 0x%02x, host 0x%02x\n",
					(unsigned long long)l->id, i, (unsigned)(c->arena->decl.base + l->pl.offset + i),
					gba[i], c->arena->bytes[l->pl.offset + i]);
		}
	c->live++;
	c->bytes += n;
	free(gba);
}

/* Replays the trace text recorded so far and compares with the GBA now. */
static void check_at(vs_gba_emu *e, const char *text, size_t len, uint32_t *live_out)
{
	char err[512];
	FILE *fp = fmemopen((void *)text, len, "r");
	vs_trace_reader *rd;
	vs_replay_config cfg;
	vs_replay *r;
	cmp_ctx c;

	ck_assert_ptr_nonnull(fp);
	rd = vs_trace_open_stream(fp, "demo.trace", err, sizeof err);
	ck_assert_msg(rd != NULL, "%s", err);
	vs_replay_config_default(&cfg);
	r = vs_replay_new(rd, &cfg, err, sizeof err);
	ck_assert_msg(r != NULL, "%s", err);
	ck_assert_int_eq(vs_replay_run(r, 0), 0);
	ck_assert_str_eq(vs_replay_strategy(r, 0)->name, "gba-obj-map");
	ck_assert_uint_eq(vs_replay_diag_total(r), 0);
	ck_assert_uint_eq(vs_replay_check_total(r), 0);
	memset(&c, 0, sizeof c);
	c.arena = vs_replay_arena(r, 0);
	c.emu = e;
	vs_replay_live_walk(r, compare_live, &c);
	ck_assert_msg(c.bad == 0, "%u bytes of %u live allocations differ", c.bad, c.live);
	*live_out = c.live;
	vs_replay_free(r);
	fclose(fp);
}

START_TEST(test_record_and_compare_vram)
{
	static const uint32_t at[] = { 2, 40, 250, 700 };
	char err[512], *text = NULL;
	size_t len = 0, k;
	uint32_t done = 0, live = 0, max_live = 0;
	vs_gba_recorder rec;
	vs_gba_emu *e;
	FILE *mem;

	if (!have_demo())
		return;
	mem = open_memstream(&text, &len);
	ck_assert_ptr_nonnull(mem);
	memset(&rec, 0, sizeof rec);
	rec.out = mem;
	e = vs_gba_emu_open_file(DEMO_ROM, err, sizeof err);
	ck_assert_msg(e != NULL, "%s", err);
	vs_gba_recorder_attach(&rec, e);
	for (k = 0; k < sizeof at / sizeof at[0]; k++) {
		vs_gba_emu_run_frames(e, at[k] - done);
		done = at[k];
		fflush(mem);
		ck_assert_uint_gt(rec.lines, 1);
		ck_assert_int_eq(strncmp(text, "vramsim-trace 1\narena obj gba-obj strategy=gba-obj-map\n", 55), 0);
		check_at(e, text, len, &live);
		if (live > max_live)
			max_live = live;
	}
	/* The script ran out (600 frames) and said so; sprites were live. */
	ck_assert_ptr_nonnull(strstr(text, "# end of the script\n"));
	ck_assert_uint_gt(max_live, 10);
	ck_assert_uint_eq(rec.others, 0);
	ck_assert_int_eq(rec.write_error, 0);
	vs_gba_emu_close(e);
	fclose(mem);
	free(text);
}
END_TEST

/* vs_gba_record runs a ROM for N frames and writes its trace; a program
 * that prints none of it writes nothing and counts its other lines. */
START_TEST(test_record_file)
{
	char err[512], path[512], rom[512], cyc[512], *buf;
	vs_gba_recorder rec;
	FILE *fp;
	long n;

	if (!have_demo())
		return;
	snprintf(rom, sizeof rom, "%s", DEMO_ROM);
	snprintf(path, sizeof path, "%s/tests/tmp-record.trace", VS_BINARY_DIR);
	fp = fopen(path, "wb");
	ck_assert_ptr_nonnull(fp);
	ck_assert_int_eq(vs_gba_record(rom, 10, fp, NULL, &rec, err, sizeof err), 0);
	fclose(fp);
	ck_assert_uint_ge(rec.lines, 10); /* header, frame markers, allocations */
	fp = fopen(path, "rb");
	ck_assert_ptr_nonnull(fp);
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	buf = calloc(1, (size_t)n + 1);
	ck_assert_int_eq(fread(buf, 1, (size_t)n, fp), n);
	fclose(fp);
	ck_assert_int_eq(strncmp(buf, "vramsim-trace 1\n", 16), 0);
	ck_assert_ptr_nonnull(strstr(buf, "\nframe\n"));
	free(buf);
	remove(path);

	if (vs_gba_cycles_rom(VS_GBA_CODE_THUMB_ROM, cyc, sizeof cyc, err, sizeof err)) {
		fp = tmpfile();
		ck_assert_int_eq(vs_gba_record(cyc, 3, fp, NULL, &rec, err, sizeof err), 0);
		ck_assert_uint_eq(rec.lines, 0);
		ck_assert_uint_eq(rec.others, 1); /* its greeting */
		fclose(fp);
	}
	ck_assert_int_eq(vs_gba_record(VS_BINARY_DIR "/missing.gba", 3, stdout, NULL, &rec, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "missing.gba"));
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("gba_emu_record");
	TCase *tc = tcase_create("record");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_record_and_compare_vram);
	tcase_add_test(tc, test_record_file);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vs_test_main(suite());
}
