/* SPDX-License-Identifier: Zlib */
/* trace_header.c - the trace header (docs/trace-format.md): the version
 * line, `arena` declarations and their keys (DS banks among them), the
 * `heaps` line and `search` lists, and the look-ups of arenas and routes by
 * name that the events use too. Lines and tokens come from the full path
 * (trace_read.c); the header ends at the first other statement, which is
 * kept for vs_trace_next.
 */
#include <stdlib.h>
#include <string.h>

#include "base/options.h"
#include "trace_read_int.h"
#include "trace/trace.h"
#include "vram/arena.h"
#include "vram/ds_banks.h"

/* ---- arenas ------------------------------------------------------------ */

/* Two banks of a 2D arena at the same bytes: the hardware would mix them. */
static int banks_overlap(vs_trace_reader *r, const vs_arena_decl *d, uint32_t col)
{
	unsigned i, j;
	uint32_t oi, li, oj, lj;

	for (i = 0; i < VS_DS_BANKS; i++)
		for (j = i + 1; j < VS_DS_BANKS; j++) {
			if (d->ds_bank_slot[i] == VS_BANK_UNMAPPED || d->ds_bank_slot[j] == VS_BANK_UNMAPPED ||
			    vs_ds_bank_range(d, i, d->ds_bank_slot[i], &oi, &li, NULL, 0) ||
			    vs_ds_bank_range(d, j, d->ds_bank_slot[j], &oj, &lj, NULL, 0))
				continue;
			if (oi < oj + lj && oj < oi + li)
				return vs_trace_fail(r, col, "banks: banks %c and %c both map 0x%x", 'A' + (int)i,
					'A' + (int)j, (unsigned)(d->base + (oi > oj ? oi : oj)));
		}
	return 0;
}

static int parse_banks(vs_trace_reader *r, vs_arena_decl *d, const char *s, size_t len, uint32_t col)
{
	size_t i;
	uint8_t seen[VS_DS_BANKS] = { 0 };

	memset(d->ds_bank_slot, VS_BANK_UNMAPPED, sizeof d->ds_bank_slot);
	if (len == 0 || len % 2)
		return vs_trace_fail(r, col, "banks: expected bank letters each followed by a slot digit, as A0B1C2D3");
	for (i = 0; i < len; i += 2) {
		char b = s[i], sl = s[i + 1];
		unsigned bank, slot, j;
		if (b < 'A' || b > 'I' || sl < '0' || sl > '9')
			return vs_trace_fail(r, col + (uint32_t)i, "banks: '%c%c' is not a bank letter A-I and a slot digit",
				b, sl);
		bank = (unsigned)(b - 'A');
		slot = (unsigned)(sl - '0');
		if (seen[bank]++)
			return vs_trace_fail(r, col + (uint32_t)i, "banks: bank %c is listed twice", b);
		if (VS_ARENA_BIT(d->kind) & VS_ARENA_ANY_DS_2D) {
			uint32_t off, blen;
			char why[128];
			if (vs_ds_bank_range(d, bank, slot, &off, &blen, why, sizeof why))
				return vs_trace_fail(r, col + (uint32_t)i, "banks: %s", why);
		} else if (d->kind == VS_ARENA_DS_TEX) {
			if (bank > 3)
				return vs_trace_fail(r, col + (uint32_t)i, "banks: bank %c cannot hold texture images (only A-D)", b);
			if (slot > 3)
				return vs_trace_fail(r, col + (uint32_t)i + 1, "banks: texture slot %u does not exist (0-3)", slot);
			for (j = 0; j < 4; j++)
				if (d->ds_bank_slot[j] == slot)
					return vs_trace_fail(r, col + (uint32_t)i, "banks: banks %c and %c both map texture slot %u",
						'A' + (int)j, b, slot);
		} else {
			if (bank < 4 || bank > 6)
				return vs_trace_fail(r, col + (uint32_t)i,
					"banks: bank %c cannot hold texture palettes (only E, F, G)", b);
			if (bank == 4) {
				slot = 0; /* E is 64 KiB: slots 0-3 whatever OFS says */
			} else if (slot != 0 && slot != 1 && slot != 4 && slot != 5) {
				return vs_trace_fail(r, col + (uint32_t)i + 1,
					"banks: bank %c maps palette slot 0, 1, 4 or 5, not %u", b, slot);
			}
		}
		d->ds_bank_slot[bank] = (uint8_t)slot;
	}
	if (VS_ARENA_BIT(d->kind) & VS_ARENA_ANY_DS_2D)
		return banks_overlap(r, d, col);
	if (d->kind == VS_ARENA_DS_PLTT) {
		/* overlapping palette slots: E covers 0-3 */
		unsigned f = d->ds_bank_slot[5], g = d->ds_bank_slot[6];
		int e = d->ds_bank_slot[4] != VS_BANK_UNMAPPED;
		if (f != VS_BANK_UNMAPPED && ((e && f < 4) || f == g))
			return vs_trace_fail(r, col, "banks: palette slot %u is mapped twice", f);
		if (g != VS_BANK_UNMAPPED && e && g < 4)
			return vs_trace_fail(r, col, "banks: palette slot %u is mapped twice", g);
	}
	return 0;
}

