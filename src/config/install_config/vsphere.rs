//! `platform.vsphere`: the deprecated single-vCenter form converted to `vcenters` and
//! `failureDomains`, object paths made absolute, defaults applied and the fields ccm-render
//! reads checked, in the installer's order (conversion, then defaults, then validation).
//!
//! Sources (`openshift/installer`): `pkg/types/vsphere/conversion/installconfig.go`
//! @de45feddbf0f (ConvertInstallConfig: fixNoVCentersScenario, createVCenters,
//! fixTechPreviewZonalFailureDomainsScenario, fixLegacyPlatformScenario, SetObjectPath),
//! `pkg/types/conversion/installconfig.go` @93690116 (convertVSphere: the single VIPs) and
//! `pkg/types/vsphere/defaults/platform.go` (the resource pool default, as
//! `platform_test.go` @006d4573 expects it).

use super::types::{VCenter, VSphere, VSphereFailureDomain, VSphereLegacy};
use anyhow::{Result, bail};
use serde_json::Value;

/// The placeholders the installer gives the failure domain it makes from the deprecated
/// topology fields (`GeneratedFailureDomain{Name,Region,Zone}`).
pub(crate) const GENERATED_NAME: &str = "generated-failure-domain";
pub(crate) const GENERATED_REGION: &str = "generated-region";
pub(crate) const GENERATED_ZONE: &str = "generated-zone";

/// Reads, converts, defaults and checks `platform.vsphere`; `notes` gets the installer's
/// deprecation warnings.
pub(crate) fn parse(value: &Value, at: &str, notes: &mut Vec<String>) -> Result<VSphere> {
    let mut p: VSphere = super::decode::typed(value, at)?;
    // The deprecated fields and the VIPs are read from the same object (`types`: no flatten).
    p.legacy = super::decode::typed(value, at)?;
    p.vips = super::decode::typed(value, at)?;
    convert(&mut p, at, notes);
    set_defaults(&mut p);
    check(&mut p, at)?;
    Ok(p)
}

/// `ConvertInstallConfig` without a vCenter connection. The installer connects only to
/// resolve a relative object path against the vCenter's inventory; with no connection (no
/// credentials or no network, as for the agent and assisted installers) it joins the path
/// under the datacenter, which is what ccm-render does, offline by design.
fn convert(p: &mut VSphere, at: &str, notes: &mut Vec<String>) {
    let legacy = p.legacy.clone();
    fix_no_vcenters(p, &legacy, at, notes);
    fix_zonal_failure_domains(p, at, notes);
    fix_legacy_platform(p, &legacy, at, notes);
}

/// fixNoVCentersScenario: the legacy `vCenter` and `datacenter` become the one vCenter.
fn fix_no_vcenters(p: &mut VSphere, legacy: &VSphereLegacy, at: &str, notes: &mut Vec<String>) {
    if p.vcenters.is_empty() && !legacy.vcenter.is_empty() {
        notes.push(format!(
            "{at}: vsphere authentication fields are now deprecated; please use vcenters (converted as the installer does)"
        ));
        let mut datacenters = Vec::new();
        if !legacy.datacenter.is_empty() {
            datacenters.push(legacy.datacenter.clone());
        }
        // Zonal installs without vcenters: the failure domains' datacenters are added.
        for fd in &p.failure_domains {
            let dc = &fd.topology.datacenter;
            if !dc.is_empty() && !datacenters.contains(dc) {
                datacenters.push(dc.clone());
            }
        }
        p.vcenters = vec![VCenter {
            server: legacy.vcenter.clone(),
            port: 443,
            datacenters,
        }];
        for fd in &mut p.failure_domains {
            if fd.topology.datacenter.is_empty() {
                fd.topology.datacenter.clone_from(&legacy.datacenter);
            }
            if fd.server.is_empty() {
                fd.server.clone_from(&legacy.vcenter);
            }
        }
    } else if !p.vcenters.is_empty() && !legacy.vcenter.is_empty() {
        notes.push(format!(
            "{at}.vCenter: deprecated and ignored, since {at}.vcenters is given (the installer warns the same)"
        ));
    }
}

/// fixTechPreviewZonalFailureDomainsScenario: relative paths in the given failure domains
/// (only those on a known vCenter; the installer skips the rest).
fn fix_zonal_failure_domains(p: &mut VSphere, at: &str, notes: &mut Vec<String>) {
    let servers: Vec<String> = p.vcenters.iter().map(|v| v.server.clone()).collect();
    for (i, fd) in p.failure_domains.iter_mut().enumerate() {
        if !servers.contains(&fd.server) {
            continue;
        }
        let here = format!("{at}.failureDomains[{i}].topology");
        let t = &mut fd.topology;
        t.compute_cluster = object_path(
            "host",
            &t.compute_cluster,
            &t.datacenter,
            &here,
            "computeCluster",
            notes,
        );
        t.datastore = object_path(
            "datastore",
            &t.datastore,
            &t.datacenter,
            &here,
            "datastore",
            notes,
        );
        t.folder = object_path("vm", &t.folder, &t.datacenter, &here, "folder", notes);
    }
}

