/* SPDX-License-Identifier: Zlib */
/* out_file.c - output files written whole or not at all (out_file.h). */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/in_file.h"
#include "base/out_file.h"
#include "base/text.h"

static int stdout_said;

int vs_out_stdout_said(void) { return stdout_said; }

static int say(char *err, size_t errlen, const char *path, const char *why)
{
	char shown[VS_TEXT_PATH_SHOWN];

	if (strcmp(path, "-") == 0)
		snprintf(shown, sizeof shown, "standard output");
	else
		vs_text_path(shown, sizeof shown, path);
	snprintf(err, errlen, "cannot write %s: %s", shown, why);
	return -1;
}

/* ---- the files being written, for the same-file check and the signals ---- */

#define TRACKED_MAX 64 /* outputs open at once; more is refused */

static vs_out_file *tracked[TRACKED_MAX];
static volatile sig_atomic_t handlers_set;
/* Ctrl-C and the like, and a crash (an emulator core given a ROM or a
 * savestate it cannot take may fault inside itself): the process dies of
 * the signal all the same, without its temporary files. A sanitizer's own
 * handler for a fault stays (it is not the default). SIGVTALRM is an
 * emulator guard's watchdog (vs_out_on_fault). */
static const int cleanup_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT,
	SIGVTALRM };
static void (*volatile on_fault)(int sig);

#define SCRATCH_MAX 4
static struct scratch {
	char dir[512], file[768];
} scratch[SCRATCH_MAX];

