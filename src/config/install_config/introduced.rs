//! Install-config fields that the installer of an older release does not have. The installer
//! of such a release decodes the install-config ignoring fields it does not know (after a
//! warning), so it writes nothing for them; ccm-render refuses them instead, naming the
//! release that brings them, so that a render never claims to be what that installer writes.

use super::Platform;
use super::gcp::PSC_RELEASE;

/// The release whose installer brings `platform.aws.ipFamily` (openshift/installer PR #10207,
/// "Install-config and Infra manifest updates for DualStack for AWS and Azure", and PR #10257,
/// the cloud config's `NodeIPFamilies`, both merged in 2026 after the 4.21 branch).
const AWS_IP_FAMILY_RELEASE: &str = "4.22";

/// A field the install-config sets that the installer of older releases does not have: checked
/// once the release is known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Introduced {
    /// The field's path, as errors name it.
    pub(crate) field: String,
    /// The first release whose installer reads it (`X.Y`).
    pub(crate) release: &'static str,
}

/// The fields of the platform section that change the cloud-provider-config and that older
/// installers do not have: GCP's `endpoint` and `firewallRulesManagement` (4.21), and a
/// dual-stack AWS `ipFamily` (4.22; `IPv4`, the default, is what every older installer does,
/// so it is not told from an absent field).
pub(crate) fn fields(platform: &Platform) -> Vec<Introduced> {
    let field = |path: &str, release| Introduced {
        field: path.into(),
        release,
    };
    let mut fields = Vec::new();
    match platform {
        Platform::Gcp(p) => {
            if p.endpoint.is_some() {
                fields.push(field("platform.gcp.endpoint", PSC_RELEASE));
            }
            if !p.firewall_rules_management.is_empty() {
                fields.push(field("platform.gcp.firewallRulesManagement", PSC_RELEASE));
            }
        }
        Platform::Aws(p) if p.ip_family != "IPv4" => {
            fields.push(field("platform.aws.ipFamily", AWS_IP_FAMILY_RELEASE));
        }
        _ => {}
    }
    fields
}
