//! Azure's hosted CCM (HyperShift `cloud_controller_manager/azure/`): the cloud config, as a
//! ConfigMap and as a Secret (`config.go` `azureConfig`), the workload identity of the CCM's
//! ServiceAccount or, for managed Azure (ARO-HCP), the SecretProviderClass of its managed
//! identity (`component.go`), and the Deployment's cluster name and certificate volume
//! (`deployment.go`). Which of the two the control plane is comes from its authentication type
//! (`spec.platform.azure.azureAuthenticationConfig`).

use super::edit::{container, fill, not_an_adapter_of, push};
use super::probe;
use crate::config::hosted::HostedConfig;
use crate::inputs::hosted_control_plane::platform::{Azure, AzureAuthentication, AzureSpec};
use anyhow::Result;
use base64::Engine as _;
use ccm_catalogue::hosted::ManifestAdapter;
use ccm_catalogue::platform::HostedPlatform;
use serde_json::{Value, json};

/// Where a self-managed control plane's token-minter writes the CCM's token.
const TOKEN_FILE: &str = "/var/run/secrets/openshift/serviceaccount/token";

/// Runs the component's manifest adapter `adapt` on `object`.
pub(super) fn adapt_manifest(
    adapt: ManifestAdapter,
    spec: &AzureSpec,
    cfg: &HostedConfig,
    object: &mut Value,
) -> Result<()> {
    let azure = &spec.block;
    match adapt {
        ManifestAdapter::AzureCloudConfig => {
            fill(object, "cloud.conf", |_| cloud_config(spec, cfg, false))
        }
        ManifestAdapter::AzureCloudConfigSecret => {
            let text = cloud_config(spec, cfg, true)?;
            object["data"]["cloud.conf"] =
                json!(base64::engine::general_purpose::STANDARD.encode(text));
            Ok(())
        }
        ManifestAdapter::AzureServiceAccount => {
            service_account(azure, object);
            Ok(())
        }
        ManifestAdapter::AzureSecretProviderClass => {
            secret_provider_class(azure, cfg, object);
            Ok(())
        }
        other => Err(not_an_adapter_of(other, HostedPlatform::Azure)),
    }
}

/// The CCM's ServiceAccount of a self-managed control plane: its workload identity. (A managed
/// one has no such ServiceAccount: its predicate leaves it out.)
fn service_account(azure: &Azure, object: &mut Value) {
    if let AzureAuthentication::WorkloadIdentities(wi) = &azure.azure_authentication_config {
        object["metadata"]["annotations"]["azure.workload.identity/client-id"] =
            json!(wi.cloud_provider.client_id);
        object["metadata"]["annotations"]["azure.workload.identity/tenant-id"] =
            json!(azure.tenant_id);
    }
}

/// HyperShift `secretproviderclass.ReconcileManagedAzureSecretProviderClass` of the cloud
/// provider's managed identity. (Only a managed control plane has it: its predicate leaves it
/// out otherwise.)
fn secret_provider_class(azure: &Azure, cfg: &HostedConfig, object: &mut Value) {
    let AzureAuthentication::ManagedIdentities(mi) = &azure.azure_authentication_config else {
        return;
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
}

/// `cloud.conf` of Azure (HyperShift `azure/config.go` `azureConfig`), for the ConfigMap or,
/// `with_credentials`, the Secret.
fn cloud_config(spec: &AzureSpec, cfg: &HostedConfig, with_credentials: bool) -> Result<String> {
    let azure = &spec.block;
    let (subnet, nsg, vnet) = (
        &spec.network.subnet,
        &spec.network.security_group,
        &spec.network.vnet,
    );
    let probe = probe::read(cfg, probe::AZURE_PROBE_MODE, ["shared", "servicenodeport"])?;
    let auth = Auth::of(&azure.azure_authentication_config, with_credentials);
    let s = |v: &str| json!(v);
    let mut fields = vec![
        ("cloud", s(&azure.cloud)),
        ("tenantId", s(&azure.tenant_id)),
        ("useManagedIdentityExtension", json!(auth.managed_identity)),
        (
            "useFederatedWorkloadIdentityExtension",
            json!(auth.workload_identity),
        ),
        ("subscriptionId", s(&azure.subscription_id)),
        ("aadClientId", s(auth.client_id)),
        ("aadClientSecret", s("")),
        ("aadClientCertPath", s("")),
        ("aadFederatedTokenFile", s(auth.token_file)),
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
            .and_then(Value::as_str)
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

/// How the Azure CCM authenticates, as the cloud config says it: a self-managed control plane
/// with workload identity, a managed one with its managed identity (the Secret: its
/// certificate only).
struct Auth<'a> {
    client_id: &'a str,
    token_file: &'a str,
    msi_path: String,
    managed_identity: bool,
    workload_identity: bool,
    instance_metadata: bool,
}

impl<'a> Auth<'a> {
    fn of(authentication: &'a AzureAuthentication, with_credentials: bool) -> Self {
        match authentication {
            AzureAuthentication::WorkloadIdentities(wi) => Auth {
                client_id: &wi.cloud_provider.client_id,
                token_file: TOKEN_FILE,
                msi_path: String::new(),
                managed_identity: false,
                workload_identity: true,
                instance_metadata: true,
            },
            // The Secret of a managed control plane authenticates with its certificate only.
            AzureAuthentication::ManagedIdentities(mi) if with_credentials => Auth {
                client_id: "",
                token_file: "",
                msi_path: format!(
                    "/mnt/certs/{}",
                    mi.control_plane.cloud_provider.credentials_secret_name
                ),
                managed_identity: false,
                workload_identity: false,
                instance_metadata: false,
            },
            AzureAuthentication::ManagedIdentities(_) => Auth {
                client_id: "",
                token_file: "",
                msi_path: String::new(),
                managed_identity: true,
                workload_identity: false,
                instance_metadata: true,
            },
        }
    }
}

/// HyperShift `azure/deployment.go`: the CCM's `--cluster-name`, and the managed identity's
/// certificate (managed Azure) or the CCM's own ServiceAccount (self-managed).
pub(super) fn adapt_deployment(
    spec: &AzureSpec,
    cfg: &HostedConfig,
    deployment: &mut Value,
    name: &str,
) -> Result<()> {
    let managed = matches!(
        spec.block.azure_authentication_config,
        AzureAuthentication::ManagedIdentities(_)
    );
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
