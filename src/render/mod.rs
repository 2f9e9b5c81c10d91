//! The render step: a pure function from a [`ClusterConfig`] and a [`Provider`] to the objects
//! and files to write. No I/O happens here.
//!
//! The steps that apply to every platform are written once and work on parsed objects (CCCMO
//! pkg/cloud/common): images by container name, environment values, replicas, proxy
//! environment, TLS and feature-gate flags, namespace, and the common PodDisruptionBudget and
//! Service.

mod cloud_conf;
pub mod cloud_config;
mod credentials;
pub(crate) mod hosted;
mod trusted_ca;

use crate::config::{ClusterConfig, DEFAULT_NAMESPACE};
use crate::inputs::credentials::SecretValue;
use anyhow::{Context as _, Result, anyhow};
use ccm_catalogue::providers::{Common, EnvSource, Provider, Transform};
use ccm_catalogue::script::Script;
use cloud_conf::{
    bootstrap_cloud_conf, cloud_conf, cloud_conf_config_map, cloud_conf_secret,
    trusted_ca_config_map,
};
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// The labels whose value is the platform type (CCCMO pkg/cloud/common/labels.go).
const PLATFORM_LABELS: [&str; 2] = [
    "infrastructure.openshift.io/cloud-controller-manager",
    "infrastructure.openshift.io/cloud-node-manager",
];

/// What a render produces, before it is laid out as files.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Rendered {
    /// Post-install objects (`DIR/manifests/`).
    pub manifests: Vec<Value>,
    /// Bootstrap static pods (`DIR/bootstrap/`).
    pub bootstrap: Vec<Value>,
    /// Files for the bootstrap pods under `DIR/config/` (`cloud.conf`, …), by file name.
    pub config_files: BTreeMap<String, String>,
    /// With `--credentials`: the files under `DIR/secrets/`, by file name (possibly none).
    pub(crate) secret_files: Option<BTreeMap<String, SecretValue>>,
    /// Things worth telling the user that are neither errors nor warnings.
    pub(crate) notes: Vec<String>,
    /// Things worth telling the user that are not errors.
    pub(crate) warnings: Vec<String>,
}

/// Renders everything for one provider.
pub(crate) fn render(
    cfg: &ClusterConfig,
    provider: &Provider,
    common: &Common,
) -> Result<Rendered> {
    render_objects(
        cfg,
        provider,
        provider.manifests.clone(),
        provider.bootstrap.clone(),
        common,
    )
}

/// [`render`] for a provider the caller no longer needs: its objects are adjusted in place
/// rather than copied (copying them was a sixth of a whole render's instructions).
pub(crate) fn render_owned(
    cfg: &ClusterConfig,
    mut provider: Provider,
    common: &Common,
) -> Result<Rendered> {
    let manifests = std::mem::take(&mut provider.manifests);
    let bootstrap = std::mem::take(&mut provider.bootstrap);
    render_objects(cfg, &provider, manifests, bootstrap, common)
}

/// Renders `provider` with `manifests` and `bootstrap` standing for its objects.
fn render_objects(
    cfg: &ClusterConfig,
    provider: &Provider,
    mut manifests: Vec<Value>,
    bootstrap: Vec<Value>,
    common: &Common,
) -> Result<Rendered> {
    for object in &mut manifests {
        adjust(object, cfg, provider)?;
    }
    manifests.reserve(2);
    manifests.extend(common_objects(cfg, provider, common));
    let mut warnings = cfg.warnings.clone();
    let mut notes = default_image_notes(cfg, provider);
    let mut config_files = BTreeMap::new();
    let cloud_conf = cloud_conf(cfg, provider, &mut warnings)?;
    if let Some(cloud_conf) = &cloud_conf {
        manifests.push(match &provider.spec().cloud_config.secret {
            Some(secret) => cloud_conf_secret(cfg, secret, cloud_conf),
            None => cloud_conf_config_map(cfg, cloud_conf),
        });
        if !cloud_conf.is_empty() {
            config_files.insert(
                "cloud.conf".to_string(),
                bootstrap_cloud_conf(provider, &bootstrap, cloud_conf),
            );
        }
        if let Some(selected) = &cfg.cloud_config {
            for (key, file) in &provider.spec().cloud_config.config_files {
                if let Some(text) = selected.other_keys.get(key) {
                    config_files.insert(file.clone(), text.clone());
                }
            }
        }
    }
    manifests.extend(trusted_ca_config_map(cfg)?);
    let credentials = &provider.spec().bootstrap.credentials;
    let secret_files = if let Some(given) = &cfg.credentials {
        let out = credentials::secret_files(
            provider.name(),
            credentials,
            given,
            cloud_conf.as_deref().filter(|c| !c.is_empty()),
        )?;
        notes.extend(out.notes);
        if let Some(name) = &credentials.post_install_secret {
            manifests.push(credentials::post_install_secret(
                provider.name(),
                name,
                credentials,
                given,
                &cfg.namespace,
            )?);
        }
        Some(out.files)
    } else {
        warnings.extend(without_credentials(cfg, provider));
        None
    };
    if let Some(text) = &cloud_conf {
        warnings.extend(missing_files(cfg, provider, text, secret_files.as_ref()));
    }
    let bootstrap = bootstrap
        .into_iter()
        .map(|pod| bootstrap_pod(pod, cfg, provider))
        .collect::<Result<Vec<_>>>()?;
    Ok(Rendered {
        manifests,
        bootstrap,
        config_files,
        secret_files,
        notes,
        warnings,
    })
}

