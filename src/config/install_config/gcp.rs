//! GCP's cloud-provider-config text, release by release, and the fields of it the installer
//! reads beyond the project, subnet and network project.
//!
//! Sources (openshift/installer `pkg/asset/manifests/cloudproviderconfig.go`,
//! `pkg/asset/manifests/gcp/cloudproviderconfig.go` and its test, on the release branches):
//! * 4.18 (`release-4.18` @9094202399): `network-project-id` on its own template line
//!   (`{{ if ne .Global.NetworkProjectID "" }}…{{end}}`), so a config without one ends with
//!   two blank lines, and no endpoint overrides.
//! * 4.19 and 4.20 (`OCPBUGS-79002-release-4.19` @34f7e1e355, `OCPBUGS-74390-release-4.20`
//!   @e473406c3e): the template of `{{- if …}}{{"\n"}}…` lines, one blank line at the end, and
//!   `api-endpoint` and `container-api-endpoint` from `platform.gcp.serviceEndpoints` named
//!   `Compute` and `Container`.
//! * 4.21 on (`release-4.21` @ca5361f96f, and the 4.22 master @8e014ada25): no endpoint
//!   overrides (`serviceEndpoints` removed by PR #10075; the Private Service Connect `endpoint`
//!   writes nothing here since d0ba8fcb99, PR #9992, "Create a Private DNS Zone for PSC"), and a
//!   last line `firewall-rules-management` (68b41666fa, PR #10018).

use super::installer_release::InstallerRelease;
use super::types::Gcp;
use anyhow::{Result, bail};
use std::fmt::Write as _;

/// The checks of the two fields: an endpoint names its PSC endpoint (release-4.21
/// `pkg/types/gcp/validation/platform.go`: "endpoint name must be specified"; nothing derived
/// here reads the name); `firewallRulesManagement` is the installer's enum (release-4.21
/// `pkg/types/gcp/platform.go` `FirewallRulesManagementPolicy`, checked by the same
/// validation: `Managed` or `Unmanaged`, or absent).
pub(crate) fn check(p: &Gcp, at: &str) -> Result<()> {
    if p.endpoint.as_ref().is_some_and(|e| e.name.is_empty()) {
        bail!("{at}.endpoint.name: required");
    }
    match p.firewall_rules_management.as_str() {
        "" | MANAGED | UNMANAGED => Ok(()),
        other => bail!(
            "{at}.firewallRulesManagement: {other:?}: supported values: \"Managed\", \"Unmanaged\""
        ),
    }
}

/// `firewallRulesManagement`'s values (release-4.21 `pkg/types/gcp/platform.go`).
const MANAGED: &str = "Managed";
const UNMANAGED: &str = "Unmanaged";

/// The cloud config's `firewall-rules-management` from 4.21 (installer 68b41666fa, PR #10018,
/// on release-4.21: `pkg/asset/manifests/cloudproviderconfig.go` passes
/// `FirewallManagementDisabled` for `Unmanaged` and `FirewallManagementEnabled` otherwise). An
/// absent policy is `Managed` here: the installer's `finishGCP`
/// (`pkg/asset/installconfig/installconfig.go`) sets `Managed`, or `Unmanaged` on a shared VPC
/// whose network project its credentials may not change firewall rules in, which only the
/// cloud can tell (docs/differences-from-cccmo.md).
fn firewall_rules_management(p: &Gcp) -> &'static str {
    if p.firewall_rules_management == UNMANAGED {
        "Disabled"
    } else {
        "Enabled"
    }
}

