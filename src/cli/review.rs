//! `tuicast review`, `accept`, `reject`, `pending`: deal with `.new` snapshots.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use tuicast::assert::pending::{self, Change, Pending};
use tuicast::config::Config;
use tuicast::harness::LiveMode;

/// Filter shared by the review commands.
#[derive(Debug, clap::Args)]
pub(super) struct FilterArgs {
    /// Only snapshots whose name (path under snapshots/, like `vim/saved.txt`) contains this.
    /// Several filters select the union.
    filters: Vec<String>,
}

/// Walk pending snapshots: show each diff and ask a (accept), r (reject), s (skip), q (quit).
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  tuicast review\n  tuicast review vim/\n  tuicast review --list"
)]
pub(super) struct ReviewArgs {
    #[command(flatten)]
    filter: FilterArgs,
    /// Print the pending snapshots and exit (same as `tuicast pending`).
    #[arg(long)]
    list: bool,
}

/// The pending changes the filters select: each live recording (`casts/NAME.cast.new`) with
/// the `.new` snapshots of its cast, every other `.new` snapshot alone. A filter that selects
/// any part of a change selects all of it.
fn load(filter: &FilterArgs) -> anyhow::Result<(Config, Vec<Change>, Refused)> {
    // The project of the working folder, from any folder inside it.
    let cwd = std::env::current_dir()?;
    let config = Config::find(&cwd, &cwd)?;
    let snapshots = pending::list(&config.snapshots)?;
    // The new images of changed screenshots, pointed at their declared outputs.
    let outputs: Vec<String> = config.screenshots.iter().map(|s| s.name.clone()).collect();
    let (snapshots, refused) =
        pending::retarget_screenshots(&config.root, &config.snapshots, &outputs, snapshots);
    // Said, not skipped: a new image that cannot be accepted is a change left behind.
    let selects = |name: &str| {
        filter.filters.is_empty() || filter.filters.iter().any(|f| name.contains(f.as_str()))
    };
    let refused: Vec<String> = refused
        .into_iter()
        .filter(|(name, _)| selects(name))
        .map(|(name, why)| {
            format!(
                "{}: cannot be accepted: {why}; make the output a regular file in the project, \
                 or run: tuicast screenshots",
                tuicast::escape::escape_for_terminal(&name, 300)
            )
        })
        .collect();
    for r in &refused {
        eprintln!("error: {r}");
    }
    // Live recordings that differed from their goldens: casts/NAME.cast.new.
    let mut recordings = Vec::new();
    for mut p in pending::list(&config.casts)? {
        if p.golden.extension().is_some_and(|e| e == "cast") {
            p.name = format!("casts/{}", p.name);
            recordings.push(p);
        }
    }
    let selected = pending::group(&config.snapshots, snapshots, &config.casts, recordings)
        .into_iter()
        .filter(|c| filter.filters.is_empty() || filter.filters.iter().any(|f| c.matches(Some(f))))
        .collect();
    Ok((config, selected, Refused(!refused.is_empty())))
}

/// Whether [`load`] refused a pending image the filters select (said on stderr): the
/// command then exits 2 after doing the rest.
#[derive(Debug, Clone, Copy)]
struct Refused(bool);

impl Refused {
    /// `ExitCode::SUCCESS`, or exit 2 when something was refused.
    fn exit(self) -> ExitCode {
        if self.0 {
            ExitCode::from(super::EXIT_BAD_INPUT)
        } else {
            ExitCode::SUCCESS
        }
    }
}

/// `tuicast pending`: one pending snapshot per line (golden name, then the `.new` path).
pub(super) fn pending(filter: FilterArgs) -> anyhow::Result<ExitCode> {
    let (_, changes, refused) = load(&filter)?;
    let mut out = std::io::stdout().lock();
    for p in changes.iter().flat_map(Change::items) {
        let state = if p.golden.exists() { "changed" } else { "new" };
        writeln!(
            out,
            "{state}\t{}\t{}",
            p.shown_name(),
            tuicast::escape::escape_for_terminal(&p.new.display().to_string(), 300)
        )?;
    }
    Ok(refused.exit())
}

/// Replace goldens with their pending `.new` files, or with the changes a CI run left in a
/// report folder (`--from DIR`).
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    tuicast accept                    every pending .new file\n  \
    tuicast accept vim/               those under snapshots/vim/\n  \
    tuicast accept --from report/     the changes of a CI report (downloaded artifact)")]
pub(super) struct AcceptArgs {
    #[command(flatten)]
    filter: FilterArgs,
    /// A report folder (`tuicast test --report DIR`, TUICAST_REPORT): apply its changes,
    /// refusing any whose local golden changed since the report compared it.
    #[arg(long, value_name = "DIR")]
    from: Option<std::path::PathBuf>,
}

