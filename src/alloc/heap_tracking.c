/* SPDX-License-Identifier: Zlib */
/* heap_tracking.c - The Simpsons: Hit & Run's TrackingHeap: a record table
 * in the region, first fit between the records, found through an AVL tree
 * over the records kept in the caller's index (heap_tracking.h). */
#include "vramsim/alloc/heap_tracking.h"

#define NIL HEAP_NIL

static uint32_t rec_off(const uint8_t *m, uint32_t i) { return heap_ld32(m, i * HEAP_TRACKING_RECORD); }
static uint32_t rec_len(const uint8_t *m, uint32_t i) { return heap_ld32(m, i * HEAP_TRACKING_RECORD + 4u); }

/* A free slot holds the next free slot as its offset and 0 as its size. */
static void rec_set(uint8_t *m, uint32_t i, uint32_t off, uint32_t len)
{
	heap_st32(m, i * HEAP_TRACKING_RECORD, off);
	heap_st32(m, i * HEAP_TRACKING_RECORD + 4u, len);
}

/* Bytes the gap [lo, end) offers a block aligned to a; 0 when none. */
static uint32_t room(uint32_t lo, uint32_t end, uint32_t a)
{
	uint32_t q = heap_align_up(lo, a);

	return q != NIL && q <= end ? end - q : 0;
}

uint32_t heap_tracking_capacity(uint32_t size, uint32_t records, uint32_t align)
{
	if (align <= 1u)
		align = HT_ALIGN;
	if (records == 0)
		records = size / 256u < 16u ? 16u : size / 256u;
	if (!heap_is_pow2(align) || records > size / HEAP_TRACKING_RECORD)
		return 0;
	return records;
}

int heap_tracking_init(heap_tracking *t, uint8_t *m, uint32_t size, uint32_t records, uint32_t align)
{
	(void)m;
	t->size = size;
	t->align = align <= 1u ? HT_ALIGN : align;
	t->capacity = heap_tracking_capacity(size, records, align);
	t->data = t->capacity ? t->capacity * HEAP_TRACKING_RECORD : size;
	t->count = 0;
	t->live_bytes = 0;
	t->high_water = 0;
	t->root = NIL;
	t->tail = t->data;
	t->free_slot = NIL;
	t->used = 0;
	return t->capacity ? HEAP_OK : HEAP_INVALID;
}

/* ---- the index: an AVL tree keyed by record offset ---------------------- */

static uint32_t height(const heap_tracking_node *ix, uint32_t n) { return n == NIL ? 0 : ix[n].height; }
static uint32_t fit_of(const heap_tracking_node *ix, uint32_t n) { return n == NIL ? 0 : ix[n].fit; }
static uint32_t gap_of(const heap_tracking_node *ix, uint32_t n) { return n == NIL ? 0 : ix[n].gap; }
static uint32_t max3(uint32_t a, uint32_t b, uint32_t c) { return a > b ? (a > c ? a : c) : (b > c ? b : c); }

/* Recomputes n's height, fit and gap from its children and its own gap. */
static void update(const heap_tracking *t, heap_tracking_node *ix, uint32_t n)
{
	heap_tracking_node *x = &ix[n];
	uint32_t hl = height(ix, x->left), hr = height(ix, x->right);

	x->height = (hl > hr ? hl : hr) + 1u;
	x->fit = max3(room(x->lo, x->key, t->align), fit_of(ix, x->left), fit_of(ix, x->right));
	x->gap = max3(x->key - x->lo, gap_of(ix, x->left), gap_of(ix, x->right));
}

static uint32_t rot_right(const heap_tracking *t, heap_tracking_node *ix, uint32_t n)
{
	uint32_t l = ix[n].left;

	ix[n].left = ix[l].right;
	ix[l].right = n;
	update(t, ix, n);
	update(t, ix, l);
	return l;
}

static uint32_t rot_left(const heap_tracking *t, heap_tracking_node *ix, uint32_t n)
{
	uint32_t r = ix[n].right;

	ix[n].right = ix[r].left;
	ix[r].left = n;
	update(t, ix, n);
	update(t, ix, r);
	return r;
}

/* Updates n and rotates it back into balance; returns the subtree's root. */
static uint32_t balance(const heap_tracking *t, heap_tracking_node *ix, uint32_t n)
{
	uint32_t hl = height(ix, ix[n].left), hr = height(ix, ix[n].right);

	if (hl > hr + 1u) {
		uint32_t l = ix[n].left;

		if (height(ix, ix[l].right) > height(ix, ix[l].left))
			ix[n].left = rot_left(t, ix, l);
		return rot_right(t, ix, n);
	}
	if (hr > hl + 1u) {
		uint32_t r = ix[n].right;

		if (height(ix, ix[r].left) > height(ix, ix[r].right))
			ix[n].right = rot_right(t, ix, r);
		return rot_left(t, ix, n);
	}
	update(t, ix, n);
	return n;
}

/* Puts leaf s (its record at off) under n. The record after it is an
 * ancestor where the path turns left, so its new gap is updated on the way
 * back up. */
static uint32_t insert(const heap_tracking *t, heap_tracking_node *ix, uint32_t n, uint32_t s,
	uint32_t off)
{
	if (n == NIL)
		return s;
	if (off < ix[n].key)
		ix[n].left = insert(t, ix, ix[n].left, s, off);
	else
		ix[n].right = insert(t, ix, ix[n].right, s, off);
	return balance(t, ix, n);
}

/* Takes the leftmost node out of the subtree n, into *min. */
static uint32_t take_min(const heap_tracking *t, heap_tracking_node *ix, uint32_t n,
	uint32_t *min)
{
	if (ix[n].left == NIL) {
		*min = n;
		return ix[n].right;
	}
	ix[n].left = take_min(t, ix, ix[n].left, min);
	return balance(t, ix, n);
}

