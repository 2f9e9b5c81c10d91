//! The cloud configs of the hosted CCMs, as HyperShift's `config.go` of each platform builds
//! them from the HostedControlPlane (the templates are the catalogue's `config.yaml`).

use super::go_text::{html_template, sprintf};
use crate::config::hosted::HostedConfig;
use crate::inputs::hosted_control_plane::Azure;
use anyhow::{Context as _, Result, anyhow, bail};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::fmt::Write as _;

const AWS_PROBE_MODE: &str = "hypershift.openshift.io/aws-load-balancer-health-probe-mode";
const AZURE_PROBE_MODE: &str = "hypershift.openshift.io/azure-load-balancer-health-probe-mode";
const PROBE_PATH: &str = "hypershift.openshift.io/shared-load-balancer-health-probe-path";
const PROBE_PORT: &str = "hypershift.openshift.io/shared-load-balancer-health-probe-port";

/// The shared load balancer's health probe, from the HostedControlPlane's annotations.
struct Probe {
    mode: String,
    path: Option<String>,
    port: Option<String>,
}

/// Reads the probe annotations: `mode_annotation` takes one of `modes` (the first is the
/// default and the shared mode); path and port apply to the shared mode only.
fn probe(cfg: &HostedConfig, mode_annotation: &str, modes: [&str; 2]) -> Result<Probe> {
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

/// `aws.conf` (HyperShift `aws/config.go`).
pub(crate) fn aws(cfg: &HostedConfig, template: &str) -> Result<String> {
    let Some(aws) = &cfg.hcp.spec.platform.aws else {
        bail!(
            "{}: spec.platform.aws is missing for type AWS",
            cfg.hcp_path
        );
    };
    let config = aws.cloud_provider_config.as_ref();
    let zone = config.map_or("", |c| c.zone.as_str());
    let vpc = config.map_or("", |c| c.vpc.as_str());
    let subnet = config
        .and_then(|c| c.subnet.as_ref())
        .and_then(|s| s.id.as_deref())
        .unwrap_or_default();
    let probe = probe(cfg, AWS_PROBE_MODE, ["Shared", "ServiceNodePort"])?;
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

/// `cloud.conf` of GCP (HyperShift `gcp/config.go`).
pub(crate) fn gcp(cfg: &HostedConfig, template: &str) -> Result<String> {
    let Some(gcp) = &cfg.hcp.spec.platform.gcp else {
        bail!(
            "{}: spec.platform.gcp is missing for type GCP",
            cfg.hcp_path
        );
    };
    let tags = format!("{}-worker", cfg.hcp.spec.infra_id).to_lowercase();
    sprintf(
        template,
        &[&gcp.project, &gcp.network_config.network.name, &tags],
        "assets/hosted/gcp/config.yaml: data.\"cloud.conf\"",
    )
}

/// `ccm-config` of Power VS (HyperShift `powervs/config.go`).
pub(crate) fn powervs(cfg: &HostedConfig, template: &str) -> Result<String> {
    let Some(p) = &cfg.hcp.spec.platform.powervs else {
        bail!(
            "{}: spec.platform.powervs is missing for type PowerVS",
            cfg.hcp_path
        );
    };
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

/// `cloud-config` of KubeVirt (HyperShift `kubevirt/config.go`): the template's settings with
/// the namespace, kubeconfig and infra-id label of this control plane, written as yaml.v2 does.
pub(crate) fn kubevirt(cfg: &HostedConfig, template: &str) -> Result<String> {
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
    if let Some(creds) = cfg
        .hcp
        .spec
        .platform
        .kubevirt
        .as_ref()
        .and_then(|k| k.credentials.as_ref())
    {
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

/// The CA bundle of the OpenStack credentials Secret (`cacert`), when it has one.
pub(crate) fn openstack_ca(cfg: &HostedConfig) -> Result<Option<String>> {
    let secret = openstack_secret(cfg)?;
    secret
        .data
        .get("cacert")
        .map(|v| v.text("cacert").map(str::to_string))
        .transpose()
}

/// The OpenStack credentials Secret (`spec.platform.openstack.identityRef.name`).
pub(crate) fn openstack_secret(cfg: &HostedConfig) -> Result<&crate::inputs::credentials::Secret> {
    let Some(openstack) = &cfg.hcp.spec.platform.openstack else {
        bail!(
            "{}: spec.platform.openstack is missing for type OpenStack",
            cfg.hcp_path
        );
    };
    cfg.secret(
        &openstack.identity_ref.name,
        "spec.platform.openstack.identityRef.name",
    )
}

/// `cloud.conf` of OpenStack (HyperShift `openstack/config.go` `getCloudConfig`).
pub(crate) fn openstack(cfg: &HostedConfig) -> Result<String> {
    let secret = openstack_secret(cfg)?;
    let openstack = cfg
        .hcp
        .spec
        .platform
        .openstack
        .as_ref()
        .ok_or_else(|| anyhow!("checked"))?;
    let mut c = match secret.data.get("cloud.conf") {
        Some(v) => v.text("cloud.conf")?.to_string(),
        None => String::new(),
    };
    c.push_str("[Global]\nuse-clouds = true\nclouds-file = /etc/openstack/secret/clouds.yaml\n");
    let _ = writeln!(c, "cloud = {}", openstack.identity_ref.cloud_name);
    if secret.data.contains_key("cacert") {
        c.push_str("ca-file = /etc/pki/ca-trust/extracted/pem/ca-bundle.pem\n");
    }
    c.push_str("\n[LoadBalancer]\nmax-shared-lb = 1\nmanage-security-groups = true\n");
    if let Some(id) = openstack
        .external_network
        .as_ref()
        .and_then(|n| n.id.as_deref())
        .filter(|id| !id.is_empty())
    {
        let _ = writeln!(c, "floating-network-id = {id}");
    }
    let cidrs: Vec<String> = cfg
        .hcp
        .spec
        .networking
        .machine_network
        .iter()
        .filter_map(|m| crate::inputs::hosted_control_plane::canonical_cidr(&m.cidr))
        .collect();
    let _ = write!(
        c,
        "\n[Networking]\naddress-sort-order = {}\n",
        cidrs.join(",")
    );
    Ok(c)
}

/// The Azure platform block.
pub(crate) fn azure_platform(cfg: &HostedConfig) -> Result<&Azure> {
    cfg.hcp.spec.platform.azure.as_ref().ok_or_else(|| {
        anyhow!(
            "{}: spec.platform.azure is missing for type Azure",
            cfg.hcp_path
        )
    })
}

/// `cloud.conf` of Azure (HyperShift `azure/config.go` `azureConfig`), for the ConfigMap or,
/// `with_credentials`, the Secret.
pub(crate) fn azure(cfg: &HostedConfig, with_credentials: bool) -> Result<String> {
    let azure = azure_platform(cfg)?;
    let field = |f: &str| format!("{}: spec.platform.azure.{f}", cfg.hcp_path);
    let subnet =
        arm_id(&azure.subnet_id, "virtualNetworks/subnets").with_context(|| field("subnetID"))?;
    let nsg = arm_id(&azure.security_group_id, "networkSecurityGroups")
        .with_context(|| field("securityGroupID"))?;
    let vnet = arm_id(&azure.vnet_id, "virtualNetworks").with_context(|| field("vnetID"))?;
    let probe = probe(cfg, AZURE_PROBE_MODE, ["shared", "servicenodeport"])?;
    let managed = cfg.managed_azure();
    let auth = azure_auth(cfg, azure, with_credentials)?;
    let s = |v: &str| json!(v);
    let mut fields = vec![
        ("cloud", s(&azure.cloud)),
        ("tenantId", s(&azure.tenant_id)),
        ("useManagedIdentityExtension", json!(auth.managed_identity)),
        ("useFederatedWorkloadIdentityExtension", json!(!managed)),
        ("subscriptionId", s(&azure.subscription_id)),
        ("aadClientId", s(&auth.client_id)),
        ("aadClientSecret", s("")),
        ("aadClientCertPath", s("")),
        ("aadFederatedTokenFile", s(&auth.token_file)),
        ("aadMSIDataPlaneIdentityPath", s(&auth.msi_path)),
        ("resourceGroup", s(&azure.resource_group)),
        ("location", s(&azure.location)),
        ("vnetName", s(&vnet.name)),
        ("vnetResourceGroup", s(&vnet.resource_group)),
        ("subnetName", s(&subnet.name)),
        ("securityGroupName", s(&nsg.name)),
        ("securityGroupResourceGroup", s(&nsg.resource_group)),
        ("routeTableName", s("")),
        ("cloudProviderBackoff", json!(true)),
        ("cloudProviderBackoffDuration", json!(6)),
        ("useInstanceMetadata", json!(auth.instance_metadata)),
        ("loadBalancerSku", s("standard")),
        ("disableOutboundSNAT", json!(true)),
        ("loadBalancerName", s(&cfg.hcp.spec.infra_id)),
        ("clusterServiceLoadBalancerHealthProbeMode", s(&probe.mode)),
    ];
    if let Some(path) = probe.path.filter(|p| !p.is_empty()) {
        fields.push((
            "clusterServiceSharedLoadBalancerHealthProbePath",
            json!(path),
        ));
    }
    if let Some(port) = probe.port.and_then(|p| p.parse::<i64>().ok()) {
        fields.push((
            "clusterServiceSharedLoadBalancerHealthProbePort",
            json!(port),
        ));
    }
    if !with_credentials {
        let resource_id = azure
            .container_registry
            .as_ref()
            .and_then(|r| r.pointer("/credentials/managedIdentity/resourceID"))
            .and_then(serde_json::Value::as_str)
            .filter(|id| !id.is_empty());
        if let Some(id) = resource_id {
            fields.push(("userAssignedIdentityID", s(id)));
        }
    }
    // Go's MarshalIndent of the config struct: its fields in order (a Map keeps insertion order).
    let fields: serde_json::Map<String, Value> = fields
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
    ccm_catalogue::go_encode::marshal_indent(&Value::Object(fields), "  ")
}

/// How the Azure CCM authenticates: a managed control plane with its managed identity (the
/// Secret: its certificate only), a self-managed one with workload identity.
struct AzureAuth {
    client_id: String,
    token_file: String,
    msi_path: String,
    managed_identity: bool,
    instance_metadata: bool,
}

fn azure_auth(cfg: &HostedConfig, azure: &Azure, with_credentials: bool) -> Result<AzureAuth> {
    let field = |f: &str| format!("{}: spec.platform.azure.{f}", cfg.hcp_path);
    let managed = cfg.managed_azure();
    let auth = &azure.azure_authentication_config;
    let (client_id, token_file) = if managed {
        (String::new(), String::new())
    } else {
        let Some(wi) = &auth.workload_identities else {
            bail!(
                "{}: is missing for a self-managed Azure control plane",
                field("azureAuthenticationConfig.workloadIdentities")
            );
        };
        (
            wi.cloud_provider.client_id.clone(),
            "/var/run/secrets/openshift/serviceaccount/token".to_string(),
        )
    };
    let msi_path = if with_credentials && managed {
        let Some(mi) = &auth.managed_identities else {
            bail!(
                "{}: is missing for a managed Azure control plane (MANAGED_SERVICE=ARO-HCP)",
                field("azureAuthenticationConfig.managedIdentities")
            );
        };
        format!(
            "/mnt/certs/{}",
            mi.control_plane.cloud_provider.credentials_secret_name
        )
    } else {
        String::new()
    };
    // The Secret of a managed control plane authenticates with its certificate only.
    let (managed_identity, instance_metadata) = if with_credentials && managed {
        (false, false)
    } else {
        (managed, true)
    };
    Ok(AzureAuth {
        client_id,
        token_file,
        msi_path,
        managed_identity,
        instance_metadata,
    })
}

/// What HyperShift reads from an ARM resource ID (Azure SDK `arm.ParseResourceID`).
struct ArmId {
    name: String,
    resource_group: String,
}

/// Parses `/subscriptions/S/resourceGroups/RG/providers/NAMESPACE/TYPE/NAME[/TYPE/NAME...]`
/// and checks its resource type (case-insensitive, as HyperShift compares it).
fn arm_id(id: &str, want_type: &str) -> Result<ArmId> {
    let parts: Vec<&str> = id.trim_start_matches('/').split('/').collect();
    let bad = || anyhow!("{id:?} is not an Azure resource ID of type {want_type}");
    if id.is_empty() || parts.len() < 8 || !parts[0].eq_ignore_ascii_case("subscriptions") {
        return Err(bad());
    }
    if !parts[2].eq_ignore_ascii_case("resourceGroups")
        || !parts[4].eq_ignore_ascii_case("providers")
    {
        return Err(bad());
    }
    let rest = &parts[6..];
    if !rest.len().is_multiple_of(2) || parts.iter().any(|p| p.is_empty()) {
        return Err(bad());
    }
    let types: Vec<&str> = rest.iter().step_by(2).copied().collect();
    if !types.join("/").eq_ignore_ascii_case(want_type) {
        return Err(anyhow!(
            "{id:?}: invalid resource type {:?}, expected {want_type:?}",
            types.join("/")
        ));
    }
    Ok(ArmId {
        name: rest[rest.len() - 1].to_string(),
        resource_group: parts[3].to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arm_ids_give_their_name_and_resource_group_and_a_wrong_type_is_refused() {
        let id = arm_id("/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v/subnets/sn", "virtualNetworks/subnets")
            .expect("parses");
        assert_eq!((id.name.as_str(), id.resource_group.as_str()), ("sn", "rg"));
        let err = arm_id(
            "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v",
            "networkSecurityGroups",
        )
        .err()
        .expect("wrong type")
        .to_string();
        assert!(
            err.contains("invalid resource type \"virtualNetworks\""),
            "{err}"
        );
        assert!(arm_id("", "virtualNetworks").is_err());
    }

    #[test]
    fn yaml_v2_quotes_what_would_read_back_otherwise() {
        assert_eq!(yaml_v2_scalar(""), "\"\"");
        assert_eq!(yaml_v2_scalar("true"), "\"true\"");
        assert_eq!(yaml_v2_scalar("hcp-namespace"), "hcp-namespace");
        assert_eq!(yaml_v2_scalar("123"), "\"123\"");
    }
}
