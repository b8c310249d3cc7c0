/* SPDX-License-Identifier: Zlib */
/* emu_guard.c - a bound and a last word for an emulator core's calls
 * (emu_guard.h). The message is put together in the signal handler from
 * texts made beforehand: only write and the exit system call there. */
#define _DEFAULT_SOURCE /* syscall */
#include "console/common/emu_guard.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

#include "base/out_file.h"
#include "base/text.h"

static char head[600];   /* "vramsim: ROM: " */
static char emu[64];
static char doing[700];  /* what a call not in a frame does, or "" */
static volatile uint32_t at_frame;
static unsigned limit;    /* seconds of CPU a call, 0 before the first open */
static long fault_at = -1; /* VRAMSIM_EMU_GUARD_FAULT: the frame whose call faults (tests) */

static size_t put(char *buf, size_t n, size_t cap, const char *s)
{
	while (*s && n + 1 < cap)
		buf[n++] = *s++;
	return n;
}

static size_t put_uint(char *buf, size_t n, size_t cap, unsigned v)
{
	char d[12];
	int k = 0;

	do
		d[k++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	while (k > 0 && n + 1 < cap)
		buf[n++] = d[--k];
	return n;
}

static const char *signal_name(int sig)
{
	switch (sig) {
	case SIGSEGV: return "SIGSEGV";
	case SIGBUS: return "SIGBUS";
	case SIGILL: return "SIGILL";
	case SIGFPE: return "SIGFPE";
	case SIGABRT: return "SIGABRT";
	default: return "a signal";
	}
}

/* The process ends here, the core's state abandoned on purpose: straight
 * to the kernel, so that a leak checker's exit hook (LeakSanitizer's, on
 * _exit) does not report what was left and change the exit code. */
static void end(int code)
{
#ifdef SYS_exit_group
	syscall(SYS_exit_group, code);
#endif
	_exit(code);
}

/* From the signal handler (out_file.c), the temporary files gone. */
static void last_word(int sig)
{
	char buf[1600];
	size_t n = 0, cap = sizeof buf;

	n = put(buf, n, cap, head);
	if (doing[0]) {
		n = put(buf, n, cap, doing);
	} else {
		n = put(buf, n, cap, "frame ");
		n = put_uint(buf, n, cap, at_frame);
	}
	n = put(buf, n, cap, ": ");
	n = put(buf, n, cap, emu);
	if (sig == SIGVTALRM) {
		n = put(buf, n, cap, " ran ");
		n = put_uint(buf, n, cap, limit);
		n = put(buf, n, cap, " s of CPU in one call without returning");
	} else {
		n = put(buf, n, cap, " crashed (");
		n = put(buf, n, cap, signal_name(sig));
		n = put(buf, n, cap, ")");
	}
	n = put(buf, n, cap, ": a ROM or savestate it cannot run; stopped there\n");
	if (write(STDERR_FILENO, buf, n) < 0)
		end(2);
	end(2);
}

void vs_emu_guard_open(const char *emu_name, const char *rom)
{
	const char *env = getenv("VRAMSIM_EMU_GUARD_CPU"), *fault = getenv("VRAMSIM_EMU_GUARD_FAULT");
	long v = env ? strtol(env, NULL, 10) : 0;
	char shown[512];

	fault_at = fault && *fault ? strtol(fault, NULL, 10) : -1;
	vs_text_escape(shown, sizeof shown, rom, strlen(rom), 0);
	snprintf(head, sizeof head, "vramsim: %s: ", shown);
	snprintf(emu, sizeof emu, "%s", emu_name);
	doing[0] = '\0';
	limit = v > 0 && v < 3600 ? (unsigned)v : VS_EMU_GUARD_CPU;
}

static void watchdog(unsigned seconds)
{
	struct itimerval t;

	memset(&t, 0, sizeof t);
	t.it_value.tv_sec = (time_t)seconds;
	setitimer(ITIMER_VIRTUAL, &t, NULL);
}

void vs_emu_guard_enter(uint32_t frame, const char *what)
{
	if (!limit)
		return; /* never opened */
	at_frame = frame;
	if (what)
		snprintf(doing, sizeof doing, "%s", what);
	else
		doing[0] = '\0';
	vs_out_on_fault(last_word);
	watchdog(limit);
	if (!what && fault_at >= 0 && frame == (uint32_t)fault_at)
		raise(SIGSEGV); /* the test hook: as a crash inside the core's call */
}

void vs_emu_guard_leave(void)
{
	if (!limit)
		return;
	watchdog(0);
	vs_out_on_fault(NULL);
}

void vs_emu_guard_close(void)
{
	vs_emu_guard_leave();
	limit = 0;
}
