/* SPDX-License-Identifier: Zlib */
/* ds_state.c - a bounds-checked walk of a DeSmuME savestate (see
 * ds_state.h). Chunk ids and tags are DeSmuME's (src/saves.cpp and the
 * SFORMAT tables it names, libretro/desmume2015 at 2fb4b68); the offsets
 * inside the ARM9 I/O page are GBATEK's. */
#include "console/ds/ds_state.h"

#include <stdio.h>
#include <string.h>

#include "console/common/input_script.h"
#include "console/ds/ds_int.h"

#define HEADER_BYTES 32u
#define END_CHUNK 0xFFFFFFFFu
#define CHUNK_MMU 61u
#define CHUNK_MOVIE_RAW 101u
#define CHUNK_3D_LIST 91u
#define CHUNK_SLOT1 140u
#define CHUNK_SLOT2 150u

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

/* The tagged entries read: which chunk, which tag, how many bytes. */
enum {
	T_WRAM, T_IO9, T_PALETTE, T_OAM, T_LCDC, T_VCOUNT, T_P0, T_P1, T_P2, T_P3, T_P4, T_P5, T_IO7, T_MR3D,
	T_GCTL, T_GTFM, T_GTPA, T_GINF, T_GRSZ,
	/* indexes DeSmuME writes at before it wraps them: checked (below) */
	T_F0TH, T_F0TL, T_F0SZ, T_F1TH, T_F1TL, T_F1SZ, T_FDHD, T_FDTL, T_GFHE, T_GFTA, T_GFSZ, T_GPHE, T_GPTA,
	T_GPSZ, T_GTVC, NTAGS
};

typedef struct want {
	uint32_t chunk;
	char tag[5];
	uint32_t bytes;   /* exact size */
	int required;
	const char *what; /* for messages */
	uint32_t max;     /* an index's largest value (0: not an index) */
} want;

static const want wanted[NTAGS] = {
	[T_WRAM] = { 4, "WRAM", VS_DS_MAIN_RAM_BYTES, 1, "main RAM" },
	[T_IO9] = { 4, "9REG", 0x2000, 1, "the ARM9 I/O registers" },
	[T_PALETTE] = { 4, "VMEM", VS_DS_PALETTE_BYTES, 1, "palette RAM" },
	[T_OAM] = { 4, "OAMS", VS_DS_OAM_BYTES, 1, "OAM" },
	[T_LCDC] = { 4, "LCDM", VS_DS_LCDC_BYTES, 1, "the VRAM banks" },
	[T_VCOUNT] = { 5, "_VCT", 4, 1, "VCOUNT" },
	[T_P0] = { 5, "_P00", 1, 1, "POWCNT1" },
	[T_P1] = { 5, "_P01", 1, 1, "POWCNT1" },
	[T_P2] = { 5, "_P02", 1, 1, "POWCNT1" },
	[T_P3] = { 5, "_P03", 1, 1, "POWCNT1" },
	[T_P4] = { 5, "_P04", 1, 1, "POWCNT1" },
	[T_P5] = { 5, "_P05", 1, 1, "POWCNT1" },
	[T_IO7] = { 60, "M7RG", 0x10000, 0, "the ARM7 I/O registers" },
	[T_MR3D] = { 60, "MR3D", 4, 0, "DISP3DCNT" },
	[T_GCTL] = { 90, "GCTL", 4, 0, "DISP3DCNT" },
	[T_GTFM] = { 90, "GTFM", 4, 0, "TEXIMAGE_PARAM" },
	[T_GTPA] = { 90, "GTPA", 4, 0, "PLTT_BASE" },
	[T_GINF] = { 130, "GINF", 0x200, 1, "the ROM's header" },
	[T_GRSZ] = { 130, "GRSZ", 4, 1, "the ROM's size" },
	/* the IPC FIFOs (16 words), the display capture FIFO (0x6000 words),
	 * the GX FIFO (200,000 entries: HACK_GXIFO_SIZE in src/FIFO.h), the GX
	 * pipe (4) and the vertex being built (map[4] in src/gfx3d.cpp):
	 * DeSmuME stores at buf[tail] (and reads at buf[head]) before it wraps
	 * the index, so a state's index past its buffer would have it write
	 * past it at the next use */
	[T_F0TH] = { 60, "F0TH", 1, 0, "an IPC FIFO's head", 15 },
	[T_F0TL] = { 60, "F0TL", 1, 0, "an IPC FIFO's tail", 15 },
	[T_F0SZ] = { 60, "F0SZ", 1, 0, "an IPC FIFO's size", 16 },
	[T_F1TH] = { 60, "F1TH", 1, 0, "an IPC FIFO's head", 15 },
	[T_F1TL] = { 60, "F1TL", 1, 0, "an IPC FIFO's tail", 15 },
	[T_F1SZ] = { 60, "F1SZ", 1, 0, "an IPC FIFO's size", 16 },
	[T_FDHD] = { 60, "FDHD", 4, 0, "the display FIFO's head", 0x5FFF },
	[T_FDTL] = { 60, "FDTL", 4, 0, "the display FIFO's tail", 0x5FFF },
	[T_GFHE] = { 90, "GFHE", 4, 0, "the GX FIFO's head", 199999 },
	[T_GFTA] = { 90, "GFTA", 4, 0, "the GX FIFO's tail", 199999 },
	[T_GFSZ] = { 90, "GFSZ", 4, 0, "the GX FIFO's size", 200000 },
	[T_GPHE] = { 90, "GPHE", 1, 0, "the GX pipe's head", 3 },
	[T_GPTA] = { 90, "GPTA", 1, 0, "the GX pipe's tail", 3 },
	[T_GPSZ] = { 90, "GPSZ", 1, 0, "the GX pipe's size", 4 },
	[T_GTVC] = { 90, "GTVC", 4, 0, "the vertex being built's count", 3 },
};

