#!/usr/bin/env python3
"""Record a real terminal program as an asciicast v3 file, driven through tmux.

The program runs inside a detached tmux session (a private server, ``tmux -L``) under
util-linux ``script``, which logs every output byte (``--log-out``) and its timing
(``--log-timing``, advanced format). The session is driven with ``tmux send-keys``; each step
waits until the screen shows the expected text (``tmux capture-pane -p``) and then until the
output has been idle for a while, so that recordings are deterministic.

A checkpoint notes how many output bytes have been written so far; it becomes an ``m`` marker
event placed exactly after those bytes. The screen tmux shows at that moment is kept as an
oracle (plain text, one line per row), to check a replay against, and so is the raw
``capture-pane -p -e -N`` output with the cursor (``Recorder.captures``: text and styles). A
resize (``Recorder.resize``, ``tmux resize-window``) becomes an ``r`` event where script
logged the SIGWINCH; ``Recorder.cut`` ends a recording at the current point with the program
still running (scripts/conformance.py records its corpus that way).

Library use::

    from record_tmux import Recorder
    with Recorder("casts/demo.cast", "bash --norc --noprofile", cols=80, rows=24) as rec:
        rec.wait_text("$ ")
        rec.type("echo hi")
        rec.press("Enter")
        rec.wait_text("hi\\n$ ")
        rec.checkpoint("greeted")
        rec.type("exit")
        rec.press("Enter")
        rec.wait_exit()
    # rec.oracle == {"greeted": "...", "end": "..."}

Command line (steps run in the order given)::

    record_tmux.py record -o casts/demo.cast --size 80x24 --cmd 'bash --norc --noprofile' \\
        --wait '$ ' --type 'echo hi' --press Enter --wait 'hi' --snapshot greeted \\
        --type exit --press Enter --exit 0 [--oracle-dir DIR]
    record_tmux.py convert OUT.raw OUT.tim -o demo.cast [--marker OFFSET:LABEL ...]
    record_tmux.py check casts/demo.cast DIR [--tuicast PATH]

Python 3.11, standard library only. Needs tmux and util-linux ``script``.
"""

from __future__ import annotations

import argparse
import codecs
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

#: A fixed header timestamp (2026-01-01T00:00:00Z), so that recordings are reproducible.
FIXED_TIMESTAMP = 1767225600
#: Longest pause kept between two events, in seconds.
DEFAULT_MAX_INTERVAL = 1.0
#: How long the output must be quiet before the screen counts as settled, in seconds.
DEFAULT_IDLE = 0.3
DEFAULT_TIMEOUT = 10.0
POLL = 0.02


class RecordError(RuntimeError):
    """A wait timed out, the program misbehaved, or the logs are not what was expected."""


# --------------------------------------------------------------------------------------------
# Conversion: script's raw output log + advanced timing log -> asciicast v3
# --------------------------------------------------------------------------------------------


@dataclass
class Marker:
    """A checkpoint: a label placed after `offset` bytes of program output.

    `idle` is how long the output had been quiet when the checkpoint was taken (seconds); the
    marker is placed that long after the output event before it (within the pause cap).
    `resizes` is how many terminal resizes had happened when it was taken (None: all of them),
    which orders it against a resize at the same offset."""

    offset: int
    label: str
    idle: float = 0.0
    resizes: int | None = None


@dataclass
class Timing:
    """What script's advanced timing log says: output chunks and the session's end."""

    chunks: list[tuple[float, int]] = field(default_factory=list)  # (absolute time, size)
    # (absolute time, output bytes before it, cols, rows), from script's SIGWINCH entries
    resizes: list[tuple[float, int, int, int]] = field(default_factory=list)
    duration: float | None = None
    exit_code: int | None = None
    headers: dict[str, str] = field(default_factory=dict)


