//! A checked install-config: the fields ccm-render reads, with the installer's defaults applied.

use super::feature_gate;
use super::network::Networks;
use super::platform::Platform;
use super::types::Proxy;

/// A checked install-config with the installer's defaults applied.
#[derive(Debug, Clone)]
pub(crate) struct InstallConfig {
    /// `metadata.name`.
    pub(crate) name: String,
    /// `baseDomain` without a trailing dot.
    pub(crate) base_domain: String,
    /// The one platform.
    pub(crate) platform: Platform,
    /// `controlPlane.replicas` (default 3).
    pub(crate) control_plane_replicas: i64,
    /// `arbiter.replicas` (default 0).
    pub(crate) arbiter_replicas: i64,
    /// Whether the install-config has an `arbiter` section (a field from 4.19 on).
    pub(crate) arbiter_section: bool,
    /// Sum of `compute[].replicas` (each defaults to 3, or 0 for the `edge` and `arbiter` pools).
    pub(crate) compute_replicas: i64,
    /// `networking.machineNetwork[].cidr`, canonical; `None` where the installer picks a random
    /// default (PowerVS).
    pub(crate) machine_networks: Option<Vec<String>>,
    /// `networking`: cluster and service networks and the network type.
    pub(crate) networks: Networks,
    /// `proxy`.
    pub(crate) proxy: Option<Proxy>,
    /// `additionalTrustBundle`.
    pub(crate) additional_trust_bundle: String,
    /// `additionalTrustBundlePolicy` (`Proxyonly` by default).
    pub(crate) additional_trust_bundle_policy: String,
    /// `publish` (`External` by default).
    pub(crate) publish: String,
    /// `cpuPartitioningMode: AllNodes`.
    pub(crate) cpu_partitioning_all_nodes: bool,
    /// `featureSet` and `featureGates`.
    pub(crate) features: feature_gate::Selection,
    /// Whether image mirrors are configured (`imageDigestSources`, `imageContentSources`).
    pub(crate) has_image_mirrors: bool,
    /// The document in a canonical text form, the input of the stable infrastructure name.
    pub(crate) canonical: String,
    /// What the installer would warn about while converting deprecated fields.
    pub(crate) notes: Vec<String>,
}

impl InstallConfig {
    /// `<name>.<baseDomain>` (`types.InstallConfig.ClusterDomain`).
    pub(crate) fn cluster_domain(&self) -> String {
        format!("{}.{}", self.name, self.base_domain)
    }
}
