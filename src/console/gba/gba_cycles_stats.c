/* SPDX-License-Identifier: Zlib */
/* gba_cycles_stats.c - what the GBA answered to a `vramsim cycles` request
 * list: runs the list on the cycles ROM, then summarises the moves' cycles
 * beside the cost model and finds where the GBA's sprites sit otherwise
 * than the host's (the rest of the statistics: console/common/
 * cycles_list.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "console/gba/gba_cycles_host.h"

int vs_gba_cycles_measure(const vs_gba_cycles_list *l, int code, uint32_t max_frames, vs_gba_result **res,
	vs_gba_cycles_info *info, char *err, size_t errlen)
{
	uint32_t strategy = l->t->id;
	char rom[1024];

	*res = NULL;
	memset(info, 0, sizeof *info);
	if (!vs_gba_cycles_rom(code, rom, sizeof rom, err, errlen))
		return -1;
	*res = calloc(l->n ? (size_t)l->n * VS_GBA_RESULTS_PER_REQ(strategy) : 1, sizeof **res);
	if (!*res) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (vs_gba_cycles_run(rom, strategy, l->param, l->rq, l->n, *res, info, max_frames, err, errlen)) {
		free(*res);
		*res = NULL;
		return -1;
	}
	return 0;
}

int vs_gba_cycles_split(const vs_gba_cycles_list *l, vs_gba_result *res, vs_gba_result **mres)
{
	uint32_t i;

	*mres = NULL;
	if (l->t->results != 2)
		return 0;
	/* the call's result, then its moves': split them */
	*mres = malloc((l->n ? l->n : 1) * sizeof **mres);
	if (!*mres)
		return -1;
	for (i = 0; i < l->n; i++) {
		(*mres)[i] = res[2 * i + 1];
		res[i] = res[2 * i];
	}
	return 0;
}

/* ---- the moves ----------------------------------------------------------- */

/* One row of the moves table from the measured cycles v and the model's
 * for the same moves, n of each (v comes back sorted). */
static void moves_row(vs_gba_cycles_moves_row *row, uint32_t *v, const uint32_t *model, uint32_t n)
{
	uint64_t sum = 0, msum = 0;
	uint32_t i, mmax = 0;

	memset(row, 0, sizeof *row);
	if (!n)
		return;
	for (i = 0; i < n; i++) {
		sum += v[i];
		msum += model[i];
		if (model[i] > mmax)
			mmax = model[i];
	}
	vs_cycles_sort(v, n);
	row->n = n;
	row->mean = (double)sum / n;
	row->median = vs_cycles_rank(v, n, 50);
	row->max = v[n - 1];
	row->model_mean = (double)msum / n;
	row->model_max = mmax;
}

/* Per frame: the moves of its calls and of the frame call ending it, into
 * v and model; returns how many frames moved sprites. */
static uint32_t frame_moves(const vs_gba_cycles_list *l, const vs_gba_result *mres, uint32_t *v, uint32_t *model)
{
	uint32_t i, nf = 0, f = 0, fcur = 0, fmodel = 0;

	for (i = 0; i <= l->n; i++) {
		if (i == l->n || l->calls[i].frame != f) {
			if (fmodel) {
				v[nf] = fcur;
				model[nf++] = fmodel;
			}
			if (i == l->n)
				break;
			f = l->calls[i].frame;
			fcur = fmodel = 0;
		}
		if (l->calls[i].nmoves) {
			fcur += mres[i].cycles;
			fmodel += vs_cycles_traffic(l->calls[i].words, l->calls[i].nmoves, 0);
		}
	}
	return nf;
}

/* DMA3 as the program measured it at start-up: a transfer of 8 words and
 * one of 1,024 give the cost a word and the cost a transfer besides. */
static void dma_costs(const vs_gba_cycles_info *info, vs_gba_cycles_moves *m)
{
	double pv = (info->dma_vram1024 - (double)info->dma_vram8) / 1016.0;
	double pr = (info->dma_rom1024 - (double)info->dma_rom8) / 1016.0;

	m->vram_word = pv;
	m->vram_each = info->dma_vram8 - 8 * pv;
	m->rom_word = pr;
	m->rom_each = info->dma_rom8 - 8 * pr;
}

int vs_gba_cycles_moves_of(const vs_gba_cycles_list *l, const vs_gba_result *mres,
	const vs_gba_cycles_info *info, vs_gba_cycles_moves *m)
{
	uint32_t *v = malloc((l->n ? l->n : 1) * sizeof *v), *model = malloc((l->n ? l->n : 1) * sizeof *model);
	uint32_t i;

	memset(m, 0, sizeof *m);
	if (!v || !model) {
		free(v);
		free(model);
		return -1;
	}
	for (i = 0; i < l->n; i++) {
		if (!l->calls[i].nmoves)
			continue;
		v[m->calls] = mres[i].cycles;
		model[m->calls++] = vs_cycles_traffic(l->calls[i].words, l->calls[i].nmoves, 0);
		m->moves += l->calls[i].nmoves;
		m->words += l->calls[i].words;
		m->measured += mres[i].cycles;
	}
	m->model = vs_cycles_traffic(m->words, m->moves, 0);
	m->ratio = m->words ? (double)m->measured / (double)m->model : 0.0;
	dma_costs(info, m);
	if (m->calls) {
		moves_row(&m->call, v, model, m->calls);
		if (l->frames)
			moves_row(&m->frame, v, model, frame_moves(l, mres, v, model));
	}
	free(v);
	free(model);
	return 0;
}

/* ---- the GBA's sprites against the host's --------------------------------- */

uint32_t vs_gba_cycles_next_moved_diff(const vs_gba_cycles_list *l, const vs_gba_result *mres, uint32_t i)
{
	while (i < l->n && mres[i].value == l->calls[i].digest)
		i++;
	return i;
}
