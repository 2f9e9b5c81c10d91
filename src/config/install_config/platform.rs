//! `platform`: the one platform section of an install-config, read into [`Platform`] and
//! checked as the installer checks the fields ccm-render reads, and the rules that depend on the
//! platform (cluster name, publish strategy).
//!
//! Sources (`openshift/installer`): `pkg/types/validation/installconfig.go`,
//! `pkg/types/conversion/installconfig.go` (the single VIPs), `pkg/types/<platform>` and its
//! `defaults`, `pkg/validate/validate.go` (cluster names).

use super::decode::{PLATFORMS, keys, typed};
use super::types::Document;
use super::vips::vips;
use super::{
    Aws, Azure, External, Gcp, IbmCloud, Nutanix, OpenStack, PowerVs, ServiceEndpoint, VSphere,
    Vips, vsphere,
};
use crate::config::install_config::types::AzureCloud;
use anyhow::{Context as _, Result, anyhow, bail};
use serde_json::Value;

/// install-config `platform.external.cloudControllerManager` and Infrastructure
/// `status.platformStatus.external.cloudControllerManager.state` for a CCM the user brings.
pub(crate) const CCM_EXTERNAL: &str = "External";

/// The platform section, typed.
#[derive(Debug, Clone)]
pub(crate) enum Platform {
    Aws(Aws),
    Azure(Azure),
    BareMetal(Vips),
    External(External),
    Gcp(Gcp),
    IbmCloud(IbmCloud),
    None,
    Nutanix(Nutanix),
    OpenStack(OpenStack),
    PowerVs(PowerVs),
    /// Boxed: with the deprecated fields it is by far the largest.
    VSphere(Box<VSphere>),
}

impl Platform {
    /// The install-config key.
    pub(crate) fn key(&self) -> &'static str {
        match self {
            Self::Aws(_) => "aws",
            Self::Azure(_) => "azure",
            Self::BareMetal(_) => "baremetal",
            Self::External(_) => "external",
            Self::Gcp(_) => "gcp",
            Self::IbmCloud(_) => "ibmcloud",
            Self::None => "none",
            Self::Nutanix(_) => "nutanix",
            Self::OpenStack(_) => "openstack",
            Self::PowerVs(_) => "powervs",
            Self::VSphere(_) => "vsphere",
        }
    }
}

/// The one platform key of the document and its value (`{}` for `null`), refusing unknown
/// platforms and more than one.
fn the_one(d: &Document) -> Result<(String, Value)> {
    let mut platforms = keys(&d.platform);
    for (key, _) in &platforms {
        // PowerVC (installer 4.21 on, `pkg/types/powervc`) is a platform of the installer,
        // not an unknown one: the installer turns it into an OpenStack cluster
        // (`pkg/types/conversion/powervc`), whose cloud config always disables the load
        // balancer (`pkg/asset/manifests/openstack/cloudproviderconfig.go`) and whose
        // Infrastructure has a user-managed one (`pkg/types/powervc/defaults`); ccm-render does
        // not derive that conversion (docs/differences-from-cccmo.md).
        if key == "powervc" {
            bail!(
                "platform.powervc: PowerVC (an installer platform from 4.21) is not rendered by ccm-render: the installer converts it into an OpenStack cluster with its load balancer disabled in the cloud config and user-managed in the Infrastructure, a conversion ccm-render does not derive; render the OpenStack objects from the cluster's own Infrastructure and cloud-provider-config (--infrastructure, --cloud-config) instead"
            );
        }
        if !PLATFORMS.contains(&key.as_str()) {
            bail!(
                "platform.{key}: unknown platform (known: {})",
                PLATFORMS.join(", ")
            );
        }
    }
    match platforms.len() {
        0 => bail!(
            "platform: must specify one of the platforms ({})",
            PLATFORMS.join(", ")
        ),
        1 => {}
        _ => bail!(
            "platform: must only specify a single type of platform; cannot use both {:?} and {:?}",
            platforms[0].0,
            platforms[1].0
        ),
    }
    let (key, value) = platforms.remove(0);
    let value = if value.is_null() {
        Value::Object(serde_json::Map::new())
    } else {
        value
    };
    Ok((key, value))
}

