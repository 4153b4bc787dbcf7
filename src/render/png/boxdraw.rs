//! Box drawing (U+2500–U+257F), block elements (U+2580–U+259F), braille (U+2800–U+28FF) and
//! the powerline separators (U+E0B0–U+E0B3), drawn in code: lines sit at the same place in
//! every cell and run to the cell edges, so boxes join without gaps at any size.
//!
//! A cell's lines are `Arm`s of a `Crossing`, where they meet.

use super::font::Metrics;
use super::raster::Canvas;
use crate::rgb::Rgb;

/// Line weights of one arm of a box-drawing character, lightest first (a line through the
/// cell takes the heavier of its two arms).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum W {
    None,
    Light,
    Heavy,
    Double,
}

/// The four arms: left, up, right, down.
#[derive(Debug, Clone, Copy)]
struct Arms {
    l: W,
    u: W,
    r: W,
    d: W,
}

/// The cell box a character is drawn in.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CellBox {
    pub(crate) x: i32,
    pub(crate) y: i32,
    pub(crate) w: i32,
    pub(crate) h: i32,
}

/// Draws `c` in `fg` into the cell box; false when `c` is not one of ours.
pub(crate) fn draw(canvas: &mut Canvas, c: char, b: CellBox, fg: Rgb, m: &Metrics) -> bool {
    let cp = c as u32;
    match cp {
        0x2500..=0x254B | 0x2550..=0x256C | 0x2574..=0x257F => {
            if let Some(arms) = arms(cp) {
                lines(canvas, b, arms, fg, m);
                return true;
            }
            dashed(canvas, cp, b, fg, m)
        }
        0x254C..=0x254F => dashed(canvas, cp, b, fg, m),
        0x256D..=0x2570 => {
            arc(canvas, cp, b, fg, m);
            true
        }
        0x2571..=0x2573 => {
            diagonal(canvas, cp, b, fg, m);
            true
        }
        0x2580..=0x259F => {
            block(canvas, cp, b, fg);
            true
        }
        0x2800..=0x28FF => {
            braille(canvas, cp, b, fg);
            true
        }
        0xE0B0..=0xE0B3 => {
            powerline(canvas, cp, b, fg, m);
            true
        }
        _ => false,
    }
}

