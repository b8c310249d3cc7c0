/* SPDX-License-Identifier: Zlib */
/* capture_file.h - what a capture command does with the trace a capture
 * wrote (GBA: console/gba/gba_capture.c, DS: console/ds/ds_capture.c). */
#ifndef VRAMSIM_CAPTURE_FILE_H
#define VRAMSIM_CAPTURE_FILE_H

#include <stdio.h>

/* Copies the trace from tmp to out with the summary capture writes at the
 * end (its "# capture summary:" lines) moved up, before the first arena
 * line: a reader sees at once how well the rules fitted. Returns 0, or -1
 * on a read or write error or no memory. */
int vs_capture_file_summary_first(FILE *tmp, FILE *out);
/* The same, and run_line (NULL: none), a whole line without its newline,
 * replaces the first line of the header that starts as it does up to its
 * first '=': the line a capture's header comment ends in ("# capture:
 * frames=N ...") for a run whose length was not known when the header was
 * written (vramsim play). */
int vs_capture_file_finish(FILE *tmp, FILE *out, const char *run_line);

/* The message for a capture whose writing failed, with errno's reason:
 * the output (out's error flag is set) or the unnamed temporary file the
 * capture is written to first. */
void vs_capture_file_write_error(FILE *out, char *err, size_t errlen);

#endif
