//! OCP feature gates, read from the cluster `FeatureGate` object.
//!
//! This module owns the answer to "is OCP gate X on?" for the render, and the value of the
//! `--feature-gates=` flag CCCMO passes to the `openstack` and `vsphere` CCMs
//! (`pkg/util/featuregates.go`). A live cluster's object carries the answer in
//! `status.featureGates`; the installer's object carries only `spec.featureSet`, so the states
//! of the gates the render reads are tabled here per feature set.
//!
//! Every gate name kept here matches `[A-Za-z0-9]+`, so names can go on a shell script line.

use crate::json_fields::{as_object, optional_object, optional_str, type_name};
use std::cmp::Ordering;

use anyhow::{Result, bail};
use serde_json::{Map, Value};

/// The enabled and disabled OCP feature gates of one cluster.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FeatureGates {
    /// In the order of the source: the status list as written, or sorted by name when computed
    /// from a feature set (as cluster-config-operator's payload manifests are).
    enabled: Vec<String>,
    disabled: Vec<String>,
    /// The upstream gates the release's controller-manager knows, when not the newest's.
    upstream: Option<Vec<String>>,
}

/// Where a release's gates differ from the newest release's tables below (`assets/releases/`,
/// `spec.behaviour.featureSets` and `upstreamFeatureGates`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReleaseGates {
    /// Gate name to the feature sets that enable it, for gates whose sets differ.
    pub(crate) feature_sets: std::collections::BTreeMap<String, Vec<FeatureSet>>,
    /// The upstream controller-manager gates CCCMO passes on (`--feature-gates=`), when they
    /// differ.
    pub(crate) upstream: Option<Vec<String>>,
}

impl FeatureGates {
    /// From the parsed `featuregates.config.openshift.io` object (`cluster`) as JSON, or None
    /// (→ the OCP `Default` feature set).
    ///
    /// When `status.featureGates` lists gates, they are used as they are, as CCCMO's feature
    /// gate accessor does. If several versions are listed (a cluster keeps one entry per version
    /// in its update history), the entry with the highest version is used: CCCMO reads the entry
    /// of the version it runs as, which after an update is the newest. Without status, the gates
    /// are computed from `spec.featureSet`.
    pub fn from_manifest(featuregate: Option<&Value>) -> Result<Self> {
        Self::from_manifest_in(featuregate, &ReleaseGates::default())
    }

    /// [`FeatureGates::from_manifest`] for a release whose gates differ from the newest one's
    /// ([`ReleaseGates`]: which feature sets enable a gate, and which upstream gates its
    /// controller-manager knows).
    pub fn from_manifest_in(featuregate: Option<&Value>, release: &ReleaseGates) -> Result<Self> {
        let mut gates = Self::from_manifest_newest(featuregate, release)?;
        gates.upstream.clone_from(&release.upstream);
        Ok(gates)
    }

    fn from_manifest_newest(featuregate: Option<&Value>, release: &ReleaseGates) -> Result<Self> {
        let Some(featuregate) = featuregate else {
            return Ok(Self::for_feature_set(FeatureSet::Default, release));
        };
        let root = as_object(featuregate, "featuregate")?;
        if let Some(kind) = optional_str(root.get("kind"), "kind")?
            && kind != "FeatureGate"
        {
            bail!("kind: expected \"FeatureGate\", got {kind:?}");
        }
        // The spec is checked even when status decides, so a malformed object is never accepted.
        let from_spec = Self::from_spec(root.get("spec"), release)?;
        match Self::from_status(root.get("status"))? {
            Some(from_status) => Ok(from_status),
            None => Ok(from_spec),
        }
    }

    /// Whether OCP gate `name` is enabled. A gate this cluster does not know is off; unlike
    /// library-go's `FeatureGate.Enabled`, this never panics.
    pub fn is_enabled(&self, name: &str) -> bool {
        self.enabled.iter().any(|gate| gate == name)
    }

