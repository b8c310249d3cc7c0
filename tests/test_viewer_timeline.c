/* SPDX-License-Identifier: Zlib */
/* test_viewer_timeline.c - the viewer's recorded timeline seeks to exactly the
 * state a fresh replay reaches, forwards and backwards, on both sides. */
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "viewer/timeline.h"
#include "strategies/registry.h"
#include "vram/arena.h"

/* A random trace over a sprite arena and a small heap: allocations that
 * fail (OBJ VRAM fills up), frees, frames, save/restore and resets. */
static uint64_t trace_events;

static const char *make_trace(int slot, uint32_t seed, int n)
{
	static const char *const tags[] = { "player", "enemy", "bullet", "ui", "fx" };
	static const unsigned dims[][2] = { { 8, 8 }, { 16, 16 }, { 32, 32 }, { 64, 64 }, { 32, 16 }, { 8, 32 } };
	vs_rng rng = { seed };
	size_t cap = (size_t)n * 64 + 256, len = 0;
	char *t = malloc(cap);
	uint64_t live[512];
	int nlive = 0, i, saved = 0;
	uint64_t next = 1;
	const char *path;

	trace_events = (uint64_t)n;
	len += (size_t)sprintf(t + len, "vramsim-trace 1\narena obj gba-obj\narena heap ram size=4096 unit=8\n");
	for (i = 0; i < n; i++) {
		uint32_t r = vs_rng_below(&rng, 100);
		if (r < 55 && nlive < 512) {
			const unsigned *d = dims[vs_rng_below(&rng, 6)];
			if (vs_rng_below(&rng, 4) == 0)
				len += (size_t)sprintf(t + len, "alloc %llu heap %u tag=%s\n", (unsigned long long)next,
					8 + vs_rng_below(&rng, 300), tags[vs_rng_below(&rng, 5)]);
			else
				len += (size_t)sprintf(t + len, "alloc %llu obj sprite %ux%u %s tag=%s\n",
					(unsigned long long)next, d[0], d[1], vs_rng_below(&rng, 3) ? "4bpp" : "8bpp",
					tags[vs_rng_below(&rng, 5)]);
			live[nlive++] = next++;
		} else if (r < 85 && nlive) {
			uint32_t k = vs_rng_below(&rng, (uint32_t)nlive);
			len += (size_t)sprintf(t + len, "free %llu\n", (unsigned long long)live[k]);
			live[k] = live[--nlive];
		} else if (r < 96) {
			len += (size_t)sprintf(t + len, "frame\n");
		} else if (r < 98 && !saved) {
			len += (size_t)sprintf(t + len, "save s heap\n");
			saved = 1;
		} else if (r < 99 && saved && vs_rng_below(&rng, 4) == 0) {
			/* ids made after the save are dropped: forget them all */
			len += (size_t)sprintf(t + len, "restore s heap\nreset\n");
			nlive = 0;
			saved = 0;
			trace_events++;
		} else {
			len += (size_t)sprintf(t + len, "frame\n");
		}
	}
	path = vs_test_file(slot, "history.trace", t);
	free(t);
	return path;
}

static void quiet(void *ud, const char *line)
{
	(void)ud;
	(void)line;
}

static void config(vs_replay_config *c, const char *obj_strategy)
{
	vs_replay_config_default(c);
	c->strategy[0] = vs_strategy_find(obj_strategy);
	c->message = quiet;
	ck_assert_ptr_nonnull(c->strategy[0]);
}

