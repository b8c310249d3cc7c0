/* SPDX-License-Identifier: Zlib */
/* fuzz_ds_rom.c - the .nds header check and the ROM kind sniff (vramsim
 * record|capture GAME.nds, before the emulator starts).
 *
 * Byte 0 picks how the rest is read: 0, a whole image; otherwise bytes
 * written over a valid header with its checksum set again after, so the
 * fuzzer gets past the CRC to the binaries' offsets, sizes and addresses. */
#include "fuzz_common.h"
#include "console/common/rom_kind.h"
#include "console/ds/ds_rom.h"

static uint8_t image[0x200 + 0x1000];

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];
	vs_ds_rom_info info;
	uint16_t crc;

	if (size == 0 || size > VS_FUZZ_MAX_INPUT)
		return 0;
	vs_rom_kind_of(data + 1, size - 1);
	if (data[0] == 0) {
		vs_ds_rom_check(data + 1, size - 1, &info, err, sizeof err);
		return 0;
	}
	memset(image, 0, sizeof image);
	put32(image + 0x20, 0x200);
	put32(image + 0x24, 0x02000000u);
	put32(image + 0x28, 0x02000000u);
	put32(image + 0x2C, 0x800);
	put32(image + 0x30, 0xA00);
	put32(image + 0x34, 0x02380000u);
	put32(image + 0x38, 0x02380000u);
	put32(image + 0x3C, 0x800);
	memcpy(image, data + 1, size - 1 < 0x15E ? size - 1 : 0x15E);
	crc = vs_rom_kind_crc16(image, 0x15E);
	image[0x15E] = (uint8_t)crc;
	image[0x15F] = (uint8_t)(crc >> 8);
	vs_ds_rom_check(image, data[0] == 1 ? sizeof image : 0x200u + data[0] * 16u, &info, err, sizeof err);
	return 0;
}
