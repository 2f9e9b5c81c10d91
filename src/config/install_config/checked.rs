//! A checked install-config: the fields ccm-render reads, with the installer's defaults applied.

use super::feature_gate;
use super::network::Networks;
use super::platform::Platform;
use super::types::Proxy;

/// A checked install-config with the installer's defaults applied.
#[derive(Debug, Clone)]
pub struct InstallConfig {
    /// `metadata.name`.
    pub name: String,
    /// `baseDomain` without a trailing dot.
    pub base_domain: String,
    /// The one platform.
    pub platform: Platform,
    /// `controlPlane.replicas` (default 3).
    pub control_plane_replicas: i64,
    /// `arbiter.replicas` (default 0).
    pub arbiter_replicas: i64,
    /// Sum of `compute[].replicas` (each defaults to 3, or 0 for the `edge` and `arbiter` pools).
    pub compute_replicas: i64,
    /// `networking.machineNetwork[].cidr`, canonical; `None` where the installer picks a random
    /// default (PowerVS).
    pub machine_networks: Option<Vec<String>>,
    /// `networking`: cluster and service networks and the network type.
    pub networks: Networks,
    /// `proxy`.
    pub proxy: Option<Proxy>,
    /// `additionalTrustBundle`.
    pub additional_trust_bundle: String,
    /// `additionalTrustBundlePolicy` (`Proxyonly` by default).
    pub additional_trust_bundle_policy: String,
    /// `publish` (`External` by default).
    pub publish: String,
    /// `cpuPartitioningMode: AllNodes`.
    pub cpu_partitioning_all_nodes: bool,
    /// Whether the `VSphereMultiNetworks` gate is on for this install-config's feature set.
    pub vsphere_multi_networks: bool,
    /// `featureSet` and `featureGates`.
    pub features: feature_gate::Selection,
    /// Whether image mirrors are configured (`imageDigestSources`, `imageContentSources`).
    pub has_image_mirrors: bool,
    /// The document in a canonical text form, the input of the stable infrastructure name.
    pub canonical: String,
    /// What the installer would warn about while converting deprecated fields.
    pub notes: Vec<String>,
}

impl InstallConfig {
    /// `<name>.<baseDomain>` (`types.InstallConfig.ClusterDomain`).
    pub fn cluster_domain(&self) -> String {
        format!("{}.{}", self.name, self.base_domain)
    }
}
