//! `tuicast run`, the data path (issue 22 point 4), through the real binary with real
//! programs: output and status as data, the limits (time, output) and what they say, bytes
//! that are not UTF-8, standard input, the working folder (`--cwd`), the clean environment and
//! its private HOME, secrets starred, and bad input as one JSON object. Then `tuicast ask`,
//! the short form for AI CLIs, with a script that answers questions standing in for one.

use std::process::{Command, Stdio};

use serde_json::Value;

use crate::util::{Dir, BIN};

/// What one `tuicast run` printed and its exit status.
struct Ran {
    json: Value,
    code: i32,
    stdout: String,
}

impl std::fmt::Display for Ran {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "exit {}\n{}", self.code, self.stdout)
    }
}

fn tuicast_run(dir: &Dir, args: &[&str], env: &[(&str, &str)], input: Option<&[u8]>) -> Ran {
    tuicast_sub("run", dir, args, env, input)
}

/// `tuicast SUB ARGS` in `dir` with `env` added and `input` on its standard input.
fn tuicast_sub(
    sub: &str,
    dir: &Dir,
    args: &[&str],
    env: &[(&str, &str)],
    input: Option<&[u8]>,
) -> Ran {
    use std::io::Write as _;
    let mut cmd = Command::new(BIN);
    cmd.arg(sub).args(args).current_dir(dir.path());
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.stdin(if input.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    })
    .stdout(Stdio::piped())
    .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("run tuicast run");
    if let Some(bytes) = input {
        let mut stdin = child.stdin.take().unwrap();
        let _ = stdin.write_all(bytes);
    }
    let out = child.wait_with_output().expect("tuicast run ends");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(
        stdout.lines().count(),
        1,
        "one JSON line:\n{stdout}\nstderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Ran {
        json: serde_json::from_str(stdout.trim()).unwrap_or(Value::Null),
        code: out.status.code().unwrap_or(-1),
        stdout,
    }
}

fn run(args: &[&str]) -> Ran {
    tuicast_run(&Dir::new(), args, &[], None)
}

/// Standard base64 decoded (the JSON's encoding of bytes that are not UTF-8).
fn unbase64(text: &str) -> Vec<u8> {
    let abc = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut bits = 0u32;
    let mut n = 0;
    let mut out = Vec::new();
    for c in text.bytes().filter(|&c| c != b'=') {
        let v = abc.iter().position(|&a| a == c).expect("base64") as u32;
        bits = bits << 6 | v;
        n += 6;
        if n >= 8 {
            n -= 8;
            out.push((bits >> n) as u8);
        }
    }
    out
}

#[test]
fn a_failing_command_is_data_its_output_status_and_limits_in_one_object() {
    let r = run(&["--", "sh", "-c", "echo out; echo err >&2; exit 3"]);
    assert_eq!(r.code, 0, "the command's failure is data: {r}");
    let j = &r.json;
    assert_eq!(j["status"], serde_json::json!({"code": 3}), "{r}");
    assert_eq!(j["ended_by"], Value::Null, "{r}");
    assert_eq!(j["stdout"], "out\n", "{r}");
    assert_eq!(j["stderr"], "err\n", "{r}");
    assert!(j["duration_ms"].as_u64().is_some(), "{r}");
    assert_eq!(j["exit"], 0, "{r}");
    // The whole object, durations aside.
    crate::outputs::assert_whole(
        "run-output",
        &crate::outputs::normalize_json(j, &["duration_ms", "text"]),
    );
    // A signal is a status too.
    let r = run(&["--", "sh", "-c", "kill -TERM $$"]);
    assert_eq!(r.code, 0, "{r}");
    assert_eq!(
        r.json["status"],
        serde_json::json!({"signal": "SIGTERM"}),
        "{r}"
    );
}

