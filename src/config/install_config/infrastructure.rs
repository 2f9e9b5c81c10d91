//! The `Infrastructure` the installer writes (`pkg/asset/manifests/infrastructure.go`,
//! `nutanix/infrastructure.go`, `external/infrastructure.go`); vSphere's spec is
//! `super::vsphere_infrastructure`'s, the topologies `super::topologies`'.

use super::installer_release::InstallerRelease;
use super::{InstallConfig, Platform, Vips};
use crate::config::install_config::types::AzureCloud;
use anyhow::{Context as _, Result, anyhow, bail};
use ccm_catalogue::platform::Platform as PlatformType;
use serde_json::{Value, json};

/// The Infrastructure, with `spec.cloudConfig` pointing at the cloud-provider-config when the
/// installer writes one.
pub(crate) fn derive(
    ic: &InstallConfig,
    infra_id: &str,
    writes_cloud_config: bool,
    ibm_instance_crn: Option<&str>,
    release: InstallerRelease,
) -> Result<Value> {
    let (control_plane_topology, infrastructure_topology) =
        super::topologies::topologies(ic, release);
    let members = platform(ic, infra_id, ibm_instance_crn, release)?;
    let member_key = member_key(&ic.platform);
    let platform_type = members.platform.as_str();
    let mut platform_spec = json!({"type": platform_type});
    if let Some(spec) = members.spec {
        platform_spec[member_key] = spec;
    }
    let mut platform_status = json!({"type": platform_type});
    if let Some(status) = members.status {
        platform_status[member_key] = status;
    }
    // ConfigMapFileReference: `key` is omitempty, `name` is not.
    let cloud_config = if writes_cloud_config {
        json!({"name": "cloud-provider-config", "key": "config"})
    } else {
        json!({"name": ""})
    };
    let domain = ic.cluster_domain();
    Ok(json!({
        "apiVersion": "config.openshift.io/v1",
        "kind": "Infrastructure",
        "metadata": {"creationTimestamp": null, "name": "cluster"},
        "spec": {"cloudConfig": cloud_config, "platformSpec": platform_spec},
        "status": {
            "apiServerInternalURI": format!("https://api-int.{domain}:6443"),
            "apiServerURL": format!("https://api.{domain}:6443"),
            "controlPlaneTopology": control_plane_topology,
            "cpuPartitioning": if ic.cpu_partitioning_all_nodes { "AllNodes" } else { "None" },
            // Deprecated; the installer leaves it empty, and the field is not omitempty.
            "etcdDiscoveryDomain": "",
            "infrastructureName": infra_id,
            "infrastructureTopology": infrastructure_topology,
            "platform": platform_type,
            "platformStatus": platform_status,
        },
    }))
}

fn member_key(platform: &Platform) -> &'static str {
    match platform {
        Platform::Aws(_) => "aws",
        Platform::Azure(_) => "azure",
        Platform::BareMetal(_) => "baremetal",
        Platform::External(_) => "external",
        Platform::Gcp(_) => "gcp",
        Platform::IbmCloud(_) => "ibmcloud",
        Platform::None => "none",
        Platform::Nutanix(_) => "nutanix",
        Platform::OpenStack(_) => "openstack",
        Platform::PowerVs(_) => "powervs",
        Platform::VSphere(_) => "vsphere",
    }
}

/// What an install-config's platform puts in the Infrastructure: the platform type, and the
/// platform's member of `spec.platformSpec` and of `status.platformStatus` (when it has one).
struct Members {
    platform: PlatformType,
    spec: Option<Value>,
    status: Option<Value>,
}

/// [`Members`] from its parts.
fn members(platform: PlatformType, spec: Option<Value>, status: Option<Value>) -> Members {
    Members {
        platform,
        spec,
        status,
    }
}

