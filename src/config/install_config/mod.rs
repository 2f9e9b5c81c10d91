//! `install-config.yaml`: reading and checking it as the installer does for the fields
//! ccm-render reads, and deriving from it, as pure functions, what the installer's asset graph
//! writes for the cloud controller managers: the `Infrastructure` (`infrastructure`), the
//! `cloud-provider-config` ConfigMap (`cloud_provider_config`), the `Proxy` (`proxy`) and the
//! `Network` (`network`). The platform section is read in `platform` (vSphere's deprecated
//! single-vCenter form converted in `vsphere`); the rest of the document here.
//!
//! Sources: `openshift/installer` `pkg/types/validation/installconfig.go`,
//! `pkg/types/defaults/installconfig.go`, `pkg/validate/validate.go`,
//! `pkg/asset/installconfig/clusterid.go`, `pkg/asset/manifests/{infrastructure,topologies,
//! cloudproviderconfig,proxy}.go` and the per-platform packages under `pkg/asset/manifests/`.
//! What the installer reads from its credentials or the cloud comes from `--credentials` and one
//! flag per fact (`facts`); when some are missing, the derivation stops with one error naming
//! every input that would supply them.

mod azure_subnets;
mod checked;
mod cloud_provider_config;
mod decode;
pub mod facts;
mod feature_gate;
mod gcp;
mod gcp_service_endpoints;
mod go_decoder;
mod go_json;
pub(crate) mod infra_id;
mod infrastructure;
pub mod installer_release;
mod net;
mod network;
mod platform;
mod powervs_vpc;
mod release_fields;
mod topologies;
mod vips;
mod vsphere;
mod vsphere_infrastructure;

pub(crate) use checked::InstallConfig;
pub(crate) use infrastructure::check_crn;
pub(crate) use platform::Platform;
mod proxy;
mod types;

use anyhow::{Context as _, Result, bail};
use camino::Utf8Path;
use decode::typed;
use serde_json::Value;
use types::Document;

pub(crate) use types::{
    Aws, Azure, External, Gcp, IbmCloud, Nutanix, OpenStack, PowerVs, ServiceEndpoint, VSphere,
    Vips,
};

/// The install-config `apiVersion` this tool understands (`types.InstallConfigVersion`).
pub(crate) const VERSION: &str = "v1";

/// What the command line says about deriving from the install-config.
#[derive(Debug, Clone, Default)]
pub struct Flags {
    /// `--infrastructure-name`.
    pub(crate) infrastructure_name: Option<String>,
    /// `--ibm-instance-crn`: the CIS (publish External) or DNS Services (publish Internal)
    /// instance CRN the installer looks up online for IBM Cloud and PowerVS.
    pub(crate) ibm_instance_crn: Option<String>,
    /// Whether `--emit-infrastructure` writes the derived objects (then the fields only they
    /// carry are required too: [`infrastructure::check_emittable`]).
    pub(crate) emit_infrastructure: bool,
}

/// What deriving takes besides the install-config: the command line's [`Flags`], and what
/// loading the other inputs found.
#[derive(Debug, Clone, Default)]
pub(crate) struct Options {
    /// The command line's flags.
    pub(crate) flags: Flags,
    /// Whether `--cloud-config` was given (then the cloud provider config is not derived).
    pub(crate) cloud_config_given: bool,
    /// `--credentials` and the `--<platform>-<fact>` flags: what the installer reads from its
    /// credentials or the cloud for the cloud provider config.
    pub(crate) facts: facts::PlatformFacts,
    /// The installer of the release rendered: the fields it has, and what it writes (the
    /// cloud config and the Infrastructure), differ by release.
    pub(crate) release: installer_release::InstallerRelease,
}

/// What the installer would write, derived from an install-config.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Derived {
    /// `manifests/cluster-infrastructure-02-config.yml`.
    pub(crate) infrastructure: Value,
    /// `manifests/cloud-provider-config.yaml`, when the installer writes one (and
    /// `--cloud-config` was not given).
    pub(crate) cloud_provider_config: Option<Value>,
    /// `manifests/cluster-proxy-01-config.yaml`.
    pub(crate) proxy: Value,
    /// `manifests/cluster-network-02-config.yml`.
    pub(crate) network: Value,
    /// `openshift/99_feature-gate.yaml`: the FeatureGate of `featureSet` and `featureGates`.
    pub(crate) feature_gate: Value,
    /// How the install-config names its feature set, for messages.
    pub(crate) feature_set: String,
    /// Notes for stderr (how the infrastructure name was chosen, deprecated fields converted,
    /// why an External platform gets no CCM).
    pub(crate) notes: Vec<String>,
}

