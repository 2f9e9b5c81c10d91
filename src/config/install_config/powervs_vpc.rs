//! PowerVS's `vpcName` as a VPC ID. From 4.20 (installer 160c2ed961, "Support VPC and TG ids",
//! on `OCPBUGS-74390-release-4.20`, not on `OCPBUGS-79002-release-4.19`) the field is "the name
//! or id of a pre-created VPC" (`pkg/types/powervs/platform.go`): the cloud config's generator
//! (`pkg/asset/manifests/cloudproviderconfig.go`) tries `GetVPCByID` first and writes the name of
//! the VPC it finds as `g2VpcName`. Offline that name is unknown, and the ID written instead
//! would name no VPC to the CCM, so an ID is refused from 4.20; 4.18 and 4.19 write the value as
//! given (a name), as ccm-render does.

use super::installer_release::InstallerRelease;
use super::types::PowerVs;
use anyhow::{Result, bail};

/// An IBM Cloud VPC ID: `r<3 digits>-<UUID>` (e.g. `r006-4727d842-f94f-4a2d-824a-9bc9b02c523b`).
fn is_vpc_id(value: &str) -> bool {
    let Some((prefix, uuid)) = value.split_once('-') else {
        return false;
    };
    let prefix_ok = prefix.len() == 4
        && prefix.starts_with('r')
        && prefix[1..].bytes().all(|b| b.is_ascii_digit());
    let groups: Vec<&str> = uuid.split('-').collect();
    let uuid_ok = groups.iter().map(|g| g.len()).eq([8, 4, 4, 4, 12])
        && groups.iter().all(|g| {
            g.bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        });
    prefix_ok && uuid_ok
}

/// Refuses a VPC ID in `vpcName` at the releases whose installer looks it up.
pub(crate) fn check(p: &PowerVs, release: InstallerRelease) -> Result<()> {
    if release.powervs_vpc_name_may_be_an_id() && is_vpc_id(&p.vpc_name) {
        bail!(
            "platform.powervs.vpcName: {:?}: a VPC ID, for which the installer of OpenShift {} writes the name of the VPC it looks up by that ID (g2VpcName); ccm-render cannot look it up offline: give the VPC's name",
            p.vpc_name,
            release.name()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const ID: &str = "r006-4727d842-f94f-4a2d-824a-9bc9b02c523b";

    #[test]
    fn a_vpc_id_is_told_from_a_name() {
        assert!(is_vpc_id(ID));
        for name in [
            "my-vpc",
            "r006-my-vpc",
            "vpc-c-x",
            "r06-4727d842-f94f-4a2d-824a-9bc9b02c523b",
            "",
        ] {
            assert!(!is_vpc_id(name), "{name}");
        }
    }

    #[test]
    fn a_vpc_id_is_refused_from_4_20_where_the_installer_looks_its_name_up() {
        let at = |r: &str| InstallerRelease::of(r).expect("a release");
        let p = PowerVs {
            vpc_name: ID.into(),
            ..PowerVs::default()
        };
        let err = format!("{:#}", check(&p, at("4.20")).expect_err("an ID"));
        assert!(
            err.starts_with(&format!(
                "platform.powervs.vpcName: {ID:?}: a VPC ID, for which the installer of OpenShift 4.20"
            )),
            "{err}"
        );
        assert!(check(&p, at("4.19")).is_ok());
        let named = PowerVs {
            vpc_name: "my-vpc".into(),
            ..PowerVs::default()
        };
        assert!(check(&named, at("4.23")).is_ok());
    }
}
