#!/usr/bin/env python3
"""Records tuicast's terminal conformance corpus in tests/conformance/ (never edit it by hand).

Every case is a tuicast scenario, tests/conformance/scenarios/NAME.toml: the keys and steps
`tuicast record` reads (command or shell, size, env, timeout, steps), and a last table,
`[conformance]`, that only this script reads. tmux is the oracle, so the program runs inside a
private tmux server under util-linux `script` (see record_tmux.py) rather than in tuicast's own
PTY; the steps keep their tuicast meaning there (record_tmux.py says where the idle wait is
stricter). At every `snapshot` step, and at the end, the script keeps what tmux shows:
`capture-pane -p -e -N` (text, SGR styles, DEC line drawing between SO and SI) and the cursor.
The byte log becomes an asciicast v3 cast with an `m` marker at each checkpoint (and an `r`
event where the window was resized). Then the second oracle, @xterm/headless, replays the same
cast (tests/conformance/oracle-xterm/replay.mjs). For the cases that test what neither tmux
nor xterm.js implements (VT52 mode, the VT420 rectangular operations), the third oracle is a
real xterm under Xvfb replaying the cast (tests/conformance/oracle-xterm-x11/replay.py). The
manifest names, for each checkpoint, the oracle the agreement test believes, and why when it is
not tmux.

    scripts/conformance.py record [NAME...]   record cases (default: all), then run xterm
    scripts/conformance.py xterm [NAME...]    replay the committed casts with @xterm/headless (and
                                              in a real xterm, for the cases that ask)
    scripts/conformance.py list               the cases and their programs
    scripts/conformance.py oracle SCENARIO DIR  tmux's screens at the checkpoints of any
                                              scenario (the bundled suite's casts/NAME.toml),
                                              as DIR/CHECKPOINT.txt (scripts/record-examples.sh)

The `[conformance]` table (tuicast's parser rejects unknown keys, so it comes last in the
file; tests/it/conformance.rs hands tuicast everything before it):
    program = "less"      what the case exercises (the manifest's and docs' program column)
    cut = true            the recording ends after the last step with the program still
                          running: the screen then is checkpoint `end`, the cast has no `x`
                          event (without it the last step is `exit`)
    setup = '''...'''     a bash script (`bash -e`) that makes the case's files in its work
                          folder, /tmp/tuicast-conformance/NAME, where the program starts
                          ($TUICAST_REPO is this repository: the ratatui cases copy the
                          test apps' binaries, `cargo build -p todoapp -p dashapp`)
    state = true          also keep tmux's view of the terminal state at each checkpoint
                          (pane title, bell flag, paste buffer from OSC 52, history): the
                          manifest's `tmux.state`, checked against tuicast's `Screen::state`
    [conformance.xterm]   checkpoints whose oracle is @xterm/headless, each with the reason
    [conformance.x11]     checkpoints whose oracle is a real xterm (X11), each with the
                          reason; a case with this table is also replayed in xterm

Files (tests/conformance/):
    scenarios/NAME.toml          the case
    cases/NAME.cast              the recording
    tmux/NAME/CHECKPOINT.ans     tmux's capture at the checkpoint (`end`: the final screen)
    xterm/NAME/CHECKPOINT.ans    @xterm/headless's screen, written the same way (DECCOLM
                                 ignored, as xterm.js and xterm do by default)
    xterm-deccolm/NAME/CHECKPOINT.ans   the same with DECCOLM switching to 132 columns, as
                                 on a VT100 (only casts that use DECCOLM)
    xterm-x11/NAME/CHECKPOINT.ans   xterm 379's own screen (its print-screen function), for
                                 the cases with a [conformance.x11] table
    manifest.json                cases, checkpoints, oracles, cursors

Needs python3 (3.11), tmux, util-linux script, node and npm, xterm and Xvfb, and the programs:
    apt-get install tmux xterm xvfb vttest dialog whiptail vim less man-db nano mc htop procps tig \\
        ncdu git mg joe ne micro emacs-nox kakoune vis nvi vifm links elinks dash bc \\
        sqlite3 calcurse figlet toilet cowsay tree ncurses-examples python3-urwid hexyl \\
        exa ripgrep gdu duf neomutt pinfo tty-clock sl cmatrix
(the `inquirer` case installs @inquirer/prompts from npm in its work folder).
After recording, `TUICAST_BLESS_CONFORMANCE=1 cargo test --test it conformance` refreshes
docs/conformance.md. CI needs none of this: it only replays the committed casts.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from record_tmux import Recorder, RecordError, base_env  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "conformance"
SCENARIOS = CORPUS / "scenarios"
XTERM_DIR = CORPUS / "oracle-xterm"
X11_REPLAY = CORPUS / "oracle-xterm-x11" / "replay.py"

#: The scenario keys this script gives their tuicast meaning; the others (cwd, inherit_env,
#: title, redact, [check], [regions]) make no sense for the corpus and are refused.
KEYS = {"command", "shell", "size", "env", "timeout", "steps", "conformance"}
CONFORMANCE_KEYS = {"program", "cut", "setup", "xterm", "x11", "state"}
STEP_KINDS = ("wait", "press", "type", "snapshot", "resize", "exit", "sleep")


@dataclass
class Case:
    """A scenario file, read."""

    name: str
    path: Path
    command: str  # as script's shell runs it, and as the cast header and manifest show it
    size: tuple[int, int]
    env: dict[str, str]
    timeout: float
    steps: list[dict]
    program: str
    cut: bool
    setup: str | None
    xterm: dict[str, str]
    x11: dict[str, str]
    state: bool

    def oracle(self, checkpoint: str) -> tuple[str, str | None]:
        """The oracle the agreement test believes at `checkpoint`, and why when not tmux."""
        if checkpoint in self.x11:
            return "xterm-x11", self.x11[checkpoint]
        if checkpoint in self.xterm:
            return "xterm", self.xterm[checkpoint]
        return "tmux", None


def parse_duration(text: str) -> float:
    """A duration as tuicast reads it (`300ms`, `10s`, `1.5s`, `2m`; a bare number is
    seconds), in seconds."""
    m = re.fullmatch(r"\s*([0-9.]+)\s*(ms|s|m|min)?\s*", text)
    if not m:
        raise RecordError(f"{text!r} is not a duration: use a number with ms, s or m")
    n = float(m.group(1))
    return {"ms": n / 1000, "s": n, None: n, "m": n * 60, "min": n * 60}[m.group(2)]


def parse_size(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"(\d+)x(\d+)", text)
    if not m:
        raise RecordError(f"size must be COLSxROWS, not {text!r}")
    return int(m.group(1)), int(m.group(2))


def load_case(path: Path) -> Case:
    where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise RecordError(f"{where}: {e}") from None
    unknown = set(doc) - KEYS
    if unknown:
        raise RecordError(f"{where}: keys the conformance script does not use: {sorted(unknown)}")
    if ("command" in doc) == ("shell" in doc):
        raise RecordError(f"{where}: give either command or shell")
    # script runs the program through a shell: an argv is joined, a `shell` runs as tuicast
    # runs it, by `bash -c`
    argv = doc["command"] if "command" in doc else ["bash", "-c", doc["shell"]]
    conf = doc.get("conformance", {})
    unknown = set(conf) - CONFORMANCE_KEYS
    if unknown:
        raise RecordError(f"{where}: unknown [conformance] keys {sorted(unknown)}")
    if "program" not in conf:
        raise RecordError(f"{where}: [conformance] needs program")
    steps = doc.get("steps", [])
    for i, step in enumerate(steps):
        kinds = [k for k in step if k != "timeout"]
        if len(kinds) != 1 or kinds[0] not in STEP_KINDS:
            raise RecordError(f"{where}: step {i + 1}: one of {', '.join(STEP_KINDS)} ({step})")
    both = set(conf.get("xterm", {})) & set(conf.get("x11", {}))
    if both:
        raise RecordError(f"{where}: [conformance.xterm] and [conformance.x11] both name {sorted(both)}")
    ends_with_exit = bool(steps) and "exit" in steps[-1]
    if bool(conf.get("cut")) == ends_with_exit:
        raise RecordError(f"{where}: the last step is `exit`, or [conformance] says cut = true")
    return Case(
        name=path.stem,
        path=path,
        command=shlex.join(argv),
        size=parse_size(doc.get("size", "80x24")),
        env=dict(doc.get("env", {})),
        timeout=parse_duration(doc.get("timeout", "10s")),
        steps=steps,
        program=conf["program"],
        cut=bool(conf.get("cut")),
        setup=conf.get("setup"),
        xterm=dict(conf.get("xterm", {})),
        x11=dict(conf.get("x11", {})),
        state=bool(conf.get("state")),
    )


def load_cases() -> dict[str, Case]:
    return {p.stem: load_case(p) for p in sorted(SCENARIOS.glob("*.toml"))}


def run_step(rec: Recorder, step: dict) -> None:
    """Performs one step with its tuicast meaning (src/record/run.rs)."""
    timeout = parse_duration(step["timeout"]) if "timeout" in step else None
    (kind,) = [k for k in step if k != "timeout"]
    value = step[kind]
    if kind == "wait":
        if isinstance(value, str):
            value = {"text": value}
        if len(value) != 1:
            raise RecordError(f"a wait takes exactly one of text, regex, idle, gone, cursor: {value}")
        ((what, arg),) = value.items()
        if what == "text":
            rec.wait_text(arg, timeout)
        elif what == "regex":
            rec.wait_regex(arg, timeout)
        elif what == "idle":
            rec.wait_idle(parse_duration(arg), timeout)
        elif what == "gone":
            rec.wait_gone(arg, timeout)
        elif what == "cursor":
            rec.wait_cursor(arg[0], arg[1], timeout)
        else:  # echo: tmux cannot say whether the pane's terminal echoes
            raise RecordError(f"wait {what!r} is not available under tmux")
    elif kind == "press":
        rec.press(*([value] if isinstance(value, str) else value))
    elif kind == "type":
        rec.type(value)
    elif kind == "snapshot":
        rec.checkpoint(value)
    elif kind == "resize":
        rec.resize(*parse_size(value))
    elif kind == "sleep":
        rec.sleep(parse_duration(value))
    elif kind == "exit":
        status = rec.wait_exit(timeout)
        if value != "any" and status != value:
            raise RecordError(f"exit status {status}, expected {value}")


def record(c: Case, verbose: bool = False) -> dict:
    # a fixed folder, so that programs that show it show the same path every time
    work = Path(tempfile.gettempdir()) / "tuicast-conformance" / c.name
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    try:
        if c.setup:
            env = base_env(str(work), c.env)
            env["TUICAST_REPO"] = str(ROOT)  # for setups that take a binary this repo builds
            subprocess.run(["bash", "-e", "-c", c.setup], cwd=work, env=env, check=True)
        cast = CORPUS / "cases" / f"{c.name}.cast"
        rec = Recorder(
            cast, c.command, cols=c.size[0], rows=c.size[1], cwd=work, env=c.env,
            timeout=c.timeout, verbose=verbose, state=c.state,
        )  # fmt: skip
        try:
            rec.start()
            for i, step in enumerate(c.steps):
                try:
                    run_step(rec, step)
                except RecordError as e:
                    raise RecordError(f"{c.path.name}: step {i + 1} {step}: {e}") from None
            if c.cut:
                rec.cut()
            rec.finish()
        finally:
            rec.close()
        out = CORPUS / "tmux" / c.name
        if out.exists():
            shutil.rmtree(out)
        out.mkdir(parents=True)
        checkpoints = []
        for label, cap in rec.captures.items():
            (out / f"{label}.ans").write_text(cap["screen"], encoding="utf-8")
            which, why = c.oracle(label)
            checkpoints.append({
                "name": label, "oracle": which, "why": why,
                "tmux": {k: v for k, v in cap.items() if k != "screen"},
            })  # fmt: skip
        for table, names in (("xterm", c.xterm), ("x11", c.x11)):
            missing = set(names) - set(rec.captures)
            if missing:
                raise RecordError(f"{c.path.name}: [conformance.{table}] names no checkpoint {sorted(missing)}")
        return {
            "name": c.name,
            "program": c.program,
            "command": c.command,
            "size": f"{c.size[0]}x{c.size[1]}",
            "checkpoints": checkpoints,
        }
    finally:
        shutil.rmtree(work, ignore_errors=True)


def oracle(path: Path, out: Path, verbose: bool = False) -> list[str]:
    """Runs the scenario at `path` (a cast's TOML: its `[check]` and `[regions]` are not
    recording keys and are left alone) under tmux and writes tmux's text at each checkpoint
    and at the end to `out/LABEL.txt`. Returns the labels."""
    where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise RecordError(f"{where}: {e}") from None
    unknown = set(doc) - (KEYS | {"check", "regions", "title"})
    if unknown:
        raise RecordError(f"{where}: keys the tmux recorder does not use: {sorted(unknown)}")
    if ("command" in doc) == ("shell" in doc):
        raise RecordError(f"{where}: give either command or shell")
    argv = doc["command"] if "command" in doc else ["bash", "-c", doc["shell"]]
    cols, rows = parse_size(doc.get("size", "80x24"))
    with tempfile.TemporaryDirectory(prefix="tuicast-oracle-") as tmp:
        rec = Recorder(
            Path(tmp) / "oracle.cast", shlex.join(argv), cols=cols, rows=rows, cwd=tmp,
            env=dict(doc.get("env", {})), timeout=parse_duration(doc.get("timeout", "10s")),
            verbose=verbose,
        )  # fmt: skip
        try:
            rec.start()
            for i, step in enumerate(doc.get("steps", [])):
                try:
                    run_step(rec, {"snapshot" if k == "checkpoint" else k: v for k, v in step.items()})
                except RecordError as e:
                    raise RecordError(f"{where}: step {i + 1} {step}: {e}") from None
            rec.finish()
        finally:
            rec.close()
    out.mkdir(parents=True, exist_ok=True)
    for label, screen in rec.oracle.items():
        (out / f"{label}.txt").write_text(screen, encoding="utf-8")
    return list(rec.oracle)


# DECCOLM set or reset (CSI ? ... 3 ... h / l) as it is written in a cast's JSON.
DECCOLM = re.compile(r"\\u001b\[\?(?:[0-9;]*;)?3(?:;[0-9;]*)?[hl]")


def xterm(name: str, entry: dict) -> None:
    """@xterm/headless's screens: as xterm.js shows them by default (DECCOLM ignored) in
    xterm/NAME/, and, for a cast that uses DECCOLM, with it switching to 132 columns as on a
    VT100 (`replay.mjs --deccolm`) in xterm-deccolm/NAME/ (the manifest's `xterm_deccolm`)."""
    if not (XTERM_DIR / "node_modules" / "@xterm" / "headless").exists():
        subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--silent"], cwd=XTERM_DIR,
                       check=True)  # fmt: skip
    cast = CORPUS / "cases" / f"{name}.cast"
    uses_deccolm = DECCOLM.search(cast.read_text(encoding="utf-8")) is not None
    for key, folder, flags in [("xterm", "xterm", []), ("xterm_deccolm", "xterm-deccolm", ["--deccolm"])]:
        out = CORPUS / folder / name
        if out.exists():
            shutil.rmtree(out)
        for cp in entry["checkpoints"]:
            cp.pop(key, None)
        if key == "xterm_deccolm" and not uses_deccolm:
            continue
        proc = subprocess.run(
            ["node", str(XTERM_DIR / "replay.mjs"), *flags, str(cast)], capture_output=True,
            text=True, check=True,
        )  # fmt: skip
        keep_screens(name, entry, key, out, json.loads(proc.stdout), "xterm")


