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
pub struct Document {
    #[serde(default, deserialize_with = "nullable")]
    pub api_version: String,
    #[serde(default, deserialize_with = "nullable")]
    pub metadata: Metadata,
    #[serde(default, deserialize_with = "nullable")]
    pub base_domain: String,
    #[serde(default)]
    pub control_plane: Option<MachinePool>,
    #[serde(default)]
    pub arbiter: Option<MachinePool>,
    #[serde(default, deserialize_with = "nullable")]
    pub compute: Vec<MachinePool>,
    #[serde(default)]
    pub networking: Option<Networking>,
    /// Keys matched to the platform names in `super::platform`, which refuses unknown ones.
    #[serde(default, deserialize_with = "nullable")]
    pub platform: Map<String, Value>,
    #[serde(default)]
    pub proxy: Option<Proxy>,
    #[serde(default, deserialize_with = "nullable")]
    pub additional_trust_bundle: String,
    #[serde(default, deserialize_with = "nullable")]
    pub additional_trust_bundle_policy: String,
    #[serde(default, deserialize_with = "nullable")]
    pub publish: String,
    #[serde(default, deserialize_with = "nullable")]
    pub cpu_partitioning_mode: String,
    #[serde(default, deserialize_with = "nullable")]
    pub feature_set: String,
    #[serde(default, deserialize_with = "nullable")]
    pub feature_gates: Vec<String>,
    #[serde(default)]
    pub bootstrap_in_place: Option<Value>,
    #[serde(default, deserialize_with = "nullable")]
    pub image_digest_sources: Vec<Value>,
    #[serde(default, deserialize_with = "nullable")]
    pub image_content_sources: Vec<Value>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct Metadata {
    #[serde(default, deserialize_with = "nullable")]
    pub name: String,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct MachinePool {
    #[serde(default, deserialize_with = "nullable")]
    pub name: String,
    #[serde(default)]
    pub replicas: Option<i64>,
    /// `platform.<name>`: read only for the IBM Cloud zones.
    #[serde(default, deserialize_with = "nullable")]
    pub platform: Map<String, Value>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Networking {
    #[serde(default, deserialize_with = "nullable")]
    pub machine_network: Vec<CidrEntry>,
    #[serde(default, deserialize_with = "nullable")]
    pub cluster_network: Vec<ClusterNetworkEntry>,
    #[serde(default, deserialize_with = "nullable")]
    pub service_network: Vec<String>,
    #[serde(default, deserialize_with = "nullable")]
    pub network_type: String,
    /// Deprecated forms the installer still converts (`pkg/types/conversion`).
    #[serde(default, rename = "machineCIDR", deserialize_with = "nullable")]
    pub machine_cidr: String,
    #[serde(default, rename = "serviceCIDR", deserialize_with = "nullable")]
    pub service_cidr: String,
    #[serde(default, rename = "clusterNetworks", deserialize_with = "nullable")]
    pub deprecated_cluster_networks: Vec<ClusterNetworkEntry>,
    #[serde(default, rename = "type", deserialize_with = "nullable")]
    pub deprecated_type: String,
}

/// `networking.clusterNetwork[]` (`types.ClusterNetworkEntry`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClusterNetworkEntry {
    #[serde(default, deserialize_with = "nullable")]
    pub cidr: String,
    #[serde(default, deserialize_with = "nullable")]
    pub host_prefix: i64,
    /// Deprecated; converted to `hostPrefix` (the CIDR's bits minus it).
    #[serde(default, deserialize_with = "nullable")]
    pub host_subnet_length: i64,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct CidrEntry {
    #[serde(default, deserialize_with = "nullable")]
    pub cidr: String,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(clippy::struct_field_names)] // named as in the install-config
pub struct Proxy {
    #[serde(default, deserialize_with = "nullable")]
    pub http_proxy: String,
    #[serde(default, deserialize_with = "nullable")]
    pub https_proxy: String,
    #[serde(default, deserialize_with = "nullable")]
    pub no_proxy: String,
}

/// `{name, url}` service endpoint overrides (AWS, IBM Cloud, PowerVS).
#[derive(Debug, Clone, Default, Deserialize, serde::Serialize, PartialEq, Eq)]
pub struct ServiceEndpoint {
    #[serde(default, deserialize_with = "nullable")]
    pub name: String,
    #[serde(default, deserialize_with = "nullable")]
    pub url: String,
}

/// `loadBalancer: {type: OpenShiftManagedDefault|UserManaged}` of the VIP platforms.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct LoadBalancer {
    #[serde(rename = "type", default, deserialize_with = "nullable")]
    pub kind: String,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Aws {
    #[serde(default, deserialize_with = "nullable")]
    pub region: String,
    #[serde(default, deserialize_with = "nullable")]
    pub service_endpoints: Vec<ServiceEndpoint>,
    #[serde(default, deserialize_with = "nullable")]
    pub user_tags: BTreeMap<String, String>,
    #[serde(default, deserialize_with = "nullable")]
    pub propagate_user_tags: bool,
    #[serde(default, rename = "userProvisionedDNS", deserialize_with = "nullable")]
    pub user_provisioned_dns: String,
    /// `IPv4` (the default), `DualStackIPv4Primary` or `DualStackIPv6Primary`.
    #[serde(default, deserialize_with = "nullable")]
    pub ip_family: String,
    /// `Classic` or `NLB`; defaults to `NLB` for dual stack (`super::platform`).
    #[serde(default, rename = "lbType", deserialize_with = "nullable")]
    pub lb_type: String,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Azure {
    #[serde(default, deserialize_with = "nullable")]
    pub region: String,
    #[serde(default, deserialize_with = "nullable")]
    pub cloud_name: String,
    #[serde(default, deserialize_with = "nullable")]
    pub arm_endpoint: String,
    #[serde(default, deserialize_with = "nullable")]
    pub resource_group_name: String,
    #[serde(default, deserialize_with = "nullable")]
    pub network_resource_group_name: String,
    #[serde(default, deserialize_with = "nullable")]
    pub virtual_network: String,
    #[serde(default, deserialize_with = "nullable")]
    pub compute_subnet: String,
    #[serde(default, deserialize_with = "nullable")]
    pub user_tags: BTreeMap<String, String>,
    /// `IPv4` (the default), `DualStackIPv4Primary` or `DualStackIPv6Primary`.
    #[serde(default, deserialize_with = "nullable")]
    pub ip_family: String,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Gcp {
    #[serde(default, rename = "projectID", deserialize_with = "nullable")]
    pub project_id: String,
    #[serde(default, deserialize_with = "nullable")]
    pub region: String,
    #[serde(default, deserialize_with = "nullable")]
    pub compute_subnet: String,
    #[serde(default, rename = "networkProjectID", deserialize_with = "nullable")]
    pub network_project_id: String,
    #[serde(default, deserialize_with = "nullable")]
    pub user_labels: Vec<GcpLabel>,
    #[serde(default, deserialize_with = "nullable")]
    pub user_tags: Vec<GcpTag>,
    #[serde(default, rename = "userProvisionedDNS", deserialize_with = "nullable")]
    pub user_provisioned_dns: String,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct GcpLabel {
    #[serde(default, deserialize_with = "nullable")]
    pub key: String,
    #[serde(default, deserialize_with = "nullable")]
    pub value: String,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct GcpTag {
    #[serde(default, rename = "parentID", deserialize_with = "nullable")]
    pub parent_id: String,
    #[serde(default, deserialize_with = "nullable")]
    pub key: String,
    #[serde(default, deserialize_with = "nullable")]
    pub value: String,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IbmCloud {
    #[serde(default, deserialize_with = "nullable")]
    pub region: String,
    #[serde(default, deserialize_with = "nullable")]
    pub resource_group_name: String,
    #[serde(default, deserialize_with = "nullable")]
    pub service_endpoints: Vec<ServiceEndpoint>,
    #[serde(default, deserialize_with = "nullable")]
    pub vpc_name: String,
    #[serde(default, deserialize_with = "nullable")]
    pub control_plane_subnets: Vec<String>,
    #[serde(default, deserialize_with = "nullable")]
    pub compute_subnets: Vec<String>,
    #[serde(default, deserialize_with = "nullable")]
    pub default_machine_platform: IbmCloudMachinePool,
    /// Filled in by the parser: the zones of the control plane and of the `worker` pool
    /// (`defaultMachinePlatform` overridden by the pool's own `platform.ibmcloud`); empty
    /// where the install-config names none.
    #[serde(skip)]
    pub control_plane_zones: Vec<String>,
    #[serde(skip)]
    pub compute_zones: Vec<String>,
}

impl IbmCloud {
    /// The zones of the control plane and `worker` pools: the pool's own
    /// `platform.ibmcloud.zones`, else `platform.ibmcloud.defaultMachinePlatform.zones`
    /// (installer `pkg/asset/manifests/cloudproviderconfig.go`: `MachinePool.Set` of the
    /// default, then of the pool; `WorkerMachinePool` is the pool named `worker`).
    pub fn fill_zones(&mut self, d: &Document) -> anyhow::Result<()> {
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
pub struct IbmCloudMachinePool {
    #[serde(default, deserialize_with = "nullable")]
    pub zones: Vec<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PowerVs {
    #[serde(default, deserialize_with = "nullable")]
    pub region: String,
    #[serde(default, deserialize_with = "nullable")]
    pub zone: String,
    #[serde(default, deserialize_with = "nullable")]
    pub powervs_resource_group: String,
    #[serde(default, deserialize_with = "nullable")]
    pub service_endpoints: Vec<ServiceEndpoint>,
    #[serde(default, rename = "vpcRegion", deserialize_with = "nullable")]
    pub vpc_region: String,
    #[serde(default, rename = "vpcName", deserialize_with = "nullable")]
    pub vpc_name: String,
    #[serde(default, rename = "vpcSubnets", deserialize_with = "nullable")]
    pub vpc_subnets: Vec<String>,
    #[serde(default, rename = "serviceInstanceGUID", deserialize_with = "nullable")]
    pub service_instance_guid: String,
}

/// `platform.openstack`: the VIPs, and what the cloud provider config reads.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OpenStack {
    /// The name of the cloud in the user's clouds.yaml (the installer renames it `openstack`
    /// in the credentials Secret).
    #[serde(default, deserialize_with = "nullable")]
    pub cloud: String,
    /// The name of the external network (the installer looks its ID up).
    #[serde(default, deserialize_with = "nullable")]
    pub external_network: String,
    /// Read from the same object by the parser.
    #[serde(skip)]
    pub vips: Vips,
}

/// The VIP fields OpenStack, BareMetal, vSphere and Nutanix share.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Vips {
    #[serde(default, rename = "apiVIPs", deserialize_with = "nullable")]
    pub api_vips: Vec<String>,
    #[serde(default, rename = "ingressVIPs", deserialize_with = "nullable")]
    pub ingress_vips: Vec<String>,
    /// Deprecated single-VIP forms, which the installer converts to the lists.
    #[serde(default, rename = "apiVIP", deserialize_with = "nullable")]
    pub api_vip: String,
    #[serde(default, rename = "ingressVIP", deserialize_with = "nullable")]
    pub ingress_vip: String,
    #[serde(default)]
    pub load_balancer: Option<LoadBalancer>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VSphere {
    #[serde(default, deserialize_with = "nullable")]
    pub vcenters: Vec<VCenter>,
    #[serde(default, deserialize_with = "nullable")]
    pub failure_domains: Vec<VSphereFailureDomain>,
    #[serde(default)]
    pub node_networking: Option<Value>,
    /// The deprecated single-vCenter form (`pkg/types/vsphere` `Deprecated*` fields), which the
    /// installer converts to `vcenters` and `failureDomains` (see `super::vsphere`).
    #[serde(skip)]
    pub legacy: VSphereLegacy,
    /// Read from the same object by the parser.
    #[serde(skip)]
    pub vips: Vips,
}

/// The deprecated vSphere fields, as the installer's `vsphere.Platform` names them in JSON.
/// The credentials (`username`, `password`) are not read: nothing derived here carries them.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VSphereLegacy {
    #[serde(default, rename = "vCenter", deserialize_with = "nullable")]
    pub vcenter: String,
    #[serde(default, deserialize_with = "nullable")]
    pub datacenter: String,
    #[serde(default, deserialize_with = "nullable")]
    pub default_datastore: String,
    #[serde(default, deserialize_with = "nullable")]
    pub folder: String,
    #[serde(default, deserialize_with = "nullable")]
    pub cluster: String,
    #[serde(default, deserialize_with = "nullable")]
    pub resource_pool: String,
    #[serde(default, deserialize_with = "nullable")]
    pub network: String,
}

impl VSphereLegacy {
    /// Whether any deprecated topology field is set.
    pub fn has_topology(&self) -> bool {
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
pub struct External {
    #[serde(default, deserialize_with = "nullable")]
    pub platform_name: String,
    #[serde(default, deserialize_with = "nullable")]
    pub cloud_controller_manager: String,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct VCenter {
    #[serde(default, deserialize_with = "nullable")]
    pub server: String,
    #[serde(default, deserialize_with = "nullable")]
    pub port: u16,
    #[serde(default, deserialize_with = "nullable")]
    pub datacenters: Vec<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VSphereFailureDomain {
    #[serde(default, deserialize_with = "nullable")]
    pub name: String,
    #[serde(default, deserialize_with = "nullable")]
    pub region: String,
    #[serde(default, deserialize_with = "nullable")]
    pub zone: String,
    #[serde(default, deserialize_with = "nullable")]
    pub server: String,
    /// `Datacenter` (the default) or `ComputeCluster` (host-group zones).
    #[serde(default, deserialize_with = "nullable")]
    pub region_type: String,
    /// `ComputeCluster` (the default) or `HostGroup`.
    #[serde(default, deserialize_with = "nullable")]
    pub zone_type: String,
    #[serde(default, deserialize_with = "nullable")]
    pub topology: VSphereTopology,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VSphereTopology {
    #[serde(default, deserialize_with = "nullable")]
    pub datacenter: String,
    #[serde(default, deserialize_with = "nullable")]
    pub compute_cluster: String,
    #[serde(default, deserialize_with = "nullable")]
    pub networks: Vec<String>,
    #[serde(default, deserialize_with = "nullable")]
    pub datastore: String,
    #[serde(default, deserialize_with = "nullable")]
    pub resource_pool: String,
    #[serde(default, deserialize_with = "nullable")]
    pub folder: String,
    #[serde(default, deserialize_with = "nullable")]
    pub template: String,
    /// The vCenter host group of a `zoneType: HostGroup` failure domain.
    #[serde(default, deserialize_with = "nullable")]
    pub host_group: String,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Nutanix {
    #[serde(default, deserialize_with = "nullable")]
    pub prism_central: PrismCentral,
    #[serde(default, deserialize_with = "nullable")]
    pub prism_elements: Vec<PrismElement>,
    #[serde(default, deserialize_with = "nullable")]
    pub failure_domains: Vec<NutanixFailureDomain>,
    /// Read from the same object by the parser.
    #[serde(skip)]
    pub vips: Vips,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct PrismCentral {
    #[serde(default, deserialize_with = "nullable")]
    pub endpoint: Endpoint,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct Endpoint {
    #[serde(default, deserialize_with = "nullable")]
    pub address: String,
    #[serde(default, deserialize_with = "nullable")]
    pub port: i32,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct PrismElement {
    #[serde(default, deserialize_with = "nullable")]
    pub name: String,
    #[serde(default, deserialize_with = "nullable")]
    pub uuid: String,
    #[serde(default, deserialize_with = "nullable")]
    pub endpoint: Endpoint,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NutanixFailureDomain {
    #[serde(default, deserialize_with = "nullable")]
    pub name: String,
    #[serde(default, deserialize_with = "nullable")]
    pub prism_element: PrismElement,
    #[serde(default, rename = "subnetUUIDs", deserialize_with = "nullable")]
    pub subnet_uuids: Vec<String>,
}
