//! The cloud config a provider reads, as the objects and files that carry it: the
//! `cloud-conf` ConfigMap (or the provider's Secret) after CCCMO's transform for the release,
//! the `ccm-trusted-ca` ConfigMap, and `config/cloud.conf` for the bootstrap pods.

use crate::config::ClusterConfig;
use anyhow::{Context as _, Result};
use ccm_catalogue::go_encode;
use ccm_catalogue::providers::{Provider, check};
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// The transformed cloud config, or None when no `--cloud-config` was given.
pub(super) fn cloud_conf(
    cfg: &ClusterConfig,
    provider: &Provider,
    warnings: &mut Vec<String>,
) -> Result<Option<String>> {
    let Some(selected) = &cfg.cloud_config else {
        let (object, mounted) = match &provider.spec().cloud_config.secret {
            Some(secret) => (
                format!("Secret {}", secret.name),
                mounts(provider, "secret", "secretName", &secret.name),
            ),
            None => (
                "cloud-conf ConfigMap".to_string(),
                mounts(provider, "configMap", "name", "cloud-conf"),
            ),
        };
        // A CCM that reads no config file (DigitalOcean: an API token only) needs none.
        let bootstrap_reads = provider
            .spec()
            .bootstrap
            .host_files
            .iter()
            .any(|f| f.path.ends_with("/cloud.conf"));
        if mounted || bootstrap_reads {
            warnings.push(format!(
                "no --cloud-config: the {object} that the {} manifests mount and config/cloud.conf are not rendered",
                provider.name()
            ));
        }
        return Ok(None);
    };
    let feature_enabled = |gate: &str| cfg.features.is_enabled(gate);
    let context = crate::render::cloud_config::Context {
        platform: cfg.infrastructure.platform,
        infrastructure: &cfg.infrastructure.raw,
        network: cfg.network.as_ref(),
        feature_enabled: &feature_enabled,
        behaviour: &cfg.release.behaviour.cloud_config,
    };
    let transformed = crate::render::cloud_config::transform(
        provider.spec().cloud_config.transform,
        &selected.text,
        &context,
    )
    .context("--cloud-config: transforming the cloud config")?;
    warnings.extend(
        transformed
            .warnings
            .into_iter()
            .map(|w| format!("--cloud-config: {w}")),
    );
    Ok(Some(transformed.text))
}

/// The `cloud-conf` ConfigMap CCCMO's sync controller writes into its namespace: the
/// transformed `cloud.conf` and every other key of the source, unchanged
/// (pkg/controllers/cloud_config_sync_controller.go).
pub(super) fn cloud_conf_config_map(cfg: &ClusterConfig, cloud_conf: &str) -> Value {
    // Sorted keys, as the API server returns them.
    let mut data: BTreeMap<&str, &str> = cfg
        .cloud_config
        .iter()
        .flat_map(|selected| &selected.other_keys)
        .map(|(key, value)| (key.as_str(), value.as_str()))
        .collect();
    data.insert(
        crate::inputs::cloud_provider_config::CLOUD_CONF_KEY,
        cloud_conf,
    );
    json!({
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": { "name": "cloud-conf", "namespace": cfg.namespace },
        "data": data,
    })
}

/// The Secret that carries the transformed cloud config for a CCM whose config file holds its
/// credentials (provider.yaml `spec.cloudConfig.secret`; OCI reads `cloud-provider.yaml` from
/// the Secret `oci-cloud-controller-manager`, oracle/oci-cloud-controller-manager README). The
/// value is base64 in `data`, as the API server returns it; nothing prints it.
pub(super) fn cloud_conf_secret(
    cfg: &ClusterConfig,
    secret: &ccm_catalogue::providers::CloudConfigSecret,
    cloud_conf: &str,
) -> Value {
    use base64::Engine as _;
    let encoded = base64::engine::general_purpose::STANDARD.encode(cloud_conf);
    json!({
        "apiVersion": "v1",
        "kind": "Secret",
        "metadata": { "name": secret.name, "namespace": cfg.namespace },
        "type": "Opaque",
        "data": { secret.key.as_str(): encoded },
    })
}

