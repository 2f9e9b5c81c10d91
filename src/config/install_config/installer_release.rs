//! What the installer of each OpenShift release does differently with the install-config fields
//! that reach the `Infrastructure`: the fields a release has (a field a release's installer does
//! not know is refused naming the release that brings it, or the last one that had it), the
//! feature gate that guards a field at that release, and the shape of what it writes.
//!
//! Where each fact comes from (`openshift/installer`, `openshift/api`):
//! * The gates and their feature sets: `openshift/api` `features/features.go` on the branches
//!   `release-4.18` to `release-4.23` (`AWSClusterHostedDNS`, `GCPClusterHostedDNS` 4.18–4.21;
//!   `*ClusterHostedDNSInstall`, `GCPCustomAPIEndpointsInstall` from 4.20; `GCPClusterHostedDNSInstall`
//!   Default-on at 4.21 and gone from 4.22; `AzureClusterHostedDNSInstall` Default-on at 4.22 and
//!   gone from 4.23; `AWSDualStackInstall`, `AzureDualStackInstall` from 4.21,
//!   `AWSEuropeanSovereignCloudInstall` from 4.22, previews only; `AWSDualStackInstall` Default-on
//!   at 4.23 (the installer reads `ipFamily` from 4.22, installer
//!   PR #10207); `VSphereMultiNetworks` Default-on from 4.20;
//!   `OnPremDNSRecords` from 4.21, previews only). The installer checks each gated field against
//!   them (`pkg/types/{aws,azure,gcp}/validation/featuregates.go` `GatedFeatures`, "this field is
//!   protected by the … feature gate").
//! * The fields the Infrastructure carries: `openshift/api` `config/v1/types_infrastructure.go`
//!   on the same branches (GCP `serviceEndpoints` from 4.19, Azure `cloudLoadBalancerConfig`
//!   from 4.20, AWS and Azure `ipFamily` from 4.21), and the installer's own expectations,
//!   `pkg/asset/manifests/infrastructure_test.go` `TestGenerateInfrastructure`, in the versions
//!   the search index holds: the 4.19 version expects GCP `serviceEndpoints` in the status and
//!   vSphere VIPs (`/32`, `/128`) in the spec's and the status's `machineNetworks`, with the
//!   singular `apiServerInternalIP`/`ingressIP`, and no Azure `cloudLoadBalancerConfig` nor
//!   `ipFamily`; the version that expects `ipFamily` (so 4.22 or later) expects Azure's
//!   `cloudLoadBalancerConfig`, no GCP `serviceEndpoints`, vSphere's plural VIP lists only, the
//!   VIP networks added once each (installer PR #9743), and `nodeNetworking` from the machine
//!   networks under the
//!   Default set. `pkg/asset/manifests/infrastructure.go` of 4.18 (the version with AWS's
//!   `cloudLoadBalancerConfig` and no GCP `serviceEndpoints`) sets the vSphere status's
//!   `machineNetworks` from `networking.machineNetwork` alone; the VIPs were added to both by
//!   installer PR #9526 (OCPBUGS-36553, 4.19).
//!
//! Where the index holds no version of a release (4.20, 4.22, 4.23), the behaviour is the one of
//! the nearest release the facts above pin, and `docs/install-config.md` says so.

use anyhow::{Result, bail};

/// The fixed feature sets that enable a gate in the previews only.
const PREVIEWS: &[&str] = &["TechPreviewNoUpgrade", "DevPreviewNoUpgrade"];
/// Every fixed feature set (`""` is Default): a gate enabled in Default is also in OKD.
const FIXED: &[&str] = &["", "OKD", "TechPreviewNoUpgrade", "DevPreviewNoUpgrade"];

/// The oldest and newest release whose installer this module describes.
const OLDEST: u8 = 18;
const NEWEST: u8 = 23;

/// The installer of one OpenShift 4.x release.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct InstallerRelease {
    minor: u8,
}

impl Default for InstallerRelease {
    fn default() -> Self {
        Self { minor: NEWEST }
    }
}

