//! What each subcommand does: glue between the command line, the pure render and the output.

use crate::cli::{Cli, Command, OutputFormat, PlatformsArgs, ProviderCommand, RenderArgs};
use crate::config::{ClusterConfig, InputFiles};
use crate::output::Change;
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

/// Runs a parsed command line. Meant for the binary, once per process: a render leaves what it
/// built to the operating system instead of freeing it (see [`left_for_exit`]).
pub fn run(cli: Cli) -> Result<ExitStatus> {
    match cli.command {
        Command::Render(args) => render(&args),
        Command::Platforms(args) => platforms(&args),
        Command::Matrix(args) => crate::matrix::run(&args),
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
    render_config(&ClusterConfig::load(files)?, catalogue)
}

/// Renders inputs already read: the pure part of a render (no I/O), picking the provider for
/// the Infrastructure's platform from `catalogue`.
pub fn render_config(cfg: &ClusterConfig, catalogue: &Catalogue) -> Result<Rendered> {
    match catalogue.select_for(&cfg.infrastructure) {
        Selection::Provider(provider) => crate::render::render(cfg, provider, &catalogue.common),
        // The inputs' own warnings (an install-config's notes among them) come first, as in
        // a render: they often say why there is no CCM.
        Selection::NoCcm(reason) => Ok(Rendered {
            warnings: cfg
                .warnings
                .iter()
                .cloned()
                .chain([format!("{reason}; rendering nothing")])
                .collect(),
            ..Rendered::default()
        }),
    }
}

/// [`render_config`] for a catalogue the caller no longer needs: the chosen provider is moved
/// into the render rather than copied.
pub fn render_config_owned(cfg: &ClusterConfig, mut catalogue: Catalogue) -> Result<Rendered> {
    let chosen = match catalogue.select_for(&cfg.infrastructure) {
        Selection::Provider(provider) => provider.name().to_string(),
        Selection::NoCcm(_) => return render_config(cfg, &catalogue),
    };
    match catalogue.providers.remove(&chosen) {
        Some(provider) => crate::render::render_owned(cfg, provider, &catalogue.common),
        None => render_config(cfg, &catalogue),
    }
}

fn render(args: &RenderArgs) -> Result<ExitStatus> {
    crate::output::check_dest(&args.dest_dir)?;
    let files = InputFiles {
        infrastructure: args.infrastructure.clone(),
        install_config: args.install_config.clone(),
        install_options: crate::install_config::Options {
            infrastructure_name: args.infrastructure_name.clone(),
            ibm_instance_crn: args.ibm_instance_crn.clone(),
            cloud_config_given: args.cloud_config.is_some(),
            facts: crate::install_config::facts::PlatformFacts::default(),
        },
        fact_flags: crate::install_config::facts::FactFlags {
            azure_stack_endpoints: args.azure_stack_endpoints.clone(),
            ibmcloud_zones: args.ibmcloud_zones.clone(),
            powervs_vpc_subnets: args.powervs_vpc_subnets.clone(),
            openstack_external_network_id: args.openstack_external_network_id.clone(),
            openstack_octavia: args.openstack_octavia,
            openstack_ca_cert: args.openstack_ca_cert.clone(),
        },
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
    let cfg = ClusterConfig::load(&files)?;
    let catalogue = match args.provider_dir.as_deref() {
        // Only the provider of this platform: parsing the others was most of a render's cost.
        None => Catalogue::builtin_for(&cfg.infrastructure)?,
        Some(dir) => load_catalogue(Some(dir))?,
    };
    let rendered = render_config_owned(&cfg, catalogue)?;
    let tree = crate::output::tree(&rendered)?;
    for warning in &rendered.warnings {
        eprintln!("warning: {warning}");
    }
    for note in &rendered.notes {
        eprintln!("note: {note}");
    }
    // Read-only: never creates, locks for writing or repairs --dest-dir. Every refusal (a
    // symbolic link, a folder where a file goes) happens here, before anything is written.
    let plan = crate::output::plan(&tree, &args.dest_dir, args.prune)?;
    if args.check || args.diff {
        return check(args, &plan, &tree, &rendered.warnings);
    }
    // A render that changes nothing writes nothing, not even a lock file. Otherwise
    // --dest-dir is created, locked and repaired (src/output/mod.rs), and planned again under
    // the lock: that plan is what --output json reports.
    let (plan, dest) = if plan.has_changes() {
        let dest = crate::output::Dest::open(&args.dest_dir)?;
        note_repair(dest.path(), dest.repaired());
        (dest.plan(&tree, args.prune)?, Some(dest))
    } else {
        (plan, None)
    };
    // Written before the tree, so that a failure here leaves --dest-dir's files untouched.
    if let (Some(path), Some(derived)) = (&args.emit_infrastructure, &cfg.derived) {
        crate::output::write_file(
            path,
            derived.to_yaml_stream()?.as_bytes(),
            "--emit-infrastructure",
        )?;
    }
    let report = match &dest {
        Some(dest) => dest.apply(&plan)?,
        None => crate::output::WriteReport::of(&plan),
    };
    drop(dest);
    if args.output == OutputFormat::Json {
        let summary = crate::summary::render(
            &plan,
            &tree,
            args.dest_dir.as_str(),
            false,
            &rendered.warnings,
        );
        print_json(&summary)?;
    }
    let removed = if args.prune {
        format!(", {} removed", report.removed.len())
    } else {
        String::new()
    };
    eprintln!(
        "ccm-render: {} files in {} ({} written, {} unchanged{removed})",
        tree.files.len(),
        args.dest_dir,
        report.written.len(),
        report.unchanged.len()
    );
    hint_left_in_place(&report.left, args.prune);
    left_for_exit((cfg, rendered, tree, plan, report));
    Ok(ExitStatus::Success)
}

/// Leaves `value` to the operating system, which takes the whole heap back when the process
/// exits a moment later, instead of freeing it one allocation at a time: freeing the parsed and
/// rendered objects of a render was a sixth of its instructions (callgrind, Azure: 0.66 M of
/// 4.1 M). Only for what a command built and used last, just before it returns to `main`.
fn left_for_exit<T>(value: T) {
    std::mem::forget(value);
}

/// `--check` and `--diff`: print, write nothing, exit 1 when something would change.
fn check(
    args: &RenderArgs,
    plan: &crate::output::Plan,
    tree: &crate::output::Tree,
    warnings: &[String],
) -> Result<ExitStatus> {
    if args.diff {
        use std::io::IsTerminal as _;
        let colour = args.color.enabled(
            std::io::stdout().is_terminal(),
            std::env::var_os("NO_COLOR").as_deref(),
        );
        print_stdout(crate::diff::unified(plan, colour).as_bytes())?;
    } else if args.output == OutputFormat::Json {
        print_json(&crate::summary::render(
            plan,
            tree,
            args.dest_dir.as_str(),
            true,
            warnings,
        ))?;
    } else {
        print_stdout(crate::diff::check_list(plan).as_bytes())?;
    }
    let count = |c| plan.entries.iter().filter(|e| e.change == c).count();
    let changes = count(Change::Added) + count(Change::Changed) + count(Change::Removed);
    if plan.has_changes() {
        let folders = if plan.missing_folders.is_empty() {
            String::new()
        } else {
            format!(", {} folders to create", plan.missing_folders.len())
        };
        eprintln!(
            "ccm-render: {} is out of date: {changes} files would change ({} added, {} changed, {} removed{folders}); run without --check/--diff to update it",
            args.dest_dir,
            count(Change::Added),
            count(Change::Changed),
            count(Change::Removed),
        );
    } else {
        eprintln!(
            "ccm-render: {} is up to date ({} files)",
            args.dest_dir,
            tree.files.len()
        );
    }
    let leftovers = &plan.leftovers;
    if leftovers.journal.is_some() {
        eprintln!(
            "ccm-render: {}: an update was cut short by a crash (files not yet updated: {}); the next render completes it",
            args.dest_dir,
            leftovers.unfinished.len()
        );
    }
    if !leftovers.temporary.is_empty() {
        eprintln!(
            "ccm-render: {}: temporary files left by a crashed run: {}; the next render removes them",
            args.dest_dir,
            leftovers.temporary.len()
        );
    }
    hint_left_in_place(&plan.left, args.prune);
    Ok(if plan.has_changes() {
        ExitStatus::Drift
    } else {
        ExitStatus::Success
    })
}

/// Says on stderr what a crashed run had left in `dir` and this run repaired.
fn note_repair(dir: &Utf8Path, repaired: &crate::output::Leftovers) {
    if repaired.journal.is_some() {
        eprintln!(
            "note: {dir}: completed an update that a crashed run left half done (files it had yet to update: {})",
            repaired.unfinished.len()
        );
    }
    if !repaired.temporary.is_empty() {
        eprintln!(
            "note: {dir}: removed temporary files a crashed run left: {}",
            repaired.temporary.len()
        );
    }
}

/// Says on stderr which files under the output folders this render does not produce.
fn hint_left_in_place(left: &[camino::Utf8PathBuf], prune: bool) {
    if left.is_empty() {
        return;
    }
    let names: Vec<&str> = left.iter().map(|p| p.as_str()).collect();
    if prune {
        eprintln!(
            "ccm-render: left in place (symbolic links and names that are not UTF-8 are never removed): {}",
            names.join(", ")
        );
    } else {
        eprintln!(
            "ccm-render: not produced by this render, left in place (--prune removes them): {}",
            names.join(", ")
        );
    }
}

fn print_json<T: serde::Serialize>(value: &T) -> Result<()> {
    let mut text = serde_json::to_string_pretty(value)?;
    text.push('\n');
    print_stdout(text.as_bytes())
}

/// Writes to stdout; a closed pipe (`ccm-render platforms | head`) is not an error.
pub(crate) fn print_stdout(bytes: &[u8]) -> Result<()> {
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
    // No lock file: it would be read as a file of the provider.
    let folder = crate::output::Dest::open_unlocked(&dest)?;
    folder.apply(&folder.plan(&tree, false)?)?;
    eprintln!(
        "ccm-render: wrote provider {name} in {dest}; edit it, then: ccm-render provider check {dest}"
    );
    Ok(ExitStatus::Success)
}

fn platforms(args: &PlatformsArgs) -> Result<ExitStatus> {
    use std::fmt::Write as _;
    let catalogue = load_catalogue(args.provider_dir.as_deref())?;
    let summary = crate::summary::platforms(&catalogue);
    if args.output == OutputFormat::Json {
        print_json(&summary)?;
        return Ok(ExitStatus::Success);
    }
    let mut table = String::new();
    let _ = writeln!(
        table,
        "{:<14} {:<15} {:<19} {:<22} IMAGES.JSON KEYS",
        "PLATFORM", "PROVIDER", "CCM", "CLOUD CONFIG"
    );
    for row in &summary.platforms {
        let (Some(provider), Some(cloud_provider), Some(keys), Some(config)) = (
            &row.provider,
            &row.cloud_provider,
            &row.image_keys,
            &row.cloud_config,
        ) else {
            let _ = writeln!(
                table,
                "{:<14} {:<15} {:<19} {:<22} -",
                row.platform, "-", "no", "-"
            );
            continue;
        };
        let ccm = format!("yes ({cloud_provider})");
        let transform = serde_json::to_value(config.transform)?;
        let config = format!(
            "{} ({})",
            transform.as_str().unwrap_or_default(),
            config.format
        );
        // A key with a default image shows it: `key (default IMAGE)`.
        let keys: Vec<String> = keys
            .iter()
            .map(
                |key| match row.default_images.as_ref().and_then(|d| d.get(key)) {
                    Some(image) => format!("{key} (default {image})"),
                    None => key.clone(),
                },
            )
            .collect();
        let _ = writeln!(
            table,
            "{:<14} {provider:<15} {ccm:<19} {config:<22} {}",
            row.platform,
            keys.join(", ")
        );
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
    for row in &summary.platforms {
        if let (Some(provider), Some(files)) = (&row.provider, &row.bootstrap_host_files) {
            let _ = writeln!(table, "  {provider}:");
            for file in files {
                let _ = writeln!(table, "    {}  ({})", file.path, file.source);
            }
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
