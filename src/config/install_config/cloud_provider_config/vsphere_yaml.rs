//! vSphere's cloud config in the YAML forms the installer writes, release by release
//! (`vsphere.CloudProviderConfigYaml`, `pkg/asset/manifests/vsphere/cloudproviderconfig.go`):
//!
//! * [`Form::CloudProviderVsphere`], 4.18 (with the `VSphereMultiVCenters` gate, which
//!   openshift/api 4.18 enables in Default, TechPreviewNoUpgrade and DevPreviewNoUpgrade) to
//!   4.22: gopkg.in/yaml.v2 of k8s.io/cloud-provider-vsphere's `CommonConfigYAML`
//!   (`pkg/common/config/types_yaml.go`), whose fields carry no `omitempty`, so every one is
//!   written, zero values included, in the structs' field order; untagged fields take their
//!   lower-cased Go name (`tenantref`, `secretref`); the vCenter port defaults to 443. The
//!   generator is the same blob (21a793ee65) on the installer's `release-4.18` to `release-4.21`
//!   and on master until installer PR #10529 (merged 2026-05-06), after the 4.22 branch (the
//!   4.22 port of #10529 and #10614 is installer PR #10740, a z-stream backport; ccm-render
//!   renders each release as branched). 4.18 without the gate writes the INI form
//!   (`CloudProviderConfigIni`, in `super`).
//! * [`Form::LibraryGo`], 4.23: `sigs.k8s.io/yaml` of openshift/library-go's
//!   `pkg/cloudprovider/vsphere` `CPIConfig` (installer PRs #10529 and #10614, merged
//!   2026-05-06 and 2026-06-12; library-go's `release-4.23` has the package, its `release-4.22`
//!   not as branched): keys sorted, zero values left out (`omitempty`, `omitzero` on `nodes`),
//!   `insecureFlag` in `global` only, a vCenter's `port` only when the install-config gives one,
//!   `labels` only with more than one failure domain, and `nodes` from
//!   `platform.vsphere.nodeNetworking` or else the machine networks (installer
//!   `setNodes`, lists joined with `,`).

use super::super::VSphere;
use super::super::feature_gate::Selection;
use super::super::installer_release::InstallerRelease;
use super::yaml_v2;
use anyhow::{Context as _, Result};
use ccm_catalogue::releases::data::Version;
use serde::Deserialize;
use serde_json::{Map, Value, json};

/// What the installer of a release writes for vSphere.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Form {
    /// `CloudProviderConfigIni` (4.18 without `VSphereMultiVCenters`).
    Ini,
    /// yaml.v2 of cloud-provider-vsphere's `CommonConfigYAML` (4.18 with the gate, to 4.22).
    CloudProviderVsphere,
    /// `sigs.k8s.io/yaml` of library-go's `CPIConfig` (4.23).
    LibraryGo,
}

/// The last release whose installer writes [`Form::CloudProviderVsphere`] (as branched).
const LAST_COMMON_CONFIG_YAML: Version = Version::new(4, 22);

/// The form the installer of `release` writes for this install-config.
pub(crate) fn form(release: InstallerRelease, features: &Selection) -> Form {
    match release.version() {
        r if r == Version::new(4, 18) => {
            if features.is_enabled(
                "VSphereMultiVCenters",
                &["", "TechPreviewNoUpgrade", "DevPreviewNoUpgrade"],
            ) {
                Form::CloudProviderVsphere
            } else {
                Form::Ini
            }
        }
        r if r <= LAST_COMMON_CONFIG_YAML => Form::CloudProviderVsphere,
        _ => Form::LibraryGo,
    }
}

/// The YAML text of `form` (not [`Form::Ini`]); `machine_networks` are the install-config's
/// (defaults applied), which [`Form::LibraryGo`] writes as the nodes' networks when
/// `nodeNetworking` is not given.
pub(crate) fn config(p: &VSphere, form: Form, machine_networks: &[String]) -> Result<String> {
    let value = match form {
        Form::LibraryGo => library_go(p, machine_networks)?,
        Form::CloudProviderVsphere | Form::Ini => common_config_yaml(p),
    };
    yaml_v2::marshal(&value).context("platform.vsphere.vcenters")
}

/// The vCenters by server, as a Go map assignment keeps them (the last of one server wins),
/// in yaml.v2's key order.
fn by_server(p: &VSphere) -> Vec<&super::super::types::VCenter> {
    let mut out: Vec<&super::super::types::VCenter> = Vec::new();
    for vc in &p.vcenters {
        out.retain(|seen| seen.server != vc.server);
        out.push(vc);
    }
    out.sort_by(|a, b| yaml_v2::key_order(&a.server, &b.server));
    out
}

/// `CommonConfigYAML`: `global` (`GlobalYAML`), `vcenter` (`VirtualCenterConfigYAML` by
/// server), `labels` (`LabelsYAML`), every field in the structs' order.
fn common_config_yaml(p: &VSphere) -> Map<String, Value> {
    let global = json!({
        "user": "", "password": "", "server": "", "port": 0, "insecureFlag": true,
        "datacenters": [], "soapRoundtripCount": 0, "caFile": "", "thumbprint": "",
        "secretName": "vsphere-creds", "secretNamespace": "kube-system", "secretsDirectory": "",
        "apiDisable": false, "apiBinding": "", "ipFamily": [],
    });
    let mut vcenters = Map::new();
    for vc in by_server(p) {
        let port = if vc.port == 0 { 443 } else { vc.port };
        vcenters.insert(
            vc.server.clone(),
            json!({
                "user": "", "password": "", "tenantref": "", "server": vc.server, "port": port,
                "insecureFlag": true, "datacenters": vc.datacenters, "soapRoundtripCount": 0,
                "caFile": "", "thumbprint": "", "secretref": "", "secretName": "",
                "secretNamespace": "", "ipFamily": [],
            }),
        );
    }
    let (zone, region) = if p.failure_domains.len() > 1 {
        ("openshift-zone", "openshift-region")
    } else {
        ("", "")
    };
    let mut out = Map::new();
    out.insert("global".into(), global);
    out.insert("vcenter".into(), Value::Object(vcenters));
    out.insert("labels".into(), json!({"zone": zone, "region": region}));
    out
}

