/* cycles_noop.c - see cycles_noop.h. */
#include "cycles_noop.h"

uint16_t vs_noop_ptr_u16(void *state, uint16_t arg)
{
	(void)state;
	return arg;
}
