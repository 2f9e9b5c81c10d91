//! The hosted render: a pure function from a [`HostedConfig`] and a hosted [`Component`] of the
//! catalogue to the objects HyperShift's control-plane-operator creates for the CCM of that
//! HostedControlPlane (`HyperShift support/controlplane-component/controlplane-component.go`
//! `update`): every manifest whose predicate holds, in the hosted control plane's namespace,
//! owned by the HostedControlPlane and adapted; then the Deployment, adapted by its platform
//! and by the framework's defaults ([`framework`]).
//!
//! A platform's adapters are one file each, all of what HyperShift's `config.go`,
//! `component.go` and `deployment.go` of that platform compute: [`aws`], [`azure`], [`gcp`],
//! [`kubevirt`], [`openstack`], [`powervs`]. This file matches the HostedControlPlane's
//! platform, read once at the input edge with its own block, to the one that adapts it.
//!
//! Left out, as depending on the management cluster or on HyperShift's apply machinery:
//! `resourceVersion`, the `hypershift.openshift.io/desired-state-hash` annotation, the pod
//! template's `component.hypershift.openshift.io/config-hash`, and the ControlPlaneComponent.

mod aws;
mod azure;
mod edit;
mod framework;
mod gcp;
mod go_text;
mod kubevirt;
mod openstack;
mod powervs;
mod probe;
mod token_minter;

use super::Rendered;
use crate::config::hosted::HostedConfig;
use crate::inputs::hosted_control_plane::platform::PlatformSpec;
use anyhow::{Result, anyhow, bail};
use ccm_catalogue::hosted::{Component, ManifestAdapter, When};
use ccm_catalogue::json_fields::kind_of;
use ccm_catalogue::platform::HostedPlatform;
use serde_json::{Value, json};

/// Renders every object of `component` for `cfg`.
pub(crate) fn render(cfg: &HostedConfig, component: &Component) -> Result<Rendered> {
    let spec = &component.descriptor.spec;
    if spec.platform != cfg.platform() {
        bail!(
            "{}: spec.platform.type is {}, the component serves {}",
            cfg.hcp_path,
            cfg.platform(),
            spec.platform
        );
    }
    let mut manifests = Vec::new();
    for manifest in &component.manifests {
        let applies = match manifest.spec.when {
            When::Always => true,
            When::SelfManagedAzure => !cfg.managed_azure(),
            When::ManagedAzure => cfg.managed_azure(),
        };
        if !applies {
            continue;
        }
        let mut object = manifest.object.clone();
        place(&mut object, cfg);
        match kind_of(&object) {
            "RoleBinding" => subjects_to_namespace(&mut object, &cfg.hcp.metadata.namespace),
            "ServiceAccount" => ensure_pull_secret(&mut object),
            _ => {}
        }
        if let Some(adapt) = manifest.spec.adapt {
            adapt_manifest(adapt, cfg, &mut object)?;
        }
        if kind_of(&object) == "SecretProviderClass" {
            object["status"] = json!({});
        }
        manifests.push(object);
    }
    let mut deployment = component.deployment.clone();
    deployment["metadata"]["name"] = json!(component.descriptor.metadata.name);
    place(&mut deployment, cfg);
    adapt_deployment(component, cfg, &mut deployment)?;
    framework::apply_defaults(component, cfg, &mut deployment)?;
    manifests.push(deployment);
    Ok(Rendered {
        manifests,
        ..Rendered::default()
    })
}

/// Runs the manifest adapter `adapt`, one of the platform's.
// Reads better whole: one arm per platform.
fn adapt_manifest(adapt: ManifestAdapter, cfg: &HostedConfig, object: &mut Value) -> Result<()> {
    match &cfg.hcp.spec.platform {
        PlatformSpec::Aws(p) => aws::adapt_manifest(adapt, p, cfg, object),
        PlatformSpec::Azure(p) => azure::adapt_manifest(adapt, p, cfg, object),
        PlatformSpec::Gcp(p) => gcp::adapt_manifest(adapt, p, cfg, object),
        PlatformSpec::KubeVirt(p) => kubevirt::adapt_manifest(adapt, p, cfg, object),
        PlatformSpec::OpenStack(p) => openstack::adapt_manifest(adapt, p, cfg, object),
        PlatformSpec::PowerVs(p) => powervs::adapt_manifest(adapt, p, cfg, object),
        PlatformSpec::WithoutCcm(p) => Err(without_ccm(*p)),
    }
}

