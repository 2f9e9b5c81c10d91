//! Azure and Azure Stack Hub: the JSON the installer's `pkg/asset/manifests/azure`
//! `CloudProviderConfig.JSON()` writes under `config`, and on Azure Stack Hub the environment
//! under `endpoints`.
//!
//! Sources (openshift/installer): `pkg/asset/manifests/cloudproviderconfig.go` (newest stored
//! version, search index id 5687642073: the resource names below, `session.Credentials` for
//! the subscription and tenant, `json.Marshal(session.Environment)` under `endpoints` on
//! Stack); `pkg/asset/manifests/azure/cloudproviderconfig_test.go` (newest stored version,
//! index id 6579961715: the fields, their order and the constant values); `types.go` at commit
//! 12251e73 (`resourceManagerEndpoint`, omitempty, right after `subscriptionId`);
//! `pkg/types/azure/platform.go` (`NetworkSecurityGroupName` = `<infraID>-nsg`,
//! `ClusterResourceGroupName` = `resourceGroupName` or `<infraID>-rg`); the subnet from 4.21
//! the first of role `node` (`super::super::azure_subnets`).

use super::super::Azure;
use super::super::facts::{self, Missing, PlatformFacts};
use crate::config::install_config::azure_subnets;
use crate::config::install_config::installer_release::InstallerRelease;
use crate::config::install_config::types::AzureCloud;
use anyhow::{Context as _, Result, bail};
use serde_json::{Map, Value, json};

/// The Secret keys the installer's Azure credentials (and the CCM's own Secret) carry.
const SUBSCRIPTION_KEY: &str = "azure_subscription_id";
const TENANT_KEY: &str = "azure_tenant_id";

pub(crate) fn derive(
    p: &Azure,
    infra_id: &str,
    facts: &PlatformFacts,
    release: InstallerRelease,
    missing: &mut Missing,
    data: &mut Map<String, Value>,
) -> Result<()> {
    let stack = p.cloud_name == AzureCloud::Stack;
    let ids = subscription_and_tenant(facts, missing)?;
    let endpoints = if stack {
        if let Some(text) = &facts.azure_stack_endpoints {
            Some(stack_endpoints(text, &p.arm_endpoint)?)
        } else {
            missing.need(
                facts::AZURE_STACK_ENDPOINTS,
                "the Azure Stack Hub environment JSON the installer reads from the ARM endpoint",
            );
            None
        }
    } else {
        None
    };
    let Some((subscription, tenant)) = ids else {
        return Ok(());
    };
    let config = config_json(&Names::new(p, infra_id), p, &subscription, &tenant, release);
    data.insert(
        "config".into(),
        json!(ccm_catalogue::go_encode::encode_indented(&config, "\t")?),
    );
    if let Some(endpoints) = endpoints {
        data.insert("endpoints".into(), json!(endpoints));
    }
    Ok(())
}

/// The resource names (`cloudproviderconfig.go`): the install-config's, else the ones the
/// installer creates from the infrastructure name.
struct Names {
    resource_group: String,
    network_resource_group: String,
    vnet: String,
    subnet: String,
    security_group: String,
    route_table: String,
}

impl Names {
    fn new(p: &Azure, infra_id: &str) -> Self {
        let or = |given: &str, default: String| {
            if given.is_empty() {
                default
            } else {
                given.to_string()
            }
        };
        let resource_group = or(&p.resource_group_name, format!("{infra_id}-rg"));
        Self {
            network_resource_group: or(&p.network_resource_group_name, resource_group.clone()),
            resource_group,
            vnet: or(&p.virtual_network, format!("{infra_id}-vnet")),
            subnet: azure_subnets::node_subnet(p, infra_id),
            security_group: format!("{infra_id}-nsg"),
            route_table: format!("{infra_id}-node-routetable"),
        }
    }
}

