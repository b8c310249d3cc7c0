/* SPDX-License-Identifier: Zlib */
/* cmd_import.c - `vramsim import`: traces from elsewhere into trace format v1.
 * Today: CS:APP malloc-lab traces (.rep). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "vramsim/import.h"

int vs_cmd_import(int argc, char **argv);

#define CMD "import"

enum { O_SIZE = VS_CLI_LONG, O_ARENA, O_STRATEGY, O_REALLOC };

static const vs_cli_opt options[] = {
	{ "output", 'o', "TRACE", "write the trace there (default: standard output)" },
	{ "size", O_SIZE, "N", "arena bytes (K/M suffixes); default: the header's suggested "
		"heap size, or malloc lab's MAX_HEAP (below) with a 2-line header" },
	{ "arena", O_ARENA, "NAME", "arena name (default: heap)" },
	{ "strategy", O_STRATEGY, "NAME", "strategy= on the arena line (e.g. heap-tlsf)" },
	{ "realloc", O_REALLOC, "free-alloc", "the only mode: 'r ID SIZE' becomes 'free ID' then "
		"'alloc ID SIZE'; the strategy interface has no realloc yet" },
	{ NULL, 0, NULL, NULL }
};

static void max_heap(FILE *fp, int part)
{
	if (part == 1)
		fprintf(fp, "\nMAX_HEAP is %u bytes.\n", VS_REP_DEFAULT_SIZE);
}

static const vs_cli_cmd command = {
	CMD, "import FILE.rep [-o TRACE] [--size N] [--arena NAME] [--strategy NAME]\n"
	"                      [--realloc free-alloc]",
	"Reads a CS:APP malloc-lab trace (a header of 4 lines - suggested heap size,\n"
	"number of ids, number of operations, weight - or 2 lines - ids, operations;\n"
	"then 'a ID SIZE', 'f ID' and 'r ID SIZE' lines) and writes it as a vramsim\n"
	"trace: one 'ram' arena and one alloc/free event a line. '-' reads standard input.\n",
	options,
	"The header's suggested heap size is often far below what the trace needs; a note\n"
	"on standard error says so when the peak live payload exceeds the arena.\n"
	"Exit status: 0 done, 2 usage or input error (named file:line:col).\n",
	max_heap, 0
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
		opt->size = (uint32_t)v;
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

int vs_cmd_import(int argc, char **argv)
{
	import_args a;
	const char *in_path, *out_path;
	vs_rep_stats st;
	char err[1024], tmp[1100];
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
	in = strcmp(in_path, "-") == 0 ? stdin : fopen(in_path, "rb");
	if (!in) {
		fprintf(stderr, "%s: error: cannot open: ", in_path);
		perror(NULL);
		return VS_EXIT_USAGE;
	}
	out = vs_cli_out_open(out_path, tmp, sizeof tmp);
	if (!out) {
		if (in != stdin)
			fclose(in);
		return VS_EXIT_USAGE;
	}
	rc = vs_import_rep(in, strcmp(in_path, "-") == 0 ? "<stdin>" : in_path, out, &a.opt, &st, err, sizeof err);
	if (in != stdin)
		fclose(in);
	if (rc)
		fprintf(stderr, "%s\n", err);
	if (vs_cli_out_close(out, out_path, tmp, rc == 0) || rc)
		return VS_EXIT_USAGE;
	if (st.peak_live > st.arena_size)
		fprintf(stderr, "%s: note: peak live payload %llu bytes exceeds the %u-byte arena; "
			"allocations will fail (use --size)\n", in_path, (unsigned long long)st.peak_live,
			(unsigned)st.arena_size);
	return VS_EXIT_OK;
}
