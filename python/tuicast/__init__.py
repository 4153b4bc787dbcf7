"""tuicast for Python: the ``tuicast`` binary this wheel installs, live sessions for tests
of terminal programs (:class:`Session`, :func:`assert_screen`, in :mod:`tuicast.session`),
and the pytest plugin (:mod:`tuicast.pytest_plugin`, loaded by pytest through the
``pytest11`` entry point).

The binary does the work (recording, replay, the sessions, the checks, their messages); this
package only finds it and drives ``tuicast test`` and ``tuicast session`` through their JSON
interfaces. See docs/python.md.
"""

import os
import shutil
import sysconfig
from pathlib import Path
from typing import Optional

__all__ = ["binary", "update_fixes", "Session", "SessionError", "assert_screen"]

#: The environment variable naming the tuicast binary to use instead of the installed one.
BIN_ENV = "TUICAST_BIN"


def binary(explicit: Optional[str] = None) -> str:
    """The tuicast binary: ``explicit`` when given, else ``$TUICAST_BIN``, else the one pip
    installed beside this Python's scripts (the wheel's), else ``tuicast`` on ``PATH``.

    Raises :class:`FileNotFoundError` when there is none.
    """
    for candidate in (explicit, os.environ.get(BIN_ENV)):
        if candidate:
            path = shutil.which(candidate) or candidate
            if not os.access(path, os.X_OK):
                raise FileNotFoundError(f"tuicast binary {candidate!r} is not an executable")
            return path
    scripts = sysconfig.get_path("scripts")
    if scripts:
        installed = Path(scripts) / "tuicast"
        if installed.is_file() and os.access(installed, os.X_OK):
            return str(installed)
    on_path = shutil.which("tuicast")
    if on_path:
        return on_path
    raise FileNotFoundError(
        "no tuicast binary: `pip install tuicast` installs it, or name one with "
        f"--tuicast-bin or {BIN_ENV}"
    )


def update_fixes(record) -> bool:
    """Whether writing the goldens (``--tuicast-update``, ``tuicast test --update``) fixes the
    failure of ``record``, a test record of ``tuicast test --message-format json``: a golden
    that is missing or differs, and nothing else wrong. A wait that timed out, a recording or
    an expectation that failed, a declaration that selects nothing carry an ``error``, which
    no update fixes, so no update is suggested for them.
    """
    if record.get("passed") or record.get("error"):
        return False
    return any(s.get("status") in ("missing", "mismatch") for s in record.get("snapshots", []))


# (After `binary`: the sessions run it.)
from .session import Session, SessionError, assert_screen  # noqa: E402
