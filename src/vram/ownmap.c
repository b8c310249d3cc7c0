/* SPDX-License-Identifier: Zlib */
/* ownmap.c - who holds each unit of an arena, as runs.
 *
 * A run is a maximal range of units with one owner and one kind: two
 * neighbouring runs always differ, so the free runs are exactly the free
 * extents. The runs sit in address order in the leaves of a B+-tree, up to
 * OM_B a leaf (first unit, length, owner, kind: 16 bytes); an inner node
 * holds, for each child, its first unit and its longest free run. Every
 * node also knows its own longest free run and its place in its parent,
 * and leaves are linked in address order. A look-up starts at the run last
 * found or made, then at the run a directory names for the unit's stretch
 * of the map (the run last found there, checked); else it searches the
 * leaf of either when the unit is inside it, else descends from the root:
 * a binary search per level, a few cache lines in all, and no branch to
 * mispredict in the searches. Marking a range inside one leaf (most marks)
 * rewrites at most three entries with one move of the leaf's tail; a range
 * over several leaves first folds the units past the leaf into its last
 * run, dropping or trimming the runs there, and is then the same rewrite.
 * A change goes up the tree only while a parent's entry changes. Leaves
 * split when full, and a node a change leaves below a quarter full is
 * joined with a sibling or evened out with it, so the memory is what the
 * live runs need: 16 bytes a run plus the leaves' free room, and from the
 * first split the directory, 8 bytes for each of at most OM_DIR stretches.
 * Free units, free runs and the longest free run are read in O(1).
 * A heap block taken whole is one entry for its three or four runs
 * (blocks, ownmap_tree.h), which every reader still sees as those runs.
 * The readers and the structure check are in ownmap_read.c.
 */
#include <stdlib.h>
#include <string.h>

#include "base/compiler_hints.h"
#include "ownmap_tree.h"
#include "vram/arena.h"

static VS_ALWAYS_INLINE void account(vs_ownmap *m, uint32_t len, uint32_t kind, int sign)
{
	if (is_block(kind)) {
		m->runs += (uint32_t)sign * block_count(kind);
		m->blocks += (uint32_t)sign;
		return;
	}
	m->runs += (uint32_t)sign;
	if (kind == VS_UNIT_FREE) {
		m->free_units += (uint32_t)sign * len;
		m->free_runs += (uint32_t)sign;
	}
}

static int same(const om_node *x, uint32_t i, uint32_t owner, uint32_t k)
{
	return x->e[i].ref == owner && x->e[i].kind == k;
}

/* The last entry whose key is <= u (x->e[0].key <= u). The first step
 * leaves a power of two of entries to search, p, at the front or the
 * back; then halving steps of a known count. No early exit, so the
 * compiler makes the choices conditional moves: no branch to miss. */
static uint32_t slot_of(const om_node *x, uint32_t u)
{
	uint32_t n = x->n, p = 1u << (31 - __builtin_clz(n)), i;

	/* the answer is in [n - p, n) when that entry is <= u, else in [0, p)
	 * (n - p <= p) */
	i = x->e[n - p].key <= u ? n - p : 0;
	for (p /= 2; p; p /= 2)
		i = x->e[i + p].key <= u ? i + p : i;
	return i;
}

/* Entries [from, n) moved to start at to; n follows. */
static void shift(om_node *x, uint32_t from, uint32_t to)
{
	uint32_t k = x->n - from;

	if (to != from)
		memmove(x->e + to, x->e + from, k * sizeof *x->e);
	x->n = to + k;
}

/* k entries of s from si copied over d's from di (d's n is the caller's). */
static void copy(om_node *d, uint32_t di, const om_node *s, uint32_t si, uint32_t k)
{
	memcpy(d->e + di, s->e + si, k * sizeof *d->e);
}


/* Children that moved into node t, or within it from entry from on,
 * learn their parent and their entry there. */
static void adopt(vs_ownmap *m, uint32_t t, uint32_t from)
{
	uint32_t i;

	if (!N(t).leaf) {
		for (i = from; i < N(t).n; i++) {
			N(N(t).e[i].ref).up = t;
			N(N(t).e[i].ref).pos = i;
		}
	}
}

/* Node t's parent's entry for it (first unit, longest free run) brought
 * up to date, t's own longest free run being right, and on up while the
 * parent's own first unit or longest free run changes. */
static void lift(vs_ownmap *m, uint32_t t)
{
	uint32_t p;

	while ((p = N(t).up) != 0) {
		const om_node *x = &N(t);
		om_node *y = &N(p);
		uint32_t s = x->pos, was = y->e[s].len, top = y->maxfree;
		if (was == x->maxfree && y->e[s].key == x->e[0].key)
			return;
		if (s == 0 && y->e[0].key != x->e[0].key)
			top = ~top; /* the parent's first unit changes: go on up */
		y->e[s].key = x->e[0].key;
		y->e[s].len = x->maxfree;
		if (x->maxfree >= y->maxfree)
			y->maxfree = x->maxfree;
		else if (was == y->maxfree)
			y->maxfree = node_maxfree(y);
		if (y->maxfree == top)
			return;
		t = p;
	}
}

