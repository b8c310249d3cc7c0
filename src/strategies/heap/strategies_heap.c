/* SPDX-License-Identifier: Zlib */
/* strategies_heap.c - the RAM heap strategies, in list order: the systems of
 * published engines and games first, then the general-purpose rivals. */
#include "strategies/strategies.h"

extern const vs_strategy vs_strat_heap_bank;
extern const vs_strategy vs_strat_heap_pow2_pools;
extern const vs_strategy vs_strat_heap_linear;
extern const vs_strategy vs_strat_heap_static;
extern const vs_strategy vs_strat_heap_tracking;
extern const vs_strategy vs_strat_heap_dlmalloc;
extern const vs_strategy vs_strat_heap_manager;
extern const vs_strategy vs_strat_heap_first_fit;
extern const vs_strategy vs_strat_heap_next_fit;
extern const vs_strategy vs_strat_heap_best_fit;
extern const vs_strategy vs_strat_heap_tlsf;
extern const vs_strategy vs_strat_heap_buddy;

const vs_strategy *const vs_strategies_heap[] = {
	&vs_strat_heap_bank,
	&vs_strat_heap_pow2_pools,
	&vs_strat_heap_linear,
	&vs_strat_heap_static,
	&vs_strat_heap_tracking,
	&vs_strat_heap_dlmalloc,
	&vs_strat_heap_manager,
	&vs_strat_heap_first_fit,
	&vs_strat_heap_next_fit,
	&vs_strat_heap_best_fit,
	&vs_strat_heap_tlsf,
	&vs_strat_heap_buddy,
	NULL
};
