//! The recording part of a cast's TOML: the program (`bin`, `command` or `shell`), its folder,
//! size, environment, timeouts and settle rule, checked into a [`Scenario`].

use super::*;

/// The recording keys checked into a [`Scenario`]; `None` without `bin`, `command` and
/// `shell`. Relative paths (a `command` program with a `/`, `cwd`) are taken from the file's
/// folder, made absolute, so they mean the same from any working directory; `${VAR}` in
/// `command`, `args`, `cwd` and `env` values is tuicast's environment variable `VAR`.
pub(super) fn recording(
    at: &Places<'_>,
    r: &FileToml,
    regions: &Regions,
) -> Result<Option<Scenario>, ConfigError> {
    let expand_all = |v: &Spanned<Vec<String>>| -> Result<Vec<String>, ConfigError> {
        v.get_ref()
            .iter()
            .map(|a| expand_vars(a).map_err(|e| at.error(v.span(), e)))
            .collect()
    };
    let dir = absolute(
        at.path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new(".")),
    );
    let needs = "a scenario needs bin = \"NAME\" (the package's binary), \
                 command = [\"program\", \"args\"] or shell = \"script\"";
    let program = match (&r.bin, &r.command, &r.shell) {
        (None, None, None) => {
            if let Some(a) = &r.args {
                return Err(at.error(a.span(), "args go with bin = \"NAME\""));
            }
            if let Some(l) = &r.live {
                return Err(at.error(
                    l.span(),
                    format!("live says how to check a recording: {needs}"),
                ));
            }
            return Ok(None);
        }
        (Some(b), None, None) => Program::Bin {
            name: b.get_ref().clone(),
            args: r
                .args
                .as_ref()
                .map(&expand_all)
                .transpose()?
                .unwrap_or_default(),
            from: dir.clone(),
        },
        (None, Some(c), None) if c.get_ref().is_empty() => return Err(at.error(c.span(), needs)),
        (None, Some(c), None) => {
            let mut argv = expand_all(c)?;
            // `../target/debug/app` is relative to this file, not to wherever tuicast runs.
            if argv[0].contains('/') {
                argv[0] = dir.join(&argv[0]).to_string_lossy().into_owned();
            }
            Program::Argv(argv)
        }
        (None, None, Some(s)) => Program::Shell(s.get_ref().clone()),
        (b, c, s) => {
            let span = [
                b.as_ref().map(|x| x.span()),
                c.as_ref().map(|x| x.span()),
                s.as_ref().map(|x| x.span()),
            ]
            .into_iter()
            .flatten()
            .max_by_key(|sp| sp.start)
            .unwrap_or(0..0);
            return Err(at.error(span, "give one of bin, command or shell, not several"));
        }
    };
    if r.args.is_some() && r.bin.is_none() {
        let a = r.args.as_ref().map(|a| a.span()).unwrap_or(0..0);
        return Err(at.error(a, "args go with bin = \"NAME\" (a command lists its own)"));
    }
    let mut scenario = Scenario::new(program, &dir);
    scenario.source = Some(at.path.to_path_buf());
    scenario.live = r.live.as_ref().map(|l| *l.get_ref());
    scenario.in_place = r.in_place;
    scenario.terminal = r.terminal.apply(scenario.terminal);
    if let Some(c) = &r.cwd {
        let expanded =
            expand_vars(c.get_ref()).map_err(|e| at.error(c.span(), format!("cwd: {e}")))?;
        scenario.cwd = dir.join(expanded);
    }
    if let Some(size) = &r.size {
        let parsed = size.get_ref().parse::<Size>().and_then(Size::for_terminal);
        scenario.size = Some(parsed.map_err(|e| at.error(size.span(), format!("size: {e}")))?);
    }
    for (name, value) in &r.env {
        let shown = crate::escape::escape_for_terminal(name, 100);
        // A name with `=` sets another variable than it says (`"A=B" = "C"` is `A=B=C`), and a
        // NUL cannot be passed to a program at all.
        if name.is_empty() || name.contains(['=', '\0']) {
            return Err(at.error(
                value.span(),
                format!("env: \"{shown}\" is not a variable name (empty, or with `=` or NUL)"),
            ));
        }
        let expanded = expand_vars(value.get_ref())
            .map_err(|e| at.error(value.span(), format!("env.{shown}: {e}")))?;
        if expanded.contains('\0') {
            return Err(at.error(
                value.span(),
                format!("env.{shown}: a value cannot hold a NUL"),
            ));
        }
        scenario.env.insert(name.clone(), expanded);
    }
    scenario.inherit_env = r.inherit_env.clone();
    if let Some(t) = &r.timeout {
        let parsed = parse_duration(t.get_ref());
        scenario.timeout = Some(parsed.map_err(|e| at.error(t.span(), format!("timeout: {e}")))?);
    }
    if let Some(t) = &r.settle {
        let parsed = parse_settle(t.get_ref());
        scenario.settle = Some(parsed.map_err(|e| at.error(t.span(), format!("settle: {e}")))?);
    }
    if let Some(f) = &r.fail_fast {
        let bad = |shown: String| {
            at.error(
                f.span(),
                format!(
                    "fail_fast: {shown} is not a duration above zero (\"2s\", \"500ms\"), nor \
                     true or false"
                ),
            )
        };
        scenario.fail_fast = match f.get_ref() {
            toml::Value::Boolean(true) => Some(DEFAULT_FAIL_FAST),
            toml::Value::Boolean(false) => None,
            toml::Value::String(t) => Some(
                parse_duration(t)
                    .ok()
                    .filter(|d| !d.is_zero())
                    .ok_or_else(|| bad(format!("\"{}\"", escape_for_terminal(t, 40))))?,
            ),
            other => return Err(bad(escape_for_terminal(&other.to_string(), 40))),
        };
    }
    scenario.title = r.title.clone();
    scenario.redact = r
        .redact
        .iter()
        .map(|p| {
            crate::util::user_regex(p.get_ref()).map_err(|e| {
                let shown = escape_for_terminal(p.get_ref(), 80);
                at.error(p.span(), format!("redact: regex \"{shown}\" {e}"))
            })
        })
        .collect::<Result<_, _>>()?;
    // Every step is checked before anything runs: a typo should not cost a recording.
    for spanned in &r.steps {
        let origin = at.origin(spanned.span());
        let (action, timeout, settle) =
            step(spanned.get_ref(), regions).map_err(|m| at.error(spanned.span(), m))?;
        scenario.steps.push(Step {
            action,
            timeout,
            settle,
            origin: Some(origin),
        });
    }
    Ok(Some(scenario))
}

