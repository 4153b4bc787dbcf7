#!/usr/bin/env bash
# The numbers of docs/python.md: the wheel's build time and size, `pip install` of it into a
# fresh virtualenv (offline, from scripts/python-tools.sh's wheels), and the medians of N runs
# of `pytest` (collection alone, then the run, live and replayed) against `tuicast test` on
# the same project (tests/apps/pyapp, copied to a temporary folder).
#
#   scripts/bench-python.sh [N]    (default 11; needs scripts/python-tools.sh and a debug build)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
runs="${1:-11}"
pyenv="${TUICAST_PYENV:-$repo/target/pyenv}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
secs() { local s; s=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; echo "$(date +%s.%N) - $s" | bc; }
median() { sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.3f s\n", m}'; }

cd "$repo/python"
export CARGO_TARGET_DIR="$repo/target/python-wheel"   # as tests/it/python.rs builds it
echo "maturin build --profile dev (its target folder built before): $(secs "$pyenv/bin/maturin" build --profile dev -o "$work/wheels") s"
wheel="$(ls "$work"/wheels/*.whl)"
echo "wheel: $(basename "$wheel"), $(stat -c %s "$wheel") bytes"
python3 -m venv "$work/venv"
echo "pip install (wheel, pytest, prompt_toolkit; offline): $(secs "$work/venv/bin/pip" install -q --no-index --find-links "$pyenv/wheels" "$wheel" pytest prompt_toolkit) s"
cp -r "$repo/tests/apps/pyapp" "$work/project"
cd "$work/project"
export VIRTUAL_ENV="$work/venv" TUICAST_UPDATE=no
unset CI
bench() {
  local what="$1"; shift
  echo "$what: median of $runs $(for _ in $(seq "$runs"); do secs "$@"; done | median)"
}
bench "tuicast test --list" "$work/venv/bin/tuicast" test --list
bench "pytest --collect-only" "$work/venv/bin/pytest" -p no:cacheprovider --collect-only -q
bench "tuicast test (live)" "$work/venv/bin/tuicast" test
bench "pytest (live)" "$work/venv/bin/pytest" -p no:cacheprovider -q
bench "tuicast test --replay" "$work/venv/bin/tuicast" test --replay
bench "pytest --tuicast-replay" "$work/venv/bin/pytest" -p no:cacheprovider -q --tuicast-replay
bench "python -c 'import pytest' (pytest's own start)" "$work/venv/bin/python" -c "import pytest"
bench "pytest -p no:tuicast --collect-only (no plugin)" "$work/venv/bin/pytest" -p no:cacheprovider -p no:tuicast --collect-only -q