/* An arena declaration being read: the arena, and what its keys have said
 * so far (the display mode is applied at the end, with its effect on the
 * size). */
typedef struct arena_read {
	vs_arena_decl *d;
	int idx;
	uint32_t mode;
	int have_size, have_mode, have_banks, have_map, have_engine, have_boundary, have_bmp;
	kv banks;     /* read at the end, when the engine is known */
} arena_read;

/* Each arena key's reader takes its value into the declaration: 0 or -1.
 * The table below has checked that the key applies to the arena's kind. */

/* mode=0-5: the GBA display mode (DISPCNT) */
static int akey_mode(vs_trace_reader *r, const kv *k, arena_read *a)
{
	if (vs_trace_num32(r, k->v, k->vl, k->vcol, "mode", 0, &a->mode))
		return -1;
	if (a->mode > 5)
		return vs_trace_fail(r, k->vcol, "GBA display mode %u does not exist (0-5)", (unsigned)a->mode);
	if (a->have_mode++)
		return vs_trace_fail(r, k->col, "mode= given twice");
	return 0;
}

/* map=1d|2d: OBJ tile mapping */
static int akey_map(vs_trace_reader *r, const kv *k, arena_read *a)
{
	if (a->have_map++)
		return vs_trace_fail(r, k->col, "map= given twice");
	if (!kv_value_is(k, "1d") && !kv_value_is(k, "2d"))
		return vs_trace_fail(r, k->vcol, "map: expected 1d or 2d (OBJ tile mapping), got '%.*s'", (int)k->vl, k->v);
	a->d->gba_obj_2d = k->v[0] == '2';
	return 0;
}

static int akey_banks(vs_trace_reader *r, const kv *k, arena_read *a)
{
	if (a->have_banks++)
		return vs_trace_fail(r, k->col, "banks= given twice");
	a->banks = *k;
	return 0;
}

/* engine=a|b: the DS 2D engine (A: main, B: sub) */
static int akey_engine(vs_trace_reader *r, const kv *k, arena_read *a)
{
	if (a->have_engine++)
		return vs_trace_fail(r, k->col, "engine= given twice");
	if (!kv_value_is(k, "a") && !kv_value_is(k, "b"))
		return vs_trace_fail(r, k->vcol, "engine: expected a or b (the DS's 2D engines), got '%.*s'",
			(int)k->vl, k->v);
	vs_arena_decl_engine(a->d, k->v[0] == 'a' ? VS_DS_ENGINE_A : VS_DS_ENGINE_B);
	return 0;
}

/* boundary=32|64|128|256: the 1D OBJ tile boundary (DISPCNT bits 20-21) */
static int akey_boundary(vs_trace_reader *r, const kv *k, arena_read *a)
{
	uint32_t n;

	if (a->have_boundary++)
		return vs_trace_fail(r, k->col, "boundary= given twice");
	if (vs_trace_num32(r, k->v, k->vl, k->vcol, "boundary", 0, &n))
		return -1;
	if (n != 32 && n != 64 && n != 128 && n != 256)
		return vs_trace_fail(r, k->vcol, "boundary: the 1D OBJ tile boundary is 32, 64, 128 or 256 bytes, not %u",
			(unsigned)n);
	a->d->ds_obj_boundary = (uint8_t)(n / 32u);
	return 0;
}

