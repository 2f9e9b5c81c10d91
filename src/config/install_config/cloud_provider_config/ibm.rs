//! IBM Cloud (VPC) and PowerVS: the gcfg text of the installer's
//! `pkg/asset/manifests/ibmcloud/cloudproviderconfig.go` and
//! `pkg/asset/manifests/powervs/cloudproviderconfig.go`, with the arguments
//! `pkg/asset/manifests/cloudproviderconfig.go` gives them.
//!
//! Sources (openshift/installer, newest stored versions; the search index gives no commit for
//! them, so its ids are cited): `cloudproviderconfig.go` id 5687642073 (the account ID, subnet
//! and zone lookups, the PowerVS VPC region, VPC name, subnets and workspace);
//! `ibmcloud/cloudproviderconfig.go` id 5733257408 and its test id 6556648557 (the template
//! with endpoint overrides, whose test expects two newlines after them; id 23891795086 is the
//! older test of the template without);
//! `powervs/cloudproviderconfig.go` id 3497405485 (every key always written, endpoint
//! overrides); `pkg/types/powervs/powervs_regions.go` id 3596816927 (the VPC region and zones
//! of each PowerVS region); `pkg/infrastructure/platform/platform.go` id 5712447425 (PowerVS
//! always installs through Cluster API, so default subnets are the CAPI ones).

use super::super::facts::{self, Missing, PlatformFacts};
use super::super::{IbmCloud, PowerVs, ServiceEndpoint};
use crate::config::install_config::installer_release::InstallerRelease;
use anyhow::{Result, anyhow};
use serde_json::{Map, Value, json};
use std::fmt::Write as _;

/// The account ID the installer reads from the API key's account: the `a/<account>` scope of
/// an IBM CRN (`crn:v1:<cname>:<ctype>:<service>:<location>:a/<account>:<instance>:…`).
pub(crate) fn account_of(crn: &str) -> Result<String> {
    crn.split(':')
        .nth(6)
        .and_then(|scope| scope.strip_prefix("a/"))
        .filter(|account| !account.is_empty())
        .map(String::from)
        .ok_or_else(|| {
            anyhow!(
                "{}: {crn:?} has no a/<account> scope (its 7th field), which the account ID is read from",
                facts::IBM_INSTANCE_CRN
            )
        })
}

fn account(crn: Option<&str>, missing: &mut Missing) -> Result<Option<String>> {
    if let Some(crn) = crn {
        return account_of(crn).map(Some);
    }
    missing.need(
        facts::IBM_INSTANCE_CRN,
        "an IBM CRN of the cluster's account; its a/<account> scope is the account ID",
    );
    Ok(None)
}

/// What both derivations read besides their own platform section: the caller passes the same
/// three to `ibmcloud.CloudProviderConfig` and `powervs.CloudProviderConfig`
/// (`pkg/asset/manifests/cloudproviderconfig.go`).
#[derive(Clone, Copy)]
pub(crate) struct Cluster<'a> {
    pub(crate) infra_id: &'a str,
    /// `--ibm-instance-crn`, the account ID's source.
    pub(crate) crn: Option<&'a str>,
    pub(crate) facts: &'a PlatformFacts,
    /// The installer of the release rendered: PowerVS's template gained
    /// `rmEndpointOverride` at 4.19.
    pub(crate) release: InstallerRelease,
}