#[test]
fn past_its_timeout_the_command_is_killed_and_the_output_so_far_kept() {
    let started = std::time::Instant::now();
    let r = run(&[
        "--timeout",
        "300ms",
        "--",
        "sh",
        "-c",
        "echo started; exec sleep 30",
    ]);
    assert_eq!(r.code, 1, "tuicast ended it: {r}");
    assert_eq!(r.json["ended_by"], "timeout", "{r}");
    assert_eq!(r.json["status"]["signal"], "SIGKILL", "{r}");
    assert_eq!(r.json["stdout"], "started\n", "{r}");
    assert_eq!(r.json["limits"]["timeout_ms"], 300, "{r}");
    let ms = r.json["duration_ms"].as_u64().unwrap();
    assert!((300..5000).contains(&ms), "{r}");
    assert!(started.elapsed().as_secs() < 10, "{r}");
    // A background child left holding the pipes does not hold the run.
    let started = std::time::Instant::now();
    let r = run(&["--", "sh", "-c", "sleep 30 & echo bg"]);
    assert_eq!(
        (r.code, r.json["stdout"].as_str()),
        (0, Some("bg\n")),
        "{r}"
    );
    assert!(started.elapsed().as_secs() < 10, "{r}");
}

#[test]
fn past_max_output_yes_is_killed_and_its_stdout_truncated_at_the_limit() {
    let r = run(&["--max-output", "1KiB", "--", "yes"]);
    assert_eq!(r.code, 1, "{r}");
    let j = &r.json;
    assert_eq!(j["ended_by"], "max-output", "{r}");
    assert_eq!(
        j["truncated"],
        serde_json::json!({"stdout": true, "stderr": false})
    );
    assert_eq!(j["stdout"].as_str().unwrap(), "y\n".repeat(512), "{r}");
    assert!(j["bytes"]["stdout"].as_u64().unwrap() >= 1024, "{r}");
    assert_eq!(j["limits"]["max_output"], 1024, "{r}");
    // A character cut by the limit is dropped: the text stays text.
    let r = run(&["--max-output", "2", "--", "printf", "a\\303\\251b"]);
    assert_eq!(r.json["stdout"], "a", "{r}");
    assert_eq!(r.json["encoding"]["stdout"], "utf-8", "{r}");
    assert_eq!(r.json["truncated"]["stdout"], true, "{r}");
}

#[test]
fn bytes_that_are_not_utf8_come_as_base64_and_stdin_comes_from_a_file_or_tuicasts_own() {
    let dir = Dir::new();
    let bytes = b"\xff\xfe\x00binary\n".to_vec();
    dir.write("in.dat", &bytes);
    let r = tuicast_run(&dir, &["--stdin", "in.dat", "--", "cat"], &[], None);
    assert_eq!(r.code, 0, "{r}");
    assert_eq!(r.json["encoding"]["stdout"], "base64", "{r}");
    assert_eq!(unbase64(r.json["stdout"].as_str().unwrap()), bytes, "{r}");
    assert_eq!(r.json["encoding"]["stderr"], "utf-8", "{r}");
    let r = tuicast_run(
        &dir,
        &["--stdin", "-", "--", "wc", "-l"],
        &[],
        Some(b"a\nb\nc\n"),
    );
    assert_eq!(r.json["stdout"].as_str().map(str::trim), Some("3"), "{r}");
    // --stdin /dev/null: the command reads nothing.
    let r = run(&["--stdin", "/dev/null", "--", "sh", "-c", "cat; echo end"]);
    assert_eq!(r.json["stdout"], "end\n", "{r}");
}

