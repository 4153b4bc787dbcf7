//! Live regression of the user's own program (issue 10): scenarios that name the package's
//! binary, paths that mean the same from any folder, checkpoints on a settled screen.

use crate::util::{Dir, Tuicast};

#[test]
fn bin_names_the_packages_binary_and_says_where_it_looked_when_missing() {
    let dir = Dir::new();
    // This test runs under cargo, which tells its processes where the crate's binary is.
    dir.write(
        "casts/version.toml",
        "bin = \"tuicast\"\nargs = [\"--version\"]\nsize = \"40x3\"\nsteps = [{ wait = \"tuicast\" }, { exit = 0 }]\n",
    );
    dir.tuicast(["record", "casts/version.toml"])
        .run()
        .success();
    let out = dir
        .tuicast(["replay", "casts/version.cast"])
        .run()
        .success();
    assert!(out.stdout().starts_with("tuicast 0."), "{out}");

    dir.write(
        "casts/missing.toml",
        "bin = \"no-such-app\"\nsteps = [{ exit = 0 }]\n",
    );
    let out = dir
        .tuicast(["record", "casts/missing.toml"])
        .run()
        .fails_with(2);
    let err = out.stderr();
    assert!(
        err.contains("bin = \"no-such-app\": no such binary; tried:"),
        "{out}"
    );
    assert!(err.contains("CARGO_BIN_EXE_no-such-app (not set)"), "{out}");
    assert!(err.contains("a Cargo.toml in"), "{out}");
}

#[test]
fn relative_commands_and_cwd_resolve_against_the_scenario_from_any_folder() {
    let dir = Dir::new();
    dir.write("bin/hello", "#!/bin/sh\necho \"hello from $(pwd)\"\n");
    std::fs::set_permissions(
        dir.join("bin/hello"),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    std::fs::create_dir_all(dir.join("work")).unwrap();
    dir.write(
        "casts/hello.toml",
        "command = [\"../bin/hello\"]\ncwd = \"../work\"\nsize = \"80x3\"\nsteps = [{ wait = \"hello\" }, { exit = 0 }]\n",
    );
    // From the project folder, from inside casts/, and from somewhere else entirely.
    let elsewhere = Dir::new();
    for (folder, scenario) in [
        (dir.path().to_path_buf(), "casts/hello.toml".to_string()),
        (dir.join("casts"), "hello.toml".to_string()),
        (
            elsewhere.path().to_path_buf(),
            dir.join("casts/hello.toml").display().to_string(),
        ),
    ] {
        Tuicast::new()
            .args(["record", &scenario])
            .current_dir(&folder)
            .clean_update_env()
            .run()
            .success();
        let out = dir.tuicast(["replay", "casts/hello.cast"]).run().success();
        let work = std::fs::canonicalize(dir.join("work")).unwrap();
        assert!(
            out.stdout()
                .contains(&format!("hello from {}", work.display())),
            "from {}: {out}",
            folder.display()
        );
    }
}
