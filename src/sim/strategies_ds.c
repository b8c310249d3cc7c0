/* strategies_ds.c - the DS texture and palette strategies, in list order. */
#include "strategies.h"

const vs_strategy *const vs_strategies_ds[] = {
	NULL
};