#[test]
fn the_final_text_is_what_a_person_reads_with_the_tables_found_in_it() {
    // `\r` overwrites, a line erased, the cursor moved up and a line rewritten, colours.
    let script = "printf 'step 1\\rstep 2 done\\n'; printf 'junk\\r\\033[2K'; \
                  printf 'first\\nsecond\\n\\033[1Afixed!\\n'; \
                  printf '\\033[31mred\\033[0m text\\n\\n'; \
                  printf 'NAME   AGE  CITY\\nann    31   Oslo\\nbob    42   Rome\\n'";
    let r = run(&["--", "sh", "-c", script]);
    assert_eq!(r.code, 0, "{r}");
    let j = &r.json;
    assert_eq!(
        j["text"], "step 2 done\nfirst\nfixed!\nred text\n\nNAME   AGE  CITY\nann    31   Oslo\nbob    42   Rome",
        "{r}"
    );
    assert_eq!(j["text_truncated"], false, "{r}");
    // The raw stream is still there, escapes and all.
    assert!(j["stdout"].as_str().unwrap().contains("\u{1b}[31m"), "{r}");
    let tables = j["tables"].as_array().unwrap();
    assert_eq!(tables.len(), 1, "{r}");
    assert_eq!(
        tables[0]["header"],
        serde_json::json!(["NAME", "AGE", "CITY"]),
        "{r}"
    );
    assert_eq!(tables[0]["row"], 6, "the table's line in text: {r}");
    assert_eq!(j["tables_from"], 1, "every line looked at: {r}");
    assert_eq!(j["prompt"], Value::Null, "{r}");
    // Standard error is in the text too; a long line is not wrapped.
    let long = "x".repeat(300);
    let r = run(&["--", "sh", "-c", &format!("echo {long}; echo oops >&2")]);
    let text = r.json["text"].as_str().unwrap();
    assert!(text.lines().any(|l| l == long), "{r}");
    assert!(text.lines().any(|l| l == "oops"), "{r}");
    // More lines than the engine keeps: the last ones, and it says so.
    let r = run(&["--", "seq", "5000"]);
    let text = r.json["text"].as_str().unwrap();
    assert_eq!(r.json["text_truncated"], true, "{r}");
    assert!(text.ends_with("\n4999\n5000"), "{r}");
    assert!(!text.starts_with("1\n"), "{r}");
    let r = run(&["--", "seq", "1500"]);
    assert_eq!(r.json["text_truncated"], false, "{r}");
    assert!(
        r.json["text"].as_str().unwrap().starts_with("1\n2\n"),
        "{r}"
    );
    // Tables are looked for in the last 200 lines only, and the reply says from where.
    assert_eq!(r.json["tables_from"], 1301, "{r}");
}

/// `tuicast run` of `script` (by bash) with a timeout of 30 s, which a command waiting for
/// input must not reach.
fn run_waiting(script: &str) -> Ran {
    let r = run(&["--timeout", "30s", "--", "bash", "-c", script]);
    assert_eq!(r.json["ended_by"], "waiting-for-input", "{script}: {r}");
    assert_eq!(r.code, 1, "{r}");
    assert_eq!(r.json["status"]["signal"], "SIGKILL", "{r}");
    let ms = r.json["duration_ms"].as_u64().unwrap();
    assert!(ms < 10_000, "ended early, not at the timeout: {ms} ms: {r}");
    let waiting = r.json["prompt"]["waiting"].as_str().unwrap();
    assert!(waiting.contains(" reads /dev/pts/"), "{r}");
    r
}

#[test]
fn a_command_that_waits_for_input_ends_early_with_its_prompt_and_the_evidence() {
    // bash's read -p, on its terminal (the default standard input).
    let r = run_waiting("read -p 'Continue? [Y/n] ' a; echo got $a");
    assert_eq!(r.json["prompt"]["kind"], "yesno", "{r}");
    assert_eq!(r.json["prompt"]["default"], "yes", "{r}");
    assert_eq!(r.json["text"], "Continue? [Y/n]", "{r}");
    assert_eq!(r.json["prompt"]["echo"], true, "{r}");
    // apt's question, after output.
    let r = run_waiting(
        "echo 'The following NEW packages will be installed:'; echo '  cowsay'; \
         printf 'Do you want to continue? [Y/n] '; read a",
    );
    assert_eq!(r.json["prompt"]["kind"], "yesno", "{r}");
    assert_eq!(r.json["prompt"]["row"], 3, "{r}");
    // Python's getpass, which opens /dev/tty: the run's own terminal, echo off.
    let r = run_waiting("python3 -c 'import getpass; getpass.getpass(\"Enter token please \")'");
    assert_eq!(r.json["prompt"]["echo"], false, "{r}");
    assert_eq!(r.json["text"], "Enter token please", "{r}");
    assert_eq!(r.json["stdout"], "", "the prompt went to the terminal: {r}");
    // A pager on the terminal.
    let r = run_waiting("seq 100 | less > /dev/tty");
    assert_eq!(r.json["prompt"]["kind"], "pager", "{r}");
    assert!(
        r.json["text"].as_str().unwrap().starts_with("1\n2\n"),
        "{r}"
    );
    // Output first, then the wait.
    let r = run_waiting("for i in 1 2 3; do echo line $i; sleep 0.1; done; cat");
    assert_eq!(r.json["text"], "line 1\nline 2\nline 3", "{r}");
    // A plain command that prints and exits, and one that sleeps (no read of its terminal),
    // are unaffected.
    for script in ["echo hello", "sleep 0.6; echo done"] {
        let r = run(&["--", "bash", "-c", script]);
        assert_eq!(r.json["ended_by"], Value::Null, "{r}");
        assert_eq!(r.json["prompt"], Value::Null, "{r}");
        assert_eq!(r.json["status"]["code"], 0, "{r}");
        assert_eq!(r.code, 0, "{r}");
    }
}

