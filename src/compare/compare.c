/* SPDX-License-Identifier: Zlib */
/* compare.c - runs the trace x strategy matrix on a pool of threads and
 * ranks the rows.
 *
 * Each row is its own replay with its own reader, so workers share nothing
 * but the registry, which they only read. The traces are first read on the
 * pool (planning needs their headers, and which arenas carry at=); rows are
 * then planned in a fixed order and filled in place while the replays run,
 * biggest trace first, so the order of completion never shows in the output.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "compare/compare.h"
#include "base/grow.h"
#include "base/text.h"
#include "strategies/registry.h"
#include "vram/arena.h"

#define MESSAGES_MAX (64u * 1024u)

static const char *const status_names[] = { "ok", "integrity failed", "refused", "error" };

const char *vs_cmp_status_name(vs_cmp_status s)
{
	return (unsigned)s < sizeof status_names / sizeof status_names[0] ? status_names[s] : "?";
}

void vs_cmp_config_default(vs_cmp_config *c)
{
	memset(c, 0, sizeof *c);
	c->timing = 1;
	c->check_bytes = 1;
	c->check_rules = 1;
}

/* ---- timing: a strategy that wraps another and times alloc and free ------
 * The wrapper's state is a header followed by the real strategy's state. The
 * header learns which strategy it wraps from a thread-specific value set just
 * before vs_replay_new (init has no other way in). */

typedef struct timed_head {
	const vs_strategy *inner;
	uint64_t ns, calls;     /* time in the strategy; its allocs and frees */
	uint64_t pairs;         /* clock pairs read around its calls, frames too */
	uint64_t cal_ns, cal_n; /* empty clock pairs read along the way */
} timed_head;

#define HEAD_SIZE 64 /* keeps the inner state 16-byte aligned */
#define INNER(st) ((void *)((unsigned char *)(st) + HEAD_SIZE))

static pthread_key_t timing_key;
static pthread_once_t timing_once = PTHREAD_ONCE_INIT;

/* CPU time of the calling thread: replays run on a pool of threads, and a
 * thread's own clock does not count the time it spends descheduled, so the
 * figure moves far less with machine load than a wall clock. */
static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void timing_setup(void)
{
	pthread_key_create(&timing_key, NULL);
}

/* Raw clock differences add up. At every 4th call (the first one too) an
 * empty pair of reads is timed as well, on the same thread under the same
 * load, and their mean comes off the total at the end: the thread clock
 * costs far more than a call (a system call, ~600 ns, on some hosts) and
 * that cost moves with load, so a figure taken once at start-up would not
 * do. */
static void account_time(timed_head *h, uint64_t t0, uint64_t t1)
{
	h->ns += t1 - t0;
	if ((++h->pairs & 3u) == 1u) {
		uint64_t a = now_ns();
		h->cal_ns += now_ns() - a;
		h->cal_n++;
	}
}

/* CPU nanoseconds the calls took, the clock's own cost taken off. */
static uint64_t timed_ns(const timed_head *h)
{
	double over, ns;

	if (!h->cal_n)
		return 0;
	over = (double)h->cal_ns / (double)h->cal_n * (double)h->pairs;
	ns = (double)h->ns - over;
	return ns > 0 ? (uint64_t)(ns + 0.5) : 0;
}

static int w_init(void *st, const vs_arena_decl *arena, const char *options, uint8_t *mem, char *err, size_t errlen)
{
	timed_head *h = st;

	h->inner = pthread_getspecific(timing_key);
	if (!h->inner) {
		snprintf(err, errlen, "timing wrapper used outside vs_cmp_run");
		return -1;
	}
	return h->inner->init(INNER(st), arena, options, mem, err, errlen);
}

static int w_alloc(void *st, const vs_request *rq, vs_placement *out)
{
	timed_head *h = st;
	uint64_t t0 = now_ns();
	int rc = h->inner->alloc(INNER(st), rq, out);

	account_time(h, t0, now_ns());
	h->calls++;
	return rc;
}

static int w_free(void *st, const vs_placement *pl)
{
	timed_head *h = st;
	uint64_t t0 = now_ns();
	int rc = h->inner->free(INNER(st), pl);

	account_time(h, t0, now_ns());
	h->calls++;
	return rc;
}

