/* SPDX-License-Identifier: Zlib */
/* ds_ring.c - reads record.h's ring out of a DS game's main RAM (see
 * ds_ring.h). */
#include "console/ds/ds_ring.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "console/ds/ds_state.h"
#include "console/ds/ds_int.h"

void vs_ds_ring_init(vs_ds_ring *r)
{
	memset(r, 0, sizeof *r);
}

void vs_ds_ring_free(vs_ds_ring *r)
{
	free(r->pending);
	vs_ds_ring_init(r);
}

/* Whether a valid ring header is at offset off; its size in *size. */
static int header_at(const uint8_t *ram, size_t ram_len, size_t off, uint32_t *size)
{
	uint32_t sz;

	if (ram_len - off < VS_DS_RING_HEADER || memcmp(ram + off, VS_DS_RING_MAGIC, 8) != 0)
		return 0;
	if (vs_ds_le32(ram + off + 8) != VS_DS_MAIN_RAM_BASE + off)
		return 0; /* a copy of the magic: its self is not where it lies */
	sz = vs_ds_le32(ram + off + 12);
	if (sz < VS_DS_RING_MIN || sz > VS_DS_RING_MAX || (sz & (sz - 1)) != 0)
		return 0;
	if (sz > ram_len - off - VS_DS_RING_HEADER)
		return 0;
	*size = sz;
	return 1;
}

static void find(vs_ds_ring *r, const uint8_t *ram, size_t ram_len)
{
	size_t off;
	uint32_t size;

	for (off = 0; off + VS_DS_RING_HEADER <= ram_len; off += 4) {
		const uint8_t *v = memchr(ram + off, 'v', ram_len - off);

		if (!v)
			return;
		off = (size_t)(v - ram) & ~(size_t)3;
		if ((size_t)(v - ram) != off)
			continue; /* not aligned: the loop steps past it */
		if (header_at(ram, ram_len, off, &size)) {
			r->addr = VS_DS_MAIN_RAM_BASE + (uint32_t)off;
			r->size = size;
			r->read = 0;
			return;
		}
	}
}

/* Appends stream bytes; hands every complete line to sink. */
static int take(vs_ds_ring *r, const uint8_t *p, size_t n, vs_ds_ring_sink sink, void *ud, char *err,
	size_t errlen)
{
	while (n) {
		const uint8_t *nl = memchr(p, '\n', n);
		size_t part = nl ? (size_t)(nl - p) + 1 : n;

		if (r->pending_n + part > VS_DS_RING_LINE_MAX) {
			snprintf(err, errlen, "the game wrote a line longer than %u bytes to its ring", VS_DS_RING_LINE_MAX);
			return -1;
		}
		if (nl && !r->pending_n) {
			if (sink(ud, (const char *)p, part)) {
				snprintf(err, errlen, "error writing the trace");
				return -1;
			}
		} else {
			if (vs_grow(&r->pending, 1, &r->pending_cap, r->pending_n + part, 256)) {
				snprintf(err, errlen, "out of memory");
				return -1;
			}
			memcpy(r->pending + r->pending_n, p, part);
			r->pending_n += part;
			if (nl) {
				if (sink(ud, r->pending, r->pending_n)) {
					snprintf(err, errlen, "error writing the trace");
					return -1;
				}
				r->pending_n = 0;
			}
		}
		p += part;
		n -= part;
	}
	return 0;
}

int vs_ds_ring_step(vs_ds_ring *r, const uint8_t *ram, size_t ram_len, uint32_t frame, vs_ds_ring_sink sink,
	void *ud, char *err, size_t errlen)
{
	uint32_t off, size, fresh, start, first;
	const uint8_t *data;

	if (!r->addr)
		find(r, ram, ram_len);
	if (!r->addr)
		return 0;
	off = r->addr - VS_DS_MAIN_RAM_BASE;
	if (!header_at(ram, ram_len, off, &size) || size != r->size) {
		snprintf(err, errlen, "frame %u: the ring's header at 0x%08X changed (overwritten?)", (unsigned)frame,
			(unsigned)r->addr);
		return -1;
	}
	fresh = vs_ds_le32(ram + off + 16) - r->read;
	if (fresh > size) {
		snprintf(err, errlen, "ring overflowed at frame %u: %u bytes lost (the ring holds %u; make it larger "
			"or write less a frame)", (unsigned)frame, (unsigned)(fresh - size), (unsigned)size);
		return -1;
	}
	data = ram + off + VS_DS_RING_HEADER;
	start = r->read & (size - 1);
	first = size - start < fresh ? size - start : fresh;
	if (take(r, data + start, first, sink, ud, err, errlen) < 0
		|| take(r, data, fresh - first, sink, ud, err, errlen) < 0)
		return -1;
	r->read += fresh;
	r->bytes += fresh;
	return 0;
}
