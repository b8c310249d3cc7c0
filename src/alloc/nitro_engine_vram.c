/* SPDX-License-Identifier: Zlib */
/* nitro_engine_vram.c - Nitro Engine's texture and palette VRAM use
 * (NETexture.c, NEPalette.c at 4c38c68), written anew from reading them.
 * Line numbers in comments are those files'. */
#include "vramsim/alloc/nitro_engine_vram.h"

#define BANK 0x20000u
#define HALF 0x10000u

/* ne_is_valid_tex_size (:35): the power of two from 8 to 1024 at or above
 * size, 0 above 1024. */
static int valid_tex_size(int size)
{
	int i;

	for (i = 0; i < 8; i++)
		if (size <= (8 << i))
			return 8 << i;
	return 0;
}

/* The hardware's tie between 4x4 texel data and its index data (:57-82). */
static uint32_t slot0_to_slot1(uint32_t p) { return NE_VRAM_B + (p - NE_VRAM_A) / 2u; }
static uint32_t slot1_to_slot0(uint32_t p) { return NE_VRAM_A + (p - NE_VRAM_B) * 2u; }
static uint32_t slot2_to_slot1(uint32_t p) { return NE_VRAM_B + HALF + (p - NE_VRAM_C) / 2u; }
static uint32_t slot1_to_slot2(uint32_t p) { return NE_VRAM_C + (p - NE_VRAM_B - HALF) * 2u; }

static uint32_t round16(uint32_t n)
{
	return (n + NE_ALLOC_MIN_SIZE - 1u) & ~(NE_ALLOC_MIN_SIZE - 1u);
}

int ne_vram_tex_reset(ne_vram_tex *t, int max_textures, unsigned bank_flags, int mode, unsigned fix, uint16_t cap)
{
	static const uint32_t bank_addr[4] = { NE_VRAM_A, NE_VRAM_B, NE_VRAM_C, NE_VRAM_D };
	bool drop_cd;
	unsigned i;

	t->max = max_textures < 1 ? (uint16_t)NE_VRAM_DEFAULT_TEXTURES : (uint16_t)max_textures;
	if (max_textures > (int)NE_VRAM_MAX_TEXTURES)
		return -1;
	t->fix = (uint8_t)fix;
	t->fail = NE_VRAM_OK;
	for (i = 0; i < NE_VRAM_MAX_TEXTURES; i++)
		t->tex[i].address = 0;
	if (ne_alloc_init(&t->list, cap, NE_VRAM_A, NE_VRAM_E) != 0)
		return -1;
	/* :753 no bank at all means all four (a debug build asserts first) */
	if ((bank_flags & 0xFu) == 0)
		bank_flags = 0xFu;
	/* :757 tests "not single 3D", which is also true inside NE_Init3D,
	 * which sets the mode only after this reset. Done after the line
	 * above, so C+D in dual-3D mode leaves no bank at all. */
	drop_cd = (fix & NE_VRAM_FIX_MODE) ? mode == NE_VRAM_MODE_DUAL : mode != NE_VRAM_MODE_SINGLE;
	if (drop_cd)
		bank_flags &= ~(unsigned)(NE_VRAM_BANK_C | NE_VRAM_BANK_D);
	t->banks = (uint8_t)(bank_flags & 0xFu);
	/* :764-802 each bank not given is allocated whole and locked */
	for (i = 0; i < 4; i++) {
		if (bank_flags & (1u << i))
			continue;
		if (ne_alloc_address(&t->list, bank_addr[i], BANK) != 0 ||
			ne_alloc_lock(&t->list, bank_addr[i]) != 0)
			return -1;
	}
	return 0;
}

uint32_t ne_vram_tex_bytes(unsigned format, int width, int height)
{
	/* :619 bytes per texel as a shift of 2 bytes, by NE_TextureFormat */
	static const uint8_t size_shift[9] = { 0, 1, 3, 2, 1, 0, 1, 0, 0 };

	if (format == NE_VRAM_TEX4X4) {
		/* :489 both sides powers of two; :517 2 bits a texel */
		if (valid_tex_size(width) != width || valid_tex_size(height) != height)
			return 0;
		return ((uint32_t)width * (uint32_t)height) >> 2;
	}
	/* :590 only the width must be a power of two; the height is what it
	 * is (the hardware is told the next power of two). */
	if (format == 0 || format > 8 || valid_tex_size(width) != width || height < 1)
		return 0;
	return ((uint32_t)width * (uint32_t)height << 1) >> size_shift[format];
}

