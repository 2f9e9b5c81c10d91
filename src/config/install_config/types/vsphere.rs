//! `platform.vsphere` (`pkg/types/vsphere`): vCenters, failure domains and their topology, and
//! the deprecated single-vCenter fields.

use super::nullable::nullable;
use super::on_premise::Vips;
use serde::Deserialize;
use serde_json::Value;

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