typedef struct walk {
	const uint8_t *at[NTAGS];
	uint32_t q_chunk;     /* one more tag asked for (vs_ds_state_tag), or chunk 0 */
	const char *q_tag;
	uint32_t q_bytes;
	const uint8_t *q_at;
	const uint8_t *polys; /* the polygons' count in the last chunk 91 (checked), or NULL */
	char *err;
	size_t errlen;
} walk;

static int fail(walk *w, const char *msg, uint64_t off)
{
	snprintf(w->err, w->errlen, "%s at byte %llu", msg, (unsigned long long)off);
	return -1;
}

/* The tags of one tagged chunk: data[0..size) at file offset base. */
static int walk_tags(walk *w, uint32_t chunk, const uint8_t *data, uint32_t size, uint64_t base)
{
	uint32_t pos = 0;
	int i;

	while (pos < size) {
		uint64_t bytes;

		if (size - pos < 12)
			return fail(w, "not a DeSmuME savestate: a tag's header runs past its chunk", base + pos);
		bytes = (uint64_t)vs_ds_le32(data + pos + 4) * vs_ds_le32(data + pos + 8);
		if (bytes > size - pos - 12)
			return fail(w, "not a DeSmuME savestate: a tag's data runs past its chunk", base + pos);
		for (i = 0; i < NTAGS; i++)
			if (wanted[i].chunk == chunk && memcmp(wanted[i].tag, data + pos, 4) == 0) {
				if (bytes != wanted[i].bytes) {
					char msg[160];

					snprintf(msg, sizeof msg, "not a savestate of this DeSmuME: %s (tag %s) is %llu bytes, "
						"not %u", wanted[i].what, wanted[i].tag, (unsigned long long)bytes,
						(unsigned)wanted[i].bytes);
					return fail(w, msg, base + pos);
				}
				w->at[i] = data + pos + 12;
			}
		if (w->q_chunk == chunk && bytes == w->q_bytes && memcmp(w->q_tag, data + pos, 4) == 0)
			w->q_at = data + pos + 12;
		pos += 12 + (uint32_t)bytes;
	}
	return 0;
}

/* The chunks DeSmuME reads as tagged entries (ReadStateChunk over an
 * SFORMAT table: writechunks in src/saves.cpp). Each is walked, read from
 * or not: DeSmuME skips an entry it does not know by its size times its
 * count, in 32 bits, so one whose data runs past its chunk would send it
 * reading outside the state (the CPUs' chunks 1 and 2 included). */
static int is_tagged(uint32_t chunk)
{
	switch (chunk) {
	case 1: case 2: case 4: case 5: case 60: case 90: case 100: case 110: case 120: case 130:
	case 160: case 170: case 180:
		return 1;
	default:
		return 0;
	}
}

