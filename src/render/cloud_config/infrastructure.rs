//! The part of the Infrastructure and Network objects (config.openshift.io/v1) that the cloud
//! config transforms read, as one partial type: unknown fields are ignored and `null` reads as
//! absent, as Go's encoding/json reads them into openshift/api's types. Field names follow
//! openshift/api `config/v1/types_infrastructure.go` and `types_network.go`.

use serde::Deserialize;

/// An Infrastructure object.
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Infrastructure {
    pub spec: Option<Spec>,
    pub status: Option<Status>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Spec {
    pub platform_spec: Option<PlatformSpec>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct PlatformSpec {
    pub vsphere: Option<VSphereSpec>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct VSphereSpec {
    pub vcenters: Option<Vec<VCenterSpec>>,
    pub failure_domains: Option<Vec<FailureDomain>>,
    pub node_networking: Option<NodeNetworking>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct VCenterSpec {
    pub server: Option<String>,
    pub port: Option<i64>,
    pub datacenters: Option<Vec<String>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct FailureDomain {
    pub name: Option<String>,
    pub server: Option<String>,
    pub topology: Option<Topology>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Topology {
    pub datacenter: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct NodeNetworking {
    pub external: Option<NodeNetwork>,
    pub internal: Option<NodeNetwork>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct NodeNetwork {
    pub network: Option<String>,
    // openshift/api spells these `networkSubnetCidr`; Go's encoding/json matches field names
    // case-insensitively, so CCCMO also reads the `…CIDR` spelling (the conformance inputs use it).
    #[serde(rename = "networkSubnetCidr", alias = "networkSubnetCIDR")]
    pub network_subnet_cidr: Option<Vec<String>>,
    #[serde(
        rename = "excludeNetworkSubnetCidr",
        alias = "excludeNetworkSubnetCIDR"
    )]
    pub exclude_network_subnet_cidr: Option<Vec<String>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Status {
    pub platform_status: Option<PlatformStatus>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct PlatformStatus {
    pub vsphere: Option<VSphereStatus>,
    pub azure: Option<AzureStatus>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct VSphereStatus {
    #[serde(rename = "apiServerInternalIPs")]
    pub api_server_internal_ips: Option<Vec<String>>,
    #[serde(rename = "ingressIPs")]
    pub ingress_ips: Option<Vec<String>>,
}

/// A Network object.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Network {
    pub spec: Option<NetworkSpec>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct NetworkSpec {
    pub service_network: Option<Vec<String>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct AzureStatus {
    pub cloud_name: Option<String>,
}
