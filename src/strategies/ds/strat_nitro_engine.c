/* SPDX-License-Identifier: Zlib */
/* strat_nitro_engine.c - strategy adapters for Nitro Engine's texture and
 * palette VRAM allocators (nitro_engine_vram.h; docs/ds-homebrew.md).
 *
 * nitro-engine-tex options: banks= (letters of A-D, NE_TextureSystemReset's
 * bank flags; default: those of A-D the arena maps at their own slots, which
 * is abcd, NE_Init3D's, for the default arena), mode=init|single|dual (the
 * execution mode during that reset; init: inside NE_Init3D, which is what
 * drops C and D), textures= (max_textures, 0 = default 128), fixed=yes|no.
 * nitro-engine-pltt options: palettes= (max_palettes, 0 = default 64). */
#include <stdio.h>
#include <string.h>

#include "vramsim/alloc/nitro_engine_vram.h"
#include "strat_ds.h"
#include "strategies/strategies.h"
#include "base/options.h"

/* sizeof(NEChunk), of ne_textureinfo_t + a material pointer, of
 * ne_palinfo_t + a palette pointer, on the ARM9 */
#define NE_CHUNK_RAM 20u
#define NE_TEXSLOT_RAM 24u
#define NE_PALSLOT_RAM 16u

typedef struct ne_tex_state {
	ne_vram_tex t;
	int max;
	unsigned banks, fix;
	int mode;
} ne_tex_state;

typedef struct ne_pltt_state {
	ne_vram_pltt p;
	int max;
} ne_pltt_state;

static int read_yes_no(const char *options, const char *key, int *out, char *err, size_t errlen)
{
	char val[16];

	if (!vs_option_get(options, key, val, sizeof val))
		return 0;
	if (strcmp(val, "yes") != 0 && strcmp(val, "no") != 0) {
		snprintf(err, errlen, "%s=%s: yes or no", key, val);
		return -1;
	}
	*out = strcmp(val, "yes") == 0;
	return 0;
}

static int read_banks(const char *options, unsigned *banks, char *err, size_t errlen)
{
	char val[16];
	const char *c;

	if (!vs_option_get(options, "banks", val, sizeof val))
		return 0;
	*banks = 0;
	for (c = val; *c; c++) {
		unsigned b = (unsigned)((*c | 0x20) - 'a');
		if (b > 3) {
			snprintf(err, errlen, "banks=%s: letters of A, B, C, D (NE_VRAM_A..NE_VRAM_D)", val);
			return -1;
		}
		*banks |= 1u << b;
	}
	return 0;
}

static int read_mode(const char *options, int *mode, char *err, size_t errlen)
{
	static const char *const names[] = { "init", "single", "dual" };
	char val[16];
	int i;

	if (!vs_option_get(options, "mode", val, sizeof val))
		return 0;
	for (i = 0; i < 3; i++)
		if (strcmp(val, names[i]) == 0) {
			*mode = i;
			return 0;
		}
	snprintf(err, errlen, "mode=%s: init (NE_Init3D's own reset), single or dual", val);
	return -1;
}

/* The banks of A-D the arena maps at their own slot (A at 0 ... D at 3).
 * Nitro Engine maps the banks it is given itself and places by LCDC
 * address, bank X as slot X: a game whose texture slots are not those
 * (the demo's bank A alone, bank B busy as OBJ VRAM) passes the banks it
 * has, or its textures land in slots the hardware does not map. */
static unsigned arena_banks(const vs_arena_decl *a)
{
	unsigned b, banks = 0;

	for (b = 0; b < 4; b++)
		if (a->ds_bank_slot[b] == b)
			banks |= 1u << b;
	return banks;
}

static int tex_init(void *st, const vs_arena_decl *a, const char *options, uint8_t *mem, char *err, size_t errlen)
{
	static const char *const known[] = { "banks", "mode", "textures", "fixed", NULL };
	ne_tex_state *s = st;
	uint32_t max = 0;
	int fixed = 0;

	(void)mem;
	s->banks = arena_banks(a);
	s->mode = NE_VRAM_MODE_INIT;
	if (vs_option_check(options, known, err, errlen) || read_banks(options, &s->banks, err, errlen) ||
		read_mode(options, &s->mode, err, errlen) || read_yes_no(options, "fixed", &fixed, err, errlen) ||
		vs_option_u32(options, "textures", 0, NE_VRAM_MAX_TEXTURES, &max, err, errlen) < 0)
		return -1;
	s->max = (int)max;
	s->fix = fixed ? NE_VRAM_FIX_ALL : 0;
	if (ne_vram_tex_reset(&s->t, s->max, s->banks, s->mode, s->fix, NE_ALLOC_CHUNKS) != 0) {
		snprintf(err, errlen, "NE_TextureSystemReset failed");
		return -1;
	}
	return 0;
}

