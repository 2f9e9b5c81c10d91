//! The provider descriptor (`provider.yaml`) and the parsed provider: plain data, no checks
//! (those are [`super::check`]'s) and no I/O. Serialize is derived as well as Deserialize so
//! that build.rs can compile the built-in providers into the binary (see [`crate::compiled`]).

use crate::platform::Platform;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// The descriptor's `apiVersion`.
pub const API_VERSION: &str = "ccm-render.openshift.io/v1alpha1";

/// Which transform a provider uses (the provider descriptor names it in lower case).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Transform {
    /// `[Global]` defaults and a gcfg-readable layout for the AWS cloud provider (CCCMO `pkg/cloud/aws/aws_config_transformer.go`).
    Aws,
    /// Cloud name, VM type and health probe rules for public Azure clouds (CCCMO `pkg/cloud/azure/azure.go`).
    Azure,
    /// The VM type default for Azure Stack Hub (CCCMO `pkg/cloud/azurestack/azurestack.go`).
    AzureStack,
    /// Credentials from `clouds.yaml` and load balancer defaults for `OpenStack` (CCCMO `pkg/cloud/openstack/openstack.go`).
    OpenStack,
    /// INI to YAML, with vCenters, labels, node networks and IP families from the cluster (CCCMO `pkg/cloud/vsphere/vsphere_config_transformer.go`).
    VSphere,
    /// The config is used as written.
    None,
}

impl Transform {
    /// The name a descriptor gives it (`azurestack`), for messages.
    pub fn name(self) -> &'static str {
        match self {
            Self::Aws => "aws",
            Self::Azure => "azure",
            Self::AzureStack => "azurestack",
            Self::OpenStack => "openstack",
            Self::VSphere => "vsphere",
            Self::None => "none",
        }
    }
}

/// A provider descriptor (`provider.yaml`). Unknown fields are errors: this is our own format.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Descriptor {
    /// `ccm-render.openshift.io/v1alpha1`.
    pub(crate) api_version: String,
    /// `Provider`.
    pub(crate) kind: String,
    /// `metadata.name`: the provider's name (the folder name).
    pub(crate) metadata: DescriptorMetadata,
    /// What the provider does.
    pub spec: ProviderSpec,
}

/// `metadata` of a descriptor.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub(crate) struct DescriptorMetadata {
    /// The provider's name.
    pub(crate) name: String,
}

/// `spec` of a descriptor.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ProviderSpec {
    /// The `status.platformStatus.type` served.
    pub platform: Platform,
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
    /// Container name to the image it runs when images.json has no entry for its key: the
    /// vendor's public image at a stated version, for CCMs no release payload carries
    /// (External providers). images.json still wins.
    #[serde(default)]
    pub default_images: BTreeMap<String, String>,
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
    /// The command line the CCM binary accepts, which every bootstrap pod is held to. Optional
    /// for a provider of one's own; every built-in provider states it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ccm: Option<CcmCommandLine>,
    /// The OpenShift releases (`4.18` ... as `ccm-render releases` lists them) this provider may
    /// render for; absent: every release. Built-in providers leave it out (their releases are
    /// `assets/releases/`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub releases: Option<Vec<String>>,
}

/// The flags and controller names a CCM binary knows: facts of its `main.go` and of the
/// `k8s.io/cloud-provider` library it vendors, for the release the provider renders.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct CcmCommandLine {
    /// Where the lists come from (repository, branch or commit, and how they were read).
    pub(crate) source: String,
    /// Every flag the binary registers, as `--name`.
    pub(crate) flags: Vec<String>,
    /// The names its `--controllers` knows.
    pub(crate) controllers: Vec<String>,
    /// The `--controllers` aliases its `main.go` passes (alias to controller name); empty when
    /// it passes none, and then only the names themselves are accepted.
    #[serde(default)]
    pub(crate) aliases: BTreeMap<String, String>,
    /// How the CCM of an older release differs, by release (`4.22`): what it lacks of the
    /// lists above. A release also lacks what every newer release here lacks.
    #[serde(default)]
    pub(crate) releases: BTreeMap<String, CcmRelease>,
}

/// What the CCM of an older release lacks of a provider's `spec.ccm` lists.
#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct CcmRelease {
    /// Where this release's lists come from.
    pub(crate) source: String,
    /// Flags of `spec.ccm.flags` this release's CCM does not register.
    #[serde(default)]
    pub(crate) without_flags: Vec<String>,
    /// Controllers of `spec.ccm.controllers` this release's CCM does not know.
    #[serde(default)]
    pub(crate) without_controllers: Vec<String>,
}

