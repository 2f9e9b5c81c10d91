//! The platforms, two closed sets. [`Platform`]: every `PlatformType` openshift/api defines
//! (`config/v1/types_infrastructure.go`); an Infrastructure's `status.platformStatus.type` and a
//! provider descriptor's `spec.platform` are parsed into one where they are read.
//! [`HostedPlatform`]: every `PlatformType` HyperShift defines (`HyperShift
//! api/hypershift/v1beta1/hostedcluster_types.go`), a set of its own (it has `Agent`, which
//! openshift/api has not, and lacks most of openshift/api's); a HostedControlPlane's
//! `spec.platform.type` and a hosted component's `spec.platform` are parsed into one. Past that
//! edge the code matches on the enums, and the names are only written out (labels, messages).

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// One of openshift/api's platform types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Platform {
    /// `AWS`.
    Aws,
    /// `Azure` (public clouds and Azure Stack Hub, told apart by the cloud name).
    Azure,
    /// `BareMetal`.
    BareMetal,
    /// `GCP`.
    Gcp,
    /// `Libvirt`.
    Libvirt,
    /// `OpenStack`.
    OpenStack,
    /// `None`: no platform integration.
    None,
    /// `VSphere`.
    VSphere,
    /// `oVirt`.
    OVirt,
    /// `IBMCloud`.
    IbmCloud,
    /// `KubeVirt`.
    KubeVirt,
    /// `EquinixMetal`.
    EquinixMetal,
    /// `PowerVS`.
    PowerVs,
    /// `AlibabaCloud`.
    AlibabaCloud,
    /// `Nutanix`.
    Nutanix,
    /// `External`: the user brings the CCM; which one is named by the Infrastructure's
    /// `spec.platformSpec.external.platformName` (a provider's `externalPlatformName`).
    External,
}

impl Platform {
    /// Every platform, in openshift/api's order (the order `ccm-render platforms` lists them).
    pub const ALL: [Platform; 16] = [
        Self::Aws,
        Self::Azure,
        Self::BareMetal,
        Self::Gcp,
        Self::Libvirt,
        Self::OpenStack,
        Self::None,
        Self::VSphere,
        Self::OVirt,
        Self::IbmCloud,
        Self::KubeVirt,
        Self::EquinixMetal,
        Self::PowerVs,
        Self::AlibabaCloud,
        Self::Nutanix,
        Self::External,
    ];

    /// The name as openshift/api spells it (`AWS`, `VSphere`, `oVirt`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Aws => "AWS",
            Self::Azure => "Azure",
            Self::BareMetal => "BareMetal",
            Self::Gcp => "GCP",
            Self::Libvirt => "Libvirt",
            Self::OpenStack => "OpenStack",
            Self::None => "None",
            Self::VSphere => "VSphere",
            Self::OVirt => "oVirt",
            Self::IbmCloud => "IBMCloud",
            Self::KubeVirt => "KubeVirt",
            Self::EquinixMetal => "EquinixMetal",
            Self::PowerVs => "PowerVS",
            Self::AlibabaCloud => "AlibabaCloud",
            Self::Nutanix => "Nutanix",
            Self::External => "External",
        }
    }

    /// The platform spelled exactly `name` (openshift/api's names are case-sensitive).
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.as_str() == name)
    }

    /// Every name, comma-separated, for messages that list what is known.
    pub fn known() -> String {
        Self::ALL.map(Self::as_str).join(", ")
    }
}

impl fmt::Display for Platform {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Platform {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Platform {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        Self::parse(&name)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown platform {name:?}")))
    }
}

/// One of HyperShift's platform types: what a HostedControlPlane runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum HostedPlatform {
    /// `AWS`.
    Aws,
    /// `None`: no cloud integration.
    None,
    /// `IBMCloud`.
    IbmCloud,
    /// `Agent`: nodes brought by the Assisted Installer's agents; no CCM.
    Agent,
    /// `KubeVirt`: nodes are virtual machines of the management cluster (or another one).
    KubeVirt,
    /// `Azure` (self-managed or the ARO-HCP service).
    Azure,
    /// `PowerVS`.
    PowerVs,
    /// `OpenStack`.
    OpenStack,
    /// `GCP`.
    Gcp,
}

impl HostedPlatform {
    /// Every platform, in HyperShift's order (the order messages list them).
    pub const ALL: [HostedPlatform; 9] = [
        Self::Aws,
        Self::None,
        Self::IbmCloud,
        Self::Agent,
        Self::KubeVirt,
        Self::Azure,
        Self::PowerVs,
        Self::OpenStack,
        Self::Gcp,
    ];

