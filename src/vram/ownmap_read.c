/* SPDX-License-Identifier: Zlib */
/* ownmap_read.c - the ownership map read: the run or owner at a unit, the
 * free statistics, a walk over the runs in address order, and the
 * structure check for tests. Each hands itself to the per-unit form
 * (ownunits.c) when the map has one; the runs form's look-up and edits are
 * in ownmap.c. A block entry (ownmap_tree.h) is read as its runs.
 */
#include "ownmap_tree.h"
#include "vram/arena.h"

/* The run of entry e holding unit u: the entry, or its block's run there. */
static void entry_run(const om_ent *e, uint32_t u, vs_own_run *out)
{
	vs_own_run p[4];
	uint32_t n, j;

	if (!is_block(e->kind)) {
		out->first = e->key;
		out->count = e->len;
		out->owner = e->ref;
		out->kind = (vs_unit_kind)e->kind;
		return;
	}
	n = block_runs(e->key, e->len, e->ref, e->kind, p);
	for (j = 0; j + 1 < n && u >= p[j].first + p[j].count; j++)
		;
	*out = p[j];
}

int vs_ownmap_run_at(const vs_ownmap *m, uint32_t unit, vs_own_run *out)
{
	uint32_t t, i;

	if (m->u)
		return vs_ownunits_run_at(m->u, unit, out);
	if (unit >= m->nunits)
		return -1;
	t = vs_owntree_find(m, unit, &i);
	entry_run(&N(t).e[i], unit, out);
	return 0;
}

int vs_ownmap_unit_at(const vs_ownmap *m, uint32_t unit, uint32_t *owner, vs_unit_kind *kind)
{
	uint32_t t, i;

	if (m->u)
		return vs_ownunits_unit_at(m->u, unit, owner, kind);
	if (unit >= m->nunits)
		return -1;
	t = vs_owntree_find(m, unit, &i);
	if (is_block(N(t).e[i].kind)) {
		vs_own_run r;
		entry_run(&N(t).e[i], unit, &r);
		*owner = r.owner;
		*kind = r.kind;
		return 0;
	}
	*owner = N(t).e[i].ref;
	*kind = (vs_unit_kind)N(t).e[i].kind;
	return 0;
}

int64_t vs_ownmap_first_taken(const vs_ownmap *m, uint32_t first, uint32_t count)
{
	uint32_t end = clip_end(m, first, count);

	return end ? vs_ownmap_first_taken_range(m, first, end) : -1;
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
	if (m->u)
		return sizeof *m + vs_ownunits_bytes(m->u);
	return sizeof *m + (size_t)m->cap * sizeof *m->n + (m->dir ? dir_len(m) * sizeof *m->dir : 0);
}

int vs_ownmap_walk(const vs_ownmap *m, uint32_t first, uint32_t count, int free_only,
	int (*fn)(void *ud, const vs_own_run *run), void *ud)
{
	uint32_t end, t, i;

	if (m->u)
		return vs_ownunits_walk(m->u, first, count, free_only, fn, ud);
	if ((end = clip_end(m, first, count)) == 0)
		return 0;
	/* leaf by leaf along the links, skipping leaves without a free run */
	for (t = vs_owntree_find(m, first, &i); t && N(t).e[0].key < end; t = N(t).next, i = 0) {
		const om_node *x = &N(t);
		if (free_only && !x->maxfree)
			continue;
		for (; i < x->n && x->e[i].key < end; i++) {
			vs_own_run p[4];
			uint32_t n = 1, j;
			int rc;
			if (free_only && x->e[i].kind != VS_UNIT_FREE)
				continue;
			if (is_block(x->e[i].kind))
				n = block_runs(x->e[i].key, x->e[i].len, x->e[i].ref, x->e[i].kind, p);
			else
				entry_run(&x->e[i], x->e[i].key, &p[0]);
			for (j = 0; j < n && p[j].first < end; j++) {
				vs_own_run run = p[j];
				if (run.first + run.count <= first)
					continue;
				run.first = p[j].first > first ? p[j].first : first;
				run.count = (p[j].first + p[j].count < end ? p[j].first + p[j].count : end) - run.first;
				if ((rc = fn(ud, &run)) != 0)
					return rc;
			}
		}
	}
	return 0;
}

