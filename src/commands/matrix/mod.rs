//! `ccm-render matrix`: every provider rendered across the standard variants, one folder per
//! case, so that whoever changes a provider or a template sees what the change does to every
//! platform and variant at once (`--diff` against the matrix made before the change).
//!
//! A case is a provider and one value of each of [`AXES`](variants::AXES); its folder is
//! `DIR/<provider>/<variant>/`, where the variant is the values' names joined by `-` in axis
//! order (`aws/ha-noproxy-intermediate-default/`). A case is rendered exactly as `ccm-render
//! render` renders the same input files (the provider's samples, see [`samples`]): the same
//! loading, render and output code, and its folder holds what `render --dest-dir` would write
//! there. Adding an axis is adding an entry to [`AXES`](variants::AXES) with a [`Setting`] for what it changes
//! in the inputs; every variant name then gains that axis' value at the end, and the names of
//! the other axes' values stay.
//!
//! The release is the one axis that is a folder level instead: without `--release`
//! a matrix renders the newest release into the names above; with `--release VERSION`
//! (repeatable, or `all`) every case folder is `DIR/<release>/<provider>/<variant>/`, the
//! release being `X.Y` (`DIR/4.21/aws/ha-noproxy-intermediate-default/`). The default names
//! thus stay, a given `--release` always writes the same folders however many are asked for,
//! and `diff -r DIR/4.21 DIR/4.22` shows what an upgrade changes in every case. A
//! `--provider-dir` provider that declares `spec.releases` is rendered only for those releases
//! (the others are skipped, with a note on stderr).
//!
//! Every case is rendered in memory, on `--jobs` threads (one per processor by default,
//! [`workers`]), before anything is written: a bad input or provider leaves `DIR` untouched.
//! Each case folder is then updated as one `render` update (with `--prune`: files a case no
//! longer renders are removed).

pub(crate) mod compare;
mod hosted;
mod hosted_cluster;
mod samples;
mod variants;
mod workers;

pub(crate) use variants::{AxisValue, Setting, variant_name, variants};
use workers::on_workers;

use super::exit::ExitStatus;
use super::term::{Checked, say_checked};
use crate::catalogue::Releases;
use crate::catalogue::{Catalogue, Selection};
use crate::commands::cli::MatrixArgs;
use crate::config::{ClusterConfig, InputFiles};
use crate::output::{Change, Plan, Tree};
use anyhow::{Context as _, Result, anyhow, bail};
use camino::{Utf8Path, Utf8PathBuf};
use ccm_catalogue::releases::Release;
use std::collections::BTreeMap;
use std::num::NonZeroUsize;

/// One case: a provider and a variant, with the input files that make it.
#[derive(Debug, Clone)]
pub(crate) struct Case {
    /// The release asked for with `--release` (`X.Y`), its folder level; None without it.
    pub(crate) release: Option<String>,
    /// The provider's name.
    pub(crate) provider: String,
    /// The variant's folder name.
    pub(crate) variant: String,
    /// The inputs, as `render` would be given them.
    pub(crate) files: InputFiles,
}

impl Case {
    /// `[<release>/]<provider>/<variant>`, the folder under `--dest-dir`.
    pub(crate) fn folder(&self) -> Utf8PathBuf {
        let base = self
            .release
            .as_deref()
            .map_or_else(Utf8PathBuf::new, Utf8PathBuf::from);
        base.join(&self.provider).join(&self.variant)
    }
}

/// The releases `--release` asks for, oldest first and each once: None without the flag (the
/// newest, and no release folder level). `all` is every release; other values are read as
/// `render --release` reads them.
pub(crate) fn chosen_releases(values: &[String]) -> Result<Option<Vec<&'static Release>>> {
    if values.is_empty() {
        return Ok(None);
    }
    let releases = Releases::builtin()?;
    let mut wanted = std::collections::BTreeSet::new();
    for value in values {
        if value == "all" {
            wanted.extend(releases.all().iter().map(|r| r.name.as_str()));
        } else {
            wanted.insert(releases.find(value, "--release")?.name.as_str());
        }
    }
    Ok(Some(
        releases
            .all()
            .iter()
            .rev()
            .filter(|r| wanted.contains(r.name.as_str()))
            .collect(),
    ))
}