pub(crate) fn ibmcloud(
    p: &IbmCloud,
    cluster: Cluster<'_>,
    missing: &mut Missing,
    data: &mut Map<String, Value>,
) -> Result<()> {
    let Cluster {
        infra_id,
        crn,
        facts,
        ..
    } = cluster;
    let account = account(crn, missing)?;
    // Existing subnets are named in the install-config; the installer looks them up by name,
    // control plane first, and writes their names.
    let mut subnets: Vec<String> = p
        .control_plane_subnets
        .iter()
        .chain(&p.compute_subnets)
        .cloned()
        .collect();
    if subnets.is_empty() {
        // Else the subnets the installer creates, one per zone and role; a pool without zones
        // gets every zone of the region, which the installer asks the VPC API for.
        let zones = |own: &[String]| -> Option<Vec<String>> {
            if own.is_empty() {
                facts.ibmcloud_zones.clone()
            } else {
                Some(own.to_vec())
            }
        };
        match (zones(&p.control_plane_zones), zones(&p.compute_zones)) {
            (Some(control_plane), Some(compute)) => {
                subnets = generated_subnets(infra_id, &control_plane, &compute);
            }
            _ => missing.need(
                facts::IBMCLOUD_ZONES,
                format!(
                    "the zones of region {}, for the pools that name none",
                    p.region
                ),
            ),
        }
    }
    let Some(account) = account else {
        return Ok(());
    };
    if subnets.is_empty() {
        return Ok(());
    }
    let resource_group = if p.resource_group_name.is_empty() {
        infra_id
    } else {
        &p.resource_group_name
    };
    let vpc = if p.vpc_name.is_empty() {
        format!("{infra_id}-vpc")
    } else {
        p.vpc_name.clone()
    };
    let mut text = provider_head(&account, infra_id, &p.region, resource_group, &vpc);
    let _ = writeln!(text, "g2VpcSubnetNames = {}", subnets.join(","));
    let overrides = ibmcloud_overrides(&p.service_endpoints);
    for (key, value) in [
        ("iamEndpointOverride", overrides.iam),
        ("g2EndpointOverride", overrides.vpc),
        ("rmEndpointOverride", overrides.resource_manager),
    ] {
        if !value.is_empty() {
            let _ = writeln!(text, "{key} = {value}");
        }
    }
    // The template's last line ends after the overrides, and a blank line follows it before
    // the closing backtick: two newlines whatever the overrides (installer
    // `pkg/asset/manifests/ibmcloud/cloudproviderconfig.go` since PR #7632, 4.15; its test
    // expects `g2VpcSubnetNames = …\n\n\n` without overrides).
    text.push_str("\n\n");
    data.insert("config".into(), json!(text));
    Ok(())
}

/// `getVpcSubnetNames`: `<infraID>-subnet-control-plane-<zone>` and
/// `<infraID>-subnet-compute-<zone>`, sorted.
fn generated_subnets(infra_id: &str, control_plane: &[String], compute: &[String]) -> Vec<String> {
    let mut names: Vec<String> = control_plane
        .iter()
        .map(|zone| format!("{infra_id}-subnet-control-plane-{zone}"))
        .chain(
            compute
                .iter()
                .map(|zone| format!("{infra_id}-subnet-compute-{zone}")),
        )
        .collect();
    names.sort();
    names
}

/// The service endpoint overrides the IBM Cloud CCM reads ("" where none is given).
#[derive(Debug, Default, PartialEq)]
struct Overrides {
    iam: String,
    /// Without its `/v<N>` suffix: the CCM appends it.
    vpc: String,
    resource_manager: String,
}

/// The IAM, VPC and ResourceManager overrides of `endpoints`.
fn ibmcloud_overrides(endpoints: &[ServiceEndpoint]) -> Overrides {
    let mut overrides = Overrides::default();
    for e in endpoints {
        match e.name.as_str() {
            "IAM" => overrides.iam.clone_from(&e.url),
            "VPC" => overrides.vpc = trim_version(&e.url).to_string(),
            "ResourceManager" => overrides.resource_manager.clone_from(&e.url),
            _ => {}
        }
    }
    overrides
}

/// The regex `(^.*)/v\d+[/]{0,1}$` replaced by its group: a trailing `/v<digits>` or
/// `/v<digits>/` goes.
fn trim_version(url: &str) -> &str {
    let body = url.strip_suffix('/').unwrap_or(url);
    if let Some(at) = body.rfind("/v") {
        let digits = &body[at + 2..];
        if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            return &url[..at];
        }
    }
    url
}

