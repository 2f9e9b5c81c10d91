//! The install-config fields whose presence or feature gate depends on the release (the rows
//! of [`FIELDS`](super::installer_release::FIELDS), whether they change the cloud config, the
//! Infrastructure or both), checked against the installer of the release rendered
//! ([`InstallerRelease`]): a field that release's installer does not have is refused naming the
//! release that brings it (or the last one that read it), and a gated field whose gate the install-config's feature set leaves off is refused
//! as the installer refuses it (`pkg/types/validation/installconfig.go` `ValidateFeatureSet`
//! with the platforms' `GatedFeatures`: "this field is protected by the … feature gate").

use super::installer_release::{Field, InstallerRelease, Presence, row};
use super::platform::{Platform, is_dual_stack};
use super::vsphere::HOST_GROUP;
use super::{InstallConfig, VSphere, feature_gate::Selection};
use anyhow::{Result, bail};

/// A field the install-config sets: which, its value for messages (none for a section, GCP's
/// `endpoint`), and whether its gate matters (`userProvisionedDNS: Disabled` is not gated).
/// `ipFamily` counts only with a dual-stack value: `IPv4`, the default, is what every installer
/// does, with the field or without. An older installer decodes the install-config ignoring
/// the fields it does not know (after a warning), so it writes nothing for them; ccm-render
/// refuses them instead, so that a render never claims to be what that installer writes.
struct Set {
    field: Field,
    /// Where the field is, when its row's path names it in general (one failure domain of
    /// many).
    at: Option<String>,
    value: Option<String>,
    gated: bool,
}

/// The release-dependent fields `ic` sets: its platform's own, an on-premise platform's
/// `dnsRecordsType`, and the `arbiter` pool.
fn fields_set(ic: &InstallConfig) -> Vec<Set> {
    let mut out = platform_fields(&ic.platform);
    if let Some((at, v, _)) = ic.platform.vips()
        && !v.dns_records_type.is_empty()
    {
        out.push(Set {
            field: Field::OnPremDnsRecordsType,
            at: Some(format!("{at}.dnsRecordsType")),
            value: Some(v.dns_records_type.clone()),
            gated: v.dns_records_type == "External",
        });
    }
    // The installer refuses the section itself without the gate, whatever its replicas.
    if ic.arbiter_section {
        out.push(Set {
            field: Field::Arbiter,
            at: None,
            value: None,
            gated: true,
        });
    }
    out
}

/// The release-dependent fields of the platform section.
fn platform_fields(platform: &Platform) -> Vec<Set> {
    let set = |field, value: &str, gated| Set {
        field,
        at: None,
        value: Some(value.to_string()),
        gated,
    };
    let dns =
        |field, value: &str| (!value.is_empty()).then(|| set(field, value, value == "Enabled"));
    let mut out = Vec::new();
    match platform {
        Platform::Aws(p) => {
            out.extend(dns(Field::AwsUserProvisionedDns, &p.user_provisioned_dns));
            if p.region.starts_with("eusc-") {
                out.push(set(Field::AwsSovereignRegion, &p.region, true));
            }
            if is_dual_stack(&p.ip_family) {
                out.push(set(Field::AwsIpFamily, &p.ip_family, true));
            }
        }
        Platform::Azure(p) => {
            out.extend(dns(Field::AzureUserProvisionedDns, &p.user_provisioned_dns));
            if is_dual_stack(&p.ip_family) {
                out.push(set(Field::AzureIpFamily, &p.ip_family, true));
            }
            if let Some(at) = p.identity_at {
                out.push(Set {
                    field: Field::AzureIdentity,
                    at: Some(at.to_string()),
                    value: None,
                    gated: false,
                });
            }
            if !p.subnets.is_empty() {
                out.push(Set {
                    field: Field::AzureSubnets,
                    at: None,
                    value: None,
                    gated: false,
                });
            }
        }
        Platform::Gcp(p) => {
            out.extend(dns(Field::GcpUserProvisionedDns, &p.user_provisioned_dns));
            if let Some(first) = p.service_endpoints.first() {
                out.push(set(Field::GcpServiceEndpoints, &first.name, true));
            }
            if p.endpoint.is_some() {
                out.push(Set {
                    field: Field::GcpPscEndpoint,
                    at: None,
                    value: None,
                    gated: false,
                });
            }
            if !p.firewall_rules_management.is_empty() {
                out.push(set(
                    Field::GcpFirewallRulesManagement,
                    &p.firewall_rules_management,
                    false,
                ));
            }
        }
        Platform::VSphere(p) => {
            out.extend(host_group_zone(p));
            out.extend(failure_domain_types(p));
        }
        _ => {}
    }
    out
}