/* Node t's longest free run worked out again, and lifted. */
static void fix(vs_ownmap *m, uint32_t t)
{
	N(t).maxfree = node_maxfree(&N(t));
	lift(m, t);
}

/* Room for k more nodes, so no node moves while a change is under way. */
static int reserve(vs_ownmap *m, uint32_t k)
{
	om_node *p;
	size_t cap;

	if (m->cap - m->used + m->nspare >= k)
		return 0;
	cap = (size_t)m->cap * 2;
	if (cap < (size_t)m->used + k)
		cap = (size_t)m->used + k;
	if (cap > UINT32_MAX / 2)
		return -1;
	p = realloc(m->n, cap * sizeof *p);
	if (!p)
		return -1;
	m->n = p;
	m->cap = (uint32_t)cap;
	return 0;
}

static uint32_t node_new(vs_ownmap *m, uint8_t leaf)
{
	uint32_t t;

	if (m->spare) {
		t = m->spare;
		m->spare = N(t).next;
		m->nspare--;
	} else {
		t = m->used++;
	}
	N(t).n = N(t).up = N(t).prev = N(t).next = N(t).maxfree = 0;
	N(t).leaf = leaf;
	return t;
}

/* A dropped node holds no entries, so a directory entry still naming it
 * is seen to be stale (find_slow). */
static void node_drop(vs_ownmap *m, uint32_t t)
{
	if (m->hint == t)
		m->hint = 0;
	N(t).n = 0;
	N(t).next = m->spare;
	m->spare = t;
	m->nspare++;
}

/* The directory, when the first leaf splits. Without memory the map goes
 * on without it: it only saves descents and searches. */
static void dir_make(vs_ownmap *m)
{
	m->dir_shift = 0;
	while (((m->nunits - 1) >> m->dir_shift) >= OM_DIR)
		m->dir_shift++;
	m->dir = calloc(dir_len(m), sizeof *m->dir);
}

/* Node t, full, split in two halves; the right half goes in its parent
 * just after it (a new root above t when it had none). */
static void split(vs_ownmap *m, uint32_t t)
{
	uint32_t p = N(t).up, r, s, h = N(t).n / 2;

	if (!p) {
		if (!m->dir)
			dir_make(m);
		p = node_new(m, 0);
		N(p).n = 1;
		N(p).e[0].key = N(t).e[0].key;
		N(p).e[0].len = N(t).maxfree;
		N(p).e[0].ref = t;
		N(t).up = p;
		N(t).pos = 0;
		m->root = p;
		m->height++;
	} else if (N(p).n == OM_B) {
		split(m, p);
		p = N(t).up;
	}
	r = node_new(m, N(t).leaf);
	copy(&N(r), 0, &N(t), h, N(t).n - h);
	N(r).n = N(t).n - h;
	N(t).n = h;
	N(r).up = p;
	adopt(m, r, 0);
	if (N(t).leaf) {
		N(r).next = N(t).next;
		N(r).prev = t;
		if (N(t).next)
			N(N(t).next).prev = r;
		N(t).next = r;
	}
	s = N(t).pos;
	shift(&N(p), s + 1, s + 2);
	N(p).e[s + 1].ref = r;
	N(p).e[s + 1].key = N(r).e[0].key;
	N(p).e[s + 1].len = 0; /* set by fix(r) below; lift reads it first */
	adopt(m, p, s + 1);
	fix(m, t);
	fix(m, r);
	fix(m, p); /* a new root's longest free run */
}

static void rebalance(vs_ownmap *m, uint32_t t);

/* Node t, emptied, taken out of the tree. */
static void unhook(vs_ownmap *m, uint32_t t)
{
	uint32_t p = N(t).up, s = N(t).pos;

	if (N(t).leaf) {
		if (N(t).prev)
			N(N(t).prev).next = N(t).next;
		if (N(t).next)
			N(N(t).next).prev = N(t).prev;
	}
	node_drop(m, t);
	shift(&N(p), s + 1, s);
	adopt(m, p, s);
	if (N(p).n == 0) {
		unhook(m, p);
		return;
	}
	fix(m, p);
	rebalance(m, p);
}

/* Node t, below a quarter full, joined with a sibling or evened out with
 * it; a root with one child gives way to the child. */
static void rebalance(vs_ownmap *m, uint32_t t)
{
	uint32_t p = N(t).up, s, l, r, nl, nr, k;

	if (!p) {
		while (!N(t).leaf && N(t).n == 1) {
			uint32_t c = N(t).e[0].ref;
			node_drop(m, t);
			N(c).up = 0;
			m->root = t = c;
			m->height--;
		}
		return;
	}
	if (N(t).n >= OM_MIN)
		return;
	if (N(p).n < 2) {
		rebalance(m, p); /* an only child: its parent joins a sibling, or goes */
		return;
	}
	s = N(t).pos;
	if (s + 1 == N(p).n)
		s--;
	l = N(p).e[s].ref;
	r = N(p).e[s + 1].ref;
	nl = N(l).n;
	nr = N(r).n;
	if (nl + nr <= OM_B * 3 / 4) {
		/* r's entries go to the end of l and r goes */
		copy(&N(l), nl, &N(r), 0, nr);
		N(l).n = nl + nr;
		adopt(m, l, nl);
		N(r).n = 0;
		N(l).maxfree = node_maxfree(&N(l));
		N(p).e[s].len = N(l).maxfree;
		unhook(m, r);
		return;
	}
	k = (nl + nr) / 2;
	if (nl < k) {
		/* the first k - nl of r go to the end of l */
		copy(&N(l), nl, &N(r), 0, k - nl);
		N(l).n = k;
		adopt(m, l, nl);
		shift(&N(r), k - nl, 0);
		adopt(m, r, 0);
	} else {
		/* the last nl - k of l go to the front of r */
		shift(&N(r), 0, nl - k);
		copy(&N(r), 0, &N(l), k, nl - k);
		N(l).n = k;
		adopt(m, r, 0);
	}
	fix(m, l);
	fix(m, r);
}