/* Runs in a signal handler: only async-signal-safe calls. */
static void clean_up(int sig)
{
	int i;

	for (i = 0; i < TRACKED_MAX; i++) {
		vs_out_file *f = tracked[i];
		if (!f)
			continue;
		if (f->committed && f->backup[0])
			rename(f->backup, f->target);
		else if (f->committed)
			unlink(f->target); /* made by the commit under way: all or none */
		else if (f->backup[0])
			unlink(f->backup);
		if (f->tmp[0])
			unlink(f->tmp);
	}
	/* the folders last: an output folder is empty once its files are gone */
	for (i = 0; i < SCRATCH_MAX; i++) {
		if (scratch[i].file[0])
			unlink(scratch[i].file);
		if (scratch[i].dir[0])
			rmdir(scratch[i].dir);
	}
	if (on_fault && sig != SIGINT && sig != SIGTERM && sig != SIGHUP && sig != SIGPIPE)
		on_fault(sig); /* does not return */
	/* a fault's signal, raised again, waits until this returns: the
	 * instruction runs again and dies of it, as without this handler */
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Installs clean_up for the signals still at their default action (one
 * the user ignores, as nohup does SIGHUP, stays ignored). */
static void set_handlers(void)
{
	size_t i;

	if (handlers_set)
		return;
	handlers_set = 1;
	for (i = 0; i < sizeof cleanup_signals / sizeof cleanup_signals[0]; i++) {
		struct sigaction sa, old;
		if (sigaction(cleanup_signals[i], NULL, &old) != 0 || old.sa_handler != SIG_DFL)
			continue;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = clean_up;
		sigemptyset(&sa.sa_mask);
		sigaction(cleanup_signals[i], &sa, NULL);
	}
}

void vs_out_on_fault(void (*fn)(int sig))
{
	set_handlers();
	on_fault = fn;
}

int vs_out_scratch_make(char *dir, int unique, const char *name)
{
	sigset_t all, old;
	int i, rc, e;

	set_handlers();
	/* made and kept in one stretch no signal enters: a signal between the
	 * two left the folder behind */
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	rc = unique ? (mkdtemp(dir) ? 0 : -1) : mkdir(dir, 0777);
	e = errno;
	for (i = 0; rc == 0 && i < SCRATCH_MAX; i++) {
		struct scratch *sc = &scratch[i];
		int n;
		if (sc->dir[0])
			continue;
		n = snprintf(sc->file, sizeof sc->file, "%s%s%s", name ? dir : "", name ? "/" : "", name ? name : "");
		if (strlen(dir) < sizeof sc->dir && n >= 0 && (size_t)n < sizeof sc->file)
			snprintf(sc->dir, sizeof sc->dir, "%s", dir);
		else
			sc->file[0] = '\0'; /* too long to keep: a signal leaves it, as when no slot is free */
		break;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	errno = e;
	return rc;
}

void vs_out_scratch_remove(const char *dir)
{
	sigset_t all, old;
	int i;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	for (i = 0; i < SCRATCH_MAX; i++)
		if (scratch[i].dir[0] && strcmp(scratch[i].dir, dir) == 0)
			scratch[i].dir[0] = scratch[i].file[0] = '\0';
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/* Adds or removes f with the signals blocked, so the handler never sees a
 * slot half written. */
static int set_tracked(vs_out_file *f, int on)
{
	sigset_t all, old;
	int i, done = !on;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	for (i = 0; i < TRACKED_MAX; i++) {
		if (on && !done && !tracked[i]) {
			tracked[i] = f;
			done = 1;
		} else if (!on && tracked[i] == f) {
			tracked[i] = NULL;
		}
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (on && done)
		set_handlers();
	return done ? 0 : -1;
}

/* Whether f still has something to clean up. */
static void untrack_if_done(vs_out_file *f)
{
	if (!f->tmp[0] && !f->backup[0] && !f->committed)
		set_tracked(f, 0);
}

/* Which file path names: its own device and inode when it exists (name
 * ""), else its directory's and its name (see out_file.h). 0, or an errno. */
static int path_identity(const char *path, dev_t *dev, ino_t *ino, char name_out[256])
{
	struct stat st;
	char dir[VS_OUT_PATH_MAX];
	const char *slash = strrchr(path, '/'), *name = slash ? slash + 1 : path;

	name_out[0] = '\0';
	if (stat(path, &st) == 0) {
		*dev = st.st_dev;
		*ino = st.st_ino;
		return 0;
	}
	if (strlen(name) >= 256)
		return ENAMETOOLONG;
	if (!slash)
		snprintf(dir, sizeof dir, ".");
	else if (slash == path)
		snprintf(dir, sizeof dir, "/");
	else
		snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
	if (stat(dir, &st) != 0)
		return errno;
	*dev = st.st_dev;
	*ino = st.st_ino;
	memcpy(name_out, name, strlen(name) + 1); /* fits: checked above */
	return 0;
}

/* Fills f's identity from f->target. */
static int identify(vs_out_file *f, char *err, size_t errlen)
{
	int e = path_identity(f->target, &f->id_dev, &f->id_ino, f->id_name);

	return e ? say(err, errlen, f->path, strerror(e)) : 0;
}

/* The refusal of output path, which is the file of another output of the
 * run, named other there. */
static int say_other(char *err, size_t errlen, const char *path, const char *other)
{
	char why[600], shown[VS_TEXT_PATH_SHOWN];

	vs_text_path(shown, sizeof shown, other);
	snprintf(why, sizeof why, "it is the same file as %s, another output of this run", shown);
	return say(err, errlen, path, why);
}

/* The refusal of output path, which is the run's input read by the name input. */
static int say_input(char *err, size_t errlen, const char *path, const char *input)
{
	char why[600], shown[VS_TEXT_PATH_SHOWN];

	vs_text_path(shown, sizeof shown, input);
	snprintf(why, sizeof why, "it is %s, which this run reads", shown);
	return say(err, errlen, path, why);
}

/* Standard output as an output: refused when it is an input of the run
 * (`capture GAME.gba -o - >>GAME.gba` appended the trace to the ROM). */
static int check_stdout(char *err, size_t errlen)
{
	struct stat st;
	const char *input;

	if (fstat(STDOUT_FILENO, &st) == 0 && S_ISREG(st.st_mode) && (input = vs_in_path(st.st_dev, st.st_ino)))
		return say_input(err, errlen, "-", input);
	return 0;
}

/* The name of the run's input that the file dev/ino is and f may not
 * replace; NULL when none. An output opened by vs_out_open_replacing may
 * replace an input by that input's own name (x, ./x, a symbolic link to
 * x: the rename replaces the entry every one of them names), never by
 * another (a hard link: the rename would split the link, and the name the
 * run read by would keep the old file). */
static const char *refused_input(const vs_out_file *f, dev_t dev, ino_t ino)
{
	const char *input = vs_in_path(dev, ino);
	struct stat st;
	char *a, *b;
	int own;

	if (!input || !f->may_replace_input)
		return input;
	a = realpath(input, NULL);
	b = realpath(f->target, NULL);
	if (!a || stat(a, &st) != 0 || st.st_dev != dev || st.st_ino != ino)
		own = 1; /* the name it was read by names this file no more */
	else
		own = b && strcmp(a, b) == 0;
	free(a);
	free(b);
	return own ? NULL : input;
}

/* Refuses a target that is an input of the run or another output's. */
static int check_distinct(const vs_out_file *f, char *err, size_t errlen)
{
	const char *input = f->id_name[0] ? NULL : refused_input(f, f->id_dev, f->id_ino);
	int i;

	if (input)
		return say_input(err, errlen, f->path, input);
	for (i = 0; i < TRACKED_MAX; i++) {
		const vs_out_file *o = tracked[i];
		if (o && o != f && o->id_dev == f->id_dev && o->id_ino == f->id_ino && strcmp(o->id_name, f->id_name) == 0)
			return say_other(err, errlen, f->path, o->path);
	}
	return 0;
}

/* A fresh file beside target, opened for writing: TARGET.tmp-PID, or when
 * that name is too long, DIR/.vramsim-tmp-PID-N. */
static int open_tmp(vs_out_file *f, mode_t mode, char *err, size_t errlen)
{
	const char *slash = strrchr(f->target, '/');
	int dirlen = slash ? (int)(slash - f->target) + 1 : 0, k, fd = -1;

	if (identify(f, err, errlen) != 0 || check_distinct(f, err, errlen) != 0)
		return -1;
	if (set_tracked(f, 1) != 0)
		return say(err, errlen, f->path, "more outputs open at once than vramsim keeps track of");
	for (k = 0; k < 100 && fd < 0; k++) {
		if (k == 0)
			snprintf(f->tmp, sizeof f->tmp, "%s.tmp-%ld", f->target, (long)getpid());
		else
			snprintf(f->tmp, sizeof f->tmp, "%.*s.vramsim-tmp-%ld-%d", dirlen, f->target, (long)getpid(), k);
		fd = open(f->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOCTTY, 0666);
		if (fd < 0 && errno != EEXIST && !(errno == ENAMETOOLONG && k == 0))
			break;
	}
	if (fd < 0) {
		f->tmp[0] = '\0';
		set_tracked(f, 0);
		return say(err, errlen, f->path, strerror(errno));
	}
	if (mode)
		(void)fchmod(fd, mode & 07777); /* a replaced file keeps its permissions */
	f->fp = fdopen(fd, "wb");
	if (!f->fp) {
		close(fd);
		remove(f->tmp);
		f->tmp[0] = '\0';
		set_tracked(f, 0);
		return say(err, errlen, f->path, strerror(errno));
	}
	return 0;
}

/* A FIFO or a device: written as it is, never created or replaced. */
static int open_in_place(vs_out_file *f, char *err, size_t errlen)
{
	int fd = open(f->path, O_WRONLY | O_NOCTTY);

	if (fd < 0)
		return say(err, errlen, f->path, strerror(errno));
	f->fp = fdopen(fd, "wb");
	if (!f->fp) {
		close(fd);
		return say(err, errlen, f->path, strerror(errno));
	}
	f->in_place = 1;
	return 0;
}

static int open_output(vs_out_file *f, const char *path, int may_replace_input, char *err, size_t errlen)
{
	struct stat st;
	size_t len = strlen(path);

	memset(f, 0, sizeof *f);
	f->may_replace_input = may_replace_input;
	if (len == 0)
		return say(err, errlen, "''", "an empty path");
	if (len >= VS_OUT_PATH_MAX) {
		snprintf(err, errlen, "cannot write an output path of %zu bytes (at most %d)", len, VS_OUT_PATH_MAX - 1);
		return -1;
	}
	memcpy(f->path, path, len + 1);
	if (strcmp(path, "-") == 0) {
		if (check_stdout(err, errlen))
			return -1;
		f->fp = stdout;
		f->in_place = 1;
		return 0;
	}
	if (lstat(path, &st) != 0) {
		if (errno != ENOENT)
			return say(err, errlen, path, strerror(errno));
		memcpy(f->target, path, len + 1);
		return open_tmp(f, 0, err, errlen);
	}
	if (S_ISLNK(st.st_mode)) {
		char *real = realpath(path, NULL);
		if (!real || stat(real, &st) != 0) {
			free(real);
			return say(err, errlen, path, "a symbolic link to nothing (give the file it should name)");
		}
		if (S_ISREG(st.st_mode) && strlen(real) >= sizeof f->target) {
			free(real);
			return say(err, errlen, path, "the file the link names has too long a path");
		}
		if (S_ISREG(st.st_mode))
			snprintf(f->target, sizeof f->target, "%s", real);
		free(real);
	} else if (S_ISREG(st.st_mode)) {
		memcpy(f->target, path, len + 1);
	}
	if (S_ISDIR(st.st_mode))
		return say(err, errlen, path, "a directory");
	if (S_ISSOCK(st.st_mode))
		return say(err, errlen, path, "a socket");
	if (S_ISREG(st.st_mode))
		return open_tmp(f, st.st_mode, err, errlen);
	return open_in_place(f, err, errlen);
}

int vs_out_open(vs_out_file *f, const char *path, char *err, size_t errlen)
{
	return open_output(f, path, 0, err, errlen);
}

int vs_out_open_replacing(vs_out_file *f, const char *path, char *err, size_t errlen)
{
	return open_output(f, path, 1, err, errlen);
}

int vs_out_check(const char *path, char *err, size_t errlen)
{
	struct stat st;
	char dir[VS_OUT_PATH_MAX];
	const char *slash, *input;
	size_t len = strlen(path);
	int regular = 1;

	if (len == 0)
		return say(err, errlen, "''", "an empty path");
	if (len >= VS_OUT_PATH_MAX) {
		snprintf(err, errlen, "cannot write an output path of %zu bytes (at most %d)", len, VS_OUT_PATH_MAX - 1);
		return -1;
	}
	if (strcmp(path, "-") == 0)
		return check_stdout(err, errlen);
	if (lstat(path, &st) == 0) {
		if (S_ISLNK(st.st_mode) && stat(path, &st) != 0)
			return say(err, errlen, path, "a symbolic link to nothing (give the file it should name)");
		if (S_ISDIR(st.st_mode))
			return say(err, errlen, path, "a directory");
		if (S_ISSOCK(st.st_mode))
			return say(err, errlen, path, "a socket");
		regular = S_ISREG(st.st_mode);
		if (!regular)
			return access(path, W_OK) == 0 ? 0 : say(err, errlen, path, strerror(errno));
		if ((input = vs_in_path(st.st_dev, st.st_ino)) != NULL)
			return say_input(err, errlen, path, input);
	} else if (errno != ENOENT) {
		return say(err, errlen, path, strerror(errno));
	}
	/* a file made or replaced: its directory takes the temporary file */
	slash = strrchr(path, '/');
	if (!slash)
		snprintf(dir, sizeof dir, ".");
	else if (slash == path)
		snprintf(dir, sizeof dir, "/");
	else
		snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
	if (access(dir, W_OK | X_OK) != 0)
		return say(err, errlen, path, strerror(errno));
	return 0;
}

int vs_out_check_apart(const char *a, const char *b, char *err, size_t errlen)
{
	dev_t da, db;
	ino_t ia, ib;
	char na[256], nb[256];

	if (strcmp(a, "-") == 0 || strcmp(b, "-") == 0 || path_identity(a, &da, &ia, na) ||
		path_identity(b, &db, &ib, nb) || da != db || ia != ib || strcmp(na, nb) != 0)
		return 0;
	return say_other(err, errlen, b, a);
}

int vs_out_finish(vs_out_file *f, int ok, char *err, size_t errlen)
{
	int bad, why, before = errno; /* a write that failed earlier left its reason there */
	int out = f->fp == stdout;

	if (!f->fp)
		return ok ? 0 : -1;
	errno = 0;
	bad = fflush(f->fp) != 0 || ferror(f->fp);
	why = errno;
	/* A write that failed earlier, with nothing left for the flush to fail
	 * on: the stream keeps that it failed, not why, and the errno it left
	 * may be another call's by now. The system is asked again: a byte
	 * written to the temporary file, which goes anyway (a full disk, a
	 * file size limit), or none to standard output (closed). */
	if (bad && !why && write(fileno(f->fp), "", out ? 0 : 1) < 0)
		why = errno;
	if (!out && fclose(f->fp) != 0) {
		bad = 1;
		why = why ? why : errno;
	}
	f->fp = NULL;
	if (bad) {
		say(err, errlen, f->path, why ? strerror(why) : before ? strerror(before) : "a write failed");
		stdout_said |= strcmp(f->path, "-") == 0;
	}
	if ((bad || !ok) && f->tmp[0]) {
		remove(f->tmp);
		f->tmp[0] = '\0';
		untrack_if_done(f);
	}
	return bad || !ok ? -1 : 0;
}

/* Puts back what commit had replaced, for files 0..n-1. */
static void roll_back(vs_out_file *f, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (!f[i].committed)
			continue;
		if (f[i].backup[0])
			rename(f[i].backup, f[i].target);
		else
			remove(f[i].target);
		f[i].committed = 0;
		f[i].backup[0] = '\0';
	}
}

int vs_out_commit(vs_out_file *f, int n, char *err, size_t errlen)
{
	struct stat st;
	int i, k;

	/* an input opened after its output was: refused now, before any rename */
	for (i = 0; i < n; i++) {
		const char *input;
		if (!f[i].tmp[0] || stat(f[i].target, &st) != 0 || !(input = refused_input(&f[i], st.st_dev, st.st_ino)))
			continue;
		f[i].id_dev = st.st_dev;
		f[i].id_ino = st.st_ino;
		f[i].id_name[0] = '\0';
		check_distinct(&f[i], err, errlen);
		vs_out_abort(f, n);
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (!f[i].tmp[0])
			continue;
		/* keep the file replaced until every rename went through */
		f[i].backup[0] = '\0';
		if (n > 1 && lstat(f[i].target, &st) == 0 && S_ISREG(st.st_mode)) {
			for (k = 0; k < 100; k++) {
				snprintf(f[i].backup, sizeof f[i].backup, "%s.old-%ld-%d", f[i].target, (long)getpid(), k);
				if (link(f[i].target, f[i].backup) == 0)
					break;
				f[i].backup[0] = '\0';
				if (errno != EEXIST)
					break;
			}
		}
		if (rename(f[i].tmp, f[i].target) != 0) {
			say(err, errlen, f[i].path, strerror(errno));
			if (f[i].backup[0])
				remove(f[i].backup);
			f[i].backup[0] = '\0';
			roll_back(f, i);
			vs_out_abort(f, n);
			return -1;
		}
		f[i].tmp[0] = '\0';
		f[i].committed = 1;
	}
	for (i = 0; i < n; i++) {
		set_tracked(&f[i], 0); /* first: a signal now keeps what is committed */
		if (f[i].backup[0])
			remove(f[i].backup);
		f[i].backup[0] = '\0';
	}
	return 0;
}

void vs_out_abort(vs_out_file *f, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (f[i].fp && f[i].fp != stdout)
			fclose(f[i].fp);
		else if (f[i].fp)
			fflush(f[i].fp);
		f[i].fp = NULL;
		if (f[i].tmp[0])
			remove(f[i].tmp);
		f[i].tmp[0] = '\0';
		if (!f[i].committed)
			set_tracked(&f[i], 0);
	}
}