def keep_screens(name: str, entry: dict, key: str, out: Path, result: dict, oracle: str) -> None:
    """Writes an oracle's screens (`result`, as replay.mjs and replay.py print them) to
    out/CHECKPOINT.ans, and its cursor, alternate-screen flag and size to each checkpoint's
    `key` entry in the manifest."""
    out.mkdir(parents=True)
    by_name = {cp["name"]: cp for cp in result["checkpoints"]}
    for cp in entry["checkpoints"]:
        x = by_name.get(cp["name"])
        if x is None:
            raise RecordError(f"{name}: {oracle} has no checkpoint {cp['name']!r}")
        (out / f"{cp['name']}.ans").write_text(x["screen"], encoding="utf-8")
        cp[key] = {
            "cursor": x["cursor"],
            "alternate": x["alternate"],
            "size": f"{x['size'][0]}x{x['size'][1]}",
        }


def x11(name: str, entry: dict, wanted: bool) -> None:
    """A real xterm's screens (oracle-xterm-x11/replay.py) in xterm-x11/NAME/, and each
    checkpoint's `xterm-x11` entry, for a case with a `[conformance.x11]` table (`wanted`)."""
    out = CORPUS / "xterm-x11" / name
    if out.exists():
        shutil.rmtree(out)
    for cp in entry["checkpoints"]:
        cp.pop("xterm-x11", None)
    if not wanted:
        return
    cast = CORPUS / "cases" / f"{name}.cast"
    proc = subprocess.run(
        [sys.executable, str(X11_REPLAY), str(cast)], capture_output=True, text=True, check=False,
    )  # fmt: skip
    if proc.returncode != 0:
        raise RecordError(f"xterm (X11): {proc.stderr.strip()}")
    keep_screens(name, entry, "xterm-x11", out, json.loads(proc.stdout), "xterm (X11)")