#[test]
fn pagers_are_off_unless_asked_and_the_command_leads_a_session_of_its_own() {
    let r = run(&["--", "sh", "-c", "echo \"$PAGER $GIT_PAGER\""]);
    assert_eq!(r.json["stdout"], "cat cat\n", "{r}");
    let r = run(&[
        "--env",
        "PAGER=less",
        "--",
        "sh",
        "-c",
        "echo \"$PAGER $GIT_PAGER\"",
    ]);
    assert_eq!(r.json["stdout"], "less cat\n", "{r}");
    // Its session is its own (it leads it), its controlling terminal the run's.
    let r = run(&["--", "sh", "-c", "ps -o sid=,tty= -p $$; echo $$; tty"]);
    let out = r.json["stdout"].as_str().unwrap().to_string();
    let lines: Vec<&str> = out.lines().collect();
    let (sid, tty) = lines[0].trim().split_once(' ').unwrap();
    assert_eq!(sid.trim(), lines[1], "a session leader: {r}");
    assert_eq!(
        format!("/dev/{}", tty.trim()),
        lines[2],
        "its terminal: {r}"
    );
}

#[test]
fn getpass_never_reaches_the_callers_terminal() {
    // The caller on a real terminal (script's): getpass opens /dev/tty, which is the run's.
    let dir = Dir::new();
    let inner = format!(
        "{BIN} run --timeout 30s -- python3 -c 'import getpass; getpass.getpass(\"Enter token please \")'"
    );
    let out = Command::new("script")
        .args(["-qefc", &inner, "/dev/null"])
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .output()
        .expect("script runs");
    let shown = String::from_utf8_lossy(&out.stdout);
    let json_line = shown
        .lines()
        .find(|l| l.starts_with('{'))
        .unwrap_or_else(|| panic!("a JSON line on the caller's terminal:\n{shown}"));
    let j: Value = serde_json::from_str(json_line.trim()).unwrap();
    assert_eq!(j["ended_by"], "waiting-for-input", "{shown}");
    assert_eq!(j["text"], "Enter token please", "{shown}");
    // Nothing but the JSON reached the caller's terminal.
    let rest: Vec<&str> = shown
        .lines()
        .filter(|l| !l.starts_with('{') && !l.trim().is_empty())
        .collect();
    assert!(rest.is_empty(), "the caller's terminal showed {rest:?}");
}

#[test]
fn the_command_starts_from_the_clean_environment_with_a_private_home() {
    let dir = Dir::new();
    let r = tuicast_run(
        &dir,
        &[
            "--env",
            "ADDED=yes",
            "--inherit-env",
            "PASSED",
            "--",
            "sh",
            "-c",
            "env | sort; ls -A \"$HOME\" | wc -l; pwd",
        ],
        &[("LEAKED", "no"), ("PASSED", "on")],
        None,
    );
    assert_eq!(r.code, 0, "{r}");
    let out = r.json["stdout"].as_str().unwrap();
    for want in [
        "ADDED=yes",
        "PASSED=on",
        "TERM=xterm-256color",
        "LANG=C.UTF-8",
        "TZ=UTC",
    ] {
        assert!(out.lines().any(|l| l == want), "{want} in:\n{out}");
    }
    assert!(!out.contains("LEAKED"), "{out}");
    let home = out
        .lines()
        .find_map(|l| l.strip_prefix("HOME="))
        .expect("a HOME");
    assert!(home.contains("tuicast-home-"), "{out}");
    assert!(
        !std::path::Path::new(home).exists(),
        "the HOME is removed after"
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[lines.len() - 2].trim(), "0", "an empty HOME: {out}");
    let cwd = std::fs::canonicalize(dir.path()).unwrap();
    assert_eq!(lines[lines.len() - 1], cwd.display().to_string(), "{out}");
}

