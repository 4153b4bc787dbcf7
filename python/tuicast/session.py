"""Live sessions for tests of terminal programs: :class:`Session` drives a program in a
pseudo-terminal through the ``tuicast session`` commands of the binary in this wheel (one
command per call, each answering with one JSON object, see docs/agents.md), and
:func:`assert_screen` checks its screen against a golden of the project with tuicast's own
check (``tuicast session check``): the same update modes, ``.new`` files, ``tuicast review``
and ``tuicast accept`` as the goldens of casts and of Rust's ``assert_screen!``.
"""

import itertools
import json
import os
import subprocess
import tempfile
import weakref
from pathlib import Path
from typing import Any, Dict, Iterator, List, Mapping, Optional, Sequence, Union

from . import binary

__all__ = ["Session", "SessionError", "assert_screen", "live_sessions"]

#: Every session of this process that has not stopped (the pytest plugin attaches their
#: screens to a failing test's report).
_live: "weakref.WeakSet[Session]" = weakref.WeakSet()
_counter = itertools.count(1)

#: The longest text :meth:`Session.type` and :meth:`Session.paste` send (tuicast's limit).
MAX_TEXT = 1024 * 1024


class Capture:
    """A session's screen kept for a report: its id, the text and the PNG file (or None)."""

    def __init__(self, id: str, text: str, png: Optional[Path]):
        self.id = id
        self.text = text
        self.png = png


#: Screens :meth:`Session.capture` kept (a session left by an exception captures its own);
#: the pytest plugin empties it before each test.
captured: List[Capture] = []


class SessionError(Exception):
    """A ``tuicast session`` command that failed: ``message`` is tuicast's ``error`` (for a
    screen that differs from its golden, the diff and the command that accepts it), ``exit``
    its exit status (1: a wait or check failed, 2: bad input), ``reply`` the whole JSON reply.
    """

    def __init__(self, message: str, exit: int, reply: Dict[str, Any]):
        super().__init__(message)
        self.message = message
        self.exit = exit
        self.reply = reply


PathLike = Union[str, "os.PathLike[str]"]


