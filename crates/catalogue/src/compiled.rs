//! The built-in catalogue, compiled at build time.
//!
//! build.rs reads every folder under `assets/` with the reader `--provider-dir` uses
//! ([`crate::provider_dir`]), parses and checks it with the code `--provider-dir` and
//! `provider check` use ([`crate::providers::parse()`], [`crate::providers::check`]), and hands the results to
//! [`compile`], which encodes each as one entry of a [`Compiled`] table under a key (`common`,
//! `provider/aws`, `objects/aws`). build.rs writes the entries to `$OUT_DIR` and the binary
//! embeds them; at run time [`Table`] decodes only the entries a command asks for, so a render
//! parses no YAML for the built-in providers. A broken asset fails the build with the error
//! `provider check` would print (file and field).
//!
//! This crate is a build-dependency of ccm-render as well as a dependency, so build.rs runs
//! the same parsing and checking as the binary.
//!
//! # Adding more checked data
//!
//! Data known at build time (per-release differences, for instance) is compiled the same way:
//! 1. Give it a folder of its own under `assets/` (`assets/releases/`) and add the name to
//!    [`RESERVED`], so that it is not read as a provider.
//! 2. Write its types (deriving `Serialize` and `Deserialize`) and a pure `parse` that checks
//!    it and names the file and field in its errors, in a module of this crate.
//! 3. In [`compile`], parse the folder and [`Compiled::add`] each item under a key prefix of
//!    its own (`release/4.18`).
//! 4. At run time, [`Table::get`] decodes one item and [`Table::keys`] lists a prefix's keys.
//! 5. Add a test beside the data that the compiled entries equal a run-time parse of `assets/`,
//!    as `compiled_catalogue_equals_a_run_time_parse_of_assets` does for providers.
//!
//! # The encoding
//!
//! MessagePack (rmp-serde): the smallest run-time cost of the options measured that keeps the
//! binary small and needs no code of our own. Measured with callgrind on the whole Azure render
//! (the largest provider), commit 0d40627 plus each encoding: YAML parsed at run time 14.4 M
//! instructions; serde_json text 5.70 M (decoding the provider 0.82 M); MessagePack 5.48 M
//! (0.61 M); generated Rust code building the `Value`s 5.25 M (0.38 M) but 1.1 MB more binary
//! (4.5 MB stripped, against a 5 MB budget) and a longer build. postcard and bincode cannot
//! decode a `serde_json::Value` (they have no `deserialize_any`), so they would need a mirror
//! type converted on every run. Cargo.toml has the figures too. The providers' objects, most of
//! what a render decodes, are read back by [`crate::msgpack`] rather than through serde.

use crate::platform::Platform;
use crate::provider_dir::read_folder;
use crate::providers::check::check_unambiguous;
use crate::providers::{Descriptor, Provider};
use crate::providers::{parse, parse_common};
use anyhow::{Context as _, Result, anyhow, bail};
use camino::Utf8Path;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// The key of the shared objects ([`super::Common`]).
pub const COMMON: &str = "common";
/// The key prefix of a provider's descriptor and origin ([`ProviderEntry`]).
pub const PROVIDER: &str = "provider/";
/// The key of the platform each built-in provider serves, by provider name: how a render
/// decodes only the descriptors of the providers that may serve its platform.
pub const PROVIDER_PLATFORMS: &str = "provider-platforms";
/// The key prefix of a provider's objects ([`ProviderObjects`]), kept apart from the descriptor
/// so that choosing a provider decodes no manifests.
pub const OBJECTS: &str = "objects/";

/// The folder of release files (`crate::releases`).
pub const RELEASES: &str = "releases";

/// Folders of `assets/` that are not providers.
pub const RESERVED: &[&str] = &[COMMON, RELEASES, crate::hosted::HOSTED];

/// A provider's descriptor and where it was read from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProviderEntry {
    /// The descriptor.
    pub descriptor: Descriptor,
    /// `assets/<name>`.
    pub origin: String,
}

