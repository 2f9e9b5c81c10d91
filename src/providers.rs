//! The provider catalogue: one folder per CCM under `assets/`, embedded in the binary.
//!
//! A provider is data: `provider.yaml` (a descriptor: the platform it serves, images.json keys,
//! `--cloud-provider` name, where the TLS flags go, the cloud config transform) and
//! `manifests/*.yaml`, plain Kubernetes objects as CCCMO applies them with its defaults in place.
//! The render step adjusts those parsed objects; nothing here is text-templated.
//!
//! Loading is split in two: gathering a folder's files as text (the embedded `assets/` here,
//! folders on disk in [`crate::inputs::provider_dir`]) and [`parse`], a pure function that
//! parses and checks one folder. Built-in and `--provider-dir` providers go through the same
//! [`parse`], so a provider on disk is held to exactly the rules of the built-in ones.

use crate::inputs::infrastructure::Infrastructure;
use crate::inputs::provider_dir::FolderText;
use anyhow::{Result, anyhow, bail};
use include_dir::{Dir, include_dir};
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;

static ASSETS: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/assets");

/// The folder of objects shared by every provider (PodDisruptionBudget, Service).
const COMMON: &str = "common";

/// The folder of release deltas (see [`crate::releases`]); not a provider.
const RELEASES: &str = "releases";

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
    /// With `platform: External`: the Infrastructure `spec.platformSpec.external.platformName`
    /// served (compared without regard to case). Required for External, forbidden otherwise.
    #[serde(default)]
    pub external_platform_name: Option<String>,
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
    /// Whether the render sets the scripts' `--feature-gates=` line to the enabled gates that
    /// upstream controller-manager knows (CCCMO does so for the openstack and vsphere templates
    /// only; any other provider's `--feature-gates=` is its own and left as written).
    #[serde(default)]
    pub upstream_feature_gates: bool,
    /// Script lines and env values that exist only while a feature gate is enabled.
    #[serde(default)]
    pub feature_gated: Vec<FeatureGated>,
    /// The cloud config handling.
    pub cloud_config: CloudConfigSpec,
    /// The bootstrap static pod.
    pub bootstrap: BootstrapSpec,
    /// The OpenShift releases (`4.18` ... as `ccm-render releases` lists them) this provider may
    /// render for; absent: every release. Built-in providers leave it out (their releases are
    /// `assets/releases/`).
    #[serde(default)]
    pub releases: Option<Vec<String>>,
}

/// What the bootstrap static pod needs on its host.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct BootstrapSpec {
    /// Files the pod reads from the bootstrap host, and where each comes from.
    pub host_files: Vec<HostFile>,
    /// What `--credentials` reads and writes under `DIR/secrets/`.
    pub credentials: CredentialsSpec,
}

/// How the bootstrap pod gets its cloud credentials.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct CredentialsSpec {
    /// The Secrets `--credentials` may hold, as `namespace/name`, in order of preference: the
    /// installer's root credentials in `kube-system`, then the CCM's own secret that a
    /// manual-mode install creates.
    pub secrets: Vec<String>,
    /// The files written under `DIR/secrets/` (copied to `/etc/kubernetes/bootstrap-secrets/`).
    #[serde(default)]
    pub files: Vec<CredentialFile>,
    /// Why the pod needs no credential file, when `files` is empty.
    #[serde(default)]
    pub note: Option<String>,
}

/// One file under `DIR/secrets/`.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct CredentialFile {
    /// File name under `DIR/secrets/`.
    pub path: String,
    /// What it holds.
    pub from: CredentialSource,
}

/// Where a credential file's content comes from.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub enum CredentialSource {
    /// One key of the Secret, copied as is.
    Key(String),
    /// The transformed cloud config with the Secret's service principal merged in, as the
    /// `azure-config-credentials-injector` init container does in the Deployments.
    AzureCloudConfig(AzureInjection),
}

/// Options of the Azure credentials merge (the injector's flags).
#[derive(Debug, Clone, Copy, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct AzureInjection {
    /// `--disable-identity-extension-auth`: set `useManagedIdentityExtension` to false when the
    /// cloud config has it.
    #[serde(default)]
    pub disable_identity_extension_auth: bool,
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
    /// When set, the post-install cloud config is this Secret instead of the `cloud-conf`
    /// ConfigMap: for CCMs whose config file carries credentials (OCI's cloud-provider.yaml).
    #[serde(default)]
    pub secret: Option<CloudConfigSecret>,
    /// The format of the CCM's config file, for providers whose transform is `none` (the
    /// others write a fixed format); shown by `ccm-render platforms`.
    #[serde(default)]
    pub format: Option<ConfigFormat>,
}

