/* SPDX-License-Identifier: Zlib */
/* gba_emu.c - headless GBA over libmgba (see gba_emu.h). Built only where
 * libmgba is found, into the gba module and the tests that run the emulator. */
#include "vramsim/gba_emu.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mgba/core/blip_buf.h>
#include <mgba/core/core.h>
#include <mgba/core/log.h>
#include <mgba-util/vfs.h>

struct vs_gba_emu {
	struct mLogger logger; /* first: the log callback casts back to the emu */
	struct mCore *core;
	void *rom;             /* our copy: libmgba maps it, never copies it */
	size_t rom_size;
	color_t *video;
	vs_gba_log_fn log_fn;
	void *log_ud;
	struct mLogger *saved_logger;
	int config;            /* mCoreInitConfig ran: its tables need freeing */
};

int vs_gba_emu_available(void)
{
	return 1;
}

const char *vs_gba_emu_missing(void)
{
	return NULL;
}

/* mGBA's debug level bit (1 << n) back to the n the program wrote. */
static int debug_level(int bits)
{
	int n = 0;

	while (n < 8 && !(bits & (1 << n)))
		n++;
	return n;
}

static void on_log(struct mLogger *lg, int category, enum mLogLevel level, const char *fmt, va_list ap)
{
	vs_gba_emu *e = (vs_gba_emu *)(void *)lg;
	const char *name = mLogCategoryName(category);
	char line[512];

	/* Everything but the program's own lines (BIOS stubs, I/O notes) is
	 * dropped: libmgba would print it on standard output otherwise. */
	if (!e->log_fn || !name || strcmp(name, "GBA Debug") != 0)
		return;
	vsnprintf(line, sizeof line, fmt, ap);
	e->log_fn(e->log_ud, debug_level((int)level), line);
}

/* libmgba's logger is process-wide: ours is installed while the core runs. */
static void enter(vs_gba_emu *e)
{
	e->saved_logger = mLogGetContext();
	mLogSetDefaultLogger(&e->logger);
}

static void leave(vs_gba_emu *e)
{
	mLogSetDefaultLogger(e->saved_logger);
}

static void set_err(char *err, size_t errlen, const char *msg)
{
	if (err && errlen)
		snprintf(err, errlen, "%s", msg);
}

vs_gba_emu *vs_gba_emu_open_image(const void *rom, size_t size, char *err, size_t errlen)
{
	vs_gba_emu *e;
	struct VFile *vf;
	unsigned w = 0, h = 0;

	if (size < 0xC0 || size > 32u * 1024 * 1024) {
		set_err(err, errlen, "not a GBA ROM image: size must be 192 bytes to 32 MiB");
		return NULL;
	}
	e = calloc(1, sizeof *e);
	if (!e || !(e->rom = malloc(size))) {
		free(e);
		set_err(err, errlen, "out of memory");
		return NULL;
	}
	memcpy(e->rom, rom, size);
	e->rom_size = size;
	e->logger.log = on_log;
	e->logger.filter = NULL;
	enter(e);
	e->core = mCoreCreate(mPLATFORM_GBA);
	if (!e->core || !e->core->init(e->core)) {
		e->core = NULL; /* half made: not ours to deinit */
		set_err(err, errlen, "libmgba could not create a GBA core");
		goto fail;
	}
	mCoreInitConfig(e->core, NULL);
	e->config = 1;
	e->core->desiredVideoDimensions(e->core, &w, &h);
	e->video = calloc((size_t)w * h, sizeof *e->video);
	if (!e->video) {
		set_err(err, errlen, "out of memory");
		goto fail;
	}
	e->core->setVideoBuffer(e->core, e->video, w);
	vf = VFileFromConstMemory(e->rom, e->rom_size);
	if (!vf || !e->core->loadROM(e->core, vf)) {
		if (vf)
			vf->close(vf);
		set_err(err, errlen, "libmgba refused the ROM image");
		goto fail;
	}
	e->core->reset(e->core);
	leave(e);
	return e;
fail:
	leave(e);
	vs_gba_emu_close(e);
	return NULL;
}

