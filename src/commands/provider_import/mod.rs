//! `ccm-render provider import --cccmo-dir DIR --release X.Y [--assets PATH]`: brings the
//! catalogue under `assets/` to what a CCCMO checkout holds for release X.Y, records the
//! checkout's Go files, and lists what it cannot bring (a change of CCCMO's Go code, which a
//! person carries into ccm-render by hand).
//!
//! The newest release's providers are the files `assets/<provider>/manifests/*.yaml`: a file
//! whose object the checkout changes is rewritten, a new object gets a file, an object the
//! checkout no longer has loses its file; a file whose object is unchanged is left as it is
//! (byte for byte, whatever its key order or quoting), so importing the release head the
//! catalogue was made from changes nothing. An older release's providers are a delta of the
//! next release's (`assets/releases/X.Y.yaml`); the import writes the manifest part of the
//! deltas on either side of the release it imports ([`ccm_catalogue::releases::diff`]), so
//! every other release renders as before. A release newer than the newest becomes the newest:
//! its manifests are the provider folders, today's newest turns into a delta, and its release
//! file records the checkout's commit and Go files, the behaviour carried over unchanged until
//! a person reviews the Go files that changed ([`release_files`]).
//!
//! Everything is evaluated, laid into a copy of `assets/` and read back through build.rs's
//! checks before the first file is written ([`assets::staged`], [`assets::check`]): a template
//! ccm-render cannot evaluate, an object a provider may not hold, or a difference a delta
//! cannot express, is an error and leaves `assets/` as it was.

mod assets;
mod facts;
mod release_file;
mod release_files;
mod report;

use crate::catalogue::cccmo::{Checkout, catalogue_file_name, checked, evaluate};
use anyhow::{Context as _, Result, anyhow, bail};
use assets::{Expected, Manifests, Plan, ReleaseState};
use camino::{Utf8Path, Utf8PathBuf};
use ccm_catalogue::compiled;
use ccm_catalogue::provider_dir::read_folder;
use ccm_catalogue::releases::data;
pub(crate) use facts::Told;
pub(crate) use report::Report;
use serde_json::Value;
use std::collections::BTreeMap;

/// Where the imported release goes among the catalogue's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    /// Newer than the newest: added as the newest.
    New,
    /// The release at this index (newest first).
    Existing(usize),
}

/// `value` with the keys of every mapping sorted, as the catalogue's files hold them.
pub(crate) fn sorted(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            Value::Object(
                keys.into_iter()
                    .map(|k| (k.clone(), sorted(&map[k])))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
        other => other.clone(),
    }
}

/// `--release`: exactly `X.Y`.
fn release_arg(release: &str) -> Result<String> {
    match data::minor_of(release) {
        Some(version) if version.to_string() == release => Ok(release.to_string()),
        _ => bail!("--release {release:?}: not a release (X.Y)"),
    }
}

/// Where `wanted` goes among `releases` (newest first): one of them (by name or alias), or a
/// new newest one; older than the oldest, or between two, is refused.
fn target(releases: &[ReleaseState], wanted: &str, assets: &Utf8Path) -> Result<Target> {
    if let Some(i) = releases
        .iter()
        .position(|r| r.entry.name == wanted || r.entry.aliases.iter().any(|a| a == wanted))
    {
        return Ok(Target::Existing(i));
    }
    let version = data::version_of(wanted);
    let (Some(newest), Some(oldest)) = (releases.first(), releases.last()) else {
        bail!("{assets}/{}: no release", compiled::RELEASES);
    };
    if version > data::version_of(&newest.entry.name) {
        return Ok(Target::New);
    }
    let names: Vec<&str> = releases
        .iter()
        .rev()
        .map(|r| r.entry.name.as_str())
        .collect();
    if version < data::version_of(&oldest.entry.name) {
        bail!(
            "--release {wanted}: older than the oldest release of {assets}/{} ({}); ccm-render keeps no release before it",
            compiled::RELEASES,
            oldest.entry.name
        );
    }
    bail!(
        "--release {wanted}: not a release of {assets}/{} ({}); a release is added only as the newest",
        compiled::RELEASES,
        names.join(", ")
    )
}

