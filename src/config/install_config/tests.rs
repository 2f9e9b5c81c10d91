//! Unit tests of the install-config checks and derivations; the end-to-end comparisons with
//! hand-written installer output are in `tests/it/install_config.rs`.

use super::*;
use serde_json::json;

fn base() -> Value {
    json!({
        "apiVersion": "v1",
        "metadata": {"name": "mycluster"},
        "baseDomain": "example.com",
        "platform": {"aws": {"region": "us-east-2"}},
    })
}

#[allow(clippy::needless_pass_by_value)] // callers build the document inline
fn err(doc: Value) -> String {
    format!("{:#}", parse(&doc).expect_err("invalid"))
}

#[test]
fn defaults_are_the_installers() {
    let ic = parse(&base()).expect("valid");
    assert_eq!(ic.control_plane_replicas, 3);
    assert_eq!(ic.compute_replicas, 3);
    assert_eq!(ic.machine_networks, Some(vec!["10.0.0.0/16".to_string()]));
    assert_eq!(ic.networks.cluster[0].cidr, "10.128.0.0/14");
    assert_eq!(ic.networks.service, ["172.30.0.0/16"]);
    assert_eq!(ic.publish, "External");
    assert_eq!(ic.cluster_domain(), "mycluster.example.com");
}

#[test]
fn errors_name_the_field() {
    let mut d = base();
    d["apiVersion"] = json!("v2");
    assert!(err(d).starts_with("apiVersion: \"v2\""));
    let mut d = base();
    d.as_object_mut().expect("map").remove("apiVersion");
    assert_eq!(err(d), "apiVersion: install-config version required");
    let mut d = base();
    d["platform"] = json!({"moon": {}});
    assert!(err(d).starts_with("platform.moon: unknown platform"));
    // PowerVC is the installer's (4.21 on), converted into OpenStack: refused as not rendered,
    // not as unknown.
    let mut d = base();
    d["platform"] = json!({"powervc": {"cloud": "powervc"}});
    let e = err(d);
    assert!(e.starts_with("platform.powervc: PowerVC (an installer platform from 4.21) is not rendered by ccm-render: the installer converts it into an OpenStack cluster"), "{e}");
    let mut d = base();
    d["platform"]["gcp"] = json!({"projectID": "p", "region": "r"});
    assert!(err(d).contains("cannot use both \"aws\" and \"gcp\""));
    let mut d = base();
    d["platform"]["aws"] = json!({});
    assert_eq!(err(d), "platform.aws.region: required");
    let mut d = base();
    d["metadata"]["name"] = json!("My_Cluster");
    assert!(err(d).starts_with("metadata.name: \"My_Cluster\""));
    let mut d = base();
    d["controlPlane"] = json!({"replicas": "three"});
    assert!(err(d).starts_with("controlPlane.replicas: invalid type"));
    let mut d = base();
    d["bootstrapInPlace"] = json!({"installationDisk": "/dev/sda"});
    d["controlPlane"] = json!({"replicas": 3});
    assert!(err(d).starts_with(
        "controlPlane.replicas: 3: bootstrap in place requires a single ControlPlane replica"
    ));
    let mut d = base();
    d["networking"] = json!({"machineNetwork": [{"cidr": "10.0.0.1/16"}]});
    assert!(err(d).starts_with("networking.machineNetwork[0].cidr: "));
}

#[test]
fn cluster_name_rules_depend_on_the_platform() {
    let mut d = base();
    d["metadata"]["name"] = json!("my.cluster");
    assert!(parse(&d.clone()).is_ok(), "AWS allows dots");
    d["platform"] = json!({"none": {}});
    assert!(parse(&d.clone()).is_ok(), "None allows dots");
    d["platform"] = json!({"openstack": {}});
    assert!(err(d).contains("must not contain '.'"));
    let mut d = base();
    d["metadata"]["name"] = json!("my-google-cluster");
    d["platform"] = json!({"gcp": {"projectID": "p", "region": "r"}});
    assert!(err(d).contains("variations of \"google\""));
    let mut d = base();
    d["metadata"]["name"] = json!("1cluster");
    d["platform"] = json!({"azure": {"region": "r"}});
    assert!(err(d).contains("must begin with a lower-case letter"));
    let mut d = base();
    d["metadata"]["name"] = json!("a".repeat(55));
    assert!(err(d).contains("no more than 54 characters"));
}

