//! `--hosted-control-plane`: a HyperShift `HostedControlPlane` (`hypershift.openshift.io/v1beta1`),
//! the fields of it that HyperShift's CCM components and their framework read
//! (`HyperShift api/hypershift/v1beta1/hosted_controlplane.go` and the platform files). Field
//! names match exactly (as Kubernetes decodes them); a value of the wrong type is an error naming
//! the file and the field. Fields the CCM does not read are not looked at. The platform, its
//! type and block, is [`platform`].

pub(crate) mod arm_id;
pub(crate) mod platform;

use super::{object_from_text, read_text};
use anyhow::{Context as _, Result, bail};
use camino::Utf8Path;
use ccm_catalogue::json_fields::typed;
use platform::{GivenPlatform, PlatformSpec};
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// A HostedControlPlane, as far as the CCM reads it: its platform `P` parsed into a
/// [`PlatformSpec`] (decoded first as given, then checked).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct HostedControlPlane<P = PlatformSpec> {
    /// `metadata`.
    #[serde(default)]
    pub(crate) metadata: Metadata,
    /// `spec` (required, as its `platform.type` is).
    pub(crate) spec: Spec<P>,
}

/// `metadata`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub(crate) struct Metadata {
    /// `metadata.name`.
    #[serde(default)]
    pub(crate) name: String,
    /// `metadata.namespace`: the hosted control plane's namespace, where everything goes.
    #[serde(default)]
    pub(crate) namespace: String,
    /// `metadata.labels`.
    #[serde(default)]
    pub(crate) labels: BTreeMap<String, String>,
    /// `metadata.annotations`.
    #[serde(default)]
    pub(crate) annotations: BTreeMap<String, String>,
    /// `metadata.uid`.
    #[serde(default)]
    pub(crate) uid: String,
}

/// `spec`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Spec<P = PlatformSpec> {
    /// `spec.releaseImage`.
    #[serde(default)]
    pub(crate) release_image: String,
    /// `spec.controlPlaneReleaseImage`.
    #[serde(default)]
    pub(crate) control_plane_release_image: Option<String>,
    /// `spec.infraID`.
    #[serde(default, rename = "infraID")]
    pub(crate) infra_id: String,
    /// `spec.platform` (required, as its `type` is).
    pub(crate) platform: P,
    /// `spec.networking`.
    #[serde(default)]
    pub(crate) networking: Networking,
    /// `spec.configuration`.
    #[serde(default)]
    pub(crate) configuration: Option<Configuration>,
    /// `spec.controllerAvailabilityPolicy` (`HighlyAvailable` when empty).
    #[serde(default)]
    pub(crate) controller_availability_policy: AvailabilityPolicy,
    /// `spec.nodeSelector`.
    #[serde(default)]
    pub(crate) node_selector: Option<BTreeMap<String, String>>,
    /// `spec.tolerations`, as given (Kubernetes tolerations).
    #[serde(default)]
    pub(crate) tolerations: Vec<Value>,
    /// `spec.labels`: extra labels of every control plane pod.
    #[serde(default)]
    pub(crate) labels: BTreeMap<String, String>,
}

/// `spec.networking`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Networking {
    /// `spec.networking.machineNetwork[].cidr`.
    #[serde(default)]
    pub(crate) machine_network: Vec<Cidr>,
}

/// One `machineNetwork` entry.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub(crate) struct Cidr {
    /// `cidr`.
    #[serde(default)]
    pub(crate) cidr: String,
}

/// `spec.configuration`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Configuration {
    /// `spec.configuration.apiServer`.
    #[serde(default)]
    pub(crate) api_server: Option<ApiServer>,
    /// `spec.configuration.featureGate.featureSet`.
    #[serde(default)]
    pub(crate) feature_gate: Option<Value>,
}

/// `spec.configuration.apiServer`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ApiServer {
    /// `tlsSecurityProfile`, an openshift/api `TLSSecurityProfile` as given: the hosted
    /// configuration reads it with the standalone render's reader (`config/tls/profile.rs`).
    #[serde(default)]
    pub(crate) tls_security_profile: Option<Value>,
}

