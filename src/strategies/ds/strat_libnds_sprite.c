/* SPDX-License-Identifier: Zlib */
/* strat_libnds_sprite.c - strategy adapter for libnds's sprite graphics
 * allocator (oamAllocateGfx / oamFreeGfx; libnds_sprite.h) on ds-obj
 * arenas. Options: mapping= (the SpriteMapping given to oamInit; by default
 * the arena's DISPCNT fields), fixed=yes (free the index that was
 * allocated, grow the header buffer as far as needed). */
#include <stdio.h>
#include <string.h>

#include "vramsim/alloc/libnds_sprite.h"
#include "strategies/strategies.h"
#include "base/options.h"
#include "vram/request.h"

static const char *const map_names[LIBNDS_MAP_COUNT] = {
	"1d-32", "1d-64", "1d-128", "1d-256", "2d", "bmp-1d-128", "bmp-1d-256", "bmp-2d-128", "bmp-2d-256"
};

/* The mapping a game would pass for the arena's DISPCNT: 2D tiles with a
 * 256-dot bitmap matrix is Bmp_2D_256, other 2D tiles SpriteMapping_2D
 * (whose bitmap bits are those of Bmp_2D_128: the unit is the tile); 1D
 * tiles by their boundary (Bmp_1D_128/256 allocate as 1D_128/256 do). */
static unsigned default_mapping(const vs_arena_decl *a)
{
	static const unsigned by_boundary[9] = {
		LIBNDS_MAP_1D_32, LIBNDS_MAP_1D_32, LIBNDS_MAP_1D_64, LIBNDS_MAP_1D_128, LIBNDS_MAP_1D_128,
		LIBNDS_MAP_1D_256, LIBNDS_MAP_1D_256, LIBNDS_MAP_1D_256, LIBNDS_MAP_1D_256
	};
	unsigned b = a->ds_obj_boundary;

	if (a->gba_obj_2d)
		return a->ds_obj_bmp == VS_DS_BMP_2D_256 ? LIBNDS_MAP_BMP_2D_256 : LIBNDS_MAP_2D;
	return by_boundary[b < 9 ? b : 8];
}

static int yes_no(const char *options, const char *key, int *val, char *err, size_t errlen)
{
	char v[8];

	if (!vs_option_get(options, key, v, sizeof v))
		return 0;
	if (!strcmp(v, "yes") || !strcmp(v, "no")) {
		*val = v[0] == 'y';
		return 0;
	}
	snprintf(err, errlen, "%s=%s: yes or no", key, v);
	return -1;
}

static int ls_init(void *st, const vs_arena_decl *a, const char *options, uint8_t *mem, char *err, size_t errlen)
{
	static const char *const known[] = { "mapping", "fixed", NULL };
	unsigned mapping = default_mapping(a), i;
	int fixed = 0;
	char v[16];

	(void)mem;
	if (vs_option_check(options, known, err, errlen) || yes_no(options, "fixed", &fixed, err, errlen))
		return -1;
	if (vs_option_get(options, "mapping", v, sizeof v)) {
		for (i = 0; i < LIBNDS_MAP_COUNT && strcmp(v, map_names[i]); i++)
			;
		if (i == LIBNDS_MAP_COUNT) {
			snprintf(err, errlen, "mapping=%s: one of 1d-32, 1d-64, 1d-128, 1d-256, 2d, bmp-1d-128, "
				"bmp-1d-256, bmp-2d-128, bmp-2d-256", v);
			return -1;
		}
		mapping = i;
	}
	libnds_sprite_init(st, mapping, fixed ? LIBNDS_SPRITE_FIX_FREE | LIBNDS_SPRITE_FIX_GROW : 0);
	return 0;
}

/* The SpriteSize and SpriteColorFormat a request stands for: a sprite by
 * its dimensions and depth (16: a bitmap sprite); plain bytes of a sprite's
 * size (a power of two from 32 to 8192) as a 256-colour sprite. */
static int ls_request(const vs_request *rq, uint32_t *pixels, unsigned *fmt)
{
	unsigned w, h;

	switch (rq->shape) {
	case VS_REQ_SPRITE:
		if (!vs_request_sprite_dims(rq->u.sprite.shape, rq->u.sprite.size, &w, &h))
			return VS_ERR_INVALID;
		*pixels = w * h;
		switch (rq->u.sprite.bpp) {
		case 4: *fmt = LIBNDS_COLOR_16; return VS_OK;
		case 8: *fmt = LIBNDS_COLOR_256; return VS_OK;
		case 16: *fmt = LIBNDS_COLOR_BMP; return VS_OK;
		default: return VS_ERR_INVALID;
		}
	case VS_REQ_BYTES:
		if (rq->size < 32 || rq->size > 8192 || (rq->size & (rq->size - 1)))
			return VS_ERR_UNSUPPORTED;
		*pixels = rq->size;
		*fmt = LIBNDS_COLOR_256;
		return VS_OK;
	default:
		return VS_ERR_UNSUPPORTED;
	}
}

