/* SPDX-License-Identifier: Zlib */
/* heap_watch.c - the watch a replay sets over the heaps' stores
 * (heap_watch_store in heap_common.h): nothing at all unless the build
 * defines HEAP_WATCH_STORES, as vramsim's does and a console's does not. */
#include "vramsim/alloc/heap_common.h"

#ifdef HEAP_WATCH_STORES
__thread heap_watch *heap_watch_now;
#else
/* ISO C wants something in a translation unit */
typedef int heap_watch_unused;
#endif