// Reads better whole: one arm per platform, each the installer's platform status for it, read
// side by side.
fn platform(
    ic: &InstallConfig,
    infra_id: &str,
    crn: Option<&str>,
    release: InstallerRelease,
) -> Result<Members> {
    Ok(match &ic.platform {
        Platform::Aws(p) => members(
            PlatformType::Aws,
            Some(aws_spec(p)),
            Some(aws_status(p, release)),
        ),
        Platform::Azure(p) => members(
            PlatformType::Azure,
            None,
            Some(azure_status(p, infra_id, release)),
        ),
        Platform::Gcp(p) => members(PlatformType::Gcp, None, Some(gcp_status(p, release))),
        Platform::IbmCloud(p) => {
            let crn = required_crn(crn, &ic.publish, "ibmcloud")?;
            let mut status = json!({
                "location": p.region,
                "providerType": "VPC",
                "resourceGroupName": if p.resource_group_name.is_empty() { infra_id } else { p.resource_group_name.as_str() },
            });
            status[crn_field(&ic.publish)] = json!(crn);
            if !p.service_endpoints.is_empty() {
                status["serviceEndpoints"] = json!(p.service_endpoints);
            }
            members(PlatformType::IbmCloud, None, Some(status))
        }
        Platform::PowerVs(p) => {
            let crn = required_crn(crn, &ic.publish, "powervs")?;
            if ic.publish == "Internal" && ic.has_image_mirrors {
                bail!(
                    "platform.powervs: with publish: Internal and image mirrors the installer adds private service endpoints it looks up online; ccm-render cannot, so give the installer's Infrastructure with --infrastructure"
                );
            }
            let mut spec = json!({});
            let mut status = json!({
                "region": p.region,
                "zone": p.zone,
                "resourceGroup": p.powervs_resource_group,
            });
            status[crn_field(&ic.publish)] = json!(crn);
            if !p.service_endpoints.is_empty() {
                spec["serviceEndpoints"] = json!(p.service_endpoints);
                status["serviceEndpoints"] = json!(p.service_endpoints);
            }
            members(PlatformType::PowerVs, Some(spec), Some(status))
        }
        Platform::None => members(PlatformType::None, None, None),
        Platform::External(p) => {
            // external/infrastructure.go@a1456cb7: GetInfraPlatformSpec copies the platform
            // name; GetInfraPlatformStatus maps cloudControllerManager External to the state
            // External and anything else to None, whose value is "" (`state` is not
            // omitempty, nor is the `cloudControllerManager` struct).
            let state = if p.cloud_controller_manager == super::platform::CCM_EXTERNAL {
                super::platform::CCM_EXTERNAL
            } else {
                ""
            };
            members(
                PlatformType::External,
                Some(json!({"platformName": p.platform_name})),
                Some(json!({"cloudControllerManager": {"state": state}})),
            )
        }
        Platform::BareMetal(v) => {
            let (spec, status) = vip_members(v, &machine_networks(ic)?, release);
            members(PlatformType::BareMetal, Some(spec), Some(status))
        }
        Platform::OpenStack(p) => {
            let v = openstack_vips(&p.vips, ic)?;
            let (spec, status) = vip_members(&v, &machine_networks(ic)?, release);
            members(PlatformType::OpenStack, Some(spec), Some(status))
        }
        Platform::VSphere(p) => {
            let (spec, status) = vsphere_members(ic, p, infra_id, release)?;
            members(PlatformType::VSphere, Some(spec), Some(status))
        }
        Platform::Nutanix(p) => {
            let status = (!p.vips.api_vips.is_empty()).then(|| vip_status(&p.vips, true, release));
            members(PlatformType::Nutanix, Some(nutanix_spec(p)), status)
        }
    })
}

fn dns_type(user_provisioned_dns: &str) -> Value {
    // With user-provisioned DNS the cluster runs its own DNS until the user's is in place.
    json!({"dnsType": if user_provisioned_dns == "Enabled" { "ClusterHosted" } else { "PlatformDefault" }})
}