    /// The value CCCMO passes as `--feature-gates=` to the `openstack` and `vsphere` CCMs: the enabled
    /// gates that upstream `k8s.io/controller-manager` registers, each `Name=true`, comma-joined,
    /// sorted by name; `""` when none.
    pub fn upstream_ccm_flag_value(&self) -> String {
        // CCCMO pkg/util/featuregates.go GetEnabledDisabledFeatures walks library-go's
        // KnownFeatures(), which is the sorted set of all gate names, keeps the enabled ones that
        // are in the upstream allow-list, and BuildFeatureGateString(enabled, nil) appends
        // "=true"; disabled gates are never passed.
        let mut names: Vec<&str> = self
            .enabled
            .iter()
            .map(String::as_str)
            .filter(|name| match &self.upstream {
                Some(release) => release.iter().any(|gate| gate == name),
                None => UPSTREAM_CCM_GATES.contains(name),
            })
            .collect();
        names.sort_unstable();
        names.dedup();
        names
            .iter()
            .map(|name| format!("{name}=true"))
            .collect::<Vec<_>>()
            .join(",")
    }

    /// The enabled gate names.
    pub fn enabled(&self) -> &[String] {
        &self.enabled
    }

    /// The disabled gate names.
    pub fn disabled(&self) -> &[String] {
        &self.disabled
    }

    fn for_feature_set(set: FeatureSet, release: &ReleaseGates) -> Self {
        let mut enabled = Vec::new();
        let mut disabled = Vec::new();
        for gate in KNOWN_GATES {
            let on = match release.feature_sets.get(gate.name) {
                Some(sets) => sets.contains(&set),
                None => gate.enabled_in(set),
            };
            if on {
                enabled.push(gate.name.to_owned());
            } else {
                disabled.push(gate.name.to_owned());
            }
        }
        Self::sorted(enabled, disabled)
    }

    fn sorted(mut enabled: Vec<String>, mut disabled: Vec<String>) -> Self {
        enabled.sort_unstable();
        enabled.dedup();
        disabled.sort_unstable();
        disabled.dedup();
        Self {
            enabled,
            disabled,
            upstream: None,
        }
    }

    fn from_spec(spec: Option<&Value>, release: &ReleaseGates) -> Result<Self> {
        let Some(spec) = optional_object(spec, "spec")? else {
            return Ok(Self::for_feature_set(FeatureSet::Default, release));
        };
        let set_name = optional_str(spec.get("featureSet"), "spec.featureSet")?.unwrap_or_default();
        let custom = optional_object(spec.get("customNoUpgrade"), "spec.customNoUpgrade")?;
        let set = match set_name {
            // openshift/api config/v1 types_feature.go: Default is "".
            "" => FeatureSet::Default,
            "TechPreviewNoUpgrade" => FeatureSet::TechPreviewNoUpgrade,
            "DevPreviewNoUpgrade" => FeatureSet::DevPreviewNoUpgrade,
            "OKD" => FeatureSet::Okd,
            "CustomNoUpgrade" => {
                let enabled = gate_list(custom, "enabled")?;
                let disabled = gate_list(custom, "disabled")?;
                return Ok(Self::custom(enabled, disabled));
            }
            other => bail!("spec.featureSet: unknown feature set {other:?}"),
        };
        // Checked even when unused, so a typo in it is reported.
        gate_list(custom, "enabled")?;
        gate_list(custom, "disabled")?;
        Ok(Self::for_feature_set(set, release))
    }

    /// cluster-config-operator `FeaturesGatesFromFeatureSets` / `completeFeatureGates`: with
    /// `CustomNoUpgrade`, exactly the listed `enabled` gates are on (a name in both lists stays
    /// on, as library-go's `Enabled` checks the enabled set first); every other known gate and
    /// every listed `disabled` gate is off. The Default set is not a base: a gate the Default set
    /// enables is off unless listed.
    fn custom(enabled: Vec<String>, disabled: Vec<String>) -> Self {
        let mut off: Vec<String> = KNOWN_GATES
            .iter()
            .map(|gate| gate.name.to_owned())
            .chain(disabled)
            .filter(|name| !enabled.contains(name))
            .collect();
        off.sort_unstable();
        off.dedup();
        let mut on = enabled;
        on.sort_unstable();
        on.dedup();
        Self {
            enabled: on,
            disabled: off,
            upstream: None,
        }
    }

