#!/bin/sh
# SPDX-License-Identifier: Zlib
# Prints the per-strategy cycles table of docs/on-target.md: every GBA
# strategy that can manage each trace's arena, Thumb in ROM and ARM in IWRAM.
# usage: tools/demo-rom/cycles-table.sh build/vramsim traces/gba-*.trace traces/obj-quickstart.trace
# STRATEGIES="a b" measures those instead (docs/on-target.md's Butano table).
vramsim=$1; shift
for t in "$@"; do
  if [ -n "$STRATEGIES" ]; then s=$STRATEGIES
  elif grep -q '^arena [^ ]* gba-bg' "$t"; then s="gba-bg-tiles gba-bg-tiles-split"
  else s="gba-obj-map gba-obj-first-fit gba-obj-best-fit-end gba-obj-buddy gba-obj-snug gba-obj-ends"; fi
  for st in $s; do
    "$vramsim" cycles "$t" --strategy "$st" --code both 2>/dev/null | awk -v t="$(basename "$t" .trace)" -v s="$st" '
      /^GBA:/ { code = ($0 ~ /Thumb in ROM/) ? "Thumb/ROM" : "ARM/IWRAM" }
      /^alloc / { a = sprintf("%s | %s | %s | %s", $3, $4, $5, $6) }
      /^free / { f = sprintf("%s | %s", $3, $6) }
      /worst frame/ { match($0, /= [0-9.]+% of a frame/); wf = substr($0, RSTART + 2, RLENGTH - 13);
                      match($0, /[0-9.]+% of VBlank/); wv = substr($0, RSTART, RLENGTH - 10) }
      /^placements:/ { eq = ($0 ~ /equal/) ? "yes" : "NO";
                       printf("| %s | %s | %s | %s | %s | %s | %s | %s |\n", t, s, code, a, f, wf, wv, eq) }'
  done
done
