//! A temporary crate that depends on tuicast by path, with `default-features = false` (the
//! harness-only build: no rasterizer, recorder or CLI), and runs its casts through
//! `tuicast::harness` — under `cargo test` and under cargo-nextest (with partitions).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::util::{have, root, Dir, Run, Tuicast};

/// A temporary cargo package using `tuicast::harness` as its `casts` test.
pub(crate) struct Crate {
    pub(crate) dir: Dir,
}

impl Crate {
    /// The package, depending on tuicast with `features` (`""`: the harness-only build), and no
    /// casts yet.
    pub(crate) fn empty(features: &str) -> Crate {
        Crate::named("uses-tuicast", features)
    }

    /// [`Crate::empty`] with another package name: tests run at once share a target folder,
    /// so each package that builds a binary needs a name of its own.
    pub(crate) fn named(name: &str, features: &str) -> Crate {
        let dir = Dir::new();
        dir.write(
            "Cargo.toml",
            format!(
                "[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\n\
                 [dev-dependencies]\ntuicast = {{ path = {:?}, default-features = false, features = [{features}] }}\n\n\
                 [[test]]\nname = \"casts\"\nharness = false\n",
                root().display().to_string()
            ),
        );
        dir.write("src/lib.rs", "");
        dir.write(
            "tests/casts.rs",
            "fn main() {\n    tuicast::harness::main()\n}\n",
        );
        // The same dependency versions as tuicast itself, so no network is needed.
        dir.copy_from_repo("Cargo.lock", "Cargo.lock");
        Crate { dir }
    }

    pub(crate) fn new() -> Crate {
        let c = Crate::empty("");
        let dir = &c.dir;
        dir.copy_from_repo("casts/progress.cast", "casts/progress.cast");
        dir.copy_from_repo("casts/shell.cast", "casts/sub/shell.cast");
        c.tuicast(&["test", "--update"]).success();
        c
    }

    pub(crate) fn path(&self, rel: &str) -> PathBuf {
        self.dir.join(rel)
    }

    /// `cargo ARGS` in the package, offline, with a target folder shared between tests.
    pub(crate) fn cargo(&self, args: &[&str], env: &[(&str, &str)]) -> Output {
        let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
        cmd.args(args)
            .env("CARGO_NET_OFFLINE", "true")
            .current_dir(self.dir.path())
            // A target folder kept between runs (only the first run compiles tuicast), inside
            // the target folder this test was built in, wherever CARGO_TARGET_DIR put it.
            .env("CARGO_TARGET_DIR", target_dir().join("harness-crate"))
            .env_remove("CI")
            .env_remove("TUICAST_UPDATE")
            .env_remove("TUICAST_LIVE")
            .env_remove("NEXTEST_RUN_ID")
            .env_remove("CARGO_MANIFEST_DIR")
            .env("NO_COLOR", "1");
        for (k, v) in env {
            cmd.env(k, v);
        }
        cmd.output().unwrap()
    }

    pub(crate) fn tuicast(&self, args: &[&str]) -> Run {
        self.dir.tuicast(args).run()
    }
}

/// The target folder of this build: `CARGO_TARGET_DIR` when set (as cargo resolves it, relative
/// to the workspace), else the repository's `target/`.
fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(t) => root().join(t),
        None => root().join("target"),
    }
}

/// stdout and stderr of a cargo run, together.
pub(crate) fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn pending(dir: &Path) -> Vec<String> {
    Tuicast::new()
        .arg("pending")
        .current_dir(dir)
        .run()
        .stdout()
        .lines()
        .map(String::from)
        .collect()
}