/* ne_alloc_compressed_tex (:380), first part: texel data in slot 0, index
 * data in the first half of slot 1, each search starting where the other
 * one's last answer maps to. */
static int find_slot0(const ne_vram_tex *t, uint32_t size02, uint32_t size1, uint32_t *s02, uint32_t *s1)
{
	uint32_t addr0 = ne_alloc_find_in_range(&t->list, NE_VRAM_A, NE_VRAM_B, size02), addr1;

	if (addr0 == 0)
		return -1;
	for (;;) {
		addr1 = ne_alloc_find_in_range(&t->list, slot0_to_slot1(addr0), NE_VRAM_B + HALF, size1);
		if (addr1 == 0)
			return -1;
		if (addr1 == slot0_to_slot1(addr0))
			break;
		addr0 = ne_alloc_find_in_range(&t->list, slot1_to_slot0(addr1), NE_VRAM_B, size02);
		if (addr0 == 0)
			return -1;
		if (addr1 == slot0_to_slot1(addr0))
			break;
	}
	*s02 = addr0;
	*s1 = addr1;
	return 0;
}

/* Second part: slot 2 and the second half of slot 1. The retry's search
 * ends at VRAM_B (:466), below every slot-2 address, so it always fails:
 * only a first slot-2 place whose index bytes are free at once is taken. */
static int find_slot2(const ne_vram_tex *t, uint32_t size02, uint32_t size1, uint32_t *s02, uint32_t *s1)
{
	uint32_t addr2 = ne_alloc_find_in_range(&t->list, NE_VRAM_C, NE_VRAM_D, size02), addr1;
	uint32_t retry_end = (t->fix & NE_VRAM_FIX_SLOT2) ? NE_VRAM_D : NE_VRAM_B;

	if (addr2 == 0)
		return -1;
	for (;;) {
		addr1 = ne_alloc_find_in_range(&t->list, slot2_to_slot1(addr2), NE_VRAM_C, size1);
		if (addr1 == 0)
			return -1;
		if (addr1 == slot2_to_slot1(addr2))
			break;
		addr2 = ne_alloc_find_in_range(&t->list, slot1_to_slot2(addr1), retry_end, size02);
		if (addr2 == 0)
			return -1;
		if (addr1 == slot2_to_slot1(addr2))
			break;
	}
	*s02 = addr2;
	*s1 = addr1;
	return 0;
}

static uint8_t space_fail(const ne_vram_tex *t)
{
	return t->list.out_of_chunks ? NE_VRAM_ERR_CHUNKS : NE_VRAM_ERR_SPACE;
}

/* NE_MaterialTex4x4Load (:520-541): find both places, then allocate them;
 * a slot-1 allocation that fails gives the texel chunk back. */
static uint32_t alloc_4x4(ne_vram_tex *t, uint32_t size02)
{
	uint32_t size1 = size02 >> 1, s02, s1;
	/* The searches look for size1 bytes but NE_AllocAddress takes size1
	 * rounded up to 16: an 8x8 texture (8 index bytes) can be found a
	 * place of 8 that it then cannot have. */
	uint32_t look1 = (t->fix & NE_VRAM_FIX_INDEX) ? round16(size1) : size1;

	t->list.out_of_chunks = false;
	if (find_slot0(t, size02, look1, &s02, &s1) != 0 && find_slot2(t, size02, look1, &s02, &s1) != 0) {
		t->fail = NE_VRAM_ERR_SPACE;
		return 0;
	}
	if (ne_alloc_address(&t->list, s02, size02) != 0) {
		t->fail = space_fail(t);
		return 0;
	}
	if (ne_alloc_address(&t->list, s1, size1) != 0) {
		uint8_t why = space_fail(t);
		(void)ne_alloc_free(&t->list, s02);
		t->fail = why;
		return 0;
	}
	return s02;
}