/* bmp=2d-128|2d-256|1d-128|1d-256: the bitmap OBJ layout (DISPCNT bits 5, 6, 22) */
static int akey_bmp(vs_trace_reader *r, const kv *k, arena_read *a)
{
	static const char *const names[] = { "2d-128", "2d-256", "1d-128", "1d-256" };
	unsigned i;

	if (a->have_bmp++)
		return vs_trace_fail(r, k->col, "bmp= given twice");
	for (i = 0; i < 4; i++)
		if (kv_value_is(k, names[i])) {
			a->d->ds_obj_bmp = (uint8_t)i;
			return 0;
		}
	return vs_trace_fail(r, k->vcol, "bmp: expected 2d-128, 2d-256, 1d-128 or 1d-256 (bitmap OBJ layout), got '%.*s'",
		(int)k->vl, k->v);
}

/* char-base=0-7, screen-base=0-7: engine A's DISPCNT BG bases, 64 KiB steps */
static int akey_base64k(vs_trace_reader *r, const kv *k, uint8_t *out, const char *name)
{
	uint32_t n;

	if (vs_trace_num32(r, k->v, k->vl, k->vcol, name, 0, &n))
		return -1;
	if (n > 7)
		return vs_trace_fail(r, k->vcol, "%s: DISPCNT's %s is 0-7 (64 KiB steps), not %u", name, name, (unsigned)n);
	*out = (uint8_t)n;
	return 0;
}

static int akey_char_base(vs_trace_reader *r, const kv *k, arena_read *a)
{
	return akey_base64k(r, k, &a->d->ds_bg_char64k, "char-base");
}

static int akey_screen_base(vs_trace_reader *r, const kv *k, arena_read *a)
{
	return akey_base64k(r, k, &a->d->ds_bg_screen64k, "screen-base");
}

static int akey_size(vs_trace_reader *r, const kv *k, arena_read *a)
{
	uint32_t n;

	if (vs_trace_num32(r, k->v, k->vl, k->vcol, "size", 1, &n))
		return -1;
	if (n == 0 || n > (256u << 20))
		return vs_trace_fail(r, k->vcol, "size %u is out of range (1 byte to 256 MiB)", (unsigned)n);
	a->d->size = n;
	a->have_size = 1;
	return 0;
}

static int akey_base(vs_trace_reader *r, const kv *k, arena_read *a)
{
	return vs_trace_num32(r, k->v, k->vl, k->vcol, "base", 1, &a->d->base);
}

static int akey_unit(vs_trace_reader *r, const kv *k, arena_read *a)
{
	uint32_t n;

	if (vs_trace_num32(r, k->v, k->vl, k->vcol, "unit", 1, &n))
		return -1;
	if (n == 0 || (n & (n - 1)) || n > 4096)
		return vs_trace_fail(r, k->vcol, "unit %u must be a power of two up to 4096", (unsigned)n);
	a->d->unit = n;
	return 0;
}

/* preset=NAME: a console's RAM, its size and base */
static int akey_preset(vs_trace_reader *r, const kv *k, arena_read *a)
{
	static const struct { const char *name; uint32_t size, base; } presets[] = {
		{ "ewram", 0x40000, 0x02000000 }, { "iwram", 0x8000, 0x03000000 }, { "ds-main", 0x400000, 0x02000000 },
	};
	size_t i;

	for (i = 0; i < sizeof presets / sizeof presets[0]; i++)
		if (kv_value_is(k, presets[i].name)) {
			a->d->size = presets[i].size;
			a->d->base = presets[i].base;
			a->have_size = 1;
			return 0;
		}
	return vs_trace_fail(r, k->vcol, "unknown preset '%.*s' (ewram, iwram, ds-main)", (int)k->vl, k->v);
}

/* ---- names ------------------------------------------------------------- */

