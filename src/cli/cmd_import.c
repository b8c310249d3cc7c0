/* SPDX-License-Identifier: Zlib */
/* cmd_import.c - `vramsim import`: traces from elsewhere into trace format v1.
 * Today: CS:APP malloc-lab traces (.rep). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "vramsim/import.h"

int vs_cmd_import(int argc, char **argv);

static void usage(void)
{
	printf("usage: vramsim import FILE.rep [-o TRACE] [--size N] [--arena NAME] [--strategy NAME]\n"
		"                      [--realloc free-alloc]\n\n"
		"Reads a CS:APP malloc-lab trace (a header of 4 lines - suggested heap size,\n"
		"number of ids, number of operations, weight - or 2 lines - ids, operations;\n"
		"then 'a ID SIZE', 'f ID' and 'r ID SIZE' lines) and writes it as a vramsim\n"
		"trace: one 'ram' arena and one alloc/free event a line. '-' reads standard input.\n\n"
		"  -o TRACE          write the trace there (default: standard output)\n"
		"  --size N          arena bytes (K/M suffixes); default: the header's suggested\n"
		"                    heap size, or %u (malloc lab's MAX_HEAP) with a 2-line header\n"
		"  --arena NAME      arena name (default: heap)\n"
		"  --strategy NAME   strategy= on the arena line (e.g. heap-tlsf)\n"
		"  --realloc MODE    free-alloc (the only mode): 'r ID SIZE' becomes 'free ID' then\n"
		"                    'alloc ID SIZE'; the strategy interface has no realloc yet\n\n"
		"The header's suggested heap size is often far below what the trace needs; a note\n"
		"on standard error says so when the peak live payload exceeds the arena.\n"
		"Exit status: 0 done, 2 usage or input error (named file:line:col).\n",
		VS_REP_DEFAULT_SIZE);
}

static int parse_size(const char *s, uint32_t *out)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 0);

	if (end == s)
		return -1;
	if (*end == 'K' || *end == 'k')
		v *= 1024u, end++;
	else if (*end == 'M' || *end == 'm')
		v *= 1048576u, end++;
	if (*end || v == 0 || v > 0xFFFFFFFFull)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

int vs_cmd_import(int argc, char **argv)
{
	const char *in_path = NULL, *out_path = "-";
	vs_rep_options opt;
	vs_rep_stats st;
	char err[1024], tmp[1100];
	FILE *in, *out;
	int i, rc;

	memset(&opt, 0, sizeof opt);
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage();
			return VS_EXIT_OK;
		}
		if ((strcmp(a, "-o") == 0 || strcmp(a, "--size") == 0 || strcmp(a, "--arena") == 0 ||
		     strcmp(a, "--strategy") == 0 || strcmp(a, "--realloc") == 0) && i + 1 >= argc)
			return vs_cli_usage_error("import", "%s needs a value", a);
		if (strcmp(a, "-o") == 0) {
			out_path = argv[++i];
		} else if (strcmp(a, "--size") == 0) {
			if (parse_size(argv[++i], &opt.size))
				return vs_cli_usage_error("import", "--size %s: expected bytes from 1 to 4G (K/M suffixes)",
					argv[i]);
		} else if (strcmp(a, "--arena") == 0) {
			opt.arena = argv[++i];
		} else if (strcmp(a, "--strategy") == 0) {
			opt.strategy = argv[++i];
		} else if (strcmp(a, "--realloc") == 0) {
			if (strcmp(argv[++i], "free-alloc") != 0)
				return vs_cli_usage_error("import", "--realloc %s: only 'free-alloc' exists: the strategy "
					"interface has no realloc (see docs/heaps.md)", argv[i]);
		} else if (a[0] == '-' && a[1]) {
			return vs_cli_usage_error("import", "unknown option '%s' (see vramsim import --help)", a);
		} else if (!in_path) {
			in_path = a;
		} else {
			return vs_cli_usage_error("import", "more than one input file ('%s', '%s')", in_path, a);
		}
	}
	if (!in_path)
		return vs_cli_usage_error("import", "no input file (see vramsim import --help)");
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
	rc = vs_import_rep(in, strcmp(in_path, "-") == 0 ? "<stdin>" : in_path, out, &opt, &st, err, sizeof err);
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
