/* SPDX-License-Identifier: Zlib */
/* test_ds_state.c - the DS driver's pure readers, without the emulator:
 * the DeSmuME savestate walker (a state built here, chunk by chunk, then
 * cut and damaged), the .nds header check, which console a ROM is for,
 * and record.h's ring in main RAM (found, wrapped, overflowed, a line left
 * unfinished, copies of its magic that are not it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support.h"
#include "ds_test_rom.h"
#include "console/common/input_script.h"
#include "console/common/sha256.h"
#include "console/ds/ds_ring.h"
#include "console/ds/ds_rom.h"
#include "console/ds/ds_state.h"

/* ---- a savestate built here ------------------------------------------------ */

typedef struct builder {
	uint8_t *p;
	size_t n, cap;
	size_t chunk; /* where the open chunk's size goes */
} builder;

static void put(builder *b, const void *data, size_t n)
{
	ck_assert(b->n + n <= b->cap);
	if (data)
		memcpy(b->p + b->n, data, n);
	else
		memset(b->p + b->n, 0, n);
	b->n += n;
}

static void put32(builder *b, uint32_t v)
{
	uint8_t w[4];

	ds_test_put32(w, v);
	put(b, w, 4);
}

static void chunk_begin(builder *b, uint32_t id)
{
	put32(b, id);
	b->chunk = b->n;
	put32(b, 0);
}

static void chunk_end(builder *b)
{
	ds_test_put32(b->p + b->chunk, (uint32_t)(b->n - b->chunk - 4));
}

/* A tag of count elements of elem bytes; returns where its data is. */
static uint8_t *tag(builder *b, const char *name, uint32_t elem, uint32_t count)
{
	put(b, name, 4);
	put32(b, elem);
	put32(b, count);
	put(b, NULL, (size_t)elem * count);
	return b->p + b->n - (size_t)elem * count;
}

#define STATE_CAP (6u << 20)

typedef struct built {
	uint8_t *itcm, *io9, *wram, *oam, *lcdc, *ginf, *list;
	size_t len;
} built;

/* A state as DeSmuME 0.9.11 writes it, with what the walker reads and a 3D
 * list of npolys quads. */
static uint8_t *build_state(built *o, uint32_t npolys)
{
	builder b = { calloc(1, STATE_CAP), 0, STATE_CAP, 0 };
	uint32_t i;

	ck_assert_ptr_nonnull(b.p);
	put(&b, "DeSmuME SState\0", 16);
	put32(&b, 12);
	put32(&b, 91100);
	put32(&b, 0); /* length, below */
	put32(&b, 0xFFFFFFFFu);
	chunk_begin(&b, 1);
	tag(&b, "9REG", 4, 16); /* the ARM9's registers: not the I/O page of chunk 4 */
	chunk_end(&b);
	chunk_begin(&b, 3); /* raw: CP15, 496 bytes in this DeSmuME */
	put(&b, "rawrawraw", 9);
	put(&b, NULL, 496 - 9);
	chunk_end(&b);
	chunk_begin(&b, 4);
	o->itcm = tag(&b, "ITCM", 1, 0x8000);
	o->wram = tag(&b, "WRAM", 1, VS_DS_MAIN_RAM_BYTES);
	o->io9 = tag(&b, "9REG", 1, 0x2000);
	tag(&b, "VMEM", 1, VS_DS_PALETTE_BYTES);
	o->oam = tag(&b, "OAMS", 1, VS_DS_OAM_BYTES);
	o->lcdc = tag(&b, "LCDM", 1, VS_DS_LCDC_BYTES);
	chunk_end(&b);
	chunk_begin(&b, 5);
	ds_test_put32(tag(&b, "_VCT", 4, 1), 262);
	tag(&b, "_P00", 1, 1)[0] = 1;
	tag(&b, "_P01", 1, 1)[0] = 1;
	tag(&b, "_P02", 1, 1);
	tag(&b, "_P03", 1, 1)[0] = 1;
	tag(&b, "_P04", 1, 1)[0] = 1;
	tag(&b, "_P05", 1, 1)[0] = 1;
	chunk_end(&b);
	chunk_begin(&b, 90);
	ds_test_put32(tag(&b, "GTFM", 4, 1), 0x1234);
	ds_test_put32(tag(&b, "GTPA", 4, 1), 0x56);
	ds_test_put32(tag(&b, "GCTL", 4, 1), 0x9);
	chunk_end(&b);
	chunk_begin(&b, 91);
	o->list = b.p + b.n;
	put32(&b, 4);
	put32(&b, 2);
	put(&b, NULL, 2 * 39);
	put32(&b, npolys);
	for (i = 0; i < npolys; i++) {
		uint8_t poly[36] = { 0 };

		ds_test_put32(poly, 4);
		ds_test_put32(poly + 16, 0x1C000000u | i); /* texParam: format 7 */
		ds_test_put32(poly + 20, 3);
		put(&b, poly, sizeof poly);
	}
	put(&b, NULL, 4252); /* matrix stacks, GX FIFO state (version 2), light caches */
	ds_test_put32(b.p + b.n - 4252 + 4112, 2);
	chunk_end(&b);
	chunk_begin(&b, 130);
	o->ginf = tag(&b, "GINF", 1, 0x200);
	ds_test_put32(tag(&b, "GRSZ", 1, 4), DS_TEST_ROM_BYTES);
	chunk_end(&b);
	put32(&b, 0xFFFFFFFFu);
	ds_test_put32(b.p + 24, (uint32_t)b.n);
	o->len = b.n;
	return b.p;
}

