/* SPDX-License-Identifier: Zlib */
/* view_present.c - how frames reach the window: a texture of an
 * SDL_Renderer, or the window's own framebuffer when the renderer would
 * draw on the CPU anyway (present_open chooses, opts present says), and
 * only the parts of the canvas that differ from what the window has are
 * sent (docs/viewer.md, "Drawing only what changed").
 */
#include <stdio.h>
#include <string.h>

#include "viewer_int.h"

/* ---- sending what changed ---------------------------------------------- */

/* The window's framebuffer (X11: shared memory): the changed rectangles
 * are converted into it and only they are sent. */
static int present_surface(viewer *v, SDL_Rect *r, int n)
{
	SDL_Surface *ws = SDL_GetWindowSurface(v->win);
	int i, bpp, m = 0;

	if (!ws)
		return -1;
	bpp = ws->format->BytesPerPixel;
	if (SDL_MUSTLOCK(ws) && SDL_LockSurface(ws))
		return -1;
	for (i = 0; i < n; i++) {
		SDL_Rect c = r[i];
		if (c.x + c.w > ws->w)
			c.w = ws->w - c.x;
		if (c.y + c.h > ws->h)
			c.h = ws->h - c.y;
		if (c.w <= 0 || c.h <= 0)
			continue;
		SDL_ConvertPixels(c.w, c.h, SDL_PIXELFORMAT_RGBA32,
			v->canvas.px + ((size_t)c.y * (size_t)v->canvas.w + (size_t)c.x) * 4, v->canvas.w * 4,
			ws->format->format, (uint8_t *)ws->pixels + (size_t)c.y * (size_t)ws->pitch + (size_t)c.x * (size_t)bpp,
			ws->pitch);
		r[m++] = c;
	}
	if (SDL_MUSTLOCK(ws))
		SDL_UnlockSurface(ws);
	return m ? SDL_UpdateWindowSurfaceRects(v->win, r, m) : 0;
}

#define TILE_W 64
#define TILE_H 16

/* One tile row's changed pixels, in 64-pixel column chunks: runs of changed
 * chunks become rectangles (cut to the rows that changed); shown is brought
 * up to date. Returns the rectangles added, or -1 when out of room. */
static int refine_band(viewer *v, int x0, int x1, int y0, int y1, int n)
{
	const size_t stride = (size_t)v->W * 4;
	int cx = x0, y, run_x = -1, run_ylo = 0, run_yhi = 0;

	for (;;) {
		int ce = x1 - cx < TILE_W ? x1 : cx + TILE_W, ylo = -1, yhi = -1;
		for (y = y0; y < y1 && cx < x1; y++) {
			size_t off = (size_t)y * stride + (size_t)cx * 4;
			if (memcmp(v->canvas.px + off, v->shown.px + off, (size_t)(ce - cx) * 4)) {
				if (ylo < 0)
					ylo = y;
				yhi = y;
			}
		}
		if (ylo >= 0) {
			if (run_x < 0) {
				run_x = cx;
				run_ylo = ylo;
				run_yhi = yhi;
			} else {
				run_ylo = ylo < run_ylo ? ylo : run_ylo;
				run_yhi = yhi > run_yhi ? yhi : run_yhi;
			}
			cx = ce;
			continue;
		}
		if (run_x >= 0) {
			SDL_Rect *r;
			if (n == VIEW_MAX_SEND)
				return -1;
			r = &v->send[n++];
			r->x = run_x;
			r->y = run_ylo;
			r->w = cx - run_x;
			r->h = run_yhi - run_ylo + 1;
			for (y = r->y; y < r->y + r->h; y++)
				memcpy(v->shown.px + (size_t)y * stride + (size_t)r->x * 4,
					v->canvas.px + (size_t)y * stride + (size_t)r->x * 4, (size_t)r->w * 4);
			run_x = -1;
		}
		if (cx >= x1)
			return n;
		cx = ce;
	}
}

/* The dirty regions narrowed to what differs from the window's picture
 * (a region drawn again is often mostly the same pixels: a moved cursor,
 * a few changed tiles). Returns how many rectangles are in v->send. */
static int refine(viewer *v, const SDL_Rect *d, int nd)
{
	int i, n = 0, y;

	for (i = 0; i < nd; i++)
		for (y = d[i].y; y < d[i].y + d[i].h; y += TILE_H) {
			int y1 = y + TILE_H < d[i].y + d[i].h ? y + TILE_H : d[i].y + d[i].h;
			n = refine_band(v, d[i].x, d[i].x + d[i].w, y, y1, n);
			if (n < 0)
				return -1;
		}
	return n;
}

/* Sends the canvas's changed parts to the window; nothing when nothing
 * changed (the picture stays up). */
void present_frame(viewer *v)
{
	SDL_Rect all, *r = v->send;
	int n, i;

	all.x = all.y = 0;
	all.w = v->W;
	all.h = v->H;
	if (!v->shown.px || v->shown.w != v->W || v->shown.h != v->H) {
		vs_image_fini(&v->shown);
		if (vs_image_init(&v->shown, v->W, v->H, VS_RGB_BG))
			v->shown.px = NULL;
		v->show_all = 1;
	}
	if (v->show_all || !v->shown.px) {
		n = -1;
	} else if (v->dirty_all) {
		n = refine(v, &all, 1);
	} else {
		n = refine(v, v->dirty, v->ndirty);
	}
	v->ndirty = 0;
	v->dirty_all = 0;
	v->show_all = 0;
	if (n < 0) {
		/* everything */
		if (v->shown.px)
			memcpy(v->shown.px, v->canvas.px, (size_t)v->W * (size_t)v->H * 4);
		r = &all;
		n = 1;
	}
	if (!n)
		return;
	for (i = 0; i < n; i++)
		v->sent_px += (uint64_t)r[i].w * (uint64_t)r[i].h;
	v->presents++;
	if (v->present_mode == VIEW_PRESENT_SURFACE) {
		if (present_surface(v, r, n))
			v->show_all = 1;
		return;
	}
	if (!v->ren || !v->tex)
		return;
	for (i = 0; i < n; i++)
		SDL_UpdateTexture(v->tex, &r[i], v->canvas.px + ((size_t)r[i].y * (size_t)v->canvas.w + (size_t)r[i].x) * 4,
			v->canvas.w * 4);
	/* the texture covers the window: no clear */
	SDL_RenderCopy(v->ren, v->tex, NULL, NULL);
	SDL_RenderPresent(v->ren);
}

