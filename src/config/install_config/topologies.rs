//! The Infrastructure's `controlPlaneTopology` and `infrastructureTopology`, as the installer
//! of each release derives them from the replicas (`pkg/asset/manifests/topologies.go`
//! `determineTopologies`; the rule of each release in [`TopologyRule`]).

use super::InstallConfig;
use super::installer_release::{InstallerRelease, TopologyRule};

/// `determineTopologies` (`pkg/asset/manifests/topologies.go`) of the release: the control
/// plane's topology by its rule ([`TopologyRule`]), and the infrastructure's from the workers
/// (the compute pools' replicas added up, with their defaults) the same way at every release:
/// 1 worker is SingleReplica, 2 or more HighlyAvailable, none the control plane's topology,
/// except HighlyAvailable for DualReplica and HighlyAvailableArbiter (the control-plane nodes
/// are the workers there).
pub(crate) fn topologies(
    ic: &InstallConfig,
    release: InstallerRelease,
) -> (&'static str, &'static str) {
    let replicas = ic.control_plane_replicas;
    let arbiter = ic.arbiter_replicas != 0;
    let control_plane = match release.topology_rule() {
        TopologyRule::Of4_18 if replicas < 3 => SINGLE,
        TopologyRule::Of4_18 => HIGHLY_AVAILABLE,
        TopologyRule::Of4_19 => match replicas {
            2 if arbiter => ARBITER,
            2 => DUAL,
            ..3 => SINGLE,
            _ => HIGHLY_AVAILABLE,
        },
        TopologyRule::From4_20 => match replicas {
            2.. if arbiter => ARBITER,
            1 => SINGLE,
            2 => DUAL,
            _ => HIGHLY_AVAILABLE,
        },
    };
    let infrastructure = match ic.compute_replicas {
        0 if control_plane == DUAL || control_plane == ARBITER => HIGHLY_AVAILABLE,
        0 => control_plane,
        1 => SINGLE,
        _ => HIGHLY_AVAILABLE,
    };
    (control_plane, infrastructure)
}

/// openshift/api's `TopologyMode` values.
const SINGLE: &str = "SingleReplica";
const DUAL: &str = "DualReplica";
const ARBITER: &str = "HighlyAvailableArbiter";
const HIGHLY_AVAILABLE: &str = "HighlyAvailable";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::install_config::parse;
    use serde_json::json;

    /// The topologies of an install-config of platform None with these replicas at `release`.
    fn at(
        release: &str,
        control_plane: i64,
        workers: i64,
        arbiter: Option<i64>,
    ) -> (&'static str, &'static str) {
        let mut doc = json!({
            "apiVersion": "v1",
            "metadata": {"name": "mycluster"},
            "baseDomain": "example.com",
            "controlPlane": {"replicas": control_plane},
            "compute": [{"name": "worker", "replicas": workers}],
            "platform": {"none": {}},
        });
        if let Some(n) = arbiter {
            doc["arbiter"] = json!({"replicas": n});
        }
        let ic = parse(&doc).expect("valid");
        topologies(&ic, InstallerRelease::of(release).expect("release"))
    }

    #[test]
    fn one_worker_is_a_single_replica_infrastructure_at_every_release() {
        for release in ["4.18", "4.19", "4.20", "4.23"] {
            assert_eq!(
                at(release, 3, 1, None),
                (HIGHLY_AVAILABLE, SINGLE),
                "{release}"
            );
            assert_eq!(at(release, 1, 1, None), (SINGLE, SINGLE), "{release}");
            assert_eq!(at(release, 1, 0, None), (SINGLE, SINGLE), "{release}");
            assert_eq!(
                at(release, 1, 2, None),
                (SINGLE, HIGHLY_AVAILABLE),
                "{release}"
            );
        }
    }

    #[test]
    fn two_control_plane_replicas_are_single_at_4_18_and_dual_after() {
        assert_eq!(at("4.18", 2, 0, None), (SINGLE, SINGLE));
        assert_eq!(at("4.18", 2, 3, None), (SINGLE, HIGHLY_AVAILABLE));
        for release in ["4.19", "4.20", "4.22"] {
            assert_eq!(
                at(release, 2, 0, None),
                (DUAL, HIGHLY_AVAILABLE),
                "{release}"
            );
            assert_eq!(
                at(release, 2, 0, Some(1)),
                (ARBITER, HIGHLY_AVAILABLE),
                "{release}"
            );
        }
    }

    #[test]
    fn the_arbiter_counts_with_three_control_plane_replicas_from_4_20() {
        assert_eq!(
            at("4.19", 3, 0, Some(2)),
            (HIGHLY_AVAILABLE, HIGHLY_AVAILABLE)
        );
        for release in ["4.20", "4.21", "4.23"] {
            assert_eq!(
                at(release, 3, 0, Some(2)),
                (ARBITER, HIGHLY_AVAILABLE),
                "{release}"
            );
        }
    }
}