/// A provider's parsed objects, encoded as the list `[manifests, bootstrap]` and decoded by
/// [`Table::objects`] on the render's path; `Deserialize` serves code that compares whole
/// compiled tables (the release import's tests), where speed does not matter.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ProviderObjects {
    /// `manifests/*.yaml`.
    pub manifests: Vec<Value>,
    /// `bootstrap/*.yaml`.
    pub bootstrap: Vec<Value>,
}

/// Encoded entries by key: what build.rs embeds.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Compiled {
    entries: BTreeMap<String, Vec<u8>>,
}

impl Compiled {
    /// Encodes `value` under `key`; a key can be given once.
    pub fn add<T: Serialize>(&mut self, key: String, value: &T) -> Result<()> {
        use std::collections::btree_map::Entry;
        let bytes = encode(value).with_context(|| format!("encoding {key}"))?;
        match self.entries.entry(key) {
            Entry::Occupied(entry) => bail!("{}: compiled twice", entry.key()),
            Entry::Vacant(entry) => {
                entry.insert(bytes);
                Ok(())
            }
        }
    }

    /// The entries, sorted by key.
    pub fn entries(&self) -> impl Iterator<Item = (&str, &[u8])> {
        self.entries.iter().map(|(k, v)| (k.as_str(), v.as_slice()))
    }
}

/// Reads, parses, checks and encodes everything under `assets` (build.rs passes its own
/// `assets/`, as a relative path so that messages say `assets/aws/provider.yaml`). Errors name
/// the file and field, as `provider check` would.
pub fn compile(assets: &Utf8Path) -> Result<Compiled> {
    let mut compiled = Compiled::default();
    let mut providers = Vec::new();
    let mut common = None;
    let mut releases = None;
    for name in folder_names(assets)? {
        let folder = read_folder(&assets.join(&name))?;
        match name.as_str() {
            COMMON => common = Some(parse_common(&folder)?),
            RELEASES => releases = Some(folder),
            crate::hosted::HOSTED => {
                for (name, component) in crate::hosted::parse(&folder)? {
                    compiled.add(format!("{}{name}", crate::hosted::HOSTED_KEY), &component)?;
                }
            }
            _ => providers.push(parse(&folder)?),
        }
    }
    let Some(common) = common else {
        bail!("{assets}/{COMMON}: is missing");
    };
    let Some(releases) = releases else {
        bail!("{assets}/{RELEASES}: is missing");
    };
    check_unambiguous(&providers)?;
    add_releases(&mut compiled, &releases, &providers, &common)?;
    compiled.add(COMMON.to_string(), &common)?;
    let platforms: BTreeMap<&str, Platform> = providers
        .iter()
        .map(|p| (p.name(), p.descriptor.spec.platform))
        .collect();
    compiled.add(PROVIDER_PLATFORMS.to_string(), &platforms)?;
    for provider in providers {
        add_provider(&mut compiled, provider)?;
    }
    Ok(compiled)
}

/// Every release ([`crate::releases::data::resolve`]): its entry, and for the older ones their
/// shared objects and the providers their deltas changed, under keys of their own.
fn add_releases(
    compiled: &mut Compiled,
    folder: &crate::provider_dir::FolderText,
    providers: &[Provider],
    common: &crate::providers::Common,
) -> Result<()> {
    use crate::releases::data;
    let resolved = data::resolve(folder, providers, common)?;
    for release in &resolved.releases {
        compiled.add(format!("{}{}", data::RELEASE, release.name), release)?;
        compiled.add(
            format!("{}{}", data::RELEASE_GO_FILES, release.name),
            &release.cccmo.go_files,
        )?;
    }
    for (release, common) in &resolved.common {
        compiled.add(format!("{}{release}", data::RELEASE_COMMON), common)?;
    }
    for (release, provider) in resolved.providers {
        let name = provider.name().to_string();
        compiled.add(
            format!("{}{release}/{name}", data::RELEASE_OBJECTS),
            &ProviderObjects {
                manifests: provider.manifests,
                bootstrap: provider.bootstrap,
            },
        )?;
        compiled.add(
            format!("{}{release}/{name}", data::RELEASE_PROVIDER),
            &ProviderEntry {
                descriptor: without_ccm(provider.descriptor),
                origin: provider.origin,
            },
        )?;
    }
    Ok(())
}

