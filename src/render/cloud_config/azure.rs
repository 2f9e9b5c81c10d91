//! The Azure and Azure Stack Hub transforms (CCCMO `pkg/cloud/azure/azure.go`, `pkg/cloud/azurestack/azurestack.go`): read `cloud.conf` as the JSON
//! `Config` struct of kubernetes-sigs/cloud-provider-azure (`pkg/provider/config/azure.go` and
//! the structs it embeds), apply `OpenShift`'s rules and write it back as Go's `json.Marshal`
//! would: compact, in struct order, zero values of `omitempty` fields left out.

use anyhow::{Context as _, Result, bail};
use ccm_catalogue::platform::Platform;
use ccm_catalogue::providers::Transform;
use serde_json::{Map, Value};

use super::context::{Context, Transformed, read_object, require_platform};
use super::infrastructure::Infrastructure;
use super::schema::{Field, Kind, Record, always, field};

/// Which flavour of Azure the transform serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cloud {
    /// Public, US Government, China and German clouds.
    Public,
    /// Azure Stack Hub.
    Stack,
}

const STACK: &str = "AzureStackCloud";

/// configv1.AzureCloudEnvironment values CCCMO accepts (pkg/cloud/azure/azure.go), sorted.
const VALID_CLOUDS: &[&str] = &[
    "AzureChinaCloud",
    "AzureGermanCloud",
    "AzurePublicCloud",
    STACK,
    "AzureUSGovernmentCloud",
];

const PROBE_MODE: &str = "clusterServiceLoadBalancerHealthProbeMode";

/// `RateLimitConfig`: the default and per-client rate limits.
const RATE_LIMIT: &[Field] = &[
    field("cloudProviderRateLimit", Kind::Bool),
    field("cloudProviderRateLimitQPS", Kind::Float),
    field("cloudProviderRateLimitBucket", Kind::Int),
    field("cloudProviderRateLimitQPSWrite", Kind::Float),
    field("cloudProviderRateLimitBucketWrite", Kind::Int),
];

const fn limit(name: &'static str) -> Field {
    field(name, Kind::OptStruct(RATE_LIMIT))
}