const char *vs_trace_arena_name_rule(const char *s, size_t len)
{
	if (!name_ok(s, len, VS_NAME_MAX) || !((s[0] | 0x20) >= 'a' && (s[0] | 0x20) <= 'z'))
		return "must be 1-31 letters, digits or _-./: starting with a letter";
	return NULL;
}

const char *vs_trace_strategy_name_rule(const char *s, size_t len)
{
	return name_ok(s, len, VS_NAME_MAX) ? NULL : "must be 1-31 letters, digits or _-./:";
}

/* strategy=NAME: the strategy the trace suggests for this arena */
static int akey_strategy(vs_trace_reader *r, const kv *k, arena_read *a)
{
	char *s = r->hdr.strategy[a->idx];
	const char *why = vs_trace_strategy_name_rule(k->v, k->vl);

	if (why)
		return vs_trace_fail(r, k->vcol, "strategy name '%.*s' %s", (int)k->vl, k->v, why);
	memcpy(s, k->v, k->vl);
	s[k->vl] = '\0';
	r->hdr.arena_line[a->idx] = r->line;
	return 0;
}

/* options=key:value;key:value, for the strategy */
static int akey_options(vs_trace_reader *r, const kv *k, arena_read *a)
{
	char *o = r->hdr.options[a->idx];
	size_t j;

	if (k->vl >= VS_OPTIONS_MAX)
		return vs_trace_fail(r, k->vcol, "options are longer than %d bytes", VS_OPTIONS_MAX - 1);
	/* written key:value;key:value in traces, key=value,key=value inside */
	for (j = 0; j < k->vl; j++)
		o[j] = k->v[j] == ':' ? '=' : k->v[j] == ';' ? ',' : k->v[j];
	o[k->vl] = '\0';
	{
		char why[128]; /* a key twice: the strategy would take the first and drop the other unseen */
		if (vs_option_check_repeats(o, why, sizeof why))
			return vs_trace_fail(r, k->vcol, "options: %s", why);
	}
	r->hdr.arena_line[a->idx] = r->line;
	r->hdr.options_col[a->idx] = k->vcol;
	return 0;
}

#define GBA_ARENAS (VS_ARENA_BIT(VS_ARENA_GBA_OBJ) | VS_ARENA_BIT(VS_ARENA_GBA_BG))
#define DS_ARENAS (VS_ARENA_BIT(VS_ARENA_DS_TEX) | VS_ARENA_BIT(VS_ARENA_DS_PLTT) | VS_ARENA_ANY_DS_2D)
#define DS_OBJ VS_ARENA_BIT(VS_ARENA_DS_OBJ)
#define DS_BG VS_ARENA_BIT(VS_ARENA_DS_BG)
#define RAM_ARENAS VS_ARENA_BIT(VS_ARENA_RAM)
#define ALL_ARENAS (VS_ARENA_ANY_VRAM | RAM_ARENAS)
#define RAM_ONLY(k) k "= applies to ram arenas: the hardware fixes this memory's layout"

/* The keys of an arena line, one row each: its name, the arena kinds it
 * applies to (VS_ARENA_BIT), what to say for another kind, and its
 * reader. */
static const struct arena_key {
	const char *name;
	size_t len;
	unsigned kinds;
	const char *elsewhere;
	int (*read)(vs_trace_reader *r, const kv *k, arena_read *a);
} arena_keys[] = {
	{ NAME("mode"), GBA_ARENAS, "mode= applies to gba-obj and gba-bg arenas", akey_mode },
	{ NAME("map"), VS_ARENA_BIT(VS_ARENA_GBA_OBJ) | DS_OBJ,
		"map= applies to gba-obj and ds-obj arenas (OBJ tile mapping, DISPCNT bit 6 on the GBA, bit 4 on the DS)",
		akey_map },
	{ NAME("banks"), DS_ARENAS, "banks= applies to the DS arenas", akey_banks },
	{ NAME("engine"), VS_ARENA_ANY_DS_2D, "engine= applies to the DS 2D arenas (ds-obj, ds-bg and their extended "
		"palettes)", akey_engine },
	{ NAME("boundary"), DS_OBJ, "boundary= applies to ds-obj arenas", akey_boundary },
	{ NAME("bmp"), DS_OBJ, "bmp= applies to ds-obj arenas", akey_bmp },
	{ NAME("char-base"), DS_BG, "char-base= applies to ds-bg arenas", akey_char_base },
	{ NAME("screen-base"), DS_BG, "screen-base= applies to ds-bg arenas", akey_screen_base },
	{ NAME("size"), RAM_ARENAS, RAM_ONLY("size"), akey_size },
	{ NAME("base"), RAM_ARENAS, RAM_ONLY("base"), akey_base },
	{ NAME("unit"), RAM_ARENAS, RAM_ONLY("unit"), akey_unit },
	{ NAME("preset"), RAM_ARENAS, "preset= applies to ram arenas", akey_preset },
	{ NAME("strategy"), ALL_ARENAS, NULL, akey_strategy },
	{ NAME("options"), ALL_ARENAS, NULL, akey_options },
};
#define NARENA_KEYS (sizeof arena_keys / sizeof arena_keys[0])

