//! `--hosted-control-plane`: a HyperShift `HostedControlPlane` (`hypershift.openshift.io/v1beta1`),
//! the fields of it that HyperShift's CCM components and their framework read
//! (`HyperShift api/hypershift/v1beta1/hosted_controlplane.go` and the platform files). Field
//! names match exactly (as Kubernetes decodes them); a value of the wrong type is an error naming
//! the file and the field. Fields the CCM does not read are not looked at.

use super::{object_from_text, read_text};
use anyhow::{Context as _, Result, bail};
use camino::Utf8Path;
use ccm_catalogue::json_fields::typed;
use ccm_catalogue::platform::HostedPlatform;
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// A HostedControlPlane, as far as the CCM reads it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct HostedControlPlane {
    /// `metadata`.
    #[serde(default)]
    pub(crate) metadata: Metadata,
    /// `spec` (required, as its `platform.type` is).
    pub(crate) spec: Spec,
}

/// `metadata`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub(crate) struct Metadata {
    /// `metadata.name`.
    #[serde(default)]
    pub(crate) name: String,
    /// `metadata.namespace`: the hosted control plane's namespace, where everything goes.
    #[serde(default)]
    pub(crate) namespace: String,
    /// `metadata.labels`.
    #[serde(default)]
    pub(crate) labels: BTreeMap<String, String>,
    /// `metadata.annotations`.
    #[serde(default)]
    pub(crate) annotations: BTreeMap<String, String>,
    /// `metadata.uid`.
    #[serde(default)]
    pub(crate) uid: String,
}

/// `spec`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Spec {
    /// `spec.releaseImage`.
    #[serde(default)]
    pub(crate) release_image: String,
    /// `spec.controlPlaneReleaseImage`.
    #[serde(default)]
    pub(crate) control_plane_release_image: Option<String>,
    /// `spec.infraID`.
    #[serde(default, rename = "infraID")]
    pub(crate) infra_id: String,
    /// `spec.platform` (required, as its `type` is).
    pub(crate) platform: Platform,
    /// `spec.networking`.
    #[serde(default)]
    pub(crate) networking: Networking,
    /// `spec.configuration`.
    #[serde(default)]
    pub(crate) configuration: Option<Configuration>,
    /// `spec.controllerAvailabilityPolicy` (`HighlyAvailable` when empty).
    #[serde(default)]
    pub(crate) controller_availability_policy: AvailabilityPolicy,
    /// `spec.nodeSelector`.
    #[serde(default)]
    pub(crate) node_selector: Option<BTreeMap<String, String>>,
    /// `spec.tolerations`, as given (Kubernetes tolerations).
    #[serde(default)]
    pub(crate) tolerations: Vec<Value>,
    /// `spec.labels`: extra labels of every control plane pod.
    #[serde(default)]
    pub(crate) labels: BTreeMap<String, String>,
}

/// `spec.networking`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Networking {
    /// `spec.networking.machineNetwork[].cidr`.
    #[serde(default)]
    pub(crate) machine_network: Vec<Cidr>,
}

/// One `machineNetwork` entry.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub(crate) struct Cidr {
    /// `cidr`.
    #[serde(default)]
    pub(crate) cidr: String,
}

/// `spec.configuration`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Configuration {
    /// `spec.configuration.apiServer`.
    #[serde(default)]
    pub(crate) api_server: Option<ApiServer>,
    /// `spec.configuration.featureGate.featureSet`.
    #[serde(default)]
    pub(crate) feature_gate: Option<Value>,
}

/// `spec.configuration.apiServer`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ApiServer {
    /// `tlsSecurityProfile`, an openshift/api `TLSSecurityProfile` as given: the hosted
    /// configuration reads it with the standalone render's reader (`config/tls/profile.rs`).
    #[serde(default)]
    pub(crate) tls_security_profile: Option<Value>,
}

/// `spec.controllerAvailabilityPolicy`: how many replicas a control plane component runs when
/// its Deployment does not say.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum AvailabilityPolicy {
    /// `HighlyAvailable`, also when the field is empty.
    #[default]
    HighlyAvailable,
    /// `SingleReplica`.
    SingleReplica,
}

impl<'de> Deserialize<'de> for AvailabilityPolicy {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        match <std::borrow::Cow<'de, str>>::deserialize(d)?.as_ref() {
            "" | "HighlyAvailable" => Ok(Self::HighlyAvailable),
            "SingleReplica" => Ok(Self::SingleReplica),
            other => Err(serde::de::Error::custom(format!(
                "unknown policy {other:?} (known: HighlyAvailable, SingleReplica)"
            ))),
        }
    }
}

