/* SPDX-License-Identifier: Zlib */
/* ds_direct.c - the DS video hardware read from DeSmuME's own memory (see
 * ds_direct.h). Offsets are those of DeSmuME 0.9.11's structs as GCC lays
 * them out on x86-64 (libretro/desmume2015 at 2fb4b68); nothing is used
 * that was not compared with a savestate first. */
#define _DEFAULT_SOURCE /* realpath, mincore */
#include "console/ds/ds_direct.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/compiler_hints.h"
#include "console/ds/ds_core.h"
#include "console/ds/ds_state.h"
#include "console/ds/ds_int.h"

/* Reads of memory the search only believes to be something: a pointer
 * found in the core's globals may lead into another allocator's guard
 * bytes, which AddressSanitizer would report. */
#define NOT_INSTRUMENTED __attribute__((no_sanitize_address))

/* struct MMU_struct (desmume/src/MMU.h): ARM9_ITCM 32 KiB, ARM9_DTCM 16
 * KiB, MAIN_MEM 16 MiB, ARM9_REG 16 MiB, ARM9_BIOS 32 KiB, ARM9_VMEM,
 * ARM9_LCD (packed with 128 KiB of blank memory), ARM9_OAM, 22 pointers,
 * ARM7_BIOS 16 KiB, ARM7_ERAM 64 KiB, ARM7_REG. */
#define MMU_MAIN 0xC000u
#define MMU_IO9 0x100C000u
#define MMU_PALETTE 0x2014000u
#define MMU_LCDC 0x2014800u
#define MMU_OAM 0x20D8800u
#define MMU_IO7 0x20ED0B0u
/* ... ARM7_WIRAM 64 KiB, VRAM_MAP, LCD_VRAM_ADDR, LCDCenable, SWIRAM 32
 * KiB, 8 unused bytes, ARM9_RW_MODE, DTCMRegion, ITCMRegion, timer,
 * timerMODE, timerON, timerRUN, timerReload, reg_IME, reg_IE, reg_IF_bits,
 * reg_IF_pending, reg_DISP3DCNT_bits: DISP3DCNT as the game wrote it (the
 * I/O page's 0x60 is not written: MMU.cpp, writereg_DISP3DCNT). */
#define MMU_WIRAM7 (MMU_IO7 + 0x10000u)
#define MMU_SWIRAM 0x210D162u
#define MMU_DTCM_AT 0x211516Cu
#define MMU_TIMERS 0x2115174u
#define MMU_IE 0x21151FCu
#define MMU_IF_PENDING 0x211520Cu
#define MMU_DISP3DCNT 0x2115214u
#define MMU_END (MMU_DISP3DCNT + 4u)

/* struct NDSSystem (desmume/src/NDSSystem.h): timerCycle at 8, VCount at
 * 72, power1 (six flags, POWCNT1) at 320, power2 at 326. */
#define NDS_TIMERS 8u
#define NDS_VCOUNT 72u
#define NDS_POWER1 320u
#define NDS_END 328u

/* gfx3d.cpp's polylists: malloc(2 * sizeof(POLYLIST)), POLYLIST being
 * 20000 POLYs of 40 bytes and an int count (gfx3d.h). */
#define POLY_BYTES 40u
#define POLYS_MAX 20000u
#define LIST_COUNT (POLYS_MAX * POLY_BYTES)
#define LIST_BYTES (LIST_COUNT + 4u)
#define LISTS_BYTES (2u * LIST_BYTES)
/* glibc's chunk size word in front of such a block: from the heap, or
 * mapped on its own (malloc/malloc.c: request2size, sysmalloc). */
#define CHUNK_HEAP (((uint64_t)LISTS_BYTES + 8u + 15u) & ~(uint64_t)15)
#define CHUNK_MAPPED (((uint64_t)CHUNK_HEAP + 8u + 4095u) & ~(uint64_t)4095)

#define WINDOW 64u /* bytes of main RAM searched for */

#if defined(VS_ASAN)
/* AddressSanitizer's allocator serves the core's malloc too; its public
 * interface (compiler-rt, include/sanitizer/allocator_interface.h) says
 * which blocks are its and their sizes. */
