//! The hosted components: the CCM of a HyperShift hosted control plane, one folder per platform
//! under `assets/hosted/` (`aws/component.yaml` and the objects HyperShift's control-plane-operator
//! starts from, `HyperShift control-plane-operator/controllers/hostedcontrolplane/v2/assets/
//! <platform>-cloud-controller-manager/`). What HyperShift's Go adapt functions compute from the
//! HostedControlPlane is named here by adapter (`spec.deployment.adapt`, `spec.manifests[].adapt`)
//! and written once, as a typed render module per platform, in the binary.
//!
//! This module is the one piece of code that checks a hosted folder; build.rs runs it through
//! [`crate::compiled`], so a broken asset fails the build naming the file and the field.

use crate::json_fields::{at, kind_of, name_of, typed};
use crate::platform::HostedPlatform;
use crate::provider_dir::FolderText;
use crate::providers::one_object;
use anyhow::{Context as _, Result, anyhow, bail};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// The folder of hosted components under `assets/`.
pub const HOSTED: &str = "hosted";

/// The key prefix of a compiled hosted component (`hosted/aws`).
pub const HOSTED_KEY: &str = "hosted/";

/// The adapter of a component's Deployment (`spec.deployment.adapt`): what the platform's
/// `deployment.go` in HyperShift computes from the HostedControlPlane, one per platform, written
/// in the binary (`src/render/hosted/`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DeploymentAdapter {
    /// AWS: nothing beyond the framework's defaults.
    Aws,
    /// Azure: the workload identity or managed-identity volumes.
    Azure,
    /// GCP: nothing beyond the framework's defaults.
    Gcp,
    /// KubeVirt: the infra kubeconfig.
    Kubevirt,
    /// OpenStack: the CA bundle and the credentials.
    Openstack,
    /// Power VS: the cloud credentials.
    Powervs,
}

impl DeploymentAdapter {
    /// The platform whose `deployment.go` the adapter is.
    pub fn platform(self) -> HostedPlatform {
        match self {
            Self::Aws => HostedPlatform::Aws,
            Self::Azure => HostedPlatform::Azure,
            Self::Gcp => HostedPlatform::Gcp,
            Self::Kubevirt => HostedPlatform::KubeVirt,
            Self::Openstack => HostedPlatform::OpenStack,
            Self::Powervs => HostedPlatform::PowerVs,
        }
    }
}

/// The adapter of one of a component's other objects (`spec.manifests[].adapt`): what
/// HyperShift's `config.go` or `component.go` computes for it, written in the binary
/// (`src/render/hosted/`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ManifestAdapter {
    /// AWS's cloud config ConfigMap.
    AwsCloudConfig,
    /// Azure's cloud config ConfigMap.
    AzureCloudConfig,
    /// Azure's cloud config Secret.
    AzureCloudConfigSecret,
    /// Azure's CCM ServiceAccount (workload identity).
    AzureServiceAccount,
    /// Azure's SecretProviderClass (managed Azure).
    AzureSecretProviderClass,
    /// GCP's cloud config ConfigMap.
    GcpCloudConfig,
    /// KubeVirt's cloud config ConfigMap.
    KubevirtCloudConfig,
    /// OpenStack's cloud config ConfigMap.
    OpenstackCloudConfig,
    /// OpenStack's trusted CA ConfigMap.
    #[serde(rename = "openstackTrustedCA")]
    OpenstackTrustedCa,
    /// Power VS's cloud config ConfigMap.
    PowervsCloudConfig,
}

impl ManifestAdapter {
    /// The platform whose `config.go` or `component.go` the adapter is.
    pub fn platform(self) -> HostedPlatform {
        match self {
            Self::AwsCloudConfig => HostedPlatform::Aws,
            Self::AzureCloudConfig
            | Self::AzureCloudConfigSecret
            | Self::AzureServiceAccount
            | Self::AzureSecretProviderClass => HostedPlatform::Azure,
            Self::GcpCloudConfig => HostedPlatform::Gcp,
            Self::KubevirtCloudConfig => HostedPlatform::KubeVirt,
            Self::OpenstackCloudConfig | Self::OpenstackTrustedCa => HostedPlatform::OpenStack,
            Self::PowervsCloudConfig => HostedPlatform::PowerVs,
        }
    }