/// `Config` with its embedded structs flattened, in the order Go's encoding/json writes them:
/// `AzureClientConfig` (ARM client, backoff, auth, rate limits, caches, subscription) and then
/// `Config`'s own fields. Checked against CCCMO's output for the conformance cases.
const CONFIG: &[Field] = &[
    field("cloud", Kind::Str),
    field("userAgent", Kind::Str),
    field("resourceManagerEndpoint", Kind::Str),
    field("tenantId", Kind::Str),
    field("networkResourceTenantID", Kind::Str),
    field("cloudProviderBackoff", Kind::Bool),
    field("aadClientId", Kind::Str),
    field("aadClientSecret", Kind::Str),
    field("aadClientCertPath", Kind::Str),
    field("aadClientCertPassword", Kind::Str),
    field("useManagedIdentityExtension", Kind::Bool),
    field("userAssignedIdentityID", Kind::Str),
    field("aadFederatedTokenFile", Kind::Str),
    field("useFederatedWorkloadIdentityExtension", Kind::Bool),
    field("aadMSIDataPlaneIdentityPath", Kind::Str),
    field("auxiliaryTokenSecretURI", Kind::Str),
    field("cloudProviderRateLimit", Kind::Bool),
    field("cloudProviderRateLimitQPS", Kind::Float),
    field("cloudProviderRateLimitBucket", Kind::Int),
    field("cloudProviderRateLimitQPSWrite", Kind::Float),
    field("cloudProviderRateLimitBucketWrite", Kind::Int),
    always("Entries", Kind::Opaque),
    limit("routeRateLimit"),
    limit("subnetsRateLimit"),
    limit("interfaceRateLimit"),
    limit("routeTableRateLimit"),
    limit("loadBalancerRateLimit"),
    limit("publicIPAddressRateLimit"),
    limit("securityGroupRateLimit"),
    limit("virtualMachineRateLimit"),
    limit("storageAccountRateLimit"),
    limit("diskRateLimit"),
    limit("snapshotRateLimit"),
    limit("virtualMachineScaleSetRateLimit"),
    limit("virtualMachineSizesRateLimit"),
    limit("availabilitySetRateLimit"),
    limit("attachDetachDiskRateLimit"),
    limit("containerServiceRateLimit"),
    limit("deploymentRateLimit"),
    limit("privateDNSRateLimit"),
    limit("privateDNSZoneGroupRateLimit"),
    limit("privateEndpointRateLimit"),
    limit("privateLinkServiceRateLimit"),
    limit("virtualNetworkRateLimit"),
    field("disableAPICallCache", Kind::Bool),
    field("nonVmssUniformNodesCacheTTLInSeconds", Kind::Int),
    field("availabilitySetNodesCacheTTLInSeconds", Kind::Int),
    field("vmssCacheTTLInSeconds", Kind::Int),
    field("vmssVirtualMachinesCacheTTLInSeconds", Kind::Int),
    field("vmssVirtualMachineCacheInstanceView", Kind::Bool),
    field("vmssFlexCacheTTLInSeconds", Kind::Int),
    field("vmssFlexVMCacheTTLInSeconds", Kind::Int),
    field("vmCacheTTLInSeconds", Kind::Int),
    field("loadBalancerCacheTTLInSeconds", Kind::Int),
    field("nsgCacheTTLInSeconds", Kind::Int),
    field("routeTableCacheTTLInSeconds", Kind::Int),
    field("plsCacheTTLInSeconds", Kind::Int),
    field("availabilitySetsCacheTTLInSeconds", Kind::Int),
    field("publicIPCacheTTLInSeconds", Kind::Int),
    field("routeUpdateWaitingInSeconds", Kind::Int),
    field("cloudProviderBackoffRetries", Kind::Int),
    field("cloudProviderBackoffDuration", Kind::Int),
    field("subscriptionId", Kind::Str),
    field("identitySystem", Kind::Str),
    field("networkResourceSubscriptionID", Kind::Str),
    field("cloudConfigType", Kind::Str),
    field("resourceGroup", Kind::Str),
    field("location", Kind::Str),
    field("extendedLocationName", Kind::Str),
    field("extendedLocationType", Kind::Str),
    field("vnetName", Kind::Str),
    field("vnetResourceGroup", Kind::Str),
    field("subnetName", Kind::Str),
    field("securityGroupName", Kind::Str),
    field("securityGroupResourceGroup", Kind::Str),
    field("routeTableName", Kind::Str),
    field("routeTableResourceGroup", Kind::Str),
    field("primaryAvailabilitySetName", Kind::Str),
    field("vmType", Kind::Str),
    field("primaryScaleSetName", Kind::Str),
    field("tags", Kind::Str),
    field("tagsMap", Kind::StrMap),
    field("systemTags", Kind::Str),
    field("loadBalancerSku", Kind::Str),
    field("loadBalancerName", Kind::Str),
    field("loadBalancerResourceGroup", Kind::Str),
    field("preConfiguredBackendPoolLoadBalancerTypes", Kind::Str),
    field("disableAvailabilitySetNodes", Kind::Bool),
    field("enableVmssFlexNodes", Kind::Bool),
    field("disableAzureStackCloud", Kind::Bool),
    field("useInstanceMetadata", Kind::Bool),
    field("cloudProviderBackoffExponent", Kind::Float),
    field("cloudProviderBackoffJitter", Kind::Float),
    field("excludeMasterFromStandardLB", Kind::OptBool),
    field("disableOutboundSNAT", Kind::OptBool),
    field("maximumLoadBalancerRuleCount", Kind::Int),
    field("loadBalancerBackendPoolConfigurationType", Kind::Str),
    always("putVMSSVMBatchSize", Kind::Int),
    field("privateLinkServiceResourceGroup", Kind::Str),
    always("enableMigrateToIPBasedBackendPoolAPI", Kind::Bool),
    field("multipleStandardLoadBalancerConfigurations", Kind::Opaque),
    field("routeUpdateIntervalInSeconds", Kind::Int),
    field("loadBalancerBackendPoolUpdateIntervalInSeconds", Kind::Int),
    field(PROBE_MODE, Kind::Str),
    field("clusterServiceSharedLoadBalancerHealthProbePort", Kind::Int),
    field("clusterServiceSharedLoadBalancerHealthProbePath", Kind::Str),
];

