//! The `ccm-render` binary: parse the command line, run, map the result to an exit status.
use std::process::ExitCode;

// The musl build's allocator (Cargo.toml says why); other builds keep the system allocator.
#[cfg(target_env = "musl")]
#[global_allocator]
static ALLOCATOR: dlmalloc::GlobalDlmalloc = dlmalloc::GlobalDlmalloc;

// Linked for the C functions it defines in place of musl's (crates/memfns says why).
#[cfg(target_env = "musl")]
use ccm_memfns as _;

fn main() -> ExitCode {
    // clap prints usage errors itself and exits 2, as the CLI contract asks.
    let cli = ccm_render::commands::cli::Cli::from_env();
    match ccm_render::commands::run(cli) {
        Ok(status) => status.into(),
        Err(err) => {
            eprint!("{}", ccm_render::commands::error_report(&err));
            ExitCode::from(2)
        }
    }
}
