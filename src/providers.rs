//! The provider catalogue: one folder per CCM under `assets/`, embedded in the binary.
//!
//! A provider is data: `provider.yaml` (a descriptor: the platform it serves, images.json keys,
//! `--cloud-provider` name, where the TLS flags go, the cloud config transform) and
//! `manifests/*.yaml`, plain Kubernetes objects as CCCMO applies them with its defaults in place.
//! The render step adjusts those parsed objects; nothing here is text-templated.

use anyhow::{Context as _, Result, anyhow, bail};
use include_dir::{Dir, include_dir};
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;

static ASSETS: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/assets");

/// The folder of objects shared by every provider (PodDisruptionBudget, Service).
const COMMON: &str = "common";

/// A provider descriptor (`provider.yaml`). Unknown fields are errors: this is our own format.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Descriptor {
    /// `ccm-render.openshift.io/v1alpha1`.
    pub api_version: String,
    /// `Provider`.
    pub kind: String,
    /// `metadata.name`: the provider's name (the folder name).
    pub metadata: DescriptorMetadata,
    /// What the provider does.
    pub spec: ProviderSpec,
}

/// `metadata` of a descriptor.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct DescriptorMetadata {
    /// The provider's name.
    pub name: String,
}

/// `spec` of a descriptor.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ProviderSpec {
    /// The `status.platformStatus.type` served.
    pub platform: String,
    /// When set, only Infrastructures with this `status.platformStatus.azure.cloudName`.
    #[serde(default)]
    pub azure_cloud_name: Option<String>,
    /// The CCM's `--cloud-provider` name.
    pub cloud_provider: String,
    /// The name of the common PodDisruptionBudget and Service.
    pub resource_name: String,
    /// Container name to images.json key.
    pub images: BTreeMap<String, String>,
    /// Container environment variable to the value the render step gives it.
    #[serde(default)]
    pub env: BTreeMap<String, EnvSource>,
    /// Where the TLS flags go.
    pub tls: TlsPlacement,
    /// Script lines and env values that exist only while a feature gate is enabled.
    #[serde(default)]
    pub feature_gated: Vec<FeatureGated>,
    /// The cloud config handling.
    pub cloud_config: CloudConfigSpec,
    /// The bootstrap static pod.
    pub bootstrap: BootstrapSpec,
}

/// What the bootstrap static pod needs on its host.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct BootstrapSpec {
    /// Files the pod reads from the bootstrap host, and where each comes from.
    pub host_files: Vec<HostFile>,
}

/// One host file a bootstrap pod reads.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct HostFile {
    /// The path on the bootstrap host.
    pub path: String,
    /// What puts it there.
    pub source: String,
}

/// What a rendered environment variable is set to.
#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub enum EnvSource {
    /// `status.infrastructureName`.
    InfrastructureName,
    /// The namespace of the post-install objects (`--namespace`).
    Namespace,
}

/// Where TLS flags are inserted.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct TlsPlacement {
    /// The container whose script gets them.
    pub container: String,
    /// The script line (a flag) they are inserted before.
    pub before: String,
}

/// Parts of the manifests that depend on an OpenShift feature gate.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct FeatureGated {
    /// The gate.
    pub gate: String,
    /// Environment variables emptied when the gate is off.
    #[serde(default)]
    pub env: Vec<String>,
    /// Script flags (line prefixes) removed when the gate is off.
    #[serde(default)]
    pub flags: Vec<String>,
}

/// Cloud config handling.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CloudConfigSpec {
    /// The transform (`aws`, `azure`, `azurestack`, `openstack`, `vsphere`, `none`).
    pub transform: crate::cloud_config::Transform,
    /// Other keys of the source ConfigMap that the bootstrap pod reads as files: source key to
    /// file name under `DIR/config/` (Azure Stack Hub's `endpoints`).
    #[serde(default)]
    pub config_files: BTreeMap<String, String>,
}

/// One provider: its descriptor and its parsed manifests, in file-name order.
#[derive(Debug, Clone, PartialEq)]
pub struct Provider {
    /// The descriptor.
    pub descriptor: Descriptor,
    /// `manifests/*.yaml`, parsed.
    pub manifests: Vec<Value>,
    /// `bootstrap/*.yaml`, parsed: static pods.
    pub bootstrap: Vec<Value>,
}