/// fixLegacyPlatformScenario: one generated failure domain from the topology fields. (The
/// installer generates it even from no fields at all, and then fails validation on its empty
/// datacenter; with neither form given, the error here names failureDomains instead.)
fn fix_legacy_platform(p: &mut VSphere, legacy: &VSphereLegacy, at: &str, notes: &mut Vec<String>) {
    let legacy_form = legacy.has_topology() || !legacy.vcenter.is_empty();
    if p.failure_domains.is_empty() && legacy_form {
        if let Some(server) = p.vcenters.first().map(|v| v.server.clone()) {
            if legacy.has_topology() {
                notes.push(format!(
                    "{at}: vsphere topology fields are now deprecated; please use failureDomains (converted to the failure domain {GENERATED_NAME:?}, as the installer does)"
                ));
            }
            let dc = &legacy.datacenter;
            let mut fd = VSphereFailureDomain {
                name: GENERATED_NAME.into(),
                region: GENERATED_REGION.into(),
                zone: GENERATED_ZONE.into(),
                server,
                ..VSphereFailureDomain::default()
            };
            fd.topology.datacenter.clone_from(dc);
            fd.topology.resource_pool.clone_from(&legacy.resource_pool);
            fd.topology.networks = vec![legacy.network.clone()];
            fd.topology.compute_cluster =
                object_path("host", &legacy.cluster, dc, at, "cluster", notes);
            fd.topology.datastore = object_path(
                "datastore",
                &legacy.default_datastore,
                dc,
                at,
                "defaultDatastore",
                notes,
            );
            fd.topology.folder = object_path("vm", &legacy.folder, dc, at, "folder", notes);
            p.failure_domains.push(fd);
        }
    } else if legacy.has_topology() {
        notes.push(format!(
            "{at}: vsphere topology fields are now deprecated and ignored, since {at}.failureDomains is given (the installer warns the same)"
        ));
    }
}

/// `SetObjectPath` with no vCenter connection: a relative path becomes
/// `/<datacenter>/<kind>/<path>`; an empty or absolute one is kept.
fn object_path(
    kind: &str,
    path: &str,
    datacenter: &str,
    at: &str,
    field: &str,
    notes: &mut Vec<String>,
) -> String {
    if path.is_empty() || path.starts_with('/') {
        return path.to_string();
    }
    let joined = format!("/{datacenter}/{kind}/{path}")
        .split('/')
        .filter(|s| !s.is_empty())
        .fold(String::new(), |acc, s| format!("{acc}/{s}"));
    notes.push(format!(
        "{at}.{field}: {path:?} as a non-path is now deprecated; please use the joined form: {joined:?}"
    ));
    joined
}

/// `SetPlatformDefaults`: a failure domain with a compute cluster and no resource pool gets
/// the cluster's root pool, `<computeCluster>/Resources` (`path.Join`).
fn set_defaults(p: &mut VSphere) {
    for fd in &mut p.failure_domains {
        let t = &mut fd.topology;
        if t.resource_pool.is_empty() && !t.compute_cluster.is_empty() {
            t.resource_pool = format!("{}/Resources", t.compute_cluster.trim_end_matches('/'));
        }
    }
}

/// The checks of the fields ccm-render reads (`pkg/types/vsphere/validation`), on the
/// converted platform.
fn check(p: &mut VSphere, at: &str) -> Result<()> {
    if p.vcenters.is_empty() {
        bail!("{at}.vcenters: required (at least one vCenter, or the deprecated {at}.vCenter)");
    }
    if p.failure_domains.is_empty() {
        bail!(
            "{at}.failureDomains: required (at least one failure domain, or the deprecated topology fields)"
        );
    }
    // A vCenter's port stays as given: the installer defaults it (443) only in the deprecated
    // form's conversion (`pkg/types/vsphere/conversion/installconfig.go`); `pkg/types/vsphere/
    // defaults` sets none, and the `+kubebuilder:default=443` on `VCenter.Port` is the
    // schema's, which the installer's own decoding does not apply. Each writer defaults it as
    // the installer's does (the 4.18 to 4.22 YAML cloud config to 443; the INI form, the 4.23
    // YAML and the Infrastructure leave it out).
    for (i, vc) in p.vcenters.iter().enumerate() {
        if vc.server.is_empty() {
            bail!("{at}.vcenters[{i}].server: required");
        }
    }
    let generated = p.failure_domains.len() == 1 && p.failure_domains[0].name == GENERATED_NAME;
    for (i, fd) in p.failure_domains.iter().enumerate() {
        check_zone_types(fd, &format!("{at}.failureDomains[{i}]"))?;
        if fd.topology.datacenter.is_empty() {
            if generated {
                bail!("{at}.datacenter: must specify the datacenter");
            }
            bail!("{at}.failureDomains[{i}].topology.datacenter: required");
        }
        if generated && fd.topology.datastore.is_empty() {
            bail!("{at}.defaultDatastore: must specify the default datastore");
        }
    }
    super::vips::vips(&mut p.vips, at, false)
}

