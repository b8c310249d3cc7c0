/* SPDX-License-Identifier: Zlib */
/* test_ds_rom.c - the DS demo ROM (src/console/ds/rom, built by
 * cmake/parts/ds_rom.cmake) is a well-formed cartridge image, checked
 * without an emulator: the header fields GBATEK's "DS Cartridge Header"
 * gives (title, game code, unit code, both CPUs' offsets, entry and load
 * addresses and sizes, chip size, ROM size used), both CRC-16s, the
 * binaries where the header says, and no copy of the record ring's magic
 * in the image (the game writes it at run time, so the host finds only the
 * live ring). Also vs_ndspack's refusals, and a DS emulator core path
 * that is a FIFO refused before the core is loaded. Skipped when the ROM
 * was not built (no arm-none-eabi-gcc).
 */
#define _GNU_SOURCE /* mkfifo */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "support.h"
#include "console/common/rom_kind.h"

#define ROM VS_BINARY_DIR "/ds/demo.nds"

static unsigned char *rom;
static size_t rom_len;

static uint32_t rd32(size_t at)
{
	return (uint32_t)rom[at] | (uint32_t)rom[at + 1] << 8 | (uint32_t)rom[at + 2] << 16 |
		(uint32_t)rom[at + 3] << 24;
}

static uint16_t rd16(size_t at)
{
	return (uint16_t)(rom[at] | rom[at + 1] << 8);
}

static void load_rom(void)
{
	FILE *fp = fopen(ROM, "rb");

	ck_assert_msg(fp != NULL, "cannot read %s", ROM);
	rom = (unsigned char *)vs_test_slurp_stream(fp, &rom_len);
	fclose(fp);
	ck_assert_uint_ge(rom_len, 0x200);
}

static void free_rom(void)
{
	free(rom);
	rom = NULL;
}

START_TEST(crc16_is_the_modbus_variant)
{
	/* CRC-16/MODBUS's check value, and GBATEK's logo CRC of the real logo
	 * is not ours to test with (the logo is Nintendo's) */
	ck_assert_uint_eq(vs_rom_kind_crc16("123456789", 9), 0x4B37);
	ck_assert_uint_eq(vs_rom_kind_crc16("", 0), 0xFFFF);
}
END_TEST

START_TEST(header_names_the_program)
{
	static const char zero[8];

	ck_assert(memcmp(rom, "VRAMSIM-DEMO", 12) == 0);
	ck_assert(memcmp(rom + 0x0C, "VSDM", 4) == 0);
	ck_assert(memcmp(rom + 0x10, "00", 2) == 0);
	ck_assert_uint_eq(rom[0x12], 0); /* unit code: Nintendo DS */
	ck_assert_uint_eq(rom[0x13], 0);
	ck_assert(memcmp(rom + 0x15, zero, 7) == 0);
	ck_assert_uint_eq(rd32(0x84), 0x4000); /* header size */
}
END_TEST

START_TEST(header_places_both_binaries)
{
	uint32_t a9 = rd32(0x20), a7 = rd32(0x30);

	/* ARM9: right after the 512-byte header, loaded and entered at the
	 * start of main RAM */
	ck_assert_uint_eq(a9, 0x200);
	ck_assert_uint_eq(rd32(0x24), 0x02000000);
	ck_assert_uint_eq(rd32(0x28), 0x02000000);
	ck_assert_uint_gt(rd32(0x2C), 0);
	ck_assert_uint_le(a9 + rd32(0x2C), a7);
	/* ARM7: on a 512-byte boundary, in the ARM7's shared and own WRAM */
	ck_assert_uint_eq(a7 % 0x200, 0);
	ck_assert_uint_eq(rd32(0x34), 0x037F8000);
	ck_assert_uint_eq(rd32(0x38), 0x037F8000);
	ck_assert_uint_gt(rd32(0x3C), 0);
	ck_assert_uint_le(rd32(0x3C), 0x18000);
	ck_assert_uint_le(a7 + rd32(0x3C), rom_len);
	/* no file system, no overlays */
	ck_assert_uint_eq(rd32(0x40) | rd32(0x44) | rd32(0x48) | rd32(0x4C), 0);
	ck_assert_uint_eq(rd32(0x50) | rd32(0x54) | rd32(0x58) | rd32(0x5C), 0);
	/* ROM size used: the whole image; the chip (128 KiB << n) holds it */
	ck_assert_uint_eq(rd32(0x80), rom_len);
	ck_assert_uint_lt(rom[0x14], 12);
	ck_assert_uint_ge(0x20000u << rom[0x14], rom_len);
	ck_assert(rom[0x14] == 0 || (0x20000u << (rom[0x14] - 1)) < rom_len);
}
END_TEST

START_TEST(header_crcs_hold)
{
	ck_assert_uint_eq(rd16(0x15E), vs_rom_kind_crc16(rom, 0x15E));
	ck_assert_uint_eq(rd16(0x15C), vs_rom_kind_crc16(rom + 0xC0, 156));
	/* and a changed byte breaks the header's */
	rom[0x00] ^= 1;
	ck_assert_uint_ne(rd16(0x15E), vs_rom_kind_crc16(rom, 0x15E));
}
END_TEST

