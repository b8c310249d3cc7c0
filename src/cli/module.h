/* SPDX-License-Identifier: Zlib */
/* module.h - the one function a command module (vramsim-NAME.so) exports;
 * module.c looks it up with dlsym after loading the module. */
#ifndef VS_CLI_MODULE_H
#define VS_CLI_MODULE_H

#define VS_MODULE_ENTRY "vramsim_module_run"

/* Runs the command CMD (argv[0] is CMD) and returns its exit status. DIR is
 * the folder the module was loaded from: what ships beside the module (the
 * GBA ROMs in DIR/gba) is found there, in the build tree and installed. */
typedef int vs_module_entry(const char *dir, const char *cmd, int argc, char **argv);

vs_module_entry vramsim_module_run;

#endif
