//! What the installer of each OpenShift release does differently with the install-config fields
//! that reach the cloud config and the `Infrastructure`: the fields a release has (one table,
//! [`FIELDS`]; a field a release's installer does not know is refused naming the release that
//! brings it, or the last one that had it), the feature gate that guards a field at that
//! release, and the shape of what it writes (the cloud config generators' and the
//! Infrastructure's differences, one method each).
//!
//! Where each fact comes from (`openshift/installer`, `openshift/api`):
//! * The gates and their feature sets: `openshift/api` `features/features.go` on the branches
//!   `release-4.18` to `release-4.23` (`AWSClusterHostedDNS`, `GCPClusterHostedDNS` 4.18–4.21;
//!   `*ClusterHostedDNSInstall`, `GCPCustomAPIEndpointsInstall` from 4.20 (the 4.20 installer
//!   checks `AzureClusterHostedDNSInstall`, `pkg/types/azure/validation/featuregates.go` on
//!   `OCPBUGS-74390-release-4.20`); `GCPClusterHostedDNSInstall`
//!   Default-on at 4.21 and gone from 4.22; `AzureClusterHostedDNSInstall` Default-on at 4.22 and
//!   gone from 4.23; `AWSDualStackInstall`, `AzureDualStackInstall` from 4.21,
//!   `AWSEuropeanSovereignCloudInstall` from 4.22, previews only; `AWSDualStackInstall` Default-on
//!   at 4.23 (the installer reads `ipFamily` from 4.22, installer
//!   PR #10207); `VSphereMultiNetworks` Default-on from 4.20;
//!   `OnPremDNSRecords` from 4.21, previews only; `VSphereHostVMGroupZonal` previews only to
//!   4.21, every fixed set from 4.22). The installer checks each gated field against
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
use ccm_catalogue::releases::data::Version;

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

/// An install-config field whose presence or gate depends on the release: one row of
/// [`FIELDS`].
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
    /// `platform.gcp.endpoint` (Private Service Connect).
    GcpPscEndpoint,
    /// `platform.gcp.firewallRulesManagement`.
    GcpFirewallRulesManagement,
    /// `platform.aws.region` in the AWS European Sovereign Cloud (`eusc-…`).
    AwsSovereignRegion,
    /// `platform.azure.subnets`.
    AzureSubnets,
    /// A machine pool's `platform.azure.identity` (`defaultMachinePlatform`, `compute[0]`,
    /// `controlPlane`).
    AzureIdentity,
    /// `platform.vsphere.failureDomains[].zoneType: HostGroup`, or a `topology.hostGroup`.
    VSphereHostGroupZone,
    /// `platform.vsphere.failureDomains[].regionType`, or a `zoneType` other than `HostGroup`.
    VSphereFailureDomainTypes,
    /// The `arbiter` machine pool.
    Arbiter,
    /// `platform.{baremetal,openstack,vsphere,nutanix}.dnsRecordsType`.
    OnPremDnsRecordsType,
}

/// Which derived objects a release-dependent field changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Changes {
    /// The `cloud-provider-config` ConfigMap only.
    CloudConfig,
    /// The `Infrastructure` only.
    Infrastructure,
    /// Both.
    Both,
    /// Neither: the field is read (and refused where the release has it not), but what that
    /// installer writes is the same with it or without it.
    Nothing,
}

impl Changes {
    /// As `docs/install-config.md`'s table names the objects.
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Self::CloudConfig => "cloud config",
            Self::Infrastructure => "Infrastructure",
            Self::Both => "cloud config, Infrastructure",
            Self::Nothing => "nothing",
        }
    }
}

/// From release `4.<from>` on (until the next [`Since`] of the row), the field is read, under
/// `gate` when there is one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Since {
    pub(crate) from: u8,
    pub(crate) gate: Option<Gate>,
}

/// One release-dependent install-config field: its path, what it changes, its gate release by
/// release from the one that brings it, and the last release that reads it when a later one
/// dropped it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Row {
    pub(crate) field: Field,
    /// As errors and the docs name it.
    pub(crate) path: &'static str,
    pub(crate) changes: Changes,
    /// Oldest first; the first `from` is the release that brings the field.
    pub(crate) history: &'static [Since],
    /// The last release that reads it, when a later one no longer does.
    pub(crate) until: Option<u8>,
}

