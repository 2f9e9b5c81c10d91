//! What HyperShift's component framework does to every control plane Deployment
//! (`support/controlplane-component/defaults.go` `setDefaultOptions`, and `deployment.go`
//! `SetReplicasAndStrategy`), in its order.

use super::edit::push;
use super::token_minter;
use crate::config::hosted::HostedConfig;
use crate::inputs::hosted_control_plane::AvailabilityPolicy;
use anyhow::{Result, anyhow, bail};
use ccm_catalogue::hosted::Component;
use ccm_catalogue::platform::HostedPlatform;
use serde_json::{Map, Value, json};

const CONTROL_PLANE_KEY: &str = "hypershift.openshift.io/control-plane";
const CLUSTER_KEY: &str = "hypershift.openshift.io/cluster";
const COLOCATION_KEY: &str = "hypershift.openshift.io/hosted-control-plane";
const DEBUG_DEPLOYMENTS: &str = "hypershift.openshift.io/debug-deployments";
const PRIORITY_OVERRIDE: &str = "hypershift.openshift.io/control-plane-priority-class";
const RESTART_DATE: &str = "hypershift.openshift.io/restart-date";
const REQUEST_OVERRIDE_PREFIX: &str = "resource-request-override.hypershift.openshift.io/";

/// Applies the framework's defaults to the component's Deployment.
pub(crate) fn apply_defaults(
    component: &Component,
    cfg: &HostedConfig,
    deployment: &mut Value,
) -> Result<()> {
    let spec = &component.descriptor.spec;
    let name = component.descriptor.metadata.name.as_str();
    let hcp = &cfg.hcp;
    deployment["metadata"]["labels"]["hypershift.openshift.io/managed-by"] =
        json!("control-plane-operator");
    let replicas = match deployment["spec"].get("replicas").and_then(Value::as_i64) {
        Some(n) => n,
        None if hcp.spec.controller_availability_policy == AvailabilityPolicy::SingleReplica => 1,
        None => 2,
    };
    let debug = hcp
        .metadata
        .annotations
        .get(DEBUG_DEPLOYMENTS)
        .is_some_and(|v| v.split(',').any(|n| n == name));
    set_replicas_and_strategy(
        deployment,
        if debug { 0 } else { replicas },
        spec.options.request_serving,
    );
    let pod = &mut deployment["spec"]["template"]["spec"];
    volume_default_modes(pod);
    pull_policy_and_images(pod, cfg)?;
    if let Some(minter) = &spec.token_minter {
        token_minter::inject(minter, cfg, pod)?;
    }
    for list in ["initContainers", "containers"] {
        for c in containers(pod, list) {
            c["terminationMessagePolicy"] = json!("FallbackToLogsOnError");
        }
    }
    read_only_root(pod);
    pod["automountServiceAccountToken"] = json!(spec.options.needs_management_kas_access);
    if cfg.platform() == HostedPlatform::Gcp {
        restricted_security_context(pod)?;
    }
    pod["priorityClassName"] = json!(
        hcp.metadata
            .annotations
            .get(PRIORITY_OVERRIDE)
            .filter(|v| !v.is_empty())
            .map_or("hypershift-control-plane", String::as_str)
    );
    // An empty map is written as none, as Go's omitempty does.
    if let Some(selector) = hcp.spec.node_selector.as_ref().filter(|s| !s.is_empty()) {
        pod["nodeSelector"] = json!(selector);
    }
    let template = &mut deployment["spec"]["template"];
    labels(template, name, spec.options, cfg);
    annotations(template, cfg);
    isolation(&mut template["spec"], cfg);
    colocation(template, cfg);
    request_overrides(&mut template["spec"], name, cfg);
    if replicas > 1 && spec.options.multi_zone_spread {
        multizone_spread(template, cfg);
    }
    if deployment["spec"].get("strategy").is_none() {
        deployment["spec"]["strategy"] = json!({});
    }
    deployment["status"] = json!({});
    Ok(())
}

/// The containers of a pod spec's `list` (`containers`, `initContainers`), none when absent.
fn containers<'a>(pod: &'a mut Value, list: &str) -> impl Iterator<Item = &'a mut Value> {
    pod.get_mut(list)
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
}