#[test]
fn a_secrets_value_is_in_no_field_of_the_output() {
    let value = "hunter2-s3cr3t-value";
    let env = [("TUICAST_SECRET_RUN", value)];
    let dir = Dir::new();
    let r = tuicast_run(
        &dir,
        &[
            "--secret",
            "TUICAST_SECRET_RUN",
            "--",
            "sh",
            "-c",
            "echo \"v=$TUICAST_SECRET_RUN\"; printf %s \"$TUICAST_SECRET_RUN\" | base64; \
             printf %s \"$TUICAST_SECRET_RUN\" | rev; echo; echo \"$TUICAST_SECRET_RUN\" >&2",
        ],
        &env,
        None,
    );
    assert_eq!(r.code, 0, "{r}");
    let base64 = "aHVudGVyMi1zM2NyM3QtdmFsdWU";
    let reversed: String = value.chars().rev().collect();
    for form in [value, base64, reversed.as_str()] {
        assert!(!r.stdout.contains(form), "{form} in {r}");
    }
    assert_eq!(
        r.json["stdout"].as_str().unwrap().lines().next(),
        Some(format!("v={}", "*".repeat(value.len())).as_str()),
        "{r}"
    );
    assert_eq!(r.json["stderr"], format!("{}\n", "*".repeat(value.len())));
    // In bytes that are not UTF-8 too: the value, and its long prefix (15 of its 20
    // characters), as output cut at a limit would end.
    let binary_stdout = |script: &str| {
        let args = ["--secret", "TUICAST_SECRET_RUN", "--", "sh", "-c", script];
        let r = tuicast_run(&dir, &args, &env, None);
        assert_eq!(r.json["encoding"]["stdout"], "base64", "{r}");
        unbase64(r.json["stdout"].as_str().unwrap())
    };
    assert_eq!(
        binary_stdout("printf '\\377%s' \"$TUICAST_SECRET_RUN\""),
        [&[0xff][..], "*".repeat(value.len()).as_bytes()].concat()
    );
    assert_eq!(
        binary_stdout("printf '\\377%.15s|' \"$TUICAST_SECRET_RUN\""),
        [&[0xff][..], "*".repeat(15).as_bytes(), b"|"].concat()
    );
    // Only the variables sessions may type are secrets.
    let r = tuicast_run(&dir, &["--secret", "HOME", "--", "true"], &env, None);
    assert_eq!(r.code, 2, "{r}");
    assert!(
        r.json["error"]
            .as_str()
            .unwrap()
            .contains("TUICAST_SECRET_"),
        "{r}"
    );
}

#[test]
fn bad_input_is_one_json_object_with_error_and_exit_2() {
    for args in [
        &[][..],
        &["--timeout", "soon", "--", "true"][..],
        &["--max-output", "1PiB", "--", "true"][..],
        &["--stdin", "/no/such/file", "--", "cat"][..],
        &["--env", "NOEQUALS", "--", "true"][..],
        &["--", "no-such-program-xyz"][..],
    ] {
        let r = run(args);
        assert_eq!(r.code, 2, "{args:?}: {r}");
        let keys: Vec<&String> = r.json.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["error", "failure", "exit"], "{args:?}: {r}");
        assert_eq!(r.json["exit"], 2, "{args:?}: {r}");
        // The same as data (issue 42 point 3).
        assert_eq!(r.json["failure"]["kind"], "bad-input", "{args:?}: {r}");
        assert_eq!(
            r.json["failure"]["message"], r.json["error"],
            "{args:?}: {r}"
        );
    }
    let r = run(&["--", "no-such-program-xyz"]);
    assert!(
        r.json["error"]
            .as_str()
            .unwrap()
            .contains("--inherit-env PATH"),
        "{r}"
    );
}

