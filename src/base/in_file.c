/* SPDX-License-Identifier: Zlib */
/* in_file.c - the files a run reads, remembered by device and inode (in_file.h). */
#define _XOPEN_SOURCE 700 /* fileno, fdopen, O_CLOEXEC */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/grow.h"
#include "base/in_file.h"
#include "base/text.h"

typedef struct input {
	dev_t dev;
	ino_t ino;
	char *path;
} input;

/* Every input of the process: a run reads a handful; they stay until exit.
 * compare's threads open traces at once: one lock. */
static input *inputs;
static size_t n_inputs, cap_inputs;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static const input *find(dev_t dev, ino_t ino)
{
	size_t i;

	for (i = 0; i < n_inputs; i++)
		if (inputs[i].dev == dev && inputs[i].ino == ino)
			return &inputs[i];
	return NULL;
}

static int remember(dev_t dev, ino_t ino, const char *path)
{
	char *copy;

	if (find(dev, ino))
		return 0;
	if (vs_grow(&inputs, sizeof *inputs, &cap_inputs, n_inputs + 1, 8) != 0)
		return -1;
	copy = malloc(strlen(path) + 1);
	if (!copy)
		return -1;
	strcpy(copy, path);
	inputs[n_inputs].dev = dev;
	inputs[n_inputs].ino = ino;
	inputs[n_inputs++].path = copy;
	return 0;
}

/* Remembers the file st as an input read by the name path. */
static int note(const struct stat *st, const char *path)
{
	int failed;

	if (!S_ISREG(st->st_mode))
		return 0;
	pthread_mutex_lock(&lock);
	failed = remember(st->st_dev, st->st_ino, path) != 0;
	pthread_mutex_unlock(&lock);
	if (failed)
		errno = ENOMEM;
	return failed ? -1 : 0;
}

FILE *vs_in_open(const char *path, const char *mode)
{
	struct stat st;
	FILE *fp = fopen(path, mode);

	if (!fp || fstat(fileno(fp), &st) != 0 || note(&st, path) == 0)
		return fp;
	fclose(fp);
	errno = ENOMEM;
	return NULL;
}

FILE *vs_in_open_file(const char *path, char *err, size_t errlen)
{
	/* O_NONBLOCK: opening a FIFO waits for a writer otherwise */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), flags;
	struct stat st;
	FILE *fp;

	if (fd < 0) {
		vs_text_path_msg(err, errlen, path, "cannot open: %s", strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		vs_text_path_msg(err, errlen, path, "cannot read: not a regular file");
		return NULL;
	}
	if ((flags = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0 || !(fp = fdopen(fd, "rb"))) {
		vs_text_path_msg(err, errlen, path, "cannot open: %s", strerror(errno));
		close(fd);
		return NULL;
	}
	if (note(&st, path)) {
		vs_text_path_msg(err, errlen, path, "out of memory");
		fclose(fp);
		return NULL;
	}
	return fp;
}

int vs_in_regular(const char *path, const char *what, char *err, size_t errlen)
{
	struct stat st;

	if (stat(path, &st) != 0 || S_ISREG(st.st_mode))
		return 0;
	vs_text_path_msg(err, errlen, path, "cannot read: not a regular file%s%s%s", what ? " (" : "", what ? what : "",
		what ? ")" : "");
	return -1;
}

int vs_in_note(const char *path)
{
	struct stat st;

	return stat(path, &st) != 0 ? 0 : note(&st, path);
}

int vs_in_note_stdin(void)
{
	struct stat st;

	return fstat(0, &st) != 0 ? 0 : note(&st, "standard input");
}

const char *vs_in_path(dev_t dev, ino_t ino)
{
	const input *in;
	const char *path;

	pthread_mutex_lock(&lock);
	in = find(dev, ino);
	path = in ? in->path : NULL; /* a copy, never freed nor moved */
	pthread_mutex_unlock(&lock);
	return path;
}