static void w_reset(void *st)
{
	timed_head *h = st;

	h->inner->reset(INNER(st));
}

static void w_walk_free(void *st, vs_extent_fn fn, void *ud)
{
	timed_head *h = st;

	h->inner->walk_free(INNER(st), fn, ud);
}

static int w_save(void *st, void *buf)
{
	timed_head *h = st;

	return h->inner->save(INNER(st), buf);
}

static int w_restore(void *st, const void *buf)
{
	timed_head *h = st;

	return h->inner->restore(INNER(st), buf);
}

static void w_dump(void *st, vs_print_fn print, void *ud)
{
	timed_head *h = st;

	h->inner->dump(INNER(st), print, ud);
}

static void w_fini(void *st)
{
	timed_head *h = st;

	if (h->inner)
		h->inner->fini(INNER(st));
}

static void w_held(void *st, vs_extent_fn fn, void *ud)
{
	timed_head *h = st;

	h->inner->held(INNER(st), fn, ud);
}

/* The inner strategy's RAM, never the wrapper's state (its header is ours). */
static uint64_t w_ram(void *st)
{
	timed_head *h = st;

	return h->inner->ram ? h->inner->ram(INNER(st)) : h->inner->state_size;
}

static size_t w_moves(void *st, vs_move *out, size_t max)
{
	timed_head *h = st;

	return h->inner->moves(INNER(st), out, max);
}

static size_t w_released(void *st, uint32_t *out, size_t max)
{
	timed_head *h = st;

	return h->inner->released(INNER(st), out, max);
}

static void w_vramcnt(void *st, unsigned bank, uint8_t value)
{
	timed_head *h = st;

	h->inner->vramcnt(INNER(st), bank, value);
}

static void w_lock(void *st, unsigned bank, int locked)
{
	timed_head *h = st;

	h->inner->lock(INNER(st), bank, locked);
}

/* A frame call may compact: its time is the strategy's and goes into ns/op,
 * though the call is not an op. */
static void w_frame(void *st)
{
	timed_head *h = st;
	uint64_t t0 = now_ns();

	h->inner->frame(INNER(st));
	account_time(h, t0, now_ns());
}

/* Every operation is forwarded explicitly: a member copied as is would be
 * called with the wrapper's state instead of the inner strategy's, and one
 * left out is an operation the timed strategy never hears of. released is
 * the table's last member: a member added after it stops the build here
 * until it is forwarded too. */
typedef char vs_wrapper_knows_every_member[
	offsetof(vs_strategy, released) + sizeof(((vs_strategy *)0)->released) == sizeof(vs_strategy) ? 1 : -1];

static void make_wrapper(vs_strategy *w, const vs_strategy *s)
{
	memset(w, 0, sizeof *w);
	w->abi = s->abi;
	w->name = s->name;
	w->summary = s->summary;
	w->arenas = s->arenas;
	w->flags = s->flags;
	w->save_size = s->save_size;
	w->state_size = HEAD_SIZE + s->state_size;
	w->flags &= ~(uint32_t)VS_STRAT_RELOCATABLE; /* the header holds a pointer */
	w->init = w_init;
	w->alloc = w_alloc;
	w->free = w_free;
	w->reset = s->reset ? w_reset : NULL;
	w->walk_free = s->walk_free ? w_walk_free : NULL;
	w->save = s->save ? w_save : NULL;
	w->restore = s->restore ? w_restore : NULL;
	w->dump = s->dump ? w_dump : NULL;
	w->fini = s->fini ? w_fini : NULL;
	w->held = s->held ? w_held : NULL;
	w->ram = w_ram;
	w->moves = s->moves ? w_moves : NULL;
	w->frame = s->frame ? w_frame : NULL;
	w->vramcnt = s->vramcnt ? w_vramcnt : NULL;
	w->lock = s->lock ? w_lock : NULL;
	w->released = s->released ? w_released : NULL;
}

/* ---- jobs ------------------------------------------------------------------ */

