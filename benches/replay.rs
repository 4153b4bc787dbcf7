//! Replay benchmarks (being written; see docs/performance.md).

fn main() {}