/// Reads the one platform of the document (`notes` gets the deprecation warnings of its
/// conversion).
// Reads better whole: one arm per platform key, each its decoding and required fields, read
// side by side.
pub(crate) fn parse(d: &Document, notes: &mut Vec<String>) -> Result<Platform> {
    let (key, value) = the_one(d)?;
    let key = key.as_str();
    let at = format!("platform.{key}");
    let require = |field: &str, v: &str| -> Result<()> {
        if v.is_empty() {
            bail!("{at}.{field}: required");
        }
        Ok(())
    };
    Ok(match key {
        "aws" => {
            let mut p: Aws = typed(&value, &at)?;
            require("region", &p.region)?;
            user_provisioned_dns(&p.user_provisioned_dns, &at)?;
            ip_family(&mut p.ip_family, &at)?;
            // pkg/types/aws/defaults/platform.go SetPlatformDefaults: dual stack defaults
            // the load balancer type to NLB.
            if p.lb_type.is_empty() && is_dual_stack(&p.ip_family) {
                p.lb_type = "NLB".into();
            }
            for (i, e) in p.service_endpoints.iter().enumerate() {
                check_endpoint(e, &format!("{at}.serviceEndpoints[{i}]"))?;
            }
            Platform::Aws(p)
        }
        "azure" => {
            let mut p = azure(&value, &at)?;
            p.fill_identity(d)?;
            Platform::Azure(p)
        }
        "baremetal" => {
            let mut p: Vips = typed(&value, &at)?;
            vips(&mut p, &at, true)?;
            Platform::BareMetal(p)
        }
        "gcp" => {
            let p: Gcp = typed(&value, &at)?;
            require("projectID", &p.project_id)?;
            require("region", &p.region)?;
            super::gcp::check(&p, &at)?;
            user_provisioned_dns(&p.user_provisioned_dns, &at)?;
            gcp_service_endpoints(&p.service_endpoints, &at)?;
            Platform::Gcp(p)
        }
        "ibmcloud" => {
            let mut p: IbmCloud = typed(&value, &at)?;
            p.fill_zones(d)?;
            require("region", &p.region)?;
            for (i, e) in p.service_endpoints.iter().enumerate() {
                check_endpoint(e, &format!("{at}.serviceEndpoints[{i}]"))?;
            }
            Platform::IbmCloud(p)
        }
        "none" => Platform::None,
        "nutanix" => {
            let mut p: Nutanix = typed(&value, &at)?;
            p.vips = typed(&value, &at)?;
            require(
                "prismCentral.endpoint.address",
                &p.prism_central.endpoint.address,
            )?;
            if p.prism_elements.is_empty() {
                bail!("{at}.prismElements: required (at least one Prism Element)");
            }
            vips(&mut p.vips, &at, false)?;
            // ensureIPv4IsFirstInDualStackSlice, applied to Nutanix (and oVirt) only.
            super::vips::ipv4_first(&mut p.vips.api_vips);
            super::vips::ipv4_first(&mut p.vips.ingress_vips);
            Platform::Nutanix(p)
        }
        "openstack" => {
            let mut p: OpenStack = typed(&value, &at)?;
            p.vips = typed(&value, &at)?;
            vips(&mut p.vips, &at, false)?;
            Platform::OpenStack(p)
        }
        "powervs" => {
            let p: PowerVs = typed(&value, &at)?;
            require("region", &p.region)?;
            require("zone", &p.zone)?;
            require("powervsResourceGroup", &p.powervs_resource_group)?;
            for (i, e) in p.service_endpoints.iter().enumerate() {
                check_endpoint(e, &format!("{at}.serviceEndpoints[{i}]"))?;
            }
            Platform::PowerVs(p)
        }
        "vsphere" => Platform::VSphere(Box::new(vsphere::parse(&value, &at, notes)?)),
        "external" => Platform::External(external(&value, &at)?),
        other => bail!(
            "platform.{other}: ccm-render cannot derive the Infrastructure for this platform from an install-config; give the installer's Infrastructure with --infrastructure"
        ),
    })
}

fn azure(value: &Value, at: &str) -> Result<Azure> {
    let mut p: Azure = typed(value, at)?;
    if p.region.is_empty() {
        bail!("{at}.region: required");
    }
    user_provisioned_dns(&p.user_provisioned_dns, at)?;
    ip_family(&mut p.ip_family, at)?;
    if p.cloud_name == AzureCloud::Stack {
        // installer PR #10279 (OCPBUGS-74631): custom DNS is not supported on Azure Stack Hub.
        if p.user_provisioned_dns == "Enabled" {
            bail!(
                "{at}.userProvisionedDNS: \"Enabled\": userProvisionedDNS is not supported on Azure Stack Hub"
            );
        }
        if p.arm_endpoint.is_empty() {
            bail!("{at}.armEndpoint: required");
        }
        https_url(&p.arm_endpoint).with_context(|| format!("{at}.armEndpoint"))?;
    }
    Ok(p)
}