/// Sets in `input` the sample file of provider `name` (among `files`) that `value` of a
/// variant's axis names.
fn set_variant_input(
    input: &mut InputFiles,
    value: &AxisValue,
    name: &str,
    files: &BTreeMap<&'static str, Utf8PathBuf>,
) -> Result<()> {
    let pick = |file: &str| {
        files.get(file).cloned().ok_or_else(|| {
            anyhow!(
                "provider {name} has no sample {file} for the {} variant: give it with --inputs DIR, as DIR/{name}/{file}",
                value.name
            )
        })
    };
    match value.setting {
        Setting::Infrastructure(file) => input.infrastructure = Some(pick(file)?),
        Setting::Proxy(true) => input.proxy = Some(pick(samples::PROXY)?),
        Setting::ModernTls(true) => {
            input.apiserver = Some(pick(samples::APISERVER_MODERN)?);
        }
        Setting::TechPreview(true) => {
            input.feature_gate = Some(pick(samples::FEATUREGATE_TECHPREVIEW)?);
        }
        Setting::Proxy(false) | Setting::ModernTls(false) | Setting::TechPreview(false) => {}
    }
    Ok(())
}

/// What a matrix leaves out: providers whose `spec.releases` does not name the release.
pub(crate) type Skipped = Vec<SkippedCase>;

/// A provider left out of a release its `spec.releases` does not name.
pub(crate) struct SkippedCase {
    provider: String,
    release: String,
}

/// The cases of every provider of `catalogue` for each of `releases` (None: no `--release`),
/// inputs from `user` (`--inputs`) or the built-in samples (written under `scratch`). Also
/// returns the `(provider, release)` pairs left out because the provider's `spec.releases`
/// does not name the release.
pub(crate) fn cases(
    catalogue: &Catalogue,
    releases: Option<&[&Release]>,
    user: Option<&Utf8Path>,
    scratch: &Utf8Path,
) -> Result<(Vec<Case>, Skipped)> {
    let mut out = Vec::new();
    let mut skipped = Vec::new();
    let releases: Vec<Option<&str>> = match releases {
        None => vec![None],
        Some(list) => list.iter().map(|r| Some(r.name.as_str())).collect(),
    };
    for (name, provider) in &catalogue.providers {
        let releases: Vec<Option<&str>> = releases
            .iter()
            .copied()
            .filter(|release| match release {
                Some(release) if !provider.renders_for(release) => {
                    skipped.push(SkippedCase {
                        provider: name.clone(),
                        release: (*release).to_string(),
                    });
                    false
                }
                _ => true,
            })
            .collect();
        if releases.is_empty() {
            continue;
        }
        let files = samples::files(name, user, scratch)?;
        let images = files
            .get(samples::IMAGES)
            .ok_or_else(|| {
                anyhow!(
                    "provider {name} has no sample {}: give it with --inputs DIR, as DIR/{name}/{}",
                    samples::IMAGES,
                    samples::IMAGES
                )
            })?
            .clone();
        for (release, values) in releases
            .iter()
            .flat_map(|r| variants().into_iter().map(move |v| (*r, v)))
        {
            let mut input = InputFiles {
                images: images.clone(),
                cloud_config: files.get(samples::CLOUD_CONFIG).cloned(),
                network: files.get(samples::NETWORK).cloned(),
                namespace: crate::config::DEFAULT_NAMESPACE.to_string(),
                release: release.map(str::to_string),
                ..InputFiles::default()
            };
            for value in &values {
                set_variant_input(&mut input, value, name, &files)?;
            }
            out.push(Case {
                release: release.map(str::to_string),
                provider: name.clone(),
                variant: variant_name(&values),
                files: input,
            });
        }
    }
    Ok((out, skipped))
}

/// The catalogue as of every release a matrix renders, each made once rather than per case.
#[derive(Debug)]
pub(crate) struct Catalogues {
    newest: Catalogue,
    older: BTreeMap<String, Catalogue>,
    /// `--cccmo-dir`: the checkout every release's built-in manifests come from.
    cccmo: Option<crate::catalogue::cccmo::Checkout>,
}

