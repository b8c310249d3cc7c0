/* SPDX-License-Identifier: Zlib */
/* ds_core.c - the DeSmuME libretro core, headless (see ds_core.h).
 *
 * The libretro ABI below is declared here from the libretro API's public
 * documentation (libretro.h, https://github.com/libretro/libretro-common,
 * include/libretro.h): only the constants, structures and entry points
 * this driver uses. What the core asks and does was measured on Debian's
 * build (0.9.11+git20160819, libretro/desmume2015 at 2fb4b68).
 */
#define _XOPEN_SOURCE 700 /* mkdtemp, nftw, realpath */
#include "base/in_file.h"
#include "base/out_file.h"
#include "base/text.h"
#include "console/ds/ds_core.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "console/common/emu_guard.h"
#include "console/common/input_script.h"

#ifndef VS_DS_CORE_DEFAULT
#define VS_DS_CORE_DEFAULT "/usr/lib/x86_64-linux-gnu/libretro/desmume_libretro.so"
#endif

/* ---- the libretro ABI (version 1) ---------------------------------------- */

#define RETRO_API_VERSION 1u
enum {
	RETRO_ENVIRONMENT_SET_PERFORMANCE_LEVEL = 8,
	RETRO_ENVIRONMENT_GET_SYSTEM_DIRECTORY = 9,
	RETRO_ENVIRONMENT_SET_PIXEL_FORMAT = 10,
	RETRO_ENVIRONMENT_SET_INPUT_DESCRIPTORS = 11,
	RETRO_ENVIRONMENT_GET_VARIABLE = 15,
	RETRO_ENVIRONMENT_SET_VARIABLES = 16,
	RETRO_ENVIRONMENT_GET_VARIABLE_UPDATE = 17,
	RETRO_ENVIRONMENT_GET_LOG_INTERFACE = 27,
	RETRO_ENVIRONMENT_GET_SAVE_DIRECTORY = 31
};
enum { RETRO_PIXEL_FORMAT_RGB565 = 2 };
enum { RETRO_DEVICE_JOYPAD = 1, RETRO_DEVICE_POINTER = 6 };
enum { RETRO_DEVICE_ID_POINTER_X = 0, RETRO_DEVICE_ID_POINTER_Y = 1, RETRO_DEVICE_ID_POINTER_PRESSED = 2 };
enum { RETRO_LOG_WARN = 2, RETRO_LOG_ERROR = 3 };

struct retro_variable {
	const char *key;
	const char *value;
};

struct retro_game_info {
	const char *path;
	const void *data;
	size_t size;
	const char *meta;
};

typedef void (*retro_log_printf_t)(int level, const char *fmt, ...);
struct retro_log_callback {
	retro_log_printf_t log;
};

typedef bool (*retro_environment_t)(unsigned cmd, void *data);
typedef void (*retro_video_refresh_t)(const void *data, unsigned width, unsigned height, size_t pitch);
typedef void (*retro_audio_sample_t)(int16_t left, int16_t right);
typedef size_t (*retro_audio_sample_batch_t)(const int16_t *data, size_t frames);
typedef void (*retro_input_poll_t)(void);
typedef int16_t (*retro_input_state_t)(unsigned port, unsigned device, unsigned index, unsigned id);

/* The entry points, looked up by name. */
typedef struct core_api {
	void (*set_environment)(retro_environment_t);
	void (*set_video_refresh)(retro_video_refresh_t);
	void (*set_audio_sample)(retro_audio_sample_t);
	void (*set_audio_sample_batch)(retro_audio_sample_batch_t);
	void (*set_input_poll)(retro_input_poll_t);
	void (*set_input_state)(retro_input_state_t);
	unsigned (*api_version)(void);
	void (*init)(void);
	bool (*load_game)(const struct retro_game_info *);
	void (*unload_game)(void);
	void (*run)(void);
	size_t (*serialize_size)(void);
	bool (*serialize)(void *, size_t);
	bool (*unserialize)(const void *, size_t);
} core_api;

/* ---- the emulator ------------------------------------------------------- */

