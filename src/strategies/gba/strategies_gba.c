/* SPDX-License-Identifier: Zlib */
/* strategies_gba.c - the GBA strategies, in the order they are listed. */
#include "strategies/strategies.h"

extern const vs_strategy vs_strat_gba_obj_map;
extern const vs_strategy vs_strat_gba_obj_first_fit;
extern const vs_strategy vs_strat_gba_obj_best_fit;
extern const vs_strategy vs_strat_gba_obj_buddy;
extern const vs_strategy vs_strat_gba_obj_snug;
extern const vs_strategy vs_strat_gba_obj_ends;
extern const vs_strategy vs_strat_gba_obj_slots;
extern const vs_strategy vs_strat_gba_obj_compact;
extern const vs_strategy vs_strat_butano_sprite_tiles;
extern const vs_strategy vs_strat_gba_bg_tiles;
extern const vs_strategy vs_strat_gba_bg_tiles_split;
extern const vs_strategy vs_strat_butano_bg_blocks;

const vs_strategy *const vs_strategies_gba[] = {
	&vs_strat_gba_obj_map,
	&vs_strat_gba_obj_first_fit,
	&vs_strat_gba_obj_best_fit,
	&vs_strat_gba_obj_buddy,
	&vs_strat_gba_obj_snug,
	&vs_strat_gba_obj_ends,
	&vs_strat_gba_obj_slots,
	&vs_strat_gba_obj_compact,
	&vs_strat_butano_sprite_tiles,
	&vs_strat_gba_bg_tiles,
	&vs_strat_gba_bg_tiles_split,
	&vs_strat_butano_bg_blocks,
	NULL
};
