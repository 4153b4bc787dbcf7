//! The pixel canvas and the few drawing operations the renderer needs: rectangles, coverage
//! masks, and anti-aliased shapes given by a distance function.
//!
//! Everything is integer arithmetic or IEEE-exact float operations (+, −, ×, ÷, sqrt), so the
//! same input gives the same pixels on every machine.

use image::RgbaImage;

use crate::rgb::Rgb;

/// An RGBA canvas (straight alpha). The terminal area is always opaque; only the margin
/// around a window frame uses transparency.
#[derive(Debug, Clone)]
pub(crate) struct Canvas {
    pub(crate) width: u32,
    pub(crate) height: u32,
    pub(crate) px: Vec<u8>,
}

/// `x / 255`, rounded, for `x` up to 255 × 255.
#[inline]
pub(crate) fn div255(x: u32) -> u32 {
    let x = x + 128;
    (x + (x >> 8)) >> 8
}

impl Canvas {
    /// A canvas filled with one colour and alpha.
    pub(crate) fn new(width: u32, height: u32, fill: Rgb, alpha: u8) -> Canvas {
        let px = [fill.0, fill.1, fill.2, alpha].repeat(width as usize * height as usize);
        Canvas { width, height, px }
    }

    pub(crate) fn into_image(self) -> RgbaImage {
        RgbaImage::from_raw(self.width, self.height, self.px)
            .unwrap_or_else(|| RgbaImage::new(1, 1))
    }

    pub(crate) fn from_image(image: &RgbaImage) -> Canvas {
        Canvas {
            width: image.width(),
            height: image.height(),
            px: image.as_raw().clone(),
        }
    }

    /// Clips a rectangle to the canvas: `(x0, y0, x1, y1)` with exclusive ends, or `None`.
    fn clip(&self, x: i32, y: i32, w: i32, h: i32) -> Option<(usize, usize, usize, usize)> {
        let x0 = x.max(0);
        let y0 = y.max(0);
        let x1 = x.saturating_add(w).min(self.width as i32);
        let y1 = y.saturating_add(h).min(self.height as i32);
        if x0 >= x1 || y0 >= y1 {
            return None;
        }
        Some((x0 as usize, y0 as usize, x1 as usize, y1 as usize))
    }

    /// Fills a rectangle with an opaque colour.
    pub(crate) fn fill_rect(&mut self, x: i32, y: i32, w: i32, h: i32, c: Rgb) {
        let Some((x0, y0, x1, y1)) = self.clip(x, y, w, h) else {
            return;
        };
        let stride = self.width as usize * 4;
        let pixel = [c.0, c.1, c.2, 255];
        for row in y0..y1 {
            let line = &mut self.px[row * stride + x0 * 4..row * stride + x1 * 4];
            for p in line.chunks_exact_mut(4) {
                p.copy_from_slice(&pixel);
            }
        }
    }

    /// Draws `c` over the pixel at (x, y) with coverage `a` (0–255).
    #[inline]
    pub(crate) fn blend(&mut self, x: i32, y: i32, c: Rgb, a: u8) {
        if a == 0 || x < 0 || y < 0 || x >= self.width as i32 || y >= self.height as i32 {
            return;
        }
        let i = (y as usize * self.width as usize + x as usize) * 4;
        blend_at(&mut self.px[i..i + 4], c, a);
    }

    /// Draws `c` with coverage `a` over a rectangle.
    pub(crate) fn blend_rect(&mut self, x: i32, y: i32, w: i32, h: i32, c: Rgb, a: u8) {
        if a == 255 {
            return self.fill_rect(x, y, w, h, c);
        }
        let Some((x0, y0, x1, y1)) = self.clip(x, y, w, h) else {
            return;
        };
        let stride = self.width as usize * 4;
        for row in y0..y1 {
            for p in self.px[row * stride + x0 * 4..row * stride + x1 * 4].chunks_exact_mut(4) {
                blend_at(p, c, a);
            }
        }
    }