/// `spec.controllerAvailabilityPolicy`: how many replicas a control plane component runs when
/// its Deployment does not say.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum AvailabilityPolicy {
    /// `HighlyAvailable`, also when the field is empty.
    #[default]
    HighlyAvailable,
    /// `SingleReplica`.
    SingleReplica,
}

impl<'de> Deserialize<'de> for AvailabilityPolicy {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        match <std::borrow::Cow<'de, str>>::deserialize(d)?.as_ref() {
            "" | "HighlyAvailable" => Ok(Self::HighlyAvailable),
            "SingleReplica" => Ok(Self::SingleReplica),
            other => Err(serde::de::Error::custom(format!(
                "unknown policy {other:?} (known: HighlyAvailable, SingleReplica)"
            ))),
        }
    }
}

/// Reads `--hosted-control-plane`.
pub(crate) fn load(path: &Utf8Path) -> Result<HostedControlPlane> {
    parse(&read_text(path)?, path)
}

/// [`load`] on text already read (`path` only names it in errors).
pub(crate) fn parse(text: &str, path: &Utf8Path) -> Result<HostedControlPlane> {
    let doc = object_from_text(
        text,
        path,
        "HostedControlPlane",
        "hypershift.openshift.io",
        &["v1beta1"],
        &[],
    )?;
    from_document(&doc, path)
}

/// [`parse`] on a HostedControlPlane already parsed as a document (its kind and apiVersion
/// checked), such as one derived from a HostedCluster; `path` names it in errors.
pub(crate) fn from_document(doc: &Value, path: &Utf8Path) -> Result<HostedControlPlane> {
    let platform_type = doc.pointer("/spec/platform/type");
    if platform_type.is_none_or(|t| t.as_str() == Some("")) {
        bail!("{path}: spec.platform.type is missing");
    }
    let hcp: HostedControlPlane<GivenPlatform> = typed(doc, path)?;
    check(&hcp, path)?;
    hcp.with_platform(path)
}

impl HostedControlPlane<GivenPlatform> {
    /// The HostedControlPlane with its platform checked and typed.
    fn with_platform(self, path: &Utf8Path) -> Result<HostedControlPlane> {
        let Spec {
            release_image,
            control_plane_release_image,
            infra_id,
            platform,
            networking,
            configuration,
            controller_availability_policy,
            node_selector,
            tolerations,
            labels,
        } = self.spec;
        Ok(HostedControlPlane {
            metadata: self.metadata,
            spec: Spec {
                release_image,
                control_plane_release_image,
                infra_id,
                platform: platform.into_spec(path)?,
                networking,
                configuration,
                controller_availability_policy,
                node_selector,
                tolerations,
                labels,
            },
        })
    }
}

/// What the API server and HyperShift's component framework require before a CCM is built.
fn check<P>(hcp: &HostedControlPlane<P>, path: &Utf8Path) -> Result<()> {
    if hcp.metadata.name.is_empty() {
        bail!("{path}: metadata.name is missing");
    }
    if hcp.metadata.namespace.is_empty() {
        bail!("{path}: metadata.namespace is missing (the hosted control plane's namespace)");
    }
    ccm_catalogue::validate::namespace(&hcp.metadata.namespace)
        .with_context(|| format!("{path}: metadata.namespace"))?;
    if hcp.spec.release_image.is_empty() {
        bail!("{path}: spec.releaseImage is missing");
    }
    for (i, entry) in hcp.spec.networking.machine_network.iter().enumerate() {
        canonical_cidr(&entry.cidr).ok_or_else(|| {
            anyhow::anyhow!(
                "{path}: spec.networking.machineNetwork[{i}].cidr: {:?} is not a CIDR",
                entry.cidr
            )
        })?;
    }
    Ok(())
}