static int ls_alloc(void *st, const vs_request *rq, vs_placement *out)
{
	libnds_sprite *o = st;
	uint32_t pixels, units;
	unsigned fmt;
	int32_t idx;
	int rc = ls_request(rq, &pixels, &fmt);

	if (rc != VS_OK)
		return rc;
	units = libnds_sprite_units(o, pixels, fmt);
	/* an offset is a multiple of the request's own size, and no more */
	if (rq->align > (units << o->step))
		return VS_ERR_UNSUPPORTED;
	if (o->hung)
		return VS_ERR_MANAGEMENT;
	idx = libnds_sprite_alloc(o, pixels, fmt);
	if (idx < 0)
		return o->hung ? VS_ERR_MANAGEMENT : VS_ERR_NOSPACE;
	vs_placement_simple(out, (uint32_t)idx << o->step, units << o->step, (uint32_t)idx);
	return VS_OK;
}

static int ls_free(void *st, const vs_placement *pl)
{
	/* a free that hangs: the DS froze there, and the block with it */
	return libnds_sprite_free(st, pl->offset) ? VS_ERR_LOST : VS_OK;
}

static void ls_reset(void *st)
{
	libnds_sprite_reset(st);
}

/* The free list as the library would walk it, clipped to the heap. */
static void ls_walk(void *st, vs_extent_fn fn, void *ud)
{
	const libnds_sprite *o = st;
	int i = o->first_free, steps = 0;

	if (o->hung || !o->buf_live)
		return;
	while (i >= 0 && i < (int)LIBNDS_SPRITE_UNITS && steps++ <= (int)LIBNDS_SPRITE_HDRS) {
		uint32_t size = o->hdr[i].size;
		if (size > LIBNDS_SPRITE_UNITS - (uint32_t)i)
			size = LIBNDS_SPRITE_UNITS - (uint32_t)i;
		if (size && fn(ud, (uint32_t)i << o->step, size << o->step))
			return;
		i = o->hdr[i].next_free;
	}
}

static void ls_dump(void *st, vs_print_fn print, void *ud)
{
	const libnds_sprite *o = st;
	libnds_sprite probe = *o; /* oamCountFragments may grow the buffer: ask a copy */
	int i = o->first_free, steps = 0;
	char line[160];

	snprintf(line, sizeof line, "libnds sprite heap: mapping %s, 1024 units of %u bytes, firstFree %d%s\n",
		map_names[o->mapping], 1u << o->step, o->first_free, o->hung ? ", HUNG (a walk would not end)" : "");
	print(ud, line);
	snprintf(line, sizeof line, "allocBuffer: %s%d entries; %u accesses past its end (furthest index %u); "
		"%u frees of another index; oamCountFragments() = %d\n", o->buf_live ? "" : "none yet, next ",
		o->buf_size, (unsigned)o->oob, (unsigned)o->oob_max, (unsigned)o->frees_moved,
		libnds_sprite_count_fragments(&probe));
	print(ud, line);
	print(ud, "free blocks (units):\n");
	while (o->buf_live && !o->hung && i >= 0 && i < (int)LIBNDS_SPRITE_UNITS && steps++ <= 64) {
		snprintf(line, sizeof line, "  %4d +%u\n", i, (unsigned)o->hdr[i].size);
		print(ud, line);
		i = o->hdr[i].next_free;
	}
}

/* OamState's allocator fields and allocBuffer (4 bytes an entry). */
static uint64_t ls_ram(void *st)
{
	const libnds_sprite *o = st;

	return 12u + (o->buf_live ? 4u * (uint64_t)(uint16_t)o->buf_size : 0u);
}

const vs_strategy vs_strat_libnds_sprite = {
	.abi = VS_STRATEGY_ABI,
	.name = "libnds-sprite",
	.summary = "libnds oamAllocateGfx: 1024 units of 32-256 bytes, first fit at the request's own alignment, "
		"merge on free; 2D mappings free the wrong index (fixed=yes: the right one)",
	.arenas = VS_ARENA_BIT(VS_ARENA_DS_OBJ),
	.flags = VS_STRAT_RELOCATABLE | VS_STRAT_NO_MEM,
	.state_size = sizeof(libnds_sprite),
	.init = ls_init,
	.alloc = ls_alloc,
	.free = ls_free,
	.reset = ls_reset,
	.walk_free = ls_walk,
	.dump = ls_dump,
	.ram = ls_ram
};
