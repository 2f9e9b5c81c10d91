//! `render --install-config`: the derived Infrastructure, cloud-provider-config, Proxy and Network against
//! hand-written installer output (testdata/install-config/README.md), rendering from the
//! install-config against rendering from what it derives, and bad install-configs.

use crate::common;

use common::*;
use pretty_assertions::assert_eq;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A platform case: its folder and what the installer would read besides the install-config.
struct Case {
    dir: &'static str,
    /// `--credentials`: testdata/credentials/<name>.yaml.
    credentials: Option<&'static str>,
    /// `--ibm-instance-crn`.
    crn: bool,
    /// The `--<platform>-<fact>` flags; a value under `testdata/` is a file of the repository.
    facts: &'static [&'static str],
    /// `--cloud-config`, under testdata/: the CCM's own config on External platforms, which the
    /// installer does not write.
    cloud_config: Option<&'static str>,
    /// `--images`, under testdata/.
    images: &'static str,
    infra_name: &'static str,
}

const CONFORMANCE_IMAGES: &str = "conformance/images.json";

/// A CIS instance CRN in the account of the IBM Cloud and PowerVS conformance clusters.
const CRN: &str = "crn:v1:bluemix:public:internet-svcs:global:a/1e1f75646aef447814a6d907cc83fb3c:5d6a7ad2-4f0c-4d7b-9a1e-6c1c7b1d2e3f::";

const CASES: [Case; 17] = [
    case("aws", None, false, &[]),
    case("azure", Some("azure"), false, &[]),
    case(
        "azurestackhub",
        Some("azurestackhub"),
        false,
        &[
            "--azure-stack-endpoints",
            "testdata/install-config/azurestackhub/endpoints.json",
        ],
    ),
    case("gcp", None, false, &[]),
    case(
        "ibmcloud",
        Some("ibmcloud"),
        true,
        &["--ibmcloud-zones", "us-south-1"],
    ),
    case(
        "powervs",
        Some("powervs"),
        true,
        &["--powervs-vpc-subnets", "mycluster-abcde-subnet"],
    ),
    case(
        "openstack",
        Some("openstack"),
        false,
        &[
            "--openstack-external-network-id",
            "5b4f5c5e-0000-0000-0000-000000000000",
            "--openstack-octavia",
            "true",
            "--openstack-ca-cert",
            "testdata/install-config/openstack/ca-bundle.pem",
        ],
    ),
    case("vsphere", None, false, &[]),
    case("vsphere-legacy", None, false, &[]),
    case("vsphere-dualstack", None, false, &[]),
    // Host-group zones (zoneType HostGroup), as openshift-docs writes them.
    case("vsphere-hostgroups", None, false, &[]),
    case("nutanix", None, false, &[]),
    Case {
        infra_name: "sno-abcde",
        ..case("none", None, false, &[])
    },
    case("baremetal", None, false, &[]),
    // conformance/images.json has no key for OCI nor DigitalOcean: their pinned vendor images.
    Case {
        cloud_config: Some("external/oci-cloud-provider.yaml"),
        ..case("external-oci", None, false, &[])
    },
    Case {
        cloud_config: Some("external/alibaba-cloud-provider-config.yaml"),
        images: "external/images.json",
        infra_name: "sno-abcde",
        ..case("external-alibabacloud", None, false, &[])
    },
    case("external-digitalocean", Some("digitalocean"), false, &[]),
];

const fn case(
    dir: &'static str,
    credentials: Option<&'static str>,
    crn: bool,
    facts: &'static [&'static str],
) -> Case {
    Case {
        dir,
        credentials,
        crn,
        facts,
        cloud_config: None,
        images: CONFORMANCE_IMAGES,
        infra_name: "mycluster-abcde",
    }
}