impl Provider {
    /// The provider's name.
    pub fn name(&self) -> &str {
        &self.descriptor.metadata.name
    }

    /// The descriptor's spec.
    pub fn spec(&self) -> &ProviderSpec {
        &self.descriptor.spec
    }
}

/// The objects every provider shares.
#[derive(Debug, Clone, PartialEq)]
pub struct Common {
    /// The PodDisruptionBudget template.
    pub pod_disruption_budget: Value,
    /// The Service template.
    pub service: Value,
}

/// All providers known to this build.
#[derive(Debug, Clone, PartialEq)]
pub struct Catalogue {
    /// Providers by name.
    pub providers: BTreeMap<String, Provider>,
    /// Shared objects.
    pub common: Common,
}

/// What the catalogue says about a platform.
#[derive(Debug)]
pub enum Selection<'a> {
    /// This provider renders it.
    Provider(&'a Provider),
    /// A known platform that has no CCM here; the reason says why.
    NoCcm(String),
}

impl Catalogue {
    /// The providers built into the binary.
    pub fn builtin() -> Result<Self> {
        let mut providers = BTreeMap::new();
        for dir in provider_dirs("")? {
            let name = dir_name(dir)?;
            let provider = load_descriptor(dir)
                .and_then(|descriptor| load_provider(dir, descriptor))
                .with_context(|| format!("built-in provider {name}"))?;
            providers.insert(name.to_string(), provider);
        }
        Ok(Self {
            providers,
            common: load_common()?,
        })
    }

    /// The built-in provider that renders an Infrastructure of `platform` (and, for Azure, of
    /// `azure_cloud_name`), alone, with the common objects: [`Catalogue::select`] on it gives
    /// what it gives on the whole catalogue.
    ///
    /// Parsing the YAML of every provider was about 90% of the instructions of a whole
    /// `ccm-render render` (callgrind), so only the descriptors of the folders whose name starts
    /// with the platform in lower case are read (`azure` and `azurestackhub` for `Azure`;
    /// `check_provider` makes every provider follow that rule), and only the chosen provider's
    /// manifests are parsed.
    pub fn builtin_for(platform: &str, azure_cloud_name: &str) -> Result<Self> {
        let mut candidates = Vec::new();
        for dir in provider_dirs(&platform.to_ascii_lowercase())? {
            let name = dir_name(dir)?;
            let descriptor =
                load_descriptor(dir).with_context(|| format!("built-in provider {name}"))?;
            candidates.push((name, dir, descriptor));
        }
        let chosen = pick(
            candidates.iter().map(|(name, _, d)| (*name, &d.spec)),
            platform,
            azure_cloud_name,
        )
        .map(str::to_string);
        let mut providers = BTreeMap::new();
        for (name, dir, descriptor) in candidates {
            if chosen.as_deref() == Some(name) {
                let provider = load_provider(dir, descriptor)
                    .with_context(|| format!("built-in provider {name}"))?;
                providers.insert(name.to_string(), provider);
            }
        }
        Ok(Self {
            providers,
            common: load_common()?,
        })
    }

    /// Picks the provider for an Infrastructure's platform (CCCMO pkg/cloud/cloud.go
    /// `getAssetsConstructor`): by `platformStatus.type`, and for Azure by cloud name, the
    /// provider that names the cloud winning over the one that does not.
    pub fn select(&self, platform: &str, azure_cloud_name: &str) -> Selection<'_> {
        let specs = self.providers.iter().map(|(n, p)| (n.as_str(), p.spec()));
        if let Some(provider) =
            pick(specs, platform, azure_cloud_name).and_then(|name| self.providers.get(name))
        {
            return Selection::Provider(provider);
        }
        Selection::NoCcm(format!(
            "platform {platform} has no cloud controller manager that ccm-render renders"
        ))
    }
}

/// The name of the provider that [`Catalogue::select`] picks among `(name, spec)` pairs.
fn pick<'a>(
    specs: impl Iterator<Item = (&'a str, &'a ProviderSpec)>,
    platform: &str,
    azure_cloud_name: &str,
) -> Option<&'a str> {
    let matching: Vec<(&str, &ProviderSpec)> = specs
        .filter(|(_, spec)| spec.platform == platform)
        .filter(|(_, spec)| {
            spec.azure_cloud_name
                .as_deref()
                .is_none_or(|c| c == azure_cloud_name)
        })
        .collect();
    matching
        .iter()
        .find(|(_, spec)| spec.azure_cloud_name.is_some())
        .or(matching.first())
        .map(|(name, _)| *name)
}

