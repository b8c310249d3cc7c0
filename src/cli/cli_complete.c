/* SPDX-License-Identifier: Zlib */
/* cli_complete.c - shell completion of a command's arguments, from its
 * option table and the strategy registry (see `vramsim complete` in main.c
 * and vramsim.bash-completion). Prints nothing where a file name goes: the
 * shell completes those itself. */
#include <string.h>

#include "cli.h"
#include "strategies/plugin.h"
#include "strategies/registry.h"

/* The long option named, or the only one the name starts. */
static const vs_cli_opt *long_opt(const vs_cli_cmd *cmd, const char *name, size_t len)
{
	const vs_cli_opt *o, *found = NULL;
	int n = 0;

	for (o = cmd->opts; !vs_cli_opt_end(o); o++) {
		if (!o->name || strncmp(o->name, name, len) != 0)
			continue;
		if (strlen(o->name) == len)
			return o;
		found = o;
		n++;
	}
	return n == 1 ? found : NULL;
}

/* The option whose value is the next word, when w is one alone. */
static const vs_cli_opt *wants_value(const vs_cli_cmd *cmd, const char *w)
{
	const vs_cli_opt *o;
	int i;

	if (w[0] != '-' || !w[1])
		return NULL;
	if (w[1] == '-') {
		o = strchr(w, '=') ? NULL : long_opt(cmd, w + 2, strlen(w + 2));
		return o && o->arg ? o : NULL;
	}
	for (i = 1; w[i]; i++) {
		o = vs_cli_opt_find(cmd, w[i]);
		if (!o || o->arg)
			return o && !w[i + 1] ? o : NULL;
	}
	return NULL;
}

/* Plug-ins named before the word being completed add their strategies. */
static void load_plugins(const vs_cli_cmd *cmd, int n, char **w)
{
	char err[512];
	int i;

	if (!vs_cli_opt_find(cmd, VS_CLI_PLUGIN))
		return;
	for (i = 0; i < n; i++) {
		if (strcmp(w[i], "--plugin") == 0 && i + 1 < n)
			vs_plugin_load(w[i + 1], err, sizeof err);
		else if (strncmp(w[i], "--plugin=", 9) == 0)
			vs_plugin_load(w[i] + 9, err, sizeof err);
	}
}

/* Prints the strategies whose names start the choice being typed in v
 * ("a,obj=gba-o"), each after lead and v's finished part. */
static void complete_strategies(const char *lead, const char *v)
{
	const char *piece = strrchr(v, ','), *eq, *name;
	size_t i, len;

	piece = piece ? piece + 1 : v;
	if (strchr(piece, ':'))
		return; /* options: free text */
	eq = strchr(piece, '=');
	name = eq ? eq + 1 : piece;
	len = strlen(name);
	for (i = 0; i < vs_strategy_count(); i++)
		if (strncmp(vs_strategy_at(i)->name, name, len) == 0)
			printf("%s%.*s%s\n", lead, (int)(name - v), v, vs_strategy_at(i)->name);
}

/* A value: a strategy, one of the words of "a|b|c", or a file. */
static void complete_value(const vs_cli_opt *o, const char *lead, const char *v)
{
	const char *w = o->arg;
	size_t len, vl = strlen(v);

	if (strcmp(o->name, "strategy") == 0) {
		complete_strategies(lead, v);
		return;
	}
	if (!strchr(w, '|'))
		return;
	for (; *w; w += len + (w[len] == '|')) {
		len = strcspn(w, "|");
		if (vl <= len && strncmp(w, v, vl) == 0)
			printf("%s%.*s\n", lead, (int)len, w);
	}
}

static void complete_options(const vs_cli_cmd *cmd, const char *cur)
{
	const vs_cli_opt *o;
	size_t len = strlen(cur + 2);

	for (o = cmd->opts; !vs_cli_opt_end(o); o++)
		if (o->name && strncmp(o->name, cur + 2, len) == 0)
			printf("--%s\n", o->name);
	if (strncmp("help", cur + 2, len) == 0)
		printf("--help\n");
}

void vs_cli_complete(const vs_cli_cmd *cmd, int n, char **w)
{
	const char *cur = n > 0 ? w[n - 1] : "", *eq = strchr(cur, '=');
	const vs_cli_opt *pending = NULL, *o;
	char lead[128];
	int i;

	load_plugins(cmd, n - 1, w);
	for (i = 0; i < n - 1; i++) {
		if (pending) {
			pending = NULL;
			continue;
		}
		if (strcmp(w[i], "--") == 0)
			return; /* operands only */
		pending = wants_value(cmd, w[i]);
	}
	if (pending)
		complete_value(pending, "", cur);
	else if (strncmp(cur, "--", 2) == 0 && eq) {
		o = long_opt(cmd, cur + 2, (size_t)(eq - cur - 2));
		snprintf(lead, sizeof lead, "%.*s", (int)(eq + 1 - cur), cur);
		if (o && o->arg)
			complete_value(o, lead, eq + 1);
	} else if (strcmp(cur, "-") == 0 || strncmp(cur, "--", 2) == 0) {
		complete_options(cmd, cur[1] ? cur : "--");
	}
}
