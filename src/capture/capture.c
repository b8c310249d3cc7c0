/* SPDX-License-Identifier: Zlib */
/* capture.c - vramsim capture: trace format v1 from per-frame hardware state.
 *
 * The frame loop, the header and the summary (the delayed output is
 * capture_out.c's). What a frame shows is
 * read in capture_obj.c (OAM and OBJ VRAM) and capture_bg.c (BG control,
 * maps and tiles). See docs/capture.md.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "capture_impl.h"
#include "vram/request.h"

static const char *const arena_names[2] = { "obj", "bg" };

void vs_capture_options_default(vs_capture_options *o)
{
	memset(o, 0, sizeof *o);
	o->grace = 3;
	o->lookback = 4;
	o->obj = 1;
	o->bg = 1;
}

unsigned cap_mode(const vs_gba_frame *f)
{
	return f->io[VS_IO_DISPCNT] & 7u;
}

int cap_blank(const vs_gba_frame *f)
{
	return (f->io[VS_IO_DISPCNT] >> 7) & 1;
}

/* A frame capture reads: shown, and in a mode of the arenas' kind. Tiled
 * (0-2) and bitmap (3-5) modes lay VRAM out differently, and the arenas
 * keep the first shown frame's: frames of the other kind are counted, not
 * read. */
int cap_readable(vs_capture *c, const vs_gba_frame *f)
{
	if (cap_blank(f))
		return 0;
	if (c->started && (cap_mode(f) >= 3 && cap_mode(f) <= 5) != (c->st.first_mode >= 3 && c->st.first_mode <= 5)) {
		c->st.other_kind_frames++;
		return 0;
	}
	return 1;
}

static int map2d_of(const vs_gba_frame *f)
{
	return !((f->io[VS_IO_DISPCNT] >> 6) & 1);
}

/* ---- buffered output ---------------------------------------------------- */

void cap_alloc(vs_capture *c, uint64_t frame, int arena, uint64_t id, const vs_request *rq, const char *tag,
	uint32_t at)
{
	cap_alloc_in(c, CAP_PART_ALLOCS, frame, arena, id, rq, tag, at);
}

void cap_alloc_in(vs_capture *c, int part, uint64_t frame, int arena, uint64_t id, const vs_request *rq,
	const char *tag, uint32_t at)
{
	cap_out_alloc_in(&c->o, part, frame, c->opt.obj && c->opt.bg ? arena_names[arena] : NULL, id, rq, tag, at);
}

void cap_free(vs_capture *c, uint64_t frame, uint64_t id)
{
	cap_out_free(&c->o, frame, id);
}

/* A comment in the current frame, before its events. */
void cap_comment(vs_capture *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cap_out_vcomment(&c->o, fmt, ap);
	va_end(ap);
}

static void write_header(vs_capture *c, int any);

static void flush_one(vs_capture *c)
{
	/* Until a frame is shown the arenas' mode is not known: frames of
	 * forced blank (they infer nothing) are counted, not written. */
	/* not before the arenas are known: an upload dated in the force-blanked
	 * frames before is written at the oldest frame then */
	if (c->opt.obj && c->opt.uploads && (c->started || c->header_written))
		cap_obj_commit_uploads(c);
	if (c->opt.bg && c->opt.uploads && (c->started || c->header_written))
		cap_bg_commit_uploads(c);
	if (!c->header_written) {
		if (cap_out_oldest_empty(&c->o)) {
			c->held++;
			c->o.flushed++;
			return;
		}
		write_header(c, c->started);
	}
	cap_out_flush_one(&c->o);
}

/* ---- header and summary -------------------------------------------------- */

static void put_arena(FILE *out, const char *name, const char *kind, unsigned mode, int map2d)
{
	fprintf(out, "arena %s %s", name, kind);
	if (mode)
		fprintf(out, " mode=%u", mode);
	if (map2d)
		fputs(" map=2d", out);
	fputc('\n', out);
}

/* The first frame not force-blanked: the display state the arenas take
 * (a game's first frames are often the reset state, in forced blank). */
static void start(vs_capture *c, unsigned mode, int map2d)
{
	c->started = 1;
	c->mode = mode;
	c->map2d = map2d;
	c->st.first_mode = mode;
}

