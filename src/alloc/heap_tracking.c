/* SPDX-License-Identifier: Zlib */
/* heap_tracking.c - The Simpsons: Hit & Run's TrackingHeap: a sorted record
 * table, first fit between the records. */
#include "vramsim/alloc/heap_tracking.h"

static uint32_t rec_off(const uint8_t *m, uint32_t i) { return heap_ld32(m, i * HEAP_TRACKING_RECORD); }
static uint32_t rec_len(const uint8_t *m, uint32_t i) { return heap_ld32(m, i * HEAP_TRACKING_RECORD + 4u); }

static void rec_copy(uint8_t *m, uint32_t to, uint32_t from)
{
	heap_st32(m, to * HEAP_TRACKING_RECORD, rec_off(m, from));
	heap_st32(m, to * HEAP_TRACKING_RECORD + 4u, rec_len(m, from));
}

int heap_tracking_init(heap_tracking *t, uint8_t *m, uint32_t size, uint32_t records, uint32_t align)
{
	(void)m;
	if (align <= 1u)
		align = HT_ALIGN;
	if (records == 0)
		records = size / 256u < 16u ? 16u : size / 256u;
	t->size = size;
	t->align = align;
	t->count = 0;
	t->live_bytes = 0;
	t->high_water = 0;
	t->capacity = records;
	if (!heap_is_pow2(align) || records > size / HEAP_TRACKING_RECORD) {
		t->capacity = 0;
		t->data = size;
		return HEAP_INVALID;
	}
	t->data = records * HEAP_TRACKING_RECORD;
	return HEAP_OK;
}

/* Index of the first record at or above offset. */
static uint32_t lower_bound(const heap_tracking *t, const uint8_t *m, uint32_t off)
{
	uint32_t lo = 0, hi = t->count;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2u;

		if (rec_off(m, mid) < off)
			lo = mid + 1u;
		else
			hi = mid;
	}
	return lo;
}

int heap_tracking_alloc(heap_tracking *t, uint8_t *m, uint32_t size, uint32_t align, heap_block *out)
{
	uint32_t i, from = t->data, len = size ? size : 1u, p = HEAP_NIL;

	if (align <= 1u)
		align = t->align;
	if (!heap_is_pow2(align))
		return HEAP_INVALID;
	if (t->capacity == 0)
		return HEAP_NOSPACE;
	/* First fit: the gap before record i, for i = 0..count (count: the tail). */
	for (i = 0; i <= t->count; i++) {
		uint32_t end = i < t->count ? rec_off(m, i) : t->size;
		uint32_t q = heap_align_up(from, align);

		if (q != HEAP_NIL && q <= end && end - q >= len) {
			p = q;
			break;
		}
		if (i < t->count)
			from = rec_off(m, i) + rec_len(m, i);
	}
	if (p == HEAP_NIL)
		return HEAP_NOSPACE;
	if (t->count == t->capacity)
		return HEAP_MANAGEMENT;
	for (from = t->count; from > i; from--)
		rec_copy(m, from, from - 1u);
	heap_st32(m, i * HEAP_TRACKING_RECORD, p);
	heap_st32(m, i * HEAP_TRACKING_RECORD + 4u, len);
	t->count++;
	t->live_bytes += len;
	if (p + len > t->high_water)
		t->high_water = p + len;
	out->offset = out->block_offset = p;
	out->granted = size;
	out->block_size = len;
	return HEAP_OK;
}

int heap_tracking_free(heap_tracking *t, uint8_t *m, uint32_t off)
{
	uint32_t i = lower_bound(t, m, off);

	if (i == t->count || rec_off(m, i) != off)
		return HEAP_INVALID;
	t->live_bytes -= rec_len(m, i);
	for (; i + 1u < t->count; i++)
		rec_copy(m, i, i + 1u);
	t->count--;
	return HEAP_OK;
}

void heap_tracking_walk_free(const heap_tracking *t, const uint8_t *m, heap_extent_fn fn, void *ud)
{
	uint32_t i, from = t->data;

	for (i = 0; i <= t->count; i++) {
		uint32_t end = i < t->count ? rec_off(m, i) : t->size;

		if (end > from && fn(ud, from, end - from))
			return;
		if (i < t->count)
			from = rec_off(m, i) + rec_len(m, i);
	}
}

static int largest_fn(void *ud, uint32_t off, uint32_t size)
{
	uint32_t *l = ud;

	(void)off;
	if (size > *l)
		*l = size;
	return 0;
}

void heap_tracking_status(const heap_tracking *t, const uint8_t *m, heap_status *st)
{
	st->largest = 0;
	heap_tracking_walk_free(t, m, largest_fn, &st->largest);
	st->total_free = t->size - t->data - t->live_bytes;
	st->objects = t->count;
	st->high_water = t->high_water;
}
