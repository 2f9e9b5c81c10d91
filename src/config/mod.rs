//! `ClusterConfig`: the one merged, validated view of the inputs that the render reads.
//!
//! Built once from the input files (all file reading happens here or in `inputs`); every later
//! step only reads it.

pub(crate) mod hosted;
pub(crate) mod hosted_cluster;
pub mod install_config;
pub mod tls;

use crate::config::tls::TlsSettings;
use crate::inputs::{
    self, cloud_provider_config::Selected, credentials::Credentials, images::Images,
    infrastructure::Infrastructure, proxy::ProxyEnv,
};
use anyhow::{Context as _, Result, bail};
use camino::{Utf8Path, Utf8PathBuf};
use ccm_catalogue::features::FeatureGates;
use serde_json::Value;

/// The namespace CCCMO deploys the CCMs into (its `--namespace` default).
pub const DEFAULT_NAMESPACE: &str = "openshift-cloud-controller-manager";

/// Everything the render needs.
#[derive(Debug, Clone)]
pub struct ClusterConfig {
    /// The Infrastructure.
    pub infrastructure: Infrastructure,
    /// images.json.
    pub(crate) images: Images,
    /// Namespace of the post-install objects.
    pub(crate) namespace: String,
    /// Proxy environment for the CCM containers (the Proxy status, as CCCMO).
    pub(crate) proxy: ProxyEnv,
    /// Proxy environment for the bootstrap pod: the status, or the spec when there is no status
    /// yet (at install time the network operator has not run).
    pub(crate) bootstrap_proxy: ProxyEnv,
    /// TLS flags.
    pub(crate) tls: TlsSettings,
    /// OpenShift feature gates.
    pub features: FeatureGates,
    /// The OpenShift release rendered for.
    pub release: &'static ccm_catalogue::releases::Release,
    /// The Network object, when given (or derived from `--install-config`).
    pub network: Option<Value>,
    /// The cloud config picked from `--cloud-config` (or derived from `--install-config`),
    /// before the platform transform.
    pub cloud_config: Option<Selected>,
    /// What was derived from `--install-config`, for `--emit-infrastructure`.
    pub(crate) derived: Option<crate::config::install_config::Derived>,
    /// `--credentials`: the Secrets it holds.
    pub(crate) credentials: Option<Credentials>,
    /// `--ca-bundle`: its path (for messages) and text.
    pub(crate) ca_bundle: Option<(Utf8PathBuf, String)>,
    /// Things worth telling the user that are not errors.
    pub(crate) warnings: Vec<String>,
}

/// The input files, as the command line names them.
#[derive(Debug, Clone, Default)]
pub struct InputFiles {
    /// `--infrastructure` (exactly one of it and `install_config`).
    pub infrastructure: Option<Utf8PathBuf>,
    /// `--install-config`.
    pub install_config: Option<Utf8PathBuf>,
    /// `--infrastructure-name`, `--ibm-instance-crn`, `--emit-infrastructure` (with
    /// `--install-config`).
    pub install_flags: crate::config::install_config::Flags,
    /// The `--<platform>-<fact>` flags (with `--install-config`).
    pub fact_flags: crate::config::install_config::facts::FactFlags,
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
    /// `--release`: the OpenShift version to render for (None: from the images, else the newest).
    pub release: Option<String>,
}

impl ClusterConfig {
    /// Reads and checks every input.
    pub fn load(files: &InputFiles) -> Result<Self> {
        ccm_catalogue::validate::namespace(&files.namespace).context("--namespace")?;
        // Read first: the install-config derivation takes facts from the credentials.
        let credentials = files
            .credentials
            .as_deref()
            .map(inputs::credentials::load)
            .transpose()?;
        // The release before the install-config: what its installer derives depends on it.
        let images = inputs::images::load(&files.images)?;
        let release = select_release(files.release.as_deref(), &images, &files.images)?;
        let (infrastructure, derived) = load_infrastructure(files, credentials.as_ref(), release)?;
        let cloud_config = load_cloud_config(files, derived.as_ref(), &infrastructure)?;
        let mut warnings = Vec::new();
        if let Some((d, path)) = &derived {
            warnings.extend(d.notes.iter().map(|note| format!("{path}: {note}")));
        }
        let proxies = load_proxy(files, derived.as_ref(), &mut warnings)?;
        // An explicit --network wins over the one derived from the install-config.
        let network = match (
            inputs::load_config_object(files.network.as_deref(), "Network")?,
            &derived,
        ) {
            (Some(given), _) => Some(given),
            (None, Some((d, _))) => Some(d.network.clone()),
            (None, None) => None,
        };
        let feature_gate =
            inputs::load_config_object(files.feature_gate.as_deref(), "FeatureGate")?;
        let features = feature_gates(
            feature_gate.as_ref(),
            files.feature_gate.as_ref(),
            derived.as_ref(),
            &release.behaviour.gates(),
            &mut warnings,
        )?;
        let apiserver = inputs::load_config_object(files.apiserver.as_deref(), "APIServer")?;
        let tls = crate::config::tls::from_apiserver(apiserver.as_ref())
            .map_err(|e| with_file(e, files.apiserver.as_ref()))?;
        let ca_bundle = files
            .ca_bundle
            .as_ref()
            .map(|path| {
                inputs::read_text(path)
                    .map(|text| (path.clone(), text))
                    .context("--ca-bundle")
            })
            .transpose()?;
        Ok(Self {
            infrastructure,
            images,
            namespace: files.namespace.clone(),
            proxy: proxies.ccm,
            bootstrap_proxy: proxies.bootstrap,
            tls,
            features,
            release,
            network,
            cloud_config,
            derived: derived.map(|(d, _)| d),
            credentials,
            ca_bundle,
            warnings,
        })
    }
}

