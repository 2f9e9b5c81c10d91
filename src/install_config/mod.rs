//! `install-config.yaml`: reading and checking it as the installer does for the fields
//! ccm-render reads, and deriving from it, as pure functions, what the installer's asset graph
//! writes for the cloud controller managers: the `Infrastructure` (`infrastructure`), the
//! `cloud-provider-config` ConfigMap (`cloud_provider_config`) and the `Proxy` (`proxy`).
//!
//! Sources: `openshift/installer` `pkg/types/validation/installconfig.go`,
//! `pkg/types/defaults/installconfig.go`, `pkg/validate/validate.go`,
//! `pkg/asset/installconfig/clusterid.go`, `pkg/asset/manifests/{infrastructure,topologies,
//! cloudproviderconfig,proxy}.go` and the per-platform packages under `pkg/asset/manifests/`.
//! Where the installer needs live cloud data, the derivation stops with an error naming the
//! missing value and the input that supplies it.

mod cloud_provider_config;
pub mod infra_id;
mod infrastructure;
mod net;

pub use infrastructure::check_crn;
mod proxy;
mod types;

use anyhow::{Result, anyhow, bail};
use camino::Utf8Path;
use serde_json::Value;
use types::Document;

pub use types::{
    Aws, Azure, Gcp, IbmCloud, LoadBalancer, Nutanix, PowerVs, ServiceEndpoint, VSphere, Vips,
};

/// The install-config `apiVersion` this tool understands (`types.InstallConfigVersion`).
pub const VERSION: &str = "v1";

/// The platform keys the installer accepts (`types.PlatformNames`, newest validation message).
pub const PLATFORMS: &[&str] = &[
    "aws",
    "azure",
    "baremetal",
    "external",
    "gcp",
    "ibmcloud",
    "none",
    "nutanix",
    "openstack",
    "powervs",
    "vsphere",
];

/// The platform section, typed.
#[derive(Debug, Clone)]
pub enum Platform {
    Aws(Aws),
    Azure(Azure),
    BareMetal(Vips),
    Gcp(Gcp),
    IbmCloud(IbmCloud),
    None,
    Nutanix(Nutanix),
    OpenStack(Vips),
    PowerVs(PowerVs),
    VSphere(VSphere),
}

impl Platform {
    /// The install-config key.
    pub fn key(&self) -> &'static str {
        match self {
            Self::Aws(_) => "aws",
            Self::Azure(_) => "azure",
            Self::BareMetal(_) => "baremetal",
            Self::Gcp(_) => "gcp",
            Self::IbmCloud(_) => "ibmcloud",
            Self::None => "none",
            Self::Nutanix(_) => "nutanix",
            Self::OpenStack(_) => "openstack",
            Self::PowerVs(_) => "powervs",
            Self::VSphere(_) => "vsphere",
        }
    }
}

/// A checked install-config with the installer's defaults applied.
#[derive(Debug, Clone)]
pub struct InstallConfig {
    /// `metadata.name`.
    pub name: String,
    /// `baseDomain` without a trailing dot.
    pub base_domain: String,
    /// The one platform.
    pub platform: Platform,
    /// `controlPlane.replicas` (default 3).
    pub control_plane_replicas: i64,
    /// `arbiter.replicas` (default 0).
    pub arbiter_replicas: i64,
    /// Sum of `compute[].replicas` (each defaults to 3, or 0 for the `edge` and `arbiter` pools).
    pub compute_replicas: i64,
    /// `networking.machineNetwork[].cidr`, canonical; `None` where the installer picks a random
    /// default (PowerVS).
    pub machine_networks: Option<Vec<String>>,
    /// `networking.clusterNetwork[].cidr`, canonical.
    pub cluster_networks: Vec<String>,
    /// `networking.serviceNetwork[]`, canonical.
    pub service_networks: Vec<String>,
    /// `proxy`.
    pub proxy: Option<types::Proxy>,
    /// `additionalTrustBundle`.
    pub additional_trust_bundle: String,
    /// `additionalTrustBundlePolicy` (`Proxyonly` by default).
    pub additional_trust_bundle_policy: String,
    /// `publish` (`External` by default).
    pub publish: String,
    /// `cpuPartitioningMode: AllNodes`.
    pub cpu_partitioning_all_nodes: bool,
    /// Whether the `VSphereMultiNetworks` gate is on for this install-config's feature set.
    pub vsphere_multi_networks: bool,
    /// Whether image mirrors are configured (`imageDigestSources`, `imageContentSources`).
    pub has_image_mirrors: bool,
    /// The document in a canonical text form, the input of the stable infrastructure name.
    pub canonical: String,
}

