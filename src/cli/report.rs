//! `tuicast report DIR [FROM...]`: make a report folder's page again from its data, with the
//! GitHub summary; with FROM folders (the reports of a sharded run's jobs), their results are
//! merged into DIR first.

use std::path::PathBuf;
use std::process::ExitCode;

use tuicast::report::ReportDir;

/// Make DIR/index.html again from DIR/data (the results of every process that wrote there);
/// with FROM folders, merge their results into DIR first (a new or report folder).
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    tuicast report report/                          after gathering the data/ of several CI jobs in report/\n  \
    tuicast report merged/ shard-1/ shard-2/        one report (and one accept --from) for a sharded run\n\n\
    Under GitHub Actions (GITHUB_STEP_SUMMARY set) a short summary is appended to the job's page.\n\
    Exit status: 0 when nothing failed, 1 when a result in the report failed.")]
pub(super) struct Args {
    /// The report folder.
    dir: PathBuf,
    /// Report folders whose results are merged into DIR (a partitioned run's jobs).
    #[arg(value_name = "FROM")]
    from: Vec<PathBuf>,
}

pub(super) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let dir = ReportDir::new(&args.dir);
    for from in &args.from {
        let merged = dir.merge_from(from).map_err(|e| {
            anyhow::anyhow!(
                "cannot merge {} into {}: {e}",
                tuicast::escape::escape_for_terminal(&from.display().to_string(), 300),
                tuicast::escape::escape_for_terminal(&args.dir.display().to_string(), 300)
            )
        })?;
        for why in &merged.refused {
            eprintln!("warning: not merged: {why}");
        }
        eprintln!(
            "merged {}: {} files{}",
            tuicast::escape::escape_for_terminal(&from.display().to_string(), 300),
            merged.added,
            if merged.kept > 0 {
                format!(" ({} of the same name kept as they were)", merged.kept)
            } else {
                String::new()
            }
        );
    }
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
