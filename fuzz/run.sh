#!/usr/bin/env bash
# Runs every fuzz target for a bounded time: seeds the corpora (fuzz/seed.sh), builds all the
# targets once, then runs each for SECONDS (default 15) from its corpus and its saved
# regressions (fuzz/regressions/TARGET/, inputs that once crashed; each must pass). Stops at
# the first crash, timeout or out-of-memory, naming the saved input and how to replay it.
# Prints libFuzzer's final line (executions, coverage) per target; logs in fuzz/target/logs/.
#
# Usage: fuzz/run.sh [SECONDS] [TARGET...]      needs cargo-fuzz and the nightly toolchain.
set -euo pipefail
cd "$(dirname "$0")"
here=$(pwd)
seconds="${1:-15}"
shift || true

if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
  echo "fuzz: 'cargo +nightly fuzz' does not run: install cargo-fuzz (cargo install --locked cargo-fuzz) and a nightly toolchain" >&2
  exit 1
fi

./seed.sh "$here/corpus"
echo "fuzz: building the targets"
if ! cargo +nightly fuzz build; then
  echo "fuzz: the fuzz targets do not build" >&2
  exit 1
fi

if [ $# -gt 0 ]; then
  targets=("$@")
else
  mapfile -t targets < <(cargo +nightly fuzz list)
fi
mkdir -p target/logs
for target in "${targets[@]}"; do
  case "$target" in
    cast_toml) dict="$here/dict/toml.dict" ;;
    cast_reader) dict= ;;
    *) dict="$here/dict/terminal.dict" ;;
  esac
  mkdir -p "corpus/$target" "regressions/$target"
  log="target/logs/$target.log"
  # -timeout: one input taking longer is a failure (the limits of docs/limits.md are meant to
  # keep every input fast); -rss_limit_mb: so is a process above 2 GB, or one allocation above it.
  # (cargo fuzz runs the target from the project root: paths are absolute.)
  if cargo +nightly fuzz run "$target" "$here/corpus/$target" "$here/regressions/$target" -- \
      -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=20 -print_final_stats=1 \
      ${dict:+-dict="$dict"} >"$log" 2>&1; then
    printf 'fuzz: %-12s %s\n' "$target" "$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -1)"
  else
    tail -n 60 "$log" >&2
    saved=$(sed -n 's/^.*Test unit written to //p' "$log" | tail -1)
    echo "fuzz: target $target FAILED (full log: fuzz/$log)" >&2
    if [ -n "$saved" ]; then
      echo "fuzz: input saved as $saved; replay it with: cargo +nightly fuzz run $target $saved" >&2
      echo "fuzz: minimize it (cargo +nightly fuzz tmin $target $saved) and keep it in fuzz/regressions/$target/" >&2
    fi
    exit 1
  fi
done
