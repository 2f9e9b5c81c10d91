//! The vSphere transform (CCCMO `pkg/cloud/vsphere/vsphere_config_transformer.go`): reads the legacy INI config (what the installer writes) or
//! the YAML one, fills in vCenters, failure-domain labels, node networks and IP families from the
//! Infrastructure and Network objects, and writes the YAML that the out-of-tree vSphere cloud
//! provider reads, with keys sorted as `sigs.k8s.io/yaml` sorts them.
//!
//! The config model is openshift/library-go `pkg/cloudprovider/vsphere` (`yaml.go`, `ini.go`);
//! the rules are CCCMO `pkg/cloud/vsphere/vsphere_config_transformer.go`.

use std::net::IpAddr;

use anyhow::{Context as _, Result, bail};
use ccm_catalogue::platform::Platform;
use ccm_catalogue::providers::Transform;
use serde_json::{Map, Value, json};

use super::context::{Context, Transformed, read_object, require_platform};
use super::gcfg;
use super::infrastructure::{
    FailureDomain, Infrastructure, Network, NodeNetworking, VCenterSpec, VSphereStatus,
};
use super::ini::{self, Section};
use super::ini_keys;
mod fields;

use super::schema::Record;
use ccm_catalogue::releases::behaviour::KeyOrder;
use fields::{CONFIG, IniKey, IniKind, LABELS_INI, NODES_INI, SERVER_INI, VCENTER_KEPT};

/// CCCMO: the vSphere tag categories `OpenShift`'s installer creates for failure domains.
const ZONE_LABEL: &str = "openshift-zone";
const REGION_LABEL: &str = "openshift-region";
/// CCCMO: OVN-Kubernetes' internal address, never a node address.
const OVN_INTERNAL: &str = "fd69::2/128";

/// The config being transformed: each part as the JSON object its YAML form is.
#[derive(Debug, Default)]
struct Config {
    global: Map<String, Value>,
    vcenters: Map<String, Value>,
    labels: Map<String, Value>,
    nodes: Map<String, Value>,
}

/// The vSphere transform.
pub(crate) fn transform(source: &str, ctx: &Context<'_>) -> Result<Transformed> {
    require_platform(ctx, Platform::VSphere, Transform::VSphere)?;
    let mut warnings = Vec::new();
    let mut config = read(source, &mut warnings)?;

    let infra: Infrastructure = read_object(ctx.infrastructure, "Infrastructure")?;
    // CCCMO only fills in the cluster's settings when the Infrastructure has a vSphere spec.
    if let Some(spec) = infra
        .spec
        .and_then(|s| s.platform_spec)
        .and_then(|p| p.vsphere)
    {
        let status = infra
            .status
            .and_then(|s| s.platform_status)
            .and_then(|p| p.vsphere)
            .unwrap_or_default();
        let network: Network = match ctx.network {
            Some(network) => read_object(network, "Network")?,
            None => Network::default(),
        };
        let services = network
            .spec
            .and_then(|s| s.service_network)
            .unwrap_or_default();
        let excluded = set_ip_families(&mut config, &services, &status)?;
        set_nodes(
            &mut config,
            spec.node_networking.unwrap_or_default(),
            &excluded,
        );
        let domains = spec.failure_domains.unwrap_or_default();
        set_vcenters(
            &mut config,
            spec.vcenters.unwrap_or_default(),
            &domains,
            ctx.behaviour.vsphere_drop_unlisted_vcenters,
            &mut warnings,
        );
        // CCCMO: labels only when zonal, so that single (or non-zonal) installs keep working.
        if domains.len() > 1 {
            for (key, label) in [("zone", ZONE_LABEL), ("region", REGION_LABEL)] {
                let old = config.labels.insert(key.to_owned(), Value::from(label));
                if let Some(old) = old.as_ref().and_then(Value::as_str)
                    && !old.is_empty()
                    && old != label
                {
                    warnings.push(format!(
                        "labels.{key} {old:?} replaced by {label:?}: the Infrastructure has failure domains"
                    ));
                }
            }
        }
    }
    Ok(Transformed {
        text: write(config, ctx.behaviour.vsphere_key_order)?,
        warnings,
    })
}

/// Reads the INI or YAML source. INI is chosen when the first line that is not blank or a
/// comment opens a section; CCCMO tries YAML and falls back to INI, which reports INI errors
/// for broken YAML.
fn read(source: &str, warnings: &mut Vec<String>) -> Result<Config> {
    if source.trim().is_empty() {
        bail!("the vSphere cloud config is empty");
    }
    let first = source
        .lines()
        .map(str::trim)
        .find(|line| !line.is_empty() && !line.starts_with('#') && !line.starts_with(';'));
    let object = if first.is_some_and(|line| line.starts_with('[')) {
        from_ini(source, warnings)?
    } else {
        from_yaml(source)?
    };
    let mut object = Record::read(&object, CONFIG, "", warnings)?.to_object();
    let mut part = |name: &str| match object.remove(name) {
        Some(Value::Object(map)) => map,
        _ => Map::new(),
    };
    Ok(Config {
        global: part("global"),
        vcenters: part("vcenter"),
        labels: part("labels"),
        nodes: part("nodes"),
    })
}

