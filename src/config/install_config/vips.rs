//! The VIP lists of the on-premise platforms (vSphere, bare metal, OpenStack, Nutanix, ...).
//!
//! Source: installer `pkg/types/validation/installconfig.go` (`validateVIPsForPlatform`,
//! `validateAPIAndIngressVIPs`, `ensureIPv4IsFirstInDualStackSlice`, `ValidateIPinMachineCIDR`),
//! the version whose VIP checks know the `UserManaged` load balancer (every release from 4.18).

use super::net;
use super::types::Vips;
use anyhow::{Context as _, Result, bail};
use std::net::IpAddr;

/// The VIP lists: deprecated single values converted, each an IP address, and the lists given
/// together (`pkg/types/validation/installconfig.go` validateVIPsForPlatform).
pub(super) fn vips(p: &mut Vips, at: &str, required: bool) -> Result<()> {
    // upconvertVIP: the single value fills an empty list, and must be in a given one.
    for (single, list, old, new) in [
        (&p.api_vip, &mut p.api_vips, "apiVIP", "apiVIPs"),
        (
            &p.ingress_vip,
            &mut p.ingress_vips,
            "ingressVIP",
            "ingressVIPs",
        ),
    ] {
        if single.is_empty() {
            continue;
        }
        if list.is_empty() {
            *list = vec![single.clone()];
        } else if !list.contains(single) {
            bail!(
                "{at}.{old}: {single:?} is not in {at}.{new}: {old} is deprecated; give only {new}"
            );
        }
    }
    for (field, list) in [("apiVIPs", &p.api_vips), ("ingressVIPs", &p.ingress_vips)] {
        for (i, vip) in list.iter().enumerate() {
            net::parse_ip(vip).with_context(|| format!("{at}.{field}[{i}]"))?;
        }
    }
    if required && p.api_vips.is_empty() {
        bail!("{at}.apiVIPs: required");
    }
    if p.api_vips.is_empty() != p.ingress_vips.is_empty() {
        let missing = if p.api_vips.is_empty() {
            "apiVIPs"
        } else {
            "ingressVIPs"
        };
        bail!("{at}.{missing}: required when the other VIP list is set");
    }
    if let Some(lb) = &p.load_balancer
        && !matches!(lb.kind.as_str(), "OpenShiftManagedDefault" | "UserManaged")
    {
        bail!(
            "{at}.loadBalancer.type: {:?}: supported values: \"OpenShiftManagedDefault\", \"UserManaged\"",
            lb.kind
        );
    }
    // `dnsRecordsType` (4.21 on; `super::release_fields` refuses it before): openshift/api's
    // `DNSRecordsType` enum, and `External` only with a user-managed load balancer
    // (`pkg/types/*/validation/platform.go` on release-4.21).
    match p.dns_records_type.as_str() {
        "" | "Internal" => {}
        "External" => {
            let user_managed = p
                .load_balancer
                .as_ref()
                .is_some_and(|lb| lb.kind == "UserManaged");
            if !user_managed {
                bail!(
                    "{at}.dnsRecordsType: \"External\": external DNS records can only be configured with user-managed loadbalancers ({at}.loadBalancer.type: UserManaged)"
                );
            }
        }
        other => {
            bail!("{at}.dnsRecordsType: {other:?}: supported values: \"Internal\", \"External\"")
        }
    }
    Ok(())
}

/// The installer's checks of a VIP platform's lists against each other and the machine
/// networks (`validateVIPsForPlatform`): at most two of each, two only as one IPv4 and one IPv6
/// address (Nutanix puts the IPv4 one first), one VIP of the machine networks' primary family
/// on a dual-stack network, and unless the load balancer is `UserManaged` no API VIP among the
/// Ingress VIPs and, on bare metal and OpenStack, every VIP in a machine network (vSphere asks
/// that only of agent installs, Nutanix never).
pub(super) fn check_against(
    at: &str,
    v: &Vips,
    in_machine_networks: bool,
    machine_networks: &[String],
) -> Result<()> {
    let user_managed = v
        .load_balancer
        .as_ref()
        .is_some_and(|lb| lb.kind == "UserManaged");
    for (field, list, name) in [
        ("apiVIPs", &v.api_vips, "API"),
        ("ingressVIPs", &v.ingress_vips, "Ingress"),
    ] {
        check_list(&format!("{at}.{field}"), list, name, machine_networks)?;
        if user_managed {
            continue;
        }
        if field == "apiVIPs"
            && let Some(vip) = list
                .iter()
                .find(|vip| v.ingress_vips.iter().any(|ingress| same_ip(vip, ingress)))
        {
            bail!("{at}.apiVIPs: {vip:?}: VIP for API must not be one of the Ingress VIPs");
        }
        if in_machine_networks
            && let Some(vip) = list.iter().find(|vip| !in_any(vip, machine_networks))
        {
            bail!(
                "{at}.{field}: {vip:?}: IP expected to be in one of the machine networks: {}",
                machine_networks.join(",")
            );
        }
    }
    Ok(())
}

/// One list: at most two, two of different families, one of the primary family.
fn check_list(path: &str, list: &[String], name: &str, machine_networks: &[String]) -> Result<()> {
    let ips: Vec<IpAddr> = list.iter().filter_map(|vip| vip.parse().ok()).collect();
    match ips.as_slice() {
        [] => Ok(()),
        [one] => {
            let families: Vec<bool> = machine_networks
                .iter()
                .filter_map(|cidr| net::parse_cidr(cidr).ok())
                .map(|c| c.is_ipv6())
                .collect();
            let dual = families.contains(&true) && families.contains(&false);
            if dual && families.first() != Some(&one.is_ipv6()) {
                bail!(
                    "{path}: {:?}: VIP for the {name} must be of the same IP family with machine network's primary IP Family for dual-stack IPv4/IPv6",
                    list[0]
                );
            }
            Ok(())
        }
        [a, b] if a.is_ipv6() != b.is_ipv6() => Ok(()),
        [_, _] => bail!(
            "{path}: {list:?}: If two {name} VIPs are given, one must be an IPv4 address, the other an IPv6"
        ),
        more => bail!("{path}: must have at most 2 items (has {})", more.len()),
    }
}

/// `net.IP.Equal`: the same address however written.
fn same_ip(a: &str, b: &str) -> bool {
    matches!((a.parse::<IpAddr>(), b.parse::<IpAddr>()), (Ok(a), Ok(b)) if a == b)
}

fn in_any(vip: &str, machine_networks: &[String]) -> bool {
    let Ok(ip) = vip.parse::<IpAddr>() else {
        return false;
    };
    machine_networks
        .iter()
        .filter_map(|cidr| net::parse_cidr(cidr).ok())
        .any(|cidr| cidr.contains(ip))
}

/// `ensureIPv4IsFirstInDualStackSlice` (Nutanix): an IPv6-first pair is swapped, as the
/// installer's validation does in place before the Infrastructure is written.
pub(super) fn ipv4_first(list: &mut [String]) {
    if let [a, b] = list
        && a.contains(':')
        && !b.contains(':')
    {
        std::mem::swap(a, b);
    }
}
