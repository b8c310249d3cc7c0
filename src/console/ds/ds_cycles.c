/* SPDX-License-Identifier: Zlib */
/* ds_cycles.c - host side of the "cycles" DS program: boots cycles.nds in
 * DeSmuME, hands it the request list a chunk at a time through the
 * mailbox in main RAM (ds_cycles.h) and collects the timed results. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/in_file.h"
#include "console/ds/ds_cycles_host.h"
#include "console/ds/ds_emu.h"

/* The build tree's ROM folder; "" when the ROMs were not built. */
#ifndef VS_DS_ROM_DIR
#define VS_DS_ROM_DIR ""
#endif

static char rom_dir[1024];

void vs_ds_set_rom_dir(const char *dir)
{
	snprintf(rom_dir, sizeof rom_dir, "%s", dir ? dir : "");
}

const char *vs_ds_cycles_rom(char *buf, size_t len, char *err, size_t errlen)
{
	const char *dir = getenv("VRAMSIM_DS_ROM_DIR");
	FILE *fp;

	if (!dir || !*dir) {
		dir = VS_DS_ROM_DIR;
		/* the module's own folder, when it has the ROM (an installed tree) */
		if (*rom_dir && snprintf(buf, len, "%s/cycles.nds", rom_dir) < (int)len
			&& (fp = vs_in_open_file(buf, err, errlen))) {
			fclose(fp);
			return buf;
		}
	}
	if (!*dir) {
		snprintf(err, errlen, "no DS cycles ROM: vramsim was built without arm-none-eabi-gcc "
			"(install gcc-arm-none-eabi and rebuild, or set VRAMSIM_DS_ROM_DIR)");
		return NULL;
	}
	snprintf(buf, len, "%s/cycles.nds", dir);
	return buf;
}