typedef struct job {
	vs_cmp_row *row;
	const char *path;
	int arena;
	const vs_strategy *strategy;
	const char *options;
	vs_strategy wrapper;
	uint64_t peak_seen;
	uint64_t size;        /* of its trace: the order replays start in */
	size_t msg_len;
	int timing, check_bytes, check_rules;
} job;

static void collect_message(void *ud, const char *line)
{
	job *j = ud;
	size_t n = strlen(line);
	char *p;

	if (j->msg_len + n + 2 > MESSAGES_MAX)
		return;
	p = realloc(j->row->messages, j->msg_len + n + 2);
	if (!p)
		return;
	memcpy(p + j->msg_len, line, n);
	p[j->msg_len + n] = '\n';
	p[j->msg_len + n + 1] = '\0';
	j->msg_len += n + 1;
	j->row->messages = p;
}

static void capture_peak(job *j, const vs_metrics *m, uint64_t event)
{
	vs_cmp_row *row = j->row;

	j->peak_seen = m->live_bytes;
	row->peak_event = event;
	row->peak_free_extents = m->free_extents;
	row->peak_largest_free = m->largest_free;
	/* internal fragmentation: taken beyond the request, rounding and headers */
	row->peak_internal = (m->granted_bytes >= m->live_bytes ? m->granted_bytes - m->live_bytes : 0) +
		m->overhead_bytes;
	row->peak_overhead = m->overhead_bytes;
}

/* Called after every event: takes the arena's state at the first event where
 * its live bytes reach a new high. */
static void observe(void *ud, vs_replay *r, const vs_outcome *o)
{
	job *j = ud;
	const vs_metrics *m = vs_replay_metrics(r, j->arena);

	if (m->live_bytes > j->peak_seen)
		capture_peak(j, m, o->event);
}

static double round6(double x)
{
	char buf[64];

	snprintf(buf, sizeof buf, "%.6f", x);
	return strtod(buf, NULL);
}

static void run_job(job *j)
{
	vs_cmp_row *row = j->row;
	vs_replay_config cfg;
	vs_trace_reader *rd;
	vs_replay *r;
	char err[1024];
	const vs_metrics *m;
	uint64_t ns = 0, calls = 0;

	rd = vs_trace_open(j->path, err, sizeof err);
	if (!rd) {
		row->status = VS_CMP_ERROR;
		snprintf(row->note, sizeof row->note, "%s", err);
		return;
	}
	vs_replay_config_default(&cfg);
	cfg.check_bytes = j->check_bytes;
	cfg.check_rules = j->check_rules;
	cfg.strategy[j->arena] = j->timing ? &j->wrapper : j->strategy;
	cfg.options[j->arena] = j->options;
	cfg.observer = observe;
	cfg.observer_ud = j;
	cfg.message = collect_message;
	cfg.message_ud = j;
	if (j->timing) {
		make_wrapper(&j->wrapper, j->strategy);
		pthread_setspecific(timing_key, j->strategy);
	}
	r = vs_replay_new(rd, &cfg, err, sizeof err);
	if (!r) {
		row->status = VS_CMP_REFUSED;
		snprintf(row->note, sizeof row->note, "%s", err);
		return;
	}
	m = vs_replay_metrics(r, j->arena);
	capture_peak(j, m, 0);
	if (vs_replay_run(r, 0) < 0) {
		row->status = VS_CMP_ERROR;
		snprintf(row->note, sizeof row->note, "%s", vs_replay_error(r));
	} else {
		row->status = m->checks ? VS_CMP_INTEGRITY : VS_CMP_OK;
	}
	row->m = *m;
	row->peak_frag = round6(m->peak_frag);
	row->mean_frag = round6(m->events ? m->frag_sum / (double)m->events : 0.0);
	if (j->timing) {
		const timed_head *h = vs_replay_strategy_state(r, j->arena);
		calls = h->calls;
		ns = timed_ns(h);
	}
	row->calls = calls;
	row->ns_per_op = calls ? (double)ns / (double)calls : 0.0;
	vs_replay_free(r);
}

/* ---- a pool of threads ------------------------------------------------------
 * Runs fn(ud, k) for k in [0, n) on nthreads threads, the calling thread one
 * of them; items are taken in order as threads come free. */