/* Chunk 61, the MMU's own state (mmu_savestate in src/saves.cpp), as this
 * DeSmuME writes and reads it: u32 version 8; the backup chip's state
 * (BackupDevice::load_state in src/mc.cpp, version 5: six u32 fields, two
 * buffers of u32 length and bytes, then 14 bytes); then 2,556 bytes of
 * fixed state (the GX status and the eight DMA controllers at version 1,
 * the fetch units, the ARM9's two cache controllers, sqrt, div, the DSi
 * touch screen controller); then the firmware, u32 size and its bytes, to
 * the chunk's end. DeSmuME allocates each buffer whole, and gives the
 * firmware as many bytes as the chunk has but reads the size it is told:
 * a size past the chunk overflows DeSmuME's heap, so the layout is
 * checked whole before the state is loaded. */
#define MMU_VERSION 8u
#define MMU_BACKUP_VERSION 5u
#define MMU_BACKUP_FIXED 47u  /* the backup chip's state without its two buffers */
#define MMU_FIXED 2556u       /* from the GX status to the firmware's size */
#define MMU_DMA_BYTES 57u     /* a DMA controller's state, version 1 */

static int check_mmu(walk *w, const uint8_t *p, uint32_t size, uint64_t base)
{
	uint64_t n1, n2, end, fw;
	uint32_t i;

	if (size < 8 || vs_ds_le32(p) != MMU_VERSION || vs_ds_le32(p + 4) != MMU_BACKUP_VERSION)
		return fail(w, "not a savestate of this DeSmuME: the MMU's state (chunk 61) is of another version", base);
	if (size < 4u + 32u || (n1 = vs_ds_le32(p + 4 + 24)) > size - 4u - 32u ||
	    (n2 = vs_ds_le32(p + 4 + 28 + n1)) > size - 4u - 32u - n1)
		return fail(w, "not a DeSmuME savestate: the backup chip's memory runs past the MMU's chunk (61)", base);
	end = 4u + MMU_BACKUP_FIXED + n1 + n2; /* the GX status */
	if (end + MMU_FIXED + 4u > size)
		return fail(w, "not a DeSmuME savestate: the MMU's chunk (61) ends before its firmware", base);
	if (vs_ds_le32(p + end) != 1u)
		return fail(w, "not a savestate of this DeSmuME: the GX status in chunk 61 is of another version", base + end);
	for (i = 0; i < 8; i++)
		if (vs_ds_le32(p + end + 9u + MMU_DMA_BYTES * i) != 1u)
			return fail(w, "not a savestate of this DeSmuME: a DMA controller in chunk 61 is of another version",
				base + end + 9u + MMU_DMA_BYTES * i);
	end += MMU_FIXED;
	fw = vs_ds_le32(p + end);
	if (fw != size - end - 4u)
		return fail(w, "not a DeSmuME savestate: the firmware's size in the MMU's chunk (61) is not what the chunk "
			"holds", base + end);
	return 0;
}

/* DeSmuME's loaders of the chunks it reads with code of its own take what
 * they parse, not the chunk's size: a chunk longer than that would have the
 * rest read as chunks of their own, past this walk. The chunks of fixed
 * size, at the sizes this DeSmuME writes them (CP15, the system's
 * scheduler and input, the GPU's frame buffers, the SPU, the microphone);
 * the MMU's, the 3D lists and the slots' are checked by their layout.
 * 0 for a chunk of none of these. */
static uint32_t raw_size(uint32_t id)
{
	switch (id) {
	case 3: return 496;
	case 51: return 481;
	case 7: return 196644;
	case 8: return 1084;
	case 81: return 4;
	default: return 0;
	}
}

static int check_header(walk *w, const uint8_t *buf, size_t size, uint32_t *len)
{
	if (size < HEADER_BYTES || memcmp(buf, "DeSmuME SState\0", 16) != 0) {
		snprintf(w->err, w->errlen, "not a DeSmuME savestate (it does not start with \"DeSmuME SState\"): "
			"a savestate of another emulator?");
		return -1;
	}
	if (vs_ds_le32(buf + 16) != VS_DS_STATE_VERSION) {
		snprintf(w->err, w->errlen, "a DeSmuME savestate of version %u; this DeSmuME (0.9.11) writes and "
			"reads version %u", (unsigned)vs_ds_le32(buf + 16), VS_DS_STATE_VERSION);
		return -1;
	}
	if (vs_ds_le32(buf + 28) != 0xFFFFFFFFu) {
		snprintf(w->err, w->errlen, "a compressed DeSmuME savestate: save it uncompressed (as the libretro "
			"core does)");
		return -1;
	}
	*len = vs_ds_le32(buf + 24);
	if (*len < HEADER_BYTES + 4 || *len > size) {
		snprintf(w->err, w->errlen, "truncated: the savestate says it is %u bytes, there are %zu",
			(unsigned)*len, size);
		return -1;
	}
	return 0;
}