/// The lines both templates share, up to `g2workerServiceAccountID`.
fn provider_head(account: &str, infra_id: &str, region: &str, rg: &str, vpc: &str) -> String {
    let mut text =
        String::from("[global]\nversion = 1.1.0\n[kubernetes]\nconfig-file = \"\"\n[provider]\n");
    let _ = writeln!(text, "accountID = {account}");
    let _ = writeln!(text, "clusterID = {infra_id}");
    text.push_str("cluster-default-provider = g2\n");
    let _ = writeln!(text, "region = {region}");
    text.push_str("g2Credentials = /etc/vpc/ibmcloud_api_key\n");
    let _ = writeln!(text, "g2ResourceGroupName = {rg}");
    let _ = writeln!(text, "g2VpcName = {vpc}");
    let _ = writeln!(text, "g2workerServiceAccountID = {account}");
    text
}

/// A PowerVS region and the VPC region the installer pairs with it.
struct PowerVsRegion {
    /// The PowerVS region (`dal`).
    name: &'static str,
    /// Its VPC region (`us-south`).
    vpc_region: &'static str,
    /// The VPC region's zones, the default subnets' zones.
    vpc_zones: &'static [&'static str],
}

/// A row of [`POWERVS_REGIONS`].
const fn region(
    name: &'static str,
    vpc_region: &'static str,
    vpc_zones: &'static [&'static str],
) -> PowerVsRegion {
    PowerVsRegion {
        name,
        vpc_region,
        vpc_zones,
    }
}

/// `pkg/types/powervs/powervs_regions.go`: every PowerVS region the installer knows.
const POWERVS_REGIONS: &[PowerVsRegion] = &[
    region(
        "dal",
        "us-south",
        &["us-south-1", "us-south-2", "us-south-3"],
    ),
    region("eu-de", "eu-de", &["eu-de-1", "eu-de-2", "eu-de-3"]),
    region("lon", "eu-gb", &["eu-gb-1", "eu-gb-2", "eu-gb-3"]),
    region("mad", "eu-es", &["eu-es-1", "eu-es-2"]),
    region("osa", "jp-osa", &["jp-osa-1", "jp-osa-2", "jp-osa-3"]),
    region("sao", "br-sao", &["br-sao-1", "br-sao-2", "br-sao-3"]),
    region("syd", "au-syd", &["au-syd-1", "au-syd-2", "au-syd-3"]),
    region("tor", "ca-tor", &["ca-tor-1", "ca-tor-2", "ca-tor-3"]),
    region(
        "us-east",
        "us-east",
        &["us-east-1", "us-east-2", "us-east-3"],
    ),
    region(
        "us-south",
        "us-south",
        &["us-south-1", "us-south-2", "us-south-3"],
    ),
    region("wdc", "us-east", &["us-east-1", "us-east-2", "us-east-3"]),
];

/// The PowerVS region `region` names; an error listing the known ones otherwise.
fn powervs_region(region: &str) -> Result<&'static PowerVsRegion> {
    POWERVS_REGIONS
        .iter()
        .find(|r| r.name == region)
        .ok_or_else(|| {
            anyhow!(
                "platform.powervs.region: {region:?}: the installer knows no VPC region for it (known: {})",
                POWERVS_REGIONS.iter().map(|r| r.name).collect::<Vec<_>>().join(", ")
            )
        })
}

