//! The adapters HyperShift's CCM components apply (`component.go`, `config.go`,
//! `deployment.go` of each platform), named by the catalogue (`spec.manifests[].adapt`,
//! `spec.deployment.adapt`); the cloud config text itself is [`super::cloud_config`].

use super::cloud_config;
use crate::config::hosted::HostedConfig;
use anyhow::{Result, anyhow, bail};
use base64::Engine as _;
use ccm_catalogue::hosted::{Component, DeploymentAdapter, ManifestAdapter};
use serde_json::{Value, json};

/// Runs the manifest adapter `adapt` on `object`.
pub(crate) fn adapt_manifest(
    adapt: ManifestAdapter,
    cfg: &HostedConfig,
    object: &mut Value,
) -> Result<()> {
    match adapt {
        ManifestAdapter::AwsCloudConfig => fill(object, "aws.conf", |t| cloud_config::aws(cfg, t)),
        ManifestAdapter::GcpCloudConfig => {
            fill(object, "cloud.conf", |t| cloud_config::gcp(cfg, t))
        }
        ManifestAdapter::PowervsCloudConfig => {
            fill(object, "ccm-config", |t| cloud_config::powervs(cfg, t))
        }
        ManifestAdapter::KubevirtCloudConfig => {
            fill(object, "cloud-config", |t| cloud_config::kubevirt(cfg, t))
        }
        ManifestAdapter::AzureCloudConfig => {
            fill(object, "cloud.conf", |_| cloud_config::azure(cfg, false))
        }
        ManifestAdapter::AzureCloudConfigSecret => {
            let text = cloud_config::azure(cfg, true)?;
            object["data"]["cloud.conf"] =
                json!(base64::engine::general_purpose::STANDARD.encode(text));
            Ok(())
        }
        ManifestAdapter::OpenstackCloudConfig => {
            if let Some(ca) = cloud_config::openstack_ca(cfg)? {
                object["data"]["ca-bundle.pem"] = json!(ca);
            }
            fill(object, "cloud.conf", |_| cloud_config::openstack(cfg))
        }
        ManifestAdapter::OpenstackTrustedCa => {
            if let Some(ca) = cloud_config::openstack_ca(cfg)? {
                object["data"]["ca-bundle.pem"] = json!(ca);
            }
            Ok(())
        }
        ManifestAdapter::AzureServiceAccount => azure_service_account(cfg, object),
        ManifestAdapter::AzureSecretProviderClass => azure_secret_provider_class(cfg, object),
    }
}

/// Replaces `data.<key>` (the template) with what `build` makes of it.
fn fill(object: &mut Value, key: &str, build: impl FnOnce(&str) -> Result<String>) -> Result<()> {
    let template = object["data"][key].as_str().unwrap_or_default().to_string();
    object["data"][key] = json!(build(&template)?);
    Ok(())
}

fn azure_service_account(cfg: &HostedConfig, object: &mut Value) -> Result<()> {
    let azure = cloud_config::azure_platform(cfg)?;
    let Some(wi) = &azure.azure_authentication_config.workload_identities else {
        bail!(
            "{}: spec.platform.azure.azureAuthenticationConfig.workloadIdentities is missing for a self-managed Azure control plane",
            cfg.hcp_path
        );
    };
    object["metadata"]["annotations"]["azure.workload.identity/client-id"] =
        json!(wi.cloud_provider.client_id);
    object["metadata"]["annotations"]["azure.workload.identity/tenant-id"] = json!(azure.tenant_id);
    Ok(())
}

/// HyperShift `secretproviderclass.ReconcileManagedAzureSecretProviderClass` of the cloud
/// provider's managed identity.
fn azure_secret_provider_class(cfg: &HostedConfig, object: &mut Value) -> Result<()> {
    let azure = cloud_config::azure_platform(cfg)?;
    let Some(mi) = &azure.azure_authentication_config.managed_identities else {
        bail!(
            "{}: spec.platform.azure.azureAuthenticationConfig.managedIdentities is missing for a managed Azure control plane (MANAGED_SERVICE=ARO-HCP)",
            cfg.hcp_path
        );
    };
    let cp = &mi.control_plane;
    let objects = format!(
        "\narray:\n  - |\n    objectName: {}\n    objectEncoding: {}\n    objectType: secret\n",
        cp.cloud_provider.credentials_secret_name, cp.cloud_provider.object_encoding
    );
    object["spec"] = json!({
        "provider": "azure",
        "parameters": {
            "usePodIdentity": "false",
            "useVMManagedIdentity": "true",
            "userAssignedIdentityID": cfg.env.get("ARO_HCP_KEY_VAULT_USER_CLIENT_ID"),
            "keyvaultName": cp.managed_identities_key_vault.name,
            "tenantId": cp.managed_identities_key_vault.tenant_id,
            "objects": objects,
        },
    });
    Ok(())
}

/// The CCM container of the Deployment.
fn container<'a>(deployment: &'a mut Value, name: &str) -> Result<&'a mut Value> {
    deployment["spec"]["template"]["spec"]["containers"]
        .as_array_mut()
        .and_then(|list| list.iter_mut().find(|c| c["name"] == name))
        .ok_or_else(|| anyhow!("the Deployment has no container {name}"))
}

pub(super) fn push(list: &mut Value, item: Value) {
    match list {
        Value::Array(items) => items.push(item),
        other => *other = json!([item]),
    }
}

