//! The `tuicast` command line: clap definitions in `cli/mod.rs`, one file per subcommand, over
//! the `tuicast` library. The only place `anyhow` is used.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
