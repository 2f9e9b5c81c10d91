//! `ccm-render render`: read the inputs, render, and write the tree, the Ignition config, or
//! compare with what is on disk (`--check`, `--diff`).

use super::exit::ExitStatus;
use super::pipeline::{catalogue_for, render_config_owned};
use super::term::{Checked, print_json, print_stdout, say, say_checked};
use crate::commands::cli::{OutputFormat, RenderArgs};
use crate::config::{ClusterConfig, InputFiles};
use crate::output::Change;
use anyhow::Result;
use camino::Utf8Path;

/// `--ignition FILE`: the config for `tree` and how FILE compares with it.
pub(crate) fn ignition_target(
    args: &RenderArgs,
    tree: &crate::output::Tree,
    release: &str,
) -> Result<Option<crate::output::ignition::file::Target>> {
    let Some(path) = &args.standalone.ignition else {
        return Ok(None);
    };
    let options = crate::output::ignition::Options {
        version: args
            .standalone
            .ignition_version
            .unwrap_or_else(|| crate::output::ignition::default_version(release)),
        manifests: args.standalone.ignition_manifests,
    };
    let strict = args.check || args.diff;
    crate::output::ignition::file::Target::new(path, options, tree, strict).map(Some)
}

/// The input files a `render` command line names.
pub(crate) fn input_files(args: &RenderArgs) -> InputFiles {
    InputFiles {
        infrastructure: args.standalone.infrastructure.clone(),
        install_config: args.standalone.install_config.clone(),
        install_flags: crate::config::install_config::Flags {
            infrastructure_name: args.standalone.infrastructure_name.clone(),
            ibm_instance_crn: args.standalone.ibm_instance_crn.clone(),
            emit_infrastructure: args.standalone.emit_infrastructure.is_some(),
        },
        fact_flags: crate::config::install_config::facts::FactFlags {
            azure_stack_endpoints: args.standalone.azure_stack_endpoints.clone(),
            ibmcloud_zones: args.standalone.ibmcloud_zones.clone(),
            powervs_vpc_subnets: args.standalone.powervs_vpc_subnets.clone(),
            openstack_external_network_id: args.standalone.openstack_external_network_id.clone(),
            openstack_octavia: args.standalone.openstack_octavia,
            openstack_ca_cert: args.standalone.openstack_ca_cert.clone(),
        },
        images: args.images.clone(),
        cloud_config: args.standalone.cloud_config.clone(),
        proxy: args.standalone.proxy.clone(),
        network: args.standalone.network.clone(),
        feature_gate: args.standalone.feature_gate.clone(),
        apiserver: args.standalone.apiserver.clone(),
        credentials: args.credentials.clone(),
        ca_bundle: args.standalone.ca_bundle.clone(),
        namespace: args.standalone.namespace.clone(),
        release: args.standalone.release.clone(),
    }
}

/// `--cccmo-dir DIR`: the checkout, read, and the release it renders as (`--release`, else
/// the one its Go files are) set in `files`; which and why said on stderr.
fn read_checkout(
    dir: Option<&Utf8Path>,
    files: &mut InputFiles,
) -> Result<Option<crate::catalogue::cccmo::Checkout>> {
    let Some(dir) = dir else {
        return Ok(None);
    };
    let checkout = crate::catalogue::cccmo::Checkout::read(dir)?;
    let releases = crate::catalogue::Releases::builtin()?;
    let found =
        crate::catalogue::cccmo::release_for(releases, &checkout, files.release.as_deref())?;
    super::term::say_checkout_release(&found, &checkout);
    files.release = Some(found.release.name.clone());
    Ok(Some(checkout))
}