/// What a render without `--credentials` leaves out that the provider reads: warnings.
fn without_credentials(cfg: &ClusterConfig, provider: &Provider) -> Vec<String> {
    let credentials = &provider.spec().bootstrap.credentials;
    let mut warnings = Vec::new();
    if let Some(name) = &credentials.post_install_secret {
        warnings.push(format!(
            "no --credentials: the Secret {name} that the {} manifests read is not rendered; create it in {} (or pass --credentials)",
            provider.name(),
            cfg.namespace
        ));
    }
    if let Some(file) = credentials.files.first() {
        warnings.push(format!(
            "no --credentials: the {} bootstrap pod reads /etc/kubernetes/bootstrap-secrets/{}, which is not rendered",
            provider.name(),
            file.path
        ));
    }
    warnings
}

/// Files the cloud config or the credentials name that the render does not provide, so that
/// the CCM cannot start (the `OpenStack` CA bundle): warnings, the output staying CCCMO's.
fn missing_files(
    cfg: &ClusterConfig,
    provider: &Provider,
    cloud_conf: &str,
    secret_files: Option<&BTreeMap<String, SecretValue>>,
) -> Vec<String> {
    if provider.spec().cloud_config.transform != Transform::OpenStack {
        return Vec::new();
    }
    let clouds_yaml = secret_files
        .and_then(|files| files.get("clouds.yaml"))
        .and_then(|value| std::str::from_utf8(value.bytes()).ok());
    let has_key = |key: &str| {
        cfg.cloud_config
            .as_ref()
            .is_some_and(|selected| selected.other_keys.contains_key(key))
    };
    cloud_config::openstack_missing_ca_files(cloud_conf, clouds_yaml, &has_key)
}

/// Applies every common step to one provider object.
fn adjust(object: &mut Value, cfg: &ClusterConfig, provider: &Provider) -> Result<()> {
    let platform = cfg.infrastructure.platform.as_str();
    let kind = ccm_catalogue::json_fields::kind_of(object).to_string();
    set_platform_labels(object, platform);
    move_namespace(object, &cfg.namespace);

    // CCCMO substitution.go: Deployments get one replica on single-replica control planes.
    if kind == "Deployment" && cfg.infrastructure.single_replica {
        object["spec"]["replicas"] = json!(1);
    }

    let feature_gates = cfg.features.upstream_ccm_flag_value();
    let tls_flags = cfg.tls.flags();
    let is_workload = kind == "Deployment" || kind == "DaemonSet";
    let object_name = ccm_catalogue::json_fields::name_of(object).to_string();
    for (container, is_init) in containers_mut(object) {
        let name = set_image(
            container,
            cfg,
            provider,
            &format!("of the {} provider", provider.name()),
        )?;

        set_env_values(container, cfg, provider);

        if let Some(text) =
            ccm_catalogue::json_fields::at(container, &["command", "2"]).and_then(Value::as_str)
        {
            // Errors here are about the provider's script, not an input file (an input's
            // images entry is reported by set_image with its file): say which object.
            let edited = edit_script(
                text,
                cfg,
                provider,
                &feature_gates,
                &tls_flags,
                &name,
                is_init,
            )
            .with_context(|| {
                format!(
                    "rendering {kind} {object_name} of provider {}",
                    provider.name()
                )
            })?;
            container["command"][2] = json!(edited);
        }

        // CCCMO substitution.go: proxy variables go to every container of a Deployment or
        // DaemonSet, not to init containers.
        if is_workload && !is_init {
            append_proxy_env(container, cfg);
        }
    }
    Ok(())
}

