#!/usr/bin/env bash
# Animated SVG and APNG against their yardsticks (issue 46, docs/performance.md "Animations"):
# the size of tuicast's animated SVG against svg-term-cli's (`npm install -g svg-term-cli`) of
# the same casts, and of its APNG against its GIF. svg-term reads asciicast v1 and v2 only, so
# each cast is written as v2 first (its pauses already capped as tuicast caps them: the
# header's idle_time_limit, else none), into $OUT (default target/anim-bench).
#
#   scripts/bench-animations.sh [CAST...]        sizes (and frames) of every format
#   TUICAST=target/release/tuicast scripts/bench-animations.sh
#
# Timing is farm-bench's (docs/performance.md gives the command): one pair per cast.
set -euo pipefail
cd "$(dirname "$0")/.."
TUICAST=${TUICAST:-target/release/tuicast}
OUT=${OUT:-target/anim-bench}
mkdir -p "$OUT"
[ $# -gt 0 ] || set -- casts/progress.cast casts/dialog.cast casts/vim.cast casts/less.cast \
  tests/conformance/cases/htop.cast
command -v svg-term >/dev/null || { echo "svg-term-cli is missing: npm install -g svg-term-cli" >&2; exit 2; }

printf '%-10s %12s %12s %8s %12s %12s\n' cast tuicast-svg svg-term ratio apng gif
for cast in "$@"; do
  name=$(basename "$cast" .cast)
  # v3 (intervals) to v2 (absolute times), pauses capped at the header's idle_time_limit.
  python3 - "$cast" "$OUT/$name.v2.cast" <<'EOF'
import json, sys
src, dst = sys.argv[1], sys.argv[2]
lines = open(src, encoding="utf-8").read().splitlines()
head = json.loads(lines[0])
limit = head.get("idle_time_limit")
term = head.get("term", {})
v2 = {"version": 2, "width": term.get("cols", 80), "height": term.get("rows", 24)}
t = 0.0
out = [json.dumps(v2)]
for line in lines[1:]:
    if not line.strip() or line.startswith("#"):
        continue
    interval, code, data = json.loads(line)
    if limit:
        interval = min(interval, limit)
    t += interval
    if code == "o":
        out.append(json.dumps([round(t, 6), "o", data]))
open(dst, "w", encoding="utf-8").write("\n".join(out) + "\n")
EOF
  "$TUICAST" replay "$cast" --format animated-svg -o "$OUT/$name.svg"
  "$TUICAST" replay "$cast" --format apng -o "$OUT/$name.png"
  "$TUICAST" replay "$cast" --format gif -o "$OUT/$name.gif"
  svg-term --in "$OUT/$name.v2.cast" --out "$OUT/$name.svg-term.svg"
  a=$(stat -c %s "$OUT/$name.svg"); b=$(stat -c %s "$OUT/$name.svg-term.svg")
  p=$(stat -c %s "$OUT/$name.png"); g=$(stat -c %s "$OUT/$name.gif")
  printf '%-10s %12s %12s %8s %12s %12s\n' "$name" "$a" "$b" \
    "$(python3 -c "print(f'{$a/$b:.2f}')")" "$p" "$g"
done
