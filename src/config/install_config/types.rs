//! The parts of `install-config.yaml` (`openshift/installer:pkg/types`) that ccm-render reads, as
//! typed records, read through `super::go_json` (the installer's key matching). Unknown fields
//! are ignored, as the installer's own loader does for fields of other versions; `null` reads as
//! absent (YAML `compute:` with nothing after it). No struct here uses `#[serde(flatten)]`
//! (`go_json` cannot match a flattened struct's keys): the fields several platforms share
//! ([`Vips`], [`VSphereLegacy`]) are read from the same object a second time.

use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// `null` or absent reads as the type's default.
fn nullable<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Default,
{
    Option::<T>::deserialize(d).map(Option::unwrap_or_default)
}

/// The document, without `platform` (read per platform, see [`super::Platform`]).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Document {
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) api_version: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) metadata: Metadata,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) base_domain: String,
    #[serde(default)]
    pub(crate) control_plane: Option<MachinePool>,
    #[serde(default)]
    pub(crate) arbiter: Option<MachinePool>,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) compute: Vec<MachinePool>,
    #[serde(default)]
    pub(crate) networking: Option<Networking>,
    /// Keys matched to the platform names in `super::platform`, which refuses unknown ones.
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) platform: Map<String, Value>,
    #[serde(default)]
    pub(crate) proxy: Option<Proxy>,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) additional_trust_bundle: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) additional_trust_bundle_policy: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) publish: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) cpu_partitioning_mode: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) feature_set: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) feature_gates: Vec<String>,
    #[serde(default)]
    pub(crate) bootstrap_in_place: Option<Value>,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) image_digest_sources: Vec<Value>,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) image_content_sources: Vec<Value>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct Metadata {
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) name: String,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct MachinePool {
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) name: String,
    #[serde(default)]
    pub(crate) replicas: Option<i64>,
    /// `platform.<name>`: read only for the IBM Cloud zones.
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) platform: Map<String, Value>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Networking {
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) machine_network: Vec<CidrEntry>,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) cluster_network: Vec<ClusterNetworkEntry>,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) service_network: Vec<String>,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) network_type: String,
    /// Deprecated forms the installer still converts (`pkg/types/conversion`).
    #[serde(default, rename = "machineCIDR", deserialize_with = "nullable")]
    pub(crate) machine_cidr: String,
    #[serde(default, rename = "serviceCIDR", deserialize_with = "nullable")]
    pub(crate) service_cidr: String,
    #[serde(default, rename = "clusterNetworks", deserialize_with = "nullable")]
    pub(crate) deprecated_cluster_networks: Vec<ClusterNetworkEntry>,
    #[serde(default, rename = "type", deserialize_with = "nullable")]
    pub(crate) deprecated_type: String,
}

/// `networking.clusterNetwork[]` (`types.ClusterNetworkEntry`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ClusterNetworkEntry {
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) cidr: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) host_prefix: i64,
    /// Deprecated; converted to `hostPrefix` (the CIDR's bits minus it).
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) host_subnet_length: i64,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct CidrEntry {
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) cidr: String,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(clippy::struct_field_names)] // named as in the install-config
pub(crate) struct Proxy {
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) http_proxy: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) https_proxy: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) no_proxy: String,
}

/// `{name, url}` service endpoint overrides (AWS, IBM Cloud, PowerVS).
#[derive(Debug, Clone, Default, Deserialize, serde::Serialize, PartialEq, Eq)]
pub(crate) struct ServiceEndpoint {
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) name: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) url: String,
}

/// `loadBalancer: {type: OpenShiftManagedDefault|UserManaged}` of the VIP platforms.
#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct LoadBalancer {
    #[serde(rename = "type", default, deserialize_with = "nullable")]
    pub(crate) kind: String,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Aws {
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) region: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) service_endpoints: Vec<ServiceEndpoint>,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) user_tags: BTreeMap<String, String>,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) propagate_user_tags: bool,
    #[serde(default, rename = "userProvisionedDNS", deserialize_with = "nullable")]
    pub(crate) user_provisioned_dns: String,
    /// `IPv4` (the default), `DualStackIPv4Primary` or `DualStackIPv6Primary`.
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) ip_family: String,
    /// `Classic` or `NLB`; defaults to `NLB` for dual stack (`super::platform`).
    #[serde(default, rename = "lbType", deserialize_with = "nullable")]
    pub(crate) lb_type: String,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Azure {
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) region: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) cloud_name: AzureCloud,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) arm_endpoint: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) resource_group_name: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) network_resource_group_name: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) virtual_network: String,
    /// Deprecated from 4.21 for `subnets`.
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) control_plane_subnet: String,
    /// Deprecated from 4.21 for `subnets`.
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) compute_subnet: String,
    /// `subnets` (installer 4.21+).
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) subnets: Vec<AzureSubnet>,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) user_tags: BTreeMap<String, String>,
    /// `IPv4` (the default), `DualStackIPv4Primary` or `DualStackIPv6Primary`.
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) ip_family: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) default_machine_platform: AzureMachinePool,
    /// Filled in by the parser: whether the installer creates a user-assigned identity for the
    /// VMs, which the cloud config's `useManagedIdentityExtension` follows from 4.19
    /// (`InstallConfig.CreateAzureIdentity`).
    #[serde(skip)]
    pub(crate) creates_identity: bool,
    /// `Enabled` or `Disabled` (installer 4.21+).
    #[serde(default, rename = "userProvisionedDNS", deserialize_with = "nullable")]
    pub(crate) user_provisioned_dns: String,
}

