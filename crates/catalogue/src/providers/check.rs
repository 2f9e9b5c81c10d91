//! The rules a provider follows, one function per part: the descriptor on its own, each object
//! of `manifests/` and `bootstrap/` against the descriptor, and a set of providers against each
//! other (every platform served by one provider). Errors start with the field; the caller adds
//! the file. build.rs, `provider check` and `--provider-dir` all check through these.

use super::descriptor::{
    API_VERSION, ConfigFormat, CredentialSource, CredentialsSpec, Descriptor, Provider,
    ProviderSpec,
};
use crate::platform::Platform;
use anyhow::{Context as _, Result, bail};
use serde_json::Value;

/// Checks a descriptor on its own; errors start with the field.
pub(crate) fn check_descriptor(d: &Descriptor, folder: &str) -> Result<()> {
    if d.api_version != API_VERSION {
        bail!(
            "apiVersion: must be {API_VERSION}, found {:?}",
            d.api_version
        );
    }
    if d.kind != "Provider" {
        bail!("kind: must be Provider, found {:?}", d.kind);
    }
    crate::validate::dns_label(&d.metadata.name).context("metadata.name")?;
    if d.metadata.name != folder {
        bail!(
            "metadata.name: {:?} differs from its folder {folder:?}",
            d.metadata.name
        );
    }
    let spec = &d.spec;
    check_platform(spec)?;
    crate::validate::dns_label(&spec.resource_name).context("spec.resourceName")?;
    check_images(spec)?;
    if let Some(name) = &spec.bootstrap.credentials.post_install_secret {
        crate::validate::dns_subdomain(name)
            .context("spec.bootstrap.credentials.postInstallSecret")?;
        if !spec
            .bootstrap
            .credentials
            .files
            .iter()
            .any(|f| matches!(f.from, CredentialSource::Key(_)))
        {
            bail!(
                "spec.bootstrap.credentials.postInstallSecret: {name:?} copies the keys of spec.bootstrap.credentials.files, which names none"
            );
        }
    }
    check_cloud_config(spec)?;
    if let Some(ccm) = &spec.ccm {
        super::command_line::check_spec(ccm)?;
    }
    check_credentials(&spec.bootstrap.credentials)?;
    check_cloud_config_defaults(spec)
}

/// A defaulted member is a path into a JSON document, named after an environment variable.
fn check_cloud_config_defaults(spec: &ProviderSpec) -> Result<()> {
    const FIELD: &str = "spec.bootstrap.cloudConfigDefaults";
    for (i, member) in spec.bootstrap.cloud_config_defaults.iter().enumerate() {
        let format = spec
            .cloud_config
            .format
            .or(ConfigFormat::of_transform(spec.cloud_config.transform));
        if format != Some(ConfigFormat::Json) {
            bail!(
                "{FIELD}[{i}]: only a JSON cloud config (spec.cloudConfig.format: json) has members to leave out"
            );
        }
        if member.path.is_empty() || member.path.iter().any(String::is_empty) {
            bail!("{FIELD}[{i}].path: needs one or more non-empty member names");
        }
        if member.env.is_empty() || member.env.contains(['=', '$', ' ']) {
            bail!(
                "{FIELD}[{i}].env: {:?} is not an environment variable name",
                member.env
            );
        }
        if member.source.trim().is_empty() {
            bail!("{FIELD}[{i}].source: say where the CCM defaults the member");
        }
    }
    Ok(())
}

/// The literal value a bootstrap pod's containers give environment variable `name`, if any
/// container sets it to one (a `valueFrom` has no value before the pod runs).
pub fn bootstrap_env_value<'a>(pod: &'a Value, name: &str) -> Option<&'a str> {
    pod.pointer("/spec/containers")
        .and_then(Value::as_array)?
        .iter()
        .filter_map(|c| c.get("env").and_then(Value::as_array))
        .flatten()
        .find(|e| e.get("name").and_then(Value::as_str) == Some(name))
        .and_then(|e| e.get("value"))
        .and_then(Value::as_str)
}

/// `spec.platform` and what goes with it: the external platform name, the CCM's
/// `--cloud-provider` name.
fn check_platform(spec: &ProviderSpec) -> Result<()> {
    match (
        &spec.external_platform_name,
        spec.platform == Platform::External,
    ) {
        (None, true) => bail!(
            "spec.externalPlatformName: required with platform External (the Infrastructure's spec.platformSpec.external.platformName it serves)"
        ),
        (Some(_), false) => bail!(
            "spec.externalPlatformName: only for platform External, not {}",
            spec.platform
        ),
        (Some(name), true) if name.is_empty() || name.chars().any(char::is_whitespace) => {
            bail!("spec.externalPlatformName: {name:?} must be a non-empty word")
        }
        _ => {}
    }
    if spec.cloud_provider.is_empty()
        || !spec
            .cloud_provider
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        bail!(
            "spec.cloudProvider: {:?} must be the CCM's --cloud-provider name (letters, digits, '-', '_')",
            spec.cloud_provider
        );
    }
    Ok(())
}

