//! The `Infrastructure` object (`config.openshift.io/v1`, name `cluster`): the platform, the
//! infrastructure name, the control-plane topology and where the cloud config lives.

use super::{object_from_text, read_text};
use anyhow::{Context as _, Result, bail};
use camino::Utf8Path;
use ccm_catalogue::json_fields::typed;
use ccm_catalogue::platform::Platform;
use serde::Deserialize;
use serde_json::Value;

/// The parts of the Infrastructure that the render reads, plus the whole object for the cloud
/// config transforms (vSphere reads failure domains and node networking from it).
#[derive(Debug, Clone, PartialEq)]
pub struct Infrastructure {
    /// `status.platformStatus.type`.
    pub platform: Platform,
    /// `status.platformStatus.azure.cloudName` ("" when absent).
    pub azure_cloud_name: String,
    /// `status.infrastructureName` ("" when absent; providers that need it say so).
    pub infrastructure_name: String,
    /// `status.controlPlaneTopology == SingleReplica`.
    pub(crate) single_replica: bool,
    /// `spec.platformSpec.external.platformName` ("" when absent).
    pub(crate) external_platform_name: String,
    /// `status.platformStatus.external.cloudControllerManager.state`.
    pub(crate) external_ccm_state: CcmState,
    /// `spec.cloudConfig.name` ("" when absent).
    pub(crate) cloud_config_name: String,
    /// `spec.cloudConfig.key` ("" when absent).
    pub(crate) cloud_config_key: String,
    /// The object as read, for the cloud config transforms.
    pub raw: Value,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct Doc {
    #[serde(default)]
    spec: Spec,
    status: Option<Status>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct Spec {
    #[serde(default)]
    cloud_config: CloudConfigRef,
    #[serde(default)]
    platform_spec: Option<PlatformSpec>,
}

#[derive(Deserialize, Default)]
struct PlatformSpec {
    #[serde(default)]
    external: Option<ExternalSpec>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct ExternalSpec {
    #[serde(default)]
    platform_name: String,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct ExternalStatus {
    #[serde(default)]
    cloud_controller_manager: Option<CloudControllerManagerStatus>,
}

#[derive(Deserialize, Default)]
struct CloudControllerManagerStatus {
    #[serde(default)]
    state: String,
}

/// `status.platformStatus.external.cloudControllerManager.state`: the
/// `CloudControllerManagerState` values openshift/api defines (config/v1
/// types_infrastructure.go), which reads an empty state as None.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CcmState {
    /// Absent or "".
    Empty,
    /// `None`: the cluster does not expect a CCM.
    None,
    /// `External`: the cluster expects the CCM the user brings.
    External,
}

impl CcmState {
    fn parse(state: &str) -> Option<Self> {
        match state {
            "" => Some(Self::Empty),
            "None" => Some(Self::None),
            "External" => Some(Self::External),
            _ => None,
        }
    }
}

#[derive(Deserialize, Default)]
struct CloudConfigRef {
    #[serde(default)]
    name: String,
    #[serde(default)]
    key: String,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
#[allow(clippy::struct_field_names)] // named as in openshift/api
struct Status {
    #[serde(default)]
    infrastructure_name: String,
    #[serde(default)]
    control_plane_topology: String,
    platform_status: Option<PlatformStatus>,
}

#[derive(Deserialize, Default)]
struct PlatformStatus {
    #[serde(rename = "type", default)]
    platform: String,
    #[serde(default)]
    azure: Option<AzureStatus>,
    #[serde(default)]
    external: Option<ExternalStatus>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct AzureStatus {
    #[serde(default)]
    cloud_name: String,
}

/// Control-plane topologies openshift/api defines (`TopologyMode`).
const TOPOLOGIES: &[&str] = &[
    "HighlyAvailable",
    "HighlyAvailableArbiter",
    "SingleReplica",
    "External",
    "DualReplica",
];

/// Reads the Infrastructure from a file (YAML or JSON, possibly among other objects).
pub(crate) fn load(path: &Utf8Path) -> Result<Infrastructure> {
    parse(&read_text(path)?, path)
}

/// [`load`] on text already read (`path` only names it in errors).
pub fn parse(text: &str, path: &Utf8Path) -> Result<Infrastructure> {
    let doc = object_from_text(
        text,
        path,
        "Infrastructure",
        "config.openshift.io",
        &["v1"],
        &["cluster"],
    )?;
    from_value(doc, path)
}

/// Checks and extracts an Infrastructure already parsed.
pub fn from_value(raw: Value, path: &Utf8Path) -> Result<Infrastructure> {
    let doc: Doc = typed(&raw, path)?;
    // CCCMO pkg/config/config.go ComposeConfig: the platform comes from status.platformStatus
    // only, never from the deprecated status.platform or from spec.
    let mut status = doc.status.unwrap_or_default();
    let Some(platform_status) = status.platform_status.take() else {
        bail!(
            "{path}: status.platformStatus is missing (the Infrastructure must carry its status, as the installer writes it)"
        );
    };
    let mut platform_status = platform_status;
    let name = std::mem::take(&mut platform_status.platform);
    if name.is_empty() {
        bail!("{path}: status.platformStatus.type is empty");
    }
    let Some(platform) = Platform::parse(&name) else {
        bail!(
            "{path}: status.platformStatus.type: unknown platform {name:?} (known: {})",
            Platform::known()
        );
    };
    let topology = status.control_plane_topology;
    if !topology.is_empty() && !TOPOLOGIES.contains(&topology.as_str()) {
        bail!(
            "{path}: status.controlPlaneTopology: unknown topology {topology:?} (known: {})",
            TOPOLOGIES.join(", ")
        );
    }
    let infrastructure_name = status.infrastructure_name;
    if !infrastructure_name.is_empty() {
        ccm_catalogue::validate::infrastructure_name(&infrastructure_name)
            .with_context(|| format!("{path}: status.infrastructureName"))?;
    }
    let state = platform_status
        .external
        .take()
        .and_then(|e| e.cloud_controller_manager)
        .map(|c| c.state)
        .unwrap_or_default();
    let Some(external_ccm_state) = CcmState::parse(&state) else {
        bail!(
            "{path}: status.platformStatus.external.cloudControllerManager.state: unknown state {state:?} (known: External, None, or empty)"
        );
    };
    let external_platform_name = doc
        .spec
        .platform_spec
        .and_then(|p| p.external)
        .map(|e| e.platform_name)
        .unwrap_or_default();
    Ok(Infrastructure {
        external_platform_name,
        external_ccm_state,
        azure_cloud_name: platform_status
            .azure
            .map(|a| a.cloud_name)
            .unwrap_or_default(),
        platform,
        single_replica: topology == "SingleReplica",
        infrastructure_name,
        cloud_config_name: doc.spec.cloud_config.name,
        cloud_config_key: doc.spec.cloud_config.key,
        raw,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse(v: Value) -> Result<Infrastructure> {
        from_value(v, Utf8Path::new("infra.yaml"))
    }

    fn infra(platform: &str) -> Value {
        json!({
            "apiVersion": "config.openshift.io/v1", "kind": "Infrastructure",
            "spec": {"cloudConfig": {"name": "cloud-provider-config", "key": "config"}},
            "status": {"infrastructureName": "mycluster-abcde",
                       "controlPlaneTopology": "SingleReplica",
                       "platformStatus": {"type": platform, "azure": {"cloudName": "AzureStackCloud"}}}
        })
    }

    #[test]
    fn fields_the_render_reads_are_extracted() {
        let i = parse(infra("Azure")).expect("valid");
        assert_eq!(i.platform, Platform::Azure);
        assert_eq!(i.azure_cloud_name, "AzureStackCloud");
        assert_eq!(i.infrastructure_name, "mycluster-abcde");
        assert!(i.single_replica);
        assert_eq!(i.cloud_config_name, "cloud-provider-config");
        assert_eq!(i.cloud_config_key, "config");
    }

    #[test]
    fn external_platform_name_and_ccm_state_are_extracted() {
        let v = json!({
            "spec": {"platformSpec": {"type": "External", "external": {"platformName": "oci"}}},
            "status": {"platformStatus": {"type": "External",
                "external": {"cloudControllerManager": {"state": "External"}}}}
        });
        let i = parse(v).expect("valid");
        assert_eq!(i.platform, Platform::External);
        assert_eq!(i.external_platform_name, "oci");
        assert_eq!(i.external_ccm_state, CcmState::External);
        let bare =
            parse(json!({"status": {"platformStatus": {"type": "External"}}})).expect("valid");
        assert_eq!(bare.external_ccm_state, CcmState::Empty);
        assert_eq!(bare.external_platform_name, "");
    }

    #[test]
    fn unknown_ccm_state_is_an_error_naming_the_field() {
        let v = json!({"status": {"platformStatus": {"type": "External",
            "external": {"cloudControllerManager": {"state": "Enabled"}}}}});
        let err = format!("{:#}", parse(v).expect_err("unknown state"));
        assert!(
            err.contains("status.platformStatus.external.cloudControllerManager.state: unknown state \"Enabled\""),
            "{err}"
        );
    }

    #[test]
    fn missing_platform_status_is_an_error() {
        let err = parse(json!({"status": {"platform": "AWS"}})).expect_err("no platformStatus");
        assert!(
            format!("{err:#}").contains("infra.yaml: status.platformStatus is missing"),
            "{err}"
        );
    }

    #[test]
    fn unknown_platform_is_an_error_naming_the_field() {
        let err = parse(infra("Moon")).expect_err("unknown");
        assert!(
            format!("{err:#}")
                .starts_with("infra.yaml: status.platformStatus.type: unknown platform \"Moon\""),
            "{err}"
        );
    }

    #[test]
    fn wrong_type_is_an_error_naming_the_field() {
        let err = parse(json!({"status": {"platformStatus": {"type": 7}}})).expect_err("type");
        assert!(
            format!("{err:#}").starts_with("infra.yaml: status.platformStatus.type: invalid type"),
            "{err}"
        );
    }

    #[test]
    fn infrastructure_name_that_could_inject_is_refused() {
        let mut v = infra("AWS");
        v["status"]["infrastructureName"] = json!("x \\\n--evil=1");
        let err = parse(v).expect_err("bad name");
        assert!(
            format!("{err:#}").contains("status.infrastructureName"),
            "{err}"
        );
    }
}
