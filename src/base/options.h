/* SPDX-License-Identifier: Zlib */
/* options.h - the one reader of "key=value,..." option strings, as
 * strategies and generators take them from a command line or a trace.
 */
#ifndef VS_BASE_OPTIONS_H
#define VS_BASE_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

/* Finds key in "a=1,b=2". Returns 1 and
 * copies the value, 0 when absent. A value that does not fit in vallen
 * bytes is never cut: val becomes "(too long)", which no number parses. */
int vs_option_get(const char *options, const char *key, char *val, size_t vallen);
/* Checks that every key in options is one of the NULL-terminated list.
 * Returns 0, or -1 naming the first unknown key in err. */
int vs_option_check(const char *options, const char *const *known, char *err, size_t errlen);
/* Checks that no key comes twice in options (vs_option_get would take the
 * first and drop the other unseen). Returns 0, or -1 naming the key in err. */
int vs_option_check_repeats(const char *options, char *err, size_t errlen);
/* Reads key as a number from lo to hi: decimal or 0x hexadecimal (a
 * leading 0 is not octal: 010 is ten), with an optional K or M (times 1024
 * or 1024 * 1024). Returns 1 and sets *val, 0 when absent (val untouched),
 * -1 with err, naming the option and its value, for anything else. */
int vs_option_u32(const char *options, const char *key, uint32_t lo, uint32_t hi, uint32_t *val,
	char *err, size_t errlen);
/* The same number syntax for a number inside a value (the SIZE of
 * heap-manager's hN=KIND/SIZE): 0 with *val set, or -1 (val untouched)
 * when text is not a number from lo to hi. */
int vs_option_number(const char *text, uint32_t lo, uint32_t hi, uint32_t *val);

#endif
