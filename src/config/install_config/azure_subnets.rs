//! Azure's `subnets` (installer 4.21 on) and the deprecated `controlPlaneSubnet` and
//! `computeSubnet`: which subnet the cloud config names.
//!
//! Sources (openshift/installer `release-4.21` @ca5361f96f): `pkg/types/azure/platform.go`
//! (`Subnets []SubnetSpec`, each a `name` and a `role`, `node` or `control-plane`; the two
//! single-subnet fields deprecated), `pkg/types/conversion/installconfig.go` `convertAzure`
//! (the deprecated fields appended to `subnets`, control plane then compute, when the
//! install-config is loaded), `pkg/types/azure/validation/platform.go` (on that list: no name
//! twice, at most one control-plane subnet, no other role) and
//! `pkg/asset/manifests/cloudproviderconfig.go` (installer a9af27250b, PR #9773: `subnetName`
//! is the first subnet of role `node`, else `<infraID>-worker-subnet`). Before 4.21 the field
//! does not exist (`release_fields` refuses it) and `subnetName` is `computeSubnet`, which is
//! what the same rule gives for a list of the deprecated fields alone.

use super::types::{Azure, AzureSubnet as Subnet, AzureSubnetRole as Role};
use anyhow::{Result, bail};

/// The subnets as the 4.21 installer holds them after `convertAzure`: `subnets`, then
/// `controlPlaneSubnet` and `computeSubnet` when given.
fn converted(p: &Azure) -> Vec<Subnet> {
    let mut all = p.subnets.clone();
    for (name, role) in [
        (&p.control_plane_subnet, Role::ControlPlane),
        (&p.compute_subnet, Role::Node),
    ] {
        if !name.is_empty() {
            all.push(Subnet {
                name: name.clone(),
                role,
            });
        }
    }
    all
}

/// The installer's checks of the converted list (`validation/platform.go`, 4.21), and a name
/// for each of `subnets` (the cloud config would name an empty one).
pub(crate) fn check(p: &Azure, at: &str) -> Result<()> {
    if let Some(i) = p.subnets.iter().position(|s| s.name.is_empty()) {
        bail!("{at}.subnets[{i}].name: required");
    }
    let all = converted(p);
    for (i, subnet) in all.iter().enumerate() {
        if all[..i].iter().any(|other| other.name == subnet.name) {
            bail!(
                "{at}.subnets: {:?}: duplicate value for subnet name (controlPlaneSubnet and computeSubnet count as subnets of their role)",
                subnet.name
            );
        }
    }
    let control_planes = all.iter().filter(|s| s.role == Role::ControlPlane).count();
    if control_planes > 1 {
        bail!("{at}.subnets: CAPZ currently does not support multiple control plane subnets");
    }
    Ok(())
}

/// The cloud config's `subnetName`: the first subnet of role `node`, else the one the installer
/// creates.
pub(crate) fn node_subnet(p: &Azure, infra_id: &str) -> String {
    converted(p)
        .into_iter()
        .find(|s| s.role == Role::Node)
        .map_or_else(|| format!("{infra_id}-worker-subnet"), |s| s.name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn subnet(name: &str, role: Role) -> Subnet {
        Subnet {
            name: name.into(),
            role,
        }
    }

    #[test]
    fn the_first_node_subnet_wins_and_the_deprecated_field_comes_last() {
        let mut p = Azure::default();
        assert_eq!(node_subnet(&p, "c-x"), "c-x-worker-subnet");
        p.compute_subnet = "workers".into();
        assert_eq!(node_subnet(&p, "c-x"), "workers");
        p.subnets = vec![
            subnet("cp", Role::ControlPlane),
            subnet("nodes-a", Role::Node),
            subnet("nodes-b", Role::Node),
        ];
        assert_eq!(node_subnet(&p, "c-x"), "nodes-a");
        assert!(check(&p, "platform.azure").is_ok());
    }

    #[test]
    fn the_converted_list_is_checked_as_the_installer_checks_it() {
        let p = Azure {
            subnets: vec![subnet("cp", Role::ControlPlane)],
            control_plane_subnet: "cp2".into(),
            ..Azure::default()
        };
        let e = check(&p, "platform.azure").expect_err("two control planes");
        assert!(
            e.to_string().contains("multiple control plane subnets"),
            "{e}"
        );
        let p = Azure {
            subnets: vec![subnet("a", Role::Node)],
            compute_subnet: "a".into(),
            ..Azure::default()
        };
        let e = check(&p, "platform.azure").expect_err("twice");
        assert!(
            e.to_string()
                .starts_with("platform.azure.subnets: \"a\": duplicate"),
            "{e}"
        );
        let p = Azure {
            subnets: vec![subnet("", Role::Node)],
            ..Azure::default()
        };
        let e = check(&p, "platform.azure").expect_err("no name");
        assert_eq!(e.to_string(), "platform.azure.subnets[0].name: required");
    }

    #[test]
    fn roles_are_the_installers_two() {
        let role = |v: &str| serde_json::from_value::<Role>(serde_json::json!(v));
        assert_eq!(role("node").expect("node"), Role::Node);
        assert_eq!(role("control-plane").expect("cp"), Role::ControlPlane);
        let e = role("worker").expect_err("unknown");
        assert!(e.to_string().contains("supported values"), "{e}");
    }
}
