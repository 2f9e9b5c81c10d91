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
        Self::builtin_where(|_| true)
    }

    /// The built-in providers that serve `platform` (its `status.platformStatus.type`), and the
    /// common objects: all that a render of that platform reads, so [`Catalogue::select`] gives
    /// the same answer as on the whole catalogue. Parsing the manifests of all nine providers was
    /// about 90% of the instructions of a whole `ccm-render render` (callgrind); every descriptor
    /// is still read, to know its platform.
    pub fn builtin_for(platform: &str) -> Result<Self> {
        Self::builtin_where(|spec| spec.platform == platform)
    }

    fn builtin_where(wanted: impl Fn(&ProviderSpec) -> bool) -> Result<Self> {
        let mut providers = BTreeMap::new();
        for dir in ASSETS.dirs() {
            let name = dir_name(dir)?;
            if name == COMMON {
                continue;
            }
            let descriptor =
                load_descriptor(dir).with_context(|| format!("built-in provider {name}"))?;
            if !wanted(&descriptor.spec) {
                continue;
            }
            let provider = load_provider(dir, descriptor)
                .with_context(|| format!("built-in provider {name}"))?;
            providers.insert(name.to_string(), provider);
        }
        let common_dir = ASSETS
            .get_dir(COMMON)
            .ok_or_else(|| anyhow!("built-in assets lack the {COMMON}/ folder"))?;
        let common = Common {
            pod_disruption_budget: parse_asset(common_dir, "common/poddisruptionbudget.yaml")?,
            service: parse_asset(common_dir, "common/service.yaml")?,
        };
        Ok(Self { providers, common })
    }

    /// Picks the provider for an Infrastructure's platform (CCCMO pkg/cloud/cloud.go
    /// `getAssetsConstructor`): by `platformStatus.type`, and for Azure by cloud name, the
    /// provider that names the cloud winning over the one that does not.
    pub fn select(&self, platform: &str, azure_cloud_name: &str) -> Selection<'_> {
        let matching: Vec<&Provider> = self
            .providers
            .values()
            .filter(|p| p.spec().platform == platform)
            .filter(|p| {
                p.spec()
                    .azure_cloud_name
                    .as_deref()
                    .is_none_or(|c| c == azure_cloud_name)
            })
            .collect();
        if let Some(specific) = matching
            .iter()
            .find(|p| p.spec().azure_cloud_name.is_some())
        {
            return Selection::Provider(specific);
        }
        if let Some(any) = matching.first() {
            return Selection::Provider(any);
        }
        Selection::NoCcm(format!(
            "platform {platform} has no cloud controller manager that ccm-render renders"
        ))
    }
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
        for (platform, cloud) in [
            ("AWS", ""),
            ("Azure", "AzureStackCloud"),
            ("Azure", "AzurePublicCloud"),
            ("Azure", ""),
            ("VSphere", ""),
            ("BareMetal", ""),
        ] {
            let only = Catalogue::builtin_for(platform).expect("loads");
            assert_eq!(
                name(only.select(platform, cloud)),
                name(whole.select(platform, cloud)),
                "{platform} {cloud}"
            );
            assert!(
                only.providers
                    .values()
                    .all(|p| p.spec().platform == platform)
            );
            assert_eq!(only.common, whole.common);
        }
        assert_eq!(
            Catalogue::builtin_for("Azure")
                .expect("loads")
                .providers
                .len(),
            2
        );
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
