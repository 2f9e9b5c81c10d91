//! What a release does differently, as plain data: build.rs compiles it (see
//! `compiled.rs`).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What a release does differently, resolved (every field set).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Behaviour {
    /// Whether CCCMO passes the cluster TLS profile to every CCM (`--tls-cipher-suites`,
    /// `--tls-min-version`; CCCMO 4.22 and later).
    pub ccm_tls_flags: bool,
    /// The cloud config transforms.
    pub cloud_config: CloudConfig,
    /// Gates whose feature sets differ from the newest release's table.
    #[serde(default)]
    pub feature_sets: BTreeMap<String, Vec<crate::features::FeatureSet>>,
    /// The upstream controller-manager gates, when they differ from the newest release's.
    #[serde(default)]
    pub(crate) upstream_feature_gates: Option<Vec<String>>,
}

/// Where CCCMO's transforms differ from release to release (`assets/releases/*.yaml`,
/// `spec.behaviour.cloudConfig`; the newest release states every field, an older one what
/// differs from the next). Which provider uses which transform is the provider's descriptor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CloudConfig {
    /// AWS `NodeIPFamilies`: one line per family (CCCMO 4.22 writes go-ini shadow keys) or one
    /// comma-joined line (4.19-4.21, go-ini's rendering of a Go slice).
    pub aws_node_ip_families: NodeIpFamilies,
    /// AWS: whether the transform sets `NLBSecurityGroupMode = Managed` when feature gate
    /// `AWSServiceLBNetworkSecurityGroup` is on (CCCMO 4.21 added the check).
    pub aws_nlb_security_group_mode: bool,
    /// Azure and Azure Stack Hub: whether the JSON carries `"Entries":null` (the
    /// cloud-provider-azure `provider/config` package CCCMO 4.19 moved to has the field).
    pub azure_entries: bool,
    /// vSphere: `sorted` keys (library-go's model, CCCMO 4.23) or the `struct` order of CCCMO's
    /// own model before.
    pub vsphere_key_order: KeyOrder,
    /// vSphere: whether vCenters that the Infrastructure does not list are dropped (CCCMO 4.23
    /// clears them) or kept as the source has them (before).
    pub vsphere_drop_unlisted_vcenters: bool,
}

/// How AWS `NodeIPFamilies` values are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum NodeIpFamilies {
    /// `NodeIPFamilies = ipv4` then `NodeIPFamilies = ipv6`.
    Repeated,
    /// `NodeIPFamilies = ipv4,ipv6`.
    Joined,
}

/// The order of a YAML cloud config's keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum KeyOrder {
    /// Sorted by name (`sigs.k8s.io/yaml` of a map).
    Sorted,
    /// The order of the Go struct's fields (`gopkg.in/yaml.v2` of a struct).
    Struct,
}

impl Behaviour {
    /// The feature gate tables for [`crate::features::FeatureGates::from_manifest_in`].
    pub fn gates(&self) -> crate::features::ReleaseGates {
        crate::features::ReleaseGates {
            feature_sets: self.feature_sets.clone(),
            upstream: self.upstream_feature_gates.clone(),
        }
    }
}