static vs_ds_frame *frame_new(void)
{
	vs_ds_frame *f = calloc(1, sizeof *f);

	ck_assert_ptr_nonnull(f);
	return f;
}

/* A walk of st that fails saying why. */
static void expect_refused(uint8_t *st, size_t len, const char *why)
{
	vs_ds_state info;
	char err[512];

	ck_assert_int_eq(vs_ds_state_parse(st, len, NULL, &info, err, sizeof err), -1);
	ck_assert_msg(strstr(err, why) != NULL, "expected '%s' in: %s", why, err);
}

START_TEST(test_state_fields)
{
	built o;
	uint8_t *st = build_state(&o, 3);
	vs_ds_frame *f = frame_new();
	vs_ds_state info;
	char err[512];

	memcpy(o.io9 + 0x240, "\x81\x82\x83\x84\x85\x86\x87", 7);
	o.io9[0x247] = 3; /* WRAMCNT, not a bank */
	o.io9[0x248] = 0x88;
	o.io9[0x249] = 0x89;
	ds_test_put32(o.io9, 0x40010908u);
	ds_test_put32(o.io9 + 0x1000, 0x00011111u);
	o.io9[0x0E] = 0x8B; /* BG3CNT of A */
	o.io9[0x100A] = 0x44; /* BG1CNT of B */
	o.io9[0x130] = (uint8_t)~(VS_KEY_A | VS_KEY_START);
	o.io9[0x131] = 0x03;
	o.wram[0x1234] = 0x5A;
	o.oam[0x7FF] = 0x77;
	o.lcdc[VS_DS_LCDC_I] = 0x99;
	ck_assert_msg(vs_ds_state_parse(st, o.len, f, &info, err, sizeof err) == 0, "%s", err);
	ck_assert_mem_eq(f->vramcnt, "\x81\x82\x83\x84\x85\x86\x87\x88\x89", 9);
	ck_assert_uint_eq(f->dispcnt[0], 0x40010908u);
	ck_assert_uint_eq(f->dispcnt[1], 0x00011111u);
	ck_assert_uint_eq(f->bgcnt[0][3], 0x8B);
	ck_assert_uint_eq(f->bgcnt[1][1], 0x44);
	ck_assert_uint_eq(f->powcnt1, 0x1u | 0x2u | 0x8u | 0x200u | 0x8000u);
	ck_assert_uint_eq(f->disp3dcnt, 0x9);
	ck_assert_uint_eq(f->teximage_param, 0x1234);
	ck_assert_uint_eq(f->pltt_base, 0x56);
	ck_assert_uint_eq(f->keys, VS_KEY_A | VS_KEY_START);
	ck_assert_uint_eq(f->vcount, 262);
	ck_assert_uint_eq(f->oam[0x7FF], 0x77);
	ck_assert_uint_eq(f->lcdc[VS_DS_LCDC_I], 0x99);
	ck_assert_uint_eq(f->polys_n, 3);
	ck_assert_uint_eq(f->polys_total, 3);
	ck_assert_uint_eq(f->polys[2].tex_param, 0x1C000002u);
	ck_assert_uint_eq(f->polys[2].tex_palette, 3);
	ck_assert_uint_eq(f->polys[2].vertices, 4);
	ck_assert_ptr_eq(info.main_ram, o.wram);
	ck_assert_uint_eq(info.main_ram[0x1234], 0x5A);
	ck_assert_ptr_eq(info.rom_header, o.ginf);
	ck_assert_uint_eq(info.rom_size, DS_TEST_ROM_BYTES);
	ck_assert_uint_eq(info.length, o.len);
	/* trailing bytes past the state's own length are not read */
	ck_assert_int_eq(vs_ds_state_parse(st, o.len + 100 <= STATE_CAP ? o.len + 100 : o.len, NULL, &info, err,
		sizeof err), 0);
	free(f);
	free(st);
}
END_TEST