impl Catalogues {
    /// `newest` (the newest release's providers, plus any `--provider-dir` ones) and its form
    /// as of each of `releases`.
    pub(crate) fn new(newest: Catalogue, releases: &[&Release]) -> Result<Self> {
        let builtin = Releases::builtin()?;
        let mut older = BTreeMap::new();
        for release in releases {
            if release.name != builtin.newest().name {
                older.insert(
                    release.name.clone(),
                    builtin.catalogue(release, newest.clone())?,
                );
            }
        }
        Ok(Self {
            newest,
            older,
            cccmo: None,
        })
    }

    /// Every catalogue with the built-in providers' manifests from `checkout`, each evaluated
    /// for its release; the newest release's only when the matrix renders it (a checkout of an
    /// older release head need not evaluate as a newer one).
    pub(crate) fn with_cccmo(
        mut self,
        checkout: crate::catalogue::cccmo::Checkout,
        newest: bool,
    ) -> Result<Self> {
        let releases = Releases::builtin()?;
        if newest {
            crate::catalogue::cccmo::apply_checkout(
                &mut self.newest,
                &checkout,
                releases.newest(),
            )?;
        }
        for (name, catalogue) in &mut self.older {
            crate::catalogue::cccmo::apply_checkout(
                catalogue,
                &checkout,
                releases.find(name, "--release")?,
            )?;
        }
        self.cccmo = Some(checkout);
        Ok(self)
    }

    /// The newest release's catalogue.
    pub(crate) fn newest(&self) -> &Catalogue {
        &self.newest
    }
}

/// Renders one case as `render` would: load the inputs, take the catalogue as of the inputs'
/// release (`--release`, else the newest unless an `--inputs` images file names another),
/// check that they select the case's provider, render, lay out the files.
pub(crate) fn render_case(catalogues: &Catalogues, case: &Case) -> Result<Tree> {
    let cfg = ClusterConfig::load(&case.files)?;
    let releases = Releases::builtin()?;
    let as_of_release;
    let catalogue = if cfg.release.name == releases.newest().name {
        &catalogues.newest
    } else if let Some(catalogue) = catalogues.older.get(&cfg.release.name) {
        catalogue
    } else {
        let mut catalogue = releases.catalogue(cfg.release, catalogues.newest.clone())?;
        if let Some(checkout) = &catalogues.cccmo {
            crate::catalogue::cccmo::apply_checkout(&mut catalogue, checkout, cfg.release)?;
        }
        as_of_release = catalogue;
        &as_of_release
    };
    match catalogue.select_for(&cfg.infrastructure) {
        Selection::Provider(provider) if provider.name() == case.provider => {}
        Selection::Provider(other) => bail!(
            "{}: selects the provider {}, not {}",
            shown(case.files.infrastructure.as_ref()),
            other.name(),
            case.provider
        ),
        Selection::NoCcm(reason) => {
            bail!("{}: {reason}", shown(case.files.infrastructure.as_ref()))
        }
    }
    let rendered = super::pipeline::render_config(&cfg, catalogue)?;
    crate::output::tree(&rendered)
}

fn shown(path: Option<&Utf8PathBuf>) -> &str {
    path.map_or("--infrastructure", |p| p.as_str())
}

/// The releases `--release` (or the `--cccmo-dir` checkout) asks for, None for the newest
/// laid out as a matrix without `--release` does; the Go files to review of each said on stderr.
fn releases_to_render(
    args: &MatrixArgs,
    checkout: Option<&crate::catalogue::cccmo::Checkout>,
) -> Result<Option<Vec<&'static Release>>> {
    let releases = match checkout {
        // The checkout's release: the newest lays the cases out as a matrix without --release
        // does, an older one as --release X.Y does.
        Some(checkout) if args.release.is_empty() => {
            let builtin = Releases::builtin()?;
            let found = crate::catalogue::cccmo::release_for(builtin, checkout, None)?;
            super::term::say_checkout_release(&found, checkout);
            (found.release.name != builtin.newest().name).then(|| vec![found.release])
        }
        _ => chosen_releases(&args.release)?,
    };
    let rendered: Vec<&Release> = match &releases {
        Some(list) => list.clone(),
        None => vec![Releases::builtin()?.newest()],
    };
    for release in rendered {
        if let Some(warning) = super::pipeline::go_files_to_review(release) {
            super::term::say(&warning);
        }
    }
    Ok(releases)
}

