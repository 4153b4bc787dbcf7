//! System fonts: the last fallback of screenshots, for characters that neither the bundled
//! DejaVu Sans Mono nor the project's font folders have (CJK, symbols, emoji).
//!
//! The folders searched are the usual ones (`/usr/share/fonts`, `/usr/local/share/fonts`,
//! `~/.local/share/fonts`, `~/.fonts`), or those of [`SYSTEM_FONT_DIRS_ENV`] (colon-separated;
//! empty: none). fontconfig itself is not asked: these are the folders it reads on Linux.
//!
//! Nothing is read until a character is missing from every other font. Then the folders are
//! listed once (bounded: [`MAX_DEPTH`], [`MAX_ENTRIES`], [`MAX_FILES`]), and files are read in a
//! fixed order of preference for that character and style until one covers it. To learn what a
//! file covers only its table directory, character map (`cmap`) and name are read, and kept,
//! so it is never read twice; a file that covers a character drawn is read whole and kept in
//! memory ([`MAX_LOADED`] at most). What each character found is cached, so a screen of CJK text
//! costs one search per distinct character. The order depends only on file names, so the same
//! character finds the same font whatever was drawn before:
//!
//! 1. for an emoji, files named like an emoji font first; for anything else, those last;
//! 2. files whose name says the wanted style (bold, italic) and no other (light, condensed…);
//! 3. monospaced families (`Mono` in the name) before others;
//! 4. then by path.
//!
//! Files are read as regular files within [`MAX_FONT_FILE`](super::font::MAX_FONT_FILE), at
//! most [`MAX_INDEX_BYTES`] in all. Symbolic links to files inside a searched folder are
//! followed; links to folders, and links out of the searched folders, are not. Of a
//! collection (`.ttc`, `.otc`) the first face is used. A file that is not a font, or a broken
//! one, is skipped with its reason kept ([`SystemFonts::skipped`]); nothing here fails a
//! render.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use ab_glyph::{Font, FontArc, FontVec};

use super::font::{describe_names, Style, FONT_EXTENSIONS, MAX_FONT_FILE};

/// The environment variable naming the folders searched for system fonts instead of the
/// usual ones, separated by `:`; set and empty, no folder is searched.
pub const SYSTEM_FONT_DIRS_ENV: &str = "TUICAST_SYSTEM_FONT_DIRS";

/// How deep below a searched folder font files are looked for.
pub(crate) const MAX_DEPTH: usize = 8;
/// Folder entries looked at in all the searched folders.
pub(crate) const MAX_ENTRIES: usize = 50_000;
/// Font files considered.
pub(crate) const MAX_FILES: usize = 4096;
/// Bytes read in all: to learn what the files cover, and of the files drawn with.
pub(crate) const MAX_INDEX_BYTES: u64 = 1 << 30;
/// System faces kept in memory to draw with.
pub(crate) const MAX_LOADED: usize = 32;
/// Reasons kept for files skipped.
const MAX_SKIPPED: usize = 100;

/// The folders searched for system fonts: [`SYSTEM_FONT_DIRS_ENV`] when set, else the usual
/// ones (those under the home folder when `HOME` is set).
pub(crate) fn search_dirs() -> Vec<PathBuf> {
    if let Some(v) = std::env::var_os(SYSTEM_FONT_DIRS_ENV) {
        return std::env::split_paths(&v)
            .filter(|p| !p.as_os_str().is_empty())
            .collect();
    }
    let mut dirs = vec![
        PathBuf::from("/usr/share/fonts"),
        PathBuf::from("/usr/local/share/fonts"),
    ];
    if let Some(home) = std::env::var_os("HOME").filter(|h| !h.is_empty()) {
        let home = PathBuf::from(home);
        dirs.push(home.join(".local/share/fonts"));
        dirs.push(home.join(".fonts"));
    }
    dirs
}

/// A font file of the system and what is known of it.
#[derive(Debug)]
struct Candidate {
    path: PathBuf,
    /// What its file name says.
    named: NameHints,
    index: Index,
}

/// What a file covers, once read.
#[derive(Debug)]
enum Index {
    /// Not read yet.
    Unread,
    /// Read, and not usable (the reason is in `skipped`).
    Unusable,
    /// Its character map and its name.
    Read { cmap: Vec<u8>, name: String },
}

