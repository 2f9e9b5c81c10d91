//! `spec.platform` of a HostedControlPlane: its `type`, parsed here once into [`PlatformSpec`],
//! which carries that platform's own block (`HyperShift api/hypershift/v1beta1/` `aws.go`,
//! `azure.go`, `gcp.go`, `kubevirt.go`, `openstack.go`, `powervs.go`). A block that HyperShift's
//! CCM component of the type dereferences is required; past this edge the render matches on the
//! enum and reads its platform's fields, with nothing left to check.

use super::arm_id::{self, ArmId};
use anyhow::{Context as _, Result, anyhow};
use camino::Utf8Path;
use ccm_catalogue::platform::HostedPlatform;
use serde::Deserialize;
use serde_json::Value;

/// `spec.platform`: the type and the block of it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum PlatformSpec {
    /// `AWS` and `spec.platform.aws`.
    Aws(Aws),
    /// `Azure` and `spec.platform.azure` (boxed: it is twice the size of any other).
    Azure(Box<AzureSpec>),
    /// `GCP` and `spec.platform.gcp`.
    Gcp(Gcp),
    /// `KubeVirt` and `spec.platform.kubevirt` (HyperShift reads it only when set).
    KubeVirt(KubeVirt),
    /// `OpenStack` and `spec.platform.openstack`.
    OpenStack(OpenStack),
    /// `PowerVS` and `spec.platform.powervs`.
    PowerVs(PowerVs),
    /// `None`, `Agent` or `IBMCloud`: HyperShift builds no CCM for them, so no block is read.
    WithoutCcm(HostedPlatform),
}

impl PlatformSpec {
    /// The platform type.
    pub(crate) fn platform(&self) -> HostedPlatform {
        match self {
            Self::Aws(_) => HostedPlatform::Aws,
            Self::Azure(_) => HostedPlatform::Azure,
            Self::Gcp(_) => HostedPlatform::Gcp,
            Self::KubeVirt(_) => HostedPlatform::KubeVirt,
            Self::OpenStack(_) => HostedPlatform::OpenStack,
            Self::PowerVs(_) => HostedPlatform::PowerVs,
            Self::WithoutCcm(platform) => *platform,
        }
    }
}

/// `spec.platform` as given: the type and every block.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct GivenPlatform {
    /// `spec.platform.type` (its absence is refused before decoding).
    #[serde(rename = "type")]
    platform_type: HostedPlatform,
    /// `spec.platform.aws`.
    #[serde(default)]
    aws: Option<Aws>,
    /// `spec.platform.azure`.
    #[serde(default)]
    azure: Option<Azure>,
    /// `spec.platform.gcp`.
    #[serde(default)]
    gcp: Option<Gcp>,
    /// `spec.platform.kubevirt`.
    #[serde(default)]
    kubevirt: Option<KubeVirt>,
    /// `spec.platform.openstack`.
    #[serde(default)]
    openstack: Option<OpenStack>,
    /// `spec.platform.powervs`.
    #[serde(default)]
    powervs: Option<PowerVs>,
}

impl GivenPlatform {
    /// The type with its block; a block missing for its type is refused naming it (`path` is
    /// the file), as HyperShift's component would dereference it.
    pub(super) fn into_spec(self, path: &Utf8Path) -> Result<PlatformSpec> {
        let kind = self.platform_type;
        let missing =
            |block: &str| anyhow!("{path}: spec.platform.{block} is missing for type {kind}");
        Ok(match kind {
            HostedPlatform::Aws => PlatformSpec::Aws(self.aws.ok_or_else(|| missing("aws"))?),
            HostedPlatform::Azure => PlatformSpec::Azure(Box::new(AzureSpec::read(
                self.azure.ok_or_else(|| missing("azure"))?,
                path,
            )?)),
            HostedPlatform::Gcp => PlatformSpec::Gcp(self.gcp.ok_or_else(|| missing("gcp"))?),
            HostedPlatform::KubeVirt => PlatformSpec::KubeVirt(self.kubevirt.unwrap_or_default()),
            HostedPlatform::OpenStack => {
                PlatformSpec::OpenStack(self.openstack.ok_or_else(|| missing("openstack"))?)
            }
            HostedPlatform::PowerVs => {
                PlatformSpec::PowerVs(self.powervs.ok_or_else(|| missing("powervs"))?)
            }
            HostedPlatform::None | HostedPlatform::Agent | HostedPlatform::IbmCloud => {
                PlatformSpec::WithoutCcm(kind)
            }
        })
    }
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
#[derive(Debug, Clone, PartialEq, Deserialize)]
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
    /// `vnetID`, read into [`AzureNetwork`].
    #[serde(default, rename = "vnetID")]
    vnet_id: String,
    /// `subnetID`, read into [`AzureNetwork`].
    #[serde(default, rename = "subnetID")]
    subnet_id: String,
    /// `subscriptionID`.
    #[serde(default, rename = "subscriptionID")]
    pub(crate) subscription_id: String,
    /// `securityGroupID`, read into [`AzureNetwork`].
    #[serde(default, rename = "securityGroupID")]
    security_group_id: String,
    /// `tenantID`.
    #[serde(default, rename = "tenantID")]
    pub(crate) tenant_id: String,
    /// `azureAuthenticationConfig` (required).
    pub(crate) azure_authentication_config: AzureAuthentication,
    /// `containerRegistry.credentials.managedIdentity.resourceID`.
    #[serde(default)]
    pub(crate) container_registry: Option<Value>,
}

