//! The `tuicast` binary: a shim into [`tuicast::cli`].

fn main() -> std::process::ExitCode {
    tuicast::cli::main()
}