class Session:
    """A program running in a live terminal, driven as a scenario drives it.

    Use it as a context manager: the program starts on entry and is stopped on exit, also
    when the block raises::

        with tuicast.Session(["python3", "app.py"], size="80x24") as s:
            s.wait_text("Sign up")
            s.type("Ada")
            s.press("Tab")
            tuicast.assert_screen(s, "filled")

    ``command`` is the argv (a string is run by ``bash -c``); ``size`` ``"COLSxROWS"``;
    ``cwd`` the folder the program runs in (default: the current one); ``env`` variables
    set for the program on top of tuicast's clean environment (passed as ``env NAME=VALUE``);
    ``timeout`` each wait's default (``"10s"``); ``bin`` the tuicast binary (default:
    :func:`tuicast.binary`). Every method returns tuicast's JSON reply as a dict, and raises
    :class:`SessionError` when the command fails.
    """

    def __init__(
        self,
        command: Union[str, Sequence[str]],
        size: str = "80x24",
        cwd: Optional[PathLike] = None,
        env: Optional[Mapping[str, str]] = None,
        timeout: Optional[str] = None,
        bin: Optional[str] = None,
    ):
        if isinstance(command, str):
            argv = ["bash", "-c", command]
        else:
            argv = [str(a) for a in command]
        if not argv:
            raise ValueError("the command is empty")
        if env:
            for key in env:
                if not key or "=" in key:
                    raise ValueError(f"not an environment variable name: {key!r}")
            argv = ["env", *(f"{k}={v}" for k, v in env.items()), *argv]
        self.command: List[str] = argv
        self.size = size
        self.cwd = Path(cwd) if cwd is not None else Path.cwd()
        self.timeout = timeout
        self.bin = binary(bin)
        #: The session's id: unique in this process and among processes (the pid is in it).
        self.id = f"py{os.getpid()}-{next(_counter)}"
        self.last: Dict[str, Any] = {}
        self._running = False

    # -- lifetime --

    def start(self) -> Dict[str, Any]:
        """Starts the program (``tuicast session start``); the context manager calls it."""
        args = ["start", "--name", self.id, "--size", self.size]
        if self.timeout:
            args += ["--timeout", self.timeout]
        reply = self._run(args + ["--", *self.command])
        self._running = True
        _live.add(self)
        return reply

    def stop(self, save: Optional[PathLike] = None, force: bool = False) -> Dict[str, Any]:
        """Ends the program and everything it started; with ``save``, writes ``SAVE.cast``
        and ``SAVE.toml`` (the scenario that records it again). Stopping twice is no error."""
        if not self._running:
            return self.last
        self._running = False
        _live.discard(self)
        args = ["stop", self.id]
        if save is not None:
            args += ["--save", str(save)]
            if force:
                args.append("--force")
        return self._run(args)

    def save(self, path: PathLike, force: bool = False) -> Dict[str, Any]:
        """Stops the session and saves it as ``PATH.cast`` and ``PATH.toml``."""
        return self.stop(save=path, force=force)

    def __enter__(self) -> "Session":
        self.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        if exc[0] is not None and self._running:
            # The screen the test failed on, for the pytest plugin's report: the session
            # is gone once the test's report is made.
            self.capture()
        try:
            self.stop()
        except SessionError:
            if exc[0] is None:
                raise

    # -- input --

    def press(self, *keys: str) -> Dict[str, Any]:
        """Presses keys by name, in order: ``press("Tab")``, ``press("C-c")``,
        ``press("Esc", ":", "q", "Enter")``."""
        if not keys:
            raise ValueError("press needs a key")
        return self._run(["press", self.id, *keys])

    def type(self, text: str) -> Dict[str, Any]:
        """Types ``text`` (never echoed back in the reply)."""
        return self._run(["type", self.id, "--stdin"], stdin=_checked(text))

    def paste(self, text: str) -> Dict[str, Any]:
        """Pastes ``text``: bracketed when the program asked for bracketed paste."""
        return self._run(["paste", self.id, "--stdin"], stdin=_checked(text))

    # -- waits --

    def wait_text(self, text: str, timeout: Optional[str] = None) -> Dict[str, Any]:
        """Waits until ``text`` is on the screen; raises :class:`SessionError` on timeout."""
        return self._wait(["--text", text], timeout)

    def wait_ref(self, selector: str, gone: bool = False, timeout: Optional[str] = None
                 ) -> Dict[str, Any]:
        """Waits until a ref the selector finds is there (``gone``: until none is), e.g.
        ``wait_ref('@dialog.button("OK")[focused]')``."""
        return self._wait(["--ref", selector] + (["--gone"] if gone else []), timeout)

    def wait_idle(self, period: str = "300ms", timeout: Optional[str] = None) -> Dict[str, Any]:
        """Waits until nothing changed and nothing was written for ``period``."""
        return self._wait(["--idle", period], timeout)

    def wait_changed(self, screen_hash: Optional[str] = None, timeout: Optional[str] = None
                     ) -> Dict[str, Any]:
        """Waits until the screen is no longer the one of ``screen_hash`` (default: the
        screen of the last reply)."""
        if screen_hash is None:
            screen_hash = self.last.get("screen_hash")
        if not screen_hash:
            raise ValueError("no screen_hash to wait for a change of")
        return self._wait(["--changed", screen_hash], timeout)

    # -- the screen --

    def text(self) -> str:
        """The screen as text (trailing blanks and blank bottom rows removed)."""
        return self._run(["status", self.id])["screen"]

    def inspect(self) -> Dict[str, Any]:
        """The screen's outline, refs and prompt, as ``tuicast inspect --json``."""
        return self._run(["inspect", self.id])["inspect"]

    def snapshot(self, path: PathLike) -> Path:
        """Writes the screen to ``path``: a PNG for ``.png``, JSON (the screen with styles)
        for ``.json``, else text. Returns the path."""
        path = Path(path).absolute()
        fmt = {".png": "png", ".json": "json"}.get(path.suffix.lower(), "text")
        self._run(["snapshot", self.id, "--format", fmt, "-o", str(path)])
        return path

    def events(self, since: Optional[int] = None) -> Iterator[Dict[str, Any]]:
        """The session's events as they come (``tuicast session events``), one dict each:
        the screen first (``type`` ``"screen"``, ``full`` true), then every screen change
        (its hash, the changed rectangle, the new text of the changed rows), prompts, the
        title, bells, and the exit, which ends it. ``since`` (an event's ``seq``) starts
        after that event while the daemon still keeps it (else a ``"lost"`` event first).
        Leave early with ``break`` or ``close()``: the stream is closed with the generator.
        Raises :class:`SessionError` when the session cannot be watched::

            for event in s.events():
                if event["type"] == "bell":
                    break
        """
        args = [self.bin, "session", "events", self.id]
        if since is not None:
            args += ["--since", str(int(since))]
        proc = subprocess.Popen(
            args,
            cwd=self.cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            errors="replace",
        )
        try:
            assert proc.stdout is not None
            for line in proc.stdout:
                if not line.strip():
                    continue
                event = json.loads(line)
                if isinstance(event, dict) and event.get("error"):
                    raise SessionError(event["error"], int(event.get("exit", 2)), event)
                yield event
            # The stream ended without an error reply: a failure is told on stderr alone.
            code = proc.wait()
            if code != 0:
                assert proc.stderr is not None
                raise SessionError(
                    f"tuicast session events ended with exit status {code}: "
                    f"{proc.stderr.read().strip()}",
                    code,
                    {},
                )
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
            if proc.stdout is not None:
                proc.stdout.close()
            if proc.stderr is not None:
                proc.stderr.close()

    def capture(self) -> Optional["Capture"]:
        """The screen now as text and a PNG (in a new temporary folder), kept in
        :data:`captured` for the pytest plugin; ``None`` when the session cannot show it."""
        try:
            text = self.text()
            folder = Path(tempfile.mkdtemp(prefix="tuicast-screen-"))
            png: Optional[Path] = self.snapshot(folder / f"{self.id}.png")
        except SessionError:
            return None
        except OSError:
            png = None
        shot = Capture(self.id, text, png)
        captured.append(shot)
        return shot

    # -- plumbing --

    def _wait(self, args: List[str], timeout: Optional[str]) -> Dict[str, Any]:
        if timeout:
            args = args + ["--timeout", timeout]
        return self._run(["wait", self.id, *args])

    def _run(self, args: List[str], stdin: Optional[str] = None) -> Dict[str, Any]:
        done = subprocess.run(
            [self.bin, "session", *args],
            cwd=self.cwd,
            input=stdin if stdin is not None else "",
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="replace",
        )
        try:
            reply = json.loads(done.stdout)
        except ValueError:
            raise SessionError(
                f"tuicast session {args[0]} gave no reply (exit status {done.returncode}): "
                f"{done.stderr.strip() or done.stdout.strip()}",
                done.returncode or 2,
                {},
            ) from None
        if not isinstance(reply, dict):
            raise SessionError(f"tuicast session {args[0]}: not a reply: {reply!r}", 2, {})
        if reply.get("screen_hash"):
            self.last = reply
        if done.returncode != 0 or reply.get("error"):
            raise SessionError(
                reply.get("error") or f"exit status {done.returncode}",
                int(reply.get("exit", done.returncode)),
                reply,
            )
        return reply

    def __repr__(self) -> str:
        return f"<tuicast.Session {self.id} {' '.join(self.command)!r}>"


def live_sessions() -> List[Session]:
    """The sessions of this process that were started and not stopped."""
    return list(_live)


def assert_screen(session: Session, name: str) -> None:
    """Checks the session's settled screen against the golden ``NAME`` of the project the
    session runs in (``snapshots/@screens/NAME.txt``), as tuicast checks every golden:
    ``TUICAST_UPDATE`` decides what a mismatch writes (``GOLDEN.new`` to review with
    ``tuicast review`` / ``tuicast accept``, nothing under CI, the golden with ``always``).
    A missing or changed screen raises :class:`AssertionError` with tuicast's message (the
    diff and the command that accepts it); ``.__cause__`` is the :class:`SessionError`.
    """
    try:
        session._run(["check", session.id, name])
    except SessionError as e:
        if e.exit == 1 and "check" in e.reply:
            raise AssertionError(e.message) from e
        raise


def _checked(text: str) -> str:
    if len(text.encode("utf-8")) > MAX_TEXT:
        raise ValueError(f"the text is over tuicast's limit of {MAX_TEXT} bytes")
    return text