pub(crate) fn run(args: &RenderArgs) -> Result<ExitStatus> {
    if let Some(dest) = &args.dest_dir {
        crate::output::check_dest(dest)?;
    }
    if let Some(path) = &args.standalone.ignition {
        crate::output::ignition::file::check_target(path, "--ignition")?;
    }
    let mut files = input_files(args);
    // --cccmo-dir: the checkout is read and its release told before the inputs load.
    let checkout = read_checkout(args.standalone.cccmo_dir.as_deref(), &mut files)?;
    let cfg = ClusterConfig::load(&files)?;
    if let Some(warning) = super::pipeline::go_files_to_review(cfg.release) {
        say(&warning);
    }
    let mut catalogue = catalogue_for(&cfg, args.standalone.provider_dir.as_deref())?;
    if let Some(checkout) = &checkout {
        crate::catalogue::cccmo::apply_checkout(&mut catalogue, checkout, cfg.release)?;
    }
    let rendered = render_config_owned(&cfg, catalogue)?;
    let tree = crate::output::tree(&rendered)?;
    let release = cfg.release.name.clone();
    let emitted = match (&args.standalone.emit_infrastructure, cfg.derived.as_ref()) {
        (Some(path), Some(derived)) => Some(Emitted {
            path,
            text: derived.to_yaml_stream()?,
            flag: "--emit-infrastructure",
        }),
        _ => None,
    };
    let status = write_out(args, &rendered, &tree, &release, emitted)?;
    left_for_exit((cfg, rendered, tree));
    Ok(status)
}

/// A file a render writes besides its tree: what it derived from its inputs
/// (`--emit-infrastructure`, `--emit-hosted-control-plane`).
pub(crate) struct Emitted<'a> {
    /// Where.
    pub(crate) path: &'a Utf8Path,
    /// What.
    pub(crate) text: String,
    /// The flag that asked for it, for messages.
    pub(crate) flag: &'static str,
}

/// What every render does with its tree: check, diff or write it (and the Ignition config),
/// and say what it did. `emitted` is the file an `--emit-*` flag asks for.
pub(crate) fn write_out(
    args: &RenderArgs,
    rendered: &crate::render::Rendered,
    tree: &crate::output::Tree,
    release: &str,
    emitted: Option<Emitted<'_>>,
) -> Result<ExitStatus> {
    let ignition = ignition_target(args, tree, release)?;
    for warning in &rendered.warnings {
        say(&format!("warning: {warning}"));
    }
    for note in &rendered.notes {
        say(&format!("note: {note}"));
    }
    // Read-only: never creates, locks for writing or repairs --dest-dir. Every refusal (a
    // symbolic link, a folder where a file goes) happens here, before anything is written.
    let plan = match &args.dest_dir {
        Some(dest) => crate::output::plan(tree, dest, args.prune)?,
        None => crate::output::Plan::default(),
    };
    if args.check || args.diff {
        return check(
            args,
            &plan,
            tree,
            ignition.as_ref(),
            &rendered.warnings,
            release,
        );
    }
    let update = prepare_update(args, tree, plan)?;
    // Written before the tree, so that a failure here leaves --dest-dir's files untouched.
    if let Some(emitted) = emitted {
        crate::output::write_file(emitted.path, emitted.text.as_bytes(), emitted.flag)?;
    }
    // The Ignition config too; it is put back as it was if writing the tree fails.
    let ignition_written = match &ignition {
        Some(target) => Some(target.write()?),
        None => None,
    };
    let applied = update.map(crate::output::Update::write).transpose();
    if applied.is_err()
        && let (Some(target), Some(written)) = (&ignition, ignition_written)
    {
        target.restore(written);
    }
    let written = applied?;
    let (plan, report) = match written {
        Some(written) => (written.plan, Some(written.report)),
        None => (crate::output::Plan::default(), None),
    };
    if args.output == OutputFormat::Json {
        let mut summary = crate::output::summary::render(
            &plan,
            tree,
            args.dest_dir.as_deref().map(camino::Utf8Path::as_str),
            false,
            &rendered.warnings,
            release,
        );
        summary.ignition = ignition.as_ref().map(|t| t.summary(false));
        print_json(&summary)?;
    }
    say_written(args, tree, report.as_ref(), ignition.as_ref(), release);
    left_for_exit((plan, report));
    Ok(ExitStatus::Success)
}

/// The update of `--dest-dir`, if given. A render that changes nothing writes nothing. A
/// --dest-dir that does not exist is written whole. Otherwise it is locked and repaired
/// (src/output/mod.rs), and planned again under the lock: that plan is what --output json
/// reports.
fn prepare_update<'t>(
    args: &RenderArgs,
    tree: &'t crate::output::Tree,
    plan: crate::output::Plan,
) -> Result<Option<crate::output::Update<'t>>> {
    let Some(dest_dir) = &args.dest_dir else {
        return Ok(None);
    };
    let update = crate::output::Update::prepare(tree, dest_dir, args.prune, plan)?;
    if let Some(repaired) = update.repaired() {
        note_repair(dest_dir, repaired);
    }
    Ok(Some(update))
}