/// The arms of the solid box-drawing characters; `None` for the dashed ones.
fn arms(cp: u32) -> Option<Arms> {
    use W::{Double as D, Heavy as H, Light as L, None as N};
    let a = |l, u, r, d| Some(Arms { l, u, r, d });
    match cp {
        0x2500 => a(L, N, L, N),
        0x2501 => a(H, N, H, N),
        0x2502 => a(N, L, N, L),
        0x2503 => a(N, H, N, H),
        0x2504..=0x250B => None,
        0x250C => a(N, N, L, L),
        0x250D => a(N, N, H, L),
        0x250E => a(N, N, L, H),
        0x250F => a(N, N, H, H),
        0x2510 => a(L, N, N, L),
        0x2511 => a(H, N, N, L),
        0x2512 => a(L, N, N, H),
        0x2513 => a(H, N, N, H),
        0x2514 => a(N, L, L, N),
        0x2515 => a(N, L, H, N),
        0x2516 => a(N, H, L, N),
        0x2517 => a(N, H, H, N),
        0x2518 => a(L, L, N, N),
        0x2519 => a(H, L, N, N),
        0x251A => a(L, H, N, N),
        0x251B => a(H, H, N, N),
        0x251C => a(N, L, L, L),
        0x251D => a(N, L, H, L),
        0x251E => a(N, H, L, L),
        0x251F => a(N, L, L, H),
        0x2520 => a(N, H, L, H),
        0x2521 => a(N, H, H, L),
        0x2522 => a(N, L, H, H),
        0x2523 => a(N, H, H, H),
        0x2524 => a(L, L, N, L),
        0x2525 => a(H, L, N, L),
        0x2526 => a(L, H, N, L),
        0x2527 => a(L, L, N, H),
        0x2528 => a(L, H, N, H),
        0x2529 => a(H, H, N, L),
        0x252A => a(H, L, N, H),
        0x252B => a(H, H, N, H),
        0x252C => a(L, N, L, L),
        0x252D => a(H, N, L, L),
        0x252E => a(L, N, H, L),
        0x252F => a(H, N, H, L),
        0x2530 => a(L, N, L, H),
        0x2531 => a(H, N, L, H),
        0x2532 => a(L, N, H, H),
        0x2533 => a(H, N, H, H),
        0x2534 => a(L, L, L, N),
        0x2535 => a(H, L, L, N),
        0x2536 => a(L, L, H, N),
        0x2537 => a(H, L, H, N),
        0x2538 => a(L, H, L, N),
        0x2539 => a(H, H, L, N),
        0x253A => a(L, H, H, N),
        0x253B => a(H, H, H, N),
        0x253C => a(L, L, L, L),
        0x253D => a(H, L, L, L),
        0x253E => a(L, L, H, L),
        0x253F => a(H, L, H, L),
        0x2540 => a(L, H, L, L),
        0x2541 => a(L, L, L, H),
        0x2542 => a(L, H, L, H),
        0x2543 => a(H, H, L, L),
        0x2544 => a(L, H, H, L),
        0x2545 => a(H, L, L, H),
        0x2546 => a(L, L, H, H),
        0x2547 => a(H, H, H, L),
        0x2548 => a(H, L, H, H),
        0x2549 => a(H, H, L, H),
        0x254A => a(L, H, H, H),
        0x254B => a(H, H, H, H),
        0x2550 => a(D, N, D, N),
        0x2551 => a(N, D, N, D),
        0x2552 => a(N, N, D, L),
        0x2553 => a(N, N, L, D),
        0x2554 => a(N, N, D, D),
        0x2555 => a(D, N, N, L),
        0x2556 => a(L, N, N, D),
        0x2557 => a(D, N, N, D),
        0x2558 => a(N, L, D, N),
        0x2559 => a(N, D, L, N),
        0x255A => a(N, D, D, N),
        0x255B => a(D, L, N, N),
        0x255C => a(L, D, N, N),
        0x255D => a(D, D, N, N),
        0x255E => a(N, L, D, L),
        0x255F => a(N, D, L, D),
        0x2560 => a(N, D, D, D),
        0x2561 => a(D, L, N, L),
        0x2562 => a(L, D, N, D),
        0x2563 => a(D, D, N, D),
        0x2564 => a(D, N, D, L),
        0x2565 => a(L, N, L, D),
        0x2566 => a(D, N, D, D),
        0x2567 => a(D, L, D, N),
        0x2568 => a(L, D, L, N),
        0x2569 => a(D, D, D, N),
        0x256A => a(D, L, D, L),
        0x256B => a(L, D, L, D),
        0x256C => a(D, D, D, D),
        0x2574 => a(L, N, N, N),
        0x2575 => a(N, L, N, N),
        0x2576 => a(N, N, L, N),
        0x2577 => a(N, N, N, L),
        0x2578 => a(H, N, N, N),
        0x2579 => a(N, H, N, N),
        0x257A => a(N, N, H, N),
        0x257B => a(N, N, N, H),
        0x257C => a(L, N, H, N),
        0x257D => a(N, L, N, H),
        0x257E => a(H, N, L, N),
        0x257F => a(N, H, N, L),
        _ => None,
    }
}

/// Strokes of a line of weight `w` across a cell `size` pixels deep: (offset, thickness),
/// two for a double line. The same in every cell, which is what makes lines join.
fn strokes(w: W, size: i32, m: &Metrics) -> Vec<(i32, i32)> {
    let (light, heavy) = (m.light as i32, m.heavy as i32);
    match w {
        W::None => Vec::new(),
        W::Light => vec![((size - light) / 2, light)],
        W::Heavy => vec![((size - heavy) / 2, heavy)],
        W::Double => {
            let start = (size - 3 * light) / 2;
            vec![(start, light), (start + 2 * light, light)]
        }
    }
}

/// One arm of a character as [`stop`] sees it: its weight, whether it comes from the low edge
/// (the left or the top), and the cell's size along it.
#[derive(Debug, Clone, Copy)]
struct Arm {
    w: W,
    from_low: bool,
    size: i32,
}

/// The line perpendicular to an arm, which the arm must meet.
#[derive(Debug, Clone, Copy)]
struct Crossing<'a> {
    /// The line's weight (the heavier of its two arms).
    w: W,
    /// Its strokes (offsets across the arm's direction).
    strokes: &'a [(i32, i32)],
    /// Whether it goes both ways.
    both: bool,
    /// Whether its only arm is on the side of the arm's second stroke.
    toward_second: bool,
}