/* Sprites drawn: the frame's OBJ mapping is the game's own. */
static int obj_shown(const vs_gba_frame *f)
{
	return !cap_blank(f) && (f->io[VS_IO_DISPCNT] & 0x1000u);
}

/* The obj arena's mapping is that of the first frame that shows sprites: a
 * game's first frames are often the force-blanked reset state, whose
 * DISPCNT says 2D whatever the game will use. No sprite is inferred before
 * it; with none shown by the time the header is due, the last frame's. */
static void settle_mapping(vs_capture *c, int map2d)
{
	if (c->map_known)
		return;
	c->map_known = 1;
	c->st.obj_2d = map2d;
}

/* Written just before the first frame's events (nothing else is written
 * before them), so that the mapping can wait for the first sprites. */
static void write_header(vs_capture *c, int any)
{
	FILE *out = c->o.out;
	unsigned mode = c->st.first_mode, arena_mode = mode <= 5 ? mode : 0;
	int map2d;

	settle_mapping(c, any && c->map2d);
	map2d = c->st.obj_2d;
	c->header_written = 1;
	fputs("vramsim-trace 1\n", out);
	cap_out_comment_block(out, c->header);
	fprintf(out, "# capture: grace=%u lookback=%u%s%s%s%s\n", (unsigned)c->opt.grace, (unsigned)c->opt.lookback,
		c->opt.sheet ? " sheet" : "", c->opt.keep_hidden ? " keep-hidden" : "", c->opt.uploads ? " uploads" : "",
		c->opt.alloc_first ? " alloc-first" : "");
	if (!any)
		fputs("# capture: no frame showed anything (none, or all in forced blank)\n", out);
	else
		fprintf(out, "# capture: display mode %u at the first frame shown%s\n", mode,
			mode > 5 ? " (not a mode: the arenas say 0)" : "");
	if (c->opt.obj && map2d)
		fputs("# capture: OBJ uses 2D mapping: the obj arena says map=2d, and each sprite is one allocation of "
			"its tile rectangle (docs/capture.md)\n", out);
	if (c->opt.obj)
		put_arena(out, arena_names[0], "gba-obj", arena_mode, map2d);
	if (c->opt.bg)
		put_arena(out, arena_names[1], "gba-bg", arena_mode, 0);
	for (; c->held; c->held--)
		fputs("frame\n", out);
	if (ferror(out))
		c->o.failed = 1;
}

/* Changes of what the whole display does, noted in the trace. */
static void note_display(vs_capture *c, const vs_gba_frame *f)
{
	unsigned mode = cap_mode(f);
	int map2d = map2d_of(f);

	if (f->changed_mid_frame) {
		c->st.mid_frame++;
		c->st.mid_frame_shown += !cap_blank(f);
	}
	/* a force-blanked frame shows no mode or mapping: only the game's
	 * next shown frame says whether they changed */
	if (cap_blank(f)) {
		c->st.blank_frames++;
		return;
	}
	if (mode != c->mode) {
		c->st.mode_changes++;
		cap_comment(c, "display mode %u -> %u (the arenas keep mode %u)", c->mode, mode, c->st.first_mode);
		c->mode = mode;
	}
	if (map2d != c->map2d && c->opt.obj) {
		c->st.mapping_changes++;
		if (c->map_known)
			cap_comment(c, "OBJ mapping %s -> %s (the obj arena's is %s: sprites of the other mapping are "
				"written as runs of tiles)", c->map2d ? "2D" : "1D", map2d ? "2D" : "1D",
				c->st.obj_2d ? "2D" : "1D");
		else
			cap_comment(c, "OBJ mapping %s -> %s", c->map2d ? "2D" : "1D", map2d ? "2D" : "1D");
	}
	c->map2d = map2d;
}