int __sanitizer_get_ownership(const volatile void *p);
size_t __sanitizer_get_allocated_size(const volatile void *p);
#endif

typedef struct block {
	uint32_t chunk;
	char tag[5];
	uint32_t bytes, off;
} block;

static const block mmu_blocks[] = {
	{ 4, "WRAM", 0x400000, MMU_MAIN }, { 4, "9REG", 0x2000, MMU_IO9 }, { 4, "VMEM", 0x800, MMU_PALETTE },
	{ 4, "LCDM", 0xA4000, MMU_LCDC }, { 4, "OAMS", 0x800, MMU_OAM }, { 60, "M7RG", 0x10000, MMU_IO7 },
	{ 60, "M7WI", 0x10000, MMU_WIRAM7 }, { 60, "MSWI", 0x8000, MMU_SWIRAM }, { 60, "MDTC", 4, MMU_DTCM_AT },
	{ 60, "MITC", 4, MMU_DTCM_AT + 4 }, { 60, "MTIM", 16, MMU_TIMERS }, { 60, "MIE_", 8, MMU_IE },
	{ 60, "MIFP", 8, MMU_IF_PENDING }, { 60, "MR3D", 4, MMU_DISP3DCNT },
};

/* gfx3d.cpp's `static u32 polyAttr, textureFormat, texturePalette,
 * polyAttrPending`: GCC places them last first, 16 bytes. */
#define TEX_PARAM 8u
#define TEX_PLTT 4u
static const block tex_fields[] = {
	{ 90, "GPAP", 4, 0 }, { 90, "GTPA", 4, TEX_PLTT }, { 90, "GTFM", 4, TEX_PARAM }, { 90, "GPAT", 4, 12 },
};

/* The fields of `nds` chunk 5 saves, where the struct has them. */
static const block nds_fields[] = {
	{ 5, "_WCY", 4, 0 }, { 5, "_TCY", 64, NDS_TIMERS }, { 5, "_VCT", 4, NDS_VCOUNT }, { 5, "_OLD", 4, 76 },
	{ 5, "_TPX", 2, 80 }, { 5, "_TPY", 2, 82 }, { 5, "_TPC", 2, 84 }, { 5, "_STX", 2, 92 }, { 5, "_STY", 2, 94 },
	{ 5, "_IFB", 4, 96 }, { 5, "_TPB", 4, 100 }, { 5, "_PDL", 2, 106 }, { 5, "_SLP", 4, 144 },
	{ 5, "_CEJ", 4, 148 }, { 5, "_FBS", 4, 152 }, { 5, "_TYP", 4, 300 }, { 5, "_DBG", 4, 304 },
	{ 5, "_ENS", 4, 308 }, { 5, "_ENI", 4, 312 }, { 5, "_ENH", 4, 316 }, { 5, "_P00", 1, NDS_POWER1 },
	{ 5, "_P01", 1, NDS_POWER1 + 1 }, { 5, "_P02", 1, NDS_POWER1 + 2 }, { 5, "_P03", 1, NDS_POWER1 + 3 },
	{ 5, "_P04", 1, NDS_POWER1 + 4 }, { 5, "_P05", 1, NDS_POWER1 + 5 }, { 5, "_P06", 1, NDS_POWER1 + 6 },
	{ 5, "_P07", 1, NDS_POWER1 + 7 },
};

#define N_MMU (sizeof mmu_blocks / sizeof mmu_blocks[0])
#define N_NDS (sizeof nds_fields / sizeof nds_fields[0])
#define N_TEX (sizeof tex_fields / sizeof tex_fields[0])
#define PTRS_MAX 8u   /* words of the core's pointing at a list that are followed */
#define TEX_TRIES 3u  /* searches for the texture words, when the first fails */

struct vs_ds_direct {
	const uint8_t *mmu;  /* MMU */
	const uint8_t *nds;  /* nds */
	const uint8_t *lists; /* polylists */
	/* The globals that may be `polylist`, the list the savestate saves:
	 * every word of the core's data that pointed at one of the two lists
	 * when found, less those a savestate proved wrong (vs_ds_direct_learn) */
	const uint8_t *ptrs[PTRS_MAX];
	unsigned n_ptrs;
	const uint8_t *tex;   /* textureFormat's group (tex_fields), or NULL: not found yet */
	unsigned tex_tries;
	vs_ds_frame *scratch; /* a savestate's frame, to compare the lists with */
};

