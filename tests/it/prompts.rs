//! The prompt classifier (`inspect::classify`) against a labelled set of prompt screens from
//! real programs (bash `read`, coreutils `-i`, python3 `input` and `getpass`, less, more,
//! dialog, shells, plain output), each run in a real PTY and classified on its settled screen
//! with the terminal's echo flag, as `{ wait = { prompt } }` and `tuicast session` see it.
//! Prints precision and recall per kind (the table in docs/agents.md) and fails when they
//! fall below what is documented there.

use std::collections::BTreeMap;

use tuicast::inspect::{classify, PromptKind};
use tuicast::record::{Session, SessionOptions};

use crate::util::have;

/// (label, the script bash runs, text on the screen once the prompt is there, the kind).
const CASES: &[(&str, &str, &str, &str)] = &[
    ("read [y/N]", "read -p 'Delete 3 files? [y/N] ' a", "[y/N]", "yesno"),
    ("read [Y/n]", "read -p 'Continue? [Y/n] ' a", "[Y/n]", "yesno"),
    ("read (y/n)", "read -p 'Overwrite (y/n)? ' a", "(y/n)", "yesno"),
    ("apt style", "echo 'After this operation, 12 MB will be used.'; read -p 'Do you want to continue? [Y/n] ' a", "continue?", "yesno"),
    ("rm -i", "touch f; rm -i f", "remove", "yesno"),
    ("cp -i", "touch a b; cp -i a b", "overwrite", "yesno"),
    ("python yes/no", "python3 -c \"input('Proceed (yes/no)? ')\"", "Proceed", "yesno"),
    ("ssh style", "read -p 'Are you sure you want to continue connecting (yes/no/[fingerprint])? ' a", "connecting", "yesno"),
    ("read -s Password", "read -s -p 'Password: ' p", "Password:", "password"),
    ("getpass", "python3 -c 'import getpass; getpass.getpass()'", "Password:", "password"),
    ("passphrase", "read -s -p 'Enter passphrase for key: ' p", "passphrase", "password"),
    ("PIN", "read -s -p 'PIN: ' p", "PIN:", "password"),
    ("getpass Token", "python3 -c \"import getpass; getpass.getpass('Token: ')\"", "Token:", "password"),
    ("read Name", "read -p 'Name: ' n", "Name:", "text"),
    ("read email", "read -p 'Enter your email: ' n", "email:", "text"),
    ("python input", "python3 -c \"input('Project name: ')\"", "Project name:", "text"),
    ("default in brackets", "read -p 'Port [8080]: ' n", "Port", "text"),
    ("git style", "echo 'Initialized.'; read -p 'Author name: ' n", "Author", "text"),
    ("less long", "seq 1 200 | less", "23", "pager"),
    ("less short", "seq 1 5 | less", "(END)", "pager"),
    ("more", "seq 1 200 | more", "More", "pager"),
    ("less -M", "seq 1 200 > f.txt; less -M f.txt", "lines 1-", "pager"),
    ("any key", "read -n1 -p 'Press any key to continue...' k", "any key", "confirm"),
    ("press Enter", "read -p 'Press Enter to continue' k", "Enter", "confirm"),
    ("hit return", "echo 'Done.'; read -p 'Press RETURN to close this window' k", "RETURN", "confirm"),
    ("dialog menu", "dialog --menu 'Pick:' 12 40 4 a Apple b Banana c Cherry 2>/dev/null", "Cherry", "select"),
    ("whiptail menu", "whiptail --menu 'Pick:' 12 40 3 a Apple b Banana c Cherry 2>/dev/null", "Cherry", "select"),
    ("dialog yesno", "dialog --yesno 'Delete everything?' 7 40 2>/dev/null", "everything", "yesno"),
    ("whiptail yesno", "whiptail --yesno 'Reboot now?' 8 40 2>/dev/null", "Reboot", "yesno"),
    ("bash $", "PS1='$ ' exec bash --norc --noprofile", "$", "shell"),
    ("bash user@host", "PS1='user@host:~/src$ ' exec bash --norc --noprofile", "host", "shell"),
    ("root #", "PS1='# ' exec bash --norc --noprofile", "#", "shell"),
    ("zsh style %", "PS1='% ' exec bash --norc --noprofile", "%", "shell"),
    ("python REPL", "python3 -q -i -c ''", ">>>", "shell"),
    ("plain output", "seq 1 5; sleep 30", "5", "unknown"),
    ("listing", "printf 'README.md  src  target\\n'; sleep 30", "README", "unknown"),
    ("progress", "printf '[#####     ] 50%%'; sleep 30", "50%", "unknown"),
    ("log lines", "for i in 1 2 3; do echo \"INFO step $i done\"; done; sleep 30", "step 3", "unknown"),
    ("blank", "clear; printf 'x\\b \\b'; sleep 30", "", "unknown"),
    ("a heading", "echo '== Report =='; echo 'all good'; sleep 30", "all good", "unknown"),
];