/* Compares the history's view with a fresh replay stopped at event. */
static void check_against_replay(vs_timeline *h, const char *path, int side, const vs_replay_config *cfg,
	uint64_t event)
{
	char err[512];
	vs_trace_reader *rd = vs_trace_open(path, err, sizeof err);
	vs_replay *r;
	int a;

	ck_assert_ptr_nonnull(rd);
	r = vs_replay_new(rd, cfg, err, sizeof err);
	ck_assert_ptr_nonnull(r);
	if (event)
		vs_replay_run(r, event);
	ck_assert_uint_eq(vs_replay_events(r), event);
	for (a = 0; a < vs_replay_arena_count(r); a++) {
		const vs_arena *ra = vs_replay_arena(r, a);
		const vs_arena *va = vs_timeline_arena(h, side, a);
		const vs_tl_sample *sm = vs_timeline_series(h, side, a);
		const vs_metrics *m = vs_replay_metrics(r, a);
		uint32_t u;
		ck_assert_uint_eq(ra->nunits, va->nunits);
		for (u = 0; u < ra->nunits; u++) {
			uint32_t want = vs_arena_owner_at(ra, u);
			if (want != VS_OWNER_NONE && want != VS_OWNER_HW && want != VS_OWNER_ALLOC) {
				const vs_live *l = vs_replay_live_by_owner(r, want);
				const vs_tl_alloc *al;
				HOT_ASSERT(l != NULL, "side %d event %llu unit %u: owner %u not live", side,
					(unsigned long long)event, u, want);
				want = (uint32_t)l->event;
				al = vs_timeline_alloc(h, want);
				HOT_ASSERT(al != NULL, "side %d event %llu unit %u: no alloc %u in the timeline", side,
					(unsigned long long)event, u, want);
				HOT_CMP(al->id, ==, l->id);
				HOT_CMP(al->line, ==, l->line);
				HOT_CMP(al->req.size, ==, l->req.size);
				HOT_CMP(al->req.tag, ==, l->req.tag);
			}
			if (vs_arena_owner_at(va, u) != want || vs_arena_kind_at(va, u) != vs_arena_kind_at(ra, u))
				ck_abort_msg("side %d event %llu arena %d unit %u: view %u/%u, replay %u/%u", side,
					(unsigned long long)event, a, u, vs_arena_owner_at(va, u), vs_arena_kind_at(va, u), want, vs_arena_kind_at(ra, u));
		}
		ck_assert_uint_eq(sm[event].live, m->live_bytes);
		ck_assert_uint_eq(sm[event].free, m->free_bytes);
		ck_assert_uint_eq(sm[event].largest, m->largest_free);
	}
	vs_replay_free(r);
}

START_TEST(seek_matches_replay)
{
	const char *path = make_trace(0, 1234u + (uint32_t)_i, (int)vs_test_soak(6000, 60000));
	vs_replay_config cfg[2];
	char err[512];
	vs_timeline *h;
	uint64_t n, targets[40];
	vs_rng rng = { 99u + (uint64_t)_i };
	int i, s, rc;

	config(&cfg[0], "gba-obj-map");
	config(&cfg[1], "gba-obj-first-fit");
	h = vs_timeline_open(path, 2, cfg, err, sizeof err);
	ck_assert_msg(h != NULL, "%s", err);
	/* record in uneven slices, like the viewer does between frames */
	do {
		rc = vs_timeline_record(h, 1 + vs_rng_below(&rng, 900));
		ck_assert_int_ge(rc, 0);
	} while (rc == 1);
	ck_assert(vs_timeline_complete(h));
	n = vs_timeline_recorded(h);
	ck_assert_uint_eq(n, trace_events);
	ck_assert_uint_gt(vs_timeline_checkpoints(h), 5);
	/* forwards and backwards, near and far, the ends, single steps */
	for (i = 0; i < 30; i++)
		targets[i] = vs_rng_below(&rng, (uint32_t)n + 1);
	targets[30] = 0;
	targets[31] = n;
	targets[32] = n - 1;
	targets[33] = 1;
	targets[34] = 2;
	targets[35] = 3;
	targets[36] = 256;
	targets[37] = 255;
	targets[38] = 257;
	targets[39] = n + 100; /* clamped */
	for (i = 0; i < 40; i++) {
		uint64_t want = targets[i] > n ? n : targets[i];
		ck_assert_uint_eq(vs_timeline_seek(h, targets[i]), want);
		ck_assert_uint_eq(vs_timeline_at(h), want);
		for (s = 0; s < 2; s++)
			check_against_replay(h, path, s, &cfg[s], want);
	}
	vs_timeline_free(h);
}
END_TEST

/* Failures, frames and events agree with what an observer of a fresh replay
 * sees. */
typedef struct seen {
	uint64_t fails[8192];
	size_t nfails;
	uint64_t frames[8192];
	size_t nframes;
	uint64_t lines[8192];
} seen;

static void observe(void *ud, vs_replay *r, const vs_outcome *o)
{
	seen *s = ud;

	(void)r;
	if (o->failed)
		s->fails[s->nfails++] = o->event;
	if (o->ev->type == VS_EV_FRAME)
		s->frames[s->nframes++] = o->event;
	s->lines[o->event] = o->ev->line;
}

