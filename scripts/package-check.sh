#!/usr/bin/env bash
# The crate as crates.io would have it (issue 26, point 1): `cargo package` (which builds the
# packaged sources), `cargo publish --dry-run`, what the package holds and its size, then
# `cargo install` from the `.crate` file alone — unpacked in a temporary folder, offline, with
# the Cargo.lock it carries — and the installed binary checking the bundled example suite
# copied out of the repository.
#
#   scripts/package-check.sh [debug|release]   (the install's profile; `cargo install` is release)
#
# The install builds in a target folder of its own, new each time (INSTALL_TARGET_DIR names
# another): cargo's fingerprints of a path package do not tell the unpacked copy from the
# checkout, so a shared folder would install what the checkout last built.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
profile="${1:-debug}"
cd "$repo"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Not verified here: the install below builds the packaged sources, from the .crate alone.
cargo package --allow-dirty --offline --no-verify -q 2>&1 | grep -v '^warning: ignoring \(benchmark\|test\) ' || true
version="$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)"
crate="target/package/tuicast-$version.crate"
[ -f "$crate" ] || { echo "cargo package made no $crate"; exit 1; }
cargo publish --dry-run --allow-dirty --no-verify -q 2>&1 | grep -v '^warning: \(ignoring \|aborting upload\)' || true

# What it holds: the sources, fonts, licences and docs; none of the corpora.
list="$(tar -tzf "$crate" | sed "s|^tuicast-$version/||")"
bad="$(grep -E '^(tests|casts|snapshots|benches|fuzz|scripts|\.ci|docs/screenshots)/' <<<"$list" || true)"
if [ -n "$bad" ]; then echo "the package holds files a user does not need:"; echo "$bad"; exit 1; fi
for need in src/lib.rs src/main.rs assets/fonts/DejaVuSansMono.ttf LICENSE-MIT LICENSE-APACHE README.md; do
  grep -qx "$need" <<<"$list" || { echo "the package lacks $need"; exit 1; }
done
# Every file a packaged source includes (include_str!, include_bytes!) is in the package too.
while IFS=: read -r src rel; do
  inc="$(realpath -m --relative-to="$repo" "$(dirname "$src")/$rel")"
  grep -qx "$inc" <<<"$list" || { echo "the package lacks $inc, which $src includes (Cargo.toml's include)"; exit 1; }
done < <(grep -rhoP --include='*.rs' -H 'include_(str|bytes)!\("\K[^"]+' src | grep -v '\.rs$' || true)
bytes=$(stat -c %s "$crate")
unpacked=$(tar -xzf "$crate" -C "$work" && du -sb "$work/tuicast-$version" | cut -f1)
files=$(wc -l <<<"$list")
if [ "$bytes" -gt $((3 << 20)) ]; then echo "the package is $bytes bytes: over 3 MiB"; exit 1; fi

# Installed from the unpacked .crate alone, offline.
flag=(); [ "$profile" = debug ] && flag=(--debug)
start=$(date +%s.%N)
CARGO_TARGET_DIR="${INSTALL_TARGET_DIR:-$work/target}" cargo install -q --offline --locked "${flag[@]}" \
  --path "$work/tuicast-$version" --root "$work/root"
end=$(date +%s.%N)
tuicast="$work/root/bin/tuicast"
"$tuicast" --version
# The bundled suite, outside the repository, replayed by the installed binary.
mkdir "$work/suite"
cp -r casts snapshots "$work/suite/"
if [ -f tuicast.toml ]; then cp tuicast.toml "$work/suite/"; fi
# The README's images are [[screenshot]]s of tuicast.toml, checked with the suite: the images
# and the conformance cast one of them is drawn from.
mkdir -p "$work/suite/docs" "$work/suite/tests/conformance/cases"
cp -r docs/screenshots "$work/suite/docs/"
cp tests/conformance/cases/mc.cast "$work/suite/tests/conformance/cases/"
(cd "$work/suite" && "$tuicast" test --replay >"$work/test.out") \
  || { cat "$work/test.out"; echo "the installed tuicast failed the bundled suite"; exit 1; }
tail -1 "$work/test.out"
printf 'package: %s files, %s bytes compressed, %s unpacked; cargo install (%s): %.1f s\n' \
  "$files" "$bytes" "$unpacked" "$profile" "$(echo "$end - $start" | bc)"