fn from_yaml(source: &str) -> Result<Map<String, Value>> {
    let mut docs = ccm_catalogue::yaml::documents(source)
        .context("reading the vSphere cloud config as YAML")?;
    if docs.len() > 1 {
        bail!(
            "the vSphere cloud config holds {} YAML documents; expected one",
            docs.len()
        );
    }
    match docs.pop() {
        None => Ok(Map::new()),
        Some(Value::Object(object)) => Ok(object),
        Some(_) => bail!("the vSphere cloud config is neither a YAML mapping nor INI sections"),
    }
}

/// Converts the legacy INI config to the YAML model, as library-go `ini.go` `createConfig`
/// does, but keeping `[Global]` `api-disable`, `api-binding` and `ip-family` (docs/differences-from-cccmo.md).
fn from_ini(source: &str, warnings: &mut Vec<String>) -> Result<Map<String, Value>> {
    let (ini, comments) = ini::parse(source)?;
    warnings.extend(comments);
    let mut global = Map::new();
    let mut vcenters = Map::new();
    let mut labels = Map::new();
    let mut nodes = Map::new();
    for section in &ini.sections {
        let name = section.name.to_ascii_lowercase();
        match (name.as_str(), section.sub.as_deref()) {
            ("global", None) => global.extend(ini_values(section, SERVER_INI, true, warnings)?),
            ("virtualcenter", sub) => {
                let mut vcenter = ini_values(section, SERVER_INI, false, warnings)?;
                let key = sub.unwrap_or_default();
                // library-go: a vCenter's server defaults to its section name.
                if vcenter
                    .get("server")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .is_empty()
                {
                    vcenter.insert("server".to_owned(), Value::from(key));
                }
                vcenters.insert(key.to_owned(), Value::Object(vcenter));
            }
            ("labels", None) => labels.extend(ini_values(section, LABELS_INI, false, warnings)?),
            ("nodes", None) => nodes.extend(ini_values(section, NODES_INI, false, warnings)?),
            // The in-tree provider's storage defaults, superseded by failure domains; every
            // installer-written config has one, so dropping it is not worth a warning.
            ("workspace", None) => {}
            _ => warnings.push(format!("dropped unknown section {}", section.header())),
        }
    }
    let mut object = Map::new();
    object.insert("global".to_owned(), Value::Object(global));
    object.insert("vcenter".to_owned(), Value::Object(vcenters));
    object.insert("labels".to_owned(), Value::Object(labels));
    object.insert("nodes".to_owned(), Value::Object(nodes));
    Ok(object)
}

/// One section's variables as YAML fields.
fn ini_values(
    section: &Section,
    table: &[IniKey],
    global: bool,
    warnings: &mut Vec<String>,
) -> Result<Map<String, Value>> {
    let mut out = Map::new();
    for entry in &section.entries {
        let applies = |k: &IniKey| (global || !k.global_only).then_some(k.ini);
        let Some(at) = ini_keys::find(section, &entry.key, table, applies, warnings) else {
            continue;
        };
        let IniKey {
            ini, yaml, kind, ..
        } = table[at];
        let value = match (kind, entry.value.as_deref()) {
            (IniKind::Bool, None) => Value::Bool(true),
            (_, None) => return Err(ini_keys::no_value(section, ini)),
            (IniKind::Str, Some(v)) => Value::from(v),
            (IniKind::Bool, Some(v)) => Value::Bool(ini_keys::read(
                section,
                ini,
                v,
                gcfg::parse_bool,
                ini_keys::BOOL,
            )?),
            (IniKind::Uint, Some(v)) => Value::from(ini_keys::read(
                section,
                ini,
                v,
                gcfg::parse_uint,
                ini_keys::WHOLE_NUMBER,
            )?),
            (IniKind::Port, Some(v)) => {
                Value::from(ini_keys::read(section, ini, v, atoi_port, ini_keys::PORT)?)
            }
            (IniKind::List, Some(v)) => Value::from(
                v.split(',')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .collect::<Vec<_>>(),
            ),
            (IniKind::One, Some("")) => continue,
            (IniKind::One, Some(v)) => json!([v]),
        };
        out.insert(yaml.to_owned(), value);
    }
    Ok(out)
}

/// library-go `parseUIntOrZero`: "" is 0, otherwise a non-negative decimal.
fn atoi_port(value: &str) -> Option<u64> {
    if value.is_empty() {
        return Some(0);
    }
    value.strip_prefix('+').unwrap_or(value).parse().ok()
}

/// The IP family of a CIDR or address.
fn is_ipv6(text: &str, what: &str) -> Result<bool> {
    let (address, prefix) = match text.split_once('/') {
        Some((address, prefix)) => (address, Some(prefix)),
        None => (text, None),
    };
    let parsed: Option<IpAddr> = address.parse().ok();
    let max = match parsed {
        Some(IpAddr::V4(_)) => 32,
        Some(IpAddr::V6(_)) => 128,
        None => bail!("{what} {text:?} is not an IP address or CIDR"),
    };
    if prefix.is_some_and(|p| p.parse::<u8>().map_or(true, |p| p > max)) {
        bail!("{what} {text:?} has an invalid prefix length");
    }
    Ok(max == 128)
}

