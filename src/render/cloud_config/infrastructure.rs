//! The part of the Infrastructure and Network objects (config.openshift.io/v1) that the cloud
//! config transforms read, as one partial type: unknown fields are ignored and `null` reads as
//! absent, as Go's encoding/json reads them into openshift/api's types. Field names follow
//! openshift/api `config/v1/types_infrastructure.go` and `types_network.go`.

use serde::Deserialize;

/// An Infrastructure object.
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct Infrastructure {
    pub(crate) spec: Option<Spec>,
    pub(crate) status: Option<Status>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct Spec {
    pub(crate) platform_spec: Option<PlatformSpec>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct PlatformSpec {
    pub(crate) vsphere: Option<VSphereSpec>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct VSphereSpec {
    pub(crate) vcenters: Option<Vec<VCenterSpec>>,
    pub(crate) failure_domains: Option<Vec<FailureDomain>>,
    pub(crate) node_networking: Option<NodeNetworking>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct VCenterSpec {
    pub(crate) server: Option<String>,
    pub(crate) port: Option<i64>,
    pub(crate) datacenters: Option<Vec<String>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct FailureDomain {
    pub(crate) name: Option<String>,
    pub(crate) server: Option<String>,
    pub(crate) topology: Option<Topology>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct Topology {
    pub(crate) datacenter: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct NodeNetworking {
    pub(crate) external: Option<NodeNetwork>,
    pub(crate) internal: Option<NodeNetwork>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct NodeNetwork {
    pub(crate) network: Option<String>,
    // openshift/api spells these `networkSubnetCidr`; Go's encoding/json matches field names
    // case-insensitively, so CCCMO also reads the `…CIDR` spelling (the conformance inputs use it).
    #[serde(rename = "networkSubnetCidr", alias = "networkSubnetCIDR")]
    pub(crate) network_subnet_cidr: Option<Vec<String>>,
    #[serde(
        rename = "excludeNetworkSubnetCidr",
        alias = "excludeNetworkSubnetCIDR"
    )]
    pub(crate) exclude_network_subnet_cidr: Option<Vec<String>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct Status {
    pub(crate) platform_status: Option<PlatformStatus>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct PlatformStatus {
    pub(crate) vsphere: Option<VSphereStatus>,
    pub(crate) azure: Option<AzureStatus>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct VSphereStatus {
    #[serde(rename = "apiServerInternalIPs")]
    pub(crate) api_server_internal_ips: Option<Vec<String>>,
    #[serde(rename = "ingressIPs")]
    pub(crate) ingress_ips: Option<Vec<String>>,
}

/// A Network object.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct Network {
    pub(crate) spec: Option<NetworkSpec>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct NetworkSpec {
    pub(crate) service_network: Option<Vec<String>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct AzureStatus {
    pub(crate) cloud_name: Option<String>,
}
