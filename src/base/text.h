/* SPDX-License-Identifier: Zlib */
/* text.h - text from input, made safe to echo in messages.
 *
 * A trace, a budget file, a plug-in or a file name may hold control
 * characters (a terminal's escape sequences) or bytes that are not UTF-8.
 * Every message that quotes input passes it through vs_text_escape: valid UTF-8
 * stays as it is, anything else is written as \xNN.
 */
#ifndef VRAMSIM_TEXT_H
#define VRAMSIM_TEXT_H

#include <stddef.h>
#include <stdio.h>

#include "base/compiler_hints.h"

/* The length (1-4) of the valid UTF-8 character at s (n bytes left), or 0
 * when s does not start one: a stray continuation byte, an overlong form, a
 * surrogate, a code point past U+10FFFF, or a character cut short. */
int vs_text_utf8_len(const unsigned char *s, size_t n);


/* Copies src[0..len) into dst (cap bytes; terminated when cap > 0), with
 * every control character (but tab, and newline with keep_newline) and
 * every byte that is not part of valid UTF-8 written as \xNN. Cuts only
 * between characters. Returns the bytes written, without the terminator. */
size_t vs_text_escape(char *dst, size_t cap, const char *src, size_t len, int keep_newline);

/* The same on the terminated string in buf (cap bytes): one line. */
void vs_text_escape_in_place(char *buf, size_t cap);

/* The marker in front of a path that lost its front to fit a message. */
#define VS_TEXT_CUT "..."
/* The bytes a path takes at most in a message, its terminator counted. */
#define VS_TEXT_PATH_SHOWN 256
/* A path (a file name from the user or the environment) escaped into dst
 * (cap bytes, terminated) as vs_text_escape does; when it does not fit, its
 * front is dropped, whole characters, and VS_TEXT_CUT put in its place: the
 * end of a path (the file's name) says most. Returns the bytes written. */
size_t vs_text_path(char *dst, size_t cap, const char *path);
/* "PATH: WHY" into dst (cap bytes), WHY from fmt: both escaped, the path
 * shortened as vs_text_path does to VS_TEXT_PATH_SHOWN bytes, or less so
 * that WHY is never cut: a message keeps its reason, however long the path. */
void vs_text_path_msg(char *dst, size_t cap, const char *path, const char *fmt, ...) VS_PRINTF(4, 5);

/* Whether s[0..len) is valid UTF-8 without control characters (but tab). */
int vs_text_clean(const char *s, size_t len);

/* Writes s as a JSON string, quotes included: valid UTF-8 as it is, quote,
 * backslash and control characters escaped, other bytes as U+FFFD. */
void vs_text_json(FILE *fp, const char *s);
/* The characters of a JSON string that vs_text_json writes, unquoted and
 * unescaped, for a JSON library to quote: src into dst (cap bytes,
 * terminated when cap > 0) with each byte that is not part of valid UTF-8
 * as U+FFFD. Cuts only between characters; 3 * strlen(src) + 1 bytes always
 * suffice. Returns the bytes written. */
size_t vs_text_utf8(char *dst, size_t cap, const char *src);
/* Writes s as one CSV field: quoted when it holds a comma, quote or line
 * break (quotes doubled). */
void vs_text_csv(FILE *fp, const char *s);

#endif