struct vs_ds_core {
	char dir[PATH_MAX];      /* private save/system directory, removed on close */
	int devnull, saved_out;  /* standard output while the core runs */
	int inited, loaded;
	uint8_t *state;          /* retro_serialize's buffer */
	size_t state_cap;
	uint16_t keys;
	int touch;
	int16_t touch_x, touch_y; /* in libretro pointer units */
	uint32_t runs;           /* frames run since the ROM was loaded: the guard's frame number */
	char log[256];           /* the core's last warning or error */
	uint8_t *video;          /* the last picture as R, G, B, unused (vs_ds_core_keep_video), or NULL */
	unsigned video_w, video_h;
};

static core_api api;
static void *core_handle;
static int core_inited; /* retro_init after retro_deinit crashes this core: once a process */
static vs_ds_core *current; /* the one emulator open; the callbacks' context */

const char *vs_ds_core_path(void)
{
	const char *env = getenv("VRAMSIM_DESMUME_CORE");

	return env && *env ? env : VS_DS_CORE_DEFAULT;
}

static const struct { const char *name; size_t off; } symbols[] = {
#define SYM(n) { "retro_" #n, offsetof(core_api, n) }
	SYM(set_environment), SYM(set_video_refresh), SYM(set_audio_sample), SYM(set_audio_sample_batch),
	SYM(set_input_poll), SYM(set_input_state), SYM(api_version), SYM(init), SYM(load_game),
	SYM(unload_game), SYM(run), SYM(serialize_size), SYM(serialize), SYM(unserialize)
#undef SYM
};

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	remove(path);
	return 0;
}

static void remove_dir(char *dir)
{
	if (dir[0]) {
		nftw(dir, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
		vs_out_scratch_remove(dir);
	}
	dir[0] = '\0';
}

/* A program that exits with an emulator open (exit() after an error, a
 * test's failed check) leaves no folder behind either. */
static void remove_at_exit(void)
{
	if (current)
		remove_dir(current->dir);
}

/* dlopen once: the core is C++ with static state; unloading it is not safe. */
static int load_core(char *err, size_t errlen)
{
	const char *path = vs_ds_core_path();
	void *h;
	size_t i;

	if (core_handle)
		return 0;
	/* dlopen would wait on a FIFO for ever (a name without a slash is looked
	 * up by dlopen in the library folders, not here) */
	if (strchr(path, '/') && vs_in_regular(path, "the DS emulator core: set VRAMSIM_DESMUME_CORE to the core's path",
		err, errlen))
		return -1;
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(err, errlen, "the DS emulator core cannot be loaded (%s); install the Debian package %s, "
			"or set VRAMSIM_DESMUME_CORE to the core's path", dlerror(), VS_DS_CORE_PACKAGE);
		return -1;
	}
	for (i = 0; i < sizeof symbols / sizeof symbols[0]; i++) {
		void *f = dlsym(h, symbols[i].name);

		if (!f) {
			snprintf(err, errlen, "%s is not a libretro core (no %s)", path, symbols[i].name);
			dlclose(h);
			return -1;
		}
		memcpy((char *)&api + symbols[i].off, &f, sizeof f);
	}
	if (api.api_version() != RETRO_API_VERSION) {
		vs_text_path_msg(err, errlen, path, "libretro API %u, this driver speaks %u", api.api_version(),
			RETRO_API_VERSION);
		dlclose(h);
		return -1;
	}
	core_handle = h;
	atexit(remove_at_exit);
	return 0;
}

int vs_ds_core_available(char *err, size_t errlen)
{
	return load_core(err, errlen);
}

/* ---- callbacks (the core gives no context: `current` is it) -------------- */

static void core_log(int level, const char *fmt, ...)
{
	va_list ap;

	if (!current || level < RETRO_LOG_WARN)
		return;
	va_start(ap, fmt);
	vsnprintf(current->log, sizeof current->log, fmt, ap);
	va_end(ap);
	current->log[strcspn(current->log, "\n")] = '\0';
}

