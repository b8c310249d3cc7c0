/* SPDX-License-Identifier: Zlib */
/* ownmap.c - who holds each unit of an arena, as runs.
 *
 * A run is a maximal range of units with one owner and one kind: two
 * neighbouring runs always differ, so the free runs are exactly the free
 * extents. The runs are the nodes of a treap keyed by first unit (a binary
 * search tree that random priorities keep balanced, O(log n) deep), each
 * node also holding the longest free run below it. Marking a range splits
 * the tree at its two ends, drops the runs inside and joins the pieces
 * around one new run: O(log n + runs dropped), whatever the range's length.
 * Memory is one node per run (what the live allocations need), not per
 * unit. Free units, free runs and the longest free run are read in O(1).
 */
#include <stdlib.h>
#include <string.h>

#include "ownmap_int.h"

typedef struct om_node {
	uint32_t start, len, owner;
	uint32_t l, r;      /* children; 0 is none (node 0 is never used) */
	uint32_t up;        /* parent, 0 at the root; set by pull */
	uint32_t pri;       /* a parent's priority is >= its children's */
	uint32_t maxfree;   /* longest free run in this subtree, units */
	uint8_t kind;
} om_node;

struct vs_ownmap {
	vs_ownunits *u;             /* the per-unit form instead, when not NULL */
	uint32_t nunits, root;
	om_node *n;
	uint32_t cap, used, spare;  /* slots allocated, handed out, head of the reuse list (via l) */
	uint32_t runs, free_units, free_runs;
	uint32_t seed;              /* xorshift state: priorities, the same every run */
	uint32_t hint;              /* the run last made, changed or read, 0 when none;
	                             * readers take a const map and still set it (see ownmap_int.h) */
};

#define N(i) (m->n[i])

/* Every node whose children change is pulled afterwards (its longest
 * free run depends on them), so this is also where children learn their
 * parent. Node 0's parent is written and never read. */
static void pull(vs_ownmap *m, uint32_t t)
{
	om_node *x = &N(t);
	uint32_t best = x->kind == VS_UNIT_FREE ? x->len : 0;

	N(x->l).up = t;
	N(x->r).up = t;
	if (N(x->l).maxfree > best)
		best = N(x->l).maxfree;
	if (N(x->r).maxfree > best)
		best = N(x->r).maxfree;
	x->maxfree = best;
}

static void account(vs_ownmap *m, uint32_t t, int sign)
{
	m->runs += (uint32_t)sign;
	if (N(t).kind == VS_UNIT_FREE) {
		m->free_units += (uint32_t)sign * N(t).len;
		m->free_runs += (uint32_t)sign;
	}
}

/* Room for k more nodes, so no node moves while a change is under way. */
static int reserve(vs_ownmap *m, uint32_t k)
{
	uint32_t have = m->cap - m->used, t;
	om_node *p;
	size_t cap;

	for (t = m->spare; t && have < k; t = N(t).l)
		have++;
	if (have >= k)
		return 0;
	cap = m->cap ? (size_t)m->cap * 2 : 64;
	if (cap < (size_t)m->used + k)
		cap = (size_t)m->used + k;
	if (cap > UINT32_MAX)
		return -1;
	p = realloc(m->n, cap * sizeof *p);
	if (!p)
		return -1;
	m->n = p;
	m->cap = (uint32_t)cap;
	return 0;
}

static uint32_t node_new(vs_ownmap *m, uint32_t start, uint32_t len, uint32_t owner, uint8_t kind)
{
	uint32_t t, s = m->seed;
	om_node *x;

	if (m->spare) {
		t = m->spare;
		m->spare = N(t).l;
	} else {
		t = m->used++;
	}
	s ^= s << 13;
	s ^= s >> 17;
	s ^= s << 5;
	m->seed = s;
	x = &N(t);
	x->start = start;
	x->len = len;
	x->owner = owner;
	x->kind = kind;
	x->l = x->r = 0;
	x->pri = s;
	pull(m, t);
	account(m, t, +1);
	m->hint = t;
	return t;
}