#[test]
fn stable_name_is_deterministic_and_said() {
    let ic = parse(&base()).expect("valid");
    let a = derive(&ic, &Options::default()).expect("derives");
    let b = derive(&ic, &Options::default()).expect("derives");
    assert_eq!(a, b);
    let name = a.infrastructure["status"]["infrastructureName"]
        .as_str()
        .expect("string");
    assert!(name.starts_with("mycluster-") && name.len() == "mycluster-".len() + 5);
    assert!(
        a.notes[0].contains("no --infrastructure-name"),
        "{:?}",
        a.notes
    );
    let given = derive(
        &ic,
        &Options {
            flags: Flags {
                infrastructure_name: Some("mycluster-7xk2p".into()),
                ..Flags::default()
            },
            ..Options::default()
        },
    )
    .expect("derives");
    assert_eq!(
        given.infrastructure["status"]["infrastructureName"],
        "mycluster-7xk2p"
    );
    assert!(given.notes.is_empty());
}

#[test]
fn proxy_status_holds_the_installers_no_proxy_list() {
    let mut d = base();
    d["platform"] = json!({"aws": {"region": "us-east-1"}});
    d["proxy"] = json!({"httpsProxy": "https://proxy.example.com:3129", "noProxy": ".example.com, 10.1.0.0/16"});
    let ic = parse(&d).expect("valid");
    let proxy = proxy::derive(&ic).expect("derives");
    assert_eq!(
        proxy["status"]["noProxy"],
        ".cluster.local,.ec2.internal,.example.com,.svc,10.0.0.0/16,10.1.0.0/16,10.128.0.0/14,127.0.0.1,169.254.169.254,172.30.0.0/16,api-int.mycluster.example.com,localhost"
    );
    assert_eq!(proxy["spec"]["trustedCA"]["name"], "");
}

#[test]
fn platforms_needing_cloud_facts_name_every_missing_input() {
    let mut d = base();
    d["platform"] = json!({"azure": {"region": "centralus"}});
    let ic = parse(&d).expect("valid");
    let e = format!(
        "{:#}",
        derive(&ic, &Options::default()).expect_err("needs --cloud-config")
    );
    assert!(
        e.contains("--credentials (the installer's Azure credentials Secret, for azure_subscription_id and azure_tenant_id)")
            && e.contains("--cloud-config"),
        "{e}"
    );
    let given = Options {
        cloud_config_given: true,
        ..Options::default()
    };
    assert!(derive(&ic, &given).is_ok());
    let mut d = base();
    d["platform"] = json!({"ibmcloud": {"region": "us-south"}});
    let ic = parse(&d).expect("valid");
    let e = format!("{:#}", derive(&ic, &given).expect_err("needs the CRN"));
    assert!(e.contains("--ibm-instance-crn"), "{e}");
}

#[test]
fn external_defaults_the_platform_name_and_maps_the_ccm_state() {
    let mut d = base();
    d["platform"] = json!({"external": {}});
    let ic = parse(&d).expect("valid");
    let Platform::External(p) = &ic.platform else {
        panic!("not External: {:?}", ic.platform)
    };
    assert_eq!(p.platform_name, "Unknown");
    let derived = derive(&ic, &Options::default()).expect("derives");
    assert_eq!(
        derived.infrastructure["status"]["platformStatus"]["external"],
        json!({"cloudControllerManager": {"state": ""}})
    );
    assert_eq!(derived.cloud_provider_config, None);
    assert!(
        derived
            .notes
            .iter()
            .any(|n| n.contains("the cluster expects no CCM")),
        "{:?}",
        derived.notes
    );
    d["platform"] =
        json!({"external": {"platformName": "oci", "cloudControllerManager": "External"}});
    let ic = parse(&d).expect("valid");
    let derived = derive(&ic, &Options::default()).expect("derives");
    assert_eq!(
        derived.infrastructure["spec"]["platformSpec"],
        json!({"type": "External", "external": {"platformName": "oci"}})
    );
    assert_eq!(
        derived.infrastructure["status"]["platformStatus"]["external"]["cloudControllerManager"]["state"],
        "External"
    );
    assert!(!derived.notes.iter().any(|n| n.contains("expects no CCM")));
}

