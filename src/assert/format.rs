//! The golden formats, each defined once: [`Format`] names a format and [`Format::def`] gives
//! all there is to it — its name (also its file extension) and the other names configuration
//! reads, whether its goldens are text or pictures (how they are compared, [`Check`], and
//! shown in a report), and what its text render holds after the rows (the style runs, the
//! hyperlinks; `snapshot.rs` writes them as the definition says). Reading a name (`FromStr`,
//! serde, the JSON schema), writing it and finding the format of a golden's file name all go
//! through the one list, [`Format::ALL`].
//!
//! A new format is a variant, its definition here, and what its render writes
//! (`snapshot.rs`); the compiler points to [`Format::def`].
//!
//! [`Check`]: super::Check

use crate::escape::escape_for_terminal;

/// A snapshot format: the file extension and how a screen is written in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Format {
    /// The text rows (`.txt`), then the style runs when the screen has any (unless
    /// `styles = false`); written `txt` or `text`.
    Text,
    /// Rows plus style runs, always, and the hyperlinks (`.styled.txt`).
    Styled,
    /// A picture of the screen (`.png`), compared by decoded pixels; see
    /// [`Check`](super::Check).
    Png,
}

/// Everything a golden format is.
#[derive(Debug)]
pub(crate) struct Def {
    /// The name configuration, reports and JSON use; also the file extension, without the dot.
    pub(crate) name: &'static str,
    /// Other names configuration reads.
    pub(crate) aliases: &'static [&'static str],
    /// Goldens are pictures: compared by decoded pixels ([`super::check_png`]) and shown as
    /// images in a report; otherwise text, compared by [`super::check_file`] and shown as
    /// cells with a diff.
    pub(crate) picture: bool,
    /// Its goldens always hold the cells' styles (the style runs, or the picture's colours);
    /// a text golden without it has the runs only when the screen has any and `styles` is on.
    pub(crate) always_styled: bool,
    /// Its text render lists the cells' hyperlinks after the styles.
    pub(crate) links: bool,
}

const TEXT: Def = Def {
    name: "txt",
    aliases: &["text"],
    picture: false,
    always_styled: false,
    links: false,
};

const STYLED: Def = Def {
    name: "styled.txt",
    aliases: &["styled"],
    picture: false,
    always_styled: true,
    links: true,
};

const PNG: Def = Def {
    name: "png",
    aliases: &[],
    picture: true,
    always_styled: true,
    links: false,
};

/// How many names read as formats, aliases included.
const NAME_COUNT: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < Format::ALL.len() {
        n += 1 + Format::ALL[i].def().aliases.len();
        i += 1;
    }
    n
};

/// Every name that reads as a format, in [`Format::ALL`]'s order, each format's aliases then
/// its name: serde's "expected one of", in the order serde's derive listed them.
const NAMES: [&str; NAME_COUNT] = {
    let mut out = [""; NAME_COUNT];
    let (mut n, mut i) = (0, 0);
    while i < Format::ALL.len() {
        let def = Format::ALL[i].def();
        let mut a = 0;
        while a < def.aliases.len() {
            out[n] = def.aliases[a];
            n += 1;
            a += 1;
        }
        out[n] = def.name;
        n += 1;
        i += 1;
    }
    out
};

impl Format {
    /// Every format, in the order they are checked.
    pub const ALL: [Format; 3] = [Format::Text, Format::Styled, Format::Png];

    /// The format's definition.
    pub(crate) const fn def(self) -> &'static Def {
        match self {
            Format::Text => &TEXT,
            Format::Styled => &STYLED,
            Format::Png => &PNG,
        }
    }

    /// The file extension, without the leading dot.
    pub fn extension(self) -> &'static str {
        self.def().name
    }

    /// Whether goldens of this format are binary (compared as images, not text).
    pub fn is_binary(self) -> bool {
        self.def().picture
    }

    /// Whether its goldens always hold the cells' styles (`styled.txt`'s style runs, a
    /// picture's colours); a `txt` golden has the runs only when the screen has any and
    /// `styles` is on.
    pub fn always_styled(self) -> bool {
        self.def().always_styled
    }

    /// The format of a golden's file name (`vim/saved.styled.txt`) and the name without its
    /// extension (`vim/saved`): the format whose `.extension` ends it, the longest when
    /// several do (`.styled.txt` over `.txt`); `None` for a name of no format.
    pub(crate) fn of_name(name: &str) -> Option<(&str, Format)> {
        Format::ALL
            .iter()
            .filter_map(|&f| {
                let base = name.strip_suffix(f.extension())?.strip_suffix('.')?;
                Some((base, f))
            })
            .min_by_key(|(base, _)| base.len())
    }

    /// Each format's names as people read them: `txt (or text), styled.txt (or styled), png`.
    fn described(quote: &str) -> String {
        let one = |f: &Format| {
            let def = f.def();
            let mut s = format!("{quote}{}{quote}", def.name);
            for a in def.aliases {
                s.push_str(&format!(" (or {quote}{a}{quote})"));
            }
            s
        };
        Format::ALL.iter().map(one).collect::<Vec<_>>().join(", ")
    }
}

message_error!(
    /// Why a name is not a snapshot format.
    FormatError, FormatErrorKind {
        /// Not txt (text), styled.txt (styled) or png.
        Unknown,
    }
);

impl std::str::FromStr for Format {
    type Err = FormatError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Format::ALL
            .into_iter()
            .find(|f| f.def().name == s || f.def().aliases.contains(&s))
            .ok_or_else(|| {
                FormatError::new(
                    FormatErrorKind::Unknown,
                    format!(
                        "unknown snapshot format \"{}\": expected {}",
                        escape_for_terminal(s, 40),
                        Format::described("")
                    ),
                )
            })
    }
}