START_TEST(test_state_polys_cut)
{
	built o;
	uint8_t *st = build_state(&o, VS_DS_POLYS_MAX + 5);
	vs_ds_frame *f = frame_new();
	vs_ds_state info;
	char err[512];

	ck_assert_msg(vs_ds_state_parse(st, o.len, f, &info, err, sizeof err) == 0, "%s", err);
	ck_assert_uint_eq(f->polys_n, VS_DS_POLYS_MAX);
	ck_assert_uint_eq(f->polys_total, VS_DS_POLYS_MAX + 5);
	/* a vertex count past the chunk, read for a frame or to be loaded */
	ds_test_put32(o.list + 4, 0x7FFFFFFFu);
	ck_assert_int_eq(vs_ds_state_parse(st, o.len, f, &info, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "the 3D list (chunk 91) runs past its chunk"));
	expect_refused(st, o.len, "the 3D list (chunk 91) runs past its chunk");
	free(f);
	free(st);
}
END_TEST

/* The offset of chunk id's header in st (it must be there). */
static size_t chunk_pos(const uint8_t *st, uint32_t id)
{
	size_t pos = 32;

	while (ds_test_get32(st + pos) != id) {
		ck_assert_uint_ne(ds_test_get32(st + pos), 0xFFFFFFFFu);
		pos += 8 + ds_test_get32(st + pos + 4);
	}
	return pos;
}

/* st (of *len bytes, STATE_CAP allocated) with n bytes of data put at the
 * end of chunk id's, or before the end marker as a new chunk id when
 * fresh: the chunk's size and the state's length follow. */
static void grow_chunk(uint8_t *st, size_t *len, uint32_t id, const void *data, uint32_t n, int fresh)
{
	size_t at = fresh ? *len - 4 : chunk_pos(st, id), end = fresh ? at : at + 8 + ds_test_get32(st + at + 4);
	uint32_t head = fresh ? 8 : 0;

	ck_assert_uint_le(*len + n + head, STATE_CAP);
	memmove(st + end + head + n, st + end, *len - end);
	if (fresh) {
		ds_test_put32(st + at, id);
		ds_test_put32(st + at + 4, 0);
	}
	memcpy(st + end + head, data, n);
	ds_test_put32(st + at + 4, ds_test_get32(st + at + 4) + n);
	*len += n + head;
	ds_test_put32(st + 24, (uint32_t)*len);
}

/* DeSmuME's loaders of the chunks it reads with its own code take what they
 * parse, not the chunk's size, and read on from there as chunks: a state
 * whose chunk holds more than that (or a chunk 101, of which DeSmuME takes
 * nothing) would be read one way here and another there; refused. */