/// A subnet's role (CAPZ `SubnetRole`, as the installer's `SubnetSpec` takes it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AzureSubnetRole {
    /// `node`: compute nodes.
    Node,
    /// `control-plane`.
    ControlPlane,
}

impl AzureSubnetRole {
    const ALL: [Self; 2] = [Self::Node, Self::ControlPlane];

    fn as_str(self) -> &'static str {
        match self {
            Self::Node => "node",
            Self::ControlPlane => "control-plane",
        }
    }
}

impl<'de> Deserialize<'de> for AzureSubnetRole {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        Self::ALL
            .into_iter()
            .find(|role| role.as_str() == name)
            .ok_or_else(|| {
                serde::de::Error::custom(format!(
                    "{name:?}: supported values: \"node\", \"control-plane\""
                ))
            })
    }
}

/// One of `platform.azure.subnets` (installer 4.21 `pkg/types/azure` `SubnetSpec`; what it
/// changes is in `super::azure_subnets`).
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct AzureSubnet {
    #[serde(default)]
    pub(crate) name: String,
    pub(crate) role: AzureSubnetRole,
}

/// `platform.azure` of a machine pool (and `defaultMachinePlatform`): only the identity is read.
#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct AzureMachinePool {
    #[serde(default)]
    pub(crate) identity: Option<AzureIdentity>,
}

/// A machine pool's `identity` (installer `pkg/types/azure` `VMIdentity`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AzureIdentity {
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) r#type: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) user_assigned_identities: Vec<Value>,
}

impl AzureIdentity {
    /// Whether this identity still needs one the installer creates: none given, or
    /// `UserAssigned` without identities.
    fn needs_one(identity: Option<&Self>) -> bool {
        identity
            .is_none_or(|id| id.r#type == "UserAssigned" && id.user_assigned_identities.is_empty())
    }
}

impl Azure {
    /// `InstallConfig.CreateAzureIdentity` (installer `pkg/types/utils.go`, 4.19): never on
    /// Azure Stack Hub; else when `defaultMachinePlatform` needs one and so does the first
    /// compute pool or the control plane (each pool's own `platform.azure.identity`).
    pub(crate) fn fill_identity(&mut self, d: &Document) -> anyhow::Result<()> {
        let own = |pool: Option<&MachinePool>, at: &str| -> anyhow::Result<Option<AzureIdentity>> {
            let platform = pool.map(|pool| super::decode::keys(&pool.platform));
            Ok(
                match platform.iter().flatten().find(|(key, _)| key == "azure") {
                    Some((_, v)) if !v.is_null() => {
                        super::decode::typed::<AzureMachinePool>(
                            v,
                            &format!("{at}.platform.azure"),
                        )?
                        .identity
                    }
                    _ => None,
                },
            )
        };
        let default_needs =
            AzureIdentity::needs_one(self.default_machine_platform.identity.as_ref());
        let compute_needs =
            AzureIdentity::needs_one(own(d.compute.first(), "compute[0]")?.as_ref());
        let control_plane_needs =
            AzureIdentity::needs_one(own(d.control_plane.as_ref(), "controlPlane")?.as_ref());
        self.creates_identity = self.cloud_name != AzureCloud::Stack
            && default_needs
            && (compute_needs || control_plane_needs);
        Ok(())
    }
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Gcp {
    #[serde(default, rename = "projectID", deserialize_with = "nullable")]
    pub(crate) project_id: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) region: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) compute_subnet: String,
    #[serde(default, rename = "networkProjectID", deserialize_with = "nullable")]
    pub(crate) network_project_id: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) user_labels: Vec<GcpLabel>,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) user_tags: Vec<GcpTag>,
    #[serde(default, rename = "userProvisionedDNS", deserialize_with = "nullable")]
    pub(crate) user_provisioned_dns: String,
    /// `endpoint`: the Private Service Connect endpoint (installer 4.21+).
    #[serde(default)]
    pub(crate) endpoint: Option<GcpPscEndpoint>,
    /// `firewallRulesManagement`: `Managed` or `Unmanaged` (installer 4.21+).
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) firewall_rules_management: String,
    /// Service endpoint overrides (installer 4.19 and 4.20: copied into the Infrastructure).
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) service_endpoints: Vec<ServiceEndpoint>,
}