/// The provider folders (every asset folder but `common/`) whose name starts with `prefix`.
fn provider_dirs(prefix: &str) -> Result<Vec<&'static Dir<'static>>> {
    let mut dirs = Vec::new();
    for dir in ASSETS.dirs() {
        let name = dir_name(dir)?;
        if name != COMMON && name.starts_with(prefix) {
            dirs.push(dir);
        }
    }
    Ok(dirs)
}

fn load_common() -> Result<Common> {
    let common_dir = ASSETS
        .get_dir(COMMON)
        .ok_or_else(|| anyhow!("built-in assets lack the {COMMON}/ folder"))?;
    Ok(Common {
        pod_disruption_budget: parse_asset(common_dir, "common/poddisruptionbudget.yaml")?,
        service: parse_asset(common_dir, "common/service.yaml")?,
    })
}

fn dir_name<'a>(dir: &'a Dir<'a>) -> Result<&'a str> {
    dir.path()
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| anyhow!("asset folder {} has no UTF-8 name", dir.path().display()))
}

fn parse_asset(dir: &Dir<'_>, path: &str) -> Result<Value> {
    let file = dir
        .get_file(path)
        .ok_or_else(|| anyhow!("missing asset {path}"))?;
    let text = file
        .contents_utf8()
        .ok_or_else(|| anyhow!("asset {path} is not UTF-8"))?;
    let docs = crate::yaml::documents(text).with_context(|| format!("asset {path}"))?;
    match <[Value; 1]>::try_from(docs) {
        Ok([doc]) => Ok(doc),
        Err(docs) => bail!("asset {path}: holds {} objects, expected one", docs.len()),
    }
}

/// Every object of a provider's sub-folder, in file-name order (empty when it has none).
fn parse_folder(dir: &Dir<'_>, folder: &str) -> Result<Vec<Value>> {
    let Some(sub) = dir.get_dir(folder) else {
        return Ok(Vec::new());
    };
    let mut files: Vec<_> = sub.files().collect();
    files.sort_by_key(|f| f.path());
    files
        .into_iter()
        .map(|file| parse_asset(sub, &file.path().to_string_lossy()))
        .collect()
}

fn load_descriptor(dir: &Dir<'_>) -> Result<Descriptor> {
    let name = dir_name(dir)?;
    let descriptor_path = format!("{name}/provider.yaml");
    let text = dir
        .get_file(&descriptor_path)
        .and_then(|f| f.contents_utf8())
        .ok_or_else(|| anyhow!("{descriptor_path} is missing"))?;
    crate::yaml::from_str(text).with_context(|| descriptor_path.clone())
}

fn load_provider(dir: &Dir<'_>, descriptor: Descriptor) -> Result<Provider> {
    let name = dir_name(dir)?;
    let provider = Provider {
        descriptor,
        manifests: parse_folder(dir, &format!("{name}/manifests"))?,
        bootstrap: parse_folder(dir, &format!("{name}/bootstrap"))?,
    };
    check_provider(&provider, name)?;
    Ok(provider)
}

