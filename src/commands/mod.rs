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

use crate::commands::cli::{Cli, Command, ProviderCommand};
use anyhow::Result;

/// Runs a parsed command line. Meant for the binary, once per process: a render leaves what it
/// built to the operating system instead of freeing it (see [`left_for_exit`]).
pub fn run(cli: Cli) -> Result<ExitStatus> {
    crate::commands::capabilities::raise_file_capability();
    match cli.command {
        Command::Render(args) if args.hosted_control_plane.is_some() => hosted::run(&args),
        // clap lets a requirement pass when its target conflicts with a flag given.
        Command::Render(args) if !args.operator_env.is_empty() => Err(anyhow::anyhow!(
            "--operator-env: only with --hosted-control-plane (the control-plane-operator's environment)"
        )),
        Command::Render(args) => render::run(&args),
        Command::Platforms(args) => platforms::run(&args),
        Command::Matrix(args) => crate::commands::matrix::run(&args),
        Command::CompareHosted { platform } => matrix::compare::run(&platform),
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

/// What `main` prints for an error: `error: <message>`, then `  caused by: <message>` for each
/// cause. Messages quote what they take from the input, but as a last guard any control
/// character left (a line break that would forge an `error:` line, a terminal escape) is
/// printed escaped, so every message stays on its line.
pub fn error_report(err: &anyhow::Error) -> String {
    use std::fmt::Write as _;
    let escape = |message: String| {
        if message.chars().any(char::is_control) {
            message.escape_default().to_string()
        } else {
            message
        }
    };
    let mut report = String::new();
    let _ = writeln!(report, "error: {}", escape(err.to_string()));
    for cause in err.chain().skip(1) {
        let _ = writeln!(report, "  caused by: {}", escape(cause.to_string()));
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_report_is_one_line_per_message() {
        let err = anyhow::anyhow!("in.yaml: bad \"x\"\nerror: forged\u{1b}[2J").context("reading");
        assert_eq!(
            error_report(&err),
            "error: reading\n  caused by: in.yaml: bad \\\"x\\\"\\nerror: forged\\u{1b}[2J\n"
        );
    }
}
