/* SPDX-License-Identifier: Zlib */
/* progress.c - a progress line on standard error for work longer than a
 * second, when standard error is a terminal and --quiet was not given. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"

#define FIRST_AFTER 1.0  /* seconds of silence before the first line */
#define EVERY 0.25       /* seconds between updates */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* VRAMSIM_PROGRESS=always shows it from the start on any stream (logs,
 * tests), =never hides it; anything else: on a terminal, after a second. */
void vs_progress_start(vs_progress *p, const char *what, int quiet)
{
	const char *env = getenv("VRAMSIM_PROGRESS");
	int always = env && !strcmp(env, "always");

	p->on = !quiet && !(env && !strcmp(env, "never")) && (always || isatty(STDERR_FILENO));
	p->what = what;
	p->start = p->last = p->on ? now() : 0.0;
	if (always)
		p->start -= FIRST_AFTER;
	p->shown = 0;
	p->runs = 0;
	p->unit = "replays";
}

/* Straight to the terminal: stderr itself escapes control characters
 * (cli_common.c), which the carriage return must not be. */
static void put(const char *s, int n)
{
	fflush(stderr);
	if (n > 0 && write(STDERR_FILENO, s, (size_t)n) < 0)
		return; /* a progress line that cannot be shown is not an error */
}

void vs_progress_update(vs_progress *p, uint64_t done, uint64_t total, uint64_t events)
{
	char line[160];
	double t, rate;
	int n;

	if (!p->on)
		return;
	t = now();
	if (t - p->start < FIRST_AFTER || (p->shown && t - p->last < EVERY))
		return;
	p->last = t;
	rate = (double)events / (t - p->start);
	if (p->runs)
		n = snprintf(line, sizeof line, "\r%s: %llu of %llu %s, %.1f %s/s ", p->what, (unsigned long long)done,
			(unsigned long long)total, p->unit, rate, p->unit);
	else if (total && done <= total)
		n = snprintf(line, sizeof line, "\r%s: %3.0f%%, %llu events, %.0f events/s ", p->what,
			100.0 * (double)done / (double)total, (unsigned long long)events, rate);
	else
		n = snprintf(line, sizeof line, "\r%s: %llu events, %.0f events/s ", p->what, (unsigned long long)events,
			rate);
	put(line, n < (int)sizeof line ? n : (int)sizeof line - 1);
	p->shown = 1;
}

void vs_progress_end(vs_progress *p)
{
	if (p->on && p->shown)
		put("\r\033[K", 4); /* the line goes: the summary follows */
	p->shown = 0;
}

int vs_progress_replay(vs_replay *r, uint64_t until, const char *what, int quiet)
{
	const vs_trace_reader *rd = vs_replay_reader(r);
	uint64_t size = vs_trace_size(rd);
	vs_progress pg;
	int rc = 1;

	vs_progress_start(&pg, what, quiet);
	if (!pg.on)
		return vs_replay_run(r, until);
	while ((!until || vs_replay_events(r) < until) && (rc = vs_replay_step(r)) == 1)
		if ((vs_replay_events(r) & 4095u) == 0)
			vs_progress_update(&pg, vs_trace_bytes_read(rd), size, vs_replay_events(r));
	vs_progress_end(&pg);
	return rc;
}

void vs_progress_start_frames(vs_progress *p, const char *what, int quiet)
{
	vs_progress_start(p, what, quiet);
	p->runs = 1;
	p->unit = "frames";
}

void vs_progress_frames(void *p, uint32_t done, uint32_t frames)
{
	vs_progress_update(p, done, frames, done);
}
