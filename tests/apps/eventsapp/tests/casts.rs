//! One test per checkpoint of every cast in `casts/`, compared with `snapshots/`. The casts'
//! scenarios use `bin = "eventsapp"`, so `cargo test -p eventsapp` records them live first.

fn main() {
    tuicast::harness::main()
}
