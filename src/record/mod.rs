//! Recording: the scenario file format (and, later, PTY sessions that run it).

pub mod scenario;