/// Whether a pod template of the provider's manifests mounts a volume whose `source.field` is
/// `name` (a `configMap` by `name`, a `secret` by `secretName`).
fn mounts(provider: &Provider, source: &str, field: &str, name: &str) -> bool {
    provider.manifests.iter().any(|object| {
        ccm_catalogue::json_fields::at(object, &["spec", "template", "spec", "volumes"])
            .and_then(Value::as_array)
            .is_some_and(|volumes| {
                volumes.iter().any(|v| {
                    ccm_catalogue::json_fields::at(v, &[source, field]).and_then(Value::as_str)
                        == Some(name)
                })
            })
    })
}

/// The `ccm-trusted-ca` ConfigMap that every CCM pod mounts, from the cloud config's
/// `ca-bundle.pem` and `--ca-bundle` (see [`crate::render::trusted_ca`]); None without either, in which
/// case the operator's trusted CA controller creates it in the cluster.
pub(super) fn trusted_ca_config_map(cfg: &ClusterConfig) -> Result<Option<Value>> {
    let mut sources = Vec::new();
    if let Some(selected) = &cfg.cloud_config
        && let Some(text) = selected.other_keys.get(CLOUD_CA_KEY)
    {
        sources.push((format!("--cloud-config: key {CLOUD_CA_KEY}"), text.as_str()));
    }
    if let Some((path, text)) = &cfg.ca_bundle {
        sources.push((format!("--ca-bundle {path}"), text.as_str()));
    }
    let Some(bundle) = crate::render::trusted_ca::bundle(&sources)? else {
        return Ok(None);
    };
    Ok(Some(json!({
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {
            "name": crate::render::trusted_ca::CONFIG_MAP,
            "namespace": cfg.namespace,
            // CCCMO pkg/controllers/trusted_ca_bundle_controller.go sets this annotation.
            "annotations": {
                "openshift.io/owning-component": "Cloud Compute / Cloud Controller Manager",
            },
        },
        "data": { crate::render::trusted_ca::KEY: bundle },
    })))
}

/// The cloud config key that holds the cloud's CA bundle (installer: `ca-bundle.pem`).
const CLOUD_CA_KEY: &str = "ca-bundle.pem";

/// The bootstrap pods' copy of the cloud config (`DIR/config/cloud.conf`): the cloud config the
/// ConfigMap holds, less each member the provider leaves to the CCM's own default
/// (`spec.bootstrap.cloudConfigDefaults`) where the member holds exactly the value the CCM would
/// default it to from the bootstrap pod's environment. The CCM then reads that value from one
/// place, the pod's environment, whatever a run of the pod sets there (the Nutanix CCM defaults
/// `prismCentral.credentialRef.namespace` to `POD_NAMESPACE`, nutanix pkg/provider/client.go,
/// and watches Secrets in that namespace alone, pkg/provider/manager.go).
pub(super) fn bootstrap_cloud_conf(provider: &Provider, bootstrap: &[Value], text: &str) -> String {
    let members: Vec<(&[String], &str)> = provider
        .spec()
        .bootstrap
        .cloud_config_defaults
        .iter()
        .filter_map(|member| {
            let value = bootstrap
                .iter()
                .find_map(|pod| check::bootstrap_env_value(pod, &member.env))?;
            Some((member.path.as_slice(), value))
        })
        .collect();
    without_members_holding(text, &members).unwrap_or_else(|| text.to_string())
}

