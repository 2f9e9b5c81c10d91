//! The install-config document without its `platform` (`openshift/installer` `pkg/types`
//! `InstallConfig`): metadata, machine pools, networking and the proxy.

use super::nullable::nullable;
use serde::Deserialize;
use serde_json::{Map, Value};

/// The document, without `platform` (read per platform, see `super::super::Platform`).
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