/// The platform's adaptation of the Deployment (its `deployment.go`), then the proxy
/// environment and the TLS flags where the component's spec says it has them.
fn adapt_deployment(
    component: &Component,
    cfg: &HostedConfig,
    deployment: &mut Value,
) -> Result<()> {
    let spec = &component.descriptor.spec;
    let name = spec.container.as_str();
    match &cfg.hcp.spec.platform {
        // Their deployment.go adds only the TLS flags (and AWS's the proxy), below.
        PlatformSpec::Aws(_) | PlatformSpec::Gcp(_) => {}
        PlatformSpec::Azure(p) => azure::adapt_deployment(p, cfg, deployment, name)?,
        PlatformSpec::KubeVirt(p) => kubevirt::adapt_deployment(p, cfg, deployment, name)?,
        PlatformSpec::OpenStack(p) => openstack::adapt_deployment(p, cfg, deployment, name)?,
        PlatformSpec::PowerVs(p) => powervs::adapt_deployment(p, deployment),
        PlatformSpec::WithoutCcm(p) => return Err(without_ccm(*p)),
    }
    let c = edit::container(deployment, name)?;
    if spec.deployment.proxy_env {
        proxy_env(cfg, c);
    }
    if spec.deployment.tls_args {
        for arg in &cfg.tls_args {
            edit::push(&mut c["args"], json!(arg));
        }
    }
    Ok(())
}

/// A platform HyperShift builds no CCM for has no component: [`render`] refuses it first.
fn without_ccm(platform: HostedPlatform) -> anyhow::Error {
    anyhow!("HyperShift builds no CCM for {platform}")
}

/// HyperShift `proxy.SetEnvVars`: the operator's proxy, `kube-apiserver` added to the no-proxy
/// list (sorted, without duplicates) when there is a proxy.
fn proxy_env(cfg: &HostedConfig, c: &mut Value) {
    let http = cfg.env.get("HTTP_PROXY");
    let https = cfg.env.get("HTTPS_PROXY");
    let no_proxy = if http.is_empty() && https.is_empty() {
        String::new()
    } else {
        let mut names: Vec<&str> = vec!["kube-apiserver"];
        let given = cfg.env.get("NO_PROXY");
        if !given.is_empty() {
            names.extend(given.split(','));
        }
        names.sort_unstable();
        names.dedup();
        names.join(",")
    };
    for (name, value) in [
        ("HTTP_PROXY", http),
        ("HTTPS_PROXY", https),
        ("NO_PROXY", no_proxy.as_str()),
    ] {
        let env = c
            .as_object_mut()
            .map(|o| o.entry("env").or_insert_with(|| json!([])));
        let Some(Value::Array(env)) = env else {
            continue;
        };
        let at = env.iter().position(|e| e["name"] == name);
        match (at, value.is_empty()) {
            (Some(i), true) => {
                env.remove(i);
            }
            (Some(i), false) => env[i]["value"] = json!(value),
            (None, false) => env.push(json!({"name": name, "value": value})),
            (None, true) => {}
        }
    }
}

/// The namespace and the owner reference every object gets (HyperShift `config.OwnerRefFrom`).
fn place(object: &mut Value, cfg: &HostedConfig) {
    let meta = &cfg.hcp.metadata;
    object["metadata"]["namespace"] = json!(meta.namespace);
    object["metadata"]["ownerReferences"] = json!([{
        "apiVersion": "hypershift.openshift.io/v1beta1",
        "blockOwnerDeletion": true,
        "controller": true,
        "kind": "HostedControlPlane",
        "name": meta.name,
        "uid": meta.uid,
    }]);
}

fn subjects_to_namespace(object: &mut Value, namespace: &str) {
    if let Some(Value::Array(subjects)) = object.get_mut("subjects") {
        for subject in subjects {
            if subject.get("kind").and_then(Value::as_str) == Some("ServiceAccount") {
                subject["namespace"] = json!(namespace);
            }
        }
    }
}

/// HyperShift `k8sutil.EnsurePullSecret` with the hosted control plane's `pull-secret`.
fn ensure_pull_secret(object: &mut Value) {
    let list = object
        .as_object_mut()
        .map(|o| o.entry("imagePullSecrets").or_insert_with(|| json!([])));
    if let Some(Value::Array(list)) = list
        && !list
            .iter()
            .any(|s| s.get("name").and_then(Value::as_str) == Some("pull-secret"))
    {
        list.push(json!({"name": "pull-secret"}));
    }
}