#[test]
fn ibmcloud_zones_are_the_pools_own_else_the_default_machine_platforms() {
    let mut d = base();
    d["platform"] =
        json!({"ibmcloud": {"region": "eu-gb", "defaultMachinePlatform": {"zones": ["eu-gb-1"]}}});
    d["compute"] = json!([
        {"name": "edge", "platform": {"ibmcloud": {"zones": ["eu-gb-3"]}}},
        {"name": "worker", "platform": {"ibmcloud": {"zones": ["eu-gb-2", "eu-gb-3"]}}},
    ]);
    let ic = parse(&d).expect("valid");
    let Platform::IbmCloud(p) = &ic.platform else {
        panic!("ibmcloud")
    };
    assert_eq!(p.control_plane_zones, ["eu-gb-1"]);
    assert_eq!(p.compute_zones, ["eu-gb-2", "eu-gb-3"]);
    d["compute"][1]["platform"] = json!({"ibmcloud": {"zones": "eu-gb-2"}});
    assert!(err(d).starts_with("compute[1].platform.ibmcloud.zones: invalid type"));
}

#[test]
fn keys_match_fields_ignoring_case_and_two_spellings_of_one_platform_are_one() {
    let mut d = base();
    d["platform"] = json!({"AWS": {"Region": "eu-west-1", "IPFamily": "IPv4"}});
    d["BaseDomain"] = d["baseDomain"].take();
    d.as_object_mut().expect("map").remove("baseDomain");
    let ic = parse(&d).expect("valid");
    assert_eq!(ic.base_domain, "example.com");
    let Platform::Aws(p) = &ic.platform else {
        panic!("not AWS: {:?}", ic.platform)
    };
    assert_eq!(p.region, "eu-west-1");
    // encoding/json decodes both into platform.aws, "AWS" before "aws" (byte order): the
    // later one's region wins, the earlier one's userTags stay.
    let mut d = base();
    d["platform"] = json!({
        "aws": {"region": "us-east-2"},
        "AWS": {"region": "eu-west-1", "userTags": {"team": "a"}},
    });
    let ic = parse(&d).expect("valid");
    let Platform::Aws(p) = &ic.platform else {
        panic!("not AWS")
    };
    assert_eq!(p.region, "us-east-2");
    assert_eq!(p.user_tags.get("team").map(String::as_str), Some("a"));
}

#[test]
fn dual_stack_needs_its_gate_and_the_primary_family_first() {
    let dual = |family: &str, set: &str| {
        let mut d = base();
        d["platform"]["aws"]["ipFamily"] = json!(family);
        if !set.is_empty() {
            d["featureSet"] = json!(set);
        }
        d["networking"] = json!({
            "machineNetwork": [{"cidr": "10.0.0.0/16"}],
            "clusterNetwork": [{"cidr": "10.128.0.0/14", "hostPrefix": 23}, {"cidr": "fd01::/48", "hostPrefix": 64}],
            "serviceNetwork": ["172.30.0.0/16", "fd02::/112"],
        });
        d
    };
    let ic = parse(&dual("DualStackIPv4Primary", "DevPreviewNoUpgrade")).expect("valid");
    let Platform::Aws(p) = &ic.platform else {
        panic!("not AWS")
    };
    assert_eq!(
        p.lb_type, "NLB",
        "dual stack defaults the load balancer to NLB"
    );
    // The gate is checked with the release: previews only at 4.22, Default-on at 4.23, and no
    // such field before 4.22.
    let at = |release: &str| Options {
        release: installer_release::InstallerRelease::of(release).expect("a release"),
        ..Options::default()
    };
    let ungated = parse(&dual("DualStackIPv4Primary", "")).expect("parses");
    let e = format!("{:#}", derive(&ungated, &at("4.22")).expect_err("gated"));
    assert!(
        e.starts_with("platform.aws.ipFamily: \"DualStackIPv4Primary\": this field is protected by the AWSDualStackInstall feature gate, which at OpenShift 4.22 featureSet TechPreviewNoUpgrade or DevPreviewNoUpgrade enables"),
        "{e}"
    );
    assert!(derive(&ungated, &at("4.23")).is_ok());
    let e = format!("{:#}", derive(&ungated, &at("4.21")).expect_err("no field"));
    assert!(e.contains("has no such field; it arrives in 4.22"), "{e}");
    assert!(
        err(dual("DualStackIPv6Primary", "TechPreviewNoUpgrade"))
            .contains("list the IPv6 network first")
    );
    let single = parse(&base()).expect("valid");
    let Platform::Aws(p) = &single.platform else {
        panic!("not AWS")
    };
    assert_eq!((p.ip_family.as_str(), p.lb_type.as_str()), ("IPv4", ""));
}

