"""A key logger written with Python's curses, which tells a lone Esc from Alt+key the way
curses programs usually do: after an Esc, ncurses waits ESCDELAY for more bytes (here 200 ms,
set as programs set it), and a key that comes within it is that key with Alt. tuicast's
pacing tests press Esc and then type into it (tests/it/pacing.rs): a key sent before the
program has waited out ESCDELAY shows as Alt+key, which no person pressed.
"""

import curses


def main(stdscr):
    curses.set_escdelay(200)
    stdscr.keypad(True)
    keys = []
    mode = "normal"
    while True:
        stdscr.erase()
        stdscr.addstr(0, 0, f"mode: {mode}")
        stdscr.addstr(1, 0, "keys: " + " ".join(keys[-12:]))
        stdscr.addstr(3, 0, "i: insert  Esc: normal  q: quit (in normal mode)")
        stdscr.refresh()
        ch = stdscr.getch()
        if ch == 27:
            stdscr.nodelay(True)
            nxt = stdscr.getch()
            stdscr.nodelay(False)
            if nxt == -1:
                keys.append("Esc")
                mode = "normal"
            else:
                keys.append("Alt+" + (chr(nxt) if 32 <= nxt < 127 else str(nxt)))
            continue
        name = chr(ch) if 32 <= ch < 127 else str(ch)
        keys.append(name)
        if mode == "normal" and name == "q":
            break
        if mode == "normal" and name == "i":
            mode = "insert"


curses.wrapper(main)
