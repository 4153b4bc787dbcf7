#!/usr/bin/env bash
# Seeds each fuzz target's corpus (fuzz/corpus/TARGET/, not committed) from the repository's
# own files, in the input layout each target decodes (see the comment at the top of each
# fuzz_targets/*.rs):
#   cast_reader  every cast (example suite, conformance, todoapp, valid and malformed fixtures)
#   replay       the output of each cast
#   resize       a cast's size, then its output with its resizes as NUL COLS ROWS
#   render       a size and flags, then the start of a cast's output
#   cast_toml    every scenario and tuicast.toml
#   goldens      every text and styled golden and small PNGs; outputs for the round trip
#   outline      box screens (tiny tiled, nested, titled, ASCII, DEC line drawing), cast outputs
#   accept_from  report data of one cast's results, a text and a PNG golden
#   redact       secrets drawn as programs draw them (split, styled, one character at a time),
#                with and without the pattern; cast outputs split at each write
#   adapters     the built-in manifests and the repository's tuicast.toml files, each with
#                selectors and the output of a cast; issue 41's looping and `many` manifests
#   engine_work  a size, then each cast's output (the rectangle, erase and scroll sequences
#                of the conformance cases among them); issue 41's DECCRA and REP floods
# Outputs are cut (replay/resize 16 KiB, render 2 KiB, goldens 4 KiB) to keep executions fast.
# Usage: fuzz/seed.sh [CORPUS_DIR]   (default fuzz/corpus). Needs python3.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 - "${1:-fuzz/corpus}" <<'PY'
import hashlib, json, pathlib, struct, sys, zlib

out = pathlib.Path(sys.argv[1])
root = pathlib.Path(".")
casts = sorted(
    p for d in ["casts", "tests/conformance/cases", "tests/apps/todoapp/casts",
                "tests/fixtures/valid", "tests/fixtures/malformed"]
    for p in (root / d).glob("*.cast"))
tomls = sorted(
    p for d in ["casts", "tests/conformance/scenarios", "tests/apps/todoapp/casts",
                "tests/apps/todoapp", "."]
    for p in (root / d).glob("*.toml")
    if p.name != "Cargo.toml")
goldens = sorted(
    p for d in ["snapshots", "tests/apps/todoapp/snapshots", "tests/fixtures/examples-oracle"]
    for p in (root / d).rglob("*.txt"))
counts = {}

def put(target, data):
    d = out / target
    d.mkdir(parents=True, exist_ok=True)
    # Named by content, like libFuzzer's own corpus files: seeding twice adds nothing.
    name = hashlib.sha1(data).hexdigest()
    (d / name).write_bytes(data)
    counts.setdefault(target, set()).add(name)

def events(path):
    """(size, [(code, data)]) of a v2 or v3 cast; None for v1 or an unreadable cast."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
        header = json.loads(lines[0].lstrip("\ufeff"))
        term = header.get("term", header)
        size = (int(term.get("cols", term.get("width"))), int(term.get("rows", term.get("height"))))
    except Exception:
        return None
    evs = []
    for line in lines[1:]:
        try:
            e = json.loads(line)
            evs.append((e[1], e[2]))
        except Exception:
            continue
    return size, evs

def size_bytes(cols, rows, mod_cols, mod_rows):
    """Two size bytes: the cast's size where the target can give it, a small one otherwise."""
    return bytes([cols % mod_cols, rows % mod_rows])

def png(width, height, color_type, depth, rows):
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    ihdr = struct.pack(">IIBBBBB", width, height, depth, color_type, 0, 0, 0)
    raw = b"".join(b"\0" + r for r in rows)
    extra = chunk(b"PLTE", b"\0\0\0\xff\xff\xff") if color_type == 3 else b""
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + extra
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))

for path in casts:
    data = path.read_bytes()
    put("cast_reader", data)
    read = events(path)
    if read is None:
        continue
    (cols, rows), evs = read
    output = "".join(d for c, d in evs if c == "o" and isinstance(d, str)).encode("utf-8", "replace")
    if not output:
        continue
    put("replay", output[:16384])
    resized = bytearray(size_bytes(cols, rows, 41, 13))
    for code, d in evs:
        if code == "o" and isinstance(d, str):
            resized += d.encode("utf-8", "replace").replace(b"\0", b"")
        elif code == "r" and isinstance(d, str) and "x" in d:
            try:
                c, r = (int(v) for v in d.split("x"))
                resized += b"\0" + size_bytes(c, r, 41, 13)
            except ValueError:
                pass
        if len(resized) > 16384:
            break
    put("resize", bytes(resized))
    for flags in (0, 7, 8 | (5 << 4)):
        put("render", size_bytes(cols, rows, 20, 8) + bytes([flags]) + output[:2048])
    put("goldens", b"\x01" + output[:4096])
    # The cast's own writes as reads, the secret "hunter2", and the pattern on.
    writes = b"\xff".join(d.encode("utf-8", "replace") for c, d in evs if c == "o" and isinstance(d, str))
    put("redact", b"\x07hunter2\x01" + writes[:4096])

for path in tomls:
    put("cast_toml", path.read_bytes())

# Manifests with a selector and a screen's output (adapters), and outputs on large screens
# (engine_work): the first bytes of each conformance case, and issue 41's worst inputs.
manifests = [(root / "src/inspect/adapters.toml").read_text(encoding="utf-8")]
manifests += [p.read_text(encoding="utf-8") for p in tomls if p.name == "tuicast.toml"]
manifests += ["[adapters.loop]\nscreen = ['.']\n[adapters.loop.refs]\na = { above = \"b\" }\nb = { above = \"a\" }\n",
              "[adapters.every]\nscreen = ['x']\n[adapters.every.refs]\n" + "".join(
                  f"{r} = {{ regex = '.', many = true }}\n" for r in "abcdef")]