/* t is a leaf in the tree: a node in use, a leaf, not dropped (node_drop
 * empties it). */
static int live_leaf(const vs_ownmap *m, uint32_t t)
{
	return t && t < m->used && N(t).leaf && N(t).n;
}

/* The leaf holding u, its entry in *slot, when find's two guesses missed:
 * the hint's leaf when u is inside it, else the directory's leaf for u's
 * stretch when u is inside that, else the leaf a descent from the root
 * finds; in it the binary search's entry, which the directory then keeps
 * for the stretch. */
static VS_NOINLINE uint32_t find_slow(const vs_ownmap *m, uint32_t u, uint32_t *slot)
{
	vs_ownmap *w = (vs_ownmap *)m; /* no map is made const: only its readers see it so */
	struct om_dir *d = m->dir ? &m->dir[u >> m->dir_shift] : NULL;
	uint32_t t = m->hint, i;

	if (!t || u < N(t).e[0].key || u >= leaf_end(&N(t))) {
		t = d ? d->leaf : 0;
		if (!live_leaf(m, t) || u < N(t).e[0].key || u >= leaf_end(&N(t))) {
			t = m->root;
			while (!N(t).leaf)
				t = N(t).e[slot_of(&N(t), u)].ref;
		}
		w->hint = t;
	}
	i = slot_of(&N(t), u);
	if (d) {
		d->leaf = t;
		d->slot = i;
	}
	w->hslot = i;
	*slot = i;
	return t;
}

/* The leaf holding u, its entry in *slot. First the directory's leaf and
 * entry for u's stretch (the run last found there: a heap's free finds the
 * run its allocation made), when that entry is still u's in a leaf (a
 * directory entry always names a node handed out, and node 0 and a
 * dropped node are no leaf with entries); then the run last found or made
 * (a placement check's look-up, then the allocation's marks, come one
 * after the other; the heatmap's samples go up the map): that run or the
 * next, in line; else find_slow. What it finds becomes the hint: the one
 * write a reader makes, to a map only its own thread uses (ownmap_int.h).
 * The entry is checked, never trusted: a hint left by a mark that moved
 * entries is still a live leaf, or 0. */
static VS_ALWAYS_INLINE uint32_t find(const vs_ownmap *m, uint32_t u, uint32_t *slot)
{
	vs_ownmap *w = (vs_ownmap *)m; /* no map is made const: only its readers see it so */
	uint32_t t, i;

	if (m->dir) {
		const struct om_dir *d = &m->dir[u >> m->dir_shift];
		const om_node *x = &N(d->leaf);
		i = d->slot;
		if (x->leaf && i < x->n && u - x->e[i].key < x->e[i].len) {
			w->hint = t = d->leaf;
			w->hslot = i;
			*slot = i;
			return t;
		}
	}
	t = m->hint;
	i = m->hslot;
	if (t) {
		const om_node *x = &N(t);
		if (i < x->n && u - x->e[i].key < x->e[i].len) {
			*slot = i;
			return t;
		}
		if (i + 1 < x->n && u - x->e[i + 1].key < x->e[i + 1].len) {
			w->hslot = ++i;
			*slot = i;
			return t;
		}
	}
	return find_slow(m, u, slot);
}

uint32_t vs_owntree_find(const vs_ownmap *m, uint32_t u, uint32_t *slot)
{
	return find(m, u, slot);
}

/* Leaf t's last run stretched to end, which lies in later leaves: their
 * runs before end are dropped, the one across end trimmed to start there.
 * The stretched run is overwritten by the mark that follows. */
static void absorb(vs_ownmap *m, uint32_t t, uint32_t end)
{
	om_node *x = &N(t);
	uint32_t i = x->n - 1, q, c;

	account(m, x->e[i].len, x->e[i].kind, -1);
	x->e[i].len = end - x->e[i].key;
	account(m, x->e[i].len, x->e[i].kind, +1);
	if (x->e[i].kind == VS_UNIT_FREE && x->e[i].len > x->maxfree) {
		x->maxfree = x->e[i].len;
		lift(m, t);
	}
	while ((q = x->next) != 0 && N(q).e[0].key < end) {
		om_node *y = &N(q);
		if (leaf_end(y) <= end) {
			for (i = 0; i < y->n; i++)
				account(m, y->e[i].len, y->e[i].kind, -1);
			y->n = 0;
			unhook(m, q);
			continue;
		}
		c = slot_of(y, end);
		for (i = 0; i <= c; i++)
			account(m, y->e[i].len, y->e[i].kind, -1);
		y->e[c].len -= end - y->e[c].key;
		y->e[c].key = end;
		account(m, y->e[c].len, y->e[c].kind, +1);
		shift(y, c, 0);
		fix(m, q);
		rebalance(m, q);
		break;
	}
}