/// CCCMO setIPFamilies and setExcludeNetworkSubnetCIDR (OCPBUGS-18641): the service networks
/// decide the IP families; on IPv6 and dual-stack clusters the API and ingress VIPs and OVN's
/// internal address must never become node addresses. Returns the CIDRs to exclude.
fn set_ip_families(
    config: &mut Config,
    services: &[String],
    status: &VSphereStatus,
) -> Result<Vec<String>> {
    let mut families = Vec::new();
    for (index, cidr) in services.iter().enumerate() {
        families.push(is_ipv6(
            cidr,
            &format!("network spec.serviceNetwork[{index}]"),
        )?);
    }
    let priority = match families.as_slice() {
        [true] => Some(json!(["ipv6"])),
        [false, _] => Some(json!(["ipv4", "ipv6"])),
        [true, _] => Some(json!(["ipv6", "ipv4"])),
        _ => None,
    };
    if let Some(priority) = priority {
        config.global.insert("ipFamily".to_owned(), priority);
    }
    if !families.contains(&true) {
        // CCCMO leaves IPv4-only clusters as they were, to avoid regressions there.
        return Ok(Vec::new());
    }
    let mut excluded = Vec::new();
    for (list, name) in [
        (&status.api_server_internal_ips, "apiServerInternalIPs"),
        (&status.ingress_ips, "ingressIPs"),
    ] {
        for (index, ip) in list.iter().flatten().enumerate() {
            let what = format!("status.platformStatus.vsphere.{name}[{index}]");
            if ip.contains('/') {
                bail!("{what} {ip:?} is not an IP address");
            }
            let bits = if is_ipv6(ip, &what)? { 128 } else { 32 };
            excluded.push(format!("{ip}/{bits}"));
        }
    }
    excluded.push(OVN_INTERNAL.to_owned());
    Ok(excluded)
}

/// CCCMO setNodes: the node networks from the Infrastructure. Where the Infrastructure leaves
/// a setting empty the source's is kept (CCCMO blanks it); excluded CIDRs are appended once.
fn set_nodes(config: &mut Config, networking: NodeNetworking, excluded: &[String]) {
    for (side, network) in [
        ("External", networking.external),
        ("Internal", networking.internal),
    ] {
        let network = network.unwrap_or_default();
        let lower = side.to_ascii_lowercase();
        let nodes = &mut config.nodes;
        if let Some(name) = network.network.filter(|n| !n.is_empty()) {
            nodes.insert(format!("{lower}VmNetworkName"), Value::from(name));
        }
        let subnets = network.network_subnet_cidr.unwrap_or_default();
        if !subnets.is_empty() {
            nodes.insert(
                format!("{lower}NetworkSubnetCidr"),
                Value::from(subnets.join(",")),
            );
        }
        let key = format!("exclude{side}NetworkSubnetCidr");
        let mut exclude = network.exclude_network_subnet_cidr.unwrap_or_default();
        if exclude.is_empty() {
            exclude = nodes
                .get(&key)
                .and_then(Value::as_str)
                .unwrap_or("")
                .split(',')
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect();
        }
        for cidr in excluded {
            if !exclude.contains(cidr) {
                exclude.push(cidr.clone());
            }
        }
        if !exclude.is_empty() {
            nodes.insert(key, Value::from(exclude.join(",")));
        }
    }
}

/// CCCMO setVirtualCenters: the Infrastructure's vCenters replace the source's, and each
/// failure domain's datacenter is added to its vCenter.
fn set_vcenters(
    config: &mut Config,
    vcenters: Vec<VCenterSpec>,
    domains: &[FailureDomain],
    drop_unlisted: bool,
    warnings: &mut Vec<String>,
) {
    if !vcenters.is_empty() {
        let mut old = std::mem::take(&mut config.vcenters);
        for vcenter in vcenters {
            let server = vcenter.server.unwrap_or_default();
            let previous = old.shift_remove(&server).or_else(|| {
                let key = old
                    .iter()
                    .find(|(_, v)| v.get("server").and_then(Value::as_str) == Some(&server))
                    .map(|(k, _)| k.clone())?;
                old.shift_remove(&key)
            });
            let mut entry: Map<String, Value> = match previous {
                Some(Value::Object(map)) => map
                    .into_iter()
                    .filter(|(k, _)| VCENTER_KEPT.contains(&k.as_str()))
                    .collect(),
                _ => Map::new(),
            };
            entry.insert("server".to_owned(), Value::from(server.clone()));
            if let Some(port) = vcenter.port.and_then(|p| u64::try_from(p).ok()) {
                entry.insert("port".to_owned(), Value::from(port));
            }
            entry.insert(
                "datacenters".to_owned(),
                Value::from(vcenter.datacenters.unwrap_or_default()),
            );
            config.vcenters.insert(server, Value::Object(entry));
        }
        if drop_unlisted {
            for name in old.keys() {
                warnings.push(format!(
                    "dropped vcenter {name:?}: the Infrastructure's spec.platformSpec.vsphere.vcenters does not list it"
                ));
            }
        } else {
            // CCCMO before 4.23 set the listed vCenters over the source's and kept the others.
            for (name, entry) in old {
                config.vcenters.entry(name).or_insert(entry);
            }
        }
    }
    add_failure_domain_datacenters(config, domains, warnings);
}

