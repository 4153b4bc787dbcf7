#!/usr/bin/env bash
# What tests/it/pacing.rs needs, from npm and PyPI (nothing of theirs is committed here): the ink
# app's node_modules (tests/apps/inkapp, from its package-lock.json) in target/apps/inkapp/, and
# Textual in a virtualenv at target/apps/textual/. Versions are pinned; each is installed again
# only when its pin changed. The test finds them there; without them it skips, except under CI.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
out="$repo/target/apps"
mkdir -p "$out/inkapp"
ink="$out/inkapp"
if ! cmp -s "$repo/tests/apps/inkapp/package-lock.json" "$ink/package-lock.json" || [ ! -d "$ink/node_modules" ]; then
  cp "$repo/tests/apps/inkapp/package.json" "$repo/tests/apps/inkapp/package-lock.json" "$ink/"
  npm ci --prefix "$ink" --no-audit --no-fund --loglevel=error
fi
textual="textual==8.2.8"
venv="$out/textual"
if [ "$(cat "$venv/.wanted" 2>/dev/null)" != "$textual" ]; then
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --retries 5 --timeout 60 --disable-pip-version-check "$textual"
  echo "$textual" >"$venv/.wanted"
fi
echo "app tools in $out: ink $(node -p "require('$ink/node_modules/ink/package.json').version"), $("$venv/bin/python" -c 'import textual; print("textual", textual.__version__)')"
