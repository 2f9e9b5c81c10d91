//! The GCP fields the installer's cloud-provider-config reads beyond the project, subnet and
//! network project: the Private Service Connect `endpoint` and `firewallRulesManagement`, both
//! of installer 4.21 (openshift/installer `pkg/types/gcp/platform.go`, newest stored version,
//! search index id 4246340131; PR #9991 "Add PSC Endpoint to the installconfig", merged
//! 2025-10-02, and PR #10018, merged 2025-11, both before the 4.21 branch).

use super::types::Gcp;
use anyhow::{Result, bail};

/// The release that brings `endpoint` and `firewallRulesManagement` to the installer.
pub(crate) const PSC_RELEASE: &str = "4.21";

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

/// The cloud config's endpoint overrides: `api-endpoint` for the compute service and
/// `container-api-endpoint` for the container service, from the PSC endpoint's name, whenever
/// an endpoint is set (the CCM is a cluster component, which uses the overrides whether or
/// not `clusterUseOnly` keeps the installer itself on the public endpoints).
pub(crate) fn endpoint_overrides(p: &Gcp) -> Option<(String, String)> {
    p.endpoint.as_ref().map(|e| {
        (
            format!("compute-{}.p.googleapis.com", e.name),
            format!("container-{}.p.googleapis.com", e.name),
        )
    })
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
            Some((
                "compute-psc1.p.googleapis.com".into(),
                "container-psc1.p.googleapis.com".into()
            ))
        );
    }
}