/// A cloud config file format.
#[derive(Debug, Clone, Copy, Deserialize, serde::Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum ConfigFormat {
    /// gcfg / INI.
    Ini,
    /// JSON.
    Json,
    /// YAML.
    Yaml,
}

impl ConfigFormat {
    /// The format a transform writes (CCCMO pkg/cloud/*: AWS and OpenStack write gcfg INI,
    /// Azure and Azure Stack Hub JSON, vSphere the YAML config of its CCM); None for `none`,
    /// which keeps the source as it is.
    pub fn of_transform(transform: crate::cloud_config::Transform) -> Option<Self> {
        use crate::cloud_config::Transform;
        match transform {
            Transform::Aws | Transform::OpenStack => Some(Self::Ini),
            Transform::Azure | Transform::AzureStack => Some(Self::Json),
            Transform::VSphere => Some(Self::Yaml),
            Transform::None => None,
        }
    }

    /// The name used in descriptors and in `ccm-render platforms`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Ini => "ini",
            Self::Json => "json",
            Self::Yaml => "yaml",
        }
    }
}

/// A Secret in the post-install namespace that carries the transformed cloud config.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct CloudConfigSecret {
    /// The Secret's name.
    pub name: String,
    /// The data key holding the cloud config.
    pub key: String,
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
    /// Where it was read from, for messages (`assets/aws`, `DIR/oci`).
    pub origin: String,
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

    /// Whether this provider serves an External Infrastructure whose platform name is `name`.
    fn serves_external(&self, name: &str) -> bool {
        self.spec()
            .external_platform_name
            .as_deref()
            .is_some_and(|n| n.eq_ignore_ascii_case(name))
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

/// All providers known to this run: the built-in ones and any `--provider-dir` folders.
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
    /// Nothing to render; the reason says why.
    NoCcm(String),
}

/// The built-in providers' folders, as text, in name order.
pub fn builtin_folders() -> Result<Vec<FolderText>> {
    let mut folders = Vec::new();
    for dir in ASSETS.dirs() {
        let name = dir_name(dir)?;
        if name == COMMON || name == RELEASES {
            continue;
        }
        let mut files = BTreeMap::new();
        collect_embedded(dir, name, &mut files)?;
        folders.push(FolderText {
            origin: format!("assets/{name}"),
            files,
        });
    }
    folders.sort_by(|a, b| a.origin.cmp(&b.origin));
    Ok(folders)
}

fn collect_embedded(dir: &Dir<'_>, root: &str, out: &mut BTreeMap<String, String>) -> Result<()> {
    for file in dir.files() {
        let path = file.path().to_string_lossy().into_owned();
        let text = file
            .contents_utf8()
            .ok_or_else(|| anyhow!("assets/{path}: is not UTF-8"))?;
        let relative = path
            .strip_prefix(&format!("{root}/"))
            .unwrap_or(&path)
            .to_string();
        out.insert(relative, text.to_string());
    }
    for sub in dir.dirs() {
        collect_embedded(sub, root, out)?;
    }
    Ok(())
}

impl Catalogue {
    /// The providers built into the binary.
    pub fn builtin() -> Result<Self> {
        let mut providers = BTreeMap::new();
        for folder in builtin_folders()? {
            let provider = parse(&folder)?;
            providers.insert(provider.name().to_string(), provider);
        }
        Ok(Self {
            providers,
            common: builtin_common()?,
        })
    }

