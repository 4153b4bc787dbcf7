#!/usr/bin/env python3
"""Asks xterm the report suite (tests/conformance/reports/cases.toml) and writes its replies
to tests/conformance/reports/xterm.json (never edit that file by hand).

    scripts/xterm-reports.py            ask xterm, write xterm.json
    scripts/xterm-reports.py --check    ask xterm, fail (exit 1) if xterm.json differs

xterm runs under an X server of its own (Xvfb), as a VT520 (`decTerminalID: 520`) with window
operations allowed (`allowWindowOps: true`) and otherwise its defaults, 80x24, UTF-8. It runs
this script again (`--feed`) as its program, which puts its terminal in raw mode and, for
every case: resets the terminal (RIS, the colour resets, 80x24 again), writes the case's
`setup` and then its `query`, each followed by a sentinel query (DECRQM of mode 12345, which
nothing else asks), and keeps what xterm sends back before the sentinel's answer. Every read
waits at most PATIENCE seconds; the whole run at most TIMEOUT. The test record::reports_suite
compares tuicast's engine with the file (cargo test --lib reports_suite).

Needs python3 (3.11), xterm and Xvfb: apt-get install xterm xvfb.
"""

from __future__ import annotations

import json
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import tomllib
import tty
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# The X server of the screen oracle, shared (`start_xvfb`, `stop`).
sys.path.insert(0, str(REPO / "tests/conformance/oracle-xterm-x11"))
from replay import start_xvfb, stop  # noqa: E402
SUITE = REPO / "tests/conformance/reports"
#: How long the feeder waits for one answer.
PATIENCE = 5.0
#: How long the whole run may take.
TIMEOUT = 300
#: The sentinel query and its answer (7-bit or 8-bit CSI: after S8C1T xterm sends C1 controls
#: as single bytes, even in UTF-8 mode).
SENTINEL = b"\x1b[?12345$p"
SENTINEL_ANSWER = re.compile(rb"(?:\x1b\[|\x9b)\?12345;0\$y$")
#: What puts xterm back as it started: the conformance level (RIS keeps it), RIS, the palette
#: and dynamic colour resets, and the title stack emptied (at most 10 deep).
RESET = (
    b"\x1b[65;1\"p\x1bc\x1b]104\x1b\\\x1b]110\x1b\\\x1b]111\x1b\\\x1b]112\x1b\\\x1b]117\x1b\\\x1b]119\x1b\\"
    + b"\x1b[23;0t" * 12
)
COLS, ROWS = 80, 24
RESOURCES = {"decTerminalID": "520", "allowWindowOps": "true", "utf8": "1"}


def cases() -> list[dict]:
    """The suite's cases, `[[each]]` tables expanded, in file order of their kind."""
    data = tomllib.loads((SUITE / "cases.toml").read_text(encoding="utf-8"))
    out = [dict(c) for c in data.get("case", [])]
    for each in data.get("each", []):
        for v in each["values"]:
            sub = lambda s: s.replace("{n}", str(v))  # noqa: E731
            out.append({k: sub(each[k]) for k in ("name", "setup", "query") if k in each})
    names = [c["name"] for c in out]
    dupes = {n for n in names if names.count(n) > 1}
    if dupes:
        raise SystemExit(f"cases.toml: names used twice: {sorted(dupes)}")
    return sorted(out, key=lambda c: c["name"])


# ---- the feeder, run by xterm as its program -------------------------------------------------


class Tty:
    def __init__(self) -> None:
        self.fd = os.open("/dev/tty", os.O_RDWR)
        tty.setraw(self.fd)

    def ask(self, data: bytes) -> bytes:
        """Writes `data` and the sentinel; returns what came back before the sentinel's answer."""
        os.write(self.fd, data + SENTINEL)
        got = b""
        while not SENTINEL_ANSWER.search(got):
            ready, _, _ = select.select([self.fd], [], [], PATIENCE)
            if not ready:
                raise SystemExit(f"xterm did not answer {data!r} (got {got!r})")
            got += os.read(self.fd, 4096)
        return SENTINEL_ANSWER.sub(b"", got)

    def fresh(self) -> None:
        """The level, RIS, colours reset, the title stack emptied, and 80x24 again (a case
        may have resized the window)."""
        self.ask(RESET)
        for _ in range(100):
            if self.ask(b"\x1b[18t") == f"\x1b[8;{ROWS};{COLS}t".encode():
                return
            self.ask(f"\x1b[8;{ROWS};{COLS}t".encode())
        raise SystemExit("xterm did not become 80x24 again")


def text(reply: bytes) -> str:
    """The reply as text: UTF-8, and a byte that is no UTF-8 (the single-byte C1 controls
    after S8C1T) as the character of its code (0x9b is U+009B, CSI)."""
    out, i = [], 0
    while i < len(reply):
        for n in (1, 2, 3, 4):
            try:
                out.append(reply[i : i + n].decode("utf-8"))
                i += n
                break
            except UnicodeDecodeError:
                continue
        else:
            out.append(chr(reply[i]))
            i += 1
    return "".join(out)


def feed(out: Path) -> None:
    term = Tty()
    replies = {}
    try:
        for case in cases():
            term.fresh()
            term.ask(case.get("setup", "").encode())
            replies[case["name"]] = text(term.ask(case["query"].encode()))
        term.fresh()
    except SystemExit as e:
        (out.parent / "error").write_text(str(e))
        return
    out.write_text(json.dumps(replies))


# ---- the driver ------------------------------------------------------------------------------


def ask_xterm() -> dict:
    for tool in ("xterm", "Xvfb"):
        if shutil.which(tool) is None:
            raise SystemExit(f"{tool} is not installed (apt-get install xterm xvfb)")
    version = subprocess.run(["xterm", "-v"], capture_output=True, text=True).stdout.strip()
    xvfb, display = start_xvfb("1920x1080x24")
    try:
        with tempfile.TemporaryDirectory(prefix="tuicast-reports-") as tmp:
            out = Path(tmp) / "replies.json"
            argv = ["xterm", "-display", display, "-geometry", f"{COLS}x{ROWS}"]
            for k, v in RESOURCES.items():
                argv += ["-xrm", f"XTerm*{k}: {v}"]
            argv += ["-e", sys.executable, str(Path(__file__).resolve()), "--feed", str(out)]
            env = {**os.environ, "DISPLAY": display, "LC_ALL": "C.UTF-8"}
            subprocess.run(argv, env=env, timeout=TIMEOUT, check=False)
            if (Path(tmp) / "error").exists():
                raise SystemExit((Path(tmp) / "error").read_text())
            if not out.exists():
                raise SystemExit("xterm wrote no replies")
            replies = json.loads(out.read_text())
    finally:
        stop(xvfb)
    return {"xterm": version, "resources": RESOURCES, "size": f"{COLS}x{ROWS}", "replies": replies}


def main() -> int:
    args = sys.argv[1:]
    if len(args) == 2 and args[0] == "--feed":
        feed(Path(args[1]))
        return 0
    if args not in ([], ["--check"]):
        print(__doc__, file=sys.stderr)
        return 2
    text = json.dumps(ask_xterm(), indent=1, ensure_ascii=True, sort_keys=True) + "\n"
    path = SUITE / "xterm.json"
    if args == ["--check"]:
        if path.read_text() != text:
            print(f"{path} differs from what xterm answers now", file=sys.stderr)
            return 1
        print(f"{path}: xterm answers as recorded")
        return 0
    path.write_text(text)
    print(f"{path}: {len(json.loads(text)['replies'])} replies")
    return 0


if __name__ == "__main__":
    sys.exit(main())
