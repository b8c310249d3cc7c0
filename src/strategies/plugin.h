/* SPDX-License-Identifier: Zlib */
/* plugin.h - loading a strategy plug-in (a shared object, docs/strategy-api.md)
 * into the registry (registry.h).
 */
#ifndef VS_STRATEGIES_PLUGIN_H
#define VS_STRATEGIES_PLUGIN_H

#include <stddef.h>

/* Loads a plug-in and registers its strategies, all of them or none: a
 * path that is no regular file (refused before dlopen, which would wait on
 * a FIFO), an entry point that returns NULL, a table with no strategies,
 * more than VS_PLUGIN_MAX_STRATEGIES, a NULL pointer among them, a name
 * with control characters or a strategy vs_strategy_register refuses is
 * refused whole. A file loaded already (by device and inode, whatever the
 * name) is not loaded again: 0. The shared object is an input of the run
 * (base/in_file.h): no output may replace it. Returns 0 or -1 with err. */
int vs_plugin_load(const char *path, char *err, size_t errlen);

#endif