/// `spec.platform`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Platform {
    /// `spec.platform.type`, parsed here once (its absence is refused before decoding).
    #[serde(rename = "type")]
    pub(crate) platform_type: HostedPlatform,
    /// `spec.platform.aws`.
    #[serde(default)]
    pub(crate) aws: Option<Aws>,
    /// `spec.platform.azure`.
    #[serde(default)]
    pub(crate) azure: Option<Azure>,
    /// `spec.platform.gcp`.
    #[serde(default)]
    pub(crate) gcp: Option<Gcp>,
    /// `spec.platform.kubevirt`.
    #[serde(default)]
    pub(crate) kubevirt: Option<Kubevirt>,
    /// `spec.platform.openstack`.
    #[serde(default)]
    pub(crate) openstack: Option<OpenStack>,
    /// `spec.platform.powervs`.
    #[serde(default)]
    pub(crate) powervs: Option<PowerVs>,
}

/// `spec.platform.aws`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Aws {
    /// `cloudProviderConfig`.
    #[serde(default)]
    pub(crate) cloud_provider_config: Option<AwsCloudProviderConfig>,
}

/// `spec.platform.aws.cloudProviderConfig`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AwsCloudProviderConfig {
    /// `subnet.id`.
    #[serde(default)]
    pub(crate) subnet: Option<IdRef>,
    /// `zone`.
    #[serde(default)]
    pub(crate) zone: String,
    /// `vpc`.
    #[serde(default)]
    pub(crate) vpc: String,
}

/// A reference by `id`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub(crate) struct IdRef {
    /// `id`.
    #[serde(default)]
    pub(crate) id: Option<String>,
}

/// A reference by `name`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub(crate) struct NameRef {
    /// `name`.
    #[serde(default)]
    pub(crate) name: String,
}

/// `spec.platform.azure`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Azure {
    /// `cloud`.
    #[serde(default)]
    pub(crate) cloud: String,
    /// `location`.
    #[serde(default)]
    pub(crate) location: String,
    /// `resourceGroup`.
    #[serde(default)]
    pub(crate) resource_group: String,
    /// `vnetID`.
    #[serde(default, rename = "vnetID")]
    pub(crate) vnet_id: String,
    /// `subnetID`.
    #[serde(default, rename = "subnetID")]
    pub(crate) subnet_id: String,
    /// `subscriptionID`.
    #[serde(default, rename = "subscriptionID")]
    pub(crate) subscription_id: String,
    /// `securityGroupID`.
    #[serde(default, rename = "securityGroupID")]
    pub(crate) security_group_id: String,
    /// `tenantID`.
    #[serde(default, rename = "tenantID")]
    pub(crate) tenant_id: String,
    /// `azureAuthenticationConfig`.
    #[serde(default)]
    pub(crate) azure_authentication_config: AzureAuthenticationConfig,
    /// `containerRegistry.credentials.managedIdentity.resourceID`.
    #[serde(default)]
    pub(crate) container_registry: Option<Value>,
}

/// `spec.platform.azure.azureAuthenticationConfig`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AzureAuthenticationConfig {
    /// `azureAuthenticationConfigType`: `ManagedIdentities` (ARO HCP) or `WorkloadIdentities`.
    #[serde(default)]
    pub(crate) azure_authentication_config_type: String,
    /// `workloadIdentities.cloudProvider.clientID`.
    #[serde(default)]
    pub(crate) workload_identities: Option<WorkloadIdentities>,
    /// `managedIdentities`.
    #[serde(default)]
    pub(crate) managed_identities: Option<ManagedIdentities>,
}

/// `workloadIdentities`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct WorkloadIdentities {
    /// `cloudProvider`.
    #[serde(default)]
    pub(crate) cloud_provider: ClientId,
}

/// `{clientID}`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub(crate) struct ClientId {
    /// `clientID`.
    #[serde(default, rename = "clientID")]
    pub(crate) client_id: String,
}

/// `managedIdentities`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ManagedIdentities {
    /// `controlPlane`.
    #[serde(default)]
    pub(crate) control_plane: ControlPlaneManagedIdentities,
}

/// `managedIdentities.controlPlane`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ControlPlaneManagedIdentities {
    /// `managedIdentitiesKeyVault`.
    #[serde(default)]
    pub(crate) managed_identities_key_vault: KeyVault,
    /// `cloudProvider`.
    #[serde(default)]
    pub(crate) cloud_provider: ManagedIdentity,
}

