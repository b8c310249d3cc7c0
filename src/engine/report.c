/* SPDX-License-Identifier: Zlib */
/* report.c - replay results for people (text) and programs (JSON). */
#include <stdlib.h>
#include <string.h>

#include "engine/report.h"
#include "vram/request.h"
#include "vram/arena.h"

static double mean_frag(const vs_metrics *m)
{
	return m->events ? m->frag_sum / (double)m->events : 0.0;
}

/* Malloc lab's peak utilisation, with its denominator named: malloc lab
 * divides by the heap it grew through sbrk, here the arena is fixed and its
 * high-water mark stands in. A figure from a replay that did not serve the
 * whole trace is no figure for the trace: it says so on the same line. */
static void utilisation(FILE *fp, const vs_metrics *m)
{
	fprintf(fp, "  peak utilisation %.1f%% (peak live payload / high-water of this fixed arena; "
		"malloc lab divides by its sbrk-grown heap)", 100.0 * (double)m->peak_live / (double)m->high_water);
	if (m->failures || m->checks) {
		fprintf(fp, ", INCOMPLETE:");
		if (m->failures)
			fprintf(fp, " %llu allocation%s failed", (unsigned long long)m->failures,
				m->failures == 1 ? "" : "s");
		if (m->failures && m->checks)
			fputc(',', fp);
		if (m->checks)
			fprintf(fp, " %llu check%s failed", (unsigned long long)m->checks, m->checks == 1 ? "" : "s");
	}
	fputc('\n', fp);
}

void vs_report_text(FILE *fp, const vs_replay *r)
{
	const vs_trace_header *h = vs_replay_header(r);
	int i, k;
	uint64_t n;

	fprintf(fp, "events %llu, frames %llu\n", (unsigned long long)vs_replay_events(r),
		(unsigned long long)vs_replay_frames(r));
	for (i = 0; i < vs_replay_arena_count(r); i++) {
		const vs_metrics *m = vs_replay_metrics(r, i);
		const vs_arena_decl *d = &h->arenas[i];
		fprintf(fp, "\narena %s: %s, %u bytes at 0x%08x (%llu usable), strategy %s\n", d->name,
			vs_arena_kind_name(d->kind), (unsigned)d->size, (unsigned)d->base,
			(unsigned long long)m->usable_bytes, vs_replay_strategy(r, i)->name);
		fprintf(fp, "  allocations     %llu ok, %llu failed", (unsigned long long)m->allocs,
			(unsigned long long)m->failures);
		if (m->failures) {
			const char *sep = " (";
			for (k = 0; k < VS_FAIL_KINDS; k++) {
				if (!m->fail[k])
					continue;
				fprintf(fp, "%s%s %llu", sep, vs_replay_fail_kind_name((vs_fail_kind)k),
					(unsigned long long)m->fail[k]);
				sep = ", ";
			}
			fputc(')', fp);
		}
		fputc('\n', fp);
		if (m->shared_hits)
			fprintf(fp, "  shared hits     %llu (data already loaded)\n", (unsigned long long)m->shared_hits);
		if (h->heaps)
			fprintf(fp, "  routed here     %llu by the small rule, %llu through search lists\n",
				(unsigned long long)m->routed_small, (unsigned long long)m->routed_search);
		fprintf(fp, "  frees           %llu\n", (unsigned long long)m->frees);
		fprintf(fp, "  live now        %llu allocations, %llu bytes requested, %llu granted, %llu overhead",
			(unsigned long long)m->live_count, (unsigned long long)m->live_bytes,
			(unsigned long long)m->granted_bytes, (unsigned long long)m->overhead_bytes);
		if (m->retained_bytes)
			fprintf(fp, ", %llu retained", (unsigned long long)m->retained_bytes);
		fputc('\n', fp);
		if (m->management_bytes)
			fprintf(fp, "  management      %llu bytes kept by the allocator outside allocations\n",
				(unsigned long long)m->management_bytes);
		fprintf(fp, "  bookkeeping RAM %llu bytes (peak %llu), outside the arena\n", (unsigned long long)m->ram_bytes,
			(unsigned long long)m->peak_ram);
		if (m->moves) {
			fprintf(fp, "  moves           %llu, %llu bytes; at most %llu bytes in one frame\n",
				(unsigned long long)m->moves, (unsigned long long)m->moved_bytes,
				(unsigned long long)m->frame_moved_max);
			if (m->frame_cycles_frame)
				fprintf(fp, "  worst frame     %llu: %llu bytes moved + %llu uploaded = %llu cycles, %.1f%% of "
					"VBlank\n", (unsigned long long)m->frame_cycles_frame,
					(unsigned long long)m->frame_worst_moved, (unsigned long long)m->frame_worst_loaded,
					(unsigned long long)m->frame_cycles_max,
					100.0 * (double)m->frame_cycles_max / (double)VS_VBLANK_CYCLES);
		}
		fprintf(fp, "  peak live       %llu bytes (%.1f%% of usable), high-water 0x%llx\n",
			(unsigned long long)m->peak_live,
			m->usable_bytes ? 100.0 * (double)m->peak_live / (double)m->usable_bytes : 0.0,
			(unsigned long long)m->high_water);
		if (d->kind == VS_ARENA_RAM && m->high_water)
			utilisation(fp, m);
		fprintf(fp, "  free now        %llu bytes in %llu extents, largest %llu\n",
			(unsigned long long)m->free_bytes, (unsigned long long)m->free_extents,
			(unsigned long long)m->largest_free);
		fprintf(fp, "  fragmentation   now %.3f, peak %.3f (event %llu), mean %.3f\n", m->frag, m->peak_frag,
			(unsigned long long)m->peak_frag_event, mean_frag(m));
		if (m->smallest_failed)
			fprintf(fp, "  smallest failed %llu bytes\n", (unsigned long long)m->smallest_failed);
	}
	n = vs_replay_diag_total(r);
	fprintf(fp, "\ndiagnostics     %llu", (unsigned long long)n);
	if (n) {
		const char *sep = " (";
		for (k = 0; k < VS_DIAG_KINDS; k++) {
			uint64_t c = vs_replay_diag_count(r, (vs_diag_kind)k);
			if (!c)
				continue;
			fprintf(fp, "%s%s %llu", sep, vs_replay_diag_kind_name((vs_diag_kind)k), (unsigned long long)c);
			sep = ", ";
		}
		fputc(')', fp);
	}
	n = vs_replay_check_total(r);
	fprintf(fp, "\nintegrity       %s", n ? "FAILED" : "ok");
	if (n) {
		const char *sep = " (";
		for (k = 0; k < VS_CHECK_KINDS; k++) {
			uint64_t c = vs_replay_check_count(r, (vs_check_kind)k);
			if (!c)
				continue;
			fprintf(fp, "%s%s %llu", sep, vs_replay_check_kind_name((vs_check_kind)k), (unsigned long long)c);
			sep = ", ";
		}
		fputc(')', fp);
	}
	fputc('\n', fp);
}