fn set_replicas_and_strategy(deployment: &mut Value, replicas: i64, request_serving: bool) {
    let spec = &mut deployment["spec"];
    spec["replicas"] = json!(replicas);
    spec["revisionHistoryLimit"] = json!(2);
    if replicas > 1 {
        let (surge, unavailable) = match (replicas > 2, request_serving) {
            (true, _) => (0, 1),
            (false, true) => (1, 1),
            (false, false) => (1, 0),
        };
        if spec["strategy"].get("rollingUpdate").is_none() {
            spec["strategy"]["rollingUpdate"] = json!({});
            spec["strategy"]["type"] = json!("RollingUpdate");
        }
        spec["strategy"]["rollingUpdate"]["maxSurge"] = json!(surge);
        spec["strategy"]["rollingUpdate"]["maxUnavailable"] = json!(unavailable);
    }
}

fn volume_default_modes(pod: &mut Value) {
    for v in pod
        .get_mut("volumes")
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
    {
        if v.get("configMap").is_some() {
            v["configMap"]["defaultMode"] = json!(420);
        }
        if v.get("secret").is_some() {
            v["secret"]["defaultMode"] = json!(416);
        }
    }
}

/// `enforceImagePullPolicy` and `replaceContainersImageFromPayload`: each container's image is
/// a payload tag the `--images` ImageStream must have.
fn pull_policy_and_images(pod: &mut Value, cfg: &HostedConfig) -> Result<()> {
    for list in ["containers", "initContainers"] {
        for c in containers(pod, list) {
            let tag = c["image"].as_str().unwrap_or_default().to_string();
            if list == "containers" {
                let policy = if tag.ends_with(":latest") {
                    "Always"
                } else {
                    "IfNotPresent"
                };
                c["imagePullPolicy"] = json!(policy);
            }
            let image = cfg.images.get(&tag).ok_or_else(|| {
                anyhow!(
                    "{}: no tag {tag}, which the {} CCM needs",
                    cfg.images.origin,
                    cfg.platform()
                )
            })?;
            c["image"] = json!(image);
        }
    }
    Ok(())
}

fn read_only_root(pod: &mut Value) {
    push(
        &mut pod["volumes"],
        json!({"name": "tmp-dir", "emptyDir": {}}),
    );
    for c in containers(pod, "containers") {
        let has_tmp = c["volumeMounts"]
            .as_array()
            .is_some_and(|m| m.iter().any(|m| m["mountPath"] == "/tmp"));
        if !has_tmp {
            push(
                &mut c["volumeMounts"],
                json!({"name": "tmp-dir", "mountPath": "/tmp"}),
            );
        }
        c["securityContext"]["readOnlyRootFilesystem"] = json!(true);
    }
}

