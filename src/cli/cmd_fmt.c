/* SPDX-License-Identifier: Zlib */
/* cmd_fmt.c - `vramsim validate` and `vramsim fmt`: read a trace through,
 * and for fmt write it back in canonical form. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static int read_through(const char *path, const char *out)
{
	char err[1024];
	vs_trace_reader *rd = vs_trace_open(path, err, sizeof err);
	const vs_trace_header *h;
	vs_event ev;
	FILE *fp = NULL;
	uint64_t n = 0;
	int rc, ok = 1;

	if (!rd) {
		fprintf(stderr, "%s\n", err);
		return VS_EXIT_USAGE;
	}
	h = vs_trace_header_of(rd);
	if (out) {
		fp = vs_cli_out_open(out, 1);
		if (!fp) {
			vs_trace_close(rd);
			return VS_EXIT_USAGE;
		}
		vs_trace_write_header(fp, h);
	}
	while ((rc = vs_trace_next(rd, &ev)) == 1) {
		n++;
		if (fp && vs_trace_write_event(fp, h, &ev))
			ok = 0;
	}
	if (rc < 0) {
		fprintf(stderr, "%s\n", vs_trace_error(rd));
		ok = 0;
	}
	if (fp && vs_cli_out_close(fp, ok) && rc >= 0) {
		vs_trace_close(rd);
		return VS_EXIT_USAGE;
	}
	if (rc >= 0 && !out)
		printf("%s: valid trace, version %d, %d arena%s, %llu events\n", path, h->version, h->narenas,
			h->narenas == 1 ? "" : "s", (unsigned long long)n);
	vs_trace_close(rd);
	return rc < 0 ? VS_EXIT_USAGE : VS_EXIT_OK;
}

static const vs_cli_cmd validate_cmd = {
	"validate", "validate TRACE",
	"Reads TRACE ('-' for standard input) and checks that it is a well-formed\n"
	"trace (docs/trace-format.md). Errors name file:line:col. Misuse that is\n"
	"well-formed (freeing an id that is not live) is reported by 'replay'.\n",
	NULL,
	"exit: 0 valid, 2 malformed or unreadable.\n",
	NULL, 0
};

static const vs_cli_opt fmt_options[] = {
	{ "output", 'o', "OUT", "write to OUT instead of standard output" },
	{ NULL, 0, NULL, NULL }
};

static const vs_cli_cmd fmt_cmd = {
	"fmt", "fmt TRACE [-o OUT]",
	"Rewrites TRACE in canonical form (docs/trace-format.md, 'Canonical form')\n"
	"to standard output or OUT. OUT is written only when the whole trace is\n"
	"valid; it may be TRACE itself (TRACE, ./TRACE, a symbolic link to it),\n"
	"rewritten in place. Another hard link of TRACE is refused: replacing it\n"
	"would split the link and leave TRACE as it was.\n",
	fmt_options,
	"exit: 0 written, 2 malformed trace or unwritable output.\n",
	NULL, 0
};

typedef struct fmt_args {
	const char *cmd, *path, *out;
} fmt_args;

static int take(void *ud, const vs_cli_parser *p, int c)
{
	fmt_args *a = ud;

	if (c == 'o')
		a->out = p->arg;
	else if (a->path)
		return vs_cli_usage_error(a->cmd, "one trace at a time");
	else
		a->path = p->arg;
	return -1;
}

/* Both commands: one trace, and fmt's -o. */
static int run(const vs_cli_cmd *cmd, int argc, char **argv)
{
	fmt_args a = { NULL, NULL, "-" };
	int rc;

	a.cmd = cmd->name;
	if ((rc = vs_cli_parse(cmd, argc, argv, take, &a)) >= 0)
		return rc;
	if (!a.path)
		return vs_cli_usage_error(cmd->name, "no trace given");
	return read_through(a.path, cmd == &fmt_cmd ? a.out : NULL);
}

int vs_cmd_validate(int argc, char **argv)
{
	return run(&validate_cmd, argc, argv);
}

int vs_cmd_fmt(int argc, char **argv)
{
	return run(&fmt_cmd, argc, argv);
}