cJSON *vs_report_fail_kinds_json(const uint64_t fail[VS_FAIL_KINDS])
{
	cJSON *f = cJSON_CreateObject();
	int k;

	for (k = 0; k < VS_FAIL_KINDS; k++) {
		char key[32];
		size_t j;

		snprintf(key, sizeof key, "%s", vs_replay_fail_kind_name((vs_fail_kind)k));
		for (j = 0; key[j]; j++)
			if (key[j] == ' ')
				key[j] = '_';
		cJSON_AddNumberToObject(f, key, (double)fail[k]);
	}
	return f;
}

/* One arena's metrics as a JSON object. */
static cJSON *report_metrics_json(const vs_metrics *m)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "allocations", (double)m->allocs);
	cJSON_AddNumberToObject(o, "failures", (double)m->failures);
	cJSON_AddItemToObject(o, "failures_by_kind", vs_report_fail_kinds_json(m->fail));
	cJSON_AddNumberToObject(o, "frees", (double)m->frees);
	cJSON_AddNumberToObject(o, "shared_hits", (double)m->shared_hits);
	cJSON_AddNumberToObject(o, "live_count", (double)m->live_count);
	cJSON_AddNumberToObject(o, "live_bytes", (double)m->live_bytes);
	cJSON_AddNumberToObject(o, "granted_bytes", (double)m->granted_bytes);
	cJSON_AddNumberToObject(o, "internal_fragmentation_bytes", (double)(m->granted_bytes - m->live_bytes));
	cJSON_AddNumberToObject(o, "overhead_bytes", (double)m->overhead_bytes);
	cJSON_AddNumberToObject(o, "retained_bytes", (double)m->retained_bytes);
	cJSON_AddNumberToObject(o, "management_bytes", (double)m->management_bytes);
	cJSON_AddNumberToObject(o, "moves", (double)m->moves);
	cJSON_AddNumberToObject(o, "moved_bytes", (double)m->moved_bytes);
	cJSON_AddNumberToObject(o, "frame_moved_max", (double)m->frame_moved_max);
	cJSON_AddNumberToObject(o, "worst_frame", (double)m->frame_cycles_frame);
	cJSON_AddNumberToObject(o, "worst_frame_cycles", (double)m->frame_cycles_max);
	cJSON_AddNumberToObject(o, "worst_frame_moved", (double)m->frame_worst_moved);
	cJSON_AddNumberToObject(o, "worst_frame_uploaded", (double)m->frame_worst_loaded);
	cJSON_AddNumberToObject(o, "ram_bytes", (double)m->ram_bytes);
	cJSON_AddNumberToObject(o, "peak_ram_bytes", (double)m->peak_ram);
	cJSON_AddNumberToObject(o, "routed_small", (double)m->routed_small);
	cJSON_AddNumberToObject(o, "routed_search", (double)m->routed_search);
	cJSON_AddNumberToObject(o, "usable_bytes", (double)m->usable_bytes);
	cJSON_AddNumberToObject(o, "free_bytes", (double)m->free_bytes);
	cJSON_AddNumberToObject(o, "largest_free", (double)m->largest_free);
	cJSON_AddNumberToObject(o, "free_extents", (double)m->free_extents);
	cJSON_AddNumberToObject(o, "fragmentation", m->frag);
	cJSON_AddNumberToObject(o, "peak_live", (double)m->peak_live);
	cJSON_AddNumberToObject(o, "peak_granted", (double)m->peak_granted);
	cJSON_AddNumberToObject(o, "peak_fragmentation", m->peak_frag);
	cJSON_AddNumberToObject(o, "peak_fragmentation_event", (double)m->peak_frag_event);
	cJSON_AddNumberToObject(o, "mean_fragmentation", mean_frag(m));
	cJSON_AddNumberToObject(o, "high_water", (double)m->high_water);
	cJSON_AddNumberToObject(o, "peak_utilisation", m->high_water ? (double)m->peak_live / (double)m->high_water : 0.0);
	cJSON_AddNumberToObject(o, "smallest_failed", (double)m->smallest_failed);
	cJSON_AddNumberToObject(o, "diagnostics", (double)m->diags);
	cJSON_AddNumberToObject(o, "integrity_errors", (double)m->checks);
	return o;
}