    /// The kind of object the adapter adapts.
    pub fn kind(self) -> &'static str {
        match self {
            Self::AzureCloudConfigSecret => "Secret",
            Self::AzureServiceAccount => "ServiceAccount",
            Self::AzureSecretProviderClass => "SecretProviderClass",
            Self::AwsCloudConfig
            | Self::AzureCloudConfig
            | Self::GcpCloudConfig
            | Self::KubevirtCloudConfig
            | Self::OpenstackCloudConfig
            | Self::OpenstackTrustedCa
            | Self::PowervsCloudConfig => "ConfigMap",
        }
    }
}

/// `component.yaml`: how HyperShift builds this platform's CCM component.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ComponentDescriptor {
    /// `ccm-render.openshift.io/v1alpha1`.
    pub(crate) api_version: String,
    /// `HostedComponent`.
    pub(crate) kind: String,
    /// The component's name (`metadata.name`), which names its Deployment.
    pub metadata: ComponentMetadata,
    /// The rest.
    pub spec: ComponentSpec,
}

/// `metadata` of `component.yaml`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ComponentMetadata {
    /// HyperShift's `ComponentName` (`aws-cloud-controller-manager`).
    pub name: String,
}

/// `spec` of `component.yaml`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ComponentSpec {
    /// The HostedControlPlane `spec.platform.type` this component serves (its predicate).
    pub platform: HostedPlatform,
    /// HyperShift's `ComponentOptions`.
    pub options: ComponentOptions,
    /// The CCM container: where the TLS flags and the proxy environment go.
    pub container: String,
    /// The workload.
    pub deployment: DeploymentSpec,
    /// The other objects, in HyperShift's order.
    #[serde(default)]
    pub(crate) manifests: Vec<ManifestSpec>,
    /// HyperShift's `InjectTokenMinterContainer`, when the component has it.
    #[serde(default)]
    pub token_minter: Option<TokenMinter>,
}

/// HyperShift's `ComponentOptions` of the component.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ComponentOptions {
    /// `IsRequestServing`.
    pub request_serving: bool,
    /// `MultiZoneSpread`.
    pub multi_zone_spread: bool,
    /// `NeedsManagementKASAccess`.
    #[serde(rename = "needsManagementKASAccess")]
    pub needs_management_kas_access: bool,
}

/// The Deployment of the component.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DeploymentSpec {
    /// The file (`deployment.yaml`).
    pub(crate) file: String,
    /// The platform's adapter.
    pub adapt: DeploymentAdapter,
    /// Whether the CCM container gets the TLS flags of the APIServer profile
    /// (`config.TLSArgs`).
    pub tls_args: bool,
    /// Whether the CCM container gets the control-plane-operator's proxy environment
    /// (`proxy.SetEnvVars`).
    pub proxy_env: bool,
}

/// When an object is created (HyperShift's manifest predicate).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum When {
    /// Always.
    Always,
    /// Only for a self-managed Azure control plane (`MANAGED_SERVICE` is not `ARO-HCP`).
    SelfManagedAzure,
    /// Only for a managed Azure control plane (`MANAGED_SERVICE=ARO-HCP`).
    ManagedAzure,
}

/// One object of the component besides the Deployment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ManifestSpec {
    /// The file (`config.yaml`).
    pub(crate) file: String,
    /// The adapter, when HyperShift adapts it.
    #[serde(default)]
    pub adapt: Option<ManifestAdapter>,
    /// When it is created.
    #[serde(default = "always")]
    pub when: When,
}

fn always() -> When {
    When::Always
}

/// HyperShift's `TokenMinterContainerOptions` of a cloud token.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TokenMinter {
    /// `ServiceAccountNameSpace`.
    pub service_account_namespace: String,
    /// `ServiceAccountName`.
    pub service_account_name: String,
}

/// A hosted component, parsed and checked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Component {
    /// `component.yaml`.
    pub descriptor: ComponentDescriptor,
    /// The Deployment HyperShift starts from.
    pub deployment: Value,
    /// The other objects, with their spec, in `spec.manifests` order.
    pub manifests: Vec<Manifest>,
    /// `assets/hosted/<platform>`.
    pub origin: String,
}

