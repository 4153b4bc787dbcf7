#!/usr/bin/env bash
# Builds the replay benchmark corpus from real program output.
#
# Each program runs for real at 80x24 inside a detached tmux session, under util-linux
# `script`, which logs every byte the program wrote with its timing. The logs are converted
# to asciicast v3 (UTF-8 decoded incrementally across reads, as a recorder does) and the
# segments are concatenated, cycling through them, into:
#
#   target/bench-corpus/replay-30mb.cast    ~30 MB: benches/replay.rs, hyperfine
#   target/bench-corpus/replay-500mb.cast   >=500 MB: the peak-memory test
#   target/bench-corpus/segments/*.cast     one cast per program run (handy for profiling)
#   target/bench-corpus/fullscreen-40mb.cast  ~40 MB of full-screen sessions: the casts of
#                                           tests/conformance/cases (vttest, dialog, mc, htop,
#                                           vim, less, colour tables, ...) cycled, each after
#                                           an `r` event to its size and a reset (RIS)
#
# Nothing here is committed: rerun the script to rebuild. Needs bash, tmux, util-linux
# `script` (2.35+ for --logging-format advanced), python3, ls, vim, less, git, top, dialog;
# htop is used when installed. Takes about two minutes.
#
#   scripts/bench-corpus.sh                 # both variants
#   SMALL_MB=30 BIG_MB=0 scripts/bench-corpus.sh   # skip the 500 MB variant
#   FULLSCREEN_ONLY=1 scripts/bench-corpus.sh      # only the full-screen corpus (seconds;
#                                                  # needs only python3)
#   FULLSCREEN_MB=0 scripts/bench-corpus.sh        # skip it
#
# The tmux server runs on a private socket and is killed on exit, together with every
# process it started.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${TUICAST_BENCH_CORPUS:-$ROOT/target/bench-corpus}
SMALL_MB=${SMALL_MB:-30}
BIG_MB=${BIG_MB:-500}
RAW=$OUT/raw
SOCK=tuicast-bench-corpus-$$
COLS=80
ROWS=24
FULLSCREEN_MB=${FULLSCREEN_MB:-40}

# The full-screen corpus: the committed conformance casts (real full-screen programs, at
# their own sizes) cycled until the file reaches FULLSCREEN_MB. Each session starts with an
# `r` event to its size and RIS, so it draws on a fresh terminal as when it was recorded.
fullscreen() {
    [ "$FULLSCREEN_MB" -gt 0 ] || return 0
    mkdir -p "$OUT"
    python3 - "$ROOT/tests/conformance/cases" "$OUT/fullscreen-${FULLSCREEN_MB}mb.cast" \
        "$FULLSCREEN_MB" <<'PY'
import glob, json, os, sys

cases, path, mb = sys.argv[1], sys.argv[2], int(sys.argv[3])
segments = []
for cast in sorted(glob.glob(os.path.join(cases, "*.cast"))):
    with open(cast, encoding="utf-8") as f:
        header = json.loads(f.readline())
        term = header["term"]
        lines = [json.dumps([0.5, "r", f"{term['cols']}x{term['rows']}"]) + "\n",
                 json.dumps([0.0, "o", "\u001bc"]) + "\n"]
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            event = json.loads(line)
            if event[1] in ("o", "r"):
                lines.append(json.dumps(event, ensure_ascii=False) + "\n")
    segments.append("".join(lines).encode("utf-8"))
if not segments:
    sys.exit(f"bench-corpus: no casts in {cases}")
head = json.dumps({"version": 3, "term": {"cols": 80, "rows": 24, "type": "xterm-256color"},
                   "title": f"tuicast full-screen bench corpus ({mb} MB)"}) + "\n"
size, rounds = 0, 0
with open(path + ".tmp", "wb") as f:
    f.write(head.encode())
    size += len(head)
    while size < mb * 1_000_000:
        for body in segments:
            f.write(body)
            size += len(body)
        rounds += 1
os.replace(path + ".tmp", path)
print(f"  {os.path.basename(path)}: {size / 1e6:.1f} MB, {len(segments)} casts x{rounds}",
      file=sys.stderr)
PY
}

if [ "${FULLSCREEN_ONLY:-0}" = 1 ]; then
    fullscreen
    exit 0
fi

for tool in tmux script python3 vim less git top dialog; do
    command -v "$tool" >/dev/null || { echo "bench-corpus: $tool is required" >&2; exit 2; }
done

rm -rf "$RAW" "$OUT/segments"
mkdir -p "$RAW" "$OUT/segments"

tm() { tmux -L "$SOCK" -f /dev/null "$@"; }

# Every program runs with this variable in its environment, so whatever it left behind
# (even a process that lost its parent) can be found and ended.
MARK="TUICAST_BENCH_CORPUS_RUN=$SOCK"
marked_pids() {
    grep -lzx -- "$MARK" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3 || true
}