    /// The built-in providers a render of `infra` needs: the descriptors of the candidate
    /// folders, then only the chosen provider parsed in full, with the same selection as
    /// [`Catalogue::select_for`]. Parsing every provider's manifests was 92% of a whole render
    /// (callgrind, AWS: 41 M of 45 M instructions). Candidates are the folders whose name
    /// starts with the platform in lower case (a rule every built-in follows; a unit test keeps
    /// it so), or every folder for External, which is selected by descriptor.
    pub fn builtin_for(infra: &Infrastructure) -> Result<Self> {
        let folders = builtin_folders()?;
        let prefix = infra.platform.to_ascii_lowercase();
        let mut light = BTreeMap::new();
        for folder in &folders {
            if infra.platform != EXTERNAL && !folder.name().starts_with(&prefix) {
                continue;
            }
            let provider = Provider {
                descriptor: parse_descriptor(folder)?,
                manifests: Vec::new(),
                bootstrap: Vec::new(),
                origin: folder.origin.clone(),
            };
            light.insert(provider.name().to_string(), provider);
        }
        let light = Self {
            providers: light,
            common: builtin_common()?,
        };
        let chosen = match light.select_for(infra) {
            Selection::Provider(provider) => Some(provider.name().to_string()),
            Selection::NoCcm(_) => None,
        };
        let mut providers = BTreeMap::new();
        if let Some(folder) = chosen.and_then(|name| folders.iter().find(|f| f.name() == name)) {
            let provider = parse(folder)?;
            providers.insert(provider.name().to_string(), provider);
        } else {
            // Keep the descriptors, so that "no provider" messages list what exists.
            providers = light.providers;
        }
        Ok(Self {
            providers,
            common: light.common,
        })
    }

    /// Adds providers read from `--provider-dir` (already parsed with [`parse`]). One named
    /// like a provider already in the catalogue replaces it; the returned notes say so. A new
    /// provider that serves what another provider serves is an error: which one renders must
    /// never depend on names sorting.
    pub fn add(&mut self, added: Vec<Provider>) -> Result<Vec<String>> {
        let mut notes = Vec::new();
        for provider in added {
            let name = provider.name().to_string();
            if let Some(old) = self.providers.get(&name) {
                notes.push(format!(
                    "{}: overrides the provider {name} from {}",
                    provider.origin, old.origin
                ));
            }
            self.providers.insert(name, provider);
        }
        self.check_unambiguous()?;
        Ok(notes)
    }

    /// Every platform (and Azure cloud, and External platform name) is served by one provider.
    fn check_unambiguous(&self) -> Result<()> {
        let all: Vec<&Provider> = self.providers.values().collect();
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                let (sa, sb) = (a.spec(), b.spec());
                let clash = sa.platform == sb.platform
                    && if sa.platform == EXTERNAL {
                        sa.external_platform_name
                            .as_deref()
                            .is_some_and(|n| b.serves_external(n))
                    } else {
                        sa.azure_cloud_name == sb.azure_cloud_name
                    };
                if clash {
                    let (first, second) = if a.origin.starts_with("assets/") {
                        (a, b)
                    } else {
                        (b, a)
                    };
                    bail!(
                        "{}/provider.yaml: spec: serves what {} already serves (platform {}{}); name the folder {} to override it, or serve something else",
                        second.origin,
                        first.origin,
                        sa.platform,
                        sa.external_platform_name
                            .as_deref()
                            .map(|n| format!(", externalPlatformName {n}"))
                            .unwrap_or_default(),
                        first.name()
                    );
                }
            }
        }
        Ok(())
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

    /// Picks the provider for an Infrastructure. `External` is ccm-render's own rule (CCCMO
    /// renders nothing for External: the user brings the CCM): nothing unless
    /// `status.platformStatus.external.cloudControllerManager.state` is `External` (the
    /// installer's `platform.external.cloudControllerManager: External`), then the provider whose
    /// `externalPlatformName` equals `spec.platformSpec.external.platformName`, ignoring case
    /// (the field is free text that the installer copies as written).
    pub fn select_for(&self, infra: &Infrastructure) -> Selection<'_> {
        if infra.platform != EXTERNAL {
            return self.select(&infra.platform, &infra.azure_cloud_name);
        }
        if infra.external_ccm_state != EXTERNAL {
            let state = if infra.external_ccm_state.is_empty() {
                "empty"
            } else {
                infra.external_ccm_state.as_str()
            };
            return Selection::NoCcm(format!(
                "platform External: status.platformStatus.external.cloudControllerManager.state is {state}: the cluster does not expect a CCM"
            ));
        }
        let name = &infra.external_platform_name;
        if let Some(provider) = self
            .providers
            .values()
            .find(|p| p.spec().platform == EXTERNAL && p.serves_external(name))
        {
            return Selection::Provider(provider);
        }
        let mut known: Vec<&str> = self
            .providers
            .values()
            .filter_map(|p| p.spec().external_platform_name.as_deref())
            .collect();
        known.sort_unstable();
        Selection::NoCcm(format!(
            "platform External: no provider serves spec.platformSpec.external.platformName {name:?} (known: {}); write one (ccm-render provider new) and pass its folder with --provider-dir",
            if known.is_empty() {
                "none".to_string()
            } else {
                known.join(", ")
            }
        ))
    }
}

