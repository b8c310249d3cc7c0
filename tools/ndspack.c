/* SPDX-License-Identifier: Zlib */
/* ndspack.c - packs an ARM9 and an ARM7 binary into a Nintendo DS
 * cartridge image (.nds), with the header GBATEK's "DS Cartridge Header"
 * describes. The build makes vramsim's DS programs with it
 * (cmake/parts/ds_rom.cmake); it is no general ROM tool.
 *
 * usage: vs_ndspack OUT.nds TITLE GAMECODE ARM9.bin ARM9_ADDR ARM7.bin ARM7_ADDR
 *
 * Each binary is loaded at its address and entered at its first byte. The
 * image is the 512-byte header, the ARM9 binary at 0x200, the ARM7 binary
 * at the next 512-byte boundary, padded to one. Offsets below 0x4000 mark
 * a program without a secure area, as homebrew is built: loaders and
 * emulators take it as it is, with no secure-area decryption. The
 * Nintendo logo is left zero (a console's own firmware would refuse the
 * cartridge; flash carts and emulators do not check it); both CRC-16s are
 * filled in.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/options.h"
#include "base/out_file.h"
#include "console/common/rom_kind.h"

#define HEADER_SIZE 0x200u
#define ALIGN_TO 0x200u
#define BINARY_MAX (4u << 20)

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

static void put16(unsigned char *p, uint16_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
}

/* Reads a whole binary into a new buffer; NULL after a message. */
static unsigned char *read_binary(const char *path, uint32_t *len)
{
	FILE *fp = fopen(path, "rb");
	unsigned char *buf;
	long n;

	if (!fp) {
		fprintf(stderr, "vs_ndspack: cannot read %s: %s\n", path, strerror(errno));
		return NULL;
	}
	if (fseek(fp, 0, SEEK_END) || (n = ftell(fp)) < 0 || fseek(fp, 0, SEEK_SET)) {
		fprintf(stderr, "vs_ndspack: cannot read %s: %s\n", path, strerror(errno));
		fclose(fp);
		return NULL;
	}
	if (n == 0 || (unsigned long)n > BINARY_MAX) {
		fprintf(stderr, "vs_ndspack: %s: %ld bytes; a binary is 1 byte to 4 MiB\n", path, n);
		fclose(fp);
		return NULL;
	}
	buf = malloc((size_t)n);
	if (!buf || fread(buf, 1, (size_t)n, fp) != (size_t)n) {
		fprintf(stderr, "vs_ndspack: cannot read %s\n", path);
		free(buf);
		fclose(fp);
		return NULL;
	}
	fclose(fp);
	*len = (uint32_t)n;
	return buf;
}

static uint32_t align_up(uint32_t v)
{
	return (v + ALIGN_TO - 1u) & ~(ALIGN_TO - 1u);
}

/* The header's fields for one CPU: ROM offset, entry, RAM address, size. */
static void put_binary(unsigned char *h, uint32_t at, uint32_t offset, uint32_t addr, uint32_t size)
{
	put32(h + at, offset);
	put32(h + at + 4, addr);
	put32(h + at + 8, addr);
	put32(h + at + 12, size);
}

static int check_names(const char *title, const char *code)
{
	size_t i;

	if (strlen(title) > 12) {
		fprintf(stderr, "vs_ndspack: title \"%s\" is longer than 12 characters\n", title);
		return -1;
	}
	if (strlen(code) != 4) {
		fprintf(stderr, "vs_ndspack: game code \"%s\" is not 4 characters\n", code);
		return -1;
	}
	for (i = 0; title[i]; i++)
		if (title[i] < 0x20 || title[i] > 0x7E) {
			fprintf(stderr, "vs_ndspack: title \"%s\": printable ASCII only\n", title);
			return -1;
		}
	for (i = 0; i < 4; i++)
		if (!((code[i] >= 'A' && code[i] <= 'Z') || (code[i] >= '0' && code[i] <= '9'))) {
			fprintf(stderr, "vs_ndspack: game code \"%s\": A-Z and 0-9 only\n", code);
			return -1;
		}
	return 0;
}

