//! The hosted render: a pure function from a [`HostedConfig`] and a hosted [`Component`] of the
//! catalogue to the objects HyperShift's control-plane-operator creates for the CCM of that
//! HostedControlPlane (`HyperShift support/controlplane-component/controlplane-component.go`
//! `update`): every manifest whose predicate holds, in the hosted control plane's namespace,
//! owned by the HostedControlPlane and adapted; then the Deployment, adapted by its platform
//! ([`platform`]) and by the framework's defaults ([`framework`]).
//!
//! Left out, as depending on the management cluster or on HyperShift's apply machinery:
//! `resourceVersion`, the `hypershift.openshift.io/desired-state-hash` annotation, the pod
//! template's `component.hypershift.openshift.io/config-hash`, and the ControlPlaneComponent.

mod cloud_config;
mod framework;
mod go_text;
mod platform;
mod token_minter;

use super::Rendered;
use crate::config::hosted::HostedConfig;
use anyhow::{Result, bail};
use ccm_catalogue::hosted::{Component, When};
use ccm_catalogue::json_fields::kind_of;
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
            platform::adapt_manifest(adapt, cfg, &mut object)?;
        }
        if kind_of(&object) == "SecretProviderClass" {
            object["status"] = json!({});
        }
        manifests.push(object);
    }
    let mut deployment = component.deployment.clone();
    deployment["metadata"]["name"] = json!(component.descriptor.metadata.name);
    place(&mut deployment, cfg);
    platform::adapt_deployment(component, cfg, &mut deployment)?;
    framework::apply_defaults(component, cfg, &mut deployment)?;
    manifests.push(deployment);
    Ok(Rendered {
        manifests,
        ..Rendered::default()
    })
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
