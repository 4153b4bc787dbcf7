//! asciicast v3 header: `{"version": 3, "term": {"cols", "rows", "type", "version", "theme"}, ...}`.
//!
//! Events are `[interval, code, data]` with the interval relative to the previous event;
//! they are parsed by the shared line parser in `reader.rs`.

use serde_json::{Map, Value};

use super::reader::{describe, field_column, field_column_path, json_type_name};
use super::{CastError, CastErrorKind, Header, Term};
use crate::size::{Size, MAX_COLS};
use crate::theme::Theme;

pub(super) fn header(
    line: &str,
    line_no: u64,
    mut map: Map<String, Value>,
) -> Result<Header, CastError> {
    map.remove("version");
    let fields = Fields { line, line_no };
    let term_value = map.remove("term");
    let term_map = match term_value {
        Some(Value::Object(t)) => t,
        Some(other) => {
            return Err(fields.error(
                field_column(line, "term"),
                format!(
                    "\"term\" must be an object with cols and rows, found {}",
                    json_type_name(&other)
                ),
            ))
        }
        None => return Err(fields.error(
            super::reader::first_non_space_column(line),
            "the header has no \"term\" object (v3 casts give the size as term.cols and term.rows)",
        )),
    };
    let term = fields.term(term_map)?;
    let mut header = Header {
        version: 3,
        term,
        ..Header::default()
    };
    fields.common(&mut header, map)?;
    Ok(header)
}

/// A header's theme as read.
pub(super) enum ThemeField {
    /// There is none.
    None,
    /// Its colours were read.
    Typed(Theme),
    /// Its colours could not be read: the object, kept as it was.
    Kept(Value),
}

impl ThemeField {
    /// Puts the theme in `term`: typed in `theme`, or kept in `extra`.
    pub(super) fn apply(self, term: &mut Term) {
        match self {
            ThemeField::None => {}
            ThemeField::Typed(theme) => term.theme = Some(theme),
            ThemeField::Kept(value) => {
                term.extra.insert("theme".into(), value);
            }
        }
    }
}

/// Typed access to header fields with positioned errors.
pub(super) struct Fields<'a> {
    pub(super) line: &'a str,
    pub(super) line_no: u64,
}

