//! `--credentials` and `--ca-bundle` with the `ccm-trusted-ca` ConfigMap
//! through the binary.

use crate::common;

use common::*;
use serde_json::Value;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};

fn credentials(platform: &str) -> PathBuf {
    root().join(format!("testdata/credentials/{platform}.yaml"))
}

fn cert(name: &str) -> PathBuf {
    root().join(format!("testdata/certs/{name}.pem"))
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path)
        .expect("exists")
        .permissions()
        .mode()
        & 0o777
}

/// The decoded `data`/`stringData` of the (only) Secret in a credentials file.
fn secret_data(platform: &str) -> Vec<(String, Vec<u8>)> {
    let text = std::fs::read_to_string(credentials(platform)).expect("read");
    let creds = ccm_render::inputs::credentials::parse(&text, "x".into()).expect("parses");
    creds.secrets[0]
        .data
        .iter()
        .map(|(k, v)| (k.clone(), v.bytes().to_vec()))
        .collect()
}

fn value_of(platform: &str, key: &str) -> Vec<u8> {
    secret_data(platform)
        .into_iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v)
        .expect("key in the test secret")
}

/// Which file each provider writes under secrets/, and from which key (None: none).
const FILES: [(&str, Option<(&str, &str)>); 9] = [
    ("aws", None),
    ("azure", Some(("cloud.conf", ""))),
    ("azurestackhub", Some(("cloud.conf", ""))),
    (
        "gcp",
        Some(("service_account.json", "service_account.json")),
    ),
    ("ibmcloud", Some(("ibmcloud_api_key", "ibmcloud_api_key"))),
    ("nutanix", None),
    ("openstack", Some(("clouds.yaml", "clouds.yaml"))),
    ("powervs", Some(("ibmcloud_api_key", "ibmcloud_api_key"))),
    ("vsphere", None),
];

#[test]
fn credentials_become_private_files_under_secrets_for_every_platform() {
    for (platform, file) in FILES {
        let dir = tempfile::tempdir().expect("tempdir");
        let creds = credentials(platform);
        let out = render_conformance(
            platform,
            "infrastructure.yaml",
            &["--credentials", s(&creds)],
            dir.path(),
        );
        assert!(out.status.success(), "{platform}: {}", stderr(&out));
        let secrets = dir.path().join("secrets");
        assert!(
            secrets.is_dir(),
            "{platform}: secrets/ exists with --credentials"
        );
        assert_eq!(mode(&secrets), 0o700, "{platform}");
        let written: Vec<String> = std::fs::read_dir(&secrets)
            .expect("readable")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        match file {
            None => {
                assert!(written.is_empty(), "{platform}: {written:?}");
                assert!(
                    stderr(&out).contains("nothing written under secrets/"),
                    "{platform}: {}",
                    stderr(&out)
                );
            }
            Some((name, key)) => {
                assert_eq!(written, [name], "{platform}");
                let path = secrets.join(name);
                assert_eq!(mode(&path), 0o600, "{platform}");
                if !key.is_empty() {
                    assert_eq!(
                        std::fs::read(&path).expect("read"),
                        value_of(platform, key),
                        "{platform}"
                    );
                }
                // The bootstrap pod reads the file from the host directory bootkube copies
                // secrets/ into.
                let pod = std::fs::read_dir(dir.path().join("bootstrap"))
                    .expect("bootstrap/")
                    .map(|e| std::fs::read_to_string(e.expect("entry").path()).expect("read"))
                    .collect::<String>();
                assert!(
                    pod.contains("/etc/kubernetes/bootstrap-secrets"),
                    "{platform}"
                );
            }
        }
        // No secret value reaches the terminal.
        let printed = format!("{}{}", stderr(&out), String::from_utf8_lossy(&out.stdout));
        for (key, value) in secret_data(platform) {
            let value = String::from_utf8_lossy(&value);
            assert!(
                !printed.contains(value.as_ref()),
                "{platform}: {key} printed"
            );
        }
    }
}