/// A feature gate and the fixed feature sets that enable it at a release.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Gate {
    pub(crate) name: &'static str,
    pub(crate) sets: &'static [&'static str],
}

/// An install-config field whose presence or gate depends on the release.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Field {
    /// `platform.aws.userProvisionedDNS: Enabled`.
    AwsUserProvisionedDns,
    /// `platform.gcp.userProvisionedDNS: Enabled`.
    GcpUserProvisionedDns,
    /// `platform.azure.userProvisionedDNS`.
    AzureUserProvisionedDns,
    /// `platform.aws.ipFamily`.
    AwsIpFamily,
    /// `platform.azure.ipFamily`.
    AzureIpFamily,
    /// `platform.gcp.serviceEndpoints`.
    GcpServiceEndpoints,
    /// `platform.aws.region` in the AWS European Sovereign Cloud (`eusc-…`).
    AwsSovereignRegion,
}

/// What a release's installer does with a [`Field`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Presence {
    /// The release's installer has no such field yet; it arrives in `4.<since>`.
    NotYet { since: u8 },
    /// The release's installer no longer reads it; `4.<last>` was the last that did.
    Gone { last: u8 },
    /// Read, and guarded by a gate.
    Gated(Gate),
    /// Read, with no gate.
    Free,
}

impl InstallerRelease {
    /// The installer of release `name` (`X.Y`, as the release catalogue names it). A 4.x release
    /// newer than the ones described here (one `provider import` has just added) is derived as
    /// the newest described, until its installer's differences are recorded here.
    pub(crate) fn of(name: &str) -> Result<Self> {
        let minor = name
            .strip_prefix("4.")
            .and_then(|m| m.parse::<u8>().ok())
            .filter(|m| *m >= OLDEST);
        match minor {
            Some(minor) => Ok(Self {
                minor: minor.min(NEWEST),
            }),
            None => bail!(
                "release {name:?}: the install-config derivation knows the installers of 4.{OLDEST} to 4.{NEWEST}"
            ),
        }
    }

    /// `4.<minor>`.
    pub(crate) fn name(self) -> String {
        format!("4.{}", self.minor)
    }

    /// Status `ipFamily` for AWS and Azure: installer PR #10207 ("Install-config and Infra
    /// manifest updates for DualStack for AWS and Azure"), merged after the 4.21 branch; the
    /// AWS dual-stack install docs are for 4.22 (openshift-docs PR #111527).
    pub(crate) fn writes_ip_family(self) -> bool {
        self.minor >= 22
    }

    /// Azure's status `cloudLoadBalancerConfig.dnsType` (with `platform.azure.userProvisionedDNS`):
    /// Azure user-provisioned DNS is a Technology Preview of 4.21 and GA in 4.22 (OpenShift
    /// release notes, openshift-docs PRs #105026 and #110484).
    pub(crate) fn writes_azure_dns_type(self) -> bool {
        self.minor >= 21
    }

    /// GCP's status `serviceEndpoints`, copied from `platform.gcp.serviceEndpoints`.
    pub(crate) fn copies_gcp_service_endpoints(self) -> bool {
        (19..=20).contains(&self.minor)
    }

    /// vSphere: each API and Ingress VIP as a `/32` or `/128` network, appended to the spec's
    /// `machineNetworks` unless already there, which the status's `machineNetworks` then
    /// repeats: installer PR #9526 (OCPBUGS-36553) and its fix PR #9743 (OCPBUGS-56601, May
    /// 2025: the Infrastructure's validation rejects duplicates, `self.all(x, self.exists_one(y,
    /// x == y))`), so every release that appends the VIPs does so once each at its head.
    pub(crate) fn vsphere_vip_networks(self) -> bool {
        self.minor >= 19
    }

    /// vSphere: the status's deprecated `apiServerInternalIP` and `ingressIP` besides the lists.
    pub(crate) fn vsphere_singular_vips(self) -> bool {
        self.minor < 21
    }