uint16_t ne_vram_tex_load_bytes(ne_vram_tex *t, uint32_t size, bool is4x4)
{
	uint16_t slot;
	uint32_t addr;

	/* :600 the first slot with no address */
	for (slot = 0; slot < t->max && t->tex[slot].address != 0; slot++)
		;
	if (slot == t->max) {
		t->fail = NE_VRAM_ERR_SLOTS;
		return NE_VRAM_NO_SLOT;
	}
	if (size == 0) {
		t->fail = NE_VRAM_ERR_ARGS;
		return NE_VRAM_NO_SLOT;
	}
	if (is4x4) {
		addr = alloc_4x4(t, size);
	} else {
		/* :634 from the end of the list */
		addr = ne_alloc_from_end(&t->list, size);
		if (addr == 0)
			t->fail = space_fail(t);
	}
	if (addr == 0)
		return NE_VRAM_NO_SLOT;
	t->tex[slot].address = addr;
	t->tex[slot].size = size;
	t->tex[slot].is4x4 = is4x4;
	t->fail = NE_VRAM_OK;
	return slot;
}

uint16_t ne_vram_tex_load(ne_vram_tex *t, unsigned format, int width, int height)
{
	uint32_t size = ne_vram_tex_bytes(format, width, height);

	/* the size checks come before the slot search (:489, :590) */
	if (size == 0) {
		t->fail = NE_VRAM_ERR_ARGS;
		return NE_VRAM_NO_SLOT;
	}
	return ne_vram_tex_load_bytes(t, size, format == NE_VRAM_TEX4X4);
}

int ne_vram_tex_delete(ne_vram_tex *t, uint16_t slot)
{
	ne_vram_texinfo *x;

	if (slot >= t->max || t->tex[slot].address == 0)
		return -1;
	x = &t->tex[slot];
	/* :109 the index chunk is found again from the texel address */
	if (x->is4x4) {
		uint32_t s1 = x->address < NE_VRAM_B ? slot0_to_slot1(x->address) : slot2_to_slot1(x->address);
		(void)ne_alloc_free(&t->list, x->address);
		(void)ne_alloc_free(&t->list, s1);
	} else {
		(void)ne_alloc_free(&t->list, x->address);
	}
	x->address = 0;
	return 0;
}

uint32_t ne_vram_tex_offset(const ne_vram_tex *t, uint16_t slot)
{
	return t->tex[slot].address - NE_VRAM_A;
}

uint32_t ne_vram_tex_index_offset(uint32_t off)
{
	uint32_t p = NE_VRAM_A + off;

	return (p < NE_VRAM_B ? slot0_to_slot1(p) : slot2_to_slot1(p)) - NE_VRAM_A;
}

int ne_vram_pltt_reset(ne_vram_pltt *p, int max_palettes, uint16_t cap)
{
	unsigned i;

	p->max = max_palettes < 1 ? (uint16_t)NE_VRAM_DEFAULT_PALETTES : (uint16_t)max_palettes;
	if (max_palettes > (int)NE_VRAM_MAX_PALETTES)
		return -1;
	p->fail = NE_VRAM_OK;
	for (i = 0; i < NE_VRAM_MAX_PALETTES; i++)
		p->pointer[i] = 0;
	return ne_alloc_init(&p->list, cap, NE_VRAM_E, NE_VRAM_F) != 0 ? -1 : 0;
}

uint16_t ne_vram_pltt_load(ne_vram_pltt *p, uint16_t numcolor)
{
	uint16_t slot;
	uint32_t addr;

	/* NEPalette.c:96 the first free slot, before the allocation */
	for (slot = 0; slot < p->max && p->pointer[slot] != 0; slot++)
		;
	if (slot == p->max) {
		p->fail = NE_VRAM_ERR_SLOTS;
		return NE_VRAM_NO_SLOT;
	}
	/* :111 first fit from the start; 0 colours is refused by NE_Alloc */
	addr = ne_alloc_alloc(&p->list, (uint32_t)numcolor << 1);
	if (addr == 0) {
		p->fail = numcolor == 0 ? NE_VRAM_ERR_ARGS :
			p->list.out_of_chunks ? NE_VRAM_ERR_CHUNKS : NE_VRAM_ERR_SPACE;
		return NE_VRAM_NO_SLOT;
	}
	p->pointer[slot] = addr;
	p->fail = NE_VRAM_OK;
	return slot;
}

int ne_vram_pltt_delete(ne_vram_pltt *p, uint16_t slot)
{
	if (slot >= p->max || p->pointer[slot] == 0)
		return -1;
	(void)ne_alloc_free(&p->list, p->pointer[slot]);
	p->pointer[slot] = 0;
	return 0;
}

uint32_t ne_vram_pltt_offset(const ne_vram_pltt *p, uint16_t slot)
{
	return p->pointer[slot] - NE_VRAM_E;
}