/// The `ipFamily` values of AWS and Azure (installer `pkg/types/network/ipfamily.go`
/// @f49ad008): `IPv4` is the default (`pkg/types/aws/defaults/platform.go` @de982f13
/// `SetPlatformDefaults`; Azure's Infrastructure carries `IPv4` by default too,
/// `pkg/asset/manifests/infrastructure_test.go` @47dadcef).
pub(crate) const IP_FAMILIES: &[&str] = &["IPv4", "DualStackIPv4Primary", "DualStackIPv6Primary"];

/// `IPFamily.DualStackEnabled`.
pub(crate) fn is_dual_stack(ip_family: &str) -> bool {
    ip_family.starts_with("DualStack")
}

/// Defaults and checks `ipFamily`.
fn ip_family(value: &mut String, at: &str) -> Result<()> {
    if value.is_empty() {
        *value = IP_FAMILIES[0].into();
    }
    if !IP_FAMILIES.contains(&value.as_str()) {
        bail!(
            "{at}.ipFamily: {value:?}: supported values: {}",
            IP_FAMILIES
                .iter()
                .map(|f| format!("{f:?}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    Ok(())
}

impl Platform {
    /// A VIP platform's path, VIPs, and whether the installer wants its VIPs in a machine
    /// network (`validateVIPsForPlatform`: bare metal and OpenStack; vSphere for agent installs
    /// only; Nutanix never).
    pub(crate) fn vips(&self) -> Option<(&'static str, &Vips, bool)> {
        match self {
            Self::BareMetal(v) => Some(("platform.baremetal", v, true)),
            Self::OpenStack(p) => Some(("platform.openstack", &p.vips, true)),
            Self::VSphere(p) => Some(("platform.vsphere", &p.vips, false)),
            Self::Nutanix(p) => Some(("platform.nutanix", &p.vips, false)),
            _ => None,
        }
    }

    /// `platform.<aws|azure>.ipFamily` with the gate that guards its dual-stack values.
    pub(crate) fn ip_family(&self) -> Option<(&str, &'static str)> {
        match self {
            Self::Aws(p) => Some((p.ip_family.as_str(), "AWSDualStackInstall")),
            Self::Azure(p) => Some((p.ip_family.as_str(), "AzureDualStackInstall")),
            _ => None,
        }
    }
}

/// `platform.external` (`pkg/types/external`): `platformName` defaults to `Unknown` (the API
/// default the installer's external defaults set), `cloudControllerManager` is `""` or
/// `External` (its kubebuilder enum).
fn external(value: &Value, at: &str) -> Result<External> {
    let mut p: External = typed(value, at)?;
    if p.platform_name.is_empty() {
        p.platform_name = "Unknown".into();
    }
    if !matches!(p.cloud_controller_manager.as_str(), "" | CCM_EXTERNAL) {
        bail!(
            "{at}.cloudControllerManager: {:?}: supported values: \"\", \"External\"",
            p.cloud_controller_manager
        );
    }
    Ok(p)
}

/// `userProvisionedDNS` (`pkg/types/dns`: `+kubebuilder:validation:Enum="Enabled";"Disabled"`);
/// whether the release has the field and its gate is on is checked with the release
/// (`super::release_fields`).
fn user_provisioned_dns(value: &str, at: &str) -> Result<()> {
    if !matches!(value, "" | "Enabled" | "Disabled") {
        bail!("{at}.userProvisionedDNS: {value:?}: supported values: \"Enabled\", \"Disabled\"");
    }
    Ok(())
}

/// `platform.gcp.serviceEndpoints`: one override per name, each an https URL (installer
/// 4.19 and 4.20 `pkg/types/gcp/validation/platform.go`); the names and the URLs each release
/// accepts are checked with the release (`super::gcp_service_endpoints`).
fn gcp_service_endpoints(endpoints: &[ServiceEndpoint], at: &str) -> Result<()> {
    for (i, e) in endpoints.iter().enumerate() {
        let here = format!("{at}.serviceEndpoints[{i}]");
        if endpoints[..i].iter().any(|other| other.name == e.name) {
            bail!(
                "{here}.name: {:?}: only 1 endpoint override is permitted per GCP service name",
                e.name
            );
        }
        https_url(&e.url).with_context(|| format!("{here}.url"))?;
    }
    Ok(())
}

fn check_endpoint(e: &ServiceEndpoint, at: &str) -> Result<()> {
    if e.name.is_empty() {
        bail!("{at}.name: required");
    }
    https_url(&e.url).with_context(|| format!("{at}.url"))
}

fn https_url(url: &str) -> Result<()> {
    ccm_catalogue::validate::proxy_url(url)
        .map_err(|_| anyhow!("{url:?} is not an https:// URL"))?;
    if !url.starts_with("https://") {
        bail!("{url:?} is not an https:// URL");
    }
    Ok(())
}

/// `pkg/validate/validate.go`: `ClusterName` (a DNS-1123 subdomain of at most 54 characters, to
/// leave room for `*.apps` written as `\052.apps`), `ClusterName1035` on GCP and Azure (starts
/// with a lower-case letter), `GCPClusterName` (no "goog" prefix, no "google" look-alike), and
/// on the on-premise platforms no `.` (their DNS and VIP names are built from it).
pub(crate) fn check_cluster_name(name: &str, platform: &Platform) -> Result<()> {
    let bad = |why: String| anyhow!("metadata.name: {name:?}: {why}");
    if name.is_empty() {
        return Err(anyhow!("metadata.name: required"));
    }
    if name.len() > 54 {
        return Err(bad(format!(
            "must be no more than 54 characters (is {})",
            name.len()
        )));
    }
    ccm_catalogue::validate::dns_subdomain(name)
        .with_context(|| format!("metadata.name: {name:?}"))?;
    match platform {
        Platform::Gcp(_) | Platform::Azure(_)
            if !name.starts_with(|c: char| c.is_ascii_lowercase()) =>
        {
            return Err(bad(
                "cluster name must begin with a lower-case letter".into()
            ));
        }
        _ => {}
    }
    if matches!(platform, Platform::Gcp(_)) {
        let lower = name.to_ascii_lowercase();
        let google_like = lower.as_bytes().windows(6).any(|w| {
            w[0] == b'g'
                && matches!(w[1], b'o' | b'0')
                && matches!(w[2], b'o' | b'0')
                && w[3] == b'g'
                && w[4] == b'l'
                && w[5] == b'e'
        });
        if lower.starts_with("goog") || google_like {
            return Err(bad(
                "cluster name must not start with \"goog\" or contain variations of \"google\""
                    .into(),
            ));
        }
    }
    if matches!(
        platform,
        Platform::VSphere(_)
            | Platform::BareMetal(_)
            | Platform::OpenStack(_)
            | Platform::Nutanix(_)
    ) && name.contains('.')
    {
        return Err(bad("cluster name must not contain '.'".into()));
    }
    Ok(())
}

/// The publish strategies each platform supports (`validatePublishingStrategy`).
pub(crate) fn check_publish(publish: &str, platform: &Platform) -> Result<()> {
    match publish {
        "External" => Ok(()),
        "Internal" => match platform {
            Platform::Aws(_)
            | Platform::Azure(_)
            | Platform::Gcp(_)
            | Platform::IbmCloud(_)
            | Platform::PowerVs(_) => Ok(()),
            other => bail!(
                "publish: Internal publish strategy is not supported on {:?} platform",
                other.key()
            ),
        },
        "Mixed" => match platform {
            Platform::Azure(_) => Ok(()),
            other => bail!(
                "publish: mixed publish strategy is not supported on {:?} platform",
                other.key()
            ),
        },
        other => {
            bail!("publish: {other:?}: supported values: \"External\", \"Internal\", \"Mixed\"")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_azure_cloud_name_is_read_once_into_its_cloud() {
        let cloud = |name: Value| {
            azure(
                &json!({"region": "eastus", "cloudName": name}),
                "platform.azure",
            )
            .map(|p| p.cloud_name)
        };
        assert_eq!(cloud(json!("")).expect("empty"), AzureCloud::Public);
        assert_eq!(cloud(Value::Null).expect("null"), AzureCloud::Public);
        assert_eq!(
            cloud(json!("AzureUSGovernmentCloud")).expect("known"),
            AzureCloud::UsGovernment
        );
        let err = format!("{:#}", cloud(json!("azurepubliccloud")).expect_err("case"));
        assert_eq!(
            err,
            "platform.azure.cloudName: \"azurepubliccloud\": supported values: AzurePublicCloud, AzureUSGovernmentCloud, AzureChinaCloud, AzureGermanCloud, AzureStackCloud"
        );
        let err = format!(
            "{:#}",
            cloud(json!("AzureStackCloud")).expect_err("no ARM endpoint")
        );
        assert_eq!(err, "platform.azure.armEndpoint: required");
    }
}
