#!/bin/sh
# SPDX-License-Identifier: Zlib
# check.sh - butano-sprite-tiles against Butano's own code (docs/butano.md,
# "Checked against Butano's code"); the ctest butano_real_code.
#
#   VRAMSIM_BUTANO_SRC=BUTANO tools/butano-check/check.sh BUILD OUT [TRACE...]
#
# Builds butano-check against the Butano checkout BUTANO (build.sh), runs it
# on each TRACE (default: every bundled trace with a gba-obj arena,
# `vramsim gen` OBJ workloads of seeds 3 and 4, and flush-limit.trace) with
# graphics=tag, each and raw, and compares each placement with
# butano-sprite-tiles at the checkout's major version (compare.sh). Exit 0: every placement equal; 1: one differs;
# 2: bad usage or a build that failed; 77: VRAMSIM_BUTANO_SRC is not set.
set -u
if [ -z "${VRAMSIM_BUTANO_SRC:-}" ]; then
	echo "butano_real_code: skipped: set VRAMSIM_BUTANO_SRC to a Butano checkout (github.com/GValiente/butano)"
	exit 77
fi
if [ $# -lt 2 ]; then
	echo "usage: VRAMSIM_BUTANO_SRC=BUTANO $0 BUILD OUT [TRACE...]" >&2
	exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
build=$1 out=$2
shift 2
vramsim=$build/vramsim
# the placements go to a folder of their own: in OUT, a second run would
# take them for generated traces (gen-*.trace) and check them again
mkdir -p "$out/placed" || exit 2
check=$("$here/build.sh" "$VRAMSIM_BUTANO_SRC" "$build" "$out/butano-check") || exit 2
bn=$VRAMSIM_BUTANO_SRC
[ -d "$bn/butano/include" ] && bn=$bn/butano
major=$(sed -n 's/^ *#define BN_VERSION_MAJOR \([0-9]*\).*/\1/p' "$bn/include/bn_version.h")
version=$major
[ "$version" -lt 7 ] && version=7
[ "$version" -gt 21 ] && version=21
if [ $# -eq 0 ]; then
	for gen in sprite-churn level-change boss-fight bitmap-racer; do
		for seed in 3 4; do
			"$vramsim" gen "$gen" --seed $seed -o "$out/gen-$gen-$seed.trace" || exit 2
		done
	done
	set -- $(grep -l '^arena [^ ]* gba-obj' "$here"/../../traces/*.trace) "$out"/gen-*.trace \
		"$here/flush-limit.trace"
fi
status=0
for trace in "$@"; do
	name=$(basename "$trace" .trace)
	if [ "$major" -lt 21 ] && grep -q '^arena [^ ]* gba-obj.* mode=[345]' "$trace"; then
		echo "$name: bitmap mode, which Butano $major has not: left out"
		continue
	fi
	for graphics in tag each raw; do
		placed=$out/placed/$name.$graphics.trace
		if ! "$check" --graphics $graphics "$trace" "$placed" 2>"$out/placed/$name.$graphics.log"; then
			echo "$name graphics=$graphics: butano-check failed: $(tail -n 1 "$out/placed/$name.$graphics.log")"
			status=1
			continue
		fi
		result=$("$here/compare.sh" "$vramsim" "$placed" "butano-sprite-tiles:version=$version,graphics=$graphics")
		rc=$?
		[ $rc -gt 1 ] && exit 2
		[ $rc -eq 1 ] && status=1
		log=$(sed -n 's/^butano-check: //p' "$out/placed/$name.$graphics.log")
		echo "$name graphics=$graphics: $(echo "$result" | tr '\n' ' ')($log)"
	done
done
exit $status
