//! The OpenShift releases ccm-render renders for, as data (`assets/releases/<X.Y>.yaml`).
//!
//! The providers under `assets/` are the newest release. Each older release is a file that
//! says how it differs from the next newer one (a reverse delta): its CCCMO commit, what
//! upgrading to the next release changes, the behaviour that differs (TLS flags, cloud config
//! transforms, feature gate tables) and edits of the providers' parsed objects ([`ccm_catalogue::releases::delta`]).
//! build.rs resolves every release ([`ccm_catalogue::releases::data::resolve`]: the deltas applied in turn from the
//! newest, each result checked by the rules every provider follows) and compiles the result
//! into the binary next to the newest catalogue; this module reads it back.
//!
//! For callers (render, `releases`, a matrix over releases): [`Releases::builtin`],
//! [`Releases::all`], [`Releases::find`], [`Releases::catalogue`] and [`Releases::builtin_for`].

use ccm_catalogue::releases::Release;
use ccm_catalogue::releases::data;

use super::providers::Catalogue;
use crate::inputs::infrastructure::Infrastructure;
use anyhow::{Result, anyhow, bail};
use ccm_catalogue::compiled::{ProviderEntry, ProviderObjects, Table};
use ccm_catalogue::providers::{Common, Provider};
use std::sync::OnceLock;

/// Every release, newest first.
#[derive(Debug, Clone)]
pub struct Releases {
    list: Vec<Release>,
    table: Table<'static>,
}

