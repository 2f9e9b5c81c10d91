//! `validateNetworks` (HyperShift `hypershift-operator/controllers/hostedcluster/
//! hostedcluster_controller.go`): the first cluster, service and machine networks and the API
//! server's advertise address on one IP family, the advertise address outside those networks,
//! no two networks overlapping (with OVN-Kubernetes' internal subnets), and an API server
//! NodePort within the service node port range.

use anyhow::Result;
use serde_json::Value;
use std::net::IpAddr;

/// A parsed CIDR: its address with the host bits cleared, and its prefix length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Cidr {
    network: IpAddr,
    prefix: u32,
}

impl Cidr {
    /// Go's `net.ParseCIDR`.
    fn parse(text: &str) -> Option<Self> {
        let (ip, prefix) = text.split_once('/')?;
        if prefix.is_empty() || !prefix.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let prefix: u32 = prefix.parse().ok()?;
        let network = match ip.parse::<IpAddr>().ok()? {
            IpAddr::V4(v4) if prefix <= 32 => {
                let mask = u32::MAX.checked_shl(32 - prefix).unwrap_or(0);
                IpAddr::V4((u32::from(v4) & mask).into())
            }
            IpAddr::V6(v6) if prefix <= 128 => {
                let mask = u128::MAX.checked_shl(128 - prefix).unwrap_or(0);
                IpAddr::V6((u128::from(v6) & mask).into())
            }
            _ => return None,
        };
        Some(Self { network, prefix })
    }

    /// `net.IPNet.Contains`.
    fn contains(self, ip: IpAddr) -> bool {
        match (self.network, ip) {
            (IpAddr::V4(n), IpAddr::V4(a)) => {
                let mask = u32::MAX.checked_shl(32 - self.prefix).unwrap_or(0);
                u32::from(a) & mask == u32::from(n)
            }
            (IpAddr::V6(n), IpAddr::V6(a)) => {
                let mask = u128::MAX.checked_shl(128 - self.prefix).unwrap_or(0);
                u128::from(a) & mask == u128::from(n)
            }
            _ => false,
        }
    }
}

impl std::fmt::Display for Cidr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.network, self.prefix)
    }
}

/// One network and the field it comes from.
struct Entry {
    cidr: Cidr,
    field: String,
}

/// The CIDRs of `spec.networking.<list>`, each named by its field (one that is no CIDR, which
/// the HostedCluster's Go type cannot hold, as `invalid(field, problem)`).
fn list(spec: &Value, key: &str, invalid: &dyn Fn(&str, &str) -> Result<()>) -> Result<Vec<Entry>> {
    let mut out = Vec::new();
    let items = spec
        .pointer(&format!("/networking/{key}"))
        .and_then(Value::as_array);
    for (i, item) in items.into_iter().flatten().enumerate() {
        let field = format!("spec.networking.{key}[{i}].cidr");
        let text = item.get("cidr").and_then(Value::as_str).unwrap_or_default();
        match Cidr::parse(text) {
            Some(cidr) => out.push(Entry { cidr, field }),
            None => invalid(&field, &format!("{text:?} is not a CIDR"))?,
        }
    }
    Ok(out)
}