/// The style a file's name suggests.
#[derive(Debug, Clone, Copy, Default)]
struct NameHints {
    bold: bool,
    italic: bool,
    /// Light, thin, condensed and the like: a variant no style asks for.
    other: bool,
    mono: bool,
    emoji: bool,
}

impl NameHints {
    fn of(path: &Path) -> NameHints {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_ascii_lowercase())
            .unwrap_or_default();
        let has = |words: &[&str]| words.iter().any(|w| name.contains(w));
        NameHints {
            bold: has(&["bold", "black", "heavy"]),
            italic: has(&["italic", "oblique"]),
            other: has(&[
                "light",
                "thin",
                "medium",
                "semi",
                "demi",
                "extra",
                "ultra",
                "condensed",
                "narrow",
                "expanded",
            ]),
            mono: has(&["mono"]),
            emoji: has(&["emoji"]),
        }
    }

    /// How far the file is from what `style` and an emoji (or not) want: lower first.
    fn rank(self, style: Style, emoji: bool) -> (u8, u8, u8) {
        let (bold, italic) = match style {
            Style::Regular => (false, false),
            Style::Bold => (true, false),
            Style::Italic => (false, true),
            Style::BoldItalic => (true, true),
        };
        let style_distance =
            u8::from(self.bold != bold) + u8::from(self.italic != italic) + u8::from(self.other);
        (
            u8::from(self.emoji != emoji),
            style_distance,
            u8::from(!self.mono),
        )
    }
}

/// A system face loaded to draw with.
pub(crate) struct Loaded {
    pub(crate) font: FontArc,
    /// Its name as a PNG records it.
    pub(crate) name: String,
}

/// The system fonts: listed, read and loaded as characters need them.
pub(crate) struct SystemFonts {
    dirs: Vec<PathBuf>,
    /// `None` until the first character is looked for.
    files: Option<Vec<Candidate>>,
    /// Search orders by (style, emoji).
    orders: HashMap<(Style, bool), Vec<usize>>,
    loaded: HashMap<usize, Loaded>,
    found: HashMap<(char, Style), Option<usize>>,
    bytes_read: u64,
    skipped: Vec<(PathBuf, String)>,
}

impl std::fmt::Debug for SystemFonts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SystemFonts")
            .field("dirs", &self.dirs)
            .field("files", &self.files.as_ref().map(Vec::len))
            .field("loaded", &self.loaded.len())
            .field("bytes_read", &self.bytes_read)
            .finish_non_exhaustive()
    }
}

impl SystemFonts {
    /// System fonts from `dirs`; nothing is read yet.
    pub(crate) fn new(dirs: Vec<PathBuf>) -> SystemFonts {
        SystemFonts {
            dirs,
            files: None,
            orders: HashMap::new(),
            loaded: HashMap::new(),
            found: HashMap::new(),
            bytes_read: 0,
            skipped: Vec::new(),
        }
    }

    /// The face that draws `c` in `style` (its index and the face), or `None` when no system
    /// font has it.
    pub(crate) fn find(&mut self, c: char, style: Style) -> Option<(usize, &Loaded)> {
        if !searchable(c) {
            return None;
        }
        let hit = match self.found.get(&(c, style)) {
            Some(hit) => *hit,
            None => {
                let hit = self.search(c, style);
                self.found.insert((c, style), hit);
                hit
            }
        };
        let i = hit?;
        self.loaded.get(&i).map(|l| (i, l))
    }

    /// Files skipped, with why (at most 100 kept).
    #[cfg(test)]
    pub(crate) fn skipped(&self) -> &[(PathBuf, String)] {
        &self.skipped
    }

    /// The font files found in the folders, in listing order.
    #[cfg(test)]
    pub(crate) fn files(&mut self) -> Vec<PathBuf> {
        self.list();
        self.files
            .iter()
            .flatten()
            .map(|c| c.path.clone())
            .collect()
    }

    fn search(&mut self, c: char, style: Style) -> Option<usize> {
        self.list();
        let emoji = emoji_like(c);
        let order = self.order(style, emoji);
        order
            .into_iter()
            .find(|&i| self.covers(i, c) && self.load(i, c))
    }

    /// Lists the font files of the folders, once.
    fn list(&mut self) {
        if self.files.is_some() {
            return;
        }
        let mut skipped = Vec::new();
        let paths = list_font_files(&self.dirs, &mut skipped);
        for s in skipped {
            self.skip(s.0, s.1);
        }
        self.files = Some(
            paths
                .into_iter()
                .map(|path| Candidate {
                    named: NameHints::of(&path),
                    path,
                    index: Index::Unread,
                })
                .collect(),
        );
    }

