/* SPDX-License-Identifier: Zlib */
/* out_file.h - output files written whole or not at all.
 *
 * What a path names decides how it is written:
 *  - nothing yet, or a regular file: a temporary file beside it
 *    (NAME.tmp-PID) is written, then renamed onto it, so a failed run never
 *    leaves a half-written file and a reader never sees one; an existing
 *    file keeps its permissions;
 *  - a symbolic link to a regular file: the same for the file it names, in
 *    that file's directory; the link stays a link;
 *  - a FIFO, a character or block device (a pipe, /dev/null, a terminal),
 *    or a link to one: written in place, as it comes, never replaced;
 *  - a directory, a socket, a link to nothing: refused with a message.
 * Paths are at most VS_OUT_PATH_MAX - 1 bytes; longer ones are refused,
 * never cut.
 *
 * Several files written together (vramsim render's pictures, vramsim
 * compare's reports) are opened first, so a path that cannot be written
 * stops the run before any is written, then finished, then committed
 * together: all of them appear, or none does (a file that was there
 * before stays as it was). What is written in place cannot be taken back.
 *
 * No output replaces an input of the run (in_file.h) or is the same file
 * as another output of it, whatever names they go by: files are told
 * apart by device and inode (a file not made yet by its directory's and
 * its name). A run stopped by SIGINT, SIGTERM, SIGHUP or SIGPIPE, or
 * killed by a crash (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT) removes its
 * temporary files, and puts back what a commit under way had replaced,
 * before it dies of the signal (a sanitizer's own fault handler stays).
 */
#ifndef VRAMSIM_OUT_FILE_H
#define VRAMSIM_OUT_FILE_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#define VS_OUT_PATH_MAX 4096

typedef struct vs_out_file {
	FILE *fp;                         /* write here */
	char path[VS_OUT_PATH_MAX];       /* as given, for messages */
	char target[VS_OUT_PATH_MAX];     /* the regular file replaced */
	char tmp[VS_OUT_PATH_MAX + 48];   /* "" when written in place */
	char backup[VS_OUT_PATH_MAX + 48];/* during a commit: the file replaced, kept */
	int in_place;                     /* standard output, a FIFO, a device */
	int committed;
	int may_replace_input;            /* opened by vs_out_open_replacing */
	/* which file target is: its own device and inode when it exists, else
	 * its directory's and its name (name "" for an existing file) */
	dev_t id_dev;
	ino_t id_ino;
	char id_name[256];
} vs_out_file;

/* Opens path for writing ("-": standard output). Returns 0, or -1 with
 * "cannot write PATH: why" in err. */
int vs_out_open(vs_out_file *f, const char *path, char *err, size_t errlen);
/* The same for an output that may replace an input of the run whole:
 * `vramsim fmt TRACE -o TRACE` rewriting a file in place. Only by the
 * input's own name (TRACE, ./TRACE, a symbolic link to it): another hard
 * link of it is refused, as an input is by vs_out_open (the rename would
 * split the link and leave TRACE as it was). */
int vs_out_open_replacing(vs_out_file *f, const char *path, char *err, size_t errlen);
/* Whether vs_out_open(path) would be refused, without making or opening
 * anything (a FIFO is not opened): 0, or -1 with err; an input of the run
 * is refused once it was opened or noted (in_file.h). For a check before
 * long work; vs_out_open may still fail later. */
int vs_out_check(const char *path, char *err, size_t errlen);
/* Whether two outputs of one run, to be opened later, name one file
 * whatever names they go by (vs_out_open refuses the second then): 0, or
 * -1 with err naming b. Paths vs_out_check refuses are left to it. */
int vs_out_check_apart(const char *a, const char *b, char *err, size_t errlen);
/* Closes f's stream; with ok 0, or when a write failed, the temporary
 * file is removed. Returns 0, or -1 (with a message in err when a write
 * failed). */
int vs_out_finish(vs_out_file *f, int ok, char *err, size_t errlen);
/* Renames the n finished files into place, all or none. 0, or -1 with err
 * (then none was replaced and every temporary file is gone). */
int vs_out_commit(vs_out_file *f, int n, char *err, size_t errlen);
/* Closes and removes whatever of the n files is not committed. */
void vs_out_abort(vs_out_file *f, int n);

/* Whether vs_out_finish has said that writes to "-" (standard output) were
 * lost: the last check of the run (vramsim's main) then says it no more. */
int vs_out_stdout_said(void);

/* Makes a folder for the run (an emulator's save folder, the folder render
 * makes for its pictures) that a signal removes, with the one file named
 * name in it (NULL: none), once the run's own files are gone: dir as it is
 * (mode 0777), or when unique, a mkdtemp template that becomes the name.
 * Made and noted with every signal held off, so no signal can leave it
 * behind. 0, or -1 with errno as mkdir's or mkdtemp's. */
int vs_out_scratch_make(char *dir, int unique, const char *name);
/* The folder is gone (removed by its owner), or is the run's result now:
 * forget it. */
void vs_out_scratch_remove(const char *dir);

/* While code the run does not own is running (an emulator core), a crash
 * or SIGVTALRM is that code's: fn (not NULL) is called with the signal
 * after the temporary files are gone, from the signal handler, so it may
 * only make async-signal-safe calls, and must end the process (with the
 * exit system call: a sanitizer's leak check hooks _exit and would change
 * the exit code). NULL: back to dying of the signal. Installs the
 * handlers. */
void vs_out_on_fault(void (*fn)(int sig));

#endif