/// `managedIdentitiesKeyVault`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub(crate) struct KeyVault {
    /// `name`.
    #[serde(default)]
    pub(crate) name: String,
    /// `tenantID`.
    #[serde(default, rename = "tenantID")]
    pub(crate) tenant_id: String,
}

/// A `ManagedIdentity`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ManagedIdentity {
    /// `credentialsSecretName`.
    #[serde(default)]
    pub(crate) credentials_secret_name: String,
    /// `objectEncoding`.
    #[serde(default)]
    pub(crate) object_encoding: String,
}

/// `spec.platform.gcp`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Gcp {
    /// `project`.
    #[serde(default)]
    pub(crate) project: String,
    /// `networkConfig.network.name`.
    #[serde(default)]
    pub(crate) network_config: GcpNetworkConfig,
}

/// `spec.platform.gcp.networkConfig`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub(crate) struct GcpNetworkConfig {
    /// `network`.
    #[serde(default)]
    pub(crate) network: NameRef,
}

/// `spec.platform.kubevirt`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub(crate) struct Kubevirt {
    /// `credentials`: the infrastructure cluster is external when set.
    #[serde(default)]
    pub(crate) credentials: Option<KubevirtCredentials>,
}

/// `spec.platform.kubevirt.credentials`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct KubevirtCredentials {
    /// `infraNamespace`.
    #[serde(default)]
    pub(crate) infra_namespace: String,
}

/// `spec.platform.openstack`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct OpenStack {
    /// `identityRef`.
    #[serde(default)]
    pub(crate) identity_ref: IdentityRef,
    /// `externalNetwork.id`.
    #[serde(default)]
    pub(crate) external_network: Option<IdRef>,
}

/// `spec.platform.openstack.identityRef`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct IdentityRef {
    /// `name`: the Secret HyperShift reads from the management cluster.
    #[serde(default)]
    pub(crate) name: String,
    /// `cloudName`.
    #[serde(default)]
    pub(crate) cloud_name: String,
}

/// `spec.platform.powervs`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PowerVs {
    /// `accountID`.
    #[serde(default, rename = "accountID")]
    pub(crate) account_id: String,
    /// `resourceGroup`.
    #[serde(default)]
    pub(crate) resource_group: String,
    /// `region`.
    #[serde(default)]
    pub(crate) region: String,
    /// `zone`.
    #[serde(default)]
    pub(crate) zone: String,
    /// `serviceInstanceID`.
    #[serde(default, rename = "serviceInstanceID")]
    pub(crate) service_instance_id: String,
    /// `vpc`.
    #[serde(default)]
    pub(crate) vpc: PowerVsVpc,
    /// `kubeCloudControllerCreds.name`.
    #[serde(default)]
    pub(crate) kube_cloud_controller_creds: NameRef,
}

/// `spec.platform.powervs.vpc`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub(crate) struct PowerVsVpc {
    /// `name`.
    #[serde(default)]
    pub(crate) name: String,
    /// `region`.
    #[serde(default)]
    pub(crate) region: String,
    /// `subnet`.
    #[serde(default)]
    pub(crate) subnet: String,
}

/// Reads `--hosted-control-plane`.
pub(crate) fn load(path: &Utf8Path) -> Result<HostedControlPlane> {
    parse(&read_text(path)?, path)
}

/// [`load`] on text already read (`path` only names it in errors).
pub(crate) fn parse(text: &str, path: &Utf8Path) -> Result<HostedControlPlane> {
    let doc = object_from_text(
        text,
        path,
        "HostedControlPlane",
        "hypershift.openshift.io",
        &["v1beta1"],
        &[],
    )?;
    let platform_type = doc.pointer("/spec/platform/type");
    if platform_type.is_none_or(|t| t.as_str() == Some("")) {
        bail!("{path}: spec.platform.type is missing");
    }
    let hcp: HostedControlPlane = typed(&doc, path)?;
    check(&hcp, path)?;
    Ok(hcp)
}

/// What the API server and HyperShift's component framework require before a CCM is built.
fn check(hcp: &HostedControlPlane, path: &Utf8Path) -> Result<()> {
    if hcp.metadata.name.is_empty() {
        bail!("{path}: metadata.name is missing");
    }
    if hcp.metadata.namespace.is_empty() {
        bail!("{path}: metadata.namespace is missing (the hosted control plane's namespace)");
    }
    ccm_catalogue::validate::namespace(&hcp.metadata.namespace)
        .with_context(|| format!("{path}: metadata.namespace"))?;
    if hcp.spec.release_image.is_empty() {
        bail!("{path}: spec.releaseImage is missing");
    }
    for (i, entry) in hcp.spec.networking.machine_network.iter().enumerate() {
        canonical_cidr(&entry.cidr).ok_or_else(|| {
            anyhow::anyhow!(
                "{path}: spec.networking.machineNetwork[{i}].cidr: {:?} is not a CIDR",
                entry.cidr
            )
        })?;
    }
    Ok(())
}