impl Derived {
    /// The derived objects as one YAML stream (Infrastructure, then the cloud-provider-config
    /// ConfigMap when derived, then the Proxy, the Network and the FeatureGate): what
    /// `--emit-infrastructure` writes. Each `--infrastructure`, `--cloud-config`, `--proxy`,
    /// `--network` and `--feature-gate` picks its object out of it by kind.
    pub(crate) fn to_yaml_stream(&self) -> Result<String> {
        let mut out = ccm_catalogue::yaml::to_string(&self.infrastructure)?;
        for object in self.cloud_provider_config.iter().chain([
            &self.proxy,
            &self.network,
            &self.feature_gate,
        ]) {
            out.push_str("---\n");
            out.push_str(&ccm_catalogue::yaml::to_string(object)?);
        }
        Ok(out)
    }
}

/// Reads and checks an install-config file: the install-config itself, or the
/// `kube-system/cluster-config-v1` ConfigMap that carries it under `data.install-config` (what
/// installer `pkg/asset/manifests/operators.go` writes as `manifests/cluster-config.yaml`, and
/// what bootkube hands to the etcd and machine-config renders).
pub(crate) fn load(path: &Utf8Path) -> Result<InstallConfig> {
    let text = crate::inputs::read_text(path)?;
    parse_text(&text, path)
}

/// [`load`] on text already read (`path` only names it in errors).
pub(crate) fn parse_text(text: &str, path: &Utf8Path) -> Result<InstallConfig> {
    let mut docs = crate::inputs::parse_documents(text, path)?;
    if docs.len() != 1 {
        bail!(
            "{path}: holds {} YAML documents; an install-config is one",
            docs.len()
        );
    }
    let doc = docs.remove(0);
    if ccm_catalogue::json_fields::kind_of(&doc) != "ConfigMap" {
        return parse(&doc).with_context(|| path.to_string());
    }
    crate::inputs::check_api_version(&doc, "", &["v1"], path)?;
    let inner = match doc.pointer("/data/install-config") {
        Some(Value::String(inner)) => inner,
        None | Some(Value::Null) => {
            bail!("{path}: the ConfigMap has no data.install-config key")
        }
        Some(_) => bail!("{path}: data.install-config is not a string"),
    };
    let origin = format!("{path} (data.install-config)");
    let mut docs = ccm_catalogue::yaml::documents(inner)
        .with_context(|| format!("{origin}: not valid YAML or JSON"))?;
    if docs.len() != 1 {
        bail!(
            "{origin}: holds {} YAML documents; an install-config is one",
            docs.len()
        );
    }
    parse(&docs.remove(0)).with_context(|| origin.clone())
}

/// installconfig.go ValidateInstallConfig: the version is checked before anything else.
fn check_version(d: &Document) -> Result<()> {
    if d.api_version.is_empty() {
        bail!("apiVersion: install-config version required");
    }
    if d.api_version != VERSION {
        bail!(
            "apiVersion: {:?}: install-config version must be {VERSION:?}",
            d.api_version
        );
    }
    Ok(())
}

/// `baseDomain` without a trailing dot, checked alone and under the cluster's name.
fn base_domain(d: &Document) -> Result<&str> {
    let base_domain = d.base_domain.strip_suffix('.').unwrap_or(&d.base_domain);
    if base_domain.is_empty() {
        bail!("baseDomain: required");
    }
    ccm_catalogue::validate::dns_subdomain(base_domain).context("baseDomain")?;
    let cluster_domain = format!("{}.{base_domain}", d.metadata.name);
    ccm_catalogue::validate::dns_subdomain(&cluster_domain)
        .with_context(|| format!("baseDomain: {cluster_domain:?}"))?;
    Ok(base_domain)
}