/// Each failure domain's datacenter, added to its vCenter's list.
fn add_failure_domain_datacenters(
    config: &mut Config,
    domains: &[FailureDomain],
    warnings: &mut Vec<String>,
) {
    for domain in domains {
        let server = domain.server.clone().unwrap_or_default();
        let datacenter = domain
            .topology
            .as_ref()
            .and_then(|t| t.datacenter.clone())
            .unwrap_or_default();
        if server.is_empty() || datacenter.is_empty() {
            continue;
        }
        // CCCMO dereferences a nil entry here when the domain's server is not a listed vCenter
        // (docs/differences-from-cccmo.md); such a vCenter is added instead.
        let entry = config
            .vcenters
            .entry(server.clone())
            .or_insert_with(|| json!({ "server": server }));
        if let Some(entry) = entry.as_object_mut() {
            let list = entry
                .entry("datacenters")
                .or_insert_with(|| Value::Array(Vec::new()));
            if let Some(list) = list.as_array_mut()
                && !list
                    .iter()
                    .any(|dc| dc.as_str() == Some(datacenter.as_str()))
            {
                list.push(Value::from(datacenter));
            }
        } else {
            warnings.push(format!(
                "failure domain {:?}: vcenter {server:?} is malformed",
                domain.name.as_deref().unwrap_or("")
            ));
        }
    }
}

