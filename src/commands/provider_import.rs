//! `ccm-render provider import --cccmo-dir DIR --release X.Y [--assets PATH]`: brings the
//! catalogue under `assets/` to what a CCCMO checkout holds for release X.Y, and lists what it
//! cannot bring (a change of CCCMO's Go code, which a person carries into ccm-render by hand).
//!
//! The newest release's providers are the files `assets/<provider>/manifests/*.yaml`: a file
//! whose object the checkout changes is rewritten, a new object gets a file, an object the
//! checkout no longer has loses its file; a file whose object is unchanged is left as it is
//! (byte for byte, whatever its key order or quoting), so importing the release head the
//! catalogue was made from changes nothing. An older release's providers are a delta of the
//! next release's (`assets/releases/X.Y.yaml`); where the checkout differs from them, the
//! difference is listed for a person to write as a delta. Everything is evaluated and checked
//! before the first file is written: a template ccm-render cannot evaluate, an object a
//! provider may not hold, or manifests that an older release's delta no longer fits, is an
//! error and leaves `assets/` as it was.

use crate::catalogue::cccmo::{Checkout, catalogue_file_name, checked, evaluate};
use anyhow::{Context as _, Result, anyhow, bail};
use camino::{Utf8Path, Utf8PathBuf};
use ccm_catalogue::compiled;
use ccm_catalogue::provider_dir::{FolderText, read_folder, read_folders};
use ccm_catalogue::providers::{Common, Provider};
use ccm_catalogue::releases::data::{self, ReleaseEntry};
use serde_json::Value;
use std::collections::BTreeMap;

/// What an import did and what it left to a person.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// The release imported (`X.Y`).
    pub release: String,
    /// Files written (new or changed).
    pub written: Vec<Utf8PathBuf>,
    /// Files removed.
    pub removed: Vec<Utf8PathBuf>,
    /// What could not be imported, one line per file.
    pub not_imported: Vec<String>,
}

/// `value` with the keys of every mapping sorted, as the catalogue's files hold them.
pub fn sorted(value: &Value) -> Value {
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

/// The catalogue under `assets`, read and resolved as build.rs compiles it.
struct Assets {
    providers: Vec<Provider>,
    common: Common,
    releases_folder: FolderText,
    resolved: data::Resolved,
}

fn read_assets(assets: &Utf8Path) -> Result<Assets> {
    if !assets.join(compiled::RELEASES).is_dir() {
        bail!(
            "--assets {assets}: not ccm-render's assets folder (no {} folder); run at the root of ccm-render's repository or give --assets PATH",
            compiled::RELEASES
        );
    }
    let mut providers = Vec::new();
    let mut common = None;
    for folder in read_folders(assets)? {
        match folder.name() {
            compiled::COMMON => common = Some(ccm_catalogue::providers::parse_common(&folder)?),
            compiled::RELEASES | ccm_catalogue::hosted::HOSTED => {}
            _ => providers.push(ccm_catalogue::providers::parse(&folder)?),
        }
    }
    let common = common.ok_or_else(|| anyhow!("{assets}/{}: is missing", compiled::COMMON))?;
    let releases_folder = read_folder(&assets.join(compiled::RELEASES))?;
    let resolved = data::resolve(&releases_folder, &providers, &common)?;
    Ok(Assets {
        providers,
        common,
        releases_folder,
        resolved,
    })
}

/// The release `wanted` names among the catalogue's.
fn find_release<'a>(assets: &'a Assets, wanted: &str, at: &Utf8Path) -> Result<&'a ReleaseEntry> {
    let minor = data::minor_of(wanted)
        .map(|(x, y)| format!("{x}.{y}"))
        .ok_or_else(|| anyhow!("--release {wanted:?}: not a release (X.Y)"))?;
    assets
        .resolved
        .releases
        .iter()
        .find(|r| r.name == minor || r.aliases.contains(&minor))
        .ok_or_else(|| {
            let names: Vec<&str> = assets
                .resolved
                .releases
                .iter()
                .map(|r| r.name.as_str())
                .collect();
            anyhow!(
                "--release {wanted}: not a release of {at}/{} ({}); a new release starts as a file there",
                compiled::RELEASES,
                names.join(", ")
            )
        })
}

