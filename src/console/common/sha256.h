/* SPDX-License-Identifier: Zlib */
/* sha256.h - SHA-256 (FIPS 180-4) of a buffer, for naming the ROM a trace
 * was captured from. */
#ifndef VRAMSIM_SHA256_H
#define VRAMSIM_SHA256_H

#include <stddef.h>

/* Writes the digest of data[0..len) as 64 lower-case hex digits and a NUL. */
void vs_sha256_hex(const void *data, size_t len, char hex[65]);

#endif
