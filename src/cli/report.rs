//! `tuicast report DIR`: make a report folder's page again from its data (after the data of
//! several CI machines was gathered in one folder), with the GitHub summary.

use std::path::PathBuf;
use std::process::ExitCode;

use tuicast::report::ReportDir;

/// Make DIR/index.html again from DIR/data (the results of every process that wrote there).
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    tuicast report report/     after gathering the data/ of several CI jobs in report/\n\n\
    Under GitHub Actions (GITHUB_STEP_SUMMARY set) a short summary is appended to the job's page.\n\
    Exit status: 0 when nothing failed, 1 when a result in the report failed.")]
pub(super) struct Args {
    /// The report folder.
    dir: PathBuf,
}

pub(super) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let dir = ReportDir::new(&args.dir);
    if !args.dir.join("data").is_dir() {
        anyhow::bail!(
            "{}: not a tuicast report folder (no data/ in it)",
            tuicast::escape::escape_for_terminal(&args.dir.display().to_string(), 300)
        );
    }
    let mut out = std::io::stdout().lock();
    super::test::write_report(&dir, &mut out, true)?;
    let failed = dir
        .read()?
        .iter()
        .flat_map(|c| &c.results)
        .any(|r| r.failed());
    Ok(if failed {
        ExitCode::from(super::EXIT_CHECK_FAILED)
    } else {
        ExitCode::SUCCESS
    })
}