START_TEST(test_state_chunk_sizes)
{
	static const uint8_t four[4], slot[20] = { 1, 0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 0 };
	built o;
	uint8_t *st = build_state(&o, 1);
	vs_ds_state info;
	char err[512];
	size_t len = o.len;

	ck_assert_msg(vs_ds_state_parse(st, len, NULL, &info, err, sizeof err) == 0, "%s", err);
	ds_test_put32(st + chunk_pos(st, 3), 101);
	expect_refused(st, len, "a chunk 101, whose data DeSmuME would read as chunks");
	ds_test_put32(st + chunk_pos(st, 101), 3);
	grow_chunk(st, &len, 3, four, 4, 0);
	expect_refused(st, len, "chunk 3 is 500 bytes, not 496 (DeSmuME would read the rest as chunks of their "
		"own)");
	free(st);

	st = build_state(&o, 1);
	len = o.len;
	grow_chunk(st, &len, 91, four, 4, 0);
	expect_refused(st, len, "the 3D list (chunk 91) is 4382 bytes, not 4378");
	free(st);

	/* two 3D lists: DeSmuME reads both, so each is checked, not the last alone */
	st = build_state(&o, 1);
	len = o.len;
	{
		uint8_t *copy = malloc(4378);
		ck_assert_ptr_nonnull(copy);
		memcpy(copy, o.list, 4378);
		grow_chunk(st, &len, 91, copy, 4378, 1);
		free(copy);
	}
	ck_assert_msg(vs_ds_state_parse(st, len, NULL, &info, err, sizeof err) == 0, "%s", err);
	ds_test_put32(o.list, 3);
	expect_refused(st, len, "the 3D list (chunk 91) is of another version");
	free(st);

	/* a coordinate matrix stack's position past its 31 matrices, the GX
	 * FIFO's state of another version */
	st = build_state(&o, 1);
	len = o.len;
	ds_test_put32(o.list + 12 + 2 * 39 + 36 + 68, 31);
	ck_assert_msg(vs_ds_state_parse(st, len, NULL, &info, err, sizeof err) == 0, "%s", err);
	ds_test_put32(o.list + 12 + 2 * 39 + 36 + 68, 32);
	ck_assert_int_eq(vs_ds_state_parse(st, len, NULL, &info, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "a matrix stack's position in the 3D state (chunk 91) is past its stack") != NULL,
		"%s", err);
	ds_test_put32(o.list + 12 + 2 * 39 + 36 + 68, 0);
	ds_test_put32(o.list + 12 + 2 * 39 + 36 + 2056, 0xFFFFFFFFu); /* -1 */
	ck_assert_int_eq(vs_ds_state_parse(st, len, NULL, &info, err, sizeof err), -1);
	ds_test_put32(o.list + 12 + 2 * 39 + 36 + 2056, 0);
	ds_test_put32(o.list + 12 + 2 * 39 + 36 + 4112, 1);
	expect_refused(st, len, "the GX FIFO's state in chunk 91 is of another version");
	free(st);

	/* the FIFOs' indexes: DeSmuME stores at buf[tail] before it wraps it */
	{
		uint8_t tl[13] = { 'F', '0', 'T', 'L', 1, 0, 0, 0, 1, 0, 0, 0, 15 };
		uint8_t ta[16] = { 'G', 'F', 'T', 'A', 4, 0, 0, 0, 1, 0, 0, 0 };
		st = build_state(&o, 1);
		len = o.len;
		grow_chunk(st, &len, 60, tl, sizeof tl, 1);
		ds_test_put32(ta + 12, 199999);
		grow_chunk(st, &len, 90, ta, sizeof ta, 0);
		ck_assert_msg(vs_ds_state_parse(st, len, NULL, &info, err, sizeof err) == 0, "%s", err);
		st[chunk_pos(st, 60) + 8 + 12] = 16;
		expect_refused(st, len, "an IPC FIFO's tail (chunk 60, tag F0TL) is 16, past its buffer's 15 (DeSmuME "
			"would write past it)");
		st[chunk_pos(st, 60) + 8 + 12] = 0;
		{
			size_t at = chunk_pos(st, 90), end = at + 8 + ds_test_get32(st + at + 4);
			ck_assert_int_eq(memcmp(st + end - 16, "GFTA", 4), 0);
			ds_test_put32(st + end - 4, 200000);
		}
		expect_refused(st, len, "the GX FIFO's tail (chunk 90, tag GFTA) is 200000");
		free(st);
	}

	/* a slot's state: version, id, a stream of 4 bytes; then 4 more */
	st = build_state(&o, 1);
	len = o.len;
	grow_chunk(st, &len, 140, slot, 16, 1);
	ck_assert_msg(vs_ds_state_parse(st, len, NULL, &info, err, sizeof err) == 0, "%s", err);
	grow_chunk(st, &len, 140, four, 4, 0);
	expect_refused(st, len, "a cartridge slot's state is shorter than its chunk");
	free(st);
}
END_TEST

/* DeSmuME reads the 3D list's entries into lists of 20,000 polygons and
 * 80,000 vertices: a state with more, inside its chunk, is refused before
 * it writes past them; as many is taken. */
START_TEST(test_state_polys_past_desmume)
{
	built o;
	uint8_t *st = build_state(&o, 20001);
	vs_ds_frame *f = frame_new();
	vs_ds_state info;
	char err[512];

	expect_refused(st, o.len, "the 3D list (chunk 91) holds 2 vertices and 20001 polygons, more than DeSmuME's "
		"lists (80000 and 20000)");
	ck_assert_int_eq(vs_ds_state_parse(st, o.len, f, &info, err, sizeof err), -1);
	free(st);
	st = build_state(&o, 20000);
	ck_assert_msg(vs_ds_state_parse(st, o.len, NULL, &info, err, sizeof err) == 0, "%s", err);
	ck_assert_msg(vs_ds_state_parse(st, o.len, f, &info, err, sizeof err) == 0, "%s", err);
	ck_assert_uint_eq(f->polys_total, 20000);
	free(f);
	free(st);
}
END_TEST

