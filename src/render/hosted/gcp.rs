//! GCP's hosted CCM (HyperShift `cloud_controller_manager/gcp/`): the cloud config `cloud.conf`
//! (`config.go`). Its `component.go` adds only the TLS flags, which the component's
//! `spec.deployment` asks for; the restricted security context every GCP control plane pod gets
//! is the framework's (`framework.rs`).

use super::edit::{fill, not_an_adapter_of};
use super::go_text::sprintf;
use crate::config::hosted::HostedConfig;
use crate::inputs::hosted_control_plane::platform::Gcp;
use anyhow::Result;
use ccm_catalogue::hosted::ManifestAdapter;
use ccm_catalogue::platform::HostedPlatform;
use serde_json::Value;

/// Runs the component's manifest adapter `adapt` on `object`.
pub(super) fn adapt_manifest(
    adapt: ManifestAdapter,
    gcp: &Gcp,
    cfg: &HostedConfig,
    object: &mut Value,
) -> Result<()> {
    match adapt {
        ManifestAdapter::GcpCloudConfig => {
            fill(object, "cloud.conf", |t| cloud_config(gcp, cfg, t))
        }
        other => Err(not_an_adapter_of(other, HostedPlatform::Gcp)),
    }
}

/// `cloud.conf` of GCP (HyperShift `gcp/config.go`).
fn cloud_config(gcp: &Gcp, cfg: &HostedConfig, template: &str) -> Result<String> {
    let tags = format!("{}-worker", cfg.hcp.spec.infra_id).to_lowercase();
    sprintf(
        template,
        &[&gcp.project, &gcp.network_config.network.name, &tags],
        "assets/hosted/gcp/config.yaml: data.\"cloud.conf\"",
    )
}
