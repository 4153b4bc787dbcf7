"""A shopping list in prompt_toolkit: the Python TUI tuicast's pytest plugin is tested with
(tests/it/python.rs). Type an item and press Enter to add it; Tab ticks the last item; Ctrl-Q
quits."""

from prompt_toolkit.application import Application
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.layout import HSplit, Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.styles import Style
from prompt_toolkit.widgets import Frame, TextArea

TITLE = "Shopping list"

items = [["bread", False], ["milk", False]]


def header():
    done = sum(1 for _, ticked in items if ticked)
    return [("class:header", f" {TITLE} - {len(items)} items, {done} done ")]


def body():
    lines = []
    for name, ticked in items:
        mark = "[x]" if ticked else "[ ]"
        style = "class:done" if ticked else ""
        lines.append((style, f" {mark} {name}\n"))
    return lines


def add(buffer):
    text = buffer.text.strip()
    if text:
        items.append([text, False])
    buffer.text = ""
    return True  # keep the text area's content (emptied above)


entry = TextArea(height=1, prompt="add: ", multiline=False, accept_handler=add)
keys = KeyBindings()


@keys.add("c-q")
def _quit(event):
    event.app.exit()


@keys.add("tab")
def _tick(event):
    if items:
        items[-1][1] = not items[-1][1]


root = HSplit(
    [
        Window(FormattedTextControl(header), height=1),
        Frame(Window(FormattedTextControl(body)), title="Items"),
        entry,
        Window(FormattedTextControl(" Enter adds  Tab ticks  Ctrl-Q quits"), height=1,
               style="class:status"),
    ]
)
style = Style.from_dict(
    {"header": "reverse bold", "done": "fg:ansigreen", "status": "fg:ansiblue"}
)
app = Application(layout=Layout(root, focused_element=entry), key_bindings=keys, style=style,
                  full_screen=True)

if __name__ == "__main__":
    app.run()
