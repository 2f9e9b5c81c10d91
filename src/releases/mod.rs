//! The OpenShift releases ccm-render renders for, as data (`assets/releases/<X.Y>.yaml`).
//!
//! The providers under `assets/` are the newest release. Each older release is a file that
//! says how it differs from the next newer one (a reverse delta): its CCCMO commit, what
//! upgrading to the next release changes, the behaviour that differs (TLS flags, cloud config
//! transforms, feature gate tables) and edits of the providers' parsed objects
//! ([`delta`]). A release's catalogue is the newest one with the deltas of every newer release
//! down to it applied, then checked by [`crate::providers::check_parsed`], the checks every
//! provider goes through.
//!
//! For callers (render, `releases`, and a matrix over releases): [`Releases::builtin`],
//! [`Releases::all`], [`Releases::find`] and [`Releases::catalogue`].

pub mod delta;

use crate::features::{FeatureSet, ReleaseGates};
use crate::inputs::infrastructure::Infrastructure;
use crate::providers::{Catalogue, Parsed};
use anyhow::{Result, anyhow, bail};
use delta::{CommonDelta, ProviderDelta};
use include_dir::{Dir, include_dir};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::OnceLock;

static RELEASE_FILES: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/assets/releases");

/// A release file's `apiVersion`.
const API_VERSION: &str = crate::providers::API_VERSION;

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
}

/// What a release does differently, resolved (every field set).
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Behaviour {
    /// Whether CCCMO passes the cluster TLS profile to every CCM (`--tls-cipher-suites`,
    /// `--tls-min-version`; CCCMO 4.22 and later).
    pub ccm_tls_flags: bool,
    /// The cloud config transforms.
    pub cloud_config: crate::cloud_config::Behaviour,
    /// Gates whose feature sets differ from the newest release's table.
    #[serde(default)]
    pub feature_sets: BTreeMap<String, Vec<FeatureSet>>,
    /// The upstream controller-manager gates, when they differ from the newest release's.
    #[serde(default)]
    pub upstream_feature_gates: Option<Vec<String>>,
}

impl Behaviour {
    /// The feature gate tables for [`crate::features::FeatureGates::from_manifest_in`].
    pub fn gates(&self) -> ReleaseGates {
        ReleaseGates {
            feature_sets: self.feature_sets.clone(),
            upstream: self.upstream_feature_gates.clone(),
        }
    }
}

/// One release, resolved.
#[derive(Debug, Clone)]
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
    /// Its behaviour.
    pub behaviour: Behaviour,
    common: CommonDelta,
    providers: BTreeMap<String, ProviderDelta>,
}

/// Every release, newest first.
#[derive(Debug, Clone)]
pub struct Releases {
    list: Vec<Release>,
}

