/* SPDX-License-Identifier: Zlib */
/* plugin.c - loads strategies from shared objects (docs/strategy-api.md). */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "vramsim/strategy.h"
#include "base/in_file.h"
#include "base/text.h"
#include "strategies/plugin.h"
#include "strategies/registry.h"

/* The files loaded, by device and inode: the same one given again, by any
 * name, is loaded once. Each brings a strategy at least, so there are at
 * most as many as strategies. */
static struct { dev_t dev; ino_t ino; } loaded[VS_PLUGIN_MAX_STRATEGIES];
static size_t nloaded;

static int is_loaded(const struct stat *st)
{
	size_t i;

	for (i = 0; i < nloaded; i++)
		if (loaded[i].dev == st->st_dev && loaded[i].ino == st->st_ino)
			return 1;
	return 0;
}

int vs_plugin_load(const char *path, char *err, size_t errlen)
{
	void *h;
	const vs_plugin *(*entry)(void);
	const vs_plugin *p;
	char why[512];
	struct stat st;
	const char *not_file;

	/* dlopen searches the library path for bare names: make it a path. */
	if (!strchr(path, '/')) {
		snprintf(err, errlen, "%s: give the plug-in as a path (./%s)", path, path);
		vs_text_escape_in_place(err, errlen);
		return -1;
	}
	/* dlopen would block on a FIFO's open, or read a device without end */
	not_file = stat(path, &st) ? strerror(errno) : S_ISREG(st.st_mode) ? NULL : "not a regular file";
	if (not_file) {
		snprintf(err, errlen, "%s: cannot load plug-in: %s", path, not_file);
		vs_text_escape_in_place(err, errlen);
		return -1;
	}
	if (is_loaded(&st))
		return 0;
	/* an input of the run like a trace: no output of it may replace the
	 * shared object (compare --plugin ./p.so -o ./p.so) */
	if (vs_in_note(path)) {
		snprintf(err, errlen, "%s: out of memory", path);
		vs_text_escape_in_place(err, errlen);
		return -1;
	}
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(err, errlen, "%s: cannot load plug-in: %s", path, dlerror());
		vs_text_escape_in_place(err, errlen);
		return -1;
	}
	*(void **)(&entry) = dlsym(h, VS_PLUGIN_SYMBOL);
	if (!entry) {
		snprintf(err, errlen, "%s: not a vramsim plug-in (no %s symbol)", path, VS_PLUGIN_SYMBOL);
		goto bad;
	}
	p = entry();
	if (!p) {
		snprintf(err, errlen, "%s: its %s() returned no table (NULL)", path, VS_PLUGIN_SYMBOL);
		goto bad;
	}
	if (p->abi < VS_STRATEGY_ABI_OLDEST || p->abi > VS_STRATEGY_ABI) {
		snprintf(err, errlen, "%s: plug-in ABI %u, vramsim speaks %u to %u", path, (unsigned)p->abi,
			(unsigned)VS_STRATEGY_ABI_OLDEST, (unsigned)VS_STRATEGY_ABI);
		goto bad;
	}
	/* the table is checked whole before anything of it is used */
	if (p->name && (strnlen(p->name, 256) == 256 || !vs_text_clean(p->name, strlen(p->name)))) {
		snprintf(err, errlen, "%s: the plug-in's name is longer than 255 bytes or holds control characters or "
			"bytes that are not UTF-8", path);
		goto bad;
	}
	if (p->count == 0 || !p->strategies || p->count > VS_PLUGIN_MAX_STRATEGIES) {
		snprintf(err, errlen, "%s: the plug-in's table lists %zu strategies %s (1 to %d, and a pointer to them)",
			path, p->count, p->strategies ? "" : "at a NULL pointer", VS_PLUGIN_MAX_STRATEGIES);
		goto bad;
	}
	if (vs_strategy_register_all(p->strategies, p->count, why, sizeof why)) {
		snprintf(err, errlen, "%s: %s", path, why);
		goto bad;
	}
	/* The handle stays open for the life of the process: strategies point into it. */
	loaded[nloaded].dev = st.st_dev;
	loaded[nloaded].ino = st.st_ino;
	nloaded++;
	return 0;
bad:
	vs_text_escape_in_place(err, errlen);
	dlclose(h);
	return -1;
}