/* Units [first, end) of leaf t (inside it, first in entry a, room for two
 * more entries) get owner and kind: the runs they touch are replaced by at
 * most three (what the first and last keep outside the range, and the new
 * run, joined with equal neighbours in the leaf so runs stay maximal).
 * Returns the new run's entry. */
static VS_NOINLINE uint32_t leaf_set(vs_ownmap *m, uint32_t t, uint32_t a, uint32_t first, uint32_t end,
	uint32_t owner, uint32_t k)
{
	om_node *x = &N(t);
	uint32_t b = end <= x->e[a].key + x->e[a].len ? a : slot_of(x, end - 1), eb = x->e[b].key + x->e[b].len;
	uint32_t s = first, e = end, i, j = 0, at, best = x->maxfree, lost = 0;
	om_ent ne[3];

	if (x->e[a].key < first) {
		if (same(x, a, owner, k)) {
			s = x->e[a].key;
		} else {
			ne[0] = x->e[a];
			ne[0].len = first - x->e[a].key;
			j = 1;
		}
	} else if (a > 0 && same(x, a - 1, owner, k)) {
		s = x->e[--a].key;
	}
	if (eb > end) {
		if (same(x, b, owner, k))
			e = eb;
	} else if (b + 1 < x->n && same(x, b + 1, owner, k)) {
		b++;
		e = x->e[b].key + x->e[b].len;
	}
	at = a + j;
	ne[j].key = s;
	ne[j].len = e - s;
	ne[j].ref = owner;
	ne[j++].kind = k;
	if (e < eb) {
		ne[j] = x->e[b];
		ne[j].key = e;
		ne[j++].len = eb - e;
	}
	for (i = a; i <= b; i++) {
		account(m, x->e[i].len, x->e[i].kind, -1);
		lost |= x->e[i].kind == VS_UNIT_FREE && x->e[i].len == best;
	}
	shift(x, b + 1, a + j);
	for (i = 0; i < j; i++) {
		x->e[a + i] = ne[i];
		account(m, ne[i].len, ne[i].kind, +1);
		if (ne[i].kind == VS_UNIT_FREE && ne[i].len > best)
			best = ne[i].len;
	}
	/* the leaf's longest free run: looked for again only when it went */
	x->maxfree = lost && best == x->maxfree ? node_maxfree(x) : best;
	lift(m, t);
	return at;
}

/* Units [first, end) inside the one run at entry i of leaf t (room for two
 * more entries), most marks: an allocation cut from a free run, a free of
 * a whole block. What the run keeps below and above the range stays, the
 * range joins equal neighbours in the leaf, and the tail moves once, only
 * when the number of entries changes. Returns the new run's entry. */
static VS_ALWAYS_INLINE uint32_t leaf_one(vs_ownmap *m, uint32_t t, uint32_t i, uint32_t first,
	uint32_t end, uint32_t owner, uint32_t k)
{
	om_node *x = &N(t);
	om_ent old = x->e[i];
	uint32_t lo = first - old.key, hi = old.key + old.len - end, s = first, e = end, a = i, b = i, j;

	if (!lo && i > 0 && same(x, i - 1, owner, k)) {
		s = x->e[--a].key;
		account(m, x->e[a].len, k, -1);
	}
	if (!hi && i + 1 < x->n && same(x, i + 1, owner, k)) {
		b++;
		e = x->e[b].key + x->e[b].len;
		account(m, x->e[b].len, k, -1);
	}
	account(m, old.len, old.kind, -1);
	j = (lo > 0) + 1 + (hi > 0);
	if (b + 1 != a + j)
		shift(x, b + 1, a + j);
	if (lo) {
		x->e[a].len = lo; /* still old's key, owner and kind */
		account(m, lo, old.kind, +1);
		a++;
	}
	x->e[a].key = s;
	x->e[a].len = e - s;
	x->e[a].ref = owner;
	x->e[a].kind = k;
	account(m, e - s, k, +1);
	if (hi) {
		x->e[a + 1].key = end;
		x->e[a + 1].len = hi;
		x->e[a + 1].ref = old.ref;
		x->e[a + 1].kind = old.kind;
		account(m, hi, old.kind, +1);
	}
	/* the leaf's first unit stays; its longest free run can only grow
	 * to a freed run, or go with a free run taken */
	if (k == VS_UNIT_FREE) {
		if (e - s > x->maxfree) {
			x->maxfree = e - s;
			lift(m, t);
		}
	} else if (old.kind == VS_UNIT_FREE && old.len == x->maxfree) {
		fix(m, t);
	}
	return a;
}

/* The new run at entry i of leaf t joined with an equal run at the end of
 * the leaf before or the start of the leaf after: the run stays in t
 * (its first unit may move down), the neighbour loses an entry and goes
 * when it has none left. */
