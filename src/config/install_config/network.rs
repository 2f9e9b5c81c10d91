//! `networking`: the cluster, service and machine networks and the network type, converted,
//! defaulted and checked as the installer does, and the `Network` it writes from them
//! (`manifests/cluster-network-02-config.yml`).
//!
//! Sources (`openshift/installer`): `pkg/types/conversion/installconfig.go` (convertNetworking,
//! @93690116), `pkg/types/defaults/installconfig.go` (defaults), `pkg/types/validation/
//! installconfig.go` (validateNetworking, validateClusterNetwork, validateNetworkingIPVersion)
//! and `pkg/asset/manifests/network.go`.

use super::{Platform, net, types};
use crate::config::install_config::types::AzureCloud;
use anyhow::{Context as _, Result, bail};
use serde_json::{Value, json};
use std::net::IpAddr;

/// The installer's defaults (`pkg/types/defaults/installconfig.go`).
const DEFAULT_CLUSTER_NETWORK: &str = "10.128.0.0/14";
const DEFAULT_HOST_PREFIX: u32 = 23;
const DEFAULT_SERVICE_NETWORK: &str = "172.30.0.0/16";
/// `defaultNetworkType` since OpenShift 4.12.
const DEFAULT_NETWORK_TYPE: &str = "OVNKubernetes";

/// One `networking.clusterNetwork` entry, converted and defaulted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ClusterNetwork {
    /// The CIDR, canonical.
    pub(crate) cidr: String,
    /// `hostPrefix` (0 when unset and the network plugin does not use it).
    pub(crate) host_prefix: u32,
}

/// The networks the `Network` is written from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Networks {
    /// `networking.clusterNetwork`.
    pub(crate) cluster: Vec<ClusterNetwork>,
    /// `networking.serviceNetwork`, canonical.
    pub(crate) service: Vec<String>,
    /// `networking.networkType`.
    pub(crate) network_type: String,
}

/// Converts, defaults and checks `networking` (all but the machine networks, which the caller
/// has read: they take part in the IP family checks).
pub(crate) fn parse(
    n: &types::Networking,
    platform: &Platform,
    machine: Option<&[String]>,
) -> Result<Networks> {
    // convertNetworking: the deprecated fields fill the empty new ones.
    let entries = if n.cluster_network.is_empty() {
        &n.deprecated_cluster_networks
    } else {
        &n.cluster_network
    };
    let field = if n.cluster_network.is_empty() && !entries.is_empty() {
        "networking.clusterNetworks"
    } else {
        "networking.clusterNetwork"
    };
    let mut network_type = if n.network_type.is_empty() {
        n.deprecated_type.clone()
    } else {
        n.network_type.clone()
    };
    // The plugin names are recognised regardless of case, for backward compatibility.
    for known in ["OpenShiftSDN", "OVNKubernetes"] {
        if network_type.eq_ignore_ascii_case(known) {
            network_type = known.to_string();
        }
    }
    if network_type.is_empty() {
        network_type = DEFAULT_NETWORK_TYPE.to_string();
    }
    match network_type.as_str() {
        "OpenShiftSDN" => bail!(
            "networking.networkType: \"OpenShiftSDN\": networkType OpenShiftSDN is not supported, please use OVNKubernetes"
        ),
        t if t.eq_ignore_ascii_case("Kuryr") => bail!(
            "networking.networkType: {t:?}: networkType Kuryr is not supported on OpenShift later than 4.14"
        ),
        _ => {}
    }

    let cluster = cluster_networks(entries, field, &network_type)?;

    let (service_field, service_texts): (&str, Vec<&str>) = if !n.service_network.is_empty() {
        (
            "networking.serviceNetwork",
            n.service_network.iter().map(String::as_str).collect(),
        )
    } else if !n.service_cidr.is_empty() {
        ("networking.serviceCIDR", vec![n.service_cidr.as_str()])
    } else {
        ("", vec![DEFAULT_SERVICE_NETWORK])
    };
    let mut service = Vec::new();
    for (i, text) in service_texts.iter().enumerate() {
        let cidr = net::parse_cidr(text).with_context(|| format!("{service_field}[{i}]"))?;
        service.push(cidr.to_string());
    }

    let networks = Networks {
        cluster,
        service,
        network_type,
    };
    check_ip_families(&networks, platform, machine.unwrap_or_default())?;
    Ok(networks)
}