fn aws_spec(p: &super::Aws) -> Value {
    let mut spec = json!({});
    if !p.service_endpoints.is_empty() {
        spec["serviceEndpoints"] = json!(p.service_endpoints);
    }
    spec
}

fn aws_status(p: &super::Aws, release: InstallerRelease) -> Value {
    let mut status = json!({
        "region": p.region,
        "cloudLoadBalancerConfig": dns_type(&p.user_provisioned_dns),
    });
    // From 4.21 the installer writes the (defaulted) IP family for AWS and Azure
    // (pkg/asset/manifests/infrastructure_test.go: IPv4 by default).
    if release.writes_ip_family() {
        status["ipFamily"] = json!(p.ip_family);
    }
    if p.propagate_user_tags && !p.user_tags.is_empty() {
        // The installer ranges over a Go map (random order); sorted by key here.
        status["resourceTags"] = key_values(&p.user_tags);
    }
    if !p.service_endpoints.is_empty() {
        let mut sorted = p.service_endpoints.clone();
        sorted.sort_by(|a, b| a.name.cmp(&b.name));
        status["serviceEndpoints"] = json!(sorted);
    }
    status
}

/// The installer sets no `spec.platformSpec.azure`.
fn azure_status(p: &super::Azure, infra_id: &str, release: InstallerRelease) -> Value {
    // ClusterResourceGroupName: the user's group, or `<infraID>-rg`.
    let rg = if p.resource_group_name.is_empty() {
        format!("{infra_id}-rg")
    } else {
        p.resource_group_name.clone()
    };
    let nrg = if p.network_resource_group_name.is_empty() {
        rg.clone()
    } else {
        p.network_resource_group_name.clone()
    };
    let mut status = json!({
        "cloudName": p.cloud_name.as_str(),
        "networkResourceGroupName": nrg,
        "resourceGroupName": rg,
    });
    if release.writes_ip_family() {
        status["ipFamily"] = json!(p.ip_family);
    }
    // From 4.20, on every Azure cluster (Azure Stack Hub too): PlatformDefault, or
    // ClusterHosted with userProvisionedDNS (infrastructure_test.go "default Azure custom DNS",
    // "Azure custom DNS").
    if release.writes_azure_dns_type() {
        status["cloudLoadBalancerConfig"] = dns_type(&p.user_provisioned_dns);
    }
    if p.cloud_name == AzureCloud::Stack {
        status["armEndpoint"] = json!(p.arm_endpoint);
    }
    if !p.user_tags.is_empty() {
        // A Go map in the installer too; sorted by key here.
        status["resourceTags"] = key_values(&p.user_tags);
    }
    status
}

fn gcp_status(p: &super::Gcp, release: InstallerRelease) -> Value {
    let mut status = json!({
        "projectID": p.project_id,
        "region": p.region,
        "cloudLoadBalancerConfig": dns_type(&p.user_provisioned_dns),
    });
    // 4.19 and 4.20 (infrastructure_test.go "gcp service endpoints"): sorted at 4.19,
    // formatted at 4.20 (`super::gcp_service_endpoints`).
    if release.copies_gcp_service_endpoints() && !p.service_endpoints.is_empty() {
        status["serviceEndpoints"] = json!(super::gcp_service_endpoints::status(p, release));
    }
    if !p.user_labels.is_empty() {
        status["resourceLabels"] = p
            .user_labels
            .iter()
            .map(|l| json!({"key": l.key, "value": l.value}))
            .collect();
    }
    if !p.user_tags.is_empty() {
        status["resourceTags"] = p
            .user_tags
            .iter()
            .map(|t| json!({"parentID": t.parent_id, "key": t.key, "value": t.value}))
            .collect();
    }
    status
}

fn key_values(tags: &std::collections::BTreeMap<String, String>) -> Value {
    tags.iter()
        .map(|(k, v)| json!({"key": k, "value": v}))
        .collect()
}