static VS_NOINLINE void join_edges(vs_ownmap *m, uint32_t t, uint32_t i)
{
	om_node *x = &N(t);
	uint32_t p = x->prev, q = x->next;

	if (i == 0 && p && same(&N(p), N(p).n - 1, x->e[0].ref, x->e[0].kind)) {
		om_node *y = &N(p);
		uint32_t j = y->n - 1;
		account(m, y->e[j].len, y->e[j].kind, -1);
		account(m, x->e[0].len, x->e[0].kind, -1);
		x->e[0].key = y->e[j].key;
		x->e[0].len += y->e[j].len;
		account(m, x->e[0].len, x->e[0].kind, +1);
		if (--y->n == 0)
			unhook(m, p);
		else
			fix(m, p);
		fix(m, t);
	}
	if (i == x->n - 1 && q && same(&N(q), 0, x->e[i].ref, x->e[i].kind)) {
		om_node *y = &N(q);
		account(m, y->e[0].len, y->e[0].kind, -1);
		account(m, x->e[i].len, x->e[i].kind, -1);
		x->e[i].len += y->e[0].len;
		account(m, x->e[i].len, x->e[i].kind, +1);
		shift(y, 1, 0);
		if (y->n == 0)
			unhook(m, q);
		else
			fix(m, q);
		fix(m, t);
	}
}

/* The mark done in leaf t from entry i: the new run joined across leaf
 * edges, the hint left on it, a leaf left small joined with a sibling. */
static VS_ALWAYS_INLINE void leaf_done(vs_ownmap *m, uint32_t t, uint32_t i)
{
	if ((i == 0 && N(t).prev) || (i + 1 == N(t).n && N(t).next))
		join_edges(m, t, i);
	m->hint = t; /* the new run: the next mark is likely just after it */
	m->hslot = i;
	if (N(t).n < OM_MIN)
		rebalance(m, t);
}

/* A free of exactly entry i of leaf t, a taken run or a block entry (a
 * heap block's free: most frees), when the leaf has room for two more
 * entries (as leaf_one asks, so the tree is the same as leaf_one's would
 * be): the entry and the free runs beside it in the leaf become one free
 * run, in at most one move of the leaf's tail. What leaf_one and leaf_done
 * do, without the checks such a free does not need: nothing is kept below
 * or above it, no block is cut into or joined (free runs have no owner),
 * and the counts change by what is known here. */
static VS_ALWAYS_INLINE void free_entry(vs_ownmap *m, uint32_t t, uint32_t i)
{
	om_node *x = &N(t);
	uint32_t a = i, b = i, s = x->e[i].key, len = x->e[i].len, e = s + len, k = x->e[i].kind, gone;

	if (i > 0 && x->e[i - 1].kind == VS_UNIT_FREE)
		s = x->e[--a].key;
	if (i + 1 < x->n && x->e[i + 1].kind == VS_UNIT_FREE) {
		b++;
		e = x->e[b].key + x->e[b].len;
	}
	gone = b - a; /* free runs joined into the new one */
	if (is_block(k)) {
		m->runs -= block_count(k);
		m->blocks--;
	} else {
		m->runs--;
	}
	m->runs += 1 - gone;
	m->free_runs += 1 - gone;
	m->free_units += len;
	if (b != a)
		shift(x, b + 1, a + 1);
	x->e[a].key = s;
	x->e[a].len = e - s;
	x->e[a].ref = VS_OWNER_NONE;
	x->e[a].kind = VS_UNIT_FREE;
	/* the leaf's first unit stays; its longest free run can only grow */
	if (e - s > x->maxfree) {
		x->maxfree = e - s;
		lift(m, t);
	}
	leaf_done(m, t, a);
}

/* Any other mark: until the range is inside one leaf with room for two
 * more runs (absorb's joins and splits move runs between leaves: look
 * again); the nodes a split may take are reserved first, so a mark either
 * fails untouched or goes through. */
static VS_NOINLINE int tree_set_any(vs_ownmap *m, uint32_t t, uint32_t i, uint32_t first, uint32_t end,
	uint32_t owner, uint32_t k)
{
	if (reserve(m, m->height + 1))
		return -1;
	while (end > leaf_end(&N(t)) || N(t).n + 2 > OM_B) {
		if (end > leaf_end(&N(t)))
			absorb(m, t, end);
		else
			split(m, t);
		t = find(m, first, &i);
	}
	leaf_done(m, t, leaf_set(m, t, i, first, end, owner, k));
	return 0;
}

/* A free of whole runs [first, end) from entry i of leaf t, a few runs
 * long (a heap block's header, data, slack and tail): the runs and the
 * free runs beside them become one free run, in one move of the leaf's
 * tail. 0 when the range is not that (the general way then). */
static int leaf_free_runs(vs_ownmap *m, uint32_t t, uint32_t i, uint32_t first, uint32_t end)
{
	om_node *x = &N(t);
	uint32_t a = i, b = i, s = first, e = end, j;

	if (x->e[i].key != first)
		return 0;
	while (x->e[b].key + x->e[b].len < end)
		if (++b == x->n || b > i + 4)
			return 0;
	if (x->e[b].key + x->e[b].len != end)
		return 0;
	if (a > 0 && x->e[a - 1].kind == VS_UNIT_FREE)
		s = x->e[--a].key;
	if (b + 1 < x->n && x->e[b + 1].kind == VS_UNIT_FREE) {
		b++;
		e = x->e[b].key + x->e[b].len;
	}
	for (j = a; j <= b; j++)
		account(m, x->e[j].len, x->e[j].kind, -1);
	shift(x, b + 1, a + 1);
	x->e[a].key = s;
	x->e[a].len = e - s;
	x->e[a].ref = VS_OWNER_NONE;
	x->e[a].kind = VS_UNIT_FREE;
	account(m, e - s, VS_UNIT_FREE, +1);
	/* only free runs went, into a longer one */
	if (e - s > x->maxfree) {
		x->maxfree = e - s;
		lift(m, t);
	}
	leaf_done(m, t, a);
	return 1;
}

