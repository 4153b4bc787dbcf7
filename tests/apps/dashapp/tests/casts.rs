//! One test per checkpoint of every cast in `casts/`, compared with `snapshots/`.
//! `TUICAST_LIVE=1 cargo test -p dashapp` records the casts again from their scenarios first.

fn main() {
    tuicast::harness::main()
}
