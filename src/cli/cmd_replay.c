/* SPDX-License-Identifier: Zlib */
/* cmd_replay.c - `vramsim replay`: run a trace, print the summary. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "vramsim/report.h"

static void help(void)
{
	printf(
		"usage: vramsim replay TRACE [options]\n"
		"\n"
		"Replays TRACE ('-' for standard input) against allocation strategies over a\n"
		"byte-exact model of each arena it declares, checking every placement, and\n"
		"prints a summary.\n"
		"\n"
		"options:\n"
		"  --strategy NAME[:OPTS]        use NAME for every arena it can manage\n"
		"  --strategy ARENA=NAME[:OPTS]  use NAME for one arena (OPTS: key=value,...)\n"
		"                                arenas with no choice use the trace's strategy=\n"
		"                                hint, else their kind's default\n"
		"  --plugin PATH                 load strategies from a plug-in (.so)\n"
		"  --at N                        stop after event N and print the state there\n"
		"  --dump                        print each strategy's own dump at the end (or at N)\n"
		"  --json                        print the summary as JSON\n"
		"  --strict                      make every diagnostic fatal (exit 1)\n"
		"  --no-checks                   skip byte and hardware-rule checks (faster)\n"
		"  --quiet                       do not print diagnostics, only count them\n"
		"\n"
		"exit: 0 replayed clean, 1 an integrity check failed or --strict stopped it,\n"
		"2 bad usage or a malformed trace.\n");
}

static void quiet_message(void *ud, const char *line)
{
	(void)ud;
	(void)line;
}

static void print_dump(void *ud, const char *text)
{
	fputs(text, ud);
}

int vs_cmd_replay(int argc, char **argv)
{
	const char *path = NULL;
	vs_cli_strategies cs;
	vs_replay_config cfg;
	char opts[VS_TRACE_MAX_ARENAS][VS_OPTIONS_MAX];
	char err[1024];
	int json = 0, dump = 0, quiet = 0, i, rc, status;
	uint64_t at = 0;
	vs_trace_reader *rd;
	vs_replay *r;

	memset(&cs, 0, sizeof cs);
	vs_replay_config_default(&cfg);
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		int c = vs_cli_common_option("replay", argc, argv, &i);
		if (c < 0)
			return VS_EXIT_USAGE;
		if (c > 0)
			continue;
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			help();
			return VS_EXIT_OK;
		} else if (strcmp(a, "--strategy") == 0 || strcmp(a, "-s") == 0) {
			if (++i >= argc)
				return vs_cli_usage_error("replay", "--strategy needs a name");
			if (cs.n == 32)
				return vs_cli_usage_error("replay", "too many --strategy options");
			snprintf(cs.spec[cs.n++], sizeof cs.spec[0], "%s", argv[i]);
		} else if (strcmp(a, "--at") == 0) {
			char *end;
			if (++i >= argc)
				return vs_cli_usage_error("replay", "--at needs an event number");
			at = strtoull(argv[i], &end, 10);
			if (*end || at == 0 || argv[i][0] == '-')
				return vs_cli_usage_error("replay", "--at: '%s' is not an event number (1 or more)", argv[i]);
		} else if (strcmp(a, "--json") == 0) {
			json = 1;
		} else if (strcmp(a, "--dump") == 0) {
			dump = 1;
		} else if (strcmp(a, "--strict") == 0) {
			cfg.strict = 1;
		} else if (strcmp(a, "--no-checks") == 0) {
			cfg.check_bytes = 0;
			cfg.check_rules = 0;
		} else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
			quiet = 1;
		} else if (a[0] == '-' && a[1]) {
			return vs_cli_usage_error("replay", "unknown option '%s'", a);
		} else if (!path) {
			path = a;
		} else {
			return vs_cli_usage_error("replay", "one trace at a time (got '%s' and '%s')", path, a);
		}
	}
	if (!path)
		return vs_cli_usage_error("replay", "no trace given");
	if (quiet)
		cfg.message = quiet_message;

	rd = vs_trace_open(path, err, sizeof err);
	if (!rd) {
		fprintf(stderr, "%s\n", err);
		return VS_EXIT_USAGE;
	}
	if (vs_cli_apply_strategies(&cs, vs_trace_header_of(rd), &cfg, opts, err, sizeof err)) {
		vs_trace_close(rd);
		return vs_cli_usage_error("replay", "%s", err);
	}
	r = vs_replay_new(rd, &cfg, err, sizeof err);
	if (!r) {
		fprintf(stderr, "vramsim replay: %s\n", err);
		return VS_EXIT_USAGE;
	}
	rc = vs_replay_run(r, at);
	if (rc < 0) {
		const char *e = vs_replay_error(r);
		fprintf(stderr, "%s\n", e);
		/* a parse error is bad input; a strict stop is a failed check */
		status = cfg.strict && strstr(e, ": error: ") && vs_replay_diag_total(r) ? VS_EXIT_CHECK : VS_EXIT_USAGE;
		vs_replay_free(r);
		return status;
	}
	if (at && vs_replay_events(r) < at)
		fprintf(stderr, "vramsim replay: the trace ends after event %llu, before event %llu\n",
			(unsigned long long)vs_replay_events(r), (unsigned long long)at);
	if (json) {
		cJSON *o = vs_report_json(r);
		char *s = cJSON_Print(o);
		if (s)
			puts(s);
		free(s);
		cJSON_Delete(o);
	} else {
		printf("trace %s\n", path);
		if (at)
			vs_report_state(stdout, r);
		vs_report_text(stdout, r);
	}
	if (dump) {
		for (i = 0; i < vs_replay_arena_count(r); i++) {
			const vs_strategy *s = vs_replay_strategy(r, i);
			printf("\ndump of arena %s (%s):\n", vs_replay_arena(r, i)->decl.name, s->name);
			if (s->dump)
				s->dump(vs_replay_strategy_state(r, i), print_dump, stdout);
			else
				printf("  (%s has no dump)\n", s->name);
		}
	}
	status = vs_replay_check_total(r) ? VS_EXIT_CHECK : VS_EXIT_OK;
	vs_replay_free(r);
	return status;
}
