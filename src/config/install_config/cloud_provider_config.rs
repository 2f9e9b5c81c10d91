//! The `openshift-config/cloud-provider-config` ConfigMap the installer writes
//! (`pkg/asset/manifests/cloudproviderconfig.go` and the per-platform generators). AWS, GCP,
//! vSphere and Nutanix are here; Azure and Azure Stack Hub (`azure`), IBM Cloud and PowerVS
//! (`ibm`) and OpenStack (`openstack`) take what the installer reads from its credentials or
//! the cloud from [`PlatformFacts`].

mod azure;
mod ibm;
mod openstack;
mod vsphere_yaml;
mod yaml_v2;

use super::facts::{self, Missing, PlatformFacts};
use super::installer_release::InstallerRelease;
use super::{InstallConfig, Platform};
use crate::config::install_config::types::AzureCloud;
use anyhow::{Result, bail};
use serde_json::{Value, json};
use std::fmt::Write as _;

/// Whether the installer writes a cloud-provider-config for the platform at all (it returns
/// before writing one for None, BareMetal, External and oVirt).
pub(crate) fn installer_writes_one(platform: &Platform) -> bool {
    !matches!(
        platform,
        Platform::None | Platform::BareMetal(_) | Platform::External(_)
    )
}

/// The ConfigMap, or None when the installer writes none, with notes for stderr (the
/// installer defaults taken for facts that were not given). Facts the installer reads from its
/// credentials or the cloud come from `facts`; when some are missing, one error names every
/// input that would supply them.
pub(crate) fn derive(
    ic: &InstallConfig,
    infra_id: &str,
    ibm_instance_crn: Option<&str>,
    facts: &PlatformFacts,
    release: InstallerRelease,
) -> Result<(Option<Value>, Vec<String>)> {
    check_flags_fit(&ic.platform, facts)?;
    let mut data = serde_json::Map::new();
    let mut notes = Vec::new();
    let mut missing = Missing::default();
    let ibm = ibm::Cluster {
        infra_id,
        crn: ibm_instance_crn,
        facts,
        release,
    };
    match &ic.platform {
        Platform::None | Platform::BareMetal(_) | Platform::External(_) => {
            return Ok((None, notes));
        }
        Platform::Aws(p) => {
            // A non-empty config keeps the kube-apiserver happy (BZ 1926975); with a
            // dual-stack ipFamily the nodes get both families, the primary first, one key per
            // family (installer pkg/asset/manifests/cloudproviderconfig_test.go @1a283806).
            let families = match p.ip_family.as_str() {
                "DualStackIPv4Primary" => "NodeIPFamilies=ipv4\nNodeIPFamilies=ipv6\n",
                "DualStackIPv6Primary" => "NodeIPFamilies=ipv6\nNodeIPFamilies=ipv4\n",
                _ => "",
            };
            data.insert("config".into(), json!(format!("[Global]\n{families}")));
            if !ic.additional_trust_bundle.is_empty() && is_secret_region(&p.region) {
                data.insert("ca-bundle.pem".into(), json!(ic.additional_trust_bundle));
            }
        }
        Platform::Gcp(p) => {
            let subnet = if p.compute_subnet.is_empty() {
                format!("{infra_id}-worker-subnet")
            } else {
                p.compute_subnet.clone()
            };
            data.insert(
                "config".into(),
                json!(super::gcp::config(infra_id, p, &subnet, release)),
            );
        }
        Platform::VSphere(p) => {
            let text = match vsphere_yaml::form(release, &ic.features) {
                vsphere_yaml::Form::Ini => vsphere_ini(infra_id, p),
                form => {
                    let networks = ic.machine_networks.as_deref().unwrap_or_default();
                    vsphere_yaml::config(p, form, networks)?
                }
            };
            data.insert("config".into(), json!(text));
        }
        Platform::Nutanix(p) => {
            data.insert("config".into(), json!(nutanix(p)?));
        }
        Platform::Azure(p) => azure::derive(p, infra_id, facts, release, &mut missing, &mut data)?,
        Platform::IbmCloud(p) => ibm::ibmcloud(p, ibm, &mut missing, &mut data)?,
        Platform::PowerVs(p) => ibm::powervs(p, ibm, &mut missing, &mut data)?,
        Platform::OpenStack(p) => {
            openstack::derive(p, facts, release, &mut missing, &mut notes, &mut data)?;
        }
    }
    if !missing.is_empty() {
        bail!(missing.message(ic.platform.key()));
    }
    Ok((
        Some(json!({
            "apiVersion": "v1",
            "kind": "ConfigMap",
            "metadata": {"creationTimestamp": null, "name": "cloud-provider-config", "namespace": "openshift-config"},
            "data": data,
        })),
        notes,
    ))
}