static int arena_key(vs_trace_reader *r, const tok *t, arena_read *a)
{
	const struct arena_key *row;
	kv k;

	if (key_value(r, t, &k))
		return -1;
	for (row = arena_keys; row < arena_keys + NARENA_KEYS && !same_name(k.key, k.kl, row->name, row->len); row++)
		;
	if (row == arena_keys + NARENA_KEYS)
		return vs_trace_fail(r, k.col, "unknown arena key '%.*s'", (int)k.kl, k.key);
	if (!(row->kinds & VS_ARENA_BIT(a->d->kind)))
		return vs_trace_fail(r, k.col, "%s", row->elsewhere);
	return row->read(r, &k, a);
}

/* arena NAME KIND: a new arena of that kind, its defaults set. */
static int arena_start(vs_trace_reader *r, const tok *t, int nt, arena_read *a)
{
	vs_trace_header *h = &r->hdr;
	vs_arena_kind kind;
	char kname[32];
	const char *why;
	int i;

	if (nt < 3)
		return vs_trace_fail(r, nt < 2 ? t[0].col + t[0].len : t[1].col + t[1].len,
			"arena: expected 'arena NAME KIND [key=value ...]'");
	if (h->narenas == VS_TRACE_MAX_ARENAS)
		return vs_trace_fail(r, t[0].col, "too many arenas (at most %d)", VS_TRACE_MAX_ARENAS);
	if ((why = vs_trace_arena_name_rule(t[1].s, t[1].len)))
		return vs_trace_fail(r, t[1].col, "arena name '%.*s' %s", (int)t[1].len, t[1].s, why);
	for (i = 0; i < h->narenas; i++)
		if (strlen(h->arenas[i].name) == t[1].len && memcmp(h->arenas[i].name, t[1].s, t[1].len) == 0)
			return vs_trace_fail(r, t[1].col, "arena '%.*s' is declared twice", (int)t[1].len, t[1].s);
	snprintf(kname, sizeof kname, "%.*s", (int)(t[2].len < 31 ? t[2].len : 31), t[2].s);
	if (vs_arena_kind_parse(kname, &kind))
		return vs_trace_fail(r, t[2].col, "unknown arena kind '%.*s' (gba-obj, gba-bg, ds-tex, ds-pltt, ds-obj, ds-bg, ds-bg-extpal, "
			"ds-obj-extpal, ram)",
			(int)t[2].len, t[2].s);
	memset(a, 0, sizeof *a);
	a->idx = h->narenas;
	a->d = &h->arenas[a->idx];
	vs_arena_decl_default(a->d, kind);
	memcpy(a->d->name, t[1].s, t[1].len);
	a->d->name[t[1].len] = '\0';
	h->strategy[a->idx][0] = '\0';
	h->options[a->idx][0] = '\0';
	return 0;
}

/* A DS arena's engine-wide facts: engine B has no 256-byte 1D bitmap
 * boundary and no DISPCNT BG bases, and no bank may serve two arenas
 * (VRAMCNT holds one mapping a bank). */