    /// Draws a coverage mask (`w`×`h` bytes) in colour `c` with its top-left at (x, y).
    pub(crate) fn draw_mask(&mut self, x: i32, y: i32, w: u32, h: u32, mask: &[u8], c: Rgb) {
        self.blit(x, y, w, h, |i| (c, mask[i]));
    }

    /// Draws an RGBA image (straight alpha) with its top-left at (x, y).
    pub(crate) fn draw_rgba(&mut self, x: i32, y: i32, w: u32, h: u32, rgba: &[u8]) {
        self.blit(x, y, w, h, |i| {
            let s = &rgba[i * 4..i * 4 + 4];
            (Rgb(s[0], s[1], s[2]), s[3])
        });
    }

    /// Blends a `w`×`h` source with its top-left at (x, y), clipped to the canvas; `source`
    /// gives the colour and alpha of the source pixel at index `row * w + col`.
    fn blit(&mut self, x: i32, y: i32, w: u32, h: u32, source: impl Fn(usize) -> (Rgb, u8)) {
        let Some((x0, y0, x1, y1)) = self.clip(x, y, w as i32, h as i32) else {
            return;
        };
        let stride = self.width as usize * 4;
        for row in y0..y1 {
            let sy = (row as i32 - y) as usize;
            for col in x0..x1 {
                let sx = (col as i32 - x) as usize;
                let (c, a) = source(sy * w as usize + sx);
                if a != 0 {
                    let i = row * stride + col * 4;
                    blend_at(&mut self.px[i..i + 4], c, a);
                }
            }
        }
    }

    /// Draws another canvas onto this one at (x, y), each pixel multiplied by `mask`'s
    /// coverage for it (`None`: fully covered).
    pub(crate) fn draw_canvas(
        &mut self,
        src: &Canvas,
        x: i32,
        y: i32,
        mask: Option<&dyn Fn(u32, u32) -> u8>,
    ) {
        let w = src.width.max(1) as usize;
        self.blit(x, y, src.width, src.height, |i| {
            let p = &src.px[i * 4..i * 4 + 4];
            let m = mask.map_or(255, |f| f((i % w) as u32, (i / w) as u32));
            (Rgb(p[0], p[1], p[2]), div255(p[3] as u32 * m as u32) as u8)
        });
    }

    /// Fills the shape whose signed distance (in pixels, negative inside) at a pixel centre is
    /// `sdf(x + 0.5, y + 0.5)`, within `area` (x, y, w, h), anti-aliased over one pixel, with
    /// overall opacity `alpha`.
    pub(crate) fn fill_sdf(
        &mut self,
        area: [i32; 4],
        c: Rgb,
        alpha: u8,
        sdf: impl Fn(f32, f32) -> f32,
    ) {
        let Some((x0, y0, x1, y1)) = self.clip(area[0], area[1], area[2], area[3]) else {
            return;
        };
        for y in y0..y1 {
            for x in x0..x1 {
                let d = sdf(x as f32 + 0.5, y as f32 + 0.5);
                let cov = (0.5 - d).clamp(0.0, 1.0);
                if cov > 0.0 {
                    let a = (cov * alpha as f32 + 0.5) as u32;
                    self.blend(x as i32, y as i32, c, a.min(255) as u8);
                }
            }
        }
    }

    /// The RGBA value of a pixel.
    pub(crate) fn get(&self, x: u32, y: u32) -> [u8; 4] {
        let i = (y as usize * self.width as usize + x as usize) * 4;
        [self.px[i], self.px[i + 1], self.px[i + 2], self.px[i + 3]]
    }