/// The cluster networks with their host prefixes (`hostSubnetLength` converted), checked as
/// `validateClusterNetwork` does, or the default one.
fn cluster_networks(
    entries: &[types::ClusterNetworkEntry],
    field: &str,
    network_type: &str,
) -> Result<Vec<ClusterNetwork>> {
    let mut cluster: Vec<ClusterNetwork> = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        let at = format!("{field}[{i}]");
        let cidr = net::parse_cidr(&entry.cidr).with_context(|| format!("{at}.cidr"))?;
        let bits: i64 = if cidr.ip.is_ipv4() { 32 } else { 128 };
        let mut host_prefix = entry.host_prefix;
        if host_prefix == 0 && entry.host_subnet_length != 0 {
            host_prefix = bits - entry.host_subnet_length;
        }
        // validateClusterNetwork: the host prefix is checked when the plugin uses it
        // (OpenShiftSDN, OVNKubernetes) or when it is set.
        if network_type == "OVNKubernetes" || host_prefix != 0 {
            if host_prefix < 0 {
                bail!("{at}.hostPrefix: {host_prefix}: hostPrefix must be positive");
            }
            if host_prefix < i64::from(cidr.prefix) {
                bail!(
                    "{at}.hostPrefix: {host_prefix}: cluster network host subnetwork prefix must not be larger size than CIDR {cidr}"
                );
            }
            if bits == 32 {
                let earlier_v4 = cluster.iter().find(|c: &&ClusterNetwork| {
                    net::parse_cidr(&c.cidr).is_ok_and(|c| c.ip.is_ipv4())
                });
                if earlier_v4.is_some_and(|c| i64::from(c.host_prefix) != host_prefix) {
                    bail!(
                        "{at}.hostPrefix: {host_prefix}: cluster network host subnetwork prefix must be the same value for IPv4 networks"
                    );
                }
            } else if host_prefix != 64 {
                bail!(
                    "{at}.hostPrefix: {host_prefix}: cluster network host subnetwork prefix must be 64 for IPv6 networks"
                );
            }
        }
        if host_prefix > bits {
            bail!("{at}.hostPrefix: {host_prefix}: longer than the address ({bits} bits)");
        }
        cluster.push(ClusterNetwork {
            cidr: cidr.to_string(),
            host_prefix: u32::try_from(host_prefix).unwrap_or_default(),
        });
    }
    if cluster.is_empty() {
        cluster.push(ClusterNetwork {
            cidr: DEFAULT_CLUSTER_NETWORK.to_string(),
            host_prefix: DEFAULT_HOST_PREFIX,
        });
    }

    Ok(cluster)
}

/// What one list holds: IPv4, IPv6, and the family of its first entry.
#[derive(Debug, Default, Clone, Copy)]
struct Presence {
    v4: bool,
    v6: bool,
    first_v6: bool,
}

fn presence<'a>(cidrs: impl IntoIterator<Item = &'a str>) -> Presence {
    let mut p = Presence::default();
    for (i, text) in cidrs.into_iter().enumerate() {
        let v6 = net::parse_cidr(text).is_ok_and(|c| matches!(c.ip, IpAddr::V6(_)));
        if v6 {
            p.v6 = true;
        } else {
            p.v4 = true;
        }
        if i == 0 {
            p.first_v6 = v6;
        }
    }
    p
}

/// `validateNetworkingIPVersion`: the service networks decide single-stack IPv4, IPv6 or dual
/// stack; dual stack needs two service networks and both families in every list, IPv4 first
/// except on bare metal, vSphere and OpenStack; IPv6 only on the platforms that support it.
fn check_ip_families(n: &Networks, platform: &Platform, machine: &[String]) -> Result<()> {
    let lists = [
        (
            "machineNetwork",
            presence(machine.iter().map(String::as_str)),
        ),
        (
            "serviceNetwork",
            presence(n.service.iter().map(String::as_str)),
        ),
        (
            "clusterNetwork",
            presence(n.cluster.iter().map(|c| c.cidr.as_str())),
        ),
    ];
    let services = lists[1].1;
    let joined = |name: &str| -> String {
        match name {
            "machineNetwork" => machine.join(", "),
            "serviceNetwork" => n.service.join(", "),
            _ => n
                .cluster
                .iter()
                .map(|c| c.cidr.as_str())
                .collect::<Vec<_>>()
                .join(", "),
        }
    };
    if services.v4 && services.v6 {
        if n.service.len() != 2 {
            bail!(
                "networking.serviceNetwork: {:?}: when installing dual-stack IPv4/IPv6 you must provide two service networks, one for each IP address type",
                joined("serviceNetwork")
            );
        }
        let allow_v6_primary = match platform {
            Platform::BareMetal(_) | Platform::VSphere(_) | Platform::OpenStack(_) => true,
            Platform::Nutanix(_) | Platform::None | Platform::External(_) => false,
            Platform::Aws(_) | Platform::Azure(_) => {
                return cloud_dual_stack(platform, &lists, joined);
            }
            other => bail!(
                "networking: dual-stack IPv4/IPv6 is not supported for this platform ({}), specify only one type of address",
                other.key()
            ),
        };
        for (name, p) in lists {
            match (p.v4, p.v6) {
                (true, false) => bail!(
                    "networking.{name}: {:?}: dual-stack IPv4/IPv6 requires an IPv6 network in this list",
                    joined(name)
                ),
                (false, true) => bail!(
                    "networking.{name}: {:?}: dual-stack IPv4/IPv6 requires an IPv4 network in this list",
                    joined(name)
                ),
                _ => {}
            }
            if !allow_v6_primary && p.v4 && p.v6 && p.first_v6 {
                bail!(
                    "networking.{name}: {:?}: IPv4 addresses must be listed before IPv6 addresses",
                    joined(name)
                );
            }
        }
    } else if services.v6 {
        check_single_stack_v6(platform)?;
    } else if n.service.len() > 1 {
        bail!(
            "networking.serviceNetwork: {:?}: only one service network can be specified",
            joined("serviceNetwork")
        );
    }
    Ok(())
}

