/* SPDX-License-Identifier: Zlib */
/* fuzz_common.h - what every libFuzzer harness shares: inputs as streams
 * or as files without touching the disk. */
#ifndef VS_FUZZ_COMMON_H
#define VS_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Inputs past this are not tried: every format has its own, larger,
 * limits, which the check suites test; here the time goes to variety. */
#define VS_FUZZ_MAX_INPUT (64u << 10)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a file in memory; its path is /proc/self/fd/N (written to
 * path). Returns the descriptor (close it), or -1. */
static inline int vs_fuzz_memfile(const uint8_t *data, size_t size, char *path, size_t len)
{
	int fd = memfd_create("vs-fuzz", 0);

	if (fd < 0)
		return -1;
	if (size && write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return -1;
	}
	lseek(fd, 0, SEEK_SET);
	snprintf(path, len, "/proc/self/fd/%d", fd);
	return fd;
}

#endif