/// The Azure (`Cloud::Public`) or Azure Stack Hub (`Cloud::Stack`) transform.
pub(crate) fn transform(source: &str, ctx: &Context<'_>, flavour: Cloud) -> Result<Transformed> {
    let name = match flavour {
        Cloud::Public => Transform::Azure,
        Cloud::Stack => Transform::AzureStack,
    };
    require_platform(ctx, Platform::Azure, name)?;
    // CCCMO's IsAzure dereferences platformStatus.azure without a nil check (docs/differences-from-cccmo.md); a
    // missing azure status is read here as an empty cloud name, i.e. the public cloud.
    let infra: Infrastructure = read_object(ctx.infrastructure, "Infrastructure")?;
    let infra_cloud = infra
        .status
        .and_then(|s| s.platform_status)
        .and_then(|p| p.azure)
        .and_then(|a| a.cloud_name)
        .unwrap_or_default();
    match flavour {
        Cloud::Stack if infra_cloud != STACK => bail!(
            "the azurestack cloud config transform needs status.platformStatus.azure.cloudName {STACK}, found {infra_cloud:?}"
        ),
        Cloud::Public if infra_cloud == STACK => bail!(
            "status.platformStatus.azure.cloudName is {STACK}: Azure Stack Hub needs the azurestack cloud config transform"
        ),
        _ => {}
    }
    let cloud = if infra_cloud.is_empty() {
        "AzurePublicCloud"
    } else if VALID_CLOUDS.contains(&infra_cloud.as_str()) {
        infra_cloud.as_str()
    } else {
        bail!(
            "status.platformStatus.azure.cloudName {infra_cloud:?} is not supported; supported values: {}",
            VALID_CLOUDS
                .iter()
                .map(|c| format!("{c:?}"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };

    let mut warnings = Vec::new();
    let mut config = Record::read(&parse(source)?, CONFIG, "", &mut warnings)?;

    if flavour == Cloud::Public {
        let given = config.str("cloud");
        if !given.is_empty() && !given.eq_ignore_ascii_case(cloud) {
            bail!(
                "cloud.conf \"cloud\" is {given:?} but status.platformStatus.azure.cloudName is {cloud:?}; they must name the same cloud"
            );
        }
        config.set("cloud", Value::from(cloud));
    }
    // CCCMO: an unset VM type means "standard" (OCPBUGS-25483, OCPBUGS-20213).
    if config.str("vmType").is_empty() {
        config.set("vmType", Value::from("standard"));
    }
    if flavour == Cloud::Public {
        // CCCMO: OpenShift always uses the shared health probe (kube-proxy's /healthz).
        let mode = config.str(PROBE_MODE);
        if !mode.is_empty() && mode != "shared" {
            warnings.push(format!(
                "{PROBE_MODE} {mode:?} replaced by \"shared\": OpenShift always uses the shared health probe"
            ));
        }
        config.set(PROBE_MODE, Value::from("shared"));
    }
    let mut object = config.to_object();
    if !ctx.behaviour.azure_entries {
        // CCCMO 4.18 read cloud.conf into cloud-provider-azure's older `provider.Config`, which
        // has no `Entries` field.
        object.remove("Entries");
    }
    Ok(Transformed {
        // CCCMO writes the config with json.Marshal.
        text: ccm_catalogue::go_encode::marshal(&Value::Object(object))?,
        warnings,
    })
}

/// The source as a JSON object. An empty source is read as `{}` (CCCMO fails on it; docs/differences-from-cccmo.md).
fn parse(source: &str) -> Result<Map<String, Value>> {
    if source.trim().is_empty() {
        return Ok(Map::new());
    }
    match serde_json::from_str::<Value>(source) {
        Ok(Value::Object(object)) => Ok(object),
        Ok(_) => bail!("the Azure cloud.conf must be a JSON object"),
        // serde_json's syntax errors give a line and column, never the text.
        Err(err) => Err(err).context("the Azure cloud.conf is not valid JSON"),
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use super::*;
    use pretty_assertions::assert_eq;
    use proptest::prelude::*;
    use serde_json::json;

    fn azure_infra(cloud_name: Option<&str>) -> Value {
        let mut infra = infra("Azure");
        if let Some(name) = cloud_name {
            infra["status"]["platformStatus"]["azure"] = json!({"cloudName": name});
        }
        infra
    }

    fn run(source: &str, cloud_name: Option<&str>, flavour: Cloud) -> Result<Transformed> {
        let infra = azure_infra(cloud_name);
        transform(source, &ctx(&infra, &no_gates), flavour)
    }

    fn value(source: &str, cloud_name: Option<&str>, flavour: Cloud) -> Value {
        let out = run(source, cloud_name, flavour).expect("transforms");
        serde_json::from_str(&out.text).expect("output is JSON")
    }

    fn always_present(mut extra: Value) -> Value {
        let object = extra.as_object_mut().expect("object");
        object.insert("Entries".into(), Value::Null);
        object.insert("putVMSSVMBatchSize".into(), json!(0));
        object.insert("enableMigrateToIPBasedBackendPoolAPI".into(), json!(false));
        extra
    }

    #[test]
    fn azure_empty_config_gets_cloud_vm_type_and_probe_mode() {
        let expected = always_present(json!({
            "cloud": "AzurePublicCloud", "vmType": "standard", PROBE_MODE: "shared",
        }));
        assert_eq!(
            value("{}", Some("AzurePublicCloud"), Cloud::Public),
            expected
        );
        assert_eq!(value("", Some("AzurePublicCloud"), Cloud::Public), expected);
    }

    #[test]
    fn azure_user_values_are_kept() {
        let out = value(
            r#"{"vmType": "vmss", "resourceGroup": "test-rg"}"#,
            None,
            Cloud::Public,
        );
        assert_eq!(out["vmType"], "vmss");
        assert_eq!(out["resourceGroup"], "test-rg");
    }

    #[test]
    fn azure_cloud_matching_the_infrastructure_is_kept() {
        for cloud in [
            "AzurePublicCloud",
            "AzureUSGovernmentCloud",
            "AzureChinaCloud",
            "AzureGermanCloud",
        ] {
            let source = json!({"cloud": cloud}).to_string();
            assert_eq!(value(&source, Some(cloud), Cloud::Public)["cloud"], cloud);
        }
    }

    #[test]
    fn azure_cloud_defaults_from_either_side() {
        let public = r#"{"cloud": "AzurePublicCloud"}"#;
        assert_eq!(
            value(public, Some(""), Cloud::Public)["cloud"],
            "AzurePublicCloud"
        );
        assert_eq!(
            value(public, None, Cloud::Public)["cloud"],
            "AzurePublicCloud"
        );
        assert_eq!(
            value("{}", Some("AzureUSGovernmentCloud"), Cloud::Public)["cloud"],
            "AzureUSGovernmentCloud"
        );
    }

    #[test]
    fn azure_cloud_compares_without_case_and_takes_the_infrastructure_spelling() {
        let out = value(
            r#"{"cloud": "AZUREPUBLICCLOUD"}"#,
            Some("AzurePublicCloud"),
            Cloud::Public,
        );
        assert_eq!(out["cloud"], "AzurePublicCloud");
    }

    #[test]
    fn azure_errors_are_one_line_and_say_where() {
        for (source, cloud, needle) in [
            (
                "{}",
                Some("AzureAnotherCloud"),
                "status.platformStatus.azure.cloudName \"AzureAnotherCloud\" is not supported; supported values: \"AzureChinaCloud\", \"AzureGermanCloud\", \"AzurePublicCloud\", \"AzureStackCloud\", \"AzureUSGovernmentCloud\"",
            ),
            (
                r#"{"cloud": "AzurePublicCloud"}"#,
                Some("AzureUSGovernmentCloud"),
                "cloud.conf \"cloud\" is \"AzurePublicCloud\" but status.platformStatus.azure.cloudName is \"AzureUSGovernmentCloud\"",
            ),
            (
                "{}",
                Some("AzureStackCloud"),
                "needs the azurestack cloud config transform",
            ),
            ("[1]", None, "must be a JSON object"),
            ("{\"aadClientSecret\": \"s3cr3t\",", None, "not valid JSON"),
            (
                r#"{"aadClientSecret": 12345}"#,
                None,
                "aadClientSecret must be a string",
            ),
            (
                r#"{"useInstanceMetadata": "s3cr3t"}"#,
                None,
                "useInstanceMetadata must be true or false",
            ),
        ] {
            let err = format!("{:#}", run(source, cloud, Cloud::Public).expect_err(source));
            assert!(err.contains(needle), "{err}");
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(!err.contains("s3cr3t") && !err.contains("12345"), "{err}");
        }
        let aws = infra("AWS");
        let err = transform("{}", &ctx(&aws, &no_gates), Cloud::Public).expect_err("aws");
        assert!(format!("{err:#}").contains("platform Azure"), "{err}");
    }

    #[test]
    fn azure_without_azure_status_is_the_public_cloud() {
        assert_eq!(
            value("{}", None, Cloud::Public)["cloud"],
            "AzurePublicCloud"
        );
    }

    #[test]
    fn azure_other_probe_mode_is_replaced_with_a_warning() {
        let out = run(
            r#"{"clusterServiceLoadBalancerHealthProbeMode": "servicenodeport"}"#,
            None,
            Cloud::Public,
        )
        .expect("ok");
        assert!(
            out.text
                .contains(r#""clusterServiceLoadBalancerHealthProbeMode":"shared""#)
        );
        assert_eq!(out.warnings.len(), 1, "{:?}", out.warnings);
    }

    #[test]
    fn azure_unknown_keys_are_dropped_with_a_warning_and_no_value() {
        let out = run(
            r#"{"mySecretThing": "s3cr3t", "tenantId": "t"}"#,
            None,
            Cloud::Public,
        )
        .expect("ok");
        assert!(!out.text.contains("mySecretThing"));
        assert_eq!(out.warnings, vec!["dropped unknown key mySecretThing"]);
    }

    #[test]
    fn azure_output_is_go_json_in_struct_order() {
        // The sync controller's test fixture, a fixed point of the transform.
        let canonical = r#"{"cloud":"AzurePublicCloud","tenantId":"0000000-0000-0000-0000-000000000000","Entries":null,"subscriptionId":"0000000-0000-0000-0000-000000000000","vmType":"standard","putVMSSVMBatchSize":0,"enableMigrateToIPBasedBackendPoolAPI":false,"clusterServiceLoadBalancerHealthProbeMode":"shared"}"#;
        assert_eq!(
            run(canonical, Some("AzurePublicCloud"), Cloud::Public)
                .expect("ok")
                .text,
            canonical
        );
        let out = run(
            r#"{"tags": "a=<b>&c", "excludeMasterFromStandardLB": false, "cloudProviderRateLimitQPS": 6.0, "routeRateLimit": {}}"#,
            None,
            Cloud::Public,
        )
        .expect("ok")
        .text;
        assert!(out.contains(r#""tags":"a=\u003cb\u003e\u0026c""#), "{out}");
        assert!(
            out.contains(r#""excludeMasterFromStandardLB":false"#),
            "{out}"
        );
        assert!(
            out.contains(r#""cloudProviderRateLimitQPS":6,"Entries":null,"routeRateLimit":{}"#),
            "{out}"
        );
    }

    #[test]
    fn azure_stack_only_defaults_the_vm_type() {
        let expected = always_present(json!({"vmType": "standard"}));
        assert_eq!(value("{}", Some(STACK), Cloud::Stack), expected);
        assert_eq!(
            value(r#"{"vmType": "vmss"}"#, Some(STACK), Cloud::Stack)["vmType"],
            "vmss"
        );
        let kept = value(
            r#"{"cloud": "AzureStackCloud", "clusterServiceLoadBalancerHealthProbeMode": "servicenodeport"}"#,
            Some(STACK),
            Cloud::Stack,
        );
        assert_eq!(kept[PROBE_MODE], "servicenodeport");
    }

    #[test]
    fn azure_stack_needs_the_stack_cloud() {
        let err = run("{}", Some("AzurePublicCloud"), Cloud::Stack).expect_err("public");
        assert!(
            format!("{err:#}")
                .contains("needs status.platformStatus.azure.cloudName AzureStackCloud"),
            "{err}"
        );
    }

    #[test]
    fn azure_conformance_cases_are_byte_for_byte() {
        for (platform, flavour) in [("azure", Cloud::Public), ("azurestackhub", Cloud::Stack)] {
            let infra = conformance_yaml(&format!("{platform}/infrastructure.yaml"));
            let out = transform(
                &conformance_source(platform),
                &ctx(&infra, &no_gates),
                flavour,
            )
            .expect("ok");
            assert_eq!(out.text, conformance_expected(platform), "{platform}");
            assert!(out.warnings.is_empty(), "{platform}: {:?}", out.warnings);
        }
    }

    fn azure_source() -> impl Strategy<Value = String> {
        let pair = prop_oneof![
            Just(("cloud", json!("azurepubliccloud"))),
            Just(("vmType", json!("vmss"))),
            Just(("vmType", json!(""))),
            Just(("Entries", json!({"x": 1}))),
            Just(("cloudProviderBackoffExponent", json!(1.5))),
            Just(("cloudProviderRateLimitQPS", json!(2.0))),
            Just(("excludeMasterFromStandardLB", json!(false))),
            Just((
                "routeRateLimit",
                json!({"cloudProviderRateLimit": true, "bogus": 1})
            )),
            Just(("tagsMap", json!({"a": "b&c"}))),
            Just(("unknownKey", json!(true))),
            Just((PROBE_MODE, json!("servicenodeport"))),
            "[^\u{0}]{0,12}".prop_map(|s| ("aadClientSecret", json!(s))),
        ];
        proptest::collection::vec(pair, 0..8).prop_map(|pairs| {
            let object: Map<String, Value> =
                pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
            Value::Object(object).to_string()
        })
    }

    proptest! {
        #[test]
        fn azure_transforms_are_idempotent(source in azure_source()) {
            for (cloud, flavour) in [("AzurePublicCloud", Cloud::Public), (STACK, Cloud::Stack)] {
                let once = run(&source, Some(cloud), flavour).expect("ok").text;
                let twice = run(&once, Some(cloud), flavour).expect("ok").text;
                prop_assert_eq!(&twice, &once);
            }
        }
    }
}