/// Checks a provider as strictly as the render will use it, so that a broken provider fails
/// when it is loaded, not half-way through a render.
fn check_provider(provider: &Provider, folder: &str) -> Result<()> {
    let d = &provider.descriptor;
    if d.api_version != "ccm-render.openshift.io/v1alpha1" || d.kind != "Provider" {
        bail!(
            "provider.yaml: apiVersion/kind must be ccm-render.openshift.io/v1alpha1 Provider, found {} {}",
            d.api_version,
            d.kind
        );
    }
    if d.metadata.name != folder {
        bail!(
            "provider.yaml: metadata.name {:?} differs from its folder {folder:?}",
            d.metadata.name
        );
    }
    if !crate::inputs::infrastructure::KNOWN_PLATFORMS.contains(&d.spec.platform.as_str()) {
        bail!(
            "provider.yaml: spec.platform: unknown platform {:?}",
            d.spec.platform
        );
    }
    // Catalogue::builtin_for finds a platform's providers by this rule, without parsing others.
    if !folder.starts_with(&d.spec.platform.to_ascii_lowercase()) {
        bail!(
            "the provider folder {folder:?} must start with its spec.platform {:?} in lower case",
            d.spec.platform
        );
    }
    crate::validate::dns_label(&d.spec.resource_name)
        .map_err(|e| anyhow!("provider.yaml: spec.resourceName: {e}"))?;
    let mut tls_container_seen = false;
    for pod in &provider.bootstrap {
        if crate::inputs::kind_of(pod) != "Pod"
            || pod.pointer("/metadata/namespace").and_then(Value::as_str) != Some("kube-system")
        {
            bail!("bootstrap/: every object must be a Pod in kube-system");
        }
    }
    for object in provider.manifests.iter().chain(&provider.bootstrap) {
        for container in crate::render::containers(object) {
            let cname = container
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default();
            if !d.spec.images.contains_key(cname) {
                bail!(
                    "provider.yaml: spec.images has no entry for container {cname:?} of {} {}",
                    crate::inputs::kind_of(object),
                    crate::inputs::name_of(object)
                );
            }
            tls_container_seen |= cname == d.spec.tls.container;
        }
    }
    if !provider.manifests.is_empty() && !tls_container_seen {
        bail!(
            "provider.yaml: spec.tls.container {:?} is not a container of any manifest",
            d.spec.tls.container
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_catalogue_has_the_nine_ccccmo_platforms() {
        let catalogue = Catalogue::builtin().expect("built-in providers load");
        let names: Vec<&str> = catalogue.providers.keys().map(String::as_str).collect();
        assert_eq!(
            names,
            [
                "aws",
                "azure",
                "azurestackhub",
                "gcp",
                "ibmcloud",
                "nutanix",
                "openstack",
                "powervs",
                "vsphere"
            ]
        );
    }

    #[test]
    fn azure_stack_hub_is_selected_by_cloud_name() {
        let catalogue = Catalogue::builtin().expect("loads");
        let pick = |cloud: &str| match catalogue.select("Azure", cloud) {
            Selection::Provider(p) => p.name().to_string(),
            Selection::NoCcm(r) => r,
        };
        assert_eq!(pick("AzureStackCloud"), "azurestackhub");
        assert_eq!(pick("AzurePublicCloud"), "azure");
        assert_eq!(pick(""), "azure");
    }

    #[test]
    fn catalogue_for_a_platform_selects_as_the_whole_one_does() {
        let whole = Catalogue::builtin().expect("loads");
        let name = |s: Selection<'_>| match s {
            Selection::Provider(p) => p.name().to_string(),
            Selection::NoCcm(r) => r,
        };
        for platform in crate::inputs::infrastructure::KNOWN_PLATFORMS {
            for cloud in ["", "AzurePublicCloud", "AzureStackCloud"] {
                let only = Catalogue::builtin_for(platform, cloud).expect("loads");
                let picked = name(only.select(platform, cloud));
                assert_eq!(
                    picked,
                    name(whole.select(platform, cloud)),
                    "{platform} {cloud}"
                );
                let loaded: Vec<&String> = only.providers.keys().collect();
                if whole.providers.contains_key(&picked) {
                    assert_eq!(loaded, [&picked], "{platform} {cloud}: only the one used");
                } else {
                    assert!(loaded.is_empty(), "{platform} {cloud}: {loaded:?}");
                }
                assert_eq!(only.common, whole.common);
            }
        }
    }

    #[test]
    fn a_provider_folder_must_start_with_its_platform() {
        let mut catalogue = Catalogue::builtin().expect("loads");
        let mut aws = catalogue.providers.remove("aws").expect("aws");
        aws.descriptor.metadata.name = "amazon".to_string();
        let err = check_provider(&aws, "amazon").expect_err("misnamed folder");
        assert!(
            err.to_string()
                .contains("\"amazon\" must start with its spec.platform \"AWS\""),
            "{err}"
        );
        aws.descriptor.metadata.name = "aws-next".to_string();
        assert!(check_provider(&aws, "aws-next").is_ok());
    }

    #[test]
    fn platform_without_provider_has_no_ccm() {
        let catalogue = Catalogue::builtin().expect("loads");
        assert!(matches!(
            catalogue.select("BareMetal", ""),
            Selection::NoCcm(_)
        ));
    }
}
