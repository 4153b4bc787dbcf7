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
  # (Once more on a failure: a registry that drops a connection is not a broken install.)
  npm install --prefix "$out" --no-audit --no-fund --loglevel=error "@taplo/cli@0.7.0" ||
    npm install --prefix "$out" --no-audit --no-fund --loglevel=error "@taplo/cli@0.7.0"
fi
# (This build's `--version` exits with status 1: what it prints says it runs.)
version="$("$out/node_modules/.bin/taplo" --version 2>&1 || true)"
case "$version" in
  taplo*) echo "$version in $out" ;;
  *) echo "taplo does not run: $version" >&2; exit 1 ;;
esac
