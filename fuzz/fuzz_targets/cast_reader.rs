//! Any bytes given to the cast reader yield events or a positioned error, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(reader) = tuicast::cast::CastReader::new(data) {
        for event in reader {
            if let Err(e) = event {
                assert!(e.line >= 1);
                break;
            }
        }
    }
});