def load_manifest() -> dict:
    path = CORPUS / "manifest.json"
    if path.exists():
        return json.loads(path.read_text(encoding="utf-8"))
    return {}


def save_manifest(entries: dict[str, dict], order: list[str]) -> None:
    cases = [entries[n] for n in order if n in entries]
    doc = {
        "about": "Generated by scripts/conformance.py; never edit by hand.",
        "cases": cases,
    }
    (CORPUS / "manifest.json").write_text(
        json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    rec = sub.add_parser("record", help="record cases (default: all), then run xterm")
    rec.add_argument("names", nargs="*")
    rec.add_argument("-v", "--verbose", action="store_true")
    xt = sub.add_parser("xterm", help="replay committed casts with @xterm/headless")
    xt.add_argument("names", nargs="*")
    sub.add_parser("list", help="list the cases")
    orc = sub.add_parser("oracle", help="tmux's screens at a scenario's checkpoints")
    orc.add_argument("scenario", type=Path)
    orc.add_argument("out", type=Path)
    orc.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    if args.cmd == "oracle":
        try:
            labels = oracle(args.scenario.resolve(), args.out, args.verbose)
        except RecordError as e:
            print(f"conformance: {e}", file=sys.stderr)
            return 1
        print(f"{args.scenario}: tmux's screens at {', '.join(labels)} in {args.out}")
        return 0

    try:
        known = load_cases()
    except RecordError as e:
        print(f"conformance: {e}", file=sys.stderr)
        return 2
    if args.cmd == "list":
        for c in known.values():
            print(f"{c.name:28} {c.program:16} {c.size[0]}x{c.size[1]}")
        return 0
    names = args.names or list(known)
    for n in names:
        if n not in known:
            print(f"conformance: unknown case {n!r} (no {SCENARIOS / n}.toml)", file=sys.stderr)
            return 2
    manifest = load_manifest().get("cases", [])
    # the manifest keeps its order; new cases go at the end; cases without a scenario go
    order = [e["name"] for e in manifest if e["name"] in known]
    order += [n for n in known if n not in order]
    entries = {e["name"]: e for e in manifest if e["name"] in known}
    status = 0
    for n in names:
        t0 = time.monotonic()
        try:
            if args.cmd == "record":
                entries[n] = record(known[n], args.verbose)
            elif n not in entries:
                raise RecordError(f"{n}: not recorded yet")
            else:
                # The oracle choices are the scenario's, as recording makes them.
                for cp in entries[n]["checkpoints"]:
                    cp["oracle"], cp["why"] = known[n].oracle(cp["name"])
            xterm(n, entries[n])
            x11(n, entries[n], bool(known[n].x11))
        except (RecordError, subprocess.CalledProcessError) as e:
            print(f"conformance: {n}: {e}", file=sys.stderr)
            status = 1
            continue
        finally:
            save_manifest(entries, order)
        cps = len(entries[n]["checkpoints"])
        print(f"{n}: {cps} checkpoints ({time.monotonic() - t0:.1f}s)")
    return status


if __name__ == "__main__":
    sys.exit(main())