impl Releases {
    /// The built-in releases (parsed and checked once per process).
    pub fn builtin() -> Result<&'static Self> {
        static BUILTIN: OnceLock<std::result::Result<Releases, String>> = OnceLock::new();
        BUILTIN
            .get_or_init(|| Self::load().map_err(|e| format!("{e:#}")))
            .as_ref()
            .map_err(|e| anyhow!("{e}"))
    }

    fn load() -> Result<Self> {
        let mut files = Vec::new();
        for file in RELEASE_FILES.files() {
            let path = file.path().to_string_lossy().into_owned();
            if file
                .path()
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("md"))
            {
                // Documentation (README.md).
                continue;
            }
            let origin = format!("assets/releases/{path}");
            let text = file
                .contents_utf8()
                .ok_or_else(|| anyhow!("{origin}: is not UTF-8"))?;
            files.push((origin, text));
        }
        Self::parse(&files)
    }

    /// Parses and checks release files (origin, text); pure.
    pub fn parse(files: &[(String, &str)]) -> Result<Self> {
        let mut parsed = files
            .iter()
            .map(|(origin, text)| parse_file(origin, text).map(|(v, f)| (v, origin.clone(), f)))
            .collect::<Result<Vec<_>>>()?;
        parsed.sort_by_key(|(version, _, _)| std::cmp::Reverse(*version));
        let mut list: Vec<Release> = Vec::new();
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
            let checked: Behaviour = serde_path_to_error::deserialize(&resolved).map_err(|e| {
                let path = e.path().to_string();
                let path = if path == "." {
                    String::new()
                } else {
                    format!(".{path}")
                };
                anyhow!("{origin}: spec.behaviour{path}: {}", e.inner())
            })?;
            for gate in checked.feature_sets.keys() {
                if !crate::features::is_tabled(gate) {
                    bail!(
                        "{origin}: spec.behaviour.featureSets.{gate}: not a gate ccm-render reads"
                    );
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
            list.push(Release {
                name: file.metadata.name,
                origin,
                cccmo: spec.cccmo,
                aliases: spec.aliases,
                upgrade: spec.upgrade,
                behaviour: checked,
                common: spec.common,
                providers: spec.providers,
            });
        }
        if list.is_empty() {
            bail!("assets/releases: no release");
        }
        let releases = Self { list };
        releases.check_aliases()?;
        Ok(releases)
    }

    fn check_aliases(&self) -> Result<()> {
        let mut seen = BTreeMap::new();
        for release in &self.list {
            for name in std::iter::once(&release.name).chain(&release.aliases) {
                if let Some(other) = seen.insert(name.clone(), &release.origin) {
                    bail!("{}: {name} is also {other}", release.origin);
                }
            }
        }
        Ok(())
    }

    /// Every release, newest first.
    pub fn all(&self) -> &[Release] {
        &self.list
    }

    /// The newest release (the default).
    pub fn newest(&self) -> &Release {
        &self.list[0]
    }

    /// The release a version names: `X.Y`, a full version (`4.20.15`,
    /// `4.21.0-0.nightly-2026-01-02-030405`, `4.23.0-ec.2`), or an alias. `what` names where the
    /// version came from in the error, which lists the supported releases.
    pub fn find(&self, version: &str, what: &str) -> Result<&Release> {
        let Some((major, minor)) = minor_of(version) else {
            bail!(
                "{what}: {version:?} is not an OpenShift version (X.Y, X.Y.Z or X.Y.Z-suffix); {}",
                self.supported()
            );
        };
        let wanted = format!("{major}.{minor}");
        self.list
            .iter()
            .find(|r| r.name == wanted || r.aliases.contains(&wanted))
            .ok_or_else(|| {
                anyhow!(
                    "{what}: {version} is not a supported release; {}",
                    self.supported()
                )
            })
    }

    /// "supported: 4.18, …, 4.23 (5.0, 5.1: the 4.23 catalogue)".
    pub fn supported(&self) -> String {
        let mut names: Vec<&str> = self.list.iter().map(|r| r.name.as_str()).collect();
        names.reverse();
        let aliases: Vec<String> = self
            .list
            .iter()
            .filter(|r| !r.aliases.is_empty())
            .map(|r| format!("{}: the {} catalogue", r.aliases.join(", "), r.name))
            .collect();
        if aliases.is_empty() {
            format!("supported: {}", names.join(", "))
        } else {
            format!("supported: {} ({})", names.join(", "), aliases.join("; "))
        }
    }

    /// The release after `release` (None for the newest).
    pub fn next(&self, release: &Release) -> Option<&Release> {
        let at = self.list.iter().position(|r| r.name == release.name)?;
        at.checked_sub(1).map(|i| &self.list[i])
    }

    /// The release before `release` (None for the oldest).
    pub fn previous(&self, release: &Release) -> Option<&Release> {
        let at = self.list.iter().position(|r| r.name == release.name)?;
        self.list.get(at + 1)
    }

    /// The releases whose deltas lead from the newest to `release`: every older one down to it.
    fn chain(&self, release: &Release) -> &[Release] {
        let at = self
            .list
            .iter()
            .position(|r| r.name == release.name)
            .unwrap_or(0);
        &self.list[1..=at]
    }

    /// `catalogue` (the newest release's providers, as [`Catalogue::builtin`] or
    /// [`Catalogue::builtin_for`] give them) as of `release`. Built-in providers get each
    /// release's delta, then every check a provider goes through; any provider may say which
    /// releases it supports (descriptor `spec.releases`), which is checked when it is picked.
    pub fn catalogue(&self, release: &Release, mut catalogue: Catalogue) -> Result<Catalogue> {
        let chain = self.chain(release);
        if chain.is_empty() {
            return Ok(catalogue);
        }
        let folders = crate::providers::builtin_folders()?;
        // Each built-in provider's provider.yaml as of the release being reached.
        let mut descriptors: BTreeMap<String, Value> = BTreeMap::new();
        for step in chain {
            step.apply(&mut catalogue, &folders, &mut descriptors)?;
        }
        Ok(catalogue)
    }

    /// The built-in catalogue for one Infrastructure (only its provider parsed) as of `release`.
    pub fn builtin_for(&self, release: &Release, infra: &Infrastructure) -> Result<Catalogue> {
        self.catalogue(release, Catalogue::builtin_for(infra)?)
    }
}