static int fail_status(uint8_t fail)
{
	switch (fail) {
	case NE_VRAM_ERR_ARGS: return VS_ERR_INVALID;
	case NE_VRAM_ERR_SLOTS: /* the engine's texture/palette table is full */
	case NE_VRAM_ERR_CHUNKS: return VS_ERR_MANAGEMENT;
	default: return VS_ERR_NOSPACE;
	}
}

static uint32_t round16(uint32_t n)
{
	return (n + 15u) & ~15u;
}

static int tex_alloc(void *st, const vs_request *rq, vs_placement *out)
{
	ne_tex_state *s = st;
	uint32_t bytes;
	bool is4x4;
	uint16_t slot;
	int rc = vs_ds_tex_request(rq, &bytes, &is4x4);

	if (rc != VS_OK)
		return rc;
	/* NE sizes a texture from its dimensions (any height); a 4x4 block by
	 * its size (`tex N 4x4`) goes to the search NE_MaterialTex4x4Load runs
	 * once it has the size (ne_alloc_compressed_tex), which only ever sees
	 * a texture's, a multiple of 16 */
	if (rq->shape == VS_REQ_TEX && rq->u.tex.width)
		slot = ne_vram_tex_load(&s->t, rq->u.tex.format, rq->u.tex.width, rq->u.tex.height);
	else if (is4x4 && bytes % 16u)
		return VS_ERR_UNSUPPORTED;
	else
		slot = ne_vram_tex_load_bytes(&s->t, bytes, is4x4);
	if (slot == NE_VRAM_NO_SLOT)
		return fail_status(s->t.fail);
	/* the texel chunk is the allocation: 4x4 sizes are multiples of 16,
	 * so its index data (granted / 2) is what the hardware reads */
	bytes = s->t.tex[slot].size;
	vs_placement_simple(out, ne_vram_tex_offset(&s->t, slot), is4x4 ? bytes : round16(bytes), slot);
	return VS_OK;
}

static int tex_free(void *st, const vs_placement *pl)
{
	ne_tex_state *s = st;

	return pl->key > 0xFFFFu || ne_vram_tex_delete(&s->t, (uint16_t)pl->key) ? VS_ERR_INVALID : VS_OK;
}

static void tex_reset(void *st)
{
	ne_tex_state *s = st;

	(void)ne_vram_tex_reset(&s->t, s->max, s->banks, s->mode, s->fix, NE_ALLOC_CHUNKS);
}

static void walk_state(const ne_alloc *l, uint32_t base, uint8_t state, vs_extent_fn fn, void *ud)
{
	uint16_t c;

	for (c = l->first; c != NE_ALLOC_NONE; c = l->chunk[c].next)
		if (l->chunk[c].state == state && fn(ud, l->chunk[c].start - base, l->chunk[c].end - l->chunk[c].start))
			return;
}

static void tex_walk(void *st, vs_extent_fn fn, void *ud)
{
	walk_state(&((ne_tex_state *)st)->t.list, NE_VRAM_A, NE_ALLOC_FREE, fn, ud);
}

/* Kept by the manager outside every allocation: the banks it locked, and
 * the rounding of a 4x4 index chunk past the index bytes (8 of 16 for an
 * 8x8 texture). Normal chunks are granted whole. */
static void tex_held(void *st, vs_extent_fn fn, void *ud)
{
	const ne_vram_tex *t = &((ne_tex_state *)st)->t;
	uint16_t i;

	walk_state(&t->list, NE_VRAM_A, NE_ALLOC_LOCKED, fn, ud);
	for (i = 0; i < t->max; i++) {
		const ne_vram_texinfo *x = &t->tex[i];
		uint32_t size1 = x->size >> 1;
		if (x->address && x->is4x4 && round16(size1) != size1 &&
			fn(ud, ne_vram_tex_index_offset(x->address - NE_VRAM_A) + size1, round16(size1) - size1))
			return;
	}
}

static void dump_list(const ne_alloc *l, uint32_t base, vs_print_fn print, void *ud)
{
	static const char *const names[3] = { "free", "used", "locked" };
	char line[80];
	uint16_t c;
	ne_alloc_info info;

	print(ud, "  start    end      state\n");
	for (c = l->first; c != NE_ALLOC_NONE; c = l->chunk[c].next) {
		snprintf(line, sizeof line, "  0x%05x  0x%05x  %s\n", (unsigned)(l->chunk[c].start - base),
			(unsigned)(l->chunk[c].end - base), names[l->chunk[c].state]);
		print(ud, line);
	}
	ne_alloc_mem_info(l, &info);
	snprintf(line, sizeof line, "free 0x%05x used 0x%05x locked 0x%05x (%u%% free), %u chunks\n",
		(unsigned)info.free, (unsigned)info.used, (unsigned)info.locked, (unsigned)info.free_percent,
		(unsigned)l->live);
	print(ud, line);
}

