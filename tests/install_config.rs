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
    /// `--cloud-config`: the installer computes this platform's config from live cloud data.
    cloud_config: Option<&'static str>,
    /// `--ibm-instance-crn`.
    crn: bool,
    infra_name: &'static str,
}

const CRN: &str = "crn:v1:bluemix:public:internet-svcs:global:a/abc:def::";

const CASES: [Case; 11] = [
    case("aws", None, false),
    case("azure", Some("azure"), false),
    case("azurestackhub", Some("azurestackhub"), false),
    case("gcp", None, false),
    case("ibmcloud", Some("ibmcloud"), true),
    case("powervs", Some("powervs"), true),
    case("openstack", Some("openstack"), false),
    case("vsphere", None, false),
    case("nutanix", None, false),
    Case {
        dir: "none",
        cloud_config: None,
        crn: false,
        infra_name: "sno-abcde",
    },
    case("baremetal", None, false),
];

const fn case(dir: &'static str, cloud_config: Option<&'static str>, crn: bool) -> Case {
    Case {
        dir,
        cloud_config,
        crn,
        infra_name: "mycluster-abcde",
    }
}

fn case_file(dir: &str, name: &str) -> PathBuf {
    root().join("testdata/install-config").join(dir).join(name)
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

fn run(args: &[String]) -> std::process::Output {
    ccm_render(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

/// The flags every render of a case shares.
fn common_args(dest: &Path) -> Vec<String> {
    vec![
        "render".into(),
        "--images".into(),
        s(&conformance("images.json")),
        "--network".into(),
        s(&conformance("network.yaml")),
        "--dest-dir".into(),
        s(dest),
    ]
}

fn install_config_args(c: &Case, dest: &Path, emit: &Path) -> Vec<String> {
    let mut args = common_args(dest);
    args.extend([
        "--install-config".into(),
        s(&case_file(c.dir, "install-config.yaml")),
        "--infrastructure-name".into(),
        c.infra_name.into(),
        "--emit-infrastructure".into(),
        s(emit),
    ]);
    if let Some(platform) = c.cloud_config {
        args.extend([
            "--cloud-config".into(),
            s(&conformance(&format!(
                "{platform}/cloud-provider-config.yaml"
            ))),
        ]);
    }
    if c.crn {
        args.extend(["--ibm-instance-crn".into(), CRN.into()]);
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
            // Live-data platforms take --cloud-config; None and BareMetal have none.
            None => assert_eq!(config_map, None, "{}", c.dir),
        }
        let proxy = by_kind(&docs, "Proxy").expect("a Proxy, always written");
        if let Some(want) = expected(c.dir, "expected-proxy.yaml") {
            assert_eq!(proxy, want, "{}", c.dir);
        }

        // (b) Rendering from what was derived gives the same tree.
        let from_manifests = work.path().join("b");
        let mut args = common_args(&from_manifests);
        args.extend([
            "--infrastructure".into(),
            s(&emit),
            "--proxy".into(),
            s(&emit),
        ]);
        match (c.cloud_config, &config_map) {
            (Some(platform), _) => args.extend([
                "--cloud-config".into(),
                s(&conformance(&format!(
                    "{platform}/cloud-provider-config.yaml"
                ))),
            ]),
            (None, Some(_)) => args.extend(["--cloud-config".into(), s(&emit)]),
            (None, None) => {}
        }
        let out = run(&args);
        assert_eq!(out.status.code(), Some(0), "{}: {}", c.dir, stderr(&out));
        let a = read_tree(&from_install_config);
        assert_eq!(a, read_tree(&from_manifests), "{}", c.dir);
        let has_ccm = !matches!(c.dir, "none" | "baremetal");
        assert_eq!(!a.is_empty(), has_ccm, "{}: {:?}", c.dir, a.keys());
        if has_ccm {
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
        let mut args = common_args(&dest);
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
    let mut args = common_args(dest);
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
                let mut a = common_args(dest);
                a.extend(args.iter().map(|s| (*s).to_string()));
                a
            },
            message,
        );
    }
}
