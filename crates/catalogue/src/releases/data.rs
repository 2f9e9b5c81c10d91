//! The release files (`assets/releases/<X.Y>.yaml`) as data, and the providers of each release:
//! parsing and checking the files, resolving each release's behaviour, and applying each
//! release's delta to the next release's providers, checked by the rules every provider
//! follows. Pure. build.rs runs it (see `compiled.rs`), so a broken release file
//! fails the build naming the file and the field, and a render decodes a release's providers
//! as cheaply as the newest's; this file therefore uses only `crate::` modules build.rs has.

use crate::provider_dir::FolderText;
use crate::providers::{Common, LocatedObject, Parsed, Provider, check_parsed};
use crate::releases::behaviour::Behaviour;
use crate::releases::delta::{self, CommonDelta, ProviderDelta};
use anyhow::{Context as _, Result, anyhow, bail};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// A release file's `apiVersion`.
const API_VERSION: &str = crate::providers::API_VERSION;

/// The key of a release's [`Release`] in the compiled table: `release/<X.Y>`.
pub const RELEASE: &str = "release/";
/// The key prefix of an older release's shared objects: `release-common/<X.Y>`.
pub const RELEASE_COMMON: &str = "release-common/";
/// The key prefix of an older release's provider descriptor: `release-provider/<X.Y>/<name>`,
/// for each provider a delta of that release or a newer one changed.
pub const RELEASE_PROVIDER: &str = "release-provider/";
/// The key prefix of its objects: `release-objects/<X.Y>/<name>`.
pub const RELEASE_OBJECTS: &str = "release-objects/";
/// The key of a release's CCCMO Go-file digests ([`Cccmo::go_files`]): `release-go-files/<X.Y>`.
pub const RELEASE_GO_FILES: &str = "release-go-files/";

/// One release, resolved: what `ccm-render releases` shows and what the render reads.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub struct Release {
    /// `X.Y`.
    pub name: String,
    /// Its file (`assets/releases/4.22.yaml`), for messages.
    pub origin: String,
    /// The CCCMO commit reproduced.
    pub cccmo: Cccmo,
    /// Other versions that render as this release (`5.0`, `5.1` for the newest).
    pub aliases: Vec<String>,
    /// What upgrading from this release to the next one changes (empty for the newest).
    pub upgrade: Vec<String>,
    /// The CCCMO Go files of this release that changed since the release before it and that
    /// no one has yet recorded as carried into ccm-render ([`Cccmo::go_files_to_review`]): a
    /// render of the release names them on stderr.
    pub go_files_to_review: Vec<String>,
    /// Its behaviour, resolved.
    pub behaviour: Behaviour,
}

/// A release's `X.Y` as numbers, ordered as releases are (4.9 before 4.18).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version {
    /// `X` (compared first, so the field order is the ordering).
    pub major: u32,
    /// `Y`.
    pub minor: u32,
}

impl Version {
    /// `major.minor`.
    pub const fn new(major: u32, minor: u32) -> Self {
        Self { major, minor }
    }
}

impl std::fmt::Display for Version {
    /// `X.Y`, as a release is named.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// How a release's objects differ from the next release's.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Delta {
    /// The shared objects.
    pub(crate) common: CommonDelta,
    /// Provider by provider.
    pub providers: BTreeMap<String, ProviderDelta>,
}

/// Every release with its shared objects and the providers that differ from the newest's.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Resolved {
    /// Every release, newest first.
    pub releases: Vec<Release>,
    /// Each older release's shared objects, by release.
    pub common: Vec<(String, Common)>,
    /// Each older release's providers that a delta changed, by release.
    pub providers: Vec<(String, Provider)>,
}

/// Parses the folder of release files and resolves every release's providers from `providers`
/// and `common` (the newest release's, as parsed from `assets/`).
pub fn resolve(folder: &FolderText, providers: &[Provider], common: &Common) -> Result<Resolved> {
    let files: Vec<(String, &str)> = folder
        .files
        .iter()
        .filter(|(path, _)| {
            !std::path::Path::new(path)
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("md"))
        })
        .map(|(path, text)| (format!("{}/{path}", folder.origin), text.as_str()))
        .collect();
    let list = parse_releases(&files)?;
    let mut resolved = Resolved::default();
    let mut current: BTreeMap<String, Provider> = providers
        .iter()
        .map(|p| (p.name().to_string(), p.clone()))
        .collect();
    let mut changed = std::collections::BTreeSet::new();
    let mut common = common.clone();
    for (i, (release, delta)) in list.iter().enumerate() {
        if i > 0 {
            apply(release, delta, &mut common, &mut current)?;
            changed.extend(delta.providers.keys().cloned());
            resolved.common.push((release.name.clone(), common.clone()));
            for name in &changed {
                resolved
                    .providers
                    .push((release.name.clone(), current[name].clone()));
            }
        }
        resolved.releases.push(release.clone());
    }
    Ok(resolved)
}