/* Chunk 91: u32 version (4), s32 vertex count, 39 bytes each, s32 polygon
 * count, 36 bytes each: u32 type (3 or 4), u16 vertex indexes[4], u32
 * POLYGON_ATTR, TEXIMAGE_PARAM, PLTT_BASE, viewport, f32 min/max y.
 * DeSmuME (gfx3d_loadstate) reads the counts and then as many entries into
 * lists of fixed size, so a count past its list (POLYLIST_SIZE 20,000
 * polygons, four times as many vertices, in src/gfx3d.h) would write past
 * them: refused, as is a count past the chunk, a version other than the
 * one this DeSmuME writes, and a chunk longer than what DeSmuME reads of
 * it (raw_size). The chunk's data is p[0..size): -1 with the reason in
 * w->err, else 0 with w->polys at its polygons' count. */
#define LIST_POLYS_MAX 20000u
#define LIST_VERTS_MAX (4u * LIST_POLYS_MAX)
#define LIST_FIXED 4252u /* after the lists: the matrix stacks, the GX FIFO's state, the light caches */
/* In those, from the lists' end: the four matrix stacks (projection, of 1
 * matrix; coordinates and directions, of 31; texture, of 1), each a s32
 * position and its 4-byte entries, 16 a matrix; then the GX FIFO's state,
 * u32 version 2 and two words; then the light caches. DeSmuME pushes a
 * coordinate or direction matrix at entry position * 16 before it wraps
 * the position: one past the stack would write past it. */
#define LIST_STACK1 68u     /* the coordinate stack's position */
#define LIST_STACK2 2056u   /* the direction stack's */
#define LIST_STACK_MAX 31u
#define LIST_GXF 4112u      /* the GX FIFO state's version */

static int check_3d_list(walk *w, const uint8_t *p, uint32_t size)
{
	uint32_t nverts, npolys, expect;

	if (size < 12 || vs_ds_le32(p) != 4) {
		snprintf(w->err, w->errlen, "not a savestate of this DeSmuME: the 3D list (chunk 91) is of another "
			"version");
		return -1;
	}
	if ((nverts = vs_ds_le32(p + 4)) > (size - 8) / 39 || size - 8 - nverts * 39 < 4 ||
	    (npolys = vs_ds_le32(p + 8 + nverts * 39)) > (size - 12 - nverts * 39) / 36) {
		snprintf(w->err, w->errlen, "not a DeSmuME savestate: the 3D list (chunk 91) runs past its chunk");
		return -1;
	}
	if (nverts > LIST_VERTS_MAX || npolys > LIST_POLYS_MAX) {
		snprintf(w->err, w->errlen, "not a DeSmuME savestate: the 3D list (chunk 91) holds %u vertices and %u "
			"polygons, more than DeSmuME's lists (%u and %u)", (unsigned)nverts, (unsigned)npolys,
			(unsigned)LIST_VERTS_MAX, (unsigned)LIST_POLYS_MAX);
		return -1;
	}
	expect = 12 + nverts * 39 + npolys * 36 + LIST_FIXED;
	if (size != expect) {
		snprintf(w->err, w->errlen, "not a savestate of this DeSmuME: the 3D list (chunk 91) is %u bytes, not %u "
			"(DeSmuME would read the rest as chunks of their own)", (unsigned)size, (unsigned)expect);
		return -1;
	}
	expect -= LIST_FIXED; /* the lists' end */
	if (vs_ds_le32(p + expect + LIST_STACK1) > LIST_STACK_MAX || vs_ds_le32(p + expect + LIST_STACK2) > LIST_STACK_MAX) {
		snprintf(w->err, w->errlen, "not a DeSmuME savestate: a matrix stack's position in the 3D state (chunk 91) "
			"is past its stack (DeSmuME would write past it at the next push)");
		return -1;
	}
	if (vs_ds_le32(p + expect + LIST_GXF) != 2) {
		snprintf(w->err, w->errlen, "not a savestate of this DeSmuME: the GX FIFO's state in chunk 91 is of "
			"another version");
		return -1;
	}
	w->polys = p + 8 + nverts * 39;
	return 0;
}

