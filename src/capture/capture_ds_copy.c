/* SPDX-License-Identifier: Zlib */
/* capture_ds_copy.c - a DS capture copied where it stands
 * (vs_ds_capture_copy): vramsim play writes the session so far from a copy
 * finished at once, while the capture itself goes on. */
#include <stdlib.h>
#include <string.h>

#include "capture_ds_int.h"

/* A fresh copy of n elements of size bytes at src (NULL stays NULL). 0, or
 * -1 when out of memory. */
static int dup_array(void *dst_ptr, const void *src, size_t n, size_t size)
{
	void *d = NULL;

	if (src && n) {
		if (!(d = malloc(n * size)))
			return -1;
		memcpy(d, src, n * size);
	}
	memcpy(dst_ptr, &d, sizeof d);
	return 0;
}

static int arena_copy(cap_ds_arena *d, const cap_ds_arena *s, vs_ds_capture_counts *st)
{
	int bad = 0;

	bad |= dup_array(&d->lcdc_of, s->lcdc_of, s->units, sizeof *s->lcdc_of);
	bad |= dup_array(&d->owner, s->owner, s->units, sizeof *s->owner);
	bad |= dup_array(&d->freed, s->freed, s->units, sizeof *s->freed);
	bad |= dup_array(&d->since, s->since, s->units, sizeof *s->since);
	bad |= dup_array(&d->paint, s->paint, s->units, sizeof *s->paint);
	bad |= dup_array(&d->paint_stamp, s->paint_stamp, s->units, sizeof *s->paint_stamp);
	bad |= dup_array(&d->scratch, s->scratch, s->units, sizeof *s->scratch);
	bad |= dup_array(&d->live, s->live, s->live_cap, sizeof *s->live);
	bad |= dup_array(&d->want, s->want, s->want_cap, sizeof *s->want);
	if (!d->live)
		d->live_cap = 0;
	if (!d->want)
		d->want_cap = 0;
	d->st = st;
	return bad ? -1 : 0;
}

vs_ds_capture *vs_ds_capture_copy(const vs_ds_capture *c, FILE *out)
{
	vs_ds_capture *d = malloc(sizeof *d);
	int bad = 0;
	unsigned i;

	if (!d)
		return NULL;
	memcpy(d, c, sizeof *d);
	/* nothing of c's is freed through d, whatever fails below */
	d->header = NULL;
	d->written = NULL;
	d->prev = NULL;
	d->o.ring = NULL;
	for (i = 0; i < VS_DS_CAP_ARENAS; i++) {
		cap_ds_arena *a = &d->ar[i];
		a->lcdc_of = a->owner = a->paint = a->paint_stamp = a->scratch = NULL;
		a->freed = a->since = NULL;
		a->live = NULL;
		a->want = NULL;
	}
	bad |= cap_out_copy(&d->o, &c->o, out) != 0;
	bad |= c->header && !(d->header = strdup(c->header));
	bad |= dup_array(&d->written, c->written, CAP_DS_CELLS, sizeof *c->written);
	bad |= dup_array(&d->prev, c->prev, VS_DS_LCDC_BYTES, 1);
	for (i = 0; i < VS_DS_CAP_ARENAS; i++)
		bad |= arena_copy(&d->ar[i], &c->ar[i], &d->st.arena[i]);
	if (bad) {
		vs_ds_capture_free(d);
		return NULL;
	}
	return d;
}
