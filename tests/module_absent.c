/* SPDX-License-Identifier: Zlib */
/* module_absent.c - a gba module whose shared library the loader cannot
 * find, as when libmgba is removed after the build: cli_modules checks what
 * vramsim says then. Built twice (tests/CMakeLists.txt): with VS_ABSENT_LIB
 * the library, without it the module that needs it. */
int vs_absent(void);

#ifdef VS_ABSENT_LIB
int vs_absent(void)
{
	return 0;
}
#else
int vramsim_module_run(void);

int vramsim_module_run(void)
{
	return vs_absent();
}
#endif
