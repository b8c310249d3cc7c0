/* SPDX-License-Identifier: Zlib */
/* gba_cycles.c - host side of the "cycles" GBA program: packs requests
 * after the ROM image, runs it in libmgba, collects the timed results. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/in_file.h"
#include "base/text.h"
#include "console/gba/gba_emu.h"

/* The build tree's ROM folder; "" when the ROMs were not built. */
#ifndef VS_GBA_ROM_DIR
#define VS_GBA_ROM_DIR ""
#endif

static char rom_dir[1024];

void vs_gba_set_rom_dir(const char *dir)
{
	snprintf(rom_dir, sizeof rom_dir, "%s", dir ? dir : "");
}

const char *vs_gba_cycles_rom(int code, char *buf, size_t len, char *err, size_t errlen)
{
	const char *dir = getenv("VRAMSIM_GBA_ROM_DIR");
	const char *name = code == VS_GBA_CODE_ARM_IWRAM ? "cycles-arm.gba" : "cycles-thumb.gba";

	if (!dir || !*dir)
		dir = *rom_dir ? rom_dir : VS_GBA_ROM_DIR;
	if (!*dir) {
		snprintf(err, errlen, "no GBA ROMs: vramsim was built without arm-none-eabi-gcc "
			"(install gcc-arm-none-eabi and rebuild, or set VRAMSIM_GBA_ROM_DIR)");
		return NULL;
	}
	snprintf(buf, len, "%s/%s", dir, name);
	return buf;
}

void vs_gba_status(char *buf, size_t len)
{
	char rom[1024], err[512];
	FILE *fp;
	int n;

	/* this code is built only with libmgba */
	n = snprintf(buf, len, "this build: libmgba: yes\n");
	if (n < 0 || (size_t)n >= len)
		return;
	if (!vs_gba_cycles_rom(VS_GBA_CODE_THUMB_ROM, rom, sizeof rom, err, sizeof err)) {
		snprintf(buf + n, len - (size_t)n, "this build: %s\n", err);
		return;
	}
	fp = vs_in_open_file(rom, err, sizeof err);
	if (fp)
		fclose(fp);
	snprintf(buf + n, len - (size_t)n, "this build: GBA ROMs: %s%s\n", rom,
		fp ? "" : " (missing: build the vs_gba_roms target or set VRAMSIM_GBA_ROM_DIR)");
}

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

static unsigned char *read_file(const char *path, size_t *size, char *err, size_t errlen)
{
	FILE *fp = vs_in_open_file(path, err, errlen);
	unsigned char *buf;
	long n;

	if (!fp)
		return NULL;
	if (fseek(fp, 0, SEEK_END) != 0 || (n = ftell(fp)) < 0 || fseek(fp, 0, SEEK_SET) != 0) {
		vs_text_path_msg(err, errlen, path, "cannot read");
		fclose(fp);
		return NULL;
	}
	buf = malloc(n ? (size_t)n : 1);
	if (!buf || fread(buf, 1, (size_t)n, fp) != (size_t)n) {
		vs_text_path_msg(err, errlen, path, "cannot read");
		free(buf);
		fclose(fp);
		return NULL;
	}
	fclose(fp);
	*size = (size_t)n;
	return buf;
}

typedef struct collect {
	vs_gba_result *results;
	uint32_t count;
	uint32_t seq;      /* chunks already taken */
	int failed;
	char *err;
	size_t errlen;
} collect;

static uint32_t mb_read(vs_gba_emu *e, uint32_t off)
{
	return vs_gba_emu_read32(e, VS_GBA_MAILBOX_ADDR + off);
}

#define MB_OFF(field) ((uint32_t)offsetof(vs_gba_mailbox, field))

/* Copies the chunk the program holds into results. */
static int take_chunk(collect *c, vs_gba_emu *e)
{
	uint32_t first = mb_read(e, MB_OFF(chunk_first));
	uint32_t n = mb_read(e, MB_OFF(chunk_count)), i;

	if (n > VS_GBA_RESULT_CAP || first > c->count || n > c->count - first) {
		snprintf(c->err, c->errlen, "cycles program: bad result chunk %u+%u of %u",
			(unsigned)first, (unsigned)n, (unsigned)c->count);
		return -1;
	}
	for (i = 0; i < n; i++) {
		uint32_t at = VS_GBA_MB_OFF_RESULTS + i * (uint32_t)sizeof(vs_gba_result);

		c->results[first + i].value = mb_read(e, at);
		c->results[first + i].cycles = mb_read(e, at + 4);
	}
	return 0;
}

