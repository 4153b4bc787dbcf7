#!/usr/bin/env python3
"""Records a real terminal program as an asciicast v3 file, driven through tmux (a library:
scripts/conformance.py drives it from tuicast scenario files).

The program runs inside a detached tmux session (a private server, ``tmux -L``) under
util-linux ``script``, which logs every output byte (``--log-out``) and its timing
(``--log-timing``, advanced format). The `Recorder` gives tuicast's steps their tuicast meaning
(src/record/session.rs), with tmux as the terminal:

- ``press``: key names as in src/record/keys.rs, sent as the bytes tuicast would send
  (``tmux send-keys -H``; arrows, Home and End follow the pane's cursor-key mode);
  ``type``: the text itself.
- waits on the screen (text, regex, gone, cursor) are checked against ``tmux capture-pane``
  again whenever output has come (and for a moment after, while tmux draws it); the screen's
  text is tuicast's: each row cut after its last non-blank cell, rows ending in newlines.
- ``idle``: no output for the given time. Unlike tuicast, the quiet is counted from the last
  key sent as well, and after keys the program's answer is awaited first (up to
  `ANSWER_TIMEOUT`): a checkpoint right after a key shows the program's answer.
- ``snapshot`` (`checkpoint`): an ``m`` marker exactly after the output so far, with tmux's
  screen then (``capture-pane -p -e -N``, the cursor) kept as the oracle; no wait of its own.
- ``resize`` (``tmux resize-window``) becomes an ``r`` event where script logged the SIGWINCH;
  ``exit`` waits for the program to end. `cut` ends a recording with the program still
  running (no ``x`` event).

Python 3.11, standard library only. Needs tmux and util-linux ``script``.
"""

from __future__ import annotations

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
#: How long an idle wait after keys waits for the program to start answering, in seconds.
ANSWER_TIMEOUT = 5.0
#: After output, how long waits keep looking at tmux's screen (tmux may still be drawing it).
DRAW_LAG = 0.25
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
    """tuicast's clean base environment (src/record/session.rs `base_env`), its `HOME`, and
    the scenario's `env` on top."""
    env = {
        "TERM": "xterm-256color",
        "LANG": "C.UTF-8",
        "TZ": "UTC",
        "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        "SHELL": "/bin/bash",
        "HOME": home,
    }
    if extra:
        env.update(extra)
    return env


def key_bytes(name: str, app_cursor: bool) -> str:
    """The bytes tuicast sends for key `name` (src/record/keys.rs, the same names)."""
    if len(name) == 1:
        return name
    for prefix in ("C-M-", "M-C-"):
        if name.startswith(prefix):
            return "\x1b" + _ctrl_char(name, name[len(prefix) :])
    if name.startswith("C-"):
        return _ctrl_char(name, name[2:])
    if name.startswith("M-"):
        rest, metas = name, 0
        while rest.startswith("M-"):
            rest, metas = rest[2:], metas + 1
        if metas > 4:
            raise RecordError(f"key {name!r} has more than 4 M- prefixes")
        return "\x1b" * metas + key_bytes(rest, app_cursor)
    cursor = {"Up": "A", "Down": "B", "Right": "C", "Left": "D", "Home": "H", "End": "F"}
    if name in cursor:
        return ("\x1bO" if app_cursor else "\x1b[") + cursor[name]
    for names, seq in _NAMED_KEYS:
        if name in names:
            return seq
    raise RecordError(f"unknown key {name!r} (the names of src/record/keys.rs)")


_NAMED_KEYS = [
    (("Enter", "Return"), "\r"), (("Esc", "Escape"), "\x1b"), (("Tab",), "\t"),
    (("BackTab", "S-Tab"), "\x1b[Z"), (("Backspace", "BS"), "\x7f"), (("Space",), " "),
    (("Delete", "Del"), "\x1b[3~"), (("Insert", "Ins"), "\x1b[2~"),
    (("PageUp", "PgUp"), "\x1b[5~"), (("PageDown", "PgDn"), "\x1b[6~"),
    (("F1",), "\x1bOP"), (("F2",), "\x1bOQ"), (("F3",), "\x1bOR"), (("F4",), "\x1bOS"),
    (("F5",), "\x1b[15~"), (("F6",), "\x1b[17~"), (("F7",), "\x1b[18~"),
    (("F8",), "\x1b[19~"), (("F9",), "\x1b[20~"), (("F10",), "\x1b[21~"),
    (("F11",), "\x1b[23~"), (("F12",), "\x1b[24~"),
]  # fmt: skip
_CTRL = {"@": "\0", " ": "\0", "2": "\0", "[": "\x1b", "3": "\x1b", "\\": "\x1c", "4": "\x1c",
         "]": "\x1d", "5": "\x1d", "^": "\x1e", "6": "\x1e", "_": "\x1f", "7": "\x1f", "/": "\x1f",
         "?": "\x7f", "8": "\x7f"}  # fmt: skip


