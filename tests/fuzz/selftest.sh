#!/bin/sh
# SPDX-License-Identifier: Zlib
# selftest.sh DRIVER CORPUS - fuzz_replay_selftest (a planted defect) must
# fail, name the mutated input, keep it, and --write must give it back.
set -u
driver=$1 corpus=$2
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
if "$driver" "$corpus" --inputs 5000 >out 2>&1; then
	echo "selftest: the planted defect was not found"; cat out; exit 1
fi
k=$(sed -n 's/^fuzz_replay: failed on mutated input \([0-9]*\)$/\1/p' out)
[ -n "$k" ] || { echo "selftest: no input named"; cat out; exit 1; }
[ -s fuzz_replay.crash ] || { echo "selftest: the failing input was not kept"; exit 1; }
"$driver" "$corpus" --write "$k" again || exit 1
cmp -s fuzz_replay.crash again || { echo "selftest: --write $k gives another input"; exit 1; }
echo "selftest: input $k found the planted defect, kept and written back"
