#!/bin/sh
# SPDX-License-Identifier: Zlib
# memcheck.sh BIN SRC - the commonest commands under valgrind's memcheck,
# one of each kind of work (a few seconds; the ownership map's splits and
# joins among them): a read of memory never written, which AddressSanitizer
# does not look for, fails the test. Skipped without valgrind.
set -u
BIN=$1
SRC=$2
if ! command -v valgrind >/dev/null 2>&1; then
	echo "memcheck: skipped: valgrind is not installed"
	exit 77
fi
out=$(mktemp -d "${TMPDIR:-/tmp}/vs-memcheck-XXXXXX") || exit 1
trap 'rm -rf "$out"' EXIT INT TERM
T=$SRC/traces
fails=0
# each run's own exit code is not the test's (diff says 1 for "worse"):
# valgrind's 99 is
run() {
	valgrind -q --error-exitcode=99 --leak-check=no "$BIN/vramsim" "$@" >/dev/null 2>"$out/err"
	if [ $? -eq 99 ]; then
		echo "memcheck: vramsim $*:"
		cat "$out/err"
		fails=$((fails + 1))
	fi
}
run render "$T/ds-sprites.trace" -o "$out/pictures" -q
run replay "$T/heap-manager.trace" -q
run replay "$T/ds-3d.trace" -q
run compare "$T/obj-quickstart.trace" --no-timing
run diff "$T/gba-sprite-churn-1.trace" "$T/gba-sprite-churn-2.trace" -q
run gen ds-sprites --frames 200 -o "$out/gen.trace"
[ $fails -eq 0 ]