/// Every check, the first failure as `invalid(field, problem)`.
pub(crate) fn check(spec: &Value, invalid: &dyn Fn(&str, &str) -> Result<()>) -> Result<()> {
    let machine = list(spec, "machineNetwork", invalid)?;
    let service = list(spec, "serviceNetwork", invalid)?;
    let cluster = list(spec, "clusterNetwork", invalid)?;
    let advertise = advertise_address(spec, cluster.first(), invalid)?;
    let firsts: Vec<&Entry> = [cluster.first(), service.first(), machine.first()]
        .into_iter()
        .flatten()
        .collect();
    let v4 = firsts.iter().filter(|e| e.cidr.network.is_ipv4()).count()
        + usize::from(advertise.is_some_and(|a| a.is_ipv4()));
    let v6 = firsts.iter().filter(|e| e.cidr.network.is_ipv6()).count()
        + usize::from(advertise.is_some_and(|a| a.is_ipv6()));
    if v4 > 0 && v6 > 0 {
        invalid(
            "spec.networking",
            "declare multiple network stacks as primary network in the cluster definition is not allowed",
        )?;
    }
    if let Some(address) = advertise {
        for entry in &firsts {
            if entry.cidr.contains(address) {
                invalid(
                    &entry.field,
                    &format!(
                        "{} overlaps with the API server's advertise address {address}",
                        entry.cidr
                    ),
                )?;
            }
        }
    }
    let mut all: Vec<Entry> = machine.into_iter().chain(service).chain(cluster).collect();
    all.extend(ovn_subnets(spec));
    for (i, a) in all.iter().enumerate() {
        for b in &all[i + 1..] {
            if a.cidr.contains(b.cidr.network) || b.cidr.contains(a.cidr.network) {
                invalid(
                    &a.field,
                    &format!("{} and {} ({}) overlap", a.cidr, b.field, b.cidr),
                )?;
            }
        }
    }
    node_port(spec, invalid)
}

/// `findAdvertiseAddress`: `spec.networking.apiServer.advertiseAddress`, else 172.20.0.1 or
/// fd00::1 by the first cluster network's family (HyperShift `support/config`).
fn advertise_address(
    spec: &Value,
    first_cluster: Option<&Entry>,
    invalid: &dyn Fn(&str, &str) -> Result<()>,
) -> Result<Option<IpAddr>> {
    if let Some(text) = spec
        .pointer("/networking/apiServer/advertiseAddress")
        .and_then(Value::as_str)
    {
        if let Ok(ip) = text.parse::<IpAddr>() {
            return Ok(Some(ip));
        }
        invalid(
            "spec.networking.apiServer.advertiseAddress",
            &format!("{text:?} is not an IP address"),
        )?;
        return Ok(None);
    }
    Ok(first_cluster.map(|e| match e.cidr.network {
        IpAddr::V4(_) => IpAddr::V4(std::net::Ipv4Addr::new(172, 20, 0, 1)),
        IpAddr::V6(_) => IpAddr::V6(std::net::Ipv6Addr::new(0xfd00, 0, 0, 0, 0, 0, 0, 1)),
    }))
}

/// OVN-Kubernetes' internal subnets that may not overlap the others: those its configuration
/// sets, and KubeVirt's defaults where it sets none (`validateSliceNetworkCIDRs`).
fn ovn_subnets(spec: &Value) -> Vec<Entry> {
    let mut out = Vec::new();
    if spec
        .pointer("/networking/networkType")
        .and_then(Value::as_str)
        != Some("OVNKubernetes")
    {
        return out;
    }
    let base = "/operatorConfiguration/clusterNetworkOperator/ovnKubernetesConfig";
    let at = |rel: &str| {
        spec.pointer(&format!("{base}/{rel}"))
            .and_then(Value::as_str)
            .unwrap_or_default()
    };
    let mut add = |text: &str, field: &str| {
        if let Some(cidr) = Cidr::parse(text) {
            out.push(Entry {
                cidr,
                field: format!(
                    "spec.operatorConfiguration.clusterNetworkOperator.ovnKubernetesConfig.{field}"
                ),
            });
        }
    };
    for rel in [
        "ipv4/internalJoinSubnet",
        "ipv4/internalTransitSwitchSubnet",
        "v4InternalSubnet",
        "v6InternalSubnet",
    ] {
        add(at(rel), &rel.replace('/', "."));
    }
    let kubevirt = spec.pointer("/platform/type").and_then(Value::as_str)
        == Some(ccm_catalogue::platform::HostedPlatform::KubeVirt.as_str());
    if at("ipv4/internalJoinSubnet").is_empty() && kubevirt {
        add("100.66.0.0/16", "ipv4.v4InternalSubnet (default)");
    }
    let v6_join = match at("ipv6/internalJoinSubnet") {
        "" if kubevirt => "fd99::/64",
        other => other,
    };
    add(v6_join, "ipv6.internalJoinSubnet");
    add(
        at("ipv6/internalTransitSwitchSubnet"),
        "ipv6.internalTransitSwitchSubnet",
    );
    out
}

