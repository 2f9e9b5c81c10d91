//! GCP's cloud-provider-config text, release by release, and the fields of it the installer
//! reads beyond the project, subnet and network project.
//!
//! Sources (openshift/installer `pkg/asset/manifests/cloudproviderconfig.go` and
//! `pkg/asset/manifests/gcp/cloudproviderconfig.go`):
//! * 4.18: the installer vendored on openshift/installer-aro-wrapper's `release-4.18` (installer
//!   commit 14cd7a64e088, 2025-07-07): `network-project-id` on its own template line
//!   (`{{ if ne .Global.NetworkProjectID "" }}…{{end}}`), so a config without one ends with
//!   two blank lines, and no endpoint overrides.
//! * 4.19 (and 4.20): the installer vendored on its `release-4.19` (commit 7e30b7d6b421,
//!   2025-09-10, gates `GCPClusterHostedDNS` and `GCPCustomAPIEndpoints`): the template of
//!   `{{- if …}}{{"\n"}}…` lines, one blank line at the end, and `api-endpoint` and
//!   `container-api-endpoint` from `platform.gcp.serviceEndpoints` named `Compute` and
//!   `Container` (their URLs as given).
//! * 4.21 on: the same template (index id 6029871221 and its test, id 5694095940), the
//!   overrides now from the Private Service Connect `endpoint` (PR #9991, merged 2025-10-02;
//!   `serviceEndpoints` removed by PR #10075) and `firewallRulesManagement` (PR #10018), both
//!   in `pkg/types/gcp/platform.go` (index id 4246340131).

use super::installer_release::InstallerRelease;
use super::types::Gcp;
use anyhow::{Result, bail};
use std::fmt::Write as _;

/// The checks of the two fields: an endpoint names its PSC endpoint (the name becomes the host
/// of the cloud config's `api-endpoint`, `compute-<name>.p.googleapis.com`, so it is held to
/// Google's rule for the name of a PSC endpoint for Google APIs: a lower-case letter, then at
/// most 19 lower-case letters and digits); `firewallRulesManagement` is the installer's enum.
///
/// `Unmanaged` is refused: the newest stored installer passes the policy to its GCP cloud
/// config generator as `firewall-rules-management` (`pkg/asset/manifests/gcp/
/// cloudproviderconfig.go`, index id 6029871221), but the caller that maps the policy to that
/// key's value was not in the index, so ccm-render cannot write what the installer writes.
pub(crate) fn check(p: &Gcp, at: &str) -> Result<()> {
    if let Some(endpoint) = &p.endpoint {
        let name = &endpoint.name;
        if name.is_empty() {
            bail!("{at}.endpoint.name: required");
        }
        let mut chars = name.chars();
        let first_ok = chars.next().is_some_and(|c| c.is_ascii_lowercase());
        if !first_ok
            || name.len() > 20
            || !chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        {
            bail!(
                "{at}.endpoint.name: {name:?}: a Private Service Connect endpoint's name is a lower-case letter followed by at most 19 lower-case letters and digits"
            );
        }
    }
    match p.firewall_rules_management.as_str() {
        "" | "Managed" => Ok(()),
        "Unmanaged" => bail!(
            "{at}.firewallRulesManagement: \"Unmanaged\": the installer hands this policy to the GCP cloud config (firewall-rules-management) in a form ccm-render does not know; leave the field out or give the installer's cloud-provider-config with --cloud-config"
        ),
        other => bail!(
            "{at}.firewallRulesManagement: {other:?}: supported values: \"Managed\", \"Unmanaged\""
        ),
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
    let (api, container) = endpoint_overrides(p);
    if let Some(api) = api {
        let _ = write!(out, "\napi-endpoint = {api}");
    }
    if let Some(container) = container {
        let _ = write!(out, "\ncontainer-api-endpoint = {container}");
    }
    out.push_str("\n\n");
    out
}

/// The cloud config's endpoint overrides, compute then container: from the Private Service
/// Connect endpoint's name whenever it is set (the CCM is a cluster component, which uses the
/// overrides whether or not `clusterUseOnly` keeps the installer itself on the public
/// endpoints), else from `serviceEndpoints` named `Compute` and `Container` (the last of each
/// name wins, as the installer's loop leaves it). The install-config has one or the other, by
/// release.
pub(crate) fn endpoint_overrides(p: &Gcp) -> (Option<String>, Option<String>) {
    if let Some(e) = &p.endpoint {
        return (
            Some(format!("compute-{}.p.googleapis.com", e.name)),
            Some(format!("container-{}.p.googleapis.com", e.name)),
        );
    }
    let mut api = None;
    let mut container = None;
    for e in &p.service_endpoints {
        match e.name.as_str() {
            "Compute" => api = Some(e.url.clone()),
            "Container" => container = Some(e.url.clone()),
            _ => {}
        }
    }
    (api, container)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::install_config::types::{GcpPscEndpoint, ServiceEndpoint};

    fn with_endpoint(name: &str) -> Gcp {
        Gcp {
            endpoint: Some(GcpPscEndpoint { name: name.into() }),
            ..Gcp::default()
        }
    }

    #[test]
    fn endpoint_names_follow_the_psc_rule() {
        assert!(check(&with_endpoint("psc1"), "platform.gcp").is_ok());
        for bad in ["", "1psc", "Psc", "psc-1", "a123456789012345678901"] {
            let e = check(&with_endpoint(bad), "platform.gcp").expect_err("refused");
            assert!(
                e.to_string().starts_with("platform.gcp.endpoint.name:"),
                "{e}"
            );
        }
    }

    #[test]
    fn firewall_policy_unmanaged_and_unknown_values_are_refused() {
        let p = |v: &str| Gcp {
            firewall_rules_management: v.into(),
            ..Gcp::default()
        };
        assert!(check(&p("Managed"), "platform.gcp").is_ok());
        assert!(check(&p("Unmanaged"), "platform.gcp").is_err());
        assert!(check(&p("managed"), "platform.gcp").is_err());
    }

    #[test]
    fn overrides_name_the_compute_and_container_services() {
        assert_eq!(
            endpoint_overrides(&with_endpoint("psc1")),
            (
                Some("compute-psc1.p.googleapis.com".into()),
                Some("container-psc1.p.googleapis.com".into())
            )
        );
        let p = Gcp {
            service_endpoints: vec![
                ServiceEndpoint {
                    name: "Container".into(),
                    url: "https://c.example.com".into(),
                },
                ServiceEndpoint {
                    name: "DNS".into(),
                    url: "https://d.example.com".into(),
                },
            ],
            ..Gcp::default()
        };
        assert_eq!(
            endpoint_overrides(&p),
            (None, Some("https://c.example.com".into()))
        );
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
        for release in [at(18), at(19), newest] {
            assert!(
                config("c", &p, "s", release)
                    .ends_with("subnetwork-name = s\nnetwork-project-id = np\n\n"),
                "{release:?}"
            );
        }
    }
}