fn add_provider(compiled: &mut Compiled, provider: Provider) -> Result<()> {
    let name = provider.name().to_string();
    compiled.add(
        format!("{OBJECTS}{name}"),
        &ProviderObjects {
            manifests: provider.manifests,
            bootstrap: provider.bootstrap,
        },
    )?;
    compiled.add(
        format!("{PROVIDER}{name}"),
        &ProviderEntry {
            descriptor: without_ccm(provider.descriptor),
            origin: provider.origin,
        },
    )
}

/// A built-in descriptor as the binary holds it: without `spec.ccm`, the CCM's command line,
/// which the provider check above has held the bootstrap pods to and which no render reads
/// (it would cost the binary a hundred kilobytes).
fn without_ccm(mut descriptor: Descriptor) -> Descriptor {
    descriptor.spec.ccm = None;
    descriptor
}

/// The folders directly under `assets`, sorted.
fn folder_names(assets: &Utf8Path) -> Result<Vec<String>> {
    let mut names = Vec::new();
    for entry in assets
        .read_dir_utf8()
        .with_context(|| format!("{assets}: cannot read folder"))?
    {
        let entry = entry.with_context(|| format!("{assets}: cannot read folder"))?;
        if !entry.path().is_dir() {
            bail!("{}: is not a folder", entry.path());
        }
        names.push(entry.file_name().to_string());
    }
    names.sort();
    Ok(names)
}

/// The embedded entries, read-only: what the binary decodes at run time.
#[derive(Debug, Clone, Copy)]
pub struct Table<'a> {
    entries: &'a [(&'a str, &'a [u8])],
}

impl<'a> Table<'a> {
    /// A table over entries sorted by key (as build.rs writes them).
    pub fn new(entries: &'a [(&'a str, &'a [u8])]) -> Self {
        Self { entries }
    }

    /// Decodes the entry `key`.
    pub fn get<T: Entry>(&self, key: &str) -> Result<T> {
        T::decode(self.bytes(key)?).with_context(|| format!("built-in catalogue: {key}"))
    }

    /// Decodes the provider objects entry `key` (`objects/aws`) with [`crate::msgpack`], which
    /// builds the `Value`s without serde's per-node calls.
    pub fn objects(&self, key: &str) -> Result<ProviderObjects> {
        let mut bytes = self.bytes(key)?;
        let read = |bytes: &mut &[u8]| -> Result<ProviderObjects> {
            let fields = crate::msgpack::array_len(bytes)?;
            if fields != 2 {
                bail!("{fields} fields, not [manifests, bootstrap]");
            }
            Ok(ProviderObjects {
                manifests: crate::msgpack::list(bytes)?,
                bootstrap: crate::msgpack::list(bytes)?,
            })
        };
        read(&mut bytes).with_context(|| format!("built-in catalogue: {key}"))
    }

    fn bytes(&self, key: &str) -> Result<&'a [u8]> {
        let at = self
            .entries
            .binary_search_by(|(k, _)| (*k).cmp(key))
            .map_err(|_| anyhow!("the built-in catalogue has no {key}"))?;
        Ok(self.entries[at].1)
    }

    /// The keys that start with `prefix`, sorted.
    pub fn keys(&self, prefix: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.entries
            .iter()
            .map(|(k, _)| *k)
            .filter(move |k| k.starts_with(prefix))
    }
}

