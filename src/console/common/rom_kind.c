/* SPDX-License-Identifier: Zlib */
/* rom_kind.c - which console a ROM image is for (see rom_kind.h). */
#include "console/common/rom_kind.h"

#include <fcntl.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

uint16_t vs_rom_kind_crc16(const void *data, size_t len)
{
	const uint8_t *p = data;
	uint32_t crc = 0xFFFFu;
	int bit;

	while (len--) {
		crc ^= *p++;
		for (bit = 0; bit < 8; bit++)
			crc = crc & 1u ? (crc >> 1) ^ 0xA001u : crc >> 1;
	}
	return (uint16_t)crc;
}

int vs_rom_kind_of(const uint8_t *head, size_t len)
{
	if (len >= 0x160 && vs_rom_kind_crc16(head, 0x15E) == (uint16_t)(head[0x15E] | head[0x15F] << 8))
		return VS_ROM_KIND_DS;
	if (len >= 0xC0 && head[0xB2] == 0x96)
		return VS_ROM_KIND_GBA;
	return VS_ROM_KIND_UNKNOWN;
}

int vs_rom_kind_file(const char *path)
{
	uint8_t head[VS_ROM_KIND_HEAD];
	size_t n = strlen(path);
	ssize_t got;
	struct stat st;
	int fd;

	if (n > 4 && strcasecmp(path + n - 4, ".nds") == 0)
		return VS_ROM_KIND_DS;
	/* only a regular file is read: the bytes of a pipe (an input script
	 * given as <(...)) belong to whoever reads it next, and a FIFO is not
	 * even opened (that waits for a writer: shell completion would hang) */
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return VS_ROM_KIND_UNKNOWN;
	/* O_NONBLOCK: should it have become a FIFO since */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return VS_ROM_KIND_UNKNOWN;
	got = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? read(fd, head, sizeof head) : -1;
	close(fd);
	return got > 0 ? vs_rom_kind_of(head, (size_t)got) : VS_ROM_KIND_UNKNOWN;
}