/// The platform's Deployment adapter, then the proxy environment and the TLS flags where the
/// catalogue says the component has them.
pub(crate) fn adapt_deployment(
    component: &Component,
    cfg: &HostedConfig,
    deployment: &mut Value,
) -> Result<()> {
    let spec = &component.descriptor.spec;
    match spec.deployment.adapt {
        DeploymentAdapter::Azure => azure(cfg, deployment, &spec.container)?,
        DeploymentAdapter::Kubevirt => kubevirt(cfg, deployment, &spec.container)?,
        DeploymentAdapter::Openstack => openstack(cfg, deployment, &spec.container)?,
        DeploymentAdapter::Powervs => powervs(cfg, deployment)?,
        DeploymentAdapter::Aws | DeploymentAdapter::Gcp => {}
    }
    let c = container(deployment, &spec.container)?;
    if spec.deployment.proxy_env {
        proxy_env(cfg, c);
    }
    if spec.deployment.tls_args {
        for arg in &cfg.tls_args {
            push(&mut c["args"], json!(arg));
        }
    }
    Ok(())
}

/// HyperShift `proxy.SetEnvVars`: the operator's proxy, `kube-apiserver` added to the no-proxy
/// list (sorted, without duplicates) when there is a proxy.
fn proxy_env(cfg: &HostedConfig, c: &mut Value) {
    let http = cfg.env.get("HTTP_PROXY");
    let https = cfg.env.get("HTTPS_PROXY");
    let no_proxy = if http.is_empty() && https.is_empty() {
        String::new()
    } else {
        let mut names: Vec<&str> = vec!["kube-apiserver"];
        let given = cfg.env.get("NO_PROXY");
        if !given.is_empty() {
            names.extend(given.split(','));
        }
        names.sort_unstable();
        names.dedup();
        names.join(",")
    };
    for (name, value) in [
        ("HTTP_PROXY", http),
        ("HTTPS_PROXY", https),
        ("NO_PROXY", no_proxy.as_str()),
    ] {
        let env = c
            .as_object_mut()
            .map(|o| o.entry("env").or_insert_with(|| json!([])));
        let Some(Value::Array(env)) = env else {
            continue;
        };
        let at = env.iter().position(|e| e["name"] == name);
        match (at, value.is_empty()) {
            (Some(i), true) => {
                env.remove(i);
            }
            (Some(i), false) => env[i]["value"] = json!(value),
            (None, false) => env.push(json!({"name": name, "value": value})),
            (None, true) => {}
        }
    }
}

fn azure(cfg: &HostedConfig, deployment: &mut Value, name: &str) -> Result<()> {
    let managed = cfg.managed_azure();
    let c = container(deployment, name)?;
    push(
        &mut c["args"],
        json!(format!("--cluster-name={}", cfg.hcp.spec.infra_id)),
    );
    if managed {
        push(
            &mut c["volumeMounts"],
            json!({"name": "cloud-provider-cert", "mountPath": "/mnt/certs", "readOnly": true}),
        );
    }
    let pod = &mut deployment["spec"]["template"]["spec"];
    if managed {
        push(
            &mut pod["volumes"],
            json!({"name": "cloud-provider-cert", "csi": {
                "driver": "secrets-store.csi.k8s.io",
                "readOnly": true,
                "volumeAttributes": {"secretProviderClass": "managed-azure-cloud-provider"},
            }}),
        );
    } else {
        pod["serviceAccountName"] = json!("azure-cloud-controller-manager");
    }
    Ok(())
}

fn kubevirt(cfg: &HostedConfig, deployment: &mut Value, name: &str) -> Result<()> {
    let Some(cluster) = cfg.hcp.metadata.labels.get("cluster.x-k8s.io/cluster-name") else {
        bail!(
            "{}: metadata.labels.\"cluster.x-k8s.io/cluster-name\" is missing (the KubeVirt CCM's --cluster-name)",
            cfg.hcp_path
        );
    };
    let external = cfg
        .hcp
        .spec
        .platform
        .kubevirt
        .as_ref()
        .is_some_and(|k| k.credentials.is_some());
    if external {
        push(
            &mut deployment["spec"]["template"]["spec"]["volumes"],
            json!({"name": "infra-kubeconfig", "secret": {"secretName": "kubevirt-infra-credentials"}}),
        );
    }
    let c = container(deployment, name)?;
    push(&mut c["args"], json!(format!("--cluster-name={cluster}")));
    if external {
        push(
            &mut c["volumeMounts"],
            json!({"name": "infra-kubeconfig", "mountPath": "/etc/kubernetes/infra-kubeconfig"}),
        );
    }
    Ok(())
}

fn openstack(cfg: &HostedConfig, deployment: &mut Value, name: &str) -> Result<()> {
    let secret = cloud_config::openstack_secret(cfg)?;
    let has_ca = secret.data.contains_key("cacert");
    let secret_name = secret.name.clone();
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
        v["secret"]["secretName"] = json!(secret_name);
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

fn powervs(cfg: &HostedConfig, deployment: &mut Value) -> Result<()> {
    let Some(p) = &cfg.hcp.spec.platform.powervs else {
        bail!(
            "{}: spec.platform.powervs is missing for type PowerVS",
            cfg.hcp_path
        );
    };
    if let Some(Value::Array(volumes)) = deployment["spec"]["template"]["spec"].get_mut("volumes")
        && let Some(v) = volumes.iter_mut().find(|v| v["name"] == "cloud-creds")
        && let Some(secret) = v["secret"].as_object_mut()
    {
        let name = &p.kube_cloud_controller_creds.name;
        if name.is_empty() {
            secret.remove("secretName");
        } else {
            secret.insert("secretName".into(), json!(name));
        }
    }
    Ok(())
}
