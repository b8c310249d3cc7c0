/* SPDX-License-Identifier: Zlib */
/* cli_common.c - usage errors, standard error and output files, shared by
 * the sub-commands. */
#define _GNU_SOURCE /* fopencookie */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "base/out_file.h"
#include "base/text.h"

/* "vramsim[ CMD]: MESSAGE" on standard error, the message one line (it
 * quotes the command line or the input: nothing a terminal acts on). */
static void say_line(const char *cmd, const char *fmt, va_list ap)
{
	char msg[8192];

	vsnprintf(msg, sizeof msg, fmt, ap);
	vs_text_escape_in_place(msg, sizeof msg);
	fprintf(stderr, "vramsim%s%s: %s\n", cmd ? " " : "", cmd ? cmd : "", msg);
}

int vs_cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say_line(cmd, fmt, ap);
	va_end(ap);
	fprintf(stderr, "(see 'vramsim%s%s --help')\n", cmd ? " " : "", cmd ? cmd : "");
	return VS_EXIT_USAGE;
}

void vs_cli_say(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say_line(cmd, fmt, ap);
	va_end(ap);
}

int vs_cli_rereadable(const char *cmd, const char *path, const char *why)
{
	struct stat st;

	if (strcmp(path, "-") == 0)
		return vs_cli_usage_error(cmd, "%s: give a file, not '-'", why);
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
		return vs_cli_usage_error(cmd, "%s: give a regular file, not %s (%s)", why,
			S_ISFIFO(st.st_mode) ? "a FIFO" : "a device or socket", path);
	return 0;
}

/* ---- standard error ------------------------------------------------------ */

#ifdef __GLIBC__
/* Every diagnostic goes through this stream: control characters (but
 * newline and tab) and bytes that are not UTF-8 come out as \xNN, whatever
 * message quoted them. A character split between two writes is held back
 * until its end comes. */
typedef struct safe_err {
	int fd;
	unsigned char held[4];
	size_t nheld;
} safe_err;

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static int put_escaped(int fd, const unsigned char *s, size_t n)
{
	char out[4200];
	size_t i = 0, o = 0;

	while (i < n) {
		int len = vs_text_utf8_len(s + i, n - i), k;
		int ctl = len == 1 ? (s[i] < 0x20 && s[i] != '\n' && s[i] != '\t') || s[i] == 0x7F :
			len == 2 && s[i] == 0xC2 && s[i + 1] <= 0x9F;
		if (len && !ctl) {
			memcpy(out + o, s + i, (size_t)len);
			o += (size_t)len;
		} else {
			for (k = 0; k < (len ? len : 1); k++)
				o += (size_t)snprintf(out + o, 5, "\\x%02x", s[i + (size_t)k]);
		}
		i += (size_t)(len ? len : 1);
		if (o > sizeof out - 20) {
			if (write_all(fd, out, o))
				return -1;
			o = 0;
		}
	}
	return o ? write_all(fd, out, o) : 0;
}

/* The bytes at the end of s[0..n) that begin a character not yet complete. */
static size_t unfinished_tail(const unsigned char *s, size_t n)
{
	size_t back;

	for (back = 1; back <= 3 && back <= n; back++) {
		unsigned char c = s[n - back];
		size_t want = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xC2 && c <= 0xDF ? 2 : 0;
		if ((c & 0xC0) == 0x80)
			continue;
		return want > back ? back : 0;
	}
	return 0;
}

static ssize_t safe_err_write(void *cookie, const char *buf, size_t size)
{
	safe_err *e = cookie;
	unsigned char tmp[4096 + 4];
	size_t done = 0;

	while (done < size) {
		size_t take = size - done < 4096 ? size - done : 4096, n, tail;
		memcpy(tmp, e->held, e->nheld);
		memcpy(tmp + e->nheld, buf + done, take);
		n = e->nheld + take;
		tail = unfinished_tail(tmp, n);
		if (put_escaped(e->fd, tmp, n - tail))
			return -1;
		memcpy(e->held, tmp + n - tail, tail);
		e->nheld = tail;
		done += take;
	}
	return (ssize_t)size;
}

static int safe_err_close(void *cookie)
{
	safe_err *e = cookie;
	int rc = e->nheld ? put_escaped(e->fd, e->held, e->nheld) : 0;

	e->nheld = 0;
	return rc;
}

