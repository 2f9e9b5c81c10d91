//! `render --hosted-control-plane`: the 36 cases of `testdata/hosted/` (HyperShift's own output
//! for its CCM components, testdata/hosted/README.md) rendered equal object for object, field
//! for field, except the three fields HyperShift's apply machinery adds; and the refusals of a
//! bad HostedControlPlane, --images or --operator-env: exit 2, one line naming the field,
//! nothing written.

use crate::common::{assert_refused_untouched, ccm_render, objects_in, parse_all, read_tree, root};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn case(rel: &str) -> PathBuf {
    root().join("testdata/hosted").join(rel)
}

/// The command line of a case folder.
fn args_of(dir: &Path, dest: &Path) -> Vec<String> {
    let s = |p: PathBuf| p.to_string_lossy().into_owned();
    let mut args = vec![
        "render".to_string(),
        "--hosted-control-plane".into(),
        s(dir.join("hcp.yaml")),
        "--images".into(),
        s(dir.join("image-references.yaml")),
        "--dest-dir".into(),
        s(dest.to_path_buf()),
    ];
    if let Ok(env) = std::fs::read_to_string(dir.join("env")) {
        for line in env.lines().filter(|l| !l.is_empty()) {
            args.extend(["--operator-env".to_string(), line.to_string()]);
        }
    }
    if dir.join("credentials.yaml").exists() {
        args.extend(["--credentials".to_string(), s(dir.join("credentials.yaml"))]);
    }
    args
}

/// HyperShift's object without the three fields its apply machinery adds (an annotations map
/// left empty goes too).
pub(crate) fn without_apply_fields(mut object: Value) -> Value {
    if let Some(meta) = object.get_mut("metadata").and_then(Value::as_object_mut) {
        meta.remove("resourceVersion");
        if let Some(Value::Object(a)) = meta.get_mut("annotations") {
            a.remove("hypershift.openshift.io/desired-state-hash");
            if a.is_empty() {
                meta.remove("annotations");
            }
        }
    }
    if let Some(Value::Object(a)) = object.pointer_mut("/spec/template/metadata/annotations") {
        a.remove("component.hypershift.openshift.io/config-hash");
    }
    object
}

fn key(object: &Value) -> String {
    crate::common::key_of(object)
}

/// Asserts that the render in `dest` is the objects of `case/expected/` (HyperShift's), object
/// for object and field for field but for the apply fields, and nothing but `manifests/`: a
/// hosted control plane has no bootstrap node.
pub(crate) fn assert_renders_hypershifts_objects(dest: &Path, case: &Path, label: &str) {
    let rendered: BTreeMap<String, Value> = objects_in(&read_tree(dest), "manifests")
        .into_values()
        .map(|o| (key(&o), o))
        .collect();
    let mut expected = BTreeMap::new();
    for entry in std::fs::read_dir(case.join("expected")).expect("expected/") {
        let text = std::fs::read_to_string(entry.expect("entry").path()).expect("reads");
        for object in parse_all(&text) {
            expected.insert(key(&object), without_apply_fields(object));
        }
    }
    assert_eq!(
        rendered.keys().collect::<Vec<_>>(),
        expected.keys().collect::<Vec<_>>(),
        "{label}: the objects"
    );
    for (k, want) in &expected {
        assert_eq!(&rendered[k], want, "{label}: {k}");
    }
    assert!(!dest.join("bootstrap").exists(), "{label}");
}

#[test]
fn every_hypershift_case_renders_equal_but_for_the_apply_fields() {
    let mut cases = 0;
    for platform in ["aws", "azure", "gcp", "kubevirt", "openstack", "powervs"] {
        for variant in [
            "default",
            "AROSwift",
            "GCP",
            "IBMCloud",
            "ModernTLS",
            "TechPreviewNoUpgrade",
        ] {
            let dir = case(&format!("{platform}/{variant}"));
            let tmp = tempfile::tempdir().expect("tempdir");
            let dest = tmp.path().join("out");
            let args = args_of(&dir, &dest);
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let out = ccm_render(&args);
            assert!(
                out.status.success(),
                "{platform}/{variant}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            assert_renders_hypershifts_objects(&dest, &dir, &format!("{platform}/{variant}"));
            cases += 1;
        }
    }
    assert_eq!(cases, 36);
}

#[test]
fn two_runs_of_a_case_write_the_same_bytes() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let trees: Vec<_> = ["a", "b"]
        .iter()
        .map(|name| {
            let dest = tmp.path().join(name);
            let args = args_of(&case("azure/AROSwift"), &dest);
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            assert!(ccm_render(&args).status.success());
            read_tree(&dest)
        })
        .collect();
    assert_eq!(trees[0], trees[1]);
}