#[test]
fn a_null_pool_is_a_pool_with_no_field_set_as_the_installer_reads_it() {
    // Go's encoding/json leaves a struct as it is for null: `compute: [null]` reads as
    // `compute: [{}]`. A list where a pool is expected is refused, as Go refuses it.
    let mut null = base();
    null["compute"] = json!([null]);
    let mut empty = base();
    empty["compute"] = json!([{}]);
    // The two differ only in the document they keep as written (for the install-config
    // ConfigMap).
    assert_eq!(
        format!("{:?}", parse(&null)).replace("[null]", "[{}]"),
        format!("{:?}", parse(&empty))
    );
    let mut list = base();
    list["compute"] = json!([["worker"]]);
    let message = err(list);
    assert!(
        message.starts_with("compute[0]: invalid type: sequence, expected struct MachinePool"),
        "{message}"
    );
}

#[test]
fn vips_are_checked_as_the_installer_checks_them() {
    let vsphere = |api: Value, ingress: Value, lb: Option<&str>| {
        let mut d = base();
        d["platform"] = json!({"vsphere": {
            "vcenters": [{"server": "vc", "datacenters": ["DC1"]}],
            "failureDomains": [{"name": "a", "server": "vc", "topology": {"datacenter": "DC1", "computeCluster": "/DC1/host/C1", "datastore": "/DC1/datastore/DS1", "networks": ["n"]}}],
            "apiVIPs": api, "ingressVIPs": ingress,
        }});
        if let Some(kind) = lb {
            d["platform"]["vsphere"]["loadBalancer"] = json!({"type": kind});
        }
        d
    };
    assert_eq!(
        err(vsphere(json!(["10.0.0.5"]), json!(["10.0.0.5"]), None)),
        "platform.vsphere.apiVIPs: \"10.0.0.5\": VIP for API must not be one of the Ingress VIPs"
    );
    // The same address written two ways is the same VIP (net.IP.Equal).
    assert!(
        err(vsphere(json!(["fd00::5"]), json!(["fd00:0::5"]), None)).contains("must not be one of")
    );
    // A user-managed load balancer may share one VIP; vSphere VIPs need not be in a machine
    // network (agent installs aside).
    assert!(
        parse(&vsphere(
            json!(["10.0.0.5"]),
            json!(["10.0.0.5"]),
            Some("UserManaged")
        ))
        .is_ok()
    );
    assert!(
        parse(&vsphere(
            json!(["192.168.1.5"]),
            json!(["192.168.1.6"]),
            None
        ))
        .is_ok()
    );
    assert_eq!(
        err(vsphere(
            json!(["10.0.0.5", "10.0.0.6"]),
            json!(["10.0.0.7"]),
            None
        )),
        "platform.vsphere.apiVIPs: [\"10.0.0.5\", \"10.0.0.6\"]: If two API VIPs are given, one must be an IPv4 address, the other an IPv6"
    );
    assert!(
        err(vsphere(
            json!(["10.0.0.5", "fd00::5", "10.0.0.6"]),
            json!(["10.0.0.7"]),
            None
        ))
        .starts_with("platform.vsphere.apiVIPs: must have at most 2 items")
    );
    // Bare metal wants every VIP in a machine network.
    let mut d = base();
    d["platform"] = json!({"baremetal": {"apiVIPs": ["192.168.1.5"], "ingressVIPs": ["10.0.0.7"]}});
    d["compute"] = json!([{"name": "worker", "replicas": 2}]);
    assert_eq!(
        err(d),
        "platform.baremetal.apiVIPs: \"192.168.1.5\": IP expected to be in one of the machine networks: 10.0.0.0/16"
    );
}