#[test]
fn a_crate_checks_its_casts_with_cargo_test_and_nextest() {
    let c = Crate::new();

    // Passing suite: one trial per checkpoint, named cast::checkpoint.
    let out = c.cargo(&["test", "--test", "casts"], &[]);
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    for name in [
        "progress::half",
        "progress::done",
        "progress::end",
        "sub/shell::listing",
        "sub/shell::end",
    ] {
        assert!(t.contains(&format!("test {name} ")), "{name} missing:\n{t}");
    }
    assert!(t.contains("7 passed; 0 failed"), "{t}");

    // --list and --exact behave like libtest.
    let out = c.cargo(&["test", "--test", "casts", "--", "--list"], &[]);
    assert!(
        text(&out).contains("progress::half: test"),
        "{}",
        text(&out)
    );
    let out = c.cargo(
        &["test", "--test", "casts", "--", "--exact", "progress::half"],
        &[],
    );
    assert!(
        text(&out).contains("1 passed; 0 failed; 0 ignored; 0 measured; 6 filtered out"),
        "{}",
        text(&out)
    );
    // A broken cast the filter leaves out still fails the run, saying why.
    c.dir.write(
        "casts/bad.cast",
        "{\"version\": 3, \"term\": {\"cols\": 9, \"rows\": 2}}\n[1]\n",
    );
    let out = c.cargo(
        &["test", "--test", "casts", "--", "--exact", "progress::half"],
        &[],
    );
    let t = text(&out);
    assert!(!out.status.success(), "{t}");
    assert!(t.contains("error (filtered out, but broken): "), "{t}");
    assert!(t.contains("bad.cast:2:1"), "{t}");
    fs::remove_file(c.path("casts/bad.cast")).unwrap();

    // A changed golden fails with path, checkpoint, row and column, and writes .new.
    let golden = c.path("snapshots/progress/done.txt");
    let original = fs::read_to_string(&golden).unwrap();
    fs::write(&golden, original.replace("100%", "99%")).unwrap();
    let out = c.cargo(&["test", "--test", "casts"], &[("CI", "true")]);
    let t = text(&out);
    assert!(!out.status.success());
    assert!(
        t.contains("snapshot mismatch: snapshots/progress/done.txt"),
        "{t}"
    );
    assert!(
        t.contains("checkpoint \"done\" of casts/progress.cast:"),
        "{t}"
    );
    assert!(t.contains("first difference: row "), "{t}");
    assert!(
        pending(c.dir.path()).is_empty(),
        "CI=true must write nothing"
    );
    // TUICAST_REPORT under cargo test: one page with the failure and the passing trials.
    let rep = c.path("rep-cargo");
    let out = c.cargo(
        &["test", "--test", "casts"],
        &[("CI", "true"), ("TUICAST_REPORT", rep.to_str().unwrap())],
    );
    assert!(!out.status.success());
    assert_report(&rep, "6 passed", "1 failed");
    // `tuicast test` adds to the same report as `cargo test` did (one driver, one entry per
    // cast): it replaces the cast's data file (two files per cast before) and the page still
    // counts each trial once.
    let data_files = || fs::read_dir(rep.join("data")).unwrap().count();
    let before = data_files();
    c.dir
        .tuicast(["test"])
        .envs(&[("CI", "true"), ("TUICAST_REPORT", rep.to_str().unwrap())])
        .run()
        .fails_with(1);
    assert_eq!(data_files(), before);
    assert_report(&rep, "6 passed", "1 failed");
    let out = c.cargo(&["test", "--test", "casts"], &[]);
    assert!(!out.status.success());
    assert!(
        text(&out).contains("to accept: tuicast accept progress/done.txt"),
        "{}",
        text(&out)
    );
    assert_eq!(pending(c.dir.path()).len(), 1);

    // Accepting the pending file makes it pass again.
    c.tuicast(&["accept"]).success();
    assert_eq!(fs::read_to_string(&golden).unwrap(), original);
    assert!(c.cargo(&["test", "--test", "casts"], &[]).status.success());

    // cargo-nextest runs the same trials, and partitions split them.
    if !have("cargo-nextest") {
        assert!(
            std::env::var_os("CI").is_none(),
            "cargo-nextest is required under CI"
        );
        eprintln!("skipping nextest: cargo-nextest is not installed");
        return;
    }
    let out = c.cargo(
        &["nextest", "run", "--test", "casts", "--no-fail-fast"],
        &[],
    );
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    assert!(t.contains("7 tests run: 7 passed"), "{t}");
    let mut seen = Vec::new();
    for part in ["count:1/2", "count:2/2"] {
        let out = c.cargo(
            &["nextest", "run", "--test", "casts", "--partition", part],
            &[],
        );
        let t = text(&out);
        assert!(out.status.success(), "{t}");
        for line in t.lines().filter(|l| l.contains(" PASS ")) {
            seen.push(line.rsplit(' ').next().unwrap().to_string());
        }
    }
    seen.sort();
    seen.dedup();
    assert_eq!(
        seen.len(),
        7,
        "the partitions cover every trial once: {seen:?}"
    );

    // TUICAST_REPORT under nextest: every trial process adds to one page.
    fs::write(&golden, original.replace("100%", "99%")).unwrap();
    let rep = c.path("rep-nextest");
    let out = c.cargo(
        &["nextest", "run", "--test", "casts", "--no-fail-fast"],
        &[("CI", "true"), ("TUICAST_REPORT", rep.to_str().unwrap())],
    );
    assert!(!out.status.success(), "{}", text(&out));
    assert_report(&rep, "6 passed", "1 failed");
    fs::write(&golden, &original).unwrap();
}