#[test]
fn azure_bootstrap_cloud_conf_is_the_cloud_config_with_the_service_principal_merged_in() {
    for (platform, managed_identity) in [("azure", false), ("azurestackhub", true)] {
        let dir = tempfile::tempdir().expect("tempdir");
        let creds = credentials(platform);
        let out = render_conformance(
            platform,
            "infrastructure.yaml",
            &["--credentials", s(&creds)],
            dir.path(),
        );
        assert!(out.status.success(), "{}", stderr(&out));
        let read_json = |rel: &str| -> serde_json::Map<String, Value> {
            serde_json::from_slice(&std::fs::read(dir.path().join(rel)).expect("read"))
                .expect("JSON object")
        };
        let config = read_json("config/cloud.conf");
        let mut merged = read_json("secrets/cloud.conf");
        assert_eq!(
            merged.remove("aadClientId"),
            Some(Value::String("22222222-2222-2222-2222-222222222222".into()))
        );
        assert_eq!(
            merged.remove("aadClientSecret"),
            Some(Value::String("fake-azure-client-secret-value".into()))
        );
        // azure runs the injector with --disable-identity-extension-auth; Azure Stack Hub not.
        let mut expected = config.clone();
        if config.contains_key("useManagedIdentityExtension") {
            expected.insert(
                "useManagedIdentityExtension".into(),
                Value::Bool(managed_identity && config["useManagedIdentityExtension"] == true),
            );
        }
        assert_eq!(merged, expected, "{platform}");
        // The cloud config itself (config/, the cloud-conf ConfigMap) never holds the secret.
        let tree = read_tree(dir.path());
        for (path, bytes) in &tree {
            if !path.starts_with("secrets/") {
                assert!(
                    !String::from_utf8_lossy(bytes).contains("fake-azure-client-secret-value"),
                    "{path}"
                );
            }
        }
    }
}

#[test]
fn rerunning_with_credentials_changes_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let creds = credentials("gcp");
    let args = ["--credentials", s(&creds)];
    let first = render_conformance("gcp", "infrastructure.yaml", &args, dir.path());
    assert!(first.status.success(), "{}", stderr(&first));
    let before = read_tree(dir.path());
    let second = render_conformance("gcp", "infrastructure.yaml", &args, dir.path());
    assert!(
        stderr(&second).contains("(0 written"),
        "{}",
        stderr(&second)
    );
    assert_eq!(read_tree(dir.path()), before);
}

#[test]
fn without_credentials_there_is_no_secrets_folder_and_a_warning() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = render_conformance("openstack", "infrastructure.yaml", &[], dir.path());
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!dir.path().join("secrets").exists());
    assert!(
        stderr(&out).contains("no --credentials: the openstack bootstrap pod reads /etc/kubernetes/bootstrap-secrets/clouds.yaml"),
        "{}",
        stderr(&out)
    );
}

/// Renders into a pre-populated dest with extra flags; asserts exit 2, a short error holding
/// `message` and no secret, and an untouched dest.
fn assert_refused(platform: &str, extra: &[&str], message: &str, secret: &str) {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(dir.path().join("secrets")).expect("mkdir");
    std::fs::write(dir.path().join("secrets/old"), "kept\n").expect("write");
    let err = assert_refused_untouched(
        dir.path(),
        || render_conformance(platform, "infrastructure.yaml", extra, dir.path()),
        message,
    );
    if !secret.is_empty() {
        assert!(!err.contains(secret), "{err}");
    }
}

#[test]
fn the_wrong_platforms_secret_is_refused() {
    let creds = credentials("aws");
    assert_refused(
        "gcp",
        &["--credentials", s(&creds)],
        "gcp reads the Secret kube-system/gcp-credentials or openshift-cloud-controller-manager/gcp-ccm-cloud-credentials, but the file holds kube-system/aws-creds",
        "fake-aws-secret-value",
    );
}

#[test]
fn bad_credentials_files_are_refused_without_showing_values() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cases = [
        (
            "not-base64.yaml",
            "apiVersion: v1\nkind: Secret\nmetadata: {name: gcp-credentials, namespace: kube-system}\ndata:\n  service_account.json: 'hunter2 is not base64!'\n",
            "data.service_account.json: not valid base64",
        ),
        (
            "missing-key.yaml",
            "apiVersion: v1\nkind: Secret\nmetadata: {name: gcp-credentials, namespace: kube-system}\nstringData:\n  other: hunter2\n",
            "Secret kube-system/gcp-credentials has no key \"service_account.json\"",
        ),
        (
            "broken.yaml",
            "apiVersion: v1\nkind: Secret\nstringData: {a: hunter2, a: hunter2}\n",
            "details withheld",
        ),
        (
            "configmap.yaml",
            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n",
            "no Secret object (the file holds ConfigMap)",
        ),
    ];
    for (name, text, message) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, text).expect("write");
        assert_refused("gcp", &["--credentials", s(&path)], message, "hunter2");
    }
}