impl Release {
    /// Applies this release's delta to the next release's catalogue. Providers from
    /// `--provider-dir` (origin not under `assets/`) get no delta: theirs is their own business.
    fn apply(
        &self,
        catalogue: &mut Catalogue,
        folders: &[crate::inputs::provider_dir::FolderText],
        descriptors: &mut BTreeMap<String, Value>,
    ) -> Result<()> {
        let at = |field: &str| format!("{}: spec.{field}", self.origin);
        delta::apply_ops(
            &mut catalogue.common.pod_disruption_budget,
            &self.common.pod_disruption_budget,
        )
        .map_err(|e| anyhow!("{}: {e}", at("common.podDisruptionBudget")))?;
        delta::apply_ops(&mut catalogue.common.service, &self.common.service)
            .map_err(|e| anyhow!("{}: {e}", at("common.service")))?;
        for (name, delta) in &self.providers {
            let field = at(&format!("providers.{name}"));
            let Some(folder) = folders.iter().find(|f| f.name() == name) else {
                bail!("{field}: no built-in provider {name}");
            };
            let Some(provider) = catalogue.providers.get(name) else {
                // Not loaded for this render (builtin_for loads only the chosen provider).
                continue;
            };
            if !provider.origin.starts_with("assets/")
                || (provider.manifests.is_empty() && provider.bootstrap.is_empty())
            {
                // A --provider-dir override, or a descriptor-only entry of builtin_for.
                continue;
            }
            let descriptor = match descriptors.remove(name) {
                Some(descriptor) => descriptor,
                None => crate::providers::raw_descriptor(folder)?,
            };
            let mut descriptor = descriptor;
            let label = |object: &Value| format!("{field}: {}", delta::object_id(object));
            let mut manifests: Vec<(String, Value)> = provider
                .manifests
                .iter()
                .map(|o| (label(o), o.clone()))
                .collect();
            let mut bootstrap: Vec<(String, Value)> = provider
                .bootstrap
                .iter()
                .map(|o| (label(o), o.clone()))
                .collect();
            delta::apply_provider(delta, &mut descriptor, [&mut manifests, &mut bootstrap])
                .map_err(|e| anyhow!("{field}: {e}"))?;
            let descriptor_at = format!("{field}: provider.yaml");
            let checked = crate::providers::check_parsed(&Parsed {
                origin: &provider.origin,
                descriptor_at: &descriptor_at,
                descriptor: &descriptor,
                manifests: &manifests,
                bootstrap: &bootstrap,
            })?;
            catalogue.providers.insert(name.clone(), checked);
            descriptors.insert(name.clone(), descriptor);
        }
        Ok(())
    }
}