/// What the bootstrap static pod needs on its host.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct BootstrapSpec {
    /// Files the pod reads from the bootstrap host, and where each comes from.
    pub host_files: Vec<HostFile>,
    /// What `--credentials` reads and writes under `DIR/secrets/`.
    pub credentials: CredentialsSpec,
    /// Members of a JSON cloud config that the bootstrap copy (`DIR/config/cloud.conf`) leaves
    /// out when they hold the value the CCM itself would give them from the bootstrap pod's
    /// environment, so that the pod reads its namespace from one place.
    #[serde(default)]
    pub cloud_config_defaults: Vec<DefaultedMember>,
}

/// A member of the JSON cloud config that the CCM defaults from an environment variable of its
/// pod when the member is absent or empty.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct DefaultedMember {
    /// The member's path from the top of the document, one member name per element.
    pub path: Vec<String>,
    /// The bootstrap pod's environment variable (set to a literal value) the CCM uses instead.
    pub env: String,
    /// Where the CCM's code does so.
    pub source: String,
}

/// How the bootstrap pod gets its cloud credentials.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, Eq)]
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
    /// The Secret the post-install manifests read, when its keys are the ones `files` copies
    /// and nothing else creates it (no CredentialsRequest): rendered under this name in the
    /// CCM namespace from the `--credentials` Secret (DigitalOcean's `digitalocean`).
    #[serde(default, rename = "postInstallSecret")]
    pub post_install_secret: Option<String>,
}

/// One file under `DIR/secrets/`.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct CredentialFile {
    /// File name under `DIR/secrets/`.
    pub path: String,
    /// What it holds.
    pub from: CredentialSource,
}

/// Where a credential file's content comes from.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub enum CredentialSource {
    /// One key of the Secret, copied as is.
    Key(String),
    /// The transformed cloud config with the Secret's service principal merged in, as the
    /// `azure-config-credentials-injector` init container does in the Deployments.
    AzureCloudConfig(AzureInjection),
}

/// Options of the Azure credentials merge (the injector's flags).
#[derive(Debug, Clone, Copy, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct AzureInjection {
    /// `--disable-identity-extension-auth`: set `useManagedIdentityExtension` to false when the
    /// cloud config has it.
    #[serde(default)]
    pub disable_identity_extension_auth: bool,
}

/// One host file a bootstrap pod reads.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct HostFile {
    /// The path on the bootstrap host.
    pub path: String,
    /// What puts it there.
    pub source: String,
}

/// What a rendered environment variable is set to.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub enum EnvSource {
    /// `status.infrastructureName`.
    InfrastructureName,
    /// The namespace of the post-install objects (`--namespace`).
    Namespace,
}

/// Where TLS flags are inserted.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct TlsPlacement {
    /// The container whose script gets them.
    pub container: String,
    /// The script line (a flag) they are inserted before.
    pub before: String,
}

/// Parts of the manifests that depend on an OpenShift feature gate.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, Eq)]
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
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CloudConfigSpec {
    /// The transform (`aws`, `azure`, `azurestack`, `openstack`, `vsphere`, `none`).
    pub transform: Transform,
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
#[derive(Debug, Clone, Copy, Deserialize, Serialize, PartialEq, Eq)]
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
    pub fn of_transform(transform: Transform) -> Option<Self> {
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
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct CloudConfigSecret {
    /// The Secret's name.
    pub name: String,
    /// The data key holding the cloud config.
    pub key: String,
}

/// One provider: its descriptor and its parsed manifests, in file-name order.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
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

    /// Whether this provider renders for OpenShift `release` (`X.Y`): `spec.releases` names
    /// it, or is left out.
    pub fn renders_for(&self, release: &str) -> bool {
        self.spec()
            .releases
            .as_ref()
            .is_none_or(|supported| supported.iter().any(|r| r == release))
    }

    /// Whether this provider serves an External Infrastructure whose platform name is `name`.
    pub fn serves_external(&self, name: &str) -> bool {
        self.spec()
            .external_platform_name
            .as_deref()
            .is_some_and(|n| n.eq_ignore_ascii_case(name))
    }
}

/// The objects every provider shares.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
pub struct Common {
    /// The PodDisruptionBudget template.
    pub pod_disruption_budget: Value,
    /// The Service template.
    pub service: Value,
}

#[cfg(test)]
mod tests {
    use super::Transform;

    #[test]
    fn a_transform_is_named_as_a_descriptor_writes_it() {
        for transform in [
            Transform::Aws,
            Transform::Azure,
            Transform::AzureStack,
            Transform::OpenStack,
            Transform::VSphere,
            Transform::None,
        ] {
            assert_eq!(
                serde_json::to_value(transform).expect("serialises"),
                transform.name()
            );
        }
    }
}