/* ---- this process's mappings ------------------------------------------------- */

typedef struct span {
	uintptr_t lo, hi;
} span;

typedef struct maps {
	span *readable; /* every readable mapping, adjacent ones merged */
	size_t n_readable;
	span *core;     /* the core's writable data: its rw mappings and the .bss after them */
	size_t n_core;
	/* which pages of the core's data are in memory, all spans one after
	 * another: its .bss is 550 MB, mostly never written, and a page never
	 * written holds nothing looked for (reading it would map it) */
	unsigned char *resident;
	size_t page;
} maps;

static int push(span **v, size_t *n, uintptr_t lo, uintptr_t hi)
{
	span *p;

	if (*n && (*v)[*n - 1].hi == lo) {
		(*v)[*n - 1].hi = hi;
		return 0;
	}
	if (!(p = realloc(*v, (*n + 1) * sizeof *p)))
		return -1;
	*v = p;
	p[(*n)++] = (span){ lo, hi };
	return 0;
}

static void free_maps(maps *m)
{
	free(m->readable);
	free(m->core);
	free(m->resident);
}

static int read_resident(maps *m, char *why, size_t whylen)
{
	size_t i, pages = 0, at = 0;

	m->page = (size_t)sysconf(_SC_PAGESIZE);
	for (i = 0; i < m->n_core; i++)
		pages += (m->core[i].hi - m->core[i].lo) / m->page;
	if (!(m->resident = malloc(pages ? pages : 1))) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	for (i = 0; i < m->n_core; i++) {
		if (mincore((void *)m->core[i].lo, m->core[i].hi - m->core[i].lo, m->resident + at) < 0) {
			snprintf(why, whylen, "mincore failed on the core's data");
			return -1;
		}
		at += (m->core[i].hi - m->core[i].lo) / m->page;
	}
	return 0;
}

static int read_maps(maps *m, char *why, size_t whylen)
{
	char core[PATH_MAX], line[PATH_MAX + 128];
	uintptr_t core_end = 0;
	FILE *fp;
	int rc = 0;

	memset(m, 0, sizeof *m);
	if (!realpath(vs_ds_core_path(), core) || !(fp = fopen("/proc/self/maps", "r"))) {
		snprintf(why, whylen, "cannot read /proc/self/maps or resolve the core's path");
		return -1;
	}
	while (rc == 0 && fgets(line, sizeof line, fp)) {
		unsigned long lo, hi;
		char perms[8] = "", path[PATH_MAX] = "";

		if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %4095[^\n]", &lo, &hi, perms, path) < 3)
			continue;
		if (perms[0] == 'r')
			rc = push(&m->readable, &m->n_readable, lo, hi);
		if (rc == 0 && perms[0] == 'r' && perms[1] == 'w') {
			int of_core = strcmp(path, core) == 0, bss = !path[0] && core_end && lo == core_end;

			if (of_core || bss)
				rc = push(&m->core, &m->n_core, lo, hi);
			core_end = of_core ? hi : 0;
		} else {
			core_end = 0;
		}
	}
	fclose(fp);
	if (rc < 0)
		snprintf(why, whylen, "out of memory");
	else if (!m->n_core)
		snprintf(why, whylen, "no writable mapping of %s in /proc/self/maps", core);
	if (rc < 0 || !m->n_core || read_resident(m, why, whylen) < 0) {
		free_maps(m);
		return -1;
	}
	return 0;
}

/* The residency byte of the page of `a` in span s. */
static int page_in(const maps *m, size_t s, uintptr_t a)
{
	size_t i, before = 0;

	for (i = 0; i < s; i++)
		before += (m->core[i].hi - m->core[i].lo) / m->page;
	return m->resident[before + (a - m->core[s].lo) / m->page] & 1u;
}

static int inside(const span *v, size_t n, uintptr_t at, size_t len)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (v[mid].hi <= at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && v[lo].lo <= at && len <= v[lo].hi - at;
}

/* ---- what the savestate says ------------------------------------------------- */