screens = [b"$ ls\r\nfile\r\n$ ", b"x" * 200, b"-- INSERT --\r\n~\r\n~", b"  < Yes >   <  No  >"]
for i, m in enumerate(manifests):
    for sel in ["@cursor", "@shell.output", "@every.a[0]", "@vim.mode[value=insert]", "@box >> @list.item[text~=\"o+\"]"]:
        put("adapters", m.encode() + b"\n@@\n" + sel.encode() + b"\n@@\n" + screens[i % len(screens)])
for path in casts:
    read = events(path)
    if read is None:
        continue
    (cols, rows), evs = read
    output = "".join(d for c, d in evs if c == "o" and isinstance(d, str)).encode("utf-8", "replace")
    if output:
        put("engine_work", bytes([cols // 125, rows // 125]) + output.replace(b"\0", b"")[:4096])
put("engine_work", bytes([15, 15]) + b"x\x1b[65535b" * 8 + b"\x1b[1;1;2000;2000;1;1;2;1$v" * 100)
put("engine_work", bytes([15, 15]) + b"\x1b[2J\x1b[2000S\x1b[2000L\x1b[2000'}\x1b[1;1;2000;2000$z" * 40)
for path in goldens:
    put("goldens", b"\x00" + path.read_bytes())
# PNG goldens: small pictures of each colour type tuicast may meet (RGB, RGBA, grey, palette).
put("goldens", b"\x00" + png(1, 1, 2, 8, [b"\x10\x20\x30"]))
put("goldens", b"\x00" + png(3, 2, 6, 8, [b"\x00\x00\x00\xff" * 3, b"\xff\xff\xff\x80" * 3]))
put("goldens", b"\x00" + png(2, 2, 0, 8, [b"\x00\xff", b"\xff\x00"]))
put("goldens", b"\x00" + png(4, 1, 3, 1, [b"\xa0"]))

# Secrets as programs draw them: whole, split across reads, styled between characters, one
# character at a time with cursor moves; and a token split across reads.
for body in [b"pw: hunter2!\r\n", b"pw: hun\xffter2\r\n", b"hun\x1b[0mter2",
             b"\x1b[2;1Hh\x1b[2;2Hu\x1b[2;3Hn\x1b[2;4Ht\x1b[2;5He\x1b[2;6Hr\x1b[2;7H2",
             b"key tok_ab\xff12 end\r\n", b"\x1b[1mtok_\xffq7\x1b[0m \x1b[6n"]:
    put("redact", b"\x07hunter2\x01" + body)
    put("redact", b"\x07hunter2\x00" + body)

# Screens of boxes for the outline: tiny ones tiled, nested, titled, ASCII, with highlights.
tiny = b"\r\n".join([b"\xe2\x94\x8c\xe2\x94\x80\xe2\x94\x90" * 20, b"\xe2\x94\x82x\xe2\x94\x82" * 20,
                      b"\xe2\x94\x94\xe2\x94\x80\xe2\x94\x98" * 20] * 4)
put("outline", bytes([60, 12]) + tiny)
put("outline", bytes([30, 8]) + "┌─┤ Todo ├──────┐\r\n│ ┌──┐ \x1b[7mone\x1b[0m  │\r\n│ └──┘ two    │\r\n├──────────────┤\r\n│ +--+ three  │\r\n│ |  |        │\r\n│ +--+        │\r\n└──────────────┘".encode())
put("outline", bytes([20, 6]) + b"one\r\n\x1b[44mtwo      \x1b[0m\r\nthree\r\n\x1b(0lqqk\r\nx  x\r\nmqqj")
for path in casts[:20]:
    ev = events(path)
    if ev:
        (c, r), evs = ev
        put("outline", bytes([(c - 1) % 120, (r - 1) % 40]) + "".join(d for code, d in evs if code == "o").encode()[:8192])

# Report data for accept --from: one cast's results as `tuicast test --report` writes them,
# a mismatching text golden (its golden hash that of the checkout's "bye\n") and a PNG one.
snap = {"name": "demo/end.txt", "format": "txt", "missing": False, "expected": "bye\n",
        "actual": "---\ncast: casts/demo.cast\ncheckpoint: end\nsize: 10x2\ncursor: 1:3\n---\nhi\n\n",
        "golden_hash": "6862d09c1e63d18b-4", "diff": "@@ -1,1 +1,2 @@\n-bye\n+hi\n", "place": "bye",
        "row": None, "style_changes": [], "images": {"expected": None, "actual": None, "diff": None}}
result = lambda cp, snaps, status: {"test": f"demo::{cp}", "checkpoint": cp, "line": 3, "time": 0.2,
                                    "status": status, "error": None, "snapshots": snaps}
data = {"cast": "casts/demo.cast", "project": "", "stem": "demo", "command": "tuicast test --report rep",
        "duration": 0.001, "finished": 1796163362.27, "results": [result("greeted", [], "ok"),
        result("end", [snap], "failed")], "new_cast": None}
put("accept_from", json.dumps(data).encode())
png_snap = dict(snap, name="demo/end.png", format="png", golden_hash=None, missing=True,
                images={"expected": None, "actual": "files/demo/end.png", "diff": None})
data["results"][1]["snapshots"].append(png_snap)
put("accept_from", json.dumps(data).encode())

for target in sorted(counts):
    print(f"seeded {target}: {len(counts[target])} inputs in {out / target}")
PY