impl Row {
    /// The release that brings the field.
    pub(crate) fn from(&self) -> u8 {
        self.history.first().map_or(OLDEST, |s| s.from)
    }
}

const fn since(from: u8) -> Since {
    Since { from, gate: None }
}

const fn gated(from: u8, name: &'static str, sets: &'static [&'static str]) -> Since {
    Since {
        from,
        gate: Some(Gate { name, sets }),
    }
}

/// Every install-config field whose presence or gate depends on the release: the one table the
/// install-config's release checks (`release_fields`) and `docs/install-config.md` read. The
/// module's header says where each fact comes from; the cloud config's own (GCP's Private
/// Service Connect `endpoint`, PR #9991, which from d0ba8fcb99, PR #9992, changes neither object,
/// and `firewallRulesManagement`, PR #10018, both on `release-4.21` and not before; AWS's
/// `NodeIPFamilies`, PR #10257, with `ipFamily` from 4.22) are in `gcp.rs` and
/// `cloud_provider_config.rs`.
pub(crate) const FIELDS: &[Row] = &[
    Row {
        field: Field::AwsUserProvisionedDns,
        path: "platform.aws.userProvisionedDNS",
        changes: Changes::Infrastructure,
        history: &[
            gated(18, "AWSClusterHostedDNS", PREVIEWS),
            gated(20, "AWSClusterHostedDNSInstall", PREVIEWS),
            gated(23, "AWSClusterHostedDNSInstall", FIXED),
        ],
        until: None,
    },
    Row {
        field: Field::GcpUserProvisionedDns,
        path: "platform.gcp.userProvisionedDNS",
        changes: Changes::Infrastructure,
        history: &[
            gated(18, "GCPClusterHostedDNS", PREVIEWS),
            gated(20, "GCPClusterHostedDNSInstall", PREVIEWS),
            gated(21, "GCPClusterHostedDNSInstall", FIXED),
            since(22),
        ],
        until: None,
    },
    Row {
        field: Field::AzureUserProvisionedDns,
        path: "platform.azure.userProvisionedDNS",
        changes: Changes::Infrastructure,
        history: &[
            gated(20, "AzureClusterHostedDNSInstall", PREVIEWS),
            gated(22, "AzureClusterHostedDNSInstall", FIXED),
            since(23),
        ],
        until: None,
    },
    Row {
        field: Field::AwsIpFamily,
        path: "platform.aws.ipFamily",
        changes: Changes::Both,
        history: &[
            gated(22, "AWSDualStackInstall", PREVIEWS),
            gated(23, "AWSDualStackInstall", FIXED),
        ],
        until: None,
    },
    // pkg/types/azure/platform.go on release-4.21 (installer a9af27250b, PR #9773); the 4.20
    // branch's Platform has no such field.
    Row {
        field: Field::AzureSubnets,
        path: "platform.azure.subnets",
        changes: Changes::CloudConfig,
        history: &[since(21)],
        until: None,
    },
    // pkg/types/azure/machinepool.go: `Identity *VMIdentity` on OCPBUGS-79002-release-4.19
    // (@34f7e1e355), not on release-4.18 (@9094202399), whose cloud config always sets
    // `useManagedIdentityExtension` (from 4.19 it follows `CreateAzureIdentity()`, installer
    // 7e30b7d6b421; release-4.19's azure/cloudproviderconfig_test.go expects `false` for a
    // config that creates none, release-4.18's `true`).
    Row {
        field: Field::AzureIdentity,
        path: "platform.azure.defaultMachinePlatform.identity",
        changes: Changes::CloudConfig,
        history: &[since(19)],
        until: None,
    },
    Row {
        field: Field::AzureIpFamily,
        path: "platform.azure.ipFamily",
        changes: Changes::Infrastructure,
        history: &[gated(22, "AzureDualStackInstall", PREVIEWS)],
        until: None,
    },
    // pkg/types/aws/validation/featuregates.go: `strings.HasPrefix(c.AWS.Region, "eusc-")`,
    // from the release whose openshift/api has the gate (4.22); the older installers check no
    // gate for it.
    Row {
        field: Field::AwsSovereignRegion,
        path: "platform.aws.region",
        changes: Changes::Infrastructure,
        history: &[
            since(18),
            gated(22, "AWSEuropeanSovereignCloudInstall", PREVIEWS),
        ],
        until: None,
    },
    // pkg/types/vsphere/validation/featuregates.go: a failure domain with `zoneType:
    // HostGroup` or a `topology.hostGroup`; openshift/api `release-4.19` to `release-4.21`
    // enable the gate in the previews, `release-4.22` on in every fixed set. The fields arrive
    // with the 4.19 installer (pkg/types/vsphere/platform.go, installer a17d6efb58; not on
    // release-4.18 @9094202399, whose vsphere/infrastructure.go writes no affinity).
    Row {
        field: Field::VSphereHostGroupZone,
        path: "platform.vsphere.failureDomains[].zoneType",
        changes: Changes::Infrastructure,
        history: &[
            gated(19, "VSphereHostVMGroupZonal", PREVIEWS),
            gated(22, "VSphereHostVMGroupZonal", FIXED),
        ],
        until: None,
    },
    // The same change: `regionType` (and a `zoneType` other than HostGroup), read with no gate.
    Row {
        field: Field::VSphereFailureDomainTypes,
        path: "platform.vsphere.failureDomains[].regionType",
        changes: Changes::Infrastructure,
        history: &[since(19)],
        until: None,
    },
    // pkg/types/installconfig.go: no `Arbiter` on release-4.18 (@9094202399), `Arbiter` on
    // OCPBUGS-79002-release-4.19 (@34f7e1e355); pkg/types/validation/installconfig.go refuses
    // the section unless HighlyAvailableArbiter is on up to release-4.21 (@6285755d19) and
    // checks no gate on the master of 4.22 (@8e014ada25). openshift/api enables the gate in the
    // previews at release-4.19, in Default too at release-4.20 and release-4.21, and has no such
    // gate from release-4.22.
    Row {
        field: Field::Arbiter,
        path: "arbiter",
        changes: Changes::Infrastructure,
        history: &[
            gated(19, "HighlyAvailableArbiter", PREVIEWS),
            gated(20, "HighlyAvailableArbiter", FIXED),
            since(22),
        ],
        until: None,
    },
    // pkg/types/{baremetal,openstack,vsphere,nutanix}/platform.go on release-4.21 (installer
    // 8f91fb56a4, PR #9924), not on the 4.20 branch; `External` gated by OnPremDNSRecords
    // (`pkg/types/*/validation/featuregates.go`), which openshift/api release-4.21 to
    // release-4.23 enable in the previews.
    Row {
        field: Field::OnPremDnsRecordsType,
        path: "platform.{baremetal,openstack,vsphere,nutanix}.dnsRecordsType",
        changes: Changes::Infrastructure,
        history: &[gated(21, "OnPremDNSRecords", PREVIEWS)],
        until: None,
    },
    Row {
        field: Field::GcpServiceEndpoints,
        path: "platform.gcp.serviceEndpoints",
        changes: Changes::Both,
        history: &[
            gated(19, "GCPCustomAPIEndpoints", PREVIEWS),
            gated(20, "GCPCustomAPIEndpointsInstall", PREVIEWS),
        ],
        until: Some(20),
    },
    Row {
        field: Field::GcpPscEndpoint,
        path: "platform.gcp.endpoint",
        changes: Changes::Nothing,
        history: &[since(21)],
        until: None,
    },
    Row {
        field: Field::GcpFirewallRulesManagement,
        path: "platform.gcp.firewallRulesManagement",
        changes: Changes::CloudConfig,
        history: &[since(21)],
        until: None,
    },
];

/// One release-dependent field as `docs/install-config.md`'s table states it: the row's Object
/// and From columns and the gates its "What it changes" names (`tests/it/install_config.rs`
/// holds the table to [`FIELDS`] through [`docs_rows`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocsRow {
    /// The field's path, the table's Field column's first code span.
    pub path: &'static str,
    /// `cloud config`, `Infrastructure`, or both.
    pub object: &'static str,
    /// `4.<from>`, or `4.<from> to 4.<until> (refused from 4.<until + 1>)`.
    pub from: String,
    /// Every gate that guards the field at some release.
    pub gates: Vec<&'static str>,
}