/// Where an arm stops (exclusive end for arms that come from the near edge): the arm's
/// strokes must reach the perpendicular line, and the right ones for double lines.
///
/// Returns, for stroke `i` of the arm, the place along the arm where it stops: the arm coming
/// from the low edge ends there, the arm from the high edge starts there.
fn stop(arm: Arm, i: usize, crossing: &Crossing<'_>, m: &Metrics) -> i32 {
    let Arm {
        w: arm,
        from_low,
        size,
    } = arm;
    let Crossing {
        w: perp_w,
        strokes: perp,
        both,
        toward_second,
    } = *crossing;
    if perp.is_empty() {
        // Nothing to meet: run to the centre (past it by the line's own half).
        let own = strokes(arm, size, m);
        let (o, t) = own.first().copied().unwrap_or((size / 2, 1));
        let (lo, hi) = match arm {
            W::Double => {
                let (o2, t2) = own.last().copied().unwrap_or((o, t));
                (o, o2 + t2)
            }
            _ => (o, o + t),
        };
        return if from_low { hi } else { lo };
    }
    // Near and far perpendicular strokes as seen from this arm's edge.
    let first = perp[0];
    let last = perp[perp.len() - 1];
    let (near, far) = if from_low {
        (first, last)
    } else {
        (last, first)
    };
    let reach = |s: (i32, i32)| if from_low { s.0 + s.1 } else { s.0 };
    if perp_w != W::Double {
        return reach(far);
    }
    if both {
        return reach(near);
    }
    match arm {
        W::Double => {
            // The stroke on the side the perpendicular line goes is the inner one.
            let inner = (i == 1) == toward_second;
            if inner {
                reach(near)
            } else {
                reach(far)
            }
        }
        _ => reach(far),
    }
}

fn lines(canvas: &mut Canvas, b: CellBox, a: Arms, fg: Rgb, m: &Metrics) {
    // Perpendicular structures.
    let vert_w = a.u.max(a.d);
    let horiz_w = a.l.max(a.r);
    let vcols = strokes(vert_w, b.w, m);
    let hrows = strokes(horiz_w, b.h, m);
    // For a horizontal arm the second stroke is the lower one; the vertical line's only arm
    // is "toward the second" when it goes down. For a vertical arm the second stroke is the
    // right one.
    let vertical = Crossing {
        w: vert_w,
        strokes: &vcols,
        both: a.u != W::None && a.d != W::None,
        toward_second: a.d != W::None,
    };
    let horizontal = Crossing {
        w: horiz_w,
        strokes: &hrows,
        both: a.l != W::None && a.r != W::None,
        toward_second: a.r != W::None,
    };
    // Horizontal arms: strokes are rows; the perpendicular is the vertical line's columns.
    for (arm, from_low) in [(a.l, true), (a.r, false)] {
        for (i, (oy, t)) in strokes(arm, b.h, m).into_iter().enumerate() {
            let s = stop(
                Arm {
                    w: arm,
                    from_low,
                    size: b.w,
                },
                i,
                &vertical,
                m,
            );
            let (x0, x1) = if from_low { (0, s) } else { (s, b.w) };
            canvas.fill_rect(b.x + x0, b.y + oy, x1 - x0, t, fg);
        }
    }
    for (arm, from_low) in [(a.u, true), (a.d, false)] {
        for (i, (ox, t)) in strokes(arm, b.w, m).into_iter().enumerate() {
            let s = stop(
                Arm {
                    w: arm,
                    from_low,
                    size: b.h,
                },
                i,
                &horizontal,
                m,
            );
            let (y0, y1) = if from_low { (0, s) } else { (s, b.h) };
            canvas.fill_rect(b.x + ox, b.y + y0, t, y1 - y0, fg);
        }
    }
}

