//! The `ccm-render` binary: parse the command line, run, map the result to an exit status.
use std::process::ExitCode;

// The musl builds' allocator, and the crate that also links memcpy and its kin on x86_64 in
// place of musl's (crates/memfns says why); other builds keep the C library's.
#[cfg(target_env = "musl")]
#[global_allocator]
static ALLOCATOR: ccm_memfns::Allocator = ccm_memfns::Allocator::new();

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
