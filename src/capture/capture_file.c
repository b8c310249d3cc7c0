/* SPDX-License-Identifier: Zlib */
/* capture_file.c - the summary of a written capture moved to its top (capture_file.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/capture_file.h"

int vs_capture_file_summary_first(FILE *tmp, FILE *out)
{
	return vs_capture_file_finish(tmp, out, NULL);
}

/* A line of the header (before the first arena line) that run_line
 * replaces: the one starting as run_line does up to its first '='. */
static int replaced(const char *line, const char *run_line, int placed)
{
	const char *eq = run_line ? strchr(run_line, '=') : NULL;

	return eq && !placed && strncmp(line, run_line, (size_t)(eq - run_line)) == 0;
}

int vs_capture_file_finish(FILE *tmp, FILE *out, const char *run_line)
{
	char *line = NULL, *summary = NULL;
	size_t cap = 0, slen = 0;
	ssize_t n;
	int placed = 0, rc = 0;
	static const char mark[] = "# capture summary:";

	rewind(tmp);
	while ((n = getline(&line, &cap, tmp)) > 0) {
		char *ns;

		if (strncmp(line, mark, sizeof mark - 1) != 0)
			continue;
		if (!(ns = realloc(summary, slen + (size_t)n + 1))) {
			rc = -1;
			break;
		}
		summary = ns;
		memcpy(summary + slen, line, (size_t)n + 1);
		slen += (size_t)n;
	}
	rewind(tmp);
	while (rc == 0 && (n = getline(&line, &cap, tmp)) > 0) {
		if (strncmp(line, mark, sizeof mark - 1) == 0)
			continue;
		if (!placed && strncmp(line, "arena ", 6) == 0) {
			if (slen)
				fwrite(summary, 1, slen, out);
			placed = 1;
		}
		if (replaced(line, run_line, placed)) {
			fprintf(out, "%s\n", run_line);
			run_line = NULL;
			continue;
		}
		fwrite(line, 1, (size_t)n, out);
	}
	if (!placed && slen)
		fwrite(summary, 1, slen, out);
	free(line);
	free(summary);
	if (ferror(tmp) || ferror(out))
		rc = -1;
	return rc;
}

void vs_capture_file_write_error(FILE *out, char *err, size_t errlen)
{
	int e = errno;
	const char *why = e ? strerror(e) : "a write failed";

	/* tmpfile() makes its file in the system's folder (/tmp with glibc),
	 * whatever TMPDIR says */
	if (out && ferror(out))
		snprintf(err, errlen, "writing the trace failed: %s", why);
	else
		snprintf(err, errlen, "cannot write the capture's unnamed temporary file (tmpfile(), /tmp): %s", why);
}
