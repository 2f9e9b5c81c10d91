//! vSphere's member of the Infrastructure's spec as the installer writes it
//! (`pkg/asset/manifests/vsphere/infrastructure.go` `GetInfraPlatformSpec`): the vCenters, the
//! failure domains with their default template and host-group affinity, the machine networks
//! with the VIP networks, and `nodeNetworking`. The status around it is `super::infrastructure`'s.

use super::installer_release::InstallerRelease;
use super::types::{VSphere, VSphereFailureDomain};
use super::vsphere::HOST_GROUP;
use serde_json::{Map, Value, json};

/// The spec's `machineNetworks`: `networking.machineNetwork`, then from 4.19 each API VIP and
/// each Ingress VIP as a `/32` or `/128` network (`vipsToCIDRs`, `vip + mask` as written), only
/// when not already there (`slices.Contains`).
pub(super) fn machine_networks(
    p: &VSphere,
    machine_networks: &[String],
    release: InstallerRelease,
) -> Vec<String> {
    let mut networks: Vec<String> = machine_networks.to_vec();
    if !release.vsphere_vip_networks() {
        return networks;
    }
    for vip in p.vips.api_vips.iter().chain(&p.vips.ingress_vips) {
        let mask = if vip.contains(':') { "/128" } else { "/32" };
        let cidr = format!("{vip}{mask}");
        if !networks.contains(&cidr) {
            networks.push(cidr);
        }
    }
    networks
}

/// `vsphere.GetInfraPlatformSpec` (installer `pkg/asset/manifests/vsphere/infrastructure.go`
/// @006d4573). `node_networking`: the machine networks, when `VSphereMultiNetworks` is on.
pub(super) fn spec(
    p: &VSphere,
    infra_id: &str,
    networks: &[String],
    node_networking: Option<&Vec<String>>,
    release: InstallerRelease,
) -> Value {
    let vcenters: Vec<Value> = p
        .vcenters
        .iter()
        .map(|vc| {
            let mut entry = json!({"server": vc.server, "datacenters": vc.datacenters});
            // openshift/api `VSpherePlatformVCenterSpec.Port` is `omitempty`.
            if vc.port != 0 {
                entry["port"] = json!(vc.port);
            }
            entry
        })
        .collect();
    let failure_domains: Vec<Value> = p
        .failure_domains
        .iter()
        // Only failure domains with a compute cluster and a network become spec entries.
        .filter(|fd| {
            !fd.topology.compute_cluster.is_empty()
                && fd.topology.networks.first().is_some_and(|n| !n.is_empty())
        })
        .map(|fd| failure_domain(fd, infra_id, release))
        .collect();
    // `apiServerInternalIPs` and `ingressIPs` are not omitempty (`types.StringsToIPs` gives `[]`
    // for none), nor in effect is the `nodeNetworking` struct: without VSphereMultiNetworks
    // its zero value is written, `{external: {}, internal: {}}`.
    let mut spec = json!({
        "vcenters": vcenters,
        "machineNetworks": networks,
        "apiServerInternalIPs": p.vips.api_vips,
        "ingressIPs": p.vips.ingress_vips,
        "nodeNetworking": {"external": {}, "internal": {}},
    });
    if !failure_domains.is_empty() {
        spec["failureDomains"] = json!(failure_domains);
    }
    if let Some(machine_networks) = node_networking {
        spec["nodeNetworking"] = match &p.node_networking {
            Some(given) => given.clone(),
            None => json!({
                "external": {"networkSubnetCidr": machine_networks},
                "internal": {"networkSubnetCidr": machine_networks},
            }),
        };
    }
    spec
}

/// One failure domain of `GetInfraPlatformSpec`. The template defaults to
/// `/<datacenter>/vm/<infraID>-rhcos-<name>` (`utils.GenerateVSphereTemplateName`,
/// `pkg/utils/vmware.go` @47812b1e), at 4.18 to `/<datacenter>/vm/<infraID>-rhcos-<region>-<zone>`
/// ([`InstallerRelease::vsphere_template_by_region_and_zone`]). A `zoneType: HostGroup` failure domain (its gate
/// `VSphereHostVMGroupZonal` on, which the release check makes sure of) gets
/// `regionAffinity.type` from `regionType` and `zoneAffinity` `HostGroup` with the install-config's
/// host group and the VM group and VM-host rule the installer creates, both named
/// `<infraID>-<name>`.
fn failure_domain(fd: &VSphereFailureDomain, infra_id: &str, release: InstallerRelease) -> Value {
    let t = &fd.topology;
    let template = if !t.template.is_empty() {
        t.template.clone()
    } else if release.vsphere_template_by_region_and_zone() {
        format!(
            "/{}/vm/{infra_id}-rhcos-{}-{}",
            t.datacenter, fd.region, fd.zone
        )
    } else {
        format!("/{}/vm/{infra_id}-rhcos-{}", t.datacenter, fd.name)
    };
    let mut topology = Map::new();
    for (k, v) in [
        ("datacenter", &t.datacenter),
        ("computeCluster", &t.compute_cluster),
        ("datastore", &t.datastore),
        ("resourcePool", &t.resource_pool),
        ("folder", &t.folder),
        ("template", &template),
    ] {
        // VSpherePlatformTopology: resourcePool, folder and template are omitempty.
        if !v.is_empty() || matches!(k, "datacenter" | "computeCluster" | "datastore") {
            topology.insert(k.into(), json!(v));
        }
    }
    topology.insert("networks".into(), json!(t.networks));
    let mut spec = json!({
        "name": fd.name,
        "region": fd.region,
        "zone": fd.zone,
        "server": fd.server,
        "topology": topology,
    });
    if fd.zone_type == HOST_GROUP {
        let vm_group = format!("{infra_id}-{}", fd.name);
        spec["regionAffinity"] = json!({"type": fd.region_type});
        spec["zoneAffinity"] = json!({
            "type": fd.zone_type,
            "hostGroup": {"hostGroup": t.host_group, "vmGroup": vm_group, "vmHostRule": vm_group},
        });
    }
    spec
}