    /// The files in the order they are tried for a character of `style` (an emoji or not).
    fn order(&mut self, style: Style, emoji: bool) -> Vec<usize> {
        let files = self.files.as_deref().unwrap_or_default();
        self.orders
            .entry((style, emoji))
            .or_insert_with(|| {
                let mut order: Vec<usize> = (0..files.len()).collect();
                order.sort_by(|&a, &b| {
                    let (fa, fb) = (&files[a], &files[b]);
                    (fa.named.rank(style, emoji), &fa.path)
                        .cmp(&(fb.named.rank(style, emoji), &fb.path))
                });
                order
            })
            .clone()
    }

    /// Whether file `i` maps `c`, indexing it first if need be (reading its character map
    /// and name only).
    fn covers(&mut self, i: usize, c: char) -> bool {
        let Some(candidate) = self.files.as_ref().and_then(|f| f.get(i)) else {
            return false;
        };
        match &candidate.index {
            Index::Unusable => false,
            Index::Read { cmap, .. } => maps(cmap, c),
            Index::Unread => {
                let path = candidate.path.clone();
                if self.bytes_read >= MAX_INDEX_BYTES {
                    self.set_index(i, Index::Unusable);
                    self.skip(path, self.over_budget());
                    return false;
                }
                let mut read = 0;
                let index = read_index(&path, &mut read);
                self.bytes_read += read;
                match index {
                    Err(why) => {
                        self.set_index(i, Index::Unusable);
                        self.skip(path, why.into());
                        false
                    }
                    Ok((cmap, name)) => {
                        let covered = maps(&cmap, c);
                        self.set_index(i, Index::Read { cmap, name });
                        covered
                    }
                }
            }
        }
    }

    fn over_budget(&self) -> String {
        format!(
            "more than {} of system fonts would be read",
            crate::util::human_bytes(MAX_INDEX_BYTES)
        )
    }

    /// Makes sure file `i`, which covers `c`, is loaded; false when it cannot be (too many
    /// loaded, or unreadable now).
    fn load(&mut self, i: usize, c: char) -> bool {
        if !self.loaded.contains_key(&i) {
            let Some(Candidate {
                path,
                index: Index::Read { name, .. },
                ..
            }) = self.files.as_ref().and_then(|f| f.get(i))
            else {
                return false;
            };
            let (path, name) = (path.clone(), name.clone());
            let Some(data) = self.read(&path) else {
                return false;
            };
            self.insert_loaded(i, data, &name, &path);
        }
        self.loaded
            .get(&i)
            .is_some_and(|l| l.font.glyph_id(c).0 != 0)
    }

    fn insert_loaded(&mut self, i: usize, data: Vec<u8>, name: &str, path: &Path) {
        if self.loaded.len() >= MAX_LOADED {
            self.skip(
                path.to_path_buf(),
                format!("more than {MAX_LOADED} system fonts would be in memory"),
            );
            return;
        }
        match FontVec::try_from_vec_and_index(data, 0) {
            Ok(font) => {
                let file = path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                self.loaded.insert(
                    i,
                    Loaded {
                        font: FontArc::new(font),
                        name: format!("{name} (system: {file})"),
                    },
                );
            }
            Err(e) => self.skip(path.to_path_buf(), e.to_string()),
        }
    }

    fn set_index(&mut self, i: usize, index: Index) {
        if let Some(c) = self.files.as_mut().and_then(|f| f.get_mut(i)) {
            c.index = index;
        }
    }

    /// A font file's bytes, within the limits; `None` (the reason kept) when it cannot be
    /// read.
    fn read(&mut self, path: &Path) -> Option<Vec<u8>> {
        let len = std::fs::symlink_metadata(path)
            .map(|m| m.len())
            .unwrap_or(0);
        if self.bytes_read.saturating_add(len.min(MAX_FONT_FILE)) > MAX_INDEX_BYTES {
            self.skip(path.to_path_buf(), self.over_budget());
            return None;
        }
        // Not through a link: the listing resolved links to the files they name.
        match crate::util::read_regular_nofollow(path, MAX_FONT_FILE) {
            Ok(data) => {
                self.bytes_read += data.len() as u64;
                Some(data)
            }
            Err(e) => {
                self.skip(path.to_path_buf(), e.to_string());
                None
            }
        }
    }