    /// Outlines a rectangle with lines `t` pixels wide, drawn inside the rectangle.
    pub(crate) fn stroke_rect(&mut self, x: i32, y: i32, w: i32, h: i32, t: i32, c: Rgb) {
        self.fill_rect(x, y, w, t, c);
        self.fill_rect(x, y + h - t, w, t, c);
        self.fill_rect(x, y + t, t, h - 2 * t, c);
        self.fill_rect(x + w - t, y + t, t, h - 2 * t, c);
    }
}

/// Porter–Duff "over" of colour `c` with alpha `a` onto one straight-alpha pixel.
#[inline]
fn blend_at(p: &mut [u8], c: Rgb, a: u8) {
    let a = a as u32;
    let da = p[3] as u32;
    if da == 255 || a == 255 {
        let inv = 255 - a;
        p[0] = div255(c.0 as u32 * a + p[0] as u32 * inv) as u8;
        p[1] = div255(c.1 as u32 * a + p[1] as u32 * inv) as u8;
        p[2] = div255(c.2 as u32 * a + p[2] as u32 * inv) as u8;
        p[3] = if a == 255 { 255 } else { da as u8 };
        return;
    }
    // Both partly transparent (the shadow around a window frame).
    let out_a = a * 255 + da * (255 - a); // × 255
    if out_a == 0 {
        return;
    }
    let mix = |s: u8, d: u8| -> u8 {
        ((s as u32 * a * 255 + d as u32 * da * (255 - a) + out_a / 2) / out_a) as u8
    };
    p[0] = mix(c.0, p[0]);
    p[1] = mix(c.1, p[1]);
    p[2] = mix(c.2, p[2]);
    p[3] = ((out_a + 127) / 255) as u8;
}

/// Signed distance from (px, py) to a rounded rectangle (x, y, w, h, corner radius r);
/// negative inside.
pub(crate) fn rounded_rect_sdf(px: f32, py: f32, x: f32, y: f32, w: f32, h: f32, r: f32) -> f32 {
    let hx = w / 2.0;
    let hy = h / 2.0;
    let qx = (px - (x + hx)).abs() - (hx - r);
    let qy = (py - (y + hy)).abs() - (hy - r);
    let ox = qx.max(0.0);
    let oy = qy.max(0.0);
    (ox * ox + oy * oy).sqrt() + qx.max(qy).min(0.0) - r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blending_is_exact_at_the_ends_and_rounds_in_between() {
        let mut c = Canvas::new(2, 1, Rgb(0, 0, 0), 255);
        c.blend(0, 0, Rgb(255, 255, 255), 255);
        c.blend(1, 0, Rgb(255, 255, 255), 128);
        assert_eq!(c.get(0, 0), [255, 255, 255, 255]);
        assert_eq!(c.get(1, 0), [128, 128, 128, 255]);
        c.blend(5, 5, Rgb(1, 2, 3), 255); // outside: ignored
        let mut t = Canvas::new(1, 1, Rgb(0, 0, 0), 0);
        t.blend(0, 0, Rgb(200, 100, 0), 100);
        assert_eq!(t.get(0, 0), [200, 100, 0, 100]);
        assert_eq!(div255(255 * 255), 255);
        assert_eq!(div255(0), 0);
    }

    #[test]
    fn rects_clip_to_the_canvas() {
        let mut c = Canvas::new(4, 4, Rgb(0, 0, 0), 255);
        c.fill_rect(-2, -2, 4, 4, Rgb(9, 9, 9));
        assert_eq!(c.get(1, 1), [9, 9, 9, 255]);
        assert_eq!(c.get(2, 2), [0, 0, 0, 255]);
        c.fill_rect(3, 3, i32::MAX, i32::MAX, Rgb(1, 1, 1));
        assert_eq!(c.get(3, 3), [1, 1, 1, 255]);
        assert!(rounded_rect_sdf(5.0, 5.0, 0.0, 0.0, 10.0, 10.0, 2.0) < 0.0);
        assert!(rounded_rect_sdf(0.2, 0.2, 0.0, 0.0, 10.0, 10.0, 3.0) > 0.0);
    }
}