static int ds_arena_finish(vs_trace_reader *r, const tok *kt, arena_read *a)
{
	const vs_arena_decl *d = a->d, *o;
	unsigned bank;
	int i;

	if (!vs_ds_banked(d->kind))
		return 0;
	if (d->ds_engine == VS_DS_ENGINE_B && d->ds_obj_bmp == VS_DS_BMP_1D_256)
		return vs_trace_fail(r, kt->col, "arena '%s': engine B has no 256-byte 1D bitmap boundary (bmp=1d-256)",
			d->name);
	if (d->ds_engine == VS_DS_ENGINE_B && (d->ds_bg_char64k || d->ds_bg_screen64k))
		return vs_trace_fail(r, kt->col, "arena '%s': engine B has no DISPCNT BG bases (char-base=, screen-base=)",
			d->name);
	for (i = 0; i < r->hdr.narenas; i++) {
		o = &r->hdr.arenas[i];
		if (!vs_ds_banked(o->kind))
			continue;
		for (bank = 0; bank < VS_DS_BANKS; bank++)
			if (d->ds_bank_slot[bank] != VS_BANK_UNMAPPED && o->ds_bank_slot[bank] != VS_BANK_UNMAPPED)
				return vs_trace_fail(r, kt->col, "arena '%s': bank %c is already mapped to arena '%s' "
					"(VRAMCNT_%c holds one mapping; say banks= for each)", d->name, 'A' + (int)bank,
					o->name, 'A' + (int)bank);
	}
	return 0;
}

/* After the keys: what a ram arena needs, the display mode's frame
 * buffer; the arena is declared. kt is the KIND token, which errors
 * about the whole arena point at. */
static int arena_finish(vs_trace_reader *r, const tok *kt, arena_read *a)
{
	vs_arena_decl *d = a->d;

	if (d->kind == VS_ARENA_RAM && !a->have_size)
		return vs_trace_fail(r, kt->col, "ram arena '%s' needs size= or preset=", d->name);
	if (d->kind == VS_ARENA_RAM && d->size % d->unit)
		return vs_trace_fail(r, kt->col, "ram arena '%s': size %u is not a multiple of unit %u", d->name,
			(unsigned)d->size, (unsigned)d->unit);
	if (d->kind == VS_ARENA_RAM && (uint64_t)d->base + d->size > 0x100000000ull)
		return vs_trace_fail(r, kt->col, "ram arena '%s' runs past the 32-bit address space", d->name);
	if (a->have_banks && parse_banks(r, d, a->banks.v, a->banks.vl, a->banks.vcol))
		return -1;
	if (ds_arena_finish(r, kt, a))
		return -1;
	d->gba_mode = (uint8_t)a->mode;
	if (d->kind == VS_ARENA_GBA_BG && a->mode >= 3)
		d->size = 0x14000; /* 80 KiB of frame buffer */
	r->hdr.narenas++;
	return 0;
}

/* arena NAME KIND [key=value ...] */
static int parse_arena(vs_trace_reader *r, const tok *t, int nt)
{
	arena_read a;
	int i;

	if (arena_start(r, t, nt, &a))
		return -1;
	for (i = 3; i < nt; i++)
		if (arena_key(r, &t[i], &a))
			return -1;
	return arena_finish(r, &t[2], &a);
}

/* ---- names, heaps and search lists -------------------------------------- */

/* Index of a route (an arena, or VS_ROUTE_SEARCH0 + a search list) by name, or -1. */
int vs_trace_route_by_tok(const vs_trace_header *h, const tok *t)
{
	int i;

	for (i = 0; i < h->narenas; i++)
		if (strlen(h->arenas[i].name) == t->len && memcmp(h->arenas[i].name, t->s, t->len) == 0)
			return i;
	for (i = 0; i < h->nsearch; i++)
		if (strlen(h->search_name[i]) == t->len && memcmp(h->search_name[i], t->s, t->len) == 0)
			return VS_ROUTE_SEARCH0 + i;
	return -1;
}

int vs_trace_arena_in(vs_trace_reader *r, const char *s, size_t len, uint32_t col)
{
	tok t;
	int i;

	t.s = s;
	t.len = (uint32_t)len;
	t.col = col;
	i = vs_trace_route_by_tok(&r->hdr, &t);
	if (i < 0 || i >= VS_ROUTE_SEARCH0)
		return vs_trace_fail(r, col, "unknown arena '%.*s'", (int)len, s);
	return i;
}