/* The answers that make the core run headless and reproducibly: the
 * interpreter (the JIT hangs many homebrew ROMs in crt0), native
 * resolution, screens stacked with no gap, the stylus as a touch pointer. */
static const struct retro_variable variables[] = {
	{ "desmume_cpu_mode", "interpreter" },
	{ "desmume_internal_resolution", "256x192" },
	{ "desmume_num_cores", "1" },
	{ "desmume_screens_layout", "top/bottom" },
	{ "desmume_screens_gap", "0" },
	{ "desmume_pointer_mouse", "enable" },
	{ "desmume_pointer_type", "touch" },
	{ "desmume_pointer_device", "none" },
	{ "desmume_firmware_language", "English" },
	{ "desmume_frameskip", "0" },
	{ "desmume_load_to_memory", "enable" },
	{ "desmume_mic_force_enable", "no" },
};

static bool environment(unsigned cmd, void *data)
{
	size_t i;

	switch (cmd) {
	case RETRO_ENVIRONMENT_SET_PIXEL_FORMAT:
		/* retro_init gives up silently unless RGB565 is taken */
		return *(const int *)data == RETRO_PIXEL_FORMAT_RGB565;
	case RETRO_ENVIRONMENT_GET_VARIABLE: {
		struct retro_variable *v = data;

		for (i = 0; i < sizeof variables / sizeof variables[0]; i++)
			if (v->key && strcmp(v->key, variables[i].key) == 0) {
				v->value = variables[i].value;
				return true;
			}
		v->value = NULL;
		return false;
	}
	case RETRO_ENVIRONMENT_GET_VARIABLE_UPDATE:
		*(bool *)data = false;
		return true;
	case RETRO_ENVIRONMENT_GET_SAVE_DIRECTORY:
	case RETRO_ENVIRONMENT_GET_SYSTEM_DIRECTORY:
		if (!current)
			return false;
		*(const char **)data = current->dir;
		return true;
	case RETRO_ENVIRONMENT_GET_LOG_INTERFACE:
		((struct retro_log_callback *)data)->log = core_log;
		return true;
	case RETRO_ENVIRONMENT_SET_VARIABLES:
	case RETRO_ENVIRONMENT_SET_PERFORMANCE_LEVEL:
	case RETRO_ENVIRONMENT_SET_INPUT_DESCRIPTORS:
		return true;
	default:
		return false;
	}
}

/* The picture, kept only when asked for (vramsim play): RGB565 rows of
 * `pitch` bytes, both screens stacked. NULL data repeats the last one. */
static void on_video(const void *data, unsigned width, unsigned height, size_t pitch)
{
	unsigned x, y;

	if (!current || !current->video || !data)
		return;
	if (width > VS_DS_VIDEO_W)
		width = VS_DS_VIDEO_W;
	if (height > VS_DS_VIDEO_H)
		height = VS_DS_VIDEO_H;
	for (y = 0; y < height; y++) {
		const uint16_t *row = (const uint16_t *)((const uint8_t *)data + (size_t)y * pitch);
		uint8_t *out = current->video + (size_t)y * width * 4u;
		for (x = 0; x < width; x++, out += 4) {
			unsigned v = row[x];
			out[0] = (uint8_t)(((v >> 11) & 31u) * 255u / 31u);
			out[1] = (uint8_t)(((v >> 5) & 63u) * 255u / 63u);
			out[2] = (uint8_t)((v & 31u) * 255u / 31u);
			out[3] = 0;
		}
	}
	current->video_w = width;
	current->video_h = height;
}

static void on_sample(int16_t left, int16_t right)
{
	(void)left, (void)right;
}

static size_t on_samples(const int16_t *data, size_t frames)
{
	(void)data;
	return frames;
}

static void on_poll(void)
{
}

/* libretro joypad ids for VS_KEY_* bits 0..11 (A B select start right left
 * up down R L X Y). */
static const unsigned char joypad_id[12] = { 8, 0, 2, 3, 7, 6, 4, 5, 11, 10, 9, 1 };