static int poll(void *ud, vs_gba_emu *e)
{
	collect *c = ud;
	uint32_t state, seq;

	if (mb_read(e, MB_OFF(magic)) != VS_GBA_MB_MAGIC)
		return 0; /* still starting */
	state = mb_read(e, MB_OFF(state));
	switch (state) {
	case VS_GBA_ST_FULL:
		seq = mb_read(e, MB_OFF(seq));
		if (seq == c->seq)
			return 0; /* already taken; the program has not resumed yet */
		if (take_chunk(c, e)) {
			c->failed = 1;
			return 1;
		}
		c->seq = seq;
		vs_gba_emu_write32(e, VS_GBA_MAILBOX_ADDR + VS_GBA_MB_OFF_ACK, seq);
		return 0;
	case VS_GBA_ST_DONE:
		if (take_chunk(c, e))
			c->failed = 1;
		return 1;
	case VS_GBA_ST_ERROR: {
		static const char *const why[] = { "", "no request block", "protocol version", "strategy not built",
			"slot out of range", "unknown operation",
			"a sprite's bytes in VRAM differ from those written (after its moves)" };
		uint32_t code = mb_read(e, MB_OFF(error));

		snprintf(c->err, c->errlen, "cycles program stopped with error %u%s%s at request %u", (unsigned)code,
			code < sizeof why / sizeof why[0] && code ? ": " : "",
			code < sizeof why / sizeof why[0] ? why[code] : "", (unsigned)mb_read(e, MB_OFF(error_index)));
		c->failed = 1;
		return 1;
	}
	default:
		return 0;
	}
}

int vs_gba_cycles_run(const char *rom_path, uint32_t strategy, const uint32_t param[4],
	const vs_gba_req *reqs, uint32_t count, vs_gba_result *results,
	vs_gba_cycles_info *info, uint32_t max_frames, char *err, size_t errlen)
{
	unsigned char *img, *rom, *p;
	size_t rom_size, size;
	vs_gba_emu *e;
	collect c;
	uint32_t i;
	int stopped;

	rom = read_file(rom_path, &rom_size, err, errlen);
	if (!rom)
		return -1;
	if (rom_size < 0xC0 || rom_size % VS_GBA_ROM_ALIGN) {
		snprintf(err, errlen, "%s: not a cycles ROM (size %zu is not a multiple of %u)",
			rom_path, rom_size, VS_GBA_ROM_ALIGN);
		free(rom);
		return -1;
	}
	/* The program reads the block at its __rom_end: the image's end. */
	size = rom_size + sizeof(vs_gba_req_block) + (size_t)count * 8;
	if (size > 32u * 1024 * 1024) {
		snprintf(err, errlen, "%u requests do not fit in a 32 MiB cartridge", (unsigned)count);
		free(rom);
		return -1;
	}
	img = malloc(size);
	if (!img) {
		snprintf(err, errlen, "out of memory");
		free(rom);
		return -1;
	}
	memcpy(img, rom, rom_size);
	free(rom);
	p = img + rom_size;
	put32(p, VS_GBA_REQ_MAGIC);
	put32(p + 4, VS_GBA_PROTO_VERSION);
	put32(p + 8, strategy);
	put32(p + 12, count);
	for (i = 0; i < 4; i++)
		put32(p + 16 + 4 * i, param ? param[i] : 0);
	p += sizeof(vs_gba_req_block);
	for (i = 0; i < count; i++, p += 8) {
		p[0] = reqs[i].op;
		p[1] = reqs[i].flags;
		p[2] = (unsigned char)reqs[i].slot;
		p[3] = (unsigned char)(reqs[i].slot >> 8);
		put32(p + 4, reqs[i].arg);
	}
	e = vs_gba_emu_open_image(img, size, err, errlen);
	free(img);
	if (!e)
		return -1;
	memset(&c, 0, sizeof c);
	c.results = results;
	c.count = count * VS_GBA_RESULTS_PER_REQ(strategy);
	c.err = err;
	c.errlen = errlen;
	/* A call that took a whole frame would be extraordinary: one frame
	 * per request, plus start-up, bounds a run that went wrong. */
	if (!max_frames)
		max_frames = 120 + c.count;
	stopped = vs_gba_emu_run_until(e, poll, &c, max_frames);
	if (info) {
		info->waitcnt = mb_read(e, MB_OFF(waitcnt)) & 0xFFFFu;
		info->code = mb_read(e, MB_OFF(code));
		info->overhead = mb_read(e, MB_OFF(overhead));
		info->overhead3 = mb_read(e, MB_OFF(overhead3));
		info->overhead4 = mb_read(e, MB_OFF(overhead4));
		info->frames = vs_gba_emu_frames(e);
		info->dma_vram8 = mb_read(e, MB_OFF(dma_vram8));
		info->dma_vram1024 = mb_read(e, MB_OFF(dma_vram1024));
		info->dma_rom8 = mb_read(e, MB_OFF(dma_rom8));
		info->dma_rom1024 = mb_read(e, MB_OFF(dma_rom1024));
		info->move_overhead = mb_read(e, MB_OFF(move_overhead));
		info->error = mb_read(e, MB_OFF(error));
		info->error_index = mb_read(e, MB_OFF(error_index));
	}
	if (!stopped) {
		snprintf(err, errlen, "cycles program did not finish within %u frames (%u of %u results answered)",
			(unsigned)max_frames, (unsigned)mb_read(e, MB_OFF(done)), (unsigned)c.count);
		c.failed = 1;
	}
	vs_gba_emu_close(e);
	return c.failed ? -1 : 0;
}