fn crn_field(publish: &str) -> &'static str {
    if publish == "Internal" {
        "dnsInstanceCRN"
    } else {
        "cisInstanceCRN"
    }
}

/// The CIS (External publish) or DNS Services (Internal) instance CRN: the installer looks it
/// up online from the base domain.
fn required_crn<'a>(crn: Option<&'a str>, publish: &str, key: &str) -> Result<&'a str> {
    let what = if publish == "Internal" {
        "DNS Services"
    } else {
        "Cloud Internet Services (CIS)"
    };
    crn.ok_or_else(|| {
        anyhow!(
            "platform.{key}: the Infrastructure needs the IBM Cloud {what} instance CRN (status.platformStatus.{key}.{}), which the installer looks up online for the base domain; give it with --ibm-instance-crn",
            crn_field(publish)
        )
    })
}

/// What `--emit-infrastructure` needs beyond what the render needs: the fields of the
/// Infrastructure the installer looks up online and nothing rendered reads. Today one: the
/// Nutanix Prism Element's name (`platform.nutanix.prismElements[].name` is optional for the
/// installer, `pkg/types/nutanix/validation/platform.go` checks only the UUID, endpoint address
/// and port, and `GetInfrastructureNutanixPlatformSpec` looks the name up by UUID when it is
/// empty).
pub(crate) fn check_emittable(ic: &InstallConfig) -> Result<()> {
    if let Platform::Nutanix(p) = &ic.platform
        && p.prism_elements
            .first()
            .is_some_and(|pe| pe.name.is_empty())
    {
        bail!(
            "platform.nutanix.prismElements[0].name: --emit-infrastructure writes it as the Infrastructure's spec.platformSpec.nutanix.prismElements[0].name, which the installer looks up in Prism Central by the Prism Element's UUID and ccm-render cannot (it is offline); write the Prism Element's name in the install-config, or leave out --emit-infrastructure (the render does not use it)"
        );
    }
    Ok(())
}

/// Checks a CRN given on the command line (`crn:v1:…`, no characters that could leave the
/// YAML string).
pub(crate) fn check_crn(crn: &str) -> Result<()> {
    if !crn.starts_with("crn:")
        || !crn
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b":/-_.".contains(&b))
    {
        bail!("{crn:?} is not a CRN (crn:v1:…)");
    }
    Ok(())
}

fn machine_networks(ic: &InstallConfig) -> Result<Vec<String>> {
    ic.machine_networks.clone().ok_or_else(|| {
        anyhow!("networking.machineNetwork: required (the installer picks a random default)")
    })
}

/// OpenStack VIP defaults (`pkg/types/openstack/defaults`): the 5th and 7th address of the
/// first machine network.
fn openstack_vips(v: &Vips, ic: &InstallConfig) -> Result<Vips> {
    let mut v = v.clone();
    if v.api_vips.is_empty() {
        let first = machine_networks(ic)?.first().cloned().unwrap_or_default();
        let cidr = super::net::parse_cidr(&first).context("networking.machineNetwork[0].cidr")?;
        let host = |n: u8| {
            cidr.host(n)
                .map(|ip| vec![ip.to_string()])
                .context("networking.machineNetwork[0].cidr: cannot default the VIPs")
        };
        v.api_vips = host(5)?;
        if v.ingress_vips.is_empty() {
            v.ingress_vips = host(7)?;
        }
    }
    Ok(v)
}