def parse_timing(text: str) -> Timing:
    """Parses a util-linux ``script --logging-format advanced`` timing log.

    Lines are ``O DELAY SIZE`` (output), ``I DELAY SIZE`` (input), ``S DELAY SIGNAL ...`` and
    ``H DELAY NAME VALUE`` (headers such as ``DURATION`` and ``EXIT_CODE``). Delays are
    relative to the previous entry."""
    timing = Timing()
    now = 0.0
    written = 0
    all_lines = text.splitlines()
    for n, line in enumerate(all_lines, 1):
        if not line.strip():
            continue
        parts = line.split(" ", 3)
        if n == len(all_lines) and not text.endswith("\n"):
            break  # a line script is still writing (a recording cut short)
        if len(parts) < 3:
            raise RecordError(f"timing log line {n}: cannot parse {line!r}")
        kind, delay = parts[0], float(parts[1])
        now += delay
        if kind == "O":
            timing.chunks.append((now, int(parts[2])))
            written += int(parts[2])
        elif kind == "S" and parts[2] == "SIGWINCH" and len(parts) > 3:
            size = dict(p.split("=", 1) for p in parts[3].split() if "=" in p)
            if "ROWS" in size and "COLS" in size:
                timing.resizes.append((now, written, int(size["COLS"]), int(size["ROWS"])))
        elif kind == "H":
            name = parts[2]
            value = parts[3] if len(parts) > 3 else ""
            timing.headers[name] = value
            if name == "DURATION":
                timing.duration = float(value)
            elif name == "EXIT_CODE":
                timing.exit_code = int(value)
        elif kind in ("I", "S"):
            pass  # input, and signals other than a resize
        else:
            raise RecordError(f"timing log line {n}: unknown entry {kind!r}")
    return timing


def strip_script_header(raw: bytes) -> tuple[bytes, int]:
    """Removes the ``Script started on ...`` line script writes to the log (even with -q).

    Returns the remaining bytes and the length of what was removed."""
    if raw.startswith(b"Script started"):
        end = raw.find(b"\n")
        if end < 0:
            return b"", len(raw)
        return raw[end + 1 :], end + 1
    return raw, 0


def _interval(value: float) -> str:
    return f"{value:.6f}"


def _event(interval: float, code: str, data: str) -> str:
    return f"[{_interval(interval)}, {json.dumps(code)}, {json.dumps(data, ensure_ascii=False)}]"


def build_cast(
    output: bytes,
    timing: Timing,
    markers: list[Marker],
    *,
    cols: int,
    rows: int,
    command: str | None = None,
    title: str | None = None,
    env: dict[str, str] | None = None,
    term_type: str = "xterm-256color",
    timestamp: int = FIXED_TIMESTAMP,
    max_interval: float | None = DEFAULT_MAX_INTERVAL,
    exit_code: int | None = None,
    end_offset: int | None = None,
) -> str:
    """Builds an asciicast v3 document from program output, its timing, and checkpoints.

    `output` is the program's output without script's header (its length must equal the sum
    of the timing log's chunk sizes, any trailer beyond that is ignored). Markers are placed
    exactly after `offset` bytes; an output chunk is split if a marker falls inside it. Bytes
    are decoded with an incremental UTF-8 decoder, so a character split across chunks (or
    across a marker) is never broken. Every resize in the timing log (script's SIGWINCH
    entries) becomes an ``r`` event after the output written before it.

    With `end_offset`, the cast stops after that many bytes of output (a recording cut short
    at its last checkpoint, without an exit event)."""
    total = sum(size for _, size in timing.chunks)
    if len(output) < total:
        raise RecordError(f"output log has {len(output)} bytes, timing log says {total}")
    output = output[:total]
    chunks = list(timing.chunks)
    duration = timing.duration
    resizes = list(timing.resizes)
    if end_offset is not None:
        if not 0 <= end_offset <= total:
            raise RecordError(f"cut at byte {end_offset}, output has {total}")
        kept, pos = [], 0
        for t, size in chunks:
            if pos >= end_offset:
                break
            kept.append((t, min(size, end_offset - pos)))
            pos += size
        chunks = kept
        output = output[:end_offset]
        total = end_offset
        duration = None
        exit_code = None
        # a resize logged after the last byte kept may still belong before the end marker
        resizes = [r for r in resizes if r[1] <= end_offset]
    for m in markers:
        if not 0 <= m.offset <= total:
            raise RecordError(f"marker {m.label!r} at byte {m.offset}, output has {total}")

    # Items placed between output bytes: (offset, order, code, label, idle, time). A marker
    # taken after k resizes sorts after resize k-1 and before resize k at the same offset.
    items = []
    for i, (t, offset, c, r) in enumerate(resizes):
        items.append((offset, (i + 1, 0), "r", f"{c}x{r}", 0.0, t))
    for n, m in enumerate(markers):
        k = len(resizes) if m.resizes is None else m.resizes
        items.append((m.offset, (k, 1, n), "m", m.label, m.idle, None))
    items.sort(key=lambda item: (item[0], item[1]))

    # Absolute-time events: (code, time, bytes | label), in stream order.
    events: list[tuple[str, float, bytes | str]] = []
    pending = items
    pos = 0
    last_time = 0.0

    def place(item, next_time: float | None) -> None:
        nonlocal last_time
        _, _, code, label, idle, at = item
        t = at if at is not None else last_time + max(0.0, idle)
        if next_time is not None:
            t = min(t, next_time)
        t = max(t, last_time)
        events.append((code, t, label))
        last_time = t

    for i, (t, size) in enumerate(chunks):
        start, end = pos, pos + size
        # items before this chunk's first byte were placed by the previous iteration
        cut = start
        while pending and pending[0][0] < end:
            item = pending.pop(0)
            if item[0] > cut:
                events.append(("o", t, output[cut : item[0]]))
                last_time = t
                cut = item[0]
            place(item, t)
        if end > cut:
            events.append(("o", max(t, last_time), output[cut:end]))
            last_time = max(t, last_time)
        pos = end
        next_t = chunks[i + 1][0] if i + 1 < len(chunks) else duration
        while pending and pending[0][0] == end:
            place(pending.pop(0), next_t)
    while pending:
        place(pending.pop(0), duration)

    header: dict = {
        "version": 3,
        "term": {"cols": cols, "rows": rows, "type": term_type},
        "timestamp": timestamp,
    }
    if command is not None:
        header["command"] = command
    if title is not None:
        header["title"] = title
    if env:
        header["env"] = env
    lines = [json.dumps(header, ensure_ascii=False)]

    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    prev = 0.0

    def emit(t: float, code: str, data: str) -> None:
        nonlocal prev
        interval = max(0.0, t - prev)
        if max_interval is not None:
            interval = min(interval, max_interval)
        lines.append(_event(interval, code, data))
        prev = t

    for kind, t, data in events:
        if kind == "o":
            assert isinstance(data, bytes)
            text = decoder.decode(data)
            if text:
                emit(t, "o", text)
        else:
            assert isinstance(data, str)
            emit(t, kind, data)
    tail = decoder.decode(b"", final=True)
    if tail:
        emit(prev, "o", tail)

    status = exit_code if exit_code is not None else timing.exit_code
    if status is not None and end_offset is None:
        end_time = duration if duration is not None else prev
        emit(max(end_time, prev), "x", str(status))
    return "\n".join(lines) + "\n"