    /// The name as HyperShift spells it (`AWS`, `PowerVS`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Aws => "AWS",
            Self::None => "None",
            Self::IbmCloud => "IBMCloud",
            Self::Agent => "Agent",
            Self::KubeVirt => "KubeVirt",
            Self::Azure => "Azure",
            Self::PowerVs => "PowerVS",
            Self::OpenStack => "OpenStack",
            Self::Gcp => "GCP",
        }
    }

    /// The platform spelled exactly `name` (HyperShift's names are case-sensitive).
    pub(crate) fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.as_str() == name)
    }

    /// Every name, comma-separated, for messages that list what is known.
    pub(crate) fn known() -> String {
        Self::ALL.map(Self::as_str).join(", ")
    }

    /// The platform `name` spells in any case, as a command-line argument may (`powervs`).
    pub fn parse_ignoring_case(name: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|p| p.as_str().eq_ignore_ascii_case(name))
    }

    /// The folder of its hosted CCM component under `assets/hosted/`, or None for a platform
    /// HyperShift builds no CCM for (`None`, `IBMCloud`, `Agent`).
    pub fn component_folder(self) -> Option<&'static str> {
        match self {
            Self::Aws => Some("aws"),
            Self::Azure => Some("azure"),
            Self::Gcp => Some("gcp"),
            Self::KubeVirt => Some("kubevirt"),
            Self::OpenStack => Some("openstack"),
            Self::PowerVs => Some("powervs"),
            Self::None | Self::IbmCloud | Self::Agent => Option::None,
        }
    }

    /// The platforms with a hosted CCM component, in HyperShift's order.
    pub(crate) fn with_component() -> impl Iterator<Item = HostedPlatform> {
        Self::ALL
            .into_iter()
            .filter(|p| p.component_folder().is_some())
    }
}

impl fmt::Display for HostedPlatform {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for HostedPlatform {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for HostedPlatform {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        Self::parse(&name).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "unknown platform {name:?} (known: {})",
                Self::known()
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{HostedPlatform, Platform};

    #[test]
    fn every_platform_parses_from_its_own_name_and_only_that() {
        for platform in Platform::ALL {
            assert_eq!(Platform::parse(platform.as_str()), Some(platform));
            assert_eq!(Platform::parse(&platform.as_str().to_lowercase()), None);
        }
        assert_eq!(Platform::parse(""), None);
        assert_eq!(Platform::parse("Moon"), None);
    }

    #[test]
    fn platforms_round_trip_through_serde_as_their_names() {
        let json = serde_json::to_value(Platform::OVirt).expect("serialises");
        assert_eq!(json, serde_json::json!("oVirt"));
        let back: Platform = serde_json::from_value(json).expect("deserialises");
        assert_eq!(back, Platform::OVirt);
        let err = serde_json::from_value::<Platform>(serde_json::json!("Moon"))
            .expect_err("unknown name");
        assert_eq!(format!("{err:#}"), "unknown platform \"Moon\"");
    }

    #[test]
    fn every_hosted_platform_parses_from_its_own_name_and_an_unknown_one_lists_the_known() {
        for platform in HostedPlatform::ALL {
            assert_eq!(HostedPlatform::parse(platform.as_str()), Some(platform));
            let json = serde_json::to_value(platform).expect("serialises");
            assert_eq!(json, serde_json::json!(platform.as_str()));
        }
        assert_eq!(HostedPlatform::parse("aws"), None);
        assert_eq!(HostedPlatform::parse("VSphere"), None);
        let err = serde_json::from_value::<HostedPlatform>(serde_json::json!("Moon"))
            .expect_err("unknown name");
        assert_eq!(
            format!("{err:#}"),
            "unknown platform \"Moon\" (known: AWS, None, IBMCloud, Agent, KubeVirt, Azure, PowerVS, OpenStack, GCP)"
        );
    }

    #[test]
    fn only_the_six_platforms_hypershift_builds_a_ccm_for_have_a_component_folder() {
        let with: Vec<&str> = HostedPlatform::with_component()
            .map(HostedPlatform::as_str)
            .collect();
        assert_eq!(
            with,
            ["AWS", "KubeVirt", "Azure", "PowerVS", "OpenStack", "GCP"]
        );
    }
}
