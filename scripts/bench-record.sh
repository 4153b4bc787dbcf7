#!/usr/bin/env bash
# Recording overhead against util-linux `script` doing the same PTY work: `tuicast record` of a
# scenario `shell = "seq 1 N"` and `script -q -f -c 'seq 1 N' /dev/null > /dev/null`, run in
# turn (A B A B ...) for ROUNDS rounds, wall time of each. The ratio is taken inside each round
# (the two runs next to each other see the same machine), then the median of the ratios and
# their spread (min–max). Seconds on a shared machine are noisy: quote the median ratio, and
# the spread says how noisy the machine was. For where the time goes, count instructions
# instead (docs/performance.md, "Recording": valgrind --tool=callgrind).
#
# Usage: scripts/bench-record.sh [ROUNDS] [N]   (default 9 rounds, seq 1 3000000)
#   TUICAST=path   a binary to measure instead of building target/release/tuicast
#   JOBS=n         cargo build jobs (default 2)
set -euo pipefail
rounds=${1:-9}
n=${2:-3000000}
cd "$(dirname "$0")/.."
if [[ -z ${TUICAST:-} ]]; then
  cargo build --release -j "${JOBS:-2}" --bin tuicast >&2
  TUICAST=$PWD/target/release/tuicast
fi
command -v script >/dev/null || { echo "bench-record: util-linux script not found" >&2; exit 2; }

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat >"$dir/seq.toml" <<EOF
shell = "seq 1 $n"
steps = [{ exit = 0, timeout = "600s" }]
EOF

TIMEFORMAT=%R
# Wall seconds of one run of the command (its output thrown away), on stdout.
wall() { { time "$@" >/dev/null 2>&1; } 2>&1; }
record() { "$TUICAST" record "$dir/seq.toml" -o "$dir/seq.cast"; }
yardstick() { script -q -f -c "seq 1 $n" /dev/null; }

# One warm-up of each, not counted (page cache, the binary, seq).
record >/dev/null 2>&1
yardstick >/dev/null 2>&1
cast_bytes=$(stat -c %s "$dir/seq.cast")

echo "round  tuicast_s  script_s  ratio"
rec=() scr=() ratio=()
for i in $(seq 1 "$rounds"); do
  # Alternate which goes first, so neither always runs on the heels of the other.
  if ((i % 2)); then
    a=$(wall record)
    b=$(wall yardstick)
  else
    b=$(wall yardstick)
    a=$(wall record)
  fi
  r=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", a / b }')
  rec+=("$a") scr+=("$b") ratio+=("$r")
  printf '%5d  %9s  %8s  %5s\n' "$i" "$a" "$b" "$r"
done

median() { printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
minmax() { printf '%s\n' "$@" | sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%s–%s", lo, hi }'; }
echo "seq 1 $n: cast $cast_bytes bytes, $rounds rounds, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "median tuicast record  $(median "${rec[@]}") s"
echo "median script          $(median "${scr[@]}") s"
echo "median ratio           $(median "${ratio[@]}")  (spread $(minmax "${ratio[@]}"))"