    fn from_status(status: Option<&Value>) -> Result<Option<Self>> {
        let Some(status) = optional_object(status, "status")? else {
            return Ok(None);
        };
        let entries = match status.get("featureGates") {
            None | Some(Value::Null) => return Ok(None),
            Some(Value::Array(entries)) => entries,
            Some(other) => bail!(
                "status.featureGates: expected a list, got {}",
                type_name(other)
            ),
        };
        let mut parsed: Vec<(String, Self)> = Vec::with_capacity(entries.len());
        for (index, entry) in entries.iter().enumerate() {
            let path = format!("status.featureGates[{index}]");
            let entry = as_object(entry, &path)?;
            let version = optional_str(entry.get("version"), &format!("{path}.version"))?
                .unwrap_or_default()
                .to_owned();
            if parsed.iter().any(|(seen, _)| *seen == version) {
                // openshift/api: featureGates is a list map keyed by version.
                bail!("{path}.version: version {version:?} is listed twice");
            }
            let enabled = named_list(entry.get("enabled"), &format!("{path}.enabled"))?;
            let disabled = named_list(entry.get("disabled"), &format!("{path}.disabled"))?;
            parsed.push((
                version,
                Self {
                    enabled,
                    disabled,
                    upstream: None,
                },
            ));
        }
        Ok(parsed
            .into_iter()
            .max_by(|(a, _), (b, _)| compare_versions(a, b))
            .map(|(_, gates)| gates))
    }
}

/// The feature sets openshift/api defines (`configv1.AllFixedFeatureSets`); `CustomNoUpgrade` is
/// handled apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
pub enum FeatureSet {
    /// The default set (`spec.featureSet: ""`).
    Default,
    /// `TechPreviewNoUpgrade`.
    TechPreviewNoUpgrade,
    /// `DevPreviewNoUpgrade`.
    DevPreviewNoUpgrade,
    /// `OKD`.
    #[serde(rename = "OKD")]
    Okd,
}

/// One OCP gate and the fixed feature sets that enable it on self-managed clusters
/// (cluster profile `include.release.openshift.io/self-managed-high-availability`).
struct KnownGate {
    name: &'static str,
    enabled_in: &'static [FeatureSet],
}

impl KnownGate {
    fn enabled_in(&self, set: FeatureSet) -> bool {
        self.enabled_in.contains(&set)
    }
}

/// `inDefault(), inOKD(), inTechPreviewNoUpgrade(), inDevPreviewNoUpgrade()`.
const ALL_FIXED_SETS: &[FeatureSet] = &[
    FeatureSet::Default,
    FeatureSet::Okd,
    FeatureSet::TechPreviewNoUpgrade,
    FeatureSet::DevPreviewNoUpgrade,
];

/// The OCP gates the render (and the install-config's checks) read, with their states in
/// openshift/api `features/features.go` as vendored by CCCMO bc52198c.
///
/// Only these gates are tabled, not the full registry: the index holds many openshift/api
/// revisions around that commit and none of them is provably the vendored one, so a full table
/// could not be shown right gate by gate. For these three the states are established as follows
/// (all from the self-managed cluster profile):
/// * `AWSServiceLBNetworkSecurityGroup` (AWS cloud config `NLBSecurityGroupMode = Managed`):
///   `enable(inClusterProfile(SelfManaged), inDefault(), inOKD(), inTechPreviewNoUpgrade(),
///   inDevPreviewNoUpgrade())`; enabled in payload manifest
///   `featureGate-4-SelfManagedHA-Default.yaml`; CCCMO's conformance output for the Default set
///   has `NLBSecurityGroupMode = Managed`.
/// * `VSphereMixedNodeEnv` (vSphere `node.openshift.io/platform-type=vsphere` label):
///   `enable(inDefault(), inOKD(), inTechPreviewNoUpgrade(), inDevPreviewNoUpgrade())`; CCCMO's
///   conformance output for the Default set carries the label.
/// * `VSphereMultiVCenterDay2` (vSphere cloud config source): introduced DevPreview-only, then
///   `enable(inDefault(), inOKD(), inTechPreviewNoUpgrade(), inDevPreviewNoUpgrade())` in the
///   same revisions that make `VSphereMixedNodeEnv` Default-on; no revision read has one of the
///   two Default-on without the other. No conformance output depends on it.
const KNOWN_GATES: &[KnownGate] = &[
    KnownGate {
        name: "AWSServiceLBNetworkSecurityGroup",
        enabled_in: ALL_FIXED_SETS,
    },
    KnownGate {
        name: "VSphereMixedNodeEnv",
        enabled_in: ALL_FIXED_SETS,
    },
    KnownGate {
        name: "VSphereMultiVCenterDay2",
        enabled_in: ALL_FIXED_SETS,
    },
];

