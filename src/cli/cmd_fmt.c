/* SPDX-License-Identifier: Zlib */
/* cmd_fmt.c - `vramsim validate` and `vramsim fmt`: read a trace through,
 * and for fmt write it back in canonical form. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static int read_through(const char *cmd, const char *path, const char *out)
{
	char err[1024], tmp[1100];
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
		fp = vs_cli_out_open(out, tmp, sizeof tmp);
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
	if (fp && vs_cli_out_close(fp, out, tmp, ok) && rc >= 0) {
		vs_trace_close(rd);
		return VS_EXIT_USAGE;
	}
	if (rc >= 0 && !out)
		printf("%s: valid trace, version %d, %d arena%s, %llu events\n", path, h->version, h->narenas,
			h->narenas == 1 ? "" : "s", (unsigned long long)n);
	(void)cmd;
	vs_trace_close(rd);
	return rc < 0 ? VS_EXIT_USAGE : VS_EXIT_OK;
}

int vs_cmd_validate(int argc, char **argv)
{
	int i;
	const char *path = NULL;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			printf("usage: vramsim validate TRACE\n\n"
				"Reads TRACE ('-' for standard input) and checks that it is a well-formed\n"
				"trace (docs/trace-format.md). Errors name file:line:col. Misuse that is\n"
				"well-formed (freeing an id that is not live) is reported by 'replay'.\n"
				"\nexit: 0 valid, 2 malformed or unreadable.\n");
			return VS_EXIT_OK;
		}
		if (argv[i][0] == '-' && argv[i][1])
			return vs_cli_usage_error("validate", "unknown option '%s'", argv[i]);
		if (path)
			return vs_cli_usage_error("validate", "one trace at a time");
		path = argv[i];
	}
	if (!path)
		return vs_cli_usage_error("validate", "no trace given");
	return read_through("validate", path, NULL);
}

int vs_cmd_fmt(int argc, char **argv)
{
	int i;
	const char *path = NULL, *out = "-";

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			printf("usage: vramsim fmt TRACE [-o OUT]\n\n"
				"Rewrites TRACE in canonical form (docs/trace-format.md, 'Canonical form')\n"
				"to standard output or OUT. OUT is written only when the whole trace is\n"
				"valid; it may be TRACE itself.\n"
				"\nexit: 0 written, 2 malformed trace or unwritable output.\n");
			return VS_EXIT_OK;
		}
		if (strcmp(argv[i], "-o") == 0) {
			if (++i >= argc)
				return vs_cli_usage_error("fmt", "-o needs a file");
			out = argv[i];
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return vs_cli_usage_error("fmt", "unknown option '%s'", argv[i]);
		} else if (path) {
			return vs_cli_usage_error("fmt", "one trace at a time");
		} else {
			path = argv[i];
		}
	}
	if (!path)
		return vs_cli_usage_error("fmt", "no trace given");
	return read_through("fmt", path, out);
}