/* keep-small=ARENA,...: the arenas small requests may stay in */
static int heaps_keep_small(vs_trace_reader *r, const kv *k)
{
	size_t j = 0;
	int a;

	while (j < k->vl) {
		size_t e = j;
		while (e < k->vl && k->v[e] != ',')
			e++;
		if ((a = vs_trace_arena_in(r, k->v + j, e - j, k->vcol + (uint32_t)j)) < 0)
			return -1;
		r->hdr.keep_small |= 1u << a;
		j = e + 1;
	}
	return 0;
}

/* One key=value of the heaps line. */
static int heaps_key(vs_trace_reader *r, const tok *t)
{
	vs_trace_header *h = &r->hdr;
	kv k;

	if (key_value(r, t, &k))
		return -1;
	if (kv_is(&k, "small"))
		return (h->small_arena = vs_trace_arena_in(r, k.v, k.vl, k.vcol)) < 0 ? -1 : 0;
	if (kv_is(&k, "default"))
		return (h->default_arena = vs_trace_arena_in(r, k.v, k.vl, k.vcol)) < 0 ? -1 : 0;
	if (kv_is(&k, "keep-small"))
		return heaps_keep_small(r, &k);
	if (!kv_is(&k, "route"))
		return vs_trace_fail(r, k.col, "heaps: unknown key '%.*s' (small, default, keep-small, route)", (int)k.kl,
			k.key);
	/* route=off is the game's g_NoHeapRoute */
	if (kv_value_is(&k, "off"))
		h->no_route = 1;
	else if (kv_value_is(&k, "on"))
		h->no_route = 0;
	else
		return vs_trace_fail(r, k.vcol, "heaps: route must be on or off, not '%.*s'", (int)k.vl, k.v);
	return 0;
}

/* heaps [small=ARENA] [default=ARENA] [keep-small=ARENA,...] [route=on|off] */
static int parse_heaps(vs_trace_reader *r, const tok *t, int nt)
{
	vs_trace_header *h = &r->hdr;
	int i;

	if (h->heaps)
		return vs_trace_fail(r, t[0].col, "heaps: given twice");
	for (i = 0; i < h->narenas; i++)
		if (h->arenas[i].kind != VS_ARENA_RAM)
			return vs_trace_fail(r, t[0].col, "heaps: every arena must be a ram arena (a heap); '%s' is %s",
				h->arenas[i].name, vs_arena_kind_name(h->arenas[i].kind));
	h->heaps = 1;
	h->small_arena = -1;
	h->default_arena = -1;
	for (i = 1; i < nt; i++)
		if (heaps_key(r, &t[i]))
			return -1;
	return 0;
}

/* search NAME ARENA [ARENA ...] */
static int parse_search(vs_trace_reader *r, const tok *t, int nt)
{
	vs_trace_header *h = &r->hdr;
	int i, a, k = h->nsearch;

	if (!h->heaps)
		return vs_trace_fail(r, t[0].col, "search: needs a 'heaps' line before it");
	if (nt < 3)
		return vs_trace_fail(r, t[nt - 1].col + t[nt - 1].len, "search: expected 'search NAME ARENA [ARENA ...]'");
	if (k == VS_TRACE_MAX_SEARCH)
		return vs_trace_fail(r, t[0].col, "too many search lists (at most %d)", VS_TRACE_MAX_SEARCH);
	if (!name_ok(t[1].s, t[1].len, VS_NAME_MAX))
		return vs_trace_fail(r, t[1].col, "search name '%.*s' must be 1-31 letters, digits or _-./:",
			(int)t[1].len, t[1].s);
	if (vs_trace_route_by_tok(h, &t[1]) >= 0)
		return vs_trace_fail(r, t[1].col, "'%.*s' already names an arena or a search list", (int)t[1].len, t[1].s);
	if (nt - 2 > VS_SEARCH_LEN_MAX)
		return vs_trace_fail(r, t[2 + VS_SEARCH_LEN_MAX].col, "search: at most %d arenas", VS_SEARCH_LEN_MAX);
	for (i = 2; i < nt; i++) {
		if ((a = vs_trace_arena_in(r, t[i].s, t[i].len, t[i].col)) < 0)
			return -1;
		h->search[k][i - 2] = (uint8_t)a;
	}
	memcpy(h->search_name[k], t[1].s, t[1].len);
	h->search_name[k][t[1].len] = '\0';
	h->search_len[k] = (uint8_t)(nt - 2);
	h->nsearch++;
	return 0;
}

