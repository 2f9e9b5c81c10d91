//! The install-config fields whose presence or feature gate depends on the release, checked
//! against the installer of the release rendered ([`InstallerRelease`]): a field that release's
//! installer does not have is refused naming the release that brings it (or the last one that
//! read it), and a gated field whose gate the install-config's feature set leaves off is refused
//! as the installer refuses it (`pkg/types/validation/installconfig.go` `ValidateFeatureSet`
//! with the platforms' `GatedFeatures`: "this field is protected by the … feature gate").

use super::installer_release::{Field, InstallerRelease, Presence};
use super::platform::{Platform, is_dual_stack};
use super::{InstallConfig, feature_gate::Selection};
use anyhow::{Result, bail};

/// A field the install-config sets: its path, its value for messages, and whether its gate
/// matters (`userProvisionedDNS: Disabled` is not gated). `ipFamily` counts only with a
/// dual-stack value: `IPv4`, the default, is what every installer does, with the field or
/// without.
struct Set {
    field: Field,
    path: String,
    value: String,
    gated: bool,
}

/// The release-dependent fields `ic` sets.
fn fields_set(ic: &InstallConfig) -> Vec<Set> {
    let set = |field, path: &str, value: &str, gated| Set {
        field,
        path: path.to_string(),
        value: value.to_string(),
        gated,
    };
    let dns = |field, path: &str, value: &str| {
        (!value.is_empty()).then(|| set(field, path, value, value == "Enabled"))
    };
    let mut out = Vec::new();
    match &ic.platform {
        Platform::Aws(p) => {
            out.extend(dns(
                Field::AwsUserProvisionedDns,
                "platform.aws.userProvisionedDNS",
                &p.user_provisioned_dns,
            ));
            if p.region.starts_with("eusc-") {
                out.push(set(
                    Field::AwsSovereignRegion,
                    "platform.aws.region",
                    &p.region,
                    true,
                ));
            }
            if is_dual_stack(&p.ip_family) {
                out.push(set(
                    Field::AwsIpFamily,
                    "platform.aws.ipFamily",
                    &p.ip_family,
                    true,
                ));
            }
        }
        Platform::Azure(p) => {
            out.extend(dns(
                Field::AzureUserProvisionedDns,
                "platform.azure.userProvisionedDNS",
                &p.user_provisioned_dns,
            ));
            if is_dual_stack(&p.ip_family) {
                out.push(set(
                    Field::AzureIpFamily,
                    "platform.azure.ipFamily",
                    &p.ip_family,
                    true,
                ));
            }
        }
        Platform::Gcp(p) => {
            out.extend(dns(
                Field::GcpUserProvisionedDns,
                "platform.gcp.userProvisionedDNS",
                &p.user_provisioned_dns,
            ));
            if let Some(first) = p.service_endpoints.first() {
                out.push(set(
                    Field::GcpServiceEndpoints,
                    "platform.gcp.serviceEndpoints",
                    &first.name,
                    true,
                ));
            }
        }
        _ => {}
    }
    out
}

/// Checks the release-dependent fields of `ic` against the installer of `release`.
pub(crate) fn check(ic: &InstallConfig, release: InstallerRelease) -> Result<()> {
    for set in fields_set(ic) {
        check_one(&set, release, &ic.features)?;
    }
    Ok(())
}

fn check_one(set: &Set, release: InstallerRelease, features: &Selection) -> Result<()> {
    let (path, value, name) = (&set.path, &set.value, release.name());
    match release.presence(set.field) {
        Presence::NotYet { since } => bail!(
            "{path}: {value:?}: the installer of OpenShift {name} has no such field; it arrives in 4.{since} (render with --release 4.{since} or later, or leave the field out)"
        ),
        Presence::Gone { last } => bail!(
            "{path}: {value:?}: the installer of OpenShift {name} no longer reads this field (4.{last} was the last release that did: render with --release 4.{last}, or leave the field out)"
        ),
        Presence::Gated(gate) if set.gated && !features.is_enabled(gate.name, gate.sets) => {
            let sets: Vec<&str> = gate
                .sets
                .iter()
                .map(|set| {
                    if set.is_empty() {
                        "Default (no featureSet)"
                    } else {
                        set
                    }
                })
                .collect();
            bail!(
                "{path}: {value:?}: this field is protected by the {} feature gate, which at OpenShift {name} featureSet {} enables (or featureSet CustomNoUpgrade with featureGates [\"{}=true\"]); the install-config has {}",
                gate.name,
                sets.join(" or "),
                gate.name,
                features.describe()
            )
        }
        Presence::Gated(_) | Presence::Free => Ok(()),
    }
}