/// `podspec.EnforceRestrictedSecurityContextToContainers` (GKE's restricted pod security).
fn restricted_security_context(pod: &mut Value) -> Result<()> {
    for list in ["initContainers", "containers"] {
        for c in containers(pod, list) {
            let add = c["securityContext"]["capabilities"]["add"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            if let Some(bad) = add.iter().find(|a| a.as_str() != Some("NET_BIND_SERVICE")) {
                bail!(
                    "container {}: capability {bad} is not allowed by restricted pod security",
                    c["name"]
                );
            }
            let sc = &mut c["securityContext"];
            sc["allowPrivilegeEscalation"] = json!(false);
            sc["runAsNonRoot"] = json!(true);
            sc["capabilities"] = if add.is_empty() {
                json!({"drop": ["ALL"]})
            } else {
                json!({"drop": ["ALL"], "add": add})
            };
        }
    }
    Ok(())
}

fn labels(
    template: &mut Value,
    name: &str,
    options: ccm_catalogue::hosted::ComponentOptions,
    cfg: &HostedConfig,
) {
    let labels = &mut template["metadata"]["labels"];
    labels["hypershift.openshift.io/control-plane-component"] = json!(name);
    if options.needs_management_kas_access {
        labels["hypershift.openshift.io/need-management-kas-access"] = json!("true");
    }
    if options.request_serving {
        labels["hypershift.openshift.io/request-serving-component"] = json!("true");
    }
    for (k, v) in &cfg.hcp.spec.labels {
        labels[k.as_str()] = json!(v);
    }
}

fn annotations(template: &mut Value, cfg: &HostedConfig) {
    let hcp = &cfg.hcp;
    let release = hcp
        .spec
        .control_plane_release_image
        .as_deref()
        .filter(|r| !r.is_empty())
        .unwrap_or(&hcp.spec.release_image);
    let local: Vec<&str> = template["spec"]["volumes"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|v| v.get("emptyDir").is_some() || v.get("hostPath").is_some())
        .filter_map(|v| v["name"].as_str())
        .collect();
    let local = local.join(",");
    let annotations = &mut template["metadata"]["annotations"];
    annotations["hypershift.openshift.io/release-image"] = json!(release);
    if let Some(date) = hcp.metadata.annotations.get(RESTART_DATE) {
        annotations[RESTART_DATE] = json!(date);
    }
    if !local.is_empty() {
        annotations["cluster-autoscaler.kubernetes.io/safe-to-evict-local-volumes"] = json!(local);
    }
}

fn isolation(pod: &mut Value, cfg: &HostedConfig) {
    let key = &cfg.hcp.metadata.namespace;
    let mut tolerations = vec![
        json!({"key": CONTROL_PLANE_KEY, "operator": "Equal", "value": "true", "effect": "NoSchedule"}),
        json!({"key": CLUSTER_KEY, "operator": "Equal", "value": key, "effect": "NoSchedule"}),
    ];
    tolerations.extend(cfg.hcp.spec.tolerations.iter().cloned());
    pod["tolerations"] = Value::Array(tolerations);
    pod["affinity"]["nodeAffinity"]["preferredDuringSchedulingIgnoredDuringExecution"] = json!([
        {"weight": 50, "preference": {"matchExpressions": [{"key": CONTROL_PLANE_KEY, "operator": "In", "values": ["true"]}]}},
        {"weight": 100, "preference": {"matchExpressions": [{"key": CLUSTER_KEY, "operator": "In", "values": [key]}]}},
    ]);
}

fn colocation(template: &mut Value, cfg: &HostedConfig) {
    let key = &cfg.hcp.metadata.namespace;
    template["metadata"]["labels"][COLOCATION_KEY] = json!(key);
    template["spec"]["affinity"]["podAffinity"]["preferredDuringSchedulingIgnoredDuringExecution"] = json!([{
        "weight": 100,
        "podAffinityTerm": {"labelSelector": {"matchLabels": {COLOCATION_KEY: key}}, "topologyKey": "kubernetes.io/hostname"},
    }]);
}

/// `resource-request-override.hypershift.openshift.io/<deployment>.<container>: cpu=…,memory=…`.
fn request_overrides(pod: &mut Value, name: &str, cfg: &HostedConfig) {
    let mut overrides: Vec<(&str, Map<String, Value>)> = Vec::new();
    for (key, value) in &cfg.hcp.metadata.annotations {
        let Some(rest) = key.strip_prefix(REQUEST_OVERRIDE_PREFIX) else {
            continue;
        };
        let Some((deployment, container)) = rest.split_once('.') else {
            continue;
        };
        if deployment != name {
            continue;
        }
        let mut list = Map::new();
        for request in value.split(',') {
            if let Some((resource, quantity)) = request.split_once('=')
                && is_quantity(quantity)
            {
                list.insert(resource.to_string(), json!(quantity));
            }
        }
        overrides.push((container, list));
    }
    for list in ["initContainers", "containers"] {
        for c in containers(pod, list) {
            for (container, requests) in &overrides {
                if c["name"] != *container {
                    continue;
                }
                for (resource, quantity) in requests {
                    c["resources"]["requests"][resource.as_str()] = quantity.clone();
                    if resource == "aro.openshift.io/swift-nic" {
                        c["resources"]["limits"][resource.as_str()] = quantity.clone();
                    }
                }
            }
        }
    }
}

/// A Kubernetes quantity: a decimal number and an optional suffix.
fn is_quantity(text: &str) -> bool {
    let number_end = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '+' || c == '-'))
        .unwrap_or(text.len());
    let (number, suffix) = text.split_at(number_end);
    number.parse::<f64>().is_ok()
        && [
            "", "m", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei",
        ]
        .contains(&suffix)
}

fn multizone_spread(template: &mut Value, cfg: &HostedConfig) {
    let labels = template["metadata"]["labels"].clone();
    let anti = &mut template["spec"]["affinity"]["podAntiAffinity"];
    let zone = json!({"topologyKey": "topology.kubernetes.io/zone", "labelSelector": {"matchLabels": labels}});
    if matches!(
        cfg.platform(),
        HostedPlatform::OpenStack | HostedPlatform::KubeVirt
    ) {
        push(
            &mut anti["preferredDuringSchedulingIgnoredDuringExecution"],
            json!({"weight": 100, "podAffinityTerm": zone}),
        );
    } else {
        push(
            &mut anti["requiredDuringSchedulingIgnoredDuringExecution"],
            zone,
        );
    }
    push(
        &mut anti["requiredDuringSchedulingIgnoredDuringExecution"],
        json!({"topologyKey": "kubernetes.io/hostname", "labelSelector": {"matchLabels": labels}}),
    );
}