cJSON *vs_report_json(const vs_replay *r)
{
	const vs_trace_header *h = vs_replay_header(r);
	cJSON *o = cJSON_CreateObject(), *arenas = cJSON_CreateArray(), *d = cJSON_CreateObject(),
		*c = cJSON_CreateObject();
	int i, k;

	cJSON_AddNumberToObject(o, "events", (double)vs_replay_events(r));
	cJSON_AddNumberToObject(o, "frames", (double)vs_replay_frames(r));
	for (i = 0; i < vs_replay_arena_count(r); i++) {
		cJSON *a = cJSON_CreateObject();
		cJSON_AddStringToObject(a, "name", h->arenas[i].name);
		cJSON_AddStringToObject(a, "kind", vs_arena_kind_name(h->arenas[i].kind));
		cJSON_AddStringToObject(a, "strategy", vs_replay_strategy(r, i)->name);
		cJSON_AddNumberToObject(a, "size", h->arenas[i].size);
		cJSON_AddNumberToObject(a, "base", h->arenas[i].base);
		cJSON_AddItemToObject(a, "metrics", report_metrics_json(vs_replay_metrics(r, i)));
		cJSON_AddItemToArray(arenas, a);
	}
	cJSON_AddItemToObject(o, "arenas", arenas);
	for (k = 0; k < VS_DIAG_KINDS; k++)
		cJSON_AddNumberToObject(d, vs_replay_diag_kind_name((vs_diag_kind)k), (double)vs_replay_diag_count(r, (vs_diag_kind)k));
	for (k = 0; k < VS_CHECK_KINDS; k++)
		cJSON_AddNumberToObject(c, vs_replay_check_kind_name((vs_check_kind)k), (double)vs_replay_check_count(r, (vs_check_kind)k));
	cJSON_AddItemToObject(o, "diagnostics", d);
	cJSON_AddItemToObject(o, "integrity_errors", c);
	cJSON_AddBoolToObject(o, "ok", vs_replay_check_total(r) == 0);
	return o;
}

typedef struct live_list {
	const vs_live **v;
	size_t n, cap;
	int arena;
} live_list;

static void collect(void *ud, const vs_live *l)
{
	live_list *ll = ud;

	if ((int)l->arena != ll->arena || ll->n == ll->cap)
		return;
	ll->v[ll->n++] = l;
}