/// Applies one release's delta to the next release's shared objects and providers.
fn apply(
    release: &Release,
    delta: &Delta,
    common: &mut Common,
    providers: &mut BTreeMap<String, Provider>,
) -> Result<()> {
    let at = |field: &str| format!("{}: spec.{field}", release.origin);
    delta::apply_ops(
        &mut common.pod_disruption_budget,
        &delta.common.pod_disruption_budget,
    )
    .with_context(|| at("common.podDisruptionBudget"))?;
    delta::apply_ops(&mut common.service, &delta.common.service)
        .with_context(|| at("common.service"))?;
    for (name, provider_delta) in &delta.providers {
        let field = at(&format!("providers.{name}"));
        let Some(provider) = providers.get(name) else {
            bail!("{field}: no built-in provider {name}");
        };
        let mut descriptor = serde_json::to_value(&provider.descriptor)?;
        let label = |object: &Value| format!("{field}: {}", delta::object_id(object));
        let located = |objects: &[Value]| -> Vec<LocatedObject> {
            objects
                .iter()
                .map(|o| LocatedObject {
                    at: label(o),
                    object: o.clone(),
                })
                .collect()
        };
        let mut manifests = located(&provider.manifests);
        let mut bootstrap = located(&provider.bootstrap);
        delta::apply_provider(
            provider_delta,
            &mut descriptor,
            [&mut manifests, &mut bootstrap],
        )
        .with_context(|| field.clone())?;
        let descriptor_at = format!("{field}: provider.yaml");
        let checked = check_parsed(&Parsed {
            folder: name,
            origin: &provider.origin,
            descriptor_at: &descriptor_at,
            descriptor: &descriptor,
            manifests: &manifests,
            bootstrap: &bootstrap,
            release: Some(&release.name),
        })?;
        // Which provider renders a cluster is chosen on the newest descriptors.
        let (old, new) = (provider.spec(), checked.spec());
        if (
            &old.platform,
            &old.azure_cloud_name,
            &old.external_platform_name,
        ) != (
            &new.platform,
            &new.azure_cloud_name,
            &new.external_platform_name,
        ) {
            bail!(
                "{descriptor_at}: spec: a release may not change what a provider serves (platform, azureCloudName, externalPlatformName)"
            );
        }
        providers.insert(name.clone(), checked);
    }
    Ok(())
}

/// A release file (`assets/releases/<X.Y>.yaml`). Unknown fields are errors.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ReleaseFile {
    api_version: String,
    kind: String,
    metadata: ReleaseMetadata,
    spec: ReleaseSpec,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ReleaseMetadata {
    name: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ReleaseSpec {
    cccmo: Cccmo,
    #[serde(default)]
    aliases: Vec<String>,
    #[serde(default)]
    upgrade: Vec<String>,
    #[serde(default)]
    behaviour: Option<Value>,
    #[serde(default)]
    common: CommonDelta,
    #[serde(default)]
    providers: BTreeMap<String, ProviderDelta>,
}

/// The CCCMO commit a release reproduces.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Cccmo {
    /// The branch (`release-4.22`).
    pub branch: String,
    /// The branch head reproduced (short hash).
    pub commit: String,
    /// Its date.
    pub date: String,
    /// Every Go file of the commit's `pkg/cloud/` but tests → its digest
    /// (`crate::cccmo::checkout::digest`): what `--cccmo-dir` tells the release by, and what
    /// `provider import` compares. Compiled under a key of its own ([`RELEASE_GO_FILES`]), not
    /// with the release: every render decodes every release entry, and only `--cccmo-dir` and
    /// `provider import` read these (nor does `ccm-render releases --output json` show them).
    #[serde(default, rename = "goFiles", skip_serializing)]
    pub go_files: BTreeMap<String, String>,
    /// Go files of [`Cccmo::go_files`] that changed since the release before and that a
    /// person has not yet reviewed (`provider import` lists them; a person carries each change
    /// into ccm-render, or finds none to carry, and deletes its line). Compiled into
    /// [`Release::go_files_to_review`].
    #[serde(default, rename = "goFilesToReview", skip_serializing)]
    pub go_files_to_review: Vec<String>,
}