impl FeatureSet {
    /// The set as `featureSet` spells it, `""` for the Default set.
    pub fn spelling(self) -> &'static str {
        match self {
            Self::Default => "",
            Self::TechPreviewNoUpgrade => "TechPreviewNoUpgrade",
            Self::DevPreviewNoUpgrade => "DevPreviewNoUpgrade",
            Self::Okd => "OKD",
        }
    }
}

/// Whether `name` is one of the tabled OCP gates: the ones the render reads, and the only ones
/// a release may re-table.
pub fn is_tabled(name: &str) -> bool {
    KNOWN_GATES.iter().any(|gate| gate.name == name)
}

/// The gates `k8s.io/controller-manager/pkg/features.SetupCurrentKubernetesSpecificFeatureGates`
/// registers on a fresh component-base gate at Kubernetes 1.36, plus component-base's own
/// `AllAlpha` and `AllBeta`: CCCMO's allow-list for `--feature-gates`.
const UPSTREAM_CCM_GATES: &[&str] = &[
    "AllAlpha",
    "AllBeta",
    // alpha since 1.35
    "CloudControllerManagerWatchBasedRoutesReconciliation",
    // alpha since 1.27
    "CloudControllerManagerWebhook",
    // alpha since 1.36
    "ControllerManagerReleaseLeaderElectionLockOnExit",
];

/// `spec.customNoUpgrade.<field>`: a list of gate names (plain strings).
fn gate_list(custom: Option<&Map<String, Value>>, field: &str) -> Result<Vec<String>> {
    let path = format!("spec.customNoUpgrade.{field}");
    let Some(custom) = custom else {
        return Ok(Vec::new());
    };
    match custom.get(field) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(index, item)| {
                let item_path = format!("{path}[{index}]");
                match item {
                    Value::String(name) => checked_name(name, &item_path),
                    other => bail!("{item_path}: expected a string, got {}", type_name(other)),
                }
            })
            .collect(),
        Some(other) => bail!("{path}: expected a list, got {}", type_name(other)),
    }
}

/// A status list of `{name: …}` objects.
fn named_list(value: Option<&Value>, path: &str) -> Result<Vec<String>> {
    match value {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(index, item)| {
                let item_path = format!("{path}[{index}]");
                let item = as_object(item, &item_path)?;
                let name_path = format!("{item_path}.name");
                match item.get("name") {
                    Some(Value::String(name)) => checked_name(name, &name_path),
                    None | Some(Value::Null) => bail!("{name_path}: required"),
                    Some(other) => {
                        bail!("{name_path}: expected a string, got {}", type_name(other))
                    }
                }
            })
            .collect(),
        Some(other) => bail!("{path}: expected a list, got {}", type_name(other)),
    }
}

/// Gate names end up on a shell script line, so only `[A-Za-z0-9]+` is accepted (the API allows
/// dots and dashes, which no OCP or upstream gate uses).
fn checked_name(name: &str, path: &str) -> Result<String> {
    if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric()) {
        bail!("{path}: invalid feature gate name {name:?} (must match [A-Za-z0-9]+)");
    }
    Ok(name.to_owned())
}

/// Orders release versions such as `4.22.0`, `4.23.0-0.nightly-2026-07-30-000000`: runs of
/// digits compare as numbers, everything else byte by byte, a version that is a prefix of
/// another is lower. Total and deterministic for any strings.
fn compare_versions(a: &str, b: &str) -> Ordering {
    let mut left = chunks(a);
    let mut right = chunks(b);
    loop {
        match (left.next(), right.next()) {
            (None, None) => return a.cmp(b),
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(x), Some(y)) => {
                let order = match (is_number(x), is_number(y)) {
                    (true, true) => compare_numbers(x, y),
                    _ => x.cmp(y),
                };
                if order != Ordering::Equal {
                    return order;
                }
            }
        }
    }
}

fn is_number(chunk: &str) -> bool {
    chunk.bytes().all(|b| b.is_ascii_digit())
}

fn compare_numbers(x: &str, y: &str) -> Ordering {
    let x = x.trim_start_matches('0');
    let y = y.trim_start_matches('0');
    x.len().cmp(&y.len()).then_with(|| x.cmp(y))
}

