/* SPDX-License-Identifier: Zlib */
/* record_sink.h - record.h on the host for the suites that test its macros
 * (test_record_h, test_record_nns): every line the macros print is kept in
 * `lines`, and trace_text() gives them as the recorder writes them, prefix
 * stripped. Include it in one test program only, instead of record.h. */
#ifndef VS_TEST_RECORD_SINK_H
#define VS_TEST_RECORD_SINK_H

#include <stdio.h>
#include <string.h>

#include "support.h"

static char lines[1 << 16];
static size_t nlines;

static void put_line(const char *s)
{
	int n = snprintf(lines + nlines, sizeof lines - nlines, "%s\n", s);

	ck_assert(n > 0 && nlines + (size_t)n < sizeof lines);
	nlines += (size_t)n;
}

#define VS_REC_PUTS(line) put_line(line)
#include "vramsim/record.h"

/* Every line carries the prefix; the recorder strips it. */
static char *trace_text(void)
{
	static char text[sizeof lines];
	const char *p = lines;
	size_t n = 0;

	while (*p) {
		ck_assert_msg(strncmp(p, VS_REC_PREFIX, 4) == 0, "no prefix: %s", p);
		p += 4;
		while (*p && *p != '\n')
			text[n++] = *p++;
		text[n++] = *p ? *p++ : '\n';
	}
	text[n] = 0;
	return text;
}

static void reset_lines(void)
{
	nlines = 0;
	lines[0] = 0;
}

#endif