static int blocks_match(const block *b, size_t n, const uint8_t *at, const uint8_t *st, size_t len)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const uint8_t *want = vs_ds_state_tag(st, len, b[i].chunk, b[i].tag, b[i].bytes);

		if (!want || memcmp(at + b[i].off, want, b[i].bytes) != 0)
			return 0;
	}
	return 1;
}

/* 4-byte aligned words of the lists (the block is malloc's, 16-aligned). */
NOT_INSTRUMENTED static int32_t s32_at(const uint8_t *p)
{
	return *(const volatile int32_t *)(const void *)p;
}

NOT_INSTRUMENTED static uint32_t u32_at(const uint8_t *p)
{
	return *(const volatile uint32_t *)(const void *)p;
}

/* Whether the list at `list` is the savestate's: its count, and each
 * polygon's type, attributes, texture and palette (POLY: type, vtxFormat,
 * vertIndexes[4], polyAttr, texParam, texPalette, ...). */
NOT_INSTRUMENTED static int list_is(const uint8_t *list, const vs_ds_frame *f)
{
	uint32_t i;

	if (s32_at(list + LIST_COUNT) != (int32_t)f->polys_total)
		return 0;
	for (i = 0; i < f->polys_n; i++) {
		const uint8_t *p = list + (size_t)i * POLY_BYTES;
		const vs_ds_poly *q = &f->polys[i];

		if (u32_at(p) != (q->vertices == 4 ? 4u : 3u) || u32_at(p + 16) != q->poly_attr
			|| u32_at(p + 20) != q->tex_param || u32_at(p + 24) != q->tex_palette)
			return 0;
	}
	return 1;
}

static int lists_match(const uint8_t *lists, const vs_ds_frame *f)
{
	return list_is(lists, f) || list_is(lists + LIST_BYTES, f);
}

/* ---- the search ---------------------------------------------------------------- */

/* The 64-byte window of main RAM with the most different byte values: the
 * one least likely to be anywhere else. -1 when main RAM is too plain. */
static long pick_window(const uint8_t *ram)
{
	long best = -1;
	unsigned best_n = 15, off, i;

	for (off = 0; off + WINDOW <= 0x400000u; off += WINDOW) {
		uint8_t seen[256] = { 0 };
		unsigned n = 0;

		for (i = 0; i < WINDOW; i++)
			n += !seen[ram[off + i]]++;
		if (n > best_n) {
			best_n = n;
			best = off;
			if (n >= 48)
				break;
		}
	}
	return best;
}

/* Where `needle` (nlen >= 4 bytes) is in the core's data, 4-byte aligned,
 * such that `at - back` starts a struct of `size` bytes whose blocks all
 * match the savestate: the one such place, or NULL (none, or more than
 * one). A word at a time rather than memmem: much of the data is zeros,
 * on which memmem slows down to a crawl. */
static const uint8_t *find_struct(const maps *m, const uint8_t *needle, size_t nlen, size_t back, size_t size,
	const block *b, size_t nb, const uint8_t *st, size_t len)
{
	const uint8_t *found = NULL;
	uint32_t first;
	size_t s;

	memcpy(&first, needle, 4);
	for (s = 0; s < m->n_core; s++) {
		uintptr_t a = (m->core[s].lo + back + 3u) & ~(uintptr_t)3, hi = m->core[s].hi;

		for (; a + nlen <= hi && a + size - back <= hi; a += 4) {
			const uint8_t *at = (const uint8_t *)(a - back);

			if (a % m->page == 0 && !page_in(m, s, a)) {
				a += m->page - 4;
				continue;
			}
			if (*(const uint32_t *)a != first || memcmp((const void *)a, needle, nlen) != 0
				|| !blocks_match(b, nb, at, st, len))
				continue;
			if (found)
				return NULL;
			found = at;
		}
	}
	return found;
}

NOT_INSTRUMENTED static uint64_t word_at(uintptr_t a)
{
	return *(const volatile uint64_t *)a;
}

/* Whether the block at a is malloc's, of polylists' size. */
NOT_INSTRUMENTED static int is_lists_block(uintptr_t a)
{
#if defined(VS_ASAN)
	return __sanitizer_get_ownership((const void *)a) && __sanitizer_get_allocated_size((const void *)a) == LISTS_BYTES;
#else
	uint64_t chunk = word_at(a - 8) & ~(uint64_t)7;

	return chunk == CHUNK_HEAP || chunk == CHUNK_MAPPED;
#endif
}