    fn skip(&mut self, path: PathBuf, why: String) {
        if self.skipped.len() < MAX_SKIPPED {
            self.skipped.push((path, why));
        }
    }
}

/// Whether a system font is looked for when no other font has `c`: not for controls and
/// the invisible format characters (variation selectors, joiners), which no font draws.
fn searchable(c: char) -> bool {
    let u = c as u32;
    !(c.is_control()
        || (0xFE00..=0xFE0F).contains(&u)
        || (0xE0100..=0xE01EF).contains(&u)
        || (0x200B..=0x200F).contains(&u)
        || (0x2060..=0x206F).contains(&u)
        || (0xE0000..=0xE007F).contains(&u)
        || u == 0xFEFF)
}

/// Whether `c` is most likely an emoji: wide pictographs, and the wide symbols of the older
/// blocks that terminals show as emoji.
fn emoji_like(c: char) -> bool {
    let u = c as u32;
    let wide = unicode_width::UnicodeWidthChar::width(c) == Some(2);
    (0x1F000..=0x1FAFF).contains(&u) || (wide && (0x2300..=0x2BFF).contains(&u))
}

/// The font files under `dirs`: each folder walked in name order, at most [`MAX_DEPTH`] deep,
/// [`MAX_ENTRIES`] entries and [`MAX_FILES`] files in all; links followed only to files
/// inside a searched folder; each file once. Why anything was left out goes to `skipped`.
fn list_font_files(dirs: &[PathBuf], skipped: &mut Vec<(PathBuf, String)>) -> Vec<PathBuf> {
    let roots: Vec<PathBuf> = dirs
        .iter()
        .filter_map(|d| match std::fs::canonicalize(d) {
            Ok(r) if r.is_dir() => Some(r),
            Ok(r) => {
                skipped.push((r, "not a folder".into()));
                None
            }
            // The usual folders need not exist.
            Err(_) => None,
        })
        .collect();
    let mut seen = HashSet::new();
    let mut files = Vec::new();
    let mut entries_seen = 0usize;
    'roots: for root in &roots {
        // Depth first, in name order, so that what the limits leave out is always the same.
        let mut stack = vec![(root.clone(), 0usize)];
        while let Some((dir, depth)) = stack.pop() {
            let Ok(read) = std::fs::read_dir(&dir) else {
                skipped.push((dir, "cannot be read".into()));
                continue;
            };
            let mut entries: Vec<(PathBuf, std::fs::FileType)> = Vec::new();
            for entry in read.flatten() {
                entries_seen += 1;
                if entries_seen > MAX_ENTRIES {
                    skipped.push((dir, format!("more than {MAX_ENTRIES} entries looked at")));
                    break 'roots;
                }
                if let Ok(ty) = entry.file_type() {
                    entries.push((entry.path(), ty));
                }
            }
            // A folder's files first, then its folders, each in name order.
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            let mut subdirs = Vec::new();
            for (path, ty) in entries {
                if ty.is_dir() {
                    if depth < MAX_DEPTH {
                        subdirs.push((path, depth + 1));
                    } else {
                        skipped.push((path, format!("deeper than {MAX_DEPTH} folders")));
                    }
                    continue;
                }
                if !has_font_extension(&path) {
                    continue;
                }
                let file = if ty.is_symlink() {
                    match std::fs::canonicalize(&path) {
                        Ok(t) if t.is_file() && roots.iter().any(|r| t.starts_with(r)) => t,
                        Ok(t) => {
                            skipped.push((
                                path,
                                format!(
                                    "a link to {}, not a font file in a searched folder",
                                    t.display()
                                ),
                            ));
                            continue;
                        }
                        Err(e) => {
                            skipped.push((path, format!("a broken link: {e}")));
                            continue;
                        }
                    }
                } else if ty.is_file() {
                    path
                } else {
                    skipped.push((path, "not a regular file".into()));
                    continue;
                };
                if !seen.insert(file.clone()) {
                    continue;
                }
                if files.len() >= MAX_FILES {
                    skipped.push((file, format!("more than {MAX_FILES} font files")));
                    break 'roots;
                }
                files.push(file);
            }
            stack.extend(subdirs.into_iter().rev());
        }
    }
    files
}

