/* SPDX-License-Identifier: Zlib */
/* cycles_list.c - the request list `vramsim cycles` sends to a console's
 * cycles program (see cycles_list.h): live ids mapped to the program's
 * handle slots, the replay observer that turns every call the host makes
 * into the measured strategy into a request, noting what the host saw, and
 * the statistics of the answers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "console/common/cycles_list.h"
#include "strategies/strategies.h"

/* ---- targets ---------------------------------------------------------------- */

const vs_cycles_target *vs_cycles_target_in(const vs_cycles_target *t, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(t[i].name, name) == 0)
			return &t[i];
	return NULL;
}

void vs_cycles_target_names(const vs_cycles_target *t, size_t n, char *buf, size_t len)
{
	size_t i, at = 0;

	buf[0] = '\0';
	for (i = 0; i < n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? ", " : "", t[i].name);
}

uint32_t vs_cycles_target_offset(const vs_cycles_target *t, uint32_t value, int *hit)
{
	*hit = 0;
	if (value == VS_CYCLES_NONE)
		return VS_CYCLES_NONE;
	if (t->hit)
		*hit = t->hit(value);
	return t->offset(value);
}

/* ---- ids to the program's handle slots ---------------------------------- */

/* The last slot takes the results of allocations the host saw fail, so
 * they never overwrite a live handle; live ids get the others. The map
 * holds twice as many places as slots (a power of two): at most half full. */
struct vs_cycles_slots {
	uint32_t cap, nslots;
	uint64_t *key;
	uint16_t *slot;
	uint8_t *used;
	uint16_t *spare; /* free slots, a stack */
	uint32_t nspare;
};

#define SCRATCH(m) ((m)->nslots - 1u)

static void map_clear(vs_cycles_slots *m)
{
	uint32_t i;

	memset(m->used, 0, m->cap);
	for (i = 0; i < SCRATCH(m); i++)
		m->spare[i] = (uint16_t)(SCRATCH(m) - 1 - i);
	m->nspare = SCRATCH(m);
}

static void map_free(vs_cycles_slots *m)
{
	if (!m)
		return;
	free(m->key);
	free(m->slot);
	free(m->used);
	free(m->spare);
	free(m);
}

static vs_cycles_slots *map_new(uint32_t nslots)
{
	vs_cycles_slots *m = calloc(1, sizeof *m);

	if (!m)
		return NULL;
	m->nslots = nslots;
	for (m->cap = 2; m->cap < 2u * nslots; m->cap *= 2)
		;
	m->key = malloc(m->cap * sizeof *m->key);
	m->slot = malloc(m->cap * sizeof *m->slot);
	m->used = malloc(m->cap);
	m->spare = malloc(nslots * sizeof *m->spare);
	if (!m->key || !m->slot || !m->used || !m->spare) {
		map_free(m);
		return NULL;
	}
	map_clear(m);
	return m;
}

static uint32_t map_hash(const vs_cycles_slots *m, uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	return (uint32_t)k & (m->cap - 1);
}

/* Returns the slot for a new live id, or -1 when all slots are taken. */
static int map_put(vs_cycles_slots *m, uint64_t id)
{
	uint32_t h = map_hash(m, id);

	if (!m->nspare)
		return -1;
	while (m->used[h])
		h = (h + 1) & (m->cap - 1);
	m->used[h] = 1;
	m->key[h] = id;
	m->slot[h] = m->spare[--m->nspare];
	return m->slot[h];
}

/* Removes id; returns its slot or -1. Backward-shift deletion keeps probe
 * chains whole without tombstones. */
static int map_take(vs_cycles_slots *m, uint64_t id)
{
	uint32_t h = map_hash(m, id), j, k, mask = m->cap - 1;
	int slot;

	while (m->used[h] && m->key[h] != id)
		h = (h + 1) & mask;
	if (!m->used[h])
		return -1;
	slot = m->slot[h];
	m->spare[m->nspare++] = (uint16_t)slot;
	m->used[h] = 0;
	for (j = (h + 1) & mask; m->used[j]; j = (j + 1) & mask) {
		k = map_hash(m, m->key[j]);
		/* move j back to h when its home is not within (h, j] */
		if ((j > h && (k <= h || k > j)) || (j < h && (k <= h && k > j))) {
			m->key[h] = m->key[j];
			m->slot[h] = m->slot[j];
			m->used[h] = 1;
			m->used[j] = 0;
			h = j;
		}
	}
	return slot;
}

/* ---- the request list, built while the host replays ------------------- */

