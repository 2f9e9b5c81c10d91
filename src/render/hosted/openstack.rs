//! OpenStack's hosted CCM (HyperShift `cloud_controller_manager/openstack/`): the cloud config and
//! the trusted CA (`config.go`, from the credentials Secret `spec.platform.openstack.identityRef`
//! names, which HyperShift reads from the management cluster), and the Deployment's Secret, CA
//! bundle and infrastructure name (`deployment.go`).

use super::edit::{container, fill, not_an_adapter_of, push};
use crate::config::hosted::HostedConfig;
use crate::inputs::credentials::Secret;
use crate::inputs::hosted_control_plane::canonical_cidr;
use crate::inputs::hosted_control_plane::platform::OpenStack;
use anyhow::Result;
use ccm_catalogue::hosted::ManifestAdapter;
use ccm_catalogue::platform::HostedPlatform;
use serde_json::{Value, json};
use std::fmt::Write as _;

/// Runs the component's manifest adapter `adapt` on `object`.
pub(super) fn adapt_manifest(
    adapt: ManifestAdapter,
    openstack: &OpenStack,
    cfg: &HostedConfig,
    object: &mut Value,
) -> Result<()> {
    let secret = credentials(openstack, cfg)?;
    match adapt {
        ManifestAdapter::OpenstackCloudConfig => {
            trusted_ca(secret, object)?;
            fill(object, "cloud.conf", |_| {
                cloud_config(openstack, secret, cfg)
            })
        }
        ManifestAdapter::OpenstackTrustedCa => trusted_ca(secret, object),
        other => Err(not_an_adapter_of(other, HostedPlatform::OpenStack)),
    }
}

/// The credentials Secret (`spec.platform.openstack.identityRef.name`).
fn credentials<'a>(openstack: &OpenStack, cfg: &'a HostedConfig) -> Result<&'a Secret> {
    cfg.secret(
        &openstack.identity_ref.name,
        "spec.platform.openstack.identityRef.name",
    )
}

/// `ca-bundle.pem`: the Secret's `cacert`, when it has one.
fn trusted_ca(secret: &Secret, object: &mut Value) -> Result<()> {
    if let Some(ca) = secret.data.get("cacert") {
        object["data"]["ca-bundle.pem"] = json!(ca.text("cacert")?);
    }
    Ok(())
}

/// `cloud.conf` of OpenStack (HyperShift `openstack/config.go` `getCloudConfig`).
fn cloud_config(openstack: &OpenStack, secret: &Secret, cfg: &HostedConfig) -> Result<String> {
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
        .filter_map(|m| canonical_cidr(&m.cidr))
        .collect();
    let _ = write!(
        c,
        "\n[Networking]\naddress-sort-order = {}\n",
        cidrs.join(",")
    );
    Ok(c)
}

/// HyperShift `openstack/deployment.go`: the credentials Secret's volume, the CA bundle when the
/// Secret has one, and `OCP_INFRASTRUCTURE_NAME`.
pub(super) fn adapt_deployment(
    openstack: &OpenStack,
    cfg: &HostedConfig,
    deployment: &mut Value,
    name: &str,
) -> Result<()> {
    let secret = credentials(openstack, cfg)?;
    let has_ca = secret.data.contains_key("cacert");
    let pod = &mut deployment["spec"]["template"]["spec"];
    if has_ca {
        push(
            &mut pod["volumes"],
            json!({"name": "trusted-ca", "configMap": {
                "name": "openstack-trusted-ca",
                "items": [{"key": "ca-bundle.pem", "path": "ca-bundle.pem"}],
            }}),
        );
    }
    if let Some(Value::Array(volumes)) = pod.get_mut("volumes")
        && let Some(v) = volumes.iter_mut().find(|v| v["name"] == "secret-occm")
    {
        v["secret"]["secretName"] = json!(secret.name);
    }
    let c = container(deployment, name)?;
    let mut env = json!({"name": "OCP_INFRASTRUCTURE_NAME"});
    if !cfg.hcp.spec.infra_id.is_empty() {
        env["value"] = json!(cfg.hcp.spec.infra_id);
    }
    push(&mut c["env"], env);
    if has_ca {
        push(
            &mut c["volumeMounts"],
            json!({"name": "trusted-ca", "mountPath": "/etc/pki/ca-trust/extracted/pem", "readOnly": true}),
        );
    }
    Ok(())
}