#[test]
fn azure_workload_identity_credentials_are_refused_for_the_static_pod() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("wi.yaml");
    std::fs::write(
        &path,
        "apiVersion: v1\nkind: Secret\nmetadata: {name: azure-cloud-credentials, namespace: openshift-cloud-controller-manager}\nstringData:\n  azure_client_id: id\n  azure_tenant_id: t\n  azure_region: centralus\n  azure_federated_token_file: /var/run/secrets/openshift/serviceaccount/token\n",
    )
    .expect("write");
    assert_refused(
        "azure",
        &["--credentials", s(&path)],
        "static pod cannot mount",
        "",
    );
}

fn trusted_ca(dir: &Path) -> Option<Value> {
    let path = dir.join("manifests/configmap-ccm-trusted-ca.yaml");
    path.exists()
        .then(|| parse_all(&std::fs::read_to_string(path).expect("read")).remove(0))
}

#[test]
fn ca_bundle_becomes_the_ccm_trusted_ca_config_map() {
    let dir = tempfile::tempdir().expect("tempdir");
    let one = cert("one");
    let out = render_conformance(
        "aws",
        "infrastructure.yaml",
        &["--ca-bundle", s(&one), "--namespace", "ccm-test"],
        dir.path(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let cm = trusted_ca(dir.path()).expect("ccm-trusted-ca rendered");
    assert_eq!(cm["metadata"]["namespace"], "ccm-test");
    assert_eq!(
        cm["metadata"]["annotations"]["openshift.io/owning-component"],
        "Cloud Compute / Cloud Controller Manager"
    );
    assert_eq!(
        cm["data"]["ca-bundle.crt"],
        std::fs::read_to_string(&one).expect("read")
    );
    // The Deployment mounts exactly this ConfigMap and key.
    let deployment = std::fs::read_to_string(
        dir.path()
            .join("manifests/deployment-aws-cloud-controller-manager.yaml"),
    )
    .expect("deployment");
    assert!(
        deployment.contains("name: ccm-trusted-ca") && deployment.contains("key: ca-bundle.crt")
    );
}

#[test]
fn the_cloud_configs_ca_comes_first_and_reaches_the_openstack_bootstrap_pod() {
    let dir = tempfile::tempdir().expect("tempdir");
    let infra = conformance("openstack/infrastructure.yaml");
    let cloud = variant("openstack-cloud-provider-config-ca.yaml");
    let one = cert("one");
    let images = conformance("images.json");
    let args = [
        "render",
        "--infrastructure",
        s(&infra),
        "--images",
        s(&images),
        "--cloud-config",
        s(&cloud),
        "--ca-bundle",
        s(&one),
        "--dest-dir",
        s(dir.path()),
    ];
    let out = ccm_render(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let two_text = std::fs::read_to_string(cert("two")).expect("read");
    let one_text = std::fs::read_to_string(&one).expect("read");
    let cm = trusted_ca(dir.path()).expect("rendered");
    assert_eq!(cm["data"]["ca-bundle.crt"], format!("{two_text}{one_text}"));
    // The bootstrap pod finds the cloud's CA where the installer's ca-file points.
    assert_eq!(
        std::fs::read_to_string(dir.path().join("config/ca-bundle.pem"))
            .expect("config/ca-bundle.pem"),
        two_text
    );
    let pod = std::fs::read_to_string(
        dir.path()
            .join("bootstrap/pod-openstack-bootstrap-cloud-controller-manager.yaml"),
    )
    .expect("pod");
    assert!(
        pod.contains("mountPath: /etc/kubernetes/static-pod-resources/configmaps/cloud-config")
    );
}

#[test]
fn without_a_ca_source_the_operator_keeps_creating_ccm_trusted_ca() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = render_conformance("aws", "infrastructure.yaml", &[], dir.path());
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(trusted_ca(dir.path()).is_none());
}

#[test]
fn a_ca_bundle_that_is_not_certificates_is_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let key = dir.path().join("key.pem");
    std::fs::write(
        &key,
        "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIA==\n-----END PRIVATE KEY-----\n",
    )
    .expect("write");
    assert_refused(
        "aws",
        &["--ca-bundle", s(&key)],
        &format!("--ca-bundle {}: line 1: a PRIVATE KEY block", key.display()),
        "",
    );
    let missing = dir.path().join("missing.pem");
    assert_refused("aws", &["--ca-bundle", s(&missing)], "--ca-bundle", "");
}
