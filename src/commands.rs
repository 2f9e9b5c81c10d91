//! What each subcommand does: glue between the command line, the pure render and the output.

use crate::cli::{
    Cli, Command, OutputFormat, PlacementsArgs, PlatformsArgs, ProviderCommand, ReleasesArgs,
    RenderArgs,
};
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
    /// `--check`/`--diff` found something that would change, or `provider import` left
    /// something to carry by hand (1).
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
    crate::capabilities::raise_file_capability();
    match cli.command {
        Command::Render(args) => render(&args),
        Command::Platforms(args) => platforms(&args),
        Command::Matrix(args) => crate::matrix::run(&args),
        Command::Placements(args) => placements(&args),
        Command::Releases(args) => releases(&args),
        Command::Provider(ProviderCommand::New { name, dir }) => provider_new(&name, &dir),
        Command::Provider(ProviderCommand::Check { dir }) => provider_check(&dir),
        Command::Provider(ProviderCommand::Import {
            cccmo_dir,
            release,
            assets,
        }) => crate::cccmo::import::run(&cccmo_dir, &release, &assets),
        Command::Completions { shell } => {
            let mut script = Vec::new();
            crate::cli::write_completions(shell, &mut script);
            print_stdout(&script)?;
            Ok(ExitStatus::Success)
        }
    }
}

/// Reads the inputs and renders them in memory, with no output I/O. `catalogue` is the newest
/// release's; it is taken to the release the inputs select.
pub fn render_in_memory(files: &InputFiles, catalogue: &Catalogue) -> Result<Rendered> {
    let cfg = ClusterConfig::load(files)?;
    let releases = crate::releases::Releases::builtin()?;
    let catalogue = releases.catalogue(cfg.release, catalogue.clone())?;
    render_config(&cfg, &catalogue)
}

/// The catalogue a render of `cfg` uses: the built-in providers as of its release (only its
/// platform's, unless `--provider-dir` adds others), plus those of `provider_dir`.
pub fn catalogue_for(cfg: &ClusterConfig, provider_dir: Option<&Utf8Path>) -> Result<Catalogue> {
    let releases = crate::releases::Releases::builtin()?;
    match provider_dir {
        // Only the provider of this platform: parsing the others was most of a render's cost.
        None => releases.builtin_for(cfg.release, &cfg.infrastructure),
        Some(dir) => {
            let builtin = releases.catalogue(cfg.release, Catalogue::builtin()?)?;
            add_provider_dir(builtin, dir)
        }
    }
}