impl InstallConfig {
    /// `<name>.<baseDomain>` (`types.InstallConfig.ClusterDomain`).
    pub fn cluster_domain(&self) -> String {
        format!("{}.{}", self.name, self.base_domain)
    }
}

/// What the command line adds to the install-config.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// `--infrastructure-name`.
    pub infrastructure_name: Option<String>,
    /// `--ibm-instance-crn`: the CIS (publish External) or DNS Services (publish Internal)
    /// instance CRN the installer looks up online for IBM Cloud and PowerVS.
    pub ibm_instance_crn: Option<String>,
    /// Whether `--cloud-config` was given (then the cloud provider config is not derived).
    pub cloud_config_given: bool,
}

/// What the installer would write, derived from an install-config.
#[derive(Debug, Clone, PartialEq)]
pub struct Derived {
    /// `manifests/cluster-infrastructure-02-config.yml`.
    pub infrastructure: Value,
    /// `manifests/cloud-provider-config.yaml`, when the installer writes one and it can be
    /// computed offline (and `--cloud-config` was not given).
    pub cloud_provider_config: Option<Value>,
    /// `manifests/cluster-proxy-01-config.yaml`.
    pub proxy: Value,
    /// Notes for stderr (how the infrastructure name was chosen).
    pub notes: Vec<String>,
}

impl Derived {
    /// The derived objects as one YAML stream (Infrastructure, then the cloud-provider-config
    /// ConfigMap when derived, then the Proxy): what `--emit-infrastructure` writes. Each
    /// `--infrastructure`, `--cloud-config` and `--proxy` picks its object out of it by kind.
    pub fn to_yaml_stream(&self) -> Result<String> {
        let mut out = crate::yaml::to_string(&self.infrastructure)?;
        for object in self.cloud_provider_config.iter().chain([&self.proxy]) {
            out.push_str("---\n");
            out.push_str(&crate::yaml::to_string(object)?);
        }
        Ok(out)
    }
}

/// Reads and checks an install-config file: the install-config itself, or the
/// `kube-system/cluster-config-v1` ConfigMap that carries it under `data.install-config` (what
/// installer `pkg/asset/manifests/operators.go` writes as `manifests/cluster-config.yaml`, and
/// what bootkube hands to the etcd and machine-config renders).
pub fn load(path: &Utf8Path) -> Result<InstallConfig> {
    let text = crate::inputs::read_text(path)?;
    parse_text(&text, path)
}

