#!/usr/bin/env bash
# The AI CLIs tests/it/adapters.rs drives (the gemini, claude and codex adapters), from npm,
# pinned, each in a folder of its own: target/apps/gemini, target/apps/claude (claude-code) and
# target/apps/codex. Each is installed again only when its pin changed. The tests find them
# there; without them they skip, except under CI. None reaches a network in the tests: each is
# tested on what it shows offline (docs/agents.md, "Adapters"): gemini-cli and claude-code with a
# dummy API key, codex logged in with one (`codex login --with-api-key`).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"

# install FOLDER PACKAGE@VERSION BIN: the package in target/apps/FOLDER, its BIN in .bin.
install() {
  local out="$repo/target/apps/$1" package="$2" bin="$3"
  if [ "$(cat "$out/.wanted" 2>/dev/null)" != "$package" ] || [ ! -x "$out/node_modules/.bin/$bin" ]; then
    rm -rf "$out"
    mkdir -p "$out"
    npm install --prefix "$out" --no-audit --no-fund --loglevel=error "$package"
    echo "$package" >"$out/.wanted"
  fi
  echo "AI CLI in $out: $package"
}

install gemini "@google/gemini-cli@0.61.0" gemini
# claude-code's package fetches its native binary as an optional dependency
# (@anthropic-ai/claude-code-linux-x64): 235 MB installed, about 20 s.
install claude "@anthropic-ai/claude-code@2.1.197" claude
# codex's likewise (@openai/codex-linux-x64): 424 MB, about 30 s. It starts an app-server daemon
# that outlives it; the session that ran it kills it (tests/it/adapters.rs checks).
install codex "@openai/codex@0.171.0" codex