/* polylists: a pointer in the core's globals to a block of exactly its
 * size (is_lists_block) whose counts are possible and one of whose lists
 * is the savestate's. The one such block, or 0. */
NOT_INSTRUMENTED static uintptr_t find_lists(const maps *m, const vs_ds_frame *f)
{
	uintptr_t found = 0;
	size_t s;

	for (s = 0; s < m->n_core; s++) {
		uintptr_t a;

		for (a = (m->core[s].lo + 7u) & ~(uintptr_t)7; a + 8 <= m->core[s].hi; a += 8) {
			uint64_t v;
			int32_t c0, c1;

			if (a % m->page == 0 && !page_in(m, s, a)) {
				a += m->page - 8;
				continue;
			}
			v = word_at(a);
			if (!v || (v & 15u) || v == found || !inside(m->readable, m->n_readable, (uintptr_t)v - 8, LISTS_BYTES + 8))
				continue;
			if (!is_lists_block((uintptr_t)v))
				continue;
			c0 = s32_at((const uint8_t *)(uintptr_t)v + LIST_COUNT);
			c1 = s32_at((const uint8_t *)(uintptr_t)v + LIST_BYTES + LIST_COUNT);
			if (c0 < 0 || c1 < 0 || c0 > (int32_t)POLYS_MAX || c1 > (int32_t)POLYS_MAX
				|| !lists_match((const uint8_t *)(uintptr_t)v, f))
				continue;
			if (found)
				return 0;
			found = (uintptr_t)v;
		}
	}
	return found;
}

/* The words of the core's data that point at one of the lists (polylists,
 * polylist, gfx3d.polylist): how many, up to PTRS_MAX + 1. */
NOT_INSTRUMENTED static unsigned find_ptrs(const maps *m, vs_ds_direct *d)
{
	uintptr_t l0 = (uintptr_t)d->lists, l1 = l0 + LIST_BYTES;
	unsigned n = 0;
	size_t s;

	for (s = 0; s < m->n_core && n <= PTRS_MAX; s++) {
		uintptr_t a;

		for (a = (m->core[s].lo + 7u) & ~(uintptr_t)7; a + 8 <= m->core[s].hi && n <= PTRS_MAX; a += 8) {
			uint64_t v;

			if (a % m->page == 0 && !page_in(m, s, a)) {
				a += m->page - 8;
				continue;
			}
			v = word_at(a);
			if (v != l0 && v != l1)
				continue;
			if (n < PTRS_MAX)
				d->ptrs[n] = (const uint8_t *)a;
			n++;
		}
	}
	return n;
}

/* The texture words: the 16 bytes of tex_fields, found by their first
 * word that is not 0 (all 0: not looked for, too common). */
static const uint8_t *find_tex(const maps *m, const uint8_t *state, size_t len)
{
	uint8_t needle[16];
	size_t i, k;

	for (i = 0; i < N_TEX; i++) {
		const uint8_t *v = vs_ds_state_tag(state, len, tex_fields[i].chunk, tex_fields[i].tag, 4);

		if (!v)
			return NULL;
		memcpy(needle + tex_fields[i].off, v, 4);
	}
	for (k = 0; k < 16 && !needle[k] && !needle[k + 1] && !needle[k + 2] && !needle[k + 3]; k += 4)
		;
	if (k == 16)
		return NULL;
	return find_struct(m, needle + k, 16 - k, k, 16, tex_fields, N_TEX, state, len);
}