/// Azure's block and its network resources, read as resource IDs.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct AzureSpec {
    /// `spec.platform.azure`.
    pub(crate) block: Azure,
    /// Its `subnetID`, `securityGroupID` and `vnetID`.
    pub(crate) network: AzureNetwork,
}

/// The network resources of an Azure control plane.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct AzureNetwork {
    /// `subnetID`: a subnet of a virtual network.
    pub(crate) subnet: ArmId,
    /// `securityGroupID`: a network security group.
    pub(crate) security_group: ArmId,
    /// `vnetID`: a virtual network.
    pub(crate) vnet: ArmId,
}

impl AzureSpec {
    /// Reads the block's resource IDs in the order HyperShift's `azure/config.go` parses them
    /// (subnet, security group, network), so that the first bad one is the one it names.
    fn read(block: Azure, path: &Utf8Path) -> Result<Self> {
        let id = |text: &str, field: &str, want_type: &str| {
            arm_id::parse(text, want_type)
                .map_err(anyhow::Error::msg)
                .with_context(|| format!("{path}: spec.platform.azure.{field}"))
        };
        let network = AzureNetwork {
            subnet: id(&block.subnet_id, "subnetID", "virtualNetworks/subnets")?,
            security_group: id(
                &block.security_group_id,
                "securityGroupID",
                "networkSecurityGroups",
            )?,
            vnet: id(&block.vnet_id, "vnetID", "virtualNetworks")?,
        };
        Ok(Self { block, network })
    }
}

/// `spec.platform.azure.azureAuthenticationConfig`: how the Azure control plane authenticates,
/// a union HyperShift's API discriminates by `azureAuthenticationConfigType`
/// (`AzureAuthenticationConfiguration`, `api/hypershift/v1beta1/azure.go`), its member required
/// for its type, as the API server's rules require it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "AzureAuthenticationConfig")]
pub(crate) enum AzureAuthentication {
    /// `ManagedIdentities`: managed Azure, the ARO-HCP service (HyperShift
    /// `azureutil.IsAroHCPByHCP`).
    ManagedIdentities(ManagedIdentities),
    /// `WorkloadIdentities`: self-managed Azure.
    WorkloadIdentities(WorkloadIdentities),
}

/// `azureAuthenticationConfig` as given.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct AzureAuthenticationConfig {
    /// `azureAuthenticationConfigType` (required).
    azure_authentication_config_type: AzureAuthenticationType,
    /// `workloadIdentities.cloudProvider.clientID`.
    #[serde(default)]
    workload_identities: Option<WorkloadIdentities>,
    /// `managedIdentities`.
    #[serde(default)]
    managed_identities: Option<ManagedIdentities>,
}

/// HyperShift `AzureAuthenticationType` (`Enum=ManagedIdentities;WorkloadIdentities`).
#[derive(Deserialize)]
enum AzureAuthenticationType {
    ManagedIdentities,
    WorkloadIdentities,
}

impl TryFrom<AzureAuthenticationConfig> for AzureAuthentication {
    type Error = String;

    fn try_from(config: AzureAuthenticationConfig) -> Result<Self, String> {
        let missing = |member: &str, kind: &str| {
            format!("{member} is missing for azureAuthenticationConfigType {kind}")
        };
        match config.azure_authentication_config_type {
            AzureAuthenticationType::ManagedIdentities => config
                .managed_identities
                .map(Self::ManagedIdentities)
                .ok_or_else(|| missing("managedIdentities", "ManagedIdentities")),
            AzureAuthenticationType::WorkloadIdentities => config
                .workload_identities
                .map(Self::WorkloadIdentities)
                .ok_or_else(|| missing("workloadIdentities", "WorkloadIdentities")),
        }
    }
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
pub(crate) struct KubeVirt {
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The platform of a HostedControlPlane whose `spec.platform` is `platform`.
    fn spec(platform: &Value) -> Result<PlatformSpec, String> {
        let hcp = json!({
            "apiVersion": "hypershift.openshift.io/v1beta1",
            "kind": "HostedControlPlane",
            "metadata": {"name": "hcp", "namespace": "ns"},
            "spec": {"releaseImage": "quay.io/r:1", "platform": platform},
        });
        super::super::parse(&hcp.to_string(), Utf8Path::new("hcp.yaml"))
            .map(|h| h.spec.platform)
            .map_err(|e| format!("{e:#}"))
    }