/// [`load`] on text already read (`path` only names it in errors).
pub fn parse_text(text: &str, path: &Utf8Path) -> Result<InstallConfig> {
    let mut docs = crate::inputs::parse_documents(text, path)?;
    if docs.len() != 1 {
        bail!(
            "{path}: holds {} YAML documents; an install-config is one",
            docs.len()
        );
    }
    let doc = docs.remove(0);
    if crate::inputs::kind_of(&doc) != "ConfigMap" {
        return parse(&doc).map_err(|err| anyhow!("{path}: {err}"));
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
    let mut docs = crate::yaml::documents(inner)
        .map_err(|err| anyhow!("{origin}: not valid YAML or JSON: {err}"))?;
    if docs.len() != 1 {
        bail!(
            "{origin}: holds {} YAML documents; an install-config is one",
            docs.len()
        );
    }
    parse(&docs.remove(0)).map_err(|err| anyhow!("{origin}: {err}"))
}

/// Reads the install-config's fields into typed records, naming the field of a wrong type.
fn typed<T: serde::de::DeserializeOwned>(value: &Value, at: &str) -> Result<T> {
    serde_path_to_error::deserialize(value).map_err(|err| {
        let field = err.path().to_string();
        let inner = err.into_inner();
        match (at.is_empty(), field == ".") {
            (true, true) => anyhow!("{inner}"),
            (true, false) => anyhow!("{field}: {inner}"),
            (false, true) => anyhow!("{at}: {inner}"),
            (false, false) => anyhow!("{at}.{field}: {inner}"),
        }
    })
}

/// Checks a parsed install-config as the installer's validation does for the fields read here
/// and applies the installer's defaults.
pub fn parse(doc: &Value) -> Result<InstallConfig> {
    if !doc.is_object() {
        bail!("not an install-config (expected a mapping at the top level)");
    }
    let d: Document = typed(doc, "")?;
    // installconfig.go ValidateInstallConfig: the version is checked before anything else.
    if d.api_version.is_empty() {
        bail!("apiVersion: install-config version required");
    }
    if d.api_version != VERSION {
        bail!(
            "apiVersion: {:?}: install-config version must be {VERSION:?}",
            d.api_version
        );
    }
    let platform = platform(&d)?;
    check_cluster_name(&d.metadata.name, &platform)?;
    let base_domain = d.base_domain.strip_suffix('.').unwrap_or(&d.base_domain);
    if base_domain.is_empty() {
        bail!("baseDomain: required");
    }
    crate::validate::dns_subdomain(base_domain).map_err(|e| anyhow!("baseDomain: {e}"))?;
    let cluster_domain = format!("{}.{base_domain}", d.metadata.name);
    crate::validate::dns_subdomain(&cluster_domain)
        .map_err(|e| anyhow!("baseDomain: {cluster_domain:?}: {e}"))?;

    let (control_plane_replicas, arbiter_replicas, compute_replicas) = replicas(&d)?;
    let networking = d.networking.clone().unwrap_or_default();
    let machine_networks = machine_networks(&networking, &platform)?;
    let cluster_networks = cidrs(
        networking.cluster_network.iter().map(|e| e.cidr.as_str()),
        "networking.clusterNetwork",
        "cidr",
        "10.128.0.0/14",
    )?;
    let service_cidr = (!networking.service_cidr.is_empty()).then_some(&networking.service_cidr);
    let service_networks = if networking.service_network.is_empty() {
        cidrs(
            service_cidr.map(String::as_str),
            "networking.serviceCIDR",
            "",
            "172.30.0.0/16",
        )?
    } else {
        cidrs(
            networking.service_network.iter().map(String::as_str),
            "networking.serviceNetwork",
            "",
            "",
        )?
    };
    let publish = if d.publish.is_empty() {
        "External".to_string()
    } else {
        d.publish.clone()
    };
    check_publish(&publish, &platform)?;
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
    let vsphere_multi_networks = vsphere_multi_networks(&d)?;
    let canonical = serde_json::to_string(doc).unwrap_or_default();
    Ok(InstallConfig {
        name: d.metadata.name.clone(),
        base_domain: base_domain.to_string(),
        platform,
        control_plane_replicas,
        arbiter_replicas,
        compute_replicas,
        machine_networks,
        cluster_networks,
        service_networks,
        proxy: d.proxy.clone(),
        additional_trust_bundle: d.additional_trust_bundle.clone(),
        additional_trust_bundle_policy: policy,
        publish,
        cpu_partitioning_all_nodes: d.cpu_partitioning_mode == "AllNodes",
        vsphere_multi_networks,
        has_image_mirrors: !d.image_digest_sources.is_empty()
            || !d.image_content_sources.is_empty(),
        canonical,
    })
}

/// Derives the installer's objects. Pure: the same install-config and options give the same
/// objects.
pub fn derive(ic: &InstallConfig, options: &Options) -> Result<Derived> {
    let mut notes = Vec::new();
    let infra_id = if let Some(name) = &options.infrastructure_name {
        infra_id::check(name).map_err(|e| anyhow!("--infrastructure-name: {e}"))?;
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
        cloud_provider_config::derive(ic, &infra_id)?
    };
    let writes_cloud_config = cloud_provider_config::installer_writes_one(&ic.platform);
    let infrastructure = sort_keys(infrastructure::derive(
        ic,
        &infra_id,
        writes_cloud_config,
        options.ibm_instance_crn.as_deref(),
    )?);
    let proxy = sort_keys(proxy::derive(ic)?);
    Ok(Derived {
        infrastructure,
        cloud_provider_config: cloud_provider_config.map(sort_keys),
        proxy,
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

fn platform(d: &Document) -> Result<Platform> {
    let keys: Vec<&String> = d.platform.keys().collect();
    for key in &keys {
        if !PLATFORMS.contains(&key.as_str()) {
            bail!(
                "platform.{key}: unknown platform (known: {})",
                PLATFORMS.join(", ")
            );
        }
    }
    let [key] = keys.as_slice() else {
        if keys.is_empty() {
            bail!(
                "platform: must specify one of the platforms ({})",
                PLATFORMS.join(", ")
            );
        }
        bail!(
            "platform: must only specify a single type of platform; cannot use both {:?} and {:?}",
            keys[0],
            keys[1]
        );
    };
    let key = key.as_str();
    let value = d.platform.get(key).cloned().unwrap_or(Value::Null);
    let value = if value.is_null() {
        Value::Object(serde_json::Map::new())
    } else {
        value
    };
    let at = format!("platform.{key}");
    let require = |field: &str, v: &str| -> Result<()> {
        if v.is_empty() {
            bail!("{at}.{field}: required");
        }
        Ok(())
    };
    Ok(match key {
        "aws" => {
            let p: Aws = typed(&value, &at)?;
            require("region", &p.region)?;
            for (i, e) in p.service_endpoints.iter().enumerate() {
                check_endpoint(e, &format!("{at}.serviceEndpoints[{i}]"))?;
            }
            Platform::Aws(p)
        }
        "azure" => Platform::Azure(azure(&value, &at)?),
        "baremetal" => {
            let mut p: Vips = typed(&value, &at)?;
            vips(&mut p, &at, true)?;
            Platform::BareMetal(p)
        }
        "gcp" => {
            let p: Gcp = typed(&value, &at)?;
            require("projectID", &p.project_id)?;
            require("region", &p.region)?;
            Platform::Gcp(p)
        }
        "ibmcloud" => {
            let p: IbmCloud = typed(&value, &at)?;
            require("region", &p.region)?;
            for (i, e) in p.service_endpoints.iter().enumerate() {
                check_endpoint(e, &format!("{at}.serviceEndpoints[{i}]"))?;
            }
            Platform::IbmCloud(p)
        }
        "none" => Platform::None,
        "nutanix" => {
            let mut p: Nutanix = typed(&value, &at)?;
            require(
                "prismCentral.endpoint.address",
                &p.prism_central.endpoint.address,
            )?;
            if p.prism_elements.is_empty() {
                bail!("{at}.prismElements: required (at least one Prism Element)");
            }
            vips(&mut p.vips, &at, false)?;
            Platform::Nutanix(p)
        }
        "openstack" => {
            let mut p: Vips = typed(&value, &at)?;
            vips(&mut p, &at, false)?;
            Platform::OpenStack(p)
        }
        "powervs" => {
            let p: PowerVs = typed(&value, &at)?;
            require("region", &p.region)?;
            require("zone", &p.zone)?;
            require("powervsResourceGroup", &p.powervs_resource_group)?;
            for (i, e) in p.service_endpoints.iter().enumerate() {
                check_endpoint(e, &format!("{at}.serviceEndpoints[{i}]"))?;
            }
            Platform::PowerVs(p)
        }
        "vsphere" => Platform::VSphere(vsphere(&value, &at)?),
        // "external" is a known installer platform without a derivation here.
        other => bail!(
            "platform.{other}: ccm-render cannot derive the Infrastructure for this platform from an install-config; give the installer's Infrastructure with --infrastructure"
        ),
    })
}

/// The Azure cloud names the installer accepts (`pkg/types/azure`).
const AZURE_CLOUDS: &[&str] = &[
    "AzurePublicCloud",
    "AzureUSGovernmentCloud",
    "AzureChinaCloud",
    "AzureGermanCloud",
    "AzureStackCloud",
];

fn azure(value: &Value, at: &str) -> Result<Azure> {
    let mut p: Azure = typed(value, at)?;
    if p.region.is_empty() {
        bail!("{at}.region: required");
    }
    // pkg/types/azure/defaults: an empty cloud name is the public cloud.
    if p.cloud_name.is_empty() {
        p.cloud_name = "AzurePublicCloud".into();
    }
    if !AZURE_CLOUDS.contains(&p.cloud_name.as_str()) {
        bail!(
            "{at}.cloudName: {:?}: supported values: {}",
            p.cloud_name,
            AZURE_CLOUDS.join(", ")
        );
    }
    if p.cloud_name == "AzureStackCloud" {
        if p.arm_endpoint.is_empty() {
            bail!("{at}.armEndpoint: required");
        }
        https_url(&p.arm_endpoint).map_err(|e| anyhow!("{at}.armEndpoint: {e}"))?;
    }
    Ok(p)
}

fn vsphere(value: &Value, at: &str) -> Result<VSphere> {
    let mut p: VSphere = typed(value, at)?;
    if p.vcenters.is_empty() && !p.legacy_vcenter.is_empty() {
        bail!(
            "{at}.vCenter: the legacy single-vCenter form is not supported by ccm-render; describe the vCenter under {at}.vcenters and {at}.failureDomains (the installer converts it the same way)"
        );
    }
    if p.vcenters.is_empty() {
        bail!("{at}.vcenters: required (at least one vCenter)");
    }
    if p.failure_domains.is_empty() {
        bail!("{at}.failureDomains: required (at least one failure domain)");
    }
    for (i, vc) in p.vcenters.iter_mut().enumerate() {
        if vc.server.is_empty() {
            bail!("{at}.vcenters[{i}].server: required");
        }
        // pkg/types/vsphere/defaults: the vCenter port defaults to 443.
        if vc.port == 0 {
            vc.port = 443;
        }
    }
    for (i, fd) in p.failure_domains.iter().enumerate() {
        if fd.zone_type == "HostGroup" {
            bail!(
                "{at}.failureDomains[{i}].zoneType: HostGroup failure domains are not supported by ccm-render"
            );
        }
        if fd.topology.datacenter.is_empty() {
            bail!("{at}.failureDomains[{i}].topology.datacenter: required");
        }
    }
    vips(&mut p.vips, at, false)?;
    Ok(p)
}

fn check_endpoint(e: &ServiceEndpoint, at: &str) -> Result<()> {
    if e.name.is_empty() {
        bail!("{at}.name: required");
    }
    https_url(&e.url).map_err(|err| anyhow!("{at}.url: {err}"))
}

fn https_url(url: &str) -> Result<()> {
    crate::validate::proxy_url(url).map_err(|_| anyhow!("{url:?} is not an https:// URL"))?;
    if !url.starts_with("https://") {
        bail!("{url:?} is not an https:// URL");
    }
    Ok(())
}

/// The VIP lists: deprecated single values converted, each an IP address, and the lists given
/// together (`pkg/types/validation/installconfig.go` validateVIPsForPlatform).
fn vips(p: &mut Vips, at: &str, required: bool) -> Result<()> {
    if p.api_vips.is_empty() && !p.api_vip.is_empty() {
        p.api_vips = vec![p.api_vip.clone()];
    }
    if p.ingress_vips.is_empty() && !p.ingress_vip.is_empty() {
        p.ingress_vips = vec![p.ingress_vip.clone()];
    }
    for (field, list) in [("apiVIPs", &p.api_vips), ("ingressVIPs", &p.ingress_vips)] {
        for (i, vip) in list.iter().enumerate() {
            net::parse_ip(vip).map_err(|e| anyhow!("{at}.{field}[{i}]: {e}"))?;
        }
    }
    if required && p.api_vips.is_empty() {
        bail!("{at}.apiVIPs: required");
    }
    if p.api_vips.is_empty() != p.ingress_vips.is_empty() {
        let missing = if p.api_vips.is_empty() {
            "apiVIPs"
        } else {
            "ingressVIPs"
        };
        bail!("{at}.{missing}: required when the other VIP list is set");
    }
    if let Some(lb) = &p.load_balancer
        && !matches!(lb.kind.as_str(), "OpenShiftManagedDefault" | "UserManaged")
    {
        bail!(
            "{at}.loadBalancer.type: {:?}: supported values: \"OpenShiftManagedDefault\", \"UserManaged\"",
            lb.kind
        );
    }
    Ok(())
}

/// `pkg/validate/validate.go`: `ClusterName` (a DNS-1123 subdomain of at most 54 characters, to
/// leave room for `*.apps` written as `\052.apps`), `ClusterName1035` on GCP and Azure (starts
/// with a lower-case letter), `GCPClusterName` (no "goog" prefix, no "google" look-alike), and
/// on the on-premise platforms no `.` (their DNS and VIP names are built from it).
fn check_cluster_name(name: &str, platform: &Platform) -> Result<()> {
    let bad = |why: String| anyhow!("metadata.name: {name:?}: {why}");
    if name.is_empty() {
        return Err(anyhow!("metadata.name: required"));
    }
    if name.len() > 54 {
        return Err(bad(format!(
            "must be no more than 54 characters (is {})",
            name.len()
        )));
    }
    crate::validate::dns_subdomain(name).map_err(|e| bad(e.to_string()))?;
    match platform {
        Platform::Gcp(_) | Platform::Azure(_)
            if !name.starts_with(|c: char| c.is_ascii_lowercase()) =>
        {
            return Err(bad(
                "cluster name must begin with a lower-case letter".into()
            ));
        }
        _ => {}
    }
    if matches!(platform, Platform::Gcp(_)) {
        let lower = name.to_ascii_lowercase();
        let google_like = lower.as_bytes().windows(6).any(|w| {
            w[0] == b'g'
                && matches!(w[1], b'o' | b'0')
                && matches!(w[2], b'o' | b'0')
                && w[3] == b'g'
                && w[4] == b'l'
                && w[5] == b'e'
        });
        if lower.starts_with("goog") || google_like {
            return Err(bad(
                "cluster name must not start with \"goog\" or contain variations of \"google\""
                    .into(),
            ));
        }
    }
    if matches!(
        platform,
        Platform::VSphere(_)
            | Platform::BareMetal(_)
            | Platform::OpenStack(_)
            | Platform::Nutanix(_)
    ) && name.contains('.')
    {
        return Err(bad("cluster name must not contain '.'".into()));
    }
    Ok(())
}

/// Control plane, arbiter and compute replicas, with the installer's defaults
/// (`pkg/types/defaults`: 3 for the control plane and for compute pools, 0 for the `edge` and
/// `arbiter` pools, and on bare metal the hosts that are not masters).
fn replicas(d: &Document) -> Result<(i64, i64, i64)> {
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
            replicas: None,
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
            None if d.platform.contains_key("baremetal") && pool.name == "worker" => bail!(
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
    Ok((control_plane, arbiter, compute))
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
        let cidr = net::parse_cidr(text).map_err(|e| anyhow!("{place}: {e}"))?;
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

fn check_publish(publish: &str, platform: &Platform) -> Result<()> {
    match publish {
        "External" => Ok(()),
        "Internal" => match platform {
            Platform::Aws(_)
            | Platform::Azure(_)
            | Platform::Gcp(_)
            | Platform::IbmCloud(_)
            | Platform::PowerVs(_) => Ok(()),
            other => bail!(
                "publish: Internal publish strategy is not supported on {:?} platform",
                other.key()
            ),
        },
        "Mixed" => match platform {
            Platform::Azure(_) => Ok(()),
            other => bail!(
                "publish: mixed publish strategy is not supported on {:?} platform",
                other.key()
            ),
        },
        other => {
            bail!("publish: {other:?}: supported values: \"External\", \"Internal\", \"Mixed\"")
        }
    }
}

/// `VSphereMultiNetworks` is in the Default, OKD, TechPreview and DevPreview feature sets
/// (`openshift/api:features/features.go`); only `CustomNoUpgrade` can turn it off.
fn vsphere_multi_networks(d: &Document) -> Result<bool> {
    match d.feature_set.as_str() {
        "" | "Default" | "OKD" | "TechPreviewNoUpgrade" | "DevPreviewNoUpgrade" => {
            if !d.feature_gates.is_empty() {
                bail!(
                    "featureGates: custom features can only be used with the CustomNoUpgrade feature set"
                );
            }
            Ok(true)
        }
        "CustomNoUpgrade" => Ok(!d
            .feature_gates
            .iter()
            .any(|g| g.replace(' ', "") == "VSphereMultiNetworks=false")),
        other => bail!("featureSet: {other:?} is not a known feature set"),
    }
}

#[cfg(test)]
mod tests;