pub(crate) fn powervs(
    p: &PowerVs,
    cluster: Cluster<'_>,
    missing: &mut Missing,
    data: &mut Map<String, Value>,
) -> Result<()> {
    let Cluster {
        infra_id,
        crn,
        facts,
        release,
    } = cluster;
    let account = account(crn, missing)?;
    let vpc_region = if p.vpc_region.is_empty() {
        powervs_region(&p.region)?.vpc_region.to_string()
    } else {
        p.vpc_region.clone()
    };
    let mut subnets = p.vpc_subnets.clone();
    let vpc = if p.vpc_name.is_empty() {
        format!("vpc-{infra_id}")
    } else {
        // An existing VPC: the installer adds every subnet it has.
        match &facts.powervs_vpc_subnets {
            Some(existing) => subnets.extend(existing.iter().cloned()),
            None => missing.need(
                facts::POWERVS_VPC_SUBNETS,
                format!("the subnets of the existing VPC {:?}", p.vpc_name),
            ),
        }
        p.vpc_name.clone()
    };
    if subnets.is_empty() {
        // The Cluster API provider creates one subnet per VPC zone of the region.
        let zones = powervs_region(&p.region)?.vpc_zones;
        subnets = zones
            .iter()
            .map(|zone| format!("{infra_id}-vpcsubnet-{zone}"))
            .collect();
    }
    let Some(account) = account else {
        return Ok(());
    };
    if !missing.is_empty() {
        return Ok(());
    }
    let (guid, name) = if p.service_instance_guid.is_empty() {
        (String::new(), format!("{infra_id}-power-iaas"))
    } else {
        (p.service_instance_guid.clone(), String::new())
    };
    let mut text = provider_head(
        &account,
        infra_id,
        &vpc_region,
        &p.powervs_resource_group,
        &vpc,
    );
    let overrides = powervs_overrides(&p.service_endpoints);
    for (key, value) in [
        ("g2VpcSubnetNames", subnets.join(",")),
        ("powerVSCloudInstanceID", guid),
        ("powerVSCloudInstanceName", name),
        ("powerVSRegion", p.region.clone()),
        ("powerVSZone", p.zone.clone()),
        ("g2EndpointOverride", overrides.vpc),
        ("iamEndpointOverride", overrides.iam),
        ("powerVSEndpointOverride", overrides.power),
        ("rcEndpointOverride", overrides.rc),
        ("rmEndpointOverride", overrides.rm),
    ] {
        if key == "rmEndpointOverride" && !release.powervs_rm_endpoint_line() {
            continue;
        }
        let _ = writeln!(text, "{key} = {value}");
    }
    data.insert("config".into(), json!(text));
    Ok(())
}

#[derive(Default)]
struct PowerVsOverrides {
    iam: String,
    rc: String,
    rm: String,
    power: String,
    vpc: String,
}