#[test]
fn cwd_runs_the_command_in_that_folder_and_a_bad_folder_is_bad_input() {
    let dir = Dir::new();
    let sub = dir.join("fixtures");
    std::fs::create_dir(&sub).unwrap();
    let script = sub.join("where.sh");
    std::fs::write(&script, "#!/bin/sh\npwd\nls\n").unwrap();
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    // A relative folder is the caller's; a relative program is found in the folder.
    let r = tuicast_run(&dir, &["--cwd", "fixtures", "--", "./where.sh"], &[], None);
    assert_eq!(r.code, 0, "{r}");
    let here = sub.canonicalize().unwrap();
    assert_eq!(
        r.json["stdout"],
        format!("{}\nwhere.sh\n", here.display()),
        "{r}"
    );
    for (arg, says) in [
        ("no-such-folder", "--cwd no-such-folder: no such folder"),
        ("fixtures/where.sh", "--cwd fixtures/where.sh: not a folder"),
        ("bad\x1b[2Jname", "--cwd bad\\e[2Jname: no such folder"),
    ] {
        let r = tuicast_run(&dir, &["--cwd", arg, "--", "pwd"], &[], None);
        assert_eq!(r.code, 2, "{r}");
        assert_eq!(r.json["error"], says, "{r}");
        assert_eq!(r.json["exit"], 2, "{r}");
        assert_eq!(r.json["failure"]["kind"], "bad-input", "{r}");
    }
}

/// A stand-in for an AI CLI with a non-interactive mode: `bot [-p QUESTION]` answers the
/// question it is given (else the one on its standard input), says what it did on stderr,
/// fails with status 3 on an empty question, and knows the secret it was given.
fn bot(dir: &Dir) -> String {
    let path = dir.join("bot");
    std::fs::write(
        &path,
        r#"#!/bin/sh
if [ "$1" = "-p" ]; then q="$2"; else q=$(cat); fi
echo "bot: thinking about ${#q} characters" >&2
case "$q" in
  *colour*) printf '\n  Blue.  \n\n' ;;
  *token*) echo "the token is $TUICAST_SECRET_BOT_KEY" ;;
  *slow*) exec sleep 30 ;;
  *long*) seq 1 2000 ;;
  *) echo "I do not know: $q"; exit 3 ;;
esac
"#,
    )
    .unwrap();
    std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    path.display().to_string()
}

#[test]
fn ask_gives_the_question_on_stdin_or_as_an_argument_and_the_answer_trimmed() {
    let dir = Dir::new();
    let bot = bot(&dir);
    // From --prompt, on the command's standard input.
    let r = tuicast_sub(
        "ask",
        &dir,
        &["--prompt", "Name a colour", "--", &bot],
        &[],
        None,
    );
    assert_eq!(r.code, 0, "{r}");
    let j = &r.json;
    assert_eq!(j["answer"], "Blue.", "{r}");
    assert_eq!(j["stderr"], "bot: thinking about 13 characters", "{r}");
    assert_eq!(j["status"], serde_json::json!({"code": 0}), "{r}");
    assert_eq!(j["ended_by"], Value::Null, "{r}");
    assert_eq!(
        j["truncated"],
        serde_json::json!({"stdout": false, "stderr": false}),
        "{r}"
    );
    assert!(j["duration_ms"].is_u64(), "{r}");
    assert_eq!(j["exit"], 0, "{r}");
    // The question is not repeated, and there is no command to repeat it in.
    assert!(!r.stdout.contains("Name a colour"), "{r}");
    // From tuicast's standard input.
    let r = tuicast_sub(
        "ask",
        &dir,
        &["--", &bot],
        &[],
        Some(b"Which colour is the sky?\n"),
    );
    assert_eq!(r.json["answer"], "Blue.", "{r}");
    // As the argument {}: standard input is then empty.
    let r = tuicast_sub(
        "ask",
        &dir,
        &["--prompt", "favourite colour?", "--", &bot, "-p", "{}"],
        &[],
        Some(b"ignored"),
    );
    assert_eq!(r.json["answer"], "Blue.", "{r}");
    assert_eq!(r.json["stderr"], "bot: thinking about 17 characters", "{r}");
    // The program's failure is data, as in `tuicast run`.
    let r = tuicast_sub(
        "ask",
        &dir,
        &["--prompt", "What is 6x7?", "--", &bot],
        &[],
        None,
    );
    assert_eq!(r.code, 0, "{r}");
    assert_eq!(r.json["answer"], "I do not know: What is 6x7?", "{r}");
    assert_eq!(r.json["status"]["code"], 3, "{r}");
}