/// Parses and checks release files (origin, text), newest first, each with its behaviour
/// resolved; pure.
pub fn parse_releases(files: &[(String, &str)]) -> Result<Vec<(Release, Delta)>> {
    let mut parsed = files
        .iter()
        .map(|(origin, text)| parse_file(origin, text).map(|(v, f)| (v, origin.clone(), f)))
        .collect::<Result<Vec<_>>>()?;
    parsed.sort_by_key(|(version, _, _)| std::cmp::Reverse(*version));
    let mut list: Vec<(Release, Delta)> = Vec::new();
    let mut behaviour: Option<Value> = None;
    for (i, (_, origin, file)) in parsed.into_iter().enumerate() {
        let spec = file.spec;
        let is_newest = i == 0;
        let resolved = match (behaviour.take(), spec.behaviour) {
            (None, Some(full)) => full,
            (None, None) => bail!("{origin}: spec.behaviour: the newest release states it all"),
            (Some(base), None) => base,
            (Some(mut base), Some(changes)) => {
                merge(&mut base, changes);
                base
            }
        };
        let checked: Behaviour = crate::json_fields::decode(&resolved).map_err(|e| {
            let path = e.path();
            let path = if path == "." {
                String::new()
            } else {
                format!(".{path}")
            };
            anyhow::Error::new(e).context(format!("{origin}: spec.behaviour{path}"))
        })?;
        for gate in checked.feature_sets.keys() {
            if !crate::features::is_tabled(gate) {
                bail!("{origin}: spec.behaviour.featureSets.{gate}: not a gate ccm-render reads");
            }
        }
        if is_newest && !spec.upgrade.is_empty() {
            bail!("{origin}: spec.upgrade: the newest release has no next release");
        }
        if !is_newest && spec.upgrade.is_empty() {
            bail!(
                "{origin}: spec.upgrade: say what upgrading to the next release changes (\"nothing ccm-render renders\" if so)"
            );
        }
        for alias in &spec.aliases {
            if minor_of(alias).is_none() {
                bail!("{origin}: spec.aliases: {alias:?} is not X.Y");
            }
        }
        if is_newest && (spec.common != CommonDelta::default() || !spec.providers.is_empty()) {
            bail!(
                "{origin}: spec: the newest release is assets/<provider>/ itself; it has no delta"
            );
        }
        behaviour = Some(resolved);
        list.push((
            Release {
                name: file.metadata.name,
                origin,
                go_files_to_review: spec.cccmo.go_files_to_review.clone(),
                cccmo: spec.cccmo,
                aliases: spec.aliases,
                upgrade: spec.upgrade,
                behaviour: checked,
            },
            Delta {
                common: spec.common,
                providers: spec.providers,
            },
        ));
    }
    if list.is_empty() {
        bail!("assets/releases: no release");
    }
    check_aliases(&list)?;
    Ok(list)
}

fn check_aliases(list: &[(Release, Delta)]) -> Result<()> {
    let mut seen = BTreeMap::new();
    for (release, _) in list {
        for name in std::iter::once(&release.name).chain(&release.aliases) {
            if let Some(other) = seen.insert(name.clone(), &release.origin) {
                bail!("{}: {name} is also {other}", release.origin);
            }
        }
    }
    Ok(())
}

/// Parses one release file and checks its header; returns its version.
fn parse_file(origin: &str, text: &str) -> Result<(Version, ReleaseFile)> {
    let Some(stem) = origin
        .rsplit('/')
        .next()
        .and_then(|n| n.strip_suffix(".yaml"))
    else {
        bail!("{origin}: not a release file (assets/releases/<X.Y>.yaml)");
    };
    let value =
        crate::yaml::one_document(text).with_context(|| format!("{origin}: not valid YAML"))?;
    let file: ReleaseFile = crate::json_fields::typed(&value, camino::Utf8Path::new(origin))?;
    if file.api_version != API_VERSION {
        bail!("{origin}: apiVersion: must be {API_VERSION}");
    }
    if file.kind != "Release" {
        bail!("{origin}: kind: must be Release");
    }
    let version = minor_of(&file.metadata.name)
        .filter(|v| v.to_string() == file.metadata.name)
        .ok_or_else(|| {
            anyhow!(
                "{origin}: metadata.name: {:?} is not X.Y",
                file.metadata.name
            )
        })?;
    if file.metadata.name != stem {
        bail!(
            "{origin}: metadata.name: {:?} differs from the file name",
            file.metadata.name
        );
    }
    Ok((version, file))
}

/// Merges a release's behaviour changes into the next release's: mappings key by key, any
/// other value replaced.
fn merge(base: &mut Value, changes: Value) {
    match (base, changes) {
        (Value::Object(base), Value::Object(changes)) => {
            for (key, value) in changes {
                match base.get_mut(&key) {
                    Some(slot) if slot.is_object() && value.is_object() => merge(slot, value),
                    _ => {
                        base.insert(key, value);
                    }
                }
            }
        }
        (base, changes) => *base = changes,
    }
}

/// The version of a release name known to be `X.Y` (`0.0` otherwise), for ordering.
pub fn version_of(name: &str) -> Version {
    minor_of(name).unwrap_or_default()
}

/// A run of one to four digits at the start of `s`, and the rest.
fn leading_digits(s: &str) -> Option<(&str, &str)> {
    let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    (end > 0 && end <= 4).then(|| s.split_at(end))
}

/// The minor release (`X.Y`) of a version: `X.Y`, then optionally `.Z…` or `-suffix`/`+suffix`
/// (only `[A-Za-z0-9.+-]` after the minor).
pub fn minor_of(version: &str) -> Option<Version> {
    let (major, rest) = leading_digits(version)?;
    let rest = rest.strip_prefix('.')?;
    let (minor, rest) = leading_digits(rest)?;
    let suffix_ok = rest.is_empty()
        || (rest.starts_with(['.', '-', '+'])
            && rest
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+')));
    if !suffix_ok {
        return None;
    }
    Some(Version::new(major.parse().ok()?, minor.parse().ok()?))
}