/* Every cut of the state is refused, by the buffer's end or by its own
 * length, never read past. Cuts in the header and the first chunks, and a
 * spread of cuts in the last 4 KiB (every small chunk), are copies of
 * exactly their length, so ASan sees any read past them; the rest cut the
 * same buffer (copying 5 MB a cut would take minutes). */
static void cut_at(uint8_t *st, size_t len, size_t cut, int copy)
{
	vs_ds_state info;
	char err[512];
	uint8_t *p = st, saved[4];

	if (copy) {
		p = malloc(cut ? cut : 1);
		memcpy(p, st, cut);
	}
	HOT_CMP(vs_ds_state_parse(p, cut, NULL, &info, err, sizeof err), ==, -1);
	if (cut >= 32) {
		HOT_ASSERT(strstr(err, "truncated") != NULL, "cut %zu: %s", cut, err);
		memcpy(saved, p + 24, 4);
		ds_test_put32(p + 24, (uint32_t)cut); /* the length says the cut too: the walk finds it */
		HOT_CMP(vs_ds_state_parse(p, cut, NULL, &info, err, sizeof err), ==, -1);
		memcpy(p + 24, saved, 4);
	}
	if (copy)
		free(p);
	(void)len;
}

START_TEST(test_state_truncated)
{
	built o;
	uint8_t *st = build_state(&o, 2);
	size_t cut;

	for (cut = 0; cut < 4096; cut++)
		cut_at(st, o.len, cut, 1);
	for (cut = 4096; cut < o.len - 4096; cut += 4099)
		cut_at(st, o.len, cut, 0);
	for (cut = o.len - 4096; cut < o.len; cut += 61)
		cut_at(st, o.len, cut, 1);
	cut_at(st, o.len, o.len - 1, 1);
	free(st);
}
END_TEST

START_TEST(test_state_refused)
{
	built o;
	uint8_t *st = build_state(&o, 1);
	uint32_t v;

	memcpy(st, "\x89PNG\r\n\x1a\n", 8);
	expect_refused(st, o.len, "not a DeSmuME savestate");
	memcpy(st, "DeSmuME SState\0", 16);
	ds_test_put32(st + 16, 11);
	expect_refused(st, o.len, "version 11");
	ds_test_put32(st + 16, 12);
	ds_test_put32(st + 28, 1000);
	expect_refused(st, o.len, "compressed");
	ds_test_put32(st + 28, 0xFFFFFFFFu);
	/* the first chunk's size past the end */
	v = ds_test_get32(st + 36);
	ds_test_put32(st + 36, 0x7FFFFFF0u);
	expect_refused(st, o.len, "a chunk runs past the end");
	ds_test_put32(st + 36, v);
	/* a tag whose data runs past its chunk, in a chunk nothing is read
	 * from (chunk 1, the ARM9's: DeSmuME would seek by its size times its
	 * count in 32 bits, outside the state) */
	ds_test_put32(st + 48, 0x7FFF0001u);
	expect_refused(st, o.len, "a tag's data runs past its chunk at byte 40");
	ds_test_put32(st + 48, 16);
	/* a tag of another size: not this DeSmuME's layout */
	memcpy(o.itcm - 12, "OAMS", 4);
	expect_refused(st, o.len, "OAM (tag OAMS) is 32768 bytes, not 2048");
	memcpy(o.itcm - 12, "ITCM", 4);
	/* no ROM header at all */
	memcpy(o.ginf - 12, "XINF", 4);
	expect_refused(st, o.len, "the ROM's header (chunk 130, tag GINF) is missing");
	free(st);
}
END_TEST

/* ---- the .nds header ----------------------------------------------------------- */

static void expect_rom_refused(const uint8_t *rom, size_t len, const char *why)
{
	vs_ds_rom_info info;
	char err[512];

	ck_assert_int_eq(vs_ds_rom_check(rom, len, &info, err, sizeof err), -1);
	ck_assert_msg(strstr(err, why) != NULL, "expected '%s' in: %s", why, err);
}

