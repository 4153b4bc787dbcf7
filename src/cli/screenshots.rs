//! `tuicast screenshots`: the `[[screenshot]]` images of `tuicast.toml`, drawn again from
//! their casts and written where they changed (`--check`: only say which are stale).

use std::io::Write;
use std::process::ExitCode;

use tuicast::config::Config;
use tuicast::escape::escape_for_terminal;
use tuicast::harness::screenshot::{self, Freshness};

/// Draw the `[[screenshot]]` images of tuicast.toml from their casts and write those that
/// changed.
///
/// Each table names a cast, a checkpoint (or a time), an output (.png, .svg or .gif inside
/// the project) and picture options (theme, chrome, title, annotate). `tuicast test` and the
/// cargo test harness check every screenshot as a test named `screenshot:OUTPUT`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    tuicast screenshots                          draw every screenshot, write the changed ones\n  \
    tuicast screenshots docs/screenshots/        only those whose output contains this\n  \
    tuicast screenshots --check                  exit 1 if any is stale, writing nothing\n\n\
    In tuicast.toml:\n  \
    [[screenshot]]\n  \
    cast = \"casts/demo.cast\"\n  \
    checkpoint = \"prompt\"          # or at = \"1.5s\"; neither: the last screen\n  \
    output = \"docs/screenshots/demo.png\"\n  \
    theme = \"dracula\"\n  \
    chrome = true")]
pub(super) struct Args {
    /// Only the screenshots whose output contains one of these (default: all).
    #[arg(value_name = "NAME")]
    names: Vec<String>,
    /// Write nothing; exit 1 when a screenshot is missing or stale.
    #[arg(long)]
    check: bool,
}

pub(super) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let cwd = std::env::current_dir()?;
    let config = Config::find(&cwd, &cwd)?;
    let selected = screenshot::select(&config, &args.names)?;
    if selected.is_empty() {
        eprintln!(
            "no [[screenshot]] tables in {}",
            escape_for_terminal(
                &config
                    .root
                    .join(tuicast::config::CONFIG_FILE)
                    .display()
                    .to_string(),
                300
            )
        );
        return Ok(ExitCode::SUCCESS);
    }
    let mut out = std::io::stdout().lock();
    let (mut stale, mut failed) = (0, false);
    // Drawn on every core, told in the file's order.
    tuicast::util::par_map_ordered(
        &selected,
        |shot| {
            screenshot::render(&config, shot)
                .and_then(|b| screenshot::freshness(shot, &b).map(|f| (b, f)))
        },
        |i, drawn| -> anyhow::Result<()> {
            let shot = selected[i];
            let name = escape_for_terminal(&shot.name, 300);
            let (bytes, fresh) = match drawn {
                Ok(d) => d,
                Err(e) => {
                    eprintln!("error: {e}");
                    failed = true;
                    return Ok(());
                }
            };
            let what = match &fresh {
                Freshness::Same => {
                    writeln!(out, "unchanged {name}")?;
                    return Ok(());
                }
                Freshness::Missing => "new",
                Freshness::Changed(_) => "changed",
            };
            stale += 1;
            if args.check {
                let how = match &fresh {
                    Freshness::Changed(how) => format!(": {how}"),
                    _ => String::new(),
                };
                writeln!(out, "stale {name} ({what}{how})")?;
                return Ok(());
            }
            screenshot::write(&config, shot, &bytes)?;
            // Written: a pending image from a test run is no longer needed.
            let _ = std::fs::remove_file(screenshot::pending_path(&config, shot));
            writeln!(out, "wrote {name} ({what})")?;
            Ok(())
        },
    )?;
    out.flush()?;
    if failed {
        return Ok(ExitCode::from(super::EXIT_BAD_INPUT));
    }
    if args.check && stale > 0 {
        eprintln!("{stale} screenshot(s) stale: regenerate them with `tuicast screenshots`");
        return Ok(ExitCode::from(super::EXIT_CHECK_FAILED));
    }
    Ok(ExitCode::SUCCESS)
}
