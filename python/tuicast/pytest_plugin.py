"""pytest plugin: every test of a tuicast project (each checkpoint of each cast, each
``[[check.expect]]``) is a pytest item, checked by the tuicast binary.

Nothing of tuicast is done again here. Collection asks ``tuicast test --list --message-format
json`` once per session which tests there are, and each cast file (or a scenario that has no
cast yet) that pytest walks becomes a collector of its tests. The first item to run starts one
``tuicast test --message-format json`` for every selected item (``--exact -k NAME`` for each
when pytest selected only some), and each item takes its own record from that stream as it
comes: casts are replayed or recorded live exactly as ``tuicast test`` would (live for
scenarios that run the project's code), and a failure is tuicast's own message. docs/python.md
has the options, item names and numbers.
"""

import json
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from . import binary, update_fixes

#: The stanza of the JSON lines that lists a test (``tuicast test --list``).
LISTED = "listed"


def pytest_addoption(parser):
    group = parser.getgroup("tuicast", "tuicast: checkpoints of terminal casts as tests")
    group.addoption(
        "--tuicast-root",
        metavar="DIR",
        help="the tuicast project to test (default: the nearest folder above the current one "
        "with a tuicast.toml, as tuicast finds it; ini: tuicast_root)",
    )
    group.addoption(
        "--tuicast-update",
        action="store_true",
        help="write every mismatching or missing golden (tuicast test --update, "
        "TUICAST_UPDATE=always); TUICAST_UPDATE=new|no|auto is passed on as it is",
    )
    group.addoption(
        "--tuicast-live",
        action="store_true",
        help="record every cast that has a scenario live (tuicast test --live)",
    )
    group.addoption(
        "--tuicast-replay",
        action="store_true",
        help="replay every cast as committed (tuicast test --replay)",
    )
    group.addoption(
        "--tuicast-bin",
        metavar="PATH",
        help="the tuicast binary (default: $TUICAST_BIN, else the one this package installed; "
        "ini: tuicast_bin)",
    )
    parser.addini("tuicast_root", "the tuicast project to test, relative to the ini file")
    parser.addini("tuicast_bin", "the tuicast binary to run")


def pytest_configure(config):
    root = _project_root(config)
    if root is not None:
        config.pluginmanager.register(TuicastSession(config, root), "tuicast-session")


def _project_root(config):
    """The folder tuicast runs in: named by the option or the ini file, else the nearest one
    with a tuicast.toml above where pytest runs (then above its rootdir); None: no project,
    and the plugin does nothing."""
    here = Path(config.invocation_params.dir)
    named = config.getoption("tuicast_root")
    if named:
        return (here / named).resolve()
    named = config.getini("tuicast_root")
    if named:
        base = Path(config.inipath).parent if config.inipath else Path(config.rootpath)
        return (base / named).resolve()
    for start in (here, Path(config.rootpath)):
        start = start.resolve()
        for folder in (start, *start.parents):
            if (folder / "tuicast.toml").is_file():
                return folder
    return None


class TuicastFailure(Exception):
    """A tuicast test that failed: its message is the one tuicast prints."""