/// A copy of a case's HostedControlPlane with `edit` applied, refused with `message`.
fn refused_with(rel: &str, edit: impl Fn(&str) -> String, extra: &[&str], message: &str) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join("case");
    std::fs::create_dir_all(&dir).expect("mkdir");
    for file in [
        "hcp.yaml",
        "image-references.yaml",
        "env",
        "credentials.yaml",
    ] {
        if let Ok(text) = std::fs::read_to_string(case(rel).join(file)) {
            let text = if file == "hcp.yaml" {
                edit(&text)
            } else {
                text
            };
            std::fs::write(dir.join(file), text).expect("write");
        }
    }
    let dest = tmp.path().join("out");
    std::fs::create_dir_all(dest.join("manifests")).expect("mkdir");
    std::fs::write(dest.join("manifests/keep.yaml"), "kept\n").expect("write");
    let mut args = args_of(&dir, &dest);
    args.extend(extra.iter().map(|s| (*s).to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let err = assert_refused_untouched(&dest, || ccm_render(&args), message);
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn an_unknown_platform_is_refused_naming_the_field() {
    refused_with(
        "aws/default",
        |t| t.replace("type: AWS", "type: Moon"),
        &[],
        "hcp.yaml: spec.platform.type: unknown platform \"Moon\"",
    );
}

#[test]
fn an_invalid_health_probe_mode_and_a_port_out_of_range_are_refused() {
    let annotate = |a: &'static str| {
        move |t: &str| {
            t.replace(
                "  labels:\n",
                &format!("  annotations:\n    {a}\n  labels:\n"),
            )
        }
    };
    refused_with(
        "aws/default",
        annotate("hypershift.openshift.io/aws-load-balancer-health-probe-mode: Sometimes"),
        &[],
        "metadata.annotations.\"hypershift.openshift.io/aws-load-balancer-health-probe-mode\": invalid value \"Sometimes\" (valid values: Shared, ServiceNodePort)",
    );
    refused_with(
        "azure/default",
        annotate("hypershift.openshift.io/shared-load-balancer-health-probe-port: '70000'"),
        &[],
        "metadata.annotations.\"hypershift.openshift.io/shared-load-balancer-health-probe-port\": invalid value 70000 (must be between 1 and 65535)",
    );
}

#[test]
fn a_platform_block_missing_for_its_type_is_refused() {
    for (rel, block, field) in [
        (
            "gcp/default",
            "    gcp:\n",
            "spec.platform.gcp is missing for type GCP",
        ),
        (
            "powervs/default",
            "    powervs:\n",
            "spec.platform.powervs is missing for type PowerVS",
        ),
        (
            "azure/default",
            "    azure:\n",
            "spec.platform.azure is missing for type Azure",
        ),
        (
            "aws/default",
            "    aws:\n",
            "spec.platform.aws is missing for type AWS",
        ),
    ] {
        refused_with(rel, |t| t.replace(block, "    unused:\n"), &[], field);
    }
}

#[test]
fn a_tls_profile_the_api_server_would_reject_is_refused_naming_the_field() {
    let at = "hcp.yaml: spec.configuration.apiServer.tlsSecurityProfile";
    refused_with(
        "aws/ModernTLS",
        |t| t.replace("type: Modern", "type: Fancy"),
        &[],
        &format!("{at}.type: unknown profile \"Fancy\""),
    );
    refused_with(
        "gcp/ModernTLS",
        |t| t.replace("type: Modern", "type: Custom"),
        &[],
        &format!("{at}.custom: required when"),
    );
    refused_with(
        "azure/ModernTLS",
        |t| {
            t.replace(
                "type: Modern",
                "type: Custom\n        custom: {minTLSVersion: TLS1.2}",
            )
        },
        &[],
        &format!("{at}.custom.minTLSVersion: unknown TLS version \"TLS1.2\""),
    );
}

#[test]
fn openstack_without_its_credentials_and_an_unknown_operator_env_are_refused() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dest = tmp.path().join("out");
    std::fs::create_dir_all(&dest).expect("mkdir");
    let dir = case("openstack/default");
    let s = |p: PathBuf| p.to_string_lossy().into_owned();
    let (hcp, images, out) = (
        s(dir.join("hcp.yaml")),
        s(dir.join("image-references.yaml")),
        s(dest.clone()),
    );
    let base = [
        "render",
        "--hosted-control-plane",
        &hcp,
        "--images",
        &images,
        "--dest-dir",
        &out,
    ];
    assert_refused_untouched(
        &dest,
        || ccm_render(&base),
        "spec.platform.openstack.identityRef.name: the Secret hcp-namespace/fake-cloud-credentials-secret is read from the management cluster; give it with --credentials",
    );
    let mut args = base.to_vec();
    args.extend(["--operator-env", "KUBECONFIG=/x"]);
    assert_refused_untouched(
        &dest,
        || ccm_render(&args),
        "--operator-env \"KUBECONFIG\": not a variable",
    );
    let infrastructure = s(crate::common::conformance("aws/infrastructure.yaml"));
    let standalone = [
        "render",
        "--infrastructure",
        &infrastructure,
        "--images",
        &images,
        "--operator-env",
        "MANAGED_SERVICE=ARO-HCP",
        "--dest-dir",
        &out,
    ];
    // A flag of a hosted render with a standalone one: clap's usage error, naming both.
    let before = read_tree(&dest);
    let out = ccm_render(&standalone);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with(
            "error: the argument '--infrastructure <FILE>' cannot be used with '--operator-env <KEY=VALUE>'"
        ),
        "{err}"
    );
    assert_eq!(read_tree(&dest), before);
}