START_TEST(failures_and_frames)
{
	const char *path = make_trace(1, 777, 5000);
	vs_replay_config cfg[2];
	static seen sn[2];
	char err[512];
	vs_timeline *h;
	uint64_t e, n;
	int s;
	size_t k, nf;

	config(&cfg[0], "gba-obj-map");
	config(&cfg[1], "gba-obj-buddy");
	h = vs_timeline_open(path, 2, cfg, err, sizeof err);
	ck_assert_msg(h != NULL, "%s", err);
	while (vs_timeline_record(h, 1000) == 1)
		;
	n = vs_timeline_recorded(h);
	for (s = 0; s < 2; s++) {
		vs_replay_config c = cfg[s];
		vs_trace_reader *rd = vs_trace_open(path, err, sizeof err);
		vs_replay *r;
		const uint32_t *f;
		memset(&sn[s], 0, sizeof sn[s]);
		c.observer = observe;
		c.observer_ud = &sn[s];
		r = vs_replay_new(rd, &c, err, sizeof err);
		ck_assert_ptr_nonnull(r);
		vs_replay_run(r, 0);
		ck_assert_uint_eq(vs_replay_events(r), n);
		vs_replay_free(r);
		f = vs_timeline_failures(h, s, &nf);
		ck_assert_uint_eq(nf, sn[s].nfails);
		ck_assert_msg(nf > 0, "side %d (%s): no failures in the trace", s, vs_replay_strategy(vs_timeline_replay(h, s), 0)->name);
		for (k = 0; k < nf; k++) {
			HOT_CMP(f[k], ==, sn[s].fails[k]);
			HOT_CMP(vs_timeline_failure(h, s, f[k]), >=, 0);
		}
	}
	for (e = 1; e <= n; e++) {
		uint64_t want = 0;
		for (s = 0; s < 2; s++)
			for (k = 0; k < sn[s].nfails; k++)
				if (sn[s].fails[k] > e && (!want || sn[s].fails[k] < want))
					want = sn[s].fails[k];
		HOT_CMP(vs_timeline_next_failure(h, e), ==, want);
		HOT_CMP(vs_timeline_event(h, e)->line, ==, sn[0].lines[e]);
		if (vs_timeline_failure(h, 0, e) < 0 && vs_timeline_failure(h, 1, e) < 0)
			continue;
		HOT_CMP(vs_timeline_event(h, e)->type, ==, VS_EV_ALLOC);
	}
	for (k = 0; k + 1 < sn[0].nframes; k++) {
		HOT_CMP(vs_timeline_next_frame(h, sn[0].frames[k]), ==, sn[0].frames[k + 1]);
		HOT_CMP(vs_timeline_prev_frame(h, sn[0].frames[k + 1]), ==, sn[0].frames[k]);
		HOT_CMP(vs_timeline_frame_at(h, sn[0].frames[k]), ==, k + 1);
	}
	ck_assert_uint_eq(vs_timeline_next_frame(h, sn[0].frames[sn[0].nframes - 1]), 0);
	ck_assert_uint_eq(vs_timeline_prev_failure(h, 1), 0);
	vs_timeline_free(h);
}
END_TEST

/* Frame numbers, and finding the alloc and free events of an id or a tag,
 * agree with a brute-force walk over what an observer of a replay sees
 * (a free's tag is that of the last alloc of its id). */
typedef struct walk {
	uint8_t type[8192];
	uint64_t id[8192];
	uint32_t tag[8192];     /* alloc: its tag; free: its allocation's (0: none) */
	uint32_t alloc[8192];   /* the alloc event an alloc / free is about */
	uint32_t last[8192];    /* by id: the last alloc event */
	uint64_t n;
} walk;

static void walk_observe(void *ud, vs_replay *r, const vs_outcome *o)
{
	walk *w = ud;
	uint64_t e = o->event;

	(void)r;
	w->n = e;
	w->type[e] = (uint8_t)o->ev->type;
	w->id[e] = o->ev->id;
	if (o->ev->type == VS_EV_ALLOC) {
		w->tag[e] = o->ev->req.tag;
		w->alloc[e] = (uint32_t)e;
		w->last[o->ev->id] = (uint32_t)e;
	} else if (o->ev->type == VS_EV_FREE) {
		uint32_t a = w->last[o->ev->id];
		w->alloc[e] = a;
		w->tag[e] = a ? w->tag[a] : 0;
		w->last[o->ev->id] = 0;
	}
}

static uint64_t brute_find(const walk *w, uint64_t from, int dir, int by_id, uint64_t key)
{
	uint64_t e;

	for (e = dir > 0 ? from + 1 : from - 1; e >= 1 && e <= w->n; e = dir > 0 ? e + 1 : e - 1) {
		if (w->type[e] != VS_EV_ALLOC && w->type[e] != VS_EV_FREE)
			continue;
		if (by_id ? w->id[e] == key : (w->alloc[e] && w->tag[e] == key))
			return e;
	}
	return 0;
}

