/* SPDX-License-Identifier: Zlib */
/* host_alloc.c - a host program built against the installed allocator
 * library (pkg-config vramsim-alloc, or find_package(vramsim)): places
 * sprites in OBJ VRAM with the allocation map and checks where they went. */
#include <stdio.h>

#include "vramsim/alloc/gba_obj_map.h"

static gba_obj_map obj;

static int check(const char *what, unsigned got, unsigned want)
{
	if (got == want)
		return 0;
	fprintf(stderr, "host_alloc: %s: %u, expected %u\n", what, got, want);
	return 1;
}

int main(void)
{
	uint16_t big, small, pair;
	int bad = 0;

	gba_obj_map_init(&obj, 0);
	big = gba_obj_map_alloc(&obj, 16);  /* a 32x32 4bpp sprite: 16 blocks */
	small = gba_obj_map_alloc(&obj, 1); /* an 8x8 one */
	pair = gba_obj_map_alloc(&obj, 2);  /* placed at a multiple of 2 */
	bad |= check("32x32 at block", big, 0);
	bad |= check("8x8 at block", small, 16);
	bad |= check("16x8 at block", pair, 18);
	bad |= check("blocks freed", gba_obj_map_free(&obj, big), 16);
	bad |= check("32x32 again at block", gba_obj_map_alloc(&obj, 16), 0);
	bad |= check("too large", gba_obj_map_alloc(&obj, 2048), GBA_OBJ_MAP_NONE);
	if (!bad)
		printf("host_alloc: ok\n");
	return bad;
}