/// The dashed lines: ┄┅┆┇┈┉┊┋ (3 and 4 dashes) and ╌╍╎╏ (2 dashes).
fn dashed(canvas: &mut Canvas, cp: u32, b: CellBox, fg: Rgb, m: &Metrics) -> bool {
    let (n, heavy, vertical) = match cp {
        0x2504 => (3, false, false),
        0x2505 => (3, true, false),
        0x2506 => (3, false, true),
        0x2507 => (3, true, true),
        0x2508 => (4, false, false),
        0x2509 => (4, true, false),
        0x250A => (4, false, true),
        0x250B => (4, true, true),
        0x254C => (2, false, false),
        0x254D => (2, true, false),
        0x254E => (2, false, true),
        0x254F => (2, true, true),
        _ => return false,
    };
    let w = if heavy { W::Heavy } else { W::Light };
    let (len, across) = if vertical { (b.h, b.w) } else { (b.w, b.h) };
    let (off, t) = strokes(w, across, m)[0];
    for k in 0..n {
        let start = k * len / n;
        let end = (k + 1) * len / n;
        let gap = ((end - start) / 3).max(1);
        // Dashes are centred in their slot so the pattern repeats evenly across cells.
        let (s, e) = (start + gap / 2, end - (gap - gap / 2));
        if vertical {
            canvas.fill_rect(b.x + off, b.y + s, t, e - s, fg);
        } else {
            canvas.fill_rect(b.x + s, b.y + off, e - s, t, fg);
        }
    }
    true
}

/// ╭╮╯╰: a quarter circle joining the centre lines, anti-aliased, meeting the straight light
/// lines of the neighbouring cells exactly.
fn arc(canvas: &mut Canvas, cp: u32, b: CellBox, fg: Rgb, m: &Metrics) {
    let (sx, sy) = match cp {
        0x256D => (1.0f32, 1.0f32), // ╭ right and down
        0x256E => (-1.0, 1.0),      // ╮ left and down
        0x256F => (-1.0, -1.0),     // ╯ left and up
        _ => (1.0, -1.0),           // ╰ right and up
    };
    let t = m.light as f32;
    let (ox, _) = strokes(W::Light, b.w, m)[0];
    let (oy, _) = strokes(W::Light, b.h, m)[0];
    // Centre lines, in cell coordinates.
    let cx = ox as f32 + t / 2.0;
    let cy = oy as f32 + t / 2.0;
    let to_edge_x = if sx > 0.0 { b.w as f32 - cx } else { cx };
    let to_edge_y = if sy > 0.0 { b.h as f32 - cy } else { cy };
    // One pixel short of the edge, so the last pixel before it is straight line and meets the
    // neighbouring cell's line exactly.
    let r = (to_edge_x.min(to_edge_y) - 1.0).max(1.0);
    let (ccx, ccy) = (cx + sx * r, cy + sy * r);
    let half = t / 2.0;
    let (bx, by) = (b.x as f32, b.y as f32);
    canvas.fill_sdf([b.x, b.y, b.w, b.h], fg, 255, |px, py| {
        let (px, py) = (px - bx, py - by);
        let mut d = f32::MAX;
        let along_h = (px - ccx) * sx >= 0.0;
        let along_v = (py - ccy) * sy >= 0.0;
        if along_h {
            d = d.min((py - cy).abs());
        }
        if along_v {
            d = d.min((px - cx).abs());
        }
        if !along_h && !along_v {
            let (dx, dy) = (px - ccx, py - ccy);
            d = d.min(((dx * dx + dy * dy).sqrt() - r).abs());
        }
        d - half
    });
}

/// ╱╲╳: lines from corner to corner.
fn diagonal(canvas: &mut Canvas, cp: u32, b: CellBox, fg: Rgb, m: &Metrics) {
    let half = m.light as f32 / 2.0 + 0.15;
    let (w, h) = (b.w as f32, b.h as f32);
    let len = (w * w + h * h).sqrt();
    let (bx, by) = (b.x as f32, b.y as f32);
    let rising = cp == 0x2571 || cp == 0x2573;
    let falling = cp == 0x2572 || cp == 0x2573;
    canvas.fill_sdf([b.x, b.y, b.w, b.h], fg, 255, |px, py| {
        let (px, py) = (px - bx, py - by);
        let mut d = f32::MAX;
        if falling {
            // Through (0, 0) and (w, h).
            d = d.min((h * px - w * py).abs() / len);
        }
        if rising {
            // Through (0, h) and (w, 0).
            d = d.min((h * px + w * py - w * h).abs() / len);
        }
        d - half
    });
}