/* Block entry i of leaf t back to its runs in place (the run count does
 * not change: the block counted them). 0, or -1 when out of memory
 * (nothing changed). */
static int explode(vs_ownmap *m, uint32_t t, uint32_t i)
{
	vs_own_run p[4];
	om_node *x;
	uint32_t n, j;

	if (N(t).n + 3 > OM_B) {
		uint32_t key = N(t).e[i].key;
		if (reserve(m, m->height + 1))
			return -1;
		split(m, t);
		t = find(m, key, &i);
	}
	x = &N(t);
	n = block_runs(x->e[i].key, x->e[i].len, x->e[i].ref, x->e[i].kind, p);
	shift(x, i + 1, i + n);
	for (j = 0; j < n; j++) {
		x->e[i + j].key = p[j].first;
		x->e[i + j].len = p[j].count;
		x->e[i + j].ref = p[j].owner;
		x->e[i + j].kind = (uint32_t)p[j].kind;
	}
	m->blocks--;
	return 0;
}

/* Before a mark of [first, end) for owner: the block entries it cuts
 * into, and those of owner's beside it (a piece of theirs could be equal
 * to the new run), turned back into runs; blocks wholly inside go whole.
 * 0, or -1 when out of memory. */
static VS_NOINLINE int explode_around(vs_ownmap *m, uint32_t first, uint32_t end, uint32_t owner)
{
	uint32_t at[4], n = 0, j, t, i;

	at[n++] = first;
	at[n++] = end - 1;
	if (owner != VS_OWNER_NONE && first > 0)
		at[n++] = first - 1;
	if (owner != VS_OWNER_NONE && end < m->nunits)
		at[n++] = end;
	for (j = 0; j < n; j++) {
		const om_ent *e;
		t = find(m, at[j], &i);
		e = &N(t).e[i];
		if (!is_block(e->kind) || (e->key >= first && e->key + e->len <= end))
			continue;
		if ((at[j] < first || at[j] >= end) && e->ref != owner)
			continue; /* a neighbour of another owner: its runs differ from the new one */
		if (explode(m, t, i))
			return -1;
	}
	return 0;
}

/* The entry just before entry i of leaf t (the last of the leaf before
 * when i is 0), or NULL at the map's start; ent_after likewise. */
static const om_ent *ent_before(const vs_ownmap *m, uint32_t t, uint32_t i)
{
	const om_node *x = &N(t);

	return i > 0 ? &x->e[i - 1] : x->prev ? &N(x->prev).e[N(x->prev).n - 1] : NULL;
}

static const om_ent *ent_after(const vs_ownmap *m, uint32_t t, uint32_t i)
{
	const om_node *x = &N(t);

	return i + 1 < x->n ? &x->e[i + 1] : x->next ? &N(x->next).e[0] : NULL;
}

static int block_of(const om_ent *e, uint32_t owner)
{
	return e && is_block(e->kind) && e->ref == owner;
}

/* Whether the entry before entry i of leaf t (when lo is 0) or after it
 * (when hi is 0) is a block entry of owner's. */
static int block_beside(const vs_ownmap *m, uint32_t t, uint32_t i, uint32_t lo, uint32_t hi, uint32_t owner)
{
	return (!lo && block_of(ent_before(m, t, i), owner)) || (!hi && block_of(ent_after(m, t, i), owner));
}

/* Whether a mark of [first, end) for owner, starting in entry i of leaf t,
 * may cut into a block entry or join one's runs: not when it frees the
 * units of one entry only (a block's free, most frees), else perhaps. */
static int may_touch_block(const vs_ownmap *m, uint32_t t, uint32_t i, uint32_t first, uint32_t end, uint32_t owner)
{
	const om_ent *e = &N(t).e[i];

	if (owner != VS_OWNER_NONE || e->key + e->len < end)
		return 1;
	return is_block(e->kind) && (e->key != first || e->key + e->len != end);
}