/// `platform.gcp.endpoint` (installer `pkg/types/gcp/platform.go` `PSCEndpoint`). Its
/// `clusterUseOnly` says whether the installer itself uses the endpoint; the cluster's
/// components use it either way, so nothing derived here reads it.
#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct GcpPscEndpoint {
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) name: String,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct GcpLabel {
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) key: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) value: String,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct GcpTag {
    #[serde(default, rename = "parentID", deserialize_with = "nullable")]
    pub(crate) parent_id: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) key: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) value: String,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct IbmCloud {
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) region: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) resource_group_name: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) service_endpoints: Vec<ServiceEndpoint>,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) vpc_name: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) control_plane_subnets: Vec<String>,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) compute_subnets: Vec<String>,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) default_machine_platform: IbmCloudMachinePool,
    /// Filled in by the parser: the zones of the control plane and of the `worker` pool
    /// (`defaultMachinePlatform` overridden by the pool's own `platform.ibmcloud`); empty
    /// where the install-config names none.
    #[serde(skip)]
    pub(crate) control_plane_zones: Vec<String>,
    #[serde(skip)]
    pub(crate) compute_zones: Vec<String>,
}

impl IbmCloud {
    /// The zones of the control plane and `worker` pools: the pool's own
    /// `platform.ibmcloud.zones`, else `platform.ibmcloud.defaultMachinePlatform.zones`
    /// (installer `pkg/asset/manifests/cloudproviderconfig.go`: `MachinePool.Set` of the
    /// default, then of the pool; `WorkerMachinePool` is the pool named `worker`).
    pub(crate) fn fill_zones(&mut self, d: &Document) -> anyhow::Result<()> {
        let default = self.default_machine_platform.zones.clone();
        let zones = |pool: Option<&MachinePool>, at: &str| -> anyhow::Result<Vec<String>> {
            let platform = pool.map(|pool| super::decode::keys(&pool.platform));
            let own = match platform.iter().flatten().find(|(key, _)| key == "ibmcloud") {
                Some((_, v)) if !v.is_null() => {
                    super::decode::typed::<IbmCloudMachinePool>(
                        v,
                        &format!("{at}.platform.ibmcloud"),
                    )?
                    .zones
                }
                _ => Vec::new(),
            };
            Ok(if own.is_empty() { default.clone() } else { own })
        };
        self.control_plane_zones = zones(d.control_plane.as_ref(), "controlPlane")?;
        let worker = d.compute.iter().position(|pool| pool.name == "worker");
        self.compute_zones = zones(
            worker.map(|i| &d.compute[i]),
            &format!("compute[{}]", worker.unwrap_or(0)),
        )?;
        Ok(())
    }
}

/// `platform.ibmcloud` of a machine pool: only the zones are read.
#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct IbmCloudMachinePool {
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) zones: Vec<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PowerVs {
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) region: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) zone: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) powervs_resource_group: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) service_endpoints: Vec<ServiceEndpoint>,
    #[serde(default, rename = "vpcRegion", deserialize_with = "nullable")]
    pub(crate) vpc_region: String,
    #[serde(default, rename = "vpcName", deserialize_with = "nullable")]
    pub(crate) vpc_name: String,
    #[serde(default, rename = "vpcSubnets", deserialize_with = "nullable")]
    pub(crate) vpc_subnets: Vec<String>,
    #[serde(default, rename = "serviceInstanceGUID", deserialize_with = "nullable")]
    pub(crate) service_instance_guid: String,
}

/// `platform.openstack`: the VIPs, and what the cloud provider config reads.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct OpenStack {
    /// The name of the external network (the installer looks its ID up).
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) external_network: String,
    /// Read from the same object by the parser.
    #[serde(skip)]
    pub(crate) vips: Vips,
}