/// The objects every built-in provider shares (`assets/common/`).
fn builtin_common() -> Result<Common> {
    let common_dir = ASSETS
        .get_dir(COMMON)
        .ok_or_else(|| anyhow!("built-in assets lack the {COMMON}/ folder"))?;
    Ok(Common {
        pod_disruption_budget: parse_asset(common_dir, "common/poddisruptionbudget.yaml")?,
        service: parse_asset(common_dir, "common/service.yaml")?,
    })
}

/// The platform type whose CCM the user brings.
pub const EXTERNAL: &str = "External";

/// The descriptor's `apiVersion`.
pub const API_VERSION: &str = "ccm-render.openshift.io/v1alpha1";

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
    one_object(text).map_err(|e| anyhow!("assets/{path}: {e}"))
}

/// The one object of a YAML file.
fn one_object(text: &str) -> Result<Value> {
    let docs = crate::yaml::documents(text).map_err(|e| anyhow!("not valid YAML: {e}"))?;
    match <[Value; 1]>::try_from(docs) {
        Ok([doc]) => Ok(doc),
        Err(docs) => bail!("holds {} objects, expected one", docs.len()),
    }
}

/// Whether `path` ends in one of `extensions` (any case).
fn has_extension(path: &str, extensions: &[&str]) -> bool {
    std::path::Path::new(path)
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| extensions.iter().any(|x| e.eq_ignore_ascii_case(x)))
}

/// Whether a file of a provider folder is YAML that belongs in `folder`.
fn in_folder<'a>(path: &'a str, folder: &str) -> Option<&'a str> {
    let rest = path.strip_prefix(folder)?.strip_prefix('/')?;
    (!rest.contains('/')).then_some(rest)
}

/// Parses and checks one provider folder: `provider.yaml`, `bootstrap/*.yaml`,
/// `manifests/*.yaml` (`.yml` too; `*.md` files are documentation and skipped). Pure: the
/// folder was read by the caller. Errors name the file and, where there is one, the field.
pub fn parse(folder: &FolderText) -> Result<Provider> {
    let origin = folder.origin.as_str();
    let at = |file: &str| format!("{origin}/{file}");
    let mut manifests = Vec::new();
    let mut bootstrap = Vec::new();
    let mut has_descriptor = false;
    for (path, text) in &folder.files {
        let is_yaml = has_extension(path, &["yaml", "yml"]);
        if path == "provider.yaml" {
            has_descriptor = true;
        } else if is_yaml && in_folder(path, "manifests").is_some() {
            manifests.push((path, text));
        } else if is_yaml && in_folder(path, "bootstrap").is_some() {
            bootstrap.push((path, text));
        } else if !has_extension(path, &["md"]) {
            bail!(
                "{}: not part of a provider (a provider folder holds provider.yaml, bootstrap/*.yaml and manifests/*.yaml)",
                at(path)
            );
        }
    }
    let descriptor_path = at("provider.yaml");
    if !has_descriptor {
        bail!("{descriptor_path}: is missing");
    }
    let raw = raw_descriptor(folder)?;
    let parse_list = |list: Vec<(&String, &String)>| {
        list.into_iter()
            .map(|(path, text)| {
                let object = one_object(text).map_err(|e| anyhow!("{}: {e}", at(path)))?;
                Ok((at(path), object))
            })
            .collect::<Result<Vec<_>>>()
    };
    let manifests = parse_list(manifests)?;
    let bootstrap = parse_list(bootstrap)?;
    check_parsed(&Parsed {
        origin,
        descriptor_at: &descriptor_path,
        descriptor: &raw,
        manifests: &manifests,
        bootstrap: &bootstrap,
    })
}

/// A provider's parts, parsed but not yet checked: what [`check_parsed`] turns into a
/// [`Provider`]. Each object comes with what to call it in messages (its file, or for a
/// release's provider its `Kind/name` and the release file that changed it).
#[derive(Debug, Clone, Copy)]
pub struct Parsed<'a> {
    /// Where the provider comes from (`assets/aws`, `DIR/oci`).
    pub origin: &'a str,
    /// What to call `provider.yaml` in messages.
    pub descriptor_at: &'a str,
    /// `provider.yaml`, parsed.
    pub descriptor: &'a Value,
    /// `manifests/*.yaml`, in order, each with what to call it in messages.
    pub manifests: &'a [(String, Value)],
    /// `bootstrap/*.yaml`, likewise.
    pub bootstrap: &'a [(String, Value)],
}

