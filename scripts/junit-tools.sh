#!/usr/bin/env bash
# The published JUnit schema and a real JUnit consumer for tests/it/junit.rs, from the package
# registries (nothing of theirs is committed here): the Jenkins schema `junit-10.xsd` as pytest's
# source distribution on PyPI ships it (pytest validates its own xunit2 output against it), and
# junitparser (PyPI), which reads JUnit files as CI plugins do, in a virtualenv. Both go to
# target/junit/; the test finds them there (or TUICAST_JUNIT_XSD / TUICAST_JUNIT_PYTHON).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
out="$repo/target/junit"
mkdir -p "$out"
if [ ! -s "$out/junit-10.xsd" ]; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  python3 -m venv "$work/pip"
  "$work/pip/bin/pip" download -q --no-deps --no-binary :all: "pytest==8.3.4" -d "$work"
  tar -xzf "$work"/pytest-8.3.4.tar.gz -C "$work" pytest-8.3.4/testing/example_scripts/junit-10.xsd
  cp "$work/pytest-8.3.4/testing/example_scripts/junit-10.xsd" "$out/junit-10.xsd"
fi
if [ ! -x "$out/venv/bin/python" ] || ! "$out/venv/bin/python" -c 'import junitparser' 2>/dev/null; then
  python3 -m venv "$out/venv"
  "$out/venv/bin/pip" install -q "junitparser==3.2.0"
fi
echo "junit tools in $out"