static void tex_dump(void *st, vs_print_fn print, void *ud)
{
	const ne_tex_state *s = st;
	char line[96];

	snprintf(line, sizeof line, "nitro-engine-tex: chunk list over VRAM_A..VRAM_E, banks %s%s%s%s%s\n",
		s->t.banks & 1 ? "A" : "", s->t.banks & 2 ? "B" : "", s->t.banks & 4 ? "C" : "",
		s->t.banks & 8 ? "D" : "", s->t.banks ? "" : "none");
	print(ud, line);
	dump_list(&s->t.list, NE_VRAM_A, print, ud);
}

static uint64_t tex_ram(void *st)
{
	const ne_tex_state *s = st;

	return (uint64_t)s->t.list.live * NE_CHUNK_RAM + (uint64_t)s->t.max * NE_TEXSLOT_RAM;
}

const vs_strategy vs_strat_nitro_engine_tex = {
	.abi = VS_STRATEGY_ABI,
	.name = "nitro-engine-tex",
	.summary = "Nitro Engine textures: chunk list over banks A-D, normal from the end, 4x4 by paired searches",
	.arenas = VS_ARENA_BIT(VS_ARENA_DS_TEX),
	.flags = VS_STRAT_RELOCATABLE | VS_STRAT_NO_MEM,
	.state_size = sizeof(ne_tex_state),
	.init = tex_init,
	.alloc = tex_alloc,
	.free = tex_free,
	.reset = tex_reset,
	.walk_free = tex_walk,
	.dump = tex_dump,
	.held = tex_held,
	.ram = tex_ram
};

static int pltt_init(void *st, const vs_arena_decl *a, const char *options, uint8_t *mem, char *err, size_t errlen)
{
	static const char *const known[] = { "palettes", NULL };
	ne_pltt_state *s = st;
	uint32_t max = 0;

	(void)a;
	(void)mem;
	if (vs_option_check(options, known, err, errlen) ||
		vs_option_u32(options, "palettes", 0, NE_VRAM_MAX_PALETTES, &max, err, errlen) < 0)
		return -1;
	s->max = (int)max;
	if (ne_vram_pltt_reset(&s->p, s->max, NE_ALLOC_CHUNKS) != 0) {
		snprintf(err, errlen, "NE_PaletteSystemReset failed");
		return -1;
	}
	return 0;
}

static int pltt_alloc(void *st, const vs_request *rq, vs_placement *out)
{
	ne_pltt_state *s = st;
	uint32_t bytes;
	bool four;
	uint16_t slot, numcolor;
	int rc = vs_ds_pltt_request(rq, &bytes, &four);

	if (rc != VS_OK)
		return rc;
	/* NE_PaletteLoadSize: a u16 count of colours, size >> 1 */
	numcolor = (uint16_t)(bytes >> 1);
	slot = ne_vram_pltt_load(&s->p, numcolor);
	if (slot == NE_VRAM_NO_SLOT)
		return fail_status(s->p.fail);
	vs_placement_simple(out, ne_vram_pltt_offset(&s->p, slot), round16((uint32_t)numcolor << 1), slot);
	return VS_OK;
}

static int pltt_free(void *st, const vs_placement *pl)
{
	ne_pltt_state *s = st;

	return pl->key > 0xFFFFu || ne_vram_pltt_delete(&s->p, (uint16_t)pl->key) ? VS_ERR_INVALID : VS_OK;
}

static void pltt_reset(void *st)
{
	ne_pltt_state *s = st;

	(void)ne_vram_pltt_reset(&s->p, s->max, NE_ALLOC_CHUNKS);
}

static void pltt_walk(void *st, vs_extent_fn fn, void *ud)
{
	walk_state(&((ne_pltt_state *)st)->p.list, NE_VRAM_E, NE_ALLOC_FREE, fn, ud);
}

static void pltt_dump(void *st, vs_print_fn print, void *ud)
{
	print(ud, "nitro-engine-pltt: chunk list over VRAM_E\n");
	dump_list(&((ne_pltt_state *)st)->p.list, NE_VRAM_E, print, ud);
}

static uint64_t pltt_ram(void *st)
{
	const ne_pltt_state *s = st;

	return (uint64_t)s->p.list.live * NE_CHUNK_RAM + (uint64_t)s->p.max * NE_PALSLOT_RAM;
}

const vs_strategy vs_strat_nitro_engine_pltt = {
	.abi = VS_STRATEGY_ABI,
	.name = "nitro-engine-pltt",
	.summary = "Nitro Engine palettes: chunk list over bank E (64 KiB), first fit from the start, 16-byte chunks",
	.arenas = VS_ARENA_BIT(VS_ARENA_DS_PLTT),
	.flags = VS_STRAT_RELOCATABLE | VS_STRAT_NO_MEM,
	.state_size = sizeof(ne_pltt_state),
	.init = pltt_init,
	.alloc = pltt_alloc,
	.free = pltt_free,
	.reset = pltt_reset,
	.walk_free = pltt_walk,
	.dump = pltt_dump,
	.ram = pltt_ram
};