static void summary_obj(vs_capture *c, FILE *out)
{
	const vs_capture_stats *s = &c->st;

	fprintf(out, "# capture summary: OBJ: %llu allocations, %llu frees, %llu live at the end; %llu dated back to "
		"their upload\n", (unsigned long long)s->obj_allocs, (unsigned long long)s->obj_frees,
		(unsigned long long)s->obj_live, (unsigned long long)s->dated_back);
	fprintf(out, "# capture summary: OBJ: %llu partial overlaps, %llu reused by a smaller sprite, %llu nested "
		"ranges, %llu ranges joined in a frame, %llu clipped at tile 1023, %llu below the bitmap floor, %llu of "
		"shape 3\n", (unsigned long long)s->partial_overlaps, (unsigned long long)s->reused,
		(unsigned long long)s->nested, (unsigned long long)s->merged,
		(unsigned long long)s->clipped, (unsigned long long)s->below_floor, (unsigned long long)s->bad_shape);
	if (c->opt.uploads)
		fprintf(out, "# capture summary: OBJ: %llu uploads no sprite showed allocated from their upload (%llu "
			"ended by an overwrite or a clear, %llu shown whole later); %llu taken by sprites shown on them\n",
			(unsigned long long)s->unseen, (unsigned long long)s->unseen_ended,
			(unsigned long long)s->unseen_handed, (unsigned long long)s->unseen_taken);
	if (s->obj_2d || s->mapping_changes)
		fprintf(out, "# capture summary: OBJ: %llu 2D sprites wrapping past column 31 (a run of tiles per row)\n",
			(unsigned long long)s->wrapped);
	fprintf(out, "# capture summary: OBJ: at most %u all-zero OAM entries in one frame (each an 8x8 sprite on "
		"tile 0)\n", (unsigned)s->zero_entries_max);
	if (c->opt.sheet)
		fprintf(out, "# capture summary: OBJ: %llu sheet allocations\n", (unsigned long long)s->sheets);
	else if (s->sheet_suspected)
		fprintf(out, "# capture summary: OBJ: sprite sheet suspected: %llu tile switches inside one large "
			"upload; try --sheet\n", (unsigned long long)s->sheet_switches);
}

static void summary_bg(vs_capture *c, FILE *out)
{
	const vs_capture_stats *s = &c->st;

	fprintf(out, "# capture summary: BG: %llu maps, %llu tile references (%llu hits), %llu ended (%llu by "
		"streamed graphics), at most %u live in a frame\n", (unsigned long long)s->bg_maps,
		(unsigned long long)s->bg_refs, (unsigned long long)s->bg_hits, (unsigned long long)s->bg_frees,
		(unsigned long long)s->bg_streamed, (unsigned)s->bg_refs_max);
	fprintf(out, "# capture summary: BG: %u distinct tiles (ROM indices), %llu lookups past %u, %llu cells "
		"past the 64 KiB BG area\n", (unsigned)s->rom_tiles, (unsigned long long)s->rom_overflow,
		VS_CAPTURE_ROM_MAX, (unsigned long long)s->bg_past_end);
	if (c->opt.uploads) {
		fprintf(out, "# capture summary: BG: %llu tile references and %llu maps dated back to their upload\n",
			(unsigned long long)s->bg_refs_dated, (unsigned long long)s->bg_maps_dated);
		fprintf(out, "# capture summary: BG: %llu uploads no layer showed allocated from their upload (%llu tile "
			"sets, %llu maps, the rest bytes; %llu ended by an overwrite, a clear or a layer on part of them, %llu "
			"shown whole later); %llu taken by layers shown on them\n", (unsigned long long)s->bg_unseen,
			(unsigned long long)s->bg_unseen_tilesets, (unsigned long long)s->bg_unseen_maps,
			(unsigned long long)s->bg_unseen_ended, (unsigned long long)s->bg_unseen_handed,
			(unsigned long long)s->bg_unseen_taken);
	}
	if (s->bg_map_clipped || s->bg_conflicts)
		fprintf(out, "# capture summary: BG: %llu maps cut at the end of the BG area, %llu cells or maps on VRAM "
			"another allocation holds at another depth or as a map (not referenced)\n",
			(unsigned long long)s->bg_map_clipped, (unsigned long long)s->bg_conflicts);
}

static void summary(vs_capture *c)
{
	FILE *out = c->o.out;
	const vs_capture_stats *s = &c->st;

	fprintf(out, "# capture summary: %llu frames, %llu changed mid-frame (sampled at VBlank), %llu "
		"force-blanked\n", (unsigned long long)s->frames, (unsigned long long)s->mid_frame,
		(unsigned long long)s->blank_frames);
	if (s->other_kind_frames)
		fprintf(out, "# capture summary: %llu frames in a %s mode, not the arenas' (mode %u): not read\n",
			(unsigned long long)s->other_kind_frames, s->first_mode >= 3 && s->first_mode <= 5 ? "tiled" :
			"bitmap", s->first_mode);
	if (s->mode_changes || s->mapping_changes)
		fprintf(out, "# capture summary: %llu display mode changes, %llu OBJ mapping changes after the first "
			"frame\n", (unsigned long long)s->mode_changes, (unsigned long long)s->mapping_changes);
	if (c->opt.obj)
		summary_obj(c, out);
	if (c->opt.bg)
		summary_bg(c, out);
}