/// Checks a parsed install-config as the installer's validation does for the fields read here
/// and applies the installer's defaults.
pub(crate) fn parse(doc: &Value) -> Result<InstallConfig> {
    if !doc.is_object() {
        bail!("not an install-config (expected a mapping at the top level)");
    }
    let d: Document = typed(doc, "")?;
    check_version(&d)?;
    let mut notes = Vec::new();
    let features = feature_gate::parse(&d.feature_set, &d.feature_gates)?;
    let platform = platform::parse(&d, &mut notes)?;
    platform::check_cluster_name(&d.metadata.name, &platform)?;
    let base_domain = base_domain(&d)?;

    let replicas = replicas(&d, matches!(platform, Platform::BareMetal(_)))?;
    let networking = d.networking.clone().unwrap_or_default();
    let machine_networks = machine_networks(&networking, &platform)?;
    let networks = network::parse(&networking, &platform, machine_networks.as_deref())?;
    if let Some((at, v, in_machine_networks)) = platform.vips() {
        let networks = machine_networks.as_deref().unwrap_or_default();
        vips::check_against(at, v, in_machine_networks, networks)?;
    }
    let publish = if d.publish.is_empty() {
        "External".to_string()
    } else {
        d.publish.clone()
    };
    platform::check_publish(&publish, &platform)?;
    match d.cpu_partitioning_mode.as_str() {
        "" | "None" | "AllNodes" => {}
        other => bail!("cpuPartitioningMode: {other:?}: supported values: \"None\", \"AllNodes\""),
    }
    let policy = if d.additional_trust_bundle_policy.is_empty() {
        "Proxyonly".to_string()
    } else {
        d.additional_trust_bundle_policy.clone()
    };
    if policy != "Proxyonly" && policy != "Always" {
        bail!(
            "additionalTrustBundlePolicy: {policy:?}: supported values: \"Proxyonly\", \"Always\""
        );
    }
    if let Some(p) = &d.proxy {
        proxy::check(p)?;
    }
    let canonical = serde_json::to_string(doc).unwrap_or_default();
    Ok(InstallConfig {
        name: d.metadata.name.clone(),
        base_domain: base_domain.to_string(),
        platform,
        control_plane_replicas: replicas.control_plane,
        arbiter_replicas: replicas.arbiter,
        arbiter_section: d.arbiter.is_some(),
        compute_replicas: replicas.compute,
        machine_networks,
        networks,
        proxy: d.proxy.clone(),
        additional_trust_bundle: d.additional_trust_bundle.clone(),
        additional_trust_bundle_policy: policy,
        publish,
        cpu_partitioning_all_nodes: d.cpu_partitioning_mode == "AllNodes",
        features,
        has_image_mirrors: !d.image_digest_sources.is_empty()
            || !d.image_content_sources.is_empty(),
        canonical,
        notes,
    })
}

/// Derives the installer's objects. Pure: the same install-config and options give the same
/// objects.
pub(crate) fn derive(ic: &InstallConfig, options: &Options) -> Result<Derived> {
    release_fields::check(ic, options.release)?;
    let mut notes = ic.notes.clone();
    let infra_id = if let Some(name) = &options.flags.infrastructure_name {
        infra_id::check(name).context("--infrastructure-name")?;
        name.clone()
    } else {
        let name = format!(
            "{}-{}",
            infra_id::base(&ic.name),
            infra_id::stable_suffix(ic.canonical.as_bytes())
        );
        notes.push(format!(
            "no --infrastructure-name: using {name:?}, whose suffix is a hash of the install-config's content; the installer picks 5 random characters instead, so a real cluster's name differs (give --infrastructure-name to match one)"
        ));
        name
    };
    let cloud_provider_config = if options.cloud_config_given {
        None
    } else {
        let (config_map, derive_notes) = cloud_provider_config::derive(
            ic,
            &infra_id,
            options.flags.ibm_instance_crn.as_deref(),
            &options.facts,
            options.release,
        )?;
        notes.extend(derive_notes);
        config_map
    };
    if options.flags.emit_infrastructure {
        infrastructure::check_emittable(ic)?;
    }
    let writes_cloud_config = cloud_provider_config::installer_writes_one(&ic.platform);
    let infrastructure = sort_keys(infrastructure::derive(
        ic,
        &infra_id,
        writes_cloud_config,
        options.flags.ibm_instance_crn.as_deref(),
        options.release,
    )?);
    let proxy = sort_keys(proxy::derive(ic)?);
    if let Platform::External(p) = &ic.platform
        && p.cloud_controller_manager != platform::CCM_EXTERNAL
    {
        notes.push(format!(
            "platform.external.cloudControllerManager is {:?}, not \"External\": the installer writes status.platformStatus.external.cloudControllerManager.state \"\" (None), the cluster expects no CCM and nothing is rendered; set it to External to render the CCM of platformName {:?}",
            p.cloud_controller_manager, p.platform_name
        ));
    }
    Ok(Derived {
        infrastructure,
        cloud_provider_config: cloud_provider_config.map(sort_keys),
        proxy,
        network: sort_keys(network::derive(&ic.networks)),
        feature_gate: sort_keys(ic.features.manifest()),
        feature_set: ic.features.describe(),
        notes,
    })
}

