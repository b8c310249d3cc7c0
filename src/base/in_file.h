/* SPDX-License-Identifier: Zlib */
/* in_file.h - the files a run reads, remembered by device and inode.
 *
 * An output of a run must never replace one of its inputs (`capture
 * GAME.gba -o GAME.gba` would lose the ROM), whatever name either goes by
 * (`./x`, `x`, a symbolic link, a hard link). Every input is opened here,
 * and out_file.c asks before it creates or replaces a file.
 */
#ifndef VRAMSIM_IN_FILE_H
#define VRAMSIM_IN_FILE_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* fopen(path, mode) for reading, remembering the file opened. NULL with
 * errno set as fopen sets it (ENOMEM when it cannot be remembered). */
FILE *vs_in_open(const char *path, const char *mode);
/* A regular file opened for reading ("rb"), remembered as vs_in_open does;
 * never blocks on what is not one (a FIFO without a writer, a device): NULL
 * with err "PATH: cannot open: WHY" or "PATH: cannot read: not a regular
 * file" (vs_text_path_msg). For inputs that are read whole or more than
 * once (ROMs, savestates), not those a pipe may give (traces, scripts). */
FILE *vs_in_open_file(const char *path, char *err, size_t errlen);
/* 0 when path names a regular file or nothing (the loader says what is
 * wrong then), else -1 with err as vs_in_open_file's, and " (WHAT)" after
 * it when what is not NULL: for a path handed to a library (dlopen), which
 * would block on a FIFO, or only looked at before it is opened. */
int vs_in_regular(const char *path, const char *what, char *err, size_t errlen);
/* Remembers path as an input of the run, as vs_in_open would, without
 * opening it: for an input read later or by a library that takes its name.
 * From here on no output may replace it. 0 (also for a path that names no
 * regular file: nothing is read there), or -1 with errno ENOMEM. */
int vs_in_note(const char *path);
/* Remembers the file standard input is (fstat(0)), by the name "standard
 * input", for an input given as `-`: `replay - --events x < x` would
 * otherwise replace x. 0 (also when standard input is no regular file),
 * or -1 with errno ENOMEM. */
int vs_in_note_stdin(void);
/* The path an input of this run was opened by, when the file dev/ino is
 * one; NULL when it is not. */
const char *vs_in_path(dev_t dev, ino_t ino);

#endif