/// `spec.cloudConfig`: the Secret it may come from, its format, its file names.
fn check_cloud_config(spec: &ProviderSpec) -> Result<()> {
    if let Some(secret) = &spec.cloud_config.secret {
        crate::validate::dns_subdomain(&secret.name).context("spec.cloudConfig.secret.name")?;
        if !is_plain_file_name(&secret.key) {
            bail!(
                "spec.cloudConfig.secret.key: {:?} must be a plain file name ([A-Za-z0-9._-], not starting with a dot)",
                secret.key
            );
        }
    }
    if let (Some(fixed), Some(given)) = (
        ConfigFormat::of_transform(spec.cloud_config.transform),
        spec.cloud_config.format,
    ) && fixed != given
    {
        bail!(
            "spec.cloudConfig.format: {} contradicts the transform, which writes {}",
            given.name(),
            fixed.name()
        );
    }
    for file in spec.cloud_config.config_files.values() {
        if !is_plain_file_name(file) {
            bail!("spec.cloudConfig.configFiles: {file:?} must be a plain file name");
        }
    }
    Ok(())
}

fn is_plain_file_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
}

fn check_credentials(spec: &CredentialsSpec) -> Result<()> {
    const FIELD: &str = "spec.bootstrap.credentials";
    if spec.secrets.is_empty() {
        bail!("{FIELD}.secrets: name at least one Secret as namespace/name");
    }
    for (i, id) in spec.secrets.iter().enumerate() {
        let valid = id.split_once('/').is_some_and(|(ns, name)| {
            crate::validate::namespace(ns).is_ok() && crate::validate::dns_subdomain(name).is_ok()
        });
        if !valid {
            bail!("{FIELD}.secrets[{i}]: {id:?} is not namespace/name");
        }
    }
    match (spec.files.is_empty(), &spec.note) {
        (true, None) => bail!("{FIELD}: without files, a note must say why none is needed"),
        (false, Some(_)) => bail!("{FIELD}: note is only for providers without files"),
        _ => {}
    }
    let mut seen = std::collections::BTreeSet::new();
    for (i, file) in spec.files.iter().enumerate() {
        if !is_plain_file_name(&file.path) {
            bail!(
                "{FIELD}.files[{i}].path: {:?} must be a plain file name ([A-Za-z0-9._-], not starting with a dot)",
                file.path
            );
        }
        if !seen.insert(file.path.as_str()) {
            bail!("{FIELD}.files[{i}].path: {:?} is listed twice", file.path);
        }
    }
    Ok(())
}

/// Checks one object of `manifests/` or `bootstrap/` against the descriptor; errors start with
/// the field. Returns whether the object has the TLS container with the TLS anchor line.
pub(crate) fn check_object(
    object: &Value,
    spec: &ProviderSpec,
    is_bootstrap: bool,
) -> Result<bool> {
    if !object.is_object() {
        bail!("not a Kubernetes object (a YAML mapping)");
    }
    for field in ["apiVersion", "kind"] {
        if object
            .get(field)
            .and_then(Value::as_str)
            .is_none_or(str::is_empty)
        {
            bail!("{field}: missing");
        }
    }
    let name = crate::json_fields::name_of(object);
    // Names of most kinds are DNS subdomains; RBAC names only need to be a path segment
    // (`system:…`, `a:b`), so this checks what every kind shares.
    if name.is_empty() || name == "." || name == ".." || name.contains(['/', '%']) {
        bail!("metadata.name: {name:?} is not a valid object name");
    }
    if let Some(ns) = object.pointer("/metadata/namespace") {
        let ns = ns.as_str().unwrap_or_default();
        crate::validate::namespace(ns).context("metadata.namespace")?;
    }
    let kind = crate::json_fields::kind_of(object);
    if is_bootstrap {
        check_bootstrap_pod(object, spec)?;
    } else if matches!(kind, "Deployment" | "DaemonSet")
        && object
            .pointer("/spec/template/spec/containers")
            .and_then(Value::as_array)
            .is_none_or(Vec::is_empty)
    {
        bail!("spec.template.spec.containers: a {kind} needs at least one container");
    }
    let pod_path = if kind == "Pod" {
        "spec"
    } else {
        "spec.template.spec"
    };
    let mut tls_seen = false;
    for list in ["initContainers", "containers"] {
        let pointer = format!("/{}/{list}", pod_path.replace('.', "/"));
        let Some(containers) = object.pointer(&pointer).and_then(Value::as_array) else {
            continue;
        };
        for (i, container) in containers.iter().enumerate() {
            let field = format!("{pod_path}.{list}[{i}]");
            let cname = container
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default();
            if cname.is_empty() {
                bail!("{field}.name: missing");
            }
            if !spec.images.contains_key(cname) {
                bail!(
                    "{field}: container {cname:?} has no images.json key in provider.yaml spec.images"
                );
            }
            let script = container.pointer("/command/2").and_then(Value::as_str);
            if !is_bootstrap
                && list == "containers"
                && cname == spec.tls.container
                && let Some(script) = script
            {
                tls_seen |= crate::script::Script::parse(script).has(&spec.tls.before);
            }
        }
    }
    Ok(tls_seen)
}