fn has_font_extension(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| FONT_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
}

message_error!(
    /// Why a system font file is not used.
    pub(crate) Unusable
);

/// The character map (the raw `cmap` table) and the name of the first face of the font file
/// at `path`, or why it is no usable font. Only the table directory and those two tables are
/// read (`read` counts the bytes), not the glyphs: learning what a 20 MB CJK collection covers
/// takes some 100 KB.
fn read_index(path: &Path, read: &mut u64) -> Result<(Vec<u8>, String), Unusable> {
    // Not through a link: the listing resolved links to the files they name.
    let file = crate::util::open_regular_nofollow(path).map_err(|e| e.to_string())?;
    let len = file.metadata().map_err(|e| e.to_string())?.len();
    if len > MAX_FONT_FILE {
        return Err(format!(
            "is larger than the limit of {}",
            crate::util::human_bytes(MAX_FONT_FILE)
        )
        .into());
    }
    let mut at = |offset: u64, n: u64| -> Result<Vec<u8>, Unusable> {
        use std::os::unix::fs::FileExt;
        if offset.checked_add(n).is_none_or(|end| end > len) {
            return Err("not a font: it is shorter than its tables say".into());
        }
        let mut buf = vec![0; n as usize];
        file.read_exact_at(&mut buf, offset)
            .map_err(|e| e.to_string())?;
        *read += n;
        Ok(buf)
    };
    let be32 = |b: &[u8], i: usize| u32::from_be_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
    let head = at(0, 12)?;
    // A collection: the first face's offset follows the header.
    let (face, head) = if &head[..4] == b"ttcf" {
        let face = u64::from(be32(&at(12, 4)?, 0));
        (face, at(face, 12)?)
    } else {
        (0, head)
    };
    if !matches!(&head[..4], [0, 1, 0, 0] | b"OTTO" | b"true") {
        return Err("not a font: no TrueType or OpenType header".into());
    }
    let tables = u64::from(u16::from_be_bytes([head[4], head[5]]));
    let records = at(face + 12, tables * 16)?;
    let table = |tag: &[u8; 4]| {
        records
            .chunks_exact(16)
            .find(|r| &r[..4] == tag)
            .map(|r| (u64::from(be32(r, 8)), u64::from(be32(r, 12))))
    };
    let (offset, length) = table(b"cmap").ok_or("not a font: it has no character map")?;
    let cmap = at(offset, length)?;
    if ttf_parser::cmap::Table::parse(&cmap).is_none() {
        return Err("not a font: its character map does not read".into());
    }
    let named = match table(b"name") {
        Some((offset, length)) => at(offset, length)
            .ok()
            .and_then(|t| describe_names(ttf_parser::name::Table::parse(&t)?.names)),
        None => None,
    };
    let name = named.unwrap_or_else(|| {
        path.file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default()
    });
    Ok((cmap, name))
}

