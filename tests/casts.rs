//! The bundled example suite, checked by tuicast's own harness: one test per checkpoint of
//! every cast in `casts/`, compared with `snapshots/`.

fn main() {
    tuicast::harness::main()
}
