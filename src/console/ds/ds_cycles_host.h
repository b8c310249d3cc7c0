/* SPDX-License-Identifier: Zlib */
/* ds_cycles_host.h - the host half of `vramsim cycles` on the DS: which
 * host strategies the cycles program carries and how their calls become
 * requests (protocol: ds_cycles.h; the list and the statistics:
 * console/common/cycles_list.h), and the run of the list in DeSmuME.
 *
 * ds_cycles_list.c holds the targets, ds_cycles.c runs the program; the
 * command is src/cli/ds/cmd_cycles.c.
 */
#ifndef VRAMSIM_DS_CYCLES_HOST_H
#define VRAMSIM_DS_CYCLES_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "console/common/cycles_list.h"
#include "console/ds/ds_cycles.h"

/* The host strategies the DS cycles program carries: *n of them. */
const vs_cycles_target *vs_ds_cycles_targets(size_t *n);
/* Their names, ", "-separated, into buf. */
void vs_ds_cycles_target_list(char *buf, size_t len);
/* An empty list for the program's handle slots; NULL when out of memory. */
vs_cycles_list *vs_ds_cycles_list_new(void);

/* Where the cycles ROM is looked for: $VRAMSIM_DS_ROM_DIR, the folder
 * vs_ds_set_rom_dir gave (the module's ds/), the build tree's ds/. */
void vs_ds_set_rom_dir(const char *dir);
/* The cycles ROM's path into buf, or NULL with err (built without
 * arm-none-eabi-gcc). */
const char *vs_ds_cycles_rom(char *buf, size_t len, char *err, size_t errlen);

/* How a run went. */
typedef struct vs_ds_cycles_info {
	uint32_t overhead2, overhead3, overhead4; /* ticks of an empty timed call, subtracted */
	uint32_t frames;  /* frames emulated */
	uint32_t chunks;  /* request chunks handed over */
} vs_ds_cycles_info;

/* Runs l on the emulated DS (the cycles ROM in DeSmuME): *res gets one
 * answer a request. At most max_frames frames (0: 300 and one for every 8
 * requests). Returns 0, or -1 with err (no ROM or core, out of memory, the
 * program stopped or failed, too many parameter sets). */
int vs_ds_cycles_measure(const vs_cycles_list *l, uint32_t max_frames, vs_cycles_result **res,
	vs_ds_cycles_info *info, char *err, size_t errlen);

#endif