/// Checks a provider's parsed parts with every rule a provider follows (the descriptor, each
/// object against it, the TLS anchor). [`parse`] and the releases of [`crate::releases`] both
/// go through it, so a release's provider is held to exactly the rules of the newest one.
pub fn check_parsed(parts: &Parsed<'_>) -> Result<Provider> {
    let descriptor: Descriptor =
        crate::inputs::typed(parts.descriptor, camino::Utf8Path::new(parts.descriptor_at))?;
    let folder = parts.origin.rsplit('/').next().unwrap_or(parts.origin);
    check_descriptor(&descriptor, folder).map_err(|e| anyhow!("{}: {e}", parts.descriptor_at))?;
    let mut provider = Provider {
        descriptor,
        manifests: Vec::with_capacity(parts.manifests.len()),
        bootstrap: Vec::with_capacity(parts.bootstrap.len()),
        origin: parts.origin.to_string(),
    };
    let mut tls_script_seen = false;
    for (list, is_bootstrap) in [(parts.manifests, false), (parts.bootstrap, true)] {
        for (at, object) in list {
            let tls = check_object(object, &provider.descriptor.spec, is_bootstrap)
                .map_err(|e| anyhow!("{at}: {e}"))?;
            tls_script_seen |= tls;
            if is_bootstrap {
                provider.bootstrap.push(object.clone());
            } else {
                provider.manifests.push(object.clone());
            }
        }
    }
    let tls = &provider.descriptor.spec.tls;
    if !provider.manifests.is_empty() && !tls_script_seen {
        bail!(
            "{}: spec.tls: no container {:?} in manifests/ has a script (command: [/bin/bash, -c, SCRIPT]) with a line starting with {:?}, where the TLS flags go",
            parts.descriptor_at,
            tls.container,
            tls.before
        );
    }
    Ok(provider)
}

/// A folder's `provider.yaml`, parsed but not checked.
pub fn raw_descriptor(folder: &FolderText) -> Result<Value> {
    let descriptor_path = format!("{}/provider.yaml", folder.origin);
    let text = folder
        .files
        .get("provider.yaml")
        .ok_or_else(|| anyhow!("{descriptor_path}: is missing"))?;
    one_object(text).map_err(|e| anyhow!("{descriptor_path}: {e}"))
}

/// Parses and checks a folder's `provider.yaml` alone.
fn parse_descriptor(folder: &FolderText) -> Result<Descriptor> {
    let descriptor_path = format!("{}/provider.yaml", folder.origin);
    let raw = raw_descriptor(folder)?;
    let descriptor: Descriptor =
        crate::inputs::typed(&raw, camino::Utf8Path::new(&descriptor_path))?;
    check_descriptor(&descriptor, folder.name()).map_err(|e| anyhow!("{descriptor_path}: {e}"))?;
    Ok(descriptor)
}

