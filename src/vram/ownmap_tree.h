/* SPDX-License-Identifier: Zlib */
/* ownmap_tree.h - the runs form's nodes, for its two files: ownmap.c (the
 * look-ups and the edits) and ownmap_read.c (the readers and the
 * structure check). Not for anything else: the rest of vramsim sees the map
 * through ownmap.h and ownmap_int.h.
 *
 * The runs sit in address order in the leaves of a B+-tree, up to OM_B a
 * leaf; ownmap.c's head comment tells the whole design.
 */
#ifndef VRAMSIM_OWNMAP_TREE_H
#define VRAMSIM_OWNMAP_TREE_H

#include "ownmap_int.h"

/* entries a node: 1.5 KiB. With 64, a small map (a DS texture stream's few
 * hundred runs) took more leaves, and more of its look-ups left the last
 * leaf; 128 would make a new map's two nodes 4 KiB. */
#define OM_B 96
#define OM_MIN (OM_B / 4) /* fewer, and a node is joined with a sibling */
/* stretches of units the directory of leaves splits a map into, at most:
 * 8 KiB a map of more than one leaf, and each leaf of a heap's few
 * thousand runs (some 40 leaves) spans tens of them, so most look-ups
 * skip the descent from the root (all but 3.3% on vs_bench's RAM trace),
 * and most find their run where the last look-up in the stretch did (60%
 * there) */
#define OM_DIR 1024

typedef struct om_ent {
	uint32_t key;  /* first unit of the run, or of the child's runs */
	uint32_t len;  /* leaf: run length; inner: the child's longest free run */
	uint32_t ref;  /* leaf: owner; inner: child node */
	uint32_t kind; /* leaf: kind */
} om_ent;

struct om_node {
	om_ent e[OM_B];
	uint32_t n;          /* entries in use */
	uint32_t up, pos;    /* parent (0 at the root), and the entry there */
	uint32_t prev, next; /* leaves: neighbours in address order, 0 at the ends */
	uint32_t maxfree;    /* longest free run in this subtree, units */
	uint8_t leaf;
};
typedef struct om_node om_node;

/* A directory entry: the leaf and the entry in it last found for a unit of
 * the stretch; a hint, checked before use (leaf 0: none). */
struct om_dir {
	uint32_t leaf, slot;
};

#define N(i) (m->n[i])

/* ---- blocks ----------------------------------------------------------------
 * A heap block taken whole (vs_owntree_take_runs: header, data, slack and
 * tail of one owner) is one entry whose kind carries the lengths of the
 * pieces around its data, each under 256 units: OM_BLOCK | header << 8 |
 * slack << 16 | tail << 24. It is still those three or four runs to every
 * reader (run_at, unit_at, walk, the run count) and to the maximal-runs
 * rule; a mark that cuts into one, or that would join one of its pieces,
 * first turns it back into its runs (explode). One entry where there were
 * three or four: fewer leaves, shorter moves and searches. */
#define OM_BLOCK 0x80u
#define OM_PIECE_MAX 255u

static inline int is_block(uint32_t k)
{
	return (k & OM_BLOCK) != 0;
}

/* The runs of block entry (key, len, owner, k), in address order: their count. */
static inline uint32_t block_runs(uint32_t key, uint32_t len, uint32_t owner, uint32_t k, vs_own_run p[4])
{
	uint32_t head = k >> 8 & 0xFF, slack = k >> 16 & 0xFF, tail = k >> 24, n = 0, at = key;
	uint32_t part[4] = { head, len - head - slack - tail, slack, tail };
	static const vs_unit_kind kinds[4] = { VS_UNIT_OVERHEAD, VS_UNIT_DATA, VS_UNIT_SLACK, VS_UNIT_OVERHEAD };
	uint32_t j;

	for (j = 0; j < 4; j++) {
		if (!part[j])
			continue;
		p[n].first = at;
		p[n].count = part[j];
		p[n].owner = owner;
		p[n++].kind = kinds[j];
		at += part[j];
	}
	return n;
}

/* The runs a block kind stands for (the data and each piece not empty). */
static inline uint32_t block_count(uint32_t k)
{
	return 1u + ((k >> 8 & 0xFF) != 0) + ((k >> 16 & 0xFF) != 0) + ((k >> 24) != 0);
}

static inline uint32_t leaf_end(const om_node *x)
{
	return x->e[x->n - 1].key + x->e[x->n - 1].len;
}

static inline uint32_t node_maxfree(const om_node *x)
{
	uint32_t i, best = 0;

	if (x->leaf) {
		/* a mask, not a choice: GCC made the choice a branch, which free
		 * and taken runs taking turns mispredict; two maxima, so each
		 * step waits on the one two entries back */
		uint32_t b2 = 0;
		for (i = 0; i + 1 < x->n; i += 2) {
			uint32_t f = x->e[i].len & (0u - (x->e[i].kind == VS_UNIT_FREE));
			uint32_t g = x->e[i + 1].len & (0u - (x->e[i + 1].kind == VS_UNIT_FREE));
			best = f > best ? f : best;
			b2 = g > b2 ? g : b2;
		}
		if (i < x->n) {
			uint32_t f = x->e[i].len & (0u - (x->e[i].kind == VS_UNIT_FREE));
			best = f > best ? f : best;
		}
		best = b2 > best ? b2 : best;
	} else {
		for (i = 0; i < x->n; i++)
			best = x->e[i].len > best ? x->e[i].len : best;
	}
	return best;
}
static inline size_t dir_len(const vs_ownmap *m)
{
	return (size_t)((m->nunits - 1) >> m->dir_shift) + 1;
}

/* The end of units [first, first + count) clipped to the map, or 0 when
 * the range is empty or past it. */
static inline uint32_t clip_end(const vs_ownmap *m, uint32_t first, uint32_t count)
{
	if (first >= m->nunits || count == 0)
		return 0;
	return count > m->nunits - first ? m->nunits : first + count;
}

#endif
