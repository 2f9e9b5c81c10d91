//! Power VS's hosted CCM (HyperShift `cloud_controller_manager/powervs/`): the cloud config
//! `ccm-config` (`config.go`) and the cloud credentials Secret of the Deployment
//! (`deployment.go`).

use super::edit::{fill, not_an_adapter_of};
use super::go_text::html_template;
use crate::config::hosted::HostedConfig;
use crate::inputs::hosted_control_plane::platform::PowerVs;
use anyhow::Result;
use ccm_catalogue::hosted::ManifestAdapter;
use ccm_catalogue::platform::HostedPlatform;
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// Runs the component's manifest adapter `adapt` on `object`.
pub(super) fn adapt_manifest(
    adapt: ManifestAdapter,
    powervs: &PowerVs,
    cfg: &HostedConfig,
    object: &mut Value,
) -> Result<()> {
    match adapt {
        ManifestAdapter::PowervsCloudConfig => {
            fill(object, "ccm-config", |t| cloud_config(powervs, cfg, t))
        }
        other => Err(not_an_adapter_of(other, HostedPlatform::PowerVs)),
    }
}

/// `ccm-config` of Power VS (HyperShift `powervs/config.go`).
fn cloud_config(p: &PowerVs, cfg: &HostedConfig, template: &str) -> Result<String> {
    let values = BTreeMap::from([
        ("ClusterID", cfg.hcp.metadata.name.as_str()),
        ("AccountID", p.account_id.as_str()),
        ("G2workerServiceAccountID", p.account_id.as_str()),
        ("G2ResourceGroupName", p.resource_group.as_str()),
        ("G2VpcSubnetNames", p.vpc.subnet.as_str()),
        ("G2VpcName", p.vpc.name.as_str()),
        ("Region", p.vpc.region.as_str()),
        ("PowerVSCloudInstanceID", p.service_instance_id.as_str()),
        ("PowerVSRegion", p.region.as_str()),
        ("PowerVSZone", p.zone.as_str()),
    ]);
    html_template(
        template,
        &values,
        "assets/hosted/powervs/config.yaml: data.ccm-config",
    )
}

/// HyperShift `powervs/deployment.go`: the `cloud-creds` volume reads
/// `kubeCloudControllerCreds`.
pub(super) fn adapt_deployment(p: &PowerVs, deployment: &mut Value) {
    if let Some(Value::Array(volumes)) = deployment["spec"]["template"]["spec"].get_mut("volumes")
        && let Some(v) = volumes.iter_mut().find(|v| v["name"] == "cloud-creds")
        && let Some(secret) = v["secret"].as_object_mut()
    {
        let name = &p.kube_cloud_controller_creds.name;
        if name.is_empty() {
            secret.remove("secretName");
        } else {
            secret.insert("secretName".into(), json!(name));
        }
    }
}
