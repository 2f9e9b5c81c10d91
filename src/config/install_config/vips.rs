//! The VIP lists of the on-premise platforms (vSphere, bare metal, OpenStack, Nutanix, ...).

use super::net;
use super::types::Vips;
use anyhow::{Context as _, Result, bail};

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
    Ok(())
}
