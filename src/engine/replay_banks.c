/* SPDX-License-Identifier: Zlib */
/* replay_banks.c - the DS bank statements (`vramcnt`, `lock`, `unlock`)
 * and `realloc`, a live allocation asked for again.
 *
 * A VRAMCNT write moves memory between arenas: what leaves an arena while
 * allocations live on it is an integrity error naming the line (the game
 * would draw from memory that is not there), what arrives is free. The
 * strategies that read the bank registers are told after the memory moved.
 */
#include <string.h>

#include "replay_int.h"
#include "vram/ds_banks.h"

/* Reports the live allocations on units [first, first + count) of arena a
 * that its bank no longer maps, once per allocation. */
typedef struct stranded {
	vs_replay *r;
	int a;
	uint32_t last_owner;
} stranded;

static int report_stranded(void *ud, const vs_own_run *run)
{
	stranded *s = ud;
	const vs_arena_decl *d = &s->r->ar[s->a].arena.decl;
	const rec *x;

	if (run->kind != VS_UNIT_DATA && run->kind != VS_UNIT_OVERHEAD)
		return 0;
	if (run->owner == VS_OWNER_NONE || run->owner == VS_OWNER_HW || run->owner == s->last_owner ||
	    run->owner > s->r->slab_len)
		return 0;
	s->last_owner = run->owner;
	x = &s->r->slab[run->owner - 1];
	vs_replay_check_fail(s->r, s->a, VS_CHECK_UNMAPPED,
		"id %llu (allocated at line %llu) lives at 0x%x, which VRAMCNT_%c = 0x%02x takes out of arena '%s'",
		(unsigned long long)x->pub.id, (unsigned long long)x->pub.line,
		(unsigned)(d->base + run->first * d->unit), 'A' + s->r->ev.bank, (unsigned)s->r->ev.vramcnt, d->name);
	return 0;
}

static void find_stranded(void *ud, uint32_t off, uint32_t len)
{
	stranded *s = ud;
	const vs_arena *A = &s->r->ar[s->a].arena;

	(void)vs_arena_runs(A, off / A->decl.unit, len / A->decl.unit, report_stranded, s);
}

/* `vramcnt BANK VALUE` */
int vs_replay_do_vramcnt(vs_replay *r)
{
	const vs_event *ev = &r->ev;
	int a;

	for (a = 0; a < r->narenas; a++) {
		arena_run *ar = &r->ar[a];
		vs_arena_decl d = ar->arena.decl;
		unsigned ofs;
		stranded s = { .r = r, .a = a };

		if (!vs_ds_banked(d.kind))
			continue;
		d.ds_bank_slot[ev->bank] = vs_ds_vramcnt_maps(&d, ev->bank, ev->vramcnt, &ofs) ? (uint8_t)ofs :
			VS_BANK_UNMAPPED;
		if (d.ds_bank_slot[ev->bank] != ar->arena.decl.ds_bank_slot[ev->bank]) {
			if (vs_arena_redeclare(&ar->arena, &d))
				return vs_replay_out_of_memory(r);
			/* what the new mapping leaves out and an allocation still holds */
			vs_ds_unmapped(&d, find_stranded, &s);
			ar->stranded |= s.last_owner != 0;
			ar->m.usable_bytes = ar->arena.usable_bytes;
			vs_replay_refresh_held(r, a);
			vs_replay_refresh_metrics(ar);
		}
		if (ar->strat->vramcnt)
			ar->strat->vramcnt(ar->state, ev->bank, ev->vramcnt);
	}
	vs_replay_notify(r, VS_OK, 0, VS_FAIL_OOM, NULL);
	return 0;
}

/* `lock BANK`, `unlock BANK`: for the strategies that lock banks */
int vs_replay_do_lock(vs_replay *r)
{
	int a;

	for (a = 0; a < r->narenas; a++)
		if (r->ar[a].strat->lock)
			r->ar[a].strat->lock(r->ar[a].state, r->ev.bank, r->ev.type == VS_EV_LOCK);
	vs_replay_notify(r, VS_OK, 0, VS_FAIL_OOM, NULL);
	return 0;
}

/* After a free in a DS arena: units freed where no bank maps any more go
 * back to being reserved. */
void vs_replay_rereserve(vs_replay *r, int a)
{
	arena_run *ar = &r->ar[a];

	if (ar->stranded) {
		vs_arena_decl d = ar->arena.decl;
		if (vs_arena_redeclare(&ar->arena, &d))
			(void)vs_replay_out_of_memory(r);
		ar->m.usable_bytes = ar->arena.usable_bytes;
	}
}

/* `realloc ID REQUEST`: an id not live is allocated; a live one is freed
 * and allocated again, or, with a strategy that takes reallocs
 * (VS_STRAT_REALLOC), handed to that strategy whole with its key. */
int vs_replay_do_realloc(vs_replay *r)
{
	id_slot *s = vs_replay_id_find(r, r->ev.id);
	const rec *x;
	const arena_run *ar;
	int rc;

	if (!s || s->handle == FAILED_HANDLE)
		return vs_replay_do_alloc(r);
	x = &r->slab[s->handle - 1];
	ar = &r->ar[x->pub.arena];
	if (!(ar->strat->flags & VS_STRAT_REALLOC) || x->pub.refs > 1 || (int)x->pub.arena != r->ev.arena) {
		if (vs_replay_do_free(r))
			return -1;
		return vs_replay_do_alloc(r);
	}
	r->ev.req.has_prev = 1;
	r->ev.req.prev_key = x->pub.pl.key;
	/* the strategy frees or keeps the old place inside its alloc */
	r->realloc_held = 1;
	rc = vs_replay_do_free(r);
	r->realloc_held = 0;
	return rc ? -1 : vs_replay_do_alloc(r);
}
