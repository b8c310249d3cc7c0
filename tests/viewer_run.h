/* SPDX-License-Identifier: Zlib */
/* viewer_run.h - what the viewer suites (test_viewer, test_viewer_ds) share:
 * the viewer run in process as `vramsim view` runs it, its log a stream of
 * the test's (a tmpfile) and a script's screenshots committed when the run
 * succeeded (vs_viewer_outs). Static functions: each suite includes it
 * once, after support.h and viewer/viewer.h. */
#ifndef VS_TESTS_VIEWER_RUN_H
#define VS_TESTS_VIEWER_RUN_H

#include <stdio.h>
#include <string.h>

/* o's log is `log` (NULL: standard output), its screenshots go to outs. */
static void viewer_outputs(vs_viewer_opts *o, FILE *log)
{
	static vs_out_file log_file;
	static vs_viewer_outs outs; /* fixed: out_file.c tracks them by address */

	memset(&outs, 0, sizeof outs);
	memset(&log_file, 0, sizeof log_file);
	log_file.fp = log;
	snprintf(log_file.path, sizeof log_file.path, "the test's log");
	o->log = log ? &log_file : NULL;
	o->outs = &outs;
}

/* vs_viewer_run, then the screenshots committed when it returned 0 or 1. */
static int viewer_run(const vs_viewer_opts *o, char *err, size_t errlen)
{
	int rc = vs_viewer_run(o, err, errlen);

	if (rc != 2 && vs_out_commit(o->outs->f, o->outs->n, err, errlen) != 0)
		return 2;
	return rc;
}

#endif
