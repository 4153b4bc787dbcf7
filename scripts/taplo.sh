#!/usr/bin/env bash
# taplo, the TOML toolkit editors use (Even Better TOML), for tests/it/schemas.rs: it checks
# every scenario and TOML block of the docs against docs/schemas/ as an editor would. From npm
# (@taplo/cli ships taplo built to WebAssembly: nothing is downloaded when it runs), into
# target/taplo/; the test finds it there (or TUICAST_TAPLO).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
out="$repo/target/taplo"
if [ ! -x "$out/node_modules/.bin/taplo" ]; then
  mkdir -p "$out"
  npm install --prefix "$out" --no-audit --no-fund --silent "@taplo/cli@0.7.0"
fi
"$out/node_modules/.bin/taplo" --version