/// A record the table holds: its decoding is compiled here, once for each kind of entry. A
/// generic decode called from the binary's crate would be compiled there as well (rustc shares
/// no generic function between crates in an optimised build), and with it a second copy of the
/// decoding of every record the entry holds, which this crate compiles for `--provider-dir`
/// and the release files (docs/performance.md).
pub trait Entry: Sized {
    /// Decodes what [`encode`] wrote for one.
    fn decode(bytes: &[u8]) -> Result<Self>;
}

/// [`Entry`] for each kind of entry, each a non-generic function of this crate.
macro_rules! entries {
    ($($kind:ty),+ $(,)?) => {
        $(impl Entry for $kind {
            fn decode(bytes: &[u8]) -> Result<Self> {
                decode(bytes)
            }
        })+
    };
}

entries!(
    crate::providers::Common,
    ProviderEntry,
    crate::releases::Release,
    crate::hosted::Component,
    BTreeMap<String, String>,
    BTreeMap<String, Platform>,
);

/// The embedded form of one value.
pub fn encode<T: Serialize>(value: &T) -> Result<Vec<u8>> {
    Ok(rmp_serde::to_vec(value)?)
}

/// Decodes what [`encode`] wrote, with the decoder of every record ([`crate::msgpack::decoder`]).
pub fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T> {
    crate::msgpack::decoder::from_slice(bytes, crate::msgpack::decoder::Source::Record)
        .map_err(|err| err.located("MessagePack"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The repository's `assets/` (tests run in this crate's folder).
    fn assets() -> camino::Utf8PathBuf {
        camino::Utf8PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets"))
    }

    /// A copy of `assets/` with `edit` applied to one file, compiled as build.rs does.
    fn compile_edited(file: &str, edit: impl Fn(&str) -> String) -> Result<Compiled> {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = camino::Utf8Path::from_path(dir.path()).expect("utf8");
        let copy = root.join("assets");
        for folder in folder_names(&assets()).expect("assets/") {
            let text = read_folder(&assets().join(&folder)).expect("reads");
            for (path, content) in &text.files {
                let to = copy.join(&folder).join(path);
                std::fs::create_dir_all(to.parent().expect("parent")).expect("mkdir");
                let relative = format!("{folder}/{path}");
                let content = if relative == file {
                    edit(content)
                } else {
                    content.clone()
                };
                std::fs::write(&to, content).expect("write");
            }
        }
        compile(&copy)
    }

    #[test]
    fn an_unchanged_copy_of_assets_compiles() {
        let copy = compile_edited("aws/provider.yaml", str::to_string).expect("compiles");
        assert_eq!(
            copy.entries().count(),
            compile(&assets()).expect("compiles").entries().count()
        );
    }

    #[test]
    fn a_broken_asset_fails_the_compile_naming_the_file_and_the_field() {
        let err = format!(
            "{:#}",
            compile_edited("aws/provider.yaml", |text| {
                text.replace(
                    "resourceName: aws-cloud-controller-manager",
                    "resourceName: AWS",
                )
            })
            .expect_err("broken descriptor")
        );
        assert!(
            err.ends_with("assets/aws/provider.yaml: spec.resourceName: \"AWS\" is not a DNS label (lower-case letters, digits and '-', starting and ending with a letter or digit)"),
            "{err}"
        );
        let err = format!(
            "{:#}",
            compile_edited(
                "gcp/manifests/deployment-gcp-cloud-controller-manager.yaml",
                |text| text.replacen("kind: Deployment", "kind: Deployment\nkind: Pod", 1),
            )
            .expect_err("duplicate key")
        );
        assert!(
            err.contains("assets/gcp/manifests/deployment-gcp-cloud-controller-manager.yaml: not valid YAML: duplicate key"),
            "{err}"
        );
    }

    #[test]
    fn a_release_delta_that_does_not_fit_fails_the_compile_naming_the_file_and_the_field() {
        let err  = format!("{:#}", compile_edited("releases/4.21.yaml", |text| {
            text.replace(
                "ValidatingAdmissionPolicyBinding/openshift-cloud-controller-manager-cloud-provider-aws",
                "ValidatingAdmissionPolicyBinding/nothing",
            )
        })
        .expect_err("a removal of an object that is not there"));
        assert!(
            err.ends_with("assets/releases/4.21.yaml: spec.providers.aws: remove[1]: no object ValidatingAdmissionPolicyBinding/nothing"),
            "{err}"
        );
        let err = format!(
            "{:#}",
            compile_edited("releases/4.18.yaml", |text| {
                text.replace("azureEntries: false", "azureEntries: maybe")
            })
            .expect_err("a bad behaviour switch")
        );
        assert!(
            err.contains(
                "assets/releases/4.18.yaml: spec.behaviour.cloudConfig.azureEntries: invalid type"
            ),
            "{err}"
        );
    }

    #[test]
    fn every_release_is_compiled_with_the_providers_its_deltas_change() {
        let compiled = compile(&assets()).expect("compiles");
        let keys: Vec<&str> = compiled.entries().map(|(k, _)| k).collect();
        for release in ["4.18", "4.19", "4.20", "4.21", "4.22", "4.23"] {
            assert!(
                keys.contains(&format!("release/{release}").as_str()),
                "{release}"
            );
        }
        // 4.21 changes AWS, IBM Cloud, Power VS and Nutanix; 4.20 adds vSphere, 4.19 nothing.
        let providers = |release: &str| -> Vec<&str> {
            let prefix = format!("release-provider/{release}/");
            keys.iter()
                .filter_map(|k| k.strip_prefix(prefix.as_str()))
                .collect()
        };
        assert_eq!(providers("4.22"), Vec::<&str>::new());
        assert_eq!(providers("4.21"), ["aws", "ibmcloud", "nutanix", "powervs"]);
        assert_eq!(
            providers("4.19"),
            ["aws", "ibmcloud", "nutanix", "powervs", "vsphere"]
        );
        assert!(!keys.iter().any(|k| k.starts_with("release-common/4.23")));
    }

    #[test]
    fn an_older_release_bootstrap_pod_is_held_to_that_release_s_ccm() {
        // --requestheader-uid-headers came with k8s.io/cloud-provider 1.32: the AWS CCM of 4.23
        // registers it, that of 4.18 does not (assets/aws/provider.yaml spec.ccm.releases).
        let err = format!(
            "{:#}",
            compile_edited("aws/bootstrap/pod.yaml", |text| {
                text.replace(
                    "--v=2",
                    "--requestheader-uid-headers=X-Uid \\\n        --v=2",
                )
            })
            .expect_err("4.18 lacks the flag")
        );
        assert!(
            err.contains("/assets/releases/4.18.yaml: spec.providers.aws: Pod/aws-bootstrap-cloud-controller-manager: spec.containers[0].command: --requestheader-uid-headers is not a flag this CCM registers"),
            "{err}"
        );
    }

    #[test]
    fn two_built_in_providers_serving_one_platform_fail_the_compile() {
        let err = format!(
            "{:#}",
            compile_edited("gcp/provider.yaml", |text| {
                text.replace("platform: GCP", "platform: AWS")
            })
            .expect_err("clash")
        );
        assert!(err.contains("serves what"), "{err}");
    }

    #[test]
    fn every_entry_decodes_through_the_table() {
        let compiled = compile(&assets()).expect("compiles");
        let entries: Vec<(&str, &[u8])> = compiled.entries().collect();
        let table = Table::new(&entries);
        let names: Vec<&str> = table.keys(PROVIDER).collect();
        assert!(names.contains(&"provider/aws"), "{names:?}");
        let aws: ProviderEntry = table.get("provider/aws").expect("decodes");
        assert!(aws.origin.ends_with("/assets/aws"), "{}", aws.origin);
        let err = table
            .get::<ProviderEntry>("provider/moon")
            .expect_err("absent");
        assert_eq!(
            format!("{err:#}"),
            "the built-in catalogue has no provider/moon"
        );
    }
}