/* The checks of vs_ownmap_check below one node: returns the number of the
 * first broken rule (negative), else 0; *last is the leaf before. */
typedef struct om_check {
	uint32_t last, next_key, runs, free_units, free_runs, hint_seen, blocks;
	uint32_t pk, po; /* kind and owner of the run before (pk 0xFF: none) */
} om_check;

static int check_node(const vs_ownmap *m, uint32_t t, uint32_t depth, om_check *c)
{
	const om_node *x = &N(t);
	uint32_t i;
	int rc;

	if (x->n == 0 || x->n > OM_B)
		return -1;
	if (x->maxfree != node_maxfree(x))
		return -2;
	if (x->e[0].key != c->next_key)
		return -3; /* the runs do not follow on from the ones before */
	if (!x->leaf) {
		if (depth >= m->height)
			return -4;
		for (i = 0; i < x->n; i++) {
			const om_node *y = &N(x->e[i].ref);
			if (y->up != t || y->pos != i || x->e[i].key != y->e[0].key || x->e[i].len != y->maxfree)
				return -5;
			if ((rc = check_node(m, x->e[i].ref, depth + 1, c)) != 0)
				return rc;
		}
		return 0;
	}
	if (depth + 1 != m->height)
		return -6; /* leaves not all at one depth */
	if (x->prev != c->last || (c->last && N(c->last).next != t))
		return -7;
	for (i = 0; i < x->n; i++) {
		const om_ent *e = &x->e[i];
		vs_own_run p[4];
		uint32_t n = 1, j;
		if (e->key != c->next_key || e->len == 0)
			return -8;
		if (is_block(e->kind)) {
			if ((e->kind & 0xFF) != OM_BLOCK || e->ref == VS_OWNER_NONE ||
				(e->kind >> 8 & 0xFF) + (e->kind >> 16 & 0xFF) + (e->kind >> 24) >= e->len)
				return -16; /* a block entry standing for no runs, or for no data */
			n = block_runs(e->key, e->len, e->ref, e->kind, p);
			c->blocks++;
		} else {
			entry_run(e, e->key, &p[0]);
		}
		for (j = 0; j < n; j++) {
			if (c->pk == (uint32_t)p[j].kind && c->po == p[j].owner)
				return -9; /* two equal neighbours: runs not maximal */
			if (p[j].kind == VS_UNIT_FREE && p[j].owner != VS_OWNER_NONE)
				return -10;
			c->runs++;
			if (p[j].kind == VS_UNIT_FREE) {
				c->free_units += p[j].count;
				c->free_runs++;
			}
			c->pk = (uint32_t)p[j].kind;
			c->po = p[j].owner;
		}
		c->next_key = e->key + e->len;
	}
	c->hint_seen |= m->hint == t;
	c->last = t;
	return 0;
}

int vs_ownmap_check(const vs_ownmap *m)
{
	om_check c = { 0, 0, 0, 0, 0, 0, 0, 0xFF, 0 };
	size_t i;
	int rc;

	if (m->u)
		return 0;
	if (N(m->root).up != 0)
		return -11;
	if ((rc = check_node(m, m->root, 0, &c)) != 0)
		return rc;
	if (c.next_key != m->nunits || N(c.last).next != 0)
		return -12;
	if (c.runs != m->runs || c.free_units != m->free_units || c.free_runs != m->free_runs || c.blocks != m->blocks)
		return -13;
	if (m->hint && !c.hint_seen)
		return -14;
	for (i = 0; m->dir && i < dir_len(m); i++)
		if (m->dir[i].leaf >= m->used || m->dir[i].slot >= OM_B)
			return -15; /* a directory entry names no node handed out */
	return 0;
}