typedef struct pool {
	int n, next;
	pthread_mutex_t lock;
	void (*fn)(void *ud, int k);
	void *ud;
} pool;

static void *worker(void *arg)
{
	pool *p = arg;

	for (;;) {
		int k;
		pthread_mutex_lock(&p->lock);
		k = p->next < p->n ? p->next++ : -1;
		pthread_mutex_unlock(&p->lock);
		if (k < 0)
			return NULL;
		p->fn(p->ud, k);
	}
}

static void parallel_for(int n, int nthreads, void (*fn)(void *ud, int k), void *ud)
{
	pool p;
	pthread_t *threads = NULL;
	int started = 0, i;

	p.n = n;
	p.next = 0;
	p.fn = fn;
	p.ud = ud;
	pthread_mutex_init(&p.lock, NULL);
	if (nthreads > n)
		nthreads = n;
	if (nthreads > 1)
		threads = calloc((size_t)nthreads - 1, sizeof *threads);
	for (i = 0; threads && i < nthreads - 1; i++) {
		if (pthread_create(&threads[i], NULL, worker, &p) != 0)
			break;
		started++;
	}
	worker(&p); /* the calling thread works too, and finishes whatever is left */
	for (i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	pthread_mutex_destroy(&p.lock);
	free(threads);
}

/* A job and its trace's size: replays run biggest first, ties in row order. */
typedef struct by_size { uint64_t size; int job; } by_size;

static int bigger_first(const void *pa, const void *pb)
{
	const by_size *a = pa, *b = pb;

	if (a->size != b->size)
		return a->size > b->size ? -1 : 1;
	return a->job < b->job ? -1 : a->job > b->job;
}

/* The rows' replays, biggest trace first (order[k].job is a job), so that no
 * long replay starts last while the other threads sit idle. */
typedef struct run_set {
	job *jobs;
	by_size *order;
	int njobs, done;
	pthread_mutex_t lock;
	const vs_cmp_config *cfg;
} run_set;

static void run_one(void *ud, int k)
{
	run_set *rs = ud;

	run_job(&rs->jobs[rs->order[k].job]);
	if (rs->cfg->progress) {
		pthread_mutex_lock(&rs->lock);
		rs->cfg->progress(rs->cfg->progress_ud, ++rs->done, rs->njobs);
		pthread_mutex_unlock(&rs->lock);
	}
}

/* ---- planning -------------------------------------------------------------- */

/* The row's key of a trace: the path as given, its leading "./" dropped
 * with the slashes after it ("./x" and ".//x" are "x"), so that the key of
 * a relative path stays relative: ".//tmp/x" is never "/tmp/x". */
static const char *trace_key(const char *path)
{
	const char *k = path;

	while (k[0] == '.' && k[1] == '/') {
		k += 2;
		while (*k == '/')
			k++;
	}
	return *k ? k : path;
}

/* Notes an arena that gets no row. 0, or -1 out of memory. */
static int add_unmatched(vs_cmp_result *res, const char *trace, const vs_arena_decl *a)
{
	vs_cmp_unmatched *u;

	if (vs_grow_int(&res->unmatched, sizeof *u, &res->unmatched_cap, (size_t)res->nunmatched + 1, 4))
		return -1;
	u = &res->unmatched[res->nunmatched++];
	snprintf(u->trace, sizeof u->trace, "%s", trace);
	snprintf(u->arena, sizeof u->arena, "%s", a->name);
	snprintf(u->kind, sizeof u->kind, "%s", vs_arena_kind_name(a->kind));
	return 0;
}

static int add_row(vs_cmp_result *res, job **jobs, int *cap, const char *path, const vs_trace_header *h,
	int arena, const vs_strategy *s, const char *options, int explicit_choice)
{
	vs_cmp_row *row;
	job *j;

	if (res->nrows == *cap) {
		/* rows and jobs grow together: both to the capacity *cap gets */
		int rows_cap = *cap;
		if (vs_grow_int(&res->rows, sizeof *res->rows, &rows_cap, (size_t)res->nrows + 1, 64) ||
			vs_grow_int(jobs, sizeof **jobs, cap, (size_t)res->nrows + 1, 64))
			return -1;
	}
	row = &res->rows[res->nrows];
	memset(row, 0, sizeof *row);
	snprintf(row->trace, sizeof row->trace, "%s", trace_key(path));
	snprintf(row->arena, sizeof row->arena, "%s", h->arenas[arena].name);
	snprintf(row->kind, sizeof row->kind, "%s", vs_arena_kind_name(h->arenas[arena].kind));
	if (options && *options)
		snprintf(row->strategy, sizeof row->strategy, "%s:%s", s->name, options);
	else
		snprintf(row->strategy, sizeof row->strategy, "%s", s->name);
	row->explicit_choice = explicit_choice;
	j = &(*jobs)[res->nrows];
	memset(j, 0, sizeof *j);
	j->path = path;
	j->arena = arena;
	j->strategy = s;
	j->options = options && *options ? options : NULL;
	res->nrows++;
	return 0;
}

/* Arenas (a bit each) in which every allocation says where the game put it
 * (at=): the ones the game's own placement, `recorded`, can replay. Reads
 * the rest of the trace; -1 on a malformed one (err says where). */
static long addressed_arenas(vs_trace_reader *rd, char *err, size_t errlen)
{
	const vs_trace_header *h = vs_trace_header_of(rd);
	unsigned long seen = 0, bare = 0, bit;
	vs_event ev;
	int rc;

	while ((rc = vs_trace_next(rd, &ev)) > 0) {
		if (ev.type != VS_EV_ALLOC)
			continue;
		/* routed heap allocations pick their arena at replay time */
		bit = ev.arena >= 0 && !h->heaps ? 1ul << ev.arena : (1ul << h->narenas) - 1;
		seen |= bit;
		if (!ev.req.has_at)
			bare |= bit;
	}
	if (rc < 0) {
		snprintf(err, errlen, "%s", vs_trace_error(rd));
		return -1;
	}
	return (long)(seen & ~bare);
}

/* What planning needs of one trace: its header, and (with no strategies
 * named) the arenas `recorded` can replay, which takes reading it all. */
typedef struct file_id {
	dev_t dev;
	ino_t ino;
	int t;           /* the trace's place in cfg->traces */
} file_id;

typedef struct scan {
	vs_trace_header h;
	long addressed;  /* -1: the trace is unreadable or malformed (err) */
	uint64_t size;   /* bytes: the order of the replays */
	file_id id;      /* the file read, whatever name it was given by */
	char err[1024];
} scan;

typedef struct scan_set {
	const vs_cmp_config *cfg;
	scan *v;
} scan_set;

static void scan_one(void *ud, int t)
{
	scan_set *ss = ud;
	scan *sc = &ss->v[t];
	vs_trace_reader *rd = vs_trace_open(ss->cfg->traces[t], sc->err, sizeof sc->err);
	struct stat st;

	sc->addressed = -1;
	if (!rd)
		return;
	if (stat(ss->cfg->traces[t], &st) != 0) {
		vs_text_path_msg(sc->err, sizeof sc->err, ss->cfg->traces[t], "cannot read: %s", strerror(errno));
		vs_trace_close(rd);
		return;
	}
	sc->id.dev = st.st_dev;
	sc->id.ino = st.st_ino;
	sc->id.t = t;
	sc->h = *vs_trace_header_of(rd);
	sc->size = vs_trace_size(rd);
	sc->addressed = ss->cfg->nchoices ? 0 : addressed_arenas(rd, sc->err, sizeof sc->err);
	vs_trace_close(rd);
}

static int by_file(const void *pa, const void *pb)
{
	const file_id *a = pa, *b = pb;

	if (a->dev != b->dev)
		return a->dev < b->dev ? -1 : 1;
	if (a->ino != b->ino)
		return a->ino < b->ino ? -1 : 1;
	return a->t < b->t ? -1 : a->t > b->t;
}

static int same_file(const file_id *a, const file_id *b)
{
	return a->dev == b->dev && a->ino == b->ino;
}

/* A trace's path is its rows' key, so each is whole and names one file
 * once: a path too long to be a key, or a file given a second time by any
 * name ("x" and "./x", a link: one device and inode), is refused before
 * anything runs. A second run of one file would be ranked against the
 * first, and its rows repeat the first's, which a baseline refuses. */
static int check_keys(const vs_cmp_config *cfg, const scan *v, char *err, size_t errlen)
{
	file_id *ids;
	char a[VS_TEXT_PATH_SHOWN];
	int t, again = -1, first = -1;

	for (t = 0; t < cfg->ntraces; t++) {
		if (strlen(trace_key(cfg->traces[t])) > VS_CMP_TRACE_MAX) {
			vs_text_path_msg(err, errlen, cfg->traces[t], "a trace path is at most %d bytes (it is the rows' key)",
				VS_CMP_TRACE_MAX);
			return -1;
		}
	}
	if (!(ids = malloc((cfg->ntraces > 0 ? (size_t)cfg->ntraces : 1) * sizeof *ids))) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (t = 0; t < cfg->ntraces; t++)
		ids[t] = v[t].id;
	qsort(ids, (size_t)cfg->ntraces, sizeof *ids, by_file);
	/* the first trace, in the order given, that repeats an earlier one: the
	 * second of a file's group (each group is in the order given) */
	for (t = 1; t < cfg->ntraces; t++) {
		if (same_file(&ids[t - 1], &ids[t]) && (t == 1 || !same_file(&ids[t - 2], &ids[t])) &&
			(again < 0 || ids[t].t < again)) {
			again = ids[t].t;
			first = ids[t - 1].t;
		}
	}
	free(ids);
	if (again < 0)
		return 0;
	vs_text_path(a, sizeof a, cfg->traces[first]);
	vs_text_path_msg(err, errlen, cfg->traces[again], "the same file as %s, given before: give each trace once "
		"(its path is its rows' key)", a);
	return -1;
}

static int plan(const vs_cmp_config *cfg, int nthreads, vs_cmp_result *res, job **jobs, char *err, size_t errlen)
{
	int cap = 0, t, i, c;
	size_t k;
	int *used = NULL;
	scan_set ss;

	ss.cfg = cfg;
	ss.v = calloc(cfg->ntraces ? (size_t)cfg->ntraces : 1, sizeof *ss.v);
	if (!ss.v || (cfg->nchoices && !(used = calloc((size_t)cfg->nchoices, sizeof *used)))) {
		free(ss.v);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	/* the traces are read on every thread; the first bad one in order is reported */
	parallel_for(cfg->ntraces, nthreads, scan_one, &ss);
	for (t = 0; t < cfg->ntraces; t++) {
		if (ss.v[t].addressed < 0) {
			snprintf(err, errlen, "%s", ss.v[t].err);
			goto fail;
		}
	}
	if (check_keys(cfg, ss.v, err, errlen))
		goto fail;
	for (t = 0; t < cfg->ntraces; t++) {
		const char *path = cfg->traces[t];
		const vs_trace_header *hp = &ss.v[t].h;
		long addressed = ss.v[t].addressed;
		int first = res->nrows;
		for (i = 0; i < hp->narenas; i++) {
			vs_arena_kind kind = hp->arenas[i].kind;
			int before = res->nrows;
			if (cfg->nchoices) {
				for (c = 0; c < cfg->nchoices; c++) {
					const vs_cmp_choice *ch = &cfg->choices[c];
					if (ch->arena[0] && strcmp(ch->arena, hp->arenas[i].name) != 0)
						continue;
					if (!vs_strategy_manages(ch->strategy, kind))
						continue;
					used[c] = 1;
					if (add_row(res, jobs, &cap, path, hp, i, ch->strategy, ch->options, 1))
						goto oom;
				}
			} else {
				for (k = 0; k < vs_strategy_count(); k++) {
					const vs_strategy *s = vs_strategy_at(k);
					char why[512];
					if ((s->flags & VS_STRAT_NEEDS_AT) && !(addressed >> i & 1))
						continue;
					/* a 1D-only strategy in a 2D OBJ arena: not a row unless named */
					if (vs_strategy_manages(s, kind) && vs_strategy_refuses(s, &hp->arenas[i], why, sizeof why))
						continue;
					if (vs_strategy_manages(s, kind) && add_row(res, jobs, &cap, path, hp, i, s, NULL, 0))
						goto oom;
				}
			}
			if (res->nrows == before && add_unmatched(res, trace_key(path), &hp->arenas[i]))
				goto oom;
		}
		for (i = first; i < res->nrows; i++)
			(*jobs)[i].size = ss.v[t].size;
	}
	for (c = 0; c < cfg->nchoices; c++) {
		if (used[c])
			continue;
		if (cfg->choices[c].arena[0])
			snprintf(err, errlen, "--strategy %s=%s: no trace has an arena '%s' that %s can manage",
				cfg->choices[c].arena, cfg->choices[c].strategy->name, cfg->choices[c].arena,
				cfg->choices[c].strategy->name);
		else
			snprintf(err, errlen, "--strategy %s manages none of the traces' arenas",
				cfg->choices[c].strategy->name);
		goto fail;
	}
	free(used);
	free(ss.v);
	return 0;
oom:
	snprintf(err, errlen, "out of memory");
fail:
	free(used);
	free(ss.v);
	return -1;
}

static int online_cores(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int)n : 1;
}

int vs_cmp_run(const vs_cmp_config *cfg, vs_cmp_result *res, char *err, size_t errlen)
{
	job *jobs = NULL;
	run_set rs;
	int nthreads = cfg->jobs > 0 ? cfg->jobs : online_cores(), i;

	memset(res, 0, sizeof *res);
	res->timing = cfg->timing;
	if (plan(cfg, nthreads, res, &jobs, err, errlen)) {
		free(jobs);
		vs_cmp_result_free(res);
		return -1;
	}
	pthread_once(&timing_once, timing_setup);
	rs.order = malloc((res->nrows ? (size_t)res->nrows : 1) * sizeof *rs.order);
	if (!rs.order) {
		snprintf(err, errlen, "out of memory");
		free(jobs);
		vs_cmp_result_free(res);
		return -1;
	}
	for (i = 0; i < res->nrows; i++) {
		jobs[i].row = &res->rows[i];
		jobs[i].timing = cfg->timing;
		jobs[i].check_bytes = cfg->check_bytes;
		jobs[i].check_rules = cfg->check_rules;
		rs.order[i].size = jobs[i].size;
		rs.order[i].job = i;
	}
	qsort(rs.order, (size_t)res->nrows, sizeof *rs.order, bigger_first);
	rs.jobs = jobs;
	rs.njobs = res->nrows;
	rs.done = 0;
	rs.cfg = cfg;
	pthread_mutex_init(&rs.lock, NULL);
	parallel_for(res->nrows, nthreads, run_one, &rs);
	pthread_mutex_destroy(&rs.lock);
	free(rs.order);
	free(jobs);
	vs_cmp_rank(res);
	return 0;
}

void vs_cmp_result_free(vs_cmp_result *res)
{
	int i;

	for (i = 0; i < res->nrows; i++)
		free(res->rows[i].messages);
	free(res->rows);
	free(res->best);
	free(res->unmatched);
	memset(res, 0, sizeof *res);
}

/* ---- ranking --------------------------------------------------------------- */

typedef struct criterion {
	const char *what;    /* "fewest failures" */
	const char *metric;  /* "failures" */
	int frac;            /* print as a fraction */
	int more_is_better;
} criterion;

/* Requests served come first: a strategy that served nothing has no
 * failures of some kinds, no fragmentation and no high-water, and must not
 * look best for it. */
static const criterion criteria[] = {
	{ "most requests served", "served", 0, 1 },
	{ "fewest failures", "failures", 0, 0 },
	{ "lowest peak fragmentation", "peak frag", 1, 0 },
	{ "lowest high-water", "high-water", 0, 0 },
	{ "least internal fragmentation at peak", "internal frag", 0, 0 },
};
#define NCRIT ((int)(sizeof criteria / sizeof criteria[0]))

static double crit_value(const vs_cmp_row *r, int c)
{
	switch (c) {
	case 0: return (double)(r->m.allocs + r->m.shared_hits);
	case 1: return (double)r->m.failures;
	case 2: return r->peak_frag;
	case 3: return (double)r->m.high_water;
	default: return (double)r->peak_internal;
	}
}

/* <0 when a ranks before b; the earlier row wins ties. */
static int rank_cmp(const vs_cmp_row *a, const vs_cmp_row *b, int *decided_by)
{
	int c;

	for (c = 0; c < NCRIT; c++) {
		double x = crit_value(a, c), y = crit_value(b, c);
		if (x != y) {
			if (decided_by)
				*decided_by = c;
			return (x < y) != criteria[c].more_is_better ? -1 : 1;
		}
	}
	if (decided_by)
		*decided_by = NCRIT;
	return a < b ? -1 : a > b;
}

static void fmt_value(char *buf, size_t len, int c, double v)
{
	if (criteria[c].frac)
		snprintf(buf, len, "%.3f", v);
	else
		snprintf(buf, len, "%.0f", v);
}

static void explain(vs_cmp_best *b, const vs_cmp_row *best, const vs_cmp_row *next, int nok, int nrows)
{
	char x[64], y[64];
	int c, by = 0;
	size_t n;

	if (!next) {
		snprintf(b->why, sizeof b->why, "%s", !nok ? "nothing ran clean" : nrows == 1 ? "the only strategy compared" :
			"the only strategy that ran clean");
		return;
	}
	rank_cmp(best, next, &by);
	if (by == NCRIT) {
		snprintf(b->why, sizeof b->why, "ties with %s on every criterion; listed first", next->strategy);
		return;
	}
	n = 0;
	if (by > 0) {
		n += (size_t)snprintf(b->why + n, sizeof b->why - n, "ties with %s on", next->strategy);
		for (c = 0; c < by && n < sizeof b->why; c++) {
			fmt_value(x, sizeof x, c, crit_value(best, c));
			n += (size_t)snprintf(b->why + n, sizeof b->why - n, "%s %s (%s)", c ? "," : "", criteria[c].metric, x);
		}
		if (n < sizeof b->why)
			n += (size_t)snprintf(b->why + n, sizeof b->why - n, "; ");
	}
	fmt_value(x, sizeof x, by, crit_value(best, by));
	fmt_value(y, sizeof y, by, crit_value(next, by));
	if (strcmp(x, y) == 0) {
		/* the difference is below the printed precision */
		snprintf(x, sizeof x, "%.6f", crit_value(best, by));
		snprintf(y, sizeof y, "%.6f", crit_value(next, by));
	}
	if (n < sizeof b->why)
		snprintf(b->why + n, sizeof b->why - n, "%s (%s vs %s for %s)", criteria[by].what, x, y, next->strategy);
}

void vs_cmp_rank(vs_cmp_result *res)
{
	int start = 0, i;

	free(res->best);
	res->best = NULL;
	res->nbest = 0;
	if (!res->nrows)
		return;
	res->best = calloc((size_t)res->nrows, sizeof *res->best);
	if (!res->best)
		return;
	while (start < res->nrows) {
		int end = start, nok = 0, r, b1 = -1, b2 = -1;
		vs_cmp_best *b = &res->best[res->nbest++];
		while (end < res->nrows && strcmp(res->rows[end].trace, res->rows[start].trace) == 0 &&
			strcmp(res->rows[end].arena, res->rows[start].arena) == 0)
			end++;
		/* rank = 1 + number of clean rows that rank before it */
		for (i = start; i < end; i++) {
			vs_cmp_row *ri = &res->rows[i];
			ri->rank = 0;
			if (ri->status != VS_CMP_OK)
				continue;
			nok++;
			r = 1;
			for (int k = start; k < end; k++)
				if (k != i && res->rows[k].status == VS_CMP_OK && rank_cmp(&res->rows[k], ri, NULL) < 0)
					r++;
			ri->rank = r;
			if (r == 1)
				b1 = i;
			else if (r == 2)
				b2 = i;
		}
		b->row = b1;
		snprintf(b->trace, sizeof b->trace, "%s", res->rows[start].trace);
		snprintf(b->arena, sizeof b->arena, "%s", res->rows[start].arena);
		explain(b, b1 >= 0 ? &res->rows[b1] : NULL, b1 >= 0 && b2 >= 0 ? &res->rows[b2] : NULL, nok,
			end - start);
		start = end;
	}
}