/// [`FIELDS`] as `docs/install-config.md` states them.
pub fn docs_rows() -> Vec<DocsRow> {
    FIELDS
        .iter()
        .map(|row| {
            let from = match row.until {
                Some(last) => format!("4.{} to 4.{last} (refused from 4.{})", row.from(), last + 1),
                None => format!("4.{}", row.from()),
            };
            let mut gates: Vec<&'static str> = Vec::new();
            for gate in row.history.iter().filter_map(|s| s.gate) {
                if !gates.contains(&gate.name) {
                    gates.push(gate.name);
                }
            }
            DocsRow {
                path: row.path,
                object: row.changes.describe(),
                from,
                gates,
            }
        })
        .collect()
}

/// The row of `field`.
pub(crate) fn row(field: Field) -> &'static Row {
    FIELDS
        .iter()
        .find(|r| r.field == field)
        .unwrap_or_else(|| unreachable!("every Field has its row in FIELDS: {field:?}"))
}

/// The control-plane topology rule of one release's `determineTopologies`
/// (`pkg/asset/manifests/topologies.go`); the infrastructure topology follows the same rule at
/// every release (1 worker in total: SingleReplica; 2 or more: HighlyAvailable; none: the
/// control plane's, HighlyAvailable for DualReplica and HighlyAvailableArbiter).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TopologyRule {
    /// release-4.18 (@9094202399): fewer than 3 control-plane replicas is SingleReplica, else
    /// HighlyAvailable; no DualReplica, no arbiter.
    Of4_18,
    /// OCPBUGS-79002-release-4.19 (@34f7e1e355; installer 0858ed4d4b, 15f5874a21): 2 replicas
    /// is DualReplica, or HighlyAvailableArbiter with arbiter replicas; fewer is SingleReplica;
    /// 3 or more is HighlyAvailable, arbiter or not.
    Of4_19,
    /// From OCPBUGS-74390-release-4.20 (@e473406c3e; installer c5f3c48a03), unchanged on
    /// release-4.21 and master: 1 is SingleReplica, 2 DualReplica, more HighlyAvailable, and 2
    /// or more with arbiter replicas HighlyAvailableArbiter.
    From4_20,
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

    /// The release as the catalogue's [`Version`] (`4.<minor>`), for the generators that
    /// compare releases themselves (vSphere's cloud config form, `vsphere_yaml::form`).
    pub(crate) fn version(self) -> Version {
        Version::new(4, u32::from(self.minor))
    }

    /// GCP's cloud config template of 4.18 (installer 14cd7a64e088, as
    /// openshift/installer-aro-wrapper vendors it on `release-4.18`): `network-project-id` on a
    /// template line of its own, so a config without one ends with two blank lines.
    pub(crate) fn gcp_network_project_line_of_its_own(self) -> bool {
        self.minor <= 18
    }

    /// Azure's cloud config generator of 4.18 (same vendored installer): the managed identity
    /// on everywhere but on Azure Stack Hub, where `loadBalancerSku` is `basic`; from 4.19
    /// (installer 7e30b7d6b421) the identity follows `CreateAzureIdentity()`.
    pub(crate) fn azure_generator_of_4_18(self) -> bool {
        self.minor <= 18
    }

    /// GCP's cloud config ends with `firewall-rules-management` from 4.21 (installer
    /// 68b41666fa, PR #10018, an ancestor of `release-4.21`, not of the 4.20 branch; the
    /// release-4.21 `gcp/cloudproviderconfig_test.go` expects the line in every case).
    pub(crate) fn gcp_firewall_rules_management_line(self) -> bool {
        self.minor >= 21
    }

    /// PowerVS's cloud config template has an `rmEndpointOverride` line from 4.19: the 4.18
    /// template (`powervs/cloudproviderconfig.go` as openshift/installer-aro-wrapper vendors it
    /// on `release-4.18`, installer 14cd7a64e088) ends at `rcEndpointOverride`.
    pub(crate) fn powervs_rm_endpoint_line(self) -> bool {
        self.minor >= 19
    }

    /// PowerVS `vpcName` may be a VPC's ID from 4.20 (installer 160c2ed961, "Support VPC and TG
    /// ids", on `OCPBUGS-74390-release-4.20`, not on `OCPBUGS-79002-release-4.19`): the cloud
    /// config's `g2VpcName` is then the name of the VPC `GetVPCByID` finds.
    pub(crate) fn powervs_vpc_name_may_be_an_id(self) -> bool {
        self.minor >= 20
    }

    /// Status `ipFamily` for AWS and Azure: installer PR #10207 ("Install-config and Infra
    /// manifest updates for DualStack for AWS and Azure"), merged after the 4.21 branch; the
    /// AWS dual-stack install docs are for 4.22 (openshift-docs PR #111527).
    pub(crate) fn writes_ip_family(self) -> bool {
        self.minor >= 22
    }

    /// Azure's status `cloudLoadBalancerConfig.dnsType` (with `platform.azure.userProvisionedDNS`):
    /// installer dbba6e304f (PR #9861, 2025-08-05), an ancestor of the 4.20 branch
    /// (`OCPBUGS-74390-release-4.20`) and not of 4.19's, whose `infrastructure_test.go` expects
    /// it in every Azure case; `pkg/types/azure/validation/featuregates.go` there gates
    /// `Enabled` by `AzureClusterHostedDNSInstall`, which openshift/api `release-4.20` enables
    /// in the previews.
    pub(crate) fn writes_azure_dns_type(self) -> bool {
        self.minor >= 20
    }

    /// GCP's `serviceEndpoints` URLs go through `FormatGCPEndpoint` at 4.20 (installer
    /// abc661e5f4, PR #9535, on `OCPBUGS-74390-release-4.20`; 4.19 writes them as given and
    /// sorts the status's by name; `gcp_service_endpoints`).
    pub(crate) fn gcp_formats_service_endpoints(self) -> bool {
        self.minor >= 20
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

    /// vSphere: the status's deprecated `apiServerInternalIP` and `ingressIP` besides the lists,
    /// which installer PR #9526 (b9309ad2ef, on release-4.19) stopped writing for vSphere.
    pub(crate) fn vsphere_singular_vips(self) -> bool {
        self.minor < 19
    }

    /// The on-premise platforms' status `dnsRecordsType` (`Internal` by default): installer
    /// 8f91fb56a4 (PR #9924), on release-4.21 (@ca5361f96f, @6285755d19), not on the 4.20 branch
    /// (@e473406c3e), whose types have no such field.
    pub(crate) fn writes_dns_records_type(self) -> bool {
        self.minor >= 21
    }

    /// vSphere's default failure-domain template at 4.18, `/<dc>/vm/<infraID>-rhcos-<region>-<zone>`
    /// (`vsphere/infrastructure.go` on release-4.18 @9094202399); from 4.19
    /// `<infraID>-rhcos-<failure domain name>` (`utils.GenerateVSphereTemplateName`,
    /// installer abbe10adff, on OCPBUGS-79002-release-4.19 @34f7e1e355).
    pub(crate) fn vsphere_template_by_region_and_zone(self) -> bool {
        self.minor <= 18
    }

    /// OpenStack: whether the cloud config generator looks for Octavia in the catalog and writes
    /// `[LoadBalancer] enabled = false` without it (installer OCPBUGS-64842: e99ff60c86 on
    /// OCPBUGS-74390-release-4.20 @e473406c3e; 017f7b3e3e on release-4.21, in @6285755d19, the
    /// branch's newest commit held, a descendant of @ca5361f96f, which predates it; on the master
    /// of 4.22 @8e014ada25). Not on release-4.18 (@51e11f8401, 2026-07-01) nor
    /// OCPBUGS-79002-release-4.19 (@34f7e1e355, 2026-06-18).
    pub(crate) fn probes_octavia(self) -> bool {
        self.minor >= 20
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

    /// How the release's `determineTopologies` (`pkg/asset/manifests/topologies.go`) reads the
    /// control plane's replicas.
    pub(crate) fn topology_rule(self) -> TopologyRule {
        match self.minor {
            ..=18 => TopologyRule::Of4_18,
            19 => TopologyRule::Of4_19,
            _ => TopologyRule::From4_20,
        }
    }

    /// Whether an `arbiter` pool is taken on External and None besides bare metal
    /// (`validateArbiter`): bare metal only up to 4.21 (release-4.21 @6285755d19), all three
    /// from 4.22 (the master of 4.22, @8e014ada25).
    pub(crate) fn arbiter_on_external_and_none(self) -> bool {
        self.minor >= 22
    }

    /// Whether the release's installer has `field`, and the gate that guards it, from its row
    /// of [`FIELDS`].
    pub(crate) fn presence(self, field: Field) -> Presence {
        let row = row(field);
        if let Some(last) = row.until.filter(|last| self.minor > *last) {
            return Presence::Gone { last };
        }
        match row.history.iter().rev().find(|s| s.from <= self.minor) {
            None => Presence::NotYet { since: row.from() },
            Some(Since {
                gate: Some(gate), ..
            }) => Presence::Gated(*gate),
            Some(Since { gate: None, .. }) => Presence::Free,
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
    fn every_field_has_one_row_whose_history_runs_forward_within_the_releases() {
        for (i, row) in FIELDS.iter().enumerate() {
            assert!(
                FIELDS[..i].iter().all(|other| other.field != row.field),
                "{row:?} twice"
            );
            assert!(!row.history.is_empty(), "{}", row.path);
            assert!(
                row.history.windows(2).all(|w| w[0].from < w[1].from),
                "{}: history out of order",
                row.path
            );
            assert!(
                (OLDEST..=NEWEST).contains(&row.from()),
                "{}: from 4.{}",
                row.path,
                row.from()
            );
            if let Some(last) = row.until {
                let newest_since = row.history.last().map_or(0, |s| s.from);
                assert!(
                    newest_since <= last && last < NEWEST,
                    "{}: until 4.{last}",
                    row.path
                );
            }
        }
    }

    #[test]
    fn the_cloud_config_fields_of_4_21_are_not_in_older_installers() {
        for field in [Field::GcpPscEndpoint, Field::GcpFirewallRulesManagement] {
            let at = |m: &str| InstallerRelease::of(m).expect("release").presence(field);
            assert_eq!(at("4.20"), Presence::NotYet { since: 21 }, "{field:?}");
            assert_eq!(at("4.21"), Presence::Free, "{field:?}");
        }
        assert_eq!(
            row(Field::GcpFirewallRulesManagement).changes,
            Changes::CloudConfig
        );
        assert_eq!(row(Field::GcpPscEndpoint).changes, Changes::Nothing);
        assert_eq!(row(Field::AwsIpFamily).changes, Changes::Both);
    }

    #[test]
    fn the_cloud_config_generators_change_at_4_19() {
        let at = |m: &str| InstallerRelease::of(m).expect("release");
        for (release, old) in [("4.18", true), ("4.19", false), ("4.23", false)] {
            let r = at(release);
            assert_eq!(r.gcp_network_project_line_of_its_own(), old, "{release}");
            assert_eq!(r.azure_generator_of_4_18(), old, "{release}");
            assert_eq!(r.powervs_rm_endpoint_line(), !old, "{release}");
        }
        assert_eq!(at("4.20").version(), Version::new(4, 20));
        assert_eq!(InstallerRelease::default().version(), Version::new(4, 23));
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
        // Azure's dnsType and its gate came with the 4.20 branch (installer dbba6e304f).
        assert_eq!(
            at("4.19", Field::AzureUserProvisionedDns),
            Presence::NotYet { since: 20 }
        );
        assert_eq!(
            at("4.20", Field::AzureUserProvisionedDns),
            Presence::Gated(Gate {
                name: "AzureClusterHostedDNSInstall",
                sets: PREVIEWS
            })
        );
        let release = |m: &str| InstallerRelease::of(m).expect("release");
        assert!(!release("4.19").writes_azure_dns_type());
        assert!(release("4.20").writes_azure_dns_type());
        assert_eq!(
            at("4.23", Field::AwsIpFamily),
            Presence::Gated(Gate {
                name: "AWSDualStackInstall",
                sets: FIXED
            })
        );
    }
}
