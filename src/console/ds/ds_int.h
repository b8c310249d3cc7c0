/* SPDX-License-Identifier: Zlib */
/* ds_int.h - what the files of console/ds share and nobody else uses. */
#ifndef VRAMSIM_DS_INT_H
#define VRAMSIM_DS_INT_H

#include <stddef.h>
#include <stdint.h>

/* Reads a whole file of at most max bytes ("what" names it in messages:
 * "not a DS ROM: larger than 512 MiB"). The bytes (free them) with *size,
 * or NULL with "PATH: why" in err. */
uint8_t *vs_ds_file_read(const char *path, size_t max, const char *what, size_t *size, char *err, size_t errlen);

/* A little-endian word: of a savestate, a ROM, the ring or the DS's memory. */
static inline uint32_t vs_ds_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

#endif