/// The VIP fields OpenStack, BareMetal, vSphere and Nutanix share.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Vips {
    #[serde(default, rename = "apiVIPs", deserialize_with = "nullable")]
    pub(crate) api_vips: Vec<String>,
    #[serde(default, rename = "ingressVIPs", deserialize_with = "nullable")]
    pub(crate) ingress_vips: Vec<String>,
    /// Deprecated single-VIP forms, which the installer converts to the lists.
    #[serde(default, rename = "apiVIP", deserialize_with = "nullable")]
    pub(crate) api_vip: String,
    #[serde(default, rename = "ingressVIP", deserialize_with = "nullable")]
    pub(crate) ingress_vip: String,
    #[serde(default)]
    pub(crate) load_balancer: Option<LoadBalancer>,
    /// `Internal` (the default from 4.21) or `External` (gated by `OnPremDNSRecords`); a field
    /// from 4.21 (`super::release_fields`).
    #[serde(default, rename = "dnsRecordsType", deserialize_with = "nullable")]
    pub(crate) dns_records_type: String,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct VSphere {
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) vcenters: Vec<VCenter>,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) failure_domains: Vec<VSphereFailureDomain>,
    #[serde(default)]
    pub(crate) node_networking: Option<Value>,
    /// The deprecated single-vCenter form (`pkg/types/vsphere` `Deprecated*` fields), which the
    /// installer converts to `vcenters` and `failureDomains` (see `super::vsphere`).
    #[serde(skip)]
    pub(crate) legacy: VSphereLegacy,
    /// Read from the same object by the parser.
    #[serde(skip)]
    pub(crate) vips: Vips,
}

/// The deprecated vSphere fields, as the installer's `vsphere.Platform` names them in JSON.
/// The credentials (`username`, `password`) are not read: nothing derived here carries them.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct VSphereLegacy {
    #[serde(default, rename = "vCenter", deserialize_with = "nullable")]
    pub(crate) vcenter: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) datacenter: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) default_datastore: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) folder: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) cluster: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) resource_pool: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) network: String,
}

impl VSphereLegacy {
    /// Whether any deprecated topology field is set.
    pub(crate) fn has_topology(&self) -> bool {
        [
            &self.datacenter,
            &self.default_datastore,
            &self.folder,
            &self.cluster,
            &self.resource_pool,
            &self.network,
        ]
        .iter()
        .any(|f| !f.is_empty())
    }
}

/// `platform.external` (`pkg/types/external/platform.go`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct External {
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) platform_name: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) cloud_controller_manager: String,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct VCenter {
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) server: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) port: u16,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) datacenters: Vec<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct VSphereFailureDomain {
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) name: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) region: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) zone: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) server: String,
    /// `Datacenter` (the default) or `ComputeCluster` (host-group zones).
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) region_type: String,
    /// `ComputeCluster` (the default) or `HostGroup`.
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) zone_type: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) topology: VSphereTopology,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct VSphereTopology {
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) datacenter: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) compute_cluster: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) networks: Vec<String>,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) datastore: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) resource_pool: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) folder: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) template: String,
    /// The vCenter host group of a `zoneType: HostGroup` failure domain.
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) host_group: String,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Nutanix {
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) prism_central: PrismCentral,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) prism_elements: Vec<PrismElement>,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) failure_domains: Vec<NutanixFailureDomain>,
    /// Read from the same object by the parser.
    #[serde(skip)]
    pub(crate) vips: Vips,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct PrismCentral {
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) endpoint: Endpoint,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct Endpoint {
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) address: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) port: i32,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct PrismElement {
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) name: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) uuid: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) endpoint: Endpoint,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct NutanixFailureDomain {
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) name: String,
    #[serde(default, deserialize_with = "nullable")]
    pub(crate) prism_element: PrismElement,
    #[serde(default, rename = "subnetUUIDs", deserialize_with = "nullable")]
    pub(crate) subnet_uuids: Vec<String>,
}

/// An Azure cloud the installer accepts (`pkg/types/azure` `CloudEnvironment`); an empty or
/// absent `cloudName` is the public cloud (`pkg/types/azure/defaults`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum AzureCloud {
    /// `AzurePublicCloud`.
    #[default]
    Public,
    /// `AzureUSGovernmentCloud`.
    UsGovernment,
    /// `AzureChinaCloud`.
    China,
    /// `AzureGermanCloud`.
    German,
    /// `AzureStackCloud`: Azure Stack Hub, with its own ARM endpoint.
    Stack,
}

impl AzureCloud {
    const ALL: [Self; 5] = [
        Self::Public,
        Self::UsGovernment,
        Self::China,
        Self::German,
        Self::Stack,
    ];

    /// The name as the installer and the Infrastructure write it.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::Public => "AzurePublicCloud",
            Self::UsGovernment => "AzureUSGovernmentCloud",
            Self::China => "AzureChinaCloud",
            Self::German => "AzureGermanCloud",
            Self::Stack => "AzureStackCloud",
        }
    }
}

impl<'de> Deserialize<'de> for AzureCloud {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        if name.is_empty() {
            return Ok(Self::Public);
        }
        Self::ALL
            .into_iter()
            .find(|cloud| cloud.as_str() == name)
            .ok_or_else(|| {
                serde::de::Error::custom(format!(
                    "{name:?}: supported values: {}",
                    Self::ALL.map(Self::as_str).join(", ")
                ))
            })
    }
}
