//! Comparing two renders pixel by pixel, and the diff image that shows where they differ.

use image::RgbaImage;

use super::raster::Canvas;
use super::renderer::Layout;
use crate::rgb::Rgb;

/// How two renders differ.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct PixelDiff {
    /// Set when the sizes differ: (expected width, height), (actual width, height).
    pub size: Option<((u32, u32), (u32, u32))>,
    /// Pixels where some channel differs by more than the tolerance.
    pub pixels: u64,
    /// The largest difference of one channel anywhere.
    pub max_delta: u8,
    /// The cells (row, col) holding differing pixels, in order.
    pub cells: Vec<(u16, u16)>,
}

impl PixelDiff {
    /// True when the images are the same size and at most `max_pixels` pixels differ.
    pub fn passes(&self, max_pixels: u64) -> bool {
        self.size.is_none() && self.pixels <= max_pixels
    }
}

/// Compares `actual` with `expected`: a pixel differs when one of its channels differs by more
/// than `tolerance`. `layout` maps pixels to cells.
pub fn compare(
    expected: &RgbaImage,
    actual: &RgbaImage,
    tolerance: u8,
    layout: &Layout,
) -> PixelDiff {
    if expected.dimensions() != actual.dimensions() {
        return PixelDiff {
            size: Some((expected.dimensions(), actual.dimensions())),
            ..PixelDiff::default()
        };
    }
    let width = actual.width() as usize;
    let mut diff = PixelDiff::default();
    let mut cells = std::collections::BTreeSet::new();
    for (i, (e, a)) in expected
        .as_raw()
        .chunks_exact(4)
        .zip(actual.as_raw().chunks_exact(4))
        .enumerate()
    {
        if e == a {
            continue;
        }
        let delta = e
            .iter()
            .zip(a)
            .map(|(x, y)| x.abs_diff(*y))
            .max()
            .unwrap_or(0);
        diff.max_delta = diff.max_delta.max(delta);
        if delta > tolerance {
            diff.pixels += 1;
            let (x, y) = ((i % width) as u32, (i / width) as u32);
            cells.insert(layout.cell_at(x, y));
        }
    }
    diff.cells = cells.into_iter().collect();
    diff
}

/// The actual render with every changed cell outlined (runs of changed cells in a row share
/// one outline); with a size mismatch, the whole image outlined.
pub fn diff_image(actual: &RgbaImage, diff: &PixelDiff, layout: &Layout) -> RgbaImage {
    let mut canvas = Canvas::from_image(actual);
    let color = Rgb(0xff, 0x00, 0xff);
    let t = 2;
    if diff.size.is_some() {
        canvas.stroke_rect(0, 0, canvas.width as i32, canvas.height as i32, t, color);
        return canvas.into_image();
    }
    let mut i = 0;
    while i < diff.cells.len() {
        let (row, start) = diff.cells[i];
        let mut end = start;
        while i + 1 < diff.cells.len() && diff.cells[i + 1] == (row, end + 1) {
            end += 1;
            i += 1;
        }
        let (x, y, cw, ch) = layout.cell_rect(row, start);
        let w = (end - start + 1) as u32 * cw;
        // Just outside the cells, so what changed stays visible.
        canvas.stroke_rect(
            x as i32 - t,
            y as i32 - t,
            (w as i32) + 2 * t,
            ch as i32 + 2 * t,
            t,
            color,
        );
        i += 1;
    }
    canvas.into_image()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout() -> Layout {
        Layout {
            cell_width: 2,
            cell_height: 2,
            padding: 1,
            cols: 3,
            rows: 2,
            width: 8,
            height: 6,
        }
    }

    #[test]
    fn differences_beyond_the_tolerance_are_counted_by_cell() {
        let a = RgbaImage::from_pixel(8, 6, image::Rgba([10, 10, 10, 255]));
        let mut b = a.clone();
        b.put_pixel(3, 1, image::Rgba([13, 10, 10, 255]));
        b.put_pixel(6, 4, image::Rgba([40, 10, 10, 255]));
        let d = compare(&a, &b, 0, &layout());
        assert_eq!((d.pixels, d.max_delta), (2, 30));
        assert_eq!(d.cells, vec![(0, 1), (1, 2)]);
        assert!(!d.passes(1) && d.passes(2));
        let d = compare(&a, &b, 3, &layout());
        assert_eq!(d.pixels, 1);
        assert!(compare(&a, &a, 0, &layout()).passes(0));
        let small = RgbaImage::new(2, 2);
        assert!(!compare(&a, &small, 255, &layout()).passes(u64::MAX));
        let img = diff_image(&b, &d, &layout());
        assert_eq!(img.dimensions(), (8, 6));
    }
}
