/* SPDX-License-Identifier: Zlib */
/* cmd_import.c - `vramsim import`: traces from elsewhere into trace format v1.
 * Today: malloc-lab traces (.rep), CS:APP and CMU 15-213. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/in_file.h"
#include "base/text.h"
#include "cli.h"
#include "strategies/registry.h"
#include "trace/import.h"
#include "trace/trace.h"

int vs_cmd_import(int argc, char **argv);

#define CMD "import"

enum { O_SIZE = VS_CLI_LONG, O_ARENA, O_REALLOC, O_HEADER, O_STRATEGY = 's' /* -s, as everywhere */ };

static const vs_cli_opt options[] = {
	{ "output", 'o', "TRACE", "write the trace there (default: standard output)" },
	{ "size", O_SIZE, "N", "arena bytes (K/M suffixes, at most 256M); default: what the trace "
		"needs (below)" },
	{ "arena", O_ARENA, "NAME", "arena name (default: heap): 1-31 letters, digits or _-./: from a letter" },
	{ "strategy", O_STRATEGY, "NAME", "strategy= on the arena line (e.g. heap-tlsf): one that manages ram "
		"arenas ('vramsim strategies')" },
	{ "plugin", VS_CLI_PLUGIN, "PATH", "load strategies from a plug-in (.so), for --strategy" },
	{ "realloc", O_REALLOC, "free-alloc", "the only mode: 'r ID SIZE' becomes 'free ID' then "
		"'alloc ID SIZE'; the strategy interface has no realloc yet" },
	{ "header", O_HEADER, "auto|csapp|cmu", "how to read a 4-line header (default auto: a first "
		"number below 16 is CMU's weight, else CS:APP's heap size)" },
	{ NULL, 0, NULL, NULL }
};

static void sizing(FILE *fp, int part)
{
	if (part == 1)
		fprintf(fp, "\nThe arena, unless --size is given, is what the trace needs: twice the larger of\n"
			"its peak of live blocks (each its size rounded up to %u, plus %u bytes of header,\n"
			"%u at least) and its largest block, rounded up to 64 KiB. A trace's ram arena\n"
			"holds at most %u MiB: a trace that needs more is refused, at the line where its\n"
			"peak is reached.\n", VS_REP_BLOCK_ALIGN, VS_REP_BLOCK_HEADER, VS_REP_BLOCK_MIN,
			VS_REP_MAX_SIZE >> 20);
}

static const vs_cli_cmd command = {
	CMD, "import FILE.rep [-o TRACE] [--size N] [--arena NAME] [--strategy NAME]\n"
	"                      [--header auto|csapp|cmu] [--realloc free-alloc] [--plugin PATH]",
	"Reads a malloc-lab trace and writes it as a vramsim trace: one 'ram' arena and\n"
	"one alloc/free event per operation. The header is 4 lines - CS:APP: suggested\n"
	"heap size, ids, operations, weight; CMU 15-213: weight, ids, operations,\n"
	"ignore_ranges - or 2 (ids, operations); then 'a ID SIZE', 'f ID' and\n"
	"'r ID SIZE' lines. 'f -1' is free(NULL), counted and left out; 'a ID 0' is\n"
	"malloc(0), kept; 'r ID 0' frees ID. Operations past the header's count are\n"
	"imported with a warning. '-' reads standard input.\n",
	options,
	"A note on standard error says how much the trace needs and what the arena got.\n"
	"Exit status: 0 done, 2 usage or input error (named file:line:col; no output\n"
	"file is left behind).\n",
	sizing, 0
};

typedef struct import_args {
	vs_rep_options opt;
	const char *in_path, *out_path;
} import_args;

/* One option or operand: -1 to go on, or an exit status. */
static int take(void *ud, const vs_cli_parser *p, int c)
{
	import_args *a = ud;
	vs_rep_options *opt = &a->opt;
	uint64_t v;

	switch (c) {
	case 'o':
		a->out_path = p->arg;
		return -1;
	case O_SIZE:
		if (vs_cli_bytes(p, 1, 0xFFFFFFFFu, &v))
			return VS_EXIT_USAGE;
		if (v > VS_REP_MAX_SIZE)
			return vs_cli_usage_error(CMD, "--size %s: a trace's ram arena holds at most %u MiB "
				"(trace format v1)", p->arg, VS_REP_MAX_SIZE >> 20);
		opt->size = (uint32_t)v;
		return -1;
	case O_HEADER:
		if (strcmp(p->arg, "auto") == 0)
			opt->header = VS_REP_HEADER_AUTO;
		else if (strcmp(p->arg, "csapp") == 0)
			opt->header = VS_REP_HEADER_CSAPP;
		else if (strcmp(p->arg, "cmu") == 0)
			opt->header = VS_REP_HEADER_CMU;
		else
			return vs_cli_usage_error(CMD, "--header %s: expected auto, csapp or cmu", p->arg);
		return -1;
	case O_ARENA:
		opt->arena = p->arg;
		return -1;
	case O_STRATEGY:
		opt->strategy = p->arg;
		return -1;
	case O_REALLOC:
		if (strcmp(p->arg, "free-alloc") != 0)
			return vs_cli_usage_error(CMD, "--realloc %s: only 'free-alloc' exists: the strategy "
				"interface has no realloc (see docs/heaps.md)", p->arg);
		return -1;
	}
	if (a->in_path)
		return vs_cli_usage_error(CMD, "more than one input file ('%s', '%s')", a->in_path, p->arg);
	a->in_path = p->arg;
	return -1;
}