/// Each `--<platform>-<fact>` flag belongs to one platform: given for another, it is a mistake.
fn check_flags_fit(platform: &Platform, facts: &PlatformFacts) -> Result<()> {
    let stack = matches!(platform, Platform::Azure(p) if p.cloud_name == AzureCloud::Stack);
    for flag in facts.given_flags() {
        let (fits, needs) = match flag {
            facts::AZURE_STACK_ENDPOINTS => {
                (stack, "platform azure with cloudName AzureStackCloud")
            }
            facts::IBMCLOUD_ZONES => (
                matches!(platform, Platform::IbmCloud(_)),
                "platform ibmcloud",
            ),
            facts::POWERVS_VPC_SUBNETS => {
                (matches!(platform, Platform::PowerVs(_)), "platform powervs")
            }
            _ => (
                matches!(platform, Platform::OpenStack(_)),
                "platform openstack",
            ),
        };
        if !fits {
            bail!(
                "{flag}: only for {needs}; the install-config's platform is {}",
                platform.key()
            );
        }
    }
    Ok(())
}

/// `awstypes.IsSecretRegion`: the regions of the ISO and ISOB partitions (C2S, SC2S).
fn is_secret_region(region: &str) -> bool {
    region.starts_with("us-iso-") || region.starts_with("us-isob-")
}

/// Go's `%q` for the strings that appear here: double quotes, with `"`, `\` and control
/// characters escaped.
fn go_quote(value: &str) -> String {
    let mut out = String::from("\"");
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => {
                let _ = write!(out, "\\x{:02x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `vsphere.CloudProviderConfigIni`: `[Global]`, one `[VirtualCenter]` per vCenter (with the
/// failure domains' datacenters added), `[Workspace]` from the first failure domain (folder
/// defaults to `/<datacenter>/vm/<infraID>`), and `[Labels]` with more than one failure domain.
fn vsphere_ini(infra_id: &str, p: &super::VSphere) -> String {
    let mut out = String::new();
    let line = |out: &mut String, k: &str, v: &str| {
        if !v.is_empty() {
            let _ = writeln!(out, "{k} = {}", go_quote(v));
        }
    };
    out.push_str("[Global]\n");
    line(&mut out, "secret-name", "vsphere-creds");
    line(&mut out, "secret-namespace", "kube-system");
    line(&mut out, "insecure-flag", "1");
    out.push('\n');
    for vc in &p.vcenters {
        let _ = writeln!(out, "[VirtualCenter {}]", go_quote(&vc.server));
        if vc.port != 0 {
            line(&mut out, "port", &vc.port.to_string());
            out.push('\n');
        }
        let mut datacenters = vc.datacenters.clone();
        for fd in p.failure_domains.iter().filter(|fd| fd.server == vc.server) {
            if !datacenters.contains(&fd.topology.datacenter) {
                datacenters.push(fd.topology.datacenter.clone());
            }
        }
        line(&mut out, "datacenters", &datacenters.join(","));
    }
    out.push('\n');
    out.push_str("[Workspace]\n");
    let first = &p.failure_domains[0];
    line(&mut out, "server", &first.server);
    line(&mut out, "datacenter", &first.topology.datacenter);
    line(&mut out, "default-datastore", &first.topology.datastore);
    let folder = if first.topology.folder.is_empty() {
        format!("/{}/vm/{infra_id}", first.topology.datacenter)
    } else {
        first.topology.folder.clone()
    };
    line(&mut out, "folder", &folder);
    line(&mut out, "resourcepool-path", &first.topology.resource_pool);
    out.push('\n');
    if p.failure_domains.len() > 1 {
        out.push_str("[Labels]\n");
        line(&mut out, "region", "openshift-region");
        line(&mut out, "zone", "openshift-zone");
    }
    out
}

/// `nutanix.CloudConfigJSON`: Go's `json.Encoder` with a tab indent.
fn nutanix(p: &super::Nutanix) -> Result<String> {
    let config = json!({
        "prismCentral": {
            "address": p.prism_central.endpoint.address,
            "port": p.prism_central.endpoint.port,
            "credentialRef": {"kind": "Secret", "name": "nutanix-credentials", "namespace": "openshift-cloud-controller-manager"},
        },
        "topologyDiscovery": {"type": "Prism", "topologyCategories": null},
        "enableCustomLabeling": true,
    });
    // The installer's json.Encoder with SetIndent("", "\t").
    ccm_catalogue::go_encode::encode_indented(&config, "\t")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_quote_escapes_like_percent_q() {
        assert_eq!(go_quote("a\"b\\c"), "\"a\\\"b\\\\c\"");
        assert_eq!(go_quote("dc1"), "\"dc1\"");
    }

    #[test]
    fn secret_regions_are_the_iso_partitions() {
        assert!(is_secret_region("us-iso-east-1"));
        assert!(is_secret_region("us-isob-east-1"));
        assert!(!is_secret_region("us-east-1"));
    }
}
