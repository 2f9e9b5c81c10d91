//! `render --install-config`: the derived Infrastructure, cloud-provider-config and Proxy against
//! hand-written installer output (testdata/install-config/README.md), rendering from the
//! install-config against rendering from what it derives, and bad install-configs.

mod common;

use common::*;
use pretty_assertions::assert_eq;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A platform case: its folder and what the installer would need beyond the install-config.
struct Case {
    dir: &'static str,
    /// `--cloud-config`, under testdata/: the installer computes this platform's config from
    /// live cloud data, or (External) the user brings the CCM's own config.
    cloud_config: Option<&'static str>,
    /// `--images`, under testdata/.
    images: &'static str,
    /// `--ibm-instance-crn`.
    crn: bool,
    /// `--credentials`: testdata/credentials/<name>.yaml.
    credentials: Option<&'static str>,
    infra_name: &'static str,
}

const CRN: &str = "crn:v1:bluemix:public:internet-svcs:global:a/abc:def::";

const CONFORMANCE_IMAGES: &str = "conformance/images.json";

const CASES: [Case; 16] = [
    case("aws", None, false),
    case(
        "azure",
        Some("conformance/azure/cloud-provider-config.yaml"),
        false,
    ),
    case(
        "azurestackhub",
        Some("conformance/azurestackhub/cloud-provider-config.yaml"),
        false,
    ),
    case("gcp", None, false),
    case(
        "ibmcloud",
        Some("conformance/ibmcloud/cloud-provider-config.yaml"),
        true,
    ),
    case(
        "powervs",
        Some("conformance/powervs/cloud-provider-config.yaml"),
        true,
    ),
    case(
        "openstack",
        Some("conformance/openstack/cloud-provider-config.yaml"),
        false,
    ),
    case("vsphere", None, false),
    case("vsphere-legacy", None, false),
    case("vsphere-dualstack", None, false),
    case("nutanix", None, false),
    Case {
        infra_name: "sno-abcde",
        ..case("none", None, false)
    },
    case("baremetal", None, false),
    // conformance/images.json has no key for OCI nor DigitalOcean: their pinned vendor images.
    case(
        "external-oci",
        Some("external/oci-cloud-provider.yaml"),
        false,
    ),
    Case {
        credentials: Some("digitalocean"),
        ..case("external-digitalocean", None, false)
    },
    Case {
        images: "external/images.json",
        infra_name: "sno-abcde",
        ..case(
            "external-alibabacloud",
            Some("external/alibaba-cloud-provider-config.yaml"),
            false,
        )
    },
];

const fn case(dir: &'static str, cloud_config: Option<&'static str>, crn: bool) -> Case {
    Case {
        dir,
        cloud_config,
        images: CONFORMANCE_IMAGES,
        crn,
        credentials: None,
        infra_name: "mycluster-abcde",
    }
}

fn case_file(dir: &str, name: &str) -> PathBuf {
    root().join("testdata/install-config").join(dir).join(name)
}

