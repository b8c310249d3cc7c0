/* SPDX-License-Identifier: Zlib */
/* gba_emu.c - headless GBA over libmgba (see gba_emu.h). Built only where
 * libmgba is found, into the gba module and the tests that run the emulator. */
#include "base/in_file.h"
#include "base/text.h"
#include "console/gba/gba_emu.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mgba/core/blip_buf.h>
#include <mgba/core/core.h>
#include <mgba/core/log.h>
#include <mgba/core/serialize.h>
#include <mgba/core/timing.h>
#include <mgba-util/vfs.h>

#include "base/compiler_hints.h"
#include "console/common/emu_guard.h"
#include "console/common/sha256.h"

/* vs_gba_emu_video hands the buffer out as 4 bytes a pixel */
typedef char vs_color_is_32_bits[sizeof(color_t) == 4 ? 1 : -1];

/* libmgba, loaded when the first emulator opens rather than with the
 * module: the library and the 175 it needs (`ldd`) take 0.2 s of CPU to
 * load, which a command that stops at its usage, its help or its input's
 * errors should not pay. These are the functions called by name; the rest
 * is the core's own table. */
#define VS_MGBA_FUNCS(X) X(mCoreCreate) X(mCoreInitConfig) X(mCoreConfigDeinit) X(mCoreLoadStateNamed) \
	X(mCoreSaveStateNamed) X(VFileFromConstMemory) X(VFileOpen) X(mLogCategoryName) X(mLogGetContext) \
	X(mLogSetDefaultLogger) X(mTimingGlobalTime) X(blip_clear) X(blip_read_samples) X(blip_samples_avail) \
	X(blip_set_rates)
#define VS_MGBA_POINTER(f) __typeof__(f) *f;
static struct {
	void *lib;
	VS_MGBA_FUNCS(VS_MGBA_POINTER)
} mgba;

