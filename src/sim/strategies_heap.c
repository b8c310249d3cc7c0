/* strategies_heap.c - the RAM heap strategies, in list order. */
#include "strategies.h"

const vs_strategy *const vs_strategies_heap[] = {
	NULL
};
