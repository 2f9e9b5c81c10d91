//! What each subcommand does: glue between the command line, the pure render and the output,
//! one file per subcommand ([`render`](mod@render), [`matrix`], [`platforms`], [`placements`],
//! [`releases`], [`provider`]); [`pipeline`] holds the steps that every rendering command shares.

mod capabilities;
pub mod cli;
mod exit;
mod hosted;
mod matrix;
mod pipeline;
mod placements;
mod platforms;
mod provider;
mod provider_import;
mod releases;
mod render;
pub(crate) mod scaffold;
mod term;

pub use exit::ExitStatus;
pub use pipeline::{render_config, render_in_memory};

use crate::commands::cli::{Cli, Command, ProviderCommand, RenderMode};
use anyhow::Result;

/// Runs a parsed command line. Meant for the binary, once per process: a render leaves what it
/// built to the operating system instead of freeing it (see [`left_for_exit`]).
pub fn run(cli: Cli) -> Result<ExitStatus> {
    crate::commands::capabilities::raise_file_capability();
    match cli.command {
        Command::Render(args) => match args.mode() {
            RenderMode::Standalone => render::run(&args),
            RenderMode::HostedControlPlane(_) => hosted::run(&args),
            RenderMode::HostedCluster(_) => hosted::run_cluster(&args),
        },
        Command::Platforms(args) => platforms::run(&args),
        Command::Matrix(args) => crate::commands::matrix::run(&args),
        Command::CompareHosted(args) => matrix::compare::run(&args),
        Command::Placements(args) => placements::run(&args),
        Command::Releases(args) => releases::run(&args),
        Command::Provider(ProviderCommand::New { name, dir }) => provider::new(&name, &dir),
        Command::Provider(ProviderCommand::Check { dir }) => provider::check(&dir),
        Command::Provider(ProviderCommand::Import {
            cccmo_dir,
            release,
            assets,
            branch,
            commit,
            date,
        }) => provider_import::run(
            &cccmo_dir,
            &release,
            &assets,
            &provider_import::Told {
                branch,
                commit,
                date,
            },
        ),
        Command::Completions { shell } => {
            let mut script = Vec::new();
            crate::commands::cli::write_completions(shell, &mut script);
            term::print_stdout(&script)?;
            Ok(ExitStatus::Success)
        }
    }
}

/// What `main` prints for an error: one line, `error: ` and then the whole chain joined with
/// ": " (anyhow's `{:#}`), outermost first. Each layer adds what it knows (the file or flag, then
/// the field) as context around the cause, so the line names the file or flag and says what is
/// wrong with it; a cause is never left to a second line. Messages quote what they take from the
/// input, but as a last guard any control character left (a line break that would forge an
/// `error:` line, a terminal escape) is printed escaped, so the report stays one line.
pub fn error_report(err: &anyhow::Error) -> String {
    let message = format!("{err:#}");
    if message.chars().any(char::is_control) {
        format!("error: {}\n", message.escape_default())
    } else {
        format!("error: {message}\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_report_is_one_line_with_the_chain_and_control_characters_escaped() {
        let err = anyhow::anyhow!("bad \"x\"\nerror: forged\u{1b}[2J").context("in.yaml");
        assert_eq!(
            error_report(&err),
            "error: in.yaml: bad \\\"x\\\"\\nerror: forged\\u{1b}[2J\n"
        );
        let err = anyhow::anyhow!("not a CIDR")
            .context("spec.x")
            .context("in.yaml");
        assert_eq!(error_report(&err), "error: in.yaml: spec.x: not a CIDR\n");
    }
}
