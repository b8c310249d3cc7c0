/* SPDX-License-Identifier: Zlib */
/* strategies_ds.c - the DS strategies (texture, palette and OBJ VRAM), in list order. */
#include "strategies/strategies.h"

extern const vs_strategy vs_strat_nns_frm_tex, vs_strat_nns_frm_pltt;
extern const vs_strategy vs_strat_nns_lnk_tex, vs_strat_nns_lnk_pltt;
extern const vs_strategy vs_strat_ds_tex_pair, vs_strat_ds_pltt_split;
extern const vs_strategy vs_strat_libnds_sprite, vs_strat_nflib_sprite, vs_strat_nflib_sprite3d;
extern const vs_strategy vs_strat_nitro_engine_tex, vs_strat_nitro_engine_pltt;
extern const vs_strategy vs_strat_libnds_tex, vs_strat_libnds_pltt;

const vs_strategy *const vs_strategies_ds[] = {
	&vs_strat_nns_lnk_tex,
	&vs_strat_nns_lnk_pltt,
	&vs_strat_nns_frm_tex,
	&vs_strat_nns_frm_pltt,
	&vs_strat_ds_tex_pair,
	&vs_strat_ds_pltt_split,
	&vs_strat_libnds_sprite,
	&vs_strat_nflib_sprite,
	&vs_strat_nflib_sprite3d,
	&vs_strat_nitro_engine_tex,
	&vs_strat_nitro_engine_pltt,
	&vs_strat_libnds_tex,
	&vs_strat_libnds_pltt,
	NULL
};