/* Loads libmgba once (never unloaded: the module keeps it to exit). */
static int load_mgba(char *err, size_t errlen)
{
	void *lib, *f;

	if (mgba.lib)
		return 1;
	lib = dlopen(VS_MGBA_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		if (err && errlen)
			snprintf(err, errlen, "libmgba cannot be loaded (%s); install the Debian package libmgba-dev",
				dlerror());
		return 0;
	}
#define VS_MGBA_FIND(name) \
	if (!(f = dlsym(lib, #name))) { \
		if (err && errlen) \
			snprintf(err, errlen, "%s has no %s: not the libmgba vramsim was built with", VS_MGBA_SONAME, #name); \
		dlclose(lib); \
		return 0; \
	} \
	memcpy(&mgba.name, &f, sizeof f);
	VS_MGBA_FUNCS(VS_MGBA_FIND)
#undef VS_MGBA_FIND
	mgba.lib = lib;
	return 1;
}

/* Faults, as libmgba reports them: a callback, or only a log line. */
enum { FAULT_CRASH = 1, FAULT_ILLEGAL = 2, FAULT_STOP = 4 };

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
	struct mCoreCallbacks callbacks;
	int faults;            /* FAULT_* seen in the frame running */
	char fault_detail[160]; /* libmgba's first line about it */
	char fault[384];       /* set once: vs_gba_emu_fault */
	char state_note[160];  /* libmgba's complaint while loading a state */
	const uint8_t *oam, *vram; /* libmgba's own memory, little-endian on every host */
	unsigned audio_rate;   /* vs_gba_emu_keep_audio: samples kept at this rate, 0 dropped */
};

/* mGBA's debug level bit (1 << n) back to the n the program wrote. */
static int debug_level(int bits)
{
	int n = 0;

	while (n < 8 && !(bits & (1 << n)))
		n++;
	return n;
}

static void keep_line(char *buf, size_t len, const char *fmt, va_list ap) VS_PRINTF(3, 0);
static void keep_line(char *buf, size_t len, const char *fmt, va_list ap)
{
	if (!buf[0])
		vsnprintf(buf, len, fmt, ap);
}

static void on_log(struct mLogger *lg, int category, enum mLogLevel level, const char *fmt, va_list ap)
	VS_PRINTF(4, 0);
static void on_log(struct mLogger *lg, int category, enum mLogLevel level, const char *fmt, va_list ap)
{
	vs_gba_emu *e = (vs_gba_emu *)(void *)lg;
	const char *name = mgba.mLogCategoryName(category);
	char line[512];

	if (!name)
		return;
	/* An undefined instruction is only a warning to libmgba (the CPU takes
	 * the BIOS's undefined vector); to a game it is a crash. The line of a
	 * jump outside memory comes after the crash callback: keep it too. */
	if (strcmp(name, "GBA") == 0 && strncmp(fmt, "Illegal opcode", 14) == 0) {
		e->faults |= FAULT_ILLEGAL;
		keep_line(e->fault_detail, sizeof e->fault_detail, fmt, ap);
		return;
	}
	if (level & (mLOG_FATAL | mLOG_ERROR)) {
		if (strcmp(name, "GBA Memory") == 0)
			keep_line(e->fault_detail, sizeof e->fault_detail, fmt, ap);
		else if (strcmp(name, "GBA Savestate") == 0 || strcmp(name, "Savestate") == 0)
			keep_line(e->state_note, sizeof e->state_note, fmt, ap);
		return;
	}
	if ((level & mLOG_WARN) && (strcmp(name, "GBA Savestate") == 0 || strcmp(name, "Savestate") == 0)) {
		keep_line(e->state_note, sizeof e->state_note, fmt, ap);
		return;
	}
	/* Everything else but the program's own lines (BIOS stubs, I/O notes)
	 * is dropped: libmgba would print it on standard output otherwise. */
	if (!e->log_fn || strcmp(name, "GBA Debug") != 0)
		return;
	vsnprintf(line, sizeof line, fmt, ap);
	e->log_fn(e->log_ud, debug_level((int)level), line);
}

static void on_crash(void *ud)
{
	((vs_gba_emu *)ud)->faults |= FAULT_CRASH;
}

/* libmgba calls this for the BIOS Stop call (SWI 3): the console is off
 * until a key interrupt, which nobody headless gives. */
static void on_stop(void *ud)
{
	((vs_gba_emu *)ud)->faults |= FAULT_STOP;
}

/* libmgba's logger is process-wide: ours is installed while the core runs. */
static void enter(vs_gba_emu *e)
{
	e->saved_logger = mgba.mLogGetContext();
	mgba.mLogSetDefaultLogger(&e->logger);
}

static void leave(vs_gba_emu *e)
{
	mgba.mLogSetDefaultLogger(e->saved_logger);
}

static void set_err(char *err, size_t errlen, const char *msg)
{
	if (err && errlen)
		snprintf(err, errlen, "%s", msg);
}

/* The memory block libmgba keeps for the region at start, if it is at
 * least len bytes. */
static const uint8_t *memory_block(vs_gba_emu *e, uint32_t start, size_t len)
{
	const struct mCoreMemoryBlock *b;
	size_t n = e->core->listMemoryBlocks(e->core, &b), i, size = 0;
	void *p;

	for (i = 0; i < n; i++)
		if (b[i].start == start && b[i].id != (size_t)-1)
			break;
	if (i == n)
		return NULL;
	p = e->core->getMemoryBlock(e->core, b[i].id, &size);
	return p && size >= len ? p : NULL;
}

vs_gba_emu *vs_gba_emu_open_image(const void *rom, size_t size, char *err, size_t errlen)
{
	vs_gba_emu *e;
	struct VFile *vf;
	unsigned w = 0, h = 0;
	int ok;

	if (size < 0xC0 || size > 32u * 1024 * 1024) {
		set_err(err, errlen, "not a GBA ROM image: size must be 192 bytes to 32 MiB");
		return NULL;
	}
	/* Every cartridge header has 0x96 here (GBATEK, "GBA Cartridge Header");
	 * libmgba checks nothing and would run any file. */
	if (((const unsigned char *)rom)[0xB2] != 0x96) {
		set_err(err, errlen, "not a GBA ROM image: no cartridge header (byte 0xB2 is not 0x96)");
		return NULL;
	}
	if (!load_mgba(err, errlen))
		return NULL;
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
	e->core = mgba.mCoreCreate(mPLATFORM_GBA);
	if (!e->core || !e->core->init(e->core)) {
		e->core = NULL; /* half made: not ours to deinit */
		set_err(err, errlen, "libmgba could not create a GBA core");
		goto fail;
	}
	mgba.mCoreInitConfig(e->core, NULL);
	e->config = 1;
	e->core->desiredVideoDimensions(e->core, &w, &h);
	e->video = calloc((size_t)w * h, sizeof *e->video);
	if (!e->video) {
		set_err(err, errlen, "out of memory");
		goto fail;
	}
	e->core->setVideoBuffer(e->core, e->video, w);
	vf = mgba.VFileFromConstMemory(e->rom, e->rom_size);
	vs_emu_guard_open("libmgba", "the GBA ROM"); /* open_file names it after */
	vs_emu_guard_enter(0, "loading the ROM");
	ok = vf && e->core->loadROM(e->core, vf);
	vs_emu_guard_leave();
	if (!ok) {
		if (vf)
			vf->close(vf);
		set_err(err, errlen, "libmgba refused the ROM image");
		goto fail;
	}
	e->core->reset(e->core);
	e->callbacks.context = e;
	e->callbacks.coreCrashed = on_crash;
	e->callbacks.shutdown = on_stop;
	e->core->addCoreCallbacks(e->core, &e->callbacks);
	if (!(e->oam = memory_block(e, 0x07000000u, VS_GBA_OAM_BYTES)) ||
		!(e->vram = memory_block(e, 0x06000000u, VS_GBA_VRAM_BYTES))) {
		set_err(err, errlen, "libmgba does not show its OAM and VRAM");
		goto fail;
	}
	leave(e);
	return e;
fail:
	leave(e);
	vs_gba_emu_close(e);
	return NULL;
}

vs_gba_emu *vs_gba_emu_open_file(const char *path, char *err, size_t errlen)
{
	FILE *fp = vs_in_open_file(path, err, err ? errlen : 0); /* a FIFO is refused, not waited on */
	unsigned char *buf = NULL;
	size_t len = 0, cap = 0, n;
	vs_gba_emu *e;

	if (!fp)
		return NULL;
	for (;;) {
		if (len == cap) {
			unsigned char *nb;

			cap = cap ? cap * 2 : 1u << 16;
			if (cap > 64u * 1024 * 1024 || !(nb = realloc(buf, cap))) {
				free(buf);
				fclose(fp);
				if (err && errlen)
					vs_text_path_msg(err, errlen, path, "too large for a GBA ROM");
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
			vs_text_path_msg(err, errlen, path, "read error: %s", strerror(errno));
		free(buf);
		fclose(fp);
		return NULL;
	}
	fclose(fp);
	e = vs_gba_emu_open_image(buf, len, err, errlen);
	if (e)
		vs_emu_guard_open("libmgba", path);
	if (!e && err && errlen) {
		char msg[256];

		snprintf(msg, sizeof msg, "%s", err);
		vs_text_path_msg(err, errlen, path, "%s", msg);
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
			mgba.mCoreConfigDeinit(&e->core->config);
		e->core->deinit(e->core); /* closes the ROM's VFile, not our bytes */
		leave(e);
	}
	vs_emu_guard_close();
	free(e->video);
	free(e->rom);
	free(e);
}

void vs_gba_emu_set_log(vs_gba_emu *e, vs_gba_log_fn fn, void *ud)
{
	e->log_fn = fn;
	e->log_ud = ud;
}

/* Names the first fault, once, with the frame it happened in (counted from
 * the reset, or as the savestate counted). */
static void note_fault(vs_gba_emu *e, uint32_t frame)
{
	const char *what;

	if (!e->faults || e->fault[0])
		return;
	if (e->faults & FAULT_CRASH)
		what = "crashed: it jumped outside memory";
	else if (e->faults & FAULT_ILLEGAL)
		what = "crashed: it ran an undefined instruction";
	else
		what = "turned the console off (BIOS Stop): nothing runs until a key interrupt";
	if (e->fault_detail[0])
		snprintf(e->fault, sizeof e->fault, "frame %u: the program %s (libmgba: %s)", (unsigned)frame, what,
			e->fault_detail);
	else
		snprintf(e->fault, sizeof e->fault, "frame %u: the program %s", (unsigned)frame, what);
}

/* Nobody plays the sound: drop it so the buffers never fill. */
static void drop_audio(vs_gba_emu *e)
{
	int ch;

	if (e->audio_rate)
		return; /* vs_gba_emu_audio takes it */
	for (ch = 0; ch < 2; ch++) {
		struct blip_t *b = e->core->getAudioChannel(e->core, ch);

		if (b)
			mgba.blip_clear(b);
	}
}

/* A frame that does not end within this many cycles never will: the
 * machine's video state is broken (a savestate libmgba accepted with a
 * video event that never comes). A frame is VS_GBA_FRAME_CYCLES. */
#define STUCK_CYCLES (4u * VS_GBA_FRAME_CYCLES)
/* Steps of libmgba's run loop a frame may take, whatever the cycles say
 * (a frame takes a few thousand: a few per line, more with timers). */
#define STUCK_STEPS 2000000u

static uint64_t cycles_now(const vs_gba_emu *e)
{
	return mgba.mTimingGlobalTime(e->core->timing);
}

/* Names the frame that never ended, once, and stops the emulator. */
static void note_stuck(vs_gba_emu *e, uint32_t frame, uint64_t cycles)
{
	if (!e->fault[0])
		snprintf(e->fault, sizeof e->fault, "frame %u: no new frame after %llu cycles (%.1f frames' worth): the "
			"machine's video never reaches VBlank (a damaged savestate?); stopped there", (unsigned)frame,
			(unsigned long long)cycles, (double)cycles / VS_GBA_FRAME_CYCLES);
}

/* One frame, unless the program faulted. Returns 1 if it ran. libmgba's
 * runFrame gives up after a frame's cycles and more; a frame not ended
 * by STUCK_CYCLES stops the run. */
static int run_one(vs_gba_emu *e)
{
	uint32_t frame = vs_gba_emu_frames(e);
	uint64_t t0 = cycles_now(e), steps = 0;

	if (e->fault[0])
		return 0;
	enter(e);
	vs_emu_guard_enter(frame, NULL);
	while (vs_gba_emu_frames(e) == frame && !e->faults && cycles_now(e) - t0 < STUCK_CYCLES &&
		steps++ < STUCK_STEPS / 1000u)
		e->core->runFrame(e->core);
	vs_emu_guard_leave();
	drop_audio(e);
	leave(e);
	note_fault(e, frame);
	if (vs_gba_emu_frames(e) == frame && !e->fault[0])
		note_stuck(e, frame, cycles_now(e) - t0);
	return !e->fault[0] || vs_gba_emu_frames(e) != frame;
}

uint32_t vs_gba_emu_run_frames(vs_gba_emu *e, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (!run_one(e))
			break;
	return i;
}

int vs_gba_emu_run_until(vs_gba_emu *e, vs_gba_stop_fn stop, void *ud, uint32_t max_frames)
{
	uint32_t i;

	for (i = 0; i < max_frames; i++) {
		if (!run_one(e))
			return 0;
		if (stop(ud, e))
			return 1;
	}
	return 0;
}

const char *vs_gba_emu_fault(const vs_gba_emu *e)
{
	return e->fault[0] ? e->fault : NULL;
}

/* Samples a frame holds at most, with room: 48,000 a second is 804 a frame. */
#define AUDIO_BUFFER 4096u

void vs_gba_emu_keep_audio(vs_gba_emu *e, unsigned rate)
{
	int ch;

	e->audio_rate = rate;
	e->core->setAudioBufferSize(e->core, AUDIO_BUFFER);
	for (ch = 0; ch < 2; ch++) {
		struct blip_t *b = e->core->getAudioChannel(e->core, ch);

		if (b) {
			mgba.blip_clear(b);
			mgba.blip_set_rates(b, e->core->frequency(e->core), rate);
		}
	}
}

size_t vs_gba_emu_audio(vs_gba_emu *e, int16_t *buf, size_t max)
{
	struct blip_t *l = e->core->getAudioChannel(e->core, 0), *r = e->core->getAudioChannel(e->core, 1);
	int n;

	if (!e->audio_rate || !l || !r)
		return 0;
	n = mgba.blip_samples_avail(l);
	if (mgba.blip_samples_avail(r) < n)
		n = mgba.blip_samples_avail(r);
	if ((size_t)n > max)
		n = (int)max;
	mgba.blip_read_samples(l, buf, n, 1);
	mgba.blip_read_samples(r, buf + 1, n, 1);
	return (size_t)n;
}

void vs_gba_emu_set_keys(vs_gba_emu *e, uint16_t keys)
{
	/* libmgba numbers the keys as KEYINPUT does, set meaning held. */
	e->core->setKeys(e->core, keys);
}

/* Savestates are about 400 KiB (more as PNG): anything far larger is not one. */
#define STATE_MAX (16u * 1024 * 1024)

int vs_gba_emu_load_state(vs_gba_emu *e, const char *path, char *err, size_t errlen)
{
	static const uint8_t png[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n' };
	uint8_t head[8] = { 0 };
	struct VFile *vf;
	ssize_t size;
	bool ok;

	/* libmgba's VFile takes a folder or a pipe as a file of no size
	 * ("empty"), or fails with another call's errno: looked at first */
	if (vs_in_regular(path, "a savestate is a file mGBA wrote", err, errlen))
		return -1;
	vf = mgba.VFileOpen(path, O_RDONLY);
	if (!vf) {
		vs_text_path_msg(err, errlen, path, "cannot open: %s", strerror(errno));
		return -1;
	}
	size = vf->size(vf);
	if (size <= 0 || (size_t)size > STATE_MAX) {
		vf->close(vf);
		vs_text_path_msg(err, errlen, path, "not an mGBA savestate (%s)", size <= 0 ? "empty" : "larger than 16 MiB");
		return -1;
	}
	/* a raw state begins with mGBA's magic (0x01000000 and its version, as
	 * GBA_SAVESTATE_MAGIC in its gba/serialize.h) and is the core's whole
	 * state and more: one cut short would read as another ROM's. A PNG
	 * carries it compressed, for libmgba to judge. */
	if (vf->read(vf, head, sizeof head) == (ssize_t)sizeof head && memcmp(head, png, sizeof png) != 0) {
		uint32_t magic = (uint32_t)head[0] | (uint32_t)head[1] << 8 | (uint32_t)head[2] << 16 |
			(uint32_t)head[3] << 24;
		size_t want = e->core->stateSize(e->core);
		if ((magic & 0xFF000000u) == 0x01000000u && (size_t)size < want) {
			vf->close(vf);
			vs_text_path_msg(err, errlen, path, "truncated: a savestate of the GBA is %zu bytes or more, this one %zu",
				want, (size_t)size);
			return -1;
		}
	}
	vf->seek(vf, 0, SEEK_SET);
	e->state_note[0] = '\0';
	enter(e);
	vs_emu_guard_enter(0, "loading the savestate");
	ok = mgba.mCoreLoadStateNamed(e->core, vf, 0);
	vs_emu_guard_leave();
	leave(e);
	vf->close(vf);
	/* libmgba loads a state of another build of the same game with only a
	 * warning; its CPU state would point into code that is not there. */
	if (!ok || e->state_note[0]) {
		vs_text_path_msg(err, errlen, path, "not a savestate of this ROM%s%s%s", e->state_note[0] ? " (libmgba: " : "",
			e->state_note, e->state_note[0] ? ")" : "");
		return -1;
	}
	return 0;
}

int vs_gba_emu_save_state(vs_gba_emu *e, const char *path, char *err, size_t errlen)
{
	struct VFile *vf = mgba.VFileOpen(path, O_RDWR | O_CREAT | O_TRUNC); /* libmgba maps it */
	bool ok;

	if (!vf) {
		vs_text_path_msg(err, errlen, path, "cannot write: %s", strerror(errno));
		return -1;
	}
	enter(e);
	ok = mgba.mCoreSaveStateNamed(e->core, vf, 0);
	leave(e);
	vf->close(vf);
	if (!ok) {
		vs_text_path_msg(err, errlen, path, "libmgba could not write the savestate");
		return -1;
	}
	return 0;
}

void vs_gba_emu_rom_info(const vs_gba_emu *e, vs_gba_rom_info *info)
{
	const unsigned char *h = e->rom;
	unsigned sum = 0;
	int i;

	for (i = 0; i < 12; i++)
		info->title[i] = h[0xA0 + i] >= 0x20 && h[0xA0 + i] < 0x7F ? (char)h[0xA0 + i] : h[0xA0 + i] ? '?' : '\0';
	info->title[12] = '\0';
	for (i = 0; i < 4; i++)
		info->code[i] = h[0xAC + i] >= 0x20 && h[0xAC + i] < 0x7F ? (char)h[0xAC + i] : '?';
	info->code[4] = '\0';
	for (i = 0xA0; i <= 0xBC; i++)
		sum += h[i];
	info->checksum_ok = ((0u - sum - 0x19u) & 0xFFu) == h[0xBD];
	vs_sha256_hex(e->rom, e->rom_size, info->sha256);
}

/* What makes a frame differ from its VBlank snapshot if it changes while
 * the visible lines are drawn: DISPCNT, BG0CNT-BG3CNT and OAM. */
typedef struct shown {
	uint16_t regs[5];
	uint8_t oam[VS_GBA_OAM_BYTES];
} shown;

static void read_shown(vs_gba_emu *e, shown *s)
{
	int i;

	s->regs[0] = (uint16_t)e->core->rawRead16(e->core, 0x04000000u, -1);
	for (i = 0; i < 4; i++)
		s->regs[1 + i] = (uint16_t)e->core->rawRead16(e->core, 0x04000008u + 2u * (uint32_t)i, -1);
	memcpy(s->oam, e->oam, sizeof s->oam);
}

static int shown_differs(vs_gba_emu *e, const shown *s)
{
	int i;

	if (s->regs[0] != (uint16_t)e->core->rawRead16(e->core, 0x04000000u, -1))
		return 1;
	for (i = 0; i < 4; i++)
		if (s->regs[1 + i] != (uint16_t)e->core->rawRead16(e->core, 0x04000008u + 2u * (uint32_t)i, -1))
			return 1;
	return memcmp(s->oam, e->oam, sizeof s->oam) != 0;
}

void vs_gba_emu_frame_snapshot(vs_gba_emu *e, vs_gba_frame *f)
{
	shown ref;
	uint32_t start = vs_gba_emu_frames(e), i, line, last = 0x100u;
	int have_ref = 0, changed = 0;

	if (!e->fault[0]) {
		/* Run in libmgba's small steps (a few per line) to see the
		 * visible lines: VCOUNT 0-159, compared once a line. */
		uint64_t t0 = cycles_now(e), steps = 0;

		enter(e);
		vs_emu_guard_enter(start, NULL);
		while (vs_gba_emu_frames(e) == start && !e->faults) {
			if (cycles_now(e) - t0 >= STUCK_CYCLES || steps++ >= STUCK_STEPS)
				break;
			e->core->runLoop(e->core);
			if (changed)
				continue;
			line = e->core->rawRead16(e->core, 0x04000006u, -1) & 0xFFu;
			if (line >= 160u || line == last)
				continue;
			last = line;
			if (!have_ref) {
				read_shown(e, &ref);
				have_ref = 1;
			} else if (shown_differs(e, &ref)) {
				changed = 1;
			}
		}
		vs_emu_guard_leave();
		drop_audio(e);
		leave(e);
		note_fault(e, start);
		if (vs_gba_emu_frames(e) == start)
			note_stuck(e, start, cycles_now(e) - t0);
	}
	/* Write-only registers (scroll) read back as libmgba keeps them. */
	for (i = 0; i < VS_GBA_IO_HALFWORDS; i++)
		f->io[i] = (uint16_t)e->core->rawRead16(e->core, 0x04000000u + 2u * i, -1);
	memcpy(f->oam, e->oam, sizeof f->oam);
	memcpy(f->vram, e->vram, sizeof f->vram);
	f->changed_mid_frame = (uint8_t)changed;
}

const uint8_t *vs_gba_emu_video(const vs_gba_emu *e, unsigned *w, unsigned *h)
{
	/* libmgba's 32-bit colour (color_t without COLOR_16_BIT) keeps red in
	 * the low byte: R, G, B, X in memory on a little-endian host */
	e->core->desiredVideoDimensions(e->core, w, h);
	return (const uint8_t *)e->video;
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