def convert_files(
    raw_path: str | os.PathLike,
    timing_path: str | os.PathLike,
    markers: list[Marker],
    **kwargs,
) -> str:
    """Reads script's logs and builds the cast text (see `build_cast`). Marker offsets count
    bytes of the raw log *including* script's header line, as `Recorder` measures them."""
    raw = Path(raw_path).read_bytes()
    output, skipped = strip_script_header(raw)
    timing = parse_timing(Path(timing_path).read_text(encoding="utf-8", errors="replace"))
    shifted = [Marker(max(0, m.offset - skipped), m.label, m.idle, m.resizes) for m in markers]
    if kwargs.get("end_offset") is not None:
        kwargs["end_offset"] = max(0, kwargs["end_offset"] - skipped)
    return build_cast(output, timing, shifted, **kwargs)


# --------------------------------------------------------------------------------------------
# Recording
# --------------------------------------------------------------------------------------------


#: The DEC special graphics character set (`ESC ( 0`), as xterm shows it.
DEC_GRAPHICS = dict(
    zip(
        "_`abcdefghijklmnopqrstuvwxyz{|}~",
        "\u00a0◆▒␉␌␍␊°±␤␋┘┐┌└┼⎺⎻─⎼⎽├┤┴┬│≤≥π≠£·",
    )
)
# a control sequence (CSI, OSC, charset designation, other ESC x) or SO / SI
_TOKENS = re.compile(
    r"(\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[()][0-9A-Za-z]|.)|[\x0e\x0f])"
)


def plain_screen(captured: str) -> str:
    """Turns `tmux capture-pane -p -e` output into plain text.

    Without `-e`, tmux prints line-drawing cells as the ASCII letters the program sent
    (``lqqk``); with it, they are wrapped in SO/SI, so they can be mapped to Unicode here.
    Style escapes are dropped and trailing spaces trimmed, as ``capture-pane -p`` does."""
    rows = []
    for line in captured.split("\n"):
        out = []
        graphics = False
        for piece in _TOKENS.split(line):
            if not piece:
                continue
            if piece == "\x0e":
                graphics = True
            elif piece == "\x0f":
                graphics = False
            elif piece.startswith("\x1b"):
                pass
            elif graphics:
                out.append("".join(DEC_GRAPHICS.get(ch, ch) for ch in piece))
            else:
                out.append(piece)
        rows.append("".join(out).rstrip(" "))
    return "\n".join(rows)