    #[test]
    fn a_block_is_required_for_its_type_but_kubevirts_and_those_without_a_ccm() {
        assert_eq!(
            spec(&json!({"type": "GCP", "aws": {}})),
            Err("hcp.yaml: spec.platform.gcp is missing for type GCP".into())
        );
        assert_eq!(
            spec(&json!({"type": "KubeVirt"})),
            Ok(PlatformSpec::KubeVirt(KubeVirt::default()))
        );
        let agent = spec(&json!({"type": "Agent"})).expect("no block needed");
        assert_eq!(agent, PlatformSpec::WithoutCcm(HostedPlatform::Agent));
        assert_eq!(agent.platform(), HostedPlatform::Agent);
    }

    /// An Azure block's network resources, with nothing else.
    fn network() -> Value {
        let id = |path: &str| {
            format!("/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/{path}")
        };
        json!({
            "vnetID": id("virtualNetworks/v"),
            "subnetID": id("virtualNetworks/v/subnets/sn"),
            "securityGroupID": id("networkSecurityGroups/nsg"),
        })
    }

    #[test]
    fn azures_network_resources_are_read_as_resource_ids_of_their_type() {
        let with_auth = |mut block: Value| {
            block["azureAuthenticationConfig"] = json!({
                "azureAuthenticationConfigType": "WorkloadIdentities", "workloadIdentities": {}});
            spec(&json!({"type": "Azure", "azure": block}))
        };
        let Ok(PlatformSpec::Azure(azure)) = with_auth(network()) else {
            panic!("reads");
        };
        let ids = &azure.network;
        assert_eq!(
            (ids.subnet.name.as_str(), ids.subnet.resource_group.as_str()),
            ("sn", "rg")
        );
        assert_eq!(ids.security_group.name, "nsg");
        assert_eq!(ids.vnet.name, "v");
        let mut block = network();
        block["vnetID"] = block["subnetID"].clone();
        let err = with_auth(block.clone()).expect_err("a subnet");
        assert!(
            err.starts_with("hcp.yaml: spec.platform.azure.vnetID: ")
                && err.contains("invalid resource type \"virtualNetworks/subnets\""),
            "{err}"
        );
        // The first bad one in HyperShift's order (subnet, security group, network) is named.
        block["securityGroupID"] = json!("nsg");
        let err = with_auth(block.clone()).expect_err("not an ID");
        assert!(
            err.starts_with("hcp.yaml: spec.platform.azure.securityGroupID: \"nsg\" is not"),
            "{err}"
        );
        block.as_object_mut().expect("object").remove("subnetID");
        let err = with_auth(block).expect_err("missing");
        assert!(
            err.starts_with("hcp.yaml: spec.platform.azure.subnetID: \"\" is not"),
            "{err}"
        );
    }

    #[test]
    fn azures_authentication_is_its_type_with_the_member_the_type_requires() {
        let azure = |auth: Value| {
            let mut block = network();
            block["azureAuthenticationConfig"] = auth;
            spec(&json!({"type": "Azure", "azure": block})).map(|p| match p {
                PlatformSpec::Azure(a) => a.block.azure_authentication_config,
                other => panic!("{other:?}"),
            })
        };
        let managed = azure(json!({"azureAuthenticationConfigType": "ManagedIdentities",
            "managedIdentities": {"controlPlane": {"cloudProvider": {"credentialsSecretName": "c"}}}}));
        assert!(
            matches!(&managed, Ok(AzureAuthentication::ManagedIdentities(m))
                if m.control_plane.cloud_provider.credentials_secret_name == "c"),
            "{managed:?}"
        );
        let workload = azure(
            json!({"azureAuthenticationConfigType": "WorkloadIdentities",
            "workloadIdentities": {"cloudProvider": {"clientID": "id"}}}),
        );
        assert!(
            matches!(&workload, Ok(AzureAuthentication::WorkloadIdentities(w))
                if w.cloud_provider.client_id == "id"),
            "{workload:?}"
        );
        let at = "hcp.yaml: spec.platform.azure.azureAuthenticationConfig";
        assert_eq!(
            azure(
                json!({"azureAuthenticationConfigType": "WorkloadIdentities",
                "managedIdentities": {}})
            ),
            Err(format!(
                "{at}: workloadIdentities is missing for azureAuthenticationConfigType WorkloadIdentities"
            ))
        );
        let unknown = azure(json!({"azureAuthenticationConfigType": "Keys"})).expect_err("unknown");
        assert!(
            unknown.starts_with(&format!(
                "{at}.azureAuthenticationConfigType: unknown variant `Keys`"
            )),
            "{unknown}"
        );
        let missing = spec(&json!({"type": "Azure", "azure": network()})).expect_err("required");
        assert!(
            missing.starts_with(
                "hcp.yaml: spec.platform.azure: missing field `azureAuthenticationConfig`"
            ),
            "{missing}"
        );
    }
}