/// One of a component's other objects.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// Its entry in `spec.manifests`: the file, when it applies, its adapter.
    pub spec: ManifestSpec,
    /// The object the file holds.
    pub object: Value,
}

/// Parses and checks every component of the `hosted` folder (`<platform>/component.yaml` and the
/// files it names), by platform folder name.
pub(crate) fn parse(folder: &FolderText) -> Result<BTreeMap<String, Component>> {
    let mut by_platform: BTreeMap<&str, BTreeMap<&str, &str>> = BTreeMap::new();
    for (path, text) in &folder.files {
        let Some((platform, file)) = path.split_once('/') else {
            if is_doc(path) {
                continue;
            }
            bail!(
                "{}/{path}: not part of a hosted component (assets/hosted holds one folder per platform)",
                folder.origin
            );
        };
        by_platform.entry(platform).or_default().insert(file, text);
    }
    let mut out = BTreeMap::new();
    for (platform, files) in by_platform {
        let origin = format!("{}/{platform}", folder.origin);
        out.insert(
            platform.to_string(),
            parse_component(&origin, platform, &files)?,
        );
    }
    for name in HostedPlatform::ALL
        .into_iter()
        .filter_map(HostedPlatform::component_folder)
    {
        if !out.contains_key(name) {
            bail!("{}/{name}: is missing", folder.origin);
        }
    }
    Ok(out)
}

fn parse_component(
    origin: &str,
    platform: &str,
    files: &BTreeMap<&str, &str>,
) -> Result<Component> {
    let path = format!("{origin}/component.yaml");
    let Some(text) = files.get("component.yaml") else {
        bail!("{path}: is missing");
    };
    let value = one_object(text).with_context(|| path.clone())?;
    let descriptor: ComponentDescriptor = typed(&value, camino::Utf8Path::new(&path))?;
    check_descriptor(&descriptor, platform, &path)?;
    let object = |file: &str| -> Result<Value> {
        let at = format!("{origin}/{file}");
        let text = files
            .get(file)
            .ok_or_else(|| anyhow!("{at}: is missing ({path} names it)"))?;
        let value = one_object(text).with_context(|| at.clone())?;
        if kind_of(&value).is_empty() || name_of(&value).is_empty() {
            bail!("{at}: needs a kind and a metadata.name");
        }
        Ok(value)
    };
    let spec = &descriptor.spec;
    let deployment = object(&spec.deployment.file)?;
    check_deployment(
        &deployment,
        &spec.container,
        &format!("{origin}/{}", spec.deployment.file),
    )?;
    let mut manifests = Vec::new();
    for (i, manifest) in spec.manifests.iter().enumerate() {
        let value = object(&manifest.file)?;
        if let Some(adapt) = manifest.adapt {
            let kind = adapt.kind();
            if kind_of(&value) != kind {
                bail!(
                    "{path}: spec.manifests[{i}].adapt: the adapter adapts a {kind}, {} holds a {}",
                    manifest.file,
                    kind_of(&value)
                );
            }
        }
        manifests.push(Manifest {
            spec: manifest.clone(),
            object: value,
        });
    }
    let named: Vec<&str> = std::iter::once(spec.deployment.file.as_str())
        .chain(spec.manifests.iter().map(|m| m.file.as_str()))
        .chain(["component.yaml"])
        .collect();
    if let Some(extra) = files.keys().find(|f| !named.contains(f) && !is_doc(f)) {
        bail!("{origin}/{extra}: not named by {path}");
    }
    Ok(Component {
        descriptor,
        deployment,
        manifests,
        origin: origin.to_string(),
    })
}

/// A documentation file (`*.md`), which a component folder may hold beside its objects.
fn is_doc(path: &str) -> bool {
    std::path::Path::new(path)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("md"))
}

