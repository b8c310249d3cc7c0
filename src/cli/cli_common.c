/* SPDX-License-Identifier: Zlib */
/* cli_common.c - option handling shared by the sub-commands. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

int vs_cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "vramsim %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n(see 'vramsim %s --help')\n", cmd);
	return VS_EXIT_USAGE;
}

int vs_cli_common_option(const char *cmd, int argc, char **argv, int *i)
{
	char err[512];

	if (strcmp(argv[*i], "--plugin") != 0)
		return 0;
	if (*i + 1 >= argc) {
		vs_cli_usage_error(cmd, "--plugin needs a path to a shared object");
		return -1;
	}
	if (vs_plugin_load(argv[*i + 1], err, sizeof err)) {
		fprintf(stderr, "vramsim %s: %s\n", cmd, err);
		return -1;
	}
	(*i)++;
	return 1;
}

static const vs_strategy *lookup(const char *spec, size_t len, const char **opts, char *err, size_t errlen)
{
	char name[VS_NAME_MAX + 1];
	const char *colon = memchr(spec, ':', len);
	size_t nl = colon ? (size_t)(colon - spec) : len;
	const vs_strategy *s;

	*opts = colon ? colon + 1 : "";
	if (nl == 0 || nl > VS_NAME_MAX) {
		snprintf(err, errlen, "--strategy '%.*s': expected NAME, NAME:OPTIONS or ARENA=NAME", (int)len, spec);
		return NULL;
	}
	memcpy(name, spec, nl);
	name[nl] = '\0';
	s = vs_strategy_find(name);
	if (!s)
		snprintf(err, errlen, "unknown strategy '%s' (see 'vramsim strategies')", name);
	return s;
}

int vs_cli_apply_strategies(const vs_cli_strategies *cs, const vs_trace_header *h,
	vs_replay_config *cfg, char opts[][VS_OPTIONS_MAX], char *err, size_t errlen)
{
	int k, i;

	for (k = 0; k < cs->n; k++) {
		const char *spec = cs->spec[k], *eq = strchr(spec, '='), *colon = strchr(spec, ':'), *o;
		const vs_strategy *s;
		int used = 0;

		if (eq && (!colon || eq < colon)) {
			/* ARENA=NAME[:OPTS] */
			char arena[VS_NAME_MAX];
			size_t al = (size_t)(eq - spec);
			snprintf(arena, sizeof arena, "%.*s", (int)(al < VS_NAME_MAX - 1 ? al : VS_NAME_MAX - 1), spec);
			i = vs_trace_arena_index(h, arena);
			if (i < 0) {
				snprintf(err, errlen, "--strategy %s: the trace has no arena '%s'", spec, arena);
				return -1;
			}
			if (!(s = lookup(eq + 1, strlen(eq + 1), &o, err, errlen)))
				return -1;
			if (!vs_strategy_manages(s, h->arenas[i].kind)) {
				snprintf(err, errlen, "--strategy %s: %s cannot manage arena '%s' of kind %s", spec, s->name,
					arena, vs_arena_kind_name(h->arenas[i].kind));
				return -1;
			}
			cfg->strategy[i] = s;
			snprintf(opts[i], VS_OPTIONS_MAX, "%s", o);
			cfg->options[i] = opts[i];
			continue;
		}
		if (!(s = lookup(spec, strlen(spec), &o, err, errlen)))
			return -1;
		for (i = 0; i < h->narenas; i++) {
			if (!vs_strategy_manages(s, h->arenas[i].kind))
				continue;
			cfg->strategy[i] = s;
			snprintf(opts[i], VS_OPTIONS_MAX, "%s", o);
			cfg->options[i] = opts[i];
			used = 1;
		}
		if (!used) {
			snprintf(err, errlen, "--strategy %s manages none of this trace's arenas", s->name);
			return -1;
		}
	}
	return 0;
}

FILE *vs_cli_out_open(const char *path, char *tmp, size_t tmplen)
{
	FILE *fp;

	if (strcmp(path, "-") == 0) {
		tmp[0] = '\0';
		return stdout;
	}
	snprintf(tmp, tmplen, "%s.tmp-%ld", path, (long)getpid());
	fp = fopen(tmp, "wb");
	if (!fp)
		fprintf(stderr, "vramsim: cannot write %s: %s\n", path, strerror(errno));
	return fp;
}

int vs_cli_out_close(FILE *fp, const char *path, const char *tmp, int ok)
{
	int bad;

	if (fp == stdout)
		return fflush(stdout) == 0 && ok ? 0 : -1;
	bad = ferror(fp);
	if (fclose(fp) != 0)
		bad = 1;
	if (!ok || bad) {
		remove(tmp);
		if (bad)
			fprintf(stderr, "vramsim: error writing %s\n", path);
		return -1;
	}
	if (rename(tmp, path) != 0) {
		fprintf(stderr, "vramsim: cannot write %s: %s\n", path, strerror(errno));
		remove(tmp);
		return -1;
	}
	return 0;
}