const char *vs_trace_route_name(const vs_trace_header *h, int route)
{
	if (route >= 0 && route < h->narenas)
		return h->arenas[route].name;
	if (route >= VS_ROUTE_SEARCH0 && route - VS_ROUTE_SEARCH0 < h->nsearch)
		return h->search_name[route - VS_ROUTE_SEARCH0];
	return "?";
}

/* ---- the header -------------------------------------------------------- */

/* The first statement: 'vramsim-trace 1'. */
static int read_version(vs_trace_reader *r)
{
	tok t[MAX_TOK];
	int nt, rc;
	uint32_t v;

	rc = vs_trace_next_statement(r, t, &nt);
	if (rc < 0)
		return -1;
	if (rc == 0) {
		r->line = r->line ? r->line : 1;
		return vs_trace_fail(r, 1, "empty trace: expected the version line 'vramsim-trace 1'");
	}
	if (!tok_is(&t[0], "vramsim-trace"))
		return vs_trace_fail(r, t[0].col, "expected the version line 'vramsim-trace 1' first, got '%.*s'",
			(int)t[0].len, t[0].s);
	if (nt != 2)
		return vs_trace_fail(r, nt < 2 ? t[0].col + t[0].len : t[2].col, "expected 'vramsim-trace 1'");
	if (vs_trace_num32(r, t[1].s, t[1].len, t[1].col, "version", 0, &v))
		return -1;
	if (v != VS_TRACE_VERSION)
		return vs_trace_fail(r, t[1].col, "trace version %u is not supported (this vramsim reads version %d)",
			(unsigned)v, VS_TRACE_VERSION);
	r->hdr.version = (int)v;
	return 0;
}

/* The first event's line, read to find where the header ends: kept for
 * vs_trace_next (the block it lies in may be gone by then). */
static int keep_first_event(vs_trace_reader *r, const tok *t, int nt)
{
	size_t len = (size_t)(t[nt - 1].s + t[nt - 1].len - t[0].s) + t[0].col - 1;
	const char *line = t[0].s - (t[0].col - 1);

	r->pending = malloc(len + 1);
	if (!r->pending)
		return vs_trace_fail(r, 1, "out of memory");
	memcpy(r->pending, line, len);
	r->pending[len] = '\0';
	r->pending_len = len;
	r->pending_line = r->line;
	r->have_pending = 1;
	r->slow = 1;
	return 0;
}

int vs_trace_read_header(vs_trace_reader *r)
{
	tok t[MAX_TOK];
	int nt, rc;

	if (read_version(r))
		return -1;
	while ((rc = vs_trace_next_statement(r, t, &nt)) > 0) {
		if (tok_is(&t[0], "heaps"))
			rc = parse_heaps(r, t, nt);
		else if (tok_is(&t[0], "search"))
			rc = parse_search(r, t, nt);
		else if (!tok_is(&t[0], "arena"))
			break; /* the first event */
		else if (r->hdr.heaps)
			return vs_trace_fail(r, t[0].col, "arena declarations must come before the 'heaps' line");
		else
			rc = parse_arena(r, t, nt);
		if (rc)
			return -1;
	}
	if (rc < 0 || (rc > 0 && keep_first_event(r, t, nt)))
		return -1;
	if (r->hdr.narenas == 0)
		return vs_trace_fail(r, 1, "the trace declares no arena ('arena NAME KIND ...' after the version line)");
	vs_trace_fast_tables(r);
	return 0;
}

int vs_trace_arena_index(const vs_trace_header *h, const char *name)
{
	int i;

	for (i = 0; i < h->narenas; i++)
		if (strcmp(h->arenas[i].name, name) == 0)
			return i;
	return -1;
}