/// Imports the checkout at `cccmo_dir` as release `release` into the catalogue at `assets`.
pub fn import(cccmo_dir: &Utf8Path, release: &str, assets: &Utf8Path) -> Result<Report> {
    let checkout = Checkout::read(cccmo_dir)?;
    let catalogue = read_assets(assets)?;
    let entry = find_release(&catalogue, release, assets)?;
    let newest = catalogue.resolved.releases.first().map(|r| r.name.as_str()) == Some(&entry.name);
    let evaluated = evaluate(&checkout, &entry.name)?;
    let mut report = Report {
        release: entry.name.clone(),
        ..Report::default()
    };
    // The release's providers as the catalogue has them.
    let mut current: BTreeMap<&str, &Provider> =
        catalogue.providers.iter().map(|p| (p.name(), p)).collect();
    for (name, provider) in &catalogue.resolved.providers {
        if *name == entry.name {
            current.insert(provider.name(), provider);
        }
    }
    let mut writes: Vec<(Utf8PathBuf, String)> = Vec::new();
    let mut new_providers = catalogue.providers.clone();
    for (name, objects) in &evaluated {
        let Some(provider) = current.get(name.as_str()) else {
            bail!("{assets}/{name}: is missing (the checkout has its platform)");
        };
        let imported = checked(provider, objects)?;
        if newest {
            plan_files(assets, name, &imported.manifests, &mut writes, &mut report)?;
            if let Some(p) = new_providers.iter_mut().find(|p| p.name() == name) {
                p.manifests = imported.manifests;
            }
        } else {
            list_delta(assets, &entry.name, provider, &imported, &mut report);
        }
    }
    if newest && !(writes.is_empty() && report.removed.is_empty()) {
        data::resolve(
            &catalogue.releases_folder,
            &new_providers,
            &catalogue.common,
        )
        .map_err(|e| {
            anyhow!("the checkout's manifests no longer fit an older release's delta: {e}")
        })?;
    }
    let release_file = format!("{assets}/{}/{}.yaml", compiled::RELEASES, entry.name);
    for change in checkout.go_changes(&entry.cccmo.go_files) {
        let path = change.split(' ').next().unwrap_or_default();
        let digest = checkout
            .go_files
            .get(path)
            .map_or_else(String::new, |d| format!(" {d}"));
        report.not_imported.push(format!(
            "{}: {change}{digest}: CCCMO's Go code, carried into ccm-render by hand; then record it under spec.cccmo.goFiles of {release_file}",
            checkout.display(path)
        ));
    }
    for (path, text) in &writes {
        write(path, text)?;
    }
    for path in &report.removed {
        std::fs::remove_file(path).with_context(|| format!("{path}: cannot remove"))?;
    }
    report.written = writes.into_iter().map(|(p, _)| p).collect();
    Ok(report)
}

/// The files of the newest release's provider `name` that the objects change.
fn plan_files(
    assets: &Utf8Path,
    name: &str,
    objects: &[Value],
    writes: &mut Vec<(Utf8PathBuf, String)>,
    report: &mut Report,
) -> Result<()> {
    let dir = assets.join(name).join("manifests");
    let mut existing: BTreeMap<String, Value> = BTreeMap::new();
    for (file, text) in read_folder(&dir)?.files {
        let object = ccm_catalogue::providers::one_object(&text)
            .map_err(|e| anyhow!("{dir}/{file}: {e}"))?;
        existing.insert(file, object);
    }
    let mut wanted = std::collections::BTreeSet::new();
    for object in objects {
        let file = catalogue_file_name(object);
        if existing.get(&file) != Some(object) {
            writes.push((
                dir.join(&file),
                ccm_catalogue::yaml::to_string(&sorted(object))?,
            ));
        }
        wanted.insert(file);
    }
    for file in existing.keys().filter(|f| !wanted.contains(*f)) {
        report.removed.push(dir.join(file));
    }
    Ok(())
}

/// An older release: what the checkout changes in its provider, for a person to write as a
/// delta.
fn list_delta(
    assets: &Utf8Path,
    release: &str,
    provider: &Provider,
    imported: &Provider,
    report: &mut Report,
) {
    let id = ccm_catalogue::releases::delta::object_id;
    let at = format!(
        "{assets}/{}/{release}.yaml: spec.providers.{}",
        compiled::RELEASES,
        provider.name()
    );
    let old: BTreeMap<String, &Value> = provider.manifests.iter().map(|o| (id(o), o)).collect();
    let new: BTreeMap<String, &Value> = imported.manifests.iter().map(|o| (id(o), o)).collect();
    for (object, value) in &new {
        match old.get(object) {
            None => report.not_imported.push(format!(
                "{at}: {object} is new in the checkout; an older release's objects are a delta of the next release's, written by hand"
            )),
            Some(was) if was != value => report.not_imported.push(format!(
                "{at}: {object} differs in the checkout; an older release's objects are a delta of the next release's, written by hand"
            )),
            Some(_) => {}
        }
    }
    for object in old.keys().filter(|o| !new.contains_key(*o)) {
        report.not_imported.push(format!(
            "{at}: {object} is not in the checkout; an older release's objects are a delta of the next release's, written by hand"
        ));
    }
}

/// Writes `text` to `path` through a temporary file beside it, so that a failed write never
/// leaves half a manifest in the catalogue.
fn write(path: &Utf8Path, text: &str) -> Result<()> {
    let dir = path
        .parent()
        .ok_or_else(|| anyhow!("{path}: has no folder"))?;
    let mut file =
        tempfile::NamedTempFile::new_in(dir).with_context(|| format!("{path}: cannot write"))?;
    std::io::Write::write_all(&mut file, text.as_bytes())
        .with_context(|| format!("{path}: cannot write"))?;
    file.persist(path)
        .map_err(|e| anyhow!("{path}: cannot write: {}", e.error))?;
    Ok(())
}

/// `ccm-render provider import`: imports, says on stderr what changed, and lists on stdout
/// what was not imported (exit status 1 when anything was not).
pub fn run(
    cccmo_dir: &Utf8Path,
    release: &str,
    assets: &Utf8Path,
) -> Result<super::exit::ExitStatus> {
    let report = import(cccmo_dir, release, assets)?;
    for path in &report.written {
        eprintln!("ccm-render: wrote {path}");
    }
    for path in &report.removed {
        eprintln!("ccm-render: removed {path}");
    }
    eprintln!(
        "ccm-render: imported {cccmo_dir} as release {} into {assets}: {} files written, {} removed, {} things not imported",
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