#[test]
fn ask_keeps_runs_limits_and_secrets() {
    let dir = Dir::new();
    let bot = bot(&dir);
    // The timeout: the bot is killed, tuicast exits 1.
    let r = tuicast_sub(
        "ask",
        &dir,
        &["--timeout", "300ms", "--prompt", "slow one", "--", &bot],
        &[],
        None,
    );
    assert_eq!(r.code, 1, "{r}");
    assert_eq!(r.json["ended_by"], "timeout", "{r}");
    assert_eq!(r.json["status"]["signal"], "SIGKILL", "{r}");
    // The output limit.
    let r = tuicast_sub(
        "ask",
        &dir,
        &[
            "--max-output",
            "100",
            "--prompt",
            "a long answer",
            "--",
            &bot,
        ],
        &[],
        None,
    );
    assert_eq!(r.json["truncated"]["stdout"], true, "{r}");
    assert_eq!(r.json["truncated"]["stderr"], false, "{r}");
    assert_eq!(r.json["ended_by"], "max-output", "{r}");
    assert!(
        r.json["answer"].as_str().unwrap().starts_with("1\n2\n3\n"),
        "{r}"
    );
    // A secret is starred in the answer.
    let value = "s3cr3t-bot-key-0123456789";
    let r = tuicast_sub(
        "ask",
        &dir,
        &[
            "--secret",
            "TUICAST_SECRET_BOT_KEY",
            "--prompt",
            "the token?",
            "--",
            &bot,
        ],
        &[("TUICAST_SECRET_BOT_KEY", value)],
        None,
    );
    assert_eq!(r.code, 0, "{r}");
    assert!(!r.stdout.contains(value), "{r}");
    assert!(
        r.json["answer"]
            .as_str()
            .unwrap()
            .starts_with("the token is ***"),
        "{r}"
    );
    // The clean environment: tuicast's own variables are not the bot's.
    let r = tuicast_sub(
        "ask",
        &dir,
        &["--prompt", "the token?", "--", &bot],
        &[("TUICAST_SECRET_BOT_KEY", value)],
        None,
    );
    assert_eq!(r.json["answer"], "the token is", "{r}");
}

#[test]
fn ask_refuses_bad_input_with_one_json_object_and_exit_2() {
    let dir = Dir::new();
    let bot = bot(&dir);
    for (args, input, says) in [
        (&["--", "true"][..], Some(&b""[..]), "the question is empty"),
        (
            &["--prompt", "  ", "--", "true"][..],
            None,
            "the question is empty",
        ),
        (
            &["--prompt", "q", "--", "{}"][..],
            None,
            "the command's program cannot be the question's placeholder {}",
        ),
        (
            &["--", "true"][..],
            Some(&b"\xff\xfe"[..]),
            "the question on standard input is not UTF-8",
        ),
        (
            &["--prompt", "q", "--timeout", "soon", "--", "true"][..],
            None,
            "--timeout",
        ),
        (
            &["--prompt", "q", "--cwd", "nowhere", "--", "true"][..],
            None,
            "--cwd nowhere: no such folder",
        ),
        (
            &["--prompt", "q", "--", "no-such-ai-cli-xyz"][..],
            None,
            "cannot run no-such-ai-cli-xyz",
        ),
        (
            &["--bogus", "--", &bot][..],
            None,
            "unexpected argument '--bogus'",
        ),
    ] {
        let r = tuicast_sub("ask", &dir, args, &[], input);
        assert_eq!(r.code, 2, "{args:?}: {r}");
        assert_eq!(r.json["exit"], 2, "{r}");
        let error = r.json["error"].as_str().unwrap_or_default();
        assert!(
            error.contains(says),
            "{args:?}: {error:?} says {says:?}\n{r}"
        );
        assert_eq!(r.json.as_object().map(|o| o.len()), Some(3), "{r}");
        assert_eq!(r.json["failure"]["kind"], "bad-input", "{r}");
    }
    // A question longer than 1 MiB.
    let long = vec![b'q'; (1 << 20) + 1];
    let r = tuicast_sub("ask", &dir, &["--", &bot], &[], Some(&long));
    assert_eq!(r.code, 2, "{r}");
    assert!(
        r.json["error"]
            .as_str()
            .unwrap()
            .contains("longer than 1 MiB"),
        "{r}"
    );
}
