//! A streaming UTF-8 decoder: a character split across two reads of the PTY survives.

/// Decodes bytes that arrive in arbitrary chunks. Invalid bytes become U+FFFD; an incomplete
/// character at the end of a chunk waits for the next one.
#[derive(Debug, Default)]
pub(crate) struct Utf8Decoder {
    pending: Vec<u8>,
}

impl Utf8Decoder {
    /// A decoder with nothing pending.
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// Decodes `bytes`, keeping an incomplete trailing character for later.
    pub(crate) fn decode(&mut self, bytes: &[u8]) -> String {
        let mut buf = std::mem::take(&mut self.pending);
        buf.extend_from_slice(bytes);
        let mut out = String::with_capacity(buf.len());
        let mut rest: &[u8] = &buf;
        loop {
            match std::str::from_utf8(rest) {
                Ok(s) => {
                    out.push_str(s);
                    break;
                }
                Err(e) => {
                    let (valid, after) = rest.split_at(e.valid_up_to());
                    out.push_str(std::str::from_utf8(valid).unwrap_or_default());
                    match e.error_len() {
                        Some(n) => {
                            out.push('\u{fffd}');
                            rest = &after[n..];
                        }
                        None => {
                            // An incomplete character at the end: wait for more bytes.
                            self.pending = after.to_vec();
                            break;
                        }
                    }
                }
            }
        }
        out
    }

    /// Whatever is still pending, as replacement characters (at end of stream).
    pub(crate) fn finish(&mut self) -> String {
        if self.pending.is_empty() {
            String::new()
        } else {
            self.pending.clear();
            "\u{fffd}".to_string()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Utf8Decoder;

    #[test]
    fn characters_split_across_chunks_survive() {
        let text = "a日本é😀z";
        let bytes = text.as_bytes();
        for split in 0..=bytes.len() {
            let mut d = Utf8Decoder::new();
            let mut out = d.decode(&bytes[..split]);
            out.push_str(&d.decode(&bytes[split..]));
            out.push_str(&d.finish());
            assert_eq!(out, text, "split at {split}");
        }
        let mut d = Utf8Decoder::new();
        let out: String = bytes.iter().map(|b| d.decode(&[*b])).collect();
        assert_eq!(out, text, "one byte at a time");
    }

    #[test]
    fn invalid_bytes_become_replacement_characters() {
        let mut d = Utf8Decoder::new();
        assert_eq!(d.decode(b"a\xffb\xc3"), "a\u{fffd}b");
        assert_eq!(d.finish(), "\u{fffd}");
    }
}