/// The YAML CCCMO writes: `sigs.k8s.io/yaml.Marshal` of library-go's model, i.e. sorted keys
/// (4.23), or before that `gopkg.in/yaml.v2` of CCCMO's own structs, i.e. in field order (which
/// [`Record`] keeps).
fn write(config: Config, order: KeyOrder) -> Result<String> {
    let mut object = Map::new();
    object.insert("global".to_owned(), Value::Object(config.global));
    object.insert("vcenter".to_owned(), Value::Object(config.vcenters));
    object.insert("labels".to_owned(), Value::Object(config.labels));
    object.insert("nodes".to_owned(), Value::Object(config.nodes));
    let mut value = Value::Object(Record::read(&object, CONFIG, "", &mut Vec::new())?.to_object());
    if order == KeyOrder::Sorted {
        value.sort_all_objects();
    }
    ccm_catalogue::yaml::to_string(&value)
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use super::*;
    use pretty_assertions::assert_eq;
    use proptest::prelude::*;

    const INI_WITH_WORKSPACE: &str = r#"
[Global]
secret-name = "vsphere-creds"
secret-namespace = "kube-system"
insecure-flag = "1"

[Workspace]
server = "test-server"
datacenter = "DC1"
default-datastore = "Datastore"
folder = "/DC1/vm/F1"

[VirtualCenter "test-server"]
datacenters = "DC1""#;

    const INI_WITHOUT_WORKSPACE: &str = r#"
[Global]
secret-name = "vsphere-creds"
secret-namespace = "kube-system"
insecure-flag = "1"

[VirtualCenter "test-server"]
datacenters = "DC1""#;

    const INI_WITH_LABELS: &str = r#"
[Global]
secret-name = "vsphere-creds"
secret-namespace = "kube-system"
insecure-flag = "1"

[VirtualCenter "test-server"]
datacenters = "DC1"

[Labels]
region = "k8s-region"
zone = "k8s-zone""#;

    const YAML_CONFIG: &str = "
global:
  insecureFlag: true
  secretName: vsphere-creds
  secretNamespace: kube-system
vcenter:
  test-server:
    server: test-server
    datacenters:
    - DC1";

    const YAML_ZONAL: &str = "global:
  insecureFlag: true
  secretName: vsphere-creds
  secretNamespace: kube-system
labels:
  region: openshift-region
  zone: openshift-zone
vcenter:
  test-server:
    datacenters:
    - DC1
    - DC2
    - DC3
    port: 443
    server: test-server
";

    const YAML_WITH_OLD_VCENTERS: &str = "
global:
  insecureFlag: true
  secretName: vsphere-creds
  secretNamespace: kube-system
vcenter:
  test-server:
    server: test-server
    port: 443
    datacenters: [DC1, DC2, DC3]
  old-server-1:
    server: old-server-1
    datacenters: [OLD-DC1]
  old-server-2:
    server: old-server-2
    datacenters: [OLD-DC2]
labels:
  zone: openshift-zone
  region: openshift-region";

    fn infra_with(spec: Option<Value>, status: Value) -> Value {
        let mut infra = infra("VSphere");
        if let Some(spec) = spec {
            infra["spec"]["platformSpec"]["vsphere"] = spec;
        }
        infra["status"]["platformStatus"]["vsphere"] = status;
        infra
    }

    fn default_vcenter() -> Value {
        json!([{"server": "test-server", "datacenters": ["DC1"]}])
    }

    fn node_networking() -> Value {
        json!({
            "external": {
                "network": "external-network",
                "networkSubnetCIDR": ["198.51.100.0/24", "fe80::3/128"],
                "excludeNetworkSubnetCIDR": ["192.1.2.0/24", "fe80::2/128"],
            },
            "internal": {
                "network": "internal-network",
                "networkSubnetCIDR": ["192.0.3.0/24", "fe80::4/128"],
                "excludeNetworkSubnetCIDR": ["192.0.2.0/24", "fe80::1/128"],
            },
        })
    }

    fn zones() -> Value {
        let domain = |name: &str, dc: &str| json!({"name": name, "server": "test-server", "topology": {"datacenter": dc}});
        json!({
            "vcenters": [{"server": "test-server", "port": 443, "datacenters": ["DC1", "DC2"]}],
            "failureDomains": [domain("east-1a", "DC1"), domain("east-2a", "DC2"), domain("west-1a", "DC3")],
        })
    }

    fn service_network(cidrs: &[&str]) -> Value {
        json!({"kind": "Network", "spec": {"serviceNetwork": cidrs}})
    }

    fn run(source: &str, infra: &Value, network: Option<&Value>) -> Result<Transformed> {
        let ctx = Context {
            platform: super::super::test_support::platform_of(infra),
            infrastructure: infra,
            network,
            feature_enabled: &no_gates,
            behaviour: newest(),
        };
        transform(source, &ctx)
    }

    fn yaml(source: &str, infra: &Value, network: Option<&Value>) -> Value {
        let out = run(source, infra, network).expect("transforms");
        ccm_catalogue::yaml::documents(&out.text)
            .expect("output is YAML")
            .remove(0)
    }

    fn value_of(yaml_text: &str) -> Value {
        ccm_catalogue::yaml::documents(yaml_text)
            .expect("YAML")
            .remove(0)
    }

    fn without_spec() -> Value {
        infra_with(None, json!({}))
    }

    fn expected_plain() -> Value {
        json!({
            "global": {"insecureFlag": true, "secretName": "vsphere-creds", "secretNamespace": "kube-system"},
            "vcenter": {"test-server": {"server": "test-server", "datacenters": ["DC1"]}},
        })
    }

    fn expected_nodes() -> Value {
        json!({
            "internalNetworkSubnetCidr": "192.0.3.0/24,fe80::4/128",
            "externalNetworkSubnetCidr": "198.51.100.0/24,fe80::3/128",
            "internalVmNetworkName": "internal-network",
            "externalVmNetworkName": "external-network",
            "excludeInternalNetworkSubnetCidr": "192.0.2.0/24,fe80::1/128",
            "excludeExternalNetworkSubnetCidr": "192.1.2.0/24,fe80::2/128",
        })
    }

    #[test]
    fn vsphere_ini_without_vsphere_spec_is_converted_and_workspace_dropped() {
        let infra = without_spec();
        let out = run(INI_WITH_WORKSPACE, &infra, None).expect("ok");
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        let with = value_of(&out.text);
        assert_eq!(with, expected_plain());
        assert_eq!(yaml(INI_WITHOUT_WORKSPACE, &infra, None), with);
        assert_eq!(yaml(YAML_CONFIG, &infra, None), with);
    }

    #[test]
    fn vsphere_node_networking_comes_from_the_infrastructure() {
        let spec = json!({"vcenters": default_vcenter(), "nodeNetworking": node_networking()});
        let infra = infra_with(Some(spec), json!({}));
        let mut expected = expected_plain();
        expected["nodes"] = expected_nodes();
        assert_eq!(yaml(INI_WITH_WORKSPACE, &infra, None), expected);
        assert_eq!(yaml(YAML_CONFIG, &infra, None), expected);
        let as_yaml = serde_json::to_string(&expected).expect("json");
        assert_eq!(yaml(&as_yaml, &infra, None), expected);
    }

    #[test]
    fn vsphere_node_networking_reads_the_api_spelling_networksubnetcidr() {
        // openshift/api's JSON names are `networkSubnetCidr`/`excludeNetworkSubnetCidr`; a real
        // Infrastructure uses them, the conformance inputs the `…CIDR` spelling.
        let api = serde_json::to_string(&node_networking())
            .expect("json")
            .replace("SubnetCIDR", "SubnetCidr");
        let networking: Value = serde_json::from_str(&api).expect("json");
        let spec = json!({"vcenters": default_vcenter(), "nodeNetworking": networking});
        let infra = infra_with(Some(spec), json!({}));
        let mut expected = expected_plain();
        expected["nodes"] = expected_nodes();
        assert_eq!(yaml(INI_WITH_WORKSPACE, &infra, None), expected);
    }

    #[test]
    fn vsphere_failure_domains_add_datacenters_and_openshift_labels() {
        let infra = infra_with(Some(zones()), json!({}));
        let expected = value_of(YAML_ZONAL);
        assert_eq!(yaml(INI_WITH_WORKSPACE, &infra, None), expected);
        assert_eq!(yaml(YAML_CONFIG, &infra, None), expected);
        assert_eq!(yaml(YAML_ZONAL, &infra, None), expected);
        // Byte for byte as sigs.k8s.io/yaml writes it: sorted keys, lists at the key's column.
        assert_eq!(
            run(INI_WITH_WORKSPACE, &infra, None).expect("ok").text,
            YAML_ZONAL
        );
    }

    #[test]
    fn vsphere_existing_labels_are_replaced_with_a_warning() {
        let infra = infra_with(Some(zones()), json!({}));
        let out = run(INI_WITH_LABELS, &infra, None).expect("ok");
        assert_eq!(value_of(&out.text), value_of(YAML_ZONAL));
        assert_eq!(out.warnings.len(), 2, "{:?}", out.warnings);
    }

    #[test]
    fn vsphere_one_failure_domain_sets_no_labels() {
        let spec = json!({"failureDomains": [{"name": "a", "server": "test-server", "topology": {"datacenter": "DC9"}}]});
        let out = yaml(INI_WITH_LABELS, &infra_with(Some(spec), json!({})), None);
        assert_eq!(
            out["labels"],
            json!({"region": "k8s-region", "zone": "k8s-zone"})
        );
        assert_eq!(
            out["vcenter"]["test-server"]["datacenters"],
            json!(["DC1", "DC9"])
        );
    }

    #[test]
    fn vsphere_vcenters_missing_from_the_infrastructure_are_dropped_with_warnings() {
        let infra = infra_with(Some(zones()), json!({}));
        let out = run(YAML_WITH_OLD_VCENTERS, &infra, None).expect("ok");
        assert_eq!(value_of(&out.text), value_of(YAML_ZONAL));
        assert_eq!(out.warnings.len(), 2, "{:?}", out.warnings);
        assert!(
            out.warnings[0].contains("old-server-1"),
            "{:?}",
            out.warnings
        );
    }

    #[test]
    fn vsphere_before_4_23_keeps_unlisted_vcenters_and_writes_struct_order() {
        let infra = infra_with(Some(zones()), json!({}));
        let behaviour = ccm_catalogue::releases::behaviour::CloudConfig {
            vsphere_key_order: KeyOrder::Struct,
            vsphere_drop_unlisted_vcenters: false,
            ..*newest()
        };
        let ctx = Context {
            platform: super::super::test_support::platform_of(&infra),
            infrastructure: &infra,
            network: None,
            feature_enabled: &no_gates,
            behaviour: &behaviour,
        };
        let out = transform(YAML_WITH_OLD_VCENTERS, &ctx).expect("ok");
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        let value = value_of(&out.text);
        let names: Vec<&String> = value["vcenter"].as_object().expect("map").keys().collect();
        assert_eq!(names, ["test-server", "old-server-1", "old-server-2"]);
        let top: Vec<&str> = out.text.lines().filter(|l| !l.starts_with(' ')).collect();
        assert_eq!(top, ["global:", "vcenter:", "labels:"]);
        assert!(
            out.text
                .contains("  test-server:\n    server: test-server\n    port: 443\n"),
            "{}",
            out.text
        );
    }

    #[test]
    fn vsphere_dual_stack_ipv4_primary_sets_families_and_excludes_vips() {
        let spec = json!({"vcenters": default_vcenter(), "nodeNetworking": node_networking()});
        let status = json!({
            "apiServerInternalIPs": ["192.168.96.3", "fd65:a1a8:60ad:271c::200"],
            "ingressIPs": ["192.168.96.4", "fd65:a1a8:60ad:271c::201"],
        });
        let network = service_network(&["172.30.0.0/16", "fd65:172:16::/112"]);
        let out = yaml(YAML_CONFIG, &infra_with(Some(spec), status), Some(&network));
        let tail = "192.168.96.3/32,fd65:a1a8:60ad:271c::200/128,192.168.96.4/32,fd65:a1a8:60ad:271c::201/128,fd69::2/128";
        assert_eq!(out["global"]["ipFamily"], json!(["ipv4", "ipv6"]));
        assert_eq!(
            out["nodes"]["excludeExternalNetworkSubnetCidr"],
            format!("192.1.2.0/24,fe80::2/128,{tail}")
        );
        assert_eq!(
            out["nodes"]["excludeInternalNetworkSubnetCidr"],
            format!("192.0.2.0/24,fe80::1/128,{tail}")
        );
    }

    #[test]
    fn vsphere_dual_stack_ipv6_primary_keeps_the_vip_order() {
        let spec = json!({"vcenters": default_vcenter(), "nodeNetworking": node_networking()});
        let status = json!({
            "apiServerInternalIPs": ["fd65:a1a8:60ad:271c::200", "192.168.96.3"],
            "ingressIPs": ["fd65:a1a8:60ad:271c::201", "192.168.96.4"],
        });
        let network = service_network(&["fd65:172:16::/112", "172.30.0.0/16"]);
        let out = yaml(YAML_CONFIG, &infra_with(Some(spec), status), Some(&network));
        assert_eq!(out["global"]["ipFamily"], json!(["ipv6", "ipv4"]));
        assert_eq!(
            out["nodes"]["excludeExternalNetworkSubnetCidr"],
            "192.1.2.0/24,fe80::2/128,fd65:a1a8:60ad:271c::200/128,192.168.96.3/32,fd65:a1a8:60ad:271c::201/128,192.168.96.4/32,fd69::2/128"
        );
    }

    #[test]
    fn vsphere_ipv6_only_cluster() {
        let networking = json!({
            "external": {"network": "external-network", "networkSubnetCIDR": ["fe80::3/128"], "excludeNetworkSubnetCIDR": ["fe80::2/128"]},
            "internal": {"network": "internal-network", "networkSubnetCIDR": ["fe80::4/128"], "excludeNetworkSubnetCIDR": ["fe80::1/128"]},
        });
        let spec = json!({"vcenters": default_vcenter(), "nodeNetworking": networking});
        let status = json!({"apiServerInternalIPs": ["fd65:a1a8:60ad:271c::200"], "ingressIPs": ["fd65:a1a8:60ad:271c::201"]});
        let network = service_network(&["fd65:172:16::/112"]);
        let out = yaml(YAML_CONFIG, &infra_with(Some(spec), status), Some(&network));
        assert_eq!(out["global"]["ipFamily"], json!(["ipv6"]));
        assert_eq!(
            out["nodes"]["excludeExternalNetworkSubnetCidr"],
            "fe80::2/128,fd65:a1a8:60ad:271c::200/128,fd65:a1a8:60ad:271c::201/128,fd69::2/128"
        );
        assert_eq!(
            out["nodes"]["excludeInternalNetworkSubnetCidr"],
            "fe80::1/128,fd65:a1a8:60ad:271c::200/128,fd65:a1a8:60ad:271c::201/128,fd69::2/128"
        );
    }

    #[test]
    fn vsphere_ipv4_only_cluster_is_left_alone() {
        let spec = json!({"vcenters": default_vcenter()});
        let status = json!({"apiServerInternalIPs": ["192.168.96.3"]});
        let network = service_network(&["172.30.0.0/16"]);
        let out = yaml(YAML_CONFIG, &infra_with(Some(spec), status), Some(&network));
        assert_eq!(out, expected_plain());
    }

    #[test]
    fn vsphere_errors() {
        let infra = infra_with(Some(json!({})), json!({}));
        for (source, needle) in [
            ("", "the vSphere cloud config is empty"),
            (" \n", "the vSphere cloud config is empty"),
            (":", "vSphere cloud config"),
            (
                "[Global]\nport = abc\n",
                "[Global] port is \"abc\"; expected a port number",
            ),
            (
                "[VirtualCenter \"vc\"]\ninsecure-flag = maybe\n",
                "[VirtualCenter \"vc\"] insecure-flag is \"maybe\"",
            ),
            ("[Global]\nuser\n", "[Global] user has no value"),
            (
                "global:\n  port: \"443\"\n",
                "global.port must be a whole number",
            ),
            (
                "global:\n  password: 12345\n",
                "global.password must be a string",
            ),
            ("- a\n", "neither a YAML mapping nor INI"),
            ("a: 1\n---\nb: 2\n", "2 YAML documents"),
        ] {
            let err = format!("{:#}", run(source, &infra, None).expect_err(source));
            assert!(err.contains(needle), "{source:?}: {err}");
            assert!(!err.contains("12345"), "{err}");
            assert_eq!(err.lines().count(), 1, "{err}");
        }
        let platform_none = super::super::test_support::infra("None");
        let err = format!(
            "{:#}",
            run(YAML_CONFIG, &platform_none, None).expect_err("platform None")
        );
        assert!(err.contains("platform VSphere"), "{err}");
        let network = service_network(&["not-a-cidr"]);
        let err = format!(
            "{:#}",
            run(YAML_CONFIG, &infra, Some(&network)).expect_err("bad cidr")
        );
        assert!(
            err.contains("network spec.serviceNetwork[0] \"not-a-cidr\""),
            "{err}"
        );
        let bad_vip = infra_with(Some(json!({})), json!({"ingressIPs": ["x"]}));
        let v6 = service_network(&["fd00::/112"]);
        let err = format!(
            "{:#}",
            run(YAML_CONFIG, &bad_vip, Some(&v6)).expect_err("bad vip")
        );
        assert!(
            err.contains("status.platformStatus.vsphere.ingressIPs[0] \"x\""),
            "{err}"
        );
    }

    #[test]
    fn vsphere_failure_domain_on_an_unlisted_vcenter_is_added_not_a_panic() {
        let spec = json!({
            "vcenters": default_vcenter(),
            "failureDomains": [{"name": "a", "server": "other", "topology": {"datacenter": "DCX"}}],
        });
        let out = yaml(YAML_CONFIG, &infra_with(Some(spec), json!({})), None);
        assert_eq!(
            out["vcenter"]["other"],
            json!({"server": "other", "datacenters": ["DCX"]})
        );
    }

    #[test]
    fn vsphere_vcenter_credentials_survive_the_infrastructure_rebuild() {
        let source = "[VirtualCenter \"test-server\"]\nuser = u\npassword = \"p#w\"\nthumbprint = AA:BB\nport = 8443\nip-family = ipv6\n";
        let spec = json!({"vcenters": default_vcenter()});
        let out = yaml(source, &infra_with(Some(spec), json!({})), None);
        assert_eq!(
            out["vcenter"]["test-server"],
            json!({"server": "test-server", "datacenters": ["DC1"], "user": "u", "password": "p#w", "thumbprint": "AA:BB"})
        );
    }

    #[test]
    fn vsphere_ini_global_settings_library_go_dropped_are_kept() {
        let source = "[Global]\napi-disable = true\napi-binding = \":43001\"\nip-family = ipv6\nport = 443\nsoap-roundtrip-count = 0x3\ndatacenters = \"a, b,,\"\n";
        let out = yaml(source, &without_spec(), None);
        assert_eq!(
            out["global"],
            json!({"apiDisable": true, "apiBinding": ":43001", "ipFamily": ["ipv6"], "port": 443, "soapRoundtripCount": 3, "datacenters": ["a", "b"]})
        );
    }

    #[test]
    fn vsphere_unknown_keys_and_sections_are_warned_about() {
        let out = run(
            "[Global]\nbogus = 1\n[Disk]\nscsicontrollertype = pvscsi\n",
            &without_spec(),
            None,
        )
        .expect("ok");
        assert_eq!(
            out.warnings,
            vec![
                "dropped unknown key [Global] bogus",
                "dropped unknown section [Disk]"
            ]
        );
        let out = run(
            "global:\n  bogus: 1\nvcenter:\n  vc:\n    tenantref: x\nextra: {}\n",
            &without_spec(),
            None,
        )
        .expect("ok");
        assert_eq!(
            out.warnings,
            vec![
                "dropped unknown key global.bogus",
                "dropped unknown key vcenter.vc.tenantref",
                "dropped unknown key extra"
            ]
        );
    }

    #[test]
    fn vsphere_yaml_keys_match_without_case_and_yaml_1_1_booleans_are_read() {
        let out = yaml("global:\n  InsecureFlag: yes\n", &without_spec(), None);
        assert_eq!(out, json!({"global": {"insecureFlag": true}}));
    }

    #[test]
    fn vsphere_source_nodes_are_kept_where_the_infrastructure_has_none() {
        let source = "[Nodes]\ninternal-vm-network-name = \"mine\"\n";
        let out = yaml(source, &infra_with(Some(json!({})), json!({})), None);
        assert_eq!(out["nodes"], json!({"internalVmNetworkName": "mine"}));
    }

    #[test]
    fn vsphere_comment_only_yaml_is_an_empty_config() {
        let out = run("# nothing yet\n", &without_spec(), None).expect("ok");
        assert_eq!(out.text, "global: {}\n");
    }

    #[test]
    fn vsphere_conformance_case_is_byte_for_byte() {
        let infra = conformance_yaml("vsphere/infrastructure.yaml");
        let network = conformance_yaml("network.yaml");
        let out = run(&conformance_source("vsphere"), &infra, Some(&network)).expect("ok");
        assert_eq!(out.text, conformance_expected("vsphere"));
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    }

    fn vsphere_source() -> impl Strategy<Value = String> {
        prop_oneof![
            Just(INI_WITH_WORKSPACE.to_owned()),
            Just(INI_WITH_LABELS.to_owned()),
            Just(YAML_CONFIG.to_owned()),
            Just(YAML_WITH_OLD_VCENTERS.to_owned()),
            Just("[Nodes]\nexclude-external-network-subnet-cidr = \"10.0.0.0/8\"\n".to_owned()),
            "[^\u{0}\r\n\"\\\\]{0,12}"
                .prop_map(|p| format!("[VirtualCenter \"test-server\"]\npassword = \"{p}\"\n")),
        ]
    }

    fn vsphere_infra() -> impl Strategy<Value = Value> {
        prop_oneof![
            Just(without_spec()),
            Just(infra_with(Some(json!({})), json!({}))),
            Just(infra_with(
                Some(zones()),
                json!({"ingressIPs": ["fd00::5", "10.0.0.5"]})
            )),
            Just(infra_with(
                Some(json!({"vcenters": default_vcenter(), "nodeNetworking": node_networking()})),
                json!({"apiServerInternalIPs": ["10.0.0.4"]}),
            )),
        ]
    }

    fn vsphere_network() -> impl Strategy<Value = Option<Value>> {
        prop_oneof![
            Just(None),
            Just(Some(service_network(&["172.30.0.0/16"]))),
            Just(Some(service_network(&["fd00::/112"]))),
            Just(Some(service_network(&["172.30.0.0/16", "fd00::/112"]))),
            Just(Some(service_network(&["fd00::/112", "172.30.0.0/16"]))),
        ]
    }

    proptest! {
        #[test]
        fn vsphere_transform_is_idempotent(
            source in vsphere_source(),
            infra in vsphere_infra(),
            network in vsphere_network(),
        ) {
            let once = run(&source, &infra, network.as_ref()).expect("ok").text;
            let twice = run(&once, &infra, network.as_ref()).expect("ok");
            prop_assert_eq!(&twice.text, &once);
            prop_assert!(twice.warnings.is_empty(), "{:?}", twice.warnings);
        }
    }
}