/// Leaves `value` to the operating system, which takes the whole heap back when the process
/// exits a moment later, instead of freeing it one allocation at a time: freeing the parsed and
/// rendered objects of a render was a sixth of its instructions (callgrind, Azure: 0.66 M of
/// 4.1 M). Only for what a command built and used last, just before it returns to `main`.
pub(crate) fn left_for_exit<T>(value: T) {
    std::mem::forget(value);
}

pub(crate) fn say_written(
    args: &RenderArgs,
    tree: &crate::output::Tree,
    report: Option<&crate::output::WriteReport>,
    ignition: Option<&crate::output::ignition::file::Target>,
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
pub(crate) fn check(
    args: &RenderArgs,
    plan: &crate::output::Plan,
    tree: &crate::output::Tree,
    ignition: Option<&crate::output::ignition::file::Target>,
    warnings: &[String],
    release: &str,
) -> Result<ExitStatus> {
    if args.diff {
        use std::io::IsTerminal as _;
        let colour = args.color.enabled(
            std::io::stdout().is_terminal(),
            std::env::var_os("NO_COLOR").as_deref(),
        );
        let mut text = crate::output::diff::unified(plan, colour);
        if let Some(target) = ignition {
            text.push_str(&crate::output::diff::unified(
                &target.comparison.plan,
                colour,
            ));
            if let Some(line) = &target.comparison.whole {
                text.push_str("# ");
                text.push_str(line);
                text.push('\n');
            }
        }
        print_stdout(text.as_bytes())?;
    } else if args.output == OutputFormat::Json {
        let mut summary = crate::output::summary::render(
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
        let mut text = crate::output::diff::check_list(plan);
        if let Some(target) = ignition {
            if let Some(line) = &target.comparison.whole {
                text.push_str(line);
                text.push('\n');
            }
            text.push_str(&crate::output::diff::check_list(&target.comparison.plan));
        }
        print_stdout(text.as_bytes())?;
    }
    if let Some(dest) = &args.dest_dir {
        report_dest_check(dest, plan, tree, args.prune, release);
    }
    if let Some(target) = ignition {
        let held = format!("{} files", target.contents.files.len());
        let changes = files_changing(&target.comparison.plan, "");
        say_checked(
            target.path.as_str(),
            None,
            &if target.comparison.has_changes() {
                Checked::OutOfDate(&changes)
            } else {
                Checked::UpToDate(&held)
            },
        );
    }
    let drift = plan.has_changes() || ignition.is_some_and(|t| t.comparison.has_changes());
    Ok(if drift {
        ExitStatus::Drift
    } else {
        ExitStatus::Success
    })
}

/// "N files would change (A added, C changed, R removed`more`)".
fn files_changing(plan: &crate::output::Plan, more: &str) -> String {
    let [added, changed, removed] =
        [Change::Added, Change::Changed, Change::Removed].map(|change| count(plan, change));
    format!(
        "{} files would change ({added} added, {changed} changed, {removed} removed{more})",
        added + changed + removed
    )
}

/// How many entries of `plan` are of `change`.
pub(crate) fn count(plan: &crate::output::Plan, change: Change) -> usize {
    plan.entries.iter().filter(|e| e.change == change).count()
}

/// What `--check`/`--diff` say on stderr about `--dest-dir`.
pub(crate) fn report_dest_check(
    dest: &Utf8Path,
    plan: &crate::output::Plan,
    tree: &crate::output::Tree,
    prune: bool,
    release: &str,
) {
    let folders = if plan.missing_folders.is_empty() {
        String::new()
    } else {
        format!(", {} folders to create", plan.missing_folders.len())
    };
    let changes = files_changing(plan, &folders);
    let held = format!("{} files", tree.files.len());
    say_checked(
        dest.as_str(),
        Some(release),
        &if plan.has_changes() {
            Checked::OutOfDate(&changes)
        } else {
            Checked::UpToDate(&held)
        },
    );
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
pub(crate) fn note_repair(dir: &Utf8Path, repaired: &crate::output::Leftovers) {
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
pub(crate) fn hint_left_in_place(left: &[camino::Utf8PathBuf], prune: bool) {
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