START_TEST(test_rom_header)
{
	static uint8_t rom[DS_TEST_ROM_BYTES];
	static const uint32_t code[] = { ARM_LOOP };
	vs_ds_rom_info info;
	char err[512], hex[65];

	ds_test_rom_make(rom, "HELLO\x01WORLD!", code, 1, NULL);
	ck_assert_msg(vs_ds_rom_check(rom, sizeof rom, &info, err, sizeof err) == 0, "%s", err);
	ck_assert_str_eq(info.title, "HELLO?WORLD!");
	ck_assert_str_eq(info.code, "VSTE");
	ck_assert_str_eq(info.maker, "01");
	ck_assert_uint_eq(info.arm9_ram, 0x02000000u);
	ck_assert_uint_eq(info.arm7_offset, 0x200 + DS_TEST_ARM9_BYTES);
	vs_sha256_hex(rom, sizeof rom, hex);
	ck_assert_str_eq(info.sha256, hex);
	expect_rom_refused(rom, 0x1FF, "shorter than the 512-byte header");
	/* truncated inside the ARM7 binary */
	expect_rom_refused(rom, sizeof rom - 4, "the ARM7 binary (0x10 bytes at offset 0x1200) lies outside the file");
	rom[0] ^= 1;
	expect_rom_refused(rom, sizeof rom, "the header checksum at 0x15E is");
	ds_test_rom_seal(rom);
	rom[0x12] = 5;
	ds_test_rom_seal(rom);
	expect_rom_refused(rom, sizeof rom, "unit code 5");
	rom[0x12] = 0;
	ds_test_put32(rom + 0x28, 0x02400000u - 0x800);
	ds_test_put32(rom + 0x24, 0x02400000u - 0x800);
	ds_test_rom_seal(rom);
	expect_rom_refused(rom, sizeof rom, "the ARM9 binary (0x1000 bytes) loads at 0x023FF800");
	ds_test_put32(rom + 0x28, 0x02000000u);
	ds_test_put32(rom + 0x24, 0x02001000u);
	ds_test_rom_seal(rom);
	expect_rom_refused(rom, sizeof rom, "the ARM9 entry point 0x02001000 is outside its binary");
	ds_test_put32(rom + 0x24, 0x02000000u);
	ds_test_put32(rom + 0x3C, 0);
	ds_test_rom_seal(rom);
	expect_rom_refused(rom, sizeof rom, "the ARM7 binary is empty");
	/* a GBA cartridge: 0x96 at 0xB2, no DS checksum */
	memset(rom, 0, sizeof rom);
	rom[0xB2] = 0x96;
	expect_rom_refused(rom, sizeof rom, "a GBA ROM");
	/* random bytes */
	{
		vs_rng r = { 7 };
		size_t i;

		for (i = 0; i < sizeof rom; i++)
			rom[i] = (uint8_t)vs_rng_next(&r);
		rom[0xB2] = 0;
		expect_rom_refused(rom, sizeof rom, "the header checksum at 0x15E is");
	}
}
END_TEST

START_TEST(test_rom_kind)
{
	static uint8_t rom[DS_TEST_ROM_BYTES];
	static const uint32_t code[] = { ARM_LOOP };
	const char *path;

	ds_test_rom_make(rom, "KIND", code, 1, NULL);
	ck_assert_int_eq(vs_rom_kind_of(rom, sizeof rom), VS_ROM_KIND_DS);
	ck_assert_int_eq(vs_rom_kind_of(rom, 0x15F), VS_ROM_KIND_UNKNOWN);
	path = vs_test_path("kind.bin");
	ck_assert_int_eq(ds_test_write(path, rom, sizeof rom), 0);
	ck_assert_int_eq(vs_rom_kind_file(path), VS_ROM_KIND_DS);
	/* a DS header with a GBA header inside it (PassMe-style) is a DS ROM */
	rom[0xB2] = 0x96;
	ds_test_rom_seal(rom);
	ck_assert_int_eq(vs_rom_kind_of(rom, sizeof rom), VS_ROM_KIND_DS);
	rom[0] ^= 1;
	ck_assert_int_eq(vs_rom_kind_of(rom, sizeof rom), VS_ROM_KIND_GBA);
	rom[0xB2] = 0;
	ck_assert_int_eq(vs_rom_kind_of(rom, sizeof rom), VS_ROM_KIND_UNKNOWN);
	ck_assert_int_eq(vs_rom_kind_file(vs_test_path("missing.gba")), VS_ROM_KIND_UNKNOWN);
	/* a pipe is not read: its bytes stay for whoever the command gives it to */
	{
		int fds[2];
		char fdpath[64], left[8];

		ck_assert_int_eq(pipe(fds), 0);
		ck_assert_int_eq(write(fds[1], "5 a\n", 4), 4);
		close(fds[1]);
		snprintf(fdpath, sizeof fdpath, "/dev/fd/%d", fds[0]);
		ck_assert_int_eq(vs_rom_kind_file(fdpath), VS_ROM_KIND_UNKNOWN);
		ck_assert_int_eq(read(fds[0], left, sizeof left), 4);
		close(fds[0]);
	}
	ck_assert_int_eq(vs_rom_kind_file(vs_test_path("missing.NDS")), VS_ROM_KIND_DS);
	/* GBATEK's CRC-16: the check value of CRC-16/MODBUS */
	ck_assert_uint_eq(vs_rom_kind_crc16("123456789", 9), 0x4B37);
}
END_TEST