static void node_drop(vs_ownmap *m, uint32_t t)
{
	if (m->hint == t)
		m->hint = 0;
	account(m, t, -1);
	N(t).l = m->spare;
	m->spare = t;
}

static void drop_tree(vs_ownmap *m, uint32_t t)
{
	while (t) {
		uint32_t r = N(t).r;
		drop_tree(m, N(t).l);
		node_drop(m, t);
		t = r;
	}
}

/* Runs starting before key go to *a, the others to *b. */
static void split(vs_ownmap *m, uint32_t t, uint32_t key, uint32_t *a, uint32_t *b)
{
	if (!t) {
		*a = *b = 0;
		return;
	}
	if (N(t).start < key) {
		split(m, N(t).r, key, &N(t).r, b);
		*a = t;
	} else {
		split(m, N(t).l, key, a, &N(t).l);
		*b = t;
	}
	pull(m, t);
}

/* Runs ending at or before key go to *a, the others to *b. */
static void split_end(vs_ownmap *m, uint32_t t, uint32_t key, uint32_t *a, uint32_t *b)
{
	if (!t) {
		*a = *b = 0;
		return;
	}
	if (N(t).start + N(t).len <= key) {
		split_end(m, N(t).r, key, &N(t).r, b);
		*a = t;
	} else {
		split_end(m, N(t).l, key, a, &N(t).l);
		*b = t;
	}
	pull(m, t);
}

static uint32_t peek_min(const vs_ownmap *m, uint32_t t)
{
	while (t && N(t).l)
		t = N(t).l;
	return t;
}

static uint32_t peek_max(const vs_ownmap *m, uint32_t t)
{
	while (t && N(t).r)
		t = N(t).r;
	return t;
}

/* Every run of a before every run of b. */
static uint32_t merge(vs_ownmap *m, uint32_t a, uint32_t b)
{
	if (!a || !b)
		return a ? a : b;
	if (N(a).pri >= N(b).pri) {
		N(a).r = merge(m, N(a).r, b);
		pull(m, a);
		return a;
	}
	N(b).l = merge(m, a, N(b).l);
	pull(m, b);
	return b;
}

/* Takes the last (first) run out of t into *out; returns what is left. */
static uint32_t pop_max(vs_ownmap *m, uint32_t t, uint32_t *out)
{
	if (!t) {
		*out = 0;
		return 0;
	}
	if (!N(t).r) {
		uint32_t l = N(t).l;
		*out = t;
		N(t).l = 0;
		pull(m, t);
		return l;
	}
	N(t).r = pop_max(m, N(t).r, out);
	pull(m, t);
	return t;
}

static uint32_t pop_min(vs_ownmap *m, uint32_t t, uint32_t *out)
{
	if (!t) {
		*out = 0;
		return 0;
	}
	if (!N(t).l) {
		uint32_t r = N(t).r;
		*out = t;
		N(t).r = 0;
		pull(m, t);
		return r;
	}
	N(t).l = pop_min(m, N(t).l, out);
	pull(m, t);
	return t;
}

/* The runs just before and after t in address order, 0 when none. */
static uint32_t pred(const vs_ownmap *m, uint32_t t)
{
	uint32_t a;

	if (N(t).l)
		return peek_max(m, N(t).l);
	for (a = N(t).up; a && N(a).l == t; a = N(a).up)
		t = a;
	return a;
}

static uint32_t succ(const vs_ownmap *m, uint32_t t)
{
	uint32_t a;

	if (N(t).r)
		return peek_min(m, N(t).r);
	for (a = N(t).up; a && N(a).r == t; a = N(a).up)
		t = a;
	return a;
}

