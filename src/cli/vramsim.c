/* SPDX-License-Identifier: Zlib */
/* vramsim.c - the executable: everything is in vs_cli_main (main.c). */
#include "cli_main.h"

#if defined(__SANITIZE_ADDRESS__)
/* The DS emulator core (C++, loaded by the ds module) deletes with delete
 * what it made with new[]: its bug, and our C code uses neither, so the
 * sanitizer build does not stop a DS run on it. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "alloc_dealloc_mismatch=0";
}
#endif

int main(int argc, char **argv)
{
	return vs_cli_main(argc, argv);
}
