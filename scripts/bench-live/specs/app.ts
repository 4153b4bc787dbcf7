// Shared set-up: the todoapp debug binary at 80x24, as tests/apps/todoapp/casts/*.toml run it.
// The clock is frozen (TODOAPP_CLOCK=frozen): tui-test snapshots cannot mask it.
//
// TUI_TEST_LAUNCH=program (default): tui-test's `program` option starts todoapp in the pty. With
// a program, tui-test 0.0.2 first waits up to 5 s for it to exit (meant for short commands)
// before the test body runs, so every test of a program that stays up costs 5 s.
// TUI_TEST_LAUNCH=shell: tui-test starts bash (its own prompt), waits for the prompt, and the
// test types `exec todoapp`, so the program still owns the pty and its exit status ends it.
import path from "node:path";
import process from "node:process";
import { Shell } from "@microsoft/tui-test";

const bin = path.resolve(process.cwd(), "../../target/debug/todoapp");
const viaShell = process.env.TUI_TEST_LAUNCH === "shell";
const env = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  TERM: "xterm-256color",
  LANG: "C.UTF-8",
  TZ: "UTC",
  TODOAPP_CLOCK: "frozen",
};

export const todoapp = viaShell
  ? { shell: Shell.Bash, columns: 80, rows: 24, env }
  : { program: { file: bin }, columns: 80, rows: 24, env };

// Call first in every test: starts todoapp when it runs under the shell.
export const launch = (terminal: { submit: (data?: string) => void }) => {
  if (viaShell) terminal.submit(`exec ${bin}`);
};