/// Parses one release file and checks its header; returns its `(major, minor)`.
fn parse_file(origin: &str, text: &str) -> Result<((u32, u32), ReleaseFile)> {
    let Some(stem) = origin
        .rsplit('/')
        .next()
        .and_then(|n| n.strip_suffix(".yaml"))
    else {
        bail!("{origin}: not a release file (assets/releases/<X.Y>.yaml)");
    };
    let value: Value =
        crate::yaml::from_str(text).map_err(|e| anyhow!("{origin}: not valid YAML: {e}"))?;
    let file: ReleaseFile = crate::inputs::typed(&value, camino::Utf8Path::new(origin))?;
    if file.api_version != API_VERSION {
        bail!("{origin}: apiVersion: must be {API_VERSION}");
    }
    if file.kind != "Release" {
        bail!("{origin}: kind: must be Release");
    }
    let version = minor_of(&file.metadata.name)
        .filter(|v| format!("{}.{}", v.0, v.1) == file.metadata.name)
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

/// A run of one to four digits at the start of `s`, and the rest.
fn leading_digits(s: &str) -> Option<(&str, &str)> {
    let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    (end > 0 && end <= 4).then(|| s.split_at(end))
}

/// `(major, minor)` of a version: `X.Y`, then optionally `.Z…` or `-suffix`/`+suffix` (only
/// `[A-Za-z0-9.+-]` after the minor).
fn minor_of(version: &str) -> Option<(u32, u32)> {
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
    Some((major.parse().ok()?, minor.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    fn builtin() -> &'static Releases {
        Releases::builtin().expect("built-in releases load")
    }

    #[test]
    fn versions_name_their_minor_release() {
        for (version, want) in [
            ("4.18", Some((4, 18))),
            ("4.20.15", Some((4, 20))),
            ("4.21.0-0.nightly-2026-01-02-030405", Some((4, 21))),
            ("4.23.0-ec.2", Some((4, 23))),
            ("5.1", Some((5, 1))),
            ("4.22+build.1", Some((4, 22))),
            ("4", None),
            ("4.", None),
            ("v4.20", None),
            ("4.20x", None),
            ("4.20.1 ", None),
            ("4.20.1\n", None),
            ("12345.1", None),
        ] {
            assert_eq!(minor_of(version), want, "{version:?}");
        }
    }

    #[test]
    fn every_release_is_found_by_name_full_version_and_alias() {
        let releases = builtin();
        let names: Vec<&str> = releases.all().iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["4.23", "4.22", "4.21", "4.20", "4.19", "4.18"]);
        assert_eq!(releases.newest().name, "4.23");
        for (version, want) in [("4.18.30", "4.18"), ("5.0", "4.23"), ("5.1.4", "4.23")] {
            assert_eq!(releases.find(version, "x").expect(version).name, want);
        }
        let err = releases.find("4.17", "--release").expect_err("unknown");
        assert_eq!(
            err.to_string(),
            "--release: 4.17 is not a supported release; supported: 4.18, 4.19, 4.20, 4.21, 4.22, 4.23 (5.0, 5.1: the 4.23 catalogue)"
        );
    }

    #[test]
    fn behaviour_is_the_newest_with_each_older_release_changes_applied_in_turn() {
        let releases = builtin();
        let find = |v: &str| releases.find(v, "x").expect("known");
        assert!(find("4.22").behaviour.ccm_tls_flags);
        assert!(!find("4.21").behaviour.ccm_tls_flags);
        // 4.22's vSphere key order carries down to every older release.
        for v in ["4.22", "4.21", "4.20", "4.19", "4.18"] {
            let cloud = &find(v).behaviour.cloud_config;
            assert_eq!(
                cloud.vsphere_key_order,
                crate::cloud_config::KeyOrder::Struct,
                "{v}"
            );
        }
        assert!(find("4.19").behaviour.cloud_config.azure_entries);
        assert!(!find("4.18").behaviour.cloud_config.azure_entries);
        assert_eq!(
            find("4.18").behaviour.feature_sets["AWSServiceLBNetworkSecurityGroup"],
            [
                FeatureSet::TechPreviewNoUpgrade,
                FeatureSet::DevPreviewNoUpgrade
            ]
        );
        assert_eq!(
            releases.previous(find("4.18")).map(|r| r.name.as_str()),
            None
        );
        assert_eq!(
            releases.next(find("4.18")).map(|r| r.name.as_str()),
            Some("4.19")
        );
    }

    #[test]
    fn every_release_resolves_every_built_in_provider() {
        let releases = builtin();
        for release in releases.all() {
            let catalogue = releases
                .catalogue(release, Catalogue::builtin().expect("newest"))
                .unwrap_or_else(|e| panic!("{}: {e:#}", release.name));
            assert_eq!(catalogue.providers.len(), 11, "{}", release.name);
        }
    }

    fn newest_file() -> (String, &'static str) {
        (
            "assets/releases/4.23.yaml".to_string(),
            include_str!("../../assets/releases/4.23.yaml"),
        )
    }

    fn with_older(text: &str) -> Result<Releases> {
        Releases::parse(&[
            newest_file(),
            ("assets/releases/4.22.yaml".to_string(), text),
        ])
    }

    const HEADER: &str = "apiVersion: ccm-render.openshift.io/v1alpha1\nkind: Release\nmetadata:\n  name: \"4.22\"\nspec:\n  cccmo: {branch: release-4.22, commit: b99c3d88, date: \"2026-07-08\"}\n  upgrade: [something]\n";

    #[test]
    fn a_bad_release_file_is_refused_naming_the_file_and_field() {
        let cases = [
            (
                "  behaviour:\n    ccmTlsFlag: false\n",
                "assets/releases/4.22.yaml: spec.behaviour.ccmTlsFlag: unknown field `ccmTlsFlag`",
            ),
            (
                "  behaviour:\n    cloudConfig: {vsphereKeyOrder: random}\n",
                "assets/releases/4.22.yaml: spec.behaviour.cloudConfig.vsphereKeyOrder: unknown variant `random`",
            ),
            (
                "  behaviour:\n    featureSets: {Nope: [Default]}\n",
                "assets/releases/4.22.yaml: spec.behaviour.featureSets.Nope: not a gate ccm-render reads",
            ),
            (
                "  providers:\n    aws:\n      remvoe: []\n",
                "assets/releases/4.22.yaml: spec.providers.aws.remvoe: unknown field `remvoe`",
            ),
            (
                "  aliases: [five]\n",
                "assets/releases/4.22.yaml: spec.aliases: \"five\" is not X.Y",
            ),
        ];
        for (extra, want) in cases {
            let err = with_older(&format!("{HEADER}{extra}")).expect_err(extra);
            assert!(
                format!("{err:#}").starts_with(want),
                "{err:#}\nwanted: {want}"
            );
        }
        let err =
            with_older(&HEADER.replace("  upgrade: [something]\n", "")).expect_err("no upgrade");
        assert!(
            err.to_string().contains("spec.upgrade: say what upgrading"),
            "{err}"
        );
        let err =
            with_older(&HEADER.replace("name: \"4.22\"", "name: \"4.21\"")).expect_err("name");
        assert!(
            err.to_string().contains("differs from the file name"),
            "{err}"
        );
    }

    #[test]
    fn a_delta_that_does_not_fit_fails_when_applied_naming_the_file_and_field() {
        let cases = [
            (
                "  providers:\n    aws:\n      remove: [Role/nothing]\n",
                "assets/releases/4.22.yaml: spec.providers.aws: remove[0]: no object Role/nothing",
            ),
            (
                "  providers:\n    aws:\n      patch:\n      - object: Deployment/aws-cloud-controller-manager\n        ops:\n        - remove: spec.template.spec.volumes[nothing]\n",
                "assets/releases/4.22.yaml: spec.providers.aws: patch[0]: ops[0]: remove spec.template.spec.volumes[nothing]: no item \"nothing\"",
            ),
            (
                "  common:\n    service:\n    - remove: spec.nothing\n",
                "assets/releases/4.22.yaml: spec.common.service: ops[0]: remove spec.nothing: no field \"nothing\"",
            ),
            (
                "  providers:\n    nowhere: {}\n",
                "assets/releases/4.22.yaml: spec.providers.nowhere: no built-in provider nowhere",
            ),
            // The provider checks run on the result: a descriptor edit that breaks one fails.
            (
                "  providers:\n    aws:\n      descriptor:\n      - set: {path: spec.cloudConfig.transform, value: aws2}\n",
                "assets/releases/4.22.yaml: spec.providers.aws: provider.yaml: spec.cloudConfig.transform: unknown variant `aws2`",
            ),
            (
                "  providers:\n    aws:\n      descriptor:\n      - set: {path: spec.tls.before, value: --nothing}\n",
                "assets/releases/4.22.yaml: spec.providers.aws: provider.yaml: spec.tls: no container",
            ),
        ];
        for (extra, want) in cases {
            let releases = with_older(&format!("{HEADER}{extra}")).expect("parses");
            let release = releases.find("4.22", "x").expect("there");
            let err = releases
                .catalogue(release, Catalogue::builtin().expect("newest"))
                .expect_err(extra);
            assert!(
                format!("{err:#}").starts_with(want),
                "{err:#}\nwanted: {want}"
            );
        }
    }

    #[test]
    fn the_newest_release_has_no_delta() {
        let text = format!(
            "{}  common:\n    service:\n    - remove: spec.type\n",
            include_str!("../../assets/releases/4.23.yaml")
        );
        let err = Releases::parse(&[("assets/releases/4.23.yaml".to_string(), text.as_str())])
            .expect_err("delta on the newest");
        assert!(err.to_string().contains("it has no delta"), "{err}");
    }
}
