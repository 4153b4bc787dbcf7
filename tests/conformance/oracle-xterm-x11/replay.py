#!/usr/bin/env python3
"""The third conformance oracle: replays an asciicast v3 file in a real xterm (X11, under Xvfb)
and prints, as JSON on stdout, the screen at every labelled marker and at the end, in the
shape tests/conformance/oracle-xterm/replay.mjs prints for @xterm/headless.

    python3 replay.py CAST

xterm is the reference terminal (the corpus's README): this oracle is believed where tmux and
xterm.js do not implement what a case tests (VT52 mode, VT420 rectangular operations,
DECSACE, VT520 features). Nothing is emulated here: the script starts xterm with the cast's
size, and xterm runs this script again (`--feed`) as its program, which writes the cast's
output to xterm's terminal as it was recorded. At each checkpoint the feeder asks xterm for
the screen and the cursor:

  - the screen by xterm's own print-screen function (MC, `CSI i`) into a pipe
    (`printerCommand`), with `printAttributes: 2` so that every cell's SGR is printed and
    `printerExtent: true` so that the whole screen is printed rather than the scroll region;
  - the cursor by CPR (`CSI 6 n`), made absolute with DECRQM ?6 (origin mode) and DECRQSS
    of the margins (`r`, and `s` when DECLRMM is set), whether the alternate screen is shown
    by DECRQM ?1049;
  - in VT52 mode, which answers none of these, the feeder leaves it with `ESC <` for the
    questions and the print, and enters it again with `CSI ? 2 l` (it knows the mode from the
    answer to `ESC Z`: `ESC / Z` in VT52 mode, a DA1 otherwise).

xterm runs as a VT520 (`decTerminalID: 520`), so that the VT420 and VT520 operations the
vttest menus use are enabled, with DECCOLM ignored (`c132: false`), as xterm.js does by
default. The printed screen becomes what replay.mjs writes: a line per row, SGR where the
style changes, each character once (`line` says how the print's SGRs are read). Three things a print does not carry: the style of the
erased cells after a row's last written cell (xterm trims them; the agreement test fills them
from @xterm/headless, as it does for tmux), concealed text (printed as blanks), and the double
width of DECDWL/DECDHL rows (their `ESC # N` prefix is dropped).

Needs xterm and Xvfb (apt-get install xterm xvfb). Run by scripts/conformance.py for the
cases whose `[conformance]` table says `x11 = true`; never edit its output by hand.
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
import time
import tty
import unicodedata
from pathlib import Path

ESC = "\x1b"
#: The answers to DECID (`ESC Z`): VT52's, or a DA1.
DECID = re.compile(rb"\x1b/Z|\x1b\[\?[0-9;]*c")
#: How long the feeder waits for an answer or a print before it gives up.
PATIENCE = 10.0


# ---- the feeder, run by xterm as its program -------------------------------------------------


class Feeder:
    def __init__(self, work: Path, cols: int, rows: int):
        self.work = work
        self.cols, self.rows = cols, rows
        self.printed = 0  # lines printed so far
        self.results: list[dict] = []
        self.seen: dict[str, int] = {}
        tty.setraw(0)

    def write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            n = os.write(1, view)
            view = view[n:]

    def drain(self) -> bytes:
        got = b""
        while select.select([0], [], [], 0)[0]:
            chunk = os.read(0, 4096)
            if not chunk:
                break
            got += chunk
        return got

    def ask(self, query: str, done: re.Pattern[bytes]) -> bytes:
        """Writes `query` and reads xterm's answers until `done` matches what came and then
        nothing more comes for a moment: answers come in order, so the last match is the
        answer to `query`, whatever answers to the cast's own questions came before it."""
        self.drain()
        self.write(query.encode())
        got = b""
        deadline = time.monotonic() + PATIENCE
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise SystemExit(f"xterm did not answer {query!r} (got {got!r})")
            quiet = 0.3 if done.search(got) else left
            if select.select([0], [], [], min(quiet, left))[0]:
                got += os.read(0, 4096)
            elif done.search(got):
                return got

    def state(self) -> dict:
        answers = re.findall(rb"\x1b/Z|\x1b\[\?[0-9;]*c", self.ask(ESC + "Z", DECID))
        vt52 = answers[-1] == b"\x1b/Z"
        if vt52:
            self.write(b"\x1b<")
        # Every question, then XTVERSION (answered at every operating level, and asked by no
        # cast) to know all came.
        got = self.ask(
            ESC + "[6n" + ESC + "[?6$p" + ESC + "[?69$p" + ESC + "[?1049$p"
            + ESC + "P$qr" + ESC + "\\" + ESC + "P$qs" + ESC + "\\" + ESC + "[>0q",
            re.compile(rb"\x1bP>\|[^\x1b]*\x1b\\"),
        )  # fmt: skip
        cpr = re.findall(rb"\x1b\[(\d+);(\d+)R", got)
        if not cpr:
            raise SystemExit(f"xterm sent no cursor position ({got!r})")
        row, col = (int(n) - 1 for n in cpr[-1])

        def mode(n: int) -> bool:
            m = re.search(rb"\x1b\[\?%d;(\d)\$y" % n, got)
            return bool(m) and m.group(1) in (b"1", b"3")

        if mode(6):
            m = re.search(rb"\x1bP1\$r(\d+);(\d+)r", got)
            if m:
                row += int(m.group(1)) - 1
            m = re.search(rb"\x1bP1\$r(\d+);(\d+)s", got)
            if m and mode(69):
                col += int(m.group(1)) - 1
        return {"vt52": vt52, "cursor": [row, col], "alternate": mode(1049)}

    def print_screen(self) -> None:
        prints = self.work / "print"
        self.write(b"\x1b[i")
        want = self.printed + self.rows  # lines
        deadline = time.monotonic() + PATIENCE
        while not prints.exists() or prints.read_bytes().count(b"\n") < want:
            if time.monotonic() > deadline:
                raise SystemExit("xterm did not print the screen")
            time.sleep(0.01)
        self.printed += self.rows

    def checkpoint(self, label: str) -> None:
        n = self.seen.get(label, 0) + 1
        self.seen[label] = n
        st = self.state()
        self.print_screen()
        if st.pop("vt52"):
            self.write(b"\x1b[?2l")
        name = label if n == 1 else f"{label}-{n}"
        self.results.append({"name": name, **st, "size": [self.cols, self.rows]})

    def resize(self, cols: int, rows: int) -> None:
        self.write(f"{ESC}[8;{rows};{cols}t".encode())
        want = re.compile(rb"\x1b\[8;%d;%dt" % (rows, cols))
        deadline = time.monotonic() + PATIENCE
        while not want.search(self.ask(ESC + "[18t", re.compile(rb"\x1b\[8;\d+;\d+t"))):
            if time.monotonic() > deadline:
                raise SystemExit(f"xterm did not become {cols}x{rows}")
            time.sleep(0.05)
        self.cols, self.rows = cols, rows


