//! `featureSet` and `featureGates`: checked as the installer checks them, the `FeatureGate` it
//! writes from them (`openshift/99_feature-gate.yaml`), and whether a gate the install-config
//! needs is on.
//!
//! Sources: `openshift/installer` `pkg/asset/manifests/featuregate.go` @00a99cbd (the object:
//! `spec.featureSet` from `featureSet`, `spec.customNoUpgrade` from `featureGates`, which "can
//! only be used with the CustomNoUpgrade feature set"),
//! `pkg/types/featuregates/featuregates.go` @f6685042 (`GenerateCustomFeatures`: each entry
//! `<FeatureName>=<Enabled>`, `strconv.ParseBool`; `FeatureGateFromFeatureSets`: with
//! CustomNoUpgrade exactly the listed gates are on) and `openshift/api`
//! `config/v1/types_feature.go` (the feature sets; `Default` is `""`).

use anyhow::{Result, bail};
use serde_json::{Value, json};

/// The feature sets `openshift/api` defines, as `featureSet` spells them.
const FEATURE_SETS: &[&str] = &[
    "",
    "CustomNoUpgrade",
    "DevPreviewNoUpgrade",
    "OKD",
    "TechPreviewNoUpgrade",
];

/// `featureSet` and `featureGates`, checked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Selection {
    /// `featureSet` (`""` is the Default set).
    pub(crate) feature_set: String,
    /// The gates `featureGates` turns on and off (CustomNoUpgrade only), in their order.
    pub(crate) enabled: Vec<String>,
    pub(crate) disabled: Vec<String>,
}

impl Selection {
    /// Whether `gate`, which the fixed sets `sets` enable, is on for this install-config.
    pub(crate) fn is_enabled(&self, gate: &str, sets: &[&str]) -> bool {
        if self.feature_set == "CustomNoUpgrade" {
            self.enabled.iter().any(|name| name == gate)
        } else {
            sets.contains(&self.feature_set.as_str())
        }
    }

    /// How the install-config names its feature set, for messages.
    pub(crate) fn describe(&self) -> String {
        if self.feature_set.is_empty() {
            "the Default feature set (no featureSet)".into()
        } else {
            format!("featureSet {}", self.feature_set)
        }
    }

    /// The `FeatureGate` the installer writes (`yaml.Marshal` of `configv1.FeatureGate`):
    /// `featureSet` and the custom lists are omitempty, `status.featureGates` is not (`null`;
    /// bootkube fills it in the cluster).
    pub(crate) fn manifest(&self) -> Value {
        let mut spec = json!({});
        if !self.feature_set.is_empty() {
            spec["featureSet"] = json!(self.feature_set);
        }
        if !self.enabled.is_empty() || !self.disabled.is_empty() {
            let mut custom = json!({});
            if !self.disabled.is_empty() {
                custom["disabled"] = json!(self.disabled);
            }
            if !self.enabled.is_empty() {
                custom["enabled"] = json!(self.enabled);
            }
            spec["customNoUpgrade"] = custom;
        }
        json!({
            "apiVersion": "config.openshift.io/v1",
            "kind": "FeatureGate",
            "metadata": {"creationTimestamp": null, "name": "cluster"},
            "spec": spec,
            "status": {"featureGates": null},
        })
    }
}

