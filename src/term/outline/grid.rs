//! The grid of characters an outline reads, and the line-drawing characters: which
//! neighbours each one's lines reach ([`arms`]), and the two box styles (Unicode, ASCII).

#![allow(clippy::needless_range_loop)]

use std::ops::Range;

use super::*;

/// The arms of a line-drawing character: which neighbours its lines reach.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) struct Arms {
    pub(super) up: bool,
    pub(super) down: bool,
    pub(super) left: bool,
    pub(super) right: bool,
}

/// Arms of a character of U+2500–U+257F (light, heavy, double, rounded and dashed forms).
pub(super) fn arms(ch: char) -> Option<Arms> {
    let a = |up, down, left, right| {
        Some(Arms {
            up,
            down,
            left,
            right,
        })
    };
    match ch {
        '─' | '━' | '═' | '┄' | '┅' | '┈' | '┉' | '╌' | '╍' | '╼' | '╾' => {
            a(false, false, true, true)
        }
        '│' | '┃' | '║' | '┆' | '┇' | '┊' | '┋' | '╎' | '╏' | '╽' | '╿' => {
            a(true, true, false, false)
        }
        '┌' | '┍' | '┎' | '┏' | '╒' | '╓' | '╔' | '╭' => {
            a(false, true, false, true)
        }
        '┐' | '┑' | '┒' | '┓' | '╕' | '╖' | '╗' | '╮' => {
            a(false, true, true, false)
        }
        '└' | '┕' | '┖' | '┗' | '╘' | '╙' | '╚' | '╰' => {
            a(true, false, false, true)
        }
        '┘' | '┙' | '┚' | '┛' | '╛' | '╜' | '╝' | '╯' => {
            a(true, false, true, false)
        }
        '├'..='┣' | '╞' | '╟' | '╠' => a(true, true, false, true),
        '┤'..='┫' | '╡' | '╢' | '╣' => a(true, true, true, false),
        '┬'..='┳' | '╤' | '╥' | '╦' => a(false, true, true, true),
        '┴'..='┻' | '╧' | '╨' | '╩' => a(true, false, true, true),
        '┼'..='╋' | '╪' | '╫' | '╬' => a(true, true, true, true),
        '╴' | '╸' => a(false, false, true, false),
        '╶' | '╺' => a(false, false, false, true),
        '╵' | '╹' => a(true, false, false, false),
        '╷' | '╻' => a(false, true, false, false),
        _ => None,
    }
}

/// True for a character of the box-drawing block (lines of any kind).
pub(crate) fn is_line_char(ch: char) -> bool {
    ('\u{2500}'..='\u{257f}').contains(&ch)
}

/// The screen as one character per cell (a wide character's tail is `\0`), for quick looks.
pub(crate) struct Grid {
    pub(crate) rows: usize,
    pub(crate) cols: usize,
    chars: Vec<char>,
}

impl Grid {
    pub(crate) fn new(screen: &Screen) -> Grid {
        let rows = screen.rows.len().min(screen.size.rows as usize);
        let cols = screen.size.cols as usize;
        let mut chars = vec![' '; rows * cols];
        for (r, row) in screen.rows.iter().take(rows).enumerate() {
            for (c, cell) in row.iter().take(cols).enumerate() {
                chars[r * cols + c] = if cell.width == 0 {
                    '\0'
                } else {
                    cell.text.chars().next().unwrap_or(' ')
                };
            }
        }
        Grid { rows, cols, chars }
    }

    pub(crate) fn at(&self, r: usize, c: usize) -> char {
        if r < self.rows && c < self.cols {
            self.chars[r * self.cols + c]
        } else {
            ' '
        }
    }

    /// True when the cell shows nothing: a space, or a wide character's tail.
    pub(super) fn blank(&self, r: usize, c: usize) -> bool {
        let ch = self.at(r, c);
        ch == '\0' || ch.is_whitespace()
    }

    /// The text of cells `cols` of row `r` (tails skipped).
    pub(crate) fn text(&self, r: usize, cols: Range<usize>) -> String {
        cols.map(|c| self.at(r, c)).filter(|&c| c != '\0').collect()
    }
}

/// Which corner, edge or line a cell may be in one style of box.
pub(super) trait BoxStyle {
    fn top_left(&self, ch: char) -> bool;
    fn top_right(&self, ch: char) -> bool;
    fn bottom_left(&self, ch: char) -> bool;
    fn bottom_right(&self, ch: char) -> bool;
    fn vertical(&self, ch: char) -> bool;
    /// Lines that may be part of a top or bottom edge (titles may interrupt them).
    fn horizontal(&self, ch: char) -> bool;
    /// A character that may not be on a horizontal edge at all.
    fn breaks_edge(&self, ch: char) -> bool;
}

pub(super) struct Unicode;
pub(super) struct Ascii;

impl BoxStyle for Unicode {
    fn top_left(&self, ch: char) -> bool {
        arms(ch)
            == Some(Arms {
                up: false,
                down: true,
                left: false,
                right: true,
            })
    }
    fn top_right(&self, ch: char) -> bool {
        arms(ch)
            == Some(Arms {
                up: false,
                down: true,
                left: true,
                right: false,
            })
    }
    fn bottom_left(&self, ch: char) -> bool {
        arms(ch)
            == Some(Arms {
                up: true,
                down: false,
                left: false,
                right: true,
            })
    }
    fn bottom_right(&self, ch: char) -> bool {
        arms(ch)
            == Some(Arms {
                up: true,
                down: false,
                left: true,
                right: false,
            })
    }
    fn vertical(&self, ch: char) -> bool {
        arms(ch).is_some_and(|a| a.up && a.down)
    }
    fn horizontal(&self, ch: char) -> bool {
        arms(ch).is_some_and(|a| a.left && a.right)
    }
    fn breaks_edge(&self, ch: char) -> bool {
        // A pure vertical line, or a corner, cannot be on a horizontal edge; tees can
        // (`┤ Title ├`).
        arms(ch).is_some_and(|a| !a.left && !a.right || (a.left != a.right && !(a.up && a.down)))
    }
}

impl BoxStyle for Ascii {
    fn top_left(&self, ch: char) -> bool {
        ch == '+'
    }
    fn top_right(&self, ch: char) -> bool {
        ch == '+'
    }
    fn bottom_left(&self, ch: char) -> bool {
        ch == '+'
    }
    fn bottom_right(&self, ch: char) -> bool {
        ch == '+'
    }
    fn vertical(&self, ch: char) -> bool {
        ch == '|' || ch == '+'
    }
    fn horizontal(&self, ch: char) -> bool {
        ch == '-' || ch == '=' || ch == '+'
    }
    fn breaks_edge(&self, ch: char) -> bool {
        ch == '|'
    }
}
