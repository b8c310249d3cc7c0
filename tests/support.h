/* SPDX-License-Identifier: Zlib */
/* support.h - shared helpers for the check-based suites. */
#ifndef VS_TEST_SUPPORT_H
#define VS_TEST_SUPPORT_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>

/* Runs a suite, prints check's summary, returns the process exit code. */
int vs_test_main(Suite *s);

/* Writes text to a fresh file under the build tree and returns its path
 * (static storage, valid until the next call with the same slot 0-7). */
const char *vs_test_file(int slot, const char *name, const char *text);

/* Runs the vramsim executable with arguments (a shell-quoted string);
 * captures stdout and stderr (each truncated to cap bytes) and returns the
 * exit status, or -1 if it did not exit normally. */
int vs_test_run_cli(const char *args, char *out, size_t outcap, char *err, size_t errcap);

/* Deterministic random numbers for long randomised sequences. */
typedef struct vs_rng { uint64_t s; } vs_rng;
uint32_t vs_rng_next(vs_rng *r);
uint32_t vs_rng_below(vs_rng *r, uint32_t n);

#endif