/// Block elements: eighths, halves, quadrants and shades.
fn block(canvas: &mut Canvas, cp: u32, b: CellBox, fg: Rgb) {
    let (w, h) = (b.w, b.h);
    let eighth_h = |k: i32| (h * k + 4) / 8;
    let eighth_w = |k: i32| (w * k + 4) / 8;
    let mut rect = |x0: i32, y0: i32, x1: i32, y1: i32| {
        canvas.fill_rect(b.x + x0, b.y + y0, x1 - x0, y1 - y0, fg);
    };
    let (mx, my) = (w / 2, h / 2);
    match cp {
        0x2580 => rect(0, 0, w, my),
        0x2581..=0x2588 => {
            let k = (cp - 0x2580) as i32;
            rect(0, h - eighth_h(k), w, h);
        }
        0x2589..=0x258F => {
            let k = (0x2590 - cp) as i32;
            rect(0, 0, eighth_w(k), h);
        }
        0x2590 => rect(mx, 0, w, h),
        0x2591..=0x2593 => {
            let alpha = [64u8, 128, 191][(cp - 0x2591) as usize];
            canvas.blend_rect(b.x, b.y, w, h, fg, alpha);
        }
        0x2594 => rect(0, 0, w, eighth_h(1)),
        0x2595 => rect(w - eighth_w(1), 0, w, h),
        _ => {
            // Quadrants: upper left, upper right, lower left, lower right.
            let q = match cp {
                0x2596 => [false, false, true, false],
                0x2597 => [false, false, false, true],
                0x2598 => [true, false, false, false],
                0x2599 => [true, false, true, true],
                0x259A => [true, false, false, true],
                0x259B => [true, true, true, false],
                0x259C => [true, true, false, true],
                0x259D => [false, true, false, false],
                0x259E => [false, true, true, false],
                _ => [false, true, true, true],
            };
            if q[0] {
                rect(0, 0, mx, my);
            }
            if q[1] {
                rect(mx, 0, w, my);
            }
            if q[2] {
                rect(0, my, mx, h);
            }
            if q[3] {
                rect(mx, my, w, h);
            }
        }
    }
}

/// Braille patterns: up to eight round dots in two columns of four.
fn braille(canvas: &mut Canvas, cp: u32, b: CellBox, fg: Rgb) {
    let bits = cp - 0x2800;
    // Bit order of the Unicode braille block: dots 1-2-3 down the left column, 4-5-6 down the
    // right, then 7 (left) and 8 (right) at the bottom.
    const DOTS: [(i32, i32); 8] = [
        (0, 0),
        (0, 1),
        (0, 2),
        (1, 0),
        (1, 1),
        (1, 2),
        (0, 3),
        (1, 3),
    ];
    let (w, h) = (b.w as f32, b.h as f32);
    let r = (w / 4.0).min(h / 8.0) * 0.72;
    for (i, (col, row)) in DOTS.iter().enumerate() {
        if bits & (1 << i) == 0 {
            continue;
        }
        let cx = b.x as f32 + (2 * col + 1) as f32 * w / 4.0;
        let cy = b.y as f32 + (2 * row + 1) as f32 * h / 8.0;
        canvas.fill_sdf(
            [
                (cx - r - 1.0) as i32,
                (cy - r - 1.0) as i32,
                (2.0 * r + 3.0) as i32,
                (2.0 * r + 3.0) as i32,
            ],
            fg,
            255,
            |px, py| {
                let (dx, dy) = (px - cx, py - cy);
                (dx * dx + dy * dy).sqrt() - r
            },
        );
    }
}

/// Powerline separators: solid triangles  and outline chevrons .
fn powerline(canvas: &mut Canvas, cp: u32, b: CellBox, fg: Rgb, m: &Metrics) {
    let (w, h) = (b.w as f32, b.h as f32);
    let (bx, by) = (b.x as f32, b.y as f32);
    let pointing_right = cp == 0xE0B0 || cp == 0xE0B1;
    let solid = cp == 0xE0B0 || cp == 0xE0B2;
    let len = (w * w + h * h / 4.0).sqrt();
    let half = m.light as f32 / 2.0;
    canvas.fill_sdf([b.x, b.y, b.w, b.h], fg, 255, |px, py| {
        let (mut px, py) = (px - bx, py - by);
        if !pointing_right {
            px = w - px;
        }
        if solid {
            // Signed distances to the upper edge (0,0)→(w,h/2) and the lower edge
            // (0,h)→(w,h/2), positive outside the triangle.
            let upper = (h / 2.0 * px - w * py) / len;
            let lower = (h / 2.0 * px + w * py - w * h) / len;
            upper.max(lower).max(-px)
        } else {
            let tip = (w - half, h / 2.0);
            segment_distance((px, py), (0.0, 0.0), tip).min(segment_distance(
                (px, py),
                (0.0, h),
                tip,
            )) - half
        }
    });
}

