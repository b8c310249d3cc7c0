/* SPDX-License-Identifier: Zlib */
/* module.c - commands in modules, loaded with dlopen when one of them runs.
 *
 * `cycles` and `record` need libmgba, `view` needs SDL2, `record` of a DS
 * ROM the DeSmuME core. Each group is a shared object (vramsim-gba.so,
 * vramsim-view.so, vramsim-ds.so) holding its commands and
 * all they use, so vramsim starts without loading either library, and its
 * other commands work where they are missing. A module is looked for in
 * $VRAMSIM_MODULE_DIR when that is set, else beside the executable (the
 * build tree), else at VS_MODULE_RELDIR from it (an installed tree, wherever
 * it was moved).
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/in_file.h"
#include "cli.h"
#include "module.h"

/* CMake defines VS_MODULE_NAME=1 for each module it builds. */
#ifndef VS_MODULE_GBA
#define VS_MODULE_GBA 0
#endif
#ifndef VS_MODULE_VIEW
#define VS_MODULE_VIEW 0
#endif
#ifndef VS_MODULE_DS
#define VS_MODULE_DS 0
#endif
#ifndef VS_MODULE_PLAY
#define VS_MODULE_PLAY 0
#endif
#ifndef VS_MODULE_RELDIR
#define VS_MODULE_RELDIR "../lib/vramsim"
#endif

typedef struct module {
	const char *name;
	int built;
	const char *file;
	const char *needs;   /* what it is built with */
	const char *package; /* the Debian package that brings it */
} module;

static const module modules[] = {
	{ "gba", VS_MODULE_GBA, "vramsim-gba.so", "libmgba", "libmgba-dev" },
	{ "view", VS_MODULE_VIEW, "vramsim-view.so", "SDL2", "libsdl2-dev" },
	{ "play", VS_MODULE_PLAY, "vramsim-play.so", "SDL2 and libmgba", "libsdl2-dev and libmgba-dev" },
	/* built always: it loads the DS emulator core itself when a DS ROM runs */
	{ "ds", VS_MODULE_DS, "vramsim-ds.so", "the DeSmuME libretro core at run time", "libretro-desmume" },
};

enum { NMODULES = sizeof modules / sizeof modules[0] };

static const module *find(const char *name)
{
	size_t i;

	for (i = 0; i < NMODULES; i++)
		if (strcmp(modules[i].name, name) == 0)
			return &modules[i];
	return NULL;
}

/* The module's path in the first folder that has it (resolved, so its
 * folder reads cleanly): 1. Otherwise the first place looked at, for
 * dlopen to say what is wrong: 0. */
static int locate(const module *m, char path[PATH_MAX])
{
	const char *env = getenv("VRAMSIM_MODULE_DIR");
	char exe[PATH_MAX], cand[2][PATH_MAX];
	ssize_t n;
	int i, ncand = 0;

	if (env && *env) {
		if (snprintf(cand[ncand], sizeof cand[0], "%s/%s", env, m->file) < (int)sizeof cand[0])
			ncand++;
	} else if ((n = readlink("/proc/self/exe", exe, sizeof exe - 1)) > 0) {
		exe[n] = 0;
		*strrchr(exe, '/') = 0; /* the kernel gives an absolute path */
		if (snprintf(cand[0], sizeof cand[0], "%s/%s", exe, m->file) < (int)sizeof cand[0]
			&& snprintf(cand[1], sizeof cand[1], "%s/" VS_MODULE_RELDIR "/%s", exe, m->file)
				< (int)sizeof cand[1])
			ncand = 2;
	}
	for (i = 0; i < ncand; i++)
		if (realpath(cand[i], path))
			return 1;
	strcpy(path, ncand ? cand[0] : m->file);
	return 0;
}

static int not_built(const module *m, const char *cmd)
{
	fprintf(stderr, "vramsim %s: not built: vramsim was configured without %s; install %s and rebuild\n",
		cmd, m->needs, m->package);
	return VS_EXIT_USAGE;
}

int vs_cli_module_run(const char *name, const char *cmd, int argc, char **argv)
{
	const module *m = find(name);
	char path[PATH_MAX], err[1024];
	vs_module_entry *run;
	void *h;

	if (!m)
		return vs_cli_usage_error(cmd, "no module '%s'", name);
	if (!m->built)
		return not_built(m, cmd);
	locate(m, path);
	if (strchr(path, '/') && vs_in_regular(path, NULL, err, sizeof err)) { /* dlopen would wait on a FIFO */
		fprintf(stderr, "vramsim %s: cannot load the %s module: %s\n", cmd, m->name, err);
		return VS_EXIT_USAGE;
	}
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		fprintf(stderr, "vramsim %s: cannot load the %s module: %s\n"
			"vramsim %s: it needs %s: install %s, or set VRAMSIM_MODULE_DIR to the folder "
			"holding %s\n", cmd, m->name, dlerror(), cmd, m->needs, m->package, m->file);
		return VS_EXIT_USAGE;
	}
	*(void **)(&run) = dlsym(h, VS_MODULE_ENTRY);
	if (!run) {
		fprintf(stderr, "vramsim %s: %s is not a vramsim module (no %s)\n", cmd, path, VS_MODULE_ENTRY);
		return VS_EXIT_USAGE;
	}
	*strrchr(path, '/') = 0;
	/* The module stays loaded until exit: what it registers (atexit, its
	 * libraries' own) may point into it. */
	return run(path, cmd, argc, argv);
}

/* Without loading anything: a listing must stay as quick as the rest, and
 * a module that is there but cannot load says why when its command runs. */
const char *vs_cli_module_missing(const char *name)
{
	static char why[NMODULES][160];
	const module *m = find(name);
	char path[PATH_MAX];
	size_t i;

	if (!m)
		return "no such module";
	i = (size_t)(m - modules);
	if (!m->built)
		snprintf(why[i], sizeof why[i], "not built: install %s and rebuild", m->package);
	else if (!locate(m, path))
		snprintf(why[i], sizeof why[i], "%s not found: set VRAMSIM_MODULE_DIR", m->file);
	else
		return NULL;
	return why[i];
}