/// `text`, a JSON document, less each member at a path that holds the string given with it;
/// None when nothing is left out (a member holding another value, or a text that is not JSON,
/// stays as it is). The rest keeps its order and layout: the installer writes
/// json.MarshalIndent(config, "", "  ") (installer pkg/asset/manifests/nutanix/
/// cloudproviderconfig.go), so the indent of the second line is the document's, a one-line
/// document stays compact, and a final line break stays.
///
/// A text that cannot hold a member (no member asked for, or not a JSON object: an INI cloud
/// config) is not handed to serde_json at all. A failed parse is not free: serde_json places
/// its error with `memchr::memrchr`, whose first call detects the CPU's features with some ten
/// CPUID instructions, each a trap to the hypervisor in a virtual machine (about 50 µs a
/// render on the AMD EPYC VM of docs/performance.md, for six platforms of nine).
fn without_members_holding(text: &str, members: &[(&[String], &str)]) -> Option<String> {
    if members.is_empty() || !text.trim_start().starts_with('{') {
        return None;
    }
    let mut document = serde_json::from_str::<Value>(text).ok()?;
    let mut removed = false;
    for (path, value) in members {
        let Some((last, parents)) = path.split_last() else {
            continue;
        };
        let parent = parents
            .iter()
            .try_fold(&mut document, |node, name| node.get_mut(name.as_str()));
        if let Some(Value::Object(parent)) = parent
            && parent.get(last).and_then(Value::as_str) == Some(*value)
        {
            parent.shift_remove(last);
            removed = true;
        }
    }
    if !removed {
        return None;
    }
    let indent = text
        .lines()
        .nth(1)
        .map(|line| &line[..line.len() - line.trim_start().len()]);
    let mut out = match indent {
        Some(indent) if !indent.is_empty() => go_encode::marshal_indent(&document, indent),
        _ => go_encode::marshal(&document),
    }
    .ok()?;
    if text.ends_with('\n') {
        out.push('\n');
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::without_members_holding;

    const INSTALLER: &str = "{\n  \"prismCentral\": {\n    \"address\": \"pc\",\n    \"credentialRef\": {\n      \"kind\": \"Secret\",\n      \"name\": \"nutanix-credentials\",\n      \"namespace\": \"openshift-cloud-controller-manager\"\n    }\n  },\n  \"enableCustomLabeling\": true\n}\n";

    fn namespace_member() -> Vec<String> {
        ["prismCentral", "credentialRef", "namespace"]
            .map(String::from)
            .to_vec()
    }

    #[test]
    fn a_member_holding_the_default_is_left_out_keeping_order_and_layout() {
        let path = namespace_member();
        let out =
            without_members_holding(INSTALLER, &[(&path, "openshift-cloud-controller-manager")]);
        assert_eq!(
            out.as_deref(),
            Some(
                "{\n  \"prismCentral\": {\n    \"address\": \"pc\",\n    \"credentialRef\": {\n      \"kind\": \"Secret\",\n      \"name\": \"nutanix-credentials\"\n    }\n  },\n  \"enableCustomLabeling\": true\n}\n"
            )
        );
    }

    #[test]
    fn a_member_holding_another_value_stays() {
        let path = namespace_member();
        assert_eq!(
            without_members_holding(INSTALLER, &[(&path, "kube-system")]),
            None
        );
    }

    #[test]
    fn nothing_is_left_out_when_no_member_is_asked_for() {
        assert_eq!(without_members_holding(INSTALLER, &[]), None);
    }

    #[test]
    fn a_text_that_is_not_json_or_lacks_the_member_stays() {
        let path = namespace_member();
        let members = [(path.as_slice(), "openshift-cloud-controller-manager")];
        assert_eq!(without_members_holding("[Global]\nx = 1\n", &members), None);
        assert_eq!(
            without_members_holding("{\"prismCentral\": 1}", &members),
            None
        );
    }

    #[test]
    fn a_one_line_document_stays_on_one_line() {
        let path = namespace_member();
        let text = r#"{"prismCentral":{"credentialRef":{"namespace":"ns","name":"n"}}}"#;
        assert_eq!(
            without_members_holding(text, &[(&path, "ns")]).as_deref(),
            Some(r#"{"prismCentral":{"credentialRef":{"name":"n"}}}"#)
        );
    }
}
