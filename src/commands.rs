//! What each subcommand does: glue between the command line, the pure render and the output.

use crate::cli::{Cli, Command, RenderArgs};
use crate::config::{ClusterConfig, InputFiles};
use crate::providers::{Catalogue, Selection};
use crate::render::Rendered;
use anyhow::Result;

/// How a command ended, when it did not fail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitStatus {
    /// Success (0).
    Success,
    /// `--check`/`--diff` found something that would change (1).
    Drift,
}

impl From<ExitStatus> for std::process::ExitCode {
    fn from(status: ExitStatus) -> Self {
        match status {
            ExitStatus::Success => Self::SUCCESS,
            ExitStatus::Drift => Self::from(1),
        }
    }
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<ExitStatus> {
    match cli.command {
        Command::Render(args) => render(&args),
        Command::Platforms => platforms(),
        Command::Completions { shell } => {
            let mut script = Vec::new();
            crate::cli::write_completions(shell, &mut script);
            print_stdout(&script)?;
            Ok(ExitStatus::Success)
        }
    }
}

/// Reads the inputs and renders them in memory, with no output I/O.
pub fn render_in_memory(files: &InputFiles, catalogue: &Catalogue) -> Result<Rendered> {
    let cfg = ClusterConfig::load(files)?;
    match catalogue.select(
        &cfg.infrastructure.platform,
        &cfg.infrastructure.azure_cloud_name,
    ) {
        Selection::Provider(provider) => crate::render::render(&cfg, provider, &catalogue.common),
        Selection::NoCcm(reason) => Ok(Rendered {
            warnings: vec![format!("{reason}; rendering nothing")],
            ..Rendered::default()
        }),
    }
}

fn render(args: &RenderArgs) -> Result<ExitStatus> {
    crate::output::check_dest(&args.dest_dir)?;
    let files = InputFiles {
        infrastructure: args.infrastructure.clone(),
        images: args.images.clone(),
        cloud_config: args.cloud_config.clone(),
        proxy: args.proxy.clone(),
        network: args.network.clone(),
        feature_gate: args.feature_gate.clone(),
        apiserver: args.apiserver.clone(),
        namespace: args.namespace.clone(),
    };
    let catalogue = Catalogue::builtin()?;
    let rendered = render_in_memory(&files, &catalogue)?;
    let tree = crate::output::tree(&rendered)?;
    let report = crate::output::write(&tree, &args.dest_dir)?;
    for warning in &rendered.warnings {
        eprintln!("warning: {warning}");
    }
    eprintln!(
        "ccm-render: {} files in {} ({} written, {} unchanged)",
        tree.files.len(),
        args.dest_dir,
        report.written.len(),
        report.unchanged.len()
    );
    Ok(ExitStatus::Success)
}

/// Writes to stdout; a closed pipe (`ccm-render platforms | head`) is not an error.
fn print_stdout(bytes: &[u8]) -> Result<()> {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Err(err) if err.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(anyhow::anyhow!("writing to stdout: {err}"))
        }
        _ => Ok(()),
    }
}

fn platforms() -> Result<ExitStatus> {
    use std::fmt::Write as _;
    let catalogue = Catalogue::builtin()?;
    let mut table = String::new();
    let _ = writeln!(
        table,
        "{:<14} {:<15} {:<17} IMAGES.JSON KEYS",
        "PLATFORM", "PROVIDER", "CCM"
    );
    for platform in crate::inputs::infrastructure::KNOWN_PLATFORMS {
        let mut matching: Vec<_> = catalogue
            .providers
            .values()
            .filter(|p| p.spec().platform == *platform)
            .collect();
        matching.sort_by_key(|p| p.spec().azure_cloud_name.is_some());
        if matching.is_empty() {
            let _ = writeln!(table, "{platform:<14} {:<15} {:<17} -", "-", "no");
        }
        for provider in matching {
            let mut keys: Vec<&str> = provider
                .spec()
                .images
                .values()
                .map(String::as_str)
                .collect();
            keys.sort_unstable();
            keys.dedup();
            let ccm = format!("yes ({})", provider.spec().cloud_provider);
            let _ = writeln!(
                table,
                "{platform:<14} {:<15} {ccm:<17} {}",
                provider.name(),
                keys.join(", ")
            );
        }
    }
    let _ = writeln!(table, "\nHost files each bootstrap pod reads:");
    for provider in catalogue.providers.values() {
        let _ = writeln!(table, "  {}:", provider.name());
        for file in &provider.spec().bootstrap.host_files {
            let _ = writeln!(table, "    {}  ({})", file.path, file.source);
        }
    }
    print_stdout(table.as_bytes())?;
    Ok(ExitStatus::Success)
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
