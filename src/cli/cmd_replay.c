/* SPDX-License-Identifier: Zlib */
/* cmd_replay.c - `vramsim replay`: run a trace, print the summary. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "progress.h"
#include "base/out_file.h"
#include "base/text.h"
#include "engine/report.h"

#define CMD "replay"

enum { O_AT = VS_CLI_LONG, O_DUMP, O_JSON, O_STRICT, O_NO_CHECKS, O_EVENTS, O_SERIES, O_FULL_BYTES };

static const vs_cli_opt options[] = {
	{ "strategy", 's', "SPEC", "strategies, a comma list of NAME[:OPTS] (every arena "
		"NAME can manage) or ARENA=NAME[:OPTS] (one arena; "
		"OPTS: key=value,...); repeatable. A choice for an "
		"arena an earlier one covers starts another run: "
		"each run is replayed and summarised in turn. "
		"Arenas with no choice use the trace's strategy= "
		"hint, else their kind's default" },
	{ "plugin", VS_CLI_PLUGIN, "PATH", "load strategies from a plug-in (.so)" },
	{ "at", O_AT, "N", "stop after event N and print the state there" },
	{ "dump", O_DUMP, NULL, "print each strategy's own dump at the end (or at N)" },
	{ "json", O_JSON, NULL, "print the summary as JSON (an array of them for several runs)" },
	{ "events", O_EVENTS, "FILE", "write every event's result as JSON Lines to FILE ('-': standard "
		"output): call, request, address, the allocator's own answer (key, return code, hit), failure "
		"kind with free and largest free bytes, diagnostics (docs/results.md)" },
	{ "series", O_SERIES, "FILE", "write a CSV row per arena at each frame (each event when the "
		"trace has no frames): live, free, largest free, extents, fragmentation, allocations, frees, "
		"failures, bytes loaded" },
	{ "strict", O_STRICT, NULL, "make every diagnostic fatal (exit 1)" },
	{ "no-checks", O_NO_CHECKS, NULL, "skip byte and hardware-rule checks (faster)" },
	{ "full-bytes", O_FULL_BYTES, NULL, "write and compare every byte of every allocation, also for the "
		"heaps whose stores the replay sees (slower; docs/heaps.md, Checks)" },
	{ "quiet", 'q', NULL, "do not print diagnostics, only count them, nor progress (shown on a terminal "
		"after a second)" },
	{ NULL, 0, NULL, NULL }
};

static const vs_cli_cmd command = {
	CMD, "replay TRACE [options]",
	"Replays TRACE ('-' for standard input) against allocation strategies over a\n"
	"byte-exact model of each arena it declares, checking every placement, and\n"
	"prints a summary: per arena the counts, live and free bytes, fragmentation\n"
	"and bookkeeping RAM, then the failed requests (the first 20) and a table per\n"
	"tag.\n",
	options,
	"exit: 0 replayed clean, 1 an integrity check failed or --strict stopped it,\n"
	"2 bad usage, a malformed trace or an output that cannot be written (nothing\n"
	"is left behind); with several runs, the worst of them.\n",
	NULL, 0
};

typedef struct replay_opts {
	const char *path;
	vs_cli_choices cs;
	vs_replay_config cfg;
	uint64_t at;
	int json, dump, quiet;
	const char *events, *series;
} replay_opts;

static void quiet_message(void *ud, const char *line)
{
	(void)ud;
	(void)line;
}

/* A plug-in's dump may hand NULL (the ABI cannot stop it): nothing to print. */
static void print_dump(void *ud, const char *text)
{
	if (text)
		fputs(text, ud);
}

/* One option or operand into o: -1 to go on, or an exit status. */
static int take(void *ud, const vs_cli_parser *p, int c)
{
	replay_opts *o = ud;

	switch (c) {
	case 's':
		return vs_cli_choices_add(CMD, &o->cs, p->arg) ? VS_EXIT_USAGE : -1;
	case O_AT:
		return vs_cli_uint(p, 1, UINT64_MAX, &o->at) ? VS_EXIT_USAGE : -1;
	case O_JSON:
		o->json = 1;
		return -1;
	case O_DUMP:
		o->dump = 1;
		return -1;
	case O_STRICT:
		o->cfg.strict = 1;
		return -1;
	case O_EVENTS:
		o->events = p->arg;
		return -1;
	case O_SERIES:
		o->series = p->arg;
		return -1;
	case O_NO_CHECKS:
		o->cfg.check_bytes = 0;
		o->cfg.check_rules = 0;
		return -1;
	case O_FULL_BYTES:
		if (o->cfg.check_bytes) /* --no-checks wins */
			o->cfg.check_bytes = VS_BYTES_FULL;
		return -1;
	case 'q':
		o->cfg.message = quiet_message;
		o->quiet = 1;
		return -1;
	}
	if (o->path)
		return vs_cli_usage_error(CMD, "one trace at a time (got '%s' and '%s')", o->path, p->arg);
	o->path = p->arg;
	return -1;
}

