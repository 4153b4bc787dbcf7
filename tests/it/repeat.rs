//! The flake guard (issue 10 #7): `tuicast record --repeat N` and `tuicast test --live
//! --repeat N` record a scenario N times and fail, writing nothing, when checkpoints differ.

use crate::util::Dir;

const CHANGING: &str = "shell = 'echo \"value $(date +%N)\"; echo steady'\nsize = \"30x4\"\nsteps = [{ wait = \"steady\" }, { snapshot = \"shown\" }, { exit = 0 }]\n";
const STEADY: &str = "shell = 'echo \"value 42\"; echo steady'\nsize = \"30x4\"\nsteps = [{ wait = \"steady\" }, { snapshot = \"shown\" }, { exit = 0 }]\n";

fn leftovers(dir: &Dir) -> Vec<String> {
    std::fs::read_dir(dir.join("casts"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".repeat-") || n.ends_with(".partial") || n.ends_with(".new"))
        .collect()
}

#[test]
fn record_repeat_writes_a_steady_cast_and_refuses_a_changing_one() {
    let dir = Dir::new();
    dir.write("casts/steady.toml", STEADY);
    dir.write("casts/changing.toml", CHANGING);
    let out = dir
        .tuicast(["record", "--repeat", "3", "casts/steady.toml"])
        .run()
        .success();
    assert!(dir.join("casts/steady.cast").exists());
    // Each checkpoint's overhead (after the program's last output), over every recording.
    assert!(
        out.to_string()
            .contains("overhead per checkpoint over 3 recordings: median "),
        "{out}"
    );

    let out = dir
        .tuicast(["record", "--repeat", "3", "casts/changing.toml"])
        .run()
        .fails_with(1);
    let err = out.stderr();
    assert!(
        err.contains("checkpoints differ between 3 recordings of casts/changing.toml"),
        "{out}"
    );
    assert!(
        err.contains("shown: ") && err.contains("varied: 1:"),
        "{out}"
    );
    assert!(err.contains("mask = [{ rows = 1, cols = \""), "{out}");
    assert!(!dir.join("casts/changing.cast").exists(), "nothing written");
    assert_eq!(leftovers(&dir), Vec::<String>::new());

    // The suggested mask (here the widest it can be) makes it steady.
    dir.write(
        "casts/changing.toml",
        format!("{CHANGING}[check]\nmask = [{{ rows = 1, cols = \"7..=15\" }}]\n"),
    );
    dir.tuicast(["record", "--repeat", "3", "casts/changing.toml"])
        .run()
        .success();
    assert!(dir.join("casts/changing.cast").exists());
    assert_eq!(leftovers(&dir), Vec::<String>::new());
}

#[test]
fn test_live_repeat_fails_before_anything_is_accepted() {
    let dir = Dir::new();
    dir.write("casts/steady.toml", STEADY);
    dir.write("casts/changing.toml", CHANGING);
    for s in ["steady", "changing"] {
        dir.tuicast(["record", &format!("casts/{s}.toml")])
            .run()
            .success();
    }
    dir.tuicast(["test", "--update"]).run().success();
    let cast = std::fs::read(dir.join("casts/changing.cast")).unwrap();
    let golden = std::fs::read(dir.join("snapshots/changing/shown.txt")).unwrap();

    let out = dir
        .tuicast(["test", "--live", "--repeat", "3", "--update"])
        .run()
        .fails_with(1);
    let text = out.to_string();
    assert!(
        text.contains("changing::shown") && text.contains("FAILED"),
        "{out}"
    );
    assert!(
        text.contains("casts/steady.toml: overhead per checkpoint over 3 recordings: median "),
        "{out}"
    );
    assert!(
        text.contains("checkpoints differ between 3 recordings of casts/changing.toml"),
        "{out}"
    );
    assert!(text.contains("mask = [{ rows = 1, cols = \""), "{out}");
    assert!(text.contains("steady::shown ... ok"), "{out}");
    // Nothing accepted, written or left behind, even with --update.
    assert_eq!(
        std::fs::read(dir.join("casts/changing.cast")).unwrap(),
        cast
    );
    assert_eq!(
        std::fs::read(dir.join("snapshots/changing/shown.txt")).unwrap(),
        golden
    );
    assert_eq!(leftovers(&dir), Vec::<String>::new());

    let out = dir.tuicast(["test", "--repeat", "2"]).run().fails_with(2);
    assert!(out.stderr().contains("--live"), "{out}");
}
