//! AWS's hosted CCM (HyperShift `cloud_controller_manager/aws/`): the cloud config `aws.conf`
//! (`config.go`). Its `deployment.go` adds only the TLS flags and the proxy environment, which
//! the component's `spec.deployment` asks for.

use super::edit::{fill, not_an_adapter_of};
use super::go_text::sprintf;
use super::probe;
use crate::config::hosted::HostedConfig;
use crate::inputs::hosted_control_plane::platform::Aws;
use anyhow::Result;
use ccm_catalogue::hosted::ManifestAdapter;
use ccm_catalogue::platform::HostedPlatform;
use serde_json::Value;
use std::fmt::Write as _;

/// Runs the component's manifest adapter `adapt` on `object`.
pub(super) fn adapt_manifest(
    adapt: ManifestAdapter,
    aws: &Aws,
    cfg: &HostedConfig,
    object: &mut Value,
) -> Result<()> {
    match adapt {
        ManifestAdapter::AwsCloudConfig => fill(object, "aws.conf", |t| cloud_config(aws, cfg, t)),
        other => Err(not_an_adapter_of(other, HostedPlatform::Aws)),
    }
}

/// `aws.conf` (HyperShift `aws/config.go`).
fn cloud_config(aws: &Aws, cfg: &HostedConfig, template: &str) -> Result<String> {
    let config = aws.cloud_provider_config.as_ref();
    let zone = config.map_or("", |c| c.zone.as_str());
    let vpc = config.map_or("", |c| c.vpc.as_str());
    let subnet = config
        .and_then(|c| c.subnet.as_ref())
        .and_then(|s| s.id.as_deref())
        .unwrap_or_default();
    let probe = probe::read(cfg, probe::AWS_PROBE_MODE, ["Shared", "ServiceNodePort"])?;
    let mut text = sprintf(
        template,
        &[zone, vpc, &cfg.hcp.spec.infra_id, subnet, &probe.mode],
        "assets/hosted/aws/config.yaml: data.\"aws.conf\"",
    )?;
    if let Some(path) = &probe.path {
        let _ = write!(
            text,
            "\nClusterServiceSharedLoadBalancerHealthProbePath = {path}"
        );
    }
    if let Some(port) = &probe.port {
        let _ = write!(
            text,
            "\nClusterServiceSharedLoadBalancerHealthProbePort = {port}"
        );
    }
    Ok(text)
}
