//! The shared load balancer's health probe that AWS's and Azure's cloud configs carry, from the
//! HostedControlPlane's annotations (HyperShift `aws/config.go` and `azure/config.go`, which
//! read them the same way).

use crate::config::hosted::HostedConfig;
use anyhow::{Result, anyhow, bail};

/// The annotation of AWS's probe mode.
pub(super) const AWS_PROBE_MODE: &str =
    "hypershift.openshift.io/aws-load-balancer-health-probe-mode";
/// The annotation of Azure's probe mode.
pub(super) const AZURE_PROBE_MODE: &str =
    "hypershift.openshift.io/azure-load-balancer-health-probe-mode";
const PROBE_PATH: &str = "hypershift.openshift.io/shared-load-balancer-health-probe-path";
const PROBE_PORT: &str = "hypershift.openshift.io/shared-load-balancer-health-probe-port";

/// The probe's mode, and the path and port of the shared mode.
pub(super) struct Probe {
    /// The mode, as the cloud config spells it.
    pub(super) mode: String,
    /// The shared mode's path, when annotated.
    pub(super) path: Option<String>,
    /// The shared mode's port, when annotated (checked to be one).
    pub(super) port: Option<String>,
}

/// Reads the probe annotations: `mode_annotation` takes one of `modes` (the first is the
/// default and the shared mode); path and port apply to the shared mode only.
pub(super) fn read(cfg: &HostedConfig, mode_annotation: &str, modes: [&str; 2]) -> Result<Probe> {
    let annotations = &cfg.hcp.metadata.annotations;
    let at = |name: &str| format!("{}: metadata.annotations.{name:?}", cfg.hcp_path);
    let mode = match annotations.get(mode_annotation) {
        None => modes[0].to_string(),
        Some(mode) if modes.contains(&mode.as_str()) => mode.clone(),
        Some(mode) => bail!(
            "{}: invalid value {mode:?} (valid values: {}, {})",
            at(mode_annotation),
            modes[0],
            modes[1]
        ),
    };
    let shared = mode == modes[0];
    let path = annotations.get(PROBE_PATH).filter(|_| shared).cloned();
    let port = match annotations.get(PROBE_PORT).filter(|_| shared) {
        None => None,
        Some(text) => {
            let port: i64 = text.parse().map_err(|_| {
                anyhow!(
                    "{}: invalid value {text:?} (must be a valid port number)",
                    at(PROBE_PORT)
                )
            })?;
            if !(1..=65535).contains(&port) {
                bail!(
                    "{}: invalid value {port} (must be between 1 and 65535)",
                    at(PROBE_PORT)
                );
            }
            Some(text.clone())
        }
    };
    Ok(Probe { mode, path, port })
}