/// The kinds' precision and recall documented in docs/agents.md must hold: (kind, precision,
/// recall), each at least.
const FLOORS: &[(&str, f64, f64)] = &[
    ("yesno", 0.9, 0.9),
    ("password", 1.0, 1.0),
    ("text", 0.8, 0.8),
    ("pager", 1.0, 0.75),
    ("confirm", 0.9, 0.9),
    ("select", 0.9, 0.9),
    ("shell", 0.9, 0.9),
    ("unknown", 0.8, 0.8),
];

#[test]
fn the_prompt_classifier_on_a_labelled_set_of_real_prompts() {
    if !have("python3") || !have("dialog") || !have("whiptail") {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI has python3, dialog and whiptail"
        );
        eprintln!("skipped: python3, dialog or whiptail missing");
        return;
    }
    assert!(CASES.len() >= 40, "the set has {} screens", CASES.len());
    let dir = crate::util::Dir::new();
    let mut got: Vec<(&str, &str, String)> = Vec::new();
    for &(label, script, shown, want) in CASES {
        let mut opts = SessionOptions::new(["bash", "-c", script]);
        opts.cwd = dir.path().to_path_buf();
        let mut s = Session::spawn_in_memory(opts).unwrap_or_else(|e| panic!("{label}: {e}"));
        if !shown.is_empty() {
            s.wait_text(shown)
                .unwrap_or_else(|e| panic!("{label}: {e}"));
        }
        // The screen as a checkpoint takes it: settled.
        s.snapshot(label).unwrap_or_else(|e| panic!("{label}: {e}"));
        let screen = s.screen();
        let p = classify(&screen, &screen.outline(), s.echo());
        got.push((label, want, p.kind.name().to_string()));
        drop(s); // ends the program and everything it started
    }
    let kinds: Vec<&str> = FLOORS.iter().map(|f| f.0).collect();
    let mut report =
        String::from("| kind | screens | precision | recall |\n| --- | --: | --: | --: |\n");
    let mut stats = BTreeMap::new();
    for kind in &kinds {
        let tp = got.iter().filter(|g| g.1 == *kind && g.2 == *kind).count() as f64;
        let predicted = got.iter().filter(|g| g.2 == *kind).count() as f64;
        let actual = got.iter().filter(|g| g.1 == *kind).count() as f64;
        let precision = if predicted > 0.0 { tp / predicted } else { 1.0 };
        let recall = if actual > 0.0 { tp / actual } else { 1.0 };
        report.push_str(&format!(
            "| `{kind}` | {actual} | {precision:.2} | {recall:.2} |\n"
        ));
        stats.insert(*kind, (precision, recall));
    }
    let wrong: Vec<String> = got
        .iter()
        .filter(|g| g.1 != g.2)
        .map(|g| format!("{}: labelled {}, classified {}", g.0, g.1, g.2))
        .collect();
    eprintln!("{report}\nmisclassified:\n{}", wrong.join("\n"));
    for kind in &kinds {
        assert!(PromptKind::from_name(kind).is_some(), "{kind} is a kind");
    }
    for &(kind, p, r) in FLOORS {
        let (precision, recall) = stats[kind];
        assert!(
            precision >= p && recall >= r,
            "{kind}: precision {precision:.2} (at least {p}), recall {recall:.2} (at least {r})\n{report}\n{}",
            wrong.join("\n")
        );
    }
}