class TuicastSession:
    """The plugin's state for one pytest session: the listed tests, the one run of them."""

    def __init__(self, config, root):
        self.config = config
        self.root = root
        if config.getoption("tuicast_live") and config.getoption("tuicast_replay"):
            raise pytest.UsageError("--tuicast-live and --tuicast-replay exclude each other")
        self.mode = []
        if config.getoption("tuicast_live"):
            self.mode = ["--live"]
        elif config.getoption("tuicast_replay"):
            self.mode = ["--replay"]
        self.update = config.getoption("tuicast_update")
        self.listed = []  # every test tuicast lists, in its order
        self.by_file = {}  # a cast (or a cast-less scenario) -> the key of its case
        self.cases = {}  # a case's key (its cast) -> its tests
        self.claimed = set()  # cases a collector was made for
        self.collected = []  # the items made
        self.selected = None  # the items pytest will run (after -k, --deselect)
        self.run = None  # the one `tuicast test` of the session, once started
        self.results = {}
        self.updated = []
        self.stderr = ""

    # -- collection --

    def _binary(self):
        try:
            return binary(self.config.getoption("tuicast_bin") or self.config.getini("tuicast_bin"))
        except FileNotFoundError as e:
            raise pytest.UsageError(str(e)) from None

    def _env(self):
        env = dict(os.environ)
        # The scenario's `python3` is this pytest's Python, its packages the ones installed
        # beside pytest: tuicast keeps an activated virtualenv on the recording's PATH.
        if sys.prefix != sys.base_prefix:
            env["VIRTUAL_ENV"] = sys.prefix
        return env

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection(self, session):
        command = [self._binary(), "test", "--list", "--message-format", "json", *self.mode]
        done = subprocess.run(
            command, cwd=self.root, env=self._env(), capture_output=True, text=True
        )
        if done.returncode != 0:
            raise pytest.UsageError(
                f"tuicast could not list the tests of {self.root} (exit status "
                f"{done.returncode}):\n{done.stderr.strip()}"
            )
        for line in done.stdout.splitlines():
            message = json.loads(line)
            if LISTED in message:
                self.listed.append(message[LISTED])
        for test in self.listed:
            cast = Path(test["cast"])
            key = os.path.realpath(cast)
            self.cases.setdefault(key, []).append(test)
            self.by_file[key] = key
            # A scenario without a cast yet is collected from its TOML.
            if not cast.exists():
                self.by_file[os.path.realpath(cast.with_suffix(".toml"))] = key

    def pytest_collect_file(self, file_path, parent):
        key = self.by_file.get(os.path.realpath(file_path))
        if key is None or key in self.claimed:
            return None
        self.claimed.add(key)
        return CastFile.from_parent(parent, path=Path(file_path), tests=self.cases[key])

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, session, config, items):
        # Never test less silently: a test of the project under the paths pytest collects
        # that became no item (norecursedirs, a hidden folder), or none at all of a project
        # that has tests when pytest was given no paths of its own, is an error.
        if not self.listed:
            return
        here = Path(config.invocation_params.dir)
        scope = [(here / a.split("::")[0]).resolve() for a in config.args]
        ignored = [(here / p).resolve() for p in (config.getoption("ignore") or [])]

        def within(path, folders):
            return any(path == f or f in path.parents for f in folders)

        missed = []
        for key, tests in self.cases.items():
            if key in self.claimed:
                continue
            path = Path(key) if Path(key).exists() else Path(key).with_suffix(".toml")
            if within(path, scope) and not within(path, ignored):
                missed.extend(t["test"] for t in tests)
        if missed:
            raise pytest.UsageError(
                f"{len(missed)} tuicast test(s) of {self.root} were not collected although "
                f"their casts are below the paths pytest collects (norecursedirs? a hidden "
                f"folder?): {', '.join(missed[:20])}"
            )
        sources = getattr(getattr(pytest, "Config", None), "ArgsSource", None)
        if sources is not None:
            explicit = config.args_source == sources.ARGS
        else:  # pytest before 7.3: paths on the command line
            explicit = any(not str(a).startswith("-") for a in config.invocation_params.args)
        if not self.claimed and not explicit:
            raise pytest.UsageError(
                f"the tuicast project {self.root} has {len(self.listed)} test(s) but pytest "
                f"collected none: its casts are outside {', '.join(config.args)} (add the "
                "casts folder to testpaths, or run pytest there; -p no:tuicast turns the "
                "plugin off)"
            )

    def pytest_collection_finish(self, session):
        self.selected = [i for i in session.items if isinstance(i, TrialItem)]

    # -- running --

    def result(self, item):
        """The record of `item`'s test, from the session's one run (started now if needed)."""
        if self.run is None:
            self._start()
        key = (item.case_key, item.test["test"])
        while key not in self.results and self._read_one():
            pass
        if key not in self.results:
            status = self.run.wait()
            self._read_stderr()
            raise TuicastFailure(
                f"tuicast test gave no result for {item.test['test']} (exit status {status})"
                + (f":\n{self.stderr.strip()}" if self.stderr.strip() else "")
            )
        return self.results[key]

    def _start(self):
        chosen = self.selected if self.selected is not None else self.collected
        command = [self._binary(), "test", "--message-format", "json", *self.mode]
        if self.update:
            command.append("--update")
        names = {t["test"] for t in self.listed}
        wanted = {i.test["test"] for i in chosen}
        if wanted != names:
            command.append("--exact")
            for name in sorted(wanted):
                command += ["-k", name]
        self.stderr_file = tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace")
        self.run = subprocess.Popen(
            command,
            cwd=self.root,
            env=self._env(),
            stdout=subprocess.PIPE,
            stderr=self.stderr_file,
            stdin=subprocess.DEVNULL,
            text=True,
            encoding="utf-8",
            errors="replace",
        )

    def _read_one(self):
        line = self.run.stdout.readline()
        if not line:
            return False
        message = json.loads(line)
        if "test" in message:
            key = (os.path.realpath(message["cast"]), message["test"])
            self.results[key] = message
        return True

    def _read_stderr(self):
        self.stderr_file.seek(0)
        self.stderr = self.stderr_file.read()

    def pytest_sessionfinish(self, session):
        if self.run is None:
            return
        if self.run.poll() is None and len(self.results) < len(self.selected or []):
            # Stopped early (-x, an interrupt): tuicast ends its recordings cleanly on SIGTERM.
            self.run.terminate()
        self.run.stdout.read()
        self.run.wait()
        self._read_stderr()
        self.stderr_file.close()

    def pytest_terminal_summary(self, terminalreporter):
        if self.updated:
            terminalreporter.write_line(
                f"tuicast: {len(self.updated)} test(s) wrote their goldens: "
                + ", ".join(sorted(self.updated))
            )
        if self.stderr.strip():
            terminalreporter.section("tuicast stderr")
            terminalreporter.write_line(self.stderr.rstrip())