/* The run holding u. Marks and reads come in address order through an
 * allocation's pieces (the placement check, then its marks; a free's
 * reads, then its marks) and the heatmap's samples go up the map, so the
 * search starts at the hint, the run last marked or read: it climbs to the
 * first ancestor on the far side of u (a subtree's runs cover every unit
 * between the ancestors bounding it, and the hint is inside) and descends
 * from there, O(log of the runs between) rather than O(log n). The run
 * found becomes the hint: the one write a reader makes, to a map only its
 * own thread uses (ownmap_int.h). */
/* Whether u is more than OM_NEAR runs of the average length away from
 * run t: a climb from t would then cost more than the descent it saves. */
#define OM_NEAR 16

static int far(const vs_ownmap *m, uint32_t t, uint32_t u)
{
	uint32_t d = u < N(t).start ? N(t).start - u : u - N(t).start;

	return (uint64_t)d * m->runs > (uint64_t)OM_NEAR * m->nunits;
}

static uint32_t find(const vs_ownmap *m, uint32_t u)
{
	uint32_t t = m->hint, a;

	if (!t || far(m, t, u)) {
		t = m->root;
	} else if (u < N(t).start) {
		/* up to the first ancestor a with t right of it and its run
		 * starting at or before u: u is in a's run or in t's subtree (from
		 * a's run on to the hint). One test per step (& not &&), so one
		 * branch to predict. */
		while ((a = N(t).up) != 0 && !((N(a).r == t) & (u >= N(a).start)))
			t = a;
		if (a && u - N(a).start < N(a).len) {
			t = a;
			goto found;
		}
	} else if (u - N(t).start >= N(t).len) {
		/* the same to the right: a with t left of it and its run ending
		 * after u; t's subtree runs from the hint up to a's run */
		while ((a = N(t).up) != 0 && !((N(a).l == t) & (u < N(a).start + N(a).len)))
			t = a;
		if (a && u >= N(a).start) {
			t = a;
			goto found;
		}
	}
	while (t) {
		if (u < N(t).start)
			t = N(t).l;
		else if (u - N(t).start >= N(t).len)
			t = N(t).r;
		else
			goto found;
	}
	return 0;
found:
	((vs_ownmap *)m)->hint = t; /* no map is made const: only its readers see it so */
	return t;
}

/* Pulls t, then its ancestors while their longest free run changes:
 * nothing above a node whose longest free run stayed can have changed. */
static void fix_up(vs_ownmap *m, uint32_t t)
{
	while (t) {
		uint32_t was = N(t).maxfree;
		pull(m, t);
		if (N(t).maxfree == was)
			break;
		t = N(t).up;
	}
}

static void set_root(vs_ownmap *m, uint32_t t)
{
	m->root = t;
	N(t).up = 0;
}

/* Node x (not in the tree) put in right after run t (before it when
 * before is set): as a leaf next to t, then rotated up while its parent's
 * priority is lower, which gives the tree a descent from the root by
 * priority would (O(1) rotations expected, none of the O(log n) descent). */
static void insert_next(vs_ownmap *m, uint32_t x, uint32_t t, int before)
{
	uint32_t p, g;

	if (before)
		p = N(t).l ? peek_max(m, N(t).l) : t;
	else
		p = N(t).r ? peek_min(m, N(t).r) : t;
	if (before == (p == t))
		N(p).l = x;
	else
		N(p).r = x;
	N(x).up = p;
	while (p && N(p).pri < N(x).pri) {
		g = N(p).up;
		if (N(p).l == x) {
			N(p).l = N(x).r;
			N(x).r = p;
		} else {
			N(p).r = N(x).l;
			N(x).l = p;
		}
		pull(m, p);
		if (!g)
			m->root = x;
		else if (N(g).l == p)
			N(g).l = x;
		else
			N(g).r = x;
		N(x).up = g;
		p = g;
	}
	pull(m, x);
	fix_up(m, p);
}

/* Run t taken out of the tree and dropped. */
static void erase_run(vs_ownmap *m, uint32_t t)
{
	uint32_t above = N(t).up, rest = merge(m, N(t).l, N(t).r);

	if (!above)
		set_root(m, rest);
	else if (N(above).l == t)
		N(above).l = rest;
	else
		N(above).r = rest;
	N(rest).up = above;
	node_drop(m, t);
	fix_up(m, above);
}

