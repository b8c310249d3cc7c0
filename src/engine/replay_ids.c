/* SPDX-License-Identifier: Zlib */
/* replay_ids.c - the replay's id table: trace ids to record handles
 * (several ids may share one record: BG tile hits), and the ids of recent
 * failed allocations, so misuse can be diagnosed; and the ring of recently
 * freed ids, to tell a double free from an unknown id without remembering
 * every id a long trace ever used. The table: linear probing,
 * backward-shift deletion. */
#include <stdlib.h>

#include "replay_int.h"

static uint32_t id_hash(uint64_t id)
{
	id ^= id >> 33;
	id *= 0xff51afd7ed558ccdull;
	id ^= id >> 33;
	return (uint32_t)id;
}

id_slot *vs_replay_id_find(vs_replay *r, uint64_t id)
{
	uint32_t mask = r->ids_cap - 1, i;

	for (i = id_hash(id) & mask; r->ids[i].handle; i = (i + 1) & mask)
		if (r->ids[i].id == id)
			return &r->ids[i];
	return NULL;
}

id_slot *vs_replay_id_find_gap(vs_replay *r, uint64_t id, id_gap *g)
{
	uint32_t mask = r->ids_cap - 1, i;

	g->ids = NULL; /* no gap: id_put_gap probes again */
	g->used = g->at = 0;
	for (i = id_hash(id) & mask; r->ids[i].handle; i = (i + 1) & mask)
		if (r->ids[i].id == id)
			return &r->ids[i];
	g->ids = r->ids;
	g->used = r->ids_used;
	g->at = i;
	return NULL;
}

/* id_put of an id id_find_gap did not find: straight into the gap when
 * the table has had no insertion, deletion or growth since (one hash and
 * probe an allocation, not two). */
int vs_replay_id_put_gap(vs_replay *r, const id_gap *g, uint64_t id, uint32_t handle, uint32_t arena)
{
	if (g->ids != r->ids || g->used != r->ids_used || 2 * (r->ids_used + 1) > r->ids_cap)
		return vs_replay_id_put(r, id, handle, arena);
	r->ids[g->at].id = id;
	r->ids[g->at].handle = handle;
	r->ids[g->at].arena = arena;
	r->ids_used++;
	return 0;
}

static int id_grow(vs_replay *r)
{
	uint32_t ncap = r->ids_cap * 2, i, mask = ncap - 1;
	id_slot *n = calloc(ncap, sizeof *n);

	if (!n)
		return -1;
	for (i = 0; i < r->ids_cap; i++) {
		uint32_t j;
		if (!r->ids[i].handle)
			continue;
		for (j = id_hash(r->ids[i].id) & mask; n[j].handle; j = (j + 1) & mask)
			;
		n[j] = r->ids[i];
	}
	free(r->ids);
	r->ids = n;
	r->ids_cap = ncap;
	return 0;
}

int vs_replay_id_put(vs_replay *r, uint64_t id, uint32_t handle, uint32_t arena)
{
	uint32_t mask, i;

	if (2 * (r->ids_used + 1) > r->ids_cap && id_grow(r))
		return -1;
	mask = r->ids_cap - 1;
	for (i = id_hash(id) & mask; r->ids[i].handle; i = (i + 1) & mask)
		if (r->ids[i].id == id)
			break;
	if (!r->ids[i].handle)
		r->ids_used++;
	r->ids[i].id = id;
	r->ids[i].handle = handle;
	r->ids[i].arena = arena;
	return 0;
}

void vs_replay_id_del(vs_replay *r, id_slot *s)
{
	uint32_t mask = r->ids_cap - 1, i = (uint32_t)(s - r->ids), j = i;

	for (;;) {
		uint32_t k;
		j = (j + 1) & mask;
		if (!r->ids[j].handle)
			break;
		k = id_hash(r->ids[j].id) & mask;
		/* move j back to i unless its home lies cyclically in (i, j] */
		if ((j > i && (k <= i || k > j)) || (j < i && (k <= i && k > j))) {
			r->ids[i] = r->ids[j];
			i = j;
		}
	}
	r->ids[i].handle = 0;
	r->ids_used--;
}

void vs_replay_freed_push(vs_replay *r, uint64_t id)
{
	r->freed[r->freed_pos] = id;
	r->freed_pos = (r->freed_pos + 1) % FREED_RING;
	if (r->freed_len < FREED_RING)
		r->freed_len++;
}

/* Remembers a failed allocation's id; the oldest one remembered is forgotten
 * when the ring is full. */
int vs_replay_failed_put(vs_replay *r, uint64_t id, uint32_t arena)
{
	if (r->failed_len == FAILED_RING) {
		id_slot *old = vs_replay_id_find(r, r->failed[r->failed_pos]);
		if (old && old->handle == FAILED_HANDLE)
			vs_replay_id_del(r, old);
	} else {
		r->failed_len++;
	}
	r->failed[r->failed_pos] = id;
	r->failed_pos = (r->failed_pos + 1) % FAILED_RING;
	return vs_replay_id_put(r, id, FAILED_HANDLE, arena);
}

int vs_replay_freed_recently(const vs_replay *r, uint64_t id)
{
	uint32_t i;

	for (i = 0; i < r->freed_len; i++)
		if (r->freed[i] == id)
			return 1;
	return 0;
}

/* Rebuilds the id table without entries whose record is gone. */
int vs_replay_prune_ids(vs_replay *r)
{
	id_slot *old = r->ids;
	uint32_t cap = r->ids_cap, i;

	r->ids = calloc(cap, sizeof *r->ids);
	if (!r->ids) {
		r->ids = old;
		return -1;
	}
	r->ids_used = 0;
	for (i = 0; i < cap; i++) {
		if (!old[i].handle)
			continue;
		if (old[i].handle != FAILED_HANDLE && !r->slab[old[i].handle - 1].in_use)
			continue;
		vs_replay_id_put(r, old[i].id, old[i].handle, old[i].arena);
	}
	free(old);
	return 0;
}