static int parse(int argc, char **argv, replay_opts *o)
{
	int rc = vs_cli_parse(&command, argc, argv, take, o);

	if (rc >= 0)
		return rc;
	return o->path ? -1 : vs_cli_usage_error(CMD, "no trace given");
}

static void print_dumps(FILE *fp, vs_replay *r)
{
	int i;

	for (i = 0; i < vs_replay_arena_count(r); i++) {
		const vs_strategy *s = vs_replay_strategy(r, i);
		fprintf(fp, "\ndump of arena %s (%s):\n", vs_replay_arena(r, i)->decl.name, s->name);
		if (s->dump)
			s->dump(vs_replay_strategy_state(r, i), print_dump, fp);
		else
			fprintf(fp, "  (%s has no dump)\n", s->name);
	}
}

/* Prints the summary of a finished run: JSON into runs when there are
 * several, else on its own. */
static void print_run(const replay_opts *o, vs_replay *r, const vs_results *x, int g, cJSON *runs)
{
	char label[1024];
	/* an event log or series on standard output keeps it to itself */
	FILE *fp = (o->events && !strcmp(o->events, "-")) || (o->series && !strcmp(o->series, "-")) ? stderr : stdout;

	if (o->json) {
		cJSON *j = vs_report_json(r);
		vs_report_results_json(j, r, x);
		char *s = runs ? NULL : cJSON_Print(j);
		if (runs)
			cJSON_AddItemToArray(runs, j);
		else
			cJSON_Delete(j);
		if (s)
			fprintf(fp, "%s\n", s);
		free(s);
	} else {
		if (o->cs.ngroups > 1) {
			int n;
			const vs_cmp_choice *v = vs_cli_choices_of(&o->cs, g, &n);
			vs_cli_choices_label(v, n, label, sizeof label);
			vs_text_escape_in_place(label, sizeof label); /* strategy options: one line */
			fprintf(fp, "%s== run %d of %d: %s\n", g ? "\n" : "", g + 1, o->cs.ngroups, label);
		}
		char shown[4 * 4096 + 1];
		vs_text_escape(shown, sizeof shown, o->path, strlen(o->path), 0);
		fprintf(fp, "trace %s\n", shown); /* one line, whatever the file's name */
		if (o->at)
			vs_report_state(fp, r);
		vs_report_text(fp, r);
		vs_report_results_text(fp, r, x);
	}
	if (o->dump)
		print_dumps(fp, r);
}

/* Finishes and commits the output files, all or none. */
static int finish_all(vs_out_file *out, int n, char *err, size_t errlen)
{
	int i;

	for (i = 0; i < n; i++)
		if (vs_out_finish(&out[i], 1, err, errlen))
			return -1;
	return vs_out_commit(out, n, err, errlen);
}