/// `ccm-render matrix`.
pub(crate) fn run(args: &MatrixArgs) -> Result<ExitStatus> {
    let checkout = args
        .cccmo_dir
        .as_deref()
        .map(crate::catalogue::cccmo::Checkout::read)
        .transpose()?;
    let releases = releases_to_render(args, checkout.as_ref())?;
    crate::output::check_dest(&args.dest_dir)?;
    let catalogue = super::pipeline::load_catalogue(args.provider_dir.as_deref())?;
    if let Some(dir) = &args.inputs
        && !dir.is_dir()
    {
        bail!("--inputs {dir}: is not a directory");
    }
    let scratch = tempfile::tempdir().context("creating a temporary folder for the samples")?;
    let scratch_path = Utf8Path::from_path(scratch.path())
        .ok_or_else(|| anyhow!("the temporary folder has a name that is not UTF-8"))?;
    let (cases, skipped) = cases(
        &catalogue,
        releases.as_deref(),
        args.inputs.as_deref(),
        scratch_path,
    )?;
    let mut catalogues = Catalogues::new(catalogue, releases.as_deref().unwrap_or_default())?;
    if let Some(checkout) = checkout {
        let newest = Releases::builtin()?.newest();
        let renders_newest = releases
            .as_deref()
            .is_none_or(|list| list.iter().any(|r| r.name == newest.name));
        catalogues = catalogues.with_cccmo(checkout, renders_newest)?;
    }
    let jobs = workers::jobs(args.jobs);
    let trees = on_workers(jobs, &cases, |case| {
        render_case(&catalogues, case).with_context(|| format!("case {}", case.folder()))
    })?;
    for SkippedCase { provider, release } in &skipped {
        eprintln!(
            "ccm-render: note: provider {provider} is not rendered for {release}: its spec.releases does not name it"
        );
    }
    let hosted_cases = hosted::cases(scratch_path)?;
    let hosted_trees = on_workers(jobs, &hosted_cases, |case| {
        hosted::render_case(case).with_context(|| format!("case {}", case.folder))
    })?;
    let work: Vec<(Utf8PathBuf, Tree)> = cases
        .iter()
        .map(Case::folder)
        .zip(trees)
        .chain(
            hosted_cases
                .iter()
                .map(|c| c.folder.clone())
                .zip(hosted_trees),
        )
        .collect();
    if args.check || args.diff {
        return compare(args, jobs, &work);
    }
    let reports = write(&args.dest_dir, jobs, &work)?;
    let count = |f: fn(&crate::output::WriteReport) -> usize| reports.iter().map(f).sum::<usize>();
    eprintln!(
        "ccm-render: {} cases of {} providers and {} hosted cases in {} ({} files written, {} unchanged, {} removed)",
        cases.len(),
        catalogues.newest().providers.len(),
        hosted_cases.len(),
        args.dest_dir,
        count(|r| r.written.len()),
        count(|r| r.unchanged.len()),
        count(|r| r.removed.len()),
    );
    Ok(ExitStatus::Success)
}

/// Writes every case's tree into its folder under `dest_dir`, pruning what it no longer holds.
fn write(
    dest_dir: &Utf8Path,
    jobs: NonZeroUsize,
    work: &[(Utf8PathBuf, Tree)],
) -> Result<Vec<crate::output::WriteReport>> {
    // The folders above the case folders, made one at a time: the case updates that run at the
    // same time below would otherwise race to create them.
    let parents: std::collections::BTreeSet<Utf8PathBuf> = work
        .iter()
        .filter_map(|(folder, _)| folder.parent().map(Utf8Path::to_path_buf))
        .collect();
    for parent in parents {
        let dir = dest_dir.join(parent);
        std::fs::create_dir_all(&dir).with_context(|| format!("--dest-dir: creating {dir}"))?;
    }
    on_workers(jobs, work, |(folder, tree)| {
        crate::output::apply(tree, &dest_dir.join(folder), true)
    })
}