/* The binaries the build linked are where the header says. */
START_TEST(binaries_are_the_built_ones)
{
	static const char *const bins[2] = { VS_BINARY_DIR "/ds/demo-arm9.bin", VS_BINARY_DIR "/ds/arm7.bin" };
	static const size_t at[2] = { 0x20, 0x30 };
	int i;

	for (i = 0; i < 2; i++) {
		FILE *fp = fopen(bins[i], "rb");
		size_t n;
		char *b;

		ck_assert_msg(fp != NULL, "cannot read %s", bins[i]);
		b = vs_test_slurp_stream(fp, &n);
		fclose(fp);
		ck_assert_uint_eq(n, rd32(at[i] + 12));
		ck_assert(memcmp(rom + rd32(at[i]), b, n) == 0);
		free(b);
	}
}
END_TEST

START_TEST(image_holds_no_ring_magic)
{
	size_t i;

	for (i = 0; i + 8 <= rom_len; i++)
		ck_assert_msg(memcmp(rom + i, "vsRING1", 8) != 0, "the ring's magic at 0x%zx of %s", i, ROM);
}
END_TEST

/* vs_ndspack refuses what it cannot pack, exit 2 with the reason, and
 * leaves nothing at the output path. */
START_TEST(ndspack_refuses_bad_input)
{
	static const char *const bad[][2] = {
		{ "TITLE-TOO-LONG-X VSDM %s 0x02000000 %s 0x037F8000", "longer than 12" },
		{ "T vsdm %s 0x02000000 %s 0x037F8000", "A-Z and 0-9" },
		{ "T VSDM %s 0x01000000 %s 0x037F8000", "ARM9 address" },
		{ "T VSDM %s 0x02000000 %s 0x037F8002", "ARM7 address" },
		{ "T VSDM %s 0x02000000 /nonexistent 0x037F8000", "cannot read /nonexistent" },
	};
	const char *out = vs_test_path("bad.nds"), *msgs = vs_test_path("bad.txt");
	size_t i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char args[1024], cmd[4096];
		char *text;
		int rc;

		snprintf(args, sizeof args, bad[i][0], VS_BINARY_DIR "/ds/demo-arm9.bin", VS_BINARY_DIR "/ds/arm7.bin");
		snprintf(cmd, sizeof cmd, "%s/vs_ndspack %s %s >%s 2>&1", VS_BINARY_DIR, out, args, msgs);
		rc = system(cmd);
		text = vs_test_slurp(msgs);
		remove(msgs);
		ck_assert(text != NULL);
		ck_assert_msg(WIFEXITED(rc) && WEXITSTATUS(rc) == 2, "%s: %s", cmd, text);
		ck_assert_msg(strstr(text, bad[i][1]) != NULL, "%s: %s", cmd, text);
		ck_assert(!vs_test_exists(out));
		free(text);
	}
}
END_TEST

/* VRAMSIM_DESMUME_CORE naming a FIFO: dlopen waited for a writer for ever;
 * the path is refused, exit 2 (no core is needed: none is loaded). Under
 * `timeout 10`, so a hang fails the case. */
START_TEST(core_path_that_is_a_fifo)
{
	char fifo[1024], out[4096], err[4096];
	int rc;

	snprintf(fifo, sizeof fifo, "%s", vs_test_path("core.fifo"));
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	rc = vs_test_cli(out, sizeof out, err, sizeof err, "--version >/dev/null && VRAMSIM_DESMUME_CORE='%s' exec "
		"timeout 10 %s record %s --frames 5 -o '%s'", fifo, VS_VRAMSIM, ROM, vs_test_path("o.trace"));
	ck_assert_msg(rc == 2, "exit %d: %s", rc, err);
	ck_assert_msg(strstr(err, "core.fifo: cannot read: not a regular file (the DS emulator core"), "%s", err);
	ck_assert(!vs_test_exists(vs_test_path("o.trace")));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("ds_rom");
	TCase *tc = tcase_create("core");

	vs_test_require(vs_test_exists(ROM) ? NULL : ROM " was not built (install gcc-arm-none-eabi and rebuild)");
	tcase_add_checked_fixture(tc, load_rom, free_rom);
	tcase_add_test(tc, crc16_is_the_modbus_variant);
	tcase_add_test(tc, header_names_the_program);
	tcase_add_test(tc, header_places_both_binaries);
	tcase_add_test(tc, header_crcs_hold);
	tcase_add_test(tc, binaries_are_the_built_ones);
	tcase_add_test(tc, image_holds_no_ring_magic);
	tcase_add_test(tc, ndspack_refuses_bad_input);
	tcase_add_test(tc, core_path_that_is_a_fifo);
	suite_add_tcase(s, tc);
	return vs_test_main(s);
}