#[test]
fn a_proxy_in_the_operator_env_reaches_the_aws_ccm_with_kube_apiserver_added() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dest = tmp.path().join("out");
    let mut args = args_of(&case("aws/default"), &dest);
    args.extend(
        [
            "--operator-env",
            "HTTPS_PROXY=http://proxy:3128",
            "--operator-env",
            "NO_PROXY=zeta,.svc,zeta",
        ]
        .map(String::from),
    );
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    assert!(ccm_render(&args).status.success());
    let tree = read_tree(&dest);
    let text =
        String::from_utf8_lossy(&tree["manifests/deployment-aws-cloud-controller-manager.yaml"])
            .into_owned();
    let d = &parse_all(&text)[0];
    let env = d
        .pointer("/spec/template/spec/containers/0/env")
        .expect("env");
    let find = |n: &str| {
        env.as_array()
            .and_then(|l| l.iter().find(|e| e["name"] == n))
            .map(|e| e["value"].clone())
    };
    assert_eq!(find("HTTPS_PROXY"), Some(Value::from("http://proxy:3128")));
    assert_eq!(
        find("NO_PROXY"),
        Some(Value::from(".svc,kube-apiserver,zeta"))
    );
    assert_eq!(find("HTTP_PROXY"), None);
}

#[test]
fn compare_hosted_shows_field_by_field_where_aws_differs_and_refuses_kubevirt() {
    let out = ccm_render(&["compare-hosted", "AWS"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("utf8");
    let line = |start: &str| {
        text.lines()
            .find(|l| l.starts_with(start))
            .unwrap_or_else(|| panic!("no line {start:?} in {text}"))
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    // A flag both set differently, one only CCCMO passes, one only HyperShift passes, one alike.
    assert_eq!(
        line("≠ flag use-service-account-credentials"),
        "≠ flag use-service-account-credentials standalone: true hosted: false"
    );
    assert_eq!(
        line("< flag secure-port"),
        "< flag secure-port standalone: 0 hosted: -"
    );
    assert!(line("> flag kubeconfig").ends_with("hosted: /etc/kubernetes/kubeconfig/kubeconfig"));
    assert_eq!(
        line("= flag cloud-provider"),
        "= flag cloud-provider standalone: aws hosted: aws"
    );
    // The cloud config's keys, section by section, and the resources.
    assert_eq!(
        line("= config [global] nlbsecuritygroupmode"),
        "= config [global] nlbsecuritygroupmode standalone: Managed hosted: Managed"
    );
    assert_eq!(
        line("≠ request cpu"),
        "≠ request cpu standalone: 200m hosted: 75m"
    );
    let err = ccm_render(&["compare-hosted", "KubeVirt"]);
    assert_eq!(err.status.code(), Some(2));
    // clap refuses it, naming the platforms that have both (KubeVirt's CCM is hosted only).
    let stderr = String::from_utf8_lossy(&err.stderr);
    assert!(
        stderr.starts_with("error: invalid value 'KubeVirt' for '[PLATFORM]'"),
        "{stderr}"
    );
    assert!(
        stderr.contains("[possible values: AWS, Azure, GCP, OpenStack, PowerVS]"),
        "{stderr}"
    );
}

#[test]
fn check_sees_a_changed_file_and_a_platform_without_a_hosted_ccm_renders_nothing() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dest = tmp.path().join("out");
    let args = args_of(&case("gcp/default"), &dest);
    let mut args: Vec<&str> = args.iter().map(String::as_str).collect();
    assert!(ccm_render(&args).status.success());
    args.push("--check");
    assert_eq!(ccm_render(&args).status.code(), Some(0));
    let file = dest.join("manifests/configmap-gcp-cloud-config.yaml");
    std::fs::write(&file, "edited\n").expect("write");
    let out = ccm_render(&args);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("manifests/configmap-gcp-cloud-config.yaml")
    );
    assert_eq!(std::fs::read_to_string(&file).expect("reads"), "edited\n");

    // HyperShift builds no CCM for an Agent hosted control plane.
    let agent = tmp.path().join("agent");
    std::fs::create_dir_all(&agent).expect("mkdir");
    let text = std::fs::read_to_string(case("aws/default/hcp.yaml")).expect("reads");
    std::fs::write(
        agent.join("hcp.yaml"),
        text.replace("type: AWS", "type: Agent"),
    )
    .expect("write");
    std::fs::copy(
        case("aws/default/image-references.yaml"),
        agent.join("image-references.yaml"),
    )
    .expect("copy");
    let dest = tmp.path().join("agent-out");
    let args = args_of(&agent, &dest);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = ccm_render(&args);
    assert!(out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("HyperShift builds no CCM for the Agent hosted control plane")
    );
    assert!(read_tree(&dest).is_empty());
}

/// The Old TLS profile as HyperShift passes it: `config.TLSArgs` appends `--tls-min-version`
/// then `--tls-cipher-suites` (HyperShift support/config), the suites being openshift/api's
/// `TLSProfiles[Old].Ciphers` looked up in HyperShift's own `openSSLToIANACiphersMap`
/// (support/config/cipher.go), which has ten of them. So each platform's ModernTLS golden
/// Deployment, its `--tls-min-version=VersionTLS13` (Modern's suites are all TLS 1.3 ones, which
/// that table lacks) read as the Old profile's flags, is what HyperShift creates for Old.
#[test]
fn the_old_tls_profile_passes_the_ten_suites_hypershifts_table_maps() {
    const OLD_SUITES: &str = concat!(
        "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,",
        "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,",
        "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,",
        "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,",
        "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,",
        "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,",
        "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA,",
        "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA,",
        "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA,",
        "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA",
    );
    for platform in ["aws", "azure", "gcp", "kubevirt", "openstack", "powervs"] {
        let modern = case(&format!("{platform}/ModernTLS"));
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = tmp.path().join("case");
        std::fs::create_dir_all(&dir).expect("mkdir");
        for entry in std::fs::read_dir(&modern).expect("case") {
            let path = entry.expect("entry").path();
            if path.is_file() {
                let text = std::fs::read_to_string(&path).expect("reads");
                let name = path.file_name().expect("name");
                std::fs::write(dir.join(name), text.replace("type: Modern", "type: Old"))
                    .expect("write");
            }
        }
        let dest = tmp.path().join("out");
        let args = args_of(&dir, &dest);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = ccm_render(&args);
        assert!(
            out.status.success(),
            "{platform}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let name = format!("manifests/deployment-{platform}-cloud-controller-manager.yaml");
        let rendered = parse_all(&String::from_utf8_lossy(&read_tree(&dest)[&name])).remove(0);
        let file = std::fs::read_dir(modern.join("expected"))
            .expect("expected/")
            .map(|e| e.expect("entry").path())
            .find(|p| p.to_string_lossy().ends_with("_deployment.yaml"))
            .expect("the golden Deployment");
        let mut want = without_apply_fields(
            parse_all(&std::fs::read_to_string(file).expect("reads")).remove(0),
        );
        let args = want
            .pointer_mut("/spec/template/spec/containers/0/args")
            .and_then(Value::as_array_mut)
            .expect("the CCM's args");
        let at = args
            .iter()
            .position(|a| a == "--tls-min-version=VersionTLS13")
            .expect("Modern's flag");
        args[at] = Value::from("--tls-min-version=VersionTLS10");
        args.insert(
            at + 1,
            Value::from(format!("--tls-cipher-suites={OLD_SUITES}")),
        );
        assert_eq!(rendered, want, "{platform}");
    }
}
