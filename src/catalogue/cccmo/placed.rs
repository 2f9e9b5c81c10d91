//! Whether a template puts the values the render step sets where the render step puts them.
//!
//! The catalogue holds CCCMO's output with those values empty or at a default (no TLS flags,
//! `--feature-gates=`, `OCP_INFRASTRUCTURE_NAME: mycluster-abcde`), and the render step sets
//! them from the cluster's inputs as the descriptor says (`spec.tls`, `spec.upstreamFeatureGates`,
//! `spec.env`). A template evaluated only in that form would hide an edit of those parts (a TLS
//! block moved to another flag, a new use of `.infrastructureName`). So each template is also
//! evaluated with a probe string for each such value, and that object must be the catalogue form
//! with the render's own placement of the same probes; anything else is refused.

use super::platforms::Platform;
use anyhow::{Context as _, Result, bail};
use ccm_catalogue::providers::{EnvSource, Provider};
use ccm_catalogue::releases::data::Version;
use ccm_catalogue::script::Script;
use serde_json::Value;

/// The probe of a value: a string no template holds.
pub(crate) fn probe(key: &str) -> String {
    format!("CCM-RENDER-PROBE-{key}")
}

/// The keys of `platform`'s gated values passed in `release`.
pub(crate) fn gated_keys(platform: &Platform, release: Version) -> Vec<&'static str> {
    platform
        .values
        .iter()
        .filter(|v| v.gated && v.since <= release)
        .map(|v| v.key)
        .collect()
}

/// `object` (the catalogue form, gates on) as the render step renders it with every gate of
/// the descriptor's `spec.featureGated` off: their flags removed from every script, their
/// environment variables without a value.
pub(crate) fn gates_off(object: &Value, provider: &Provider) -> Value {
    let gated = &provider.spec().feature_gated;
    let mut object = object.clone();
    let Some(Value::Object(pod)) = object.pointer_mut("/spec/template/spec") else {
        return object;
    };
    for list in ["initContainers", "containers"] {
        let Some(Value::Array(containers)) = pod.get_mut(list) else {
            continue;
        };
        for container in containers {
            if let Some(Value::Array(env)) = container.get_mut("env") {
                for var in env.iter_mut().filter_map(Value::as_object_mut) {
                    let name = var.get("name").and_then(Value::as_str).unwrap_or_default();
                    if gated.iter().any(|g| g.env.iter().any(|e| e == name)) {
                        var.remove("value");
                    }
                }
            }
            if let Some(Value::String(text)) = container.pointer_mut("/command/2") {
                let mut script = Script::parse(text);
                for flag in gated.iter().flat_map(|g| &g.flags) {
                    script.remove(flag);
                }
                *text = script.to_string();
            }
        }
    }
    object
}

/// Refuses `off` (the template evaluated with the gated values empty, as CCCMO passes them
/// with the gate off) unless it is what the render step makes of `object` with the gates off.
pub(crate) fn check_gated(
    at: &str,
    line: usize,
    object: &Value,
    off: &Value,
    provider: &Provider,
    keys: &[&str],
) -> Result<()> {
    if &gates_off(object, provider) != off {
        bail!(
            "{at}:{line}: with {} empty (its feature gate off) renders otherwise than the render step removes it (provider {}: provider.yaml spec.featureGated); ccm-render does not yet know how CCCMO applies it",
            keys.join(", "),
            provider.name()
        );
    }
    Ok(())
}

/// The keys of `platform`'s placed values passed in `release`.
pub(crate) fn keys(platform: &Platform, release: Version) -> Vec<&'static str> {
    platform
        .values
        .iter()
        .filter(|v| v.placed && v.since <= release)
        .map(|v| v.key)
        .collect()
}

/// `object` (the catalogue form) with the probes of `keys` placed as the render step places
/// those values for `provider`.
pub(crate) fn expected(object: &Value, provider: &Provider, keys: &[&str]) -> Result<Value> {
    let spec = provider.spec();
    let has = |key: &str| keys.contains(&key);
    let mut object = object.clone();
    let Some(Value::Object(pod)) = object.pointer_mut("/spec/template/spec") else {
        return Ok(object);
    };
    for list in ["initContainers", "containers"] {
        let Some(Value::Array(containers)) = pod.get_mut(list) else {
            continue;
        };
        for container in containers {
            let name = container
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            if let Some(Value::Array(env)) = container.get_mut("env") {
                for var in env {
                    let var_name = var.get("name").and_then(Value::as_str).unwrap_or_default();
                    let key = match spec.env.get(var_name) {
                        Some(EnvSource::InfrastructureName) => "infrastructureName",
                        Some(EnvSource::Namespace) => "globalCredsSecretNamespace",
                        None => continue,
                    };
                    if has(key) {
                        var["value"] = Value::String(probe(key));
                    }
                }
            }
            let Some(Value::String(text)) = container.pointer_mut("/command/2") else {
                continue;
            };
            let mut script = Script::parse(text);
            if spec.upstream_feature_gates && has("featureGates") {
                script.set_flag("--feature-gates=", &probe("featureGates"))?;
            }
            if list == "containers" && name == spec.tls.container && has("tlsCipherSuites") {
                let flags = [
                    format!("--tls-cipher-suites={}", probe("tlsCipherSuites")),
                    format!("--tls-min-version={}", probe("tlsMinVersion")),
                ];
                script.insert_before(&spec.tls.before, &flags)?;
            }
            *text = script.to_string();
        }
    }
    Ok(object)
}

/// Refuses `probed` (the template evaluated with the probes) unless it is `object` with the
/// render's placement; `at` is the file, `line` the template's first use of a placed value.
pub(crate) fn check(
    at: &str,
    line: usize,
    object: &Value,
    probed: &Value,
    provider: &Provider,
    keys: &[&str],
) -> Result<()> {
    let expected = expected(object, provider, keys).with_context(|| {
        format!(
            "{at}:{line}: the render step cannot place {} here (ccm-render does not yet know how CCCMO applies it)",
            keys.join(", ")
        )
    })?;
    if &expected != probed {
        bail!(
            "{at}:{line}: uses {} otherwise than the render step places them (provider {}: provider.yaml spec.tls, spec.upstreamFeatureGates, spec.env); ccm-render does not yet know how CCCMO applies it",
            keys.join(", "),
            provider.name()
        );
    }
    Ok(())
}
