//! Integration tests, one binary (`cargo test --test it`). Modules:
//! - `codec`: reading v1/v2/v3 fixtures, every header field and event code, write→read round trips.
//! - `malformed`: every malformed-input fixture gives its `path:line:column` error and exit 2.
//! - `cli`: the real `tuicast` binary: replay, info, convert, exit statuses, help.
//! - `asciinema`: interoperability with asciinema 3 (`asciinema rec`, `asciinema convert`).
//! - `examples`: the bundled example suite in `casts/` replays to what tmux showed.
//! - `failures`: failures as data: `failure` in `run`, test messages and session replies.
//! - `expect`: `[[check.expect]]` on regions anchored by content: pass, fail on text, style, region.
//! - `snapshots`: goldens, update modes, review commands, masks, orphans (real binary).
//! - `record`: the recorder with real programs in real PTYs.
//! - `signals`: SIGINT/SIGTERM/SIGHUP/SIGKILL to `tuicast record`, daemons: nothing survives.
//! - `conformance`: the conformance corpus replays (avt) to what tmux or xterm showed; docs table
//!   scoring tuicast, raw avt 0.17, vt100 and alacritty_terminal (`conformance/raw.rs`) on it.
//! - `png`: PNG and GIF renders checked by decoded pixels, determinism, the picture CLI.
//! - `animation`: animated SVG and APNG of a cast, looked at in Chromium and Firefox.
//! - `fonts`: system fonts for CJK and emoji on a live neovim screen; goldens never use them.
//! - `harness`: a temporary crate using `tuicast::harness` under cargo test and nextest.
//! - `hostile`: hostile repositories and careless users: nothing deleted, leaked or crashed.
//! - `budgets`: issue 41's budgets: adapter refs, `many`, regexes, the engine's work per byte, the daemon.
//! - `limits`: docs/limits.md's limits: worst small inputs under a 1 GiB address-space limit.
//! - `cursor`: the cursor in goldens: hidden (no position), `[check] cursor = false`, masked.
//! - `live`: live regression of the user's own program: `bin =`, paths from any folder, settling.
//! - `input`: mouse, paste and focus steps: eventsapp byte for byte, vim, less, bash readline.
//! - `keyboard`: keys by the kitty flags or modifyOtherKeys a Python program set (`keysapp`), in
//!   scenarios and a session; `CSI ? u` answered; the flags in `tuicast info`.
//! - `inspect`: `tuicast inspect` and `tuicast::inspect` on real screens: outline, prompts, tables.
//! - `repeat`: the flake guard, `--repeat N`: changing and steady programs recorded N times.
//! - `mcp`: `tuicast mcp` under the official MCP Python SDK: vim edited over MCP, saved, `tuicast test`.
//! - `live_runs`: which casts are recorded live, one recording per cast under nextest, one accept.
//! - `edit_loop`: scenarios edited as authors edit them: checkpoints added, renamed, removed; no cast yet.
//! - `session`: `tuicast session` as an agent drives it: vim, prompts, secrets, crashes, other users.
//! - `run`: `tuicast run`, the data path: output and status as JSON, limits, base64, stdin, env, secrets.
//! - `layers`: ARCHITECTURE.md's layer rule, checked on the sources.
//! - `report`: the HTML report in headless Chromium, `accept --from`, the GitHub summary.
//! - `reports`: the report suite (what programs ask the terminal) through `tuicast record`, vs xterm 379.
//! - `termstate`: titles, bells, OSC 52, OSC 8, scrollback of real programs; waits; tmux oracle.
//! - `pacing`: keys as a person types them: ink, Textual and curses apps recorded live, also under load.
//! - `python`: the wheel (maturin) and pytest plugin on a prompt_toolkit app in a fresh venv; `--list`, `--exact`.
//! - `screenshots`: `[[screenshot]]` docs images: `tuicast screenshots`, stale ones failing tests, review, hostile outputs.
//! - `watch`: `tuicast session events` to several watchers (one stalled) and `attach` in a real PTY: take over, give back, restore.
//! - `readme`: every `tuicast` command line in README.md's `sh` blocks runs (or is excused).
//! - `shell_marks`: a real bash's OSC 133 marks: `@shell.*` refs from them, the wait for a command's end, a committed cast.
//! - `screens`: issue 42's labelled screens of real programs: tables, prompts and refs, no wrong answer.
//! - `util`: shared helpers: repository paths, `Tuicast` (run the binary) and its `Run`.

mod adapters;
mod agent_demos;
mod animation;
mod asciinema;
mod budgets;
mod ci_action;
mod cli;
mod codec;
mod conformance;
mod cursor;
mod edit_loop;
mod examples;
mod expect;
mod failures;
mod fonts;
mod harness;
mod hostile;
mod input;
mod inspect;
mod junit;
mod keyboard;
mod layers;
mod limits;
mod live;
mod live_runs;
mod malformed;
mod mcp;
mod outputs;
mod pacing;
mod png;
mod prompts;
mod python;
mod readme;
mod record;
mod refs;
mod repeat;
mod report;
mod reports;
mod run;
mod schemas;
mod screens;
mod screenshots;
mod session;
mod shell_marks;
mod signals;
mod snapshots;
mod svg;
mod termstate;
mod util;
mod watch;
mod webdriver;
