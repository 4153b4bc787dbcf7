#!/usr/bin/env bash
# What tests/it/python.rs and tests/it/mcp.rs need, from PyPI (nothing of theirs is committed
# here): maturin, which builds the `tuicast` wheel (python/pyproject.toml), in a virtualenv at
# target/pyenv/, and the wheels of pytest, prompt_toolkit and textual (the Python TUIs the test
# projects are written with) and mcp (the official MCP SDK, the client of `tuicast mcp`) with
# their dependencies in target/pyenv/wheels/, so that the tests' fresh virtualenvs install them
# offline (`pip install --no-index --find-links`). Versions are pinned; pip retries and shows
# its errors. The test finds them there (or TUICAST_PYENV names another folder).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
out="${TUICAST_PYENV:-$repo/target/pyenv}"
maturin="maturin==1.16.0"
wanted=("pytest==9.2.0" "prompt_toolkit==3.0.53" "textual==8.2.8" "mcp==1.30.0")
pip=(--retries 5 --timeout 60 --disable-pip-version-check)
if [ ! -x "$out/bin/maturin" ] || ! "$out/bin/maturin" --version | grep -qx "maturin ${maturin#*==}"; then
  python3 -m venv "$out"
  "$out/bin/pip" install -q "${pip[@]}" "$maturin"
fi
stamp="$out/wheels/.wanted"
if [ "$(cat "$stamp" 2>/dev/null)" != "${wanted[*]}" ]; then
  rm -rf "$out/wheels"
  "$out/bin/pip" download -q "${pip[@]}" --only-binary :all: -d "$out/wheels" "${wanted[@]}"
  echo "${wanted[*]}" >"$stamp"
fi
echo "python tools in $out: $("$out/bin/maturin" --version), $(ls "$out/wheels" | tr '\n' ' ')"