/// Checks a descriptor on its own; errors start with the field.
fn check_descriptor(d: &Descriptor, folder: &str) -> Result<()> {
    if d.api_version != API_VERSION {
        bail!(
            "apiVersion: must be {API_VERSION}, found {:?}",
            d.api_version
        );
    }
    if d.kind != "Provider" {
        bail!("kind: must be Provider, found {:?}", d.kind);
    }
    crate::validate::dns_label(&d.metadata.name).map_err(|e| anyhow!("metadata.name: {e}"))?;
    if d.metadata.name != folder {
        bail!(
            "metadata.name: {:?} differs from its folder {folder:?}",
            d.metadata.name
        );
    }
    let spec = &d.spec;
    if !crate::inputs::infrastructure::KNOWN_PLATFORMS.contains(&spec.platform.as_str()) {
        bail!("spec.platform: unknown platform {:?}", spec.platform);
    }
    match (&spec.external_platform_name, spec.platform == EXTERNAL) {
        (None, true) => bail!(
            "spec.externalPlatformName: required with platform External (the Infrastructure's spec.platformSpec.external.platformName it serves)"
        ),
        (Some(_), false) => bail!(
            "spec.externalPlatformName: only for platform External, not {}",
            spec.platform
        ),
        (Some(name), true) if name.is_empty() || name.chars().any(char::is_whitespace) => {
            bail!("spec.externalPlatformName: {name:?} must be a non-empty word")
        }
        _ => {}
    }
    if spec.cloud_provider.is_empty()
        || !spec
            .cloud_provider
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        bail!(
            "spec.cloudProvider: {:?} must be the CCM's --cloud-provider name (letters, digits, '-', '_')",
            spec.cloud_provider
        );
    }
    crate::validate::dns_label(&spec.resource_name)
        .map_err(|e| anyhow!("spec.resourceName: {e}"))?;
    if spec.images.is_empty() {
        bail!("spec.images: name the images.json key of every container");
    }
    for (container, key) in &spec.images {
        if container.is_empty() || key.is_empty() {
            bail!(
                "spec.images: {container:?}: container name and images.json key must not be empty"
            );
        }
    }
    if let Some(secret) = &spec.cloud_config.secret {
        crate::validate::dns_subdomain(&secret.name)
            .map_err(|e| anyhow!("spec.cloudConfig.secret.name: {e}"))?;
        if !is_plain_file_name(&secret.key) {
            bail!(
                "spec.cloudConfig.secret.key: {:?} must be a plain file name ([A-Za-z0-9._-], not starting with a dot)",
                secret.key
            );
        }
    }
    if let (Some(fixed), Some(given)) = (
        ConfigFormat::of_transform(spec.cloud_config.transform),
        spec.cloud_config.format,
    ) && fixed != given
    {
        bail!(
            "spec.cloudConfig.format: {} contradicts the transform, which writes {}",
            given.name(),
            fixed.name()
        );
    }
    for file in spec.cloud_config.config_files.values() {
        if !is_plain_file_name(file) {
            bail!("spec.cloudConfig.configFiles: {file:?} must be a plain file name");
        }
    }
    if let Some(releases) = &spec.releases {
        if releases.is_empty() {
            bail!(
                "spec.releases: name at least one release, or leave the field out (every release)"
            );
        }
        let known = crate::releases::Releases::builtin()?;
        for (i, release) in releases.iter().enumerate() {
            if !known.all().iter().any(|r| &r.name == release) {
                bail!(
                    "spec.releases[{i}]: {release:?} is not a release (X.Y); {}",
                    known.supported()
                );
            }
        }
    }
    check_credentials(&spec.bootstrap.credentials)
}

fn is_plain_file_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
}

fn check_credentials(spec: &CredentialsSpec) -> Result<()> {
    const FIELD: &str = "spec.bootstrap.credentials";
    if spec.secrets.is_empty() {
        bail!("{FIELD}.secrets: name at least one Secret as namespace/name");
    }
    for (i, id) in spec.secrets.iter().enumerate() {
        let valid = id.split_once('/').is_some_and(|(ns, name)| {
            crate::validate::namespace(ns).is_ok() && crate::validate::dns_subdomain(name).is_ok()
        });
        if !valid {
            bail!("{FIELD}.secrets[{i}]: {id:?} is not namespace/name");
        }
    }
    match (spec.files.is_empty(), &spec.note) {
        (true, None) => bail!("{FIELD}: without files, a note must say why none is needed"),
        (false, Some(_)) => bail!("{FIELD}: note is only for providers without files"),
        _ => {}
    }
    let mut seen = std::collections::BTreeSet::new();
    for (i, file) in spec.files.iter().enumerate() {
        if !is_plain_file_name(&file.path) {
            bail!(
                "{FIELD}.files[{i}].path: {:?} must be a plain file name ([A-Za-z0-9._-], not starting with a dot)",
                file.path
            );
        }
        if !seen.insert(file.path.as_str()) {
            bail!("{FIELD}.files[{i}].path: {:?} is listed twice", file.path);
        }
    }
    Ok(())
}