/// The PowerVS template's overrides: IAM, ResourceController, ResourceManager, Power and VPC
/// (taken as given); others are ignored. The newest stored caller (id 5687642073) predates the
/// overrides argument; the install-config's `platform.powervs.serviceEndpoints` is what the
/// argument's type (`[]configv1.PowerVSServiceEndpoint`) carries there.
fn powervs_overrides(endpoints: &[ServiceEndpoint]) -> PowerVsOverrides {
    let mut out = PowerVsOverrides::default();
    for e in endpoints {
        let slot = match e.name.as_str() {
            "IAM" => &mut out.iam,
            "ResourceController" => &mut out.rc,
            "ResourceManager" => &mut out.rm,
            "Power" => &mut out.power,
            "VPC" => &mut out.vpc,
            _ => continue,
        };
        slot.clone_from(&e.url);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An account the tests' CRN names.
    const CRN: &str = "crn:v1:x:x:x:x:a/acc:y::";

    type Derive<P> = fn(&P, Cluster<'_>, &mut Missing, &mut Map<String, Value>) -> Result<()>;

    /// Runs one derivation for `infra_id` with `crn` and `facts`: the data it wrote and what it
    /// found missing.
    fn run<P>(
        derive: Derive<P>,
        p: &P,
        infra_id: &str,
        crn: Option<&str>,
        facts: &PlatformFacts,
    ) -> Result<(Map<String, Value>, Missing)> {
        let mut data = Map::new();
        let mut missing = Missing::default();
        derive(
            p,
            Cluster {
                infra_id,
                crn,
                facts,
                release: InstallerRelease::default(),
            },
            &mut missing,
            &mut data,
        )?;
        Ok((data, missing))
    }

    #[test]
    fn the_account_is_the_crn_scope() {
        assert_eq!(
            account_of("crn:v1:bluemix:public:internet-svcs:global:a/1e1f75646aef447814a6d907cc83fb3c:abc::")
                .expect("ok"),
            "1e1f75646aef447814a6d907cc83fb3c"
        );
        for bad in [
            "crn:v1:bluemix:public:dns-svcs:global:o/x:y::",
            "crn:v1:x",
            "crn:v1:a:b:c:d:a/:e::",
        ] {
            assert!(account_of(bad).is_err(), "{bad}");
        }
    }

    /// installer ibmcloud/cloudproviderconfig_test.go (id 23891795086), "default subnet
    /// config": infraID ocp4-8pxks, region us-east, three zones for both pools.
    #[test]
    fn ibmcloud_default_subnets_are_the_installers_test_output() {
        let zones: Vec<String> = ["us-east-1", "us-east-2", "us-east-3"]
            .map(String::from)
            .into();
        let p = IbmCloud {
            region: "us-east".into(),
            resource_group_name: "ocp4-8pxks-rg".into(),
            vpc_name: "ocp4-8pxks-vpc".into(),
            control_plane_zones: zones.clone(),
            compute_zones: zones,
            ..IbmCloud::default()
        };
        let crn =
            "crn:v1:bluemix:public:internet-svcs:global:a/1e1f75646aef447814a6d907cc83fb3c:x::";
        let (data, missing) = run(
            ibmcloud,
            &p,
            "ocp4-8pxks",
            Some(crn),
            &PlatformFacts::default(),
        )
        .expect("ok");
        assert!(missing.is_empty());
        assert_eq!(
            data["config"],
            "[global]\nversion = 1.1.0\n[kubernetes]\nconfig-file = \"\"\n[provider]\naccountID = 1e1f75646aef447814a6d907cc83fb3c\nclusterID = ocp4-8pxks\ncluster-default-provider = g2\nregion = us-east\ng2Credentials = /etc/vpc/ibmcloud_api_key\ng2ResourceGroupName = ocp4-8pxks-rg\ng2VpcName = ocp4-8pxks-vpc\ng2workerServiceAccountID = 1e1f75646aef447814a6d907cc83fb3c\ng2VpcSubnetNames = ocp4-8pxks-subnet-compute-us-east-1,ocp4-8pxks-subnet-compute-us-east-2,ocp4-8pxks-subnet-compute-us-east-3,ocp4-8pxks-subnet-control-plane-us-east-1,ocp4-8pxks-subnet-control-plane-us-east-2,ocp4-8pxks-subnet-control-plane-us-east-3\n\n\n"
        );
    }

    /// The same test's "existing subnet config": the given names, in order, not sorted.
    #[test]
    fn ibmcloud_existing_subnets_keep_their_order() {
        let p = IbmCloud {
            region: "eu-gb".into(),
            control_plane_subnets: vec!["existing-subnet-control-plane-eu-gb-1".into()],
            compute_subnets: vec!["existing-subnet-compute-eu-gb-1".into()],
            ..IbmCloud::default()
        };
        let (data, _) = run(
            ibmcloud,
            &p,
            "ocp4-hf4vtt",
            Some(CRN),
            &PlatformFacts::default(),
        )
        .expect("ok");
        let text = data["config"].as_str().expect("text");
        assert!(
            text.contains("g2ResourceGroupName = ocp4-hf4vtt\ng2VpcName = ocp4-hf4vtt-vpc\n"),
            "{text}"
        );
        assert!(
            text.contains("g2VpcSubnetNames = existing-subnet-control-plane-eu-gb-1,existing-subnet-compute-eu-gb-1\n\n"),
            "{text}"
        );
    }

    #[test]
    fn ibmcloud_zones_come_from_the_flag_when_a_pool_names_none() {
        let p = IbmCloud {
            region: "us-south".into(),
            control_plane_zones: vec!["us-south-1".into()],
            ..IbmCloud::default()
        };
        let (_, missing) = run(ibmcloud, &p, "c-x", None, &PlatformFacts::default()).expect("ok");
        let text = missing.message("ibmcloud");
        assert!(
            text.contains("--ibm-instance-crn (") && text.contains("--ibmcloud-zones ("),
            "{text}"
        );
        let facts = PlatformFacts {
            ibmcloud_zones: Some(vec!["us-south-2".into()]),
            ..PlatformFacts::default()
        };
        let (data, _) = run(ibmcloud, &p, "c-x", Some(CRN), &facts).expect("ok");
        assert!(data["config"].as_str().expect("text").contains(
            "g2VpcSubnetNames = c-x-subnet-compute-us-south-2,c-x-subnet-control-plane-us-south-1\n"
        ));
    }

    #[test]
    fn vpc_overrides_lose_their_version_suffix() {
        assert_eq!(trim_version("https://vpc.test/v1"), "https://vpc.test");
        assert_eq!(trim_version("https://vpc.test/v21/"), "https://vpc.test");
        assert_eq!(trim_version("https://vpc.test/v"), "https://vpc.test/v");
        assert_eq!(trim_version("https://vpc.test/vx1"), "https://vpc.test/vx1");
        let overrides = ibmcloud_overrides(&[
            ServiceEndpoint {
                name: "IAM".into(),
                url: "https://iam.test".into(),
            },
            ServiceEndpoint {
                name: "VPC".into(),
                url: "https://vpc.test/v1".into(),
            },
            ServiceEndpoint {
                name: "COS".into(),
                url: "https://cos.test".into(),
            },
        ]);
        assert_eq!(
            overrides,
            Overrides {
                iam: "https://iam.test".into(),
                vpc: "https://vpc.test".into(),
                resource_manager: String::new(),
            }
        );
    }

    fn powervs_case() -> PowerVs {
        PowerVs {
            region: "dal".into(),
            zone: "dal10".into(),
            powervs_resource_group: "rg".into(),
            ..PowerVs::default()
        }
    }

    #[test]
    fn powervs_defaults_are_the_capi_subnets_and_a_named_workspace() {
        let (data, _) = run(
            powervs,
            &powervs_case(),
            "c-x",
            Some(CRN),
            &PlatformFacts::default(),
        )
        .expect("ok");
        assert_eq!(
            data["config"],
            "[global]\nversion = 1.1.0\n[kubernetes]\nconfig-file = \"\"\n[provider]\naccountID = acc\nclusterID = c-x\ncluster-default-provider = g2\nregion = us-south\ng2Credentials = /etc/vpc/ibmcloud_api_key\ng2ResourceGroupName = rg\ng2VpcName = vpc-c-x\ng2workerServiceAccountID = acc\ng2VpcSubnetNames = c-x-vpcsubnet-us-south-1,c-x-vpcsubnet-us-south-2,c-x-vpcsubnet-us-south-3\npowerVSCloudInstanceID = \npowerVSCloudInstanceName = c-x-power-iaas\npowerVSRegion = dal\npowerVSZone = dal10\ng2EndpointOverride = \niamEndpointOverride = \npowerVSEndpointOverride = \nrcEndpointOverride = \nrmEndpointOverride = \n"
        );
    }

    #[test]
    fn powervs_existing_vpc_needs_its_subnets() {
        let p = PowerVs {
            vpc_name: "my-vpc".into(),
            vpc_subnets: vec!["given".into()],
            service_instance_guid: "guid".into(),
            vpc_region: "us-east".into(),
            ..powervs_case()
        };
        let (_, missing) =
            run(powervs, &p, "c-x", Some(CRN), &PlatformFacts::default()).expect("ok");
        assert!(
            missing
                .message("powervs")
                .contains("--powervs-vpc-subnets (the subnets of the existing VPC \"my-vpc\")")
        );
        let facts = PlatformFacts {
            powervs_vpc_subnets: Some(vec!["found".into()]),
            ..PlatformFacts::default()
        };
        let (data, _) = run(powervs, &p, "c-x", Some(CRN), &facts).expect("ok");
        let text = data["config"].as_str().expect("text");
        for line in [
            "region = us-east\n",
            "g2VpcName = my-vpc\n",
            "g2VpcSubnetNames = given,found\n",
            "powerVSCloudInstanceID = guid\n",
            "powerVSCloudInstanceName = \n",
        ] {
            assert!(text.contains(line), "{line:?} in {text}");
        }
    }

    #[test]
    fn an_unknown_powervs_region_is_an_error() {
        let p = PowerVs {
            region: "mars".into(),
            ..powervs_case()
        };
        let err =
            run(powervs, &p, "c-x", Some(CRN), &PlatformFacts::default()).expect_err("unknown");
        assert!(
            format!("{err:#}").starts_with("platform.powervs.region: \"mars\""),
            "{err}"
        );
    }
}