fn testdata(rel: &str) -> PathBuf {
    root().join("testdata").join(rel)
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

fn run(args: &[String]) -> std::process::Output {
    ccm_render(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

/// The flags every render shares (the Network comes from the install-config, or from what it
/// derived).
fn common_args(dest: &Path, images: &str) -> Vec<String> {
    vec![
        "render".into(),
        "--images".into(),
        s(&testdata(images)),
        "--dest-dir".into(),
        s(dest),
    ]
}

fn install_config_args(c: &Case, dest: &Path, emit: &Path) -> Vec<String> {
    let mut args = common_args(dest, c.images);
    args.extend([
        "--install-config".into(),
        s(&case_file(c.dir, "install-config.yaml")),
        "--infrastructure-name".into(),
        c.infra_name.into(),
        "--emit-infrastructure".into(),
        s(emit),
    ]);
    if let Some(config) = c.cloud_config {
        args.extend(["--cloud-config".into(), s(&testdata(config))]);
    }
    if c.crn {
        args.extend(["--ibm-instance-crn".into(), CRN.into()]);
    }
    if let Some(credentials) = c.credentials {
        args.extend([
            "--credentials".into(),
            s(&testdata(&format!("credentials/{credentials}.yaml"))),
        ]);
    }
    args
}

fn by_kind(docs: &[Value], kind: &str) -> Option<Value> {
    docs.iter()
        .find(|d| d.get("kind").and_then(Value::as_str) == Some(kind))
        .cloned()
}

fn expected(dir: &str, name: &str) -> Option<Value> {
    let path = case_file(dir, name);
    path.exists()
        .then(|| parse_all(&std::fs::read_to_string(&path).expect("readable")).remove(0))
}

/// The installer's networking defaults, as `network.go` writes them.
fn default_network() -> Value {
    expected("external-alibabacloud", "expected-network.yaml").expect("the defaults case")
}

#[test]
fn every_platform_derives_what_the_installer_writes_and_renders_the_same_from_it() {
    for c in &CASES {
        let work = tempfile::tempdir().expect("tempdir");
        let emit = work.path().join("derived.yaml");
        let from_install_config = work.path().join("a");
        let out = run(&install_config_args(c, &from_install_config, &emit));
        assert_eq!(out.status.code(), Some(0), "{}: {}", c.dir, stderr(&out));

        // (a) The derived objects, field by field, against the hand-written installer output.
        let docs = parse_all(&std::fs::read_to_string(&emit).expect("emitted"));
        let infra = by_kind(&docs, "Infrastructure").expect("an Infrastructure");
        assert_eq!(
            infra,
            expected(c.dir, "expected-infrastructure.yaml").expect("expected file"),
            "{}",
            c.dir
        );
        let config_map = by_kind(&docs, "ConfigMap");
        match expected(c.dir, "expected-cloud-provider-config.yaml") {
            Some(want) => assert_eq!(config_map.as_ref(), Some(&want), "{}", c.dir),
            // Live-data platforms take --cloud-config; None, BareMetal and External have none.
            None => assert_eq!(config_map, None, "{}", c.dir),
        }
        let proxy = by_kind(&docs, "Proxy").expect("a Proxy, always written");
        if let Some(want) = expected(c.dir, "expected-proxy.yaml") {
            assert_eq!(proxy, want, "{}", c.dir);
        }
        // Cases without an expected Network leave networking as the defaults or write them.
        let network = by_kind(&docs, "Network").expect("a Network, always written");
        let want = expected(c.dir, "expected-network.yaml").unwrap_or_else(default_network);
        assert_eq!(network, want, "{}", c.dir);

        // (b) Rendering from what was derived gives the same tree.
        let from_manifests = work.path().join("b");
        let mut args = common_args(&from_manifests, c.images);
        args.extend([
            "--infrastructure".into(),
            s(&emit),
            "--proxy".into(),
            s(&emit),
            "--network".into(),
            s(&emit),
        ]);
        match (c.cloud_config, &config_map) {
            (Some(config), _) => args.extend(["--cloud-config".into(), s(&testdata(config))]),
            (None, Some(_)) => args.extend(["--cloud-config".into(), s(&emit)]),
            (None, None) => {}
        }
        if let Some(credentials) = c.credentials {
            args.extend([
                "--credentials".into(),
                s(&testdata(&format!("credentials/{credentials}.yaml"))),
            ]);
        }
        let out = run(&args);
        assert_eq!(out.status.code(), Some(0), "{}: {}", c.dir, stderr(&out));
        let a = read_tree(&from_install_config);
        assert_eq!(a, read_tree(&from_manifests), "{}", c.dir);
        let has_ccm = !matches!(c.dir, "none" | "baremetal");
        assert_eq!(!a.is_empty(), has_ccm, "{}: {:?}", c.dir, a.keys());
        // Every CCM but DigitalOcean's (an API token, no config file) reads a cloud config.
        if has_ccm && c.dir != "external-digitalocean" {
            assert!(
                a.contains_key("config/cloud.conf"),
                "{}: {:?}",
                c.dir,
                a.keys()
            );
        }
    }
}

/// The `kube-system/cluster-config-v1` ConfigMap carrying `text` under `install-config`, as
/// the installer writes `manifests/cluster-config.yaml`.
fn cluster_config_v1(text: &str) -> String {
    let config_map = serde_json::json!({
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "cluster-config-v1", "namespace": "kube-system"},
        "data": {"install-config": text},
    });
    ccm_render::yaml::to_string(&config_map).expect("serialisable")
}

#[test]
fn the_cluster_config_v1_configmap_renders_as_the_install_config_it_carries() {
    for c in &CASES {
        let work = tempfile::tempdir().expect("tempdir");
        let plain = work.path().join("plain");
        let out = run(&install_config_args(
            c,
            &plain,
            &work.path().join("plain.yaml"),
        ));
        assert_eq!(out.status.code(), Some(0), "{}: {}", c.dir, stderr(&out));

        let text = std::fs::read_to_string(case_file(c.dir, "install-config.yaml")).expect("read");
        let wrapped = work.path().join("cluster-config.yaml");
        std::fs::write(&wrapped, cluster_config_v1(&text)).expect("write");
        let from_config_map = work.path().join("wrapped");
        let mut args = install_config_args(c, &from_config_map, &work.path().join("wrapped.yaml"));
        let at = args
            .iter()
            .position(|a| a == "--install-config")
            .expect("flag");
        args[at + 1] = s(&wrapped);
        let out = run(&args);
        assert_eq!(out.status.code(), Some(0), "{}: {}", c.dir, stderr(&out));
        assert_eq!(read_tree(&plain), read_tree(&from_config_map), "{}", c.dir);
        assert_eq!(
            std::fs::read(work.path().join("plain.yaml")).expect("emitted"),
            std::fs::read(work.path().join("wrapped.yaml")).expect("emitted"),
            "{}",
            c.dir
        );
    }
}

#[test]
fn a_bad_install_config_inside_the_configmap_names_the_file_key_and_field() {
    let text = std::fs::read_to_string(case_file("aws", "install-config.yaml")).expect("read");
    let file = tempfile::NamedTempFile::new().expect("temp");
    let text = text.replace("baseDomain: example.com\n", "");
    std::fs::write(file.path(), cluster_config_v1(&text)).expect("write");
    let message = format!(
        "{} (data.install-config): baseDomain: required",
        s(file.path())
    );
    assert_bad(|dest| with_install_config(file.path(), dest, &[]), &message);
}

#[test]
fn the_proxy_from_the_install_config_reaches_the_ccm_containers() {
    let work = tempfile::tempdir().expect("tempdir");
    let dest = work.path().join("out");
    let out = run(&install_config_args(
        &CASES[0],
        &dest,
        &work.path().join("e.yaml"),
    ));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let tree = read_tree(&dest);
    let objects = objects_in(&tree, "manifests");
    let deployment = objects
        .values()
        .find(|o| o["kind"] == "Deployment")
        .expect("a Deployment");
    let env = &deployment["spec"]["template"]["spec"]["containers"][0]["env"];
    let no_proxy = env
        .as_array()
        .expect("env")
        .iter()
        .find(|e| e["name"] == "NO_PROXY")
        .expect("NO_PROXY");
    assert!(
        no_proxy["value"]
            .as_str()
            .expect("value")
            .contains("api-int.mycluster.example.com"),
        "{no_proxy}"
    );
}

#[test]
fn without_a_name_a_stable_one_is_derived_and_said() {
    let work = tempfile::tempdir().expect("tempdir");
    let mut trees = Vec::new();
    for run_number in 0..2 {
        let dest = work.path().join(format!("out{run_number}"));
        let mut args = common_args(&dest, CONFORMANCE_IMAGES);
        args.extend([
            "--install-config".into(),
            s(&case_file("gcp", "install-config.yaml")),
        ]);
        let out = run(&args);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let err = stderr(&out);
        assert!(
            err.contains("no --infrastructure-name: using \"mycluster-")
                && err.contains("hash of the install-config"),
            "{err}"
        );
        trees.push(read_tree(&dest));
    }
    assert_eq!(trees[0], trees[1]);
    let conf = String::from_utf8(trees[0]["config/cloud.conf"].clone()).expect("UTF-8");
    assert!(!conf.contains("mycluster-abcde"), "{conf}");
}

/// A dest dir holding a file the tool did not write.
fn assert_bad(args_for: impl Fn(&Path) -> Vec<String>, message: &str) {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("README"), "not ours\n").expect("write");
    let before = read_tree(dir.path());
    let out = run(&args_for(dir.path()));
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{message}: {err}");
    assert!(err.contains(message), "expected {message:?} in {err}");
    assert_eq!(read_tree(dir.path()), before, "dest dir changed: {message}");
}

/// The AWS case with `edit` applied to its text.
fn bad_install_config(edit: impl Fn(String) -> String) -> tempfile::NamedTempFile {
    let text = std::fs::read_to_string(case_file("aws", "install-config.yaml")).expect("read");
    let file = tempfile::NamedTempFile::new().expect("temp");
    std::fs::write(file.path(), edit(text)).expect("write");
    file
}

fn with_install_config(file: &Path, dest: &Path, extra: &[&str]) -> Vec<String> {
    let mut args = common_args(dest, CONFORMANCE_IMAGES);
    args.extend(["--install-config".into(), s(file)]);
    args.extend(extra.iter().map(|a| (*a).to_string()));
    args
}

/// A change to the AWS case's text.
type Edit = Box<dyn Fn(String) -> String>;

#[test]
fn bad_install_configs_are_exit_2_naming_the_field() {
    let none = |t: String| t;
    let cases: Vec<(Edit, &[&str], &str)> = vec![
        (
            Box::new(|t: String| t.replace("apiVersion: v1", "apiVersion: v2")),
            &[],
            "apiVersion: \"v2\": install-config version must be \"v1\"",
        ),
        (
            Box::new(|t: String| t.replace("  aws:\n    region", "  moon:\n    region")),
            &[],
            "platform.moon: unknown platform",
        ),
        (
            Box::new(|t: String| t.replace("platform:\n  aws:", "platform:\n  none: {}\n  aws:")),
            &[],
            "platform: must only specify a single type of platform; cannot use both \"aws\" and \"none\"",
        ),
        (
            Box::new(|t: String| t.replace("    region: us-east-2\n", "")),
            &[],
            "platform.aws.region: required",
        ),
        (
            Box::new(|t: String| {
                t.replace(
                    "publish: External",
                    "publish: External\nbootstrapInPlace:\n  installationDisk: /dev/sda",
                )
            }),
            &[],
            "controlPlane.replicas: 3: bootstrap in place requires a single ControlPlane replica",
        ),
        (
            Box::new(|t: String| t.replace("name: mycluster", "name: My_Cluster")),
            &[],
            "metadata.name: \"My_Cluster\"",
        ),
        (
            Box::new(|t: String| t.replace("  replicas: 3\ncompute", "  replicas: 0\ncompute")),
            &[],
            "controlPlane.replicas: 0: number of control plane replicas must be positive",
        ),
        (
            Box::new(|t: String| t.replace("- cidr: 10.0.0.0/16", "- cidr: 10.0.0.1/16")),
            &[],
            "networking.machineNetwork[0].cidr:",
        ),
        (
            Box::new(|t: String| t.replace("httpsProxy: http://", "httpsProxy: ftp://")),
            &[],
            "proxy.httpsProxy:",
        ),
        (
            Box::new(none),
            &["--infrastructure-name", "Not_A_Name"],
            "--infrastructure-name: ",
        ),
        (
            Box::new(none),
            &["--infrastructure-name", "mycluster-abcdefghijklmnopqrstu"],
            "--infrastructure-name: \"mycluster-abcdefghijklmnopqrstu\" is 31 characters long",
        ),
    ];
    for (edit, extra, message) in cases {
        let file = bad_install_config(edit);
        assert_bad(
            |dest| with_install_config(file.path(), dest, extra),
            message,
        );
    }
}

#[test]
fn live_cloud_data_is_asked_for_never_guessed() {
    for (dir, extra, message) in [
        ("azure", &[][..], "--cloud-config"),
        ("openstack", &[], "the external network ID"),
        ("ibmcloud", &[], "IBM Cloud account ID"),
        (
            "ibmcloud",
            &["--cloud-config", "CONFORMANCE"][..],
            "give it with --ibm-instance-crn",
        ),
        (
            "powervs",
            &[
                "--cloud-config",
                "CONFORMANCE",
                "--ibm-instance-crn",
                "not-a-crn",
            ],
            "--ibm-instance-crn: \"not-a-crn\" is not a CRN",
        ),
    ] {
        let extra: Vec<String> = extra
            .iter()
            .map(|a| {
                if *a == "CONFORMANCE" {
                    s(&conformance(&format!("{dir}/cloud-provider-config.yaml")))
                } else {
                    (*a).to_string()
                }
            })
            .collect();
        let extra: Vec<&str> = extra.iter().map(String::as_str).collect();
        assert_bad(
            |dest| with_install_config(&case_file(dir, "install-config.yaml"), dest, &extra),
            message,
        );
    }
}

#[test]
fn flags_that_need_or_exclude_the_install_config_are_usage_errors() {
    let aws = case_file("aws", "install-config.yaml");
    let infra = conformance("aws/infrastructure.yaml");
    for (args, message) in [
        (
            vec![
                "--install-config",
                aws.to_str().expect("utf8"),
                "--infrastructure",
                infra.to_str().expect("utf8"),
            ],
            "cannot be used with",
        ),
        (
            vec![
                "--infrastructure",
                infra.to_str().expect("utf8"),
                "--infrastructure-name",
                "x-abcde",
            ],
            "cannot be used with",
        ),
        (
            vec![
                "--infrastructure",
                infra.to_str().expect("utf8"),
                "--emit-infrastructure",
                "x.yaml",
            ],
            "cannot be used with",
        ),
        (vec![], "--infrastructure"),
    ] {
        assert_bad(
            |dest| {
                let mut a = common_args(dest, CONFORMANCE_IMAGES);
                a.extend(args.iter().map(|s| (*s).to_string()));
                a
            },
            message,
        );
    }
}

/// Renders `install-config` (text) for vSphere with `extra` flags; returns config/cloud.conf.
fn vsphere_cloud_conf(install_config: &str, extra: &[String]) -> String {
    let work = tempfile::tempdir().expect("tempdir");
    let file = work.path().join("install-config.yaml");
    std::fs::write(&file, install_config).expect("write");
    let dest = work.path().join("out");
    let mut args = common_args(&dest, CONFORMANCE_IMAGES);
    args.extend([
        "--install-config".into(),
        s(&file),
        "--infrastructure-name".into(),
        "mycluster-abcde".into(),
    ]);
    args.extend(extra.iter().cloned());
    let out = run(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    std::fs::read_to_string(dest.join("config/cloud.conf")).expect("cloud.conf")
}

fn ip_family(conf: &str) -> Value {
    parse_all(conf).remove(0)["global"]["ipFamily"].clone()
}

#[test]
fn dual_stack_vsphere_ip_families_follow_the_derived_network() {
    let text = std::fs::read_to_string(case_file("vsphere-dualstack", "install-config.yaml"))
        .expect("read");
    let conf = vsphere_cloud_conf(&text, &[]);
    assert_eq!(
        ip_family(&conf),
        serde_json::json!(["ipv4", "ipv6"]),
        "{conf}"
    );
    // The VIPs and OVN's internal address are never node addresses on a dual-stack cluster.
    assert!(
        conf.contains("excludeInternalNetworkSubnetCidr: 192.168.96.3/32,fd00:96::3/128"),
        "{conf}"
    );

    // IPv6 primary (vSphere allows it): every list with its IPv6 entry first.
    let v6_first = text
        .replace(
            "  - 172.30.0.0/16\n  - fd02::/112",
            "  - fd02::/112\n  - 172.30.0.0/16",
        )
        .replace(
            "  - cidr: 192.168.96.0/24\n  - cidr: fd00:96::/64",
            "  - cidr: fd00:96::/64\n  - cidr: 192.168.96.0/24",
        )
        .replace(
            "  - cidr: 10.128.0.0/14\n    hostPrefix: 23\n  - cidr: fd01::/48\n    hostPrefix: 64",
            "  - cidr: fd01::/48\n    hostPrefix: 64\n  - cidr: 10.128.0.0/14\n    hostPrefix: 23",
        );
    assert_ne!(v6_first, text);
    let conf = vsphere_cloud_conf(&v6_first, &[]);
    assert_eq!(
        ip_family(&conf),
        serde_json::json!(["ipv6", "ipv4"]),
        "{conf}"
    );

    // An explicit --network wins over the derived one: an IPv4-only Network, no ipFamily.
    let conf = vsphere_cloud_conf(
        &text,
        &["--network".into(), s(&conformance("network.yaml"))],
    );
    assert_eq!(ip_family(&conf), Value::Null, "{conf}");
}

#[test]
fn external_without_a_ccm_renders_nothing_and_says_why() {
    let work = tempfile::tempdir().expect("tempdir");
    let dest = work.path().join("out");
    let mut args = common_args(&dest, CONFORMANCE_IMAGES);
    args.extend([
        "--install-config".into(),
        s(&case_file("external-none", "install-config.yaml")),
    ]);
    let out = run(&args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains("platform.external.cloudControllerManager is \"\", not \"External\"")
            && err.contains("set it to External to render the CCM of platformName \"oci\""),
        "{err}"
    );
    assert!(err.contains("rendering nothing"), "{err}");
    assert!(read_tree(&dest).is_empty());
}

#[test]
fn bad_external_and_legacy_vsphere_install_configs_are_exit_2() {
    let text =
        |dir: &str| std::fs::read_to_string(case_file(dir, "install-config.yaml")).expect("read");
    let cases = [
        (
            text("external-oci").replace(
                "cloudControllerManager: External",
                "cloudControllerManager: Internal",
            ),
            "platform.external.cloudControllerManager: \"Internal\": supported values: \"\", \"External\"",
        ),
        (
            text("vsphere-legacy").replace("    datacenter: DC1\n", ""),
            "platform.vsphere.datacenter: must specify the datacenter",
        ),
        (
            text("vsphere-legacy").replace("    defaultDatastore: DS1\n", ""),
            "platform.vsphere.defaultDatastore: must specify the default datastore",
        ),
        (
            text("vsphere-legacy").replace(
                "    apiVIP: 192.168.96.3\n",
                "    apiVIP: 192.168.96.3\n    apiVIPs:\n    - 192.168.96.5\n",
            ),
            "platform.vsphere.apiVIP: \"192.168.96.3\" is not in platform.vsphere.apiVIPs",
        ),
        (
            text("vsphere-dualstack").replace("  - cidr: fd00:96::/64\n", ""),
            "networking.machineNetwork: \"192.168.96.0/24\": dual-stack IPv4/IPv6 requires an IPv6 network in this list",
        ),
        (
            text("aws").replace("networkType: OVNKubernetes", "networkType: OpenShiftSDN"),
            "networking.networkType: \"OpenShiftSDN\": networkType OpenShiftSDN is not supported",
        ),
    ];
    for (install_config, message) in cases {
        let file = tempfile::NamedTempFile::new().expect("temp");
        std::fs::write(file.path(), install_config).expect("write");
        assert_bad(|dest| with_install_config(file.path(), dest, &[]), message);
    }
}

#[test]
fn oci_and_digitalocean_run_their_pinned_vendor_images_when_images_json_lacks_the_keys() {
    for (dir, cloud_config, credentials, key, image) in [
        (
            "external-oci",
            Some("external/oci-cloud-provider.yaml"),
            None,
            "cloudControllerManagerOCI",
            "ghcr.io/oracle/cloud-provider-oci:v1.36.0",
        ),
        (
            "external-digitalocean",
            None,
            Some("digitalocean"),
            "cloudControllerManagerDigitalOcean",
            "docker.io/digitalocean/digitalocean-cloud-controller-manager:v0.1.71",
        ),
    ] {
        let c = Case {
            credentials,
            ..case(dir, cloud_config, false)
        };
        let work = tempfile::tempdir().expect("tempdir");
        let dest = work.path().join("out");
        let out = run(&install_config_args(&c, &dest, &work.path().join("e.yaml")));
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(0), "{dir}: {err}");
        let provider = dir.trim_start_matches("external-");
        assert!(
            err.contains(&format!(
                "images.json: no {key:?} entry: container cloud-controller-manager of the {provider} provider runs its default image {image} (provider.yaml spec.defaultImages)"
            )),
            "{dir}: {err}"
        );
        let tree = read_tree(&dest);
        let images: Vec<String> = objects_in(&tree, "manifests")
            .values()
            .chain(objects_in(&tree, "bootstrap").values())
            .filter_map(|o| {
                let pod = if o["kind"] == "Pod" {
                    &o["spec"]
                } else {
                    &o["spec"]["template"]["spec"]
                };
                pod["containers"][0]["image"].as_str().map(str::to_string)
            })
            .collect();
        assert_eq!(images, [image, image], "{dir}");
    }
}
