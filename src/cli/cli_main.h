/* SPDX-License-Identifier: Zlib */
/* cli_main.h - the vramsim command as a function: the executable's main
 * (vramsim.c) calls it, and the test suites call it in a forked child
 * instead of starting the executable (tests/support.c). */
#ifndef VS_CLI_MAIN_H
#define VS_CLI_MAIN_H

/* Runs "vramsim ARGS": argv[0] is the program, argv[1] the command. Returns
 * the exit status. Standard output is flushed and checked. */
int vs_cli_main(int argc, char **argv);

/* 1 when the command NAME runs in a module (an emulator, a window) or is
 * not a command, 0 when it runs in vramsim itself. */
int vs_cli_runs_module(const char *name);

#endif
