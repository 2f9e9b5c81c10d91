//! `ClusterConfig`: the one merged, validated view of the inputs that the render reads.
//!
//! Built once from the input files (all file reading happens here or in `inputs`); every later
//! step only reads it.

use crate::features::FeatureGates;
use crate::inputs::{
    self, cloud_provider_config::Selected, credentials::Credentials, images::Images,
    infrastructure::Infrastructure, proxy::ProxyEnv,
};
use crate::tls::TlsSettings;
use anyhow::{Result, anyhow};
use camino::Utf8PathBuf;
use serde_json::Value;

/// The namespace CCCMO deploys the CCMs into (its `--namespace` default).
pub const DEFAULT_NAMESPACE: &str = "openshift-cloud-controller-manager";

/// Everything the render needs.
#[derive(Debug, Clone)]
pub struct ClusterConfig {
    /// The Infrastructure.
    pub infrastructure: Infrastructure,
    /// images.json.
    pub images: Images,
    /// Namespace of the post-install objects.
    pub namespace: String,
    /// Proxy environment for the CCM containers (the Proxy status, as CCCMO).
    pub proxy: ProxyEnv,
    /// Proxy environment for the bootstrap pod: the status, or the spec when there is no status
    /// yet (at install time the network operator has not run).
    pub bootstrap_proxy: ProxyEnv,
    /// TLS flags.
    pub tls: TlsSettings,
    /// OpenShift feature gates.
    pub features: FeatureGates,
    /// The Network object, when given.
    pub network: Option<Value>,
    /// The cloud config picked from `--cloud-config`, before the platform transform.
    pub cloud_config: Option<Selected>,
    /// `--credentials`: the Secrets it holds.
    pub credentials: Option<Credentials>,
    /// `--ca-bundle`: its path (for messages) and text.
    pub ca_bundle: Option<(Utf8PathBuf, String)>,
    /// Things worth telling the user that are not errors.
    pub warnings: Vec<String>,
}

/// The input files, as the command line names them.
#[derive(Debug, Clone, Default)]
pub struct InputFiles {
    /// `--infrastructure`.
    pub infrastructure: Utf8PathBuf,
    /// `--images`.
    pub images: Utf8PathBuf,
    /// `--cloud-config`.
    pub cloud_config: Option<Utf8PathBuf>,
    /// `--proxy`.
    pub proxy: Option<Utf8PathBuf>,
    /// `--network`.
    pub network: Option<Utf8PathBuf>,
    /// `--feature-gate`.
    pub feature_gate: Option<Utf8PathBuf>,
    /// `--apiserver`.
    pub apiserver: Option<Utf8PathBuf>,
    /// `--credentials`.
    pub credentials: Option<Utf8PathBuf>,
    /// `--ca-bundle`.
    pub ca_bundle: Option<Utf8PathBuf>,
    /// `--namespace`.
    pub namespace: String,
}

impl ClusterConfig {
    /// Reads and checks every input.
    pub fn load(files: &InputFiles) -> Result<Self> {
        crate::validate::namespace(&files.namespace).map_err(|e| anyhow!("--namespace: {e}"))?;
        let infrastructure = inputs::infrastructure::load(&files.infrastructure)?;
        let images = inputs::images::load(&files.images)?;
        let cloud_config = match files.cloud_config.as_deref() {
            Some(path) => Some(
                inputs::cloud_provider_config::load(path)?
                    .select(&infrastructure.cloud_config_key, path)?,
            ),
            None => None,
        };
        let mut warnings = Vec::new();
        let (proxy, bootstrap_proxy) = match files.proxy.as_deref() {
            Some(path) => {
                let proxy = inputs::proxy::load(path)?;
                if proxy.status == ProxyEnv::default() && proxy.spec != ProxyEnv::default() {
                    // CCCMO pkg/cloud/common/substitution.go reads the Proxy status only, which the
                    // network operator fills in a running cluster.
                    warnings.push(format!(
                        "{path}: the Proxy has a spec but no status; like the operator, ccm-render takes the proxy environment from status only, so the CCMs get none"
                    ));
                }
                let bootstrap = if proxy.status == ProxyEnv::default() {
                    proxy.spec.clone()
                } else {
                    proxy.status.clone()
                };
                (proxy.status, bootstrap)
            }
            None => (ProxyEnv::default(), ProxyEnv::default()),
        };
        let network = inputs::load_config_object(files.network.as_deref(), "Network")?;
        let feature_gate =
            inputs::load_config_object(files.feature_gate.as_deref(), "FeatureGate")?;
        let features = FeatureGates::from_manifest(feature_gate.as_ref())
            .map_err(|e| with_file(e, files.feature_gate.as_ref()))?;
        let apiserver = inputs::load_config_object(files.apiserver.as_deref(), "APIServer")?;
        let tls = crate::tls::from_apiserver(apiserver.as_ref())
            .map_err(|e| with_file(e, files.apiserver.as_ref()))?;
        let credentials = files
            .credentials
            .as_deref()
            .map(inputs::credentials::load)
            .transpose()?;
        let ca_bundle = files
            .ca_bundle
            .as_ref()
            .map(|path| {
                inputs::read_text(path)
                    .map(|text| (path.clone(), text))
                    .map_err(|e| anyhow!("--ca-bundle {e}"))
            })
            .transpose()?;
        Ok(Self {
            infrastructure,
            images,
            namespace: files.namespace.clone(),
            proxy,
            bootstrap_proxy,
            tls,
            features,
            network,
            cloud_config,
            credentials,
            ca_bundle,
            warnings,
        })
    }
}

fn with_file(err: anyhow::Error, path: Option<&Utf8PathBuf>) -> anyhow::Error {
    match path {
        Some(path) => anyhow!("{path}: {err}"),
        None => err,
    }
}