static int16_t on_input(unsigned port, unsigned device, unsigned index, unsigned id)
{
	unsigned k;

	(void)index;
	if (!current || port != 0)
		return 0;
	if (device == RETRO_DEVICE_JOYPAD) {
		for (k = 0; k < 12; k++)
			if (joypad_id[k] == id)
				return (current->keys >> k) & 1u;
		return 0;
	}
	if (device == RETRO_DEVICE_POINTER) {
		if (id == RETRO_DEVICE_ID_POINTER_PRESSED)
			return (int16_t)current->touch;
		if (id == RETRO_DEVICE_ID_POINTER_X)
			return current->touch_x;
		if (id == RETRO_DEVICE_ID_POINTER_Y)
			return current->touch_y;
	}
	return 0;
}

/* ---- standard output: the core's printf goes to /dev/null ------------------ */

static void quiet_begin(vs_ds_core *c)
{
	fflush(stdout);
	c->saved_out = c->devnull >= 0 ? dup(STDOUT_FILENO) : -1;
	if (c->saved_out >= 0)
		dup2(c->devnull, STDOUT_FILENO);
}

static void quiet_end(vs_ds_core *c)
{
	fflush(stdout); /* what the core left in stdio's buffer goes to /dev/null too */
	if (c->saved_out >= 0) {
		dup2(c->saved_out, STDOUT_FILENO);
		close(c->saved_out);
		c->saved_out = -1;
	}
}

/* ---- open and close --------------------------------------------------------- */

static int make_dir(vs_ds_core *c, const char *rom, char *err, size_t errlen)
{
	const char *tmp = getenv("TMPDIR");
	const char *base = strrchr(rom, '/') ? strrchr(rom, '/') + 1 : rom, *dot = strrchr(base, '.');
	char dsv[PATH_MAX + 8];
	int n = snprintf(dsv, sizeof dsv, "%.*s.dsv", (int)(dot ? (size_t)(dot - base) : strlen(base)), base);

	if (!tmp || tmp[0] != '/')
		tmp = "/tmp"; /* the core needs an absolute path */
	/* Ctrl-C removes the folder too, with the core's save file in it
	 * (named after the ROM: NAME.nds saves NAME.dsv) */
	if (snprintf(c->dir, sizeof c->dir, "%s/vramsim-ds-XXXXXX", tmp) >= (int)sizeof c->dir
		|| vs_out_scratch_make(c->dir, 1, n > 0 && (size_t)n < sizeof dsv ? dsv : NULL) != 0) {
		snprintf(err, errlen, "cannot make a temporary directory in %s: %s", tmp, strerror(errno));
		c->dir[0] = '\0';
		return -1;
	}
	return 0;
}

vs_ds_core *vs_ds_core_open(const char *rom_path, char *err, size_t errlen)
{
	struct retro_game_info game = { NULL, NULL, 0, NULL };
	char full[PATH_MAX];
	vs_ds_core *c;
	bool ok;

	if (current) {
		snprintf(err, errlen, "one DS emulator per process: the DeSmuME core is global state, and one is open");
		return NULL;
	}
	if (load_core(err, errlen) < 0)
		return NULL;
	if (!realpath(rom_path, full)) {
		vs_text_path_msg(err, errlen, rom_path, "cannot open: %s", strerror(errno));
		return NULL;
	}
	c = calloc(1, sizeof *c);
	if (!c) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	c->devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	c->saved_out = -1;
	current = c;
	if (make_dir(c, full, err, errlen) < 0)
		goto fail;
#ifdef __GLIBC__
	/* retro_serialize builds its ~11 MB state in a buffer the core
	 * allocates, grows and frees on every call: glibc would map each of
	 * those blocks fresh and unmap it at the free, so every frame faulted
	 * its pages in again. From the heap, and never trimmed, they stay
	 * mapped from one frame to the next (docs/performance.md). */
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 64 << 20);
#endif
	quiet_begin(c);
	api.set_environment(environment);
	api.set_video_refresh(on_video);
	api.set_audio_sample(on_sample);
	api.set_audio_sample_batch(on_samples);
	api.set_input_poll(on_poll);
	api.set_input_state(on_input);
	if (!core_inited) {
		api.init();
		core_inited = 1;
	}
	c->inited = 1;
	game.path = full;
	vs_emu_guard_open("DeSmuME", rom_path);
	vs_emu_guard_enter(0, "loading the ROM");
	ok = api.load_game(&game);
	vs_emu_guard_leave();
	c->state_cap = ok ? api.serialize_size() : 0;
	quiet_end(c);
	if (!ok) {
		vs_text_path_msg(err, errlen, rom_path, "the DS emulator core refused the ROM%s%s%s", c->log[0] ? " (" : "",
			c->log, c->log[0] ? ")" : "");
		goto fail;
	}
	c->loaded = 1;
	c->state = malloc(c->state_cap ? c->state_cap : 1);
	if (!c->state) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	return c;
