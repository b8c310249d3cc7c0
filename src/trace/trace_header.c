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

#include "trace_read_int.h"
#include "vramsim/trace.h"

/* ---- arenas ------------------------------------------------------------ */

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
		if (d->kind == VS_ARENA_DS_TEX) {
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

static int parse_arena(vs_trace_reader *r, const tok *t, int nt)
{
	vs_trace_header *h = &r->hdr;
	vs_arena_decl *d;
	vs_arena_kind kind;
	char kname[32];
	int i, have_size = 0, have_mode = 0, have_banks = 0, have_map = 0, idx;
	uint32_t mode = 0;

	if (nt < 3)
		return vs_trace_fail(r, nt < 2 ? t[0].col + t[0].len : t[1].col + t[1].len,
			"arena: expected 'arena NAME KIND [key=value ...]'");
	if (h->narenas == VS_TRACE_MAX_ARENAS)
		return vs_trace_fail(r, t[0].col, "too many arenas (at most %d)", VS_TRACE_MAX_ARENAS);
	if (!name_ok(t[1].s, t[1].len, VS_NAME_MAX) || !((t[1].s[0] | 0x20) >= 'a' && (t[1].s[0] | 0x20) <= 'z'))
		return vs_trace_fail(r, t[1].col,
			"arena name '%.*s' must be 1-31 letters, digits or _-./: starting with a letter", (int)t[1].len, t[1].s);
	idx = h->narenas;
	for (i = 0; i < idx; i++)
		if (strlen(h->arenas[i].name) == t[1].len && memcmp(h->arenas[i].name, t[1].s, t[1].len) == 0)
			return vs_trace_fail(r, t[1].col, "arena '%.*s' is declared twice", (int)t[1].len, t[1].s);
	snprintf(kname, sizeof kname, "%.*s", (int)(t[2].len < 31 ? t[2].len : 31), t[2].s);
	if (vs_arena_kind_parse(kname, &kind))
		return vs_trace_fail(r, t[2].col, "unknown arena kind '%.*s' (gba-obj, gba-bg, ds-tex, ds-pltt, ram)",
			(int)t[2].len, t[2].s);
	d = &h->arenas[idx];
	vs_arena_decl_default(d, kind);
	memcpy(d->name, t[1].s, t[1].len);
	d->name[t[1].len] = '\0';
	h->strategy[idx][0] = '\0';
	h->options[idx][0] = '\0';

	for (i = 3; i < nt; i++) {
		const char *eq = memchr(t[i].s, '=', t[i].len);
		size_t kl = eq ? (size_t)(eq - t[i].s) : 0, vl;
		const char *v;
		uint32_t vcol, n;
		if (!eq || kl == 0)
			return vs_trace_fail(r, t[i].col, "expected key=value, got '%.*s'", (int)t[i].len, t[i].s);
		v = eq + 1;
		vl = t[i].len - kl - 1;
		vcol = t[i].col + (uint32_t)kl + 1;
#define KEY(k) (kl == sizeof(k) - 1 && memcmp(t[i].s, k, kl) == 0)
		if (KEY("mode")) {
			if (kind != VS_ARENA_GBA_OBJ && kind != VS_ARENA_GBA_BG)
				return vs_trace_fail(r, t[i].col, "mode= applies to gba-obj and gba-bg arenas");
			if (vs_trace_num32(r, v, vl, vcol, "mode", 0, &mode))
				return -1;
			if (mode > 5)
				return vs_trace_fail(r, vcol, "GBA display mode %u does not exist (0-5)", (unsigned)mode);
			if (have_mode++)
				return vs_trace_fail(r, t[i].col, "mode= given twice");
		} else if (KEY("map")) {
			if (kind != VS_ARENA_GBA_OBJ)
				return vs_trace_fail(r, t[i].col, "map= applies to gba-obj arenas (OBJ tile mapping, DISPCNT bit 6)");
			if (have_map++)
				return vs_trace_fail(r, t[i].col, "map= given twice");
			if (vl == 2 && (memcmp(v, "1d", 2) == 0 || memcmp(v, "2d", 2) == 0))
				d->gba_obj_2d = v[0] == '2';
			else
				return vs_trace_fail(r, vcol, "map: expected 1d or 2d (OBJ tile mapping), got '%.*s'", (int)vl, v);
		} else if (KEY("banks")) {
			if (kind != VS_ARENA_DS_TEX && kind != VS_ARENA_DS_PLTT)
				return vs_trace_fail(r, t[i].col, "banks= applies to ds-tex and ds-pltt arenas");
			if (have_banks++)
				return vs_trace_fail(r, t[i].col, "banks= given twice");
			if (parse_banks(r, d, v, vl, vcol))
				return -1;
		} else if (KEY("size") || KEY("base") || KEY("unit")) {
			if (kind != VS_ARENA_RAM)
				return vs_trace_fail(r, t[i].col,
					"%.*s= applies to ram arenas: the hardware fixes this memory's layout", (int)kl, t[i].s);
			if (vs_trace_num32(r, v, vl, vcol, KEY("size") ? "size" : KEY("base") ? "base" : "unit", 1, &n))
				return -1;
			if (KEY("size")) {
				if (n == 0 || n > (256u << 20))
					return vs_trace_fail(r, vcol, "size %u is out of range (1 byte to 256 MiB)", (unsigned)n);
				d->size = n;
				have_size = 1;
			} else if (KEY("base")) {
				d->base = n;
			} else {
				if (n == 0 || (n & (n - 1)) || n > 4096)
					return vs_trace_fail(r, vcol, "unit %u must be a power of two up to 4096", (unsigned)n);
				d->unit = n;
			}
		} else if (KEY("preset")) {
			if (kind != VS_ARENA_RAM)
				return vs_trace_fail(r, t[i].col, "preset= applies to ram arenas");
			if (vl == 5 && memcmp(v, "ewram", 5) == 0) {
				d->size = 0x40000;
				d->base = 0x02000000;
			} else if (vl == 5 && memcmp(v, "iwram", 5) == 0) {
				d->size = 0x8000;
				d->base = 0x03000000;
			} else if (vl == 7 && memcmp(v, "ds-main", 7) == 0) {
				d->size = 0x400000;
				d->base = 0x02000000;
			} else {
				return vs_trace_fail(r, vcol, "unknown preset '%.*s' (ewram, iwram, ds-main)", (int)vl, v);
			}
			have_size = 1;
		} else if (KEY("strategy")) {
			if (!name_ok(v, vl, VS_NAME_MAX))
				return vs_trace_fail(r, vcol, "strategy name '%.*s' is not a valid name", (int)vl, v);
			memcpy(h->strategy[idx], v, vl);
			h->strategy[idx][vl] = '\0';
		} else if (KEY("options")) {
			size_t j;
			if (vl >= VS_OPTIONS_MAX)
				return vs_trace_fail(r, vcol, "options are longer than %d bytes", VS_OPTIONS_MAX - 1);
			/* written key:value;key:value in traces, key=value,key=value inside */
			for (j = 0; j < vl; j++)
				h->options[idx][j] = v[j] == ':' ? '=' : v[j] == ';' ? ',' : v[j];
			h->options[idx][vl] = '\0';
		} else {
			return vs_trace_fail(r, t[i].col, "unknown arena key '%.*s'", (int)kl, t[i].s);
		}
#undef KEY
	}
	if (kind == VS_ARENA_RAM && !have_size)
		return vs_trace_fail(r, t[2].col, "ram arena '%s' needs size= or preset=", d->name);
	if (kind == VS_ARENA_RAM && d->size % d->unit)
		return vs_trace_fail(r, t[2].col, "ram arena '%s': size %u is not a multiple of unit %u", d->name,
			(unsigned)d->size, (unsigned)d->unit);
	if (kind == VS_ARENA_RAM && (uint64_t)d->base + d->size > 0x100000000ull)
		return vs_trace_fail(r, t[2].col, "ram arena '%s' runs past the 32-bit address space", d->name);
	d->gba_mode = (uint8_t)mode;
	if (kind == VS_ARENA_GBA_BG && mode >= 3)
		d->size = 0x14000; /* 80 KiB of frame buffer */
	h->narenas++;
	return 0;
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

/* heaps [small=ARENA] [default=ARENA] [keep-small=ARENA,...] [route=on|off] */
static int parse_heaps(vs_trace_reader *r, const tok *t, int nt)
{
	vs_trace_header *h = &r->hdr;
	int i, a;

	if (h->heaps)
		return vs_trace_fail(r, t[0].col, "heaps: given twice");
	for (i = 0; i < h->narenas; i++)
		if (h->arenas[i].kind != VS_ARENA_RAM)
			return vs_trace_fail(r, t[0].col, "heaps: every arena must be a ram arena (a heap); '%s' is %s",
				h->arenas[i].name, vs_arena_kind_name(h->arenas[i].kind));
	h->heaps = 1;
	h->small_arena = -1;
	h->default_arena = -1;
	for (i = 1; i < nt; i++) {
		const char *eq = memchr(t[i].s, '=', t[i].len);
		size_t kl = eq ? (size_t)(eq - t[i].s) : 0, vl;
		const char *v;
		uint32_t vcol;
		if (!eq || kl == 0)
			return vs_trace_fail(r, t[i].col, "expected key=value, got '%.*s'", (int)t[i].len, t[i].s);
		v = eq + 1;
		vl = t[i].len - kl - 1;
		vcol = t[i].col + (uint32_t)kl + 1;
		if (kl == 5 && memcmp(t[i].s, "small", 5) == 0) {
			if ((a = vs_trace_arena_in(r, v, vl, vcol)) < 0)
				return -1;
			h->small_arena = a;
		} else if (kl == 7 && memcmp(t[i].s, "default", 7) == 0) {
			if ((a = vs_trace_arena_in(r, v, vl, vcol)) < 0)
				return -1;
			h->default_arena = a;
		} else if (kl == 10 && memcmp(t[i].s, "keep-small", 10) == 0) {
			size_t j = 0;
			while (j < vl) {
				size_t k = j;
				while (k < vl && v[k] != ',')
					k++;
				if ((a = vs_trace_arena_in(r, v + j, k - j, vcol + (uint32_t)j)) < 0)
					return -1;
				h->keep_small |= 1u << a;
				j = k + 1;
			}
		} else if (kl == 5 && memcmp(t[i].s, "route", 5) == 0) {
			/* route=off is the game's g_NoHeapRoute */
			if (vl == 3 && memcmp(v, "off", 3) == 0)
				h->no_route = 1;
			else if (vl == 2 && memcmp(v, "on", 2) == 0)
				h->no_route = 0;
			else
				return vs_trace_fail(r, vcol, "heaps: route must be on or off, not '%.*s'", (int)vl, v);
		} else {
			return vs_trace_fail(r, t[i].col, "heaps: unknown key '%.*s' (small, default, keep-small, route)", (int)kl,
				t[i].s);
		}
	}
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

int vs_trace_read_header(vs_trace_reader *r)
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
	for (;;) {
		rc = vs_trace_next_statement(r, t, &nt);
		if (rc < 0)
			return -1;
		if (rc == 0)
			break;
		if (tok_is(&t[0], "heaps")) {
			if (parse_heaps(r, t, nt))
				return -1;
			continue;
		}
		if (tok_is(&t[0], "search")) {
			if (parse_search(r, t, nt))
				return -1;
			continue;
		}
		if (!tok_is(&t[0], "arena")) {
			/* keep this line: it is the first event */
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
			break;
		}
		if (r->hdr.heaps)
			return vs_trace_fail(r, t[0].col, "arena declarations must come before the 'heaps' line");
		if (parse_arena(r, t, nt))
			return -1;
	}
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