#[test]
fn nutanix_puts_the_ipv4_vip_first() {
    let mut d = base();
    d["platform"] = json!({"nutanix": {
        "prismCentral": {"endpoint": {"address": "pc", "port": 9440}},
        "prismElements": [{"uuid": "u", "endpoint": {"address": "pe", "port": 9440}}],
        "apiVIPs": ["fd00::5", "10.0.0.5"], "ingressVIPs": ["10.0.0.6", "fd00::6"],
    }});
    let ic = parse(&d).expect("valid");
    let Platform::Nutanix(p) = &ic.platform else {
        panic!("not Nutanix")
    };
    assert_eq!(p.vips.api_vips, ["10.0.0.5", "fd00::5"]);
    assert_eq!(p.vips.ingress_vips, ["10.0.0.6", "fd00::6"]);
}

#[test]
fn the_aws_european_sovereign_cloud_needs_its_gate_from_4_22() {
    let mut d = base();
    d["platform"]["aws"]["region"] = json!("eusc-de-east-1");
    let ic = parse(&d).expect("parses");
    let at = |release: &str| Options {
        release: installer_release::InstallerRelease::of(release).expect("a release"),
        ..Options::default()
    };
    let e = format!("{:#}", derive(&ic, &at("4.23")).expect_err("gated"));
    assert!(
        e.starts_with("platform.aws.region: \"eusc-de-east-1\": this field is protected by the AWSEuropeanSovereignCloudInstall feature gate"),
        "{e}"
    );
    assert!(derive(&ic, &at("4.21")).is_ok());
    d["featureSet"] = json!("TechPreviewNoUpgrade");
    assert!(derive(&parse(&d).expect("parses"), &at("4.23")).is_ok());
}

#[test]
fn an_azure_pool_identity_is_refused_at_4_18_where_the_installer_has_none() {
    // release-4.18's pkg/types/azure MachinePool has no `identity`; its cloud config always
    // says useManagedIdentityExtension true, whatever the pools say.
    let mut d = base();
    d["platform"] = json!({"azure": {"region": "westeurope", "baseDomainResourceGroupName": "rg"}});
    d["controlPlane"] =
        json!({"name": "master", "platform": {"azure": {"identity": {"type": "None"}}}});
    let at = |release: &str| Options {
        release: installer_release::InstallerRelease::of(release).expect("a release"),
        ..Options::default()
    };
    let ic = parse(&d).expect("parses");
    assert_eq!(
        format!("{:#}", derive(&ic, &at("4.18")).expect_err("no field")),
        "controlPlane.platform.azure.identity: the installer of OpenShift 4.18 has no such field; it arrives in 4.19 (render with --release 4.19 or later, or leave the field out)"
    );
    // From 4.19 the field is read (what is left to derive is the credentials' facts).
    let later = derive(&ic, &at("4.19")).map_err(|e| format!("{e:#}"));
    assert!(
        !later.clone().err().unwrap_or_default().contains("identity"),
        "{later:?}"
    );
    d["platform"]["azure"]["defaultMachinePlatform"] = json!({"identity": {"type": "None"}});
    let e = format!(
        "{:#}",
        derive(&parse(&d).expect("parses"), &at("4.18")).expect_err("no field")
    );
    assert!(
        e.starts_with(
            "platform.azure.defaultMachinePlatform.identity: the installer of OpenShift 4.18"
        ),
        "{e}"
    );
}

#[test]
fn cloud_config_fields_of_4_21_are_refused_before_it_in_the_same_words() {
    let mut d = base();
    d["platform"] = json!({"gcp": {
        "projectID": "p",
        "region": "r",
        "endpoint": {"name": "psc1"},
        "firewallRulesManagement": "Managed",
    }});
    let at = |release: &str| Options {
        release: installer_release::InstallerRelease::of(release).expect("a release"),
        ..Options::default()
    };
    let ic = parse(&d).expect("parses");
    // A section is named without its value; the first field set is the one named.
    assert_eq!(
        format!("{:#}", derive(&ic, &at("4.20")).expect_err("no field")),
        "platform.gcp.endpoint: the installer of OpenShift 4.20 has no such field; it arrives in 4.21 (render with --release 4.21 or later, or leave the field out)"
    );
    d["platform"]["gcp"]
        .as_object_mut()
        .expect("map")
        .remove("endpoint");
    let e = format!(
        "{:#}",
        derive(&parse(&d).expect("parses"), &at("4.18")).expect_err("no field")
    );
    assert!(
        e.starts_with("platform.gcp.firewallRulesManagement: \"Managed\": the installer of OpenShift 4.18 has no such field; it arrives in 4.21"),
        "{e}"
    );
    assert!(derive(&ic, &at("4.21")).is_ok());
}

