/* SPDX-License-Identifier: Zlib */
/* ds_rom.c - checks a DS ROM image's header before it runs (see ds_rom.h). */
#include "console/ds/ds_rom.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/in_file.h"
#include "base/text.h"
#include "console/common/rom_kind.h"
#include "console/common/sha256.h"
#include "console/ds/ds_int.h"

static void ascii(char *out, const uint8_t *in, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		out[i] = in[i] >= 0x20 && in[i] < 0x7F ? (char)in[i] : in[i] ? '?' : '\0';
	out[n] = '\0';
}

/* Where a binary may load: main RAM (4 MiB at 0x02000000) for both CPUs,
 * and for the ARM7 also its own WRAM (0x037F8000-0x0380FFFF). */
static int fits_ram(uint32_t ram, uint32_t size, int arm7)
{
	uint64_t end = (uint64_t)ram + size;

	if (ram >= 0x02000000u && end <= 0x02400000u)
		return 1;
	return arm7 && ram >= 0x037F8000u && end <= 0x03810000u;
}

static int check_binary(const char *cpu, uint32_t off, uint32_t entry, uint32_t ram, uint32_t size, size_t image,
	int arm7, char *err, size_t errlen)
{
	if (size == 0) {
		snprintf(err, errlen, "not a runnable DS ROM: the %s binary is empty", cpu);
		return -1;
	}
	if (off < VS_DS_HEADER_BYTES || (uint64_t)off + size > image) {
		snprintf(err, errlen, "not a runnable DS ROM: the %s binary (0x%X bytes at offset 0x%X) lies outside the "
			"file (0x%zX bytes)%s", cpu, (unsigned)size, (unsigned)off, image,
			(uint64_t)off + size > image && off < image ? ": truncated?" : "");
		return -1;
	}
	if (!fits_ram(ram, size, arm7)) {
		snprintf(err, errlen, "not a runnable DS ROM: the %s binary (0x%X bytes) loads at 0x%08X, outside the "
			"memory it may load into", cpu, (unsigned)size, (unsigned)ram);
		return -1;
	}
	if (entry < ram || entry >= ram + size) {
		snprintf(err, errlen, "not a runnable DS ROM: the %s entry point 0x%08X is outside its binary "
			"(0x%08X-0x%08X)", cpu, (unsigned)entry, (unsigned)ram, (unsigned)(ram + size - 1));
		return -1;
	}
	return 0;
}

void vs_ds_rom_names(const uint8_t *h, vs_ds_rom_info *info)
{
	ascii(info->title, h, 12);
	ascii(info->code, h + 0x0C, 4);
	ascii(info->maker, h + 0x10, 2);
}

int vs_ds_rom_check(const uint8_t *h, size_t size, vs_ds_rom_info *info, char *err, size_t errlen)
{
	uint16_t crc;

	memset(info, 0, sizeof *info);
	if (size < VS_DS_HEADER_BYTES) {
		snprintf(err, errlen, "not a DS ROM: %zu bytes, shorter than the 512-byte header%s", size,
			size >= 0xC0 && h[0xB2] == 0x96 ? " (a GBA ROM?)" : "");
		return -1;
	}
	if (size > VS_DS_ROM_MAX) {
		snprintf(err, errlen, "not a DS ROM: larger than 512 MiB");
		return -1;
	}
	crc = vs_rom_kind_crc16(h, 0x15E);
	info->header_crc = (uint16_t)(h[0x15E] | h[0x15F] << 8);
	if (crc != info->header_crc) {
		if (h[0xB2] == 0x96)
			snprintf(err, errlen, "not a DS ROM: a GBA ROM (its cartridge header has 0x96 at 0xB2); "
				"vramsim runs GBA ROMs in libmgba");
		else
			snprintf(err, errlen, "not a DS ROM: the header checksum at 0x15E is 0x%04X, the header's "
				"CRC-16 is 0x%04X", (unsigned)info->header_crc, (unsigned)crc);
		return -1;
	}
	vs_ds_rom_names(h, info);
	info->unit = h[0x12];
	if (info->unit != 0 && info->unit != 2 && info->unit != 3) {
		snprintf(err, errlen, "not a DS ROM: unit code %u (0 NDS, 2 NDS+DSi, 3 DSi)", (unsigned)info->unit);
		return -1;
	}
	info->arm9_offset = vs_ds_le32(h + 0x20);
	info->arm9_entry = vs_ds_le32(h + 0x24);
	info->arm9_ram = vs_ds_le32(h + 0x28);
	info->arm9_size = vs_ds_le32(h + 0x2C);
	info->arm7_offset = vs_ds_le32(h + 0x30);
	info->arm7_entry = vs_ds_le32(h + 0x34);
	info->arm7_ram = vs_ds_le32(h + 0x38);
	info->arm7_size = vs_ds_le32(h + 0x3C);
	if (check_binary("ARM9", info->arm9_offset, info->arm9_entry, info->arm9_ram, info->arm9_size, size, 0, err,
		errlen) < 0 || check_binary("ARM7", info->arm7_offset, info->arm7_entry, info->arm7_ram, info->arm7_size,
		size, 1, err, errlen) < 0)
		return -1;
	info->size = size;
	vs_sha256_hex(h, size, info->sha256);
	return 0;
}

uint8_t *vs_ds_file_read(const char *path, size_t max, const char *what, size_t *size, char *err, size_t errlen)
{
	/* an input (no output of the run may replace it), never a FIFO's wait */
	FILE *fp = vs_in_open_file(path, err, errlen);
	uint8_t *buf = NULL;
	long len = 0;

	if (!fp)
		return NULL;
	if (fseek(fp, 0, SEEK_END) != 0 || (len = ftell(fp)) < 0 || fseek(fp, 0, SEEK_SET) != 0)
		vs_text_path_msg(err, errlen, path, "cannot read: %s", strerror(errno));
	else if ((unsigned long)len > max)
		vs_text_path_msg(err, errlen, path, "%s: larger than %zu MiB", what, max >> 20);
	else if (!(buf = malloc(len ? (size_t)len : 1)))
		vs_text_path_msg(err, errlen, path, "out of memory");
	else if (fread(buf, 1, (size_t)len, fp) != (size_t)len) {
		vs_text_path_msg(err, errlen, path, "read error: %s", ferror(fp) ? strerror(errno) : "it ended early");
		free(buf);
		buf = NULL;
	}
	fclose(fp);
	if (!buf)
		return NULL;
	*size = (size_t)len;
	return buf;
}

uint8_t *vs_ds_rom_load(const char *path, size_t *size, vs_ds_rom_info *info, char *err, size_t errlen)
{
	uint8_t *buf = vs_ds_file_read(path, VS_DS_ROM_MAX, "not a DS ROM", size, err, errlen);
	char why[512];

	if (buf && vs_ds_rom_check(buf, *size, info, why, sizeof why) < 0) {
		vs_text_path_msg(err, errlen, path, "%s", why);
		free(buf);
		return NULL;
	}
	return buf;
}