/* Replays group g of the choices from rd (which it closes). */
static int run(const replay_opts *o, vs_trace_reader *rd, int g, cJSON *runs)
{
	vs_replay_config cfg = o->cfg;
	char opts[VS_TRACE_MAX_ARENAS][VS_OPTIONS_MAX];
	char err[1024];
	vs_replay *r;
	vs_results *x;
	vs_out_file out[2];
	int rc, status, nout = 0, ev_out = -1, se_out = -1, n;
	const vs_cmp_choice *v = vs_cli_choices_of(&o->cs, g, &n);

	if (vs_cli_apply_choices(v, n, vs_trace_header_of(rd), &cfg, opts, err, sizeof err)) {
		vs_trace_close(rd);
		return vs_cli_usage_error(CMD, "%s", err);
	}
	/* the outputs open first: one that cannot be written stops the run */
	if ((o->events && (ev_out = nout, vs_out_open(&out[nout++], o->events, err, sizeof err))) ||
		(o->series && (se_out = nout, vs_out_open(&out[nout++], o->series, err, sizeof err)))) {
		fprintf(stderr, "vramsim replay: %s\n", err);
		vs_out_abort(out, nout - 1);
		vs_trace_close(rd);
		return VS_EXIT_USAGE;
	}
	x = vs_results_new(ev_out >= 0 ? out[ev_out].fp : NULL, se_out >= 0 ? out[se_out].fp : NULL);
	if (!x) {
		fprintf(stderr, "vramsim replay: out of memory\n");
		vs_out_abort(out, nout);
		vs_trace_close(rd);
		return VS_EXIT_USAGE;
	}
	vs_results_attach(x, &cfg);
	r = vs_replay_new(rd, &cfg, err, sizeof err);
	if (!r) {
		fprintf(stderr, "vramsim replay: %s\n", err);
		vs_out_abort(out, nout);
		vs_results_free(x);
		return VS_EXIT_USAGE;
	}
	rc = vs_progress_replay(r, o->at, "replay", o->quiet || o->json);
	if (rc < 0) {
		const char *e = vs_replay_error(r);
		fprintf(stderr, "%s\n", e);
		/* a parse error is bad input; a strict stop is a failed check */
		status = cfg.strict && strstr(e, ": error: ") && vs_replay_diag_total(r) ? VS_EXIT_CHECK : VS_EXIT_USAGE;
		vs_out_abort(out, nout);
		vs_replay_free(r);
		vs_results_free(x);
		return status;
	}
	if (o->at && vs_replay_events(r) < o->at) {
		/* the state at the end is not the one asked for: no summary, no outputs */
		vs_cli_usage_error(CMD, "--at %llu is past the trace's end: it has %llu events", (unsigned long long)o->at,
			(unsigned long long)vs_replay_events(r));
		vs_out_abort(out, nout);
		vs_replay_free(r);
		vs_results_free(x);
		return VS_EXIT_USAGE;
	}
	status = vs_replay_check_total(r) ? VS_EXIT_CHECK : VS_EXIT_OK;
	rc = vs_results_finish(x, r);
	err[0] = '\0';
	if (nout && (finish_all(out, nout, err, sizeof err) || rc)) {
		/* the stream that failed names itself in err; else memory ran out */
		fprintf(stderr, "vramsim replay: %s\n", err[0] ? err : "out of memory writing --events or --series");
		vs_out_abort(out, nout);
		status = VS_EXIT_USAGE;
	}
	print_run(o, r, x, g, runs);
	vs_replay_free(r);
	vs_results_free(x);
	return status;
}

/* Every run in turn; the worst exit status. */
static int run_all(const replay_opts *o, vs_trace_reader *rd)
{
	cJSON *runs = o->json && o->cs.ngroups > 1 ? cJSON_CreateArray() : NULL;
	char err[1024];
	int g, status = VS_EXIT_OK;

	for (g = 0; g < o->cs.ngroups && status != VS_EXIT_USAGE; g++) {
		int s;
		if (g && !(rd = vs_trace_open(o->path, err, sizeof err))) {
			fprintf(stderr, "%s\n", err);
			status = VS_EXIT_USAGE;
			break;
		}
		s = run(o, rd, g, runs);
		if (s > status)
			status = s;
	}
	if (runs && status != VS_EXIT_USAGE) {
		char *s = cJSON_Print(runs);
		if (s)
			puts(s);
		free(s);
	}
	cJSON_Delete(runs);
	return status;
}

int vs_cmd_replay(int argc, char **argv)
{
	replay_opts o;
	char err[1024];
	vs_trace_reader *rd;
	int status;

	memset(&o, 0, sizeof o);
	vs_replay_config_default(&o.cfg);
	status = parse(argc, argv, &o);
	if (status < 0 && vs_cli_choices_split(CMD, &o.cs))
		status = VS_EXIT_USAGE;
	if (status >= 0) {
		vs_cli_choices_free(&o.cs);
		return status;
	}
	rd = vs_trace_open(o.path, err, sizeof err);
	if (!rd) {
		fprintf(stderr, "%s\n", err);
		vs_cli_choices_free(&o.cs);
		return VS_EXIT_USAGE;
	}
	status = vs_cli_choices_group(CMD, &o.cs, vs_trace_header_of(rd), o.cs.n + 1, "run");
	if (!status && o.events && o.series && !strcmp(o.events, "-") && !strcmp(o.series, "-"))
		status = vs_cli_usage_error(CMD, "--events and --series cannot both be standard output");
	if (!status && o.cs.ngroups > 1 && (o.events || o.series))
		status = vs_cli_usage_error(CMD, "--events and --series take one run (got %d: give one strategy per "
			"arena)", o.cs.ngroups);
	if (!status && o.cs.ngroups > 1)
		status = vs_cli_rereadable(CMD, o.path, "each run reads the trace again");
	if (status)
		vs_trace_close(rd);
	else
		status = run_all(&o, rd);
	vs_cli_choices_free(&o.cs);
	return status;
}