#[test]
fn vsphere_vip_networks_follow_the_release() {
    let mut d = base();
    d["platform"] = json!({"vsphere": {
        "vcenters": [{"server": "vc", "datacenters": ["DC1"]}],
        "failureDomains": [{"name": "a", "server": "vc", "topology": {"datacenter": "DC1", "computeCluster": "/DC1/host/C1", "datastore": "/DC1/datastore/DS1", "networks": ["n"]}}],
        "apiVIPs": ["10.0.0.5"], "ingressVIPs": ["10.0.0.6"],
    }});
    d["networking"] = json!({"machineNetwork": [{"cidr": "10.0.0.0/16"}, {"cidr": "10.0.0.5/32"}]});
    let ic = parse(&d).expect("valid");
    let at = |release: &str| {
        let options = Options {
            release: installer_release::InstallerRelease::of(release).expect("a release"),
            ..Options::default()
        };
        derive(&ic, &options).expect("derives").infrastructure
    };
    let networks = |infra: &Value, at: &str| -> Vec<String> {
        serde_json::from_value(infra.pointer(at).expect("machineNetworks").clone()).expect("list")
    };
    // 4.18: the machine networks alone, in the spec and the status, with the singular VIPs.
    let old = at("4.18");
    assert_eq!(
        networks(&old, "/status/platformStatus/vsphere/machineNetworks"),
        ["10.0.0.0/16", "10.0.0.5/32"]
    );
    assert_eq!(
        old["status"]["platformStatus"]["vsphere"]["apiServerInternalIP"],
        "10.0.0.5"
    );
    // From 4.19: every VIP appended to both, once, and no singular VIPs (installer b9309ad2ef).
    let appended = at("4.20");
    for path in [
        "/spec/platformSpec/vsphere/machineNetworks",
        "/status/platformStatus/vsphere/machineNetworks",
    ] {
        assert_eq!(
            networks(&appended, path),
            ["10.0.0.0/16", "10.0.0.5/32", "10.0.0.6/32"]
        );
    }
    assert!(
        appended["status"]["platformStatus"]["vsphere"]
            .get("ingressIP")
            .is_none()
    );
    // 4.21 on: only the VIP lists in the status.
    let new = at("4.21");
    assert_eq!(
        networks(&new, "/status/platformStatus/vsphere/machineNetworks"),
        ["10.0.0.0/16", "10.0.0.5/32", "10.0.0.6/32"]
    );
    assert!(
        new["status"]["platformStatus"]["vsphere"]
            .get("apiServerInternalIP")
            .is_none()
    );
}

/// The Infrastructure an install-config derives at `release` (its cloud config given, so no
/// cloud facts are needed), or the error.
fn infrastructure_at(d: &Value, release: &str) -> Result<Value> {
    let ic = parse(d)?;
    let options = Options {
        release: installer_release::InstallerRelease::of(release).expect("a release"),
        cloud_config_given: true,
        ..Options::default()
    };
    derive(&ic, &options).map(|derived| derived.infrastructure)
}

#[test]
fn vsphere_template_default_names_the_region_and_zone_at_4_18() {
    // vsphere/infrastructure.go on release-4.18 @9094202399; from 4.19 (installer abbe10adff)
    // utils.GenerateVSphereTemplateName, the failure domain's name.
    let mut d = base();
    d["platform"] = json!({"vsphere": {
        "vcenters": [{"server": "vc", "datacenters": ["DC1"]}],
        "failureDomains": [{"name": "fd-1", "region": "r1", "zone": "z1", "server": "vc", "topology": {"datacenter": "DC1", "computeCluster": "/DC1/host/C1", "datastore": "/DC1/datastore/DS1", "networks": ["n"]}}],
    }});
    let template = |release: &str| {
        let infra = infrastructure_at(&d, release).expect("derives");
        infra["spec"]["platformSpec"]["vsphere"]["failureDomains"][0]["topology"]["template"]
            .as_str()
            .expect("a template")
            .rsplit('-')
            .take(2)
            .collect::<Vec<_>>()
            .join(",")
    };
    assert_eq!(template("4.18"), "z1,r1");
    assert_eq!(template("4.19"), "1,fd");
    assert_eq!(template("4.23"), "1,fd");
}