/// Checks one object of `manifests/` or `bootstrap/` against the descriptor; errors start with
/// the field. Returns whether the object has the TLS container with the TLS anchor line.
fn check_object(object: &Value, spec: &ProviderSpec, is_bootstrap: bool) -> Result<bool> {
    if !object.is_object() {
        bail!("not a Kubernetes object (a YAML mapping)");
    }
    for field in ["apiVersion", "kind"] {
        if object
            .get(field)
            .and_then(Value::as_str)
            .is_none_or(str::is_empty)
        {
            bail!("{field}: missing");
        }
    }
    let name = crate::inputs::name_of(object);
    // Names of most kinds are DNS subdomains; RBAC names only need to be a path segment
    // (`system:…`, `a:b`), so this checks what every kind shares.
    if name.is_empty() || name == "." || name == ".." || name.contains(['/', '%']) {
        bail!("metadata.name: {name:?} is not a valid object name");
    }
    if let Some(ns) = object.pointer("/metadata/namespace") {
        let ns = ns.as_str().unwrap_or_default();
        crate::validate::namespace(ns).map_err(|e| anyhow!("metadata.namespace: {e}"))?;
    }
    let kind = crate::inputs::kind_of(object);
    if is_bootstrap {
        check_bootstrap_pod(object)?;
    } else if matches!(kind, "Deployment" | "DaemonSet")
        && object
            .pointer("/spec/template/spec/containers")
            .and_then(Value::as_array)
            .is_none_or(Vec::is_empty)
    {
        bail!("spec.template.spec.containers: a {kind} needs at least one container");
    }
    let pod_path = if kind == "Pod" {
        "spec"
    } else {
        "spec.template.spec"
    };
    let mut tls_seen = false;
    for list in ["initContainers", "containers"] {
        let pointer = format!("/{}/{list}", pod_path.replace('.', "/"));
        let Some(containers) = object.pointer(&pointer).and_then(Value::as_array) else {
            continue;
        };
        for (i, container) in containers.iter().enumerate() {
            let field = format!("{pod_path}.{list}[{i}]");
            let cname = container
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default();
            if cname.is_empty() {
                bail!("{field}.name: missing");
            }
            if !spec.images.contains_key(cname) {
                bail!(
                    "{field}: container {cname:?} has no images.json key in provider.yaml spec.images"
                );
            }
            let script = container.pointer("/command/2").and_then(Value::as_str);
            if !is_bootstrap
                && list == "containers"
                && cname == spec.tls.container
                && let Some(script) = script
            {
                tls_seen |= crate::render::script::Script::parse(script).has(&spec.tls.before);
            }
        }
    }
    Ok(tls_seen)
}