/// The config, in the field order of the installer's struct. On Azure Stack Hub the VMs get no
/// managed identity (`pkg/asset/machines/azure`: `managedIdentity = ""` when `CloudName ==
/// StackCloud`) and the hub has no instance metadata service, so both are off, as in the Azure
/// Stack Hub conformance case's installer config; `resourceManagerEndpoint` is the ARM
/// endpoint there and omitted elsewhere.
///
/// By release (`azure/cloudproviderconfig.go` as openshift/installer-aro-wrapper vendors it on
/// `release-4.18`, installer commit 14cd7a64e088, and `release-4.19`, commit 7e30b7d6b421):
/// 4.18 turns the managed identity on everywhere but on Stack Hub, where it also sets
/// `loadBalancerSku` to `basic`; from 4.19 the identity follows whether the installer creates
/// one for the VMs (`UseManagedIdentity: CreateAzureIdentity()`) and Stack Hub keeps the
/// standard SKU.
fn config_json(
    names: &Names,
    p: &Azure,
    subscription: &str,
    tenant: &str,
    release: InstallerRelease,
) -> Value {
    let stack = p.cloud_name == AzureCloud::Stack;
    let is_4_18 = release.azure_generator_of_4_18();
    let managed_identity = if is_4_18 { !stack } else { p.creates_identity };
    let mut config = Map::new();
    let mut put = |key: &str, value: Value| {
        config.insert(key.into(), value);
    };
    put("cloud", json!(p.cloud_name.as_str()));
    put("tenantId", json!(tenant));
    for key in [
        "aadClientId",
        "aadClientSecret",
        "aadClientCertPath",
        "aadClientCertPassword",
    ] {
        put(key, json!(""));
    }
    put("useManagedIdentityExtension", json!(managed_identity));
    put("userAssignedIdentityID", json!(""));
    put("subscriptionId", json!(subscription));
    if stack {
        put("resourceManagerEndpoint", json!(p.arm_endpoint));
    }
    put("resourceGroup", json!(names.resource_group));
    put("location", json!(p.region));
    put("vnetName", json!(names.vnet));
    put("vnetResourceGroup", json!(names.network_resource_group));
    put("subnetName", json!(names.subnet));
    put("securityGroupName", json!(names.security_group));
    put("routeTableName", json!(names.route_table));
    put("vmType", json!("standard"));
    put(
        "loadBalancerSku",
        json!(if stack && is_4_18 {
            "basic"
        } else {
            "standard"
        }),
    );
    put("cloudProviderBackoff", json!(true));
    put("useInstanceMetadata", json!(!stack));
    put("excludeMasterFromStandardLB", json!(false));
    put("cloudProviderBackoffDuration", json!(6));
    put("putVMSSVMBatchSize", json!(0));
    put("enableMigrateToIPBasedBackendPoolAPI", json!(false));
    Value::Object(config)
}

/// The subscription and tenant IDs from the credentials, or a note of what is missing. The
/// values never reach a message.
fn subscription_and_tenant(
    facts: &PlatformFacts,
    missing: &mut Missing,
) -> Result<Option<(String, String)>> {
    let Some(credentials) = &facts.credentials else {
        missing.need(
            facts::CREDENTIALS,
            format!(
                "the installer's Azure credentials Secret, for {SUBSCRIPTION_KEY} and {TENANT_KEY}"
            ),
        );
        return Ok(None);
    };
    let absent: Vec<&str> = [SUBSCRIPTION_KEY, TENANT_KEY]
        .into_iter()
        .filter(|key| facts.secret_value(key).is_none())
        .collect();
    if !absent.is_empty() {
        missing.need(
            facts::CREDENTIALS,
            format!(
                "no Secret in {} holds {}",
                credentials.path,
                absent.join(" or ")
            ),
        );
        return Ok(None);
    }
    let text = |key: &str| -> Result<String> {
        let value = facts
            .secret_value(key)
            .map(|v| v.text(&format!("{}: {key}", credentials.path)));
        let text = value.transpose()?.unwrap_or_default().trim().to_string();
        if text.is_empty() || text.chars().any(char::is_control) {
            bail!("{}: {key}: empty or not a single line", credentials.path);
        }
        Ok(text)
    };
    Ok(Some((text(SUBSCRIPTION_KEY)?, text(TENANT_KEY)?)))
}