/// Sorts every mapping's keys, as `sigs.k8s.io/yaml` writes them (it marshals through JSON).
fn sort_keys(value: Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(String, Value)> = map.into_iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            Value::Object(
                entries
                    .into_iter()
                    .map(|(k, v)| (k, sort_keys(v)))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.into_iter().map(sort_keys).collect()),
        other => other,
    }
}

/// How many machines of each role the install-config asks for.
struct Replicas {
    control_plane: i64,
    arbiter: i64,
    /// Every compute pool's, added up.
    compute: i64,
}

/// Control plane, arbiter and compute replicas, with the installer's defaults
/// (`pkg/types/defaults`: 3 for the control plane and for compute pools, 0 for the `edge` and
/// `arbiter` pools, and on bare metal the hosts that are not masters).
fn replicas(d: &Document, bare_metal: bool) -> Result<Replicas> {
    let control_plane = d
        .control_plane
        .as_ref()
        .and_then(|p| p.replicas)
        .unwrap_or(3);
    // installconfig.go validateControlPlane.
    if control_plane <= 0 {
        bail!(
            "controlPlane.replicas: {control_plane}: number of control plane replicas must be positive"
        );
    }
    // pkg/asset/ignition/bootstrap verifyBootstrapInPlace: single-node bootstrap-in-place.
    if d.bootstrap_in_place.is_some() && control_plane != 1 {
        bail!(
            "controlPlane.replicas: {control_plane}: bootstrap in place requires a single ControlPlane replica"
        );
    }
    let arbiter = d.arbiter.as_ref().and_then(|p| p.replicas).unwrap_or(0);
    if arbiter < 0 {
        bail!("arbiter.replicas: {arbiter}: must not be negative");
    }
    let mut compute = 0i64;
    let pools: Vec<types::MachinePool> = if d.compute.is_empty() {
        vec![types::MachinePool {
            name: "worker".into(),
            ..types::MachinePool::default()
        }]
    } else {
        d.compute.clone()
    };
    for (i, pool) in pools.iter().enumerate() {
        let default = match pool.name.as_str() {
            "edge" | "arbiter" => 0,
            _ => 3,
        };
        let n = match pool.replicas {
            Some(n) => n,
            None if bare_metal && pool.name == "worker" => bail!(
                "compute[{i}].replicas: required on bare metal (the installer counts the hosts, which ccm-render does not read)"
            ),
            None => default,
        };
        if n < 0 {
            bail!("compute[{i}].replicas: {n}: must not be negative");
        }
        compute = compute.saturating_add(n);
    }
    if d.bootstrap_in_place.is_some() && compute != 0 {
        bail!("compute[0].replicas: {compute}: bootstrap in place requires 0 compute replicas");
    }
    Ok(Replicas {
        control_plane,
        arbiter,
        compute,
    })
}

fn cidrs<'a>(
    entries: impl IntoIterator<Item = &'a str>,
    at: &str,
    field: &str,
    default: &str,
) -> Result<Vec<String>> {
    let mut out = Vec::new();
    for (i, text) in entries.into_iter().enumerate() {
        let place = if field.is_empty() {
            format!("{at}[{i}]")
        } else {
            format!("{at}[{i}].{field}")
        };
        let cidr = net::parse_cidr(text).with_context(|| place.clone())?;
        out.push(cidr.to_string());
    }
    if out.is_empty() && !default.is_empty() {
        out.push(default.to_string());
    }
    Ok(out)
}

/// `networking.machineNetwork`, or the deprecated `machineCIDR`, or the installer's default
/// (`10.0.0.0/16`; PowerVS picks a random `192.168.<n>.0/24`, so it stays unknown).
fn machine_networks(n: &types::Networking, platform: &Platform) -> Result<Option<Vec<String>>> {
    if !n.machine_network.is_empty() {
        return cidrs(
            n.machine_network.iter().map(|e| e.cidr.as_str()),
            "networking.machineNetwork",
            "cidr",
            "",
        )
        .map(Some);
    }
    if !n.machine_cidr.is_empty() {
        return cidrs([n.machine_cidr.as_str()], "networking.machineCIDR", "", "").map(Some);
    }
    if matches!(platform, Platform::PowerVs(_)) {
        return Ok(None);
    }
    Ok(Some(vec!["10.0.0.0/16".to_string()]))
}

#[cfg(test)]
mod tests;