vs_cycles_list *vs_cycles_list_new(uint32_t nslots)
{
	vs_cycles_list *l;

	if (nslots < 2 || nslots > 32768u)
		return NULL;
	l = calloc(1, sizeof *l);
	if (!l)
		return NULL;
	l->nslots = nslots;
	l->slots = map_new(nslots);
	if (!l->slots) {
		free(l);
		return NULL;
	}
	return l;
}

void vs_cycles_list_free(vs_cycles_list *l)
{
	if (!l)
		return;
	map_free(l->slots);
	free(l->rq);
	free(l->calls);
	free(l->sets);
	free(l);
}

int vs_cycles_list_aim(vs_cycles_list *l, vs_replay *r, const char *arena, const vs_cycles_target *t, size_t n)
{
	int i;

	l->arena = -1;
	for (i = 0; i < vs_replay_arena_count(r); i++) {
		const vs_strategy *s = vs_replay_strategy(r, i);

		if (arena && strcmp(vs_replay_arena(r, i)->decl.name, arena) != 0)
			continue;
		if (s && (l->t = vs_cycles_target_in(t, n, s->name)) != NULL) {
			l->arena = i;
			l->t->params(vs_replay_strategy_state(r, i), l->param);
			memcpy(l->now, l->param, sizeof l->now);
			break;
		}
	}
	return l->arena;
}

static int push(vs_cycles_list *l, uint8_t op, uint8_t flags, uint16_t slot, uint32_t arg, const vs_event *ev,
	uint32_t expect, int shared)
{
	vs_cycles_call *c;

	if (l->n == l->cap) {
		/* requests and calls grow together: both to the capacity l->cap gets */
		uint32_t rq_cap = l->cap;

		if (vs_grow_u32(&l->rq, sizeof *l->rq, &rq_cap, (size_t)l->n + 1, 1024) ||
			vs_grow_u32(&l->calls, sizeof *l->calls, &l->cap, (size_t)l->n + 1, 1024))
			return -1;
	}
	l->rq[l->n].op = op;
	l->rq[l->n].flags = flags;
	l->rq[l->n].slot = slot;
	l->rq[l->n].arg = arg;
	c = &l->calls[l->n];
	memset(c, 0, sizeof *c);
	c->line = ev->line;
	c->id = ev->id;
	c->frame = l->frames;
	c->expect = expect;
	c->shared = (uint8_t)(shared != 0);
	l->n++;
	return 0;
}

/* Pushes a request and lets the target note what else the host did; a
 * list that cannot grow is failed. */
static void add(vs_cycles_list *l, vs_replay *r, uint8_t op, uint8_t flags, uint16_t slot, uint32_t arg,
	const vs_event *ev, uint32_t expect, int shared)
{
	if (push(l, op, flags, slot, arg, ev, expect, shared)) {
		snprintf(l->err, sizeof l->err, "out of memory");
		l->failed = 1;
	} else if (l->t->after)
		l->t->after(l, r);
}

static void on_alloc(vs_cycles_list *l, vs_replay *r, const vs_outcome *o, int realloc_slot)
{
	const vs_event *ev = o->ev;
	uint32_t arg = 0;
	uint8_t flags = 0;
	int slot, enc, shared;

	if (ev->arena != l->arena || (!o->failed && !o->live))
		return; /* another arena, or misuse the strategy never saw */
	if ((enc = l->t->encode(vs_replay_strategy_state(r, l->arena), &ev->req, &arg, &flags)) <= 0) {
		if (enc < 0) {
			snprintf(l->err, sizeof l->err, "line %llu: tag number %u does not fit the console's request "
				"(at most 65535 tags)", (unsigned long long)ev->line, (unsigned)ev->req.tag);
			l->failed = 1;
		}
		l->skipped++;
		return;
	}
	slot = realloc_slot >= 0 ? realloc_slot : (int)SCRATCH(l->slots);
	if (realloc_slot >= 0)
		flags |= VS_CYCLES_F_REALLOC;
	/* a realloc's id comes back to the slot it left: the top of the spare stack */
	if (!o->failed && (slot = map_put(l->slots, ev->id)) < 0) {
		snprintf(l->err, sizeof l->err, "line %llu: more than %u live allocations",
			(unsigned long long)ev->line, (unsigned)SCRATCH(l->slots));
		l->failed = 1;
		return;
	}
	if (realloc_slot >= 0 && slot != realloc_slot) {
		snprintf(l->err, sizeof l->err, "line %llu: the realloc's handle slot moved", (unsigned long long)ev->line);
		l->failed = 1;
		return;
	}
	/* a hit joins the existing record (refs > 1); a record made from a
	 * shared placement (BG tile 0, never loaded) is one too */
	shared = !o->failed && (l->t->host_hit ? l->t->host_hit(vs_replay_strategy_state(r, l->arena)) :
		o->live->refs > 1 || o->live->pl.shared);
	add(l, r, VS_CYCLES_OP_ALLOC, flags, (uint16_t)slot, arg, ev, o->failed ? VS_CYCLES_NONE : o->live->pl.offset,
		shared);
}