/* Fills the header of an image of total bytes. */
static void make_header(unsigned char *h, const char *title, const char *code, uint32_t arm9_off,
	uint32_t arm9_addr, uint32_t arm9_len, uint32_t arm7_off, uint32_t arm7_addr, uint32_t arm7_len,
	uint32_t total)
{
	unsigned capacity = 0;

	memcpy(h, title, strlen(title));          /* 0x000 title, zero-padded */
	memcpy(h + 0x0C, code, 4);                /* 0x00C game code */
	memcpy(h + 0x10, "00", 2);                /* 0x010 maker code: none */
	h[0x12] = 0;                              /* unit code: Nintendo DS */
	while ((0x20000u << capacity) < total)
		capacity++;
	h[0x14] = (unsigned char)capacity;        /* chip size 128 KiB << n */
	put_binary(h, 0x20, arm9_off, arm9_addr, arm9_len);
	put_binary(h, 0x30, arm7_off, arm7_addr, arm7_len);
	put32(h + 0x60, 0x00586000u);             /* card control, normal commands */
	put32(h + 0x64, 0x001808F8u);             /* card control, KEY1 commands */
	put16(h + 0x6E, 0x051Eu);                 /* secure area delay */
	put32(h + 0x80, total);                   /* ROM size used */
	put32(h + 0x84, 0x4000u);                 /* header size */
	put16(h + 0x15C, vs_rom_kind_crc16(h + 0xC0, 156)); /* logo CRC (of the zero logo) */
	put16(h + 0x15E, vs_rom_kind_crc16(h, 0x15E));     /* header CRC */
}

static int parse_addr(const char *text, const char *what, uint32_t *addr)
{
	if (vs_option_number(text, 0x02000000u, 0x03FFFFFFu, addr) || (*addr & 3u)) {
		fprintf(stderr,
			"vs_ndspack: %s address \"%s\": a word-aligned address in RAM (0x02000000-0x03FFFFFF)\n", what,
			text);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned char *arm9 = NULL, *arm7 = NULL, *image = NULL;
	uint32_t arm9_len = 0, arm7_len = 0, arm9_addr, arm7_addr, arm7_off, total;
	vs_out_file out;
	char err[VS_OUT_PATH_MAX + 256];
	int rc = 2;

	if (argc != 8) {
		fprintf(stderr, "usage: vs_ndspack OUT.nds TITLE GAMECODE ARM9.bin ARM9_ADDR ARM7.bin ARM7_ADDR\n");
		return 2;
	}
	if (check_names(argv[2], argv[3]) || parse_addr(argv[5], "ARM9", &arm9_addr) ||
		parse_addr(argv[7], "ARM7", &arm7_addr))
		return 2;
	arm9 = read_binary(argv[4], &arm9_len);
	arm7 = arm9 ? read_binary(argv[6], &arm7_len) : NULL;
	if (!arm7)
		goto done;
	arm7_off = align_up(HEADER_SIZE + arm9_len);
	total = align_up(arm7_off + arm7_len);
	image = calloc(total, 1);
	if (!image) {
		fprintf(stderr, "vs_ndspack: out of memory\n");
		goto done;
	}
	memcpy(image + HEADER_SIZE, arm9, arm9_len);
	memcpy(image + arm7_off, arm7, arm7_len);
	make_header(image, argv[2], argv[3], HEADER_SIZE, arm9_addr, arm9_len, arm7_off, arm7_addr, arm7_len,
		total);
	if (vs_out_open(&out, argv[1], err, sizeof err)) {
		fprintf(stderr, "vs_ndspack: %s\n", err);
		goto done;
	}
	fwrite(image, 1, total, out.fp);
	if (vs_out_finish(&out, 1, err, sizeof err) || vs_out_commit(&out, 1, err, sizeof err)) {
		fprintf(stderr, "vs_ndspack: %s\n", err);
		goto done;
	}
	rc = 0;
done:
	free(arm9);
	free(arm7);
	free(image);
	return rc;
}