def base_env(home: str, extra: dict[str, str] | None = None) -> dict[str, str]:
    """A clean, deterministic environment for the recorded program."""
    env = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": home,
        "TERM": "xterm-256color",
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "TZ": "UTC",
        "SHELL": "/bin/bash",
        "PS1": "$ ",
        "PS2": "> ",
        "HISTFILE": "/dev/null",
        "LESSHISTFILE": "-",
        "USER": "user",
        "LOGNAME": "user",
    }
    if extra:
        env.update(extra)
    return env


def _proc_table() -> dict[int, tuple[int, int]]:
    """pid -> (parent pid, session id), from /proc."""
    table = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read().decode("utf-8", "replace")
        except OSError:
            continue
        # the command name is in parentheses and may contain spaces
        rest = stat[stat.rfind(")") + 2 :].split()
        try:
            table[int(entry)] = (int(rest[1]), int(rest[3]))
        except (IndexError, ValueError):
            continue
    return table


def process_tree(root: int) -> set[int]:
    """`root`, its descendants, and every process in a session one of them leads."""
    table = _proc_table()
    tree = {root} if root in table else set()
    grew = True
    while grew:
        grew = False
        for pid, (ppid, _) in table.items():
            if ppid in tree and pid not in tree:
                tree.add(pid)
                grew = True
    sessions = {pid for pid in tree if table.get(pid, (0, 0))[1] == pid}
    tree |= {pid for pid, (_, sid) in table.items() if sid in sessions}
    return tree