void vs_cli_safe_stderr(void)
{
	static safe_err e;
	cookie_io_functions_t io = { NULL, safe_err_write, NULL, safe_err_close };
	FILE *fp;

	fflush(stderr);
	e.fd = fileno(stderr);
	if (e.fd < 0)
		return;
	fp = fopencookie(&e, "w", io);
	if (!fp)
		return;
	setvbuf(fp, NULL, _IONBF, 0);
	stderr = fp;
}
#else
void vs_cli_safe_stderr(void)
{
}
#endif

int vs_cli_finish(int rc)
{
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return rc;
	if (!vs_out_stdout_said())
		fprintf(stderr, "vramsim: cannot write standard output: %s\n", errno ? strerror(errno) : "a write failed");
	return rc ? rc : VS_EXIT_USAGE;
}

/* ---- output files ---------------------------------------------------------- */

/* The files vs_cli_out_open has open, found again by their stream. */
typedef struct open_out {
	vs_out_file f;
	struct open_out *next;
} open_out;

static open_out *outs;

FILE *vs_cli_out_open(const char *path, int may_replace_input)
{
	open_out *o = calloc(1, sizeof *o);
	char err[1024];

	if (!o) {
		fprintf(stderr, "vramsim: out of memory\n");
		return NULL;
	}
	if ((may_replace_input ? vs_out_open_replacing : vs_out_open)(&o->f, path, err, sizeof err)) {
		fprintf(stderr, "vramsim: %s\n", err);
		free(o);
		return NULL;
	}
	o->next = outs;
	outs = o;
	return o->f.fp;
}

int vs_cli_out_close(FILE *fp, int ok)
{
	open_out **pp, *o;
	char err[1024];
	int rc;

	for (pp = &outs; *pp && (*pp)->f.fp != fp; pp = &(*pp)->next)
		;
	if (!(o = *pp))
		return -1;
	*pp = o->next;
	err[0] = '\0';
	rc = vs_out_finish(&o->f, ok, err, sizeof err);
	if (rc && err[0])
		fprintf(stderr, "vramsim: %s\n", err);
	if (!rc && vs_out_commit(&o->f, 1, err, sizeof err)) {
		fprintf(stderr, "vramsim: %s\n", err);
		rc = -1;
	}
	free(o);
	return rc;
}

int vs_cli_outs_open(vs_out_file *f, const char *const *paths, int n)
{
	char err[1024];
	int i, k;

	for (i = 0; i < n; i++) {
		for (k = 0; k < i; k++)
			if (strcmp(paths[k], paths[i]) == 0 && strcmp(paths[i], "-") != 0) {
				vs_out_abort(f, i);
				vs_cli_usage_error(NULL, "%s is given as two outputs", paths[i]);
				return -1;
			}
		if (vs_out_open(&f[i], paths[i], err, sizeof err)) {
			fprintf(stderr, "vramsim: %s\n", err);
			vs_out_abort(f, i);
			return -1;
		}
	}
	return 0;
}

int vs_cli_outs_close(vs_out_file *f, int n, int ok)
{
	char err[1024];
	int i;

	for (i = 0; i < n; i++) {
		err[0] = '\0';
		if (vs_out_finish(&f[i], ok, err, sizeof err)) {
			if (err[0])
				fprintf(stderr, "vramsim: %s\n", err);
			ok = 0;
		}
	}
	if (!ok) {
		vs_out_abort(f, n);
		return -1;
	}
	if (vs_out_commit(f, n, err, sizeof err)) {
		fprintf(stderr, "vramsim: %s\n", err);
		return -1;
	}
	return 0;
}

static void chained(void *ud, vs_replay *r, const vs_outcome *o)
{
	vs_cli_chain *c = ud;

	c->f[0](c->ud[0], r, o);
	c->f[1](c->ud[1], r, o);
}

void vs_cli_chain_attach(vs_cli_chain *c, vs_replay_config *cfg, vs_observer_fn first, void *first_ud)
{
	c->f[0] = first;
	c->ud[0] = first_ud;
	c->f[1] = cfg->observer;
	c->ud[1] = cfg->observer_ud;
	cfg->observer = chained;
	cfg->observer_ud = c;
}