int vs_owntree_set(vs_ownmap *m, uint32_t first, uint32_t end, uint32_t owner, vs_unit_kind kind)
{
	uint32_t t, i, k = (uint32_t)kind;

	t = find(m, first, &i);
	if (kind == VS_UNIT_FREE && owner == VS_OWNER_NONE && N(t).e[i].key == first &&
		N(t).e[i].key + N(t).e[i].len == end && N(t).e[i].kind != VS_UNIT_FREE && N(t).n + 2 <= OM_B) {
		free_entry(m, t, i);
		return 0;
	}
	/* with blocks in the map, those the mark cuts into or may join go
	 * back to runs first */
	if (m->blocks && may_touch_block(m, t, i, first, end, owner)) {
		if (explode_around(m, first, end, owner))
			return -1;
		t = find(m, first, &i);
	}
	if (kind == VS_UNIT_FREE && end > N(t).e[i].key + N(t).e[i].len && end <= leaf_end(&N(t)) &&
		leaf_free_runs(m, t, i, first, end))
		return 0;
	if (end <= N(t).e[i].key + N(t).e[i].len) {
		if (same(&N(t), i, owner, k))
			return 0; /* already so */
		if (N(t).n + 2 <= OM_B) {
			leaf_done(m, t, leaf_one(m, t, i, first, end, owner, k));
			return 0;
		}
	} else if (end <= leaf_end(&N(t)) && N(t).n + 2 <= OM_B) {
		leaf_done(m, t, leaf_set(m, t, i, first, end, owner, k));
		return 0;
	}
	return tree_set_any(m, t, i, first, end, owner, k);
}

int64_t vs_owntree_take(vs_ownmap *m, uint32_t first, uint32_t end, uint32_t owner, vs_unit_kind kind)
{
	uint32_t t, i, e;

	t = find(m, first, &i);
	if (N(t).e[i].kind != VS_UNIT_FREE)
		return first;
	/* runs are maximal: the one after a free run is taken */
	e = N(t).e[i].key + N(t).e[i].len;
	if (e < end)
		return e;
	if (kind == VS_UNIT_FREE)
		return -1;
	if (N(t).n + 2 <= OM_B && !(m->blocks && block_beside(m, t, i, first - N(t).e[i].key, e - end, owner))) {
		leaf_done(m, t, leaf_one(m, t, i, first, end, owner, (uint32_t)kind));
		return -1;
	}
	return vs_owntree_set(m, first, end, owner, kind) ? -2 : -1;
}

/* Whether pieces p[0..np) put at entry i of leaf t in place of the free run
 * there (lo and hi: the units that run keeps below and above the pieces)
 * would join an equal run beside them, or sit beside a block entry of the
 * first piece's owner (whose runs could equal them: block entries exist
 * only while m->blocks counts them). One look at each neighbour. */
static VS_ALWAYS_INLINE int would_join(const vs_ownmap *m, uint32_t t, uint32_t i, uint32_t lo, uint32_t hi,
	const vs_own_run *p, uint32_t np)
{
	const om_ent *b = lo ? NULL : ent_before(m, t, i), *a = hi ? NULL : ent_after(m, t, i);
	const vs_own_run *last = &p[np - 1];

	return (b && b->ref == p[0].owner && (b->kind == (uint32_t)p[0].kind || is_block(b->kind))) ||
		(a && ((a->ref == last->owner && a->kind == (uint32_t)last->kind) ||
			(is_block(a->kind) && a->ref == p[0].owner)));
}

/* The pieces taken as a take of them all as the first piece's kind and a
 * mark of each other one, with the nodes those may split into reserved
 * first, so that it fails untouched or goes through. */
static VS_NOINLINE int64_t take_runs_slow(vs_ownmap *m, const vs_own_run *p, uint32_t np)
{
	uint32_t j, end = p[np - 1].first + p[np - 1].count;
	int64_t u;

	if (reserve(m, np * (m->height + 3)))
		return -2;
	u = vs_owntree_take(m, p[0].first, end, p[0].owner, p[0].kind);
	for (j = 1; u == -1 && j < np; j++)
		(void)vs_owntree_set(m, p[j].first, p[j].first + p[j].count, p[j].owner, p[j].kind);
	return u;
}

/* The block kind standing for pieces p[0..np) (ownmap.c, blocks): an
 * owner's optional header, data, optional slack and optional tail, each
 * but the data under 256 units; else 0. */
static uint32_t block_kind(const vs_own_run *p, uint32_t np)
{
	uint32_t j = 0, part[3] = { 0, 0, 0 };

	if (np < 2)
		return 0;
	if (p[0].kind == VS_UNIT_OVERHEAD)
		part[0] = p[j++].count;
	if (p[j].kind != VS_UNIT_DATA)
		return 0;
	if (++j < np && p[j].kind == VS_UNIT_SLACK)
		part[1] = p[j++].count;
	if (j < np && p[j].kind == VS_UNIT_OVERHEAD)
		part[2] = p[j++].count;
	if (j != np || part[0] > OM_PIECE_MAX || part[1] > OM_PIECE_MAX || part[2] > OM_PIECE_MAX)
		return 0;
	for (j = 1; j < np; j++)
		if (p[j].owner != p[0].owner)
			return 0;
	return OM_BLOCK | part[0] << 8 | part[1] << 16 | part[2] << 24;
}

