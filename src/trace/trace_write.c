/* SPDX-License-Identifier: Zlib */
/* trace_write.c - writes trace format v1 in its canonical form. */
#include <stdio.h>
#include <string.h>

#include "trace/trace.h"
#include "vram/request.h"
#include "vram/arena.h"

static void write_banks(FILE *fp, const vs_arena_decl *d)
{
	vs_arena_decl def;
	unsigned b;

	vs_arena_decl_default(&def, d->kind);
	vs_arena_decl_engine(&def, d->ds_engine);
	if (memcmp(def.ds_bank_slot, d->ds_bank_slot, sizeof def.ds_bank_slot) == 0)
		return;
	fputs(" banks=", fp);
	for (b = 0; b < VS_DS_BANKS; b++)
		if (d->ds_bank_slot[b] != VS_BANK_UNMAPPED)
			fprintf(fp, "%c%u", 'A' + b, (unsigned)d->ds_bank_slot[b]);
}

/* Arena i's line: only the keys whose values are not the kind's defaults. */
static void write_arena(FILE *fp, const vs_trace_header *h, int i)
{
	const vs_arena_decl *d = &h->arenas[i];

	fprintf(fp, "arena %s %s", d->name, vs_arena_kind_name(d->kind));
	switch (d->kind) {
	case VS_ARENA_GBA_OBJ:
	case VS_ARENA_GBA_BG:
		if (d->gba_mode)
			fprintf(fp, " mode=%u", (unsigned)d->gba_mode);
		if (d->kind == VS_ARENA_GBA_OBJ && d->gba_obj_2d)
			fputs(" map=2d", fp);
		break;
	case VS_ARENA_DS_TEX:
	case VS_ARENA_DS_PLTT:
		write_banks(fp, d);
		break;
	case VS_ARENA_DS_OBJ:
	case VS_ARENA_DS_BG:
	case VS_ARENA_DS_BG_EXTPAL:
	case VS_ARENA_DS_OBJ_EXTPAL: {
		static const char *const bmp[] = { "2d-128", "2d-256", "1d-128", "1d-256" };
		if (d->ds_engine == VS_DS_ENGINE_B)
			fputs(" engine=b", fp);
		write_banks(fp, d);
		if (d->kind == VS_ARENA_DS_OBJ && d->gba_obj_2d)
			fputs(" map=2d", fp);
		if (d->kind == VS_ARENA_DS_OBJ && d->ds_obj_boundary > 1)
			fprintf(fp, " boundary=%u", 32u * d->ds_obj_boundary);
		if (d->kind == VS_ARENA_DS_OBJ && d->ds_obj_bmp != VS_DS_BMP_1D_128)
			fprintf(fp, " bmp=%s", bmp[d->ds_obj_bmp & 3]);
		if (d->kind == VS_ARENA_DS_BG && d->ds_bg_char64k)
			fprintf(fp, " char-base=%u", (unsigned)d->ds_bg_char64k);
		if (d->kind == VS_ARENA_DS_BG && d->ds_bg_screen64k)
			fprintf(fp, " screen-base=%u", (unsigned)d->ds_bg_screen64k);
		break;
	}
	case VS_ARENA_RAM:
		fprintf(fp, " size=%u", (unsigned)d->size);
		if (d->base)
			fprintf(fp, " base=0x%x", (unsigned)d->base);
		if (d->unit != 1)
			fprintf(fp, " unit=%u", (unsigned)d->unit);
		break;
	default:
		break;
	}
	if (h->strategy[i][0])
		fprintf(fp, " strategy=%s", h->strategy[i]);
	if (h->options[i][0]) {
		const char *p;
		fputs(" options=", fp);
		for (p = h->options[i]; *p; p++)
			fputc(*p == '=' ? ':' : *p == ',' ? ';' : *p, fp);
	}
	fputc('\n', fp);
}

int vs_trace_write_arena(FILE *fp, const vs_trace_header *h, int i)
{
	write_arena(fp, h, i);
	return ferror(fp) ? -1 : 0;
}

/* The heaps line and the search lists. */
static void write_heaps(FILE *fp, const vs_trace_header *h)
{
	uint32_t a;
	int k, j;

	fputs("heaps", fp);
	if (h->small_arena >= 0)
		fprintf(fp, " small=%s", h->arenas[h->small_arena].name);
	if (h->default_arena >= 0)
		fprintf(fp, " default=%s", h->arenas[h->default_arena].name);
	for (a = 0, k = 0; a < (uint32_t)h->narenas; a++)
		if (h->keep_small >> a & 1)
			fprintf(fp, "%s%s", k++ ? "," : " keep-small=", h->arenas[a].name);
	if (h->no_route)
		fputs(" route=off", fp);
	fputc('\n', fp);
	for (k = 0; k < h->nsearch; k++) {
		fprintf(fp, "search %s", h->search_name[k]);
		for (j = 0; j < h->search_len[k]; j++)
			fprintf(fp, " %s", h->arenas[h->search[k][j]].name);
		fputc('\n', fp);
	}
}