/// Renders inputs already read: the pure part of a render (no I/O), picking the provider for
/// the Infrastructure's platform from `catalogue`.
pub fn render_config(cfg: &ClusterConfig, catalogue: &Catalogue) -> Result<Rendered> {
    match catalogue.select_for(&cfg.infrastructure) {
        Selection::Provider(provider) => {
            if let Some(supported) = &provider.spec().releases
                && !supported.contains(&cfg.release.name)
            {
                anyhow::bail!(
                    "{}/provider.yaml: spec.releases: the provider {} renders for {}, not for OpenShift {} (--release, or the release of the --images ImageStream)",
                    provider.origin,
                    provider.name(),
                    supported.join(", "),
                    cfg.release.name
                );
            }
            crate::render::render(cfg, provider, &catalogue.common)
        }
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

/// `--ignition FILE`: the config for `tree` and how FILE compares with it.
fn ignition_target(
    args: &RenderArgs,
    tree: &crate::output::Tree,
    release: &str,
) -> Result<Option<crate::ignition::file::Target>> {
    let Some(path) = &args.ignition else {
        return Ok(None);
    };
    let options = crate::ignition::Options {
        version: args
            .ignition_version
            .unwrap_or_else(|| crate::ignition::default_version(release)),
        manifests: args.ignition_manifests,
    };
    let strict = args.check || args.diff;
    crate::ignition::file::Target::new(path, options, tree, strict).map(Some)
}

/// The input files a `render` command line names.
fn input_files(args: &RenderArgs) -> InputFiles {
    InputFiles {
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
        release: args.release.clone(),
    }
}

/// [`render_config`] for a catalogue the caller no longer needs: the chosen provider is moved
/// into the render rather than copied (when the release check of [`render_config`] passes).
pub fn render_config_owned(cfg: &ClusterConfig, mut catalogue: Catalogue) -> Result<Rendered> {
    let chosen = match catalogue.select_for(&cfg.infrastructure) {
        Selection::Provider(provider)
            if provider
                .spec()
                .releases
                .as_ref()
                .is_none_or(|supported| supported.contains(&cfg.release.name)) =>
        {
            provider.name().to_string()
        }
        _ => return render_config(cfg, &catalogue),
    };
    match catalogue.providers.remove(&chosen) {
        Some(provider) => crate::render::render_owned(cfg, provider, &catalogue.common),
        None => render_config(cfg, &catalogue),
    }
}

fn render(args: &RenderArgs) -> Result<ExitStatus> {
    if let Some(dest) = &args.dest_dir {
        crate::output::check_dest(dest)?;
    }
    if let Some(path) = &args.ignition {
        crate::ignition::file::check_target(path, "--ignition")?;
    }
    let mut files = input_files(args);
    // --cccmo-dir: the checkout is read and its release told before the inputs load.
    let checkout = crate::cccmo::for_render(args.cccmo_dir.as_deref(), &mut files.release)?;
    let cfg = ClusterConfig::load(&files)?;
    let mut catalogue = catalogue_for(&cfg, args.provider_dir.as_deref())?;
    if let Some(checkout) = &checkout {
        crate::cccmo::apply_checkout(&mut catalogue, checkout, cfg.release)?;
    }
    let rendered = render_config_owned(&cfg, catalogue)?;
    let tree = crate::output::tree(&rendered)?;
    let ignition = ignition_target(args, &tree, &cfg.release.name)?;
    for warning in &rendered.warnings {
        say(&format!("warning: {warning}"));
    }
    for note in &rendered.notes {
        say(&format!("note: {note}"));
    }
    // Read-only: never creates, locks for writing or repairs --dest-dir. Every refusal (a
    // symbolic link, a folder where a file goes) happens here, before anything is written.
    let plan = match &args.dest_dir {
        Some(dest) => crate::output::plan(&tree, dest, args.prune)?,
        None => crate::output::Plan::default(),
    };
    if args.check || args.diff {
        return check(
            args,
            &plan,
            &tree,
            ignition.as_ref(),
            &rendered.warnings,
            &cfg.release.name,
        );
    }
    // A render that changes nothing writes nothing, not even a lock file. A --dest-dir that
    // does not exist is written whole further down. Otherwise it is locked and repaired
    // (src/output/mod.rs), and planned again under the lock: that plan is what --output json
    // reports.
    let (plan, dest) = match &args.dest_dir {
        Some(dest_dir) if plan.has_changes() && !plan.new_dest => {
            let dest = open_dest(dest_dir)?;
            (dest.plan(&tree, args.prune)?, Some(dest))
        }
        _ => (plan, None),
    };
    // Written before the tree, so that a failure here leaves --dest-dir's files untouched.
    if let (Some(path), Some(derived)) = (&args.emit_infrastructure, &cfg.derived) {
        crate::output::write_file(
            path,
            derived.to_yaml_stream()?.as_bytes(),
            "--emit-infrastructure",
        )?;
    }
    // The Ignition config too; it is put back as it was if writing the tree fails.
    let ignition_written = match &ignition {
        Some(target) => Some(target.write()?),
        None => None,
    };
    let applied = write_tree(args, &tree, plan, dest);
    if applied.is_err()
        && let (Some(target), Some(written)) = (&ignition, ignition_written)
    {
        target.restore(written);
    }
    let (plan, report) = applied?;
    if args.output == OutputFormat::Json {
        let mut summary = crate::summary::render(
            &plan,
            &tree,
            args.dest_dir.as_deref().map(camino::Utf8Path::as_str),
            false,
            &rendered.warnings,
            &cfg.release.name,
        );
        summary.ignition = ignition.as_ref().map(|t| t.summary(false));
        print_json(&summary)?;
    }
    say_written(
        args,
        &tree,
        report.as_ref(),
        ignition.as_ref(),
        &cfg.release.name,
    );
    left_for_exit((cfg, rendered, tree, plan, report));
    Ok(ExitStatus::Success)
}

/// Opens --dest-dir for an update (creates, locks, repairs it) and says what it repaired.
fn open_dest(dir: &camino::Utf8Path) -> Result<crate::output::Dest> {
    let dest = crate::output::Dest::open(dir)?;
    note_repair(dest.path(), dest.repaired());
    Ok(dest)
}

/// Writes `tree` into --dest-dir as `plan` says: under the lock of `dest` when it is open; as
/// a new directory, whole, when there was none (src/output/fresh.rs); or, when another run made
/// it meanwhile, as an update under its lock planned again. Returns the plan carried out.
fn write_tree(
    args: &RenderArgs,
    tree: &crate::output::Tree,
    plan: crate::output::Plan,
    dest: Option<crate::output::Dest>,
) -> Result<(crate::output::Plan, Option<crate::output::WriteReport>)> {
    let Some(dest_dir) = &args.dest_dir else {
        return Ok((plan, None));
    };
    let (plan, dest) = match dest {
        Some(dest) => (plan, dest),
        None if !plan.has_changes() => {
            let report = crate::output::WriteReport::of(&plan);
            return Ok((plan, Some(report)));
        }
        None => {
            if let Some(report) = crate::output::write_new(tree, dest_dir, &plan)? {
                return Ok((plan, Some(report)));
            }
            let dest = open_dest(dest_dir)?;
            (dest.plan(tree, args.prune)?, dest)
        }
    };
    let report = dest.apply(&plan)?;
    Ok((plan, Some(report)))
}

/// Leaves `value` to the operating system, which takes the whole heap back when the process
/// exits a moment later, instead of freeing it one allocation at a time: freeing the parsed and
/// rendered objects of a render was a sixth of its instructions (callgrind, Azure: 0.66 M of
/// 4.1 M). Only for what a command built and used last, just before it returns to `main`.
fn left_for_exit<T>(value: T) {
    std::mem::forget(value);
}

/// The closing lines of a render on stderr: what was written where.
/// Writes one line to stderr in one write: `eprintln!` writes each piece of its format on its
/// own (stderr is unbuffered), a dozen system calls for the summary line.
fn say(line: &str) {
    use std::io::Write as _;
    let mut text = String::with_capacity(line.len() + 1);
    text.push_str(line);
    text.push('\n');
    let _ = std::io::stderr().write_all(text.as_bytes());
}

fn say_written(
    args: &RenderArgs,
    tree: &crate::output::Tree,
    report: Option<&crate::output::WriteReport>,
    ignition: Option<&crate::ignition::file::Target>,
    release: &str,
) {
    if let (Some(dest), Some(report)) = (&args.dest_dir, report) {
        let removed = if args.prune {
            format!(", {} removed", report.removed.len())
        } else {
            String::new()
        };
        say(&format!(
            "ccm-render: {} files for OpenShift {release} in {dest} ({} written, {} unchanged{removed})",
            tree.files.len(),
            report.written.len(),
            report.unchanged.len()
        ));
        hint_left_in_place(&report.left, args.prune);
    }
    if let Some(target) = ignition {
        eprintln!(
            "ccm-render: {} files in {} (Ignition {}, {})",
            target.contents.files.len(),
            target.path,
            target.options.version,
            if target.comparison.has_changes() {
                "written"
            } else {
                "unchanged"
            }
        );
    }
}

/// `--check` and `--diff`: print, write nothing, exit 1 when something would change.
fn check(
    args: &RenderArgs,
    plan: &crate::output::Plan,
    tree: &crate::output::Tree,
    ignition: Option<&crate::ignition::file::Target>,
    warnings: &[String],
    release: &str,
) -> Result<ExitStatus> {
    if args.diff {
        use std::io::IsTerminal as _;
        let colour = args.color.enabled(
            std::io::stdout().is_terminal(),
            std::env::var_os("NO_COLOR").as_deref(),
        );
        let mut text = crate::diff::unified(plan, colour);
        if let Some(target) = ignition {
            text.push_str(&crate::diff::unified(&target.comparison.plan, colour));
            if let Some(line) = &target.comparison.whole {
                text.push_str("# ");
                text.push_str(line);
                text.push('\n');
            }
        }
        print_stdout(text.as_bytes())?;
    } else if args.output == OutputFormat::Json {
        let mut summary = crate::summary::render(
            plan,
            tree,
            args.dest_dir.as_deref().map(camino::Utf8Path::as_str),
            true,
            warnings,
            release,
        );
        summary.ignition = ignition.map(|t| t.summary(true));
        print_json(&summary)?;
    } else {
        let mut text = crate::diff::check_list(plan);
        if let Some(target) = ignition {
            if let Some(line) = &target.comparison.whole {
                text.push_str(line);
                text.push('\n');
            }
            text.push_str(&crate::diff::check_list(&target.comparison.plan));
        }
        print_stdout(text.as_bytes())?;
    }
    if let Some(dest) = &args.dest_dir {
        report_dest_check(dest, plan, tree, args.prune, release);
    }
    if let Some(target) = ignition {
        let p = &target.comparison.plan;
        if target.comparison.has_changes() {
            eprintln!(
                "ccm-render: {} is out of date: {} files would change ({} added, {} changed, {} removed); run without --check/--diff to update it",
                target.path,
                count(p, Change::Added) + count(p, Change::Changed) + count(p, Change::Removed),
                count(p, Change::Added),
                count(p, Change::Changed),
                count(p, Change::Removed),
            );
        } else {
            eprintln!(
                "ccm-render: {} is up to date ({} files)",
                target.path,
                target.contents.files.len()
            );
        }
    }
    let drift = plan.has_changes() || ignition.is_some_and(|t| t.comparison.has_changes());
    Ok(if drift {
        ExitStatus::Drift
    } else {
        ExitStatus::Success
    })
}

/// How many entries of `plan` are of `change`.
fn count(plan: &crate::output::Plan, change: Change) -> usize {
    plan.entries.iter().filter(|e| e.change == change).count()
}

/// What `--check`/`--diff` say on stderr about `--dest-dir`.
fn report_dest_check(
    dest: &Utf8Path,
    plan: &crate::output::Plan,
    tree: &crate::output::Tree,
    prune: bool,
    release: &str,
) {
    if plan.has_changes() {
        let folders = if plan.missing_folders.is_empty() {
            String::new()
        } else {
            format!(", {} folders to create", plan.missing_folders.len())
        };
        let changes = count(plan, Change::Added)
            + count(plan, Change::Changed)
            + count(plan, Change::Removed);
        eprintln!(
            "ccm-render: {dest} is out of date for OpenShift {release}: {changes} files would change ({} added, {} changed, {} removed{folders}); run without --check/--diff to update it",
            count(plan, Change::Added),
            count(plan, Change::Changed),
            count(plan, Change::Removed),
        );
    } else {
        eprintln!(
            "ccm-render: {dest} is up to date for OpenShift {release} ({} files)",
            tree.files.len()
        );
    }
    let leftovers = &plan.leftovers;
    if leftovers.journal.is_some() {
        eprintln!(
            "ccm-render: {dest}: an update was cut short by a crash (files not yet updated: {}); the next render completes it",
            leftovers.unfinished.len()
        );
    }
    if !leftovers.temporary.is_empty() {
        eprintln!(
            "ccm-render: {dest}: temporary files left by a crashed run: {}; the next render removes them",
            leftovers.temporary.len()
        );
    }
    hint_left_in_place(&plan.left, prune);
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
    let catalogue = Catalogue::builtin()?;
    match provider_dir {
        Some(dir) => add_provider_dir(catalogue, dir),
        None => Ok(catalogue),
    }
}

pub(crate) fn add_provider_dir(mut catalogue: Catalogue, dir: &Utf8Path) -> Result<Catalogue> {
    let added = read_providers(dir).map_err(|e| anyhow!("--provider-dir {e}"))?;
    for note in catalogue.add(added)? {
        eprintln!("note: {note}");
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
    let releases = crate::releases::Releases::builtin()?;
    folders
        .iter()
        .map(|folder| {
            let provider = crate::providers::parse(folder)?;
            // The releases it declares must exist (the built-ins' are checked at build time).
            releases.check_declared(&provider)?;
            Ok(provider)
        })
        .collect()
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

/// `placements`: the map, or with `--dest-dir` every file of a render, for a shell to install.
fn placements(args: &PlacementsArgs) -> Result<ExitStatus> {
    let placed = match &args.dest_dir {
        Some(dest) => Some(crate::placement::read::placed_files(dest, args.manifests)?),
        None => None,
    };
    if args.output == OutputFormat::Json {
        print_json(&crate::summary::placements(
            args.manifests,
            placed.as_deref(),
        ))?;
    } else {
        let text = match &placed {
            Some(placed) => crate::placement::file_lines(placed),
            None => crate::placement::map_lines(args.manifests),
        };
        print_stdout(text.as_bytes())?;
    }
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

fn releases(args: &ReleasesArgs) -> Result<ExitStatus> {
    let summary = crate::summary::releases(crate::releases::Releases::builtin()?);
    if args.output == OutputFormat::Json {
        print_json(&summary)?;
    } else {
        print_stdout(crate::summary::releases_text(&summary).as_bytes())?;
    }
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