/* ---- the interface ------------------------------------------------------- */

vs_capture *vs_capture_new(const vs_capture_options *o, FILE *out, const char *header_comment, char *err,
	size_t errlen)
{
	vs_capture_options d;
	vs_capture *c;

	if (!o) {
		vs_capture_options_default(&d);
		o = &d;
	}
	if (!out || (!o->obj && !o->bg) || o->grace < 1 || o->grace > VS_CAPTURE_WINDOW_MAX ||
		o->lookback > VS_CAPTURE_WINDOW_MAX) {
		snprintf(err, errlen, "capture: %s", !out ? "no output" : !o->obj && !o->bg ? "neither OBJ nor BG asked for"
			: "grace must be 1-600 frames and lookback 0-600");
		return NULL;
	}
	c = calloc(1, sizeof *c);
	if (!c)
		goto oom;
	c->opt = *o;
	if (cap_out_init(&c->o, out, o->uploads ? VS_CAPTURE_WINDOW_MAX : o->grace > o->lookback ? o->grace :
		o->lookback)) {
		free(c);
		goto oom;
	}
	c->header = header_comment ? strdup(header_comment) : NULL;
	c->bg = o->bg ? cap_bg_new() : NULL;
	c->next_id = 1;
	if ((header_comment && !c->header) || (o->bg && !c->bg)) {
		vs_capture_free(c);
		goto oom;
	}
	return c;
oom:
	snprintf(err, errlen, "capture: out of memory");
	return NULL;
}

int vs_capture_frame(vs_capture *c, const vs_gba_frame *f)
{
	int readable;

	if (c->o.failed || c->finished)
		return -1;
	if (!c->started && !cap_blank(f))
		start(c, cap_mode(f), map2d_of(f));
	if (obj_shown(f))
		settle_mapping(c, map2d_of(f));
	note_display(c, f);
	readable = cap_readable(c, f);
	if (c->opt.obj)
		cap_obj_frame(c, f, readable);
	if (c->opt.bg && c->opt.uploads)
		cap_bg_uploads(c, f);
	if (c->opt.bg && readable)
		cap_bg_frame(c, f);
	if (c->opt.bg && c->opt.uploads)
		cap_bg_runs_found(c, f);
	c->st.frames++;
	if (!c->header_written && c->started && c->o.flushed + c->o.delay <= c->o.frame)
		write_header(c, 1);
	while (c->o.flushed + c->o.delay <= c->o.frame && !c->o.failed)
		flush_one(c);
	c->o.frame++;
	return c->o.failed ? -1 : 0;
}

int vs_capture_finish(vs_capture *c)
{
	if (c->o.failed || c->finished)
		return -1;
	if (!c->header_written)
		write_header(c, c->started);
	while (c->o.flushed < c->o.frame && !c->o.failed)
		flush_one(c);
	c->finished = 1;
	cap_obj_live_count(c);
	summary(c);
	if (fflush(c->o.out) || ferror(c->o.out))
		c->o.failed = 1;
	return c->o.failed ? -1 : 0;
}

void vs_capture_stats_get(const vs_capture *c, vs_capture_stats *s)
{
	*s = c->st;
}

vs_capture *vs_capture_copy(const vs_capture *c, FILE *out)
{
	vs_capture *d = malloc(sizeof *d);

	if (!d)
		return NULL;
	memcpy(d, c, sizeof *d);
	d->header = NULL;
	d->bg = NULL;
	if (cap_out_copy(&d->o, &c->o, out) || (c->header && !(d->header = strdup(c->header))) ||
		(c->bg && !(d->bg = cap_bg_copy(c->bg)))) {
		vs_capture_free(d);
		return NULL;
	}
	return d;
}

void vs_capture_free(vs_capture *c)
{
	if (!c)
		return;
	cap_out_fini(&c->o);
	free(c->header);
	cap_bg_free(c->bg);
	free(c);
}