impl std::fmt::Display for Format {
    /// The format's name (its extension): `txt`, `styled.txt`, `png`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.extension())
    }
}

impl serde::Serialize for Format {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.extension())
    }
}

/// Read as serde's derive of a unit-variant enum reads one (a name, `{"txt": null}` in JSON),
/// with the same messages: the names, aliases included, are `NAMES`.
impl<'de> serde::Deserialize<'de> for Format {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::{self, VariantAccess as _};
        /// A format's name (or index) as a variant identifier.
        struct Name(Format);
        impl<'de> serde::Deserialize<'de> for Name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct Visitor;
                impl de::Visitor<'_> for Visitor {
                    type Value = Name;
                    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                        f.write_str("variant identifier")
                    }
                    fn visit_u64<E: de::Error>(self, i: u64) -> Result<Name, E> {
                        let at = usize::try_from(i).ok().and_then(|i| Format::ALL.get(i));
                        at.map(|f| Name(*f)).ok_or_else(|| {
                            let n = Format::ALL.len();
                            let expected = format!("variant index 0 <= i < {n}");
                            E::invalid_value(de::Unexpected::Unsigned(i), &expected.as_str())
                        })
                    }
                    fn visit_str<E: de::Error>(self, s: &str) -> Result<Name, E> {
                        s.parse()
                            .map(Name)
                            .map_err(|_| E::unknown_variant(s, &NAMES))
                    }
                    fn visit_bytes<E: de::Error>(self, b: &[u8]) -> Result<Name, E> {
                        self.visit_str(&String::from_utf8_lossy(b))
                    }
                }
                d.deserialize_identifier(Visitor)
            }
        }
        struct Visitor;
        impl<'de> de::Visitor<'de> for Visitor {
            type Value = Format;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("enum Format")
            }
            fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<Format, A::Error> {
                let (Name(format), variant) = data.variant()?;
                variant.unit_variant()?;
                Ok(format)
            }
        }
        d.deserialize_enum("Format", &NAMES, Visitor)
    }
}

#[cfg(feature = "schema")]
impl schemars::JsonSchema for Format {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Format".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": format!("A golden format: {}", Format::described("`")),
            "type": "string",
            "enum": Format::ALL
                .iter()
                .flat_map(|f| std::iter::once(&f.def().name).chain(f.def().aliases))
                .collect::<Vec<_>>()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_reads_back_as_its_format_and_writes_as_its_extension() {
        assert_eq!(NAMES, ["text", "txt", "styled", "styled.txt", "png"]);
        for f in Format::ALL {
            let def = f.def();
            assert_eq!(def.name.parse::<Format>().unwrap(), f);
            for a in def.aliases {
                assert_eq!(a.parse::<Format>().unwrap(), f);
            }
            let json = serde_json::to_string(&f).unwrap();
            assert_eq!(json, format!("\"{}\"", f.extension()));
            assert_eq!(serde_json::from_str::<Format>(&json).unwrap(), f);
            assert_eq!(f.to_string(), f.extension());
        }
        assert_eq!(
            "gif".parse::<Format>().unwrap_err().message(),
            "unknown snapshot format \"gif\": expected txt (or text), styled.txt (or styled), png"
        );
    }

    /// The enum serde derived before formats were defined once, as it read them.
    mod derived {
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        pub(super) enum Format {
            #[serde(rename = "txt", alias = "text")]
            Text,
            #[serde(rename = "styled.txt", alias = "styled")]
            Styled,
            #[serde(rename = "png")]
            Png,
        }
    }

    #[test]
    fn json_and_toml_errors_are_those_of_the_derived_enum() {
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        struct Ours {
            formats: Vec<Format>,
        }
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        struct Theirs {
            formats: Vec<derived::Format>,
        }
        for toml_text in [
            "formats = [\"gif\"]",
            "formats = [1]",
            "formats = [\"txt\", {}]",
        ] {
            let ours = toml::from_str::<Ours>(toml_text).unwrap_err().to_string();
            let theirs = toml::from_str::<Theirs>(toml_text).unwrap_err().to_string();
            assert_eq!(ours, theirs, "{toml_text}");
        }
        for json in [
            "{\"formats\": [\"gif\"]}",
            "{\"formats\": [1]}",
            "{\"formats\": [\"\"]}",
        ] {
            let ours = serde_json::from_str::<Ours>(json).unwrap_err().to_string();
            let theirs = serde_json::from_str::<Theirs>(json)
                .unwrap_err()
                .to_string();
            assert_eq!(ours, theirs, "{json}");
        }
        let ok = toml::from_str::<Ours>("formats = [\"text\", \"styled\", \"png\"]").unwrap();
        assert_eq!(ok.formats, [Format::Text, Format::Styled, Format::Png]);
    }

    #[test]
    fn a_golden_name_has_the_format_of_its_longest_extension() {
        assert_eq!(
            Format::of_name("vim/saved.styled.txt"),
            Some(("vim/saved", Format::Styled))
        );
        assert_eq!(
            Format::of_name("vim/saved.txt"),
            Some(("vim/saved", Format::Text))
        );
        assert_eq!(Format::of_name("a/end.png"), Some(("a/end", Format::Png)));
        assert_eq!(
            Format::of_name("styled.txt"),
            Some(("styled", Format::Text))
        );
        assert_eq!(Format::of_name("a/end.apng"), None);
        assert_eq!(Format::of_name("a/endtxt"), None);
        assert_eq!(Format::of_name("a/end.svg"), None);
    }
}
