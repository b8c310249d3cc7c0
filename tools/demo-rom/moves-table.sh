#!/bin/sh
# SPDX-License-Identifier: Zlib
# Prints the gba-obj-compact table of docs/on-target.md: for each trace's OBJ
# arena, Thumb in ROM and ARM in IWRAM, compact's mean cycles per alloc, free
# and frame call beside gba-obj-best-fit-end's, and its moves (DMA3 inside VRAM)
# per frame, measured and by the cost model.
# usage: tools/demo-rom/moves-table.sh build/vramsim traces/gba-*.trace traces/obj-quickstart.trace
vramsim=$1; shift
for t in "$@"; do
  grep -q '^arena obj gba-obj' "$t" || continue
  n=$(basename "$t" .trace)
  bf=$("$vramsim" cycles "$t" --arena obj --strategy gba-obj-best-fit-end --code both 2>/dev/null |
    awk '/^alloc / { a = $3 } /^free / { printf("%s %s ", a, $3) }')
  "$vramsim" cycles "$t" --arena obj --strategy gba-obj-compact --code both 2>/dev/null |
    awk -v t="$n" -v bf="$bf" '
      BEGIN { split(bf, b, " ") }
      /^GBA:/ { k++; code = ($0 ~ /Thumb in ROM/) ? "Thumb/ROM" : "ARM/IWRAM"; mv = 0; fr = "- | - | - | - | -"; fc = "-" }
      /^alloc / { a = $3 }
      /^free / { f = $3 }
      /^frame / && !mv { fc = $3 }
      /^moves:/ { match($0, /measured \/ model [0-9.]+/); ratio = substr($0, RSTART + 17, RLENGTH - 17) }
      /^moves / { mv = 1 }
      /^frame / && mv { fr = sprintf("%s | %s | %s | %s | %s", $3, $5, $6, $7, $8) }
      /^placements:/ { eq = ($0 ~ /equal/) ? "yes" : "NO";
        printf("| %s | %s | %s / %s | **%s** / **%s** | %s | %s | %s | %s |\n", t, code, b[2 * k - 1], b[2 * k],
          a, f, fc, fr, ratio, eq) }'
done