/* The index of parameter set param in l->sets, added when new (every
 * plain reset repeats one); -1 when out of memory. */
static int64_t param_set(vs_cycles_list *l, const uint32_t param[4])
{
	uint32_t i;

	for (i = 0; i < l->nsets; i++)
		if (memcmp(l->sets[i], param, sizeof l->sets[i]) == 0)
			return i;
	if (vs_grow_u32(&l->sets, sizeof *l->sets, &l->sets_cap, (size_t)l->nsets + 1, 16))
		return -1;
	memcpy(l->sets[l->nsets], param, sizeof l->sets[0]);
	return l->nsets++;
}

/* A reset or an init: the console re-initialises with the parameters the
 * host's strategy holds now (an init may give it new options): their
 * first word, or the index of their set, goes with the request. */
static void on_reset(vs_cycles_list *l, vs_replay *r, const vs_event *ev)
{
	uint32_t param[4] = { 0, 0, 0, 0 };
	int64_t arg;

	if (ev->arena >= 0 && ev->arena != l->arena)
		return;
	l->t->params(vs_replay_strategy_state(r, l->arena), param);
	arg = l->t->param_sets ? param_set(l, param) : param[0];
	if (arg < 0) {
		snprintf(l->err, sizeof l->err, "out of memory");
		l->failed = 1;
		return;
	}
	memcpy(l->now, param, sizeof l->now);
	map_clear(l->slots);
	add(l, r, VS_CYCLES_OP_RESET, ev->type == VS_EV_INIT ? VS_CYCLES_F_INIT : 0, 0, (uint32_t)arg, ev, 0, 0);
}

/* A realloc of a live id: the replay frees it, then allocates (two
 * outcomes of one event). A strategy that does not take it whole was
 * called for both, as a game would; one that does (has_prev) was called
 * once, at the second, with the old handle, which its request finds in
 * the slot the id had. */
static void on_realloc(vs_cycles_list *l, vs_replay *r, const vs_outcome *o)
{
	int slot;

	if (l->realloc_freed != o->event && o->live && o->ev->arena == l->arena &&
		(slot = map_take(l->slots, o->ev->id)) >= 0) {
		l->realloc_freed = o->event;
		l->realloc_slot = slot;
		if (!o->ev->req.has_prev)
			add(l, r, VS_CYCLES_OP_FREE, 0, (uint16_t)slot, 0, o->ev, 0, 0);
		return;
	}
	on_alloc(l, r, o, l->realloc_freed == o->event && o->ev->req.has_prev ? l->realloc_slot : -1);
}

/* A bank mapped or locked: the strategies measured take no call for it,
 * but one whose set-up follows the banks (the space it manages) would be
 * set up otherwise on the console. */
static void on_banks(vs_cycles_list *l, vs_replay *r, const vs_event *ev)
{
	uint32_t param[4] = { 0, 0, 0, 0 };

	l->t->params(vs_replay_strategy_state(r, l->arena), param);
	if (l->t->banks) {
		/* the allocator reads the registers: the console writes them too */
		memcpy(l->now, param, sizeof l->now);
		add(l, r, VS_CYCLES_OP_BANK, 0, 0, VS_CYCLES_BANK(ev->bank, ev->vramcnt, ev->type == VS_EV_VRAMCNT ?
			VS_CYCLES_BANK_VRAMCNT : ev->type == VS_EV_LOCK ? VS_CYCLES_BANK_LOCK : VS_CYCLES_BANK_UNLOCK),
			ev, 0, 0);
		return;
	}
	if (memcmp(param, l->now, sizeof param) == 0)
		return;
	snprintf(l->err, sizeof l->err, "line %llu: %s changes the strategy's set-up: not measured on the console "
		"yet", (unsigned long long)ev->line, vs_trace_event_name(ev->type));
	l->failed = 1;
}

