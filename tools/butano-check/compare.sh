#!/bin/sh
# SPDX-License-Identifier: Zlib
# compare.sh - how many of a trace's OBJ allocations a strategy places where
# the trace's at= says (docs/butano.md, "Checked against Butano's code").
#
#   tools/butano-check/compare.sh VRAMSIM TRACE SPEC
#
# Replays TRACE under SPEC and under `recorded` (vramsim replay --events) on
# its gba-obj arena and pairs the alloc events by number: equal when both
# placed at one address or both failed. Prints "EQUAL of TOTAL equal" and,
# when they differ, the first event that differs under each; exits 1 then.
set -eu
if [ $# -ne 3 ]; then
	echo "usage: $0 VRAMSIM TRACE SPEC" >&2
	exit 2
fi
vramsim=$1 trace=$2 spec=$3
arena=$(awk '$1 == "arena" && $3 == "gba-obj" { print $2; exit }' "$trace")
if [ -z "$arena" ]; then
	echo "$0: $trace: no gba-obj arena" >&2
	exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# exit 1 is an integrity error: under recorded, graphics a manager shares
# are allocations on the same tiles
for run in game:recorded model:$spec; do
	rc=0
	"$vramsim" replay "$trace" -q -s "$arena=${run#*:}" --events "$tmp/${run%%:*}.jsonl" >/dev/null 2>&1 || rc=$?
	if [ $rc -gt 1 ]; then
		echo "$0: vramsim replay $trace -s $arena=${run#*:} failed (exit $rc)" >&2
		exit 2
	fi
done
# the event number, the place ("fail" when not placed) and the line of
# every alloc of the arena; vramsim writes each event on one line
awk -v arena="$arena" '
	function field(name,   m) {
		if (!match($0, "\"" name "\":(\"[^\"]*\"|[0-9]+)"))
			return ""
		m = substr($0, RSTART + length(name) + 3, RLENGTH - length(name) - 3)
		gsub(/"/, "", m)
		return m
	}
	field("arena") == arena && (field("kind") == "alloc" || field("kind") == "realloc") {
		place = field("status") == "ok" ? sprintf("0x%x", field("address")) : "fail"
		if (FILENAME ~ /game/) {
			game[field("event")] = place
			next
		}
		total++
		if (game[field("event")] == place) {
			equal++
		} else if (!first) {
			first = sprintf("first differing: trace line %s (id %s): recorded %s, %s %s",
				field("line"), field("id"), game[field("event")], spec, place)
		}
	}
	END {
		printf "%d of %d equal\n", equal, total
		if (first) {
			print first
			exit 1
		}
	}' spec="$spec" "$tmp/game.jsonl" "$tmp/model.jsonl"
