/* SPDX-License-Identifier: Zlib */
/* ds_test_rom.h - tiny DS ROM images made by the tests themselves, for the
 * header check and for the emulator: a valid header (GBATEK's layout and
 * CRC-16) around a few hand-assembled ARM instructions, so no toolchain
 * and no ROM file is needed; and the skip of a suite, or of a TCase, that
 * boots the emulator where its core is missing. */
#ifndef VS_DS_TEST_ROM_H
#define VS_DS_TEST_ROM_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "console/common/rom_kind.h"
#include "console/ds/ds_core.h"

/* ARM instructions (ARM state, condition "always" unless named). */
#define ARM_LOOP 0xEAFFFFFEu        /* b .  */
#define ARM_UDF 0xE7F000F0u         /* udf #0: DeSmuME halts the machine on it */
#define ARM_MOV_R0_4M 0xE3A00501u   /* mov r0, #0x400000 */
#define ARM_SUBS_R0_1 0xE2500001u   /* subs r0, r0, #1 */
#define ARM_BNE_BACK1 0x1AFFFFFDu   /* bne to the instruction before */

#define DS_TEST_ARM9_BYTES 0x1000u  /* ARM9 binary: code at 0, a ring at 0x100 */
#define DS_TEST_RING_OFF 0x100u
#define DS_TEST_ROM_BYTES (0x200u + DS_TEST_ARM9_BYTES + 0x10u)

static inline void ds_test_put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static inline uint32_t ds_test_get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Sets the header checksum after an edit of the header. */
static inline void ds_test_rom_seal(uint8_t *rom)
{
	uint16_t crc = vs_rom_kind_crc16(rom, 0x15E);

	rom[0x15E] = (uint8_t)crc;
	rom[0x15F] = (uint8_t)(crc >> 8);
}

/* A ROM image of DS_TEST_ROM_BYTES in rom: title, ARM9 at 0x02000000 with
 * code (n words) and, when ring_text is not NULL, a record.h ring of 256
 * bytes holding it at 0x02000100; ARM7 at 0x02380000 spinning. */
static inline void ds_test_rom_make(uint8_t *rom, const char *title, const uint32_t *code, size_t n,
	const char *ring_text)
{
	uint8_t *arm9 = rom + 0x200, *arm7 = arm9 + DS_TEST_ARM9_BYTES;
	size_t i;

	memset(rom, 0, DS_TEST_ROM_BYTES);
	memcpy(rom, title, strlen(title) < 12 ? strlen(title) : 12);
	memcpy(rom + 0x0C, "VSTE", 4);
	memcpy(rom + 0x10, "01", 2);
	ds_test_put32(rom + 0x20, 0x200);
	ds_test_put32(rom + 0x24, 0x02000000u);
	ds_test_put32(rom + 0x28, 0x02000000u);
	ds_test_put32(rom + 0x2C, DS_TEST_ARM9_BYTES);
	ds_test_put32(rom + 0x30, 0x200 + DS_TEST_ARM9_BYTES);
	ds_test_put32(rom + 0x34, 0x02380000u);
	ds_test_put32(rom + 0x38, 0x02380000u);
	ds_test_put32(rom + 0x3C, 0x10);
	ds_test_put32(rom + 0x80, DS_TEST_ROM_BYTES);
	ds_test_put32(rom + 0x84, 0x200);
	for (i = 0; i < n; i++)
		ds_test_put32(arm9 + 4 * i, code[i]);
	ds_test_put32(arm7, ARM_LOOP);
	if (ring_text) {
		uint8_t *r = arm9 + DS_TEST_RING_OFF;
		size_t len = strlen(ring_text);

		memcpy(r, "vsRING1", 8);
		ds_test_put32(r + 8, 0x02000000u + DS_TEST_RING_OFF);
		ds_test_put32(r + 12, 256);
		ds_test_put32(r + 16, (uint32_t)len);
		memcpy(r + 24, ring_text, len < 256 ? len : 256);
	}
	ds_test_rom_seal(rom);
}

/* Writes n bytes to path; 0 or -1. */
static inline int ds_test_write(const char *path, const void *data, size_t n)
{
	FILE *fp = fopen(path, "wb");
	int ok = fp && fwrite(data, 1, n, fp) == n;

	if (fp && fclose(fp) != 0)
		ok = 0;
	return ok ? 0 : -1;
}

/* NULL when DeSmuME's core can be loaded, else why not: the missing of a
 * TCase apart whose cases boot it (vs_test_tcase_apart). */
static inline const char *ds_test_core_missing(void)
{
	static char why[1200];

	return vs_ds_core_available(why, sizeof why) < 0 ? why : NULL;
}

/* For a suite whose every case boots DeSmuME: called first in main, skips
 * it (vs_test_require) when the core cannot be loaded, saying why. */
static inline void ds_test_require_core(void)
{
	vs_test_require(ds_test_core_missing());
}

#endif