void vs_cycles_observe(void *ud, vs_replay *r, const vs_outcome *o)
{
	vs_cycles_list *l = ud;
	const vs_event *ev = o->ev;
	int slot;

	if (l->failed)
		return;
	switch (ev->type) {
	case VS_EV_FRAME:
		/* the strategy's frame call belongs to the frame it ends */
		if (l->t->frames)
			add(l, r, VS_CYCLES_OP_FRAME, 0, 0, 0, ev, 0, 0);
		l->frames++;
		return;
	case VS_EV_ALLOC:
		on_alloc(l, r, o, -1);
		return;
	case VS_EV_REALLOC:
		on_realloc(l, r, o);
		return;
	case VS_EV_VRAMCNT:
	case VS_EV_LOCK:
	case VS_EV_UNLOCK:
		on_banks(l, r, ev);
		return;
	case VS_EV_FREE:
		if (ev->arena != l->arena || !o->live || (slot = map_take(l->slots, ev->id)) < 0)
			return; /* the strategy was not called */
		add(l, r, VS_CYCLES_OP_FREE, 0, (uint16_t)slot, 0, ev, 0, 0);
		return;
	case VS_EV_RESET:
	case VS_EV_INIT:
		on_reset(l, r, ev);
		return;
	case VS_EV_SAVE:
	case VS_EV_RESTORE:
		if (ev->arena >= 0 && ev->arena != l->arena)
			return;
		snprintf(l->err, sizeof l->err, "line %llu: %s is not measured on the console yet",
			(unsigned long long)ev->line, vs_trace_event_name(ev->type));
		l->failed = 1;
		return;
	default:
		return;
	}
}

/* ---- statistics ----------------------------------------------------------- */

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

void vs_cycles_sort(uint32_t *v, uint32_t n)
{
	qsort(v, n, sizeof *v, cmp_u32);
}

uint32_t vs_cycles_rank(const uint32_t *v, uint32_t n, uint32_t pct)
{
	uint64_t k = ((uint64_t)n * pct + 99) / 100;

	return v[k ? k - 1 : 0];
}

int vs_cycles_ops(const vs_cycles_list *l, const vs_cycles_result *res, vs_cycles_op ops[4])
{
	static const struct { uint8_t op; const char *name; } kinds[] = {
		{ VS_CYCLES_OP_ALLOC, "alloc" }, { VS_CYCLES_OP_FREE, "free" }, { VS_CYCLES_OP_RESET, "reset" },
		{ VS_CYCLES_OP_FRAME, "frame" }
	};
	uint32_t *v = malloc((l->n ? l->n : 1) * sizeof *v);
	size_t k;
	int found = 0;

	if (!v)
		return -1;
	for (k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		uint32_t n = 0, i;
		uint64_t sum = 0;

		for (i = 0; i < l->n; i++)
			if (l->rq[i].op == kinds[k].op) {
				v[n++] = res[i].cycles;
				sum += res[i].cycles;
			}
		if (!n)
			continue;
		vs_cycles_sort(v, n);
		ops[found].name = kinds[k].name;
		ops[found].calls = n;
		ops[found].mean = (double)sum / n;
		ops[found].median = vs_cycles_rank(v, n, 50);
		ops[found].p99 = vs_cycles_rank(v, n, 99);
		ops[found++].max = v[n - 1];
	}
	free(v);
	return found;
}

void vs_cycles_worst_frame(const vs_cycles_list *l, const vs_cycles_result *res, vs_cycles_frame *w)
{
	uint64_t cur = 0, line = 0;
	uint32_t i, f = 0;

	memset(w, 0, sizeof *w);
	for (i = 0; i <= l->n; i++) {
		if (i == l->n || l->calls[i].frame != f) {
			if (cur > w->cycles) {
				w->cycles = cur;
				w->frame = f;
				w->line = line;
			}
			if (i == l->n)
				break;
			f = l->calls[i].frame;
			line = l->calls[i].line;
			cur = 0;
		}
		if (i == 0)
			line = l->calls[0].line;
		cur += res[i].cycles;
	}
}

uint32_t vs_cycles_next_diff(const vs_cycles_list *l, const vs_cycles_result *res, uint32_t i, uint32_t *got,
	int *hit)
{
	for (; i < l->n; i++) {
		if (l->rq[i].op == VS_CYCLES_OP_FREE && l->t->free_digest && res[i].value != l->calls[i].digest) {
			*got = res[i].value;
			*hit = 0;
			return i;
		}
		if (l->rq[i].op != VS_CYCLES_OP_ALLOC)
			continue;
		*got = vs_cycles_target_offset(l->t, res[i].value, hit);
		if (*got != l->calls[i].expect || (*got != VS_CYCLES_NONE && *hit != l->calls[i].shared))
			return i;
	}
	return l->n;
}