vs_ds_direct *vs_ds_direct_find(const uint8_t *state, size_t len, int miss, char *why, size_t whylen)
{
	vs_ds_direct *d = calloc(1, sizeof *d);
	const uint8_t *ram = vs_ds_state_tag(state, len, 4, "WRAM", 0x400000);
	const uint8_t *vcount, *old;
	uint8_t needle[WINDOW + 8];
	vs_ds_state st;
	long off;
	maps m;
	size_t i;

	if (!d || !(d->scratch = malloc(sizeof *d->scratch))) {
		snprintf(why, whylen, "out of memory");
		vs_ds_direct_free(d);
		return NULL;
	}
	vcount = vs_ds_state_tag(state, len, 5, "_VCT", 4);
	old = vs_ds_state_tag(state, len, 5, "_OLD", 4);
	if (!ram || !vcount || !old || vs_ds_state_parse(state, len, d->scratch, &st, why, whylen) < 0) {
		snprintf(why, whylen, "the savestate lacks a block looked for");
		vs_ds_direct_free(d);
		return NULL;
	}
	if ((off = pick_window(ram)) < 0) {
		snprintf(why, whylen, "main RAM holds nothing distinctive to look for yet");
		vs_ds_direct_free(d);
		return NULL;
	}
	if (read_maps(&m, why, whylen) < 0) {
		vs_ds_direct_free(d);
		return NULL;
	}
	memcpy(needle, ram + off, WINDOW);
	if (miss)
		for (i = 0; i < WINDOW; i++)
			needle[i] ^= 0xA5u;
	d->mmu = find_struct(&m, needle, WINDOW, MMU_MAIN + (size_t)off, MMU_END, mmu_blocks, N_MMU, state, len);
	/* nds: VCount (262, rare in memory) and `old` side by side */
	memcpy(needle, vcount, 4);
	memcpy(needle + 4, old, 4);
	d->nds = d->mmu ? find_struct(&m, needle, 8, NDS_VCOUNT, NDS_END, nds_fields, N_NDS, state, len) : NULL;
	d->lists = d->nds ? (const uint8_t *)find_lists(&m, d->scratch) : NULL;
	if (d->lists && (d->n_ptrs = find_ptrs(&m, d)) > PTRS_MAX)
		d->n_ptrs = 0; /* too many to tell: the savestate for frames that draw */
	if (d->lists) {
		d->tex = find_tex(&m, state, len);
		d->tex_tries = 1;
	}
	free_maps(&m);
	if (!d->lists) {
		snprintf(why, whylen, "%s not found in the core's memory (another build of the core?)",
			!d->mmu ? "DeSmuME's MMU struct" : !d->nds ? "DeSmuME's nds struct" : "DeSmuME's polygon lists");
		vs_ds_direct_free(d);
		return NULL;
	}
	return d;
}

void vs_ds_direct_free(vs_ds_direct *d)
{
	if (d)
		free(d->scratch);
	free(d);
}

NOT_INSTRUMENTED static const uint8_t *ptr_at(const uint8_t *word)
{
	return (const uint8_t *)(uintptr_t)word_at((uintptr_t)word);
}

/* Whether the two lists give the same frame: count, and type, attributes,
 * texture and palette of each polygon a frame holds. */
NOT_INSTRUMENTED static int lists_same(const uint8_t *a, const uint8_t *b)
{
	int32_t n = s32_at(a + LIST_COUNT);
	uint32_t i;

	if (n != s32_at(b + LIST_COUNT) || n < 0 || n > (int32_t)POLYS_MAX)
		return 0;
	for (i = 0; i < (uint32_t)n && i < VS_DS_POLYS_MAX; i++) {
		const uint8_t *p = a + (size_t)i * POLY_BYTES, *q = b + (size_t)i * POLY_BYTES;

		if (u32_at(p) != u32_at(q) || u32_at(p + 16) != u32_at(q + 16) || u32_at(p + 20) != u32_at(q + 20)
			|| u32_at(p + 24) != u32_at(q + 24))
			return 0;
	}
	return 1;
}

/* The list the savestate would save (`polylist`): the one every word
 * still followed points at, or either when both give the same frame;
 * NULL when that cannot be told. */
static const uint8_t *current_list(const vs_ds_direct *d)
{
	const uint8_t *l1 = d->lists + LIST_BYTES;
	unsigned i, at0 = 0, at1 = 0;

	for (i = 0; i < d->n_ptrs; i++) {
		const uint8_t *p = ptr_at(d->ptrs[i]);

		at0 += p == d->lists;
		at1 += p == l1;
	}
	if (at0 + at1 != d->n_ptrs || !d->n_ptrs)
		return NULL;
	if (!at1 || !at0)
		return at1 ? l1 : d->lists;
	return lists_same(d->lists, l1) ? d->lists : NULL;
}