class CastFile(pytest.File):
    """A cast (or a scenario without its cast yet): a collector of its tuicast tests."""

    def __init__(self, *, tests, **kwargs):
        super().__init__(**kwargs)
        self.tests = tests

    def collect(self):
        for test in self.tests:
            yield TrialItem.from_parent(self, name=item_name(test), test=test)


def item_name(test):
    """An item's name: the checkpoint, `CHECKPOINT[EXPECT]` for an expectation (so that
    `cast::CHECKPOINT` also selects its expectations), the cast's name for a cast that does
    not read."""
    if not test["checkpoint"]:
        return Path(test["test"]).name
    if test["expect"] is not None:
        return f"{test['checkpoint']}[{test['expect']}]"
    return test["checkpoint"]


class TrialItem(pytest.Item):
    """One tuicast test: a checkpoint's goldens or one expectation."""

    def __init__(self, *, test, **kwargs):
        super().__init__(**kwargs)
        self.test = test
        self.case_key = os.path.realpath(test["cast"])
        self.user_properties.append(("tuicast_test", test["test"]))
        self.user_properties.append(("tuicast_live", test["live"]))
        session = self.config.pluginmanager.get_plugin("tuicast-session")
        session.collected.append(self)

    def runtest(self):
        session = self.config.pluginmanager.get_plugin("tuicast-session")
        record = session.result(self)
        if any(s["status"] == "updated" for s in record["snapshots"]) and record["passed"]:
            session.updated.append(record["test"])
        if not record["passed"]:
            message = record.get("message") or record.get("error") or "failed"
            # Only where it fixes the failure (a golden to write), never for a wait that
            # timed out or a failed expectation.
            if not session.update and update_fixes(record):
                message = message.rstrip("\n") + (
                    f"\nor, from pytest: pytest --tuicast-update {shlex.quote(self.nodeid)}"
                )
            raise TuicastFailure(message)

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, TuicastFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        line = self.test["line"]
        return self.path, (line - 1 if line else None), f"tuicast {self.test['test']}"


# -- live sessions (tuicast.Session) in any test --


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    from . import session as sessions

    sessions.captured.clear()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A test that failed with a :class:`tuicast.Session` (left by the exception, or still
    running) gets each session's screen in its report: the text as a section ``tuicast
    screen ID``, the PNG's path in ``user_properties`` (``tuicast_screen_png``), and both as
    pytest-html extras when pytest-html is there."""
    outcome = yield
    report = outcome.get_result()
    if not report.failed or call.when == "teardown":
        return
    from . import session as sessions

    for live in sessions.live_sessions():
        live.capture()
    html = item.config.pluginmanager.getplugin("html")
    for shot in sessions.captured:
        report.sections.append((f"tuicast screen {shot.id}", shot.text))
        # The item's, which the teardown's report (the one `--junitxml` reads) copies, and
        # this report's, made already.
        properties = [("tuicast_screen", shot.text)]
        if shot.png is not None:
            properties.append(("tuicast_screen_png", str(shot.png)))
        item.user_properties.extend(properties)
        report.user_properties.extend(properties)
        if html is not None and hasattr(html, "extras"):
            extras = getattr(report, "extras", [])
            extras.append(html.extras.text(shot.text, name=f"tuicast screen {shot.id}"))
            if shot.png is not None:
                extras.append(html.extras.image(str(shot.png), name=f"tuicast {shot.id}.png"))
            report.extras = extras
    sessions.captured.clear()