/// The `arbiter` pool where the release has it (installer `pkg/types/validation/installconfig.go`
/// `validateArbiter`, on the install-config with its defaults, which make an omitted
/// `replicas` 0): on the platforms of the release, with arbiter replicas, and at least 2
/// control-plane replicas.
fn check_arbiter(ic: &InstallConfig, release: InstallerRelease) -> Result<()> {
    let platform_ok = match &ic.platform {
        Platform::BareMetal(_) => true,
        Platform::External(_) | Platform::None => release.arbiter_on_external_and_none(),
        _ => false,
    };
    if !platform_ok {
        let supported = if release.arbiter_on_external_and_none() {
            "\"baremetal\", \"external\", \"none\""
        } else {
            "\"baremetal\""
        };
        bail!(
            "arbiter.platform: {:?}: supported values: {supported} (the installer of OpenShift {})",
            ic.platform.key(),
            release.name()
        );
    }
    if ic.arbiter_replicas == 0 {
        bail!("arbiter.replicas: 0: number of arbiter replicas must be positive");
    }
    if ic.control_plane_replicas < 2 {
        bail!(
            "controlPlane.replicas: {}: number of controlPlane replicas must be at least 2 for arbiter deployments",
            ic.control_plane_replicas
        );
    }
    Ok(())
}

/// vSphere's host-group zones (installer `pkg/types/vsphere/validation/featuregates.go`
/// `GatedFeatures`): the first failure domain with `zoneType: HostGroup` or a
/// `topology.hostGroup`, named by that field.
fn host_group_zone(p: &VSphere) -> Option<Set> {
    p.failure_domains.iter().enumerate().find_map(|(i, fd)| {
        let at = format!("platform.vsphere.failureDomains[{i}]");
        let (at, value) = if fd.zone_type == HOST_GROUP {
            (format!("{at}.zoneType"), &fd.zone_type)
        } else if !fd.topology.host_group.is_empty() {
            (format!("{at}.topology.hostGroup"), &fd.topology.host_group)
        } else {
            return None;
        };
        Some(Set {
            field: Field::VSphereHostGroupZone,
            at: Some(at),
            value: Some(value.clone()),
            gated: true,
        })
    })
}

/// vSphere's failure-domain types besides a host-group zone: the first failure domain with a
/// `regionType`, or a `zoneType` other than `HostGroup`, named by that field (the 4.18
/// installer has neither).
fn failure_domain_types(p: &VSphere) -> Option<Set> {
    p.failure_domains.iter().enumerate().find_map(|(i, fd)| {
        let at = format!("platform.vsphere.failureDomains[{i}]");
        let (at, value) = if !fd.region_type.is_empty() {
            (format!("{at}.regionType"), &fd.region_type)
        } else if !fd.zone_type.is_empty() && fd.zone_type != HOST_GROUP {
            (format!("{at}.zoneType"), &fd.zone_type)
        } else {
            return None;
        };
        Some(Set {
            field: Field::VSphereFailureDomainTypes,
            at: Some(at),
            value: Some(value.clone()),
            gated: false,
        })
    })
}

/// Checks the release-dependent fields of `ic` against the installer of `release`.
pub(crate) fn check(ic: &InstallConfig, release: InstallerRelease) -> Result<()> {
    for set in fields_set(ic) {
        check_one(&set, release, &ic.features)?;
    }
    if ic.arbiter_section {
        check_arbiter(ic, release)?;
    }
    // GCP's service endpoints at the releases that read them: their names and URLs by release.
    if let Platform::Gcp(p) = &ic.platform
        && matches!(
            release.presence(Field::GcpServiceEndpoints),
            Presence::Gated(_) | Presence::Free
        )
    {
        super::gcp_service_endpoints::check(p, release, "platform.gcp")?;
    }
    if let Platform::PowerVs(p) = &ic.platform {
        super::powervs_vpc::check(p, release)?;
    }
    // From 4.21 the installer converts Azure's single-subnet fields into `subnets` and checks
    // the list; before, it checks neither.
    if let Platform::Azure(p) = &ic.platform
        && release.presence(Field::AzureSubnets) == Presence::Free
    {
        super::azure_subnets::check(p, "platform.azure")?;
    }
    Ok(())
}

fn check_one(set: &Set, release: InstallerRelease, features: &Selection) -> Result<()> {
    let name = release.name();
    // `path: "value"`, or the path alone for a section.
    let at = set.at.as_deref().unwrap_or(row(set.field).path);
    let path = match &set.value {
        Some(value) => format!("{at}: {value:?}"),
        None => at.to_string(),
    };
    match release.presence(set.field) {
        Presence::NotYet { since } => bail!(
            "{path}: the installer of OpenShift {name} has no such field; it arrives in 4.{since} (render with --release 4.{since} or later, or leave the field out)"
        ),
        Presence::Gone { last } => bail!(
            "{path}: the installer of OpenShift {name} no longer reads this field (4.{last} was the last release that did: render with --release 4.{last}, or leave the field out)"
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
                "{path}: this field is protected by the {} feature gate, which at OpenShift {name} featureSet {} enables (or featureSet CustomNoUpgrade with featureGates [\"{}=true\"]); the install-config has {}",
                gate.name,
                sets.join(" or "),
                gate.name,
                features.describe()
            )
        }
        Presence::Gated(_) | Presence::Free => Ok(()),
    }
}