/// Issue 40 point 1: a suite moved without telling `tuicast.toml` (`git mv casts
/// tests/casts`) used to run no test and pass. Its goldens now fail the run as `@goldens`,
/// with the move named in the same words under `cargo test`, nextest and `tuicast test`, and
/// the line the message suggests makes the suite pass again; orphans of a cast that still
/// exists are the same note everywhere.
#[test]
fn a_moved_suite_fails_every_runner_naming_the_move() {
    let c = Crate::new();
    fs::rename(c.path("casts"), c.path("tests/casts")).unwrap();
    let words = "the casts moved from casts/ to tests/casts/: to check them there, add \
                 `casts = \"tests/casts\"` to tuicast.toml";
    let out = c.cargo(&["test", "--test", "casts"], &[]);
    let t = text(&out);
    assert!(!out.status.success(), "{t}");
    assert!(t.contains("test @goldens ... FAILED"), "{t}");
    assert!(
        t.contains("7 golden(s) under snapshots belong to no cast"),
        "{t}"
    );
    assert!(t.contains(words), "{t}");
    let out = c.tuicast(&["test"]).fails_with(1);
    assert!(out.stdout().contains(words), "{out}");
    assert!(out.stdout().contains("test @goldens ... FAILED"), "{out}");
    assert!(
        !out.stderr().contains("record one with"),
        "no hint that does not fix it: {out}"
    );
    // Listed for pytest (collected from tuicast.toml), and failing in the JSON records.
    let listed = c
        .tuicast(&["test", "--list", "--message-format", "json"])
        .success();
    assert!(
        listed
            .stdout()
            .lines()
            .any(|l| l.contains("\"test\":\"@goldens\"") && l.contains("tuicast.toml")),
        "{listed}"
    );
    let json = c
        .tuicast(&["test", "--message-format", "json"])
        .fails_with(1);
    assert!(
        json.stdout()
            .lines()
            .any(|l| l.contains("\"test\":\"@goldens\"") && l.contains("\"passed\":false")),
        "{json}"
    );
    if have("cargo-nextest") {
        let out = c.cargo(
            &["nextest", "run", "--test", "casts", "--no-fail-fast"],
            &[],
        );
        let t = text(&out);
        assert!(!out.status.success(), "{t}");
        assert!(t.contains(words), "{t}");
    }
    // The fix the message names.
    c.dir.write("tuicast.toml", "casts = \"tests/casts\"\n");
    let out = c.cargo(&["test", "--test", "casts"], &[]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("7 passed; 0 failed"), "{}", text(&out));
    c.tuicast(&["test"]).success();

    // A golden of a checkpoint no cast makes: the same note from both runners.
    c.dir.write("snapshots/progress/renamed.txt", "old\n");
    let note = "1 orphaned snapshot(s) found (no cast checkpoint produces them):\n  \
                snapshots/progress/renamed.txt\nremove them with: tuicast test --remove-orphans\n";
    let out = c.cargo(&["test", "--test", "casts"], &[]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains(note), "{}", text(&out));
    let out = c.tuicast(&["test"]).success();
    assert!(out.stdout().contains(note), "{out}");
}

/// Issue 40 point 8: a lean dev-dependency (no `png` feature) with a `[[screenshot]]` fails
/// its trial with the Cargo line that turns the feature on, not only that it is off.
#[test]
fn a_lean_build_names_the_cargo_line_a_screenshot_needs() {
    let c = Crate::new();
    c.dir.write(
        "tuicast.toml",
        "[[screenshot]]\ncast = \"casts/progress.cast\"\noutput = \"docs/progress.png\"\n",
    );
    let out = c.cargo(&["test", "--test", "casts"], &[]);
    let t = text(&out);
    assert!(!out.status.success(), "{t}");
    assert!(
        t.contains(&format!(
            "tuicast was built without the png feature, which a [[screenshot]] needs: turn it \
             on in Cargo.toml: tuicast = {{ version = \"{}\", default-features = false, \
             features = [\"png\"] }}",
            env!("CARGO_PKG_VERSION")
        )),
        "{t}"
    );
}