# Ends the programs of this run: the tmux server, then any marked process still alive.
cleanup() {
    tm kill-server 2>/dev/null || true
    local pids
    pids=$(marked_pids)
    [ -z "$pids" ] && return 0
    # shellcheck disable=SC2086
    kill -TERM $pids 2>/dev/null || true
    sleep 0.5
    pids=$(marked_pids)
    # shellcheck disable=SC2086
    [ -n "$pids" ] && kill -KILL $pids 2>/dev/null || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM

SESSION=""

# start NAME COMMAND: runs COMMAND (a bash command line) under `script` in a new 80x24 session.
start() {
    SESSION=$1
    local cmd=$2
    local inner
    inner=$(printf 'script -q -f --log-out %q --log-timing %q --logging-format advanced -c %q' \
        "$RAW/$SESSION.out" "$RAW/$SESSION.tim" "$cmd")
    echo "bench-corpus: recording $SESSION" >&2
    tm new-session -d -s "$SESSION" -x "$COLS" -y "$ROWS" \
        "env $MARK TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 $inner"
    sleep 0.8
}

# send KEY...: tmux key names (C-f, Space, Enter, NPage) or literal text.
send() { tm send-keys -t "$SESSION" "$@" 2>/dev/null || true; }

# keys COUNT DELAY KEY...: presses KEY... COUNT times, DELAY seconds apart, so the program
# redraws between presses instead of coalescing typeahead.
keys() {
    local n=$1 delay=$2 i
    shift 2
    for ((i = 0; i < n; i++)); do
        send "$@"
        sleep "$delay"
    done
}

# finish TIMEOUT: waits for the session's program to exit; kills its tree after TIMEOUT s.
finish() {
    local limit=$(($1 * 10)) t=0
    while tm has-session -t "$SESSION" 2>/dev/null; do
        if [ "$t" -ge "$limit" ]; then
            echo "bench-corpus: $SESSION did not exit in $1 s; killing it" >&2
            tm kill-session -t "$SESSION" 2>/dev/null || true
            break
        fi
        sleep 0.1
        t=$((t + 1))
    done
}

# The first of the given files that exists, else the largest file matching a fallback glob.
pick() {
    local f
    for f in "$@"; do
        [ -f "$f" ] && { echo "$f"; return; }
    done
    find /usr -xdev -type f \( -name '*.h' -o -name '*.py' \) -size +100k 2>/dev/null \
        | head -n 1
}

C_FILE=$(pick /usr/include/sqlite3.h /usr/include/elf.h)
PY_FILE=$(pick /usr/lib/python3.11/_pydecimal.py /usr/lib/python3/dist-packages/six.py)
DOC_FILE=$(pick /usr/share/vim/vim90/doc/eval.txt "$C_FILE")
# The biggest repository among the candidates (the most history to show), for git log.
GIT_REPO=${GIT_REPO:-}
if [ -z "$GIT_REPO" ]; then
    GIT_REPO=$ROOT
    best=-1
    for repo in "$ROOT" "$HOME/.pyenv" "$HOME/.rustup"; do
        size=$(git -C "$repo" count-objects -v 2>/dev/null | awk '/size-pack/ {print $2}' || true)
        if [ -n "$size" ] && [ "$size" -gt "$best" ]; then best=$size; GIT_REPO=$repo; fi
    done
fi

# 1. A long listing with colours: plain scrolling output.
start ls-lr 'ls --color=always -lR /usr/share /usr/include'
finish 300

# 2. vim with syntax highlighting, scrolling through a big C header, searching, splitting.
start vim "vim -u NONE -i NONE -N -n -c 'syntax on' -c 'set number ruler laststatus=2 hlsearch' $(printf %q "$C_FILE")"
keys 500 0.01 C-f
keys 250 0.01 C-b
keys 600 0.005 C-e
keys 400 0.005 j
send /sqlite3_ Enter
keys 100 0.01 n
send :vsplit Enter
keys 120 0.01 C-d
send :split Space "$PY_FILE" Enter
sleep 0.3
keys 300 0.01 C-f
keys 300 0.005 C-y
send Escape :qa! Enter
finish 30

# 3. less paging through a Python source, searching, jumping.
start less "less $(printf %q "$PY_FILE")"
keys 700 0.01 Space
keys 300 0.01 b
send /Decimal Enter
keys 80 0.01 n
send G
sleep 0.2
send g
keys 200 0.005 j
send q
finish 20

# 4. git log with colours through its pager (less -R).
start git-pager "git -C $(printf %q "$GIT_REPO") -c color.ui=always -c core.pager='less -R' log --graph --stat -p"
keys 1000 0.01 Space
send q
finish 20

# 5. git log with colours straight to the terminal.
start git-stream "git --no-pager -C $(printf %q "$GIT_REPO") log --graph --stat -p --color=always | head -n 30000"
finish 120

# 6. top refreshing fast for a few seconds, then htop when installed.
start top 'top -d 0.2'
sleep 2
send 1
sleep 1
send c
sleep 1
send M
sleep 1
send q
finish 10
if command -v htop >/dev/null; then
    start htop 'htop -d 2'
    sleep 2
    keys 30 0.05 Down
    send t
    sleep 1
    keys 20 0.05 Up
    send F6
    sleep 0.3
    send Enter
    sleep 1
    send q
    finish 10
fi

# 7. dialog: a gauge, a menu, a checklist and a text box (ncurses full-screen drawing).
start dialog-gauge 'for i in $(seq 0 1 100); do echo $i; sleep 0.02; done | dialog --gauge "Building the replay corpus" 10 70 0'
finish 20
start dialog-menu 'dialog --menu "Pick one" 20 60 12 $(for i in $(seq 1 60); do echo "$i item-$i"; done)'
keys 100 0.01 Down
keys 100 0.01 Up
send Enter
finish 10
start dialog-checklist 'dialog --checklist "Choose" 20 60 12 $(for i in $(seq 1 60); do echo "$i option-$i off"; done)'
keys 60 0.01 Down Space
send Enter
finish 10
start dialog-textbox "dialog --textbox $(printf %q "$DOC_FILE") 22 78"
keys 200 0.01 NPage
keys 50 0.01 PPage
send Enter
finish 10

cleanup
trap - EXIT

echo "bench-corpus: converting to asciicast v3" >&2
python3 - "$RAW" "$OUT" "$SMALL_MB" "$BIG_MB" "$COLS" "$ROWS" <<'PY'
import codecs, json, os, sys

raw, out, small_mb, big_mb, cols, rows = sys.argv[1:]
small_mb, big_mb, cols, rows = int(small_mb), int(big_mb), int(cols), int(rows)
order = ["ls-lr", "vim", "less", "git-pager", "git-stream", "top", "htop",
         "dialog-gauge", "dialog-menu", "dialog-checklist", "dialog-textbox"]


def events(name):
    """Event lines of one `script` log: `[interval, "o", data]`, UTF-8 decoded incrementally."""
    timing = os.path.join(raw, name + ".tim")
    data = open(os.path.join(raw, name + ".out"), "rb")
    first = data.readline()
    if not first.startswith(b"Script started on "):
        data.seek(0)
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    lines, pending = [], 0.0
    for entry in open(timing, encoding="utf-8", errors="replace"):
        parts = entry.split(" ", 2)
        if len(parts) < 3 or parts[0] != "O":
            continue
        pending += float(parts[1])
        text = decoder.decode(data.read(int(parts[2])))
        if text:
            lines.append(json.dumps([round(pending, 6), "o", text], ensure_ascii=False) + "\n")
            pending = 0.0
    tail = decoder.decode(b"", final=True)
    if tail:
        lines.append(json.dumps([round(pending, 6), "o", tail], ensure_ascii=False) + "\n")
    return lines


def header(title):
    return json.dumps({
        "version": 3,
        "term": {"cols": cols, "rows": rows, "type": "xterm-256color"},
        "title": title,
        "env": {"SHELL": "/bin/bash"},
    }) + "\n"


segments = []
for name in order:
    if not os.path.exists(os.path.join(raw, name + ".tim")):
        continue
    lines = events(name)
    if not lines:
        continue
    # Each program starts half a second after the previous one ended.
    first = json.loads(lines[0])
    first[0] = 0.5
    lines[0] = json.dumps(first, ensure_ascii=False) + "\n"
    body = "".join(lines).encode("utf-8")
    with open(os.path.join(out, "segments", name + ".cast"), "wb") as f:
        f.write(header(name).encode() + body)
    segments.append((name, body, len(lines)))
    print(f"  {name:17} {len(body) / 1e6:7.2f} MB  {len(lines):7} events", file=sys.stderr)

if not segments:
    sys.exit("bench-corpus: no program produced output")


def build(path, target, title):
    """Cycles through the segments until the file reaches `target` bytes."""
    size, counts = 0, {}
    with open(path + ".tmp", "wb") as f:
        h = header(title).encode()
        f.write(h)
        size += len(h)
        while size < target:
            for name, body, _ in segments:
                f.write(body)
                size += len(body)
                counts[name] = counts.get(name, 0) + 1
                if size >= target:
                    break
    os.replace(path + ".tmp", path)
    print(f"  {os.path.basename(path)}: {size / 1e6:.1f} MB, segments used "
          + ", ".join(f"{n} x{c}" for n, c in counts.items()), file=sys.stderr)


small = os.path.join(out, f"replay-{small_mb}mb.cast")
build(small, small_mb * 1_000_000, f"tuicast replay bench corpus ({small_mb} MB)")
if big_mb > 0:
    # The big variant repeats the small one whole, so both have the same mix.
    big = os.path.join(out, f"replay-{big_mb}mb.cast")
    with open(small, "rb") as f:
        f.readline()
        body = f.read()
    with open(big + ".tmp", "wb") as f:
        h = header(f"tuicast replay bench corpus ({big_mb} MB)").encode()
        f.write(h)
        size = len(h)
        while size < big_mb * 1_000_000:
            f.write(body)
            size += len(body)
    os.replace(big + ".tmp", big)
    print(f"  {os.path.basename(big)}: {size / 1e6:.1f} MB", file=sys.stderr)
PY
rm -rf "$RAW"
fullscreen
ls -l "$OUT"
