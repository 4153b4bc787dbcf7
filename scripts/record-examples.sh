#!/usr/bin/env bash
# Records the bundled example suite in casts/ with tuicast itself, from the scenarios beside
# the casts (casts/NAME.toml), so that `tuicast test --live` records the same casts again.
#
# Usage: scripts/record-examples.sh [--oracle] [--check] [NAME...]
#   NAME      record only these casts (shell vim less dialog progress); default: all
#   --oracle  also run each scenario under tmux (scripts/conformance.py oracle) and keep
#             tmux's screen at every checkpoint in tests/fixtures/examples-oracle/NAME/,
#             which tests/it/examples.rs compares tuicast's replay with
#   --check   afterwards, check every cast against its goldens (tuicast test) and convert
#             every cast with asciinema (if installed)
#
# Needs: bash, vim, less, dialog; with --oracle also python3 (3.11), tmux, util-linux script.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
oracle_dir=tests/fixtures/examples-oracle
check=0
oracle=0
names=()
for arg in "$@"; do
  case $arg in
    --check) check=1 ;;
    --oracle) oracle=1 ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    -*) echo "unknown option $arg" >&2; exit 2 ;;
    *) names+=("$arg") ;;
  esac
done
[ ${#names[@]} -gt 0 ] || names=(shell vim less dialog progress)

tools=(bash vim less dialog)
(( oracle )) && tools+=(python3 tmux script)
for tool in "${tools[@]}"; do
  command -v "$tool" >/dev/null || { echo "record-examples: $tool is not installed" >&2; exit 2; }
done

cargo build --quiet --bin tuicast
tuicast=${CARGO_TARGET_DIR:-target}/debug/tuicast
start=$SECONDS
for name in "${names[@]}"; do
  [ -f "casts/$name.toml" ] || { echo "record-examples: no casts/$name.toml" >&2; exit 2; }
  "$tuicast" record "casts/$name.toml"
  if (( oracle )); then
    rm -rf "${oracle_dir:?}/$name"
    python3 scripts/conformance.py oracle "casts/$name.toml" "$oracle_dir/$name"
  fi
done
echo "recorded ${#names[@]} cast(s) in $((SECONDS - start))s"

if (( check )); then
  status=0
  "$tuicast" test || status=1
  asciinema=$(command -v asciinema || echo "$HOME/.cargo/bin/asciinema")
  if [ -x "$asciinema" ]; then
    work=$(mktemp -d /tmp/tuicast-examples.XXXXXX)
    trap 'rm -rf "$work"' EXIT
    for name in "${names[@]}"; do
      if "$asciinema" convert -f txt "casts/$name.cast" "$work/$name.txt"; then
        echo "check casts/$name.cast: asciinema converts it"
      else
        status=1
      fi
    done
  fi
  exit $status
fi
