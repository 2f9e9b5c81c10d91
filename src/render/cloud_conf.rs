//! The cloud config a provider reads, as the objects and files that carry it: the
//! `cloud-conf` ConfigMap (or the provider's Secret) after CCCMO's transform for the release,
//! the `ccm-trusted-ca` ConfigMap, and `config/cloud.conf` for the bootstrap pods.

use crate::config::ClusterConfig;
use anyhow::{Context as _, Result};
use ccm_catalogue::providers::Provider;
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