int vs_trace_write_header(FILE *fp, const vs_trace_header *h)
{
	int i;

	fprintf(fp, "vramsim-trace %d\n", VS_TRACE_VERSION);
	for (i = 0; i < h->narenas; i++)
		write_arena(fp, h, i);
	if (h->heaps)
		write_heaps(fp, h);
	return ferror(fp) ? -1 : 0;
}

static void write_request(FILE *fp, const vs_request *rq)
{
	char buf[64];

	if (rq->shape == VS_REQ_BYTES) {
		fprintf(fp, " %u", (unsigned)rq->size);
		return;
	}
	vs_request_describe(rq, buf, sizeof buf);
	fprintf(fp, " %s", buf);
}

/* An alloc line: its route or arena when there is a choice, the request,
 * and the keys that are not their defaults, in canonical order. */
static void write_alloc(FILE *fp, const vs_trace_header *h, const vs_event *ev)
{
	static const char hex[] = "0123456789abcdef";
	uint32_t i;

	fprintf(fp, "%s %llu", vs_trace_event_name(ev->type), (unsigned long long)ev->id);
	if (h->heaps) {
		if (ev->route >= 0)
			fprintf(fp, " %s", vs_trace_route_name(h, ev->route));
	} else if (h->narenas > 1 && ev->arena >= 0) {
		fprintf(fp, " %s", h->arenas[ev->arena].name);
	}
	write_request(fp, &ev->req);
	if (ev->req.shape == VS_REQ_TILE && ev->req.u.tile.cb1)
		fprintf(fp, " cb=%u", (unsigned)ev->req.u.tile.cb1 - 1);
	if (ev->tag && ev->tag[0])
		fprintf(fp, " tag=%s", ev->tag);
	if (ev->req.align > 1)
		fprintf(fp, " align=%u", (unsigned)ev->req.align);
	if (ev->req.dir != VS_DIR_ANY)
		fprintf(fp, " dir=%s", ev->req.dir == VS_DIR_LOW ? "low" : "high");
	if (ev->req.opt)
		fprintf(fp, " opt=%u", (unsigned)ev->req.opt);
	if (ev->req.has_at == VS_AT_ADDR)
		fprintf(fp, " at=0x%x", (unsigned)ev->req.at);
	else if (ev->req.has_at == VS_AT_FAILED)
		fputs(" at=none", fp);
	for (i = 0; h->heaps && i < ev->search_len; i++)
		fprintf(fp, "%s%s", i ? "," : " search=", h->arenas[ev->search[i]].name);
	if (ev->data && ev->data_len) {
		fputs(" data=", fp);
		for (i = 0; i < ev->data_len; i++) {
			fputc(hex[ev->data[i] >> 4], fp);
			fputc(hex[ev->data[i] & 15], fp);
		}
	}
}

int vs_trace_write_event(FILE *fp, const vs_trace_header *h, const vs_event *ev)
{
	switch (ev->type) {
	case VS_EV_ALLOC:
	case VS_EV_REALLOC:
		write_alloc(fp, h, ev);
		break;
	case VS_EV_FREE:
		fprintf(fp, "free %llu", (unsigned long long)ev->id);
		break;
	case VS_EV_MOVE:
		fprintf(fp, "move %llu to=0x%x", (unsigned long long)ev->id, (unsigned)ev->req.at);
		break;
	case VS_EV_VRAMCNT:
		fprintf(fp, "vramcnt %c 0x%02x", 'A' + ev->bank, (unsigned)ev->vramcnt);
		break;
	case VS_EV_LOCK:
	case VS_EV_UNLOCK:
		fprintf(fp, "%s %c", vs_trace_event_name(ev->type), 'A' + ev->bank);
		break;
	case VS_EV_FRAME:
		fputs("frame", fp);
		break;
	case VS_EV_SAVE:
	case VS_EV_RESTORE:
		fprintf(fp, "%s %s", vs_trace_event_name(ev->type), ev->name ? ev->name : "");
		if (ev->arena >= 0)
			fprintf(fp, " %s", h->arenas[ev->arena].name);
		break;
	case VS_EV_RESET:
		fputs("reset", fp);
		if (ev->arena >= 0)
			fprintf(fp, " %s", h->arenas[ev->arena].name);
		break;
	case VS_EV_PUSH:
	case VS_EV_POP:
		fprintf(fp, "%s %s", vs_trace_event_name(ev->type), vs_trace_route_name(h, ev->route));
		break;
	case VS_EV_INIT: {
		const char *p;
		fputs("init", fp);
		if (h->narenas > 1 && ev->arena >= 0)
			fprintf(fp, " %s", h->arenas[ev->arena].name);
		if (ev->options && *ev->options)
			fputc(' ', fp);
		for (p = ev->options ? ev->options : ""; *p; p++)
			fputc(*p == ',' ? ' ' : *p, fp);
		break;
	}
	default:
		return -1;
	}
	fputc('\n', fp);
	return ferror(fp) ? -1 : 0;
}