/* ---- the ring ------------------------------------------------------------------ */

typedef struct got {
	char text[1 << 20];
	size_t n;
	int fail_after; /* calls before the sink fails, or 0 */
	int calls;
} got;

static int sink(void *ud, const char *text, size_t len)
{
	got *g = ud;

	HOT_ASSERT(len && text[len - 1] == '\n', "the sink gets whole lines");
	if (g->fail_after && ++g->calls > g->fail_after)
		return 1;
	HOT_ASSERT(g->n + len < sizeof g->text, "too much text");
	memcpy(g->text + g->n, text, len);
	g->n += len;
	g->text[g->n] = '\0';
	return 0;
}

static void ring_header(uint8_t *ram, uint32_t off, uint32_t self, uint32_t size)
{
	memcpy(ram + off, "vsRING1", 8);
	ds_test_put32(ram + off + 8, self);
	ds_test_put32(ram + off + 12, size);
	ds_test_put32(ram + off + 16, 0);
	ds_test_put32(ram + off + 20, 0);
}

/* The game's side: stream bytes into the ring, then move written. */
static void ring_write(uint8_t *ram, uint32_t off, const char *s, size_t n)
{
	uint32_t size = ds_test_get32(ram + off + 12);
	uint32_t w = ds_test_get32(ram + off + 16);
	size_t i;

	for (i = 0; i < n; i++)
		ram[off + 24 + ((w + i) & (size - 1))] = (uint8_t)s[i];
	ds_test_put32(ram + off + 16, w + (uint32_t)n);
}

#define RAM VS_DS_MAIN_RAM_BYTES

START_TEST(test_ring_found_and_wrapped)
{
	uint8_t *ram = calloc(1, RAM);
	got *g = calloc(1, sizeof *g);
	vs_ds_ring r;
	char err[256], expect[4096] = "", line[64];
	uint32_t off = 0x20000, frame;

	vs_ds_ring_init(&r);
	/* copies of the magic that are not the ring, before it in RAM */
	ring_header(ram, 0x100, 0x02000100u + 4, 256);         /* self is not where it lies */
	ring_header(ram, 0x1000, 0x02001000u, 300);            /* not a power of two */
	ring_header(ram, 0x2000, 0x02002000u, 128);            /* too small */
	memcpy(ram + 0x3001, "vsRING1", 8);                    /* not aligned */
	ring_header(ram, RAM - 64, 0x02000000u + RAM - 64, 256); /* past the end of RAM */
	ck_assert_int_eq(vs_ds_ring_step(&r, ram, RAM, 0, sink, g, err, sizeof err), 0);
	ck_assert_uint_eq(r.addr, 0);
	ring_header(ram, off, 0x02000000u + off, 256);
	ring_write(ram, off, "vramsim-trace 1\n", 16);
	strcat(expect, "vramsim-trace 1\n");
	ck_assert_int_eq(vs_ds_ring_step(&r, ram, RAM, 1, sink, g, err, sizeof err), 0);
	ck_assert_uint_eq(r.addr, 0x02000000u + off);
	/* lines over many frames, wrapping the 256-byte ring several times,
	 * some split across frames */
	for (frame = 2; frame < 60; frame++) {
		int n = snprintf(line, sizeof line, "alloc %u main sprite 8x8 4bpp\n", (unsigned)frame);
		int half = frame % 3 == 0 ? n / 2 : n;

		ring_write(ram, off, line, (size_t)half);
		ck_assert_msg(vs_ds_ring_step(&r, ram, RAM, frame, sink, g, err, sizeof err) == 0, "%s", err);
		if (half < n) {
			ck_assert_uint_eq(r.pending_n, (size_t)half);
			ring_write(ram, off, line + half, (size_t)(n - half));
		}
		strcat(expect, line);
	}
	ck_assert_int_eq(vs_ds_ring_step(&r, ram, RAM, frame, sink, g, err, sizeof err), 0);
	ck_assert_str_eq(g->text, expect);
	ck_assert_uint_eq(r.bytes, strlen(expect));
	ck_assert_uint_eq(r.pending_n, 0);
	/* an unfinished line stays pending, not handed on */
	ring_write(ram, off, "free 2", 6);
	ck_assert_int_eq(vs_ds_ring_step(&r, ram, RAM, frame, sink, g, err, sizeof err), 0);
	ck_assert_uint_eq(r.pending_n, 6);
	ck_assert_str_eq(g->text, expect);
	/* written wraps past 2^32 */
	r.read = 0xFFFFFFF0u;
	r.pending_n = 0;
	ds_test_put32(ram + off + 16, 0xFFFFFFF0u);
	ring_write(ram, off, "free 3\nfree 4\nfree 5\n", 21);
	ck_assert_int_eq(vs_ds_ring_step(&r, ram, RAM, frame, sink, g, err, sizeof err), 0);
	ck_assert_ptr_nonnull(strstr(g->text, "free 3\nfree 4\nfree 5\n"));
	vs_ds_ring_free(&r);
	free(g);
	free(ram);
}
END_TEST