vs_gba_emu *vs_gba_emu_open_file(const char *path, char *err, size_t errlen)
{
	FILE *fp = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t len = 0, cap = 0, n;
	vs_gba_emu *e;

	if (!fp) {
		if (err && errlen)
			snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		return NULL;
	}
	for (;;) {
		if (len == cap) {
			unsigned char *nb;

			cap = cap ? cap * 2 : 1u << 16;
			if (cap > 64u * 1024 * 1024 || !(nb = realloc(buf, cap))) {
				free(buf);
				fclose(fp);
				if (err && errlen)
					snprintf(err, errlen, "%s: too large for a GBA ROM", path);
				return NULL;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len, fp);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(fp)) {
		if (err && errlen)
			snprintf(err, errlen, "%s: read error", path);
		free(buf);
		fclose(fp);
		return NULL;
	}
	fclose(fp);
	e = vs_gba_emu_open_image(buf, len, err, errlen);
	if (!e && err && errlen) {
		char msg[256];

		snprintf(msg, sizeof msg, "%s", err);
		snprintf(err, errlen, "%s: %s", path, msg);
	}
	free(buf);
	return e;
}

void vs_gba_emu_close(vs_gba_emu *e)
{
	if (!e)
		return;
	if (e->core) {
		enter(e);
		if (e->config)
			mCoreConfigDeinit(&e->core->config);
		e->core->deinit(e->core); /* closes the ROM's VFile, not our bytes */
		leave(e);
	}
	free(e->video);
	free(e->rom);
	free(e);
}

void vs_gba_emu_set_log(vs_gba_emu *e, vs_gba_log_fn fn, void *ud)
{
	e->log_fn = fn;
	e->log_ud = ud;
}

static void run_one(vs_gba_emu *e)
{
	int ch;

	e->core->runFrame(e->core);
	/* Nobody plays the sound: drop it so the buffers never fill. */
	for (ch = 0; ch < 2; ch++) {
		struct blip_t *b = e->core->getAudioChannel(e->core, ch);

		if (b)
			blip_clear(b);
	}
}

uint32_t vs_gba_emu_run_frames(vs_gba_emu *e, uint32_t n)
{
	uint32_t i;

	enter(e);
	for (i = 0; i < n; i++)
		run_one(e);
	leave(e);
	return n;
}

int vs_gba_emu_run_until(vs_gba_emu *e, vs_gba_stop_fn stop, void *ud, uint32_t max_frames)
{
	uint32_t i;

	for (i = 0; i < max_frames; i++) {
		enter(e);
		run_one(e);
		leave(e);
		if (stop(ud, e))
			return 1;
	}
	return 0;
}

uint32_t vs_gba_emu_frames(const vs_gba_emu *e)
{
	return e->core->frameCounter(e->core);
}

uint32_t vs_gba_emu_read8(vs_gba_emu *e, uint32_t addr)
{
	return e->core->busRead8(e->core, addr) & 0xFFu;
}

uint32_t vs_gba_emu_read16(vs_gba_emu *e, uint32_t addr)
{
	return e->core->busRead16(e->core, addr) & 0xFFFFu;
}

uint32_t vs_gba_emu_read32(vs_gba_emu *e, uint32_t addr)
{
	return e->core->busRead32(e->core, addr);
}

void vs_gba_emu_write8(vs_gba_emu *e, uint32_t addr, uint8_t v)
{
	e->core->busWrite8(e->core, addr, v);
}

void vs_gba_emu_write16(vs_gba_emu *e, uint32_t addr, uint16_t v)
{
	e->core->busWrite16(e->core, addr, v);
}

void vs_gba_emu_write32(vs_gba_emu *e, uint32_t addr, uint32_t v)
{
	e->core->busWrite32(e->core, addr, v);
}

void vs_gba_emu_read(vs_gba_emu *e, uint32_t addr, void *buf, size_t len)
{
	unsigned char *p = buf;

	while (len && (addr & 3)) {
		*p++ = (unsigned char)vs_gba_emu_read8(e, addr++);
		len--;
	}
	while (len >= 4) {
		uint32_t w = vs_gba_emu_read32(e, addr);

		p[0] = (unsigned char)w;
		p[1] = (unsigned char)(w >> 8);
		p[2] = (unsigned char)(w >> 16);
		p[3] = (unsigned char)(w >> 24);
		p += 4;
		addr += 4;
		len -= 4;
	}
	while (len--)
		*p++ = (unsigned char)vs_gba_emu_read8(e, addr++);
}
