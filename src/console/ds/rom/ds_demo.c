/* SPDX-License-Identifier: Zlib */
/* ds_demo.c - vramsim's DS demo program, ARM9 side. */
#include <stdint.h>

#include "ds_hw.h"
#include "ds_demo.h"

#define STATUS ((volatile ds_demo_status *)DS_DEMO_STATUS_ADDR)

int main(void);

static void wait_vblank(void)
{
	while (REG_VCOUNT >= DS_VBLANK_LINE)
		;
	while (REG_VCOUNT < DS_VBLANK_LINE)
		;
}

int main(void)
{
	volatile ds_demo_status *st = STATUS;
	uint32_t frame;

	st->busy = 1;
	st->steps = 0;
	st->done = 0;
	st->magic = DS_DEMO_MAGIC;
	REG_POWCNT1 = POWCNT1_ALL;
	st->busy = 0;
	for (frame = 0;; frame++) {
		wait_vblank();
		st->steps = frame + 1;
	}
}