/// Sets the namespace, feature-gate and TLS flags in a container's script.
fn edit_script(
    text: &str,
    cfg: &ClusterConfig,
    provider: &Provider,
    feature_gates: &str,
    tls_flags: &[String],
    container: &str,
    is_init: bool,
) -> Result<String> {
    let spec = provider.spec();
    let mut script = Script::parse(text);
    script.set_flag("--leader-elect-resource-namespace=", &cfg.namespace)?;
    if spec.upstream_feature_gates {
        script.set_flag("--feature-gates=", feature_gates)?;
    }
    for gated in &spec.feature_gated {
        if !cfg.features.is_enabled(&gated.gate) {
            for flag in &gated.flags {
                script.remove(flag);
            }
        }
    }
    // CCCMO passes the TLS profile to the CCMs from 4.22 on; older releases pass none.
    if container == spec.tls.container && !is_init && cfg.release.behaviour.ccm_tls_flags {
        script
            .insert_before(&spec.tls.before, tls_flags)
            .with_context(|| format!("placing TLS flags in container {container}"))?;
    }
    Ok(script.to_string())
}

/// A bootstrap static pod: the image from images.json and, since it calls the cloud's API
/// from the bootstrap host, the proxy environment.
fn bootstrap_pod(mut pod: Value, cfg: &ClusterConfig, provider: &Provider) -> Result<Value> {
    for (container, _) in containers_mut(&mut pod) {
        set_image(
            container,
            cfg,
            provider,
            &format!("of the {} provider's bootstrap pod", provider.name()),
        )?;
        append_env(container, &cfg.bootstrap_proxy.variables());
    }
    Ok(pod)
}

/// Sets a container's image from images.json, by the key the provider names for the container;
/// returns the container's name. `whose` completes "container X …" in a missing-key error.
fn set_image(
    container: &mut Value,
    cfg: &ClusterConfig,
    provider: &Provider,
    whose: &str,
) -> Result<String> {
    let name = container
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    let image_key = provider
        .spec()
        .images
        .get(&name)
        .ok_or_else(|| anyhow!("container {name:?} has no images entry in provider.yaml"))?;
    let image = match provider.spec().default_images.get(&name) {
        // The provider's pinned vendor image stands in for a missing key (noted by
        // `default_image_notes`); images.json wins when it has one.
        Some(default) if !cfg.images.has(image_key) => default.as_str(),
        _ => cfg
            .images
            .get(image_key, &format!("container {name} {whose}"))?,
    };
    container["image"] = json!(image);
    Ok(name)
}

/// One note per container that runs the provider's default image because images.json has no
/// entry for its key.
fn default_image_notes(cfg: &ClusterConfig, provider: &Provider) -> Vec<String> {
    let spec = provider.spec();
    spec.default_images
        .iter()
        .filter_map(|(container, image)| {
            let key = spec.images.get(container)?;
            (!cfg.images.has(key)).then(|| {
                format!(
                    "{}: no {key:?} entry: container {container} of the {} provider runs its default image {image} (provider.yaml spec.defaultImages); add the key to run another",
                    cfg.images.origin(),
                    provider.name()
                )
            })
        })
        .collect()
}

/// Sets the environment values the provider binds, and empties those of disabled gates.
fn set_env_values(container: &mut Value, cfg: &ClusterConfig, provider: &Provider) {
    let Some(env) = container.get_mut("env").and_then(Value::as_array_mut) else {
        return;
    };
    for var in env {
        let Some(var_name) = var.get("name").and_then(Value::as_str).map(str::to_string) else {
            continue;
        };
        if let Some(source) = provider.spec().env.get(&var_name) {
            let value = match source {
                EnvSource::InfrastructureName => cfg.infrastructure.infrastructure_name.as_str(),
                EnvSource::Namespace => cfg.namespace.as_str(),
            };
            var["value"] = json!(value);
        }
        for gated in &provider.spec().feature_gated {
            if gated.env.contains(&var_name)
                && !cfg.features.is_enabled(&gated.gate)
                && let Some(map) = var.as_object_mut()
            {
                map.remove("value");
            }
        }
    }
}

fn append_proxy_env(container: &mut Value, cfg: &ClusterConfig) {
    append_env(container, &cfg.proxy.variables());
}

fn append_env(container: &mut Value, variables: &[(&str, &str)]) {
    if variables.is_empty() {
        return;
    }
    let Some(map) = container.as_object_mut() else {
        return;
    };
    let env = map.entry("env").or_insert_with(|| json!([]));
    if let Some(env) = env.as_array_mut() {
        for (name, value) in variables {
            env.push(json!({ "name": *name, "value": *value }));
        }
    }
}