/// The cloud provider config: `--cloud-config`, which wins over the one derived from the
/// install-config, the part the Infrastructure names selected.
fn load_cloud_config(
    files: &InputFiles,
    derived: Option<&(crate::config::install_config::Derived, &Utf8Path)>,
    infrastructure: &Infrastructure,
) -> Result<Option<Selected>> {
    let derived_cloud_config =
        derived.and_then(|(d, path)| Some((d.cloud_provider_config.as_ref()?, *path)));
    Ok(
        match (files.cloud_config.as_deref(), derived_cloud_config) {
            (Some(path), _) => Some(
                inputs::cloud_provider_config::load(path)?
                    .select(&infrastructure.cloud_config_key, path)?,
            ),
            (None, Some((config_map, path))) => {
                Some(derived_source(config_map).select(&infrastructure.cloud_config_key, path)?)
            }
            (None, None) => None,
        },
    )
}

/// The proxy environments a render sets.
struct Proxies {
    /// The CCMs': the Proxy's status.
    ccm: ProxyEnv,
    /// The bootstrap pods': its status, else its spec.
    bootstrap: ProxyEnv,
}

/// The proxy environments, from `--proxy` or the install-config.
fn load_proxy(
    files: &InputFiles,
    derived: Option<&(crate::config::install_config::Derived, &Utf8Path)>,
    warnings: &mut Vec<String>,
) -> Result<Proxies> {
    let proxy_input = match (files.proxy.as_deref(), derived) {
        (Some(path), _) => Some((inputs::proxy::load(path)?, path)),
        (None, Some((d, path))) => Some((inputs::proxy::from_value(&d.proxy, path)?, *path)),
        (None, None) => None,
    };
    let Some((proxy, path)) = proxy_input else {
        return Ok(Proxies {
            ccm: ProxyEnv::default(),
            bootstrap: ProxyEnv::default(),
        });
    };
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
    Ok(Proxies {
        ccm: proxy.status,
        bootstrap,
    })
}

/// The release to render for: `--release`, else the release the images name (the release
/// payload's `image-references` ImageStream), else the newest. Both given and naming different
/// releases is an error: which one the user meant cannot be guessed.
fn select_release(
    flag: Option<&str>,
    images: &Images,
    images_path: &Utf8Path,
) -> Result<&'static ccm_catalogue::releases::Release> {
    let releases = crate::catalogue::Releases::builtin()?;
    let from_flag = flag.map(|v| releases.find(v, "--release")).transpose()?;
    let from_images = images
        .release
        .as_deref()
        .map(|v| {
            releases
                .find(
                    v,
                    &format!("{images_path}: metadata.name (the release version)"),
                )
                .map(|r| (v, r))
        })
        .transpose()?;
    match (from_flag, from_images) {
        (Some(flag_release), Some((version, image_release)))
            if flag_release.name != image_release.name =>
        {
            bail!(
                "--release {} (OpenShift {}) contradicts {images_path}, the images of release {version} ({}); give the images of the release you render for, or leave --release out",
                flag.unwrap_or_default(),
                flag_release.name,
                image_release.name
            )
        }
        (Some(release), _) | (None, Some((_, release))) => Ok(release),
        (None, None) => Ok(releases.newest()),
    }
}