START_TEST(find_and_frame_numbers)
{
	const char *path = make_trace(3, 4242, 3000);
	vs_replay_config cfg[1], c;
	static walk w;
	char err[512];
	vs_timeline *h;
	vs_trace_reader *rd;
	vs_replay *r;
	uint64_t e, k, frames = 0, found = 0;
	vs_rng rng = { 5u };
	int i;

	config(&cfg[0], "gba-obj-map");
	h = vs_timeline_open(path, 1, cfg, err, sizeof err);
	ck_assert_msg(h != NULL, "%s", err);
	/* small slices: the id table grows and is searched while recording */
	while (vs_timeline_record(h, 37) == 1)
		;
	memset(&w, 0, sizeof w);
	c = cfg[0];
	c.observer = walk_observe;
	c.observer_ud = &w;
	rd = vs_trace_open(path, err, sizeof err);
	r = vs_replay_new(rd, &c, err, sizeof err);
	ck_assert_ptr_nonnull(r);
	vs_replay_run(r, 0);
	vs_replay_free(r);
	ck_assert_uint_eq(w.n, vs_timeline_recorded(h));
	for (e = 1; e <= w.n; e++) {
		const vs_tl_alloc *al = vs_timeline_event_alloc(h, e);
		if (w.type[e] == VS_EV_FRAME) {
			frames++;
			HOT_CMP(vs_timeline_frame_event(h, frames), ==, e);
		}
		if ((w.type[e] == VS_EV_ALLOC || w.type[e] == VS_EV_FREE) && w.alloc[e]) {
			HOT_ASSERT(al != NULL, "event %llu: no alloc", (unsigned long long)e);
			HOT_CMP(al->event, ==, w.alloc[e]);
			HOT_CMP(al->id, ==, w.id[e]);
			found++;
		} else {
			HOT_ASSERT(al == NULL, "event %llu: an alloc", (unsigned long long)e);
		}
	}
	ck_assert_uint_gt(found, 1000);
	ck_assert_uint_gt(frames, 10);
	ck_assert_uint_eq(vs_timeline_frame_count(h), frames);
	ck_assert_uint_eq(vs_timeline_frame_event(h, 0), 0);
	ck_assert_uint_eq(vs_timeline_frame_event(h, frames + 1), 0);
	/* every tag and a spread of ids, from random places both ways */
	for (i = 0; i < 400; i++) {
		int by_id = i % 2, dir = i % 4 < 2 ? 1 : -1;
		uint64_t from = vs_rng_below(&rng, (uint32_t)w.n + 2);
		k = by_id ? 1 + vs_rng_below(&rng, 1800) : vs_rng_below(&rng, 7);
		HOT_ASSERT(vs_timeline_find(h, from, dir, by_id, k) == brute_find(&w, from, dir, by_id, k),
			"find from %llu dir %d %s %llu: %llu, want %llu", (unsigned long long)from, dir, by_id ? "id" : "tag",
			(unsigned long long)k, (unsigned long long)vs_timeline_find(h, from, dir, by_id, k),
			(unsigned long long)brute_find(&w, from, dir, by_id, k));
	}
	/* stepping through every event of one tag visits what the walk has */
	for (e = vs_timeline_find(h, 0, 1, 0, 2), k = 0; e; e = vs_timeline_find(h, e, 1, 0, 2), k++)
		HOT_CMP(w.tag[e], ==, 2);
	for (e = 1, found = 0; e <= w.n; e++)
		found += (w.type[e] == VS_EV_ALLOC || (w.type[e] == VS_EV_FREE && w.alloc[e])) && w.tag[e] == 2;
	ck_assert_uint_eq(k, found);
	ck_assert_uint_gt(k, 50);
	vs_timeline_free(h);
}
END_TEST

/* A bad trace is refused with a located message; a side that stops keeps
 * its last state while the trace's events are still counted. */
START_TEST(open_errors)
{
	const char *bad = vs_test_file(2, "bad.trace", "vramsim-trace 1\narena obj gba-obj\nalloc 1 sprite 9x9 4bpp\n");
	const char *missing = VS_BINARY_DIR "/no/such.trace";
	vs_replay_config cfg[2];
	char err[512];
	vs_timeline *h;

	config(&cfg[0], "gba-obj-map");
	config(&cfg[1], "gba-obj-map");
	ck_assert_ptr_null(vs_timeline_open(missing, 1, cfg, err, sizeof err));
	ck_assert_ptr_nonnull(strstr(err, "such.trace"));
	ck_assert_ptr_null(vs_timeline_open(bad, 3, cfg, err, sizeof err));
	h = vs_timeline_open(bad, 2, cfg, err, sizeof err);
	ck_assert_msg(h != NULL, "%s", err);
	while (vs_timeline_record(h, 10) == 1)
		;
	ck_assert_uint_eq(vs_timeline_recorded(h), 0);
	ck_assert_ptr_nonnull(vs_timeline_error(h, 0));
	ck_assert_ptr_nonnull(strstr(vs_timeline_error(h, 0), ":3:"));
	vs_timeline_free(h);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("viewer_timeline");
	TCase *tc = tcase_create("timeline");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, seek_matches_replay, 0, 3);
	tcase_add_test(tc, failures_and_frames);
	tcase_add_test(tc, find_and_frame_numbers);
	tcase_add_test(tc, open_errors);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vs_test_main(suite());
}