/// `${VAR}` replaced by tuicast's environment variable `VAR` (an unset one is an error, not
/// an empty string); `$$` is a `$`; any other `$` stays as it is.
pub(super) fn expand_vars(text: &str) -> Result<String, Invalid> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find('$') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        if let Some(more) = after.strip_prefix('$') {
            out.push('$');
            rest = more;
        } else if let Some(body) = after.strip_prefix('{') {
            let end = body.find('}').ok_or_else(|| {
                format!("\"{}\" has an unclosed ${{", escape_for_terminal(text, 80))
            })?;
            let name = &body[..end];
            let value = std::env::var(name).map_err(|_| {
                format!(
                    "${{{}}} is not set in tuicast's environment",
                    escape_for_terminal(name, 60)
                )
            })?;
            out.push_str(&value);
            rest = &body[end + 1..];
        } else {
            out.push('$');
            rest = after;
        }
    }
    out.push_str(rest);
    Ok(out)
}

/// `path` made absolute against the current folder (nothing resolved on disk).
pub(super) fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// How long `fail_fast = true` lets the screen of a program waiting for input stay unchanged
/// before a screen wait fails: generous against any program's own response, short against
/// the 10 s timeout.
pub const DEFAULT_FAIL_FAST: Duration = Duration::from_secs(2);

/// `fail_fast` as the schema gives it: `true`, `false` or a duration.
#[cfg(feature = "schema")]
#[derive(schemars::JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)] // only its schema is used
pub(super) enum FailFastSchema {
    /// `true` (after 2 s) or `false`.
    On(bool),
    /// A duration, `"2s"`.
    After(String),
}