/* Takes the node of the record at off out of the subtree n. The record
 * after it either takes its place (the leftmost of its right subtree) or is
 * an ancestor: both are updated. */
static uint32_t erase(const heap_tracking *t, heap_tracking_node *ix, uint32_t n, uint32_t off)
{
	uint32_t k = ix[n].key, s, r;

	if (off < k) {
		ix[n].left = erase(t, ix, ix[n].left, off);
		return balance(t, ix, n);
	}
	if (off > k) {
		ix[n].right = erase(t, ix, ix[n].right, off);
		return balance(t, ix, n);
	}
	if (ix[n].right == NIL)
		return ix[n].left;
	r = take_min(t, ix, ix[n].right, &s);
	ix[s].left = ix[n].left;
	ix[s].right = r;
	return balance(t, ix, s);
}

/* The first node under n, in address order, whose gap holds len bytes at
 * alignment a. need: the least fit (at the heap's alignment) a subtree
 * holding such a gap has - exact at the heap's alignment, a bound below
 * at others, where its largest gap must also be len at least. */
static uint32_t find(const heap_tracking_node *ix, uint32_t n, uint32_t len, uint32_t a,
	uint32_t need)
{
	while (n != NIL && ix[n].fit >= need && ix[n].gap >= len) {
		uint32_t r = find(ix, ix[n].left, len, a, need);

		if (r != NIL)
			return r;
		if (room(ix[n].lo, ix[n].key, a) >= len)
			return n;
		n = ix[n].right;
	}
	return NIL;
}

/* ---- the heap ------------------------------------------------------------ */

int heap_tracking_alloc(heap_tracking *t, uint8_t *m, heap_tracking_node *ix, uint32_t size, uint32_t align,
	heap_block *out)
{
	uint32_t len = size ? size : 1u, need = len, succ, lo, p, s;

	if (align <= 1u)
		align = t->align;
	if (!heap_is_pow2(align))
		return HEAP_INVALID;
	if (t->capacity == 0)
		return HEAP_NOSPACE;
	/* A gap holding len at a smaller alignment than the heap's offers at
	 * most t->align - align bytes fewer at the heap's. */
	if (align < t->align)
		need = len > t->align - align ? len - (t->align - align) : 0;
	/* the record whose gap takes the block; none: the tail */
	succ = find(ix, t->root, len, align, need);
	if (succ != NIL)
		lo = ix[succ].lo;
	else if (room(t->tail, t->size, align) >= len)
		lo = t->tail;
	else
		return HEAP_NOSPACE;
	if (t->count == t->capacity)
		return HEAP_MANAGEMENT;
	p = heap_align_up(lo, align);
	if (t->free_slot != NIL) {
		s = t->free_slot;
		t->free_slot = rec_off(m, s);
	} else {
		s = t->used++;
	}
	rec_set(m, s, p, len);
	ix[s].left = ix[s].right = NIL;
	ix[s].key = p;
	ix[s].lo = lo;
	ix[s].height = 1;
	ix[s].fit = room(lo, p, t->align);
	ix[s].gap = p - lo;
	/* the gap this block was cut from now starts after it */
	if (succ != NIL)
		ix[succ].lo = p + len;
	else
		t->tail = p + len;
	t->root = insert(t, ix, t->root, s, p);
	t->count++;
	t->live_bytes += len;
	if (p + len > t->high_water)
		t->high_water = p + len;
	out->offset = out->block_offset = p;
	out->granted = size;
	out->block_size = len;
	return HEAP_OK;
}

int heap_tracking_free(heap_tracking *t, uint8_t *m, heap_tracking_node *ix, uint32_t off)
{
	uint32_t n = t->root, next = NIL;

	while (n != NIL && ix[n].key != off) {
		if (off < ix[n].key) {
			next = n;
			n = ix[n].left;
		} else {
			n = ix[n].right;
		}
	}
	if (n == NIL)
		return HEAP_INVALID;
	if (ix[n].right != NIL)
		for (next = ix[n].right; ix[next].left != NIL;)
			next = ix[next].left;
	/* the gap before the record after it (or the tail) now starts where
	 * this record's gap did */
	if (next != NIL)
		ix[next].lo = ix[n].lo;
	else
		t->tail = ix[n].lo;
	t->root = erase(t, ix, t->root, off);
	t->live_bytes -= rec_len(m, n);
	rec_set(m, n, t->free_slot, 0);
	t->free_slot = n;
	t->count--;
	return HEAP_OK;
}

static int walk(const heap_tracking_node *ix, uint32_t n, heap_extent_fn fn, void *ud)
{
	while (n != NIL) {
		if (walk(ix, ix[n].left, fn, ud))
			return 1;
		if (ix[n].key > ix[n].lo && fn(ud, ix[n].lo, ix[n].key - ix[n].lo))
			return 1;
		n = ix[n].right;
	}
	return 0;
}

void heap_tracking_walk_free(const heap_tracking *t, const uint8_t *m, const heap_tracking_node *ix,
	heap_extent_fn fn, void *ud)
{
	(void)m;
	if (!walk(ix, t->root, fn, ud) && t->size > t->tail)
		fn(ud, t->tail, t->size - t->tail);
}

void heap_tracking_status(const heap_tracking *t, const uint8_t *m, const heap_tracking_node *ix, heap_status *st)
{
	(void)m;
	/* the largest gap between records is the root's; the tail's is apart */
	st->largest = gap_of(ix, t->root) > t->size - t->tail ? gap_of(ix, t->root) : t->size - t->tail;
	st->total_free = t->size - t->data - t->live_bytes;
	st->objects = t->count;
	st->high_water = t->high_water;
}
