/* SPDX-License-Identifier: Zlib */
/* fuzz_ds_state.c - DeSmuME savestates (vramsim record|capture --state, and
 * the emulator's own state every frame) and record.h's ring in main RAM.
 *
 * Byte 0 picks how the rest is read: 0, a whole savestate; otherwise the
 * chunks after a built chunk 4 (main RAM, I/O, OAM, VRAM: megabytes no
 * input here reaches), so the fuzzer works on the chunks that follow it
 * (5, 90, 91, 130, the end marker) and on filling a frame. Then the same
 * bytes as main RAM for the ring reader, over two frames. */
#include <stdlib.h>

#include "fuzz_common.h"
#include "console/ds/ds_ring.h"
#include "console/ds/ds_state.h"

static uint8_t *state;   /* header and chunk 4, then the input */
static size_t head_len;
static vs_ds_frame *frame;

static size_t put_tag(uint8_t *p, const char *tag, uint32_t bytes)
{
	memcpy(p, tag, 4);
	memset(p + 4, 0, 8);
	p[4] = 1;
	p[8] = (uint8_t)bytes;
	p[9] = (uint8_t)(bytes >> 8);
	p[10] = (uint8_t)(bytes >> 16);
	p[11] = (uint8_t)(bytes >> 24);
	return 12u + bytes;
}

static void build_head(void)
{
	static const struct { const char *tag; uint32_t bytes; } tags[] = {
		{ "WRAM", VS_DS_MAIN_RAM_BYTES }, { "9REG", 0x2000 }, { "VMEM", VS_DS_PALETTE_BYTES },
		{ "OAMS", VS_DS_OAM_BYTES }, { "LCDM", VS_DS_LCDC_BYTES }
	};
	size_t i, n = 40, cap = 40 + VS_DS_MAIN_RAM_BYTES + 0x2000 + 0x1000 + VS_DS_LCDC_BYTES + 100 + VS_FUZZ_MAX_INPUT;

	state = calloc(1, cap);
	frame = calloc(1, sizeof *frame);
	if (!state || !frame)
		abort();
	memcpy(state, "DeSmuME SState\0", 16);
	state[16] = 12;
	memset(state + 28, 0xFF, 4);
	state[32] = 4; /* chunk 4 */
	for (i = 0; i < sizeof tags / sizeof tags[0]; i++)
		n += put_tag(state + n, tags[i].tag, tags[i].bytes);
	state[36] = (uint8_t)(n - 40);
	state[37] = (uint8_t)((n - 40) >> 8);
	state[38] = (uint8_t)((n - 40) >> 16);
	head_len = n;
}

static int drop(void *ud, const char *text, size_t len)
{
	(void)ud, (void)text, (void)len;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];
	vs_ds_state st;
	vs_ds_ring ring;
	size_t total;

	if (size == 0 || size > VS_FUZZ_MAX_INPUT)
		return 0;
	if (!state)
		build_head();
	if (data[0] == 0) {
		vs_ds_state_parse(data + 1, size - 1, frame, &st, err, sizeof err);
	} else {
		memcpy(state + head_len, data + 1, size - 1);
		total = head_len + size - 1;
		state[24] = (uint8_t)total;
		state[25] = (uint8_t)(total >> 8);
		state[26] = (uint8_t)(total >> 16);
		state[27] = (uint8_t)(total >> 24);
		vs_ds_state_parse(state, total, frame, &st, err, sizeof err);
	}
	vs_ds_ring_init(&ring);
	if (vs_ds_ring_step(&ring, data, size, 0, drop, NULL, err, sizeof err) == 0)
		vs_ds_ring_step(&ring, data, size, 1, drop, NULL, err, sizeof err);
	vs_ds_ring_free(&ring);
	return 0;
}