/// The status of a VIP platform. From 4.21 it carries `dnsRecordsType`, `Internal` unless the
/// install-config says `External` (installer 8f91fb56a4, PR #9924: the platforms' defaults set
/// `Internal`, `infrastructure.go` copies it into the bare metal, OpenStack, vSphere and Nutanix
/// statuses it writes with VIPs; release-4.21 @6285755d19, the master of 4.22 @8e014ada25).
fn vip_status(v: &Vips, singular: bool, release: InstallerRelease) -> Value {
    let mut status = json!({
        "apiServerInternalIPs": v.api_vips,
        "ingressIPs": v.ingress_vips,
    });
    if release.writes_dns_records_type() {
        let kind = if v.dns_records_type.is_empty() {
            "Internal"
        } else {
            v.dns_records_type.as_str()
        };
        status["dnsRecordsType"] = json!(kind);
    }
    // The deprecated single values (openshift/api: "Deprecated: Use APIServerInternalIPs").
    if singular {
        status["apiServerInternalIP"] = json!(v.api_vips.first());
        status["ingressIP"] = json!(v.ingress_vips.first());
    }
    if let Some(lb) = &v.load_balancer {
        status["loadBalancer"] = json!({"type": lb.kind});
    }
    status
}

/// BareMetal and OpenStack: the spec mirrors the VIPs and machine networks.
fn vip_members(v: &Vips, machine_networks: &[String], release: InstallerRelease) -> (Value, Value) {
    let mut status = vip_status(v, true, release);
    status["machineNetworks"] = json!(machine_networks);
    let spec = json!({
        "apiServerInternalIPs": v.api_vips,
        "ingressIPs": v.ingress_vips,
        "machineNetworks": machine_networks,
    });
    (spec, status)
}

/// vSphere's spec and status. The status carries the VIPs when there are some (the deprecated
/// single values only up to 4.20) and, from 4.19, the spec's `machineNetworks` with the VIP
/// networks (installer PRs #9526 and #9743; before them the machine networks alone).
fn vsphere_members(
    ic: &InstallConfig,
    p: &super::VSphere,
    infra_id: &str,
    release: InstallerRelease,
) -> Result<(Value, Value)> {
    let machine_networks = machine_networks(ic)?;
    let networks = super::vsphere_infrastructure::machine_networks(p, &machine_networks, release);
    // Without VIPs the installer writes `VSpherePlatformStatus{}`, whose lists are not
    // omitempty (`null`).
    let mut status = if p.vips.api_vips.is_empty() {
        json!({"apiServerInternalIPs": null, "ingressIPs": null})
    } else {
        vip_status(&p.vips, release.vsphere_singular_vips(), release)
    };
    status["machineNetworks"] = json!(networks);
    let multi_networks = release.vsphere_multi_networks();
    let node_networking = ic
        .features
        .is_enabled(multi_networks.name, multi_networks.sets)
        .then_some(&machine_networks);
    let spec =
        super::vsphere_infrastructure::spec(p, infra_id, &networks, node_networking, release);
    Ok((spec, status))
}

/// `nutanix.GetInfrastructureNutanixPlatformSpec` (installer
/// `pkg/asset/manifests/nutanix/infrastructure.go`): the first Prism Element's name, endpoint
/// address and port. Without a name in the install-config the installer asks Prism Central for
/// the Prism Element with that UUID; the name stays empty here, since nothing ccm-render
/// renders reads it, and [`check_emittable`] refuses to write such an Infrastructure.
fn nutanix_spec(p: &super::Nutanix) -> Value {
    let pe = &p.prism_elements[0];
    let mut spec = json!({
        "prismCentral": {"address": p.prism_central.endpoint.address, "port": p.prism_central.endpoint.port},
        "prismElements": [{"name": pe.name, "endpoint": {"address": pe.endpoint.address, "port": pe.endpoint.port}}],
    });
    let failure_domains: Vec<Value> = p
        .failure_domains
        .iter()
        .map(|fd| {
            json!({
                "name": fd.name,
                "cluster": {"type": "UUID", "uuid": fd.prism_element.uuid},
                "subnets": fd.subnet_uuids.iter().map(|u| json!({"type": "UUID", "uuid": u})).collect::<Vec<_>>(),
            })
        })
        .collect();
    if !failure_domains.is_empty() {
        spec["failureDomains"] = json!(failure_domains);
    }
    spec
}