static int walk_chunks(walk *w, const uint8_t *buf, uint32_t len)
{
	uint32_t pos = HEADER_BYTES;

	for (;;) {
		uint32_t id, size;

		if (len - pos < 4)
			return fail(w, "truncated: the savestate ends before its end marker", pos);
		id = vs_ds_le32(buf + pos);
		if (id == END_CHUNK)
			return 0;
		if (len - pos < 8 || vs_ds_le32(buf + pos + 4) > len - pos - 8)
			return fail(w, "truncated: a chunk runs past the end of the savestate", pos);
		size = vs_ds_le32(buf + pos + 4);
		/* DeSmuME takes chunk 101 (a movie's, which it no longer writes)
		 * as nothing, not even its size, and reads on from its data as
		 * chunks of their own: a state to be read one way here and another
		 * there */
		if (id == CHUNK_MOVIE_RAW)
			return fail(w, "not a savestate of this DeSmuME: a chunk 101, whose data DeSmuME would read as "
				"chunks", pos);
		if (is_tagged(id) && walk_tags(w, id, buf + pos + 8, size, (uint64_t)pos + 8) < 0)
			return -1;
		if (raw_size(id) && size != raw_size(id)) {
			char msg[200];
			snprintf(msg, sizeof msg, "not a savestate of this DeSmuME: chunk %u is %u bytes, not %u (DeSmuME "
				"would read the rest as chunks of their own)", (unsigned)id, (unsigned)size,
				(unsigned)raw_size(id));
			return fail(w, msg, pos);
		}
		/* the slots' chunks: a version, the card's id, then a stream of
		 * its own length, which DeSmuME allocates whole (s_slot1_loadstate) */
		if (id == CHUNK_SLOT1 || id == CHUNK_SLOT2) {
			if (size < 12 || vs_ds_le32(buf + pos + 16) > size - 12)
				return fail(w, "not a DeSmuME savestate: a cartridge slot's state runs past its chunk", pos);
			if (vs_ds_le32(buf + pos + 16) != size - 12)
				return fail(w, "not a savestate of this DeSmuME: a cartridge slot's state is shorter than its "
					"chunk (DeSmuME would read the rest as chunks of their own)", pos);
		}
		if (id == CHUNK_MMU && check_mmu(w, buf + pos + 8, size, (uint64_t)pos + 8) < 0)
			return -1;
		/* each one: DeSmuME reads every chunk 91 it meets */
		if (id == CHUNK_3D_LIST && check_3d_list(w, buf + pos + 8, size) < 0)
			return -1;
		pos += 8 + size;
	}
}

/* The polygons of the chunk 91 the walk checked (none without one). */
static void read_polys(const walk *w, vs_ds_frame *f)
{
	uint32_t npolys, i;

	f->polys_n = f->polys_total = 0;
	if (!w->polys)
		return;
	npolys = vs_ds_le32(w->polys);
	f->polys_total = npolys;
	for (i = 0; i < npolys && i < VS_DS_POLYS_MAX; i++) {
		const uint8_t *q = w->polys + 4 + 36u * i;
		vs_ds_poly *out = &f->polys[i];

		out->vertices = (uint8_t)(vs_ds_le32(q) == 4 ? 4 : 3);
		out->poly_attr = vs_ds_le32(q + 12);
		out->tex_param = vs_ds_le32(q + 16);
		out->tex_palette = vs_ds_le32(q + 20);
	}
	f->polys_n = i;
}

