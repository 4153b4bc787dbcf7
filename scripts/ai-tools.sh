#!/usr/bin/env bash
# The AI CLI tests/it/adapters.rs drives (the gemini adapter), from npm, pinned: gemini-cli in
# target/apps/gemini/. Installed again only when its pin changed. The test finds it there;
# without it the test skips, except under CI. (claude-code and codex are not installed: with no
# network claude-code exits at once and codex only shows its sign-in screen; docs/agents.md.)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
out="$repo/target/apps/gemini"
gemini="@google/gemini-cli@0.61.0"
if [ "$(cat "$out/.wanted" 2>/dev/null)" != "$gemini" ] || [ ! -x "$out/node_modules/.bin/gemini" ]; then
  rm -rf "$out"
  mkdir -p "$out"
  npm install --prefix "$out" --no-audit --no-fund --loglevel=error "$gemini"
  echo "$gemini" >"$out/.wanted"
fi
echo "AI CLI in $out: gemini-cli $(node -p "require('$out/node_modules/@google/gemini-cli/package.json').version")"
