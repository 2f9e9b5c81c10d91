//! What each subcommand does: glue between the command line, the pure render and the output.

use crate::cli::{Cli, Command, ProviderCommand, RenderArgs};
use crate::config::{ClusterConfig, InputFiles};
use crate::providers::{Catalogue, Selection};
use crate::render::Rendered;
use anyhow::{Result, anyhow};
use camino::Utf8Path;

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
        Command::Platforms(args) => platforms(args.provider_dir.as_deref()),
        Command::Provider(ProviderCommand::New { name, dir }) => provider_new(&name, &dir),
        Command::Provider(ProviderCommand::Check { dir }) => provider_check(&dir),
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
    match catalogue.select_for(&cfg.infrastructure) {
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
        credentials: args.credentials.clone(),
        ca_bundle: args.ca_bundle.clone(),
        namespace: args.namespace.clone(),
    };
    let catalogue = load_catalogue(args.provider_dir.as_deref())?;
    let rendered = render_in_memory(&files, &catalogue)?;
    let tree = crate::output::tree(&rendered)?;
    let report = crate::output::write(&tree, &args.dest_dir)?;
    for warning in &rendered.warnings {
        eprintln!("warning: {warning}");
    }
    for note in &rendered.notes {
        eprintln!("note: {note}");
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

/// The built-in providers plus those of `--provider-dir` (read here, at the edge; parsed and
/// checked by [`crate::providers::parse`] like the built-in ones). Overrides are said on stderr.
pub fn load_catalogue(provider_dir: Option<&Utf8Path>) -> Result<Catalogue> {
    let mut catalogue = Catalogue::builtin()?;
    if let Some(dir) = provider_dir {
        let added = read_providers(dir).map_err(|e| anyhow!("--provider-dir {e}"))?;
        for note in catalogue.add(added)? {
            eprintln!("note: {note}");
        }
    }
    Ok(catalogue)
}

/// Every provider folder under `dir` (or `dir` itself when it holds provider.yaml), parsed.
fn read_providers(dir: &Utf8Path) -> Result<Vec<crate::providers::Provider>> {
    let folders = if crate::inputs::provider_dir::is_provider_folder(dir) {
        vec![crate::inputs::provider_dir::read_folder(dir)?]
    } else {
        crate::inputs::provider_dir::read_folders(dir)?
    };
    folders.iter().map(crate::providers::parse).collect()
}

fn provider_check(dir: &Utf8Path) -> Result<ExitStatus> {
    use std::fmt::Write as _;
    let providers = read_providers(dir)?;
    if providers.is_empty() {
        anyhow::bail!("{dir}: holds no provider folder");
    }
    let mut catalogue = Catalogue::builtin()?;
    let mut report = String::new();
    for provider in &providers {
        let spec = provider.spec();
        let serves = spec.external_platform_name.as_deref().map_or_else(
            || spec.platform.clone(),
            |name| format!("External platformName {name}"),
        );
        let _ = writeln!(
            report,
            "ok: {} (provider {}, serves {serves}, --cloud-provider={})",
            provider.origin,
            provider.name(),
            spec.cloud_provider
        );
    }
    // Also what render would refuse: two providers serving the same platform.
    for note in catalogue.add(providers)? {
        let _ = writeln!(report, "note: {note}");
    }
    print_stdout(report.as_bytes())?;
    Ok(ExitStatus::Success)
}

fn provider_new(name: &str, dir: &Utf8Path) -> Result<ExitStatus> {
    crate::validate::dns_label(name).map_err(|e| anyhow!("NAME: {e}"))?;
    let dest = dir.join(name);
    if crate::inputs::provider_dir::has_entries(&dest) {
        anyhow::bail!("{dest}: exists and is not empty; provider new never overwrites a provider");
    }
    let tree = crate::scaffold::tree(name, dest.as_str())?;
    crate::output::write(&tree, &dest)?;
    eprintln!(
        "ccm-render: wrote provider {name} in {dest}; edit it, then: ccm-render provider check {dest}"
    );
    Ok(ExitStatus::Success)
}

fn platforms(provider_dir: Option<&Utf8Path>) -> Result<ExitStatus> {
    use std::fmt::Write as _;
    let catalogue = load_catalogue(provider_dir)?;
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
    let _ = writeln!(
        table,
        "\nExternal platforms (spec.platformSpec.external.platformName, any case), used when status.platformStatus.external.cloudControllerManager.state is External:"
    );
    for provider in catalogue.providers.values() {
        if let Some(name) = &provider.spec().external_platform_name {
            let _ = writeln!(table, "  {name:<14} {}", provider.name());
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