    /// `VSphereMultiNetworks`, which makes the installer write `spec.platformSpec.vsphere.
    /// nodeNetworking`.
    pub(crate) fn vsphere_multi_networks(self) -> Gate {
        let sets = if self.minor >= 20 { FIXED } else { PREVIEWS };
        Gate {
            name: "VSphereMultiNetworks",
            sets,
        }
    }

    /// Whether the release's installer has `field`, and the gate that guards it.
    // Reads better whole: one arm per field, its history release by release.
    pub(crate) fn presence(self, field: Field) -> Presence {
        let m = self.minor;
        let gate = |name, sets| Presence::Gated(Gate { name, sets });
        match field {
            Field::AwsUserProvisionedDns => match m {
                ..=19 => gate("AWSClusterHostedDNS", PREVIEWS),
                20..=22 => gate("AWSClusterHostedDNSInstall", PREVIEWS),
                _ => gate("AWSClusterHostedDNSInstall", FIXED),
            },
            Field::GcpUserProvisionedDns => match m {
                ..=19 => gate("GCPClusterHostedDNS", PREVIEWS),
                20 => gate("GCPClusterHostedDNSInstall", PREVIEWS),
                21 => gate("GCPClusterHostedDNSInstall", FIXED),
                _ => Presence::Free,
            },
            Field::AzureUserProvisionedDns => match m {
                ..=20 => Presence::NotYet { since: 21 },
                21 => gate("AzureClusterHostedDNSInstall", PREVIEWS),
                22 => gate("AzureClusterHostedDNSInstall", FIXED),
                _ => Presence::Free,
            },
            Field::AwsIpFamily => match m {
                ..=21 => Presence::NotYet { since: 22 },
                22 => gate("AWSDualStackInstall", PREVIEWS),
                _ => gate("AWSDualStackInstall", FIXED),
            },
            Field::AzureIpFamily => match m {
                ..=21 => Presence::NotYet { since: 22 },
                _ => gate("AzureDualStackInstall", PREVIEWS),
            },
            // pkg/types/aws/validation/featuregates.go: `strings.HasPrefix(c.AWS.Region,
            // "eusc-")`, from the release whose openshift/api has the gate (4.22); the older
            // installers check no gate for it.
            Field::AwsSovereignRegion => match m {
                ..=21 => Presence::Free,
                _ => gate("AWSEuropeanSovereignCloudInstall", PREVIEWS),
            },
            Field::GcpServiceEndpoints => match m {
                ..=18 => Presence::NotYet { since: 19 },
                19 => gate("GCPCustomAPIEndpoints", PREVIEWS),
                20 => gate("GCPCustomAPIEndpointsInstall", PREVIEWS),
                _ => Presence::Gone { last: 20 },
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn releases_are_named_as_the_catalogue_names_them() {
        assert_eq!(InstallerRelease::of("4.21").expect("4.21").name(), "4.21");
        assert_eq!(InstallerRelease::default().name(), "4.23");
        assert_eq!(InstallerRelease::of("4.24").expect("newer").name(), "4.23");
        for bad in ["4.17", "5.0", "4", ""] {
            assert!(InstallerRelease::of(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn fields_arrive_and_leave_at_their_releases() {
        let at = |m: &str, f| InstallerRelease::of(m).expect("release").presence(f);
        assert_eq!(
            at("4.21", Field::AwsIpFamily),
            Presence::NotYet { since: 22 }
        );
        assert_eq!(
            at("4.18", Field::GcpServiceEndpoints),
            Presence::NotYet { since: 19 }
        );
        assert_eq!(
            at("4.21", Field::GcpServiceEndpoints),
            Presence::Gone { last: 20 }
        );
        assert_eq!(at("4.22", Field::GcpUserProvisionedDns), Presence::Free);
        assert_eq!(at("4.23", Field::AzureUserProvisionedDns), Presence::Free);
        assert_eq!(
            at("4.23", Field::AwsIpFamily),
            Presence::Gated(Gate {
                name: "AWSDualStackInstall",
                sets: FIXED
            })
        );
    }
}