/// `--check` and `--diff`: compare every case with its folder, print the files and the cases a
/// change touches, write nothing.
fn compare(
    args: &MatrixArgs,
    jobs: NonZeroUsize,
    work: &[(Utf8PathBuf, Tree)],
) -> Result<ExitStatus> {
    let plans = on_workers(jobs, work, |(folder, tree)| {
        crate::output::plan(tree, &args.dest_dir.join(folder), true)
    })?;
    let mut all = Plan::default();
    let mut diffs = String::new();
    let colour = args.diff && {
        use std::io::IsTerminal as _;
        args.color.enabled(
            std::io::stdout().is_terminal(),
            std::env::var_os("NO_COLOR").as_deref(),
        )
    };
    let mut touched = Vec::new();
    for ((folder, _), plan) in work.iter().zip(plans) {
        if plan.has_changes() {
            touched.push(folder.clone());
        }
        if args.diff {
            // Per case, so that redaction still sees the paths a render writes.
            diffs.push_str(&crate::output::diff::unified_in(
                &plan,
                folder.as_str(),
                colour,
            ));
        }
        all.missing_folders
            .extend(plan.missing_folders.iter().map(|f| folder.join(f)));
        for mut entry in plan.entries {
            entry.path = folder.join(&entry.path);
            all.entries.push(entry);
        }
    }
    if args.diff {
        super::term::print_stdout(diffs.as_bytes())?;
    } else {
        super::term::print_stdout(crate::output::diff::check_list(&all).as_bytes())?;
    }
    let files = all
        .entries
        .iter()
        .filter(|e| e.change != Change::Unchanged)
        .count();
    if touched.is_empty() {
        let held = format!("{} cases", work.len());
        say_checked(args.dest_dir.as_str(), None, &Checked::UpToDate(&held));
        return Ok(ExitStatus::Success);
    }
    // Per provider, or per release and provider (`4.21/aws`) with --release.
    let mut by_provider: BTreeMap<&str, usize> = BTreeMap::new();
    for case in &touched {
        *by_provider
            .entry(case.parent().map_or("", Utf8Path::as_str))
            .or_default() += 1;
    }
    let changes = format!(
        "{} of {} cases would change ({files} files; {})",
        touched.len(),
        work.len(),
        by_provider
            .iter()
            .map(|(p, n)| format!("{p}: {n}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    say_checked(args.dest_dir.as_str(), None, &Checked::OutOfDate(&changes));
    for case in &touched {
        eprintln!("  {case}");
    }
    Ok(ExitStatus::Drift)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn there_are_sixteen_variants_with_stable_names() {
        let names: Vec<String> = variants().iter().map(|v| variant_name(v)).collect();
        assert_eq!(names.len(), 16);
        assert_eq!(names[0], "ha-noproxy-intermediate-default");
        assert_eq!(names[1], "ha-noproxy-intermediate-techpreview");
        assert_eq!(names[15], "sno-proxy-modern-techpreview");
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), 16);
    }

    #[test]
    fn release_all_is_every_release_oldest_first_and_each_once() {
        let all = chosen_releases(&["4.21".into(), "all".into(), "5.0".into()])
            .expect("chosen")
            .expect("some");
        let names: Vec<&str> = all.iter().map(|r| r.name.as_str()).collect();
        let mut want: Vec<&str> = Releases::builtin()
            .expect("releases")
            .all()
            .iter()
            .map(|r| r.name.as_str())
            .collect();
        want.reverse();
        assert_eq!(names, want);
        assert!(chosen_releases(&[]).expect("none").is_none());
        let err = chosen_releases(&["4.99".into()]).expect_err("unknown");
        assert!(format!("{err:#}").starts_with("--release: 4.99"), "{err}");
    }

    #[test]
    fn every_built_in_case_renders_its_own_provider() {
        let catalogue = Catalogue::builtin().expect("loads");
        let dir = tempfile::tempdir().expect("tempdir");
        let scratch = Utf8Path::from_path(dir.path()).expect("utf8");
        let (cases, skipped) = cases(&catalogue, None, None, scratch).expect("cases");
        assert!(skipped.is_empty());
        assert_eq!(cases.len(), catalogue.providers.len() * 16);
        let catalogues = Catalogues::new(catalogue, &[]).expect("catalogues");
        let trees = on_workers(workers::jobs(None), &cases, |case| {
            render_case(&catalogues, case)
        })
        .expect("renders");
        for (case, tree) in cases.iter().zip(&trees) {
            assert!(
                tree.files.keys().any(|p| p.starts_with("manifests")),
                "{}: no manifests",
                case.folder()
            );
        }
    }
}