/// `--azure-stack-endpoints`: a JSON object, written compact as Go's `json.Marshal` writes it.
/// The installer builds it from the ARM endpoint, so a `resourceManagerEndpoint` naming another
/// hub means the wrong file.
fn stack_endpoints(text: &str, arm_endpoint: &str) -> Result<String> {
    let value: Value = serde_json::from_str(text)
        .with_context(|| format!("{}: not valid JSON", facts::AZURE_STACK_ENDPOINTS))?;
    if !value.is_object() {
        bail!(
            "{}: expected a JSON object (the go-autorest Environment)",
            facts::AZURE_STACK_ENDPOINTS
        );
    }
    if let Some(endpoint) = value.get("resourceManagerEndpoint").and_then(Value::as_str)
        && endpoint.trim_end_matches('/') != arm_endpoint.trim_end_matches('/')
    {
        bail!(
            "{}: resourceManagerEndpoint {endpoint:?} is not platform.azure.armEndpoint {arm_endpoint:?}",
            facts::AZURE_STACK_ENDPOINTS
        );
    }
    Ok(serde_json::to_string(&value)?
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn public() -> Azure {
        Azure {
            region: "westeurope".into(),
            cloud_name: AzureCloud::Public,
            // What the parser fills in when no pool names an identity.
            creates_identity: true,
            ..Azure::default()
        }
    }

    /// installer pkg/asset/manifests/azure/cloudproviderconfig_test.go (index id 6579961715):
    /// the expected JSON for infraID `clusterid`, with the names it passes in (its test gives
    /// the security group `clusterid-node-nsg` explicitly; the asset uses `<infraID>-nsg`).
    #[test]
    fn public_cloud_json_is_the_installers_test_output() {
        let mut names = Names::new(&public(), "clusterid");
        names.security_group = "clusterid-node-nsg".into();
        let config = config_json(
            &names,
            &public(),
            "subID",
            "tenantID",
            InstallerRelease::default(),
        );
        let text = ccm_catalogue::go_encode::encode_indented(&config, "\t").expect("json");
        let expected = "{\n\t\"cloud\": \"AzurePublicCloud\",\n\t\"tenantId\": \"tenantID\",\n\t\"aadClientId\": \"\",\n\t\"aadClientSecret\": \"\",\n\t\"aadClientCertPath\": \"\",\n\t\"aadClientCertPassword\": \"\",\n\t\"useManagedIdentityExtension\": true,\n\t\"userAssignedIdentityID\": \"\",\n\t\"subscriptionId\": \"subID\",\n\t\"resourceGroup\": \"clusterid-rg\",\n\t\"location\": \"westeurope\",\n\t\"vnetName\": \"clusterid-vnet\",\n\t\"vnetResourceGroup\": \"clusterid-rg\",\n\t\"subnetName\": \"clusterid-worker-subnet\",\n\t\"securityGroupName\": \"clusterid-node-nsg\",\n\t\"routeTableName\": \"clusterid-node-routetable\",\n\t\"vmType\": \"standard\",\n\t\"loadBalancerSku\": \"standard\",\n\t\"cloudProviderBackoff\": true,\n\t\"useInstanceMetadata\": true,\n\t\"excludeMasterFromStandardLB\": false,\n\t\"cloudProviderBackoffDuration\": 6,\n\t\"putVMSSVMBatchSize\": 0,\n\t\"enableMigrateToIPBasedBackendPoolAPI\": false\n}\n";
        assert_eq!(text, expected);
    }

    #[test]
    fn user_names_win_over_the_infrastructure_name() {
        let p = Azure {
            resource_group_name: "rg".into(),
            network_resource_group_name: "net-rg".into(),
            virtual_network: "vnet".into(),
            compute_subnet: "workers".into(),
            ..public()
        };
        let names = Names::new(&p, "c-x");
        assert_eq!(names.resource_group, "rg");
        assert_eq!(names.network_resource_group, "net-rg");
        assert_eq!(names.vnet, "vnet");
        assert_eq!(names.subnet, "workers");
        assert_eq!(names.security_group, "c-x-nsg");
        // The network resource group defaults to the cluster's.
        assert_eq!(
            Names::new(&public(), "c-x").network_resource_group,
            "c-x-rg"
        );
    }

    #[test]
    fn azure_stack_hub_points_at_the_arm_endpoint_without_identity_or_metadata() {
        let p = Azure {
            cloud_name: AzureCloud::Stack,
            arm_endpoint: "https://management.local.azurestack.external".into(),
            // The parser's: never on Azure Stack Hub.
            creates_identity: false,
            ..public()
        };
        let config = config_json(
            &Names::new(&p, "c-x"),
            &p,
            "s",
            "t",
            InstallerRelease::default(),
        );
        assert_eq!(config["cloud"], "AzureStackCloud");
        assert_eq!(
            config["resourceManagerEndpoint"],
            "https://management.local.azurestack.external"
        );
        assert_eq!(config["useManagedIdentityExtension"], false);
        assert_eq!(config["useInstanceMetadata"], false);
        let keys: Vec<&String> = config.as_object().expect("map").keys().collect();
        let at = keys
            .iter()
            .position(|k| *k == "subscriptionId")
            .expect("key");
        assert_eq!(keys[at + 1], "resourceManagerEndpoint");
        assert!(
            config_json(
                &Names::new(&public(), "c-x"),
                &public(),
                "s",
                "t",
                InstallerRelease::default()
            )
            .get("resourceManagerEndpoint")
            .is_none()
        );
    }

    #[test]
    fn the_4_18_installer_always_used_the_managed_identity_and_a_basic_sku_on_stack_hub() {
        let at = |name| InstallerRelease::of(name).expect("a release");
        let at_4_18 = at("4.18");
        let newest = InstallerRelease::default();
        let own_identity = Azure {
            creates_identity: false,
            ..public()
        };
        let config = |p: &Azure, release| config_json(&Names::new(p, "c-x"), p, "s", "t", release);
        assert_eq!(
            config(&own_identity, at_4_18)["useManagedIdentityExtension"],
            true
        );
        assert_eq!(
            config(&own_identity, newest)["useManagedIdentityExtension"],
            false
        );
        assert_eq!(
            config(&public(), newest)["useManagedIdentityExtension"],
            true
        );
        let stack = Azure {
            cloud_name: AzureCloud::Stack,
            arm_endpoint: "https://management.hub".into(),
            creates_identity: false,
            ..public()
        };
        assert_eq!(config(&stack, at_4_18)["loadBalancerSku"], "basic");
        assert_eq!(
            config(&stack, at_4_18)["useManagedIdentityExtension"],
            false
        );
        assert_eq!(config(&stack, at("4.19"))["loadBalancerSku"], "standard");
    }

    #[test]
    fn stack_endpoints_are_written_compact() {
        let arm = "https://management.hub";
        assert_eq!(
            stack_endpoints(
                "{\n  \"name\": \"AzureStackCloud\",\n  \"resourceManagerEndpoint\": \"https://management.hub/\",\n  \"x\": \"a&b\"\n}",
                arm
            )
            .expect("ok"),
            r#"{"name":"AzureStackCloud","resourceManagerEndpoint":"https://management.hub/","x":"a\u0026b"}"#
        );
        assert!(stack_endpoints("[1]", arm).is_err());
        assert!(stack_endpoints("{", arm).is_err());
        let err = stack_endpoints(r#"{"resourceManagerEndpoint": "https://other"}"#, arm)
            .expect_err("another hub");
        assert!(
            format!("{err:#}").contains("is not platform.azure.armEndpoint"),
            "{err}"
        );
    }
}
