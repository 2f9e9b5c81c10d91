//! KubeVirt's hosted CCM (HyperShift `cloud_controller_manager/kubevirt/`): the cloud config
//! (`config.go`) and the Deployment's cluster name and infrastructure kubeconfig
//! (`deployment.go`). Its infrastructure cluster is the management cluster unless
//! `spec.platform.kubevirt.credentials` names another one.

use super::edit::{container, fill, not_an_adapter_of, push};
use crate::config::hosted::HostedConfig;
use crate::inputs::hosted_control_plane::platform::KubeVirt;
use anyhow::{Context as _, Result, bail};
use ccm_catalogue::hosted::ManifestAdapter;
use ccm_catalogue::platform::HostedPlatform;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Runs the component's manifest adapter `adapt` on `object`.
pub(super) fn adapt_manifest(
    adapt: ManifestAdapter,
    kubevirt: &KubeVirt,
    cfg: &HostedConfig,
    object: &mut Value,
) -> Result<()> {
    match adapt {
        ManifestAdapter::KubevirtCloudConfig => {
            fill(object, "cloud-config", |t| cloud_config(kubevirt, cfg, t))
        }
        other => Err(not_an_adapter_of(other, HostedPlatform::KubeVirt)),
    }
}

/// `cloud-config` of KubeVirt (HyperShift `kubevirt/config.go`): the template's settings with
/// the namespace, kubeconfig and infra-id label of this control plane, written as yaml.v2 does.
fn cloud_config(kubevirt: &KubeVirt, cfg: &HostedConfig, template: &str) -> Result<String> {
    #[derive(serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Template {
        #[serde(default)]
        kubeconfig: String,
        load_balancer: LoadBalancer,
        instances_v2: InstancesV2,
        #[serde(default)]
        namespace: String,
        #[serde(default)]
        infra_labels: BTreeMap<String, String>,
    }
    #[derive(serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct LoadBalancer {
        enabled: bool,
        creation_poll_interval: i64,
        selectorless: Option<bool>,
    }
    #[derive(serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct InstancesV2 {
        enabled: bool,
        zone_and_region_enabled: bool,
    }
    // Read as a `Value`, then typed as every other parsed record is: decoding the record from
    // the YAML text straight away compiled serde-saphyr's decoder for it (0.07 MB of the binary).
    let origin = "assets/hosted/kubevirt/kubevirt-cloud-config.yaml: data.cloud-config";
    let doc = ccm_catalogue::yaml::one_document(template).context(origin)?;
    let mut t: Template = ccm_catalogue::json_fields::typed(&doc, camino::Utf8Path::new(origin))?;
    if let Some(creds) = &kubevirt.credentials {
        t.namespace.clone_from(&creds.infra_namespace);
        t.kubeconfig = "/etc/kubernetes/infra-kubeconfig/kubeconfig".into();
    }
    if t.namespace.is_empty() {
        t.namespace.clone_from(&cfg.hcp.metadata.namespace);
    }
    t.infra_labels.insert(
        "hypershift.openshift.io/infra-id".into(),
        cfg.hcp.spec.infra_id.clone(),
    );
    let mut out = format!("kubeconfig: {}\n", yaml_v2_scalar(&t.kubeconfig));
    let _ = write!(
        out,
        "loadBalancer:\n  enabled: {}\n  creationPollInterval: {}\n",
        t.load_balancer.enabled, t.load_balancer.creation_poll_interval
    );
    if let Some(s) = t.load_balancer.selectorless {
        let _ = writeln!(out, "  selectorless: {s}");
    }
    let _ = write!(
        out,
        "instancesV2:\n  enabled: {}\n  zoneAndRegionEnabled: {}\n",
        t.instances_v2.enabled, t.instances_v2.zone_and_region_enabled
    );
    let _ = write!(
        out,
        "namespace: {}\ninfraLabels:\n",
        yaml_v2_scalar(&t.namespace)
    );
    for (k, v) in &t.infra_labels {
        let _ = writeln!(out, "  {}: {}", yaml_v2_scalar(k), yaml_v2_scalar(v));
    }
    Ok(out)
}

/// A string as gopkg.in/yaml.v2 writes it: plain when YAML reads it back as that string,
/// double-quoted otherwise.
fn yaml_v2_scalar(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-".contains(c))
        && !text.starts_with(['-', '.'])
        && !matches!(
            text.to_ascii_lowercase().as_str(),
            "true" | "false" | "yes" | "no" | "on" | "off" | "y" | "n" | "null" | "~"
        )
        && text.parse::<f64>().is_err();
    if plain {
        text.to_string()
    } else {
        serde_json::Value::String(text.to_string()).to_string()
    }
}

/// HyperShift `kubevirt/deployment.go`: the CCM's `--cluster-name` from the cluster-api label,
/// and the infrastructure cluster's kubeconfig when it is not the management cluster.
pub(super) fn adapt_deployment(
    kubevirt: &KubeVirt,
    cfg: &HostedConfig,
    deployment: &mut Value,
    name: &str,
) -> Result<()> {
    let Some(cluster) = cfg.hcp.metadata.labels.get("cluster.x-k8s.io/cluster-name") else {
        bail!(
            "{}: metadata.labels.\"cluster.x-k8s.io/cluster-name\" is missing (the KubeVirt CCM's --cluster-name)",
            cfg.hcp_path
        );
    };
    let external = kubevirt.credentials.is_some();
    if external {
        push(
            &mut deployment["spec"]["template"]["spec"]["volumes"],
            json!({"name": "infra-kubeconfig", "secret": {"secretName": "kubevirt-infra-credentials"}}),
        );
    }
    let c = container(deployment, name)?;
    push(&mut c["args"], json!(format!("--cluster-name={cluster}")));
    if external {
        push(
            &mut c["volumeMounts"],
            json!({"name": "infra-kubeconfig", "mountPath": "/etc/kubernetes/infra-kubeconfig"}),
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_v2_quotes_what_would_read_back_otherwise() {
        assert_eq!(yaml_v2_scalar(""), "\"\"");
        assert_eq!(yaml_v2_scalar("true"), "\"true\"");
        assert_eq!(yaml_v2_scalar("hcp-namespace"), "hcp-namespace");
        assert_eq!(yaml_v2_scalar("123"), "\"123\"");
    }
}