/* ---- choosing the way -------------------------------------------------- */

#ifdef _WIN32
#define VIEW_GLAPI __stdcall
#else
#define VIEW_GLAPI
#endif

/* Whether the renderer is OpenGL drawn by the CPU (Mesa's llvmpipe under
 * Xvfb or without a GPU): its full-window texture draw and buffer swap
 * take 10-15 ms a frame, where the window's framebuffer sends only what
 * changed. */
static int software_gl(SDL_Renderer *ren)
{
	typedef const unsigned char *(VIEW_GLAPI *get_string_fn)(unsigned);
	SDL_RendererInfo ri;
	get_string_fn gs;
	void *fn;
	const char *name;

	if (SDL_GetRendererInfo(ren, &ri) || strncmp(ri.name, "opengl", 6) != 0 || !SDL_GL_GetCurrentContext())
		return 0;
	fn = SDL_GL_GetProcAddress("glGetString");
	if (!fn)
		return 0;
	memcpy(&gs, &fn, sizeof gs);
	name = (const char *)gs(0x1F01); /* GL_RENDERER */
	return name && (strstr(name, "llvmpipe") || strstr(name, "softpipe") || strstr(name, "Software") ||
		strstr(name, "swrast"));
}

/* The way frames reach the window (opts present): a texture of an
 * SDL_Renderer (vsync when asked and the driver has it), or the window's
 * framebuffer when the renderer would draw on the CPU anyway. */
int present_open(viewer *v, int w, int h, char *err, size_t errlen)
{
	const vs_viewer_opts *o = v->o;
	Uint32 rflags = o->no_vsync || o->script ? 0 : SDL_RENDERER_PRESENTVSYNC;
	SDL_RendererInfo ri;
	const char *why = "";

	v->present_mode = o->present == 2 ? VIEW_PRESENT_SURFACE : VIEW_PRESENT_TEXTURE;
	if (v->present_mode == VIEW_PRESENT_TEXTURE) {
		v->ren = SDL_CreateRenderer(v->win, -1, SDL_RENDERER_ACCELERATED | rflags);
		if (!v->ren)
			v->ren = SDL_CreateRenderer(v->win, -1, rflags);
		if (!v->ren)
			v->ren = SDL_CreateRenderer(v->win, -1, SDL_RENDERER_SOFTWARE);
		if (!v->ren && o->present == 1) {
			snprintf(err, errlen, "cannot create a renderer: %s", SDL_GetError());
			return 2;
		}
		if (o->present == 0 && v->ren) {
			SDL_GetRendererInfo(v->ren, &ri);
			if (ri.flags & SDL_RENDERER_SOFTWARE || strcmp(ri.name, "software") == 0)
				why = " (the renderer draws in software)";
			else if (software_gl(v->ren))
				why = " (OpenGL is drawn in software)";
		}
		if (*why || !v->ren) {
			if (v->ren)
				SDL_DestroyRenderer(v->ren);
			v->ren = NULL;
			v->present_mode = VIEW_PRESENT_SURFACE;
		}
	}
	if (v->present_mode == VIEW_PRESENT_SURFACE) {
		/* the driver's own framebuffer (X11: shared memory), not one
		 * emulated with a renderer texture */
		SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0");
		if (!SDL_GetWindowSurface(v->win)) {
			if (o->present == 2) {
				snprintf(err, errlen, "the window has no framebuffer: %s", SDL_GetError());
				return 2;
			}
			/* auto: back to a renderer */
			SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, NULL);
			v->present_mode = VIEW_PRESENT_TEXTURE;
			why = "";
			v->ren = SDL_CreateRenderer(v->win, -1, rflags);
			if (!v->ren)
				v->ren = SDL_CreateRenderer(v->win, -1, SDL_RENDERER_SOFTWARE);
			if (!v->ren) {
				snprintf(err, errlen, "cannot create a renderer: %s", SDL_GetError());
				return 2;
			}
		}
	}
	SDL_GetWindowSize(v->win, &w, &h);
	if (layout_resize(v, w, h)) {
		snprintf(err, errlen, "out of memory for a %dx%d canvas", w, h);
		return 2;
	}
	memset(&ri, 0, sizeof ri);
	ri.name = "none";
	if (v->ren)
		SDL_GetRendererInfo(v->ren, &ri);
	v->vsync = v->ren && (ri.flags & SDL_RENDERER_PRESENTVSYNC);
	if (v->present_mode == VIEW_PRESENT_SURFACE)
		view_log(v, "view: %s, %d side%s, video %s, window framebuffer%s, %dx%d", o->trace, v->nsides,
			v->nsides > 1 ? "s" : "", SDL_GetCurrentVideoDriver(), why, w, h);
	else
		view_log(v, "view: %s, %d side%s, video %s, renderer %s%s, %dx%d", o->trace, v->nsides,
			v->nsides > 1 ? "s" : "", SDL_GetCurrentVideoDriver(), ri.name,
			v->vsync ? " (vsync)" : "", w, h);
	return 0;
}
