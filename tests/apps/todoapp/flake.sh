#!/usr/bin/env bash
# How deterministic are todoapp's live recordings? Records every scenario N times with the real
# CLI, replays each recording's checkpoints, and counts the distinct screens per checkpoint
# (the clock masked the way the scenarios mask it: every HH:MM:SS becomes ▒▒▒▒▒▒▒▒).
#
#   tests/apps/todoapp/flake.sh [-n N] [-j JOBS] [-v] [-k] [SCENARIO...]
#
#   -n N     recordings per scenario (default 20)
#   -j JOBS  recordings run at once (default 1; 4 is like `tuicast record casts/*.toml`)
#   -v       print how each variant differs from the most common screen
#   -k       keep the recordings (their folder is printed)
#   SCENARIO names in casts/ (default: every casts/*.toml), or paths to other .toml files
#
# Columns: text = distinct screens as text; +style = text and colours/attributes; +cursor = also
# the cursor the way a golden's header records it (row and column where it is shown, else only
# "hidden"); +hidden@ = also a hidden cursor's position (not part of a golden: informational).
# A checkpoint is deterministic when its +cursor column says 1. Rows and
# cursors in "what differed" are 1-based, as in goldens; the most common screen is the reference.
# TUICAST=path picks the tuicast binary (default: target/release/tuicast, built if missing).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../.." && pwd)
target=${CARGO_TARGET_DIR:-$root/target}
n=20 jobs=1 verbose=0 keep=0
while getopts "n:j:vk" opt; do
    case $opt in
        n) n=$OPTARG ;;
        j) jobs=$OPTARG ;;
        v) verbose=1 ;;
        k) keep=1 ;;
        *) sed -n '2,20s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))

tuicast=${TUICAST:-$target/release/tuicast}
if [[ ! -x $tuicast ]]; then
    (cd "$root" && cargo build --release --bin tuicast)
fi
(cd "$root" && cargo build -q -p todoapp --bin todoapp)