void vs_ds_state_fill_video(const vs_ds_video_src *s, vs_ds_frame *f)
{
	const uint8_t *io = s->io9;
	uint16_t keyinput = le16(io + 0x130), extkeyin = s->io7 ? le16(s->io7 + 0x136) : 0xFFFF;
	int e, i;

	for (i = 0; i < 7; i++)
		f->vramcnt[i] = io[0x240 + i];
	f->vramcnt[7] = io[0x248];
	f->vramcnt[8] = io[0x249];
	for (e = 0; e < 2; e++) {
		f->dispcnt[e] = vs_ds_le32(io + 0x1000u * (unsigned)e);
		for (i = 0; i < 4; i++)
			f->bgcnt[e][i] = le16(io + 0x1000u * (unsigned)e + 8 + 2 * (unsigned)i);
	}
	/* POWCNT1 is kept as one flag a bit: LCD, 2D A, 3D render, 3D
	 * geometry, 2D B, display swap (bits 0 1 2 3 9 15). */
	f->powcnt1 = (uint16_t)((s->power[0][0] ? 1u : 0) | (s->power[1][0] ? 2u : 0) | (s->power[2][0] ? 4u : 0)
		| (s->power[3][0] ? 8u : 0) | (s->power[4][0] ? 0x200u : 0) | (s->power[5][0] ? 0x8000u : 0));
	/* KEYINPUT (ARM9) and EXTKEYIN (ARM7, X and Y) hold 0 for a key held. */
	f->keys = (uint16_t)((~keyinput & 0x3FFu) | (~extkeyin & 1u ? VS_KEY_X : 0) | (~extkeyin & 2u ? VS_KEY_Y : 0));
	f->vcount = (uint16_t)vs_ds_le32(s->vcount);
	memcpy(f->oam, s->oam, VS_DS_OAM_BYTES);
	memcpy(f->palette, s->palette, VS_DS_PALETTE_BYTES);
	memcpy(f->lcdc, s->lcdc, VS_DS_LCDC_BYTES);
}

static void fill_frame(const walk *w, vs_ds_frame *f)
{
	vs_ds_video_src s;
	int i;

	s.io9 = w->at[T_IO9];
	s.io7 = w->at[T_IO7];
	for (i = 0; i < 6; i++)
		s.power[i] = w->at[T_P0 + i];
	s.vcount = w->at[T_VCOUNT];
	s.oam = w->at[T_OAM];
	s.palette = w->at[T_PALETTE];
	s.lcdc = w->at[T_LCDC];
	vs_ds_state_fill_video(&s, f);
	f->disp3dcnt = (uint16_t)(w->at[T_MR3D] ? vs_ds_le32(w->at[T_MR3D]) : w->at[T_GCTL] ? vs_ds_le32(w->at[T_GCTL]) : 0);
	f->teximage_param = w->at[T_GTFM] ? vs_ds_le32(w->at[T_GTFM]) : 0;
	f->pltt_base = w->at[T_GTPA] ? vs_ds_le32(w->at[T_GTPA]) : 0;
}

int vs_ds_state_parse(const uint8_t *buf, size_t size, vs_ds_frame *f, vs_ds_state *st, char *err, size_t errlen)
{
	walk w;
	uint32_t len;
	int i;

	memset(&w, 0, sizeof w);
	w.err = err;
	w.errlen = errlen;
	memset(st, 0, sizeof *st);
	if (check_header(&w, buf, size, &len) < 0 || walk_chunks(&w, buf, len) < 0)
		return -1;
	for (i = 0; i < NTAGS; i++) {
		uint32_t v = !w.at[i] ? 0 : wanted[i].bytes == 1 ? w.at[i][0] : vs_ds_le32(w.at[i]);
		if (wanted[i].max && v > wanted[i].max) {
			snprintf(err, errlen, "not a DeSmuME savestate: %s (chunk %u, tag %s) is %u, past its buffer's %u "
				"(DeSmuME would write past it)", wanted[i].what, (unsigned)wanted[i].chunk, wanted[i].tag,
				(unsigned)v, (unsigned)wanted[i].max);
			return -1;
		}
	}
	for (i = 0; i < NTAGS; i++)
		if (wanted[i].required && !w.at[i]) {
			snprintf(err, errlen, "not a savestate of this DeSmuME: %s (chunk %u, tag %s) is missing",
				wanted[i].what, (unsigned)wanted[i].chunk, wanted[i].tag);
			return -1;
		}
	if (f) {
		read_polys(&w, f);
		fill_frame(&w, f);
	}
	st->main_ram = w.at[T_WRAM];
	st->rom_header = w.at[T_GINF];
	st->rom_size = vs_ds_le32(w.at[T_GRSZ]);
	st->length = len;
	return 0;
}

const uint8_t *vs_ds_state_tag(const uint8_t *buf, size_t size, uint32_t chunk, const char *tag, uint32_t bytes)
{
	walk w;
	char err[256];
	uint32_t len;

	memset(&w, 0, sizeof w);
	w.err = err;
	w.errlen = sizeof err;
	w.q_chunk = chunk;
	w.q_tag = tag;
	w.q_bytes = bytes;
	if (check_header(&w, buf, size, &len) < 0 || walk_chunks(&w, buf, len) < 0)
		return NULL;
	return w.q_at;
}
