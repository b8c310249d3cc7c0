/* SPDX-License-Identifier: Zlib */
/* cmd_strategies.c - `vramsim strategies`: one line per strategy. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

int vs_cmd_strategies(int argc, char **argv)
{
	size_t i, n;
	int k;

	for (k = 1; k < argc; k++) {
		int c = vs_cli_common_option("strategies", argc, argv, &k);
		if (c < 0)
			return VS_EXIT_USAGE;
		if (c > 0)
			continue;
		if (strcmp(argv[k], "--help") == 0 || strcmp(argv[k], "-h") == 0) {
			printf("usage: vramsim strategies [--plugin PATH]\n\n"
				"Lists every strategy, built in or from plug-ins, with the arenas it\n"
				"manages and a one-line description. '*' marks an arena kind's default.\n");
			return VS_EXIT_OK;
		}
		return vs_cli_usage_error("strategies", "unknown argument '%s'", argv[k]);
	}
	n = vs_strategy_count();
	for (i = 0; i < n; i++) {
		const vs_strategy *s = vs_strategy_at(i);
		char arenas[96] = "";
		size_t len = 0;
		for (k = 0; k < VS_ARENA_KIND_COUNT; k++) {
			if (!vs_strategy_manages(s, (vs_arena_kind)k))
				continue;
			len += (size_t)snprintf(arenas + len, sizeof arenas - len, "%s%s%s", len ? "," : "",
				vs_arena_kind_name((vs_arena_kind)k), vs_strategy_default((vs_arena_kind)k) == s ? "*" : "");
			if (len >= sizeof arenas)
				break;
		}
		printf("%-22s %-18s %s\n", s->name, arenas, s->summary ? s->summary : "");
	}
	return VS_EXIT_OK;
}