/// `tuicast accept [FILTER...] [--from DIR]`.
pub(super) fn accept(args: AcceptArgs) -> anyhow::Result<ExitCode> {
    let Some(dir) = args.from else {
        return apply(args.filter, true);
    };
    let cwd = std::env::current_dir()?;
    let here = Config::find(&cwd, &cwd)?;
    if !dir.join("data").is_dir() {
        anyhow::bail!(
            "{}: not a tuicast report folder (no data/ in it)",
            tuicast::escape::escape_for_terminal(&dir.display().to_string(), 300)
        );
    }
    // The report names each cast's project relative to the repository it was made in, so it
    // applies from any folder of the checkout, to each project of a workspace.
    let projects = match tuicast::report::ReportDir::new(&dir).projects() {
        Ok(p) => p,
        Err((path, e)) => {
            eprintln!(
                "error: refused the whole report, nothing was written: {}: {e}",
                shown(&path)
            );
            return Ok(ExitCode::from(super::EXIT_BAD_INPUT));
        }
    };
    let repo = tuicast::report::repository_root(&here.root);
    // Every project's changes are checked before any is written: one refused project leaves
    // the others untouched too.
    let mut plans = Vec::new();
    for name in &projects {
        let root = match (&repo, name.as_str()) {
            (_, "") | (None, _) => here.root.clone(),
            (Some(r), n) => r.join(n),
        };
        let plain = std::path::Path::new(name)
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_)));
        if !plain || !root.is_dir() {
            eprintln!(
                "error: refused the whole report: its project {} is not a folder of this checkout",
                tuicast::escape::escape_for_terminal(name, 200)
            );
            return Ok(ExitCode::from(super::EXIT_BAD_INPUT));
        }
        let config = Config::load(&root)?;
        match accept_project(&dir, &config, name, &args.filter.filters)? {
            Ok(plan) => plans.push(plan),
            Err(e) => return Ok(accept_failed(e)),
        }
    }
    let mut all = Vec::new();
    for plan in plans {
        match plan.apply() {
            Ok(done) => all.extend(done),
            Err(e) => return Ok(accept_failed(e)),
        }
    }
    if all.is_empty() {
        eprintln!(
            "no changes in the report{}",
            if args.filter.filters.is_empty() {
                ""
            } else {
                " match"
            }
        );
    }
    for a in &all {
        println!(
            "accepted {} ({})",
            tuicast::escape::escape_for_terminal(&a.name, 300),
            if a.created { "new" } else { "changed" }
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The exit of a refused `accept --from`: goldens changed since the report is a check that
/// failed (1); anything else is a report that does not hold up, bad input (2).
fn accept_failed(e: tuicast::report::AcceptError) -> ExitCode {
    eprintln!("error: {e}");
    match e {
        tuicast::report::AcceptError::Stale(_) => ExitCode::from(super::EXIT_CHECK_FAILED),
        _ => ExitCode::from(super::EXIT_BAD_INPUT),
    }
}

/// The changes of the report in `dir` for the project of `config` (named `name` in it),
/// checked against that project's casts: what accepting them would write.
fn accept_project(
    dir: &std::path::Path,
    config: &Config,
    name: &str,
    filters: &[String],
) -> anyhow::Result<Result<tuicast::report::AcceptPlan, tuicast::report::AcceptError>> {
    // Writes only inside the project: a `snapshots` folder that is a link out of it, or a
    // `snapshots = "../x"`, takes no golden from a report.
    let inside = tuicast::util::resolved(&config.snapshots)
        .starts_with(tuicast::util::resolved(&config.root));
    if !inside {
        anyhow::bail!(
            "the snapshots folder {} is outside the project: accept --from writes goldens only \
             inside it",
            shown(&config.snapshots)
        );
    }
    // Every golden the checkout's casts produce, recorded live (the checkpoints their
    // scenarios plan) or replayed (their casts'): the only names a report may change.
    let cases: Vec<tuicast::harness::Case> = [LiveMode::Always, LiveMode::Never]
        .into_iter()
        .flat_map(|live| tuicast::harness::discover(config, &[], live))
        .collect();
    let known: std::collections::HashSet<String> = cases
        .iter()
        .flat_map(|case| tuicast::harness::expected_snapshots(config, case))
        .map(|golden| pending::relative_name(&config.snapshots, &golden))
        .collect();
    let known_casts: std::collections::HashSet<String> = cases
        .iter()
        .map(|case| pending::relative_name(&config.root, &case.cast))
        .collect();
    let project = tuicast::report::ProjectCasts {
        root: &config.root,
        known: &known_casts,
        name,
        screenshots: &config.screenshots,
    };
    Ok(tuicast::report::plan_accept_from(
        dir,
        &config.snapshots,
        filters,
        &known,
        Some(project),
    ))
}

/// `tuicast reject [FILTER...]`.
pub(super) fn reject(filter: FilterArgs) -> anyhow::Result<ExitCode> {
    apply(filter, false)
}

fn apply(filter: FilterArgs, accept: bool) -> anyhow::Result<ExitCode> {
    let (_, items, refused) = load(&filter)?;
    if items.is_empty() {
        eprintln!(
            "no pending snapshots{}",
            if filter.filters.is_empty() {
                ""
            } else {
                " match"
            }
        );
        return Ok(refused.exit());
    }
    for change in &items {
        for p in change.items() {
            if accept {
                p.accept()?;
                println!("accepted {}", p.shown_name());
            } else {
                p.reject()?;
                println!("rejected {}", p.shown_name());
            }
        }
    }
    Ok(refused.exit())
}

/// `tuicast review`: the interactive loop.
pub(super) fn review(args: ReviewArgs) -> anyhow::Result<ExitCode> {
    if args.list {
        return pending(args.filter);
    }
    let (config, items, refused) = load(&args.filter)?;
    if items.is_empty() {
        println!("no pending snapshots");
        return Ok(refused.exit());
    }
    let color = tuicast::harness::use_color(std::io::stdout().is_terminal());
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let (mut accepted, mut rejected, mut skipped) = (0, 0, 0);
    for (i, change) in items.iter().enumerate() {
        let shown_name = tuicast::escape::escape_for_terminal(change.name(), 300);
        println!("[{}/{}] {shown_name}", i + 1, items.len());
        if let Some(cast) = &change.cast {
            show_recording(&config, cast, color)?;
            if !change.snapshots.is_empty() {
                println!("  with the snapshots it changes (taken or left together):");
                for s in &change.snapshots {
                    println!("    {}", s.shown_name());
                }
            }
        } else {
            show_snapshot(&change.snapshots[0], color)?;
        }
        loop {
            print!("a accept, r reject, s skip, q quit > ");
            std::io::stdout().flush()?;
            let mut answer = String::new();
            if read_answer(&mut input, &mut answer)? == 0 {
                println!();
                println!(
                    "{accepted} accepted, {rejected} rejected, {} skipped",
                    skipped + items.len() - i
                );
                return Ok(refused.exit());
            }
            match answer.trim() {
                "a" => {
                    change.accept()?;
                    accepted += 1;
                }
                "r" => {
                    change.reject()?;
                    rejected += 1;
                }
                "s" | "" => skipped += 1,
                "q" => {
                    println!(
                        "{accepted} accepted, {rejected} rejected, {} skipped",
                        skipped + items.len() - i
                    );
                    return Ok(refused.exit());
                }
                _ => continue,
            }
            break;
        }
    }
    println!("{accepted} accepted, {rejected} rejected, {skipped} skipped");
    Ok(refused.exit())
}

/// Reads one answer: a single key, without Enter, when standard input is a terminal (the
/// terminal is put in non-canonical mode for that one read, and restored); a line otherwise
/// (scripts, tests). Gives the bytes read, 0 at the end of input.
fn read_answer(input: &mut impl std::io::BufRead, answer: &mut String) -> std::io::Result<usize> {
    use nix::sys::termios::{self, LocalFlags, SetArg};
    let stdin = std::io::stdin();
    let Ok(saved) = termios::tcgetattr(&stdin) else {
        return input.read_line(answer);
    };
    let mut raw = saved.clone();
    raw.local_flags
        .remove(LocalFlags::ICANON | LocalFlags::ECHO);
    termios::tcsetattr(&stdin, SetArg::TCSANOW, &raw).map_err(std::io::Error::from)?;
    let mut key = [0u8; 1];
    let read = input.read(&mut key);
    let _ = termios::tcsetattr(&stdin, SetArg::TCSANOW, &saved);
    let n = read?;
    if n == 1 {
        answer.push(key[0] as char);
        // Echo the key and end the prompt's line, as Enter would have.
        println!(
            "{}",
            if key[0].is_ascii_graphic() {
                key[0] as char
            } else {
                ' '
            }
        );
    }
    Ok(n)
}

/// One pending snapshot: the diff of a text golden, the new text, or the files of a picture.
fn show_snapshot(p: &Pending, color: bool) -> anyhow::Result<()> {
    let picture = ["png", "gif"]
        .iter()
        .any(|x| p.golden.extension().is_some_and(|e| e == *x))
        || p.name.starts_with("screenshot:");
    if picture {
        // A picture: point at the files to look at.
        let shown = |path: &std::path::Path| {
            tuicast::escape::escape_for_terminal(&path.display().to_string(), 300)
        };
        println!("  new picture:  {}", shown(&p.new));
        if p.golden.exists() {
            println!("  golden:       {}", shown(&p.golden));
        }
        let diff = tuicast::assert::diff_image_path(&p.golden);
        if diff.exists() {
            println!("  changed cells: {}", shown(&diff));
        }
    } else if let Some((old, new)) = text_pair(p)? {
        print!("{}", tuicast::assert::unified(&old, &new, color));
    } else {
        let new = read_pending(&p.new)?;
        println!("  new snapshot:");
        for line in new.lines() {
            println!("  +{}", tuicast::escape::escape_for_terminal(line, 500));
        }
    }
    Ok(())
}

/// A live recording against the cast it would replace: each checkpoint's screen (the cast's
/// masks applied), its text diff, then its style changes; never the cast's JSON lines.
fn show_recording(config: &Config, p: &Pending, color: bool) -> anyhow::Result<()> {
    use tuicast::assert::{self, Format};
    let case = tuicast::harness::load_case(config, p.golden.clone(), LiveMode::Never);
    let screens = |path: &std::path::Path| -> anyhow::Result<Vec<tuicast::replay::Checkpoint>> {
        let reader = tuicast::cast::open(path)?;
        Ok(tuicast::replay::checkpoints(reader, config.engine)?)
    };
    let old = if p.golden.exists() {
        screens(&p.golden)?
    } else {
        Vec::new()
    };
    let new = screens(&p.new)?;
    let masked = |s: &tuicast::term::Screen| assert::apply_all(&case.masks, s);
    let esc = |t: &str| tuicast::escape::escape_for_terminal(t, 100);
    println!("  the new recording {}:", esc(&p.new.display().to_string()));
    for cp in &new {
        let screen = masked(&cp.screen);
        let Some(before) = old.iter().find(|o| o.name == cp.name) else {
            println!("  checkpoint \"{}\": new", esc(&cp.name));
            for line in tuicast::render::text(&screen).lines() {
                println!("  +{}", tuicast::escape::escape_for_terminal(line, 500));
            }
            continue;
        };
        let before = masked(&before.screen);
        let (old_text, new_text) = (
            tuicast::render::text(&before),
            tuicast::render::text(&screen),
        );
        let styled = |s: &tuicast::term::Screen| assert::render(Format::Styled, "", &cp.name, s);
        let styles = assert::compare(&styled(&before), &styled(&screen), false)
            .map(|d| d.style_changes)
            .unwrap_or_default();
        if old_text == new_text && styles.is_empty() {
            println!("  checkpoint \"{}\": unchanged", esc(&cp.name));
            continue;
        }
        println!("  checkpoint \"{}\":", esc(&cp.name));
        if old_text != new_text {
            print!("{}", assert::unified(&old_text, &new_text, color));
        }
        for change in &styles {
            println!("  style: {change}");
        }
    }
    for cp in old.iter().filter(|o| !new.iter().any(|n| n.name == o.name)) {
        println!(
            "  checkpoint \"{}\": gone from the new recording",
            esc(&cp.name)
        );
    }
    Ok(())
}

/// The golden's and the pending file's text, when a golden exists and is not empty. Both are
/// read as goldens are (`assert::read_golden`): a golden committed as a symbolic link is an
/// error naming it, never a diff of what it points to.
fn text_pair(p: &Pending) -> anyhow::Result<Option<(String, String)>> {
    let old = match tuicast::assert::read_golden(&p.golden) {
        Ok(bytes) => String::from_utf8_lossy(&bytes.unwrap_or_default()).into_owned(),
        Err(e) => anyhow::bail!("{}: {e}", shown(&p.golden)),
    };
    if old.is_empty() {
        return Ok(None);
    }
    Ok(Some((old, read_pending(&p.new)?)))
}

/// A pending `.new` file's text, read as goldens are (no symbolic link, a size limit).
fn read_pending(new: &std::path::Path) -> anyhow::Result<String> {
    match tuicast::assert::read_golden(new) {
        Ok(Some(bytes)) => Ok(String::from_utf8_lossy(&bytes).into_owned()),
        Ok(None) => anyhow::bail!("{}: the pending file is gone", shown(new)),
        Err(e) => anyhow::bail!("{}: {e}", shown(new)),
    }
}

/// A path as messages show it: escaped (a repository chooses its file names).
fn shown(path: &std::path::Path) -> String {
    tuicast::escape::escape_for_terminal(&path.display().to_string(), 300)
}