def _ctrl_char(name: str, key: str) -> str:
    if key == "Space":
        return "\0"
    if len(key) == 1 and key.isascii() and key.isalpha():
        return chr(ord(key.lower()) - ord("a") + 1)
    if key in _CTRL:
        return _CTRL[key]
    raise RecordError(f"unknown key {name!r} (the names of src/record/keys.rs)")


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
        header_env: dict[str, str] | None = None,
        verbose: bool = False,
        state: bool = False,
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
        self.verbose = verbose
        #: Keep tmux's view of the terminal state at each checkpoint too (see `capture`).
        self.state = state
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
        # output bytes when keys were last sent and no answer has come yet (idle waits first
        # wait for one), or None
        self._awaiting: int | None = None
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
        if self.state:
            # OSC 52 writes become tmux paste buffers (the case writes none before its first
            # wait, so none is missed).
            self.tmux("set-option", "-g", "set-clipboard", "on")
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
        out = {
            "screen": raw,
            "cursor": [int(cy), int(cx)],
            "cursor_visible": visible == "1",
            "alternate": alt == "1",
            "size": f"{w}x{h}",
        }
        if self.state:
            out["state"] = self.capture_state()
        return out

    def capture_state(self) -> dict:
        """What tmux says of the terminal beyond the cells: the pane title (OSC 0/2), whether
        a bell rang in the window so far (`window_bell_flag`, never reset in a detached
        session), the newest paste buffer (OSC 52 with `set-clipboard on`; None without one)
        and the history (the lines scrolled off the top, oldest first, trailing spaces
        trimmed)."""
        fmt = "#{window_bell_flag} #{history_size} #{pane_title}"
        bell, size, title = self.tmux("display-message", "-p", "-t", self._session, fmt).rstrip("\n").split(" ", 2)
        history = []
        if int(size) > 0:
            text = self.tmux("capture-pane", "-p", "-t", self._session, "-S", "-", "-E", "-1")
            history = [line.rstrip(" ") for line in text.split("\n")[: int(size)]]
        proc = subprocess.run(
            ["tmux", "-L", self._socket, "-f", "/dev/null", "show-buffer"],
            capture_output=True, text=True, env={**os.environ, "TMUX": ""},
        )  # fmt: skip
        return {
            "title": title,
            "bell": bell == "1",
            "buffer": proc.stdout if proc.returncode == 0 else None,
            "history": history,
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

    def _wait_screen(self, cond, what: str, timeout: float | None = None) -> None:
        """Waits until `cond(screen text)` holds, looking at tmux's screen again whenever output
        has come (and for `DRAW_LAG` after it, while tmux draws it), as tuicast re-checks its
        waits on output."""
        seen = None

        def check() -> bool:
            nonlocal seen
            size = self._last_size
            if size == seen and time.monotonic() - self._last_change > DRAW_LAG:
                return False
            seen = size
            return cond(self.screen_text())

        self._wait(check, what, timeout)

    def screen_text(self) -> str:
        """The screen as tuicast's `Screen::text` gives it: every row cut after its last
        non-blank cell and ended by a newline."""
        rows = self.screen().split("\n")
        if rows and rows[-1] == "":
            rows.pop()  # capture-pane ends every row with a newline
        return "".join(row + "\n" for row in rows)

    def wait_text(self, text: str, timeout: float | None = None) -> None:
        """Waits until the screen text contains `text`."""
        self._log(f"wait for {text!r}")
        self._wait_screen(lambda screen: text in screen, f"text {text!r}", timeout)

    def wait_regex(self, pattern: str, timeout: float | None = None) -> None:
        """Waits until `pattern` matches the screen text (not multi-line unless it says (?m),
        like tuicast's regex)."""
        rx = re.compile(pattern)
        self._log(f"wait for /{pattern}/")
        self._wait_screen(lambda screen: rx.search(screen) is not None, f"/{pattern}/", timeout)

    def wait_gone(self, text: str, timeout: float | None = None) -> None:
        """Waits until the screen no longer contains `text`."""
        self._log(f"wait until {text!r} is gone")
        self._wait_screen(lambda screen: text not in screen, f"{text!r} to go", timeout)

    def wait_cursor(self, row: int, col: int, timeout: float | None = None) -> None:
        """Waits until the cursor is at 0-based (`row`, `col`)."""
        self._log(f"wait for the cursor at {row},{col}")
        self._wait_screen(lambda _: self.cursor() == (row, col), f"cursor {row},{col}", timeout)

    def cursor(self) -> tuple[int, int]:
        cy, cx = self.tmux("display-message", "-p", "-t", self._session, "#{cursor_y} #{cursor_x}").split()
        return int(cy), int(cx)

    def wait_idle(self, idle: float | None = None, timeout: float | None = None) -> None:
        """Waits until no output byte has been written for `idle` seconds, and none sent: the
        quiet counts from the last key too, and after keys the program's answer (any output)
        is awaited first, for up to `ANSWER_TIMEOUT`."""
        idle = self.idle if idle is None else idle
        if self._awaiting is not None:
            before, self._awaiting = self._awaiting, None
            deadline = time.monotonic() + ANSWER_TIMEOUT
            while self._poll_size() <= before and time.monotonic() < deadline:
                time.sleep(POLL)
        self._poll_size()
        self._wait(
            lambda: time.monotonic() - self._last_change >= idle, f"{idle}s of quiet", timeout
        )

    def sleep(self, secs: float) -> None:
        """Lets time pass."""
        until = time.monotonic() + secs
        while time.monotonic() < until:
            self._poll_size()
            time.sleep(min(POLL, max(0.0, until - time.monotonic())))

    # -- driving -----------------------------------------------------------------------------

    def type(self, text: str) -> None:
        """Types `text`: the text itself (control characters too, as tuicast writes them)."""
        self._log(f"type {text!r}")
        if any(ord(c) < 0x20 or ord(c) == 0x7F for c in text):
            self._send_bytes(text)
        else:
            self._send_literal(text)
        self._sent()

    def press(self, *keys: str) -> None:
        """Presses keys by tuicast name (src/record/keys.rs: Enter, Esc, Up, C-c, M-x, F5,
        Backspace, Space, ...): the bytes tuicast sends, in the pane's cursor-key mode."""
        self._log(f"press {' '.join(keys)}")
        for key in keys:
            fmt = "#{keypad_cursor_flag}"
            app_cursor = self.tmux("display-message", "-p", "-t", self._session, fmt).strip() == "1"
            self._send_bytes(key_bytes(key, app_cursor))
        self._sent()

    def _send_literal(self, text: str) -> None:
        """Sends text without control characters as it is. tmux takes an argument that ends in
        `;` for a command separator (it would drop the `;`), so trailing semicolons go as bytes."""
        body = text.rstrip(";")
        if body:
            self.tmux("send-keys", "-t", self._session, "-l", body)
        if len(body) < len(text):
            self.tmux("send-keys", "-t", self._session, "-H", *(["3b"] * (len(text) - len(body))))

    def _send_bytes(self, text: str) -> None:
        if not text.isascii():
            # tmux's -H takes ASCII only; text without control characters goes as it is
            if any(ord(c) < 0x20 or ord(c) == 0x7F for c in text):
                raise RecordError(f"cannot send {text!r}: control characters with non-ASCII")
            self._send_literal(text)
            return
        self.tmux("send-keys", "-t", self._session, "-H", *(f"{ord(c):02x}" for c in text))

    def _sent(self, answer: bool = True) -> None:
        # Quiet is measured from the last key too: a checkpoint right after a key press waits
        # for the program's answer instead of counting the quiet before the key.
        size = self._poll_size()
        self._last_change = time.monotonic()
        if answer:
            self._awaiting = size

    def _take(self, what: str) -> tuple[int, str, dict]:
        """The output size, the screen and its capture, taken while no output came."""
        for attempt in range(50):
            size = self.output_size()
            screen = self.screen()
            captured = self.capture()
            # nothing came meanwhile: the screen matches exactly `size` bytes of output
            if self.output_size() == size:
                return size, screen, captured
            self._log(f"output changed while taking {what}; again")
            time.sleep(POLL)
        raise RecordError(f"output kept changing while taking {what}")

    def checkpoint(self, label: str) -> str:
        """Marks a checkpoint after the output so far (no wait of its own: a scenario waits
        for idle first); returns (and keeps) the screen tmux shows."""
        if label == "end":
            raise RecordError("`end` is the implicit final checkpoint")
        if label in self.oracle:
            raise RecordError(f"checkpoint {label!r} taken twice")
        size, screen, captured = self._take(f"checkpoint {label!r}")
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
        self._sent(answer=False)

    def cut(self) -> None:
        """Ends the recording here, with the program still running: keeps the screen as the
        `end` checkpoint and stops the cast after the output so far (no exit event). `close`
        then kills the program's whole process tree."""
        size, self.oracle["end"], self.captures["end"] = self._take("the end")
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
        """Writes the cast."""
        if self.exit_code is None and "end" not in self.oracle:
            self.wait_exit()
        self.out.parent.mkdir(parents=True, exist_ok=True)
        self.out.write_text(self.cast_text(), encoding="utf-8")
        self._finished = True
        self._log(f"wrote {self.out} ({self.out.stat().st_size} bytes)")
