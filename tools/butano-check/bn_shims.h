/* SPDX-License-Identifier: Zlib */
/* bn_shims.h - the least of Butano's GBA side that its sprite tiles manager
 * needs on the host, for tools/butano-check (docs/butano.md, "Checked
 * against Butano's code").
 *
 * Included before Butano's bn_sprite_tiles_manager.cpp, from a checkout:
 * - Butano's asserts and errors (BN_ASSERT, BN_BASIC_ASSERT, BN_ERROR, which
 *   its bn_assert.h defines only when they are not yet) throw bc_stop, so
 *   the driver tells where Butano would have stopped the game;
 * - the hardware headers the manager includes (bn_hw_sprite_tiles.h,
 *   bn_hw_decompress.h: DMA, BIOS calls, tonc) are taken as included, and
 *   what the manager calls of them copies nothing: only placement is
 *   checked, and the graphics' pointers are never read;
 * - bn_sstream.h (assert and log messages) is taken as included: on a 64-bit
 *   host its int64_t and long overloads clash, and nothing here formats. */
#ifndef BUTANO_CHECK_BN_SHIMS_H
#define BUTANO_CHECK_BN_SHIMS_H

/* Where Butano stopped: file, line and what failed. */
struct bc_stop {
	const char *file;
	int line;
	const char *what;
};

#define BN_ASSERT(condition, ...) \
	do { \
		if (!(condition)) \
			throw bc_stop{ __FILE__, __LINE__, #condition }; \
	} while (false)
#define BN_BASIC_ASSERT BN_ASSERT
#define BN_ERROR(...) throw bc_stop{ __FILE__, __LINE__, "BN_ERROR" }

#define BN_SSTREAM_H
namespace bn {
class ostringstream;
}

#define BN_HW_SPRITE_TILES_H
#define BN_HW_DECOMPRESS_H
#include "bn_tile.h"
#include "bn_compression_type.h"
#include "../hw/include/bn_hw_sprite_tiles_constants.h"

/* Every name the manager and bn_sprite_tiles_item.cpp.h call, from 9.4.1
 * (commit, lz77_wram) to 21.7.1 (commit_with_cpu, lz77). */
namespace bn::hw::sprite_tiles {
inline tile *tile_vram(int index)
{
	(void)index;
	return nullptr;
}
inline tile *vram(int index)
{
	return tile_vram(index);
}
inline void commit(const tile *, compression_type, int, int) {}
inline void commit_with_cpu(const tile *, int, int) {}
inline void commit_with_dma(const tile *, int, int) {}
}

namespace bn::hw::decompress {
inline void lz77(const void *, void *) {}
inline void lz77_wram(const void *, void *) {}
inline void lz77_vram(const void *, void *) {}
inline void rl_wram(const void *, void *) {}
inline void rl_vram(const void *, void *) {}
inline void huff(const void *, void *) {}
}

#endif