/// Imports the checkout at `cccmo_dir` as release `release` into the catalogue at `assets`.
pub(crate) fn import(
    cccmo_dir: &Utf8Path,
    release: &str,
    assets: &Utf8Path,
    told: &Told,
) -> Result<Report> {
    let wanted = release_arg(release)?;
    let facts = facts::facts(cccmo_dir, told)?;
    let checkout = Checkout::read(cccmo_dir)?;
    let catalogue = assets::read(assets)?;
    let before = catalogue.releases();
    let target = target(&before, &wanted, assets)?;
    let at = match target {
        Target::New => 0,
        Target::Existing(i) => i,
    };
    let name = match target {
        Target::New => wanted,
        Target::Existing(i) => before[i].entry.name.clone(),
    };
    let evaluated = evaluate(&checkout, &name)?;
    let base = &before[at];
    let mut plan = Plan::default();
    let mut manifests: Vec<Manifests> = before.iter().map(ReleaseState::manifests).collect();
    let mut from: Vec<usize> = (0..before.len()).collect();
    if target == Target::New {
        manifests.insert(0, manifests[0].clone());
        from.insert(0, 0);
    }
    for (provider_name, objects) in &evaluated {
        let Some(provider) = base.providers.get(provider_name) else {
            bail!("{assets}/{provider_name}: is missing (the checkout has its platform)");
        };
        let imported = checked(provider, objects)?.manifests;
        let held = if at == 0 {
            plan_files(assets, provider_name, &imported, &mut plan)?
        } else {
            imported
        };
        manifests[at].insert(provider_name.clone(), held);
    }
    let mut names: Vec<String> = before.iter().map(|r| r.entry.name.clone()).collect();
    if target == Target::New {
        names.insert(0, name.clone());
    }
    let expected = Expected {
        names,
        manifests: &manifests,
        from,
        before: &before,
    };
    let mut report = Report {
        release: name,
        added: target == Target::New,
        ..Report::default()
    };
    let import = release_files::Import {
        expected: &expected,
        at,
        checkout: &checkout,
        facts: &facts,
        assets,
    };
    let files = release_files::write(&catalogue, import, &mut report)?;
    for (release, text) in files {
        plan.writes.insert(
            Utf8PathBuf::from(compiled::RELEASES).join(format!("{release}.yaml")),
            text,
        );
    }
    let after = assets::staged(assets, &plan)?;
    assets::check(&after, &expected, assets)?;
    apply(assets, &plan, &mut report)?;
    Ok(report)
}

/// Writes and removes the files of `plan` under `assets`.
fn apply(assets: &Utf8Path, plan: &Plan, report: &mut Report) -> Result<()> {
    for (path, text) in &plan.writes {
        let path = assets.join(path);
        if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            write(&path, text)?;
            report.written.push(path);
        }
    }
    for path in &plan.removes {
        let path = assets.join(path);
        std::fs::remove_file(&path).with_context(|| format!("{path}: cannot remove"))?;
        report.removed.push(path);
    }
    Ok(())
}

/// Plans the files of the newest release's provider `name` that `objects` change, and returns
/// the manifests as those files will hold them: an object the catalogue has (in any key order)
/// as its file holds it, another one with its keys sorted.
fn plan_files(
    assets: &Utf8Path,
    name: &str,
    objects: &[Value],
    plan: &mut Plan,
) -> Result<Vec<Value>> {
    let dir = Utf8PathBuf::from(name).join("manifests");
    let mut existing: BTreeMap<String, Value> = BTreeMap::new();
    for (file, text) in read_folder(&assets.join(&dir))?.files {
        let object = ccm_catalogue::providers::one_object(&text)
            .with_context(|| format!("{assets}/{dir}/{file}"))?;
        existing.insert(file, object);
    }
    let mut held = Vec::new();
    let mut wanted = std::collections::BTreeSet::new();
    for object in objects {
        let file = catalogue_file_name(object);
        match existing.get(&file) {
            Some(was) if was == object => held.push(was.clone()),
            _ => {
                let object = sorted(object);
                plan.writes
                    .insert(dir.join(&file), ccm_catalogue::yaml::to_string(&object)?);
                held.push(object);
            }
        }
        wanted.insert(file);
    }
    for file in existing.keys().filter(|f| !wanted.contains(*f)) {
        plan.removes.push(dir.join(file));
    }
    Ok(held)
}

/// Writes `text` to `path` through a temporary file beside it, so that a failed write never
/// leaves half a file in the catalogue.
fn write(path: &Utf8Path, text: &str) -> Result<()> {
    let dir = path
        .parent()
        .ok_or_else(|| anyhow!("{path}: has no folder"))?;
    let mut file =
        tempfile::NamedTempFile::new_in(dir).with_context(|| format!("{path}: cannot write"))?;
    std::io::Write::write_all(&mut file, text.as_bytes())
        .with_context(|| format!("{path}: cannot write"))?;
    file.persist(path)
        .map_err(|e| e.error)
        .with_context(|| format!("{path}: cannot write"))?;
    Ok(())
}

/// `ccm-render provider import`: imports, says on stderr what changed, and lists on stdout
/// what was not imported (exit status 1 when anything was not).
pub(crate) fn run(
    cccmo_dir: &Utf8Path,
    release: &str,
    assets: &Utf8Path,
    told: &Told,
) -> Result<super::exit::ExitStatus> {
    let report = import(cccmo_dir, release, assets, told)?;
    for path in &report.written {
        eprintln!("ccm-render: wrote {path}");
    }
    for path in &report.removed {
        eprintln!("ccm-render: removed {path}");
    }
    let what = if report.added {
        "added the new newest release"
    } else {
        "imported release"
    };
    eprintln!(
        "ccm-render: {what} {} from {cccmo_dir} into {assets}: {} files written, {} removed, {} things not imported",
        report.release,
        report.written.len(),
        report.removed.len(),
        report.not_imported.len()
    );
    let mut out = String::new();
    for line in &report.not_imported {
        out.push_str(line);
        out.push('\n');
    }
    super::term::print_stdout(out.as_bytes())?;
    Ok(if report.not_imported.is_empty() {
        super::exit::ExitStatus::Success
    } else {
        super::exit::ExitStatus::Drift
    })
}