/// The cloud config's text as the installer of `release` writes it: the gcfg template,
/// node tags for the master, control-plane (CAPI) and worker instances, the shared VPC's
/// network project and the endpoint overrides when set, and the template's blank lines.
pub(crate) fn config(infra_id: &str, p: &Gcp, subnet: &str, release: InstallerRelease) -> String {
    let mut out = String::from("[global]\n");
    let _ = writeln!(out, "project-id      = {}", p.project_id);
    out.push_str("regional        = true\nmultizone       = true\n");
    for role in ["master", "control-plane", "worker"] {
        let _ = writeln!(out, "node-tags       = {infra_id}-{role}");
    }
    let _ = writeln!(out, "node-instance-prefix = {infra_id}");
    let _ = writeln!(out, "external-instance-groups-prefix = {infra_id}");
    let _ = write!(out, "subnetwork-name = {subnet}");
    if release.gcp_network_project_line_of_its_own() {
        // `subnetwork-name = …\n{{ if … }}network-project-id = …{{end}}\n\n`.
        out.push('\n');
        if !p.network_project_id.is_empty() {
            let _ = write!(out, "network-project-id = {}", p.network_project_id);
        }
        out.push_str("\n\n");
        return out;
    }
    if !p.network_project_id.is_empty() {
        let _ = write!(out, "\nnetwork-project-id = {}", p.network_project_id);
    }
    let (api, container) = super::gcp_service_endpoints::cloud_config_overrides(p, release);
    if let Some(api) = api {
        let _ = write!(out, "\napi-endpoint = {api}");
    }
    if let Some(container) = container {
        let _ = write!(out, "\ncontainer-api-endpoint = {container}");
    }
    if release.gcp_firewall_rules_management_line() {
        let _ = write!(
            out,
            "\nfirewall-rules-management = {}",
            firewall_rules_management(p)
        );
    }
    out.push_str("\n\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::install_config::types::GcpPscEndpoint;

    fn with_endpoint(name: &str) -> Gcp {
        Gcp {
            endpoint: Some(GcpPscEndpoint { name: name.into() }),
            ..Gcp::default()
        }
    }

    #[test]
    fn an_endpoint_needs_a_name_and_overrides_nothing() {
        let e = check(&with_endpoint(""), "platform.gcp").expect_err("refused");
        assert_eq!(e.to_string(), "platform.gcp.endpoint.name: required");
        // Any name the installer accepts: GCP itself holds the endpoint to its naming rule.
        assert!(check(&with_endpoint("My_Endpoint"), "platform.gcp").is_ok());
        let p = Gcp {
            project_id: "p".into(),
            ..with_endpoint("psc1")
        };
        let text = config("c", &p, "s", InstallerRelease::default());
        assert!(!text.contains("endpoint"), "{text}");
    }

    #[test]
    fn firewall_policies_are_the_installers_enum_and_unmanaged_disables_the_rules() {
        let p = |v: &str| Gcp {
            firewall_rules_management: v.into(),
            ..Gcp::default()
        };
        assert!(check(&p("Managed"), "platform.gcp").is_ok());
        assert!(check(&p("Unmanaged"), "platform.gcp").is_ok());
        let e = check(&p("managed"), "platform.gcp").expect_err("refused");
        assert_eq!(
            e.to_string(),
            "platform.gcp.firewallRulesManagement: \"managed\": supported values: \"Managed\", \"Unmanaged\""
        );
        let newest = InstallerRelease::default();
        let at_4_20 = InstallerRelease::of("4.20").expect("a release");
        for (policy, line) in [
            ("", "Enabled"),
            ("Managed", "Enabled"),
            ("Unmanaged", "Disabled"),
        ] {
            let text = config("c", &p(policy), "s", newest);
            assert!(
                text.ends_with(&format!(
                    "subnetwork-name = s\nfirewall-rules-management = {line}\n\n"
                )),
                "{policy}: {text}"
            );
        }
        assert!(!config("c", &p(""), "s", at_4_20).contains("firewall-rules-management"));
    }

    #[test]
    fn the_4_18_template_ends_with_two_blank_lines_without_a_network_project() {
        let mut p = Gcp {
            project_id: "p".into(),
            ..Gcp::default()
        };
        let at = |minor: u8| InstallerRelease::of(&format!("4.{minor}")).expect("a release");
        let newest = InstallerRelease::default();
        assert!(config("c", &p, "s", at(18)).ends_with("subnetwork-name = s\n\n\n"));
        assert!(config("c", &p, "s", at(19)).ends_with("subnetwork-name = s\n\n"));
        assert!(!config("c", &p, "s", newest).ends_with("\n\n\n"));
        p.network_project_id = "np".into();
        for release in [at(18), at(19), at(20)] {
            assert!(
                config("c", &p, "s", release)
                    .ends_with("subnetwork-name = s\nnetwork-project-id = np\n\n"),
                "{release:?}"
            );
        }
        // From 4.21 the firewall policy follows the network project.
        assert!(config("c", &p, "s", newest).ends_with(
            "subnetwork-name = s\nnetwork-project-id = np\nfirewall-rules-management = Enabled\n\n"
        ));
    }
}
