/* SPDX-License-Identifier: Zlib */
/* plugin.c - loads strategies from shared objects (docs/strategy-api.md). */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "vramsim/strategy.h"

int vs_plugin_load(const char *path, char *err, size_t errlen)
{
	void *h;
	const vs_plugin *(*entry)(void);
	const vs_plugin *p;
	size_t i;

	/* dlopen searches the library path for bare names: make it a path. */
	if (!strchr(path, '/')) {
		snprintf(err, errlen, "%s: give the plug-in as a path (./%s)", path, path);
		return -1;
	}
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(err, errlen, "%s: cannot load plug-in: %s", path, dlerror());
		return -1;
	}
	*(void **)(&entry) = dlsym(h, VS_PLUGIN_SYMBOL);
	if (!entry) {
		snprintf(err, errlen, "%s: not a vramsim plug-in (no %s symbol)", path, VS_PLUGIN_SYMBOL);
		dlclose(h);
		return -1;
	}
	p = entry();
	if (!p || p->abi != VS_STRATEGY_ABI) {
		snprintf(err, errlen, "%s: plug-in ABI %u, vramsim speaks %u", path,
			p ? (unsigned)p->abi : 0u, (unsigned)VS_STRATEGY_ABI);
		dlclose(h);
		return -1;
	}
	for (i = 0; i < p->count; i++) {
		char why[256];
		if (vs_strategy_register(p->strategies[i], why, sizeof why)) {
			snprintf(err, errlen, "%s: %s", path, why);
			/* the ones registered stay; the handle must stay open for them */
			return -1;
		}
	}
	/* The handle stays open for the life of the process: strategies point into it. */
	return 0;
}