/* The names put on the arena line, checked as the trace reader and the
 * replay will check them (the reader's own rules, the registry), so no
 * trace is written that they refuse. 0, or the usage error's status. */
static int check_names(const vs_rep_options *opt)
{
	const vs_strategy *s;
	const char *why;

	if (opt->arena && (why = vs_trace_arena_name_rule(opt->arena, strlen(opt->arena))))
		return vs_cli_usage_error(CMD, "--arena '%s': an arena name %s", opt->arena, why);
	if (!opt->strategy)
		return 0;
	if ((why = vs_trace_strategy_name_rule(opt->strategy, strlen(opt->strategy))))
		return vs_cli_usage_error(CMD, "--strategy '%s': a strategy name %s", opt->strategy, why);
	if (!(s = vs_strategy_find(opt->strategy)))
		return vs_cli_unknown_strategy(CMD, opt->strategy);
	if (!vs_strategy_manages(s, VS_ARENA_RAM))
		return vs_cli_usage_error(CMD, "--strategy %s cannot manage a ram arena (see 'vramsim strategies')",
			opt->strategy);
	return 0;
}

/* What the import did that a reader of the trace should know. */
static void notes(const char *name, const vs_rep_stats *st)
{
	if (st->ops_read > st->ops)
		fprintf(stderr, "%s:%llu:1: warning: the header says %u operation%s, the file has %u: all are imported\n",
			name, (unsigned long long)st->extra_line, st->ops, st->ops == 1 ? "" : "s", st->ops_read);
	fprintf(stderr, "%s: note: %s header; peak live payload %llu bytes in at most %llu block%s; arena %u bytes (%s",
		name, vs_rep_header_name(st->header), (unsigned long long)st->peak_live,
		(unsigned long long)st->peak_blocks, st->peak_blocks == 1 ? "" : "s", (unsigned)st->arena_size,
		st->size_given ? "--size" : "the trace's need");
	if (st->size_given)
		fprintf(stderr, "; it needs %llu", (unsigned long long)st->need);
	fprintf(stderr, ")\n");
	if (st->free_nulls || st->zero_allocs)
		fprintf(stderr, "%s: note: %u free(NULL) left out, %u malloc(0) kept as 'alloc ID 0'\n", name,
			st->free_nulls, st->zero_allocs);
	if (st->peak_live > st->arena_size)
		fprintf(stderr, "%s: note: peak live payload %llu bytes exceeds the %u-byte arena; "
			"allocations will fail (leave out --size to get what the trace needs)\n", name,
			(unsigned long long)st->peak_live, (unsigned)st->arena_size);
	else if (st->size_given && st->arena_size < st->need)
		fprintf(stderr, "%s: note: the %u-byte arena is below the trace's need (%llu bytes): "
			"some heaps may fail allocations\n", name, (unsigned)st->arena_size,
			(unsigned long long)st->need);
}

int vs_cmd_import(int argc, char **argv)
{
	import_args a;
	const char *in_path, *out_path;
	vs_rep_stats st;
	char err[1024], shown[512];
	FILE *in, *out;
	int rc;

	memset(&a, 0, sizeof a);
	a.out_path = "-";
	if ((rc = vs_cli_parse(&command, argc, argv, take, &a)) >= 0)
		return rc;
	in_path = a.in_path;
	out_path = a.out_path;
	if (!in_path)
		return vs_cli_usage_error(CMD, "no input file");
	if (check_names(&a.opt))
		return VS_EXIT_USAGE;
	/* the name as messages and the trace's comment show it: escaped, so a
	 * newline in it starts no line of its own */
	vs_text_path(shown, sizeof shown, strcmp(in_path, "-") == 0 ? "<stdin>" : in_path);
	in = strcmp(in_path, "-") != 0 ? vs_in_open(in_path, "rb") : vs_in_note_stdin() ? NULL : stdin;
	if (!in) {
		fprintf(stderr, "%s: error: cannot open: %s\n", shown, strerror(errno));
		return VS_EXIT_USAGE;
	}
	out = vs_cli_out_open(out_path, 0);
	if (!out) {
		if (in != stdin)
			fclose(in);
		return VS_EXIT_USAGE;
	}
	rc = vs_rep_import(in, shown, out, &a.opt, &st, err, sizeof err);
	if (in != stdin)
		fclose(in);
	if (rc && err[0])
		fprintf(stderr, "%s\n", err);
	if (vs_cli_out_close(out, rc == 0) || rc)
		return VS_EXIT_USAGE;
	notes(shown, &st);
	return VS_EXIT_OK;
}
