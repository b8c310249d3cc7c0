/* SPDX-License-Identifier: Zlib */
/* replay_msg.c - what a replay tells: the names of failure, diagnostic and
 * check kinds, diagnostics and integrity errors (shown up to a limit, then
 * counted), and each event's outcome to the observer. */
#include <stdarg.h>
#include <stdio.h>

#include "replay_int.h"

static const char *const fail_names[VS_FAIL_KINDS] = {
	"out of memory", "fragmented", "rule", "management", "unsupported", "invalid"
};
static const char *const diag_names[VS_DIAG_KINDS] = {
	"unknown id", "double free", "free of failed allocation", "duplicate id", "divergence",
	"unknown state", "strategy refused", "heap stack", "invalid request"
};
static const char *const check_names[VS_CHECK_KINDS] = {
	"overlap", "out of bounds", "hardware rule", "bytes changed", "short grant", "bad move",
	"unmapped bank", "bad status"
};

const char *vs_replay_fail_kind_name(vs_fail_kind k) { return (unsigned)k < VS_FAIL_KINDS ? fail_names[k] : "?"; }
const char *vs_replay_diag_kind_name(vs_diag_kind k) { return (unsigned)k < VS_DIAG_KINDS ? diag_names[k] : "?"; }
const char *vs_replay_check_kind_name(vs_check_kind k) { return (unsigned)k < VS_CHECK_KINDS ? check_names[k] : "?"; }

static void emit(vs_replay *r, const char *line)
{
	if (r->cfg.message)
		r->cfg.message(r->cfg.message_ud, line);
	else
		fprintf(stderr, "%s\n", line);
}

/* Whether the n-th message of a kind is shown: up to max_messages are; the
 * first past them says the rest are counted, and none is formatted (a trace
 * may diverge thousands of times). */
static int shown(vs_replay *r, uint64_t n, const char *what)
{
	char line[128];

	if (n <= (uint64_t)r->cfg.max_messages)
		return 1;
	if (n == (uint64_t)r->cfg.max_messages + 1) {
		snprintf(line, sizeof line, "vramsim: further %s of this kind are counted, not shown", what);
		emit(r, line);
	}
	return 0;
}

/* Reports a diagnostic; returns -1 when strict makes it fatal. */
int vs_replay_diag(vs_replay *r, vs_diag_kind k, const char *fmt, ...)
{
	char msg[768], line[1024];
	va_list ap;
	uint64_t n = ++r->diag[k];
	int a = r->ev.arena >= 0 ? r->ev.arena : 0;

	r->ar[a].m.diags++;
	if (!r->cfg.strict && !shown(r, n, "diagnostics"))
		return 0;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	snprintf(line, sizeof line, "%s:%llu: %s: %s: %s", vs_trace_name(r->rd), (unsigned long long)r->ev.line,
		r->cfg.strict ? "error" : "warning", diag_names[k], msg);
	if (r->cfg.strict) {
		snprintf(r->err, sizeof r->err, "%s", line);
		return -1;
	}
	emit(r, line);
	return 0;
}

void vs_replay_check_fail(vs_replay *r, int a, vs_check_kind k, const char *fmt, ...)
{
	char msg[768], line[1024];
	va_list ap;
	uint64_t n = ++r->check[k];

	r->ar[a].m.checks++;
	if (!shown(r, n, "integrity errors"))
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	snprintf(line, sizeof line, "%s:%llu: error: integrity: %s: event %llu, strategy %s: %s",
		vs_trace_name(r->rd), (unsigned long long)r->ev.line, check_names[k],
		(unsigned long long)(r->events), r->ar[a].strat->name, msg);
	emit(r, line);
}

int vs_replay_bad_status(vs_replay *r, int a, const char *call, int status, int failed_as)
{
	vs_replay_check_fail(r, a, VS_CHECK_STATUS, "%s returned %d, which is no vs_status (%d to %d)", call, status,
		(int)VS_ERR_LOST, (int)VS_RETAINED);
	return status < 0 ? failed_as : VS_OK;
}

void vs_replay_notify(vs_replay *r, int status, int failed, vs_fail_kind fk, const vs_live *live)
{
	vs_outcome o;

	if (!r->cfg.observer)
		return;
	o.ev = &r->ev;
	o.event = r->events;
	o.status = status;
	o.failed = failed;
	o.fail_kind = fk;
	o.live = live;
	o.released = r->released;
	r->released = 0;
	r->cfg.observer(r->cfg.observer_ud, r, &o);
}

int vs_replay_out_of_memory(vs_replay *r)
{
	snprintf(r->err, sizeof r->err, "%s:%llu: error: out of memory", vs_trace_name(r->rd),
		(unsigned long long)r->ev.line);
	return -1;
}
