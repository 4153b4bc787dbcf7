"""A sign-up form written with Textual, the way Textual apps are usually written: two `Input`
widgets, Tab to move between them, Enter to send. tuicast's pacing tests type into it
(tests/it/pacing.rs): Textual moves the focus after it has read the Tab, so a letter that
reaches it in the same read, or while it still moves the focus, lands in the wrong field or
is lost.
"""

from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.widgets import Input, Label


class SignUp(App):
    CSS = """
    Screen { align: center top; }
    Vertical { width: 50; height: auto; border: round $accent; padding: 0 1; }
    Input { width: 100%; }
    """
    BINDINGS = [("ctrl+q", "quit", "Quit")]

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("Sign up")
            yield Input(placeholder="Name", id="name")
            yield Input(placeholder="City", id="city")
            yield Label("Tab: next field  Enter: send", id="status")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        name = self.query_one("#name", Input).value
        city = self.query_one("#city", Input).value
        self.query_one("#status", Label).update(f"Welcome, {name!r} of {city!r}!")


if __name__ == "__main__":
    SignUp().run()