/// Splits a string into maximal runs of ASCII digits and of everything else.
fn chunks(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        let first = rest.bytes().next()?;
        let digits = first.is_ascii_digit();
        let end = rest
            .bytes()
            .position(|b| b.is_ascii_digit() != digits)
            .unwrap_or(rest.len());
        let (chunk, tail) = rest.split_at(end);
        rest = tail;
        Some(chunk)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;
    use serde_json::json;

    /// Every tabled gate, sorted: the ones the render reads, all on in every fixed set at the
    /// newest release.
    const READ_BY_RENDER: [&str; 3] = [
        "AWSServiceLBNetworkSecurityGroup",
        "VSphereMixedNodeEnv",
        "VSphereMultiVCenterDay2",
    ];

    fn gates(object: &Value) -> FeatureGates {
        match FeatureGates::from_manifest(Some(object)) {
            Ok(gates) => gates,
            Err(err) => panic!("unexpected error: {err:#}"),
        }
    }

    fn error(object: &Value) -> String {
        match FeatureGates::from_manifest(Some(object)) {
            Ok(gates) => panic!("expected an error, got {gates:?}"),
            Err(err) => format!("{err:#}"),
        }
    }

    fn installer(feature_set: &str) -> Value {
        json!({
            "apiVersion": "config.openshift.io/v1",
            "kind": "FeatureGate",
            "metadata": {"name": "cluster"},
            "spec": {"featureSet": feature_set},
        })
    }

    fn with_status(entries: &Value) -> Value {
        json!({
            "apiVersion": "config.openshift.io/v1",
            "kind": "FeatureGate",
            "metadata": {"name": "cluster"},
            "spec": {},
            "status": {"featureGates": entries},
        })
    }

    fn names(list: &[&str]) -> Value {
        Value::Array(list.iter().map(|name| json!({"name": name})).collect())
    }

    #[test]
    fn no_manifest_is_the_default_feature_set() {
        let gates = FeatureGates::from_manifest(None).expect("no input cannot fail");
        for name in READ_BY_RENDER {
            assert!(gates.is_enabled(name), "{name}");
        }
        assert_eq!(gates.upstream_ccm_flag_value(), "");
        assert_eq!(gates, self::gates(&installer("")));
    }

    #[test]
    fn default_feature_set_enables_the_gates_the_render_reads() {
        let gates = gates(&installer(""));
        assert_eq!(gates.enabled(), READ_BY_RENDER);
        assert!(gates.disabled().is_empty());
    }

    #[test]
    fn object_without_spec_is_the_default_feature_set() {
        let object = json!({"kind": "FeatureGate", "metadata": {"name": "cluster"}});
        assert_eq!(gates(&object), gates(&installer("")));
    }

    #[test]
    fn tech_preview_enables_the_gates_the_render_reads() {
        let gates = gates(&installer("TechPreviewNoUpgrade"));
        for name in READ_BY_RENDER {
            assert!(gates.is_enabled(name), "{name}");
        }
        assert_eq!(gates.upstream_ccm_flag_value(), "");
    }

    #[test]
    fn dev_preview_enables_the_gates_the_render_reads() {
        let gates = gates(&installer("DevPreviewNoUpgrade"));
        for name in READ_BY_RENDER {
            assert!(gates.is_enabled(name), "{name}");
        }
    }

    #[test]
    fn okd_enables_the_gates_the_render_reads() {
        let gates = gates(&installer("OKD"));
        for name in READ_BY_RENDER {
            assert!(gates.is_enabled(name), "{name}");
        }
    }

    #[test]
    fn unknown_feature_set_is_an_error() {
        assert_eq!(
            error(&installer("LatencySensitive")),
            "spec.featureSet: unknown feature set \"LatencySensitive\""
        );
        assert_eq!(
            error(&installer("Default")),
            "spec.featureSet: unknown feature set \"Default\""
        );
    }

    #[test]
    fn custom_no_upgrade_enables_exactly_the_listed_gates() {
        let object = json!({
            "kind": "FeatureGate",
            "spec": {
                "featureSet": "CustomNoUpgrade",
                "customNoUpgrade": {
                    "enabled": ["VSphereMultiVCenterDay2", "ChocobombVanilla"],
                    "disabled": ["ChocobombBanana"],
                },
            },
        });
        let gates = gates(&object);
        assert_eq!(
            gates.enabled(),
            ["ChocobombVanilla", "VSphereMultiVCenterDay2"]
        );
        assert_eq!(
            gates.disabled(),
            [
                "AWSServiceLBNetworkSecurityGroup",
                "ChocobombBanana",
                "VSphereMixedNodeEnv",
            ]
        );
        assert!(!gates.is_enabled("AWSServiceLBNetworkSecurityGroup"));
        assert!(!gates.is_enabled("VSphereMixedNodeEnv"));
        assert!(gates.is_enabled("VSphereMultiVCenterDay2"));
    }

    #[test]
    fn custom_no_upgrade_gate_in_both_lists_stays_enabled() {
        let object = json!({
            "spec": {
                "featureSet": "CustomNoUpgrade",
                "customNoUpgrade": {
                    "enabled": ["VSphereMixedNodeEnv"],
                    "disabled": ["VSphereMixedNodeEnv"],
                },
            },
        });
        let gates = gates(&object);
        assert!(gates.is_enabled("VSphereMixedNodeEnv"));
        assert!(!gates.disabled().contains(&"VSphereMixedNodeEnv".to_owned()));
    }

    #[test]
    fn custom_no_upgrade_without_lists_enables_nothing() {
        let gates = gates(&installer("CustomNoUpgrade"));
        assert!(gates.enabled().is_empty());
        assert_eq!(gates.disabled(), READ_BY_RENDER);
    }

    #[test]
    fn cccmo_feature_gate_string_case_from_custom_no_upgrade() {
        // CCCMO pkg/util featuregates tests: only the upstream gate survives, as Name=true.
        let object = json!({
            "spec": {
                "featureSet": "CustomNoUpgrade",
                "customNoUpgrade": {
                    "enabled": ["CloudControllerManagerWebhook", "ChocobombVanilla", "ChocobombStrawberry"],
                    "disabled": ["ChocobombBlueberry", "ChocobombBanana"],
                },
            },
        });
        assert_eq!(
            gates(&object).upstream_ccm_flag_value(),
            "CloudControllerManagerWebhook=true"
        );
    }

    #[test]
    fn cccmo_feature_gate_string_case_from_status() {
        let object = with_status(&json!([{
            "version": "4.23.0",
            "enabled": names(&["CloudControllerManagerWebhook", "ChocobombVanilla", "ChocobombStrawberry"]),
            "disabled": names(&["ChocobombBlueberry", "ChocobombBanana"]),
        }]));
        let gates = gates(&object);
        assert_eq!(
            gates.upstream_ccm_flag_value(),
            "CloudControllerManagerWebhook=true"
        );
        assert_eq!(
            gates.enabled(),
            [
                "CloudControllerManagerWebhook",
                "ChocobombVanilla",
                "ChocobombStrawberry"
            ]
        );
        assert_eq!(gates.disabled(), ["ChocobombBlueberry", "ChocobombBanana"]);
    }

    #[test]
    fn upstream_flag_lists_every_upstream_gate_sorted() {
        let object = with_status(&json!([{
            "version": "",
            "enabled": names(&[
                "ControllerManagerReleaseLeaderElectionLockOnExit",
                "VSphereMixedNodeEnv",
                "CloudControllerManagerWebhook",
                "AllBeta",
                "CloudControllerManagerWatchBasedRoutesReconciliation",
                "AllAlpha",
                "AllAlpha",
            ]),
            "disabled": names(&["CloudDualStackNodeIPs"]),
        }]));
        assert_eq!(
            gates(&object).upstream_ccm_flag_value(),
            "AllAlpha=true,AllBeta=true,CloudControllerManagerWatchBasedRoutesReconciliation=true,CloudControllerManagerWebhook=true,ControllerManagerReleaseLeaderElectionLockOnExit=true"
        );
    }

    #[test]
    fn disabled_upstream_gates_are_not_passed() {
        let object = with_status(&json!([{
            "version": "",
            "enabled": names(&["VSphereMixedNodeEnv"]),
            "disabled": names(&["CloudControllerManagerWebhook", "AllAlpha"]),
        }]));
        assert_eq!(gates(&object).upstream_ccm_flag_value(), "");
    }

    #[test]
    fn status_overrides_spec() {
        let object = json!({
            "kind": "FeatureGate",
            "spec": {"featureSet": "TechPreviewNoUpgrade"},
            "status": {"featureGates": [{
                "version": "4.23.0",
                "enabled": names(&["VSphereMixedNodeEnv"]),
                "disabled": names(&["AWSServiceLBNetworkSecurityGroup"]),
            }]},
        });
        let gates = gates(&object);
        assert!(gates.is_enabled("VSphereMixedNodeEnv"));
        assert!(!gates.is_enabled("AWSServiceLBNetworkSecurityGroup"));
        assert!(!gates.is_enabled("VSphereMultiVCenterDay2"));
    }

    #[test]
    fn empty_status_falls_back_to_spec() {
        let object = json!({
            "spec": {"featureSet": "CustomNoUpgrade"},
            "status": {"featureGates": []},
        });
        assert!(gates(&object).enabled().is_empty());
        let object = json!({"spec": {}, "status": {}});
        assert_eq!(gates(&object), gates(&installer("")));
    }

    #[test]
    fn status_with_several_versions_uses_the_highest() {
        let object = with_status(&json!([
            {"version": "4.9.10", "enabled": names(&["Old"]), "disabled": []},
            {"version": "4.23.0-0.nightly-2026-07-30-000000", "enabled": names(&["Newest"])},
            {"version": "4.22.5", "enabled": names(&["Middle"]), "disabled": null},
        ]));
        assert_eq!(gates(&object).enabled(), ["Newest"]);
    }

    #[test]
    fn status_with_a_repeated_version_is_an_error() {
        let object = with_status(&json!([
            {"version": "4.23.0", "enabled": []},
            {"version": "4.23.0", "enabled": []},
        ]));
        assert_eq!(
            error(&object),
            "status.featureGates[1].version: version \"4.23.0\" is listed twice"
        );
    }

    #[test]
    fn unknown_gate_is_disabled_and_never_panics() {
        let gates = gates(&installer(""));
        assert!(!gates.is_enabled("NoSuchGate"));
        assert!(!gates.is_enabled(""));
        let empty = with_status(&json!([{"version": ""}]));
        assert!(!self::gates(&empty).is_enabled("VSphereMixedNodeEnv"));
    }

    #[test]
    fn invalid_gate_names_are_errors_naming_the_field() {
        let custom = json!({
            "spec": {
                "featureSet": "CustomNoUpgrade",
                "customNoUpgrade": {"enabled": ["Good", "bad;rm -rf /"]},
            },
        });
        assert_eq!(
            error(&custom),
            "spec.customNoUpgrade.enabled[1]: invalid feature gate name \"bad;rm -rf /\" (must match [A-Za-z0-9]+)"
        );
        let dotted = with_status(&json!([{"version": "", "disabled": names(&["a.b"])}]));
        assert_eq!(
            error(&dotted),
            "status.featureGates[0].disabled[0].name: invalid feature gate name \"a.b\" (must match [A-Za-z0-9]+)"
        );
        let empty = with_status(&json!([{"version": "", "enabled": names(&[""])}]));
        assert_eq!(
            error(&empty),
            "status.featureGates[0].enabled[0].name: invalid feature gate name \"\" (must match [A-Za-z0-9]+)"
        );
    }

    #[test]
    fn custom_lists_are_checked_even_when_unused() {
        let object = json!({
            "spec": {"featureSet": "", "customNoUpgrade": {"disabled": ["x=y"]}},
        });
        assert!(error(&object).starts_with("spec.customNoUpgrade.disabled[0]: invalid"));
    }

    #[test]
    fn wrong_types_are_errors_naming_the_field() {
        let cases = [
            (json!([]), "featuregate: expected an object, got a list"),
            (
                json!({"kind": "APIServer"}),
                "kind: expected \"FeatureGate\", got \"APIServer\"",
            ),
            (
                json!({"spec": "Default"}),
                "spec: expected an object, got a string",
            ),
            (
                json!({"spec": {"featureSet": 1}}),
                "spec.featureSet: expected a string, got a number",
            ),
            (
                json!({"spec": {"featureSet": "CustomNoUpgrade", "customNoUpgrade": []}}),
                "spec.customNoUpgrade: expected an object, got a list",
            ),
            (
                json!({"spec": {"featureSet": "CustomNoUpgrade", "customNoUpgrade": {"enabled": "A"}}}),
                "spec.customNoUpgrade.enabled: expected a list, got a string",
            ),
            (
                json!({"spec": {"featureSet": "CustomNoUpgrade", "customNoUpgrade": {"enabled": [{"name": "A"}]}}}),
                "spec.customNoUpgrade.enabled[0]: expected a string, got an object",
            ),
            (
                json!({"status": []}),
                "status: expected an object, got a list",
            ),
            (
                json!({"status": {"featureGates": {}}}),
                "status.featureGates: expected a list, got an object",
            ),
            (
                json!({"status": {"featureGates": ["4.23"]}}),
                "status.featureGates[0]: expected an object, got a string",
            ),
            (
                json!({"status": {"featureGates": [{"version": 4}]}}),
                "status.featureGates[0].version: expected a string, got a number",
            ),
            (
                json!({"status": {"featureGates": [{"enabled": {"name": "A"}}]}}),
                "status.featureGates[0].enabled: expected a list, got an object",
            ),
            (
                json!({"status": {"featureGates": [{"enabled": ["A"]}]}}),
                "status.featureGates[0].enabled[0]: expected an object, got a string",
            ),
            (
                json!({"status": {"featureGates": [{"enabled": [{}]}]}}),
                "status.featureGates[0].enabled[0].name: required",
            ),
            (
                json!({"status": {"featureGates": [{"disabled": [{"name": true}]}]}}),
                "status.featureGates[0].disabled[0].name: expected a string, got a boolean",
            ),
        ];
        for (object, expected) in cases {
            assert_eq!(error(&object), expected);
        }
    }

    #[test]
    fn parses_installer_and_live_yaml() {
        let installer = "apiVersion: config.openshift.io/v1\nkind: FeatureGate\nmetadata:\n  name: cluster\nspec:\n  featureSet: TechPreviewNoUpgrade\n";
        let docs = crate::yaml::documents(installer).expect("valid YAML");
        assert!(gates(&docs[0]).is_enabled("VSphereMultiVCenterDay2"));

        let live = "apiVersion: config.openshift.io/v1\nkind: FeatureGate\nmetadata:\n  name: cluster\nspec: {}\nstatus:\n  featureGates:\n  - version: 4.23.0\n    enabled:\n    - name: AWSServiceLBNetworkSecurityGroup\n    disabled:\n    - name: VSphereMixedNodeEnv\n";
        let docs = crate::yaml::documents(live).expect("valid YAML");
        let gates = gates(&docs[0]);
        assert!(gates.is_enabled("AWSServiceLBNetworkSecurityGroup"));
        assert!(!gates.is_enabled("VSphereMixedNodeEnv"));
    }

    #[test]
    fn version_order_is_numeric_and_total() {
        let ordered = [
            "",
            "4",
            "4.9.10",
            "4.10.0",
            "4.22.5",
            "4.23.0",
            "4.23.0-0.nightly-2026-07-30-000000",
            "4.23.0-rc.1",
            "4.23.0-rc.10",
            "5.0.0",
        ];
        for (i, a) in ordered.iter().enumerate() {
            for (j, b) in ordered.iter().enumerate() {
                assert_eq!(compare_versions(a, b), i.cmp(&j), "{a} vs {b}");
            }
        }
        assert_eq!(compare_versions("4.010", "4.10"), Ordering::Less);
    }

    proptest::proptest! {
        #[test]
        fn flag_value_holds_only_safe_names(list in proptest::collection::vec("[A-Za-z0-9]{1,12}|AllAlpha|CloudControllerManagerWebhook", 0..10)) {
            let object = json!({
                "spec": {"featureSet": "CustomNoUpgrade", "customNoUpgrade": {"enabled": list}},
            });
            let gates = FeatureGates::from_manifest(Some(&object)).expect("valid names");
            let value = gates.upstream_ccm_flag_value();
            proptest::prop_assert!(value.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'=' || b == b','));
            for item in value.split(',').filter(|item| !item.is_empty()) {
                let name = item.strip_suffix("=true").unwrap_or_default();
                proptest::prop_assert!(UPSTREAM_CCM_GATES.contains(&name));
            }
        }

        #[test]
        fn version_order_is_antisymmetric(a in ".{0,12}", b in ".{0,12}") {
            proptest::prop_assert_eq!(compare_versions(&a, &b), compare_versions(&b, &a).reverse());
        }
    }
}