/// `validateNodePortPortRange`: an API server NodePort within
/// `spec.configuration.network.serviceNodePortRange` (default 30000-32767), or 0.
fn node_port(spec: &Value, invalid: &dyn Fn(&str, &str) -> Result<()>) -> Result<()> {
    let range = spec
        .pointer("/configuration/network/serviceNodePortRange")
        .and_then(Value::as_str)
        .filter(|r| !r.is_empty())
        .unwrap_or("30000-32767");
    let parsed = range
        .split_once('-')
        .and_then(|(a, b)| Some((a.parse::<i32>().ok()?, b.parse::<i32>().ok()?)))
        .filter(|(a, b)| a <= b);
    let Some((min, max)) = parsed else {
        return invalid(
            "spec.configuration.network.serviceNodePortRange",
            &format!("invalid ServiceNodePortRange format: {range:?}"),
        );
    };
    let services = spec.get("services").and_then(Value::as_array);
    for (i, svc) in services.into_iter().flatten().enumerate() {
        let strategy = &svc["servicePublishingStrategy"];
        if svc.get("service").and_then(Value::as_str) == Some("APIServer")
            && strategy.get("type").and_then(Value::as_str) == Some("NodePort")
            && let Some(port) = strategy.pointer("/nodePort/port").and_then(Value::as_i64)
            && port > 0
            && (port < i64::from(min) || port > i64::from(max))
        {
            invalid(
                &format!("spec.services[{i}].servicePublishingStrategy.nodePort.port"),
                &format!(
                    "port must be within the configured range {min}-{max} or 0 for dynamic assignment"
                ),
            )?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn refused(spec: &Value) -> Option<String> {
        check(spec, &|field, problem| anyhow::bail!("{field}: {problem}"))
            .err()
            .map(|e| format!("{e:#}"))
    }

    #[test]
    fn overlapping_or_mixed_networks_are_refused_and_the_defaults_pass() {
        let ok = json!({"networking": {"clusterNetwork": [{"cidr": "10.132.0.0/14"}], "serviceNetwork": [{"cidr": "172.31.0.0/16"}], "machineNetwork": [{"cidr": "10.0.0.0/16"}], "networkType": "OVNKubernetes"}});
        assert_eq!(refused(&ok), None);
        let overlap = json!({"networking": {"clusterNetwork": [{"cidr": "10.0.0.0/8"}], "machineNetwork": [{"cidr": "10.0.0.0/16"}]}});
        assert_eq!(
            refused(&overlap).as_deref(),
            Some(
                "spec.networking.machineNetwork[0].cidr: 10.0.0.0/16 and spec.networking.clusterNetwork[0].cidr (10.0.0.0/8) overlap"
            )
        );
        let mixed = json!({"networking": {"clusterNetwork": [{"cidr": "10.132.0.0/14"}], "serviceNetwork": [{"cidr": "fd02::/112"}]}});
        assert!(
            refused(&mixed).is_some_and(|e| e.starts_with("spec.networking: declare multiple"))
        );
        let advertise = json!({"networking": {"clusterNetwork": [{"cidr": "10.132.0.0/14"}], "serviceNetwork": [{"cidr": "172.20.0.0/16"}]}});
        assert!(refused(&advertise).is_some_and(|e| e.contains("advertise address 172.20.0.1")));
        let bad = json!({"networking": {"machineNetwork": [{"cidr": "nope"}]}});
        assert_eq!(
            refused(&bad).as_deref(),
            Some("spec.networking.machineNetwork[0].cidr: \"nope\" is not a CIDR")
        );
    }
}