/// The Infrastructure, from `--infrastructure` or derived from `--install-config` (then with
/// what else was derived, and the install-config's path for messages).
fn load_infrastructure<'a>(
    files: &'a InputFiles,
    credentials: Option<&Credentials>,
    release: &ccm_catalogue::releases::Release,
) -> Result<(
    Infrastructure,
    Option<(crate::config::install_config::Derived, &'a Utf8Path)>,
)> {
    match (
        files.infrastructure.as_deref(),
        files.install_config.as_deref(),
    ) {
        (Some(path), None) => Ok((inputs::infrastructure::load(path)?, None)),
        (None, Some(path)) => {
            let flags = &files.install_flags;
            if let Some(name) = &flags.infrastructure_name {
                crate::config::install_config::infra_id::check(name)
                    .context("--infrastructure-name")?;
            }
            if let Some(crn) = &flags.ibm_instance_crn {
                crate::config::install_config::check_crn(crn).context("--ibm-instance-crn")?;
            }
            let install_config = crate::config::install_config::load(path)?;
            let options = crate::config::install_config::Options {
                flags: flags.clone(),
                cloud_config_given: files.cloud_config.is_some(),
                facts: platform_facts(&files.fact_flags, credentials)?,
                release: crate::config::install_config::installer_release::InstallerRelease::of(
                    &release.name,
                )?,
            };
            let derived = crate::config::install_config::derive(&install_config, &options)
                .with_context(|| path.to_string())?;
            let infrastructure =
                inputs::infrastructure::from_value(derived.infrastructure.clone(), path)?;
            Ok((infrastructure, Some((derived, path))))
        }
        _ => bail!("give exactly one of --infrastructure and --install-config"),
    }
}

/// Reads the `--<platform>-<fact>` flags' files and joins them with the credentials.
fn platform_facts(
    flags: &crate::config::install_config::facts::FactFlags,
    credentials: Option<&Credentials>,
) -> Result<crate::config::install_config::facts::PlatformFacts> {
    use crate::config::install_config::facts::{self, comma_list};
    let read = |path: Option<&Utf8PathBuf>, flag: &str| {
        path.map(|path| inputs::read_text(path).context(flag.to_string()))
            .transpose()
    };
    Ok(facts::PlatformFacts {
        credentials: credentials.cloned(),
        azure_stack_endpoints: read(
            flags.azure_stack_endpoints.as_ref(),
            facts::AZURE_STACK_ENDPOINTS,
        )?,
        ibmcloud_zones: flags.ibmcloud_zones.as_deref().map(comma_list),
        powervs_vpc_subnets: flags.powervs_vpc_subnets.as_deref().map(comma_list),
        openstack_external_network_id: flags.openstack_external_network_id.clone(),
        openstack_octavia: flags.openstack_octavia,
        openstack_ca_cert: read(flags.openstack_ca_cert.as_ref(), facts::OPENSTACK_CA_CERT)?,
    })
}

/// The derived cloud-provider-config ConfigMap as a cloud config source.
fn derived_source(config_map: &Value) -> inputs::cloud_provider_config::Source {
    let data = config_map
        .get("data")
        .and_then(Value::as_object)
        .map(|data| {
            data.iter()
                .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
                .collect()
        })
        .unwrap_or_default();
    inputs::cloud_provider_config::Source::ConfigMap {
        origin: "openshift-config/cloud-provider-config".into(),
        data,
    }
}

/// The gates the render uses: `--feature-gate`, else the FeatureGate the installer writes from
/// the install-config's featureSet and featureGates (installer
/// `pkg/asset/manifests/featuregate.go`), else the Default set. When both are given the flag
/// wins, said on stderr if the two differ.
fn feature_gates(
    given: Option<&Value>,
    given_path: Option<&Utf8PathBuf>,
    derived: Option<&(crate::config::install_config::Derived, &Utf8Path)>,
    gates: &ccm_catalogue::features::ReleaseGates,
    warnings: &mut Vec<String>,
) -> Result<FeatureGates> {
    let from_flag =
        FeatureGates::from_manifest_in(given, gates).map_err(|e| with_file(e, given_path))?;
    let Some((d, path)) = derived else {
        return Ok(from_flag);
    };
    let from_install_config = FeatureGates::from_manifest_in(Some(&d.feature_gate), gates)
        .with_context(|| path.to_string())?;
    match given_path {
        None => Ok(from_install_config),
        Some(flag) => {
            if !same_for_the_render(&from_install_config, &from_flag) {
                warnings.push(format!(
                    "--feature-gate {flag} wins over {} of {path}; they differ in the gates the render reads",
                    d.feature_set
                ));
            }
            Ok(from_flag)
        }
    }
}

/// Whether two FeatureGates agree on every gate the render reads (the tabled OCP gates and
/// the upstream gates CCCMO passes on); a live cluster's object lists many more.
fn same_for_the_render(a: &FeatureGates, b: &FeatureGates) -> bool {
    a.upstream_ccm_flag_value() == b.upstream_ccm_flag_value()
        && a.enabled()
            .iter()
            .chain(b.enabled())
            .filter(|name| ccm_catalogue::features::is_read_by_render(name))
            .all(|name| a.is_enabled(name) == b.is_enabled(name))
}

fn with_file(err: anyhow::Error, path: Option<&Utf8PathBuf>) -> anyhow::Error {
    match path {
        Some(path) => err.context(path.clone()),
        None => err,
    }
}