impl Releases {
    /// The built-in releases, decoded once per process from the compiled table.
    pub fn builtin() -> Result<&'static Self> {
        static BUILTIN: OnceLock<Option<Releases>> = OnceLock::new();
        let decode = || Self::from_table(super::builtin::builtin_table());
        match BUILTIN.get_or_init(|| decode().ok()) {
            Some(releases) => Ok(releases),
            // A static cannot hand out one error twice: decoding again gives it, chain and all.
            None => decode().and_then(|_| {
                bail!("the built-in releases failed to decode once and then decoded")
            }),
        }
    }

    fn from_table(table: Table<'static>) -> Result<Self> {
        let mut list: Vec<Release> = table
            .keys(data::RELEASE)
            .map(|key| table.get(key))
            .collect::<Result<_>>()?;
        list.sort_by_key(|r| std::cmp::Reverse(data::version_of(&r.name)));
        if list.is_empty() {
            bail!("the built-in catalogue has no release");
        }
        Ok(Self { list, table })
    }

    /// The CCCMO Go files of `release`'s commit and their digests (`spec.cccmo.goFiles`),
    /// decoded only when asked for.
    pub(crate) fn go_files(
        &self,
        release: &Release,
    ) -> Result<std::collections::BTreeMap<String, String>> {
        self.table
            .get(&format!("{}{}", data::RELEASE_GO_FILES, release.name))
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
        let Some(minor) = data::minor_of(version) else {
            bail!(
                "{what}: {version:?} is not an OpenShift version (X.Y, X.Y.Z or X.Y.Z-suffix); {}",
                self.supported()
            );
        };
        let wanted = minor.to_string();
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
    pub(crate) fn supported(&self) -> String {
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

    /// Checks a `--provider-dir` provider's `spec.releases` names releases that exist.
    pub(crate) fn check_declared(&self, provider: &Provider) -> Result<()> {
        let Some(declared) = &provider.spec().releases else {
            return Ok(());
        };
        if declared.is_empty() {
            bail!(
                "{}/provider.yaml: spec.releases: name at least one release, or leave the field out (every release)",
                provider.origin
            );
        }
        for (i, name) in declared.iter().enumerate() {
            if !self.list.iter().any(|r| &r.name == name) {
                bail!(
                    "{}/provider.yaml: spec.releases[{i}]: {name:?} is not a release (X.Y); {}",
                    provider.origin,
                    self.supported()
                );
            }
        }
        Ok(())
    }

    /// The release before `release` (None for the oldest).
    pub(crate) fn previous(&self, release: &Release) -> Option<&Release> {
        let at = self.list.iter().position(|r| r.name == release.name)?;
        self.list.get(at + 1)
    }

    /// `catalogue` (the newest release's providers, as [`Catalogue::builtin`] or
    /// [`Catalogue::builtin_for`] give them, plus any `--provider-dir` ones) as of `release`:
    /// the shared objects and every built-in provider a delta changed are the release's.
    /// Providers from `--provider-dir` stay as they are (their releases are their own).
    pub fn catalogue(&self, release: &Release, mut catalogue: Catalogue) -> Result<Catalogue> {
        if release.name == self.newest().name {
            return Ok(catalogue);
        }
        catalogue.common = self.common(release)?;
        for provider in catalogue.providers.values_mut() {
            if !provider.origin.starts_with("assets/") {
                continue;
            }
            let key = format!(
                "{}{}/{}",
                data::RELEASE_PROVIDER,
                release.name,
                provider.name()
            );
            if !self.has(&key) {
                continue;
            }
            let entry: ProviderEntry = self.table.get(&key)?;
            // A descriptor-only entry (Catalogue::builtin_for keeps those for messages).
            let with_objects = !(provider.manifests.is_empty() && provider.bootstrap.is_empty());
            let objects: ProviderObjects = if with_objects {
                self.table.objects(&format!(
                    "{}{}/{}",
                    data::RELEASE_OBJECTS,
                    release.name,
                    provider.name()
                ))?
            } else {
                ProviderObjects::default()
            };
            *provider = Provider {
                descriptor: entry.descriptor,
                manifests: objects.manifests,
                bootstrap: objects.bootstrap,
                origin: entry.origin,
            };
        }
        Ok(catalogue)
    }

    /// The built-in catalogue for one Infrastructure (only its provider decoded) as of `release`.
    pub(crate) fn builtin_for(
        &self,
        release: &Release,
        infra: &Infrastructure,
    ) -> Result<Catalogue> {
        if release.name == self.newest().name {
            return Catalogue::builtin_for(infra);
        }
        let mut catalogue = Catalogue::builtin_for_keys(infra, |name| {
            let descriptor = format!("{}{}/{name}", data::RELEASE_PROVIDER, release.name);
            self.has(&descriptor).then(|| {
                let objects = format!("{}{}/{name}", data::RELEASE_OBJECTS, release.name);
                (descriptor, objects)
            })
        })?;
        catalogue.common = self.common(release)?;
        Ok(catalogue)
    }

    fn has(&self, key: &str) -> bool {
        self.table.keys(data::RELEASE_PROVIDER).any(|k| k == key)
    }

    fn common(&self, release: &Release) -> Result<Common> {
        self.table
            .get(&format!("{}{}", data::RELEASE_COMMON, release.name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ccm_catalogue::features::FeatureSet;
    use ccm_catalogue::provider_dir::FolderText;
    use data::{Version, minor_of};
    use pretty_assertions::assert_eq;

    fn builtin() -> &'static Releases {
        Releases::builtin().expect("built-in releases load")
    }

    #[test]
    fn versions_name_their_minor_release() {
        for (version, want) in [
            ("4.18", Some(Version::new(4, 18))),
            ("4.20.15", Some(Version::new(4, 20))),
            (
                "4.21.0-0.nightly-2026-01-02-030405",
                Some(Version::new(4, 21)),
            ),
            ("4.23.0-ec.2", Some(Version::new(4, 23))),
            ("5.1", Some(Version::new(5, 1))),
            ("4.22+build.1", Some(Version::new(4, 22))),
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
            format!("{err:#}"),
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
                ccm_catalogue::releases::behaviour::KeyOrder::Struct,
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
    }

    #[test]
    fn every_release_resolves_every_built_in_provider() {
        let releases = builtin();
        let count = Catalogue::builtin().expect("newest").providers.len();
        for release in releases.all() {
            let catalogue = releases
                .catalogue(release, Catalogue::builtin().expect("newest"))
                .unwrap_or_else(|e| panic!("{}: {e:#}", release.name));
            assert_eq!(catalogue.providers.len(), count, "{}", release.name);
            let azure_roles = catalogue.providers["azure"]
                .manifests
                .iter()
                .filter(|o| o["kind"] == "Role")
                .count();
            assert_eq!(
                azure_roles,
                usize::from(release.name != "4.18"),
                "{}",
                release.name
            );
            let webhooks = catalogue.common.service["spec"]["ports"]
                .as_array()
                .expect("ports")
                .iter()
                .any(|p| p["name"] == "webhooks");
            assert_eq!(webhooks, release.name == "4.18", "{}", release.name);
        }
    }

    /// Resolves the newest release file and `older` (as 4.22) against the built-in providers.
    fn resolve_with(older: &str) -> Result<data::Resolved> {
        let folder = FolderText {
            origin: "assets/releases".to_string(),
            files: [
                (
                    "4.23.yaml".to_string(),
                    include_str!("../../assets/releases/4.23.yaml").to_string(),
                ),
                ("4.22.yaml".to_string(), older.to_string()),
            ]
            .into_iter()
            .collect(),
        };
        let newest = Catalogue::builtin().expect("newest");
        let providers: Vec<Provider> = newest.providers.into_values().collect();
        data::resolve(&folder, &providers, &newest.common)
    }

    const HEADER: &str = "apiVersion: ccm-render.openshift.io/v1alpha1\nkind: Release\nmetadata:\n  name: \"4.22\"\nspec:\n  cccmo: {branch: release-4.22, commit: b99c3d88, date: \"2026-07-08\"}\n  upgrade: [something]\n";

    // Reads better whole: a table of bad files and the message each gets.
    #[test]
    fn a_bad_release_file_or_delta_fails_naming_the_file_and_field() {
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
            (
                "  providers:\n    aws:\n      descriptor:\n      - set: {path: spec.platform, value: GCP}\n",
                "assets/releases/4.22.yaml: spec.providers.aws: provider.yaml: spec: a release may not change what a provider serves",
            ),
        ];
        for (extra, want) in cases {
            let err = resolve_with(&format!("{HEADER}{extra}")).expect_err(extra);
            assert!(
                format!("{err:#}").starts_with(want),
                "{err:#}\nwanted: {want}"
            );
        }
        let err =
            resolve_with(&HEADER.replace("  upgrade: [something]\n", "")).expect_err("no upgrade");
        assert!(
            format!("{err:#}").contains("spec.upgrade: say what upgrading"),
            "{err}"
        );
        let err =
            resolve_with(&HEADER.replace("name: \"4.22\"", "name: \"4.21\"")).expect_err("name");
        assert!(
            format!("{err:#}").contains("differs from the file name"),
            "{err}"
        );
        let newest_with_delta = format!(
            "{}  common:\n    service:\n    - remove: spec.type\n",
            include_str!("../../assets/releases/4.23.yaml")
        );
        let err = data::parse_releases(&[(
            "assets/releases/4.23.yaml".to_string(),
            newest_with_delta.as_str(),
        )])
        .expect_err("delta on the newest");
        assert!(format!("{err:#}").contains("it has no delta"), "{err}");
    }

    #[test]
    fn declared_releases_must_exist() {
        let releases = builtin();
        let mut provider = Catalogue::builtin().expect("newest").providers["oci"].clone();
        provider.origin = "dir/oci".into();
        provider.descriptor.spec.releases = Some(vec!["4.22".into(), "4.16".into()]);
        let err = releases.check_declared(&provider).expect_err("4.16");
        assert!(
            format!("{err:#}").starts_with("dir/oci/provider.yaml: spec.releases[1]: \"4.16\" is not a release (X.Y); supported: 4.18"),
            "{err}"
        );
        provider.descriptor.spec.releases = Some(vec![]);
        assert!(releases.check_declared(&provider).is_err());
        provider.descriptor.spec.releases = None;
        assert!(releases.check_declared(&provider).is_ok());
    }
}
