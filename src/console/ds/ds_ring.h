/* SPDX-License-Identifier: Zlib */
/* ds_ring.h - the host half of record.h's DS transport: a ring of trace
 * text in the game's main RAM, read once a frame.
 *
 * The game keeps, 4-byte aligned and little-endian in main RAM:
 *   struct { char magic[8] = "vsRING1\0"; u32 self; u32 size;
 *            u32 written; u32 reserved; u8 data[size]; }
 * self is the struct's own address (0x02xxxxxx: a copy of the magic
 * elsewhere is not the ring), size a power of two from 256 B to 1 MiB,
 * written the bytes ever written (mod 2^32); stream byte i is data[i % size],
 * stored before written moves. The stream is trace lines, each ended by
 * '\n'. The reader finds the ring by scanning RAM after each frame until a
 * valid header appears, then checks that header every frame and takes
 * what was written since the last one. More than size bytes in one frame
 * is an overflow: those bytes are lost, and the run fails.
 *
 * A pure function of the RAM it is given: tests drive it with buffers.
 */
#ifndef VRAMSIM_DS_RING_H
#define VRAMSIM_DS_RING_H

#include <stddef.h>
#include <stdint.h>

#define VS_DS_RING_MAGIC "vsRING1"  /* 8 bytes with its NUL */
#define VS_DS_RING_HEADER 24u
#define VS_DS_RING_MIN 256u
#define VS_DS_RING_MAX (1u << 20)
#define VS_DS_RING_LINE_MAX 65536u  /* a longer line without '\n' is refused */

/* Complete lines (each ended by '\n'), as many as are ready. Returns 0, or
 * non-zero to stop (a write error). */
typedef int (*vs_ds_ring_sink)(void *ud, const char *text, size_t len);

typedef struct vs_ds_ring {
	uint32_t addr;     /* the ring's header in the game's memory; 0 until found */
	uint32_t size;
	uint32_t read;     /* stream bytes taken (mod 2^32) */
	uint64_t bytes;    /* stream bytes taken in all */
	char *pending;     /* the line being received */
	size_t pending_n, pending_cap;
} vs_ds_ring;

void vs_ds_ring_init(vs_ds_ring *r);
void vs_ds_ring_free(vs_ds_ring *r);
/* After a frame: finds the ring (until found) and hands sink the complete
 * lines written since the last call. ram holds ram_len bytes of main RAM
 * from 0x02000000. 0 (also while no ring is there), or -1 with err: the
 * ring overflowed ("ring overflowed at frame N: M bytes lost"), its header
 * changed, a line grew past VS_DS_RING_LINE_MAX, sink failed. */
int vs_ds_ring_step(vs_ds_ring *r, const uint8_t *ram, size_t ram_len, uint32_t frame, vs_ds_ring_sink sink,
	void *ud, char *err, size_t errlen);

#endif
