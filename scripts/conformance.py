#!/usr/bin/env python3
"""Records tuicast's terminal conformance corpus in tests/conformance/ (never edit it by hand).

Every case runs a real program in a private tmux server under util-linux `script` (see
record_tmux.py), drives it with `tmux send-keys`, and at every checkpoint keeps what tmux
shows: `capture-pane -p -e -N` (text, SGR styles, DEC line drawing between SO and SI) and the
cursor. The byte log becomes an asciicast v3 cast with an `m` marker at each checkpoint (and an
`r` event where the window was resized); a recording that does not end with its program is cut
after its last checkpoint. Then the second oracle, @xterm/headless, replays the same cast
(tests/conformance/oracle-xterm/replay.mjs). The manifest names, for each checkpoint, the
oracle the agreement test believes, and why when it is not tmux.

    scripts/conformance.py record [NAME...]   record cases (default: all), then run xterm
    scripts/conformance.py xterm [NAME...]    replay the committed casts with @xterm/headless
    scripts/conformance.py list               the cases and their programs

Files (tests/conformance/):
    cases/NAME.cast              the recording
    tmux/NAME/CHECKPOINT.ans     tmux's capture at the checkpoint (`end`: the final screen)
    xterm/NAME/CHECKPOINT.ans    @xterm/headless's screen, written the same way
    manifest.json                cases, checkpoints, oracles, cursors

Needs python3 (3.11), tmux, util-linux script, node and npm, and the programs:
    apt-get install tmux vttest dialog whiptail vim less man-db nano mc htop procps tig \\
        ncdu git
After recording, `TUICAST_BLESS_CONFORMANCE=1 cargo test --test it conformance` refreshes
docs/conformance.md. CI needs none of this: it only replays the committed casts.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))
from record_tmux import Recorder, RecordError  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "conformance"
XTERM_DIR = CORPUS / "oracle-xterm"
BASH = "bash --norc --noprofile"

#: Why a checkpoint believes @xterm/headless rather than tmux.
DECCOLM = (
    "132-column mode (DECCOLM): tmux clears the screen but keeps 80 columns, "
    "a VT100 and xterm (with its 132-column option) switch to 132"
)
AUTOWRAP = (
    "autowrap mixed with control characters (vttest): after BS, TAB and LF at the right "
    "margin in origin mode tmux puts letters in the wrong rows; a VT100 and xterm keep them "
    "in order"
)
ORIGIN_STBM = (
    "DECSTBM in origin mode: tmux homes the cursor to the top-left of the screen, a VT100 "
    "and xterm to the top of the new scroll region"
)
NRCS = (
    "national character sets: tmux knows only US ASCII and DEC graphics "
    "(ESC ( A shows # where a VT100 shows £)"
)


@dataclass
class Case:
    name: str
    program: str
    command: str
    size: tuple[int, int]
    steps: Callable[["Run"], None]
    setup: Callable[[Path], None] | None = None
    env: dict[str, str] | None = None
    timeout: float = 15.0


CASES: list[Case] = []


def case(name, program, command=BASH, size=(80, 24), setup=None, env=None, timeout=15.0):
    def register(steps):
        CASES.append(Case(name, program, command, size, steps, setup, env, timeout))
        return steps

    return register


class Run:
    """A recording in progress: the Recorder plus the oracle choice of each checkpoint."""

    def __init__(self, rec: Recorder, work: Path):
        self.rec = rec
        self.work = work
        self.oracles: dict[str, tuple[str, str | None]] = {}
        self.count = 0

    def snap(self, label: str, oracle: str = "tmux", why: str | None = None) -> None:
        self.rec.checkpoint(label)
        self.oracles[label] = (oracle, why)

    def end(self, oracle: str = "tmux", why: str | None = None) -> None:
        """Cuts the recording here; the final screen is checkpoint `end`."""
        self.rec.cut()
        self.oracles["end"] = (oracle, why)

    def exit(self, oracle: str = "tmux", why: str | None = None) -> None:
        """Waits for the program to exit; the final screen is checkpoint `end`."""
        self.rec.wait_exit()
        self.oracles["end"] = (oracle, why)

    def sh(self, command: str, wait: str | None = None, regex: str | None = None) -> None:
        """Types a shell command and presses Enter; waits for `wait` or `regex`, then quiet."""
        self.rec.type(command)
        self.rec.press("Enter")
        if wait is not None:
            self.rec.wait_text(wait)
        if regex is not None:
            self.rec.wait_regex(regex)
        self.rec.wait_idle()

    def keys(self, *keys: str, idle: float | None = None) -> None:
        """Presses keys (tmux names) and waits for the output to settle."""
        before = self.rec.output_size()
        self.rec.press(*keys)
        self.settle(before, idle)

    def text(self, text: str, idle: float | None = None) -> None:
        before = self.rec.output_size()
        self.rec.type(text)
        self.settle(before, idle)

    def settle(self, before: int, idle: float | None = None, timeout: float = 5.0) -> None:
        """Waits for output beyond `before` bytes (if any comes), then for quiet."""
        deadline = time.monotonic() + timeout
        while self.rec.output_size() <= before and time.monotonic() < deadline:
            time.sleep(0.02)
        self.rec.wait_idle(idle)

    def wait(self, text: str) -> None:
        self.rec.wait_text(text)

    def wait_regex(self, pattern: str) -> None:
        self.rec.wait_regex(pattern)


# ------------------------------------------------------------------------------------------
# vttest: every screen of menus 1, 2, 3 and 8
# ------------------------------------------------------------------------------------------

VTTEST_MENU = "Enter choice number"


def vttest_menu(
    r: Run, choice: str, names: list[str], wide: set[int], nrcs=frozenset(), other=None
):
    """Runs one vttest menu item and snaps every screen until the main menu is back.
    `wide` and `nrcs` are the 0-based screens that need the xterm oracle, `other` maps more
    of them to the reason."""
    other = other or {}
    r.wait(VTTEST_MENU)
    r.rec.wait_idle()
    r.text(choice)
    r.keys("Enter", idle=0.6)
    n = 0
    while VTTEST_MENU not in r.rec.screen():
        label = names[n] if n < len(names) else f"screen-{n + 1:02}"
        if n in wide:
            r.snap(label, "xterm", DECCOLM)
        elif n in nrcs:
            r.snap(label, "xterm", NRCS)
        elif n in other:
            r.snap(label, "xterm", other[n])
        else:
            r.snap(label)
        n += 1
        if n > 40:
            raise RecordError("vttest: too many screens")
        r.keys("Enter", idle=0.6)
    r.snap("menu")
    r.text("0")
    r.keys("Enter")
    r.exit()


@case("vttest-1-cursor-movements", "vttest", "vttest")
def _(r: Run):
    vttest_menu(
        r,
        "1",
        ["border-80", "border-132", "autowrap-80", "autowrap-132", "controls-in-esc",
         "leading-zeros"],
        wide={1, 3},
        other={2: AUTOWRAP},
    )  # fmt: skip


@case("vttest-2-screen-features", "vttest", "vttest")
def _(r: Run):
    vttest_menu(
        r,
        "2",
        ["wraparound", "tabs", "columns-132-light", "columns-80-light", "columns-132-dark",
         "columns-80-dark", "soft-scroll-region", "soft-scroll-full", "jump-scroll-region",
         "jump-scroll-full", "origin-mode-bottom", "origin-mode-top", "sgr-dark", "sgr-light",
         "save-restore"],
        wide={2, 4},
        other={10: ORIGIN_STBM},
    )  # fmt: skip


@case("vttest-3-character-sets", "vttest", "vttest")
def _(r: Run):
    vttest_menu(r, "3", ["vt100-charsets"], wide=set(), nrcs={0})


@case("vttest-8-insert-delete", "vttest", "vttest")
def _(r: Run):
    names = [
        "accordion", "accordion-done", "insert-mode", "delete-char", "dch-staggered",
        "dch-staggered-dwl", "ich",
    ]  # fmt: skip
    vttest_menu(
        r,
        "8",
        [f"{n}-80" for n in names] + [f"{n}-132" for n in names],
        wide=set(range(len(names), 2 * len(names))),
    )


# ------------------------------------------------------------------------------------------
# dialog and whiptail
# ------------------------------------------------------------------------------------------


@case("dialog-menu", "dialog", size=(80, 24))
def _(r: Run):
    r.wait("$ ")
    r.sh(
        "dialog --backtitle 'Conformance' --title 'Editor' --menu 'Pick an editor:' 14 50 5 "
        "vim 'Vi IMproved' nano 'Small and friendly' emacs 'Extensible' ed 'The standard' "
        "mc 'Midnight Commander' 2>choice.txt; echo \"choice: $(cat choice.txt)\"",
        wait="<Cancel>",
    )
    r.snap("menu")
    r.keys("Down")
    r.keys("Down")
    r.snap("third")
    r.keys("Enter")
    r.wait("choice: emacs")
    r.snap("chosen")
    r.end()


@case("dialog-checklist", "dialog", size=(100, 30))
def _(r: Run):
    r.wait("$ ")
    r.sh(
        "dialog --colors --title '\\Z1Toppings\\Zn' --checklist 'Choose \\Zbsome\\ZB:' 15 60 6 "
        "cheese 'Mozzarella' on ham 'Smoked ham' off olive 'Black olives' on "
        "basil 'Fresh basil' off chili 'Hot chili' off pineapple 'Controversial' off",
        wait="<Cancel>",
    )
    r.snap("checklist")
    r.keys("Down")
    r.keys("space")
    r.keys("Down")
    r.keys("Down")
    r.keys("space")
    r.snap("toggled")
    r.end()


@case("dialog-gauge", "dialog")
def _(r: Run):
    r.wait("$ ")
    r.sh(
        "for p in 0 20 45 70; do echo $p; sleep 0.2; done | "
        "dialog --title 'Copying' --gauge 'Copying files...' 10 60 0; sleep 30",
        wait="70%",
    )
    r.snap("gauge-70")
    r.end()


@case("whiptail", "whiptail")
def _(r: Run):
    r.wait("$ ")
    r.sh(
        "whiptail --title 'Network' --menu 'Choose an interface' 15 60 4 "
        "eth0 'Wired' wlan0 'Wireless' lo 'Loopback' tun0 'VPN tunnel' 3>&1 1>&2 2>&3",
        wait="<Cancel>",
    )
    r.snap("menu")
    r.keys("Down")
    r.keys("Tab")
    r.snap("focus-ok")
    r.keys("Escape", idle=0.6)
    r.sh("whiptail --title 'Confirm' --yesno 'Really delete all files?' 10 50", wait="<No>")
    r.snap("yesno")
    r.end()


# ------------------------------------------------------------------------------------------
# editors, pagers, file managers, monitors
# ------------------------------------------------------------------------------------------

PYTHON_SAMPLE = '''\
#!/usr/bin/env python3
"""A small module to show syntax colours."""

import sys
from dataclasses import dataclass


@dataclass
class Point:
    x: float = 0.0
    y: float = 0.0

    def norm(self) -> float:
        # the Euclidean norm
        return (self.x ** 2 + self.y ** 2) ** 0.5


def main(argv):
    points = [Point(i, i * 2) for i in range(10)]
    total = sum(p.norm() for p in points)
    print(f"total: {total:.3f}", file=sys.stderr)
    return 0 if total > 1 else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
'''

C_SAMPLE = '''\
#include <stdio.h>

/* Count the lines of standard input. */
int main(void) {
    int c, lines = 0;
    while ((c = getchar()) != EOF)
        if (c == '\\n')
            lines++;
    printf("%d lines\\n", lines);
    return 0;
}
'''


def write_samples(d: Path) -> None:
    (d / "sample.py").write_text(PYTHON_SAMPLE)
    (d / "count.c").write_text(C_SAMPLE)
    (d / "notes.txt").write_text(
        "".join(f"Note {i:02}: the quick brown fox jumps over the lazy dog\n" for i in range(60))
    )


VIM = "vim -N -i NONE -u NONE --noplugin -c 'syntax on' -c 'set background=dark'"


@case("vim-syntax", "vim", size=(100, 30), setup=write_samples)
def _(r: Run):
    r.wait("$ ")
    r.sh(f"{VIM} -c 'set number' sample.py", wait="SystemExit")
    r.snap("python")
    r.text(":e count.c")
    r.keys("Enter")
    r.snap("c-file")
    r.text("/lines")
    r.keys("Enter")
    r.text(":set hlsearch")
    r.keys("Enter")
    r.snap("search-highlight")
    r.text(":q!")
    r.keys("Enter")
    r.wait("$ ")
    r.end()


@case("vim-editing", "vim", setup=write_samples)
def _(r: Run):
    r.wait("$ ")
    r.sh(f"{VIM} -c 'set ruler showmode' notes.txt", wait="Note 00")
    r.keys("G")
    r.snap("bottom")
    r.keys("g", "g")
    r.text("3dd")
    r.keys("o")
    r.text("A new line typed in insert mode, with some words")
    r.snap("insert")
    r.keys("Escape")
    r.text("u")
    r.snap("undo")
    r.text(":%s/fox/cat/g")
    r.keys("Enter")
    r.snap("substituted")
    r.end()


@case("vim-splits", "vim", size=(120, 36), setup=write_samples)
def _(r: Run):
    r.wait("$ ")
    r.sh(f"{VIM} -c 'set laststatus=2' sample.py", wait="SystemExit")
    r.text(":vsplit count.c")
    r.keys("Enter")
    r.snap("vsplit")
    r.text(":split notes.txt")
    r.keys("Enter")
    r.snap("hsplit")
    r.keys("C-w", "w")
    r.keys("C-w", "w")
    r.snap("focus-moved")
    r.text(":qa!")
    r.keys("Enter")
    r.wait("$ ")
    r.end()


def write_pager_text(d: Path) -> None:
    lines = []
    for i in range(1, 301):
        if i % 50 == 0:
            lines.append(f"{i:04}  a line with the word target in it, number {i}")
        else:
            lines.append(f"{i:04}  " + " ".join(["lorem", "ipsum", "dolor", "sit", "amet"][: i % 5 + 1]))
    (d / "text.txt").write_text("\n".join(lines) + "\n")


@case("less", "less", setup=write_pager_text)
def _(r: Run):
    r.wait("$ ")
    r.sh("less -R text.txt", wait="0023")
    r.snap("first-page")
    r.text("/target")
    r.keys("Enter")
    r.snap("search")
    r.keys("G")
    r.snap("bottom")
    r.keys("q")
    r.end()


@case("man", "man", size=(90, 30), env={"MANPAGER": "less", "MANWIDTH": "90", "GROFF_NO_SGR": ""})
def _(r: Run):
    r.wait("$ ")
    r.sh("man ls", regex=r"LS\(1\)")
    r.snap("top")
    r.text("/--color")
    r.keys("Enter")
    r.snap("search")
    r.keys("q")
    r.end()


@case("nano", "nano", setup=write_samples)
def _(r: Run):
    r.wait("$ ")
    r.sh("nano -l sample.py", wait="^G")
    r.snap("open")
    r.keys("C-End")
    r.text("# added at the end")
    r.snap("typed")
    r.keys("C-w")
    r.text("norm")
    r.keys("Enter")
    r.snap("search")
    r.keys("C-x")
    r.snap("save-prompt")
    r.end()


def write_tree(d: Path) -> None:
    for sub, n in (("alpha", 3), ("beta", 5), ("gamma", 1)):
        (d / "tree" / sub).mkdir(parents=True, exist_ok=True)
        for i in range(n):
            (d / "tree" / sub / f"file{i}.dat").write_bytes(b"x" * (1024 * (i + 1) * (n + 1)))
    (d / "tree" / "big.bin").write_bytes(b"y" * 200_000)
    (d / "tree" / "readme.txt").write_text("hello\n")
    (d / "tree" / "run.sh").write_text("#!/bin/sh\n")
    os.chmod(d / "tree" / "run.sh", 0o755)
    fixed = 1767225600
    for p in sorted((d / "tree").rglob("*")) + [d / "tree"]:
        os.utime(p, (fixed, fixed), follow_symlinks=False)


@case("mc", "mc", size=(100, 30), setup=write_tree)
def _(r: Run):
    r.wait("$ ")
    r.sh("cd tree && mc -x -d", regex=r"readme\.txt")
    r.snap("panels")
    r.keys("Down")
    r.keys("Down")
    r.snap("cursor")
    r.keys("F9")
    r.snap("menu")
    r.keys("Escape", idle=0.8)
    r.keys("Escape", idle=0.8)
    r.keys("F7")
    r.snap("mkdir-dialog")
    r.end()


@case("htop", "htop", size=(120, 32))
def _(r: Run):
    r.wait("$ ")
    r.sh("htop -d 100 -u nobody", regex=r"F10\s*Quit")
    r.snap("main")
    r.keys("F1")
    r.snap("help")
    r.keys("Escape", idle=0.6)
    r.keys("F2")
    r.snap("setup")
    r.end()


@case("top", "top", size=(100, 30))
def _(r: Run):
    r.wait("$ ")
    r.sh("top -d 30 -u nobody", regex=r"PID USER")
    r.snap("main")
    r.keys("h")
    r.snap("help")
    r.end()


GIT_ENV = {
    "GIT_AUTHOR_NAME": "Ada Lovelace",
    "GIT_AUTHOR_EMAIL": "ada@example.com",
    "GIT_COMMITTER_NAME": "Ada Lovelace",
    "GIT_COMMITTER_EMAIL": "ada@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
}


def make_repo(d: Path) -> None:
    repo = d / "repo"
    repo.mkdir()
    env = {**os.environ, **GIT_ENV, "HOME": str(d), "GIT_CONFIG_GLOBAL": "/dev/null"}

    def git(*args, date=None):
        e = dict(env)
        if date:
            e["GIT_AUTHOR_DATE"] = e["GIT_COMMITTER_DATE"] = date
        subprocess.run(["git", *args], cwd=repo, env=e, check=True, capture_output=True)

    git("init", "-q", "-b", "main")
    day = 0

    def commit(msg, path, text):
        nonlocal day
        day += 1
        p = repo / path
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
        git("add", path)
        git("commit", "-q", "-m", msg, date=f"2026-01-{day:02}T12:00:00Z")

    commit("Initial commit", "README.md", "# Demo\n")
    commit("Add the parser", "src/parser.rs", "fn parse() {}\n")
    git("checkout", "-q", "-b", "feature")
    commit("Feature: colours", "src/colour.rs", "fn colour() {}\n")
    commit("Feature: more colours", "src/colour.rs", "fn colour() { red() }\n")
    git("checkout", "-q", "main")
    commit("Fix a typo in the README", "README.md", "# Demo project\n")
    day += 1
    git("merge", "-q", "--no-ff", "-m", "Merge branch 'feature'", "feature",
        date=f"2026-01-{day:02}T12:00:00Z")  # fmt: skip
    commit("Release 1.0", "CHANGELOG.md", "## 1.0\n- colours\n")
    git("tag", "v1.0")


@case("tig", "tig", size=(100, 28), setup=make_repo, env={**GIT_ENV, "GIT_CONFIG_GLOBAL": "/dev/null"})
def _(r: Run):
    r.wait("$ ")
    r.sh("cd repo && tig", regex=r"\[main\]")
    r.snap("main-view")
    r.keys("Down")
    r.keys("Enter")
    r.snap("diff-view")
    r.keys("q")
    r.keys("q")
    r.end()


@case("git-log-graph", "git", size=(100, 24), setup=make_repo,
      env={**GIT_ENV, "GIT_CONFIG_GLOBAL": "/dev/null"})  # fmt: skip
def _(r: Run):
    r.wait("$ ")
    r.sh("cd repo && git --no-pager log --graph --color=always --oneline --decorate --all",
         wait="Initial commit")  # fmt: skip
    r.snap("oneline")
    r.sh("git --no-pager log --graph --color=always --format='%C(yellow)%h%Creset %C(bold blue)%an%Creset %s %C(green)(%ad)%Creset' --date=short -5",
         wait="Add the parser")  # fmt: skip
    r.snap("formatted")
    r.end()


@case("ncdu", "ncdu", size=(90, 26), setup=write_tree)
def _(r: Run):
    r.wait("$ ")
    r.sh("ncdu --color dark -x tree", regex=r"Total disk usage")
    r.snap("listing")
    r.keys("Down")
    r.keys("Enter")
    r.snap("subdir")
    r.keys("?")
    r.snap("help")
    r.end()


# ------------------------------------------------------------------------------------------
# shells and REPLs
# ------------------------------------------------------------------------------------------


@case("bash-line-editing", "bash")
def _(r: Run):
    r.wait("$ ")
    r.sh("echo first command", wait="first command\n$ ")
    r.text("echo the quick brown fox")
    r.keys("C-a")
    r.keys("M-f")
    r.text(" [edited]")
    r.snap("editing")
    r.keys("C-e")
    r.keys("C-w")
    r.text("dog")
    r.keys("Enter")
    r.keys("C-r")
    r.text("first")
    r.snap("reverse-search")
    r.keys("C-g")
    r.keys("Up")
    r.keys("Up")
    r.snap("history")
    r.keys("C-c")
    r.text("printf 'a\\tb\\tc\\n'; for i in 1 2 3; do echo line $i; done")
    r.keys("Enter")
    r.snap("output")
    r.end()


@case("python-repl", "python", command="python3 -q", env={"PYTHONSTARTUP": ""})
def _(r: Run):
    r.wait(">>> ")
    r.text("x = [i * i for i in range(12)]")
    r.keys("Enter")
    r.text("sum(x)")
    r.keys("Enter")
    r.text("def f(n):")
    r.keys("Enter")
    r.text("    return n + 1")
    r.keys("Enter")
    r.keys("Enter")
    r.text("f(41)")
    r.keys("Left")
    r.keys("Left")
    r.keys("BSpace")
    r.text("9")
    r.snap("editing")
    r.keys("Enter")
    r.keys("Up")
    r.keys("Up")
    r.snap("history")
    r.keys("C-u")
    r.text("print('\\N{SNOWMAN} caf\\u00e9 \\u65e5\\u672c')")
    r.keys("Enter")
    r.snap("unicode")
    r.text("exit()")
    r.keys("Enter")
    r.exit()


# ------------------------------------------------------------------------------------------
# colours, Unicode and raw control sequences (printf from bash)
# ------------------------------------------------------------------------------------------


def write_ls_tree(d: Path) -> None:
    (d / "ls").mkdir()
    base = d / "ls"
    (base / "dir").mkdir()
    (base / "sticky").mkdir()
    os.chmod(base / "sticky", 0o1777)
    (base / "other-writable").mkdir()
    os.chmod(base / "other-writable", 0o777)
    (base / "exec.sh").write_text("#!/bin/sh\n")
    os.chmod(base / "exec.sh", 0o755)
    for name in ("archive.tar.gz", "image.png", "song.mp3", "video.mkv", "notes.txt", "doc.pdf"):
        (base / name).write_text("x")
    os.symlink("notes.txt", base / "link")
    os.symlink("missing", base / "broken-link")
    os.mkfifo(base / "fifo")
    (base / "setuid").write_text("x")
    os.chmod(base / "setuid", 0o4755)
    fixed = 1767225600
    for p in base.iterdir():
        os.utime(p, (fixed, fixed), follow_symlinks=False)


@case("ls-color", "ls", setup=write_ls_tree)
def _(r: Run):
    r.wait("$ ")
    r.sh("cd ls && ls --color=always", wait="video.mkv")
    r.snap("columns")
    r.sh("ls -lgo --color=always --time-style=+%F", wait="video.mkv\n$ ")
    r.snap("long")
    r.end()


PALETTE_256 = (
    "for i in $(seq 0 255); do printf '\\e[48;5;%dm%4d\\e[0m' $i $i; "
    "[ $(( (i + 1) % 16 )) = 0 ] && echo; done"
)
PALETTE_FG = (
    "for i in 0 1 2 3 4 5 6 7; do printf '\\e[3%dm fg%d \\e[9%dm bright%d \\e[1;3%dm bold%d\\e[0m\\n' "
    "$i $i $i $i $i $i; done"
)
TRUECOLOR = (
    "for y in 0 1 2 3 4 5; do for x in $(seq 0 77); do "
    "printf '\\e[48;2;%d;%d;%dm\\e[38;2;%d;%d;%dm%s' $((x*3)) $((255-x*3)) $((y*40)) "
    "$((255-y*40)) $((x*3)) 128 $([ $(( (x+y) % 2 )) = 0 ] && echo '▀' || echo '▄'); done; "
    "printf '\\e[0m\\n'; done"
)


@case("palette-256", "bash (printf)", size=(80, 24))
def _(r: Run):
    r.wait("$ ")
    r.sh("clear; " + PALETTE_256, wait=" 255")
    r.snap("256-bg")
    r.sh("clear; " + PALETTE_FG, wait="bold7")
    r.snap("16-fg")
    r.end()


@case("truecolor", "bash (printf)", size=(80, 12))
def _(r: Run):
    r.wait("$ ")
    r.sh("clear; " + TRUECOLOR, regex=r"^\$$")
    r.snap("gradient")
    r.sh("clear; printf '\\e[1;3;4;9mall\\e[22;23mattrs\\e[24;29m\\e[2mdim\\e[0m "
         "\\e[5mblink\\e[25m \\e[7minverse\\e[27m \\e[8mhidden\\e[28m \\e[53mover\\e[55m "
         "\\e[4:3mcurly\\e[4:0m \\e[58;5;1m\\e[4munder-colour\\e[0m\\n'", wait="under-colour")  # fmt: skip
    r.snap("attributes")
    r.end()


UNICODE_TEXT = """\
CJK:      日本語のテキスト 中文字符 한국어 텍스트
Fullwidth: ＡＢＣ１２３ and half ｱｲｳ
Emoji:    😀 🎉 🚀 ✅ ❌ ⭐ 🇫🇷 👍🏽
ZWJ:      👩‍💻 👨‍👩‍👧
Combining: e\u0301 a\u0308 n\u0303 o\u0302\u0323 Z\u0335 x\u20dd
Box:      ┌─┬─┐ │ │ │ ╔═╗ ░▒▓█
Math:     ∀x∈ℝ: x²≥0  ∑ ∫ √ ∞ ≠ ≤
Mixed:    a日b本c😀d
"""


def write_unicode(d: Path) -> None:
    (d / "unicode.txt").write_text(UNICODE_TEXT)
    (d / "cjk-wrap.txt").write_text("日本語" * 30 + "\n" + "x" + "漢字" * 40 + "\n")


@case("unicode", "bash (cat)", setup=write_unicode)
def _(r: Run):
    r.wait("$ ")
    r.sh("clear; cat unicode.txt", wait="Mixed:")
    r.snap("text")
    r.sh("clear; cat cjk-wrap.txt", regex=r"^\$$")
    r.snap("wide-wrap")
    r.end()


@case("progress-bar", "bash (printf)", size=(70, 10))
def _(r: Run):
    r.wait("$ ")
    r.sh(
        "for i in $(seq 0 5 100); do n=$((i/5)); printf '\\r\\e[32m[%-20s]\\e[0m %3d%%' "
        "\"$(printf '%*s' $n '' | tr ' ' '=')\" $i; [ $i = 55 ] && read -rs; sleep 0.01; done; echo",
        wait="55%",
    )
    r.snap("half")
    r.keys("Enter")
    r.wait("100%")
    r.rec.wait_idle()
    r.snap("done")
    r.end()


SCROLL_REGION = (
    "clear; for i in $(seq 1 20); do echo \"row $i\"; done; "
    "printf '\\e[5;15r\\e[15;1H'; for i in 1 2 3; do printf '\\nscrolled %d' $i; done; "
    "printf '\\e[7;1H\\e[2L\\e[1;33minserted two\\e[0m\\e[12;1H\\e[3M\\e[5;1H\\eM\\eMreverse'; "
    "printf '\\e[44m\\e[9;1H\\e[L\\e[0m\\e[r\\e[21;1H'; read -rs"
)
SCROLL_SU_SD = (
    "clear; for i in $(seq 1 22); do echo \"line $i\"; done; "
    "printf '\\e[3;18r\\e[2S\\e[1T\\e[r\\e[10;5H\\e[2@XY\\e[4P\\e[20;1H\\e[41m\\e[2X\\e[0m'; read -rs"
)


@case("scroll-regions", "bash (printf)")
def _(r: Run):
    r.wait("$ ")
    r.sh(SCROLL_REGION, wait="inserted two")
    r.snap("insert-delete")
    r.keys("Enter")
    r.sh(SCROLL_SU_SD, wait="line 22")
    r.snap("su-sd-ich-dch")
    r.end()


@case("alt-screen", "bash (tput)")
def _(r: Run):
    r.wait("$ ")
    r.sh("echo before; seq 1 5")
    r.sh("tput smcup; tput cup 5 10; printf '\\e[1mon the alternate screen\\e[0m'; read -rs; tput rmcup",
         wait="alternate screen")  # fmt: skip
    r.snap("alternate")
    r.keys("Enter")
    r.wait_regex(r"^\$$")
    r.rec.wait_idle()
    r.snap("restored")
    r.sh("printf '\\e[?47h\\e[2J\\e[Hold-style 47\\e[?47l'; echo back")
    r.snap("mode-47")
    r.end()


@case("resize", "vim + bash", size=(80, 24), setup=write_samples)
def _(r: Run):
    r.wait("$ ")
    r.sh(f"{VIM} -c 'set number laststatus=2' sample.py", wait='"sample.py"')
    r.snap("vim-80x24")
    r.rec.resize(100, 30)
    r.rec.wait_idle(0.6)
    r.snap("vim-100x30")
    r.rec.resize(60, 15)
    r.rec.wait_idle(0.6)
    r.snap("vim-60x15")
    r.text(":q!")
    r.keys("Enter")
    r.wait("$ ")
    r.sh("stty size; seq 1 3")
    r.snap("shell-60x15")
    r.end()


@case("small-terminal", "bash + dialog", size=(40, 12))
def _(r: Run):
    r.wait("$ ")
    r.sh("echo a long line that wraps around the narrow terminal twice over and more", wait="more")
    r.snap("wrapped")
    r.sh("dialog --msgbox 'Tiny box' 6 20", wait="OK")
    r.snap("dialog")
    r.end()


# ------------------------------------------------------------------------------------------
# Driver
# ------------------------------------------------------------------------------------------


def record(c: Case, verbose: bool = False) -> dict:
    # a fixed folder, so that programs that show it show the same path every time
    work = Path(tempfile.gettempdir()) / "tuicast-conformance" / c.name
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    try:
        if c.setup:
            c.setup(work)
        cast = CORPUS / "cases" / f"{c.name}.cast"
        rec = Recorder(
            cast, c.command, cols=c.size[0], rows=c.size[1], cwd=work, env=c.env or {},
            timeout=c.timeout, verbose=verbose,
        )  # fmt: skip
        run = Run(rec, work)
        try:
            rec.start()
            c.steps(run)
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
            oracle, why = run.oracles.get(label, ("tmux", None))
            checkpoints.append({
                "name": label, "oracle": oracle, "why": why,
                "tmux": {k: v for k, v in cap.items() if k != "screen"},
            })  # fmt: skip
        return {
            "name": c.name,
            "program": c.program,
            "command": c.command,
            "size": f"{c.size[0]}x{c.size[1]}",
            "checkpoints": checkpoints,
        }
    finally:
        shutil.rmtree(work, ignore_errors=True)


def xterm(name: str, entry: dict) -> None:
    if not (XTERM_DIR / "node_modules" / "@xterm" / "headless").exists():
        subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--silent"], cwd=XTERM_DIR,
                       check=True)  # fmt: skip
    cast = CORPUS / "cases" / f"{name}.cast"
    proc = subprocess.run(
        ["node", str(XTERM_DIR / "replay.mjs"), str(cast)], capture_output=True, text=True,
        check=True,
    )  # fmt: skip
    result = json.loads(proc.stdout)
    out = CORPUS / "xterm" / name
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    by_name = {cp["name"]: cp for cp in result["checkpoints"]}
    for cp in entry["checkpoints"]:
        x = by_name.get(cp["name"])
        if x is None:
            raise RecordError(f"{name}: xterm has no checkpoint {cp['name']!r}")
        (out / f"{cp['name']}.ans").write_text(x["screen"], encoding="utf-8")
        cp["xterm"] = {
            "cursor": x["cursor"],
            "alternate": x["alternate"],
            "size": f"{x['size'][0]}x{x['size'][1]}",
        }


def load_manifest() -> dict:
    path = CORPUS / "manifest.json"
    if path.exists():
        return json.loads(path.read_text(encoding="utf-8"))
    return {}


def save_manifest(entries: dict[str, dict]) -> None:
    order = [c.name for c in CASES]
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
    args = ap.parse_args(argv)

    known = {c.name: c for c in CASES}
    if args.cmd == "list":
        for c in CASES:
            print(f"{c.name:28} {c.program:16} {c.size[0]}x{c.size[1]}")
        return 0
    names = args.names or [c.name for c in CASES]
    for n in names:
        if n not in known:
            print(f"conformance: unknown case {n!r}", file=sys.stderr)
            return 2
    entries = {e["name"]: e for e in load_manifest().get("cases", [])}
    # drop cases no longer defined
    entries = {n: e for n, e in entries.items() if n in known}
    status = 0
    for n in names:
        t0 = time.monotonic()
        try:
            if args.cmd == "record":
                entries[n] = record(known[n], args.verbose)
            elif n not in entries:
                raise RecordError(f"{n}: not recorded yet")
            xterm(n, entries[n])
        except (RecordError, subprocess.CalledProcessError) as e:
            print(f"conformance: {n}: {e}", file=sys.stderr)
            status = 1
            continue
        finally:
            save_manifest(entries)
        cps = len(entries[n]["checkpoints"])
        print(f"{n}: {cps} checkpoints ({time.monotonic() - t0:.1f}s)")
    return status


if __name__ == "__main__":
    sys.exit(main())