def _is_live_tmux(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read().decode("utf-8", "replace")
    except OSError:
        return False
    name = stat[stat.find("(") + 1 : stat.rfind(")")]
    state = stat[stat.rfind(")") + 2 :].split()[0]
    return name.startswith("tmux") and state not in ("Z", "X")


def kill_tree(root: int) -> None:
    """SIGKILLs `root` and everything it started (see `process_tree`)."""
    for pid in process_tree(root):
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


class Recorder:
    """Records one program in a private tmux server under `script`, as asciicast v3.

    Use as a context manager (or call `start` and `close`); `close` always kills the tmux
    server and the program's whole process tree. After `wait_exit`, leaving the `with` block
    (or calling `finish`) writes the cast; `oracle` maps each checkpoint (and `end`) to the
    text tmux showed."""

    def __init__(
        self,
        out: str | os.PathLike,
        command: str,
        *,
        cols: int = 80,
        rows: int = 24,
        cwd: str | os.PathLike | None = None,
        env: dict[str, str] | None = None,
        title: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        idle: float = DEFAULT_IDLE,
        max_interval: float | None = DEFAULT_MAX_INTERVAL,
        oracle_dir: str | os.PathLike | None = None,
        header_env: dict[str, str] | None = None,
        verbose: bool = False,
    ):
        self.out = Path(out)
        self.command = command
        self.cols, self.rows = cols, rows
        self.cwd = Path(cwd) if cwd is not None else None
        self.extra_env = env or {}
        self.title = title if title is not None else self.out.stem
        self.timeout = timeout
        self.idle = idle
        self.max_interval = max_interval
        self.oracle_dir = Path(oracle_dir) if oracle_dir is not None else None
        self.verbose = verbose
        self.markers: list[Marker] = []
        self.oracle: dict[str, str] = {}
        #: Per checkpoint (and `end`): tmux's raw `capture-pane -p -e -N` output and what
        #: tmux says of the cursor, screen and size (see `capture`).
        self.captures: dict[str, dict] = {}
        self.resizes = 0
        self._end_offset: int | None = None
        self.exit_code: int | None = None
        self._tmp: str | None = None
        self._socket = f"tuicast-rec-{os.getpid()}-{id(self):x}"
        self._session = "rec"
        self._pane_pid: int | None = None
        self._server_pid: int | None = None
        self._finished = False
        self._last_size = -1
        self._last_change = time.monotonic()
        env_for_header = {"SHELL": "/bin/bash", "LANG": "C.UTF-8", "TZ": "UTC"}
        self.header_env = header_env if header_env is not None else env_for_header

    # -- lifecycle ---------------------------------------------------------------------------

    def __enter__(self) -> "Recorder":
        self.start()
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        try:
            if exc_type is None and not self._finished:
                self.finish()
        finally:
            self.close()

    def _log(self, msg: str) -> None:
        if self.verbose:
            print(f"[{self.out.name}] {msg}", file=sys.stderr)

    def tmux(self, *args: str, check: bool = True) -> str:
        proc = subprocess.run(
            ["tmux", "-L", self._socket, "-f", "/dev/null", *args],
            capture_output=True,
            text=True,
            env={**os.environ, "TMUX": ""},
        )
        if check and proc.returncode != 0:
            raise RecordError(f"tmux {' '.join(args)}: {proc.stderr.strip()}")
        return proc.stdout

    @property
    def raw_path(self) -> Path:
        assert self._tmp is not None
        return Path(self._tmp) / "out.raw"

    @property
    def timing_path(self) -> Path:
        assert self._tmp is not None
        return Path(self._tmp) / "out.tim"

    def start(self) -> None:
        for tool in ("tmux", "script"):
            if shutil.which(tool) is None:
                raise RecordError(f"{tool} is not installed")
        self._tmp = tempfile.mkdtemp(prefix="tuicast-rec-")
        home = Path(self._tmp) / "home"
        home.mkdir()
        env = base_env(str(home), self.extra_env)
        script_cmd = [
            "script", "-q", "-f", "-e",
            "--log-out", str(self.raw_path),
            "--log-timing", str(self.timing_path),
            "--logging-format", "advanced",
            "-c", f"SHELL={shlex.quote(env['SHELL'])}; export SHELL; {self.command}",
        ]  # fmt: skip
        # script runs the command with `$SHELL -c`; a non-interactive bash would drop PS1 and
        # PS2, so script itself gets /bin/sh, and the program gets the real SHELL back.
        env = {**env, "SHELL": "/bin/sh"}
        # After the program ends the pane stays alive (sleeping, silent) so that the final
        # screen can still be captured; `close` kills it.
        inner = (
            "env -i "
            + " ".join(shlex.quote(f"{k}={v}") for k, v in env.items())
            + " "
            + shlex.join(script_cmd)
            + "; exec sleep 86400"
        )
        cwd = str(self.cwd) if self.cwd is not None else self._tmp
        self._log(f"start: {self.command}")
        self.tmux(
            "new-session", "-d", "-s", self._session,
            "-x", str(self.cols), "-y", str(self.rows), "-c", cwd, inner,
        )  # fmt: skip
        self._server_pid = int(self.tmux("display-message", "-p", "-t", self._session, "#{pid}"))
        self._pane_pid = int(
            self.tmux("display-message", "-p", "-t", self._session, "#{pane_pid}")
        )
        self._wait(lambda: self.raw_path.exists(), "script to start")

    def close(self) -> None:
        """Kills the program's process tree and the tmux server; removes temporary files."""
        if self._pane_pid is not None:
            kill_tree(self._pane_pid)
            self._pane_pid = None
        if self._tmp is not None:
            self.tmux("kill-server", check=False)
        if self._server_pid is not None:
            # only if it is still our (live) tmux server: its pid may have been reused
            deadline = time.monotonic() + 2
            while _is_live_tmux(self._server_pid) and time.monotonic() < deadline:
                time.sleep(POLL)
            if _is_live_tmux(self._server_pid):
                try:
                    os.kill(self._server_pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            self._server_pid = None
        if self._tmp is not None:
            shutil.rmtree(self._tmp, ignore_errors=True)
            self._tmp = None

    # -- observing ---------------------------------------------------------------------------

    def screen(self) -> str:
        """The visible screen as tmux shows it: one line per row, trailing spaces trimmed,
        DEC line-drawing characters as the Unicode characters they stand for."""
        return plain_screen(self.tmux("capture-pane", "-p", "-e", "-t", self._session))

    def capture(self) -> dict:
        """The screen with its styles, as `tmux capture-pane -p -e -N` writes it (SGR
        sequences where the style changes, DEC line drawing between SO and SI, trailing
        spaces kept), with the cursor position and visibility, whether the alternate screen
        is on, and the pane's size."""
        raw = self.tmux("capture-pane", "-p", "-e", "-N", "-t", self._session)
        fmt = "#{cursor_y} #{cursor_x} #{cursor_flag} #{alternate_on} #{pane_width} #{pane_height}"
        cy, cx, visible, alt, w, h = self.tmux("display-message", "-p", "-t", self._session, fmt).split()
        return {
            "screen": raw,
            "cursor": [int(cy), int(cx)],
            "cursor_visible": visible == "1",
            "alternate": alt == "1",
            "size": f"{w}x{h}",
        }

    def output_size(self) -> int:
        try:
            return self.raw_path.stat().st_size
        except FileNotFoundError:
            return 0

    def _poll_size(self) -> int:
        size = self.output_size()
        if size != self._last_size:
            self._last_size = size
            self._last_change = time.monotonic()
        return size

    def _wait(self, cond, what: str, timeout: float | None = None) -> None:
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        while True:
            self._poll_size()
            if cond():
                return
            if time.monotonic() > deadline:
                screen = self.screen() if self._pane_pid else ""
                raise RecordError(f"{self.out.name}: timed out waiting for {what}\n{screen}")
            time.sleep(POLL)

    def wait_text(self, text: str, timeout: float | None = None) -> None:
        """Waits until the screen contains `text` (rows joined by newlines). tmux trims
        trailing spaces from every row, so `text` is matched with them trimmed too."""
        text = "\n".join(line.rstrip(" ") for line in text.split("\n"))
        self._log(f"wait for {text!r}")
        self._wait(lambda: text in self.screen(), f"text {text!r}", timeout)

    def wait_regex(self, pattern: str, timeout: float | None = None) -> None:
        rx = re.compile(pattern, re.M)
        self._log(f"wait for /{pattern}/")
        self._wait(lambda: rx.search(self.screen()) is not None, f"/{pattern}/", timeout)

    def wait_gone(self, text: str, timeout: float | None = None) -> None:
        """Waits until the screen no longer contains `text`."""
        self._log(f"wait until {text!r} is gone")
        self._wait(lambda: text not in self.screen(), f"{text!r} to go", timeout)

    def wait_idle(self, idle: float | None = None, timeout: float | None = None) -> None:
        """Waits until no output byte has been written for `idle` seconds."""
        idle = self.idle if idle is None else idle
        self._poll_size()
        self._wait(
            lambda: time.monotonic() - self._last_change >= idle, f"{idle}s of quiet", timeout
        )

    # -- driving -----------------------------------------------------------------------------

    def type(self, text: str) -> None:
        """Types `text` literally."""
        self._log(f"type {text!r}")
        self.tmux("send-keys", "-t", self._session, "-l", text)
        self._sent()

    def press(self, *keys: str) -> None:
        """Presses keys by tmux name: Enter, Escape, Up, Down, C-c, M-x, F5, BSpace, ..."""
        self._log(f"press {' '.join(keys)}")
        for key in keys:
            self.tmux("send-keys", "-t", self._session, key)
        self._sent()

    def _sent(self) -> None:
        # Quiet is measured from the last key too: a checkpoint right after a key press waits
        # for the program's answer instead of counting the quiet before the key.
        self._poll_size()
        self._last_change = time.monotonic()

    def checkpoint(self, label: str) -> str:
        """Waits for quiet, then marks a checkpoint after the output so far; returns (and
        keeps) the screen tmux shows."""
        if label == "end":
            raise RecordError("`end` is the implicit final checkpoint")
        if label in self.oracle:
            raise RecordError(f"checkpoint {label!r} taken twice")
        for attempt in range(5):
            self.wait_idle()
            size = self.output_size()
            screen = self.screen()
            captured = self.capture()
            # everything is still quiet: the screen matches exactly `size` bytes of output
            if self.output_size() == size:
                break
            self._log(f"output changed while taking checkpoint {label!r}; again")
        else:
            raise RecordError(f"output changed while taking checkpoint {label!r}")
        idle = time.monotonic() - self._last_change
        self.markers.append(Marker(size, label, idle, self.resizes))
        self.oracle[label] = screen
        self.captures[label] = captured
        self._log(f"checkpoint {label!r} at byte {size}")
        return screen

    def exited(self) -> bool:
        try:
            return "EXIT_CODE" in self.timing_path.read_text(errors="replace")
        except FileNotFoundError:
            return False

    def wait_exit(self, timeout: float | None = None) -> int:
        """Waits for the program to end; returns its exit status."""
        self._wait(self.exited, "the program to exit", timeout)
        self.wait_idle()
        timing = parse_timing(self.timing_path.read_text(errors="replace"))
        self.exit_code = timing.exit_code
        self.oracle["end"] = self.screen()
        self.captures["end"] = self.capture()
        self._log(f"exited with {self.exit_code}")
        return self.exit_code if self.exit_code is not None else -1

    def resize(self, cols: int, rows: int) -> None:
        """Resizes the terminal (`tmux resize-window`); the program gets SIGWINCH, and the
        cast an `r` event where script logged it."""
        self._log(f"resize to {cols}x{rows}")
        self.tmux("resize-window", "-t", self._session, "-x", str(cols), "-y", str(rows))
        self.resizes += 1
        self._wait(
            lambda: parse_timing(self.timing_path.read_text(errors="replace")).resizes[
                self.resizes - 1 :
            ]
            != [],
            "script to see the resize",
        )
        self._sent()

    def cut(self) -> None:
        """Ends the recording here, with the program still running: waits for quiet, keeps
        the screen as the `end` checkpoint and stops the cast after the output so far (no exit
        event). `close` then kills the program's whole process tree."""
        for attempt in range(5):
            self.wait_idle()
            size = self.output_size()
            self.oracle["end"] = self.screen()
            self.captures["end"] = self.capture()
            if self.output_size() == size:
                break
        else:
            raise RecordError("output changed while cutting the recording")
        self._end_offset = size
        # stop the program now, so that the logs are complete when the cast is written
        if self._pane_pid is not None:
            kill_tree(self._pane_pid)
            self._pane_pid = None
        self._log(f"cut at byte {size}")

    # -- output ------------------------------------------------------------------------------

    def cast_text(self) -> str:
        return convert_files(
            self.raw_path,
            self.timing_path,
            self.markers,
            cols=self.cols,
            rows=self.rows,
            command=self.command,
            title=self.title,
            env=self.header_env,
            max_interval=self.max_interval,
            exit_code=self.exit_code,
            end_offset=self._end_offset,
        )

    def finish(self) -> None:
        """Writes the cast (and the oracle screens, if an oracle folder was given)."""
        if self.exit_code is None and "end" not in self.oracle:
            self.wait_exit()
        self.out.parent.mkdir(parents=True, exist_ok=True)
        self.out.write_text(self.cast_text(), encoding="utf-8")
        if self.oracle_dir is not None:
            d = self.oracle_dir / self.out.stem
            if d.exists():
                shutil.rmtree(d)
            d.mkdir(parents=True)
            for label, text in self.oracle.items():
                (d / f"{label}.txt").write_text(text, encoding="utf-8")
        self._finished = True
        self._log(f"wrote {self.out} ({self.out.stat().st_size} bytes)")


# --------------------------------------------------------------------------------------------
# Checking a cast against its oracle with tuicast
# --------------------------------------------------------------------------------------------


def normalize_screen(text: str) -> list[str]:
    """Rows with trailing spaces trimmed, trailing blank rows dropped."""
    rows = [line.rstrip(" ") for line in text.split("\n")]
    while rows and rows[-1] == "":
        rows.pop()
    return rows


def check_cast(cast: str | os.PathLike, oracle: dict[str, str], tuicast: str) -> list[str]:
    """Replays each checkpoint with tuicast; returns a description of every difference."""
    problems = []
    for label, expected in oracle.items():
        proc = subprocess.run(
            [tuicast, "replay", str(cast), "--at", label], capture_output=True, text=True
        )
        if proc.returncode != 0:
            problems.append(f"{Path(cast).name} @{label}: tuicast failed: {proc.stderr.strip()}")
            continue
        want, got = normalize_screen(expected), normalize_screen(proc.stdout)
        for row in range(max(len(want), len(got))):
            w = want[row] if row < len(want) else ""
            g = got[row] if row < len(got) else ""
            if w != g:
                problems.append(
                    f"{Path(cast).name} @{label} row {row}:\n    tmux:    {w!r}\n"
                    f"    tuicast: {g!r}"
                )
    return problems


def load_oracle(d: str | os.PathLike) -> dict[str, str]:
    return {p.stem: p.read_text(encoding="utf-8") for p in sorted(Path(d).glob("*.txt"))}


# --------------------------------------------------------------------------------------------
# CLI
# --------------------------------------------------------------------------------------------


class _Step(argparse.Action):
    """Collects steps in command-line order."""

    def __call__(self, parser, namespace, values, option_string=None):
        steps = getattr(namespace, "steps", None) or []
        steps.append((self.dest, values))
        namespace.steps = steps


def _size(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"(\d+)x(\d+)", text)
    if not m:
        raise argparse.ArgumentTypeError(f"size must be COLSxROWS, not {text!r}")
    return int(m.group(1)), int(m.group(2))


def _marker(text: str) -> Marker:
    offset, _, label = text.partition(":")
    if not offset.isdigit() or not label:
        raise argparse.ArgumentTypeError(f"marker must be OFFSET:LABEL, not {text!r}")
    return Marker(int(offset), label)


def _env_pair(text: str) -> tuple[str, str]:
    k, sep, v = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"env must be NAME=VALUE, not {text!r}")
    return k, v


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)

    rec = sub.add_parser("record", help="record a command, driven by steps in order")
    rec.add_argument("-o", "--output", required=True, help="the cast to write")
    rec.add_argument("--cmd", required=True, help="the command (run by script's shell)")
    rec.add_argument("--size", type=_size, default=(80, 24), help="COLSxROWS (80x24)")
    rec.add_argument("--cwd", help="working folder (default: a fresh temporary folder)")
    rec.add_argument("--title", help="cast title (default: the cast's file stem)")
    rec.add_argument("--env", type=_env_pair, action="append", default=[], help="NAME=VALUE")
    rec.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help="seconds per wait")
    rec.add_argument("--idle", type=float, default=DEFAULT_IDLE, help="quiet seconds to settle")
    rec.add_argument("--max-interval", type=float, default=DEFAULT_MAX_INTERVAL)
    rec.add_argument("--oracle-dir", help="write tmux's screen at each checkpoint here")
    rec.add_argument("-v", "--verbose", action="store_true")
    steps = rec.add_argument_group("steps (run in the order given)")
    steps.add_argument("--wait", action=_Step, metavar="TEXT", help="wait for text on screen")
    steps.add_argument("--wait-regex", action=_Step, metavar="RE", help="wait for a match")
    steps.add_argument("--wait-gone", action=_Step, metavar="TEXT", help="wait for text to go")
    steps.add_argument("--idle-wait", action=_Step, type=float, metavar="SECS",
                       help="wait for SECS of quiet output")  # fmt: skip
    steps.add_argument("--type", action=_Step, metavar="TEXT", help="type text literally")
    steps.add_argument("--press", action=_Step, nargs="+", metavar="KEY",
                       help="press keys by tmux name (Enter, Escape, Down, C-c, ...)")  # fmt: skip
    steps.add_argument("--snapshot", action=_Step, metavar="NAME", help="take a checkpoint")
    steps.add_argument("--exit", action=_Step, metavar="STATUS",
                       help="wait for the program to end; expect STATUS (or 'any')")  # fmt: skip

    conv = sub.add_parser("convert", help="convert script's logs to asciicast v3")
    conv.add_argument("raw", help="script --log-out file")
    conv.add_argument("timing", help="script --log-timing file (advanced format)")
    conv.add_argument("-o", "--output", required=True)
    conv.add_argument("--size", type=_size, default=(80, 24))
    conv.add_argument("--marker", type=_marker, action="append", default=[],
                      help="OFFSET:LABEL, OFFSET in bytes of the raw log")  # fmt: skip
    conv.add_argument("--command")
    conv.add_argument("--title")
    conv.add_argument("--max-interval", type=float, default=DEFAULT_MAX_INTERVAL)

    chk = sub.add_parser("check", help="compare tuicast's replay with tmux's screens")
    chk.add_argument("cast")
    chk.add_argument("oracle", help="folder of CHECKPOINT.txt files")
    chk.add_argument("--tuicast", default="target/release/tuicast")

    args = ap.parse_args(argv)
    try:
        return _run(args)
    except RecordError as e:
        print(f"record_tmux: {e}", file=sys.stderr)
        return 1