/// openshift/api's `VSpherePlatformNodeNetworking`, as far as `setNodes` reads it.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct NodeNetworking {
    #[serde(default)]
    external: NodeNetworkingSpec,
    #[serde(default)]
    internal: NodeNetworkingSpec,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct NodeNetworkingSpec {
    #[serde(default)]
    network: String,
    #[serde(default)]
    network_subnet_cidr: Vec<String>,
    #[serde(default)]
    exclude_network_subnet_cidr: Vec<String>,
}

/// library-go's `CPIConfig` as `sigs.k8s.io/yaml` writes it: empty values left out, every
/// mapping sorted.
fn library_go(p: &VSphere, machine_networks: &[String]) -> Result<Map<String, Value>> {
    let mut vcenters = Map::new();
    for vc in by_server(p) {
        let mut entry = Map::new();
        entry.insert("server".into(), json!(vc.server));
        if !vc.datacenters.is_empty() {
            entry.insert("datacenters".into(), json!(vc.datacenters));
        }
        // Only a port the install-config gives (installer PR #10614).
        if vc.port != 0 {
            entry.insert("port".into(), json!(vc.port));
        }
        vcenters.insert(vc.server.clone(), Value::Object(entry));
    }
    let networking = match &p.node_networking {
        Some(given) => {
            NodeNetworking::deserialize(given).context("platform.vsphere.nodeNetworking")?
        }
        None => NodeNetworking {
            external: NodeNetworkingSpec {
                network_subnet_cidr: machine_networks.to_vec(),
                ..NodeNetworkingSpec::default()
            },
            internal: NodeNetworkingSpec {
                network_subnet_cidr: machine_networks.to_vec(),
                ..NodeNetworkingSpec::default()
            },
        },
    };
    let mut nodes = Map::new();
    for (side, spec) in [
        ("External", &networking.external),
        ("Internal", &networking.internal),
    ] {
        let lower = side.to_ascii_lowercase();
        for (key, text) in [
            (format!("{lower}VmNetworkName"), spec.network.clone()),
            (
                format!("{lower}NetworkSubnetCidr"),
                spec.network_subnet_cidr.join(","),
            ),
            (
                format!("exclude{side}NetworkSubnetCidr"),
                spec.exclude_network_subnet_cidr.join(","),
            ),
        ] {
            if !text.is_empty() {
                nodes.insert(key, Value::String(text));
            }
        }
    }
    let mut out = Map::new();
    out.insert(
        "global".into(),
        json!({"secretName": "vsphere-creds", "secretNamespace": "kube-system", "insecureFlag": true}),
    );
    if !vcenters.is_empty() {
        out.insert("vcenter".into(), Value::Object(vcenters));
    }
    if p.failure_domains.len() > 1 {
        out.insert(
            "labels".into(),
            json!({"zone": "openshift-zone", "region": "openshift-region"}),
        );
    }
    if !nodes.is_empty() {
        out.insert("nodes".into(), Value::Object(nodes));
    }
    yaml_v2::sort_maps(&mut out);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_form_follows_the_release_and_the_4_18_gate() {
        let set = |name: &str| Selection {
            feature_set: name.into(),
            ..Selection::default()
        };
        let at = |minor: u8| InstallerRelease::of(&format!("4.{minor}")).expect("a release");
        assert_eq!(form(at(18), &set("")), Form::CloudProviderVsphere);
        assert_eq!(form(at(18), &set("OKD")), Form::Ini);
        assert_eq!(form(at(18), &set("CustomNoUpgrade")), Form::Ini);
        let custom = Selection {
            feature_set: "CustomNoUpgrade".into(),
            enabled: vec!["VSphereMultiVCenters".into()],
            ..Selection::default()
        };
        assert_eq!(form(at(18), &custom), Form::CloudProviderVsphere);
        for minor in 19..=22 {
            assert_eq!(form(at(minor), &set("OKD")), Form::CloudProviderVsphere);
        }
        assert_eq!(form(at(23), &set("")), Form::LibraryGo);
        assert_eq!(form(InstallerRelease::default(), &set("")), Form::LibraryGo);
    }

    /// installer `setNodes`: every `nodeNetworking` value joined by `,` under library-go's
    /// `Nodes` names, and sigs.k8s.io/yaml sorting them.
    #[test]
    fn node_networking_fills_every_nodes_key_sorted() {
        let p = VSphere {
            node_networking: Some(json!({
                "external": {"network": "ext-net", "networkSubnetCidr": ["10.0.0.0/24", "fd00::/64"],
                             "excludeNetworkSubnetCidr": ["10.0.0.8/29"]},
                "internal": {"network": "int-net"},
            })),
            ..VSphere::default()
        };
        let text = config(&p, Form::LibraryGo, &["192.168.0.0/16".into()]).expect("config");
        assert_eq!(
            text,
            "global:\n  insecureFlag: true\n  secretName: vsphere-creds\n  secretNamespace: kube-system\nnodes:\n  excludeExternalNetworkSubnetCidr: 10.0.0.8/29\n  externalNetworkSubnetCidr: 10.0.0.0/24,fd00::/64\n  externalVmNetworkName: ext-net\n  internalVmNetworkName: int-net\n"
        );
    }
}
