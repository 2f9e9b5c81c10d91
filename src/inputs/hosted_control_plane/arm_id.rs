//! Azure resource IDs (`/subscriptions/S/resourceGroups/RG/providers/NAMESPACE/TYPE/NAME...`),
//! which a HostedControlPlane's Azure block gives for its network resources and HyperShift's
//! `azure/config.go` takes apart (`arm.ParseResourceID`, the resource type checked), read at the
//! input edge (`platform.rs`) so that the render gets the names.

/// What HyperShift reads from an ARM resource ID (Azure SDK `arm.ParseResourceID`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ArmId {
    /// The resource's name: the ID's last segment.
    pub(crate) name: String,
    /// Its resource group.
    pub(crate) resource_group: String,
}

/// Parses `/subscriptions/S/resourceGroups/RG/providers/NAMESPACE/TYPE/NAME[/TYPE/NAME...]`
/// and checks its resource type (case-insensitive, as HyperShift compares it).
pub(crate) fn parse(id: &str, want_type: &str) -> Result<ArmId, String> {
    let parts: Vec<&str> = id.trim_start_matches('/').split('/').collect();
    let bad = || format!("{id:?} is not an Azure resource ID of type {want_type}");
    if id.is_empty() || parts.len() < 8 || !parts[0].eq_ignore_ascii_case("subscriptions") {
        return Err(bad());
    }
    if !parts[2].eq_ignore_ascii_case("resourceGroups")
        || !parts[4].eq_ignore_ascii_case("providers")
    {
        return Err(bad());
    }
    let rest = &parts[6..];
    if !rest.len().is_multiple_of(2) || parts.iter().any(|p| p.is_empty()) {
        return Err(bad());
    }
    let types: Vec<&str> = rest.iter().step_by(2).copied().collect();
    if !types.join("/").eq_ignore_ascii_case(want_type) {
        return Err(format!(
            "{id:?}: invalid resource type {:?}, expected {want_type:?}",
            types.join("/")
        ));
    }
    Ok(ArmId {
        name: rest[rest.len() - 1].to_string(),
        resource_group: parts[3].to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arm_ids_give_their_name_and_resource_group_and_a_wrong_type_is_refused() {
        let id = parse("/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v/subnets/sn", "virtualNetworks/subnets")
            .expect("parses");
        assert_eq!((id.name.as_str(), id.resource_group.as_str()), ("sn", "rg"));
        let err = parse(
            "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v",
            "networkSecurityGroups",
        )
        .expect_err("wrong type");
        assert!(
            err.contains("invalid resource type \"virtualNetworks\""),
            "{err}"
        );
        assert!(parse("", "virtualNetworks").is_err());
    }
}