/// The rules every bootstrap static pod follows (README "Bootstrap static pods"): a Pod in
/// kube-system, host paths only, no service account (a static pod cannot use one).
fn check_bootstrap_pod(pod: &Value) -> Result<()> {
    if crate::inputs::kind_of(pod) != "Pod"
        || pod.get("apiVersion").and_then(Value::as_str) != Some("v1")
    {
        bail!("kind: every bootstrap object must be a v1 Pod (a static pod)");
    }
    if pod.pointer("/metadata/namespace").and_then(Value::as_str) != Some("kube-system") {
        bail!("metadata.namespace: a bootstrap pod runs in kube-system");
    }
    for field in ["serviceAccountName", "serviceAccount"] {
        if pod.pointer(&format!("/spec/{field}")).is_some() {
            bail!("spec.{field}: a static pod cannot use a service account");
        }
    }
    let volumes = pod.pointer("/spec/volumes").and_then(Value::as_array);
    for (i, volume) in volumes.into_iter().flatten().enumerate() {
        let sources: Vec<&String> = volume
            .as_object()
            .map(|m| m.keys().filter(|k| *k != "name").collect())
            .unwrap_or_default();
        if sources != ["hostPath"] {
            bail!("spec.volumes[{i}]: a static pod can only mount hostPath volumes");
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_folders_start_with_their_platform_so_builtin_for_finds_them() {
        for folder in builtin_folders().expect("folders") {
            let provider = parse(&folder).expect("parses");
            let platform = &provider.spec().platform;
            assert!(
                platform == EXTERNAL || folder.name().starts_with(&platform.to_ascii_lowercase()),
                "{}: rename the folder to start with {platform} in lower case",
                folder.origin
            );
        }
    }

    #[test]
    fn builtin_catalogue_has_the_nine_cccmo_platforms_and_two_external_ones() {
        let catalogue = Catalogue::builtin().expect("built-in providers load");
        let names: Vec<&str> = catalogue.providers.keys().map(String::as_str).collect();
        assert_eq!(
            names,
            [
                "alicloud",
                "aws",
                "azure",
                "azurestackhub",
                "gcp",
                "ibmcloud",
                "nutanix",
                "oci",
                "openstack",
                "powervs",
                "vsphere"
            ]
        );
        let external: Vec<&str> = catalogue
            .providers
            .values()
            .filter(|p| p.spec().platform == EXTERNAL)
            .map(Provider::name)
            .collect();
        assert_eq!(external, ["alicloud", "oci"]);
    }

    fn external_infra(name: &str, state: &str) -> Infrastructure {
        let raw = serde_json::json!({
            "spec": {"platformSpec": {"type": "External", "external": {"platformName": name}}},
            "status": {"platformStatus": {"type": "External",
                "external": {"cloudControllerManager": {"state": state}}}}
        });
        crate::inputs::infrastructure::from_value(raw, camino::Utf8Path::new("i.yaml"))
            .expect("valid")
    }

    #[test]
    fn external_is_selected_by_platform_name_only_when_the_ccm_is_external() {
        let catalogue = Catalogue::builtin().expect("loads");
        let pick =
            |name: &str, state: &str| match catalogue.select_for(&external_infra(name, state)) {
                Selection::Provider(p) => p.name().to_string(),
                Selection::NoCcm(r) => r,
            };
        assert_eq!(pick("oci", "External"), "oci");
        assert_eq!(pick("Oci", "External"), "oci");
        assert_eq!(pick("AlibabaCloud", "External"), "alicloud");
        assert!(pick("oci", "None").contains("state is None: the cluster does not expect a CCM"));
        assert!(pick("oci", "").contains("state is empty"));
        let unknown = pick("Unknown", "External");
        assert!(
            unknown.contains("\"Unknown\"") && unknown.contains("--provider-dir"),
            "{unknown}"
        );
    }

    fn scaffold(name: &str) -> FolderText {
        crate::scaffold::files(name, &format!("dir/{name}"))
    }

    #[test]
    fn a_folder_named_like_a_built_in_overrides_it_and_a_clash_is_refused() {
        let mut catalogue = Catalogue::builtin().expect("loads");
        let mut folder = scaffold("oci");
        // The scaffold serves platformName "oci" too, so it replaces the built-in oci.
        let provider = parse(&folder).expect("parses");
        let notes = catalogue.add(vec![provider]).expect("override");
        assert_eq!(
            notes,
            ["dir/oci: overrides the provider oci from assets/oci"]
        );
        assert_eq!(catalogue.providers["oci"].origin, "dir/oci");

        let mut catalogue = Catalogue::builtin().expect("loads");
        folder = scaffold("oracle");
        let text = folder.files["provider.yaml"]
            .replace("externalPlatformName: oracle", "externalPlatformName: OCI");
        folder.files.insert("provider.yaml".into(), text);
        let err = catalogue
            .add(vec![parse(&folder).expect("parses")])
            .expect_err("clash")
            .to_string();
        assert!(
            err.starts_with(
                "dir/oracle/provider.yaml: spec: serves what assets/oci already serves"
            ),
            "{err}"
        );
    }

    #[test]
    fn descriptor_errors_name_the_file_and_the_field() {
        let cases = [
            (
                "platform: External",
                "platform: Moon",
                "spec.platform: unknown platform \"Moon\"",
            ),
            (
                "platform: External",
                "platform: AWS",
                "spec.externalPlatformName: only for platform External",
            ),
            (
                "resourceName: acme-cloud-controller-manager",
                "resourceName: Acme",
                "spec.resourceName:",
            ),
            ("kind: Provider", "kind: Thing", "kind: must be Provider"),
            (
                "  images:\n",
                "  images: 3\n  x:\n",
                "spec.images: invalid type",
            ),
        ];
        for (from, to, want) in cases {
            let mut folder = scaffold("acme");
            let text = folder.files["provider.yaml"].replacen(from, to, 1);
            folder.files.insert("provider.yaml".into(), text);
            let err = parse(&folder).expect_err(want).to_string();
            assert!(
                err.starts_with(&format!("dir/acme/provider.yaml: {want}")),
                "{err}"
            );
        }
    }

    #[test]
    fn a_missing_descriptor_and_a_stray_folder_are_named() {
        let mut folder = scaffold("acme");
        folder.files.remove("provider.yaml");
        let err = parse(&folder).expect_err("no descriptor").to_string();
        assert_eq!(err, "dir/acme/provider.yaml: is missing");
        let mut folder = scaffold("acme");
        folder
            .files
            .insert("templates/x.yaml".into(), "a: 1".into());
        let err = parse(&folder).expect_err("stray").to_string();
        assert!(
            err.starts_with("dir/acme/templates/x.yaml: not part of a provider"),
            "{err}"
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
    fn platform_without_provider_has_no_ccm() {
        let catalogue = Catalogue::builtin().expect("loads");
        assert!(matches!(
            catalogue.select("BareMetal", ""),
            Selection::NoCcm(_)
        ));
    }
}
