#!/usr/bin/env python3
"""keysapp: sets a keyboard mode, then prints every read of its input, escaped, a line each.

    keysapp.py kitty FLAGS    push the kitty keyboard protocol's FLAGS (CSI > FLAGS u)
    keysapp.py other LEVEL    set xterm's modifyOtherKeys to LEVEL (CSI > 4 ; LEVEL m)
    keysapp.py legacy         set nothing

It asks for the kitty flags (CSI ? u) followed by the primary device attributes, as the
protocol's spec says a program detects it, and prints the answers (`flags ...`, or
`flags none` when only the attributes came), then `ready`. Each read is printed as
`got ...` (ESC as `ESC`, other controls as \\xNN). A read holding `q`, or kitty's code for it
(113), ends it; it pops what it pushed first. tuicast's tests of keys drive it
(tests/it/keyboard.rs)."""
import os
import sys
import termios
import tty


def out(text):
    os.write(1, text.encode())


def escaped(data):
    parts = []
    for b in data:
        if b == 0x1B:
            parts.append("ESC")
        elif 0x20 <= b < 0x7F:
            parts.append(chr(b))
        else:
            parts.append("\\x%02x" % b)
    return "".join(parts)


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "legacy"
    value = sys.argv[2] if len(sys.argv) > 2 else ""
    saved = termios.tcgetattr(0)
    tty.setraw(0)
    try:
        if mode == "kitty":
            out("\x1b[>%su" % value)
        elif mode == "other":
            out("\x1b[>4;%sm" % value)
        out("\x1b[?u\x1b[c")
        answers = b""
        while not (b"\x1b[?6" in answers and answers.endswith(b"c")):
            chunk = os.read(0, 256)
            if not chunk:
                return
            answers += chunk
        flags = answers[: answers.index(b"\x1b[?6")]
        out("flags %s\r\nready\r\n" % (escaped(flags) if flags else "none"))
        while True:
            data = os.read(0, 1024)
            if not data:
                break
            out("got %s\r\n" % escaped(data))
            if b"q" in data or b"[113" in data:
                break
    finally:
        if mode == "kitty":
            out("\x1b[<u")
        elif mode == "other":
            out("\x1b[>4m")
        termios.tcsetattr(0, termios.TCSADRAIN, saved)


main()