fn check_descriptor(d: &ComponentDescriptor, folder: &str, path: &str) -> Result<()> {
    if d.api_version != "ccm-render.openshift.io/v1alpha1" || d.kind != "HostedComponent" {
        bail!("{path}: expected apiVersion ccm-render.openshift.io/v1alpha1, kind HostedComponent");
    }
    crate::validate::dns_label(&d.metadata.name)
        .with_context(|| format!("{path}: metadata.name"))?;
    match d.spec.platform.component_folder() {
        Some(name) if name == folder => {}
        Some(name) => bail!(
            "{path}: spec.platform: {} belongs in the folder {name}",
            d.spec.platform
        ),
        None => bail!(
            "{path}: spec.platform: HyperShift builds no CCM for {} (hosted platforms: {})",
            d.spec.platform,
            HostedPlatform::with_component()
                .map(HostedPlatform::as_str)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
    // The render picks a platform's adapters by the HostedControlPlane's platform, which the
    // component's serves: an adapter of another platform would never run.
    let serves = d.spec.platform;
    let adapters = std::iter::once((
        "spec.deployment.adapt".to_string(),
        d.spec.deployment.adapt.platform(),
    ))
    .chain(d.spec.manifests.iter().enumerate().filter_map(|(i, m)| {
        m.adapt
            .map(|a| (format!("spec.manifests[{i}].adapt"), a.platform()))
    }));
    for (field, platform) in adapters {
        if platform != serves {
            bail!("{path}: {field}: an adapter of {platform}, the component serves {serves}");
        }
    }
    if let Some(minter) = &d.spec.token_minter {
        crate::validate::dns_label(&minter.service_account_name)
            .with_context(|| format!("{path}: spec.tokenMinter.serviceAccountName"))?;
        crate::validate::namespace(&minter.service_account_namespace)
            .with_context(|| format!("{path}: spec.tokenMinter.serviceAccountNamespace"))?;
    }
    Ok(())
}

/// The Deployment: a Deployment whose containers each name their image by a release payload
/// tag (HyperShift's `replaceContainersImageFromPayload`), with the CCM container among them.
fn check_deployment(deployment: &Value, container: &str, path: &str) -> Result<()> {
    if kind_of(deployment) != "Deployment" {
        bail!("{path}: expected a Deployment, got {}", kind_of(deployment));
    }
    let Some(Value::Array(containers)) =
        at(deployment, &["spec", "template", "spec", "containers"])
    else {
        bail!("{path}: spec.template.spec.containers is missing");
    };
    for (i, c) in containers.iter().enumerate() {
        match c.get("image").and_then(Value::as_str) {
            Some(tag) if crate::validate::dns_label(tag).is_ok() => {}
            _ => bail!(
                "{path}: spec.template.spec.containers[{i}].image: expected the release payload tag of the image"
            ),
        }
    }
    if !containers
        .iter()
        .any(|c| c.get("name").and_then(Value::as_str) == Some(container))
    {
        bail!("{path}: no container {container:?} (component.yaml spec.container)");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assets() -> FolderText {
        crate::provider_dir::read_folder(camino::Utf8Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../assets/hosted"
        )))
        .expect("reads")
    }

    #[test]
    fn every_hosted_platform_parses_from_assets() {
        let parsed = parse(&assets()).expect("parses");
        let names: Vec<&str> = parsed.keys().map(String::as_str).collect();
        assert_eq!(
            names,
            ["aws", "azure", "gcp", "kubevirt", "openstack", "powervs"]
        );
        assert_eq!(
            parsed["aws"].descriptor.metadata.name,
            "aws-cloud-controller-manager"
        );
    }

    fn edited(file: &str, edit: impl Fn(&str) -> String) -> Result<BTreeMap<String, Component>> {
        let mut folder = assets();
        let text = folder.files.get_mut(file).expect("file");
        *text = edit(text);
        parse(&folder)
    }

    #[test]
    fn an_unknown_adapter_names_the_file_and_the_field() {
        let err = format!(
            "{:#}",
            edited("aws/component.yaml", |t| {
                t.replace("adapt: awsCloudConfig", "adapt: nothing")
            })
            .expect_err("unknown adapter")
        );
        assert!(
            err.contains(
                "hosted/aws/component.yaml: spec.manifests[0].adapt: unknown variant `nothing`, expected one of `awsCloudConfig`"
            ),
            "{err}"
        );
    }

    #[test]
    fn an_unknown_deployment_adapter_names_the_file_and_the_field() {
        let err = format!(
            "{:#}",
            edited("gcp/component.yaml", |t| {
                t.replace("adapt: gcp\n", "adapt: gce\n")
            })
            .expect_err("unknown adapter")
        );
        assert!(
            err.contains("hosted/gcp/component.yaml: spec.deployment.adapt: unknown variant `gce`"),
            "{err}"
        );
    }

    #[test]
    fn an_adapter_of_another_kind_is_refused() {
        let err = format!(
            "{:#}",
            edited("azure/component.yaml", |t| {
                t.replace("adapt: azureCloudConfig\n", "adapt: azureServiceAccount\n")
            })
            .expect_err("wrong kind")
        );
        assert!(
            err.contains("spec.manifests[1].adapt: the adapter adapts a ServiceAccount, config.yaml holds a ConfigMap"),
            "{err}"
        );
    }

    #[test]
    fn an_adapter_of_another_platform_is_refused_naming_the_field() {
        let err = format!(
            "{:#}",
            edited("gcp/component.yaml", |t| {
                t.replace("adapt: gcp\n", "adapt: aws\n")
            })
            .expect_err("another platform's")
        );
        assert!(
            err.ends_with(
                "hosted/gcp/component.yaml: spec.deployment.adapt: an adapter of AWS, the component serves GCP"
            ),
            "{err}"
        );
        let err = format!(
            "{:#}",
            edited("aws/component.yaml", |t| {
                t.replace("adapt: awsCloudConfig", "adapt: gcpCloudConfig")
            })
            .expect_err("another platform's")
        );
        assert!(
            err.ends_with(
                "hosted/aws/component.yaml: spec.manifests[0].adapt: an adapter of GCP, the component serves AWS"
            ),
            "{err}"
        );
    }

    #[test]
    fn a_platform_in_the_wrong_folder_is_refused() {
        let err = format!(
            "{:#}",
            edited("gcp/component.yaml", |t| {
                t.replace("platform: GCP", "platform: AWS")
            })
            .expect_err("wrong folder")
        );
        assert!(
            err.ends_with(
                "hosted/gcp/component.yaml: spec.platform: AWS belongs in the folder aws"
            ),
            "{err}"
        );
    }

    #[test]
    fn a_platform_without_a_hosted_ccm_and_an_unknown_one_are_refused() {
        let err = format!(
            "{:#}",
            edited("gcp/component.yaml", |t| {
                t.replace("platform: GCP", "platform: Agent")
            })
            .expect_err("no CCM")
        );
        assert!(
            err.ends_with(
                "hosted/gcp/component.yaml: spec.platform: HyperShift builds no CCM for Agent (hosted platforms: AWS, KubeVirt, Azure, PowerVS, OpenStack, GCP)"
            ),
            "{err}"
        );
        let err = format!(
            "{:#}",
            edited("gcp/component.yaml", |t| {
                t.replace("platform: GCP", "platform: VSphere")
            })
            .expect_err("unknown")
        );
        assert!(
            err.ends_with("hosted/gcp/component.yaml: spec.platform: unknown platform \"VSphere\" (known: AWS, None, IBMCloud, Agent, KubeVirt, Azure, PowerVS, OpenStack, GCP)"),
            "{err}"
        );
    }

    #[test]
    fn a_container_image_that_is_not_a_payload_tag_is_refused() {
        let err = format!(
            "{:#}",
            edited("gcp/deployment.yaml", |t| {
                t.replace(
                    "image: gcp-cloud-controller-manager",
                    "image: quay.io/x/y:1",
                )
            })
            .expect_err("not a tag")
        );
        assert!(
            err.contains("hosted/gcp/deployment.yaml: spec.template.spec.containers[0].image"),
            "{err}"
        );
    }

    #[test]
    fn an_unnamed_file_and_an_unknown_field_are_refused() {
        let mut folder = assets();
        folder
            .files
            .insert("aws/extra.yaml".into(), "kind: ConfigMap\n".into());
        let err = format!("{:#}", parse(&folder).expect_err("extra"));
        assert!(err.contains("hosted/aws/extra.yaml: not named by"), "{err}");
        let err = format!(
            "{:#}",
            edited("aws/component.yaml", |t| {
                t.replace("tlsArgs: true", "tlsArgs: true\n    tlsFlags: true")
            })
            .expect_err("unknown field")
        );
        assert!(
            err.contains(
                "hosted/aws/component.yaml: spec.deployment.tlsFlags: unknown field `tlsFlags`"
            ),
            "{err}"
        );
    }
}