/// Single-stack IPv6: only on the platforms that support it.
fn check_single_stack_v6(platform: &Platform) -> Result<()> {
    match platform {
        Platform::BareMetal(_)
        | Platform::VSphere(_)
        | Platform::OpenStack(_)
        | Platform::Nutanix(_)
        | Platform::None
        | Platform::External(_) => Ok(()),
        Platform::Azure(p) if p.cloud_name == AzureCloud::Stack => {
            bail!("networking: Azure Stack does not support IPv6")
        }
        other => bail!(
            "networking: single-stack IPv6 is not supported for this platform ({})",
            other.key()
        ),
    }
}

/// Dual-stack networks on AWS and Azure, which the newest installer accepts with a dual-stack
/// `platform.<aws|azure>.ipFamily` (its feature gate is checked before, see
/// `super::platform::check_gates`). The cluster and service networks list both families, the
/// primary one first (OpenShift's Network documentation: on AWS "the order of addresses must
/// match the dual-stack configuration you selected"); the machine network may hold IPv4 only
/// (installer `docs/user/aws/customization.md` @e2678919: with an installer-made VPC the installer adds
/// the VPC's Amazon-provided IPv6 block itself).
fn cloud_dual_stack(
    platform: &Platform,
    lists: &[(&str, Presence); 3],
    joined: impl Fn(&str) -> String,
) -> Result<()> {
    let key = platform.key();
    let family = platform
        .ip_family()
        .map(|(family, _)| family)
        .unwrap_or_default();
    if !super::platform::is_dual_stack(family) {
        bail!(
            "networking: dual-stack IPv4/IPv6 is not supported for this platform ({key}) unless platform.{key}.ipFamily is DualStackIPv4Primary or DualStackIPv6Primary (it is {family:?}); specify only one type of address or set ipFamily"
        );
    }
    let v6_primary = family == "DualStackIPv6Primary";
    for (name, p) in lists {
        if *name == "machineNetwork" && !(p.v4 && p.v6) {
            continue;
        }
        match (p.v4, p.v6) {
            (true, false) => bail!(
                "networking.{name}: {:?}: dual-stack IPv4/IPv6 requires an IPv6 network in this list",
                joined(name)
            ),
            (false, true) => bail!(
                "networking.{name}: {:?}: dual-stack IPv4/IPv6 requires an IPv4 network in this list",
                joined(name)
            ),
            _ => {}
        }
        if p.first_v6 != v6_primary {
            let first = if v6_primary { "IPv6" } else { "IPv4" };
            bail!(
                "networking.{name}: {:?}: platform.{key}.ipFamily is {family}: list the {first} network first",
                joined(name)
            );
        }
    }
    Ok(())
}