static int by_offset(const void *pa, const void *pb)
{
	const vs_live *const *a = pa, *const *b = pb;

	return (*a)->pl.offset < (*b)->pl.offset ? -1 : (*a)->pl.offset > (*b)->pl.offset;
}

static int print_extent(void *ud, uint32_t first, uint32_t count)
{
	void **p = ud;
	FILE *fp = p[0];
	const vs_arena *a = p[1];

	fprintf(fp, "    free  0x%08x  %u bytes\n", (unsigned)(a->decl.base + first * a->decl.unit),
		(unsigned)(count * a->decl.unit));
	return 0;
}

void vs_report_state(FILE *fp, const vs_replay *r)
{
	int i;

	fprintf(fp, "state after event %llu\n", (unsigned long long)vs_replay_events(r));
	for (i = 0; i < vs_replay_arena_count(r); i++) {
		const vs_arena *a = vs_replay_arena(r, i);
		const vs_metrics *m = vs_replay_metrics(r, i);
		live_list ll;
		size_t k;
		void *ud[2];
		char what[64];

		fprintf(fp, "arena %s (%s): %llu live, %llu bytes; free %llu in %llu extents, largest %llu, "
			"fragmentation %.3f\n", a->decl.name, vs_replay_strategy(r, i)->name,
			(unsigned long long)m->live_count, (unsigned long long)m->live_bytes,
			(unsigned long long)m->free_bytes, (unsigned long long)m->free_extents,
			(unsigned long long)m->largest_free, m->frag);
		ll.cap = m->live_count + 1024;
		ll.n = 0;
		ll.arena = i;
		ll.v = malloc(ll.cap * sizeof *ll.v);
		if (ll.v) {
			vs_replay_live_walk(r, collect, &ll);
			qsort(ll.v, ll.n, sizeof *ll.v, by_offset);
			for (k = 0; k < ll.n; k++) {
				const vs_live *l = ll.v[k];
				const char *tag = vs_replay_tag_name(r, l->req.tag);
				vs_request_describe(&l->req, what, sizeof what);
				fprintf(fp, "    %-5s 0x%08x  %u bytes  id %llu  %s%s%s  line %llu%s\n",
					l->retained ? "held" : "live", (unsigned)(a->decl.base + l->pl.offset),
					(unsigned)l->pl.granted, (unsigned long long)l->id, what, *tag ? "  tag=" : "", tag,
					(unsigned long long)l->line, l->refs > 1 ? "  (shared)" : "");
			}
			free(ll.v);
		}
		ud[0] = fp;
		ud[1] = (void *)a;
		vs_arena_free_walk(a, print_extent, ud);
	}
}

/* ---- failures and tags (vs_results) ------------------------------------- */

void vs_report_results_text(FILE *fp, const vs_replay *r, const vs_results *x)
{
	uint64_t total = vs_results_failure_total(x);
	size_t i, shown = vs_results_failure_count(x);
	uint32_t t;
	int a;

	if (total) {
		if (shown > VS_REPORT_FAILURES_SHOWN)
			shown = VS_REPORT_FAILURES_SHOWN;
		fprintf(fp, "\nfailed requests (%llu)\n  %-7s %-6s %-10s %-8s %-12s %-24s %8s %8s %8s %8s  %s\n",
			(unsigned long long)total, "line", "frame", "arena", "id", "tag", "request", "bytes", "free",
			"largest", "to move", "kind");
		for (i = 0; i < shown; i++) {
			const vs_failure *f = vs_results_failure(x, i);
			char what[96];
			vs_request_describe(&f->req, what, sizeof what);
			char move[24] = "-";
			if (f->to_move != VS_MOVE_UNKNOWN)
				snprintf(move, sizeof move, "%llu", (unsigned long long)f->to_move);
			fprintf(fp, "  %-7llu %-6llu %-10s %-8llu %-12s %-24s %8u %8llu %8llu %8s  %s\n",
				(unsigned long long)f->line, (unsigned long long)f->frame,
				vs_replay_arena(r, (int)f->arena)->decl.name, (unsigned long long)f->id,
				f->tag ? vs_replay_tag_name(r, f->tag) : "-", what, (unsigned)f->req.size,
				(unsigned long long)f->free_bytes, (unsigned long long)f->largest_free, move,
				vs_replay_fail_kind_name(f->kind));
		}
		if (total > shown)
			fprintf(fp, "  ... and %llu more (every one in --json or --events)\n",
				(unsigned long long)(total - shown));
		for (a = 0; a < vs_replay_arena_count(r); a++) {
			uint64_t nf, known, bytes;
			vs_results_moves(x, a, &nf, &known, &bytes);
			if (nf)
				fprintf(fp, "  what if arena %s could move allocations: its %llu fragmentation failure%s "
					"needed at least %llu bytes moved%s\n", vs_replay_arena(r, a)->decl.name,
					(unsigned long long)nf, nf == 1 ? "" : "s", (unsigned long long)bytes,
					known < nf ? " (for those it could be found)" : "");
		}
	}
	for (a = 0; a < vs_replay_arena_count(r); a++) {
		int head = 0;
		for (t = 0; t < vs_results_tag_span(x); t++) {
			const vs_tag_stats *s = vs_results_tag(x, (uint32_t)a, t);
			if (!s)
				continue;
			if (!head++)
				fprintf(fp, "\ntags in arena %s\n  %-16s %10s %10s %8s %8s %8s\n",
					vs_replay_arena(r, a)->decl.name, "tag", "live", "peak live", "allocs", "failures",
					"frees");
			fprintf(fp, "  %-16s %10llu %10llu %8llu %8llu %8llu\n", t ? vs_replay_tag_name(r, t) : "(none)",
				(unsigned long long)s->live_bytes, (unsigned long long)s->peak_live,
				(unsigned long long)s->allocs, (unsigned long long)s->failures, (unsigned long long)s->frees);
		}
	}
}