#[test]
fn dns_records_type_is_written_from_4_21_and_refused_before() {
    let mut d = base();
    d["platform"] =
        json!({"openstack": {"cloud": "c", "apiVIPs": ["10.0.0.5"], "ingressVIPs": ["10.0.0.7"]}});
    let status = |d: &Value, release: &str| {
        infrastructure_at(d, release).expect("derives")["status"]["platformStatus"]["openstack"]
            .clone()
    };
    assert!(status(&d, "4.20").get("dnsRecordsType").is_none());
    assert_eq!(status(&d, "4.21")["dnsRecordsType"], "Internal");
    d["platform"]["openstack"]["dnsRecordsType"] = json!("Internal");
    assert_eq!(status(&d, "4.23")["dnsRecordsType"], "Internal");
    let err = format!("{:#}", infrastructure_at(&d, "4.20").expect_err("refused"));
    assert!(err.contains("platform.openstack.dnsRecordsType: \"Internal\": the installer of OpenShift 4.20 has no such field; it arrives in 4.21"), "{err}");
    d["platform"]["openstack"]["dnsRecordsType"] = json!("internal");
    let err = format!("{:#}", infrastructure_at(&d, "4.21").expect_err("refused"));
    assert!(
        err.contains("supported values: \"Internal\", \"External\""),
        "{err}"
    );
    // External: gated by OnPremDNSRecords, and only with a user-managed load balancer.
    d["platform"]["openstack"]["dnsRecordsType"] = json!("External");
    d["platform"]["openstack"]["loadBalancer"] = json!({"type": "UserManaged"});
    let err = format!("{:#}", infrastructure_at(&d, "4.21").expect_err("refused"));
    assert!(err.contains("OnPremDNSRecords feature gate"), "{err}");
    d["featureSet"] = json!("TechPreviewNoUpgrade");
    assert_eq!(status(&d, "4.21")["dnsRecordsType"], "External");
    // vSphere and Nutanix write it only with VIPs.
    let mut v = base();
    v["platform"] = json!({"vsphere": {
        "vcenters": [{"server": "vc", "datacenters": ["DC1"]}],
        "failureDomains": [{"name": "a", "server": "vc", "topology": {"datacenter": "DC1", "computeCluster": "/DC1/host/C1", "datastore": "/DC1/datastore/DS1", "networks": ["n"]}}],
    }});
    let infra = infrastructure_at(&v, "4.21").expect("derives");
    assert!(
        infra["status"]["platformStatus"]["vsphere"]
            .get("dnsRecordsType")
            .is_none()
    );
}

#[test]
fn the_arbiter_pool_is_checked_as_each_release_checks_it() {
    let mut d = base();
    d["controlPlane"] = json!({"replicas": 2});
    d["compute"] = json!([{"name": "worker", "replicas": 0}]);
    d["arbiter"] = json!({"replicas": 1});
    d["platform"] = json!({"none": {}});
    let err = |d: &Value, release: &str| {
        format!("{:#}", infrastructure_at(d, release).expect_err("refused"))
    };
    assert!(err(&d, "4.18").contains(
        "arbiter: the installer of OpenShift 4.18 has no such field; it arrives in 4.19"
    ));
    // HighlyAvailableArbiter: previews only at 4.19, Default from 4.20.
    assert!(err(&d, "4.19").contains("HighlyAvailableArbiter feature gate"));
    // Bare metal only up to 4.21; None and External from 4.22.
    assert!(
        err(&d, "4.21").contains("arbiter.platform: \"none\": supported values: \"baremetal\"")
    );
    assert!(infrastructure_at(&d, "4.22").is_ok());
    d["arbiter"] = json!({"name": "arbiter"});
    assert!(
        err(&d, "4.22")
            .contains("arbiter.replicas: 0: number of arbiter replicas must be positive")
    );
    d["arbiter"] = json!({"replicas": 1});
    d["controlPlane"] = json!({"replicas": 1});
    assert!(err(&d, "4.23").contains("controlPlane.replicas: 1: number of controlPlane replicas must be at least 2 for arbiter deployments"));
}