/// A CIDR as Go's `ipnet.IPNet` writes it: the network address (host bits cleared) in its
/// canonical form, and the prefix length.
pub(crate) fn canonical_cidr(text: &str) -> Option<String> {
    let (ip, prefix) = text.split_once('/')?;
    let prefix: u32 = prefix.parse().ok()?;
    match ip.parse::<std::net::IpAddr>().ok()? {
        std::net::IpAddr::V4(v4) if prefix <= 32 => {
            let mask = u32::MAX.checked_shl(32 - prefix).unwrap_or(0);
            Some(format!(
                "{}/{prefix}",
                std::net::Ipv4Addr::from(u32::from(v4) & mask)
            ))
        }
        std::net::IpAddr::V6(v6) if prefix <= 128 => {
            let mask = u128::MAX.checked_shl(128 - prefix).unwrap_or(0);
            Some(format!(
                "{}/{prefix}",
                std::net::Ipv6Addr::from(u128::from(v6) & mask)
            ))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINIMAL: &str = "apiVersion: hypershift.openshift.io/v1beta1\nkind: HostedControlPlane\nmetadata: {name: hcp, namespace: ns}\nspec:\n  releaseImage: quay.io/r:1\n  platform: {type: AWS}\n";

    #[test]
    fn a_minimal_hosted_control_plane_reads() {
        let hcp = parse(MINIMAL, "hcp.yaml".into()).expect("parses");
        assert_eq!(hcp.spec.platform.platform_type, HostedPlatform::Aws);
        assert_eq!(hcp.metadata.namespace, "ns");
    }

    #[test]
    fn an_unknown_platform_or_policy_and_a_wrong_type_name_the_field() {
        let err = format!(
            "{:#}",
            parse(
                &MINIMAL.replace("type: AWS", "type: Moon"),
                "hcp.yaml".into(),
            )
            .expect_err("unknown")
        );
        assert!(
            err.starts_with("hcp.yaml: spec.platform.type: unknown platform \"Moon\""),
            "{err}"
        );
        let err = format!(
            "{:#}",
            parse(&format!("{MINIMAL}  infraID: [1]\n"), "hcp.yaml".into())
                .expect_err("wrong type")
        );
        assert!(
            err.starts_with("hcp.yaml: spec.infraID: invalid type"),
            "{err}"
        );
        let policy = |p: &str| {
            parse(
                &format!("{MINIMAL}  controllerAvailabilityPolicy: {p}\n"),
                "hcp.yaml".into(),
            )
            .map(|h| h.spec.controller_availability_policy)
            .map_err(|e| format!("{e:#}"))
        };
        assert_eq!(
            policy("SingleReplica"),
            Ok(AvailabilityPolicy::SingleReplica)
        );
        assert_eq!(policy("\"\""), Ok(AvailabilityPolicy::HighlyAvailable));
        assert_eq!(
            policy("Many"),
            Err("hcp.yaml: spec.controllerAvailabilityPolicy: unknown policy \"Many\" (known: HighlyAvailable, SingleReplica)".into())
        );
    }

    #[test]
    fn cidrs_are_written_as_go_writes_them_and_a_bad_one_is_refused() {
        assert_eq!(
            canonical_cidr("10.0.3.4/16").as_deref(),
            Some("10.0.0.0/16")
        );
        assert_eq!(
            canonical_cidr("fd00:0:0::1/48").as_deref(),
            Some("fd00::/48")
        );
        assert_eq!(canonical_cidr("10.0.0.0/33"), None);
        let text = format!("{MINIMAL}  networking:\n    machineNetwork:\n    - cidr: nope\n");
        let err = format!("{:#}", parse(&text, "hcp.yaml".into()).expect_err("bad"));
        assert!(
            err.contains("spec.networking.machineNetwork[0].cidr: \"nope\" is not a CIDR"),
            "{err}"
        );
    }

    #[test]
    fn field_names_match_exactly() {
        // Go's JSON decoder would take `infraId` for `infraID`; Kubernetes' strict decoding does not.
        let hcp = parse(&format!("{MINIMAL}  infraId: x\n"), "hcp.yaml".into()).expect("parses");
        assert_eq!(hcp.spec.infra_id, "");
    }
}