/* Run t gets start and length (its neighbours keep it in key order). */
static void resize(vs_ownmap *m, uint32_t t, uint32_t start, uint32_t len)
{
	account(m, t, -1);
	N(t).start = start;
	N(t).len = len;
	account(m, t, +1);
	fix_up(m, t);
	m->hint = t;
}

static int same_as(const vs_ownmap *m, uint32_t t, uint32_t owner, uint8_t k)
{
	return t && N(t).owner == owner && N(t).kind == k;
}

/* A mark inside the one run t, which holds something else: t shrinks or
 * changes in place, a neighbour with the new owner and kind grows, and at
 * most two runs are put in or taken out, each O(log n) without splitting
 * the whole tree. Most marks are so: an allocation taken from a free run,
 * a free of one run. Room for two nodes is reserved. */
static void set_within(vs_ownmap *m, uint32_t t, uint32_t first, uint32_t end, uint32_t owner, uint8_t k)
{
	uint32_t ts = N(t).start, te = ts + N(t).len, x;
	/* the neighbours matter only at an end the mark shares with t */
	uint32_t p = first == ts ? pred(m, t) : 0, q = end == te ? succ(m, t) : 0;
	int eqp = same_as(m, p, owner, k), eqq = same_as(m, q, owner, k);

	if (first == ts && end == te) {
		if (eqp) {
			/* p takes t's units (and q's if it holds the same) */
			uint32_t pe = te;
			if (eqq) {
				pe = N(q).start + N(q).len;
				erase_run(m, q);
			}
			erase_run(m, t);
			resize(m, p, N(p).start, pe - N(p).start);
		} else if (eqq) {
			uint32_t qe = N(q).start + N(q).len;
			erase_run(m, q);
			account(m, t, -1);
			N(t).owner = owner;
			N(t).kind = k;
			N(t).len = qe - ts;
			account(m, t, +1);
			fix_up(m, t);
			m->hint = t;
		} else {
			account(m, t, -1);
			N(t).owner = owner;
			N(t).kind = k;
			account(m, t, +1);
			fix_up(m, t);
			m->hint = t;
		}
		return;
	}
	if (first == ts) {
		resize(m, t, end, te - end);
		if (eqp) {
			resize(m, p, N(p).start, N(p).len + (end - first));
			return;
		}
		insert_next(m, node_new(m, first, end - first, owner, k), t, 1);
		return;
	}
	resize(m, t, ts, first - ts);
	if (end == te) {
		if (eqq) {
			resize(m, q, first, N(q).len + (end - first));
			return;
		}
	} else {
		x = node_new(m, end, te - end, N(t).owner, N(t).kind);
		insert_next(m, x, t, 0);
	}
	insert_next(m, node_new(m, first, end - first, owner, k), t, 0);
}