fail:
	vs_ds_core_close(c);
	return NULL;
}

void vs_ds_core_close(vs_ds_core *c)
{
	if (!c)
		return;
	if (c->inited) {
		quiet_begin(c);
		if (c->loaded)
			api.unload_game();
		quiet_end(c);
	}
	vs_emu_guard_close();
	remove_dir(c->dir);
	if (c->devnull >= 0)
		close(c->devnull);
	free(c->state);
	free(c->video);
	if (current == c)
		current = NULL;
	free(c);
}

/* ---- running ---------------------------------------------------------------- */

void vs_ds_core_set_input(vs_ds_core *c, uint16_t keys, int touch, unsigned x, unsigned y)
{
	c->keys = keys;
	c->touch = touch != 0;
	if (x > 255)
		x = 255;
	if (y > 191)
		y = 191;
	/* The core maps the pointer's -32768..32767 over both screens stacked
	 * (256 x 384) and takes the lower half as the touch screen: aim at the
	 * middle of pixel (x, 192 + y). */
	c->touch_x = (int16_t)((int32_t)x * 256 + 128 - 32768);
	c->touch_y = (int16_t)(((int32_t)(192 + y) * 2 + 1) * 65536 / (2 * 384) - 32768);
}

int vs_ds_core_keep_video(vs_ds_core *c)
{
	if (!c->video && !(c->video = calloc((size_t)VS_DS_VIDEO_W * VS_DS_VIDEO_H, 4)))
		return -1;
	c->video_w = VS_DS_VIDEO_W;
	c->video_h = VS_DS_VIDEO_H;
	return 0;
}

const uint8_t *vs_ds_core_video(const vs_ds_core *c, unsigned *w, unsigned *h)
{
	*w = c->video ? c->video_w : 0;
	*h = c->video ? c->video_h : 0;
	return c->video;
}

void vs_ds_core_run(vs_ds_core *c)
{
	quiet_begin(c);
	vs_emu_guard_enter(c->runs++, NULL);
	api.run();
	vs_emu_guard_leave();
	quiet_end(c);
}

const uint8_t *vs_ds_core_serialize(vs_ds_core *c, size_t *size, char *err, size_t errlen)
{
	bool ok;

	quiet_begin(c);
	vs_emu_guard_enter(0, "taking a savestate");
	ok = api.serialize(c->state, c->state_cap);
	vs_emu_guard_leave();
	quiet_end(c);
	if (!ok) {
		snprintf(err, errlen, "the DS emulator could not save its state (more than the %zu bytes it allows: "
			"a 3D scene too large?)", c->state_cap);
		return NULL;
	}
	*size = c->state_cap;
	return c->state;
}

int vs_ds_core_unserialize(vs_ds_core *c, const void *data, size_t size, char *err, size_t errlen)
{
	bool ok;

	c->log[0] = '\0';
	quiet_begin(c);
	vs_emu_guard_enter(0, "loading a savestate");
	ok = api.unserialize(data, size);
	vs_emu_guard_leave();
	quiet_end(c);
	if (!ok) {
		snprintf(err, errlen, "the DS emulator refused the savestate%s%s%s", c->log[0] ? " (" : "", c->log,
			c->log[0] ? ")" : "");
		return -1;
	}
	return 0;
}
