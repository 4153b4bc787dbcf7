#!/usr/bin/env bash
# Issue 27, point 4: does a live suite use every core? A suite of N scenarios (copies of the
# todoapp's four, each `command =` the built todoapp so no cargo build is timed), checked with
# `tuicast test --live` on 1 core and on every core (`taskset`), alternating, ROUNDS rounds.
# Prints one line per run: cores, wall seconds; then the medians and their ratio.
#
#   scripts/bench-live/scale.sh [N=100] [ROUNDS=3]
#
# SETTLE=quiet:50ms (or any rule) puts `settle = RULE` on top of every scenario; CORES=all
# times only the run on every core. RUNNER=cargo or RUNNER=nextest checks the same suite as a
# crate's `cargo test` (a `tests/casts.rs` calling `tuicast::harness::main()`, built once into
# target/scale-harness before timing) or `cargo nextest run` (a process per trial).
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
n="${1:-100}"
rounds="${2:-3}"
app="$repo/tests/apps/todoapp"
(cd "$repo" && cargo build -q -p todoapp && cargo build -q --bin tuicast)
bin="$repo/target/debug/todoapp"
tuicast="$repo/target/debug/tuicast"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp "$app/tuicast.toml" "$work/"
mkdir -p "$work/casts" "$work/snapshots"
stems=(add navigate popup start)
for i in $(seq 1 "$n"); do
  s="${stems[$(( (i - 1) % 4 ))]}"
  name="$s-$i"
  cp "$app/casts/$s.cast" "$work/casts/$name.cast"
  { if [ -n "${SETTLE:-}" ]; then echo "settle = \"$SETTLE\""; fi
    sed "s|^bin = \"todoapp\"|command = [\"$bin\"]\nlive = true|" "$app/casts/$s.toml"
  } > "$work/casts/$name.toml"
  cp -r "$app/snapshots/$s" "$work/snapshots/$name"
  sed -i "s|^cast: casts/$s.cast\$|cast: casts/$name.cast|" "$work/snapshots/$name"/*
done
runner="${RUNNER:-tuicast}"
if [ "$runner" != tuicast ]; then
  cat > "$work/Cargo.toml" <<TOML
[package]
name = "scale-suite"
version = "0.1.0"
edition = "2021"
publish = false

[dev-dependencies]
tuicast = { path = "$repo" }

[[test]]
name = "casts"
path = "tests/casts.rs"
harness = false

[workspace]
TOML
  mkdir -p "$work/tests" "$work/src"
  echo 'fn main() { tuicast::harness::main() }' > "$work/tests/casts.rs"
  touch "$work/src/lib.rs"
  export CARGO_TARGET_DIR="$repo/target/scale-harness"
  (cd "$work" && cargo test -q --test casts --no-run 2>&1 | tail -3)
  if [ "$runner" = nextest ]; then (cd "$work" && cargo nextest list --test casts >/dev/null 2>&1); fi
fi
check() {
  case "$runner" in
    tuicast) "$tuicast" test --live ;;
    cargo) TUICAST_LIVE=1 cargo test -q --test casts ;;
    nextest) TUICAST_LIVE=1 cargo nextest run --test casts --no-fail-fast ;;
  esac
}
all="0-$(( $(nproc) - 1 ))"
declare -a one many
for r in $(seq 1 "$rounds"); do
  choices=(0 "$all")
  if [ "${CORES:-}" = all ]; then choices=("$all"); fi
  for cores in "${choices[@]}"; do
    start=$(date +%s.%N)
    (cd "$work" && export -f check && export runner tuicast && taskset -c "$cores" bash -c check > "$work/out.txt" 2>&1) || {
      tail -30 "$work/out.txt"; exit 1; }
    secs=$(echo "$(date +%s.%N) - $start" | bc)
    # A failure fails the command above; a run that checked nothing fails here.
    grep -qE "[1-9][0-9]* passed" "$work/out.txt" || { tail -30 "$work/out.txt"; exit 1; }
    printf 'round %s cores %s\t%.2f s\n' "$r" "$cores" "$secs"
    if [ "$cores" = 0 ]; then one+=("$secs"); else many+=("$secs"); fi
  done
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
mn=$(median "${many[@]}")
if [ "${CORES:-}" = all ]; then
  printf 'median: %s cores %.2f s (settle %s)\n' "$(nproc)" "$mn" "${SETTLE:-as the scenarios say}"
else
  m1=$(median "${one[@]}")
  printf 'median: 1 core %.2f s, %s cores %.2f s, speed-up %.2fx\n' "$m1" "$(nproc)" "$mn" "$(echo "$m1 / $mn" | bc -l)"
fi
grep -E "^(slowest|live):" "$work/out.txt" || true