void vs_ownmap_clear(vs_ownmap *m)
{
	if (m->u) {
		vs_ownunits_clear(m->u);
		return;
	}
	m->used = 1; /* node 0 is "none": no children, no free run */
	m->spare = 0;
	m->runs = m->free_units = m->free_runs = 0;
	m->seed = 0x9E3779B9u;
	memset(&N(0), 0, sizeof N(0));
	set_root(m, node_new(m, 0, m->nunits, VS_OWNER_NONE, VS_UNIT_FREE));
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
	/* room for every range the hardware reserves, so vs_ownmap_clear and
	 * the marks that follow it never allocate */
	if (reserve(m, 64)) {
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
	return m;
}

void vs_ownmap_free(vs_ownmap *m)
{
	if (!m)
		return;
	vs_ownunits_free(m->u);
	free(m->n);
	free(m);
}

/* A mark from run t over at most OM_ACROSS runs after it: those wholly
 * inside are taken out, the last one trimmed, t stretched to the end of
 * the range and the mark made inside it. 0, or -1 (nothing done) when the
 * range reaches further: splitting the tree is cheaper then. */
#define OM_ACROSS 4

static int set_across(vs_ownmap *m, uint32_t t, uint32_t first, uint32_t end, uint32_t owner, uint8_t k)
{
	uint32_t runs[OM_ACROSS], u = N(t).start + N(t).len, n = 0, i, q, last;

	while (u < end) {
		if (n == OM_ACROSS)
			return -1;
		runs[n] = find(m, u);
		u = N(runs[n]).start + N(runs[n]).len;
		n++;
	}
	last = runs[n - 1];
	for (i = 0; i + 1 < n; i++)
		erase_run(m, runs[i]);
	if (u == end)
		erase_run(m, last);
	else
		resize(m, last, end, u - end);
	resize(m, t, N(t).start, end - N(t).start);
	t = find(m, first);
	if (!same_as(m, t, owner, k)) {
		set_within(m, t, first, end, owner, k);
	} else if (same_as(m, q = succ(m, t), owner, k)) {
		u = N(q).start + N(q).len;
		erase_run(m, q);
		resize(m, t, N(t).start, u - N(t).start);
	}
	return 0;
}

static int tree_set(vs_ownmap *m, uint32_t first, uint32_t count, uint32_t owner, uint8_t k)
{
	uint32_t end, lo, mid, hi, t, s, e, ps, po, qe, qo, left = 0, right = 0;
	uint8_t pk, qk;

	end = count > m->nunits - first ? m->nunits : first + count;
	t = find(m, first);
	if (N(t).owner == owner && N(t).kind == k && N(t).start + N(t).len >= end)
		return 0; /* already so */
	if (reserve(m, 2))
		return -1;
	if (end <= N(t).start + N(t).len) {
		set_within(m, t, first, end, owner, k);
		return 0;
	}
	if (set_across(m, t, first, end, owner, k) == 0)
		return 0;
	/* lo: the runs before the range, mid: every run it touches, hi: the rest */
	split_end(m, m->root, first, &lo, &hi);
	split(m, hi, end, &mid, &hi);
	t = peek_min(m, mid);
	ps = N(t).start;
	po = N(t).owner;
	pk = N(t).kind;
	t = peek_max(m, mid);
	qe = N(t).start + N(t).len;
	qo = N(t).owner;
	qk = N(t).kind;
	drop_tree(m, mid); /* at least one node back: three fit */
	/* what the first and last runs keep outside the range stays; equal
	 * neighbours join the new run so runs stay maximal */
	s = first;
	e = end;
	if (ps < first) {
		if (po == owner && pk == k)
			s = ps;
		else
			left = node_new(m, ps, first - ps, po, pk);
	} else if ((t = peek_max(m, lo)) && N(t).owner == owner && N(t).kind == k) {
		s = N(t).start;
		lo = pop_max(m, lo, &t);
		node_drop(m, t);
	}
	if (qe > end) {
		if (qo == owner && qk == k)
			e = qe;
		else
			right = node_new(m, end, qe - end, qo, qk);
	} else if ((t = peek_min(m, hi)) && N(t).owner == owner && N(t).kind == k) {
		e = N(t).start + N(t).len;
		hi = pop_min(m, hi, &t);
		node_drop(m, t);
	}
	mid = merge(m, merge(m, left, node_new(m, s, e - s, owner, k)), right);
	set_root(m, merge(m, merge(m, lo, mid), hi));
	return 0;
}

int vs_ownmap_set(vs_ownmap *m, uint32_t first, uint32_t count, uint32_t owner, vs_unit_kind kind)
{
	if (first >= m->nunits || count == 0)
		return 0;
	if (kind == VS_UNIT_FREE)
		owner = VS_OWNER_NONE; /* free units have no owner: free runs stay maximal */
	if (m->u) {
		vs_ownunits_set(m->u, first, count, owner, kind);
		return 0;
	}
	return tree_set(m, first, count, owner, (uint8_t)kind);
}

int vs_ownmap_run_at(const vs_ownmap *m, uint32_t unit, vs_own_run *out)
{
	uint32_t t;

	if (m->u)
		return vs_ownunits_run_at(m->u, unit, out);
	t = unit < m->nunits ? find(m, unit) : 0;
	if (!t)
		return -1;
	out->first = N(t).start;
	out->count = N(t).len;
	out->owner = N(t).owner;
	out->kind = (vs_unit_kind)N(t).kind;
	return 0;
}

int vs_ownmap_unit_at(const vs_ownmap *m, uint32_t unit, uint32_t *owner, vs_unit_kind *kind)
{
	uint32_t t;

	if (m->u)
		return vs_ownunits_unit_at(m->u, unit, owner, kind);
	t = unit < m->nunits ? find(m, unit) : 0;
	if (!t)
		return -1;
	*owner = N(t).owner;
	*kind = (vs_unit_kind)N(t).kind;
	return 0;
}

int64_t vs_ownmap_first_taken(const vs_ownmap *m, uint32_t first, uint32_t count)
{
	uint32_t t, end;

	if (m->u)
		return vs_ownunits_first_taken(m->u, first, count);
	if (first >= m->nunits || count == 0)
		return -1;
	end = count > m->nunits - first ? m->nunits : first + count;
	t = find(m, first);
	if (N(t).kind != VS_UNIT_FREE)
		return first;
	/* runs are maximal: the one after a free run is taken */
	return N(t).start + N(t).len >= end ? -1 : (int64_t)N(t).start + N(t).len;
}

void vs_ownmap_stats(const vs_ownmap *m, uint32_t *largest, uint32_t *runs, uint32_t *nfree)
{
	if (m->u) {
		vs_ownunits_stats(m->u, largest, runs, nfree);
		return;
	}
	if (largest)
		*largest = N(m->root).maxfree;
	if (runs)
		*runs = m->free_runs;
	if (nfree)
		*nfree = m->free_units;
}

uint32_t vs_ownmap_runs(const vs_ownmap *m)
{
	return m->u ? vs_ownunits_runs(m->u) : m->runs;
}

size_t vs_ownmap_bytes(const vs_ownmap *m)
{
	return sizeof *m + (m->u ? vs_ownunits_bytes(m->u) : (size_t)m->cap * sizeof *m->n);
}

/* In address order, the runs of t that overlap [lo, hi), clipped to it. */
static int walk(const vs_ownmap *m, uint32_t t, uint32_t lo, uint32_t hi, int free_only,
	int (*fn)(void *ud, const vs_own_run *run), void *ud)
{
	while (t && (!free_only || N(t).maxfree)) {
		const om_node *x = &N(t);
		vs_own_run run;
		int rc;
		if (x->start >= hi) {
			t = x->l;
			continue;
		}
		if (x->start + x->len <= lo) {
			t = x->r;
			continue;
		}
		if (x->start > lo && (rc = walk(m, x->l, lo, hi, free_only, fn, ud)) != 0)
			return rc;
		if (!free_only || x->kind == VS_UNIT_FREE) {
			run.first = x->start > lo ? x->start : lo;
			run.count = (x->start + x->len < hi ? x->start + x->len : hi) - run.first;
			run.owner = x->owner;
			run.kind = (vs_unit_kind)x->kind;
			if ((rc = fn(ud, &run)) != 0)
				return rc;
		}
		t = x->r;
	}
	return 0;
}

int vs_ownmap_walk(const vs_ownmap *m, uint32_t first, uint32_t count, int free_only,
	int (*fn)(void *ud, const vs_own_run *run), void *ud)
{
	uint32_t end;

	if (m->u)
		return vs_ownunits_walk(m->u, first, count, free_only, fn, ud);
	if (first >= m->nunits || count == 0)
		return 0;
	end = count > m->nunits - first ? m->nunits : first + count;
	return walk(m, m->root, first, end, free_only, fn, ud);
}