static uint32_t rd32(const uint8_t *ram, uint32_t off)
{
	const uint8_t *p = ram + (VS_DS_CYC_MAILBOX - VS_DS_MAIN_RAM_BASE) + off;

	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

#define OFF(field) ((uint32_t)offsetof(vs_ds_cyc_mailbox, field))

/* One run: the list, where it has got to, and the mailbox image written. */
typedef struct run {
	const vs_cycles_list *l;
	vs_cycles_result *res;
	uint8_t *buf;     /* header, sets and a chunk of requests */
	uint32_t sent;    /* chunks handed over */
	uint32_t first, count; /* the chunk handed over last */
	uint32_t next;    /* the next request to hand over */
} run;

/* Hands the next chunk over: the header as the program left it with the
 * host's words, the parameter sets, the requests. */
static int send_chunk(run *u, vs_ds_emu *e, char *err, size_t errlen)
{
	const vs_cycles_list *l = u->l;
	const uint8_t *ram = vs_ds_emu_main_ram(e);
	uint32_t i, count = l->n - u->next < VS_DS_CYC_CHUNK ? l->n - u->next : VS_DS_CYC_CHUNK;
	uint8_t *p;

	memcpy(u->buf, ram + (VS_DS_CYC_MAILBOX - VS_DS_MAIN_RAM_BASE), VS_DS_CYC_OFF_SETS);
	put32(u->buf + OFF(go), u->sent + 1);
	put32(u->buf + OFF(strategy), l->t->id);
	put32(u->buf + OFF(first), u->next);
	put32(u->buf + OFF(count), count);
	put32(u->buf + OFF(last), u->next + count == l->n);
	put32(u->buf + OFF(nsets), l->nsets + 1);
	for (i = 0; i < 4; i++)
		put32(u->buf + VS_DS_CYC_OFF_SETS + 4 * i, l->param[i]);
	for (i = 0; i < l->nsets * 4; i++)
		put32(u->buf + VS_DS_CYC_OFF_SETS + 16 + 4 * i, l->sets[i / 4][i % 4]);
	for (i = 0, p = u->buf + VS_DS_CYC_OFF_RQ; i < count; i++, p += 8) {
		const vs_cycles_req *rq = &l->rq[u->next + i];

		p[0] = rq->op;
		p[1] = rq->flags;
		p[2] = (uint8_t)rq->slot;
		p[3] = (uint8_t)(rq->slot >> 8);
		put32(p + 4, rq->arg);
	}
	if (vs_ds_emu_write_main_ram(e, VS_DS_CYC_MAILBOX, u->buf, VS_DS_CYC_OFF_RQ + (size_t)count * 8, err, errlen))
		return -1;
	u->first = u->next;
	u->count = count;
	u->next += count;
	u->sent++;
	return 0;
}

static void take_chunk(run *u, const uint8_t *ram)
{
	uint32_t i;

	for (i = 0; i < u->count; i++) {
		u->res[u->first + i].value = rd32(ram, VS_DS_CYC_OFF_RES + 8 * i);
		u->res[u->first + i].cycles = rd32(ram, VS_DS_CYC_OFF_RES + 8 * i + 4);
	}
}

static void program_error(const uint8_t *ram, char *err, size_t errlen)
{
	static const char *const why[] = { "", "strategy not built into the program", "slot out of range",
		"unknown operation", "chunk too long", "parameter set out of range",
		"the allocator refused its parameters", "the program reaches into its mailbox" };
	uint32_t code = rd32(ram, OFF(error));

	snprintf(err, errlen, "cycles program stopped with error %u%s%s at request %u", (unsigned)code,
		code && code < sizeof why / sizeof why[0] ? ": " : "", code < sizeof why / sizeof why[0] ? why[code] : "",
		(unsigned)rd32(ram, OFF(error_index)));
}

/* After each frame: 1 when every answer is in, 0 to go on, -1 with err. */
static int step(run *u, vs_ds_emu *e, char *err, size_t errlen)
{
	const uint8_t *ram = vs_ds_emu_main_ram(e);

	if (rd32(ram, OFF(magic)) != VS_DS_CYC_MAGIC)
		return 0; /* still starting */
	if (rd32(ram, OFF(state)) == VS_DS_CYC_ST_ERROR) {
		program_error(ram, err, errlen);
		return -1;
	}
	if (rd32(ram, OFF(taken)) != u->sent)
		return 0; /* still working */
	if (u->sent)
		take_chunk(u, ram);
	if (u->sent && u->next == u->l->n)
		return 1;
	return send_chunk(u, e, err, errlen);
}

int vs_ds_cycles_measure(const vs_cycles_list *l, uint32_t max_frames, vs_cycles_result **res,
	vs_ds_cycles_info *info, char *err, size_t errlen)
{
	char rom[1024];
	vs_emu_play play;
	vs_ds_emu *e;
	run u;
	uint32_t f;
	int rc = 0;

	*res = NULL;
	memset(info, 0, sizeof *info);
	if (!vs_ds_cycles_rom(rom, sizeof rom, err, errlen))
		return -1;
	if (l->nsets + 1 > VS_DS_CYC_SETS) {
		snprintf(err, errlen, "the trace initialises the allocator with %u different parameter sets: the DS "
			"program takes %u", (unsigned)(l->nsets + 1), VS_DS_CYC_SETS);
		return -1;
	}
	memset(&u, 0, sizeof u);
	u.l = l;
	u.res = calloc(l->n ? l->n : 1, sizeof *u.res);
	u.buf = malloc(VS_DS_CYC_OFF_RQ + (size_t)VS_DS_CYC_CHUNK * 8);
	if (!u.res || !u.buf) {
		snprintf(err, errlen, "out of memory");
		free(u.res);
		free(u.buf);
		return -1;
	}
	memset(&play, 0, sizeof play);
	/* a call that took a frame's 560,190 ticks would be extraordinary: a
	 * frame for every 8 requests, plus start-up, bounds a run gone wrong */
	play.frames = max_frames ? max_frames : 300 + l->n / 8;
	e = vs_ds_play_open(rom, &play, err, errlen);
	for (f = 0; e && f < play.frames && rc == 0; f++)
		if ((rc = vs_ds_play_frame(e, &play, f, err, errlen)) == 0)
			rc = step(&u, e, err, errlen);
	if (e && rc == 0)
		snprintf(err, errlen, "cycles program did not finish within %u frames (%u of %u requests answered)",
			(unsigned)play.frames, (unsigned)(u.sent ? u.first : 0), (unsigned)l->n);
	if (e && vs_ds_emu_main_ram(e)) {
		const uint8_t *ram = vs_ds_emu_main_ram(e);

		info->overhead2 = rd32(ram, OFF(overhead2));
		info->overhead3 = rd32(ram, OFF(overhead3));
		info->overhead4 = rd32(ram, OFF(overhead4));
		info->frames = f;
		info->chunks = u.sent;
	}
	vs_ds_emu_close(e);
	free(u.buf);
	if (rc != 1) {
		free(u.res);
		return -1;
	}
	*res = u.res;
	return 0;
}