/// `--credentials` for a case, as the render from derived files takes it too.
fn credentials_args(c: &Case) -> Vec<String> {
    c.credentials
        .map(|name| {
            vec![
                "--credentials".into(),
                s(&root().join(format!("testdata/credentials/{name}.yaml"))),
            ]
        })
        .unwrap_or_default()
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

fn testdata(rel: &str) -> PathBuf {
    root().join("testdata").join(rel)
}

/// The flags every render shares (the Network comes from the install-config, or from what it
/// derived).
fn common_args(dest: &Path) -> Vec<String> {
    images_args(dest, CONFORMANCE_IMAGES)
}

/// [`common_args`] with the images.json at `images` under testdata/.
fn images_args(dest: &Path, images: &str) -> Vec<String> {
    vec![
        "render".into(),
        "--images".into(),
        s(&testdata(images)),
        "--dest-dir".into(),
        s(dest),
    ]
}

fn install_config_args(c: &Case, dest: &Path, emit: &Path) -> Vec<String> {
    let mut args = images_args(dest, c.images);
    args.extend([
        "--install-config".into(),
        s(&case_file(c.dir, "install-config.yaml")),
        "--infrastructure-name".into(),
        c.infra_name.into(),
        "--emit-infrastructure".into(),
        s(emit),
    ]);
    args.extend(credentials_args(c));
    args.extend(c.facts.iter().map(|a| {
        if a.starts_with("testdata/") {
            s(&root().join(a))
        } else {
            (*a).to_string()
        }
    }));
    if c.crn {
        args.extend(["--ibm-instance-crn".into(), CRN.into()]);
    }
    if let Some(config) = c.cloud_config {
        args.extend(["--cloud-config".into(), s(&testdata(config))]);
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
            // None, BareMetal and External have none.
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
        let mut args = images_args(&from_manifests, c.images);
        args.extend([
            "--infrastructure".into(),
            s(&emit),
            "--proxy".into(),
            s(&emit),
            "--network".into(),
            s(&emit),
            "--feature-gate".into(),
            s(&emit),
        ]);
        match (c.cloud_config, &config_map) {
            (Some(config), _) => args.extend(["--cloud-config".into(), s(&testdata(config))]),
            (None, Some(_)) => args.extend(["--cloud-config".into(), s(&emit)]),
            (None, None) => {}
        }
        args.extend(credentials_args(c));
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
    ccm_catalogue::yaml::to_string(&config_map).expect("serialisable")
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

/// The args of a case with only the named flags kept (a flag and its value).
fn case_args_keeping(c: &Case, dest: &Path, keep: &[&str]) -> Vec<String> {
    let emit = dest.with_extension("emit.yaml");
    let all = install_config_args(c, dest, &emit);
    let mut out = Vec::new();
    let mut i = 0;
    while i < all.len() {
        let arg = &all[i];
        let is_fact = arg.starts_with("--")
            && (arg == "--credentials"
                || arg == "--ibm-instance-crn"
                || c.facts.contains(&arg.as_str()));
        if is_fact {
            if keep.contains(&arg.as_str()) {
                out.extend([arg.clone(), all[i + 1].clone()]);
            }
            i += 2;
        } else {
            out.push(arg.clone());
            i += 1;
        }
    }
    out
}

fn case_named(dir: &str) -> &'static Case {
    CASES.iter().find(|c| c.dir == dir).expect("a case")
}

#[test]
fn a_missing_fact_is_one_error_naming_every_input_that_would_supply_it() {
    for (dir, keep, wants) in [
        (
            "azure",
            &[][..],
            &[
                "--credentials (the installer's Azure credentials Secret, for azure_subscription_id and azure_tenant_id)",
            ][..],
        ),
        (
            "azurestackhub",
            &[],
            &[
                "--credentials (",
                "--azure-stack-endpoints (the Azure Stack Hub environment JSON",
            ],
        ),
        (
            "azurestackhub",
            &["--credentials"],
            &["give --azure-stack-endpoints ("],
        ),
        (
            "ibmcloud",
            &[],
            &[
                "--ibm-instance-crn (an IBM CRN of the cluster's account",
                "--ibmcloud-zones (the zones of region us-south",
            ],
        ),
        (
            "powervs",
            &["--credentials"],
            &[
                "--ibm-instance-crn (",
                "--powervs-vpc-subnets (the subnets of the existing VPC \"mycluster-abcde-vpc\")",
            ],
        ),
        (
            "openstack",
            &["--openstack-octavia"],
            &[
                "--credentials (the installer's OpenStack credentials Secret, for its clouds.yaml)",
                "--openstack-external-network-id (the ID of the external network \"external\")",
            ],
        ),
        (
            "openstack",
            &["--openstack-octavia", "--credentials"],
            &[
                "--openstack-external-network-id (",
                "--openstack-ca-cert (the CA bundle the clouds.yaml cacert names)",
            ],
        ),
    ] {
        let c = case_named(dir);
        let dest = tempfile::tempdir().expect("tempdir");
        std::fs::write(dest.path().join("README"), "not ours\n").expect("write");
        let args = case_args_keeping(c, dest.path(), keep);
        let err = assert_refused_untouched(
            dest.path(),
            || run(&args),
            "or the installer's cloud-provider-config with --cloud-config",
        );
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains(&format!(
                "platform.{}: ",
                if dir == "azurestackhub" { "azure" } else { dir }
            )),
            "{err}"
        );
        for want in wants {
            assert!(
                err.contains(want),
                "{dir} {keep:?}: expected {want:?} in {err}"
            );
        }
        assert!(
            !dest.path().with_extension("emit.yaml").exists(),
            "{dir}: emitted"
        );
    }
}

#[test]
fn platform_flags_are_checked() {
    let endpoints = s(&root().join("testdata/install-config/azurestackhub/endpoints.json"));
    let not_json = s(&case_file("azurestackhub", "install-config.yaml"));
    let stack_conformance = s(&conformance("openstack/cloud-provider-config.yaml"));
    let cases: [(&str, &[&str], Vec<&str>, &str); 7] = [
        (
            "aws",
            &[],
            vec!["--openstack-octavia", "false"],
            "--openstack-octavia: only for platform openstack; the install-config's platform is aws",
        ),
        (
            "azure",
            &["--credentials"],
            vec!["--azure-stack-endpoints", &endpoints],
            "--azure-stack-endpoints: only for platform azure with cloudName AzureStackCloud",
        ),
        (
            "ibmcloud",
            &["--ibmcloud-zones"],
            vec![
                "--ibm-instance-crn",
                "crn:v1:bluemix:public:dns-svcs:global:o/acc:x::",
            ],
            "--ibm-instance-crn: \"crn:v1:bluemix:public:dns-svcs:global:o/acc:x::\" has no a/<account> scope",
        ),
        (
            "openstack",
            &["--credentials", "--openstack-ca-cert"],
            vec!["--openstack-external-network-id", "not an id"],
            "--openstack-external-network-id: \"not an id\" is not a network ID",
        ),
        (
            "azurestackhub",
            &["--credentials"],
            vec!["--azure-stack-endpoints", &not_json],
            "--azure-stack-endpoints: not valid JSON",
        ),
        (
            "openstack",
            &[],
            vec!["--openstack-octavia", "maybe"],
            "invalid value 'maybe' for '--openstack-octavia <BOOL>'",
        ),
        (
            "openstack",
            &[],
            vec![
                "--openstack-octavia",
                "true",
                "--cloud-config",
                &stack_conformance,
            ],
            "cannot be used with",
        ),
    ];
    for (dir, keep, extra, message) in cases {
        assert_bad(
            |dest| {
                let mut args = case_args_keeping(case_named(dir), dest, keep);
                args.extend(extra.iter().map(|a| (*a).to_string()));
                args
            },
            message,
        );
    }
}

#[test]
fn credential_values_never_reach_stderr() {
    // A Secret whose subscription ID is not one line: the error names the key only.
    let creds = tempfile::NamedTempFile::new().expect("temp");
    std::fs::write(
        creds.path(),
        "apiVersion: v1\nkind: Secret\nmetadata: {name: azure-credentials, namespace: kube-system}\nstringData:\n  azure_subscription_id: \"hunter2\\nhunter3\"\n  azure_tenant_id: t\n",
    )
    .expect("write");
    let azure = case_named("azure");
    assert_bad(
        |dest| {
            let mut a = case_args_keeping(azure, dest, &[]);
            a.extend(["--credentials".into(), s(creds.path())]);
            a
        },
        "azure_subscription_id: empty or not a single line",
    );
    // A successful render says nothing of the IDs either.
    let work = tempfile::tempdir().expect("tempdir");
    let out = run(&install_config_args(
        azure,
        &work.path().join("out"),
        &work.path().join("e.yaml"),
    ));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        !err.contains("11111111-1111") && !err.contains("00000000-0000"),
        "{err}"
    );
    let err_again = {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut a = case_args_keeping(azure, dir.path(), &[]);
        a.extend(["--credentials".into(), s(creds.path())]);
        stderr(&run(&a))
    };
    assert!(!err_again.contains("hunter"), "{err_again}");
}