/// `zoneType: HostGroup`: a zone made of a vCenter host group inside one compute cluster, the
/// region being the compute cluster (`regionType: ComputeCluster`); gated by
/// `VSphereHostVMGroupZonal` (`release_fields`, `installer_release::FIELDS`).
pub(crate) const HOST_GROUP: &str = "HostGroup";

/// The region and zone types as installer `pkg/types/vsphere/validation/platform.go`
/// (`validateFailureDomains`) checks them, in its order: both or neither, no `HostGroup`
/// region, a host group for a `HostGroup` zone, and a `ComputeCluster` region only with a
/// `HostGroup` zone. Other values pass, as there (the installer checks no list of types).
fn check_zone_types(fd: &VSphereFailureDomain, here: &str) -> Result<()> {
    let (region, zone) = (fd.region_type.as_str(), fd.zone_type.as_str());
    if region.is_empty() && !zone.is_empty() {
        bail!("{here}.regionType: must specify regionType if zoneType is defined");
    }
    if !region.is_empty() && zone.is_empty() {
        bail!("{here}.zoneType: must specify zoneType if regionType is defined");
    }
    if region == HOST_GROUP {
        bail!(
            "{here}.regionType: \"HostGroup\": region type cannot be used for host group failure domains"
        );
    }
    if zone == HOST_GROUP && fd.topology.host_group.is_empty() {
        bail!("{here}.topology.hostGroup: must not be empty if zoneType is HostGroup");
    }
    if region == "ComputeCluster" && zone != HOST_GROUP {
        bail!(
            "{here}.zoneType: {zone:?}: zoneType must be HostGroup when regionType is ComputeCluster"
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn converted(v: &Value) -> (VSphere, Vec<String>) {
        let mut notes = Vec::new();
        let p = parse(v, "platform.vsphere", &mut notes).expect("valid");
        (p, notes)
    }

    #[test]
    fn the_legacy_form_becomes_one_vcenter_and_one_generated_failure_domain() {
        let (p, notes) = converted(&json!({
            "vCenter": "vc.example.com", "username": "u", "password": "p",
            "datacenter": "DC1", "defaultDatastore": "DS1", "cluster": "C1",
            "network": "VM Network", "folder": "/DC1/vm/f",
        }));
        assert_eq!(p.vcenters.len(), 1);
        assert_eq!(p.vcenters[0].server, "vc.example.com");
        assert_eq!(p.vcenters[0].port, 443);
        assert_eq!(p.vcenters[0].datacenters, ["DC1"]);
        let fd = &p.failure_domains[0];
        assert_eq!(
            (
                fd.name.as_str(),
                fd.region.as_str(),
                fd.zone.as_str(),
                fd.server.as_str()
            ),
            (
                "generated-failure-domain",
                "generated-region",
                "generated-zone",
                "vc.example.com"
            )
        );
        let t = &fd.topology;
        assert_eq!(t.compute_cluster, "/DC1/host/C1");
        assert_eq!(t.datastore, "/DC1/datastore/DS1");
        assert_eq!(t.folder, "/DC1/vm/f");
        assert_eq!(t.resource_pool, "/DC1/host/C1/Resources");
        assert_eq!(t.networks, ["VM Network"]);
        assert!(notes.iter().any(|n| n.contains("authentication fields")));
        assert!(notes.iter().any(|n| n.contains("topology fields")));
        assert!(
            notes
                .iter()
                .any(|n| n.contains("\"C1\" as a non-path is now deprecated"))
        );
    }

    #[test]
    fn zonal_failure_domains_without_vcenters_take_the_legacy_vcenter() {
        let (p, _) = converted(&json!({
            "vCenter": "vc", "datacenter": "DC1",
            "failureDomains": [
                {"name": "a", "region": "r", "zone": "a", "topology": {"computeCluster": "C1", "datastore": "/DC1/datastore/DS1", "networks": ["n"]}},
                {"name": "b", "region": "r", "zone": "b", "topology": {"datacenter": "DC2", "computeCluster": "/DC2/host/C2", "datastore": "DS2", "networks": ["n"], "resourcePool": "/DC2/host/C2/Resources/rp"}},
            ],
        }));
        assert_eq!(p.vcenters[0].datacenters, ["DC1", "DC2"]);
        assert_eq!(p.failure_domains[0].server, "vc");
        assert_eq!(p.failure_domains[0].topology.datacenter, "DC1");
        assert_eq!(
            p.failure_domains[0].topology.compute_cluster,
            "/DC1/host/C1"
        );
        assert_eq!(
            p.failure_domains[1].topology.datastore,
            "/DC2/datastore/DS2"
        );
        assert_eq!(
            p.failure_domains[1].topology.resource_pool,
            "/DC2/host/C2/Resources/rp"
        );
    }

    #[test]
    fn the_legacy_form_needs_a_datacenter_and_a_datastore() {
        let mut notes = Vec::new();
        let e = format!(
            "{:#}",
            parse(
                &json!({"vCenter": "vc", "defaultDatastore": "DS1"}),
                "platform.vsphere",
                &mut notes,
            )
            .expect_err("no datacenter")
        );
        assert_eq!(
            e,
            "platform.vsphere.datacenter: must specify the datacenter"
        );
        let e = format!(
            "{:#}",
            parse(
                &json!({"vCenter": "vc", "datacenter": "DC1"}),
                "platform.vsphere",
                &mut notes,
            )
            .expect_err("no datastore")
        );
        assert_eq!(
            e,
            "platform.vsphere.defaultDatastore: must specify the default datastore"
        );
        let e = format!(
            "{:#}",
            parse(&json!({}), "platform.vsphere", &mut notes).expect_err("nothing")
        );
        assert!(e.starts_with("platform.vsphere.vcenters: required"), "{e}");
        let e = format!(
            "{:#}",
            parse(
                &json!({"vcenters": [{"server": "vc", "datacenters": ["DC1"]}]}),
                "platform.vsphere",
                &mut notes,
            )
            .expect_err("no failure domain")
        );
        assert!(
            e.starts_with("platform.vsphere.failureDomains: required"),
            "{e}"
        );
    }

    #[test]
    fn host_group_zone_types_follow_the_installers_rules() {
        let fd = |region: &str, zone: &str, host_group: &str| {
            let mut fd = VSphereFailureDomain {
                region_type: region.into(),
                zone_type: zone.into(),
                ..VSphereFailureDomain::default()
            };
            fd.topology.host_group = host_group.into();
            check_zone_types(&fd, "fd").map_err(|e| format!("{e:#}"))
        };
        assert_eq!(fd("", "", ""), Ok(()));
        assert_eq!(fd("Datacenter", "ComputeCluster", ""), Ok(()));
        assert_eq!(fd("ComputeCluster", "HostGroup", "hg"), Ok(()));
        // A host group without a HostGroup zone passes here; its gate is checked later.
        assert_eq!(fd("", "", "hg"), Ok(()));
        for (region, zone, host_group, want) in [
            ("", "HostGroup", "hg", "fd.regionType: must specify"),
            ("ComputeCluster", "", "hg", "fd.zoneType: must specify"),
            (
                "HostGroup",
                "HostGroup",
                "hg",
                "fd.regionType: \"HostGroup\"",
            ),
            (
                "ComputeCluster",
                "HostGroup",
                "",
                "fd.topology.hostGroup: must not be empty",
            ),
            (
                "ComputeCluster",
                "ComputeCluster",
                "",
                "fd.zoneType: \"ComputeCluster\"",
            ),
        ] {
            let err = fd(region, zone, host_group).expect_err(want);
            assert!(err.starts_with(want), "{err}");
        }
    }

    #[test]
    fn given_vcenters_win_over_the_legacy_fields() {
        let (p, notes) = converted(&json!({
            "vCenter": "old", "datacenter": "DCX",
            "vcenters": [{"server": "new", "datacenters": ["DC1"]}],
            "failureDomains": [{"name": "a", "server": "new", "topology": {"datacenter": "DC1", "computeCluster": "/DC1/host/C1", "datastore": "/DC1/datastore/DS1", "networks": ["n"]}}],
        }));
        assert_eq!(p.vcenters[0].server, "new");
        assert_eq!(p.failure_domains.len(), 1);
        assert!(
            notes
                .iter()
                .any(|n| n.contains("vCenter: deprecated and ignored"))
        );
        assert!(
            notes
                .iter()
                .any(|n| n.contains("topology fields are now deprecated and ignored"))
        );
    }
}