impl Fields<'_> {
    pub(super) fn error(&self, column: u64, message: impl Into<String>) -> CastError {
        CastError::new(CastErrorKind::Header, self.line_no, column, message)
    }

    fn term(&self, mut t: Map<String, Value>) -> Result<Term, CastError> {
        let size = self.size(
            (t.remove("cols"), &["term", "cols"]),
            (t.remove("rows"), &["term", "rows"]),
        )?;
        let term_type = self.opt_string(t.remove("type"), &["term", "type"])?;
        let version = self.opt_string(t.remove("version"), &["term", "version"])?;
        let theme = self.theme(t.remove("theme"), &["term", "theme"])?;
        let mut term = Term {
            size,
            term_type,
            version,
            theme: None,
            extra: t,
        };
        theme.apply(&mut term);
        Ok(term)
    }

    /// The terminal size from its two fields (each a value and its path): present, positive
    /// integers, within the limits of [`Size::within_limits`] (the error at the field that
    /// passes one).
    pub(super) fn size(
        &self,
        (cols, cols_path): (Option<Value>, &[&str]),
        (rows, rows_path): (Option<Value>, &[&str]),
    ) -> Result<Size, CastError> {
        let cols = self.dimension(cols, cols_path)?;
        let rows = self.dimension(rows, rows_path)?;
        Size::within_limits(cols, rows).map_err(|e| {
            let path = if cols > MAX_COLS {
                cols_path
            } else {
                rows_path
            };
            self.error(field_column_path(self.line, path), e.to_string())
        })
    }

    /// A terminal dimension: present, a positive integer.
    fn dimension(&self, v: Option<Value>, path: &[&str]) -> Result<u64, CastError> {
        let name = path.join(".");
        let col = || field_column_path(self.line, path);
        match v {
            None | Some(Value::Null) => Err(self.error(
                col(),
                format!("the header has no \"{name}\": the terminal size is required"),
            )),
            Some(v) => match v.as_u64() {
                Some(0) => Err(self.error(
                    col(),
                    format!("\"{name}\" is 0: the terminal size must be at least 1x1"),
                )),
                Some(n) => Ok(n),
                None => Err(self.error(
                    col(),
                    format!(
                        "\"{name}\" must be a positive integer, found {}",
                        describe(&v)
                    ),
                )),
            },
        }
    }

    pub(super) fn opt_string(
        &self,
        v: Option<Value>,
        path: &[&str],
    ) -> Result<Option<String>, CastError> {
        match v {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(other) => Err(self.error(
                field_column_path(self.line, path),
                format!(
                    "\"{}\" must be a string, found {}",
                    path.join("."),
                    describe(&other)
                ),
            )),
        }
    }

    pub(super) fn opt_number(&self, v: Option<Value>, key: &str) -> Result<Option<f64>, CastError> {
        match v {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Number(n)) => Ok(n.as_f64()),
            Some(other) => Err(self.error(
                field_column(self.line, key),
                format!("\"{key}\" must be a number, found {}", describe(&other)),
            )),
        }
    }

    /// The theme object: a wrong JSON type is an error; colours that cannot be read keep
    /// the object as it was (see [`Theme`]).
    pub(super) fn theme(&self, v: Option<Value>, path: &[&str]) -> Result<ThemeField, CastError> {
        let map = match v {
            None | Some(Value::Null) => return Ok(ThemeField::None),
            Some(Value::Object(m)) => m,
            Some(other) => {
                return Err(self.error(
                    field_column_path(self.line, path),
                    format!(
                        "\"{}\" must be an object, found {}",
                        path.join("."),
                        describe(&other)
                    ),
                ))
            }
        };
        for key in ["fg", "bg", "palette"] {
            match map.get(key) {
                None | Some(Value::Null) | Some(Value::String(_)) => {}
                Some(other) => {
                    return Err(self.error(
                        field_column_path(self.line, path),
                        format!(
                            "\"{}.{key}\" must be a string, found {}",
                            path.join("."),
                            describe(other)
                        ),
                    ))
                }
            }
        }
        let value = Value::Object(map);
        Ok(match Theme::from_json(&value) {
            Ok(theme) => ThemeField::Typed(theme),
            Err(_) => ThemeField::Kept(value),
        })
    }

    /// Fields that v2 and v3 share: timestamp, idle_time_limit, command, title, env, tags.
    pub(super) fn common(
        &self,
        header: &mut Header,
        mut map: Map<String, Value>,
    ) -> Result<(), CastError> {
        header.timestamp = self
            .opt_number(map.remove("timestamp"), "timestamp")?
            .map(|t| t as i64);
        header.idle_time_limit =
            self.opt_number(map.remove("idle_time_limit"), "idle_time_limit")?;
        header.command = self.opt_string(map.remove("command"), &["command"])?;
        header.title = self.opt_string(map.remove("title"), &["title"])?;
        match map.remove("env") {
            None | Some(Value::Null) => {}
            Some(Value::Object(env)) => {
                for (k, v) in env {
                    match v {
                        Value::Null => {}
                        Value::String(s) => {
                            header.env.insert(k, s);
                        }
                        other => {
                            header.env.insert(k, other.to_string());
                        }
                    }
                }
            }
            Some(other) => {
                return Err(self.error(
                    field_column(self.line, "env"),
                    format!("\"env\" must be an object, found {}", describe(&other)),
                ))
            }
        }
        match map.remove("tags") {
            None | Some(Value::Null) => {}
            Some(Value::Array(tags)) => {
                header.tags = tags
                    .into_iter()
                    .map(|t| match t {
                        Value::String(s) => s,
                        other => other.to_string(),
                    })
                    .collect();
            }
            Some(other) => {
                return Err(self.error(
                    field_column(self.line, "tags"),
                    format!(
                        "\"tags\" must be an array of strings, found {}",
                        describe(&other)
                    ),
                ))
            }
        }
        header.extra = map;
        Ok(())
    }
}