/// The report in `rep` counts `passed` and `failed` and shows the failure of
/// `progress::done` with the changed row, and no lock is left.
fn assert_report(rep: &Path, passed: &str, failed: &str) {
    let html = fs::read_to_string(rep.join("index.html"))
        .unwrap_or_else(|e| panic!("{}: {e}", rep.display()));
    let header = &html[html.find("<header").unwrap()..html.find("</header>").unwrap()];
    assert!(
        header.contains(&format!(
            "<span class=\"passed\">{passed}</span> <span class=\"failed\">{failed}"
        )),
        "{header}"
    );
    assert!(html.contains("data-test=\"progress::done\""), "{header}");
    assert!(html.contains("first difference: row "), "{header}");
    assert!(!rep.join(".lock").exists() && !rep.join(".dirty").exists());
}

/// Issue 26 point 6: a sharded run (nextest partitions, each job its own report folder, as CI
/// matrix jobs upload them) merges into one report with every trial, and one
/// `tuicast accept --from` applies the changes of all the jobs.
#[test]
fn the_reports_of_a_partitioned_run_merge_into_one_page_and_one_accept() {
    if !have("cargo-nextest") {
        assert!(
            std::env::var_os("CI").is_none(),
            "cargo-nextest is required under CI"
        );
        eprintln!("skipping: cargo-nextest is not installed");
        return;
    }
    let c = Crate::named("uses-tuicast-shards", "");
    c.dir
        .copy_from_repo("casts/progress.cast", "casts/progress.cast");
    c.dir
        .copy_from_repo("casts/shell.cast", "casts/sub/shell.cast");
    c.tuicast(&["test", "--update"]).success();
    // One golden of each cast changed: the partitions split the trials, so each job sees
    // some of the failures.
    let progress = c.path("snapshots/progress/done.txt");
    let shell = c.path("snapshots/sub/shell/end.txt");
    let originals = [
        fs::read_to_string(&progress).unwrap(),
        fs::read_to_string(&shell).unwrap(),
    ];
    fs::write(&progress, originals[0].replace("100%", "99%")).unwrap();
    fs::write(&shell, originals[1].replace("$ exit", "$ exot")).unwrap();
    let mut failed_in = Vec::new();
    for (n, part) in ["count:1/2", "count:2/2"].iter().enumerate() {
        let rep = c.path(&format!("shard-{}", n + 1));
        let out = c.cargo(
            &[
                "nextest",
                "run",
                "--test",
                "casts",
                "--no-fail-fast",
                "--partition",
                part,
            ],
            &[
                ("TUICAST_REPORT", rep.to_str().unwrap()),
                ("TUICAST_UPDATE", "no"),
            ],
        );
        failed_in.push(!out.status.success());
        assert!(rep.join("index.html").exists(), "{}", text(&out));
    }
    let merged = c.path("merged");
    let out = c.tuicast(&["report", "merged", "shard-1", "shard-2"]);
    assert_eq!(out.code(), Some(1), "{out}");
    assert!(out.stderr().contains("merged shard-1:"), "{out}");
    let page = fs::read_to_string(merged.join("index.html")).unwrap();
    assert!(
        page.contains("5 passed") && page.contains("2 failed"),
        "{failed_in:?}"
    );
    for test in ["progress::done", "sub/shell::end"] {
        assert!(page.contains(test), "{test} in the merged page");
    }
    // A hostile shard: a symbolic link in its data is not taken.
    let evil = c.path("evil");
    fs::create_dir_all(evil.join("data")).unwrap();
    std::os::unix::fs::symlink("/etc/passwd", evil.join("data/r-0.json")).unwrap();
    let out = c.tuicast(&["report", "merged", "evil"]);
    assert!(
        out.stderr().contains("not merged: evil/data/r-0.json"),
        "{out}"
    );
    assert!(!merged.join("data/r-0.json").exists());

    // One accept takes both jobs' changes: the goldens are what the casts show again.
    c.tuicast(&["accept", "--from", "merged"]).success();
    assert_eq!(fs::read_to_string(&progress).unwrap(), originals[0]);
    assert_eq!(fs::read_to_string(&shell).unwrap(), originals[1]);
    let out = c.cargo(&["test", "--test", "casts"], &[]);
    assert!(out.status.success(), "{}", text(&out));
}