int vs_ds_direct_check(const vs_ds_direct *d, const uint8_t *state, size_t len, char *why, size_t whylen)
{
	vs_ds_state st;

	if (vs_ds_state_parse(state, len, d->scratch, &st, why, whylen) < 0)
		return -1;
	if (!blocks_match(mmu_blocks, N_MMU, d->mmu, state, len) || !blocks_match(nds_fields, N_NDS, d->nds, state, len)
		|| (d->tex && !blocks_match(tex_fields, N_TEX, d->tex, state, len)) || !lists_match(d->lists, d->scratch)
		|| (current_list(d) && !list_is(current_list(d), d->scratch))) {
		snprintf(why, whylen, "the emulator's memory no longer matches its savestate");
		return -1;
	}
	return 0;
}

/* The polygons of the list at `list` into f, as chunk 91 of the savestate
 * gives them; -1 when its count is not a possible one. */
NOT_INSTRUMENTED static int read_list(const uint8_t *list, vs_ds_frame *f)
{
	int32_t n = s32_at(list + LIST_COUNT);
	uint32_t i;

	if (n < 0 || n > (int32_t)POLYS_MAX)
		return -1;
	f->polys_total = (uint32_t)n;
	for (i = 0; i < (uint32_t)n && i < VS_DS_POLYS_MAX; i++) {
		const uint8_t *p = list + (size_t)i * POLY_BYTES;
		vs_ds_poly *q = &f->polys[i];

		q->vertices = (uint8_t)(u32_at(p) == 4 ? 4 : 3);
		q->poly_attr = u32_at(p + 16);
		q->tex_param = u32_at(p + 20);
		q->tex_palette = u32_at(p + 24);
	}
	f->polys_n = i;
	return 0;
}

int vs_ds_direct_read(const vs_ds_direct *d, vs_ds_frame *f)
{
	const uint8_t *list = current_list(d);
	int empty = s32_at(d->lists + LIST_COUNT) == 0 && s32_at(d->lists + LIST_BYTES + LIST_COUNT) == 0;
	vs_ds_video_src s;
	int i;

	if (empty)
		list = d->lists;
	/* a list that cannot be told, or texture words not found on a frame
	 * that draws: the savestate */
	if (!list || (!d->tex && !empty))
		return 0;
	s.io9 = d->mmu + MMU_IO9;
	s.io7 = d->mmu + MMU_IO7;
	for (i = 0; i < 6; i++)
		s.power[i] = d->nds + NDS_POWER1 + i;
	s.vcount = d->nds + NDS_VCOUNT;
	s.oam = d->mmu + MMU_OAM;
	s.palette = d->mmu + MMU_PALETTE;
	s.lcdc = d->mmu + MMU_LCDC;
	if (read_list(list, f) < 0)
		return 0;
	vs_ds_state_fill_video(&s, f);
	f->disp3dcnt = (uint16_t)vs_ds_le32(d->mmu + MMU_DISP3DCNT);
	if (d->tex) {
		f->teximage_param = vs_ds_le32(d->tex + TEX_PARAM);
		f->pltt_base = vs_ds_le32(d->tex + TEX_PLTT);
	}
	return 1;
}

void vs_ds_direct_learn(vs_ds_direct *d, const uint8_t *state, size_t len, const vs_ds_frame *f)
{
	unsigned i, kept = 0;
	maps m;
	char why[256];

	/* the words that point at the list that is not the savestate's go */
	if (!current_list(d) && list_is(d->lists, f) != list_is(d->lists + LIST_BYTES, f)) {
		const uint8_t *right = list_is(d->lists, f) ? d->lists : d->lists + LIST_BYTES;

		for (i = 0; i < d->n_ptrs; i++)
			if (ptr_at(d->ptrs[i]) == right)
				d->ptrs[kept++] = d->ptrs[i];
		d->n_ptrs = kept;
	}
	if (!d->tex && d->tex_tries < TEX_TRIES && f->polys_total && read_maps(&m, why, sizeof why) == 0) {
		d->tex = find_tex(&m, state, len);
		d->tex_tries++;
		free_maps(&m);
	}
}

const uint8_t *vs_ds_direct_main_ram(const vs_ds_direct *d)
{
	return d->mmu + MMU_MAIN;
}