/// Whether the character map `cmap` (a raw `cmap` table) maps `c` to a glyph.
fn maps(cmap: &[u8], c: char) -> bool {
    let Some(table) = ttf_parser::cmap::Table::parse(cmap) else {
        return false;
    };
    table
        .subtables
        .into_iter()
        .filter(|s| s.is_unicode())
        .any(|s| s.glyph_index(c as u32).is_some_and(|g| g.0 != 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEJAVU: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSansMono.ttf");
    const BOLD: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSansMono-Bold.ttf");

    #[test]
    fn fonts_are_found_in_name_order_and_junk_is_skipped_with_a_reason() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::create_dir_all(d.join("b/deep")).unwrap();
        std::fs::write(d.join("b/deep/Mono-Bold.ttf"), BOLD).unwrap();
        std::fs::write(d.join("a.ttf"), DEJAVU).unwrap();
        std::fs::write(d.join("junk.otf"), b"not a font at all").unwrap();
        std::fs::write(d.join("readme.txt"), b"not looked at").unwrap();
        let mut fonts = SystemFonts::new(vec![d.to_path_buf()]);
        let root = std::fs::canonicalize(d).unwrap();
        assert_eq!(
            fonts.files(),
            vec![
                root.join("a.ttf"),
                root.join("junk.otf"),
                root.join("b/deep/Mono-Bold.ttf"),
            ]
        );
        // Nothing is read until a character is looked for.
        assert_eq!(fonts.bytes_read, 0);
        let (i, face) = fonts.find('é', Style::Regular).unwrap();
        assert!(face.name.starts_with("DejaVu Sans Mono"), "{}", face.name);
        assert!(face.name.ends_with("(system: a.ttf)"), "{}", face.name);
        assert_eq!(i, 0);
        // Bold text prefers the file whose name says bold.
        let (_, bold) = fonts.find('é', Style::Bold).unwrap();
        assert!(bold.name.contains("Bold"), "{}", bold.name);
        // A character no file has reads every file once, and the junk is skipped, not fatal.
        assert!(fonts.find('日', Style::Regular).is_none());
        assert!(fonts
            .skipped()
            .iter()
            .any(|(p, why)| p.ends_with("junk.otf") && why.starts_with("not a font")));
        let read = fonts.bytes_read;
        assert!(fonts.find('本', Style::Regular).is_none());
        assert_eq!(fonts.bytes_read, read, "indexed files are not read again");
        assert!(fonts.find('\u{FE0F}', Style::Regular).is_none());
    }

    /// DejaVu Sans Mono as a collection of one face: a `ttcf` header before it, every table
    /// offset moved past it.
    fn as_collection(font: &[u8]) -> Vec<u8> {
        let mut face = font.to_vec();
        let tables = u16::from_be_bytes([face[4], face[5]]) as usize;
        for t in 0..tables {
            let at = 12 + t * 16 + 8;
            let offset = u32::from_be_bytes(face[at..at + 4].try_into().unwrap()) + 16;
            face[at..at + 4].copy_from_slice(&offset.to_be_bytes());
        }
        let mut out = b"ttcf\0\x01\0\0\0\0\0\x01\0\0\0\x10".to_vec();
        out.extend(face);
        out
    }

    #[test]
    fn only_the_character_map_and_the_name_are_read_to_index_a_font() {
        let dir = tempfile::tempdir().unwrap();
        for (name, data) in [("f.ttf", DEJAVU.to_vec()), ("c.ttc", as_collection(DEJAVU))] {
            let path = dir.path().join(name);
            std::fs::write(&path, &data).unwrap();
            let mut read = 0;
            let (cmap, face) = read_index(&path, &mut read).unwrap();
            assert_eq!(face, "DejaVu Sans Mono, Version 2.37", "{name}");
            assert!(maps(&cmap, 'é') && !maps(&cmap, '日'), "{name}");
            assert!(
                read < data.len() as u64 / 10,
                "{name}: {read} of {} bytes",
                data.len()
            );
            // Cut short: an error, never a panic (cut after its tables, it still indexes).
            for cut in [0, 11, 13, 30, 400] {
                std::fs::write(&path, &data[..cut]).unwrap();
                assert!(read_index(&path, &mut read).is_err(), "{name} cut at {cut}");
            }
            for cut in (0..data.len()).step_by(997) {
                std::fs::write(&path, &data[..cut]).unwrap();
                let _ = read_index(&path, &mut read);
            }
        }
    }

    #[test]
    fn the_search_is_bounded_in_depth_and_files() {
        let dir = tempfile::tempdir().unwrap();
        let mut deep = dir.path().to_path_buf();
        for i in 0..=MAX_DEPTH {
            deep = deep.join(format!("d{i}"));
        }
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::write(deep.join("too-deep.ttf"), DEJAVU).unwrap();
        std::fs::write(deep.parent().unwrap().join("deep-enough.ttf"), DEJAVU).unwrap();
        let mut skipped = Vec::new();
        let files = list_font_files(&[dir.path().to_path_buf()], &mut skipped);
        assert_eq!(files.len(), 1, "{files:?}");
        assert!(files[0].ends_with("deep-enough.ttf"));
        assert!(skipped
            .iter()
            .any(|(_, why)| why.starts_with("deeper than")));

        let many = tempfile::tempdir().unwrap();
        for i in 0..MAX_FILES + 3 {
            std::fs::write(many.path().join(format!("f{i:05}.ttf")), b"").unwrap();
        }
        let mut skipped = Vec::new();
        let files = list_font_files(&[many.path().to_path_buf()], &mut skipped);
        assert_eq!(files.len(), MAX_FILES);
        assert!(
            files[0].ends_with("f00000.ttf"),
            "name order: {:?}",
            files[0]
        );
        assert!(skipped.iter().any(|(_, why)| why.contains("font files")));
    }

    #[test]
    fn links_are_followed_only_to_files_inside_the_searched_folders() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret.ttf"), DEJAVU).unwrap();
        std::fs::create_dir(outside.path().join("fonts")).unwrap();
        std::fs::write(outside.path().join("fonts/elsewhere.ttf"), DEJAVU).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::write(d.join("real.ttf"), DEJAVU).unwrap();
        let link = |target: &Path, name: &str| std::os::unix::fs::symlink(target, d.join(name));
        link(&d.join("real.ttf"), "alias.ttf").unwrap();
        link(&outside.path().join("secret.ttf"), "out.ttf").unwrap();
        link(&outside.path().join("fonts"), "linked-dir").unwrap();
        link(Path::new("/dev/zero"), "zero.ttf").unwrap();
        link(&d.join("missing.ttf"), "broken.ttf").unwrap();
        link(d, "loop").unwrap();
        let mut skipped = Vec::new();
        let files = list_font_files(&[d.to_path_buf()], &mut skipped);
        let root = std::fs::canonicalize(d).unwrap();
        assert_eq!(
            files,
            vec![root.join("real.ttf")],
            "the alias is the same file"
        );
        for name in ["out.ttf", "zero.ttf", "broken.ttf"] {
            assert!(
                skipped.iter().any(|(p, _)| p.ends_with(name)),
                "{name}: {skipped:?}"
            );
        }
        // A folder given as a link is searched (the user named it).
        let mut skipped = Vec::new();
        let files = list_font_files(&[d.join("linked-dir")], &mut skipped);
        assert_eq!(files.len(), 1, "{files:?}");
    }

    #[test]
    fn the_environment_chooses_the_folders() {
        // Read in a child process: the environment is shared by the test threads.
        let exe = std::env::current_exe().unwrap();
        let run = |value: Option<&str>| {
            let mut cmd = std::process::Command::new(&exe);
            cmd.args([
                "--exact",
                "render::png::system::tests::print_search_dirs",
                "--nocapture",
                "--include-ignored",
            ]);
            match value {
                Some(v) => cmd.env(SYSTEM_FONT_DIRS_ENV, v),
                None => cmd.env_remove(SYSTEM_FONT_DIRS_ENV),
            };
            let out = cmd.env("HOME", "/home/someone").output().unwrap();
            let text = String::from_utf8_lossy(&out.stdout).into_owned();
            text.lines()
                .find_map(|l| l.strip_prefix("dirs="))
                .unwrap_or_else(|| panic!("{text}"))
                .to_string()
        };
        assert_eq!(run(Some("/a:/b")), r#"["/a", "/b"]"#);
        assert_eq!(run(Some("")), "[]");
        assert_eq!(
            run(None),
            r#"["/usr/share/fonts", "/usr/local/share/fonts", "/home/someone/.local/share/fonts", "/home/someone/.fonts"]"#
        );
    }

    #[test]
    #[ignore = "run by the_environment_chooses_the_folders"]
    fn print_search_dirs() {
        println!("dirs={:?}", search_dirs());
    }

    #[test]
    fn file_names_order_the_search() {
        let rank = |name: &str, style, emoji| NameHints::of(Path::new(name)).rank(style, emoji);
        assert!(
            rank("NotoSansCJK-Regular.ttc", Style::Regular, false)
                < rank("NotoSansCJK-Bold.ttc", Style::Regular, false)
        );
        assert!(
            rank("NotoSansCJK-Bold.ttc", Style::Bold, false)
                < rank("NotoSansCJK-Regular.ttc", Style::Bold, false)
        );
        assert!(
            rank("NotoColorEmoji.ttf", Style::Regular, true)
                < rank("DejaVuSans.ttf", Style::Regular, true)
        );
        assert!(
            rank("DejaVuSans.ttf", Style::Regular, false)
                < rank("NotoColorEmoji.ttf", Style::Regular, false)
        );
        assert!(
            rank("DejaVuSansMono.ttf", Style::Regular, false)
                < rank("DejaVuSans.ttf", Style::Regular, false)
        );
        assert!(
            rank("DejaVuSans.ttf", Style::Regular, false)
                < rank("DejaVuSans-ExtraLight.ttf", Style::Regular, false)
        );
        assert!(emoji_like('😀') && emoji_like('⌚') && !emoji_like('★') && !emoji_like('日'));
    }
}