/// The `Network` the installer writes (`pkg/asset/manifests/network.go`): the cluster and
/// service networks and the network type in `spec`, all Service external IPs blocked
/// (`externalIP.policy: {}`), and an empty `status` (the network operator fills it).
pub(crate) fn derive(n: &Networks) -> Value {
    let cluster: Vec<Value> = n
        .cluster
        .iter()
        .map(|c| {
            // configv1.ClusterNetworkEntry: hostPrefix is omitempty.
            if c.host_prefix == 0 {
                json!({"cidr": c.cidr})
            } else {
                json!({"cidr": c.cidr, "hostPrefix": c.host_prefix})
            }
        })
        .collect();
    json!({
        "apiVersion": "config.openshift.io/v1",
        "kind": "Network",
        "metadata": {"creationTimestamp": null, "name": "cluster"},
        "spec": {
            "clusterNetwork": cluster,
            "externalIP": {"policy": {}},
            "networkType": n.network_type,
            "serviceNetwork": n.service,
        },
        "status": {},
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn networking(v: &Value) -> types::Networking {
        serde_json::from_value(v.clone()).expect("networking")
    }

    fn parse_for(v: &Value, platform: &Platform, machine: &[&str]) -> Result<Networks> {
        let machine: Vec<String> = machine.iter().map(|s| (*s).to_string()).collect();
        parse(&networking(v), platform, Some(&machine))
    }

    fn err(v: &Value, platform: &Platform, machine: &[&str]) -> String {
        format!(
            "{:#}",
            parse_for(v, platform, machine).expect_err("invalid")
        )
    }

    #[test]
    fn defaults_are_the_installers() {
        let n = parse_for(&json!({}), &Platform::None, &["10.0.0.0/16"]).expect("valid");
        assert_eq!(
            n.cluster,
            [ClusterNetwork {
                cidr: "10.128.0.0/14".into(),
                host_prefix: 23
            }]
        );
        assert_eq!(n.service, ["172.30.0.0/16"]);
        assert_eq!(n.network_type, "OVNKubernetes");
    }

    #[test]
    fn deprecated_fields_are_converted() {
        let n = parse_for(
            &json!({"type": "ovnkubernetes", "serviceCIDR": "172.31.0.0/16",
                "clusterNetworks": [{"cidr": "10.132.0.0/14", "hostSubnetLength": 9}]}),
            &Platform::None,
            &["10.0.0.0/16"],
        )
        .expect("valid");
        assert_eq!(n.network_type, "OVNKubernetes");
        assert_eq!(n.service, ["172.31.0.0/16"]);
        assert_eq!(n.cluster[0].host_prefix, 23);
    }

    #[test]
    fn host_prefixes_are_checked_as_the_installer_does() {
        let none = Platform::None;
        let e = err(
            &json!({"clusterNetwork": [{"cidr": "192.168.1.0/24", "hostPrefix": 23}]}),
            &none,
            &["10.0.0.0/16"],
        );
        assert!(
            e.contains("must not be larger size than CIDR 192.168.1.0/24"),
            "{e}"
        );
        let e = err(
            &json!({"clusterNetwork": [{"cidr": "10.128.0.0/14"}]}),
            &none,
            &["10.0.0.0/16"],
        );
        assert!(
            e.starts_with("networking.clusterNetwork[0].hostPrefix: 0:"),
            "{e}"
        );
        let e = err(&json!({"networkType": "OpenShiftSDN"}), &none, &[]);
        assert!(e.contains("please use OVNKubernetes"), "{e}");
    }

    #[test]
    fn dual_stack_follows_the_platform_rules() {
        let dual = json!({
            "clusterNetwork": [{"cidr": "10.128.0.0/14", "hostPrefix": 23}, {"cidr": "fd01::/48", "hostPrefix": 64}],
            "serviceNetwork": ["172.30.0.0/16", "fd02::/112"],
        });
        let machine = ["192.168.96.0/24", "fd00::/64"];
        let vsphere = Platform::VSphere(Box::default());
        let n = parse_for(&dual, &vsphere, &machine).expect("vSphere allows dual stack");
        assert_eq!(n.service, ["172.30.0.0/16", "fd02::/112"]);
        let aws = Platform::Aws(types::Aws::default());
        assert!(err(&dual, &aws, &machine).contains("dual-stack IPv4/IPv6 is not supported"));
        let e = err(&dual, &vsphere, &["192.168.96.0/24"]);
        assert!(
            e.starts_with("networking.machineNetwork: \"192.168.96.0/24\": dual-stack IPv4/IPv6 requires an IPv6 network"),
            "{e}"
        );
        let mut v6_first = dual.clone();
        v6_first["serviceNetwork"] = json!(["fd02::/112", "172.30.0.0/16"]);
        assert!(parse_for(&v6_first, &vsphere, &machine).is_ok());
        let e = err(&v6_first, &Platform::None, &machine);
        assert!(
            e.contains("IPv4 addresses must be listed before IPv6"),
            "{e}"
        );
        let e = err(
            &json!({"serviceNetwork": ["172.30.0.0/16", "172.31.0.0/16"]}),
            &Platform::None,
            &["10.0.0.0/16"],
        );
        assert!(
            e.contains("only one service network can be specified"),
            "{e}"
        );
    }

    #[test]
    fn the_network_is_written_as_the_installer_writes_it() {
        let n = parse_for(&json!({}), &Platform::None, &["10.0.0.0/16"]).expect("valid");
        assert_eq!(
            derive(&n),
            json!({
                "apiVersion": "config.openshift.io/v1",
                "kind": "Network",
                "metadata": {"creationTimestamp": null, "name": "cluster"},
                "spec": {
                    "clusterNetwork": [{"cidr": "10.128.0.0/14", "hostPrefix": 23}],
                    "externalIP": {"policy": {}},
                    "networkType": "OVNKubernetes",
                    "serviceNetwork": ["172.30.0.0/16"],
                },
                "status": {},
            })
        );
    }
}