START_TEST(test_ring_failures)
{
	uint8_t *ram = calloc(1, RAM), big[300];
	got *g = calloc(1, sizeof *g);
	vs_ds_ring r;
	char err[256];
	uint32_t off = 0x400, i;

	memset(big, 'x', sizeof big);
	vs_ds_ring_init(&r);
	ring_header(ram, off, 0x02000000u + off, 256);
	ck_assert_int_eq(vs_ds_ring_step(&r, ram, RAM, 3, sink, g, err, sizeof err), 0);
	/* 266 bytes in one frame into 256 */
	ring_write(ram, off, (const char *)big, 266);
	ck_assert_int_eq(vs_ds_ring_step(&r, ram, RAM, 7, sink, g, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "ring overflowed at frame 7: 10 bytes lost") != NULL, "%s", err);
	vs_ds_ring_free(&r);
	/* exactly a ring's worth is no overflow */
	ring_header(ram, off, 0x02000000u + off, 256);
	big[255] = '\n';
	ring_write(ram, off, (const char *)big, 256);
	ck_assert_int_eq(vs_ds_ring_step(&r, ram, RAM, 1, sink, g, err, sizeof err), 0);
	ck_assert_uint_eq(g->n, 256);
	/* the header overwritten */
	ds_test_put32(ram + off + 12, 512);
	ck_assert_int_eq(vs_ds_ring_step(&r, ram, RAM, 9, sink, g, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "frame 9: the ring's header at 0x02000400 changed") != NULL, "%s", err);
	vs_ds_ring_free(&r);
	/* a line with no end */
	ring_header(ram, off, 0x02000000u + off, 256);
	big[255] = 'x';
	for (i = 0; i < VS_DS_RING_LINE_MAX / 200 + 1; i++) {
		ring_write(ram, off, (const char *)big, 200);
		if (vs_ds_ring_step(&r, ram, RAM, i, sink, g, err, sizeof err) < 0)
			break;
	}
	ck_assert_msg(strstr(err, "a line longer than 65536 bytes") != NULL, "%s", err);
	vs_ds_ring_free(&r);
	/* the sink fails: a write error */
	ring_header(ram, off, 0x02000000u + off, 256);
	ring_write(ram, off, "a\nb\n", 4);
	g->fail_after = 1;
	ck_assert_int_eq(vs_ds_ring_step(&r, ram, RAM, 1, sink, g, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "error writing the trace"));
	vs_ds_ring_free(&r);
	free(g);
	free(ram);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("ds_state");
	TCase *tc = tcase_create("state");

	tcase_add_test(tc, test_state_fields);
	tcase_add_test(tc, test_state_polys_cut);
	tcase_add_test(tc, test_state_polys_past_desmume);
	tcase_add_test(tc, test_state_chunk_sizes);
	tcase_add_test(tc, test_state_truncated);
	tcase_add_test(tc, test_state_refused);
	tcase_add_test(tc, test_rom_header);
	tcase_add_test(tc, test_rom_kind);
	tcase_add_test(tc, test_ring_found_and_wrapped);
	tcase_add_test(tc, test_ring_failures);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vs_test_main(suite());
}