def feed(cast: Path, work: Path) -> None:
    lines = cast.read_text(encoding="utf-8").split("\n")
    header = json.loads(lines[0])
    f = Feeder(work, header["term"]["cols"], header["term"]["rows"])
    try:
        for text in lines[1:]:
            if not text.strip() or text.startswith("#"):
                continue
            _, code, data = json.loads(text)
            if code == "o":
                f.write(data.encode("utf-8", "surrogateescape"))
            elif code == "r":
                cols, rows = (int(n) for n in data.split("x"))
                f.resize(cols, rows)
            elif code == "m" and data:
                f.checkpoint(data)
        f.checkpoint("end")
        (work / "state.json").write_text(json.dumps({"checkpoints": f.results}))
    except BaseException as e:  # noqa: BLE001 - the driver reports it
        (work / "error").write_text(f"{type(e).__name__}: {e}")
        raise


# ---- the driver ------------------------------------------------------------------------------


SGR = re.compile(r"\x1b\[([0-9;:-]*)m")


def colours_only(params: str) -> str:
    """An SGR's parameters without its attributes: `0` and the colours."""
    keep = [p for p in params.split(";") if re.fullmatch(r"(3|4|9|10)[0-9](:.*)?", p)]
    return ";".join(["0", *keep])


def line(printed: str) -> str:
    """One printed row as replay.mjs writes one: a character, and an SGR before each one
    whose style is not the one before's.

    xterm's print (print.c, printLine) writes an SGR before every character that has an
    attribute, and before one whose colours are not those of the last SGR; a character with
    neither has no SGR before it, whatever the last one said: it has no attributes and the
    last SGR's colours. So the style of a character is the SGR right before it, or else the
    last one's colours alone.
    """
    printed = re.sub(r"^\x1b#[3-6]", "", printed.rstrip("\r"))  # DECDHL/DECSWL/DECDWL
    out, style, last, pending = [], "0", "0", None
    at = 0
    while at < len(printed):
        m = SGR.match(printed, at)
        if m:
            # (A cell whose colour flag outlived its colour, as DECFRA leaves one over a
            # coloured cell with a pen of one colour, prints the other as colour -1: none.)
            pending = ";".join(p for p in (m.group(1) or "0").split(";") if p not in ("3-1", "4-1"))
            at = m.end()
            continue
        ch = printed[at]
        at += 1
        if unicodedata.combining(ch):
            out.append(ch)  # a mark on the character before
            continue
        if pending is not None:
            last, cell, pending = pending, pending, None
        else:
            cell = colours_only(last)
        if ch == "\uffff":
            continue  # the second half of a wide character
        if cell != style:
            out.append(f"\x1b[{cell}m")
            style = cell
        out.append(ch)
    if style != "0":
        out.append("\x1b[0m")
    return "".join(out)