void vs_report_results_json(cJSON *run, const vs_replay *r, const vs_results *x)
{
	cJSON *fl = cJSON_CreateArray(), *arenas = cJSON_GetObjectItem(run, "arenas");
	size_t i;
	uint32_t t;
	int a;

	for (i = 0; i < vs_results_failure_count(x); i++) {
		const vs_failure *f = vs_results_failure(x, i);
		cJSON *o = cJSON_CreateObject();
		char what[96];
		vs_request_describe(&f->req, what, sizeof what);
		cJSON_AddNumberToObject(o, "line", (double)f->line);
		cJSON_AddNumberToObject(o, "event", (double)f->event);
		cJSON_AddNumberToObject(o, "frame", (double)f->frame);
		cJSON_AddStringToObject(o, "arena", vs_replay_arena(r, (int)f->arena)->decl.name);
		cJSON_AddNumberToObject(o, "id", (double)f->id);
		cJSON_AddStringToObject(o, "tag", vs_replay_tag_name(r, f->tag));
		cJSON_AddStringToObject(o, "request", what);
		cJSON_AddNumberToObject(o, "bytes", (double)f->req.size);
		cJSON_AddNumberToObject(o, "free_bytes", (double)f->free_bytes);
		cJSON_AddNumberToObject(o, "largest_free", (double)f->largest_free);
		cJSON_AddStringToObject(o, "kind", vs_replay_fail_kind_name(f->kind));
		if (f->to_move != VS_MOVE_UNKNOWN)
			cJSON_AddNumberToObject(o, "bytes_to_move", (double)f->to_move);
		cJSON_AddItemToArray(fl, o);
	}
	cJSON_AddItemToObject(run, "failures", fl);
	cJSON_AddNumberToObject(run, "failures_total", (double)vs_results_failure_total(x));
	for (a = 0; a < vs_replay_arena_count(r); a++) {
		cJSON *tags = cJSON_CreateArray(), *arena = cJSON_GetArrayItem(arenas, a);
		for (t = 0; t < vs_results_tag_span(x); t++) {
			const vs_tag_stats *s = vs_results_tag(x, (uint32_t)a, t);
			cJSON *o;
			if (!s)
				continue;
			o = cJSON_CreateObject();
			cJSON_AddStringToObject(o, "tag", vs_replay_tag_name(r, t));
			cJSON_AddNumberToObject(o, "live_bytes", (double)s->live_bytes);
			cJSON_AddNumberToObject(o, "peak_live", (double)s->peak_live);
			cJSON_AddNumberToObject(o, "allocations", (double)s->allocs);
			cJSON_AddNumberToObject(o, "failures", (double)s->failures);
			cJSON_AddNumberToObject(o, "frees", (double)s->frees);
			cJSON_AddItemToArray(tags, o);
		}
		if (arena) {
			uint64_t nf, known, bytes;
			vs_results_moves(x, a, &nf, &known, &bytes);
			cJSON_AddNumberToObject(arena, "fragmentation_failures", (double)nf);
			cJSON_AddNumberToObject(arena, "bytes_to_move", (double)bytes);
			cJSON_AddNumberToObject(arena, "bytes_to_move_found", (double)known);
		}
		if (arena)
			cJSON_AddItemToObject(arena, "tags", tags);
		else
			cJSON_Delete(tags);
	}
}
