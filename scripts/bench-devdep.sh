#!/usr/bin/env bash
# The cost of the dev-dependency (issue 21, point 9): the clean build of a crate that adds
# tuicast as the README recommends, against insta and against ratatui (whose TestBackend is
# the in-process alternative), each in a fresh target folder, offline (the repository's
# Cargo.lock pins the same versions). Prints one line per build: what, profile, wall seconds,
# CPU seconds (user + system: steadier than wall time on a shared machine).
#
#   scripts/bench-devdep.sh [-o NAME,NAME] [debug|release ...]
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
only="tuicast-default,tuicast-lean,insta,ratatui"
if [ "${1:-}" = -o ]; then only="$2"; shift 2; fi
profiles=("${@:-debug}")
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
declare -A deps=(
  [tuicast-default]="tuicast = { path = \"$repo\" }"
  [tuicast-lean]="tuicast = { path = \"$repo\", default-features = false }"
  [insta]="insta = \"1\""
  [ratatui]="ratatui = \"0.30.2\""
)
for name in ${only//,/ }; do
  for profile in "${profiles[@]}"; do
    dir="$work/$name-$profile"
    mkdir -p "$dir/src" "$dir/tests"
    printf '[package]\nname = "devdep"\nversion = "0.0.0"\nedition = "2021"\n\n[dev-dependencies]\n%s\n' \
      "${deps[$name]}" > "$dir/Cargo.toml"
    : > "$dir/src/lib.rs"
    echo 'fn main() {}' > "$dir/tests/t.rs"
    cp "$repo/Cargo.lock" "$dir/Cargo.lock"
    flag=(); [ "$profile" = release ] && flag=(--release)
    times="$(cd "$dir" && CARGO_TARGET_DIR="$dir/target" /usr/bin/time -f '%e %U %S' \
      cargo test --offline --no-run -q "${flag[@]}" 2>&1 >/dev/null | tail -1)"
    read -r wall user sys <<<"$times"
    printf '%s\t%s\t%.1f\t%.1f\n' "$name" "$profile" "$wall" "$(echo "$user + $sys" | bc)"
  done
done