/// Distance from `p` to the segment `a`–`b`.
fn segment_distance(p: (f32, f32), a: (f32, f32), b: (f32, f32)) -> f32 {
    let (abx, aby) = (b.0 - a.0, b.1 - a.1);
    let (apx, apy) = (p.0 - a.0, p.1 - a.1);
    let len2 = abx * abx + aby * aby;
    let t = if len2 > 0.0 {
        ((apx * abx + apy * aby) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let (dx, dy) = (apx - t * abx, apy - t * aby);
    (dx * dx + dy * dy).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn metrics() -> Metrics {
        Metrics {
            cell_width: 10,
            cell_height: 20,
            baseline: 15,
            underline_y: 17,
            underline_thickness: 1,
            strike_y: 10,
            light: 2,
            heavy: 4,
        }
    }

    fn render(c: char) -> Canvas {
        let mut canvas = Canvas::new(10, 20, Rgb(0, 0, 0), 255);
        let b = CellBox {
            x: 0,
            y: 0,
            w: 10,
            h: 20,
        };
        assert!(draw(&mut canvas, c, b, Rgb(255, 255, 255), &metrics()));
        canvas
    }

    fn lit(c: &Canvas, x: u32, y: u32) -> bool {
        c.get(x, y)[0] > 128
    }

    #[test]
    fn every_character_of_the_ranges_draws() {
        for cp in (0x2500..=0x259F)
            .chain(0x2800..=0x28FF)
            .chain(0xE0B0..=0xE0B3)
        {
            let c = char::from_u32(cp).unwrap();
            // (`render` asserts that `draw` takes the character.)
            let canvas = render(c);
            if cp != 0x2800 {
                assert!(
                    canvas.px.chunks(4).any(|p| p[0] > 0),
                    "U+{cp:04X} drew nothing"
                );
            }
        }
        let mut canvas = Canvas::new(10, 20, Rgb(0, 0, 0), 255);
        let b = CellBox {
            x: 0,
            y: 0,
            w: 10,
            h: 20,
        };
        assert!(!draw(&mut canvas, 'a', b, Rgb(255, 255, 255), &metrics()));
        assert!(
            canvas.px.chunks(4).all(|p| p[0] == 0),
            "nothing drawn for 'a'"
        );
    }

    #[test]
    fn lines_reach_the_edges_they_point_to() {
        let c = render('┼');
        assert!(lit(&c, 0, 9) && lit(&c, 9, 9) && lit(&c, 4, 0) && lit(&c, 4, 19));
        let c = render('┌');
        assert!(!lit(&c, 0, 9) && lit(&c, 9, 9) && !lit(&c, 4, 0) && lit(&c, 4, 19));
        // ═: two lines, a gap between them.
        let c = render('═');
        let column: Vec<bool> = (0..20).map(|y| lit(&c, 5, y)).collect();
        let runs = column.windows(2).filter(|w| w[0] != w[1]).count();
        assert_eq!(runs, 4, "two separate strokes: {column:?}");
        // ╔: the outer line turns at the outer corner, the inner at the inner one.
        let c = render('╔');
        assert!(lit(&c, 9, 8) && lit(&c, 9, 12) && lit(&c, 3, 19) && lit(&c, 7, 19));
        assert!(!lit(&c, 0, 8) && !lit(&c, 3, 0));
        // The arc meets the edges where the straight lines are.
        let arc = render('╭');
        let line = render('─');
        assert_eq!(arc.get(9, 9), line.get(9, 9));
        assert_eq!(arc.get(9, 8), line.get(9, 8));
    }

    #[test]
    fn blocks_fill_their_fractions() {
        let c = render('▄');
        assert!(!lit(&c, 5, 9) && lit(&c, 5, 10));
        let c = render('█');
        assert!(c.px.chunks(4).all(|p| p[0] == 255));
        let c = render('▌');
        assert!(lit(&c, 4, 5) && !lit(&c, 5, 5));
        let c = render('▒');
        assert_eq!(c.get(3, 3)[0], 128);
    }
}