/// A CIDR as Go's `ipnet.IPNet` writes it: the network address (host bits cleared) in its
/// canonical form, and the prefix length.
pub(crate) fn canonical_cidr(text: &str) -> Option<String> {
    let (ip, prefix) = text.split_once('/')?;
    let prefix: u32 = prefix.parse().ok()?;
    match ip.parse::<std::net::IpAddr>().ok()? {
        std::net::IpAddr::V4(v4) if prefix <= 32 => {
            let mask = u32::MAX.checked_shl(32 - prefix).unwrap_or(0);
            Some(format!(
                "{}/{prefix}",
                std::net::Ipv4Addr::from(u32::from(v4) & mask)
            ))
        }
        std::net::IpAddr::V6(v6) if prefix <= 128 => {
            let mask = u128::MAX.checked_shl(128 - prefix).unwrap_or(0);
            Some(format!(
                "{}/{prefix}",
                std::net::Ipv6Addr::from(u128::from(v6) & mask)
            ))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINIMAL: &str = "apiVersion: hypershift.openshift.io/v1beta1\nkind: HostedControlPlane\nmetadata: {name: hcp, namespace: ns}\nspec:\n  releaseImage: quay.io/r:1\n  platform: {type: AWS, aws: {}}\n";

    #[test]
    fn a_minimal_hosted_control_plane_reads() {
        let hcp = parse(MINIMAL, "hcp.yaml".into()).expect("parses");
        assert_eq!(
            hcp.spec.platform,
            PlatformSpec::Aws(platform::Aws::default())
        );
        assert_eq!(hcp.metadata.namespace, "ns");
    }

    #[test]
    fn an_unknown_platform_or_policy_and_a_wrong_type_name_the_field() {
        let err = format!(
            "{:#}",
            parse(
                &MINIMAL.replace("type: AWS", "type: Moon"),
                "hcp.yaml".into(),
            )
            .expect_err("unknown")
        );
        assert!(
            err.starts_with("hcp.yaml: spec.platform.type: unknown platform \"Moon\""),
            "{err}"
        );
        let err = format!(
            "{:#}",
            parse(&format!("{MINIMAL}  infraID: [1]\n"), "hcp.yaml".into())
                .expect_err("wrong type")
        );
        assert!(
            err.starts_with("hcp.yaml: spec.infraID: invalid type"),
            "{err}"
        );
        let policy = |p: &str| {
            parse(
                &format!("{MINIMAL}  controllerAvailabilityPolicy: {p}\n"),
                "hcp.yaml".into(),
            )
            .map(|h| h.spec.controller_availability_policy)
            .map_err(|e| format!("{e:#}"))
        };
        assert_eq!(
            policy("SingleReplica"),
            Ok(AvailabilityPolicy::SingleReplica)
        );
        assert_eq!(policy("\"\""), Ok(AvailabilityPolicy::HighlyAvailable));
        assert_eq!(
            policy("Many"),
            Err("hcp.yaml: spec.controllerAvailabilityPolicy: unknown policy \"Many\" (known: HighlyAvailable, SingleReplica)".into())
        );
    }

    #[test]
    fn cidrs_are_written_as_go_writes_them_and_a_bad_one_is_refused() {
        assert_eq!(
            canonical_cidr("10.0.3.4/16").as_deref(),
            Some("10.0.0.0/16")
        );
        assert_eq!(
            canonical_cidr("fd00:0:0::1/48").as_deref(),
            Some("fd00::/48")
        );
        assert_eq!(canonical_cidr("10.0.0.0/33"), None);
        let text = format!("{MINIMAL}  networking:\n    machineNetwork:\n    - cidr: nope\n");
        let err = format!("{:#}", parse(&text, "hcp.yaml".into()).expect_err("bad"));
        assert!(
            err.contains("spec.networking.machineNetwork[0].cidr: \"nope\" is not a CIDR"),
            "{err}"
        );
    }

    #[test]
    fn field_names_match_exactly() {
        // Go's JSON decoder would take `infraId` for `infraID`; Kubernetes' strict decoding does not.
        let hcp = parse(&format!("{MINIMAL}  infraId: x\n"), "hcp.yaml".into()).expect("parses");
        assert_eq!(hcp.spec.infra_id, "");
    }
}