def _run(args: argparse.Namespace) -> int:
    if args.cmd == "convert":
        cols, rows = args.size
        text = convert_files(
            args.raw, args.timing, args.marker, cols=cols, rows=rows, command=args.command,
            title=args.title, max_interval=args.max_interval,
        )  # fmt: skip
        Path(args.output).write_text(text, encoding="utf-8")
        return 0
    if args.cmd == "check":
        oracle = load_oracle(args.oracle)
        if not oracle:
            print(f"record_tmux: no CHECKPOINT.txt files in {args.oracle}", file=sys.stderr)
            return 2
        problems = check_cast(args.cast, oracle, args.tuicast)
        for p in problems:
            print(p)
        return 1 if problems else 0

    cols, rows = args.size
    rec = Recorder(
        args.output, args.cmd, cols=cols, rows=rows, cwd=args.cwd, env=dict(args.env),
        title=args.title, timeout=args.timeout, idle=args.idle,
        max_interval=args.max_interval, oracle_dir=args.oracle_dir, verbose=args.verbose,
    )  # fmt: skip
    try:
        rec.start()
        for kind, value in getattr(args, "steps", None) or []:
            if kind == "wait":
                rec.wait_text(value)
            elif kind == "wait_regex":
                rec.wait_regex(value)
            elif kind == "wait_gone":
                rec.wait_gone(value)
            elif kind == "idle_wait":
                rec.wait_idle(value)
            elif kind == "type":
                rec.type(value)
            elif kind == "press":
                rec.press(*value)
            elif kind == "snapshot":
                rec.checkpoint(value)
            elif kind == "exit":
                status = rec.wait_exit()
                if value != "any" and status != int(value):
                    raise RecordError(f"{args.output}: exit status {status}, expected {value}")
        rec.finish()
    finally:
        rec.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