/// The PodDisruptionBudget (not on single-replica control planes) and the Service that CCCMO
/// adds after each provider's objects (pkg/cloud/common/resources.go).
fn common_objects(cfg: &ClusterConfig, provider: &Provider, common: &Common) -> Vec<Value> {
    let name = provider.spec().resource_name.as_str();
    let platform = cfg.infrastructure.platform.as_str();
    let mut out = Vec::with_capacity(2);
    if !cfg.infrastructure.single_replica {
        let mut pdb = common.pod_disruption_budget.clone();
        pdb["metadata"]["name"] = json!(name);
        pdb["metadata"]["namespace"] = json!(cfg.namespace);
        set_platform_labels(&mut pdb, platform);
        out.push(pdb);
    }
    let mut service = common.service.clone();
    service["metadata"]["name"] = json!(name);
    service["metadata"]["namespace"] = json!(cfg.namespace);
    service["metadata"]["labels"]["k8s-app"] = json!(name);
    set_platform_labels(&mut service, platform);
    out.push(service);
    out
}

/// Sets the platform label wherever it appears (object, selector, pod template, affinity).
fn set_platform_labels(value: &mut Value, platform: &str) {
    match value {
        Value::Object(map) => {
            for (key, item) in map.iter_mut() {
                if PLATFORM_LABELS.contains(&key.as_str()) && item.is_string() {
                    *item = json!(platform);
                } else {
                    set_platform_labels(item, platform);
                }
            }
        }
        Value::Array(items) => items
            .iter_mut()
            .for_each(|item| set_platform_labels(item, platform)),
        _ => {}
    }
}

/// Moves what CCCMO puts in its managed namespace to `namespace`: object namespaces, binding
/// subjects and the service-account user names in admission policy match conditions. (CCCMO
/// hard-codes the namespace in its templates; its `--namespace` only moves PDB and Service.)
fn move_namespace(object: &mut Value, namespace: &str) {
    if namespace == DEFAULT_NAMESPACE {
        return;
    }
    if ccm_catalogue::json_fields::at(object, &["metadata", "namespace"]).and_then(Value::as_str)
        == Some(DEFAULT_NAMESPACE)
    {
        object["metadata"]["namespace"] = json!(namespace);
    }
    if let Some(subjects) = object.get_mut("subjects").and_then(Value::as_array_mut) {
        for subject in subjects {
            if subject.get("namespace").and_then(Value::as_str) == Some(DEFAULT_NAMESPACE) {
                subject["namespace"] = json!(namespace);
            }
        }
    }
    if let Some(conditions) =
        ccm_catalogue::json_fields::at_mut(object, &["spec", "matchConditions"])
            .and_then(Value::as_array_mut)
    {
        let from = format!("system:serviceaccount:{DEFAULT_NAMESPACE}:");
        let to = format!("system:serviceaccount:{namespace}:");
        for condition in conditions {
            if let Some(expression) = condition.get("expression").and_then(Value::as_str) {
                let moved = expression.replace(&from, &to);
                condition["expression"] = json!(moved);
            }
        }
    }
}

/// The pod spec of a workload or Pod, if the object has one.
fn pod_spec(object: &Value) -> Option<&Value> {
    match ccm_catalogue::json_fields::kind_of(object) {
        "Pod" => object.get("spec"),
        _ => ccm_catalogue::json_fields::at(object, &["spec", "template", "spec"]),
    }
}

/// Every container and init container of an object (empty for objects without pods).
pub fn containers(object: &Value) -> Vec<&Value> {
    let Some(spec) = pod_spec(object) else {
        return Vec::new();
    };
    ["initContainers", "containers"]
        .iter()
        .filter_map(|key| spec.get(*key).and_then(Value::as_array))
        .flatten()
        .collect()
}

/// Every container of an object, mutable, with whether it is an init container.
fn containers_mut(object: &mut Value) -> Vec<(&mut Value, bool)> {
    let is_pod = ccm_catalogue::json_fields::kind_of(object) == "Pod";
    let spec = if is_pod {
        object.get_mut("spec")
    } else {
        ccm_catalogue::json_fields::at_mut(object, &["spec", "template", "spec"])
    };
    let Some(Value::Object(spec)) = spec else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (key, list) in spec.iter_mut() {
        let is_init = key == "initContainers";
        if (is_init || key == "containers")
            && let Some(list) = list.as_array_mut()
        {
            out.extend(list.iter_mut().map(|c| (c, is_init)));
        }
    }
    out
}