def screen(lines: list[str]) -> str:
    """One printed screen as replay.mjs writes one."""
    return "".join(line(printed) + "\n" for printed in lines)


def start_xvfb(screen: str = "3000x2000x24") -> tuple[subprocess.Popen, str]:
    """An X server of its own, of `screen` (`WxHxDEPTH`): Xvfb picks a free display and says
    which (`-displayfd`). (scripts/xterm-reports.py uses it too.)"""
    read, write = os.pipe()
    proc = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", screen, "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, pass_fds=(write,),
    )  # fmt: skip
    os.close(write)
    with os.fdopen(read) as answer:
        display = answer.readline().strip()
    if not display.isdigit():
        stop(proc)
        raise SystemExit("could not start Xvfb")
    return proc, f":{display}"


def stop(proc: subprocess.Popen) -> None:
    """Ends a process the way that lets Xvfb remove its lock file."""
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def replay(cast: Path) -> dict:
    for tool in ("xterm", "Xvfb"):
        if shutil.which(tool) is None:
            raise SystemExit(f"{tool} is not installed (apt-get install xterm xvfb)")
    header = json.loads(cast.read_text(encoding="utf-8").split("\n", 1)[0])
    if header.get("version") != 3:
        raise SystemExit(f"{cast}: only asciicast v3 is supported")
    cols, rows = header["term"]["cols"], header["term"]["rows"]
    xvfb, display = start_xvfb()
    try:
        with tempfile.TemporaryDirectory(prefix="tuicast-x11-") as tmp:
            work = Path(tmp)
            resources = {
                "printerCommand": f"cat >> {work / 'print'}",
                "printAttributes": "2",
                "printerExtent": "true",
                "decTerminalID": "520",
                "c132": "false",
                "allowWindowOps": "true",
                "utf8": "1",
            }
            argv = ["xterm", "-display", display, "-geometry", f"{cols}x{rows}"]
            for k, v in resources.items():
                argv += ["-xrm", f"XTerm*{k}: {v}"]
            argv += ["-e", sys.executable, str(Path(__file__).resolve()), "--feed", str(cast.resolve()), tmp]
            env = {**os.environ, "DISPLAY": display, "LC_ALL": "C.UTF-8"}
            subprocess.run(argv, env=env, timeout=600, check=False)
            if (work / "error").exists():
                raise SystemExit(f"{cast}: {(work / 'error').read_text()}")
            state = json.loads((work / "state.json").read_text())
            printed = (work / "print").read_text(encoding="utf-8", errors="replace").split("\n")
    finally:
        stop(xvfb)
    out = []
    at = 0
    for cp in state["checkpoints"]:
        n = cp["size"][1]  # a print is a line per row
        out.append({**cp, "screen": screen(printed[at : at + n])})
        at += n
    return {"checkpoints": out}


def main() -> int:
    args = sys.argv[1:]
    if len(args) == 3 and args[0] == "--feed":
        feed(Path(args[1]), Path(args[2]))
        return 0
    if len(args) != 1:
        print("usage: python3 replay.py CAST", file=sys.stderr)
        return 2
    json.dump(replay(Path(args[0])), sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