int64_t vs_owntree_take_runs(vs_ownmap *m, const vs_own_run *p, uint32_t np)
{
	uint32_t first = p[0].first, end = p[np - 1].first + p[np - 1].count, t, i, e, lo, hi, n, a, j;
	uint32_t bk = block_kind(p, np);
	om_node *x;
	om_ent old;

	t = find(m, first, &i);
	x = &N(t);
	if (x->e[i].kind != VS_UNIT_FREE)
		return first;
	e = x->e[i].key + x->e[i].len;
	if (e < end)
		return e; /* runs are maximal: the one after a free run is taken */
	old = x->e[i];
	lo = first - old.key;
	hi = e - end;
	n = (lo > 0) + (bk ? 1 : np) + (hi > 0);
	if (x->n - 1 + n > OM_B && bk) {
		/* a full leaf split first, so the block is still one entry */
		if (reserve(m, m->height + 1))
			return -2;
		split(m, t);
		return vs_owntree_take_runs(m, p, np);
	}
	if (x->n - 1 + n > OM_B || would_join(m, t, i, lo, hi, p, np))
		return take_runs_slow(m, p, np);
	account(m, old.len, VS_UNIT_FREE, -1);
	shift(x, i + 1, i + n);
	a = i;
	if (lo) {
		x->e[a++].len = lo; /* still old's key, owner and kind */
		account(m, lo, VS_UNIT_FREE, +1);
	}
	if (bk) {
		x->e[a].key = first;
		x->e[a].len = end - first;
		x->e[a].ref = p[0].owner;
		x->e[a++].kind = bk;
		account(m, end - first, bk, +1);
	}
	for (j = 0; !bk && j < np; j++, a++) {
		x->e[a].key = p[j].first;
		x->e[a].len = p[j].count;
		x->e[a].ref = p[j].owner;
		x->e[a].kind = (uint32_t)p[j].kind;
		account(m, p[j].count, (uint32_t)p[j].kind, +1);
	}
	if (hi) {
		x->e[a].key = end;
		x->e[a].len = hi;
		x->e[a].ref = VS_OWNER_NONE;
		x->e[a].kind = VS_UNIT_FREE;
		account(m, hi, VS_UNIT_FREE, +1);
	}
	/* the leaf's first unit stays; its longest free run can only go */
	if (old.len == x->maxfree)
		fix(m, t);
	m->hint = t;
	m->hslot = i + (lo > 0);
	return -1;
}

int64_t vs_owntree_first_taken(const vs_ownmap *m, uint32_t first, uint32_t end)
{
	uint32_t t, i, e;

	t = find(m, first, &i);
	if (N(t).e[i].kind != VS_UNIT_FREE)
		return first;
	e = N(t).e[i].key + N(t).e[i].len;
	return e >= end ? -1 : (int64_t)e;
}

void vs_ownmap_clear(vs_ownmap *m)
{
	uint32_t t;

	if (m->u) {
		vs_ownunits_clear(m->u);
		return;
	}
	m->used = 1;
	m->spare = 0;
	m->nspare = 0;
	m->hint = 0;
	m->blocks = 0;
	if (m->dir)
		memset(m->dir, 0, dir_len(m) * sizeof *m->dir);
	m->height = 1;
	m->runs = 1;
	m->free_units = m->nunits;
	m->free_runs = 1;
	memset(&N(0), 0, sizeof N(0));
	t = m->root = node_new(m, 1);
	N(t).n = 1;
	N(t).e[0].key = 0;
	N(t).e[0].len = N(t).maxfree = m->nunits;
	N(t).e[0].ref = VS_OWNER_NONE;
	N(t).e[0].kind = VS_UNIT_FREE;
}

vs_ownmap *vs_ownmap_new(uint32_t nunits)
{
	vs_ownmap *m;

	if (nunits == 0)
		return NULL;
	m = calloc(1, sizeof *m);
	if (!m)
		return NULL;
	m->nunits = nunits;
	/* node 0 and a root leaf: vs_ownmap_clear and the marks of the
	 * hardware's few reserved ranges (far fewer than a leaf holds) never
	 * allocate */
	if (reserve(m, 2)) {
		free(m);
		return NULL;
	}
	vs_ownmap_clear(m);
	return m;
}

vs_ownmap *vs_ownmap_new_units(uint32_t nunits)
{
	vs_ownmap *m = calloc(1, sizeof *m);

	if (!m)
		return NULL;
	m->nunits = nunits;
	m->u = vs_ownunits_new(nunits);
	if (!m->u) {
		free(m);
		return NULL;
	}
	return m;
}

vs_ownmap *vs_ownmap_copy(const vs_ownmap *src)
{
	vs_ownmap *m = malloc(sizeof *m);

	if (!m)
		return NULL;
	*m = *src;
	if (src->u) {
		m->u = vs_ownunits_copy(src->u);
		if (!m->u) {
			free(m);
			return NULL;
		}
		return m;
	}
	m->n = malloc((size_t)src->cap * sizeof *m->n);
	if (!m->n) {
		free(m);
		return NULL;
	}
	memcpy(m->n, src->n, (size_t)src->used * sizeof *m->n);
	/* the same nodes at the same numbers: the hints hold for the copy */
	if (src->dir && (m->dir = malloc(dir_len(src) * sizeof *m->dir)) != NULL)
		memcpy(m->dir, src->dir, dir_len(src) * sizeof *m->dir);
	return m;
}

void vs_ownmap_free(vs_ownmap *m)
{
	if (!m)
		return;
	vs_ownunits_free(m->u);
	free(m->n);
	free(m->dir);
	free(m);
}

int vs_ownmap_set(vs_ownmap *m, uint32_t first, uint32_t count, uint32_t owner, vs_unit_kind kind)
{
	uint32_t end = clip_end(m, first, count);

	return end ? vs_ownmap_mark_range(m, first, end, owner, kind) : 0;
}
