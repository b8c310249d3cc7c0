/* SPDX-License-Identifier: Zlib */
/* cli_common.c - usage errors and output files, shared by the sub-commands. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

int vs_cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "vramsim%s%s: ", cmd ? " " : "", cmd ? cmd : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n(see 'vramsim%s%s --help')\n", cmd ? " " : "", cmd ? cmd : "");
	return VS_EXIT_USAGE;
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