/// Checks `featureSet` and `featureGates`.
pub(crate) fn parse(feature_set: &str, feature_gates: &[String]) -> Result<Selection> {
    if !FEATURE_SETS.contains(&feature_set) {
        bail!(
            "featureSet: {feature_set:?}: supported values: {}",
            FEATURE_SETS
                .iter()
                .map(|s| format!("{s:?}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    if !feature_gates.is_empty() && feature_set != "CustomNoUpgrade" {
        bail!(
            "featureGates: custom features can only be used with the CustomNoUpgrade feature set"
        );
    }
    let mut selection = Selection {
        feature_set: feature_set.to_string(),
        ..Selection::default()
    };
    for (i, entry) in feature_gates.iter().enumerate() {
        let parts: Vec<&str> = entry.split('=').collect();
        let [name, on] = parts.as_slice() else {
            bail!(
                "featureGates[{i}]: {entry:?}: feature not in expected format <FeatureName>=<Enabled>"
            );
        };
        // Gate names end up on the CCMs' command lines (and in shell scripts): only the
        // characters OCP and upstream gate names use.
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric()) {
            bail!("featureGates[{i}]: {entry:?}: invalid feature gate name {name:?}");
        }
        let list = match parse_bool(on) {
            Some(true) => &mut selection.enabled,
            Some(false) => &mut selection.disabled,
            None => bail!(
                "featureGates[{i}]: {entry:?}: {on:?} is not a boolean (true, false, 1, 0, t, f)"
            ),
        };
        list.push((*name).to_string());
    }
    Ok(selection)
}

/// Go's `strconv.ParseBool`.
fn parse_bool(text: &str) -> Option<bool> {
    match text {
        "1" | "t" | "T" | "true" | "TRUE" | "True" => Some(true),
        "0" | "f" | "F" | "false" | "FALSE" | "False" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    fn gates(entries: &[&str]) -> Vec<String> {
        entries.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn the_feature_set_becomes_the_featuregate_spec() {
        let tp = parse("TechPreviewNoUpgrade", &[]).expect("valid");
        assert_eq!(
            tp.manifest()["spec"],
            json!({"featureSet": "TechPreviewNoUpgrade"})
        );
        assert_eq!(tp.manifest()["status"], json!({"featureGates": null}));
        assert_eq!(parse("", &[]).expect("valid").manifest()["spec"], json!({}));
        let custom = parse(
            "CustomNoUpgrade",
            &gates(&["AWSDualStackInstall=true", "VSphereMultiNetworks=False"]),
        )
        .expect("valid");
        assert_eq!(
            custom.manifest()["spec"],
            json!({"featureSet": "CustomNoUpgrade", "customNoUpgrade": {
                "enabled": ["AWSDualStackInstall"], "disabled": ["VSphereMultiNetworks"]}})
        );
    }

    #[test]
    fn a_gate_is_on_in_its_feature_sets_or_when_custom_lists_it() {
        let sets = ["TechPreviewNoUpgrade", "DevPreviewNoUpgrade"];
        assert!(
            parse("TechPreviewNoUpgrade", &[])
                .expect("ok")
                .is_enabled("G", &sets)
        );
        assert!(!parse("", &[]).expect("ok").is_enabled("G", &sets));
        assert!(!parse("OKD", &[]).expect("ok").is_enabled("G", &sets));
        let custom = parse("CustomNoUpgrade", &gates(&["G=true"])).expect("ok");
        assert!(custom.is_enabled("G", &sets));
        assert!(!custom.is_enabled("H", &sets));
    }

    #[test]
    fn bad_feature_sets_and_gates_name_the_field() {
        let err = |set: &str, entries: &[&str]| {
            format!("{:#}", parse(set, &gates(entries)).expect_err("invalid"))
        };
        assert!(err("Default", &[]).starts_with("featureSet: \"Default\": supported values: \"\""));
        assert_eq!(
            err("TechPreviewNoUpgrade", &["G=true"]),
            "featureGates: custom features can only be used with the CustomNoUpgrade feature set"
        );
        assert!(
            err("CustomNoUpgrade", &["G"])
                .starts_with("featureGates[0]: \"G\": feature not in expected format")
        );
        assert!(
            err("CustomNoUpgrade", &["G=yes"])
                .starts_with("featureGates[0]: \"G=yes\": \"yes\" is not a boolean")
        );
        assert!(err("CustomNoUpgrade", &["G x=true"]).contains("invalid feature gate name"));
    }
}
