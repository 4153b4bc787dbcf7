//! Prints every input event it gets, one per line, so tests can check what a program
//! receives from tuicast's mouse, paste and focus steps.
//!
//! ```text
//! eventsapp [--mouse 9|1000|1002|1003] [--encoding 1005|1006|1015] [--focus] [--paste] [--raw]
//! ```
//!
//! The flags enable the DEC private modes themselves (`CSI ? N h`), one at a time, so each
//! tracking mode and encoding is tested alone. Events are decoded by crossterm and printed
//! as `mouse Down(Left) row=5 col=10` (from 1), `focus in`, `paste "text"`, `key Char('a')`;
//! with `--raw` the bytes of each read are printed instead, escaped (`ESC[<0;10;5M`). `q`
//! quits; the modes are reset on the way out.

use std::io::{self, Read, Write};

use crossterm::event::{self, Event, KeyCode, KeyEventKind};
use crossterm::terminal;

fn main() -> io::Result<()> {
    let mut modes = Vec::new();
    let mut raw = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--mouse" | "--encoding" => match args.next().and_then(|n| n.parse::<u16>().ok()) {
                Some(n) => modes.push(n),
                None => return usage(&format!("{arg} needs a mode number")),
            },
            "--focus" => modes.push(1004),
            "--paste" => modes.push(2004),
            "--raw" => raw = true,
            other => return usage(&format!("unknown argument {other:?}")),
        }
    }
    terminal::enable_raw_mode()?;
    let mut out = io::stdout();
    for m in &modes {
        write!(out, "\x1b[?{m}h")?;
    }
    let shown: Vec<String> = modes.iter().map(u16::to_string).collect();
    write!(out, "ready, modes {}\r\n", shown.join(" "))?;
    out.flush()?;
    let result = if raw {
        raw_loop(&mut out)
    } else {
        event_loop(&mut out)
    };
    for m in modes.iter().rev() {
        write!(out, "\x1b[?{m}l")?;
    }
    write!(out, "bye\r\n")?;
    out.flush()?;
    terminal::disable_raw_mode()?;
    result
}

fn usage(message: &str) -> io::Result<()> {
    eprintln!("eventsapp: {message}");
    eprintln!(
        "usage: eventsapp [--mouse 9|1000|1002|1003] [--encoding 1005|1006|1015] [--focus] [--paste] [--raw]"
    );
    std::process::exit(2)
}

fn event_loop(out: &mut impl Write) -> io::Result<()> {
    loop {
        let line = match event::read()? {
            Event::Key(k) if k.kind == KeyEventKind::Press && k.code == KeyCode::Char('q') => {
                return Ok(())
            }
            Event::Key(k) => format!("key {:?}", k.code),
            Event::Mouse(m) => format!("mouse {:?} row={} col={}", m.kind, m.row + 1, m.column + 1),
            Event::FocusGained => "focus in".to_string(),
            Event::FocusLost => "focus out".to_string(),
            Event::Paste(text) => format!("paste {text:?} ({} bytes)", text.len()),
            Event::Resize(c, r) => format!("resize {c}x{r}"),
        };
        write!(out, "{line}\r\n")?;
        out.flush()?;
    }
}

fn raw_loop(out: &mut impl Write) -> io::Result<()> {
    let mut stdin = io::stdin();
    let mut buf = [0u8; 1024];
    loop {
        let n = stdin.read(&mut buf)?;
        if n == 0 || buf[..n] == *b"q" {
            return Ok(());
        }
        let mut line = String::from("raw ");
        for &b in &buf[..n] {
            match b {
                0x1b => line.push_str("ESC"),
                0x20..=0x7e => line.push(b as char),
                _ => line.push_str(&format!("\\x{b:02x}")),
            }
        }
        write!(out, "{line}\r\n")?;
        out.flush()?;
    }
}