#[test]
fn without_octavia_flag_the_installers_default_is_taken_and_said() {
    let c = case_named("openstack");
    let work = tempfile::tempdir().expect("tempdir");
    let args = case_args_keeping(
        c,
        &work.path().join("out"),
        &[
            "--credentials",
            "--openstack-external-network-id",
            "--openstack-ca-cert",
        ],
    );
    let emit = work.path().join("out").with_extension("emit.yaml");
    let out = run(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let err = stderr(&out);
    let warnings: Vec<&str> = err
        .lines()
        .filter(|l| l.contains("--openstack-octavia"))
        .collect();
    assert_eq!(warnings.len(), 1, "{err}");
    assert!(
        warnings[0].starts_with("warning: ")
            && warnings[0].contains("assuming the cloud has Octavia"),
        "{err}"
    );
    // The same config as with --openstack-octavia true.
    let docs = parse_all(&std::fs::read_to_string(&emit).expect("emitted"));
    assert_eq!(
        by_kind(&docs, "ConfigMap"),
        expected("openstack", "expected-cloud-provider-config.yaml")
    );
    // And false turns the load balancer off, with no network ID needed.
    let mut args = case_args_keeping(
        c,
        &work.path().join("out2"),
        &["--credentials", "--openstack-ca-cert"],
    );
    args.extend(["--openstack-octavia".into(), "false".into()]);
    let emit = work.path().join("out2").with_extension("emit.yaml");
    let out = run(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let docs = parse_all(&std::fs::read_to_string(&emit).expect("emitted"));
    let config = by_kind(&docs, "ConfigMap").expect("config map");
    assert!(
        config["data"]["config"]
            .as_str()
            .expect("text")
            .ends_with("\n[LoadBalancer]\nenabled = false\n"),
        "{config}"
    );
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

/// What the newest installer writes differently from the (older) installer configs of the
/// public conformance clusters, per platform: files only the install-config path renders, and
/// how a cloud config text is normalised before the comparison. Everything else must be equal
/// byte for byte.
struct Agreement {
    dir: &'static str,
    /// Files only the install-config path renders, and why.
    only_derived: &'static [&'static str],
    /// ConfigMap keys only the install-config path renders.
    only_derived_keys: &'static [&'static str],
    normalise: fn(&str) -> String,
}

/// The newest Azure config (installer azure/cloudproviderconfig_test.go) sets
/// `excludeMasterFromStandardLB: false`, which the conformance clusters' older config left out.
fn without_exclude_master(text: &str) -> String {
    let mut value: Value = serde_json::from_str(text).expect("JSON cloud.conf");
    let map = value.as_object_mut().expect("object");
    if map.get("excludeMasterFromStandardLB") == Some(&Value::Bool(false)) {
        map.shift_remove("excludeMasterFromStandardLB");
    }
    value.to_string()
}

/// The newest IBM Cloud template ends with a blank line.
fn without_trailing_blank_lines(text: &str) -> String {
    format!("{}\n", text.trim_end())
}

/// The newest PowerVS template writes every key, empty ones included (gcfg reads an empty
/// value as unset).
fn without_empty_keys(text: &str) -> String {
    let kept: Vec<&str> = text
        .lines()
        .filter(|line| !line.trim_end().ends_with(" ="))
        .collect();
    format!("{}\n", kept.join("\n"))
}

fn as_is(text: &str) -> String {
    text.to_string()
}

const AGREEMENTS: [Agreement; 5] = [
    Agreement {
        dir: "azure",
        only_derived: &[],
        only_derived_keys: &[],
        normalise: without_exclude_master,
    },
    Agreement {
        dir: "azurestackhub",
        // The installer writes the hub's environment under `endpoints`; the conformance
        // cluster's config has none.
        only_derived: &["config/endpoints.conf"],
        only_derived_keys: &["endpoints"],
        normalise: without_exclude_master,
    },
    Agreement {
        dir: "ibmcloud",
        only_derived: &[],
        only_derived_keys: &[],
        normalise: without_trailing_blank_lines,
    },
    Agreement {
        dir: "powervs",
        only_derived: &[],
        only_derived_keys: &[],
        normalise: without_empty_keys,
    },
    Agreement {
        dir: "openstack",
        // The conformance config names a ca-file but carries no ca-bundle.pem; the installer
        // writes the bundle, which also makes the ccm-trusted-ca ConfigMap.
        only_derived: &[
            "config/ca-bundle.pem",
            "manifests/configmap-ccm-trusted-ca.yaml",
        ],
        only_derived_keys: &["ca-bundle.pem"],
        normalise: as_is,
    },
];

/// A rendered file made comparable: cloud config texts normalised, installer-only keys gone.
fn comparable(a: &Agreement, path: &str, bytes: &[u8]) -> String {
    let text = String::from_utf8(bytes.to_vec()).expect("UTF-8");
    if path.ends_with("cloud.conf") {
        return (a.normalise)(&text);
    }
    if path.starts_with("manifests/") && text.contains("cloud.conf") {
        let mut doc = parse_all(&text).remove(0);
        if let Some(data) = doc.get_mut("data").and_then(Value::as_object_mut) {
            for key in a.only_derived_keys {
                data.shift_remove(*key);
            }
            if let Some(conf) = data.get("cloud.conf").and_then(Value::as_str) {
                let conf = (a.normalise)(conf);
                data.insert("cloud.conf".into(), Value::String(conf));
            }
        }
        return doc.to_string();
    }
    text
}

#[test]
fn the_install_config_path_agrees_with_the_public_conformance_clusters() {
    for a in &AGREEMENTS {
        let c = case_named(a.dir);
        let work = tempfile::tempdir().expect("tempdir");
        let derived = work.path().join("derived");
        let out = run(&install_config_args(
            c,
            &derived,
            &work.path().join("e.yaml"),
        ));
        assert_eq!(out.status.code(), Some(0), "{}: {}", a.dir, stderr(&out));
        let given = work.path().join("given");
        let mut args = common_args(&given);
        args.extend([
            "--infrastructure".into(),
            s(&conformance(&format!("{}/infrastructure.yaml", a.dir))),
            "--cloud-config".into(),
            s(&conformance(&format!(
                "{}/cloud-provider-config.yaml",
                a.dir
            ))),
        ]);
        args.extend(credentials_args(c));
        let out = run(&args);
        assert_eq!(out.status.code(), Some(0), "{}: {}", a.dir, stderr(&out));
        let (mut derived, given) = (read_tree(&derived), read_tree(&given));
        for path in a.only_derived {
            assert!(
                derived.remove(*path).is_some(),
                "{}: {path} rendered",
                a.dir
            );
        }
        assert_eq!(
            derived.keys().collect::<Vec<_>>(),
            given.keys().collect::<Vec<_>>(),
            "{}",
            a.dir
        );
        let mut normalised = 0;
        for (path, bytes) in &derived {
            if bytes == &given[path] {
                continue;
            }
            normalised += 1;
            assert_eq!(
                comparable(a, path, bytes),
                comparable(a, path, &given[path]),
                "{}: {path}",
                a.dir
            );
        }
        // Only the cloud config files may differ before normalising (and OpenStack's not even
        // those: its config text is the same).
        assert!(normalised <= 3, "{}: {normalised} files differ", a.dir);
    }
}

const TABLE_START: &str =
    "<!-- needs-table: generated from src/config/install_config/facts.rs NEEDS -->\n";
const TABLE_END: &str = "<!-- end needs-table -->";

/// The table "What each platform needs besides the install-config" of docs/install-config.md and
/// the one in `render --help` come from the same data (`facts::NEEDS`); this keeps the docs' copy
/// equal (`CCM_RENDER_REGENERATE=1` rewrites it).
#[test]
fn the_readme_and_help_list_the_same_needs() {
    let want = ccm_render::config::install_config::facts::markdown_table();
    let path = root().join("docs/install-config.md");
    let readme = std::fs::read_to_string(&path).expect("docs/install-config.md");
    let start = readme.find(TABLE_START).expect("table start") + TABLE_START.len();
    let end = readme[start..].find(TABLE_END).expect("table end") + start;
    if std::env::var_os("CCM_RENDER_REGENERATE").is_some() {
        let text = format!("{}{want}{}", &readme[..start], &readme[end..]);
        std::fs::write(&path, text).expect("write docs/install-config.md");
    } else {
        assert_eq!(
            &readme[start..end],
            want,
            "docs/install-config.md table (CCM_RENDER_REGENERATE=1 rewrites it)"
        );
    }
    let help = ccm_render(&["render", "--help"]);
    let help = String::from_utf8_lossy(&help.stdout).into_owned();
    assert!(
        help.contains(&ccm_render::config::install_config::facts::help_table()),
        "{help}"
    );
    for need in ccm_render::config::install_config::facts::NEEDS {
        assert!(
            help.contains(&format!("  {}", need.input)),
            "{} in {help}",
            need.input
        );
    }
}

const RELEASE_TABLE: &str = "<!-- release-table: ";

/// The rows of the table "Which install-config fields change what, by release" of
/// docs/install-config.md, as cells.
fn release_table_rows(doc: &str) -> Vec<Vec<String>> {
    let start = doc.find(RELEASE_TABLE).expect("release-table marker");
    doc[start..]
        .lines()
        .skip(3)
        .take_while(|line| line.starts_with("| "))
        .map(|line| {
            line.trim_matches('|')
                .split(" | ")
                .map(|cell| cell.trim().to_string())
                .collect()
        })
        .collect()
}

/// The release-dependent fields of the code's one table (`installer_release::FIELDS`) are in the
/// docs' one table, each once per object it changes set, with the release that brings it (and
/// the last that reads it) and the gates that guard it named.
#[test]
fn the_docs_table_states_the_release_of_every_release_dependent_field() {
    let doc = std::fs::read_to_string(root().join("docs/install-config.md")).expect("docs");
    let rows = release_table_rows(&doc);
    assert!(rows.len() > 40, "{} rows", rows.len());
    for row in &rows {
        assert_eq!(row.len(), 4, "{row:?}");
    }
    for want in ccm_render::config::install_config::installer_release::docs_rows() {
        let field = format!("`{}`", want.path);
        let found: Vec<&Vec<String>> = rows
            .iter()
            .filter(|row| row[0] == want.object && row[1].starts_with(&field))
            .collect();
        assert_eq!(found.len(), 1, "{} ({}): {found:?}", want.path, want.object);
        let row = found[0];
        assert_eq!(row[3], want.from, "{}: From", want.path);
        for gate in &want.gates {
            assert!(
                row[2].contains(gate),
                "{}: gate {gate} in {:?}",
                want.path,
                row[2]
            );
        }
    }
}

#[test]
fn a_clouds_yaml_without_the_installers_cloud_is_refused_without_showing_it() {
    let creds = tempfile::NamedTempFile::new().expect("temp");
    std::fs::write(
        creds.path(),
        "apiVersion: v1\nkind: Secret\nmetadata: {name: openstack-credentials, namespace: kube-system}\nstringData:\n  clouds.yaml: |\n    clouds:\n      mycloud:\n        auth: {password: hunter2}\n        region_name: regionOne\n",
    )
    .expect("write");
    let c = case_named("openstack");
    let dest = tempfile::tempdir().expect("tempdir");
    std::fs::write(dest.path().join("README"), "not ours\n").expect("write");
    let mut args = case_args_keeping(c, dest.path(), &["--openstack-external-network-id"]);
    args.extend(["--credentials".into(), s(creds.path())]);
    let err = assert_refused_untouched(
        dest.path(),
        || run(&args),
        "clouds.yaml: no cloud named openstack under clouds",
    );
    assert!(!err.contains("hunter2"), "{err}");
}

/// Renders `install-config` (text) for vSphere with `extra` flags; returns config/cloud.conf.
fn vsphere_cloud_conf(install_config: &str, extra: &[String]) -> String {
    let work = tempfile::tempdir().expect("tempdir");
    let file = work.path().join("install-config.yaml");
    std::fs::write(&file, install_config).expect("write");
    let dest = work.path().join("out");
    let mut args = common_args(&dest);
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
    let mut args = common_args(&dest);
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
            cloud_config,
            ..case(dir, credentials, false, &[])
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

// ---------------------------------------------------------------------------------------------
// The install-config as the installer reads it: keys in other cases, the feature set, dual stack
// on AWS and Azure, and the shapes of the installer's docs/user examples
// (testdata/install-config/docs/).

/// `text` with the platform section's key (and, for AWS, `region`) written `to`.
fn platform_key_written(text: &str, from: &str, to: &str) -> String {
    let old = format!("\nplatform:\n  {from}:\n");
    assert!(text.contains(&old), "no platform.{from} in the case");
    text.replace(&old, &format!("\nplatform:\n  {to}:\n"))
}

/// A case's args with its install-config replaced by `file`.
fn case_args_with(c: &Case, file: &Path, dest: &Path, emit: &Path) -> Vec<String> {
    let original = s(&case_file(c.dir, "install-config.yaml"));
    install_config_args(c, dest, emit)
        .into_iter()
        .map(|a| if a == original { s(file) } else { a })
        .collect()
}

/// Renders case `c` with its install-config text `text`: exit status, stderr, the emitted
/// objects and the tree.
fn render_case_text(
    c: &Case,
    text: &str,
    extra: &[&str],
) -> (
    Option<i32>,
    String,
    Vec<Value>,
    std::collections::BTreeMap<String, Vec<u8>>,
) {
    let work = tempfile::tempdir().expect("tempdir");
    let file = work.path().join("install-config.yaml");
    std::fs::write(&file, text).expect("write");
    let dest = work.path().join("out");
    let emit = work.path().join("derived.yaml");
    let mut args = case_args_with(c, &file, &dest, &emit);
    args.extend(extra.iter().map(ToString::to_string));
    let out = run(&args);
    let docs = std::fs::read_to_string(&emit)
        .map(|t| parse_all(&t))
        .unwrap_or_default();
    let tree = if dest.exists() {
        read_tree(&dest)
    } else {
        std::collections::BTreeMap::new()
    };
    (out.status.code(), stderr(&out), docs, tree)
}

#[test]
fn platform_keys_in_other_cases_render_as_their_lower_case_forms() {
    // vSphere: and powerVS: as the vSphere and PowerVS docs write them; AWS: with Region:.
    let variants: [(&str, &str, &str, Edit); 4] = [
        ("vsphere", "vsphere", "vSphere", Box::new(|t| t)),
        ("vsphere-legacy", "vsphere", "VSphere", Box::new(|t| t)),
        ("powervs", "powervs", "powerVS", Box::new(|t| t)),
        (
            "aws",
            "aws",
            "AWS",
            Box::new(|t: String| t.replace("    region: us-east-2\n", "    Region: us-east-2\n")),
        ),
    ];
    for (dir, from, to, more) in variants {
        let c = case_named(dir);
        let text = std::fs::read_to_string(case_file(dir, "install-config.yaml")).expect("read");
        let (code, err, lower_docs, lower_tree) = render_case_text(c, &text, &[]);
        assert_eq!(code, Some(0), "{dir}: {err}");
        let other = more(platform_key_written(&text, from, to));
        assert_ne!(other, text);
        let (code, err, docs, tree) = render_case_text(c, &other, &[]);
        assert_eq!(code, Some(0), "{dir} with {to}: {err}");
        // The stable infrastructure name is not at stake: --infrastructure-name is given.
        assert_eq!(docs, lower_docs, "{dir} with {to}: derived objects");
        assert_eq!(tree, lower_tree, "{dir} with {to}: rendered tree");
        assert!(!tree.is_empty(), "{dir}");
    }
}

/// The `key: value` lines of the `[Global]` section of a cloud.conf, in order.
fn global_lines(conf: &[u8]) -> Vec<(String, String)> {
    String::from_utf8(conf.to_vec())
        .expect("UTF-8")
        .lines()
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect()
}

fn docs_example(name: &str) -> PathBuf {
    root().join("testdata/install-config/docs").join(name)
}

/// Renders a docs example with `extra` flags into a fresh folder: status, stderr, the emitted
/// objects and the tree.
fn render_docs_example(
    file: &Path,
    extra: &[&str],
) -> (
    Option<i32>,
    String,
    Vec<Value>,
    std::collections::BTreeMap<String, Vec<u8>>,
) {
    let work = tempfile::tempdir().expect("tempdir");
    let dest = work.path().join("out");
    let emit = work.path().join("derived.yaml");
    let mut args = common_args(&dest);
    args.extend([
        "--install-config".into(),
        s(file),
        "--infrastructure-name".into(),
        "test-abcde".into(),
        "--emit-infrastructure".into(),
        s(&emit),
    ]);
    args.extend(extra.iter().map(ToString::to_string));
    let out = run(&args);
    let docs = std::fs::read_to_string(&emit)
        .map(|t| parse_all(&t))
        .unwrap_or_default();
    let tree = if dest.exists() {
        read_tree(&dest)
    } else {
        std::collections::BTreeMap::new()
    };
    (out.status.code(), stderr(&out), docs, tree)
}

fn cidrs(list: &Value) -> Vec<String> {
    list.as_array()
        .expect("a list")
        .iter()
        .map(|e| {
            e.get("cidr")
                .unwrap_or(e)
                .as_str()
                .expect("a CIDR")
                .to_string()
        })
        .collect()
}

#[test]
fn aws_dual_stack_examples_render_with_the_feature_set() {
    for (name, family, first, release_lines) in [
        (
            "aws-dualstack-ipv6-primary.yaml",
            "DualStackIPv6Primary",
            ["fd01::/48", "fd02::/112"],
            ["ipv6", "ipv4"],
        ),
        (
            "aws-dualstack-existing-vpc-proxy.yaml",
            "DualStackIPv4Primary",
            ["10.128.0.0/14", "172.30.0.0/16"],
            ["ipv4", "ipv6"],
        ),
    ] {
        let (code, err, docs, tree) = render_docs_example(&docs_example(name), &[]);
        assert_eq!(code, Some(0), "{name}: {err}");
        let infra = by_kind(&docs, "Infrastructure").expect("Infrastructure");
        assert_eq!(
            infra["status"]["platformStatus"]["aws"]["ipFamily"], family,
            "{name}"
        );
        assert_eq!(
            infra["status"]["platformStatus"]["aws"]["region"],
            "us-west-2"
        );
        let network = by_kind(&docs, "Network").expect("Network");
        let cluster = cidrs(&network["spec"]["clusterNetwork"]);
        let service = cidrs(&network["spec"]["serviceNetwork"]);
        assert_eq!(cluster.len(), 2, "{name}: both families");
        assert_eq!(service.len(), 2, "{name}: both families");
        assert_eq!(
            [cluster[0].as_str(), service[0].as_str()],
            first,
            "{name}: primary first"
        );
        let fg = by_kind(&docs, "FeatureGate").expect("FeatureGate");
        assert_eq!(fg["spec"]["featureSet"], "TechPreviewNoUpgrade");
        // The installer's cloud-provider-config: one NodeIPFamilies key per family, primary
        // first; the newest release keeps them as separate keys.
        let config_map = by_kind(&docs, "ConfigMap").expect("cloud-provider-config");
        let want = format!(
            "[Global]\nNodeIPFamilies={}\nNodeIPFamilies={}\n",
            release_lines[0], release_lines[1]
        );
        assert_eq!(config_map["data"]["config"], want.as_str(), "{name}");
        let families: Vec<String> = global_lines(&tree["config/cloud.conf"])
            .into_iter()
            .filter(|(k, _)| k == "NodeIPFamilies")
            .map(|(_, v)| v)
            .collect();
        assert_eq!(families, release_lines, "{name}");
    }
    // The example behind a proxy: the CCM containers get it.
    let (_, _, docs, _) =
        render_docs_example(&docs_example("aws-dualstack-existing-vpc-proxy.yaml"), &[]);
    let proxy = by_kind(&docs, "Proxy").expect("Proxy");
    assert_eq!(proxy["spec"]["httpsProxy"], "http://proxy.example.com:3128");
    assert!(
        proxy["status"]["noProxy"]
            .as_str()
            .expect("noProxy")
            .contains("fd02::/112"),
        "{proxy}"
    );
}

#[test]
fn azure_dual_stack_into_an_existing_vnet_renders_with_the_feature_set() {
    let credentials = s(&testdata("credentials/azure.yaml"));
    let (code, err, docs, tree) = render_docs_example(
        &docs_example("azure-dualstack-existing-vnet.yaml"),
        &["--credentials", &credentials],
    );
    assert_eq!(code, Some(0), "{err}");
    let infra = by_kind(&docs, "Infrastructure").expect("Infrastructure");
    let azure = &infra["status"]["platformStatus"]["azure"];
    assert_eq!(azure["ipFamily"], "DualStackIPv4Primary");
    assert_eq!(azure["networkResourceGroupName"], "network-rg");
    let network = by_kind(&docs, "Network").expect("Network");
    assert_eq!(
        cidrs(&network["spec"]["serviceNetwork"]),
        ["172.30.0.0/16", "fd02::/112"]
    );
    let conf: Value =
        serde_json::from_slice(&tree["config/cloud.conf"]).expect("Azure's cloud.conf is JSON");
    assert_eq!(conf["vnetName"], "my-vnet");
    assert_eq!(conf["vnetResourceGroup"], "network-rg");
    assert_eq!(conf["subnetName"], "compute-subnet");
}

/// Refused: exit 2, one line naming the field and the reason, nothing written (neither the
/// dest dir nor the emitted file).
fn assert_refused_in_one_line(file: &Path, extra: &[&str], wants: &[&str]) {
    let work = tempfile::tempdir().expect("tempdir");
    let dest = work.path().join("out");
    std::fs::create_dir(&dest).expect("mkdir");
    std::fs::write(dest.join("README"), "not ours\n").expect("write");
    let before = read_tree(&dest);
    let emit = work.path().join("derived.yaml");
    let mut args = common_args(&dest);
    args.extend([
        "--install-config".into(),
        s(file),
        "--infrastructure-name".into(),
        "test-abcde".into(),
        "--emit-infrastructure".into(),
        s(&emit),
    ]);
    args.extend(extra.iter().map(ToString::to_string));
    let out = run(&args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    for want in wants {
        assert!(err.contains(want), "expected {want:?} in {err}");
    }
    assert_eq!(read_tree(&dest), before, "dest dir changed: {err}");
    assert!(!emit.exists(), "--emit-infrastructure written: {err}");
}

fn temp_text(text: &str) -> tempfile::NamedTempFile {
    let file = tempfile::NamedTempFile::new().expect("temp");
    std::fs::write(file.path(), text).expect("write");
    file
}

#[test]
fn dual_stack_without_its_feature_set_is_refused_naming_the_gate() {
    let credentials = s(&testdata("credentials/azure.yaml"));
    // The installer has ipFamily from 4.22 (installer PR #10207); AWSDualStackInstall is
    // previews-only at 4.22 and in every fixed set at 4.23 (openshift/api release-4.2x
    // features.go); AzureDualStackInstall previews-only throughout.
    for (name, field, gate, extra) in [
        (
            "aws-dualstack-ipv6-primary.yaml",
            "platform.aws.ipFamily",
            "AWSDualStackInstall",
            vec!["--release", "4.22"],
        ),
        (
            "aws-dualstack-existing-vpc-proxy.yaml",
            "platform.aws.ipFamily",
            "AWSDualStackInstall",
            vec!["--release", "4.22"],
        ),
        (
            "azure-dualstack-existing-vnet.yaml",
            "platform.azure.ipFamily",
            "AzureDualStackInstall",
            vec!["--credentials", credentials.as_str()],
        ),
    ] {
        let text = std::fs::read_to_string(docs_example(name)).expect("read");
        for set in ["", "featureSet: OKD\n"] {
            let file = temp_text(&text.replace("featureSet: TechPreviewNoUpgrade\n", set));
            assert_refused_in_one_line(
                file.path(),
                &extra,
                &[field, gate, "TechPreviewNoUpgrade or DevPreviewNoUpgrade"],
            );
        }
        // CustomNoUpgrade turns it on when it lists the gate.
        let custom = text.replace(
            "featureSet: TechPreviewNoUpgrade\n",
            &format!("featureSet: CustomNoUpgrade\nfeatureGates:\n- {gate}=true\n"),
        );
        let file = temp_text(&custom);
        let (code, err, docs, _) = render_docs_example(file.path(), &extra);
        assert_eq!(code, Some(0), "{name} with CustomNoUpgrade: {err}");
        let fg = by_kind(&docs, "FeatureGate").expect("FeatureGate");
        assert_eq!(fg["spec"]["customNoUpgrade"]["enabled"][0], gate);
    }
    // At 4.23 the AWS examples need no feature set; before 4.22 the installer has no ipFamily.
    let text = std::fs::read_to_string(docs_example("aws-dualstack-ipv6-primary.yaml"))
        .expect("read")
        .replace("featureSet: TechPreviewNoUpgrade\n", "");
    let file = temp_text(&text);
    let (code, err, docs, _) = render_docs_example(file.path(), &["--release", "4.23"]);
    assert_eq!(code, Some(0), "{err}");
    let infra = by_kind(&docs, "Infrastructure").expect("Infrastructure");
    assert_eq!(
        infra["status"]["platformStatus"]["aws"]["ipFamily"],
        "DualStackIPv6Primary"
    );
    assert_refused_in_one_line(
        file.path(),
        &["--release", "4.21"],
        &[
            "platform.aws.ipFamily: \"DualStackIPv6Primary\": the installer of OpenShift 4.21 has no such field; it arrives in 4.22",
        ],
    );
}

#[test]
fn bad_feature_sets_ip_families_and_dual_stack_networks_are_refused_naming_the_field() {
    let ipv6_primary =
        std::fs::read_to_string(docs_example("aws-dualstack-ipv6-primary.yaml")).expect("read");
    let cases: Vec<(String, Vec<&str>)> = vec![
        (
            ipv6_primary.replace("featureSet: TechPreviewNoUpgrade", "featureSet: Default"),
            vec!["featureSet: \"Default\": supported values:"],
        ),
        (
            ipv6_primary.replace(
                "featureSet: TechPreviewNoUpgrade",
                "featureSet: TechPreviewNoUpgrade\nfeatureGates: [AWSDualStackInstall=true]",
            ),
            vec![
                "featureGates: custom features can only be used with the CustomNoUpgrade feature set",
            ],
        ),
        (
            ipv6_primary.replace(
                "featureSet: TechPreviewNoUpgrade",
                "featureSet: CustomNoUpgrade\nfeatureGates: [AWSDualStackInstall]",
            ),
            vec!["featureGates[0]: \"AWSDualStackInstall\": feature not in expected format"],
        ),
        (
            ipv6_primary.replace("ipFamily: DualStackIPv6Primary", "ipFamily: DualStack"),
            vec!["platform.aws.ipFamily: \"DualStack\": supported values: \"IPv4\""],
        ),
        // IPv6 primary with the IPv4 networks listed first.
        (
            ipv6_primary.replace(
                "ipFamily: DualStackIPv6Primary",
                "ipFamily: DualStackIPv4Primary",
            ),
            vec![
                "networking.serviceNetwork: \"fd02::/112, 172.30.0.0/16\"",
                "ipFamily is DualStackIPv4Primary: list the IPv4 network first",
            ],
        ),
        // Both families without a dual-stack ipFamily: the message points at ipFamily.
        (
            ipv6_primary.replace("    ipFamily: DualStackIPv6Primary\n", ""),
            vec![
                "dual-stack IPv4/IPv6 is not supported for this platform (aws) unless platform.aws.ipFamily is DualStackIPv4Primary or DualStackIPv6Primary",
            ],
        ),
    ];
    for (text, wants) in cases {
        let file = temp_text(&text);
        assert_refused_in_one_line(file.path(), &[], &wants);
    }
}

#[test]
fn upi_vsphere_baremetal_and_agent_external_examples_render() {
    // UPI vSphere: the legacy vCenter under vSphere:, converted as the installer does.
    let (code, err, docs, tree) = render_docs_example(&docs_example("vsphere-upi.yaml"), &[]);
    assert_eq!(code, Some(0), "{err}");
    let infra = by_kind(&docs, "Infrastructure").expect("Infrastructure");
    assert_eq!(
        infra["spec"]["platformSpec"]["vsphere"]["vcenters"][0]["server"],
        "vcsa.example.com"
    );
    let conf = String::from_utf8(tree["config/cloud.conf"].clone()).expect("UTF-8");
    assert!(conf.contains("vcsa.example.com"), "{conf}");
    // Bare metal: accepted, no CCM, nothing rendered, and said.
    let (code, err, docs, tree) = render_docs_example(&docs_example("baremetal-ipi.yaml"), &[]);
    assert_eq!(code, Some(0), "{err}");
    assert!(tree.is_empty(), "{:?}", tree.keys());
    assert!(err.contains("no cloud controller manager"), "{err}");
    let infra = by_kind(&docs, "Infrastructure").expect("Infrastructure");
    assert_eq!(
        infra["status"]["platformStatus"]["baremetal"]["apiServerInternalIPs"][0],
        "192.168.111.5"
    );
    // Agent-based on OCI: platform External (written External: / PlatformName:) with the CCM
    // the user brings.
    let oci = s(&testdata("external/oci-cloud-provider.yaml"));
    let (code, err, docs, tree) = render_docs_example(
        &docs_example("agent-external-oci.yaml"),
        &["--cloud-config", &oci],
    );
    assert_eq!(code, Some(0), "{err}");
    let infra = by_kind(&docs, "Infrastructure").expect("Infrastructure");
    assert_eq!(
        infra["spec"]["platformSpec"]["external"]["platformName"],
        "oci"
    );
    assert!(tree.contains_key("config/cloud.conf"), "{:?}", tree.keys());
}

/// `ccm-render releases`: the release names it renders for.
fn releases() -> Vec<String> {
    let out = run(&["releases".to_string()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    String::from_utf8(out.stdout)
        .expect("UTF-8")
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| w.starts_with(|c: char| c.is_ascii_digit()))
        .map(str::to_string)
        .collect()
}

/// `with` and `without` are the same tree but for the cloud config's `nodes` block (the node
/// networks of an Infrastructure's `nodeNetworking`), which only `with` has.
fn assert_node_networks_only_differ(
    with: &std::collections::BTreeMap<String, Vec<u8>>,
    without: &std::collections::BTreeMap<String, Vec<u8>>,
    what: &str,
) {
    assert_eq!(
        with.keys().collect::<Vec<_>>(),
        without.keys().collect::<Vec<_>>(),
        "{what}"
    );
    for (name, bytes) in with {
        let text = String::from_utf8_lossy(bytes);
        let other = String::from_utf8_lossy(&without[name]);
        // `without`'s lines, in order, are `with`'s less the node networks (and the `nodes:`
        // key when only they are under it).
        let mut rest = other.lines().peekable();
        for line in text.lines() {
            if rest.peek() == Some(&line) {
                rest.next();
                continue;
            }
            let key = line.trim_start();
            assert!(
                key == "nodes:"
                    || key.starts_with("internalNetworkSubnetCidr:")
                    || key.starts_with("externalNetworkSubnetCidr:"),
                "{what}: {name}: {line:?} is not a node network"
            );
        }
        assert_eq!(rest.next(), None, "{what}: {name}");
        if name.ends_with("cloud.conf") {
            assert!(
                text.contains("internalNetworkSubnetCidr:"),
                "{what}: {name}"
            );
        }
    }
}

#[test]
fn feature_set_in_the_install_config_renders_what_the_feature_gate_flag_renders() {
    let releases = releases();
    assert!(releases.len() >= 6, "{releases:?}");
    let work = tempfile::tempdir().expect("tempdir");
    let gate = work.path().join("featuregate.yaml");
    std::fs::write(
        &gate,
        "apiVersion: config.openshift.io/v1\nkind: FeatureGate\nmetadata:\n  name: cluster\nspec:\n  featureSet: TechPreviewNoUpgrade\n",
    )
    .expect("write");
    let gate = s(&gate);
    for c in &CASES {
        let text = std::fs::read_to_string(case_file(c.dir, "install-config.yaml")).expect("read");
        // The host-group case carries the set already (its zones need it).
        let with_set = if text.contains("\nfeatureSet: TechPreviewNoUpgrade\n") {
            text.clone()
        } else {
            format!("{text}\nfeatureSet: TechPreviewNoUpgrade\n")
        };
        for release in &releases {
            let (code_a, err_a, _, tree_a) =
                render_case_text(c, &with_set, &["--release", release]);
            let (code_b, err_b, _, tree_b) =
                render_case_text(c, &text, &["--release", release, "--feature-gate", &gate]);
            assert_eq!(code_a, code_b, "{} at {release}: {err_a} / {err_b}", c.dir);
            if with_set != text
                && c.dir.starts_with("vsphere")
                && ["4.18", "4.19"].contains(&release.as_str())
            {
                // VSphereMultiNetworks is previews-only there (openshift/api release-4.18 and
                // 4.19): the install-config's set also makes the installer write nodeNetworking
                // into the Infrastructure, which CCCMO turns into the cloud config's `nodes`
                // block; `--feature-gate` changes the render, not what the installer wrote.
                assert_node_networks_only_differ(
                    &tree_a,
                    &tree_b,
                    &format!("{} at {release}", c.dir),
                );
                continue;
            }
            assert_eq!(tree_a, tree_b, "{} at {release}", c.dir);
        }
    }
    // For AWS at 4.21, AWSServiceLBNetworkSecurityGroup is TechPreview only: the feature set
    // adds NLBSecurityGroupMode = Managed, which the Default set does not.
    let aws = case_named("aws");
    let text = std::fs::read_to_string(case_file("aws", "install-config.yaml")).expect("read");
    let mode = |tree: &std::collections::BTreeMap<String, Vec<u8>>| {
        global_lines(&tree["config/cloud.conf"])
            .into_iter()
            .find(|(k, _)| k == "NLBSecurityGroupMode")
            .map(|(_, v)| v)
    };
    let (_, _, _, default) = render_case_text(aws, &text, &["--release", "4.21"]);
    let (code, err, _, tech_preview) = render_case_text(
        aws,
        &format!("{text}\nfeatureSet: TechPreviewNoUpgrade\n"),
        &["--release", "4.21"],
    );
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(mode(&default), None);
    assert_eq!(mode(&tech_preview), Some("Managed".to_string()));
}

#[test]
fn an_explicit_feature_gate_wins_and_stderr_says_so_when_they_differ() {
    let aws = case_named("aws");
    let text = std::fs::read_to_string(case_file("aws", "install-config.yaml")).expect("read");
    let tech_preview = format!("{text}\nfeatureSet: TechPreviewNoUpgrade\n");
    let work = tempfile::tempdir().expect("tempdir");
    let default_gate = work.path().join("default.yaml");
    std::fs::write(
        &default_gate,
        "apiVersion: config.openshift.io/v1\nkind: FeatureGate\nmetadata:\n  name: cluster\nspec: {}\n",
    )
    .expect("write");
    let default_gate = s(&default_gate);
    let (code, err, _, with_flag) = render_case_text(
        aws,
        &tech_preview,
        &["--release", "4.21", "--feature-gate", &default_gate],
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains(&format!(
            "--feature-gate {default_gate} wins over featureSet TechPreviewNoUpgrade"
        )),
        "{err}"
    );
    let (_, _, _, default) = render_case_text(aws, &text, &["--release", "4.21"]);
    assert_eq!(with_flag, default, "the flag's Default set is rendered");
    // The same set both ways: nothing to say.
    let (code, err, _, _) = render_case_text(
        aws,
        &text,
        &["--release", "4.21", "--feature-gate", &default_gate],
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(!err.contains("wins over"), "{err}");
}