/// The rules every bootstrap static pod follows (README "Bootstrap static pods"): a Pod in
/// kube-system, host paths only, no service account (a static pod cannot use one), and every
/// variable the cloud config defaults from (spec.bootstrap.cloudConfigDefaults) set to a value.
fn check_bootstrap_pod(pod: &Value, spec: &ProviderSpec) -> Result<()> {
    if crate::json_fields::kind_of(pod) != "Pod"
        || pod.get("apiVersion").and_then(Value::as_str) != Some("v1")
    {
        bail!("kind: every bootstrap object must be a v1 Pod (a static pod)");
    }
    if pod.pointer("/metadata/namespace").and_then(Value::as_str) != Some("kube-system") {
        bail!("metadata.namespace: a bootstrap pod runs in kube-system");
    }
    for field in ["serviceAccountName", "serviceAccount"] {
        if pod.pointer(&format!("/spec/{field}")).is_some() {
            bail!("spec.{field}: a static pod cannot use a service account");
        }
    }
    let volumes = pod.pointer("/spec/volumes").and_then(Value::as_array);
    for (i, volume) in volumes.into_iter().flatten().enumerate() {
        let sources: Vec<&String> = volume
            .as_object()
            .map(|m| m.keys().filter(|k| *k != "name").collect())
            .unwrap_or_default();
        if sources != ["hostPath"] {
            bail!("spec.volumes[{i}]: a static pod can only mount hostPath volumes");
        }
    }
    for member in &spec.bootstrap.cloud_config_defaults {
        if bootstrap_env_value(pod, &member.env).is_none_or(str::is_empty) {
            bail!(
                "spec.containers: spec.bootstrap.cloudConfigDefaults leaves {} to the CCM's default from {}, which no container of this pod sets to a value",
                member.path.join("."),
                member.env
            );
        }
    }
    Ok(())
}

/// Every platform (and Azure cloud, and External platform name) is served by one provider: which
/// one renders must never depend on names sorting. Checked for the built-in providers by build.rs
/// and again whenever `--provider-dir` adds some.
pub fn check_unambiguous<'a>(providers: impl IntoIterator<Item = &'a Provider>) -> Result<()> {
    let all: Vec<&Provider> = providers.into_iter().collect();
    for (i, a) in all.iter().enumerate() {
        for b in &all[i + 1..] {
            let (sa, sb) = (a.spec(), b.spec());
            let clash = sa.platform == sb.platform
                && if sa.platform == Platform::External {
                    sa.external_platform_name
                        .as_deref()
                        .is_some_and(|n| b.serves_external(n))
                } else {
                    sa.azure_cloud_name == sb.azure_cloud_name
                };
            if clash {
                let (first, second) = if a.origin.starts_with("assets/") {
                    (a, b)
                } else {
                    (b, a)
                };
                bail!(
                    "{}/provider.yaml: spec: serves what {} already serves (platform {}{}); name the folder {} to override it, or serve something else",
                    second.origin,
                    first.origin,
                    sa.platform,
                    sa.external_platform_name
                        .as_deref()
                        .map(|n| format!(", externalPlatformName {n}"))
                        .unwrap_or_default(),
                    first.name()
                );
            }
        }
    }
    Ok(())
}

/// `spec.images` and `spec.defaultImages`: every container named with a key; a default image
/// only for such a container, a valid reference that pins its version.
fn check_images(spec: &ProviderSpec) -> Result<()> {
    if spec.images.is_empty() {
        bail!("spec.images: name the images.json key of every container");
    }
    for (container, key) in &spec.images {
        if container.is_empty() || key.is_empty() {
            bail!(
                "spec.images: {container:?}: container name and images.json key must not be empty"
            );
        }
    }
    for (container, image) in &spec.default_images {
        if !spec.images.contains_key(container) {
            bail!(
                "spec.defaultImages: {container:?}: not a container of spec.images (a default image stands in for a container's images.json key)"
            );
        }
        crate::validate::image_reference(image)
            .with_context(|| format!("spec.defaultImages: {container:?}"))?;
        if !pins_a_version(image) {
            bail!(
                "spec.defaultImages: {container:?}: {image:?} names no tag or digest; a default image states the version it runs"
            );
        }
    }
    Ok(())
}

/// Whether an image reference names a tag (`:v1` after the last `/`) or a digest (`@sha256:`).
fn pins_a_version(image: &str) -> bool {
    image.contains('@')
        || image
            .rsplit('/')
            .next()
            .is_some_and(|last| last.contains(':'))
}