scenarios=("$@")
if [[ ${#scenarios[@]} -eq 0 ]]; then
    for f in "$here"/casts/*.toml; do scenarios+=("$(basename "$f" .toml)"); done
fi

out=$(mktemp -d "${TMPDIR:-/tmp}/todoapp-flake.XXXXXX")
if [[ $keep -eq 0 ]]; then trap 'rm -rf "$out"' EXIT; else echo "recordings in $out"; fi

# The scenario path is given absolute: a relative one breaks the relative `command`.
declare -A path
for s in "${scenarios[@]}"; do
    if [[ $s == *.toml ]]; then path[$(basename "$s" .toml)]=$(realpath "$s"); else path[$s]=$here/casts/$s.toml; fi
done
mapfile -t scenarios < <(printf "%s\n" "${!path[@]}" | sort)

record() { # scenario index
    if ! "$tuicast" record "${path[$1]}" -o "$out/$1.$2.cast" >"$out/$1.$2.log" 2>&1; then
        echo "recording $1 #$2 failed:" >&2
        sed 's/^/    /' "$out/$1.$2.log" | head -5 >&2
    fi
}

started=$SECONDS
for s in "${scenarios[@]}"; do
    for i in $(seq 1 "$n"); do
        record "$s" "$i" &
        while [[ $(jobs -rp | wc -l) -ge $jobs ]]; do wait -n || true; done
    done
done
wait
echo "recorded ${#scenarios[@]} scenario(s) x $n in $((SECONDS - started))s (-j $jobs), $tuicast"
echo

TUICAST="$tuicast" VERBOSE=$verbose N=$n python3 - "$out" "${scenarios[@]}" <<'PY'
import collections, json, os, re, subprocess, sys

out, scenarios = sys.argv[1], sys.argv[2:]
tuicast, verbose, n = os.environ["TUICAST"], os.environ["VERBOSE"] == "1", int(os.environ["N"])
clock = re.compile(r"\d\d:\d\d:\d\d")

def run(*args):
    return subprocess.run([tuicast, *args], check=True, capture_output=True, text=True).stdout

def screen(cast, name):
    s = json.loads(run("replay", cast, "--at", name, "--format", "json"))
    text = tuple(clock.sub("▒" * 8, r["text"]) for r in s["rows"])
    style = tuple(json.dumps(r["runs"]) for r in s["rows"])
    c = s["cursor"]
    return {"text": text, "style": style,
            "cursor": (c["row"], c["col"], True) if c["visible"] else (None, None, False),
            "raw": (c["row"], c["col"], c["visible"])}

def fmt(c):
    """A cursor the way goldens show it: 1-based row:column, or just hidden."""
    if c[0] is None:
        return "hidden"
    return f"{c[0] + 1}:{c[1] + 1}" + ("" if c[2] else " hidden")

def describe(v, mode, prev):
    """How variant v differs from the most common screen `mode`."""
    if v["text"] == mode["text"]:
        if v["style"] != mode["style"]:
            rows = [i for i, (a, b) in enumerate(zip(v["style"], mode["style"])) if a != b]
            return f"colours differ on rows {rows}"
        return f"cursor {fmt(v['cursor'])} instead of {fmt(mode['cursor'])}"
    if prev is not None and v["text"] == prev["text"]:
        return "stale: the previous checkpoint's screen"
    blank = lambda t: sum(1 for r in t if not r.strip())
    rows = [i for i, (a, b) in enumerate(zip(v["text"], mode["text"])) if a != b]
    kind = "half-drawn" if blank(v["text"]) > blank(mode["text"]) else "content"
    return f"{kind}: rows {[r + 1 for r in rows]} differ"

print(f"{'checkpoint':<22} {'recs':>4} {'text':>5} {'+style':>7} {'+cursor':>8} {'+hidden@':>8}  what differed")
totals = collections.Counter()
for s in scenarios:
    casts = [f"{out}/{s}.{i}.cast" for i in range(1, n + 1) if os.path.exists(f"{out}/{s}.{i}.cast")]
    if not casts:
        print(f"{s:<22} no recording succeeded")
        continue
    names = [c["name"] for c in json.loads(run("info", casts[0], "--json"))["checkpoints"]]
    prev_mode = None
    for name in names:
        screens = [screen(c, name) for c in casts]
        key = lambda sc, *f: tuple(sc[x] for x in f)
        count = lambda *f: len({key(sc, *f) for sc in screens})
        by_all = collections.Counter(key(sc, "text", "style", "cursor") for sc in screens)
        mode_key = by_all.most_common(1)[0][0]
        mode = next(sc for sc in screens if key(sc, "text", "style", "cursor") == mode_key)
        whats = collections.Counter(describe(sc, mode, prev_mode) for sc in screens
                                    if key(sc, "text", "style", "cursor") != mode_key)
        what = "; ".join(f"{c}x {w}" for w, c in whats.most_common()) or "-"
        row = (count("text"), count("text", "style"), count("text", "style", "cursor"),
               count("text", "style", "raw"))
        totals["checkpoints"] += 1
        totals["stable"] += row[2] == 1
        print(f"{s + '::' + name:<22} {len(casts):>4} {row[0]:>5} {row[1]:>7} {row[2]:>8} {row[3]:>8}  {what}")
        if verbose:
            for sc in screens:
                if key(sc, "text", "style", "cursor") != mode_key:
                    for i, (a, b) in enumerate(zip(sc["text"], mode["text"])):
                        if a != b:
                            print(f"{'':<8}row {i + 1:>2} got  |{a}|\n{'':<8}{'':>6} want |{b}|")
                    if sc["cursor"] != mode["cursor"]:
                        print(f"{'':<8}cursor got {fmt(sc['cursor'])}, want {fmt(mode['cursor'])}")
                    print(f"{'':<8}---")
        prev_mode = mode
print(f"\n{totals['stable']} of {totals['checkpoints']} checkpoints identical in every recording "
      "(text, colours and cursor)")
PY
